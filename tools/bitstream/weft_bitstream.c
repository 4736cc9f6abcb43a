/*
 * weft-bitstream: builds and inspects Weft's partial bitstream files (weft/bitstream.h,
 * docs/reconfiguration.md).
 *
 *   weft-bitstream build --image PATH --partition NAME --slots MASK
 *                        [--payload-bytes N | --payload FILE] --out FILE
 *       A file that configures the thread image at PATH (named by its file name and its
 *       SHA-256) into the slots of MASK (bit i: slot i of the platform). The payload
 *       models the configuration data of a real partial bitstream: N bytes (default
 *       346,112 = 338 KiB, as FRED measured a slot's bitstream), generated from the
 *       image's digest so that two builds of one image give the same file. For a board,
 *       --payload takes the vendor's partial bitstream of one slot (MASK: that slot).
 *   weft-bitstream info FILE
 *       Checks a whole file and prints its header; exits 1 naming what is wrong.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "weft/bitstream.h"

#define PROG "weft-bitstream"

static void usage(void)
{
    fprintf(stderr, "usage: " PROG " build --image PATH --partition NAME --slots MASK "
                    "[--payload-bytes N | --payload FILE] --out FILE\n"
                    "       " PROG " info FILE\n");
    exit(2);
}

static unsigned long number(const char *what, const char *s, unsigned long max)
{
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(s, &end, 0);
    if (errno || !end || *end || s[0] == '-' || v == 0 || v > max) {
        fprintf(stderr, PROG ": %s '%s' is not a number from 1 to %lu\n", what, s, max);
        exit(2);
    }
    return v;
}

/* Read at most cap bytes of path into *buf (malloc'd), after `room` bytes left free at its
 * start; *len counts the bytes read. 0, or 1 after naming the error. */
static int read_file(const char *path, size_t room, size_t cap, uint8_t **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return 1;
    }
    if (st.st_size >= 0 && (uint64_t)st.st_size < cap)
        cap = (size_t)st.st_size + 1; /* one byte more shows a file that grew */
    *buf = malloc(room + cap);
    if (!*buf) {
        fclose(f);
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    size_t n;
    *len = 0;
    while (*len < cap && (n = fread(*buf + room + *len, 1, cap - *len, f)) > 0)
        *len += n;
    const int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, PROG ": %s: read error\n", path);
        free(*buf);
        *buf = NULL;
        return 1;
    }
    return 0;
}

static int build(int argc, char **argv)
{
    const char *image = NULL, *partition = NULL, *out = NULL, *payload_file = NULL;
    unsigned long slots = 0, payload = WEFT_BITSTREAM_FRED_PAYLOAD;
    int payload_bytes_given = 0;
    for (int i = 0; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        if (!strcmp(argv[i], "--image"))
            image = argv[++i];
        else if (!strcmp(argv[i], "--partition"))
            partition = argv[++i];
        else if (!strcmp(argv[i], "--slots"))
            slots = number("--slots", argv[++i], UINT32_MAX);
        else if (!strcmp(argv[i], "--payload-bytes")) {
            payload = number("--payload-bytes", argv[++i], WEFT_BITSTREAM_MAX_PAYLOAD);
            payload_bytes_given = 1;
        } else if (!strcmp(argv[i], "--payload"))
            payload_file = argv[++i];
        else if (!strcmp(argv[i], "--out"))
            out = argv[++i];
        else
            usage();
    }
    if (!image || !partition || !slots || !out)
        usage();
    if (payload_file && payload_bytes_given) {
        fprintf(stderr, PROG ": --payload and --payload-bytes exclude each other\n");
        return 2;
    }
    /* A given payload: the vendor's bitstream, read into place after the header's room. */
    uint8_t *given = NULL;
    size_t given_len = 0;
    if (payload_file) {
        if (read_file(payload_file, WEFT_BITSTREAM_HEADER_BYTES, WEFT_BITSTREAM_MAX_PAYLOAD + 1,
                      &given, &given_len))
            return 1;
        if (given_len == 0 || given_len > WEFT_BITSTREAM_MAX_PAYLOAD) {
            fprintf(stderr, PROG ": %s: a payload is 1 to %u bytes\n", payload_file,
                    WEFT_BITSTREAM_MAX_PAYLOAD);
            free(given);
            return 2;
        }
        payload = given_len;
    }

    weft_bitstream_info_t info = {.payload_size = (uint32_t)payload, .slot_mask = (uint32_t)slots};
    const char *base = strrchr(image, '/') ? strrchr(image, '/') + 1 : image;
    if (strlen(base) >= sizeof info.image || strlen(partition) >= sizeof info.partition) {
        fprintf(stderr, PROG ": image name '%s' or partition '%s' too long\n", base, partition);
        free(given);
        return 2;
    }
    strcpy(info.image, base);
    strcpy(info.partition, partition);
    int rc = weft_bitstream_file_sha256(image, info.image_sha256);
    if (rc) {
        fprintf(stderr, PROG ": %s: %s\n", image, strerror(-rc));
        free(given);
        return 1;
    }
    uint8_t *file = given ? given : malloc(WEFT_BITSTREAM_HEADER_BYTES + payload);
    if (!file) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    rc = given ? weft_bitstream_seal(&info, file) : weft_bitstream_build(&info, file);
    if (rc != 0) {
        fprintf(stderr,
                PROG ": image name '%s' or partition '%s' is not 1 to %u characters of "
                     "[A-Za-z0-9_.-] (not starting with '.')\n",
                info.image, info.partition, (unsigned)sizeof info.image - 1);
        free(file);
        return 2;
    }
    FILE *f = fopen(out, "wb");
    size_t len = WEFT_BITSTREAM_HEADER_BYTES + payload;
    int bad = !f || fwrite(file, 1, len, f) != len;
    if (f && fclose(f) != 0)
        bad = 1;
    free(file);
    if (bad) {
        fprintf(stderr, PROG ": cannot write %s: %s\n", out, strerror(errno));
        remove(out);
        return 1;
    }
    return 0;
}

static int info(const char *path)
{
    /* No file longer than the largest one is read whole: the check names its length. */
    uint8_t *buf;
    size_t len;
    if (read_file(path, 0, WEFT_BITSTREAM_HEADER_BYTES + WEFT_BITSTREAM_MAX_PAYLOAD + 1, &buf,
                  &len))
        return 1;
    weft_bitstream_info_t inf;
    char why[160];
    int rc = weft_bitstream_check(buf, len, &inf, why, sizeof why);
    free(buf);
    if (rc) {
        fprintf(stderr, PROG ": %s: %s\n", path, why);
        return 1;
    }
    printf("%s: Weft partial bitstream, format %u\n  partition %s, slots 0x%x\n  image %s, "
           "sha256 ",
           path, inf.version, inf.partition, (unsigned)inf.slot_mask, inf.image);
    for (unsigned i = 0; i < WEFT_BITSTREAM_DIGEST_BYTES; i++)
        printf("%02x", inf.image_sha256[i]);
    printf("\n  payload %u bytes, crc32 0x%08x\n", (unsigned)inf.payload_size,
           (unsigned)inf.payload_crc);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "build"))
        return build(argc - 2, argv + 2);
    if (argc == 3 && !strcmp(argv[1], "info"))
        return info(argv[2]);
    usage();
}

/*
 * Partial bitstream files (weft/bitstream.h): the header's checks, its writer, and the
 * two digests a file carries. zlib computes the CRC-32s (the one of PNG and gzip, so any
 * tool can check a file) and nettle the image's SHA-256; both are Debian packages
 * (scripts/setup.sh).
 *
 * Every check names the field it found wrong: a file comes from outside the process (a
 * build directory, a user's copy), so a bad one must be reported, never trusted.
 */
#define _POSIX_C_SOURCE 200809L
#include "weft/bitstream.h"
#include "le_bytes.h"
#include "weft/osif_protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* The reconfiguration interface checks headers of this very layout in hardware. */
_Static_assert(WEFT_FRI_HEADER_BYTES == WEFT_BITSTREAM_HEADER_BYTES, "FRI header size");
_Static_assert(WEFT_FRI_MAX_PAYLOAD == WEFT_BITSTREAM_MAX_PAYLOAD, "FRI payload limit");
_Static_assert(WEFT_FRI_VERSION_WORD ==
                   (WEFT_BITSTREAM_VERSION | WEFT_BITSTREAM_HEADER_BYTES << 16),
               "FRI version word");

/* Field offsets (the table in weft/bitstream.h). */
enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 8,
    OFF_HEADER_SIZE = 10,
    OFF_PAYLOAD_SIZE = 12,
    OFF_PAYLOAD_CRC = 16,
    OFF_SLOT_MASK = 20,
    OFF_PARTITION = 24,
    OFF_IMAGE = 48,
    OFF_DIGEST = 96,
    OFF_HEADER_CRC = 128,
    OFF_RESERVED = 132,
};

/* Name what is wrong in why; the reconfiguration interface's code for it. */
__attribute__((format(printf, 4, 5))) static unsigned refuse(char *why, size_t why_len,
                                                             unsigned code, const char *fmt, ...)
{
    if (why && why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return code;
}

uint32_t weft_bitstream_crc32(uint32_t crc, const void *buf, size_t len)
{
    const Bytef *p = buf;
    uLong c = crc;
    while (len > 0) { /* zlib takes a uInt length */
        uInt n = len > 0x40000000u ? 0x40000000u : (uInt)len;
        c = crc32(c, p, n);
        p += n;
        len -= n;
    }
    return (uint32_t)c;
}

/* A name as the header wants it: [A-Za-z0-9_.-]+, not starting with '.', 0-terminated
 * inside the field and 0 after. */
static bool name_ok(const uint8_t *field, size_t size)
{
    size_t n = 0;
    while (n < size && field[n] != 0) {
        uint8_t c = field[n];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '.';
        if (!ok)
            return false;
        n++;
    }
    if (n == 0 || n == size || field[0] == '.')
        return false;
    for (size_t i = n; i < size; i++)
        if (field[i] != 0)
            return false;
    return true;
}

/* The header's checks, in the order the reconfiguration interface makes them. */
static unsigned header_error(const void *buf, size_t len, weft_bitstream_info_t *out, char *why,
                             size_t why_len)
{
    const uint8_t *h = buf;
    if (!buf || !out)
        return refuse(why, why_len, WEFT_FRI_ERR_ARGS, "no header given");
    if (len < WEFT_BITSTREAM_HEADER_BYTES)
        return refuse(why, why_len, WEFT_FRI_ERR_TRUNCATED,
                      "%zu bytes, shorter than the %u-byte header", len,
                      WEFT_BITSTREAM_HEADER_BYTES);
    if (memcmp(h + OFF_MAGIC, WEFT_BITSTREAM_MAGIC, sizeof WEFT_BITSTREAM_MAGIC) != 0)
        return refuse(why, why_len, WEFT_FRI_ERR_MAGIC, "not a Weft partial bitstream (bad magic)");
    unsigned version = le_get16(h + OFF_VERSION);
    if (version != WEFT_BITSTREAM_VERSION)
        return refuse(why, why_len, WEFT_FRI_ERR_VERSION,
                      "format version %u, this runtime reads version %u", version,
                      WEFT_BITSTREAM_VERSION);
    if (le_get16(h + OFF_HEADER_SIZE) != WEFT_BITSTREAM_HEADER_BYTES)
        return refuse(why, why_len, WEFT_FRI_ERR_VERSION, "header size %u, version %u has %u",
                      (unsigned)le_get16(h + OFF_HEADER_SIZE), version,
                      WEFT_BITSTREAM_HEADER_BYTES);
    uint32_t crc = weft_bitstream_crc32(0, h, OFF_HEADER_CRC);
    if (le_get32(h + OFF_HEADER_CRC) != crc)
        return refuse(why, why_len, WEFT_FRI_ERR_HEADER_CRC,
                      "header CRC-32 0x%08x, the header's bytes give 0x%08x",
                      (unsigned)le_get32(h + OFF_HEADER_CRC), (unsigned)crc);
    for (unsigned i = OFF_RESERVED; i < WEFT_BITSTREAM_HEADER_BYTES; i++)
        if (h[i] != 0)
            return refuse(why, why_len, WEFT_FRI_ERR_RESERVED, "reserved header byte %u is not 0",
                          i);
    uint32_t size = le_get32(h + OFF_PAYLOAD_SIZE);
    if (size == 0 || size > WEFT_BITSTREAM_MAX_PAYLOAD)
        return refuse(why, why_len, WEFT_FRI_ERR_SIZE, "payload size %u (1 to %u bytes)",
                      (unsigned)size, WEFT_BITSTREAM_MAX_PAYLOAD);
    uint32_t mask = le_get32(h + OFF_SLOT_MASK);
    if (mask == 0)
        return refuse(why, why_len, WEFT_FRI_ERR_SLOT, "slot mask 0: the file programs no slot");
    if (!name_ok(h + OFF_PARTITION, WEFT_BITSTREAM_PARTITION_FIELD))
        return refuse(why, why_len, WEFT_FRI_ERR_LOAD,
                      "partition name is not 1 to %u characters of [A-Za-z0-9_.-]",
                      WEFT_BITSTREAM_PARTITION_FIELD - 1);
    if (!name_ok(h + OFF_IMAGE, WEFT_BITSTREAM_IMAGE_FIELD))
        return refuse(why, why_len, WEFT_FRI_ERR_LOAD,
                      "image name is not 1 to %u characters of [A-Za-z0-9_.-]",
                      WEFT_BITSTREAM_IMAGE_FIELD - 1);

    memset(out, 0, sizeof *out);
    out->version = version;
    out->payload_size = size;
    out->payload_crc = le_get32(h + OFF_PAYLOAD_CRC);
    out->slot_mask = mask;
    memcpy(out->partition, h + OFF_PARTITION, WEFT_BITSTREAM_PARTITION_FIELD);
    memcpy(out->image, h + OFF_IMAGE, WEFT_BITSTREAM_IMAGE_FIELD);
    memcpy(out->image_sha256, h + OFF_DIGEST, WEFT_BITSTREAM_DIGEST_BYTES);
    return 0;
}

int weft_bitstream_parse_header(const void *buf, size_t len, weft_bitstream_info_t *out, char *why,
                                size_t why_len)
{
    return header_error(buf, len, out, why, why_len) ? -EINVAL : 0;
}

unsigned weft_bitstream_verify(const void *buf, size_t len, weft_bitstream_info_t *out, char *why,
                               size_t why_len)
{
    weft_bitstream_info_t info;
    unsigned code = header_error(buf, len, &info, why, why_len);
    if (code != 0)
        return code;
    size_t have = len - WEFT_BITSTREAM_HEADER_BYTES;
    if (have < info.payload_size)
        return refuse(why, why_len, WEFT_FRI_ERR_TRUNCATED, "truncated: %zu payload bytes of %u",
                      have, (unsigned)info.payload_size);
    if (have > info.payload_size)
        return refuse(why, why_len, WEFT_FRI_ERR_LONG, "%zu bytes after a payload of %u",
                      have - info.payload_size, (unsigned)info.payload_size);
    uint32_t crc = weft_bitstream_crc32(0, (const uint8_t *)buf + WEFT_BITSTREAM_HEADER_BYTES,
                                        info.payload_size);
    if (crc != info.payload_crc)
        return refuse(why, why_len, WEFT_FRI_ERR_PAYLOAD_CRC,
                      "payload CRC-32 0x%08x, the header says 0x%08x", (unsigned)crc,
                      (unsigned)info.payload_crc);
    if (out)
        *out = info;
    return 0;
}

int weft_bitstream_check(const void *buf, size_t len, weft_bitstream_info_t *out, char *why,
                         size_t why_len)
{
    return weft_bitstream_verify(buf, len, out, why, why_len) ? -EINVAL : 0;
}

int weft_bitstream_write_header(const weft_bitstream_info_t *info, void *out)
{
    uint8_t *h = out;
    if (!info || !out || info->payload_size == 0 ||
        info->payload_size > WEFT_BITSTREAM_MAX_PAYLOAD || info->slot_mask == 0)
        return -EINVAL;
    memset(h, 0, WEFT_BITSTREAM_HEADER_BYTES);
    size_t np = strnlen(info->partition, WEFT_BITSTREAM_PARTITION_FIELD);
    size_t ni = strnlen(info->image, WEFT_BITSTREAM_IMAGE_FIELD);
    memcpy(h + OFF_PARTITION, info->partition, np);
    memcpy(h + OFF_IMAGE, info->image, ni);
    if (!name_ok(h + OFF_PARTITION, WEFT_BITSTREAM_PARTITION_FIELD) ||
        !name_ok(h + OFF_IMAGE, WEFT_BITSTREAM_IMAGE_FIELD))
        return -EINVAL;
    memcpy(h + OFF_MAGIC, WEFT_BITSTREAM_MAGIC, sizeof WEFT_BITSTREAM_MAGIC);
    le_put16(h + OFF_VERSION, WEFT_BITSTREAM_VERSION);
    le_put16(h + OFF_HEADER_SIZE, WEFT_BITSTREAM_HEADER_BYTES);
    le_put32(h + OFF_PAYLOAD_SIZE, info->payload_size);
    le_put32(h + OFF_PAYLOAD_CRC, info->payload_crc);
    le_put32(h + OFF_SLOT_MASK, info->slot_mask);
    memcpy(h + OFF_DIGEST, info->image_sha256, WEFT_BITSTREAM_DIGEST_BYTES);
    le_put32(h + OFF_HEADER_CRC, weft_bitstream_crc32(0, h, OFF_HEADER_CRC));
    return 0;
}

int weft_bitstream_fd_sha256(int fd, int copy_fd, uint8_t digest[WEFT_BITSTREAM_DIGEST_BYTES])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    uint8_t buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        sha256_update(&ctx, (size_t)n, buf);
        for (ssize_t done = 0; copy_fd >= 0 && done < n;) {
            ssize_t w = write(copy_fd, buf + done, (size_t)(n - done));
            if (w < 0 && errno != EINTR)
                return -errno;
            if (w == 0)
                return -EIO; /* no room left and no error: never loop on it */
            if (w > 0)
                done += w;
        }
    }
    sha256_digest(&ctx, WEFT_BITSTREAM_DIGEST_BYTES, digest);
    return 0;
}

/* The payload: bytes of a xorshift seeded from the digest. */
static void fill_payload(uint8_t *p, size_t n, const uint8_t *digest)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x = x << 8 | digest[i];
    x |= 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (uint8_t)(x >> 24);
    }
}

int weft_bitstream_seal(const weft_bitstream_info_t *info, void *file)
{
    if (!info || !file || info->payload_size == 0 ||
        info->payload_size > WEFT_BITSTREAM_MAX_PAYLOAD)
        return -EINVAL;
    weft_bitstream_info_t h = *info;
    h.payload_crc =
        weft_bitstream_crc32(0, (uint8_t *)file + WEFT_BITSTREAM_HEADER_BYTES, h.payload_size);
    return weft_bitstream_write_header(&h, file);
}

int weft_bitstream_build(const weft_bitstream_info_t *info, void *out)
{
    if (!info || !out || info->payload_size == 0 || info->payload_size > WEFT_BITSTREAM_MAX_PAYLOAD)
        return -EINVAL;
    fill_payload((uint8_t *)out + WEFT_BITSTREAM_HEADER_BYTES, info->payload_size,
                 info->image_sha256);
    return weft_bitstream_seal(info, out);
}

int weft_bitstream_file_sha256(const char *path, uint8_t digest[WEFT_BITSTREAM_DIGEST_BYTES])
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = weft_bitstream_fd_sha256(fd, -1, digest);
    close(fd);
    return rc;
}

const char *weft_bitstream_fri_error(unsigned code)
{
    switch (code) {
    case 0:
        return "no error";
    case WEFT_FRI_ERR_ARGS:
        return "bad arguments (slot out of range or file address unaligned)";
    case WEFT_FRI_ERR_BUS:
        return "bus error reading the file";
    case WEFT_FRI_ERR_MAGIC:
        return "not a Weft partial bitstream (bad magic)";
    case WEFT_FRI_ERR_VERSION:
        return "format version or header size this port does not read";
    case WEFT_FRI_ERR_HEADER_CRC:
        return "header CRC-32 mismatch";
    case WEFT_FRI_ERR_RESERVED:
        return "a reserved header byte is not 0";
    case WEFT_FRI_ERR_SIZE:
        return "payload size out of range";
    case WEFT_FRI_ERR_TRUNCATED:
        return "truncated: the file is shorter than its header and payload";
    case WEFT_FRI_ERR_LONG:
        return "the file is longer than its header and payload";
    case WEFT_FRI_ERR_SLOT:
        return "the slot is not in the file's slot mask";
    case WEFT_FRI_ERR_PAYLOAD_CRC:
        return "payload CRC-32 mismatch";
    case WEFT_FRI_ERR_LOAD:
        return "the configuration it names could not be loaded";
    default:
        return "unknown error";
    }
}

/*
 * libFuzzer target: the partial bitstream reader (runtime/bitstream.c) on whole files.
 *
 * Input: a mode byte, then a file's bytes, which go to the reader in an exactly sized
 * heap block (ASan reports any read past them). Mode bit 0 seals the header first (writes
 * the right header CRC-32 when the file has room for it), bit 1 the payload (the right
 * payload CRC-32 into the header, then the header): without them nearly every mutation
 * would stop at a CRC and never reach the fields behind it. Checked: the reader never accepts what
 * its own rules refuse. An accepted file is exactly a header and its payload, its names are
 * 0-terminated within their fields, its payload's CRC-32 is the one the header gives, and writing
 * the decoded header again gives the same bytes; a header the whole-file check accepts also parses
 * alone, and a file whose header parses is refused by the whole-file check only for its payload
 * (length or CRC).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/bitstream.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_bitstream: %s:%d: check failed: %s\n", __FILE__, __LINE__,       \
                    #cond);                                                                        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const unsigned mode = data[0];
    data++;
    size--;
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    if ((mode & 2) && size >= WEFT_BITSTREAM_HEADER_BYTES) /* payload CRC at offset 16 */
        put32(buf + 16, weft_bitstream_crc32(0, buf + WEFT_BITSTREAM_HEADER_BYTES,
                                             size - WEFT_BITSTREAM_HEADER_BYTES));
    if ((mode & 3) && size >= WEFT_BITSTREAM_HEADER_BYTES) /* header CRC at offset 128 */
        put32(buf + 128, weft_bitstream_crc32(0, buf, 128));

    weft_bitstream_info_t head, whole;
    char why[200];
    int rh = weft_bitstream_parse_header(buf, size, &head, why, sizeof why);
    int rw = weft_bitstream_check(buf, size, &whole, why, sizeof why);
    CHECK(rh == 0 || rh == -EINVAL);
    CHECK(rw == 0 || rw == -EINVAL);
    if (rh != 0)
        CHECK(rw != 0); /* a bad header never makes a good file */
    if (rw == 0) {
        CHECK(rh == 0);
        CHECK(size == WEFT_BITSTREAM_HEADER_BYTES + whole.payload_size);
        CHECK(memchr(whole.partition, 0, sizeof whole.partition) != NULL);
        CHECK(memchr(whole.image, 0, sizeof whole.image) != NULL);
        CHECK(whole.slot_mask != 0 && whole.payload_size != 0);
        CHECK(weft_bitstream_crc32(0, buf + WEFT_BITSTREAM_HEADER_BYTES, whole.payload_size) ==
              whole.payload_crc);
        uint8_t again[WEFT_BITSTREAM_HEADER_BYTES];
        CHECK(weft_bitstream_write_header(&whole, again) == 0);
        CHECK(memcmp(again, buf, WEFT_BITSTREAM_HEADER_BYTES) == 0);
    } else if (rh == 0) {
        CHECK(strstr(why, "truncated") || strstr(why, "after a payload") ||
              strstr(why, "payload CRC-32"));
    }
    free(buf);
    return 0;
}

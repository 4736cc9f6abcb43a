/*
 * libFuzzer target: weftd's wire decoder (server/wire.c) on arbitrary byte streams.
 *
 * Input: a direction byte (bit 0: the server sent it), then bytes as a socket would
 * deliver them, which go to the decoder in an exactly sized heap block (ASan reports any
 * read past them). The decoder takes message after message until it needs more bytes or
 * refuses one. Checked: a message it accepts has the length its header gives, fits in
 * what it was given, and encodes again to exactly its bytes; a refusal always names what
 * was wrong; asking for more only happens when the message is not all there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_wire: %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);    \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const int from_server = data[0] & 1;
    size--;
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data + 1, size);
    static uint8_t again[WEFTD_HEADER_BYTES + WEFTD_MAX_PAYLOAD];
    size_t at = 0;
    for (;;) {
        weftd_msg_t m;
        char why[200] = "";
        long n = weftd_decode(buf + at, size - at, from_server, &m, why, sizeof why);
        if (n == 0) {
            /* more wanted: the header or the payload it announces is not all there */
            CHECK(size - at < WEFTD_HEADER_BYTES ||
                  size - at < WEFTD_HEADER_BYTES +
                                  ((uint32_t)buf[at + 8] | (uint32_t)buf[at + 9] << 8 |
                                   (uint32_t)buf[at + 10] << 16 | (uint32_t)buf[at + 11] << 24));
            break;
        }
        if (n < 0) {
            CHECK(n == -EPROTO && why[0] != 0);
            break;
        }
        CHECK((size_t)n <= size - at && (size_t)n >= WEFTD_HEADER_BYTES);
        CHECK(m.from_server == from_server);
        long e = weftd_encode(&m, again, sizeof again);
        CHECK(e == n && memcmp(again, buf + at, (size_t)n) == 0);
        at += (size_t)n;
    }
    free(buf);
    return 0;
}

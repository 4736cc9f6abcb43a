/**
 * @file fuzz_request.h
 * @brief Building one OSIF request from fuzzer bytes, shaped by the generated protocol
 *        table so that most inputs name real commands, real handles and sane counts, and
 *        the fuzzer spends its time past the first checks.
 */
#ifndef WEFT_FUZZ_REQUEST_H
#define WEFT_FUZZ_REQUEST_H

#include <stdint.h>

#include "fuzz_input.h"
#include "osif_decode.h"

/** Mode bits fuzz_request() reads; a caller may give the others a meaning of its own. */
#define FUZZ_REQUEST_MODE_BITS 0x3fu

typedef struct fuzz_request {
    uint32_t header;
    uint32_t args[WEFT_OSIF_MAX_ARGS];
    unsigned nargs; /**< words in args: the header's nargs */
} fuzz_request_t;

/** @brief Collect the protocol's command codes; call once before fuzz_request(). */
void fuzz_request_init(void);

/**
 * @brief Build one request from the input.
 * @param mode the request's mode byte:
 *   bit 0 set: the header is the next raw word and the arguments follow as raw words;
 *   otherwise the header is built: the command is the next byte as a raw code (bit 1) or
 *   an index into the protocol table; the handle the next byte, raw (bit 2) or made an
 *   entry of the command's type; for a command with variadic arguments the next byte
 *   gives their number (a message's 0..5 words; a burst's 0..5, or 2..255 in steps of 2);
 *   a raw handle (bit 2) is one byte, or with bit 7 set 15 bits of two; nargs
 *   (bits 3-4) the command's own count, that count moved by -2..+2, any 8-bit count, or
 *   one of the four longest; with bit 5 the arguments are made plausible (a mutex
 *   entry for a condition wait, a message length matching its data words, a small
 *   priority, a burst get's count of 0..WEFT_OSIF_MAX_ARGS + 1, a burst put's words
 *   counted up from one raw word) instead of raw words.
 */
void fuzz_request(fuzz_input_t *in, uint8_t mode, const weft_resource_t *res, unsigned n,
                  fuzz_request_t *r);

#endif /* WEFT_FUZZ_REQUEST_H */

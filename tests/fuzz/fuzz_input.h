/**
 * @file fuzz_input.h
 * @brief Reading a fuzzer input as a stream of bytes and words. Past the end every read
 *        gives 0, so every input, however short, describes a whole test case.
 */
#ifndef WEFT_FUZZ_INPUT_H
#define WEFT_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct fuzz_input {
    const uint8_t *data;
    size_t size, pos;
} fuzz_input_t;

static inline int fuzz_more(const fuzz_input_t *in)
{
    return in->pos < in->size;
}

static inline uint8_t fuzz_u8(fuzz_input_t *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline uint16_t fuzz_u16(fuzz_input_t *in)
{
    uint16_t lo = fuzz_u8(in);
    return (uint16_t)(lo | (uint16_t)fuzz_u8(in) << 8);
}

/** Little-endian, like the words of the seed files. */
static inline uint32_t fuzz_u32(fuzz_input_t *in)
{
    uint32_t lo = fuzz_u16(in);
    return lo | (uint32_t)fuzz_u16(in) << 16;
}

#endif /* WEFT_FUZZ_INPUT_H */

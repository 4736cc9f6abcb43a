/*
 * The image case study's pixel work in plain C: the Laplacian of one block of lines (the
 * software filter thread), the grey-to-XRGB conversion (the software display thread), and
 * a whole-frame reference the results are checked against. docs/case-studies.md gives
 * the formula; hwt_laplace and hwt_display compute the same in RTL.
 */
#ifndef WEFT_IMAGE_PIXELS_H
#define WEFT_IMAGE_PIXELS_H

#include <stddef.h>
#include <stdint.h>

/* Output lines y0 .. y0+lines-1 of the w x w Laplacian of a width x height frame. `in`
 * and `out` point at the frames' first lines; only input lines y0-r .. y0+lines-1+r are
 * read. */
void laplace_lines(const uint8_t *in, uint8_t *out, unsigned width, unsigned height, unsigned w,
                   unsigned y0, unsigned lines);

/* The same filter, written as the formula for the whole frame and nothing else. */
void laplace_reference(const uint8_t *in, uint8_t *out, unsigned width, unsigned height,
                       unsigned w);

/* `pixels` grey bytes to XRGB8888 words 0x00pppppp. */
void grey_to_xrgb(const uint8_t *grey, uint32_t *xrgb, size_t pixels);

/* Back from XRGB8888 to grey: the blue byte of each word. */
void xrgb_to_grey(const uint32_t *xrgb, uint8_t *grey, size_t pixels);

#endif /* WEFT_IMAGE_PIXELS_H */

#include "pixels.h"

#include <string.h>

static uint8_t saturate(int s)
{
    s = s < 0 ? -s : s;
    return s > 255 ? 255 : (uint8_t)s;
}

/* Running column sums: one pass adds w lines into per-column sums, then a sliding window
 * of w columns gives each pixel's neighbourhood sum, so a pixel costs a few additions
 * whatever w is. */
void laplace_lines(const uint8_t *in, uint8_t *out, unsigned width, unsigned height, unsigned w,
                   unsigned y0, unsigned lines)
{
    const unsigned r = w / 2;
    int colsum[1024];
    for (unsigned y = y0; y < y0 + lines; y++) {
        uint8_t *o = out + (size_t)y * width;
        if (y < r || y + r >= height || width > 1024 || width <= 2 * r) {
            memset(o, 0, width);
            continue;
        }
        for (unsigned x = 0; x < width; x++) {
            int s = 0;
            for (unsigned dy = 0; dy < w; dy++)
                s += in[(size_t)(y - r + dy) * width + x];
            colsum[x] = s;
        }
        int window = 0;
        for (unsigned x = 0; x < w; x++)
            window += colsum[x];
        memset(o, 0, r);
        memset(o + width - r, 0, r);
        const uint8_t *centre = in + (size_t)y * width;
        for (unsigned x = r; x + r < width; x++) {
            o[x] = saturate((int)(w * w) * centre[x] - window);
            if (x + r + 1 < width)
                window += colsum[x + r + 1] - colsum[x - r];
        }
    }
}

void laplace_reference(const uint8_t *in, uint8_t *out, unsigned width, unsigned height, unsigned w)
{
    const int r = (int)w / 2;
    for (int y = 0; y < (int)height; y++) {
        for (int x = 0; x < (int)width; x++) {
            int s = 0;
            if (y >= r && y + r < (int)height && x >= r && x + r < (int)width) {
                for (int dy = -r; dy <= r; dy++)
                    for (int dx = -r; dx <= r; dx++)
                        s -= in[(y + dy) * (int)width + x + dx];
                s += (int)(w * w) * in[y * (int)width + x];
            }
            out[y * (int)width + x] = saturate(s);
        }
    }
}

void grey_to_xrgb(const uint8_t *grey, uint32_t *xrgb, size_t pixels)
{
    for (size_t i = 0; i < pixels; i++)
        xrgb[i] = 0x010101u * grey[i];
}

void xrgb_to_grey(const uint32_t *xrgb, uint8_t *grey, size_t pixels)
{
    for (size_t i = 0; i < pixels; i++)
        grey[i] = (uint8_t)xrgb[i];
}

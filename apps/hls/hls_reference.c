/* Software references of the HLS-style accelerators (hls_reference.h). */
#include "hls_reference.h"

void hls_ref_vecsum(const uint32_t *a, const uint32_t *b, uint32_t *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

void hls_ref_fir(const uint32_t *x, uint32_t *y, const uint32_t *h, size_t n, size_t taps)
{
    if (taps == 0)
        return; /* the accelerator ends at once: y untouched */
    if (taps > HLS_FIR_MAX_TAPS)
        taps = HLS_FIR_MAX_TAPS;
    for (size_t i = 0; i < n; i++) {
        uint32_t acc = 0;
        for (size_t k = 0; k < taps && k <= i; k++)
            acc += h[k] * x[i - k];
        y[i] = acc;
    }
}

void hls_ref_matmul(const uint32_t *a, const uint32_t *b, uint32_t *c, size_t n)
{
    if (n > HLS_MATMUL_MAX_N)
        n = HLS_MATMUL_MAX_N;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            uint32_t acc = 0;
            for (size_t k = 0; k < n; k++)
                acc += a[i * n + k] * b[k * n + j];
            c[i * n + j] = acc;
        }
}

/* Software references of Weft's HLS-style accelerators (hw/threads/hls, docs/hls.md):
 * what each must leave in memory, all arithmetic on 32-bit words mod 2^32. */
#ifndef WEFT_HLS_REFERENCE_H
#define WEFT_HLS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** hls_vecsum: c[i] = a[i] + b[i], i < n. */
void hls_ref_vecsum(const uint32_t *a, const uint32_t *b, uint32_t *c, size_t n);

/** hls_fir: y[i] = sum of h[k] * x[i-k] for k < taps and i-k >= 0, i < n. taps is
 *  clamped to HLS_FIR_MAX_TAPS, as the accelerator does; with taps 0, y is untouched. */
void hls_ref_fir(const uint32_t *x, uint32_t *y, const uint32_t *h, size_t n, size_t taps);
#define HLS_FIR_MAX_TAPS 16u

/** hls_matmul: C = A * B, n x n, row-major; n is clamped to HLS_MATMUL_MAX_N. */
void hls_ref_matmul(const uint32_t *a, const uint32_t *b, uint32_t *c, size_t n);
#define HLS_MATMUL_MAX_N 16u

#ifdef __cplusplus
}
#endif

#endif /* WEFT_HLS_REFERENCE_H */

/* One run of an HLS-style accelerator on a buffer (docs/hls.md): inputs generated from a
 * seed, the accelerator's arguments, and the check of its output against the software
 * reference (hls_reference.h). */
#ifndef WEFT_HLS_JOB_H
#define WEFT_HLS_JOB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of buffer a job needs (every kernel at the sizes hls_job_prepare picks). */
#define HLS_JOB_BYTES (16u * 1024u)

typedef struct hls_job {
    int kernel;       /**< 0 vecsum, 1 fir, 2 matmul (hwt_hls's Kernel) */
    uint32_t *cpu;    /**< the buffer, HLS_JOB_BYTES */
    uint64_t bus;     /**< its bus address */
    uint32_t size;    /**< the problem size: n (vecsum, fir) or the matrices' n */
    uint64_t args[5]; /**< the accelerator's arguments */
    unsigned num_args;
} hls_job_t;

/** How many of every kernel's arguments, the first ones, are addresses in the job's
 *  buffer (bus + offset): for a client of weftd, which names buffers, not addresses. */
#define HLS_JOB_ADDRESS_ARGS 3u

/** The kernel an accelerator image runs ("hwt_hls_fir": 1); -1 if none. */
int hls_kernel_of(const char *image);

/** Fill the inputs from seed, clear the output, set the arguments. size: 1 .. 1000 for
 *  vecsum and fir, 1 .. 16 for matmul (clamped). */
void hls_job_prepare(hls_job_t *job, int kernel, uint32_t *cpu, uint64_t bus, uint32_t size,
                     uint32_t seed);

/** Whether the output is what the software reference gives. */
int hls_job_check(const hls_job_t *job);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_HLS_JOB_H */

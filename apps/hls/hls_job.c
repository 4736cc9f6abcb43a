/* One run of an HLS-style accelerator on a buffer (hls_job.h). */
#include "hls_job.h"

#include <stdlib.h>
#include <string.h>

#include "hls_reference.h"

/* Word offsets in the buffer: three areas of 1024 words, the taps after them. */
#define AREA 1024u
#define TAPS (3 * AREA)
#define FIR_TAPS 9u

static const char *const kImages[] = {"hwt_hls_vecsum", "hwt_hls_fir", "hwt_hls_matmul"};

int hls_kernel_of(const char *image)
{
    for (int i = 0; i < (int)(sizeof kImages / sizeof kImages[0]); i++)
        if (strcmp(image, kImages[i]) == 0)
            return i;
    return -1;
}

void hls_job_prepare(hls_job_t *job, int kernel, uint32_t *cpu, uint64_t bus, uint32_t size,
                     uint32_t seed)
{
    const uint32_t max = kernel == 2 ? HLS_MATMUL_MAX_N : AREA - 24;
    size = size == 0 ? 1 : size > max ? max : size;
    *job = (hls_job_t){.kernel = kernel, .cpu = cpu, .bus = bus, .size = size};
    uint32_t x = seed | 1u;
    for (uint32_t i = 0; i < 2 * AREA; i++) { /* inputs: xorshift32 */
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        cpu[i] = x;
    }
    for (uint32_t i = 0; i < FIR_TAPS; i++)
        cpu[TAPS + i] = (x >> i) & 0xFFu;
    memset(cpu + 2 * AREA, 0, 4 * AREA);
    const uint64_t a = bus, b = bus + 4 * AREA, c = bus + 8 * AREA, h = bus + 4 * TAPS;
    if (kernel == 1) { /* x, y, h, n, taps */
        job->args[0] = a;
        job->args[1] = c;
        job->args[2] = h;
        job->args[3] = size;
        job->args[4] = FIR_TAPS;
        job->num_args = 5;
    } else { /* a, b, c, n */
        job->args[0] = a;
        job->args[1] = b;
        job->args[2] = c;
        job->args[3] = size;
        job->num_args = 4;
    }
}

int hls_job_check(const hls_job_t *job)
{
    uint32_t *want = calloc(AREA, sizeof *want);
    if (!want)
        return 0;
    const uint32_t *m = job->cpu;
    size_t words = job->size;
    if (job->kernel == 0)
        hls_ref_vecsum(m, m + AREA, want, job->size);
    else if (job->kernel == 1)
        hls_ref_fir(m, want, m + TAPS, job->size, FIR_TAPS);
    else {
        hls_ref_matmul(m, m + AREA, want, job->size);
        words = (size_t)job->size * job->size;
    }
    int ok = memcmp(m + 2 * AREA, want, 4 * words) == 0;
    free(want);
    return ok;
}

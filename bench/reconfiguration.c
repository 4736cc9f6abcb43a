/*
 * weft-bench-reconfiguration: how long the reconfiguration port takes to program a slot,
 * in fabric cycles, for partial bitstreams of several sizes at two port rates, and how
 * much that varies (FRED's measurement: 338 KB in 2.755 ms on average, 2.94 ms at worst,
 * at 100 MHz; docs/reconfiguration.md).
 *
 * Each programming is the platform's slot_program on the simulated fabric: the port
 * reads the whole file from the DMA region at its rate, checks it and loads the slot
 * (hwt_task_sumsq, the same image every time, so only the file's size varies). Rates:
 * FRED's measured 1.2 bytes a cycle (FRI_RATE 307, the reset value) and a word a cycle
 * (FRI_RATE 0: a 32-bit configuration port at the fabric clock, ICAP-class). Fabric
 * cycles are FRI_CYCLES, from START to the end of the load; host time is what the call
 * took on this machine (simulation speed, not a property of the port).
 *
 * Usage: weft-bench-reconfiguration [--reps N] [--out PATH]
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "weft/bitstream.h"
#include "weft/osif_protocol.h"
#include "weft/platform_config.h"
#include "weft/sim.h"

#define PROG "weft-bench-reconfiguration"
#define DEFAULT_REPS 8u
#define MAX_REPS 1000u
#define DEFAULT_OUT "bench/reconfiguration.json"
#define IMAGE "hwt_task_sumsq.so"
#define SLOT 0u

/* FRED's figures for its 338 KB partial bitstreams (seed 003, section on the FRI). */
#define FRED_MEAN_MS 2.755
#define FRED_WORST_MS 2.94

static const uint32_t kSizes[] = {
    32u << 10,  64u << 10, 128u << 10, 256u << 10, WEFT_BITSTREAM_FRED_PAYLOAD,
    512u << 10, 1u << 20};
#define NUM_SIZES (sizeof kSizes / sizeof kSizes[0])

static const struct rate {
    uint32_t reg; /* FRI_RATE */
    const char *name;
    double bytes_per_cycle;
} kRates[] = {{307, "1.2 B/cycle (FRED's measured port)", 307 / 256.0},
              {0, "4 B/cycle (32-bit port at the fabric clock)", 4.0}};
#define NUM_RATES (sizeof kRates / sizeof kRates[0])

typedef struct row {
    const struct rate *rate;
    uint32_t payload, file;
    uint64_t min, max;
    double mean, host_ms;
} row_t;

static void die(const char *what, int rc, const char *detail)
{
    fprintf(stderr, PROG ": %s failed (%d)%s%s\n", what, rc, detail ? ": " : "",
            detail ? detail : "");
    exit(1);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " [--reps N] [--out PATH]\n"
            "  --reps N    programmings per size and rate, 1..%u (default %u)\n"
            "  --out PATH  JSON result file (default %s; directories are created)\n",
            MAX_REPS, DEFAULT_REPS, DEFAULT_OUT);
}

/* One size at one rate, reps times; the file is at the start of the DMA region. */
static row_t measure(weft_platform_t *p, const weft_dma_region_t *dma,
                     const weft_bitstream_info_t *base, const struct rate *rate, uint32_t payload,
                     unsigned reps)
{
    weft_bitstream_info_t info = *base;
    info.payload_size = payload;
    const size_t len = WEFT_BITSTREAM_HEADER_BYTES + payload;
    if (len > dma->size)
        die("fitting the file in the DMA region", (int)len, NULL);
    int rc = weft_bitstream_build(&info, dma->cpu);
    if (rc)
        die("weft_bitstream_build", rc, NULL);
    rc = p->ops->mmio_write(p, WEFT_REG_FRI_RATE, rate->reg);
    if (rc)
        die("writing FRI_RATE", rc, NULL);

    double *cycles = malloc(reps * sizeof *cycles), host = 0;
    if (!cycles)
        die("malloc", -ENOMEM, NULL);
    for (unsigned i = 0; i < reps; i++) {
        weft_program_result_t res;
        const double t0 = bench_now_us();
        rc = p->ops->slot_program(p, SLOT, dma->bus, len, &res);
        host += bench_now_us() - t0;
        if (rc)
            die("slot_program", rc, res.message);
        cycles[i] = (double)res.cycles; /* exact: far below 2^53 */
    }
    const bench_stats_t st = bench_summarize(cycles, reps); /* sorts */
    row_t r = {.rate = rate,
               .payload = payload,
               .file = (uint32_t)len,
               .min = (uint64_t)st.min,
               .max = (uint64_t)cycles[reps - 1],
               .mean = st.mean,
               .host_ms = host / reps / 1000.0};
    free(cycles);
    return r;
}

static double cycles_ms(double cycles)
{
    return cycles / WEFT_PLATFORM_CLOCK_MHZ / 1000.0;
}

static int write_json(const row_t *rows, size_t n, unsigned reps, const char *path, double wall_s)
{
    json_t *root = json_object();
    json_object_set_new(root, "benchmark", json_string("reconfiguration"));
    json_object_set_new(root, "reps", json_integer(reps));
    json_object_set_new(root, "clock_mhz", json_integer(WEFT_PLATFORM_CLOCK_MHZ));
    json_object_set_new(root, "image", json_string(IMAGE));
    json_object_set_new(root, "header_bytes", json_integer(WEFT_BITSTREAM_HEADER_BYTES));
    json_object_set_new(root, "wall_s", bench_jnum(wall_s));
    json_object_set_new(root, "seed",
                        json_pack("{s:s, s:i, s:f, s:f}", "source",
                                  "FRED (seed 003): 338 KB partial bitstream over its FRI",
                                  "payload_bytes", (int)WEFT_BITSTREAM_FRED_PAYLOAD, "mean_ms",
                                  FRED_MEAN_MS, "worst_ms", FRED_WORST_MS));
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        const row_t *r = &rows[i];
        json_t *o = json_object();
        json_object_set_new(o, "rate", json_string(r->rate->name));
        json_object_set_new(o, "fri_rate", json_integer(r->rate->reg));
        json_object_set_new(o, "bytes_per_cycle", bench_jnum(r->rate->bytes_per_cycle));
        json_object_set_new(o, "payload_bytes", json_integer(r->payload));
        json_object_set_new(o, "file_bytes", json_integer(r->file));
        json_object_set_new(o, "cycles_min", json_integer((json_int_t)r->min));
        json_object_set_new(o, "cycles_max", json_integer((json_int_t)r->max));
        json_object_set_new(o, "cycles_mean", bench_jnum(r->mean));
        json_object_set_new(o, "ideal_cycles", bench_jnum(r->file / r->rate->bytes_per_cycle));
        json_object_set_new(o, "mean_ms", bench_jnum(cycles_ms(r->mean)));
        json_object_set_new(o, "worst_ms", bench_jnum(cycles_ms((double)r->max)));
        json_object_set_new(o, "host_ms_per_programming", bench_jnum(r->host_ms));
        json_array_append_new(arr, o);
    }
    json_object_set_new(root, "results", arr);
    int rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
    json_decref(root);
    if (rc) {
        fprintf(stderr, PROG ": cannot write %s\n", path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned reps = DEFAULT_REPS;
    const char *out = DEFAULT_OUT;
    int status = bench_args(argc, argv, PROG, MAX_REPS, &reps, &out, usage);
    if (status >= 0)
        return status;

    const double start = bench_now_us();
    weft_platform_t *p = NULL;
    int rc = weft_sim_open(&p, NULL);
    if (rc)
        die("weft_sim_open", rc, NULL);
    weft_dma_region_t dma;
    rc = p->ops->dma_region(p, &dma);
    if (rc)
        die("dma_region", rc, NULL);

    weft_bitstream_info_t base = {.slot_mask = 1u << SLOT};
    strcpy(base.partition, "bench");
    strcpy(base.image, IMAGE);
    rc = weft_bitstream_file_sha256(WEFT_IMAGE_DIR "/" IMAGE, base.image_sha256);
    if (rc)
        die("hashing " WEFT_IMAGE_DIR "/" IMAGE, rc, NULL);

    uint32_t reset_rate = 0;
    rc = p->ops->mmio_read(p, WEFT_REG_FRI_RATE, &reset_rate);
    if (rc)
        die("reading FRI_RATE", rc, NULL);

    printf("%s: %u programmings of slot %u per size and rate, %u MHz fabric\n", PROG, reps, SLOT,
           WEFT_PLATFORM_CLOCK_MHZ);
    printf("%-44s %9s %10s %10s %10s %8s %9s %9s %9s\n", "rate", "payload", "min cyc", "max cyc",
           "ideal", "jitter", "mean ms", "worst ms", "host ms");
    row_t rows[NUM_RATES * NUM_SIZES];
    size_t n = 0;
    for (size_t k = 0; k < NUM_RATES; k++)
        for (size_t s = 0; s < NUM_SIZES; s++) {
            row_t r = measure(p, &dma, &base, &kRates[k], kSizes[s], reps);
            rows[n++] = r;
            printf("%-44s %9" PRIu32 " %10" PRIu64 " %10" PRIu64 " %10.0f %8" PRIu64
                   " %9.3f %9.3f %9.1f\n",
                   r.rate->name, r.payload, r.min, r.max, r.file / r.rate->bytes_per_cycle,
                   r.max - r.min, cycles_ms(r.mean), cycles_ms((double)r.max), r.host_ms);
        }
    /* Leave the port at the rate it had. */
    p->ops->mmio_write(p, WEFT_REG_FRI_RATE, reset_rate);
    p->ops->close(p);
    printf("FRED, 338 KB: mean %.3f ms, worst %.3f ms\n", FRED_MEAN_MS, FRED_WORST_MS);
    if (write_json(rows, n, reps, out, (bench_now_us() - start) / 1e6))
        return 1;
    printf("results written to %s\n", out);
    return 0;
}

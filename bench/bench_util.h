/*
 * What the C benchmarks share: a microsecond clock, sample statistics, the directories of
 * an output path, and JSON numbers.
 */
#ifndef WEFT_BENCH_UTIL_H
#define WEFT_BENCH_UTIL_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CLOCK_MONOTONIC in microseconds. */
double bench_now_us(void);

/* Summary of n samples; NAN fields when there are none. */
typedef struct bench_stats {
    size_t n;
    double median, p99, mean, min;
    double p999, max; /* the tail, for latency distributions */
} bench_stats_t;

extern const bench_stats_t bench_no_stats;

/* Summarise v[0..n-1] (sorts v in place). p99 and p999 are nearest-rank percentiles. */
bench_stats_t bench_summarize(double *v, size_t n);

/* The same figures times k (cycles into microseconds, a round trip into a turnaround). */
bench_stats_t bench_scaled(bench_stats_t s, double k);

/* Create the directories leading to path. Returns 0 or -errno. */
int bench_mkdirs_for(const char *path);

/* The command line every C benchmark takes: [--reps N] [--out PATH] [--help]. Checks
 * each value, creates the directories of the output path, and prints what was wrong
 * (prefixed with prog). `usage` prints the program's usage to the given stream. Returns
 * -1 to go on, or the exit status (0 after --help, 1 or 2 after an error). */
int bench_args(int argc, char **argv, const char *prog, unsigned max_reps, unsigned *reps,
               const char **out, void (*usage)(FILE *));

/* A JSON number rounded to 4 decimals, or null when not finite. */
json_t *bench_jnum(double x);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_BENCH_UTIL_H */

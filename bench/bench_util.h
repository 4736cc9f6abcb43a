/*
 * What the C benchmarks share: a microsecond clock, sample statistics, the directories of
 * an output path, and JSON numbers.
 */
#ifndef WEFT_BENCH_UTIL_H
#define WEFT_BENCH_UTIL_H

#include <jansson.h>
#include <stddef.h>

/* CLOCK_MONOTONIC in microseconds. */
double bench_now_us(void);

/* Summary of n samples; NAN fields when there are none. */
typedef struct bench_stats {
    size_t n;
    double median, p99, mean, min;
} bench_stats_t;

extern const bench_stats_t bench_no_stats;

/* Summarise v[0..n-1] (sorts v in place). p99 is the nearest-rank 99th percentile. */
bench_stats_t bench_summarize(double *v, size_t n);

/* Create the directories leading to path. Returns 0 or -errno. */
int bench_mkdirs_for(const char *path);

/* A JSON number rounded to 4 decimals, or null when not finite. */
json_t *bench_jnum(double x);

#endif /* WEFT_BENCH_UTIL_H */

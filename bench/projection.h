/*
 * Board projection (docs/benchmarks.md, "Board projection"): what an interval measured on
 * the co-simulated fabric would take on a board whose fabric runs at its nominal clock.
 * The host time spent simulating the fabric during the interval (weft_sim_stats' sim_ns:
 * the clock thread running, or a runtime thread running it in a register access) is taken
 * out, and the fabric cycles of the interval are put in at the clock. What is left of the
 * host time is the software's own: the threads, the delegate's work, their wake-ups.
 */
#ifndef WEFT_BENCH_PROJECTION_H
#define WEFT_BENCH_PROJECTION_H

#include <stdint.h>

#include "weft/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One end of an interval: host time, and the fabric's cycles and simulation time. */
typedef struct bench_mark {
    double us;       /* CLOCK_MONOTONIC */
    double sim_us;   /* host time the fabric had been simulated */
    uint64_t cycles; /* fabric cycles simulated */
} bench_mark_t;

/* The start and the end of an interval, on a simulation platform (the fabric fields stay
 * 0 on another one, or with p NULL: an interval of host time alone). The start reads the host clock
 * first and the end last, so simulation time at the edges is never taken out of host time that does
 * not contain it: the projection errs, by the length of a counter read, towards the slower. */
bench_mark_t bench_mark_start(weft_platform_t *p);
bench_mark_t bench_mark_end(weft_platform_t *p);

/* The interval from a to b as measured (wall) and as projected at clock_mhz. */
double bench_wall_us(bench_mark_t a, bench_mark_t b);
double bench_projected_us(bench_mark_t a, bench_mark_t b, double clock_mhz);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_BENCH_PROJECTION_H */

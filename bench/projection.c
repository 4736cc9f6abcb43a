#define _POSIX_C_SOURCE 200809L

#include "projection.h"

#include "bench_util.h"
#include "weft/sim.h"

static void fabric_part(weft_platform_t *p, bench_mark_t *m)
{
    weft_sim_stats_t s;
    if (p && weft_sim_stats(p, &s) == 0) {
        m->sim_us = (double)s.sim_ns / 1e3;
        m->cycles = s.cycles;
    }
}

bench_mark_t bench_mark_start(weft_platform_t *p)
{
    bench_mark_t m = {bench_now_us(), 0, 0};
    fabric_part(p, &m);
    return m;
}

bench_mark_t bench_mark_end(weft_platform_t *p)
{
    bench_mark_t m = {0, 0, 0};
    fabric_part(p, &m);
    m.us = bench_now_us();
    return m;
}

double bench_wall_us(bench_mark_t a, bench_mark_t b)
{
    return b.us - a.us;
}

double bench_projected_us(bench_mark_t a, bench_mark_t b, double clock_mhz)
{
    return (b.us - a.us) - (b.sim_us - a.sim_us) + (double)(b.cycles - a.cycles) / clock_mhz;
}

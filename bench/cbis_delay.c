/*
 * weft-bench-cbis: the scheduling delay of an interrupt handled as a scheduling request
 * (CBIS, docs/hw-services.md), measured as hthreads measured it: a periodic timer event
 * makes a waiting managed thread ready while 250 other managed threads are active, and
 * the delay is taken from the event to the handler thread running.
 *
 * The delay has two parts, measured separately because they run on different clocks:
 *   hardware  fabric cycles from the timer's event to the thread manager's new decision
 *             (TM_EV_LAT: the manager stamps the event and counts to the decision)
 *   host      wall-clock time from the interrupt thread's wake on the OS services' line
 *             (the decision changed) to the handler thread running after its wait
 *             (weft_mthread_last_wake())
 * The simulated fabric runs far below 100 MHz, so the two are not added: the hardware
 * part is given in cycles and in microseconds at the platform's clock, the host part in
 * microseconds of this machine.
 *
 * Every managed thread is pinned to the machine's last core (the simulator's thread is
 * not). Active threads: 200 at priority 10 that work about 2 µs and yield, in turn, and 50 at
 * priorities 11 to 60, ready and never run while those are (they fill the queues); the
 * handler at priority 0. Every sample checks that the event changed the decision.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "weft/mthread.h"
#include "weft/platform_config.h"
#include "weft/sim.h"
#include "weft/weft.h"

#define PROG "weft-bench-cbis"
#define DEFAULT_REPS 400u
#define MAX_REPS 100000u
#define DEFAULT_OUT "bench/cbis_delay.json"
#define ROUND_ROBIN 200u /* active threads taking turns at priority 10 */
#define QUEUED 50u       /* ready threads at priorities 11..60 */
#define WARMUP 5u        /* events not counted: the first switches warm the caches */
#define PERIOD 20000u    /* fabric cycles between timer events */

/* hthreads (seed 002): end-to-end scheduling delay with 250 active threads, 300 MHz
 * PowerPC, timer interrupt to the thread running. */
#define HTHREADS_MEAN_US 1.9
#define HTHREADS_JITTER_US 1.4

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " [--reps N] [--out PATH]\n"
            "  --reps N    timer events measured, 1..%u (default %u)\n"
            "  --out PATH  JSON result file (default %s; directories are created)\n",
            MAX_REPS, DEFAULT_REPS, DEFAULT_OUT);
}

static void die(const char *what, int rc)
{
    fprintf(stderr, PROG ": %s failed: %s\n", what, strerror(rc < 0 ? -rc : rc));
    exit(1);
}

static atomic_bool stop;
static atomic_uint_fast64_t turns; /* the active threads' turns */

static void *active_main(void *arg)
{
    (void)arg;
    volatile double x = 1.0;
    while (!atomic_load(&stop)) {
        for (int i = 0; i < 400; i++) /* about 2 µs of work */
            x = x * 1.0000001 + 1e-9;
        atomic_fetch_add(&turns, 1);
        weft_mthread_yield();
    }
    return NULL;
}

struct handler {
    weft_t *w;
    unsigned events;
    double *cycles, *host_us;
    unsigned bad; /* events whose delay the manager did not report as a switch */
};

static void *handler_main(void *arg)
{
    struct handler *h = arg;
    weft_mthread_t *me = weft_mthread_self();
    for (unsigned i = 0; i < h->events + WARMUP; i++) {
        if (weft_mthread_wait() != 0)
            break;
        weft_tm_event_delay_t d;
        uint64_t ns = 0;
        if (weft_tm_event_delay(h->w, &d) != 0 || weft_mthread_last_wake(me, &ns) != 0)
            break;
        if (i < WARMUP)
            continue;
        const unsigned k = i - WARMUP;
        if (!d.valid || !d.switched)
            h->bad++;
        h->cycles[k] = d.cycles;
        h->host_us[k] = ns / 1000.0;
    }
    return NULL;
}

/* A histogram of v[0..n-1] in bins of width w from lo: a JSON array of {from, count}. */
static json_t *histogram(const double *v, size_t n, double lo, double w)
{
    size_t nb = 1;
    for (size_t i = 0; i < n; i++) {
        size_t b = (size_t)((v[i] - lo) / w);
        if (b + 1 > nb)
            nb = b + 1;
    }
    unsigned *count = calloc(nb, sizeof(*count));
    if (!count)
        die("calloc", ENOMEM);
    for (size_t i = 0; i < n; i++)
        count[(size_t)((v[i] - lo) / w)]++;
    json_t *a = json_array();
    for (size_t b = 0; b < nb; b++)
        json_array_append_new(
            a, json_pack("{s:o, s:i}", "from", bench_jnum(lo + b * w), "count", (int)count[b]));
    free(count);
    return a;
}

static json_t *stats_json(bench_stats_t s, double jitter)
{
    return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "n", (int)s.n, "mean",
                     bench_jnum(s.mean), "median", bench_jnum(s.median), "min", bench_jnum(s.min),
                     "p99", bench_jnum(s.p99), "max", bench_jnum(s.max), "jitter",
                     bench_jnum(jitter));
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
    weft_t *w = NULL;
    int rc = weft_sim_open(&p, NULL);
    if (rc)
        die("weft_sim_open", rc);
    rc = weft_init(&w, p);
    if (rc)
        die("weft_init", rc);
    unsigned threads = 0, events = 0, timers = 0;
    weft_tm_info(w, &threads, &events, &timers);
    if (threads < ROUND_ROBIN + QUEUED + 2 || timers < 1) {
        fprintf(stderr, PROG ": the platform's thread manager has %u ids and %u timers\n", threads,
                timers);
        return 1;
    }

    struct handler h = {w, reps, calloc(reps, sizeof(double)), calloc(reps, sizeof(double)), 0};
    if (!h.cycles || !h.host_us)
        die("calloc", ENOMEM);
    weft_mthread_t *active[ROUND_ROBIN + QUEUED], *handler = NULL;
    /* All on one core, the last: one at a time, as the manager decides. */
    const long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    const int cpu = ncpu > 1 ? (int)ncpu - 1 : 0;
    weft_mthread_attr_t a = {.priority = 0, .cpu = cpu, .stack_size = 64 * 1024};
    if ((rc = weft_mthread_create(w, &handler, &a, handler_main, &h)) != 0)
        die("creating the handler thread", rc);
    for (unsigned i = 0; i < ROUND_ROBIN + QUEUED; i++) {
        a.priority = i < ROUND_ROBIN ? 10 : 11 + (i - ROUND_ROBIN);
        if ((rc = weft_mthread_create(w, &active[i], &a, active_main, NULL)) != 0)
            die("creating an active thread", rc);
    }
    if ((rc = weft_tm_bind(w, 0, handler)) != 0 ||
        (rc = weft_tm_timer_start(w, 0, PERIOD, true)) != 0)
        die("binding timer 0", rc);
    printf("%s: %u timer events every %u fabric cycles, %u active threads (%u taking turns at "
           "priority 10, %u ready at 11..60), handler at priority 0, all on CPU %d\n",
           PROG, reps, PERIOD, ROUND_ROBIN + QUEUED, ROUND_ROBIN, QUEUED, cpu);

    rc = weft_mthread_join(handler, NULL);
    uint32_t fired = 0;
    if (rc == 0)
        rc = weft_tm_timer_stop(w, 0, &fired);
    if (rc)
        die("the handler thread", rc);
    atomic_store(&stop, true);
    for (unsigned i = 0; i < ROUND_ROBIN; i++)
        if ((rc = weft_mthread_join(active[i], NULL)) != 0)
            die("joining an active thread", rc);
    /* The queued threads have never run; they end now that the others have. */
    for (unsigned i = ROUND_ROBIN; i < ROUND_ROBIN + QUEUED; i++)
        if ((rc = weft_mthread_join(active[i], NULL)) != 0)
            die("joining a queued thread", rc);
    const uint64_t active_turns = atomic_load(&turns);
    weft_shutdown(w);
    p->ops->close(p);

    /* Sorted in place: the histograms do not depend on the order. */
    bench_stats_t sc = bench_summarize(h.cycles, reps), sh = bench_summarize(h.host_us, reps);
    const double mhz = WEFT_PLATFORM_CLOCK_MHZ;
    printf("hardware part (event to decision): mean %.1f cycles, min %.0f, max %.0f, jitter "
           "%.0f cycles (%.2f us mean at %.0f MHz)\n",
           sc.mean, sc.min, sc.max, sc.max - sc.min, sc.mean / mhz, mhz);
    printf("host part (interrupt thread woken to handler running): mean %.1f us, median %.1f, "
           "p99 %.1f, max %.1f us\n",
           sh.mean, sh.median, sh.p99, sh.max);
    printf("events fired %" PRIu32 ", handled %u (+%u warm-up), not a switch %u; active threads' "
           "turns %" PRIu64 "\n",
           fired, reps, WARMUP, h.bad, active_turns);
    printf("hthreads: %.1f us mean, %.1f us jitter end to end (300 MHz PowerPC)\n",
           HTHREADS_MEAN_US, HTHREADS_JITTER_US);

    json_t *root = json_object();
    json_object_set_new(root, "benchmark", json_string("cbis_delay"));
    json_object_set_new(root, "events", json_integer(reps));
    json_object_set_new(root, "warmup", json_integer(WARMUP));
    json_object_set_new(root, "timer_period_cycles", json_integer(PERIOD));
    json_object_set_new(root, "timer_fired", json_integer(fired));
    json_object_set_new(root, "not_switched", json_integer(h.bad));
    json_object_set_new(root, "active_threads", json_integer(ROUND_ROBIN + QUEUED));
    json_object_set_new(root, "cpu", json_integer(cpu));
    json_object_set_new(root, "round_robin_threads", json_integer(ROUND_ROBIN));
    json_object_set_new(root, "active_turns", json_integer((json_int_t)active_turns));
    json_object_set_new(root, "clock_mhz", json_integer(WEFT_PLATFORM_CLOCK_MHZ));
    json_object_set_new(root, "hw_cycles", stats_json(sc, sc.max - sc.min));
    json_object_set_new(root, "hw_us_at_clock",
                        stats_json(bench_scaled(sc, 1.0 / mhz), (sc.max - sc.min) / mhz));
    json_object_set_new(root, "host_us", stats_json(sh, sh.max - sh.min));
    json_object_set_new(root, "hw_histogram", histogram(h.cycles, reps, 0, 1));
    const double bin = sh.max > 400 ? 20 : sh.max > 100 ? 5 : 1;
    json_object_set_new(root, "host_histogram", histogram(h.host_us, reps, 0, bin));
    json_object_set_new(root, "host_bin_us", bench_jnum(bin));
    json_object_set_new(root, "reference",
                        json_pack("{s:s, s:f, s:f}", "source",
                                  "hthreads (seed 002): 250 active threads, 300 MHz PowerPC",
                                  "mean_us", HTHREADS_MEAN_US, "jitter_us", HTHREADS_JITTER_US));
    json_object_set_new(root, "wall_s", bench_jnum((bench_now_us() - start) / 1e6));
    rc = json_dump_file(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
    json_decref(root);
    free(h.cycles);
    free(h.host_us);
    if (rc) {
        fprintf(stderr, PROG ": cannot write %s\n", out);
        return 1;
    }
    return h.bad == 0 ? 0 : 1;
}

/*
 * weft-bench-os-overhead: cost of semaphore and mutex calls between software threads
 * (pthreads) and hardware threads (co-simulated RTL), the measurement of section 6.1 and
 * Table V of the ReconOS paper, on Weft.
 *
 * Two kinds of figure, each for SW<->SW, SW<->HW and HW<->HW:
 *
 *   turnaround  one thread posts a semaphore (unlocks a mutex) that the other thread is
 *               blocked on; the other wakes, returns from its wait and answers the same
 *               way. A ping-pong round trip is two turnarounds; each sample is one round
 *               trip (HW<->HW: one batch of round trips, see below) divided by 2.
 *   raw call    one post, or one uncontended lock and unlock, issued and completed.
 *
 * The hardware side is hwt_pingpong (hw/threads/pingpong), which makes nothing but these
 * calls back to back, so no other software work (no instruction mailbox) enters the
 * figures. Wall-clock figures are CLOCK_MONOTONIC host time in microseconds. Fabric
 * cycles come from weft_fabric_cycles(), read before and after a whole measurement loop
 * (never inside a timed sample) and divided by its rounds; the simulated clock stops
 * while every slot is blocked in an OS call, so they count the cycles the fabric itself
 * spends on the calls (request words, register-window transactions of the delegate,
 * response words), not the software time in between.
 *
 * Usage: weft-bench-os-overhead [--reps N] [--out PATH]
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "projection.h"
#include "weft/hwsync.h"
#include "weft/platform_config.h"
#include "weft/sim.h"
#include "weft/weft.h"

#define DEFAULT_REPS 2000u
#define MAX_REPS 100000u
#define DEFAULT_OUT "bench/os_overhead.json"

#define WARMUP 10u           /* unrecorded rounds before each per-round loop */
#define MAX_HW_ROUNDS 4095u  /* hwt_pingpong's N field is 12 bits */
#define SW_BATCH 64u         /* software raw calls per sample */
#define HW_K 16u             /* hardware raw calls (or lock/unlock pairs) per round */
#define HWHW_BATCHES 8u      /* HW<->HW samples: batches of round trips */
#define SETTLE_US 50         /* rest before a per-round sample (settle()) */
#define SETTLE_MAX_US 100000 /* longest settle() */

/* hwt_pingpong modes and exit values (see hw/threads/pingpong/hwt_pingpong.sv). */
enum { PP_SEM_PING = 0, PP_SEM_RAW = 1, PP_MUTEX_RAW = 2, PP_RING_FIRST = 3, PP_RING_SECOND = 4 };

static uint32_t pp_init(unsigned h0, unsigned h1, unsigned h2, unsigned mode, unsigned field,
                        unsigned rounds)
{
    return (uint32_t)(h0 & 15u) | (uint32_t)(h1 & 15u) << 4 | (uint32_t)(h2 & 15u) << 8 |
           (uint32_t)(mode & 15u) << 12 | (uint32_t)(field & 15u) << 16 |
           (uint32_t)(rounds & 0xFFFu) << 20;
}

/* ---- time and statistics ------------------------------------------------------------- */

static void die(const char *what, int rc)
{
    fprintf(stderr, "weft-bench-os-overhead: %s failed (%d: %s)\n", what, rc,
            strerror(rc < 0 ? -rc : rc));
    exit(1);
}

static void sem_wait_ok(sem_t *s)
{
    while (sem_wait(s) != 0) {
        if (errno != EINTR)
            die("sem_wait", errno);
    }
}

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

/* Before each per-round sample every thread comes to rest, as between calls on a board:
 * the simulated fabric has stopped (its simulation time no longer grows) and the threads
 * have had SETTLE_US to block. Without it a delegate still simulating the fabric for the
 * previous call would find the next post already made and skip its wake-up, which a
 * board's delegate, done with the fabric in a fraction of a microsecond, would not. */
static void settle(weft_platform_t *p)
{
    weft_sim_stats_t s0, s1;
    if (weft_sim_stats(p, &s1) != 0)
        die("weft_sim_stats", EINVAL);
    /* At most SETTLE_MAX_US: a fabric that never stops (a thread computing) is sampled as
     * it is. */
    for (unsigned waited = 0; waited < SETTLE_MAX_US; waited += SETTLE_US) {
        s0 = s1;
        sleep_us(SETTLE_US);
        weft_sim_stats(p, &s1);
        if (s1.sim_ns == s0.sim_ns && s1.cycles == s0.cycles)
            return;
    }
}

/* Wait until another thread (software or a hardware thread's delegate) holds m. */
static void wait_held(pthread_mutex_t *m)
{
    for (int tries = 0;; tries++) {
        int rc = pthread_mutex_trylock(m);
        if (rc == EBUSY)
            return;
        if (rc != 0)
            die("pthread_mutex_trylock", rc);
        pthread_mutex_unlock(m);
        if (tries > 100000)
            die("waiting for the other thread to take a mutex", ETIMEDOUT);
        sleep_us(100);
    }
}

/* Wait until a hardware thread holds the synchronisation manager's mutex m. */
static void hw_wait_held(weft_hwmutex_t *m)
{
    for (int tries = 0;; tries++) {
        unsigned depth = 0;
        int rc = weft_hwmutex_depth(m, &depth);
        if (rc != 0)
            die("weft_hwmutex_depth", rc);
        if (depth > 0)
            return;
        if (tries > 100000)
            die("waiting for a hardware thread to take a mutex", ETIMEDOUT);
        sleep_us(100);
    }
}

/* Runtime messages go to stderr, except the expected one of the mutex ring: a ring thread
 * ends holding the mutexes of its last round, which the runtime releases and reports. */
static void log_sink(void *arg, const char *msg)
{
    (void)arg;
    if (strstr(msg, "hw-ring") && strstr(msg, "ended holding mutex")) {
        return;
    }
    fprintf(stderr, "weft: %s\n", msg);
}

/* ---- the fabric ---------------------------------------------------------------------- */

struct bench {
    weft_platform_t *plat;
    weft_t *w;
    unsigned reps;
    double *proj; /* per-sample board projections, beside the wall-clock samples */
};

static uint64_t fabric_cycles(struct bench *b)
{
    uint64_t c = 0;
    int rc = weft_fabric_cycles(b->w, &c);
    if (rc)
        die("weft_fabric_cycles", rc);
    return c;
}

static weft_hwthread_t *hw_start(struct bench *b, unsigned slot, const weft_resource_t *res,
                                 unsigned nres, uint32_t init, const char *name)
{
    weft_hwthread_attr_t attr = {.name = name,
                                 .image = WEFT_IMAGE_DIR "/hwt_pingpong.so",
                                 .slot = slot,
                                 .resources = res,
                                 .num_resources = nres,
                                 .init_data = init};
    weft_hwthread_t *t = NULL;
    int rc = weft_hwthread_create(b->w, &t, &attr);
    if (rc)
        die("weft_hwthread_create (hwt_pingpong)", rc);
    return t;
}

/* Join and release a hwt_pingpong thread; it must have run all its rounds. */
static void hw_finish(weft_hwthread_t *t, unsigned rounds)
{
    weft_exit_status_t st;
    int rc = weft_hwthread_join(t, &st);
    if (rc)
        die("weft_hwthread_join", rc);
    if (st.kind != WEFT_EXIT_NORMAL || st.value != rounds) {
        fprintf(stderr,
                "weft-bench-os-overhead: hwt_pingpong ended with kind %d value 0x%08x "
                "(expected normal exit after %u rounds) %s\n",
                (int)st.kind, (unsigned)st.value, rounds, st.message);
        exit(1);
    }
    weft_hwthread_destroy(t);
}

/* ---- results ------------------------------------------------------------------------- */

typedef struct result {
    const char *key;       /* JSON name */
    const char *prim;      /* semaphore / mutex */
    const char *kind;      /* turnaround / raw */
    const char *path;      /* who calls / who wakes */
    bench_stats_t st;      /* microseconds */
    bench_stats_t proj;    /* board projection, microseconds (projection.h) */
    double cycles;         /* fabric cycles per figure, NAN when not a hardware figure */
    double ratio;          /* turnaround median / SW<->SW median of the same primitive */
    double proj_ratio;     /* the same of the projections */
    double seed_cycles;    /* ReconOS eCos/PPC, Table V (bus cycles, 10 ns), NAN if none */
    const char *seed_note; /* how the seed figure was formed */
    const char *includes;  /* what the figure includes */
} result_t;

enum {
    R_SEM_TA_SWSW,
    R_SEM_TA_SWHW,
    R_SEM_TA_HWHW,
    R_MTX_TA_SWSW,
    R_MTX_TA_SWHW,
    R_MTX_TA_HWHW,
    R_SEM_RAW_SW,
    R_SEM_RAW_HW,
    R_MTX_LOCK_SW,
    R_MTX_UNLOCK_SW,
    R_MTX_PAIR_SW,
    R_MTX_PAIR_HW,
    R_SEM_TA_HWHW_SYNC, /* the same calls on the synchronisation manager's objects */
    R_MTX_TA_HWHW_SYNC,
    R_SEM_RAW_HW_SYNC,
    R_MTX_PAIR_HW_SYNC,
    R_SEM_TA_SWHW_SYNC,
    R_SEM_RAW_SW_SYNC,
    R_MTX_PAIR_SW_SYNC,
    R_COUNT
};

static result_t results[R_COUNT];

/* ---- semaphore turnaround -------------------------------------------------------------- */

struct sem_partner {
    sem_t *wait, *post;
    unsigned rounds;
};

static void *sem_partner_main(void *arg)
{
    struct sem_partner *p = arg;
    for (unsigned i = 0; i < p->rounds; i++) {
        sem_wait_ok(p->wait);
        sem_post(p->post);
    }
    return NULL;
}

/* A semaphore's post and wait, on a POSIX semaphore or one of the synchronisation
 * manager's (weft_hwsem_t): the same rounds measure either. */
typedef struct sem_ops {
    void (*post)(void *sem);
    void (*wait)(void *sem);
} sem_ops_t;

static void posix_post(void *s)
{
    sem_post(s);
}

static void posix_wait(void *s)
{
    sem_wait_ok(s);
}

static void fabric_post(void *s)
{
    int rc = weft_hwsem_post(s);
    if (rc)
        die("weft_hwsem_post", rc);
}

static void fabric_wait(void *s)
{
    int rc = weft_hwsem_wait(s);
    if (rc)
        die("weft_hwsem_wait", rc);
}

static const sem_ops_t posix_sem = {posix_post, posix_wait};
static const sem_ops_t fabric_sem = {fabric_post, fabric_wait};

/* One round: post ping, wait pong. Returns the round trip in microseconds, and its board
 * projection in *proj when proj is not NULL. */
static double sem_round(struct bench *b, const sem_ops_t *ops, void *ping, void *pong, double *proj)
{
    settle(b->plat);
    bench_mark_t m0 = bench_mark_start(proj ? b->plat : NULL);
    ops->post(ping);
    ops->wait(pong);
    bench_mark_t m1 = bench_mark_end(proj ? b->plat : NULL);
    if (proj)
        *proj = bench_projected_us(m0, m1, WEFT_PLATFORM_CLOCK_MHZ);
    return bench_wall_us(m0, m1);
}

/* Summaries of the wall-clock samples and their projections, scaled (a round trip is two
 * turnarounds); sorts both arrays. */
static void summarize(result_t *r, double *v, double *proj, size_t n, double scale)
{
    r->st = bench_scaled(bench_summarize(v, n), scale);
    r->proj = proj ? bench_scaled(bench_summarize(proj, n), scale) : r->st;
}

static void sem_turnaround_sw_sw(struct bench *b, double *v)
{
    sem_t ping, pong;
    sem_init(&ping, 0, 0);
    sem_init(&pong, 0, 0);
    struct sem_partner p = {&ping, &pong, WARMUP + b->reps};
    pthread_t th;
    int rc = pthread_create(&th, NULL, sem_partner_main, &p);
    if (rc)
        die("pthread_create", rc);
    for (unsigned i = 0; i < WARMUP; i++)
        sem_round(b, &posix_sem, &ping, &pong, NULL);
    for (unsigned i = 0; i < b->reps; i++)
        v[i] = sem_round(b, &posix_sem, &ping, &pong, NULL);
    pthread_join(th, NULL);
    sem_destroy(&ping);
    sem_destroy(&pong);
    summarize(&results[R_SEM_TA_SWSW], v, NULL, b->reps, 0.5);
}

/* Round trips against hwt_pingpong in slot 0, in mode SemPing, SemRaw or MutexRaw:
 * software posts the gate (handle 0), the thread makes its calls and posts done
 * (handle 1); ops are the gate's and done's (POSIX or the manager's semaphores). rt
 * receives b->reps round trips in microseconds and b->proj their projections; returns
 * fabric cycles per round. */
static double hw_gate_rounds(struct bench *b, const sem_ops_t *ops, unsigned mode,
                             weft_resource_t *res, unsigned nres, double *rt)
{
    void *gate = res[0].object, *done = res[1].object;
    uint64_t cycles = 0;
    unsigned recorded = 0;
    while (recorded < b->reps) {
        unsigned chunk = b->reps - recorded;
        if (chunk > MAX_HW_ROUNDS - WARMUP)
            chunk = MAX_HW_ROUNDS - WARMUP;
        unsigned rounds = chunk + WARMUP;
        weft_hwthread_t *t =
            hw_start(b, 0, res, nres, pp_init(0, 1, 2, mode, HW_K - 1, rounds), "hw-pingpong");
        for (unsigned i = 0; i < WARMUP; i++)
            sem_round(b, ops, gate, done, NULL);
        uint64_t c0 = fabric_cycles(b);
        for (unsigned i = 0; i < chunk; i++)
            rt[recorded + i] = sem_round(b, ops, gate, done, &b->proj[recorded + i]);
        cycles += fabric_cycles(b) - c0;
        hw_finish(t, rounds);
        recorded += chunk;
    }
    return (double)cycles / (double)b->reps;
}

static double sem_ping_rt_median; /* SW<->HW semaphore round trip, for the raw figures */
static double sem_ping_rt_proj;   /* its projection */
static double sem_ping_rt_cycles;

static void sem_turnaround_sw_hw(struct bench *b, double *v)
{
    sem_t ping, pong;
    sem_init(&ping, 0, 0);
    sem_init(&pong, 0, 0);
    weft_resource_t res[] = {{WEFT_RES_SEM, &ping}, {WEFT_RES_SEM, &pong}};
    double cyc = hw_gate_rounds(b, &posix_sem, PP_SEM_PING, res, 2, v);
    sem_destroy(&ping);
    sem_destroy(&pong);
    result_t *r = &results[R_SEM_TA_SWHW];
    summarize(r, v, b->proj, b->reps, 0.5);
    sem_ping_rt_median = 2 * r->st.median;
    sem_ping_rt_proj = 2 * r->proj.median;
    sem_ping_rt_cycles = cyc;
    r->cycles = cyc / 2;
}

/* Rounds per HW<->HW batch: the repetitions spread over the batches, within what the
 * ping-pong thread's init data can count. */
static unsigned hw_hw_rounds(const struct bench *b)
{
    unsigned n = b->reps / HWHW_BATCHES;
    if (n < 1)
        n = 1;
    return n > MAX_HW_ROUNDS ? MAX_HW_ROUNDS : n;
}

/* HW<->HW: per batch, thread A (slot 0) waits ping / posts pong, thread B (slot 1) waits
 * pong / posts ping, n rounds each. Software posts ping once and takes B's last ping
 * after A has exited. */
static void sem_turnaround_hw_hw(struct bench *b, double *v)
{
    unsigned n = hw_hw_rounds(b);
    uint64_t cycles = 0;
    for (unsigned k = 0; k < HWHW_BATCHES; k++) {
        sem_t ping, pong;
        sem_init(&ping, 0, 0);
        sem_init(&pong, 0, 0);
        weft_resource_t res[] = {{WEFT_RES_SEM, &ping}, {WEFT_RES_SEM, &pong}};
        weft_hwthread_t *a = hw_start(b, 0, res, 2, pp_init(0, 1, 0, PP_SEM_PING, 0, n), "hw-a");
        weft_hwthread_t *bb = hw_start(b, 1, res, 2, pp_init(1, 0, 0, PP_SEM_PING, 0, n), "hw-b");
        uint64_t c0 = fabric_cycles(b);
        bench_mark_t m0 = bench_mark_start(b->plat);
        sem_post(&ping);
        hw_finish(a, n);
        sem_wait_ok(&ping);
        bench_mark_t m1 = bench_mark_end(b->plat);
        cycles += fabric_cycles(b) - c0;
        hw_finish(bb, n);
        v[k] = bench_wall_us(m0, m1) / (2.0 * n);
        b->proj[k] = bench_projected_us(m0, m1, WEFT_PLATFORM_CLOCK_MHZ) / (2.0 * n);
        sem_destroy(&ping);
        sem_destroy(&pong);
    }
    result_t *r = &results[R_SEM_TA_HWHW];
    summarize(r, v, b->proj, HWHW_BATCHES, 1.0);
    r->cycles = (double)cycles / (2.0 * n * HWHW_BATCHES);
}

/* ---- mutex turnaround: ping-pong on three mutexes -------------------------------------
 * The first thread starts holding m0 and m1, the second m2. Round k: the first unlocks
 * m[k%3] and locks m[(k+2)%3]; the second locks m[k%3] and unlocks m[(k+2)%3]. Each
 * unlock wakes the other thread blocked in its lock, so a round is two turnarounds. */

struct ring_partner {
    pthread_mutex_t *m;
    unsigned rounds;
};

static void *ring_second_main(void *arg)
{
    struct ring_partner *p = arg;
    pthread_mutex_lock(&p->m[2]);
    for (unsigned k = 0; k < p->rounds; k++) {
        pthread_mutex_lock(&p->m[k % 3]);
        pthread_mutex_unlock(&p->m[(k + 2) % 3]);
    }
    pthread_mutex_unlock(&p->m[(p->rounds + 2) % 3]);
    return NULL;
}

/* One round of the ring; its projection in *proj when proj is not NULL. */
static double ring_round(struct bench *b, pthread_mutex_t *m, unsigned k, double *proj)
{
    settle(b->plat);
    bench_mark_t m0 = bench_mark_start(proj ? b->plat : NULL);
    pthread_mutex_unlock(&m[k % 3]);
    pthread_mutex_lock(&m[(k + 2) % 3]);
    bench_mark_t m1 = bench_mark_end(proj ? b->plat : NULL);
    if (proj)
        *proj = bench_projected_us(m0, m1, WEFT_PLATFORM_CLOCK_MHZ);
    return bench_wall_us(m0, m1);
}

static void ring_first_release(pthread_mutex_t *m, unsigned rounds)
{
    pthread_mutex_unlock(&m[rounds % 3]);
    pthread_mutex_unlock(&m[(rounds + 1) % 3]);
}

static void mutex_turnaround_sw_sw(struct bench *b, double *v)
{
    pthread_mutex_t m[3];
    for (int i = 0; i < 3; i++)
        pthread_mutex_init(&m[i], NULL);
    unsigned rounds = WARMUP + b->reps;
    pthread_mutex_lock(&m[0]);
    pthread_mutex_lock(&m[1]);
    struct ring_partner p = {m, rounds};
    pthread_t th;
    int rc = pthread_create(&th, NULL, ring_second_main, &p);
    if (rc)
        die("pthread_create", rc);
    wait_held(&m[2]);
    for (unsigned k = 0; k < WARMUP; k++)
        ring_round(b, m, k, NULL);
    for (unsigned i = 0; i < b->reps; i++)
        v[i] = ring_round(b, m, WARMUP + i, NULL);
    ring_first_release(m, rounds);
    pthread_join(th, NULL);
    for (int i = 0; i < 3; i++)
        pthread_mutex_destroy(&m[i]);
    summarize(&results[R_MTX_TA_SWSW], v, NULL, b->reps, 0.5);
}

static void mutex_turnaround_sw_hw(struct bench *b, double *v)
{
    pthread_mutex_t m[3];
    for (int i = 0; i < 3; i++)
        pthread_mutex_init(&m[i], NULL);
    weft_resource_t res[] = {
        {WEFT_RES_MUTEX, &m[0]}, {WEFT_RES_MUTEX, &m[1]}, {WEFT_RES_MUTEX, &m[2]}};
    uint64_t cycles = 0;
    unsigned recorded = 0;
    while (recorded < b->reps) {
        unsigned chunk = b->reps - recorded;
        if (chunk > MAX_HW_ROUNDS - WARMUP)
            chunk = MAX_HW_ROUNDS - WARMUP;
        unsigned rounds = chunk + WARMUP;
        pthread_mutex_lock(&m[0]);
        pthread_mutex_lock(&m[1]);
        weft_hwthread_t *t =
            hw_start(b, 0, res, 3, pp_init(0, 1, 2, PP_RING_SECOND, 0, rounds), "hw-ring");
        wait_held(&m[2]);
        for (unsigned k = 0; k < WARMUP; k++)
            ring_round(b, m, k, NULL);
        uint64_t c0 = fabric_cycles(b);
        for (unsigned i = 0; i < chunk; i++)
            v[recorded + i] = ring_round(b, m, WARMUP + i, &b->proj[recorded + i]);
        cycles += fabric_cycles(b) - c0;
        ring_first_release(m, rounds);
        hw_finish(t, rounds); /* the runtime releases the mutex the thread still holds */
        recorded += chunk;
    }
    for (int i = 0; i < 3; i++)
        pthread_mutex_destroy(&m[i]);
    result_t *r = &results[R_MTX_TA_SWHW];
    summarize(r, v, b->proj, b->reps, 0.5);
    r->cycles = (double)cycles / (2.0 * b->reps);
}

static void mutex_turnaround_hw_hw(struct bench *b, double *v)
{
    unsigned n = hw_hw_rounds(b);
    uint64_t cycles = 0;
    for (unsigned k = 0; k < HWHW_BATCHES; k++) {
        pthread_mutex_t m[3];
        sem_t gate;
        for (int i = 0; i < 3; i++)
            pthread_mutex_init(&m[i], NULL);
        sem_init(&gate, 0, 0);
        weft_resource_t res[] = {{WEFT_RES_MUTEX, &m[0]},
                                 {WEFT_RES_MUTEX, &m[1]},
                                 {WEFT_RES_MUTEX, &m[2]},
                                 {WEFT_RES_SEM, &gate}};
        weft_hwthread_t *a =
            hw_start(b, 0, res, 4, pp_init(0, 1, 2, PP_RING_FIRST, 3, n), "hw-ring-a");
        wait_held(&m[0]);
        wait_held(&m[1]);
        weft_hwthread_t *bb =
            hw_start(b, 1, res, 4, pp_init(0, 1, 2, PP_RING_SECOND, 0, n), "hw-ring-b");
        wait_held(&m[2]);
        uint64_t c0 = fabric_cycles(b);
        bench_mark_t m0 = bench_mark_start(b->plat);
        sem_post(&gate);
        hw_finish(a, n);
        bench_mark_t m1 = bench_mark_end(b->plat);
        cycles += fabric_cycles(b) - c0;
        hw_finish(bb, n);
        v[k] = bench_wall_us(m0, m1) / (2.0 * n);
        b->proj[k] = bench_projected_us(m0, m1, WEFT_PLATFORM_CLOCK_MHZ) / (2.0 * n);
        for (int i = 0; i < 3; i++)
            pthread_mutex_destroy(&m[i]);
        sem_destroy(&gate);
    }
    result_t *r = &results[R_MTX_TA_HWHW];
    summarize(r, v, b->proj, HWHW_BATCHES, 1.0);
    r->cycles = (double)cycles / (2.0 * n * HWHW_BATCHES);
}

/* ---- HW<->HW through the synchronisation manager ---------------------------------------
 * The same ping-pongs on the manager's objects: the threads' calls never reach software.
 * Fabric cycles per turnaround are the difference between a batch of 2n rounds and one of
 * n, / 2n: what the kick and the exit cost cancels, which at a few cycles a turnaround
 * would otherwise dominate. Wall clock: the 2n batch / 4n, as for the delegate rows. */

static weft_hwsem_t *hw_sem(struct bench *b, unsigned max)
{
    weft_hwsem_t *s = NULL;
    int rc = weft_hwsem_create(b->w, 0, max, &s);
    if (rc)
        die("weft_hwsem_create", rc);
    return s;
}

static weft_hwmutex_t *hw_mutex(struct bench *b)
{
    weft_hwmutex_t *m = NULL;
    int rc = weft_hwmutex_create(b->w, PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE, &m);
    if (rc)
        die("weft_hwmutex_create", rc);
    return m;
}

/* A thread that ended leaves its mutexes to the manager, which gives them up within a few
 * cycles of its slot's reset: a destroy that comes first is refused, so it is retried. */
static void hw_destroy_retry(int (*destroy)(void *), void *o, const char *what)
{
    int rc;
    for (int tries = 0; (rc = destroy(o)) == -EBUSY && tries < 1000; tries++)
        sleep_us(1000);
    if (rc)
        die(what, rc);
}

static int hw_sem_destroy_fn(void *o)
{
    return weft_hwsem_destroy(o);
}

static int hw_mutex_destroy_fn(void *o)
{
    return weft_hwmutex_destroy(o);
}

static void hw_sem_destroy(weft_hwsem_t *s)
{
    hw_destroy_retry(hw_sem_destroy_fn, s, "weft_hwsem_destroy");
}

static void hw_mutex_destroy(weft_hwmutex_t *m)
{
    hw_destroy_retry(hw_mutex_destroy_fn, m, "weft_hwmutex_destroy");
}

/* The measured part of a batch: post the software gate, join thread a after its n
 * rounds. Fabric cycles; wall clock and its projection in *us and *proj. */
static uint64_t gated_batch(struct bench *b, sem_t *gate, weft_hwthread_t *a, unsigned n,
                            double *us, double *proj)
{
    uint64_t c0 = fabric_cycles(b);
    bench_mark_t m0 = bench_mark_start(b->plat);
    sem_post(gate);
    hw_finish(a, n);
    bench_mark_t m1 = bench_mark_end(b->plat);
    uint64_t cycles = fabric_cycles(b) - c0;
    *us = bench_wall_us(m0, m1);
    *proj = bench_projected_us(m0, m1, WEFT_PLATFORM_CLOCK_MHZ);
    return cycles;
}

/* One semaphore batch: A (slot 0) and B (slot 1) ping-pong n rounds on two of the
 * manager's semaphores; C (slot 2, SemRaw, one round) waits a software gate and posts
 * ping once, the kick. Fabric cycles from the gate post to A's join; wall clock in *us. */
static uint64_t sem_sync_batch(struct bench *b, unsigned n, double *us, double *proj)
{
    weft_hwsem_t *ping = hw_sem(b, 1), *pong = hw_sem(b, 1);
    sem_t gate, done;
    sem_init(&gate, 0, 0);
    sem_init(&done, 0, 0);
    weft_resource_t ab[] = {{WEFT_RES_HWSEM, ping}, {WEFT_RES_HWSEM, pong}};
    weft_resource_t kick[] = {{WEFT_RES_SEM, &gate}, {WEFT_RES_SEM, &done}, {WEFT_RES_HWSEM, ping}};
    weft_hwthread_t *a = hw_start(b, 0, ab, 2, pp_init(0, 1, 0, PP_SEM_PING, 0, n), "hw-a");
    weft_hwthread_t *bb = hw_start(b, 1, ab, 2, pp_init(1, 0, 0, PP_SEM_PING, 0, n), "hw-b");
    weft_hwthread_t *c = hw_start(b, 2, kick, 3, pp_init(0, 1, 2, PP_SEM_RAW, 0, 1), "hw-kick");
    uint64_t cycles = gated_batch(b, &gate, a, n, us, proj);
    hw_finish(bb, n);
    sem_wait_ok(&done);
    hw_finish(c, 1);
    hw_sem_destroy(ping);
    hw_sem_destroy(pong);
    sem_destroy(&gate);
    sem_destroy(&done);
    return cycles;
}

/* One mutex batch: the three-mutex ring of mutex_turnaround_hw_hw on the manager's
 * mutexes, gated by a software semaphore. */
static uint64_t mutex_sync_batch(struct bench *b, unsigned n, double *us, double *proj)
{
    weft_hwmutex_t *m[3] = {hw_mutex(b), hw_mutex(b), hw_mutex(b)};
    sem_t gate;
    sem_init(&gate, 0, 0);
    weft_resource_t res[] = {{WEFT_RES_HWMUTEX, m[0]},
                             {WEFT_RES_HWMUTEX, m[1]},
                             {WEFT_RES_HWMUTEX, m[2]},
                             {WEFT_RES_SEM, &gate}};
    weft_hwthread_t *a = hw_start(b, 0, res, 4, pp_init(0, 1, 2, PP_RING_FIRST, 3, n), "hw-ring-a");
    hw_wait_held(m[0]);
    hw_wait_held(m[1]);
    weft_hwthread_t *bb =
        hw_start(b, 1, res, 4, pp_init(0, 1, 2, PP_RING_SECOND, 0, n), "hw-ring-b");
    hw_wait_held(m[2]);
    uint64_t cycles = gated_batch(b, &gate, a, n, us, proj);
    hw_finish(bb, n);
    for (int i = 0; i < 3; i++)
        hw_mutex_destroy(m[i]);
    sem_destroy(&gate);
    return cycles;
}

typedef uint64_t (*sync_batch_fn)(struct bench *b, unsigned n, double *us, double *proj);

static void turnaround_sync(struct bench *b, double *v, sync_batch_fn batch, int which)
{
    unsigned n = hw_hw_rounds(b) / 2;
    if (n < 1)
        n = 1;
    uint64_t marginal = 0;
    for (unsigned k = 0; k < HWHW_BATCHES; k++) {
        double us1, proj1;
        uint64_t c1 = batch(b, n, &us1, &proj1);
        uint64_t c2 = batch(b, 2 * n, &v[k], &b->proj[k]);
        v[k] /= 4.0 * n;
        b->proj[k] /= 4.0 * n;
        marginal += c2 > c1 ? c2 - c1 : 0;
    }
    result_t *r = &results[which];
    summarize(r, v, b->proj, HWHW_BATCHES, 1.0);
    r->cycles = (double)marginal / (2.0 * n * HWHW_BATCHES);
}

/* ---- raw calls --------------------------------------------------------------------- */

static void raw_sw(struct bench *b, double *v)
{
    sem_t s;
    sem_init(&s, 0, 0);
    for (unsigned i = 0; i < b->reps; i++) {
        double t0 = bench_now_us();
        for (unsigned j = 0; j < SW_BATCH; j++)
            sem_post(&s);
        v[i] = (bench_now_us() - t0) / SW_BATCH;
        while (sem_trywait(&s) == 0)
            ;
    }
    sem_destroy(&s);
    summarize(&results[R_SEM_RAW_SW], v, NULL, b->reps, 1.0);

    static pthread_mutex_t m[SW_BATCH];
    for (unsigned j = 0; j < SW_BATCH; j++)
        pthread_mutex_init(&m[j], NULL);
    double *lock = malloc(sizeof(double) * b->reps), *unlock = malloc(sizeof(double) * b->reps);
    if (!lock || !unlock)
        die("malloc", ENOMEM);
    for (unsigned i = 0; i < b->reps; i++) {
        double t0 = bench_now_us();
        for (unsigned j = 0; j < SW_BATCH; j++)
            pthread_mutex_lock(&m[j]);
        double t1 = bench_now_us();
        for (unsigned j = 0; j < SW_BATCH; j++)
            pthread_mutex_unlock(&m[j]);
        double t2 = bench_now_us();
        lock[i] = (t1 - t0) / SW_BATCH;
        unlock[i] = (t2 - t1) / SW_BATCH;
        v[i] = (t2 - t0) / SW_BATCH;
    }
    for (unsigned j = 0; j < SW_BATCH; j++)
        pthread_mutex_destroy(&m[j]);
    summarize(&results[R_MTX_LOCK_SW], lock, NULL, b->reps, 1.0);
    summarize(&results[R_MTX_UNLOCK_SW], unlock, NULL, b->reps, 1.0);
    summarize(&results[R_MTX_PAIR_SW], v, NULL, b->reps, 1.0);
    free(lock);
    free(unlock);
}

/* Hardware raw calls: rounds of gate / K calls / done, minus the median SemPing round
 * trip (gate / done only) of the same run, divided by K. */
static void raw_hw(struct bench *b, double *v, unsigned mode, int which, bool in_fabric)
{
    sem_t gate, done, target;
    pthread_mutex_t m;
    sem_init(&gate, 0, 0);
    sem_init(&done, 0, 0);
    sem_init(&target, 0, 0);
    pthread_mutex_init(&m, NULL);
    weft_resource_t res[] = {{WEFT_RES_SEM, &gate},
                             {WEFT_RES_SEM, &done},
                             mode == PP_SEM_RAW ? (weft_resource_t){WEFT_RES_SEM, &target}
                                                : (weft_resource_t){WEFT_RES_MUTEX, &m}};
    /* In the fabric: the target is an object of the synchronisation manager (the thread
     * posts 65535 at most: HW_K per round). */
    weft_hwsem_t *hs = NULL;
    weft_hwmutex_t *hm = NULL;
    if (in_fabric && mode == PP_SEM_RAW)
        res[2] = (weft_resource_t){WEFT_RES_HWSEM, hs = hw_sem(b, 0xffffu)};
    else if (in_fabric)
        res[2] = (weft_resource_t){WEFT_RES_HWMUTEX, hm = hw_mutex(b)};
    double cyc = hw_gate_rounds(b, &posix_sem, mode, res, 3, v);
    if (hs)
        hw_sem_destroy(hs);
    if (hm)
        hw_mutex_destroy(hm);
    for (unsigned i = 0; i < b->reps; i++) {
        v[i] = (v[i] - sem_ping_rt_median) / HW_K;
        b->proj[i] = (b->proj[i] - sem_ping_rt_proj) / HW_K;
    }
    sem_destroy(&gate);
    sem_destroy(&done);
    sem_destroy(&target);
    pthread_mutex_destroy(&m);
    result_t *r = &results[which];
    summarize(r, v, b->proj, b->reps, 1.0);
    r->cycles = (cyc - sem_ping_rt_cycles) / HW_K;
}

/* SW<->HW on two of the manager's semaphores: the pthread's calls go through its software
 * context, hwt_pingpong's are served in the fabric; no delegate takes part. */
static void sem_turnaround_sw_hw_sync(struct bench *b, double *v)
{
    weft_hwsem_t *ping = hw_sem(b, 1), *pong = hw_sem(b, 1);
    weft_resource_t res[] = {{WEFT_RES_HWSEM, ping}, {WEFT_RES_HWSEM, pong}};
    double cyc = hw_gate_rounds(b, &fabric_sem, PP_SEM_PING, res, 2, v);
    hw_sem_destroy(ping);
    hw_sem_destroy(pong);
    result_t *r = &results[R_SEM_TA_SWHW_SYNC];
    summarize(r, v, b->proj, b->reps, 0.5);
    r->cycles = cyc / 2;
}

/* A pthread's uncontended calls on the manager's objects: SW_BATCH posts (then the count
 * is taken back), SW_BATCH lock/unlock pairs of one mutex. Each call is register accesses,
 * which the simulated fabric serves slowly: the projection counts them at the fabric's
 * cycles instead. */
static void sem_post_batch(void *s)
{
    for (unsigned j = 0; j < SW_BATCH; j++)
        fabric_post(s);
}

static void mutex_pair_batch(void *m)
{
    for (unsigned j = 0; j < SW_BATCH; j++) {
        int rc = weft_hwmutex_lock(m);
        if (rc == 0)
            rc = weft_hwmutex_unlock(m);
        if (rc)
            die("weft_hwmutex_lock/unlock", rc);
    }
}

static void sw_sync_batches(struct bench *b, double *v, void (*batch)(void *), void *o, int which)
{
    for (unsigned i = 0; i < b->reps; i++) {
        bench_mark_t m0 = bench_mark_start(b->plat);
        batch(o);
        bench_mark_t m1 = bench_mark_end(b->plat);
        v[i] = bench_wall_us(m0, m1) / SW_BATCH;
        b->proj[i] = bench_projected_us(m0, m1, WEFT_PLATFORM_CLOCK_MHZ) / SW_BATCH;
        while (batch == sem_post_batch && weft_hwsem_trywait(o) == 0)
            ;
    }
    summarize(&results[which], v, b->proj, b->reps, 1.0);
}

static void raw_sw_sync(struct bench *b, double *v)
{
    weft_hwsem_t *s = hw_sem(b, 0xffffu);
    sw_sync_batches(b, v, sem_post_batch, s, R_SEM_RAW_SW_SYNC);
    hw_sem_destroy(s);
    weft_hwmutex_t *m = hw_mutex(b);
    sw_sync_batches(b, v, mutex_pair_batch, m, R_MTX_PAIR_SW_SYNC);
    hw_mutex_destroy(m);
    weft_hwsync_release(b->w);
}

/* ---- descriptions and the seed --------------------------------------------------------- */

/* A row of the table: what it measures and the seed's figure (results filled in later). */
static result_t row(const char *key, const char *prim, const char *kind, const char *path,
                    double seed_cycles, const char *seed_note, const char *includes)
{
    return (result_t){key, prim, kind, path,        {0},       {0},
                      NAN, NAN,  NAN,  seed_cycles, seed_note, includes};
}

static void describe(void)
{
    /* ReconOS eCos/PPC, Table V, bus cycles of 10 ns. SW<->HW: mean of the seed's SW->HW
     * and HW->SW, since a round trip here contains one of each. */
    results[R_SEM_TA_SWSW] =
        row("sem_turnaround_sw_sw", "semaphore", "turnaround", "SW<->SW", 305, "SW->SW",
            "pthread A sem_post(ping), pthread B wakes from sem_wait(ping), sem_post(pong), A "
            "returns from sem_wait(pong); one sample = that round trip / 2, per round");
    results[R_SEM_TA_SWHW] =
        row("sem_turnaround_sw_hw", "semaphore", "turnaround", "SW<->HW", (528 + 908) / 2.0,
            "mean of SW->HW 528 and HW->SW 908",
            "pthread sem_post(ping); hwt_pingpong blocked in SEM_WAIT(ping) gets its response "
            "(interrupt, delegate wake, register-window reads, sem_wait, response write), "
            "sends SEM_POST(pong), the delegate posts, the pthread returns from "
            "sem_wait(pong); sample = round trip / 2, i.e. the mean of one SW->HW and one "
            "HW->SW turnaround. Cycles: fabric cycles per turnaround (round trip / 2)");
    results[R_SEM_TA_HWHW] =
        row("sem_turnaround_hw_hw", "semaphore", "turnaround", "HW<->HW", 1114, "HW->HW",
            "two hwt_pingpong threads (slots 0 and 1) ping-pong n = reps/8 rounds on two "
            "semaphores with no software thread involved except both delegates; one sample = "
            "one batch: from software's kick post to software taking the last post after "
            "thread A's exit, / 2n (includes one kick and one exit, amortised); 8 samples");
    results[R_MTX_TA_SWSW] =
        row("mutex_turnaround_sw_sw", "mutex", "turnaround", "SW<->SW", 453, "SW->SW",
            "three-mutex ping-pong between two pthreads: A unlocks m[k], B blocked in lock(m[k]) "
            "acquires, unlocks m[k+2], A blocked in lock(m[k+2]) acquires; sample = round trip "
            "/ 2, per round");
    results[R_MTX_TA_SWHW] =
        row("mutex_turnaround_sw_hw", "mutex", "turnaround", "SW<->HW", (629 + 1449) / 2.0,
            "mean of SW->HW 629 and HW->SW 1449",
            "three-mutex ping-pong, pthread first, hwt_pingpong second (MUTEX_LOCK/UNLOCK "
            "through its delegate); sample = round trip / 2, the mean of one SW->HW and one "
            "HW->SW turnaround. Cycles: fabric cycles per turnaround");
    results[R_MTX_TA_HWHW] =
        row("mutex_turnaround_hw_hw", "mutex", "turnaround", "HW<->HW", 1460, "HW->HW",
            "three-mutex ping-pong between two hwt_pingpong threads, n = reps/8 rounds per "
            "batch; sample = batch from software's gate post to thread A's join, / 2n "
            "(includes the gate wake and one exit, amortised); 8 samples");
    results[R_SEM_RAW_SW] =
        row("sem_post_raw_sw", "semaphore", "raw", "SW post", 73, "SW post",
            "sem_post with no waiter; sample = 64 back-to-back posts / 64 (clock read cost "
            "amortised)");
    results[R_SEM_RAW_HW] =
        row("sem_post_raw_hw", "semaphore", "raw", "HW post", 695, "HW post",
            "SEM_POST from hwt_pingpong with no waiter, issued to response received: per "
            "round the thread waits a gate semaphore, makes 16 posts, posts done; sample = "
            "(round trip - median SW<->HW semaphore round trip of this run) / 16. Cycles: "
            "(fabric cycles per round - those of a gate/done round) / 16");
    results[R_MTX_LOCK_SW] =
        row("mutex_lock_raw_sw", "mutex", "raw", "SW lock", 83, "SW lock",
            "uncontended pthread_mutex_lock; sample = locking 64 distinct free mutexes / 64");
    results[R_MTX_UNLOCK_SW] =
        row("mutex_unlock_raw_sw", "mutex", "raw", "SW unlock", 171, "SW unlock",
            "pthread_mutex_unlock with no waiter; sample = unlocking those 64 mutexes / 64");
    results[R_MTX_PAIR_SW] =
        row("mutex_lock_unlock_raw_sw", "mutex", "raw", "SW lock+unlock", 83 + 171,
            "SW lock + SW unlock",
            "one uncontended lock plus one unlock; sample = both loops above / 64");
    results[R_MTX_PAIR_HW] =
        row("mutex_lock_unlock_raw_hw", "mutex", "raw", "HW lock+unlock", 959 + 679,
            "HW lock + HW unlock",
            "uncontended MUTEX_LOCK then MUTEX_UNLOCK from hwt_pingpong, each issued to "
            "response received; per round 16 pairs between gate and done; sample = (round "
            "trip - median SW<->HW semaphore round trip) / 16. Lock and unlock are not "
            "separated. Cycles as for the HW post");
    /* The same calls served by the synchronisation manager (docs/hw-services.md). */
    results[R_SEM_TA_HWHW_SYNC] = row(
        "sem_turnaround_hw_hw_sync", "semaphore", "turnaround", "HW<->HW fabric", 1114, "HW->HW",
        "as sem_turnaround_hw_hw, on two semaphores of the synchronisation manager: no "
        "delegate takes part; a third hwt_pingpong (slot 2) waits a software gate and posts "
        "ping once (the kick). Wall: the batch of 2n rounds / 4n. Cycles: (cycles of a 2n "
        "batch - cycles of an n batch) / 2n, the kick and the exit cancelled");
    results[R_MTX_TA_HWHW_SYNC] =
        row("mutex_turnaround_hw_hw_sync", "mutex", "turnaround", "HW<->HW fabric", 1460, "HW->HW",
            "as mutex_turnaround_hw_hw, on three mutexes of the synchronisation manager (the gate "
            "stays a software semaphore); wall and cycles as for sem_turnaround_hw_hw_sync");
    results[R_SEM_RAW_HW_SYNC] =
        row("sem_post_raw_hw_sync", "semaphore", "raw", "HW post fabric", 695, "HW post",
            "as sem_post_raw_hw, the 16 posts on a semaphore of the synchronisation manager");
    results[R_MTX_PAIR_HW_SYNC] =
        row("mutex_lock_unlock_raw_hw_sync", "mutex", "raw", "HW pair fabric", 959 + 679,
            "HW lock + HW unlock",
            "as mutex_lock_unlock_raw_hw, the 16 pairs on a mutex of the synchronisation manager");
    results[R_SEM_TA_SWHW_SYNC] =
        row("sem_turnaround_sw_hw_sync", "semaphore", "turnaround", "SW<->HW fabric",
            (528 + 908) / 2.0, "mean of SW->HW 528 and HW->SW 908",
            "as sem_turnaround_sw_hw, on two semaphores of the synchronisation manager: the "
            "pthread's weft_hwsem_post/weft_hwsem_wait go through its software context (a "
            "register write and read; a wait that blocks sleeps until the OS services' interrupt "
            "wakes it), hwt_pingpong's calls are served in the fabric; no delegate takes part");
    results[R_SEM_RAW_SW_SYNC] =
        row("sem_post_raw_sw_sync", "semaphore", "raw", "SW post fabric", NAN, "",
            "uncontended weft_hwsem_post from a pthread (a register write and a read), per "
            "batch of 16; proj counts the register accesses at the fabric's cycles");
    results[R_MTX_PAIR_SW_SYNC] =
        row("mutex_lock_unlock_raw_sw_sync", "mutex", "raw", "SW pair fabric", NAN, "",
            "uncontended weft_hwmutex_lock then weft_hwmutex_unlock from a pthread (two register "
            "writes and two reads), per batch of 16 pairs; proj as for sem_post_raw_sw_sync");
}

/* ---- output ------------------------------------------------------------------------ */

static void print_table(const struct bench *b, double wall_s)
{
    printf("weft OS call overhead: %u repetitions; wall clock in microseconds "
           "(CLOCK_MONOTONIC), hardware co-simulated\n\n",
           b->reps);
    printf("%-10s %-10s %-15s %10s %10s %8s %10s %8s %11s %12s %10s\n", "primitive", "figure",
           "path", "median", "p99", "ratio", "proj", "ratio", "fabric cyc", "seed eCos",
           "seed ratio");
    for (int i = 0; i < R_COUNT; i++) {
        const result_t *r = &results[i];
        char cyc[32] = "-", ratio[32] = "-", pratio[32] = "-", seed[32] = "-", sratio[32] = "-";
        if (isfinite(r->cycles))
            snprintf(cyc, sizeof cyc, "%.1f", r->cycles);
        if (isfinite(r->ratio))
            snprintf(ratio, sizeof ratio, "%.1fx", r->ratio);
        if (isfinite(r->proj_ratio))
            snprintf(pratio, sizeof pratio, "%.2fx", r->proj_ratio);
        if (isfinite(r->seed_cycles))
            snprintf(seed, sizeof seed, "%.2f us", r->seed_cycles / 100.0);
        if (!strcmp(r->kind, "turnaround")) {
            double base =
                results[!strcmp(r->prim, "mutex") ? R_MTX_TA_SWSW : R_SEM_TA_SWSW].seed_cycles;
            snprintf(sratio, sizeof sratio, "%.2fx", r->seed_cycles / base);
        }
        printf("%-10s %-10s %-15s %10.4f %10.4f %8s %10.4f %8s %11s %12s %10s\n", r->prim, r->kind,
               r->path, r->st.median, r->st.p99, ratio, r->proj.median, pratio, cyc, seed, sratio);
    }
    printf("\nturnaround: round trip / 2 (SW<->HW: mean of SW->HW and HW->SW); HW<->HW: 8 "
           "batches of %u round trips, median/p99 over batches.\n"
           "raw: HW figures are per call (pair for the mutex), the SW<->HW round trip "
           "subtracted.\n"
           "fabric cyc: weft_fabric_cycles() before/after each loop, per figure; the "
           "simulated clock stops while all slots block, so these are fabric cycles only.\n"
           "ratio: median / SW<->SW median of the same primitive, this run. proj: board "
           "projection, the host time\nminus the host time spent simulating the fabric plus "
           "the fabric cycles at %u MHz (docs/benchmarks.md), median.\n"
           "seed: ReconOS eCos/PPC, Table V (bus cycles at 100 MHz);\n"
           "its SW<->HW is the mean of its SW->HW and HW->SW. whole run %.1f s.\n",
           b->reps / HWHW_BATCHES ? b->reps / HWHW_BATCHES : 1, WEFT_PLATFORM_CLOCK_MHZ, wall_s);
}

static json_t *result_json(const result_t *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(r->key));
    json_object_set_new(o, "primitive", json_string(r->prim));
    json_object_set_new(o, "kind", json_string(r->kind));
    json_object_set_new(o, "path", json_string(r->path));
    json_object_set_new(o, "samples", json_integer((json_int_t)r->st.n));
    json_object_set_new(o, "median_us", bench_jnum(r->st.median));
    json_object_set_new(o, "p99_us", bench_jnum(r->st.p99));
    json_object_set_new(o, "mean_us", bench_jnum(r->st.mean));
    json_object_set_new(o, "fabric_cycles", bench_jnum(r->cycles));
    json_object_set_new(o, "ratio_to_sw_sw", bench_jnum(r->ratio));
    json_object_set_new(o, "projected_median_us", bench_jnum(r->proj.median));
    json_object_set_new(o, "projected_p99_us", bench_jnum(r->proj.p99));
    json_object_set_new(o, "projected_mean_us", bench_jnum(r->proj.mean));
    json_object_set_new(o, "projected_ratio_to_sw_sw", bench_jnum(r->proj_ratio));
    json_object_set_new(o, "seed_ecos_cycles", bench_jnum(r->seed_cycles));
    json_object_set_new(o, "seed_ecos_us", bench_jnum(r->seed_cycles / 100.0));
    double seed_ratio = NAN;
    if (!strcmp(r->kind, "turnaround"))
        seed_ratio = r->seed_cycles /
                     results[!strcmp(r->prim, "mutex") ? R_MTX_TA_SWSW : R_SEM_TA_SWSW].seed_cycles;
    json_object_set_new(o, "seed_ratio_to_sw_sw", bench_jnum(seed_ratio));
    json_object_set_new(o, "seed_figure", json_string(r->seed_note));
    json_object_set_new(o, "includes", json_string(r->includes));
    return o;
}

static int write_json(const struct bench *b, const char *path, double wall_s)
{
    json_t *root = json_object();
    json_object_set_new(root, "benchmark", json_string("os_overhead"));
    json_object_set_new(root, "reps", json_integer(b->reps));
    json_object_set_new(root, "hw_calls_per_round", json_integer(HW_K));
    json_object_set_new(root, "sw_calls_per_sample", json_integer(SW_BATCH));
    json_object_set_new(root, "hw_hw_batches", json_integer(HWHW_BATCHES));
    json_object_set_new(root, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
    json_object_set_new(root, "wall_s", bench_jnum(wall_s));
    json_object_set_new(root, "time_unit", json_string("us (CLOCK_MONOTONIC wall clock)"));
    json_object_set_new(root, "cycles_source",
                        json_string("weft_fabric_cycles() before and after each loop"));
    json_object_set_new(root, "projection",
                        json_pack("{s:s, s:i}", "method",
                                  "per sample: host time - host time simulating the fabric + "
                                  "fabric cycles / clock",
                                  "clock_mhz", WEFT_PLATFORM_CLOCK_MHZ));
    json_object_set_new(root, "seed",
                        json_pack("{s:s, s:s}", "source", "ReconOS, Table V, eCos/PPC column",
                                  "unit", "bus cycles, 1 cycle = 10 ns"));
    json_t *arr = json_array();
    for (int i = 0; i < R_COUNT; i++)
        json_array_append_new(arr, result_json(&results[i]));
    json_object_set_new(root, "results", arr);
    int rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
    json_decref(root);
    if (rc != 0) {
        fprintf(stderr, "weft-bench-os-overhead: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

/* ---- main ------------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: weft-bench-os-overhead [--reps N] [--out PATH]\n"
            "  --reps N    repetitions per figure, 1..%u (default %u)\n"
            "  --out PATH  JSON result file (default %s; directories are created)\n",
            MAX_REPS, DEFAULT_REPS, DEFAULT_OUT);
}

int main(int argc, char **argv)
{
    struct bench b = {.reps = DEFAULT_REPS};
    const char *out = DEFAULT_OUT;
    int status = bench_args(argc, argv, "weft-bench-os-overhead", MAX_REPS, &b.reps, &out, usage);
    if (status >= 0)
        return status;

    double start = bench_now_us();
    describe();
    int rc = weft_sim_open(&b.plat, NULL);
    if (rc)
        die("weft_sim_open", rc);
    rc = weft_init(&b.w, b.plat);
    if (rc)
        die("weft_init", rc);
    weft_set_log(b.w, log_sink, NULL);

    /* Per-sample buffer: reps samples, or the HW<->HW batches when there are more. */
    size_t nv = b.reps > HWHW_BATCHES ? b.reps : HWHW_BATCHES;
    double *v = malloc(sizeof(double) * nv);
    b.proj = malloc(sizeof(double) * nv);
    if (!v || !b.proj)
        die("malloc", ENOMEM);
    sem_turnaround_sw_sw(&b, v);
    sem_turnaround_sw_hw(&b, v);
    sem_turnaround_sw_hw_sync(&b, v);
    sem_turnaround_hw_hw(&b, v);
    mutex_turnaround_sw_sw(&b, v);
    mutex_turnaround_sw_hw(&b, v);
    mutex_turnaround_hw_hw(&b, v);
    raw_sw(&b, v);
    raw_hw(&b, v, PP_SEM_RAW, R_SEM_RAW_HW, false);
    raw_hw(&b, v, PP_MUTEX_RAW, R_MTX_PAIR_HW, false);
    turnaround_sync(&b, v, sem_sync_batch, R_SEM_TA_HWHW_SYNC);
    turnaround_sync(&b, v, mutex_sync_batch, R_MTX_TA_HWHW_SYNC);
    raw_hw(&b, v, PP_SEM_RAW, R_SEM_RAW_HW_SYNC, true);
    raw_hw(&b, v, PP_MUTEX_RAW, R_MTX_PAIR_HW_SYNC, true);
    raw_sw_sync(&b, v);
    free(v);
    free(b.proj);

    for (int i = 0; i < R_COUNT; i++) {
        if (strcmp(results[i].kind, "turnaround"))
            continue;
        int base = strcmp(results[i].prim, "mutex") ? R_SEM_TA_SWSW : R_MTX_TA_SWSW;
        results[i].ratio = results[i].st.median / results[base].st.median;
        results[i].proj_ratio = results[i].proj.median / results[base].proj.median;
    }

    weft_shutdown(b.w);
    b.plat->ops->close(b.plat);
    double wall_s = (bench_now_us() - start) / 1e6;
    print_table(&b, wall_s);
    if (write_json(&b, out, wall_s))
        return 1;
    printf("results written to %s\n", out);
    return 0;
}

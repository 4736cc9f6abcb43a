/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rtk_selftest.c: checks the real-time kernel's documented behaviour (include/weft/rtk.h)
 * on whichever port it is linked with (softcore/rtk: rtk_sw.c or rtk_hw.c). One program
 * for both ports: what an application sees must not depend on the port.
 *
 * A controller thread (priority CTRL) runs the phases one after the other; each phase
 * starts short-lived worker threads more urgent (HI) or less urgent (LO) than the
 * controller, and checks the order they run in through an event log of one character
 * per event. Every phase is ordered by priorities and by sleeps long enough for the
 * workers' few instructions, never by timing luck. At most seven threads live at once
 * (the hardware-context port's limit with eight contexts) and the kernel objects are
 * created once, in main, and reused (seven hardware objects of the sixteen).
 *
 * Failed checks are recorded (workers make some of them; the interrupt's handler leaves
 * its results for the controller) and printed by the controller at the end: each as
 * file:line, what, what it got and what it expected. The program ends with 0 and
 * "rtk selftest: N checks passed", or with 1. RTK_SELFTEST_PHASES selects phases. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "weft/rtk.h"
#include "weft_rv.h"

#define CTRL 10u               /* the controller's priority */
#define HI 5u                  /* more urgent than the controller */
#define LO 12u                 /* less urgent */
#define SLOTS 6                /* workers alive at once, besides the controller */
#define WORKER_STACK_WORDS 128 /* 512 bytes: phase_stacks checks the headroom */
#define STACK_PAINT 0x5AC3A55Au
#define REAP_TICKS 60

/* ---------------------------------------------------------------------------------- */
/* Checks                                                                             */
/* ---------------------------------------------------------------------------------- */

enum { K_BOOL, K_RESULT, K_NUMBER, K_LOG };

struct failure {
    int line, kind;
    const char *what;
    long got, want, lo, hi;
    char got_log[32];
    const char *want_log;
};

#define MAX_FAILURES 32
static struct failure failures[MAX_FAILURES];
static volatile unsigned n_failed, n_checks;

static struct failure *check_(int ok, int line, const char *what, int kind)
{
    n_checks++;
    if (ok)
        return NULL;
    unsigned i = n_failed++;
    if (i >= MAX_FAILURES)
        return NULL;
    struct failure *f = &failures[i];
    memset(f, 0, sizeof(*f));
    f->line = line;
    f->what = what;
    f->kind = kind;
    return f;
}

static void check_bool(int ok, int line, const char *what)
{
    check_(ok, line, what, K_BOOL);
}

static void check_result(long got, long want, int line, const char *what)
{
    struct failure *f = check_(got == want, line, what, K_RESULT);
    if (f) {
        f->got = got;
        f->want = want;
    }
}

static void check_range(long got, long lo, long hi, int line, const char *what)
{
    struct failure *f = check_(got >= lo && got <= hi, line, what, K_NUMBER);
    if (f) {
        f->got = got;
        f->lo = lo;
        f->hi = hi;
    }
}

#define CHECK(cond, what) check_bool(!!(cond), __LINE__, what)
#define CHECK_RES(call, want, what) check_result((long)(call), (long)(want), __LINE__, what)
#define CHECK_RANGE(v, lo, hi, what) check_range((long)(v), (long)(lo), (long)(hi), __LINE__, what)
#define CHECK_LOG(want, what) check_log(want, __LINE__, what)

static const char *result_name(long r)
{
    static const char *const names[] = {"RTK_OK",  "RTK_TIMEOUT", "RTK_UNAVAILABLE", "RTK_STATE",
                                        "RTK_ARG", "RTK_CONTEXT", "RTK_FULL",        "RTK_OWNER"};
    return (r <= 0 && r >= -7) ? names[-r] : "?";
}

/* ---------------------------------------------------------------------------------- */
/* The event log                                                                      */
/* ---------------------------------------------------------------------------------- */

/* Appending is not atomic: a port that switches threads where the API says it may not
 * (a woken thread preempting some instructions after the call that woke it) can garble
 * the log. Where that matters, the caller also samples ev_n right after the call. */
static volatile char ev_log[32];
static volatile unsigned ev_n;

static void ev(char c)
{
    unsigned n = ev_n;
    if (n < sizeof(ev_log) - 1) {
        ev_log[n] = c;
        ev_log[n + 1] = 0;
        ev_n = n + 1;
    }
}

static void log_reset(void)
{
    ev_n = 0;
    ev_log[0] = 0;
}

static void check_log(const char *want, int line, const char *what)
{
    char got[sizeof(ev_log)];
    for (unsigned i = 0; i < sizeof(got); i++)
        got[i] = ev_log[i];
    got[sizeof(got) - 1] = 0;
    struct failure *f = check_(strcmp(got, want) == 0, line, what, K_LOG);
    if (f) {
        memcpy(f->got_log, got, sizeof(f->got_log));
        f->want_log = want;
    }
}

/* ---------------------------------------------------------------------------------- */
/* Kernel objects (created once in main) and shared state                             */
/* ---------------------------------------------------------------------------------- */

static rtk_sem_t sem_cnt; /* counting: initial 2, maximum 3 */
static rtk_sem_t sem_bin; /* binary: initial 0 */
static rtk_sem_t sem_swi; /* binary, put by the software interrupt's handler */
static rtk_mutex_t mtx;
static rtk_queue_t queue; /* 4-word messages, 4 of them */
static uint32_t queue_buf[4 * 4];
static rtk_pool_t pool; /* 4 blocks of 16 bytes */
#define POOL_BLOCKS 4
#define POOL_BLOCK_BYTES 16
static uint32_t pool_buf[POOL_BLOCKS * POOL_BLOCK_BYTES / 4];
static uint32_t other_buf[8];

static rtk_thread_t ctrl_thread;
static uint32_t ctrl_stack[512] __attribute__((aligned(16)));
static rtk_thread_t spare_thread; /* for creations that must fail */
static uint32_t spare_stack[WORKER_STACK_WORDS] __attribute__((aligned(16)));

/* Values workers leave for the controller. */
static volatile int w_res[8];
static volatile uint32_t w_tick[8];
static void *volatile w_ptr;
static rtk_thread_t *volatile target;

static uint32_t ticks(void)
{
    return rtk_ticks();
}

/* Spins (no kernel call that blocks) until `n` ticks have passed. */
static void busy_ticks(uint32_t n)
{
    uint32_t t0 = ticks();
    while (ticks() - t0 < n) {
    }
}

static void msg_make(uint32_t *m, uint32_t id)
{
    m[0] = id;
    m[1] = id * 10u + 1u;
    m[2] = ~id;
    m[3] = 0xA5000000u | id;
}

static int msg_is(const uint32_t *m, uint32_t id)
{
    uint32_t e[4];
    msg_make(e, id);
    return memcmp(m, e, sizeof(e)) == 0;
}

/* ---------------------------------------------------------------------------------- */
/* Workers                                                                            */
/* ---------------------------------------------------------------------------------- */

typedef void (*body_t)(int arg);

struct worker {
    rtk_thread_t t;
    body_t body;
    int arg;
    volatile int done, busy, leaked;
};

static struct worker workers[SLOTS];
static uint32_t worker_stacks[SLOTS][WORKER_STACK_WORDS] __attribute__((aligned(16)));

static void worker_entry(void *p)
{
    struct worker *w = p;
    CHECK(rtk_thread_self() == &w->t, "rtk_thread_self() in a worker names its thread");
    w->body(w->arg);
    w->done = 1; /* then the entry returns: the thread ends */
}

static rtk_thread_t *spawn_(body_t body, int arg, unsigned prio, unsigned flags, int line)
{
    struct worker *w = NULL;
    for (int i = 0; i < SLOTS && !w; i++)
        if (!workers[i].busy && !workers[i].leaked)
            w = &workers[i];
    if (!w) {
        check_bool(0, line, "a free worker slot (earlier workers did not end)");
        return NULL;
    }
    w->body = body;
    w->arg = arg;
    w->done = 0;
    w->busy = 1;
    int r = rtk_thread_create(&w->t, worker_entry, w, worker_stacks[w - workers],
                              sizeof(worker_stacks[0]), prio, flags);
    check_result(r, RTK_OK, line, "rtk_thread_create of a worker");
    if (r != RTK_OK) {
        w->busy = 0;
        return NULL;
    }
    return &w->t;
}

#define spawn(body, arg, prio, flags) spawn_(body, arg, prio, flags, __LINE__)

/* Waits for every worker to finish its body, then sleeps so that they all end. */
static void reap_(int line)
{
    for (int i = 0; i < SLOTS; i++) {
        struct worker *w = &workers[i];
        if (!w->busy)
            continue;
        for (int k = 0; k < REAP_TICKS && !w->done; k++)
            rtk_sleep(1);
        if (!w->done) {
            check_bool(0, line, "a worker finishes (it is stuck; its slot is abandoned)");
            w->leaked = 1;
        }
        w->busy = 0;
    }
    rtk_sleep(2);
}

#define reap() reap_(__LINE__)

static void body_nop(int arg)
{
    (void)arg;
}

static void entry_nop(void *arg)
{
    (void)arg;
}

static void body_log(int c)
{
    ev((char)c);
}

/* ---------------------------------------------------------------------------------- */
/* Argument errors                                                                    */
/* ---------------------------------------------------------------------------------- */

static void phase_args(void)
{
    rtk_sem_t s;
    rtk_queue_t q;
    rtk_pool_t p;
    uint32_t *st = spare_stack;
    uint32_t sb = sizeof(spare_stack);

    CHECK_RES(rtk_thread_create(NULL, entry_nop, NULL, st, sb, LO, 0), RTK_ARG,
              "rtk_thread_create: null thread");
    CHECK_RES(rtk_thread_create(&spare_thread, NULL, NULL, st, sb, LO, 0), RTK_ARG,
              "rtk_thread_create: null entry");
    CHECK_RES(rtk_thread_create(&spare_thread, entry_nop, NULL, NULL, sb, LO, 0), RTK_ARG,
              "rtk_thread_create: null stack");
    CHECK_RES(rtk_thread_create(&spare_thread, entry_nop, NULL, st, 128, LO, 0), RTK_ARG,
              "rtk_thread_create: stack under 256 bytes");
    CHECK_RES(rtk_thread_create(&spare_thread, entry_nop, NULL, st, sb, RTK_PRIOS - 1, 0), RTK_ARG,
              "rtk_thread_create: the idle thread's priority (RTK_PRIOS - 1)");
    CHECK_RES(rtk_thread_create(&spare_thread, entry_nop, NULL, st, sb, RTK_PRIOS, 0), RTK_ARG,
              "rtk_thread_create: priority RTK_PRIOS");
    CHECK_RES(rtk_thread_create(&spare_thread, entry_nop, NULL, st, sb, 1000, 0), RTK_ARG,
              "rtk_thread_create: priority 1000");
    CHECK_RES(rtk_thread_resume(NULL), RTK_ARG, "rtk_thread_resume(NULL)");
    CHECK_RES(rtk_thread_suspend(NULL), RTK_ARG, "rtk_thread_suspend(NULL)");

    CHECK_RES(rtk_sem_create(NULL, 0, 1), RTK_ARG, "rtk_sem_create: null");
    CHECK_RES(rtk_sem_create(&s, 0, 0), RTK_ARG, "rtk_sem_create: maximum 0");
    CHECK_RES(rtk_sem_create(&s, 3, 2), RTK_ARG, "rtk_sem_create: initial above maximum");
    CHECK_RES(rtk_mutex_create(NULL), RTK_ARG, "rtk_mutex_create: null");

    CHECK_RES(rtk_queue_create(NULL, other_buf, 4, 2), RTK_ARG, "rtk_queue_create: null queue");
    CHECK_RES(rtk_queue_create(&q, NULL, 4, 2), RTK_ARG, "rtk_queue_create: null buffer");
    CHECK_RES(rtk_queue_create(&q, other_buf, 0, 2), RTK_ARG, "rtk_queue_create: 0-word messages");
    CHECK_RES(rtk_queue_create(&q, other_buf, 4, 0), RTK_ARG, "rtk_queue_create: capacity 0");
    CHECK_RES(rtk_queue_create(&q, (uint8_t *)other_buf + 2, 2, 2), RTK_ARG,
              "rtk_queue_create: unaligned buffer");

    CHECK_RES(rtk_pool_create(NULL, other_buf, 8, 4), RTK_ARG, "rtk_pool_create: null pool");
    CHECK_RES(rtk_pool_create(&p, NULL, 8, 4), RTK_ARG, "rtk_pool_create: null buffer");
    CHECK_RES(rtk_pool_create(&p, other_buf, 0, 4), RTK_ARG, "rtk_pool_create: 0-byte blocks");
    CHECK_RES(rtk_pool_create(&p, other_buf, 2, 4), RTK_ARG, "rtk_pool_create: 2-byte blocks");
    CHECK_RES(rtk_pool_create(&p, other_buf, 6, 4), RTK_ARG,
              "rtk_pool_create: blocks not a multiple of 4 bytes");
    CHECK_RES(rtk_pool_create(&p, other_buf, 8, 0), RTK_ARG, "rtk_pool_create: 0 blocks");
    CHECK_RES(rtk_pool_create(&p, (uint8_t *)other_buf + 2, 8, 2), RTK_ARG,
              "rtk_pool_create: unaligned buffer");
}

/* ---------------------------------------------------------------------------------- */
/* Priorities, relinquish                                                             */
/* ---------------------------------------------------------------------------------- */

static void body_rotate(int c)
{
    for (int i = 0; i < 3; i++) {
        ev((char)c);
        rtk_thread_relinquish();
    }
}

/* Logs, resumes the (more urgent, suspended) target, logs again. */
static void body_preempted(int c)
{
    ev((char)c);
    w_res[0] = rtk_thread_resume(target);
    ev((char)(c | 0x20)); /* the lower-case letter */
}

static void phase_priorities(void)
{
    log_reset();
    ev('a');
    spawn(body_log, 'H', HI, 0);
    ev('b');
    CHECK_LOG("aHb", "a more urgent thread created runs at once");

    log_reset();
    ev('a');
    spawn(body_log, 'E', CTRL, 0);
    ev('b');
    CHECK_LOG("ab", "a thread of equal priority created does not preempt");
    rtk_thread_relinquish();
    ev('c');
    CHECK_LOG("abEc", "relinquish runs the ready thread of equal priority");

    log_reset();
    ev('a');
    spawn(body_log, 'L', LO, 0);
    ev('b');
    rtk_thread_relinquish();
    ev('c');
    CHECK_LOG("abc", "a less urgent thread neither preempts nor runs on relinquish");
    rtk_sleep(2);
    CHECK_LOG("abcL", "a less urgent thread runs when the controller sleeps");
    reap();

    /* Three less urgent threads of one priority relinquish in turn: FIFO rotation. */
    log_reset();
    spawn(body_rotate, 'A', LO, 0);
    spawn(body_rotate, 'B', LO, 0);
    spawn(body_rotate, 'D', LO, 0);
    CHECK_LOG("", "less urgent threads wait while the controller runs");
    rtk_sleep(3);
    CHECK_LOG("ABDABDABD", "relinquish rotates threads of equal priority in FIFO order");
    reap();

    /* The controller itself in a rotation with two of its priority. */
    log_reset();
    spawn(body_rotate, 'X', CTRL, 0);
    spawn(body_rotate, 'Y', CTRL, 0);
    for (int i = 0; i < 3; i++) {
        ev('c');
        rtk_thread_relinquish();
    }
    ev('e');
    CHECK_LOG("cXYcXYcXYe", "relinquish rotates the caller behind its equal-priority peers");
    reap();

    /* A thread preempted by a more urgent one stays before the others of its priority
     * (rtk.h: POSIX SCHED_FIFO; both ports, as the hardware thread manager queues it): A
     * resumes U, U preempts A and ends, then A goes on before B runs. */
    log_reset();
    target = spawn(body_log, 'U', HI, RTK_START_SUSPENDED);
    spawn(body_preempted, 'A', LO, 0);
    spawn(body_log, 'B', LO, 0);
    rtk_sleep(3);
    CHECK_RES(w_res[0], RTK_OK, "rtk_thread_resume of a suspended thread (from a worker)");
    CHECK_LOG("AUaB", "a preempted thread stays at the head of its priority");
    reap();
}

/* ---------------------------------------------------------------------------------- */
/* Suspend and resume                                                                 */
/* ---------------------------------------------------------------------------------- */

static void body_self_suspend(int arg)
{
    (void)arg;
    ev('S');
    w_res[0] = rtk_thread_suspend(rtk_thread_self());
    ev('T');
}

static void body_sleep_log(int arg)
{
    w_tick[0] = ticks();
    rtk_sleep((uint32_t)arg >> 8);
    w_tick[1] = ticks();
    ev((char)(arg & 0xff));
}

static void phase_suspend(void)
{
    rtk_thread_t *t;

    /* A thread suspends itself; resuming it (it is more urgent) preempts at once. */
    log_reset();
    ev('a');
    t = spawn(body_self_suspend, 0, HI, 0);
    ev('b');
    CHECK_LOG("aSb", "a thread that suspends itself stops at once");
    CHECK_RES(rtk_thread_suspend(t), RTK_STATE, "rtk_thread_suspend of a suspended thread");
    CHECK_RES(rtk_thread_resume(t), RTK_OK, "rtk_thread_resume of a self-suspended thread");
    ev('c');
    CHECK_LOG("aSbTc", "a more urgent thread resumed runs at once");
    CHECK_RES(w_res[0], RTK_OK, "rtk_thread_suspend of the caller itself");
    reap();
    CHECK_RES(rtk_thread_resume(t), RTK_STATE, "rtk_thread_resume of a thread that ended");
    CHECK_RES(rtk_thread_suspend(t), RTK_STATE, "rtk_thread_suspend of a thread that ended");

    /* Created suspended: does not run until resumed. */
    log_reset();
    t = spawn(body_log, 'U', HI, RTK_START_SUSPENDED);
    CHECK_LOG("", "a thread created with RTK_START_SUSPENDED does not run");
    rtk_sleep(2);
    CHECK_LOG("", "a thread created with RTK_START_SUSPENDED does not run while others sleep");
    CHECK_RES(rtk_thread_suspend(t), RTK_STATE, "rtk_thread_suspend of a thread created suspended");
    ev('a');
    CHECK_RES(rtk_thread_resume(t), RTK_OK, "rtk_thread_resume of a thread created suspended");
    ev('b');
    CHECK_LOG("aUb", "a more urgent thread created suspended runs at once when resumed");
    reap();

    /* Another, ready thread suspended and resumed. */
    log_reset();
    t = spawn(body_log, 'R', LO, 0);
    CHECK_RES(rtk_thread_resume(t), RTK_STATE, "rtk_thread_resume of a ready thread");
    CHECK_RES(rtk_thread_suspend(t), RTK_OK, "rtk_thread_suspend of another, ready thread");
    rtk_sleep(3);
    CHECK_LOG("", "a suspended ready thread does not run");
    CHECK_RES(rtk_thread_resume(t), RTK_OK, "rtk_thread_resume of a suspended ready thread");
    CHECK_LOG("", "a less urgent thread resumed does not preempt");
    rtk_sleep(2);
    CHECK_LOG("R", "a resumed thread runs");
    reap();

    /* Resumed at equal priority: goes behind the caller. */
    log_reset();
    t = spawn(body_log, 'V', CTRL, RTK_START_SUSPENDED);
    CHECK_RES(rtk_thread_resume(t), RTK_OK, "rtk_thread_resume (equal priority)");
    ev('a');
    rtk_thread_relinquish();
    ev('b');
    CHECK_LOG("aVb", "a thread of equal priority resumed does not preempt");
    reap();

    CHECK_RES(rtk_thread_resume(rtk_thread_self()), RTK_STATE,
              "rtk_thread_resume of the running thread");

    /* A sleeping thread can be neither suspended nor resumed. */
    log_reset();
    t = spawn(body_sleep_log, 4 << 8 | 'Z', HI, 0);
    CHECK_LOG("", "a sleeping thread does not run");
    CHECK_RES(rtk_thread_suspend(t), RTK_STATE, "rtk_thread_suspend of a sleeping thread");
    CHECK_RES(rtk_thread_resume(t), RTK_STATE, "rtk_thread_resume of a sleeping thread");
    rtk_sleep(7);
    CHECK_LOG("Z", "a sleeping thread wakes");
    CHECK_RANGE(w_tick[1] - w_tick[0], 4, 5, "suspend and resume did not shorten a sleep");
    reap();
}

/* ---------------------------------------------------------------------------------- */
/* Sleep and the tick                                                                 */
/* ---------------------------------------------------------------------------------- */

static void phase_sleep(void)
{
    uint32_t t0, dt;

    t0 = ticks();
    uint32_t c0 = weft_rv_cycles();
    while (ticks() == t0 && weft_rv_cycles() - c0 < 4u * RTK_TICK_CYCLES) {
    }
    CHECK(ticks() != t0, "rtk_ticks advances within a few tick periods");

    t0 = ticks();
    CHECK_RES(rtk_sleep(3), RTK_OK, "rtk_sleep(3)");
    dt = ticks() - t0;
    CHECK_RANGE(dt, 3, 4, "rtk_sleep(3): ticks passed");

    t0 = ticks();
    CHECK_RES(rtk_sleep(1), RTK_OK, "rtk_sleep(1)");
    dt = ticks() - t0;
    CHECK_RANGE(dt, 1, 2, "rtk_sleep(1): ticks passed");

    t0 = ticks();
    CHECK_RES(rtk_sleep(0), RTK_OK, "rtk_sleep(0)");
    dt = ticks() - t0;
    CHECK_RANGE(dt, 1, 2, "rtk_sleep(0): at least one tick boundary passes");

    /* A more urgent sleeper preempts the busy controller when it wakes. */
    log_reset();
    spawn(body_sleep_log, 2 << 8 | 'W', HI, 0);
    busy_ticks(6);
    ev('c');
    CHECK_LOG("Wc", "a more urgent sleeper preempts when it wakes");
    CHECK_RANGE(w_tick[1] - w_tick[0], 2, 3, "the more urgent sleeper's ticks asleep");
    reap();

    /* A less urgent one waits for the controller. */
    log_reset();
    spawn(body_sleep_log, 1 << 8 | 'w', LO, 0);
    rtk_sleep(1); /* it runs and goes to sleep */
    busy_ticks(4);
    CHECK_LOG("", "a less urgent sleeper does not preempt when it wakes");
    rtk_sleep(2);
    CHECK_LOG("w", "a less urgent sleeper runs when the controller sleeps");
    reap();

    /* Sleepers wake in the order of their wake ticks. */
    log_reset();
    spawn(body_sleep_log, 4 << 8 | 'A', LO, 0);
    spawn(body_sleep_log, 1 << 8 | 'B', LO, 0);
    rtk_sleep(7);
    CHECK_LOG("BA", "sleepers wake in the order of their wake ticks");
    reap();
}

/* ---------------------------------------------------------------------------------- */
/* Semaphores                                                                         */
/* ---------------------------------------------------------------------------------- */

static void body_sem_wait(int c)
{
    ev((char)(c | 0x20));
    w_res[0] = rtk_sem_get(&sem_bin, RTK_WAIT_FOREVER);
    ev((char)c);
}

/* Waits and logs its letter once it has the semaphore. */
static void body_sem_wait_quiet(int c)
{
    int r = rtk_sem_get(&sem_bin, RTK_WAIT_FOREVER);
    CHECK_RES(r, RTK_OK, "rtk_sem_get(RTK_WAIT_FOREVER) of a waiter");
    ev((char)c);
}

static void body_put_after(int ticks_before)
{
    rtk_sleep((uint32_t)ticks_before);
    w_res[1] = rtk_sem_put(&sem_bin);
}

static void phase_semaphores(void)
{
    uint32_t t0, dt;
    rtk_thread_t *t;

    /* Counting: initial 2, maximum 3. */
    CHECK_RES(rtk_sem_get(&sem_cnt, RTK_NO_WAIT), RTK_OK, "counting sem: get 1 of 2");
    CHECK_RES(rtk_sem_get(&sem_cnt, RTK_WAIT_FOREVER), RTK_OK, "counting sem: get 2 of 2");
    CHECK_RES(rtk_sem_get(&sem_cnt, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "counting sem: get at 0 with RTK_NO_WAIT");
    for (int i = 0; i < 3; i++)
        CHECK_RES(rtk_sem_put(&sem_cnt), RTK_OK, "counting sem: put up to the maximum");
    CHECK_RES(rtk_sem_put(&sem_cnt), RTK_FULL, "counting sem: put at the maximum");
    for (int i = 0; i < 3; i++)
        CHECK_RES(rtk_sem_get(&sem_cnt, RTK_NO_WAIT), RTK_OK, "counting sem: get 3 of 3");
    CHECK_RES(rtk_sem_get(&sem_cnt, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "counting sem: get after the maximum was taken");

    /* Binary. */
    CHECK_RES(rtk_sem_get(&sem_bin, RTK_NO_WAIT), RTK_UNAVAILABLE, "binary sem: get at 0");
    CHECK_RES(rtk_sem_put(&sem_bin), RTK_OK, "binary sem: put");
    CHECK_RES(rtk_sem_put(&sem_bin), RTK_FULL, "binary sem: put at 1");
    CHECK_RES(rtk_sem_get(&sem_bin, RTK_NO_WAIT), RTK_OK, "binary sem: get at 1");
    CHECK_RES(rtk_sem_get(&sem_bin, RTK_NO_WAIT), RTK_UNAVAILABLE, "binary sem: get again");

    /* A blocking get released by a put from another thread. */
    log_reset();
    w_res[0] = 99;
    t = spawn(body_sem_wait, 'G', HI, 0);
    CHECK_LOG("g", "a get of an empty semaphore blocks");
    CHECK_RES(rtk_thread_resume(t), RTK_STATE, "rtk_thread_resume of a thread waiting on a sem");
    CHECK_RES(rtk_thread_suspend(t), RTK_STATE, "rtk_thread_suspend of a thread waiting on a sem");
    ev('a');
    int r = rtk_sem_put(&sem_bin);
    unsigned n = ev_n; /* the first thing after the call */
    ev('b');
    CHECK_RES(r, RTK_OK, "put to a semaphore with a waiter");
    CHECK_RES(n, 3, "events logged when rtk_sem_put returns (the more urgent waiter ran)");
    CHECK_LOG("gaGb", "a more urgent waiter released by put runs at once");
    CHECK_RES(w_res[0], RTK_OK, "the released waiter's rtk_sem_get");
    CHECK_RES(rtk_sem_get(&sem_bin, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "a put that released a waiter is not counted");
    reap();

    /* A less urgent waiter released: no preemption. */
    log_reset();
    w_res[0] = 99;
    spawn(body_sem_wait, 'G', LO, 0);
    rtk_sleep(2);
    CHECK_LOG("g", "a less urgent thread blocks in get");
    CHECK_RES(rtk_sem_put(&sem_bin), RTK_OK, "put to a semaphore with a less urgent waiter");
    ev('a');
    CHECK_LOG("ga", "a less urgent waiter released does not preempt");
    rtk_sleep(2);
    CHECK_LOG("gaG", "the less urgent waiter released runs later");
    CHECK_RES(w_res[0], RTK_OK, "the less urgent waiter's rtk_sem_get");
    CHECK_RES(rtk_sem_get(&sem_bin, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "a put handed to a less urgent waiter is not counted");
    reap();

    /* A timed get that runs out. */
    t0 = ticks();
    CHECK_RES(rtk_sem_get(&sem_bin, 3), RTK_TIMEOUT, "rtk_sem_get(3) of an empty semaphore");
    dt = ticks() - t0;
    CHECK_RANGE(dt, 2, 4, "rtk_sem_get(3) times out after about 3 ticks");

    /* A timed get satisfied before it runs out. */
    w_res[1] = 99;
    spawn(body_put_after, 1, LO, 0);
    t0 = ticks();
    CHECK_RES(rtk_sem_get(&sem_bin, 10), RTK_OK, "rtk_sem_get(10) satisfied by a put");
    dt = ticks() - t0;
    CHECK_RANGE(dt, 1, 3, "rtk_sem_get(10) returns when the put comes");
    reap(); /* the putter, less urgent, stores its result after the controller ran */
    CHECK_RES(w_res[1], RTK_OK, "the put that satisfied a timed get");
    CHECK_RES(rtk_sem_get(&sem_bin, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "a put to a timed waiter is not counted");

    /* Waiters released most urgent first, first come first served within a priority:
     * X (3), Y (1), Z (2), W (2) block in that order; each put releases one, which runs
     * at once (all are more urgent than the controller). */
    log_reset();
    spawn(body_sem_wait_quiet, 'X', 3, 0);
    spawn(body_sem_wait_quiet, 'Y', 1, 0);
    spawn(body_sem_wait_quiet, 'Z', 2, 0);
    spawn(body_sem_wait_quiet, 'W', 2, 0);
    CHECK_LOG("", "four waiters block");
    for (int i = 0; i < 4; i++)
        CHECK_RES(rtk_sem_put(&sem_bin), RTK_OK, "put to release one waiter");
    CHECK_LOG("YZWX", "semaphore waiters are released most urgent first, then FIFO");
    reap();
    CHECK_RES(rtk_sem_get(&sem_bin, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "binary sem empty after the waiters");
}

/* ---------------------------------------------------------------------------------- */
/* Mutexes                                                                            */
/* ---------------------------------------------------------------------------------- */

static void body_mutex_other(int arg)
{
    (void)arg;
    ev('n');
    w_res[0] = rtk_mutex_unlock(&mtx);
    w_res[1] = rtk_mutex_lock(&mtx, RTK_NO_WAIT);
    w_res[2] = rtk_mutex_lock(&mtx, RTK_WAIT_FOREVER);
    ev('N');
    w_res[3] = rtk_mutex_unlock(&mtx);
}

static void body_mutex_timed(int arg)
{
    (void)arg;
    uint32_t t0 = ticks();
    w_res[0] = rtk_mutex_lock(&mtx, 2);
    w_tick[0] = ticks() - t0;
    ev('t');
}

static void body_pi_low(int arg)
{
    (void)arg;
    w_res[0] = rtk_mutex_lock(&mtx, RTK_WAIT_FOREVER);
    ev('1');
    rtk_thread_suspend(rtk_thread_self());
    ev('2');
    w_res[1] = rtk_mutex_unlock(&mtx);
    ev('3');
}

static void body_pi_high(int arg)
{
    (void)arg;
    ev('h');
    w_res[2] = rtk_mutex_lock(&mtx, RTK_WAIT_FOREVER);
    ev('H');
    w_res[3] = rtk_mutex_unlock(&mtx);
}

static void phase_mutexes(void)
{
    /* Recursion and ownership, uncontended. */
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OWNER, "unlock of a mutex nobody holds");
    CHECK_RES(rtk_mutex_lock(&mtx, RTK_WAIT_FOREVER), RTK_OK, "lock a free mutex");
    CHECK_RES(rtk_mutex_lock(&mtx, RTK_NO_WAIT), RTK_OK, "lock it again (recursive)");
    CHECK_RES(rtk_mutex_lock(&mtx, 5), RTK_OK, "lock it a third time (recursive, timed)");
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OK, "unlock 3 of 3");
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OK, "unlock 2 of 3");
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OK, "unlock 1 of 3");
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OWNER, "unlock once more than locked");

    /* Contended: the controller holds it twice; a more urgent thread cannot unlock it,
     * cannot try-lock it, and blocks in lock until the last unlock. */
    for (int i = 0; i < 4; i++)
        w_res[i] = 99;
    CHECK_RES(rtk_mutex_lock(&mtx, RTK_WAIT_FOREVER), RTK_OK, "lock (depth 1)");
    CHECK_RES(rtk_mutex_lock(&mtx, RTK_WAIT_FOREVER), RTK_OK, "lock (depth 2)");
    log_reset();
    spawn(body_mutex_other, 0, HI, 0);
    CHECK_RES(w_res[0], RTK_OWNER, "unlock by a thread that is not the owner");
    CHECK_RES(w_res[1], RTK_UNAVAILABLE, "lock with RTK_NO_WAIT of a mutex held elsewhere");
    ev('a');
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OK, "unlock (depth 2 to 1) with a waiter");
    ev('b');
    CHECK_LOG("nab", "a contended lock blocks while the owner still holds the mutex");
    int r = rtk_mutex_unlock(&mtx);
    unsigned n = ev_n;
    ev('c');
    CHECK_RES(r, RTK_OK, "last unlock with a waiter");
    CHECK_RES(n, 4, "events logged when the last unlock returns (the waiter ran)");
    CHECK_LOG("nabNc", "the waiter takes the mutex at the last unlock and runs at once");
    CHECK_RES(w_res[2], RTK_OK, "the blocked lock's result");
    CHECK_RES(w_res[3], RTK_OK, "the waiter's unlock");
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OWNER, "unlock by the former owner after handing over");
    reap();
    CHECK_RES(rtk_mutex_lock(&mtx, RTK_NO_WAIT), RTK_OK, "the mutex is free again");
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OK, "and unlocks");

    /* A timed lock that runs out. */
    log_reset();
    w_res[0] = 99;
    CHECK_RES(rtk_mutex_lock(&mtx, RTK_WAIT_FOREVER), RTK_OK, "lock for the timed waiter");
    spawn(body_mutex_timed, 0, HI, 0);
    CHECK_LOG("", "a timed lock of a held mutex blocks");
    rtk_sleep(5);
    CHECK_LOG("t", "the timed lock ended while the owner slept");
    CHECK_RES(w_res[0], RTK_TIMEOUT, "rtk_mutex_lock(2) of a mutex held elsewhere");
    CHECK_RANGE(w_tick[0], 1, 3, "rtk_mutex_lock(2) times out after about 2 ticks");
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OK, "unlock after the timed waiter gave up");
    reap();

    /* Priority inheritance: L (20) holds the mutex; H (5) blocks on it, so L runs at H's
     * priority, ahead of the controller (10), until it unlocks. Without inheritance the
     * controller would log 'c' before L's '2'. */
    for (int i = 0; i < 4; i++)
        w_res[i] = 99;
    log_reset();
    rtk_thread_t *low = spawn(body_pi_low, 0, 20, 0);
    rtk_sleep(2); /* L locks and suspends itself */
    CHECK_LOG("1", "the low thread holds the mutex");
    rtk_thread_t *high = spawn(body_pi_high, 0, HI, RTK_START_SUSPENDED);
    CHECK_RES(rtk_thread_resume(low), RTK_OK, "resume the low owner");
    CHECK_RES(rtk_thread_resume(high), RTK_OK, "resume the high thread");
    ev('c');
    CHECK_LOG("1h2Hc", "priority inheritance: the owner runs at its waiter's priority");
    rtk_sleep(3);
    /* With inheritance or without, the unlock hands the mutex to the waiting high thread,
     * which runs at once. */
    CHECK_LOG(ev_n == 6 && ev_log[4] == 'c' ? "1h2Hc3" : "1hc2H3",
              "the low thread's unlock hands the mutex to the high thread at once");
    CHECK_RES(w_res[0], RTK_OK, "the low thread's lock");
    CHECK_RES(w_res[1], RTK_OK, "the low thread's unlock");
    CHECK_RES(w_res[2], RTK_OK, "the high thread's lock");
    CHECK_RES(w_res[3], RTK_OK, "the high thread's unlock");
    reap();
}

/* ---------------------------------------------------------------------------------- */
/* Message queues                                                                     */
/* ---------------------------------------------------------------------------------- */

static void body_receiver(int c)
{
    uint32_t m[4] = {0, 0, 0, 0};
    ev((char)(c | 0x20));
    int r = rtk_queue_receive(&queue, m, RTK_WAIT_FOREVER);
    ev((char)c);
    w_res[c & 3] = r;
    w_tick[c & 3] = m[0];
}

static void body_sender(int id)
{
    uint32_t m[4];
    msg_make(m, (uint32_t)id);
    ev('s');
    w_res[0] = rtk_queue_send(&queue, m, RTK_WAIT_FOREVER);
    ev('S');
}

static void phase_queues(void)
{
    uint32_t m[4], r[4];
    uint32_t t0, dt;

    /* FIFO order, full and empty with RTK_NO_WAIT. */
    for (uint32_t i = 0; i < 4; i++) {
        msg_make(m, i);
        CHECK_RES(rtk_queue_send(&queue, m, RTK_NO_WAIT), RTK_OK, "send to a queue with room");
    }
    msg_make(m, 9);
    CHECK_RES(rtk_queue_send(&queue, m, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "send with RTK_NO_WAIT to a full queue");
    for (uint32_t i = 0; i < 4; i++) {
        memset(r, 0, sizeof(r));
        CHECK_RES(rtk_queue_receive(&queue, r, RTK_NO_WAIT), RTK_OK, "receive from a queue");
        CHECK(msg_is(r, i), "messages come out whole and in FIFO order");
    }
    CHECK_RES(rtk_queue_receive(&queue, r, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "receive with RTK_NO_WAIT from an empty queue");

    /* Around the ring a few times. */
    uint32_t next_in = 100, next_out = 100;
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < 3; i++) {
            msg_make(m, next_in++);
            CHECK_RES(rtk_queue_send(&queue, m, RTK_WAIT_FOREVER), RTK_OK, "send (ring)");
        }
        for (int i = 0; i < 3; i++) {
            CHECK_RES(rtk_queue_receive(&queue, r, RTK_WAIT_FOREVER), RTK_OK, "receive (ring)");
            CHECK(msg_is(r, next_out++), "FIFO order around the ring");
        }
    }

    /* A blocking receive woken by a send. */
    log_reset();
    w_res[2] = 99;
    spawn(body_receiver, 'R', HI, 0); /* 'R' & 3 == 2 */
    CHECK_LOG("r", "a receive from an empty queue blocks");
    ev('a');
    msg_make(m, 42);
    int res = rtk_queue_send(&queue, m, RTK_WAIT_FOREVER);
    unsigned n = ev_n;
    ev('b');
    CHECK_RES(res, RTK_OK, "send to a waiting receiver");
    CHECK_RES(n, 3, "events logged when rtk_queue_send returns (the receiver ran)");
    CHECK_LOG("raRb", "a more urgent receiver woken by send runs at once");
    CHECK_RES(w_res[2], RTK_OK, "the woken receiver's result");
    CHECK_RES(w_tick[2], 42, "the woken receiver got the message sent");
    CHECK_RES(rtk_queue_receive(&queue, r, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "a message handed to a receiver is not also queued");
    reap();

    /* A blocking send woken by a receive: its message goes in behind the others. */
    for (uint32_t i = 0; i < 4; i++) {
        msg_make(m, 200 + i);
        CHECK_RES(rtk_queue_send(&queue, m, RTK_NO_WAIT), RTK_OK, "fill the queue");
    }
    log_reset();
    w_res[0] = 99;
    spawn(body_sender, 300, HI, 0);
    CHECK_LOG("s", "a send to a full queue blocks");
    ev('a');
    res = rtk_queue_receive(&queue, r, RTK_NO_WAIT);
    n = ev_n;
    ev('b');
    CHECK_RES(res, RTK_OK, "receive from a full queue");
    CHECK_RES(n, 3, "events logged when rtk_queue_receive returns (the sender ran)");
    CHECK(msg_is(r, 200), "the oldest message comes out first");
    CHECK_LOG("saSb", "a more urgent sender woken by receive runs at once");
    CHECK_RES(w_res[0], RTK_OK, "the woken sender's result");
    static const uint32_t order[] = {201, 202, 203, 300};
    for (int i = 0; i < 4; i++) {
        memset(r, 0, sizeof(r));
        CHECK_RES(rtk_queue_receive(&queue, r, RTK_NO_WAIT), RTK_OK, "drain after the sender");
        CHECK(msg_is(r, order[i]), "the blocked sender's message comes after the earlier ones");
    }
    CHECK_RES(rtk_queue_receive(&queue, r, RTK_NO_WAIT), RTK_UNAVAILABLE, "the queue is empty");
    reap();

    /* Receivers woken most urgent first: X (3), Y (1), Z (2). */
    log_reset();
    for (int i = 0; i < 4; i++)
        w_res[i] = 99, w_tick[i] = 0;
    spawn(body_receiver, 'X', 3, 0); /* slot 0 */
    spawn(body_receiver, 'Y', 1, 0); /* slot 1 */
    spawn(body_receiver, 'Z', 2, 0); /* slot 2 */
    for (uint32_t i = 0; i < 3; i++) {
        msg_make(m, 50 + i);
        CHECK_RES(rtk_queue_send(&queue, m, RTK_WAIT_FOREVER), RTK_OK, "send to waiting receivers");
    }
    CHECK_LOG("xyzYZX", "queue receivers are woken most urgent first");
    CHECK(w_tick[1] == 50 && w_tick[2] == 51 && w_tick[0] == 52,
          "each woken receiver gets the message sent to it, in order");
    reap();

    /* Timed receive and send that run out. */
    t0 = ticks();
    CHECK_RES(rtk_queue_receive(&queue, r, 2), RTK_TIMEOUT, "receive(2) from an empty queue");
    dt = ticks() - t0;
    CHECK_RANGE(dt, 1, 3, "receive(2) times out after about 2 ticks");
    for (uint32_t i = 0; i < 4; i++) {
        msg_make(m, i);
        rtk_queue_send(&queue, m, RTK_NO_WAIT);
    }
    t0 = ticks();
    CHECK_RES(rtk_queue_send(&queue, m, 2), RTK_TIMEOUT, "send(2) to a full queue");
    dt = ticks() - t0;
    CHECK_RANGE(dt, 1, 3, "send(2) times out after about 2 ticks");
    for (uint32_t i = 0; i < 4; i++) {
        CHECK_RES(rtk_queue_receive(&queue, r, RTK_NO_WAIT), RTK_OK, "drain");
        CHECK(msg_is(r, i), "a timed-out send left the queue as it was");
    }
    CHECK_RES(rtk_queue_receive(&queue, r, RTK_NO_WAIT), RTK_UNAVAILABLE, "the queue is empty");
}

/* ---------------------------------------------------------------------------------- */
/* Memory pools                                                                       */
/* ---------------------------------------------------------------------------------- */

static void body_alloc(int arg)
{
    (void)arg;
    void *b = NULL;
    ev('p');
    w_res[0] = rtk_pool_alloc(&pool, &b, RTK_WAIT_FOREVER);
    ev('P');
    w_ptr = b;
}

static void phase_pools(void)
{
    void *b[POOL_BLOCKS], *x;
    uint8_t *start = (uint8_t *)pool_buf, *end = start + sizeof(pool_buf);
    uint32_t t0, dt;

    for (int i = 0; i < POOL_BLOCKS; i++) {
        b[i] = NULL;
        CHECK_RES(rtk_pool_alloc(&pool, &b[i], RTK_NO_WAIT), RTK_OK, "allocate every block");
        uint8_t *u = b[i];
        CHECK(u >= start && u < end && (uint32_t)(u - start) % POOL_BLOCK_BYTES == 0,
              "a block is one of the pool's");
        for (int j = 0; j < i; j++)
            CHECK(b[j] != b[i], "blocks are distinct");
    }
    for (int i = 0; i < POOL_BLOCKS; i++)
        memset(b[i], 0x10 + i, POOL_BLOCK_BYTES);
    for (int i = 0; i < POOL_BLOCKS; i++) {
        const uint8_t *u = b[i];
        int same = 1;
        for (int k = 0; k < POOL_BLOCK_BYTES; k++)
            same &= u[k] == 0x10 + i;
        CHECK(same, "blocks do not overlap");
    }
    x = NULL;
    CHECK_RES(rtk_pool_alloc(&pool, &x, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "allocate with RTK_NO_WAIT from an empty pool");

    t0 = ticks();
    CHECK_RES(rtk_pool_alloc(&pool, &x, 2), RTK_TIMEOUT, "allocate(2) from an empty pool");
    dt = ticks() - t0;
    CHECK_RANGE(dt, 1, 3, "allocate(2) times out after about 2 ticks");

    CHECK_RES(rtk_pool_free(&pool, NULL), RTK_ARG, "free of NULL");
    CHECK_RES(rtk_pool_free(&pool, (uint8_t *)b[0] + 4), RTK_ARG, "free inside a block");
    CHECK_RES(rtk_pool_free(&pool, end), RTK_ARG, "free of the pool's end");
    CHECK_RES(rtk_pool_free(&pool, (void *)((uintptr_t)start - POOL_BLOCK_BYTES)), RTK_ARG,
              "free before the pool");
    CHECK_RES(rtk_pool_free(&pool, other_buf), RTK_ARG, "free of another buffer");
    CHECK_RES(rtk_pool_alloc(&pool, &x, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "bad frees left the pool empty");

    /* A blocking allocate woken by a free. */
    log_reset();
    w_res[0] = 99;
    w_ptr = NULL;
    spawn(body_alloc, 0, HI, 0);
    CHECK_LOG("p", "allocate from an empty pool blocks");
    ev('a');
    int r = rtk_pool_free(&pool, b[2]);
    unsigned n = ev_n;
    ev('b');
    CHECK_RES(r, RTK_OK, "free with a waiter");
    CHECK_RES(n, 3, "events logged when rtk_pool_free returns (the allocator ran)");
    CHECK_LOG("paPb", "a more urgent allocator woken by free runs at once");
    CHECK_RES(w_res[0], RTK_OK, "the woken allocate's result");
    CHECK(w_ptr == b[2], "the woken allocate gets the block freed");
    CHECK_RES(rtk_pool_alloc(&pool, &x, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "a block handed to a waiter is not also free");
    reap();
    b[2] = w_ptr;

    for (int i = 0; i < POOL_BLOCKS; i++)
        CHECK_RES(rtk_pool_free(&pool, b[i]), RTK_OK, "free every block");
    for (int i = 0; i < POOL_BLOCKS; i++)
        CHECK_RES(rtk_pool_alloc(&pool, &b[i], RTK_NO_WAIT), RTK_OK, "allocate every block again");
    CHECK_RES(rtk_pool_alloc(&pool, &x, RTK_NO_WAIT), RTK_UNAVAILABLE, "and the pool is empty");
    for (int i = 0; i < POOL_BLOCKS; i++)
        CHECK_RES(rtk_pool_free(&pool, b[i]), RTK_OK, "free every block again");
}

/* ---------------------------------------------------------------------------------- */
/* The software interrupt                                                             */
/* ---------------------------------------------------------------------------------- */

enum { SWI_COUNT, SWI_PUT, SWI_RESUME, SWI_SUSPEND, SWI_CALLS, SWI_SEND_FULL };
static volatile int swi_mode;
static volatile uint32_t swi_count;
static volatile int swi_arg_ok = 1;
static volatile int swi_res[12];
static void *volatile swi_block;
static int swi_cookie;

static void swi_handler(void *arg)
{
    uint32_t m[4];
    void *blk;
    if (arg != &swi_cookie)
        swi_arg_ok = 0;
    swi_count++;
    switch (swi_mode) {
    case SWI_PUT:
        swi_res[0] = rtk_sem_put(&sem_swi);
        break;
    case SWI_RESUME:
        swi_res[0] = rtk_thread_resume(target);
        break;
    case SWI_SUSPEND:
        swi_res[0] = rtk_thread_suspend(target);
        break;
    case SWI_CALLS: /* sem_swi, the queue and the pool are empty, the mutex is free */
        swi_res[0] = rtk_sem_get(&sem_swi, RTK_WAIT_FOREVER);
        swi_res[1] = rtk_sem_get(&sem_swi, 3);
        swi_res[2] = rtk_mutex_lock(&mtx, RTK_WAIT_FOREVER);
        swi_res[3] = rtk_mutex_unlock(&mtx);
        swi_res[4] = rtk_queue_receive(&queue, m, RTK_WAIT_FOREVER);
        swi_res[5] = rtk_pool_alloc(&pool, &blk, RTK_WAIT_FOREVER);
        swi_res[6] = rtk_sleep(1);
        swi_res[7] = rtk_thread_create(&spare_thread, entry_nop, NULL, spare_stack,
                                       sizeof(spare_stack), LO, 0);
        swi_res[8] = rtk_sem_put(&sem_swi);
        msg_make(m, 77);
        swi_res[9] = rtk_queue_send(&queue, m, RTK_NO_WAIT);
        swi_res[10] = rtk_pool_free(&pool, swi_block);
        swi_res[11] = rtk_pool_free(&pool, other_buf);
        break;
    case SWI_SEND_FULL:
        msg_make(m, 78);
        swi_res[0] = rtk_queue_send(&queue, m, RTK_WAIT_FOREVER);
        swi_res[1] = rtk_queue_send(&queue, m, RTK_NO_WAIT);
        swi_res[2] = rtk_queue_receive(&queue, m, RTK_NO_WAIT);
        swi_res[3] = msg_is(m, 0);
        msg_make(m, 78);
        swi_res[4] = rtk_queue_send(&queue, m, RTK_NO_WAIT);
        break;
    default:
        break;
    }
}

static void trigger(int mode)
{
    swi_mode = mode;
    rtk_swi_trigger();
    __asm__ volatile("" ::: "memory");
}

/* Raises the interrupt and, in the very next instruction, reads the handler's count. */
static uint32_t trigger_then_read(void)
{
    uint32_t v;
    swi_mode = SWI_COUNT;
    __asm__ volatile("sw %1, 0(%2)\n\t"
                     "lw %0, 0(%3)"
                     : "=&r"(v)
                     : "r"(1u), "r"(WEFT_RV_MSIP), "r"(&swi_count)
                     : "memory");
    return v;
}

static void body_swi_wait(int arg)
{
    (void)arg;
    ev('w');
    w_res[0] = rtk_sem_get(&sem_swi, RTK_WAIT_FOREVER);
    ev('W');
}

static void body_swi_suspend_self(int arg)
{
    (void)arg;
    target = rtk_thread_self();
    ev('x');
    trigger(SWI_SUSPEND);
    ev('y');
}

static void phase_swi(void)
{
    uint32_t m[4];
    void *b[POOL_BLOCKS], *x;

    rtk_swi_attach(swi_handler, &swi_cookie);

    /* The handler runs before the triggering thread's next instruction. */
    for (int i = 0; i < 3; i++) {
        uint32_t before = swi_count;
        uint32_t after = trigger_then_read();
        CHECK_RES(after, before + 1, "the handler ran before the trigger's next instruction");
    }
    CHECK(swi_arg_ok, "the handler gets the argument given to rtk_swi_attach");

    /* The handler puts a semaphore: a more urgent waiter runs at once after it. */
    while (rtk_sem_get(&sem_swi, RTK_NO_WAIT) == RTK_OK) {
    }
    log_reset();
    w_res[0] = 99;
    swi_res[0] = 99;
    spawn(body_swi_wait, 0, HI, 0);
    CHECK_LOG("w", "the waiter blocks");
    ev('a');
    trigger(SWI_PUT);
    unsigned n = ev_n;
    ev('b');
    CHECK_RES(n, 3, "events logged after the trigger (the waiter the handler released ran)");
    CHECK_LOG("waWb", "a waiter released by the handler's put preempts at once");
    CHECK_RES(swi_res[0], RTK_OK, "rtk_sem_put from the handler");
    CHECK_RES(w_res[0], RTK_OK, "the waiter's get");
    reap();

    /* With no waiter, the handler's put counts. */
    swi_res[0] = 99;
    trigger(SWI_PUT);
    CHECK_RES(swi_res[0], RTK_OK, "rtk_sem_put from the handler (no waiter)");
    CHECK_RES(rtk_sem_get(&sem_swi, RTK_NO_WAIT), RTK_OK, "the handler's put was counted");

    /* The handler resumes a more urgent thread: it runs at once. */
    log_reset();
    swi_res[0] = 99;
    target = spawn(body_log, 'U', HI, RTK_START_SUSPENDED);
    ev('a');
    trigger(SWI_RESUME);
    n = ev_n;
    ev('b');
    CHECK_RES(n, 2, "events logged after the trigger (the thread the handler resumed ran)");
    CHECK_LOG("aUb", "a more urgent thread resumed by the handler preempts at once");
    CHECK_RES(swi_res[0], RTK_OK, "rtk_thread_resume from the handler");
    reap();

    /* ... and a less urgent one: it waits. */
    log_reset();
    swi_res[0] = 99;
    target = spawn(body_log, 'V', LO, RTK_START_SUSPENDED);
    ev('a');
    trigger(SWI_RESUME);
    ev('b');
    CHECK_LOG("ab", "a less urgent thread resumed by the handler does not preempt");
    rtk_sleep(2);
    CHECK_LOG("abV", "the less urgent thread resumed by the handler runs later");
    CHECK_RES(swi_res[0], RTK_OK, "rtk_thread_resume from the handler (less urgent)");
    swi_res[0] = 99;
    trigger(SWI_RESUME); /* it ran and ended: not suspended */
    CHECK_RES(swi_res[0], RTK_STATE, "rtk_thread_resume from the handler of a thread that ended");
    reap();

    /* The handler suspends the thread that triggered it: its next instruction waits for
     * a resume. */
    log_reset();
    swi_res[0] = 99;
    rtk_thread_t *t = spawn(body_swi_suspend_self, 0, HI, 0);
    ev('c');
    CHECK_LOG("xc", "a thread suspended by the handler stops before its next instruction");
    CHECK_RES(swi_res[0], RTK_OK, "rtk_thread_suspend from the handler");
    CHECK_RES(rtk_thread_resume(t), RTK_OK, "resume the thread the handler suspended");
    ev('d');
    CHECK_LOG("xcyd", "the thread suspended by the handler runs on when resumed");
    reap();

    /* Calls that would block, and calls not allowed, from the handler: RTK_CONTEXT;
     * those allowed from handlers work. */
    while (rtk_sem_get(&sem_swi, RTK_NO_WAIT) == RTK_OK) {
    }
    for (int i = 0; i < POOL_BLOCKS; i++)
        CHECK_RES(rtk_pool_alloc(&pool, &b[i], RTK_NO_WAIT), RTK_OK, "empty the pool");
    swi_block = b[1];
    for (int i = 0; i < 12; i++)
        swi_res[i] = 99;
    trigger(SWI_CALLS);
    CHECK_RES(swi_res[0], RTK_CONTEXT, "handler: rtk_sem_get(RTK_WAIT_FOREVER) of an empty sem");
    CHECK_RES(swi_res[1], RTK_CONTEXT, "handler: rtk_sem_get(3) of an empty sem");
    CHECK_RES(swi_res[2], RTK_CONTEXT, "handler: rtk_mutex_lock");
    CHECK_RES(swi_res[3], RTK_CONTEXT, "handler: rtk_mutex_unlock");
    CHECK_RES(swi_res[4], RTK_CONTEXT, "handler: rtk_queue_receive(RTK_WAIT_FOREVER), empty");
    CHECK_RES(swi_res[5], RTK_CONTEXT, "handler: rtk_pool_alloc(RTK_WAIT_FOREVER), empty");
    CHECK_RES(swi_res[6], RTK_CONTEXT, "handler: rtk_sleep");
    CHECK_RES(swi_res[7], RTK_CONTEXT, "handler: rtk_thread_create");
    CHECK_RES(swi_res[8], RTK_OK, "handler: rtk_sem_put");
    CHECK_RES(swi_res[9], RTK_OK, "handler: rtk_queue_send(RTK_NO_WAIT)");
    CHECK_RES(swi_res[10], RTK_OK, "handler: rtk_pool_free");
    CHECK_RES(swi_res[11], RTK_ARG, "handler: rtk_pool_free of a bad pointer");
    CHECK_RES(rtk_sem_get(&sem_swi, RTK_NO_WAIT), RTK_OK, "the handler's put counted");
    CHECK_RES(rtk_sem_get(&sem_swi, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "the handler's refused gets took nothing");
    memset(m, 0, sizeof(m));
    CHECK_RES(rtk_queue_receive(&queue, m, RTK_NO_WAIT), RTK_OK, "the handler's message");
    CHECK(msg_is(m, 77), "the handler's message arrives whole");
    CHECK_RES(rtk_queue_receive(&queue, m, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "only the handler's message was queued");
    x = NULL;
    CHECK_RES(rtk_pool_alloc(&pool, &x, RTK_NO_WAIT), RTK_OK, "the block the handler freed");
    CHECK(x == b[1], "the block the handler freed is the one allocated");
    CHECK_RES(rtk_pool_alloc(&pool, &x, RTK_NO_WAIT), RTK_UNAVAILABLE,
              "only the handler's block was freed");
    for (int i = 0; i < POOL_BLOCKS; i++)
        CHECK_RES(rtk_pool_free(&pool, b[i]), RTK_OK, "free every block");
    CHECK_RES(rtk_mutex_lock(&mtx, RTK_NO_WAIT), RTK_OK, "the handler did not take the mutex");
    CHECK_RES(rtk_mutex_unlock(&mtx), RTK_OK, "unlock");
    rtk_sleep(2); /* a wrongly created spare thread would run and end here */

    /* A send to a full queue from the handler. */
    for (uint32_t i = 0; i < 4; i++) {
        msg_make(m, i);
        CHECK_RES(rtk_queue_send(&queue, m, RTK_NO_WAIT), RTK_OK, "fill the queue");
    }
    for (int i = 0; i < 5; i++)
        swi_res[i] = 99;
    trigger(SWI_SEND_FULL);
    CHECK_RES(swi_res[0], RTK_CONTEXT, "handler: rtk_queue_send(RTK_WAIT_FOREVER), full");
    CHECK_RES(swi_res[1], RTK_UNAVAILABLE, "handler: rtk_queue_send(RTK_NO_WAIT), full");
    CHECK_RES(swi_res[2], RTK_OK, "handler: rtk_queue_receive(RTK_NO_WAIT)");
    CHECK_RES(swi_res[3], 1, "handler: the oldest message received");
    CHECK_RES(swi_res[4], RTK_OK, "handler: rtk_queue_send(RTK_NO_WAIT) after a receive");
    static const uint32_t left[] = {1, 2, 3, 78};
    for (uint32_t i = 0; i < 4; i++) {
        CHECK_RES(rtk_queue_receive(&queue, m, RTK_NO_WAIT), RTK_OK, "drain the queue");
        CHECK(msg_is(m, left[i]), "the queue after the handler's sends and receive");
    }
    CHECK_RES(rtk_queue_receive(&queue, m, RTK_NO_WAIT), RTK_UNAVAILABLE, "the queue is empty");

    rtk_swi_attach(NULL, NULL);
}

/* ---------------------------------------------------------------------------------- */
/* Threads that ended give their resources back                                       */
/* ---------------------------------------------------------------------------------- */

static void body_sleep2(int arg)
{
    (void)arg;
    rtk_sleep(2);
}

static void phase_capacity(void)
{
    /* After every phase's threads have ended, the controller and six more run at once. */
    for (int i = 0; i < SLOTS; i++)
        spawn(body_sleep2, 0, LO, 0);
    reap();
    for (int i = 0; i < SLOTS; i++)
        spawn(body_nop, 0, HI, 0);
    reap();
}

/* A thread whose entry returns right after it woke a more urgent thread ends like any
 * other: it must not stay behind in the scheduler and keep less urgent threads out. */
static void body_put_return(int arg)
{
    (void)arg;
    rtk_sleep(1);
    w_res[1] = rtk_sem_put(&sem_bin); /* wakes the controller; then the entry returns */
}

static void phase_ending(void)
{
    w_res[1] = 99;
    spawn(body_put_return, 0, LO, 0);
    CHECK_RES(rtk_sem_get(&sem_bin, 20), RTK_OK, "woken by a less urgent thread's put");
    rtk_sleep(2);
    CHECK_RES(w_res[1], RTK_OK, "the put");
    log_reset();
    spawn(body_log, 'z', 20, 0);
    rtk_sleep(4);
    CHECK_LOG("z", "a thread less urgent than one that ended right after waking the "
                   "controller runs");
    reap();
}

/* The stacks were painted in main: the words never written show each one's headroom. */
static uint32_t untouched_words(const uint32_t *stack, uint32_t words)
{
    uint32_t n = 0;
    while (n < words && stack[n] == STACK_PAINT)
        n++;
    return n;
}

static void phase_stacks(void)
{
    for (int i = 0; i < SLOTS; i++)
        CHECK_RANGE(untouched_words(worker_stacks[i], WORKER_STACK_WORDS) * 4u, 64,
                    sizeof(worker_stacks[i]), "a worker stack's bytes never used");
    CHECK_RANGE(untouched_words(ctrl_stack, sizeof(ctrl_stack) / 4) * 4u, 256, sizeof(ctrl_stack),
                "the controller stack's bytes never used");
}

static void paint(uint32_t *stack, uint32_t words)
{
    for (uint32_t i = 0; i < words; i++)
        stack[i] = STACK_PAINT;
}

/* ---------------------------------------------------------------------------------- */

static const char *base_name(const char *p)
{
    const char *b = p;
    for (; *p; p++)
        if (*p == '/')
            b = p + 1;
    return b;
}

static void report(void)
{
    const char *file = base_name(__FILE__);
    unsigned n = n_failed;
    for (unsigned i = 0; i < n && i < MAX_FAILURES; i++) {
        const struct failure *f = &failures[i];
        printf("FAIL %s:%d: %s", file, f->line, f->what);
        switch (f->kind) {
        case K_RESULT:
            if (f->want <= 0 && f->want >= -7)
                printf(": got %s (%ld), expected %s (%ld)\n", result_name(f->got), f->got,
                       result_name(f->want), f->want);
            else
                printf(": got %ld, expected %ld\n", f->got, f->want);
            break;
        case K_NUMBER:
            printf(": got %ld, expected %ld to %ld\n", f->got, f->lo, f->hi);
            break;
        case K_LOG:
            printf(": events \"%s\", expected \"%s\"\n", f->got_log, f->want_log);
            break;
        default:
            printf("\n");
            break;
        }
    }
    if (n > MAX_FAILURES)
        printf("(%u more failures not recorded)\n", n - MAX_FAILURES);
}

/* RTK_SELFTEST_PHASES: a mask of the phases to run (bit i: the i-th below), to look into
 * one alone; all by default. */
#ifndef RTK_SELFTEST_PHASES
#define RTK_SELFTEST_PHASES 0xFFFFFFFFu
#endif

static void phase(const char *name, void (*fn)(void))
{
    static unsigned index;
    if (!(RTK_SELFTEST_PHASES >> index++ & 1u))
        return;
    unsigned f0 = n_failed, c0 = n_checks;
    fn();
    printf("rtk selftest: %-11s %3u checks, %u failed\n", name, n_checks - c0, n_failed - f0);
}

static void controller(void *arg)
{
    (void)arg;
    printf("rtk selftest: %s port, tick %lu cycles\n", rtk_port(), (unsigned long)RTK_TICK_CYCLES);
    CHECK(rtk_thread_self() == &ctrl_thread, "rtk_thread_self() names the running thread");
    phase("arguments", phase_args);
    phase("priorities", phase_priorities);
    phase("suspend", phase_suspend);
    phase("sleep", phase_sleep);
    phase("semaphores", phase_semaphores);
    phase("mutexes", phase_mutexes);
    phase("queues", phase_queues);
    phase("pools", phase_pools);
    phase("interrupt", phase_swi);
    phase("capacity", phase_capacity);
    phase("ending", phase_ending);
    phase("stacks", phase_stacks);
    report();
    if (n_failed == 0) {
        printf("rtk selftest: %u checks passed\n", n_checks);
        weft_rv_exit(0);
    }
    printf("rtk selftest: %u of %u checks FAILED\n", n_failed, n_checks);
    weft_rv_exit(1);
}

int main(void)
{
    paint(&worker_stacks[0][0], sizeof(worker_stacks) / 4);
    paint(ctrl_stack, sizeof(ctrl_stack) / 4);
    CHECK_RES(rtk_sem_create(&sem_cnt, 2, 3), RTK_OK, "rtk_sem_create (counting)");
    CHECK_RES(rtk_sem_create(&sem_bin, 0, 1), RTK_OK, "rtk_sem_create (binary)");
    CHECK_RES(rtk_sem_create(&sem_swi, 0, 1), RTK_OK, "rtk_sem_create (interrupt's)");
    CHECK_RES(rtk_mutex_create(&mtx), RTK_OK, "rtk_mutex_create");
    CHECK_RES(rtk_queue_create(&queue, queue_buf, 4, 4), RTK_OK, "rtk_queue_create");
    CHECK_RES(rtk_pool_create(&pool, pool_buf, POOL_BLOCK_BYTES, POOL_BLOCKS), RTK_OK,
              "rtk_pool_create");
    CHECK_RES(
        rtk_thread_create(&ctrl_thread, controller, NULL, ctrl_stack, sizeof(ctrl_stack), CTRL, 0),
        RTK_OK, "rtk_thread_create (the controller)");
    if (n_failed) {
        report();
        return 1;
    }
    rtk_start();
}

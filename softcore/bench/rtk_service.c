/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rtk_service.c: the kernel's service times in core cycles (docs/softcore.md), for
 * weft-bench-softcore: each call timed with mcycle around it, or, for a call that
 * switches threads, from before the call to the first instruction of the thread that
 * runs next. Every configuration of ready threads (the measuring pair and 0, 2 or 4
 * ready fillers) and priority gap between the pair (1, 8, 27) is measured; each prints
 *   svc <call> threads <n> gap <g> min <cycles> max <cycles>
 * over RUNS calls (a's first resume starts it at its entry, a path of its own, and is not
 * counted). */
#include <stdio.h>

#include "weft/rtk.h"
#include "weft_rv.h"

#define RUNS 16
#define STACK_WORDS 256

enum { RESUME, SUSPEND, SEM_PUT, SEM_GET, SEND, RECEIVE, ALLOC, FREE, CALLS };
static const char *const names[CALLS] = {"resume_switch", "suspend_switch", "sem_put",
                                         "sem_get",       "queue_send",     "queue_receive",
                                         "pool_alloc",    "pool_free"};

static rtk_thread_t ctl, a, b, fill[4];
static uint32_t ctl_stack[STACK_WORDS], a_stack[STACK_WORDS], b_stack[STACK_WORDS];
static uint32_t fill_stack[4][STACK_WORDS];
static rtk_sem_t sem;
static rtk_queue_t queue;
static uint32_t queue_buf[4 * 4];
static rtk_pool_t pool;
static uint32_t pool_buf[4 * 128 / 4];

static uint32_t lo[CALLS], hi[CALLS];
static volatile uint32_t t_mark;
static volatile int stop;

static void record(int call, uint32_t cycles)
{
    if (cycles < lo[call])
        lo[call] = cycles;
    if (cycles > hi[call])
        hi[call] = cycles;
}

#define TIMED(call, expr)                                                                          \
    do {                                                                                           \
        uint32_t t0_ = weft_rv_cycles();                                                           \
        int r_ = (expr);                                                                           \
        record(call, weft_rv_cycles() - t0_);                                                      \
        if (r_ != RTK_OK) {                                                                        \
            printf("svc: %s failed (%d)\n", names[call], r_);                                      \
            weft_rv_exit(2);                                                                       \
        }                                                                                          \
    } while (0)

/* The more urgent of the pair: resumed by b, it times the calls that do not switch,
 * then suspends itself, which runs b. */
static void thread_a(void *arg)
{
    (void)arg;
    for (int i = 0; i < RUNS; i++) {
        uint32_t now = weft_rv_cycles();
        if (i > 0)
            record(RESUME, now - t_mark); /* the first resume starts a at its entry */
        uint32_t msg[4] = {1, 2, 3, 4};
        void *blk;
        TIMED(SEM_PUT, rtk_sem_put(&sem));
        TIMED(SEM_GET, rtk_sem_get(&sem, RTK_NO_WAIT));
        TIMED(SEND, rtk_queue_send(&queue, msg, RTK_NO_WAIT));
        TIMED(RECEIVE, rtk_queue_receive(&queue, msg, RTK_NO_WAIT));
        TIMED(ALLOC, rtk_pool_alloc(&pool, &blk, RTK_NO_WAIT));
        TIMED(FREE, rtk_pool_free(&pool, blk));
        t_mark = weft_rv_cycles();
        rtk_thread_suspend(&a);
    }
}

static void thread_b(void *arg)
{
    (void)arg;
    for (int i = 0; i < RUNS; i++) {
        t_mark = weft_rv_cycles();
        rtk_thread_resume(&a); /* a runs at once, until it suspends itself */
        record(SUSPEND, weft_rv_cycles() - t_mark);
    }
    rtk_thread_resume(&a); /* a's loop is over: it ends */
}

static void filler(void *arg)
{
    (void)arg;
    while (!stop) {
    }
}

static void controller(void *arg)
{
    (void)arg;
    static const unsigned gaps[] = {1, 8, 27}, fills[] = {0, 2, 4};
    for (unsigned g = 0; g < 3; g++) {
        for (unsigned f = 0; f < 3; f++) {
            for (int c = 0; c < CALLS; c++) {
                lo[c] = 0xffffffffu;
                hi[c] = 0;
            }
            stop = 0;
            for (unsigned k = 0; k < fills[f]; k++)
                rtk_thread_create(&fill[k], filler, NULL, fill_stack[k], sizeof(fill_stack[k]), 30,
                                  0);
            rtk_thread_create(&a, thread_a, NULL, a_stack, sizeof(a_stack), 1, RTK_START_SUSPENDED);
            /* b preempts this thread and runs the pair to its end. */
            rtk_thread_create(&b, thread_b, NULL, b_stack, sizeof(b_stack), 1 + gaps[g], 0);
            stop = 1;
            rtk_sleep(1); /* the fillers run and end */
            for (int c = 0; c < CALLS; c++)
                printf("svc %s threads %u gap %u min %lu max %lu\n", names[c], 2 + fills[f],
                       gaps[g], (unsigned long)lo[c], (unsigned long)hi[c]);
        }
    }
    printf("svc done %s\n", rtk_port());
    weft_rv_exit(0);
}

int main(void)
{
    if (rtk_sem_create(&sem, 0, 1) || rtk_queue_create(&queue, queue_buf, 4, 4) ||
        rtk_pool_create(&pool, pool_buf, 128, 4))
        return 3;
    rtk_thread_create(&ctl, controller, NULL, ctl_stack, sizeof(ctl_stack), 29, 0);
    rtk_start();
}

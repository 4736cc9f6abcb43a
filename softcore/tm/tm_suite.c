/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * tm_suite.c: Weft's Thread-Metric-equivalent suite (docs/softcore.md), written from the
 * suite's public description: eight tests, each counting the work its threads get done
 * while a reporter at the most urgent priority sleeps a fixed number of ticks. The score
 * is that count: the less the RTOS costs, the higher. TM_TEST (0-7) picks the test this
 * image runs; TM_INTERVAL_TICKS is the interval, TM_PERIODS how many intervals it reports
 * (1 unless defined). The report is a console line an interval,
 *   tm <test> <port> score <n> ticks <k> cycles <c>
 * and every call's result is checked: a failure ends the program with a non-zero code.
 * The cooperative test also checks, at the end of every interval, what Thread-Metric's
 * own cooperative test checks: each thread's count is within 1 of the average (five
 * threads of one priority relinquishing in turn must get the same share). */
#include <stdio.h>

#include "tm_api.h"
#include "weft_rv.h"

#ifndef TM_TEST
#define TM_TEST 0
#endif
#ifndef TM_INTERVAL_TICKS
#define TM_INTERVAL_TICKS 3
#endif
#ifndef TM_PERIODS
#define TM_PERIODS 1
#endif

static const char *const names[] = {
    "basic",   "cooperative",     "preemptive", "interrupt", "interrupt_preemption",
    "message", "synchronization", "memory"};

static volatile uint32_t counter[TM_THREADS];

static void must(int r, int where)
{
    if (r != 0) {
        printf("tm %s: call %d failed (%d)\n", names[TM_TEST], where, r);
        weft_rv_exit(10 + (uint32_t)where);
    }
}

static uint32_t total(void)
{
    uint32_t n = 0;
    for (int i = 0; i < TM_THREADS; i++)
        n += counter[i];
    return n;
}

/* The cooperative test's rule: no thread's count more than 1 from the average. */
#define COOP_THREADS 5
static void check_fair(int period)
{
    uint32_t sum = 0, c[COOP_THREADS];
    for (int i = 0; i < COOP_THREADS; i++)
        sum += c[i] = counter[i];
    const uint32_t avg = sum / COOP_THREADS;
    for (int i = 0; i < COOP_THREADS; i++) {
        if (c[i] > avg + 1 || c[i] + 1 < avg) {
            printf("tm cooperative: interval %d: thread %d counted %lu, the average is %lu: "
                   "more than 1 apart\n",
                   period, i, (unsigned long)c[i], (unsigned long)avg);
            weft_rv_exit(3);
        }
    }
}

/* ---- the reporter: thread 7, priority 1 ---- */
static void reporter(void)
{
    tm_thread_sleep_ticks(1); /* start on a tick boundary */
    for (int p = 0; p < TM_PERIODS; p++) {
        uint32_t c0 = weft_rv_cycles(), n0 = total();
        tm_thread_sleep_ticks(TM_INTERVAL_TICKS);
        uint32_t n1 = total(), c1 = weft_rv_cycles();
        printf("tm %s %s score %lu ticks %u cycles %lu\n", names[TM_TEST], tm_port_name(),
               (unsigned long)(n1 - n0), (unsigned)TM_INTERVAL_TICKS, (unsigned long)(c1 - c0));
        if (TM_TEST == 1)
            check_fair(p);
    }
    weft_rv_exit(0);
}

/* ---- 0: basic processing: work with no RTOS call but the tick's ---- */
static volatile uint32_t work[32];
static void basic(void)
{
    for (;;) {
        for (uint32_t i = 0; i < 32; i++)
            work[i] = work[i] * 3u + i;
        for (uint32_t i = 0; i < 32; i++)
            work[i] = work[i] >> 1;
        counter[0]++;
    }
}

/* ---- 1: cooperative scheduling: five threads of one priority take turns ---- */
#define COOP(n)                                                                                    \
    static void coop##n(void)                                                                      \
    {                                                                                              \
        for (;;) {                                                                                 \
            counter[n]++;                                                                          \
            tm_thread_relinquish();                                                                \
        }                                                                                          \
    }
COOP(0)
COOP(1)
COOP(2)
COOP(3)
COOP(4)

/* ---- 2: preemptive scheduling: each resumes the next more urgent one ---- */
static void pre4(void)
{
    for (;;) {
        counter[4]++;
        must(tm_thread_resume(3), 1);
    }
}
#define PRE(n)                                                                                     \
    static void pre##n(void)                                                                       \
    {                                                                                              \
        for (;;) {                                                                                 \
            counter[n]++;                                                                          \
            if (n > 0)                                                                             \
                must(tm_thread_resume(n - 1), 2);                                                  \
            must(tm_thread_suspend(n), 3);                                                         \
        }                                                                                          \
    }
PRE(0)
PRE(1)
PRE(2)
PRE(3)

/* ---- 3: interrupt processing: the handler posts the semaphore the thread takes ---- */
static void irq_post(void)
{
    counter[1]++;
    must(tm_semaphore_put(0), 4);
}
static void irq_thread(void)
{
    for (;;) {
        tm_interrupt_raise();
        must(tm_semaphore_get(0, 1), 5);
        counter[0]++;
    }
}

/* ---- 4: interrupt preemption: the handler resumes a more urgent thread ---- */
static void irq_resume(void)
{
    must(tm_thread_resume(1), 6);
}
static void irqp_low(void)
{
    for (;;) {
        counter[0]++;
        tm_interrupt_raise();
    }
}
static void irqp_high(void)
{
    for (;;) {
        counter[1]++;
        must(tm_thread_suspend(1), 7);
    }
}

/* ---- 5: message processing: a 16-byte message sent and received ---- */
static void message(void)
{
    uint32_t out[4] = {1, 2, 3, 4}, in[4];
    for (;;) {
        must(tm_queue_send(0, out), 8);
        must(tm_queue_receive(0, in), 9);
        if (in[0] != out[0] || in[3] != out[3])
            must(-1, 10);
        out[0]++;
        counter[0]++;
    }
}

/* ---- 6: synchronization processing: a semaphore taken and given ---- */
static void sync_thread(void)
{
    for (;;) {
        must(tm_semaphore_get(0, 0), 11);
        must(tm_semaphore_put(0), 12);
        counter[0]++;
    }
}

/* ---- 7: memory allocation: a 128-byte block allocated and freed ---- */
static void memory(void)
{
    for (;;) {
        uint8_t *b;
        must(tm_memory_pool_allocate(0, &b), 13);
        b[0] = (uint8_t)counter[0];
        must(tm_memory_pool_deallocate(0, b), 14);
        counter[0]++;
    }
}

static void setup(void)
{
    must(tm_thread_create(7, 1, reporter), 20);
    must(tm_thread_resume(7), 21);
    switch (TM_TEST) {
    case 0:
        must(tm_thread_create(0, 10, basic), 22);
        must(tm_thread_resume(0), 23);
        break;
    case 1: {
        void (*const e[5])(void) = {coop0, coop1, coop2, coop3, coop4};
        for (int i = 0; i < 5; i++) {
            must(tm_thread_create(i, 10, e[i]), 24);
            must(tm_thread_resume(i), 25);
        }
        break;
    }
    case 2: {
        void (*const e[5])(void) = {pre0, pre1, pre2, pre3, pre4};
        for (int i = 0; i < 5; i++)
            must(tm_thread_create(i, 5 + i, e[i]), 26);
        must(tm_thread_resume(4), 27);
        break;
    }
    case 3:
        /* For the bench's interrupt latency: where the application's handler starts. */
        printf("tm handler %08lx\n", (unsigned long)(uintptr_t)irq_post);
        must(tm_semaphore_create(0, 0), 28);
        tm_interrupt_attach(irq_post);
        must(tm_thread_create(0, 10, irq_thread), 29);
        must(tm_thread_resume(0), 30);
        break;
    case 4:
        tm_interrupt_attach(irq_resume);
        must(tm_thread_create(0, 10, irqp_low), 31);
        must(tm_thread_create(1, 5, irqp_high), 32);
        must(tm_thread_resume(0), 33);
        break;
    case 5:
        must(tm_queue_create(0), 34);
        must(tm_thread_create(0, 10, message), 35);
        must(tm_thread_resume(0), 36);
        break;
    case 6:
        must(tm_semaphore_create(0, 1), 37);
        must(tm_thread_create(0, 10, sync_thread), 38);
        must(tm_thread_resume(0), 39);
        break;
    default:
        must(tm_memory_pool_create(0), 40);
        must(tm_thread_create(0, 10, memory), 41);
        must(tm_thread_resume(0), 42);
        break;
    }
}

int main(void)
{
    return tm_initialize(setup);
}

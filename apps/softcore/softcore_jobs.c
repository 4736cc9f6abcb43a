/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softcore_jobs.c: the softcore's part of the softcore example (softcore_demo.c,
 * docs/softcore.md "The example"). Three C threads on the softcore's kernel take jobs
 * from the host's message queue (handle 0), which pthreads and a hardware thread take
 * from too; for each they count the Collatz steps of n, write the steps and their worker
 * number to the job's two words of shared memory, and post the host's semaphore
 * (handle 1) that all the workers post, once when they start and once a job. A job with
 * n = 0 ends a thread. Argument 0 is
 * the first thread's worker number. The program ends with 0 once its threads have, or
 * with the number of the first call that failed. */
#include <stdint.h>
#include <stdio.h>

#include "weft/rtk.h"
#include "weft/rtk_osif.h"
#include "weft_rv.h"

#define THREADS 3
#define H_JOBS 0
#define H_DONE 1

static rtk_thread_t threads[THREADS], reporter;
static uint32_t stacks[THREADS][256], reporter_stack[256];
static uint32_t done_jobs[THREADS];
static rtk_sem_t ended;
static volatile int failed;

static void fail(int check)
{
    if (!failed) /* the first that failed */
        failed = check;
}

static void worker(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg;
    uint32_t number = rtk_osif_arg(0) + me;
    if (rtk_osif_sem_post(H_DONE) != 0) /* started */
        fail(3);
    for (;;) {
        uint32_t job[3]; /* id, n, the bus address of its two result words */
        size_t len = 0;
        if (rtk_osif_mq_receive(H_JOBS, job, sizeof job, &len, NULL) != 0 || len != sizeof job) {
            fail(1);
            break;
        }
        if (job[1] == 0)
            break;
        uint32_t result[2] = {0, number};
        for (uint32_t x = job[1]; x > 1; x = (x & 1) ? 3 * x + 1 : x / 2)
            result[0]++;
        if (rtk_dma_write(job[2], result, sizeof result) != RTK_OK ||
            rtk_osif_sem_post(H_DONE) != 0) {
            fail(2);
            break;
        }
        done_jobs[me]++;
    }
    rtk_sem_put(&ended);
}

static void report(void *arg)
{
    (void)arg;
    for (int i = 0; i < THREADS; i++)
        rtk_sem_get(&ended, RTK_WAIT_FOREVER);
    for (int i = 0; i < THREADS; i++)
        printf("softcore thread %d (worker %lu): %lu jobs\n", i,
               (unsigned long)(rtk_osif_arg(0) + (uint32_t)i), (unsigned long)done_jobs[i]);
    weft_rv_exit((uint32_t)failed);
}

int main(void)
{
    if (rtk_osif_init() != RTK_OK || rtk_sem_create(&ended, 0, THREADS) != RTK_OK)
        return 10;
    for (uintptr_t i = 0; i < THREADS; i++)
        if (rtk_thread_create(&threads[i], worker, (void *)i, stacks[i], sizeof stacks[i], 8, 0) !=
            RTK_OK)
            return 11;
    if (rtk_thread_create(&reporter, report, NULL, reporter_stack, sizeof reporter_stack, 4, 0) !=
        RTK_OK)
        return 11;
    printf("softcore: %d threads on the %s port\n", THREADS, rtk_port());
    rtk_start();
}

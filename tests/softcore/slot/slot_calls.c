/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * slot_calls.c: the softcore in a slot making OS calls on the host's objects from several
 * threads at once, and moving memory (tests/e2e/softcore_test.cpp drives it; built for
 * both kernel ports). Handles: 0 a semaphore the host waits on, 1 a mutex, 2 a job
 * queue (POSIX mq of 12-byte jobs {id, n, 0}; n = 0 ends a worker), 3 a mailbox the host
 * reads, 4 a mailbox the host writes, 5 a condition variable. Arguments: 0 the bus
 * address of a results area (a word per job id, then a counter, then a flag), 1 the
 * number of job ids.
 *
 * Each of WORKERS threads takes jobs, writes each job's Collatz steps to its word of
 * the results area (DMA), adds one to the counter under the host's mutex (a DMA read and
 * write, so a lost update would show; the slot holds a host mutex for all its threads,
 * so they take turns at it with a kernel mutex of their own), posts the semaphore, and
 * at its end puts the number of jobs it did into mailbox 3. The controller waits for
 * the workers, then, under the host's mutex, for the host to set the flag and signal
 * the condition, and ends the program with 0, or with the number of the first check
 * that failed. Before rtk_start the calls run without the kernel: a word from mailbox 4
 * is echoed (+1) to mailbox 3, and calls that must fail do. */
#include <stdint.h>
#include <stdio.h>

#include "weft/rtk.h"
#include "weft/rtk_osif.h"
#include "weft_rv.h"

#define WORKERS 5
#define H_DONE 0
#define H_LOCK 1
#define H_JOBS 2
#define H_OUT 3
#define H_IN 4
#define H_COND 5

static uint32_t results_bus, ids;
static rtk_thread_t workers[WORKERS], controller;
static uint32_t worker_stacks[WORKERS][256], controller_stack[256];
static rtk_sem_t ended;
static rtk_mutex_t turns; /* the workers' turns at the host's mutex */
static volatile int failed;

static void fail(int check)
{
    if (!failed)
        failed = check;
}

static uint32_t collatz_steps(uint32_t n)
{
    uint32_t s = 0;
    while (n > 1) {
        n = (n & 1) ? 3 * n + 1 : n / 2;
        s++;
    }
    return s;
}

static void worker(void *arg)
{
    uint32_t done = 0;
    for (;;) {
        uint32_t job[3];
        size_t len = 0;
        if (rtk_osif_mq_receive(H_JOBS, job, sizeof job, &len, NULL) != 0 || len != sizeof job) {
            fail(10);
            break;
        }
        if (job[1] == 0)
            break;
        if (job[0] >= ids) {
            fail(11);
            break;
        }
        uint32_t steps = collatz_steps(job[1]);
        if (rtk_dma_write(results_bus + 4 * job[0], &steps, 4) != RTK_OK)
            fail(12);
        /* The counter, read and written back under the host's mutex. */
        uint32_t count = 0;
        rtk_mutex_lock(&turns, RTK_WAIT_FOREVER);
        if (rtk_osif_mutex_lock(H_LOCK) != 0)
            fail(13);
        rtk_dma_read(&count, results_bus + 4 * ids, 4);
        count++;
        rtk_thread_relinquish(); /* let the others try the mutex meanwhile */
        rtk_dma_write(results_bus + 4 * ids, &count, 4);
        if (rtk_osif_mutex_unlock(H_LOCK) != 0)
            fail(14);
        rtk_mutex_unlock(&turns);
        if (rtk_osif_sem_post(H_DONE) != 0)
            fail(15);
        done++;
    }
    if (rtk_osif_mbox_put(H_OUT, (uint32_t)(uintptr_t)arg << 16 | done) != 0)
        fail(16);
    rtk_sem_put(&ended);
}

static void control(void *arg)
{
    (void)arg;
    for (int i = 0; i < WORKERS; i++)
        rtk_sem_get(&ended, RTK_WAIT_FOREVER);
    uint32_t count = 0, flag = 0;
    rtk_dma_read(&count, results_bus + 4 * ids, 4);
    if (rtk_osif_mutex_lock(H_LOCK) != 0)
        fail(17);
    while (!failed) {
        rtk_dma_read(&flag, results_bus + 4 * (ids + 1), 4);
        if (flag)
            break;
        if (rtk_osif_cond_wait(H_COND, H_LOCK) != 0)
            fail(18);
    }
    if (rtk_osif_mutex_unlock(H_LOCK) != 0)
        fail(19);
    printf("slot_calls (%s): %lu jobs counted, flag %lu, first failed check %d\n", rtk_port(),
           (unsigned long)count, (unsigned long)flag, failed);
    weft_rv_exit(failed);
}

int main(void)
{
    results_bus = rtk_osif_arg(0);
    ids = rtk_osif_arg(1);
    if (rtk_osif_init() != RTK_OK)
        return 1;
    /* Without the kernel yet: each call waits on the spot. */
    uint32_t word = 0;
    if (rtk_osif_mbox_get(H_IN, &word) != 0 || rtk_osif_mbox_put(H_OUT, word + 1) != 0)
        return 2;
    if (rtk_osif_sem_post(99) != WEFT_OSIF_BADHANDLE)
        return 3;
    if (rtk_osif_mbox_put(H_DONE, 1) != WEFT_OSIF_WRONG_TYPE)
        return 4;
    if (rtk_osif_mbox_tryget(H_IN, &word) != WEFT_OSIF_AGAIN)
        return 5;
    /* The longest message the bridge carries goes out whole (the queue's are shorter:
     * the host says so); one byte more is refused before any call. */
    static uint8_t big[RTK_OSIF_MQ_MAX_BYTES + 1];
    if (rtk_osif_mq_send(H_JOBS, big, RTK_OSIF_MQ_MAX_BYTES, 0) != WEFT_OSIF_MSGSIZE ||
        rtk_osif_mq_send(H_JOBS, big, RTK_OSIF_MQ_MAX_BYTES + 1, 0) != RTK_ARG)
        return 10;
    uint32_t long_req[WEFT_RV_OSIF_WORDS + 1] = {
        weft_osif_req_header(WEFT_OSIF_CMD_MBOX_PUT_BURST, H_OUT, WEFT_RV_OSIF_WORDS)};
    if (rtk_osif_call(long_req, NULL, 0) != RTK_ARG)
        return 6;
    uint32_t dummy = 0;
    if (rtk_dma_read(&dummy, results_bus + 2, 4) != RTK_ARG ||
        rtk_dma_read(&dummy, results_bus, 0) != RTK_ARG)
        return 7;
    if (rtk_sem_create(&ended, 0, WORKERS) != RTK_OK || rtk_mutex_create(&turns) != RTK_OK)
        return 8;
    for (uintptr_t i = 0; i < WORKERS; i++)
        if (rtk_thread_create(&workers[i], worker, (void *)i, worker_stacks[i],
                              sizeof worker_stacks[i], 8, 0) != RTK_OK)
            return 9;
    if (rtk_thread_create(&controller, control, NULL, controller_stack, sizeof controller_stack, 4,
                          0) != RTK_OK)
        return 9;
    rtk_start();
}

/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * tm_port_rtk.c: the Thread-Metric-equivalent suite on Weft's kernel (rtk.h), the thin
 * adaptation file the suite's description asks of a port. Priorities map one to one
 * (1 is the most urgent the suite uses); the same file serves both of the kernel's
 * ports. */
#include <stddef.h>

#include "tm_api.h"
#include "weft/rtk.h"

#define STACK_WORDS 256

static rtk_thread_t threads[TM_THREADS];
static uint32_t stacks[TM_THREADS][STACK_WORDS];
static rtk_queue_t queue;
static uint32_t queue_buf[10 * 4];
static rtk_sem_t sem;
static rtk_pool_t pool;
static uint32_t pool_buf[32 * 128 / 4];
static void (*irq_handler)(void);

static void trampoline(void *arg)
{
    ((void (*)(void))arg)();
}

int tm_initialize(void (*setup)(void))
{
    setup();
    rtk_start();
}

int tm_thread_create(int id, int priority, void (*entry)(void))
{
    return rtk_thread_create(&threads[id], trampoline, (void *)entry, stacks[id],
                             sizeof(stacks[id]), (unsigned)priority, RTK_START_SUSPENDED);
}

int tm_thread_resume(int id)
{
    return rtk_thread_resume(&threads[id]);
}

int tm_thread_suspend(int id)
{
    return rtk_thread_suspend(&threads[id]);
}

void tm_thread_relinquish(void)
{
    rtk_thread_relinquish();
}

void tm_thread_sleep_ticks(uint32_t ticks)
{
    rtk_sleep(ticks);
}

int tm_queue_create(int id)
{
    (void)id;
    return rtk_queue_create(&queue, queue_buf, 4, 10);
}

int tm_queue_send(int id, const uint32_t msg[4])
{
    (void)id;
    return rtk_queue_send(&queue, msg, RTK_NO_WAIT);
}

int tm_queue_receive(int id, uint32_t msg[4])
{
    (void)id;
    return rtk_queue_receive(&queue, msg, RTK_NO_WAIT);
}

int tm_semaphore_create(int id, uint32_t initial)
{
    (void)id;
    return rtk_sem_create(&sem, initial, 1);
}

int tm_semaphore_get(int id, int wait)
{
    (void)id;
    return rtk_sem_get(&sem, wait ? RTK_WAIT_FOREVER : RTK_NO_WAIT);
}

int tm_semaphore_put(int id)
{
    (void)id;
    return rtk_sem_put(&sem);
}

int tm_memory_pool_create(int id)
{
    (void)id;
    return rtk_pool_create(&pool, pool_buf, 128, 32);
}

int tm_memory_pool_allocate(int id, uint8_t **block)
{
    (void)id;
    return rtk_pool_alloc(&pool, (void **)block, RTK_NO_WAIT);
}

int tm_memory_pool_deallocate(int id, uint8_t *block)
{
    (void)id;
    return rtk_pool_free(&pool, block);
}

static void irq_trampoline(void *arg)
{
    (void)arg;
    irq_handler();
}

void tm_interrupt_attach(void (*handler)(void))
{
    irq_handler = handler;
    rtk_swi_attach(irq_trampoline, NULL);
}

void tm_interrupt_raise(void)
{
    rtk_swi_trigger();
}

const char *tm_port_name(void)
{
    return rtk_port();
}

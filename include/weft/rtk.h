/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rtk.h: Weft's real-time kernel for the softcore (docs/softcore.md): threads with fixed
 * priorities, suspend and resume, sleep on a periodic tick, relinquish, semaphores,
 * mutexes, message queues, fixed-block memory pools and a software-triggered interrupt.
 * One API, two ports that an application does not see: the single-context port switches
 * threads in software on one register bank; the hardware-context port gives threads
 * their own contexts and lets the hardware scheduler choose. Build with one of them
 * (softcore/rtk/).
 *
 * Priorities run from 0 (most urgent) to RTK_PRIOS - 2; the kernel's idle thread has the
 * last. Within a priority, threads run first come, first served; a thread that becomes
 * ready goes behind those of its priority, and a more urgent one preempts at once.
 * Objects live in the application's memory (no allocation in the kernel). Calls marked
 * "from handlers" may be made by the software interrupt's handler; others may not. */
#ifndef WEFT_RTK_H
#define WEFT_RTK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTK_PRIOS 32u
#define RTK_NO_WAIT 0u
#define RTK_WAIT_FOREVER 0xFFFFFFFFu
/* The tick's period in core cycles unless the program defines it (10 ms at 100 MHz). */
#ifndef RTK_TICK_CYCLES
#define RTK_TICK_CYCLES 1000000u
#endif

/* Results: 0 or a negative code. */
#define RTK_OK 0
#define RTK_TIMEOUT (-1)     /* the wait ran out */
#define RTK_UNAVAILABLE (-2) /* RTK_NO_WAIT and the object was not available */
#define RTK_STATE (-3)       /* the thread or object is not in a state that allows it */
#define RTK_ARG (-4)         /* a bad argument (null, size, priority) */
#define RTK_CONTEXT (-5)     /* not allowed from the software interrupt's handler */
#define RTK_FULL (-6)        /* a semaphore at its maximum */
#define RTK_OWNER (-7)       /* a mutex the caller does not hold */

/* rtk_thread_create flags. */
#define RTK_START_SUSPENDED 1u

typedef void (*rtk_entry_t)(void *arg);
typedef void (*rtk_handler_t)(void *arg);

/* A thread's control block: the application provides the storage; only the kernel
 * reads or writes its fields. */
typedef struct rtk_thread {
    uint32_t *sp;                   /* saved stack pointer (single-context port) */
    struct rtk_thread *next, *prev; /* ready or wait queue */
    struct rtk_thread *dnext;       /* the tick's list of sleepers and timed waits */
    struct rtk_waitq *waitq;        /* the queue it waits in, if it does */
    void *xfer;                     /* a message or block handed over in a wait */
    uint32_t wake;                  /* the tick it wakes at */
    int32_t result;                 /* how its wait ended */
    uint8_t prio, base_prio, state, delayed;
    uint8_t tid, ctx, loaded, pad; /* hardware-context port */
} rtk_thread_t;

typedef struct rtk_waitq {
    rtk_thread_t *head; /* most urgent first, first come first served within a priority */
} rtk_waitq_t;

typedef struct {
    uint32_t count, max;
    rtk_waitq_t waiters;
    uint32_t hw; /* hardware-context port: the sync manager's object */
} rtk_sem_t;

typedef struct {
    rtk_thread_t *owner;
    uint32_t depth;
    rtk_waitq_t waiters;
    uint32_t hw;
} rtk_mutex_t;

typedef struct {
    uint32_t *buf;
    uint32_t msg_words, capacity, count, head;
    rtk_waitq_t senders, receivers;
    uint32_t hw_msgs, hw_slots; /* hardware-context port: semaphores of messages, slots */
} rtk_queue_t;

typedef struct {
    void *free;
    uint32_t block_bytes, blocks, available;
    uint8_t *start, *end;
    rtk_waitq_t waiters;
    uint32_t hw; /* hardware-context port: a semaphore of free blocks */
} rtk_pool_t;

/* ---- threads ---- */
/* A thread running entry(arg) on `stack` (stack_bytes, at least 256, 4-byte aligned)
 * at `prio`; ready, or suspended with RTK_START_SUSPENDED. A thread whose entry returns
 * ends. */
int rtk_thread_create(rtk_thread_t *t, rtk_entry_t entry, void *arg, void *stack,
                      uint32_t stack_bytes, unsigned prio, unsigned flags);
/* Makes a suspended thread ready (RTK_STATE if it is not suspended). From handlers. */
int rtk_thread_resume(rtk_thread_t *t);
/* Suspends a ready or running thread (the caller too) until rtk_thread_resume;
 * RTK_STATE for one that sleeps, waits or is suspended. From handlers. */
int rtk_thread_suspend(rtk_thread_t *t);
/* The caller goes behind the other ready threads of its priority. */
void rtk_thread_relinquish(void);
/* The caller sleeps for `ticks` ticks (at least one tick boundary passes). */
int rtk_sleep(uint32_t ticks);
rtk_thread_t *rtk_thread_self(void);
/* Ticks since rtk_start. */
uint32_t rtk_ticks(void);

/* ---- semaphores: counting up to max (1: binary) ---- */
int rtk_sem_create(rtk_sem_t *s, uint32_t initial, uint32_t max);
int rtk_sem_get(rtk_sem_t *s, uint32_t timeout);
/* From handlers. */
int rtk_sem_put(rtk_sem_t *s);

/* ---- mutexes: owned, recursive, with priority inheritance ---- */
int rtk_mutex_create(rtk_mutex_t *m);
int rtk_mutex_lock(rtk_mutex_t *m, uint32_t timeout);
int rtk_mutex_unlock(rtk_mutex_t *m);

/* ---- message queues: `capacity` messages of msg_words 32-bit words in `buf` ---- */
int rtk_queue_create(rtk_queue_t *q, void *buf, uint32_t msg_words, uint32_t capacity);
/* From handlers with RTK_NO_WAIT. */
int rtk_queue_send(rtk_queue_t *q, const void *msg, uint32_t timeout);
int rtk_queue_receive(rtk_queue_t *q, void *msg, uint32_t timeout);

/* ---- fixed-block memory pools: `blocks` blocks of block_bytes in `buf` ---- */
int rtk_pool_create(rtk_pool_t *p, void *buf, uint32_t block_bytes, uint32_t blocks);
int rtk_pool_alloc(rtk_pool_t *p, void **block, uint32_t timeout);
/* From handlers. */
int rtk_pool_free(rtk_pool_t *p, void *block);

/* ---- the software-triggered interrupt ---- */
/* `handler(arg)` runs, in the kernel's interrupt context, after each trigger. */
void rtk_swi_attach(rtk_handler_t handler, void *arg);
/* Raises it (the machine software interrupt, MSIP): its handler runs before the
 * caller's next instruction unless interrupts are held off. */
static inline void rtk_swi_trigger(void)
{
    *(volatile uint32_t *)0xF0000000u = 1; /* weft_rv.h: WEFT_RV_MSIP */
}

/* Starts the tick and runs the most urgent thread; main's context becomes the kernel's. */
__attribute__((noreturn)) void rtk_start(void);

/* The port's name ("single-context" or "hardware-context"). */
const char *rtk_port(void);

#ifdef __cplusplus
}
#endif

#endif

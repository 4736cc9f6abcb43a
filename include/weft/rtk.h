/**
 * @file rtk.h
 * @brief Weft's real-time kernel for the softcore (docs/softcore.md), for programs built
 *        for the softcore (RISC-V), not for the host.
 *
 * Threads with fixed priorities, suspend and resume, sleep on a periodic tick,
 * relinquish, semaphores, mutexes, message queues, fixed-block memory pools, a
 * software-triggered interrupt and the external interrupt. One API, two ports that an
 * application does not see:
 * the single-context port switches threads in software on one register bank; the
 * hardware-context port gives threads their own contexts and lets the hardware
 * scheduler choose. A program links one of them (softcore/rtk/).
 *
 * Priorities run from 0 (most urgent) to RTK_PRIOS - 2; the kernel's idle thread has the
 * last. Within a priority, threads run first come, first served, as POSIX SCHED_FIFO
 * orders them: a thread that becomes ready or relinquishes goes behind those of its
 * priority, one that is preempted stays before them (it runs again first), and a more
 * urgent one preempts at once: a call that makes one ready (a put, an unlock, a send, a
 * free, a resume) returns after it has run. Counts, capacities and block counts are at
 * most 65,535 (the hardware objects' width).
 * Objects live in the application's memory (no allocation in the kernel). Calls marked
 * "from handlers" may be made by the software interrupt's handler; others may not.
 */
#ifndef WEFT_RTK_H
#define WEFT_RTK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTK_PRIOS 32u                /**< priorities; the last is the idle thread's */
#define RTK_NO_WAIT 0u               /**< a timeout: do not wait */
#define RTK_WAIT_FOREVER 0xFFFFFFFFu /**< a timeout: wait as long as it takes */
#ifndef RTK_TICK_CYCLES
/** The tick's period in core cycles unless the program defines it (10 ms at 100 MHz). */
#define RTK_TICK_CYCLES 1000000u
#endif

#define RTK_OK 0             /**< done */
#define RTK_TIMEOUT (-1)     /**< the wait ran out */
#define RTK_UNAVAILABLE (-2) /**< RTK_NO_WAIT and the object was not available */
#define RTK_STATE (-3)       /**< the thread or object is not in a state that allows it */
#define RTK_ARG (-4)         /**< a bad argument (null, size, priority) */
#define RTK_CONTEXT (-5)     /**< not allowed from the software interrupt's handler */
#define RTK_FULL (-6)        /**< a semaphore at its maximum */
#define RTK_OWNER (-7)       /**< a mutex the caller does not hold */

#define RTK_START_SUSPENDED 1u /**< rtk_thread_create(): the thread starts suspended */

/** A thread's entry. */
typedef void (*rtk_entry_t)(void *arg);
/** An interrupt's handler. */
typedef void (*rtk_handler_t)(void *arg);

struct rtk_waitq;

/** A thread's control block: the application provides the storage; only the kernel
 *  reads or writes its fields. */
typedef struct rtk_thread {
    uint32_t *sp;             /**< its saved registers while it has no core or context */
    struct rtk_thread *next;  /**< the ready or wait queue it is in */
    struct rtk_thread *prev;  /**< the ready queue it is in */
    struct rtk_thread *dnext; /**< the tick's list of sleepers and timed waits */
    struct rtk_waitq *waitq;  /**< the queue it waits in, if it does */
    void *xfer;               /**< a message or block handed over in a wait */
    uint32_t wake;            /**< the tick it wakes at */
    int32_t result;           /**< how its wait ended */
    uint8_t prio;             /**< its priority now (with what it inherits) */
    uint8_t base_prio;        /**< its own priority */
    uint8_t state;            /**< ready, suspended, sleeping, waiting or ended */
    uint8_t delayed;          /**< it is in the tick's list */
    struct rtk_mutex *held;   /**< single-context port: the mutexes it holds */
    uint8_t tid;              /**< hardware-context port: its thread id */
    uint8_t ctx;              /**< hardware-context port: its context (none: 0xff) */
    uint8_t reserved[2];      /**< reserved */
} rtk_thread_t;

/** Threads waiting for an object (single-context port). */
typedef struct rtk_waitq {
    rtk_thread_t *head; /**< most urgent first, first come first served within a priority */
} rtk_waitq_t;

/** A counting semaphore. */
typedef struct {
    uint32_t count;      /**< single-context port: its count */
    uint32_t max;        /**< its maximum (1: binary) */
    rtk_waitq_t waiters; /**< single-context port: who waits */
    uint32_t hw;         /**< hardware-context port: the object's call window */
} rtk_sem_t;

/** A recursive mutex (at most 65,535 deep) with priority inheritance: a holder runs at
 *  least at the priority of the most urgent thread waiting for any mutex it holds. */
typedef struct rtk_mutex {
    rtk_thread_t *owner;         /**< single-context port: who holds it */
    uint32_t depth;              /**< single-context port: how many times */
    rtk_waitq_t waiters;         /**< single-context port: who waits */
    struct rtk_mutex *next_held; /**< single-context port: the owner's other mutexes */
    uint32_t hw;                 /**< hardware-context port: the object's call window */
} rtk_mutex_t;

/** A queue of fixed-size messages. */
typedef struct {
    uint32_t *buf;         /**< capacity messages of msg_words words each */
    uint32_t msg_words;    /**< a message's size in 32-bit words */
    uint32_t capacity;     /**< the messages it holds */
    uint32_t count;        /**< the messages in it */
    uint32_t head;         /**< the oldest message's slot */
    rtk_waitq_t senders;   /**< single-context port: who waits to send */
    rtk_waitq_t receivers; /**< single-context port: who waits to receive */
    uint32_t hw_msgs;      /**< hardware-context port: a semaphore of messages */
    uint32_t hw_slots;     /**< hardware-context port: a semaphore of free slots */
} rtk_queue_t;

/** A pool of fixed-size blocks. */
typedef struct {
    void *free;           /**< the free list, linked through the blocks' first words */
    uint32_t block_bytes; /**< a block's size */
    uint32_t blocks;      /**< the blocks in the pool */
    uint32_t available;   /**< the free blocks */
    uint8_t *start;       /**< the first block */
    uint8_t *end;         /**< past the last block */
    rtk_waitq_t waiters;  /**< single-context port: who waits */
    uint32_t hw;          /**< hardware-context port: a semaphore of free blocks */
} rtk_pool_t;

/** A thread running entry(arg) on `stack` (stack_bytes, at least 256) at `prio`; ready,
 *  or suspended with RTK_START_SUSPENDED. A thread whose entry returns ends. The
 *  hardware-context port gives it a context of its own while there is one free, and
 *  otherwise switches it in software through a context other threads use too; a stack
 *  keeps 128 bytes below its pointer for the registers such a switch saves. At most as
 *  many threads as the OS services have ids, less one. */
int rtk_thread_create(rtk_thread_t *t, rtk_entry_t entry, void *arg, void *stack,
                      uint32_t stack_bytes, unsigned prio, unsigned flags);
/** Makes a suspended thread ready (RTK_STATE if it is not suspended). From handlers. */
int rtk_thread_resume(rtk_thread_t *t);
/** Suspends a ready or running thread (the caller too) until rtk_thread_resume();
 *  RTK_STATE for one that sleeps, waits or is suspended. From handlers. */
int rtk_thread_suspend(rtk_thread_t *t);
/** The caller goes behind the other ready threads of its priority. */
void rtk_thread_relinquish(void);
/** The longest sleep, in ticks. */
#define RTK_MAX_SLEEP 0x7FFFFFFFu
/** The caller sleeps for `ticks` ticks, at most RTK_MAX_SLEEP (at least one tick boundary
 *  passes). */
int rtk_sleep(uint32_t ticks);
/** The calling thread (NULL in the software interrupt's handler, hardware-context port). */
rtk_thread_t *rtk_thread_self(void);
/** Ticks since rtk_start(). */
uint32_t rtk_ticks(void);

/** A semaphore counting up to max (1: binary), starting at `initial`. */
int rtk_sem_create(rtk_sem_t *s, uint32_t initial, uint32_t max);
/** Takes one, waiting at most `timeout` ticks. */
int rtk_sem_get(rtk_sem_t *s, uint32_t timeout);
/** Gives one (RTK_FULL at the maximum). From handlers. */
int rtk_sem_put(rtk_sem_t *s);

/** A recursive mutex. */
int rtk_mutex_create(rtk_mutex_t *m);
/** Takes it (once more if the caller holds it), waiting at most `timeout` ticks. */
int rtk_mutex_lock(rtk_mutex_t *m, uint32_t timeout);
/** Gives it up once (RTK_OWNER if the caller does not hold it). */
int rtk_mutex_unlock(rtk_mutex_t *m);

/** A queue of `capacity` messages of msg_words 32-bit words in `buf`. */
int rtk_queue_create(rtk_queue_t *q, void *buf, uint32_t msg_words, uint32_t capacity);
/** Sends a copy of `msg`, waiting at most `timeout` ticks for room. From handlers with
 *  RTK_NO_WAIT. */
int rtk_queue_send(rtk_queue_t *q, const void *msg, uint32_t timeout);
/** Receives the oldest message into `msg`, waiting at most `timeout` ticks for one. */
int rtk_queue_receive(rtk_queue_t *q, void *msg, uint32_t timeout);

/** A pool of `blocks` blocks of block_bytes (a multiple of 4) in `buf`. */
int rtk_pool_create(rtk_pool_t *p, void *buf, uint32_t block_bytes, uint32_t blocks);
/** A free block into *block, waiting at most `timeout` ticks for one. */
int rtk_pool_alloc(rtk_pool_t *p, void **block, uint32_t timeout);
/** Gives a block back (RTK_ARG for an address that is not one). From handlers. */
int rtk_pool_free(rtk_pool_t *p, void *block);

/** `handler(arg)` runs, in the kernel's interrupt context, after each trigger. */
void rtk_swi_attach(rtk_handler_t handler, void *arg);
/** `handler(arg)` runs, in the kernel's interrupt context, while the external interrupt
 *  (mip.MEIP) is raised, and must lower it: in a slot, the OSIF bridge's DONE, which
 *  weft/rtk_osif.h takes. Before rtk_start() only (RTK_STATE after); NULL leaves the
 *  line masked. */
int rtk_ext_attach(rtk_handler_t handler, void *arg);
/** Enters a critical section: until rtk_crit_exit(), no interrupt handler and no other
 *  thread runs, and the caller stays in its context. Keep it short. Returns what
 *  rtk_crit_exit() restores, so sections nest. From handlers too. */
uint32_t rtk_crit_enter(void);
/** Leaves the critical section rtk_crit_enter() entered with this state. */
void rtk_crit_exit(uint32_t state);
/** Non-zero in a thread once rtk_start() runs them: where a call may wait. 0 in main
 *  before rtk_start() and in interrupt handlers. */
int rtk_may_block(void);
/** Non-zero once rtk_start() has run. */
int rtk_running(void);

/** Raises the software interrupt (MSIP): its handler runs before the caller's next
 *  instruction unless interrupts are held off. */
static inline void rtk_swi_trigger(void)
{
    *(volatile uint32_t *)0xF0000000u = 1; /* weft_rv.h: WEFT_RV_MSIP */
    __asm__ volatile("" ::: "memory");     /* the handler runs here */
}

/** Starts the tick and runs the most urgent thread; main's context becomes the kernel's. */
__attribute__((noreturn)) void rtk_start(void);

/** The port's name: "single-context" or "hardware-context". */
const char *rtk_port(void);

#ifdef __cplusplus
}
#endif

#endif

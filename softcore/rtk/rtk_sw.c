/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rtk_sw.c: the kernel's single-context port (docs/softcore.md): everything in software
 * on one register bank, as a conventional RTOS on a conventional core does it. It is
 * the reference the hardware-context port is measured against, so it is written to be
 * fast: a ready bitmap and one list per priority (the most urgent thread is the head of
 * the list the bitmap's lowest set bit names), the running thread kept at the head of
 * its list, objects that hand a message or a block straight to a waiting thread, and a
 * switch that saves the registers once, on the trap that makes it (rtk_sw_trap.S).
 *
 * A thread that must give the core up (it blocks, or makes a more urgent one ready)
 * raises an environment call; an interrupt does the same work on its way out. Kernel
 * state changes with interrupts off. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rtk_objects.h"
#include "rtk_port.h"
#include "weft/rtk.h"
#include "weft_rv.h"

enum { ST_READY, ST_SUSPENDED, ST_SLEEPING, ST_BLOCKED, ST_ENDED };

rtk_thread_t *rtk_cur;               /* the running thread (rtk_sw_trap.S reads it) */
static rtk_thread_t *rdy[RTK_PRIOS]; /* ready lists, circular, head runs first */
static uint32_t rdy_map;             /* bit p: rdy[p] is not empty */
static rtk_thread_t *sleepers;       /* by wake tick */
static volatile uint32_t ticks;
static uint32_t in_handler;
static rtk_handler_t swi_handler;
static void *swi_arg;
static rtk_handler_t ext_handler;
static void *ext_arg;
static rtk_thread_t idle_thread;
static uint32_t idle_stack[128];

/* ---- interrupts off and on ---- */
static inline uint32_t lock(void)
{
    return csr_swap_clear(mstatus, MSTATUS_MIE);
}
static inline void unlock(uint32_t s)
{
    if (s & MSTATUS_MIE)
        csr_set(mstatus, MSTATUS_MIE);
}

/* ---- ready lists ---- */
static void ready_add(rtk_thread_t *t)
{
    rtk_thread_t **h = &rdy[t->prio];
    if (!*h) {
        t->next = t->prev = t;
        *h = t;
        rdy_map |= 1u << t->prio;
    } else {
        t->prev = (*h)->prev;
        t->next = *h;
        (*h)->prev->next = t;
        (*h)->prev = t;
    }
    t->state = ST_READY;
}

static void ready_remove(rtk_thread_t *t)
{
    rtk_thread_t **h = &rdy[t->prio];
    if (t->next == t) {
        *h = NULL;
        rdy_map &= ~(1u << t->prio);
    } else {
        t->prev->next = t->next;
        t->next->prev = t->prev;
        if (*h == t)
            *h = t->next;
    }
}

static inline rtk_thread_t *most_urgent(void)
{
    return rdy[__builtin_ctz(rdy_map)];
}

/* Called by the trap on its way out: the thread that runs next. */
void rtk_port_schedule(void)
{
    /* A thread a more urgent one preempts stays at the head of its list (POSIX
     * SCHED_FIFO; the hardware-context port's thread manager queues it so too): it runs
     * again before the others of its priority. Only a relinquish sends it to the tail. */
    rtk_cur = most_urgent();
}

/* After a change a thread made: gives the core up if another thread must run. */
static void reschedule(void)
{
    if (rtk_cur && !in_handler && most_urgent() != rtk_cur)
        rtk_port_switch();
}

/* ---- waiting ---- */
static void waitq_add(rtk_waitq_t *q, rtk_thread_t *t)
{
    rtk_thread_t **p = &q->head;
    while (*p && (*p)->prio <= t->prio)
        p = &(*p)->next;
    t->next = *p;
    *p = t;
    t->waitq = q;
}

static void waitq_remove(rtk_thread_t *t)
{
    rtk_thread_t **p = &t->waitq->head;
    while (*p != t)
        p = &(*p)->next;
    *p = t->next;
    t->waitq = NULL;
}

static void sleepers_add(rtk_thread_t *t, uint32_t wake)
{
    rtk_thread_t **p = &sleepers;
    t->wake = wake;
    while (*p && (int32_t)((*p)->wake - wake) <= 0)
        p = &(*p)->dnext;
    t->dnext = *p;
    *p = t;
    t->delayed = 1;
}

static void sleepers_remove(rtk_thread_t *t)
{
    rtk_thread_t **p = &sleepers;
    while (*p != t)
        p = &(*p)->dnext;
    *p = t->dnext;
    t->delayed = 0;
}

/* The caller waits in q (NULL: only sleeps) for at most `timeout` ticks; interrupts
 * are off. Returns how the wait ended. */
static int32_t wait_on(rtk_waitq_t *q, uint32_t timeout, int state)
{
    rtk_thread_t *t = rtk_cur;
    ready_remove(t);
    t->state = (uint8_t)state;
    t->result = RTK_OK;
    if (q)
        waitq_add(q, t);
    if (timeout != RTK_WAIT_FOREVER)
        sleepers_add(t, ticks + timeout);
    rtk_port_switch();
    return t->result;
}

/* Ends t's wait with `result`; t becomes ready. */
static void wake(rtk_thread_t *t, int32_t result)
{
    if (t->waitq)
        waitq_remove(t);
    if (t->delayed)
        sleepers_remove(t);
    t->result = result;
    ready_add(t);
}

/* ---- threads ---- */
static void thread_end(void)
{
    uint32_t s = lock();
    ready_remove(rtk_cur);
    rtk_cur->state = ST_ENDED;
    rtk_port_switch();
    unlock(s);
    for (;;) {
    }
}

static void thread_init(rtk_thread_t *t, rtk_entry_t entry, void *arg, void *stack,
                        uint32_t stack_bytes, unsigned prio)
{
    memset(t, 0, sizeof(*t));
    t->prio = t->base_prio = (uint8_t)prio;
    uintptr_t top = ((uintptr_t)stack + stack_bytes) & ~(uintptr_t)15;
    t->sp = rtk_port_frame((uint32_t *)top, entry, arg, thread_end);
}

uint32_t *rtk_port_frame(uint32_t *top, rtk_entry_t entry, void *arg, void (*end)(void))
{
    uint32_t *f = top - RTK_FRAME_WORDS;
    memset(f, 0, 4 * RTK_FRAME_WORDS);
    f[RTK_FRAME_MEPC] = (uint32_t)(uintptr_t)entry;
    f[RTK_FRAME_MSTATUS] = MSTATUS_MPIE | (3u << 11);
    f[1] = (uint32_t)(uintptr_t)end;
    __asm__ volatile("mv %0, gp" : "=r"(f[3]));
    __asm__ volatile("mv %0, tp" : "=r"(f[4]));
    f[10] = (uint32_t)(uintptr_t)arg;
    return f;
}

int rtk_thread_create(rtk_thread_t *t, rtk_entry_t entry, void *arg, void *stack,
                      uint32_t stack_bytes, unsigned prio, unsigned flags)
{
    if (!t || !entry || !stack || stack_bytes < 256 || prio >= RTK_PRIOS - 1)
        return RTK_ARG;
    if (in_handler)
        return RTK_CONTEXT;
    thread_init(t, entry, arg, stack, stack_bytes, prio);
    uint32_t s = lock();
    if (flags & RTK_START_SUSPENDED) {
        t->state = ST_SUSPENDED;
    } else {
        ready_add(t);
        if (rtk_cur)
            reschedule();
    }
    unlock(s);
    return RTK_OK;
}

int rtk_thread_resume(rtk_thread_t *t)
{
    if (!t)
        return RTK_ARG;
    uint32_t s = lock();
    int r = RTK_STATE;
    if (t->state == ST_SUSPENDED) {
        ready_add(t);
        reschedule();
        r = RTK_OK;
    }
    unlock(s);
    return r;
}

int rtk_thread_suspend(rtk_thread_t *t)
{
    if (!t)
        return RTK_ARG;
    uint32_t s = lock();
    int r = RTK_OK;
    if (t->state == ST_READY) {
        if (t == rtk_cur && !in_handler) {
            wait_on(NULL, RTK_WAIT_FOREVER, ST_SUSPENDED);
        } else {
            ready_remove(t);
            t->state = ST_SUSPENDED;
        }
    } else {
        r = RTK_STATE;
    }
    unlock(s);
    return r;
}

void rtk_thread_relinquish(void)
{
    uint32_t s = lock();
    rtk_thread_t *t = rtk_cur;
    if (t->next != t) {
        rdy[t->prio] = t->next; /* t goes to the tail */
        rtk_port_switch();
    }
    unlock(s);
}

int rtk_sleep(uint32_t t)
{
    if (in_handler)
        return RTK_CONTEXT;
    if (t > RTK_MAX_SLEEP)
        return RTK_ARG;
    uint32_t s = lock();
    if (t == 0)
        t = 1;
    wait_on(NULL, t, ST_SLEEPING);
    unlock(s);
    return RTK_OK;
}

rtk_thread_t *rtk_thread_self(void)
{
    return rtk_cur;
}

uint32_t rtk_ticks(void)
{
    return ticks;
}

/* ---- semaphores ---- */
int rtk_sem_create(rtk_sem_t *sem, uint32_t initial, uint32_t max)
{
    if (!sem || max == 0 || initial > max || max > RTK_MAX_COUNT)
        return RTK_ARG;
    memset(sem, 0, sizeof(*sem));
    sem->count = initial;
    sem->max = max;
    return RTK_OK;
}

int rtk_sem_get(rtk_sem_t *sem, uint32_t timeout)
{
    if (!sem)
        return RTK_ARG;
    uint32_t s = lock();
    int r = RTK_OK;
    if (sem->count) {
        sem->count--;
    } else if (timeout == RTK_NO_WAIT) {
        r = RTK_UNAVAILABLE;
    } else if (in_handler) {
        r = RTK_CONTEXT;
    } else {
        r = wait_on(&sem->waiters, timeout, ST_BLOCKED);
    }
    unlock(s);
    return r;
}

int rtk_sem_put(rtk_sem_t *sem)
{
    if (!sem)
        return RTK_ARG;
    uint32_t s = lock();
    int r = RTK_OK;
    if (sem->waiters.head) {
        wake(sem->waiters.head, RTK_OK);
        reschedule();
    } else if (sem->count < sem->max) {
        sem->count++;
    } else {
        r = RTK_FULL;
    }
    unlock(s);
    return r;
}

/* ---- mutexes ---- */
static void set_prio(rtk_thread_t *t, uint8_t prio)
{
    if (t->prio == prio)
        return;
    if (t->state == ST_READY) {
        int head = rdy[t->prio] == t;
        ready_remove(t);
        t->prio = prio;
        ready_add(t);
        if (head && t == rtk_cur)
            rdy[prio] = t; /* the running thread stays first */
    } else {
        t->prio = prio;
    }
}

int rtk_mutex_create(rtk_mutex_t *m)
{
    if (!m)
        return RTK_ARG;
    memset(m, 0, sizeof(*m));
    return RTK_OK;
}

/* t's priority: its own, or that of the most urgent thread waiting for a mutex it
 * holds (waiters are kept most urgent first). */
static void inherit(rtk_thread_t *t)
{
    uint8_t prio = t->base_prio;
    for (rtk_mutex_t *h = t->held; h; h = h->next_held)
        if (h->waiters.head && h->waiters.head->prio < prio)
            prio = h->waiters.head->prio;
    set_prio(t, prio);
}

static void take(rtk_mutex_t *m, rtk_thread_t *t)
{
    m->owner = t;
    m->depth = 1;
    m->next_held = t->held;
    t->held = m;
}

int rtk_mutex_lock(rtk_mutex_t *m, uint32_t timeout)
{
    if (!m)
        return RTK_ARG;
    if (in_handler)
        return RTK_CONTEXT;
    uint32_t s = lock();
    int r = RTK_OK;
    if (!m->owner) {
        take(m, rtk_cur);
    } else if (m->owner == rtk_cur) {
        if (m->depth == RTK_MAX_COUNT)
            r = RTK_UNAVAILABLE;
        else
            m->depth++;
    } else if (timeout == RTK_NO_WAIT) {
        r = RTK_UNAVAILABLE;
    } else {
        if (rtk_cur->prio < m->owner->prio)
            set_prio(m->owner, rtk_cur->prio);
        r = wait_on(&m->waiters, timeout, ST_BLOCKED);
        if (r != RTK_OK && m->owner) /* timed out: the holder inherits no more from it */
            inherit(m->owner);
    }
    unlock(s);
    return r;
}

int rtk_mutex_unlock(rtk_mutex_t *m)
{
    if (!m)
        return RTK_ARG;
    if (in_handler)
        return RTK_CONTEXT;
    uint32_t s = lock();
    int r = RTK_OK;
    if (m->owner != rtk_cur) {
        r = RTK_OWNER;
    } else if (--m->depth == 0) {
        rtk_mutex_t **p = &rtk_cur->held;
        while (*p != m)
            p = &(*p)->next_held;
        *p = m->next_held;
        rtk_thread_t *t = m->waiters.head;
        m->owner = NULL;
        if (t) {
            wake(t, RTK_OK);
            take(m, t);
            inherit(t); /* the mutex's other waiters now wait for t */
        }
        inherit(rtk_cur); /* what the mutexes it still holds pass on */
        reschedule();
    }
    unlock(s);
    return r;
}

/* ---- message queues ---- */
int rtk_queue_create(rtk_queue_t *q, void *buf, uint32_t msg_words, uint32_t capacity)
{
    return rtk_queue_init(q, buf, msg_words, capacity);
}

int rtk_queue_send(rtk_queue_t *q, const void *msg, uint32_t timeout)
{
    if (!q || !msg)
        return RTK_ARG;
    uint32_t s = lock();
    int r = RTK_OK;
    rtk_thread_t *t = q->receivers.head;
    if (t) {
        rtk_copy_words(t->xfer, msg, q->msg_words);
        wake(t, RTK_OK);
        reschedule();
    } else if (q->count < q->capacity) {
        rtk_ring_put(q, msg);
    } else if (timeout == RTK_NO_WAIT) {
        r = RTK_UNAVAILABLE;
    } else if (in_handler) {
        r = RTK_CONTEXT;
    } else {
        rtk_cur->xfer = (void *)msg;
        r = wait_on(&q->senders, timeout, ST_BLOCKED);
    }
    unlock(s);
    return r;
}

int rtk_queue_receive(rtk_queue_t *q, void *msg, uint32_t timeout)
{
    if (!q || !msg)
        return RTK_ARG;
    uint32_t s = lock();
    int r = RTK_OK;
    if (q->count) {
        rtk_copy_words(msg, q->buf + q->head * q->msg_words, q->msg_words);
        rtk_thread_t *t = q->senders.head;
        if (t) { /* the first waiting sender's message takes the freed slot */
            rtk_copy_words(q->buf + q->head * q->msg_words, t->xfer, q->msg_words);
            if (++q->head == q->capacity)
                q->head = 0;
            wake(t, RTK_OK);
            reschedule();
        } else {
            if (++q->head == q->capacity)
                q->head = 0;
            q->count--;
        }
    } else if (timeout == RTK_NO_WAIT) {
        r = RTK_UNAVAILABLE;
    } else if (in_handler) {
        r = RTK_CONTEXT;
    } else {
        rtk_cur->xfer = msg;
        r = wait_on(&q->receivers, timeout, ST_BLOCKED);
    }
    unlock(s);
    return r;
}

/* ---- memory pools ---- */
int rtk_pool_create(rtk_pool_t *p, void *buf, uint32_t block_bytes, uint32_t blocks)
{
    return rtk_pool_init(p, buf, block_bytes, blocks);
}

int rtk_pool_alloc(rtk_pool_t *p, void **block, uint32_t timeout)
{
    if (!p || !block)
        return RTK_ARG;
    uint32_t s = lock();
    int r = RTK_OK;
    if (p->free) {
        *block = rtk_pool_take(p);
    } else if (timeout == RTK_NO_WAIT) {
        r = RTK_UNAVAILABLE;
    } else if (in_handler) {
        r = RTK_CONTEXT;
    } else {
        r = wait_on(&p->waiters, timeout, ST_BLOCKED);
        if (r == RTK_OK)
            *block = rtk_cur->xfer;
    }
    unlock(s);
    return r;
}

int rtk_pool_free(rtk_pool_t *p, void *b)
{
    if (!rtk_pool_owns(p, b))
        return RTK_ARG;
    uint32_t s = lock();
    rtk_thread_t *t = p->waiters.head;
    if (t) {
        t->xfer = b;
        wake(t, RTK_OK);
        reschedule();
    } else {
        rtk_pool_give(p, b);
    }
    unlock(s);
    return RTK_OK;
}

/* ---- interrupts ---- */
void rtk_swi_attach(rtk_handler_t handler, void *arg)
{
    uint32_t s = lock();
    swi_handler = handler;
    swi_arg = arg;
    unlock(s);
}

/* The same rule on both ports: attached before the kernel runs (the hardware-context
 * port can set context 0's enables only from context 0). */
int rtk_ext_attach(rtk_handler_t handler, void *arg)
{
    if (rtk_cur)
        return RTK_STATE;
    ext_handler = handler;
    ext_arg = arg;
    return RTK_OK;
}

uint32_t rtk_crit_enter(void)
{
    return lock();
}

void rtk_crit_exit(uint32_t state)
{
    unlock(state);
}

int rtk_may_block(void)
{
    return rtk_cur && rtk_cur != &idle_thread && !in_handler;
}

int rtk_running(void)
{
    return rtk_cur != NULL;
}

static void set_timer(uint64_t cmp)
{
    mmio_write(WEFT_RV_MTIMECMP + 4, 0xFFFFFFFFu); /* no early interrupt in between */
    mmio_write(WEFT_RV_MTIMECMP, (uint32_t)cmp);
    mmio_write(WEFT_RV_MTIMECMP + 4, (uint32_t)(cmp >> 32));
}

static void tick(void)
{
    /* The next tick is a period after this one was due: no drift. */
    set_timer((((uint64_t)mmio_read(WEFT_RV_MTIMECMP + 4) << 32) | mmio_read(WEFT_RV_MTIMECMP)) +
              RTK_TICK_CYCLES);
    uint32_t now = ++ticks;
    while (sleepers && (int32_t)(sleepers->wake - now) <= 0) {
        rtk_thread_t *t = sleepers;
        wake(t, t->state == ST_BLOCKED ? RTK_TIMEOUT : RTK_OK);
    }
}

/* The trap's work (rtk_sw_trap.S has saved the registers; `frame` is the interrupted
 * thread's): an environment call asks for a switch; interrupts run the tick or the
 * software interrupt's handler. Anything else is a fault: the program ends. */
void rtk_port_trap(uint32_t cause, uint32_t *frame)
{
    if (cause == (MCAUSE_IRQ | IRQ_M_TIMER)) {
        in_handler = 1;
        tick();
        in_handler = 0;
    } else if (cause == (MCAUSE_IRQ | IRQ_M_SOFT)) {
        mmio_write(WEFT_RV_MSIP, 0);
        in_handler = 1;
        if (swi_handler)
            swi_handler(swi_arg);
        in_handler = 0;
    } else if (cause == (MCAUSE_IRQ | IRQ_M_EXT)) {
        in_handler = 1;
        if (ext_handler)
            ext_handler(ext_arg);
        else
            csr_clear(mie, MIE_MEIE); /* nobody lowers it: mask it */
        in_handler = 0;
    } else if (cause == 11) {
        frame[RTK_FRAME_MEPC] += 4;
    } else {
        weft_rv_fault(cause, frame[RTK_FRAME_MEPC], csr_read(mtval)); /* 128 + the cause */
    }
    rtk_port_schedule();
}

static void idle(void *arg)
{
    (void)arg;
    for (;;)
        __asm__ volatile("wfi");
}

void rtk_start(void)
{
    csr_clear(mstatus, MSTATUS_MIE);
    thread_init(&idle_thread, idle, NULL, idle_stack, sizeof(idle_stack), RTK_PRIOS - 1);
    ready_add(&idle_thread);
    uint32_t hi, lo;
    do { /* MTIME's two words, read consistently */
        hi = mmio_read(WEFT_RV_MTIME + 4);
        lo = mmio_read(WEFT_RV_MTIME);
    } while (hi != mmio_read(WEFT_RV_MTIME + 4));
    set_timer((((uint64_t)hi << 32) | lo) + RTK_TICK_CYCLES);
    csr_write(mie, MIE_MTIE | MIE_MSIE | (ext_handler ? MIE_MEIE : 0));
    rtk_port_schedule();
    rtk_port_first(rtk_cur);
}

const char *rtk_port(void)
{
    return "single-context";
}

/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rtk_hw.c: the kernel's hardware-context port (docs/softcore.md). Each thread has a
 * hardware context of its own and a thread id in the OS services (weft_rv_os): the
 * thread manager keeps the ready queues and decides, and the core runs the decided
 * thread's context, so a switch saves nothing and costs a pipeline bubble. With more
 * threads than contexts, a decided thread that holds none is switched in by context 0,
 * in software: the registers of the thread whose context it takes go to that thread's
 * stack, its own come from there (rtk_hw_load). Semaphores
 * and mutexes are the synchronisation manager's objects; a queue is a ring and two of
 * its semaphores, a pool a free list and one; a sleep arms the thread's tick
 * comparator. Context 0 is the kernel's: after rtk_start it runs the interrupt handlers
 * and those software switches, and otherwise waits for the decision (the idle thread).
 *
 * A kernel call's critical section sets the core's hold bit (no interrupt, no switch);
 * a command that blocks its caller takes effect when the bit clears. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rtk_objects.h"
#include "weft/osif_protocol.h"
#include "weft/rtk.h"
#include "weft_rv.h"

enum { ST_READY, ST_SUSPENDED, ST_SLEEPING, ST_ENDED };

#define MAX_CTX 32
#define MAX_TIDS 32
#ifndef RTK_HW_CONTEXTS
/* The contexts the port uses, context 0 included, unless the program says fewer (the
 * core's own count otherwise): fewer make it switch threads in software sooner. */
#define RTK_HW_CONTEXTS MAX_CTX
#endif
#define NO_CTX 0xffu
static rtk_thread_t *ctx_thread[MAX_CTX];  /* the live thread each context holds */
static rtk_thread_t *tid_thread[MAX_TIDS]; /* each thread id's thread */
static uint32_t num_ctx, num_objs, next_obj, next_victim;
static int started;
/* The interrupts' handlers and arguments (rtk_hw_trap.S calls them). */
static void no_handler(void *arg)
{
    (void)arg;
}
rtk_handler_t rtk_hw_swi_handler = no_handler;
void *rtk_hw_swi_arg;
rtk_handler_t rtk_hw_ext_handler;
void *rtk_hw_ext_arg;

/* rtk_hw_trap.S: the selected context's registers and PC to and from a frame of
 * FRAME_WORDS words (PC in word 0, xn in word n; sp is the frame's end). */
#define FRAME_WORDS 32u
void rtk_hw_ctx_save(uint32_t *frame);
void rtk_hw_ctx_load(const uint32_t *frame);

/* ---- the OS services ---- */
static inline void os_write(enum weft_rv_os_reg r, uint32_t v)
{
    mmio_write(WEFT_RV_OS(r), v);
}
static inline uint32_t os_read(enum weft_rv_os_reg r)
{
    return mmio_read(WEFT_RV_OS(r));
}
/* A thread manager command (the write holds the core until it is answered). */
static inline void tm(uint32_t op, uint32_t tid, uint32_t arg)
{
    os_write(WEFT_OS_TM_CMD, op | tid << WEFT_TM_CMD_TID_SHIFT | arg << WEFT_TM_CMD_ARG_SHIFT);
}

static inline void hold(void)
{
    csr_set(WEFT_CSR_FOLLOW, WEFT_HOLD);
}
static inline void release(void)
{
    csr_clear(WEFT_CSR_FOLLOW, WEFT_HOLD);
}
static inline int in_kernel_context(void)
{
    return csr_read(mhartid) == 0;
}

uint32_t rtk_crit_enter(void)
{
    return csr_swap_set(WEFT_CSR_FOLLOW, WEFT_HOLD) & WEFT_HOLD;
}

void rtk_crit_exit(uint32_t state)
{
    if (!state)
        release();
}

/* The context and what it holds: a thread switched out between the two reads and in
 * again elsewhere read what another thread holds, and its context has changed; it reads
 * again (cheaper than a critical section). */
rtk_thread_t *rtk_thread_self(void)
{
    uint32_t c;
    rtk_thread_t *t;
    do {
        c = csr_read(mhartid);
        __asm__ volatile("" ::: "memory");
        t = ctx_thread[c];
        __asm__ volatile("" ::: "memory");
    } while (csr_read(mhartid) != c);
    return t;
}

uint32_t rtk_ticks(void)
{
    return os_read(WEFT_OS_TICK);
}

/* ---- threads ---- */
static void thread_end(void)
{
    rtk_thread_t *t = rtk_thread_self();
    /* EXIT names the running thread: if an event made another one the decision just
     * before (this thread is then ready), it is refused, and repeated when this thread
     * runs again. Its answer is read under HOLD, before any other command can replace
     * it; the context is given back only once EXIT is done. Created detached: the id is
     * freed. */
    for (;;) {
        hold();
        tm(WEFT_TM_OP_EXIT, t->tid, 0);
        int done = (os_read(WEFT_OS_TM_CMD) & 0xff) == WEFT_OSIF_OK;
        if (done) {
            t->state = ST_ENDED;
            ctx_thread[t->ctx] = NULL;
            tid_thread[t->tid] = NULL;
        }
        release(); /* switched out here */
        while (done) {
        }
    }
}

/* A new thread's first frame, below the top of its stack: it starts at entry(arg),
 * returning into thread_end. A context, when it has one, is loaded from it at once. */
static uint32_t *first_frame(uintptr_t top, rtk_entry_t entry, void *arg)
{
    uint32_t *f = (uint32_t *)top - FRAME_WORDS;
    uint32_t gp, tp;
    __asm__ volatile("mv %0, gp" : "=r"(gp));
    __asm__ volatile("mv %0, tp" : "=r"(tp));
    memset(f, 0, FRAME_WORDS * sizeof(*f));
    f[0] = (uint32_t)(uintptr_t)entry;
    f[1] = (uint32_t)(uintptr_t)thread_end;
    f[3] = gp;
    f[4] = tp;
    f[10] = (uint32_t)(uintptr_t)arg;
    return f;
}

/* Thread t takes context c: its registers and PC from its frame, and OWNER, which binds
 * it to c too. */
static void bind_ctx(uint32_t c, rtk_thread_t *t)
{
    csr_write(WEFT_CSR_SEL, c);
    rtk_hw_ctx_load(t->sp);
    ctx_thread[c] = t;
    t->ctx = (uint8_t)c;
    os_write(WEFT_OS_OWNER, c << 8 | t->tid);
}

/* A context that a decided thread without one may take (context 0 calls it): a free
 * one, else one whose thread does not wait to run (suspended or asleep), else the next
 * in turn. */
static uint32_t victim(void)
{
    for (uint32_t c = 1; c < num_ctx; c++)
        if (!ctx_thread[c])
            return c;
    for (uint32_t c = 1; c < num_ctx; c++)
        if (ctx_thread[c]->state != ST_READY)
            return c;
    next_victim = next_victim + 1 < num_ctx ? next_victim + 1 : 1;
    return next_victim;
}

/* Context 0's software switch, with interrupts off (rtk_hw_trap.S's idle loop calls it
 * when the decision names a thread no context holds): the thread takes a context, whose
 * previous thread's registers go below that thread's stack pointer. Nothing else runs
 * meanwhile, so the kernel's tables need no hold here. */
void rtk_hw_load(void)
{
    uint32_t o = os_read(WEFT_OS_OWNER);
    uint32_t tid = o & 0xffu;
    rtk_thread_t *t = tid < MAX_TIDS ? tid_thread[tid] : NULL;
    if (!(o & WEFT_OS_OWNER_NEED) || !t || t->ctx != NO_CTX)
        return;
    uint32_t c = victim();
    csr_write(WEFT_CSR_SEL, c);
    rtk_thread_t *old = ctx_thread[c];
    if (old) {
        uint32_t *f = (uint32_t *)(uintptr_t)csr_read(WEFT_CSR_REG(2)) - FRAME_WORDS;
        rtk_hw_ctx_save(f);
        old->sp = f;
        old->ctx = NO_CTX;
    }
    bind_ctx(c, t);
}

int rtk_thread_create(rtk_thread_t *t, rtk_entry_t entry, void *arg, void *stack,
                      uint32_t stack_bytes, unsigned prio, unsigned flags)
{
    if (!t || !entry || !stack || stack_bytes < 256 || prio >= RTK_PRIOS - 1)
        return RTK_ARG;
    if (started && in_kernel_context())
        return RTK_CONTEXT;
    if (!num_ctx) {
        num_ctx = csr_read(WEFT_CSR_NCTX);
        if (num_ctx > RTK_HW_CONTEXTS)
            num_ctx = RTK_HW_CONTEXTS;
    }
    if (num_ctx < 2) /* threads need a context besides the kernel's */
        return RTK_STATE;
    hold();
    uint32_t c = 1;
    while (c < num_ctx && ctx_thread[c])
        c++;
    /* Created at the least urgent priority so that it cannot run before its context
     * is set up; then it gets its own. */
    tm(WEFT_TM_OP_CREATE | WEFT_TM_CMD_FLAG, 0, RTK_PRIOS - 1);
    uint32_t r = os_read(WEFT_OS_TM_CMD);
    uint32_t tid = (r >> WEFT_TM_CMD_RTID_SHIFT) & 0xffu;
    if ((r & 0xff) != WEFT_OSIF_OK || tid >= MAX_TIDS) { /* no thread id left */
        release();
        return RTK_STATE;
    }
    memset(t, 0, sizeof(*t));
    t->tid = (uint8_t)tid;
    t->prio = t->base_prio = (uint8_t)prio;
    tid_thread[tid] = t;
    uintptr_t top = ((uintptr_t)stack + stack_bytes) & ~(uintptr_t)15;
    t->sp = first_frame(top, entry, arg);
    if (c < num_ctx) { /* a context of its own */
        bind_ctx(c, t);
    } else { /* bound to context 0, which it never holds: switched in when decided */
        t->ctx = NO_CTX;
        c = 0;
    }
    os_write(WEFT_OS_MAP, WEFT_OS_MAP_BOUND | prio << 16 | c << 8 | t->tid);
    if (flags & RTK_START_SUSPENDED) {
        t->state = ST_SUSPENDED;
        tm(WEFT_TM_OP_WAIT, t->tid, 0);
    }
    tm(WEFT_TM_OP_PRIORITY, t->tid, prio);
    release();
    return RTK_OK;
}

int rtk_thread_resume(rtk_thread_t *t)
{
    if (!t)
        return RTK_ARG;
    int kernel = in_kernel_context(); /* context 0: interrupts off, nothing switches it out */
    int r = RTK_STATE;
    if (!kernel)
        hold();
    if (t->state == ST_SUSPENDED) {
        t->state = ST_READY;
        tm(WEFT_TM_OP_SIGNAL, t->tid, 0);
        r = RTK_OK;
    }
    if (!kernel)
        release();
    return r;
}

int rtk_thread_suspend(rtk_thread_t *t)
{
    if (!t)
        return RTK_ARG;
    int r = RTK_STATE;
    int kernel = in_kernel_context();
    if (!kernel)
        hold();
    /* The caller, or a ready thread out of its queue: the thread manager decides. It
     * refuses (PERM) a thread that still waits for an object or sleeps; one whose sleep
     * is over but has not run yet is ready there. A WAIT that takes a pending resume
     * instead of blocking leaves the thread ready. */
    if (t->state == ST_READY || t->state == ST_SLEEPING) {
        tm(WEFT_TM_OP_WAIT, t->tid, 0);
        uint32_t res = os_read(WEFT_OS_TM_CMD);
        if ((res & 0xff) == WEFT_OSIF_OK) {
            t->state = (res & WEFT_TM_CMD_BLOCKED) ? ST_SUSPENDED : ST_READY;
            r = RTK_OK;
        }
    }
    if (!kernel)
        release(); /* the caller, suspended, gives the core up here */
    return r;
}

void rtk_thread_relinquish(void)
{
    if (!in_kernel_context())
        tm(WEFT_TM_OP_YIELD, 0, 0); /* thread 0: the caller, whichever context it is in */
}

int rtk_sleep(uint32_t ticks)
{
    if (in_kernel_context())
        return RTK_CONTEXT;
    if (ticks > RTK_MAX_SLEEP)
        return RTK_ARG;
    rtk_thread_t *t = rtk_thread_self();
    hold();
    t->state = ST_SLEEPING;
    os_write(WEFT_OS_SLEEP, ticks ? ticks : 1); /* arms the comparator; the thread waits */
    release();
    if (t->state == ST_SLEEPING) /* (a suspend after the wake has made it SUSPENDED, then a
                                    resume READY) */
        t->state = ST_READY;
    return RTK_OK;
}

/* ---- hardware objects ---- */
static int new_object(uint32_t type, uint32_t kind, uint32_t pi, uint32_t count, uint32_t max,
                      uint32_t *obj)
{
    if (!num_objs)
        num_objs = os_read(WEFT_OS_INFO) >> 24;
    hold();
    if (next_obj >= num_objs) {
        release();
        return RTK_STATE;
    }
    uint32_t n = next_obj++;
    *obj = WEFT_RV_OS_OBJ(n); /* the object's call window */
    os_write(WEFT_OS_SYNC_VAL, max << WEFT_SYNC_CFG_MAX_SHIFT | count);
    os_write(WEFT_OS_SYNC_CFG, n | type << WEFT_SYNC_CFG_TYPE_SHIFT |
                                   kind << WEFT_SYNC_CFG_KIND_SHIFT | (pi ? WEFT_SYNC_CFG_PI : 0));
    uint32_t st = os_read(WEFT_OS_SYNC_CFG) & 0xff;
    release();
    return st == WEFT_OSIF_OK ? RTK_OK : RTK_ARG;
}

/* OSIF statuses (OK to OVERFLOW) as the kernel's results. */
static const int8_t results[] = {
    [WEFT_OSIF_OK] = RTK_OK,
    [WEFT_OSIF_NOSYS] = RTK_STATE,
    [WEFT_OSIF_BADHANDLE] = RTK_STATE,
    [WEFT_OSIF_WRONG_TYPE] = RTK_STATE,
    [WEFT_OSIF_BADARGS] = RTK_ARG,
    [WEFT_OSIF_BUSY] = RTK_UNAVAILABLE,
    [WEFT_OSIF_AGAIN] = RTK_UNAVAILABLE,
    [WEFT_OSIF_PERM] = RTK_OWNER,
    [WEFT_OSIF_INTERNAL] = RTK_STATE,
    [WEFT_OSIF_TIMEDOUT] = RTK_TIMEOUT,
    [WEFT_OSIF_CANCELED] = RTK_CONTEXT,
    /* a call that would block, from context 0 */[WEFT_OSIF_MSGSIZE] = RTK_STATE,
    [WEFT_OSIF_BADADDR] = RTK_STATE,
    [WEFT_OSIF_OVERFLOW] = RTK_FULL,
};

static inline int result(uint32_t st)
{
    return st < sizeof(results) ? results[st] : RTK_STATE;
}

/* An untimed call through the call window of the object whose window is `obj`: one
 * load. */
static inline int call(uint32_t op, uint32_t obj)
{
    uint32_t st = mmio_read(obj + 4u * op);
    if (__builtin_expect(st == WEFT_OSIF_OK, 1))
        return RTK_OK;
    if (st == WEFT_OS_CALL_BLOCKED)
        st = os_read(WEFT_OS_SYNC_CALL) & 0xff; /* after the wait */
    return result(st);
}

/* A call that may block (`wait`) or not (`try`). From context 0 the hardware answers a
 * call that would block; a timed call goes through the registers, the timeout first. */
static inline int sync_call(uint32_t obj, uint32_t wait, uint32_t try, uint32_t timeout)
{
    if (__builtin_expect(timeout == RTK_WAIT_FOREVER, 1)) {
        int r = call(wait, obj); /* from context 0 the hardware makes it a try */
        return (r == RTK_UNAVAILABLE && in_kernel_context()) ? RTK_CONTEXT : r;
    }
    if (timeout == RTK_NO_WAIT)
        return call(try, obj);
    if (in_kernel_context()) { /* a timed wait in the handler: only if it need not wait */
        int r = call(try, obj);
        return r == RTK_UNAVAILABLE ? RTK_CONTEXT : r;
    }
    uint64_t us = (uint64_t)timeout * RTK_TICK_CYCLES / 100u; /* 100 cycles a microsecond */
    hold(); /* the timeout register and the call go together */
    os_write(WEFT_OS_SYNC_TMO, us > 0xffffffffu ? 0xffffffffu : (uint32_t)us);
    os_write(WEFT_OS_SYNC_CALL, WEFT_OS_SYNC_TIMED | ((obj >> 6) & 0xff) << 8 | wait);
    release(); /* a call that waits gives the core up here */
    return result(os_read(WEFT_OS_SYNC_CALL) & 0xff);
}

int rtk_sem_create(rtk_sem_t *s, uint32_t initial, uint32_t max)
{
    if (!s || max == 0 || initial > max || max > RTK_MAX_COUNT)
        return RTK_ARG;
    memset(s, 0, sizeof(*s));
    return new_object(WEFT_SYNC_TYPE_SEM, 0, 0, initial, max, &s->hw);
}

int rtk_sem_get(rtk_sem_t *s, uint32_t timeout)
{
    if (!s)
        return RTK_ARG;
    return sync_call(s->hw, WEFT_SYNC_OP_SEM_WAIT, WEFT_SYNC_OP_SEM_TRYWAIT, timeout);
}

int rtk_sem_put(rtk_sem_t *s)
{
    if (!s)
        return RTK_ARG;
    return call(WEFT_SYNC_OP_SEM_POST, s->hw);
}

int rtk_mutex_create(rtk_mutex_t *m)
{
    if (!m)
        return RTK_ARG;
    memset(m, 0, sizeof(*m));
    return new_object(WEFT_SYNC_TYPE_MUTEX, WEFT_SYNC_KIND_RECURSIVE, 1, 0, 0, &m->hw);
}

int rtk_mutex_lock(rtk_mutex_t *m, uint32_t timeout)
{
    if (!m)
        return RTK_ARG;
    if (in_kernel_context())
        return RTK_CONTEXT;
    return sync_call(m->hw, WEFT_SYNC_OP_MUTEX_LOCK, WEFT_SYNC_OP_MUTEX_TRYLOCK, timeout);
}

int rtk_mutex_unlock(rtk_mutex_t *m)
{
    if (!m)
        return RTK_ARG;
    if (in_kernel_context())
        return RTK_CONTEXT;
    return call(WEFT_SYNC_OP_MUTEX_UNLOCK, m->hw);
}

/* ---- message queues: a ring, a semaphore of messages and one of free slots ---- */
int rtk_queue_create(rtk_queue_t *q, void *buf, uint32_t msg_words, uint32_t capacity)
{
    int r = rtk_queue_init(q, buf, msg_words, capacity);
    if (r == RTK_OK)
        r = new_object(WEFT_SYNC_TYPE_SEM, 0, 0, 0, capacity, &q->hw_msgs);
    if (r == RTK_OK)
        r = new_object(WEFT_SYNC_TYPE_SEM, 0, 0, capacity, capacity, &q->hw_slots);
    return r;
}

int rtk_queue_send(rtk_queue_t *q, const void *msg, uint32_t timeout)
{
    if (!q || !msg)
        return RTK_ARG;
    int r = sync_call(q->hw_slots, WEFT_SYNC_OP_SEM_WAIT, WEFT_SYNC_OP_SEM_TRYWAIT, timeout);
    if (r != RTK_OK)
        return r;
    hold();
    rtk_ring_put(q, msg);
    release();
    call(WEFT_SYNC_OP_SEM_POST, q->hw_msgs);
    return RTK_OK;
}

int rtk_queue_receive(rtk_queue_t *q, void *msg, uint32_t timeout)
{
    if (!q || !msg)
        return RTK_ARG;
    int r = sync_call(q->hw_msgs, WEFT_SYNC_OP_SEM_WAIT, WEFT_SYNC_OP_SEM_TRYWAIT, timeout);
    if (r != RTK_OK)
        return r;
    hold();
    rtk_ring_get(q, msg);
    release();
    call(WEFT_SYNC_OP_SEM_POST, q->hw_slots);
    return RTK_OK;
}

/* ---- memory pools: a free list and a semaphore of free blocks ---- */
int rtk_pool_create(rtk_pool_t *p, void *buf, uint32_t block_bytes, uint32_t blocks)
{
    int r = rtk_pool_init(p, buf, block_bytes, blocks);
    return r == RTK_OK ? new_object(WEFT_SYNC_TYPE_SEM, 0, 0, blocks, blocks, &p->hw) : r;
}

int rtk_pool_alloc(rtk_pool_t *p, void **block, uint32_t timeout)
{
    if (!p || !block)
        return RTK_ARG;
    int r = sync_call(p->hw, WEFT_SYNC_OP_SEM_WAIT, WEFT_SYNC_OP_SEM_TRYWAIT, timeout);
    if (r != RTK_OK)
        return r;
    hold();
    *block = rtk_pool_take(p);
    release();
    return RTK_OK;
}

int rtk_pool_free(rtk_pool_t *p, void *b)
{
    if (!rtk_pool_owns(p, b))
        return RTK_ARG;
    hold();
    rtk_pool_give(p, b);
    release();
    call(WEFT_SYNC_OP_SEM_POST, p->hw);
    return RTK_OK;
}

/* ---- interrupts: context 0 ---- */
void rtk_swi_attach(rtk_handler_t handler, void *arg)
{
    hold();
    rtk_hw_swi_handler = handler ? handler : no_handler;
    rtk_hw_swi_arg = arg;
    release();
}

/* Context 0's mie is set by rtk_start, in context 0 (a thread's would not count). */
int rtk_ext_attach(rtk_handler_t handler, void *arg)
{
    if (started)
        return RTK_STATE;
    rtk_hw_ext_handler = handler;
    rtk_hw_ext_arg = arg;
    return RTK_OK;
}

int rtk_may_block(void)
{
    return started && !in_kernel_context();
}

int rtk_running(void)
{
    return started;
}

/* Context 0's exceptions (rtk_hw_trap.S): a fault of the kernel ends the program. */
void rtk_hw_trap(uint32_t cause)
{
    weft_rv_fault(cause, csr_read(mepc), csr_read(mtval));
}

/* A thread's context traps to address 0 (its mtvec), which start.S sends here: a fault
 * in a thread ends the program. */
void weft_rv_context_entry(void)
{
    weft_rv_fault(csr_read(mcause), csr_read(mepc), csr_read(mtval));
}

extern void rtk_hw_vectors(void);
__attribute__((noreturn)) extern void rtk_hw_idle(void);

void rtk_start(void)
{
    csr_clear(mstatus, MSTATUS_MIE);
    csr_write(mtvec, (uint32_t)(uintptr_t)rtk_hw_vectors | 1u); /* vectored */
    os_write(WEFT_OS_TICK, RTK_TICK_CYCLES);
    csr_write(mie, MIE_MSIE | (rtk_hw_ext_handler ? MIE_MEIE : 0));
    started = 1;
    csr_write(WEFT_CSR_FOLLOW, WEFT_FOLLOW_ON);
    rtk_hw_idle(); /* enables interrupts */
}

const char *rtk_port(void)
{
    return "hardware-context";
}

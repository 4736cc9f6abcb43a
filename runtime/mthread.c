/*
 * Managed software threads (docs/hw-services.md, "Managed threads"): pthreads that run one
 * at a time when the static region's thread manager chooses them.
 *
 * Each managed thread has a word `go` that only the dispatcher writes: 1 while the
 * manager's decision is that thread. The dispatcher is apply(): it reads TM_CUR, the
 * decision, and if it changed, clears the old thread's word (and signals it, to stop it
 * where it runs) and sets the new one's (and wakes it; the words are futexes). The
 * interrupt thread (svc.c) calls it when the decision changes; a managed thread calls it
 * after each of its own commands, so a thread that gave the processor up parks at once.
 * Both read TM_CUR under disp_lock, so the decisions are applied in order, each time the
 * newest.
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "weft/mthread.h"
#include "weft_internal.h"

/* A command's answer takes at most 33 fabric cycles; give up after this many reads. */
#define TM_POLL_LIMIT 1000000u

struct weft_mthread {
    weft_t *w;
    unsigned tid;
    pthread_t pt;
    void *(*fn)(void *);
    void *arg;
    void *ret;
    bool no_preempt;
    bool detached;           /* under tm->lock */
    bool join_taken;         /* a join has begun (under tm->lock) */
    bool exited;             /* its EXIT was answered (under tm->lock) */
    bool cancelled;          /* the manager refused it: the pthread ends at once */
    atomic_uint go;          /* 1: the decision is this thread (written by apply() only) */
    struct timespec granted; /* when apply() let it run (under disp_lock) */
    uint64_t wake_ns;        /* from then until it ran (its own) */
};

struct weft_tm {
    unsigned threads, events, timers;
    pthread_mutex_t cmd_lock;  /* one TM_CMD at a time */
    pthread_mutex_t disp_lock; /* apply() */
    pthread_mutex_t lock;      /* the threads' detached, join_taken, exited */
    pthread_cond_t exit_cond;  /* broadcast when a thread's exited turns true */
    weft_mthread_t **table;    /* by id, while the thread is in the manager (disp_lock) */
    unsigned running;          /* the thread apply() let run last (disp_lock) */
    unsigned alive;            /* pthreads made and not yet out of leave() (lock) */
    bool irq_on;               /* TM_CTRL.IRQ_EN is set and the interrupt thread runs */
};

static __thread weft_mthread_t *self;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;

typedef struct {
    uint8_t status;
    bool blocked;
    unsigned tid;
    uint32_t value;
} tm_answer_t;

static void futex_wait(atomic_uint *word, unsigned v)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Sleep until the dispatcher lets t run. Async-signal-safe: the preemption handler
 * calls it. */
static void park(weft_mthread_t *t)
{
    while (atomic_load(&t->go) == 0)
        futex_wait(&t->go, 0);
}

static void on_preempt(int sig)
{
    (void)sig;
    weft_mthread_t *t = self;
    if (!t)
        return;
    int saved = errno;
    park(t);
    errno = saved;
}

static void install_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_preempt;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(WEFT_MTHREAD_PREEMPT_SIGNAL, &sa, NULL);
}

/* Block the preemption signal for a Weft call (a thread must not stop holding the
 * runtime's locks); returns whether it was blocked by this call. */
static bool mask_preempt(void)
{
    sigset_t s, old;
    sigemptyset(&s);
    sigaddset(&s, WEFT_MTHREAD_PREEMPT_SIGNAL);
    pthread_sigmask(SIG_BLOCK, &s, &old);
    return !sigismember(&old, WEFT_MTHREAD_PREEMPT_SIGNAL);
}

static void unmask_preempt(bool was_blocked_here)
{
    if (!was_blocked_here)
        return;
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, WEFT_MTHREAD_PREEMPT_SIGNAL);
    pthread_sigmask(SIG_UNBLOCK, &s, NULL);
}

bool weft_preempt_block(void)
{
    return self ? mask_preempt() : false;
}

void weft_preempt_restore(bool blocked_here)
{
    unmask_preempt(blocked_here);
}

/* Command op on thread tid with arg (a priority or the caller) and flag; value: EXIT's. */
static int tm_cmd(weft_t *w, unsigned op, unsigned tid, unsigned arg, bool flag, uint32_t value,
                  tm_answer_t *a)
{
    struct weft_tm *tm = w->tm;
    const uint32_t word = op | (tid & 0xffu) << WEFT_TM_CMD_TID_SHIFT |
                          (arg & 0xffu) << WEFT_TM_CMD_ARG_SHIFT | (flag ? WEFT_TM_CMD_FLAG : 0);
    uint32_t v = WEFT_TM_CMD_BUSY;
    pthread_mutex_lock(&tm->cmd_lock);
    int rc = op == WEFT_TM_OP_EXIT ? weft_reg_write(w, WEFT_REG_TM_ARG, value) : 0;
    if (rc == 0)
        rc = weft_reg_write(w, WEFT_REG_TM_CMD, word);
    for (unsigned n = 0; rc == 0 && (v & WEFT_TM_CMD_BUSY); n++) {
        if (n == TM_POLL_LIMIT)
            rc = -EIO; /* the manager does not answer */
        else
            rc = weft_reg_read(w, WEFT_REG_TM_CMD, &v);
    }
    a->value = 0;
    if (rc == 0 && (op == WEFT_TM_OP_JOIN || op == WEFT_TM_OP_QUERY))
        rc = weft_reg_read(w, WEFT_REG_TM_RESULT, &a->value);
    pthread_mutex_unlock(&tm->cmd_lock);
    a->status = (uint8_t)v;
    a->blocked = (v & WEFT_TM_CMD_BLOCKED) != 0;
    a->tid = v >> WEFT_TM_CMD_RTID_SHIFT & 0xffu;
    return rc;
}

/* Apply the manager's decision as it is now. seen: when the interrupt was taken (NULL:
 * now). Returns the decision. Caller must not hold disp_lock. */
static unsigned apply(weft_t *w, const struct timespec *seen)
{
    struct weft_tm *tm = w->tm;
    uint32_t v = 0;
    pthread_mutex_lock(&tm->disp_lock);
    if (weft_reg_read(w, WEFT_REG_TM_CUR, &v) != 0) {
        pthread_mutex_unlock(&tm->disp_lock);
        return tm->threads; /* no thread's: callers park until the next decision */
    }
    const unsigned cur = v & 0xffu;
    if (cur != tm->running) {
        weft_mthread_t *old = tm->table[tm->running];
        if (old) {
            atomic_store(&old->go, 0);
            if (!old->no_preempt && old != self)
                pthread_kill(old->pt, WEFT_MTHREAD_PREEMPT_SIGNAL);
        }
        tm->running = cur;
    }
    /* Also when the decision has not changed: the manager can choose a new thread before
     * its creator has put it in the table. */
    weft_mthread_t *next = tm->table[cur];
    if (next && atomic_load(&next->go) == 0) {
        if (seen)
            next->granted = *seen;
        else
            clock_gettime(CLOCK_MONOTONIC, &next->granted);
        atomic_store(&next->go, 1);
        futex_wake(&next->go);
    }
    pthread_mutex_unlock(&tm->disp_lock);
    return cur;
}

/* After a command of managed thread t: run on if it is still the decision, else park
 * until it is again. */
static void settle(weft_t *w, weft_mthread_t *t)
{
    if (apply(w, NULL) == t->tid)
        return;
    park(t);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    pthread_mutex_lock(&w->tm->disp_lock);
    const struct timespec g = t->granted;
    pthread_mutex_unlock(&w->tm->disp_lock);
    t->wake_ns = (uint64_t)((now.tv_sec - g.tv_sec) * 1000000000LL + (now.tv_nsec - g.tv_nsec));
}

void weft_tm_service(weft_t *w)
{
    struct weft_tm *tm = w->tm;
    if (!tm || !tm->irq_on)
        return;
    struct timespec seen;
    clock_gettime(CLOCK_MONOTONIC, &seen);
    uint32_t pend = 0;
    if (weft_reg_read(w, WEFT_REG_TM_PENDING, &pend) != 0 || !(pend & WEFT_TM_PENDING_DECIDED))
        return;
    (void)weft_reg_write(w, WEFT_REG_TM_PENDING, WEFT_TM_PENDING_DECIDED); /* the line drops */
    (void)apply(w, &seen);
}

int weft_tm_probe(weft_t *w)
{
    uint32_t info = 0;
    int rc = weft_reg_read(w, WEFT_REG_TM_INFO, &info);
    /* A register window that does not reach the OS services' window has no manager. */
    if (rc == -EINVAL)
        info = 0;
    else if (rc != 0)
        return rc;
    const unsigned threads = info & 0x1ffu;
    if (threads == 0)
        return 0;
    if (threads < 2 || threads > 256)
        return -EPROTO;
    struct weft_tm *tm = calloc(1, sizeof(*tm));
    if (!tm)
        return -ENOMEM;
    tm->table = calloc(threads, sizeof(*tm->table));
    if (!tm->table) {
        free(tm);
        return -ENOMEM;
    }
    tm->threads = threads;
    tm->events = info >> WEFT_TM_INFO_EVENTS_SHIFT & 0xffu;
    tm->timers = info >> WEFT_TM_INFO_TIMERS_SHIFT & 0xffu;
    pthread_mutex_init(&tm->cmd_lock, NULL);
    pthread_mutex_init(&tm->disp_lock, NULL);
    pthread_mutex_init(&tm->lock, NULL);
    pthread_cond_init(&tm->exit_cond, NULL);
    w->tm = tm;
    /* An earlier runtime's threads, bindings and timers are forgotten. */
    return weft_reg_write(w, WEFT_REG_TM_CTRL, WEFT_TM_CTRL_RESET);
}

void weft_tm_fini(weft_t *w)
{
    struct weft_tm *tm = w->tm;
    if (!tm)
        return;
    /* Threads that have returned may still be leaving the manager; give them a moment.
     * One still running its function keeps what it uses: the manager is not freed. */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 2;
    pthread_mutex_lock(&tm->lock);
    while (tm->alive > 0 &&
           pthread_cond_timedwait(&tm->exit_cond, &tm->lock, &until) != ETIMEDOUT) {
    }
    const unsigned alive = tm->alive;
    pthread_mutex_unlock(&tm->lock);
    (void)weft_reg_write(w, WEFT_REG_TM_CTRL, WEFT_TM_CTRL_RESET); /* timers stop */
    w->tm = NULL;
    if (alive > 0) {
        weft_log(w, "shutdown: %u managed threads still running; their manager state is kept",
                 alive);
        return;
    }
    pthread_cond_destroy(&tm->exit_cond);
    pthread_mutex_destroy(&tm->lock);
    pthread_mutex_destroy(&tm->disp_lock);
    pthread_mutex_destroy(&tm->cmd_lock);
    free(tm->table);
    free(tm);
}

int weft_tm_info(weft_t *w, unsigned *threads, unsigned *events, unsigned *timers)
{
    if (!w)
        return -EINVAL;
    struct weft_tm *tm = w->tm;
    if (threads)
        *threads = tm ? tm->threads : 0;
    if (events)
        *events = tm ? tm->events : 0;
    if (timers)
        *timers = tm ? tm->timers : 0;
    return 0;
}

/* Interrupts on decision changes, and the thread that takes them. */
static int irq_on(weft_t *w)
{
    struct weft_tm *tm = w->tm;
    pthread_mutex_lock(&tm->lock);
    int rc = 0;
    if (!tm->irq_on) {
        rc = weft_svc_start(w);
        if (rc == 0)
            rc = weft_reg_write(w, WEFT_REG_TM_CTRL, WEFT_TM_CTRL_IRQ_EN);
        tm->irq_on = rc == 0;
    }
    pthread_mutex_unlock(&tm->lock);
    return rc;
}

/* t's pthread is done with the manager: shutdown need not wait for it any more. */
static void gone(struct weft_tm *tm)
{
    pthread_mutex_lock(&tm->lock);
    tm->alive--;
    pthread_cond_broadcast(&tm->exit_cond);
    pthread_mutex_unlock(&tm->lock);
}

/* EXIT t, as the running thread (waiting for its turn if it was preempted), and leave
 * the manager. */
static void leave(weft_t *w, weft_mthread_t *t)
{
    struct weft_tm *tm = w->tm;
    tm_answer_t a;
    for (;;) {
        int rc = tm_cmd(w, WEFT_TM_OP_EXIT, t->tid, 0, false, (uint32_t)(uintptr_t)t->ret, &a);
        if (rc != 0 || a.status != WEFT_OSIF_PERM) {
            if (rc != 0 || a.status != WEFT_OSIF_OK)
                weft_log(w, "managed thread %u: EXIT failed (%d, status %u)", t->tid, rc, a.status);
            break;
        }
        settle(w, t); /* preempted before its EXIT: wait for its turn */
    }
    /* A detached thread's id is free from its EXIT on: a new thread may hold it already. */
    pthread_mutex_lock(&tm->disp_lock);
    if (tm->table[t->tid] == t)
        tm->table[t->tid] = NULL;
    pthread_mutex_unlock(&tm->disp_lock);
    (void)apply(w, NULL); /* the next thread runs now */
    pthread_mutex_lock(&tm->lock);
    t->exited = true; /* exit_cond is broadcast by gone() */
    const bool free_it = t->detached;
    pthread_mutex_unlock(&tm->lock);
    gone(tm);
    if (free_it)
        free(t);
}

static void *trampoline(void *arg)
{
    weft_mthread_t *t = arg;
    weft_t *w = t->w;
    self = t;
    park(t); /* its first turn */
    if (t->cancelled) {
        gone(w->tm);
        if (t->detached)
            free(t);
        return NULL;
    }
    unmask_preempt(!t->no_preempt);
    t->ret = t->fn(t->arg);
    (void)mask_preempt();
    self = NULL;
    leave(w, t);
    return NULL;
}

static int status_errno(uint8_t st)
{
    switch (st) {
    case WEFT_OSIF_OK:
        return 0;
    case WEFT_OSIF_BADHANDLE:
        return -ESRCH;
    case WEFT_OSIF_BADARGS:
        return -EINVAL;
    case WEFT_OSIF_AGAIN:
        return -EAGAIN;
    case WEFT_OSIF_PERM:
        return -EPERM;
    default:
        return -EIO;
    }
}

int weft_mthread_create(weft_t *w, weft_mthread_t **out, const weft_mthread_attr_t *attr,
                        void *(*fn)(void *), void *arg)
{
    if (!w || !out || !fn)
        return -EINVAL;
    if (!w->tm)
        return weft_no_service(w, "weft_mthread_create", WEFT_SERVICE_THREADS);
    const weft_mthread_attr_t dflt = {.priority = 0, .detached = false, .cpu = -1};
    if (!attr)
        attr = &dflt;
    if (attr->priority > WEFT_TM_PRIO_MAX)
        return -EINVAL;
    pthread_once(&handler_once, install_handler);
    int rc = irq_on(w);
    if (rc != 0)
        return rc;
    weft_mthread_t *t = calloc(1, sizeof(*t));
    if (!t)
        return -ENOMEM;
    t->w = w;
    t->fn = fn;
    t->arg = arg;
    t->detached = attr->detached;
    t->no_preempt = attr->no_preempt;
    atomic_init(&t->go, 0);

    pthread_attr_t pa;
    pthread_attr_init(&pa);
    pthread_attr_setstacksize(&pa, attr->stack_size ? attr->stack_size : 256 * 1024);
    if (attr->detached)
        pthread_attr_setdetachstate(&pa, PTHREAD_CREATE_DETACHED);
    if (attr->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(attr->cpu, &set);
        pthread_attr_setaffinity_np(&pa, sizeof(set), &set);
    }
    /* The pthread first, parked until its turn: the manager may choose it as soon as it
     * answers. It starts with the signal blocked (the creator's mask). */
    const bool masked = mask_preempt();
    weft_mthread_t *me = self;
    pthread_mutex_lock(&w->tm->lock);
    w->tm->alive++;
    pthread_mutex_unlock(&w->tm->lock);
    if (pthread_create(&t->pt, &pa, trampoline, t) != 0) {
        pthread_mutex_lock(&w->tm->lock);
        w->tm->alive--;
        pthread_mutex_unlock(&w->tm->lock);
        pthread_attr_destroy(&pa);
        unmask_preempt(masked);
        free(t);
        return -EAGAIN;
    }
    pthread_attr_destroy(&pa);
    tm_answer_t a;
    rc = tm_cmd(w, WEFT_TM_OP_CREATE, 0, attr->priority, attr->detached, 0, &a);
    if (rc == 0)
        rc = status_errno(a.status);
    if (rc != 0) {
        /* The manager has no such thread: the pthread ends without running fn. */
        t->cancelled = true;
        atomic_store(&t->go, 1);
        futex_wake(&t->go);
        if (!attr->detached) { /* else it frees itself: t is not touched again here */
            pthread_join(t->pt, NULL);
            free(t);
        }
        unmask_preempt(masked);
        return rc;
    }
    t->tid = a.tid;
    pthread_mutex_lock(&w->tm->disp_lock);
    w->tm->table[t->tid] = t;
    pthread_mutex_unlock(&w->tm->disp_lock);
    *out = t;
    if (me)
        settle(w, me); /* the new thread may be more urgent */
    else
        (void)apply(w, NULL);
    unmask_preempt(masked);
    return 0;
}

/* A managed thread's command on itself or for itself: repeated after its turn when it
 * was preempted before the manager took it (PERM), and followed by its turn when it
 * blocks or yields. */
static int own_cmd(weft_mthread_t *me, unsigned op, unsigned tid, unsigned arg, tm_answer_t *a)
{
    weft_t *w = me->w;
    for (;;) {
        int rc = tm_cmd(w, op, tid, arg, false, 0, a);
        if (rc != 0)
            return rc;
        settle(w, me);
        if (a->status != WEFT_OSIF_PERM)
            return 0;
    }
}

int weft_mthread_join(weft_mthread_t *t, void **ret)
{
    if (!t)
        return -EINVAL;
    weft_mthread_t *me = self;
    if (me == t)
        return -EDEADLK;
    weft_t *w = t->w;
    struct weft_tm *tm = w->tm;
    pthread_mutex_lock(&tm->lock);
    int rc = (t->detached || t->join_taken) ? -EINVAL : 0;
    t->join_taken = true;
    pthread_mutex_unlock(&tm->lock);
    if (rc != 0)
        return rc;
    const bool masked = mask_preempt();
    tm_answer_t a = {0};
    if (me) {
        /* Blocked (JOINING) until t exits, then asked again. */
        do {
            rc = own_cmd(me, WEFT_TM_OP_JOIN, t->tid, me->tid, &a);
        } while (rc == 0 && a.status == WEFT_OSIF_OK && a.blocked);
    } else {
        pthread_mutex_lock(&tm->lock);
        while (!t->exited)
            pthread_cond_wait(&tm->exit_cond, &tm->lock);
        pthread_mutex_unlock(&tm->lock);
        rc = tm_cmd(w, WEFT_TM_OP_JOIN, t->tid, 0, true, 0, &a);
    }
    unmask_preempt(masked);
    if (rc == 0)
        rc = status_errno(a.status);
    if (rc != 0)
        return rc;
    pthread_join(t->pt, NULL);
    if (ret)
        *ret = t->ret;
    free(t);
    return 0;
}

int weft_mthread_detach(weft_mthread_t *t)
{
    if (!t)
        return -EINVAL;
    weft_t *w = t->w;
    struct weft_tm *tm = w->tm;
    pthread_mutex_lock(&tm->lock);
    if (t->detached || t->join_taken) {
        pthread_mutex_unlock(&tm->lock);
        return -EINVAL;
    }
    const unsigned tid = t->tid;
    const pthread_t pt = t->pt;
    /* The manager first: from its answer on, an EXIT frees the id. */
    const bool masked = mask_preempt();
    tm_answer_t a;
    int rc = tm_cmd(w, WEFT_TM_OP_DETACH, tid, 0, false, 0, &a);
    unmask_preempt(masked);
    if (rc == 0)
        rc = status_errno(a.status);
    if (rc != 0) {
        pthread_mutex_unlock(&tm->lock);
        return rc;
    }
    t->detached = true;
    const bool done = t->exited;
    pthread_mutex_unlock(&tm->lock);
    pthread_detach(pt);
    if (done)
        free(t);
    return 0;
}

weft_mthread_t *weft_mthread_self(void)
{
    return self;
}

unsigned weft_mthread_id(const weft_mthread_t *t)
{
    return t ? t->tid : 0;
}

int weft_mthread_yield(void)
{
    weft_mthread_t *me = self;
    if (!me)
        return -EPERM;
    const bool masked = mask_preempt();
    tm_answer_t a;
    int rc = own_cmd(me, WEFT_TM_OP_YIELD, me->tid, 0, &a);
    unmask_preempt(masked);
    return rc != 0 ? rc : status_errno(a.status);
}

int weft_mthread_wait(void)
{
    weft_mthread_t *me = self;
    if (!me)
        return -EPERM;
    const bool masked = mask_preempt();
    tm_answer_t a;
    int rc = own_cmd(me, WEFT_TM_OP_WAIT, me->tid, 0, &a);
    unmask_preempt(masked);
    return rc != 0 ? rc : status_errno(a.status);
}

/* A command on another thread; a managed caller then takes the decision it made. */
static int other_cmd(weft_mthread_t *t, unsigned op, unsigned arg)
{
    if (!t)
        return -EINVAL;
    weft_t *w = t->w;
    weft_mthread_t *me = self;
    const bool masked = mask_preempt();
    tm_answer_t a;
    int rc = me ? own_cmd(me, op, t->tid, arg, &a) : tm_cmd(w, op, t->tid, arg, false, 0, &a);
    if (rc == 0 && !me)
        (void)apply(w, NULL);
    unmask_preempt(masked);
    return rc != 0 ? rc : status_errno(a.status);
}

int weft_mthread_signal(weft_mthread_t *t)
{
    return other_cmd(t, WEFT_TM_OP_SIGNAL, 0);
}

int weft_mthread_setprio(weft_mthread_t *t, unsigned priority)
{
    if (priority > WEFT_TM_PRIO_MAX)
        return -EINVAL;
    return other_cmd(t, WEFT_TM_OP_PRIORITY, priority);
}

int weft_mthread_last_wake(const weft_mthread_t *t, uint64_t *ns)
{
    if (!t || !ns)
        return -EINVAL;
    *ns = t->wake_ns;
    return 0;
}

/* The thread manager's events are there (else the call is refused, naming what is missing). */
static int need_events(weft_t *w, const char *call)
{
    if (!w)
        return -EINVAL;
    if (!w->tm)
        return weft_no_service(w, call, WEFT_SERVICE_THREADS);
    if (w->tm->events == 0)
        return weft_no_service(w, call, WEFT_SERVICE_EVENTS);
    return 0;
}

int weft_tm_bind(weft_t *w, unsigned ev, weft_mthread_t *t)
{
    int rc = need_events(w, "weft_tm_bind");
    if (rc != 0)
        return rc;
    if (ev >= w->tm->events)
        return -EINVAL;
    return weft_reg_write(w, WEFT_REG_TM_BIND(ev), t ? WEFT_TM_BIND_EN | t->tid : 0);
}

int weft_tm_event_slot(weft_t *w, unsigned slot)
{
    int rc = need_events(w, "weft_tm_event_slot");
    if (rc != 0)
        return rc;
    if (slot >= w->num_slots || w->tm->timers + slot >= w->tm->events)
        return -EINVAL;
    return (int)(w->tm->timers + slot);
}

int weft_tm_raise(weft_t *w, unsigned ev)
{
    int rc = need_events(w, "weft_tm_raise");
    if (rc != 0)
        return rc;
    if (ev >= w->tm->events)
        return -EINVAL;
    return weft_reg_write(w, WEFT_REG_TM_RAISE, 1u << ev);
}

int weft_tm_timer_start(weft_t *w, unsigned t, uint32_t period, bool periodic)
{
    int rc = need_events(w, "weft_tm_timer_start");
    if (rc != 0)
        return rc;
    if (t >= w->tm->timers || period == 0)
        return -EINVAL;
    rc = weft_reg_write(w, WEFT_REG_TIMER_PERIOD(t), period);
    if (rc == 0)
        rc = weft_reg_write(w, WEFT_REG_TIMER_CTRL(t),
                            WEFT_TIMER_CTRL_ENABLE | (periodic ? WEFT_TIMER_CTRL_PERIODIC : 0));
    return rc;
}

int weft_tm_timer_stop(weft_t *w, unsigned t, uint32_t *fired)
{
    int rc = need_events(w, "weft_tm_timer_stop");
    if (rc != 0)
        return rc;
    if (t >= w->tm->timers)
        return -EINVAL;
    uint32_t n = 0;
    rc = weft_reg_read(w, WEFT_REG_TIMER_FIRED(t), &n);
    if (rc == 0)
        rc = weft_reg_write(w, WEFT_REG_TIMER_CTRL(t), 0);
    if (rc == 0 && fired)
        *fired = n;
    return rc;
}

int weft_tm_event_delay(weft_t *w, weft_tm_event_delay_t *d)
{
    if (!w || !w->tm || !d)
        return -EINVAL;
    uint32_t v = 0;
    int rc = weft_reg_read(w, WEFT_REG_TM_EV_LAT, &v);
    if (rc != 0)
        return rc;
    d->valid = (v & WEFT_TM_EV_LAT_VALID) != 0;
    d->switched = (v & WEFT_TM_EV_LAT_SWITCHED) != 0;
    d->event = v >> WEFT_TM_EV_LAT_EVENT_SHIFT & 0xffu;
    d->cycles = v & 0xffffu;
    return 0;
}

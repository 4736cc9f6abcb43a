/*
 * Software threads' calls on the synchronisation manager's objects (docs/hw-services.md,
 * "Software threads").
 *
 * A pthread calls through a software context of the manager, which it takes at its first
 * call and keeps until it exits (the manager knows a mutex's holder by its context). A
 * call is a SYNC_CTX_CALL write; the read after it finds the answer when the call did not
 * block (the manager answers a cycle after it takes a call). Otherwise the thread arms its
 * context and sleeps; the manager's answer raises the OS services' interrupt line, and
 * one interrupt thread per runtime reads the answers of the pending contexts and wakes
 * their threads (svc.c). A timed call is timed here, in the caller's clock: when the time passes,
 * the thread sets its context's CANCEL and waits for the answer, which is CANCELED unless
 * the call was served first (a condition wait answers once it holds its mutex again).
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "weft/hwsync.h"
#include "weft/mthread.h"
#include "weft_internal.h"

/* Give the context up: the manager drops any call of it and hands its mutexes on. */
static void ctx_put(weft_swctx_t *c)
{
    weft_t *w = c->w;
    (void)weft_reg_write(w, WEFT_REG_SYNC_SW_FLUSH, 1u << c->index);
    pthread_mutex_lock(&w->swctx_lock);
    c->used = false;
    c->stale = false;
    pthread_mutex_unlock(&w->swctx_lock);
}

/* pthread key destructor: the thread that held the context exits. */
static void ctx_release(void *arg)
{
    ctx_put(arg);
}

/* Hand context i's answer (or -EIO: it could not be read) to its waiting thread. */
static void deliver(weft_t *w, unsigned i, int rc, uint32_t v)
{
    weft_swctx_t *c = &w->swctx[i];
    pthread_mutex_lock(&w->swctx_lock);
    c->status = (uint8_t)v;
    c->io_error = rc != 0;
    c->answered = true;
    weft_mthread_t *mt = c->managed; /* a managed thread that gave the processor up */
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&w->swctx_lock);
    if (mt)
        (void)weft_mthread_signal(mt);
}

/* A managed thread's wait for its answer: it waits in the thread manager (WAIT), so the
 * processor goes to the next ready thread, and the answer SIGNALs it (deliver()). An
 * event bound to the thread that comes meanwhile is taken as a spurious wake. */
static void await_managed(weft_t *w, weft_swctx_t *c, weft_mthread_t *me)
{
    pthread_mutex_lock(&w->swctx_lock);
    while (!c->answered) {
        c->managed = me;
        pthread_mutex_unlock(&w->swctx_lock);
        (void)weft_mthread_wait();
        pthread_mutex_lock(&w->swctx_lock);
        c->managed = NULL;
    }
    pthread_mutex_unlock(&w->swctx_lock);
}

void weft_swctx_service(weft_t *w)
{
    if (w->num_swctx == 0)
        return;
    uint32_t pend = 0;
    if (weft_reg_read(w, WEFT_REG_SYNC_SW_PENDING, &pend) != 0 || pend == 0)
        return;
    (void)weft_reg_write(w, WEFT_REG_SYNC_SW_PENDING, pend); /* disarm: the line drops */
    for (unsigned i = 0; i < w->num_swctx; i++) {
        if (!(pend & 1u << i))
            continue;
        uint32_t v = 0;
        int rrc = weft_reg_read(w, WEFT_REG_SYNC_CTX_CALL(i), &v);
        deliver(w, i, rrc, v);
    }
}

int weft_swctx_probe(weft_t *w, unsigned n)
{
    if (n > WEFT_SYNC_SW_MAX_CONTEXTS || w->num_slots + n > WEFT_SYNC_SW_MAX_CONTEXTS)
        return -EPROTO;
    if (n == 0)
        return 0;
    w->swctx = calloc(n, sizeof(*w->swctx));
    if (!w->swctx)
        return -ENOMEM;
    if (pthread_key_create(&w->swctx_key, ctx_release) != 0) {
        free(w->swctx);
        w->swctx = NULL;
        return -EAGAIN;
    }
    pthread_mutex_init(&w->swctx_lock, NULL);
    pthread_mutex_init(&w->shared_lock, NULL);
    for (unsigned i = 0; i < n; i++) {
        w->swctx[i].w = w;
        w->swctx[i].index = i;
        pthread_cond_init(&w->swctx[i].cond, NULL);
    }
    /* With two or more, context 0 is shared by the non-blocking calls of threads that
     * have none of their own (one at a time), so a post never fails for want of one. */
    if (n >= 2)
        w->swctx[0].used = true;
    w->num_swctx = n;
    /* An earlier runtime's contexts may still be armed, in a call, or hold mutexes. */
    const uint32_t all = n == 32 ? UINT32_MAX : (1u << n) - 1u;
    int rc = weft_reg_write(w, WEFT_REG_SYNC_SW_FLUSH, all);
    if (rc == 0)
        rc = weft_reg_write(w, WEFT_REG_SYNC_SW_PENDING, all);
    for (unsigned i = 0; i < n && rc == 0; i++)
        rc = weft_reg_write(w, WEFT_REG_SYNC_CTX_CTRL(i), 0);
    return rc;
}

void weft_swctx_fini(weft_t *w)
{
    if (w->num_swctx == 0)
        return;
    /* Threads that still hold contexts keep nothing of the runtime from now on, and the
     * mutexes they hold in the fabric are handed on. */
    pthread_key_delete(w->swctx_key);
    (void)weft_reg_write(w, WEFT_REG_SYNC_SW_FLUSH,
                         w->num_swctx == 32 ? UINT32_MAX : (1u << w->num_swctx) - 1u);
    for (unsigned i = 0; i < w->num_swctx; i++)
        pthread_cond_destroy(&w->swctx[i].cond);
    pthread_mutex_destroy(&w->shared_lock);
    pthread_mutex_destroy(&w->swctx_lock);
    free(w->swctx);
    w->swctx = NULL;
    w->num_swctx = 0;
}

/* The calling thread's context, taken now if it has none (take: else NULL and 0). */
static int ctx_get(weft_t *w, bool take, weft_swctx_t **out)
{
    *out = NULL;
    if (w->num_swctx == 0 && w->num_hwobj == 0)
        return weft_no_service(w, "hardware object call", WEFT_SERVICE_SYNC);
    if (w->num_swctx == 0) {
        weft_log(w, "hardware object call: the synchronisation manager has no software contexts "
                    "(its description's services.sync.sw_contexts is 0): only hardware threads "
                    "call its objects");
        return -ENODEV;
    }
    weft_swctx_t *c = pthread_getspecific(w->swctx_key);
    if (c || !take) {
        *out = c;
        return 0;
    }
    pthread_mutex_lock(&w->swctx_lock);
    for (unsigned i = 0; i < w->num_swctx && !c; i++) {
        if (!w->swctx[i].used) {
            c = &w->swctx[i];
            c->used = true;
        }
    }
    pthread_mutex_unlock(&w->swctx_lock);
    if (!c)
        return -ENOSPC;
    c->prio = 0;
    int rc = weft_reg_write(w, WEFT_REG_SYNC_CTX_CTRL(c->index), 0);
    if (rc == 0 && pthread_setspecific(w->swctx_key, c) != 0)
        rc = -ENOMEM;
    if (rc != 0) {
        ctx_put(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* The errno of a manager's answer (the delegate's statuses, docs/osif.md). */
static int status_errno(uint8_t st, bool timed_out)
{
    switch (st) {
    case WEFT_OSIF_OK:
        return 0;
    case WEFT_OSIF_AGAIN:
        return -EAGAIN; /* a semaphore trywait; a recursive mutex locked 65535 times */
    case WEFT_OSIF_BUSY:
        return -EBUSY;
    case WEFT_OSIF_PERM:
        return -EPERM;
    case WEFT_OSIF_INTERNAL:
        return -EDEADLK; /* a non-recursive mutex locked again by its holder */
    case WEFT_OSIF_OVERFLOW:
        return -EOVERFLOW;
    case WEFT_OSIF_TIMEDOUT:
        return -ETIMEDOUT;
    case WEFT_OSIF_CANCELED:
        return timed_out ? -ETIMEDOUT : -ECANCELED;
    case WEFT_OSIF_NOSYS:
        return -ENOSYS;
    default:
        return -EINVAL; /* BADHANDLE, WRONG_TYPE, BADARGS: not a live object of its kind */
    }
}

static bool valid_time(const struct timespec *t)
{
    return t->tv_nsec >= 0 && t->tv_nsec < 1000000000L;
}

/* Wait for context c's answer: arm it and sleep until the interrupt thread hands the
 * answer over. Until abstime (CLOCK_REALTIME) if it is not NULL, then CANCEL and wait on
 * (*cancelled set). */
static int await_answer(weft_t *w, weft_swctx_t *c, const struct timespec *abstime, bool *cancelled,
                        uint8_t *status)
{
    const unsigned i = c->index;
    pthread_mutex_lock(&w->swctx_lock);
    c->answered = false;
    pthread_mutex_unlock(&w->swctx_lock);
    int rc = weft_svc_start(w); /* the first call that has to wait starts it */
    if (rc == 0)
        rc = weft_reg_write(w, WEFT_REG_SYNC_SW_ARM, 1u << i);
    if (rc != 0)
        return rc;
    /* A managed thread's untimed wait gives the processor up (a timed one keeps it). */
    weft_mthread_t *me = weft_mthread_self();
    if (me && !abstime)
        await_managed(w, c, me);
    pthread_mutex_lock(&w->swctx_lock);
    while (!c->answered) {
        int wrc = 0;
        if (abstime && !*cancelled)
            wrc = pthread_cond_timedwait(&c->cond, &w->swctx_lock, abstime);
        else
            pthread_cond_wait(&c->cond, &w->swctx_lock);
        if (wrc != 0 && !c->answered) { /* ETIMEDOUT (or a time the clock refuses) */
            *cancelled = true;
            pthread_mutex_unlock(&w->swctx_lock);
            (void)weft_reg_write(w, WEFT_REG_SYNC_CTX_CTRL(i), c->prio | WEFT_SYNC_CTX_CANCEL);
            pthread_mutex_lock(&w->swctx_lock);
        }
    }
    *status = c->status;
    rc = c->io_error ? -EIO : 0;
    pthread_mutex_unlock(&w->swctx_lock);
    if (*cancelled)
        (void)weft_reg_write(w, WEFT_REG_SYNC_CTX_CTRL(i), c->prio);
    return rc;
}

/* A call on context c: write it, read the answer; if it is not there yet (the call
 * blocks, or waits its turn), wait for it. A context whose last call's answer was lost
 * to a bus error is settled first, so no answer is taken for another call's. */
static int ctx_call(weft_t *w, weft_swctx_t *c, uint32_t word, const struct timespec *abstime)
{
    const unsigned i = c->index;
    uint32_t v = 0;
    uint8_t st = 0;
    bool cancelled = false;
    int rc = 0;
    if (c->stale) {
        rc = weft_reg_read(w, WEFT_REG_SYNC_CTX_CALL(i), &v);
        if (rc == 0 && (v & WEFT_SYNC_CTX_BUSY))
            rc = await_answer(w, c, NULL, &cancelled, &st);
        if (rc != 0)
            return rc;
        c->stale = false;
    }
    c->stale = true; /* until this call's answer is in hand */
    rc = weft_reg_write(w, WEFT_REG_SYNC_CTX_CALL(i), word);
    if (rc == 0)
        rc = weft_reg_read(w, WEFT_REG_SYNC_CTX_CALL(i), &v);
    if (rc != 0)
        return rc;
    if (v & WEFT_SYNC_CTX_BUSY) {
        /* POSIX: a time that is no time is refused only by a call that would block. */
        bool bad_time = abstime && !valid_time(abstime);
        if (bad_time) {
            static const struct timespec past = {0, 0};
            abstime = &past;
        }
        rc = await_answer(w, c, abstime, &cancelled, &st);
        if (rc != 0)
            return rc;
        c->stale = false;
        if (bad_time)
            return st == WEFT_OSIF_CANCELED ? -EINVAL : status_errno(st, false);
        return status_errno(st, cancelled);
    }
    c->stale = false;
    return status_errno((uint8_t)v, false);
}

/* Make call op on object obj (mtx: a condition wait's mutex) and wait for its answer,
 * until abstime (CLOCK_REALTIME) if it is not NULL. own: the call needs the caller's own
 * context (it blocks, or the manager must know the caller: mutexes); the others go
 * through the caller's context if it has one, else through the shared one. Not a
 * cancellation point: a thread cancelled in it would leave its call in the fabric. */
static int call(weft_t *w, unsigned op, unsigned obj, unsigned mtx, bool own,
                const struct timespec *abstime)
{
    const uint32_t word = op | obj << WEFT_SYNC_CTX_OBJ_SHIFT | mtx << WEFT_SYNC_CTX_MTX_SHIFT;
    weft_swctx_t *c = NULL;
    int cancel_state;
    int rc = ctx_get(w, own || w->num_swctx < 2, &c);
    if (rc != 0)
        return rc;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
    const bool blocked = weft_preempt_block(); /* a managed thread stops after the call */
    if (c) {
        rc = ctx_call(w, c, word, abstime);
    } else {
        pthread_mutex_lock(&w->shared_lock);
        rc = ctx_call(w, &w->swctx[0], word, NULL);
        pthread_mutex_unlock(&w->shared_lock);
    }
    weft_preempt_restore(blocked);
    pthread_setcancelstate(cancel_state, NULL);
    return rc;
}

static int obj_call(const void *handle, unsigned type, unsigned op, bool own,
                    const struct timespec *abstime)
{
    weft_hwobj_t *o = weft_hwobj_live(handle, type);
    if (!o)
        return -EINVAL;
    return call(o->w, op, o->index, WEFT_SYNC_NO_OBJECT, own, abstime);
}

unsigned weft_hwsync_contexts(weft_t *w)
{
    return w ? w->num_swctx : 0;
}

int weft_hwsync_set_priority(weft_t *w, unsigned prio)
{
    if (!w || prio > WEFT_SYNC_PRIO_MAX)
        return -EINVAL;
    weft_swctx_t *c = NULL;
    int rc = ctx_get(w, true, &c);
    if (rc == 0) {
        c->prio = prio;
        rc = weft_reg_write(w, WEFT_REG_SYNC_CTX_CTRL(c->index), prio);
    }
    return rc;
}

int weft_hwsync_release(weft_t *w)
{
    if (!w)
        return -EINVAL;
    if (w->num_swctx == 0)
        return 0;
    weft_swctx_t *c = pthread_getspecific(w->swctx_key);
    if (c) {
        pthread_setspecific(w->swctx_key, NULL);
        ctx_put(c);
    }
    return 0;
}

int weft_hwsem_post(weft_hwsem_t *sem)
{
    return obj_call(sem, WEFT_SYNC_TYPE_SEM, WEFT_SYNC_OP_SEM_POST, false, NULL);
}

int weft_hwsem_wait(weft_hwsem_t *sem)
{
    return obj_call(sem, WEFT_SYNC_TYPE_SEM, WEFT_SYNC_OP_SEM_WAIT, true, NULL);
}

int weft_hwsem_trywait(weft_hwsem_t *sem)
{
    return obj_call(sem, WEFT_SYNC_TYPE_SEM, WEFT_SYNC_OP_SEM_TRYWAIT, false, NULL);
}

int weft_hwsem_timedwait(weft_hwsem_t *sem, const struct timespec *abstime)
{
    if (!abstime)
        return -EINVAL;
    return obj_call(sem, WEFT_SYNC_TYPE_SEM, WEFT_SYNC_OP_SEM_WAIT, true, abstime);
}

int weft_hwmutex_lock(weft_hwmutex_t *m)
{
    return obj_call(m, WEFT_SYNC_TYPE_MUTEX, WEFT_SYNC_OP_MUTEX_LOCK, true, NULL);
}

int weft_hwmutex_trylock(weft_hwmutex_t *m)
{
    return obj_call(m, WEFT_SYNC_TYPE_MUTEX, WEFT_SYNC_OP_MUTEX_TRYLOCK, true, NULL);
}

int weft_hwmutex_timedlock(weft_hwmutex_t *m, const struct timespec *abstime)
{
    if (!abstime)
        return -EINVAL;
    return obj_call(m, WEFT_SYNC_TYPE_MUTEX, WEFT_SYNC_OP_MUTEX_LOCK, true, abstime);
}

int weft_hwmutex_unlock(weft_hwmutex_t *m)
{
    return obj_call(m, WEFT_SYNC_TYPE_MUTEX, WEFT_SYNC_OP_MUTEX_UNLOCK, true, NULL);
}

static int cond_wait(weft_hwcond_t *cv, weft_hwmutex_t *m, const struct timespec *abstime)
{
    weft_hwobj_t *c = weft_hwobj_live(cv, WEFT_SYNC_TYPE_COND);
    weft_hwobj_t *o = weft_hwobj_live(m, WEFT_SYNC_TYPE_MUTEX);
    if (!c || !o || o->w != c->w)
        return -EINVAL;
    return call(c->w, WEFT_SYNC_OP_COND_WAIT, c->index, o->index, true, abstime);
}

int weft_hwcond_wait(weft_hwcond_t *c, weft_hwmutex_t *m)
{
    return cond_wait(c, m, NULL);
}

int weft_hwcond_timedwait(weft_hwcond_t *c, weft_hwmutex_t *m, const struct timespec *abstime)
{
    if (!abstime)
        return -EINVAL;
    return cond_wait(c, m, abstime);
}

int weft_hwcond_signal(weft_hwcond_t *c)
{
    return obj_call(c, WEFT_SYNC_TYPE_COND, WEFT_SYNC_OP_COND_SIGNAL, false, NULL);
}

int weft_hwcond_broadcast(weft_hwcond_t *c)
{
    return obj_call(c, WEFT_SYNC_TYPE_COND, WEFT_SYNC_OP_COND_BROADCAST, false, NULL);
}

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
 * their threads. A timed call is timed here, in the caller's clock: when the time passes,
 * the thread sets its context's CANCEL and waits for the answer, which is CANCELED unless
 * the call was served first (a condition wait answers once it holds its mutex again).
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "weft/hwsync.h"
#include "weft_internal.h"

static int reg_write(weft_t *w, uint32_t off, uint32_t v)
{
    return w->platform->ops->mmio_write(w->platform, off, v);
}

static int reg_read(weft_t *w, uint32_t off, uint32_t *v)
{
    return w->platform->ops->mmio_read(w->platform, off, v);
}

/* Give the context up: the manager drops any call of it and hands its mutexes on. */
static void ctx_put(weft_swctx_t *c)
{
    weft_t *w = c->w;
    (void)reg_write(w, WEFT_REG_SYNC_SW_FLUSH, 1u << c->index);
    pthread_mutex_lock(&w->swctx_lock);
    c->used = false;
    pthread_mutex_unlock(&w->swctx_lock);
}

/* pthread key destructor: the thread that held the context exits. */
static void ctx_release(void *arg)
{
    ctx_put(arg);
}

/* The interrupt thread: wakes the threads whose armed contexts have their answers. */
static void *svc_main(void *arg)
{
    weft_t *w = arg;
    const unsigned line = WEFT_IRQ_LINE_SVC(w->num_slots);
    pthread_setname_np(pthread_self(), "weft-hwsync");
    while (!atomic_load(&w->svc_stop)) {
        int rc = w->platform->ops->irq_wait(w->platform, line, WEFT_IRQ_WAIT_MS);
        if (rc == -ETIMEDOUT || rc == -ECANCELED)
            continue;
        uint32_t pend = 0;
        if (rc != 0 || reg_read(w, WEFT_REG_SYNC_SW_PENDING, &pend) != 0) {
            weft_log(w,
                     "hardware synchronisation: the interrupt line failed (%d); blocked "
                     "calls of software threads are no longer woken",
                     rc);
            break;
        }
        if (pend == 0)
            continue;
        (void)reg_write(w, WEFT_REG_SYNC_SW_PENDING, pend); /* disarm: the line drops */
        for (unsigned i = 0; i < w->num_swctx; i++) {
            uint32_t v = 0;
            if (!(pend & 1u << i) || reg_read(w, WEFT_REG_SYNC_CTX_CALL(i), &v) != 0)
                continue;
            weft_swctx_t *c = &w->swctx[i];
            pthread_mutex_lock(&w->swctx_lock);
            c->status = (uint8_t)v;
            c->answered = true;
            pthread_cond_broadcast(&c->cond);
            pthread_mutex_unlock(&w->swctx_lock);
        }
    }
    return NULL;
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
    for (unsigned i = 0; i < n; i++) {
        w->swctx[i].w = w;
        w->swctx[i].index = i;
        pthread_cond_init(&w->swctx[i].cond, NULL);
    }
    w->num_swctx = n;
    atomic_init(&w->svc_stop, false);
    /* An earlier runtime's contexts may still be armed, in a call, or hold mutexes. */
    uint32_t all = n == 32 ? UINT32_MAX : (1u << n) - 1u;
    int rc = reg_write(w, WEFT_REG_SYNC_SW_FLUSH, all);
    if (rc == 0)
        rc = reg_write(w, WEFT_REG_SYNC_SW_PENDING, all);
    for (unsigned i = 0; i < n && rc == 0; i++)
        rc = reg_write(w, WEFT_REG_SYNC_CTX_CTRL(i), 0);
    return rc;
}

void weft_swctx_fini(weft_t *w)
{
    if (w->num_swctx == 0)
        return;
    pthread_mutex_lock(&w->swctx_lock);
    bool started = w->svc_started;
    pthread_mutex_unlock(&w->swctx_lock);
    if (started) {
        atomic_store(&w->svc_stop, true);
        w->platform->ops->irq_cancel(w->platform, WEFT_IRQ_LINE_SVC(w->num_slots));
        pthread_join(w->svc_thread, NULL);
    }
    /* Threads that still hold contexts keep nothing of the runtime from now on. */
    pthread_key_delete(w->swctx_key);
    for (unsigned i = 0; i < w->num_swctx; i++)
        pthread_cond_destroy(&w->swctx[i].cond);
    pthread_mutex_destroy(&w->swctx_lock);
    free(w->swctx);
    w->swctx = NULL;
    w->num_swctx = 0;
}

/* The calling thread's context, taken now if it has none. */
static int ctx_get(weft_t *w, weft_swctx_t **out)
{
    if (w->num_swctx == 0)
        return -ENODEV;
    weft_swctx_t *c = pthread_getspecific(w->swctx_key);
    if (c) {
        *out = c;
        return 0;
    }
    int rc = -ENOSPC;
    pthread_mutex_lock(&w->swctx_lock);
    if (!w->svc_started) {
        if (pthread_create(&w->svc_thread, NULL, svc_main, w) == 0)
            w->svc_started = true;
    }
    for (unsigned i = 0; i < w->num_swctx && w->svc_started; i++) {
        if (!w->swctx[i].used) {
            c = &w->swctx[i];
            c->used = true;
            rc = 0;
            break;
        }
    }
    pthread_mutex_unlock(&w->swctx_lock);
    if (rc != 0)
        return rc;
    c->prio = 0;
    rc = reg_write(w, WEFT_REG_SYNC_CTX_CTRL(c->index), 0);
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

/* Make call op on object obj (mtx: a condition wait's mutex) and wait for its answer,
 * until abstime (CLOCK_REALTIME) if it is not NULL. */
static int call(weft_t *w, unsigned op, unsigned obj, unsigned mtx, const struct timespec *abstime)
{
    weft_swctx_t *c = NULL;
    int rc = ctx_get(w, &c);
    if (rc != 0)
        return rc;
    const unsigned i = c->index;
    uint32_t v = 0;
    rc = reg_write(w, WEFT_REG_SYNC_CTX_CALL(i),
                   op | obj << WEFT_SYNC_CTX_OBJ_SHIFT | mtx << WEFT_SYNC_CTX_MTX_SHIFT);
    if (rc == 0)
        rc = reg_read(w, WEFT_REG_SYNC_CTX_CALL(i), &v);
    if (rc != 0)
        return rc;
    if (!(v & WEFT_SYNC_CTX_BUSY))
        return status_errno((uint8_t)v, false);

    /* It blocks (or its answer is on its way): sleep until the interrupt thread has it. */
    pthread_mutex_lock(&w->swctx_lock);
    c->answered = false;
    pthread_mutex_unlock(&w->swctx_lock);
    rc = reg_write(w, WEFT_REG_SYNC_SW_ARM, 1u << i);
    if (rc != 0)
        return rc;
    bool timed_out = false;
    pthread_mutex_lock(&w->swctx_lock);
    while (!c->answered) {
        if (abstime && !timed_out) {
            if (pthread_cond_timedwait(&c->cond, &w->swctx_lock, abstime) == ETIMEDOUT &&
                !c->answered) {
                timed_out = true;
                pthread_mutex_unlock(&w->swctx_lock);
                (void)reg_write(w, WEFT_REG_SYNC_CTX_CTRL(i), c->prio | WEFT_SYNC_CTX_CANCEL);
                pthread_mutex_lock(&w->swctx_lock);
            }
        } else {
            pthread_cond_wait(&c->cond, &w->swctx_lock);
        }
    }
    uint8_t st = c->status;
    pthread_mutex_unlock(&w->swctx_lock);
    if (timed_out)
        (void)reg_write(w, WEFT_REG_SYNC_CTX_CTRL(i), c->prio);
    return status_errno(st, timed_out);
}

static int obj_call(const void *handle, unsigned type, unsigned op, const struct timespec *abstime)
{
    weft_hwobj_t *o = weft_hwobj_live(handle, type);
    if (!o)
        return -EINVAL;
    return call(o->w, op, o->index, WEFT_SYNC_NO_OBJECT, abstime);
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
    int rc = ctx_get(w, &c);
    if (rc == 0) {
        c->prio = prio;
        rc = reg_write(w, WEFT_REG_SYNC_CTX_CTRL(c->index), prio);
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
    return obj_call(sem, WEFT_SYNC_TYPE_SEM, WEFT_SYNC_OP_SEM_POST, NULL);
}

int weft_hwsem_wait(weft_hwsem_t *sem)
{
    return obj_call(sem, WEFT_SYNC_TYPE_SEM, WEFT_SYNC_OP_SEM_WAIT, NULL);
}

int weft_hwsem_trywait(weft_hwsem_t *sem)
{
    return obj_call(sem, WEFT_SYNC_TYPE_SEM, WEFT_SYNC_OP_SEM_TRYWAIT, NULL);
}

int weft_hwsem_timedwait(weft_hwsem_t *sem, const struct timespec *abstime)
{
    if (!abstime)
        return -EINVAL;
    return obj_call(sem, WEFT_SYNC_TYPE_SEM, WEFT_SYNC_OP_SEM_WAIT, abstime);
}

int weft_hwmutex_lock(weft_hwmutex_t *m)
{
    return obj_call(m, WEFT_SYNC_TYPE_MUTEX, WEFT_SYNC_OP_MUTEX_LOCK, NULL);
}

int weft_hwmutex_trylock(weft_hwmutex_t *m)
{
    return obj_call(m, WEFT_SYNC_TYPE_MUTEX, WEFT_SYNC_OP_MUTEX_TRYLOCK, NULL);
}

int weft_hwmutex_timedlock(weft_hwmutex_t *m, const struct timespec *abstime)
{
    if (!abstime)
        return -EINVAL;
    return obj_call(m, WEFT_SYNC_TYPE_MUTEX, WEFT_SYNC_OP_MUTEX_LOCK, abstime);
}

int weft_hwmutex_unlock(weft_hwmutex_t *m)
{
    return obj_call(m, WEFT_SYNC_TYPE_MUTEX, WEFT_SYNC_OP_MUTEX_UNLOCK, NULL);
}

static int cond_wait(weft_hwcond_t *cv, weft_hwmutex_t *m, const struct timespec *abstime)
{
    weft_hwobj_t *c = weft_hwobj_live(cv, WEFT_SYNC_TYPE_COND);
    weft_hwobj_t *o = weft_hwobj_live(m, WEFT_SYNC_TYPE_MUTEX);
    if (!c || !o || o->w != c->w)
        return -EINVAL;
    return call(c->w, WEFT_SYNC_OP_COND_WAIT, c->index, o->index, abstime);
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
    return obj_call(c, WEFT_SYNC_TYPE_COND, WEFT_SYNC_OP_COND_SIGNAL, NULL);
}

int weft_hwcond_broadcast(weft_hwcond_t *c)
{
    return obj_call(c, WEFT_SYNC_TYPE_COND, WEFT_SYNC_OP_COND_BROADCAST, NULL);
}

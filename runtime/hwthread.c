/*
 * Hardware-thread lifecycle: create (validate, claim the slot, load the image, set the
 * memory window, start the slot and its delegate), join, counters, destroy.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deadline.h"
#include "osif_decode.h"
#include "osif_stage.h"
#include "weft_internal.h"

/* A queue the delegate can serve: open, blocking (slices rely on it), and with messages
 * a length field holds. */
static int validate_mq(mqd_t q)
{
    struct mq_attr attr;
    if (mq_getattr(q, &attr) != 0)
        return -errno;
    if ((attr.mq_flags & O_NONBLOCK) || attr.mq_msgsize <= 0 ||
        attr.mq_msgsize > (long)WEFT_MQ_MAX_MEM_BYTES)
        return -EINVAL;
    return 0;
}

/* What a slot can hold: its memory windows and link bindings (CAPS). */
typedef struct slot_caps {
    unsigned windows, binds;
} slot_caps_t;

static int read_caps(weft_t *w, unsigned slot, slot_caps_t *caps)
{
    uint32_t v = 0;
    int rc = w->platform->ops->mmio_read(w->platform, WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CAPS), &v);
    caps->windows = v & WEFT_CAPS_WINDOWS_MASK;
    caps->binds = (v >> WEFT_CAPS_BINDS_SHIFT) & WEFT_CAPS_BINDS_MASK;
    if (caps->windows > WEFT_SLOT_REG_WIN_BASE_COUNT)
        caps->windows = WEFT_SLOT_REG_WIN_BASE_COUNT;
    if (caps->binds > WEFT_SLOT_REG_LINK_BIND_COUNT)
        caps->binds = WEFT_SLOT_REG_LINK_BIND_COUNT;
    return rc;
}

/* A window inside the DMA region, non-empty, with a permission, and expressible in the
 * 32-bit WIN_BASE/WIN_SIZE registers. */
static bool window_ok(const weft_t *w, const weft_mem_window_t *win)
{
    const weft_dma_region_t *reg = &w->dma.region;
    if (win->size == 0 || win->perm == 0 || (win->perm & ~WEFT_MEM_RW))
        return false;
    if (win->bus < reg->bus || win->size > reg->size || win->bus - reg->bus > reg->size - win->size)
        return false;
    return win->bus <= UINT32_MAX && win->size <= UINT32_MAX &&
           win->size <= (uint64_t)UINT32_MAX + 1 - win->bus;
}

/* A link resource: a link of this runtime with the thread's slot at one of its ends. */
static bool link_ok(const weft_t *w, const weft_link_t *k, unsigned slot)
{
    if (k < w->links || k >= w->links + w->num_links)
        return false;
    return k->from == slot || k->to == slot;
}

static bool is_hwsync(weft_res_type_t type)
{
    return type == WEFT_RES_HWSEM || type == WEFT_RES_HWMUTEX || type == WEFT_RES_HWCOND;
}

/* The SYNC_BIND ranges of a resource array: runs of consecutive handles bound to
 * consecutive objects of the synchronisation manager. The number of ranges, or -ENOSPC
 * when the slot's registers cannot hold them all. */
static int sync_ranges(const weft_resource_t *res, unsigned n,
                       uint32_t bind[WEFT_SLOT_REG_SYNC_BIND_COUNT])
{
    int used = 0;
    unsigned first_h = 0, first_o = 0, len = 0;
    for (unsigned h = 0; h <= n; h++) {
        bool hw = h < n && is_hwsync(res[h].type);
        unsigned o = hw ? weft_hwobj_index(res[h].object) : 0;
        if (len > 0 && (!hw || o != first_o + len || len == WEFT_SYNC_BIND_MAX_COUNT)) {
            if (used == WEFT_SLOT_REG_SYNC_BIND_COUNT)
                return -ENOSPC;
            bind[used++] = WEFT_SYNC_BIND_EN | (len - 1) << WEFT_SYNC_BIND_COUNT_SHIFT |
                           first_o << WEFT_SYNC_BIND_OBJ_SHIFT | first_h;
            len = 0;
        }
        if (hw && len == 0) {
            first_h = h;
            first_o = o;
        }
        if (hw)
            len++;
    }
    return used;
}

static int validate(weft_t *w, const weft_hwthread_attr_t *a, const slot_caps_t *caps)
{
    if ((!a->image && !a->name) || a->slot >= w->num_slots || a->num_resources > WEFT_MAX_RESOURCES)
        return -EINVAL;
    if (a->num_resources > 0 && !a->resources)
        return -EINVAL;
    unsigned links = 0;
    for (unsigned i = 0; i < a->num_resources; i++) {
        const weft_resource_t *r = &a->resources[i];
        if (r->type < WEFT_RES_SEM || r->type > WEFT_RES_HWCOND || !r->object)
            return -EINVAL;
        if (is_hwsync(r->type) && !weft_hwobj_valid(w, r->type, r->object))
            return -EINVAL;
        if (r->type == WEFT_RES_MQ && validate_mq(*(const mqd_t *)r->object) != 0)
            return -EINVAL;
        if (r->type == WEFT_RES_LINK && (!link_ok(w, r->object, a->slot) || ++links > caps->binds))
            return -EINVAL;
    }
    uint32_t bind[WEFT_SLOT_REG_SYNC_BIND_COUNT];
    if (a->sync_priority > WEFT_SYNC_PRIO_MAX ||
        (a->num_resources > 0 && sync_ranges(a->resources, a->num_resources, bind) < 0))
        return -EINVAL;
    if (a->num_windows > caps->windows || (a->num_windows > 0 && !a->windows))
        return -EINVAL;
    for (unsigned i = 0; i < a->num_windows; i++)
        if (!window_ok(w, &a->windows[i]))
            return -EINVAL;
    /* An accelerator makes no OS calls and has no state to resume. */
    if (a->accelerator &&
        (a->num_resources > 0 || a->resume || a->num_acc_args > WEFT_HLS_MAX_ARGS ||
         (a->num_acc_args > 0 && !a->acc_args)))
        return -EINVAL;
    return 0;
}

/* Stop the slot and free the thread's staging buffers, once nothing the slot issued can
 * reach them any more; when the bus never ended the slot's last burst they stay allocated
 * (a leak, not memory a later owner would find written). */
static void stop_and_free_staging(weft_hwthread_t *t)
{
    int rc = weft_slot_stop(t->platform, t->slot);
    if (rc == 0) {
        weft_stage_free(t);
        if (t->owned_mem)
            weft_mem_free(t->w, t->owned_mem);
        t->owned_mem = NULL;
        return;
    }
    weft_log(t->w,
             "thread '%s' slot %u: the slot's memory traffic did not end (%s); its staging "
             "buffers stay allocated",
             t->name, t->slot, strerror(-rc));
}

static weft_hwthread_t *thread_new(weft_t *w, const weft_hwthread_attr_t *a)
{
    weft_hwthread_t *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->res = calloc(a->num_resources ? a->num_resources : 1, sizeof(*t->res));
    t->held = calloc(a->num_resources ? a->num_resources : 1, sizeof(*t->held));
    t->mutex_key = calloc(a->num_resources ? a->num_resources : 1, sizeof(*t->mutex_key));
    if (!t->res || !t->held || !t->mutex_key)
        goto fail;

    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0)
        goto fail;
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&t->ended, &ca);
    pthread_condattr_destroy(&ca);
    if (rc != 0)
        goto fail;
    if (pthread_mutex_init(&t->lock, NULL) != 0) {
        pthread_cond_destroy(&t->ended);
        goto fail;
    }

    t->w = w;
    t->platform = w->platform;
    snprintf(t->name, sizeof t->name, "%s", a->name ? a->name : a->image);
    t->slot = a->slot;
    if (a->num_resources)
        memcpy(t->res, a->resources, a->num_resources * sizeof(*t->res));
    t->num_res = a->num_resources;
    /* Handles bound to one object share the first such handle's hold count, so a mutex
     * named twice in the array is still one mutex to the "already held" checks. */
    for (unsigned h = 0; h < t->num_res; h++) {
        unsigned k = 0;
        while (t->res[k].object != t->res[h].object)
            k++;
        t->mutex_key[h] = k;
    }
    t->init_data = a->init_data;
    t->resume = a->resume != 0;
    t->resume_state = a->resume_state;
    t->sync_priority = a->sync_priority;
    t->num_windows = a->num_windows;
    if (a->num_windows)
        memcpy(t->windows, a->windows, a->num_windows * sizeof(*t->windows));
    t->accelerator = a->accelerator != 0;
    t->num_acc_args = t->accelerator ? a->num_acc_args : 0;
    if (t->num_acc_args)
        memcpy(t->acc_args, a->acc_args, t->num_acc_args * sizeof(*t->acc_args));
    t->delegate_joined = true; /* nothing to join until the delegate starts */
    atomic_init(&t->stop, WEFT_STOP_NONE);
    atomic_init(&t->calls, 0);
    atomic_init(&t->cond_fallbacks, 0);
    atomic_init(&t->signals, 0u);
    return t;
fail:
    free(t->mutex_key);
    free(t->held);
    free(t->res);
    free(t);
    return NULL;
}

void weft_hwthread_free(weft_hwthread_t *t)
{
    pthread_cond_destroy(&t->ended);
    pthread_mutex_destroy(&t->lock);
    free(t->mutex_key);
    free(t->held);
    free(t->res);
    free(t);
}

static void slot_release(weft_t *w, unsigned slot)
{
    pthread_mutex_lock(&w->lock);
    w->slots[slot] = NULL;
    pthread_mutex_unlock(&w->lock);
}

static int slot_write(weft_platform_t *p, unsigned slot, uint32_t reg, uint32_t v)
{
    return p->ops->mmio_write(p, WEFT_SLOT_REG(slot, reg), v);
}

static int slot_read(weft_hwthread_t *t, uint32_t reg, uint32_t *v)
{
    return t->platform->ops->mmio_read(t->platform, WEFT_SLOT_REG(t->slot, reg), v);
}

/* Every window and binding register of the slot: the thread's, the rest cleared, so
 * nothing of the slot's previous thread stays granted. */
static int slot_grant(weft_hwthread_t *t, const slot_caps_t *caps)
{
    weft_platform_t *p = t->platform;
    int rc = 0;
    for (unsigned i = 0; i < caps->windows && rc == 0; i++) {
        const weft_mem_window_t *win = i < t->num_windows ? &t->windows[i] : NULL;
        rc = slot_write(p, t->slot, WEFT_SLOT_REG_WIN_SIZE(i), win ? (uint32_t)win->size : 0);
        if (rc == 0)
            rc = slot_write(p, t->slot, WEFT_SLOT_REG_WIN_BASE(i), win ? (uint32_t)win->bus : 0);
        if (rc == 0)
            rc = slot_write(p, t->slot, WEFT_SLOT_REG_WIN_PERM(i), win ? win->perm : 0);
    }
    unsigned b = 0;
    for (unsigned h = 0; h < t->num_res && rc == 0; h++) {
        if (t->res[h].type != WEFT_RES_LINK)
            continue;
        const weft_link_t *k = t->res[h].object;
        rc = slot_write(p, t->slot, WEFT_SLOT_REG_LINK_BIND(b++),
                        WEFT_LINK_BIND_EN | k->index << WEFT_LINK_BIND_LINK_SHIFT | h);
    }
    for (; b < caps->binds && rc == 0; b++)
        rc = slot_write(p, t->slot, WEFT_SLOT_REG_LINK_BIND(b), 0);
    /* Handles bound to the synchronisation manager's objects, in ranges (validate()
     * checked that they fit); the rest cleared. */
    uint32_t bind[WEFT_SLOT_REG_SYNC_BIND_COUNT];
    int ranges = sync_ranges(t->res, t->num_res, bind);
    for (int r = 0; r < (int)WEFT_SLOT_REG_SYNC_BIND_COUNT && rc == 0; r++)
        rc = slot_write(p, t->slot, WEFT_SLOT_REG_SYNC_BIND(r), r < ranges ? bind[r] : 0);
    if (rc == 0)
        rc = slot_write(p, t->slot, WEFT_SLOT_REG_SYNC_PRIO, t->sync_priority);
    return rc;
}

/* Load the image (unless the slot's configuration is to be run as it is) and start the
 * slot; the slot is claimed and stopped on entry. */
static int slot_start(weft_hwthread_t *t, const char *image, const slot_caps_t *caps)
{
    weft_platform_t *p = t->platform;
    int rc = image ? p->ops->slot_reconfigure(p, t->slot, image) : 0;
    if (rc == 0)
        rc = slot_grant(t, caps);
    if (rc == 0)
        rc = weft_stage_program(t);
    if (rc == 0)
        rc = slot_write(p, t->slot, WEFT_SLOT_REG_FAULT, WEFT_FAULT_ALL);
    /* Clock the thread with reset held for a moment, then let it go. */
    if (rc == 0)
        rc = slot_write(p, t->slot, WEFT_SLOT_REG_CONTROL,
                        WEFT_CONTROL_RUN | WEFT_CONTROL_RESET | WEFT_CONTROL_IRQ_EN);
    if (rc == 0)
        rc = slot_write(p, t->slot, WEFT_SLOT_REG_CONTROL, WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
    return rc;
}

int weft_hwthread_create(weft_t *w, weft_hwthread_t **out, const weft_hwthread_attr_t *attr)
{
    return weft_hwthread_create_with(w, out, attr, NULL);
}

/* Until the thread exists, what it would own is freed here. */
static int refuse(weft_t *w, const weft_hwthread_extras_t *x, int rc)
{
    if (w && x && x->owned_mem)
        weft_mem_free(w, x->owned_mem);
    return rc;
}

int weft_hwthread_create_with(weft_t *w, weft_hwthread_t **out, const weft_hwthread_attr_t *attr,
                              const weft_hwthread_extras_t *x)
{
    if (!w || !out || !attr)
        return refuse(w, x, -EINVAL);
    slot_caps_t caps = {0, 0};
    if (attr->slot < w->num_slots) {
        int rc = read_caps(w, attr->slot, &caps);
        if (rc != 0)
            return refuse(w, x, rc);
    }
    int rc = validate(w, attr, &caps);
    if (rc != 0)
        return refuse(w, x, rc);

    weft_hwthread_t *t = thread_new(w, attr);
    if (!t)
        return refuse(w, x, -ENOMEM);
    if (x) {
        t->owned_mem = x->owned_mem;
        t->console = x->console;
        t->console_arg = x->console_arg;
    }

    pthread_mutex_lock(&w->lock);
    if (w->slots[attr->slot]) {
        pthread_mutex_unlock(&w->lock);
        weft_hwthread_free(t);
        return refuse(w, x, -EBUSY);
    }
    w->slots[attr->slot] = t;
    pthread_mutex_unlock(&w->lock);

    rc = weft_stage_alloc(t);
    if (rc == 0)
        rc = weft_slot_stop(t->platform, t->slot);
    if (rc == 0)
        rc = slot_start(t, attr->image, &caps);
    if (rc == 0) {
        weft_trace_hw_created(t); /* before the delegate can record its first call */
        rc = -pthread_create(&t->delegate, NULL, weft_delegate_main, t);
        if (rc == 0)
            t->delegate_joined = false;
        else /* no delegate: the track must not stay open for a thread that never ran */
            weft_trace_hw_ended(t, WEFT_EXIT_STOPPED, 0);
    }
    if (rc != 0) {
        stop_and_free_staging(t);
        slot_release(w, t->slot);
        weft_hwthread_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

static void copy_status(const weft_hwthread_t *t, weft_exit_status_t *status)
{
    if (status)
        *status = t->status;
}

int weft_hwthread_timedjoin(weft_hwthread_t *t, weft_exit_status_t *status, int timeout_ms)
{
    if (!t)
        return -EINVAL;

    int ret = 0;
    pthread_mutex_lock(&t->lock);
    if (t->done) {
        copy_status(t, status); /* fast path */
        goto out;
    }
    if (timeout_ms == 0) {
        ret = -ETIMEDOUT; /* no-wait path */
        goto out;
    }
    struct timespec until = weft_deadline_after(CLOCK_MONOTONIC, timeout_ms > 0 ? timeout_ms : 0);
    while (!t->done) {
        int rc = timeout_ms < 0 ? pthread_cond_wait(&t->ended, &t->lock)
                                : pthread_cond_timedwait(&t->ended, &t->lock, &until);
        if (rc == ETIMEDOUT && !t->done) {
            ret = -ETIMEDOUT;
            goto out;
        }
    }
    copy_status(t, status);
out:
    pthread_mutex_unlock(&t->lock);
    return ret;
}

int weft_hwthread_join(weft_hwthread_t *t, weft_exit_status_t *status)
{
    return weft_hwthread_timedjoin(t, status, -1);
}

int weft_hwthread_stats(weft_hwthread_t *t, weft_hwthread_stats_t *stats)
{
    if (!t || !stats)
        return -EINVAL;

    int rc = 0;
    pthread_mutex_lock(&t->lock);
    stats->calls = atomic_load(&t->calls);
    stats->cond_fallbacks = atomic_load(&t->cond_fallbacks);
    if (t->done || t->slot_stopped) {
        stats->busy_cycles = t->busy_final;
        stats->link_calls = t->link_calls_final;
    } else {
        rc =
            weft_read_counter64(t->platform, WEFT_SLOT_REG(t->slot, WEFT_SLOT_REG_BUSY_LO),
                                WEFT_SLOT_REG(t->slot, WEFT_SLOT_REG_BUSY_HI), &stats->busy_cycles);
        uint32_t lc = 0;
        if (rc == 0)
            rc = slot_read(t, WEFT_SLOT_REG_LINK_CALLS, &lc);
        stats->link_calls = lc;
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}

/* Wait until the delegate has finished with t (exited) or until deadline; returns
 * whether it has. Caller holds t->lock. */
static bool wait_exited(weft_hwthread_t *t, const struct timespec *deadline)
{
    while (!t->exited) {
        int rc = deadline ? pthread_cond_timedwait(&t->ended, &t->lock, deadline)
                          : pthread_cond_wait(&t->ended, &t->lock);
        if (rc == ETIMEDOUT)
            return t->exited;
    }
    return true;
}

/* Ask the delegate to stop and wait until it has; the thread then has ended. Used by
 * destroy and shutdown; the caller makes sure only one of them runs for a thread. A
 * delegate still parked in a condition wait after WEFT_ABANDON_MS (waiting for a mutex
 * someone holds) is abandoned: the thread is ended here and the delegate finishes alone. */
void weft_hwthread_stop(weft_hwthread_t *t)
{
    if (t->delegate_joined)
        return;
    atomic_store(&t->stop, WEFT_STOP_REQUESTED);
    t->platform->ops->irq_cancel(t->platform, t->slot);

    pthread_mutex_lock(&t->lock);
    bool exited = false;
    for (int waited = 0; !exited && waited < WEFT_ABANDON_MS; waited += WEFT_WAIT_SLICE_MS) {
        /* A condition wait is one long wait (delegate.c, exec_cond): wake it, again every
         * slice, since a broadcast just before the delegate waits finds nobody. */
        if (t->parked)
            pthread_cond_broadcast(t->parked);
        struct timespec slice = weft_deadline_after(CLOCK_MONOTONIC, WEFT_WAIT_SLICE_MS);
        exited = wait_exited(t, &slice);
    }
    if (!exited && t->parked) {
        t->abandoned = true;
        weft_abandoned_add();
        weft_slot_stop(t->platform, t->slot);
        t->slot_stopped = true;
        t->status.kind = WEFT_EXIT_STOPPED;
        t->status.value = 0;
        snprintf(t->status.message, sizeof t->status.message,
                 "thread '%s' slot %u: stopped (its delegate still waits for the mutex of a "
                 "condition wait and finishes alone)",
                 t->name, t->slot);
        t->done = true;
        pthread_cond_broadcast(&t->ended);
        pthread_mutex_unlock(&t->lock);
        if (t->w) {
            weft_log(t->w, "%s", t->status.message);
            weft_trace_hw_ended(t, WEFT_EXIT_STOPPED, 0);
        }
        pthread_detach(t->delegate);
    } else {
        /* Not parked: every other wait ends within a slice, so this is short. */
        wait_exited(t, NULL);
        pthread_mutex_unlock(&t->lock);
        pthread_join(t->delegate, NULL);
    }
    t->delegate_joined = true;
}

/* Delegates left to finish alone, process-wide: the runtime that abandoned one may be
 * gone by the time it finishes. */
static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t abandoned_done = PTHREAD_COND_INITIALIZER;
static unsigned abandoned_count;

void weft_abandoned_add(void)
{
    pthread_mutex_lock(&abandoned_lock);
    abandoned_count++;
    pthread_mutex_unlock(&abandoned_lock);
}

void weft_abandoned_done(void)
{
    pthread_mutex_lock(&abandoned_lock);
    abandoned_count--;
    pthread_cond_broadcast(&abandoned_done);
    pthread_mutex_unlock(&abandoned_lock);
}

int weft_wait_abandoned(int timeout_ms)
{
    /* A condition variable initialised statically waits on CLOCK_REALTIME. */
    struct timespec until = weft_deadline_after(CLOCK_REALTIME, timeout_ms > 0 ? timeout_ms : 0);
    int ret = 0;
    pthread_mutex_lock(&abandoned_lock);
    while (abandoned_count > 0 && ret == 0) {
        if (timeout_ms < 0)
            pthread_cond_wait(&abandoned_done, &abandoned_lock);
        else if (pthread_cond_timedwait(&abandoned_done, &abandoned_lock, &until) == ETIMEDOUT)
            ret = abandoned_count > 0 ? -ETIMEDOUT : 0;
    }
    pthread_mutex_unlock(&abandoned_lock);
    return ret;
}

int weft_hwthread_signal(weft_hwthread_t *t, unsigned signals)
{
    if (!t || signals == 0 || (signals & ~WEFT_SIGNAL_ALL))
        return -EINVAL;
    pthread_mutex_lock(&t->lock);
    bool done = t->done;
    if (!done) {
        atomic_fetch_or(&t->signals, signals);
        /* Calls the static region serves (hardware links) see the signal through
         * CONTROL.SIGNAL. Under t->lock, so it can never restart a slot the delegate has
         * just stopped. */
        if (!t->slot_stopped)
            slot_write(t->platform, t->slot, WEFT_SLOT_REG_CONTROL,
                       WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_SIGNAL);
        /* A condition wait sees the signal when woken (delegate.c, exec_cond). */
        if (t->parked)
            pthread_cond_broadcast(t->parked);
    }
    pthread_mutex_unlock(&t->lock);
    return done ? -ESRCH : 0;
}

int weft_hwthread_destroy(weft_hwthread_t *t)
{
    if (!t)
        return -EINVAL;
    weft_hwthread_stop(t);
    weft_t *w = t->w;
    if (w) {
        /* The delegate already stopped the slot; stop it again in case it never ran. */
        stop_and_free_staging(t);
        slot_release(w, t->slot);
    }
    pthread_mutex_lock(&t->lock);
    bool delegate_frees = t->abandoned && !t->exited;
    t->released = true;
    pthread_mutex_unlock(&t->lock);
    if (!delegate_frees)
        weft_hwthread_free(t);
    return 0;
}

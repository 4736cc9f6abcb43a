/*
 * Objects of the static region's synchronisation manager (docs/hw-services.md): the
 * runtime hands them out, configures them through SYNC_CFG and reads them back through
 * SYNC_INSPECT/SYNC_STATE. Their calls are served in the fabric (software threads' through
 * the manager's software contexts: hwsync_call.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "weft/hwsync.h"
#include "weft_internal.h"

int weft_hwsync_probe(weft_t *w)
{
    uint32_t info = 0;
    int rc = w->platform->ops->mmio_read(w->platform, WEFT_REG_SYNC_INFO, &info);
    /* A register window that does not reach the OS services' window (a board whose map
     * ends before it) has no manager. */
    if (rc == -EINVAL)
        info = 0;
    else if (rc != 0)
        return rc;
    unsigned n = info & 0x1ffu;
    /* Index 0xFF names no object (a condition wait's mutex handle bound to none). */
    if (n > 255)
        return -EPROTO;
    w->hwobj = calloc(n ? n : 1, sizeof(*w->hwobj));
    if (!w->hwobj)
        return -ENOMEM;
    for (unsigned i = 0; i < n; i++) {
        w->hwobj[i].w = w;
        w->hwobj[i].index = i;
    }
    w->num_hwobj = n;
    pthread_mutex_init(&w->hwobj_lock, NULL);
    return n ? weft_swctx_probe(w, info >> WEFT_SYNC_INFO_SW_SHIFT & 0xffu) : 0;
}

void weft_hwsync_fini(weft_t *w)
{
    weft_swctx_fini(w);
    if (w->hwobj)
        pthread_mutex_destroy(&w->hwobj_lock);
    free(w->hwobj);
    w->hwobj = NULL;
    w->num_hwobj = 0;
}

unsigned weft_hwsync_objects(weft_t *w)
{
    return w ? w->num_hwobj : 0;
}

/* Configure object o as type/kind/inheritance with SYNC_CFG_VAL = val; the manager's
 * status mapped to an errno. Caller holds hwobj_lock. */
static int configure(weft_t *w, unsigned o, unsigned type, unsigned kind, bool inherit,
                     uint32_t val)
{
    weft_platform_t *p = w->platform;
    uint32_t cfg = o | type << WEFT_SYNC_CFG_TYPE_SHIFT | kind << WEFT_SYNC_CFG_KIND_SHIFT |
                   (inherit ? WEFT_SYNC_CFG_PI : 0);
    uint32_t status = 0;
    int rc = p->ops->mmio_write(p, WEFT_REG_SYNC_CFG_VAL, val);
    if (rc == 0)
        rc = p->ops->mmio_write(p, WEFT_REG_SYNC_CFG, cfg);
    if (rc == 0)
        rc = p->ops->mmio_read(p, WEFT_REG_SYNC_CFG, &status);
    if (rc != 0)
        return rc;
    switch (status & 0xffu) {
    case WEFT_OSIF_OK:
        return 0;
    case WEFT_OSIF_BUSY:
        return -EBUSY;
    default:
        return -EPROTO; /* the runtime checked what it wrote: the fabric disagrees */
    }
}

/* Take a free object and configure it. */
static int create(weft_t *w, unsigned type, unsigned kind, bool inherit, uint32_t val,
                  weft_hwobj_t **out)
{
    if (w->num_hwobj == 0)
        return weft_no_service(w,
                               type == WEFT_SYNC_TYPE_SEM     ? "weft_hwsem_create"
                               : type == WEFT_SYNC_TYPE_MUTEX ? "weft_hwmutex_create"
                                                              : "weft_hwcond_create",
                               WEFT_SERVICE_SYNC);
    pthread_mutex_lock(&w->hwobj_lock);
    int rc = -ENOSPC;
    for (unsigned i = 0; i < w->num_hwobj; i++) {
        weft_hwobj_t *o = &w->hwobj[i];
        if (o->type != WEFT_SYNC_TYPE_NONE)
            continue;
        rc = configure(w, i, type, kind, inherit, val);
        if (rc == 0) {
            o->type = type;
            *out = o;
        }
        break;
    }
    pthread_mutex_unlock(&w->hwobj_lock);
    return rc;
}

weft_hwobj_t *weft_hwobj_live(const void *handle, unsigned type)
{
    weft_hwobj_t *o = (weft_hwobj_t *)handle;
    if (!o || !o->w || o->index >= o->w->num_hwobj || &o->w->hwobj[o->index] != o)
        return NULL;
    return o->type == type ? o : NULL;
}

/* Whether a hardware thread of w binds the object. */
static bool bound(weft_t *w, const weft_hwobj_t *o)
{
    bool found = false;
    pthread_mutex_lock(&w->lock);
    for (unsigned s = 0; s < w->num_slots && !found; s++) {
        const weft_hwthread_t *t = w->slots[s];
        for (unsigned h = 0; t && h < t->num_res && !found; h++)
            found = t->res[h].object == o;
    }
    pthread_mutex_unlock(&w->lock);
    return found;
}

static int destroy(weft_hwobj_t *o)
{
    if (!o)
        return -EINVAL;
    weft_t *w = o->w;
    if (bound(w, o))
        return -EBUSY;
    pthread_mutex_lock(&w->hwobj_lock);
    int rc = configure(w, o->index, WEFT_SYNC_TYPE_NONE, 0, false, 0);
    if (rc == 0)
        o->type = WEFT_SYNC_TYPE_NONE;
    pthread_mutex_unlock(&w->hwobj_lock);
    return rc;
}

/* SYNC_STATE of an object. */
/* Register reg (SYNC_STATE or SYNC_WAITERS) of an object. */
static int inspect(weft_hwobj_t *o, uint32_t reg, uint32_t *v)
{
    weft_t *w = o->w;
    pthread_mutex_lock(&w->hwobj_lock);
    int rc = w->platform->ops->mmio_write(w->platform, WEFT_REG_SYNC_INSPECT, o->index);
    if (rc == 0)
        rc = w->platform->ops->mmio_read(w->platform, reg, v);
    pthread_mutex_unlock(&w->hwobj_lock);
    return rc;
}

static int state(weft_hwobj_t *o, uint32_t *st)
{
    return inspect(o, WEFT_REG_SYNC_STATE, st);
}

int weft_hwsync_waiters(const void *object, unsigned *waiters)
{
    weft_hwobj_t *o = NULL;
    for (unsigned t = WEFT_SYNC_TYPE_SEM; t <= WEFT_SYNC_TYPE_COND && !o; t++)
        o = weft_hwobj_live(object, t);
    if (!o || !waiters)
        return -EINVAL;
    uint32_t bits = 0;
    int rc = inspect(o, WEFT_REG_SYNC_WAITERS, &bits);
    if (rc == 0)
        *waiters = (unsigned)__builtin_popcount(bits);
    return rc;
}

bool weft_hwobj_valid(weft_t *w, weft_res_type_t type, const void *handle)
{
    unsigned t = type == WEFT_RES_HWSEM     ? WEFT_SYNC_TYPE_SEM
                 : type == WEFT_RES_HWMUTEX ? WEFT_SYNC_TYPE_MUTEX
                                            : WEFT_SYNC_TYPE_COND;
    /* A resource array is input: the pointer must be one of w's objects before it is read
     * (compared as addresses: it may point anywhere). */
    uintptr_t p = (uintptr_t)handle, base = (uintptr_t)w->hwobj;
    if (p < base || p - base >= w->num_hwobj * sizeof(*w->hwobj) ||
        (p - base) % sizeof(*w->hwobj) != 0)
        return false;
    return weft_hwobj_live(handle, t) != NULL;
}

unsigned weft_hwobj_index(const void *handle)
{
    return ((const weft_hwobj_t *)handle)->index;
}

int weft_hwsem_create(weft_t *w, unsigned value, unsigned max, weft_hwsem_t **out)
{
    if (!w || !out || max == 0 || max > 0xffffu || value > max)
        return -EINVAL;
    weft_hwobj_t *o = NULL;
    int rc = create(w, WEFT_SYNC_TYPE_SEM, 0, false, value | max << WEFT_SYNC_CFG_MAX_SHIFT, &o);
    if (rc == 0)
        *out = (weft_hwsem_t *)o;
    return rc;
}

int weft_hwsem_getvalue(weft_hwsem_t *sem, unsigned *value)
{
    weft_hwobj_t *o = weft_hwobj_live(sem, WEFT_SYNC_TYPE_SEM);
    if (!o || !value)
        return -EINVAL;
    uint32_t st = 0;
    int rc = state(o, &st);
    if (rc == 0)
        *value = st >> WEFT_SYNC_STATE_COUNT_SHIFT;
    return rc;
}

int weft_hwsem_destroy(weft_hwsem_t *sem)
{
    return destroy(weft_hwobj_live(sem, WEFT_SYNC_TYPE_SEM));
}

int weft_hwmutex_create(weft_t *w, int type, int protocol, weft_hwmutex_t **out)
{
    unsigned kind;
    switch (type) {
    case PTHREAD_MUTEX_NORMAL:
        kind = WEFT_SYNC_KIND_NORMAL;
        break;
    case PTHREAD_MUTEX_RECURSIVE:
        kind = WEFT_SYNC_KIND_RECURSIVE;
        break;
    case PTHREAD_MUTEX_ERRORCHECK:
        kind = WEFT_SYNC_KIND_ERRORCHECK;
        break;
    default:
        /* PTHREAD_MUTEX_DEFAULT is PTHREAD_MUTEX_NORMAL on Linux; anything else is not a
         * kind. */
        return -EINVAL;
    }
    if (!w || !out || (protocol != PTHREAD_PRIO_NONE && protocol != PTHREAD_PRIO_INHERIT))
        return -EINVAL;
    weft_hwobj_t *o = NULL;
    int rc = create(w, WEFT_SYNC_TYPE_MUTEX, kind, protocol == PTHREAD_PRIO_INHERIT, 0, &o);
    if (rc == 0)
        *out = (weft_hwmutex_t *)o;
    return rc;
}

int weft_hwmutex_depth(weft_hwmutex_t *m, unsigned *depth)
{
    weft_hwobj_t *o = weft_hwobj_live(m, WEFT_SYNC_TYPE_MUTEX);
    if (!o || !depth)
        return -EINVAL;
    uint32_t st = 0;
    int rc = state(o, &st);
    if (rc == 0)
        *depth = st >> WEFT_SYNC_STATE_COUNT_SHIFT;
    return rc;
}

int weft_hwmutex_destroy(weft_hwmutex_t *m)
{
    return destroy(weft_hwobj_live(m, WEFT_SYNC_TYPE_MUTEX));
}

int weft_hwcond_create(weft_t *w, weft_hwcond_t **out)
{
    if (!w || !out)
        return -EINVAL;
    weft_hwobj_t *o = NULL;
    int rc = create(w, WEFT_SYNC_TYPE_COND, 0, false, 0, &o);
    if (rc == 0)
        *out = (weft_hwcond_t *)o;
    return rc;
}

int weft_hwcond_destroy(weft_hwcond_t *c)
{
    return destroy(weft_hwobj_live(c, WEFT_SYNC_TYPE_COND));
}

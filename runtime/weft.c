/*
 * The runtime object: start-up checks, shutdown, the fabric cycle counter and logging.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "weft_internal.h"

static void log_stderr(void *arg, const char *msg)
{
    (void)arg;
    fprintf(stderr, "weft: %s\n", msg);
}

void weft_log(weft_t *w, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (!w) {
        log_stderr(NULL, line);
        return;
    }
    /* Held while the sink runs: messages never interleave, and weft_set_log() cannot
     * swap the sink out from under a message being written. */
    pthread_mutex_lock(&w->log_lock);
    w->log_fn(w->log_arg, line);
    pthread_mutex_unlock(&w->log_lock);
}

void weft_set_log(weft_t *w, void (*fn)(void *arg, const char *msg), void *arg)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->log_lock);
    w->log_fn = fn ? fn : log_stderr;
    w->log_arg = fn ? arg : NULL;
    pthread_mutex_unlock(&w->log_lock);
}

int weft_read_counter64(weft_platform_t *p, uint32_t lo, uint32_t hi, uint64_t *value)
{
    uint32_t l, h;
    int rc = p->ops->mmio_read(p, lo, &l); /* latches HI */
    if (rc == 0)
        rc = p->ops->mmio_read(p, hi, &h);
    if (rc == 0)
        *value = ((uint64_t)h << 32) | l;
    return rc;
}

/* MEM_ACTIVE reads a stopped slot may take: a burst of at most 256 beats completes in a
 * few hundred fabric cycles, and each read takes several; a bus that never answers must
 * not hang the caller. */
#define STOP_DRAIN_READS 100000u

int weft_slot_stop(weft_platform_t *p, unsigned slot)
{
    int rc = p->ops->mmio_write(p, WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET);
    /* A burst the slot was granted before the reset still completes on the bus. Wait for
     * it, so that nothing the stopped thread issued lands in memory after this returns
     * (its buffers may be freed, the slot given to another thread). */
    for (unsigned i = 0; rc == 0 && i < STOP_DRAIN_READS; i++) {
        uint32_t active = 0;
        rc = p->ops->mmio_read(p, WEFT_SLOT_REG(slot, WEFT_SLOT_REG_MEM_ACTIVE), &active);
        if (rc == 0 && !(active & WEFT_MEM_ACTIVE_BUSY))
            return 0;
    }
    return rc != 0 ? rc : -ETIMEDOUT;
}

/* What a WEFT_SERVICE_* bit names, in a sentence. */
static const char *service_name(uint32_t service)
{
    switch (service) {
    case WEFT_SERVICE_SYNC:
        return "synchronisation manager";
    case WEFT_SERVICE_THREADS:
        return "thread manager";
    case WEFT_SERVICE_EVENTS:
        return "thread manager events (timers, interrupt lines)";
    case WEFT_SERVICE_FRI:
        return "reconfiguration interface";
    case WEFT_SERVICE_LINKS:
        return "hardware links";
    default:
        return "such service";
    }
}

int weft_no_service(weft_t *w, const char *call, uint32_t service)
{
    weft_log(w,
             "%s: this platform's static region has no %s (SERVICES = %#x; its description "
             "chooses the services, docs/platform.md)",
             call, service_name(service), (unsigned)w->services);
    return -ENODEV;
}

uint32_t weft_services(const weft_t *w)
{
    return w ? w->services : 0;
}

/* Check the register window and read the slot count. */
static int probe(weft_platform_t *p, unsigned *num_slots)
{
    uint32_t id, version, nregs;
    int rc = p->ops->mmio_read(p, WEFT_REG_ID, &id);
    if (rc != 0)
        return rc;
    if (id != WEFT_REG_ID_VALUE)
        return -ENODEV;
    rc = p->ops->mmio_read(p, WEFT_REG_VERSION, &version);
    if (rc != 0)
        return rc;
    if (version != WEFT_OSIF_VERSION)
        return -EPROTO;
    rc = p->ops->mmio_read(p, WEFT_REG_NUM_SLOTS, &nregs);
    if (rc != 0)
        return rc;
    /* The register window and the backend must agree; trust the smaller. */
    unsigned n = p->ops->num_slots(p);
    if (nregs < n)
        n = nregs;
    *num_slots = n;
    return 0;
}

int weft_init(weft_t **out, weft_platform_t *platform)
{
    if (!out || !platform || !platform->ops)
        return -EINVAL;

    unsigned n;
    int rc = probe(platform, &n);
    if (rc != 0)
        return rc;

    weft_t *w = calloc(1, sizeof(*w));
    if (!w)
        return -ENOMEM;
    w->slots = calloc(n ? n : 1, sizeof(*w->slots));
    if (!w->slots) {
        free(w);
        return -ENOMEM;
    }
    w->platform = platform;
    w->num_slots = n;
    w->log_fn = log_stderr;
    /* A register window that does not reach the OS services' window holds none. */
    rc = platform->ops->mmio_read(platform, WEFT_REG_SERVICES, &w->services);
    if (rc == -EINVAL) {
        w->services = 0;
        rc = 0;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_mutex_init(&w->cycle_lock, NULL);
    pthread_mutex_init(&w->log_lock, NULL);
    pthread_mutex_init(&w->svc_lock, NULL);
    atomic_init(&w->svc_stop, false);

    for (unsigned s = 0; s < n && rc == 0; s++) {
        rc = weft_slot_stop(platform, s);
        if (rc == 0)
            rc = platform->ops->mmio_write(platform, WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT),
                                           WEFT_FAULT_ALL);
        /* No staging into memory an earlier runtime gave (kept across RESET). */
        if (rc == 0)
            rc = platform->ops->mmio_write(platform, WEFT_SLOT_REG(s, WEFT_SLOT_REG_OSIF_REQ_BUF),
                                           0);
    }
    weft_dma_region_t region;
    if (rc == 0)
        rc = platform->ops->dma_region(platform, &region);
    if (rc == 0)
        rc = weft_links_probe(w);
    if (rc == 0)
        rc = weft_hwsync_probe(w);
    if (rc == 0)
        rc = weft_tm_probe(w);
    if (rc == 0)
        rc = weft_dma_init(&w->dma, &region);
    if (rc == 0 && (rc = weft_trace_init(w)) != 0)
        weft_dma_fini(&w->dma);
    if (rc != 0) {
        weft_tm_fini(w);
        weft_hwsync_fini(w);
        free(w->links);
        pthread_mutex_destroy(&w->svc_lock);
        pthread_mutex_destroy(&w->log_lock);
        pthread_mutex_destroy(&w->cycle_lock);
        pthread_mutex_destroy(&w->lock);
        free(w->slots);
        free(w);
        return rc;
    }
    *out = w;
    return 0;
}

void weft_shutdown(weft_t *w)
{
    if (!w)
        return;

    pthread_mutex_lock(&w->lock);
    /* Ask every delegate to stop first, then wait for each: they stop in parallel. */
    for (unsigned s = 0; s < w->num_slots; s++) {
        weft_hwthread_t *t = w->slots[s];
        if (t && !t->delegate_joined) {
            atomic_store(&t->stop, WEFT_STOP_REQUESTED);
            w->platform->ops->irq_cancel(w->platform, s);
        }
    }
    for (unsigned s = 0; s < w->num_slots; s++) {
        weft_hwthread_t *t = w->slots[s];
        if (t) {
            weft_hwthread_stop(t);
            t->w = NULL; /* weft_hwthread_destroy() must not touch the runtime now */
        }
        weft_slot_stop(w->platform, s);
    }
    pthread_mutex_unlock(&w->lock);

    weft_trace_fini(w);
    weft_dma_fini(&w->dma);
    weft_svc_stop(w);
    weft_tm_fini(w);
    weft_hwsync_fini(w);
    free(w->links);
    pthread_mutex_destroy(&w->svc_lock);
    pthread_mutex_destroy(&w->log_lock);
    pthread_mutex_destroy(&w->cycle_lock);
    pthread_mutex_destroy(&w->lock);
    free(w->slots);
    free(w);
}

int weft_fabric_cycles(weft_t *w, uint64_t *cycles)
{
    if (!w || !cycles)
        return -EINVAL;
    pthread_mutex_lock(&w->cycle_lock);
    int rc = weft_read_counter64(w->platform, WEFT_REG_CYCLE_LO, WEFT_REG_CYCLE_HI, cycles);
    pthread_mutex_unlock(&w->cycle_lock);
    return rc;
}

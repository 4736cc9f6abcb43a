#!/usr/bin/env python3
"""Writes the C source of weft._native, the compiled half of the weft Python package
(docs/python.md), with cffi's out-of-line API mode.

API mode compiles the bindings against Weft's real headers, so the C compiler, not a
hand-written copy of each struct, decides every field's offset and every constant's value:
the declarations below list only what Python touches, and "...;" leaves the rest to the
compiler. A header that changes a type the package uses fails the build, not a run.

usage: build_native.py OUTPUT.c
"""
import sys

import cffi

CDEF = """
typedef struct weft weft_t;
typedef struct weft_hwthread weft_hwthread_t;
typedef struct weft_link weft_link_t;
typedef struct weft_platform weft_platform_t;

typedef enum { WEFT_RES_NONE, WEFT_RES_SEM, WEFT_RES_MUTEX, WEFT_RES_COND, WEFT_RES_MBOX,
               WEFT_RES_MQ, WEFT_RES_LINK, WEFT_RES_HWSEM, WEFT_RES_HWMUTEX, WEFT_RES_HWCOND,
               ... } weft_res_type_t;
typedef struct { weft_res_type_t type; void *object; } weft_resource_t;
typedef struct { uint64_t bus; uint64_t size; unsigned perm; } weft_mem_window_t;
#define WEFT_MEM_READ ...
#define WEFT_MEM_WRITE ...
#define WEFT_MAX_WINDOWS ...
typedef struct {
    const char *name; const char *image; unsigned slot;
    const weft_resource_t *resources; unsigned num_resources; uint32_t init_data;
    const weft_mem_window_t *windows; unsigned num_windows;
    int resume; uint32_t resume_state;
    int accelerator; const uint64_t *acc_args; unsigned num_acc_args;
    ...;
} weft_hwthread_attr_t;
typedef enum { WEFT_EXIT_NORMAL, WEFT_EXIT_FAULTED, WEFT_EXIT_STOPPED, WEFT_EXIT_YIELDED,
               ... } weft_exit_kind_t;
typedef struct { uint32_t addr; uint32_t length; int write; } weft_mem_fault_t;
typedef struct {
    weft_exit_kind_t kind; uint32_t value; char message[...]; int mem_faulted;
    weft_mem_fault_t mem_fault; ...;
} weft_exit_status_t;
typedef struct {
    uint64_t calls; uint64_t link_calls; uint64_t busy_cycles; uint64_t cond_fallbacks; ...;
} weft_hwthread_stats_t;

typedef struct { size_t dma_size; uint32_t dma_bus_base; uint32_t flags;
                 const char *image_dir; const char *waves; ...; } weft_sim_config_t;
int weft_sim_open(weft_platform_t **out, const weft_sim_config_t *cfg);

int weft_init(weft_t **out, weft_platform_t *platform);
void weft_shutdown(weft_t *w);
int weft_mem_alloc(weft_t *w, size_t size, void **cpu, uint64_t *bus);
int weft_mem_free(weft_t *w, void *cpu);
uint64_t weft_mem_bus_addr(weft_t *w, const void *cpu);
int weft_link_get(weft_t *w, unsigned index, weft_link_t **out);
int weft_hwthread_create(weft_t *w, weft_hwthread_t **out, const weft_hwthread_attr_t *attr);
int weft_hwthread_timedjoin(weft_hwthread_t *t, weft_exit_status_t *status, int timeout_ms);
int weft_hwthread_stats(weft_hwthread_t *t, weft_hwthread_stats_t *stats);
int weft_hwthread_destroy(weft_hwthread_t *t);
int weft_hwthread_signal(weft_hwthread_t *t, unsigned signals);
int weft_fabric_cycles(weft_t *w, uint64_t *cycles);
int weft_trace_start_max(weft_t *w, size_t max_events);
void weft_trace_stop(weft_t *w);
int weft_trace_write(weft_t *w, const char *path);

typedef struct { ...; } weft_mbox_t;
int weft_mbox_init(weft_mbox_t *mb, unsigned capacity);
int weft_mbox_destroy(weft_mbox_t *mb);
int weft_mbox_put(weft_mbox_t *mb, uint32_t word);
int weft_mbox_timedput(weft_mbox_t *mb, uint32_t word, int timeout_ms);
int weft_mbox_timedget(weft_mbox_t *mb, uint32_t *word, int timeout_ms);
int weft_mbox_get(weft_mbox_t *mb, uint32_t *word);

typedef struct { ...; } sem_t;
typedef struct { ...; } pthread_mutex_t;
typedef struct { ...; } pthread_cond_t;
typedef int mqd_t;

/* Bounded waits of the runtime (runtime/wait_slice.h): at most ms milliseconds on
 * CLOCK_MONOTONIC, 0 or a negative errno; the package waits in slices of them. */
int weft_slice_sem_wait(sem_t *sem, int ms);
int weft_slice_mutex_lock(pthread_mutex_t *m, int ms);
int weft_slice_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, int ms);
int weft_slice_mq_send(mqd_t q, const char *msg, size_t len, unsigned prio, int ms);
int weft_slice_mq_receive(mqd_t q, char *buf, size_t size, unsigned *prio, size_t *len, int ms);

/* The synchronisation manager's objects (weft/hwsync.h). */
typedef struct weft_hwsem weft_hwsem_t;
typedef struct weft_hwmutex weft_hwmutex_t;
typedef struct weft_hwcond weft_hwcond_t;
#define PTHREAD_MUTEX_NORMAL ...
#define PTHREAD_MUTEX_RECURSIVE ...
#define PTHREAD_MUTEX_ERRORCHECK ...
#define PTHREAD_PRIO_NONE ...
#define PTHREAD_PRIO_INHERIT ...
unsigned weft_hwsync_objects(weft_t *w);
unsigned weft_hwsync_contexts(weft_t *w);
int weft_hwsem_create(weft_t *w, unsigned value, unsigned max, weft_hwsem_t **out);
int weft_hwsem_getvalue(weft_hwsem_t *sem, unsigned *value);
int weft_hwsem_destroy(weft_hwsem_t *sem);
int weft_hwsem_post(weft_hwsem_t *sem);
int weft_hwsem_trywait(weft_hwsem_t *sem);
int weft_hwmutex_create(weft_t *w, int type, int protocol, weft_hwmutex_t **out);
int weft_hwmutex_depth(weft_hwmutex_t *m, unsigned *depth);
int weft_hwmutex_destroy(weft_hwmutex_t *m);
int weft_hwmutex_trylock(weft_hwmutex_t *m);
int weft_hwmutex_unlock(weft_hwmutex_t *m);
int weft_hwcond_create(weft_t *w, weft_hwcond_t **out);
int weft_hwcond_destroy(weft_hwcond_t *c);
int weft_hwcond_signal(weft_hwcond_t *c);
int weft_hwcond_broadcast(weft_hwcond_t *c);
int weft_hwsync_set_priority(weft_t *w, unsigned prio);
/* Their blocking calls for at most ms milliseconds (-ETIMEDOUT after), as the slices. */
int pyweft_hwsem_wait(weft_hwsem_t *sem, int ms);
int pyweft_hwmutex_lock(weft_hwmutex_t *m, int ms);
int pyweft_hwcond_wait(weft_hwcond_t *c, weft_hwmutex_t *m, int ms);

/* The helpers below (pyweft_*) answer 0 or a negative errno as the rest of Weft does. */
void pyweft_platform_close(weft_platform_t *p);
unsigned pyweft_num_slots(weft_platform_t *p);
int pyweft_sem_init(sem_t *s, unsigned value);
int pyweft_sem_destroy(sem_t *s);
int pyweft_sem_post(sem_t *s);
int pyweft_sem_value(sem_t *s);
int pyweft_mutex_init(pthread_mutex_t *m);
int pyweft_mutex_destroy(pthread_mutex_t *m);
int pyweft_mutex_unlock(pthread_mutex_t *m);
int pyweft_cond_init(pthread_cond_t *c);
int pyweft_cond_destroy(pthread_cond_t *c);
int pyweft_cond_signal(pthread_cond_t *c, int broadcast);
int pyweft_mq_open(const char *name, long maxmsg, long msgsize, mqd_t *out);
int pyweft_mq_close(mqd_t q, const char *unlink_name);
"""

SOURCE = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>

#include <time.h>

#include "deadline.h"
#include "wait_slice.h"
#include "weft/hwsync.h"
#include "weft/mbox.h"
#include "weft/platform.h"
#include "weft/sim.h"
#include "weft/trace.h"
#include "weft/weft.h"

/* -errno of a call that sets errno; a pthread call returns its error itself. */
static int pyweft_errno(int rc) { return rc == 0 ? 0 : -errno; }

int pyweft_hwsem_wait(weft_hwsem_t *sem, int ms)
{
    struct timespec t = weft_deadline_after(CLOCK_REALTIME, ms);
    return weft_hwsem_timedwait(sem, &t);
}
int pyweft_hwmutex_lock(weft_hwmutex_t *m, int ms)
{
    struct timespec t = weft_deadline_after(CLOCK_REALTIME, ms);
    return weft_hwmutex_timedlock(m, &t);
}
int pyweft_hwcond_wait(weft_hwcond_t *c, weft_hwmutex_t *m, int ms)
{
    struct timespec t = weft_deadline_after(CLOCK_REALTIME, ms);
    return weft_hwcond_timedwait(c, m, &t);
}

void pyweft_platform_close(weft_platform_t *p) { p->ops->close(p); }
unsigned pyweft_num_slots(weft_platform_t *p) { return p->ops->num_slots(p); }

int pyweft_sem_init(sem_t *s, unsigned value) { return pyweft_errno(sem_init(s, 0, value)); }
int pyweft_sem_destroy(sem_t *s) { return pyweft_errno(sem_destroy(s)); }
int pyweft_sem_post(sem_t *s) { return pyweft_errno(sem_post(s)); }
int pyweft_sem_value(sem_t *s)
{
    int v = 0;
    return sem_getvalue(s, &v) == 0 ? v : -errno;
}

int pyweft_mutex_init(pthread_mutex_t *m) { return -pthread_mutex_init(m, NULL); }
int pyweft_mutex_destroy(pthread_mutex_t *m) { return -pthread_mutex_destroy(m); }
int pyweft_mutex_unlock(pthread_mutex_t *m) { return -pthread_mutex_unlock(m); }

int pyweft_cond_init(pthread_cond_t *c) { return -pthread_cond_init(c, NULL); }
int pyweft_cond_destroy(pthread_cond_t *c) { return -pthread_cond_destroy(c); }
int pyweft_cond_signal(pthread_cond_t *c, int broadcast)
{
    return -(broadcast ? pthread_cond_broadcast(c) : pthread_cond_signal(c));
}

int pyweft_mq_open(const char *name, long maxmsg, long msgsize, mqd_t *out)
{
    struct mq_attr attr = {.mq_maxmsg = maxmsg, .mq_msgsize = msgsize};
    mqd_t q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
    if (q == (mqd_t)-1)
        return -errno;
    *out = q;
    return 0;
}
int pyweft_mq_close(mqd_t q, const char *unlink_name)
{
    int rc = mq_close(q) == 0 ? 0 : -errno;
    if (unlink_name != NULL && mq_unlink(unlink_name) != 0 && rc == 0)
        rc = -errno;
    return rc;
}
"""


def main():
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source("weft._native", SOURCE)
    ffi.emit_c_code(sys.argv[1])


if __name__ == "__main__":
    main()

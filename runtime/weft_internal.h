/**
 * @file weft_internal.h
 * @brief Private state of libweft: the runtime, a hardware thread, and the helpers the
 *        runtime's files share. Not installed; nothing outside runtime/ and its unit tests
 *        includes it.
 */
#ifndef WEFT_INTERNAL_H
#define WEFT_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/weft.h"
#include "dma_alloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest a delegate stays in one wait before it re-checks its stop request (ms). */
#define WEFT_WAIT_SLICE_MS 20

/** Length of a hardware thread's name, terminator included. */
#define WEFT_NAME_MAX 64u

/** The runtime. */
struct weft {
    weft_platform_t *platform;
    unsigned num_slots;
    pthread_mutex_t lock;        /**< guards slots[] */
    weft_hwthread_t **slots;     /**< thread holding each slot, NULL when free */
    pthread_mutex_t cycle_lock;  /**< serialises CYCLE_LO/CYCLE_HI pairs */
    pthread_mutex_t log_lock;    /**< guards log_fn/log_arg and serialises messages */
    void (*log_fn)(void *arg, const char *msg);
    void *log_arg;
    weft_dma_t dma;
};

/** Why a delegate should stop; 0 while it should run on. */
enum weft_stop_request {
    WEFT_STOP_NONE = 0,
    WEFT_STOP_REQUESTED = 1, /**< destroy or shutdown: end as WEFT_EXIT_STOPPED */
};

/** A hardware thread and its delegate. */
struct weft_hwthread {
    weft_t *w;                   /**< NULL once weft_shutdown() has released it */
    weft_platform_t *platform;
    char name[WEFT_NAME_MAX];
    unsigned slot;
    weft_resource_t *res;        /**< copy of the resource array */
    unsigned num_res;
    uint32_t init_data;

    pthread_t delegate;
    bool delegate_joined;        /**< pthread_join() done (by destroy or shutdown) */
    atomic_int stop;             /**< enum weft_stop_request */
    atomic_uint_fast64_t calls;  /**< requests served */
    bool *held;                  /**< held[h]: the delegate holds mutex handle h for the thread */

    pthread_mutex_t lock;        /**< guards done, status, busy_final, BUSY_LO/HI pairs */
    pthread_cond_t ended;        /**< CLOCK_MONOTONIC; broadcast when done turns true */
    bool done;
    weft_exit_status_t status;
    uint64_t busy_final;         /**< BUSY counter read just before the slot was reset */
};

/** Send one formatted line to the runtime's log. */
void weft_log(weft_t *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Read a 64-bit counter latched as LO (read first) then HI. Caller serialises. */
int weft_read_counter64(weft_platform_t *p, uint32_t lo, uint32_t hi, uint64_t *value);

/** Stop a slot: CONTROL = RESET (RUN = 0, IRQ_EN = 0). */
int weft_slot_stop(weft_platform_t *p, unsigned slot);

/** Body of a hardware thread's delegate (pthread start routine; arg is the thread). */
void *weft_delegate_main(void *arg);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_INTERNAL_H */

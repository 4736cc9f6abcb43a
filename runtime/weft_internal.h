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

#include "dma_alloc.h"
#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest a delegate stays in one wait before it re-checks its stop request (ms). */
#define WEFT_WAIT_SLICE_MS 20

/** A COND_WAIT nobody signals is answered OK (a spurious wake-up) after this long (ms). */
#define WEFT_COND_WAKE_MS 1000

/** Longest a delegate's interrupt wait lasts before it re-checks its stop request (ms);
 *  irq_cancel() normally ends the wait at once. */
#define WEFT_IRQ_WAIT_MS 500

/** Length of a hardware thread's name, terminator included. */
#define WEFT_NAME_MAX 64u

/** A hardware link, as the register window describes it. */
struct weft_link {
    weft_t *w;
    unsigned index, from, to, depth;
};

/** The runtime. */
struct weft {
    weft_platform_t *platform;
    unsigned num_slots;
    uint32_t services;          /**< the OS services of the static region (SERVICES) */
    pthread_mutex_t lock;       /**< guards slots[] */
    weft_hwthread_t **slots;    /**< thread holding each slot, NULL when free */
    pthread_mutex_t cycle_lock; /**< serialises CYCLE_LO/CYCLE_HI pairs */
    pthread_mutex_t log_lock;   /**< guards log_fn/log_arg and serialises messages */
    void (*log_fn)(void *arg, const char *msg);
    void *log_arg;
    weft_dma_t dma;
    weft_link_t *links; /**< the fabric's hardware links (LINK_INFO) */
    unsigned num_links;
    struct weft_hwobj *hwobj; /**< the synchronisation manager's objects (SYNC_INFO) */
    unsigned num_hwobj;
    pthread_mutex_t hwobj_lock; /**< guards hwobj[].type and SYNC_CFG/SYNC_INSPECT pairs */
    struct weft_swctx *swctx;   /**< the manager's software contexts (hwsync_call.c) */
    unsigned num_swctx;
    pthread_mutex_t swctx_lock;  /**< guards swctx[].used, .answered, .status */
    pthread_mutex_t shared_lock; /**< one call at a time on the shared context (swctx[0]) */
    pthread_key_t swctx_key;     /**< the calling thread's context; released at its exit */
    pthread_mutex_t svc_lock;    /**< guards svc_started */
    pthread_t svc_thread;        /**< waits on the OS services' interrupt line (svc.c) */
    bool svc_started;
    atomic_bool svc_stop;
    struct weft_tm *tm;       /**< the thread manager and the managed threads (mthread.c) */
    struct weft_trace *trace; /**< thread-timeline recording (trace.c) */
};

/** Why a delegate should stop; 0 while it should run on. */
enum weft_stop_request {
    WEFT_STOP_NONE = 0,
    WEFT_STOP_REQUESTED = 1, /**< destroy or shutdown: end as WEFT_EXIT_STOPPED */
};

/** A thread's staging block in the DMA region (docs/osif.md, "Staging"): the request
 *  buffer the static region writes each request to, then the response buffer it moves
 *  long responses from. */
typedef struct weft_stage {
    uint32_t *req;    /**< request buffer: sequence number, then the request */
    uint32_t *rsp;    /**< response buffer, WEFT_STAGE_RSP_WORDS words */
    uint64_t req_bus; /**< their bus addresses */
    uint64_t rsp_bus;
    uint32_t seq; /**< sequence number of the last request taken */
} weft_stage_t;

/** A hardware thread and its delegate. */
struct weft_hwthread {
    weft_t *w; /**< NULL once weft_shutdown() has released it */
    weft_platform_t *platform;
    char name[WEFT_NAME_MAX];
    unsigned slot;
    weft_resource_t *res; /**< copy of the resource array */
    unsigned num_res;
    uint32_t init_data;

    pthread_t delegate;
    bool delegate_joined; /**< pthread_join() done (by destroy or shutdown) */
    atomic_int stop;      /**< enum weft_stop_request */
    atomic_uint signals;  /**< WEFT_SIGNAL_* bits sent and pending */
    int resume;           /**< created to resume (GET_RESUME_STATE) */
    uint32_t resume_state;
    unsigned sync_priority; /**< SYNC_PRIO: its calls' priority in the synchronisation manager */
    atomic_uint_fast64_t calls;          /**< requests served */
    atomic_uint_fast64_t cond_fallbacks; /**< condition waits ended by the fallback wake-up */
    unsigned *held;      /**< held[k]: times the delegate locked mutex key k for the thread */
    unsigned *mutex_key; /**< mutex_key[h]: first handle bound to the same object as h */
    weft_mem_window_t windows[WEFT_MAX_WINDOWS]; /**< memory it was granted (for messages) */
    unsigned num_windows;
    bool accelerator; /**< an HLS-style accelerator (docs/hls.md), not a Weft thread */
    uint64_t acc_args[WEFT_HLS_MAX_ARGS];
    unsigned num_acc_args;

    pthread_mutex_t lock; /**< guards done, status, busy_final, BUSY_LO/HI pairs */
    pthread_cond_t ended; /**< CLOCK_MONOTONIC; broadcast when done turns true */
    bool done;
    bool slot_stopped; /**< the slot was reset on the way to done; busy_final is final */
    weft_exit_status_t status;
    uint64_t busy_final;       /**< BUSY counter read just before the slot was reset */
    uint64_t link_calls_final; /**< LINK_CALLS read just before the slot was reset */
    bool exited;               /**< the delegate has finished with t (guarded by lock) */
    bool abandoned;            /**< destroy or shutdown stopped waiting for the delegate: it must
                                    not touch the slot, the platform or the runtime any more */
    bool released;             /**< destroy is done with t: an abandoned delegate frees it */
    pthread_cond_t *parked;    /**< the condition the delegate waits on, NULL when it does
                                    not (see delegate.c) */
    weft_stage_t stage;        /**< request staging and response buffers (osif_stage.c) */
    void *owned_mem; /**< shared memory of the thread's (a softcore's program image), freed
                          with its staging buffers */
    /** Takes the thread's console output (a softcore's, softcore.c); NULL: none taken. */
    void (*console)(void *arg, const char *bytes, size_t n);
    void *console_arg;
};

/** What a hardware thread of the runtime's own kinds has besides its attributes. */
typedef struct weft_hwthread_extras {
    void *owned_mem; /**< from weft_mem_alloc(): the thread's from the create call on */
    void (*console)(void *arg, const char *bytes, size_t n); /**< see weft_hwthread_t */
    void *console_arg;
} weft_hwthread_extras_t;

/** weft_hwthread_create() with extras (NULL: none); x->owned_mem is freed when the
 *  thread is destroyed, or at once when the call fails. */
int weft_hwthread_create_with(weft_t *w, weft_hwthread_t **out, const weft_hwthread_attr_t *attr,
                              const weft_hwthread_extras_t *x);

/** Send one formatted line to the runtime's log. */
void weft_log(weft_t *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Read a 64-bit counter latched as LO (read first) then HI. Caller serialises. */
int weft_read_counter64(weft_platform_t *p, uint32_t lo, uint32_t hi, uint64_t *value);

/** Stop a slot: CONTROL = RESET (RUN = 0, IRQ_EN = 0), then wait until MEM_ACTIVE says
 *  the slot's memory traffic is over. 0, a platform error, or -ETIMEDOUT when the bus
 *  never completed the slot's last burst. */
int weft_slot_stop(weft_platform_t *p, unsigned slot);

/** Every FAULT bit, for clearing them all. */
#define WEFT_FAULT_ALL (WEFT_FAULT_MEM | WEFT_FAULT_OVERFLOW | WEFT_FAULT_STAGE | WEFT_FAULT_ACC)

/** An object of the synchronisation manager (hwsync.c); weft_hwsem_t, weft_hwmutex_t
 *  and weft_hwcond_t point to one. */
typedef struct weft_hwobj {
    weft_t *w;
    unsigned index; /**< its number in the manager */
    unsigned type;  /**< WEFT_SYNC_TYPE_*: NONE while free */
} weft_hwobj_t;

/** A software context of the synchronisation manager (hwsync_call.c): the seat of one
 *  pthread, which keeps it while it lives (a mutex's holder is the context). */
typedef struct weft_swctx {
    weft_t *w;
    unsigned index;               /**< context c: the manager's client num_slots + c */
    bool used;                    /**< a thread holds it */
    bool answered;                /**< the interrupt thread has its answer, in status */
    bool io_error;                /**< ...or could not read it (a bus error) */
    bool stale;                   /**< a call's answer was not taken (a bus error): settle first */
    uint8_t status;               /**< that answer (an OSIF status) */
    unsigned prio;                /**< its priority in the manager's queues (SYNC_CTX_CTRL) */
    struct weft_mthread *managed; /**< a managed thread waiting in the thread manager for
                                       the answer: deliver() signals it */
    pthread_cond_t cond;          /**< broadcast when answered turns true */
} weft_swctx_t;

/** A global register of the runtime's platform (the OS services' blocks use these). */
static inline int weft_reg_read(weft_t *w, uint32_t off, uint32_t *v)
{
    return w->platform->ops->mmio_read(w->platform, off, v);
}

/** Write a global register of the runtime's platform. */
static inline int weft_reg_write(weft_t *w, uint32_t off, uint32_t v)
{
    return w->platform->ops->mmio_write(w->platform, off, v);
}

/**
 * Refuse a call on an OS service the platform's static region does not hold: log
 * "CALL: ..." naming the service (one of WEFT_SERVICE_*) and return -ENODEV.
 */
int weft_no_service(weft_t *w, const char *call, uint32_t service);

/** Read the synchronisation manager's size (SYNC_INFO) and set up its objects. */
int weft_hwsync_probe(weft_t *w);
/** Set up the software contexts (SYNC_INFO's count), each reset in the fabric. */
int weft_swctx_probe(weft_t *w, unsigned n);
/** Free the contexts (weft_svc_stop() first). */
void weft_swctx_fini(weft_t *w);
/** Wake the threads whose armed contexts have their answers (the interrupt thread). */
void weft_swctx_service(weft_t *w);
/** Start the OS services' interrupt thread if it is not running (svc.c). */
int weft_svc_start(weft_t *w);
/** Stop it, if it runs. */
void weft_svc_stop(weft_t *w);
/** Read the thread manager's size (TM_INFO) and set it up (mthread.c). */
int weft_tm_probe(weft_t *w);
/** Free what weft_tm_probe() set up (weft_svc_stop() first). */
void weft_tm_fini(weft_t *w);
/** Follow a change of the thread manager's decision (the interrupt thread). */
void weft_tm_service(weft_t *w);
/** In a managed thread, block the preemption signal for a Weft call (one must not stop
 *  holding the runtime's locks); returns whether this call blocked it. */
bool weft_preempt_block(void);
/** Unblock it if weft_preempt_block() returned true. */
void weft_preempt_restore(bool blocked_here);
/** Free what weft_hwsync_probe() set up. */
void weft_hwsync_fini(weft_t *w);
/** Whether handle is a live object of w of the type a WEFT_RES_HW* resource names. */
bool weft_hwobj_valid(weft_t *w, weft_res_type_t type, const void *handle);
/** The object behind a handle of type `type` (WEFT_SYNC_TYPE_*), or NULL when it is none
 *  of its runtime's live ones. */
weft_hwobj_t *weft_hwobj_live(const void *handle, unsigned type);
/** The manager's number of a live object. */
unsigned weft_hwobj_index(const void *handle);

/** Read the fabric's hardware links (NUM_LINKS, LINK_INFO) into w. */
int weft_links_probe(weft_t *w);

/** Whether a running hardware thread has link l bound. Caller holds w->lock. */
bool weft_link_in_use(weft_t *w, unsigned l);

/** Stop a thread's delegate (if it runs) and wait for it, at most WEFT_ABANDON_MS before
 *  abandoning it (see weft_hwthread_destroy()); the thread has ended after. */
void weft_hwthread_stop(weft_hwthread_t *t);

/** Count a delegate left to finish alone, and its end (see weft_wait_abandoned()). */
void weft_abandoned_add(void);
void weft_abandoned_done(void);

/** Free a thread object and what it owns. */
void weft_hwthread_free(weft_hwthread_t *t);

/** Body of a hardware thread's delegate (pthread start routine; arg is the thread). */
void *weft_delegate_main(void *arg);

/** Set up and free the runtime's trace recording (trace.c, include/weft/trace.h). */
int weft_trace_init(weft_t *w);
void weft_trace_fini(weft_t *w);

/** A hardware thread's track in the trace: created, an OS call the delegate has taken in
 *  full, the response written, ended. Each returns at once while nothing is recorded;
 *  none may be called by an abandoned delegate (t->w may be gone). */
void weft_trace_hw_created(weft_hwthread_t *t);
void weft_trace_hw_call(weft_hwthread_t *t, uint8_t cmd, uint16_t handle);
void weft_trace_hw_served(weft_hwthread_t *t, uint8_t status);
void weft_trace_hw_ended(weft_hwthread_t *t, weft_exit_kind_t kind, uint32_t value);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_INTERNAL_H */

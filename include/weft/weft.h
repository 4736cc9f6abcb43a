/**
 * @file weft.h
 * @brief libweft: one programming model for software and hardware threads.
 *
 * Software threads are pthreads using native POSIX objects (sem_t, pthread_mutex_t,
 * pthread_cond_t, mqd_t) and Weft mailboxes. A hardware thread runs in a slot of the fabric; its
 * resource array binds the small integer handles its RTL uses to those same objects, and
 * one delegate thread per hardware thread carries out its OS calls on them.
 *
 * Errors are negative errno values; nothing here aborts on a caller's mistake.
 */

/**
 * @mainpage Weft API reference
 *
 * The C API of Weft, generated from the comments of its public headers (`make api-docs`).
 * The guides are in the source tree's docs/: getting-started.md to write a program and
 * a hardware thread, calls.md for every OS call a hardware thread makes, hwt-api.md for
 * the RTL side.
 *
 * The headers:
 * - weft/weft.h: the runtime: hardware threads, their resource arrays and memory windows,
 *   shared memory, hardware links
 * - weft/mbox.h: mailboxes, the FIFOs of words software and hardware threads share
 * - weft/hwsync.h: semaphores, mutexes and condition variables of the static region's
 *   synchronisation manager, served in the fabric
 * - weft/trace.h: thread timelines, written as Chrome traces
 * - weft/reconf.h: hardware tasks loaded on demand through the reconfiguration port
 * - weft/bitstream.h: partial bitstream files, what a slot is reconfigured from
 * - weft/weftd_client.h: the client library of weftd, the server that shares the fabric
 * - weft/platform.h: the platform interface a backend implements
 * - weft/sim.h: the simulation backend, the fabric as Verilator models in this process
 * - weft/board.h: the board backend, through UIO, u-dma-buf and the FPGA manager
 * - weft/osif_protocol.h: the OSIF protocol, generated from protocol/osif.yaml
 * - weft/platform_config.h: the platform the build was made for (slots, links, DMA
 *   region, partitions, tasks), generated from its platform description
 */

#ifndef WEFT_WEFT_H
#define WEFT_WEFT_H

#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/mbox.h"
#include "weft/osif_protocol.h"
#include "weft/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The runtime of one platform, from weft_init() to weft_shutdown(): its delegates, DMA
 *  allocator and hardware links. Opaque. */
typedef struct weft weft_t;
/** A hardware thread, from weft_hwthread_create() to weft_hwthread_destroy(); join and
 *  stats stay usable after it ended. Opaque. */
typedef struct weft_hwthread weft_hwthread_t;
/** A hardware link: a FIFO in the fabric from one slot to another (platform description). */
typedef struct weft_link weft_link_t;

/** One entry of a hardware thread's resource array: handle i binds to res[i]. */
typedef struct weft_resource {
    weft_res_type_t type; /**< WEFT_RES_SEM, _MUTEX, _COND, _MBOX, _MQ, _LINK, _HWSEM,
                               _HWMUTEX or _HWCOND */
    /** sem_t *, pthread_mutex_t *, pthread_cond_t *, weft_mbox_t *, mqd_t * (a blocking
     *  descriptor whose mq_msgsize is at most 65535 bytes; a hardware thread takes
     *  messages longer than 1012 bytes only through memory, MQ_SEND_MEM and
     *  MQ_RECEIVE_MEM, docs/calls.md) or weft_link_t * (the
     *  handle is a mailbox served by the static region: the thread must sit at one end of
     *  the link) or weft_hwsem_t *, weft_hwmutex_t *, weft_hwcond_t * (weft/hwsync.h:
     *  served by the static region's synchronisation manager; at most
     *  WEFT_SLOT_REG_SYNC_BIND_COUNT runs of consecutive handles naming objects created one
     *  after another); must stay valid until the thread is destroyed */
    void *object;
} weft_resource_t;

/** Window permission (weft_mem_window_t.perm): the thread may read the window (memory
 *  to thread). */
#define WEFT_MEM_READ 0x1u
/** Window permission: the thread may write the window (thread to memory). */
#define WEFT_MEM_WRITE 0x2u
/** Window permission: the thread may both read and write the window. */
#define WEFT_MEM_RW (WEFT_MEM_READ | WEFT_MEM_WRITE)

/** Most memory windows a hardware thread can be granted (WIN_* registers of a slot). */
#define WEFT_MAX_WINDOWS 4u

/** A window of shared memory a hardware thread may access. */
typedef struct weft_mem_window {
    uint64_t bus;  /**< bus address of its first byte */
    uint64_t size; /**< bytes (> 0) */
    unsigned perm; /**< WEFT_MEM_READ and/or WEFT_MEM_WRITE */
} weft_mem_window_t;

/** Largest resource array a hardware thread can have (handles are 16 bits). */
#define WEFT_MAX_RESOURCES 65536u

/** How a hardware thread is created. */
typedef struct weft_hwthread_attr {
    const char *name; /**< name used in messages (copied; NULL: the image) */
    /** the thread's image (Verilator model .so in simulation); NULL: run the slot's
     *  configuration as it is, one the reconfiguration port programmed (weft/reconf.h;
     *  name is then required) */
    const char *image;
    unsigned slot;                    /**< slot to load it into */
    const weft_resource_t *resources; /**< resource array (copied) */
    unsigned num_resources;           /**< entries in resources, at most WEFT_MAX_RESOURCES */
    uint32_t init_data;               /**< returned by the thread's GET_INIT_DATA call */
    /** The only memory the thread may access (copied): each inside the DMA region; an
     *  access no window grants faults the thread and touches nothing */
    const weft_mem_window_t *windows;
    unsigned num_windows;  /**< entries in windows, at most what the slot has (0: none) */
    int resume;            /**< non-zero: the thread resumes from resume_state (GET_RESUME_STATE) */
    uint32_t resume_state; /**< the value a YIELDED join reported, when resume is set */
    /** Non-zero: the image is an HLS-style accelerator (docs/hls.md: an ap_ctrl_hs control
     *  block in the slot's ACC window, an AXI4 master through the slot's windows), not a
     *  Weft thread. The runtime writes acc_args to its control block from 0x10 (64 bits
     *  each, a buffer's bus address is one), starts it (ap_start) and ends the thread,
     *  NORMAL with value 0, at ap_done once its memory traffic is over. It makes no OS
     *  calls: resources and resume must be unset. */
    int accelerator;
    const uint64_t *acc_args; /**< copied */
    unsigned num_acc_args;    /**< at most WEFT_HLS_MAX_ARGS */
    /** Priority of the thread's calls on the synchronisation manager's objects
     *  (weft/hwsync.h): it waits before less urgent waiters; 0 the most urgent, at most
     *  WEFT_SYNC_PRIO_MAX */
    unsigned sync_priority;
} weft_hwthread_attr_t;

/** Most arguments an accelerator's control block holds (0x10 .. 0x3F of its window). */
#define WEFT_HLS_MAX_ARGS 6u

/** How a hardware thread ended, as join reports it. */
typedef enum weft_exit_kind {
    WEFT_EXIT_NORMAL = 0,  /**< the thread called THREAD_EXIT */
    WEFT_EXIT_FAULTED = 1, /**< stopped by the runtime: protocol or memory fault */
    WEFT_EXIT_STOPPED = 2, /**< stopped by weft_hwthread_destroy() or shutdown */
    WEFT_EXIT_YIELDED = 3, /**< the thread called THREAD_YIELD: value is its saved state */
} weft_exit_kind_t;

/** A memory access that faulted a thread (the static region's FAULT_ADDR/FAULT_INFO). */
typedef struct weft_mem_fault {
    uint32_t addr;   /**< bus address of the access */
    uint32_t length; /**< bytes it asked for */
    int write;       /**< 1: a write (thread to memory), 0: a read */
} weft_mem_fault_t;

/** Exit status of a joined hardware thread. */
typedef struct weft_exit_status {
    /** How it ended; it says which of the fields below mean something. */
    weft_exit_kind_t kind;
    uint32_t value;    /**< THREAD_EXIT value (NORMAL) or THREAD_YIELD state (YIELDED) */
    char message[256]; /**< for a fault: what happened, naming thread, slot, command, handle */
    int mem_faulted;   /**< 1: FAULTED by a memory access, described by mem_fault */
    /** The access that faulted the thread, when mem_faulted is 1. */
    weft_mem_fault_t mem_fault;
} weft_exit_status_t;

/** Per-hardware-thread counters, readable while the thread runs or after join. */
typedef struct weft_hwthread_stats {
    uint64_t calls;       /**< OS calls served by the delegate, rejected ones included */
    uint64_t link_calls;  /**< OS calls the static region served on hardware links */
    uint64_t busy_cycles; /**< fabric cycles the slot ran and was not blocked in an OS call */
    /** condition waits answered OK by the fallback wake-up after 1 s without a signal
     *  (spurious wake-ups, as POSIX allows; docs/osif.md says why they exist) */
    uint64_t cond_fallbacks;
} weft_hwthread_stats_t;

/**
 * @brief Start the runtime on a platform. Checks the register window's ID and
 *        protocol version, stops every slot, and sets up the DMA allocator.
 * @param out receives the runtime
 * @param platform an open platform; the runtime uses it but does not own it
 * @retval 0 success
 * @retval -EINVAL a NULL argument
 * @retval -ENODEV the register window's ID is not Weft's
 * @retval -EPROTO the fabric speaks another protocol version
 * @retval -ENOMEM out of memory
 */
int weft_init(weft_t **out, weft_platform_t *platform);

/**
 * @brief Stop every hardware thread still running (they join as STOPPED), stop their
 *        delegates and free the runtime. Hardware threads must still be released with
 *        weft_hwthread_destroy() (which then no longer touches the runtime or the
 *        platform); shared memory allocations are freed with the runtime. No other call
 *        on w may run concurrently. NULL is ignored.
 */
void weft_shutdown(weft_t *w);

/**
 * @brief The OS services of the fabric's static region: WEFT_SERVICE_* bits
 *        (weft/osif_protocol.h), as the platform description chose them (docs/platform.md,
 *        "Services"). A call on a service that is not there fails with -ENODEV and a
 *        log line naming it. 0 for NULL.
 */
uint32_t weft_services(const weft_t *w);

/** What a hardware link is. */
typedef struct weft_link_info {
    unsigned index; /**< its number (WEFT_LINK_<NAME> in weft/platform_config.h) */
    unsigned from;  /**< slot whose thread puts words into it */
    unsigned to;    /**< slot whose thread gets them */
    unsigned depth; /**< words it holds */
    unsigned level; /**< words in it now */
} weft_link_info_t;

/** @brief Number of hardware links of the fabric. */
unsigned weft_num_links(weft_t *w);

/**
 * @brief A hardware link, to bind into a resource array as {WEFT_RES_LINK, link}.
 * @param w the runtime whose fabric has the link
 * @param index the link's number (0 .. weft_num_links() - 1)
 * @param out receives the link; it belongs to the runtime (nothing to free)
 * @retval 0 success, *out set (valid until weft_shutdown())
 * @retval -EINVAL a NULL argument
 * @retval -ENOENT no such link
 */
int weft_link_get(weft_t *w, unsigned index, weft_link_t **out);

/**
 * @brief Describe a link, with the words waiting in it now.
 * @retval 0 success
 * @retval -EINVAL a NULL argument
 * @retval -EIO the register window could not be read
 */
int weft_link_info(weft_link_t *link, weft_link_info_t *info);

/**
 * @brief Throw away the words waiting in a link (a link keeps them across thread
 *        lifetimes, like a mailbox object). Only while no thread bound to it runs.
 * @retval 0 success
 * @retval -EINVAL a NULL argument
 * @retval -EBUSY a running thread has it bound
 * @retval -EIO the register window could not be written
 */
int weft_link_flush(weft_link_t *link);

/**
 * @brief Allocate shared memory from the DMA region.
 * @param w the runtime whose DMA region to allocate from
 * @param size bytes (rounded up to 64)
 * @param cpu receives the CPU pointer
 * @param bus receives the bus address hardware threads use
 * @retval 0 success
 * @retval -EINVAL size is 0 or a pointer is NULL
 * @retval -ENOMEM the region has no free block that large
 */
int weft_mem_alloc(weft_t *w, size_t size, void **cpu, uint64_t *bus);

/**
 * @brief Allocate shared memory from the DMA region that another process can map too:
 *        size rounded up to pages, page-aligned, its pages those of *fd (mmap it at
 *        offset 0, MAP_SHARED; it cannot be resized). weftd hands such fds to its clients.
 *        weft_mem_free() gives the range private memory again: a process still mapping
 *        the fd no longer reaches the region.
 * @retval 0 success, *cpu, *bus and *fd (the caller closes it) set
 * @retval -EINVAL size is 0 or a pointer is NULL
 * @retval -ENOMEM no free range that large
 * @retval -ENOTSUP the platform cannot share its DMA region (the board backend today)
 */
int weft_mem_share(weft_t *w, size_t size, void **cpu, uint64_t *bus, int *fd);

/**
 * @brief weft_mem_share() for n parts in one block, one after another, each rounded up
 *        to pages and with an fd of its own: one memory window covers them all (a slot
 *        has few windows; a FRED task's buffers are separate files). weft_mem_free() of
 *        *cpu frees the whole block.
 * @retval 0 success, *cpu and *bus (the first part's) and fds[0..n-1] set
 * @retval as weft_mem_share()
 */
int weft_mem_share_parts(weft_t *w, const size_t *sizes, unsigned n, void **cpu, uint64_t *bus,
                         int *fds);

/** @brief Free memory from weft_mem_alloc() or weft_mem_share().
 *  @retval -EINVAL not an allocation */
int weft_mem_free(weft_t *w, void *cpu);

/** @brief Bus address of a CPU pointer into the DMA region, or 0 when outside it. */
uint64_t weft_mem_bus_addr(weft_t *w, const void *cpu);

/**
 * @brief Load a hardware thread into its slot, bind its resources, start its delegate
 *        and let it run.
 * @retval 0 success, *out set
 * @retval -EINVAL bad attribute: NULL image, slot out of range, too many resources,
 *         an entry with an unknown type or NULL object, a link the slot is no end of or
 *         more links than the slot can bind, a memory window empty, without permission or
 *         outside the DMA region, more windows than the slot has
 * @retval -EBUSY the slot holds a thread that has not been destroyed
 * @retval -ENOENT, -ENOEXEC the image cannot be loaded
 */
int weft_hwthread_create(weft_t *w, weft_hwthread_t **out, const weft_hwthread_attr_t *attr);

/**
 * @brief Wait until the hardware thread has ended.
 * @param t the thread, which stays valid (joinable again) until weft_hwthread_destroy()
 * @param status receives how it ended (may be NULL)
 * @retval 0 success
 * @retval -EINVAL t is NULL
 */
int weft_hwthread_join(weft_hwthread_t *t, weft_exit_status_t *status);

/**
 * @brief Wait until the hardware thread has ended or timeout_ms passes.
 * @param t the thread
 * @param status receives how it ended, when it has (may be NULL)
 * @param timeout_ms 0 only polls; negative waits forever
 * @retval 0 success
 * @retval -EINVAL t is NULL
 * @retval -ETIMEDOUT still running
 */
int weft_hwthread_timedjoin(weft_hwthread_t *t, weft_exit_status_t *status, int timeout_ms);

/**
 * @brief Read the thread's counters. After the thread ended, busy_cycles is the value
 *        read just before its slot was reset.
 * @retval 0 success
 * @retval -EINVAL a NULL argument
 * @retval -EIO the register window could not be read
 */
int weft_hwthread_stats(weft_hwthread_t *t, weft_hwthread_stats_t *stats);

/**
 * @brief Stop the thread if it still runs (it ends as STOPPED), stop its delegate,
 *        free its slot. A call the thread was blocked in is abandoned; mutexes the
 *        thread held are released. The handle is invalid afterwards, so no join may be
 *        in progress. Returns within a few tens of milliseconds even when the thread
 *        waits on an object nobody posts. One case needs care: a delegate leaving a
 *        COND_WAIT must take the condition's mutex back (pthread_cond_*wait always does).
 *        If that mutex stays held (for instance by the caller of destroy), destroy stops
 *        the slot itself after WEFT_ABANDON_MS and returns; the delegate is left to finish
 *        on its own: once it gets the mutex it unlocks it and frees what is left, touching
 *        neither the slot nor the runtime. That condition variable and mutex must stay
 *        valid until weft_wait_abandoned() says the delegate has finished. weft_shutdown() does
 *        the same.
 * @retval 0 success
 * @retval -EINVAL t is NULL
 */
int weft_hwthread_destroy(weft_hwthread_t *t);

/**
 * @brief Wait until every delegate that weft_hwthread_destroy() or weft_shutdown() left to
 *        finish alone has finished (process-wide). Such a delegate waits to take back the
 *        mutex of a condition wait; call this after releasing that mutex and before
 *        destroying that condition variable or mutex.
 * @param timeout_ms negative waits forever; 0 only checks
 * @retval 0 none is left
 * @retval -ETIMEDOUT some still wait for their mutex
 */
int weft_wait_abandoned(int timeout_ms);

/** How long destroy and shutdown wait for a delegate before leaving it to finish alone (ms). */
#define WEFT_ABANDON_MS 200

/**
 * @brief Send a hardware thread signals: WEFT_SIGNAL_STOP asks it to end, WEFT_SIGNAL_YIELD
 *        to save its state and give up its slot (cooperative preemption). They stay
 *        pending until the thread ends. The thread reads them with THREAD_CHECK at its safe
 *        points; a blocking call it is in, or makes later, that would block is answered
 *        CANCELED within WEFT_SIGNAL_LATENCY_MS (a call on a hardware link at once: the
 *        static region sees CONTROL.SIGNAL). What the thread does is up to its RTL: a
 *        thread that ignores signals runs on (weft_hwthread_destroy() stops any thread).
 * @param t the thread to signal
 * @param signals a non-zero OR of WEFT_SIGNAL_* bits
 * @retval 0 sent
 * @retval -EINVAL t is NULL, or signals is 0 or has unknown bits
 * @retval -ESRCH the thread has already ended
 */
int weft_hwthread_signal(weft_hwthread_t *t, unsigned signals);

/** Longest a blocking OS call of a signalled thread goes on before it is answered CANCELED. */
#define WEFT_SIGNAL_LATENCY_MS 20

/**
 * @brief Fabric cycles since the fabric was reset (the static region's counter).
 * @retval 0 success
 * @retval -EINVAL a NULL argument
 * @retval -EIO the register window could not be read
 */
int weft_fabric_cycles(weft_t *w, uint64_t *cycles);

/**
 * @brief Where runtime messages (faults, protocol errors) go. Default: stderr.
 * @param w the runtime whose messages to redirect
 * @param fn called with each message (one line, no newline); NULL restores the default
 * @param arg passed to fn as its first argument, for the caller's own state
 */
void weft_set_log(weft_t *w, void (*fn)(void *arg, const char *msg), void *arg);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_WEFT_H */

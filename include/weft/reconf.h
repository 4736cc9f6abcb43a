/**
 * @file reconf.h
 * @brief Hardware tasks loaded on demand: requests scheduled by FRED's rules onto the
 *        slots of their partition, slots programmed through the reconfiguration port
 *        (docs/reconfiguration.md).
 *
 * A reconfiguration manager owns a set of slots grouped in partitions and a set of
 * hardware tasks, each a partial bitstream file for one partition. A program submits a
 * request for a task with the task's arguments; the manager gives it a slot of the task's
 * partition (one that already holds the task if one is free: no reconfiguration),
 * programs the slot if needed (one slot at a time, requests in ticket order), runs the
 * task as a hardware thread to its end (no preemption) and reports the request done.
 * Each request has an fd that turns readable when it is done, for poll/epoll.
 *
 * The manager's functions may be called from any thread, with three rules:
 * - the manager owns the slots of its partitions while it is open: create no other
 *   hardware thread there (the port would reset it; its runner would find the slot taken);
 * - weft_reconf_close() comes before weft_shutdown() of its runtime, and no other call on
 *   the manager or its requests may run or follow once close has begun;
 * - close and release wait for a request that runs to end: give tasks that may not end on
 *   their own a timeout.
 */
#ifndef WEFT_RECONF_H
#define WEFT_RECONF_H

#include <stddef.h>
#include <stdint.h>

#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A reconfiguration manager, from weft_reconf_open() to weft_reconf_close(). Opaque. */
typedef struct weft_reconf weft_reconf_t;
/** A request for one run of a hardware task, from weft_reconf_submit() to
 *  weft_reconf_release(). Opaque. */
typedef struct weft_reconf_req weft_reconf_req_t;

/** A partition: slots of one shape (the platform description's partitions). */
typedef struct weft_reconf_partition {
    const char *name; /**< each task's bitstream must name this partition (read at open) */
    uint64_t slots;   /**< bit i: slot i; partitions are disjoint */
} weft_reconf_partition_t;

/** A hardware task: a Weft hardware thread configured by a partial bitstream file. */
typedef struct weft_reconf_task {
    const char *name; /**< for messages and results (copied) */
    /** Path of its partial bitstream file (weft/bitstream.h), for every slot of its
     *  partition; or, with one "%u" in it, of one file a slot (the slot's number in place
     *  of the %u), as a board needs: real bitstreams do not relocate. */
    const char *bitstream;
    unsigned partition; /**< index of the partition it fits */
    /** A request's execution may take this long before the task is stopped and the
     *  request ends with -ETIMEDOUT; 0: no limit. Counted in fabric cycles at the
     *  fabric's clock (CLOCK_MHZ), so a slow simulation host never fires it; on a board
     *  that is wall time. */
    uint64_t timeout_us;
    /** Non-zero: an HLS-style accelerator (docs/hls.md) rather than a Weft thread; a
     *  request's acc_args go to its control block */
    int accelerator;
} weft_reconf_task_t;

/** What a manager schedules. weft_reconf_open() reads it and keeps nothing that points
 *  into it, so it need not outlive the call. */
typedef struct weft_reconf_config {
    /** The partitions; a task names its partition by index in this array. */
    const weft_reconf_partition_t *partitions;
    /** Entries in partitions (at least 1). */
    unsigned num_partitions;
    /** The hardware tasks; a request names its task by index in this array. */
    const weft_reconf_task_t *tasks;
    /** Entries in tasks (at least 1). */
    unsigned num_tasks;
} weft_reconf_config_t;

/** A request's arguments: how its hardware thread runs (as weft_hwthread_attr_t). */
typedef struct weft_reconf_args {
    uint32_t init_data;               /**< GET_INIT_DATA */
    const weft_resource_t *resources; /**< copied */
    /** Entries in resources. */
    unsigned num_resources;
    const weft_mem_window_t *windows; /**< the task's buffers (copied) */
    /** Entries in windows, at most what the task's slots have. */
    unsigned num_windows;
    const uint64_t *acc_args; /**< an accelerator's arguments (copied), as weft_hwthread_attr_t */
    /** Entries in acc_args, at most WEFT_HLS_MAX_ARGS. */
    unsigned num_acc_args;
} weft_reconf_args_t;

/** How a request ended and what it took. Times are host CLOCK_MONOTONIC nanoseconds;
 *  cycles are fabric cycles. */
typedef struct weft_reconf_result {
    /** 0: the task ran to its THREAD_EXIT; -ECANCELED: cancelled before it started, or
     *  aborted (weft_reconf_abort);
     *  -EIO: its slot could not be programmed (message says why); -ETIMEDOUT: stopped
     *  after its timeout; -EFAULT: the thread faulted (message); other negative errno:
     *  it could not be started */
    int status;
    uint32_t exit_value; /**< its THREAD_EXIT value when status is 0 */
    unsigned slot;       /**< the slot it ran in (or was programmed for) */
    int reconfigured;    /**< 1: its slot was programmed for it; 0: reused as it was */
    /** @var weft_reconf_result::submit_ns
     *  When the request arrived: its ticket, which orders it among the others.
     *  @var weft_reconf_result::start_ns
     *  When its execution started (after the programming of its slot, if any).
     *  @var weft_reconf_result::end_ns
     *  When it ended. */
    uint64_t submit_ns, start_ns, end_ns;
    uint64_t wait_ns;       /**< from arrival to the start of its programming or run */
    uint64_t reconf_ns;     /**< host time its slot's programming took (0: reused) */
    uint64_t wait_cycles;   /**< fabric cycles from arrival to the start of its programming
                                 or run (0 where the fabric's cycle counter cannot be read) */
    uint64_t reconf_cycles; /**< fabric cycles of that programming (FRI_CYCLES) */
    uint64_t exec_cycles;   /**< fabric cycles from start to end of execution */
    char message[256];      /**< on failure: what went wrong */
} weft_reconf_result_t;

/** Counters of a manager. */
typedef struct weft_reconf_stats {
    uint64_t requests;     /**< submitted */
    uint64_t reused;       /**< started in a slot that already held their task */
    uint64_t reconfigured; /**< started after their slot was programmed */
    uint64_t failed;       /**< programming failed */
    /** Taken back before they started: by weft_reconf_cancel(), or by an abort or a close
     *  that found them waiting. */
    uint64_t cancelled;
} weft_reconf_stats_t;

/**
 * @brief Create a manager for the runtime's fabric. Reads and checks every task's
 *        bitstream file (weft_bitstream_check) and keeps it in the DMA region, where the
 *        reconfiguration port reads it.
 * @retval 0 *out set
 * @retval -EINVAL a bad configuration (overlapping or empty partitions, slots past the
 *         platform's, a task of no partition, a bitstream for another partition or for
 *         slots outside its partition, or a damaged one; the log says which)
 * @retval -ENOTSUP the platform backend cannot program slots
 * @retval -ENODEV the static region has no reconfiguration interface (its description
 *         leaves services.reconfiguration out; the log says so)
 * @retval -ENOMEM, -errno reading a file
 */
int weft_reconf_open(weft_t *w, const weft_reconf_config_t *cfg, weft_reconf_t **out);

/** @brief Wait for every request to end (cancelling those that have not started), then
 *         free the manager. Requests not released are freed too. */
void weft_reconf_close(weft_reconf_t *r);

/**
 * @brief Submit a request for task with its arguments; its ticket is the time of the call.
 * @retval 0 *out set: wait for it or poll its fd, then release it
 * @retval -EINVAL no such task, or bad arguments; -ENOMEM
 */
int weft_reconf_submit(weft_reconf_t *r, unsigned task, const weft_reconf_args_t *args,
                       weft_reconf_req_t **out);

/** @brief An fd that turns readable (POLLIN) when the request has ended; owned by the
 *         request. */
int weft_reconf_fd(const weft_reconf_req_t *q);

/**
 * @brief Wait for the request to end.
 * @param q the request
 * @param timeout_ms negative: no limit
 * @param res receives how it ended (may be NULL)
 * @retval 0 it ended; *res (if not NULL) says how
 * @retval -ETIMEDOUT it has not ended yet
 */
int weft_reconf_wait(weft_reconf_req_t *q, int timeout_ms, weft_reconf_result_t *res);

/**
 * @brief Take back a request that has not started: it ends with -ECANCELED.
 * @retval 0 cancelled
 * @retval -EBUSY its slot is being programmed or it runs (execution is not preemptive)
 * @retval -EALREADY it has ended
 */
int weft_reconf_cancel(weft_reconf_req_t *q);

/**
 * @brief Stop a request whatever its state, without waiting: one that has not started is
 *        cancelled; one whose slot is being programmed ends when that is done, without
 *        running; a running one has its slot reset within a wait slice (20 ms), its
 *        bursts in flight drained first, as after a timeout. It ends with -ECANCELED and
 *        its task can be requested again. For a server whose client went away.
 * @retval 0 it is ending (wait for it or poll its fd)
 * @retval -EALREADY it had ended
 */
int weft_reconf_abort(weft_reconf_req_t *q);

/** @brief Free a request; one that has not ended is cancelled or waited for first. */
void weft_reconf_release(weft_reconf_req_t *q);

/** @brief The manager's counters. */
void weft_reconf_stats(weft_reconf_t *r, weft_reconf_stats_t *out);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RECONF_H */

/**
 * @file mthread.h
 * @brief Managed software threads: pthreads scheduled by the static region's thread
 *        manager, one at a time, and interrupts and timers as scheduling requests
 *        (docs/hw-services.md, "Managed threads").
 *
 * A managed thread is a pthread whose turn the fabric decides. The thread manager keeps
 * its record (id, state, priority) and the ready queues; its decision, the thread that
 * should run, changes only at a manager command or an event, and each change raises the
 * OS services' interrupt. The runtime's interrupt thread then lets the chosen thread run
 * and stops the one it replaces: managed threads of one runtime run one at a time, in
 * fixed-priority order (0 the most urgent, FIFO within a priority), optionally all on one
 * chosen CPU core. A more urgent thread made ready preempts the running one: a signal
 * (WEFT_MTHREAD_PREEMPT_SIGNAL) stops it where it is, unless it is inside a Weft call, in
 * which case it stops when the call returns.
 *
 * Events (CBIS): an event (a timer of the manager, a slot's interrupt line, the FRI's, or
 * weft_tm_raise()) can be bound to a managed thread; when it fires, the manager makes the
 * thread ready, or leaves the event pending for its next weft_mthread_wait(). The CPU
 * hears of it only if the decision changes.
 *
 * Preemption stops a thread anywhere outside Weft's calls, so what a managed thread
 * shares with other managed threads must be guarded by what the manager knows about
 * (weft_mthread_wait()/weft_mthread_signal(), or the hardware objects of hwsync.h), not
 * by locks the manager does not see: a thread preempted while it holds a pthread mutex
 * (or the C library's own locks, as inside printf() or malloc()) keeps it while the more
 * urgent thread runs, and that thread blocks on it outside the manager's view. Block the
 * signal around such code (or use weft_mthread_attr_t.no_preempt) where that matters.
 */
#ifndef WEFT_MTHREAD_H
#define WEFT_MTHREAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The signal that stops a preempted managed thread (a real-time signal the runtime
 *  handles in managed threads only). */
#define WEFT_MTHREAD_PREEMPT_SIGNAL (SIGRTMIN + 3)

/** A managed thread. Opaque; belongs to its runtime. */
typedef struct weft_mthread weft_mthread_t;

/** How to create a managed thread. */
typedef struct weft_mthread_attr {
    unsigned priority; /**< 0 (the most urgent) to WEFT_TM_PRIO_MAX */
    bool detached;     /**< freed when it returns; not joinable */
    int cpu;           /**< the CPU core it runs on; -1: any */
    size_t stack_size; /**< its stack in bytes; 0: 256 KiB */
    bool no_preempt;   /**< it gives the processor up only in Weft calls, never to a signal */
} weft_mthread_attr_t;

/**
 * @brief The thread manager's size.
 * @param w the runtime
 * @param threads thread ids (thread 0 is the idle thread: threads - 1 can be created); 0 when
 *        the fabric has no thread manager
 * @param events events that can be bound (weft_tm_bind())
 * @param timers the manager's timers (events 0 to timers - 1)
 * @return 0 or a negative errno
 */
int weft_tm_info(weft_t *w, unsigned *threads, unsigned *events, unsigned *timers);

/**
 * @brief Create a managed thread: ready at once, it runs fn(arg) when the manager
 *        chooses it.
 * @param w the runtime
 * @param out the thread
 * @param attr priority and the rest; NULL: priority 0, joinable, any core
 * @param fn its function; its return value is weft_mthread_join()'s
 * @param arg fn's argument
 * @return 0, -ENODEV (the platform has no thread manager; the log names it), -EAGAIN (no id
 *         free, or no pthread),
 *         -EINVAL (priority), -ENOMEM
 */
int weft_mthread_create(weft_t *w, weft_mthread_t **out, const weft_mthread_attr_t *attr,
                        void *(*fn)(void *), void *arg);

/**
 * @brief Wait for a managed thread to return, and free it.
 *
 * A managed caller waits in the manager (state JOINING, it gives the processor up); any
 * other thread waits as pthread_join() does.
 * @param t a joinable thread
 * @param ret its return value (may be NULL)
 * @return 0, -EINVAL (detached, or joined already), -EDEADLK (itself)
 */
int weft_mthread_join(weft_mthread_t *t, void **ret);

/**
 * @brief Free the thread when it returns (it can no longer be joined).
 * @return 0 or -EINVAL (detached or joined already)
 */
int weft_mthread_detach(weft_mthread_t *t);

/** @brief The calling managed thread, or NULL if the caller is not one. */
weft_mthread_t *weft_mthread_self(void);

/** @brief The thread's id in the manager (1 to threads - 1). */
unsigned weft_mthread_id(const weft_mthread_t *t);

/**
 * @brief Give the processor to the next ready thread of the caller's priority, if any.
 * @return 0, -EPERM (the caller is not a managed thread)
 */
int weft_mthread_yield(void);

/**
 * @brief Wait for a weft_mthread_signal() or a bound event; one that came since the last
 *        wait is taken at once.
 * @return 0, -EPERM (the caller is not a managed thread)
 */
int weft_mthread_wait(void);

/**
 * @brief Make a thread waiting in weft_mthread_wait() ready, or leave its event pending.
 * @return 0, -ESRCH (it has returned)
 */
int weft_mthread_signal(weft_mthread_t *t);

/**
 * @brief The host part of the thread's last scheduling delay: wall-clock nanoseconds
 *        from the interrupt thread's (or a command's) application of the decision that
 *        chose it to the thread running again after it had given the processor up.
 * @return 0 or -EINVAL
 */
int weft_mthread_last_wake(const weft_mthread_t *t, uint64_t *ns);

/**
 * @brief Change a thread's priority (a ready one goes to the tail of its new queue).
 * @return 0, -EINVAL (priority), -ESRCH (it has returned)
 */
int weft_mthread_setprio(weft_mthread_t *t, unsigned priority);

/**
 * @brief Bind event ev to a managed thread (NULL: unbind it). Events are numbered: the
 *        timers from 0, then slot s's interrupt line (weft_tm_event_slot()), then the FRI's.
 * @return 0, -EINVAL (no such event), -ENODEV (the platform has no thread manager or no
 *         events: services.events in its description; the log names what is missing). The
 *         other event and timer calls below refuse the same way.
 */
int weft_tm_bind(weft_t *w, unsigned ev, weft_mthread_t *t);

/** @brief The event of slot s's interrupt line (rising edge), or -EINVAL, -ENODEV. */
int weft_tm_event_slot(weft_t *w, unsigned slot);

/** @brief Fire event ev now (a software interrupt): 0, -EINVAL or -ENODEV. */
int weft_tm_raise(weft_t *w, unsigned ev);

/**
 * @brief Start timer t: its event fires period fabric cycles from now, then every period
 *        cycles if periodic. A running timer keeps the fabric clocked.
 * @return 0, -EINVAL (no such timer, period 0), -ENODEV (no events on this platform)
 */
int weft_tm_timer_start(weft_t *w, unsigned t, uint32_t period, bool periodic);

/** @brief Stop timer t; @p fired, if not NULL, gets the events it fired since its start. */
int weft_tm_timer_stop(weft_t *w, unsigned t, uint32_t *fired);

/** The delay of the last event served, as the manager measured it (TM_EV_LAT). */
typedef struct weft_tm_event_delay {
    bool valid;      /**< an event has been served since reset */
    bool switched;   /**< it changed the decision */
    unsigned event;  /**< its number */
    unsigned cycles; /**< fabric cycles from its firing to the decision made */
} weft_tm_event_delay_t;

/** @brief Read the delay of the last event served. */
int weft_tm_event_delay(weft_t *w, weft_tm_event_delay_t *d);

#ifdef __cplusplus
}
#endif

#endif

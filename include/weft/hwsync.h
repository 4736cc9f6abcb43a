/**
 * @file hwsync.h
 * @brief Semaphores, mutexes and condition variables of the static region's
 *        synchronisation manager (docs/hw-services.md).
 *
 * A hardware object lives in the fabric. Bound into a hardware thread's resource array
 * ({WEFT_RES_HWSEM, sem}, {WEFT_RES_HWMUTEX, m}, {WEFT_RES_HWCOND, c}) its calls are served
 * by the static region without the CPU: the thread's RTL is the same as for a software
 * object, only the binding differs. Two hardware threads that share one hand it over in a
 * few fabric cycles. The runtime allocates objects from the manager's (SYNC_INFO) and
 * configures them.
 *
 * Software threads call the same objects with weft_hwsem_wait(), weft_hwmutex_lock(),
 * weft_hwcond_wait() and the rest, whose rules are POSIX's (sem_wait(),
 * pthread_mutex_lock(), pthread_cond_wait()...), with results as negative errno values.
 * A pthread that waits or locks calls through one of the manager's software contexts,
 * which it takes at its first such call and keeps until it exits or calls
 * weft_hwsync_release() (the manager knows a mutex's holder by its context). Posts,
 * trywaits, signals and broadcasts of a thread without one go through a context the
 * runtime shares, one at a time, so they never fail for want of a context. A call that
 * does not block costs a register write and a read; one that blocks sleeps until the
 * manager's answer raises the OS services' interrupt. These calls are not cancellation
 * points, and every call must have returned before weft_shutdown() (which hands the
 * mutexes still held by software threads on to their waiters). Waiters are served by priority
 * (weft_hwsync_set_priority(), a hardware thread's weft_hwthread_attr_t.sync_priority),
 * first come first within one. A mutex held by a thread that exits without unlocking it
 * goes to its next waiter, as one held by a hardware thread that is reset does.
 */
#ifndef WEFT_HWSYNC_H
#define WEFT_HWSYNC_H

#include <time.h>

#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A semaphore of the synchronisation manager. Opaque; belongs to its runtime. */
typedef struct weft_hwsem weft_hwsem_t;
/** A mutex of the synchronisation manager. */
typedef struct weft_hwmutex weft_hwmutex_t;
/** A condition variable of the synchronisation manager; its mutex must be a weft_hwmutex_t. */
typedef struct weft_hwcond weft_hwcond_t;

/** @brief Objects the fabric's synchronisation manager holds (0: it has none). */
unsigned weft_hwsync_objects(weft_t *w);

/**
 * @brief Threads blocked on a hardware object now: hardware and software ones, waiting
 *        for a semaphore, for a mutex, or on a condition (a condition's waiters that
 *        were signalled and wait for its mutex count for the mutex).
 * @param object a weft_hwsem_t, weft_hwmutex_t or weft_hwcond_t
 * @param waiters receives their number
 * @retval 0 success, *waiters set
 * @retval -EINVAL NULL or not a live object
 */
int weft_hwsync_waiters(const void *object, unsigned *waiters);

/** @brief Software threads that can call the manager's objects at once: its software
 *  contexts (0: software threads cannot call them). */
unsigned weft_hwsync_contexts(weft_t *w);

/**
 * @brief A counting semaphore in the fabric.
 * @param w the runtime
 * @param value its count, at most max
 * @param max its maximum, 1 to 65535: a post at the maximum is refused (OVERFLOW)
 * @param out receives it
 * @retval 0 success
 * @retval -EINVAL a NULL argument, max 0 or above 65535, value above max
 * @retval -ENODEV the fabric has no synchronisation manager
 * @retval -ENOSPC every object of the manager is in use
 */
int weft_hwsem_create(weft_t *w, unsigned value, unsigned max, weft_hwsem_t **out);

/**
 * @brief A semaphore's count now.
 * @param sem the semaphore
 * @param value receives its count
 * @retval 0 success
 * @retval -EINVAL NULL
 */
int weft_hwsem_getvalue(weft_hwsem_t *sem, unsigned *value);

/**
 * @brief Give the semaphore back to the manager.
 * @retval 0 success
 * @retval -EBUSY a thread waits on it, or a hardware thread has it in its resource array
 *         (nothing changed)
 * @retval -EINVAL NULL or not a live semaphore
 */
int weft_hwsem_destroy(weft_hwsem_t *sem);

/**
 * @brief A mutex in the fabric.
 * @param w the runtime
 * @param type PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE, PTHREAD_MUTEX_ERRORCHECK or
 *        PTHREAD_MUTEX_DEFAULT (normal); a normal mutex is checked like an error-checking
 *        one (an unlock by a thread that does not hold it is refused)
 * @param protocol PTHREAD_PRIO_NONE or PTHREAD_PRIO_INHERIT (its holder runs its calls at
 *        the priority of its most urgent waiter)
 * @param out receives it
 * @retval 0 success
 * @retval -EINVAL a NULL argument, or a type or protocol not listed
 * @retval -ENODEV no synchronisation manager
 * @retval -ENOSPC no object left
 */
int weft_hwmutex_create(weft_t *w, int type, int protocol, weft_hwmutex_t **out);

/**
 * @brief Whether the mutex is held, and how deep.
 * @param m the mutex
 * @param depth receives 0 when free, else how often its holder locked it
 * @retval 0 success
 * @retval -EINVAL NULL or not a live mutex
 */
int weft_hwmutex_depth(weft_hwmutex_t *m, unsigned *depth);

/**
 * @brief Give the mutex back to the manager.
 * @retval 0 success
 * @retval -EBUSY held, waited for, the mutex of a condition's waiters, or in a hardware
 *         thread's resource array (nothing changed)
 * @retval -EINVAL NULL or not a live mutex
 */
int weft_hwmutex_destroy(weft_hwmutex_t *m);

/**
 * @brief A condition variable in the fabric.
 * @retval 0 success
 * @retval -EINVAL NULL
 * @retval -ENODEV no synchronisation manager
 * @retval -ENOSPC no object left
 */
int weft_hwcond_create(weft_t *w, weft_hwcond_t **out);

/**
 * @brief Give the condition variable back to the manager.
 * @retval 0 success
 * @retval -EBUSY a thread waits on it or has it in its resource array (nothing changed)
 * @retval -EINVAL NULL or not a live condition variable
 */
int weft_hwcond_destroy(weft_hwcond_t *c);

/** @name Calls of software threads
 *  Each returns 0 or a negative errno value. Besides those listed: -EINVAL for a NULL or
 *  dead object (or a wrong one: a semaphore passed as a mutex), -EINVAL for a timed call
 *  that would block with a tv_nsec outside 0..999999999, -ENODEV when the manager has no
 *  software contexts, -ENOSPC for a wait or lock when every context is taken by other
 *  threads (weft_hwsync_contexts() less the shared one), -EAGAIN when the runtime's
 *  interrupt thread cannot start, or a platform error (-EIO).
 *  @{ */
/** @brief sem_post(): count + 1, or the most urgent waiter woken.
 *  @retval -EOVERFLOW the semaphore is at its maximum (unchanged) */
int weft_hwsem_post(weft_hwsem_t *sem);
/** @brief sem_wait(): count - 1, blocking while it is 0. */
int weft_hwsem_wait(weft_hwsem_t *sem);
/** @brief sem_trywait().
 *  @retval -EAGAIN the count is 0 */
int weft_hwsem_trywait(weft_hwsem_t *sem);
/** @brief sem_timedwait(): as weft_hwsem_wait() until abstime (CLOCK_REALTIME).
 *  @retval -ETIMEDOUT abstime passed first (nothing taken) */
int weft_hwsem_timedwait(weft_hwsem_t *sem, const struct timespec *abstime);
/** @brief pthread_mutex_lock().
 *  @retval -EDEADLK the caller holds it already (and it is not recursive)
 *  @retval -EAGAIN a recursive mutex held 65535 times */
int weft_hwmutex_lock(weft_hwmutex_t *m);
/** @brief pthread_mutex_trylock().
 *  @retval -EBUSY held (by any thread, the caller included unless it is recursive) */
int weft_hwmutex_trylock(weft_hwmutex_t *m);
/** @brief pthread_mutex_timedlock(): as weft_hwmutex_lock() until abstime (CLOCK_REALTIME).
 *  @retval -ETIMEDOUT abstime passed first */
int weft_hwmutex_timedlock(weft_hwmutex_t *m, const struct timespec *abstime);
/** @brief pthread_mutex_unlock(); the last unlock hands it to the most urgent waiter.
 *  @retval -EPERM the caller does not hold it */
int weft_hwmutex_unlock(weft_hwmutex_t *m);
/** @brief pthread_cond_wait(): release m wholly, wait for a signal, hold m again (at the
 *  depth it had) before returning, whatever the result.
 *  @retval -EPERM the caller does not hold m
 *  @retval -EINVAL the condition's other waiters use another mutex */
int weft_hwcond_wait(weft_hwcond_t *c, weft_hwmutex_t *m);
/** @brief pthread_cond_timedwait(): as weft_hwcond_wait() until abstime (CLOCK_REALTIME).
 *  @retval -ETIMEDOUT abstime passed first (m is held again) */
int weft_hwcond_timedwait(weft_hwcond_t *c, weft_hwmutex_t *m, const struct timespec *abstime);
/** @brief pthread_cond_signal(): the most urgent waiter goes on to take its mutex. */
int weft_hwcond_signal(weft_hwcond_t *c);
/** @brief pthread_cond_broadcast(): every waiter does. */
int weft_hwcond_broadcast(weft_hwcond_t *c);
/**
 * @brief The calling thread's priority in the manager's queues: 0 (the default) the most
 *        urgent, WEFT_SYNC_PRIO_MAX (127) the least.
 * @retval -EINVAL prio above 127
 */
int weft_hwsync_set_priority(weft_t *w, unsigned prio);
/**
 * @brief Give the calling thread's software context back before the thread exits (a
 *        thread's exit does it too); mutexes it holds go to their next waiters.
 * @retval 0 done, or the thread had none
 */
int weft_hwsync_release(weft_t *w);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* WEFT_HWSYNC_H */

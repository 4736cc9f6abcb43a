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
 * configures them; the calls software threads make on them come with the software
 * contexts of a later version.
 */
#ifndef WEFT_HWSYNC_H
#define WEFT_HWSYNC_H

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

#ifdef __cplusplus
}
#endif

#endif /* WEFT_HWSYNC_H */

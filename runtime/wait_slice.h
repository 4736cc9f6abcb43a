/**
 * @file wait_slice.h
 * @brief One bounded slice of a blocking wait on a native POSIX object.
 *
 * A delegate never blocks without a bound: it waits in slices and re-checks its stop
 * request between them, so stopping a hardware thread cannot hang on an object nobody
 * will ever post. Each helper waits at most ms milliseconds on CLOCK_MONOTONIC where the
 * C library allows it (a wall-clock step then cannot stretch a slice).
 */
#ifndef WEFT_WAIT_SLICE_H
#define WEFT_WAIT_SLICE_H

#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief sem_wait for at most ms. @retval 0 taken @retval -ETIMEDOUT @retval -errno */
int weft_slice_sem_wait(sem_t *sem, int ms);

/** @brief pthread_mutex_lock for at most ms. @retval 0 locked @retval -ETIMEDOUT @retval -errno */
int weft_slice_mutex_lock(pthread_mutex_t *m, int ms);

/**
 * @brief pthread_cond_wait for at most ms; the mutex is held again on every return
 *        except an error the C library reports without reacquiring it.
 * @retval 0 woken (possibly spuriously, as with any condition wait)
 * @retval -ETIMEDOUT the slice passed
 */
int weft_slice_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, int ms);

/** @brief mq_send for at most ms. @retval 0 sent @retval -ETIMEDOUT @retval -errno */
int weft_slice_mq_send(mqd_t q, const char *msg, size_t len, unsigned prio, int ms);

/** @brief mq_receive for at most ms; *len receives the message length.
 *  @retval 0 received @retval -ETIMEDOUT @retval -errno */
int weft_slice_mq_receive(mqd_t q, char *buf, size_t size, unsigned *prio, size_t *len, int ms);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_WAIT_SLICE_H */

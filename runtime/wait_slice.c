/*
 * Bounded wait slices on native POSIX objects (see wait_slice.h).
 *
 * glibc 2.30 and later provide sem_clockwait, pthread_mutex_clocklock and
 * pthread_cond_clockwait, which take the clock explicitly; the condition variable case
 * matters most, because the runtime cannot know which clock an application's
 * pthread_cond_t was created with. Other C libraries get the POSIX CLOCK_REALTIME calls,
 * which is also what a default condition variable uses.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>

#include "deadline.h"
#include "wait_slice.h"

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 30))
#define WEFT_HAVE_CLOCKWAIT 1
#define SLICE_CLOCK CLOCK_MONOTONIC
#else
#define WEFT_HAVE_CLOCKWAIT 0
#define SLICE_CLOCK CLOCK_REALTIME
#endif

/* ThreadSanitizer (as of GCC 12) does not intercept pthread_mutex_clocklock: it would
 * miss the lock and then report the unlock as a bug. Under TSan the mutex slice uses
 * pthread_mutex_timedlock on CLOCK_REALTIME instead. */
#if defined(__SANITIZE_THREAD__)
#define WEFT_MUTEX_CLOCKLOCK 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WEFT_MUTEX_CLOCKLOCK 0
#endif
#endif
#ifndef WEFT_MUTEX_CLOCKLOCK
#define WEFT_MUTEX_CLOCKLOCK WEFT_HAVE_CLOCKWAIT
#endif

int weft_slice_sem_wait(sem_t *sem, int ms)
{
    struct timespec until = weft_deadline_after(SLICE_CLOCK, ms);
    for (;;) {
#if WEFT_HAVE_CLOCKWAIT
        int rc = sem_clockwait(sem, SLICE_CLOCK, &until);
#else
        int rc = sem_timedwait(sem, &until);
#endif
        if (rc == 0)
            return 0;
        if (errno != EINTR)
            return -errno;
    }
}

int weft_slice_mutex_lock(pthread_mutex_t *m, int ms)
{
#if WEFT_MUTEX_CLOCKLOCK
    struct timespec until = weft_deadline_after(SLICE_CLOCK, ms);
    int rc = pthread_mutex_clocklock(m, SLICE_CLOCK, &until);
#else
    struct timespec until = weft_deadline_after(CLOCK_REALTIME, ms);
    int rc = pthread_mutex_timedlock(m, &until);
#endif
    return -rc;
}

int weft_slice_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, int ms)
{
    struct timespec until = weft_deadline_after(SLICE_CLOCK, ms);
#if WEFT_HAVE_CLOCKWAIT
    int rc = pthread_cond_clockwait(c, m, SLICE_CLOCK, &until);
#else
    int rc = pthread_cond_timedwait(c, m, &until);
#endif
    return -rc;
}

/* Message queues only take a CLOCK_REALTIME deadline; a slice is short enough that a
 * wall-clock step can only stretch or shorten that one slice. */
int weft_slice_mq_send(mqd_t q, const char *msg, size_t len, unsigned prio, int ms)
{
    struct timespec until = weft_deadline_after(CLOCK_REALTIME, ms);
    for (;;) {
        if (mq_timedsend(q, msg, len, prio, &until) == 0)
            return 0;
        if (errno != EINTR)
            return -errno;
    }
}

int weft_slice_mq_receive(mqd_t q, char *buf, size_t size, unsigned *prio, size_t *len, int ms)
{
    struct timespec until = weft_deadline_after(CLOCK_REALTIME, ms);
    for (;;) {
        ssize_t n = mq_timedreceive(q, buf, size, prio, &until);
        if (n >= 0) {
            *len = (size_t)n;
            return 0;
        }
        if (errno != EINTR)
            return -errno;
    }
}

/**
 * @file deadline.h
 * @brief Absolute deadlines for the timed waits of the runtime.
 */
#ifndef WEFT_DEADLINE_H
#define WEFT_DEADLINE_H

#include <time.h>

/** @brief The time on clock that lies ms milliseconds (ms >= 0) from now. */
static inline struct timespec weft_deadline_after(clockid_t clock, int ms)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

/** @brief Negative, zero or positive as a is before, at or after b. */
static inline int weft_timespec_cmp(const struct timespec *a, const struct timespec *b)
{
    if (a->tv_sec != b->tv_sec)
        return a->tv_sec < b->tv_sec ? -1 : 1;
    return a->tv_nsec < b->tv_nsec ? -1 : a->tv_nsec > b->tv_nsec;
}

#endif /* WEFT_DEADLINE_H */

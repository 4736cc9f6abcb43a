/**
 * @file deadline.h
 * @brief Absolute deadlines for the timed waits of the runtime, and the monotonic clock.
 */
#ifndef WEFT_DEADLINE_H
#define WEFT_DEADLINE_H

#include <stdint.h>
#include <time.h>

/** @brief CLOCK_MONOTONIC now, in nanoseconds. */
static inline uint64_t weft_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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

#endif /* WEFT_DEADLINE_H */

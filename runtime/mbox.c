/*
 * Weft mailbox: a bounded FIFO of 32-bit words.
 *
 * One mutex guards the ring; not_empty wakes getters, not_full wakes putters. Both
 * condition variables run on CLOCK_MONOTONIC so a timed wait is not stretched or cut by
 * a change of the wall clock. Every blocking call reads: fast path, no-wait path, wait
 * (looping until the wake-up is real), one exit.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "weft/mbox.h"

#include "deadline.h"

int weft_mbox_init(weft_mbox_t *mb, unsigned capacity)
{
    if (!mb || capacity == 0)
        return -EINVAL;
    uint32_t *words = calloc(capacity, sizeof(uint32_t)); /* calloc checks the product */
    if (!words)
        return -ENOMEM;

    pthread_condattr_t ca;
    int rc = pthread_condattr_init(&ca);
    if (rc == 0)
        rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    if (rc != 0)
        goto fail_words;
    rc = pthread_mutex_init(&mb->lock, NULL);
    if (rc != 0)
        goto fail_attr;
    rc = pthread_cond_init(&mb->not_empty, &ca);
    if (rc != 0)
        goto fail_lock;
    rc = pthread_cond_init(&mb->not_full, &ca);
    if (rc != 0)
        goto fail_not_empty;
    pthread_condattr_destroy(&ca);

    mb->words = words;
    mb->capacity = capacity;
    mb->head = 0;
    mb->count = 0;
    return 0;

fail_not_empty:
    pthread_cond_destroy(&mb->not_empty);
fail_lock:
    pthread_mutex_destroy(&mb->lock);
fail_attr:
    pthread_condattr_destroy(&ca);
fail_words:
    free(words);
    return rc == ENOMEM ? -ENOMEM : -rc;
}

int weft_mbox_destroy(weft_mbox_t *mb)
{
    if (!mb || !mb->words)
        return -EINVAL;
    pthread_cond_destroy(&mb->not_full);
    pthread_cond_destroy(&mb->not_empty);
    pthread_mutex_destroy(&mb->lock);
    free(mb->words);
    mb->words = NULL;
    mb->capacity = 0;
    mb->count = 0;
    return 0;
}

/* Both helpers run with mb->lock held. The waker signals while it still holds the lock:
 * a waiter that has checked the count but not yet blocked cannot miss the signal, and the
 * mailbox may be destroyed as soon as the last user returns without a late signal
 * touching a dead condition variable. */
static void push_locked(weft_mbox_t *mb, uint32_t word)
{
    mb->words[(mb->head + mb->count) % mb->capacity] = word;
    mb->count++;
    pthread_cond_signal(&mb->not_empty);
}

static uint32_t pop_locked(weft_mbox_t *mb)
{
    uint32_t word = mb->words[mb->head];
    mb->head = (mb->head + 1) % mb->capacity;
    mb->count--;
    pthread_cond_signal(&mb->not_full);
    return word;
}

int weft_mbox_timedput(weft_mbox_t *mb, uint32_t word, int timeout_ms)
{
    if (!mb || !mb->words)
        return -EINVAL;

    int ret = 0;
    pthread_mutex_lock(&mb->lock);
    if (mb->count < mb->capacity) {
        push_locked(mb, word); /* fast path */
        goto out;
    }
    if (timeout_ms == 0) {
        ret = -ETIMEDOUT; /* no-wait path */
        goto out;
    }
    struct timespec until = weft_deadline_after(CLOCK_MONOTONIC, timeout_ms > 0 ? timeout_ms : 0);
    while (mb->count == mb->capacity) {
        int rc = timeout_ms < 0 ? pthread_cond_wait(&mb->not_full, &mb->lock)
                                : pthread_cond_timedwait(&mb->not_full, &mb->lock, &until);
        if (rc == ETIMEDOUT && mb->count == mb->capacity) {
            ret = -ETIMEDOUT;
            goto out;
        }
    }
    push_locked(mb, word);
out:
    pthread_mutex_unlock(&mb->lock);
    return ret;
}

int weft_mbox_timedget(weft_mbox_t *mb, uint32_t *word, int timeout_ms)
{
    if (!mb || !mb->words || !word)
        return -EINVAL;

    int ret = 0;
    pthread_mutex_lock(&mb->lock);
    if (mb->count > 0) {
        *word = pop_locked(mb); /* fast path */
        goto out;
    }
    if (timeout_ms == 0) {
        ret = -ETIMEDOUT; /* no-wait path */
        goto out;
    }
    struct timespec until = weft_deadline_after(CLOCK_MONOTONIC, timeout_ms > 0 ? timeout_ms : 0);
    while (mb->count == 0) {
        int rc = timeout_ms < 0 ? pthread_cond_wait(&mb->not_empty, &mb->lock)
                                : pthread_cond_timedwait(&mb->not_empty, &mb->lock, &until);
        if (rc == ETIMEDOUT && mb->count == 0) {
            ret = -ETIMEDOUT;
            goto out;
        }
    }
    *word = pop_locked(mb);
out:
    pthread_mutex_unlock(&mb->lock);
    return ret;
}

int weft_mbox_put(weft_mbox_t *mb, uint32_t word)
{
    return weft_mbox_timedput(mb, word, -1);
}

int weft_mbox_get(weft_mbox_t *mb, uint32_t *word)
{
    return weft_mbox_timedget(mb, word, -1);
}

int weft_mbox_tryput(weft_mbox_t *mb, uint32_t word)
{
    int rc = weft_mbox_timedput(mb, word, 0);
    return rc == -ETIMEDOUT ? -EAGAIN : rc;
}

int weft_mbox_tryget(weft_mbox_t *mb, uint32_t *word)
{
    int rc = weft_mbox_timedget(mb, word, 0);
    return rc == -ETIMEDOUT ? -EAGAIN : rc;
}

unsigned weft_mbox_count(weft_mbox_t *mb)
{
    if (!mb || !mb->words)
        return 0;
    pthread_mutex_lock(&mb->lock);
    unsigned n = mb->count;
    pthread_mutex_unlock(&mb->lock);
    return n;
}

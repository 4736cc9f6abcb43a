/**
 * @file mbox.h
 * @brief Weft mailbox: a bounded FIFO of 32-bit words shared by software and hardware threads.
 *
 * Usable directly by software threads and, through a resource array, by hardware threads.
 * put blocks while full, get while empty; the try variants never block.
 */
#ifndef WEFT_MBOX_H
#define WEFT_MBOX_H

#include <pthread.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A mailbox. Treat as opaque; it is a struct so it can live in static storage. The
 *  members are described for whoever debugs one: only the weft_mbox_* calls touch them. */
typedef struct weft_mbox {
    /** Guards every member below; held while a call checks or moves words, released
     *  while it waits. */
    pthread_mutex_t lock;
    /** Signalled when a word is put, to wake one getter (CLOCK_MONOTONIC, for the timed
     *  calls). */
    pthread_cond_t not_empty;
    /** Signalled when a word is taken, to wake one putter (CLOCK_MONOTONIC). */
    pthread_cond_t not_full;
    /** The ring of capacity words (allocated by init; NULL once destroyed). */
    uint32_t *words;
    /** Most words it holds, as given to weft_mbox_init(). */
    unsigned capacity;
    /** Index in words of the oldest word, the next one a get takes. */
    unsigned head;
    /** Words held now, from head on (wrapping at capacity). */
    unsigned count;
} weft_mbox_t;

/**
 * @brief Initialise a mailbox holding up to capacity words.
 * @retval 0 success
 * @retval -EINVAL mb is NULL or capacity is 0
 * @retval -ENOMEM out of memory
 */
int weft_mbox_init(weft_mbox_t *mb, unsigned capacity);

/** @brief Release a mailbox no thread uses any more. @retval -EINVAL mb NULL or not initialised */
int weft_mbox_destroy(weft_mbox_t *mb);

/** @brief Put one word; blocks while the mailbox is full. @retval -EINVAL mb NULL */
int weft_mbox_put(weft_mbox_t *mb, uint32_t word);

/** @brief Take one word; blocks while the mailbox is empty. @retval -EINVAL NULL argument */
int weft_mbox_get(weft_mbox_t *mb, uint32_t *word);

/** @brief Put one word without blocking. @retval -EAGAIN the mailbox is full */
int weft_mbox_tryput(weft_mbox_t *mb, uint32_t word);

/** @brief Take one word without blocking. @retval -EAGAIN the mailbox is empty */
int weft_mbox_tryget(weft_mbox_t *mb, uint32_t *word);

/**
 * @brief Put with a timeout (measured on CLOCK_MONOTONIC).
 * @param mb an initialised mailbox
 * @param word the word to put
 * @param timeout_ms 0 does not wait; negative waits forever
 * @retval 0 success
 * @retval -EINVAL mb NULL
 * @retval -ETIMEDOUT still full when the timeout passed
 */
int weft_mbox_timedput(weft_mbox_t *mb, uint32_t word, int timeout_ms);

/**
 * @brief Get with a timeout (measured on CLOCK_MONOTONIC).
 * @param mb an initialised mailbox
 * @param word receives the word taken (left alone on a timeout)
 * @param timeout_ms 0 does not wait; negative waits forever
 * @retval 0 success
 * @retval -EINVAL a NULL argument
 * @retval -ETIMEDOUT still empty when the timeout passed
 */
int weft_mbox_timedget(weft_mbox_t *mb, uint32_t *word, int timeout_ms);

/** @brief Words currently held (0 for NULL). */
unsigned weft_mbox_count(weft_mbox_t *mb);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_MBOX_H */

/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rtk_objects.h: what both of the kernel's ports do the same with a queue's ring and a
 * pool's free list (checking, setting up, moving a message or a block); each port adds
 * its own waiting around these. Callers hold the port's lock. */
#ifndef RTK_OBJECTS_H
#define RTK_OBJECTS_H

#include <stdint.h>
#include <string.h>

#include "weft/rtk.h"

/* The largest count, capacity or number of blocks (the hardware objects' width). */
#define RTK_MAX_COUNT 0xffffu

static inline void rtk_copy_words(uint32_t *d, const uint32_t *s, uint32_t n)
{
    while (n--)
        *d++ = *s++;
}

/* ---- queues ---- */
static inline int rtk_queue_init(rtk_queue_t *q, void *buf, uint32_t msg_words, uint32_t capacity)
{
    if (!q || !buf || msg_words == 0 || capacity == 0 || capacity > RTK_MAX_COUNT ||
        ((uintptr_t)buf & 3))
        return RTK_ARG;
    memset(q, 0, sizeof(*q));
    q->buf = buf;
    q->msg_words = msg_words;
    q->capacity = capacity;
    return RTK_OK;
}

/* Appends a copy of msg (there is room). */
static inline void rtk_ring_put(rtk_queue_t *q, const void *msg)
{
    uint32_t slot = q->head + q->count;
    if (slot >= q->capacity)
        slot -= q->capacity;
    rtk_copy_words(q->buf + slot * q->msg_words, msg, q->msg_words);
    q->count++;
}

/* Copies the oldest message out and drops it (there is one). */
static inline void rtk_ring_get(rtk_queue_t *q, void *msg)
{
    rtk_copy_words(msg, q->buf + q->head * q->msg_words, q->msg_words);
    if (++q->head == q->capacity)
        q->head = 0;
    q->count--;
}

/* ---- pools ---- */
static inline int rtk_pool_init(rtk_pool_t *p, void *buf, uint32_t block_bytes, uint32_t blocks)
{
    if (!p || !buf || block_bytes < 4 || (block_bytes & 3) || blocks == 0 ||
        blocks > RTK_MAX_COUNT || ((uintptr_t)buf & 3))
        return RTK_ARG;
    memset(p, 0, sizeof(*p));
    p->block_bytes = block_bytes;
    p->blocks = p->available = blocks;
    p->start = buf;
    p->end = (uint8_t *)buf + block_bytes * blocks;
    for (uint32_t i = blocks; i-- > 0;) { /* the free list links the blocks' first words */
        void **b = (void **)(p->start + i * block_bytes);
        *b = p->free;
        p->free = b;
    }
    return RTK_OK;
}

/* A block of this pool (its start), or not. */
static inline int rtk_pool_owns(const rtk_pool_t *p, const void *b)
{
    const uint8_t *u = b;
    return p && b && u >= p->start && u < p->end && (uint32_t)(u - p->start) % p->block_bytes == 0;
}

static inline void *rtk_pool_take(rtk_pool_t *p)
{
    void *b = p->free;
    p->free = *(void **)b;
    p->available--;
    return b;
}

static inline void rtk_pool_give(rtk_pool_t *p, void *b)
{
    *(void **)b = p->free;
    p->free = b;
    p->available++;
}

#endif

/*
 * Shared-memory allocator over the DMA region, and the weft_mem_* calls built on it.
 *
 * The managed range is a sorted list of extents, used or free, that covers it without
 * gaps. Allocation takes the first free extent large enough and splits off the rest;
 * freeing merges the extent with free neighbours, so two adjacent free extents never
 * exist. Sizes are multiples of 64 and the range starts 64-byte aligned in bus
 * addresses, so every block does too.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>

#include "dma_alloc.h"
#include "weft_internal.h"

static size_t round_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

int weft_dma_init(weft_dma_t *d, const weft_dma_region_t *region)
{
    if (!d || !region || !region->cpu)
        return -EINVAL;

    /* Align the start in bus addresses: that is what a hardware thread's bursts see. */
    uint64_t skip = (WEFT_DMA_ALIGN - (region->bus % WEFT_DMA_ALIGN)) % WEFT_DMA_ALIGN;
    if (region->size < skip + WEFT_DMA_ALIGN)
        return -EINVAL;
    size_t usable = (region->size - (size_t)skip) / WEFT_DMA_ALIGN * WEFT_DMA_ALIGN;

    weft_dma_block_t *all = calloc(1, sizeof(*all));
    if (!all)
        return -ENOMEM;
    all->size = usable;

    int rc = pthread_mutex_init(&d->lock, NULL);
    if (rc != 0) {
        free(all);
        return -rc;
    }
    d->region = *region;
    d->cpu = (uint8_t *)region->cpu + skip;
    d->bus = region->bus + skip;
    d->size = usable;
    d->blocks = all;
    return 0;
}

void weft_dma_fini(weft_dma_t *d)
{
    if (!d)
        return;
    weft_dma_block_t *b = d->blocks;
    while (b) {
        weft_dma_block_t *next = b->next;
        free(b);
        b = next;
    }
    d->blocks = NULL;
    pthread_mutex_destroy(&d->lock);
}

int weft_dma_alloc(weft_dma_t *d, size_t size, void **cpu, uint64_t *bus)
{
    if (!d || size == 0 || !cpu || !bus)
        return -EINVAL;
    if (size > SIZE_MAX - WEFT_DMA_ALIGN)
        return -ENOMEM;
    size = round_up(size, WEFT_DMA_ALIGN);

    /* Allocate the split-off node first so a failure leaves the list untouched. */
    weft_dma_block_t *rest = malloc(sizeof(*rest));
    if (!rest)
        return -ENOMEM;

    int ret = -ENOMEM;
    pthread_mutex_lock(&d->lock);
    for (weft_dma_block_t *b = d->blocks; b; b = b->next) {
        if (b->used || b->size < size)
            continue;
        if (b->size > size) {
            rest->offset = b->offset + size;
            rest->size = b->size - size;
            rest->used = 0;
            rest->next = b->next;
            b->next = rest;
            b->size = size;
            rest = NULL;
        }
        b->used = 1;
        *cpu = d->cpu + b->offset;
        *bus = d->bus + b->offset;
        ret = 0;
        break;
    }
    pthread_mutex_unlock(&d->lock);
    free(rest);
    return ret;
}

int weft_dma_free(weft_dma_t *d, void *cpu)
{
    if (!d || !cpu)
        return -EINVAL;
    uintptr_t p = (uintptr_t)cpu;
    uintptr_t base = (uintptr_t)d->cpu;
    if (p < base || p - base >= d->size)
        return -EINVAL;
    size_t offset = p - base;

    int ret = -EINVAL;
    pthread_mutex_lock(&d->lock);
    weft_dma_block_t *prev = NULL;
    for (weft_dma_block_t *b = d->blocks; b; prev = b, b = b->next) {
        if (b->offset != offset)
            continue;
        if (!b->used)
            break; /* double free */
        b->used = 0;
        weft_dma_block_t *next = b->next;
        if (next && !next->used) {
            b->size += next->size;
            b->next = next->next;
            free(next);
        }
        if (prev && !prev->used) {
            prev->size += b->size;
            prev->next = b->next;
            free(b);
        }
        ret = 0;
        break;
    }
    pthread_mutex_unlock(&d->lock);
    return ret;
}

uint64_t weft_dma_bus_addr(const weft_dma_t *d, const void *cpu)
{
    if (!d || !cpu)
        return 0;
    uintptr_t p = (uintptr_t)cpu;
    uintptr_t base = (uintptr_t)d->region.cpu;
    if (p < base || p - base >= d->region.size)
        return 0;
    return d->region.bus + (p - base);
}

size_t weft_dma_free_bytes(weft_dma_t *d)
{
    size_t total = 0;
    pthread_mutex_lock(&d->lock);
    for (weft_dma_block_t *b = d->blocks; b; b = b->next)
        if (!b->used)
            total += b->size;
    pthread_mutex_unlock(&d->lock);
    return total;
}

int weft_mem_alloc(weft_t *w, size_t size, void **cpu, uint64_t *bus)
{
    if (!w)
        return -EINVAL;
    return weft_dma_alloc(&w->dma, size, cpu, bus);
}

int weft_mem_free(weft_t *w, void *cpu)
{
    if (!w)
        return -EINVAL;
    return weft_dma_free(&w->dma, cpu);
}

uint64_t weft_mem_bus_addr(weft_t *w, const void *cpu)
{
    if (!w)
        return 0;
    return weft_dma_bus_addr(&w->dma, cpu);
}

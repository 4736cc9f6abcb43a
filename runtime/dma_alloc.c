/*
 * Shared-memory allocator over the DMA region, and the weft_mem_* calls built on it.
 *
 * The managed range is a sorted list of extents, used or free, that covers it without
 * gaps. Allocation takes the first free extent large enough and splits off the rest;
 * freeing merges the extent with free neighbours, so two adjacent free extents never
 * exist. Sizes are multiples of 64 and the range starts 64-byte aligned in bus
 * addresses, so every block does too. A shared block (weft_mem_share) is page-aligned,
 * a whole number of pages, and backed by an fd the platform made for it until it is freed.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

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

/* First fit for size bytes at a bus address that is a multiple of align (a power of two,
 * at least 64): a free extent may lose a leading piece to the alignment, kept free. */
static int alloc_aligned(weft_dma_t *d, size_t size, size_t align, weft_dma_block_t **out)
{
    if (!d || size == 0)
        return -EINVAL;
    if (size > SIZE_MAX - align)
        return -ENOMEM;
    size = round_up(size, WEFT_DMA_ALIGN);

    /* Allocate the split-off nodes first so a failure leaves the list untouched. */
    weft_dma_block_t *lead = malloc(sizeof(*lead));
    weft_dma_block_t *rest = malloc(sizeof(*rest));
    int ret = -ENOMEM;
    if (!lead || !rest)
        goto out;
    pthread_mutex_lock(&d->lock);
    for (weft_dma_block_t *b = d->blocks; b; b = b->next) {
        const uint64_t at = d->bus + b->offset;
        const size_t pad = (size_t)(round_up(at, align) - at);
        if (b->used || b->size < pad || b->size - pad < size)
            continue;
        if (pad) { /* b keeps the padding, free; the block is the next extent */
            *lead = (weft_dma_block_t){b->next, b->offset + pad, b->size - pad, 0, 0};
            b->size = pad;
            b->next = lead;
            b = lead;
            lead = NULL;
        }
        if (b->size > size) {
            *rest = (weft_dma_block_t){b->next, b->offset + size, b->size - size, 0, 0};
            b->next = rest;
            b->size = size;
            rest = NULL;
        }
        b->used = 1;
        *out = b;
        ret = 0;
        break;
    }
    pthread_mutex_unlock(&d->lock);
out:
    free(lead);
    free(rest);
    return ret;
}

int weft_dma_alloc(weft_dma_t *d, size_t size, void **cpu, uint64_t *bus)
{
    if (!cpu || !bus)
        return -EINVAL;
    weft_dma_block_t *b;
    int rc = alloc_aligned(d, size, WEFT_DMA_ALIGN, &b);
    if (rc == 0) {
        *cpu = d->cpu + b->offset;
        *bus = d->bus + b->offset;
    }
    return rc;
}

int weft_dma_share(weft_dma_t *d, weft_platform_t *p, const size_t *sizes, unsigned n, void **cpu,
                   uint64_t *bus, int *fds)
{
    if (!d || !p || !sizes || n == 0 || !cpu || !bus || !fds)
        return -EINVAL;
    if (!p->ops->dma_share || !p->ops->dma_unshare)
        return -ENOTSUP;
    const size_t cpu_skip = (size_t)(d->cpu - (uint8_t *)d->region.cpu);
    if (((uintptr_t)d->cpu - (uintptr_t)d->bus) % WEFT_DMA_PAGE != 0)
        return -ENOTSUP; /* CPU and bus pages do not line up: no page can be shared */
    size_t total = 0;
    for (unsigned i = 0; i < n; i++) {
        if (sizes[i] == 0)
            return -EINVAL;
        if (sizes[i] > SIZE_MAX - WEFT_DMA_PAGE || total > SIZE_MAX - WEFT_DMA_PAGE - sizes[i])
            return -ENOMEM;
        total += round_up(sizes[i], WEFT_DMA_PAGE);
    }
    weft_dma_block_t *b;
    int rc = alloc_aligned(d, total, WEFT_DMA_PAGE, &b);
    if (rc != 0)
        return rc;
    pthread_mutex_lock(&d->lock);
    b->shared = p; /* freeing it gives the whole block private pages again */
    pthread_mutex_unlock(&d->lock);
    size_t at = b->offset;
    for (unsigned i = 0; i < n && rc >= 0; i++) {
        rc = p->ops->dma_share(p, cpu_skip + at, round_up(sizes[i], WEFT_DMA_PAGE));
        if (rc >= 0) {
            fds[i] = rc;
            at += round_up(sizes[i], WEFT_DMA_PAGE);
        } else {
            while (i > 0)
                close(fds[--i]);
        }
    }
    if (rc < 0) {
        weft_dma_free(d, d->cpu + b->offset);
        return rc;
    }
    *cpu = d->cpu + b->offset;
    *bus = d->bus + b->offset;
    return 0;
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
            break;       /* double free */
        if (b->shared) { /* private pages again before anyone can have the range */
            ret = b->shared->ops->dma_unshare(
                b->shared, (size_t)(d->cpu - (uint8_t *)d->region.cpu) + b->offset, b->size);
            if (ret != 0)
                break; /* still shared: kept used rather than handed out */
            b->shared = NULL;
        }
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

int weft_mem_share(weft_t *w, size_t size, void **cpu, uint64_t *bus, int *fd)
{
    if (!w)
        return -EINVAL;
    return weft_dma_share(&w->dma, w->platform, &size, 1, cpu, bus, fd);
}

int weft_mem_share_parts(weft_t *w, const size_t *sizes, unsigned n, void **cpu, uint64_t *bus,
                         int *fds)
{
    if (!w)
        return -EINVAL;
    return weft_dma_share(&w->dma, w->platform, sizes, n, cpu, bus, fds);
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

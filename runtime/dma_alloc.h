/**
 * @file dma_alloc.h
 * @brief Allocator over the platform's DMA region: first fit, neighbours coalesced on
 *        free, every block 64-byte aligned in bus addresses. Thread-safe.
 *
 * The bookkeeping lives in ordinary heap memory, never in the DMA region itself: hardware
 * threads can write the region, and a stray burst must not corrupt the allocator.
 */
#ifndef WEFT_DMA_ALLOC_H
#define WEFT_DMA_ALLOC_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Alignment and size granule of every block, bytes. */
#define WEFT_DMA_ALIGN 64u

/** The page size of shared blocks (weft_mem_share). */
#define WEFT_DMA_PAGE 4096u

/** One extent of the managed range; extents are kept sorted and cover it without gaps. */
typedef struct weft_dma_block {
    struct weft_dma_block *next;
    size_t offset; /**< from the start of the managed range */
    size_t size;
    int used;
    weft_platform_t *shared; /**< the platform that backs it with an fd (dma_share), or NULL */
} weft_dma_block_t;

/** An allocator. */
typedef struct weft_dma {
    pthread_mutex_t lock;
    uint8_t *cpu;             /**< first managed byte (64-byte aligned in bus addresses) */
    uint64_t bus;             /**< its bus address */
    size_t size;              /**< managed bytes, a multiple of 64 */
    weft_dma_region_t region; /**< the whole region, for address translation */
    weft_dma_block_t *blocks;
} weft_dma_t;

/**
 * @brief Set up an allocator over a region.
 * @retval 0 success
 * @retval -EINVAL NULL argument or a region too small to hold one aligned block
 * @retval -ENOMEM out of memory
 */
int weft_dma_init(weft_dma_t *d, const weft_dma_region_t *region);

/** @brief Release the bookkeeping (the region itself belongs to the platform). */
void weft_dma_fini(weft_dma_t *d);

/**
 * @brief Allocate size bytes (rounded up to 64).
 * @retval 0 success, *cpu and *bus set
 * @retval -EINVAL size 0 or a NULL pointer
 * @retval -ENOMEM no free block that large
 */
int weft_dma_alloc(weft_dma_t *d, size_t size, void **cpu, uint64_t *bus);

/**
 * @brief Allocate one page-aligned block for n parts, one after another, each rounded up
 *        to pages, and have p back each part with an fd another process can map
 *        (dma_share); freeing the block gives all of it private memory again.
 * @retval 0 success, *cpu and *bus (the first part's) and fds[0..n-1] (the caller's) set
 * @retval -EINVAL a size 0 or a NULL pointer; -ENOMEM no free range that large
 * @retval -ENOTSUP the platform cannot share its DMA region
 */
int weft_dma_share(weft_dma_t *d, weft_platform_t *p, const size_t *sizes, unsigned n, void **cpu,
                   uint64_t *bus, int *fds);

/** @brief Free a block from weft_dma_alloc() or weft_dma_share(). @retval -EINVAL not the start of
 * an allocation */
int weft_dma_free(weft_dma_t *d, void *cpu);

/** @brief Bus address of a CPU pointer into the region, 0 when outside it. */
uint64_t weft_dma_bus_addr(const weft_dma_t *d, const void *cpu);

/** @brief Bytes free in total (for tests and statistics). */
size_t weft_dma_free_bytes(weft_dma_t *d);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DMA_ALLOC_H */

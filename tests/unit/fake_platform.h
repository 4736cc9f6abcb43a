/**
 * @file fake_platform.h
 * @brief A software model of Weft's register window for unit tests.
 *
 * It implements the platform interface (include/weft/platform.h) with plain memory:
 * global ID/VERSION/NUM_SLOTS/CYCLE registers and FAKE_NUM_LINKS link descriptions; per
 * slot a HW2SW and an SW2HW word queue, CONTROL, IRQ_STATUS, the fault registers, the
 * WIN_* windows and LINK_BIND bindings (CAPS: FAKE_WINDOWS, FAKE_BINDS) and a BUSY counter; an
 * interrupt wait on a condition variable; a malloc'd DMA region; and a slot_reconfigure
 * that records the image name. It stages requests as the static region does
 * (OSIF_REQ_BUF, OSIF_RSP_BUF, OSIF_RSP_DMA; docs/osif.md, "Staging"): a whole request
 * waiting in HW2SW is copied into the request buffer, word by word as it arrives, and its
 * sequence number written once it is whole and the previous one was released, and a response DMA
 * moves words into SW2HW as it has room. A test plays the hardware thread with the fake_hw_* calls:
 * it pushes request words and pops response words.
 */
#ifndef WEFT_FAKE_PLATFORM_H
#define WEFT_FAKE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include "weft/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bus address of the fake DMA region's first byte. */
#define FAKE_DMA_BUS 0x10000000u
/** Words each OSIF queue holds. */
#define FAKE_FIFO_DEPTH 128u
/** CONTROL writes remembered per slot. */
#define FAKE_CONTROL_LOG 16u
/** Memory windows and link bindings of every slot (CAPS). */
#define FAKE_WINDOWS 2u
#define FAKE_BINDS 2u
/** Links (with at least two slots): link l goes from slot l % 2 to slot (l + 1) % 2, 64
 *  words deep. */
#define FAKE_NUM_LINKS 2u

typedef struct fake_platform fake_platform_t;

/** Settings; zero means the default. */
typedef struct fake_config {
    unsigned num_slots; /**< default 4 */
    size_t dma_size;    /**< default 1 MiB */
    uint32_t id;        /**< ID register; default WEFT_REG_ID_VALUE */
    uint32_t version;   /**< VERSION register; default WEFT_OSIF_VERSION */
} fake_config_t;

/** @brief Create a fake platform. NULL on out of memory. */
fake_platform_t *fake_platform_new(const fake_config_t *cfg);
/** @brief The platform interface of the fake. */
weft_platform_t *fake_platform_base(fake_platform_t *f);
/** @brief Release it (same as the ops' close). */
void fake_platform_free(fake_platform_t *f);

/* ---- the hardware thread's side ---- */

/** @brief The thread writes one request word (HW2SW). @retval -ENOSPC queue full */
int fake_hw_push(fake_platform_t *f, unsigned slot, uint32_t word);
/** @brief Wait up to timeout_ms for one response word (SW2HW). @retval -ETIMEDOUT none */
int fake_hw_pop(fake_platform_t *f, unsigned slot, uint32_t *word, int timeout_ms);
/** @brief Raise a MEMIF fault: FAULT |= bits, FAULT_ADDR, FAULT_INFO. */
void fake_hw_fault(fake_platform_t *f, unsigned slot, uint32_t bits, uint32_t addr, uint32_t info);
/** @brief Set a slot's BUSY counter. */
void fake_hw_set_busy(fake_platform_t *f, unsigned slot, uint64_t cycles);
/** @brief After each RESET, MEM_ACTIVE reads BUSY for this many reads (a burst still in
 *  flight); UINT32_MAX: forever (a bus that never ends it). Default 0. */
void fake_hw_set_mem_drain(fake_platform_t *f, unsigned slot, uint32_t reads);
/** @brief MEM_ACTIVE reads of a slot so far. */
unsigned fake_mem_active_reads(fake_platform_t *f, unsigned slot);
/** @brief Set the fabric cycle counter. */
void fake_set_cycles(fake_platform_t *f, uint64_t cycles);
/** @brief Make the next slot_reconfigure fail with err (0: succeed). */
void fake_fail_reconfigure(fake_platform_t *f, int err);

/* ---- inspection ---- */

/** @brief CONTROL register of a slot. */
uint32_t fake_control(fake_platform_t *f, unsigned slot);
/** @brief The n CONTROL values written to a slot, oldest first; returns how many. */
unsigned fake_control_log(fake_platform_t *f, unsigned slot, uint32_t *out, unsigned max);
/** @brief Image last loaded into a slot ("" if none) and how many loads happened. */
const char *fake_image(fake_platform_t *f, unsigned slot, unsigned *loads);
/** @brief WIN_BASE, WIN_SIZE and WIN_PERM of window i of a slot. */
void fake_window(fake_platform_t *f, unsigned slot, unsigned i, uint32_t *base, uint32_t *size,
                 uint32_t *perm);
/** @brief LINK_BIND register b of a slot. */
uint32_t fake_link_bind(fake_platform_t *f, unsigned slot, unsigned b);
/** @brief Every LINK_FLUSH bit written so far, ORed. */
uint32_t fake_link_flushes(fake_platform_t *f);
/** @brief Words waiting in a slot's HW2SW queue (not yet staged or read by the delegate). */
unsigned fake_hw2sw_count(fake_platform_t *f, unsigned slot);
/** @brief The DMA region. */
weft_dma_region_t fake_dma(fake_platform_t *f);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_FAKE_PLATFORM_H */

/**
 * @file platform.h
 * @brief The platform interface: everything libweft needs from the hardware.
 *
 * The runtime reaches the fabric only through this table: 32-bit MMIO of the static
 * region's register window, a wait for one slot's interrupt, the DMA region shared with
 * hardware threads, slot reset and slot reconfiguration. The simulation backend
 * (platform/sim) and the board backend (platform/board) each implement it, so the
 * runtime code that runs in simulation is the code that runs on a board.
 *
 * All functions return 0 on success or a negative errno value. All may be called from
 * any thread concurrently unless stated otherwise.
 */
#ifndef WEFT_PLATFORM_H
#define WEFT_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The DMA region: memory both the CPU and hardware threads address. */
typedef struct weft_dma_region {
    void *cpu;    /**< CPU pointer to the first byte */
    uint64_t bus; /**< bus address hardware threads use for the first byte */
    size_t size;  /**< size in bytes */
} weft_dma_region_t;

/** An open platform (struct weft_platform): what weft_sim_open() or weft_board_open()
 *  returns and weft_init() runs on. */
typedef struct weft_platform weft_platform_t;

/** The interrupt line after the slots' (irq_wait(p, num_slots(p), ...)): the OS services'
 *  (IRQ_PENDING bit NUM_SLOTS), high while an armed software context of the
 *  synchronisation manager has its answer (docs/hw-services.md). */
#define WEFT_IRQ_LINE_SVC(num_slots) (num_slots)

/** The outcome of a slot programming (weft_platform_ops_t.slot_program). */
typedef struct weft_program_result {
    unsigned error;    /**< 0, or the reconfiguration interface's error (WEFT_FRI_ERR_*) */
    uint64_t cycles;   /**< fabric cycles it took (0 where the platform cannot say) */
    uint32_t bytes;    /**< bytes of the file checked */
    char message[200]; /**< on failure: what was wrong, naming the field or file */
} weft_program_result_t;

/** Operations of a platform backend. */
typedef struct weft_platform_ops {
    /**
     * @brief Read a 32-bit register of the static region.
     * @param offset byte offset in the register window, 4-byte aligned
     * @retval 0 success, *value set
     * @retval -EINVAL offset unaligned or outside the window
     * @retval -EIO the bus answered with an error
     */
    int (*mmio_read)(weft_platform_t *p, uint32_t offset, uint32_t *value);
    /**
     * @brief Write a 32-bit register of the static region.
     * @retval 0 success
     * @retval -EINVAL offset unaligned or outside the window
     * @retval -EIO the bus answered with an error
     */
    int (*mmio_write)(weft_platform_t *p, uint32_t offset, uint32_t value);
    /**
     * @brief Block until slot's interrupt line is high, the wait is cancelled, or the
     *        timeout passes. Level-triggered: returns at once while the line is high.
     * @param slot a slot, or num_slots(): the OS services' line (WEFT_IRQ_LINE_SVC)
     * @param timeout_ms milliseconds to wait; negative waits forever
     * @retval 0 the line is (or was just) high
     * @retval -ETIMEDOUT the timeout passed
     * @retval -ECANCELED irq_cancel() was called for this slot since the last wait
     * @retval -EINVAL no such slot
     */
    int (*irq_wait)(weft_platform_t *p, unsigned slot, int timeout_ms);
    /**
     * @brief Make the current or next irq_wait() on slot return -ECANCELED
     *        (used to stop a delegate). May be called from any thread.
     */
    int (*irq_cancel)(weft_platform_t *p, unsigned slot);
    /** @brief Describe the DMA region. */
    int (*dma_region)(weft_platform_t *p, weft_dma_region_t *region);
    /**
     * @brief Load a hardware thread into a slot (partial reconfiguration).
     * The slot must be stopped (CONTROL.RUN = 0); it stays stopped and in reset.
     * @param image path of the thread's image: a Verilator model shared object in
     *        simulation, a partial bitstream on a board
     * @retval -ENOENT, -ENOEXEC the image is missing or not a usable thread image
     * @retval -EBUSY the slot is running
     */
    int (*slot_reconfigure)(weft_platform_t *p, unsigned slot, const char *image);
    /** @brief Number of slots. */
    unsigned (*num_slots)(weft_platform_t *p);
    /** @brief Release the platform; no other call may be in progress or follow. */
    void (*close)(weft_platform_t *p);
    /**
     * @brief Program a slot from a partial bitstream file (weft/bitstream.h) that lies in
     *        the DMA region, through the reconfiguration port; blocks until it is done.
     * The slot must be stopped. The port programs one slot at a time (a second caller
     * waits); while it programs a slot that slot is decoupled and the others run on.
     * Afterwards the slot is stopped and in reset, holding the file's configuration, or
     * empty if the programming failed.
     * @param bus bus address of the file's first byte; size its length in bytes
     * @retval 0 programmed; res has the cycles it took
     * @retval -EIO the programming failed; res says why, the slot is empty
     * @retval -EINVAL no such slot, or res is NULL
     * @retval -ENOTSUP the platform has no reconfiguration port (may be a NULL entry)
     */
    int (*slot_program)(weft_platform_t *p, unsigned slot, uint64_t bus, size_t size,
                        weft_program_result_t *res);
    /**
     * @brief Back a range of the DMA region with memory another process can map: from
     *        now on its pages are those of a new fd (a memfd on the simulated fabric),
     *        sealed against resizing, its contents zero. The caller owns the fd.
     * @param offset, size page-aligned, inside the region
     * @return the fd (>= 0)
     * @retval -EINVAL a range not page-aligned or outside the region
     * @retval -ENOTSUP the platform cannot share its DMA region (may be a NULL entry)
     */
    int (*dma_share)(weft_platform_t *p, size_t offset, size_t size);
    /**
     * @brief Give a shared range private memory again, contents zero: a process that
     *        still maps the fd no longer reaches the region.
     * @retval 0 done; -EINVAL as dma_share
     */
    int (*dma_unshare)(weft_platform_t *p, size_t offset, size_t size);
} weft_platform_ops_t;

/** A platform instance: the ops table plus backend state after it. */
struct weft_platform {
    /** The backend's operations: the runtime reaches the fabric through these alone. */
    const weft_platform_ops_t *ops;
    const char *name; /**< "sim", "board", "fake", for messages */
};

#ifdef __cplusplus
}
#endif

#endif /* WEFT_PLATFORM_H */

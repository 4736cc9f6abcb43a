/**
 * @file board.h
 * @brief The board platform: the static region on a Zynq-class CPU+FPGA board, reached
 *        through Linux UIO, a u-dma-buf contiguous buffer and the FPGA manager.
 *
 * The backend maps the static region's register window from a UIO device, waits for the
 * fabric's interrupt on the same device, maps the DMA region from a u-dma-buf device and
 * loads partial bitstreams into slots through the FPGA manager's sysfs files. docs/board.md
 * describes the device tree nodes it expects.
 *
 * Beyond platform.h, the board's operations also return: irq_wait() -EIO once the
 * interrupt source has failed (logged) while the slot's line is low; slot_reconfigure()
 * -EINVAL for an image path outside the firmware directory and -EIO, or the errno of the
 * FPGA manager's sysfs write, when loading fails (logged, naming the file).
 *
 * Status: built and unit-tested against a fake register file only; it has not yet run on
 * a board.
 */
#ifndef WEFT_BOARD_H
#define WEFT_BOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "weft/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Register window size used when weft_board_config_t.uio_map_size is 0 (16-bit AXI4-Lite). */
#define WEFT_BOARD_DEFAULT_MAP_SIZE 0x10000u

/**
 * Board settings; zero-initialise and set what differs from the defaults. Every path
 * left NULL takes the default named beside it, so on a board with one Weft static region
 * and one u-dma-buf a zeroed config is enough.
 */
typedef struct weft_board_config {
    /** UIO device of the static region's register window (map 0). Default "/dev/uio0". */
    const char *uio_path;
    /** Bytes of the register window to map; a multiple of 4. 0 means
     *  WEFT_BOARD_DEFAULT_MAP_SIZE. Must match /sys/class/uio/uioN/maps/map0/size or less. */
    size_t uio_map_size;
    /** Where the interrupt count is read (4 bytes per read()). NULL means uio_path, as
     *  on a board; tests point it at a FIFO of their own. */
    const char *irq_path;
    /** Where the interrupt is re-enabled (a 4-byte 1 is written). NULL means irq_path,
     *  which is then opened once for both; tests point it at a second FIFO. */
    const char *irq_enable_path;
    /** DMA buffer device. Default "/dev/udmabuf0". */
    const char *dma_path;
    /** File holding the buffer's bus address (hex, "0x" optional).
     *  Default "/sys/class/u-dma-buf/udmabuf0/phys_addr". */
    const char *dma_phys_addr_path;
    /** File holding the buffer's size in bytes (decimal, or hex with "0x").
     *  Default "/sys/class/u-dma-buf/udmabuf0/size". */
    const char *dma_size_path;
    /** Map the DMA buffer cached (no O_SYNC). Default false: u-dma-buf maps it uncached,
     *  which keeps it coherent with the fabric's non-coherent AXI ports. */
    bool dma_cached;
    /** FPGA manager sysfs directory (holds "flags", "firmware", "state").
     *  Default "/sys/class/fpga_manager/fpga0". */
    const char *fpga_mgr_dir;
    /** Directory the FPGA manager loads images from; partial bitstreams must sit in it.
     *  Default "/lib/firmware". */
    const char *firmware_dir;
    /** While an interrupt line that was already reported stays high, the interrupt is
     *  left disabled and IRQ_PENDING is polled this often (microseconds) for waiters on
     *  other slots. 0 means 200. */
    unsigned irq_poll_us;
    /** Where messages go (one line each, no newline); NULL means stderr. Open failures
     *  are reported here, naming the path and the system's error text. */
    void (*log)(void *arg, const char *msg);
    /** Passed to log. */
    void *log_arg;
} weft_board_config_t;

/**
 * @brief Open the board platform: map the register window and check it is a Weft static
 *        region, map the DMA buffer, check the FPGA manager, start the interrupt thread.
 *
 * Every failure is reported through cfg->log naming the path and what was wrong;
 * nothing is left open or mapped after a failure.
 *
 * @param out receives the platform; release it with its close operation
 * @param cfg settings, or NULL for the defaults
 * @retval 0 success, *out set
 * @retval -EINVAL out is NULL, a setting is bad (map size not a multiple of 4 or smaller
 *         than the global registers and one slot), a sysfs
 *         file is malformed, or a regular file standing in for a device is too small
 * @retval -ENODEV the register window does not hold a Weft static region (ID, VERSION or
 *         NUM_SLOTS wrong)
 * @retval -ERANGE the DMA buffer does not lie below 4 GiB on the bus
 * @retval -ENOENT, -EACCES, ... (any open()/mmap() errno) a device or file cannot be used
 * @retval -ENOMEM out of memory
 */
int weft_board_open(weft_platform_t **out, const weft_board_config_t *cfg);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_BOARD_H */

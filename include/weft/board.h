/**
 * @file board.h
 * @brief The board platform: the static region on a Zynq-class CPU+FPGA board, reached
 *        through Linux UIO, a u-dma-buf contiguous buffer and the FPGA manager.
 *
 * The backend maps the static region's register window from a UIO device, waits for the
 * fabric's interrupt on the same device, maps the DMA region from a u-dma-buf device and
 * loads partial bitstreams into slots either through the FPGA manager's sysfs files (as
 * Xilinx kernels have them; the default) or, as mainline Linux does it, by applying a
 * device-tree overlay to the slot's FPGA region through configfs
 * (WEFT_BOARD_RECONF_OVERLAY). docs/board.md describes the device tree nodes it expects.
 *
 * Beyond platform.h, the board's operations also return: irq_wait() -EIO once the
 * interrupt source has failed (logged) while the slot's line is low; slot_reconfigure()
 * -EINVAL for an image path outside the firmware directory and -EIO, or the errno of the
 * FPGA manager's sysfs write or of the overlay's configfs files, when loading fails
 * (logged, naming the file).
 *
 * Status: built and unit-tested against a fake register file and fake sysfs and configfs
 * trees only; it has not yet run on a board.
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

/** How the backend loads a partial bitstream into a slot (weft_board_config_t.reconf_method). */
typedef enum weft_board_reconf_method {
    /** The FPGA manager's "flags" and "firmware" sysfs files, found in Xilinx kernels
     *  (fpga_mgr_dir). The default. */
    WEFT_BOARD_RECONF_FPGA_MGR = 0,
    /** The mainline FPGA region flow: a device-tree overlay targeting the slot's FPGA
     *  region (fpga_regions) with firmware-name and partial-fpga-config, applied through
     *  the configfs overlay interface (overlays_dir). That interface is not in mainline
     *  Linux: it is the out-of-tree patch of the Xilinx and ADI kernels
     *  (CONFIG_OF_CONFIGFS) or the dtbocfg module. */
    WEFT_BOARD_RECONF_OVERLAY = 1,
} weft_board_reconf_method_t;

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
    /** FPGA manager sysfs directory (holds "flags", "firmware", "state"); used by
     *  WEFT_BOARD_RECONF_FPGA_MGR only. Default "/sys/class/fpga_manager/fpga0". */
    const char *fpga_mgr_dir;
    /** Directory the FPGA manager loads images from; partial bitstreams must sit in it.
     *  Default "/lib/firmware". */
    const char *firmware_dir;
    /** How slots are reconfigured. Default (0) WEFT_BOARD_RECONF_FPGA_MGR. */
    weft_board_reconf_method_t reconf_method;
    /** WEFT_BOARD_RECONF_OVERLAY: the configfs directory of device-tree overlays; the
     *  backend makes one item, `weft-slot<N>`, per loaded slot.
     *  Default "/sys/kernel/config/device-tree/overlays". */
    const char *overlays_dir;
    /** WEFT_BOARD_RECONF_OVERLAY: the device-tree path of each slot's FPGA region node
     *  (compatible "fpga-region"), indexed by slot, e.g. "/fpga-full/fpga-region-0". An
     *  absolute node path, not a label: the overlay names it with target-path, which
     *  needs no symbols in the base tree. Every slot the static region reports needs one;
     *  entries past NUM_SLOTS are ignored. */
    const char *const *fpga_regions;
    /** Number of entries in fpga_regions. */
    size_t num_fpga_regions;
    /** WEFT_BOARD_RECONF_OVERLAY: the live device tree as files, where each region node
     *  is checked at open. Default "/sys/firmware/devicetree/base". */
    const char *devicetree_dir;
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
 *        region, map the DMA buffer, check the FPGA manager (or the overlay directory and
 *        the slots' FPGA regions), start the interrupt thread.
 *
 * Every failure is reported through cfg->log naming the path and what was wrong;
 * nothing is left open or mapped after a failure.
 *
 * @param out receives the platform; release it with its close operation
 * @param cfg settings, or NULL for the defaults
 * @retval 0 success, *out set
 * @retval -EINVAL out is NULL, a setting is bad (map size not a multiple of 4 or smaller
 *         than the global registers and one slot; an unknown reconf_method; with the
 *         overlay method, a slot without an FPGA region, a region path that is not an
 *         absolute node path, two slots naming one region, or a node that is not an
 *         fpga-region), a sysfs file is malformed, or a regular file standing in for a
 *         device is too small
 * @retval -ENODEV the register window does not hold a Weft static region (ID, VERSION or
 *         NUM_SLOTS wrong)
 * @retval -ERANGE the DMA buffer does not lie below 4 GiB on the bus
 * @retval -ENOENT, -EACCES, ... (any open()/mmap() errno) a device or file cannot be used
 *         (with the overlay method also: the overlays directory or a region node is
 *         missing)
 * @retval -ENOMEM out of memory
 */
int weft_board_open(weft_platform_t **out, const weft_board_config_t *cfg);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_BOARD_H */

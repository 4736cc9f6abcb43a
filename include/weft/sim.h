/**
 * @file sim.h
 * @brief The simulation platform: the static region and every slot as Verilator models,
 *        clocked in this process.
 */
#ifndef WEFT_SIM_H
#define WEFT_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "weft/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Evaluate every model at every cycle: no skipped hold edges of the static region, no
 * paused slots (docs/architecture.md, "Simulation backend"). Fabric cycle counts are the
 * same either way; this is for measuring what skipping saves and for checking that.
 */
#define WEFT_SIM_EVAL_ALL 0x1u

/** Simulation settings; zero-initialise and set what you need. */
typedef struct weft_sim_config {
    size_t dma_size; /**< DMA region bytes; 0: the platform description's (dma.size) */
    uint32_t
        dma_bus_base; /**< bus address of its first byte; 0: the description's (dma.bus_base) */
    uint32_t flags;   /**< WEFT_SIM_* flags */
    /** The image directory: the only place the reconfiguration port loads a slot's
     *  configuration from, an image named by a bitstream and matching its SHA-256
     *  (docs/reconfiguration.md); NULL: the build's images (WEFT_SIM_IMAGE_DIR), or for
     *  the installed libweft_sim.so the images installed beside it */
    const char *image_dir;
    /** Waveforms on demand (docs/waves.md): the slots whose thread's signals are recorded
     *  into FST files, e.g. "slot=0 from=1000 to=5000 file=sort.fst; slot=2"; NULL: none.
     *  The environment variable WEFT_WAVES, when set, is used instead, so a run can be
     *  recorded without changing the program. A malformed request fails weft_sim_open()
     *  with -EINVAL and a message on stderr naming what was wrong. */
    const char *waves;
} weft_sim_config_t;

/** Fabric counters of a simulation platform. */
typedef struct weft_sim_stats {
    uint64_t cycles;       /**< fabric cycles simulated */
    uint64_t mmio_ops;     /**< AXI4-Lite transactions carried out */
    uint64_t sleeps;       /**< times the clock thread slept on a quiet fabric */
    uint64_t static_evals; /**< evaluations of the static region's model */
    uint64_t held_cycles;  /**< cycles whose static-region edge was skipped (holding) */
    uint64_t slot_evals;   /**< evaluations of thread models, every slot together */
    uint64_t slot_edges;   /**< clock edges given to thread models, every slot together */
    uint64_t sim_ns;       /**< host nanoseconds spent running the fabric (by the clock
                                thread, or by a runtime thread in a register access), not
                                resting: what a board would not spend, for board
                                projections (docs/benchmarks.md) */
} weft_sim_stats_t;

/**
 * @brief Build the fabric (static region model, empty slots, DMA region) and start its
 *        clock thread.
 * @param out receives the platform, for weft_init(); release it with its close operation
 * @param cfg settings, or NULL for the defaults
 * @retval 0 success, *out set
 * @retval -EINVAL bad setting (DMA size not a multiple of 4096, base unaligned or region
 *         past 4 GiB, a malformed waveform request)
 * @retval -ENOMEM out of memory
 */
int weft_sim_open(weft_platform_t **out, const weft_sim_config_t *cfg);

/** @brief Counters of a platform from weft_sim_open(). @retval -EINVAL not a sim platform */
int weft_sim_stats(weft_platform_t *p, weft_sim_stats_t *stats);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_SIM_H */

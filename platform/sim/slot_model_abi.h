/**
 * @file slot_model_abi.h
 * @brief The C ABI between the simulation backend and a hardware-thread image.
 *
 * A hardware-thread image is a shared object holding one Verilator model of a thread
 * whose top module has the slot-boundary port list (docs/architecture.md). It carries its
 * own Verilator runtime with hidden visibility and exports one symbol,
 * weft_slot_model_abi(), returning this table. Plain C types only, so an image built by
 * another compiler or Verilator version still loads.
 */
#ifndef WEFT_SLOT_MODEL_ABI_H
#define WEFT_SLOT_MODEL_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_SLOT_MODEL_ABI_VERSION 1u

/** Signals into the thread (static region outputs). */
typedef struct weft_slot_inputs {
    uint8_t rst_n;
    uint32_t osif_in_data;
    uint8_t osif_in_valid;
    uint8_t osif_out_ready;
    uint8_t mem_cmd_ready;
    uint8_t mem_wr_ready;
    uint32_t mem_rd_data;
    uint8_t mem_rd_valid;
} weft_slot_inputs_t;

/** Signals out of the thread (static region inputs). */
typedef struct weft_slot_outputs {
    uint8_t osif_in_ready;
    uint32_t osif_out_data;
    uint8_t osif_out_valid;
    uint32_t mem_cmd_data;
    uint8_t mem_cmd_valid;
    uint32_t mem_wr_data;
    uint8_t mem_wr_valid;
    uint8_t mem_rd_ready;
} weft_slot_outputs_t;

typedef struct weft_slot_model weft_slot_model_t;

/** What an image exports. */
typedef struct weft_slot_model_abi {
    uint32_t abi_version;    /**< WEFT_SLOT_MODEL_ABI_VERSION */
    const char *thread_name; /**< the thread's top module name */
    /** Create a model instance; NULL on failure. */
    weft_slot_model_t *(*create)(void);
    void (*destroy)(weft_slot_model_t *m);
    /** Set clk and the inputs, evaluate, and return the outputs. */
    void (*eval)(weft_slot_model_t *m, int clk, const weft_slot_inputs_t *in,
                 weft_slot_outputs_t *out);
} weft_slot_model_abi_t;

/** Name of the one symbol an image exports. */
#define WEFT_SLOT_MODEL_ABI_SYMBOL "weft_slot_model_abi"

typedef const weft_slot_model_abi_t *(*weft_slot_model_abi_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_SLOT_MODEL_ABI_H */

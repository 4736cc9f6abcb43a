/**
 * @file slot_model_abi.h
 * @brief The C ABI between the simulation backend and a hardware-thread image.
 *
 * A hardware-thread image is a shared object holding one Verilator model of a thread
 * whose top module has the slot-boundary port list (docs/architecture.md). It carries its
 * own Verilator runtime with hidden visibility and exports one symbol,
 * weft_slot_model_abi(), returning this table. Plain C types only, so an image built by
 * another compiler or Verilator version still loads.
 *
 * The slot's channels cross the ABI as the two structs of the boundary
 * (protocol/osif.yaml, slot_boundary), each as an array of 32-bit words: `rsp` (static
 * region to thread, WEFT_SLOT_RSP_WORDS words) and `req` (thread to static region,
 * WEFT_SLOT_REQ_WORDS words), bit b of a struct in bit b % 32 of word b / 32.
 */
#ifndef WEFT_SLOT_MODEL_ABI_H
#define WEFT_SLOT_MODEL_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_SLOT_MODEL_ABI_VERSION 3u

typedef struct weft_slot_model weft_slot_model_t;

/** What an image exports. */
typedef struct weft_slot_model_abi {
    uint32_t abi_version;    /**< WEFT_SLOT_MODEL_ABI_VERSION */
    const char *thread_name; /**< the thread's top module name */
    uint32_t req_bits;       /**< width of the thread's slot_req_t (WEFT_SLOT_REQ_BITS) */
    uint32_t rsp_bits;       /**< width of its slot_rsp_t (WEFT_SLOT_RSP_BITS) */
    /** Create a model instance, settled with the thread held in reset; NULL on failure. */
    weft_slot_model_t *(*create)(void);
    void (*destroy)(weft_slot_model_t *m);
    /**
     * Set rst_n and the static region's side of the channels, evaluate, and write the
     * thread's side after the evaluation to req. edge = 0: settle the combinational logic
     * with the new inputs, no clock edge. edge = 1: one rising clock edge; the thread's
     * registers sample what its logic computes from their old values and these inputs.
     */
    void (*eval)(weft_slot_model_t *m, int edge, int rst_n, const uint32_t *rsp, uint32_t *req);
    /**
     * Waveforms (docs/waves.md): start recording every signal of this instance into a new
     * FST file at path, in picoseconds. Returns 0, or a negative errno when the file
     * cannot be written. Until then the model records nothing and pays nothing for it.
     */
    int (*wave_open)(weft_slot_model_t *m, const char *path);
    /** Record the signals as they are now, at time_ps (after the last edge). */
    void (*wave_sample)(weft_slot_model_t *m, uint64_t time_ps);
    /** Finish and close the file, if one is open (destroy closes it too). */
    void (*wave_close)(weft_slot_model_t *m);
} weft_slot_model_abi_t;

/** Name of the one symbol an image exports. */
#define WEFT_SLOT_MODEL_ABI_SYMBOL "weft_slot_model_abi"

typedef const weft_slot_model_abi_t *(*weft_slot_model_abi_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_SLOT_MODEL_ABI_H */

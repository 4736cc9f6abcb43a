/**
 * @file osif_spec.h
 * @brief What a request should be answered, written from docs/osif.md ("Bad input: error
 *        response or fault") and the contract of weft_osif_decode() in osif_decode.h, not
 *        from the decoder's code, so the fuzz targets can hold the runtime against it.
 */
#ifndef WEFT_FUZZ_OSIF_SPEC_H
#define WEFT_FUZZ_OSIF_SPEC_H

#include <stdint.h>

#include "osif_decode.h"

/** The expected classification of one request. */
typedef struct osif_expect {
    weft_osif_verdict_t verdict;
    uint8_t status; /**< WEFT_OSIF_OK unless REJECT */
    uint8_t cmd;
    uint16_t handle;
    uint16_t nargs;
    const weft_osif_cmd_info_t *info; /**< NULL for an unknown command */
    int res;     /**< index of the entry the handle names, -1 when none is checked */
    int arg_res; /**< COND_(TIMED)WAIT: index of the mutex its argument names, else -1 */
    /** the rule a REJECT breaks (WEFT_REJECT_NONE otherwise); for a command this file does
     *  not know, only set up to the type check */
    weft_osif_reject_t why;
    /** 0: a command this file does not know (newer than it); its argument rules were not
     *  checked, so ACCEPT here may also be a REJECT with BADARGS */
    int exact;
} osif_expect_t;

/** @brief Whether the rules here cover command code (the protocol v3 commands). */
int osif_spec_knows(uint32_t code);

/** @brief MBOX_PUT_BURST or MBOX_TIMEDPUT_BURST: the words after the fixed arguments are
 *         the words to put. */
int osif_spec_burst_put(uint32_t code);

/** @brief MBOX_GET_BURST or MBOX_TIMEDGET_BURST: the first argument is the word count. */
int osif_spec_burst_get(uint32_t code);

/** @brief Whether a handle bound to a resource of res_type takes the commands of
 *         cmd_type: its own, and for a hardware link (LINK) the mailbox ones. */
int osif_spec_takes(uint32_t res_type, uint32_t cmd_type);

/**
 * @brief Classify a request the way the documentation says.
 * @param args the argument words; read only when the header announces at most
 *        WEFT_OSIF_MAX_ARGS of them, and then exactly that many
 */
void osif_spec(uint32_t header, const uint32_t *args, const weft_resource_t *res, unsigned num_res,
               osif_expect_t *out);

#endif /* WEFT_FUZZ_OSIF_SPEC_H */

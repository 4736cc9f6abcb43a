/**
 * @file osif_stage.h
 * @brief A hardware thread's staging buffers (docs/osif.md, "Staging"): the static region
 *        writes each request into the request buffer by DMA and moves long responses out
 *        of the response buffer, so the delegate reads no request word through the
 *        register window and writes a long response with one register access.
 */
#ifndef WEFT_OSIF_STAGE_H
#define WEFT_OSIF_STAGE_H

#include <stdint.h>

#include "weft/osif_protocol.h"
#include "weft_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Words of the request buffer: the sequence number, the header and the most argument
 *  words a request carries. */
#define WEFT_STAGE_REQ_WORDS (WEFT_STAGE_REQ_WORD + 1u + WEFT_OSIF_MAX_ARGS)
/** Words of the response buffer: the longest response, a burst get's header, its
 *  WEFT_OSIF_MAX_ARGS words and burst_end (a message received is at most
 *  WEFT_MQ_MAX_BYTES, two words shorter). */
#define WEFT_STAGE_RSP_WORDS (WEFT_OSIF_MAX_ARGS + 2u)

/**
 * @brief Allocate and zero the thread's staging buffers in the runtime's DMA region.
 * @retval 0 success
 * @retval -ENOMEM the DMA region has no room left
 */
int weft_stage_alloc(weft_hwthread_t *t);

/** @brief Give the buffers back (the slot must be stopped: no DMA may reach them). */
void weft_stage_free(weft_hwthread_t *t);

/** @brief Write OSIF_REQ_BUF and OSIF_RSP_BUF (the slot is held in reset). */
int weft_stage_program(weft_hwthread_t *t);

/**
 * @brief Take the staged request if a new one is there.
 *
 * Reads the sequence number the static region writes after a whole request is in memory;
 * when it moved on by one, copies the request (header and the argument words its nargs
 * announces) to req, which must hold 1 + WEFT_OSIF_MAX_ARGS words.
 * @return words copied; 0 when no new request is staged
 * @retval -EPROTO the sequence number jumped (the static region is not the one this
 *         runtime was built for, or a staging transfer went astray)
 */
int weft_stage_take(weft_hwthread_t *t, uint32_t *req);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_OSIF_STAGE_H */

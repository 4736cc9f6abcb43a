/**
 * @file osif_decode.h
 * @brief Validation of one OSIF request against the protocol table and a thread's
 *        resource array. Pure: no I/O, no locks, no allocation, so it can be tested and
 *        fuzzed on its own.
 *
 * A delegate uses it in two steps. weft_osif_header_split() says how many argument words
 * follow a header (any number the field holds is a request's; since protocol version 4
 * there is no framing fault). Once they are in, weft_osif_decode() classifies the
 * request: accepted, or rejected with an error status (the stream stays in step).
 */
#ifndef WEFT_OSIF_DECODE_H
#define WEFT_OSIF_DECODE_H

#include <stdint.h>

#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest message, in bytes, a hardware thread can send or receive through a message
 *  queue: the words that fit one request after MQ_TIMEDSEND's two fixed arguments. */
#define WEFT_MQ_MAX_BYTES ((WEFT_OSIF_MAX_ARGS - 2u) * 4u)

/** Longest message of MQ_SEND_MEM and MQ_RECEIVE_MEM (the message stays in memory): what
 *  msg_info's length field holds. A queue's mq_msgsize may be up to this; the calls that
 *  carry words (MQ_SEND, MQ_RECEIVE) take its messages only up to WEFT_MQ_MAX_BYTES. */
#define WEFT_MQ_MAX_MEM_BYTES 0xffffu

/** Message length in bytes from an MQ msg_info word ([15:0]). */
static inline uint32_t weft_mq_info_length(uint32_t info)
{
    return info & 0xffffu;
}

/** Message priority from an MQ msg_info word ([31:16]). */
static inline uint32_t weft_mq_info_prio(uint32_t info)
{
    return info >> 16;
}

/** An MQ msg_info word. */
static inline uint32_t weft_mq_info(uint32_t length, uint32_t prio)
{
    return (length & 0xffffu) | (prio << 16);
}

/** What to do with a request. */
typedef enum weft_osif_verdict {
    WEFT_OSIF_ACCEPT = 0, /**< carry it out */
    WEFT_OSIF_REJECT = 1, /**< answer with status (no result words); the thread goes on */
} weft_osif_verdict_t;

/** Why a request was rejected, for the log line. */
typedef enum weft_osif_reject {
    WEFT_REJECT_NONE = 0,
    WEFT_REJECT_UNKNOWN_CMD,     /**< NOSYS */
    WEFT_REJECT_HANDLE_RANGE,    /**< BADHANDLE: outside the resource array */
    WEFT_REJECT_HANDLE_NOT_ZERO, /**< BADHANDLE: the command takes no handle */
    WEFT_REJECT_WRONG_TYPE,      /**< WRONG_TYPE */
    WEFT_REJECT_ARG_COUNT,       /**< BADARGS: nargs is not what the command takes */
    WEFT_REJECT_MSG_LENGTH,      /**< BADARGS: message words do not match its length */
    WEFT_REJECT_BURST_EMPTY,     /**< BADARGS: a burst put without words */
    WEFT_REJECT_BURST_COUNT,     /**< BADARGS: a burst get's count is 0 or too large */
    WEFT_REJECT_COND_MUTEX,      /**< BADARGS: a condition wait's argument is no mutex */
    WEFT_REJECT_HW_OBJECT,       /**< INTERNAL: a well-formed call on an object of the
                                      synchronisation manager, which the static region
                                      should have served */
} weft_osif_reject_t;

/** A request header taken apart. */
typedef struct weft_osif_header {
    uint8_t cmd;
    uint16_t handle;
    uint16_t nargs;
} weft_osif_header_t;

/** The outcome of decoding one request. */
typedef struct weft_osif_decoded {
    weft_osif_verdict_t verdict;
    uint8_t status;         /**< WEFT_OSIF_* status when REJECT, else OK */
    weft_osif_reject_t why; /**< the rule a REJECT broke */
    uint32_t args0;         /**< the first argument word (0 when there is none), for messages */
    weft_osif_header_t hdr;
    const weft_osif_cmd_info_t *info; /**< protocol entry; NULL for an unknown command */
    const weft_resource_t *res;       /**< resource the handle names, when the command takes one */
    const weft_resource_t *arg_res;   /**< COND_(TIMED)WAIT: the mutex its argument names */
} weft_osif_decoded_t;

/** @brief Split a request header into its fields. */
weft_osif_header_t weft_osif_header_split(uint32_t header);

/**
 * @brief Classify one whole request.
 * @param header request header word
 * @param args the argument words that followed it (as many as the header announced;
 *        may be NULL when there are none)
 * @param res, num_res the thread's resource array
 * @param out receives the verdict; never NULL
 *
 * Checks, in order: unknown command (NOSYS); handle outside the array, or
 * non-zero for a command without a handle (BADHANDLE); handle bound to another type
 * (WRONG_TYPE); argument count, exact or, for a variadic command, at least the fixed
 * ones (BADARGS); argument values: a message send's data words against its length, a
 * mailbox burst's word count (1..WEFT_OSIF_MAX_ARGS) and COND_(TIMED)WAIT's mutex handle
 * (BADARGS). A WEFT_RES_LINK handle takes the mailbox commands (weft_res_serves()).
 */
void weft_osif_decode(uint32_t header, const uint32_t *args, const weft_resource_t *res,
                      unsigned num_res, weft_osif_decoded_t *out);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_OSIF_DECODE_H */

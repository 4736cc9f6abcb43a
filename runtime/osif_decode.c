/*
 * Validation of one OSIF request. Pure: it only reads its arguments and the protocol
 * table generated from protocol/osif.yaml.
 */
#include <stdbool.h>
#include <stddef.h>

#include "osif_decode.h"

weft_osif_header_t weft_osif_header_split(uint32_t header)
{
    weft_osif_header_t h;
    h.cmd = (uint8_t)((header >> WEFT_OSIF_REQ_CMD_SHIFT) & WEFT_OSIF_REQ_CMD_MASK);
    h.handle = (uint16_t)((header >> WEFT_OSIF_REQ_HANDLE_SHIFT) & WEFT_OSIF_REQ_HANDLE_MASK);
    h.nargs = (uint16_t)((header >> WEFT_OSIF_REQ_NARGS_SHIFT) & WEFT_OSIF_REQ_NARGS_MASK);
    return h;
}

static void reject(weft_osif_decoded_t *out, uint8_t status, weft_osif_reject_t why)
{
    out->verdict = WEFT_OSIF_REJECT;
    out->status = status;
    out->why = why;
}

void weft_osif_decode(uint32_t header, const uint32_t *args, const weft_resource_t *res,
                      unsigned num_res, weft_osif_decoded_t *out)
{
    out->verdict = WEFT_OSIF_ACCEPT;
    out->status = WEFT_OSIF_OK;
    out->why = WEFT_REJECT_NONE;
    out->hdr = weft_osif_header_split(header);
    out->info = NULL;
    out->res = NULL;
    out->arg_res = NULL;

    out->args0 = (out->hdr.nargs > 0 && args) ? args[0] : 0;

    const weft_osif_cmd_info_t *info = weft_osif_cmd_lookup(out->hdr.cmd);
    out->info = info;
    if (!info) {
        reject(out, WEFT_OSIF_NOSYS, WEFT_REJECT_UNKNOWN_CMD);
        return;
    }

    if (info->handle_type == WEFT_RES_NONE) {
        if (out->hdr.handle != 0) {
            reject(out, WEFT_OSIF_BADHANDLE, WEFT_REJECT_HANDLE_NOT_ZERO);
            return;
        }
    } else {
        if (!res || out->hdr.handle >= num_res) {
            reject(out, WEFT_OSIF_BADHANDLE, WEFT_REJECT_HANDLE_RANGE);
            return;
        }
        out->res = &res[out->hdr.handle];
        if (out->res->type != (weft_res_type_t)info->handle_type &&
            weft_res_serves(out->res->type) != info->handle_type) {
            reject(out, WEFT_OSIF_WRONG_TYPE, WEFT_REJECT_WRONG_TYPE);
            return;
        }
    }

    bool count_ok =
        info->variadic_args ? out->hdr.nargs >= info->nargs : out->hdr.nargs == info->nargs;
    if (!count_ok || (out->hdr.nargs > 0 && !args)) {
        reject(out, WEFT_OSIF_BADARGS, WEFT_REJECT_ARG_COUNT);
        return;
    }

    if (info->handle_type == WEFT_RES_MQ && info->variadic_args) {
        /* A send: the data words must be exactly what msg_info's length announces. */
        uint32_t len = weft_mq_info_length(args[0]);
        if ((len + 3u) / 4u != (uint32_t)(out->hdr.nargs - info->nargs)) {
            reject(out, WEFT_OSIF_BADARGS, WEFT_REJECT_MSG_LENGTH);
            return;
        }
    }

    if (info->handle_type == WEFT_RES_MBOX && info->variadic_args &&
        out->hdr.nargs == info->nargs) {
        reject(out, WEFT_OSIF_BADARGS, WEFT_REJECT_BURST_EMPTY);
        return;
    }
    if (info->handle_type == WEFT_RES_MBOX && info->variadic_results &&
        (args[0] == 0 || args[0] > WEFT_OSIF_MAX_ARGS)) {
        reject(out, WEFT_OSIF_BADARGS, WEFT_REJECT_BURST_COUNT);
        return;
    }

    /* The static region serves every well-formed call on the synchronisation manager's
     * objects; software has no such object to act on. */
    if (out->res && (out->res->type == WEFT_RES_HWSEM || out->res->type == WEFT_RES_HWMUTEX ||
                     out->res->type == WEFT_RES_HWCOND)) {
        reject(out, WEFT_OSIF_INTERNAL, WEFT_REJECT_HW_OBJECT);
        return;
    }

    if (info->code == WEFT_OSIF_CMD_COND_WAIT || info->code == WEFT_OSIF_CMD_COND_TIMEDWAIT) {
        uint32_t m = args[0];
        /* A software condition needs a software mutex (a hardware one is BADARGS). */
        if (m >= num_res || res[m].type != WEFT_RES_MUTEX) {
            reject(out, WEFT_OSIF_BADARGS, WEFT_REJECT_COND_MUTEX);
            return;
        }
        out->arg_res = &res[m];
    }
}

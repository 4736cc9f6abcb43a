/*
 * The documented classification of a request, step by step in the order docs/osif.md
 * lists the checks. Kept apart from runtime/osif_decode.c on purpose: a fuzz target that
 * compared the decoder with a copy of itself would find nothing.
 */
#include "osif_spec.h"

#include <stddef.h>

static void rejected(osif_expect_t *out, uint8_t status, weft_osif_reject_t why)
{
    out->verdict = WEFT_OSIF_REJECT;
    out->status = status;
    out->why = why;
}

static int is_cond_wait(uint8_t code)
{
    return code == WEFT_OSIF_CMD_COND_WAIT || code == WEFT_OSIF_CMD_COND_TIMEDWAIT;
}

int osif_spec_knows(uint32_t code)
{
    static const uint8_t known[] = {
        WEFT_OSIF_CMD_SEM_POST,
        WEFT_OSIF_CMD_SEM_WAIT,
        WEFT_OSIF_CMD_MUTEX_LOCK,
        WEFT_OSIF_CMD_MUTEX_UNLOCK,
        WEFT_OSIF_CMD_MUTEX_TRYLOCK,
        WEFT_OSIF_CMD_COND_WAIT,
        WEFT_OSIF_CMD_COND_SIGNAL,
        WEFT_OSIF_CMD_COND_BROADCAST,
        WEFT_OSIF_CMD_MBOX_GET,
        WEFT_OSIF_CMD_MBOX_PUT,
        WEFT_OSIF_CMD_MBOX_TRYGET,
        WEFT_OSIF_CMD_MBOX_TRYPUT,
        WEFT_OSIF_CMD_MQ_SEND,
        WEFT_OSIF_CMD_MQ_RECEIVE,
        WEFT_OSIF_CMD_GET_INIT_DATA,
        WEFT_OSIF_CMD_THREAD_EXIT,
        WEFT_OSIF_CMD_THREAD_CHECK,
        WEFT_OSIF_CMD_THREAD_YIELD,
        WEFT_OSIF_CMD_GET_RESUME_STATE,
        WEFT_OSIF_CMD_SEM_TIMEDWAIT,
        WEFT_OSIF_CMD_MUTEX_TIMEDLOCK,
        WEFT_OSIF_CMD_COND_TIMEDWAIT,
        WEFT_OSIF_CMD_MBOX_TIMEDGET,
        WEFT_OSIF_CMD_MBOX_TIMEDPUT,
        WEFT_OSIF_CMD_MQ_TIMEDSEND,
        WEFT_OSIF_CMD_MQ_TIMEDRECEIVE,
        WEFT_OSIF_CMD_MBOX_PUT_BURST,
        WEFT_OSIF_CMD_MBOX_GET_BURST,
        WEFT_OSIF_CMD_MBOX_TIMEDPUT_BURST,
        WEFT_OSIF_CMD_MBOX_TIMEDGET_BURST,
        WEFT_OSIF_CMD_MQ_SEND_MEM,
        WEFT_OSIF_CMD_MQ_RECEIVE_MEM,
        WEFT_OSIF_CMD_MQ_TIMEDSEND_MEM,
        WEFT_OSIF_CMD_MQ_TIMEDRECEIVE_MEM,
    };
    for (size_t i = 0; i < sizeof known; i++)
        if (known[i] == code)
            return 1;
    return 0;
}

int osif_spec_burst_put(uint32_t code)
{
    return code == WEFT_OSIF_CMD_MBOX_PUT_BURST || code == WEFT_OSIF_CMD_MBOX_TIMEDPUT_BURST;
}

int osif_spec_burst_get(uint32_t code)
{
    return code == WEFT_OSIF_CMD_MBOX_GET_BURST || code == WEFT_OSIF_CMD_MBOX_TIMEDGET_BURST;
}

/* docs/osif.md and osif.yaml: a hardware link is a mailbox the static region serves, so
 * its handle takes the mailbox commands; every other type takes only its own. */
int osif_spec_takes(uint32_t res_type, uint32_t cmd_type)
{
    return res_type == cmd_type || (res_type == WEFT_RES_LINK && cmd_type == WEFT_RES_MBOX);
}

void osif_spec(uint32_t header, const uint32_t *args, const weft_resource_t *res, unsigned num_res,
               osif_expect_t *out)
{
    out->cmd = (uint8_t)(header >> WEFT_OSIF_REQ_CMD_SHIFT & WEFT_OSIF_REQ_CMD_MASK);
    out->handle = (uint16_t)(header >> WEFT_OSIF_REQ_HANDLE_SHIFT & WEFT_OSIF_REQ_HANDLE_MASK);
    out->nargs = (uint16_t)(header >> WEFT_OSIF_REQ_NARGS_SHIFT & WEFT_OSIF_REQ_NARGS_MASK);
    out->verdict = WEFT_OSIF_ACCEPT;
    out->status = WEFT_OSIF_OK;
    out->info = NULL;
    out->res = -1;
    out->arg_res = -1;
    out->exact = 1;
    out->why = WEFT_REJECT_NONE;

    /* 1. unknown command (every header frames a request: nargs holds no more than one may
     * carry). */
    const weft_osif_cmd_info_t *info = weft_osif_cmd_lookup(out->cmd);
    out->info = info;
    if (!info) {
        rejected(out, WEFT_OSIF_NOSYS, WEFT_REJECT_UNKNOWN_CMD);
        return;
    }
    /* 2. handle outside the array, or non-zero for a command without one. */
    if (info->handle_type == WEFT_RES_NONE && out->handle != 0) {
        rejected(out, WEFT_OSIF_BADHANDLE, WEFT_REJECT_HANDLE_NOT_ZERO);
        return;
    }
    if (info->handle_type != WEFT_RES_NONE && out->handle >= num_res) {
        rejected(out, WEFT_OSIF_BADHANDLE, WEFT_REJECT_HANDLE_RANGE);
        return;
    }
    /* 3. handle bound to a type that does not take the command (a LINK takes MBOX's). */
    if (info->handle_type != WEFT_RES_NONE) {
        out->res = out->handle;
        if (!osif_spec_takes((unsigned)res[out->handle].type, info->handle_type)) {
            rejected(out, WEFT_OSIF_WRONG_TYPE, WEFT_REJECT_WRONG_TYPE);
            return;
        }
    }
    /* The checks so far hold for every command; the argument rules are per command. */
    if (!osif_spec_knows(info->code)) {
        out->exact = 0;
        return;
    }
    /* 4. argument count: exact, or at least the fixed ones for a variadic command. */
    if (info->variadic_args ? out->nargs < info->nargs : out->nargs != info->nargs) {
        rejected(out, WEFT_OSIF_BADARGS, WEFT_REJECT_ARG_COUNT);
        return;
    }
    /* 5. argument values: a message's data words against its length, ... */
    if (info->variadic_args && info->handle_type == WEFT_RES_MQ) {
        uint32_t len = args[0] & 0xffffu;
        uint32_t words = (uint32_t)out->nargs - info->nargs;
        if (words * 4u < len || words * 4u >= len + 4u) {
            rejected(out, WEFT_OSIF_BADARGS, WEFT_REJECT_MSG_LENGTH);
            return;
        }
    }
    /* ... a burst put's words after its fixed arguments: at least one (the nargs field
     * caps them at WEFT_OSIF_MAX_ARGS), ... */
    if (osif_spec_burst_put(info->code) && out->nargs == info->nargs) {
        rejected(out, WEFT_OSIF_BADARGS, WEFT_REJECT_BURST_EMPTY);
        return;
    }
    /* ... a burst get's count: 1..WEFT_OSIF_MAX_ARGS, ... */
    if (osif_spec_burst_get(info->code) && (args[0] < 1 || args[0] > WEFT_OSIF_MAX_ARGS)) {
        rejected(out, WEFT_OSIF_BADARGS, WEFT_REJECT_BURST_COUNT);
        return;
    }
    /* ... and a condition wait's mutex handle. */
    if (is_cond_wait(info->code)) {
        if (args[0] >= num_res || res[args[0]].type != WEFT_RES_MUTEX) {
            rejected(out, WEFT_OSIF_BADARGS, WEFT_REJECT_COND_MUTEX);
            return;
        }
        out->arg_res = (int)args[0];
    }
}

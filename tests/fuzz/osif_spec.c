/*
 * The documented classification of a request, step by step in the order docs/osif.md
 * lists the checks. Kept apart from runtime/osif_decode.c on purpose: a fuzz target that
 * compared the decoder with a copy of itself would find nothing.
 */
#include "osif_spec.h"

#include <stddef.h>

static void rejected(osif_expect_t *out, uint8_t status)
{
    out->verdict = WEFT_OSIF_REJECT;
    out->status = status;
}

static int is_cond_wait(uint8_t code)
{
    return code == WEFT_OSIF_CMD_COND_WAIT || code == WEFT_OSIF_CMD_COND_TIMEDWAIT;
}

int osif_spec_knows(uint32_t code)
{
    static const uint8_t known[] = {
        WEFT_OSIF_CMD_SEM_POST,         WEFT_OSIF_CMD_SEM_WAIT,
        WEFT_OSIF_CMD_MUTEX_LOCK,       WEFT_OSIF_CMD_MUTEX_UNLOCK,
        WEFT_OSIF_CMD_MUTEX_TRYLOCK,    WEFT_OSIF_CMD_COND_WAIT,
        WEFT_OSIF_CMD_COND_SIGNAL,      WEFT_OSIF_CMD_COND_BROADCAST,
        WEFT_OSIF_CMD_MBOX_GET,         WEFT_OSIF_CMD_MBOX_PUT,
        WEFT_OSIF_CMD_MBOX_TRYGET,      WEFT_OSIF_CMD_MBOX_TRYPUT,
        WEFT_OSIF_CMD_MQ_SEND,          WEFT_OSIF_CMD_MQ_RECEIVE,
        WEFT_OSIF_CMD_GET_INIT_DATA,    WEFT_OSIF_CMD_THREAD_EXIT,
        WEFT_OSIF_CMD_THREAD_CHECK,     WEFT_OSIF_CMD_THREAD_YIELD,
        WEFT_OSIF_CMD_GET_RESUME_STATE, WEFT_OSIF_CMD_SEM_TIMEDWAIT,
        WEFT_OSIF_CMD_MUTEX_TIMEDLOCK,  WEFT_OSIF_CMD_COND_TIMEDWAIT,
        WEFT_OSIF_CMD_MBOX_TIMEDGET,    WEFT_OSIF_CMD_MBOX_TIMEDPUT,
        WEFT_OSIF_CMD_MQ_TIMEDSEND,     WEFT_OSIF_CMD_MQ_TIMEDRECEIVE,
    };
    for (size_t i = 0; i < sizeof known; i++)
        if (known[i] == code)
            return 1;
    return 0;
}

void osif_spec(uint32_t header, const uint32_t *args, const weft_resource_t *res, unsigned num_res,
               osif_expect_t *out)
{
    out->cmd = (uint8_t)(header >> WEFT_OSIF_REQ_CMD_SHIFT & WEFT_OSIF_REQ_CMD_MASK);
    out->handle = (uint8_t)(header >> WEFT_OSIF_REQ_HANDLE_SHIFT & WEFT_OSIF_REQ_HANDLE_MASK);
    out->nargs = (uint16_t)(header >> WEFT_OSIF_REQ_NARGS_SHIFT & WEFT_OSIF_REQ_NARGS_MASK);
    out->verdict = WEFT_OSIF_ACCEPT;
    out->status = WEFT_OSIF_OK;
    out->info = NULL;
    out->res = -1;
    out->arg_res = -1;
    out->exact = 1;

    /* 1. nargs above the limit: the stream cannot be followed any more. */
    if (out->nargs > WEFT_OSIF_MAX_ARGS) {
        out->verdict = WEFT_OSIF_FRAMING;
        out->status = WEFT_OSIF_BADARGS;
        return;
    }
    /* 2. unknown command. */
    const weft_osif_cmd_info_t *info = weft_osif_cmd_lookup(out->cmd);
    out->info = info;
    if (!info) {
        rejected(out, WEFT_OSIF_NOSYS);
        return;
    }
    /* 3. handle outside the array, or non-zero for a command without one. */
    if (info->handle_type == WEFT_RES_NONE ? out->handle != 0 : out->handle >= num_res) {
        rejected(out, WEFT_OSIF_BADHANDLE);
        return;
    }
    /* 4. handle bound to another type. */
    if (info->handle_type != WEFT_RES_NONE) {
        out->res = out->handle;
        if ((unsigned)res[out->handle].type != info->handle_type) {
            rejected(out, WEFT_OSIF_WRONG_TYPE);
            return;
        }
    }
    /* The checks so far hold for every command; the argument rules are per command. */
    if (!osif_spec_knows(info->code)) {
        out->exact = 0;
        return;
    }
    /* 5. argument count: exact, or at least the fixed ones for a variadic command. */
    if (info->variadic_args ? out->nargs < info->nargs : out->nargs != info->nargs) {
        rejected(out, WEFT_OSIF_BADARGS);
        return;
    }
    /* 6. argument values: a message's data words against its length... */
    if (info->variadic_args && info->handle_type == WEFT_RES_MQ) {
        uint32_t len = args[0] & 0xffffu;
        uint32_t words = (uint32_t)out->nargs - info->nargs;
        if (words * 4u < len || words * 4u >= len + 4u) {
            rejected(out, WEFT_OSIF_BADARGS);
            return;
        }
    }
    /* ...and a condition wait's mutex handle. */
    if (is_cond_wait(info->code)) {
        if (args[0] >= num_res || res[args[0]].type != WEFT_RES_MUTEX) {
            rejected(out, WEFT_OSIF_BADARGS);
            return;
        }
        out->arg_res = (int)args[0];
    }
}

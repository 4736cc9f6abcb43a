/*
 * libFuzzer target: the OSIF request decoder (runtime/osif_decode.c) on its own.
 *
 * Input: a resource array (a length byte, then one type byte per entry), then one request
 * (a mode byte and what fuzz_request() reads for it). The decoder's verdict is checked against the
 * documented rules (osif_spec.c) and against its own contract; the resource array, the
 * argument words and the objects live in exactly sized heap blocks, so ASan reports any
 * read outside what the decoder was given (the objects are 0-byte blocks: the decoder
 * must never dereference them). Entries may be of any type up to LINK, which takes the
 * mailbox commands (weft_res_serves()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_request.h"
#include "osif_decode.h"
#include "osif_spec.h"

/* Largest resource array built; handles above it still reach the decoder. */
#define MAX_RES 16u

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_osif_decode: %s:%d: check failed: %s\n", __FILE__, __LINE__,     \
                    #cond);                                                                        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* weft_osif_cmd_lookup() is static inline with a static table: every translation unit
 * has its own copy, so entries are compared by code, not by address. */
static int same_info(const weft_osif_cmd_info_t *a, const weft_osif_cmd_info_t *b)
{
    return a == b || (a && b && a->code == b->code);
}

/* The status each rejection reason comes with (osif_decode.h). */
static uint8_t reason_status(weft_osif_reject_t why)
{
    switch (why) {
    case WEFT_REJECT_UNKNOWN_CMD:
        return WEFT_OSIF_NOSYS;
    case WEFT_REJECT_HANDLE_RANGE:
    case WEFT_REJECT_HANDLE_NOT_ZERO:
        return WEFT_OSIF_BADHANDLE;
    case WEFT_REJECT_WRONG_TYPE:
        return WEFT_OSIF_WRONG_TYPE;
    case WEFT_REJECT_ARG_COUNT:
    case WEFT_REJECT_MSG_LENGTH:
    case WEFT_REJECT_BURST_EMPTY:
    case WEFT_REJECT_BURST_COUNT:
    case WEFT_REJECT_COND_MUTEX:
        return WEFT_OSIF_BADARGS;
    default:
        return WEFT_OSIF_OK;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_request_init();
    /* The generated serves relation is the documented one: every type takes its own
     * commands, a LINK also the mailbox ones, and nothing else. */
    for (unsigned t = WEFT_RES_NONE; t <= WEFT_RES_LINK; t++) {
        CHECK(osif_spec_takes(t, weft_res_serves(t)));
        CHECK(t == WEFT_RES_LINK || weft_res_serves(t) == t);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input_t in = {data, size, 0};

    /* The resource array: first byte its length (bit 6 with length 0: pass NULL), then
     * one type per entry, NONE included. */
    uint8_t b0 = fuzz_u8(&in);
    unsigned n = (b0 & 0x3fu) % (MAX_RES + 1);
    int null_res = n == 0 && (b0 & 0x40);
    weft_resource_t *res = malloc(n ? n * sizeof *res : 1);
    void *object = malloc(0);
    CHECK(res && object);
    for (unsigned i = 0; i < n; i++) {
        res[i].type = (weft_res_type_t)(fuzz_u8(&in) % (WEFT_RES_LINK + 1));
        res[i].object = object;
    }

    fuzz_request_t r;
    fuzz_request(&in, fuzz_u8(&in), res, n, &r);
    uint32_t *args = malloc(r.nargs ? r.nargs * sizeof *args : 0);
    CHECK(args || r.nargs == 0);
    if (r.nargs)
        memcpy(args, r.args, r.nargs * sizeof *args);
    /* No arguments: a NULL pointer or a 0-byte block, both as the contract allows. */
    const uint32_t *pass_args = r.nargs == 0 && (b0 & 0x80) ? NULL : args;
    const weft_resource_t *pass_res = null_res ? NULL : res;

    weft_osif_decoded_t d, again;
    memset(&d, 0xa5, sizeof d); /* nothing may be left over from before */
    weft_osif_decode(r.header, pass_args, pass_res, n, &d);
    weft_osif_decode(r.header, pass_args, pass_res, n, &again);
    osif_expect_t e;
    osif_spec(r.header, args, res, n, &e);

    /* The contract of osif_decode.h. */
    CHECK(d.hdr.cmd == e.cmd && d.hdr.handle == e.handle && d.hdr.nargs == e.nargs);
    CHECK(d.verdict == WEFT_OSIF_ACCEPT || d.verdict == WEFT_OSIF_REJECT);
    CHECK(d.args0 == (e.nargs > 0 ? args[0] : 0));
    if (d.verdict == WEFT_OSIF_ACCEPT) {
        CHECK(d.status == WEFT_OSIF_OK && d.why == WEFT_REJECT_NONE);
        CHECK(d.info != NULL && d.info->code == e.cmd);
        if (d.info->handle_type != WEFT_RES_NONE) {
            CHECK(d.res != NULL && d.res >= res && d.res < res + n);
            CHECK((unsigned)d.res->type == d.info->handle_type ||
                  weft_res_serves(d.res->type) == d.info->handle_type);
            CHECK(d.res == &res[e.handle]);
        } else {
            CHECK(e.handle == 0);
        }
        /* A burst moves 1..WEFT_OSIF_MAX_ARGS words. */
        if (d.info->handle_type == WEFT_RES_MBOX && d.info->variadic_args)
            CHECK(e.nargs > d.info->nargs);
        if (d.info->handle_type == WEFT_RES_MBOX && d.info->variadic_results)
            CHECK(args[0] >= 1 && args[0] <= WEFT_OSIF_MAX_ARGS);
        if (d.info->code == WEFT_OSIF_CMD_COND_WAIT || d.info->code == WEFT_OSIF_CMD_COND_TIMEDWAIT)
            CHECK(d.arg_res != NULL && d.arg_res >= res && d.arg_res < res + n &&
                  d.arg_res->type == WEFT_RES_MUTEX && d.arg_res == &res[args[0]]);
        else
            CHECK(d.arg_res == NULL);
    }
    if (d.verdict == WEFT_OSIF_REJECT)
        CHECK(d.status != WEFT_OSIF_OK && d.why != WEFT_REJECT_NONE &&
              reason_status(d.why) == d.status);
    CHECK(same_info(d.info, weft_osif_cmd_lookup(e.cmd)));

    /* The documented rules, checked in their order. */
    if (e.exact) {
        CHECK(d.verdict == e.verdict);
        CHECK(d.status == e.status);
        CHECK(d.why == e.why);
    } else if (e.verdict == WEFT_OSIF_ACCEPT) {
        CHECK(d.verdict == WEFT_OSIF_ACCEPT ||
              (d.verdict == WEFT_OSIF_REJECT && d.status == WEFT_OSIF_BADARGS));
    } else {
        CHECK(d.verdict == e.verdict && d.status == e.status && d.why == e.why);
    }
    CHECK(same_info(d.info, e.info));
    if (d.verdict == WEFT_OSIF_ACCEPT && e.exact) {
        CHECK(e.res < 0 || d.res == &res[e.res]);
        CHECK(e.arg_res < 0 || d.arg_res == &res[e.arg_res]);
    }

    /* Pure: the same request is classified the same way. */
    CHECK(again.verdict == d.verdict && again.status == d.status && again.why == d.why &&
          again.args0 == d.args0 && same_info(again.info, d.info) && again.res == d.res &&
          again.arg_res == d.arg_res && again.hdr.cmd == d.hdr.cmd &&
          again.hdr.handle == d.hdr.handle && again.hdr.nargs == d.hdr.nargs);

    free(args);
    free(object);
    free(res);
    return 0;
}

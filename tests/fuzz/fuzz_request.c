/* Request builder for the fuzz targets (see fuzz_request.h). */
#include "fuzz_request.h"

/* Known command codes, ascending, from the generated table: the table itself is static
 * inside weft_osif_cmd_lookup(), so it is enumerated through the lookup. */
static uint8_t cmds[256];
static unsigned ncmds;

void fuzz_request_init(void)
{
    ncmds = 0;
    for (unsigned c = 0; c < 256; c++)
        if (weft_osif_cmd_lookup(c))
            cmds[ncmds++] = (uint8_t)c;
}

/* Index of the k-th entry of type (k taken modulo their number), or of any entry when
 * none has that type. */
static uint32_t entry_of_type(const weft_resource_t *res, unsigned n, unsigned type, uint32_t k)
{
    unsigned count = 0;
    for (unsigned i = 0; i < n; i++)
        count += (unsigned)res[i].type == type;
    if (count == 0)
        return n ? k % n : 0;
    k %= count;
    for (unsigned i = 0; i < n; i++)
        if ((unsigned)res[i].type == type && k-- == 0)
            return i;
    return 0;
}

static int is_cond_wait(uint32_t code)
{
    return code == WEFT_OSIF_CMD_COND_WAIT || code == WEFT_OSIF_CMD_COND_TIMEDWAIT;
}

/* A mailbox burst put (its variadic words are the words to put) or get (its first
 * argument is the count, its results variadic). */
static int is_burst_put(const weft_osif_cmd_info_t *info)
{
    return info->handle_type == WEFT_RES_MBOX && info->variadic_args;
}

static int is_burst_get(const weft_osif_cmd_info_t *info)
{
    return info->handle_type == WEFT_RES_MBOX && info->variadic_results;
}

/* Variadic words of a command's own count, from one byte: a message's 0..5 words (up to
 * 20 bytes); a burst's 0..5 words (b < 0x80) or 2..256 in steps of 2, capped at what
 * one request can carry after the fixed arguments (255 words in all). */
static uint32_t variadic_words(const weft_osif_cmd_info_t *info, uint8_t b)
{
    if (!is_burst_put(info) || b < 0x80u)
        return b % 6u;
    uint32_t words = ((b & 0x7fu) + 1u) * 2u;
    return words > WEFT_OSIF_MAX_ARGS - info->nargs ? WEFT_OSIF_MAX_ARGS - info->nargs : words;
}

void fuzz_request(fuzz_input_t *in, uint8_t mode, const weft_resource_t *res, unsigned n,
                  fuzz_request_t *r)
{
    const weft_osif_cmd_info_t *info;
    if (mode & 1) {
        r->header = fuzz_u32(in);
        info = weft_osif_cmd_lookup(r->header >> WEFT_OSIF_REQ_CMD_SHIFT & WEFT_OSIF_REQ_CMD_MASK);
    } else {
        uint8_t c = fuzz_u8(in);
        uint32_t code = (mode & 2) || ncmds == 0 ? c : cmds[c % ncmds];
        info = weft_osif_cmd_lookup(code);
        /* A raw handle: one byte, or with bit 7 set 15 bits of two (past the 8 bits of
         * earlier protocol versions). */
        uint32_t handle = fuzz_u8(in);
        if ((mode & 4) && (handle & 0x80u))
            handle = (handle & 0x7fu) << 8 | fuzz_u8(in);
        if (!(mode & 4) && info)
            handle = info->handle_type == WEFT_RES_NONE
                         ? 0
                         : entry_of_type(res, n, info->handle_type, handle);
        uint32_t natural = info ? info->nargs : 0;
        if (info && info->variadic_args)
            natural += variadic_words(info, fuzz_u8(in));
        uint32_t nargs;
        switch ((mode >> 3) & 3) {
        case 0:
            nargs = natural;
            break;
        case 1:
            nargs = natural + fuzz_u8(in) % 5u;
            nargs = nargs >= 2 ? nargs - 2 : 0;
            break;
        case 2:
            nargs = fuzz_u8(in);
            break;
        default:
            nargs = WEFT_OSIF_MAX_ARGS - fuzz_u8(in) % 4u; /* the longest requests */
            break;
        }
        r->header = weft_osif_req_header(code, handle, nargs);
    }

    r->nargs = r->header >> WEFT_OSIF_REQ_NARGS_SHIFT & WEFT_OSIF_REQ_NARGS_MASK;
    int plausible = (mode & 0x21) == 0x20 && info && r->nargs >= info->nargs;
    /* A plausible burst put's words are counted up from one raw word, so a long burst
     * costs the input 4 bytes, not 4 per word. */
    unsigned raw =
        plausible && is_burst_put(info) && r->nargs > info->nargs ? info->nargs + 1u : r->nargs;
    for (unsigned i = 0; i < raw; i++)
        r->args[i] = fuzz_u32(in);
    for (unsigned i = raw; i < r->nargs; i++)
        r->args[i] = r->args[raw - 1] + (i - raw + 1);

    if (plausible && info->nargs > 0) {
        if (is_cond_wait(info->code))
            r->args[0] = entry_of_type(res, n, WEFT_RES_MUTEX, r->args[0]);
        /* A count of 0..WEFT_OSIF_MAX_ARGS + 1: mostly valid, the two bounds' neighbours
         * included. */
        if (is_burst_get(info))
            r->args[0] %= WEFT_OSIF_MAX_ARGS + 2u;
        if (info->variadic_args && info->handle_type == WEFT_RES_MQ) {
            uint32_t words = r->nargs - info->nargs;
            uint32_t len = words ? words * 4u - (r->args[0] & 3u) : 0;
            /* Mostly a valid priority; now and then one of 2^15 or more. */
            uint32_t prio = (r->args[0] >> 16) & 0x8007u;
            r->args[0] = weft_mq_info(len, prio);
        }
    }
}

/*
 * The delegate: one pthread per hardware thread that carries out its OS calls.
 *
 * Loop: take the request the static region has staged in memory (osif_stage.h), decode
 * it, execute it on the bound native object and write the response: a header alone to
 * OSIF_SW2HW, one with result words into the response buffer and one OSIF_RSP_DMA write,
 * either of which releases the request; then wait for the slot's interrupt, which says
 * that the next request is staged or that the slot faulted. A request costs the delegate
 * no register read (docs/osif.md, "Staging").
 *
 * Every blocking call but a condition wait waits in slices of WEFT_WAIT_SLICE_MS and
 * re-checks the stop request between them, so weft_hwthread_destroy() and
 * weft_shutdown() never hang on an object nobody will post; a condition wait is woken for
 * that by a broadcast instead (exec_cond). A call abandoned that way gets no response:
 * the slot is stopped anyway.
 *
 * Mutexes are locked by this pthread on the hardware thread's behalf (that is why each
 * hardware thread has exactly one delegate: an unlock must come from the locker). The
 * delegate counts what it holds and releases it when the thread ends, however it ends.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "osif_decode.h"
#include "osif_stage.h"
#include "wait_slice.h"
#include "weft_internal.h"

/** What serving one request leads to. */
typedef enum serve_outcome {
    SERVE_CONTINUE = 0, /**< the thread runs on */
    SERVE_EXIT,         /**< THREAD_EXIT: end NORMAL */
    SERVE_STOPPED,      /**< stop requested while blocked: end STOPPED */
    SERVE_FAULT,        /**< end FAULTED (message set) */
} serve_outcome_t;

/** How the thread ended, filled in as the delegate finds out. */
typedef struct ending {
    weft_exit_kind_t kind;
    uint32_t value;
    char message[sizeof(((weft_exit_status_t *)0)->message)];
    int mem_faulted;
    weft_mem_fault_t mem_fault;
} ending_t;

static bool stopping(const weft_hwthread_t *t)
{
    return atomic_load(&t->stop) != WEFT_STOP_NONE;
}

static void set_message(ending_t *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void set_message(ending_t *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
}

static int reg_read(weft_hwthread_t *t, uint32_t reg, uint32_t *v)
{
    return t->platform->ops->mmio_read(t->platform, WEFT_SLOT_REG(t->slot, reg), v);
}

static int reg_write(weft_hwthread_t *t, uint32_t reg, uint32_t v)
{
    return t->platform->ops->mmio_write(t->platform, WEFT_SLOT_REG(t->slot, reg), v);
}

/* ---- responses ----------------------------------------------------------------------- */

/* A response is released by ONE register write: a response of its header alone is
 * written to OSIF_SW2HW, any longer one goes through the response buffer and one
 * OSIF_RSP_DMA write. Every OSIF_SW2HW write releases the request pending at that moment,
 * and a thread may have sent its next request already (it waits in HW2SW and is staged as
 * soon as this one is released): a second word written there would release that next
 * request before the delegate has taken it, and the stager could then write a third into
 * the buffer while the second is read, or be busy with it when that one's OSIF_RSP_DMA
 * comes. (tests/e2e chaos found it: a lost response, a thread waiting for good.) The
 * thread must take the whole previous response before it makes a call; one that does not
 * overflows SW2HW (FAULT.OVERFLOW) or stalls its own response DMA. Returns 0 or a platform
 * error. */
static int respond(weft_hwthread_t *t, uint8_t cmd, uint8_t status, const uint32_t *results,
                   unsigned n)
{
    uint32_t header = weft_osif_resp_header(cmd, status, n);
    if (n == 0)
        return reg_write(t, WEFT_SLOT_REG_OSIF_SW2HW, header);
    if (1u + n > WEFT_STAGE_RSP_WORDS)
        return -EOVERFLOW; /* no command has a longer response (osif_stage.h) */
    t->stage.rsp[0] = header;
    memcpy(t->stage.rsp + 1, results, n * sizeof *results);
    /* Every backend orders these stores before its register write (the simulated and
     * fake ones under a lock, the board's with a barrier in board_reg_write). */
    return reg_write(t, WEFT_SLOT_REG_OSIF_RSP_DMA, 1u + n);
}

/* ---- blocking waits ------------------------------------------------------------------ */

/* One bounded attempt of a blocking operation: at most ms milliseconds (0: do not block).
 * Returns 0 when it happened, -ETIMEDOUT when not yet, or another negative errno. */
typedef int (*attempt_fn)(void *ctx, int ms);

/* Milliseconds from now until *deadline on CLOCK_MONOTONIC, rounded up; 0 once passed. */
static int ms_until(const struct timespec *deadline)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t ns =
        (int64_t)(deadline->tv_sec - now.tv_sec) * 1000000000 + (deadline->tv_nsec - now.tv_nsec);
    if (ns <= 0)
        return 0;
    int64_t ms = (ns + 999999) / 1000000;
    return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

static struct timespec deadline_after_us(uint32_t us)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += us / 1000000u;
    ts.tv_nsec += (long)(us % 1000000u) * 1000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

/* Every blocking call runs here: in slices of slice_ms, so a stop request
 * (-ECANCELED: the thread ends), a signal (-EINTR: answered CANCELED) or the deadline
 * (-ETIMEDOUT; NULL: none) is seen between two of them. With a signal pending the call
 * still succeeds if it can without blocking. */
static int wait_until(weft_hwthread_t *t, attempt_fn attempt, void *ctx,
                      const struct timespec *deadline, bool heed_signals, int slice_ms)
{
    for (;;) {
        bool signalled = heed_signals && atomic_load(&t->signals) != 0;
        int ms = signalled ? 0 : slice_ms;
        if (deadline) {
            int left = ms_until(deadline);
            if (left < ms)
                ms = left;
        }
        int rc = attempt(ctx, ms);
        if (rc != -ETIMEDOUT)
            return rc;
        if (stopping(t))
            return -ECANCELED;
        if (signalled)
            return -EINTR;
        if (deadline && ms_until(deadline) == 0)
            return -ETIMEDOUT;
    }
}

static int blocking_wait(weft_hwthread_t *t, attempt_fn attempt, void *ctx,
                         const struct timespec *deadline)
{
    return wait_until(t, attempt, ctx, deadline, true, WEFT_WAIT_SLICE_MS);
}

static int attempt_sem(void *ctx, int ms)
{
    return weft_slice_sem_wait(ctx, ms);
}

static int attempt_mutex(void *ctx, int ms)
{
    return weft_slice_mutex_lock(ctx, ms);
}

typedef struct cond_ctx {
    weft_hwthread_t *t;
    pthread_cond_t *c;
    pthread_mutex_t *m;
} cond_ctx_t;

/* The mutex is held again on every return but an error the C library reports without
 * reacquiring it. Taking it back can block for as long as someone else holds it, so the
 * delegate is "parked" meanwhile: a stopper that gives up waiting marks it abandoned
 * (weft_hwthread_stop()), and it then leaves without touching the slot or the runtime. */
static int attempt_cond(void *ctx, int ms)
{
    cond_ctx_t *cc = ctx;
    weft_hwthread_t *t = cc->t;
    pthread_mutex_lock(&t->lock);
    t->parked = cc->c;
    pthread_mutex_unlock(&t->lock);

    int rc = weft_slice_cond_wait(cc->c, cc->m, ms);

    pthread_mutex_lock(&t->lock);
    t->parked = NULL;
    bool abandoned = t->abandoned;
    pthread_mutex_unlock(&t->lock);
    return abandoned && rc != -EINVAL ? -ECANCELED : rc;
}

typedef struct mbox_ctx {
    weft_mbox_t *mb;
    uint32_t word;
} mbox_ctx_t;

static int attempt_mbox_get(void *ctx, int ms)
{
    mbox_ctx_t *mc = ctx;
    return weft_mbox_timedget(mc->mb, &mc->word, ms);
}

static int attempt_mbox_put(void *ctx, int ms)
{
    mbox_ctx_t *mc = ctx;
    return weft_mbox_timedput(mc->mb, mc->word, ms);
}

typedef struct mq_ctx {
    mqd_t q;
    char *msg;   /* the message: buf, or the thread's memory (the _MEM calls) */
    size_t size; /* bytes at msg a receive may fill */
    size_t len;
    unsigned prio;
    char buf[WEFT_MQ_MAX_BYTES];
} mq_ctx_t;

static int attempt_mq_send(void *ctx, int ms)
{
    mq_ctx_t *mc = ctx;
    return weft_slice_mq_send(mc->q, mc->msg, mc->len, mc->prio, ms);
}

static int attempt_mq_receive(void *ctx, int ms)
{
    mq_ctx_t *mc = ctx;
    return weft_slice_mq_receive(mc->q, mc->msg, mc->size, &mc->prio, &mc->len, ms);
}

/* ---- executing one accepted request -------------------------------------------------- */

/** Result of one execution: status and result words for the response. */
typedef struct exec_result {
    uint8_t status;
    unsigned nresults;
    uint32_t results[1 + WEFT_OSIF_MAX_ARGS]; /* a burst get's words and end, or an MQ message */
    const char *why;                          /**< for a non-OK status worth a log line */
    char why_buf[96];
} exec_result_t;

static void log_call_error(weft_hwthread_t *t, const weft_osif_decoded_t *d, uint8_t status,
                           const char *why)
{
    if (d->info)
        weft_log(t->w, "thread '%s' slot %u: %s handle %u: %s (%s)", t->name, t->slot,
                 d->info->name, d->hdr.handle, weft_osif_status_name(status), why);
    else
        weft_log(t->w, "thread '%s' slot %u: command 0x%02x handle %u: %s (%s)", t->name, t->slot,
                 d->hdr.cmd, d->hdr.handle, weft_osif_status_name(status), why);
}

/* A timed variant's code is its blocking call's with bit 7 set (protocol/osif.yaml). */
#define TIMED_BIT 0x80u

/* The command is a timed variant: its timeout is the argument after the fixed ones that
 * precede it (the last fixed argument). */
static bool is_timed(const weft_osif_decoded_t *d)
{
    return (d->info->code & TIMED_BIT) != 0;
}

/* The code of the call's untimed form. */
static unsigned untimed_code(const weft_osif_decoded_t *d)
{
    return d->info->code & ~TIMED_BIT;
}

static struct timespec timed_deadline(const weft_osif_decoded_t *d, const uint32_t *args)
{
    return deadline_after_us(args[d->info->nargs - 1]);
}

/* The status a wait that ended with rc (not 0, not a stop) answers. */
static uint8_t wait_end_status(int rc)
{
    switch (rc) {
    case -EINTR:
        return WEFT_OSIF_CANCELED;
    case -ETIMEDOUT:
        return WEFT_OSIF_TIMEDOUT;
    case -EAGAIN:
        return WEFT_OSIF_AGAIN;
    case -EMSGSIZE:
        return WEFT_OSIF_MSGSIZE;
    default:
        return WEFT_OSIF_INTERNAL;
    }
}

/* Turn a wait's outcome into the response status; -ECANCELED (stop) passes through. */
static int wait_status(int rc, exec_result_t *r)
{
    if (rc == 0 || rc == -ECANCELED)
        return rc;
    r->status = wait_end_status(rc);
    if (r->status == WEFT_OSIF_INTERNAL)
        r->why = strerror(-rc);
    return 0;
}

static int exec_sem(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                    exec_result_t *r)
{
    sem_t *sem = d->res->object;
    if (d->info->code == WEFT_OSIF_CMD_SEM_POST)
        return wait_status(sem_post(sem) == 0 ? 0 : -errno, r);
    struct timespec until;
    if (is_timed(d))
        until = timed_deadline(d, args);
    return wait_status(blocking_wait(t, attempt_sem, sem, is_timed(d) ? &until : NULL), r);
}

static int exec_mutex(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                      exec_result_t *r)
{
    pthread_mutex_t *m = d->res->object;
    unsigned h = t->mutex_key[d->hdr.handle];
    int rc;

    switch (d->info->code) {
    case WEFT_OSIF_CMD_MUTEX_LOCK:
    case WEFT_OSIF_CMD_MUTEX_TIMEDLOCK:
        if (t->held[h] > 0) {
            /* Already held for this thread: only a recursive mutex may be locked again.
             * Anything else would deadlock the delegate on itself. */
            rc = -pthread_mutex_trylock(m);
            if (rc != 0) {
                r->status = WEFT_OSIF_INTERNAL;
                r->why = "the thread already holds this mutex";
                return 0;
            }
        } else {
            struct timespec until;
            if (is_timed(d))
                until = timed_deadline(d, args);
            rc = blocking_wait(t, attempt_mutex, m, is_timed(d) ? &until : NULL);
            if (rc != 0)
                return wait_status(rc, r);
        }
        t->held[h]++;
        return 0;
    case WEFT_OSIF_CMD_MUTEX_TRYLOCK:
        rc = t->held[h] > 0 ? EBUSY : pthread_mutex_trylock(m);
        if (rc == 0)
            t->held[h]++;
        else if (rc == EBUSY)
            r->status = WEFT_OSIF_BUSY;
        else {
            r->status = WEFT_OSIF_INTERNAL;
            r->why = strerror(rc);
        }
        return 0;
    default: /* MUTEX_UNLOCK */
        if (t->held[h] == 0) {
            r->status = WEFT_OSIF_PERM;
            r->why = "the thread does not hold this mutex";
            return 0;
        }
        rc = pthread_mutex_unlock(m);
        if (rc != 0) {
            r->status = WEFT_OSIF_INTERNAL;
            r->why = strerror(rc);
            return 0;
        }
        t->held[h]--;
        return 0;
    }
}

/* One wait to its end, not slices: a slice that timed out just as a broadcast came would
 * wait again without the thread re-checking its condition, and lose the broadcast. Stop
 * requests and signals wake the wait with a broadcast of their own (hwthread.c), which
 * the thread sees as a spurious wake-up. A wait nobody ends is answered as a spurious
 * wake-up after WEFT_COND_WAKE_MS, so a signal sent without the mutex between the
 * thread's check and its wait costs it at most that long; the thread re-checks its
 * condition after every wake-up, as with any condition wait. The mutex is held again on
 * every return, as pthread_cond_*wait does. */
static int exec_cond(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                     exec_result_t *r)
{
    pthread_cond_t *c = d->res->object;

    switch (d->info->code) {
    case WEFT_OSIF_CMD_COND_WAIT:
    case WEFT_OSIF_CMD_COND_TIMEDWAIT: {
        if (t->held[t->mutex_key[args[0]]] == 0) {
            r->status = WEFT_OSIF_PERM;
            r->why = "the thread does not hold the mutex given as argument";
            return 0;
        }
        cond_ctx_t cc = {t, c, d->arg_res->object};
        /* The fallback wake-up answers OK; a shorter timeout of its own answers TIMEDOUT. */
        bool fallback = !is_timed(d) || args[1] >= WEFT_COND_WAKE_MS * 1000u;
        struct timespec until =
            fallback ? deadline_after_us(WEFT_COND_WAKE_MS * 1000u) : timed_deadline(d, args);
        int rc = wait_until(t, attempt_cond, &cc, &until, true, INT_MAX);
        if (rc == -ETIMEDOUT && fallback) {
            atomic_fetch_add(&t->cond_fallbacks, 1);
            rc = 0;
        }
        return wait_status(rc, r);
    }
    case WEFT_OSIF_CMD_COND_SIGNAL:
        return wait_status(-pthread_cond_signal(c), r);
    default: /* COND_BROADCAST */
        return wait_status(-pthread_cond_broadcast(c), r);
    }
}

/* MBOX_(TIMED)PUT_BURST and MBOX_(TIMED)GET_BURST. A signal or the timeout ends the call
 * while it waits: before the first word moves the status says so (no result word); after
 * it the status is OK and the burst_end word says how the call ended and how many words
 * moved, so none is lost (a get's words after them are 0). A stop ends it without an
 * answer. */
static int exec_mbox_burst(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                           exec_result_t *r)
{
    mbox_ctx_t mc = {d->res->object, 0};
    struct timespec until;
    if (is_timed(d))
        until = timed_deadline(d, args);
    const struct timespec *deadline = is_timed(d) ? &until : NULL;
    bool put = d->info->variadic_args;
    // A put sends its words after the fixed arguments; a get says how many it wants.
    unsigned n = put ? (unsigned)(d->hdr.nargs - d->info->nargs) : args[0];
    const uint32_t *words = args + d->info->nargs;
    attempt_fn attempt = put ? attempt_mbox_put : attempt_mbox_get;

    unsigned moved = 0;
    int rc = 0;
    for (; moved < n; moved++) {
        if (put)
            mc.word = words[moved];
        rc = blocking_wait(t, attempt, &mc, deadline);
        if (rc != 0)
            break;
        if (!put)
            r->results[moved] = mc.word;
    }
    if (rc != 0 && (moved == 0 || rc == -ECANCELED))
        return wait_status(rc, r);
    if (!put)
        memset(r->results + moved, 0, (n - moved) * sizeof r->results[0]);
    r->nresults = put ? 1 : n + 1;
    r->results[r->nresults - 1] =
        weft_osif_burst_end(rc == 0 ? WEFT_OSIF_OK : wait_end_status(rc), moved);
    return 0;
}

static int exec_mbox(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                     exec_result_t *r)
{
    if (d->res->type == WEFT_RES_LINK) {
        /* The static region serves every well-formed call in the link's direction; one
         * that reaches software goes the wrong way. */
        const weft_link_t *k = d->res->object;
        snprintf(r->why_buf, sizeof r->why_buf,
                 "handle bound to hardware link %u (slot %u -> slot %u), which this slot cannot %s",
                 k->index, k->from, k->to, k->from == t->slot ? "get from" : "put into");
        r->status = WEFT_OSIF_PERM;
        r->why = r->why_buf;
        return 0;
    }
    if (d->info->variadic_args || d->info->variadic_results)
        return exec_mbox_burst(t, d, args, r);

    mbox_ctx_t mc = {d->res->object, 0};
    struct timespec until;
    int rc;

    switch (d->info->code) {
    case WEFT_OSIF_CMD_MBOX_GET:
        rc = blocking_wait(t, attempt_mbox_get, &mc, NULL);
        break;
    case WEFT_OSIF_CMD_MBOX_TIMEDGET:
        until = timed_deadline(d, args);
        rc = blocking_wait(t, attempt_mbox_get, &mc, &until);
        break;
    case WEFT_OSIF_CMD_MBOX_PUT:
        mc.word = args[0];
        rc = blocking_wait(t, attempt_mbox_put, &mc, NULL);
        break;
    case WEFT_OSIF_CMD_MBOX_TIMEDPUT:
        mc.word = args[0];
        until = timed_deadline(d, args);
        rc = blocking_wait(t, attempt_mbox_put, &mc, &until);
        break;
    case WEFT_OSIF_CMD_MBOX_TRYGET:
        rc = weft_mbox_tryget(mc.mb, &mc.word);
        break;
    default: /* MBOX_TRYPUT */
        rc = weft_mbox_tryput(mc.mb, args[0]);
        break;
    }
    if (rc == 0 && d->info->nresults > 0) {
        r->results[0] = mc.word;
        r->nresults = 1;
    }
    return wait_status(rc, r);
}

/* Message bytes travel little-endian in words: byte 4k+i in bits [8i+7:8i] of word k. */
static void words_to_bytes(const uint32_t *w, size_t len, char *buf)
{
    for (size_t i = 0; i < len; i++)
        buf[i] = (char)(w[i / 4] >> (8 * (i % 4)));
}

static unsigned bytes_to_words(const char *buf, size_t len, uint32_t *w)
{
    unsigned n = (unsigned)((len + 3) / 4);
    memset(w, 0, n * sizeof *w);
    for (size_t i = 0; i < len; i++)
        w[i / 4] |= (uint32_t)(unsigned char)buf[i] << (8 * (i % 4));
    return n;
}

/* The host address of len bytes at bus address addr, when one of the thread's memory
 * windows holds them all and grants perm; else NULL. (Windows lie inside the DMA region:
 * weft_hwthread_create checked.) */
static char *window_bytes(const weft_hwthread_t *t, uint32_t addr, uint32_t len, unsigned perm)
{
    for (unsigned i = 0; t->w && i < t->num_windows; i++) {
        const weft_mem_window_t *win = &t->windows[i];
        if ((win->perm & perm) != perm || addr < win->bus || len > win->size ||
            addr - win->bus > win->size - len)
            continue;
        const weft_dma_region_t *reg = &t->w->dma.region;
        return (char *)reg->cpu + (addr - reg->bus);
    }
    return NULL;
}

/* MQ_SEND_MEM, MQ_RECEIVE_MEM and their timed forms: the message moves between the queue
 * and the thread's memory, by the CPU, without a copy through the OSIF. */
static int exec_mq_mem(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                       mq_ctx_t *mc, long msgsize, const struct timespec *deadline,
                       exec_result_t *r)
{
    const bool send = untimed_code(d) == WEFT_OSIF_CMD_MQ_SEND_MEM;
    const uint32_t bytes = send ? weft_mq_info_length(args[0]) : args[0];
    if (send && bytes > (uint32_t)msgsize) {
        r->status = WEFT_OSIF_MSGSIZE;
        return 0;
    }
    if (!send && bytes < (uint32_t)msgsize) { /* POSIX wants room for the largest message */
        r->status = WEFT_OSIF_MSGSIZE;
        return 0;
    }
    mc->msg = window_bytes(t, args[1], bytes, send ? WEFT_MEM_READ : WEFT_MEM_WRITE);
    if (!mc->msg) {
        r->status = WEFT_OSIF_BADADDR;
        snprintf(r->why_buf, sizeof r->why_buf,
                 "%u bytes at 0x%08x are not inside a memory window that grants %s", bytes, args[1],
                 send ? "reading" : "writing");
        r->why = r->why_buf;
        return 0;
    }
    if (send) {
        mc->len = bytes;
        mc->prio = weft_mq_info_prio(args[0]);
        return wait_status(blocking_wait(t, attempt_mq_send, mc, deadline), r);
    }
    mc->size = bytes;
    int rc = blocking_wait(t, attempt_mq_receive, mc, deadline);
    if (rc == 0) {
        r->results[0] = weft_mq_info((uint32_t)mc->len, mc->prio);
        r->nresults = 1;
    }
    return wait_status(rc, r);
}

static int exec_mq(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                   exec_result_t *r)
{
    mq_ctx_t mc;
    mc.q = *(mqd_t *)d->res->object;
    mc.msg = mc.buf;
    mc.size = sizeof mc.buf;
    struct mq_attr attr;
    if (mq_getattr(mc.q, &attr) != 0)
        return wait_status(-errno, r);
    struct timespec until;
    if (is_timed(d))
        until = timed_deadline(d, args);
    const struct timespec *deadline = is_timed(d) ? &until : NULL;

    const unsigned base = untimed_code(d);
    if (base == WEFT_OSIF_CMD_MQ_SEND_MEM || base == WEFT_OSIF_CMD_MQ_RECEIVE_MEM)
        return exec_mq_mem(t, d, args, &mc, attr.mq_msgsize, deadline, r);
    if (d->info->variadic_args) { /* MQ_SEND, MQ_TIMEDSEND: data follows the fixed args */
        mc.len = weft_mq_info_length(args[0]);
        mc.prio = weft_mq_info_prio(args[0]);
        /* The untimed form carries up to 1016 bytes, one word more than buf: a queue may
         * take longer messages than the calls carry (WEFT_MQ_MAX_MEM_BYTES). */
        if (mc.len > (size_t)attr.mq_msgsize || mc.len > sizeof mc.buf) {
            r->status = WEFT_OSIF_MSGSIZE;
            return 0;
        }
        words_to_bytes(args + d->info->nargs, mc.len, mc.buf);
        return wait_status(blocking_wait(t, attempt_mq_send, &mc, deadline), r);
    }
    /* MQ_RECEIVE, MQ_TIMEDRECEIVE: POSIX wants room for the largest message, and so does
     * the response (a queue for messages longer than a response holds: the _MEM calls). */
    if (args[0] < (uint32_t)attr.mq_msgsize || attr.mq_msgsize > (long)WEFT_MQ_MAX_BYTES) {
        r->status = WEFT_OSIF_MSGSIZE;
        return 0;
    }
    int rc = blocking_wait(t, attempt_mq_receive, &mc, deadline);
    if (rc == 0) {
        r->results[0] = weft_mq_info((uint32_t)mc.len, mc.prio);
        r->nresults = 1 + bytes_to_words(mc.buf, mc.len, r->results + 1);
    }
    return wait_status(rc, r);
}

/* Carry out an accepted request. Returns 0 with r filled in, or -ECANCELED when a stop
 * request ended a blocking wait. */
static int execute(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                   exec_result_t *r)
{
    switch (d->info->handle_type) {
    case WEFT_RES_SEM:
        return exec_sem(t, d, args, r);
    case WEFT_RES_MUTEX:
        return exec_mutex(t, d, args, r);
    case WEFT_RES_COND:
        return exec_cond(t, d, args, r);
    case WEFT_RES_MBOX:
        return exec_mbox(t, d, args, r);
    case WEFT_RES_MQ:
        return exec_mq(t, d, args, r);
    default:
        break;
    }
    switch (d->info->code) {
    case WEFT_OSIF_CMD_GET_INIT_DATA:
        r->results[0] = t->init_data;
        r->nresults = 1;
        return 0;
    case WEFT_OSIF_CMD_THREAD_CHECK:
        r->results[0] = atomic_load(&t->signals);
        r->nresults = 1;
        return 0;
    case WEFT_OSIF_CMD_GET_RESUME_STATE:
        r->results[0] = t->resume ? 1u : 0u;
        r->results[1] = t->resume ? t->resume_state : 0u;
        r->nresults = 2;
        return 0;
    default:
        /* A command in the protocol table the runtime does not carry out (THREAD_EXIT and
         * THREAD_YIELD are handled by the caller). Keeps a newer YAML from crashing an
         * older runtime. */
        r->status = WEFT_OSIF_NOSYS;
        r->why = "command not implemented by this runtime";
        return 0;
    }
}

/* Why the decoder rejected a request, for the log line. */
static const char *reject_reason(const weft_hwthread_t *t, const weft_osif_decoded_t *d, char *buf,
                                 size_t len)
{
    switch (d->why) {
    case WEFT_REJECT_UNKNOWN_CMD:
        return "unknown command";
    case WEFT_REJECT_HANDLE_NOT_ZERO:
        return "this command takes no handle; the field must be 0";
    case WEFT_REJECT_HANDLE_RANGE:
        snprintf(buf, len, "handle outside the resource array of %u entries", t->num_res);
        return buf;
    case WEFT_REJECT_WRONG_TYPE:
        snprintf(buf, len, "handle bound to a %s, the command needs a %s",
                 weft_res_type_name(d->res->type), weft_res_type_name(d->info->handle_type));
        return buf;
    case WEFT_REJECT_ARG_COUNT:
        snprintf(buf, len, "%u argument words, the command takes %s%u", d->hdr.nargs,
                 d->info->variadic_args ? "at least " : "", d->info->nargs);
        return buf;
    case WEFT_REJECT_MSG_LENGTH:
        snprintf(buf, len, "%u message words for a message of %u bytes",
                 d->hdr.nargs - d->info->nargs, (unsigned)weft_mq_info_length(d->args0));
        return buf;
    case WEFT_REJECT_BURST_EMPTY:
        return "a burst put carries no word";
    case WEFT_REJECT_BURST_COUNT:
        snprintf(buf, len, "a burst get of %u words (1 to %u)", (unsigned)d->args0,
                 WEFT_OSIF_MAX_ARGS);
        return buf;
    case WEFT_REJECT_COND_MUTEX:
        return "argument names no software mutex of the resource array";
    case WEFT_REJECT_HW_OBJECT:
        return "handle bound to an object of the synchronisation manager, whose calls the "
               "static region serves: this one should not have reached software";
    default:
        return "rejected";
    }
}

/* Serve one whole request: decode, execute, respond. */
static serve_outcome_t serve(weft_hwthread_t *t, const uint32_t *req, ending_t *e)
{
    const uint32_t *args = req + 1;
    weft_osif_decoded_t d;
    weft_osif_decode(req[0], args, t->res, t->num_res, &d);
    atomic_fetch_add(&t->calls, 1);
    weft_trace_hw_call(t, d.hdr.cmd, d.hdr.handle);

    exec_result_t r = {.status = WEFT_OSIF_OK, .nresults = 0, .why = NULL};
    if (d.verdict == WEFT_OSIF_REJECT) {
        char why[96];
        r.status = d.status;
        log_call_error(t, &d, r.status, reject_reason(t, &d, why, sizeof why));
    } else if (d.info->code == WEFT_OSIF_CMD_THREAD_EXIT) {
        e->kind = WEFT_EXIT_NORMAL;
        e->value = args[0];
        set_message(e, "thread '%s' slot %u: exited with value %" PRIu32, t->name, t->slot,
                    e->value);
        return SERVE_EXIT;
    } else if (d.info->code == WEFT_OSIF_CMD_THREAD_YIELD) {
        e->kind = WEFT_EXIT_YIELDED;
        e->value = args[0];
        set_message(e, "thread '%s' slot %u: yielded with state %" PRIu32, t->name, t->slot,
                    e->value);
        return SERVE_EXIT;
    } else {
        if (execute(t, &d, args, &r) == -ECANCELED || stopping(t))
            return SERVE_STOPPED; /* a stopped thread gets no response */
        if (r.why)
            log_call_error(t, &d, r.status, r.why);
    }

    int rc = respond(t, d.hdr.cmd, r.status, r.results, r.nresults);
    if (rc != 0) {
        e->kind = WEFT_EXIT_FAULTED;
        set_message(e, "thread '%s' slot %u: cannot write the %s response to the slot", t->name,
                    t->slot, d.info ? d.info->name : "error");
        weft_log(t->w, "%s", e->message);
        return SERVE_FAULT;
    }
    weft_trace_hw_served(t, r.status);
    return SERVE_CONTINUE;
}

/* ---- faults ------------------------------------------------------------------------- */

static const char *memif_op_name(uint32_t info)
{
    switch ((info >> WEFT_MEMIF_OP_SHIFT) & WEFT_MEMIF_OP_MASK) {
    case WEFT_MEMIF_OP_READ:
        return "read";
    case WEFT_MEMIF_OP_WRITE:
        return "write";
    default:
        return "invalid-op";
    }
}

/* The slot reported a fault: describe it in one line. */
static void describe_fault(weft_hwthread_t *t, ending_t *e)
{
    uint32_t fault = 0, addr = 0, info = 0;
    reg_read(t, WEFT_SLOT_REG_FAULT, &fault);
    reg_read(t, WEFT_SLOT_REG_FAULT_ADDR, &addr);
    reg_read(t, WEFT_SLOT_REG_FAULT_INFO, &info);

    e->kind = WEFT_EXIT_FAULTED;
    if (fault & WEFT_FAULT_MEM) {
        uint32_t len = (info >> WEFT_MEMIF_LENGTH_SHIFT) & WEFT_MEMIF_LENGTH_MASK;
        e->mem_faulted = 1;
        e->mem_fault.addr = addr;
        e->mem_fault.length = len;
        e->mem_fault.write =
            ((info >> WEFT_MEMIF_OP_SHIFT) & WEFT_MEMIF_OP_MASK) == WEFT_MEMIF_OP_WRITE;
        char granted[96] = "none";
        size_t used = 0;
        for (unsigned i = 0; i < t->num_windows && used < sizeof granted; i++) {
            const weft_mem_window_t *win = &t->windows[i];
            int n = snprintf(granted + used, sizeof granted - used,
                             "%s0x%" PRIx64 "+0x%" PRIx64 " %s%s", i ? ", " : "", win->bus,
                             win->size, win->perm & WEFT_MEM_READ ? "r" : "",
                             win->perm & WEFT_MEM_WRITE ? "w" : "");
            used += n > 0 ? (size_t)n : 0;
        }
        set_message(e,
                    "thread '%s' slot %u: memory fault: %s of %" PRIu32
                    " bytes at bus address 0x%08" PRIx32 " (command word 0x%08" PRIx32
                    "; windows granted: %s); thread stopped",
                    t->name, t->slot, memif_op_name(info), len, addr, info, granted);
    } else if (fault & WEFT_FAULT_STAGE) {
        set_message(e,
                    "thread '%s' slot %u: request staging failed: bus error at 0x%08" PRIx32
                    " (the staging buffers at 0x%08" PRIx64 "); thread stopped",
                    t->name, t->slot, addr, t->stage.req_bus);
    } else if (fault & WEFT_FAULT_ACC) {
        set_message(e,
                    "thread '%s' slot %u: its own registers did not answer an access of the "
                    "slot's ACC window within %u cycles; thread stopped",
                    t->name, t->slot, WEFT_ACC_TIMEOUT);
    } else if (fault & WEFT_FAULT_OVERFLOW) {
        set_message(e,
                    "thread '%s' slot %u: response FIFO overflow (responses written while "
                    "SW2HW was full); thread stopped",
                    t->name, t->slot);
    } else {
        set_message(e, "thread '%s' slot %u: fault pending (FAULT=0x%08" PRIx32 "); thread stopped",
                    t->name, t->slot, fault);
    }
    weft_log(t->w, "%s", e->message);
}

/* ---- the end of a thread ----------------------------------------------------------- */

/* Unlocking never blocks; quiet is for an abandoned delegate, which may not log. */
static void release_mutexes(weft_hwthread_t *t, bool quiet)
{
    for (unsigned h = 0; h < t->num_res; h++) {
        if (t->held[h] == 0)
            continue;
        if (!quiet)
            weft_log(t->w, "thread '%s' slot %u: ended holding mutex handle %u; released", t->name,
                     t->slot, h);
        while (t->held[h] > 0) {
            pthread_mutex_unlock(t->res[h].object);
            t->held[h]--;
        }
    }
}

static void finish(weft_hwthread_t *t, const ending_t *e)
{
    pthread_mutex_lock(&t->lock);
    bool abandoned = t->abandoned;
    if (!abandoned) {
        uint64_t busy = 0;
        if (weft_read_counter64(t->platform, WEFT_SLOT_REG(t->slot, WEFT_SLOT_REG_BUSY_LO),
                                WEFT_SLOT_REG(t->slot, WEFT_SLOT_REG_BUSY_HI), &busy) == 0)
            t->busy_final = busy;
        uint32_t link_calls = 0;
        if (reg_read(t, WEFT_SLOT_REG_LINK_CALLS, &link_calls) == 0)
            t->link_calls_final = link_calls;
        weft_slot_stop(t->platform, t->slot);
        reg_write(t, WEFT_SLOT_REG_FAULT, WEFT_FAULT_ALL);
        t->slot_stopped = true; /* BUSY is cleared now: stats() must use busy_final */
    }
    pthread_mutex_unlock(&t->lock);
    if (!abandoned)
        weft_trace_hw_ended(t, e->kind, e->value);

    /* An abandoned delegate's stopper has already ended the thread, and the runtime may be
     * gone: only the mutexes are left to give back. */
    release_mutexes(t, abandoned);

    pthread_mutex_lock(&t->lock);
    if (!abandoned) {
        t->status.kind = e->kind;
        t->status.value =
            e->kind == WEFT_EXIT_NORMAL || e->kind == WEFT_EXIT_YIELDED ? e->value : 0;
        snprintf(t->status.message, sizeof t->status.message, "%s", e->message);
        t->status.mem_faulted = e->mem_faulted;
        t->status.mem_fault = e->mem_fault;
        t->done = true;
    }
    t->exited = true;
    pthread_cond_broadcast(&t->ended);
    bool free_it = abandoned && t->released;
    pthread_mutex_unlock(&t->lock);
    if (free_it)
        weft_hwthread_free(t);
    if (abandoned)
        weft_abandoned_done(); /* last: the user may now destroy the mutex and cond */
}

/* ---- the loop ---------------------------------------------------------------------- */

/* End the thread on a platform error (message names what failed). */
static serve_outcome_t platform_error(weft_hwthread_t *t, ending_t *e, int rc, const char *what)
{
    e->kind = WEFT_EXIT_FAULTED;
    set_message(e, "thread '%s' slot %u: platform error %d (%s) %s; thread stopped", t->name,
                t->slot, rc, strerror(-rc), what);
    weft_log(t->w, "%s", e->message);
    return SERVE_FAULT;
}

/* ---- an HLS-style accelerator ------------------------------------------------------ */

/* The ap_ctrl_hs control block in the slot's ACC window (docs/hls.md). */
enum {
    HLS_AP_CTRL = 0x00,
    HLS_GIE = 0x04,
    HLS_IER = 0x08,
    HLS_ISR = 0x0C,
    HLS_ARGS = 0x10,
    HLS_AP_START = 0x1,
    HLS_AP_DONE = 0x2,
    HLS_IRQ_DONE = 0x1,
};

static int acc_write(weft_hwthread_t *t, uint32_t off, uint32_t v)
{
    return reg_write(t, WEFT_SLOT_REG_ACC(0) + off, v);
}

/* Arguments, done interrupt, ap_start; then wait for ap_done (or a fault, or a stop). */
static serve_outcome_t run_accelerator(weft_hwthread_t *t, ending_t *e)
{
    weft_platform_t *p = t->platform;
    int rc = 0;
    for (unsigned i = 0; i < t->num_acc_args && rc == 0; i++) {
        rc = acc_write(t, HLS_ARGS + 8 * i, (uint32_t)t->acc_args[i]);
        if (rc == 0)
            rc = acc_write(t, HLS_ARGS + 8 * i + 4, (uint32_t)(t->acc_args[i] >> 32));
    }
    if (rc == 0)
        rc = acc_write(t, HLS_IER, HLS_IRQ_DONE);
    if (rc == 0)
        rc = acc_write(t, HLS_GIE, 1);
    if (rc == 0)
        rc = acc_write(t, HLS_AP_CTRL, HLS_AP_START);
    if (rc != 0)
        return platform_error(t, e, rc, "starting the accelerator");
    for (;;) {
        if (stopping(t))
            return SERVE_STOPPED;
        uint32_t irq = 0, ctrl = 0;
        rc = reg_read(t, WEFT_SLOT_REG_IRQ_STATUS, &irq);
        if (rc != 0)
            return platform_error(t, e, rc, "reading IRQ_STATUS");
        if (irq & WEFT_IRQ_FAULT) {
            describe_fault(t, e);
            return SERVE_FAULT;
        }
        if (irq & WEFT_IRQ_ACC) {
            uint32_t isr = 0;
            rc = reg_read(t, WEFT_SLOT_REG_ACC(0) + HLS_AP_CTRL, &ctrl); /* clears ap_done */
            if (rc == 0)
                rc = reg_read(t, WEFT_SLOT_REG_ACC(0) + HLS_ISR, &isr);
            if (rc == 0 && isr)
                rc = acc_write(t, HLS_ISR, isr); /* toggles the bits that are set off */
            if (rc != 0)
                return platform_error(t, e, rc, "reading the accelerator's AP_CTRL");
            if (ctrl & HLS_AP_DONE) {
                e->kind = WEFT_EXIT_NORMAL;
                e->value = 0;
                set_message(e, "thread '%s' slot %u: accelerator done", t->name, t->slot);
                return SERVE_EXIT;
            }
            continue;
        }
        rc = p->ops->irq_wait(p, t->slot, WEFT_IRQ_WAIT_MS);
        if (rc != 0 && rc != -ECANCELED && rc != -ETIMEDOUT && rc != -EINTR)
            return platform_error(t, e, rc, "waiting for the slot's interrupt");
    }
}

/* ---- a softcore's console (docs/softcore.md, "In a slot") ---------------------------- */

/* Hands the console's bytes to the thread's console function, a line or a buffer at a
 * time, until the softcore has none left (its interrupt, IRQ_STATUS.ACC, is then low),
 * or a buffer's worth has gone: a program that writes as fast as they are read must not
 * keep its delegate from its calls and its stop (the interrupt brings it back). */
static int drain_console(weft_hwthread_t *t)
{
    char buf[256];
    size_t n = 0;
    for (unsigned taken = 0; taken < WEFT_RV_CONSOLE_BYTES; taken++) {
        uint32_t v = 0;
        int rc = reg_read(t, WEFT_SLOT_REG_ACC(0) + WEFT_RV_ACC_CONSOLE, &v);
        if (rc != 0)
            return rc;
        bool got = (v & WEFT_RV_ACC_CONSOLE_VALID) != 0;
        if (got)
            buf[n++] = (char)(v & 0xffu);
        if (n > 0 && (!got || n == sizeof buf || buf[n - 1] == '\n')) {
            t->console(t->console_arg, buf, n);
            n = 0;
        }
        if (!got)
            return 0;
    }
    if (n > 0)
        t->console(t->console_arg, buf, n);
    return 0;
}

/* The softcore raises its interrupt while it holds console bytes, once told that the
 * host takes them (and its exit then waits until they are taken). */
static int take_console(weft_hwthread_t *t)
{
    return t->console ? reg_write(t, WEFT_SLOT_REG_ACC(0) + WEFT_RV_ACC_CONSOLE, 1) : 0;
}

void *weft_delegate_main(void *arg)
{
    weft_hwthread_t *t = arg;
    weft_platform_t *p = t->platform;
    uint32_t req[1 + WEFT_OSIF_MAX_ARGS];
    ending_t e = {.kind = WEFT_EXIT_STOPPED, .value = 0, .message = "stopped"};
    serve_outcome_t out = t->accelerator ? run_accelerator(t, &e) : SERVE_CONTINUE;
    if (out == SERVE_CONTINUE) {
        int rc = take_console(t);
        if (rc != 0)
            out = platform_error(t, &e, rc, "telling the softcore that the host takes its console");
    }
    bool woken = false; /* the interrupt line was high since the last request */

    while (out == SERVE_CONTINUE) {
        if (stopping(t)) {
            out = SERVE_STOPPED;
            break;
        }
        int n = weft_stage_take(t, req);
        if (n > 0) {
            woken = false;
            out = serve(t, req, &e);
            continue;
        }
        if (n < 0) {
            out = platform_error(t, &e, n, "taking a staged request (sequence number out of step)");
            break;
        }
        if (woken) {
            /* The interrupt without a new request: a fault, or a request whose sequence
             * number was not yet visible (IRQ_STATUS, read after it, says which). */
            uint32_t irq = 0;
            int rc = reg_read(t, WEFT_SLOT_REG_IRQ_STATUS, &irq);
            if (rc != 0) {
                out = platform_error(t, &e, rc, "reading IRQ_STATUS");
                break;
            }
            if (irq & WEFT_IRQ_FAULT) {
                describe_fault(t, &e);
                out = SERVE_FAULT;
                break;
            }
            if ((irq & WEFT_IRQ_ACC) && t->console && (rc = drain_console(t)) != 0) {
                out = platform_error(t, &e, rc, "reading the softcore's console");
                break;
            }
            woken = (irq & WEFT_IRQ_OSIF) != 0;
            if (woken)
                continue;
        }
        int rc = p->ops->irq_wait(p, t->slot, WEFT_IRQ_WAIT_MS);
        if (rc == -ECANCELED || rc == -ETIMEDOUT || rc == -EINTR)
            continue;
        if (rc != 0) {
            out = platform_error(t, &e, rc, "waiting for the slot's interrupt");
            break;
        }
        woken = true;
    }

    if (out == SERVE_STOPPED) {
        e.kind = WEFT_EXIT_STOPPED;
        set_message(&e, "thread '%s' slot %u: stopped", t->name, t->slot);
    }
    finish(t, &e);
    return NULL;
}

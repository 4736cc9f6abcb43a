/*
 * The delegate: one pthread per hardware thread that carries out its OS calls.
 *
 * Loop: wait for the slot's interrupt; on a fault, end the thread; otherwise drain the
 * HW2SW FIFO word by word, assembling a request (header plus the argument words it
 * announces, possibly spread over several interrupts), decode it, execute it on the
 * bound native object and write the response to SW2HW.
 *
 * Every blocking call waits in slices of WEFT_WAIT_SLICE_MS and re-checks the stop
 * request between them, so weft_hwthread_destroy() and weft_shutdown() never hang on an
 * object nobody will post. A call abandoned that way gets no response: the slot is
 * stopped anyway.
 *
 * Mutexes are locked by this pthread on the hardware thread's behalf (that is why each
 * hardware thread has exactly one delegate: an unlock must come from the locker). The
 * delegate counts what it holds and releases it when the thread ends, however it ends.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "osif_decode.h"
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

static int respond(weft_hwthread_t *t, uint8_t cmd, uint8_t status, const uint32_t *results,
                   unsigned n)
{
    int rc = reg_write(t, WEFT_SLOT_REG_OSIF_SW2HW, weft_osif_resp_header(cmd, status, n));
    for (unsigned i = 0; rc == 0 && i < n; i++)
        rc = reg_write(t, WEFT_SLOT_REG_OSIF_SW2HW, results[i]);
    return rc;
}

/* ---- blocking waits, sliced ---------------------------------------------------------- */

/* Each returns 0 when the operation happened, -ECANCELED when a stop was requested
 * first, or another negative errno from the object. */

static int sliced_sem_wait(weft_hwthread_t *t, sem_t *sem)
{
    for (;;) {
        int rc = weft_slice_sem_wait(sem, WEFT_WAIT_SLICE_MS);
        if (rc != -ETIMEDOUT)
            return rc;
        if (stopping(t))
            return -ECANCELED;
    }
}

static int sliced_mutex_lock(weft_hwthread_t *t, pthread_mutex_t *m)
{
    for (;;) {
        int rc = weft_slice_mutex_lock(m, WEFT_WAIT_SLICE_MS);
        if (rc != -ETIMEDOUT)
            return rc;
        if (stopping(t))
            return -ECANCELED;
    }
}

/* Returns with m held in every case but an error. A wait nobody ends is answered as a
 * spurious wake-up after WEFT_COND_WAKE_MS: between two slices the delegate holds m
 * without re-checking the thread's condition, so a signal sent after the signaller
 * unlocked can fall into that gap; the thread, which re-checks its condition after every
 * wake-up as with any condition wait, then loses at most that long. */
static int sliced_cond_wait(weft_hwthread_t *t, pthread_cond_t *c, pthread_mutex_t *m)
{
    for (int waited = 0; waited < WEFT_COND_WAKE_MS; waited += WEFT_WAIT_SLICE_MS) {
        int rc = weft_slice_cond_wait(c, m, WEFT_WAIT_SLICE_MS);
        if (rc != -ETIMEDOUT)
            return rc;
        if (stopping(t))
            return -ECANCELED;
    }
    return 0;
}

static int sliced_mbox_get(weft_hwthread_t *t, weft_mbox_t *mb, uint32_t *word)
{
    for (;;) {
        int rc = weft_mbox_timedget(mb, word, WEFT_WAIT_SLICE_MS);
        if (rc != -ETIMEDOUT)
            return rc;
        if (stopping(t))
            return -ECANCELED;
    }
}

static int sliced_mbox_put(weft_hwthread_t *t, weft_mbox_t *mb, uint32_t word)
{
    for (;;) {
        int rc = weft_mbox_timedput(mb, word, WEFT_WAIT_SLICE_MS);
        if (rc != -ETIMEDOUT)
            return rc;
        if (stopping(t))
            return -ECANCELED;
    }
}

/* ---- executing one accepted request -------------------------------------------------- */

/** Result of one execution: status and result words for the response. */
typedef struct exec_result {
    uint8_t status;
    unsigned nresults;
    uint32_t results[1];
    const char *why; /**< for a non-OK status worth a log line */
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

static int exec_mutex(weft_hwthread_t *t, const weft_osif_decoded_t *d, exec_result_t *r)
{
    pthread_mutex_t *m = d->res->object;
    unsigned h = t->mutex_key[d->hdr.handle];
    int rc;

    switch (d->info->code) {
    case WEFT_OSIF_CMD_MUTEX_LOCK:
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
            rc = sliced_mutex_lock(t, m);
            if (rc == -ECANCELED)
                return rc;
            if (rc != 0) {
                r->status = WEFT_OSIF_INTERNAL;
                r->why = strerror(-rc);
                return 0;
            }
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

static int exec_cond(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                     exec_result_t *r)
{
    pthread_cond_t *c = d->res->object;
    int rc;

    switch (d->info->code) {
    case WEFT_OSIF_CMD_COND_WAIT:
        if (t->held[t->mutex_key[args[0]]] == 0) {
            r->status = WEFT_OSIF_PERM;
            r->why = "the thread does not hold the mutex given as argument";
            return 0;
        }
        rc = sliced_cond_wait(t, c, d->arg_res->object);
        if (rc == -ECANCELED)
            return rc;
        break;
    case WEFT_OSIF_CMD_COND_SIGNAL:
        rc = -pthread_cond_signal(c);
        break;
    default: /* COND_BROADCAST */
        rc = -pthread_cond_broadcast(c);
        break;
    }
    if (rc != 0) {
        r->status = WEFT_OSIF_INTERNAL;
        r->why = strerror(-rc);
    }
    return 0;
}

static int exec_mbox(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                     exec_result_t *r)
{
    weft_mbox_t *mb = d->res->object;
    int rc;

    switch (d->info->code) {
    case WEFT_OSIF_CMD_MBOX_GET:
        rc = sliced_mbox_get(t, mb, &r->results[0]);
        break;
    case WEFT_OSIF_CMD_MBOX_PUT:
        rc = sliced_mbox_put(t, mb, args[0]);
        break;
    case WEFT_OSIF_CMD_MBOX_TRYGET:
        rc = weft_mbox_tryget(mb, &r->results[0]);
        break;
    default: /* MBOX_TRYPUT */
        rc = weft_mbox_tryput(mb, args[0]);
        break;
    }
    if (rc == -ECANCELED)
        return rc;
    if (rc == -EAGAIN) {
        r->status = WEFT_OSIF_AGAIN;
    } else if (rc != 0) {
        r->status = WEFT_OSIF_INTERNAL;
        r->why = strerror(-rc);
    } else {
        r->nresults = d->info->nresults;
    }
    return 0;
}

/* Carry out an accepted request. Returns 0 with r filled in, or -ECANCELED when a stop
 * request ended a blocking wait. */
static int execute(weft_hwthread_t *t, const weft_osif_decoded_t *d, const uint32_t *args,
                   exec_result_t *r)
{
    int rc;

    switch (d->info->code) {
    case WEFT_OSIF_CMD_SEM_POST:
        rc = sem_post(d->res->object) == 0 ? 0 : -errno;
        break;
    case WEFT_OSIF_CMD_SEM_WAIT:
        rc = sliced_sem_wait(t, d->res->object);
        if (rc == -ECANCELED)
            return rc;
        break;
    case WEFT_OSIF_CMD_MUTEX_LOCK:
    case WEFT_OSIF_CMD_MUTEX_UNLOCK:
    case WEFT_OSIF_CMD_MUTEX_TRYLOCK:
        return exec_mutex(t, d, r);
    case WEFT_OSIF_CMD_COND_WAIT:
    case WEFT_OSIF_CMD_COND_SIGNAL:
    case WEFT_OSIF_CMD_COND_BROADCAST:
        return exec_cond(t, d, args, r);
    case WEFT_OSIF_CMD_MBOX_GET:
    case WEFT_OSIF_CMD_MBOX_PUT:
    case WEFT_OSIF_CMD_MBOX_TRYGET:
    case WEFT_OSIF_CMD_MBOX_TRYPUT:
        return exec_mbox(t, d, args, r);
    case WEFT_OSIF_CMD_GET_INIT_DATA:
        r->results[0] = t->init_data;
        r->nresults = 1;
        return 0;
    default:
        /* A command in the protocol table the runtime does not carry out (THREAD_EXIT is
         * handled by the caller). Keeps a newer YAML from crashing an older runtime. */
        r->status = WEFT_OSIF_NOSYS;
        r->why = "command not implemented by this runtime";
        return 0;
    }
    if (rc != 0) {
        r->status = WEFT_OSIF_INTERNAL;
        r->why = strerror(-rc);
    }
    return 0;
}

/* Why the decoder rejected a request, for the log line. */
static const char *reject_reason(const weft_hwthread_t *t, const weft_osif_decoded_t *d, char *buf,
                                 size_t len)
{
    switch (d->status) {
    case WEFT_OSIF_NOSYS:
        return "unknown command";
    case WEFT_OSIF_BADHANDLE:
        if (d->info && d->info->handle_type == WEFT_RES_NONE)
            return "this command takes no handle; the field must be 0";
        snprintf(buf, len, "handle outside the resource array of %u entries", t->num_res);
        return buf;
    case WEFT_OSIF_WRONG_TYPE:
        snprintf(buf, len, "handle bound to a %s, the command needs a %s",
                 weft_res_type_name(d->res->type), weft_res_type_name(d->info->handle_type));
        return buf;
    default:
        if (d->info && d->hdr.nargs != d->info->nargs) {
            snprintf(buf, len, "%u argument words, the command takes %u", d->hdr.nargs,
                     d->info->nargs);
            return buf;
        }
        return "argument names no mutex of the resource array";
    }
}

/* Serve one whole request: decode, execute, respond. */
static serve_outcome_t serve(weft_hwthread_t *t, const uint32_t *req, ending_t *e)
{
    const uint32_t *args = req + 1;
    weft_osif_decoded_t d;
    weft_osif_decode(req[0], args, t->res, t->num_res, &d);
    atomic_fetch_add(&t->calls, 1);

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
    } else {
        if (execute(t, &d, args, &r) == -ECANCELED)
            return SERVE_STOPPED;
        if (r.why)
            log_call_error(t, &d, r.status, r.why);
    }

    if (d.info && !d.info->has_response && r.status == WEFT_OSIF_OK)
        return SERVE_CONTINUE;
    if (respond(t, d.hdr.cmd, r.status, r.results, r.nresults) != 0) {
        e->kind = WEFT_EXIT_FAULTED;
        set_message(e, "thread '%s' slot %u: cannot write the %s response to the slot", t->name,
                    t->slot, d.info ? d.info->name : "error");
        weft_log(t->w, "%s", e->message);
        return SERVE_FAULT;
    }
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
        set_message(
            e,
            "thread '%s' slot %u: memory fault: %s of %" PRIu32 " bytes at bus address 0x%08" PRIx32
            " (command word 0x%08" PRIx32 "; window 0x%" PRIx64 " + 0x%" PRIx64 "); thread stopped",
            t->name, t->slot, memif_op_name(info), len, addr, info, t->mem_base, t->mem_size);
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

static void framing_fault(weft_hwthread_t *t, uint32_t header, ending_t *e)
{
    weft_osif_header_t h = weft_osif_header_split(header);
    const weft_osif_cmd_info_t *info = weft_osif_cmd_lookup(h.cmd);
    char cmd[24];
    if (info)
        snprintf(cmd, sizeof cmd, "%s", info->name);
    else
        snprintf(cmd, sizeof cmd, "command 0x%02x", h.cmd);
    e->kind = WEFT_EXIT_FAULTED;
    set_message(e,
                "thread '%s' slot %u: framing fault: %s handle %u announces %u argument "
                "words (header 0x%08" PRIx32 ", limit %u); thread stopped",
                t->name, t->slot, cmd, h.handle, h.nargs, header, WEFT_OSIF_MAX_ARGS);
    weft_log(t->w, "%s", e->message);
}

/* ---- the end of a thread ----------------------------------------------------------- */

static void release_mutexes(weft_hwthread_t *t)
{
    for (unsigned h = 0; h < t->num_res; h++) {
        if (t->held[h] == 0)
            continue;
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
    uint64_t busy = 0;
    if (weft_read_counter64(t->platform, WEFT_SLOT_REG(t->slot, WEFT_SLOT_REG_BUSY_LO),
                            WEFT_SLOT_REG(t->slot, WEFT_SLOT_REG_BUSY_HI), &busy) == 0)
        t->busy_final = busy;
    weft_slot_stop(t->platform, t->slot);
    reg_write(t, WEFT_SLOT_REG_FAULT, WEFT_FAULT_MEM | WEFT_FAULT_OVERFLOW);
    t->slot_stopped = true; /* BUSY is cleared now: stats() must use busy_final */
    pthread_mutex_unlock(&t->lock);

    release_mutexes(t);

    pthread_mutex_lock(&t->lock);
    t->status.kind = e->kind;
    t->status.value = e->kind == WEFT_EXIT_NORMAL ? e->value : 0;
    snprintf(t->status.message, sizeof t->status.message, "%s", e->message);
    t->done = true;
    pthread_cond_broadcast(&t->ended);
    pthread_mutex_unlock(&t->lock);
}

/* ---- the loop ---------------------------------------------------------------------- */

void *weft_delegate_main(void *arg)
{
    weft_hwthread_t *t = arg;
    weft_platform_t *p = t->platform;
    uint32_t req[1 + WEFT_OSIF_MAX_ARGS];
    unsigned have = 0, want = 0; /* words of the request so far / in all */
    ending_t e = {.kind = WEFT_EXIT_STOPPED, .value = 0, .message = "stopped"};
    serve_outcome_t out = SERVE_CONTINUE;

    while (out == SERVE_CONTINUE) {
        if (stopping(t)) {
            out = SERVE_STOPPED;
            break;
        }
        int rc = p->ops->irq_wait(p, t->slot, WEFT_IRQ_WAIT_MS);
        if (rc == -ECANCELED || rc == -ETIMEDOUT || rc == -EINTR)
            continue;
        uint32_t irq = 0, status = 0;
        if (rc == 0)
            rc = reg_read(t, WEFT_SLOT_REG_IRQ_STATUS, &irq);
        if (rc == 0 && !(irq & WEFT_IRQ_FAULT))
            rc = reg_read(t, WEFT_SLOT_REG_STATUS, &status);
        if (rc != 0) {
            e.kind = WEFT_EXIT_FAULTED;
            set_message(&e, "thread '%s' slot %u: platform error %d (%s); thread stopped", t->name,
                        t->slot, rc, strerror(-rc));
            weft_log(t->w, "%s", e.message);
            out = SERVE_FAULT;
            break;
        }
        if (irq & WEFT_IRQ_FAULT) {
            describe_fault(t, &e);
            out = SERVE_FAULT;
            break;
        }

        unsigned n = status & 0xffffu;
        for (unsigned i = 0; i < n && out == SERVE_CONTINUE; i++) {
            uint32_t word;
            rc = reg_read(t, WEFT_SLOT_REG_OSIF_HW2SW, &word);
            if (rc != 0) {
                /* The word may be gone: the request stream cannot be trusted any more. */
                e.kind = WEFT_EXIT_FAULTED;
                set_message(&e,
                            "thread '%s' slot %u: platform error %d (%s) reading a request word; "
                            "thread stopped",
                            t->name, t->slot, rc, strerror(-rc));
                weft_log(t->w, "%s", e.message);
                out = SERVE_FAULT;
                break;
            }
            if (have == 0) {
                int nargs = weft_osif_frame(word);
                if (nargs < 0) {
                    framing_fault(t, word, &e);
                    out = SERVE_FAULT;
                    break;
                }
                want = 1u + (unsigned)nargs;
            }
            req[have++] = word;
            if (have == want) {
                have = 0;
                out = serve(t, req, &e);
            }
        }
    }

    if (out == SERVE_STOPPED) {
        e.kind = WEFT_EXIT_STOPPED;
        set_message(&e, "thread '%s' slot %u: stopped", t->name, t->slot);
    }
    finish(t, &e);
    return NULL;
}

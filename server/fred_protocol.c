/*
 * FRED's client protocol (docs/server.md "FRED's clients"), so that programs built
 * against FRED's client library run unmodified. Written from the protocol's facts:
 *
 *   messages  8 bytes, native byte order: a 32-bit head code and a 32-bit argument
 *   INIT 101            -> ACK 501
 *   BIND 201 (task id)  -> BUFFS 601 (count), then count buffer records
 *   RUN 301 (task id)   -> DONE 401 | OVERRUN 402 (its timeout passed) | ERROR 701
 *   anything refused    -> ERROR 701, and the session goes on; a head code that is not
 *                          FRED's -> ERROR, and the client is dropped
 *
 * A buffer record is FRED's native struct: a pointer (sent 0), an int (0), a size_t
 * length and a 1024-byte device name. A FRED client opens "/dev/" + that name (its first
 * '!' made a '/') and maps length bytes at offset 0; Weft names the buffer's memfd
 * through the server's /proc entry ("../proc/<pid>/fd/<n>"), so the client maps the very
 * pages the hardware uses. That needs the client to be allowed to open the server's fds:
 * the same user, as FRED's server and clients are. The server keeps the memfd open for the
 * session.
 *
 * After the buffers' addresses a RUN passes the task's "fred_args" from weftd's JSON
 * configuration: FRED's accelerators have their sizes built in, Weft's take them.
 *
 * One request at a time per client, as FRED's library assumes; the task must be bound by
 * this client. What differs from FRED: a task past its timeout answers OVERRUN and can run
 * again (FRED bans it for ever); an allocation that fails answers ERROR (FRED closes the
 * connection).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server_internal.h"

enum {
    FRED_INIT = 101,
    FRED_BIND = 201,
    FRED_RUN = 301,
    FRED_DONE = 401,
    FRED_OVERRUN = 402,
    FRED_ACK = 501,
    FRED_BUFFS = 601,
    FRED_ERROR = 701,
};

#define FRED_DEV_NAME_BYTES 1024

typedef struct fred_msg {
    uint32_t head;
    uint32_t arg;
} fred_msg_t;

/* FRED's buffer record, in the native layout its client library reads. */
typedef struct fred_buff {
    void *map_addr;
    int file_d;
    size_t length;
    char dev_name[FRED_DEV_NAME_BYTES];
} fred_buff_t;

static void reply(weftd_server_t *s, client_t *c, uint32_t head, uint32_t arg)
{
    fred_msg_t m = {head, arg};
    srv_queue(s, c, &m, sizeof m, -1);
}

static long encode_error(uint8_t *buf, size_t cap, uint32_t seq, int err, const char *text)
{
    (void)seq, (void)err, (void)text; /* FRED's ERROR carries nothing: the log has it */
    fred_msg_t m = {FRED_ERROR, 0};
    if (cap < sizeof m)
        return -ENOSPC;
    memcpy(buf, &m, sizeof m);
    return (long)sizeof m;
}

static fred_binding_t *binding(client_t *c, unsigned task)
{
    for (unsigned i = 0; i < c->nfred; i++)
        if (c->fred[i].task == task)
            return &c->fred[i];
    return NULL;
}

/* Refused: ERROR, with the reason in the log (FRED's ERROR has no text). */
static void refuse(weftd_server_t *s, client_t *c, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void refuse(weftd_server_t *s, client_t *c, int err, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    srv_log("fred client %" PRIu64 " (pid %d): %s", c->id, (int)c->pid, text);
    srv_error(s, c, 0, err, "%s", text);
}

/* BIND: the task's buffers for this client, made once, sent as records. */
static void on_bind(weftd_server_t *s, client_t *c, uint32_t id)
{
    unsigned task;
    const weftd_task_cfg_t *t = id <= UINT16_MAX ? srv_task(s, (uint16_t)id, &task) : NULL;
    if (!t) {
        refuse(s, c, ENOENT, "BIND: no task %u", id);
        return;
    }
    fred_binding_t *b = binding(c, task);
    if (!b) {
        if (c->nfred == WEFTD_FRED_MAX_BINDINGS) {
            refuse(s, c, EDQUOT, "BIND %s: %u tasks bound already", t->name, c->nfred);
            return;
        }
        b = &c->fred[c->nfred];
        *b = (fred_binding_t){.task = task, .nbuf = t->num_buffers};
        int fds[WEFTD_FRED_MAX_BUFFERS];
        char why[WEFTD_MAX_TEXT];
        int err = t->num_buffers
                      ? srv_alloc(s, c, t->buffer, t->num_buffers, b->buf, fds, why, sizeof why)
                      : 0;
        if (err) {
            refuse(s, c, err, "BIND %s: %s", t->name, why);
            return;
        }
        for (unsigned k = 0; k < b->nbuf; k++)
            b->buf[k]->fd = fds[k]; /* opened by path, for the session */
        c->nfred++;
    }
    const size_t bytes = b->nbuf * sizeof(fred_buff_t);
    fred_buff_t *rec = calloc(b->nbuf ? b->nbuf : 1, sizeof *rec);
    if (!rec) {
        refuse(s, c, ENOMEM, "BIND %s: out of memory", t->name);
        return;
    }
    for (unsigned k = 0; k < b->nbuf; k++) {
        rec[k].length = (size_t)t->buffer[k];
        snprintf(rec[k].dev_name, sizeof rec[k].dev_name, "../proc/%d/fd/%d", (int)getpid(),
                 b->buf[k]->fd);
    }
    reply(s, c, FRED_BUFFS, b->nbuf);
    if (bytes)
        srv_queue(s, c, rec, bytes, -1);
    free(rec);
}

static void on_run(weftd_server_t *s, client_t *c, uint32_t id)
{
    unsigned task;
    const weftd_task_cfg_t *t = id <= UINT16_MAX ? srv_task(s, (uint16_t)id, &task) : NULL;
    fred_binding_t *b = t ? binding(c, task) : NULL;
    if (!b) {
        refuse(s, c, ENOENT, "RUN %u: not a task this client has bound", id);
        return;
    }
    if (c->nreqs) {
        refuse(s, c, EBUSY, "RUN %s: a request of this client's is not done", t->name);
        return;
    }
    uint64_t vals[WEFTD_FRED_MAX_BUFFERS];
    for (unsigned k = 0; k < b->nbuf; k++)
        vals[k] = b->buf[k]->bus;
    /* The buffers lie one after another in one block: one window covers them. */
    const weft_mem_window_t win = {
        b->nbuf ? vals[0] : 0,
        b->nbuf ? vals[b->nbuf - 1] + b->buf[b->nbuf - 1]->size - vals[0] : 0, WEFT_MEM_RW};
    for (unsigned k = 0; k < t->num_fred_args; k++) /* the config keeps them within 6 */
        vals[b->nbuf + k] = t->fred_arg[k];
    weft_reconf_args_t a = {.init_data = b->nbuf ? (uint32_t)vals[0] : 0,
                            .windows = &win,
                            .num_windows = b->nbuf ? 1 : 0};
    if (t->accelerator) {
        a.acc_args = vals;
        a.num_acc_args = b->nbuf + t->num_fred_args;
    }
    char why[WEFTD_MAX_TEXT];
    int err = srv_submit(s, c, task, &a, b->buf, b->nbuf, 1, why, sizeof why); /* one at a time */
    if (err)
        refuse(s, c, err, "RUN %s: %s", t->name, why);
}

static void on_done(weftd_server_t *s, client_t *c, request_t *r, const weft_reconf_result_t *res)
{
    (void)r;
    if (res->status != 0 && res->status != -ETIMEDOUT)
        srv_log("fred client %" PRIu64 " (pid %d): %s", c->id, (int)c->pid, res->message);
    reply(s, c,
          res->status == 0            ? FRED_DONE
          : res->status == -ETIMEDOUT ? FRED_OVERRUN
                                      : FRED_ERROR,
          0);
}

static bool on_bytes(weftd_server_t *s, client_t *c)
{
    if (!c->fred && !(c->fred = calloc(WEFTD_FRED_MAX_BINDINGS, sizeof *c->fred))) {
        srv_drop(s, c, 0, ENOMEM, "out of memory");
        return false;
    }
    size_t off = 0;
    while (!c->out && c->in_len - off >= sizeof(fred_msg_t)) {
        fred_msg_t m;
        memcpy(&m, c->in + off, sizeof m);
        off += sizeof m;
        if (m.head != FRED_INIT && !c->hello)
            refuse(s, c, EPROTO, "message %u before INIT", m.head);
        else if (m.head == FRED_INIT && c->hello)
            refuse(s, c, EPROTO, "a second INIT");
        else if (m.head == FRED_INIT) {
            c->hello = true;
            reply(s, c, FRED_ACK, 0);
        } else if (m.head == FRED_BIND)
            on_bind(s, c, m.arg);
        else if (m.head == FRED_RUN)
            on_run(s, c, m.arg);
        else { /* not FRED's protocol: the stream cannot be trusted */
            char why[64];
            snprintf(why, sizeof why, "not a FRED message (head code %u)", m.head);
            srv_drop(s, c, 0, EPROTO, why);
            return false;
        }
        if (c->fd < 0)
            return false;
    }
    memmove(c->in, c->in + off, c->in_len - off);
    c->in_len -= off;
    return true;
}

const proto_t fred_proto = {"fred", on_bytes, on_done, encode_error};

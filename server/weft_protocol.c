/*
 * Weft's own client protocol (wire.h, docs/server.md "Messages"): HELLO first, then
 * TASKS, ALLOC, FREE, SUBMIT and CANCEL, each answered in kind or with ERROR; DONE when a
 * request ends. A message the decoder refuses, or one out of turn, drops the client.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server_internal.h"

static int answer(weftd_server_t *s, client_t *c, const weftd_msg_t *m, int fd)
{
    uint8_t buf[WEFTD_HEADER_BYTES + WEFTD_MAX_PAYLOAD];
    long n = weftd_encode(m, buf, sizeof buf);
    if (n <= 0) {
        if (fd >= 0)
            close(fd);
        return n < 0 ? (int)n : -EINVAL;
    }
    return srv_queue(s, c, buf, (size_t)n, fd);
}

static void answer_empty(weftd_server_t *s, client_t *c, weftd_type_t type, uint32_t seq)
{
    answer(s, c, &(weftd_msg_t){.type = type, .seq = seq, .from_server = 1}, -1);
}

static long encode_error(uint8_t *buf, size_t cap, uint32_t seq, int err, const char *text)
{
    weftd_msg_t m = {.type = WEFTD_ERROR, .seq = seq, .from_server = 1};
    snprintf(m.u.error.text, sizeof m.u.error.text, "%s", text);
    for (char *p = m.u.error.text; *p; p++) /* the wire takes printable ASCII */
        if (*p < 0x20 || *p > 0x7e)
            *p = '?';
    m.u.error.err = err;
    m.u.error.len = (uint16_t)strlen(m.u.error.text);
    return weftd_encode(&m, buf, cap);
}

/* Check a SUBMIT's arguments against the task and the client's buffers and turn them
 * into the manager's; 0, or a positive errno with why set. */
static int build_args(client_t *c, const weftd_task_cfg_t *t, const weftd_msg_t *m, buffer_t **bufs,
                      unsigned *nbuf, uint64_t *vals, weft_mem_window_t *win, weft_reconf_args_t *a,
                      char *why, size_t len)
{
    const unsigned n = m->u.submit.num_args;
    if (!t->accelerator && n > 1) {
        snprintf(why, len, "task %s is a thread: at most 1 argument (its init data), not %u",
                 t->name, n);
        return EINVAL;
    }
    *nbuf = 0;
    for (unsigned i = 0; i < n; i++) {
        const weftd_arg_t *g = &m->u.submit.arg[i];
        vals[i] = g->value;
        if (g->kind == WEFTD_ARG_BUFFER) {
            buffer_t *b = srv_buffer(c, g->buffer);
            if (!b) {
                snprintf(why, len, "argument %u: no buffer %u of this client's", i, g->buffer);
                return ENOENT;
            }
            if (g->value >= b->size) {
                snprintf(why, len,
                         "argument %u: offset %" PRIu64 " past buffer %u's %" PRIu64 " bytes", i,
                         g->value, b->id, b->size);
                return EINVAL;
            }
            vals[i] = b->bus + g->value;
            unsigned k = 0;
            while (k < *nbuf && bufs[k] != b)
                k++;
            if (k == *nbuf) {
                bufs[*nbuf] = b;
                win[(*nbuf)++] = (weft_mem_window_t){b->bus, b->size, WEFT_MEM_RW};
            }
        }
        if (!t->accelerator && vals[i] > UINT32_MAX) {
            snprintf(why, len, "task %s is a thread: its init data is 32 bits, not %#" PRIx64,
                     t->name, vals[i]);
            return EINVAL;
        }
    }
    *a = (weft_reconf_args_t){
        .init_data = n ? (uint32_t)vals[0] : 0, .windows = win, .num_windows = *nbuf};
    if (t->accelerator) {
        a->acc_args = vals;
        a->num_acc_args = n;
    }
    return 0;
}

static void on_submit(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    unsigned index = 0;
    const weftd_task_cfg_t *t = srv_task(s, m->u.submit.task, &index);
    if (!t) {
        srv_error(s, c, m->seq, ENOENT, "no task with id %u", m->u.submit.task);
        return;
    }
    for (request_t *o = c->reqs; o; o = o->next)
        if (o->seq == m->seq) {
            srv_error(s, c, m->seq, EEXIST, "request %u is not done yet", m->seq);
            return;
        }
    buffer_t *bufs[WEFTD_MAX_ARGS];
    unsigned nbuf;
    uint64_t vals[WEFTD_MAX_ARGS];
    weft_mem_window_t win[WEFTD_MAX_ARGS];
    weft_reconf_args_t a;
    char why[WEFTD_MAX_TEXT];
    int err = build_args(c, t, m, bufs, &nbuf, vals, win, &a, why, sizeof why);
    if (err == 0)
        err = srv_submit(s, c, index, &a, bufs, nbuf, m->seq, why, sizeof why);
    if (err)
        srv_error(s, c, m->seq, err, "%s", why);
    else
        answer_empty(s, c, WEFTD_SUBMIT, m->seq);
}

static void on_done(weftd_server_t *s, client_t *c, request_t *r, const weft_reconf_result_t *res)
{
    weftd_msg_t m = {.type = WEFTD_DONE, .seq = r->seq, .from_server = 1};
    m.u.done.status = res->status > 0 ? -res->status : res->status;
    m.u.done.exit_value = res->exit_value;
    m.u.done.slot = (uint16_t)res->slot;
    m.u.done.reconfigured = (uint8_t)res->reconfigured;
    m.u.done.wait_cycles = res->wait_cycles;
    m.u.done.reconf_cycles = res->reconf_cycles;
    m.u.done.exec_cycles = res->exec_cycles;
    answer(s, c, &m, -1);
}

static void on_alloc(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    buffer_t *b;
    int fd;
    char why[WEFTD_MAX_TEXT];
    int err = srv_alloc(s, c, &m->u.alloc.size, 1, &b, &fd, why, sizeof why);
    if (err) {
        srv_error(s, c, m->seq, err, "%s", why);
        return;
    }
    weftd_msg_t a = {.type = WEFTD_ALLOC, .seq = m->seq, .from_server = 1};
    a.u.alloc.buffer = b->id;
    a.u.alloc.size = b->size;
    answer(s, c, &a, fd); /* the fd goes with the answer, then closes */
}

static void on_free(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    buffer_t *b = srv_buffer(c, m->u.free_.buffer);
    int err = b ? srv_free(s, c, b) : ENOENT;
    if (err)
        srv_error(s, c, m->seq, err,
                  err == EBUSY ? "buffer %u is named by a request not done yet" : "no buffer %u",
                  m->u.free_.buffer);
    else
        answer_empty(s, c, WEFTD_FREE, m->seq);
}

static void on_cancel(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    request_t *r = c->reqs;
    while (r && r->seq != m->u.cancel.target)
        r = r->next;
    int rc = r ? weft_reconf_cancel(r->q) : -ENOENT;
    if (rc == 0)
        answer_empty(s, c, WEFTD_CANCEL, m->seq);
    else
        srv_error(s, c, m->seq, -rc,
                  rc == -EBUSY    ? "request %u has started (execution is not preemptive)"
                  : rc == -ENOENT ? "no request %u not done yet"
                                  : "request %u has ended",
                  m->u.cancel.target);
}

static void on_hello(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    if (c->hello) {
        srv_drop(s, c, m->seq, EPROTO, "a second HELLO");
        return;
    }
    if (m->u.hello.min_version > WEFTD_VERSION || m->u.hello.max_version < WEFTD_VERSION) {
        char why[80];
        snprintf(why, sizeof why, "versions %u-%u asked, this server speaks %u",
                 m->u.hello.min_version, m->u.hello.max_version, WEFTD_VERSION);
        srv_drop(s, c, m->seq, EPROTONOSUPPORT, why);
        return;
    }
    c->hello = true;
    weftd_msg_t a = {.type = WEFTD_HELLO, .seq = m->seq, .from_server = 1};
    a.u.hello.version = WEFTD_VERSION;
    a.u.hello.num_tasks = (uint16_t)s->cfg.num_tasks;
    answer(s, c, &a, -1);
}

static void on_tasks(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    weftd_msg_t *a = calloc(1, sizeof *a);
    if (!a) {
        srv_error(s, c, m->seq, ENOMEM, "out of memory");
        return;
    }
    *a = (weftd_msg_t){.type = WEFTD_TASKS, .seq = m->seq, .from_server = 1};
    a->u.tasks.count = (uint16_t)s->cfg.num_tasks;
    for (unsigned i = 0; i < s->cfg.num_tasks; i++) {
        const weftd_task_cfg_t *t = &s->cfg.task[i];
        a->u.tasks.task[i] =
            (weftd_task_t){t->id, (uint8_t)t->partition, (uint8_t)t->accelerator, ""};
        memcpy(a->u.tasks.task[i].name, t->name, sizeof t->name);
    }
    answer(s, c, a, -1);
    free(a);
}

static void on_message(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    if (!c->hello && m->type != WEFTD_HELLO) {
        srv_drop(s, c, m->seq, EPROTO, "HELLO must come first");
        return;
    }
    switch (m->type) {
    case WEFTD_HELLO:
        on_hello(s, c, m);
        return;
    case WEFTD_TASKS:
        on_tasks(s, c, m);
        return;
    case WEFTD_ALLOC:
        on_alloc(s, c, m);
        return;
    case WEFTD_FREE:
        on_free(s, c, m);
        return;
    case WEFTD_SUBMIT:
        on_submit(s, c, m);
        return;
    case WEFTD_CANCEL:
        on_cancel(s, c, m);
        return;
    default: /* the decoder lets no other type from a client through */
        srv_drop(s, c, m->seq, EPROTO, "a message only the server sends");
        return;
    }
}

static bool on_bytes(weftd_server_t *s, client_t *c)
{
    while (!c->out) {
        weftd_msg_t m;
        char why[WEFTD_MAX_TEXT];
        long used = weftd_decode(c->in, c->in_len, 0, &m, why, sizeof why);
        if (used < 0) {
            srv_drop(s, c, 0, EPROTO, why);
            return false;
        }
        if (used == 0)
            break;
        memmove(c->in, c->in + used, c->in_len - (size_t)used);
        c->in_len -= (size_t)used;
        on_message(s, c, &m);
        if (c->fd < 0)
            return false;
    }
    return true;
}

const proto_t weft_proto = {"weft", on_bytes, on_done, encode_error};

/*
 * weftd's server (server.h, docs/server.md). One thread runs a plain epoll loop over:
 *   - the listening socket: a connection is let in after its peer's credentials
 *     (SO_PEERCRED) pass the access policy and while there is room;
 *   - each client's socket: its bytes are decoded by wire.c, one message at a time, and
 *     answered; a malformed one is answered with ERROR and the client dropped;
 *   - each request's fd from the reconfiguration manager: readable when the request has
 *     ended, which sends its DONE.
 * Nothing here blocks: answers that the socket cannot take yet wait in the client's
 * output queue, and its input is not read while they wait, so what a client can make the
 * server hold is bounded by its limits (one answer per message plus one DONE per
 * request). A client that goes away has its requests aborted; its buffers are freed once
 * the hardware has stopped using them.
 */
#define _GNU_SOURCE
#include "server.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "weft/reconf.h"

enum src_kind { SRC_LISTEN, SRC_STOP, SRC_CLIENT, SRC_REQUEST };

/* What an epoll event names: the first member of each watched object. */
typedef struct src {
    enum src_kind kind;
} src_t;

typedef struct client client_t;

typedef struct buffer {
    struct buffer *next;
    uint32_t id;
    void *cpu;
    uint64_t bus;
    uint64_t size;
    unsigned users; /* requests not ended that name it */
} buffer_t;

typedef struct request {
    src_t src;
    struct request *next;
    client_t *c;
    uint32_t seq;
    weft_reconf_req_t *q;
    buffer_t *buf[WEFTD_MAX_ARGS]; /* the buffers it names, each once */
    unsigned nbuf;
} request_t;

/* An answer waiting for room in the socket; fd (or -1) travels with its first byte. */
typedef struct out_msg {
    struct out_msg *next;
    size_t len, off;
    int fd;
    uint8_t bytes[];
} out_msg_t;

struct client {
    src_t src;
    client_t *next;
    uint64_t id;
    int fd; /* -1 once gone */
    pid_t pid;
    uid_t uid;
    bool hello;
    uint8_t in[WEFTD_HEADER_BYTES + WEFTD_MAX_PAYLOAD];
    size_t in_len;
    out_msg_t *out, *out_tail;
    bool waiting; /* answers wait for room: the socket is watched for that only */
    buffer_t *bufs;
    unsigned nbufs;
    uint64_t bytes;
    uint32_t next_buf;
    request_t *reqs;
    unsigned nreqs;
};

struct weftd_server {
    weft_t *w;
    weftd_config_t cfg;
    weft_reconf_t *mgr;
    int ep;
    src_t listen_src, stop_src;
    int listen_fd, stop_fd;
    char path[WEFTD_SOCKET_PATH_BYTES];
    client_t *clients; /* connected, and gone ones whose requests have not ended */
    client_t *dead;    /* freed after the current batch of events, which may name them */
    unsigned connected;
    uint64_t next_client;
    pthread_mutex_t stats_mu;
    weftd_server_stats_t stats;
};

#define COUNT(s, field)                                                                            \
    do {                                                                                           \
        pthread_mutex_lock(&(s)->stats_mu);                                                        \
        (s)->stats.field++;                                                                        \
        pthread_mutex_unlock(&(s)->stats_mu);                                                      \
    } while (0)

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("weftd: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void live_counts(weftd_server_t *s)
{
    unsigned nc = 0, nb = 0, nr = 0;
    for (client_t *c = s->clients; c; c = c->next) {
        nc += c->fd >= 0;
        nb += c->nbufs;
        nr += c->nreqs;
    }
    pthread_mutex_lock(&s->stats_mu);
    s->stats.live_clients = nc;
    s->stats.live_buffers = nb;
    s->stats.live_requests = nr;
    pthread_mutex_unlock(&s->stats_mu);
}

/* ---- sending ------------------------------------------------------------------------ */

static int watch(weftd_server_t *s, int op, int fd, uint32_t events, src_t *src)
{
    struct epoll_event ev = {.events = events, .data.ptr = src};
    return epoll_ctl(s->ep, op, fd, &ev) == 0 ? 0 : -errno;
}

/* Send what the client's queue holds; 0, or -errno when the client must go. */
static int flush(weftd_server_t *s, client_t *c)
{
    while (c->out) {
        out_msg_t *m = c->out;
        struct iovec iov = {m->bytes + m->off, m->len - m->off};
        union {
            char buf[CMSG_SPACE(sizeof(int))];
            struct cmsghdr align;
        } ctl;
        struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
        if (m->fd >= 0 && m->off == 0) {
            mh.msg_control = ctl.buf;
            mh.msg_controllen = sizeof ctl.buf;
            struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
            cm->cmsg_level = SOL_SOCKET;
            cm->cmsg_type = SCM_RIGHTS;
            cm->cmsg_len = CMSG_LEN(sizeof(int));
            memcpy(CMSG_DATA(cm), &m->fd, sizeof(int));
        }
        ssize_t n = sendmsg(c->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return c->waiting
                       ? 0
                       : (c->waiting = true, watch(s, EPOLL_CTL_MOD, c->fd, EPOLLOUT, &c->src));
        if (n < 0)
            return -errno;
        m->off += (size_t)n;
        if (m->fd >= 0) { /* the fd went with the first byte sent */
            close(m->fd);
            m->fd = -1;
        }
        if (m->off < m->len)
            continue;
        c->out = m->next;
        if (!c->out)
            c->out_tail = NULL;
        free(m);
    }
    return !c->waiting ? 0 : (c->waiting = false, watch(s, EPOLL_CTL_MOD, c->fd, EPOLLIN, &c->src));
}

/* Queue m (and fd, now the queue's) for the client and send what the socket takes. */
static int send_msg(weftd_server_t *s, client_t *c, const weftd_msg_t *m, int fd)
{
    uint8_t buf[WEFTD_HEADER_BYTES + WEFTD_MAX_PAYLOAD];
    long n = weftd_encode(m, buf, sizeof buf);
    out_msg_t *o = n > 0 ? malloc(sizeof *o + (size_t)n) : NULL;
    if (!o) {
        if (fd >= 0)
            close(fd);
        return n > 0 ? -ENOMEM : (int)n;
    }
    *o = (out_msg_t){NULL, (size_t)n, 0, fd};
    memcpy(o->bytes, buf, (size_t)n);
    if (c->out_tail)
        c->out_tail->next = o;
    else
        c->out = o;
    c->out_tail = o;
    return c->out == o ? flush(s, c) : 0;
}

static void make_error(weftd_msg_t *m, uint32_t seq, int err, const char *fmt, va_list ap)
{
    *m = (weftd_msg_t){.type = WEFTD_ERROR, .seq = seq, .from_server = 1};
    vsnprintf(m->u.error.text, sizeof m->u.error.text, fmt, ap);
    for (char *p = m->u.error.text; *p; p++) /* the wire takes printable ASCII */
        if (*p < 0x20 || *p > 0x7e)
            *p = '?';
    m->u.error.err = err;
    m->u.error.len = (uint16_t)strlen(m->u.error.text);
}

static int send_error(weftd_server_t *s, client_t *c, uint32_t seq, int err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int send_error(weftd_server_t *s, client_t *c, uint32_t seq, int err, const char *fmt, ...)
{
    weftd_msg_t m;
    va_list ap;
    va_start(ap, fmt);
    make_error(&m, seq, err, fmt, ap);
    va_end(ap);
    return send_msg(s, c, &m, -1);
}

/* ---- clients going away ------------------------------------------------------------- */

static void free_buffers(weftd_server_t *s, client_t *c)
{
    while (c->bufs) {
        buffer_t *b = c->bufs;
        c->bufs = b->next;
        weft_mem_free(s->w, b->cpu);
        free(b);
    }
    c->nbufs = 0;
    c->bytes = 0;
}

/* Unlink c and give back what it holds; the memory itself goes after the batch. */
static void free_client(weftd_server_t *s, client_t *c)
{
    for (client_t **pp = &s->clients; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    c->next = s->dead;
    s->dead = c;
    free_buffers(s, c);
    while (c->out) {
        out_msg_t *m = c->out;
        c->out = m->next;
        if (m->fd >= 0)
            close(m->fd);
        free(m);
    }
}

static void bury(weftd_server_t *s)
{
    while (s->dead) {
        client_t *c = s->dead;
        s->dead = c->next;
        free(c);
    }
}

/* The client is gone (hung up, or dropped): its socket closes now, its requests are
 * aborted, and what is left goes when the last of them has ended. */
static void client_gone(weftd_server_t *s, client_t *c)
{
    if (c->fd >= 0) {
        epoll_ctl(s->ep, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        c->fd = -1;
        s->connected--;
    }
    for (request_t *r = c->reqs; r; r = r->next)
        weft_reconf_abort(r->q);
    if (!c->reqs)
        free_client(s, c);
    live_counts(s);
}

static void drop(weftd_server_t *s, client_t *c, uint32_t seq, int err, const char *why)
{
    logf_("client %" PRIu64 " (pid %d): dropped: %s", c->id, (int)c->pid, why);
    send_error(s, c, seq, err, "%s", why); /* best effort: it may not be reading */
    COUNT(s, dropped);
    client_gone(s, c);
}

/* ---- requests ----------------------------------------------------------------------- */

static const weftd_task_cfg_t *task_by_id(const weftd_server_t *s, uint16_t id, unsigned *index)
{
    for (unsigned i = 0; i < s->cfg.num_tasks; i++)
        if (s->cfg.task[i].id == id) {
            *index = i;
            return &s->cfg.task[i];
        }
    return NULL;
}

static buffer_t *buffer_by_id(client_t *c, uint32_t id)
{
    for (buffer_t *b = c->bufs; b; b = b->next)
        if (b->id == id)
            return b;
    return NULL;
}

/* Check a SUBMIT against the task and the client's buffers and turn it into the
 * manager's arguments; 0, or a positive errno with why set. */
static int build_args(client_t *c, const weftd_task_cfg_t *t, const weftd_msg_t *m, request_t *r,
                      uint64_t *vals, weft_mem_window_t *win, weft_reconf_args_t *a, char *why,
                      size_t len)
{
    const unsigned n = m->u.submit.num_args;
    if (!t->accelerator && n > 1) {
        snprintf(why, len, "task %s is a thread: at most 1 argument (its init data), not %u",
                 t->name, n);
        return EINVAL;
    }
    for (unsigned i = 0; i < n; i++) {
        const weftd_arg_t *g = &m->u.submit.arg[i];
        vals[i] = g->value;
        if (g->kind == WEFTD_ARG_BUFFER) {
            buffer_t *b = buffer_by_id(c, g->buffer);
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
            while (k < r->nbuf && r->buf[k] != b)
                k++;
            if (k == r->nbuf) {
                r->buf[r->nbuf] = b;
                win[r->nbuf++] = (weft_mem_window_t){b->bus, b->size, WEFT_MEM_RW};
            }
        }
        if (!t->accelerator && vals[i] > UINT32_MAX) {
            snprintf(why, len, "task %s is a thread: its init data is 32 bits, not %#" PRIx64,
                     t->name, vals[i]);
            return EINVAL;
        }
    }
    *a = (weft_reconf_args_t){
        .init_data = n ? (uint32_t)vals[0] : 0, .windows = win, .num_windows = r->nbuf};
    if (t->accelerator) {
        a->acc_args = vals;
        a->num_acc_args = n;
    }
    return 0;
}

static void on_submit(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    unsigned index = 0;
    const weftd_task_cfg_t *t = task_by_id(s, m->u.submit.task, &index);
    if (!t) {
        send_error(s, c, m->seq, ENOENT, "no task with id %u", m->u.submit.task);
        COUNT(s, errors);
        return;
    }
    if (c->nreqs >= s->cfg.limits.requests) {
        send_error(s, c, m->seq, EAGAIN, "%u requests not done already (the limit)", c->nreqs);
        COUNT(s, errors);
        return;
    }
    for (request_t *o = c->reqs; o; o = o->next)
        if (o->seq == m->seq) {
            send_error(s, c, m->seq, EEXIST, "request %u is not done yet", m->seq);
            COUNT(s, errors);
            return;
        }
    request_t *r = calloc(1, sizeof *r);
    uint64_t vals[WEFTD_MAX_ARGS];
    weft_mem_window_t win[WEFTD_MAX_ARGS];
    weft_reconf_args_t a;
    char why[WEFTD_MAX_TEXT];
    int err = r ? build_args(c, t, m, r, vals, win, &a, why, sizeof why) : ENOMEM;
    if (err == 0) {
        int rc = weft_reconf_submit(s->mgr, index, &a, &r->q);
        err = -rc;
        if (rc == 0 && (rc = watch(s, EPOLL_CTL_ADD, weft_reconf_fd(r->q), EPOLLIN, &r->src))) {
            weft_reconf_abort(r->q);
            weft_reconf_release(r->q);
            err = -rc;
        }
        if (err)
            snprintf(why, sizeof why, "task %s could not be submitted: %s", t->name, strerror(err));
    } else if (err == ENOMEM) {
        snprintf(why, sizeof why, "out of memory");
    }
    if (err) {
        free(r);
        send_error(s, c, m->seq, err, "%s", why);
        COUNT(s, errors);
        return;
    }
    r->src.kind = SRC_REQUEST;
    r->c = c;
    r->seq = m->seq;
    for (unsigned k = 0; k < r->nbuf; k++)
        r->buf[k]->users++;
    r->next = c->reqs;
    c->reqs = r;
    c->nreqs++;
    COUNT(s, requests);
    live_counts(s);
    send_msg(s, c, &(weftd_msg_t){.type = WEFTD_SUBMIT, .seq = m->seq, .from_server = 1}, -1);
}

static void on_request_end(weftd_server_t *s, request_t *r)
{
    client_t *c = r->c;
    weft_reconf_result_t res;
    if (weft_reconf_wait(r->q, 0, &res) != 0)
        return; /* a spurious wake-up: not ended */
    epoll_ctl(s->ep, EPOLL_CTL_DEL, weft_reconf_fd(r->q), NULL);
    weft_reconf_release(r->q);
    for (unsigned k = 0; k < r->nbuf; k++)
        r->buf[k]->users--;
    for (request_t **pp = &c->reqs; *pp; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    c->nreqs--;
    if (c->fd < 0) {
        COUNT(s, orphaned);
        if (!c->reqs)
            free_client(s, c);
    } else {
        weftd_msg_t m = {.type = WEFTD_DONE, .seq = r->seq, .from_server = 1};
        m.u.done.status = res.status > 0 ? -res.status : res.status;
        m.u.done.exit_value = res.exit_value;
        m.u.done.slot = (uint16_t)res.slot;
        m.u.done.reconfigured = (uint8_t)res.reconfigured;
        m.u.done.wait_cycles = res.wait_cycles;
        m.u.done.reconf_cycles = res.reconf_cycles;
        m.u.done.exec_cycles = res.exec_cycles;
        COUNT(s, completed);
        if (send_msg(s, c, &m, -1) != 0)
            client_gone(s, c);
    }
    free(r);
    live_counts(s);
}

/* ---- the other messages ----------------------------------------------------------------- */

static void on_alloc(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    const uint64_t size = (m->u.alloc.size + 4095) / 4096 * 4096;
    const weftd_limits_t *l = &s->cfg.limits;
    int err = 0;
    char why[WEFTD_MAX_TEXT] = "";
    if (c->nbufs >= l->buffers) {
        err = EDQUOT;
        snprintf(why, sizeof why, "%u buffers held already (the limit)", c->nbufs);
    } else if (m->u.alloc.size > l->buffer_bytes || size > l->buffer_bytes - c->bytes) {
        err = EDQUOT;
        snprintf(why, sizeof why, "%" PRIu64 " bytes more would pass this client's %" PRIu64, size,
                 l->buffer_bytes);
    }
    buffer_t *b = err ? NULL : calloc(1, sizeof *b);
    int fd = -1;
    if (!err && !b)
        err = ENOMEM;
    if (!err) {
        int rc = weft_mem_share(s->w, (size_t)size, &b->cpu, &b->bus, &fd);
        err = -rc;
        if (rc)
            snprintf(why, sizeof why, "no buffer of %" PRIu64 " bytes: %s", size, strerror(-rc));
    }
    if (err) {
        free(b);
        send_error(s, c, m->seq, err, "%s", why[0] ? why : strerror(err));
        COUNT(s, errors);
        return;
    }
    b->id = ++c->next_buf;
    b->size = size;
    b->next = c->bufs;
    c->bufs = b;
    c->nbufs++;
    c->bytes += size;
    weftd_msg_t a = {.type = WEFTD_ALLOC, .seq = m->seq, .from_server = 1};
    a.u.alloc.buffer = b->id;
    a.u.alloc.size = size;
    send_msg(s, c, &a, fd);
    live_counts(s);
}

static void on_free(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    buffer_t **pp = &c->bufs;
    while (*pp && (*pp)->id != m->u.free_.buffer)
        pp = &(*pp)->next;
    buffer_t *b = *pp;
    if (!b || b->users) {
        send_error(s, c, m->seq, b ? EBUSY : ENOENT,
                   b ? "buffer %u is named by a request not done yet" : "no buffer %u",
                   m->u.free_.buffer);
        COUNT(s, errors);
        return;
    }
    *pp = b->next;
    c->nbufs--;
    c->bytes -= b->size;
    weft_mem_free(s->w, b->cpu);
    free(b);
    send_msg(s, c, &(weftd_msg_t){.type = WEFTD_FREE, .seq = m->seq, .from_server = 1}, -1);
    live_counts(s);
}

static void on_cancel(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    request_t *r = c->reqs;
    while (r && r->seq != m->u.cancel.target)
        r = r->next;
    int rc = r ? weft_reconf_cancel(r->q) : -ENOENT;
    if (rc == 0) {
        send_msg(s, c, &(weftd_msg_t){.type = WEFTD_CANCEL, .seq = m->seq, .from_server = 1}, -1);
        return;
    }
    send_error(s, c, m->seq, -rc,
               rc == -EBUSY    ? "request %u has started (execution is not preemptive)"
               : rc == -ENOENT ? "no request %u not done yet"
                               : "request %u has ended",
               m->u.cancel.target);
    COUNT(s, errors);
}

static void on_message(weftd_server_t *s, client_t *c, const weftd_msg_t *m)
{
    if (!c->hello && m->type != WEFTD_HELLO) {
        drop(s, c, m->seq, EPROTO, "HELLO must come first");
        return;
    }
    switch (m->type) {
    case WEFTD_HELLO: {
        if (c->hello) {
            drop(s, c, m->seq, EPROTO, "a second HELLO");
            return;
        }
        if (m->u.hello.min_version > WEFTD_VERSION || m->u.hello.max_version < WEFTD_VERSION) {
            char why[80];
            snprintf(why, sizeof why, "versions %u-%u asked, this server speaks %u",
                     m->u.hello.min_version, m->u.hello.max_version, WEFTD_VERSION);
            drop(s, c, m->seq, EPROTONOSUPPORT, why);
            return;
        }
        c->hello = true;
        weftd_msg_t a = {.type = WEFTD_HELLO, .seq = m->seq, .from_server = 1};
        a.u.hello.version = WEFTD_VERSION;
        a.u.hello.num_tasks = (uint16_t)s->cfg.num_tasks;
        send_msg(s, c, &a, -1);
        return;
    }
    case WEFTD_TASKS: {
        weftd_msg_t a = {.type = WEFTD_TASKS, .seq = m->seq, .from_server = 1};
        a.u.tasks.count = (uint16_t)s->cfg.num_tasks;
        for (unsigned i = 0; i < s->cfg.num_tasks; i++) {
            const weftd_task_cfg_t *t = &s->cfg.task[i];
            a.u.tasks.task[i] =
                (weftd_task_t){t->id, (uint8_t)t->partition, (uint8_t)t->accelerator, ""};
            memcpy(a.u.tasks.task[i].name, t->name, sizeof t->name);
        }
        send_msg(s, c, &a, -1);
        return;
    }
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
        drop(s, c, m->seq, EPROTO, "a message only the server sends");
        return;
    }
}

/* Read what the socket has and act on every whole message, while answers can go out.
 * Returns false when the client is gone (freed or waiting for its requests). */
static bool on_readable(weftd_server_t *s, client_t *c)
{
    while (!c->out) {
        union {
            char buf[CMSG_SPACE(16 * sizeof(int))];
            struct cmsghdr align;
        } ctl;
        struct iovec iov = {c->in + c->in_len, sizeof c->in - c->in_len};
        struct msghdr mh = {
            .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof ctl};
        ssize_t n = recvmsg(c->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
        bool sent_fds = false;
        for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); n >= 0 && cm; cm = CMSG_NXTHDR(&mh, cm))
            if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
                for (size_t k = 0; k < (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
                    int fd;
                    memcpy(&fd, CMSG_DATA(cm) + k * sizeof(int), sizeof fd);
                    close(fd);
                }
                sent_fds = true;
            }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (sent_fds || (n > 0 && (mh.msg_flags & MSG_CTRUNC))) {
            drop(s, c, 0, EPROTO, "a client sends no file descriptors");
            return false;
        }
        if (n <= 0) { /* hung up, or the socket failed */
            logf_("client %" PRIu64 " (pid %d): gone%s", c->id, (int)c->pid,
                  c->nreqs ? ", its requests aborted" : "");
            COUNT(s, departed);
            client_gone(s, c);
            return false;
        }
        c->in_len += (size_t)n;
        for (;;) {
            weftd_msg_t m;
            char why[WEFTD_MAX_TEXT];
            long used = weftd_decode(c->in, c->in_len, 0, &m, why, sizeof why);
            if (used < 0) {
                drop(s, c, 0, EPROTO, why);
                return false;
            }
            if (used == 0)
                break;
            memmove(c->in, c->in + used, c->in_len - (size_t)used);
            c->in_len -= (size_t)used;
            on_message(s, c, &m);
            if (c->fd < 0)
                return false;
            if (c->out) /* the socket is full: read on when it has taken the answers */
                return true;
        }
    }
    return true;
}

/* ---- accepting -------------------------------------------------------------------------- */

static bool allowed(const weftd_config_t *cfg, const struct ucred *cr)
{
    if (cr->uid == geteuid())
        return true;
    for (unsigned i = 0; i < cfg->num_allow_uid; i++)
        if (cfg->allow_uid[i] == cr->uid)
            return true;
    for (unsigned i = 0; i < cfg->num_allow_gid; i++)
        if (cfg->allow_gid[i] == cr->gid)
            return true;
    return false;
}

/* Answer ERROR to a connection turned away, if its socket takes it at once, and close
 * it (not a client yet). */
static void refuse(weftd_server_t *s, int fd, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void refuse(weftd_server_t *s, int fd, int err, const char *fmt, ...)
{
    weftd_msg_t m;
    va_list ap;
    va_start(ap, fmt);
    make_error(&m, 0, err, fmt, ap);
    va_end(ap);
    uint8_t buf[WEFTD_HEADER_BYTES + WEFTD_MAX_TEXT + 8];
    long n = weftd_encode(&m, buf, sizeof buf);
    if (n > 0 && send(fd, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
        /* it went away already: nothing to tell */
    }
    close(fd);
    COUNT(s, refused);
}

static void on_accept(weftd_server_t *s)
{
    for (;;) {
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                logf_("accept: %s", strerror(errno));
            return;
        }
        struct ucred cr;
        socklen_t cl = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0) {
            refuse(s, fd, EACCES, "the peer's credentials cannot be read");
            continue;
        }
        if (!allowed(&s->cfg, &cr)) {
            logf_("pid %d: refused: user %u may not use this server", (int)cr.pid,
                  (unsigned)cr.uid);
            refuse(s, fd, EACCES, "user %u (group %u) may not use this server", (unsigned)cr.uid,
                   (unsigned)cr.gid);
            continue;
        }
        if (s->connected >= s->cfg.limits.clients) {
            refuse(s, fd, EUSERS, "the server has %u clients (its limit)", s->connected);
            continue;
        }
        client_t *c = calloc(1, sizeof *c);
        if (!c) {
            refuse(s, fd, ENOMEM, "out of memory");
            continue;
        }
        c->src.kind = SRC_CLIENT;
        c->fd = fd;
        c->pid = cr.pid;
        c->uid = cr.uid;
        c->id = ++s->next_client;
        if (watch(s, EPOLL_CTL_ADD, fd, EPOLLIN, &c->src) != 0) {
            free(c);
            refuse(s, fd, ENOMEM, "cannot watch the connection");
            continue;
        }
        c->next = s->clients;
        s->clients = c;
        s->connected++;
        COUNT(s, accepted);
        live_counts(s);
    }
}

/* ---- the loop ----------------------------------------------------------------------- */

int weftd_server_run(weftd_server_t *s)
{
    for (;;) {
        struct epoll_event ev[32];
        int n = epoll_wait(s->ep, ev, 32, -1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        for (int i = 0; i < n; i++) {
            src_t *src = ev[i].data.ptr;
            switch (src->kind) {
            case SRC_STOP:
                return 0;
            case SRC_LISTEN:
                on_accept(s);
                break;
            case SRC_REQUEST:
                on_request_end(s, (request_t *)src);
                break;
            case SRC_CLIENT: {
                client_t *c = (client_t *)src;
                if (c->fd < 0)
                    break;
                /* Answers waiting go first; on a hang-up sending them fails. */
                if (c->out && flush(s, c) != 0) {
                    COUNT(s, departed);
                    client_gone(s, c);
                    break;
                }
                if (!c->out)
                    on_readable(s, c);
                break;
            }
            }
        }
        bury(s);
    }
}

/* ---- set-up ------------------------------------------------------------------------- */

/* Bind path, replacing a stale socket file but never a live server's or another file. */
static int listen_at(weftd_server_t *s, const char *path, char *why, size_t len)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path) {
        snprintf(why, len, "socket path %s: longer than %zu bytes", path, sizeof a.sun_path - 1);
        return -ENAMETOOLONG;
    }
    memcpy(a.sun_path, path, strlen(path) + 1);
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            snprintf(why, len, "%s exists and is not a socket", path);
            return -EEXIST;
        }
        int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        bool live = probe >= 0 && connect(probe, (struct sockaddr *)&a, sizeof a) == 0;
        if (probe >= 0)
            close(probe);
        if (live) {
            snprintf(why, len, "a server answers at %s already", path);
            return -EADDRINUSE;
        }
        unlink(path);
    }
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const bool others = s->cfg.num_allow_uid || s->cfg.num_allow_gid;
    int rc = s->listen_fd < 0 ? -errno : 0;
    if (rc == 0 && bind(s->listen_fd, (struct sockaddr *)&a, sizeof a) != 0)
        rc = -errno;
    /* The policy is SO_PEERCRED's; the file's mode only keeps others out when nobody else
     * is allowed anyway. */
    if (rc == 0 && chmod(path, others ? 0666 : 0600) != 0)
        rc = -errno;
    if (rc == 0 && listen(s->listen_fd, 64) != 0)
        rc = -errno;
    if (rc != 0)
        snprintf(why, len, "cannot listen at %s: %s", path, strerror(-rc));
    else
        snprintf(s->path, sizeof s->path, "%s", path);
    return rc;
}

int weftd_server_open(weft_t *w, const weftd_config_t *cfg, const char *socket_path,
                      weftd_server_t **out, char *why, size_t len)
{
    weftd_server_t *s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    s->w = w;
    s->cfg = *cfg;
    s->listen_fd = s->stop_fd = s->ep = -1;
    s->listen_src.kind = SRC_LISTEN;
    s->stop_src.kind = SRC_STOP;
    pthread_mutex_init(&s->stats_mu, NULL);

    weft_reconf_partition_t parts[WEFTD_MAX_PARTITIONS];
    weft_reconf_task_t tasks[WEFTD_MAX_TASKS];
    for (unsigned i = 0; i < cfg->num_partitions; i++)
        parts[i] = (weft_reconf_partition_t){s->cfg.partition[i].name, cfg->partition[i].slots};
    for (unsigned i = 0; i < cfg->num_tasks; i++) {
        const weftd_task_cfg_t *t = &s->cfg.task[i];
        tasks[i] = (weft_reconf_task_t){t->name, t->bitstream, t->partition, t->timeout_us,
                                        t->accelerator};
    }
    /* The socket first: a second server stops here, before it touches the fabric. */
    int rc = listen_at(s, socket_path, why, len);
    weft_reconf_config_t rc_cfg = {parts, cfg->num_partitions, tasks, cfg->num_tasks};
    if (rc == 0 && (rc = weft_reconf_open(w, &rc_cfg, &s->mgr)) != 0)
        snprintf(why, len,
                 "the reconfiguration manager refused the configuration: %s "
                 "(the log above says which part)",
                 strerror(-rc));
    if (rc == 0) {
        s->ep = epoll_create1(EPOLL_CLOEXEC);
        s->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (s->ep < 0 || s->stop_fd < 0)
            rc = -errno;
    }
    if (rc == 0)
        rc = watch(s, EPOLL_CTL_ADD, s->listen_fd, EPOLLIN, &s->listen_src);
    if (rc == 0)
        rc = watch(s, EPOLL_CTL_ADD, s->stop_fd, EPOLLIN, &s->stop_src);
    if (rc != 0) {
        weftd_server_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

void weftd_server_stop(weftd_server_t *s)
{
    uint64_t one = 1;
    if (write(s->stop_fd, &one, sizeof one) < 0) {
        /* the counter is full: a stop is pending already */
    }
}

void weftd_server_stats(weftd_server_t *s, weftd_server_stats_t *out)
{
    pthread_mutex_lock(&s->stats_mu);
    *out = s->stats;
    pthread_mutex_unlock(&s->stats_mu);
}

void weftd_server_close(weftd_server_t *s)
{
    if (!s)
        return;
    while (s->clients) {
        client_t *c = s->clients;
        if (c->fd >= 0) {
            close(c->fd);
            c->fd = -1;
        }
        for (request_t *r = c->reqs; r; r = r->next)
            weft_reconf_abort(r->q);
        while (c->reqs) {
            request_t *r = c->reqs;
            c->reqs = r->next;
            weft_reconf_release(r->q); /* waits for it to end */
            free(r);
        }
        free_client(s, c);
    }
    bury(s);
    if (s->mgr)
        weft_reconf_close(s->mgr);
    if (s->listen_fd >= 0) {
        close(s->listen_fd);
        unlink(s->path);
    }
    if (s->stop_fd >= 0)
        close(s->stop_fd);
    if (s->ep >= 0)
        close(s->ep);
    pthread_mutex_destroy(&s->stats_mu);
    free(s);
}

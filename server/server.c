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

#include "server_internal.h"

void srv_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("weftd: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* What the server holds now changed by these amounts (the live_* counters). */
static void live(weftd_server_t *s, int clients, int buffers, int requests)
{
    pthread_mutex_lock(&s->stats_mu);
    s->stats.live_clients += (unsigned)clients;
    s->stats.live_buffers += (unsigned)buffers;
    s->stats.live_requests += (unsigned)requests;
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

int srv_queue(weftd_server_t *s, client_t *c, const void *bytes, size_t len, int fd)
{
    out_msg_t *o = malloc(sizeof *o + len);
    if (!o) {
        if (fd >= 0)
            close(fd);
        return -ENOMEM;
    }
    *o = (out_msg_t){NULL, len, 0, fd};
    memcpy(o->bytes, bytes, len);
    if (c->out_tail)
        c->out_tail->next = o;
    else
        c->out = o;
    c->out_tail = o;
    return c->out == o ? flush(s, c) : 0;
}

/* An error answer in c's protocol. */
static void send_error_text(weftd_server_t *s, client_t *c, uint32_t seq, int err, const char *text)
{
    uint8_t buf[WEFTD_HEADER_BYTES + WEFTD_MAX_TEXT + 16];
    long n = c->proto->encode_error(buf, sizeof buf, seq, err, text);
    if (n > 0)
        srv_queue(s, c, buf, (size_t)n, -1);
}

void srv_error(weftd_server_t *s, client_t *c, uint32_t seq, int err, const char *fmt, ...)
{
    char text[WEFTD_MAX_TEXT + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    send_error_text(s, c, seq, err, text);
    SRV_COUNT(s, errors);
}

/* ---- clients going away ------------------------------------------------------------- */

static void free_buffer(weftd_server_t *s, buffer_t *b)
{
    if (b->fd >= 0)
        close(b->fd);
    if (b->owner)
        weft_mem_free(s->w, b->cpu); /* private pages again, for every part of its block */
    free(b);
}

static void free_buffers(weftd_server_t *s, client_t *c)
{
    while (c->bufs) {
        buffer_t *b = c->bufs;
        c->bufs = b->next;
        free_buffer(s, b);
    }
    live(s, 0, -(int)c->nbufs, 0);
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
    free(c->fred);
    c->fred = NULL;
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
/* Watch the listening sockets, or stop watching them while no fd can be had. */
static void listening(weftd_server_t *s, bool on)
{
    if (s->listen_paused == !on)
        return;
    s->listen_paused = !on;
    for (unsigned i = 0; i < 2; i++)
        if (s->listen[i].fd >= 0)
            epoll_ctl(s->ep, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, s->listen[i].fd,
                      &(struct epoll_event){.events = EPOLLIN, .data.ptr = &s->listen[i].src});
}

static void client_gone(weftd_server_t *s, client_t *c)
{
    listening(s, true); /* its fd is free: listen again if that was what stopped it */
    if (c->fd >= 0) {
        epoll_ctl(s->ep, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        c->fd = -1;
        s->connected--;
        live(s, -1, 0, 0);
    }
    for (request_t *r = c->reqs; r; r = r->next)
        weft_reconf_abort(r->q);
    if (!c->reqs)
        free_client(s, c);
}

void srv_drop(weftd_server_t *s, client_t *c, uint32_t seq, int err, const char *why)
{
    srv_log("%s client %" PRIu64 " (pid %d): dropped: %s", c->proto->name, c->id, (int)c->pid, why);
    send_error_text(s, c, seq, err, why); /* best effort: it may not be reading */
    SRV_COUNT(s, dropped);
    client_gone(s, c);
}

/* ---- buffers and requests, for the protocols ----------------------------------------- */

const weftd_task_cfg_t *srv_task(const weftd_server_t *s, uint16_t id, unsigned *index)
{
    for (unsigned i = 0; i < s->cfg.num_tasks; i++)
        if (s->cfg.task[i].id == id) {
            *index = i;
            return &s->cfg.task[i];
        }
    return NULL;
}

buffer_t *srv_buffer(client_t *c, uint32_t id)
{
    for (buffer_t *b = c->bufs; b; b = b->next)
        if (b->id == id)
            return b;
    return NULL;
}

int srv_alloc(weftd_server_t *s, client_t *c, const uint64_t *sizes, unsigned n, buffer_t **out,
              int *fds, char *why, size_t len)
{
    const weftd_limits_t *l = &s->cfg.limits;
    size_t part[WEFTD_FRED_MAX_BUFFERS] = {0};
    uint64_t total = 0;
    if (n == 0 || n > WEFTD_FRED_MAX_BUFFERS) {
        snprintf(why, len, "%u buffers at once", n);
        return EINVAL;
    }
    for (unsigned i = 0; i < n; i++) {
        if (sizes[i] > l->buffer_bytes) { /* checked before rounding: no overflow after */
            snprintf(why, len, "a buffer of %" PRIu64 " bytes passes this client's %" PRIu64,
                     sizes[i], l->buffer_bytes);
            return EDQUOT;
        }
        part[i] = (sizes[i] + 4095) / 4096 * 4096;
        total += part[i];
    }
    if (c->nbufs + n > l->buffers) {
        snprintf(why, len, "%u buffers held already (the limit is %u)", c->nbufs, l->buffers);
        return EDQUOT;
    }
    if (total > l->buffer_bytes || total > l->buffer_bytes - c->bytes) {
        snprintf(why, len, "%" PRIu64 " bytes more would pass this client's %" PRIu64, total,
                 l->buffer_bytes);
        return EDQUOT;
    }
    for (unsigned i = 0; i < n; i++)
        if (!(out[i] = calloc(1, sizeof *out[i]))) {
            while (i > 0)
                free(out[--i]);
            snprintf(why, len, "out of memory");
            return ENOMEM;
        }
    void *cpu;
    uint64_t bus;
    int rc = weft_mem_share_parts(s->w, part, n, &cpu, &bus, fds);
    if (rc) {
        snprintf(why, len, "no buffer of %" PRIu64 " bytes: %s", total, strerror(-rc));
        for (unsigned i = 0; i < n; i++)
            free(out[i]);
        return -rc;
    }
    for (unsigned i = 0; i < n; i++) {
        buffer_t *b = out[i];
        b->fd = -1;
        b->owner = i == 0;
        b->id = ++c->next_buf;
        b->cpu = cpu;
        b->bus = bus;
        b->size = part[i];
        cpu = (uint8_t *)cpu + part[i];
        bus += part[i];
        b->next = c->bufs;
        c->bufs = b;
        c->nbufs++;
        c->bytes += part[i];
    }
    live(s, 0, (int)n, 0);
    return 0;
}

int srv_free(weftd_server_t *s, client_t *c, buffer_t *b)
{
    if (b->users)
        return EBUSY;
    for (buffer_t **pp = &c->bufs; *pp; pp = &(*pp)->next)
        if (*pp == b) {
            *pp = b->next;
            break;
        }
    c->nbufs--;
    c->bytes -= b->size;
    free_buffer(s, b);
    live(s, 0, -1, 0);
    return 0;
}

int srv_submit(weftd_server_t *s, client_t *c, unsigned task, const weft_reconf_args_t *a,
               buffer_t *const *bufs, unsigned nbuf, uint32_t seq, char *why, size_t len)
{
    const char *name = s->cfg.task[task].name;
    if (c->nreqs >= s->cfg.limits.requests) {
        snprintf(why, len, "%u requests not done already (the limit)", c->nreqs);
        return EAGAIN;
    }
    request_t *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(why, len, "out of memory");
        return ENOMEM;
    }
    int rc = weft_reconf_submit(s->mgr, task, a, &r->q);
    if (rc == 0 && (rc = watch(s, EPOLL_CTL_ADD, weft_reconf_fd(r->q), EPOLLIN, &r->src))) {
        weft_reconf_abort(r->q);
        weft_reconf_release(r->q);
    }
    if (rc) {
        snprintf(why, len, "task %s could not be submitted: %s", name, strerror(-rc));
        free(r);
        return -rc;
    }
    r->src.kind = SRC_REQUEST;
    r->c = c;
    r->seq = seq;
    for (unsigned k = 0; k < nbuf; k++) {
        r->buf[k] = bufs[k];
        bufs[k]->users++;
    }
    r->nbuf = nbuf;
    r->next = c->reqs;
    c->reqs = r;
    c->nreqs++;
    SRV_COUNT(s, requests);
    live(s, 0, 0, 1);
    return 0;
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
        SRV_COUNT(s, orphaned);
        if (!c->reqs)
            free_client(s, c);
    } else {
        SRV_COUNT(s, completed);
        c->proto->on_done(s, c, r, &res);
    }
    free(r);
    live(s, 0, 0, -1);
}

/* Act on the whole messages read already, then read once more and act on what came: one
 * read a wake-up, so that a busy client cannot hold the loop (epoll is level-triggered
 * and brings it back). Returns false when the client is gone (freed or waiting for its
 * requests). */
static bool on_readable(weftd_server_t *s, client_t *c)
{
    if (!c->proto->on_bytes(s, c))
        return false;
    if (c->out) /* the socket is full: read on when it has taken the answers */
        return true;
    union {
        char buf[CMSG_SPACE(16 * sizeof(int))];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = {c->in + c->in_len, sizeof c->in - c->in_len};
    struct msghdr mh = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof ctl};
    ssize_t n = recvmsg(c->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    unsigned none = 0; /* a client sends no fds: any that come are closed */
    const bool sent_fds = n >= 0 && weftd_received_fds(&mh, NULL, &none, 0) > 0;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return true;
    if (sent_fds || (n > 0 && (mh.msg_flags & MSG_CTRUNC))) {
        srv_drop(s, c, 0, EPROTO, "a client sends no file descriptors");
        return false;
    }
    if (n <= 0) { /* hung up, or the socket failed; worth a line only with work lost */
        if (c->nreqs)
            srv_log("client %" PRIu64 " (pid %d): gone, %u requests aborted", c->id, (int)c->pid,
                    c->nreqs);
        SRV_COUNT(s, departed);
        client_gone(s, c);
        return false;
    }
    c->in_len += (size_t)n;
    return c->proto->on_bytes(s, c);
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
static void refuse(weftd_server_t *s, const listener_t *l, int fd, int err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void refuse(weftd_server_t *s, const listener_t *l, int fd, int err, const char *fmt, ...)
{
    SRV_COUNT(s, refused); /* before the answer: whoever reads it sees the count */
    char text[WEFTD_MAX_TEXT + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    uint8_t buf[WEFTD_HEADER_BYTES + WEFTD_MAX_TEXT + 16];
    long n = l->proto->encode_error(buf, sizeof buf, 0, err, text);
    if (n > 0 && send(fd, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
        /* it went away already: nothing to tell */
    }
    close(fd);
}

static void on_accept(weftd_server_t *s, listener_t *l)
{
    for (;;) {
        int fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) {
                /* No fd for it: the connection would make the listener readable for
                 * ever. Stop listening until a client leaves (client_gone). */
                srv_log("out of file descriptors: not accepting until a client leaves");
                listening(s, false);
            } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                srv_log("accept: %s", strerror(errno));
            }
            return;
        }
        struct ucred cr;
        socklen_t cl = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0) {
            refuse(s, l, fd, EACCES, "the peer's credentials cannot be read");
            continue;
        }
        if (!allowed(&s->cfg, &cr)) {
            srv_log("pid %d: refused: user %u may not use this server", (int)cr.pid,
                    (unsigned)cr.uid);
            refuse(s, l, fd, EACCES, "user %u (group %u) may not use this server", (unsigned)cr.uid,
                   (unsigned)cr.gid);
            continue;
        }
        if (s->connected >= s->cfg.limits.clients) {
            refuse(s, l, fd, EUSERS, "the server has %u clients (its limit)", s->connected);
            continue;
        }
        client_t *c = calloc(1, sizeof *c);
        if (!c) {
            refuse(s, l, fd, ENOMEM, "out of memory");
            continue;
        }
        c->src.kind = SRC_CLIENT;
        c->proto = l->proto;
        c->fd = fd;
        c->pid = cr.pid;
        c->uid = cr.uid;
        c->id = ++s->next_client;
        if (watch(s, EPOLL_CTL_ADD, fd, EPOLLIN, &c->src) != 0) {
            free(c);
            refuse(s, l, fd, ENOMEM, "cannot watch the connection");
            continue;
        }
        c->next = s->clients;
        s->clients = c;
        s->connected++;
        SRV_COUNT(s, accepted);
        live(s, 1, 0, 0);
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
                on_accept(s, (listener_t *)src);
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
                    SRV_COUNT(s, departed);
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
static int listen_at(weftd_server_t *s, listener_t *l, const char *path, char *why, size_t len)
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
    l->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const bool others = s->cfg.num_allow_uid || s->cfg.num_allow_gid;
    int rc = l->fd < 0 ? -errno : 0;
    if (rc == 0 && bind(l->fd, (struct sockaddr *)&a, sizeof a) != 0)
        rc = -errno;
    if (rc == 0) /* bound: the file is ours to remove, whatever fails next */
        snprintf(l->path, sizeof l->path, "%s", path);
    /* The policy is SO_PEERCRED's; the file's mode only keeps others out when nobody else
     * is allowed anyway. */
    if (rc == 0 && chmod(path, others ? 0666 : 0600) != 0)
        rc = -errno;
    if (rc == 0 && listen(l->fd, 64) != 0)
        rc = -errno;
    if (rc != 0)
        snprintf(why, len, "cannot listen at %s: %s", path, strerror(-rc));
    return rc;
}

int weftd_server_open(weft_t *w, const weftd_config_t *cfg, weftd_server_t **out, char *why,
                      size_t len)
{
    weftd_server_t *s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    s->w = w;
    s->cfg = *cfg;
    s->stop_fd = s->ep = -1;
    const proto_t *protos[2] = {&weft_proto, &fred_proto};
    for (unsigned i = 0; i < 2; i++)
        s->listen[i] = (listener_t){{SRC_LISTEN}, -1, protos[i], ""};
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
    int rc = listen_at(s, &s->listen[0], cfg->socket_path, why, len);
    if (rc == 0 && cfg->fred_socket_path[0])
        rc = listen_at(s, &s->listen[1], cfg->fred_socket_path, why, len);
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
    for (unsigned i = 0; i < 2 && rc == 0; i++)
        if (s->listen[i].fd >= 0)
            rc = watch(s, EPOLL_CTL_ADD, s->listen[i].fd, EPOLLIN, &s->listen[i].src);
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
    for (unsigned i = 0; i < 2; i++)
        if (s->listen[i].fd >= 0) {
            close(s->listen[i].fd);
            unlink(s->listen[i].path);
        }
    if (s->stop_fd >= 0)
        close(s->stop_fd);
    if (s->ep >= 0)
        close(s->ep);
    pthread_mutex_destroy(&s->stats_mu);
    free(s);
}

/*
 * libweftd_client (weft/weftd_client.h): a connection to weftd.
 *
 * Calls that expect an answer (HELLO, TASKS, ALLOC, FREE, SUBMIT, CANCEL) send their
 * message and read until the answer with their sequence number, or an ERROR for it,
 * arrives; a DONE read on the way is kept in the connection's list of ended requests,
 * which weftd_wait and weftd_next take from. weftd_fd() is an epoll fd over the socket
 * and an eventfd that is set while that list is not empty, so it polls readable both
 * when the server has sent something and when a result was read already.
 *
 * File descriptors: only an ALLOC answer carries one (the buffer's memfd), and an ALLOC
 * is waited for before the next call, so a received fd belongs to the ALLOC answer read
 * with it.
 */
#define _GNU_SOURCE
#include "weft/weftd_client.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "le_bytes.h"
#include "socket_path.h"
#include "wire.h"

typedef struct ended {
    struct ended *next;
    uint32_t seq;
    weftd_result_t res;
} ended_t;

typedef struct mapping {
    struct mapping *next;
    uint32_t id;
    void *data;
    size_t size;
} mapping_t;

struct weftd_client {
    int sock, ep, ready; /* ready: eventfd, set while ended is not empty */
    uint32_t seq;
    bool lost; /* the stream failed or broke the protocol: every call fails */
    uint8_t in[WEFTD_HEADER_BYTES + WEFTD_MAX_PAYLOAD];
    size_t in_len;
    int fds[8]; /* received with the bytes in in[], for the ALLOC answer */
    unsigned nfds;
    ended_t *ended, *ended_tail;
    mapping_t *maps;
    char last_error[WEFTD_MAX_TEXT + 1];
};

/* The eventfd is set while a result can be had without the socket: one kept, or a whole
 * message read already (the header's payload length at offset 8, little-endian). */
static void set_ready(weftd_client_t *c)
{
    uint64_t v;
    const bool whole =
        c->in_len >= WEFTD_HEADER_BYTES && WEFTD_HEADER_BYTES + le_get32(c->in + 8) <= c->in_len;
    if (c->ended || whole) {
        v = 1;
        if (write(c->ready, &v, sizeof v) < 0) { /* the counter is saturated: set anyway */
        }
    } else if (read(c->ready, &v, sizeof v) < 0) { /* it was not set */
    }
}

static void keep_done(weftd_client_t *c, const weftd_msg_t *m)
{
    ended_t *e = malloc(sizeof *e);
    if (!e) {
        c->lost = true; /* a result that cannot be kept cannot be delivered */
        return;
    }
    *e = (ended_t){NULL, m->seq,
                   (weftd_result_t){m->u.done.status, m->u.done.exit_value, m->u.done.slot,
                                    m->u.done.reconfigured, m->u.done.wait_cycles,
                                    m->u.done.reconf_cycles, m->u.done.exec_cycles}};
    if (c->ended_tail)
        c->ended_tail->next = e;
    else
        c->ended = e;
    c->ended_tail = e;
    set_ready(c);
}

static void drop_fds(weftd_client_t *c)
{
    for (unsigned i = 0; i < c->nfds; i++)
        close(c->fds[i]);
    c->nfds = 0;
}

/* Read what the socket has (waiting up to timeout_ms, negative: no limit).
 * 0: bytes read; -ETIMEDOUT; -EPIPE the server hung up; -errno. */
static int fill(weftd_client_t *c, int timeout_ms)
{
    struct pollfd pfd = {c->sock, POLLIN, 0};
    int n = poll(&pfd, 1, timeout_ms);
    if (n == 0)
        return -ETIMEDOUT;
    if (n < 0)
        return errno == EINTR ? 0 : -errno;
    union {
        char buf[CMSG_SPACE(sizeof c->fds)];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = {c->in + c->in_len, sizeof c->in - c->in_len};
    struct msghdr mh = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof ctl};
    ssize_t r = recvmsg(c->sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (r < 0)
        return errno == EAGAIN || errno == EINTR ? 0 : -errno;
    weftd_received_fds(&mh, c->fds, &c->nfds, sizeof c->fds / sizeof c->fds[0]);
    if (r == 0)
        return -EPIPE;
    c->in_len += (size_t)r;
    return 0;
}

/* The next whole message from the server, waiting up to timeout_ms. DONEs are kept for
 * weftd_wait/weftd_next and returned too. 0 with *m set, or -errno. */
static int next_msg(weftd_client_t *c, weftd_msg_t *m, int timeout_ms)
{
    for (;;) {
        if (c->lost)
            return -EPIPE;
        char why[WEFTD_MAX_TEXT];
        long used = weftd_decode(c->in, c->in_len, 1, m, why, sizeof why);
        if (used < 0) {
            snprintf(c->last_error, sizeof c->last_error, "from the server: %.180s", why);
            c->lost = true;
            return -EPROTO;
        }
        if (used > 0) {
            memmove(c->in, c->in + used, c->in_len - (size_t)used);
            c->in_len -= (size_t)used;
            if (m->type == WEFTD_DONE)
                keep_done(c, m);
            set_ready(c);
            return 0;
        }
        int rc = fill(c, timeout_ms);
        if (rc == -EPIPE || (rc < 0 && rc != -ETIMEDOUT))
            c->lost = true;
        if (rc < 0)
            return rc;
    }
}

/* Send m whole (the socket is blocking). */
static int send_msg(weftd_client_t *c, weftd_msg_t *m)
{
    uint8_t buf[WEFTD_HEADER_BYTES + WEFTD_MAX_PAYLOAD];
    if (c->lost)
        return -EPIPE;
    m->seq = ++c->seq ? c->seq : ++c->seq; /* 0 is the server's "no message" */
    long n = weftd_encode(m, buf, sizeof buf);
    if (n < 0)
        return (int)n;
    for (long off = 0; off < n;) {
        ssize_t w = send(c->sock, buf + off, (size_t)(n - off), MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -errno; /* call() reads why, if the server said */
        off += w;
    }
    return 0;
}

/* Send m and read until its answer (*a, of m's type) or an ERROR for it (its errno). */
static int call(weftd_client_t *c, weftd_msg_t *m, weftd_msg_t *a)
{
    const weftd_type_t type = m->type;
    drop_fds(c);
    int rc = send_msg(c, m);
    if (rc == -EPIPE || rc == -ECONNRESET) {
        /* The server closed the connection: an ERROR saying why may be waiting (a refused
         * connection is closed before it reads HELLO). */
        while (next_msg(c, a, 0) == 0)
            if (a->type == WEFTD_ERROR) {
                snprintf(c->last_error, sizeof c->last_error, "%s", a->u.error.text);
                rc = -a->u.error.err;
                break;
            }
        c->lost = true;
        return rc;
    }
    while (rc == 0) {
        rc = next_msg(c, a, -1);
        if (rc != 0)
            break;
        if (a->type == WEFTD_ERROR && (a->seq == m->seq || a->seq == 0)) {
            snprintf(c->last_error, sizeof c->last_error, "%s", a->u.error.text);
            if (a->seq == 0) /* about the connection: the server drops it */
                c->lost = true;
            return -a->u.error.err;
        }
        if (a->seq == m->seq && a->type == type)
            return 0;
        if (a->type != WEFTD_DONE) {
            snprintf(c->last_error, sizeof c->last_error,
                     "the server answered message %u with type %d", a->seq, (int)a->type);
            c->lost = true;
            return -EPROTO;
        }
    }
    return rc;
}

int weftd_connect(const char *path, weftd_client_t **out, char *why, size_t why_len)
{
    char def[WEFTD_SOCKET_PATH_BYTES], tmp[200];
    if (!why) {
        why = tmp;
        why_len = sizeof tmp;
    }
    why[0] = '\0';
    if (!out)
        return -EINVAL;
    if (!path)
        path = getenv("WEFTD_SOCKET");
    if (!path || !path[0]) {
        int rc = weftd_default_socket(def, sizeof def, why, why_len);
        if (rc)
            return rc;
        path = def;
    }
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path) {
        snprintf(why, why_len, "socket path longer than %zu bytes", sizeof a.sun_path - 1);
        return -ENAMETOOLONG;
    }
    memcpy(a.sun_path, path, strlen(path) + 1);
    weftd_client_t *c = calloc(1, sizeof *c);
    if (!c)
        return -ENOMEM;
    c->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    c->ep = epoll_create1(EPOLL_CLOEXEC);
    c->ready = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    int rc = c->sock < 0 || c->ep < 0 || c->ready < 0 ? -errno : 0;
    struct epoll_event ev = {.events = EPOLLIN};
    if (rc == 0 && (epoll_ctl(c->ep, EPOLL_CTL_ADD, c->sock, &ev) != 0 ||
                    epoll_ctl(c->ep, EPOLL_CTL_ADD, c->ready, &ev) != 0))
        rc = -errno;
    if (rc == 0 && connect(c->sock, (struct sockaddr *)&a, sizeof a) != 0) {
        rc = -errno;
        snprintf(why, why_len, "cannot connect to %s: %s", path, strerror(errno));
    }
    if (rc == 0) {
        weftd_msg_t m = {.type = WEFTD_HELLO}, ans;
        m.u.hello.min_version = m.u.hello.max_version = WEFTD_VERSION;
        rc = call(c, &m, &ans);
        if (rc != 0)
            snprintf(why, why_len, "%s", c->last_error[0] ? c->last_error : strerror(-rc));
    }
    if (rc != 0) {
        weftd_disconnect(c);
        return rc;
    }
    *out = c;
    return 0;
}

void weftd_disconnect(weftd_client_t *c)
{
    if (!c)
        return;
    drop_fds(c);
    const int fds[] = {c->sock, c->ep, c->ready};
    for (unsigned i = 0; i < 3; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    while (c->ended) {
        ended_t *e = c->ended;
        c->ended = e->next;
        free(e);
    }
    while (c->maps) {
        mapping_t *m = c->maps;
        c->maps = m->next;
        munmap(m->data, m->size);
        free(m);
    }
    free(c);
}

const char *weftd_last_error(const weftd_client_t *c)
{
    return c ? c->last_error : "";
}

int weftd_tasks(weftd_client_t *c, weftd_task_t *out, unsigned cap)
{
    if (!c || (cap && !out))
        return -EINVAL;
    weftd_msg_t m = {.type = WEFTD_TASKS}, *a = malloc(sizeof *a);
    if (!a)
        return -ENOMEM;
    int rc = call(c, &m, a);
    if (rc == 0) {
        for (unsigned i = 0; i < a->u.tasks.count && i < cap; i++)
            out[i] = a->u.tasks.task[i];
        rc = a->u.tasks.count;
    }
    free(a);
    return rc;
}

int weftd_task_id(weftd_client_t *c, const char *name)
{
    weftd_task_t t[WEFTD_MAX_TASKS];
    int n = name ? weftd_tasks(c, t, WEFTD_MAX_TASKS) : -EINVAL;
    for (int i = 0; i < n; i++)
        if (!strncmp(t[i].name, name, sizeof t[i].name))
            return t[i].id;
    return n < 0 ? n : -ENOENT;
}

int weftd_alloc(weftd_client_t *c, size_t size, weftd_buffer_t *out)
{
    if (!c || !out || size == 0)
        return -EINVAL;
    weftd_msg_t m = {.type = WEFTD_ALLOC}, a;
    m.u.alloc.size = size;
    mapping_t *map = malloc(sizeof *map);
    int rc = map ? call(c, &m, &a) : -ENOMEM;
    if (rc == 0 && c->nfds != 1) {
        snprintf(c->last_error, sizeof c->last_error, "buffer %u came without its fd",
                 a.u.alloc.buffer);
        c->lost = true;
        rc = -EPROTO;
    }
    void *data = MAP_FAILED;
    if (rc == 0) {
        data = mmap(NULL, a.u.alloc.size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fds[0], 0);
        if (data == MAP_FAILED) {
            rc = -errno;
            weftd_msg_t f = {.type = WEFTD_FREE}, fa; /* not ours after all: give it back */
            f.u.free_.buffer = a.u.alloc.buffer;
            call(c, &f, &fa);
        }
    }
    drop_fds(c);
    if (rc != 0) {
        free(map);
        return rc;
    }
    *map = (mapping_t){c->maps, a.u.alloc.buffer, data, a.u.alloc.size};
    c->maps = map;
    *out = (weftd_buffer_t){a.u.alloc.buffer, data, a.u.alloc.size};
    return 0;
}

int weftd_free(weftd_client_t *c, weftd_buffer_t *b)
{
    if (!c || !b)
        return -EINVAL;
    weftd_msg_t m = {.type = WEFTD_FREE}, a;
    m.u.free_.buffer = b->id;
    int rc = call(c, &m, &a);
    if (rc != 0)
        return rc;
    for (mapping_t **pp = &c->maps; *pp; pp = &(*pp)->next)
        if ((*pp)->id == b->id) {
            mapping_t *map = *pp;
            *pp = map->next;
            munmap(map->data, map->size);
            free(map);
            break;
        }
    b->data = NULL;
    return 0;
}

int weftd_submit(weftd_client_t *c, unsigned task, const weftd_arg_t *args, unsigned num_args,
                 uint32_t *req)
{
    if (!c || num_args > WEFTD_MAX_ARGS || (num_args && !args) || task > UINT16_MAX)
        return -EINVAL;
    weftd_msg_t m = {.type = WEFTD_SUBMIT}, a;
    m.u.submit.task = (uint16_t)task;
    m.u.submit.num_args = (uint16_t)num_args;
    for (unsigned i = 0; i < num_args; i++)
        m.u.submit.arg[i] = args[i];
    int rc = call(c, &m, &a);
    if (rc == 0 && req)
        *req = m.seq;
    return rc;
}

int weftd_cancel(weftd_client_t *c, uint32_t req)
{
    if (!c)
        return -EINVAL;
    weftd_msg_t m = {.type = WEFTD_CANCEL}, a;
    m.u.cancel.target = req;
    return call(c, &m, &a);
}

/* Take the ended request req (any when match is false) from the list. */
static bool take(weftd_client_t *c, bool match, uint32_t req, uint32_t *seq, weftd_result_t *res)
{
    ended_t *prev = NULL;
    for (ended_t *e = c->ended; e; prev = e, e = e->next) {
        if (match && e->seq != req)
            continue;
        if (prev)
            prev->next = e->next;
        else
            c->ended = e->next;
        if (c->ended_tail == e)
            c->ended_tail = prev;
        if (seq)
            *seq = e->seq;
        if (res)
            *res = e->res;
        free(e);
        set_ready(c);
        return true;
    }
    return false;
}

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int weftd_wait(weftd_client_t *c, uint32_t req, int timeout_ms, weftd_result_t *res)
{
    if (!c)
        return -EINVAL;
    const int64_t until = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    while (!take(c, true, req, NULL, res)) {
        int left = timeout_ms < 0 ? -1 : (int)(until - now_ms() > 0 ? until - now_ms() : 0);
        weftd_msg_t m;
        int rc = next_msg(c, &m, left);
        if (rc != 0)
            return rc;
        if (m.type != WEFTD_DONE) { /* nothing else comes unasked */
            c->lost = true;
            return -EPROTO;
        }
    }
    return 0;
}

int weftd_next(weftd_client_t *c, uint32_t *req, weftd_result_t *res)
{
    if (!c)
        return -EINVAL;
    while (!take(c, false, 0, req, res)) {
        weftd_msg_t m;
        int rc = next_msg(c, &m, 0);
        if (rc == -ETIMEDOUT)
            return -EAGAIN;
        if (rc != 0)
            return rc;
        if (m.type != WEFTD_DONE) {
            c->lost = true;
            return -EPROTO;
        }
    }
    return 0;
}

int weftd_fd(const weftd_client_t *c)
{
    return c ? c->ep : -EINVAL;
}

int weftd_run(weftd_client_t *c, unsigned task, const weftd_arg_t *args, unsigned num_args,
              weftd_result_t *res)
{
    uint32_t req;
    int rc = weftd_submit(c, task, args, num_args, &req);
    return rc ? rc : weftd_wait(c, req, -1, res);
}

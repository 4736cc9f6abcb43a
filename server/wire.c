/* weftd's wire protocol: encoding and checks (wire.h, docs/server.md). */
#include "wire.h"

#include "le_bytes.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Payload sizes (bytes) of the fixed parts. */
enum {
    HELLO_BYTES = 4,
    TASK_BYTES = 4 + WEFTD_NAME_BYTES,
    LIST_HEAD_BYTES = 4,
    ALLOC_C_BYTES = 8,
    ALLOC_S_BYTES = 16,
    ID_BYTES = 4,
    ARG_BYTES = 16,
    DONE_BYTES = 36,
    ERROR_HEAD_BYTES = 8,
};

__attribute__((format(printf, 3, 4))) static long refuse(char *why, size_t why_len, const char *fmt,
                                                         ...)
{
    if (why && why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return -EPROTO;
}

static const char *type_name(uint32_t t)
{
    static const char *const names[] = {"?",      "HELLO",  "TASKS", "ALLOC", "FREE",
                                        "SUBMIT", "CANCEL", "DONE",  "ERROR"};
    return t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* A name field: [a-z0-9_]+, 0-terminated inside it and 0 after. */
static bool name_ok(const char *f)
{
    size_t n = 0;
    while (n < WEFTD_NAME_BYTES && f[n]) {
        char c = f[n];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
        n++;
    }
    if (n == 0 || n == WEFTD_NAME_BYTES)
        return false;
    for (size_t i = n; i < WEFTD_NAME_BYTES; i++)
        if (f[i])
            return false;
    return true;
}

static bool zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* The payload length a type has in a direction; -1 for the counted ones (a server's TASKS,
 * a client's SUBMIT, ERROR), whose decoders check the length against their count. */
static long fixed_len(weftd_type_t t, int from_server)
{
    switch (t) {
    case WEFTD_HELLO:
        return HELLO_BYTES;
    case WEFTD_TASKS:
        return from_server ? -1 : 0;
    case WEFTD_ALLOC:
        return from_server ? ALLOC_S_BYTES : ALLOC_C_BYTES;
    case WEFTD_FREE:
    case WEFTD_CANCEL:
        return from_server ? 0 : ID_BYTES;
    case WEFTD_SUBMIT:
        return from_server ? 0 : -1;
    case WEFTD_DONE:
        return DONE_BYTES;
    case WEFTD_ERROR:
        return -1;
    }
    return -2;
}

static long decode_payload(const uint8_t *p, uint32_t len, weftd_msg_t *m, char *why,
                           size_t why_len)
{
    const char *tn = type_name(m->type);
    switch (m->type) {
    case WEFTD_HELLO:
        if (m->from_server) {
            m->u.hello.version = le_get16(p);
            m->u.hello.num_tasks = le_get16(p + 2);
            if (m->u.hello.version == 0)
                return refuse(why, why_len, "HELLO: version 0");
            if (m->u.hello.num_tasks > WEFTD_MAX_TASKS)
                return refuse(why, why_len, "HELLO: %u tasks, at most %u", m->u.hello.num_tasks,
                              WEFTD_MAX_TASKS);
        } else {
            m->u.hello.min_version = le_get16(p);
            m->u.hello.max_version = le_get16(p + 2);
            if (m->u.hello.min_version == 0 || m->u.hello.min_version > m->u.hello.max_version)
                return refuse(why, why_len, "HELLO: versions %u..%u", m->u.hello.min_version,
                              m->u.hello.max_version);
        }
        return 0;
    case WEFTD_TASKS: {
        if (!m->from_server)
            return 0;
        if (len < LIST_HEAD_BYTES)
            return refuse(why, why_len, "TASKS: %u bytes, shorter than its count", len);
        unsigned n = le_get16(p);
        if (n > WEFTD_MAX_TASKS)
            return refuse(why, why_len, "TASKS: %u tasks, at most %u", n, WEFTD_MAX_TASKS);
        if (le_get16(p + 2) != 0)
            return refuse(why, why_len, "TASKS: reserved bytes 2..3 are not 0");
        if (len != LIST_HEAD_BYTES + n * TASK_BYTES)
            return refuse(why, why_len, "TASKS: %u bytes for %u tasks, want %u", len, n,
                          LIST_HEAD_BYTES + n * TASK_BYTES);
        m->u.tasks.count = (uint16_t)n;
        for (unsigned i = 0; i < n; i++) {
            const uint8_t *r = p + LIST_HEAD_BYTES + i * TASK_BYTES;
            weftd_task_t *t = &m->u.tasks.task[i];
            t->id = le_get16(r);
            t->partition = r[2];
            t->accelerator = r[3];
            memcpy(t->name, r + 4, WEFTD_NAME_BYTES);
            if (t->accelerator > 1)
                return refuse(why, why_len, "TASKS: task %u: kind %u (0 thread, 1 accelerator)", i,
                              t->accelerator);
            if (!name_ok(t->name))
                return refuse(why, why_len,
                              "TASKS: task %u: name is not 1 to %u characters of [a-z0-9_]", i,
                              WEFTD_NAME_BYTES - 1);
        }
        return 0;
    }
    case WEFTD_ALLOC:
        if (m->from_server) {
            m->u.alloc.buffer = le_get32(p);
            m->u.alloc.size = le_get64(p + 8);
            if (le_get32(p + 4) != 0)
                return refuse(why, why_len, "ALLOC: reserved bytes 4..7 are not 0");
        } else {
            m->u.alloc.size = le_get64(p);
        }
        if (m->u.alloc.size == 0)
            return refuse(why, why_len, "ALLOC: size 0");
        return 0;
    case WEFTD_FREE:
        if (!m->from_server)
            m->u.free_.buffer = le_get32(p);
        return 0;
    case WEFTD_CANCEL:
        if (!m->from_server)
            m->u.cancel.target = le_get32(p);
        return 0;
    case WEFTD_SUBMIT: {
        if (m->from_server)
            return 0;
        if (len < 4)
            return refuse(why, why_len, "SUBMIT: %u bytes, shorter than task and count", len);
        unsigned n = le_get16(p + 2);
        m->u.submit.task = le_get16(p);
        if (n > WEFTD_MAX_ARGS)
            return refuse(why, why_len, "SUBMIT: %u arguments, at most %u", n, WEFTD_MAX_ARGS);
        if (len != 4 + n * ARG_BYTES)
            return refuse(why, why_len, "SUBMIT: %u bytes for %u arguments, want %u", len, n,
                          4 + n * ARG_BYTES);
        m->u.submit.num_args = (uint16_t)n;
        for (unsigned i = 0; i < n; i++) {
            const uint8_t *a = p + 4 + i * ARG_BYTES;
            weftd_arg_t *g = &m->u.submit.arg[i];
            g->kind = a[0];
            g->buffer = le_get32(a + 4);
            g->value = le_get64(a + 8);
            if (!zero(a + 1, 3))
                return refuse(why, why_len, "SUBMIT: argument %u: reserved bytes are not 0", i);
            if (g->kind > WEFTD_ARG_BUFFER)
                return refuse(why, why_len, "SUBMIT: argument %u: kind %u (0 value, 1 buffer)", i,
                              g->kind);
            if (g->kind == WEFTD_ARG_VALUE && g->buffer != 0)
                return refuse(why, why_len, "SUBMIT: argument %u: a value names buffer %u", i,
                              g->buffer);
        }
        return 0;
    }
    case WEFTD_DONE:
        m->u.done.status = (int32_t)le_get32(p);
        m->u.done.exit_value = le_get32(p + 4);
        m->u.done.slot = le_get16(p + 8);
        m->u.done.reconfigured = p[10];
        m->u.done.wait_cycles = le_get64(p + 12);
        m->u.done.reconf_cycles = le_get64(p + 20);
        m->u.done.exec_cycles = le_get64(p + 28);
        if (m->u.done.status > 0)
            return refuse(why, why_len, "DONE: status %d (0 or a negative errno)",
                          (int)m->u.done.status);
        if (m->u.done.reconfigured > 1 || p[11] != 0)
            return refuse(why, why_len, "DONE: reconfigured %u or reserved byte 11 not 0",
                          m->u.done.reconfigured);
        return 0;
    case WEFTD_ERROR: {
        if (len < ERROR_HEAD_BYTES)
            return refuse(why, why_len, "ERROR: %u bytes, shorter than its head", len);
        m->u.error.err = (int32_t)le_get32(p);
        unsigned n = le_get16(p + 4);
        if (m->u.error.err <= 0)
            return refuse(why, why_len, "ERROR: errno %d (positive)", (int)m->u.error.err);
        if (le_get16(p + 6) != 0)
            return refuse(why, why_len, "ERROR: reserved bytes 6..7 are not 0");
        if (n > WEFTD_MAX_TEXT || len != ERROR_HEAD_BYTES + n)
            return refuse(why, why_len, "ERROR: text of %u bytes in a payload of %u", n, len);
        for (unsigned i = 0; i < n; i++)
            if (p[ERROR_HEAD_BYTES + i] < 0x20 || p[ERROR_HEAD_BYTES + i] > 0x7E)
                return refuse(why, why_len, "ERROR: text byte %u is not printable ASCII", i);
        m->u.error.len = (uint16_t)n;
        memcpy(m->u.error.text, p + ERROR_HEAD_BYTES, n);
        m->u.error.text[n] = 0;
        return 0;
    }
    }
    return refuse(why, why_len, "%s: unknown type", tn);
}

long weftd_decode(const uint8_t *buf, size_t len, int from_server, weftd_msg_t *out, char *why,
                  size_t why_len)
{
    if (!buf || !out)
        return refuse(why, why_len, "no message given");
    if (len < WEFTD_HEADER_BYTES)
        return 0;
    if (le_get32(buf) != WEFTD_MAGIC)
        return refuse(why, why_len, "not a weftd message (magic 0x%08x)", le_get32(buf));
    if (le_get16(buf + 4) != WEFTD_VERSION)
        return refuse(why, why_len, "protocol version %u, this side speaks %u", le_get16(buf + 4),
                      WEFTD_VERSION);
    const uint32_t type = le_get16(buf + 6), plen = le_get32(buf + 8);
    if (type < WEFTD_HELLO || type > WEFTD_ERROR)
        return refuse(why, why_len, "unknown message type %u", type);
    if (!from_server && (type == WEFTD_DONE || type == WEFTD_ERROR))
        return refuse(why, why_len, "%s is the server's to send", type_name(type));
    if (plen > WEFTD_MAX_PAYLOAD)
        return refuse(why, why_len, "%s: payload of %u bytes, at most %u", type_name(type), plen,
                      WEFTD_MAX_PAYLOAD);
    const long want = fixed_len((weftd_type_t)type, from_server);
    if (want >= 0 && plen != (uint32_t)want)
        return refuse(why, why_len, "%s: payload of %u bytes, want %ld", type_name(type), plen,
                      want);
    if (len < WEFTD_HEADER_BYTES + plen)
        return 0;
    memset(out, 0, sizeof *out);
    out->type = (weftd_type_t)type;
    out->seq = le_get32(buf + 12);
    out->from_server = from_server != 0;
    long rc = decode_payload(buf + WEFTD_HEADER_BYTES, plen, out, why, why_len);
    return rc < 0 ? rc : (long)(WEFTD_HEADER_BYTES + plen);
}

/* The payload of m into p (room enough); its length, or -EINVAL. */
static long encode_payload(const weftd_msg_t *m, uint8_t *p)
{
    switch (m->type) {
    case WEFTD_HELLO:
        le_put16(p, m->from_server ? m->u.hello.version : m->u.hello.min_version);
        le_put16(p + 2, m->from_server ? m->u.hello.num_tasks : m->u.hello.max_version);
        return HELLO_BYTES;
    case WEFTD_TASKS:
        if (!m->from_server)
            return 0;
        if (m->u.tasks.count > WEFTD_MAX_TASKS)
            return -EINVAL;
        le_put16(p, m->u.tasks.count);
        le_put16(p + 2, 0);
        for (unsigned i = 0; i < m->u.tasks.count; i++) {
            const weftd_task_t *t = &m->u.tasks.task[i];
            uint8_t *r = p + LIST_HEAD_BYTES + i * TASK_BYTES;
            le_put16(r, t->id); /* a bad name is caught by the check of the whole message */
            r[2] = t->partition;
            r[3] = t->accelerator;
            memcpy(r + 4, t->name, WEFTD_NAME_BYTES);
        }
        return LIST_HEAD_BYTES + (long)m->u.tasks.count * TASK_BYTES;
    case WEFTD_ALLOC:
        if (!m->from_server) {
            le_put64(p, m->u.alloc.size);
            return ALLOC_C_BYTES;
        }
        le_put32(p, m->u.alloc.buffer);
        le_put32(p + 4, 0);
        le_put64(p + 8, m->u.alloc.size);
        return ALLOC_S_BYTES;
    case WEFTD_FREE:
        if (m->from_server)
            return 0;
        le_put32(p, m->u.free_.buffer);
        return ID_BYTES;
    case WEFTD_CANCEL:
        if (m->from_server)
            return 0;
        le_put32(p, m->u.cancel.target);
        return ID_BYTES;
    case WEFTD_SUBMIT:
        if (m->from_server)
            return 0;
        if (m->u.submit.num_args > WEFTD_MAX_ARGS)
            return -EINVAL;
        le_put16(p, m->u.submit.task);
        le_put16(p + 2, m->u.submit.num_args);
        for (unsigned i = 0; i < m->u.submit.num_args; i++) {
            const weftd_arg_t *g = &m->u.submit.arg[i];
            uint8_t *a = p + 4 + i * ARG_BYTES;
            memset(a, 0, ARG_BYTES);
            a[0] = g->kind;
            le_put32(a + 4, g->buffer);
            le_put64(a + 8, g->value);
        }
        return 4 + (long)m->u.submit.num_args * ARG_BYTES;
    case WEFTD_DONE:
        le_put32(p, (uint32_t)m->u.done.status);
        le_put32(p + 4, m->u.done.exit_value);
        le_put16(p + 8, m->u.done.slot);
        p[10] = m->u.done.reconfigured;
        p[11] = 0;
        le_put64(p + 12, m->u.done.wait_cycles);
        le_put64(p + 20, m->u.done.reconf_cycles);
        le_put64(p + 28, m->u.done.exec_cycles);
        return DONE_BYTES;
    case WEFTD_ERROR:
        if (m->u.error.len > WEFTD_MAX_TEXT)
            return -EINVAL;
        le_put32(p, (uint32_t)m->u.error.err);
        le_put16(p + 4, m->u.error.len);
        le_put16(p + 6, 0);
        memcpy(p + ERROR_HEAD_BYTES, m->u.error.text, m->u.error.len);
        return ERROR_HEAD_BYTES + (long)m->u.error.len;
    }
    return -EINVAL;
}

long weftd_encode(const weftd_msg_t *m, uint8_t *out, size_t cap)
{
    uint8_t payload[WEFTD_MAX_PAYLOAD];
    if (!m || !out)
        return -EINVAL;
    long n = encode_payload(m, payload);
    if (n < 0)
        return n;
    if ((size_t)n + WEFTD_HEADER_BYTES > cap)
        return -ENOSPC;
    le_put32(out, WEFTD_MAGIC);
    le_put16(out + 4, WEFTD_VERSION);
    le_put16(out + 6, (uint16_t)m->type);
    le_put32(out + 8, (uint32_t)n);
    le_put32(out + 12, m->seq);
    memcpy(out + WEFTD_HEADER_BYTES, payload, (size_t)n);
    /* What the decoder would refuse is not sent: one set of rules, the decoder's. */
    weftd_msg_t check;
    return weftd_decode(out, (size_t)n + WEFTD_HEADER_BYTES, m->from_server, &check, NULL, 0) > 0
               ? n + WEFTD_HEADER_BYTES
               : -EINVAL;
}

unsigned weftd_received_fds(struct msghdr *mh, int *fds, unsigned *count, unsigned cap)
{
    unsigned got = 0;
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
            continue;
        for (size_t k = 0; k < (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++, got++) {
            int fd;
            memcpy(&fd, CMSG_DATA(cm) + k * sizeof(int), sizeof fd);
            if (*count < cap)
                fds[(*count)++] = fd;
            else
                close(fd);
        }
    }
    return got;
}

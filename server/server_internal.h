/*
 * What the parts of weftd's server share (docs/server.md): the objects of the event loop
 * (server.c), and the interface of a client protocol: Weft's own (weft_protocol.c) and
 * FRED's (fred_protocol.c). A protocol turns a client's bytes into buffers and requests
 * through the srv_* calls, and a request's end into its answer; the loop owns sockets,
 * limits, queues and the clients' lives.
 */
#ifndef WEFT_SERVER_SERVER_INTERNAL_H
#define WEFT_SERVER_SERVER_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "server.h"
#include "weft/reconf.h"
#include "wire.h"

enum src_kind { SRC_LISTEN, SRC_STOP, SRC_CLIENT, SRC_REQUEST };

/* What an epoll event names: the first member of each watched object. */
typedef struct src {
    enum src_kind kind;
} src_t;

typedef struct client client_t;
typedef struct request request_t;

/* A client protocol. */
typedef struct proto {
    const char *name;
    /* Act on the whole messages at the start of c->in, while c->out is empty; false when
     * the client is gone (dropped). */
    bool (*on_bytes)(weftd_server_t *s, client_t *c);
    /* Answer r's end (the client is connected). */
    void (*on_done)(weftd_server_t *s, client_t *c, request_t *r, const weft_reconf_result_t *res);
    /* The bytes of an error answer to message seq: their length, or <= 0. */
    long (*encode_error)(uint8_t *buf, size_t cap, uint32_t seq, int err, const char *text);
} proto_t;

extern const proto_t weft_proto, fred_proto;

typedef struct listener {
    src_t src;
    int fd;
    const proto_t *proto;
    char path[WEFTD_SOCKET_PATH_BYTES];
} listener_t;

typedef struct buffer {
    struct buffer *next;
    uint32_t id;
    void *cpu;
    uint64_t bus;
    uint64_t size;
    int fd;         /* kept while a FRED client may open it by path, else -1 */
    bool owner;     /* the first part of its DMA block: freeing it frees the block */
    unsigned users; /* requests not ended that name it */
} buffer_t;

struct request {
    src_t src;
    request_t *next;
    client_t *c;
    uint32_t seq;
    weft_reconf_req_t *q;
    buffer_t *buf[WEFTD_MAX_ARGS]; /* the buffers it names, each once */
    unsigned nbuf;
};

/* An answer waiting for room in the socket; fd (or -1) travels with its first byte. */
typedef struct out_msg {
    struct out_msg *next;
    size_t len, off;
    int fd;
    uint8_t bytes[];
} out_msg_t;

/* What a FRED client has bound: a task and the buffers made for it. */
typedef struct fred_binding {
    unsigned task;
    buffer_t *buf[WEFTD_FRED_MAX_BUFFERS];
    unsigned nbuf;
} fred_binding_t;

struct client {
    src_t src;
    client_t *next;
    const proto_t *proto;
    uint64_t id;
    int fd; /* -1 once gone */
    pid_t pid;
    uid_t uid;
    bool hello; /* the protocol's greeting has been answered */
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
    fred_binding_t *fred; /* FRED clients: WEFTD_FRED_MAX_BINDINGS of them */
    unsigned nfred;
};

struct weftd_server {
    weft_t *w;
    weftd_config_t cfg;
    weft_reconf_t *mgr;
    int ep;
    src_t stop_src;
    int stop_fd;
    listener_t listen[2]; /* Weft's protocol, FRED's (fd -1: off) */
    bool listen_paused;   /* out of fds: not watched until a client leaves */
    client_t *clients;    /* connected, and gone ones whose requests have not ended */
    client_t *dead;       /* freed after the current batch of events, which may name them */
    unsigned connected;
    uint64_t next_client;
    pthread_mutex_t stats_mu;
    weftd_server_stats_t stats;
};

#define SRV_COUNT(s, field)                                                                        \
    do {                                                                                           \
        pthread_mutex_lock(&(s)->stats_mu);                                                        \
        (s)->stats.field++;                                                                        \
        pthread_mutex_unlock(&(s)->stats_mu);                                                      \
    } while (0)

void srv_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Queue bytes (and fd, now the queue's) for c and send what its socket takes; 0, or
 * -errno when c must go. */
int srv_queue(weftd_server_t *s, client_t *c, const void *bytes, size_t len, int fd);
/* An error answer in c's protocol, counted; the client is kept. */
void srv_error(weftd_server_t *s, client_t *c, uint32_t seq, int err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Answer an error and drop c: for a message that cannot be trusted. */
void srv_drop(weftd_server_t *s, client_t *c, uint32_t seq, int err, const char *why);

/* The task of configuration id, and its index; NULL when none. */
const weftd_task_cfg_t *srv_task(const weftd_server_t *s, uint16_t id, unsigned *index);
buffer_t *srv_buffer(client_t *c, uint32_t id);
/* n buffers of c's (at most WEFTD_FRED_MAX_BUFFERS) in one DMA block, one after another,
 * within its limits: a positive errno (why says), or 0 with out[] set and fds[] the memfds
 * of their pages (the caller's). The block is freed with its first buffer. */
int srv_alloc(weftd_server_t *s, client_t *c, const uint64_t *sizes, unsigned n, buffer_t **out,
              int *fds, char *why, size_t len);
/* Free buffer b of c's (a buffer of its own block); EBUSY while a request not done names
 * it. */
int srv_free(weftd_server_t *s, client_t *c, buffer_t *b);
/* Submit task index for c with a's arguments naming bufs; a positive errno (why says) or
 * 0 with the request made (its end comes to c's protocol's on_done). */
int srv_submit(weftd_server_t *s, client_t *c, unsigned task, const weft_reconf_args_t *a,
               buffer_t *const *bufs, unsigned nbuf, uint32_t seq, char *why, size_t len);

#endif /* WEFT_SERVER_SERVER_INTERNAL_H */

/*
 * weftd's wire protocol (docs/server.md): the messages a client and the server exchange
 * over a Unix stream socket, their encoding and their checks. Used by the server and by
 * the client library; the only code that reads a message's bytes.
 *
 * A message is a 16-byte header and a payload, integers little-endian:
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | magic "WFTD" |
 * | 4 | 2 | protocol version (WEFTD_VERSION) |
 * | 6 | 2 | type (weftd_type_t) |
 * | 8 | 4 | payload length in bytes (at most WEFTD_MAX_PAYLOAD) |
 * | 12 | 4 | sequence number: the client's for its request, echoed in every answer to it |
 *
 * Every type has one payload layout per direction, of one exact length (TASKS from the
 * server and ERROR end in a counted list or text); reserved bytes must be 0. Whatever is
 * wrong is refused with a line naming the field. File descriptors (a buffer's memfd) travel
 * beside a message as SCM_RIGHTS, never inside one.
 */
#ifndef WEFT_SERVER_WIRE_H
#define WEFT_SERVER_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* The types a client sees too: a task record, an argument, WEFTD_MAX_ARGS (an
 * accelerator's control block holds 6; a Weft thread's first is its GET_INIT_DATA word)
 * and WEFTD_NAME_BYTES (a name is 1 or more bytes of [a-z0-9_], 0-padded). */
#include "weft/weftd_client.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEFTD_MAGIC 0x44544657u /* "WFTD" as little-endian bytes */
#define WEFTD_VERSION 1u
#define WEFTD_HEADER_BYTES 16u
#define WEFTD_MAX_PAYLOAD 4096u
/** Task records in one TASKS answer. */
#define WEFTD_MAX_TASKS 64u
/** An ERROR's text, at most. */
#define WEFTD_MAX_TEXT 200u

typedef enum weftd_type {
    WEFTD_HELLO = 1,  /**< c: versions it speaks; s: the one chosen, its task count */
    WEFTD_TASKS = 2,  /**< c: the list please; s: the tasks of its configuration */
    WEFTD_ALLOC = 3,  /**< c: a buffer of size bytes; s: its id and size (fd beside) */
    WEFTD_FREE = 4,   /**< c: give buffer id back; s: done */
    WEFTD_SUBMIT = 5, /**< c: run task with args; s: accepted (DONE follows) */
    WEFTD_CANCEL = 6, /**< c: take back request seq; s: taken back (its DONE says so) */
    WEFTD_DONE = 7,   /**< s: how a request ended */
    WEFTD_ERROR = 8,  /**< s: what was wrong with message seq (errno and text) */
} weftd_type_t;

/** A decoded message: the header's fields and the payload of its type and direction. */
typedef struct weftd_msg {
    weftd_type_t type;
    uint32_t seq;
    int from_server;
    union {
        struct {
            uint16_t min_version, max_version; /* client */
            uint16_t version, num_tasks;       /* server */
        } hello;
        struct {
            uint16_t count;
            weftd_task_t task[WEFTD_MAX_TASKS];
        } tasks; /* server */
        struct {
            uint32_t buffer; /* server */
            uint64_t size;
        } alloc;
        struct {
            uint32_t buffer;
        } free_; /* client */
        struct {
            uint16_t task;
            uint16_t num_args;
            weftd_arg_t arg[WEFTD_MAX_ARGS];
        } submit; /* client */
        struct {
            uint32_t target; /* the request to take back */
        } cancel;            /* client */
        struct {
            int32_t status; /**< 0, or a negative errno (-ETIMEDOUT, -ECANCELED, ...) */
            uint32_t exit_value;
            uint16_t slot;
            uint8_t reconfigured;
            uint64_t wait_cycles, reconf_cycles, exec_cycles;
        } done;
        struct {
            int32_t err; /**< positive errno */
            uint16_t len;
            char text[WEFTD_MAX_TEXT + 1]; /**< 0-terminated */
        } error;
    } u;
} weftd_msg_t;

/**
 * @brief Decode the message at the start of buf (len bytes so far), sent by the server
 *        (from_server) or by a client.
 * @return the message's length in bytes (> 0, *out set); 0 when buf holds only part of
 *         one (read more); -EPROTO when it is malformed (why names the field; the
 *         stream cannot be trusted after it)
 */
long weftd_decode(const uint8_t *buf, size_t len, int from_server, weftd_msg_t *out, char *why,
                  size_t why_len);

/**
 * @brief Encode m into out (cap bytes).
 * @return its length in bytes; -EINVAL when m itself breaks the rules the decoder
 *         checks (a count out of range, a bad name); -ENOSPC when cap is too small
 */
long weftd_encode(const weftd_msg_t *m, uint8_t *out, size_t cap);

struct msghdr;

/**
 * @brief Take the file descriptors a received message carried (SCM_RIGHTS): appended to
 *        fds[*count .. cap), any beyond cap closed. The server passes cap 0: it takes
 *        none, and a client that sends one is dropped.
 * @return how many the message carried
 */
unsigned weftd_received_fds(struct msghdr *mh, int *fds, unsigned *count, unsigned cap);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_SERVER_WIRE_H */

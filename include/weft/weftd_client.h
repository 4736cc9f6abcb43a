/**
 * @file weftd_client.h
 * @brief The client library of weftd, the server that shares the fabric between
 *        processes (docs/server.md): the only thing a client links (libweftd_client).
 *
 * A client connects, asks which hardware tasks the server offers, allocates buffers the
 * hardware reads and writes in place (mapped into the client, no copy), and submits
 * requests: synchronously (weftd_run), or asynchronously (weftd_submit, then poll
 * weftd_fd() and collect with weftd_next, or wait for one with weftd_wait).
 *
 * A connection is used by one thread at a time; open one per thread that needs its own.
 * When a call fails because the server answered ERROR, weftd_last_error() has its text.
 */
#ifndef WEFT_WEFTD_CLIENT_H
#define WEFT_WEFTD_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A task name's room: 1 to 31 bytes of [a-z0-9_], 0-terminated. */
#define WEFTD_NAME_BYTES 32u
/** Arguments of one request, at most. */
#define WEFTD_MAX_ARGS 6u

/** A connection to weftd, from weftd_connect() to weftd_disconnect(): the client's
 *  buffers and requests belong to it. Opaque. */
typedef struct weftd_client weftd_client_t;

/** A hardware task as the server offers it. */
typedef struct weftd_task {
    uint16_t id;         /**< what a request names it by */
    uint8_t partition;   /**< index of its partition in the server's configuration */
    uint8_t accelerator; /**< 1: an HLS-style accelerator (docs/hls.md); 0: a Weft thread */
    /** The name the server's configuration gives it, 0-terminated (weftd_task_id()). */
    char name[WEFTD_NAME_BYTES];
} weftd_task_t;

/** An argument of a request: a value, or one of the client's buffers plus an offset
 *  (the server puts the buffer's bus address there; a client never sees bus addresses). */
typedef struct weftd_arg {
    uint8_t kind; /**< WEFTD_ARG_VALUE or WEFTD_ARG_BUFFER */
    /** WEFTD_ARG_BUFFER: the buffer's id (weftd_buffer_t.id); unused for a value. */
    uint32_t buffer;
    uint64_t value; /**< the value, or the offset in the buffer */
} weftd_arg_t;
/** weftd_arg_t.kind: the task gets value as it is (weftd_value()). */
#define WEFTD_ARG_VALUE 0u
/** weftd_arg_t.kind: the task gets the bus address of buffer plus value
 *  (weftd_buffer_arg()). */
#define WEFTD_ARG_BUFFER 1u

/** A buffer mapped into this process; the hardware reads and writes the same pages. */
typedef struct weftd_buffer {
    /** The server's number for it, by which arguments and weftd_free() name it. */
    uint32_t id;
    /** Where it is mapped in this process (NULL after weftd_free()). */
    void *data;
    size_t size; /**< what was asked, rounded up to pages */
} weftd_buffer_t;

/** How a request ended. */
typedef struct weftd_result {
    /** 0: the task ran to its end; -ETIMEDOUT: stopped by the watchdog after its timeout
     *  (it may be requested again); -ECANCELED: cancelled before it started; -EIO: its
     *  slot could not be programmed; -EFAULT: the task faulted; other -errno: it could
     *  not start (-EINVAL: more buffers than a slot's memory windows) */
    int status;
    uint32_t exit_value; /**< a Weft thread's THREAD_EXIT value */
    unsigned slot;       /**< the slot it ran in */
    int reconfigured;    /**< 1: the slot was programmed for it; 0: it held the task */
    /** @var weftd_result::wait_cycles
     *  Fabric cycles from its arrival to the start of its slot's programming or its run.
     *  @var weftd_result::reconf_cycles
     *  Fabric cycles its slot's programming took (0 when the slot held the task).
     *  @var weftd_result::exec_cycles
     *  Fabric cycles from the start to the end of its execution. */
    uint64_t wait_cycles, reconf_cycles, exec_cycles;
} weftd_result_t;

/** @brief A value argument. */
static inline weftd_arg_t weftd_value(uint64_t v)
{
    weftd_arg_t a = {WEFTD_ARG_VALUE, 0, v};
    return a;
}

/** @brief The bus address of buffer b plus offset, as an argument. */
static inline weftd_arg_t weftd_buffer_arg(const weftd_buffer_t *b, uint64_t offset)
{
    weftd_arg_t a = {WEFTD_ARG_BUFFER, b->id, offset};
    return a;
}

/**
 * @brief Connect and agree on a protocol version.
 * @param path the server's socket; NULL: $WEFTD_SOCKET, else the server's default
 *        (`$XDG_RUNTIME_DIR/weftd.sock`, else `/tmp/weftd-<uid>/weftd.sock`)
 * @param out receives the connection
 * @param why if not NULL, receives what went wrong (the server's text when it refused)
 * @param why_len bytes of room at why
 * @retval 0 *out set
 * @retval -EACCES the server's policy does not let this user in; -EUSERS it is full;
 *         -EPROTONOSUPPORT no common version; other -errno from connecting
 */
int weftd_connect(const char *path, weftd_client_t **out, char *why, size_t why_len);

/** @brief Close the connection: the server aborts the requests not done and frees the
 *         buffers; those still mapped here are unmapped. */
void weftd_disconnect(weftd_client_t *c);

/** @brief The server's text for the last ERROR it answered on this connection ("" if
 *         none). */
const char *weftd_last_error(const weftd_client_t *c);

/** @brief The tasks the server offers (at most cap written). @return their number, or
 *         -errno */
int weftd_tasks(weftd_client_t *c, weftd_task_t *out, unsigned cap);

/** @brief The id of the task named name. @return the id (>= 0), -ENOENT, or -errno */
int weftd_task_id(weftd_client_t *c, const char *name);

/**
 * @brief Allocate a buffer in the fabric's DMA region and map it here.
 * @retval 0 *out set (its data zeroed)
 * @retval -EDQUOT past this client's limits; -ENOMEM the region is full; -errno
 */
int weftd_alloc(weftd_client_t *c, size_t size, weftd_buffer_t *out);

/** @brief Unmap a buffer and give it back. @retval -EBUSY a request not done names it;
 *         -ENOENT not this connection's */
int weftd_free(weftd_client_t *c, weftd_buffer_t *b);

/**
 * @brief Submit a request for task with up to WEFTD_MAX_ARGS arguments (a Weft thread:
 *        at most one, its init data; an accelerator: its control block's arguments).
 * @param c the connection
 * @param task the task's id (weftd_tasks(), weftd_task_id())
 * @param args the arguments (copied; NULL when num_args is 0)
 * @param num_args entries in args
 * @param req receives the request's number, for weftd_wait/weftd_cancel
 * @retval 0 accepted: it ends with a result (weftd_wait, weftd_next)
 * @retval -ENOENT no such task or buffer; -EINVAL bad arguments; -EAGAIN this client's
 *         requests not done are at its limit
 */
int weftd_submit(weftd_client_t *c, unsigned task, const weftd_arg_t *args, unsigned num_args,
                 uint32_t *req);

/** @brief Take back a request that has not started; its result says -ECANCELED.
 *  @retval -EBUSY it has started (execution is not preemptive); -EALREADY it has ended
 *          (its result is on its way); -ENOENT no such request not done */
int weftd_cancel(weftd_client_t *c, uint32_t req);

/**
 * @brief Wait for request req to end.
 * @param c the connection that submitted it
 * @param req the request's number from weftd_submit()
 * @param timeout_ms negative: no limit
 * @param res receives how it ended (may be NULL)
 * @retval 0 *res set; -ETIMEDOUT not yet; -EPIPE the connection is lost
 */
int weftd_wait(weftd_client_t *c, uint32_t req, int timeout_ms, weftd_result_t *res);

/** @brief A request that has ended, without waiting. @retval 0 *req and *res set;
 *         -EAGAIN none yet */
int weftd_next(weftd_client_t *c, uint32_t *req, weftd_result_t *res);

/** @brief An fd that polls readable (POLLIN, epoll) when weftd_next() may have a result;
 *         owned by the connection. */
int weftd_fd(const weftd_client_t *c);

/** @brief Submit and wait: the synchronous call. @return as weftd_submit, then 0 with *res
 *         set */
int weftd_run(weftd_client_t *c, unsigned task, const weftd_arg_t *args, unsigned num_args,
              weftd_result_t *res);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_WEFTD_CLIENT_H */

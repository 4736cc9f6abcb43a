/*
 * weftd's server (docs/server.md): the listening socket, the clients, their buffers and
 * their requests, in one epoll loop over the reconfiguration manager. main.c opens the
 * fabric and runs it; tests run it on a thread of their own.
 */
#ifndef WEFT_SERVER_SERVER_H
#define WEFT_SERVER_SERVER_H

#include <stdint.h>

#include "config.h"
#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weftd_server weftd_server_t;

/** Counters since the server opened; live_* are what it holds now. */
typedef struct weftd_server_stats {
    uint64_t accepted;  /**< clients let in */
    uint64_t refused;   /**< connections turned away: access policy, or full */
    uint64_t dropped;   /**< clients dropped for a malformed message */
    uint64_t departed;  /**< clients that hung up (or died) */
    uint64_t requests;  /**< requests accepted */
    uint64_t completed; /**< requests whose DONE was sent */
    uint64_t orphaned;  /**< requests whose client was gone before they ended */
    uint64_t errors;    /**< ERROR answers to well-formed messages (client kept) */
    unsigned live_clients, live_buffers, live_requests;
} weftd_server_stats_t;

/**
 * @brief Listen on cfg's socket_path (Weft's protocol) and, when it is not empty, its
 *        fred_socket_path (FRED's), then open the reconfiguration manager for its
 *        partitions and tasks on w. A stale socket file is replaced; a live server's is not.
 * @retval 0 *out set
 * @retval -EADDRINUSE another server answers there; other -errno (why says)
 */
int weftd_server_open(weft_t *w, const weftd_config_t *cfg, weftd_server_t **out, char *why,
                      size_t why_len);

/** @brief Serve until weftd_server_stop(). @retval 0, or -errno of a failed epoll_wait */
int weftd_server_run(weftd_server_t *s);

/** @brief Make weftd_server_run() return soon; async-signal-safe. */
void weftd_server_stop(weftd_server_t *s);

/** @brief A snapshot of the counters; from any thread. */
void weftd_server_stats(weftd_server_t *s, weftd_server_stats_t *out);

/** @brief Stop every request (aborted), free every buffer, close the manager and the
 *         socket (its file removed). Not while weftd_server_run() runs. */
void weftd_server_close(weftd_server_t *s);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_SERVER_SERVER_H */

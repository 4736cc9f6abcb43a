/*
 * weftd's configuration (docs/server.md, "Configuration"): a JSON file naming the
 * partitions, the hardware tasks clients may request, who may connect and how much each
 * client may hold. Read once at start; everything in it is checked before the server
 * opens the fabric.
 */
#ifndef WEFT_SERVER_CONFIG_H
#define WEFT_SERVER_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "socket_path.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEFTD_MAX_PARTITIONS 16u
#define WEFTD_MAX_ALLOW 32u
/** Buffers a task gets from a FRED client's BIND (FRED allows 8; an accelerator's control
 *  block takes 6 addresses). */
#define WEFTD_FRED_MAX_BUFFERS 6u
/** Tasks one FRED client may have bound. */
#define WEFTD_FRED_MAX_BINDINGS 16u
/** FRED's default socket. */
#define WEFTD_FRED_SOCKET "/tmp/fred_sock"

typedef struct weftd_partition_cfg {
    char name[WEFTD_NAME_BYTES];
    uint64_t slots; /**< bit i: slot i */
} weftd_partition_cfg_t;

typedef struct weftd_task_cfg {
    uint16_t id; /**< what clients name it by (0..65535, unique) */
    char name[WEFTD_NAME_BYTES];
    unsigned partition;       /**< index in partitions[] */
    char bitstream[PATH_MAX]; /**< absolute, or made so against the file's directory */
    uint64_t timeout_us;      /**< the watchdog: 0 none (fabric time on the simulated fabric) */
    int accelerator;          /**< an HLS-style accelerator (docs/hls.md) */
    /** The buffers a FRED client's BIND makes for it, bytes each; their bus addresses are
     *  a request's arguments in this order (a Weft thread: the first is its init data) */
    uint64_t buffer[WEFTD_FRED_MAX_BUFFERS];
    unsigned num_buffers;
    /** Values a FRED client's RUN passes after the buffers' addresses: FRED's tasks have
     *  their sizes built in, Weft's accelerators take them as arguments */
    uint64_t fred_arg[WEFTD_FRED_MAX_BUFFERS];
    unsigned num_fred_args;
} weftd_task_cfg_t;

/** What one client may hold at once. */
typedef struct weftd_limits {
    unsigned clients;      /**< connected at once */
    unsigned buffers;      /**< buffers of one client */
    uint64_t buffer_bytes; /**< bytes of one client's buffers together */
    unsigned requests;     /**< one client's requests not yet DONE */
} weftd_limits_t;

typedef struct weftd_config {
    char socket_path[WEFTD_SOCKET_PATH_BYTES];      /**< "" until weftd_default_socket() */
    char fred_socket_path[WEFTD_SOCKET_PATH_BYTES]; /**< FRED's protocol here; "": off */
    /** Who may connect besides the server's own user: users and groups by id. */
    uid_t allow_uid[WEFTD_MAX_ALLOW];
    unsigned num_allow_uid;
    gid_t allow_gid[WEFTD_MAX_ALLOW];
    unsigned num_allow_gid;
    weftd_limits_t limits;
    weftd_partition_cfg_t partition[WEFTD_MAX_PARTITIONS];
    unsigned num_partitions;
    weftd_task_cfg_t task[WEFTD_MAX_TASKS];
    unsigned num_tasks;
} weftd_config_t;

/**
 * @brief Read and check a configuration file.
 * @retval 0 *out filled (limits not given take their defaults)
 * @retval -EINVAL the file is not what it should be: why names the line or field
 * @retval -errno it could not be read
 */
int weftd_config_load(const char *path, weftd_config_t *out, char *why, size_t why_len);

/**
 * @brief Read FRED's configuration from dir: arch.csv (partitions) and hw_tasks.csv
 *        (tasks, each an accelerator with its buffers), docs/server.md "FRED's clients".
 *        Limits take their defaults; the FRED socket is FRED's default.
 * @retval 0 *out filled; -EINVAL a line is wrong (why names file, line and field);
 *         -errno a file could not be read
 */
int weftd_config_load_fred(const char *dir, weftd_config_t *out, char *why, size_t why_len);

/** @brief Write why (fmt) and return -EINVAL: how the readers refuse a file. */
int weftd_config_refuse(char *why, size_t why_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** @brief Whether s is a name the wire carries: 1 to 31 bytes of [a-z0-9_]. */
bool weftd_name_ok(const char *s);

/** @brief Whether every task's FRED buffers fit one client's limits. @retval 0, or
 *  -EINVAL with why naming the task */
int weftd_config_check_buffers(const weftd_config_t *c, char *why, size_t why_len);

/** @brief Raise the limits so that every task's FRED buffers fit them (FRED's files have
 *  no limits of their own). */
void weftd_config_fit_buffers(weftd_config_t *c);

/** The limits a configuration has when it does not give them. */
extern const weftd_limits_t weftd_default_limits;

#ifdef __cplusplus
}
#endif

#endif /* WEFT_SERVER_CONFIG_H */

/*
 * weftd's configuration (docs/server.md, "Configuration"): a JSON file naming the
 * partitions, the hardware tasks clients may request, who may connect and how much each
 * client may hold. Read once at start; everything in it is checked before the server
 * opens the fabric.
 */
#ifndef WEFT_SERVER_CONFIG_H
#define WEFT_SERVER_CONFIG_H

#include <limits.h>
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

typedef struct weftd_partition_cfg {
    char name[WEFTD_NAME_BYTES];
    uint64_t slots; /**< bit i: slot i */
} weftd_partition_cfg_t;

typedef struct weftd_task_cfg {
    uint16_t id; /**< what clients name it by (1..65535, unique) */
    char name[WEFTD_NAME_BYTES];
    unsigned partition;       /**< index in partitions[] */
    char bitstream[PATH_MAX]; /**< absolute, or made so against the file's directory */
    uint64_t timeout_us;      /**< the watchdog: 0 none (fabric time on the simulated fabric) */
    int accelerator;          /**< an HLS-style accelerator (docs/hls.md) */
} weftd_task_cfg_t;

/** What one client may hold at once. */
typedef struct weftd_limits {
    unsigned clients;      /**< connected at once */
    unsigned buffers;      /**< buffers of one client */
    uint64_t buffer_bytes; /**< bytes of one client's buffers together */
    unsigned requests;     /**< one client's requests not yet DONE */
} weftd_limits_t;

typedef struct weftd_config {
    char socket_path[WEFTD_SOCKET_PATH_BYTES]; /**< "" until weftd_default_socket() */
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

#ifdef __cplusplus
}
#endif

#endif /* WEFT_SERVER_CONFIG_H */

/*
 * Where weftd listens when neither its configuration nor its command line says: shared
 * by the server and the client library.
 */
#ifndef WEFT_SERVER_SOCKET_PATH_H
#define WEFT_SERVER_SOCKET_PATH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A Unix socket path's room (sun_path). */
#define WEFTD_SOCKET_PATH_BYTES 108u

/**
 * @brief The default socket path: $XDG_RUNTIME_DIR/weftd.sock, else
 *        /tmp/weftd-<uid>/weftd.sock (the directory made, or checked to be, the user's own
 *        and writable by nobody else: another user could otherwise stand in for the server).
 * @retval 0 out set; -errno the directory is not safe or could not be made (why says)
 */
int weftd_default_socket(char *out, size_t len, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_SERVER_SOCKET_PATH_H */

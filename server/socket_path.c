/* The default socket path (socket_path.h). */
#define _GNU_SOURCE
#include "socket_path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int weftd_default_socket(char *out, size_t len, char *why, size_t why_len)
{
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (xdg && xdg[0] == '/') {
        int n = snprintf(out, len, "%s/weftd.sock", xdg);
        if (n > 0 && (size_t)n < len)
            return 0;
    }
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/weftd-%u", (unsigned)getuid());
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        int e = errno;
        snprintf(why, why_len, "cannot make %s: %s", dir, strerror(e));
        return -e;
    }
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
        (st.st_mode & 022) != 0) {
        snprintf(why, why_len, "%s is not a directory of this user's that only it can write", dir);
        return -EPERM;
    }
    snprintf(out, len, "%s/weftd.sock", dir);
    return 0;
}

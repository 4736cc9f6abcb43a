/*
 * A client process for weftd's tests (weftd_test.cpp), so that a client can die for
 * real: connect, take a buffer, submit a request that only ends when stopped, say
 * "submitted" on stdout, then wait to be killed.
 *
 * usage: weftd-test-client SOCKET TASK_ID
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "weft/weftd_client.h"

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    weftd_client_t *c;
    char why[256];
    if (weftd_connect(argv[1], &c, why, sizeof why) != 0) {
        fprintf(stderr, "weftd-test-client: %s\n", why);
        return 1;
    }
    weftd_buffer_t b;
    uint32_t req;
    /* The buffer's bus address as a thread's init data: a problem size of hundreds of
     * millions, and the buffer a window of the request, in use until it ends. */
    int rc = weftd_alloc(c, 8192, &b);
    if (rc == 0) {
        memset(b.data, 0x5a, b.size);
        weftd_arg_t a = weftd_buffer_arg(&b, 0);
        rc = weftd_submit(c, (unsigned)atoi(argv[2]), &a, 1, &req);
    }
    if (rc != 0) {
        fprintf(stderr, "weftd-test-client: %s (%s)\n", strerror(-rc), weftd_last_error(c));
        return 1;
    }
    printf("submitted\n");
    fflush(stdout);
    for (;;)
        pause();
}

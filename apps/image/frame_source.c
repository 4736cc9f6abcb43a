#define _GNU_SOURCE /* accept4, SOCK_CLOEXEC */

#include "frame_source.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define ACCEPT_TIMEOUT_MS 20000 /* the sender is a Python process: give it time to start */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned le16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

int frame_source_open(struct frame_source *s, unsigned width, unsigned height,
                      const char *const *argv)
{
    *s = (struct frame_source){
        .listen_fd = -1, .fd = -1, .sender = -1, .width = width, .height = height};
    s->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (s->listen_fd < 0 || bind(s->listen_fd, (struct sockaddr *)&addr, sizeof addr) ||
        listen(s->listen_fd, 1) || getsockname(s->listen_fd, (struct sockaddr *)&addr, &len)) {
        snprintf(s->error, sizeof s->error, "cannot listen on loopback: %s", strerror(errno));
        return -1;
    }
    char port[16];
    snprintf(port, sizeof port, "%u", ntohs(addr.sin_port));
    const char *args[34];
    unsigned n = 0;
    while (argv[n] && n < 30) {
        args[n] = argv[n];
        n++;
    }
    args[n++] = "--port";
    args[n++] = port;
    args[n] = NULL;
    s->sender = fork();
    if (s->sender < 0) {
        snprintf(s->error, sizeof s->error, "cannot start the sender: %s", strerror(errno));
        return -1;
    }
    if (s->sender == 0) {
        execv(args[0], (char *const *)args);
        fprintf(stderr, "weft-image: cannot run %s: %s\n", args[0], strerror(errno));
        _exit(127);
    }
    struct pollfd p = {.fd = s->listen_fd, .events = POLLIN};
    int rc = poll(&p, 1, ACCEPT_TIMEOUT_MS);
    if (rc <= 0) {
        snprintf(s->error, sizeof s->error, "the sender did not connect within %d s",
                 ACCEPT_TIMEOUT_MS / 1000);
        return -1;
    }
    s->fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (s->fd < 0) {
        snprintf(s->error, sizeof s->error, "accept: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Returns bytes read (< len only at end of stream) or -1. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t k = read(fd, (char *)buf + got, len - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (ssize_t)got;
}

int frame_source_next(struct frame_source *s)
{
    uint8_t h[FRAME_HEADER_BYTES];
    ssize_t k = read_full(s->fd, h, sizeof h);
    if (k == 0)
        return 1;
    if (k < 0 || (size_t)k < sizeof h) {
        snprintf(s->error, sizeof s->error, "frame %u: header cut short (%zd of %u bytes)",
                 s->next_seq, k, FRAME_HEADER_BYTES);
        return -1;
    }
    const uint32_t magic = le32(h), seq = le32(h + 8), bytes = le32(h + 12);
    const unsigned width = le16(h + 4), height = le16(h + 6);
    if (magic != FRAME_MAGIC)
        snprintf(s->error, sizeof s->error, "frame %u: bad magic 0x%08x (want \"WFRM\")",
                 s->next_seq, magic);
    else if (width != s->width || height != s->height)
        snprintf(s->error, sizeof s->error, "frame %u: %ux%u pixels, the pipeline takes %ux%u",
                 s->next_seq, width, height, s->width, s->height);
    else if (bytes != (uint32_t)width * height)
        snprintf(s->error, sizeof s->error, "frame %u: payload of %u bytes, want %u", s->next_seq,
                 bytes, width * height);
    else if (seq != s->next_seq)
        snprintf(s->error, sizeof s->error, "frame %u: sequence number %u out of order",
                 s->next_seq, seq);
    else {
        s->next_seq++;
        return 0;
    }
    return -1;
}

int frame_source_read(struct frame_source *s, void *buf, size_t len)
{
    ssize_t k = read_full(s->fd, buf, len);
    if (k == (ssize_t)len)
        return 0;
    snprintf(s->error, sizeof s->error, "frame %u: payload cut short", s->next_seq - 1);
    return -1;
}

int frame_source_close(struct frame_source *s)
{
    if (s->fd >= 0)
        close(s->fd);
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    s->fd = s->listen_fd = -1;
    if (s->sender <= 0)
        return -1;
    int status = 0;
    /* A sender still writing gets EPIPE now that the connection is closed. */
    while (waitpid(s->sender, &status, 0) < 0 && errno == EINTR)
        ;
    s->sender = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

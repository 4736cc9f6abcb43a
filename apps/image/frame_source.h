/*
 * Where the image case study's frames come from: a sender process that streams them over
 * a TCP connection on loopback, as the ReconOS case study streamed a web cam over
 * Ethernet. The capture thread reads one frame header, then the frame's lines block by
 * block straight into shared memory.
 *
 * Wire format, little-endian, per frame: magic "WFRM", u16 width, u16 height, u32
 * sequence number (0, 1, 2, ...), u32 payload bytes (width * height), then the payload:
 * width x height grey bytes, line by line. The connection closes after the last frame.
 */
#ifndef WEFT_IMAGE_FRAME_SOURCE_H
#define WEFT_IMAGE_FRAME_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FRAME_MAGIC 0x4D524657u /* "WFRM" */
#define FRAME_HEADER_BYTES 16u

struct frame_source {
    int listen_fd, fd;
    pid_t sender;
    unsigned width, height;
    uint32_t next_seq;
    char error[160]; /* what went wrong, for the user */
};

/* Listen on 127.0.0.1 (an ephemeral port), start `argv` with "--port <port>" appended,
 * and accept its connection. argv[0] is the program, NULL-terminated, at most 30 entries.
 * Returns 0, or -1 with s->error set. */
int frame_source_open(struct frame_source *s, unsigned width, unsigned height,
                      const char *const *argv);

/* Read and check the next frame's header. Returns 0, 1 at a clean end of the stream, or
 * -1 with s->error naming the bad field. */
int frame_source_next(struct frame_source *s);

/* Read exactly `len` bytes of the current frame. Returns 0 or -1 with s->error set. */
int frame_source_read(struct frame_source *s, void *buf, size_t len);

/* Close the connection and reap the sender. Returns the sender's exit status (0 when it
 * succeeded), or -1 if it did not exit normally. */
int frame_source_close(struct frame_source *s);

#endif /* WEFT_IMAGE_FRAME_SOURCE_H */

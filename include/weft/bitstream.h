/**
 * @file bitstream.h
 * @brief Weft's partial bitstream files: what a slot is reconfigured from
 *        (docs/reconfiguration.md).
 *
 * A file is a header of WEFT_BITSTREAM_HEADER_BYTES and a payload. The header names the
 * partition the file is for, the slots of that partition it may program, the thread image
 * it configures and that image's SHA-256, the payload's size and CRC-32, and ends with the
 * CRC-32 of the header itself. All integers are little-endian.
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 8 | magic "WEFTPBS" and a 0 byte |
 * | 8 | 2 | format version (WEFT_BITSTREAM_VERSION) |
 * | 10 | 2 | header size (WEFT_BITSTREAM_HEADER_BYTES) |
 * | 12 | 4 | payload size in bytes (1 .. WEFT_BITSTREAM_MAX_PAYLOAD) |
 * | 16 | 4 | CRC-32 of the payload (zlib's, as in PNG and gzip) |
 * | 20 | 4 | slot mask: bit i set when the file may program slot i (of the platform) |
 * | 24 | 24 | partition name, 0-padded |
 * | 48 | 48 | image name, 0-padded: the thread image's file name in the image directory |
 * | 96 | 32 | SHA-256 of that image file |
 * | 128 | 4 | CRC-32 of bytes 0 .. 127 |
 * | 132 | 28 | reserved, 0 |
 *
 * A name is 1 or more characters of [A-Za-z0-9_.-], not starting with '.', with at least
 * one 0 byte after it in its field and only 0 bytes after that. The payload models the
 * configuration data a real partial bitstream carries (its size is what the
 * reconfiguration port reads); on a board it is the vendor bitstream itself.
 */
#ifndef WEFT_BITSTREAM_H
#define WEFT_BITSTREAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A file's first 8 bytes: these 7 characters and their terminating 0 byte. */
#define WEFT_BITSTREAM_MAGIC "WEFTPBS"
/** The format version this runtime writes and the only one it reads. */
#define WEFT_BITSTREAM_VERSION 1u
/** Bytes of a header: the payload starts at this offset of a file. */
#define WEFT_BITSTREAM_HEADER_BYTES 160u
/** Largest payload: 64 MiB, more than any device's full configuration. */
#define WEFT_BITSTREAM_MAX_PAYLOAD (64u << 20)
/** The partition name field's size; a partition name has at most one byte less. */
#define WEFT_BITSTREAM_PARTITION_FIELD 24u
/** The image name field's size; an image name has at most one byte less. */
#define WEFT_BITSTREAM_IMAGE_FIELD 48u
/** Bytes of a SHA-256 digest, as the header holds the image's. */
#define WEFT_BITSTREAM_DIGEST_BYTES 32u
/** A payload the size FRED measured its partial bitstreams at (338 KB a slot). */
#define WEFT_BITSTREAM_FRED_PAYLOAD (338u * 1024u)

/** A header, checked and decoded. */
typedef struct weft_bitstream_info {
    /** Format version (WEFT_BITSTREAM_VERSION); ignored when a header is written. */
    unsigned version;
    /** Bytes of payload after the header (1 .. WEFT_BITSTREAM_MAX_PAYLOAD). */
    uint32_t payload_size;
    /** CRC-32 of the payload (weft_bitstream_crc32() from 0). */
    uint32_t payload_crc;
    /** Bit i set: the file may program slot i of the platform (not 0). */
    uint32_t slot_mask;
    /** Name of the partition the file is for, 0-terminated; a reconfiguration manager
     *  refuses a task whose file names another partition than the task's. */
    char partition[WEFT_BITSTREAM_PARTITION_FIELD];
    /** File name, in the image directory, of the thread image the file configures;
     *  0-terminated. */
    char image[WEFT_BITSTREAM_IMAGE_FIELD];
    /** SHA-256 of that image file: the simulated fabric loads the image only when the
     *  file it finds has this digest. */
    uint8_t image_sha256[WEFT_BITSTREAM_DIGEST_BYTES];
} weft_bitstream_info_t;

/**
 * @brief Check and decode a header (the first WEFT_BITSTREAM_HEADER_BYTES of a file).
 * @param buf the header's first byte
 * @param len bytes readable at buf: at least WEFT_BITSTREAM_HEADER_BYTES (more are not
 *        looked at)
 * @param out receives the decoded header (required)
 * @param why  receives, on failure, a line naming the field that is wrong (may be NULL)
 * @param why_len bytes of room at why (the line is cut to fit)
 * @retval 0 the header is well formed (the payload is not looked at)
 * @retval -EINVAL it is not; why says what was wrong
 */
int weft_bitstream_parse_header(const void *buf, size_t len, weft_bitstream_info_t *out, char *why,
                                size_t why_len);

/**
 * @brief Check a whole file in memory: the header, then that exactly payload_size bytes
 *        follow it and that their CRC-32 is the header's.
 * @retval 0 the file is whole and intact
 * @retval -EINVAL it is not (a bad header, a truncated or longer file, a CRC mismatch)
 */
int weft_bitstream_check(const void *buf, size_t len, weft_bitstream_info_t *out, char *why,
                         size_t why_len);

/**
 * @brief weft_bitstream_check, answering with the reconfiguration interface's error code
 *        for what is wrong (WEFT_FRI_ERR_*, weft_bitstream_fri_error), so that a platform
 *        that checks a file in software reports what the port would; a bad name is
 *        WEFT_FRI_ERR_LOAD (the port leaves names to the loader).
 * @retval 0 the file is whole and intact
 */
unsigned weft_bitstream_verify(const void *buf, size_t len, weft_bitstream_info_t *out, char *why,
                               size_t why_len);

/**
 * @brief Write a header for info into out (WEFT_BITSTREAM_HEADER_BYTES bytes). The
 *        version is WEFT_BITSTREAM_VERSION whatever info says; payload_crc must be the
 *        CRC-32 of the payload that will follow (weft_bitstream_crc32).
 * @retval 0 written
 * @retval -EINVAL a name is not a valid name, or a size or the mask out of range
 */
int weft_bitstream_write_header(const weft_bitstream_info_t *info, void *out);

/**
 * @brief Finish a file whose payload (info->payload_size bytes) is already in place after
 *        the header's room: the header for info with that payload's CRC-32.
 * @retval 0 written
 * @retval -EINVAL as weft_bitstream_write_header
 */
int weft_bitstream_seal(const weft_bitstream_info_t *info, void *file);

/**
 * @brief Make a whole file in out (WEFT_BITSTREAM_HEADER_BYTES + info->payload_size
 *        bytes): a payload that models configuration data, generated from the image's
 *        digest (two builds of one image give the same file, and not all bytes alike, so
 *        its CRC means something), and the header for info with that payload's CRC.
 * @retval 0 written
 * @retval -EINVAL as weft_bitstream_write_header
 */
int weft_bitstream_build(const weft_bitstream_info_t *info, void *out);

/** @brief zlib's CRC-32 of len bytes, continuing from crc (start with 0). */
uint32_t weft_bitstream_crc32(uint32_t crc, const void *buf, size_t len);

/**
 * @brief SHA-256 of a whole file.
 * @retval 0 digest written
 * @retval -errno the file could not be read
 */
int weft_bitstream_file_sha256(const char *path, uint8_t digest[WEFT_BITSTREAM_DIGEST_BYTES]);

/**
 * @brief SHA-256 of everything readable from fd, written meanwhile to copy_fd unless it is
 *        negative: a loader hashes an image into a private copy and loads the copy, so
 *        the code it runs is the code whose digest it checked.
 * @retval 0 digest written
 * @retval -errno a read or write failed
 */
int weft_bitstream_fd_sha256(int fd, int copy_fd, uint8_t digest[WEFT_BITSTREAM_DIGEST_BYTES]);

/**
 * @brief What an error code of the reconfiguration interface (WEFT_FRI_ERR_*,
 *        FRI_STATUS) means, as a phrase ("payload CRC-32 mismatch"); "unknown error" for
 *        a code it does not know.
 */
const char *weft_bitstream_fri_error(unsigned code);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_BITSTREAM_H */

/*
 * libFuzzer target: the softcore program loader (runtime/softcore_image.c) on whole ELF files.
 *
 * Input: a file's bytes, which go to the loader in an exactly sized heap block (ASan
 * reports any read past them), for the slot softcore's 65536-byte RAM. Checked: a refusal
 * is one of the documented codes, with a phrase, and leaves the image empty; an accepted
 * image is a non-zero multiple of 4 bytes within the RAM. An accepted file is also read
 * again for a RAM exactly the image's size, which must give the same bytes (the image is
 * all the RAM the program needs), and for a word less, which must be refused as too big
 * (the image is no larger than its segments need).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/softcore.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_softcore_image: %s:%d: check failed: %s\n", __FILE__, __LINE__,  \
                    #cond);                                                                        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

enum { RAM_BYTES = 65536 };

/* A refusal: a documented code, a phrase that says why, and nothing left to free. */
static void check_refusal(int rc, const weft_softcore_image_t *img, const char *why)
{
    CHECK(rc == -ENOEXEC || rc == -EFBIG || rc == -ENOMEM);
    CHECK(why[0] != '\0');
    CHECK(img->bytes == NULL && img->size == 0);
}

/* The same file for a RAM of ram bytes gives img again, or is refused as too big. */
static void check_again(const uint8_t *file, size_t size, uint32_t ram,
                        const weft_softcore_image_t *img)
{
    weft_softcore_image_t again;
    char why[256];
    int rc = weft_softcore_image_from_elf(file, size, ram, &again, why, sizeof why);
    if (ram >= img->size) {
        CHECK(rc == 0);
        CHECK(again.size == img->size && memcmp(again.bytes, img->bytes, img->size) == 0);
        weft_softcore_image_free(&again);
    } else {
        CHECK(rc == -EFBIG);
        check_refusal(rc, &again, why);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *file = malloc(size ? size : 1);
    if (!file)
        return 0;
    if (size)
        memcpy(file, data, size);

    weft_softcore_image_t img;
    char why[256];
    int rc = weft_softcore_image_from_elf(file, size, RAM_BYTES, &img, why, sizeof why);
    CHECK(memchr(why, 0, sizeof why) != NULL);
    if (rc != 0) {
        check_refusal(rc, &img, why);
    } else {
        CHECK(why[0] == '\0');
        CHECK(img.bytes != NULL);
        CHECK(img.size != 0 && img.size % 4 == 0 && img.size <= RAM_BYTES);
        check_again(file, size, img.size, &img);
        if (img.size > 4)
            check_again(file, size, img.size - 4, &img);
        weft_softcore_image_free(&img);
        CHECK(img.bytes == NULL && img.size == 0);
    }
    free(file);
    return 0;
}

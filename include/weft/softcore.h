/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0 */
/**
 * @file softcore.h
 * @brief The softcore's programs, and softcore threads: the softcore in a slot running
 *        one (docs/softcore.md).
 *
 * A softcore program is an ELF file built by weft_rv_program() (cmake/WeftRvProgram.cmake):
 * RV32IM with Zicsr, the soft-float ABI ilp32, linked at address 0. The core's RAM starts
 * at address 0 and every hardware context starts there, so what the core needs is the
 * RAM's first bytes: the program's RAM image. The runtime makes that image from the ELF
 * file and checks the file as hostile input: a file that is not a program for this core,
 * or that does not fit its RAM, is refused with a phrase that names what is wrong.
 *
 * Segments are numbered as `readelf -l` numbers them: by their program header's index.
 */
#ifndef WEFT_SOFTCORE_H
#define WEFT_SOFTCORE_H

#include <stddef.h>
#include <stdint.h>

#include "weft/osif_protocol.h"
#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A softcore program's RAM image: the bytes its RAM holds from address 0 when it starts. */
typedef struct weft_softcore_image {
    /** The image, `size` bytes from malloc (weft_softcore_image_free() frees them). */
    uint8_t *bytes;
    /** Bytes of the image: a non-zero multiple of 4, at most the ram_bytes it was read
     *  for. It is where the highest loadable segment ends in memory (p_vaddr + p_memsz,
     *  zero-filled bytes included), rounded up to 4; the RAM past it is not part of it. */
    uint32_t size;
} weft_softcore_image_t;

/**
 * @brief The RAM image of a softcore program from its ELF file in memory.
 *
 * The file must be a 32-bit little-endian RISC-V executable (ELFCLASS32, ELFDATA2LSB,
 * EM_RISCV, ET_EXEC) without compressed instructions (EF_RISCV_RVC) or the RV32E ABI
 * (EF_RISCV_RVE), with the soft-float ABI and entry point 0. Every PT_LOAD segment with
 * bytes in memory must have its file bytes inside the file, no more of them than its
 * memory size, and its memory inside [0, ram_bytes); no two may overlap, and there must be
 * at least one. Other segment types are ignored. Memory that no file byte covers (.bss,
 * gaps between segments) is 0 in the image.
 *
 * @param elf the file's first byte (not modified; libelf reads a private copy)
 * @param len bytes of the file at elf
 * @param ram_bytes bytes of the core's RAM (WEFT_RV_RAM_BYTES for the slot's softcore): a
 *        non-zero multiple of 4
 * @param out receives the image, to be freed with weft_softcore_image_free(); zeroed on
 *        failure
 * @param why receives, on failure, a phrase naming what is wrong (may be NULL); always
 *        0-terminated when why_len is not 0, empty on success
 * @param why_len bytes of room at why (the phrase is cut to fit)
 * @retval 0 out holds the image
 * @retval -EINVAL elf or out is NULL, or ram_bytes is 0 or not a multiple of 4
 * @retval -ENOEXEC the file is not a program for the softcore (why says how)
 * @retval -EFBIG a loadable segment runs past the RAM
 * @retval -ENOMEM no memory for the copy or the image
 */
int weft_softcore_image_from_elf(const void *elf, size_t len, uint32_t ram_bytes,
                                 weft_softcore_image_t *out, char *why, size_t why_len);

/**
 * @brief weft_softcore_image_from_elf() on a whole file, which is read first; why begins
 *        with the path ("build/x.elf: not an ELF file").
 * @param path the ELF file
 * @param ram_bytes as weft_softcore_image_from_elf()
 * @param out as weft_softcore_image_from_elf()
 * @param why as weft_softcore_image_from_elf(), prefixed with the path
 * @param why_len bytes of room at why
 * @retval 0 out holds the image
 * @retval -EINVAL path or out is NULL, or ram_bytes is bad
 * @retval -EFBIG the file is larger than 64 MiB (far more than any program for the core),
 *         or a segment runs past the RAM
 * @retval -ENOEXEC the file is not a program for the softcore
 * @retval -ENOMEM no memory for the file or the image
 * @retval -errno the file could not be opened or read (-ENOENT, -EACCES, -EISDIR, ...)
 */
int weft_softcore_image_load(const char *path, uint32_t ram_bytes, weft_softcore_image_t *out,
                             char *why, size_t why_len);

/**
 * @brief Free an image's bytes and zero it, so that freeing it again does nothing.
 * @param img the image (NULL is ignored)
 */
void weft_softcore_image_free(weft_softcore_image_t *img);

/* ---- softcore threads (runtime/softcore.c) ---- */

/** Where a softcore thread's console output goes: n bytes, not 0-terminated, in order. */
typedef void (*weft_softcore_console_fn)(void *arg, const char *bytes, size_t n);

/** How a softcore thread is created. */
typedef struct weft_softcore_attr {
    /** The hardware thread: its image must be the softcore's (hwt_softcore); name, slot,
     *  resources (the program's handles, weft/rtk_osif.h), windows (at most
     *  WEFT_MAX_WINDOWS - 1: the program image takes one) and sync_priority as for any
     *  hardware thread. init_data, resume and accelerator must be 0: init_data is set to
     *  the program image's bus address. */
    weft_hwthread_attr_t thread;
    /** The program (weft_softcore_image_load()); copied, so it may be freed after. */
    const weft_softcore_image_t *program;
    /** The argument words the program reads (rtk_osif_arg()). */
    uint32_t args[WEFT_RV_BOOT_ARGS];
    /** Called by the thread's delegate with the program's console output (stdout and
     *  stderr); NULL: the output is kept in the softcore until its buffer is full
     *  (WEFT_RV_CONSOLE_BYTES), and no more of it reaches the host. */
    weft_softcore_console_fn console;
    /** console's first argument. */
    void *console_arg;
} weft_softcore_attr_t;

/**
 * @brief Start a program on the softcore in a slot: its image and header go to shared
 *        memory (one read-only window of the thread's), and the softcore loads it from
 *        there and runs it. It is a hardware thread like any other: join it, signal it,
 *        destroy it with the weft_hwthread_* calls. It ends NORMAL with the program's exit
 *        code (main's return value, exit()), with 128 + mcause after a trap nothing
 *        handles (the console says where), or with WEFT_RV_EXIT_BOOT | WEFT_RV_BOOT_ERR_*
 *        when the softcore refused the image.
 * @retval 0 success, *out set
 * @retval -EINVAL a NULL argument, a program larger than WEFT_RV_RAM_BYTES or empty,
 *         init_data, resume or accelerator set, too many windows, or what
 *         weft_hwthread_create() refuses
 * @retval -ENOMEM no shared memory for the image
 * @retval other errors of weft_hwthread_create()
 */
int weft_softcore_create(weft_t *w, weft_hwthread_t **out, const weft_softcore_attr_t *attr);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_SOFTCORE_H */

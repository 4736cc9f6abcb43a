/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softcore.c: softcore threads (weft/softcore.h, docs/softcore.md "In a slot"). A
 * softcore thread is a hardware thread whose image is the softcore (hwt_softcore); what
 * it runs is a program image in shared memory, a header the softcore checks and the
 * RAM's first bytes, whose bus address is the thread's init data. The thread owns that
 * memory, reads it through one window of its own, and gives it back when destroyed. */
#include <errno.h>
#include <string.h>

#include "weft/softcore.h"
#include "weft_internal.h"

/* The header the softcore's DMA checks (protocol/osif.yaml, RV_BOOT_*). */
static void write_header(uint32_t *h, uint32_t bytes, const uint32_t *args)
{
    h[0] = WEFT_RV_BOOT_MAGIC;
    h[1] = WEFT_RV_BOOT_VERSION;
    h[2] = bytes;
    h[3] = 0;
    memcpy(&h[4], args, WEFT_RV_BOOT_ARGS * sizeof(*args));
}

static bool attr_ok(const weft_softcore_attr_t *a)
{
    const weft_softcore_image_t *p = a->program;
    const weft_hwthread_attr_t *t = &a->thread;
    return p && p->bytes && p->size > 0 && p->size % 4 == 0 && p->size <= WEFT_RV_RAM_BYTES &&
           t->image && t->init_data == 0 && !t->resume && !t->accelerator &&
           t->num_windows < WEFT_MAX_WINDOWS && (t->num_windows == 0 || t->windows);
}

int weft_softcore_create(weft_t *w, weft_hwthread_t **out, const weft_softcore_attr_t *attr)
{
    if (!w || !out || !attr || !attr_ok(attr))
        return -EINVAL;
    const weft_softcore_image_t *prog = attr->program;
    size_t bytes = WEFT_RV_BOOT_HEADER_BYTES + prog->size;
    void *cpu = NULL;
    uint64_t bus = 0;
    int rc = weft_mem_alloc(w, bytes, &cpu, &bus);
    if (rc != 0)
        return rc;
    if (bus > UINT32_MAX - bytes) { /* the init data is 32 bits */
        weft_mem_free(w, cpu);
        return -EINVAL;
    }
    write_header(cpu, prog->size, attr->args);
    memcpy((uint8_t *)cpu + WEFT_RV_BOOT_HEADER_BYTES, prog->bytes, prog->size);

    /* The image's window first, read only; then the program's own. */
    weft_mem_window_t windows[WEFT_MAX_WINDOWS];
    windows[0] = (weft_mem_window_t){.bus = bus, .size = bytes, .perm = WEFT_MEM_READ};
    if (attr->thread.num_windows)
        memcpy(&windows[1], attr->thread.windows,
               attr->thread.num_windows * sizeof(*attr->thread.windows));
    weft_hwthread_attr_t t = attr->thread;
    t.init_data = (uint32_t)bus;
    t.windows = windows;
    t.num_windows = attr->thread.num_windows + 1;
    weft_hwthread_extras_t x = {
        .owned_mem = cpu, .console = attr->console, .console_arg = attr->console_arg};
    return weft_hwthread_create_with(w, out, &t, &x);
}

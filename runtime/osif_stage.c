/*
 * A hardware thread's staging buffers (osif_stage.h, docs/osif.md "Staging").
 *
 * One DMA block per thread: the request buffer, padded to the allocator's granule, then
 * the response buffer. Only the static region writes the request buffer, and only while
 * no request is pending, so what the delegate reads between the sequence number and its
 * release of the request stays put; it is still copied once, header first, so that the
 * words served are exactly the words checked.
 */
#define _POSIX_C_SOURCE 200809L
#include "osif_stage.h"

#include <errno.h>
#include <string.h>

#include "osif_decode.h"
#include "weft/platform.h"

/* Bytes of the request buffer in the block: whole allocator granules, so the response
 * buffer starts aligned. */
#define REQ_BYTES                                                                                  \
    ((WEFT_STAGE_REQ_WORDS * 4u + WEFT_DMA_ALIGN - 1u) / WEFT_DMA_ALIGN * WEFT_DMA_ALIGN)
#define BLOCK_BYTES (REQ_BYTES + WEFT_STAGE_RSP_WORDS * 4u)

int weft_stage_alloc(weft_hwthread_t *t)
{
    void *cpu = NULL;
    uint64_t bus = 0;
    int rc = weft_dma_alloc(&t->w->dma, BLOCK_BYTES, &cpu, &bus);
    if (rc != 0)
        return rc;
    memset(cpu, 0, BLOCK_BYTES); /* sequence number 0: nothing staged yet */
    t->stage.req = cpu;
    t->stage.rsp = (uint32_t *)((uint8_t *)cpu + REQ_BYTES);
    t->stage.req_bus = bus;
    t->stage.rsp_bus = bus + REQ_BYTES;
    t->stage.seq = 0;
    return 0;
}

void weft_stage_free(weft_hwthread_t *t)
{
    if (t->stage.req && t->w)
        weft_dma_free(&t->w->dma, t->stage.req);
    t->stage.req = NULL;
    t->stage.rsp = NULL;
}

int weft_stage_program(weft_hwthread_t *t)
{
    weft_platform_t *p = t->platform;
    int rc = p->ops->mmio_write(p, WEFT_SLOT_REG(t->slot, WEFT_SLOT_REG_OSIF_RSP_BUF),
                                (uint32_t)t->stage.rsp_bus);
    if (rc == 0)
        rc = p->ops->mmio_write(p, WEFT_SLOT_REG(t->slot, WEFT_SLOT_REG_OSIF_REQ_BUF),
                                (uint32_t)t->stage.req_bus);
    return rc;
}

int weft_stage_take(weft_hwthread_t *t, uint32_t *req)
{
    const uint32_t *buf = t->stage.req;
    /* Acquire: the request's words were in memory before the sequence number. */
    uint32_t seq = __atomic_load_n(&buf[WEFT_STAGE_SEQ_WORD], __ATOMIC_ACQUIRE);
    if (seq == t->stage.seq)
        return 0;
    if (seq != t->stage.seq + 1u)
        return -EPROTO;
    t->stage.seq = seq;
    req[0] = buf[WEFT_STAGE_REQ_WORD];
    unsigned nargs = weft_osif_header_split(req[0]).nargs;
    memcpy(req + 1, buf + WEFT_STAGE_REQ_WORD + 1, nargs * sizeof *req);
    return (int)(1u + nargs);
}

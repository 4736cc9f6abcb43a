/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rtk_osif.c: softcore threads' OS calls on the host's objects and their shared memory
 * (weft/rtk_osif.h, docs/softcore.md "In a slot"), over the slot's OSIF bridge and DMA
 * (hw/softcore/weft_rv_bridge.sv, weft_rv_dma.sv). The same on both kernel ports: a
 * kernel mutex takes turns at the one OSIF, and the caller waits for its answer on a
 * kernel semaphore that the bridge's interrupt posts, so the core runs other threads
 * meanwhile. */
#include <string.h>

#include "weft/rtk.h"
#include "weft/rtk_osif.h"
#include "weft_rv.h"

static rtk_mutex_t turn;   /* one call at a time on the OSIF */
static rtk_sem_t answered; /* posted by the bridge's interrupt */
static int ready;

/* The bridge's DONE: mask the line (it stays high until the caller ACKs) and wake the
 * caller. */
static void on_answer(void *arg)
{
    (void)arg;
    mmio_write(WEFT_RV_MMIO_OSIF_IRQ, 0);
    rtk_sem_put(&answered);
}

int rtk_osif_init(void)
{
    if (ready)
        return RTK_OK;
    if (rtk_running()) /* the interrupt is attached before the kernel runs */
        return RTK_STATE;
    int r = rtk_mutex_create(&turn);
    if (r == RTK_OK)
        r = rtk_sem_create(&answered, 0, 1);
    if (r != RTK_OK)
        return r;
    if ((r = rtk_ext_attach(on_answer, NULL)) != RTK_OK)
        return r;
    ready = 1;
    return RTK_OK;
}

/* A thread's turn at the OSIF; how many wait for one sets the slices below. */
static volatile unsigned wanting; /* threads waiting for the turn */

static int take_turn(void)
{
    uint32_t c = rtk_crit_enter();
    wanting++;
    rtk_crit_exit(c);
    int r = rtk_mutex_lock(&turn, RTK_WAIT_FOREVER);
    c = rtk_crit_enter();
    wanting--;
    rtk_crit_exit(c);
    return r;
}

/* Sends the request the buffer holds and waits for DONE: on the kernel's semaphore in a
 * thread, on the spot before the kernel runs. */
static uint32_t exchange(int wait_in_kernel)
{
    if (wait_in_kernel) {
        mmio_write(WEFT_RV_MMIO_OSIF_IRQ, 1);
        mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_START);
        rtk_sem_get(&answered, RTK_WAIT_FOREVER);
    } else {
        mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_START);
    }
    uint32_t st;
    while (!((st = mmio_read(WEFT_RV_MMIO_OSIF_CTRL)) & WEFT_RV_OSIF_DONE))
        __asm__ volatile("wfi"); /* the slot may stop its clock until the answer */
    return st;
}

int rtk_osif_call(const uint32_t *req, uint32_t *rsp, unsigned rsp_words)
{
    if (!req || (rsp_words && !rsp))
        return RTK_ARG;
    uint32_t cmd = req[0] >> WEFT_OSIF_REQ_CMD_SHIFT & WEFT_OSIF_REQ_CMD_MASK;
    uint32_t words = 1 + (req[0] >> WEFT_OSIF_REQ_NARGS_SHIFT & WEFT_OSIF_REQ_NARGS_MASK);
    if (words > WEFT_RV_OSIF_WORDS || cmd == WEFT_OSIF_CMD_THREAD_EXIT ||
        cmd == WEFT_OSIF_CMD_THREAD_YIELD)
        return RTK_ARG;
    int threads = rtk_may_block();
    if (!ready)
        return RTK_STATE;
    if (!threads && rtk_running()) /* an interrupt handler: it must not wait */
        return RTK_CONTEXT;
    if (threads && take_turn() != RTK_OK)
        return RTK_STATE;
    for (uint32_t i = 0; i < words; i++)
        mmio_write(WEFT_RV_MMIO_OSIF_REQ + 4 * i, req[i]);
    uint32_t st = exchange(threads);
    int r = RTK_STATE;
    if (!(st & WEFT_RV_OSIF_REFUSED)) {
        uint32_t kept = st >> WEFT_RV_OSIF_RSP_WORDS_SHIFT;
        uint32_t hdr = mmio_read(WEFT_RV_MMIO_OSIF_RSP);
        for (uint32_t i = 0; i < kept && i < rsp_words; i++)
            rsp[i] = i ? mmio_read(WEFT_RV_MMIO_OSIF_RSP + 4 * i) : hdr;
        r = (int)(hdr >> WEFT_OSIF_RESP_STATUS_SHIFT & WEFT_OSIF_RESP_STATUS_MASK);
        if (r == WEFT_OSIF_OK && (st & WEFT_RV_OSIF_OVERFLOW))
            r = WEFT_OSIF_OVERFLOW; /* results past the bridge's buffer were dropped */
    }
    mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_ACK);
    if (threads)
        rtk_mutex_unlock(&turn);
    return r;
}

/* ---- calls that wait ----
 * The slot has one OSIF: a call that waits there for the host's object would keep every
 * other thread's call out, and a thread that must post what it waits for would never
 * get to (a deadlock). So a call that may wait is made as its timed variant, a slice at
 * a time, and gives the turn up between slices: the slice is RTK_OSIF_SLICE_US while
 * another thread waits for the turn, and doubles up to RTK_OSIF_SLICE_MAX_US while none
 * does, so a long wait costs the host few wake-ups. */
/* A call of `words` request words whose word `tmo` is its timeout, waiting at most
 * timeout_us in all (RTK_OSIF_FOREVER: as long as it takes). */
static int sliced(uint32_t *req, uint32_t tmo, uint32_t *rsp, unsigned rsp_words,
                  uint32_t timeout_us)
{
    /* Before the kernel runs there is one thread, and no one to let in. */
    uint32_t slice = rtk_may_block() ? RTK_OSIF_SLICE_US : RTK_OSIF_FOREVER - 1, waited = 0;
    for (;;) {
        uint32_t s = slice;
        if (timeout_us != RTK_OSIF_FOREVER && timeout_us - waited < s)
            s = timeout_us - waited;
        req[tmo] = s;
        int r = rtk_osif_call(req, rsp, rsp_words);
        if (r != WEFT_OSIF_TIMEDOUT)
            return r;
        waited += s;
        if (timeout_us != RTK_OSIF_FOREVER && waited >= timeout_us)
            return r;
        if (rtk_may_block())
            slice = wanting                             ? RTK_OSIF_SLICE_US
                    : slice * 2 < RTK_OSIF_SLICE_MAX_US ? slice * 2
                                                        : RTK_OSIF_SLICE_MAX_US;
    }
}

/* A call's result word into *result (if wanted): an OK answer without one is the
 * host's fault, not the call's success. */
static int one_result(int r, const uint32_t *rsp, uint32_t *result)
{
    if (r != WEFT_OSIF_OK || !result)
        return r;
    if ((rsp[0] & WEFT_OSIF_RESP_NWORDS_MASK) < 1)
        return WEFT_OSIF_INTERNAL;
    *result = rsp[1];
    return r;
}

/* A call with up to two argument words and up to one result word. */
static int simple(uint32_t cmd, unsigned h, unsigned nargs, uint32_t a0, uint32_t a1,
                  uint32_t *result)
{
    if (h > WEFT_OSIF_REQ_HANDLE_MASK)
        return RTK_ARG;
    uint32_t req[3] = {weft_osif_req_header(cmd, h, nargs), a0, a1};
    uint32_t rsp[2] = {0, 0};
    return one_result(rtk_osif_call(req, rsp, 2), rsp, result);
}

/* A call that may wait: its timed variant cmd, its fixed arguments (at most one) and
 * then the timeout, in slices. */
static int waits(uint32_t cmd, unsigned h, unsigned nfixed, uint32_t a0, uint32_t *result,
                 uint32_t timeout_us)
{
    if (h > WEFT_OSIF_REQ_HANDLE_MASK)
        return RTK_ARG;
    uint32_t req[3] = {weft_osif_req_header(cmd, h, nfixed + 1), a0, 0};
    uint32_t rsp[2] = {0, 0};
    return one_result(sliced(req, 1 + nfixed, rsp, 2, timeout_us), rsp, result);
}

int rtk_osif_sem_post(unsigned h)
{
    return simple(WEFT_OSIF_CMD_SEM_POST, h, 0, 0, 0, NULL);
}

int rtk_osif_sem_wait(unsigned h)
{
    return waits(WEFT_OSIF_CMD_SEM_TIMEDWAIT, h, 0, 0, NULL, RTK_OSIF_FOREVER);
}

int rtk_osif_sem_timedwait(unsigned h, uint32_t timeout_us)
{
    return waits(WEFT_OSIF_CMD_SEM_TIMEDWAIT, h, 0, 0, NULL, timeout_us);
}

int rtk_osif_mutex_lock(unsigned h)
{
    return waits(WEFT_OSIF_CMD_MUTEX_TIMEDLOCK, h, 0, 0, NULL, RTK_OSIF_FOREVER);
}

int rtk_osif_mutex_unlock(unsigned h)
{
    return simple(WEFT_OSIF_CMD_MUTEX_UNLOCK, h, 0, 0, 0, NULL);
}

int rtk_osif_mutex_trylock(unsigned h)
{
    return simple(WEFT_OSIF_CMD_MUTEX_TRYLOCK, h, 0, 0, 0, NULL);
}

/* One slice: a slice that ends holds the mutex again and returns as a spurious wake-up
 * (POSIX allows them; the caller checks what it waits for, in a loop). Waiting again
 * inside would miss a signal another thread of the slot could send only between
 * slices, when the OSIF is free. */
int rtk_osif_cond_wait(unsigned h, unsigned m)
{
    int r = waits(WEFT_OSIF_CMD_COND_TIMEDWAIT, h, 1, m, NULL, RTK_OSIF_SLICE_MAX_US);
    return r == WEFT_OSIF_TIMEDOUT ? WEFT_OSIF_OK : r;
}

int rtk_osif_cond_signal(unsigned h)
{
    return simple(WEFT_OSIF_CMD_COND_SIGNAL, h, 0, 0, 0, NULL);
}

int rtk_osif_cond_broadcast(unsigned h)
{
    return simple(WEFT_OSIF_CMD_COND_BROADCAST, h, 0, 0, 0, NULL);
}

int rtk_osif_mbox_put(unsigned h, uint32_t word)
{
    return waits(WEFT_OSIF_CMD_MBOX_TIMEDPUT, h, 1, word, NULL, RTK_OSIF_FOREVER);
}

int rtk_osif_mbox_get(unsigned h, uint32_t *word)
{
    return word ? waits(WEFT_OSIF_CMD_MBOX_TIMEDGET, h, 0, 0, word, RTK_OSIF_FOREVER) : RTK_ARG;
}

int rtk_osif_mbox_tryput(unsigned h, uint32_t word)
{
    return simple(WEFT_OSIF_CMD_MBOX_TRYPUT, h, 1, word, 0, NULL);
}

int rtk_osif_mbox_tryget(unsigned h, uint32_t *word)
{
    return word ? simple(WEFT_OSIF_CMD_MBOX_TRYGET, h, 0, 0, 0, word) : RTK_ARG;
}

int rtk_osif_mq_send(unsigned h, const void *msg, size_t len, unsigned prio)
{
    if ((!msg && len) || len > RTK_OSIF_MQ_MAX_BYTES || prio > 0xffffu ||
        h > WEFT_OSIF_REQ_HANDLE_MASK)
        return RTK_ARG;
    /* MQ_TIMEDSEND: msg_info, the timeout, then the message's words; at most the buffer. */
    uint32_t words = (uint32_t)(len + 3) / 4;
    uint32_t req[WEFT_RV_OSIF_WORDS];
    req[0] = weft_osif_req_header(WEFT_OSIF_CMD_MQ_TIMEDSEND, h, 2 + words);
    req[1] = (uint32_t)len | prio << 16;
    if (words)
        req[2 + words] = 0; /* the last word's bytes past the message */
    if (len)
        memcpy(&req[3], msg, len);
    uint32_t rsp[1];
    return sliced(req, 2, rsp, 1, RTK_OSIF_FOREVER);
}

int rtk_osif_mq_receive(unsigned h, void *buf, size_t max, size_t *len, unsigned *prio)
{
    if (!buf || h > WEFT_OSIF_REQ_HANDLE_MASK)
        return RTK_ARG;
    /* A queue whose messages the bridge could not hold answers MSGSIZE. */
    uint32_t req[3] = {weft_osif_req_header(WEFT_OSIF_CMD_MQ_TIMEDRECEIVE, h, 2),
                       (uint32_t)(max > RTK_OSIF_MQ_MAX_BYTES ? RTK_OSIF_MQ_MAX_BYTES : max), 0};
    uint32_t rsp[WEFT_RV_OSIF_WORDS];
    int r = sliced(req, 2, rsp, WEFT_RV_OSIF_WORDS, RTK_OSIF_FOREVER);
    if (r != WEFT_OSIF_OK)
        return r;
    uint32_t n = rsp[0] & WEFT_OSIF_RESP_NWORDS_MASK;
    uint32_t bytes = rsp[1] & 0xffffu;
    if (n < 1 || bytes > max || (bytes + 3) / 4 != n - 1)
        return WEFT_OSIF_INTERNAL; /* an answer that does not add up */
    memcpy(buf, &rsp[2], bytes);
    if (len)
        *len = bytes;
    if (prio)
        *prio = rsp[1] >> 16;
    return r;
}

uint32_t rtk_osif_arg(unsigned n)
{
    return n < WEFT_RV_BOOT_ARGS ? mmio_read(WEFT_RV_MMIO_ARG + 4 * n) : 0;
}

/* The DMA's registers are the core's, not a thread's: a transfer goes in a critical
 * section so that another thread's cannot mix its values in. */
static int dma(uint32_t local, uint32_t bus, uint32_t len, uint32_t ctrl)
{
    uint32_t c = rtk_crit_enter();
    mmio_write(WEFT_RV_MMIO_DMA_LOCAL, local);
    mmio_write(WEFT_RV_MMIO_DMA_BUS, bus);
    mmio_write(WEFT_RV_MMIO_DMA_LEN, len);
    mmio_write(WEFT_RV_MMIO_DMA_CTRL, ctrl); /* answered when the last word has moved */
    uint32_t refused = mmio_read(WEFT_RV_MMIO_DMA_CTRL) & WEFT_RV_DMA_ERR_ARGS;
    rtk_crit_exit(c);
    return refused ? RTK_ARG : RTK_OK;
}

int rtk_dma_read(void *dst, uint32_t bus, uint32_t len)
{
    return dma((uint32_t)(uintptr_t)dst, bus, len, 0);
}

int rtk_dma_write(uint32_t bus, const void *src, uint32_t len)
{
    return dma((uint32_t)(uintptr_t)src, bus, len, WEFT_RV_DMA_WRITE);
}

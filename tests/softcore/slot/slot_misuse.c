/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * slot_misuse.c: a softcore program that does, on purpose, what a program must not
 * (tests/e2e/softcore_test.cpp checks that each ends the program, or the thread, the
 * documented way and harms nothing else). Argument 0 says what; argument 1 is a bus
 * address for the DMA cases.
 *   1 a DMA read of memory outside the thread's windows: the static region faults the
 *     thread (FAULTED, the access recorded)
 *   2 a load from an address no device answers: the fault report, exit 128 + 5
 *   3 the bridge driven by hand: a request longer than its buffer and a THREAD_EXIT are
 *     REFUSED, a START while one is in progress is ignored; exit 0 when all held
 *   4 a console flood of 3000 bytes, then exit 7
 *   5 waits on semaphore handle 0 for ever (the host stops it)
 *   6 a store to the request buffer while a call waits (an access fault: exit 128 + 7)
 *   7 a thread waits on semaphore handle 0 for ever, with the kernel running (the host
 *     stops it)
 *   8 a halfword store to TOHOST (an access fault: exit 128 + 7) */
#include <stdio.h>

#include "weft/rtk.h"
#include "weft/rtk_osif.h"
#include "weft_rv.h"

static rtk_thread_t waiter;
static uint32_t waiter_stack[256];

static void wait_for_ever(void *arg)
{
    (void)arg;
    weft_rv_exit((uint32_t)rtk_osif_sem_wait(0));
}

static void bridge_by_hand(void)
{
    /* 65 words announced: more than the buffer. */
    mmio_write(WEFT_RV_MMIO_OSIF_REQ, weft_osif_req_header(WEFT_OSIF_CMD_MBOX_PUT_BURST, 0, 64));
    mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_START);
    uint32_t st = mmio_read(WEFT_RV_MMIO_OSIF_CTRL);
    if (st != (WEFT_RV_OSIF_DONE | WEFT_RV_OSIF_REFUSED))
        weft_rv_exit(31);
    mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_ACK);
    if (mmio_read(WEFT_RV_MMIO_OSIF_CTRL) != 0)
        weft_rv_exit(32);
    /* THREAD_EXIT has no response: a program ends through TOHOST. */
    mmio_write(WEFT_RV_MMIO_OSIF_REQ, weft_osif_req_header(WEFT_OSIF_CMD_THREAD_EXIT, 0, 1));
    mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_START);
    if (!(mmio_read(WEFT_RV_MMIO_OSIF_CTRL) & WEFT_RV_OSIF_REFUSED))
        weft_rv_exit(33);
    mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_ACK);
    /* A call, and a second START while it waits: ignored; the answer is the first's. */
    mmio_write(WEFT_RV_MMIO_OSIF_REQ, weft_osif_req_header(WEFT_OSIF_CMD_GET_INIT_DATA, 0, 0));
    mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_START);
    mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_START);
    uint32_t s;
    while (!((s = mmio_read(WEFT_RV_MMIO_OSIF_CTRL)) & WEFT_RV_OSIF_DONE))
        ;
    if (s >> WEFT_RV_OSIF_RSP_WORDS_SHIFT != 2 ||
        mmio_read(WEFT_RV_MMIO_OSIF_RSP + 4) != mmio_read(WEFT_RV_MMIO_INIT))
        weft_rv_exit(34);
    mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_ACK);
    if (mmio_read(WEFT_RV_MMIO_OSIF_CTRL) & WEFT_RV_OSIF_BUSY)
        weft_rv_exit(35);
}

int main(void)
{
    uint32_t what = rtk_osif_arg(0), bus = rtk_osif_arg(1), word = 0;
    rtk_osif_init();
    switch (what) {
    case 1:
        rtk_dma_read(&word, bus, 4);
        return 21; /* not reached: the thread is faulted */
    case 2:
        return (int)mmio_read(0x80003000u);
    case 3:
        bridge_by_hand();
        return 0;
    case 4:
        for (int i = 0; i < 3000; i++)
            putchar('a' + i % 26);
        return 7;
    case 5:
        return rtk_osif_sem_wait(0);
    case 6:
        mmio_write(WEFT_RV_MMIO_OSIF_REQ, weft_osif_req_header(WEFT_OSIF_CMD_SEM_WAIT, 0, 0));
        mmio_write(WEFT_RV_MMIO_OSIF_CTRL, WEFT_RV_OSIF_START);
        mmio_write(WEFT_RV_MMIO_OSIF_REQ, 0);
        return 0;
    case 7:
        if (rtk_thread_create(&waiter, wait_for_ever, NULL, waiter_stack, sizeof waiter_stack, 5,
                              0) != RTK_OK)
            return 22;
        rtk_start();
    case 8:
        *(volatile uint16_t *)WEFT_RV_MMIO_TOHOST = 1;
        return 23;
    default:
        return 20;
    }
}

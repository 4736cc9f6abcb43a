/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * slot_post.c: a thread on the softcore posts the host's semaphore (handle 0) that a
 * pthread and a hardware thread wait on (tests/e2e/softcore_test.cpp). Argument 0 says
 * how many times; it waits for handle 1 first, a semaphore the host posts once both
 * waiters wait. */
#include "weft/rtk.h"
#include "weft/rtk_osif.h"
#include "weft_rv.h"

static rtk_thread_t poster;
static uint32_t stack[256];

static void post(void *arg)
{
    (void)arg;
    int r = rtk_osif_sem_wait(1);
    for (uint32_t i = 0; r == 0 && i < rtk_osif_arg(0); i++)
        r = rtk_osif_sem_post(0);
    weft_rv_exit((uint32_t)r);
}

int main(void)
{
    if (rtk_osif_init() != RTK_OK ||
        rtk_thread_create(&poster, post, 0, stack, sizeof stack, 5, 0) != RTK_OK)
        return 1;
    rtk_start();
}

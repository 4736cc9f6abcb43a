/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * slot_hello.c: the softcore in a slot, smallest: its console and exit code reach the
 * host (tests/e2e/softcore_test.cpp). It prints its argument words and the number of
 * its contexts, and ends with the sum of its first two arguments. */
#include <stdio.h>

#include "weft/rtk_osif.h"
#include "weft_rv.h"

int main(void)
{
    printf("hello from the softcore in a slot: %u contexts, args %lx %lx %lx %lx\n",
           (unsigned)csr_read(WEFT_CSR_NCTX), (unsigned long)rtk_osif_arg(0),
           (unsigned long)rtk_osif_arg(1), (unsigned long)rtk_osif_arg(2),
           (unsigned long)rtk_osif_arg(3));
    return (int)(rtk_osif_arg(0) + rtk_osif_arg(1));
}

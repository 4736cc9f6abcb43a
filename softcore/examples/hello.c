/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The smallest softcore program: picolibc's printf on the console, an exit code. */
#include <stdio.h>

#include "weft_rv.h"

int main(void)
{
    printf("hello from context %u of %u\n", (unsigned)csr_read(mhartid), (unsigned)csr_read(0xFC0));
    return 0;
}

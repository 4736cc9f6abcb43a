/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The softcore's standard output (picolibc's stdio writes through it) and its exit,
 * both to the host's devices (weft_rv.h). */
#include <stdio.h>

#include "weft_rv.h"

static int console_putc(char c, FILE *f)
{
    (void)f;
    mmio_write(WEFT_RV_CONSOLE, (uint8_t)c);
    return (uint8_t)c;
}

static FILE console = FDEV_SETUP_STREAM(console_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &console;
FILE *const stderr = &console;

void weft_rv_exit(uint32_t code)
{
    mmio_write(WEFT_RV_TOHOST, (code << 1) | 1u);
    for (;;)
        __asm__ volatile("wfi");
}

/* picolibc's exit() ends here. */
void _exit(int code)
{
    weft_rv_exit((uint32_t)code);
}

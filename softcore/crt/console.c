/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The softcore's standard output (picolibc's stdio writes through it), its exit and
 * the report of an unhandled trap, all to the host's devices (weft_rv.h). */
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

/* A trap nothing handles (start.S's vector): the program ends with 128 + the cause. */
__attribute__((noreturn)) void weft_rv_fault(uint32_t cause, uint32_t epc, uint32_t tval)
{
    printf("fault: mcause %lu mepc %08lx mtval %08lx\n", (unsigned long)cause, (unsigned long)epc,
           (unsigned long)tval);
    weft_rv_exit(128 + (cause & 0x7f));
}

/* picolibc's exit() ends here. */
void _exit(int code)
{
    weft_rv_exit((uint32_t)code);
}

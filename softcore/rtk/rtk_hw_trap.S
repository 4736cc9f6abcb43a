/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The hardware-context port's traps and idle loop, context 0's only code once the
 * kernel runs (docs/softcore.md). No thread runs in context 0, so a trap saves no
 * thread's state; and the idle loop keeps nothing in the registers C may clobber, so a
 * trap saves none of them either. mtvec is vectored: the software interrupt runs its
 * handler from its vector, every exception goes to the fault report. */
#include "weft_rv.h"

    .section .text.rtk_hw_trap, "ax"
    .globl rtk_hw_vectors
    .align 2
rtk_hw_vectors:
    j rtk_hw_exception          /* 0: every exception */
    j rtk_hw_exception          /* 1, 2: reserved causes */
    j rtk_hw_exception
    /* 3: the machine software interrupt, in line: the timer and external interrupts,
     * whose vectors this code runs over, are never enabled in this port. */
    li t0, WEFT_RV_MSIP_ADDR
    sw zero, 0(t0)
    lw t0, rtk_hw_swi_handler
    lw a0, rtk_hw_swi_arg
    jalr t0
    mret

rtk_hw_exception:
    csrr a0, mcause
    j rtk_hw_trap               /* reports and ends the program */

/* Runs the scheduler's decision, again whenever context 0 runs: the idle thread.
 * Interrupts are enabled here and nowhere else in context 0. */
    .globl rtk_hw_idle
rtk_hw_idle:
    li s1, -1
    csrsi mstatus, 8
1:  csrw 0x7C0, s1
    j 1b

/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The hardware-context port's traps, idle loop and register moves, context 0's only
 * code once the kernel runs (docs/softcore.md). No thread runs in context 0, so a trap
 * saves no thread's state; and the idle loop keeps nothing in the registers C may
 * clobber, so a trap saves none of them either. mtvec is vectored: the software and
 * external interrupts run their handlers from their vectors and return to the idle
 * loop's head (s2), every exception goes to the fault report. */
#include "weft_rv.h"

    .section .text.rtk_hw_trap, "ax"
    .option push
    .option norelax             /* the vectors' offsets are the architecture's */
    .globl rtk_hw_vectors
    .align 2
rtk_hw_vectors:
    j rtk_hw_exception          /* 0: every exception */
    j rtk_hw_exception          /* 1, 2: reserved causes */
    j rtk_hw_exception
    /* 3: the machine software interrupt, in line up to the external one's vector (11):
     * the timer interrupt, whose vector (7) this code runs over, is never enabled in
     * this port. s4 holds MSIP's address. */
    sw zero, 0(s4)
    lw t0, rtk_hw_swi_handler
    lw a0, rtk_hw_swi_arg
    jalr t0
    csrw mepc, s2
    mret
    /* 11: the machine external interrupt; without a handler, masked (nothing would
     * lower it). */
    .org rtk_hw_vectors + 4 * 11
    lw t0, rtk_hw_ext_handler
    beqz t0, 1f
    lw a0, rtk_hw_ext_arg
    jalr t0
    csrw mepc, s2
    mret
1:  li t0, 0x800               /* mie.MEIE */
    csrc mie, t0
    csrw mepc, s2
    mret
    .option pop

rtk_hw_exception:
    csrr a0, mcause
    j rtk_hw_trap               /* reports and ends the program */

/* Runs the scheduler's decision, again whenever context 0 runs: the idle thread.
 * Interrupts are enabled here and nowhere else in context 0, and a handler returns to
 * the loop's head (s2), so the decision runs again the moment it is done. When context
 * 0 stays, either the decided thread holds no context (OWNER's NEED), and it switches
 * it in with interrupts off (rtk_hw_load), or there is nothing to run, and it waits in
 * wfi, followed by no access of the OS services, so that weft_rv_soc can say it is idle
 * (idle_o) and a slot may stop its clock. */
    .globl rtk_hw_idle
rtk_hw_idle:
    li s1, -1
    la s2, 1f
    li s3, WEFT_RV_OS_BASE_ADDR
    li s4, WEFT_RV_MSIP_ADDR
    csrsi mstatus, 8
1:  csrw 0x7C0, s1
    lw t0, WEFT_RV_OS_OWNER_OFF(s3)
    andi t0, t0, WEFT_RV_OS_NEED_BIT
    bnez t0, 2f
    wfi
    j 1b
2:  csrci mstatus, 8
    call rtk_hw_load
    csrsi mstatus, 8
    j 1b

/* rtk_hw_ctx_save(frame): the selected context's PC and registers but sp into a0[0..31]
 * (word n holds xn; sp is the frame's end). rtk_hw_ctx_load(frame): the other way, and
 * sp = frame + 128. */
    .globl rtk_hw_ctx_save
rtk_hw_ctx_save:
    csrr t0, 0x7C3
    sw t0, 0(a0)
    .irp n, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    csrr t0, 0x7E0 + \n
    sw t0, 4 * \n(a0)
    .endr
    ret

    .globl rtk_hw_ctx_load
rtk_hw_ctx_load:
    lw t0, 0(a0)
    csrw 0x7C3, t0
    .irp n, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    lw t0, 4 * \n(a0)
    csrw 0x7E0 + \n, t0
    .endr
    addi t0, a0, 128
    csrw 0x7E2, t0
    ret

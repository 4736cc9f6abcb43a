/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The single-context port's trap (docs/softcore.md): every interrupt and environment
 * call saves the running thread's registers on its stack once, runs rtk_port_trap on
 * the kernel's own stack, and restores whichever thread rtk_cur names then. A thread
 * switch is this path and nothing else. */
#include "rtk_port.h"

    .section .text.rtk_trap, "ax"
    .globl rtk_trap_entry
    .align 2
rtk_trap_entry:
    addi sp, sp, -4 * RTK_FRAME_WORDS
    sw x1, 4(sp)
    .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    sw x\n, 4 * \n(sp)
    .endr
    csrr t0, mepc
    sw t0, 4 * RTK_FRAME_MEPC(sp)
    csrr t0, mstatus
    sw t0, 4 * RTK_FRAME_MSTATUS(sp)
    lw t1, rtk_cur
    sw sp, 0(t1)
    csrr a0, mcause
    mv a1, sp
    la sp, rtk_isr_stack_top
    call rtk_port_trap
    lw t1, rtk_cur
    lw sp, 0(t1)
rtk_restore:
    lw t0, 4 * RTK_FRAME_MEPC(sp)
    csrw mepc, t0
    lw t0, 4 * RTK_FRAME_MSTATUS(sp)
    csrw mstatus, t0
    lw x1, 4(sp)
    .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    lw x\n, 4 * \n(sp)
    .endr
    addi sp, sp, 4 * RTK_FRAME_WORDS
    mret

    .globl rtk_port_first
rtk_port_first:
    la t0, rtk_trap_entry
    csrw mtvec, t0
    lw sp, 0(a0)
    j rtk_restore

    .globl rtk_port_switch
rtk_port_switch:
    ecall
    ret

    .section .bss.rtk_isr_stack, "aw", @nobits
    .align 4
    .space 1024
rtk_isr_stack_top:

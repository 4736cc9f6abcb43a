/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Start-up: every hardware context begins here after reset. Context 0 sets up the C
 * environment (global and thread pointers, its stack at the top of the RAM, zeroed
 * data, a trap vector that reports any trap as a fault) and runs main; when main
 * returns, its value is the program's exit code. Another
 * context runs only when software starts it, and goes to weft_rv_context_entry (the
 * kernel's hardware-context port defines it; without one it waits for ever). */
    .section .text.init, "ax"
    .globl _start
_start:
    csrr t0, mhartid
    bnez t0, other_context
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la tp, __tls_base
    la sp, __stack_top
    la t0, weft_rv_fault_entry   /* until a kernel installs its own trap */
    csrw mtvec, t0
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  li a0, 0
    li a1, 0
    call main
    call weft_rv_exit
other_context:
    j weft_rv_context_entry

    .text
    .align 2
weft_rv_fault_entry:
    csrr a0, mcause
    csrr a1, mepc
    csrr a2, mtval
    j weft_rv_fault

    .weak weft_rv_context_entry
weft_rv_context_entry:
    wfi
    j weft_rv_context_entry

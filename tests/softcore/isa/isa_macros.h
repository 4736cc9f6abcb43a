// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// isa_macros.h: the common frame of the softcore's ISA test programs (tests/softcore/isa,
// run by `tb_rv_core isa`). Included by every .S file (gcc preprocesses them).
//
// A program starts with TEST_START, checks values with CHECK and ends with PASS. A failed
// check prints "FAIL test n: got X expected Y" on the console and writes (n << 1) | 1 to
// TOHOST, which stops the run; test numbers run from 1 (0 would read as a pass) to 999
// (1000: an unexpected trap; 1002: a context other than 0 ran a program that does not
// start it). A trap expected but not taken fails the test's own number.
//
// Registers the frame uses (tests keep their own values in x1-x25):
//   x31        CHECK's expected value (so CHECK cannot test x31 itself)
//   x29, x30   the failure path (test number, value read)
//   x26        where the expect-trap handler resumes; 0 when no trap is expected
//   x27-x29    mcause, mepc, mtval as the expect-trap handler found them
#pragma once

// ---- the test bench's MMIO device (tests/softcore/rv_bench.h) ----
#define TOHOST  0x80000000
#define CONSOLE 0x80000004
#define IRQ_SET 0x80000008
#define IRQ_CLR 0x8000000C
#define SCRATCH 0x80000040
#define IRQ_LINE_SOFT  1
#define IRQ_LINE_TIMER 2
#define IRQ_LINE_EXT   4

// ---- machine-mode CSR bits ----
#define MSTATUS_MIE  0x8
#define MSTATUS_MPIE 0x80
#define MSTATUS_MPP  0x1800
#define MIE_MSIE 0x8
#define MIE_MTIE 0x80
#define MIE_MEIE 0x800
#define MCAUSE_IRQ 0x80000000

// ---- trap causes ----
#define CAUSE_INSN_MISALIGNED  0
#define CAUSE_INSN_FAULT       1
#define CAUSE_ILLEGAL          2
#define CAUSE_BREAKPOINT       3
#define CAUSE_LOAD_MISALIGNED  4
#define CAUSE_LOAD_FAULT       5
#define CAUSE_STORE_MISALIGNED 6
#define CAUSE_STORE_FAULT      7
#define CAUSE_ECALL_M          11
#define IRQ_SOFT  (MCAUSE_IRQ | 3)
#define IRQ_TIMER (MCAUSE_IRQ | 7)
#define IRQ_EXT   (MCAUSE_IRQ | 11)

// ---- Weft's hardware-context CSRs (hw/softcore/weft_rv_pkg.sv) ----
#define CSR_CTX    0x7C0
#define CSR_FOLLOW 0x7C1
#define CSR_SEL    0x7C2
#define CSR_PC     0x7C3
#define CSR_NCTX   0xFC0

// Failure codes of the frame itself (tests use numbers below these).
#define FAIL_UNEXPECTED_TRAP 1000
#define FAIL_STRAY_CONTEXT   1002

// CHECK(n, reg, value): test n fails unless reg == value (a constant).
#define CHECK(n, reg, value) _check n, reg, value
// CHECK_ADDR(n, reg, label): test n fails unless reg == the address of label.
#define CHECK_ADDR(n, reg, label) _check_addr n, reg, label
// CHECK_REG(n, reg, other): test n fails unless reg == other (other is not x31).
#define CHECK_REG(n, reg, other) _check_reg n, reg, other

.macro _no_x31 reg
  .ifc \reg, x31
    .error "CHECK cannot test x31: it holds the expected value"
  .endif
  .ifc \reg, t6
    .error "CHECK cannot test t6 (x31): it holds the expected value"
  .endif
.endm

.macro _check_num n
  .if (\n) < 1 || (\n) >= FAIL_UNEXPECTED_TRAP
    .error "test numbers run from 1 to 999"
  .endif
.endm

.macro _check n, reg, value
  _check_num \n
  _no_x31 \reg
  li x31, \value
  beq \reg, x31, .Lok\@
  mv x30, \reg
  li x29, \n
  j test_fail
.Lok\@:
.endm

.macro _check_addr n, reg, label
  _check_num \n
  _no_x31 \reg
  la x31, \label
  beq \reg, x31, .Lok\@
  mv x30, \reg
  li x29, \n
  j test_fail
.Lok\@:
.endm

.macro _check_reg n, reg, other
  _check_num \n
  _no_x31 \reg
  mv x31, \other
  beq \reg, x31, .Lok\@
  mv x30, \reg
  li x29, \n
  j test_fail
.Lok\@:
.endm

// _check_abs n, reg, expr: as _check for an expression that may name a symbol (its
// absolute value: the programs are linked at 0).
.macro _check_abs n, reg, expr
  _check_num \n
  _no_x31 \reg
  lui x31, %hi(\expr)
  addi x31, x31, %lo(\expr)
  beq \reg, x31, .Lok\@
  mv x30, \reg
  li x29, \n
  j test_fail
.Lok\@:
.endm

// FAIL(n): test n fails unconditionally (a path that must not be reached).
#define FAIL(n) _fail n
.macro _fail n
  _check_num \n
  li x30, 0
  li x31, 0
  li x29, \n
  j test_fail
.endm

// ZERO_REGS: x1-x31 to 0. The core's register banks start with unknown values (the
// test bench randomises them), its model's with zeros: every context clears its own.
.macro ZERO_REGS
  .irp r, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    li x\r, 0
  .endr
.endm

// ---- expected traps ----
// The handler trap_expect (installed by TEST_START) records mcause, mepc and mtval in
// x27, x28, x29 and resumes at x26, which it clears; with x26 == 0 the trap was not
// expected and the test fails with FAIL_UNEXPECTED_TRAP.

// EXPECT_TRAP n, cause, tval, insn...: insn must trap with mcause == cause, mepc == its
// own address and mtval == tval (a constant or an address).
.macro EXPECT_TRAP n, cause, tval, insn:vararg
  la x26, .Lresume\@
.Linsn\@:
  \insn
  li x29, \n
  j test_no_trap
.Lresume\@:
  _check \n, x27, \cause
  _check_addr \n, x28, .Linsn\@
  _check_abs \n, x29, \tval
.endm

// EXPECT_TRAP_REL n, cause, delta, insn...: as EXPECT_TRAP with mtval == the
// instruction's own address + delta (an EBREAK's pc, a jump's misaligned target).
.macro EXPECT_TRAP_REL n, cause, delta, insn:vararg
  la x26, .Lresume\@
.Linsn\@:
  \insn
  li x29, \n
  j test_no_trap
.Lresume\@:
  _check \n, x27, \cause
  _check_addr \n, x28, .Linsn\@
  _check_addr \n, x29, .Linsn\@ + (\delta)
.endm

// EXPECT_ILLEGAL n, insn...: insn is an illegal instruction; mtval == its encoding, read
// back from memory (so the assembler's encoding is the reference).
.macro EXPECT_ILLEGAL n, insn:vararg
  la x26, .Lresume\@
.Linsn\@:
  \insn
  li x29, \n
  j test_no_trap
.Lresume\@:
  _check \n, x27, CAUSE_ILLEGAL
  _check_addr \n, x28, .Linsn\@
  la x31, .Linsn\@
  lw x31, 0(x31)
  beq x29, x31, .Lok\@
  mv x30, x29
  li x29, \n
  j test_fail
.Lok\@:
.endm

// ---- start and end ----
// TEST_START [other]: the reset code every context runs from address 0: clear the
// registers, install trap_expect, then context 0 goes on after the macro and any other
// context jumps to `other` (by default: fail, only context 0 should run).
.macro TEST_START other=test_stray_context
  .section .text.init, "ax"
  .globl _start
_start:
  ZERO_REGS
  la x1, trap_expect
  csrw mtvec, x1
  csrr x1, mhartid
  bnez x1, \other
  li x1, 0
  j test_main

  // A trap: record it and resume where x26 says (see EXPECT_TRAP).
  .align 2
trap_expect:
  csrr x27, mcause
  csrr x28, mepc
  csrr x29, mtval
  beqz x26, test_unexpected_trap
  csrw mepc, x26
  li x26, 0
  mret

test_unexpected_trap:
  la x1, test_str_trap
  jal x5, test_put_str
  mv x2, x27
  jal x5, test_put_hex
  la x1, test_str_epc
  jal x5, test_put_str
  mv x2, x28
  jal x5, test_put_hex
  la x1, test_str_tval
  jal x5, test_put_str
  mv x2, x29
  jal x5, test_put_hex
  la x1, test_str_sep
  jal x5, test_put_str
  li x29, FAIL_UNEXPECTED_TRAP
  li x30, 0
  li x31, 0
  j test_fail

test_no_trap:
  li x30, 0
  li x31, 0
  la x1, test_str_no_trap
  jal x5, test_put_str
  j test_fail

test_stray_context:
  li x29, FAIL_STRAY_CONTEXT
  csrr x30, mhartid
  li x31, 0
  j test_fail

  // x29: the test number, x30: the value read, x31: the value expected.
test_fail:
  la x1, test_str_fail
  jal x5, test_put_str
  mv x2, x29
  jal x5, test_put_dec
  la x1, test_str_got
  jal x5, test_put_str
  mv x2, x30
  jal x5, test_put_hex
  la x1, test_str_exp
  jal x5, test_put_str
  mv x2, x31
  jal x5, test_put_hex
  li x3, '\n'
  li x4, CONSOLE
  sw x3, 0(x4)
  slli x29, x29, 1
  ori x29, x29, 1
  li x1, TOHOST
  sw x29, 0(x1)
1:
  j 1b

  // The string at x1 to the console; returns through x5.
test_put_str:
  li x4, CONSOLE
1:
  lbu x3, 0(x1)
  beqz x3, 2f
  sw x3, 0(x4)
  addi x1, x1, 1
  j 1b
2:
  jr x5

  // x2 (below 10000) in decimal to the console; returns through x5.
test_put_dec:
  li x4, CONSOLE
  li x7, 0
  .irp d, 1000, 100, 10, 1
  li x6, \d
  li x3, '0'
1:
  bltu x2, x6, 2f
  sub x2, x2, x6
  addi x3, x3, 1
  j 1b
2:
  li x6, '0'
  bne x3, x6, 3f
  beqz x7, 4f
3:
  sw x3, 0(x4)
  li x7, 1
4:
  .endr
  bnez x7, 5f
  sw x6, 0(x4)
5:
  jr x5

  // x2 in hex to the console; returns through x5.
test_put_hex:
  li x4, CONSOLE
  li x6, 8
1:
  srli x3, x2, 28
  slli x2, x2, 4
  sltiu x7, x3, 10
  bnez x7, 2f
  addi x3, x3, 'a' - '0' - 10
2:
  addi x3, x3, '0'
  sw x3, 0(x4)
  addi x6, x6, -1
  bnez x6, 1b
  jr x5

  .pushsection .rodata
test_str_fail:    .asciz "FAIL test "
test_str_got:     .asciz ": got 0x"
test_str_exp:     .asciz " expected 0x"
test_str_trap:    .asciz "unexpected trap: mcause 0x"
test_str_epc:     .asciz " mepc 0x"
test_str_tval:    .asciz " mtval 0x"
test_str_no_trap: .asciz "no trap where one was expected; "
test_str_sep:     .asciz "; "
  .popsection

  .align 2
test_main:
.endm

// PASS: write 1 to TOHOST (the run stops there).
.macro PASS
  li x31, TOHOST
  li x30, 1
  sw x30, 0(x31)
1:
  j 1b
.endm

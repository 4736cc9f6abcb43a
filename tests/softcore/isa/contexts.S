// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// contexts: Weft's hardware contexts (hw/softcore/weft_rv_core.sv, weft_rv_pkg.sv): the
// custom CSRs CTX (0x7C0), FOLLOW (0x7C1), SEL (0x7C2), PC (0x7C3) and NCTX (0xFC0).
// With one context: NCTX, what CTX, SEL and PC read, and that switches to contexts that
// do not exist are ignored. With more (the rest is skipped when NCTX is 1): context 1
// starts at the reset PC through the start-up code's mhartid dispatch; each context has
// its own registers and trap CSRs; CTX writes switch back and forth, each context
// resuming after its own CTX write; SEL/PC set where a context resumes; an exception in
// context 1 is its own; an interrupt raised while context 1 runs is taken in context 0
// (mepc = where context 0 stood), by context 0's enables only, and context 1 resumes
// intact; follow mode switches context 1 out at once (the test bench's scheduler always
// chooses context 0); with four, contexts 2 and 3 start and pass the core on.
//
// Tests 1-: one context; 30-: the first switch; 60-: back and forth; 80-: SEL/PC; 100-:
// an interrupt while context 1 runs; 130-: context 1's enables; 150-: follow mode;
// 170-: four contexts. 500-: checks in context 1; 600-: in contexts 2 and 3.
#include "isa_macros.inc"

// FILL_REGS base: x5-x25 = base + register number.
.macro FILL_REGS base
  .irp r, 5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25
    li x\r, \base + \r
  .endr
.endm

// CHECK_REGS n, base: x5-x25 hold base + register number.
.macro CHECK_REGS n, base
  .irp r, 5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25
    _check \n, x\r, \base + \r
  .endr
.endm

#define C0_REGS 0x0c000000
#define C1_REGS 0x1c000000

  TEST_START ctx_other

  // ---- one context ----
  csrr x10, CSR_NCTX
  sltiu x3, x10, 1
  CHECK(1, x3, 0)
  sltiu x3, x10, 33
  CHECK(2, x3, 1)
  csrr x3, CSR_CTX
  CHECK(3, x3, 0)
  csrr x3, mhartid
  CHECK(4, x3, 0)
  csrr x3, CSR_SEL
  CHECK(5, x3, 0)
  csrr x3, CSR_FOLLOW
  CHECK(6, x3, 0)
  EXPECT_ILLEGAL 7, csrw CSR_NCTX, x10
  // PC of the running context: the reading instruction's address; writes are ignored.
pc_read1:
  csrr x3, CSR_PC
  CHECK_ADDR(8, x3, pc_read1)
  la x1, pc_read1
  csrw CSR_PC, x1
pc_read2:
  csrr x3, CSR_PC
  CHECK_ADDR(9, x3, pc_read2)
  // FOLLOW is bit 0, HOLD bit 1 (no interrupt, no switch while set); others read 0.
  csrwi CSR_FOLLOW, 7
  csrr x3, CSR_FOLLOW
  CHECK(10, x3, 3)
  csrwi CSR_FOLLOW, 4
  csrr x3, CSR_FOLLOW
  CHECK(11, x3, 0)
  // CTX: writing the running context, or all ones (the scheduler's choice, here 0),
  // goes on with the next instruction; the old value (0) to rd.
  li x3, 0x3333
  csrrwi x3, CSR_CTX, 0
  CHECK(12, x3, 0)
  li x1, -1
  li x3, 0x3333
  csrrw x3, CSR_CTX, x1
  CHECK(13, x3, 0)
  // Contexts that do not exist: ignored.
  csrw CSR_CTX, x10
  li x1, 32
  csrw CSR_CTX, x1
  li x1, 0xfffffffe
  csrw CSR_CTX, x1
  li x1, 0x80000001
  csrw CSR_CTX, x1
  csrr x3, CSR_CTX
  CHECK(14, x3, 0)
  csrw CSR_SEL, x10
  li x1, -1
  csrw CSR_SEL, x1
  csrr x3, CSR_SEL
  CHECK(15, x3, 0)
  li x1, 1
  bne x10, x1, multi
  // One context: SEL 1 is out of range too.
  csrwi CSR_SEL, 1
  csrr x3, CSR_SEL
  CHECK(16, x3, 0)
  csrwi CSR_CTX, 1
  csrr x3, CSR_CTX
  CHECK(17, x3, 0)
  PASS

  // ---- the first switch: context 1 runs from the reset PC ----
multi:
  csrwi CSR_SEL, 1
  csrr x3, CSR_SEL
  CHECK(30, x3, 1)
  csrr x3, CSR_PC
  CHECK(31, x3, 0)
  // Context 0's own trap CSRs.
  li x1, 0xc0c0c0c0
  csrw mscratch, x1
  li x1, 0xc0c0
  csrw mepc, x1
  li x1, 0xc0c1
  csrw mtval, x1
  csrwi mcause, 9
  li x1, MIE_MTIE
  csrw mie, x1
  csrw mstatus, x0
  FILL_REGS C0_REGS
  li x4, 0x4444
c0_switch1:
  csrrwi x4, CSR_CTX, 1
  // Context 1 ran (tests 500-) and switched back: context 0 resumes here, and its x4
  // is the 0 its own CTX write read, not context 1's value.
  mv x3, x4
  CHECK(32, x3, 0)
  CHECK_REGS 33, C0_REGS
  csrr x3, mscratch
  CHECK(34, x3, 0xc0c0c0c0)
  csrr x3, mepc
  CHECK(35, x3, 0xc0c0)
  csrr x3, mtval
  CHECK(36, x3, 0xc0c1)
  csrr x3, mcause
  CHECK(37, x3, 9)
  csrr x3, mie
  CHECK(38, x3, MIE_MTIE)
  csrr x3, mstatus
  CHECK(39, x3, MSTATUS_MPP)
  csrr x3, mhartid
  CHECK(40, x3, 0)
  la x1, c1_stage
  lw x3, 0(x1)
  CHECK(41, x3, 1)
  // Context 1 stopped right after its CTX write.
  csrwi CSR_SEL, 1
  csrr x3, CSR_PC
  CHECK_ADDR(42, x3, c1_switch1 + 4)
  csrr x3, CSR_SEL
  CHECK(43, x3, 1)

  // ---- back and forth: each switch resumes context 1 after its last CTX write ----
  li x2, 5
1:
  csrwi CSR_CTX, 1
  addi x2, x2, -1
  bnez x2, 1b
  la x1, c1_count
  lw x3, 0(x1)
  CHECK(60, x3, 5)
  CHECK_REGS 61, C0_REGS
  csrwi CSR_SEL, 1
  csrr x3, CSR_PC
  CHECK_ADDR(62, x3, c1_loop_switch + 4)

  // ---- SEL/PC: context 1 resumes where PC says ----
  la x1, c1_task2 + 2
  csrw CSR_PC, x1
  csrr x3, CSR_PC
  CHECK_ADDR(80, x3, c1_task2)
  // Its first instructions read x4 and x5, just written here in context 0's bank (x5
  // by a load, written back while the core switches).
  la x1, bad_word
  lw x5, 0(x1)
  csrrwi x4, CSR_CTX, 1
  mv x3, x4
  CHECK(81, x3, 0)
  CHECK(85, x5, 0x0bad0bad)
  la x1, c1_stage
  lw x3, 0(x1)
  CHECK(82, x3, 2)
  // Context 1's ECALL was its own: context 0's mcause and mepc are as they were.
  csrr x3, mcause
  CHECK(83, x3, 9)
  csrr x3, mepc
  CHECK(84, x3, 0xc0c0)

  // A context whose first instruction switches back at once.
  la x1, c1_bounce
  csrw CSR_PC, x1
  csrwi CSR_CTX, 1
  csrwi CSR_CTX, 1
  csrr x3, CSR_PC
  CHECK_ADDR(86, x3, c1_bounce + 8)
  la x1, c1_stage
  lw x3, 0(x1)
  CHECK(87, x3, 2)

  // ---- an interrupt while context 1 runs is context 0's ----
  la x1, c0_irq_handler
  csrw mtvec, x1
  li x1, MIE_MSIE
  csrw mie, x1
  li x20, 0
  csrsi mstatus, MSTATUS_MIE
  csrwi CSR_SEL, 1
  la x1, c1_task3
  csrw CSR_PC, x1
  csrwi CSR_CTX, 1
c0_after3:
  // Resumed by the handler's MRET: mepc was context 0's saved PC, here.
  CHECK(100, x20, 1)
  la x5, irq_record
  lw x3, 0(x5)
  CHECK(101, x3, IRQ_SOFT)
  lw x3, 4(x5)
  CHECK_ADDR(102, x3, c0_after3)
  lw x3, 8(x5)
  CHECK(103, x3, 0)                // CTX in the handler
  lw x3, 12(x5)
  CHECK(104, x3, 0)                // mhartid in the handler
  lw x3, 16(x5)
  CHECK(105, x3, MSTATUS_MPP | MSTATUS_MPIE)
  // Context 1 was stopped after its store (it re-runs the instruction it lost).
  lw x3, 20(x5)
  la x4, c1_task3_raised
  sltu x6, x3, x4
  CHECK(106, x6, 0)
  la x4, c1_task3_loop_end
  sltu x6, x3, x4
  CHECK(107, x6, 1)
  la x1, c1_stage
  lw x3, 0(x1)
  CHECK(108, x3, 2)
  csrr x3, mstatus
  CHECK(109, x3, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE)
  // Back to context 1: it finishes its loop and checks itself (tests 520-).
  csrwi CSR_CTX, 1
  la x1, c1_stage
  lw x3, 0(x1)
  CHECK(110, x3, 3)
  la x1, c1_result
  lw x3, 0(x1)
  CHECK(111, x3, 100 * 0x1001)
  CHECK(112, x20, 1)

  // ---- context 1's own MIE and mie do not take interrupts; context 0's MIE = 0 ----
  csrci mstatus, MSTATUS_MIE
  la x1, c1_task4
  csrw CSR_PC, x1
  csrwi CSR_CTX, 1
  la x1, c1_stage
  lw x3, 0(x1)
  CHECK(130, x3, 4)
  CHECK(131, x20, 1)
  la x1, c1_result
  lw x3, 0(x1)
  CHECK(132, x3, MIE_MSIE)         // mip as context 1 saw it
  csrr x3, mip
  CHECK(133, x3, 0)
  csrw mie, x0

  // ---- follow mode: context 1, not the scheduler's choice, is switched out at once ----
  la x1, c1_task5
  csrw CSR_PC, x1
  csrwi CSR_FOLLOW, 1
  csrwi CSR_CTX, 1
  csrr x3, CSR_CTX
  CHECK(150, x3, 0)
  la x1, c1_stage
  lw x3, 0(x1)
  CHECK(151, x3, 4)
  csrr x3, CSR_PC
  CHECK_ADDR(152, x3, c1_task5)
  csrwi CSR_FOLLOW, 0
  csrwi CSR_CTX, 1
  la x1, c1_stage
  lw x3, 0(x1)
  CHECK(153, x3, 5)

  // ---- four contexts: 0 -> 2 -> 3 -> the scheduler's choice (0) ----
  csrr x10, CSR_NCTX
  li x1, 4
  blt x10, x1, done
  csrwi CSR_SEL, 2
  csrr x3, CSR_PC
  CHECK(170, x3, 0)
  csrwi CSR_CTX, 2
  la x1, ctx_marks
  lw x3, 8(x1)
  CHECK(171, x3, 0x600d0002)
  lw x3, 12(x1)
  CHECK(172, x3, 0x600d0003)
  csrwi CSR_SEL, 2
  csrr x3, CSR_PC
  CHECK_ADDR(173, x3, ctxn_switch + 4)
  csrwi CSR_SEL, 3
  csrr x3, CSR_PC
  CHECK_ADDR(174, x3, ctxn_switch + 4)
  csrr x3, CSR_CTX
  CHECK(175, x3, 0)
done:
  PASS

  // ---- context 0's interrupt handler: record, clear the line, count ----
  .align 2
c0_irq_handler:
  la x21, irq_record
  csrr x22, mcause
  sw x22, 0(x21)
  csrr x22, mepc
  sw x22, 4(x21)
  csrr x22, CSR_CTX
  sw x22, 8(x21)
  csrr x22, mhartid
  sw x22, 12(x21)
  csrr x22, mstatus
  sw x22, 16(x21)
  csrwi CSR_SEL, 1
  csrr x22, CSR_PC
  sw x22, 20(x21)
  li x21, IRQ_CLR
  li x22, IRQ_LINE_SOFT
  sw x22, 0(x21)
  addi x20, x20, 1
  mret

  // ---- contexts other than 0 start here (x1 = mhartid) ----
ctx_other:
  li x2, 1
  bne x1, x2, ctxn_main

  // ---- context 1 ----
  // Reset state: its own trap CSRs untouched by context 0's writes.
  csrr x3, mhartid
  CHECK(500, x3, 1)
  csrr x3, CSR_CTX
  CHECK(501, x3, 1)
  csrr x3, mscratch
  CHECK(502, x3, 0)
  csrr x3, mepc
  CHECK(503, x3, 0)
  csrr x3, mcause
  CHECK(504, x3, 0)
  csrr x3, mtval
  CHECK(505, x3, 0)
  csrr x3, mie
  CHECK(506, x3, 0)
  csrr x3, mstatus
  CHECK(507, x3, MSTATUS_MPP)
  csrr x3, mtvec
  CHECK_ADDR(508, x3, trap_expect)
  // Context 0 stopped right after its CTX write.
  csrwi CSR_SEL, 0
  csrr x3, CSR_PC
  CHECK_ADDR(509, x3, c0_switch1 + 4)
  csrwi CSR_SEL, 1
c1_pc_read:
  csrr x3, CSR_PC
  CHECK_ADDR(510, x3, c1_pc_read)
  // Its own values, which context 0 must not see.
  li x1, 0x11111111
  csrw mscratch, x1
  li x1, 0x1110
  csrw mepc, x1
  li x1, 0x1111
  csrw mtval, x1
  csrwi mcause, 5
  li x1, MIE_MSIE | MIE_MTIE | MIE_MEIE
  csrw mie, x1
  csrwi mstatus, MSTATUS_MIE
  la x1, c1_stage
  li x2, 1
  sw x2, 0(x1)
  FILL_REGS C1_REGS
  li x4, 0x4444
c1_switch1:
  csrrwi x4, CSR_CTX, 0
  // Resumed by context 0's first CTX write of the loop.
  CHECK(511, x4, 1)
  CHECK_REGS 512, C1_REGS
  csrr x3, mscratch
  CHECK(513, x3, 0x11111111)
  csrr x3, mepc
  CHECK(514, x3, 0x1110)
  csrr x3, mtval
  CHECK(515, x3, 0x1111)
  csrr x3, mcause
  CHECK(516, x3, 5)
  csrr x3, mie
  CHECK(517, x3, MIE_MSIE | MIE_MTIE | MIE_MEIE)
  csrr x3, mstatus
  CHECK(518, x3, MSTATUS_MPP | MSTATUS_MIE)
  // Count the round trips (x1, x2 only: x5-x25 keep their values).
c1_loop:
  la x1, c1_count
  lw x2, 0(x1)
  addi x2, x2, 1
  sw x2, 0(x1)
c1_loop_switch:
  csrwi CSR_CTX, 0
  j c1_loop

  // Run through SEL/PC. x4 and x5 are context 1's, whatever context 0 just wrote.
c1_task2:
  mv x6, x4
  mv x7, x5
  CHECK(519, x6, 1)
  CHECK(520, x7, C1_REGS + 5)
  li x6, C1_REGS + 6
  li x7, C1_REGS + 7
  CHECK_REGS 521, C1_REGS
  // An exception here is context 1's own (its mtvec, mepc, mcause).
  EXPECT_TRAP 522, CAUSE_ECALL_M, 0, ecall
  csrr x3, mcause
  CHECK(523, x3, CAUSE_ECALL_M)
  li x1, 0x1110
  csrw mepc, x1
  csrwi mcause, 5
  la x1, c1_stage
  li x2, 2
  sw x2, 0(x1)
  csrwi CSR_CTX, 0
  FAIL(524)

c1_bounce:
  csrwi CSR_CTX, 0
  csrwi CSR_CTX, 0
  FAIL(525)

  // Raise the software line, then work; context 0 takes the interrupt in between.
c1_task3:
  li x1, 0
  li x2, 100
  li x4, IRQ_SET
  li x3, IRQ_LINE_SOFT
  sw x3, 0(x4)
c1_task3_raised:
  li x3, 0
c1_task3_loop:
  addi x3, x3, 1
  li x4, 0x1001
  add x1, x1, x4
  bne x3, x2, c1_task3_loop
c1_task3_loop_end:
  CHECK(530, x1, 100 * 0x1001)
  li x4, 0x4444
  CHECK_REGS 531, C1_REGS
  csrr x3, mepc
  CHECK(532, x3, 0x1110)
  csrr x3, mcause
  CHECK(533, x3, 5)
  csrr x3, mstatus
  CHECK(534, x3, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE)
  la x2, c1_result
  sw x1, 0(x2)
  la x1, c1_stage
  li x2, 3
  sw x2, 0(x1)
  csrwi CSR_CTX, 0
  FAIL(535)

  // Its MIE and mie are set, context 0's MIE is not: the line stays pending.
c1_task4:
  li x1, IRQ_SET
  li x2, IRQ_LINE_SOFT
  sw x2, 0(x1)
  li x3, 30
1:
  addi x3, x3, -1
  bnez x3, 1b
  csrr x3, mip
  la x2, c1_result
  sw x3, 0(x2)
  li x1, IRQ_CLR
  li x2, IRQ_LINE_SOFT
  sw x2, 0(x1)
  la x1, c1_stage
  li x2, 4
  sw x2, 0(x1)
  csrwi CSR_CTX, 0
  FAIL(536)

  // Runs only when follow mode is off.
c1_task5:
  la x1, c1_stage
  li x2, 5
  sw x2, 0(x1)
  csrwi CSR_CTX, 0
  FAIL(537)

  // ---- contexts 2 and up: mark, ignore a bad switch, pass the core on ----
ctxn_main:
  csrr x2, CSR_CTX
  CHECK_REG(600, x2, x1)
  csrr x3, mscratch
  CHECK(601, x3, 0)
  la x3, ctx_marks
  slli x4, x1, 2
  add x3, x3, x4
  li x5, 0x600d0000
  or x5, x5, x1
  sw x5, 0(x3)
  csrr x10, CSR_NCTX
  csrw CSR_CTX, x10
  csrr x2, CSR_CTX
  CHECK_REG(602, x2, x1)
  addi x2, x1, 1
  blt x2, x10, 1f
  li x2, -1
1:
ctxn_switch:
  csrw CSR_CTX, x2
  FAIL(603)

  .data
  .align 4
c1_stage:
  .word 0
c1_count:
  .word 0
c1_result:
  .word 0
bad_word:
  .word 0x0bad0bad
irq_record:
  .skip 24
ctx_marks:
  .skip 4 * 32

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// traps: machine-mode traps (privileged spec, "Machine-Level ISA": mcause, mepc, mtval,
// mtvec, mstatus.MIE/MPIE, mie/mip, MRET, WFI). Exceptions: ECALL (mtval 0), EBREAK
// (mtval its pc, as the core documents), illegal instructions (mtval the instruction),
// misaligned loads and stores (mtval the address; misaligned wins over an access fault),
// access faults in the RAM hole, past the RAM and at MMIO addresses no device answers,
// instruction access faults, and instruction-address-misaligned taken jumps and branches
// (mepc the jump, mtval its target; nothing written). A trapping instruction has no
// effect. Interrupts from the test bench's lines (IRQ_SET, IRQ_CLR): masked by
// mstatus.MIE and mie, taken at once when a CSR write or MRET enables a pending one
// (the spec requires the condition be evaluated then), external before software before
// timer, before an instruction that would trap, level-triggered until the handler
// clears the line, vectored mtvec.
//
// Tests 1-: ECALL, EBREAK; 10-: illegal; 60-: misaligned; 90-: access faults; 120-:
// instruction fetch; 140-: misaligned targets; 170-: MRET and MIE/MPIE; 200-: interrupts;
// 260-: priority; 300-: vectored mtvec; 330-: WFI, a division under interrupts.
#include "isa_macros.inc"

// The interrupt handler's registers (the code it interrupts leaves them alone):
//   x20  entries before the handler clears the line (0 or 1: at once)
//   x21, x22  scratch
//   x23  mepc of the last interrupt
//   x24  the log: mcause, mepc, mtval of each interrupt, 12 bytes each
//   x25  interrupts taken

// IRQ_ON value: raise the lines in value (IRQ_LINE_*).
.macro IRQ_ON value
  li x1, IRQ_SET
  li x2, \value
  sw x2, 0(x1)
.endm

// LOG_START: empty the interrupt log.
.macro LOG_START
  la x24, irq_log
  li x25, 0
.endm

// WAIT_IRQ n, count: spin until count interrupts were taken (test n fails after 200 loops).
.macro WAIT_IRQ n, count
  li x3, 200
.Lwait\@:
  li x4, \count
  bge x25, x4, .Ldone\@
  addi x3, x3, -1
  bnez x3, .Lwait\@
  mv x30, x25
  li x31, \count
  li x29, \n
  j test_fail
.Ldone\@:
.endm

// CHECK_LOG n, i, cause: log entry i has mcause == cause and mtval == 0.
.macro CHECK_LOG n, i, cause
  la x5, irq_log
  lw x3, (12 * \i)(x5)
  _check \n, x3, \cause
  lw x3, (12 * \i + 8)(x5)
  _check \n, x3, 0
.endm

// CHECK_LOG_EPC n, i, label: log entry i has mepc == label.
.macro CHECK_LOG_EPC n, i, label
  la x5, irq_log
  lw x3, (12 * \i + 4)(x5)
  _check_addr \n, x3, \label
.endm

  TEST_START

  // ---- ECALL and EBREAK ----
  li x1, -1
  csrw mtval, x1
  EXPECT_TRAP 1, CAUSE_ECALL_M, 0, ecall
  EXPECT_TRAP_REL 2, CAUSE_BREAKPOINT, 0, ebreak
  // Back to back, and right after a taken jump.
  EXPECT_TRAP 3, CAUSE_ECALL_M, 0, ecall
  j 1f
1:
  EXPECT_TRAP_REL 4, CAUSE_BREAKPOINT, 0, ebreak
  // The instruction before a trap completes: a load right before an ECALL is written.
  la x1, tdata
  li x3, 0
  la x26, 1f
  lw x3, 0(x1)
  ecall
  FAIL(5)
1:
  CHECK(6, x3, 0xa5a5a5a5)
  // A new mtvec is used by a trap right after its write.
  la x1, 1f
  la x26, 3f
  csrw mtvec, x1
  ecall
  FAIL(7)
1:
  la x1, trap_expect
  csrw mtvec, x1
  csrr x27, mcause
  CHECK(8, x27, CAUSE_ECALL_M)
  csrr x28, mepc
  csrw mepc, x26
  li x26, 0
  mret
  FAIL(9)
3:

  // ---- illegal instructions: mtval is the instruction; rd (x3 where it has one) kept ----
  li x3, 0x3333
  EXPECT_ILLEGAL 10, .word 0x00000000          // all zeros
  EXPECT_ILLEGAL 11, .word 0xffffffff          // all ones
  EXPECT_ILLEGAL 12, .word 0x00000001          // a 16-bit parcel (no C extension)
  EXPECT_ILLEGAL 13, .word 0x0200d193          // slli x3, x1, 32 (RV64 only)
  EXPECT_ILLEGAL 14, .word 0x0200d193 | 0x4000 // srli x3, x1, 32 (funct3 5, bit 25)
  EXPECT_ILLEGAL 15, .word 0x4200d193          // srai x3, x1, 32
  EXPECT_ILLEGAL 16, .word 0x6000d193          // OP-IMM shift, funct7 0x30
  EXPECT_ILLEGAL 17, .word 0x401091b3          // sll with funct7 0x20
  EXPECT_ILLEGAL 18, .word 0x4010c1b3          // xor with funct7 0x20
  EXPECT_ILLEGAL 19, .word 0x040081b3          // add with funct7 0x02
  EXPECT_ILLEGAL 20, .word 0x060081b3          // funct7 0x03
  EXPECT_ILLEGAL 21, .word 0x00002063          // branch funct3 2
  EXPECT_ILLEGAL 22, .word 0x00003063          // branch funct3 3
  EXPECT_ILLEGAL 23, .word 0x0000b183          // ld x3, 0(x1)
  EXPECT_ILLEGAL 24, .word 0x0000e183          // lwu x3, 0(x1)
  EXPECT_ILLEGAL 25, .word 0x0000f183          // load funct3 7
  EXPECT_ILLEGAL 26, .word 0x0030b023          // sd x3, 0(x1)
  EXPECT_ILLEGAL 27, .word 0x0030c023          // store funct3 4
  EXPECT_ILLEGAL 28, .word 0x000091e7          // jalr funct3 1
  EXPECT_ILLEGAL 29, .word 0x0000200f          // MISC-MEM funct3 2
  EXPECT_ILLEGAL 30, .word 0x10200073          // sret (no S mode)
  EXPECT_ILLEGAL 31, .word 0x00200073          // uret
  EXPECT_ILLEGAL 32, .word 0x12000073          // sfence.vma
  EXPECT_ILLEGAL 33, .word 0x7b200073          // dret (debug mode only)
  EXPECT_ILLEGAL 34, .word 0x000001f3          // ecall with rd x3
  EXPECT_ILLEGAL 35, .word 0x00108073          // ebreak with rs1 x1
  EXPECT_ILLEGAL 36, .word 0x302001f3          // mret with rd x3
  EXPECT_ILLEGAL 37, .word 0x10508073          // wfi with rs1 x1
  EXPECT_ILLEGAL 38, .word 0x1000a1af          // lr.w (no A)
  EXPECT_ILLEGAL 39, .word 0x0000a187          // flw (no F)
  EXPECT_ILLEGAL 40, .word 0x002081bb          // addw (RV64 only)
  EXPECT_ILLEGAL 41, .word 0x0010819b          // addiw (RV64 only)
  EXPECT_ILLEGAL 42, .word 0x0000000b          // custom-0
  EXPECT_ILLEGAL 43, .word 0x0000003f          // a 48-bit instruction's first word
  CHECK(44, x3, 0x3333)

  // ---- misaligned loads and stores: mtval is the address; nothing read or written ----
  la x1, tdata
  li x3, 0x3333
  EXPECT_TRAP 60, CAUSE_LOAD_MISALIGNED, tdata + 1, lh x3, 1(x1)
  EXPECT_TRAP 61, CAUSE_LOAD_MISALIGNED, tdata + 3, lhu x3, 3(x1)
  EXPECT_TRAP 62, CAUSE_LOAD_MISALIGNED, tdata + 1, lw x3, 1(x1)
  EXPECT_TRAP 63, CAUSE_LOAD_MISALIGNED, tdata + 2, lw x3, 2(x1)
  EXPECT_TRAP 64, CAUSE_LOAD_MISALIGNED, tdata + 7, lw x3, 7(x1)
  CHECK(65, x3, 0x3333)
  li x2, 0x12345678
  EXPECT_TRAP 66, CAUSE_STORE_MISALIGNED, tdata + 1, sh x2, 1(x1)
  EXPECT_TRAP 67, CAUSE_STORE_MISALIGNED, tdata + 3, sh x2, 3(x1)
  EXPECT_TRAP 68, CAUSE_STORE_MISALIGNED, tdata + 2, sw x2, 2(x1)
  EXPECT_TRAP 69, CAUSE_STORE_MISALIGNED, tdata + 5, sw x2, 5(x1)
  lw x3, 0(x1)
  CHECK(70, x3, 0xa5a5a5a5)
  lw x3, 4(x1)
  CHECK(71, x3, 0x5a5a5a5a)
  // The address is rs1 + offset: an odd base with an odd offset is aligned.
  addi x2, x1, 1
  lw x3, -1(x2)
  CHECK(72, x3, 0xa5a5a5a5)
  addi x2, x1, 3
  EXPECT_TRAP 73, CAUSE_LOAD_MISALIGNED, tdata + 5, lh x3, 2(x2)
  // Misaligned where no memory is: the misalignment is reported (the core's choice; the
  // spec allows either order).
  li x1, 0x40000000
  EXPECT_TRAP 74, CAUSE_LOAD_MISALIGNED, 0x40000001, lw x3, 1(x1)
  EXPECT_TRAP 75, CAUSE_STORE_MISALIGNED, 0x40000002, sw x3, 2(x1)
  li x1, SCRATCH
  EXPECT_TRAP 76, CAUSE_LOAD_MISALIGNED, SCRATCH + 2, lw x3, 2(x1)
  EXPECT_TRAP 77, CAUSE_STORE_MISALIGNED, SCRATCH + 1, sh x3, 1(x1)
  // Byte accesses are never misaligned.
  la x1, tdata
  lbu x3, 3(x1)
  CHECK(78, x3, 0xa5)

  // ---- access faults: mtval is the address ----
  li x3, 0x3333
  li x1, 0x40000000
  EXPECT_TRAP 90, CAUSE_LOAD_FAULT, 0x40000000, lw x3, 0(x1)
  EXPECT_TRAP 91, CAUSE_STORE_FAULT, 0x40000000, sw x1, 0(x1)
  EXPECT_TRAP 92, CAUSE_LOAD_FAULT, 0x40000003, lbu x3, 3(x1)
  // The first byte past the RAM, and the top of the hole below the MMIO space.
  li x1, 0x10000
  EXPECT_TRAP 93, CAUSE_LOAD_FAULT, 0x10000, lb x3, 0(x1)
  EXPECT_TRAP 94, CAUSE_STORE_FAULT, 0x10000, sb x1, 0(x1)
  EXPECT_TRAP 95, CAUSE_LOAD_FAULT, 0x10002, lh x3, 2(x1)
  li x1, 0x7ffffffc
  EXPECT_TRAP 96, CAUSE_LOAD_FAULT, 0x7ffffffc, lw x3, 0(x1)
  // MMIO addresses no device answers.
  li x1, 0x80000010
  EXPECT_TRAP 97, CAUSE_LOAD_FAULT, 0x80000010, lw x3, 0(x1)
  EXPECT_TRAP 98, CAUSE_STORE_FAULT, 0x80000013, sb x1, 3(x1)
  li x1, SCRATCH
  EXPECT_TRAP 99, CAUSE_LOAD_FAULT, SCRATCH - 4, lw x3, -4(x1)
  EXPECT_TRAP 100, CAUSE_STORE_FAULT, SCRATCH + 64, sw x1, 64(x1)
  EXPECT_TRAP 101, CAUSE_LOAD_FAULT, SCRATCH + 66, lhu x3, 66(x1)
  // Sign-extended offsets from x0 reach the top of the address space.
  EXPECT_TRAP 102, CAUSE_LOAD_FAULT, 0xfffffffc, lw x3, -4(x0)
  EXPECT_TRAP 103, CAUSE_STORE_FAULT, 0xfffff800, sw x1, -2048(x0)
  CHECK(104, x3, 0x3333)
  // A load to x0 still raises its exceptions.
  li x1, 0x40000000
  EXPECT_TRAP 106, CAUSE_LOAD_FAULT, 0x40000000, lw x0, 0(x1)
  EXPECT_TRAP 107, CAUSE_LOAD_MISALIGNED, 0x40000003, lhu x0, 3(x1)
  li x1, 0x80000020
  EXPECT_TRAP 108, CAUSE_LOAD_FAULT, 0x80000020, lb x0, 0(x1)
  // The faulting stores changed nothing that can be read.
  li x1, SCRATCH
  lw x3, 60(x1)
  CHECK(105, x3, 0)

  // ---- instruction access faults: mepc and mtval are the address fetched ----
  li x5, 0x3333
  la x26, 1f
  li x1, 0x40000000
fetch_jump1:
  jalr x5, 0(x1)
  FAIL(120)
1:
  CHECK(121, x27, CAUSE_INSN_FAULT)
  CHECK(122, x28, 0x40000000)
  CHECK(123, x29, 0x40000000)
  CHECK_ADDR(124, x5, fetch_jump1 + 4)
  la x26, 1f
  li x1, 0x80000000
  jr x1
  FAIL(125)
1:
  CHECK(126, x27, CAUSE_INSN_FAULT)
  CHECK(127, x28, 0x80000000)
  CHECK(128, x29, 0x80000000)
  // The last word of the RAM runs; the next fetch, at 0x10000, faults.
  li x1, 0xfffc
  li x2, 0x00130313  // addi x6, x6, 1
  sw x2, 0(x1)
  .word 0x0000100f   // fence.i
  li x6, 0
  la x26, 1f
  jr x1
  FAIL(129)
1:
  CHECK(130, x27, CAUSE_INSN_FAULT)
  CHECK(131, x28, 0x10000)
  CHECK(132, x29, 0x10000)
  CHECK(133, x6, 1)

  // ---- instruction-address-misaligned: a taken jump or branch to bit 1 set ----
  li x1, 0x1111
  EXPECT_TRAP_REL 140, CAUSE_INSN_MISALIGNED, 6, jal x1, . + 6
  EXPECT_TRAP_REL 141, CAUSE_INSN_MISALIGNED, -2, jal x1, . - 2
  CHECK(142, x1, 0x1111)
  la x2, misaligned_target
  EXPECT_TRAP 143, CAUSE_INSN_MISALIGNED, misaligned_target + 2, jalr x1, 2(x2)
  // Bit 0 is cleared first: + 3 lands on + 2.
  EXPECT_TRAP 144, CAUSE_INSN_MISALIGNED, misaligned_target + 2, jalr x1, 3(x2)
  // rd == rs1: not written either.
  addi x7, x2, 6
  EXPECT_TRAP 145, CAUSE_INSN_MISALIGNED, misaligned_target + 6, jalr x7, 0(x7)
  la x2, misaligned_target + 6
  CHECK_REG(146, x7, x2)
  CHECK(147, x1, 0x1111)
  EXPECT_TRAP_REL 148, CAUSE_INSN_MISALIGNED, 6, beq x0, x0, . + 6
  li x2, 1
  EXPECT_TRAP_REL 149, CAUSE_INSN_MISALIGNED, -6, blt x0, x2, . - 6
  EXPECT_TRAP_REL 150, CAUSE_INSN_MISALIGNED, 10, bgeu x2, x0, . + 10
  // Not taken: no exception, whatever the target.
  bne x0, x0, . + 6
  bltu x2, x0, . - 2
  // Bit 0 alone is cleared by JALR: no exception.
  la x2, misaligned_ok + 1
  jalr x1, 0(x2)
  FAIL(151)
misaligned_ok:

  // ---- MRET and mstatus.MIE/MPIE (mie is 0: nothing can be taken) ----
  // Trap entry: MPIE = MIE, MIE = 0; MRET: MIE = MPIE, MPIE = 1.
  la x1, status_handler
  csrw mtvec, x1
  csrsi mstatus, MSTATUS_MIE
  ecall
  CHECK(170, x20, MSTATUS_MPP | MSTATUS_MPIE)
  csrr x3, mstatus
  CHECK(171, x3, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE)
  csrci mstatus, MSTATUS_MIE
  ebreak
  CHECK(172, x20, MSTATUS_MPP)
  csrr x3, mstatus
  CHECK(173, x3, MSTATUS_MPP | MSTATUS_MPIE)
  csrw mstatus, x0
  ecall
  CHECK(174, x20, MSTATUS_MPP)
  csrr x3, mstatus
  CHECK(175, x3, MSTATUS_MPP | MSTATUS_MPIE)
  // MRET by itself: to mepc, MIE from MPIE.
  li x1, MSTATUS_MPIE
  csrw mstatus, x1
  la x1, 1f
  csrw mepc, x1
  mret
  FAIL(176)
1:
  csrr x3, mstatus
  CHECK(177, x3, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE)
  csrw mstatus, x0
  la x1, 1f
  csrw mepc, x1
  mret
  FAIL(178)
1:
  csrr x3, mstatus
  CHECK(179, x3, MSTATUS_MPP | MSTATUS_MPIE)
  // mcause, mepc, mtval of the last trap stay until the next one.
  csrr x3, mcause
  CHECK(180, x3, CAUSE_ECALL_M)

  // ---- interrupts ----
  la x1, irq_handler
  csrw mtvec, x1
  li x20, 0
  csrw mstatus, x0
  li x1, -1
  csrw mtval, x1
  // Software, masked by mstatus.MIE: pending in mip, not taken.
  LOG_START
  li x1, MIE_MSIE
  csrw mie, x1
  IRQ_ON IRQ_LINE_SOFT
  nop
  nop
  nop
  csrr x3, mip
  CHECK(200, x3, MIE_MSIE)
  CHECK(201, x25, 0)
  // Setting MIE takes it before the next instruction.
  csrsi mstatus, MSTATUS_MIE
irq_after_mie:
  CHECK(202, x25, 1)
  CHECK_LOG 203, 0, IRQ_SOFT
  CHECK_LOG_EPC 204, 0, irq_after_mie
  // The handler cleared the line; MRET set MIE again.
  csrr x3, mip
  CHECK(205, x3, 0)
  csrr x3, mstatus
  CHECK(206, x3, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE)
  // Timer, masked by mie: pending, not taken until mie.MTIE is set.
  LOG_START
  csrw mie, x0
  IRQ_ON IRQ_LINE_TIMER
  nop
  nop
  nop
  csrr x3, mip
  CHECK(207, x3, MIE_MTIE)
  CHECK(208, x25, 0)
  li x1, MIE_MTIE
  csrs mie, x1
irq_after_mtie:
  CHECK(209, x25, 1)
  CHECK_LOG 210, 0, IRQ_TIMER
  CHECK_LOG_EPC 211, 0, irq_after_mtie
  // Only its own enable bit counts: MSIE and MEIE do not let a timer interrupt in.
  LOG_START
  li x1, MIE_MSIE | MIE_MEIE
  csrw mie, x1
  IRQ_ON IRQ_LINE_TIMER
  li x3, 20
1:
  addi x3, x3, -1
  bnez x3, 1b
  CHECK(212, x25, 0)
  li x1, IRQ_CLR
  li x2, IRQ_LINE_TIMER
  sw x2, 0(x1)
  nop
  csrr x3, mip
  CHECK(213, x3, 0)
  // External, raised while enabled: taken within a few instructions.
  LOG_START
  li x1, MIE_MEIE
  csrw mie, x1
  IRQ_ON IRQ_LINE_EXT
  WAIT_IRQ 214, 1
  CHECK_LOG 215, 0, IRQ_EXT
  csrr x3, mip
  CHECK(216, x3, 0)
  // Level-triggered: a handler that leaves the line up is entered again at once.
  LOG_START
  li x20, 3
  li x1, MIE_MSIE
  csrw mie, x1
  IRQ_ON IRQ_LINE_SOFT
  WAIT_IRQ 217, 3
  li x3, 20
1:
  addi x3, x3, -1
  bnez x3, 1b
  CHECK(218, x25, 3)
  // The second and third entries interrupt the same instruction.
  la x5, irq_log
  lw x3, 16(x5)
  lw x4, 28(x5)
  CHECK_REG(219, x3, x4)
  li x20, 0
  // MIE = 0 in the handler: a line raised there waits for MRET.
  LOG_START
  li x1, MIE_MSIE | MIE_MTIE
  csrw mie, x1
  li x21, 1
  la x1, irq_nest_flag
  sw x21, 0(x1)
  IRQ_ON IRQ_LINE_TIMER
  WAIT_IRQ 220, 2
  CHECK_LOG 221, 0, IRQ_TIMER
  CHECK_LOG 222, 1, IRQ_SOFT
  la x5, irq_log
  lw x3, 4(x5)
  lw x4, 16(x5)
  CHECK_REG(223, x3, x4)
  csrw mie, x0

  // ---- priority: external, then software, then timer ----
  csrci mstatus, MSTATUS_MIE
  li x1, MIE_MSIE | MIE_MTIE | MIE_MEIE
  csrw mie, x1
  LOG_START
  IRQ_ON IRQ_LINE_SOFT | IRQ_LINE_TIMER | IRQ_LINE_EXT
  nop
  csrsi mstatus, MSTATUS_MIE
irq_prio_all:
  CHECK(260, x25, 3)
  CHECK_LOG 261, 0, IRQ_EXT
  CHECK_LOG 262, 1, IRQ_SOFT
  CHECK_LOG 263, 2, IRQ_TIMER
  // Each one after an MRET is taken before the instruction MRET returns to.
  CHECK_LOG_EPC 264, 0, irq_prio_all
  CHECK_LOG_EPC 265, 1, irq_prio_all
  CHECK_LOG_EPC 266, 2, irq_prio_all
  csrci mstatus, MSTATUS_MIE
  LOG_START
  IRQ_ON IRQ_LINE_TIMER | IRQ_LINE_SOFT
  nop
  csrsi mstatus, MSTATUS_MIE
  CHECK(267, x25, 2)
  CHECK_LOG 268, 0, IRQ_SOFT
  CHECK_LOG 269, 1, IRQ_TIMER
  csrci mstatus, MSTATUS_MIE
  LOG_START
  IRQ_ON IRQ_LINE_TIMER | IRQ_LINE_EXT
  nop
  csrsi mstatus, MSTATUS_MIE
  CHECK(270, x25, 2)
  CHECK_LOG 271, 0, IRQ_EXT
  CHECK_LOG 272, 1, IRQ_TIMER
  csrci mstatus, MSTATUS_MIE
  LOG_START
  IRQ_ON IRQ_LINE_SOFT | IRQ_LINE_EXT
  nop
  csrsi mstatus, MSTATUS_MIE
  CHECK(273, x25, 2)
  CHECK_LOG 274, 0, IRQ_EXT
  CHECK_LOG 275, 1, IRQ_SOFT
  // A pending interrupt that is not enabled does not hold up a lower one.
  csrci mstatus, MSTATUS_MIE
  li x1, MIE_MTIE
  csrw mie, x1
  LOG_START
  IRQ_ON IRQ_LINE_TIMER | IRQ_LINE_EXT
  nop
  csrsi mstatus, MSTATUS_MIE
  CHECK(276, x25, 1)
  CHECK_LOG 277, 0, IRQ_TIMER
  csrr x3, mip
  CHECK(278, x3, MIE_MEIE)
  li x1, IRQ_CLR
  li x2, IRQ_LINE_EXT
  sw x2, 0(x1)
  csrw mie, x0
  // An interrupt before an ECALL is taken first (mepc the ECALL, which has not run);
  // after MRET the ECALL traps.
  csrci mstatus, MSTATUS_MIE
  li x1, MIE_MSIE
  csrw mie, x1
  LOG_START
  IRQ_ON IRQ_LINE_SOFT
  nop
  la x26, 1f
  csrsi mstatus, MSTATUS_MIE
irq_then_ecall:
  ecall
  FAIL(279)
1:
  CHECK(280, x25, 1)
  CHECK_LOG 281, 0, IRQ_SOFT
  CHECK_LOG_EPC 282, 0, irq_then_ecall
  CHECK(283, x27, CAUSE_ECALL_M)
  CHECK_ADDR(284, x28, irq_then_ecall)
  csrw mie, x0

  // ---- vectored mtvec: interrupts to base + 4 * cause, exceptions to base ----
  la x1, vec_table + 1
  csrw mtvec, x1
  csrr x3, mtvec
  CHECK_ADDR(300, x3, vec_table + 1)
  csrci mstatus, MSTATUS_MIE
  li x1, MIE_MSIE | MIE_MTIE | MIE_MEIE
  csrw mie, x1
  LOG_START
  li x19, 0
  IRQ_ON IRQ_LINE_SOFT | IRQ_LINE_TIMER | IRQ_LINE_EXT
  nop
  csrsi mstatus, MSTATUS_MIE
  CHECK(301, x25, 3)
  CHECK_LOG 302, 0, IRQ_EXT
  CHECK_LOG 303, 1, IRQ_SOFT
  CHECK_LOG 304, 2, IRQ_TIMER
  // x19: the vector numbers, in order, one per 4 bits.
  CHECK(305, x19, 0xb37)
  // An exception goes to the base.
  EXPECT_TRAP 306, CAUSE_ECALL_M, 0, ecall
  CHECK(307, x19, 0xb37)
  EXPECT_ILLEGAL 308, .word 0
  la x1, irq_handler
  csrw mtvec, x1
  csrw mie, x0

  // ---- WFI: a no-op here, also with an interrupt pending but masked ----
  li x3, 1
  wfi
  addi x3, x3, 1
  IRQ_ON IRQ_LINE_SOFT
  wfi
  addi x3, x3, 1
  CHECK(330, x3, 3)
  CHECK(331, x25, 3)
  li x1, MIE_MSIE
  LOG_START
  csrw mie, x1
irq_after_wfi:
  CHECK(332, x25, 1)
  CHECK_LOG_EPC 333, 0, irq_after_wfi
  // An interrupt raised right before a division (which stalls for 34 cycles): the
  // division runs once, whole, after the handler.
  LOG_START
  li x6, 1000000
  li x7, 7
  li x8, 0
  li x1, MIE_MEIE
  csrw mie, x1
  IRQ_ON IRQ_LINE_EXT
  div x9, x6, x7
  add x8, x8, x9
  div x9, x6, x7
  add x8, x8, x9
  div x9, x6, x7
  add x8, x8, x9
  CHECK(334, x8, 3 * 142857)
  CHECK(335, x25, 1)
  csrw mie, x0
  csrw mstatus, x0

  PASS

  // ---- handlers ----
  // Reads mstatus at entry into x20, skips the trapping instruction.
  .align 2
status_handler:
  csrr x20, mstatus
  csrr x21, mepc
  addi x21, x21, 4
  csrw mepc, x21
  mret

  // Interrupts: log them, clear the line (from the x20-th entry on), return. An exception
  // goes to the expect-trap handler. With irq_nest_flag set, the first entry raises the
  // software line too, which must wait for MRET.
  .align 2
irq_handler:
  csrr x21, mcause
  bgez x21, trap_expect
  sw x21, 0(x24)
  csrr x23, mepc
  sw x23, 4(x24)
  csrr x22, mtval
  sw x22, 8(x24)
  addi x24, x24, 12
  addi x25, x25, 1
  la x22, irq_nest_flag
  lw x22, 0(x22)
  beqz x22, 2f
  la x22, irq_nest_flag
  sw x0, 0(x22)
  li x22, IRQ_SET
  li x23, IRQ_LINE_SOFT
  sw x23, 0(x22)
  nop
  nop
  csrr x22, mip
  andi x22, x22, MIE_MSIE
  bnez x22, 2f
  li x29, 224  // the raised line is not seen in mip
  j test_fail
2:
  blt x25, x20, 1f
  andi x21, x21, 31
  srli x21, x21, 2
  li x22, 1
  sll x22, x22, x21
  li x21, IRQ_CLR
  sw x22, 0(x21)
1:
  mret

  // The vector table: exceptions at 0, MSI at 12, MTI at 28, MEI at 44.
  .align 8
vec_table:
  j trap_expect
  .rept 2
  j vec_bad
  .endr
  j vec_soft
  .rept 3
  j vec_bad
  .endr
  j vec_timer
  .rept 3
  j vec_bad
  .endr
  j vec_ext
  .rept 20
  j vec_bad
  .endr
vec_bad:
  FAIL(310)
vec_soft:
  slli x19, x19, 4
  ori x19, x19, 3
  j irq_handler
vec_timer:
  slli x19, x19, 4
  ori x19, x19, 7
  j irq_handler
vec_ext:
  slli x19, x19, 4
  ori x19, x19, 11
  j irq_handler

  // Its offset 2 and 6 are targets of misaligned jumps.
  .align 2
misaligned_target:
  nop
  nop

  .data
  .align 4
tdata:
  .word 0xa5a5a5a5, 0x5a5a5a5a
irq_nest_flag:
  .word 0
irq_log:
  .skip 12 * 16

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// zicsr: the Zicsr instructions (unprivileged spec, "Zicsr, Control and Status Register
// Instructions") and the machine-mode CSRs the softcore has (privileged spec, "Machine-
// Level CSRs"). CSRRW CSRRS CSRRC CSRRWI CSRRSI CSRRCI return the old value and write
// the new one; CSRRS/CSRRC with rs1 = x0 (or uimm = 0) do not write, so they may read a
// read-only CSR, while any writing form of a read-only CSR (address bits 11:10 = 3),
// even one with a register that holds 0, is an illegal instruction, as is an unknown
// CSR. Then each CSR's fixed and WARL bits, minstret counting exactly the retired
// instructions (a write replaces the increment; a trapped ECALL does not count), and
// mcycle and time increasing.
//
// Tests 1-: the six instructions on mscratch; 50-: illegal accesses; 100-: fixed CSRs;
// 150-: trap CSRs' fields; 200-: minstret; 250-: mcycle and time.
#include "isa_macros.inc"

  TEST_START

  // ---- the six instructions, on mscratch (all 32 bits read/write) ----
  li x1, 0x12345678
  csrw mscratch, x1
  li x1, 0xfedcba98
  csrrw x3, mscratch, x1
  CHECK(1, x3, 0x12345678)
  csrr x3, mscratch
  CHECK(2, x3, 0xfedcba98)
  li x1, 0x0000ffff
  csrrs x3, mscratch, x1
  CHECK(3, x3, 0xfedcba98)
  csrr x3, mscratch
  CHECK(4, x3, 0xfedcffff)
  li x1, 0xff0000f0
  csrrc x3, mscratch, x1
  CHECK(5, x3, 0xfedcffff)
  csrr x3, mscratch
  CHECK(6, x3, 0x00dcff0f)
  csrrwi x3, mscratch, 0x1f
  CHECK(7, x3, 0x00dcff0f)
  csrr x3, mscratch
  CHECK(8, x3, 0x1f)
  csrrci x3, mscratch, 0x0a
  CHECK(9, x3, 0x1f)
  csrr x3, mscratch
  CHECK(10, x3, 0x15)
  csrrsi x3, mscratch, 0x0a
  CHECK(11, x3, 0x15)
  csrr x3, mscratch
  CHECK(12, x3, 0x1f)
  // CSRRWI with 0 writes (unlike CSRRSI/CSRRCI with 0).
  csrrwi x3, mscratch, 0
  CHECK(13, x3, 0x1f)
  csrr x3, mscratch
  CHECK(14, x3, 0)
  // rs1 = x0: CSRRS and CSRRC read only; CSRRW writes 0.
  li x1, 0xa5a5a5a5
  csrw mscratch, x1
  csrrs x3, mscratch, x0
  csrrc x4, mscratch, x0
  csrrsi x5, mscratch, 0
  csrrci x6, mscratch, 0
  CHECK(15, x3, 0xa5a5a5a5)
  CHECK(16, x4, 0xa5a5a5a5)
  CHECK(17, x5, 0xa5a5a5a5)
  CHECK(18, x6, 0xa5a5a5a5)
  csrrw x3, mscratch, x0
  CHECK(19, x3, 0xa5a5a5a5)
  csrr x3, mscratch
  CHECK(20, x3, 0)
  // rd = x0: the write happens, x0 stays 0.
  li x1, 0x600d
  csrrw x0, mscratch, x1
  mv x3, x0
  CHECK(21, x3, 0)
  csrr x3, mscratch
  CHECK(22, x3, 0x600d)
  // rd == rs1: the old value to rd, the register's old value to the CSR (a swap).
  li x1, 0xbeef
  csrrw x1, mscratch, x1
  CHECK(23, x1, 0x600d)
  csrr x3, mscratch
  CHECK(24, x3, 0xbeef)
  li x1, 0x0f00
  csrrs x1, mscratch, x1
  CHECK(25, x1, 0xbeef)
  csrr x3, mscratch
  CHECK(26, x3, 0xbfef)
  // A CSR read used by the next instruction; a write read back by the next one; a
  // source produced (or loaded) by the instruction just before.
  csrr x3, mscratch
  addi x4, x3, 1
  CHECK(27, x4, 0xbff0)
  li x1, 0x7777
  csrw mscratch, x1
  csrr x3, mscratch
  CHECK(28, x3, 0x7777)
  la x1, csr_word
  lw x2, 0(x1)
  csrrw x3, mscratch, x2
  csrrs x4, mscratch, x0
  CHECK(29, x3, 0x7777)
  CHECK(30, x4, 0x13579bdf)

  // ---- illegal: writes to read-only CSRs, unknown CSRs ----
  li x3, 0x3333
  li x5, 0
  EXPECT_ILLEGAL 50, csrrw x3, mhartid, x1
  CHECK(51, x3, 0x3333)
  EXPECT_ILLEGAL 52, csrrwi x3, mvendorid, 0
  EXPECT_ILLEGAL 53, csrrw x0, marchid, x0
  EXPECT_ILLEGAL 54, csrrsi x3, cycle, 1
  EXPECT_ILLEGAL 55, csrrc x3, instret, x1
  // rs1 is not x0 but holds 0: still a write.
  EXPECT_ILLEGAL 56, csrrs x3, mimpid, x5
  EXPECT_ILLEGAL 57, csrrc x3, time, x5
  EXPECT_ILLEGAL 58, csrrw x3, cycleh, x1
  EXPECT_ILLEGAL 59, csrrwi x3, instreth, 1
  EXPECT_ILLEGAL 60, csrrsi x3, timeh, 4
  EXPECT_ILLEGAL 61, csrrw x3, CSR_NCTX, x1
  CHECK(62, x3, 0x3333)
  // Unknown CSRs: no S mode, no PMP, no debug mode, no F.
  EXPECT_ILLEGAL 63, csrr x3, satp
  EXPECT_ILLEGAL 64, csrr x3, sstatus
  EXPECT_ILLEGAL 65, csrw pmpcfg0, x1
  EXPECT_ILLEGAL 66, csrr x3, dcsr
  EXPECT_ILLEGAL 67, csrr x3, fflags
  EXPECT_ILLEGAL 68, csrr x3, 0x7c4
  EXPECT_ILLEGAL 69, csrrsi x3, 0xfc1, 0
  EXPECT_ILLEGAL 70, csrrs x0, 0x000, x0
  CHECK(71, x3, 0x3333)
  // SYSTEM with funct3 = 4 is no CSR instruction (and writes nothing).
  li x1, 0x4444
  csrw mscratch, x1
  EXPECT_ILLEGAL 72, .word 0x3400c1f3  // funct3 4, csr mscratch, rs1 x1, rd x3
  csrr x3, mscratch
  CHECK(73, x3, 0x4444)
  // Read-only CSRs read with rs1 = x0 or uimm = 0 are legal.
  csrrs x3, mhartid, x0
  CHECK(74, x3, 0)
  csrrsi x3, mvendorid, 0
  CHECK(75, x3, 0)
  csrrci x3, CSR_NCTX, 0
  sltiu x3, x3, 1
  CHECK(76, x3, 0)

  // ---- fixed CSRs ----
  csrr x3, misa
  CHECK(100, x3, 0x40001100)  // MXL = 1 (32 bits), I, M
  // misa is read/write but WARL: a write of 0 may be, and here is, ignored.
  csrw misa, x0
  csrr x3, misa
  CHECK(101, x3, 0x40001100)
  csrr x3, mvendorid
  CHECK(102, x3, 0)
  csrr x3, marchid
  CHECK(103, x3, 0)
  csrr x3, mimpid
  CHECK(104, x3, 0)
  csrr x3, mhartid
  CHECK(105, x3, 0)
  // Read-only zero, as the privileged specification allows: mstatush, mconfigptr, the
  // performance counters 3-31 and their events (writes are ignored, not illegal).
  csrr x3, 0x310
  CHECK(106, x3, 0)
  csrr x3, 0xF15
  CHECK(107, x3, 0)
  li x4, -1
  csrw 0xB03, x4
  csrr x3, 0xB03
  CHECK(108, x3, 0)
  csrw 0xB9F, x4
  csrr x3, 0xB9F
  CHECK(109, x3, 0)
  csrw 0x323, x4
  csrr x3, 0x323
  CHECK(110, x3, 0)
  csrr x3, 0x33F
  CHECK(111, x3, 0)

  // ---- the trap CSRs' fields ----
  // mstatus: MIE (3) and MPIE (7) only; MPP reads 3 (M is the only mode). The MRETs of
  // the traps above left MPIE set.
  csrr x3, mstatus
  CHECK(150, x3, MSTATUS_MPP | MSTATUS_MPIE)
  li x1, MSTATUS_MIE | MSTATUS_MPIE
  csrs mstatus, x1
  csrr x3, mstatus
  CHECK(151, x3, MSTATUS_MPP | MSTATUS_MIE | MSTATUS_MPIE)
  csrw mstatus, x0
  csrr x3, mstatus
  CHECK(152, x3, MSTATUS_MPP)
  csrci mstatus, MSTATUS_MIE
  csrsi mstatus, MSTATUS_MIE
  csrr x3, mstatus
  CHECK(153, x3, MSTATUS_MPP | MSTATUS_MIE)
  csrw mstatus, x0
  // mie: MSIE, MTIE, MEIE only (mip is all zero, so nothing is taken).
  li x1, -1
  csrrw x3, mie, x1
  CHECK(154, x3, 0)
  csrr x3, mie
  CHECK(155, x3, MIE_MSIE | MIE_MTIE | MIE_MEIE)
  li x1, MIE_MTIE
  csrc mie, x1
  csrr x3, mie
  CHECK(156, x3, MIE_MSIE | MIE_MEIE)
  csrw mie, x0
  // mip: no line is up; its bits are not written by software here.
  csrr x3, mip
  CHECK(157, x3, 0)
  li x1, -1
  csrs mip, x1
  csrr x3, mip
  CHECK(158, x3, 0)
  // mtvec: BASE and MODE 0 (direct) or 1 (vectored).
  csrr x8, mtvec
  CHECK_ADDR(159, x8, trap_expect)
  li x1, 0x1000
  csrw mtvec, x1
  csrr x3, mtvec
  CHECK(160, x3, 0x1000)
  li x1, 0x2001
  csrw mtvec, x1
  csrr x3, mtvec
  CHECK(161, x3, 0x2001)
  csrw mtvec, x8
  // mepc: bits 1:0 are always 0 (no instruction is shorter than four bytes).
  li x1, 0x12345677
  csrw mepc, x1
  csrr x3, mepc
  CHECK(162, x3, 0x12345674)
  li x1, -1
  csrw mepc, x1
  csrr x3, mepc
  CHECK(163, x3, 0xfffffffc)
  // mcause and mtval keep what is written (legal values).
  li x1, 0x8000000b
  csrw mcause, x1
  csrr x3, mcause
  CHECK(164, x3, 0x8000000b)
  csrwi mcause, 2
  csrr x3, mcause
  CHECK(165, x3, 2)
  li x1, 0xdeadbeef
  csrw mtval, x1
  csrr x3, mtval
  CHECK(166, x3, 0xdeadbeef)

  // ---- minstret: counts retired instructions ----
  csrr x10, minstret
  addi x0, x0, 0
  addi x0, x0, 0
  addi x0, x0, 0
  csrr x11, minstret
  sub x3, x11, x10
  CHECK(200, x3, 4)
  // instret (user view) is the same counter, one instruction later.
  csrr x10, minstret
  csrr x11, instret
  sub x3, x11, x10
  CHECK(201, x3, 1)
  // A write replaces the writing instruction's increment: the next one reads it.
  li x1, 1000
  csrw minstret, x1
  csrr x3, minstret
  csrrw x4, minstret, x1
  csrr x5, minstret
  CHECK(202, x3, 1000)
  CHECK(203, x4, 1001)
  CHECK(204, x5, 1000)
  // The carry into minstreth.
  li x1, 5
  csrw minstreth, x1
  li x1, 0xfffffffd
  csrw minstret, x1
  nop
  nop
  nop
  csrr x3, minstret
  csrr x4, minstreth
  csrr x5, instreth
  CHECK(205, x3, 0)
  CHECK(206, x4, 6)
  CHECK(207, x5, 6)
  // A branch taken and not taken, a load, a store, a division count once each.
  la x1, csr_word
  csrr x10, minstret
  beq x0, x0, 1f
  nop
1:
  bne x0, x0, 1f
  lw x2, 0(x1)
  sw x2, 4(x1)
  div x2, x2, x1
1:
  csrr x11, minstret
  sub x3, x11, x10
  CHECK(208, x3, 6)
  // A trapping ECALL does not retire: 1 (csrr) + 4 (the handler) counted.
  la x1, count_handler
  csrw mtvec, x1
  csrr x10, minstret
  ecall
  csrr x11, minstret
  csrw mtvec, x8
  sub x3, x11, x10
  CHECK(209, x3, 5)
  // Neither does an illegal instruction.
  csrw mtvec, x1
  csrr x10, minstret
  .word 0
  csrr x11, minstret
  csrw mtvec, x8
  sub x3, x11, x10
  CHECK(210, x3, 5)

  // ---- mcycle, cycle, time: increasing ----
  csrr x10, mcycle
  csrr x11, mcycle
  sltu x3, x10, x11
  CHECK(250, x3, 1)
  csrr x10, cycle
  nop
  nop
  csrr x11, cycle
  sub x3, x11, x10
  sltiu x3, x3, 3
  CHECK(251, x3, 0)
  // Written, then counting on from the value written.
  li x1, 0x100
  csrw mcycle, x1
  csrr x3, mcycle
  addi x3, x3, -0x100
  sltiu x4, x3, 10
  CHECK(252, x4, 1)
  li x1, 7
  csrw mcycleh, x1
  csrr x3, mcycleh
  CHECK(253, x3, 7)
  csrr x3, cycleh
  CHECK(254, x3, 7)
  csrw mcycleh, x0
  csrr x10, time
  nop
  csrr x11, time
  sltu x3, x10, x11
  CHECK(255, x3, 1)
  csrr x3, timeh
  CHECK(256, x3, 0)

  PASS

  // Skips the trapping instruction: 4 instructions.
  .align 2
count_handler:
  csrr x27, mepc
  addi x27, x27, 4
  csrw mepc, x27
  mret

  .data
  .align 2
csr_word:
  .word 0x13579bdf, 0

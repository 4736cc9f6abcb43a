// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv32i_mem: the RV32I loads and stores (unprivileged spec, "Load and Store
// Instructions"): LB LH LW LBU LHU at every aligned offset with sign and zero extension,
// SB SH SW at every offset changing only their own bytes, the ends of the 12-bit offset,
// a store read back by the very next load, a loaded value used by the very next
// instruction (as an operand, an address, store data, a branch operand), the first and
// last words of the RAM, the test bench's MMIO scratch words (the core extends MMIO
// loads on another path than RAM loads), FENCE, and FENCE.I after code is rewritten.
// Misaligned and faulting accesses are in traps.S.
//
// Tests 1-30: loads; 101-128: stores; 200-: offsets; 220-: dependences; 260-: the RAM's
// ends; 300-: MMIO; 400-: FENCE and FENCE.I.
#include "isa_macros.inc"

// LD n, op, expected, off: op x3 at ldata + off, from the base ldata.
.macro LD n, op, exp, off
  la x1, ldata
  \op x3, \off(x1)
  _check \n, x3, \exp
.endm

// LD_M: the same from the base ldata + 8 (a negative offset for the first two words).
.macro LD_M n, op, exp, off
  la x1, ldata + 8
  \op x3, (\off - 8)(x1)
  _check \n, x3, \exp
.endm

// ST n, op, value, off, word0, word1: op value at sdata + off, with sdata's two words
// set to a5a5a5a5 5a5a5a5a first; the words read back right after the store.
.macro ST n, op, value, off, w0, w1
  la x1, sdata
  li x2, 0xa5a5a5a5
  sw x2, 0(x1)
  li x2, 0x5a5a5a5a
  sw x2, 4(x1)
  li x2, \value
  \op x2, \off(x1)
  lw x3, 0(x1)
  lw x4, 4(x1)
  _check \n, x3, \w0
  _check \n, x4, \w1
.endm

  TEST_START


  // lb: every byte of ldata
  LD     1, lb , 0xffffff81, 0
  LD_M   2, lb , 0x0000007f, 1
  LD     3, lb , 0x00000000, 2
  LD_M   4, lb , 0xffffffff, 3
  LD     5, lb , 0x00000001, 4
  LD_M   6, lb , 0xffffff80, 5
  LD     7, lb , 0xfffffffe, 6
  LD_M   8, lb , 0x0000007f, 7

  // lbu: every byte of ldata
  LD     9, lbu, 0x00000081, 0
  LD_M  10, lbu, 0x0000007f, 1
  LD    11, lbu, 0x00000000, 2
  LD_M  12, lbu, 0x000000ff, 3
  LD    13, lbu, 0x00000001, 4
  LD_M  14, lbu, 0x00000080, 5
  LD    15, lbu, 0x000000fe, 6
  LD_M  16, lbu, 0x0000007f, 7

  // lh: every halfword of ldata
  LD    17, lh , 0x00007f81, 0
  LD_M  18, lh , 0xffffff00, 2
  LD    19, lh , 0xffff8001, 4
  LD_M  20, lh , 0x00007ffe, 6

  // lhu: every halfword of ldata
  LD    21, lhu, 0x00007f81, 0
  LD_M  22, lhu, 0x0000ff00, 2
  LD    23, lhu, 0x00008001, 4
  LD_M  24, lhu, 0x00007ffe, 6

  // lw: every word of ldata
  LD    25, lw , 0xff007f81, 0
  LD_M  26, lw , 0x7ffe8001, 4
  LD    27, lw , 0x80000000, 8
  LD_M  28, lw , 0xffffffff, 12
  LD    29, lw , 0x00000000, 16
  LD_M  30, lw , 0x12345678, 20

  // sb: at every offset, only its bytes change (the words start as a5a5a5a5 5a5a5a5a)
  ST   101, sb, 0x12345681, 0, 0xa5a5a581, 0x5a5a5a5a
  ST   102, sb, 0x12345681, 1, 0xa5a581a5, 0x5a5a5a5a
  ST   103, sb, 0x12345681, 2, 0xa581a5a5, 0x5a5a5a5a
  ST   104, sb, 0x12345681, 3, 0x81a5a5a5, 0x5a5a5a5a
  ST   105, sb, 0x12345681, 4, 0xa5a5a5a5, 0x5a5a5a81
  ST   106, sb, 0x12345681, 5, 0xa5a5a5a5, 0x5a5a815a
  ST   107, sb, 0x12345681, 6, 0xa5a5a5a5, 0x5a815a5a
  ST   108, sb, 0x12345681, 7, 0xa5a5a5a5, 0x815a5a5a
  ST   109, sb, 0xffffff7f, 0, 0xa5a5a57f, 0x5a5a5a5a
  ST   110, sb, 0xffffff7f, 1, 0xa5a57fa5, 0x5a5a5a5a
  ST   111, sb, 0xffffff7f, 2, 0xa57fa5a5, 0x5a5a5a5a
  ST   112, sb, 0xffffff7f, 3, 0x7fa5a5a5, 0x5a5a5a5a
  ST   113, sb, 0xffffff7f, 4, 0xa5a5a5a5, 0x5a5a5a7f
  ST   114, sb, 0xffffff7f, 5, 0xa5a5a5a5, 0x5a5a7f5a
  ST   115, sb, 0xffffff7f, 6, 0xa5a5a5a5, 0x5a7f5a5a
  ST   116, sb, 0xffffff7f, 7, 0xa5a5a5a5, 0x7f5a5a5a

  // sh: at every offset, only its bytes change (the words start as a5a5a5a5 5a5a5a5a)
  ST   117, sh, 0x12345681, 0, 0xa5a55681, 0x5a5a5a5a
  ST   118, sh, 0x12345681, 2, 0x5681a5a5, 0x5a5a5a5a
  ST   119, sh, 0x12345681, 4, 0xa5a5a5a5, 0x5a5a5681
  ST   120, sh, 0x12345681, 6, 0xa5a5a5a5, 0x56815a5a
  ST   121, sh, 0xffffff7f, 0, 0xa5a5ff7f, 0x5a5a5a5a
  ST   122, sh, 0xffffff7f, 2, 0xff7fa5a5, 0x5a5a5a5a
  ST   123, sh, 0xffffff7f, 4, 0xa5a5a5a5, 0x5a5aff7f
  ST   124, sh, 0xffffff7f, 6, 0xa5a5a5a5, 0xff7f5a5a

  // sw: at every offset, only its bytes change (the words start as a5a5a5a5 5a5a5a5a)
  ST   125, sw, 0x80000001, 0, 0x80000001, 0x5a5a5a5a
  ST   126, sw, 0x80000001, 4, 0xa5a5a5a5, 0x80000001
  ST   127, sw, 0xfedcba98, 0, 0xfedcba98, 0x5a5a5a5a
  ST   128, sw, 0xfedcba98, 4, 0xa5a5a5a5, 0xfedcba98

  // ---- the ends of the offset; a base that is odd while the address is not ----
  la x1, ldata + 2048
  lw x3, -2048(x1)
  CHECK(200, x3, 0xff007f81)
  la x1, ldata - 2047
  lw x3, 2047(x1)
  CHECK(201, x3, 0xff007f81)
  la x1, ldata + 4 - 2047
  lh x3, 2047(x1)
  CHECK(202, x3, 0xffff8001)
  la x1, sdata + 2048
  li x2, 0x13579bdf
  sw x2, -2048(x1)
  la x1, sdata + 4 - 2047
  li x2, 0x2468ace0
  sw x2, 2047(x1)
  la x1, sdata
  lw x3, 0(x1)
  CHECK(203, x3, 0x13579bdf)
  lw x3, 4(x1)
  CHECK(204, x3, 0x2468ace0)

  // ---- dependences on a load (its value is aligned and extended in W, then forwarded) ----
  la x1, ldata
  lw x3, 0(x1)
  add x4, x3, x3
  CHECK(220, x4, 0xfe00ff02)
  lb x3, 0(x1)
  addi x4, x3, 1
  CHECK(221, x4, 0xffffff82)
  lhu x3, 2(x1)
  sub x4, x0, x3
  CHECK(222, x4, 0xffff0100)
  lh x3, 4(x1)
  add x4, x0, x3
  CHECK(223, x4, 0xffff8001)
  lbu x3, 5(x1)
  slli x4, x3, 24
  CHECK(224, x4, 0x80000000)
  // A pointer chase: each address is the load just before.
  la x1, ptr0
  lw x2, 0(x1)
  lw x3, 0(x2)
  lw x4, 4(x3)
  CHECK(225, x4, 0x7ffe8001)
  // rd == rs1.
  la x1, ptr1
  lw x1, 0(x1)
  lw x1, 0(x1)
  CHECK(226, x1, 0xff007f81)
  // Store data from the load just before, and a store address from it.
  la x1, ldata
  la x5, sdata
  lw x3, 20(x1)
  sw x3, 0(x5)
  lw x6, 0(x5)
  CHECK(227, x6, 0x12345678)
  lbu x3, 1(x1)
  sb x3, 6(x5)
  lw x6, 4(x5)
  CHECK(228, x6, 0x007f0000 | (0x2468ace0 & 0xff00ffff))
  la x1, ptr2
  li x2, 0x0badf00d
  lw x3, 0(x1)
  sw x2, 0(x3)
  lw x6, 0(x5)
  CHECK(229, x6, 0x0badf00d)
  // A branch on the load just before.
  la x1, ldata
  li x2, 0xffffff80
  lb x3, 5(x1)
  beq x3, x2, 1f
  FAIL(230)
1:
  lbu x3, 5(x1)
  bltu x3, x2, 1f
  FAIL(231)
1:
  // Two writes of one register in a row, loads and ALU mixed: the later one wins.
  lw x3, 0(x1)
  lw x3, 4(x1)
  mv x4, x3
  CHECK(232, x4, 0x7ffe8001)
  lw x3, 0(x1)
  addi x3, x0, 5
  mv x4, x3
  CHECK(233, x4, 5)
  addi x3, x0, 5
  lw x3, 8(x1)
  mv x4, x3
  CHECK(234, x4, 0x80000000)
  // A load to x0 writes nothing, not even to the next instruction.
  lw x0, 0(x1)
  add x3, x0, x0
  CHECK(235, x3, 0)
  lbu x0, 0(x1)
  nop
  mv x3, x0
  CHECK(236, x3, 0)
  // A word stored, read back by size at once (the RAM returns the new bytes).
  la x5, sdata
  li x2, 0x11223344
  sw x2, 0(x5)
  lb x3, 3(x5)
  CHECK(237, x3, 0x11)
  sw x2, 0(x5)
  lh x3, 2(x5)
  CHECK(238, x3, 0x1122)
  sw x2, 0(x5)
  lbu x3, 0(x5)
  CHECK(239, x3, 0x44)
  li x2, 0xee
  sb x2, 1(x5)
  lw x3, 0(x5)
  CHECK(240, x3, 0x1122ee44)
  li x2, 0xcdef
  sh x2, 2(x5)
  lhu x3, 2(x5)
  CHECK(241, x3, 0xcdef)
  // x0 as store data.
  sw x0, 0(x5)
  lw x3, 0(x5)
  CHECK(242, x3, 0)

  // ---- the first word of the RAM (this program's first instruction, li x1, 0) ----
  lw x3, 0(x0)
  CHECK(260, x3, 0x00000093)
  lbu x3, 0(x0)
  CHECK(261, x3, 0x93)
  lb x3, 0(x0)
  CHECK(262, x3, 0xffffff93)
  lhu x3, 2(x0)
  CHECK(263, x3, 0)
  // The last word (written first: the RAM starts unknown).
  li x1, 0xfffc
  li x2, 0x8899aabb
  sw x2, 0(x1)
  lw x3, 0(x1)
  CHECK(264, x3, 0x8899aabb)
  lb x3, 3(x1)
  CHECK(265, x3, 0xffffff88)
  lh x3, 2(x1)
  CHECK(266, x3, 0xffff8899)
  li x1, 0x10000
  lbu x3, -1(x1)
  CHECK(267, x3, 0x88)
  li x2, 0x77
  sb x2, -1(x1)
  lw x3, -4(x1)
  CHECK(268, x3, 0x7799aabb)

  // ---- MMIO: the scratch words (0x80000040-0x8000007f) ----
  li x1, SCRATCH
  // All sixteen words, written then read back.
  li x2, 0
  li x4, 16
1:
  slli x3, x2, 2
  add x3, x3, x1
  xori x5, x2, -1
  slli x6, x5, 16
  or x5, x6, x2
  sw x5, 0(x3)
  addi x2, x2, 1
  blt x2, x4, 1b
  li x2, 0
  li x7, 0
1:
  slli x3, x2, 2
  add x3, x3, x1
  lw x5, 0(x3)
  add x7, x7, x5
  addi x2, x2, 1
  blt x2, x4, 1b
  // sum of ((~i << 16) | i) for i = 0..15
  CHECK(300, x7, 0xff780078)
  // Loads by size at every offset of 0x80ff017f.
  li x2, 0x80ff017f
  sw x2, 4(x1)
  lb x3, 4(x1)
  CHECK(301, x3, 0x7f)
  lb x3, 5(x1)
  CHECK(302, x3, 0x01)
  lb x3, 6(x1)
  CHECK(303, x3, 0xffffffff)
  lb x3, 7(x1)
  CHECK(304, x3, 0xffffff80)
  lbu x3, 4(x1)
  CHECK(305, x3, 0x7f)
  lbu x3, 5(x1)
  CHECK(306, x3, 0x01)
  lbu x3, 6(x1)
  CHECK(307, x3, 0xff)
  lbu x3, 7(x1)
  CHECK(308, x3, 0x80)
  lh x3, 4(x1)
  CHECK(309, x3, 0x017f)
  lh x3, 6(x1)
  CHECK(310, x3, 0xffff80ff)
  lhu x3, 4(x1)
  CHECK(311, x3, 0x017f)
  lhu x3, 6(x1)
  CHECK(312, x3, 0x80ff)
  lw x3, 4(x1)
  CHECK(313, x3, 0x80ff017f)
  // Stores by size at every offset (byte strobes).
  li x2, 0x11111111
  sw x2, 8(x1)
  li x2, 0xa2
  sb x2, 8(x1)
  li x2, 0xb3
  sb x2, 11(x1)
  lw x3, 8(x1)
  CHECK(314, x3, 0xb31111a2)
  li x2, 0x3c4
  sb x2, 9(x1)
  li x2, 0xd5
  sb x2, 10(x1)
  lw x3, 8(x1)
  CHECK(315, x3, 0xb3d5c4a2)
  li x2, 0x12345678
  sh x2, 8(x1)
  lw x3, 8(x1)
  CHECK(316, x3, 0xb3d55678)
  li x2, 0x9abc
  sh x2, 10(x1)
  lw x3, 8(x1)
  CHECK(317, x3, 0x9abc5678)
  // MMIO load-use and store-then-load.
  lw x3, 4(x1)
  addi x4, x3, 1
  CHECK(318, x4, 0x80ff0180)
  lh x3, 6(x1)
  add x4, x3, x3
  CHECK(319, x4, 0xffff01fe)
  li x2, 0x600dcafe
  sw x2, 60(x1)
  lw x3, 60(x1)
  CHECK(320, x3, 0x600dcafe)
  lw x0, 60(x1)
  mv x3, x0
  CHECK(321, x3, 0)
  // The other readable registers: TOHOST (nothing written yet), IRQ lines, CONSOLE.
  li x1, TOHOST
  lw x3, 0(x1)
  CHECK(322, x3, 0)
  lw x3, 8(x1)
  CHECK(323, x3, 0)
  lw x3, 4(x1)
  CHECK(324, x3, 0)

  // ---- FENCE (every form is an ordering no-op here) and FENCE.I ----
  la x5, sdata
  li x2, 0x77
  sw x2, 0(x5)
  fence
  lw x3, 0(x5)
  CHECK(400, x3, 0x77)
  fence rw, rw
  fence i, o
  fence w, r
  .word 0x8330000f  // fence.tso
  li x3, 1
  CHECK(401, x3, 1)
  // Rewrite an instruction, then FENCE.I, then run it.
  la x1, smc_slot
  li x2, 0x02a00293  // addi x5, x0, 42
  sw x2, 0(x1)
  .word 0x0000100f   // fence.i
smc_slot:
  addi x5, x0, 1
  CHECK(402, x5, 42)
  // Rewritten behind a loop already run once: the new instruction runs the second time.
  li x6, 0
  li x7, 0
smc_loop:
  addi x6, x6, 1
smc_slot2:
  addi x7, x7, 1
  li x3, 2
  beq x6, x3, smc_loop_done
  la x1, smc_slot2
  li x2, 0x06438393  // addi x7, x7, 100
  sw x2, 0(x1)
  .word 0x0000100f   // fence.i
  j smc_loop
smc_loop_done:
  CHECK(403, x7, 101)

  PASS

  .data
  .align 4
ldata:
  .word 0xff007f81, 0x7ffe8001, 0x80000000, 0xffffffff, 0x00000000, 0x12345678
sdata:
  .word 0, 0
ptr0:
  .word ptr0_next
ptr0_next:
  .word ldata
ptr1:
  .word ldata
ptr2:
  .word sdata

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv32i_branch: the RV32I control transfer instructions (unprivileged spec, "Control
// Transfer Instructions"): BEQ BNE BLT BGE BLTU BGEU taken and not taken, forward and
// backward, at the ends of their offset range; JAL and JALR link values (pc + 4), JALR's
// target with bit 0 cleared, rd == rs1, and the instructions behind a taken branch or
// jump (fetched by the pipeline) that must have no effect.
//
// Tests 1-90: one branch each; 100-: x0 and rs1 == rs2; 120-: offsets; 200-: JAL;
// 300-: JALR; 400-: the instructions behind a redirect; 450-: a loop.
#include "isa_macros.inc"

// BR_T n, op, a, b: op x1, x2 must be taken (forward).
.macro BR_T n, op, a, b
  li x1, \a
  li x2, \b
  \op x1, x2, .Ltaken\@
  FAIL(\n)
.Ltaken\@:
.endm

// BR_NT n, op, a, b: op x1, x2 must fall through (its target is forward).
.macro BR_NT n, op, a, b
  li x1, \a
  li x2, \b
  \op x1, x2, .Lbad\@
  j .Lok\@
.Lbad\@:
  FAIL(\n)
.Lok\@:
.endm

// BR_T_BACK n, op, a, b: as BR_T with the target behind the branch.
.macro BR_T_BACK n, op, a, b
  j .Lbranch\@
.Ltarget\@:
  j .Lok\@
.Lbranch\@:
  li x1, \a
  li x2, \b
  \op x1, x2, .Ltarget\@
  FAIL(\n)
.Lok\@:
.endm

// BR_NT_BACK n, op, a, b: as BR_NT with the target behind the branch.
.macro BR_NT_BACK n, op, a, b
  j .Lbranch\@
.Ltarget\@:
  FAIL(\n)
.Lbranch\@:
  li x1, \a
  li x2, \b
  \op x1, x2, .Ltarget\@
.endm

  TEST_START

  // ---- one branch each ----

  // beq
  BR_T         1, beq , 0x00000000, 0x00000000
  BR_T         2, beq , 0x00000001, 0x00000001
  BR_T_BACK    3, beq , 0xffffffff, 0xffffffff
  BR_NT        4, beq , 0x00000000, 0x00000001
  BR_NT        5, beq , 0x00000001, 0x00000000
  BR_NT_BACK   6, beq , 0xffffffff, 0x00000001
  BR_NT        7, beq , 0x00000001, 0xffffffff
  BR_NT        8, beq , 0x80000000, 0x7fffffff
  BR_NT_BACK   9, beq , 0x7fffffff, 0x80000000
  BR_NT       10, beq , 0xffffffff, 0x00000000
  BR_NT       11, beq , 0x00000000, 0xffffffff
  BR_T_BACK   12, beq , 0x80000000, 0x80000000
  BR_NT       13, beq , 0xfffffffe, 0xffffffff
  BR_NT       14, beq , 0xffffffff, 0xfffffffe
  BR_NT_BACK  15, beq , 0x80000000, 0x00000000

  // bne
  BR_NT       16, bne , 0x00000000, 0x00000000
  BR_NT       17, bne , 0x00000001, 0x00000001
  BR_NT_BACK  18, bne , 0xffffffff, 0xffffffff
  BR_T        19, bne , 0x00000000, 0x00000001
  BR_T        20, bne , 0x00000001, 0x00000000
  BR_T_BACK   21, bne , 0xffffffff, 0x00000001
  BR_T        22, bne , 0x00000001, 0xffffffff
  BR_T        23, bne , 0x80000000, 0x7fffffff
  BR_T_BACK   24, bne , 0x7fffffff, 0x80000000
  BR_T        25, bne , 0xffffffff, 0x00000000
  BR_T        26, bne , 0x00000000, 0xffffffff
  BR_NT_BACK  27, bne , 0x80000000, 0x80000000
  BR_T        28, bne , 0xfffffffe, 0xffffffff
  BR_T        29, bne , 0xffffffff, 0xfffffffe
  BR_T_BACK   30, bne , 0x80000000, 0x00000000

  // blt
  BR_NT       31, blt , 0x00000000, 0x00000000
  BR_NT       32, blt , 0x00000001, 0x00000001
  BR_NT_BACK  33, blt , 0xffffffff, 0xffffffff
  BR_T        34, blt , 0x00000000, 0x00000001
  BR_NT       35, blt , 0x00000001, 0x00000000
  BR_T_BACK   36, blt , 0xffffffff, 0x00000001
  BR_NT       37, blt , 0x00000001, 0xffffffff
  BR_T        38, blt , 0x80000000, 0x7fffffff
  BR_NT_BACK  39, blt , 0x7fffffff, 0x80000000
  BR_T        40, blt , 0xffffffff, 0x00000000
  BR_NT       41, blt , 0x00000000, 0xffffffff
  BR_NT_BACK  42, blt , 0x80000000, 0x80000000
  BR_T        43, blt , 0xfffffffe, 0xffffffff
  BR_NT       44, blt , 0xffffffff, 0xfffffffe
  BR_T_BACK   45, blt , 0x80000000, 0x00000000

  // bge
  BR_T        46, bge , 0x00000000, 0x00000000
  BR_T        47, bge , 0x00000001, 0x00000001
  BR_T_BACK   48, bge , 0xffffffff, 0xffffffff
  BR_NT       49, bge , 0x00000000, 0x00000001
  BR_T        50, bge , 0x00000001, 0x00000000
  BR_NT_BACK  51, bge , 0xffffffff, 0x00000001
  BR_T        52, bge , 0x00000001, 0xffffffff
  BR_NT       53, bge , 0x80000000, 0x7fffffff
  BR_T_BACK   54, bge , 0x7fffffff, 0x80000000
  BR_NT       55, bge , 0xffffffff, 0x00000000
  BR_T        56, bge , 0x00000000, 0xffffffff
  BR_T_BACK   57, bge , 0x80000000, 0x80000000
  BR_NT       58, bge , 0xfffffffe, 0xffffffff
  BR_T        59, bge , 0xffffffff, 0xfffffffe
  BR_NT_BACK  60, bge , 0x80000000, 0x00000000

  // bltu
  BR_NT       61, bltu, 0x00000000, 0x00000000
  BR_NT       62, bltu, 0x00000001, 0x00000001
  BR_NT_BACK  63, bltu, 0xffffffff, 0xffffffff
  BR_T        64, bltu, 0x00000000, 0x00000001
  BR_NT       65, bltu, 0x00000001, 0x00000000
  BR_NT_BACK  66, bltu, 0xffffffff, 0x00000001
  BR_T        67, bltu, 0x00000001, 0xffffffff
  BR_NT       68, bltu, 0x80000000, 0x7fffffff
  BR_T_BACK   69, bltu, 0x7fffffff, 0x80000000
  BR_NT       70, bltu, 0xffffffff, 0x00000000
  BR_T        71, bltu, 0x00000000, 0xffffffff
  BR_NT_BACK  72, bltu, 0x80000000, 0x80000000
  BR_T        73, bltu, 0xfffffffe, 0xffffffff
  BR_NT       74, bltu, 0xffffffff, 0xfffffffe
  BR_NT_BACK  75, bltu, 0x80000000, 0x00000000

  // bgeu
  BR_T        76, bgeu, 0x00000000, 0x00000000
  BR_T        77, bgeu, 0x00000001, 0x00000001
  BR_T_BACK   78, bgeu, 0xffffffff, 0xffffffff
  BR_NT       79, bgeu, 0x00000000, 0x00000001
  BR_T        80, bgeu, 0x00000001, 0x00000000
  BR_T_BACK   81, bgeu, 0xffffffff, 0x00000001
  BR_NT       82, bgeu, 0x00000001, 0xffffffff
  BR_T        83, bgeu, 0x80000000, 0x7fffffff
  BR_NT_BACK  84, bgeu, 0x7fffffff, 0x80000000
  BR_T        85, bgeu, 0xffffffff, 0x00000000
  BR_NT       86, bgeu, 0x00000000, 0xffffffff
  BR_T_BACK   87, bgeu, 0x80000000, 0x80000000
  BR_NT       88, bgeu, 0xfffffffe, 0xffffffff
  BR_T        89, bgeu, 0xffffffff, 0xfffffffe
  BR_T_BACK   90, bgeu, 0x80000000, 0x00000000

  // ---- x0 and rs1 == rs2 ----
  li x1, 5
  beq x0, x0, 1f
  FAIL(100)
1:
  bne x1, x0, 1f
  FAIL(101)
1:
  blt x0, x1, 1f
  FAIL(102)
1:
  bltu x1, x0, 2f
  bge x1, x1, 1f
2:
  FAIL(103)
1:
  blt x1, x1, 2f
  bltu x1, x1, 2f
  bne x1, x1, 2f
  bgeu x1, x1, 1f
2:
  FAIL(104)
1:
  li x1, -5
  bge x0, x1, 1f
  FAIL(105)
1:
  bgeu x0, x1, 2f
  bltu x0, x1, 1f
2:
  FAIL(106)
1:

  // ---- offsets: the largest forward (+4092) and backward (-4096) branches ----
far_fwd_branch:
  beq x0, x0, far_fwd_target
  FAIL(120)
  .skip 4092 - (. - far_fwd_branch)
far_fwd_target:
  j far_back_branch
far_back_target:
  j far_back_done
  .skip 4092
far_back_branch:
  bge x0, x0, far_back_target
  FAIL(121)
far_back_done:
  // A branch not taken to a far target.
  li x1, 1
far_nt_branch:
  bltu x1, x0, far_fwd_branch
  li x3, 0x33
  CHECK(122, x3, 0x33)

  // ---- JAL: rd = pc + 4; offsets with bits 11 and 12-19 of the immediate ----
  jal x1, jal_a
jal_a_link:
  FAIL(200)
jal_a:
  CHECK_ADDR(201, x1, jal_a_link)
  jal x5, jal_b
jal_b_link:
  FAIL(202)
jal_b:
  CHECK_ADDR(203, x5, jal_b_link)
  li x1, 0x1234
  jal x0, jal_c
  FAIL(204)
jal_c:
  CHECK(205, x1, 0x1234)
  // The link read right at the target (it is in the register file by then).
  jal x7, jal_d
jal_d_link:
  FAIL(206)
jal_d:
  addi x8, x7, 4
  CHECK_ADDR(207, x8, jal_d_link + 4)
  // Far: +0x2804 (immediate bits 13, 11 and 2), then back by -0x1804.
jal_far_from:
  jal x9, jal_far_to
jal_far_link:
  FAIL(208)
jal_far_back_to:
  CHECK_ADDR(209, x10, jal_far_back + 4)
  j jal_far_done
  .skip 0x1804 - (. - jal_far_back_to)
jal_far_back:
  jal x10, jal_far_back_to
  FAIL(210)
  .skip 0x2804 - (. - jal_far_from)
jal_far_to:
  CHECK_ADDR(211, x9, jal_far_link)
  j jal_far_back
jal_far_done:

  // ---- JALR: target (rs1 + imm) & ~1, rd = pc + 4 ----
  la x1, jalr_a
jalr_a_from:
  jalr x2, 0(x1)
  FAIL(300)
jalr_a:
  CHECK_ADDR(301, x2, jalr_a_from + 4)
  // A negative and a positive offset.
  la x1, jalr_b + 16
  jalr x2, -16(x1)
  FAIL(302)
jalr_b:
  la x1, jalr_c - 2000
jalr_c_from:
  jalr x3, 2000(x1)
  FAIL(303)
jalr_c:
  CHECK_ADDR(304, x3, jalr_c_from + 4)
  // Bit 0 of the sum is cleared: an odd register, an odd offset, both odd.
  la x1, jalr_d + 1
  jalr x2, 0(x1)
  FAIL(305)
jalr_d:
  la x1, jalr_e
  jalr x2, 1(x1)
  FAIL(306)
jalr_e:
  la x1, jalr_f - 1
  jalr x2, 1(x1)
  FAIL(307)
jalr_f:
  la x1, jalr_g + 3
  jalr x2, -2(x1)
  FAIL(308)
jalr_g:
  // rd == rs1: the target comes from the old value.
  la x4, jalr_h
jalr_h_from:
  jalr x4, 0(x4)
  FAIL(309)
jalr_h:
  CHECK_ADDR(310, x4, jalr_h_from + 4)
  // rd == x0: no link.
  la x5, jalr_i
  jalr x0, 0(x5)
  FAIL(311)
jalr_i:
  CHECK_ADDR(312, x5, jalr_i)
  // rs1 computed by the instruction just before (forwarded from W).
  la x6, jalr_j - 0x100
  addi x6, x6, 0x100
  jalr x7, 0(x6)
  FAIL(313)
jalr_j:
  // rs1 loaded just before (load-use).
  la x6, jalr_k_ptr
  lw x6, 0(x6)
  jalr x7, 0(x6)
  FAIL(314)
jalr_k:
  // A call and a return through the same register.
  li x10, 0
  jal x1, jalr_sub
  addi x10, x10, 1
  jal x1, jalr_sub
  CHECK(315, x10, 0x21)
  j jalr_done
jalr_sub:
  addi x10, x10, 0x10
  jalr x0, 0(x1)
  FAIL(316)
jalr_done:

  // ---- behind a taken branch or jump: fetched, never executed ----
  la x1, shadow_word
  li x2, 0x5a5a
  li x5, 0
  csrw mscratch, x0
  beq x0, x0, 1f
  sw x2, 0(x1)
  addi x5, x5, 1
  csrw mscratch, x2
1:
  jal x0, 1f
  ecall
  sw x2, 0(x1)
  addi x5, x5, 1
1:
  la x6, 1f
  jalr x0, 0(x6)
  ebreak
  addi x5, x5, 1
1:
  bne x0, x5, 2f
  CHECK(400, x5, 0)
  lw x3, 0(x1)
  CHECK(401, x3, 0)
  csrr x3, mscratch
  CHECK(402, x3, 0)
  j 1f
2:
  FAIL(403)
1:
  // Back-to-back taken branches, each into the next.
  li x5, 0
  beq x0, x0, 1f
  addi x5, x5, 1
1:
  bne x0, x0, 2f
  beq x0, x0, 1f
2:
  addi x5, x5, 2
1:
  j 1f
1:
  j 1f
1:
  CHECK(404, x5, 0)

  // ---- a backward loop: 10 iterations ----
  li x1, 10
  li x2, 0
1:
  addi x2, x2, 3
  addi x1, x1, -1
  bnez x1, 1b
  CHECK(450, x2, 30)
  CHECK(451, x1, 0)
  li x1, 0
1:
  addi x1, x1, 1
  slti x3, x1, 7
  bnez x3, 1b
  CHECK(452, x1, 7)

  PASS

  .data
  .align 2
jalr_k_ptr:
  .word jalr_k
shadow_word:
  .word 0

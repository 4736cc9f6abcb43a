// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv32m: the M extension (unprivileged spec, "M Extension for Integer Multiplication
// and Division"): MUL MULH MULHSU MULHU with every sign combination at the ends of the
// range, DIV DIVU REM REMU rounding toward zero with the remainder taking the dividend's
// sign, division by zero (quotient all ones, remainder the dividend) and the signed
// overflow INT_MIN / -1 (quotient INT_MIN, remainder 0), neither of which traps. The
// core computes a multiplication in one cycle and stalls 34 cycles for a division, so
// results used by the very next instruction and operands produced just before a
// division are tested too.
//
// Tests 1-160: one operation each; 200-: dependences; 250-: x0.
#include "isa_macros.inc"

// RR n, op, expected, a, b: x3 = op(x1 = a, x2 = b).
.macro RR n, op, exp, a, b
  li x1, \a
  li x2, \b
  \op x3, x1, x2
  _check \n, x3, \exp
.endm

  TEST_START

  // ---- one operation each ----

  // mul
  RR     1, mul   , 0x00000000, 0x00000000, 0x00000000
  RR     2, mul   , 0x00000001, 0x00000001, 0x00000001
  RR     3, mul   , 0x00000015, 0x00000003, 0x00000007
  RR     4, mul   , 0x00000001, 0xffffffff, 0xffffffff
  RR     5, mul   , 0xffffffff, 0xffffffff, 0x00000001
  RR     6, mul   , 0xffffffff, 0x00000001, 0xffffffff
  RR     7, mul   , 0x00000000, 0x80000000, 0x80000000
  RR     8, mul   , 0x80000000, 0x80000000, 0xffffffff
  RR     9, mul   , 0x00000001, 0x7fffffff, 0x7fffffff
  RR    10, mul   , 0x80000000, 0x80000000, 0x7fffffff
  RR    11, mul   , 0x80000001, 0x7fffffff, 0xffffffff
  RR    12, mul   , 0x242d2080, 0x12345678, 0x9abcdef0
  RR    13, mul   , 0x80000000, 0xffff8000, 0x00010000
  RR    14, mul   , 0x00010000, 0x0000ffff, 0xffff0000
  RR    15, mul   , 0x0000ff7f, 0xaaaaaaab, 0x0002fe7d
  RR    16, mul   , 0x00000000, 0x00000000, 0x80000000

  // mulh
  RR    17, mulh  , 0x00000000, 0x00000000, 0x00000000
  RR    18, mulh  , 0x00000000, 0x00000001, 0x00000001
  RR    19, mulh  , 0x00000000, 0x00000003, 0x00000007
  RR    20, mulh  , 0x00000000, 0xffffffff, 0xffffffff
  RR    21, mulh  , 0xffffffff, 0xffffffff, 0x00000001
  RR    22, mulh  , 0xffffffff, 0x00000001, 0xffffffff
  RR    23, mulh  , 0x40000000, 0x80000000, 0x80000000
  RR    24, mulh  , 0x00000000, 0x80000000, 0xffffffff
  RR    25, mulh  , 0x3fffffff, 0x7fffffff, 0x7fffffff
  RR    26, mulh  , 0xc0000000, 0x80000000, 0x7fffffff
  RR    27, mulh  , 0xffffffff, 0x7fffffff, 0xffffffff
  RR    28, mulh  , 0xf8cc93d6, 0x12345678, 0x9abcdef0
  RR    29, mulh  , 0xffffffff, 0xffff8000, 0x00010000
  RR    30, mulh  , 0xffffffff, 0x0000ffff, 0xffff0000
  RR    31, mulh  , 0xffff0081, 0xaaaaaaab, 0x0002fe7d
  RR    32, mulh  , 0x00000000, 0x00000000, 0x80000000

  // mulhsu
  RR    33, mulhsu, 0x00000000, 0x00000000, 0x00000000
  RR    34, mulhsu, 0x00000000, 0x00000001, 0x00000001
  RR    35, mulhsu, 0x00000000, 0x00000003, 0x00000007
  RR    36, mulhsu, 0xffffffff, 0xffffffff, 0xffffffff
  RR    37, mulhsu, 0xffffffff, 0xffffffff, 0x00000001
  RR    38, mulhsu, 0x00000000, 0x00000001, 0xffffffff
  RR    39, mulhsu, 0xc0000000, 0x80000000, 0x80000000
  RR    40, mulhsu, 0x80000000, 0x80000000, 0xffffffff
  RR    41, mulhsu, 0x3fffffff, 0x7fffffff, 0x7fffffff
  RR    42, mulhsu, 0xc0000000, 0x80000000, 0x7fffffff
  RR    43, mulhsu, 0x7ffffffe, 0x7fffffff, 0xffffffff
  RR    44, mulhsu, 0x0b00ea4e, 0x12345678, 0x9abcdef0
  RR    45, mulhsu, 0xffffffff, 0xffff8000, 0x00010000
  RR    46, mulhsu, 0x0000fffe, 0x0000ffff, 0xffff0000
  RR    47, mulhsu, 0xffff0081, 0xaaaaaaab, 0x0002fe7d
  RR    48, mulhsu, 0x00000000, 0x00000000, 0x80000000

  // mulhu
  RR    49, mulhu , 0x00000000, 0x00000000, 0x00000000
  RR    50, mulhu , 0x00000000, 0x00000001, 0x00000001
  RR    51, mulhu , 0x00000000, 0x00000003, 0x00000007
  RR    52, mulhu , 0xfffffffe, 0xffffffff, 0xffffffff
  RR    53, mulhu , 0x00000000, 0xffffffff, 0x00000001
  RR    54, mulhu , 0x00000000, 0x00000001, 0xffffffff
  RR    55, mulhu , 0x40000000, 0x80000000, 0x80000000
  RR    56, mulhu , 0x7fffffff, 0x80000000, 0xffffffff
  RR    57, mulhu , 0x3fffffff, 0x7fffffff, 0x7fffffff
  RR    58, mulhu , 0x3fffffff, 0x80000000, 0x7fffffff
  RR    59, mulhu , 0x7ffffffe, 0x7fffffff, 0xffffffff
  RR    60, mulhu , 0x0b00ea4e, 0x12345678, 0x9abcdef0
  RR    61, mulhu , 0x0000ffff, 0xffff8000, 0x00010000
  RR    62, mulhu , 0x0000fffe, 0x0000ffff, 0xffff0000
  RR    63, mulhu , 0x0001fefe, 0xaaaaaaab, 0x0002fe7d
  RR    64, mulhu , 0x00000000, 0x00000000, 0x80000000

  // div
  RR    65, div   , 0x00000003, 0x00000014, 0x00000006
  RR    66, div   , 0xfffffffd, 0xffffffec, 0x00000006
  RR    67, div   , 0xfffffffd, 0x00000014, 0xfffffffa
  RR    68, div   , 0x00000003, 0xffffffec, 0xfffffffa
  RR    69, div   , 0x00000003, 0x00000007, 0x00000002
  RR    70, div   , 0xfffffffd, 0xfffffff9, 0x00000002
  RR    71, div   , 0xfffffffd, 0x00000007, 0xfffffffe
  RR    72, div   , 0x00000003, 0xfffffff9, 0xfffffffe
  RR    73, div   , 0x00000000, 0x00000000, 0x00000001
  RR    74, div   , 0x00000001, 0x00000001, 0x00000001
  RR    75, div   , 0x80000000, 0x80000000, 0x00000001
  RR    76, div   , 0x80000000, 0x80000000, 0xffffffff
  RR    77, div   , 0xc0000000, 0x80000000, 0x00000002
  RR    78, div   , 0x80000001, 0x7fffffff, 0xffffffff
  RR    79, div   , 0x00000001, 0xffffffff, 0xffffffff
  RR    80, div   , 0x00000000, 0x00000005, 0x00000007
  RR    81, div   , 0x00000000, 0x80000001, 0x80000000
  RR    82, div   , 0x00000001, 0x80000000, 0x80000000
  RR    83, div   , 0x00000000, 0xfffffffe, 0x7fffffff
  RR    84, div   , 0x00001e1e, 0x12345678, 0x00009abc
  RR    85, div   , 0xffffffff, 0x00000000, 0x00000000
  RR    86, div   , 0xffffffff, 0x00000001, 0x00000000
  RR    87, div   , 0xffffffff, 0xffffffff, 0x00000000
  RR    88, div   , 0xffffffff, 0x80000000, 0x00000000

  // divu
  RR    89, divu  , 0x00000003, 0x00000014, 0x00000006
  RR    90, divu  , 0x2aaaaaa7, 0xffffffec, 0x00000006
  RR    91, divu  , 0x00000000, 0x00000014, 0xfffffffa
  RR    92, divu  , 0x00000000, 0xffffffec, 0xfffffffa
  RR    93, divu  , 0x00000003, 0x00000007, 0x00000002
  RR    94, divu  , 0x7ffffffc, 0xfffffff9, 0x00000002
  RR    95, divu  , 0x00000000, 0x00000007, 0xfffffffe
  RR    96, divu  , 0x00000000, 0xfffffff9, 0xfffffffe
  RR    97, divu  , 0x00000000, 0x00000000, 0x00000001
  RR    98, divu  , 0x00000001, 0x00000001, 0x00000001
  RR    99, divu  , 0x80000000, 0x80000000, 0x00000001
  RR   100, divu  , 0x00000000, 0x80000000, 0xffffffff
  RR   101, divu  , 0x40000000, 0x80000000, 0x00000002
  RR   102, divu  , 0x00000000, 0x7fffffff, 0xffffffff
  RR   103, divu  , 0x00000001, 0xffffffff, 0xffffffff
  RR   104, divu  , 0x00000000, 0x00000005, 0x00000007
  RR   105, divu  , 0x00000001, 0x80000001, 0x80000000
  RR   106, divu  , 0x00000001, 0x80000000, 0x80000000
  RR   107, divu  , 0x00000002, 0xfffffffe, 0x7fffffff
  RR   108, divu  , 0x00001e1e, 0x12345678, 0x00009abc
  RR   109, divu  , 0xffffffff, 0x00000000, 0x00000000
  RR   110, divu  , 0xffffffff, 0x00000001, 0x00000000
  RR   111, divu  , 0xffffffff, 0xffffffff, 0x00000000
  RR   112, divu  , 0xffffffff, 0x80000000, 0x00000000

  // rem
  RR   113, rem   , 0x00000002, 0x00000014, 0x00000006
  RR   114, rem   , 0xfffffffe, 0xffffffec, 0x00000006
  RR   115, rem   , 0x00000002, 0x00000014, 0xfffffffa
  RR   116, rem   , 0xfffffffe, 0xffffffec, 0xfffffffa
  RR   117, rem   , 0x00000001, 0x00000007, 0x00000002
  RR   118, rem   , 0xffffffff, 0xfffffff9, 0x00000002
  RR   119, rem   , 0x00000001, 0x00000007, 0xfffffffe
  RR   120, rem   , 0xffffffff, 0xfffffff9, 0xfffffffe
  RR   121, rem   , 0x00000000, 0x00000000, 0x00000001
  RR   122, rem   , 0x00000000, 0x00000001, 0x00000001
  RR   123, rem   , 0x00000000, 0x80000000, 0x00000001
  RR   124, rem   , 0x00000000, 0x80000000, 0xffffffff
  RR   125, rem   , 0x00000000, 0x80000000, 0x00000002
  RR   126, rem   , 0x00000000, 0x7fffffff, 0xffffffff
  RR   127, rem   , 0x00000000, 0xffffffff, 0xffffffff
  RR   128, rem   , 0x00000005, 0x00000005, 0x00000007
  RR   129, rem   , 0x80000001, 0x80000001, 0x80000000
  RR   130, rem   , 0x00000000, 0x80000000, 0x80000000
  RR   131, rem   , 0xfffffffe, 0xfffffffe, 0x7fffffff
  RR   132, rem   , 0x00002c70, 0x12345678, 0x00009abc
  RR   133, rem   , 0x00000000, 0x00000000, 0x00000000
  RR   134, rem   , 0x00000001, 0x00000001, 0x00000000
  RR   135, rem   , 0xffffffff, 0xffffffff, 0x00000000
  RR   136, rem   , 0x80000000, 0x80000000, 0x00000000

  // remu
  RR   137, remu  , 0x00000002, 0x00000014, 0x00000006
  RR   138, remu  , 0x00000002, 0xffffffec, 0x00000006
  RR   139, remu  , 0x00000014, 0x00000014, 0xfffffffa
  RR   140, remu  , 0xffffffec, 0xffffffec, 0xfffffffa
  RR   141, remu  , 0x00000001, 0x00000007, 0x00000002
  RR   142, remu  , 0x00000001, 0xfffffff9, 0x00000002
  RR   143, remu  , 0x00000007, 0x00000007, 0xfffffffe
  RR   144, remu  , 0xfffffff9, 0xfffffff9, 0xfffffffe
  RR   145, remu  , 0x00000000, 0x00000000, 0x00000001
  RR   146, remu  , 0x00000000, 0x00000001, 0x00000001
  RR   147, remu  , 0x00000000, 0x80000000, 0x00000001
  RR   148, remu  , 0x80000000, 0x80000000, 0xffffffff
  RR   149, remu  , 0x00000000, 0x80000000, 0x00000002
  RR   150, remu  , 0x7fffffff, 0x7fffffff, 0xffffffff
  RR   151, remu  , 0x00000000, 0xffffffff, 0xffffffff
  RR   152, remu  , 0x00000005, 0x00000005, 0x00000007
  RR   153, remu  , 0x00000001, 0x80000001, 0x80000000
  RR   154, remu  , 0x00000000, 0x80000000, 0x80000000
  RR   155, remu  , 0x00000000, 0xfffffffe, 0x7fffffff
  RR   156, remu  , 0x00002c70, 0x12345678, 0x00009abc
  RR   157, remu  , 0x00000000, 0x00000000, 0x00000000
  RR   158, remu  , 0x00000001, 0x00000001, 0x00000000
  RR   159, remu  , 0xffffffff, 0xffffffff, 0x00000000
  RR   160, remu  , 0x80000000, 0x80000000, 0x00000000

  // ---- dependences ----
  // Results used by the next instruction.
  li x1, 1000
  li x2, 3
  mul x3, x1, x2
  addi x4, x3, 1
  CHECK(200, x4, 3001)
  div x3, x1, x2
  addi x4, x3, 1
  CHECK(201, x4, 334)
  rem x3, x1, x2
  sub x4, x0, x3
  CHECK(202, x4, 0xffffffff)
  // Operands produced just before (forwarded into a stalled division).
  li x1, 1000
  addi x2, x0, 7
  divu x3, x1, x2
  CHECK(203, x3, 142)
  addi x1, x0, -1000
  li x2, 7
  rem x3, x1, x2
  CHECK(204, x3, 0xfffffffa)
  li x1, 0x10001
  mulhu x3, x1, x1
  mul x4, x1, x1
  CHECK(205, x3, 1)
  CHECK(206, x4, 0x00020001)
  // Divisions back to back, each using the one before.
  li x1, 1000000
  li x2, 10
  div x3, x1, x2
  div x4, x3, x2
  divu x5, x4, x2
  remu x6, x5, x2
  CHECK(207, x3, 100000)
  CHECK(208, x4, 10000)
  CHECK(209, x5, 1000)
  CHECK(210, x6, 0)
  // rd == rs1, rd == rs2, rs1 == rs2.
  li x3, 100
  li x2, 7
  div x3, x3, x2
  CHECK(211, x3, 14)
  li x3, 7
  li x1, 100
  rem x3, x1, x3
  CHECK(212, x3, 2)
  li x3, 0x12345
  div x3, x3, x3
  CHECK(213, x3, 1)
  li x3, 0xfffff
  mul x3, x3, x3
  CHECK(214, x3, 0xffe00001)
  li x3, 0x80000000
  mulh x3, x3, x3
  CHECK(215, x3, 0x40000000)
  // Loaded just before a division, and a multiplication.
  la x1, mdata
  lw x2, 0(x1)
  divu x3, x2, x2
  CHECK(216, x3, 1)
  lw x2, 4(x1)
  remu x3, x2, x2
  CHECK(217, x3, 0)
  lw x2, 0(x1)
  mulhsu x3, x2, x2
  CHECK(218, x3, 0xc0000000)
  // Multiplications and divisions interleaved.
  li x1, 12
  li x2, 5
  mul x3, x1, x2
  div x4, x3, x1
  mul x5, x4, x4
  rem x6, x5, x1
  CHECK(219, x3, 60)
  CHECK(220, x4, 5)
  CHECK(221, x5, 25)
  CHECK(222, x6, 1)

  // ---- x0 ----
  li x1, 99
  li x2, 3
  div x0, x1, x2
  mv x3, x0
  CHECK(250, x3, 0)
  mul x0, x1, x2
  add x3, x0, x0
  CHECK(251, x3, 0)
  div x3, x1, x0
  CHECK(252, x3, 0xffffffff)
  remu x3, x1, x0
  CHECK(253, x3, 99)
  div x3, x0, x1
  CHECK(254, x3, 0)
  mulhu x3, x1, x0
  CHECK(255, x3, 0)
  rem x3, x0, x0
  CHECK(256, x3, 0)

  PASS

  .data
  .align 2
mdata:
  .word 0x80000000, 0xfffffff9

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv32i_alu: the RV32I integer computational instructions (unprivileged spec, chapter
// "RV32I Base Integer Instruction Set", integer computational instructions): LUI, AUIPC,
// the register-immediate and the register-register operations. Corner values (0, -1,
// INT_MIN, INT_MAX, both ends of the 12-bit immediate, shifts by 0 and 31), x0 as source
// and destination, and results used by the very next instruction (the core forwards its
// W stage into X) or one and two instructions later (from the register file).
//
// Tests 1-229: one operation each (RR, RI); 300-: LUI, AUIPC; 400-: dependences;
// 500-: x0.
#include "isa_macros.inc"

// RR n, op, expected, a, b: x3 = op(x1 = a, x2 = b).
.macro RR n, op, exp, a, b
  li x1, \a
  li x2, \b
  \op x3, x1, x2
  _check \n, x3, \exp
.endm

// RI n, op, expected, a, imm: x3 = op(x1 = a, imm).
.macro RI n, op, exp, a, imm
  li x1, \a
  \op x3, x1, \imm
  _check \n, x3, \exp
.endm

  TEST_START

  // ---- LUI: the immediate to bits 31:12, zeros below ----
  lui x3, 0
  CHECK(300, x3, 0)
  lui x3, 0xfffff
  CHECK(301, x3, 0xfffff000)
  lui x3, 0x80000
  CHECK(302, x3, 0x80000000)
  lui x3, 0x12345
  CHECK(303, x3, 0x12345000)
  li x3, -1
  lui x3, 0x00001
  CHECK(304, x3, 0x00001000)
  lui x3, 0x7ffff
  addi x3, x3, 0x7ff
  CHECK(305, x3, 0x7ffff7ff)

  // ---- AUIPC: its own address plus the immediate << 12 ----
auipc_0:
  auipc x3, 0
  CHECK_ADDR(310, x3, auipc_0)
auipc_1:
  auipc x3, 1
  la x4, auipc_1
  sub x3, x3, x4
  CHECK(311, x3, 0x1000)
auipc_m1:
  auipc x3, 0xfffff
  la x4, auipc_m1
  sub x3, x3, x4
  CHECK(312, x3, 0xfffff000)
auipc_min:
  auipc x3, 0x80000
  la x4, auipc_min
  sub x3, x3, x4
  CHECK(313, x3, 0x80000000)
  // Two in a row: each its own pc.
auipc_a:
  auipc x3, 0
auipc_b:
  auipc x4, 0
  CHECK_ADDR(314, x3, auipc_a)
  CHECK_ADDR(315, x4, auipc_b)
  sub x5, x4, x3
  CHECK(316, x5, 4)

  // ---- one operation each ----

  // addi: zero, small, both ends of the immediate, signed and unsigned overflow
  RI     1, addi , 0x00000000, 0x00000000, 0
  RI     2, addi , 0x00000002, 0x00000001, 1
  RI     3, addi , 0x0000000a, 0x00000003, 7
  RI     4, addi , 0xfffff800, 0x00000000, -2048
  RI     5, addi , 0x000007ff, 0x00000000, 2047
  RI     6, addi , 0x80000000, 0x80000000, 0
  RI     7, addi , 0x7ffff800, 0x80000000, -2048
  RI     8, addi , 0x80000000, 0x7fffffff, 1
  RI     9, addi , 0x00000000, 0xffffffff, 1
  RI    10, addi , 0x800007fe, 0x7fffffff, 2047
  RI    11, addi , 0xfffffffe, 0xffffffff, -1
  RI    12, addi , 0x12345000, 0x12345678, -1656

  // slti: signed compare with the sign-extended immediate
  RI    13, slti , 0x00000000, 0x00000000, 0
  RI    14, slti , 0x00000000, 0x00000001, 1
  RI    15, slti , 0x00000001, 0x00000003, 7
  RI    16, slti , 0x00000000, 0x00000007, 3
  RI    17, slti , 0x00000001, 0x80000000, 0
  RI    18, slti , 0x00000000, 0x7fffffff, -1
  RI    19, slti , 0x00000001, 0xffffffff, 0
  RI    20, slti , 0x00000000, 0x00000000, -2048
  RI    21, slti , 0x00000001, 0x80000000, -2048
  RI    22, slti , 0x00000001, 0xfffff7ff, -2048
  RI    23, slti , 0x00000000, 0xfffff800, -2048
  RI    24, slti , 0x00000000, 0x000007ff, 2047
  RI    25, slti , 0x00000001, 0x000007fe, 2047

  // sltiu: unsigned compare with the sign-extended immediate (-1 is the largest)
  RI    26, sltiu, 0x00000001, 0x00000000, -1
  RI    27, sltiu, 0x00000001, 0xfffffffe, -1
  RI    28, sltiu, 0x00000000, 0xffffffff, -1
  RI    29, sltiu, 0x00000000, 0x00000000, 0
  RI    30, sltiu, 0x00000000, 0x00000001, 0
  RI    31, sltiu, 0x00000001, 0x00000000, 1
  RI    32, sltiu, 0x00000000, 0x00000001, 1
  RI    33, sltiu, 0x00000000, 0x80000000, 2047
  RI    34, sltiu, 0x00000001, 0x000007fe, 2047
  RI    35, sltiu, 0x00000001, 0xfffff7ff, -2048
  RI    36, sltiu, 0x00000000, 0xfffff800, -2048

  // xori, ori, andi: the immediate's sign bit reaches bit 31
  RI    37, xori , 0xff00f00f, 0x00ff0f00, -241
  RI    38, xori , 0xff00f0ff, 0x00ff0f00, -1
  RI    39, xori , 0x0ff00f00, 0x0ff00ff0, 240
  RI    40, xori , 0xf00ff700, 0xf00ff00f, 1807
  RI    41, xori , 0xfffff800, 0x00000000, -2048
  RI    42, xori , 0xffffffff, 0xffffffff, 0
  RI    43, xori , 0x7ffff801, 0x80000001, -2048
  RI    44, xori , 0x55555000, 0x55555555, 1365
  RI    45, ori  , 0xffffff0f, 0x00ff0f00, -241
  RI    46, ori  , 0xffffffff, 0x00ff0f00, -1
  RI    47, ori  , 0x0ff00ff0, 0x0ff00ff0, 240
  RI    48, ori  , 0xf00ff70f, 0xf00ff00f, 1807
  RI    49, ori  , 0xfffff800, 0x00000000, -2048
  RI    50, ori  , 0xffffffff, 0xffffffff, 0
  RI    51, ori  , 0xfffff801, 0x80000001, -2048
  RI    52, ori  , 0x55555555, 0x55555555, 1365
  RI    53, andi , 0x00ff0f00, 0x00ff0f00, -241
  RI    54, andi , 0x00ff0f00, 0x00ff0f00, -1
  RI    55, andi , 0x000000f0, 0x0ff00ff0, 240
  RI    56, andi , 0x0000000f, 0xf00ff00f, 1807
  RI    57, andi , 0x00000000, 0x00000000, -2048
  RI    58, andi , 0x00000000, 0xffffffff, 0
  RI    59, andi , 0x80000000, 0x80000001, -2048
  RI    60, andi , 0x00000555, 0x55555555, 1365

  // slli, srli, srai: shifts by 0, 1, 7, 14, 31
  RI    61, slli , 0x00000001, 0x00000001, 0
  RI    62, slli , 0x00000002, 0x00000001, 1
  RI    63, slli , 0x00000080, 0x00000001, 7
  RI    64, slli , 0x00004000, 0x00000001, 14
  RI    65, slli , 0x80000000, 0x00000001, 31
  RI    66, slli , 0xffffffff, 0xffffffff, 0
  RI    67, slli , 0xfffffffe, 0xffffffff, 1
  RI    68, slli , 0xffffff80, 0xffffffff, 7
  RI    69, slli , 0xffffc000, 0xffffffff, 14
  RI    70, slli , 0x80000000, 0xffffffff, 31
  RI    71, slli , 0x80000000, 0x80000000, 0
  RI    72, slli , 0x00000000, 0x80000000, 1
  RI    73, slli , 0x00000000, 0x80000000, 7
  RI    74, slli , 0x00000000, 0x80000000, 14
  RI    75, slli , 0x00000000, 0x80000000, 31
  RI    76, slli , 0x21212121, 0x21212121, 0
  RI    77, slli , 0x42424242, 0x21212121, 1
  RI    78, slli , 0x90909080, 0x21212121, 7
  RI    79, slli , 0x48484000, 0x21212121, 14
  RI    80, slli , 0x80000000, 0x21212121, 31
  RI    81, slli , 0x81818181, 0x81818181, 0
  RI    82, slli , 0x03030302, 0x81818181, 1
  RI    83, slli , 0xc0c0c080, 0x81818181, 7
  RI    84, slli , 0x60604000, 0x81818181, 14
  RI    85, slli , 0x80000000, 0x81818181, 31
  RI    86, srli , 0x00000001, 0x00000001, 0
  RI    87, srli , 0x00000000, 0x00000001, 1
  RI    88, srli , 0x00000000, 0x00000001, 31
  RI    89, srli , 0xffffffff, 0xffffffff, 0
  RI    90, srli , 0x7fffffff, 0xffffffff, 1
  RI    91, srli , 0x01ffffff, 0xffffffff, 7
  RI    92, srli , 0x0003ffff, 0xffffffff, 14
  RI    93, srli , 0x00000001, 0xffffffff, 31
  RI    94, srli , 0x80000000, 0x80000000, 0
  RI    95, srli , 0x40000000, 0x80000000, 1
  RI    96, srli , 0x01000000, 0x80000000, 7
  RI    97, srli , 0x00020000, 0x80000000, 14
  RI    98, srli , 0x00000001, 0x80000000, 31
  RI    99, srli , 0x21212121, 0x21212121, 0
  RI   100, srli , 0x10909090, 0x21212121, 1
  RI   101, srli , 0x00000000, 0x21212121, 31
  RI   102, srli , 0x81818181, 0x81818181, 0
  RI   103, srli , 0x40c0c0c0, 0x81818181, 1
  RI   104, srli , 0x01030303, 0x81818181, 7
  RI   105, srli , 0x00020606, 0x81818181, 14
  RI   106, srli , 0x00000001, 0x81818181, 31
  RI   107, srai , 0x00000001, 0x00000001, 0
  RI   108, srai , 0x00000000, 0x00000001, 1
  RI   109, srai , 0x00000000, 0x00000001, 31
  RI   110, srai , 0xffffffff, 0xffffffff, 0
  RI   111, srai , 0xffffffff, 0xffffffff, 1
  RI   112, srai , 0xffffffff, 0xffffffff, 7
  RI   113, srai , 0xffffffff, 0xffffffff, 14
  RI   114, srai , 0xffffffff, 0xffffffff, 31
  RI   115, srai , 0x80000000, 0x80000000, 0
  RI   116, srai , 0xc0000000, 0x80000000, 1
  RI   117, srai , 0xff000000, 0x80000000, 7
  RI   118, srai , 0xfffe0000, 0x80000000, 14
  RI   119, srai , 0xffffffff, 0x80000000, 31
  RI   120, srai , 0x21212121, 0x21212121, 0
  RI   121, srai , 0x10909090, 0x21212121, 1
  RI   122, srai , 0x00000000, 0x21212121, 31
  RI   123, srai , 0x81818181, 0x81818181, 0
  RI   124, srai , 0xc0c0c0c0, 0x81818181, 1
  RI   125, srai , 0xff030303, 0x81818181, 7
  RI   126, srai , 0xfffe0606, 0x81818181, 14
  RI   127, srai , 0xffffffff, 0x81818181, 31

  // add, sub: wrap around and sign changes
  RR   128, add  , 0x00000000, 0x00000000, 0x00000000
  RR   129, add  , 0x00000002, 0x00000001, 0x00000001
  RR   130, add  , 0x0000000a, 0x00000003, 0x00000007
  RR   131, add  , 0x80000000, 0x80000000, 0x00000000
  RR   132, add  , 0x80000000, 0x00000000, 0x80000000
  RR   133, add  , 0x7fffffff, 0x80000000, 0xffffffff
  RR   134, add  , 0x80000000, 0x7fffffff, 0x00000001
  RR   135, add  , 0x7ffffffe, 0x7fffffff, 0xffffffff
  RR   136, add  , 0xfffffffe, 0xffffffff, 0xffffffff
  RR   137, add  , 0x00000000, 0x80000000, 0x80000000
  RR   138, add  , 0xffffffff, 0x00007fff, 0xffff8000
  RR   139, add  , 0x99999999, 0x12345678, 0x87654321
  RR   140, sub  , 0x00000000, 0x00000000, 0x00000000
  RR   141, sub  , 0x00000000, 0x00000001, 0x00000001
  RR   142, sub  , 0xfffffffc, 0x00000003, 0x00000007
  RR   143, sub  , 0x80000000, 0x80000000, 0x00000000
  RR   144, sub  , 0x80000000, 0x00000000, 0x80000000
  RR   145, sub  , 0x80000001, 0x80000000, 0xffffffff
  RR   146, sub  , 0x7ffffffe, 0x7fffffff, 0x00000001
  RR   147, sub  , 0x80000000, 0x7fffffff, 0xffffffff
  RR   148, sub  , 0x00000000, 0xffffffff, 0xffffffff
  RR   149, sub  , 0x00000000, 0x80000000, 0x80000000
  RR   150, sub  , 0x0000ffff, 0x00007fff, 0xffff8000
  RR   151, sub  , 0x8acf1357, 0x12345678, 0x87654321

  // slt, sltu
  RR   152, slt  , 0x00000000, 0x00000000, 0x00000000
  RR   153, slt  , 0x00000000, 0x00000001, 0x00000001
  RR   154, slt  , 0x00000001, 0x00000003, 0x00000007
  RR   155, slt  , 0x00000000, 0x00000007, 0x00000003
  RR   156, slt  , 0x00000000, 0x00000000, 0xffffffff
  RR   157, slt  , 0x00000001, 0xffffffff, 0x00000000
  RR   158, slt  , 0x00000001, 0x80000000, 0x7fffffff
  RR   159, slt  , 0x00000000, 0x7fffffff, 0x80000000
  RR   160, slt  , 0x00000000, 0x80000000, 0x80000000
  RR   161, slt  , 0x00000001, 0xfffffffe, 0xffffffff
  RR   162, slt  , 0x00000000, 0xffffffff, 0xfffffffe
  RR   163, slt  , 0x00000001, 0x80000000, 0xffffffff
  RR   164, sltu , 0x00000000, 0x00000000, 0x00000000
  RR   165, sltu , 0x00000000, 0x00000001, 0x00000001
  RR   166, sltu , 0x00000001, 0x00000003, 0x00000007
  RR   167, sltu , 0x00000000, 0x00000007, 0x00000003
  RR   168, sltu , 0x00000001, 0x00000000, 0xffffffff
  RR   169, sltu , 0x00000000, 0xffffffff, 0x00000000
  RR   170, sltu , 0x00000000, 0x80000000, 0x7fffffff
  RR   171, sltu , 0x00000001, 0x7fffffff, 0x80000000
  RR   172, sltu , 0x00000000, 0x80000000, 0x80000000
  RR   173, sltu , 0x00000001, 0xfffffffe, 0xffffffff
  RR   174, sltu , 0x00000000, 0xffffffff, 0xfffffffe
  RR   175, sltu , 0x00000001, 0x80000000, 0xffffffff

  // xor, or, and
  RR   176, xor  , 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f
  RR   177, xor  , 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0
  RR   178, xor  , 0x0ff00ff0, 0x00ff00ff, 0x0f0f0f0f
  RR   179, xor  , 0x00ff00ff, 0xf00ff00f, 0xf0f0f0f0
  RR   180, xor  , 0xffffffff, 0xffffffff, 0x00000000
  RR   181, xor  , 0x00000001, 0x80000000, 0x80000001
  RR   182, or   , 0xff0fff0f, 0xff00ff00, 0x0f0f0f0f
  RR   183, or   , 0xfff0fff0, 0x0ff00ff0, 0xf0f0f0f0
  RR   184, or   , 0x0fff0fff, 0x00ff00ff, 0x0f0f0f0f
  RR   185, or   , 0xf0fff0ff, 0xf00ff00f, 0xf0f0f0f0
  RR   186, or   , 0xffffffff, 0xffffffff, 0x00000000
  RR   187, or   , 0x80000001, 0x80000000, 0x80000001
  RR   188, and  , 0x0f000f00, 0xff00ff00, 0x0f0f0f0f
  RR   189, and  , 0x00f000f0, 0x0ff00ff0, 0xf0f0f0f0
  RR   190, and  , 0x000f000f, 0x00ff00ff, 0x0f0f0f0f
  RR   191, and  , 0xf000f000, 0xf00ff00f, 0xf0f0f0f0
  RR   192, and  , 0x00000000, 0xffffffff, 0x00000000
  RR   193, and  , 0x80000000, 0x80000000, 0x80000001

  // sll, srl, sra: only rs2's low five bits count
  RR   194, sll  , 0x00000001, 0x00000001, 0x00000000
  RR   195, sll  , 0x00000002, 0x00000001, 0x00000001
  RR   196, sll  , 0xc0c0c080, 0x81818181, 0x00000007
  RR   197, sll  , 0x60604000, 0x81818181, 0x0000000e
  RR   198, sll  , 0x80000000, 0x81818181, 0x0000001f
  RR   199, sll  , 0x80000000, 0xffffffff, 0x0000001f
  RR   200, sll  , 0x81818181, 0x81818181, 0xffffffe0
  RR   201, sll  , 0x03030302, 0x81818181, 0xffffffe1
  RR   202, sll  , 0x80000000, 0x81818181, 0xffffffff
  RR   203, sll  , 0x90909080, 0x21212121, 0xffffffe7
  RR   204, sll  , 0x00000000, 0x80000000, 0x00000021
  RR   205, sll  , 0x80000000, 0x7fffffff, 0x0000001f
  RR   206, srl  , 0x00000001, 0x00000001, 0x00000000
  RR   207, srl  , 0x00000000, 0x00000001, 0x00000001
  RR   208, srl  , 0x01030303, 0x81818181, 0x00000007
  RR   209, srl  , 0x00020606, 0x81818181, 0x0000000e
  RR   210, srl  , 0x00000001, 0x81818181, 0x0000001f
  RR   211, srl  , 0x00000001, 0xffffffff, 0x0000001f
  RR   212, srl  , 0x81818181, 0x81818181, 0xffffffe0
  RR   213, srl  , 0x40c0c0c0, 0x81818181, 0xffffffe1
  RR   214, srl  , 0x00000001, 0x81818181, 0xffffffff
  RR   215, srl  , 0x00424242, 0x21212121, 0xffffffe7
  RR   216, srl  , 0x40000000, 0x80000000, 0x00000021
  RR   217, srl  , 0x00000000, 0x7fffffff, 0x0000001f
  RR   218, sra  , 0x00000001, 0x00000001, 0x00000000
  RR   219, sra  , 0x00000000, 0x00000001, 0x00000001
  RR   220, sra  , 0xff030303, 0x81818181, 0x00000007
  RR   221, sra  , 0xfffe0606, 0x81818181, 0x0000000e
  RR   222, sra  , 0xffffffff, 0x81818181, 0x0000001f
  RR   223, sra  , 0xffffffff, 0xffffffff, 0x0000001f
  RR   224, sra  , 0x81818181, 0x81818181, 0xffffffe0
  RR   225, sra  , 0xc0c0c0c0, 0x81818181, 0xffffffe1
  RR   226, sra  , 0xffffffff, 0x81818181, 0xffffffff
  RR   227, sra  , 0x00424242, 0x21212121, 0xffffffe7
  RR   228, sra  , 0xc0000000, 0x80000000, 0x00000021
  RR   229, sra  , 0x00000000, 0x7fffffff, 0x0000001f

  // ---- dependences: rd == rs, and a result used 1, 2, 3 instructions later ----
  li x3, 13
  addi x3, x3, 11
  CHECK(400, x3, 24)
  li x3, 5
  li x2, 0x70
  add x3, x3, x2
  CHECK(401, x3, 0x75)
  li x3, 5
  li x1, 0x70
  sub x3, x1, x3
  CHECK(402, x3, 0x6b)
  li x3, 0x40000001
  add x3, x3, x3
  CHECK(403, x3, 0x80000002)
  li x3, 0x0f0f0f0f
  xor x3, x3, x3
  CHECK(404, x3, 0)
  li x3, 0x87654321
  srai x3, x3, 4
  CHECK(405, x3, 0xf8765432)
  li x3, 3
  sll x3, x3, x3
  CHECK(406, x3, 24)
  // A chain, each instruction using the one before (forwarded from W).
  li x1, 1
  addi x2, x1, 1
  add x3, x2, x1
  sub x4, x3, x2
  slli x5, x4, 4
  or x6, x5, x3
  xor x7, x6, x4
  CHECK(410, x2, 2)
  CHECK(411, x3, 3)
  CHECK(412, x4, 1)
  CHECK(413, x5, 16)
  CHECK(414, x6, 19)
  CHECK(415, x7, 18)
  // The forwarded operand as rs2.
  li x1, 0x100
  li x2, 7
  sub x3, x1, x2
  CHECK(416, x3, 0xf9)
  // Distance 2 and 3 (the register file), distance 1 and 2 mixed.
  li x1, 0x11
  li x2, 0x22
  nop
  add x3, x1, x2
  CHECK(420, x3, 0x33)
  li x1, 0x111
  nop
  nop
  addi x3, x1, 1
  CHECK(421, x3, 0x112)
  li x5, 5
  li x6, 6
  sub x7, x5, x6
  CHECK(422, x7, 0xffffffff)
  // The same register written twice in a row: the later value wins.
  li x3, 1
  li x3, 2
  add x4, x3, x0
  CHECK(423, x4, 2)
  addi x3, x0, 5
  addi x3, x3, 1
  addi x3, x3, 1
  CHECK(424, x3, 7)
  lui x3, 0x12345
  addi x3, x3, 0x678
  CHECK(425, x3, 0x12345678)
  lui x3, 0xfedcc
  addi x3, x3, -0x211
  CHECK(426, x3, 0xfedcbdef)
auipc_fwd:
  auipc x3, 0
  addi x3, x3, 8
  CHECK_ADDR(427, x3, auipc_fwd + 8)

  // ---- x0: writes are dropped, even to the next instruction; reads give 0 ----
  li x1, 0x5a5a5a5a
  li x2, 0x12345678
  addi x0, x0, 5
  add x3, x0, x0
  CHECK(500, x3, 0)
  lui x0, 0x12345
  mv x3, x0
  CHECK(501, x3, 0)
  add x0, x1, x2
  addi x3, x0, 0
  CHECK(502, x3, 0)
  auipc x0, 1
  or x3, x0, x0
  CHECK(503, x3, 0)
  xori x0, x1, -1
  nop
  sub x3, x1, x0
  CHECK(504, x3, 0x5a5a5a5a)
  sub x3, x0, x1
  CHECK(505, x3, 0xa5a5a5a6)
  addi x3, x0, -1
  CHECK(506, x3, 0xffffffff)
  sltu x3, x0, x1
  CHECK(507, x3, 1)
  sltu x3, x1, x0
  CHECK(508, x3, 0)
  slt x3, x0, x0
  CHECK(509, x3, 0)
  srai x0, x1, 3
  sra x3, x1, x0
  CHECK(510, x3, 0x5a5a5a5a)
  sltiu x3, x0, 1
  CHECK(511, x3, 1)
  CHECK(512, x0, 0)

  PASS

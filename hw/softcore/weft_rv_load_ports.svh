// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// The RAM's load port (weft_rv_cpu, and weft_rv_soc, which passes it through): while the
// core is in reset, a word read, or written when load_we_i, one a cycle; load_rdata_o is
// the word at the address of the previous cycle's read. Needs MemAw in scope.
  input  logic             load_en_i,
  input  logic             load_we_i,
  input  logic [MemAw-1:0] load_addr_i,
  input  logic [31:0]      load_wdata_i,
  output logic [31:0]      load_rdata_o,

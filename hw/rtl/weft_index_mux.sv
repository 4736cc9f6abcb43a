// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_index_mux: entry idx_i of a table of N entries of W bits, flattened (entry k in
// bits [k*W +: W]); 0 and in_o low when idx_i is N or more.
//
// Why not table[idx*W +: W]: synthesis builds that as a shifter over every bit position
// the product can reach; nor a loop of compares, which becomes a chain of N
// multiplexers. This is a tree of 2:1 multiplexers, one level per index bit. en_i low
// gives 0 without walking the tree: a simulator then skips it (docs/architecture.md); in
// hardware it is one AND per output bit.
module weft_index_mux #(
  /// Entries.
  parameter int unsigned N = 2,
  /// Bits per entry.
  parameter int unsigned W = 1,
  /// Bits of the index.
  parameter int unsigned IdxW = 8
) (
  /// The table.
  input  logic [N*W-1:0]  table_i,
  /// The entry wanted.
  input  logic [IdxW-1:0] idx_i,
  /// The entry is needed now (else data_o is 0).
  input  logic            en_i,
  /// idx_i names an entry.
  output logic            in_o,
  /// That entry (0 when none).
  output logic [W-1:0]    data_o
);

  localparam int unsigned LvW = (N > 1) ? $clog2(N) : 1;  // index bits the tree uses
  localparam int unsigned NP = 1 << LvW;                   // leaves (N rounded up)

  localparam int NPSigned = NP;
  localparam int LvWSigned = LvW;

  // Level b pairs up the entries left by level b-1 with index bit b; entry j of a level
  // overwrites one the level has already read.
  logic [NP*W-1:0] lvl;
  always_comb begin
    lvl = '0;
    if (en_i) begin
      lvl[N*W-1:0] = table_i;
      for (int b = 0; b < LvWSigned; b++) begin
        for (int j = 0; j < (NPSigned >> (b + 1)); j++) begin
          lvl[j*W +: W] = idx_i[b] ? lvl[(2*j+1)*W +: W] : lvl[(2*j)*W +: W];
        end
      end
    end
  end

  assign in_o   = 32'(idx_i) < N;
  assign data_o = in_o ? lvl[0 +: W] : '0;

endmodule

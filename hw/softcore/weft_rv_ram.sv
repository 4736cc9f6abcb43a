// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_ram: the softcore's local memory (code and data in one address space), a
// true dual-port RAM: port A reads instructions, port B reads and writes data with byte
// strobes. Each port returns the word of the address it was given one cycle earlier and
// holds its output while its enable is low (a stalled pipeline keeps its instruction).
// A write returns the old word (read-first). No reset. The template is what Yosys
// `synth_xilinx` and Vivado map to block RAM.
module weft_rv_ram #(
  /// 32-bit words, a power of two.
  parameter int unsigned Words = 16384,
  localparam int unsigned AddrWidth = $clog2(Words)
) (
  input  logic                 clk_i,
  /// Port A (instructions): read when a_en_i.
  input  logic                 a_en_i,
  input  logic [AddrWidth-1:0] a_addr_i,
  output logic [31:0]          a_rdata_o,
  /// Port B (data): read, and write the bytes b_we_i names, when b_en_i.
  input  logic                 b_en_i,
  input  logic [3:0]           b_we_i,
  input  logic [AddrWidth-1:0] b_addr_i,
  input  logic [31:0]          b_wdata_i,
  output logic [31:0]          b_rdata_o
);

  logic [31:0] mem_q [Words];

  always_ff @(posedge clk_i) begin
    if (a_en_i) begin
      a_rdata_o <= mem_q[a_addr_i];
    end
  end

  always_ff @(posedge clk_i) begin
    if (b_en_i) begin
      b_rdata_o <= mem_q[b_addr_i];
      for (int b = 0; b < 4; b++) begin
        if (b_we_i[b]) begin
          mem_q[b_addr_i][b*8 +: 8] <= b_wdata_i[b*8 +: 8];
        end
      end
    end
  end

  if ((1 << AddrWidth) != Words) begin : gen_check_words
    $error("weft_rv_ram: Words must be a power of two");
  end

endmodule

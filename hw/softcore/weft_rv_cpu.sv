// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_cpu: the softcore (weft_rv_core) with its local RAM (weft_rv_ram) and a port
// that loads and reads the RAM while the core is held in reset: the unit a slot wrapper
// or a test bench instantiates (docs/softcore.md). The load port takes the RAM's data
// port whenever load_en_i is high; the core must be in reset then.
module weft_rv_cpu #(
  parameter int unsigned NumCtx = 4,
  parameter int unsigned MemBytes = 65536,
  parameter logic [31:0] ResetPc = 32'h0,
  localparam int unsigned CtxW = (NumCtx > 1) ? $clog2(NumCtx) : 1,
  localparam int unsigned MemAw = $clog2(MemBytes) - 2
) (
  input  logic             clk_i,
  /// The core's reset (active low); the RAM keeps its contents.
  input  logic             rst_ni,
  `include "weft_rv_load_ports.svh"
  `include "weft_rv_io_ports.svh"
);

  logic             imem_en, dmem_en, b_en;
  logic [MemAw-1:0] imem_addr, dmem_addr, b_addr;
  logic [3:0]       dmem_we, b_we;
  logic [31:0]      imem_rdata, dmem_wdata, b_wdata, b_rdata;

  weft_rv_core #(
    .NumCtx  (NumCtx),
    .MemBytes(MemBytes),
    .ResetPc (ResetPc)
  ) u_core (
    .clk_i,
    .rst_ni,
    .imem_en_o   (imem_en),
    .imem_addr_o (imem_addr),
    .imem_rdata_i(imem_rdata),
    .dmem_en_o   (dmem_en),
    .dmem_we_o   (dmem_we),
    .dmem_addr_o (dmem_addr),
    .dmem_wdata_o(dmem_wdata),
    .dmem_rdata_i(b_rdata),
    `include "weft_rv_io_conn.svh"
  );

  assign b_en    = load_en_i || dmem_en;
  assign b_we    = load_en_i ? {4{load_we_i}} : dmem_we;
  assign b_addr  = load_en_i ? load_addr_i : dmem_addr;
  assign b_wdata = load_en_i ? load_wdata_i : dmem_wdata;
  assign load_rdata_o = b_rdata;

  weft_rv_ram #(.Words(MemBytes / 4)) u_ram (
    .clk_i,
    .a_en_i   (imem_en),
    .a_addr_i (imem_addr),
    .a_rdata_o(imem_rdata),
    .b_en_i   (b_en),
    .b_we_i   (b_we),
    .b_addr_i (b_addr),
    .b_wdata_i(b_wdata),
    .b_rdata_o(b_rdata)
  );

endmodule

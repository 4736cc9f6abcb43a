// Test-bench top of tb_hwlib_memif_burst.cpp: weft_memif_burst (RamAddrWidth 11) with its
// request and response structs (weft_hwt_pkg) as one port per field, so the C++ bench
// needs no bit position of them, and its MEMIF on the slot boundary's structs, which the
// bench reads and writes with the generated WEFT_SLOT_GET/WEFT_SLOT_SET. The OSIF
// channel is unused.
module tb_weft_memif_burst (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // burst_req_t
  input  logic                     req_i,
  input  logic                     dir_i,
  input  logic [31:0]              addr_i,
  input  logic [23:0]              len_i,
  input  logic [10:0]              ram_addr_i,

  // burst_rsp_t
  output logic                     done_o,
  output logic                     busy_o,

  output logic [10:0]              ram_addr_o,
  output logic                     ram_we_o,
  output logic [31:0]              ram_wdata_o,
  input  logic [31:0]              ram_rdata_i,

  input  weft_osif_pkg::slot_rsp_t slot_i,
  output weft_osif_pkg::slot_req_t slot_o
);

  weft_hwt_pkg::burst_req_t req;
  weft_hwt_pkg::burst_rsp_t rsp;

  always_comb begin
    req.valid = req_i;
    req.write = dir_i;
    req.addr = addr_i;
    req.len = len_i;
  end

  weft_memif_burst #(.RamAddrWidth(11)) u_burst (
    .clk_i, .rst_ni, .req_i(req), .ram_addr_i, .rsp_o(rsp), .ram_addr_o, .ram_we_o,
    .ram_wdata_o, .ram_rdata_i, .mem_i(slot_i.mem), .mem_o(slot_o.mem));

  assign done_o = rsp.done;
  assign busy_o = rsp.busy;

  assign slot_o.osif = '0;
  logic unused_osif;
  assign unused_osif = ^slot_i.osif;

  `include "weft_no_regs.svh"

endmodule

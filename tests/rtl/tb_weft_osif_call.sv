// Test-bench top of tb_hwlib_osif_call.cpp: weft_osif_call (MaxArgs 2, MaxResults 1) with
// its request and response structs (weft_hwt_pkg) as one port per field, so the C++ bench
// needs no bit position of them, and its OSIF on the slot boundary's structs, which the
// bench reads and writes with the generated WEFT_SLOT_GET/WEFT_SLOT_SET. The MEMIF
// channel is unused.
module tb_weft_osif_call (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // call_req_t
  input  logic                     req_i,
  input  logic [7:0]               cmd_i,
  input  logic [15:0]              handle_i,
  input  logic [15:0]              nargs_i,
  input  logic [15:0]              nresults_i,
  input  logic [63:0]              args_i,

  // call_rsp_t
  output logic                     done_o,
  output logic                     ok_o,
  output logic [7:0]               status_o,
  output logic                     resp_err_o,
  output logic [31:0]              resp_hdr_o,
  output logic [15:0]              nresults_o,
  output logic                     busy_o,
  output logic [31:0]              results_o,

  input  weft_osif_pkg::slot_rsp_t slot_i,
  output weft_osif_pkg::slot_req_t slot_o
);

  weft_hwt_pkg::call_req_t req;
  weft_hwt_pkg::call_rsp_t rsp;

  always_comb begin
    req.valid = req_i;
    req.cmd = cmd_i;
    req.handle = handle_i;
    req.nargs = nargs_i;
    req.nresults = nresults_i;
  end

  weft_osif_call #(.MaxArgs(2), .MaxResults(1)) u_call (
    .clk_i, .rst_ni, .req_i(req), .args_i, .rsp_o(rsp), .results_o,
    .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  assign done_o = rsp.done;
  assign ok_o = rsp.ok;
  assign status_o = rsp.status;
  assign resp_err_o = rsp.err;
  assign resp_hdr_o = rsp.hdr;
  assign nresults_o = rsp.nresults;
  assign busy_o = rsp.busy;

  assign slot_o.mem = '0;
  logic unused_mem;
  assign unused_mem = ^slot_i.mem;

  `include "weft_no_regs.svh"

endmodule

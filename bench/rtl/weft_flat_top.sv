// weft_flat_top: the reference of weft-bench-sim-speed (docs/benchmarks.md). The static
// region and a hwt_sort in every slot of SortSlots, compiled by Verilator into ONE
// model: no run-time loading, no slot boundary crossing the host, every model evaluated
// at every edge. The co-simulation's cycles per second are reported as a fraction of
// this model's, so the ratio shows what the co-simulation's structure costs or saves.
//
// A slot's clock runs only while its CONTROL.RUN is set, as on a board (the co-simulation
// does not evaluate a stopped slot either). The parameters are weft_static's, so the
// platform description's -G flags apply unchanged.
module weft_flat_top #(
  `include "weft_static_params.svh",
  /// Slots that hold a hwt_sort (bit s); the others are empty.
  parameter logic [NumSlots-1:0] SortSlots = '1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  `include "weft_axil_slave_ports.svh"
  `include "weft_axi_master_ports.svh"
  output logic [NumSlots-1:0] irq_o
);

  localparam int unsigned ReqWidth  = weft_osif_pkg::SlotReqWidth;
  localparam int unsigned ReqStride = weft_osif_pkg::SlotReqStride;
  localparam int unsigned RspWidth  = weft_osif_pkg::SlotRspWidth;
  localparam int unsigned RspStride = weft_osif_pkg::SlotRspStride;

  logic [NumSlots-1:0] slot_run, slot_rst_n, slot_idle;
  logic [NumSlots*ReqStride-1:0] slot_req;
  logic [NumSlots*RspStride-1:0] slot_rsp;
  logic quiet, hold;
  logic fri_irq, fri_load, fri_load_blank, svc_irq;
  logic [7:0] fri_load_slot;

  weft_static #(
    `include "weft_static_param_conn.svh"
  ) u_static (
    .*,  // clock, reset, both AXI ports, irq_o
    .slot_run_o (slot_run),
    .quiet_o    (quiet),
    .hold_o     (hold),
    .skip_i     (32'd0),
    .slot_idle_o(slot_idle),
    .slot_rst_no(slot_rst_n),
    .slot_req_i (slot_req),
    .slot_rsp_o (slot_rsp),
    .svc_irq_o  (svc_irq),
    // No reconfiguration here: the loader answers at once, as a board's does.
    .fri_irq_o       (fri_irq),
    .fri_load_o      (fri_load),
    .fri_load_blank_o(fri_load_blank),
    .fri_load_slot_o (fri_load_slot),
    .fri_load_done_i (1'b1),
    .fri_load_ok_i   (1'b1)
  );

  for (genvar s = 0; s < NumSlots; s++) begin : gen_slot
    if (SortSlots[s]) begin : gen_sort
      logic slot_clk;
      assign slot_clk = clk_i & slot_run[s];
      hwt_sort u_thread (
        .clk_i (slot_clk),
        .rst_ni(slot_rst_n[s]),
        .slot_i(slot_rsp[s*RspStride +: RspWidth]),
        .slot_o(slot_req[s*ReqStride +: ReqWidth])
      );
      if (ReqStride > ReqWidth) begin : gen_pad
        assign slot_req[s*ReqStride + ReqWidth +: ReqStride - ReqWidth] = '0;
      end
    end else begin : gen_empty
      assign slot_req[s*ReqStride +: ReqStride] = '0;
    end
  end

  // The simulation hints are for the co-simulation's host; this model evaluates all.
  // (With every slot empty nothing reads the slots' run, reset or response either.)
  logic unused_hints;
  assign unused_hints = ^{quiet, hold, slot_idle, slot_rsp, slot_run, slot_rst_n, fri_irq, svc_irq,
                          fri_load, fri_load_blank, fri_load_slot};

endmodule

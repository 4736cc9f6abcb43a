// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_soc: the softcore as programs see it (docs/softcore.md, "Memory map"): the
// core and its RAM (weft_rv_cpu), the machine timer and software interrupt
// (weft_rv_clint, at 0xF0000000), the OS services (weft_rv_os, at 0xF0010000: the
// scheduler whose decision the core follows, the synchronisation manager, the delay
// timers), and an outward MMIO port for every other address with bit 31 set (the slot's
// OS-call bridge, or a test bench's devices).
module weft_rv_soc #(
  parameter int unsigned NumCtx = 8,
  parameter int unsigned MemBytes = 65536,
  /// weft_rv_os: thread ids (a power of two, 2-32), priorities, hardware objects.
  parameter int unsigned NumThreads = 16,
  parameter int unsigned NumPrios = 32,
  parameter int unsigned NumObjs = 16,
  localparam int unsigned CtxW = (NumCtx > 1) ? $clog2(NumCtx) : 1,
  localparam int unsigned MemAw = $clog2(MemBytes) - 2
) (
  input  logic             clk_i,
  /// The core's and the devices' reset (active low); the RAM keeps its contents.
  input  logic             rst_ni,
  `include "weft_rv_load_ports.svh"
  `include "weft_rv_mmio_ports.svh"
  /// mip.MEIP.
  input  logic             irq_ext_i,
  output logic [CtxW-1:0]  ctx_o,
  /// The core waits in wfi in context 0 and nothing inside counts time for it (no timer
  /// interrupt enabled, no sleep or timed call in the OS services, the idle thread
  /// decided): only an input can make it run again, so a slot may stop its clock.
  output logic             idle_o,
  output weft_rv_pkg::trace_t trace_o
);

  localparam logic [15:0] ClintBase = 16'hF000;
  localparam logic [15:0] OsBase = 16'hF001;

  logic        c_req, c_we, c_ready, c_err;
  logic [31:0] c_addr, c_wdata, c_rdata;
  logic [3:0]  c_wstrb;
  logic        irq_soft, irq_timer;
  logic [63:0] mtime;

  logic        clint_sel, clint_err, os_sel, os_ready, os_err;
  logic [31:0] clint_rdata, os_rdata;
  logic [CtxW-1:0] sched_ctx;
  logic        core_wfi, os_quiet;
  assign clint_sel = c_addr[31:16] == ClintBase;
  assign os_sel    = c_addr[31:16] == OsBase;

  weft_rv_cpu #(.NumCtx(NumCtx), .MemBytes(MemBytes)) u_cpu (
    .clk_i,
    .rst_ni,
    .load_en_i,
    .load_we_i,
    .load_addr_i,
    .load_wdata_i,
    .load_rdata_o,
    .mmio_req_o  (c_req),
    .mmio_we_o   (c_we),
    .mmio_addr_o (c_addr),
    .mmio_wdata_o(c_wdata),
    .mmio_wstrb_o(c_wstrb),
    .mmio_ready_i(c_ready),
    .mmio_err_i  (c_err),
    .mmio_rdata_i(c_rdata),
    .irq_soft_i  (irq_soft),
    .irq_timer_i (irq_timer),
    .irq_ext_i,
    .time_i      (mtime),
    .sched_ctx_i (sched_ctx),
    .ctx_o,
    .wfi_o       (core_wfi),
    .trace_o
  );

  weft_rv_clint u_clint (
    .clk_i,
    .rst_ni,
    .req_i      (c_req && clint_sel),
    .we_i       (c_we),
    .addr_i     (c_addr[15:2]),
    .wdata_i    (c_wdata),
    .wstrb_i    (c_wstrb),
    .err_o      (clint_err),
    .rdata_o    (clint_rdata),
    .irq_timer_o(irq_timer),
    .irq_soft_o (irq_soft),
    .mtime_o    (mtime)
  );

  // The OS window's registers are its first 64 bytes, its call window 0x4000-0x7FFF;
  // the rest answers an error.
  logic os_in_window, os_call;
  assign os_call      = c_addr[15:14] == 2'b01;
  assign os_in_window = c_addr[15:6] == '0 || os_call;
  weft_rv_os #(
    .NumCtx    (NumCtx),
    .NumThreads(NumThreads),
    .NumPrios  (NumPrios),
    .NumObjs   (NumObjs)
  ) u_os (
    .clk_i,
    .rst_ni,
    .req_i      (c_req && os_sel && os_in_window),
    .we_i       (c_we),
    .addr_i     (c_addr[5:2]),
    .wdata_i    (c_wdata),
    .call_i     (os_call),
    .call_op_i  (c_addr[5:2]),
    .call_obj_i (c_addr[13:6]),
    .ready_o    (os_ready),
    .err_o      (os_err),
    .rdata_o    (os_rdata),
    .ctx_i      (ctx_o),
    .sched_ctx_o(sched_ctx),
    .quiet_o    (os_quiet)
  );
  assign idle_o = core_wfi && os_quiet;

  assign mmio_req_o   = c_req && !clint_sel && !os_sel;
  assign mmio_we_o    = c_we;
  assign mmio_addr_o  = c_addr;
  assign mmio_wdata_o = c_wdata;
  assign mmio_wstrb_o = c_wstrb;
  always_comb begin
    if (clint_sel) begin
      c_ready = 1'b1;
      c_err   = clint_err;
      c_rdata = clint_rdata;
    end else if (os_sel) begin
      c_ready = !os_in_window || os_ready;
      c_err   = !os_in_window || os_err;
      c_rdata = os_rdata;
    end else begin
      c_ready = mmio_ready_i;
      c_err   = mmio_err_i;
      c_rdata = mmio_rdata_i;
    end
  end

endmodule

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// hwt_softcore: the softcore as a hardware thread (docs/softcore.md, "In a slot"): the
// core with its hardware contexts, RAM and OS services (weft_rv_soc) behind the slot
// boundary, like any thread image. Its programs reach software objects through the OSIF
// (weft_rv_bridge) and shared memory through the MEMIF (weft_rv_dma), and the host reads
// their console through the slot's ACC window.
//
// Start: the bridge asks for the init data, the bus address of a program image
// (weft_softcore_create writes one, weft/softcore.h); the DMA reads and checks its header
// and loads the image into the RAM; then the core leaves reset and every context starts
// at address 0. A refused image, or init data that is no word address, ends the thread
// with RvExitBoot | the reason (RvBootErr*).
//
// The program's devices (weft_osif_pkg::RvMmio*, with bit 31 set):
//   0x80000000 TOHOST   a write ends the program: THREAD_EXIT with the value >> 1, once
//                       the host has taken the console's bytes if it takes them; the
//                       store is never answered
//   0x80000004 CONSOLE  a byte of output (a byte store, or bits 7:0 of a word), kept for
//                       the host (RvConsoleBytes; more are dropped and counted)
//   0x80000010 ARG      the image's argument words; 0x80000020 INIT the init data
//   0x80001000 the OSIF bridge; 0x80002000 the DMA
// Anything else there is an access fault, and so is a store of a byte or a halfword
// but to CONSOLE (registers are whole words).
//
// The ACC window (byte offsets): RvAccConsole (read: the oldest byte, with
// RvAccConsoleValid; write 1: the host takes the bytes, and the thread's interrupt is
// raised while there are any), RvAccDropped, RvAccState.
module hwt_softcore #(
  /// Hardware contexts of the core (1 to 32).
  parameter int unsigned NumCtx = 8,
  /// The OS services: thread ids (a power of two, 2-32), priorities, hardware objects.
  parameter int unsigned NumThreads = 16,
  parameter int unsigned NumPrios = 32,
  parameter int unsigned NumObjs = 16,
  parameter int unsigned MemBytes = weft_osif_pkg::RvRamBytes,
  localparam int unsigned CtxW = (NumCtx > 1) ? $clog2(NumCtx) : 1,
  localparam int unsigned MemAw = $clog2(MemBytes) - 2
) (
  `include "weft_slot_ports.svh"
);

  localparam int unsigned ConBytes = weft_osif_pkg::RvConsoleBytes;
  localparam int unsigned ConAw = $clog2(ConBytes);
  localparam int unsigned NumArgs = weft_osif_pkg::RvBootArgs;

  // ---------------------------------------------------------------------------------
  // The core
  // ---------------------------------------------------------------------------------
  logic             core_run_q;  // the image is loaded: the core leaves reset
  logic             load_en, load_we;
  logic [MemAw-1:0] load_addr;
  logic [31:0]      load_wdata, load_rdata;
  logic             mmio_req, mmio_we, mmio_ready, mmio_err;
  logic [31:0]      mmio_addr, mmio_wdata, mmio_rdata;
  logic [3:0]       mmio_wstrb;
  logic             irq_ext, soc_idle;
  logic [CtxW-1:0]  ctx;
  weft_rv_pkg::trace_t trace;

  weft_rv_soc #(
    .NumCtx    (NumCtx),
    .MemBytes  (MemBytes),
    .NumThreads(NumThreads),
    .NumPrios  (NumPrios),
    .NumObjs   (NumObjs)
  ) u_soc (
    .clk_i,
    .rst_ni      (core_run_q),
    .load_en_i   (load_en),
    .load_we_i   (load_we),
    .load_addr_i (load_addr),
    .load_wdata_i(load_wdata),
    .load_rdata_o(load_rdata),
    .mmio_req_o  (mmio_req),
    .mmio_we_o   (mmio_we),
    .mmio_addr_o (mmio_addr),
    .mmio_wdata_o(mmio_wdata),
    .mmio_wstrb_o(mmio_wstrb),
    .mmio_ready_i(mmio_ready),
    .mmio_err_i  (mmio_err),
    .mmio_rdata_i(mmio_rdata),
    .irq_ext_i   (irq_ext),
    .ctx_o       (ctx),
    .idle_o      (soc_idle),
    .trace_o     (trace)
  );

  // The devices: the page of TOHOST, CONSOLE, ARG and INIT, the bridge's, the DMA's.
  logic dev_page, bridge_sel, dma_sel, whole, bad_store;
  assign dev_page   = mmio_addr[31:12] == weft_osif_pkg::RvMmioTohost[31:12];
  assign bridge_sel = mmio_addr[31:12] == weft_osif_pkg::RvMmioOsifCtrl[31:12];
  assign dma_sel    = mmio_addr[31:12] == weft_osif_pkg::RvMmioDmaLocal[31:12] &&
                      mmio_addr[11:4] == '0;
  assign whole      = mmio_wstrb == 4'hF;

  // ---------------------------------------------------------------------------------
  // The OSIF: start, the program's calls, the end
  // ---------------------------------------------------------------------------------
  logic        init_valid, init_ok, exit_req, bridge_err;
  logic [31:0] init_data, bridge_rdata, exit_value;

  weft_rv_bridge u_bridge (
    .clk_i,
    .rst_ni,
    .req_i       (mmio_req && bridge_sel && !bad_store),
    .we_i        (mmio_we),
    .addr_i      (mmio_addr[11:2]),
    .wdata_i     (mmio_wdata),
    .err_o       (bridge_err),
    .rdata_o     (bridge_rdata),
    .irq_o       (irq_ext),
    .init_valid_o(init_valid),
    .init_ok_o   (init_ok),
    .init_data_o (init_data),
    .exit_i      (exit_req),
    .exit_value_i(exit_value),
    .may_pause_i (soc_idle),
    .osif_i      (slot_i.osif),
    .osif_o      (slot_o.osif)
  );

  // ---------------------------------------------------------------------------------
  // The MEMIF: boot, then the program's transfers
  // ---------------------------------------------------------------------------------
  logic        booted, boot_fail, init_bad, dma_ready;
  logic [7:0]  boot_err;
  logic [31:0] dma_rdata;
  logic [32*NumArgs-1:0] args;
  assign init_bad = init_valid && (!init_ok || init_data[1:0] != '0);

  weft_rv_dma #(.MemBytes(MemBytes)) u_dma (
    .clk_i,
    .rst_ni,
    .boot_i      (init_valid && !init_bad),
    .boot_addr_i (init_data),
    .booted_o    (booted),
    .boot_fail_o (boot_fail),
    .boot_err_o  (boot_err),
    .args_o      (args),
    .req_i       (mmio_req && dma_sel && !bad_store),
    .we_i        (mmio_we),
    .addr_i      (mmio_addr[3:2]),
    .wdata_i     (mmio_wdata),
    .ready_o     (dma_ready),
    .rdata_o     (dma_rdata),
    .load_en_o   (load_en),
    .load_we_o   (load_we),
    .load_addr_o (load_addr),
    .load_wdata_o(load_wdata),
    .load_rdata_i(load_rdata),
    .mem_i       (slot_i.mem),
    .mem_o       (slot_o.mem)
  );

  // ---------------------------------------------------------------------------------
  // The console, kept for the host: a FIFO of its own, since weft_fifo resets
  // asynchronously and a thread's flops reset with the slot's synchronous rst_ni.
  // ---------------------------------------------------------------------------------
  logic [7:0]     con_q [ConBytes];
  logic [ConAw-1:0] con_head_q, con_tail_q;
  logic [ConAw:0] con_count_q;
  logic [31:0]    con_dropped_q;
  logic           con_host_q;   // the host takes the bytes
  logic           con_write, con_push, con_pop, con_full;
  assign con_full = con_count_q == (ConAw + 1)'(ConBytes);

  // ---- the device page ----
  localparam logic [9:0] OffTohost  = 10'(weft_osif_pkg::RvMmioTohost[11:2]);
  localparam logic [9:0] OffConsole = 10'(weft_osif_pkg::RvMmioConsole[11:2]);
  localparam logic [9:0] OffArg     = 10'(weft_osif_pkg::RvMmioArg[11:2]);
  localparam logic [9:0] OffInit    = 10'(weft_osif_pkg::RvMmioInit[11:2]);
  logic [9:0]  dev_off;
  logic        dev_err, tohost;
  logic [31:0] dev_rdata;
  assign dev_off = mmio_addr[11:2];
  assign bad_store = mmio_we && !whole &&
                     !(dev_page && dev_off == OffConsole && mmio_wstrb == 4'h1);
  assign tohost  = mmio_req && dev_page && mmio_we && dev_off == OffTohost && !bad_store;
  assign con_write = mmio_req && dev_page && mmio_we && dev_off == OffConsole && !bad_store;
  assign con_push  = con_write && !con_full;
  always_comb begin
    dev_err = 1'b0;
    dev_rdata = '0;
    if (dev_off == OffInit && !mmio_we) begin
      dev_rdata = init_data;
    end else if (dev_off >= OffArg && dev_off < OffArg + 10'(NumArgs) && !mmio_we) begin
      dev_rdata = args[32*(dev_off - OffArg) +: 32];
    end else if (!((dev_off == OffTohost || dev_off == OffConsole) && mmio_we)) begin
      dev_err = 1'b1;
    end
  end

  always_comb begin
    mmio_ready = 1'b1;
    mmio_err   = 1'b0;
    mmio_rdata = '0;
    if (bad_store) begin
      mmio_err   = 1'b1;
    end else if (dev_page) begin
      mmio_ready = !tohost;  // the end: never answered
      mmio_err   = dev_err;
      mmio_rdata = dev_rdata;
    end else if (bridge_sel) begin
      mmio_err   = bridge_err;
      mmio_rdata = bridge_rdata;
    end else if (dma_sel) begin
      mmio_ready = dma_ready;
      mmio_rdata = dma_rdata;
    end else begin
      mmio_err   = 1'b1;
    end
  end

  // ---- the end: a program's exit, or a refused start ----
  logic        exit_q;
  logic [31:0] exit_value_q;
  assign exit_value = init_bad ? (weft_osif_pkg::RvExitBoot | weft_osif_pkg::RvBootErrInit) :
                      boot_fail ? (weft_osif_pkg::RvExitBoot | 32'(boot_err)) : exit_value_q;
  // A program's last lines reach the host before its end does.
  assign exit_req = init_bad || boot_fail ||
                    (exit_q && !(con_host_q && con_count_q != '0));

  // ---- the ACC window ----
  localparam logic [5:0] AccConsole = 6'(weft_osif_pkg::RvAccConsole);
  localparam logic [5:0] AccDropped = 6'(weft_osif_pkg::RvAccDropped);
  localparam logic [5:0] AccState   = 6'(weft_osif_pkg::RvAccState);
  logic        acc_ack_q, acc_take;
  logic [31:0] acc_rdata_q, acc_rdata;
  assign acc_take = slot_i.regs.valid && !acc_ack_q;
  assign con_pop = acc_take && !slot_i.regs.write && slot_i.regs.addr == AccConsole &&
                   con_count_q != '0;
  always_comb begin
    unique case (slot_i.regs.addr)
      AccConsole: acc_rdata = con_count_q != '0 ?
                              (weft_osif_pkg::RvAccConsoleValid | 32'(con_q[con_head_q])) : '0;
      AccDropped: acc_rdata = con_dropped_q;
      AccState:   acc_rdata = {16'b0, boot_err, 7'b0, booted};
      default:    acc_rdata = '0;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (con_push) con_q[con_tail_q] <= mmio_wdata[7:0];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      core_run_q    <= 1'b0;
      con_head_q    <= '0;
      con_tail_q    <= '0;
      con_count_q   <= '0;
      con_dropped_q <= '0;
      con_host_q    <= 1'b0;
      exit_q        <= 1'b0;
      exit_value_q  <= '0;
      acc_ack_q     <= 1'b0;
      acc_rdata_q   <= '0;
    end else begin
      core_run_q <= booted;
      if (con_push) con_tail_q <= con_tail_q + 1'b1;
      if (con_pop) con_head_q <= con_head_q + 1'b1;
      con_count_q <= con_count_q + (ConAw + 1)'(con_push) - (ConAw + 1)'(con_pop);
      if (con_write && con_full && con_dropped_q != '1) con_dropped_q <= con_dropped_q + 32'd1;
      if (tohost && !exit_q) begin
        exit_q       <= 1'b1;
        exit_value_q <= {1'b0, mmio_wdata[31:1]};
      end
      // ACC: each access answered the cycle after it comes, for one cycle.
      acc_ack_q <= acc_take;
      if (acc_take) begin
        acc_rdata_q <= acc_rdata;
        if (slot_i.regs.write && slot_i.regs.addr == AccConsole) con_host_q <= slot_i.regs.wdata[0];
      end
    end
  end

  assign slot_o.regs.ack     = acc_ack_q;
  assign slot_o.regs.rd_data = acc_rdata_q;
  assign slot_o.regs.irq     = con_host_q && con_count_q != '0;

  logic unused;
  assign unused = ^{mmio_addr[1:0], ctx, trace, slot_i.regs.strb};

  if ((1 << ConAw) != ConBytes) begin : gen_check
    $error("hwt_softcore: the console's bytes must be a power of two");
  end

endmodule

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_static: the static region of Weft (docs/architecture.md).
//
// Per slot a weft_slot_if (OSIF FIFOs, link router, MEMIF FIFOs and memory windows, PR
// decoupler, control/fault/counter registers, interrupt line); per hardware link a FIFO
// that only its source slot pushes and only its destination slot pops; one
// weft_axil_regs exposing all registers over AXI4-Lite; one weft_fri, the
// reconfiguration interface, which reads partial bitstream files and programs one slot
// at a time while its decoupler holds that slot; one weft_memif_master carrying every
// slot's memory traffic and the FRI's over AXI4 (one transaction at a time, round-robin
// per burst among the slots; the FRI, one more requester, goes before them but never
// twice in a row); one weft_sync, the synchronisation manager, whose clients are the
// slots (client s is slot s: its weft_call_router) and then the software contexts
// (client NumSlots + c is context c: weft_sync_sw), with its registers in weft_sync_regs;
// one weft_tm, the thread manager and its scheduler, with its registers (weft_tm_regs)
// and its events (weft_tm_events: timers, and the slots' and the FRI's interrupt lines
// as scheduling requests).
//
// The parameters describe one platform; tools/gen_platform.py derives them from the
// platform description (platform/default.yaml). Per-slot and per-link values are packed
// vectors, element 0 in the lowest bits. The OS services (the synchronisation manager,
// the thread manager, its events, the FRI, the links) are built only when the platform
// asks for them (docs/platform.md, "Services"): a service left out has no logic here,
// its registers read 0, and SERVICES says which are present.
//
// Slot boundary: slot s uses bits [s*W +: W] of every slot_* vector (for slot_req_i and
// slot_rsp_o, W is the struct's stride in whole words, weft_osif_pkg). Every output
// towards a slot is a function of static-region registers only. slot_run_o tells the
// simulation host which slots to clock; quiet_o is high when no slot needs a clock
// (each is stopped, held in reset, or waits with no response waiting, no MEMIF command
// pending and no word of its own taken at this edge: blocked in an OSIF call, or
// offering a request word with no room for it in a full HW2SW FIFO or hardware link)
// and no AXI4 transaction is in flight. quiet_o is a hint for the host, not a slot
// input: it may depend combinationally on the slots' outputs. slot_idle_o says per slot
// that it is stopped, or blocked in a call with no read data or burst of its own
// pending, so a simulator may leave that thread unevaluated while others run.
module weft_static #(
  `include "weft_static_params.svh"
) (
  /// Fabric clock.
  input  logic                   clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic                   rst_ni,

  // ---- AXI4-Lite slave: register window ----
  `include "weft_axil_slave_ports.svh"

  // ---- AXI4 master: memory, no IDs ----
  `include "weft_axi_master_ports.svh"

  /// Interrupt line per slot.
  output logic [NumSlots-1:0]    irq_o,
  /// Interrupt line of the OS services: an armed software context's call was answered,
  /// or the thread manager's decision changed (IRQ_PENDING bit NumSlots).
  output logic                   svc_irq_o,

  // ---- reconfiguration interface (weft_fri) ----
  /// Interrupt line of the FRI: a programming ended, FRI_CTRL.IRQ_EN set.
  output logic                   fri_irq_o,
  /// Load slot fri_load_slot_o's configuration now (held until fri_load_done_i); a board
  /// ties done and ok high.
  output logic                   fri_load_o,
  /// Leave that slot empty instead: a check of the file failed.
  output logic                   fri_load_blank_o,
  /// The slot to load (the host knows which configuration from its own START).
  output logic [7:0]             fri_load_slot_o,
  /// The loader is done...
  input  logic                   fri_load_done_i,
  /// ...and loaded the configuration.
  input  logic                   fri_load_ok_i,

  // ---- simulation/clocking hints ----
  /// CONTROL.RUN per slot: clock the slot only when 1.
  output logic [NumSlots-1:0]    slot_run_o,
  /// No slot needs a clock and no AXI4 transaction is in flight.
  output logic                   quiet_o,
  /// Holding: the next edge, with the current inputs, changes no register but the
  /// free-running counters (CYCLE, each running slot's BUSY); a simulator may skip it and
  /// account for it with skip_i (docs/architecture.md, "Holding").
  output logic                   hold_o,
  /// Hold edges skipped before this edge, counted by the free-running counters; only
  /// non-zero in an edge where hold_o is high. 0 on a board.
  input  logic [31:0]            skip_i,

  /// Per slot: the slot needs no clock and nothing of its own is in flight; while this
  /// holds, a simulator may leave the thread unevaluated (docs/architecture.md).
  output logic [NumSlots-1:0]    slot_idle_o,

  // ---- slot boundary, static side ----
  /// Reset towards each slot (active low).
  output logic [NumSlots-1:0]    slot_rst_no,
  /// The threads' side of every slot's channels: slot s's weft_osif_pkg::slot_req_t in
  /// the low SlotReqWidth bits of [s*SlotReqStride +: SlotReqStride] (whole words).
  input  logic [NumSlots*weft_osif_pkg::SlotReqStride-1:0] slot_req_i,
  /// The static region's side: slot s's slot_rsp_t in the low SlotRspWidth bits of
  /// [s*SlotRspStride +: SlotRspStride]; the bits above it are 0.
  output logic [NumSlots*weft_osif_pkg::SlotRspStride-1:0] slot_rsp_o
);

  localparam int unsigned MaxLinks = weft_osif_pkg::RegLinkInfoCount;
  localparam int unsigned ReqWidth  = weft_osif_pkg::SlotReqWidth;
  localparam int unsigned ReqStride = weft_osif_pkg::SlotReqStride;
  localparam int unsigned RspWidth  = weft_osif_pkg::SlotRspWidth;
  localparam int unsigned RspStride = weft_osif_pkg::SlotRspStride;
  localparam int unsigned LinkW = 5;
  localparam int unsigned LinkSlots = 1 << LinkW;
  // Signed copy for loop bounds: a loop to 0 links would otherwise compare unsigned < 0.
  localparam int NumLinksSigned = NumLinks;

  // Links slot s pushes into (tx) or pops from (rx).
  function automatic logic [LinkSlots-1:0] link_mask(input int unsigned s, input bit tx);
    logic [LinkSlots-1:0] m;
    logic [7:0] end_slot;
    m = '0;
    for (int l = 0; l < NumLinksSigned; l++) begin
      end_slot = tx ? LinkSrc[l*8 +: 8] : LinkDst[l*8 +: 8];
      if (32'(end_slot) == s) begin
        m[l] = 1'b1;
      end
    end
    link_mask = m;
  endfunction

  // Register access.
  logic [NumSlots-1:0]    reg_we, reg_re;
  logic [7:0]             reg_addr;
  logic [31:0]            reg_wdata;
  logic [3:0]             reg_wstrb;
  logic [NumSlots*32-1:0] reg_rdata, slot_rdata;
  logic [NumSlots-1:0]    reg_ready;  // per slot: its access may complete (ACC window)
  logic [31:0]            win_rdata;  // the accessed slot's WIN_* register
  logic                   win_hit;

  // Slots (requesters 0 .. NumSlots-1) and the FRI (requester NumSlots, if built) to the
  // memory master.
  localparam int unsigned NumReq = NumSlots + ((Fri != 0) ? 1 : 0);
  localparam int unsigned FriReq = NumSlots;
  logic [NumReq-1:0]      req_valid, req_write, req_gnt, abort, wr_busy, burst_busy;
  logic [NumReq*32-1:0]   req_addr, wr_data;
  logic [NumReq*8-1:0]    req_len;
  logic [NumReq-1:0]      wr_valid, wr_pop, rd_full, rd_push, bus_err;
  logic [31:0]            rd_data, bus_err_addr, bus_err_info;
  logic                   master_busy, master_still, regs_still;
  logic [NumSlots-1:0]    slot_quiet, slot_still;

  // The reconfiguration interface.
  logic                   global_we, fri_busy, fri_still;
  logic [15:0]            global_addr;
  logic [31:0]            fri_rdata, sync_rdata, tm_rdata;
  logic [15:0]            cycle;
  logic                   sync_irq, sync_ready, tm_irq, tm_still, tm_busy, svc_irq_q;
  logic [NumSlots-1:0]    decouple, slot_mem_active;

  // The synchronisation manager's clients: the slots, then the software contexts (at
  // least two clients: the manager needs two; a lone client's partner never calls).
  localparam int unsigned SyncSwRoom = (NumSlots < 32) ? 32 - NumSlots : 0;
  localparam int unsigned SyncSw = (SyncObjs == 0) ? 0 :
                                   (SyncSwCtx < SyncSwRoom) ? SyncSwCtx : SyncSwRoom;
  localparam int unsigned SyncUsed = NumSlots + SyncSw;
  // The thread manager's events and timers (none without the manager).
  localparam int unsigned TmEv = (TmThreads > 0 && TmEvents != 0) ? 1 : 0;
  localparam int unsigned TmTim = (TmEv != 0) ? TmTimers : 0;
  // What SERVICES reads.
  localparam logic [31:0] Services =
      ((SyncObjs > 0) ? weft_osif_pkg::ServiceSync : '0) |
      ((TmThreads > 0) ? weft_osif_pkg::ServiceThreads : '0) |
      ((TmEv != 0) ? weft_osif_pkg::ServiceEvents : '0) |
      ((Fri != 0) ? weft_osif_pkg::ServiceFri : '0) |
      ((NumLinks > 0) ? weft_osif_pkg::ServiceLinks : '0);
  localparam int unsigned SyncClients = (SyncUsed > 1) ? SyncUsed : 2;
  logic [SyncClients-1:0]    sync_req_valid, sync_req_ready, sync_rsp_valid, sync_timed,
                             sync_cancel, sync_flush;
  logic [SyncClients*4-1:0]  sync_op;
  logic [SyncClients*8-1:0]  sync_obj, sync_mtx, sync_rsp_status;
  logic [SyncClients*32-1:0] sync_tmo;
  logic [SyncClients*7-1:0]  sync_prio;
  logic                      sync_still;

  // Links: each slot's selected link, and every link FIFO's state.
  logic [NumSlots*LinkW-1:0] slot_link;
  logic [NumSlots-1:0]       slot_link_push, slot_link_pop, slot_link_full, slot_link_empty;
  logic [NumSlots*32-1:0]    slot_link_wdata, slot_link_rdata;
  logic [LinkSlots-1:0]      link_full, link_empty, link_still;
  logic [MaxLinks-1:0]       link_flush;
  logic [LinkSlots*32-1:0]   link_rdata;
  logic [MaxLinks*16-1:0]    link_level;

  weft_axil_regs #(
    .NumSlots (NumSlots),
    .NumLinks (NumLinks),
    .ClockMhz (ClockMhz),
    .LinkSrc  (LinkSrc),
    .LinkDst  (LinkDst),
    .LinkDepth(LinkDepth),
    .Services (Services)
  ) u_axil_regs (
    .*,  // clk_i, rst_ni, skip_i and the AXI4-Lite slave port
    .irq_i        (irq_o),
    .svc_irq_i    (svc_irq_o),
    .cycle_o      (cycle),
    .slot_we_o    (reg_we),
    .slot_re_o    (reg_re),
    .slot_addr_o  (reg_addr),
    .slot_wdata_o (reg_wdata),
    .slot_wstrb_o (reg_wstrb),
    .slot_rdata_i (reg_rdata),
    .slot_ready_i (reg_ready),
    .link_level_i (link_level),
    .link_flush_o (link_flush),
    .global_we_o  (global_we),
    .global_addr_o(global_addr),
    .ext_rdata_i  (fri_rdata | sync_rdata | tm_rdata),
    .ext_ready_i  (sync_ready),
    .still_o      (regs_still)
  );

  if (Fri != 0) begin : gen_fri
    weft_fri #(
      .NumSlots (NumSlots),
      .ResetRate(FriRate)
    ) u_fri (
      .clk_i,
      .rst_ni,
      `include "weft_global_reg_conn.svh"
      .reg_rdata_o       (fri_rdata),
      .req_valid_o       (req_valid[FriReq]),
      .req_addr_o        (req_addr[FriReq*32 +: 32]),
      .req_len_o         (req_len[FriReq*8 +: 8]),
      .req_gnt_i         (req_gnt[FriReq]),
      .rd_full_o         (rd_full[FriReq]),
      .rd_push_i         (rd_push[FriReq]),
      .rd_data_i         (rd_data),
      .bus_err_i         (bus_err[FriReq]),
      .burst_busy_i      (burst_busy[FriReq]),
      .decouple_o        (decouple),
      .slot_mem_active_i (slot_mem_active),
      .load_o            (fri_load_o),
      .load_blank_o      (fri_load_blank_o),
      .load_slot_o       (fri_load_slot_o),
      .load_done_i       (fri_load_done_i),
      .load_ok_i         (fri_load_ok_i),
      .irq_o             (fri_irq_o),
      .busy_o            (fri_busy),
      .still_o           (fri_still)
    );
    // The FRI only reads; its error address and info are in FRI_STATUS's error code.
    assign req_write[FriReq]          = 1'b0;
    assign abort[FriReq]              = 1'b0;
    assign wr_data[FriReq*32 +: 32]   = '0;
    assign wr_valid[FriReq]           = 1'b0;
    logic unused_fri_write;
    assign unused_fri_write = wr_busy[FriReq] ^ wr_pop[FriReq];
  end else begin : gen_no_fri
    assign fri_rdata        = '0;
    assign decouple         = '0;
    assign fri_load_o       = 1'b0;
    assign fri_load_blank_o = 1'b0;
    assign fri_load_slot_o  = '0;
    assign fri_irq_o        = 1'b0;
    assign fri_busy         = 1'b0;
    assign fri_still        = 1'b1;
    logic unused_fri;
    // (With no other service, nothing takes the global register writes either.)
    assign unused_fri = ^{fri_load_done_i, fri_load_ok_i, slot_mem_active, global_we, global_addr};
  end

  // The memory windows of every slot, and their one checker of MEMIF commands.
  localparam int unsigned MemLenW = weft_osif_pkg::MemifLengthMsb - weft_osif_pkg::MemifLengthLsb + 1;
  logic [NumSlots-1:0]         chk_valid, chk_write, chk_done;
  logic [NumSlots*32-1:0]      chk_addr;
  logic [NumSlots*MemLenW-1:0] chk_len;
  logic                        chk_grant, win_still;
  weft_mem_windows #(
    .NumSlots   (NumSlots),
    .SlotWindows(SlotWindows),
    .LenW       (MemLenW)
  ) u_mem_windows (
    .clk_i,
    .rst_ni,
    .reg_we_i   (reg_we),
    .reg_re_i   (reg_re),
    .reg_addr_i (reg_addr),
    .reg_wdata_i(reg_wdata),
    .reg_wstrb_i(reg_wstrb),
    .reg_rdata_o(win_rdata),
    .reg_hit_o  (win_hit),
    .chk_valid_i(chk_valid),
    .chk_write_i(chk_write),
    .chk_addr_i (chk_addr),
    .chk_len_i  (chk_len),
    .chk_done_o (chk_done),
    .chk_grant_o(chk_grant),
    .still_o    (win_still)
  );

  for (genvar s = 0; s < NumSlots; s++) begin : gen_slot
    weft_slot_if #(
      .OsifDepth (32'(SlotOsifDepth[s*16 +: 16])),
      .NumWindows(32'(SlotWindows[s*4 +: 4])),
      .NumBinds  (32'(SlotBinds[s*4 +: 4])),
      .NumRanges ((SyncObjs > 0) ? weft_osif_pkg::SlotRegSyncBindCount : 0),
      .LinkW     (LinkW),
      .TxMask    (link_mask(s, 1'b1)),
      .RxMask    (link_mask(s, 1'b0)),
      .ClockMhz  (ClockMhz)
    ) u_slot_if (
      .clk_i,
      .rst_ni,
      .reg_we_i              (reg_we[s]),
      .reg_re_i              (reg_re[s]),
      .reg_addr_i            (reg_addr),
      .reg_wdata_i           (reg_wdata),
      .reg_wstrb_i           (reg_wstrb),
      .reg_rdata_o           (slot_rdata[s*32 +: 32]),
      .reg_ready_o           (reg_ready[s]),
      .slot_rst_no           (slot_rst_no[s]),
      .decouple_i            (decouple[s]),
      .mem_active_o          (slot_mem_active[s]),
      .slot_run_o            (slot_run_o[s]),
      .slot_req_i            (slot_req_i[s*ReqStride +: ReqWidth]),
      .slot_rsp_o            (slot_rsp_o[s*RspStride +: RspWidth]),
      .req_valid_o           (req_valid[s]),
      .req_write_o           (req_write[s]),
      .req_addr_o            (req_addr[s*32 +: 32]),
      .req_len_o             (req_len[s*8 +: 8]),
      .req_gnt_i             (req_gnt[s]),
      .abort_o               (abort[s]),
      .wr_busy_i             (wr_busy[s]),
      .burst_busy_i          (burst_busy[s]),
      .wr_data_o             (wr_data[s*32 +: 32]),
      .wr_valid_o            (wr_valid[s]),
      .wr_pop_i              (wr_pop[s]),
      .rd_full_o             (rd_full[s]),
      .rd_push_i             (rd_push[s]),
      .rd_data_i             (rd_data),
      .bus_err_i             (bus_err[s]),
      .bus_err_addr_i        (bus_err_addr),
      .bus_err_info_i        (bus_err_info),
      .chk_valid_o           (chk_valid[s]),
      .chk_write_o           (chk_write[s]),
      .chk_addr_o            (chk_addr[s*32 +: 32]),
      .chk_len_o             (chk_len[s*MemLenW +: MemLenW]),
      .chk_done_i            (chk_done[s]),
      .chk_grant_i           (chk_grant),
      .irq_o                 (irq_o[s]),
      .quiet_o               (slot_quiet[s]),
      .idle_o                (slot_idle_o[s]),
      .still_o               (slot_still[s]),
      .skip_i,
      .link_o                (slot_link[s*LinkW +: LinkW]),
      .link_push_o           (slot_link_push[s]),
      .link_wdata_o          (slot_link_wdata[s*32 +: 32]),
      .link_pop_o            (slot_link_pop[s]),
      .link_full_i           (slot_link_full[s]),
      .link_empty_i          (slot_link_empty[s]),
      .link_rdata_i          (slot_link_rdata[s*32 +: 32]),
      .sync_req_valid_o      (sync_req_valid[s]),
      .sync_op_o             (sync_op[s*4 +: 4]),
      .sync_obj_o            (sync_obj[s*8 +: 8]),
      .sync_mtx_o            (sync_mtx[s*8 +: 8]),
      .sync_timed_o          (sync_timed[s]),
      .sync_tmo_o            (sync_tmo[s*32 +: 32]),
      .sync_req_ready_i      (sync_req_ready[s]),
      .sync_rsp_valid_i      (sync_rsp_valid[s]),
      .sync_rsp_status_i     (sync_rsp_status[s*8 +: 8]),
      .sync_prio_o           (sync_prio[s*7 +: 7]),
      .sync_cancel_o         (sync_cancel[s]),
      .sync_flush_o          (sync_flush[s])
    );

    // The slot's registers and its WIN_* ones, which weft_mem_windows keeps.
    assign reg_rdata[s*32 +: 32] = slot_rdata[s*32 +: 32] |
                                   ((reg_re[s] && win_hit) ? win_rdata : '0);

    // Whole words per slot on the vectors: the bits above each struct are unused.
    if (RspStride > RspWidth) begin : gen_rsp_pad
      assign slot_rsp_o[s*RspStride + RspWidth +: RspStride - RspWidth] = '0;
    end
    if (ReqStride > ReqWidth) begin : gen_req_pad
      logic unused_req_pad;
      assign unused_req_pad = ^slot_req_i[s*ReqStride + ReqWidth +: ReqStride - ReqWidth];
    end

    // The link this slot names. A slot that is no end of it only sees a link that is
    // full and empty at once, and its router never moves a word there (TxMask/RxMask).
    logic [LinkW-1:0] sel;
    assign sel = slot_link[s*LinkW +: LinkW];
    assign slot_link_full[s]  = link_full[sel];
    assign slot_link_empty[s] = link_empty[sel];
    assign slot_link_rdata[s*32 +: 32] = link_rdata[32*sel +: 32];
  end

  // ---------------------------------------------------------------------------------
  // The synchronisation manager (docs/hw-services.md) and its registers.
  // ---------------------------------------------------------------------------------
  if (SyncUsed < 2) begin : gen_sync_pad
    assign sync_req_valid[1] = 1'b0;
    assign sync_op[4 +: 4] = '0;
    assign sync_obj[8 +: 8] = '0;
    assign sync_mtx[8 +: 8] = '0;
    assign sync_timed[1] = 1'b0;
    assign sync_tmo[32 +: 32] = '0;
    assign sync_prio[7 +: 7] = '0;
    assign sync_cancel[1] = 1'b0;
    assign sync_flush[1] = 1'b0;
    logic unused_sync_pad;
    assign unused_sync_pad = ^{sync_req_ready[1], sync_rsp_valid[1], sync_rsp_status[8 +: 8]};
  end

  if (SyncObjs > 0) begin : gen_sync
    logic        cfg_valid, cfg_pi, rd_en;
    logic [7:0]  cfg_obj, cfg_status, rd_obj;
    logic [1:0]  cfg_type, cfg_kind;
    logic [15:0] cfg_count, cfg_max;
    logic [31:0] rd_state;
    logic [SyncClients-1:0] rd_waiters, waiting;
    logic [SyncClients*7-1:0] eff_prio;
    logic        regs_still_s, mgr_still, settled;

    logic [31:0] regs_rdata, sw_rdata;
    weft_sync_regs #(
      .NumObjs   (SyncObjs),
      .NumClients(SyncClients),
      .NumSwCtx  (SyncSw)
    ) u_sync_regs (
      .clk_i,
      .rst_ni,
      `include "weft_global_reg_conn.svh"
      .reg_rdata_o (regs_rdata),
      .cfg_valid_o (cfg_valid),
      .cfg_obj_o   (cfg_obj),
      .cfg_type_o  (cfg_type),
      .cfg_kind_o  (cfg_kind),
      .cfg_pi_o    (cfg_pi),
      .cfg_count_o (cfg_count),
      .cfg_max_o   (cfg_max),
      .cfg_status_i(cfg_status),
      .rd_obj_o    (rd_obj),
      .rd_en_o     (rd_en),
      .rd_state_i  (rd_state),
      .rd_waiters_i(32'(rd_waiters)),
      .still_o     (regs_still_s)
    );

    weft_sync #(
      .NumObjs   (SyncObjs),
      .NumClients(SyncClients),
      .ClockMhz  (ClockMhz)
    ) u_sync (
      .clk_i,
      .rst_ni,
      .cfg_valid_i (cfg_valid),
      .cfg_obj_i   (cfg_obj),
      .cfg_type_i  (cfg_type),
      .cfg_kind_i  (cfg_kind),
      .cfg_pi_i    (cfg_pi),
      .cfg_count_i (cfg_count),
      .cfg_max_i   (cfg_max),
      .cfg_status_o(cfg_status),
      .rd_obj_i    (rd_obj),
      .rd_en_i     (rd_en),
      .rd_state_o  (rd_state),
      .rd_waiters_o(rd_waiters),
      .req_valid_i (sync_req_valid),
      .req_ready_o (sync_req_ready),
      .req_op_i    (sync_op),
      .req_obj_i   (sync_obj),
      .req_mtx_i   (sync_mtx),
      .req_timed_i (sync_timed),
      .req_tmo_i   (sync_tmo),
      .prio_i      (sync_prio),
      .cancel_i    (sync_cancel),
      .flush_i     (sync_flush),
      .rsp_valid_o (sync_rsp_valid),
      .rsp_status_o(sync_rsp_status),
      .waiting_o   (waiting),
      .eff_prio_o  (eff_prio),
      .settled_o   (settled),
      .still_o     (mgr_still)
    );
    logic sw_still;
    if (SyncSw > 0) begin : gen_sw
      localparam int unsigned B = NumSlots;  // the first software context's client
      weft_sync_sw #(.NumCtx(SyncSw)) u_sync_sw (
        .clk_i,
        .rst_ni,
        `include "weft_global_reg_conn.svh"
        .reg_rdata_o (sw_rdata),
        .req_valid_o (sync_req_valid[B +: SyncSw]),
        .req_ready_i (sync_req_ready[B +: SyncSw]),
        .req_op_o    (sync_op[B*4 +: SyncSw*4]),
        .req_obj_o   (sync_obj[B*8 +: SyncSw*8]),
        .req_mtx_o   (sync_mtx[B*8 +: SyncSw*8]),
        .prio_o      (sync_prio[B*7 +: SyncSw*7]),
        .cancel_o    (sync_cancel[B +: SyncSw]),
        .flush_o     (sync_flush[B +: SyncSw]),
        .rsp_valid_i (sync_rsp_valid[B +: SyncSw]),
        .rsp_status_i(sync_rsp_status[B*8 +: SyncSw*8]),
        .waiting_i   (waiting[B +: SyncSw]),
        .ready_o     (sync_ready),
        .irq_o       (sync_irq),
        .still_o     (sw_still)
      );
      // Software times its waits itself (it cancels a wait that has lasted too long).
      assign sync_timed[B +: SyncSw] = '0;
      assign sync_tmo[B*32 +: SyncSw*32] = '0;
    end else begin : gen_no_sw
      assign sw_rdata = '0;
      assign sync_irq = 1'b0;
      assign sync_ready = 1'b1;
      assign sw_still = 1'b1;
    end
    assign sync_rdata = regs_rdata | sw_rdata;
    assign sync_still = regs_still_s && mgr_still && sw_still;
    // Effective priorities are the softcore's to use; the slots need only their answers.
    logic unused_sync;
    assign unused_sync = ^{waiting, eff_prio, settled};
  end else begin : gen_no_sync
    // No manager: no slot binds a handle to it (the runtime sees SYNC_INFO = 0), and a
    // call that reaches here anyway is never taken.
    assign sync_rdata = '0;
    assign sync_irq = 1'b0;
    assign sync_ready = 1'b1;
    assign sync_req_ready = '0;
    assign sync_rsp_valid = '0;
    assign sync_rsp_status = '0;
    assign sync_still = 1'b1;
    logic unused_sync;
    assign unused_sync = ^{sync_req_valid, sync_op, sync_obj, sync_mtx, sync_timed, sync_tmo,
                           sync_prio, sync_cancel, sync_flush};
  end

  // ---------------------------------------------------------------------------------
  // The thread manager and its scheduler (docs/hw-services.md), its registers, and its
  // events (if the platform asks for them): the timers, then each slot's interrupt line,
  // then the FRI's, if built (as many as fit in 32 events).
  // ---------------------------------------------------------------------------------
  localparam int unsigned TmLineRoom = 32 - TmTim;
  localparam int unsigned TmLineAll = NumSlots + ((Fri != 0) ? 1 : 0);
  localparam int unsigned TmLines = (TmLineAll < TmLineRoom) ? TmLineAll : TmLineRoom;
  if (TmThreads > 0) begin : gen_tm
    logic        cmd_valid, cmd_ready, cmd_flag, rsp_valid, rsp_blocked, decided;
    logic        ev_valid, ev_ready, ev_done, ev_switched, regs_still_t, ev_still, core_still;
    logic        clear, tm_rst_n;
    logic [3:0]  cmd_op;
    logic [7:0]  cmd_tid, cmd_arg, rsp_status, rsp_tid, ev_tid, cur_tid;
    logic [31:0] cmd_value, rsp_value, regs_rdata_t, ev_rdata;
    logic [6:0]  cur_prio;
    logic [15:0] seq;
    logic [NumSlots:0] lines;
    assign lines = {fri_irq_o, irq_o};  // the FRI's is 0 without one, and never bound
    // TM_CTRL.RESET resets the manager and its events (clear is a register).
    assign tm_rst_n = rst_ni && !clear;
    weft_tm #(
      .NumThreads(TmThreads),
      .NumPrios  (TmPrios)
    ) u_tm (
      .clk_i,
      .rst_ni       (tm_rst_n),
      .cmd_valid_i  (cmd_valid),
      .cmd_ready_o  (cmd_ready),
      .cmd_op_i     (cmd_op),
      .cmd_tid_i    (cmd_tid),
      .cmd_arg_i    (cmd_arg),
      .cmd_flag_i   (cmd_flag),
      .cmd_value_i  (cmd_value),
      .rsp_valid_o  (rsp_valid),
      .rsp_status_o (rsp_status),
      .rsp_blocked_o(rsp_blocked),
      .rsp_tid_o    (rsp_tid),
      .rsp_value_o  (rsp_value),
      .ev_valid_i   (ev_valid),
      .ev_tid_i     (ev_tid),
      .ev_ready_o   (ev_ready),
      .ev_done_o    (ev_done),
      .ev_switched_o(ev_switched),
      .cur_tid_o    (cur_tid),
      .cur_prio_o   (cur_prio),
      .seq_o        (seq),
      .decided_o    (decided),
      .still_o      (core_still)
    );
    weft_tm_regs #(
      .NumThreads(TmThreads),
      .NumPrios  (TmPrios),
      .NumEvents ((TmEv != 0) ? TmTim + TmLines : 0),
      .NumTimers (TmTim)
    ) u_tm_regs (
      .clk_i,
      .rst_ni,
      `include "weft_global_reg_conn.svh"
      .reg_rdata_o  (regs_rdata_t),
      .cmd_valid_o  (cmd_valid),
      .cmd_ready_i  (cmd_ready),
      .cmd_op_o     (cmd_op),
      .cmd_tid_o    (cmd_tid),
      .cmd_arg_o    (cmd_arg),
      .cmd_flag_o   (cmd_flag),
      .cmd_value_o  (cmd_value),
      .rsp_valid_i  (rsp_valid),
      .rsp_status_i (rsp_status),
      .rsp_blocked_i(rsp_blocked),
      .rsp_tid_i    (rsp_tid),
      .rsp_value_i  (rsp_value),
      .cur_tid_i    (cur_tid),
      .cur_prio_i   (cur_prio),
      .seq_i        (seq),
      .decided_i    (decided),
      .clear_o      (clear),
      .irq_o        (tm_irq),
      .still_o      (regs_still_t)
    );
    if (TmEv != 0) begin : gen_events
      weft_tm_events #(
        .NumTimers(TmTim),
        .NumLines (TmLines)
      ) u_tm_events (
        .clk_i,
        .rst_ni       (tm_rst_n),
        `include "weft_global_reg_conn.svh"
        .reg_rdata_o  (ev_rdata),
        .cycle_i      (cycle),
        .line_i       (lines[TmLines-1:0]),
        .ev_valid_o   (ev_valid),
        .ev_tid_o     (ev_tid),
        .ev_ready_i   (ev_ready),
        .ev_done_i    (ev_done),
        .ev_switched_i(ev_switched),
        .busy_o       (tm_busy),
        .still_o      (ev_still)
      );
    end else begin : gen_no_events
      assign ev_rdata = '0;
      assign ev_valid = 1'b0;
      assign ev_tid   = '0;
      assign tm_busy  = 1'b0;
      assign ev_still = 1'b1;
      logic unused_ev;
      assign unused_ev = ^{ev_ready, ev_done, ev_switched, cycle};
    end
    assign tm_rdata = regs_rdata_t | ev_rdata;
    assign tm_still = core_still && regs_still_t && ev_still;
    logic unused_tm;
    assign unused_tm = ^lines;  // the lines past the 32 events
  end else begin : gen_no_tm
    assign tm_rdata = '0;
    assign tm_irq = 1'b0;
    assign tm_still = 1'b1;
    assign tm_busy = 1'b0;
    logic unused_tm;
    assign unused_tm = ^cycle;
  end

  // The OS services' line, a register of its own (the blocks' lines each are registers).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) svc_irq_q <= 1'b0;
    else svc_irq_q <= sync_irq || tm_irq;
  end
  assign svc_irq_o = svc_irq_q;

  // ---------------------------------------------------------------------------------
  // Hardware links: a FIFO each, pushed only by its source slot, popped only by its
  // destination slot. Its state survives slot resets; LINK_FLUSH empties it.
  // ---------------------------------------------------------------------------------
  for (genvar l = 0; l < LinkSlots; l++) begin : gen_link
    if (l < NumLinks) begin : gen_fifo
      localparam int unsigned Src = 32'(LinkSrc[l*8 +: 8]);
      localparam int unsigned Dst = 32'(LinkDst[l*8 +: 8]);
      localparam int unsigned Depth = 32'(LinkDepth[l*16 +: 16]);
      localparam int unsigned CntW = $clog2(Depth + 1);
      logic [CntW-1:0] count;
      weft_fifo #(
        .Width(32),
        .Depth(Depth)
      ) u_fifo (
        .clk_i,
        .rst_ni,
        .flush_i (link_flush[l % MaxLinks]),
        .push_i  (slot_link_push[Src] && (32'(slot_link[Src*LinkW +: LinkW]) == l)),
        .wdata_i (slot_link_wdata[Src*32 +: 32]),
        .pop_i   (slot_link_pop[Dst] && (32'(slot_link[Dst*LinkW +: LinkW]) == l)),
        .rdata_o (link_rdata[l*32 +: 32]),
        .full_o  (link_full[l]),
        .empty_o (link_empty[l]),
        .count_o (count),
        .still_o (link_still[l])
      );
      if (l < MaxLinks) begin : gen_level
        assign link_level[l*16 +: 16] = 16'(count);
      end
    end else begin : gen_none
      assign link_full[l]  = 1'b1;
      assign link_empty[l] = 1'b1;
      assign link_rdata[l*32 +: 32] = '0;
      assign link_still[l] = 1'b1;
      if (l < MaxLinks) begin : gen_level
        assign link_level[l*16 +: 16] = '0;
      end
    end
  end

  weft_memif_master #(
    .NumSlots  (NumReq),
    .UrgentLast(Fri != 0)
  ) u_memif_master (
    .*,  // clk_i, rst_ni and the AXI4 master port
    .req_valid_i (req_valid),
    .req_write_i (req_write),
    .req_addr_i  (req_addr),
    .req_len_i   (req_len),
    .req_gnt_o   (req_gnt),
    .abort_i     (abort),
    .wr_busy_o   (wr_busy),
    .slot_busy_o (burst_busy),
    .wr_data_i   (wr_data),
    .wr_valid_i  (wr_valid),
    .wr_pop_o    (wr_pop),
    .rd_full_i   (rd_full),
    .rd_push_o   (rd_push),
    .rd_data_o   (rd_data),
    .err_o       (bus_err),
    .err_addr_o  (bus_err_addr),
    .err_info_o  (bus_err_info),
    .busy_o      (master_busy),
    .still_o     (master_still)
  );

  // A timed wait counted in the synchronisation manager keeps the fabric running.
  // So does a running timer of the thread manager, and the OS services' line until it
  // follows its sources.
  logic svc_still;
  assign svc_still = svc_irq_q == (sync_irq || tm_irq);
  assign quiet_o = !master_busy && !fri_busy && (&slot_quiet) && sync_still && tm_still &&
                   !tm_busy && svc_still;
  assign hold_o  = regs_still && master_still && fri_still && (&slot_still) && (&link_still) &&
                   win_still && sync_still && tm_still && svc_still;

`ifndef SYNTHESIS
  if (TmThreads == 1 || TmThreads > 256 || TmTimers > 8) begin : gen_tm_check
    $error("weft_static: TmThreads 0 or 2 to 256, TmTimers at most 8");
  end
  if (NumSlots < 1) begin : gen_num_slots_check
    $error("weft_static: NumSlots must be at least 1");
  end
  // Only a link's source slot's push and data and its destination slot's pop are read.
  logic unused_link;
  assign unused_link = ^{slot_link_push, slot_link_pop, slot_link_wdata, link_flush};
  if (NumLinks > MaxLinks) begin : gen_num_links_check
    $error("weft_static: at most 24 hardware links (LINK_INFO entries)");
  end
  for (genvar l = 0; l < NumLinks; l++) begin : gen_link_check
    if (32'(LinkSrc[l*8 +: 8]) >= NumSlots || 32'(LinkDst[l*8 +: 8]) >= NumSlots ||
        LinkSrc[l*8 +: 8] == LinkDst[l*8 +: 8]) begin : gen_ends
      $error("weft_static: a link must join two different existing slots");
    end
  end
`endif

endmodule

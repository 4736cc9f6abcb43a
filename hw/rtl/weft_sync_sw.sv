// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_sync_sw: software contexts of the synchronisation manager (docs/hw-services.md).
// Context c is one client of weft_sync, driven through registers in the global window
// (SYNC_CTX_CALL, SYNC_CTX_CTRL, SYNC_SW_*; protocol/osif.yaml), so that a pthread calls
// the same hardware objects as the slots' threads: a register write makes the call, a
// register read finds its answer, and a call that blocks ends in an interrupt.
//
// A whole-word SYNC_CTX_CALL write makes a call (op, object, a condition wait's mutex;
// never timed: software times its waits itself and ends them with CANCEL), unless one
// is in progress. BUSY reads 1 from that write until the answer, whose status the
// register then holds. An access of SYNC_CTX_CALL waits (ready_o low) until the manager
// has carried the call out: answered it, or blocked it; so the read after a call finds
// its answer whenever it did not block. A context that software arms (SYNC_SW_ARM) raises irq_o once its
// call is answered, until software disarms it (SYNC_SW_PENDING, write 1 to clear) or it
// makes a new call; so an answer that came before the arming still raises it, and one
// that came in time for the read after the call raises nothing. SYNC_SW_FLUSH resets a
// context as a slot's reset does its client: the call is dropped unanswered (BUSY
// clears) and the manager hands the context's mutexes on.
//
// Register writes take whole words only (a write with a byte strobe low is ignored), so
// no call is made from a torn word.
module weft_sync_sw #(
  /// Software contexts, 1 to 32.
  parameter int unsigned NumCtx = 4
) (
  /// Fabric clock.
  input  logic                 clk_i,
  /// Active-low reset (asynchronous assert): no call, nothing armed, priorities 0.
  input  logic                 rst_ni,

  // ---- global register access (weft_axil_regs) ----
  `include "weft_global_reg_ports.svh"

  // ---- the contexts' client ports of weft_sync (context c at bit c) ----
  /// A call waits; held until req_ready_i.
  output logic [NumCtx-1:0]    req_valid_o,
  /// The call is taken at this edge.
  input  logic [NumCtx-1:0]    req_ready_i,
  /// The calls (weft_osif_pkg::SyncOp*), 4 bits each.
  output logic [NumCtx*4-1:0]  req_op_o,
  /// Their objects.
  output logic [NumCtx*8-1:0]  req_obj_o,
  /// A condition wait's mutex.
  output logic [NumCtx*8-1:0]  req_mtx_o,
  /// Each context's priority.
  output logic [NumCtx*7-1:0]  prio_o,
  /// CANCEL per context.
  output logic [NumCtx-1:0]    cancel_o,
  /// A context is reset (one cycle).
  output logic [NumCtx-1:0]    flush_o,
  /// A call is answered now.
  input  logic [NumCtx-1:0]    rsp_valid_i,
  /// The answers' statuses, 8 bits each.
  input  logic [NumCtx*8-1:0]  rsp_status_i,
  /// The contexts the manager holds blocked in a call.
  input  logic [NumCtx-1:0]    waiting_i,
  /// The access at reg_addr_i may complete now: low while it is the CALL register of a
  /// context whose call the manager has not yet answered or blocked.
  output logic                 ready_o,

  /// The OS services' interrupt line: an armed context's call is answered (a register:
  /// it goes to an asynchronous interrupt input, so it must not glitch).
  output logic                 irq_o,
  /// The next edge changes no register here but on an answer or a taken call, which
  /// the manager's own hint covers (a simulator hint): no register write, and the line
  /// already follows SYNC_SW_PENDING.
  output logic                 still_o
);

  localparam logic [15:0] CallBase = weft_osif_pkg::RegSyncCtxCall;
  localparam logic [15:0] CtrlBase = weft_osif_pkg::RegSyncCtxCtrl;
  localparam int unsigned Stride = weft_osif_pkg::RegSyncCtxCallStride;

  logic [NumCtx-1:0]   req_q, busy_q, armed_q, cancel_q;
  logic                irq_q;
  logic [NumCtx*4-1:0] op_q;
  logic [NumCtx*8-1:0] obj_q, mtx_q, st_q;
  logic [NumCtx*7-1:0] prio_q;

  logic whole;
  assign whole = reg_wstrb_i == 4'hF;

  // Armed contexts whose call is answered (SYNC_SW_PENDING): the interrupt's cause.
  logic [NumCtx-1:0] pending;
  assign pending = armed_q & ~busy_q;

  // Which context's CALL or CTRL register is addressed (none: all 0).
  logic [NumCtx-1:0] at_call, at_ctrl;
  always_comb begin
    for (int c = 0; c < NumCtx; c++) begin
      at_call[c] = reg_addr_i == CallBase + 16'(c * Stride);
      at_ctrl[c] = reg_addr_i == CtrlBase + 16'(c * Stride);
    end
  end

  logic [NumCtx-1:0] wr_call, wr_ctrl, wr_arm, wr_clear, wr_flush;
  assign wr_call  = (reg_we_i && whole) ? at_call & ~busy_q : '0;
  assign wr_ctrl  = (reg_we_i && whole) ? at_ctrl : '0;
  assign wr_arm   = (reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegSyncSwArm) ?
                    reg_wdata_i[NumCtx-1:0] : '0;
  assign wr_clear = (reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegSyncSwPending) ?
                    reg_wdata_i[NumCtx-1:0] : '0;
  assign wr_flush = (reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegSyncSwFlush) ?
                    reg_wdata_i[NumCtx-1:0] : '0;

  always_comb begin
    reg_rdata_o = '0;
    for (int c = 0; c < NumCtx; c++) begin
      if (at_call[c]) reg_rdata_o = {22'd0, armed_q[c], busy_q[c], st_q[c*8 +: 8]};
      if (at_ctrl[c]) reg_rdata_o = {23'd0, cancel_q[c], 1'b0, prio_q[c*7 +: 7]};
    end
    if (reg_addr_i == weft_osif_pkg::RegSyncSwArm) reg_rdata_o = 32'(armed_q);
    if (reg_addr_i == weft_osif_pkg::RegSyncSwPending) reg_rdata_o = 32'(pending);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_q    <= '0;
      busy_q   <= '0;
      armed_q  <= '0;
      cancel_q <= '0;
      op_q     <= '0;
      obj_q    <= '0;
      mtx_q    <= '0;
      st_q     <= '0;
      prio_q   <= '0;
    end else if (reg_we_i || req_q != '0 || rsp_valid_i != '0) begin
      for (int c = 0; c < NumCtx; c++) begin
        if (req_ready_i[c]) req_q[c] <= 1'b0;
        if (rsp_valid_i[c]) begin
          busy_q[c] <= 1'b0;
          st_q[c*8 +: 8] <= rsp_status_i[c*8 +: 8];
        end
        if (wr_call[c]) begin
          op_q[c*4 +: 4]  <= reg_wdata_i[3:0];
          obj_q[c*8 +: 8] <= reg_wdata_i[15:8];
          mtx_q[c*8 +: 8] <= reg_wdata_i[23:16];
          req_q[c]   <= 1'b1;
          busy_q[c]  <= 1'b1;
          armed_q[c] <= 1'b0;
        end
        if (wr_ctrl[c]) begin
          prio_q[c*7 +: 7] <= reg_wdata_i[6:0];
          cancel_q[c] <= (reg_wdata_i & weft_osif_pkg::SyncCtxCancel) != '0;
        end
        if (wr_arm[c]) armed_q[c] <= 1'b1;
        if (wr_clear[c]) armed_q[c] <= 1'b0;
        if (wr_flush[c]) begin
          req_q[c]   <= 1'b0;
          busy_q[c]  <= 1'b0;
          armed_q[c] <= 1'b0;
        end
      end
    end
  end

  // The line follows SYNC_SW_PENDING one cycle later.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) irq_q <= 1'b0;
    else irq_q <= pending != '0;
  end

  assign req_valid_o = req_q;
  assign req_op_o    = op_q;
  assign req_obj_o   = obj_q;
  assign req_mtx_o   = mtx_q;
  assign prio_o      = prio_q;
  assign cancel_o    = cancel_q;
  assign flush_o     = wr_flush;
  assign irq_o       = irq_q;
  assign still_o     = !reg_we_i && irq_q == (pending != '0);
  // A read of CALL waits for the manager to carry the call out (a few cycles, more while
  // it serves other clients first), so it finds the answer of any call that did not
  // block, or BUSY with the call blocked.
  assign ready_o     = (at_call & busy_q & ~waiting_i) == '0;

  logic unused;
  assign unused = ^reg_wdata_i[31:24];

endmodule

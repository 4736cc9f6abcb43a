// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_sync_router: serves a slot's semaphore, mutex and condition calls on handles bound
// to the synchronisation manager's objects (weft_sync), without the CPU, and passes every
// other OS call through to software (docs/hw-services.md).
//
// It sits between weft_link_router (which passes it the requests it does not serve, and
// takes the responses) and the OSIF FIFOs, and looks to the link router like those
// FIFOs: up_ready_o / up_push_i as HW2SW's room and push, up_rsp_* as SW2HW's oldest word
// and pop. It follows the request framing. A header whose handle lies in an enabled
// range of its SYNC_BIND registers and whose command is one of
//   SEM_POST, SEM_WAIT, SEM_TIMEDWAIT, MUTEX_LOCK, MUTEX_TIMEDLOCK, MUTEX_TRYLOCK,
//   MUTEX_UNLOCK, COND_WAIT, COND_TIMEDWAIT, COND_SIGNAL, COND_BROADCAST
// with the argument count protocol/osif.yaml gives is served here: its arguments are
// taken (a condition wait's mutex handle is looked up in the same ranges; one in none
// names no object, which the manager answers BADARGS), the call goes to the manager, and
// its answer goes back to the thread as a response header without result words. Anything
// else, a sync command with a wrong argument count included, goes to software, whose
// delegate answers it as for any handle.
//
// A request is only taken when HW2SW could take it (dn_ready_i, which carries the write
// fence): a post or unlock reaches the manager only once the thread's earlier memory
// writes are in memory, so the thread it wakes reads them.
//
// Boundary rule 1: up_ready_o, up_rsp_valid_o and up_rsp_data_o are functions of
// registers only (this module's state, the FIFOs' state).
module weft_sync_router #(
  /// SYNC_BIND ranges (0 disables the router).
  parameter int unsigned NumRanges = 4
) (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic        rst_ni,
  /// The slot is held in reset: drop the call in progress.
  input  logic        flush_i,
  /// A signal is pending for the thread (CONTROL.SIGNAL).
  input  logic        signal_i,

  // ---- registers (SYNC_PRIO, SYNC_BIND) ----
  `include "weft_slot_reg_ports.svh"

  // ---- the thread's requests and responses, from and to weft_link_router ----
  /// HW2SW (here) can take a word.
  output logic        up_ready_o,
  /// A request word is pushed.
  input  logic        up_push_i,
  /// The word.
  input  logic [31:0] up_data_i,
  /// A response word waits.
  output logic        up_rsp_valid_o,
  /// The oldest response word.
  output logic [31:0] up_rsp_data_o,
  /// It is taken.
  input  logic        up_rsp_pop_i,

  // ---- the OSIF FIFOs ----
  /// HW2SW can take a word (and the write fence allows it).
  input  logic        dn_ready_i,
  /// Push the request word into HW2SW.
  output logic        dn_push_o,
  /// SW2HW holds a response word.
  input  logic        dn_rsp_valid_i,
  /// SW2HW's oldest word.
  input  logic [31:0] dn_rsp_data_i,
  /// Pop SW2HW.
  output logic        dn_rsp_pop_o,

  // ---- the synchronisation manager ----
  `include "weft_sync_client_ports.svh"

  // ---- status ----
  /// Nothing moves here without the manager or software acting.
  output logic        quiet_o,
  /// The next edge changes no register here (a simulator hint); 0 whenever unsure.
  output logic        still_o
);

  localparam int NR = NumRanges;  // signed copy for loop bounds
  localparam int unsigned RangeRegs = (NumRanges > 0) ? NumRanges : 1;

  typedef enum logic [2:0] {
    RtPass,   // not serving a call; requests and responses pass through
    RtArgs,   // taking the call's argument words
    RtCall,   // the call waits for the manager to take it
    RtWait,   // the manager has it: waiting for the answer
    RtResp    // the answer's header waits for the thread
  } state_e;

  state_e      state_q;
  logic [15:0] pass_left_q;  // argument words of a forwarded request still to pass
  logic [7:0]  cmd_q;
  logic [3:0]  op_q;
  logic [7:0]  obj_q, mtx_q, status_q;
  logic        timed_q;
  logic [31:0] tmo_q;
  logic [1:0]  args_q;       // argument words still to take
  logic        mtx_arg_q;    // the next argument word is the mutex handle
  logic [6:0]  prio_q;
  logic [RangeRegs*32-1:0] range_q;

  // ---- registers -----------------------------------------------------------------------
  localparam logic [7:0] RangeFirst = weft_osif_pkg::SlotRegSyncBind;
  localparam int unsigned RangeStride = weft_osif_pkg::SlotRegSyncBindStride;
  logic [7:0] range_rel;
  logic       range_hit, prio_hit;
  assign range_rel = reg_off_i - RangeFirst;
  assign range_hit = NumRanges > 0 && reg_off_i >= RangeFirst &&
                     32'(range_rel) < NumRanges * RangeStride &&
                     32'(range_rel) % RangeStride == 0;
  assign prio_hit  = reg_off_i == weft_osif_pkg::SlotRegSyncPrio;
  assign reg_hit_o = range_hit || prio_hit;
  always_comb begin
    reg_rdata_o = '0;
    if (reg_re_i && prio_hit) reg_rdata_o = 32'(prio_q);
    for (int r = 0; r < NR; r++) begin
      if (reg_re_i && range_hit && 32'(range_rel) == r * RangeStride) begin
        reg_rdata_o = range_q[r*32 +: 32];
      end
    end
  end

  // ---- handle lookup: the header's handle, or a condition wait's mutex argument ---------
  // Evaluated only when a header or the mutex argument is offered (docs/architecture.md:
  // logic that reads a model input is evaluated at every eval()).
  logic        hdr_now, mtx_now, lk_now;
  logic [15:0] lk_handle;
  logic        lk_hit;
  logic [7:0]  lk_obj;
  assign hdr_now = state_q == RtPass && up_push_i && pass_left_q == '0;
  assign mtx_now = state_q == RtArgs && up_push_i && mtx_arg_q;
  assign lk_now  = hdr_now || mtx_now;
  assign lk_handle = hdr_now ? up_data_i[weft_osif_pkg::ReqHandleMsb:weft_osif_pkg::ReqHandleLsb]
                             : up_data_i[15:0];
  logic [15:0] d;  // the handle's place in a range
  always_comb begin
    lk_hit = 1'b0;
    lk_obj = weft_osif_pkg::SyncNoObject;
    d = '0;
    if (lk_now) for (int r = 0; r < NR; r++) begin
      d = lk_handle - range_q[r*32 +: 16];
      if (lk_now && !lk_hit && range_q[r*32 + 31] && lk_handle >= range_q[r*32 +: 16] &&
          d <= 16'(range_q[r*32 + 24 +: 7]) && (!mtx_now || up_data_i[31:16] == '0)) begin
        lk_hit = 1'b1;
        lk_obj = range_q[r*32 + 16 +: 8] + d[7:0];
      end
    end
  end

  // What the header asks for, if it is a call served here.
  logic [7:0]  h_cmd, h_nargs;
  logic [3:0]  h_op;
  logic [1:0]  h_fixed;
  logic        h_sync, h_timed, h_cond;
  assign h_cmd   = up_data_i[weft_osif_pkg::ReqCmdMsb:weft_osif_pkg::ReqCmdLsb];
  assign h_nargs = up_data_i[weft_osif_pkg::ReqNargsMsb:weft_osif_pkg::ReqNargsLsb];
  always_comb begin
    h_sync = 1'b1;
    h_op = weft_osif_pkg::SyncOpSemPost;
    h_timed = 1'b0;
    h_cond = 1'b0;
    h_fixed = '0;
    if (hdr_now) unique case (h_cmd)
      weft_osif_pkg::CmdSemPost:      h_op = weft_osif_pkg::SyncOpSemPost;
      weft_osif_pkg::CmdSemWait:      h_op = weft_osif_pkg::SyncOpSemWait;
      weft_osif_pkg::CmdSemTimedwait: begin
        h_op = weft_osif_pkg::SyncOpSemWait;
        h_timed = 1'b1;
      end
      weft_osif_pkg::CmdMutexLock:    h_op = weft_osif_pkg::SyncOpMutexLock;
      weft_osif_pkg::CmdMutexTimedlock: begin
        h_op = weft_osif_pkg::SyncOpMutexLock;
        h_timed = 1'b1;
      end
      weft_osif_pkg::CmdMutexTrylock: h_op = weft_osif_pkg::SyncOpMutexTrylock;
      weft_osif_pkg::CmdMutexUnlock:  h_op = weft_osif_pkg::SyncOpMutexUnlock;
      weft_osif_pkg::CmdCondWait: begin
        h_op = weft_osif_pkg::SyncOpCondWait;
        h_cond = 1'b1;
      end
      weft_osif_pkg::CmdCondTimedwait: begin
        h_op = weft_osif_pkg::SyncOpCondWait;
        h_cond = 1'b1;
        h_timed = 1'b1;
      end
      weft_osif_pkg::CmdCondSignal:   h_op = weft_osif_pkg::SyncOpCondSignal;
      weft_osif_pkg::CmdCondBroadcast: h_op = weft_osif_pkg::SyncOpCondBroadcast;
      default: h_sync = 1'b0;
    endcase
    else h_sync = 1'b0;
    h_fixed = {1'b0, h_timed} + {1'b0, h_cond};
  end
  logic h_local;
  assign h_local = hdr_now && lk_hit && h_sync && h_nargs == 8'(h_fixed);

  // ---- outputs ---------------------------------------------------------------------------
  assign up_ready_o     = (state_q == RtPass) ? dn_ready_i : (state_q == RtArgs);
  assign dn_push_o      = state_q == RtPass && up_push_i && (pass_left_q != '0 || !h_local);
  assign up_rsp_valid_o = (state_q == RtPass) ? dn_rsp_valid_i : (state_q == RtResp);
  assign up_rsp_data_o  = (state_q == RtResp) ? weft_osif_pkg::resp_header(cmd_q, status_q, 16'd0)
                                              : dn_rsp_data_i;
  assign dn_rsp_pop_o   = state_q == RtPass && up_rsp_pop_i;

  assign sync_req_valid_o = state_q == RtCall;
  assign sync_op_o    = op_q;
  assign sync_obj_o   = obj_q;
  assign sync_mtx_o   = mtx_q;
  assign sync_timed_o = timed_q;
  assign sync_tmo_o   = tmo_q;
  assign sync_prio_o  = prio_q;
  assign sync_cancel_o = signal_i;
  assign sync_flush_o = flush_i;

  // ---- state -----------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= RtPass;
      pass_left_q <= '0;
      cmd_q       <= '0;
      op_q        <= '0;
      obj_q       <= '0;
      mtx_q       <= weft_osif_pkg::SyncNoObject;
      status_q    <= '0;
      timed_q     <= 1'b0;
      tmo_q       <= '0;
      args_q      <= '0;
      mtx_arg_q   <= 1'b0;
      prio_q      <= '0;
      range_q     <= '0;
    end else begin
      if (reg_we_i && prio_hit) begin
        prio_q <= (prio_q & ~reg_wmask_i[6:0]) | (reg_wdata_i[6:0] & reg_wmask_i[6:0]);
      end
      for (int r = 0; r < NR; r++) begin
        if (reg_we_i && range_hit && 32'(range_rel) == r * RangeStride) begin
          range_q[r*32 +: 32] <= (range_q[r*32 +: 32] & ~reg_wmask_i) | (reg_wdata_i & reg_wmask_i);
        end
      end

      unique case (state_q)
        RtPass: begin
          if (up_push_i) begin
            if (pass_left_q != '0) begin
              pass_left_q <= pass_left_q - 16'd1;
            end else if (!h_local) begin
              pass_left_q <= 16'(h_nargs);
            end else begin
              cmd_q     <= h_cmd;
              op_q      <= h_op;
              obj_q     <= lk_obj;
              mtx_q     <= weft_osif_pkg::SyncNoObject;
              timed_q   <= h_timed;
              tmo_q     <= '0;
              args_q    <= h_fixed;
              mtx_arg_q <= h_cond;
              state_q   <= (h_fixed != '0) ? RtArgs : RtCall;
            end
          end
        end

        // Arguments in protocol order: a condition wait's mutex handle, then a timeout.
        RtArgs: begin
          if (up_push_i) begin
            if (mtx_arg_q) begin
              mtx_q <= lk_obj;
            end else begin
              tmo_q <= up_data_i;
            end
            mtx_arg_q <= 1'b0;
            args_q    <= args_q - 2'd1;
            if (args_q == 2'd1) state_q <= RtCall;
          end
        end

        RtCall: begin
          if (sync_req_ready_i) begin
            state_q <= RtWait;
          end
        end

        RtWait: begin
          if (sync_rsp_valid_i) begin
            status_q <= sync_rsp_status_i;
            state_q  <= RtResp;
          end
        end

        RtResp: begin
          if (up_rsp_pop_i) begin
            state_q <= RtPass;
          end
        end

        default: state_q <= RtPass;
      endcase

      if (flush_i) begin
        state_q     <= RtPass;
        pass_left_q <= '0;
      end
    end
  end

  // Quiet: idle, or the manager has the call (its answer, or a timeout counted there, is
  // what moves it on).
  assign quiet_o = state_q == RtPass || state_q == RtWait;
  assign still_o = !(up_push_i || up_rsp_pop_i || reg_we_i) &&
                   (state_q == RtPass || (state_q == RtWait && !sync_rsp_valid_i) ||
                    state_q == RtResp || state_q == RtArgs) &&
                   !(flush_i && (state_q != RtPass || pass_left_q != '0));

`ifndef SYNTHESIS
  StillMeansStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({state_q, pass_left_q, cmd_q, op_q, obj_q, mtx_q, status_q,
                           timed_q, tmo_q, args_q, mtx_arg_q, prio_q, range_q}));
  if (NumRanges > 4) begin : gen_ranges_check
    $error("weft_sync_router: at most 4 ranges (SYNC_BIND registers)");
  end
`endif

endmodule

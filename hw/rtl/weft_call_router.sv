// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_call_router: the OS calls of one slot that the static region serves itself,
// without the CPU (docs/osif.md, "Hardware links"; docs/hw-services.md): mailbox calls on
// handles bound to hardware links, and semaphore, mutex and condition calls on handles
// bound to the synchronisation manager's objects. Every other request goes through to
// software (the HW2SW FIFO), every response of software back to the thread.
//
// It sits on the slot's OSIF streams, between the thread (out_*, in_*) and the OSIF
// FIFOs (dn_*), and follows the request framing (a header, then its nargs argument
// words). A header is served here when its handle is bound and its command is a
// well-formed call of the binding's kind, with the argument count protocol/osif.yaml
// gives:
//   a link binding (LINK_BIND: [31] enable, [20:16] link, [15:0] handle), the slot at
//     the link's sending end (TxMask): MBOX_PUT, MBOX_TRYPUT, MBOX_TIMEDPUT,
//     MBOX_PUT_BURST (1..OsifMaxArgs words), MBOX_TIMEDPUT_BURST; at its receiving end
//     (RxMask): MBOX_GET, MBOX_TRYGET, MBOX_TIMEDGET, MBOX_GET_BURST,
//     MBOX_TIMEDGET_BURST;
//   a synchronisation range (SYNC_BIND: [31] enable, [30:24] count - 1, [23:16] first
//     object, [15:0] first handle): SEM_POST, SEM_WAIT, SEM_TIMEDWAIT, MUTEX_LOCK,
//     MUTEX_TIMEDLOCK, MUTEX_TRYLOCK, MUTEX_UNLOCK, COND_WAIT, COND_TIMEDWAIT,
//     COND_SIGNAL, COND_BROADCAST, made to the manager (sync_* ports) as client s; a
//     condition wait's mutex handle is looked up in the same ranges (one in none names
//     no object, which the manager answers BADARGS).
// Anything else (a call with a wrong argument count or in the wrong direction included)
// goes to software, whose delegate answers it as for any handle, so a thread gets the
// same answers whichever way its handle is bound.
//
// Link calls, as the delegate serves mailboxes: a call that cannot go on now blocks; a
// try call answers AGAIN; a pending signal (signal_i, CONTROL.SIGNAL) answers CANCELED and
// a passed timeout TIMEDOUT, but only while the call cannot go on. Timeouts count
// microseconds of ClockMhz fabric cycles. A burst put takes its words straight from the
// thread into the link and a burst get streams them out, one word per cycle while the
// link allows. A burst that has moved words and is then ended while it waits is
// answered OK with a burst_end word that says CANCELED or TIMEDOUT and how many words
// moved: a put drops the rest of its request words, a get sends 0 words for the rest of
// its count before burst_end. A synchronisation call is answered with the manager's
// status and no result words; the manager counts its timeout and ends it on a signal.
//
// A request is only taken when HW2SW could take it (dn_ready_i, which carries the write
// fence): a post, an unlock or a put reaches its object only once the thread's earlier
// memory writes are in memory.
//
// Registers (whole-word writes only: a write with a byte strobe low is ignored, so no
// binding is ever half written): LINK_BIND, SYNC_PRIO, SYNC_BIND. Boundary rule 1:
// out_ready_o, in_valid_o and in_data_o are functions of registers only (this module's
// state, the link FIFO's, the OSIF FIFOs').
module weft_call_router #(
  /// Link bindings (LINK_BIND registers), 0 to 8.
  parameter int unsigned NumBinds = 4,
  /// Synchronisation ranges (SYNC_BIND registers), 0 to 4 (0: no manager).
  parameter int unsigned NumRanges = 4,
  /// Width of a link index.
  parameter int unsigned LinkW = 5,
  /// Links the slot may put into (it is their source).
  parameter logic [(1<<LinkW)-1:0] TxMask = '0,
  /// Links the slot may get from (it is their destination).
  parameter logic [(1<<LinkW)-1:0] RxMask = '0,
  /// Fabric cycles per microsecond, for timed link calls.
  parameter int unsigned ClockMhz = 100
) (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic        rst_ni,
  /// The slot is held in reset: drop the call in progress (the bindings are kept).
  input  logic        flush_i,
  /// A signal is pending for the thread (CONTROL.SIGNAL).
  input  logic        signal_i,

  // ---- registers (LINK_BIND, SYNC_PRIO, SYNC_BIND) ----
  `include "weft_slot_reg_ports.svh"

  // ---- the thread's OSIF streams (already decoupled by the caller) ----
  /// Request word from the thread, and its valid; taken when out_ready_o.
  input  logic [31:0] out_data_i,
  input  logic        out_valid_i,
  output logic        out_ready_o,
  /// Response word towards the thread, and its valid; taken when in_ready_i.
  output logic [31:0] in_data_o,
  output logic        in_valid_o,
  input  logic        in_ready_i,

  // ---- the OSIF FIFOs ----
  /// HW2SW can take a word (and the write fence allows it).
  input  logic        dn_ready_i,
  /// Push the thread's request word into HW2SW.
  output logic        dn_push_o,
  /// SW2HW holds a response word: its oldest.
  input  logic        dn_rsp_valid_i,
  input  logic [31:0] dn_rsp_data_i,
  /// Pop SW2HW (the thread took its word).
  output logic        dn_rsp_pop_o,

  // ---- the link in use (weft_static selects it by link_o) ----
  output logic [LinkW-1:0] link_o,
  output logic        link_push_o,
  output logic [31:0] link_wdata_o,
  output logic        link_pop_o,
  input  logic        link_full_i,
  input  logic        link_empty_i,
  input  logic [31:0] link_rdata_i,

  // ---- the synchronisation manager (weft_static connects client s to slot s) ----
  `include "weft_sync_client_ports.svh"

  // ---- status ----
  /// One cycle: a link call served here completed (its response was taken).
  output logic        call_done_o,
  /// Nothing here moves without another slot, the manager or software acting: idle, a
  /// synchronisation call in the manager, or blocked on a link with no timeout and no
  /// signal.
  output logic        quiet_o,
  /// The next edge changes no register here (a simulator hint, docs/architecture.md,
  /// "Holding"); 0 whenever unsure.
  output logic        still_o
);

  localparam int unsigned MaxArgs = weft_osif_pkg::OsifMaxArgs;
  localparam int unsigned PreW = (ClockMhz > 1) ? $clog2(ClockMhz) : 1;
  localparam int NB = NumBinds, NR = NumRanges;  // signed copies for loop bounds
  localparam int unsigned BindRegs = (NumBinds > 0) ? NumBinds : 1;
  localparam int unsigned RangeRegs = (NumRanges > 0) ? NumRanges : 1;

  typedef enum logic [3:0] {
    RtPass,      // not serving a call; software's requests and responses pass through
    RtArgs,      // taking the call's fixed argument words
    RtWaitPut,   // single put: waiting for room
    RtWaitGet,   // single get or burst get: waiting for a word
    RtBurstPut,  // burst put: moving the thread's words into the link
    RtDiscard,   // burst put ended early: dropping the rest of its words
    RtCall,      // synchronisation call: waiting for the manager to take it
    RtInMgr,     // ... the manager has it: waiting for its answer
    RtResp,      // sending the response header
    RtRespWord,  // sending the single get's word
    RtBurstGet,  // burst get: streaming words from the link to the thread
    RtPad,       // burst get ended early: 0 words for the rest of its count
    RtEnd        // a started burst's burst_end word
  } state_e;

  state_e      state_q;
  logic [7:0]  pass_left_q;  // argument words of a forwarded request still to pass
  logic [7:0]  cmd_q, status_q;
  logic        sync_q;       // the call is a synchronisation call (else a link call)
  logic        put_q, burst_q, try_q, timed_q;
  logic [1:0]  fixed_q, argi_q;  // fixed argument words of the call; taken so far
  logic        mtx_arg_q;    // a condition wait: the next argument is its mutex handle
  logic [7:0]  cnt_q;        // burst words still to move (or to drop or pad)
  logic [7:0]  moved_q;      // burst words moved
  logic        cnt_bad_q;    // a burst get's count is 0 or more than OsifMaxArgs
  logic [7:0]  end_q;        // how a started burst ended: its burst_end status
  logic [31:0] val_q;        // single put: the value; single get: the word
  logic [31:0] tmo_q;        // a link call's microseconds left; a sync call's timeout
  logic [PreW-1:0] pre_q;    // cycles into the current microsecond
  logic [LinkW-1:0] link_q;
  logic [3:0]  op_q;         // the synchronisation call
  logic [7:0]  obj_q, mtx_q;
  logic [6:0]  prio_q;       // SYNC_PRIO
  logic [BindRegs*32-1:0]  bind_q;   // LINK_BIND
  logic [RangeRegs*32-1:0] range_q;  // SYNC_BIND

  // ---- registers ---------------------------------------------------------------------
  localparam logic [7:0] BindFirst = weft_osif_pkg::SlotRegLinkBind;
  localparam logic [7:0] RangeFirst = weft_osif_pkg::SlotRegSyncBind;
  localparam logic [31:0] BindMask = weft_osif_pkg::LinkBindEn |
      (weft_osif_pkg::LinkBindLinkMask << weft_osif_pkg::LinkBindLinkShift) |
      weft_osif_pkg::LinkBindHandleMask;
  logic [7:0] bind_rel, range_rel;
  logic       bind_hit, range_hit, prio_hit, whole;
  assign bind_rel  = reg_off_i - BindFirst;
  assign range_rel = reg_off_i - RangeFirst;
  assign bind_hit  = NumBinds > 0 && reg_off_i >= BindFirst &&
                     32'(bind_rel) < NumBinds * weft_osif_pkg::SlotRegLinkBindStride &&
                     bind_rel[1:0] == '0;
  assign range_hit = NumRanges > 0 && reg_off_i >= RangeFirst &&
                     32'(range_rel) < NumRanges * weft_osif_pkg::SlotRegSyncBindStride &&
                     range_rel[1:0] == '0;
  assign prio_hit  = reg_off_i == weft_osif_pkg::SlotRegSyncPrio;
  assign reg_hit_o = bind_hit || range_hit || prio_hit;
  assign whole     = reg_wmask_i == '1;
  always_comb begin
    reg_rdata_o = '0;
    if (reg_re_i) begin
      if (prio_hit) reg_rdata_o = 32'(prio_q);
      for (int b = 0; b < NB; b++) begin
        if (bind_hit && bind_rel[4:2] == 3'(b)) reg_rdata_o = bind_q[b*32 +: 32];
      end
      for (int r = 0; r < NR; r++) begin
        if (range_hit && range_rel[3:2] == 2'(r)) reg_rdata_o = range_q[r*32 +: 32];
      end
    end
  end

  // ---- a header offered by the thread -------------------------------------------------
  // Decoded only in a cycle where a request header (or a condition wait's mutex handle)
  // is offered: Verilator evaluates this logic, which reads a model input, at every
  // eval() (docs/architecture.md).
  logic        hdr_now, mtx_now;
  assign hdr_now = state_q == RtPass && out_valid_i && pass_left_q == '0;
  assign mtx_now = state_q == RtArgs && out_valid_i && mtx_arg_q;

  logic [7:0]  h_cmd, h_nargs;
  logic [15:0] h_handle;
  assign h_cmd    = out_data_i[weft_osif_pkg::ReqCmdMsb:weft_osif_pkg::ReqCmdLsb];
  assign h_handle = out_data_i[weft_osif_pkg::ReqHandleMsb:weft_osif_pkg::ReqHandleLsb];
  assign h_nargs  = out_data_i[weft_osif_pkg::ReqNargsMsb:weft_osif_pkg::ReqNargsLsb];

  // The link bound to the handle.
  logic             h_bound;
  logic [LinkW-1:0] h_link;
  always_comb begin
    h_bound = 1'b0;
    h_link  = '0;
    if (hdr_now) for (int b = 0; b < NB; b++) begin
      if (!h_bound && bind_q[b*32 + 31] && bind_q[b*32 +: 16] == h_handle) begin
        h_bound = 1'b1;
        h_link  = bind_q[b*32 + 16 +: LinkW];
      end
    end
  end

  // The object bound to the handle, or to the mutex argument (a 32-bit word: a handle
  // has 16 bits, so one with more names none).
  logic [15:0] lk_handle, d;
  logic        lk_hit;
  logic [7:0]  lk_obj;
  assign lk_handle = hdr_now ? h_handle : out_data_i[15:0];
  always_comb begin
    lk_hit = 1'b0;
    lk_obj = weft_osif_pkg::SyncNoObject;
    d = '0;
    if ((hdr_now || mtx_now) && (!mtx_now || out_data_i[31:16] == '0)) begin
      for (int r = 0; r < NR; r++) begin
        d = lk_handle - range_q[r*32 +: 16];
        if (!lk_hit && range_q[r*32 + 31] && lk_handle >= range_q[r*32 +: 16] &&
            d <= 16'(range_q[r*32 + 24 +: 7])) begin
          lk_hit = 1'b1;
          lk_obj = range_q[r*32 + 16 +: 8] + d[7:0];
        end
      end
    end
  end

  // What the header asks for: a link call (put or get), a synchronisation call, or
  // neither; h_fixed is its fixed argument count (protocol/osif.yaml's nargs: a single
  // put's value or a burst get's count, a condition wait's mutex, then a timeout), h_ok
  // its argument count's check (a burst put's words follow its fixed ones).
  logic       h_put, h_get, h_sync, h_burst, h_try, h_timed, h_cond, h_ok;
  logic [1:0] h_fixed;
  logic [3:0] h_op;
  always_comb begin
    {h_put, h_get, h_sync, h_burst, h_try, h_timed, h_cond} = '0;
    h_op = weft_osif_pkg::SyncOpSemPost;
    h_fixed = '0;
    if (hdr_now) unique case (h_cmd)
      weft_osif_pkg::CmdMboxPut: begin
        h_put = 1'b1;
        h_fixed = 2'(weft_osif_pkg::CmdMboxPutNargs);
      end
      weft_osif_pkg::CmdMboxTryput: begin
        {h_put, h_try} = 2'b11;
        h_fixed = 2'(weft_osif_pkg::CmdMboxTryputNargs);
      end
      weft_osif_pkg::CmdMboxTimedput: begin
        {h_put, h_timed} = 2'b11;
        h_fixed = 2'(weft_osif_pkg::CmdMboxTimedputNargs);
      end
      weft_osif_pkg::CmdMboxPutBurst: begin
        {h_put, h_burst} = 2'b11;
        h_fixed = 2'(weft_osif_pkg::CmdMboxPutBurstNargs);
      end
      weft_osif_pkg::CmdMboxTimedputBurst: begin
        {h_put, h_burst, h_timed} = 3'b111;
        h_fixed = 2'(weft_osif_pkg::CmdMboxTimedputBurstNargs);
      end
      weft_osif_pkg::CmdMboxGet: begin
        h_get = 1'b1;
        h_fixed = 2'(weft_osif_pkg::CmdMboxGetNargs);
      end
      weft_osif_pkg::CmdMboxTryget: begin
        {h_get, h_try} = 2'b11;
        h_fixed = 2'(weft_osif_pkg::CmdMboxTrygetNargs);
      end
      weft_osif_pkg::CmdMboxTimedget: begin
        {h_get, h_timed} = 2'b11;
        h_fixed = 2'(weft_osif_pkg::CmdMboxTimedgetNargs);
      end
      weft_osif_pkg::CmdMboxGetBurst: begin
        {h_get, h_burst} = 2'b11;
        h_fixed = 2'(weft_osif_pkg::CmdMboxGetBurstNargs);
      end
      weft_osif_pkg::CmdMboxTimedgetBurst: begin
        {h_get, h_burst, h_timed} = 3'b111;
        h_fixed = 2'(weft_osif_pkg::CmdMboxTimedgetBurstNargs);
      end
      weft_osif_pkg::CmdSemPost: begin
        h_sync = 1'b1;
        h_fixed = 2'(weft_osif_pkg::CmdSemPostNargs);
      end
      weft_osif_pkg::CmdSemWait: begin
        h_sync = 1'b1;
        h_op = weft_osif_pkg::SyncOpSemWait;
        h_fixed = 2'(weft_osif_pkg::CmdSemWaitNargs);
      end
      weft_osif_pkg::CmdSemTimedwait: begin
        {h_sync, h_timed} = 2'b11;
        h_op = weft_osif_pkg::SyncOpSemWait;
        h_fixed = 2'(weft_osif_pkg::CmdSemTimedwaitNargs);
      end
      weft_osif_pkg::CmdMutexLock: begin
        h_sync = 1'b1;
        h_op = weft_osif_pkg::SyncOpMutexLock;
        h_fixed = 2'(weft_osif_pkg::CmdMutexLockNargs);
      end
      weft_osif_pkg::CmdMutexTimedlock: begin
        {h_sync, h_timed} = 2'b11;
        h_op = weft_osif_pkg::SyncOpMutexLock;
        h_fixed = 2'(weft_osif_pkg::CmdMutexTimedlockNargs);
      end
      weft_osif_pkg::CmdMutexTrylock: begin
        h_sync = 1'b1;
        h_op = weft_osif_pkg::SyncOpMutexTrylock;
        h_fixed = 2'(weft_osif_pkg::CmdMutexTrylockNargs);
      end
      weft_osif_pkg::CmdMutexUnlock: begin
        h_sync = 1'b1;
        h_op = weft_osif_pkg::SyncOpMutexUnlock;
        h_fixed = 2'(weft_osif_pkg::CmdMutexUnlockNargs);
      end
      weft_osif_pkg::CmdCondWait: begin
        {h_sync, h_cond} = 2'b11;
        h_op = weft_osif_pkg::SyncOpCondWait;
        h_fixed = 2'(weft_osif_pkg::CmdCondWaitNargs);
      end
      weft_osif_pkg::CmdCondTimedwait: begin
        {h_sync, h_cond, h_timed} = 3'b111;
        h_op = weft_osif_pkg::SyncOpCondWait;
        h_fixed = 2'(weft_osif_pkg::CmdCondTimedwaitNargs);
      end
      weft_osif_pkg::CmdCondSignal: begin
        h_sync = 1'b1;
        h_op = weft_osif_pkg::SyncOpCondSignal;
        h_fixed = 2'(weft_osif_pkg::CmdCondSignalNargs);
      end
      weft_osif_pkg::CmdCondBroadcast: begin
        h_sync = 1'b1;
        h_op = weft_osif_pkg::SyncOpCondBroadcast;
        h_fixed = 2'(weft_osif_pkg::CmdCondBroadcastNargs);
      end
      default: ;
    endcase
    h_ok = (h_put && h_burst) ? (h_nargs > 8'(h_fixed)) : (h_nargs == 8'(h_fixed));
  end

  logic h_link_call, h_sync_call, h_local;
  assign h_link_call = h_bound && h_ok && ((h_put && TxMask[h_link]) || (h_get && RxMask[h_link]));
  assign h_sync_call = lk_hit && h_sync && h_ok;
  assign h_local     = h_link_call || h_sync_call;

  // ---- a link call's timeout: microseconds of ClockMhz cycles, while it waits ---------
  logic expired, tick, counting;
  assign expired  = !sync_q && timed_q && tmo_q == '0;
  assign tick     = 32'(pre_q) == ClockMhz - 1;
  assign counting = (state_q == RtWaitPut || state_q == RtWaitGet || state_q == RtBurstPut ||
                     state_q == RtBurstGet) && timed_q && !expired;

  // A waiting single call or burst get can go on: room to put, or a word to get.
  logic can_go;
  assign can_go = put_q ? !link_full_i : !link_empty_i;

  logic out_fire, in_fire, last_arg;
  assign out_fire = out_valid_i && out_ready_o;
  assign in_fire  = in_valid_o && in_ready_i;
  assign last_arg = argi_q + 2'd1 == fixed_q;
  // A burst get's count argument is 0 or too large (the word taken now in RtArgs when it
  // is the count, else what was recorded when the count was taken).
  logic cnt_word, cnt_bad;
  assign cnt_word = !sync_q && burst_q && !(timed_q && last_arg);
  assign cnt_bad  = cnt_word ? (out_data_i == '0 || out_data_i > 32'(MaxArgs)) : cnt_bad_q;

  // ---- towards the thread and the FIFOs: registers only ----
  always_comb begin
    out_ready_o = 1'b0;
    in_valid_o  = 1'b0;
    in_data_o   = dn_rsp_data_i;
    unique case (state_q)
      RtPass: begin
        out_ready_o = dn_ready_i;
        in_valid_o  = dn_rsp_valid_i;
      end
      RtArgs, RtDiscard: out_ready_o = 1'b1;
      RtBurstPut: out_ready_o = !link_full_i;
      RtResp: begin
        in_valid_o = 1'b1;
        in_data_o  = weft_osif_pkg::resp_header(cmd_q, status_q,
                         (sync_q || status_q != weft_osif_pkg::StatusOk) ? 16'd0 :
                         put_q ? 16'(burst_q) : (burst_q ? 16'(cnt_q) + 16'd1 : 16'd1));
      end
      RtRespWord: begin
        in_valid_o = 1'b1;
        in_data_o  = val_q;
      end
      RtBurstGet: begin
        in_valid_o = !link_empty_i;
        in_data_o  = link_rdata_i;
      end
      RtPad: begin
        in_valid_o = 1'b1;
        in_data_o  = '0;
      end
      RtEnd: begin
        in_valid_o = 1'b1;
        in_data_o  = weft_osif_pkg::burst_end(end_q, 16'(moved_q));
      end
      default: ;
    endcase
  end
  assign dn_push_o    = state_q == RtPass && out_fire && (pass_left_q != '0 || !h_local);
  assign dn_rsp_pop_o = state_q == RtPass && in_fire;
  assign link_o       = link_q;

  // What moves on the link, and whether a link call ends in this cycle.
  always_comb begin
    link_push_o  = 1'b0;
    link_wdata_o = val_q;
    link_pop_o   = 1'b0;
    call_done_o  = 1'b0;
    unique case (state_q)
      RtWaitPut, RtWaitGet: begin
        if (can_go) begin
          link_push_o = put_q;
          link_pop_o  = !put_q && !burst_q;
        end
      end
      RtBurstPut: begin
        link_push_o  = out_fire;
        link_wdata_o = out_data_i;
      end
      RtResp: call_done_o = !sync_q && in_fire &&
                            (status_q != weft_osif_pkg::StatusOk || (put_q && !burst_q));
      RtRespWord, RtEnd: call_done_o = in_fire;
      RtBurstGet: link_pop_o = in_fire;
      default: ;
    endcase
  end

  assign sync_req_valid_o = state_q == RtCall;
  assign sync_op_o     = op_q;
  assign sync_obj_o    = obj_q;
  assign sync_mtx_o    = mtx_q;
  assign sync_timed_o  = timed_q;
  assign sync_tmo_o    = tmo_q;
  assign sync_prio_o   = prio_q;
  assign sync_cancel_o = signal_i;
  assign sync_flush_o  = flush_i;

  // ---- next state, at the edge; a flush (the slot held in reset) ends any call --------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= RtPass;
      pass_left_q <= '0;
      cmd_q       <= '0;
      status_q    <= '0;
      sync_q      <= 1'b0;
      put_q       <= 1'b0;
      burst_q     <= 1'b0;
      try_q       <= 1'b0;
      timed_q     <= 1'b0;
      fixed_q     <= '0;
      argi_q      <= '0;
      mtx_arg_q   <= 1'b0;
      cnt_q       <= '0;
      moved_q     <= '0;
      cnt_bad_q   <= 1'b0;
      end_q       <= '0;
      val_q       <= '0;
      tmo_q       <= '0;
      pre_q       <= '0;
      link_q      <= '0;
      op_q        <= '0;
      obj_q       <= '0;
      mtx_q       <= weft_osif_pkg::SyncNoObject;
      prio_q      <= '0;
      bind_q      <= '0;
      range_q     <= '0;
    end else begin
      if (reg_we_i && whole) begin
        if (prio_hit) prio_q <= reg_wdata_i[6:0];
        for (int b = 0; b < NB; b++) begin
          if (bind_hit && bind_rel[4:2] == 3'(b)) bind_q[b*32 +: 32] <= reg_wdata_i & BindMask;
        end
        for (int r = 0; r < NR; r++) begin
          if (range_hit && range_rel[3:2] == 2'(r)) range_q[r*32 +: 32] <= reg_wdata_i;
        end
      end
      if (counting) begin
        pre_q <= tick ? '0 : pre_q + 1'b1;
        if (tick) tmo_q <= tmo_q - 32'd1;
      end

      unique case (state_q)
        RtPass: begin
          if (out_fire) begin
            if (pass_left_q != '0) begin
              pass_left_q <= pass_left_q - 8'd1;
            end else if (!h_local) begin
              pass_left_q <= h_nargs;
            end else begin
              cmd_q     <= h_cmd;
              sync_q    <= h_sync_call;
              put_q     <= h_put;
              burst_q   <= h_burst;
              try_q     <= h_try;
              timed_q   <= h_timed;
              fixed_q   <= h_fixed;
              argi_q    <= '0;
              mtx_arg_q <= h_cond;
              link_q    <= h_link;
              op_q      <= h_op;
              obj_q     <= lk_obj;
              mtx_q     <= weft_osif_pkg::SyncNoObject;
              moved_q   <= '0;
              end_q     <= weft_osif_pkg::StatusOk;
              cnt_bad_q <= 1'b0;
              tmo_q     <= '0;
              pre_q     <= '0;
              cnt_q     <= h_nargs - 8'(h_fixed);  // a burst put: its words
              if (h_fixed != '0) state_q <= RtArgs;
              else if (h_sync_call) state_q <= RtCall;
              else if (h_put) state_q <= RtBurstPut;  // MBOX_PUT_BURST: its words follow
              else state_q <= RtWaitGet;              // MBOX_GET, MBOX_TRYGET
            end
          end
        end

        RtArgs: begin
          if (out_fire) begin
            argi_q <= argi_q + 2'd1;
            mtx_arg_q <= 1'b0;
            if (mtx_arg_q) mtx_q <= lk_obj;
            else if (timed_q && last_arg) tmo_q <= out_data_i;
            else if (burst_q) begin
              cnt_q     <= out_data_i[7:0];
              cnt_bad_q <= cnt_bad;
            end else val_q <= out_data_i;
            if (last_arg) begin
              status_q <= weft_osif_pkg::StatusOk;
              if (sync_q) state_q <= RtCall;
              else if (put_q) state_q <= burst_q ? RtBurstPut : RtWaitPut;
              else if (burst_q && cnt_bad) begin
                status_q <= weft_osif_pkg::StatusBadargs;
                state_q  <= RtResp;
              end else state_q <= RtWaitGet;
            end
          end
        end

        // A single call's wait, and a burst get's wait for its first word: go on when the
        // link allows, else answer AGAIN, CANCELED or TIMEDOUT when one applies.
        RtWaitPut, RtWaitGet: begin
          if (can_go) begin
            status_q <= weft_osif_pkg::StatusOk;
            state_q  <= RtResp;
            if (!put_q && !burst_q) val_q <= link_rdata_i;
          end else if (try_q || signal_i || expired) begin
            status_q <= try_q ? weft_osif_pkg::StatusAgain :
                        signal_i ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
            state_q  <= RtResp;
          end
        end

        // A burst put ended while it waits for room drops the rest of its words: before
        // its first word moved the header says why, after it burst_end does.
        RtBurstPut: begin
          if (out_fire) begin
            moved_q <= moved_q + 8'd1;
            cnt_q   <= cnt_q - 8'd1;
            if (cnt_q == 8'd1) begin
              status_q <= weft_osif_pkg::StatusOk;
              state_q  <= RtResp;
            end
          end else if (link_full_i && (signal_i || expired)) begin
            if (moved_q != '0) begin
              status_q <= weft_osif_pkg::StatusOk;
              end_q    <= signal_i ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
            end else begin
              status_q <= signal_i ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
            end
            state_q <= RtDiscard;
          end
        end

        RtDiscard: begin
          if (out_fire) begin
            cnt_q <= cnt_q - 8'd1;
            if (cnt_q == 8'd1) state_q <= RtResp;
          end
        end

        RtCall: if (sync_req_ready_i) state_q <= RtInMgr;

        RtInMgr: begin
          if (sync_rsp_valid_i) begin
            status_q <= sync_rsp_status_i;
            state_q  <= RtResp;
          end
        end

        RtResp: begin
          if (in_fire) begin
            if (sync_q || status_q != weft_osif_pkg::StatusOk) state_q <= RtPass;
            else if (burst_q) state_q <= put_q ? RtEnd : RtBurstGet;
            else state_q <= put_q ? RtPass : RtRespWord;
          end
        end

        RtRespWord, RtEnd: if (in_fire) state_q <= RtPass;

        // A burst get ended while it waits for a word sends 0 words for the rest of its
        // count, then burst_end.
        RtBurstGet: begin
          if (in_fire) begin
            moved_q <= moved_q + 8'd1;
            cnt_q   <= cnt_q - 8'd1;
            if (cnt_q == 8'd1) state_q <= RtEnd;
          end else if (link_empty_i && (signal_i || expired)) begin
            end_q   <= signal_i ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
            state_q <= RtPad;
          end
        end

        RtPad: begin
          if (in_fire) begin
            cnt_q <= cnt_q - 8'd1;
            if (cnt_q == 8'd1) state_q <= RtEnd;
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

  // Quiet: idle, the manager has the call (its answer, or a timeout it counts, moves it
  // on), or blocked for good until another slot moves the link.
  always_comb begin
    unique case (state_q)
      RtPass, RtInMgr: quiet_o = 1'b1;
      RtWaitPut, RtWaitGet: quiet_o = !can_go && !try_q && !timed_q && !signal_i;
      RtBurstPut: quiet_o = link_full_i && !timed_q && !signal_i;
      RtBurstGet: quiet_o = link_empty_i && !timed_q && !signal_i;
      default:    quiet_o = 1'b0;
    endcase
  end

  // Still: no handshake that moves the state machine, no register written, no timeout
  // counting, no flush to do. Conservative: a timed link burst is never still.
  always_comb begin
    unique case (state_q)
      RtPass, RtArgs, RtDiscard: still_o = !out_fire;
      RtWaitPut, RtWaitGet: still_o = !can_go && !try_q && !timed_q && !signal_i;
      RtBurstPut: still_o = !out_fire && !timed_q && !(signal_i && link_full_i);
      RtBurstGet: still_o = !in_fire && !timed_q && !(signal_i && link_empty_i);
      RtCall: still_o = !sync_req_ready_i;
      RtInMgr: still_o = !sync_rsp_valid_i;
      RtResp, RtRespWord, RtPad, RtEnd: still_o = !in_fire;
      default: still_o = 1'b0;
    endcase
    if (reg_we_i || (flush_i && (state_q != RtPass || pass_left_q != '0))) still_o = 1'b0;
  end

`ifndef SYNTHESIS
  StillMeansStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({state_q, pass_left_q, cmd_q, status_q, sync_q, put_q, burst_q,
                           try_q, timed_q, fixed_q, argi_q, mtx_arg_q, cnt_q, moved_q,
                           cnt_bad_q, end_q, val_q, tmo_q, pre_q, link_q, op_q, obj_q, mtx_q,
                           prio_q, bind_q, range_q}));
  if (NumBinds > 8 || NumRanges > 4) begin : gen_regs_check
    $error("weft_call_router: at most 8 LINK_BIND and 4 SYNC_BIND registers");
  end
  if (ClockMhz < 1) begin : gen_clock_check
    $error("weft_call_router: ClockMhz must be at least 1");
  end
  PushNotFull_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      link_push_o |-> !link_full_i);
  PopNotEmpty_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      link_pop_o |-> !link_empty_i);
  PushOnlyToTxLinks_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      link_push_o |-> TxMask[link_q]);
  PopOnlyFromRxLinks_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      link_pop_o |-> RxMask[link_q]);
`endif

endmodule

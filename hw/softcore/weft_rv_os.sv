// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_os: the softcore's OS services in hardware (docs/softcore.md, "Hardware-context
// port"), what makes the kernel's hardware-context port: the unified scheduler, a thread
// manager (weft_tm) whose decision names the context the core runs (sched_ctx_o), the
// synchronisation manager (weft_sync) with one client per thread, and the delay timers,
// one tick comparator per thread id. Software reaches it through a register window
// (weft_rv_pkg::Os*, offsets in 32-bit words); a write that is a command (TM_CMD,
// SYNC_CALL, SLEEP) holds the core until it is done, so the instruction after it already
// runs under the new decision.
//
// Threads and contexts: the kernel binds each thread id to a context (MAP) and says which
// thread a context holds (OWNER). The scheduler's thread runs in its context if that
// context holds it; otherwise (a thread that shares a context, or none decided) context
// 0, the kernel's, runs, and NEED names the thread to load; writing OWNER when the kernel
// has loaded it there also binds the thread to that context. A synchronisation call is
// made for the thread the running context holds (context 0: client 0, the kernel's
// handlers, which must not block). A call that blocks makes its thread WAIT in the
// thread manager at once; its answer comes later as a SIGNAL of the thread (an event),
// and the thread reads its status (SYNC_CALL) when it runs again. A SLEEP arms the
// running thread's comparator and makes it WAIT; the comparator SIGNALs it when the tick
// count reaches the wake tick. A comparator belongs to a thread id, not to a context, so
// a sleeping thread may leave its context to another (RT-SHADOWS keeps one per hardware
// thread; here the thread manager's ids are those). Events wait in one pending bit each
// and go to the thread manager one at a time, answers before comparators, lower indices
// first.
//
// quiet_o says that nothing here will change until an input does: no command, call or
// event in progress or pending, no comparator armed, no timeout counting, no priority to
// pass on, and the idle thread decided. With the core waiting in wfi, the slot around it
// may then stop its clock until something outside wakes it.
module weft_rv_os #(
  parameter int unsigned NumCtx = 8,
  /// Thread ids, 0 (the idle thread, and the kernel's client) to NumThreads - 1; 2-32.
  parameter int unsigned NumThreads = 16,
  parameter int unsigned NumPrios = 32,
  /// Hardware mutexes and semaphores.
  parameter int unsigned NumObjs = 16,
  /// Core cycles per microsecond (timed synchronisation calls).
  parameter int unsigned ClockMhz = 100,
  localparam int unsigned CtxW = (NumCtx > 1) ? $clog2(NumCtx) : 1,
  localparam int unsigned TidW = $clog2(NumThreads)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // ---- the register window (from weft_rv_soc's decoder) ----
  input  logic            req_i,
  input  logic            we_i,
  input  logic [3:0]      addr_i,   // word offset
  input  logic [31:0]     wdata_i,
  /// A load in the call window: synchronisation call call_op_i on object call_obj_i,
  /// whose data is the answer's status, or CallBlocked when the caller now waits.
  input  logic            call_i,
  input  logic [3:0]      call_op_i,
  input  logic [7:0]      call_obj_i,
  output logic            ready_o,
  output logic            err_o,
  output logic [31:0]     rdata_o,
  // ---- the core ----
  input  logic [CtxW-1:0] ctx_i,
  output logic [CtxW-1:0] sched_ctx_o,
  output logic            quiet_o
);

  // ---------------------------------------------------------------------------------
  // Bindings: thread -> context (and its priority, for the waiters' order), context ->
  // the thread it holds.
  // ---------------------------------------------------------------------------------
  logic            map_valid_q [NumThreads];
  logic [CtxW-1:0] map_ctx_q   [NumThreads];
  logic [6:0]      map_prio_q  [NumThreads];
  logic [7:0]      owner_q     [NumCtx];

  logic [7:0]      cur_tid;
  logic [6:0]      cur_prio;
  logic [TidW-1:0] cur_idx;
  logic            cur_loaded, need;
  logic [7:0]      caller;   // the thread the running context holds (0 in context 0)
  assign cur_idx    = cur_tid[TidW-1:0];
  assign cur_loaded = map_valid_q[cur_idx] && owner_q[map_ctx_q[cur_idx]] == cur_tid;
  assign need       = cur_tid != '0 && map_valid_q[cur_idx] && !cur_loaded;
  assign sched_ctx_o = (cur_tid != '0 && cur_loaded) ? map_ctx_q[cur_idx] : '0;
  assign caller     = (ctx_i == '0) ? 8'd0 : owner_q[ctx_i];

  // Commands in progress and what they leave.
  typedef enum logic [3:0] {
    SIdle, STm, STmWait, SSync, SSyncCheck, SSettle, SCancel, SCfg, SDone
  } state_e;
  state_e      state_q;
  logic [3:0]  op_q;
  logic [7:0]  tid_q, arg_q;
  logic        flag_q;
  logic [31:0] res_q;          // TM_CMD's read: the last answer
  logic [31:0] value_q;
  logic [7:0]  cfg_res_q;
  logic [7:0]  status_q [NumThreads];  // each thread's last synchronisation answer
  logic        blocked_q [NumThreads]; // its call blocked and is not answered yet
  logic [NumThreads-1:0] pend_sync_q;  // an answer to SIGNAL
  logic        ev_busy_q;      // an event taken and not done yet
  logic [7:0]  call_status_q;  // a call's answer, held while its effects settle
  logic        then_wait_q;    // the call blocked: its thread WAITs after the settling
  // Whom the thread manager's next answer is for: the core's TM_CMD, the settling of a
  // call (PRIORITY), the idle block (PRIORITY), a blocked call's WAIT, a SLEEP's WAIT.
  typedef enum logic [2:0] {ForCore, ForSettle, ForIdle, ForCall, ForSleep} tm_for_e;
  tm_for_e     tm_for_q;
  logic [1:0]  settle_q;       // cycles into SSettle
  logic [6:0]  applied_q [NumThreads];  // the priority the thread manager has for each
  logic [TidW-1:0] sleep_tid_q;  // the thread whose SLEEP's WAIT is in flight
  logic [NumThreads-1:0] cancel_q;     // end this client's wait (its WAIT was refused)
  logic [NumThreads-1:0] pend_wake_q;  // a comparator to SIGNAL


  // ---------------------------------------------------------------------------------
  // The thread manager
  // ---------------------------------------------------------------------------------
  logic        tm_cmd_valid, tm_cmd_ready, tm_rsp_valid, tm_rsp_blocked;
  logic [3:0]  tm_cmd_op;
  logic [7:0]  tm_cmd_tid, tm_cmd_arg, tm_rsp_status, tm_rsp_tid;
  logic        tm_cmd_flag;
  logic [31:0] tm_rsp_value;
  logic        ev_valid, ev_ready;
  // Outputs this block does not follow (the decision is read whole; the scheduler's
  // order, not the sync manager's inherited priorities, runs the threads).
  logic        tm_ev_done, tm_ev_switched, tm_decided, tm_still, s_still, s_settled;
  logic [15:0] tm_seq;
  logic [31:0] s_rd_state;
  logic [NumThreads-1:0]   s_rd_waiters;
  logic [NumThreads*7-1:0] s_eff_prio;
  logic [7:0]  ev_tid;

  weft_tm #(.NumThreads(NumThreads), .NumPrios(NumPrios)) u_tm (
    .clk_i,
    .rst_ni,
    .cmd_valid_i  (tm_cmd_valid),
    .cmd_ready_o  (tm_cmd_ready),
    .cmd_op_i     (tm_cmd_op),
    .cmd_tid_i    (tm_cmd_tid),
    .cmd_arg_i    (tm_cmd_arg),
    .cmd_flag_i   (tm_cmd_flag),
    .cmd_value_i  ('0),
    .rsp_valid_o  (tm_rsp_valid),
    .rsp_status_o (tm_rsp_status),
    .rsp_blocked_o(tm_rsp_blocked),
    .rsp_tid_o    (tm_rsp_tid),
    .rsp_value_o  (tm_rsp_value),
    .ev_valid_i   (ev_valid),
    .ev_tid_i     (ev_tid),
    .ev_ready_o   (ev_ready),
    .ev_done_o    (tm_ev_done),
    .ev_switched_o(tm_ev_switched),
    .cur_tid_o    (cur_tid),
    .cur_prio_o   (cur_prio),
    .seq_o        (tm_seq),
    .decided_o    (tm_decided),
    .still_o      (tm_still)
  );

  // ---------------------------------------------------------------------------------
  // The synchronisation manager: client c is thread c
  // ---------------------------------------------------------------------------------
  localparam int unsigned NC = NumThreads;
  logic             cfg_valid;
  logic [7:0]       cfg_status;
  logic [NC-1:0]    s_req_valid, s_req_ready, s_rsp_valid, s_waiting;
  logic [NC*4-1:0]  s_req_op;
  logic [NC*8-1:0]  s_req_obj, s_req_mtx, s_rsp_status;
  logic [NC-1:0]    s_req_timed;
  logic [NC*32-1:0] s_req_tmo;
  logic [NC*7-1:0]  s_prio;

  logic [31:0] cfg_val_q, tmo_q;
  logic [24:0] call_q;
  logic [7:0]  call_cl_q;

  // A call-window load goes to the synchronisation manager in the cycle it comes (one
  // cycle saved on every call); a register write's call, from SSync.
  logic        call_refused, call_now;
  logic [24:0] call_word;
  logic [7:0]  call_cl;
  // Context 0 has no thread to wait: its waits become tries (AGAIN or BUSY where they
  // would block), and a condition wait is refused.
  // A client still blocked in the manager (a thread made to run by hand, a kernel bug)
  // makes no other call: the manager would not take it, and the core would wait for
  // ever. It is answered BUSY.
  logic [3:0]  call_op, reg_op, in_op;
  logic        caller_blocked, in_refused, in_timed;
  assign caller_blocked = s_waiting[caller[TidW-1:0]] || blocked_q[caller[TidW-1:0]];
  assign in_op = call_i ? call_op_i : wdata_i[3:0];
  always_comb begin
    call_op = in_op;
    if (caller == '0 && in_op == weft_osif_pkg::SyncOpSemWait)
      call_op = weft_osif_pkg::SyncOpSemTrywait;
    if (caller == '0 && in_op == weft_osif_pkg::SyncOpMutexLock)
      call_op = weft_osif_pkg::SyncOpMutexTrylock;
  end
  assign reg_op     = call_op;
  assign in_refused = caller_blocked || (caller == '0 && in_op == weft_osif_pkg::SyncOpCondWait);
  assign in_timed   = wdata_i[24] && caller != '0;
  assign call_refused = state_q == SIdle && call_i && !we_i && in_refused;
  assign call_now  = state_q == SIdle && req_i && call_i && !we_i && !call_refused;
  assign call_word = call_now ? {1'b0, 8'd0, call_obj_i, 4'd0, call_op} : call_q;
  assign call_cl   = call_now ? caller : call_cl_q;
  always_comb begin
    for (int c = 0; c < NC; c++) begin
      s_req_valid[c] = 1'b0;
      s_req_op[c*4 +: 4] = call_word[3:0];
      s_req_obj[c*8 +: 8] = call_word[15:8];
      s_req_mtx[c*8 +: 8] = call_word[23:16];
      s_req_timed[c] = call_word[24];
      s_req_tmo[c*32 +: 32] = tmo_q;
      s_prio[c*7 +: 7] = map_prio_q[c];
    end
    s_req_valid[call_cl[TidW-1:0]] = call_now || state_q == SSync;
  end

  weft_sync #(.NumObjs(NumObjs), .NumClients(NC), .ClockMhz(ClockMhz)) u_sync (
    .clk_i,
    .rst_ni,
    .cfg_valid_i (cfg_valid),
    .cfg_obj_i   (wdata_i[7:0]),
    .cfg_type_i  (wdata_i[9:8]),
    .cfg_kind_i  (wdata_i[11:10]),
    .cfg_pi_i    (wdata_i[12]),
    .cfg_count_i (cfg_val_q[15:0]),
    .cfg_max_i   (cfg_val_q[31:16]),
    .cfg_status_o(cfg_status),
    .rd_obj_i    ('0),
    .rd_en_i     (1'b0),
    .rd_state_o  (s_rd_state),
    .rd_waiters_o(s_rd_waiters),
    .req_valid_i (s_req_valid),
    .req_ready_o (s_req_ready),
    .req_op_i    (s_req_op),
    .req_obj_i   (s_req_obj),
    .req_mtx_i   (s_req_mtx),
    .req_timed_i (s_req_timed),
    .req_tmo_i   (s_req_tmo),
    .prio_i      (s_prio),
    .cancel_i    (cancel_q),
    .flush_i     ('0),
    .rsp_valid_o (s_rsp_valid),
    .rsp_status_o(s_rsp_status),
    .waiting_o   (s_waiting),
    .eff_prio_o  (s_eff_prio),
    .settled_o   (s_settled),
    .still_o     (s_still)
  );

  // ---------------------------------------------------------------------------------
  // The tick and the comparators, one per thread id
  // ---------------------------------------------------------------------------------
  logic [31:0] period_q, phase_q, ticks_q;
  logic [31:0] wake_q [NumThreads];
  logic [NumThreads-1:0] armed_q;

  // ---------------------------------------------------------------------------------
  // Commands
  // ---------------------------------------------------------------------------------
  assign tm_cmd_valid = state_q == STm;
  assign tm_cmd_op    = op_q;
  assign tm_cmd_tid   = tid_q;
  assign tm_cmd_arg   = arg_q;
  assign tm_cmd_flag  = flag_q;
  assign cfg_valid    = state_q == SIdle && req_i && we_i && !call_i &&
                        addr_i == weft_rv_pkg::OsSyncCfg;

  // Events: the lowest pending answer, else the lowest pending comparator.
  logic        ev_is_sync;
  always_comb begin
    ev_valid = 1'b0;
    ev_is_sync = 1'b0;
    ev_tid = '0;
    for (int t = NumThreads - 1; t >= 0; t--) begin
      if (pend_wake_q[t]) begin
        ev_valid = 1'b1;
        ev_tid = 8'(t);
      end
    end
    for (int t = NumThreads - 1; t >= 0; t--) begin
      if (pend_sync_q[t]) begin
        ev_valid = 1'b1;
        ev_is_sync = 1'b1;
        ev_tid = 8'(t);
      end
    end
  end

  // What the window answers in the idle state (reads, and writes that are not commands).
  logic immediate;
  assign immediate = call_i ? (we_i || call_refused) :
                     !(we_i && (addr_i == weft_rv_pkg::OsTmCmd ||
                                (addr_i == weft_rv_pkg::OsSyncCall && !in_refused) ||
                                addr_i == weft_rv_pkg::OsSyncCfg ||
                                (addr_i == weft_rv_pkg::OsSleep && ctx_i != '0)));
  always_comb begin
    err_o = 1'b0;
    unique case (addr_i)
      weft_rv_pkg::OsTmCmd:    rdata_o = res_q;
      weft_rv_pkg::OsTmValue:  rdata_o = value_q;
      weft_rv_pkg::OsTmCur:    rdata_o = {17'b0, cur_prio, cur_tid};
      weft_rv_pkg::OsMap:      rdata_o = '0;
      weft_rv_pkg::OsOwner:    rdata_o = {23'b0, need, cur_tid};
      weft_rv_pkg::OsSyncCfg:  rdata_o = {24'b0, cfg_res_q};
      weft_rv_pkg::OsSyncVal:  rdata_o = cfg_val_q;
      weft_rv_pkg::OsSyncTmo:  rdata_o = tmo_q;
      weft_rv_pkg::OsSyncCall: rdata_o = {24'b0, status_q[caller[TidW-1:0]]};
      weft_rv_pkg::OsTick:     rdata_o = ticks_q;
      weft_rv_pkg::OsSleep:    rdata_o = '0;
      weft_rv_pkg::OsInfo:     rdata_o = {8'(NumObjs), 8'(NumPrios), 8'(NumThreads), 8'(NumCtx)};
      default: begin
        rdata_o = '0;
        err_o = 1'b1;
      end
    endcase
    // A SLEEP in context 0 has no thread to wait: an access fault.
    if (we_i && addr_i == weft_rv_pkg::OsSleep && ctx_i == '0) err_o = 1'b1;
    // The call window: loads only; the status, or that the caller waits now.
    if (call_i) begin
      err_o = we_i;
      rdata_o = call_refused ? {24'b0, caller_blocked ? weft_osif_pkg::StatusBusy :
                                                         weft_osif_pkg::StatusCanceled} :
                (state_q == SDone) ? {24'b0, call_status_q} :
                call_answered ? {24'b0, s_rsp_status[call_cl_q[TidW-1:0]*8 +: 8]} :
                weft_rv_pkg::OsCallBlocked;
    end
  end
  // Commands answer in the cycle their answer comes: the decision the thread manager
  // answers with is already out, so the instruction after runs under it.
  // A synchronisation call answers once what it caused has settled (SSettle): the
  // priorities its mutexes pass on are in the thread manager, and a waiter it released
  // has been SIGNALled, so a more urgent thread it woke runs before its next instruction.
  // Only a post that woke a waiter and an unlock (which may also change who inherits what)
  // settle; every other answer goes back in the cycle it comes.
  logic [NumThreads-1:0] blocked_vec;
  logic                  call_answered, call_settles;
  always_comb begin
    for (int t = 0; t < NumThreads; t++) blocked_vec[t] = blocked_q[t];
  end
  assign call_answered = state_q == SSyncCheck && s_rsp_valid[call_cl_q[TidW-1:0]];
  assign call_settles  = call_q[3:0] == weft_osif_pkg::SyncOpMutexUnlock ||
                         (s_rsp_valid & blocked_vec) != '0;
  logic tm_answers;  // the command in flight is the core's, and its answer ends the access
  assign tm_answers = tm_for_q == ForCore || tm_for_q == ForSleep ||
                      (tm_for_q == ForCall && tm_rsp_status == weft_osif_pkg::StatusOk);
  assign ready_o = req_i && ((state_q == SIdle && immediate) || state_q == SDone ||
                             (call_answered && !call_settles) ||
                             (state_q == STmWait && tm_rsp_valid && tm_answers));

  // Priority inheritance: the lowest thread whose effective priority (the sync
  // manager's) is not the one the thread manager has.
  logic            pi_valid;
  logic [TidW-1:0] pi_tid;
  always_comb begin
    pi_valid = 1'b0;
    pi_tid = '0;
    for (int t = NumThreads - 1; t >= 1; t--) begin
      if (map_valid_q[t] && s_eff_prio[t*7 +: 7] != applied_q[t]) begin
        pi_valid = 1'b1;
        pi_tid = TidW'(t);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      op_q <= '0;
      tid_q <= '0;
      arg_q <= '0;
      flag_q <= 1'b0;
      res_q <= '0;
      value_q <= '0;
      cfg_res_q <= '0;
      cfg_val_q <= '0;
      tmo_q <= '0;
      call_q <= '0;
      call_cl_q <= '0;
      period_q <= '0;
      phase_q <= '0;
      ticks_q <= '0;
      pend_sync_q <= '0;
      pend_wake_q <= '0;
      ev_busy_q <= 1'b0;
      tm_for_q <= ForCore;
      sleep_tid_q <= '0;
      armed_q <= '0;
      cancel_q <= '0;
      call_status_q <= '0;
      then_wait_q <= 1'b0;
      settle_q <= '0;
      for (int t = 0; t < NumThreads; t++) begin
        map_valid_q[t] <= 1'b0;
        map_ctx_q[t] <= '0;
        map_prio_q[t] <= '0;
        status_q[t] <= '0;
        blocked_q[t] <= 1'b0;
        applied_q[t] <= '0;
        wake_q[t] <= '0;
      end
      for (int c = 0; c < NumCtx; c++) owner_q[c] <= '0;
    end else begin
      // The tick.
      if (period_q != '0) begin
        if (phase_q + 32'd1 >= period_q) begin
          phase_q <= '0;
          ticks_q <= ticks_q + 32'd1;
        end else begin
          phase_q <= phase_q + 32'd1;
        end
      end
      // Comparators: a wake tick reached (or passed) fires once.
      for (int t = 0; t < NumThreads; t++) begin
        if (armed_q[t] && $signed(ticks_q - wake_q[t]) >= 0) begin
          armed_q[t] <= 1'b0;
          pend_wake_q[t] <= 1'b1;
        end
      end
      // Answers: kept for the thread; one to a call that blocked becomes a SIGNAL.
      for (int t = 0; t < NumThreads; t++) begin
        if (s_rsp_valid[t]) begin
          status_q[t] <= s_rsp_status[t*8 +: 8];
          if (blocked_q[t]) begin
            blocked_q[t] <= 1'b0;
            pend_sync_q[t] <= 1'b1;
          end
        end
      end
      if (ev_valid && ev_ready) ev_busy_q <= 1'b1;
      else if (tm_ev_done) ev_busy_q <= 1'b0;
      if (ev_valid && ev_ready) begin
        if (ev_is_sync) pend_sync_q[ev_tid[TidW-1:0]] <= 1'b0;
        else pend_wake_q[ev_tid[TidW-1:0]] <= 1'b0;
      end

      unique case (state_q)
        SIdle: begin
          if (call_now) begin
            call_q <= call_word;
            call_cl_q <= caller;
            state_q <= s_req_ready[caller[TidW-1:0]] ? SSyncCheck : SSync;
          end else if (!req_i && pi_valid && s_settled) begin
            // A priority passed on changed outside a call (a waiter's lock timed out).
            op_q <= weft_osif_pkg::TmOpPriority;
            tid_q <= 8'(pi_tid);
            arg_q <= {1'b0, s_eff_prio[pi_tid*7 +: 7]};
            applied_q[pi_tid] <= s_eff_prio[pi_tid*7 +: 7];
            tm_for_q <= ForIdle;
            state_q <= STm;
          end else if (req_i && we_i && !call_i) begin
            unique case (addr_i)
              weft_rv_pkg::OsTmCmd: begin
                op_q <= wdata_i[3:0];
                // YIELD of thread 0 (the idle thread, which never yields): the caller's,
                // named here in the cycle of the write, wherever its context.
                tid_q <= (wdata_i[3:0] == weft_osif_pkg::TmOpYield &&
                          wdata_i[weft_osif_pkg::TmCmdTidShift +: 8] == '0) ? caller :
                         wdata_i[weft_osif_pkg::TmCmdTidShift +: 8];
                arg_q <= wdata_i[weft_osif_pkg::TmCmdArgShift +: 8];
                flag_q <= wdata_i[24];
                tm_for_q <= ForCore;
                state_q <= STm;
              end
              weft_rv_pkg::OsMap: begin
                if ({24'd0, wdata_i[7:0]} < NumThreads && {27'd0, wdata_i[12:8]} < NumCtx) begin
                  map_valid_q[wdata_i[TidW-1:0]] <= wdata_i[31];
                  map_ctx_q[wdata_i[TidW-1:0]] <= wdata_i[CtxW+7:8];
                  map_prio_q[wdata_i[TidW-1:0]] <= wdata_i[22:16];
                  applied_q[wdata_i[TidW-1:0]] <= wdata_i[22:16];
                end
              end
              weft_rv_pkg::OsOwner: begin
                if ({27'd0, wdata_i[12:8]} < NumCtx && {24'd0, wdata_i[7:0]} < NumThreads) begin
                  owner_q[wdata_i[CtxW+7:8]] <= wdata_i[7:0];
                  // A thread loaded into a context now runs there.
                  if (wdata_i[7:0] != '0) map_ctx_q[wdata_i[TidW-1:0]] <= wdata_i[CtxW+7:8];
                end
              end
              weft_rv_pkg::OsSyncCfg: state_q <= SCfg;
              weft_rv_pkg::OsSyncVal: cfg_val_q <= wdata_i;
              weft_rv_pkg::OsSyncTmo: tmo_q <= wdata_i;
              weft_rv_pkg::OsSyncCall: begin
                if (in_refused) begin
                  status_q[caller[TidW-1:0]] <= caller_blocked ? weft_osif_pkg::StatusBusy :
                                                                 weft_osif_pkg::StatusCanceled;
                end else begin
                  call_q <= {in_timed, wdata_i[23:4], reg_op};
                  call_cl_q <= caller;
                  state_q <= SSync;
                end
              end
              weft_rv_pkg::OsTick: begin
                period_q <= wdata_i;
                phase_q <= '0;
              end
              weft_rv_pkg::OsSleep: begin
                if (ctx_i != '0) begin
                  wake_q[caller[TidW-1:0]] <= ticks_q + ((wdata_i == '0) ? 32'd1 : wdata_i);
                  armed_q[caller[TidW-1:0]] <= 1'b1;
                  op_q <= weft_osif_pkg::TmOpWait;
                  tid_q <= caller;
                  tm_for_q <= ForSleep;
                  sleep_tid_q <= caller[TidW-1:0];
                  state_q <= STm;
                end
              end
              default: ;
            endcase
          end
        end
        STm: if (tm_cmd_ready) state_q <= STmWait;
        STmWait: begin
          if (tm_rsp_valid) begin
            if (tm_for_q == ForSettle) begin
              state_q <= SSettle;
            end else if (tm_for_q == ForIdle) begin
              state_q <= SIdle;
            end else if (tm_for_q == ForCall && tm_rsp_status != weft_osif_pkg::StatusOk) begin
              // The caller could not WAIT (a bad thread id): its call must not stay
              // blocked, so it is cancelled and answered with what that gives.
              blocked_q[call_cl_q[TidW-1:0]] <= 1'b0;
              cancel_q[call_cl_q[TidW-1:0]] <= 1'b1;
              state_q <= SCancel;
            end else begin
              if (tm_for_q == ForSleep && tm_rsp_status != weft_osif_pkg::StatusOk)
                armed_q[sleep_tid_q] <= 1'b0;  // no thread waits for it
              res_q <= {8'b0, tm_rsp_tid, 6'b0, tm_rsp_blocked, 1'b0, tm_rsp_status};
              value_q <= tm_rsp_value;
              state_q <= SIdle;
            end
          end
        end
        SSync: if (s_req_ready[call_cl_q[TidW-1:0]]) state_q <= SSyncCheck;
        SSyncCheck: begin
          // Once the manager has carried the call out: answered, or its client waits.
          if (call_answered) begin
            call_status_q <= s_rsp_status[call_cl_q[TidW-1:0]*8 +: 8];
            then_wait_q <= 1'b0;
            // A woken waiter needs only its SIGNAL carried out; an unlock, the
            // priorities too.
            settle_q <= (call_q[3:0] == weft_osif_pkg::SyncOpMutexUnlock) ? 2'd0 : 2'd2;
            state_q <= call_settles ? SSettle : SIdle;
          end else if (s_waiting[call_cl_q[TidW-1:0]]) begin
            blocked_q[call_cl_q[TidW-1:0]] <= 1'b1;
            then_wait_q <= 1'b1;
            settle_q <= '0;
            state_q <= SSettle;
          end
        end
        SSettle: begin
          // Two cycles for the sync manager's answers to come out and until its
          // effective priorities are settled; then each priority passed on, then the
          // caller's WAIT (a call that blocked) or the release's SIGNALs carried out (a
          // call that did not).
          if (settle_q != 2'd2) begin
            settle_q <= settle_q + 2'd1;
          end else if (!s_settled) begin
            // the inheritance sweep goes on
          end else if (pi_valid) begin
            op_q <= weft_osif_pkg::TmOpPriority;
            tid_q <= 8'(pi_tid);
            arg_q <= {1'b0, s_eff_prio[pi_tid*7 +: 7]};
            applied_q[pi_tid] <= s_eff_prio[pi_tid*7 +: 7];
            tm_for_q <= ForSettle;
            state_q <= STm;
          end else if (then_wait_q) begin
            op_q <= weft_osif_pkg::TmOpWait;
            tid_q <= call_cl_q;
            tm_for_q <= ForCall;
            state_q <= STm;
          end else if (pend_sync_q == '0 && !ev_busy_q && !ev_valid) begin
            state_q <= SDone;
          end
        end
        SCancel: begin
          if (s_rsp_valid[call_cl_q[TidW-1:0]]) begin
            cancel_q[call_cl_q[TidW-1:0]] <= 1'b0;
            call_status_q <= s_rsp_status[call_cl_q[TidW-1:0]*8 +: 8];
            state_q <= SDone;
          end
        end
        SCfg: begin
          cfg_res_q <= cfg_status;
          state_q <= SDone;
        end
        SDone: state_q <= SIdle;
        default: state_q <= SIdle;
      endcase
    end
  end

  assign quiet_o = state_q == SIdle && !req_i && pend_sync_q == '0 && pend_wake_q == '0 &&
                   !ev_busy_q && armed_q == '0 && s_still && tm_still && !pi_valid &&
                   cur_tid == '0;

  logic unused;
  assign unused = ^{tm_ev_switched, tm_decided, tm_seq,
                    s_rd_state, s_rd_waiters, call_q[7:4], call_cl};

  if (NumThreads < 2 || NumThreads > 32 || (1 << TidW) != NumThreads) begin : gen_check
    $error("weft_rv_os: NumThreads must be a power of two from 2 to 32");
  end

endmodule

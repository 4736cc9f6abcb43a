// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_tm: the thread manager and its scheduler, for one processor (docs/hw-services.md,
// "Thread manager").
//
// It keeps a record per thread id (state, priority, detached, a pending event, who joins
// it), the ready queues (weft_sched) and the decision: the thread that should run on the
// processor it serves (cur_tid_o), kept as POSIX SCHED_FIFO keeps it: after every
// command, the most urgent ready thread runs if nothing runs or if it is strictly more
// urgent than the running one, which goes back to the head of its priority's queue (it
// runs again before the others of its priority); a thread that yields goes to the tail,
// as does one made ready (created, signalled, its joined thread exited) or given a new
// priority while it waits in a queue, and a ready thread that yields (its YIELD was
// overtaken by what preempted it: it still goes behind the others of its priority).
// Thread 0 is the idle thread: it runs when no other is ready, and no command names it.
// The consumer of the decision (a dispatcher on a CPU, a core's context switch) reads
// cur_tid_o; decided_o pulses when it changes.
//
// Commands (weft_osif_pkg::TmOp*; protocol/osif.yaml has what each does and answers) come
// one at a time on a valid/ready port that a core can drive directly; weft_tm_regs puts
// it in the register window. Events (ev_*: CBIS and the timers, weft_tm_events) are
// SIGNAL commands that go before the port's. A command takes 3 to 33 cycles from the
// edge that takes it to its answer (rsp_valid_o, one cycle), every path a fixed number
// of steps whatever the number of threads: a record read, the scheduler's operations (7
// cycles each here, at most four: a PRIORITY that preempts removes, enqueues, enqueues the
// preempted thread and dequeues), a record write. The decision (cur_*_o, seq_o) changes
// only at the end of a command or event, never in the middle of one; the answer's fields
// (rsp_*) only with rsp_valid_o. Ids are handed out from a stack of freed
// ids, and from a counter while it is empty, so reset needs no pass over the records.
module weft_tm #(
  /// Thread ids, 0 (the idle thread) to NumThreads - 1; 2 to 256.
  parameter int unsigned NumThreads = 256,
  /// Priorities, 0 the most urgent; 2 to 128.
  parameter int unsigned NumPrios = 128
) (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low reset (asynchronous assert): no thread but the idle one, which runs.
  input  logic        rst_ni,

  // ---- commands ----
  /// A command waits; held until cmd_ready_o.
  input  logic        cmd_valid_i,
  /// The command is taken at this edge.
  output logic        cmd_ready_o,
  /// weft_osif_pkg::TmOp*.
  input  logic [3:0]  cmd_op_i,
  /// The thread it names.
  input  logic [7:0]  cmd_tid_i,
  /// A priority (CREATE, PRIORITY) or the caller (JOIN).
  input  logic [7:0]  cmd_arg_i,
  /// CREATE: detached; JOIN: TRY.
  input  logic        cmd_flag_i,
  /// EXIT: the thread's value.
  input  logic [31:0] cmd_value_i,
  /// The answer is on rsp_* (one cycle; the fields hold until the next answer).
  output logic        rsp_valid_o,
  /// An OSIF status (weft_osif_pkg::Status*).
  output logic [7:0]  rsp_status_o,
  /// The caller now waits (JOIN, WAIT).
  output logic        rsp_blocked_o,
  /// CREATE: the new thread; else the command's.
  output logic [7:0]  rsp_tid_o,
  /// JOIN: the joined thread's value; QUERY: the record.
  output logic [31:0] rsp_value_o,

  // ---- events (SIGNAL thread ev_tid_i), before any command ----
  /// An event waits.
  input  logic        ev_valid_i,
  /// Its thread.
  input  logic [7:0]  ev_tid_i,
  /// The event is taken at this edge.
  output logic        ev_ready_o,
  /// One cycle: the event's SIGNAL is over...
  output logic        ev_done_o,
  /// ...and it changed the decision.
  output logic        ev_switched_o,

  // ---- the decision ----
  /// The thread that should run (0: the idle thread).
  output logic [7:0]  cur_tid_o,
  /// Its priority (0 for the idle thread).
  output logic [6:0]  cur_prio_o,
  /// Decisions changed since reset (wraps).
  output logic [15:0] seq_o,
  /// One cycle: the decision changed (cur_tid_o is the new one from this cycle on).
  output logic        decided_o,
  /// The next edge changes no register (a simulator hint).
  output logic        still_o
);

  localparam int unsigned TidW = $clog2(NumThreads);
  localparam logic [8:0] Threads = 9'(NumThreads);
  localparam logic [7:0] Prios = 8'(NumPrios);

  typedef enum logic [3:0] {
    SIdle, SExec, SWake, SEnq, SRemove, SDispatch, SSched, SDeqDone, SResp
  } state_e;

  // A record: the state in its own RAM (written for other threads than the one read),
  // the rest in another: {joiner, joined, pending, detached, prio}.
  localparam int unsigned InfoW = 8 + 3 + 7;
  logic [2:0]       st_mem   [NumThreads];
  logic [InfoW-1:0] info_mem [NumThreads];
  logic [31:0]      value_mem[NumThreads];
  logic [7:0]       free_mem [NumThreads];

  state_e      state_q;
  logic [3:0]  op_q;
  logic [7:0]  tid_q, arg_q;
  logic        flag_q, from_ev_q, blocked_q, issued_q;
  logic [31:0] value_q;
  logic [7:0]  cur_q, cur0_q;
  logic [6:0]  cur_prio_q;
  logic [15:0] seq_q;
  logic [8:0]  fresh_q, free_cnt_q;
  logic [7:0]  stid_q;   // the scheduler operation's thread and priority
  logic [6:0]  sprio_q;
  logic [1:0]  sop_q;
  logic        shead_q;  // an enqueue goes to the head: the thread was preempted
  logic        rsp_valid_q, ev_done_q, switched_q, decided_q;
  logic [7:0]  rsp_status_q, rsp_tid_q, res_status_q, res_tid_q, dec_tid_q;
  logic [31:0] rsp_value_q, res_value_q;
  logic        rsp_blocked_q;
  logic [6:0]  dec_prio_q;

  // ---- the scheduler ------------------------------------------------------------------
  localparam logic [1:0] QEnq = 2'd0;
  localparam logic [1:0] QDeq = 2'd1;
  localparam logic [1:0] QRemove = 2'd2;
  logic                  q_valid, q_ready, q_rsp_valid, top_valid;
  logic [2:0]            q_status;
  logic [TidW-1:0]       q_rsp_tid, top_tid;
  logic [$clog2(NumPrios)-1:0] q_rsp_prio, top_prio;
  logic [TidW:0]         q_count;

  weft_sched #(
    .NumThreads(NumThreads),
    .NumPrios  (NumPrios)
  ) u_sched (
    .clk_i,
    .rst_ni,
    .req_valid_i (q_valid),
    .req_ready_o (q_ready),
    .req_op_i    (sop_q),
    .req_tid_i   (stid_q),
    .req_prio_i  (sprio_q),
    .req_head_i  (shead_q),
    .rsp_valid_o (q_rsp_valid),
    .rsp_status_o(q_status),
    .rsp_tid_o   (q_rsp_tid),
    .rsp_prio_o  (q_rsp_prio),
    .top_valid_o (top_valid),
    .top_tid_o   (top_tid),
    .top_prio_o  (top_prio),
    .count_o     (q_count)
  );
  assign q_valid = state_q == SSched && !issued_q;

  // ---- the record read -----------------------------------------------------------------
  // The command's thread is read at the edge that takes it; a joiner's at SExec's edge.
  logic              take, take_ev, rd_en;
  logic [7:0]        in_tid, rd_tid;
  logic [2:0]        st_rd;
  logic [InfoW-1:0]  info_rd;
  logic [31:0]       value_rd;
  logic [7:0]        free_rd;
  assign take_ev = state_q == SIdle && ev_valid_i;
  assign take    = state_q == SIdle && (ev_valid_i || cmd_valid_i);
  assign in_tid  = ev_valid_i ? ev_tid_i : cmd_tid_i;
  assign rd_en   = take || state_q == SExec;
  assign rd_tid  = (state_q == SExec) ? info_rd[InfoW-1 -: 8] : in_tid;

  logic [TidW-1:0] rd_idx, free_top;
  assign rd_idx   = TidW'(rd_tid);
  assign free_top = TidW'(free_cnt_q - 9'd1);
  always_ff @(posedge clk_i) begin
    if (rd_en) begin
      st_rd    <= st_mem[rd_idx];
      info_rd  <= info_mem[rd_idx];
      value_rd <= value_mem[rd_idx];
    end
    if (take) free_rd <= free_mem[free_top];
  end

  // The record of the command's thread (SExec): an id never handed out is FREE, whatever
  // its RAM word holds.
  logic       in_range, fresh_id;
  logic [2:0] st;
  logic [6:0] prio;
  logic       detached, pending, joined;
  logic [7:0] joiner;
  assign in_range = tid_q != '0 && {1'b0, tid_q} < Threads;
  assign fresh_id = {1'b0, tid_q} < fresh_q;
  assign st       = (in_range && fresh_id) ? st_rd : weft_osif_pkg::TmStateFree;
  assign {joiner, joined, pending, detached, prio} = info_rd;

  // ---- what SExec does ----------------------------------------------------------------
  // Its writes (one per RAM), its answer, and where it goes.
  logic             st_we, info_we, value_we, free_push, free_pop, fresh_take;
  logic [7:0]       st_addr, info_addr;
  logic [2:0]       st_data;
  logic [InfoW-1:0] info_data;
  logic [7:0]       x_status, x_tid;
  logic [31:0]      x_value;
  logic             x_blocked, x_cur_idle, x_cur_prio_we;
  state_e           x_next;
  logic [7:0]       x_stid;
  logic [6:0]       x_sprio;
  logic [7:0]       new_tid;
  logic             bad, is_cur;
  assign new_tid = (free_cnt_q != '0) ? free_rd : fresh_q[7:0];
  assign bad     = st == weft_osif_pkg::TmStateFree;
  assign is_cur  = tid_q == cur_q;

  always_comb begin
    st_we = 1'b0;
    st_addr = tid_q;
    st_data = weft_osif_pkg::TmStateFree;
    info_we = 1'b0;
    info_addr = tid_q;
    info_data = info_rd;
    value_we = 1'b0;
    free_push = 1'b0;
    free_pop = 1'b0;
    fresh_take = 1'b0;
    x_status = weft_osif_pkg::StatusOk;
    x_tid = tid_q;
    x_value = '0;
    x_blocked = 1'b0;
    x_cur_idle = 1'b0;
    x_cur_prio_we = 1'b0;
    x_next = SResp;
    x_stid = tid_q;
    x_sprio = prio;
    unique case (op_q)
      weft_osif_pkg::TmOpCreate: begin
        if (arg_q >= Prios) begin
          x_status = weft_osif_pkg::StatusBadargs;
        end else if (free_cnt_q == '0 && fresh_q >= Threads) begin
          x_status = weft_osif_pkg::StatusAgain;
        end else begin
          free_pop = free_cnt_q != '0;
          fresh_take = free_cnt_q == '0;
          st_we = 1'b1;
          st_addr = new_tid;
          st_data = weft_osif_pkg::TmStateReady;
          info_we = 1'b1;
          info_addr = new_tid;
          info_data = {8'd0, 1'b0, 1'b0, flag_q, arg_q[6:0]};
          x_tid = new_tid;
          x_stid = new_tid;
          x_sprio = arg_q[6:0];
          x_next = SEnq;
        end
      end
      weft_osif_pkg::TmOpExit: begin
        if (bad) begin
          x_status = weft_osif_pkg::StatusBadhandle;
        end else if (!is_cur) begin
          x_status = weft_osif_pkg::StatusPerm;
        end else begin
          value_we = 1'b1;
          st_we = 1'b1;
          st_data = detached ? weft_osif_pkg::TmStateFree : weft_osif_pkg::TmStateExited;
          free_push = detached;
          x_cur_idle = 1'b1;
          x_stid = joiner;
          x_next = (joined && !detached) ? SWake : SDispatch;
        end
      end
      weft_osif_pkg::TmOpJoin: begin
        if (bad) begin
          x_status = weft_osif_pkg::StatusBadhandle;
        end else if (detached || (joined && joiner != arg_q)) begin
          x_status = weft_osif_pkg::StatusBadargs;
        end else if (st == weft_osif_pkg::TmStateExited) begin
          x_value = value_rd;
          st_we = 1'b1;
          free_push = 1'b1;
        end else if (flag_q) begin
          x_status = weft_osif_pkg::StatusBusy;
        end else if (arg_q != cur_q || arg_q == '0) begin
          x_status = weft_osif_pkg::StatusPerm;
        end else if (tid_q == arg_q) begin
          x_status = weft_osif_pkg::StatusBadargs;
        end else begin
          info_we = 1'b1;
          info_data = {arg_q, 1'b1, pending, detached, prio};
          st_we = 1'b1;
          st_addr = arg_q;
          st_data = weft_osif_pkg::TmStateJoining;
          x_blocked = 1'b1;
          x_cur_idle = 1'b1;
          x_next = SDispatch;
        end
      end
      weft_osif_pkg::TmOpDetach: begin
        if (bad) begin
          x_status = weft_osif_pkg::StatusBadhandle;
        end else if (detached || joined) begin
          x_status = weft_osif_pkg::StatusBadargs;
        end else if (st == weft_osif_pkg::TmStateExited) begin
          st_we = 1'b1;
          free_push = 1'b1;
        end else begin
          info_we = 1'b1;
          info_data = {joiner, joined, pending, 1'b1, prio};
        end
      end
      weft_osif_pkg::TmOpYield: begin
        if (bad) begin
          x_status = weft_osif_pkg::StatusBadhandle;
        end else if (is_cur) begin
          st_we = 1'b1;
          st_data = weft_osif_pkg::TmStateReady;
          x_sprio = cur_prio_q;
          x_cur_idle = 1'b1;
          x_next = SEnq;
        end else if (st == weft_osif_pkg::TmStateReady) begin
          // A YIELD that a preemption overtook (the thread was preempted while its YIELD
          // waited): still to the tail of its queue, as if it had come first.
          x_next = SRemove;
        end else begin
          x_status = weft_osif_pkg::StatusPerm;
        end
      end
      weft_osif_pkg::TmOpWait: begin
        if (bad) begin
          x_status = weft_osif_pkg::StatusBadhandle;
        end else if (!is_cur && st != weft_osif_pkg::TmStateReady) begin
          x_status = weft_osif_pkg::StatusPerm;
        end else if (pending) begin
          info_we = 1'b1;
          info_data = {joiner, joined, 1'b0, detached, prio};
        end else begin
          // The running thread leaves the processor; a ready one (a kernel suspending
          // it) leaves its queue, which changes no decision.
          st_we = 1'b1;
          st_data = weft_osif_pkg::TmStateWaiting;
          x_blocked = 1'b1;
          x_cur_idle = is_cur;
          x_next = is_cur ? SDispatch : SRemove;
        end
      end
      weft_osif_pkg::TmOpSignal: begin
        if (bad || st == weft_osif_pkg::TmStateExited) begin
          x_status = weft_osif_pkg::StatusBadhandle;
        end else if (st == weft_osif_pkg::TmStateWaiting) begin
          st_we = 1'b1;
          st_data = weft_osif_pkg::TmStateReady;
          x_next = SEnq;
        end else begin
          info_we = 1'b1;
          info_data = {joiner, joined, 1'b1, detached, prio};
        end
      end
      weft_osif_pkg::TmOpPriority: begin
        if (arg_q >= Prios) begin
          x_status = weft_osif_pkg::StatusBadargs;
        end else if (bad || st == weft_osif_pkg::TmStateExited) begin
          x_status = weft_osif_pkg::StatusBadhandle;
        end else begin
          info_we = 1'b1;
          info_data = {joiner, joined, pending, detached, arg_q[6:0]};
          x_sprio = arg_q[6:0];
          x_cur_prio_we = is_cur;
          x_next = (st == weft_osif_pkg::TmStateReady) ? SRemove :
                   is_cur ? SDispatch : SResp;
        end
      end
      weft_osif_pkg::TmOpQuery: begin
        if (!in_range) begin
          x_status = weft_osif_pkg::StatusBadhandle;
        end else begin
          x_value = bad ? '0 : {joiner, 6'd0, joined, pending, detached, prio, 5'd0, st};
        end
      end
      default: x_status = weft_osif_pkg::StatusNosys;
    endcase
  end

  // ---- the dispatch step ----------------------------------------------------------------
  // The most urgent ready thread runs if nothing does or it is strictly more urgent; a
  // running thread it replaces is queued first (SEnq, then here again).
  logic switch_now;
  assign switch_now = top_valid && (cur_q == '0 || 7'(top_prio) < cur_prio_q);

  // State writes outside SExec: the joiner woken (SWake), the thread preempted
  // (SDispatch), the thread dequeued (SDeqDone).
  logic       st_we_any, info_we_any;
  logic [7:0] st_addr_any;
  logic [2:0] st_data_any;
  always_comb begin
    st_we_any = state_q == SExec && st_we;
    st_addr_any = st_addr;
    st_data_any = st_data;
    unique case (state_q)
      SWake: begin
        st_we_any = 1'b1;
        st_addr_any = stid_q;
        st_data_any = weft_osif_pkg::TmStateReady;
      end
      SDispatch: begin
        st_we_any = switch_now && cur_q != '0;
        st_addr_any = cur_q;
        st_data_any = weft_osif_pkg::TmStateReady;
      end
      SDeqDone: begin
        st_we_any = 1'b1;
        st_addr_any = stid_q;
        st_data_any = weft_osif_pkg::TmStateRunning;
      end
      default: ;
    endcase
  end
  assign info_we_any = state_q == SExec && info_we;

  always_ff @(posedge clk_i) begin
    if (st_we_any) st_mem[TidW'(st_addr_any)] <= st_data_any;
    if (info_we_any) info_mem[TidW'(info_addr)] <= info_data;
    if (state_q == SExec && value_we) value_mem[TidW'(tid_q)] <= value_q;
    if (state_q == SExec && free_push) free_mem[TidW'(free_cnt_q)] <= tid_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      issued_q <= 1'b0;
      op_q <= '0;
      tid_q <= '0;
      arg_q <= '0;
      flag_q <= 1'b0;
      from_ev_q <= 1'b0;
      blocked_q <= 1'b0;
      value_q <= '0;
      cur_q <= '0;
      cur0_q <= '0;
      cur_prio_q <= '0;
      seq_q <= '0;
      fresh_q <= 9'd1;
      free_cnt_q <= '0;
      stid_q <= '0;
      sprio_q <= '0;
      sop_q <= QEnq;
      shead_q <= 1'b0;
      rsp_valid_q <= 1'b0;
      ev_done_q <= 1'b0;
      switched_q <= 1'b0;
      decided_q <= 1'b0;
      rsp_status_q <= '0;
      rsp_tid_q <= '0;
      rsp_value_q <= '0;
      rsp_blocked_q <= 1'b0;
      res_status_q <= '0;
      res_tid_q <= '0;
      res_value_q <= '0;
      dec_tid_q <= '0;
      dec_prio_q <= '0;
    end else begin
      if (rsp_valid_q) rsp_valid_q <= 1'b0;
      if (ev_done_q) ev_done_q <= 1'b0;
      if (decided_q) decided_q <= 1'b0;
      unique case (state_q)
        SIdle: begin
          if (take) begin
            op_q <= take_ev ? weft_osif_pkg::TmOpSignal : cmd_op_i;
            tid_q <= in_tid;
            arg_q <= cmd_arg_i;
            flag_q <= cmd_flag_i;
            value_q <= cmd_value_i;
            from_ev_q <= take_ev;
            blocked_q <= 1'b0;
            cur0_q <= cur_q;
            state_q <= SExec;
          end
        end
        SExec: begin
          if (free_pop) free_cnt_q <= free_cnt_q - 9'd1;
          if (free_push) free_cnt_q <= free_cnt_q + 9'd1;
          if (fresh_take) fresh_q <= fresh_q + 9'd1;
          if (x_cur_idle) cur_q <= '0;
          if (x_cur_prio_we) cur_prio_q <= x_sprio;
          res_status_q <= x_status;
          res_tid_q <= x_tid;
          res_value_q <= x_value;
          blocked_q <= x_blocked;
          stid_q <= x_stid;
          sprio_q <= x_sprio;
          state_q <= x_next;
        end
        SWake: begin
          sprio_q <= prio;  // the joiner's, read at SExec's edge
          state_q <= SEnq;
        end
        SEnq: begin
          sop_q <= QEnq;
          state_q <= SSched;
        end
        SRemove: begin
          sop_q <= QRemove;
          state_q <= SSched;
        end
        SDispatch: begin
          if (!switch_now) begin
            state_q <= SResp;
          end else if (cur_q != '0) begin
            // The running thread is preempted: back to the head of its queue.
            stid_q <= cur_q;
            sprio_q <= cur_prio_q;
            shead_q <= 1'b1;
            cur_q <= '0;
            state_q <= SEnq;
          end else begin
            sop_q <= QDeq;
            state_q <= SSched;
          end
        end
        SSched: begin
          // The request goes when the scheduler takes it, then its answer is awaited; a
          // dequeue's thread and priority are kept for SDeqDone.
          if (q_valid && q_ready) issued_q <= 1'b1;
          if (q_rsp_valid) begin
            issued_q <= 1'b0;
            shead_q <= 1'b0;
            if (sop_q == QDeq) begin
              stid_q <= 8'(q_rsp_tid);
              sprio_q <= 7'(q_rsp_prio);
            end
            // A remove is PRIORITY's (then the enqueue at the new priority) or WAIT's.
            state_q <= (sop_q == QDeq) ? SDeqDone :
                       (sop_q == QRemove) ? ((op_q == weft_osif_pkg::TmOpWait) ? SResp : SEnq) :
                       SDispatch;
          end
        end
        SDeqDone: begin
          cur_q <= stid_q;
          cur_prio_q <= sprio_q;
          state_q <= SResp;
        end
        SResp: begin
          rsp_valid_q <= !from_ev_q;
          ev_done_q <= from_ev_q;
          if (!from_ev_q) begin
            rsp_status_q <= res_status_q;
            rsp_tid_q <= res_tid_q;
            rsp_value_q <= res_value_q;
            rsp_blocked_q <= blocked_q;
          end
          dec_tid_q <= cur_q;
          dec_prio_q <= (cur_q == '0) ? 7'd0 : cur_prio_q;
          switched_q <= cur_q != cur0_q;
          if (cur_q != cur0_q) begin
            seq_q <= seq_q + 16'd1;
            decided_q <= 1'b1;
          end
          state_q <= SIdle;
        end
        default: state_q <= SIdle;
      endcase
    end
  end

  assign cmd_ready_o   = state_q == SIdle && !ev_valid_i;
  assign ev_ready_o    = take_ev;
  assign rsp_valid_o   = rsp_valid_q;
  assign rsp_status_o  = rsp_status_q;
  assign rsp_blocked_o = rsp_blocked_q;
  assign rsp_tid_o     = rsp_tid_q;
  assign rsp_value_o   = rsp_value_q;
  assign ev_done_o     = ev_done_q;
  assign ev_switched_o = switched_q;
  assign cur_tid_o     = dec_tid_q;
  assign cur_prio_o    = dec_prio_q;
  assign seq_o         = seq_q;
  assign decided_o     = decided_q;
  assign still_o       = state_q == SIdle && !ev_valid_i && !cmd_valid_i && !rsp_valid_q &&
                         !ev_done_q && !decided_q;

  logic unused;
  assign unused = ^{q_status, top_tid, q_count, rd_tid, info_addr, st_addr_any};  // ids above TidW bits: small shapes

`ifndef SYNTHESIS
  // The scheduler is only asked what the records say it can do.
  always_ff @(posedge clk_i) begin
    if (q_rsp_valid && q_status != 3'd0) begin
      $error("weft_tm: scheduler refused operation %0d on thread %0d (status %0d)", sop_q,
             stid_q, q_status);
    end
  end
  if (NumThreads < 2 || NumThreads > 256 || NumPrios < 2 || NumPrios > 128) begin : gen_check
    $error("weft_tm: 2 to 256 threads, 2 to 128 priorities");
  end
`endif

endmodule

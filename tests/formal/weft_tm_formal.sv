// Formal harness of weft_tm (hw/rtl/weft_tm.sv; docs/hw-services.md, "Thread manager"),
// for Yosys's SMT flow (tests/formal/CMakeLists.txt): a small shape (3 thread ids, so the
// idle thread and two others; 2 priorities), every command and event the solver can think
// of (op, thread, argument, flag, value and event thread all free, all 8 or 32 bits; a
// command and an event may come in any cycle, whether the block is busy or not), and a
// reference model of the thread manager built from protocol/osif.yaml (tm_calls): a record
// per thread (state, priority, detached, pending, joined, joiner, value), the ready queues
// (which threads, at which priority, in which order they came) and the decision (the
// running thread and its priority). The model takes a command whole at its answer
// (rsp_valid_o, or ev_done_o for an event): its effect, then the dispatch rule of
// weft_tm's header (the most urgent ready thread runs if nothing runs or if it is
// strictly more urgent than the running one, which goes back to the head of its queue).
// The id CREATE hands out is the block's choice: the model takes the one answered, and
// checks it names a free thread.
//
// Yosys 0.23 reads no hierarchical reference (u.x is an undriven wire of its own) and no
// bind, so the block's internals (its FSM, the scheduler's queues and decision, the
// records) are seen through its ports: the decision (cur_tid_o, cur_prio_o) in every
// cycle, each answer's fields, and a record through QUERY, which the solver may send for
// any thread in any idle cycle.
//
// Proved for every input sequence up to the run's depth (tests/formal/CMakeLists.txt):
//   - bounded latency: a command or event is taken only while the block is idle (not
//     both in one cycle: an event goes first), answered exactly once (rsp_valid_o for a
//     command, ev_done_o for an event, one cycle) no sooner than 3 and no later than
//     Latency cycles after the edge that took it, and in the answer's cycle the block
//     takes again (cmd_ready_o unless an event waits, ev_ready_o if one does);
//   - every answer is the model's: status, blocked, thread (a CREATE's: an id 1..N-1 the
//     model has FREE; AGAIN only when none is), value (a JOIN's joined value, a QUERY's
//     record: so any record the solver looks at, its state included, is the model's);
//     ev_switched_o, decided_o and seq_o say whether the decision changed; the answer's
//     fields hold between answers (an event's leaves them); still_o high means the edge
//     after it changes no output;
//   - consistent decision, no double grant: in every cycle cur_tid_o and cur_prio_o are
//     the model's running thread and its priority (0 for the idle thread): while a
//     command is in flight the decision before it, from its answer's cycle the one
//     after; and the model has the running thread (if not 0) RUNNING and not queued, no
//     other thread RUNNING, every queued thread READY and every READY thread queued, at
//     its record's priority, and the running thread at least as urgent as the most
//     urgent queued one (if any is queued, a thread other than 0 runs);
//   - no lost waiter: a SIGNAL (command or event) answered OK on a thread the model has
//     WAITING leaves it READY (queued) or RUNNING; no thread is READY without being
//     queued.
// Queue order within the scheduler is weft_sched's, proved by weft_sched_formal.sv; here
// it is the model's stamps that choose among threads of one priority, so a wrong order
// shows as a wrong decision.
//
// Reading the block needs SYNTHESIS (its $error checks are not read by Yosys 0.23); an
// assertion in a clocked block checks the cycle before the step yosys-smtbmc names.
module weft_tm_formal (
  input logic        clk_i,
  input logic        rst_ni,
  input logic        cmd_valid_i,
  input logic [3:0]  cmd_op_i,
  input logic [7:0]  cmd_tid_i,
  input logic [7:0]  cmd_arg_i,
  input logic        cmd_flag_i,
  input logic [31:0] cmd_value_i,
  input logic        ev_valid_i,
  input logic [7:0]  ev_tid_i
);
  localparam int unsigned N = 3;  // thread ids 0 (idle) to N - 1
  localparam int unsigned P = 2;  // priorities
  // The answer comes at most Latency cycles after the edge that takes the command,
  // counting the answer's cycle (a QUERY: 3; weft_tm's header: 3 to 33). An enqueue or
  // a remove holds the FSM 7 cycles (SEnq or SRemove, then SSched: the request, the
  // scheduler's 4 edges, its response cycle), a dequeue 6 and SDeqDone; a preemption
  // adds an enqueue (the preempted thread) and an SDispatch, 8 cycles: a CREATE that
  // dispatches takes 18, one that preempts 26, a PRIORITY that moves a ready thread
  // ahead of the running one 33. (A bound of 19, the header's first figure, fails in
  // step 39: a CREATE at priority 1 answered in step 19, then a CREATE at priority 0
  // taken in that cycle, not answered 19 cycles later.)
  localparam logic [5:0] Latency = 6'd33;

  localparam logic [3:0] OpCreate = weft_osif_pkg::TmOpCreate;
  localparam logic [3:0] OpExit = weft_osif_pkg::TmOpExit;
  localparam logic [3:0] OpJoin = weft_osif_pkg::TmOpJoin;
  localparam logic [3:0] OpDetach = weft_osif_pkg::TmOpDetach;
  localparam logic [3:0] OpYield = weft_osif_pkg::TmOpYield;
  localparam logic [3:0] OpWait = weft_osif_pkg::TmOpWait;
  localparam logic [3:0] OpSignal = weft_osif_pkg::TmOpSignal;
  localparam logic [3:0] OpPriority = weft_osif_pkg::TmOpPriority;
  localparam logic [3:0] OpQuery = weft_osif_pkg::TmOpQuery;
  localparam logic [2:0] Free = weft_osif_pkg::TmStateFree;
  localparam logic [2:0] Ready = weft_osif_pkg::TmStateReady;
  localparam logic [2:0] Running = weft_osif_pkg::TmStateRunning;
  localparam logic [2:0] Waiting = weft_osif_pkg::TmStateWaiting;
  localparam logic [2:0] Joining = weft_osif_pkg::TmStateJoining;
  localparam logic [2:0] Exited = weft_osif_pkg::TmStateExited;
  localparam logic [7:0] StOk = weft_osif_pkg::StatusOk;
  localparam logic [7:0] StNosys = weft_osif_pkg::StatusNosys;
  localparam logic [7:0] StBadhandle = weft_osif_pkg::StatusBadhandle;
  localparam logic [7:0] StBadargs = weft_osif_pkg::StatusBadargs;
  localparam logic [7:0] StBusy = weft_osif_pkg::StatusBusy;
  localparam logic [7:0] StAgain = weft_osif_pkg::StatusAgain;
  localparam logic [7:0] StPerm = weft_osif_pkg::StatusPerm;

  logic        cmd_ready, rsp_valid, rsp_blocked, ev_ready, ev_done, ev_switched, decided;
  logic        still;
  logic [7:0]  rsp_status, rsp_tid, cur_tid;
  logic [31:0] rsp_value;
  logic [6:0]  cur_prio;
  logic [15:0] seq;

  weft_tm #(.NumThreads(N), .NumPrios(P)) dut (
    .clk_i, .rst_ni, .cmd_valid_i, .cmd_ready_o(cmd_ready), .cmd_op_i, .cmd_tid_i,
    .cmd_arg_i, .cmd_flag_i, .cmd_value_i, .rsp_valid_o(rsp_valid),
    .rsp_status_o(rsp_status), .rsp_blocked_o(rsp_blocked), .rsp_tid_o(rsp_tid),
    .rsp_value_o(rsp_value), .ev_valid_i, .ev_tid_i, .ev_ready_o(ev_ready),
    .ev_done_o(ev_done), .ev_switched_o(ev_switched), .cur_tid_o(cur_tid),
    .cur_prio_o(cur_prio), .seq_o(seq), .decided_o(decided), .still_o(still));

  // Reset in the first cycle and never again.
  always @* begin
    if ($initstate) assume (!rst_ni);
    else assume (rst_ni);
  end

  integer j;

  // ---- the command in flight ------------------------------------------------------------
  wire take_cmd = cmd_valid_i && cmd_ready;
  wire take_ev = ev_valid_i && ev_ready;
  wire take = take_cmd || take_ev;
  wire answer = rsp_valid || ev_done;
  logic        busy_q;   // taken, not answered yet
  logic [5:0]  age_q;    // cycles since the edge that took it (1: the cycle after)
  logic        c_ev;     // an event (a SIGNAL)
  logic [3:0]  c_op;
  logic [7:0]  c_tid, c_arg;
  logic        c_flag;
  logic [31:0] c_val;

  // ---- the model --------------------------------------------------------------------------
  // m_*: as of the last answer; n_*: with this cycle's answer applied (m_* if none).
  logic [2:0]  m_st [N];     // state (TmState*)
  logic        m_pr [N];     // priority
  logic        m_det [N];    // detached
  logic        m_pend [N];   // an event pending
  logic        m_jnd [N];    // joined
  logic [7:0]  m_jnr [N];    // by whom
  logic [31:0] m_val [N];    // EXIT's value
  logic        m_q [N];      // queued (ready)
  logic [3:0]  m_stamp [N];  // when it was queued: counting up from 8 at the tail, down
  logic [3:0]  m_sc;         // from 7 at the head (a preempted thread); the next ones
  logic [3:0]  m_hsc;
  logic [7:0]  m_cur;        // the running thread (0: the idle one)
  logic        m_cp;         // its priority
  logic [15:0] m_seq;        // decisions changed
  logic [2:0]  n_st [N];
  logic        n_pr [N];
  logic        n_det [N];
  logic        n_pend [N];
  logic        n_jnd [N];
  logic [7:0]  n_jnr [N];
  logic [31:0] n_val [N];
  logic        n_q [N];
  logic [3:0]  n_stamp [N];
  logic [3:0]  n_sc, n_hsc;
  logic [7:0]  n_cur;
  logic        n_cp;

  // The command's thread in the model (FREE, all 0, when out of range or 0).
  logic        k_in, k_pr, k_det, k_pend, k_jnd, k_bad, k_cur, k_jpr, any_free, new_free;
  logic [2:0]  k_st;
  logic [7:0]  k_jnr;
  logic [31:0] k_val;
  // What the command does: its answer, a record written (thread w_idx), another thread's
  // state (s_idx), a thread queued (q_idx, at the tail of q_p), the processor left idle,
  // the running thread's priority.
  logic [7:0]  e_status, e_tid;
  logic [31:0] e_value;
  logic        e_blocked;
  logic        w_en, s_en, q_en, dq_en, idle, cp_we;
  logic [7:0]  w_idx, s_idx, q_idx;
  logic [2:0]  w_st, s_st;
  logic        w_pr, w_det, w_pend, w_jnd, q_p, cp;
  logic [7:0]  w_jnr;
  logic [31:0] w_val;
  // The dispatch: the most urgent queued thread, first come (of the queues after the
  // command's effect), and whether it runs.
  logic        a_valid, a_p, sw;
  logic [7:0]  a_tid;
  logic [3:0]  a_s;
  // The same of the model as it is (m_*), for the invariants.
  logic        b_valid, b_p;
  logic [3:0]  b_s;

  always @* begin
    k_in = c_tid != 8'd0 && c_tid < N;
    k_st = Free;
    k_pr = 1'b0;
    k_det = 1'b0;
    k_pend = 1'b0;
    k_jnd = 1'b0;
    k_jnr = 8'd0;
    k_val = 32'd0;
    for (j = 1; j < N; j = j + 1) begin
      if (c_tid == j) begin
        k_st = m_st[j];
        k_pr = m_pr[j];
        k_det = m_det[j];
        k_pend = m_pend[j];
        k_jnd = m_jnd[j];
        k_jnr = m_jnr[j];
        k_val = m_val[j];
      end
    end
    k_bad = k_st == Free;
    k_cur = c_tid == m_cur;
    // The joiner's priority.
    k_jpr = 1'b0;
    for (j = 1; j < N; j = j + 1) if (k_jnr == j) k_jpr = m_pr[j];
    // Ids free; the one a CREATE answered.
    any_free = 1'b0;
    new_free = 1'b0;
    for (j = 1; j < N; j = j + 1) begin
      if (m_st[j] == Free) any_free = 1'b1;
      if (m_st[j] == Free && rsp_tid == j) new_free = 1'b1;
    end

    e_status = StOk;
    e_tid = c_tid;
    e_value = 32'd0;
    e_blocked = 1'b0;
    w_en = 1'b0;
    w_idx = c_tid;
    w_st = k_st;
    w_pr = k_pr;
    w_det = k_det;
    w_pend = k_pend;
    w_jnd = k_jnd;
    w_jnr = k_jnr;
    w_val = k_val;
    s_en = 1'b0;
    s_idx = 8'd0;
    s_st = Free;
    q_en = 1'b0;
    dq_en = 1'b0;
    q_idx = c_tid;
    q_p = k_pr;
    idle = 1'b0;
    cp_we = 1'b0;
    cp = 1'b0;
    case (c_op)
      OpCreate: begin
        if (c_arg >= P) e_status = StBadargs;
        else if (!any_free) e_status = StAgain;
        else begin
          // Ready at priority arg, detached if flag; the id is the block's choice.
          e_tid = rsp_tid;
          w_en = 1'b1;
          w_idx = rsp_tid;
          w_st = Ready;
          w_pr = c_arg[0];
          w_det = c_flag;
          w_pend = 1'b0;
          w_jnd = 1'b0;
          w_jnr = 8'd0;
          q_en = 1'b1;
          q_idx = rsp_tid;
          q_p = c_arg[0];
        end
      end
      OpExit: begin
        if (k_bad) e_status = StBadhandle;
        else if (!k_cur) e_status = StPerm;
        else begin
          // Freed if detached, else EXITED with its value; its joiner made ready.
          w_en = 1'b1;
          w_st = k_det ? Free : Exited;
          w_val = c_val;
          idle = 1'b1;
          if (k_jnd && !k_det) begin
            s_en = 1'b1;
            s_idx = k_jnr;
            s_st = Ready;
            q_en = 1'b1;
            q_idx = k_jnr;
            q_p = k_jpr;
          end
        end
      end
      OpJoin: begin
        // tid: the thread joined; arg: the caller.
        if (k_bad) e_status = StBadhandle;
        else if (k_det || (k_jnd && k_jnr != c_arg)) e_status = StBadargs;
        else if (k_st == Exited) begin
          e_value = k_val;
          w_en = 1'b1;
          w_st = Free;
        end else if (c_flag) e_status = StBusy;
        else if (c_arg != m_cur || c_arg == 8'd0) e_status = StPerm;
        else if (c_tid == c_arg) e_status = StBadargs;
        else begin
          w_en = 1'b1;
          w_jnd = 1'b1;
          w_jnr = c_arg;
          s_en = 1'b1;
          s_idx = c_arg;
          s_st = Joining;
          e_blocked = 1'b1;
          idle = 1'b1;
        end
      end
      OpDetach: begin
        if (k_bad) e_status = StBadhandle;
        else if (k_det || k_jnd) e_status = StBadargs;
        else if (k_st == Exited) begin
          w_en = 1'b1;
          w_st = Free;
        end else begin
          w_en = 1'b1;
          w_det = 1'b1;
        end
      end
      OpYield: begin
        if (k_bad) e_status = StBadhandle;
        else if (k_cur) begin
          w_en = 1'b1;
          w_st = Ready;
          q_en = 1'b1;
          q_p = m_cp;
          idle = 1'b1;
        end else if (k_st == Ready) begin
          q_en = 1'b1;  // a YIELD a preemption overtook: to the tail of its queue
        end else e_status = StPerm;
      end
      OpWait: begin
        if (k_bad) e_status = StBadhandle;
        else if (!k_cur && k_st != Ready) e_status = StPerm;
        else if (k_pend) begin
          w_en = 1'b1;
          w_pend = 1'b0;
        end else begin
          w_en = 1'b1;
          w_st = Waiting;
          e_blocked = 1'b1;
          idle = k_cur;
          dq_en = !k_cur;  // a ready thread leaves its queue
        end
      end
      OpSignal: begin
        if (k_bad || k_st == Exited) e_status = StBadhandle;
        else if (k_st == Waiting) begin
          w_en = 1'b1;
          w_st = Ready;
          q_en = 1'b1;
        end else begin
          w_en = 1'b1;
          w_pend = 1'b1;
        end
      end
      OpPriority: begin
        if (c_arg >= P) e_status = StBadargs;
        else if (k_bad || k_st == Exited) e_status = StBadhandle;
        else begin
          // A ready thread goes to the tail of its new priority's queue.
          w_en = 1'b1;
          w_pr = c_arg[0];
          q_en = k_st == Ready;
          q_p = c_arg[0];
          cp_we = k_cur;
          cp = c_arg[0];
        end
      end
      OpQuery: begin
        if (!k_in) e_status = StBadhandle;
        else if (!k_bad)
          e_value = {k_jnr, 6'd0, k_jnd, k_pend, k_det, 6'd0, k_pr, 5'd0, k_st};
      end
      default: e_status = StNosys;
    endcase

    // The command's effect.
    n_sc = m_sc;
    for (j = 0; j < N; j = j + 1) begin
      n_st[j] = m_st[j];
      n_pr[j] = m_pr[j];
      n_det[j] = m_det[j];
      n_pend[j] = m_pend[j];
      n_jnd[j] = m_jnd[j];
      n_jnr[j] = m_jnr[j];
      n_val[j] = m_val[j];
      n_q[j] = m_q[j];
      n_stamp[j] = m_stamp[j];
      if (answer && w_en && w_idx == j) begin
        n_st[j] = w_st;
        n_pr[j] = w_pr;
        n_det[j] = w_det;
        n_pend[j] = w_pend;
        n_jnd[j] = w_jnd;
        n_jnr[j] = w_jnr;
        n_val[j] = w_val;
      end
      if (answer && s_en && s_idx == j) n_st[j] = s_st;
      if (answer && dq_en && w_idx == j) n_q[j] = 1'b0;
      if (answer && q_en && q_idx == j) begin
        n_q[j] = 1'b1;
        n_pr[j] = q_p;
        n_stamp[j] = m_sc;
      end
    end
    if (answer && q_en) n_sc = m_sc + 4'd1;
    n_cur = (answer && idle) ? 8'd0 : m_cur;
    n_cp = (answer && cp_we) ? cp : m_cp;

    // The dispatch.
    a_valid = 1'b0;
    a_tid = 8'd0;
    a_p = 1'b0;
    a_s = 4'd0;
    for (j = 1; j < N; j = j + 1) begin
      if (n_q[j] && (!a_valid || n_pr[j] < a_p || (n_pr[j] == a_p && n_stamp[j] < a_s))) begin
        a_valid = 1'b1;
        a_tid = j;
        a_p = n_pr[j];
        a_s = n_stamp[j];
      end
    end
    sw = answer && a_valid && (n_cur == 8'd0 || a_p < n_cp);
    for (j = 1; j < N; j = j + 1) begin
      if (sw && n_cur == j) begin  // preempted: to the head of its queue
        n_st[j] = Ready;
        n_q[j] = 1'b1;
        n_stamp[j] = m_hsc;
      end
    end
    n_hsc = (sw && n_cur != 8'd0) ? m_hsc - 4'd1 : m_hsc;
    for (j = 1; j < N; j = j + 1) begin
      if (sw && a_tid == j) begin
        n_st[j] = Running;
        n_q[j] = 1'b0;
      end
    end
    if (sw) begin
      n_cur = a_tid;
      n_cp = a_p;
    end

    // The most urgent queued thread of the model as it is.
    b_valid = 1'b0;
    b_p = 1'b0;
    b_s = 4'd0;
    for (j = 1; j < N; j = j + 1) begin
      if (m_q[j] && (!b_valid || m_pr[j] < b_p || (m_pr[j] == b_p && m_stamp[j] < b_s))) begin
        b_valid = 1'b1;
        b_p = m_pr[j];
        b_s = m_stamp[j];
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      age_q <= 6'd0;
      m_sc <= 4'd8;
      m_hsc <= 4'd7;
      m_cur <= 8'd0;
      m_cp <= 1'b0;
      m_seq <= 16'd0;
      for (j = 0; j < N; j = j + 1) begin
        m_st[j] <= Free;
        m_pr[j] <= 1'b0;
        m_det[j] <= 1'b0;
        m_pend[j] <= 1'b0;
        m_jnd[j] <= 1'b0;
        m_jnr[j] <= 8'd0;
        m_val[j] <= 32'd0;
        m_q[j] <= 1'b0;
        m_stamp[j] <= 4'd0;
      end
    end else begin
      // A command may be taken in the very cycle the previous one is answered.
      if (take) begin
        busy_q <= 1'b1;
        age_q <= 6'd1;
        c_ev <= take_ev;
        c_op <= take_ev ? OpSignal : cmd_op_i;
        c_tid <= take_ev ? ev_tid_i : cmd_tid_i;
        c_arg <= cmd_arg_i;
        c_flag <= cmd_flag_i;
        c_val <= cmd_value_i;
      end else begin
        if (answer) busy_q <= 1'b0;
        if (age_q != 6'd63) age_q <= age_q + 6'd1;
      end
      m_sc <= n_sc;
      m_hsc <= n_hsc;
      m_cur <= n_cur;
      m_cp <= n_cp;
      if (answer && n_cur != m_cur) m_seq <= m_seq + 16'd1;
      for (j = 0; j < N; j = j + 1) begin
        m_st[j] <= n_st[j];
        m_pr[j] <= n_pr[j];
        m_det[j] <= n_det[j];
        m_pend[j] <= n_pend[j];
        m_jnd[j] <= n_jnd[j];
        m_jnr[j] <= n_jnr[j];
        m_val[j] <= n_val[j];
        m_q[j] <= n_q[j];
        m_stamp[j] <= n_stamp[j];
      end
    end
  end

  // The stamps of a bounded run never wrap.
  always @* assume (m_sc != 4'd15 && m_hsc != 4'd0);

  // ---- the properties ---------------------------------------------------------------------
  always @(posedge clk_i) begin
    if (rst_ni && !$initstate) begin
      // Bounded latency: taken only when idle (an event first), answered once, 3 to
      // Latency cycles after; then the block takes again.
      assert (!(take_cmd && take_ev));
      assert (!(rsp_valid && ev_done));
      if (answer) begin
        assert (busy_q);
        assert (rsp_valid == !c_ev);
        assert (age_q >= 6'd3 && age_q <= Latency);
      end
      if (busy_q && !answer) begin
        assert (age_q < Latency);
        assert (!cmd_ready && !ev_ready);
      end else begin
        assert (cmd_ready == !ev_valid_i && ev_ready == ev_valid_i);
      end

      // Every answer is the model's; the decision changed or not as the model says.
      if (rsp_valid) begin
        assert (rsp_status == e_status && rsp_blocked == e_blocked && rsp_value == e_value);
        assert (rsp_tid == e_tid);
        // A new thread's id is one the model has free.
        if (c_op == OpCreate && e_status == StOk) assert (new_free);
      end
      if (ev_done) assert (ev_switched == (n_cur != m_cur));
      if (answer) assert (decided == (n_cur != m_cur));
      else assert (!decided);
      assert (seq == ((answer && n_cur != m_cur) ? m_seq + 16'd1 : m_seq));

      // No lost waiter: a SIGNAL answered OK on a waiting thread leaves it ready (queued)
      // or running.
      if (answer && c_op == OpSignal && k_st == Waiting && (c_ev || rsp_status == StOk)) begin
        for (j = 1; j < N; j = j + 1) begin
          if (c_tid == j)
            assert ((n_st[j] == Ready && n_q[j]) || (n_st[j] == Running && n_cur == j));
        end
      end

      // The decision in every cycle: the model's (while a command is in flight, the one
      // before it; from its answer's cycle on, the one after).
      assert (cur_tid == n_cur);
      assert (cur_prio == ((n_cur == 8'd0) ? 7'd0 : {6'd0, n_cp}));
      // The answer's fields change only with rsp_valid_o (an event's answer leaves them).
      if (!rsp_valid) begin
        assert (rsp_status == $past(rsp_status) && rsp_tid == $past(rsp_tid) &&
                rsp_value == $past(rsp_value) && rsp_blocked == $past(rsp_blocked));
      end
      // still_o: the edge after it changed no output.
      if ($past(still)) begin
        assert (!rsp_valid && !ev_done && !decided && !busy_q);
        assert (cur_tid == $past(cur_tid) && cur_prio == $past(cur_prio) && seq == $past(seq));
        assert (ev_switched == $past(ev_switched));
      end

      // The model: the running thread (if not 0) RUNNING and not queued, no other one
      // RUNNING, READY exactly when queued, at its record's priority, the running one at
      // least as urgent as any queued (and so not the idle thread if one is).
      assert (m_cur < N && m_st[0] == Free && !m_q[0]);
      for (j = 1; j < N; j = j + 1) begin
        assert ((m_st[j] == Running) == (m_cur == j));
        assert ((m_st[j] == Ready) == m_q[j]);
        if (m_cur == j) assert (m_cp == m_pr[j]);
      end
      if (b_valid) assert (m_cur != 8'd0 && m_cp <= b_p);
    end
  end

  // ---- covers (yosys-smtbmc -c): the cases above are reached ------------------------------
  // Reached in steps 20, 24, 31, 42 and 46 (yosys-smtbmc -c -t 48: 2.5 minutes).
  always @(posedge clk_i) begin
    if (rst_ni && !$initstate) begin
      // A CREATE answered: the new thread runs.
      cover (rsp_valid && c_op == OpCreate && rsp_status == StOk && cur_tid != 8'd0);
      // A WAIT that blocks.
      cover (rsp_valid && c_op == OpWait && rsp_blocked);
      // A second thread created while the first runs, left ready.
      cover (rsp_valid && c_op == OpCreate && rsp_status == StOk && m_cur != 8'd0 &&
             !decided);
      // A waiting thread signalled (an event) back to running.
      cover (ev_done && k_st == Waiting && ev_switched);
      // A running thread preempted by a thread created or signalled.
      cover (answer && (c_op == OpCreate || c_op == OpSignal) && m_cur != 8'd0 &&
             n_cur != m_cur);
    end
  end
endmodule

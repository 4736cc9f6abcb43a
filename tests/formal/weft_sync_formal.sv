// Formal harness of weft_sync (hw/rtl/weft_sync.sv; docs/hw-services.md), for Yosys's SMT
// flow (tests/formal/CMakeLists.txt): a small shape (2 objects, 3 clients, 1 MHz), every
// input the solver can think of from clients that keep the protocol, and a shadow built
// from what the block answers. Free: configuration (any object, any cycle, any values:
// the block refuses what is in use), object and mutex indices (all 8 bits), ops,
// priorities, cancels and resets (flush_i) of clients. Assumed: a client holds
// req_valid_i and its fields until req_ready_o (unless it is reset), makes no call while
// its previous one is unanswered (it may in the cycle of the answer), and a timeout is at
// most 7 microseconds (so timeouts pass within the run). The inspection port is always
// enabled (rd_en_i high).
//
// The object checks are about one object x: any 8-bit index (anyconst, so in or out of
// range), the one inspected (rd_obj_i). A proof for every x is one for every object, and
// the same x all along lets each cycle's checks help the solver with the next. The block's
// object tables are RAM, which rst_ni does not clear, so the solver starts every object
// with any contents (a mutex's holder a client): the shadow of x starts with what the
// inspection port shows of x in the reset cycle (a mutex held by client h: h was told so,
// at that depth; a semaphore's maximum is not shown, so it is unknown until x is
// configured), which lets the run start in the middle of things. The shadow of x: the
// type, kind and inheritance of its last configuration answered OK (written at the edge
// after its answer), a semaphore's count (+ posts - waits answered OK since) and maximum,
// and the depth at which each client was told it holds it as a mutex.
//
// The block carries out one event at a time in three steps: a call taken at an edge is
// carried out two edges later (READ, then EXECUTE), and answered (or blocked) in the
// third cycle after the edge that took it, unless a configuration (in READ or EXECUTE)
// or a reset (in EXECUTE: of a waiter the event may serve) makes it read again.
//
// Proved for every input sequence up to the run's depth (tests/formal/CMakeLists.txt):
//   - every call is answered exactly once or still waits: an answer only to a client with
//     a call in flight; a client has one exactly when it waits, is being answered or its
//     call is still to be carried out (a reset drops it); once carried out a blocked call
//     waits until it is answered; one call taken per cycle, of a client that makes one
//     and is not being reset; a call is carried out (answered or blocked) in the third
//     cycle after the edge that takes it when no configuration and no reset came in
//     between; a call that cannot block (post, trywait, trylock, unlock, signal,
//     broadcast, an index out of range, an unknown op, a timeout of 0, a pending cancel)
//     is answered, never blocked; on x also a wait on a semaphore with a count, a lock of a
//     free mutex or one of the caller's own, each with the status the specification gives
//     (NOSYS, BADHANDLE, WRONG_TYPE; OK, OVERFLOW (its maximum known), AGAIN of a
//     semaphore; OK, BUSY, INTERNAL, PERM of a mutex; TIMEDOUT or CANCELED where a call
//     would block), and a wait
//     that must block does (these expectations of x hold unless x is configured while the
//     call is in flight); TIMEDOUT only for a timed call and not before its time (a
//     timeout of t microseconds: t * Mhz + 6 cycles after the take at the earliest);
//     CANCELED only when cancel_i was high since the take;
//   - no double grant: no two clients are told they hold x; x has the holder and the
//     depth its client was told (after a condition wait too); a client not reset that
//     holds x was told so; a semaphore's count is its configured (or first) count +
//     posts - waits answered OK, never above its maximum (once configured); x has the
//     type, kind and inheritance of its last configuration answered OK (or those it
//     started with); a configuration is answered BADHANDLE, BADARGS,
//     BUSY (a mutex held, a waiter, a condition wait that will take it back) or OK as the
//     specification says;
//   - no lost waiter: no client blocked on x while it is a semaphore with a count or a
//     free mutex; a blocked client is a waiter of the object it called (rd_waiters_o), a
//     client not blocked is no one's;
//   - queue order: a lock or semaphore waiter is woken only when, in the cycle its waker
//     read the waiters (READ, two cycles before the answer), no other such waiter of the
//     same object had a more urgent effective priority, or the same one and blocked first
//     (waiters in a condition wait are left out: their place is their condition wait's);
//   - still_o: the edge after it changes nothing that shows (answers, waiting, effective
//     priorities, x, the configuration status); settled_o is high with it.
// An assertion in a clocked block checks the cycle before the step yosys-smtbmc names, so
// a run of n steps checks the first n - 2 cycles after reset. The covers (yosys-smtbmc
// -c) show where the cases are first reached: an overflow in step 5, a condition wait
// signalled back and a reset holder's mutex handed on in step 8, a wake with a second
// waiter left (lock, semaphore) in step 11, a timeout after blocking in step 12 (each
// event takes three cycles; tests/formal/CMakeLists.txt says how deep the run goes).
module weft_sync_formal #(
  parameter int unsigned NO = 2,   // objects
  parameter int unsigned NC = 3,   // clients
  parameter int unsigned Mhz = 1   // cycles per microsecond
) (
  input logic               clk_i,
  input logic               rst_ni,
  input logic               cfg_valid_i,
  input logic [7:0]         cfg_obj_i,
  input logic [1:0]         cfg_type_i,
  input logic [1:0]         cfg_kind_i,
  input logic               cfg_pi_i,
  input logic [15:0]        cfg_count_i,
  input logic [15:0]        cfg_max_i,
  input logic [NC-1:0]      req_valid_i,
  input logic [NC*4-1:0]    req_op_i,
  input logic [NC*8-1:0]    req_obj_i,
  input logic [NC*8-1:0]    req_mtx_i,
  input logic [NC-1:0]      req_timed_i,
  input logic [NC*32-1:0]   req_tmo_i,
  input logic [NC*7-1:0]    prio_i,
  input logic [NC-1:0]      cancel_i,
  input logic [NC-1:0]      flush_i
);
  localparam logic [3:0] OpSemPost = weft_osif_pkg::SyncOpSemPost;
  localparam logic [3:0] OpSemWait = weft_osif_pkg::SyncOpSemWait;
  localparam logic [3:0] OpSemTrywait = weft_osif_pkg::SyncOpSemTrywait;
  localparam logic [3:0] OpMutexLock = weft_osif_pkg::SyncOpMutexLock;
  localparam logic [3:0] OpMutexTrylock = weft_osif_pkg::SyncOpMutexTrylock;
  localparam logic [3:0] OpMutexUnlock = weft_osif_pkg::SyncOpMutexUnlock;
  localparam logic [3:0] OpCondWait = weft_osif_pkg::SyncOpCondWait;
  localparam logic [3:0] OpCondBroadcast = weft_osif_pkg::SyncOpCondBroadcast;
  localparam logic [1:0] TypeNone = 2'(weft_osif_pkg::SyncTypeNone);
  localparam logic [1:0] TypeSem = 2'(weft_osif_pkg::SyncTypeSem);
  localparam logic [1:0] TypeMutex = 2'(weft_osif_pkg::SyncTypeMutex);
  localparam logic [1:0] TypeCond = 2'(weft_osif_pkg::SyncTypeCond);
  localparam logic [1:0] KindRecursive = 2'(weft_osif_pkg::SyncKindRecursive);
  localparam logic [7:0] StOk = weft_osif_pkg::StatusOk;
  localparam logic [7:0] StNosys = weft_osif_pkg::StatusNosys;
  localparam logic [7:0] StBadhandle = weft_osif_pkg::StatusBadhandle;
  localparam logic [7:0] StWrongType = weft_osif_pkg::StatusWrongType;
  localparam logic [7:0] StBadargs = weft_osif_pkg::StatusBadargs;
  localparam logic [7:0] StBusy = weft_osif_pkg::StatusBusy;
  localparam logic [7:0] StAgain = weft_osif_pkg::StatusAgain;
  localparam logic [7:0] StPerm = weft_osif_pkg::StatusPerm;
  localparam logic [7:0] StInternal = weft_osif_pkg::StatusInternal;
  localparam logic [7:0] StTimedout = weft_osif_pkg::StatusTimedout;
  localparam logic [7:0] StCanceled = weft_osif_pkg::StatusCanceled;
  localparam logic [7:0] StOverflow = weft_osif_pkg::StatusOverflow;
  // The third cycle after the edge that takes a call: its answer (weft_sync's header).
  localparam logic [4:0] Latency = 5'd3;

  // The object watched: any index, the same all along.
  (* anyconst *) logic [7:0] x;

  logic [7:0]       cfg_status;
  logic [31:0]      rd_state;
  logic [NC-1:0]    rd_waiters, req_ready, rsp_valid, waiting;
  logic [NC*8-1:0]  rsp_status;
  logic [NC*7-1:0]  eff_prio;
  logic             settled, still;

  weft_sync #(.NumObjs(NO), .NumClients(NC), .ClockMhz(Mhz)) dut (
    .clk_i, .rst_ni, .cfg_valid_i, .cfg_obj_i, .cfg_type_i, .cfg_kind_i, .cfg_pi_i,
    .cfg_count_i, .cfg_max_i, .cfg_status_o(cfg_status), .rd_obj_i(x), .rd_en_i(1'b1),
    .rd_state_o(rd_state), .rd_waiters_o(rd_waiters), .req_valid_i, .req_ready_o(req_ready),
    .req_op_i, .req_obj_i, .req_mtx_i, .req_timed_i, .req_tmo_i, .prio_i, .cancel_i, .flush_i,
    .rsp_valid_o(rsp_valid), .rsp_status_o(rsp_status), .waiting_o(waiting),
    .eff_prio_o(eff_prio), .settled_o(settled), .still_o(still));

  // Reset in the first cycle and never again. The tables (RAM, not reset) start with
  // anything, a mutex's holder a client.
  always @* begin
    if ($initstate) begin
      assume (!rst_ni);
      if (rd_state[1:0] == TypeMutex && rd_state[31:16] != 16'd0) assume (rd_state[15:8] < NC);
    end else begin
      assume (rst_ni);
    end
  end

  integer c, d;
  wire [NC-1:0] take = req_valid_i & req_ready;
  logic [NC-1:0] rsp_ok;
  always @* begin
    for (c = 0; c < NC; c = c + 1) rsp_ok[c] = rsp_valid[c] && rsp_status[c*8 +: 8] == StOk;
  end

  // ---- per client: the call in flight -------------------------------------------------
  logic [NC-1:0]    out_q;     // taken, not yet answered (nor dropped by a reset)
  logic [NC-1:0]    fly_q;     // taken, not yet carried out (answered or blocked)
  logic [NC-1:0]    calm_q;    // no configuration and no reset since it was taken
  logic [NC*4-1:0]  op_q;      // the last call taken
  logic [NC*8-1:0]  obj_q, mtx_q;
  logic [NC-1:0]    timed_q;
  logic [NC*3-1:0]  tmo_q;
  logic [NC*5-1:0]  age_q;     // cycles since the edge that took it (1: the cycle after)
  logic [NC*5-1:0]  stamp_q;   // when it was taken
  logic [NC-1:0]    cseen_q;   // cancel_i was high since it was taken (in that cycle too)
  logic [NC-1:0]    dirty_q;   // reset since its last call: may still hold mutexes
  // What the specification says of the call, from the shadow at the cycle it was taken:
  // for any object (imb, chb) and, while x is not configured in between, on x too.
  logic [NC-1:0]    imm_q;     // answered, never blocked
  logic [NC-1:0]    imb_q;
  logic [NC-1:0]    blk_q;     // blocks
  logic [NC-1:0]    chk_q;     // the shadow knows the status: exp_q
  logic [NC-1:0]    chb_q;
  logic [NC*8-1:0]  exp_q;
  // The client protocol: the request of the cycle before, if not taken.
  logic [NC-1:0]    pend_q;
  logic [NC*4-1:0]  pop_q;
  logic [NC*8-1:0]  pobj_q, pmtx_q;
  logic [NC-1:0]    ptimed_q;
  logic [NC*32-1:0] ptmo_q;
  logic [4:0]       now_q;
  // What shows of the block in the cycle before, when still_o was high.
  logic             still_q;
  logic [NC-1:0]    pwait_q, prdw_q;
  logic [NC*7-1:0]  peff_q;
  logic [31:0]      prd_q;
  logic [7:0]       pcfg_q;

  // ---- the shadow of x ----------------------------------------------------------------
  logic [1:0]       typ_q;     // type of its last configuration answered OK
  logic [1:0]       kind_q;    // and kind, inheritance
  logic             pi_q;
  logic [15:0]      cnt_q;     // a semaphore's count
  logic [15:0]      max_q;     // and maximum
  logic             maxk_q;    // known (x configured since reset)
  logic [NC*16-1:0] dep_q;     // depth at which client c was told it holds it
  // The configuration of the cycle before, answered in this one.
  logic        cfgp_q;
  logic [7:0]  cfgp_obj_q;
  logic [1:0]  cfgp_type_q, cfgp_kind_q;
  logic        cfgp_pi_q;
  logic [15:0] cfgp_cnt_q, cfgp_max_q;
  logic        cfgp_chk_q;   // status known: cfgp_exp_q (else OK or BUSY)
  logic [7:0]  cfgp_exp_q;
  // A configuration answered OK in the cycle before: written at the edge before this cycle.
  logic        cfgw_q;
  logic [7:0]  cfgw_obj_q;
  logic [1:0]  cfgw_type_q, cfgw_kind_q;
  logic        cfgw_pi_q;
  logic [15:0] cfgw_cnt_q, cfgw_max_q;

  // The shadow now: a configuration written at the last edge and the answers of this
  // cycle count already (the block changed at the edge before).
  logic [1:0]       typ_n, kind_n;
  logic             pi_n;
  logic [15:0]      cnt_n, max_n;
  logic             maxk_n;
  logic [NC*16-1:0] dep_n;
  logic [NC-1:0]    holds;     // client c holds x (not while in a condition wait on it)
  logic             held_any, dirty_any;
  always @* begin
    typ_n = typ_q;
    kind_n = kind_q;
    pi_n = pi_q;
    cnt_n = cnt_q;
    max_n = max_q;
    maxk_n = maxk_q;
    dep_n = dep_q;
    if (cfgw_q && cfgw_obj_q == x) begin
      typ_n = cfgw_type_q;
      kind_n = cfgw_kind_q;
      pi_n = cfgw_type_q == TypeMutex && cfgw_pi_q;
      cnt_n = (cfgw_type_q == TypeSem) ? cfgw_cnt_q : 16'd0;
      max_n = cfgw_max_q;
      maxk_n = 1'b1;
    end
    held_any = 1'b0;
    for (c = 0; c < NC; c = c + 1) begin
      if (rsp_ok[c] && obj_q[c*8 +: 8] == x) begin
        if (op_q[c*4 +: 4] == OpSemPost) cnt_n = cnt_n + 16'd1;
        if (op_q[c*4 +: 4] == OpSemWait || op_q[c*4 +: 4] == OpSemTrywait) cnt_n = cnt_n - 16'd1;
        if (op_q[c*4 +: 4] == OpMutexLock || op_q[c*4 +: 4] == OpMutexTrylock)
          dep_n[c*16 +: 16] = dep_n[c*16 +: 16] + 16'd1;
        if (op_q[c*4 +: 4] == OpMutexUnlock) dep_n[c*16 +: 16] = dep_n[c*16 +: 16] - 16'd1;
      end
      holds[c] = dep_n[c*16 +: 16] != 16'd0 &&
                 !(waiting[c] && op_q[c*4 +: 4] == OpCondWait && mtx_q[c*8 +: 8] == x);
      if (holds[c]) held_any = 1'b1;
    end
    dirty_any = |dirty_q;
  end

  // ---- what the specification says of a call taken now ---------------------------------
  logic [NC-1:0]   e_imm, e_imb, e_blk, e_chk, e_chb;
  logic [NC*8-1:0] e_st;
  logic [3:0]  a_op;
  logic [7:0]  a_obj;
  logic        a_nb, a_mine, a_other, a_rec;
  logic [15:0] a_dep;
  logic [7:0]  a_nbst;
  always @* begin
    for (c = 0; c < NC; c = c + 1) begin
      a_op = req_op_i[c*4 +: 4];
      a_obj = req_obj_i[c*8 +: 8];
      a_nb = (req_timed_i[c] && req_tmo_i[c*32 +: 32] == 32'd0) || cancel_i[c];
      a_nbst = cancel_i[c] ? StCanceled : StTimedout;
      a_mine = holds[c];
      a_other = held_any && !holds[c];
      a_dep = dep_n[c*16 +: 16];
      a_rec = kind_n == KindRecursive;
      // Whatever the object: only a wait, a lock or a condition wait may block, and not
      // with a timeout of 0 or a cancel pending; an unknown op is NOSYS, then an index
      // out of range BADHANDLE.
      e_imb[c] = a_nb || !(a_op == OpSemWait || a_op == OpMutexLock || a_op == OpCondWait) ||
                 a_obj >= NO;
      e_chb[c] = a_op > OpCondBroadcast || a_obj >= NO;
      e_imm[c] = e_imb[c];
      e_blk[c] = 1'b0;
      e_chk[c] = e_chb[c];
      e_st[c*8 +: 8] = (a_op > OpCondBroadcast) ? StNosys : StBadhandle;
      if (a_obj == x && a_obj < NO && a_op <= OpCondBroadcast) begin
        // On x the shadow knows more.
        e_chk[c] = 1'b1;
        e_imm[c] = 1'b1;
        e_st[c*8 +: 8] = StOk;
        if (typ_n == TypeNone) e_st[c*8 +: 8] = StBadhandle;
        else if ((a_op <= OpSemTrywait && typ_n != TypeSem) ||
                 (a_op >= OpMutexLock && a_op <= OpMutexUnlock && typ_n != TypeMutex) ||
                 (a_op >= OpCondWait && typ_n != TypeCond))
          e_st[c*8 +: 8] = StWrongType;
        else begin
          case (a_op)
            OpSemPost: begin
              if (maxk_n) e_st[c*8 +: 8] = (cnt_n == max_n) ? StOverflow : StOk;
              else e_chk[c] = 1'b0;
            end
            OpSemTrywait: e_st[c*8 +: 8] = (cnt_n == 16'd0) ? StAgain : StOk;
            OpSemWait: begin
              if (cnt_n == 16'd0) begin
                if (a_nb) e_st[c*8 +: 8] = a_nbst;
                else begin
                  e_imm[c] = 1'b0;
                  e_blk[c] = 1'b1;
                end
              end
            end
            OpMutexLock: begin
              if (a_other) begin
                if (a_nb) e_st[c*8 +: 8] = a_nbst;
                else begin
                  e_imm[c] = 1'b0;
                  e_blk[c] = 1'b1;
                end
              end else if (a_mine) begin
                // Once more by its owner: recursive (AGAIN past 65535), else INTERNAL.
                e_st[c*8 +: 8] = !a_rec ? StInternal : (a_dep == 16'hFFFF) ? StAgain : StOk;
              end else if (dirty_any) begin
                // Maybe held by a reset client that has not given it up yet.
                e_imm[c] = a_nb;
                e_chk[c] = 1'b0;
              end
            end
            OpMutexTrylock: begin
              if (a_other) e_st[c*8 +: 8] = StBusy;
              else if (a_mine)
                e_st[c*8 +: 8] = !a_rec ? StBusy : (a_dep == 16'hFFFF) ? StAgain : StOk;
              else if (dirty_any) e_chk[c] = 1'b0;
            end
            OpMutexUnlock: e_st[c*8 +: 8] = a_mine ? StOk : StPerm;
            OpCondWait: begin
              e_imm[c] = a_nb;
              e_chk[c] = 1'b0;
            end
            default: ;  // signal, broadcast: OK
          endcase
        end
      end
    end
  end

  // ---- what a configuration written now must be answered ----------------------------------
  logic f_in, f_args, f_sure, f_maybe;
  always @* begin
    f_in = cfg_obj_i < NO;
    f_args = cfg_kind_i != 2'd3 &&
             !(cfg_type_i == TypeSem && (cfg_max_i == 16'd0 || cfg_count_i > cfg_max_i));
    // In use for sure: held, a waiter, a condition wait's mutex. Maybe: a reset client
    // may still hold it, a condition's waiter may have gone on to its mutex; and any
    // object but x may be held.
    f_sure = cfg_obj_i == x && held_any;
    f_maybe = dirty_any || cfg_obj_i != x;
    for (c = 0; c < NC; c = c + 1) begin
      if (waiting[c]) begin
        if (op_q[c*4 +: 4] == OpCondWait) begin
          if (mtx_q[c*8 +: 8] == cfg_obj_i) f_sure = 1'b1;
          if (obj_q[c*8 +: 8] == cfg_obj_i) f_maybe = 1'b1;
        end else if (obj_q[c*8 +: 8] == cfg_obj_i) f_sure = 1'b1;
      end
    end
  end

  // ---- queue order: a waiter woken two edges later passes over no one it should not ----
  logic [NC-1:0] plain, viol;
  logic [NC-1:0] viol_q, viol2_q, wk_q;
  always @* begin
    for (c = 0; c < NC; c = c + 1) begin
      plain[c] = waiting[c] && (op_q[c*4 +: 4] == OpSemWait || op_q[c*4 +: 4] == OpMutexLock);
    end
    for (c = 0; c < NC; c = c + 1) begin
      viol[c] = 1'b0;
      for (d = 0; d < NC; d = d + 1) begin
        if (d != c && plain[c] && plain[d] && !flush_i[d] &&
            obj_q[d*8 +: 8] == obj_q[c*8 +: 8] &&
            (eff_prio[d*7 +: 7] < eff_prio[c*7 +: 7] ||
             (eff_prio[d*7 +: 7] == eff_prio[c*7 +: 7] &&
              stamp_q[d*5 +: 5] < stamp_q[c*5 +: 5]))) viol[c] = 1'b1;
      end
    end
  end

  // ---- assumptions: clients keep the protocol ------------------------------------------
  always @* begin
    for (c = 0; c < NC; c = c + 1) begin
      // One call at a time (the next may come in the cycle of the answer).
      if (req_valid_i[c]) assume (!out_q[c] || rsp_valid[c]);
      // Held until taken, unless the client is reset.
      if (pend_q[c] && !flush_i[c]) begin
        assume (req_valid_i[c]);
        assume (req_op_i[c*4 +: 4] == pop_q[c*4 +: 4]);
        assume (req_obj_i[c*8 +: 8] == pobj_q[c*8 +: 8]);
        assume (req_mtx_i[c*8 +: 8] == pmtx_q[c*8 +: 8]);
        assume (req_timed_i[c] == ptimed_q[c]);
        assume (req_tmo_i[c*32 +: 32] == ptmo_q[c*32 +: 32]);
      end
      assume (req_tmo_i[c*32 +: 32] < 32'd8);
    end
    // The stamps of a bounded run never wrap.
    assume (now_q != 5'd31);
  end

  // ---- the shadow's update -------------------------------------------------------------
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      out_q <= '0;
      fly_q <= '0;
      dirty_q <= '0;
      pend_q <= '0;
      // What the tables start with.
      typ_q <= rd_state[1:0];
      kind_q <= rd_state[3:2];
      pi_q <= rd_state[4];
      cnt_q <= rd_state[31:16];
      max_q <= '0;
      maxk_q <= 1'b0;
      for (c = 0; c < NC; c = c + 1) begin
        dep_q[c*16 +: 16] <= (rd_state[1:0] == TypeMutex && rd_state[15:8] == c) ?
                             rd_state[31:16] : 16'd0;
      end
      cfgp_q <= 1'b0;
      cfgw_q <= 1'b0;
      now_q <= 5'd0;
      viol_q <= '0;
      viol2_q <= '0;
      wk_q <= '0;
      still_q <= 1'b0;
    end else begin
      now_q <= now_q + 5'd1;
      typ_q <= typ_n;
      kind_q <= kind_n;
      pi_q <= pi_n;
      cnt_q <= cnt_n;
      max_q <= max_n;
      maxk_q <= maxk_n;
      dep_q <= dep_n;
      cfgp_q <= cfg_valid_i;
      cfgp_obj_q <= cfg_obj_i;
      cfgp_type_q <= cfg_type_i;
      cfgp_kind_q <= cfg_kind_i;
      cfgp_pi_q <= cfg_pi_i;
      cfgp_cnt_q <= cfg_count_i;
      cfgp_max_q <= cfg_max_i;
      cfgp_chk_q <= !f_in || !f_args || f_sure || !f_maybe;
      cfgp_exp_q <= !f_in ? StBadhandle : !f_args ? StBadargs : f_sure ? StBusy : StOk;
      cfgw_q <= cfgp_q && cfg_status == StOk;
      cfgw_obj_q <= cfgp_obj_q;
      cfgw_type_q <= cfgp_type_q;
      cfgw_kind_q <= cfgp_kind_q;
      cfgw_pi_q <= cfgp_pi_q;
      cfgw_cnt_q <= cfgp_cnt_q;
      cfgw_max_q <= cfgp_max_q;
      viol_q <= viol;
      viol2_q <= viol_q;
      wk_q <= waiting;
      pend_q <= req_valid_i & ~req_ready & ~flush_i;
      pop_q <= req_op_i;
      pobj_q <= req_obj_i;
      pmtx_q <= req_mtx_i;
      ptimed_q <= req_timed_i;
      ptmo_q <= req_tmo_i;
      still_q <= still;
      pwait_q <= waiting;
      prdw_q <= rd_waiters;
      peff_q <= eff_prio;
      prd_q <= rd_state;
      pcfg_q <= cfg_status;
      for (c = 0; c < NC; c = c + 1) begin
        if (flush_i[c]) out_q[c] <= 1'b0;
        else if (take[c]) out_q[c] <= 1'b1;
        else if (rsp_valid[c]) out_q[c] <= 1'b0;
        if (flush_i[c] || waiting[c] || rsp_valid[c]) fly_q[c] <= 1'b0;
        if (take[c]) fly_q[c] <= 1'b1;
        if (cfg_valid_i || flush_i != '0) calm_q[c] <= 1'b0;
        if (cancel_i[c]) cseen_q[c] <= 1'b1;
        // x configured while the call is in flight: only what holds for any object.
        if (cfg_valid_i && cfg_obj_i == x) begin
          imm_q[c] <= imb_q[c];
          chk_q[c] <= chb_q[c];
          blk_q[c] <= 1'b0;
        end
        if (take[c]) begin
          op_q[c*4 +: 4] <= req_op_i[c*4 +: 4];
          obj_q[c*8 +: 8] <= req_obj_i[c*8 +: 8];
          mtx_q[c*8 +: 8] <= req_mtx_i[c*8 +: 8];
          timed_q[c] <= req_timed_i[c];
          tmo_q[c*3 +: 3] <= req_tmo_i[c*32 +: 3];
          age_q[c*5 +: 5] <= 5'd1;
          stamp_q[c*5 +: 5] <= now_q;
          calm_q[c] <= 1'b1;
          cseen_q[c] <= cancel_i[c];
          dirty_q[c] <= 1'b0;
          imm_q[c] <= e_imm[c];
          imb_q[c] <= e_imb[c];
          blk_q[c] <= e_blk[c];
          chk_q[c] <= e_chk[c];
          chb_q[c] <= e_chb[c];
          exp_q[c*8 +: 8] <= e_st[c*8 +: 8];
        end else if (age_q[c*5 +: 5] != 5'd31) begin
          age_q[c*5 +: 5] <= age_q[c*5 +: 5] + 5'd1;
        end
        // A reset client is told nothing more; what it held is given up.
        if (flush_i[c]) begin
          dirty_q[c] <= 1'b1;
          dep_q[c*16 +: 16] <= 16'd0;
        end
      end
    end
  end

  // ---- the properties -------------------------------------------------------------------
  always @(posedge clk_i) begin
    if (rst_ni && !$initstate) begin
      // One call taken per cycle, of a client that makes one and is not being reset.
      assert ((req_ready & (req_ready - 1'b1)) == '0);
      assert ((req_ready & ~(req_valid_i & ~flush_i)) == '0);
      // still_o: the edge after it changed nothing that shows.
      if (still) assert (settled);
      if (still_q) begin
        assert (rsp_valid == '0 && waiting == pwait_q && eff_prio == peff_q);
        assert (rd_state == prd_q && rd_waiters == prdw_q && cfg_status == pcfg_q);
      end
      for (c = 0; c < NC; c = c + 1) begin
        // Every call answered exactly once, or still waiting, or still to be carried out.
        if (rsp_valid[c]) assert (out_q[c]);
        assert (out_q[c] == (waiting[c] || rsp_valid[c] || fly_q[c]));
        // Carried out in the third cycle after the take, with nothing in between.
        if (out_q[c] && fly_q[c] && calm_q[c] && age_q[c*5 +: 5] == Latency)
          assert (waiting[c] || rsp_valid[c]);
        // Answered when it cannot block, with its status; blocked when it must.
        if (out_q[c] && fly_q[c] && imm_q[c]) assert (!waiting[c]);
        if (rsp_valid[c] && fly_q[c] && chk_q[c])
          assert (rsp_status[c*8 +: 8] == exp_q[c*8 +: 8]);
        if (out_q[c] && fly_q[c] && blk_q[c]) assert (!rsp_valid[c]);
        // TIMEDOUT: a timed call, not before its time; CANCELED: cancel_i was high.
        if (rsp_valid[c] && rsp_status[c*8 +: 8] == StTimedout) begin
          assert (timed_q[c]);
          assert (age_q[c*5 +: 5] >= ((tmo_q[c*3 +: 3] == 3'd0) ? Latency :
                                      5'(tmo_q[c*3 +: 3] * Mhz + 6)));
        end
        if (rsp_valid[c] && rsp_status[c*8 +: 8] == StCanceled) assert (cseen_q[c]);

        // Queue order.
        if (rsp_ok[c] && wk_q[c]) assert (!viol2_q[c]);

        // No double grant: one holder of x.
        for (d = 0; d < NC; d = d + 1) begin
          if (d != c) assert (!(holds[c] && holds[d]));
        end
        // No lost waiter: a semaphore a client waits on has no count.
        if (waiting[c] && op_q[c*4 +: 4] == OpSemWait && obj_q[c*8 +: 8] == x)
          assert (cnt_n == 16'd0);
      end
      // Configuration answers.
      if (cfgp_q) begin
        if (cfgp_chk_q) assert (cfg_status == cfgp_exp_q);
        else assert (cfg_status == StOk || cfg_status == StBusy);
      end

      // A semaphore's count never above its maximum.
      if (typ_n == TypeSem && maxk_n) assert (cnt_n <= max_n);
      // What the block says of x agrees with the shadow: its type, kind and inheritance;
      // a semaphore's count is the configured count + posts - waits.
      assert (rd_state[4:0] == {pi_n, kind_n, typ_n});
      if (typ_n == TypeSem) assert (rd_state[31:16] == cnt_n);
      // No lost waiter: none on a semaphore with a count or on a free mutex.
      if (rd_state[1:0] == TypeSem && rd_state[31:16] != 16'd0) assert (rd_waiters == '0);
      if (rd_state[1:0] == TypeMutex && rd_state[31:16] == 16'd0) assert (rd_waiters == '0);
      for (c = 0; c < NC; c = c + 1) begin
        // A client told it holds x is its holder, at the depth it was told; a client
        // not reset that holds it was told so.
        if (holds[c]) begin
          assert (rd_state[1:0] == TypeMutex);
          assert (rd_state[15:8] == c);
          assert (rd_state[31:16] == dep_n[c*16 +: 16]);
        end
        if (rd_state[1:0] == TypeMutex && rd_state[31:16] != 16'd0 && rd_state[15:8] == c &&
            !dirty_q[c]) assert (holds[c]);
        // A blocked client waits on what it called (a condition wait: the condition or
        // its mutex); a client not blocked waits on nothing.
        if (!waiting[c]) assert (!rd_waiters[c]);
        else if (op_q[c*4 +: 4] == OpCondWait) begin
          if (rd_waiters[c]) assert (x == obj_q[c*8 +: 8] || x == mtx_q[c*8 +: 8]);
        end else begin
          assert (op_q[c*4 +: 4] == OpSemWait || op_q[c*4 +: 4] == OpMutexLock);
          assert (rd_waiters[c] == (x == obj_q[c*8 +: 8] && x < NO));
        end
      end
    end
  end

  // ---- covers (yosys-smtbmc -c): the cases above are reached ------------------------------
  logic [NC-1:0] cov_other_waits;
  always @* begin
    for (c = 0; c < NC; c = c + 1) begin
      cov_other_waits[c] = 1'b0;
      for (d = 0; d < NC; d = d + 1)
        if (d != c && waiting[d] && obj_q[d*8 +: 8] == obj_q[c*8 +: 8]) cov_other_waits[c] = 1'b1;
    end
  end
  always @(posedge clk_i) begin
    if (rst_ni && !$initstate) begin
      // A lock waiter woken while another waits on the same mutex.
      cover (rsp_ok[0] && wk_q[0] && op_q[3:0] == OpMutexLock && cov_other_waits[0]);
      // A semaphore waiter woken while another waits on it.
      cover (rsp_ok[1] && wk_q[1] && op_q[7:4] == OpSemWait && cov_other_waits[1]);
      // A post at the maximum.
      cover (rsp_valid[2] && rsp_status[23:16] == StOverflow);
      // A wait that blocked and timed out.
      cover (rsp_valid[0] && wk_q[0] && rsp_status[7:0] == StTimedout);
      // A condition wait signalled back.
      cover (rsp_ok[1] && wk_q[1] && op_q[7:4] == OpCondWait);
      // A reset holder's mutex handed to its waiter.
      cover (rsp_ok[2] && wk_q[2] && op_q[11:8] == OpMutexLock && dirty_q[0]);
    end
  end
endmodule

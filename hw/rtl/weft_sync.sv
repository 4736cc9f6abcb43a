// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_sync: the synchronisation manager of the static region (docs/hw-services.md):
// hardware mutexes, counting semaphores and condition variables shared by every client
// (a slot's thread, a software context, a softcore thread), served without the CPU.
//
// A small engine over tables, as hthreads built its managers: the objects live in RAM
// (distributed RAM on an FPGA; one read port per use), each client has a few bits of
// wait state in flip-flops, and one event at a time is carried out in three steps of a
// cycle each: SELECT (the round-robin arbiter picks a client's event, whose fields are
// registered), READ (the objects it names, who waits on them and the most urgent of
// those waiters are read and registered) and EXECUTE (the decision; the tables and the
// answers are written). An event is a client's call, the end of a client's wait (a
// timeout or a cancel), or a mutex given up for a client that was reset. A call taken
// at an edge (req_ready_o high) that does not block is answered (rsp_valid_o) in the
// third cycle after it, and a waiter it wakes in the same cycle; the next event is
// selected in the cycle of those answers. A configuration, or a reset of a waiter READ
// looked at, during READ or EXECUTE sends the event back to READ.
//
// Objects 0..NumObjs-1 are configured by software (cfg_*): a semaphore (count, maximum),
// a mutex (normal, recursive or error-checking; optional priority inheritance) or a
// condition variable. A configuration takes two cycles: it is checked in the first and
// written at the end of the second, and the engine carries out no event in them (an
// event in READ or EXECUTE reads again). Clients 0..NumClients-1 each make one
// call at a time: req_valid_i with its fields held until req_ready_o.
//
// Calls (req_op_i, weft_osif_pkg::SyncOp*), POSIX's rules, with the answers of Weft's
// delegate where POSIX leaves the choice (docs/osif.md), so a thread gets the same
// answers on either side:
//   OpSemPost      count + 1, or a waiter woken; OVERFLOW at the maximum (unchanged)
//   OpSemWait      count - 1, else block (timed: TIMEDOUT when it passes; 0 never blocks)
//   OpSemTrywait   count - 1, else AGAIN
//   OpMutexLock    take it; recursive: once more by its owner (AGAIN past 65535); a
//                  non-recursive mutex locked again by its owner: INTERNAL (no deadlock);
//                  held elsewhere: block (timed as above)
//   OpMutexTrylock as lock, BUSY where lock would block or fail
//   OpMutexUnlock  PERM unless the client holds it; the last unlock hands it to the most
//                  urgent waiter
//   OpCondWait     req_mtx_i names the mutex, which the client must hold (PERM), a mutex
//                  (BADARGS) and the one the condition's other waiters use (BADARGS);
//                  releases it wholly and blocks; on every return holds it again, at the
//                  depth it had
//   OpCondSignal   the most urgent waiter goes on to take the mutex
//   OpCondBroadcast every waiter does
// An unknown op answers NOSYS, then (the delegate's order) a call on an object index out
// of range or not configured BADHANDLE, on an object of another type WRONG_TYPE. No
// failed call changes anything.
//
// Waiters are served most urgent first (eff_prio_o, 0 the most urgent), first come first
// within a priority: an age matrix orders the clients that wait. A blocked call ends
// CANCELED when cancel_i is high at its selection (a call that would block with cancel_i
// high is answered CANCELED at once), TIMEDOUT once its timeout has passed: a timed wait
// of t microseconds ends after more than t and at most t + 1 microseconds of ClockMhz
// cycles (a microsecond counter runs while a timed wait counts; the wait's deadline is
// checked by a scan of one client per cycle, so the end is selected at most NumClients
// cycles after it). A condition wait that ends so, or is signalled, still takes its mutex
// back before it is answered; from then on it waits like a lock that no timeout or
// cancel ends.
//
// Priority inheritance (a mutex configured with it): a client's effective priority is
// the more urgent of its own (prio_i, registered) and those of the clients blocked on
// the mutexes it holds with inheritance. A sweep works it out for one client per cycle
// and runs after every event and change of prio_i until a whole round of the clients
// changes nothing (settled_o); a client's new value is written three cycles after its
// turn.
//
// flush_i (the client is reset) drops its call at once, waiting or not (a call selected
// and not yet carried out included: it is never answered). Its rising edge starts a scan
// of the objects, two cycles each, that gives up every mutex a reset client holds, each
// as an event (to its most urgent waiter); until the scan has passed every object no
// call of a reset client is taken. A reset client is never chosen as a waiter, so no post or mutex is
// handed to a thread that is gone.
module weft_sync #(
  /// Objects (mutexes, semaphores, condition variables), 1 to 255 (index 255 names none:
  /// weft_osif_pkg::SyncNoObject).
  parameter int unsigned NumObjs = 32,
  /// Clients, 2 to 32.
  parameter int unsigned NumClients = 8,
  /// Fabric cycles per microsecond, for timed calls.
  parameter int unsigned ClockMhz = 100,
  /// Width of a client index (derived; do not override).
  parameter int unsigned CliW = $clog2(NumClients)
) (
  /// Fabric clock.
  input  logic                     clk_i,
  /// Active-low reset (asynchronous assert): every object unconfigured, no call.
  input  logic                     rst_ni,

  // ---- configuration (software) ----
  /// Configure object cfg_obj_i: checked in this cycle, written at the next edge (no event
  /// is carried out in either cycle).
  input  logic                     cfg_valid_i,
  /// The object (8 bits whatever NumObjs, so an index out of range can be refused).
  input  logic [7:0]               cfg_obj_i,
  /// The type (SYNC_TYPE_*: none, semaphore, mutex, condition).
  input  logic [1:0]               cfg_type_i,
  /// A mutex's kind (SYNC_KIND_*: normal, recursive, error-checking).
  input  logic [1:0]               cfg_kind_i,
  /// A mutex inherits its waiters' priority.
  input  logic                     cfg_pi_i,
  /// A semaphore's count.
  input  logic [15:0]              cfg_count_i,
  /// A semaphore's maximum (1 to 65535, at least the count).
  input  logic [15:0]              cfg_max_i,
  /// The configuration of the cycle before was carried out (OK) or refused: BADHANDLE
  /// (index out of range), BADARGS (kind 3; a semaphore's maximum 0 or below its count),
  /// BUSY (the object is in use: a mutex held, a waiter, a condition's waiter that will
  /// take this mutex); valid for one cycle after cfg_valid_i.
  output logic [7:0]               cfg_status_o,

  // ---- inspection (software) ----
  /// The object inspected.
  input  logic [7:0]               rd_obj_i,
  /// Its state is being read (rd_state_o and rd_waiters_o are 0 otherwise).
  input  logic                     rd_en_i,
  /// Its state: [1:0] type, [3:2] kind, [4] inheritance, [15:8] holder of a mutex,
  /// [31:16] a semaphore's count or a mutex's depth (0: free).
  output logic [31:0]              rd_state_o,
  /// Clients blocked on it (waiting for it).
  output logic [NumClients-1:0]    rd_waiters_o,

  // ---- clients ----
  /// A call waits; its fields are held until req_ready_o.
  input  logic [NumClients-1:0]    req_valid_i,
  /// The call is taken at this edge.
  output logic [NumClients-1:0]    req_ready_o,
  /// Per client, 4 bits: the call (weft_osif_pkg::SyncOp*).
  input  logic [NumClients*4-1:0]  req_op_i,
  /// Per client, 8 bits: the object.
  input  logic [NumClients*8-1:0]  req_obj_i,
  /// Per client, 8 bits: a condition wait's mutex.
  input  logic [NumClients*8-1:0]  req_mtx_i,
  /// Per client: the call is timed.
  input  logic [NumClients-1:0]    req_timed_i,
  /// Per client, 32 bits: a timed call's timeout in microseconds.
  input  logic [NumClients*32-1:0] req_tmo_i,
  /// Per client, 7 bits: its priority, 0 the most urgent.
  input  logic [NumClients*7-1:0]  prio_i,
  /// Per client: end its blocked call with CANCELED.
  input  logic [NumClients-1:0]    cancel_i,
  /// Per client: it is reset (drop its call; give up its mutexes).
  input  logic [NumClients-1:0]    flush_i,
  /// Per client: its call is answered now (one cycle).
  output logic [NumClients-1:0]    rsp_valid_o,
  /// Per client, 8 bits: the answer's status.
  output logic [NumClients*8-1:0]  rsp_status_o,
  /// Per client: it is blocked in a call.
  output logic [NumClients-1:0]    waiting_o,
  /// Per client, 7 bits: its effective priority (with what it inherits).
  output logic [NumClients*7-1:0]  eff_prio_o,
  /// The effective priorities follow prio_i and the waits: the inheritance sweep has
  /// nothing left to do.
  output logic                     settled_o,
  /// The next edge changes no register here (a simulator hint, docs/architecture.md).
  output logic                     still_o
);

  // Object types and the recursive kind, as the SYNC_CFG register fields have them.
  localparam logic [1:0] TypeNone = 2'(weft_osif_pkg::SyncTypeNone);
  localparam logic [1:0] TypeSem = 2'(weft_osif_pkg::SyncTypeSem);
  localparam logic [1:0] TypeMutex = 2'(weft_osif_pkg::SyncTypeMutex);
  localparam logic [1:0] TypeCond = 2'(weft_osif_pkg::SyncTypeCond);
  localparam logic [1:0] KindRecursive = 2'(weft_osif_pkg::SyncKindRecursive);

  localparam int NC = NumClients;  // signed copy for loop bounds
  localparam int unsigned ObjW = (NumObjs > 1) ? $clog2(NumObjs) : 1;
  localparam int unsigned PreW = (ClockMhz > 1) ? $clog2(ClockMhz) : 1;
  localparam int unsigned SweepW = $clog2(NumClients + 1);
  localparam int unsigned ScanW = $clog2(NumObjs + 1);

  // Wait outcomes kept per client: what a waiter is answered once it has its mutex back.
  localparam logic [1:0] WsOk = 2'd0, WsTimedout = 2'd1, WsCanceled = 2'd2;
  function automatic logic [7:0] ws_status(input logic [1:0] ws);
    unique case (ws)
      WsTimedout: ws_status = weft_osif_pkg::StatusTimedout;
      WsCanceled: ws_status = weft_osif_pkg::StatusCanceled;
      default:    ws_status = weft_osif_pkg::StatusOk;
    endcase
  endfunction

  // ---- the tables ----------------------------------------------------------------------
  // Per object (RAM): meta = {inheritance, kind, type}, written by configurations only;
  // held = {holder, count} (a semaphore's count, a mutex's depth: 0 free), written by
  // configurations and events; aux = a semaphore's maximum, or a condition's mutex while
  // it has waiters.
  localparam int unsigned MetaW = 5, HeldW = 16 + CliW;
  // The tables have a power of two of entries, so that an index is its low bits (no
  // compare before a read); entries past NumObjs are never written, and what an index
  // out of range reads is never used (in_range says so in parallel).
  localparam int unsigned ObjN = 1 << ObjW;
  logic [MetaW-1:0] meta_mem [ObjN];
  logic [HeldW-1:0] held_mem [ObjN];
  logic [15:0]      aux_mem  [ObjN];
  // Per client (RAM): the depth it gets with a mutex, a timed wait's deadline.
  logic [15:0]      rcnt_mem [NumClients];
  logic [32:0]      dl_mem   [NumClients];

  // Per client (flip-flops): blocked (wait_q), on which object and what kind of wait
  // (wcond_q: a condition; hold_q: retaking its mutex after a condition wait, which no
  // timeout or cancel ends, answering wstat_q); wpi_q/wown_q: it waits on a mutex with
  // inheritance, held by wown_q; wcm_q: a condition waiter's mutex; timed, and its
  // deadline passed; reset, with mutexes perhaps still to give up; the answer in flight;
  // the effective priority.
  logic [NumClients-1:0]      wait_q, hold_q, wcond_q, wpi_q, timed_q, expired_q, dead_q,
                              rspv_q, flush_seen_q;
  logic [NumClients*8-1:0]    wobj_q, wcm_q, rsps_q;
  logic [NumClients*CliW-1:0] wown_q;
  logic [NumClients*2-1:0]    wstat_q;
  logic [NumClients*7-1:0]    eff_q, prio_q;
  // older_q[v*NumClients + w], v < w: waiter v came before waiter w.
  logic [NumClients*NumClients-1:0] older_q;

  function automatic logic in_range(input logic [7:0] idx);
    in_range = 32'(idx) < NumObjs;
  endfunction
  function automatic logic [ObjW-1:0] oidx(input logic [7:0] idx);
    logic unused_hi;
    unused_hi = ^idx;
    oidx = idx[ObjW-1:0];
  endfunction

  // ---- the engine -------------------------------------------------------------------------
  // SELECT (StIdle: an event is chosen and its fields registered), READ (the objects it
  // names and their waiters are read and registered), EXECUTE (the decision; the tables
  // and answers are written). A configuration in READ or EXECUTE sends the event back to
  // READ (what it read may have changed); so does a reset of one of the waiters it read.
  typedef enum logic [1:0] {StIdle, StRead, StExec} st_e;
  typedef enum logic [1:0] {EvCall, EvEnd, EvReap} ev_e;
  st_e             st_q;
  ev_e             ev_q;
  logic [CliW-1:0] g_q;         // its client
  logic [3:0]      op_q;
  logic [7:0]      o_q, m_q;    // the call's object (a reaped mutex) and mutex
  logic [7:0]      m2_q;        // a condition wait's mutex, or the mutex of the condition
                                // whose wait ends
  logic            timed_q_g, cancel_q_g;
  logic [31:0]     tmo_q_g;

  // ---- the scan of the objects for mutexes of reset clients ----
  // Two cycles an object: LOOK reads it (scan_found_q: a mutex a reset client holds),
  // ACT has its reap selected, or moves on.
  logic [ScanW-1:0] scan_left_q;
  logic [ObjW-1:0]  scan_ptr_q;
  logic             scan_act_q, scan_found_q, scan_found, scan_wait;
  assign scan_found = scan_act_q && scan_found_q;
  // LOOK waits while a reap of its object is still to be written (a reset restarted the
  // scan while it was in READ or EXECUTE), so that it never finds a mutex given up twice.
  assign scan_wait = st_q != StIdle && ev_q == EvReap && o_q == 8'(scan_ptr_q);

  // ---- SELECT: what each client wants carried out; the reap of the scan goes first ----
  logic [NumClients-1:0] ends, want, gnt;
  logic                  free, select, sel_reap, sel_call;
  assign free = st_q == StIdle && !cfg_busy;
  always_comb begin
    for (int c = 0; c < NC; c++) begin
      ends[c] = wait_q[c] && !hold_q[c] && (cancel_i[c] || expired_q[c]);
      want[c] = free && !scan_found && !flush_i[c] &&
                (ends[c] || (req_valid_i[c] && !wait_q[c] && !dead_q[c]));
    end
  end
  weft_rr_arbiter #(.NumReq(NumClients)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (want),
    .advance_i(1'b1),
    .gnt_o    (gnt)
  );
  assign sel_reap = free && scan_found;
  assign select   = sel_reap || gnt != '0;
  assign sel_call = (gnt & ~ends) != '0;
  assign req_ready_o = gnt & ~ends;

  // The granted client's fields, through AND-OR (gnt is one-hot).
  logic [CliW-1:0] g_sel;
  logic [3:0]      s_op;
  logic [7:0]      s_obj, s_mtx, s_cm;
  logic            s_timed, s_cancel;
  logic [31:0]     s_tmo;
  always_comb begin
    g_sel = '0;
    s_op = '0;
    s_obj = '0;
    s_mtx = '0;
    s_cm = '0;
    s_timed = 1'b0;
    s_cancel = 1'b0;
    s_tmo = '0;
    for (int c = 0; c < NC; c++) begin
      if (gnt[c]) begin
        g_sel = g_sel | CliW'(c);
        s_op = s_op | req_op_i[c*4 +: 4];
        s_obj = s_obj | req_obj_i[c*8 +: 8];
        s_mtx = s_mtx | req_mtx_i[c*8 +: 8];
        s_cm = s_cm | wcm_q[c*8 +: 8];
        s_timed = s_timed | req_timed_i[c];
        s_cancel = s_cancel | cancel_i[c];
        s_tmo = s_tmo | req_tmo_i[c*32 +: 32];
      end
    end
  end

  // ---- READ: the event's objects, and who waits on them ----
  logic [7:0] m2;
  assign m2 = m2_q;
  logic sel_m2;  // the event serves the waiters of m2 (a condition wait gives its mutex up)
  assign sel_m2 = ev_q == EvCall && op_q == weft_osif_pkg::SyncOpCondWait;
  logic [NumClients-1:0] w_o, w_m2, cand, best;
  logic            best_any;
  always_comb begin
    for (int w = 0; w < NC; w++) begin
      w_o[w]  = st_q == StRead && wait_q[w] && wobj_q[w*8 +: 8] == o_q;
      w_m2[w] = st_q == StRead && wait_q[w] && wobj_q[w*8 +: 8] == m2;
    end
    // Best waiter: most urgent effective priority, then the oldest.
    cand = (sel_m2 ? w_m2 : w_o) & ~flush_i;
    best = cand;
    for (int v = 0; v < NC; v++) begin
      for (int w = v + 1; w < NC; w++) begin
        logic v_first;  // v goes before w
        v_first = eff_q[v*7 +: 7] < eff_q[w*7 +: 7] ||
                  (eff_q[v*7 +: 7] == eff_q[w*7 +: 7] && older_q[v*NC + w]);
        if (cand[v] && cand[w]) begin
          if (v_first) best[w] = 1'b0;
          else best[v] = 1'b0;
        end
      end
    end
    best_any = |best;
  end

  // Registered by READ for EXECUTE.
  logic [15:0]           g_rcnt_q;
  logic [NumClients-1:0] w_o_q, w_m2_q, cand_q, best_q;
  logic                  best_any_q;
  logic [CliW-1:0]       bw_q;   // best_q's client
  always_comb begin
    bw_q = '0;
    for (int w = 0; w < NC; w++) if (best_q[w]) bw_q = bw_q | CliW'(w);
  end

  // ---- EXECUTE ----
  // What READ found, as the flags the decision needs (compares and sums made in READ).
  logic        o_ok, o_is_sem, o_is_mutex, o_is_cond, o_zero, o_one, o_at_max, o_full, o_mine,
               o_rec, o_waited, m_is_mutex, m_zero, m_mine, m_other_cond, noblock, oa_held,
               o_pi, m_pi, oa_pi;
  logic [15:0] o_inc, o_dec, m_cnt;
  logic [CliW-1:0] o_own, m_own, oa_own;
  logic [7:0]  oa;  // the mutex of condition o
  // The event's plan: what it does for the waiters of the object it serves (sel: o, or
  // m2 for a condition wait); wr_*: the one object whose count and holder it writes.
  typedef enum logic [2:0] {
    ActNone,       // nothing for a waiter
    ActWake,       // the best waiter is answered (its wstat), owning wr_obj if a mutex
    ActToMutex,    // the best waiter of the condition goes on to wait for its mutex
    ActBroadcast   // every waiter of the condition does; the best takes the mutex if free
  } act_e;
  typedef enum logic [1:0] {WrO, WrM2, WrOa} wr_e;
  act_e        act;
  wr_e         wr_at;
  logic        ans, blk, g_done, to_hold, wr_en, aux_en, g_takes;
  logic [7:0]  ans_st, wr_obj;
  logic [15:0] wr_cnt, blk_rcnt;
  logic        exec;   // EXECUTE carries the event out in this cycle
  logic        g_is_client, g_flushed, cand_flushed;
  assign g_is_client  = ev_q != EvReap;
  assign g_flushed    = g_is_client && flush_i[g_q];
  assign cand_flushed = (cand_q & flush_i) != '0;
  assign exec = st_q == StExec && !cfg_busy && !g_flushed && !cand_flushed;

  // Blocking is refused at once when it cannot wait: a timeout of 0 or a pending cancel.
  logic [7:0] noblock_st;
  assign noblock_st = cancel_q_g ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;

  always_comb begin
    act = ActNone;
    ans = 1'b0;
    ans_st = weft_osif_pkg::StatusOk;
    blk = 1'b0;
    blk_rcnt = 16'd1;
    g_done = 1'b0;
    to_hold = 1'b0;
    wr_en = 1'b0;
    wr_at = WrO;
    wr_cnt = o_dec;
    g_takes = 1'b0;
    aux_en = 1'b0;

    if (st_q != StExec) begin
      // no event
    end else if (ev_q == EvReap) begin
      // A reset client's mutex: to the best waiter, or free.
      wr_en = 1'b1;
      wr_cnt = '0;
      if (best_any_q) act = ActWake;
    end else if (ev_q == EvEnd) begin
      ans_st = cancel_q_g ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
      if (wcond_q[g_q]) begin
        // Still has to take its mutex back: at once if free, else as a lock wait.
        if (m_zero) begin
          g_done = 1'b1;
          ans = 1'b1;
          wr_en = 1'b1;
          wr_at = WrM2;
          wr_cnt = g_rcnt_q;
          g_takes = 1'b1;
        end else begin
          to_hold = 1'b1;
        end
      end else begin
        g_done = 1'b1;
        ans = 1'b1;
      end
    end else begin
      ans = 1'b1;  // cleared below where the call blocks
      // The delegate's order: an unknown call first, then the object.
      if (op_q > weft_osif_pkg::SyncOpCondBroadcast) begin
        ans_st = weft_osif_pkg::StatusNosys;
      end else if (!o_ok) begin
        ans_st = weft_osif_pkg::StatusBadhandle;
      end else unique case (op_q)
        weft_osif_pkg::SyncOpSemPost: begin
          if (!o_is_sem) ans_st = weft_osif_pkg::StatusWrongType;
          else if (best_any_q) act = ActWake;
          else if (o_at_max) ans_st = weft_osif_pkg::StatusOverflow;
          else begin
            wr_en = 1'b1;
            wr_cnt = o_inc;
          end
        end
        weft_osif_pkg::SyncOpSemWait, weft_osif_pkg::SyncOpSemTrywait: begin
          if (!o_is_sem) ans_st = weft_osif_pkg::StatusWrongType;
          else if (!o_zero) begin
            wr_en = 1'b1;
            wr_cnt = o_dec;
          end else if (op_q == weft_osif_pkg::SyncOpSemTrywait) ans_st = weft_osif_pkg::StatusAgain;
          else if (noblock) ans_st = noblock_st;
          else begin
            ans = 1'b0;
            blk = 1'b1;
          end
        end
        weft_osif_pkg::SyncOpMutexLock, weft_osif_pkg::SyncOpMutexTrylock: begin
          if (!o_is_mutex) ans_st = weft_osif_pkg::StatusWrongType;
          else if (o_zero) begin
            wr_en = 1'b1;
            wr_cnt = 16'd1;
            g_takes = 1'b1;
          end else if (o_mine && o_rec) begin
            if (o_full) ans_st = weft_osif_pkg::StatusAgain;
            else begin
              wr_en = 1'b1;
              wr_cnt = o_inc;
            end
          end else if (op_q == weft_osif_pkg::SyncOpMutexTrylock) ans_st = weft_osif_pkg::StatusBusy;
          else if (o_mine) ans_st = weft_osif_pkg::StatusInternal;
          else if (noblock) ans_st = noblock_st;
          else begin
            ans = 1'b0;
            blk = 1'b1;
          end
        end
        weft_osif_pkg::SyncOpMutexUnlock: begin
          if (!o_is_mutex) ans_st = weft_osif_pkg::StatusWrongType;
          else if (o_zero || !o_mine) ans_st = weft_osif_pkg::StatusPerm;
          else begin
            wr_en = 1'b1;
            wr_cnt = o_dec;
            if (o_one && best_any_q) act = ActWake;
          end
        end
        weft_osif_pkg::SyncOpCondWait: begin
          if (!o_is_cond) ans_st = weft_osif_pkg::StatusWrongType;
          else if (!m_is_mutex || (o_waited && m_other_cond)) ans_st = weft_osif_pkg::StatusBadargs;
          else if (m_zero || !m_mine) ans_st = weft_osif_pkg::StatusPerm;
          else if (noblock) ans_st = noblock_st;
          else begin
            // Give the mutex up wholly (to its best waiter) and wait on the condition.
            ans = 1'b0;
            blk = 1'b1;
            blk_rcnt = m_cnt;
            aux_en = 1'b1;
            wr_en = 1'b1;
            wr_at = WrM2;
            wr_cnt = '0;
            if (best_any_q) act = ActWake;
          end
        end
        weft_osif_pkg::SyncOpCondSignal, weft_osif_pkg::SyncOpCondBroadcast: begin
          if (!o_is_cond) ans_st = weft_osif_pkg::StatusWrongType;
          else if (best_any_q) begin
            act = (op_q == weft_osif_pkg::SyncOpCondSignal) ? ActToMutex : ActBroadcast;
            wr_at = WrOa;
          end
        end
        default: ans_st = weft_osif_pkg::StatusNosys;
      endcase
    end
  end
  assign wr_obj = (wr_at == WrM2) ? m2 : (wr_at == WrOa) ? oa : o_q;

  // Waking the best waiter: a mutex is its at its saved depth; a semaphore post or a
  // condition's waiter that finds the mutex free wakes it too.
  logic        wake, bw_takes;
  logic [15:0] bw_rcnt;
  assign wake     = best_any_q && (act == ActWake ||
                                   ((act == ActToMutex || act == ActBroadcast) && !oa_held));
  assign bw_takes = wake && !(ev_q == EvCall && op_q == weft_osif_pkg::SyncOpSemPost);
  assign bw_rcnt  = rcnt_mem[bw_q];
  // The holder wr_obj gets; waiters moved from a condition to its mutex wait for its holder.
  logic [CliW-1:0] new_own, moved_own;
  assign new_own   = bw_takes ? bw_q : g_takes ? g_q : o_own;
  assign moved_own = bw_takes ? bw_q : oa_own;

  // Per client, what the event does to it. (A mutex handed on has waiters only on o or
  // m2: a condition's mutex taken by its best waiter was free, so nobody waited on it.)
  logic [NumClients-1:0] is_g, is_bw, moves, handed;
  always_comb begin
    for (int c = 0; c < NC; c++) begin
      is_g[c]   = exec && g_is_client && g_q == CliW'(c);
      is_bw[c]  = exec && wake && best_q[c];
      moves[c]  = exec && cand_q[c] && ((act == ActToMutex && best_q[c]) || act == ActBroadcast);
      handed[c] = exec && bw_takes && wait_q[c] &&
                  ((wr_at == WrO && w_o_q[c]) || (wr_at == WrM2 && w_m2_q[c]));
    end
  end

  // ---- configuration checks ----------------------------------------------------------
  logic       c_used, c_held;
  logic [7:0] c_st;
  logic [MetaW-1:0] c_meta;
  logic [HeldW-1:0] c_heldw;
  assign c_meta  = meta_mem[oidx(cfg_obj_i)];
  assign c_heldw = held_mem[oidx(cfg_obj_i)];
  assign c_held  = c_meta[1:0] == TypeMutex && c_heldw[15:0] != '0;
  always_comb begin
    c_used = c_held;
    for (int w = 0; w < NC; w++) begin
      if (wait_q[w] && (wobj_q[w*8 +: 8] == cfg_obj_i ||
                        (wcond_q[w] && wcm_q[w*8 +: 8] == cfg_obj_i))) begin
        c_used = 1'b1;
      end
    end
    if (!in_range(cfg_obj_i)) c_st = weft_osif_pkg::StatusBadhandle;
    else if (cfg_kind_i == 2'd3 ||
             (cfg_type_i == TypeSem && (cfg_max_i == '0 || cfg_count_i > cfg_max_i)))
      c_st = weft_osif_pkg::StatusBadargs;
    else if (c_used) c_st = weft_osif_pkg::StatusBusy;
    else c_st = weft_osif_pkg::StatusOk;
  end
  // A configuration checked in its cycle is written in the next (cfg_wr_q); the engine
  // carries out no event in either, so the check still holds when it is written.
  logic        cfg_wr_q, cfg_busy, cfg_pi_q;
  logic [ObjW-1:0] cfg_obj_q;
  logic [1:0]  cfg_type_q, cfg_kind_q;
  logic [15:0] cfg_count_q, cfg_max_q;
  assign cfg_busy = cfg_valid_i || cfg_wr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_wr_q <= 1'b0;
      cfg_obj_q <= '0;
      cfg_type_q <= '0;
      cfg_kind_q <= '0;
      cfg_pi_q <= 1'b0;
      cfg_count_q <= '0;
      cfg_max_q <= '0;
    end else begin
      cfg_wr_q <= cfg_valid_i && c_st == weft_osif_pkg::StatusOk;
      if (cfg_valid_i) begin
        cfg_obj_q <= oidx(cfg_obj_i);
        cfg_type_q <= cfg_type_i;
        cfg_kind_q <= cfg_kind_i;
        cfg_pi_q <= cfg_type_i == TypeMutex && cfg_pi_i;
        cfg_count_q <= (cfg_type_i == TypeSem) ? cfg_count_i : 16'd0;
        cfg_max_q <= (cfg_type_i == TypeSem) ? cfg_max_i : 16'd0;
      end
    end
  end

  // ---- the scan for mutexes of reset clients ---------------------------------------------
  logic [MetaW-1:0] s_meta;
  logic [15:0]      s_cnt;
  logic [CliW-1:0]  s_own;
  assign s_meta = meta_mem[scan_ptr_q];
  assign {s_own, s_cnt} = held_mem[scan_ptr_q];

  // ---- timeouts: a microsecond counter while a wait counts; one deadline checked a cycle --
  logic [PreW-1:0] pre_q;
  logic [32:0]     now_q;
  logic [CliW-1:0] tscan_q;
  logic [NumClients-1:0] counting;
  logic            any_counting, due;
  logic [32:0]     left_us;  // the scanned wait's deadline minus now: negative once due
  assign counting     = wait_q & ~hold_q & timed_q & ~expired_q;
  assign any_counting = counting != '0;
  assign left_us      = now_q - dl_mem[tscan_q];
  assign due          = counting[tscan_q] && !left_us[32];

  // ---- the inheritance sweep: one client a cycle, in three steps ------------------------
  // The most urgent effective priority of the waiters on inheriting mutexes the client
  // sp_q holds, by a tree of compares cut in two (so that no step is more than a few
  // compares deep): its first levels, then the rest; then, with the client's own
  // priority, into eff_q.
  localparam int unsigned TreeN = 1 << CliW;
  localparam int unsigned Half = (CliW + 1) / 2;       // tree levels of the first step
  localparam int unsigned PartN = TreeN >> Half;       // the values between the steps
  logic [SweepW-1:0] sweep_q;  // clients still to look at before the priorities are settled
  logic [CliW-1:0]   sp_q, pa_q, pc_q;
  logic              pavalid_q, pvalid_q;
  logic [PartN*7-1:0] part_d, part_q;
  logic [6:0]        pmin_d, pmin_q, pnew;
  logic              prio_changed, sweep_changes;
  assign prio_changed = prio_i != prio_q;
  localparam int TreeNS = TreeN, PartNS = PartN, HalfN = 1 << Half;  // signed loop bounds
  logic [TreeN*7-1:0] tv;
  logic [PartN*7-1:0] pv;
  always_comb begin
    for (int w = 0; w < TreeNS; w++) begin
      tv[w*7 +: 7] = 7'h7f;
      if (w < NC && sweep_q != '0 && wait_q[w] && wpi_q[w] &&
          wown_q[w*CliW +: CliW] == sp_q) tv[w*7 +: 7] = eff_q[w*7 +: 7];
    end
    for (int step = 1; step < HalfN; step = step * 2) begin
      for (int i = 0; i + step < TreeNS; i = i + 2 * step) begin
        if (tv[(i + step)*7 +: 7] < tv[i*7 +: 7]) tv[i*7 +: 7] = tv[(i + step)*7 +: 7];
      end
    end
    for (int k = 0; k < PartNS; k++) part_d[k*7 +: 7] = tv[(k * HalfN)*7 +: 7];
  end
  always_comb begin
    pv = part_q;
    for (int step = 1; step < PartNS; step = step * 2) begin
      for (int i = 0; i + step < PartNS; i = i + 2 * step) begin
        if (pv[(i + step)*7 +: 7] < pv[i*7 +: 7]) pv[i*7 +: 7] = pv[(i + step)*7 +: 7];
      end
    end
    pmin_d = pv[6:0];
  end
  assign pnew = (pmin_q < prio_q[pc_q*7 +: 7]) ? pmin_q : prio_q[pc_q*7 +: 7];
  assign sweep_changes = pvalid_q && pnew != eff_q[pc_q*7 +: 7];

  // ---- state update ----------------------------------------------------------------------
  // The tables (no reset: RAM), one write port each: a configuration and an event never
  // share a cycle.
  logic            held_we, aux_we;
  logic [ObjW-1:0] held_wa, aux_wa;
  logic [HeldW-1:0] held_wd;
  logic [15:0]     aux_wd;
  assign held_we = cfg_wr_q || (exec && (wr_en || g_takes || bw_takes));
  assign held_wa = cfg_wr_q ? cfg_obj_q : oidx(wr_obj);
  assign held_wd = cfg_wr_q ? {CliW'(0), cfg_count_q} :
                              {new_own, (wake && bw_takes) ? bw_rcnt : wr_cnt};
  assign aux_we  = cfg_wr_q || (exec && aux_en);
  assign aux_wa  = cfg_wr_q ? cfg_obj_q : oidx(o_q);
  assign aux_wd  = cfg_wr_q ? cfg_max_q : {8'd0, m_q};
  always_ff @(posedge clk_i) begin
    if (cfg_wr_q) meta_mem[cfg_obj_q] <= {cfg_pi_q, cfg_kind_q, cfg_type_q};
    if (held_we) held_mem[held_wa] <= held_wd;
    if (aux_we) aux_mem[aux_wa] <= aux_wd;
    if (exec && blk) begin
      rcnt_mem[g_q] <= blk_rcnt;
      dl_mem[g_q] <= now_q + 33'(tmo_q_g) + 33'd1;
    end
  end

  // What READ registers (no reset needed: EXECUTE reads only what READ wrote).
  logic [MetaW-1:0] r_o_meta, r_m_meta, r_oa_meta;
  logic [15:0]      r_o_cnt, r_o_aux, r_m_cnt, r_oa_cnt;
  logic [CliW-1:0]  r_o_own, r_m_own, r_oa_own;
  logic             r_o_ok, r_m_ok;
  assign r_o_meta = meta_mem[oidx(o_q)];
  assign {r_o_own, r_o_cnt} = held_mem[oidx(o_q)];
  assign r_o_aux  = aux_mem[oidx(o_q)];
  assign r_m_meta = meta_mem[oidx(m2)];
  assign {r_m_own, r_m_cnt} = held_mem[oidx(m2)];
  assign r_oa_meta = meta_mem[oidx(r_o_aux[7:0])];
  assign {r_oa_own, r_oa_cnt} = held_mem[oidx(r_o_aux[7:0])];
  assign r_o_ok = in_range(o_q) && r_o_meta[1:0] != TypeNone;
  assign r_m_ok = in_range(m2);
  always_ff @(posedge clk_i) begin
    if (st_q == StRead) begin
      o_ok         <= r_o_ok;
      o_is_sem     <= r_o_ok && r_o_meta[1:0] == TypeSem;
      o_is_mutex   <= r_o_ok && r_o_meta[1:0] == TypeMutex;
      o_is_cond    <= r_o_ok && r_o_meta[1:0] == TypeCond;
      o_rec        <= r_o_meta[3:2] == KindRecursive;
      o_pi         <= r_o_meta[4];
      o_zero       <= r_o_cnt == '0;
      o_one        <= r_o_cnt == 16'd1;
      o_at_max     <= r_o_cnt == r_o_aux;
      o_full       <= r_o_cnt == 16'hFFFF;
      o_mine       <= r_o_own == g_q;
      o_inc        <= r_o_cnt + 16'd1;
      o_dec        <= r_o_cnt - 16'd1;
      o_own        <= r_o_own;
      o_waited     <= w_o != '0;
      m_is_mutex   <= r_m_ok && r_m_meta[1:0] == TypeMutex;
      m_zero       <= !(r_m_ok && r_m_meta[1:0] == TypeMutex) || r_m_cnt == '0;
      m_mine       <= r_m_own == g_q;
      m_other_cond <= r_o_aux[7:0] != m_q;
      m_cnt        <= r_m_cnt;
      m_own        <= r_m_own;
      m_pi         <= r_m_meta[4];
      oa           <= r_o_aux[7:0];
      oa_held      <= in_range(r_o_aux[7:0]) && r_oa_meta[1:0] == TypeMutex && r_oa_cnt != '0;
      oa_own       <= r_oa_own;
      oa_pi        <= r_oa_meta[4];
      noblock      <= (timed_q_g && tmo_q_g == '0) || cancel_q_g;
      g_rcnt_q     <= rcnt_mem[g_q];
      w_o_q        <= w_o;
      w_m2_q       <= w_m2;
      cand_q       <= cand;
      best_q       <= best;
      best_any_q   <= best_any;
    end
  end

  logic [7:0] cfg_st_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StIdle;
      ev_q <= EvCall;
      g_q <= '0;
      op_q <= '0;
      o_q <= '0;
      m_q <= '0;
      m2_q <= '0;
      timed_q_g <= 1'b0;
      cancel_q_g <= 1'b0;
      tmo_q_g <= '0;
      scan_left_q <= '0;
      scan_ptr_q <= '0;
      scan_act_q <= 1'b0;
      scan_found_q <= 1'b0;
      pre_q <= '0;
      now_q <= '0;
      tscan_q <= '0;
      sweep_q <= '0;
      sp_q <= '0;
      pa_q <= '0;
      pc_q <= '0;
      pavalid_q <= 1'b0;
      pvalid_q <= 1'b0;
      part_q <= '0;
      pmin_q <= '0;
      prio_q <= '0;
      wait_q <= '0;
      hold_q <= '0;
      wcond_q <= '0;
      wpi_q <= '0;
      timed_q <= '0;
      expired_q <= '0;
      dead_q <= '0;
      rspv_q <= '0;
      flush_seen_q <= '0;
      wobj_q <= '0;
      wcm_q <= '0;
      rsps_q <= '0;
      wown_q <= '0;
      wstat_q <= '0;
      eff_q <= '0;
      older_q <= '0;
      cfg_st_q <= weft_osif_pkg::StatusOk;
    end else begin
      rspv_q <= '0;
      if (cfg_valid_i) cfg_st_q <= c_st;

      // The engine's steps.
      unique case (st_q)
        StIdle: if (select) begin
          st_q <= StRead;
          if (sel_reap) begin
            ev_q <= EvReap;
            o_q <= 8'(scan_ptr_q);
          end else begin
            ev_q <= sel_call ? EvCall : EvEnd;
            g_q <= g_sel;
            op_q <= s_op;
            o_q <= s_obj;
            m_q <= s_mtx;
            m2_q <= sel_call ? s_mtx : s_cm;
            timed_q_g <= s_timed;
            tmo_q_g <= s_tmo;
            cancel_q_g <= s_cancel;
          end
        end
        // A client reset after its event's selection: the event is dropped in READ or
        // EXECUTE, whatever else comes (its reset may last a cycle only).
        StRead: begin
          if (g_flushed) st_q <= StIdle;
          else if (!cfg_busy) st_q <= StExec;
        end
        default: begin  // StExec
          if (!g_flushed && (cfg_busy || cand_flushed)) st_q <= StRead;
          else st_q <= StIdle;
        end
      endcase

      // The scan: restarted when a client is reset; it waits at a mutex it must give up.
      flush_seen_q <= flush_i;
      if ((flush_i & ~flush_seen_q) != '0) begin
        dead_q <= dead_q | (flush_i & ~flush_seen_q);
        scan_left_q <= ScanW'(NumObjs);
        scan_ptr_q <= '0;
        scan_act_q <= 1'b0;
      end else if (scan_left_q != '0 && !scan_act_q && !scan_wait) begin
        scan_found_q <= s_meta[1:0] == TypeMutex && s_cnt != '0 && dead_q[s_own];
        scan_act_q <= 1'b1;
      end else if (scan_act_q && (!scan_found_q || sel_reap)) begin
        scan_act_q <= 1'b0;
        scan_ptr_q <= (32'(scan_ptr_q) == NumObjs - 1) ? '0 : scan_ptr_q + 1'b1;
        scan_left_q <= scan_left_q - 1'b1;
        if (scan_left_q == ScanW'(1)) dead_q <= '0;
      end

      // Timeouts.
      if (any_counting) begin
        if (32'(pre_q) == ClockMhz - 1) begin
          pre_q <= '0;
          now_q <= now_q + 33'd1;
        end else begin
          pre_q <= pre_q + 1'b1;
        end
        tscan_q <= (32'(tscan_q) == NumClients - 1) ? '0 : tscan_q + 1'b1;
        if (due) expired_q[tscan_q] <= 1'b1;
      end

      // The inheritance sweep, restarted by anything that may change a priority.
      prio_q <= prio_i;
      pavalid_q <= sweep_q != '0;
      pvalid_q <= pavalid_q;
      if (sweep_q != '0) begin
        pa_q <= sp_q;
        part_q <= part_d;
        sp_q <= (32'(sp_q) == NumClients - 1) ? '0 : sp_q + 1'b1;
      end
      if (pavalid_q) begin
        pc_q <= pa_q;
        pmin_q <= pmin_d;
      end
      if (sweep_changes) eff_q[pc_q*7 +: 7] <= pnew;
      if (exec || prio_changed || (flush_i & wait_q) != '0 || sweep_changes) begin
        sweep_q <= SweepW'(NumClients);
      end else if (sweep_q != '0) begin
        sweep_q <= sweep_q - 1'b1;
      end

      // Per client: the event's effects, then a reset.
      for (int c = 0; c < NC; c++) begin
        if (is_g[c]) begin
          if (ans) begin
            rspv_q[c] <= 1'b1;
            rsps_q[c*8 +: 8] <= ans_st;
          end
          if (g_done) begin
            wait_q[c] <= 1'b0;
            expired_q[c] <= 1'b0;
          end
          if (blk) begin
            wait_q[c] <= 1'b1;
            hold_q[c] <= 1'b0;
            wobj_q[c*8 +: 8] <= o_q;
            wcond_q[c] <= op_q == weft_osif_pkg::SyncOpCondWait;
            wcm_q[c*8 +: 8] <= m_q;
            wpi_q[c] <= o_pi;
            wown_q[c*CliW +: CliW] <= o_own;
            wstat_q[c*2 +: 2] <= WsOk;
            timed_q[c] <= timed_q_g;
            expired_q[c] <= 1'b0;
          end
          if (to_hold) begin
            hold_q[c] <= 1'b1;
            wobj_q[c*8 +: 8] <= m2;
            wcond_q[c] <= 1'b0;
            wpi_q[c] <= m_pi;
            wown_q[c*CliW +: CliW] <= m_own;
            wstat_q[c*2 +: 2] <= cancel_q_g ? WsCanceled : WsTimedout;
            expired_q[c] <= 1'b0;
          end
          // The client that starts to wait (or waits anew) is the newest waiter.
          if (blk || to_hold) begin
            for (int v = 0; v < NC; v++) begin
              if (v < c) older_q[v*NC + c] <= 1'b1;
              if (v > c) older_q[c*NC + v] <= 1'b0;
            end
          end
        end
        // Waiters of a signalled or broadcast condition go on to its mutex.
        if (moves[c]) begin
          wobj_q[c*8 +: 8] <= oa;
          hold_q[c] <= 1'b1;
          wcond_q[c] <= 1'b0;
          wpi_q[c] <= oa_pi;
          wown_q[c*CliW +: CliW] <= moved_own;
          wstat_q[c*2 +: 2] <= WsOk;
          expired_q[c] <= 1'b0;
        end
        if (handed[c]) wown_q[c*CliW +: CliW] <= bw_q;
        if (is_bw[c]) begin
          wait_q[c] <= 1'b0;
          expired_q[c] <= 1'b0;
          rspv_q[c] <= 1'b1;
          rsps_q[c*8 +: 8] <= ws_status(wstat_q[c*2 +: 2]);
        end
        // A reset client's call is dropped. (No answer is ever due to a reset client: it
        // is neither selected nor chosen, and its selected call is not carried out.)
        if (flush_i[c]) begin
          wait_q[c] <= 1'b0;
          hold_q[c] <= 1'b0;
          expired_q[c] <= 1'b0;
        end
      end
    end
  end

  // ---- outputs ---------------------------------------------------------------------------
  assign rsp_valid_o  = rspv_q;
  assign rsp_status_o = rsps_q;
  assign waiting_o    = wait_q;
  assign eff_prio_o   = eff_q;
  assign cfg_status_o = cfg_st_q;
  assign settled_o    = sweep_q == '0 && !pavalid_q && !pvalid_q && !prio_changed;

  logic [MetaW-1:0] r_meta;
  logic [HeldW-1:0] r_held;
  assign r_meta = meta_mem[oidx(rd_obj_i)];
  assign r_held = held_mem[oidx(rd_obj_i)];
  always_comb begin
    rd_state_o = '0;
    rd_waiters_o = '0;
    if (rd_en_i && in_range(rd_obj_i)) begin
      rd_state_o = {r_held[15:0], 8'(r_held[16 +: CliW]), 3'd0, r_meta};
      for (int w = 0; w < NC; w++) begin
        rd_waiters_o[w] = wait_q[w] && wobj_q[w*8 +: 8] == rd_obj_i;
      end
    end
  end

  // Still: no event selected or in flight, no answer to drop, no wait counting, the
  // priorities settled, no scan, no reset to see.
  assign still_o = !cfg_busy && !select && st_q == StIdle && rspv_q == '0 &&
                   !any_counting && sweep_q == '0 && !pavalid_q && !pvalid_q && !prio_changed &&
                   scan_left_q == '0 &&
                   flush_i == flush_seen_q && (flush_i & (wait_q | hold_q | expired_q)) == '0;

  // Fields each read does not use.
  logic unused;
  assign unused = ^{r_m_meta[3:2], r_oa_meta[3:2], r_oa_meta[0], r_o_aux[15:8], c_meta[4:2], c_heldw[HeldW-1:16], s_meta[4:2],
                    left_us[31:0]};

`ifndef SYNTHESIS
  if (NumObjs < 1 || NumObjs > 255) begin : gen_objs_check
    $error("weft_sync: NumObjs must be 1 to 255");
  end
  if (NumClients < 2 || NumClients > 32) begin : gen_clients_check
    $error("weft_sync: NumClients must be 2 to 32");
  end
  OneAnswerPerCall_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (rspv_q & wait_q) == '0);
  BestIsOne_A: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(best));
  BestIsCand_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      st_q == StExec |-> (best_q & ~cand_q) == '0);
  StillWaitersStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({wait_q, hold_q, wcond_q, wpi_q, timed_q, expired_q, dead_q, rspv_q,
                           wobj_q, wcm_q, wown_q, wstat_q}));
  StillEngineStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({st_q, scan_left_q, scan_act_q, sweep_q, pavalid_q, pvalid_q, pre_q, now_q, tscan_q}));
  StillOrderStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({eff_q, older_q, prio_q}));
`endif

endmodule

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_sync: the synchronisation manager of the static region (docs/hw-services.md):
// hardware mutexes, counting semaphores and condition variables shared by every client
// (a slot's thread, a software context, a softcore context), served without the CPU.
//
// Objects 0..NumObjs-1 are configured by software (cfg_*): a semaphore (count, maximum),
// a mutex (normal, recursive or error-checking; optional priority inheritance) or a
// condition variable. Clients 0..NumClients-1 each make one call at a time: req_valid_i
// with its fields held until req_ready_o (the call is taken at that edge). Every call is
// answered by one rsp_valid_o pulse with its status (weft_osif_pkg::Status*): at once, or
// when the call stops blocking. One event is carried out per cycle, in one cycle, whatever
// the objects and waiters hold: a call, the end of a wait (timeout, cancel) or a mutex
// given up by a client that was reset. Clients get their turn round robin; a
// configuration write takes the cycle before any of them.
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
// CANCELED while cancel_i is high (a call that would block with cancel_i high is
// answered CANCELED at once), TIMEDOUT when its timeout passes (microseconds of ClockMhz
// cycles). A condition wait that ends so, or is signalled, still takes its mutex back
// before it is answered; from then on it waits like a lock that no timeout or cancel ends.
//
// Priority inheritance (a mutex configured with it): a client's effective priority is
// the more urgent of its own (prio_i) and those of the clients blocked on the mutexes it
// holds with inheritance, recomputed every cycle from the registers (one step of a chain
// of holders per cycle).
//
// flush_i (the client was reset) drops its call at once, waiting or not, and its mutexes
// are given up one per cycle as events of that client (to their most urgent waiters);
// meanwhile no new call of it is taken. A reset client is never chosen as a waiter, so
// no post or mutex is handed to a thread that is gone.
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
  /// Configure object cfg_obj_i at this edge (no call is carried out in this cycle).
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
  /// The next edge changes no register here (a simulator hint, docs/architecture.md).
  output logic                     still_o
);

  // Object types and the recursive kind, as the SYNC_CFG register fields have them.
  localparam logic [1:0] TypeNone = 2'(weft_osif_pkg::SyncTypeNone);
  localparam logic [1:0] TypeSem = 2'(weft_osif_pkg::SyncTypeSem);
  localparam logic [1:0] TypeMutex = 2'(weft_osif_pkg::SyncTypeMutex);
  localparam logic [1:0] TypeCond = 2'(weft_osif_pkg::SyncTypeCond);
  localparam logic [1:0] KindRecursive = 2'(weft_osif_pkg::SyncKindRecursive);

  localparam int NO = NumObjs;     // signed copies for loop bounds
  localparam int NC = NumClients;
  localparam int unsigned PreW = (ClockMhz > 1) ? $clog2(ClockMhz) : 1;

  // ---- state --------------------------------------------------------------------------
  // Per object: type, kind, inheritance, count (a semaphore's count, a mutex's depth:
  // 0 free), aux (a semaphore's maximum; a condition's mutex while it has waiters), holder.
  logic [NumObjs*2-1:0]     typ_q;
  logic [NumObjs-1:0]       pi_q;
  logic [NumObjs*2-1:0]     kind_q;
  logic [NumObjs*16-1:0]    cnt_q, aux_q;
  logic [NumObjs*CliW-1:0]  own_q;
  // Per client: blocked (wait_q), on which object; hold_q: a condition wait that goes on
  // taking its mutex and that no timeout or cancel ends, answering wstat_q; rcnt_q: the
  // depth it gets with the mutex; a timed wait's microseconds and cycles into the current
  // one; dead_q: reset, mutexes still to give up; the answer in flight; effective priority.
  logic [NumClients-1:0]       wait_q, hold_q, timed_q, dead_q, rspv_q;
  logic [NumClients*8-1:0]     wobj_q, wstat_q, rsps_q;
  logic [NumClients*16-1:0]    rcnt_q;
  logic [NumClients*32-1:0]    tmo_q;
  logic [NumClients*PreW-1:0]  pre_q;
  logic [NumClients*7-1:0]     eff_q;
  // older_q[a*NumClients + b]: waiter a came before waiter b.
  logic [NumClients*NumClients-1:0] older_q;

  // ---- object records: every lookup of an object is one multiplexer of these -----------
  // Fields of a record (offsets): type, kind, inheritance, count, aux, holder.
  localparam int unsigned FTyp = 0, FKind = 2, FPi = 4, FCnt = 5, FAux = 21,
                          FOwn = 37, RecW = 37 + CliW;
  // Each lookup takes only the fields it needs (a multiplexer per bit): the whole record,
  // a waiter's view (WTyp: type, WPi: inheritance, WHeld: a mutex held, WAux: a
  // condition's mutex, WOwn: holder) and whether a mutex is held.
  localparam int unsigned WTyp = 0, WPi = 2, WHeld = 3, WAux = 4, WOwn = 12, WRecW = 12 + CliW;
  logic [NumObjs*RecW-1:0]  recs;
  logic [NumObjs*WRecW-1:0] wrecs;
  logic [NumObjs-1:0]       held;  // a mutex with a holder
  // Simulation-friendly style (docs/architecture.md): the tables and the logic that reads
  // them are worked out only while something needs them: an event (need_obj), a waiter
  // (need_w), a call, a waiter, a reset client or a configuration (need_held: not the
  // event itself, which is chosen from what reads `held`), an inspection (rd_en_i).
  logic need_obj, need_w, need_held, any;
  assign need_obj  = any;
  assign need_w    = wait_q != '0;
  assign need_held = need_w || dead_q != '0 || cfg_valid_i || req_valid_i != '0;
  always_comb begin
    held = '0;
    recs = '0;
    wrecs = '0;
    if (need_held) begin
      for (int k = 0; k < NO; k++) begin
        held[k] = typ_q[k*2 +: 2] == TypeMutex && cnt_q[k*16 +: 16] != '0;
      end
    end
    if (need_obj || rd_en_i) begin
      for (int k = 0; k < NO; k++) begin
        recs[k*RecW +: RecW] = {own_q[k*CliW +: CliW], aux_q[k*16 +: 16], cnt_q[k*16 +: 16],
                                pi_q[k], kind_q[k*2 +: 2], typ_q[k*2 +: 2]};
      end
    end
    if (need_w) begin
      for (int k = 0; k < NO; k++) begin
        wrecs[k*WRecW +: WRecW] = {own_q[k*CliW +: CliW], aux_q[k*16 +: 8], held[k], pi_q[k],
                                   typ_q[k*2 +: 2]};
      end
    end
  end

  // The view of the object each client waits on.
  logic [NumClients*WRecW-1:0] wrec;
  logic [NumClients-1:0]       wrec_in;  // always: a waiter's object is in range
  for (genvar w = 0; w < NumClients; w++) begin : gen_wrec
    weft_index_mux #(.N(NumObjs), .W(WRecW)) u_wrec (
      .table_i(wrecs), .idx_i(wobj_q[w*8 +: 8]), .en_i(wait_q[w]), .in_o(wrec_in[w]),
      .data_o(wrec[w*WRecW +: WRecW]));
  end

  // ---- priority inheritance: one step of every chain per cycle ---------------------------
  logic [NumClients*7-1:0] eff_d;
  always_comb begin
    eff_d = prio_i;
    if (need_w) for (int w = 0; w < NC; w++) begin
      if (wait_q[w] && wrec[w*WRecW + WPi] && wrec[w*WRecW + WHeld]) begin
        for (int c = 0; c < NC; c++) begin
          if (wrec[w*WRecW + WOwn +: CliW] == CliW'(c) && eff_q[w*7 +: 7] < eff_d[c*7 +: 7]) begin
            eff_d[c*7 +: 7] = eff_q[w*7 +: 7];
          end
        end
      end
    end
  end

  // ---- timeouts: microseconds of ClockMhz cycles, counted while blocked ----------------
  logic [NumClients-1:0] expired, counting;
  always_comb begin
    for (int c = 0; c < NC; c++) begin
      counting[c] = wait_q[c] && !hold_q[c] && timed_q[c];
      expired[c]  = counting[c] && tmo_q[c*32 +: 32] == '0;
    end
  end

  // ---- what each client wants done, and whose turn it is -----------------------------
  // owns: the client holds a mutex (a reset client gives them up, the lowest first: r).
  logic [NumClients-1:0] owns, ends, want, gnt;
  always_comb begin
    owns = '0;  // only a reset client's are looked at
    for (int c = 0; c < NC; c++) begin
      if (dead_q[c]) begin
        for (int k = 0; k < NO; k++) begin
          if (held[k] && own_q[k*CliW +: CliW] == CliW'(c)) owns[c] = 1'b1;
        end
      end
    end
    for (int c = 0; c < NC; c++) begin
      ends[c] = wait_q[c] && !hold_q[c] && (cancel_i[c] || expired[c]);
      // A reset client gives its mutexes up while it is held in reset.
      want[c] = !cfg_valid_i && (dead_q[c] ? owns[c] :
                                 (!flush_i[c] && (ends[c] || (req_valid_i[c] && !wait_q[c]))));
    end
  end

  weft_rr_arbiter #(.NumReq(NumClients)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (want),
    .advance_i(1'b1),
    .gnt_o    (gnt)
  );

  logic [CliW-1:0] g;
  always_comb begin
    any = |gnt;
    g = '0;
    for (int c = 0; c < NC; c++) begin
      if (gnt[c]) g = CliW'(c);
    end
  end
  // The granted client is reset (giving up mutexes), its wait ends, it is cancelled.
  logic g_dead, g_ends, g_cancel;
  assign g_dead   = |(gnt & dead_q);
  assign g_ends   = |(gnt & ends);
  assign g_cancel = |(gnt & cancel_i);
  // A call is taken only when it is the granted client's event (not an end or a reap).
  assign req_ready_o = (!g_dead && !g_ends) ? gnt : '0;

  // ---- the granted client's event ----------------------------------------------------
  logic [3:0]  op;
  logic [7:0]  o, m, r, cm;       // the call's object and mutex; a reset client's mutex;
                                  // the mutex of the condition the client waits on
  logic        timed;
  logic [31:0] tmo;
  logic [WRecW-1:0] g_wrec;       // the view of the object the client waits on
  logic [15:0] g_rcnt;
  // Everything of the granted client, through one multiplexer (an indexed part-select
  // would synthesise a shifter over the whole vector).
  localparam int unsigned GW = 4 + 8 + 8 + 1 + 32 + 16 + WRecW;
  logic [NumClients*GW-1:0] g_all;
  logic                     g_in;
  always_comb begin
    g_all = '0;
    if (any) for (int c = 0; c < NC; c++) begin
      g_all[c*GW +: GW] = {req_op_i[c*4 +: 4], req_obj_i[c*8 +: 8], req_mtx_i[c*8 +: 8],
                           req_timed_i[c], req_tmo_i[c*32 +: 32], rcnt_q[c*16 +: 16],
                           wrec[c*WRecW +: WRecW]};
    end
  end
  weft_index_mux #(.N(NumClients), .W(GW), .IdxW(CliW)) u_gmux (
    .table_i(g_all), .idx_i(g), .en_i(any), .in_o(g_in),
    .data_o({op, o, m, timed, tmo, g_rcnt, g_wrec}));
  always_comb begin
    cm    = g_wrec[WAux +: 8];
    r     = '0;
    if (g_dead) for (int k = NO - 1; k >= 0; k--) begin
      if (held[k] && own_q[k*CliW +: CliW] == g) begin
        r = 8'(k);
      end
    end
  end

  logic            o_in, m_in, cm_in, oa_in;  // in range
  logic [RecW-1:0] o_r, m_r;
  logic            cm_held;      // the mutex of the condition the client waits on is held
  weft_index_mux #(.N(NumObjs), .W(RecW)) u_orec (
    .table_i(recs), .idx_i(o), .en_i(need_obj), .in_o(o_in), .data_o(o_r));
  weft_index_mux #(.N(NumObjs), .W(RecW)) u_mrec (
    .table_i(recs), .idx_i(m), .en_i(need_obj), .in_o(m_in), .data_o(m_r));
  weft_index_mux #(.N(NumObjs), .W(1)) u_cmheld (
    .table_i(held), .idx_i(cm), .en_i(need_obj), .in_o(cm_in), .data_o(cm_held));

  logic [1:0]  o_typ, m_typ;
  logic [15:0] o_cnt, m_cnt, o_aux;
  logic [CliW-1:0] o_own, m_own;
  logic        o_rec, o_waited;   // o_waited: some client is blocked on o
  always_comb begin
    o_typ = o_r[FTyp +: 2];       // TypeNone out of range
    m_typ = m_r[FTyp +: 2];
    o_cnt = o_r[FCnt +: 16];
    m_cnt = m_r[FCnt +: 16];
    o_aux = o_r[FAux +: 16];
    o_own = o_r[FOwn +: CliW];
    m_own = m_r[FOwn +: CliW];
    o_rec = o_r[FKind +: 2] == KindRecursive;  // the kind of a mutex (the calls check the type)
    o_waited = 1'b0;
    if (any) for (int w = 0; w < NC; w++) begin
      if (wait_q[w] && wobj_q[w*8 +: 8] == o) o_waited = 1'b1;
    end
  end

  // The event's plan. sel: the object whose most urgent waiter the event serves;
  // wr_*: the one object whose count and holder it writes.
  typedef enum logic [2:0] {
    ActNone,       // nothing for a waiter
    ActWake,       // the best waiter of sel is answered (its wstat), owning wr_obj if a mutex
    ActToMutex,    // the best waiter of the condition goes on to wait for its mutex
    ActBroadcast   // every waiter of the condition does; the best takes the mutex if free
  } act_e;
  act_e        act;
  logic [7:0]  sel;
  logic        ans, blk, g_done;   // answer g now; g blocks; g's wait ends (answered)
  logic [7:0]  ans_st;
  logic        wr_en, aux_en, g_takes;  // g_takes: g becomes the holder of wr_obj
  logic [7:0]  wr_obj;
  logic [15:0] wr_cnt;
  logic        to_hold;            // g's ended condition wait goes on as a lock wait
  logic [7:0]  blk_obj;
  logic [15:0] blk_rcnt;

  // Best waiter of sel: most urgent effective priority, then the oldest.
  logic [NumClients-1:0] cand, best;
  logic            best_any;
  logic [CliW-1:0] bw;
  logic [15:0]     bw_rcnt;   // the depth the best waiter takes a mutex at
  logic [7:0]      bw_wstat;  // and what it is answered
  always_comb begin
    for (int w = 0; w < NC; w++) begin
      cand[w] = any && wait_q[w] && !flush_i[w] && wobj_q[w*8 +: 8] == sel;
    end
    for (int w = 0; w < NC; w++) begin
      best[w] = cand[w];
      if (cand[w]) for (int v = 0; v < NC; v++) begin
        if (v != w && cand[v] &&
            !(eff_q[w*7 +: 7] < eff_q[v*7 +: 7] ||
              (eff_q[w*7 +: 7] == eff_q[v*7 +: 7] && older_q[w*NC + v]))) begin
          best[w] = 1'b0;
        end
      end
    end
    best_any = |best;
    bw = '0;
    for (int w = 0; w < NC; w++) begin
      if (best[w]) bw = CliW'(w);
    end
  end

  // Blocking is refused at once when it cannot wait: a timeout of 0 or a pending cancel.
  logic [7:0] noblock_st;
  logic       noblock;
  assign noblock    = (timed && tmo == '0) || g_cancel;
  assign noblock_st = g_cancel ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;

  always_comb begin
    act = ActNone;
    sel = o;
    ans = 1'b0;
    ans_st = weft_osif_pkg::StatusOk;
    blk = 1'b0;
    blk_obj = o;
    blk_rcnt = 16'd1;
    g_done = 1'b0;
    to_hold = 1'b0;
    wr_en = 1'b0;
    wr_obj = o;
    wr_cnt = o_cnt;
    g_takes = 1'b0;
    aux_en = 1'b0;

    if (!any) begin
      // no event
    end else if (g_dead) begin
      // A reset client gives up its lowest mutex, to the best waiter or free.
      sel = r;
      wr_en = 1'b1;
      wr_obj = r;
      wr_cnt = '0;
      if (best_any) act = ActWake;
    end else if (g_ends) begin
      ans_st = g_cancel ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
      if (g_wrec[WTyp +: 2] == TypeCond) begin
        // Still has to take its mutex back: at once if free, else as a lock wait.
        if (!cm_held) begin
          g_done = 1'b1;
          ans = 1'b1;
          wr_en = 1'b1;
          wr_obj = cm;
          wr_cnt = g_rcnt;
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
      if (op > weft_osif_pkg::SyncOpCondBroadcast) begin
        ans_st = weft_osif_pkg::StatusNosys;
      end else if (!o_in || o_typ == TypeNone) begin
        ans_st = weft_osif_pkg::StatusBadhandle;
      end else unique case (op)
        weft_osif_pkg::SyncOpSemPost: begin
          if (o_typ != TypeSem) ans_st = weft_osif_pkg::StatusWrongType;
          else if (best_any) act = ActWake;
          else if (o_cnt == o_aux) ans_st = weft_osif_pkg::StatusOverflow;
          else begin
            wr_en = 1'b1;
            wr_cnt = o_cnt + 16'd1;
          end
        end
        weft_osif_pkg::SyncOpSemWait, weft_osif_pkg::SyncOpSemTrywait: begin
          if (o_typ != TypeSem) ans_st = weft_osif_pkg::StatusWrongType;
          else if (o_cnt != '0) begin
            wr_en = 1'b1;
            wr_cnt = o_cnt - 16'd1;
          end else if (op == weft_osif_pkg::SyncOpSemTrywait) ans_st = weft_osif_pkg::StatusAgain;
          else if (noblock) ans_st = noblock_st;
          else begin
            ans = 1'b0;
            blk = 1'b1;
          end
        end
        weft_osif_pkg::SyncOpMutexLock, weft_osif_pkg::SyncOpMutexTrylock: begin
          if (o_typ != TypeMutex) ans_st = weft_osif_pkg::StatusWrongType;
          else if (o_cnt == '0) begin
            wr_en = 1'b1;
            wr_cnt = 16'd1;
            g_takes = 1'b1;
          end else if (o_own == g && o_rec) begin
            if (o_cnt == 16'hFFFF) ans_st = weft_osif_pkg::StatusAgain;
            else begin
              wr_en = 1'b1;
              wr_cnt = o_cnt + 16'd1;
            end
          end else if (op == weft_osif_pkg::SyncOpMutexTrylock) ans_st = weft_osif_pkg::StatusBusy;
          else if (o_own == g) ans_st = weft_osif_pkg::StatusInternal;
          else if (noblock) ans_st = noblock_st;
          else begin
            ans = 1'b0;
            blk = 1'b1;
          end
        end
        weft_osif_pkg::SyncOpMutexUnlock: begin
          if (o_typ != TypeMutex) ans_st = weft_osif_pkg::StatusWrongType;
          else if (o_cnt == '0 || o_own != g) ans_st = weft_osif_pkg::StatusPerm;
          else begin
            wr_en = 1'b1;
            wr_cnt = o_cnt - 16'd1;
            if (o_cnt == 16'd1 && best_any) act = ActWake;
          end
        end
        weft_osif_pkg::SyncOpCondWait: begin
          if (o_typ != TypeCond) ans_st = weft_osif_pkg::StatusWrongType;
          else if (m_typ != TypeMutex || (o_waited && o_aux[7:0] != m))
            ans_st = weft_osif_pkg::StatusBadargs;
          else if (m_cnt == '0 || m_own != g) ans_st = weft_osif_pkg::StatusPerm;
          else if (noblock) ans_st = noblock_st;
          else begin
            // Give the mutex up wholly (to its best waiter) and wait on the condition.
            ans = 1'b0;
            blk = 1'b1;
            blk_rcnt = m_cnt;
            aux_en = 1'b1;
            sel = m;
            wr_en = 1'b1;
            wr_obj = m;
            wr_cnt = '0;
            if (best_any) act = ActWake;
          end
        end
        weft_osif_pkg::SyncOpCondSignal, weft_osif_pkg::SyncOpCondBroadcast: begin
          if (o_typ != TypeCond) ans_st = weft_osif_pkg::StatusWrongType;
          else if (best_any) begin
            act = (op == weft_osif_pkg::SyncOpCondSignal) ? ActToMutex : ActBroadcast;
            wr_obj = o_aux[7:0];
          end
        end
        default: ans_st = weft_osif_pkg::StatusNosys;
      endcase
    end
  end

  // Waking the best waiter of sel: a mutex is its at its saved depth; a semaphore post
  // or a condition's waiter that finds the mutex free wakes it too.
  logic mtx_free;  // the mutex of a signalled condition is free
  logic oa_held;
  weft_index_mux #(.N(NumObjs), .W(1)) u_oaheld (
    .table_i(held), .idx_i(o_aux[7:0]), .en_i(need_obj), .in_o(oa_in), .data_o(oa_held));
  assign mtx_free = !oa_held;
  logic wake;      // bw is answered (wstat_q) at this edge
  logic bw_takes;  // bw becomes the holder of wr_obj
  assign wake     = best_any && (act == ActWake ||
                                 ((act == ActToMutex || act == ActBroadcast) && mtx_free));
  assign bw_takes = wake && (g_dead || op != weft_osif_pkg::SyncOpSemPost || g_ends);
  logic [NumClients*24-1:0] bw_all;
  logic                     bw_in;
  always_comb begin
    bw_all = '0;
    if (any) for (int c = 0; c < NC; c++) begin
      bw_all[c*24 +: 24] = {rcnt_q[c*16 +: 16], wstat_q[c*8 +: 8]};
    end
  end
  weft_index_mux #(.N(NumClients), .W(24), .IdxW(CliW)) u_bwmux (
    .table_i(bw_all), .idx_i(bw), .en_i(any), .in_o(bw_in), .data_o({bw_rcnt, bw_wstat}));

  // Per client, what the event does to it: it is the granted one (gnt is one-hot), it is
  // the woken one (best is one-hot), it goes on from a condition to its mutex.
  logic [NumClients-1:0] is_g, is_bw, moves;
  always_comb begin
    for (int c = 0; c < NC; c++) begin
      is_g[c]  = gnt[c];
      is_bw[c] = wake && best[c];
      moves[c] = any && cand[c] && ((act == ActToMutex && best[c]) || act == ActBroadcast);
    end
  end

  // ---- configuration checks ----------------------------------------------------------
  logic       c_in, c_used;
  logic [7:0] c_st;
  logic c_held;
  weft_index_mux #(.N(NumObjs), .W(1)) u_cfgheld (
    .table_i(held), .idx_i(cfg_obj_i), .en_i(cfg_valid_i), .in_o(c_in), .data_o(c_held));
  always_comb begin
    c_used = c_held;
    if (cfg_valid_i) for (int w = 0; w < NC; w++) begin
      if (wait_q[w] && (wobj_q[w*8 +: 8] == cfg_obj_i ||
                        (wrec[w*WRecW + WTyp +: 2] == TypeCond &&
                         wrec[w*WRecW + WAux +: 8] == cfg_obj_i))) begin
        c_used = 1'b1;
      end
    end
    if (!c_in) c_st = weft_osif_pkg::StatusBadhandle;
    else if (cfg_kind_i == 2'd3 ||
             (cfg_type_i == TypeSem && (cfg_max_i == '0 || cfg_count_i > cfg_max_i)))
      c_st = weft_osif_pkg::StatusBadargs;
    else if (c_used) c_st = weft_osif_pkg::StatusBusy;
    else c_st = weft_osif_pkg::StatusOk;
  end

  // ---- state update ----------------------------------------------------------------------
  logic [7:0] cfg_st_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      typ_q <= '0;
      pi_q <= '0;
      kind_q <= '0;
      cnt_q <= '0;
      aux_q <= '0;
      own_q <= '0;
      wait_q <= '0;
      hold_q <= '0;
      timed_q <= '0;
      dead_q <= '0;
      rspv_q <= '0;
      wobj_q <= '0;
      wstat_q <= '0;
      rsps_q <= '0;
      rcnt_q <= '0;
      tmo_q <= '0;
      pre_q <= '0;
      eff_q <= '0;
      older_q <= '0;
      cfg_st_q <= weft_osif_pkg::StatusOk;
    end else begin
      eff_q <= eff_d;
      rspv_q <= '0;

      // Timed waits count down. (Each loop below runs only while it has work: the
      // simulation-friendly style.)
      if (counting != '0) for (int c = 0; c < NC; c++) begin
        if (counting[c] && !expired[c]) begin
          if (32'(pre_q[c*PreW +: PreW]) == ClockMhz - 1) begin
            pre_q[c*PreW +: PreW] <= '0;
            tmo_q[c*32 +: 32] <= tmo_q[c*32 +: 32] - 32'd1;
          end else begin
            pre_q[c*PreW +: PreW] <= pre_q[c*PreW +: PreW] + 1'b1;
          end
        end
      end

      if (cfg_valid_i) begin
        cfg_st_q <= c_st;
      end
      // Object writes: a configuration, or the event's (never in the same cycle).
      if (cfg_valid_i || any) for (int k = 0; k < NO; k++) begin
        if (cfg_valid_i && c_st == weft_osif_pkg::StatusOk && 32'(cfg_obj_i) == k) begin
          typ_q[k*2 +: 2] <= cfg_type_i;
          kind_q[k*2 +: 2] <= cfg_kind_i;
          pi_q[k] <= cfg_type_i == TypeMutex && cfg_pi_i;
          cnt_q[k*16 +: 16] <= (cfg_type_i == TypeSem) ? cfg_count_i : '0;
          aux_q[k*16 +: 16] <= (cfg_type_i == TypeSem) ? cfg_max_i : '0;
          own_q[k*CliW +: CliW] <= '0;
        end
        if (any && aux_en && 32'(o) == k) begin
          aux_q[k*16 +: 16] <= {8'd0, m};
        end
        if (any && 32'(wr_obj) == k) begin
          if (wr_en) cnt_q[k*16 +: 16] <= wr_cnt;
          if (g_takes) own_q[k*CliW +: CliW] <= g;
          if (wake && bw_takes) begin
            own_q[k*CliW +: CliW] <= bw;
            cnt_q[k*16 +: 16] <= bw_rcnt;
          end
        end
      end

      // Per client: the granted client's event, a waiter woken or moved on, a reset.
      if (any || flush_i != '0 || dead_q != '0) for (int c = 0; c < NC; c++) begin
        if (is_g[c]) begin
          if (ans) begin
            rspv_q[c] <= 1'b1;
            rsps_q[c*8 +: 8] <= ans_st;
          end
          if (g_done) begin
            wait_q[c] <= 1'b0;
          end
          if (blk) begin
            wait_q[c] <= 1'b1;
            hold_q[c] <= 1'b0;
            wobj_q[c*8 +: 8] <= blk_obj;
            wstat_q[c*8 +: 8] <= weft_osif_pkg::StatusOk;
            rcnt_q[c*16 +: 16] <= blk_rcnt;
            timed_q[c] <= timed;
            tmo_q[c*32 +: 32] <= tmo;
            pre_q[c*PreW +: PreW] <= '0;
          end
          if (to_hold) begin
            hold_q[c] <= 1'b1;
            wobj_q[c*8 +: 8] <= cm;
            wstat_q[c*8 +: 8] <= ans_st;
          end
        end
        // The granted client, when it starts to wait, is the newest waiter.
        for (int v = 0; v < NC; v++) begin
          if (blk || to_hold) begin
            if (is_g[c]) older_q[c*NC + v] <= 1'b0;
            if (is_g[v]) older_q[c*NC + v] <= 1'b1;
          end
        end
        // Waiters of a signalled or broadcast condition go on to its mutex.
        if (moves[c]) begin
          wobj_q[c*8 +: 8] <= wr_obj;
          hold_q[c] <= 1'b1;
          wstat_q[c*8 +: 8] <= weft_osif_pkg::StatusOk;
        end
        if (is_bw[c]) begin
          wait_q[c] <= 1'b0;
          rspv_q[c] <= 1'b1;
          rsps_q[c*8 +: 8] <= bw_wstat;
        end
        // A reset client's call is dropped; its mutexes are given up as its events.
        // (No answer is ever due to a reset client: it is neither granted nor chosen.)
        if (flush_i[c]) begin
          wait_q[c] <= 1'b0;
          hold_q[c] <= 1'b0;
          dead_q[c] <= 1'b1;
        end else if (dead_q[c] && !owns[c]) begin
          dead_q[c] <= 1'b0;
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

  logic            rd_in;
  logic [RecW-1:0] rd_r;
  weft_index_mux #(.N(NumObjs), .W(RecW)) u_rdrec (
    .table_i(recs), .idx_i(rd_obj_i), .en_i(rd_en_i), .in_o(rd_in), .data_o(rd_r));
  always_comb begin
    rd_state_o = {rd_r[FCnt +: 16], 8'(rd_r[FOwn +: CliW]), 3'd0, rd_r[FPi],
                  rd_r[FKind +: 2], rd_r[FTyp +: 2]};
    rd_waiters_o = '0;
    if (rd_en_i && rd_in) begin
      for (int w = 0; w < NC; w++) begin
        rd_waiters_o[w] = wait_q[w] && wobj_q[w*8 +: 8] == rd_obj_i;
      end
    end
  end

  // Still: no event, no answer to drop, no timeout counting, inheritance settled, no reset
  // client to mark or clear.
  assign still_o = !cfg_valid_i && want == '0 && rspv_q == '0 && counting == '0 &&
                   eff_d == eff_q && (flush_i & ~dead_q) == '0 &&
                   (flush_i & wait_q) == '0 && (dead_q & ~owns & ~flush_i) == '0;

  // Records are looked up whole; each use reads its fields.
  logic unused;
  assign unused = ^{wrec_in, g_wrec, o_r, m_in, m_r, cm_in, oa_in, g_in, bw_in};

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
  // One assertion per group of registers: a $stable of them all at once is a copy so
  // wide that Verilator 5.006 turns it into a loop it then does not compile.
  StillObjsStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({typ_q, pi_q, kind_q, own_q}));
  StillCountsStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable(cnt_q));
  StillAuxStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable(aux_q));
  StillWaitersStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({wait_q, hold_q, timed_q, dead_q, rspv_q, wobj_q, wstat_q, rcnt_q}));
  StillTimersStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({tmo_q, pre_q}));
  StillOrderStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({eff_q, older_q}));
`endif

endmodule

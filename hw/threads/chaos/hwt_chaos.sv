// hwt_chaos: a hardware thread that behaves like hostile hardware for a long run, for
// robustness tests of the runtime, the delegate and the static region. Restarted many
// times with different seeds next to healthy threads, it must never crash, hang or
// corrupt anything outside its own memory window; how it ends is not its concern.
//
// Start (well-formed, through weft_osif_call):
//   1. GET_INIT_DATA: the init data is the seed of a 32-bit xorshift (x ^= x << 13,
//      x ^= x >> 17, x ^= x << 5; seed 0 is replaced by ZeroSeed). Init data bits [1:0]
//      also choose the hostility level (below).
//   2. MBOX_GET_BURST on handle 0 with count 3: the job {window base, window size,
//      budget word}. The window is the bus address range [base, base+size) the thread
//      may use (it must grant reads and writes); it aims at base rounded up to a
//      multiple of 4 and whole words below base+size. Budget word: [23:0] the action
//      budget, [24] BOUNDED, [31:25] ignored.
//   Either call failing (status not OK, or a malformed response) ends the thread with
//   THREAD_EXIT ExitBadInit (0xFFFFFFFE) or ExitBadJob (0xFFFFFFFF).
//   Handles 1..3 are meant to be bound to a semaphore, a mutex and a mailbox; the chaos
//   uses handles 0..5 whatever they are bound to.
//
// Chaos: until it has started `budget` actions (an action is an OSIF request or a MEMIF
// command it commits to; at most one per cycle), every channel is driven each cycle
// independently by the PRNG:
//   - Every stream it sends on (OSIF requests, MEMIF commands, write data) mostly holds a
//     valid until it is taken, but withdraws it with probability 1/64 per waiting cycle
//     (an argument or write-data word may then come back with other data), and pauses
//     (1/256 per idle cycle) for 0-15 cycles, now and then 255 or 4095, also in the
//     middle of a request's argument words or of a write's data.
//   - OSIF requests: most are plausible: a command of the protocol (weft_osif_pkg codes,
//     THREAD_EXIT and THREAD_YIELD always with a non-zero handle so they are rejected
//     with BADHANDLE instead of ending the thread), handle 0..5, random arguments (half
//     of them below 256), nargs as the command wants in 12 of 16 requests, else one less,
//     one more or random in 0..255; 1 in 16 has a random command code. Every request is
//     complete as framed (header and nargs words), so the runtime gets a response to send.
//   - OSIF responses: words are taken with probability 3/4 per cycle, with pauses of up
//     to 4095 cycles; the thread follows their framing (header, nwords words) to know
//     when no response is due. osif_in_ready_o is raised only while a response is due
//     (boundary rule 2), except that while write data of an accepted MEMIF write is
//     still owed it is also raised, with probability 1/4 per cycle, with none due: a
//     deviation that cannot make the slot look blocked (its MEMIF is busy).
//   - MEMIF: reads and writes inside the window at random aligned addresses, with random
//     aligned lengths of 4 bytes to 1 KiB (clipped at the window's end);
//     write data random; read data taken with probability 3/4 per cycle, with pauses.
//     Commands are pipelined: a new one may start while fewer than MemOwedCap (512)
//     data words of earlier ones are still owed.
// Hostility level (init data bits [1:0]); per action, with probability Fatal/4096, the
// action is a fatal one (MEMIF) or a wholly random one (OSIF):
//   level  Fatal  OSIF requests outstanding at once (response not yet taken)
//   0        0    1 (no fault on purpose: a level-0 run ends by THREAD_EXIT, unless a
//                    call blocks for good without BOUNDED, or it is stopped)
//   1        1    2
//   2       16    8
//   3      128    31 (with response pauses this overflows the response FIFO)
//   The OSIF action is a fully random header word (any command, handle and nargs; still
//   a non-zero handle for THREAD_EXIT and THREAD_YIELD), followed by its nargs words.
//   Since protocol version 4 no header can announce more words than a request may carry,
//   so no OSIF request is fatal (it was a framing fault).
//   A fatal MEMIF action is a command just outside the window (up to 16 bytes below its
//   start, or crossing its end by 4..16 bytes), or a malformed one inside it: op 2 or 3,
//   reserved bits set, length not a multiple of 4, length 0, or an unaligned address.
// BOUNDED (budget word bit 24): no call may block for long: SEM_WAIT, MUTEX_LOCK,
//   COND_WAIT, MBOX_GET/PUT, MQ_SEND/RECEIVE and the mailbox bursts are sent as their
//   timed variants, every argument word is below 256 (timeouts under 256 us), a burst
//   get asks for 0 or 1 word and a burst put carries at most 1. Without it a blocking
//   call (e.g. SEM_WAIT on an empty semaphore) may wait until software makes it
//   possible, signals STOP (the call is answered CANCELED; a mailbox burst that has
//   moved a word already goes on) or destroys the thread.
//
// End: once the budget is used up it starts nothing more and winds down properly: it
// completes the MEMIF command it started (second word), sends the write data it owes and
// takes the read data it asked for; it finishes its current OSIF request with filler
// words (0) or drops a header nobody has seen yet; it takes every response due; then it
// makes THREAD_EXIT with the number of actions it started (the budget). A run may also
// end earlier by a fault (memory, response FIFO overflow) or by being stopped.
module hwt_chaos (
  `include "weft_slot_ports.svh"
);

  /// Exit value: GET_INIT_DATA failed.
  localparam logic [31:0] ExitBadInit = 32'hFFFF_FFFE;
  /// Exit value: the job burst from handle 0 failed.
  localparam logic [31:0] ExitBadJob = 32'hFFFF_FFFF;
  /// PRNG state used for seed 0 (xorshift stays at 0 otherwise).
  localparam logic [31:0] ZeroSeed = 32'h9E37_79B9;
  /// Budget word bit: no call that can block for long.
  localparam int unsigned BoundedBit = 24;
  /// A new MEMIF command only while fewer data words than this are owed.
  localparam logic [31:0] MemOwedCap = 32'd512;
  /// Most argument words a request may carry (all the header's nargs field holds).
  localparam logic [15:0] MaxArgs = 16'(weft_osif_pkg::OsifMaxArgs);

  typedef enum logic [2:0] {
    PhInit,   // GET_INIT_DATA
    PhJob,    // MBOX_GET_BURST the job
    PhSetup,  // window arithmetic
    PhChaos,  // actions
    PhDrain,  // wind down
    PhExit    // THREAD_EXIT
  } phase_e;

  typedef enum logic [1:0] {
    OIdle,  // no request in progress
    OHdr,   // offering the header
    OArgs   // offering argument words
  } ostate_e;

  typedef enum logic [1:0] {
    MIdle,  // no command in progress
    MCmd0,  // offering command word 0
    MCmd1   // offering command word 1 (the address)
  } mstate_e;

  // ---- helpers --------------------------------------------------------------------
  function automatic logic [31:0] xorshift(input logic [31:0] x);
    logic [31:0] y;
    y = x ^ (x << 13);
    y = y ^ (y >> 17);
    y = y ^ (y << 5);
    xorshift = y;
  endfunction

  // Smallest 2^k-1 that covers x.
  function automatic logic [31:0] smear(input logic [31:0] x);
    logic [31:0] m;
    m = x;
    m = m | (m >> 1);
    m = m | (m >> 2);
    m = m | (m >> 4);
    m = m | (m >> 8);
    m = m | (m >> 16);
    smear = m;
  endfunction

  // Pause length from a channel control word: 0-15, 1 in 8 up to 255, 1 in 8 up to 4095.
  // c: bits [28:14] of the control word.
  function automatic logic [11:0] pause_len(input logic [14:0] c);
    logic [11:0] p;
    if (c[14:12] == 3'd7) begin
      p = c[11:0];
    end else if (c[14:12] == 3'd6) begin
      p = {4'd0, c[7:0]};
    end else begin
      p = {8'd0, c[3:0]};
    end
    pause_len = p;
  endfunction

  // One sending or taking channel for one cycle: {valid (or ready), next pause count}.
  // c: [5:0] withdraw when 0, [13:6] pause when 0, [28:14] pause length, [30:29] offer
  // unless 0. A pending valid (offered last cycle, not taken) is held unless withdrawn.
  function automatic logic [12:0] chan(input logic pend, input logic [11:0] pause,
                                       input logic [30:0] c, input logic active);
    logic v;
    logic [11:0] p;
    v = 1'b0;
    p = pause;
    if (pend) begin
      v = (c[5:0] != 6'd0);
    end else if (pause != 12'd0) begin
      p = pause - 12'd1;
    end else if (c[13:6] == 8'd0) begin
      p = pause_len(c[28:14]);
    end else begin
      v = active && (c[30:29] != 2'd0);
    end
    chan = {v, p};
  endfunction

  // Command of the plausible table (the protocol's commands; 30 and 31 repeat two).
  function automatic logic [7:0] cmd_of(input logic [4:0] idx);
    logic [7:0] c;
    unique case (idx)
      5'd0:  c = weft_osif_pkg::CmdSemPost;
      5'd1:  c = weft_osif_pkg::CmdSemWait;
      5'd2:  c = weft_osif_pkg::CmdMutexLock;
      5'd3:  c = weft_osif_pkg::CmdMutexUnlock;
      5'd4:  c = weft_osif_pkg::CmdMutexTrylock;
      5'd5:  c = weft_osif_pkg::CmdCondWait;
      5'd6:  c = weft_osif_pkg::CmdCondSignal;
      5'd7:  c = weft_osif_pkg::CmdCondBroadcast;
      5'd8:  c = weft_osif_pkg::CmdMboxGet;
      5'd9:  c = weft_osif_pkg::CmdMboxPut;
      5'd10: c = weft_osif_pkg::CmdMboxTryget;
      5'd11: c = weft_osif_pkg::CmdMboxTryput;
      5'd12: c = weft_osif_pkg::CmdMqSend;
      5'd13: c = weft_osif_pkg::CmdMqReceive;
      5'd14: c = weft_osif_pkg::CmdGetInitData;
      5'd15: c = weft_osif_pkg::CmdThreadExit;
      5'd16: c = weft_osif_pkg::CmdThreadCheck;
      5'd17: c = weft_osif_pkg::CmdThreadYield;
      5'd18: c = weft_osif_pkg::CmdGetResumeState;
      5'd19: c = weft_osif_pkg::CmdMboxPutBurst;
      5'd20: c = weft_osif_pkg::CmdMboxGetBurst;
      5'd21: c = weft_osif_pkg::CmdSemTimedwait;
      5'd22: c = weft_osif_pkg::CmdMutexTimedlock;
      5'd23: c = weft_osif_pkg::CmdCondTimedwait;
      5'd24: c = weft_osif_pkg::CmdMboxTimedget;
      5'd25: c = weft_osif_pkg::CmdMboxTimedput;
      5'd26: c = weft_osif_pkg::CmdMqTimedsend;
      5'd27: c = weft_osif_pkg::CmdMqTimedreceive;
      5'd28: c = weft_osif_pkg::CmdMboxTimedputBurst;
      5'd29: c = weft_osif_pkg::CmdMboxTimedgetBurst;
      5'd30: c = weft_osif_pkg::CmdMboxTryput;
      default: c = weft_osif_pkg::CmdMboxTryget;
    endcase
    cmd_of = c;
  endfunction

  // Fixed argument words of a command (0 for an unknown code).
  function automatic logic [15:0] nargs_of(input logic [7:0] cmd);
    logic [15:0] n;
    unique case (cmd)
      weft_osif_pkg::CmdSemPost:           n = 16'(weft_osif_pkg::CmdSemPostNargs);
      weft_osif_pkg::CmdSemWait:           n = 16'(weft_osif_pkg::CmdSemWaitNargs);
      weft_osif_pkg::CmdMutexLock:         n = 16'(weft_osif_pkg::CmdMutexLockNargs);
      weft_osif_pkg::CmdMutexUnlock:       n = 16'(weft_osif_pkg::CmdMutexUnlockNargs);
      weft_osif_pkg::CmdMutexTrylock:      n = 16'(weft_osif_pkg::CmdMutexTrylockNargs);
      weft_osif_pkg::CmdCondWait:          n = 16'(weft_osif_pkg::CmdCondWaitNargs);
      weft_osif_pkg::CmdCondSignal:        n = 16'(weft_osif_pkg::CmdCondSignalNargs);
      weft_osif_pkg::CmdCondBroadcast:     n = 16'(weft_osif_pkg::CmdCondBroadcastNargs);
      weft_osif_pkg::CmdMboxGet:           n = 16'(weft_osif_pkg::CmdMboxGetNargs);
      weft_osif_pkg::CmdMboxPut:           n = 16'(weft_osif_pkg::CmdMboxPutNargs);
      weft_osif_pkg::CmdMboxTryget:        n = 16'(weft_osif_pkg::CmdMboxTrygetNargs);
      weft_osif_pkg::CmdMboxTryput:        n = 16'(weft_osif_pkg::CmdMboxTryputNargs);
      weft_osif_pkg::CmdMqSend:            n = 16'(weft_osif_pkg::CmdMqSendNargs);
      weft_osif_pkg::CmdMqReceive:         n = 16'(weft_osif_pkg::CmdMqReceiveNargs);
      weft_osif_pkg::CmdGetInitData:       n = 16'(weft_osif_pkg::CmdGetInitDataNargs);
      weft_osif_pkg::CmdThreadExit:        n = 16'(weft_osif_pkg::CmdThreadExitNargs);
      weft_osif_pkg::CmdThreadCheck:       n = 16'(weft_osif_pkg::CmdThreadCheckNargs);
      weft_osif_pkg::CmdThreadYield:       n = 16'(weft_osif_pkg::CmdThreadYieldNargs);
      weft_osif_pkg::CmdGetResumeState:    n = 16'(weft_osif_pkg::CmdGetResumeStateNargs);
      weft_osif_pkg::CmdMboxPutBurst:      n = 16'(weft_osif_pkg::CmdMboxPutBurstNargs);
      weft_osif_pkg::CmdMboxGetBurst:      n = 16'(weft_osif_pkg::CmdMboxGetBurstNargs);
      weft_osif_pkg::CmdSemTimedwait:      n = 16'(weft_osif_pkg::CmdSemTimedwaitNargs);
      weft_osif_pkg::CmdMutexTimedlock:    n = 16'(weft_osif_pkg::CmdMutexTimedlockNargs);
      weft_osif_pkg::CmdCondTimedwait:     n = 16'(weft_osif_pkg::CmdCondTimedwaitNargs);
      weft_osif_pkg::CmdMboxTimedget:      n = 16'(weft_osif_pkg::CmdMboxTimedgetNargs);
      weft_osif_pkg::CmdMboxTimedput:      n = 16'(weft_osif_pkg::CmdMboxTimedputNargs);
      weft_osif_pkg::CmdMqTimedsend:       n = 16'(weft_osif_pkg::CmdMqTimedsendNargs);
      weft_osif_pkg::CmdMqTimedreceive:    n = 16'(weft_osif_pkg::CmdMqTimedreceiveNargs);
      weft_osif_pkg::CmdMboxTimedputBurst: n = 16'(weft_osif_pkg::CmdMboxTimedputBurstNargs);
      weft_osif_pkg::CmdMboxTimedgetBurst: n = 16'(weft_osif_pkg::CmdMboxTimedgetBurstNargs);
      default:                             n = 16'd0;
    endcase
    nargs_of = n;
  endfunction

  // The timed variant of a call that can block without bound; other codes unchanged.
  function automatic logic [7:0] timed_of(input logic [7:0] cmd);
    logic [7:0] c;
    unique case (cmd)
      weft_osif_pkg::CmdSemWait:      c = weft_osif_pkg::CmdSemTimedwait;
      weft_osif_pkg::CmdMutexLock:    c = weft_osif_pkg::CmdMutexTimedlock;
      weft_osif_pkg::CmdCondWait:     c = weft_osif_pkg::CmdCondTimedwait;
      weft_osif_pkg::CmdMboxGet:      c = weft_osif_pkg::CmdMboxTimedget;
      weft_osif_pkg::CmdMboxPut:      c = weft_osif_pkg::CmdMboxTimedput;
      weft_osif_pkg::CmdMqSend:       c = weft_osif_pkg::CmdMqTimedsend;
      weft_osif_pkg::CmdMqReceive:    c = weft_osif_pkg::CmdMqTimedreceive;
      weft_osif_pkg::CmdMboxPutBurst: c = weft_osif_pkg::CmdMboxTimedputBurst;
      weft_osif_pkg::CmdMboxGetBurst: c = weft_osif_pkg::CmdMboxTimedgetBurst;
      default:                        c = cmd;
    endcase
    timed_of = c;
  endfunction

  // Commands whose message words follow the fixed arguments.
  function automatic logic variadic(input logic [7:0] cmd);
    variadic = (cmd == weft_osif_pkg::CmdMqSend) || (cmd == weft_osif_pkg::CmdMqTimedsend) ||
               (cmd == weft_osif_pkg::CmdMboxPutBurst) ||
               (cmd == weft_osif_pkg::CmdMboxTimedputBurst);
  endfunction

  function automatic logic put_burst(input logic [7:0] cmd);
    put_burst = (cmd == weft_osif_pkg::CmdMboxPutBurst) ||
                (cmd == weft_osif_pkg::CmdMboxTimedputBurst);
  endfunction

  function automatic logic get_burst(input logic [7:0] cmd);
    get_burst = (cmd == weft_osif_pkg::CmdMboxGetBurst) ||
                (cmd == weft_osif_pkg::CmdMboxTimedgetBurst);
  endfunction

  // Per 4096 actions, how many end the thread.
  function automatic logic [11:0] fatal_of(input logic [1:0] level);
    logic [11:0] f;
    unique case (level)
      2'd0:    f = 12'd0;
      2'd1:    f = 12'd1;
      2'd2:    f = 12'd16;
      default: f = 12'd128;
    endcase
    fatal_of = f;
  endfunction

  // Most OSIF requests outstanding (sent, response not yet taken).
  function automatic logic [5:0] cap_of(input logic [1:0] level);
    logic [5:0] c;
    unique case (level)
      2'd0:    c = 6'd1;
      2'd1:    c = 6'd2;
      2'd2:    c = 6'd8;
      default: c = 6'd31;
    endcase
    cap_of = c;
  endfunction

  // ---- state ----------------------------------------------------------------------
  phase_e phase_d, phase_q;
  logic [31:0] rng_d, rng_q;
  logic [1:0]  level_d, level_q;
  logic        bounded_d, bounded_q;
  logic [31:0] raw_base_d, raw_base_q, raw_size_d, raw_size_q;
  logic [31:0] base_d, base_q, size_d, size_q, mask_d, mask_q;
  logic        win_ok_d, win_ok_q;
  logic [23:0] budget_d, budget_q, actions_d, actions_q;
  logic [31:0] exit_d, exit_q;

  // OSIF requests
  ostate_e     o_state_d, o_state_q;
  logic [31:0] o_word_d, o_word_q;
  logic [15:0] o_left_d, o_left_q;   // argument words still to send
  logic [7:0]  o_cmd_d, o_cmd_q;
  logic        o_first_d, o_first_q; // the next argument word is the first
  logic        o_pend_d, o_pend_q;
  logic [11:0] o_pause_d, o_pause_q;
  // OSIF responses
  logic [5:0]  due_d, due_q;         // responses due (request complete, not all taken)
  logic [15:0] i_left_d, i_left_q;   // words left of the current response; 0: header next
  logic [11:0] i_pause_d, i_pause_q;
  // MEMIF
  mstate_e     m_state_d, m_state_q;
  logic [31:0] m_w0_d, m_w0_q, m_w1_d, m_w1_q;
  logic        m_pend_d, m_pend_q;
  logic [11:0] m_pause_d, m_pause_q;
  logic [31:0] wr_owed_d, wr_owed_q, rd_owed_d, rd_owed_q;
  logic [31:0] w_word_d, w_word_q;
  logic        w_pend_d, w_pend_q;
  logic [11:0] w_pause_d, w_pause_q;
  logic [11:0] r_pause_d, r_pause_q;

  // ---- random words of this cycle -------------------------------------------------
  // Control words of the five channels, then generator words.
  logic [31:0] c_o, c_m, c_w, c_i, c_r, g_o1, g_o2, g_m1, g_m2, g_w, g_x;
  assign c_o  = xorshift(rng_q);
  assign c_m  = xorshift(c_o);
  assign c_w  = xorshift(c_m);
  assign c_i  = xorshift(c_w);
  assign c_r  = xorshift(c_i);
  assign g_o1 = xorshift(c_r);
  assign g_o2 = xorshift(g_o1);
  assign g_m1 = xorshift(g_o2);
  assign g_m2 = xorshift(g_m1);
  assign g_w  = xorshift(g_m2);
  assign g_x  = xorshift(g_w);

  // ---- OS call client (start and exit) --------------------------------------------
  // Its side of the OSIF goes through call_osif: the chaos phases drive the OSIF themselves.
  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [31:0] call_args;     // the job's count (3), then the exit value
  logic [127:0] call_results;  // the seed, then the job {burst_end, budget word, size, base}
  weft_osif_pkg::osif_req_t call_osif;

  weft_osif_call #(.MaxArgs(1), .MaxResults(4)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_results), .osif_i(slot_i.osif), .osif_o(call_osif));

  always_comb begin
    call = '0;
    call.nresults = 16'd1;
    call_args = '0;
    unique case (phase_q)
      PhInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
      end
      PhJob: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMboxGetBurst;
        call.nargs = 16'd1;
        call.nresults = 16'd4;
        call_args = 32'd3;
      end
      PhExit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
        call_args = exit_q;
      end
      default: ;
    endcase
  end

  // ---- window arithmetic (PhSetup) ------------------------------------------------
  logic [1:0]  win_adj;
  logic [31:0] win_size_al;
  assign win_adj = 2'd0 - raw_base_q[1:0];
  assign win_size_al = (raw_size_q - {30'd0, win_adj}) & ~32'd3;

  // ---- the OSIF request a commit would start --------------------------------------
  logic [11:0] fatal_thr;
  logic        o_raw;
  logic [7:0]  gen_cmd0, gen_cmd;
  logic [15:0] gen_handle0, gen_handle;
  logic [15:0] gen_fixed, gen_nominal, gen_rand, gen_nargs;
  logic [31:0] gen_hdr;
  assign fatal_thr = fatal_of(level_q);

  always_comb begin
    o_raw = g_o1[11:0] < fatal_thr;
    // Command: from the protocol's table, or a random code (1 in 16).
    gen_cmd0 = (g_o1[16:13] == 4'd0) ? g_o2[31:24] : cmd_of(g_o1[21:17]);
    gen_handle0 = {13'd0, (g_o1[24:22] > 3'd5) ? (g_o1[24:22] - 3'd6) : g_o1[24:22]};
    if (o_raw) begin
      gen_cmd0 = g_o2[weft_osif_pkg::ReqCmdMsb:weft_osif_pkg::ReqCmdLsb];
      gen_handle0 = g_o2[weft_osif_pkg::ReqHandleMsb:weft_osif_pkg::ReqHandleLsb];
    end
    gen_cmd = bounded_q ? timed_of(gen_cmd0) : gen_cmd0;
    // THREAD_EXIT and THREAD_YIELD with handle 0 would end the thread; a non-zero handle
    // gets them rejected (BADHANDLE) before their argument count is looked at.
    gen_handle = gen_handle0;
    if ((gen_cmd == weft_osif_pkg::CmdThreadExit || gen_cmd == weft_osif_pkg::CmdThreadYield) &&
        gen_handle0 == '0) begin
      gen_handle = 16'd1;
    end
    gen_fixed = nargs_of(gen_cmd);
    gen_nominal = gen_fixed + (variadic(gen_cmd) ? {13'd0, g_o1[31:29]} + 16'd1 : 16'd0);
    gen_rand = {8'd0, g_o2[7:0]};
    unique case (g_o1[28:25])
      4'd12:        gen_nargs = (gen_nominal == 16'd0) ? 16'd1 : gen_nominal - 16'd1;
      4'd13:        gen_nargs = gen_nominal + 16'd1;
      4'd14, 4'd15: gen_nargs = gen_rand;
      default:      gen_nargs = gen_nominal;
    endcase
    if (o_raw) begin
      gen_nargs = 16'(g_o2[weft_osif_pkg::ReqNargsMsb:weft_osif_pkg::ReqNargsLsb]);
    end
    if (gen_nargs > MaxArgs) begin
      gen_nargs = MaxArgs;
    end
    if (bounded_q && put_burst(gen_cmd) && gen_nargs > gen_fixed + 16'd1) begin
      gen_nargs = gen_fixed + 16'd1;
    end
    gen_hdr = weft_osif_pkg::req_header(gen_cmd, gen_handle, 8'(gen_nargs));
  end

  // An argument word of the request in progress (first: its first argument word).
  function automatic logic [31:0] arg_word(input logic first, input logic bounded,
                                           input logic [7:0] cmd, input logic [9:0] g1,
                                           input logic [31:0] g2);
    logic [31:0] a;
    if (bounded && first && get_burst(cmd)) begin
      a = {31'd0, g1[9]};        // a burst get of 0 (BADARGS) or 1 word
    end else if (bounded || g1[0]) begin
      a = {24'd0, g1[8:1]};      // small: handles, counts, timeouts
    end else begin
      a = g2;
    end
    arg_word = a;
  endfunction

  logic [31:0] gen_arg_first, gen_arg_next;
  assign gen_arg_first = arg_word(1'b1, bounded_q, o_cmd_q, g_o1[9:0], g_o2);
  assign gen_arg_next = arg_word(1'b0, bounded_q, o_cmd_q, g_o1[9:0], g_o2);

  // ---- the MEMIF command a commit would start -------------------------------------
  logic        m_fatal;
  logic [31:0] off_raw, off, room, len_req;
  logic [23:0] len_ok;
  logic [31:0] gen_m0, gen_m1;
  logic [1:0]  low_bits;

  always_comb begin
    m_fatal = g_m1[11:0] < fatal_thr;
    off_raw = g_m2 & mask_q;
    off = (off_raw >= size_q) ? (off_raw & (mask_q >> 1)) : off_raw;
    off = off & ~32'd3;
    room = size_q - off;
    len_req = {21'd0, {1'b0, g_x[12:5]} + 9'd1, 2'b00};
    len_ok = (len_req > room) ? room[23:0] : len_req[23:0];
    low_bits = (g_m1[22:21] == 2'd0) ? 2'd1 : g_m1[22:21];

    gen_m0 = '0;
    gen_m0[weft_osif_pkg::MemifOpMsb:weft_osif_pkg::MemifOpLsb] =
        g_x[13] ? weft_osif_pkg::MemifOpWrite : weft_osif_pkg::MemifOpRead;
    gen_m0[weft_osif_pkg::MemifLengthMsb:weft_osif_pkg::MemifLengthLsb] = len_ok;
    gen_m1 = base_q + off;

    if (m_fatal && g_m1[12]) begin
      // Just outside: below the window's start, or across its end.
      if (g_m1[13]) begin
        gen_m1 = base_q - {27'd0, {1'b0, g_m1[15:14]} + 3'd1, 2'b00};
        gen_m0[weft_osif_pkg::MemifLengthMsb:weft_osif_pkg::MemifLengthLsb] =
            {19'd0, {1'b0, g_m1[17:16]} + 3'd1, 2'b00};
      end else begin
        gen_m1 = base_q + size_q - {28'd0, g_m1[15:14], 2'b00};
        gen_m0[weft_osif_pkg::MemifLengthMsb:weft_osif_pkg::MemifLengthLsb] =
            {19'd0, {1'b0, g_m1[15:14]} + {1'b0, g_m1[17:16]} + 3'd1, 2'b00};
      end
    end else if (m_fatal) begin
      // Malformed, inside the window.
      unique case (g_m1[20:18])
        3'd0, 3'd5:
          gen_m0[weft_osif_pkg::MemifOpMsb:weft_osif_pkg::MemifOpLsb] = {1'b1, g_m1[23]};
        3'd1, 3'd6:
          gen_m0[weft_osif_pkg::MemifRsvdMsb:weft_osif_pkg::MemifRsvdLsb] = g_m1[29:24] | 6'd1;
        3'd2, 3'd7:
          gen_m0[weft_osif_pkg::MemifLengthLsb+1:weft_osif_pkg::MemifLengthLsb] = low_bits;
        3'd3:
          gen_m0[weft_osif_pkg::MemifLengthMsb:weft_osif_pkg::MemifLengthLsb] = '0;
        default:
          gen_m1[1:0] = low_bits;
      endcase
    end
  end

  // Data words an accepted command moves (by its length field; a malformed one faults).
  logic [31:0] m_words;
  logic [1:0]  m_op;
  assign m_words = {10'd0, m_w0_q[weft_osif_pkg::MemifLengthMsb:weft_osif_pkg::MemifLengthLsb+2]};
  assign m_op = m_w0_q[weft_osif_pkg::MemifOpMsb:weft_osif_pkg::MemifOpLsb];

  // ---- the chaos engine -----------------------------------------------------------
  logic        chaos, drain;
  logic        o_valid, o_fire, m_valid, m_fire, w_valid, w_fire, i_ready, i_fire;
  logic        r_ready, r_fire;
  logic        o_want, m_want, o_commit, m_commit, o_done_req, i_done_resp;
  logic        deviate;
  logic [12:0] o_ch, m_ch, w_ch, i_ch, r_ch;
  logic [15:0] i_nwords;

  assign chaos = (phase_q == PhChaos);
  assign drain = (phase_q == PhDrain);
  assign o_ch = chan(o_pend_q, o_pause_q, c_o[30:0], o_state_q != OIdle);
  assign m_ch = chan(m_pend_q, m_pause_q, c_m[30:0], m_state_q != MIdle);
  assign w_ch = chan(w_pend_q, w_pause_q, c_w[30:0], wr_owed_q != 32'd0);
  assign i_ch = chan(1'b0, i_pause_q, c_i[30:0], due_q != 6'd0);
  assign r_ch = chan(1'b0, r_pause_q, c_r[30:0], 1'b1);
  assign i_nwords = slot_i.osif.in_data[weft_osif_pkg::RespNwordsMsb:weft_osif_pkg::RespNwordsLsb];

  always_comb begin
    phase_d = phase_q;
    rng_d = g_x;
    level_d = level_q;
    bounded_d = bounded_q;
    raw_base_d = raw_base_q;
    raw_size_d = raw_size_q;
    base_d = base_q;
    size_d = size_q;
    mask_d = mask_q;
    win_ok_d = win_ok_q;
    budget_d = budget_q;
    actions_d = actions_q;
    exit_d = exit_q;

    o_state_d = o_state_q;
    o_word_d = o_word_q;
    o_left_d = o_left_q;
    o_cmd_d = o_cmd_q;
    o_first_d = o_first_q;
    o_pause_d = o_pause_q;
    due_d = due_q;
    i_left_d = i_left_q;
    i_pause_d = i_pause_q;
    m_state_d = m_state_q;
    m_w0_d = m_w0_q;
    m_w1_d = m_w1_q;
    m_pause_d = m_pause_q;
    wr_owed_d = wr_owed_q;
    rd_owed_d = rd_owed_q;
    w_word_d = w_word_q;
    w_pause_d = w_pause_q;
    r_pause_d = r_pause_q;

    o_valid = 1'b0;
    m_valid = 1'b0;
    w_valid = 1'b0;
    i_ready = 1'b0;
    r_ready = 1'b0;
    o_commit = 1'b0;
    m_commit = 1'b0;
    o_want = 1'b0;
    m_want = 1'b0;
    deviate = 1'b0;

    // ---- start and end phases ----
    unique case (phase_q)
      PhInit: begin
        if (call_rsp.done) begin
          rng_d = (call_results[31:0] == 32'd0) ? ZeroSeed : call_results[31:0];
          level_d = call_results[1:0];
          if (!call_rsp.ok) begin
            exit_d = ExitBadInit;
            phase_d = PhExit;
          end else begin
            phase_d = PhJob;
          end
        end
      end
      PhJob: begin
        if (call_rsp.done) begin
          raw_base_d = call_results[31:0];
          raw_size_d = call_results[63:32];
          budget_d = call_results[87:64];
          bounded_d = call_results[64 + BoundedBit];
          if (!call_rsp.ok || call_rsp.nresults != 16'd4 || call_results[127:96] !=
              weft_osif_pkg::burst_end(weft_osif_pkg::StatusOk, 16'd3)) begin
            exit_d = ExitBadJob;
            phase_d = PhExit;
          end else begin
            phase_d = PhSetup;
          end
        end
      end
      PhSetup: begin
        base_d = raw_base_q + {30'd0, win_adj};
        size_d = (raw_size_q > {30'd0, win_adj}) ? win_size_al : 32'd0;
        win_ok_d = (raw_size_q > {30'd0, win_adj}) && (win_size_al != 32'd0);
        mask_d = smear(win_size_al - 32'd1);
        actions_d = '0;
        phase_d = PhChaos;
      end
      PhChaos: begin
        if (actions_q == budget_q) begin
          phase_d = PhDrain;
        end
      end
      PhDrain: begin
        if (o_state_q == OIdle && due_q == 6'd0 && m_state_q == MIdle &&
            wr_owed_q == 32'd0 && rd_owed_q == 32'd0) begin
          exit_d = {8'd0, actions_q};
          phase_d = PhExit;
        end
      end
      default: ;  // PhExit: u_call sends THREAD_EXIT and stays blocked
    endcase

    // ---- commits: at most one new action per cycle ----
    if (chaos && actions_q != budget_q) begin
      o_want = (o_state_q == OIdle) && (due_q < cap_of(level_q)) && (g_x[1:0] == 2'd0);
      m_want = (m_state_q == MIdle) && (win_ok_q || m_fatal) && (g_x[3:2] == 2'd0) &&
               (wr_owed_q + rd_owed_q < MemOwedCap);
      o_commit = o_want && (!m_want || g_x[4]);
      m_commit = m_want && !o_commit;
      if (o_commit || m_commit) begin
        actions_d = actions_q + 24'd1;
      end
    end

    // ---- OSIF requests ----
    if (chaos || drain) begin
      o_valid = o_ch[12];
      o_pause_d = o_ch[11:0];
      if (drain) begin
        // Hold a pending word; finish the arguments; drop a header nobody has seen.
        o_valid = (o_state_q == OArgs) || (o_state_q == OHdr && o_pend_q);
        o_pause_d = '0;
        if (o_state_q == OHdr && !o_pend_q) begin
          o_state_d = OIdle;
        end
      end
    end
    o_fire = o_valid && slot_i.osif.out_ready;
    o_pend_d = o_valid && !slot_i.osif.out_ready;
    o_done_req = 1'b0;
    if (o_commit) begin
      o_state_d = OHdr;
      o_word_d = gen_hdr;
      o_left_d = gen_nargs;
      o_cmd_d = gen_cmd;
    end else if (o_fire) begin
      unique case (o_state_q)
        OHdr: begin
          if (o_left_q == 16'd0) begin
            o_done_req = 1'b1;
          end else begin
            o_state_d = OArgs;
            o_word_d = drain ? 32'd0 : gen_arg_first;
            o_first_d = 1'b1;
          end
        end
        OArgs: begin
          o_left_d = o_left_q - 16'd1;
          o_word_d = drain ? 32'd0 : gen_arg_next;
          o_first_d = 1'b0;
          if (o_left_q == 16'd1) begin
            o_done_req = 1'b1;
          end
        end
        default: ;
      endcase
      if (o_done_req) begin
        o_state_d = OIdle;
      end
    end else if (o_pend_q && !o_valid && o_state_q == OArgs) begin
      // Withdrawn: it may come back with other data.
      o_word_d = drain ? 32'd0 : (o_first_q ? gen_arg_first : gen_arg_next);
    end

    // ---- OSIF responses ----
    if (chaos) begin
      i_ready = i_ch[12];
      i_pause_d = i_ch[11:0];
      // Rule 2 deviation, only while an accepted write still owes data (MEMIF busy).
      deviate = (due_q == 6'd0) && (wr_owed_q != 32'd0) && (g_x[15:14] == 2'd0);
      i_ready = i_ready || deviate;
    end else if (drain) begin
      i_ready = (due_q != 6'd0);
    end
    i_fire = i_ready && slot_i.osif.in_valid;
    i_done_resp = 1'b0;
    if (i_fire) begin
      if (i_left_q == 16'd0) begin
        i_left_d = i_nwords;
        i_done_resp = (i_nwords == 16'd0);
      end else begin
        i_left_d = i_left_q - 16'd1;
        i_done_resp = (i_left_q == 16'd1);
      end
    end
    due_d = due_q + {5'd0, o_done_req} -
            {5'd0, i_done_resp && (due_q != 6'd0)};

    // ---- MEMIF commands ----
    if (chaos || drain) begin
      m_valid = m_ch[12];
      m_pause_d = m_ch[11:0];
      if (drain) begin
        // Complete a command whose first word was taken; drop one nobody has seen.
        m_valid = (m_state_q == MCmd1) || (m_state_q == MCmd0 && m_pend_q);
        m_pause_d = '0;
        if (m_state_q == MCmd0 && !m_pend_q) begin
          m_state_d = MIdle;
        end
      end
    end
    m_fire = m_valid && slot_i.mem.cmd_ready;
    m_pend_d = m_valid && !slot_i.mem.cmd_ready;
    if (m_commit) begin
      m_state_d = MCmd0;
      m_w0_d = gen_m0;
      m_w1_d = gen_m1;
    end else if (m_fire) begin
      if (m_state_q == MCmd0) begin
        m_state_d = MCmd1;
      end else begin
        m_state_d = MIdle;
      end
    end

    // ---- MEMIF write data ----
    if (chaos || drain) begin
      w_valid = w_ch[12];
      w_pause_d = w_ch[11:0];
      if (drain) begin
        w_valid = (wr_owed_q != 32'd0);
        w_pause_d = '0;
      end
    end
    w_fire = w_valid && slot_i.mem.wr_ready;
    w_pend_d = w_valid && !slot_i.mem.wr_ready;
    if (w_fire || (w_pend_q && !w_valid)) begin
      w_word_d = g_w;  // next word, or a withdrawn one comes back with other data
    end

    // ---- MEMIF read data ----
    if (chaos) begin
      r_ready = r_ch[12];
      r_pause_d = r_ch[11:0];
    end else if (drain) begin
      r_ready = (rd_owed_q != 32'd0);
    end
    r_fire = r_ready && slot_i.mem.rd_valid;

    wr_owed_d = wr_owed_q - {31'd0, w_fire};
    rd_owed_d = rd_owed_q - {31'd0, r_fire && (rd_owed_q != 32'd0)};
    if (m_fire && m_state_q == MCmd1) begin
      if (m_op == weft_osif_pkg::MemifOpWrite) begin
        wr_owed_d = wr_owed_d + m_words;
      end else if (m_op == weft_osif_pkg::MemifOpRead) begin
        rd_owed_d = rd_owed_d + m_words;
      end
    end
  end

  // ---- outputs ----------------------------------------------------------------------
  always_comb begin
    slot_o.osif = call_osif;
    if (chaos || drain) begin
      slot_o.osif.out_valid = o_valid;
      slot_o.osif.out_data = o_word_q;
      slot_o.osif.in_ready = i_ready;
    end
    slot_o.mem.cmd_valid = m_valid;
    slot_o.mem.cmd_data = (m_state_q == MCmd1) ? m_w1_q : m_w0_q;
    slot_o.mem.wr_valid = w_valid;
    slot_o.mem.wr_data = w_word_q;
    slot_o.mem.rd_ready = r_ready;
  end

  logic unused_bits;
  assign unused_bits = ^{slot_i.mem.rd_data, call_results[95:89], c_o[31], c_m[31], c_w[31],
                         c_i[31], c_r[31], g_x[31:16], g_m1[31:30]};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      phase_q <= PhInit;
      rng_q <= ZeroSeed;
      level_q <= '0;
      bounded_q <= 1'b0;
      raw_base_q <= '0;
      raw_size_q <= '0;
      base_q <= '0;
      size_q <= '0;
      mask_q <= '0;
      win_ok_q <= 1'b0;
      budget_q <= '0;
      actions_q <= '0;
      exit_q <= '0;
      o_state_q <= OIdle;
      o_word_q <= '0;
      o_left_q <= '0;
      o_cmd_q <= '0;
      o_first_q <= 1'b0;
      o_pend_q <= 1'b0;
      o_pause_q <= '0;
      due_q <= '0;
      i_left_q <= '0;
      i_pause_q <= '0;
      m_state_q <= MIdle;
      m_w0_q <= '0;
      m_w1_q <= '0;
      m_pend_q <= 1'b0;
      m_pause_q <= '0;
      wr_owed_q <= '0;
      rd_owed_q <= '0;
      w_word_q <= '0;
      w_pend_q <= 1'b0;
      w_pause_q <= '0;
      r_pause_q <= '0;
    end else begin
      phase_q <= phase_d;
      rng_q <= rng_d;
      level_q <= level_d;
      bounded_q <= bounded_d;
      raw_base_q <= raw_base_d;
      raw_size_q <= raw_size_d;
      base_q <= base_d;
      size_q <= size_d;
      mask_q <= mask_d;
      win_ok_q <= win_ok_d;
      budget_q <= budget_d;
      actions_q <= actions_d;
      exit_q <= exit_d;
      o_state_q <= o_state_d;
      o_word_q <= o_word_d;
      o_left_q <= o_left_d;
      o_cmd_q <= o_cmd_d;
      o_first_q <= o_first_d;
      o_pend_q <= o_pend_d;
      o_pause_q <= o_pause_d;
      due_q <= due_d;
      i_left_q <= i_left_d;
      i_pause_q <= i_pause_d;
      m_state_q <= m_state_d;
      m_w0_q <= m_w0_d;
      m_w1_q <= m_w1_d;
      m_pend_q <= m_pend_d;
      m_pause_q <= m_pause_d;
      wr_owed_q <= wr_owed_d;
      rd_owed_q <= rd_owed_d;
      w_word_q <= w_word_d;
      w_pend_q <= w_pend_d;
      w_pause_q <= w_pause_d;
      r_pause_q <= r_pause_d;
    end
  end

  `include "weft_no_regs.svh"

endmodule

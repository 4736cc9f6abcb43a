// hwt_pingpong: the hardware side of the OS-overhead benchmark (bench/os_overhead.c).
// It makes nothing but semaphore and mutex calls, back to back, so a measurement taken
// around it sees the OS calls and no other work.
//
// Parameters, from the init data (GET_INIT_DATA):
//   bits [3:0]   handle h0
//   bits [7:4]   handle h1
//   bits [11:8]  handle h2
//   bits [15:12] mode (below)
//   bits [19:16] modes 1, 2: K-1 (K = 1..16 calls per round); mode 3: gate handle
//   bits [31:20] N, the number of rounds (0..4095)
//
// Modes, each round in order:
//   0 SemPing    SEM_WAIT h0; SEM_POST h1
//   1 SemRaw     SEM_WAIT h0; K x SEM_POST h2; SEM_POST h1
//   2 MutexRaw   SEM_WAIT h0; K x (MUTEX_LOCK h2; MUTEX_UNLOCK h2); SEM_POST h1
//   3 RingFirst  once: MUTEX_LOCK h0; MUTEX_LOCK h1; SEM_WAIT gate. Round k:
//                MUTEX_UNLOCK m[k mod 3]; MUTEX_LOCK m[(k+2) mod 3]
//   4 RingSecond once: MUTEX_LOCK h2. Round k: MUTEX_LOCK m[k mod 3];
//                MUTEX_UNLOCK m[(k+2) mod 3]
// where m[0..2] = h0, h1, h2. Modes 3 and 4 are the two sides of a mutex ping-pong on
// three mutexes: each thread only ever unlocks what it locked, and after round k the
// first thread holds m[k+1], m[k+2] and the second m[k]; every unlock wakes the other
// side, which is blocked in its lock of that mutex.
//
// After N rounds the thread calls THREAD_EXIT with N (mutexes it still holds are
// released by the runtime). An OS call that answers with a non-zero status (or a
// malformed response) ends the thread with ExitOsError (0xFFFFFFFE); an unknown mode
// with ExitBadMode (0xFFFFFFFD). The thread never touches memory.
module hwt_pingpong (
  `include "weft_slot_ports.svh"
);

  /// Exit value: an OS call failed.
  localparam logic [31:0] ExitOsError = 32'hFFFF_FFFE;
  /// Exit value: the init data names an unknown mode.
  localparam logic [31:0] ExitBadMode = 32'hFFFF_FFFD;

  localparam logic [3:0] ModeSemPing = 4'd0;
  localparam logic [3:0] ModeSemRaw = 4'd1;
  localparam logic [3:0] ModeMutexRaw = 4'd2;
  localparam logic [3:0] ModeRingFirst = 4'd3;
  localparam logic [3:0] ModeRingSecond = 4'd4;

  typedef enum logic [3:0] {
    StInit,      // GET_INIT_DATA
    StStart,     // decide by mode
    StWait,      // SEM_WAIT h0 (modes 0..2)
    StOpA,       // SEM_POST h2 (mode 1) or MUTEX_LOCK h2 (mode 2)
    StOpB,       // MUTEX_UNLOCK h2 (mode 2)
    StPost,      // SEM_POST h1 (modes 0..2), ends the round
    StPreLock0,  // MUTEX_LOCK h0 (mode 3)
    StPreLock1,  // MUTEX_LOCK h1 (mode 3)
    StGate,      // SEM_WAIT gate (mode 3)
    StPreLock2,  // MUTEX_LOCK h2 (mode 4)
    StRingA,     // mode 3: MUTEX_UNLOCK m[k]; mode 4: MUTEX_LOCK m[k]
    StRingB,     // mode 3: MUTEX_LOCK m[k+2]; mode 4: MUTEX_UNLOCK m[k+2], ends the round
    StExit       // THREAD_EXIT (never completes)
  } state_e;

  state_e state_d, state_q;
  logic [31:0] init_d, init_q;
  logic [11:0] rounds_d, rounds_q;  // rounds completed
  logic [4:0] left_d, left_q;       // calls (or lock/unlock pairs) left in this round
  logic [1:0] idx_d, idx_q;         // k mod 3 in the ring modes
  logic [31:0] exit_d, exit_q;

  // ---- OS call client -------------------------------------------------------------
  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [31:0] call_args;    // THREAD_EXIT's exit value
  logic [31:0] call_result;  // the init data, from GET_INIT_DATA

  weft_osif_call #(.MaxArgs(1), .MaxResults(1)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_result), .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  // ---- parameters and ring handles ------------------------------------------------
  logic [7:0] h0, h1, h2, gate;
  logic [3:0] mode;
  logic [4:0] calls_per_round;
  logic [11:0] num_rounds;
  assign h0 = {4'd0, init_q[3:0]};
  assign h1 = {4'd0, init_q[7:4]};
  assign h2 = {4'd0, init_q[11:8]};
  assign mode = init_q[15:12];
  assign gate = {4'd0, init_q[19:16]};
  assign calls_per_round = {1'b0, init_q[19:16]} + 5'd1;
  assign num_rounds = init_q[31:20];

  // Ring handles: m[k] and m[(k+2) mod 3].
  logic [7:0] ring_cur, ring_prev;
  always_comb begin
    unique case (idx_q)
      2'd0: begin ring_cur = h0; ring_prev = h2; end
      2'd1: begin ring_cur = h1; ring_prev = h0; end
      default: begin ring_cur = h2; ring_prev = h1; end
    endcase
  end

  // ---- the thread's state machine -------------------------------------------------
  always_comb begin
    state_d = state_q;
    init_d = init_q;
    rounds_d = rounds_q;
    left_d = left_q;
    idx_d = idx_q;
    exit_d = exit_q;

    call = '0;
    call.nresults = 16'd1;
    call_args = '0;

    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
        if (call_rsp.done) begin
          init_d = call_result;
          exit_d = ExitOsError;
          state_d = call_rsp.ok ? StStart : StExit;
        end
      end

      StStart: begin
        exit_d = 32'(num_rounds);
        if (mode > ModeRingSecond) begin
          exit_d = ExitBadMode;
          state_d = StExit;
        end else if (num_rounds == '0) begin
          state_d = StExit;
        end else if (mode == ModeRingFirst) begin
          state_d = StPreLock0;
        end else if (mode == ModeRingSecond) begin
          state_d = StPreLock2;
        end else begin
          state_d = StWait;
        end
      end

      StWait: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemWait;
        call.handle = 16'(h0);
        if (call_rsp.done) begin
          left_d = calls_per_round;
          exit_d = ExitOsError;
          state_d = !call_rsp.ok ? StExit : (mode == ModeSemPing) ? StPost : StOpA;
        end
      end

      StOpA: begin
        call.valid = 1'b1;
        call.cmd = (mode == ModeSemRaw) ? weft_osif_pkg::CmdSemPost
                                        : weft_osif_pkg::CmdMutexLock;
        call.handle = 16'(h2);
        if (call_rsp.done) begin
          exit_d = ExitOsError;
          if (!call_rsp.ok) begin
            state_d = StExit;
          end else if (mode == ModeMutexRaw) begin
            state_d = StOpB;
          end else begin
            left_d = left_q - 5'd1;
            state_d = (left_q == 5'd1) ? StPost : StOpA;
          end
        end
      end

      StOpB: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMutexUnlock;
        call.handle = 16'(h2);
        if (call_rsp.done) begin
          exit_d = ExitOsError;
          left_d = left_q - 5'd1;
          state_d = !call_rsp.ok ? StExit : (left_q == 5'd1) ? StPost : StOpA;
        end
      end

      StPost: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemPost;
        call.handle = 16'(h1);
        if (call_rsp.done) begin
          rounds_d = rounds_q + 12'd1;
          exit_d = ExitOsError;
          if (call_rsp.ok) begin
            exit_d = 32'(num_rounds);
          end
          state_d = (!call_rsp.ok || rounds_q + 12'd1 == num_rounds) ? StExit : StWait;
        end
      end

      StPreLock0: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMutexLock;
        call.handle = 16'(h0);
        if (call_rsp.done) begin
          exit_d = ExitOsError;
          state_d = call_rsp.ok ? StPreLock1 : StExit;
        end
      end

      StPreLock1: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMutexLock;
        call.handle = 16'(h1);
        if (call_rsp.done) begin
          exit_d = ExitOsError;
          state_d = call_rsp.ok ? StGate : StExit;
        end
      end

      StGate: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemWait;
        call.handle = 16'(gate);
        if (call_rsp.done) begin
          exit_d = ExitOsError;
          state_d = call_rsp.ok ? StRingA : StExit;
        end
      end

      StPreLock2: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMutexLock;
        call.handle = 16'(h2);
        if (call_rsp.done) begin
          exit_d = ExitOsError;
          state_d = call_rsp.ok ? StRingA : StExit;
        end
      end

      StRingA: begin
        call.valid = 1'b1;
        call.cmd = (mode == ModeRingFirst) ? weft_osif_pkg::CmdMutexUnlock
                                           : weft_osif_pkg::CmdMutexLock;
        call.handle = 16'(ring_cur);
        if (call_rsp.done) begin
          exit_d = ExitOsError;
          state_d = call_rsp.ok ? StRingB : StExit;
        end
      end

      StRingB: begin
        call.valid = 1'b1;
        call.cmd = (mode == ModeRingFirst) ? weft_osif_pkg::CmdMutexLock
                                           : weft_osif_pkg::CmdMutexUnlock;
        call.handle = 16'(ring_prev);
        if (call_rsp.done) begin
          rounds_d = rounds_q + 12'd1;
          idx_d = (idx_q == 2'd2) ? 2'd0 : idx_q + 2'd1;
          exit_d = ExitOsError;
          if (call_rsp.ok) begin
            exit_d = 32'(num_rounds);
          end
          state_d = (!call_rsp.ok || rounds_q + 12'd1 == num_rounds) ? StExit : StRingA;
        end
      end

      StExit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
        call_args = exit_q;
      end

      default: state_d = StExit;
    endcase
  end

  // No memory traffic.
  assign slot_o.mem = '0;
  logic unused_mem;
  assign unused_mem = ^slot_i.mem;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StInit;
      init_q <= '0;
      rounds_q <= '0;
      left_q <= '0;
      idx_q <= '0;
      exit_q <= '0;
    end else begin
      state_q <= state_d;
      init_q <= init_d;
      rounds_q <= rounds_d;
      left_q <= left_d;
      idx_q <= idx_d;
      exit_q <= exit_d;
    end
  end

  `include "weft_no_regs.svh"

endmodule

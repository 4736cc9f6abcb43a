// hwt_collatz: a long computation that can be moved between slots mid-work
// (cooperative preemption: a YIELD signal, state saved to memory, resumed elsewhere).
//
// It sums the Collatz stopping times of the numbers in [start, end): for each n, the
// steps x -> x/2 (x even) or x -> 3x+1 (x odd) until x = 1.
//
// Resources, from the init data (GET_INIT_DATA): bits [7:0] handle of the job mailbox.
// The work lives in a record of five words in shared memory, at a bus address rec:
//   [0] start, [1] end, [2] next number to do, [3] sum low word, [4] sum high word.
//
// Start: GET_RESUME_STATE. A thread created to resume gets rec as the state word and
// loads the record; otherwise it takes a job of three words with MBOX_GET_BURST from the
// job mailbox, {start, end, rec}, and begins at start with a sum of 0.
// Every CheckEvery numbers it makes a THREAD_CHECK (its safe point):
//   YIELD pending: it writes the record and calls THREAD_YIELD with rec;
//   STOP pending:  it calls THREAD_EXIT with ExitStopped;
// When every number is done it writes the record (next = end) and exits with 0.
module hwt_collatz #(
  /// Numbers between two safe points.
  parameter int unsigned CheckEvery = 64
) (
  `include "weft_slot_ports.svh"
);

  /// Exit value of a thread ended by a STOP signal.
  localparam logic [31:0] ExitStopped = 32'd1;
  /// Exit value when an OS call failed.
  localparam logic [31:0] ExitOsError = 32'hFFFF_FFFE;

  typedef enum logic [3:0] {
    StInit,     // GET_INIT_DATA
    StResume,   // GET_RESUME_STATE
    StJob,      // MBOX_GET_BURST the job
    StLoad,     // read the record (resumed)
    StNext,     // next number, or done
    StIter,     // one Collatz step
    StCheck,    // THREAD_CHECK at a safe point
    StSave,     // write the record
    StYield,    // THREAD_YIELD rec
    StExit      // THREAD_EXIT exit_q
  } state_e;

  state_e state_d, state_q;
  logic [7:0]  job_h_d, job_h_q;
  logic [31:0] start_d, start_q, end_d, end_q, next_d, next_q, rec_d, rec_q;
  logic [63:0] sum_d, sum_q;
  logic [47:0] x_d, x_q;
  logic [31:0] steps_d, steps_q, since_d, since_q, exit_d, exit_q;
  logic [2:0]  word_d, word_q;   // record word being read or written
  logic        yield_d, yield_q; // StSave is for a yield (else for the end)

  // ---- OS calls and one word of the record at a time --------------------------------
  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [31:0] call_args;     // THREAD_YIELD: rec; THREAD_EXIT: the exit value
  logic [127:0] call_results;  // a job {burst_end, rec, end, start}, or the resume state {rec, resumed}

  weft_osif_call #(.MaxArgs(1), .MaxResults(4)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_results), .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  weft_hwt_pkg::word_req_t mem;
  weft_hwt_pkg::word_rsp_t mem_rsp;
  logic [31:0] rec_word;  // record word word_q, to be written

  weft_memif_word u_mem (
    .clk_i, .rst_ni, .req_i(mem), .rsp_o(mem_rsp), .mem_i(slot_i.mem), .mem_o(slot_o.mem));

  always_comb begin
    unique case (word_q)
      3'd0: rec_word = start_q;
      3'd1: rec_word = end_q;
      3'd2: rec_word = next_q;
      3'd3: rec_word = sum_q[31:0];
      default: rec_word = sum_q[63:32];
    endcase
  end

  always_comb begin
    state_d = state_q;
    job_h_d = job_h_q;
    start_d = start_q;
    end_d   = end_q;
    next_d  = next_q;
    rec_d   = rec_q;
    sum_d   = sum_q;
    x_d     = x_q;
    steps_d = steps_q;
    since_d = since_q;
    exit_d  = exit_q;
    word_d  = word_q;
    yield_d = yield_q;
    call = '0;
    call.nresults = 16'd4;
    call_args = '0;
    mem = '0;
    mem.addr = rec_q + {27'd0, word_q, 2'b00};
    mem.wdata = rec_word;

    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
        if (call_rsp.done) begin
          job_h_d = call_results[7:0];
          state_d = call_rsp.ok ? StResume : StExit;
        end
      end

      StResume: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetResumeState;
        if (call_rsp.done) begin
          rec_d   = call_results[63:32];
          word_d  = '0;
          state_d = !call_rsp.ok ? StExit : (call_results[31:0] != '0 ? StLoad : StJob);
        end
      end

      StJob: begin
        call.valid  = 1'b1;
        call.cmd    = weft_osif_pkg::CmdMboxGetBurst;
        call.handle = 16'(job_h_q);
        call.nargs  = 16'd1;
        call_args   = 32'd3;
        if (call_rsp.done) begin
          start_d = call_results[31:0];
          end_d   = call_results[63:32];
          rec_d   = call_results[95:64];
          next_d  = call_results[31:0];
          sum_d   = '0;
          since_d = '0;
          state_d = (call_rsp.ok && call_rsp.nresults == 16'd4 &&
                     call_results[127:96] == weft_osif_pkg::burst_end(weft_osif_pkg::StatusOk, 16'd3)) ?
                    StNext : StExit;
        end
      end

      StLoad: begin
        mem.valid = 1'b1;
        if (mem_rsp.done) begin
          unique case (word_q)
            3'd0: start_d = mem_rsp.rdata;
            3'd1: end_d = mem_rsp.rdata;
            3'd2: next_d = mem_rsp.rdata;
            3'd3: sum_d[31:0] = mem_rsp.rdata;
            default: sum_d[63:32] = mem_rsp.rdata;
          endcase
          word_d  = word_q + 3'd1;
          since_d = '0;
          if (word_q == 3'd4) begin
            state_d = StNext;
          end
        end
      end

      StNext: begin
        if (next_q >= end_q) begin
          word_d  = '0;
          yield_d = 1'b0;
          state_d = StSave;
        end else if (since_q == 32'(CheckEvery)) begin
          since_d = '0;
          state_d = StCheck;
        end else begin
          x_d     = 48'(next_q);
          steps_d = '0;
          state_d = StIter;
        end
      end

      StIter: begin
        if (x_q <= 48'd1) begin
          sum_d   = sum_q + 64'(steps_q);
          next_d  = next_q + 32'd1;
          since_d = since_q + 32'd1;
          state_d = StNext;
        end else begin
          x_d     = x_q[0] ? (x_q * 48'd3) + 48'd1 : x_q >> 1;
          steps_d = steps_q + 32'd1;
        end
      end

      StCheck: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadCheck;
        if (call_rsp.done) begin
          if (!call_rsp.ok) begin
            exit_d  = ExitOsError;
            state_d = StExit;
          end else if (call_results[weft_osif_pkg::SignalYieldBit]) begin
            word_d  = '0;
            yield_d = 1'b1;
            state_d = StSave;
          end else if (call_results[weft_osif_pkg::SignalStopBit]) begin
            exit_d  = ExitStopped;
            state_d = StExit;
          end else begin
            state_d = StNext;
          end
        end
      end

      StSave: begin
        mem.valid = 1'b1;
        mem.write = 1'b1;
        if (mem_rsp.done) begin
          word_d = word_q + 3'd1;
          if (word_q == 3'd4) begin
            exit_d  = '0;
            state_d = yield_q ? StYield : StExit;
          end
        end
      end

      StYield: begin
        call.valid = 1'b1;
        call.cmd   = weft_osif_pkg::CmdThreadYield;
        call.nargs = 16'd1;
        call_args  = rec_q;
      end

      StExit: begin
        call.valid = 1'b1;
        call.cmd   = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
        call_args  = exit_q;
      end

      default: state_d = StExit;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StInit;
      job_h_q <= '0;
      start_q <= '0;
      end_q   <= '0;
      next_q  <= '0;
      rec_q   <= '0;
      sum_q   <= '0;
      x_q     <= '0;
      steps_q <= '0;
      since_q <= '0;
      exit_q  <= ExitOsError;
      word_q  <= '0;
      yield_q <= 1'b0;
    end else begin
      state_q <= state_d;
      job_h_q <= job_h_d;
      start_q <= start_d;
      end_q   <= end_d;
      next_q  <= next_d;
      rec_q   <= rec_d;
      sum_q   <= sum_d;
      x_q     <= x_d;
      steps_q <= steps_d;
      since_q <= since_d;
      exit_q  <= exit_d;
      word_q  <= word_d;
      yield_q <= yield_d;
    end
  end

  if (CheckEvery < 1) begin : gen_check_params
    $error("hwt_collatz: CheckEvery must be at least 1");
  end

  `include "weft_no_regs.svh"

endmodule

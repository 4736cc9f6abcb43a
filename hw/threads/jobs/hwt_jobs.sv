// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// hwt_jobs: a worker of the softcore example (apps/softcore, docs/softcore.md): it takes
// jobs from a message queue that software threads, softcore threads and it share, and
// for each posts the semaphore they share too.
//
// Init data (GET_INIT_DATA): [7:0] the job queue's handle, [15:8] the semaphore's,
// [23:16] the worker's number. A job is a message of three words {id, n, addr}: the
// thread counts the Collatz steps from n to 1 (x -> x/2 or 3x+1, a step a cycle), writes
// them and its number to the two words at bus address addr, and posts the semaphore
// (the static region lets the post out only once the writes are in memory); it posts
// the semaphore once when it starts, too. n = 0 ends it with THREAD_EXIT 0; a failed
// call or a message of another size with ExitOsError.
module hwt_jobs (
  `include "weft_slot_ports.svh"
);

  localparam logic [31:0] ExitOsError = 32'hFFFF_FFFE;
  localparam logic [31:0] JobBytes = 32'd12;

  typedef enum logic [2:0] {
    StInit,     // GET_INIT_DATA
    StReceive,  // MQ_RECEIVE a job
    StCount,    // a Collatz step a cycle
    StWrite,    // the steps, then the worker's number, to memory
    StPost,     // SEM_POST
    StExit      // THREAD_EXIT exit_q (never completes)
  } state_e;

  state_e      state_q;
  logic [15:0] jobs_h_q, done_h_q;
  logic [7:0]  worker_q;
  logic [31:0] x_q, steps_q, addr_q, exit_q;
  logic        second_q;  // the second word of StWrite

  // ---- OS calls: MQ_RECEIVE answers msg_info and the job's three words ----
  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [31:0]  call_args;
  logic [127:0] call_results;

  weft_osif_call #(.MaxArgs(1), .MaxResults(4)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_results), .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  // ---- memory: a word at a time ----
  weft_hwt_pkg::word_req_t word;
  weft_hwt_pkg::word_rsp_t word_rsp;

  weft_memif_word u_word (
    .clk_i, .rst_ni, .req_i(word), .rsp_o(word_rsp), .mem_i(slot_i.mem), .mem_o(slot_o.mem));

  `include "weft_no_regs.svh"  // no registers of its own (docs/hls.md)

  always_comb begin
    call = '0;
    call.nresults = 16'd4;
    call_args = '0;
    word = '0;
    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
      end
      StReceive: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMqReceive;
        call.handle = jobs_h_q;
        call.nargs = 16'd1;
        call_args = JobBytes;
      end
      StWrite: begin
        word.valid = 1'b1;
        word.write = 1'b1;
        word.addr = second_q ? addr_q + 32'd4 : addr_q;
        word.wdata = second_q ? {24'b0, worker_q} : steps_q;
      end
      StPost: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemPost;
        call.handle = done_h_q;
      end
      StExit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
        call_args = exit_q;
      end
      default: ;
    endcase
  end

  // A job's reply: msg_info (its length in bytes, [15:0]) and its three words.
  logic job_ok;
  assign job_ok = call_rsp.ok && call_rsp.nresults == 16'd4 && call_results[15:0] == JobBytes[15:0];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q  <= StInit;
      jobs_h_q <= '0;
      done_h_q <= '0;
      worker_q <= '0;
      x_q      <= '0;
      steps_q  <= '0;
      addr_q   <= '0;
      exit_q   <= '0;
      second_q <= 1'b0;
    end else begin
      unique case (state_q)
        StInit: if (call_rsp.done) begin
          jobs_h_q <= {8'b0, call_results[7:0]};
          done_h_q <= {8'b0, call_results[15:8]};
          worker_q <= call_results[23:16];
          exit_q   <= ExitOsError;
          state_q  <= call_rsp.ok ? StPost : StExit;  // started
        end
        StReceive: if (call_rsp.done) begin
          x_q     <= call_results[95:64];
          addr_q  <= call_results[127:96];
          steps_q <= '0;
          if (!job_ok) state_q <= StExit;
          else if (call_results[95:64] == '0) begin
            exit_q  <= '0;
            state_q <= StExit;
          end else state_q <= StCount;
        end
        StCount: begin
          if (x_q <= 32'd1) begin
            second_q <= 1'b0;
            state_q  <= StWrite;
          end else begin
            x_q     <= x_q[0] ? x_q * 32'd3 + 32'd1 : x_q >> 1;
            steps_q <= steps_q + 32'd1;
          end
        end
        StWrite: if (word_rsp.done) begin
          second_q <= 1'b1;
          if (second_q) state_q <= StPost;
        end
        StPost: if (call_rsp.done) state_q <= call_rsp.ok ? StReceive : StExit;
        default: ;
      endcase
    end
  end

  logic unused;
  assign unused = ^{call_rsp, call_results[31:24], call_results[63:32], word_rsp.rdata};

endmodule

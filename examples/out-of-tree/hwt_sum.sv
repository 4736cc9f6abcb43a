// hwt_sum: adds up blocks of shared memory.
//
// Init data: [7:0] job mailbox, [15:8] result mailbox. Per job {address, length in
// bytes} (one MBOX_GET_BURST of two words, answered with the two and burst_end):
// burst-read the block, adding its words up as they arrive, and MBOX_PUT the sum.
// Address 0 ends the thread with THREAD_EXIT 0; a bad length (0, not a multiple of 4,
// 2^24 or more) with 0xFFFFFFFF and a failed call with 0xFFFFFFFE.
module hwt_sum (
  `include "weft_slot_ports.svh"
);

  typedef enum logic [2:0] {StInit, StJob, StRead, StPut, StExit} state_e;
  state_e state_d, state_q;
  logic [7:0] job_h_d, job_h_q, res_h_d, res_h_q;
  logic [31:0] addr_d, addr_q, len_d, len_q, sum_d, sum_q, exit_d, exit_q;

  // ---- OS calls and the memory burst ---------------------------------------------------
  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [31:0] call_args;
  logic [95:0] call_results;  // two job words, then burst_end

  weft_osif_call #(.MaxArgs(1), .MaxResults(3)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_results), .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  // The words go through the burst's RAM write port straight into the sum: no RAM.
  weft_hwt_pkg::burst_req_t burst;
  weft_hwt_pkg::burst_rsp_t burst_rsp;
  logic word_we;
  logic [31:0] word;
  logic [7:0] unused_ram_addr;

  weft_memif_burst #(.RamAddrWidth(8)) u_burst (
    .clk_i, .rst_ni, .req_i(burst), .ram_addr_i('0), .rsp_o(burst_rsp),
    .ram_addr_o(unused_ram_addr), .ram_we_o(word_we), .ram_wdata_o(word), .ram_rdata_i('0),
    .mem_i(slot_i.mem), .mem_o(slot_o.mem));

  `include "weft_no_regs.svh"  // no registers of its own (docs/hls.md)

  // ---- the state machine: one OS call or burst per state -------------------------------
  always_comb begin
    state_d = state_q;
    job_h_d = job_h_q;
    res_h_d = res_h_q;
    addr_d = addr_q;
    len_d = len_q;
    sum_d = sum_q;
    exit_d = exit_q;
    call = '0;
    call.nresults = 16'd3;
    call_args = '0;
    burst = '0;  // a read: burst.write stays 0
    burst.addr = addr_q;
    burst.len = len_q[23:0];

    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
        if (call_rsp.done) begin
          job_h_d = call_results[7:0];
          res_h_d = call_results[15:8];
          state_d = call_rsp.ok ? StJob : StExit;
        end
      end

      StJob: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMboxGetBurst;
        call.handle = {8'd0, job_h_q};
        call.nargs = 16'd1;
        call_args = 32'd2;  // words to get
        if (call_rsp.done) begin
          addr_d = call_results[31:0];
          len_d = call_results[63:32];
          sum_d = '0;
          exit_d = 32'd0;
          state_d = StRead;
          if (!call_rsp.ok || call_rsp.nresults != 16'd3 || call_results[95:64] != 32'd2) begin
            exit_d = 32'hFFFF_FFFE;
            state_d = StExit;
          end else if (call_results[31:0] == '0) begin
            state_d = StExit;
          end else if (call_results[63:32] == '0 || call_results[33:32] != 2'b00 ||
                       call_results[63:56] != '0) begin
            exit_d = 32'hFFFF_FFFF;  // checked here: the static region would fault us
            state_d = StExit;
          end
        end
      end

      StRead: begin
        burst.valid = 1'b1;
        if (word_we) begin
          sum_d = sum_q + word;
        end
        if (burst_rsp.done) begin
          state_d = StPut;
        end
      end

      StPut: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMboxPut;
        call.handle = {8'd0, res_h_q};
        call.nargs = 16'd1;
        call_args = sum_q;
        if (call_rsp.done) begin
          exit_d = 32'hFFFF_FFFE;
          state_d = call_rsp.ok ? StJob : StExit;
        end
      end

      StExit: begin  // THREAD_EXIT never completes
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
        call_args = exit_q;
      end

      default: state_d = StExit;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StInit;
      job_h_q <= '0;
      res_h_q <= '0;
      addr_q <= '0;
      len_q <= '0;
      sum_q <= '0;
      exit_q <= 32'hFFFF_FFFE;
    end else begin
      state_q <= state_d;
      job_h_q <= job_h_d;
      res_h_q <= res_h_d;
      addr_q <= addr_d;
      len_q <= len_d;
      sum_q <= sum_d;
      exit_q <= exit_d;
    end
  end

endmodule

// weft_mbox_stream: moves a stream of words into (Put = 1) or out of (Put = 0) a
// mailbox with burst calls, one word per cycle when the other side keeps up.
//
// The handle may be bound to a software mailbox (the delegate serves the calls) or to a
// hardware link (the static region serves them without the CPU): the RTL is the same,
// the resource array decides.
//
// Protocol towards the thread's state machine, like weft_osif_call:
//   - Hold `req_i` high with `handle_i` and `count_i` (words, at least 1) stable until
//     `done_o`, a one-cycle pulse with `status_o` and `moved_o` valid.
//   - Put: words are taken from data_i/valid_i/ready_o, in order. Get: words are offered
//     on data_o/valid_o/ready_i, in order. Either side may pause at any time.
//   - The transfer is cut into MBOX_PUT_BURST / MBOX_GET_BURST calls of at most MaxBurst
//     words. A signal (STOP, YIELD) ends a burst only before its first word moves: then
//     status_o is StatusCanceled and moved_o tells how many words moved before it (for a
//     put, the words of the cancelled burst were taken from data_i but not delivered;
//     send them again from word moved_o when resuming). StatusInternal: a malformed
//     response (its words are drained).
//   - `busy_o` is high while a transfer is in progress or requested (for weft_osif_arb).
//
// Boundary rule 2: osif_in_ready_o is high only while a call waits for or takes its
// response.
module weft_mbox_stream #(
  /// 1: put words into the mailbox; 0: get words from it.
  parameter bit Put = 1'b1,
  /// Most words per burst call (1..OsifMaxArgs).
  parameter int unsigned MaxBurst = 64
) (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low synchronous reset.
  input  logic        rst_ni,

  /// Transfer request, held high until done_o.
  input  logic        req_i,
  /// Mailbox handle.
  input  logic [7:0]  handle_i,
  /// Words to move (at least 1).
  input  logic [31:0] count_i,
  /// One-cycle pulse: the transfer ended.
  output logic        done_o,
  /// StatusOk, StatusCanceled, or another status a burst call was answered with.
  output logic [7:0]  status_o,
  /// Words moved.
  output logic [31:0] moved_o,
  /// A transfer is in progress or requested.
  output logic        busy_o,

  /// Put: word from the thread.
  input  logic [31:0] data_i,
  /// Put: data_i valid.
  input  logic        valid_i,
  /// Put: data_i taken.
  output logic        ready_o,
  /// Get: word to the thread.
  output logic [31:0] data_o,
  /// Get: data_o valid.
  output logic        valid_o,
  /// Get: data_o taken.
  input  logic        ready_i,

  /// OSIF responses, software to hardware.
  input  logic [31:0] osif_in_data_i,
  /// osif_in word valid.
  input  logic        osif_in_valid_i,
  /// High only while a call waits for or takes its response.
  output logic        osif_in_ready_o,
  /// OSIF requests, hardware to software.
  output logic [31:0] osif_out_data_o,
  /// osif_out word valid.
  output logic        osif_out_valid_o,
  /// osif_out word taken.
  input  logic        osif_out_ready_i
);

  typedef enum logic [2:0] {
    StIdle,     // no transfer
    StHdr,      // request header of the next burst
    StWords,    // put: the burst's words; get: its count argument
    StRespHdr,  // waiting for the response header
    StData,     // get: the burst's words; or draining a malformed response
    StDone      // done_o pulse
  } state_e;

  state_e state_d, state_q;
  logic [31:0] left_d, left_q;      // words of the transfer not yet moved
  logic [31:0] moved_d, moved_q;
  logic [15:0] burst_d, burst_q;    // words of the current burst
  logic [15:0] idx_d, idx_q;        // words of the burst sent or received
  logic [7:0]  status_d, status_q;
  logic        drain_d, drain_q;    // StData drops words (malformed response)

  logic [15:0] next_burst;
  assign next_burst = (left_q > 32'(MaxBurst)) ? 16'(MaxBurst) : left_q[15:0];

  logic [7:0]  in_cmd, in_status;
  logic [15:0] in_nwords;
  assign in_cmd    = osif_in_data_i[weft_osif_pkg::RespCmdMsb:weft_osif_pkg::RespCmdLsb];
  assign in_status = osif_in_data_i[weft_osif_pkg::RespStatusMsb:weft_osif_pkg::RespStatusLsb];
  assign in_nwords = osif_in_data_i[weft_osif_pkg::RespNwordsMsb:weft_osif_pkg::RespNwordsLsb];

  localparam logic [7:0] Cmd = Put ? weft_osif_pkg::CmdMboxPutBurst
                                   : weft_osif_pkg::CmdMboxGetBurst;

  logic [31:0] hdr;
  assign hdr = weft_osif_pkg::req_header(Cmd, handle_i, Put ? next_burst : 16'd1);

  always_comb begin
    state_d  = state_q;
    left_d   = left_q;
    moved_d  = moved_q;
    burst_d  = burst_q;
    idx_d    = idx_q;
    status_d = status_q;
    drain_d  = drain_q;
    osif_out_valid_o = 1'b0;
    osif_out_data_o  = hdr;
    osif_in_ready_o  = 1'b0;
    ready_o  = 1'b0;
    valid_o  = 1'b0;
    data_o   = osif_in_data_i;
    done_o   = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (req_i) begin
          left_d   = count_i;
          moved_d  = '0;
          status_d = weft_osif_pkg::StatusOk;
          state_d  = (count_i == '0) ? StDone : StHdr;
        end
      end

      StHdr: begin
        burst_d = next_burst;
        osif_out_valid_o = 1'b1;
        if (osif_out_ready_i) begin
          idx_d   = '0;
          state_d = StWords;
        end
      end

      StWords: begin
        if (Put) begin
          osif_out_valid_o = valid_i;
          osif_out_data_o  = data_i;
          ready_o = osif_out_ready_i;
          if (valid_i && osif_out_ready_i) begin
            idx_d = idx_q + 16'd1;
            if (idx_q + 16'd1 == burst_q) begin
              state_d = StRespHdr;
            end
          end
        end else begin
          osif_out_valid_o = 1'b1;
          osif_out_data_o  = 32'(burst_q);
          if (osif_out_ready_i) begin
            state_d = StRespHdr;
          end
        end
      end

      StRespHdr: begin
        osif_in_ready_o = 1'b1;
        if (osif_in_valid_i) begin
          idx_d = '0;
          if (in_cmd != Cmd || (in_status == weft_osif_pkg::StatusOk &&
                                in_nwords != (Put ? 16'd0 : burst_q))) begin
            status_d = weft_osif_pkg::StatusInternal;
            burst_d  = in_nwords;
            drain_d  = 1'b1;
            state_d  = (in_nwords == '0) ? StDone : StData;
          end else if (in_status != weft_osif_pkg::StatusOk) begin
            status_d = in_status;
            burst_d  = in_nwords;
            drain_d  = 1'b1;
            state_d  = (in_nwords == '0) ? StDone : StData;
          end else if (Put) begin
            moved_d = moved_q + 32'(burst_q);
            left_d  = left_q - 32'(burst_q);
            state_d = (left_q == 32'(burst_q)) ? StDone : StHdr;
          end else begin
            drain_d = 1'b0;
            state_d = StData;
          end
        end
      end

      StData: begin
        valid_o = !drain_q && osif_in_valid_i;
        osif_in_ready_o = drain_q || ready_i;
        if (osif_in_valid_i && osif_in_ready_o) begin
          idx_d = idx_q + 16'd1;
          if (!drain_q) begin
            moved_d = moved_q + 32'd1;
            left_d  = left_q - 32'd1;
          end
          if (idx_q + 16'd1 == burst_q) begin
            state_d = (drain_q || left_d == '0) ? StDone : StHdr;
          end
        end
      end

      StDone: begin
        done_o  = 1'b1;
        drain_d = 1'b0;
        state_d = StIdle;
      end

      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q  <= StIdle;
      left_q   <= '0;
      moved_q  <= '0;
      burst_q  <= '0;
      idx_q    <= '0;
      status_q <= '0;
      drain_q  <= 1'b0;
    end else begin
      state_q  <= state_d;
      left_q   <= left_d;
      moved_q  <= moved_d;
      burst_q  <= burst_d;
      idx_q    <= idx_d;
      status_q <= status_d;
      drain_q  <= drain_d;
    end
  end

  assign status_o = status_q;
  assign moved_o  = moved_q;
  assign busy_o   = (state_q != StIdle) || req_i;

  if (MaxBurst < 1 || MaxBurst > weft_osif_pkg::OsifMaxArgs) begin : gen_check_burst
    $error("weft_mbox_stream: MaxBurst must be 1..OsifMaxArgs");
  end

endmodule

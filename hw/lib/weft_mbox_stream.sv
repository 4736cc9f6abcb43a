// weft_mbox_stream: moves a stream of words into (Put = 1) or out of (Put = 0) a
// mailbox with burst calls, one word per cycle when the other side keeps up; or, with
// Mq = 1, through a message queue, one message per MQ_SEND / MQ_RECEIVE call.
//
// The handle may be bound to a software mailbox (the delegate serves the calls) or to a
// hardware link (the static region serves them without the CPU): the RTL is the same,
// the resource array decides.
//
// Protocol towards the thread's state machine, like weft_osif_call:
//   - Hold `req_i.valid` high with `handle` and `count` (words, at least 1) stable
//     until `rsp_o.done`, a one-cycle pulse with `status` and `moved` valid
//     (weft_hwt_pkg: stream_req_t, stream_rsp_t).
//   - Put: words are taken from words_i/words_ready_o, in order. Get: words are offered
//     on words_o/words_ready_i, in order. Either side may pause at any time.
//   - The transfer is cut into MBOX_PUT_BURST / MBOX_GET_BURST calls of at most MaxBurst
//     words. A signal (STOP, YIELD) ends a burst while it waits for room or a word: then
//     `status` is StatusCanceled and `moved` tells how many words moved in all, this
//     burst's included (its burst_end word says how many of its words moved). A put's
//     words after `moved` were taken from words_i but not delivered: send them again from
//     word `moved` when resuming. A get offers every word of a burst on words_o, so after
//     an early end the words after `moved` are 0. StatusInternal: a malformed response
//     (its words are drained).
//   - Mq = 1: a put sends messages of MaxBurst words (4 x MaxBurst bytes, priority 0;
//     the last one shorter if count is not a multiple), a get receives messages with
//     max_bytes 4 x MaxBurst (at least the queue's mq_msgsize) and offers each one's
//     ceil(length / 4) words until count words came. A message longer than the words
//     still to come is dropped and ends the transfer with StatusMsgsize. A signal ends a
//     call that would block, before any of its message moved (StatusCanceled).
//   - `rsp_o.busy` is high while a transfer is in progress or requested (for
//     weft_osif_arb).
//
// Boundary rule 2: osif_o.in_ready is high only while a call waits for or takes its
// response.
module weft_mbox_stream #(
  /// 1: put words into the mailbox; 0: get words from it.
  parameter bit Put = 1'b1,
  /// Most words per burst call (1..OsifMaxArgs); with Mq, the words of a message
  /// (1..OsifMaxArgs - 2: the delegate takes no longer message carried by a call, 1012
  /// bytes, which is what MQ_TIMEDSEND leaves).
  parameter int unsigned MaxBurst = 64,
  /// 1: a message queue instead of a mailbox.
  parameter bit Mq = 1'b0
) (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low synchronous reset.
  input  logic        rst_ni,

  /// The transfer: held with its fields stable until rsp_o.done.
  input  weft_hwt_pkg::stream_req_t  req_i,
  /// The transfer's end.
  output weft_hwt_pkg::stream_rsp_t  rsp_o,

  /// Put: words from the thread.
  input  weft_hwt_pkg::word_stream_t words_i,
  /// Put: the word on words_i is taken.
  output logic                       words_ready_o,
  /// Get: words to the thread.
  output weft_hwt_pkg::word_stream_t words_o,
  /// Get: the word on words_o is taken.
  input  logic                       words_ready_i,

  /// The slot's OSIF (or an arbiter's client port), static side.
  input  weft_osif_pkg::osif_rsp_t   osif_i,
  /// The slot's OSIF, thread side (in_ready only while waiting: boundary rule 2).
  output weft_osif_pkg::osif_req_t   osif_o
);

  typedef enum logic [2:0] {
    StIdle,     // no transfer
    StHdr,      // request header of the next burst
    StInfo,     // Mq: the message's msg_info (put: sent; get: taken after the header)
    StWords,    // put: the burst's words; get: its count (Mq: max_bytes) argument
    StRespHdr,  // waiting for the response header
    StData,     // get: the burst's words; or draining a malformed response
    StEnd,      // the burst's burst_end word
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

  logic [7:0]  in_cmd, in_status, end_status;
  logic [15:0] in_nwords, end_moved;
  assign in_cmd    = osif_i.in_data[weft_osif_pkg::RespCmdMsb:weft_osif_pkg::RespCmdLsb];
  assign in_status = osif_i.in_data[weft_osif_pkg::RespStatusMsb:weft_osif_pkg::RespStatusLsb];
  assign in_nwords = osif_i.in_data[weft_osif_pkg::RespNwordsMsb:weft_osif_pkg::RespNwordsLsb];
  assign end_status = osif_i.in_data[weft_osif_pkg::BurstEndStatusMsb:weft_osif_pkg::BurstEndStatusLsb];
  assign end_moved = osif_i.in_data[weft_osif_pkg::BurstEndMovedMsb:weft_osif_pkg::BurstEndMovedLsb];

  // A burst_end word that fits its burst: OK with every word moved, or CANCELED or
  // TIMEDOUT with fewer.
  logic end_ok;
  assign end_ok = (end_status == weft_osif_pkg::StatusOk) ? (end_moved == burst_q) :
                  ((end_status == weft_osif_pkg::StatusCanceled ||
                    end_status == weft_osif_pkg::StatusTimedout) && end_moved < burst_q);

  localparam logic [7:0] Cmd = Mq ? (Put ? weft_osif_pkg::CmdMqSend : weft_osif_pkg::CmdMqReceive)
                                : (Put ? weft_osif_pkg::CmdMboxPutBurst
                                       : weft_osif_pkg::CmdMboxGetBurst);
  localparam logic [15:0] MaxBytes = 16'(4 * MaxBurst);

  logic [31:0] hdr;
  assign hdr = weft_osif_pkg::req_header(Cmd, req_i.handle,
                                         Put ? 8'(next_burst) + 8'(Mq) : 8'd1);

  // The response header a call's success has: a put's burst_end (mailbox) or nothing
  // (queue); a get's words and burst_end (mailbox) or msg_info and up to MaxBurst words.
  logic rsp_fits;
  always_comb begin
    if (Put) begin
      rsp_fits = in_nwords == (Mq ? 16'd0 : 16'd1);
    end else if (Mq) begin
      rsp_fits = in_nwords != '0 && in_nwords <= 16'(MaxBurst) + 16'd1;
    end else begin
      rsp_fits = in_nwords == burst_q + 16'd1;
    end
  end

  // A received message's words, from msg_info's length in bytes.
  logic [15:0] info_words;
  assign info_words = 16'((17'(osif_i.in_data[15:0]) + 17'd3) >> 2);

  logic done;

  always_comb begin
    state_d  = state_q;
    left_d   = left_q;
    moved_d  = moved_q;
    burst_d  = burst_q;
    idx_d    = idx_q;
    status_d = status_q;
    drain_d  = drain_q;
    osif_o = '0;
    osif_o.out_data = hdr;
    words_ready_o = 1'b0;
    words_o.valid = 1'b0;
    words_o.data  = osif_i.in_data;
    done = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (req_i.valid) begin
          left_d   = req_i.count;
          moved_d  = '0;
          status_d = weft_osif_pkg::StatusOk;
          state_d  = (req_i.count == '0) ? StDone : StHdr;
        end
      end

      StHdr: begin
        burst_d = next_burst;
        osif_o.out_valid = 1'b1;
        if (osif_i.out_ready) begin
          idx_d   = '0;
          state_d = (Mq && Put) ? StInfo : StWords;
        end
      end

      StInfo: begin
        if (Put) begin
          osif_o.out_valid = 1'b1;
          osif_o.out_data  = {16'd0, burst_q << 2};  // priority 0, length in bytes
          if (osif_i.out_ready) begin
            state_d = StWords;
          end
        end else begin
          // The message fits: its length matches the response, and the words left.
          osif_o.in_ready = 1'b1;
          if (osif_i.in_valid) begin
            drain_d = 1'b1;
            state_d = (burst_q == '0) ? StDone : StData;
            if (info_words != burst_q) begin
              status_d = weft_osif_pkg::StatusInternal;
            end else if (32'(burst_q) > left_q) begin
              status_d = weft_osif_pkg::StatusMsgsize;
            end else begin
              drain_d = 1'b0;
              state_d = (burst_q != '0) ? StData : (left_q == '0) ? StDone : StHdr;
            end
          end
        end
      end

      StWords: begin
        if (Put) begin
          osif_o.out_valid = words_i.valid;
          osif_o.out_data  = words_i.data;
          words_ready_o = osif_i.out_ready;
          if (words_i.valid && osif_i.out_ready) begin
            idx_d = idx_q + 16'd1;
            if (idx_q + 16'd1 == burst_q) begin
              state_d = StRespHdr;
            end
          end
        end else begin
          osif_o.out_valid = 1'b1;
          osif_o.out_data  = Mq ? 32'(MaxBytes) : 32'(burst_q);
          if (osif_i.out_ready) begin
            state_d = StRespHdr;
          end
        end
      end

      // An OK response carries burst_end (after the burst's words, for a get).
      StRespHdr: begin
        osif_o.in_ready = 1'b1;
        if (osif_i.in_valid) begin
          idx_d = '0;
          if (in_cmd != Cmd || (in_status == weft_osif_pkg::StatusOk && !rsp_fits)) begin
            status_d = weft_osif_pkg::StatusInternal;
            burst_d  = in_nwords;
            drain_d  = 1'b1;
            state_d  = (in_nwords == '0) ? StDone : StData;
          end else if (in_status != weft_osif_pkg::StatusOk) begin
            status_d = in_status;
            burst_d  = in_nwords;
            drain_d  = 1'b1;
            state_d  = (in_nwords == '0) ? StDone : StData;
          end else if (Mq && Put) begin
            moved_d = moved_q + 32'(burst_q);
            left_d  = left_q - 32'(burst_q);
            state_d = (left_q == 32'(burst_q)) ? StDone : StHdr;
          end else if (Mq) begin
            burst_d = in_nwords - 16'd1;  // the message's words, after msg_info
            state_d = StInfo;
          end else begin
            drain_d = 1'b0;
            state_d = Put ? StEnd : StData;
          end
        end
      end

      StData: begin
        words_o.valid = !drain_q && osif_i.in_valid;
        osif_o.in_ready = drain_q || words_ready_i;
        if (osif_i.in_valid && osif_o.in_ready) begin
          idx_d = idx_q + 16'd1;
          if (idx_q + 16'd1 == burst_q) begin
            state_d = drain_q ? StDone : StEnd;
            if (Mq && !drain_q) begin
              moved_d = moved_q + 32'(burst_q);
              left_d  = left_q - 32'(burst_q);
              state_d = (left_q == 32'(burst_q)) ? StDone : StHdr;
            end
          end
        end
      end

      StEnd: begin
        osif_o.in_ready = 1'b1;
        if (osif_i.in_valid) begin
          if (!end_ok) begin
            status_d = weft_osif_pkg::StatusInternal;
            state_d  = StDone;
          end else begin
            moved_d  = moved_q + 32'(end_moved);
            left_d   = left_q - 32'(end_moved);
            status_d = end_status;
            state_d  = (end_status != weft_osif_pkg::StatusOk || left_q == 32'(burst_q)) ?
                       StDone : StHdr;
          end
        end
      end

      StDone: begin
        done    = 1'b1;
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

  assign rsp_o.done   = done;
  assign rsp_o.status = status_q;
  assign rsp_o.moved  = moved_q;
  assign rsp_o.busy   = (state_q != StIdle) || req_i.valid;

  if (MaxBurst < 1 || MaxBurst > weft_osif_pkg::OsifMaxArgs - (Mq ? 2 : 0)) begin : gen_check_burst
    $error("weft_mbox_stream: MaxBurst must be 1..OsifMaxArgs (Mq: OsifMaxArgs - 2)");
  end

endmodule

// Formal harness of weft_sched (docs/hw-services.md), for Yosys's SMT flow
// (tests/formal/CMakeLists.txt): a small shape (4 threads, 2 priorities), every request
// the solver can think of, and a shadow of what the queues must hold (which threads are
// queued, at which priority, in which order they came), updated at the edge that ends a
// response cycle. Proved for every sequence of requests up to the run's depth
// (tests/formal/CMakeLists.txt: 22 cycles, reset and four requests answered; a step more
// takes z3 4 times as long):
//   - bounded latency: every request is answered exactly 4 cycles (weft_sched's
//     OpLatency) after it was taken, and no other is taken meanwhile;
//   - queue order: a dequeue takes a thread of the most urgent non-empty priority, the
//     one that came first among them, or the last one enqueued at the head (req_head_i)
//     before them;
//   - the decision (top_*) and the count in every cycle: those of the shadow after the
//     last response, from that response's cycle on (in the response cycle, the shadow
//     with the response applied), top_tid and top_prio 0 with nothing queued; and they
//     keep their values in every cycle without a response (decided together, never half
//     old and half new);
//   - no lost waiter: a dequeue answers empty only when nothing is queued, a remove finds
//     every queued thread, the count is the number queued;
//   - no double grant: a dequeued or removed thread is no longer queued, an enqueue of a
//     queued thread is refused;
//   - every response field defined: each answer's thread and priority are the ones the
//     block's header gives, 0 where they mean nothing (a range error, an empty dequeue,
//     a thread not queued).
// A second instance (3 threads, 3 priorities, not powers of two, its own free requests
// with ids and priorities up to one past the end) runs beside it for the block's own
// assertions (hw/rtl/weft_sched.sv, outside SYNTHESIS): every RAM index in range.
module weft_sched_formal (
  input logic       clk_i,
  input logic       rst_ni,
  input logic       req_valid_i,
  input logic [1:0] req_op_i,
  input logic [7:0] req_tid_i,
  input logic [6:0] req_prio_i,
  input logic       req_head_i,
  // The second instance's requests.
  input logic       req2_valid_i,
  input logic [1:0] req2_op_i,
  input logic [7:0] req2_tid_i,
  input logic [6:0] req2_prio_i,
  input logic       req2_head_i
);
  localparam int unsigned N = 4;
  localparam int unsigned P = 2;
  localparam logic [2:0] Latency = 3'd4;  // weft_sched's OpLatency
  localparam logic [1:0] OpEnqueue = 2'd0, OpDequeue = 2'd1, OpRemove = 2'd2;
  localparam logic [2:0] StOk = 3'd0, StEmpty = 3'd1, StBusy = 3'd2, StIdle = 3'd3, StRange = 3'd4;

  logic req_ready, rsp_valid, top_valid;
  logic [2:0] rsp_status;
  logic [1:0] rsp_tid, top_tid;
  logic rsp_prio, top_prio;
  logic [2:0] count;

  weft_sched #(.NumThreads(N), .NumPrios(P)) dut (
    .clk_i, .rst_ni, .req_valid_i, .req_ready_o(req_ready), .req_op_i, .req_tid_i, .req_prio_i,
    .req_head_i, .rsp_valid_o(rsp_valid), .rsp_status_o(rsp_status), .rsp_tid_o(rsp_tid),
    .rsp_prio_o(rsp_prio), .top_valid_o(top_valid), .top_tid_o(top_tid),
    .top_prio_o(top_prio), .count_o(count));

  // A shape that is not a power of two, for the block's own assertions (RAM indices in
  // range): its outputs are not looked at.
  weft_sched #(.NumThreads(3), .NumPrios(3)) dut_npot (
    .clk_i, .rst_ni, .req_valid_i(req2_valid_i), .req_ready_o(), .req_op_i(req2_op_i),
    .req_tid_i(req2_tid_i), .req_prio_i(req2_prio_i), .req_head_i(req2_head_i), .rsp_valid_o(), .rsp_status_o(),
    .rsp_tid_o(), .rsp_prio_o(), .top_valid_o(), .top_tid_o(), .top_prio_o(), .count_o());

  // Reset in the first cycle and never again.
  always @* begin
    if ($initstate) assume (!rst_ni);
    else assume (rst_ni);
  end

  // ---- the request in flight ---------------------------------------------------------
  logic busy_q;
  logic [2:0] age_q;
  logic [1:0] op_q;
  logic [7:0] tid_q;
  logic [6:0] prio_q;
  logic head_q;
  wire take = req_valid_i && req_ready;

  // ---- the shadow ------------------------------------------------------------------------
  // sh_*: after the last response; sh_*_n: after this cycle's (sh_* if none), what the
  // registers take at the edge.
  logic [N-1:0] sh_q, sh_n;    // queued
  logic sh_prio [N];           // at which priority
  logic sh_prio_n [N];
  logic [4:0] sh_stamp [N];    // when it came (enqueue order): an enqueue at the tail
  logic [4:0] sh_stamp_n [N];  // takes stamps counting up from 16, one at the head
  logic [4:0] stamp_q, stamp_n, hstamp_q, hstamp_n;  // stamps counting down from 15

  wire tid_ok = tid_q < N;
  wire prio_ok = prio_q < P;
  wire [1:0] t = tid_q[1:0];

  // The thread a dequeue must take: most urgent priority, then first come; of the shadow
  // (best*) and of the shadow after this cycle's response (nbest*).
  logic best_valid, best_p, nbest_valid, nbest_p;
  logic [1:0] best, nbest;
  logic [4:0] best_s, nbest_s;
  logic [2:0] nsh_count;
  integer j;
  always @* begin
    best_valid = 1'b0;
    best = 2'd0;
    best_p = 1'b0;
    best_s = 5'd0;
    for (j = 0; j < N; j = j + 1) begin
      if (sh_q[j] && (!best_valid || sh_prio[j] < best_p ||
                      (sh_prio[j] == best_p && sh_stamp[j] < best_s))) begin
        best_valid = 1'b1;
        best = j[1:0];
        best_p = sh_prio[j];
        best_s = sh_stamp[j];
      end
    end
  end

  always @* begin
    sh_n = sh_q;
    stamp_n = stamp_q;
    hstamp_n = hstamp_q;
    for (j = 0; j < N; j = j + 1) begin
      sh_prio_n[j] = sh_prio[j];
      sh_stamp_n[j] = sh_stamp[j];
    end
    if (rsp_valid) begin
      // The shadow follows what the model says must happen.
      if (op_q == OpEnqueue && tid_ok && prio_ok && !sh_q[t]) begin
        sh_n[t] = 1'b1;
        sh_prio_n[t] = prio_q[0];
        if (head_q) begin
          sh_stamp_n[t] = hstamp_q;
          hstamp_n = hstamp_q - 5'd1;
        end else begin
          sh_stamp_n[t] = stamp_q;
          stamp_n = stamp_q + 5'd1;
        end
      end
      if (op_q == OpDequeue && best_valid) sh_n[best] = 1'b0;
      if (op_q == OpRemove && tid_ok) sh_n[t] = 1'b0;
    end
  end

  always @* begin
    nbest_valid = 1'b0;
    nbest = 2'd0;
    nbest_p = 1'b0;
    nbest_s = 5'd0;
    nsh_count = 3'd0;
    for (j = 0; j < N; j = j + 1) begin
      nsh_count = nsh_count + {2'd0, sh_n[j]};
      if (sh_n[j] && (!nbest_valid || sh_prio_n[j] < nbest_p ||
                      (sh_prio_n[j] == nbest_p && sh_stamp_n[j] < nbest_s))) begin
        nbest_valid = 1'b1;
        nbest = j[1:0];
        nbest_p = sh_prio_n[j];
        nbest_s = sh_stamp_n[j];
      end
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      age_q <= 3'd0;
      sh_q <= '0;
      stamp_q <= 5'd16;
      hstamp_q <= 5'd15;
    end else begin
      // A request may be taken in the very cycle the previous one is answered.
      if (take) begin
        busy_q <= 1'b1;
        age_q <= 3'd0;  // the edge that takes it is cycle 0
        op_q <= req_op_i;
        tid_q <= req_tid_i;
        prio_q <= req_prio_i;
        head_q <= req_head_i;
      end else if (rsp_valid) begin
        busy_q <= 1'b0;
      end else if (busy_q) begin
        age_q <= age_q + 3'd1;
      end
      sh_q <= sh_n;
      stamp_q <= stamp_n;
      hstamp_q <= hstamp_n;
      for (j = 0; j < N; j = j + 1) begin
        sh_prio[j] <= sh_prio_n[j];
        sh_stamp[j] <= sh_stamp_n[j];
      end
    end
  end

  // Ids and priorities: every valid one and one past the end stand for all out of range
  // (the block compares them with the shape as a whole), which keeps the search small.
  always @* assume (req_tid_i <= 8'd4 && req_prio_i <= 7'd2);
  always @* assume (req2_tid_i <= 8'd3 && req2_prio_i <= 7'd3);

  // The stamps of a bounded run never wrap.
  always @* assume (stamp_q != 5'd31 && hstamp_q != 5'd0);

  always @(posedge clk_i) begin
    if (rst_ni && !$initstate) begin
      // Bounded latency: answered exactly OpLatency cycles after it was taken, nothing
      // else taken.
      assert (rsp_valid == (busy_q && age_q == Latency));
      assert (!(busy_q && req_ready && !rsp_valid));
      if (rsp_valid) begin
        // Status, thread and priority; 0 where they mean nothing.
        unique case (op_q)
          OpEnqueue: begin
            assert (rsp_status == (!(tid_ok && prio_ok) ? StRange : sh_q[t] ? StBusy : StOk));
            if (tid_ok && prio_ok) assert (rsp_tid == t && rsp_prio == prio_q[0]);
            else assert (rsp_tid == 2'd0 && rsp_prio == 1'b0);
          end
          OpDequeue: begin
            assert (rsp_status == (best_valid ? StOk : StEmpty));
            if (best_valid) assert (rsp_tid == best && rsp_prio == best_p);
            else assert (rsp_tid == 2'd0 && rsp_prio == 1'b0);
          end
          OpRemove: begin
            assert (rsp_status == (!tid_ok ? StRange : sh_q[t] ? StOk : StIdle));
            if (!tid_ok) assert (rsp_tid == 2'd0 && rsp_prio == 1'b0);
            else if (sh_q[t]) assert (rsp_tid == t && rsp_prio == sh_prio[t]);
            else assert (rsp_tid == t && rsp_prio == 1'b0);
          end
          default: begin
            assert (rsp_status == (!tid_ok ? StRange : sh_q[t] ? StOk : StEmpty));
            if (!tid_ok) assert (rsp_tid == 2'd0 && rsp_prio == 1'b0);
            else if (sh_q[t]) assert (rsp_tid == t && rsp_prio == sh_prio[t]);
            else assert (rsp_tid == t && rsp_prio == 1'b0);
          end
        endcase
      end
      // Every cycle: the count and the decision are the shadow's after the last response,
      // this cycle's included (so in flight, the one before; from the response cycle on,
      // the new one); 0 where there is no thread.
      assert (count == nsh_count);
      assert (top_valid == nbest_valid && top_tid == (nbest_valid ? nbest : 2'd0) &&
              top_prio == (nbest_valid && nbest_p));
      // And they change only into a response cycle.
      if (!rsp_valid) begin
        assert (count == $past(count) && top_valid == $past(top_valid) &&
                top_tid == $past(top_tid) && top_prio == $past(top_prio));
      end
    end
  end
endmodule

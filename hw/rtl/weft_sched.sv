// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_sched: the ready queues of a fixed-priority scheduler in hardware (docs/hw-services.md).
//
// NumThreads threads (ids 0..NumThreads-1) and NumPrios priorities, 0 the most urgent.
// Each priority has a FIFO of ready threads, kept as a doubly linked list through
// per-thread next/prev words; head and tail per priority; one bit per priority says its
// list is not empty, and a priority encoder over those bits finds the most urgent one.
// The lists live in RAMs with one read and one write port each (block or distributed
// RAM), so the block's size grows with the thread and priority counts while every
// operation takes the same number of cycles however many threads are queued.
//
// One operation at a time, with a valid/ready request and a one-cycle response:
//   OpEnqueue tid prio  append tid to priority prio's FIFO (it must not be queued); with
//                       req_head_i, put it at the head instead (a preempted thread, which
//                       POSIX SCHED_FIFO keeps first among its priority)
//   OpDequeue           take the most urgent thread: the head of the most urgent queue
//   OpRemove  tid       take tid out of its queue wherever it stands (it must be queued)
//   OpQuery   tid       whether tid is queued, and at which priority
// Timing, counting edges of clk_i: a request is taken at an edge where req_valid_i and
// req_ready_o are high, edge 0. Its response is produced at edge OpLatency (= 4, the 4th
// edge after edge 0) and is on rsp_* in the one cycle that follows, the response cycle,
// where rsp_valid_o is high; every operation alike. req_ready_o is low from edge 0 to
// the response cycle and high again in it, so the next request can be taken at the edge
// that ends the response cycle (edge OpLatency + 1): one request every OpLatency + 1 = 5
// cycles.
//
// The decision, the thread a dequeue would take (top_*), and the count (count_o) are
// registers updated at the same edge as the response (edge OpLatency), all together:
// from the response cycle on they include that request's change, and they do not change
// in any other cycle, so while a request is in flight they still describe the queues
// after the last response. After reset nothing is queued: top_valid_o low, count_o 0.
// With top_valid_o low, top_tid_o and top_prio_o are 0.
//
// Every response field is defined (no RAM word that means nothing is passed on):
//   enqueue  rsp_tid_o, rsp_prio_o: the request's thread and priority (StOk, StBusy)
//   dequeue  the thread taken and its priority (StOk); 0 and 0 (StEmpty)
//   remove   the thread and the priority it had (StOk); the thread and 0 (StIdle)
//   query    the thread and its priority (StOk); the thread and 0 (StEmpty: not queued)
//   StRange  0 and 0, whatever the operation
//
// A request that names a thread out of range or a priority out of range, enqueues a
// queued thread or removes one that is not queued is answered with its status and
// changes nothing; a dequeue with nothing queued answers StEmpty. Every RAM is indexed in
// range whatever the request (ids and priorities out of range are taken as 0 inside the
// block), also for shapes that are not powers of two.
module weft_sched #(
  /// Threads the queues hold (ids 0..NumThreads-1), 2 to 256.
  parameter int unsigned NumThreads = 256,
  /// Priorities, 0 the most urgent, 2 to 128.
  parameter int unsigned NumPrios = 128,
  /// Width of a thread id (derived; do not override).
  parameter int unsigned TidWidth = $clog2(NumThreads),
  /// Width of a priority (derived; do not override).
  parameter int unsigned PrioWidth = $clog2(NumPrios)
) (
  /// Fabric clock.
  input  logic                 clk_i,
  /// Active-low reset (asynchronous assert): every queue empty.
  input  logic                 rst_ni,

  /// A request waits.
  input  logic                 req_valid_i,
  /// The block takes a request at this edge if req_valid_i.
  output logic                 req_ready_o,
  /// The operation (OpEnqueue, OpDequeue, OpRemove, OpQuery).
  input  logic [1:0]           req_op_i,
  /// Thread of an enqueue, remove or query (8 bits whatever NumThreads, so an id out of
  /// range can be named and refused).
  input  logic [7:0]           req_tid_i,
  /// Priority of an enqueue (7 bits whatever NumPrios, for the same reason).
  input  logic [6:0]           req_prio_i,
  /// An enqueue goes to the head of its priority's queue, not the tail.
  input  logic                 req_head_i,

  /// High in the response cycle (one cycle, after the OpLatency-th edge from the one that
  /// took the request): the request's answer is on rsp_*.
  output logic                 rsp_valid_o,
  /// StOk, StEmpty (dequeue of nothing; query of a thread not queued), StBusy (enqueue of
  /// a queued thread), StIdle (remove of a thread not queued), StRange (id or priority
  /// out of range).
  output logic [2:0]           rsp_status_o,
  /// The thread enqueued, dequeued, removed or queried; 0 for StRange and an empty
  /// dequeue.
  output logic [TidWidth-1:0]  rsp_tid_o,
  /// Its priority (an enqueue's: the request's); 0 where the thread has none (not
  /// queued, empty dequeue) and for StRange.
  output logic [PrioWidth-1:0] rsp_prio_o,

  /// Some thread is queued (as of the last response; all of top_* and count_o change
  /// together, at the edge that produces a response, and only then).
  output logic                 top_valid_o,
  /// The thread a dequeue would take: head of the most urgent non-empty queue; 0 if none.
  output logic [TidWidth-1:0]  top_tid_o,
  /// Its priority; 0 if none.
  output logic [PrioWidth-1:0] top_prio_o,
  /// Threads queued, 0 to NumThreads (as of the last response).
  output logic [TidWidth:0]    count_o
);

  // Operations and statuses (docs/hw-services.md has the register view of them).
  localparam logic [1:0] OpEnqueue = 2'd0;
  localparam logic [1:0] OpDequeue = 2'd1;
  localparam logic [1:0] OpRemove = 2'd2;
  localparam logic [1:0] OpQuery = 2'd3;
  localparam logic [2:0] StOk = 3'd0;
  localparam logic [2:0] StEmpty = 3'd1;
  localparam logic [2:0] StBusy = 3'd2;
  localparam logic [2:0] StIdle = 3'd3;
  localparam logic [2:0] StRange = 3'd4;

  // ---- storage ------------------------------------------------------------------------
  // Per thread: whether it is queued (flip-flops, so that reset empties every queue), its
  // priority, and its neighbours in its queue as {valid, tid}: an invalid prev marks the
  // head, an invalid next the tail. Per priority: head and tail, valid while its bit in
  // nonempty_q is set. Every RAM has one synchronous read and one write port.
  localparam int unsigned LinkWidth = TidWidth + 1;
  logic [NumThreads-1:0] queued_q;
  logic [LinkWidth-1:0]  next_mem [NumThreads];
  logic [LinkWidth-1:0]  prev_mem [NumThreads];
  logic [PrioWidth-1:0]  prio_mem [NumThreads];
  logic [TidWidth-1:0]   head_mem [NumPrios];
  logic [TidWidth-1:0]   tail_mem [NumPrios];
  logic [NumPrios-1:0]   nonempty_q;

  // ---- the operation in progress --------------------------------------------------------
  // Every operation takes the same steps, OpLatency = 4 edges from the one that takes it
  // (into StepRead) to the one that produces the response (out of StepTop): StepRead (the
  // thread's priority and neighbours, the tail and the head of the request's priority are
  // read), StepLink (the lists, the queued and not-empty bits are updated), StepEnd (an
  // enqueued thread's next, or prev at the head, is made invalid: its own write, since
  // StepLink wrote that word of the old tail, or head; the most urgent queue's head is
  // read at its edge), StepTop (at its edge the
  // response, the decision and the count are updated, together). A step's number is the
  // count of edges since the request was taken.
  localparam int unsigned OpLatency = 4;
  typedef enum logic [2:0] {StepIdle, StepRead, StepLink, StepEnd, StepTop} step_e;
  if (OpLatency != 32'(StepTop)) begin : gen_latency_check
    $error("weft_sched: OpLatency must be the number of steps, StepRead to StepTop");
  end
  step_e step_q;
  logic [1:0] op_q;
  logic [TidWidth-1:0] tid_q;  // 0 if the request's is out of range
  logic [PrioWidth-1:0] prio_q;  // 0 if the request's is out of range
  logic bad_q;  // the request named an id or priority out of range
  logic head_q;  // an enqueue at the head
  logic linked_q;  // StepLink enqueued the thread (StepEnd ends its list there)
  logic unlinked_q;  // StepLink dequeued or removed it

  // The decision and the count as of the last response; nonempty_q, which the priority
  // encoder reads, and the queued bits change at StepLink already.
  logic top_valid_q;
  logic [TidWidth-1:0] top_tid_q;
  logic [PrioWidth-1:0] top_prio_q;
  logic [TidWidth:0] count_q;
  logic rsp_valid_q;
  logic [2:0] rsp_status_q;
  logic [TidWidth-1:0] rsp_tid_q;
  logic [PrioWidth-1:0] rsp_prio_q;

  // The most urgent non-empty priority: the lowest set bit (a priority encoder); 0 if none.
  // Worked out only while an operation is in progress (StepEnd and StepTop use it): a
  // simulator then skips the loop while the block is idle; in hardware it is one AND.
  logic [PrioWidth-1:0] first_prio;
  always_comb begin
    first_prio = '0;
    if (step_q != StepIdle) begin
      for (int i = NumPrios - 1; i >= 0; i--) begin
        if (nonempty_q[i]) begin
          first_prio = PrioWidth'(i);
        end
      end
    end
  end

  // The thread the operation is about: the request's, or for a dequeue the decision (0
  // with nothing queued). Both are in range, so every RAM index below is.
  logic [TidWidth-1:0] t;
  assign t = (op_q == OpDequeue) ? top_tid_q : tid_q;

  // Synchronous reads in every cycle of an operation (none while idle); what StepRead
  // reads is used in StepLink: head_rd is then the head of the request's priority (an
  // enqueue at the head goes before it), and from StepLink on the most urgent queue's.
  logic [LinkWidth-1:0] next_rd, prev_rd;
  logic [PrioWidth-1:0] prio_rd;
  logic [TidWidth-1:0] tail_rd, head_rd;
  always_ff @(posedge clk_i) begin
    if (step_q != StepIdle) begin
      next_rd <= next_mem[t];
      prev_rd <= prev_mem[t];
      prio_rd <= prio_mem[t];
      tail_rd <= tail_mem[prio_q];
      head_rd <= head_mem[(step_q == StepRead) ? prio_q : first_prio];
    end
  end

  // StepLink's decision: is the operation carried out, and on which priority's queue.
  logic is_queued, carry_out;
  logic [PrioWidth-1:0] p;
  assign is_queued = queued_q[t];
  assign p = (op_q == OpEnqueue) ? prio_q : prio_rd;
  always_comb begin
    unique case (op_q)
      OpEnqueue: carry_out = !bad_q && !is_queued;
      OpDequeue: carry_out = top_valid_q;
      OpRemove:  carry_out = !bad_q && is_queued;
      default:   carry_out = 1'b0;
    endcase
  end
  logic link, unlink;
  assign link = step_q == StepLink && carry_out && op_q == OpEnqueue;
  assign unlink = step_q == StepLink && carry_out && op_q != OpEnqueue;

  // ---- the RAM writes ----------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (link && !head_q) begin  // t after the tail of p, or alone
      prio_mem[t] <= p;
      prev_mem[t] <= {nonempty_q[p], tail_rd};
      tail_mem[p] <= t;
      if (nonempty_q[p]) begin
        next_mem[tail_rd] <= {1'b1, t};
      end else begin
        head_mem[p] <= t;
      end
    end
    if (link && head_q) begin  // t before the head of p, or alone
      prio_mem[t] <= p;
      next_mem[t] <= {nonempty_q[p], head_rd};
      head_mem[p] <= t;
      if (nonempty_q[p]) begin
        prev_mem[head_rd] <= {1'b1, t};
      end else begin
        tail_mem[p] <= t;
      end
    end
    if (step_q == StepEnd && linked_q) begin
      if (head_q) prev_mem[t] <= '0;  // t is the head
      else next_mem[t] <= '0;  // t is the tail
    end
    if (unlink) begin  // its neighbours meet; an end moves
      if (prev_rd[TidWidth]) begin
        next_mem[prev_rd[TidWidth-1:0]] <= next_rd;
      end else if (next_rd[TidWidth]) begin
        head_mem[p] <= next_rd[TidWidth-1:0];
      end
      if (next_rd[TidWidth]) begin
        prev_mem[next_rd[TidWidth-1:0]] <= prev_rd;
      end else if (prev_rd[TidWidth]) begin
        tail_mem[p] <= prev_rd[TidWidth-1:0];
      end
    end
  end

  // ---- control ------------------------------------------------------------------------------
  assign req_ready_o = step_q == StepIdle;

  logic tid_ok, prio_ok;  // the request's id and priority are in range
  assign tid_ok = 32'(req_tid_i) < NumThreads;
  assign prio_ok = 32'(req_prio_i) < NumPrios;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      step_q <= StepIdle;
      op_q <= OpQuery;
      tid_q <= '0;
      prio_q <= '0;
      bad_q <= 1'b0;
      head_q <= 1'b0;
      linked_q <= 1'b0;
      unlinked_q <= 1'b0;
      queued_q <= '0;
      nonempty_q <= '0;
      top_valid_q <= 1'b0;
      top_tid_q <= '0;
      top_prio_q <= '0;
      count_q <= '0;
      rsp_valid_q <= 1'b0;
      rsp_status_q <= StOk;
      rsp_tid_q <= '0;
      rsp_prio_q <= '0;
    end else begin
      rsp_valid_q <= 1'b0;
      unique case (step_q)
        StepIdle: if (req_valid_i) begin
          op_q <= req_op_i;
          tid_q <= tid_ok ? TidWidth'(req_tid_i) : '0;
          prio_q <= prio_ok ? PrioWidth'(req_prio_i) : '0;
          bad_q <= (req_op_i != OpDequeue && !tid_ok) || (req_op_i == OpEnqueue && !prio_ok);
          head_q <= req_head_i;
          step_q <= StepRead;
        end
        StepRead: step_q <= StepLink;
        StepLink: begin
          linked_q <= link;
          unlinked_q <= unlink;
          rsp_tid_q <= t;
          rsp_prio_q <= p;
          rsp_status_q <= StOk;
          if (bad_q) begin
            rsp_status_q <= StRange;
            rsp_tid_q <= '0;
            rsp_prio_q <= '0;
          end else if (!carry_out) begin
            unique case (op_q)
              OpEnqueue: rsp_status_q <= StBusy;  // the request's thread and priority
              OpRemove:  rsp_status_q <= StIdle;
              OpDequeue: rsp_status_q <= StEmpty;
              default:   rsp_status_q <= is_queued ? StOk : StEmpty;  // query
            endcase
            // prio_rd means nothing for a thread not queued; an empty dequeue's t is the
            // decision's top_tid_q, 0 with nothing queued, and not queued.
            if (op_q != OpEnqueue && !is_queued) begin
              rsp_prio_q <= '0;
            end
          end else if (op_q == OpEnqueue) begin
            queued_q[t] <= 1'b1;
            nonempty_q[p] <= 1'b1;
          end else begin
            queued_q[t] <= 1'b0;
            if (!prev_rd[TidWidth] && !next_rd[TidWidth]) begin
              nonempty_q[p] <= 1'b0;  // it was alone
            end
          end
          step_q <= StepEnd;
        end
        StepEnd: step_q <= StepTop;
        default: begin  // StepTop: head_rd is the head of the most urgent queue
          rsp_valid_q <= 1'b1;
          top_valid_q <= |nonempty_q;
          top_prio_q <= first_prio;
          top_tid_q <= (|nonempty_q) ? head_rd : '0;
          if (linked_q) begin
            count_q <= count_q + 1'b1;
          end else if (unlinked_q) begin
            count_q <= count_q - 1'b1;
          end
          step_q <= StepIdle;
        end
      endcase
    end
  end

  assign rsp_valid_o = rsp_valid_q;
  assign rsp_status_o = rsp_status_q;
  assign rsp_tid_o = rsp_tid_q;
  assign rsp_prio_o = rsp_prio_q;
  assign top_valid_o = top_valid_q;
  assign top_tid_o = top_tid_q;
  assign top_prio_o = top_prio_q;
  assign count_o = count_q;

`ifndef SYNTHESIS
  // Every RAM and bit vector is indexed in range (read by Verilator with --assert and by
  // the formal flow, where FORMAL replaces SYNTHESIS; tests/formal/weft_sched_formal.sv
  // checks it on a shape that is not a power of two).
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (32'(t) < NumThreads && 32'(prio_q) < NumPrios && 32'(first_prio) < NumPrios);
      if (link) begin
        assert (!nonempty_q[p] || 32'(tail_rd) < NumThreads);
      end
      if (unlink) begin
        assert (32'(p) < NumPrios);
        assert (!prev_rd[TidWidth] || 32'(prev_rd[TidWidth-1:0]) < NumThreads);
        assert (!next_rd[TidWidth] || 32'(next_rd[TidWidth-1:0]) < NumThreads);
      end
    end
  end
`endif

endmodule

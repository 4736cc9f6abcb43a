// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_fifo: synchronous first-word-fall-through FIFO.
//
// Protocol: a word is written on a rising edge where push_i is high and full_o is low; a
// word is removed on a rising edge where pop_i is high and empty_o is low. rdata_o shows
// the oldest word whenever empty_o is low. A push while full or a pop while empty is a
// protocol error of the user (flagged by assertions) and has no effect. Push and pop in
// the same cycle move one word each, so the FIFO streams one word per cycle.
//
// Every output (rdata_o, full_o, empty_o, count_o) is a function of registers only: no
// combinational path runs from push_i/pop_i/wdata_i to an output. flush_i empties the
// FIFO on the next edge and takes precedence over push and pop. The storage has no reset;
// only the pointers and the fill count are reset. A small FIFO's storage is distributed
// RAM read as it is (the head is mem[rptr]); one of BramBits or more is block RAM, whose
// read is registered: it reads the word that is the head after the edge (at the next
// read pointer) at every edge, and a word written where that read looks in the same
// cycle (into an empty FIFO, or the place a pop makes the head) is kept in a bypass
// register for the cycle its read missed it. Both stream a word per cycle. still_o (the
// next edge changes no register) is a hint for a simulator (docs/architecture.md,
// "Holding"); it depends on push_i and pop_i.
module weft_fifo #(
  /// Bits per word.
  parameter int unsigned Width = 32,
  /// Capacity in words (at least 2).
  parameter int unsigned Depth = 16,
  /// Width * Depth from which the storage is block RAM (a board's 18 Kbit blocks; the
  /// smaller FIFOs are distributed RAM).
  parameter int unsigned BramBits = 2048,
  /// Width of the fill count (derived; do not override).
  parameter int unsigned CountWidth = $clog2(Depth + 1)
) (
  /// Fabric clock.
  input  logic                  clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic                  rst_ni,
  /// Synchronous clear of the contents.
  input  logic                  flush_i,
  /// Write one word (ignored while full_o).
  input  logic                  push_i,
  /// Word to write.
  input  logic [Width-1:0]      wdata_i,
  /// Remove the oldest word (ignored while empty_o).
  input  logic                  pop_i,
  /// Oldest word, valid while empty_o is low.
  output logic [Width-1:0]      rdata_o,
  /// No room for another word.
  output logic                  full_o,
  /// No word stored.
  output logic                  empty_o,
  /// Number of words stored.
  output logic [CountWidth-1:0] count_o,
  /// The next edge changes nothing: no word moves and a flush finds the FIFO empty.
  output logic                  still_o
);

  localparam int unsigned PtrWidth = (Depth > 1) ? $clog2(Depth) : 1;
  localparam logic [PtrWidth-1:0] LastPtr = PtrWidth'(Depth - 1);
  localparam logic [CountWidth-1:0] FullCount = CountWidth'(Depth);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrWidth-1:0] wptr_q, rptr_q;
  logic [CountWidth-1:0] count_q;
  logic full_q, empty_q;
  logic do_push, do_pop;

  assign do_push = push_i && !full_q && !flush_i;
  assign do_pop  = pop_i && !empty_q && !flush_i;

  // Next state computed at the edge, only when something moves: an idle FIFO costs the
  // simulator one test per cycle (docs/architecture.md, "Simulation-friendly RTL").
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
      full_q  <= 1'b0;
      empty_q <= 1'b1;
    end else if (flush_i) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
      full_q  <= 1'b0;
      empty_q <= 1'b1;
    end else if (do_push || do_pop) begin
      if (do_push) begin
        wptr_q <= (wptr_q == LastPtr) ? '0 : wptr_q + 1'b1;
      end
      if (do_pop) begin
        rptr_q <= (rptr_q == LastPtr) ? '0 : rptr_q + 1'b1;
      end
      if (do_push && !do_pop) begin
        count_q <= count_q + 1'b1;
        full_q  <= (count_q == FullCount - 1'b1);
        empty_q <= 1'b0;
      end else if (do_pop && !do_push) begin
        count_q <= count_q - 1'b1;
        full_q  <= 1'b0;
        empty_q <= (count_q == CountWidth'(1));
      end
    end
  end

  // Storage: written without reset so that synthesis maps it to RAM.
  always_ff @(posedge clk_i) begin
    if (do_push) begin
      mem_q[wptr_q] <= wdata_i;
    end
  end

  if (Width * Depth >= BramBits) begin : gen_bram
    // The head after the edge, read at the next read pointer; the bypass holds a word
    // written there in the same cycle (the read does not see it).
    logic [PtrWidth-1:0] rptr_d;
    logic [Width-1:0]    ram_q, byp_q;
    logic                byp_v_q;
    assign rptr_d = do_pop ? ((rptr_q == LastPtr) ? '0 : rptr_q + 1'b1) : rptr_q;
    always_ff @(posedge clk_i) begin
      ram_q <= mem_q[flush_i ? '0 : rptr_d];
      if (do_push) byp_q <= wdata_i;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) byp_v_q <= 1'b0;
      else byp_v_q <= do_push && wptr_q == rptr_d;
    end
    assign rdata_o = byp_v_q ? byp_q : ram_q;
    assign still_o = !do_push && !do_pop && !byp_v_q &&
                     (!flush_i || (empty_q && wptr_q == '0 && rptr_q == '0));
  end else begin : gen_lutram
    assign rdata_o = mem_q[rptr_q];
    assign still_o = !do_push && !do_pop &&
                     (!flush_i || (empty_q && wptr_q == '0 && rptr_q == '0));
  end
  assign full_o  = full_q;
  assign empty_o = empty_q;
  assign count_o = count_q;

`ifndef SYNTHESIS
  // Elaboration-time parameter check.
  if (Depth < 2) begin : gen_depth_check
    $error("weft_fifo: Depth must be at least 2");
  end


  NoPushWhenFull_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(push_i && full_o && !flush_i));
  NoPopWhenEmpty_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(pop_i && empty_o && !flush_i));
  CountInRange_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      count_q <= FullCount);
  StillMeansStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({wptr_q, rptr_q, count_q, full_q, empty_q}));
`endif

endmodule

// weft_test_loopback: a test-only hardware thread that answers every OSIF word it is
// given with that word plus Increment (0: a plain echo), Delay cycles after taking it.
//
// It holds at most one word: while empty it raises slot_o.osif.in_ready (it waits for
// the OS, so the static region may stop clocking it); while full it "computes" for Delay
// cycles with its outputs unchanged (the static region holds meanwhile), then offers the
// answer as a request word and accepts nothing. It never uses MEMIF.
module weft_test_loopback #(
  /// Added to each word before it is sent back.
  parameter logic [31:0] Increment = 32'd0,
  /// Cycles between taking a word and offering the answer.
  parameter logic [15:0] Delay = 16'd0
) (
  `include "weft_slot_ports.svh"
);
  logic        full_q;
  logic [31:0] word_q;
  logic [15:0] wait_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      full_q <= 1'b0;
      word_q <= '0;
      wait_q <= '0;
    end else if (!full_q && slot_i.osif.in_valid) begin
      full_q <= 1'b1;
      word_q <= slot_i.osif.in_data + Increment;
      wait_q <= Delay;
    end else if (full_q && wait_q != '0) begin
      wait_q <= wait_q - 16'd1;
    end else if (full_q && slot_i.osif.out_ready) begin
      full_q <= 1'b0;
    end
  end

  always_comb begin
    slot_o.mem = '0;  // no MEMIF traffic
    slot_o.osif.in_ready  = !full_q;
    slot_o.osif.out_valid = full_q && wait_q == '0;
    slot_o.osif.out_data  = word_q;
  end

  logic unused_memif;
  assign unused_memif = ^slot_i.mem;
  `include "weft_no_regs.svh"

endmodule

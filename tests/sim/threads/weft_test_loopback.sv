// weft_test_loopback: a test-only hardware thread that answers every OSIF word it is
// given with that word plus Increment (0: a plain echo).
//
// It holds at most one word: while empty it raises osif_in_ready_o (it waits for the
// OS, so the static region may stop clocking it); while full it offers the answer on
// osif_out and accepts nothing. It never uses MEMIF.
module weft_test_loopback #(
  /// Added to each word before it is sent back.
  parameter logic [31:0] Increment = 32'd0
) (
  `include "weft_slot_ports.svh"
);
  logic        full_q;
  logic [31:0] word_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      full_q <= 1'b0;
      word_q <= '0;
    end else if (!full_q && osif_in_valid_i) begin
      full_q <= 1'b1;
      word_q <= osif_in_data_i + Increment;
    end else if (full_q && osif_out_ready_i) begin
      full_q <= 1'b0;
    end
  end

  assign osif_in_ready_o  = !full_q;
  assign osif_out_valid_o = full_q;
  assign osif_out_data_o  = word_q;

  assign mem_cmd_data_o  = '0;
  assign mem_cmd_valid_o = 1'b0;
  assign mem_wr_data_o   = '0;
  assign mem_wr_valid_o  = 1'b0;
  assign mem_rd_ready_o  = 1'b0;

  logic unused_memif;
  assign unused_memif = ^{mem_cmd_ready_i, mem_wr_ready_i, mem_rd_data_i, mem_rd_valid_i};
endmodule

// weft_hls_shell: what every one of Weft's HLS-style accelerators has around its kernel
// (docs/hls.md): the ap_ctrl_hs control block (weft_hls_ctrl) and the AXI4 master
// (weft_hls_mem), behind the accelerator's Vitis HLS ports. The kernel sees them as
// weft_hls_pkg's kreq_t/krsp_t; the shell counts each transfer's words for it (rd_index,
// rd_last, wr_index, wr_done), so a kernel only starts a transfer and moves its words:
//
//   module hls_example (`include "weft_hls_ports.svh");
//     weft_hls_pkg::kreq_t k;
//     weft_hls_pkg::krsp_t kr;
//     weft_hls_shell #(.NumArgs(4)) u_shell (.k_i(k), .k_o(kr), .*);
//     ...
module weft_hls_shell #(
  /// Arguments the control block holds (1 .. weft_hls_pkg::MaxArgs).
  parameter int unsigned NumArgs = 4
) (
  `include "weft_hls_ports.svh"
  ,
  input  weft_hls_pkg::kreq_t k_i,
  output weft_hls_pkg::krsp_t k_o
);

  logic [NumArgs*64-1:0] args;
  weft_hls_ctrl #(.NumArgs(NumArgs)) u_ctrl (
    .start_o(k_o.start), .done_i(k_i.done), .args_o(args), .*);
  assign k_o.args = (weft_hls_pkg::MaxArgs*64)'(args);

  // The words of the transfer under way in each direction.
  logic [15:0] rd_words_q, rd_count_q, wr_words_q, wr_count_q;
  logic        wr_on_q;  // a write was started and is not over
  logic        rd_take, wr_take, wr_valid, wr_ready, wr_busy, rd_busy;
  assign rd_take  = k_o.rd_valid && k_i.rd_ready;
  assign wr_valid = k_i.wr_valid && wr_on_q && (wr_count_q != wr_words_q);
  assign wr_take  = wr_valid && wr_ready;
  assign k_o.rd_index = rd_count_q;
  assign k_o.rd_last  = (rd_count_q + 16'd1 == rd_words_q);
  assign k_o.wr_index = wr_count_q;
  assign k_o.wr_done  = wr_on_q && (wr_count_q == wr_words_q) && !wr_busy;

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      rd_words_q <= '0;
      rd_count_q <= '0;
      wr_words_q <= '0;
      wr_count_q <= '0;
      wr_on_q    <= 1'b0;
    end else begin
      if (k_i.rd_start) begin
        rd_words_q <= k_i.rd_words;
        rd_count_q <= '0;
      end else if (rd_take) begin
        rd_count_q <= rd_count_q + 16'd1;
      end
      if (k_i.wr_start) begin
        wr_words_q <= k_i.wr_words;
        wr_count_q <= '0;
        wr_on_q    <= 1'b1;
      end else begin
        if (wr_take) wr_count_q <= wr_count_q + 16'd1;
        if (k_o.wr_done) wr_on_q <= 1'b0;
      end
    end
  end

  weft_hls_mem u_mem (
    .rd_start_i(k_i.rd_start), .rd_addr_i(k_i.rd_addr), .rd_words_i(k_i.rd_words),
    .rd_data_o(k_o.rd_data), .rd_valid_o(k_o.rd_valid), .rd_ready_i(k_i.rd_ready),
    .rd_busy_o(rd_busy), .wr_start_i(k_i.wr_start), .wr_addr_i(k_i.wr_addr),
    .wr_words_i(k_i.wr_words), .wr_data_i(k_i.wr_data), .wr_valid_i(wr_valid),
    .wr_ready_o(wr_ready), .wr_busy_o(wr_busy), .err_o(k_o.err), .*);

  logic unused;
  assign unused = rd_busy;

endmodule

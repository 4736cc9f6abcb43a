// weft_hls_mem: the AXI4 master (m_axi_gmem) of Weft's HLS-style accelerators
// (docs/hls.md), as two word streams: a read of `words` 32-bit words from `addr` comes
// out on rd_*, a write of `words` words to `addr` is taken from wr_*. Each is cut into
// INCR bursts of at most MaxBeats beats that never cross a 4 KiB boundary, one burst of
// each direction in flight; a write is over (wr_busy_o low) once every burst's B has
// come. A response other than OKAY sets err_o until the next start.
module weft_hls_mem #(
  /// Longest burst in beats (1..256).
  parameter int unsigned MaxBeats = 16
) (
  input  logic        ap_clk,
  input  logic        ap_rst_n,
`define WEFT_HLS_TO_ACC input logic
`define WEFT_HLS_FROM_ACC output logic
`define WEFT_HLS_SEP ,
`include "weft_hls_axi_signals.svh"
  ,
`undef WEFT_HLS_TO_ACC
`undef WEFT_HLS_FROM_ACC
`undef WEFT_HLS_SEP
  /// One cycle: read rd_words_i words from rd_addr_i (word aligned).
  input  logic        rd_start_i,
  input  logic [31:0] rd_addr_i,
  input  logic [15:0] rd_words_i,
  /// The words read, in order.
  output logic [31:0] rd_data_o,
  output logic        rd_valid_o,
  input  logic        rd_ready_i,
  /// Words of the read not yet requested on the bus, or a burst in flight.
  output logic        rd_busy_o,
  /// One cycle: write wr_words_i words to wr_addr_i (word aligned).
  input  logic        wr_start_i,
  input  logic [31:0] wr_addr_i,
  input  logic [15:0] wr_words_i,
  /// The words to write, in order.
  input  logic [31:0] wr_data_i,
  input  logic        wr_valid_i,
  output logic        wr_ready_o,
  /// The write is not over (B of its last burst not yet in).
  output logic        wr_busy_o,
  /// A burst was answered with an error since the last start.
  output logic        err_o
);


  localparam logic [16:0] MaxBurst = MaxBeats[16:0];

  // Beats of the next burst from the word at `word` of its 4 KiB page, left words to go.
  function automatic logic [8:0] burst_beats(input logic [9:0] word, input logic [15:0] left);
    logic [10:0] to_4k;
    logic [16:0] n;
    to_4k = 11'h400 - {1'b0, word};  // words to the 4 KiB boundary, 1..1024
    n = {1'b0, left};
    if ({6'd0, to_4k} < n) n = {6'd0, to_4k};
    if (MaxBurst < n) n = MaxBurst;
    burst_beats = n[8:0];
  endfunction

  // ---- reads ----
  logic [31:0] rd_addr_q;
  logic [15:0] rd_left_q;
  logic        ar_out_q;  // a read burst is in flight
  logic [8:0]  ar_beats;
  assign ar_beats = burst_beats(rd_addr_q[11:2], rd_left_q);

  assign m_axi_gmem_ARVALID = (rd_left_q != '0) && !ar_out_q;
  assign m_axi_gmem_ARADDR  = {32'd0, rd_addr_q};
  assign m_axi_gmem_ARLEN   = 8'(ar_beats - 9'd1);
  assign m_axi_gmem_ARSIZE  = 3'd2;
  assign m_axi_gmem_ARBURST = 2'b01;
  assign rd_data_o          = m_axi_gmem_RDATA;
  assign rd_valid_o         = m_axi_gmem_RVALID;
  assign m_axi_gmem_RREADY  = rd_ready_i;
  assign rd_busy_o          = (rd_left_q != '0) || ar_out_q;

  // ---- writes ----
  logic [31:0] wr_addr_q;
  logic [15:0] wr_left_q;
  logic        aw_out_q;  // a write burst is in flight (its beats, then its B)
  logic        b_wait_q;  // its beats are out, its B is not in
  logic [8:0]  aw_beats, w_left_q;
  assign aw_beats = burst_beats(wr_addr_q[11:2], wr_left_q);

  assign m_axi_gmem_AWVALID = (wr_left_q != '0) && !aw_out_q;
  assign m_axi_gmem_AWADDR  = {32'd0, wr_addr_q};
  assign m_axi_gmem_AWLEN   = 8'(aw_beats - 9'd1);
  assign m_axi_gmem_AWSIZE  = 3'd2;
  assign m_axi_gmem_AWBURST = 2'b01;
  assign m_axi_gmem_WVALID  = aw_out_q && !b_wait_q && wr_valid_i;
  assign m_axi_gmem_WDATA   = wr_data_i;
  assign m_axi_gmem_WSTRB   = 4'hF;
  assign m_axi_gmem_WLAST   = (w_left_q == 9'd1);
  assign wr_ready_o         = aw_out_q && !b_wait_q && m_axi_gmem_WREADY;
  assign m_axi_gmem_BREADY  = b_wait_q;
  assign wr_busy_o          = (wr_left_q != '0) || aw_out_q;

  logic err_q;
  assign err_o = err_q;

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      rd_addr_q <= '0;
      rd_left_q <= '0;
      ar_out_q  <= 1'b0;
      wr_addr_q <= '0;
      wr_left_q <= '0;
      aw_out_q  <= 1'b0;
      b_wait_q  <= 1'b0;
      w_left_q  <= '0;
      err_q     <= 1'b0;
    end else begin
      if (rd_start_i) begin
        rd_addr_q <= rd_addr_i;
        rd_left_q <= rd_words_i;
        err_q     <= 1'b0;
      end else if (m_axi_gmem_ARVALID && m_axi_gmem_ARREADY) begin
        ar_out_q  <= 1'b1;
        rd_addr_q <= rd_addr_q + {21'd0, ar_beats, 2'b00};
        rd_left_q <= rd_left_q - 16'(ar_beats);
      end
      if (m_axi_gmem_RVALID && m_axi_gmem_RREADY) begin
        if (m_axi_gmem_RRESP != 2'b00) err_q <= 1'b1;
        if (m_axi_gmem_RLAST) ar_out_q <= 1'b0;
      end

      if (wr_start_i) begin
        wr_addr_q <= wr_addr_i;
        wr_left_q <= wr_words_i;
        err_q     <= 1'b0;
      end else if (m_axi_gmem_AWVALID && m_axi_gmem_AWREADY) begin
        aw_out_q  <= 1'b1;
        w_left_q  <= aw_beats;
        wr_addr_q <= wr_addr_q + {21'd0, aw_beats, 2'b00};
        wr_left_q <= wr_left_q - 16'(aw_beats);
      end
      if (m_axi_gmem_WVALID && m_axi_gmem_WREADY) begin
        w_left_q <= w_left_q - 9'd1;
        if (w_left_q == 9'd1) b_wait_q <= 1'b1;
      end
      if (m_axi_gmem_BVALID && b_wait_q) begin
        if (m_axi_gmem_BRESP != 2'b00) err_q <= 1'b1;
        b_wait_q <= 1'b0;
        aw_out_q <= 1'b0;
      end
    end
  end

  logic unused;
  assign unused = ^{rd_addr_q[1:0], wr_addr_q[1:0]};

endmodule

// weft_hls_mem: the AXI4 master (m_axi_gmem) of Weft's HLS-style accelerators
// (docs/hls.md), as a kernel's transfers (weft_hls_pkg::kreq_t): a read of rd_words
// 32-bit words from rd_addr comes out word by word with its index, a write of wr_words
// words to wr_addr takes word wr_index_o while the kernel offers it. Each is cut into
// INCR bursts of at most MaxBeats beats that never cross a 4 KiB boundary, one burst of
// each direction in flight; a write is done (wr_done_o, one cycle) once its last B is in.
// The kernels have no error path, so responses are not looked at (an access outside the
// slot's windows is its FAULT.MEM, which stops the accelerator).
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
  /// The kernel's transfers (its rd_* and wr_* fields).
  input  weft_hls_pkg::kreq_t k_i,
  /// Word rd_index_o of the read (rd_last_o: its last), while rd_valid_o.
  output logic [31:0] rd_data_o,
  output logic        rd_valid_o,
  output logic [15:0] rd_index_o,
  output logic        rd_last_o,
  /// The word of the write to offer now.
  output logic [15:0] wr_index_o,
  /// One cycle: the write is in memory.
  output logic        wr_done_o
);

  localparam logic [8:0] MaxBurst = MaxBeats[8:0];

  // ---- reads ----
  logic [31:0] rd_addr_q;
  logic [15:0] rd_left_q, rd_words_q, rd_count_q;
  logic        ar_out_q;  // a read burst is in flight
  logic [8:0]  ar_beats;
  assign ar_beats = weft_osif_pkg::memif_burst_beats(rd_addr_q[11:2], {16'd0, rd_left_q},
                                                    MaxBurst);

  assign m_axi_gmem_ARVALID = (rd_left_q != '0) && !ar_out_q;
  assign m_axi_gmem_ARADDR  = {32'd0, rd_addr_q};
  assign m_axi_gmem_ARLEN   = 8'(ar_beats - 9'd1);
  assign m_axi_gmem_ARSIZE  = 3'd2;
  assign m_axi_gmem_ARBURST = 2'b01;
  assign m_axi_gmem_RREADY  = k_i.rd_ready;
  assign rd_data_o          = m_axi_gmem_RDATA;
  assign rd_valid_o         = m_axi_gmem_RVALID;
  assign rd_index_o         = rd_count_q;
  assign rd_last_o          = (rd_count_q + 16'd1 == rd_words_q);

  // ---- writes ----
  logic [31:0] wr_addr_q;
  logic [15:0] wr_left_q, wr_count_q;
  logic        wr_on_q;   // a write was started and is not done
  logic        aw_out_q;  // a write burst is in flight (its beats, then its B)
  logic        b_wait_q;  // its beats are out, its B is not in
  logic [8:0]  aw_beats, w_left_q;
  assign aw_beats = weft_osif_pkg::memif_burst_beats(wr_addr_q[11:2], {16'd0, wr_left_q},
                                                    MaxBurst);

  assign m_axi_gmem_AWVALID = (wr_left_q != '0) && !aw_out_q;
  assign m_axi_gmem_AWADDR  = {32'd0, wr_addr_q};
  assign m_axi_gmem_AWLEN   = 8'(aw_beats - 9'd1);
  assign m_axi_gmem_AWSIZE  = 3'd2;
  assign m_axi_gmem_AWBURST = 2'b01;
  assign m_axi_gmem_WVALID  = aw_out_q && !b_wait_q && k_i.wr_valid;
  assign m_axi_gmem_WDATA   = k_i.wr_data;
  assign m_axi_gmem_WSTRB   = 4'hF;
  assign m_axi_gmem_WLAST   = (w_left_q == 9'd1);
  assign m_axi_gmem_BREADY  = b_wait_q;
  assign wr_index_o         = wr_count_q;
  assign wr_done_o          = wr_on_q && (wr_left_q == '0) && !aw_out_q;

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      rd_addr_q  <= '0;
      rd_left_q  <= '0;
      rd_words_q <= '0;
      rd_count_q <= '0;
      ar_out_q   <= 1'b0;
      wr_addr_q  <= '0;
      wr_left_q  <= '0;
      wr_count_q <= '0;
      wr_on_q    <= 1'b0;
      aw_out_q   <= 1'b0;
      b_wait_q   <= 1'b0;
      w_left_q   <= '0;
    end else begin
      if (k_i.rd_start) begin
        rd_addr_q  <= k_i.rd_addr;
        rd_left_q  <= k_i.rd_words;
        rd_words_q <= k_i.rd_words;
        rd_count_q <= '0;
      end else if (m_axi_gmem_ARVALID && m_axi_gmem_ARREADY) begin
        ar_out_q  <= 1'b1;
        rd_addr_q <= rd_addr_q + {21'd0, ar_beats, 2'b00};
        rd_left_q <= rd_left_q - 16'(ar_beats);
      end
      if (m_axi_gmem_RVALID && m_axi_gmem_RREADY) begin
        rd_count_q <= rd_count_q + 16'd1;
        if (m_axi_gmem_RLAST) ar_out_q <= 1'b0;
      end

      if (k_i.wr_start) begin
        wr_addr_q  <= k_i.wr_addr;
        wr_left_q  <= k_i.wr_words;
        wr_count_q <= '0;
        wr_on_q    <= 1'b1;
      end else begin
        if (m_axi_gmem_AWVALID && m_axi_gmem_AWREADY) begin
          aw_out_q  <= 1'b1;
          w_left_q  <= aw_beats;
          wr_addr_q <= wr_addr_q + {21'd0, aw_beats, 2'b00};
          wr_left_q <= wr_left_q - 16'(aw_beats);
        end
        if (wr_done_o) wr_on_q <= 1'b0;
      end
      if (m_axi_gmem_WVALID && m_axi_gmem_WREADY) begin
        wr_count_q <= wr_count_q + 16'd1;
        w_left_q   <= w_left_q - 9'd1;
        if (w_left_q == 9'd1) b_wait_q <= 1'b1;
      end
      if (m_axi_gmem_BVALID && b_wait_q) begin
        b_wait_q <= 1'b0;
        aw_out_q <= 1'b0;
      end
    end
  end

  // Word-aligned addresses; no error path (above); done is the control block's.
  logic unused;
  assign unused = ^{rd_addr_q[1:0], wr_addr_q[1:0], m_axi_gmem_RRESP, m_axi_gmem_BRESP,
                    k_i.done};

endmodule

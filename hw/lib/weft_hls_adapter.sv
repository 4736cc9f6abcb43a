// weft_hls_adapter: puts an HLS-style accelerator (docs/hls.md) in a slot unchanged. Its
// two sides:
//
// * the slot boundary: accesses of the slot's ACC window (slot_i.regs) become AXI4-Lite
//   transactions on the accelerator's s_axi_control, one at a time, answered with ack
//   (and the read data) once their B or R arrives; its interrupt is slot_o.regs.irq;
// * the accelerator's AXI4 master (m_axi_gmem) becomes MEMIF commands on the slot's
//   memory channel, so every access goes through the slot's memory windows like any
//   hardware thread's. One read burst and one write burst at a time; a burst is one
//   MEMIF command of (len + 1) words (the static region cuts it at 4 KiB). B answers a
//   write once its data is in memory: after its last beat, when the static region's
//   write fence lifts (slot_i.osif.out_ready high again: no MEMIF write of the slot is
//   left unanswered; the adapter sends no OS calls, so nothing else holds it low). So an
//   accelerator's ap_done, which follows its last B, means its results are in memory.
//
// A burst the MEMIF cannot carry (an address above 4 GiB or not word aligned, a beat size
// other than 4 bytes, a burst type other than INCR) touches no memory and is answered
// SLVERR on every beat; so is a write beat with a strobe other than 4'hF (the MEMIF moves
// whole words: the word is written whole). An access outside the windows is the static
// region's FAULT.MEM, which stops the slot's MEMIF, as for any thread.
//
// The accelerator makes no OS calls: the OSIF channel is tied to 0.
module weft_hls_adapter (
  `include "weft_slot_ports.svh"
  ,
`define WEFT_HLS_TO_ACC output logic
`define WEFT_HLS_FROM_ACC input logic
`define WEFT_HLS_SEP ,
`include "weft_hls_signals.svh"
`undef WEFT_HLS_TO_ACC
`undef WEFT_HLS_FROM_ACC
`undef WEFT_HLS_SEP
);

  localparam logic [1:0] RespOkay = 2'b00;
  localparam logic [1:0] RespSlvErr = 2'b10;
  localparam logic [1:0] BurstIncr = 2'b01;

  // ---------------------------------------------------------------------------------
  // The ACC window to s_axi_control
  // ---------------------------------------------------------------------------------
  typedef enum logic [2:0] {
    CIdle,   // waiting for an access
    CReq,    // address (and data) offered to the accelerator
    CResp,   // waiting for its B or R
    CAck     // ack to the static region, for one cycle: it drops valid at that edge
  } ctl_e;

  ctl_e        ctl_q;
  logic        write_q, aw_pend_q, w_pend_q, ar_pend_q;
  logic [5:0]  addr_q;
  logic [31:0] wdata_q, rdata_q;
  logic [3:0]  strb_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ctl_q     <= CIdle;
      write_q   <= 1'b0;
      aw_pend_q <= 1'b0;
      w_pend_q  <= 1'b0;
      ar_pend_q <= 1'b0;
      addr_q    <= '0;
      wdata_q   <= '0;
      rdata_q   <= '0;
      strb_q    <= '0;
    end else begin
      unique case (ctl_q)
        CIdle: begin
          if (slot_i.regs.valid) begin
            write_q   <= slot_i.regs.write;
            addr_q    <= slot_i.regs.addr;
            wdata_q   <= slot_i.regs.wdata;
            strb_q    <= slot_i.regs.strb;
            aw_pend_q <= slot_i.regs.write;
            w_pend_q  <= slot_i.regs.write;
            ar_pend_q <= !slot_i.regs.write;
            ctl_q     <= CReq;
          end
        end
        CReq: begin
          if (s_axi_control_AWREADY) aw_pend_q <= 1'b0;
          if (s_axi_control_WREADY) w_pend_q <= 1'b0;
          if (s_axi_control_ARREADY) ar_pend_q <= 1'b0;
          if ((!aw_pend_q || s_axi_control_AWREADY) && (!w_pend_q || s_axi_control_WREADY) &&
              (!ar_pend_q || s_axi_control_ARREADY)) begin
            ctl_q <= CResp;
          end
        end
        CResp: begin
          if (write_q ? s_axi_control_BVALID : s_axi_control_RVALID) begin
            rdata_q <= write_q ? '0 : s_axi_control_RDATA;
            ctl_q   <= CAck;
          end
        end
        CAck: ctl_q <= CIdle;
        default: ctl_q <= CIdle;
      endcase
    end
  end

  assign s_axi_control_AWVALID = (ctl_q == CReq) && aw_pend_q;
  assign s_axi_control_AWADDR  = addr_q;
  assign s_axi_control_WVALID  = (ctl_q == CReq) && w_pend_q;
  assign s_axi_control_WDATA   = wdata_q;
  assign s_axi_control_WSTRB   = strb_q;
  assign s_axi_control_ARVALID = (ctl_q == CReq) && ar_pend_q;
  assign s_axi_control_ARADDR  = addr_q;
  assign s_axi_control_BREADY  = (ctl_q == CResp) && write_q;
  assign s_axi_control_RREADY  = (ctl_q == CResp) && !write_q;

  // ---------------------------------------------------------------------------------
  // m_axi_gmem to the MEMIF
  // ---------------------------------------------------------------------------------
  // The burst taken this cycle, a write's or a read's (never both: ARREADY yields to AW).
  logic        aw_take, ar_take, b_take, b_ok;
  logic [63:0] b_addr;
  logic [7:0]  b_len;
  assign aw_take = m_axi_gmem_AWVALID && m_axi_gmem_AWREADY;
  assign ar_take = m_axi_gmem_ARVALID && m_axi_gmem_ARREADY;
  assign b_take  = aw_take || ar_take;
  assign b_addr  = aw_take ? m_axi_gmem_AWADDR : m_axi_gmem_ARADDR;
  assign b_len   = aw_take ? m_axi_gmem_AWLEN : m_axi_gmem_ARLEN;
  // One the MEMIF can carry: below 4 GiB, word aligned, 4-byte beats, INCR.
  assign b_ok = (b_addr[63:32] == '0) && (b_addr[1:0] == 2'b00) &&
                ((aw_take ? m_axi_gmem_AWSIZE : m_axi_gmem_ARSIZE) == 3'd2) &&
                ((aw_take ? m_axi_gmem_AWBURST : m_axi_gmem_ARBURST) == BurstIncr);

  // The command being pushed (two words), at most one at a time; a write's data flows
  // once it is in.
  logic        cmd_busy_q, cmd_phase_q, cmd_write;
  logic [31:0] cmd_w0_q, cmd_w1_q;
  assign cmd_write = (cmd_w0_q[weft_osif_pkg::MemifOpMsb:weft_osif_pkg::MemifOpLsb] ==
                      weft_osif_pkg::MemifOpWrite);
  // The read burst: beats left, answered with SLVERR without memory.
  logic [8:0]  rd_left_q;
  logic        rd_err_q;
  // The write burst: beats left, its data may flow (command pushed), an error, B owed.
  logic [8:0]  wr_left_q;
  logic        wr_go_q, wr_err_q, b_pend_q, b_err_q;

  logic cmd_push, r_beat, w_beat;
  assign cmd_push = cmd_busy_q && slot_i.mem.cmd_ready;
  assign r_beat   = m_axi_gmem_RVALID && m_axi_gmem_RREADY;
  assign w_beat   = m_axi_gmem_WVALID && m_axi_gmem_WREADY;

  // A new burst only when no command is being pushed; a write waits for its B to go; a
  // write taken in the same cycle goes first.
  logic aw_can;
  assign aw_can = !cmd_busy_q && (wr_left_q == '0) && !b_pend_q;
  assign m_axi_gmem_AWREADY = aw_can;
  assign m_axi_gmem_ARREADY = !cmd_busy_q && (rd_left_q == '0) && !(m_axi_gmem_AWVALID && aw_can);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cmd_busy_q  <= 1'b0;
      cmd_phase_q <= 1'b0;
      cmd_w0_q    <= '0;
      cmd_w1_q    <= '0;
      rd_left_q   <= '0;
      rd_err_q    <= 1'b0;
      wr_left_q   <= '0;
      wr_go_q     <= 1'b0;
      wr_err_q    <= 1'b0;
      b_pend_q    <= 1'b0;
      b_err_q     <= 1'b0;
    end else begin
      if (aw_take) begin
        wr_left_q <= {1'b0, b_len} + 9'd1;
        wr_err_q  <= !b_ok;
        b_err_q   <= !b_ok;
        wr_go_q   <= !b_ok;  // an error burst's beats are taken and dropped at once
      end
      if (ar_take) begin
        rd_left_q <= {1'b0, b_len} + 9'd1;
        rd_err_q  <= !b_ok;
      end
      if (b_take && b_ok) begin
        cmd_busy_q <= 1'b1;
        cmd_w0_q   <= weft_osif_pkg::memif_word0(aw_take, {14'd0, b_len, 2'b00} + 24'd4);
        cmd_w1_q   <= b_addr[31:0];
      end
      if (cmd_push) begin
        cmd_phase_q <= !cmd_phase_q;
        if (cmd_phase_q) begin
          cmd_busy_q <= 1'b0;
          if (cmd_write) wr_go_q <= 1'b1;
        end
      end
      if (r_beat) rd_left_q <= rd_left_q - 9'd1;
      if (w_beat) begin
        wr_left_q <= wr_left_q - 9'd1;
        if (m_axi_gmem_WSTRB != 4'hF) b_err_q <= 1'b1;
        if (wr_left_q == 9'd1) begin
          b_pend_q <= 1'b1;
          wr_go_q  <= 1'b0;
        end
      end
      if (m_axi_gmem_BVALID && m_axi_gmem_BREADY) b_pend_q <= 1'b0;
    end
  end

  // R: beats from the read FIFO, or SLVERR beats for a burst the MEMIF cannot carry.
  assign m_axi_gmem_RVALID = (rd_left_q != '0) && (rd_err_q || slot_i.mem.rd_valid);
  assign m_axi_gmem_RDATA  = rd_err_q ? '0 : slot_i.mem.rd_data;
  assign m_axi_gmem_RLAST  = (rd_left_q == 9'd1);
  assign m_axi_gmem_RRESP  = rd_err_q ? RespSlvErr : RespOkay;
  // W: into the write FIFO once the command is pushed (dropped for an error burst).
  assign m_axi_gmem_WREADY = (wr_left_q != '0) && wr_go_q && (wr_err_q || slot_i.mem.wr_ready);
  assign m_axi_gmem_BVALID = b_pend_q && slot_i.osif.out_ready;
  assign m_axi_gmem_BRESP  = b_err_q ? RespSlvErr : RespOkay;

  // ---------------------------------------------------------------------------------
  // The slot's side
  // ---------------------------------------------------------------------------------
  always_comb begin
    slot_o = '0;  // no OS calls
    slot_o.mem.cmd_valid = cmd_busy_q;
    slot_o.mem.cmd_data  = cmd_phase_q ? cmd_w1_q : cmd_w0_q;
    slot_o.mem.wr_valid  = (wr_left_q != '0) && wr_go_q && !wr_err_q && m_axi_gmem_WVALID;
    slot_o.mem.wr_data   = m_axi_gmem_WDATA;
    slot_o.mem.rd_ready  = (rd_left_q != '0) && !rd_err_q && m_axi_gmem_RREADY;
    slot_o.regs.ack      = (ctl_q == CAck);
    slot_o.regs.rd_data  = rdata_q;
    slot_o.regs.irq      = interrupt;
  end

  logic unused;
  assign unused = ^{slot_i.osif.in_data, slot_i.osif.in_valid, m_axi_gmem_WLAST,
                    s_axi_control_BRESP, s_axi_control_RRESP};

endmodule

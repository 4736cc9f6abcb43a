// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_memif_master: AXI4 memory master shared by all slots' MEMIF traffic.
//
// Protocol: each slot offers one burst at a time (req_valid_i with write flag, address
// and AXI length); the requests are checked and cut by weft_slot_if, so a burst never
// crosses a 4 KiB boundary and has at most 256 beats. The master runs one AXI4
// transaction at a time (no IDs, 32-bit data, INCR, size 4 bytes) and picks the next
// slot round-robin per burst (with UrgentLast, the last requester, the reconfiguration
// interface, goes before the round whenever it asks, but not twice in a row while a slot
// waits: the port is fed at its rate whatever the slots do, and at a port's full speed
// the slots still get every other burst); a new burst may be issued in the same cycle the previous
// one completes (B handshake for a write, last R handshake for a read).
//
// Write: AW and W are sent independently; W beats pass through an output register fed
// from the slot's write FIFO, one beat per cycle. Read: R beats go straight into the
// slot's read FIFO; rready_o is high while that FIFO has room. Every AXI output is a
// register or a function of registers only (no combinational path from an AXI input).
//
// A burst already issued always completes legally. If its slot raises abort_i (held in
// reset) at any time during the burst, the rest of it runs without the slot: write beats
// go out with wstrb 0 and read beats are accepted and dropped. An error response
// (SLVERR/DECERR) is reported once per burst through err_o with the burst's address and
// {op, length in bytes}; read beats after it are dropped.
module weft_memif_master #(
  /// Number of slots (requesters).
  parameter int unsigned NumSlots = 4,
  /// The last requester is served before the round-robin ones whenever it asks, but not
  /// twice in a row while another waits.
  parameter bit UrgentLast = 1'b0
) (
  /// Fabric clock.
  input  logic                   clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic                   rst_ni,

  // ---- AXI4 master ----
  `include "weft_axi_master_ports.svh"

  // ---- slots ----
  /// Burst request per slot.
  input  logic [NumSlots-1:0]    req_valid_i,
  /// The requested burst writes memory.
  input  logic [NumSlots-1:0]    req_write_i,
  /// Burst address per slot, slot s in bits [s*32 +: 32].
  input  logic [NumSlots*32-1:0] req_addr_i,
  /// AXI length (beats - 1) per slot, slot s in bits [s*8 +: 8].
  input  logic [NumSlots*8-1:0]  req_len_i,
  /// One-hot: the slot's request is issued now.
  output logic [NumSlots-1:0]    req_gnt_o,
  /// Per slot: finish its burst in flight without its data.
  input  logic [NumSlots-1:0]    abort_i,
  /// Per slot: a write burst of this slot is in flight (its B response has not arrived).
  /// A function of registers only.
  output logic [NumSlots-1:0]    wr_busy_o,
  /// Per slot: a burst (read or write) of this slot is in flight. Registers only.
  output logic [NumSlots-1:0]    slot_busy_o,
  /// Oldest write-data word per slot.
  input  logic [NumSlots*32-1:0] wr_data_i,
  /// Write-data word available per slot.
  input  logic [NumSlots-1:0]    wr_valid_i,
  /// One-hot: take the slot's oldest write-data word.
  output logic [NumSlots-1:0]    wr_pop_o,
  /// Read-data FIFO full per slot.
  input  logic [NumSlots-1:0]    rd_full_i,
  /// One-hot: push rd_data_o into the slot's read-data FIFO.
  output logic [NumSlots-1:0]    rd_push_o,
  /// Read-data word.
  output logic [31:0]            rd_data_o,
  /// One-hot: the slot's burst got an error response.
  output logic [NumSlots-1:0]    err_o,
  /// Address of the failed burst.
  output logic [31:0]            err_addr_o,
  /// {op, length in bytes} of the failed burst, laid out like MEMIF command word 0.
  output logic [31:0]            err_info_o,
  /// A transaction is in flight.
  output logic                   busy_o,
  /// The next edge changes no register here (a simulator hint, docs/architecture.md,
  /// "Holding"): idle, no request, nothing left on an AXI channel.
  output logic                   still_o
);

  localparam int unsigned SelW = (NumSlots > 1) ? $clog2(NumSlots) : 1;
  localparam int unsigned LenW = weft_osif_pkg::MemifLengthMsb - weft_osif_pkg::MemifLengthLsb + 1;
  localparam logic [2:0] AxiSize4 = 3'b010;
  localparam logic [1:0] AxiBurstIncr = 2'b01;

  typedef enum logic [1:0] {
    StIdle,
    StWrite,
    StRead
  } state_e;

  state_e          state_q;
  logic [SelW-1:0] sel_q;
  logic [31:0]     addr_q;
  logic [7:0]      len_q;
  logic            awvalid_q, arvalid_q;
  logic            wvalid_q, wlast_q;
  logic [31:0]     wdata_q;
  logic [3:0]      wstrb_q;
  logic [8:0]      wcnt_q;    // beats loaded into the W register
  logic [7:0]      rcnt_q;    // beats received
  logic            abort_q;   // the slot was reset during this burst
  logic            err_q;     // an error response was seen in this burst

  // ---------------------------------------------------------------------------------
  // The selected slot's signals
  // ---------------------------------------------------------------------------------
  logic        kill, sel_wr_valid, sel_rd_full;
  logic [31:0] sel_wr_data;
  assign kill         = abort_q || abort_i[sel_q];
  assign sel_wr_valid = wr_valid_i[sel_q];
  assign sel_wr_data  = wr_data_i[32*sel_q +: 32];
  assign sel_rd_full  = rd_full_i[sel_q];

  // ---------------------------------------------------------------------------------
  // Arbitration
  // ---------------------------------------------------------------------------------
  logic [NumSlots-1:0] arb_req, rr_req, arb_gnt, gnt;
  logic [SelW-1:0]     gnt_idx;
  logic                complete, issue, urgent, last_urgent_q;

  assign arb_req = req_valid_i & ~abort_i;
  assign issue   = ((state_q == StIdle) || complete) && (arb_req != '0);
  // The urgent requester is never in the round; it goes first unless it went last and
  // someone else waits.
  assign rr_req  = UrgentLast ? (arb_req & ~(NumSlots'(1) << (NumSlots - 1))) : arb_req;
  assign urgent  = UrgentLast && arb_req[NumSlots-1] && !(last_urgent_q && rr_req != '0);

  // The round only moves on when its own grant is served.
  weft_rr_arbiter #(
    .NumReq(NumSlots)
  ) u_arbiter (
    .clk_i,
    .rst_ni,
    .req_i     (rr_req),
    .advance_i (issue && !urgent),
    .gnt_o     (arb_gnt)
  );
  assign gnt = urgent ? NumSlots'(1) << (NumSlots - 1) : arb_gnt;

  always_comb begin
    gnt_idx = '0;
    for (int unsigned s = 0; s < NumSlots; s++) begin
      if (gnt[s]) begin
        gnt_idx = SelW'(s);
      end
    end
  end

  assign req_gnt_o = issue ? gnt : '0;

  always_comb begin
    wr_busy_o    = '0;
    slot_busy_o  = '0;
    if (state_q != StIdle) begin
      slot_busy_o[sel_q] = 1'b1;
      wr_busy_o[sel_q]   = (state_q == StWrite);
    end
  end

  // ---------------------------------------------------------------------------------
  // Data channels
  // ---------------------------------------------------------------------------------
  logic w_more, w_slot_free, w_load, b_hs, r_hs, r_last, err_now;

  assign w_more      = (state_q == StWrite) && (wcnt_q <= {1'b0, len_q});
  assign w_slot_free = !wvalid_q || m_axi_wready_i;
  assign w_load      = w_more && w_slot_free && (kill || sel_wr_valid);

  assign m_axi_bready_o = (state_q == StWrite);
  assign b_hs           = m_axi_bvalid_i && m_axi_bready_o;

  assign m_axi_rready_o = (state_q == StRead) && (kill || !sel_rd_full);
  assign r_hs           = m_axi_rvalid_i && m_axi_rready_o;
  assign r_last         = (rcnt_q == len_q);

  assign complete = b_hs || (r_hs && r_last);
  assign err_now  = ((b_hs && m_axi_bresp_i[1]) || (r_hs && m_axi_rresp_i[1])) && !kill;

  for (genvar s = 0; s < NumSlots; s++) begin : gen_slot_strobe
    assign wr_pop_o[s]  = w_load && !kill && (sel_q == SelW'(s));
    assign rd_push_o[s] = r_hs && !kill && !err_q && !m_axi_rresp_i[1] &&
                          (sel_q == SelW'(s));
    assign err_o[s]     = err_now && !err_q && (sel_q == SelW'(s));
  end
  assign rd_data_o  = m_axi_rdata_i;
  assign err_addr_o = addr_q;

  always_comb begin
    err_info_o = '0;
    err_info_o[weft_osif_pkg::MemifOpMsb:weft_osif_pkg::MemifOpLsb] =
        (state_q == StWrite) ? weft_osif_pkg::MemifOpWrite : weft_osif_pkg::MemifOpRead;
    err_info_o[weft_osif_pkg::MemifLengthMsb:weft_osif_pkg::MemifLengthLsb] =
        LenW'({({1'b0, len_q} + 9'd1), 2'b00});
  end

  // ---------------------------------------------------------------------------------
  // Next state, at the edge; nothing to do while idle with no request
  // ---------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      sel_q     <= '0;
      addr_q    <= '0;
      len_q     <= '0;
      awvalid_q <= 1'b0;
      arvalid_q <= 1'b0;
      wvalid_q  <= 1'b0;
      wlast_q   <= 1'b0;
      wdata_q   <= '0;
      wstrb_q   <= '0;
      wcnt_q    <= '0;
      rcnt_q    <= '0;
      abort_q   <= 1'b0;
      err_q     <= 1'b0;
      last_urgent_q <= 1'b0;
    end else if (state_q != StIdle || arb_req != '0 || awvalid_q || arvalid_q || wvalid_q ||
                 err_now) begin
      err_q <= err_q || err_now;
      if (state_q != StIdle) begin
        abort_q <= kill;
      end
      if (m_axi_awready_i) begin
        awvalid_q <= 1'b0;
      end
      if (m_axi_arready_i) begin
        arvalid_q <= 1'b0;
      end

      // W register: load the next beat whenever it is empty or being taken.
      if (w_slot_free) begin
        wvalid_q <= w_load;
        if (w_load) begin
          wdata_q <= kill ? '0 : sel_wr_data;
          wstrb_q <= kill ? 4'h0 : 4'hF;
          wlast_q <= (wcnt_q == {1'b0, len_q});
          wcnt_q  <= wcnt_q + 9'd1;
        end
      end

      if (r_hs) begin
        rcnt_q <= rcnt_q + 8'd1;
      end

      if (issue) begin
        last_urgent_q <= urgent;
        state_q   <= req_write_i[gnt_idx] ? StWrite : StRead;
        sel_q     <= gnt_idx;
        addr_q    <= req_addr_i[32*gnt_idx +: 32];
        len_q     <= req_len_i[8*gnt_idx +: 8];
        awvalid_q <= req_write_i[gnt_idx];
        arvalid_q <= !req_write_i[gnt_idx];
        wcnt_q    <= '0;
        rcnt_q    <= '0;
        abort_q   <= 1'b0;
        err_q     <= 1'b0;
      end else if (complete) begin
        state_q <= StIdle;
      end
    end
  end

  // ---------------------------------------------------------------------------------
  // AXI outputs
  // ---------------------------------------------------------------------------------
  assign m_axi_awaddr_o  = addr_q;
  assign m_axi_awlen_o   = len_q;
  assign m_axi_awsize_o  = AxiSize4;
  assign m_axi_awburst_o = AxiBurstIncr;
  assign m_axi_awvalid_o = awvalid_q;
  assign m_axi_wdata_o   = wdata_q;
  assign m_axi_wstrb_o   = wstrb_q;
  assign m_axi_wlast_o   = wlast_q;
  assign m_axi_wvalid_o  = wvalid_q;
  assign m_axi_araddr_o  = addr_q;
  assign m_axi_arlen_o   = len_q;
  assign m_axi_arsize_o  = AxiSize4;
  assign m_axi_arburst_o = AxiBurstIncr;
  assign m_axi_arvalid_o = arvalid_q;
  assign busy_o          = (state_q != StIdle);
  assign still_o         = (state_q == StIdle) && (arb_req == '0) && !awvalid_q && !arvalid_q &&
                           !wvalid_q && !err_now;

  // rlast is redundant with the beat count (checked by an assertion only); bit 0 of a
  // response tells OKAY from EXOKAY, which both mean success here.
  logic unused_inputs;
  assign unused_inputs = m_axi_rlast_i ^ m_axi_bresp_i[0] ^ m_axi_rresp_i[0];

`ifndef SYNTHESIS
  StillMeansStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({state_q, sel_q, addr_q, len_q, awvalid_q, arvalid_q, wvalid_q,
                           wlast_q, wdata_q, wstrb_q, wcnt_q, rcnt_q, abort_q, err_q,
                           last_urgent_q}));
  GrantOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      $onehot0(req_gnt_o));
  PopOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(wr_pop_o));
  PushOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      $onehot0(rd_push_o));
  // A burst never crosses a 4 KiB boundary and is word aligned.
  No4kCrossing_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (m_axi_awvalid_o || m_axi_arvalid_o) |->
      ((13'(addr_q[11:0]) + 13'({({1'b0, len_q} + 9'd1), 2'b00})) <= 13'h1000) &&
      (addr_q[1:0] == 2'b00));
  // Valid is never withdrawn and its payload is stable until the handshake.
  AwStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      m_axi_awvalid_o && !m_axi_awready_i |=> m_axi_awvalid_o && $stable(m_axi_awaddr_o) &&
      $stable(m_axi_awlen_o));
  ArStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      m_axi_arvalid_o && !m_axi_arready_i |=> m_axi_arvalid_o && $stable(m_axi_araddr_o) &&
      $stable(m_axi_arlen_o));
  WStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      m_axi_wvalid_o && !m_axi_wready_i |=> m_axi_wvalid_o && $stable(m_axi_wdata_o) &&
      $stable(m_axi_wstrb_o) && $stable(m_axi_wlast_o));
  // The slave's rlast agrees with the beat count.
  RlastMatches_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      r_hs |-> (m_axi_rlast_i == r_last));
`endif

endmodule

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_static: the static region of Weft (docs/architecture.md).
//
// Per slot a weft_slot_if (OSIF FIFOs, link router, MEMIF FIFOs and memory windows, PR
// decoupler, control/fault/counter registers, interrupt line); per hardware link a FIFO
// that only its source slot pushes and only its destination slot pops; one
// weft_axil_regs exposing all registers over AXI4-Lite; one weft_memif_master carrying
// every slot's memory traffic over AXI4 (one transaction at a time, round-robin per
// burst).
//
// The parameters describe one platform; tools/gen_platform.py derives them from the
// platform description (platform/default.yaml). Per-slot and per-link values are packed
// vectors, element 0 in the lowest bits.
//
// Slot boundary: slot s uses bits [s*W +: W] of every slot_* vector. Every output
// towards a slot is a function of static-region registers only. slot_run_o tells the
// simulation host which slots to clock; quiet_o is high when no slot needs a clock
// (each is stopped, held in reset, or blocked in an OSIF call with no response waiting
// and no MEMIF command pending) and no AXI4 transaction is in flight. quiet_o is a
// hint for the host, not a slot input: it may depend combinationally on
// slot_osif_in_ready_i.
module weft_static #(
  /// Number of reconfigurable slots.
  parameter int unsigned NumSlots = 4,
  /// Number of hardware links between slots (at most the LINK_INFO entries, 24).
  parameter int unsigned NumLinks = 0,
  /// Nominal fabric clock in MHz: timed link calls count microseconds at this rate.
  parameter int unsigned ClockMhz = 100,
  /// Per slot: OSIF FIFO depth in words, 16 bits each.
  parameter logic [NumSlots*16-1:0] SlotOsifDepth = {NumSlots{16'd16}},
  /// Per slot: memory windows (0..4), 4 bits each.
  parameter logic [NumSlots*4-1:0]  SlotWindows = {NumSlots{4'd2}},
  /// Per slot: link bindings (0..8), 4 bits each.
  parameter logic [NumSlots*4-1:0]  SlotBinds = {NumSlots{4'd4}},
  /// Per link: source slot, 8 bits each (24 entries).
  parameter logic [24*8-1:0]        LinkSrc = '0,
  /// Per link: destination slot, 8 bits each.
  parameter logic [24*8-1:0]        LinkDst = '0,
  /// Per link: depth in words (at least 2), 16 bits each.
  parameter logic [24*16-1:0]       LinkDepth = {24{16'd64}}
) (
  /// Fabric clock.
  input  logic                   clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic                   rst_ni,

  // ---- AXI4-Lite slave: register window ----
  /// Write address (byte address).
  input  logic [15:0]            s_axil_awaddr_i,
  /// Write address valid.
  input  logic                   s_axil_awvalid_i,
  /// Write address ready.
  output logic                   s_axil_awready_o,
  /// Write data.
  input  logic [31:0]            s_axil_wdata_i,
  /// Write byte strobes.
  input  logic [3:0]             s_axil_wstrb_i,
  /// Write data valid.
  input  logic                   s_axil_wvalid_i,
  /// Write data ready.
  output logic                   s_axil_wready_o,
  /// Write response.
  output logic [1:0]             s_axil_bresp_o,
  /// Write response valid.
  output logic                   s_axil_bvalid_o,
  /// Write response ready.
  input  logic                   s_axil_bready_i,
  /// Read address (byte address).
  input  logic [15:0]            s_axil_araddr_i,
  /// Read address valid.
  input  logic                   s_axil_arvalid_i,
  /// Read address ready.
  output logic                   s_axil_arready_o,
  /// Read data.
  output logic [31:0]            s_axil_rdata_o,
  /// Read response.
  output logic [1:0]             s_axil_rresp_o,
  /// Read data valid.
  output logic                   s_axil_rvalid_o,
  /// Read data ready.
  input  logic                   s_axil_rready_i,

  // ---- AXI4 master: memory, no IDs ----
  /// Write address.
  output logic [31:0]            m_axi_awaddr_o,
  /// Write burst length (beats - 1).
  output logic [7:0]             m_axi_awlen_o,
  /// Write beat size (always 4 bytes).
  output logic [2:0]             m_axi_awsize_o,
  /// Write burst type (always INCR).
  output logic [1:0]             m_axi_awburst_o,
  /// Write address valid.
  output logic                   m_axi_awvalid_o,
  /// Write address ready.
  input  logic                   m_axi_awready_i,
  /// Write data.
  output logic [31:0]            m_axi_wdata_o,
  /// Write byte strobes.
  output logic [3:0]             m_axi_wstrb_o,
  /// Last write beat.
  output logic                   m_axi_wlast_o,
  /// Write data valid.
  output logic                   m_axi_wvalid_o,
  /// Write data ready.
  input  logic                   m_axi_wready_i,
  /// Write response.
  input  logic [1:0]             m_axi_bresp_i,
  /// Write response valid.
  input  logic                   m_axi_bvalid_i,
  /// Write response ready.
  output logic                   m_axi_bready_o,
  /// Read address.
  output logic [31:0]            m_axi_araddr_o,
  /// Read burst length (beats - 1).
  output logic [7:0]             m_axi_arlen_o,
  /// Read beat size (always 4 bytes).
  output logic [2:0]             m_axi_arsize_o,
  /// Read burst type (always INCR).
  output logic [1:0]             m_axi_arburst_o,
  /// Read address valid.
  output logic                   m_axi_arvalid_o,
  /// Read address ready.
  input  logic                   m_axi_arready_i,
  /// Read data.
  input  logic [31:0]            m_axi_rdata_i,
  /// Read response.
  input  logic [1:0]             m_axi_rresp_i,
  /// Last read beat.
  input  logic                   m_axi_rlast_i,
  /// Read data valid.
  input  logic                   m_axi_rvalid_i,
  /// Read data ready.
  output logic                   m_axi_rready_o,

  /// Interrupt line per slot.
  output logic [NumSlots-1:0]    irq_o,

  // ---- simulation/clocking hints ----
  /// CONTROL.RUN per slot: clock the slot only when 1.
  output logic [NumSlots-1:0]    slot_run_o,
  /// No slot needs a clock and no AXI4 transaction is in flight.
  output logic                   quiet_o,

  // ---- slot boundary, static side ----
  /// Reset towards each slot (active low).
  output logic [NumSlots-1:0]    slot_rst_no,
  /// OSIF response word towards each slot.
  output logic [NumSlots*32-1:0] slot_osif_in_data_o,
  /// OSIF response word valid.
  output logic [NumSlots-1:0]    slot_osif_in_valid_o,
  /// The slot takes a response word (and is blocked waiting for the OS).
  input  logic [NumSlots-1:0]    slot_osif_in_ready_i,
  /// OSIF request word from each slot.
  input  logic [NumSlots*32-1:0] slot_osif_out_data_i,
  /// OSIF request word valid.
  input  logic [NumSlots-1:0]    slot_osif_out_valid_i,
  /// Room for a request word.
  output logic [NumSlots-1:0]    slot_osif_out_ready_o,
  /// MEMIF command word from each slot.
  input  logic [NumSlots*32-1:0] slot_mem_cmd_data_i,
  /// MEMIF command word valid.
  input  logic [NumSlots-1:0]    slot_mem_cmd_valid_i,
  /// Room for a command word.
  output logic [NumSlots-1:0]    slot_mem_cmd_ready_o,
  /// MEMIF write-data word from each slot.
  input  logic [NumSlots*32-1:0] slot_mem_wr_data_i,
  /// MEMIF write-data word valid.
  input  logic [NumSlots-1:0]    slot_mem_wr_valid_i,
  /// Room for a write-data word.
  output logic [NumSlots-1:0]    slot_mem_wr_ready_o,
  /// MEMIF read-data word towards each slot.
  output logic [NumSlots*32-1:0] slot_mem_rd_data_o,
  /// MEMIF read-data word valid.
  output logic [NumSlots-1:0]    slot_mem_rd_valid_o,
  /// The slot takes a read-data word.
  input  logic [NumSlots-1:0]    slot_mem_rd_ready_i
);

  localparam int unsigned MaxLinks = weft_osif_pkg::RegLinkInfoCount;
  localparam int unsigned LinkW = 5;
  localparam int unsigned LinkSlots = 1 << LinkW;
  // Signed copy for loop bounds: a loop to 0 links would otherwise compare unsigned < 0.
  localparam int NumLinksSigned = NumLinks;

  // Links slot s pushes into (tx) or pops from (rx).
  function automatic logic [LinkSlots-1:0] link_mask(input int unsigned s, input bit tx);
    logic [LinkSlots-1:0] m;
    logic [7:0] end_slot;
    m = '0;
    for (int l = 0; l < NumLinksSigned; l++) begin
      end_slot = tx ? LinkSrc[l*8 +: 8] : LinkDst[l*8 +: 8];
      if (32'(end_slot) == s) begin
        m[l] = 1'b1;
      end
    end
    link_mask = m;
  endfunction

  // Register access.
  logic [NumSlots-1:0]    reg_we, reg_re;
  logic [7:0]             reg_addr;
  logic [31:0]            reg_wdata;
  logic [3:0]             reg_wstrb;
  logic [NumSlots*32-1:0] reg_rdata;

  // Slot to memory master.
  logic [NumSlots-1:0]    req_valid, req_write, req_gnt, abort, wr_busy;
  logic [NumSlots*32-1:0] req_addr, wr_data;
  logic [NumSlots*8-1:0]  req_len;
  logic [NumSlots-1:0]    wr_valid, wr_pop, rd_full, rd_push, bus_err;
  logic [31:0]            rd_data, bus_err_addr, bus_err_info;
  logic                   master_busy;
  logic [NumSlots-1:0]    slot_quiet;

  // Links: each slot's selected link, and every link FIFO's state.
  logic [NumSlots*LinkW-1:0] slot_link;
  logic [NumSlots-1:0]       slot_link_push, slot_link_pop, slot_link_full, slot_link_empty;
  logic [NumSlots*32-1:0]    slot_link_wdata, slot_link_rdata;
  logic [LinkSlots-1:0]      link_full, link_empty;
  logic [MaxLinks-1:0]       link_flush;
  logic [LinkSlots*32-1:0]   link_rdata;
  logic [MaxLinks*16-1:0]    link_level;

  weft_axil_regs #(
    .NumSlots (NumSlots),
    .NumLinks (NumLinks),
    .ClockMhz (ClockMhz),
    .LinkSrc  (LinkSrc),
    .LinkDst  (LinkDst),
    .LinkDepth(LinkDepth)
  ) u_axil_regs (
    .clk_i,
    .rst_ni,
    .s_axil_awaddr_i,
    .s_axil_awvalid_i,
    .s_axil_awready_o,
    .s_axil_wdata_i,
    .s_axil_wstrb_i,
    .s_axil_wvalid_i,
    .s_axil_wready_o,
    .s_axil_bresp_o,
    .s_axil_bvalid_o,
    .s_axil_bready_i,
    .s_axil_araddr_i,
    .s_axil_arvalid_i,
    .s_axil_arready_o,
    .s_axil_rdata_o,
    .s_axil_rresp_o,
    .s_axil_rvalid_o,
    .s_axil_rready_i,
    .irq_i        (irq_o),
    .slot_we_o    (reg_we),
    .slot_re_o    (reg_re),
    .slot_addr_o  (reg_addr),
    .slot_wdata_o (reg_wdata),
    .slot_wstrb_o (reg_wstrb),
    .slot_rdata_i (reg_rdata),
    .link_level_i (link_level),
    .link_flush_o (link_flush)
  );

  for (genvar s = 0; s < NumSlots; s++) begin : gen_slot
    weft_slot_if #(
      .OsifDepth (32'(SlotOsifDepth[s*16 +: 16])),
      .NumWindows(32'(SlotWindows[s*4 +: 4])),
      .NumBinds  (32'(SlotBinds[s*4 +: 4])),
      .LinkW     (LinkW),
      .TxMask    (link_mask(s, 1'b1)),
      .RxMask    (link_mask(s, 1'b0)),
      .ClockMhz  (ClockMhz)
    ) u_slot_if (
      .clk_i,
      .rst_ni,
      .reg_we_i              (reg_we[s]),
      .reg_re_i              (reg_re[s]),
      .reg_addr_i            (reg_addr),
      .reg_wdata_i           (reg_wdata),
      .reg_wstrb_i           (reg_wstrb),
      .reg_rdata_o           (reg_rdata[s*32 +: 32]),
      .slot_rst_no           (slot_rst_no[s]),
      .slot_run_o            (slot_run_o[s]),
      .slot_osif_in_data_o   (slot_osif_in_data_o[s*32 +: 32]),
      .slot_osif_in_valid_o  (slot_osif_in_valid_o[s]),
      .slot_osif_in_ready_i  (slot_osif_in_ready_i[s]),
      .slot_osif_out_data_i  (slot_osif_out_data_i[s*32 +: 32]),
      .slot_osif_out_valid_i (slot_osif_out_valid_i[s]),
      .slot_osif_out_ready_o (slot_osif_out_ready_o[s]),
      .slot_mem_cmd_data_i   (slot_mem_cmd_data_i[s*32 +: 32]),
      .slot_mem_cmd_valid_i  (slot_mem_cmd_valid_i[s]),
      .slot_mem_cmd_ready_o  (slot_mem_cmd_ready_o[s]),
      .slot_mem_wr_data_i    (slot_mem_wr_data_i[s*32 +: 32]),
      .slot_mem_wr_valid_i   (slot_mem_wr_valid_i[s]),
      .slot_mem_wr_ready_o   (slot_mem_wr_ready_o[s]),
      .slot_mem_rd_data_o    (slot_mem_rd_data_o[s*32 +: 32]),
      .slot_mem_rd_valid_o   (slot_mem_rd_valid_o[s]),
      .slot_mem_rd_ready_i   (slot_mem_rd_ready_i[s]),
      .req_valid_o           (req_valid[s]),
      .req_write_o           (req_write[s]),
      .req_addr_o            (req_addr[s*32 +: 32]),
      .req_len_o             (req_len[s*8 +: 8]),
      .req_gnt_i             (req_gnt[s]),
      .abort_o               (abort[s]),
      .wr_busy_i             (wr_busy[s]),
      .wr_data_o             (wr_data[s*32 +: 32]),
      .wr_valid_o            (wr_valid[s]),
      .wr_pop_i              (wr_pop[s]),
      .rd_full_o             (rd_full[s]),
      .rd_push_i             (rd_push[s]),
      .rd_data_i             (rd_data),
      .bus_err_i             (bus_err[s]),
      .bus_err_addr_i        (bus_err_addr),
      .bus_err_info_i        (bus_err_info),
      .irq_o                 (irq_o[s]),
      .quiet_o               (slot_quiet[s]),
      .link_o                (slot_link[s*LinkW +: LinkW]),
      .link_push_o           (slot_link_push[s]),
      .link_wdata_o          (slot_link_wdata[s*32 +: 32]),
      .link_pop_o            (slot_link_pop[s]),
      .link_full_i           (slot_link_full[s]),
      .link_empty_i          (slot_link_empty[s]),
      .link_rdata_i          (slot_link_rdata[s*32 +: 32])
    );

    // The link this slot names. A slot that is no end of it only sees a link that is
    // full and empty at once, and its router never moves a word there (TxMask/RxMask).
    logic [LinkW-1:0] sel;
    assign sel = slot_link[s*LinkW +: LinkW];
    assign slot_link_full[s]  = link_full[sel];
    assign slot_link_empty[s] = link_empty[sel];
    assign slot_link_rdata[s*32 +: 32] = link_rdata[32*sel +: 32];
  end

  // ---------------------------------------------------------------------------------
  // Hardware links: a FIFO each, pushed only by its source slot, popped only by its
  // destination slot. Its state survives slot resets; LINK_FLUSH empties it.
  // ---------------------------------------------------------------------------------
  for (genvar l = 0; l < LinkSlots; l++) begin : gen_link
    if (l < NumLinks) begin : gen_fifo
      localparam int unsigned Src = 32'(LinkSrc[l*8 +: 8]);
      localparam int unsigned Dst = 32'(LinkDst[l*8 +: 8]);
      localparam int unsigned Depth = 32'(LinkDepth[l*16 +: 16]);
      localparam int unsigned CntW = $clog2(Depth + 1);
      logic [CntW-1:0] count;
      weft_fifo #(
        .Width(32),
        .Depth(Depth)
      ) u_fifo (
        .clk_i,
        .rst_ni,
        .flush_i (link_flush[l % MaxLinks]),
        .push_i  (slot_link_push[Src] && (32'(slot_link[Src*LinkW +: LinkW]) == l)),
        .wdata_i (slot_link_wdata[Src*32 +: 32]),
        .pop_i   (slot_link_pop[Dst] && (32'(slot_link[Dst*LinkW +: LinkW]) == l)),
        .rdata_o (link_rdata[l*32 +: 32]),
        .full_o  (link_full[l]),
        .empty_o (link_empty[l]),
        .count_o (count)
      );
      if (l < MaxLinks) begin : gen_level
        assign link_level[l*16 +: 16] = 16'(count);
      end
    end else begin : gen_none
      assign link_full[l]  = 1'b1;
      assign link_empty[l] = 1'b1;
      assign link_rdata[l*32 +: 32] = '0;
      if (l < MaxLinks) begin : gen_level
        assign link_level[l*16 +: 16] = '0;
      end
    end
  end

  weft_memif_master #(
    .NumSlots(NumSlots)
  ) u_memif_master (
    .clk_i,
    .rst_ni,
    .req_valid_i (req_valid),
    .req_write_i (req_write),
    .req_addr_i  (req_addr),
    .req_len_i   (req_len),
    .req_gnt_o   (req_gnt),
    .abort_i     (abort),
    .wr_busy_o   (wr_busy),
    .wr_data_i   (wr_data),
    .wr_valid_i  (wr_valid),
    .wr_pop_o    (wr_pop),
    .rd_full_i   (rd_full),
    .rd_push_o   (rd_push),
    .rd_data_o   (rd_data),
    .err_o       (bus_err),
    .err_addr_o  (bus_err_addr),
    .err_info_o  (bus_err_info),
    .busy_o      (master_busy),
    .m_axi_awaddr_o,
    .m_axi_awlen_o,
    .m_axi_awsize_o,
    .m_axi_awburst_o,
    .m_axi_awvalid_o,
    .m_axi_awready_i,
    .m_axi_wdata_o,
    .m_axi_wstrb_o,
    .m_axi_wlast_o,
    .m_axi_wvalid_o,
    .m_axi_wready_i,
    .m_axi_bresp_i,
    .m_axi_bvalid_i,
    .m_axi_bready_o,
    .m_axi_araddr_o,
    .m_axi_arlen_o,
    .m_axi_arsize_o,
    .m_axi_arburst_o,
    .m_axi_arvalid_o,
    .m_axi_arready_i,
    .m_axi_rdata_i,
    .m_axi_rresp_i,
    .m_axi_rlast_i,
    .m_axi_rvalid_i,
    .m_axi_rready_o
  );

  assign quiet_o = !master_busy && (&slot_quiet);

`ifndef SYNTHESIS
  if (NumSlots < 1) begin : gen_num_slots_check
    $error("weft_static: NumSlots must be at least 1");
  end
  // Only a link's source slot's push and data and its destination slot's pop are read.
  logic unused_link;
  assign unused_link = ^{slot_link_push, slot_link_pop, slot_link_wdata, link_flush};
  if (NumLinks > MaxLinks) begin : gen_num_links_check
    $error("weft_static: at most 24 hardware links (LINK_INFO entries)");
  end
  for (genvar l = 0; l < NumLinks; l++) begin : gen_link_check
    if (32'(LinkSrc[l*8 +: 8]) >= NumSlots || 32'(LinkDst[l*8 +: 8]) >= NumSlots ||
        LinkSrc[l*8 +: 8] == LinkDst[l*8 +: 8]) begin : gen_ends
      $error("weft_static: a link must join two different existing slots");
    end
  end
`endif

endmodule

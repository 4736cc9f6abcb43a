// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_axil_regs: AXI4-Lite slave for the static region's register window.
//
// Protocol (AXI4-Lite, 16-bit byte address, 32-bit data): the write address and write
// data are each taken into a one-entry buffer (awready_o/wready_o are high while the
// buffer is empty); once both are present and no write response is pending, the write is
// performed and bvalid_o is raised until bready_i. A read address is taken while no
// read is buffered; the read is performed in a later cycle and rvalid_o is held with its
// data until rready_i. Every AXI output is a register or a function of registers only.
// One register access (read or write) is performed per cycle; a write goes first.
// Responses are always OKAY: unmapped offsets read 0 and ignore writes.
//
// Window (protocol/osif.yaml): global registers at 0x0000 (ID, VERSION, NUM_SLOTS,
// CYCLE_LO/HI, IRQ_PENDING, LINK_FLUSH, NUM_LINKS, CLOCK_MHZ, the reconfiguration
// interface's FRI_* (weft_fri holds them), LINK_INFO/LINK_LEVEL per link), slot s at SlotBase + s * SlotStride,
// the OS services' registers (SYNC_*, weft_sync_regs) from SvcBase on, as global ones. Slot accesses are
// forwarded as strobes (slot_we_o/slot_re_o) with a shared word-aligned byte offset,
// write data and strobes; the slot returns its read data combinationally in the cycle
// the access completes. An access completes in its first cycle unless its slot holds
// slot_ready_i low (an access of the ACC window, which the thread answers), or a global
// block ext_ready_i: then the same strobe repeats every cycle until it is high, and no
// other access is performed meanwhile. Reading CYCLE_LO latches the high word of the free-running cycle counter
// into CYCLE_HI.
module weft_axil_regs #(
  /// Number of slots behind the window.
  parameter int unsigned NumSlots = 4,
  /// Number of hardware links (LINK_INFO entries in use).
  parameter int unsigned NumLinks = 0,
  /// Nominal fabric clock in MHz (CLOCK_MHZ).
  parameter int unsigned ClockMhz = 100,
  /// Per link: source slot, 8 bits each.
  parameter logic [24*8-1:0] LinkSrc = '0,
  /// Per link: destination slot, 8 bits each.
  parameter logic [24*8-1:0] LinkDst = '0,
  /// Per link: depth in words, 16 bits each.
  parameter logic [24*16-1:0] LinkDepth = '0,
  /// The OS services built (SERVICES: weft_osif_pkg::Service* bits).
  parameter logic [31:0] Services = '0
) (
  /// Fabric clock.
  input  logic                     clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic                     rst_ni,

  `include "weft_axil_slave_ports.svh"

  /// Interrupt line per slot (read as IRQ_PENDING).
  input  logic [NumSlots-1:0]      irq_i,
  /// The OS services' interrupt line (IRQ_PENDING bit NumSlots).
  input  logic                     svc_irq_i,
  /// Write strobe per slot.
  output logic [NumSlots-1:0]      slot_we_o,
  /// Read strobe per slot.
  output logic [NumSlots-1:0]      slot_re_o,
  /// Byte offset inside the slot window, word aligned.
  output logic [7:0]               slot_addr_o,
  /// Write data.
  output logic [31:0]              slot_wdata_o,
  /// Write byte strobes.
  output logic [3:0]               slot_wstrb_o,
  /// Read data of every slot, slot s in bits [s*32 +: 32].
  input  logic [NumSlots*32-1:0]   slot_rdata_i,
  /// Per slot: the access its strobe shows may complete this cycle.
  input  logic [NumSlots-1:0]      slot_ready_i,
  /// Words waiting in each link, 16 bits each (LINK_LEVEL).
  input  logic [24*16-1:0]         link_level_i,
  /// One-cycle pulse per link: empty it (a LINK_FLUSH write).
  output logic [23:0]              link_flush_o,
  /// Write strobe of a global register (the FRI_* ones are weft_fri's), with the data
  /// and strobes on slot_wdata_o/slot_wstrb_o.
  output logic                     global_we_o,
  /// Byte offset in the global window of the access, word aligned.
  output logic [15:0]              global_addr_o,
  /// Read data of the global registers other blocks hold (the reconfiguration
  /// interface's, the synchronisation manager's) at global_addr_o, ORed (each 0 at an
  /// offset that is none of its registers).
  input  logic [31:0]              ext_rdata_i,
  /// A global access may complete now (low: a block holds it, weft_sync_sw's CALL
  /// register while the manager carries the call out).
  input  logic                     ext_ready_i,
  /// Hold edges a simulator skipped before this one (0 on a board): the CYCLE counter
  /// counts them too (docs/architecture.md, "Holding").
  input  logic [31:0]              skip_i,
  /// The CYCLE counter's low bits (the thread manager stamps events with them).
  output logic [15:0]              cycle_o,
  /// No transaction in progress or offered: the next edge changes no register here but
  /// the CYCLE counter.
  output logic                     still_o
);

  localparam logic [1:0] RespOkay = 2'b00;
  // Signed copy for loop bounds: a loop to 0 links would otherwise compare unsigned < 0.
  localparam int NumLinksSigned = NumLinks;
  localparam int unsigned SlotBaseInt = 32'(weft_osif_pkg::SlotBase);
  localparam int unsigned StrideInt   = 32'(weft_osif_pkg::SlotStride);
  localparam int unsigned StrideLog2  = $clog2(StrideInt);
  localparam int unsigned SlotIdxW    = 16 - StrideLog2;
  /// The OS services' window: the global offsets from here on.
  localparam int unsigned SvcBase     = 32'h8000;

  // ---------------------------------------------------------------------------------
  // Channel buffers
  // ---------------------------------------------------------------------------------
  logic        aw_full_q, w_full_q, ar_full_q, bvalid_q, rvalid_q;
  logic [15:0] awaddr_q, araddr_q;
  logic [31:0] wdata_q, rdata_q;
  logic [3:0]  wstrb_q;
  logic [63:0] cycle_q;
  logic [31:0] cycle_hi_q;

  // want_*: an access is buffered and can be answered; do_*: it completes this cycle. A
  // read that waits for its slot keeps the window until it completes (rd_wait_q): a
  // write coming meanwhile must not take over its strobe.
  logic want_write, want_read, do_write, do_read, acc_waits, rd_wait_q;
  assign want_write = aw_full_q && w_full_q && !bvalid_q && !rd_wait_q;
  assign want_read  = ar_full_q && !rvalid_q && !want_write;
  assign do_write   = want_write && !acc_waits;
  assign do_read    = want_read && !acc_waits;

  // ---------------------------------------------------------------------------------
  // Decode of the address being accessed
  // ---------------------------------------------------------------------------------
  logic [15:0]         acc_addr, acc_rel;
  logic                acc_global, acc_slot;
  logic [SlotIdxW-1:0] acc_idx;

  assign acc_addr   = want_write ? awaddr_q : araddr_q;
  assign acc_rel    = acc_addr - weft_osif_pkg::SlotBase;
  assign acc_global = (32'(acc_addr) < SlotBaseInt) || (32'(acc_addr) >= SvcBase);
  assign acc_idx    = acc_rel[15:StrideLog2];
  assign acc_slot   = !acc_global && (32'(acc_idx) < NumSlots);

  assign slot_addr_o = 8'(acc_rel[StrideLog2-1:0]) & 8'hFC;
  assign slot_wdata_o = wdata_q;
  assign slot_wstrb_o = wstrb_q;

  for (genvar s = 0; s < NumSlots; s++) begin : gen_slot_strobe
    assign slot_we_o[s] = want_write && acc_slot && (32'(acc_idx) == s);
    assign slot_re_o[s] = want_read && acc_slot && (32'(acc_idx) == s);
  end
  assign acc_waits = (acc_slot && ((slot_ready_i & (slot_we_o | slot_re_o)) == '0)) ||
                     (acc_global && !ext_ready_i);

  // Read data of the access.
  logic [31:0] global_rdata, slot_rdata, read_data;
  logic [15:0] global_off;
  assign global_off = acc_addr & 16'hFFFC;

  // Computed only for a read (the simulator then skips it in every other cycle).
  always_comb begin
    global_rdata = '0;
    if (do_read) unique case (global_off)
      weft_osif_pkg::RegId:         global_rdata = weft_osif_pkg::RegIdValue;
      weft_osif_pkg::RegVersion:    global_rdata = 32'(weft_osif_pkg::OsifVersion);
      weft_osif_pkg::RegNumSlots:   global_rdata = 32'(NumSlots);
      weft_osif_pkg::RegCycleLo:    global_rdata = cycle_q[31:0];
      weft_osif_pkg::RegCycleHi:    global_rdata = cycle_hi_q;
      weft_osif_pkg::RegIrqPending: global_rdata = 32'({svc_irq_i, irq_i});
      weft_osif_pkg::RegNumLinks:   global_rdata = 32'(NumLinks);
      weft_osif_pkg::RegClockMhz:   global_rdata = 32'(ClockMhz);
      weft_osif_pkg::RegServices:   global_rdata = Services;
      default: begin
        global_rdata = ext_rdata_i;  // 0 at any offset that is none of those blocks'
        for (int l = 0; l < NumLinksSigned; l++) begin
          if (global_off == weft_osif_pkg::RegLinkInfo + 16'(l * weft_osif_pkg::RegLinkInfoStride)) begin
            global_rdata = {LinkDepth[l*16 +: 16], LinkDst[l*8 +: 8], LinkSrc[l*8 +: 8]};
          end
          if (global_off == weft_osif_pkg::RegLinkLevel + 16'(l * weft_osif_pkg::RegLinkLevelStride)) begin
            global_rdata = {16'd0, link_level_i[l*16 +: 16]};
          end
        end
      end
    endcase
  end

  // LINK_FLUSH: written bits empty their links (only links that exist).
  localparam logic [23:0] LinkExists = 24'((64'd1 << NumLinks) - 64'd1);
  assign link_flush_o = (do_write && acc_global && (global_off == weft_osif_pkg::RegLinkFlush))
                        ? (wdata_q[23:0] & LinkExists) : '0;

  assign global_we_o   = do_write && acc_global;
  assign global_addr_o = global_off;

  always_comb begin
    slot_rdata = '0;
    for (int unsigned s = 0; s < NumSlots; s++) begin
      if (32'(acc_idx) == s) begin
        slot_rdata = slot_rdata_i[s*32 +: 32];
      end
    end
  end

  assign read_data = acc_global ? global_rdata : (acc_slot ? slot_rdata : '0);

  // ---------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_full_q  <= 1'b0;
      w_full_q   <= 1'b0;
      ar_full_q  <= 1'b0;
      bvalid_q   <= 1'b0;
      rvalid_q   <= 1'b0;
      rd_wait_q  <= 1'b0;
      awaddr_q   <= '0;
      araddr_q   <= '0;
      wdata_q    <= '0;
      wstrb_q    <= '0;
      rdata_q    <= '0;
      cycle_q    <= '0;
      cycle_hi_q <= '0;
    end else begin
      cycle_q <= cycle_q + 64'd1 + 64'(skip_i);

      if (s_axil_awvalid_i && s_axil_awready_o) begin
        aw_full_q <= 1'b1;
        awaddr_q  <= s_axil_awaddr_i;
      end
      if (s_axil_wvalid_i && s_axil_wready_o) begin
        w_full_q <= 1'b1;
        wdata_q  <= s_axil_wdata_i;
        wstrb_q  <= s_axil_wstrb_i;
      end
      if (s_axil_arvalid_i && s_axil_arready_o) begin
        ar_full_q <= 1'b1;
        araddr_q  <= s_axil_araddr_i;
      end

      if (do_write) begin
        aw_full_q <= 1'b0;
        w_full_q  <= 1'b0;
        bvalid_q  <= 1'b1;
      end else if (s_axil_bvalid_o && s_axil_bready_i) begin
        bvalid_q <= 1'b0;
      end

      rd_wait_q <= want_read && !do_read;
      if (do_read) begin
        ar_full_q <= 1'b0;
        rvalid_q  <= 1'b1;
        rdata_q   <= read_data;
        if (acc_global && (global_off == weft_osif_pkg::RegCycleLo)) begin
          cycle_hi_q <= cycle_q[63:32];
        end
      end else if (s_axil_rvalid_o && s_axil_rready_i) begin
        rvalid_q <= 1'b0;
      end
    end
  end

  assign cycle_o = cycle_q[15:0];
  assign still_o = !aw_full_q && !w_full_q && !ar_full_q && !bvalid_q && !rvalid_q && !rd_wait_q &&
                   !s_axil_awvalid_i && !s_axil_wvalid_i && !s_axil_arvalid_i;

  assign s_axil_awready_o = !aw_full_q;
  assign s_axil_wready_o  = !w_full_q;
  assign s_axil_bvalid_o  = bvalid_q;
  assign s_axil_bresp_o   = RespOkay;
  assign s_axil_arready_o = !ar_full_q;
  assign s_axil_rvalid_o  = rvalid_q;
  assign s_axil_rdata_o   = rdata_q;
  assign s_axil_rresp_o   = RespOkay;

`ifndef SYNTHESIS
  localparam bit StrideOk = ((StrideInt & (StrideInt - 1)) == 0) && (StrideInt >= 4) &&
                            (StrideInt <= 256);
  if (!StrideOk) begin : gen_stride_check
    $error("weft_axil_regs: SlotStride must be a power of two in [4, 256]");
  end
  if (SlotBaseInt + NumSlots * StrideInt > SvcBase) begin : gen_window_check
    $error("weft_axil_regs: NumSlots slot windows do not fit below the OS services' window");
  end
  StillMeansStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({aw_full_q, w_full_q, ar_full_q, bvalid_q, rvalid_q, awaddr_q,
                           araddr_q, wdata_q, rdata_q, wstrb_q, cycle_hi_q}));
  OneAccessPerCycle_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(do_write && do_read));
  StrobesOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      $onehot0(slot_we_o | slot_re_o));
  BvalidStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      s_axil_bvalid_o && !s_axil_bready_i |=> s_axil_bvalid_o);
  RdataStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      s_axil_rvalid_o && !s_axil_rready_i |=> s_axil_rvalid_o && $stable(s_axil_rdata_o));
`endif

endmodule

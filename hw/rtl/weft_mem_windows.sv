// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_mem_windows: the memory windows of every slot and the one checker of them, an
// IOMMU shared by the slots (docs/architecture.md, "MEMIF").
//
// Slot s has SlotWindows[s] windows (0 to 4: WIN_BASE, WIN_SIZE, WIN_PERM registers of
// its window, protocol/osif.yaml), kept here for all slots. A slot asks for the check of
// one whole MEMIF command [addr, addr + len) by holding chk_valid_i[s] with its fields;
// the checker takes one slot's command a cycle, round robin, and answers it
// (chk_done_o[s] for one cycle, with chk_grant_o) two cycles after the cycle it takes it:
// granted when one window of the slot contains all of it and grants its direction
// (WIN_PERM bit0 READ, bit1 WRITE). It takes one slot's command every cycle. Sums are 33 bits wide, so neither a window nor an
// access that wraps past 2^32 can pass; a window of size 0 or without permission grants
// nothing; a slot with no window has no memory access at all. A command's fields must
// stay put until its answer; a slot's windows are not written while its check is in
// flight (software sets them while the slot is held in reset).
//
// Registers take whole-word writes only (a write with a byte strobe low is ignored), so
// no window is ever half set. The windows keep their values across a slot's reset:
// software sets them for each thread it loads.
module weft_mem_windows #(
  /// Slots.
  parameter int unsigned NumSlots = 4,
  /// Per slot: its windows (0..4), 4 bits each.
  parameter logic [NumSlots*4-1:0] SlotWindows = {NumSlots{4'd2}},
  /// Width of a command's length in bytes.
  parameter int unsigned LenW = 24
) (
  /// Fabric clock.
  input  logic                     clk_i,
  /// Active-low reset (asynchronous assert): every window closed.
  input  logic                     rst_ni,

  // ---- register access (weft_axil_regs' slot strobes: one access a cycle) ----
  /// Per slot: write or read strobe of the register at reg_addr_i of its window.
  input  logic [NumSlots-1:0]      reg_we_i,
  input  logic [NumSlots-1:0]      reg_re_i,
  /// Byte offset in the slot's window.
  input  logic [7:0]               reg_addr_i,
  input  logic [31:0]              reg_wdata_i,
  input  logic [3:0]               reg_wstrb_i,
  /// The accessed slot's WIN_* register at reg_addr_i (0 if it is none).
  output logic [31:0]              reg_rdata_o,
  /// reg_addr_i is a WIN_* register of a window the slot has.
  output logic                     reg_hit_o,

  // ---- checks ----
  /// Per slot: a command waits for its check; its fields are held until chk_done_o.
  input  logic [NumSlots-1:0]      chk_valid_i,
  /// Per slot: the command writes memory (else it reads).
  input  logic [NumSlots-1:0]      chk_write_i,
  /// Per slot, 32 bits: its first byte.
  input  logic [NumSlots*32-1:0]   chk_addr_i,
  /// Per slot, LenW bits: its bytes.
  input  logic [NumSlots*LenW-1:0] chk_len_i,
  /// Per slot, one cycle: its check is answered...
  output logic [NumSlots-1:0]      chk_done_o,
  /// ...granted (or not).
  output logic                     chk_grant_o,
  /// The next edge changes no register here (a simulator hint).
  output logic                     still_o
);

  localparam int unsigned MaxWin = weft_osif_pkg::SlotRegWinBaseCount;
  localparam int unsigned Stride = weft_osif_pkg::SlotRegWinBaseStride;
  localparam logic [7:0] First = weft_osif_pkg::SlotRegWinBase;
  localparam int unsigned SlotW = (NumSlots > 1) ? $clog2(NumSlots) : 1;
  localparam int NS = NumSlots;  // signed copy for loop bounds

  function automatic int unsigned wins(input int unsigned s);
    wins = 32'(SlotWindows[s*4 +: 4]);
  endfunction

  // The windows, slot s's window w at index s*MaxWin + w: base and size in RAM, the
  // permissions in flip-flops, cleared by reset (a window without permission grants
  // nothing, whatever its RAM words hold).
  localparam int unsigned Entries = NumSlots * MaxWin;
  localparam int unsigned IdxW = $clog2(Entries);
  function automatic int unsigned max_windows();
    int unsigned m;
    m = 1;
    for (int s = 0; s < NS; s++) if (wins(s) > m) m = wins(s);
    max_windows = m;
  endfunction
  localparam int unsigned UsedWin = max_windows();  // windows of the slot with the most
  logic [31:0] base_mem [Entries];
  logic [31:0] size_mem [Entries];
  logic [1:0]  perm_q   [Entries];

  // ---- registers -------------------------------------------------------------------
  logic [7:0]       rel;
  logic             in_array;
  logic [1:0]       win;    // the window the offset names
  logic [1:0]       field;  // 0 base, 1 size, 2 perm
  logic [SlotW-1:0] acc_slot;
  logic             acc_has;  // the accessed slot has that window
  logic [IdxW-1:0]  acc_idx;
  assign rel      = reg_addr_i - First;
  assign in_array = reg_addr_i >= First && 32'(rel) < MaxWin * Stride && rel[1:0] == '0 &&
                    rel[3:2] != 2'd3;
  assign win      = 2'(32'(rel) / Stride);
  assign field    = rel[3:2];
  always_comb begin
    acc_slot = '0;
    acc_has  = 1'b0;
    for (int s = 0; s < NS; s++) begin
      if (reg_we_i[s] || reg_re_i[s]) begin
        acc_slot = SlotW'(s);
        acc_has  = 32'(win) < wins(s);
      end
    end
  end
  assign acc_idx   = IdxW'(32'(acc_slot) * MaxWin + 32'(win));
  assign reg_hit_o = in_array && acc_has;

  always_comb begin
    reg_rdata_o = '0;
    if ((reg_re_i != '0) && reg_hit_o) begin
      unique case (field)
        2'd0:    reg_rdata_o = base_mem[acc_idx];
        2'd1:    reg_rdata_o = size_mem[acc_idx];
        default: reg_rdata_o = 32'(perm_q[acc_idx]);
      endcase
    end
  end

  logic wr;
  assign wr = (reg_we_i != '0) && reg_hit_o && reg_wstrb_i == 4'hF;
  always_ff @(posedge clk_i) begin
    if (wr && field == 2'd0) base_mem[acc_idx] <= reg_wdata_i;
    if (wr && field == 2'd1) size_mem[acc_idx] <= reg_wdata_i;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < int'(Entries); i++) perm_q[i] <= '0;
    end else if (wr && field == 2'd2) begin
      perm_q[acc_idx] <= reg_wdata_i[1:0];
    end
  end

  // ---- the checker: take a command (round robin), then check it against its slot's
  // windows, then answer ----------------------------------------------------------------
  logic [NumSlots-1:0] want, gnt, taken_q;
  assign want = chk_valid_i & ~taken_q;
  weft_rr_arbiter #(.NumReq(NumSlots)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (want),
    .advance_i(1'b1),
    .gnt_o    (gnt)
  );

  // The command taken: its slot and fields (AND-OR: gnt is one-hot).
  logic             cv_q, cwrite_q;
  logic [SlotW-1:0] cslot_q;
  logic [32:0]      cfirst_q, clast_q;  // [addr, addr + len), 33 bits
  logic [2:0]       cwins_q;            // its slot's windows
  logic [SlotW-1:0] g_slot;
  logic             g_write;
  logic [31:0]      g_addr;
  logic [LenW-1:0]  g_len;
  logic [2:0]       g_wins;
  always_comb begin
    g_slot = '0;
    g_write = 1'b0;
    g_addr = '0;
    g_len = '0;
    g_wins = '0;
    for (int s = 0; s < NS; s++) begin
      if (gnt[s]) begin
        g_slot = g_slot | SlotW'(s);
        g_write = g_write | chk_write_i[s];
        g_addr = g_addr | chk_addr_i[s*32 +: 32];
        g_len = g_len | chk_len_i[s*LenW +: LenW];
        g_wins = g_wins | 3'(wins(s));
      end
    end
  end

  // Its slot's windows against it, all at once.
  logic grant;
  always_comb begin
    grant = 1'b0;
    for (int w = 0; w < int'(UsedWin); w++) begin
      logic [IdxW-1:0] i;
      logic [31:0] b, z;
      i = IdxW'(32'(cslot_q) * MaxWin + w);
      b = base_mem[i];
      z = size_mem[i];
      if (cv_q && 3'(w) < cwins_q && z != '0 && perm_q[i][cwrite_q] &&
          cfirst_q >= {1'b0, b} && clast_q <= {1'b0, b} + {1'b0, z}) begin
        grant = 1'b1;
      end
    end
  end

  logic [NumSlots-1:0] done_q;
  logic                grant_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cv_q     <= 1'b0;
      cwrite_q <= 1'b0;
      cslot_q  <= '0;
      cfirst_q <= '0;
      clast_q  <= '0;
      cwins_q  <= '0;
      done_q   <= '0;
      grant_q  <= 1'b0;
      taken_q  <= '0;
    end else begin
      cv_q <= gnt != '0;
      if (gnt != '0) begin
        cwrite_q <= g_write;
        cslot_q  <= g_slot;
        cfirst_q <= {1'b0, g_addr};
        clast_q  <= {1'b0, g_addr} + 33'(g_len);
        cwins_q  <= g_wins;
      end
      done_q <= '0;
      if (cv_q) begin
        done_q[cslot_q] <= 1'b1;
        grant_q <= grant;
      end
      // A slot's command is in the checker from its take to its answer.
      taken_q <= (taken_q | gnt) & ~done_q;
    end
  end

  assign chk_done_o  = done_q;
  assign chk_grant_o = grant_q;
  assign still_o     = chk_valid_i == '0 && !cv_q && done_q == '0 && taken_q == '0 && !wr;

`ifndef SYNTHESIS
  for (genvar s = 0; s < NumSlots; s++) begin : gen_check
    if (32'(SlotWindows[s*4 +: 4]) > MaxWin) begin : gen_too_many
      $error("weft_mem_windows: more windows than the register window has WIN_* entries");
    end
  end
  DoneOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(done_q));
`endif

endmodule

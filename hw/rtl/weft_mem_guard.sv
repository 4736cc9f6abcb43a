// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_mem_guard: the memory windows of one slot, checked like an IOMMU.
//
// It holds NumWindows windows (WIN_BASE, WIN_SIZE, WIN_PERM registers of the slot,
// protocol/osif.yaml) and answers, for one whole MEMIF access [addr_i, addr_i + len_i),
// whether some window contains all of it and grants its direction (WIN_PERM bit0 READ,
// bit1 WRITE). Sums are 33 bits wide, so neither a window nor an access that wraps past
// 2^32 can pass. A window of size 0 or without permission grants nothing; with
// NumWindows = 0 the slot has no memory access at all. The windows keep their values
// across a slot reset: software sets them for each thread it loads.
module weft_mem_guard #(
  /// Memory windows of the slot (0..4).
  parameter int unsigned NumWindows = 2,
  /// Window registers (derived; at least one so the arrays have a size).
  localparam int unsigned WinRegs = (NumWindows > 0) ? NumWindows : 1
) (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic        rst_ni,
  // The WIN_* registers.
  `include "weft_slot_reg_ports.svh"
  /// Check the access below (grant_o is only computed while it is high).
  input  logic        check_i,
  /// The access writes memory (else it reads).
  input  logic        write_i,
  /// First byte of the access.
  input  logic [31:0] addr_i,
  /// Bytes of the access.
  input  logic [31:0] len_i,
  /// Some window contains the whole access and grants its direction.
  output logic        grant_o
);

  localparam int unsigned Stride = weft_osif_pkg::SlotRegWinBaseStride;
  localparam logic [7:0] First = weft_osif_pkg::SlotRegWinBase;
  // Signed copy for loop bounds: a loop to 0 windows would compare unsigned < 0.
  localparam int NumWindowsSigned = NumWindows;

  logic [31:0] base_q [WinRegs];
  logic [31:0] size_q [WinRegs];
  logic [1:0]  perm_q [WinRegs];

  // Which window and which of its registers the offset names.
  logic [7:0]  rel;
  logic        in_range;
  logic [31:0] win_idx;
  logic [7:0]  field;
  assign rel      = reg_off_i - First;
  if (NumWindows > 0) begin : gen_range
    assign in_range = (reg_off_i >= First) && (32'(rel) < NumWindows * Stride);
  end else begin : gen_no_range
    assign in_range = 1'b0;
  end
  assign win_idx  = 32'(rel) / Stride;
  assign field    = 8'(32'(rel) % Stride);
  assign reg_hit_o = in_range && (field == (weft_osif_pkg::SlotRegWinBase - First) ||
                                  field == (weft_osif_pkg::SlotRegWinSize - First) ||
                                  field == (weft_osif_pkg::SlotRegWinPerm - First));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned w = 0; w < WinRegs; w++) begin
        base_q[w] <= '0;
        size_q[w] <= '0;
        perm_q[w] <= '0;
      end
    end else if (reg_we_i && reg_hit_o) begin
      for (int w = 0; w < NumWindowsSigned; w++) begin
        if (win_idx == w) begin
          if (field == weft_osif_pkg::SlotRegWinBase - First) begin
            base_q[w] <= (base_q[w] & ~reg_wmask_i) | (reg_wdata_i & reg_wmask_i);
          end
          if (field == weft_osif_pkg::SlotRegWinSize - First) begin
            size_q[w] <= (size_q[w] & ~reg_wmask_i) | (reg_wdata_i & reg_wmask_i);
          end
          if (field == weft_osif_pkg::SlotRegWinPerm - First) begin
            perm_q[w] <= 2'((32'(perm_q[w]) & ~reg_wmask_i) | (reg_wdata_i & reg_wmask_i));
          end
        end
      end
    end
  end

  always_comb begin
    reg_rdata_o = '0;
    for (int w = 0; w < NumWindowsSigned; w++) begin
      if (reg_re_i && in_range && win_idx == w) begin
        if (field == weft_osif_pkg::SlotRegWinBase - First) reg_rdata_o = base_q[w];
        if (field == weft_osif_pkg::SlotRegWinSize - First) reg_rdata_o = size_q[w];
        if (field == weft_osif_pkg::SlotRegWinPerm - First) reg_rdata_o = 32'(perm_q[w]);
      end
    end
  end

  logic [32:0] acc_end;
  logic [1:0]  need;
  assign acc_end = {1'b0, addr_i} + {1'b0, len_i};
  assign need    = write_i ? 2'(weft_osif_pkg::WinWrite) : 2'(weft_osif_pkg::WinRead);

  // Evaluated only for a command being checked: the simulator does not compare windows
  // in the cycles no command is (docs/architecture.md, "Simulation-friendly RTL").
  always_comb begin
    grant_o = 1'b0;
    for (int w = 0; w < NumWindowsSigned; w++) begin
      if (check_i && (size_q[w] != '0) && ((perm_q[w] & need) != '0) && (addr_i >= base_q[w]) &&
          (acc_end <= ({1'b0, base_q[w]} + {1'b0, size_q[w]}))) begin
        grant_o = 1'b1;
      end
    end
  end

`ifndef SYNTHESIS
  if (NumWindows > weft_osif_pkg::SlotRegWinBaseCount) begin : gen_windows_check
    $error("weft_mem_guard: more windows than the register window has WIN_* entries");
  end
`endif

endmodule

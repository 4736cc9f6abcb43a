// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_clint: the softcore's machine timer and software interrupt, at the register
// offsets of the RISC-V core-local interruptor that bare-metal programs expect
// (docs/softcore.md): MSIP at 0x0000, MTIMECMP at 0x4000 (low word) and 0x4004, MTIME at
// 0xBFF8 and 0xBFFC. MTIME counts core cycles. The timer interrupt is high while
// MTIME >= MTIMECMP, the software interrupt while MSIP bit 0 is set. Accesses answer in
// the cycle they are made; an offset with no register answers an error.
module weft_rv_clint (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_i,
  input  logic        we_i,
  /// Word offset in the window (byte offset / 4).
  input  logic [13:0] addr_i,
  input  logic [31:0] wdata_i,
  input  logic [3:0]  wstrb_i,
  output logic        err_o,
  output logic [31:0] rdata_o,
  output logic        irq_timer_o,
  output logic        irq_soft_o,
  output logic [63:0] mtime_o
);

  logic [63:0] mtime_q, mtimecmp_q;
  logic        msip_q;

  logic [31:0] wmask;
  always_comb begin
    for (int b = 0; b < 4; b++) wmask[b*8 +: 8] = {8{wstrb_i[b]}};
  end

  always_comb begin
    err_o = 1'b0;
    rdata_o = '0;
    unique case (addr_i)
      14'h0000: rdata_o = {31'b0, msip_q};
      14'h1000: rdata_o = mtimecmp_q[31:0];
      14'h1001: rdata_o = mtimecmp_q[63:32];
      14'h2FFE: rdata_o = mtime_q[31:0];
      14'h2FFF: rdata_o = mtime_q[63:32];
      default:  err_o = 1'b1;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mtime_q    <= '0;
      mtimecmp_q <= '1;
      msip_q     <= 1'b0;
    end else begin
      mtime_q <= mtime_q + 64'd1;
      if (req_i && we_i) begin
        unique case (addr_i)
          14'h0000: if (wstrb_i[0]) msip_q <= wdata_i[0];
          14'h1000: mtimecmp_q[31:0]  <= (mtimecmp_q[31:0] & ~wmask) | (wdata_i & wmask);
          14'h1001: mtimecmp_q[63:32] <= (mtimecmp_q[63:32] & ~wmask) | (wdata_i & wmask);
          14'h2FFE: mtime_q[31:0]  <= (mtime_q[31:0] & ~wmask) | (wdata_i & wmask);
          14'h2FFF: mtime_q[63:32] <= (mtime_q[63:32] & ~wmask) | (wdata_i & wmask);
          default: ;
        endcase
      end
    end
  end

  assign irq_timer_o = mtime_q >= mtimecmp_q;
  assign irq_soft_o  = msip_q;
  assign mtime_o     = mtime_q;

endmodule

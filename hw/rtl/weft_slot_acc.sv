// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_slot_acc: the slot's ACC window (slot offsets SlotRegAcc .. + 4 * SlotRegAccCount):
// registers the thread itself holds, such as an accelerator's ap_ctrl_hs control block
// (docs/hls.md). Each access of the window is handed to the thread across the slot
// boundary (regs_o: valid, write, addr, wdata, registers only: boundary rule 1) and held
// until the thread answers with ack (and rd_data for a read).
//
// weft_axil_regs keeps strobing the same access while ready_o is low; the access
// completes in the cycle ready_o is high, with rdata_o. A slot that is not running
// (connected_i low) answers at once: reads 0, writes are dropped. A thread that does not
// answer within AccTimeout cycles gets the same, and timeout_o pulses (FAULT.ACC), so a
// thread without registers can never stall the register window.
module weft_slot_acc (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low reset of the static region.
  input  logic        rst_ni,
  /// The slot runs and is out of reset: its thread can answer.
  input  logic        connected_i,
  `include "weft_slot_reg_ports.svh"
  /// The access at reg_off_i may complete this cycle (the thread has answered).
  output logic        ready_o,
  /// One cycle: the thread did not answer in time.
  output logic        timeout_o,
  /// An access is under way: the slot needs its clock.
  output logic        busy_o,
  /// The access towards the thread (registers only).
  output weft_osif_pkg::regs_rsp_t regs_o,
  /// The thread's answer.
  input  weft_osif_pkg::regs_req_t regs_i
);

  localparam int unsigned AccTimeout = weft_osif_pkg::AccTimeout;
  // The window runs to the end of the slot's 256 bytes.
  if (32'(weft_osif_pkg::SlotRegAcc) + 4 * weft_osif_pkg::SlotRegAccCount != 256) begin : gen_check
    $error("weft_slot_acc: the ACC window must end the slot window");
  end

  typedef enum logic [1:0] {
    StIdle,  // no access
    StWait,  // handed to the thread, waiting for its ack
    StDone   // answered: the access completes at its next strobe
  } state_e;

  state_e      state_q;
  logic [31:0] rdata_q;
  logic [$clog2(AccTimeout+1)-1:0] wait_q;

  logic hit, strobe;
  assign hit = (reg_off_i >= weft_osif_pkg::SlotRegAcc);
  assign strobe = hit && (reg_we_i || reg_re_i);
  assign reg_hit_o = hit;
  assign reg_rdata_o = (hit && reg_re_i) ? rdata_q : '0;
  assign ready_o = (state_q == StDone);
  assign busy_o = (state_q != StIdle);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      rdata_q   <= '0;
      wait_q    <= '0;
      regs_o    <= '0;
      timeout_o <= 1'b0;
    end else begin
      timeout_o <= 1'b0;
      unique case (state_q)
        StIdle: begin
          if (strobe) begin
            rdata_q <= '0;
            if (connected_i) begin
              regs_o.valid <= 1'b1;
              regs_o.write <= reg_we_i;
              regs_o.addr  <= 6'(reg_off_i - weft_osif_pkg::SlotRegAcc);
              regs_o.wdata <= reg_wdata_i;
              regs_o.strb  <= {reg_wmask_i[24], reg_wmask_i[16], reg_wmask_i[8], reg_wmask_i[0]};
              wait_q       <= '0;
              state_q      <= StWait;
            end else begin
              state_q <= StDone;
            end
          end
        end
        StWait: begin
          if (connected_i && regs_i.ack) begin
            rdata_q <= regs_o.write ? '0 : regs_i.rd_data;
            regs_o.valid <= 1'b0;
            state_q <= StDone;
          end else if (!connected_i || 32'(wait_q) == AccTimeout) begin
            regs_o.valid <= 1'b0;
            timeout_o <= connected_i;
            state_q <= StDone;
          end else begin
            wait_q <= wait_q + 1'b1;
          end
        end
        StDone: begin
          if (strobe) begin
            state_q <= StIdle;
          end
        end
        default: state_q <= StIdle;
      endcase
    end
  end

  // Strobes are whole bytes (one mask bit a byte); the interrupt is weft_slot_if's.
  logic unused;
  assign unused = ^{reg_wmask_i[31:25], reg_wmask_i[23:17], reg_wmask_i[15:9], reg_wmask_i[7:1],
                    regs_i.irq};

endmodule

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_tm_regs: the thread manager's command port and decision in the global register
// window (TM_INFO, TM_CMD, TM_ARG, TM_RESULT, TM_CUR, TM_CTRL, TM_PENDING;
// protocol/osif.yaml), and its share of the OS services' interrupt line.
//
// A whole-word TM_CMD write makes a command, unless one is in progress (BUSY reads 1 from
// that write until the answer, whose status, BLOCKED bit and thread the register then
// holds, with the value in TM_RESULT). A change of decision sets TM_PENDING; with
// TM_CTRL.IRQ_EN set, irq_o (a register) is high while it is. So a dispatcher is
// interrupted when the thread that should run changes, and at no other event.
module weft_tm_regs #(
  /// Thread ids of the manager (weft_static builds none without them).
  parameter int unsigned NumThreads = 256,
  /// Priorities of its scheduler (TM_INFO), 2 to 128.
  parameter int unsigned NumPrios = 128,
  /// Events (TM_BIND entries).
  parameter int unsigned NumEvents = 0,
  /// Timers.
  parameter int unsigned NumTimers = 0
) (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic        rst_ni,

  // ---- global register access (weft_axil_regs) ----
  `include "weft_global_reg_ports.svh"

  // ---- weft_tm's command port and decision ----
  /// A command waits.
  output logic        cmd_valid_o,
  /// It is taken at this edge.
  input  logic        cmd_ready_i,
  /// The command.
  output logic [3:0]  cmd_op_o,
  /// Its thread.
  output logic [7:0]  cmd_tid_o,
  /// Its priority or caller.
  output logic [7:0]  cmd_arg_o,
  /// Its flag.
  output logic        cmd_flag_o,
  /// TM_ARG.
  output logic [31:0] cmd_value_o,
  /// The answer is on rsp_*.
  input  logic        rsp_valid_i,
  /// Its status.
  input  logic [7:0]  rsp_status_i,
  /// The caller now waits.
  input  logic        rsp_blocked_i,
  /// Its thread.
  input  logic [7:0]  rsp_tid_i,
  /// Its value.
  input  logic [31:0] rsp_value_i,
  /// The running thread.
  input  logic [7:0]  cur_tid_i,
  /// Its priority.
  input  logic [6:0]  cur_prio_i,
  /// Decisions so far.
  input  logic [15:0] seq_i,
  /// The decision changed.
  input  logic        decided_i,

  /// TM_CTRL.RESET was written: the manager and its events return to their reset state
  /// (a register, to drive their reset).
  output logic        clear_o,
  /// The thread manager's part of the OS services' line (a register: no glitches).
  output logic        irq_o,
  /// The next edge changes no register here (a simulator hint).
  output logic        still_o
);

  logic        busy_q, irq_en_q, pending_q, irq_q, irq_en_d, pending_d, clear_q;
  logic [31:0] cmd_q, arg_q;
  // The command is held until taken (taken_q), then BUSY lasts until the answer.
  logic        taken_q;
  logic [7:0]  status_q, rtid_q;
  logic        blocked_q;
  logic [31:0] result_q;

  logic whole, wr_cmd, wr_arg, wr_ctrl, wr_pending;
  assign whole      = reg_wstrb_i == 4'hF;
  assign wr_cmd     = reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegTmCmd && !busy_q;
  assign wr_arg     = reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegTmArg;
  assign wr_ctrl    = reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegTmCtrl;
  assign wr_pending = reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegTmPending;

  // A change of decision wins over a TM_PENDING clear in the same cycle.
  assign irq_en_d  = wr_ctrl ? (reg_wdata_i & weft_osif_pkg::TmCtrlIrqEn) != '0 : irq_en_q;
  assign pending_d = decided_i ||
                     (pending_q && !(wr_pending &&
                                     (reg_wdata_i & weft_osif_pkg::TmPendingDecided) != '0));

  assign cmd_valid_o = busy_q && !taken_q;
  assign cmd_op_o    = cmd_q[3:0];
  assign cmd_tid_o   = cmd_q[weft_osif_pkg::TmCmdTidShift +: 8];
  assign cmd_arg_o   = cmd_q[weft_osif_pkg::TmCmdArgShift +: 8];
  assign cmd_flag_o  = (cmd_q & weft_osif_pkg::TmCmdFlag) != '0;
  assign cmd_value_o = arg_q;


  always_comb begin
    unique case (reg_addr_i)
      weft_osif_pkg::RegTmInfo:
        reg_rdata_o = 32'(NumThreads) | (32'(NumPrios - 1) << weft_osif_pkg::TmInfoPriosShift) |
                      (32'(NumEvents) << weft_osif_pkg::TmInfoEventsShift) |
                      (32'(NumTimers) << weft_osif_pkg::TmInfoTimersShift);
      weft_osif_pkg::RegTmCmd:
        reg_rdata_o = 32'(status_q) | (busy_q ? weft_osif_pkg::TmCmdBusy : '0) |
                      (blocked_q ? weft_osif_pkg::TmCmdBlocked : '0) |
                      (32'(rtid_q) << weft_osif_pkg::TmCmdRtidShift);
      weft_osif_pkg::RegTmArg:     reg_rdata_o = arg_q;
      weft_osif_pkg::RegTmResult:  reg_rdata_o = result_q;
      weft_osif_pkg::RegTmCur:
        reg_rdata_o = 32'(cur_tid_i) | (32'(cur_prio_i) << weft_osif_pkg::TmCurPrioShift) |
                      (32'(seq_i) << weft_osif_pkg::TmCurSeqShift);
      weft_osif_pkg::RegTmCtrl:    reg_rdata_o = {31'd0, irq_en_q};
      weft_osif_pkg::RegTmPending: reg_rdata_o = {31'd0, pending_q};
      default:                     reg_rdata_o = '0;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      taken_q <= 1'b0;
      cmd_q <= '0;
      arg_q <= '0;
      irq_en_q <= 1'b0;
      pending_q <= 1'b0;
      irq_q <= 1'b0;
      clear_q <= 1'b0;
      status_q <= '0;
      rtid_q <= '0;
      blocked_q <= 1'b0;
      result_q <= '0;
    end else begin
      if (wr_cmd) begin
        cmd_q <= reg_wdata_i;
        busy_q <= 1'b1;
        taken_q <= 1'b0;
      end
      if (cmd_valid_o && cmd_ready_i) taken_q <= 1'b1;
      // A reset of the manager drops the command in progress (its answer never comes).
      clear_q <= wr_ctrl && (reg_wdata_i & weft_osif_pkg::TmCtrlReset) != '0;
      if (clear_q) busy_q <= 1'b0;
      if (rsp_valid_i && busy_q && taken_q) begin
        busy_q <= 1'b0;
        status_q <= rsp_status_i;
        rtid_q <= rsp_tid_i;
        blocked_q <= rsp_blocked_i;
        result_q <= rsp_value_i;
      end
      if (wr_arg) arg_q <= reg_wdata_i;
      irq_en_q <= irq_en_d;
      pending_q <= pending_d;
      irq_q <= irq_en_d && pending_d;
    end
  end

  assign irq_o = irq_q;
  assign clear_o = clear_q;
  assign still_o = !reg_we_i && !clear_q && !(cmd_valid_o && cmd_ready_i) && !(busy_q && rsp_valid_i) &&
                   !decided_i && irq_q == (irq_en_q && pending_q);

endmodule

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_tm_events: interrupts as scheduling requests (CBIS) and the timers, in front of
// the thread manager (docs/hw-services.md, "Events and timers"; registers TM_BIND,
// TM_RAISE, TM_EV_PENDING, TM_EV_LAT, TIMER_* in protocol/osif.yaml).
//
// Events 0..NumTimers-1 are the timers; then each of NumLines input lines (rising edge;
// a line is followed only while bound, so one bound while high fires at once).
// An event bound to a thread (TM_BIND) that fires becomes pending, stamped with the fabric
// cycle; pending events go to weft_tm one at a time, lowest number first, as a SIGNAL of
// their thread, and the CPU hears of it only if the decision changes (weft_tm_regs). An
// event that fires again while pending counts once, as an interrupt line's would. When an
// event's SIGNAL is over, TM_EV_LAT keeps its delay: cycles from its firing to the
// decision made, and whether the decision changed.
//
// A timer counts fabric cycles: enabled, it fires TIMER_PERIOD cycles after its
// TIMER_CTRL write, then every TIMER_PERIOD cycles if PERIODIC, else once. An enabled
// timer keeps the fabric clocked (busy_o), so the simulator never skips its edges.
module weft_tm_events #(
  /// Timers, 0 to 8.
  parameter int unsigned NumTimers = 4,
  /// Input lines, at least 1; NumTimers + NumLines at most 32.
  parameter int unsigned NumLines = 1
) (
  /// Fabric clock.
  input  logic                clk_i,
  /// Active-low reset (asynchronous assert): nothing bound, every timer stopped.
  input  logic                rst_ni,

  // ---- global register access (weft_axil_regs) ----
  `include "weft_global_reg_ports.svh"

  /// The free-running fabric cycle counter (low bits).
  input  logic [15:0]         cycle_i,
  /// The lines; an event fires on a rising edge.
  input  logic [NumLines-1:0] line_i,

  // ---- to weft_tm ----
  /// An event waits: SIGNAL ev_tid_o.
  output logic                ev_valid_o,
  /// Its thread.
  output logic [7:0]          ev_tid_o,
  /// It is taken at this edge.
  input  logic                ev_ready_i,
  /// Its SIGNAL is over...
  input  logic                ev_done_i,
  /// ...and changed the decision.
  input  logic                ev_switched_i,

  /// A timer runs (the fabric must be clocked).
  output logic                busy_o,
  /// The next edge changes no register here (a simulator hint).
  output logic                still_o
);

  localparam int unsigned NumEvents = NumTimers + NumLines;
  localparam int unsigned TimersUsed = (NumTimers > 0) ? NumTimers : 1;
  localparam int NumEventsSigned = NumEvents;
  localparam int NumTimersSigned = NumTimers;
  localparam int TimersUsedSigned = TimersUsed;
  localparam int NumLinesSigned = NumLines;
  localparam logic [8:0] BindBlock = 9'(weft_osif_pkg::RegTmBind >> 7);
  localparam logic [8:0] TimerBlock = 9'(weft_osif_pkg::RegTimerPeriod >> 7);

  logic [NumEvents*9-1:0]  bind_q;   // {EN, thread} per event
  logic [NumEvents-1:0]    pend_q;
  logic [NumEvents*16-1:0] stamp_q;
  logic [NumLines-1:0]     line_q, line_bound, line_seen;
  logic                    serving_q;
  logic [4:0]              sidx_q;
  logic [15:0]             sstamp_q;
  logic [31:0]             lat_q;
  logic [TimersUsed*32-1:0] period_q, left_q, fired_q;
  logic [TimersUsed*2-1:0]  tctrl_q;

  // ---- register decode ------------------------------------------------------------------
  logic       whole, in_bind, in_timer, wr_raise;
  logic [4:0] bidx;
  logic [2:0] tidx;
  logic [1:0] tfield;
  assign whole    = reg_wstrb_i == 4'hF;
  assign in_bind  = reg_addr_i[15:7] == BindBlock && 32'(reg_addr_i[6:2]) < NumEvents;
  assign in_timer = reg_addr_i[15:7] == TimerBlock && 32'(reg_addr_i[6:4]) + 1 <= NumTimers;
  assign bidx     = reg_addr_i[6:2];
  assign tidx     = reg_addr_i[6:4];
  assign tfield   = reg_addr_i[3:2];
  assign wr_raise = reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegTmRaise;
  logic wr_bind, wr_period, wr_ctrl;
  assign wr_bind   = reg_we_i && whole && in_bind;
  assign wr_period = reg_we_i && whole && in_timer && tfield == 2'd0;
  assign wr_ctrl   = reg_we_i && whole && in_timer && tfield == 2'd1;

  logic        bind_in, timer_in;
  logic [8:0]  bind_rd;
  logic [31:0] period_rd, left_rd, fired_rd;
  logic [1:0]  tctrl_rd;
  logic [TimersUsed*98-1:0] timer_table;
  weft_index_mux #(.N(NumEvents), .W(9), .IdxW(5)) u_bind_rd (
    .table_i(bind_q), .idx_i(bidx), .en_i(in_bind), .in_o(bind_in), .data_o(bind_rd)
  );
  weft_index_mux #(.N(TimersUsed), .W(32 * 3 + 2), .IdxW(3)) u_timer_rd (
    .table_i(timer_table), .idx_i(tidx), .en_i(in_timer), .in_o(timer_in),
    .data_o({period_rd, left_rd, fired_rd, tctrl_rd})
  );
  always_comb begin
    for (int t = 0; t < TimersUsedSigned; t++) begin
      timer_table[t*98 +: 98] = {period_q[t*32 +: 32], left_q[t*32 +: 32], fired_q[t*32 +: 32],
                                 tctrl_q[t*2 +: 2]};
    end
  end

  always_comb begin
    reg_rdata_o = '0;
    if (in_bind) begin
      reg_rdata_o = {bind_rd[8], 23'd0, bind_rd[7:0]};
    end else if (in_timer) begin
      unique case (tfield)
        2'd0: reg_rdata_o = period_rd;
        2'd1: reg_rdata_o = {30'd0, tctrl_rd};
        2'd2: reg_rdata_o = left_rd;
        default: reg_rdata_o = fired_rd;
      endcase
    end else if (reg_addr_i == weft_osif_pkg::RegTmEvPending) begin
      reg_rdata_o = 32'(pend_q);
    end else if (reg_addr_i == weft_osif_pkg::RegTmEvLat) begin
      reg_rdata_o = lat_q;
    end
  end

  // ---- the timers -------------------------------------------------------------------------
  logic [TimersUsed-1:0] fire_t, run_t;
  always_comb begin
    for (int t = 0; t < TimersUsedSigned; t++) begin
      run_t[t] = t < NumTimersSigned && tctrl_q[t*2] && left_q[t*32 +: 32] != '0;
      fire_t[t] = run_t[t] && left_q[t*32 +: 32] == 32'd1;
    end
  end

  // ---- events -----------------------------------------------------------------------------
  // Only bound lines are followed (an unbound line's changes leave the block still, so a
  // simulator need not evaluate it): a line bound while high fires its event at once.
  always_comb begin
    for (int l = 0; l < NumLinesSigned; l++) begin
      line_bound[l] = bind_q[(NumTimers + 32'(l)) * 9 + 8];
    end
  end
  assign line_seen = line_i & line_bound;

  logic [NumEvents-1:0] fire, bound, pend_d;
  logic [4:0]           pick;
  logic                 any;
  always_comb begin
    fire = '0;
    for (int e = 0; e < NumEventsSigned; e++) begin
      if (e < NumTimersSigned) begin
        fire[e] = fire_t[e % TimersUsedSigned];
      end else begin
        fire[e] = line_seen[e - NumTimersSigned] && !line_q[e - NumTimersSigned];
      end
      bound[e] = bind_q[e*9 + 8];
    end
    if (wr_raise) fire = fire | reg_wdata_i[NumEvents-1:0];
    fire = fire & bound;
    // The lowest pending event goes next.
    any = pend_q != '0;
    pick = '0;
    for (int e = NumEventsSigned - 1; e >= 0; e--) begin
      if (pend_q[e]) pick = 5'(e);
    end
  end

  logic [8:0]  pick_bind;
  logic [15:0] pick_stamp;
  logic        pick_in, pick_sin;
  weft_index_mux #(.N(NumEvents), .W(9), .IdxW(5)) u_pick_bind (
    .table_i(bind_q), .idx_i(pick), .en_i(any), .in_o(pick_in), .data_o(pick_bind)
  );
  weft_index_mux #(.N(NumEvents), .W(16), .IdxW(5)) u_pick_stamp (
    .table_i(stamp_q), .idx_i(pick), .en_i(any), .in_o(pick_sin), .data_o(pick_stamp)
  );

  assign ev_valid_o = any && !serving_q;
  assign ev_tid_o   = pick_bind[7:0];

  always_comb begin
    for (int e = 0; e < NumEventsSigned; e++) begin
      pend_d[e] = (pend_q[e] && !(ev_valid_o && ev_ready_i && pick == 5'(e))) || fire[e];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bind_q <= '0;
      pend_q <= '0;
      stamp_q <= '0;
      line_q <= '0;
      serving_q <= 1'b0;
      sidx_q <= '0;
      sstamp_q <= '0;
      lat_q <= '0;
      period_q <= '0;
      left_q <= '0;
      fired_q <= '0;
      tctrl_q <= '0;
    end else begin
      line_q <= line_seen;
      for (int e = 0; e < NumEventsSigned; e++) begin
        // An event that fires while pending keeps its first stamp.
        if (fire[e] && (!pend_q[e] || (ev_valid_o && ev_ready_i && pick == 5'(e)))) begin
          stamp_q[e*16 +: 16] <= cycle_i;
        end
      end
      // A new binding starts with nothing pending.
      for (int e = 0; e < NumEventsSigned; e++) begin
        pend_q[e] <= pend_d[e] && !(wr_bind && bidx == 5'(e));
      end
      if (ev_valid_o && ev_ready_i) begin
        serving_q <= 1'b1;
        sidx_q <= pick;
        sstamp_q <= pick_stamp;
      end
      if (ev_done_i && serving_q) begin
        serving_q <= 1'b0;
        lat_q <= {1'b1, ev_switched_i, 6'd0, 3'd0, sidx_q, cycle_i - sstamp_q};
      end
      // Each entry compares the index (no shifter over the whole table).
      for (int e = 0; e < NumEventsSigned; e++) begin
        if (wr_bind && bidx == 5'(e)) bind_q[e*9 +: 9] <= {reg_wdata_i[31], reg_wdata_i[7:0]};
      end
      for (int t = 0; t < NumTimersSigned; t++) begin
        if (wr_ctrl && tidx == 3'(t)) begin
          // A TIMER_CTRL write starts the timer over, whatever it was doing.
          tctrl_q[t*2 +: 2] <= reg_wdata_i[1:0];
          left_q[t*32 +: 32] <= reg_wdata_i[0] ? period_q[t*32 +: 32] : 32'd0;
          fired_q[t*32 +: 32] <= '0;
        end else if (fire_t[t]) begin
          fired_q[t*32 +: 32] <= fired_q[t*32 +: 32] + 32'd1;
          left_q[t*32 +: 32] <= tctrl_q[t*2+1] ? period_q[t*32 +: 32] : 32'd0;
          if (!tctrl_q[t*2+1]) tctrl_q[t*2] <= 1'b0;
        end else if (run_t[t]) begin
          left_q[t*32 +: 32] <= left_q[t*32 +: 32] - 32'd1;
        end
        if (wr_period && tidx == 3'(t)) period_q[t*32 +: 32] <= reg_wdata_i;
      end
    end
  end

  assign busy_o  = run_t != '0;
  assign still_o = !reg_we_i && !busy_o && pend_q == '0 && !serving_q && line_seen == line_q;

  logic unused;
  assign unused = ^{bind_in, timer_in, pick_in, pick_sin, pick_bind[8]};

`ifndef SYNTHESIS
  if (NumTimers > 8 || NumLines < 1 || NumEvents > 32) begin : gen_check
    $error("weft_tm_events: at most 8 timers, at least 1 line, at most 32 events");
  end
`endif

endmodule

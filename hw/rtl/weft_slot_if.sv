// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_slot_if: the static-region side of one reconfigurable slot.
//
// It holds the slot's registers (CONTROL, FAULT, FAULT_ADDR, FAULT_INFO, BUSY counter,
// LINK_CALLS; LINK_BIND, SYNC_PRIO and SYNC_BIND in weft_call_router; the ACC window, the
// thread's own registers, in weft_slot_acc; the WIN_* memory windows are the static
// region's weft_mem_windows, shared by the slots), the OSIF FIFOs
// (HW2SW: thread requests read by software,
// SW2HW: software responses to the thread), the MEMIF command, write-data and read-data
// FIFOs, the MEMIF command checker and the interrupt line. Register layout and meaning
// come from protocol/osif.yaml through weft_osif_pkg.
//
// Slot boundary (docs/architecture.md): slot_req_i is the thread's side of the slot's
// channels, slot_rsp_o the static region's (weft_osif_pkg::slot_req_t, slot_rsp_t).
// * Every output towards the slot (slot_rst_no, slot_rsp_o) is a function of registers
//   of this module only, never of a slot input.
// * While CONTROL.RUN is 0 or CONTROL.RESET is 1 the slot is decoupled: every valid and
//   ready towards it is 0 and its valids are ignored.
// * While CONTROL.RESET is 1 every FIFO is flushed, FAULT (with FAULT_ADDR/FAULT_INFO),
//   the MEMIF state, the busy and link-call counters and CONTROL.SIGNAL are cleared.
//   The memory windows and link bindings are kept: software writes them for a thread
//   before it releases the reset, so the thread's first call already finds them.
// * Mailbox calls on handles bound to hardware links, and semaphore, mutex and condition
//   calls on handles bound to the synchronisation manager's objects (SYNC_BIND, through
//   the manager: the sync_* ports) are served by weft_call_router without software;
//   every other request goes to HW2SW.
// * With OSIF_REQ_BUF set, weft_osif_stage writes each request from HW2SW into memory
//   and raises the interrupt once it is there; OSIF_RSP_DMA moves a response from memory
//   into SW2HW. Its bursts share the slot's port to weft_memif_master with the MEMIF
//   (it goes first; the owner of the burst in flight gets its beats and its errors).
//
// MEMIF: a command is two words (word0: op/rsvd/length, word1: bus address). It is
// checked whole before any burst of it is requested: op READ or WRITE, reserved bits 0,
// length a non-zero multiple of 4, address 4-byte aligned and [addr, addr+length) inside
// one memory window that grants the direction (weft_mem_windows, which answers two
// cycles after it takes the command; it is asked while the command before still runs).
// A failing command
// sets FAULT.MEM, records FAULT_ADDR (word1) and FAULT_INFO (word0) and stops the MEMIF:
// no command or write word is accepted and no burst is requested until the slot is
// reset. A bus error answer (SLVERR/DECERR) to one of the slot's bursts does the same
// with the burst's address and {op, burst length in bytes}.
//
// A checked command is cut into bursts (at most MemifMaxBurstBeats beats, never crossing
// a 4 KiB boundary). A burst is requested from weft_memif_master only when its data can
// flow: for a write, min(beats, WrDepth/2) words wait in the write FIFO; for a read, the
// read FIFO has room for min(beats, RdDepth/2) words. A burst already granted always
// completes on the bus; abort_o tells the master to finish it without the slot's data
// (write strobes 0, read data dropped) because the slot is held in reset or its MEMIF
// was stopped by a fault (it no longer accepts the write data such a burst may wait for).
//
// Simulation-friendly style (docs/architecture.md): next state that depends on a slot
// input is computed inside always_ff blocks, at the edge, and only when its event
// happens; combinational logic is limited to what other blocks need within the cycle
// and is evaluated only while its condition holds. Verilator re-evaluates every
// always_comb that reads a model input at every eval(); an idle slot then costs the
// simulator a few tests per cycle.
module weft_slot_if #(
  /// Depth of the HW2SW and SW2HW OSIF FIFOs in words.
  parameter int unsigned OsifDepth = 16,
  /// Depth of the MEMIF command FIFO in words (two words per command).
  parameter int unsigned CmdDepth = 4,
  /// Depth of the MEMIF write-data FIFO in words.
  parameter int unsigned WrDepth = 64,
  /// Depth of the MEMIF read-data FIFO in words.
  parameter int unsigned RdDepth = 64,
  /// Memory windows (0..4; 0: no memory access), kept and checked by weft_mem_windows.
  parameter int unsigned NumWindows = 2,
  /// Link bindings (0..8).
  parameter int unsigned NumBinds = 4,
  /// Ranges of handles bound to the synchronisation manager's objects (0..4; 0: no
  /// manager).
  parameter int unsigned NumRanges = 4,
  /// Width of a link index.
  parameter int unsigned LinkW = 5,
  /// Links this slot is the source of.
  parameter logic [(1<<LinkW)-1:0] TxMask = '0,
  /// Links this slot is the destination of.
  parameter logic [(1<<LinkW)-1:0] RxMask = '0,
  /// Nominal fabric clock in MHz (timed link calls).
  parameter int unsigned ClockMhz = 100
) (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low reset of the static region (asynchronous assert).
  input  logic        rst_ni,

  // ---- register access from weft_axil_regs (one access per cycle) ----
  /// Write strobe for the register at reg_addr_i.
  input  logic        reg_we_i,
  /// Read strobe for the register at reg_addr_i (pops HW2SW, latches BUSY_HI).
  input  logic        reg_re_i,
  /// Byte offset inside the slot window (word aligned: bits [1:0] are 0).
  input  logic [7:0]  reg_addr_i,
  /// Write data.
  input  logic [31:0] reg_wdata_i,
  /// Write byte strobes.
  input  logic [3:0]  reg_wstrb_i,
  /// Read data of the register at reg_addr_i (valid in the cycle of reg_re_i).
  output logic [31:0] reg_rdata_o,
  /// The access at reg_addr_i may complete now (low while the thread answers an ACC
  /// access: weft_axil_regs repeats it until this is high).
  output logic        reg_ready_o,

  // ---- slot boundary, static side ----
  /// Reset towards the thread (CONTROL.RESET inverted).
  output logic        slot_rst_no,
  /// Held by the reconfiguration interface while it programs this slot: the slot is
  /// kept in reset and stopped (CONTROL writes cannot release it) and raises no
  /// interrupt.
  input  logic        decouple_i,
  /// MEM_ACTIVE: a burst of the slot (MEMIF or stager) waits for the bus or is in flight.
  output logic        mem_active_o,
  /// CONTROL.RUN: the thread is clocked.
  output logic        slot_run_o,
  /// The thread's side of the slot's channels.
  input  weft_osif_pkg::slot_req_t slot_req_i,
  /// The static region's side of the slot's channels (registers only: rule 1).
  output weft_osif_pkg::slot_rsp_t slot_rsp_o,

  // ---- towards weft_memif_master ----
  `include "weft_memif_rd_ports.svh"
  /// The burst writes memory (else it reads).
  output logic        req_write_o,
  /// Finish this slot's burst in flight without the slot's data.
  output logic        abort_o,
  /// The memory master has a write burst of this slot in flight.
  input  logic        wr_busy_i,
  /// Oldest write-data word.
  output logic [31:0] wr_data_o,
  /// Write-data FIFO not empty.
  output logic        wr_valid_o,
  /// The master takes the oldest write-data word.
  input  logic        wr_pop_i,
  /// Address of the failed burst.
  input  logic [31:0] bus_err_addr_i,
  /// {op, rsvd, length in bytes} of the failed burst.
  input  logic [31:0] bus_err_info_i,

  // ---- status ----
  /// Interrupt line: IRQ_EN & (a request waits | FAULT != 0 | the thread's own interrupt);
  /// a request waits when it is staged and not released (staging) or HW2SW is not empty
  /// (no staging).
  output logic        irq_o,
  /// The slot needs no clock (stopped, held in reset, or blocked with nothing to do).
  output logic        quiet_o,
  /// Quiet, and nothing of the slot's is left in its read-data FIFO or on the bus: the
  /// simulator may stop evaluating the thread while this holds.
  output logic        idle_o,
  /// The next edge changes no register of this slot except the BUSY counter (a simulator
  /// hint, docs/architecture.md, "Holding"); 0 whenever unsure.
  output logic        still_o,
  /// Hold edges a simulator skipped before this one (0 on a board): the BUSY counter
  /// counts them too. Only non-zero in an edge where still_o is high.
  input  logic [31:0] skip_i,

  // ---- the window check of MEMIF commands (weft_mem_windows, shared by the slots) ----
  /// A command waits for its check; its fields are held until chk_done_i.
  output logic        chk_valid_o,
  /// It writes memory (else it reads).
  output logic        chk_write_o,
  /// Its first byte and its bytes.
  output logic [31:0] chk_addr_o,
  output logic [weft_osif_pkg::MemifLengthMsb-weft_osif_pkg::MemifLengthLsb:0] chk_len_o,
  /// One cycle: the check is answered, granted or not.
  input  logic        chk_done_i,
  input  logic        chk_grant_i,

  // ---- the synchronisation manager (weft_static connects client s to slot s) ----
  `include "weft_sync_client_ports.svh"

  // ---- hardware links (weft_static selects the link named by link_o) ----
  /// Link a link call of this slot uses.
  output logic [LinkW-1:0] link_o,
  /// Push link_wdata_o into that link.
  output logic        link_push_o,
  /// Word to push.
  output logic [31:0] link_wdata_o,
  /// Pop that link's oldest word.
  output logic        link_pop_o,
  /// That link is full.
  input  logic        link_full_i,
  /// That link is empty.
  input  logic        link_empty_i,
  /// That link's oldest word.
  input  logic [31:0] link_rdata_i
);

  // ---------------------------------------------------------------------------------
  // Derived constants
  // ---------------------------------------------------------------------------------
  localparam int unsigned OsifCntW = $clog2(OsifDepth + 1);
  localparam int unsigned CmdCntW  = $clog2(CmdDepth + 1);
  localparam int unsigned WrCntW   = $clog2(WrDepth + 1);
  localparam int unsigned RdCntW   = $clog2(RdDepth + 1);
  localparam int unsigned LenW  = weft_osif_pkg::MemifLengthMsb - weft_osif_pkg::MemifLengthLsb + 1;
  localparam int unsigned OpW   = weft_osif_pkg::MemifOpMsb - weft_osif_pkg::MemifOpLsb + 1;
  localparam int unsigned RsvdW = weft_osif_pkg::MemifRsvdMsb - weft_osif_pkg::MemifRsvdLsb + 1;
  /// Words of the active command still to be requested.
  localparam int unsigned LeftW    = LenW - 2;
  /// Beats of one burst (1..MemifMaxBurstBeats).
  localparam int unsigned BeatW    = $clog2(weft_osif_pkg::MemifMaxBurstBeats + 1);
  localparam logic [BeatW-1:0] MaxBeats = BeatW'(weft_osif_pkg::MemifMaxBurstBeats);
  localparam logic [BeatW-1:0] WrThreshold = BeatW'(WrDepth / 2);
  localparam logic [BeatW-1:0] RdThreshold = BeatW'(RdDepth / 2);

  // ---------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------
  logic        reset_q;        // CONTROL.RESET
  logic        run_q;          // CONTROL.RUN
  logic        irq_en_q;       // CONTROL.IRQ_EN
  logic        signal_q;       // CONTROL.SIGNAL
  logic        rst_seen_q;     // the thread was clocked while in reset
  logic        fault_mem_q, fault_ovf_q, fault_stage_q, fault_acc_q;
  logic [31:0] fault_addr_q, fault_info_q;
  logic [31:0] link_calls_q;
  logic [63:0] busy_q;
  logic [31:0] busy_hi_q;
  logic        stopped_q;      // MEMIF stopped by a fault until reset
  // Command word 0 waiting for its address word; the address in the window check (cv_q)
  // and its answer (cres_q: granted cgrant_q).
  logic        w0_valid_q, cv_q, cres_q, cgrant_q;
  logic [31:0] w0_q, ca_q;
  // Active (checked) command: next burst address and words still to request.
  logic        act_valid_q, act_write_q;
  logic [31:0] act_addr_q;
  logic [LeftW-1:0] act_left_q;

  // Connected: the decoupler passes handshakes.
  logic connected;
  assign connected = run_q && !reset_q;

  // The thread's outputs as the static region may act on them (decoupled).
  weft_osif_pkg::slot_req_t req;
  assign req = slot_req_i;

  // ---------------------------------------------------------------------------------
  // Register access decode
  // ---------------------------------------------------------------------------------
  logic [31:0] wmask;
  assign wmask = {{8{reg_wstrb_i[3]}}, {8{reg_wstrb_i[2]}},
                  {8{reg_wstrb_i[1]}}, {8{reg_wstrb_i[0]}}};

  logic wr_sw2hw, wr_control, wr_fault, rd_busy_lo;
  assign wr_sw2hw   = reg_we_i && (reg_addr_i == weft_osif_pkg::SlotRegOsifSw2hw) &&
                      (reg_wstrb_i != '0);
  assign wr_control = reg_we_i && (reg_addr_i == weft_osif_pkg::SlotRegControl);
  assign wr_fault   = reg_we_i && (reg_addr_i == weft_osif_pkg::SlotRegFault);
  assign rd_busy_lo = reg_re_i && (reg_addr_i == weft_osif_pkg::SlotRegBusyLo);

  // ---------------------------------------------------------------------------------
  // OSIF FIFOs
  // ---------------------------------------------------------------------------------
  logic [31:0]         hw2sw_rdata, sw2hw_rdata;
  logic                hw2sw_full, hw2sw_empty, sw2hw_full, sw2hw_empty;
  logic [OsifCntW-1:0] hw2sw_count, sw2hw_count;
  logic                hw2sw_push, hw2sw_pop, sw2hw_push, sw2hw_pop;

  logic wr_pending;  // MEMIF writes not yet in memory (the write fence, below)
  logic st_staging, st_pop, st_rsp_busy, st_push;
  logic rd_hw2sw;
  // While staging, the stager takes the requests and a register read finds none.
  assign rd_hw2sw  = reg_re_i && (reg_addr_i == weft_osif_pkg::SlotRegOsifHw2sw) &&
                     !hw2sw_empty && !st_staging;
  assign hw2sw_pop = st_staging ? st_pop : rd_hw2sw;

  // ---------------------------------------------------------------------------------
  // The calls served in the static region (hardware links, the synchronisation
  // manager), between the thread and the OSIF FIFOs, with their LINK_BIND, SYNC_PRIO
  // and SYNC_BIND registers
  // ---------------------------------------------------------------------------------
  logic rt_call_done, rt_quiet, rt_still, rt_hit;
  logic [31:0] rt_in_data, rt_rdata;
  logic rt_out_ready, rt_in_valid;
  logic hw2sw_still, sw2hw_still, cmd_still, wr_still, rd_still;

  weft_call_router #(
    .NumBinds (NumBinds),
    .NumRanges(NumRanges),
    .LinkW    (LinkW),
    .TxMask   (TxMask),
    .RxMask   (RxMask),
    .ClockMhz (ClockMhz)
  ) u_router (
    .clk_i,
    .rst_ni,
    .flush_i       (reset_q),
    .signal_i      (signal_q),
    .reg_we_i      (reg_we_i),
    .reg_re_i      (reg_re_i),
    .reg_off_i     (reg_addr_i),
    .reg_wdata_i   (reg_wdata_i),
    .reg_wmask_i   (wmask),
    .reg_rdata_o   (rt_rdata),
    .reg_hit_o     (rt_hit),
    .out_data_i    (req.osif.out_data),
    .out_valid_i   (req.osif.out_valid && connected),
    .out_ready_o   (rt_out_ready),
    .in_data_o     (rt_in_data),
    .in_valid_o    (rt_in_valid),
    .in_ready_i    (req.osif.in_ready && connected),
    .dn_ready_i    (!hw2sw_full && !wr_pending),
    .dn_push_o     (hw2sw_push),
    .dn_rsp_valid_i(!sw2hw_empty),
    .dn_rsp_data_i (sw2hw_rdata),
    .dn_rsp_pop_o  (sw2hw_pop),
    .link_o,
    .link_push_o,
    .link_wdata_o,
    .link_pop_o,
    .link_full_i,
    .link_empty_i,
    .link_rdata_i,
    .sync_req_valid_o,
    .sync_op_o,
    .sync_obj_o,
    .sync_mtx_o,
    .sync_timed_o,
    .sync_tmo_o,
    .sync_req_ready_i,
    .sync_rsp_valid_i,
    .sync_rsp_status_i,
    .sync_prio_o,
    .sync_cancel_o,
    .sync_flush_o,
    .call_done_o   (rt_call_done),
    .quiet_o       (rt_quiet),
    .still_o       (rt_still)
  );

  weft_fifo #(
    .Width(32),
    .Depth(OsifDepth)
  ) u_hw2sw_fifo (
    .clk_i,
    .rst_ni,
    .flush_i (reset_q),
    .push_i  (hw2sw_push),
    .wdata_i (req.osif.out_data),
    .pop_i   (hw2sw_pop),
    .rdata_o (hw2sw_rdata),
    .full_o  (hw2sw_full),
    .empty_o (hw2sw_empty),
    .count_o (hw2sw_count),
    .still_o (hw2sw_still)
  );

  // A response DMA's read beats go into SW2HW; software's own words are dropped meanwhile.
  assign sw2hw_push = st_push || (wr_sw2hw && !sw2hw_full && !st_rsp_busy);

  weft_fifo #(
    .Width(32),
    .Depth(OsifDepth)
  ) u_sw2hw_fifo (
    .clk_i,
    .rst_ni,
    .flush_i (reset_q),
    .push_i  (sw2hw_push),
    .wdata_i (st_push ? rd_data_i : reg_wdata_i),
    .pop_i   (sw2hw_pop),
    .rdata_o (sw2hw_rdata),
    .full_o  (sw2hw_full),
    .empty_o (sw2hw_empty),
    .count_o (sw2hw_count),
    .still_o (sw2hw_still)
  );

  // ---------------------------------------------------------------------------------
  // MEMIF FIFOs
  // ---------------------------------------------------------------------------------
  logic [31:0]        cmd_rdata, rd_head;
  logic               cmd_full, cmd_empty, cmd_push, cmd_pop;
  logic [CmdCntW-1:0] cmd_count;
  logic               wr_full, wr_empty, wr_push;
  logic [WrCntW-1:0]  wr_count;
  logic               rd_empty, rd_pop, rd_full;
  logic [31:0]        mem_wr_data;
  logic [RdCntW-1:0]  rd_count;
  logic               mem_open;  // the MEMIF takes commands and write data

  assign mem_open = connected && !stopped_q;
  assign cmd_push = req.mem.cmd_valid && mem_open && !cmd_full;

  weft_fifo #(
    .Width(32),
    .Depth(CmdDepth)
  ) u_cmd_fifo (
    .clk_i,
    .rst_ni,
    .flush_i (reset_q),
    .push_i  (cmd_push),
    .wdata_i (req.mem.cmd_data),
    .pop_i   (cmd_pop),
    .rdata_o (cmd_rdata),
    .full_o  (cmd_full),
    .empty_o (cmd_empty),
    .count_o (cmd_count),
    .still_o (cmd_still)
  );

  assign wr_push = req.mem.wr_valid && mem_open && !wr_full;

  weft_fifo #(
    .Width(32),
    .Depth(WrDepth)
  ) u_wr_fifo (
    .clk_i,
    .rst_ni,
    .flush_i (reset_q),
    .push_i  (wr_push),
    .wdata_i (req.mem.wr_data),
    .pop_i   (wr_pop_i && !owner_st_q),
    .rdata_o (mem_wr_data),
    .full_o  (wr_full),
    .empty_o (wr_empty),
    .count_o (wr_count),
    .still_o (wr_still)
  );

  assign wr_valid_o = owner_st_q ? st_wr_valid : !wr_empty;
  assign wr_data_o  = owner_st_q ? st_wr_data : mem_wr_data;

  // Write fence: while this slot has MEMIF writes that have not reached memory, its next
  // OSIF request is not accepted (out_ready). A thread that writes a block and then posts
  // a semaphore can therefore never have software see the post before the data.
  assign wr_pending = (act_valid_q && act_write_q) || w0_valid_q || cv_q || !cmd_empty ||
                      !wr_empty || (wr_busy_i && !owner_st_q);

  assign rd_pop = connected && !rd_empty && req.mem.rd_ready;

  weft_fifo #(
    .Width(32),
    .Depth(RdDepth)
  ) u_rd_fifo (
    .clk_i,
    .rst_ni,
    .flush_i (reset_q),
    .push_i  (rd_push_i && !owner_st_q),
    .wdata_i (rd_data_i),
    .pop_i   (rd_pop),
    .rdata_o (rd_head),
    .full_o  (rd_full),
    .empty_o (rd_empty),
    .count_o (rd_count),
    .still_o (rd_still)
  );

  // ---------------------------------------------------------------------------------
  // The ACC window: the thread's own registers
  // ---------------------------------------------------------------------------------
  weft_osif_pkg::regs_rsp_t acc_regs;
  logic [31:0] acc_rdata;
  logic        acc_hit, acc_ready, acc_timeout, acc_busy;

  weft_slot_acc u_acc (
    .clk_i,
    .rst_ni,
    .connected_i(connected && !fault_acc_q),  // after a timeout: answered at once until FAULT.ACC is cleared
    .reg_we_i   (reg_we_i),
    .reg_re_i   (reg_re_i),
    .reg_off_i  (reg_addr_i),
    .reg_wdata_i(reg_wdata_i),
    .reg_wmask_i(wmask),
    .reg_rdata_o(acc_rdata),
    .reg_hit_o  (acc_hit),
    .ready_o    (acc_ready),
    .timeout_o  (acc_timeout),
    .busy_o     (acc_busy),
    .regs_o     (acc_regs),
    .regs_i     (req.regs)
  );
  assign reg_ready_o = !acc_hit || acc_ready;

  // ---------------------------------------------------------------------------------
  // Towards the thread: registers only (boundary rule 1), 0 while decoupled
  // ---------------------------------------------------------------------------------
  always_comb begin
    slot_rsp_o = '0;
    slot_rsp_o.osif.in_data   = rt_in_data;
    slot_rsp_o.mem.rd_data    = rd_head;
    if (connected) begin
      slot_rsp_o.regs           = acc_regs;  // 0 unless an access waits
      slot_rsp_o.osif.in_valid  = rt_in_valid;
      slot_rsp_o.osif.out_ready = rt_out_ready;
      slot_rsp_o.mem.cmd_ready  = !stopped_q && !cmd_full;
      slot_rsp_o.mem.wr_ready   = !stopped_q && !wr_full;
      slot_rsp_o.mem.rd_valid   = !rd_empty;
    end
  end

  // ---------------------------------------------------------------------------------
  // MEMIF command check: word0 waits in w0_q, word1 (the address) in ca_q while the
  // static region's window checker (weft_mem_windows, shared by the slots) checks the
  // command; its answer waits in cres_q until the active command has requested its last
  // burst, then the command becomes the active one, or faults the slot.
  // ---------------------------------------------------------------------------------
  logic [OpW-1:0]   chk_op;
  logic [RsvdW-1:0] chk_rsvd;
  logic [LenW-1:0]  chk_len;
  logic             chk_ok, act_free, last_burst, go;

  assign chk_op   = w0_q[weft_osif_pkg::MemifOpMsb:weft_osif_pkg::MemifOpLsb];
  assign chk_rsvd = w0_q[weft_osif_pkg::MemifRsvdMsb:weft_osif_pkg::MemifRsvdLsb];
  assign chk_len  = w0_q[weft_osif_pkg::MemifLengthMsb:weft_osif_pkg::MemifLengthLsb];

  // The active command has requested its last burst (or there is none).
  assign act_free = !act_valid_q || (mem_gnt && last_burst);
  // Pop word0 into w0_q, then word1 into ca_q, which starts the check.
  assign cmd_pop  = !stopped_q && !cmd_empty && (!w0_valid_q || !cv_q);
  // The checked command goes on (or faults) when the active one is done with.
  assign go       = cres_q && act_free && !stopped_q;

  assign chk_valid_o = cv_q && !cres_q && !reset_q;
  assign chk_write_o = chk_op == weft_osif_pkg::MemifOpWrite;
  assign chk_addr_o  = ca_q;
  assign chk_len_o   = chk_len;

  assign chk_ok = ((chk_op == weft_osif_pkg::MemifOpRead) ||
                   (chk_op == weft_osif_pkg::MemifOpWrite)) &&
                  (chk_rsvd == '0) &&
                  (chk_len != '0) && (chk_len[1:0] == 2'b00) &&
                  (ca_q[1:0] == 2'b00) &&
                  cgrant_q;

  // ---------------------------------------------------------------------------------
  // Burst request of the active command (computed only while there is one)
  // ---------------------------------------------------------------------------------
  logic [BeatW-1:0] beats;         // 1..MemifMaxBurstBeats
  logic [BeatW-1:0] thr;
  logic             data_ok;

  always_comb begin
    beats = '0;
    thr = '0;
    data_ok = 1'b0;
    if (act_valid_q) begin
      beats = BeatW'(weft_osif_pkg::memif_burst_beats(act_addr_q[11:2], 32'(act_left_q),
                                                      9'(MaxBeats)));
      if (act_write_q) begin
        thr = (beats < WrThreshold) ? beats : WrThreshold;
        data_ok = (32'(thr) <= 32'(wr_count));
      end else begin
        thr = (beats < RdThreshold) ? beats : RdThreshold;
        data_ok = ((32'(thr) + 32'(rd_count)) <= RdDepth);
      end
    end
  end

  logic mem_req;
  assign mem_req    = act_valid_q && !reset_q && !stopped_q && data_ok;
  assign last_burst = (act_left_q == LeftW'(beats));

  // ---------------------------------------------------------------------------------
  // Request staging and response DMA, and the slot's one port to the memory master
  // ---------------------------------------------------------------------------------
  logic        st_req, st_write, st_gnt, st_wr_valid, st_err, st_pending, st_quiet, st_still;
  logic        st_hit, mem_gnt, owner_st_q;
  logic [31:0] st_addr, st_wr_data, st_rdata;
  logic [7:0]  st_len;

  weft_osif_stage #(
    .OsifDepth(OsifDepth)
  ) u_stage (
    .clk_i,
    .rst_ni,
    .flush_i    (reset_q),
    .freeze_i   (fault_any),
    .reg_we_i   (reg_we_i),
    .reg_re_i   (reg_re_i),
    .reg_off_i  (reg_addr_i),
    .reg_wdata_i(reg_wdata_i),
    .reg_wmask_i(wmask),
    .reg_rdata_o(st_rdata),
    .reg_hit_o  (st_hit),
    .release_i  (wr_sw2hw),
    .staging_o  (st_staging),
    .pending_o  (st_pending),
    .rsp_busy_o (st_rsp_busy),
    .err_o      (st_err),
    .quiet_o    (st_quiet),
    .still_o    (st_still),
    .hw_empty_i (hw2sw_empty),
    .hw_data_i  (hw2sw_rdata),
    .hw_count_i (hw2sw_count),
    .hw_pop_o   (st_pop),
    .sw_count_i (sw2hw_count),
    .req_valid_o(st_req),
    .req_write_o(st_write),
    .req_addr_o (st_addr),
    .req_len_o  (st_len),
    .req_gnt_i  (st_gnt),
    .busy_i     (burst_busy_i && owner_st_q),
    .wr_data_o  (st_wr_data),
    .wr_valid_o (st_wr_valid),
    .wr_pop_i   (wr_pop_i && owner_st_q),
    .rd_beat_i  (st_push),
    .err_i      (bus_err_i && owner_st_q)
  );

  // The stager goes first: its bursts are short and a call waits for them. Whoever was
  // granted owns the burst until the next grant.
  assign req_valid_o = st_req || mem_req;
  assign req_write_o = st_req ? st_write : act_write_q;
  assign req_addr_o  = st_req ? st_addr : act_addr_q;
  assign req_len_o   = st_req ? st_len : 8'(beats - 1'b1);
  assign st_gnt      = req_gnt_i && st_req;
  assign mem_gnt     = req_gnt_i && !st_req;
  assign st_push     = rd_push_i && owner_st_q;
  assign rd_full_o   = owner_st_q ? sw2hw_full : rd_full;
  // A MEMIF fault stops the MEMIF's bursts, not the stager's.
  assign abort_o     = reset_q || (stopped_q && !(burst_busy_i ? owner_st_q : st_req));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      owner_st_q <= 1'b0;
    end else if (req_gnt_i) begin
      owner_st_q <= st_req;
    end
  end

  // ---------------------------------------------------------------------------------
  // Next state, at the edge
  // ---------------------------------------------------------------------------------
  logic [31:0] ctrl_rd, ctrl;
  assign ctrl_rd = (signal_q ? weft_osif_pkg::ControlSignal : '0) |
                   (reset_q ? weft_osif_pkg::ControlReset : '0) |
                   (run_q ? weft_osif_pkg::ControlRun : '0) |
                   (irq_en_q ? weft_osif_pkg::ControlIrqEn : '0) |
                   (decouple_i ? weft_osif_pkg::ControlDecoupled : '0);
  assign ctrl = (ctrl_rd & ~wmask) | (reg_wdata_i & wmask);

  // CONTROL. SIGNAL belongs to the thread being run: it reads 0 while RESET is 1.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reset_q    <= 1'b1;
      run_q      <= 1'b0;
      irq_en_q   <= 1'b0;
      signal_q   <= 1'b0;
      rst_seen_q <= 1'b0;
    end else begin
      rst_seen_q <= reset_q && (rst_seen_q || run_q);
      if (wr_control) begin
        reset_q  <= (ctrl & weft_osif_pkg::ControlReset) != '0;
        run_q    <= (ctrl & weft_osif_pkg::ControlRun) != '0;
        irq_en_q <= (ctrl & weft_osif_pkg::ControlIrqEn) != '0;
        signal_q <= ((ctrl & weft_osif_pkg::ControlSignal) != '0) &&
                    ((ctrl & weft_osif_pkg::ControlReset) == '0);
      end
      if (decouple_i) begin
        reset_q  <= 1'b1;
        run_q    <= 1'b0;
        signal_q <= 1'b0;
      end
    end
  end

  // BUSY: the slot runs and is not waiting for an OSIF response; LINK_CALLS.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q       <= '0;
      busy_hi_q    <= '0;
      link_calls_q <= '0;
    end else if (reset_q) begin
      busy_q       <= '0;
      busy_hi_q    <= '0;
      link_calls_q <= '0;
    end else begin
      if (connected && !req.osif.in_ready) begin
        busy_q <= busy_q + 64'd1 + 64'(skip_i);
      end
      if (rd_busy_lo) begin
        busy_hi_q <= busy_q[63:32];
      end
      if (rt_call_done) begin
        link_calls_q <= link_calls_q + 32'd1;
      end
    end
  end

  // MEMIF commands and faults. Held in reset: the thread's state is cleared (the FIFOs
  // are flushed by reset_q).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fault_mem_q  <= 1'b0;
      fault_ovf_q  <= 1'b0;
      fault_stage_q <= 1'b0;
      fault_acc_q  <= 1'b0;
      fault_addr_q <= '0;
      fault_info_q <= '0;
      stopped_q    <= 1'b0;
      w0_valid_q   <= 1'b0;
      w0_q         <= '0;
      cv_q         <= 1'b0;
      cres_q       <= 1'b0;
      cgrant_q     <= 1'b0;
      ca_q         <= '0;
      act_valid_q  <= 1'b0;
      act_write_q  <= 1'b0;
      act_addr_q   <= '0;
      act_left_q   <= '0;
    end else if (reset_q) begin
      fault_mem_q  <= 1'b0;
      fault_ovf_q  <= 1'b0;
      fault_stage_q <= 1'b0;
      fault_acc_q  <= 1'b0;
      fault_addr_q <= '0;
      fault_info_q <= '0;
      stopped_q    <= 1'b0;
      w0_valid_q   <= 1'b0;
      cv_q         <= 1'b0;
      cres_q       <= 1'b0;
      act_valid_q  <= 1'b0;
    end else begin
      // The active command advances on every granted burst.
      if (mem_gnt) begin
        act_addr_q <= act_addr_q + {21'd0, beats, 2'b00};
        act_left_q <= act_left_q - LeftW'(beats);
        if (last_burst) begin
          act_valid_q <= 1'b0;
        end
      end
      if (cmd_pop) begin
        if (!w0_valid_q) begin
          w0_q       <= cmd_rdata;
          w0_valid_q <= 1'b1;
        end else begin
          ca_q <= cmd_rdata;
          cv_q <= 1'b1;
        end
      end
      if (chk_done_i) begin
        cres_q   <= 1'b1;
        cgrant_q <= chk_grant_i;
      end
      if (go) begin
        w0_valid_q <= 1'b0;
        cv_q       <= 1'b0;
        cres_q     <= 1'b0;
        if (chk_ok) begin
          act_valid_q <= 1'b1;
          act_write_q <= (chk_op == weft_osif_pkg::MemifOpWrite);
          act_addr_q  <= ca_q;
          act_left_q  <= chk_len[LenW-1:2];
        end else begin
          fault_mem_q  <= 1'b1;
          fault_addr_q <= ca_q;
          fault_info_q <= w0_q;
          stopped_q    <= 1'b1;
        end
      end
      // A bus error on one of the slot's MEMIF bursts.
      if (bus_err_i && !owner_st_q && !stopped_q) begin
        fault_mem_q  <= 1'b1;
        fault_addr_q <= bus_err_addr_i;
        fault_info_q <= bus_err_info_i;
        stopped_q    <= 1'b1;
      end
      // A staging burst's bus error: software gave a bad buffer address. The stager is
      // dead from here on, so the fault is always recorded; FAULT_ADDR/FAULT_INFO keep
      // the first fault's.
      if (st_err) begin
        fault_stage_q <= 1'b1;
        if (!fault_any) begin
          fault_addr_q <= bus_err_addr_i;
          fault_info_q <= bus_err_info_i;
        end
      end
      if (wr_sw2hw && sw2hw_full) begin
        fault_ovf_q <= 1'b1;
      end
      if (acc_timeout) begin
        fault_acc_q <= 1'b1;
      end
      if (wr_fault) begin
        if ((reg_wdata_i & wmask & weft_osif_pkg::FaultMem) != '0) begin
          fault_mem_q <= 1'b0;
        end
        if ((reg_wdata_i & wmask & weft_osif_pkg::FaultOverflow) != '0) begin
          fault_ovf_q <= 1'b0;
        end
        if ((reg_wdata_i & wmask & weft_osif_pkg::FaultStage) != '0) begin
          fault_stage_q <= 1'b0;
        end
        if ((reg_wdata_i & wmask & weft_osif_pkg::FaultAcc) != '0) begin
          fault_acc_q <= 1'b0;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------
  // Register read (computed only for a read of this slot)
  // ---------------------------------------------------------------------------------
  logic fault_any, osif_irq;
  assign fault_any = fault_mem_q || fault_ovf_q || fault_stage_q || fault_acc_q;
  // The thread's own interrupt, while it runs, registered (the interrupt line is a
  // function of static-region registers, like everything else it drives).
  logic acc_irq, acc_irq_d;
  assign acc_irq_d = connected && req.regs.irq;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_irq <= 1'b0;
    end else begin
      acc_irq <= acc_irq_d;
    end
  end
  // A request waits for software: staged and not released, or words in HW2SW.
  assign osif_irq  = st_staging ? st_pending : !hw2sw_empty;

  always_comb begin
    reg_rdata_o = '0;
    if (reg_re_i) begin
      unique case (reg_addr_i)
        weft_osif_pkg::SlotRegOsifHw2sw: reg_rdata_o = rd_hw2sw ? hw2sw_rdata : '0;
        weft_osif_pkg::SlotRegStatus:    reg_rdata_o = {16'(sw2hw_count), 16'(hw2sw_count)};
        weft_osif_pkg::SlotRegControl:   reg_rdata_o = ctrl_rd;
        weft_osif_pkg::SlotRegIrqStatus:
          reg_rdata_o = (osif_irq ? weft_osif_pkg::IrqOsif : '0) |
                        (fault_any ? weft_osif_pkg::IrqFault : '0) |
                        (acc_irq ? weft_osif_pkg::IrqAcc : '0);
        weft_osif_pkg::SlotRegFault:
          reg_rdata_o = (fault_mem_q ? weft_osif_pkg::FaultMem : '0) |
                        (fault_ovf_q ? weft_osif_pkg::FaultOverflow : '0) |
                        (fault_stage_q ? weft_osif_pkg::FaultStage : '0) |
                        (fault_acc_q ? weft_osif_pkg::FaultAcc : '0);
        weft_osif_pkg::SlotRegFaultAddr: reg_rdata_o = fault_addr_q;
        weft_osif_pkg::SlotRegFaultInfo: reg_rdata_o = fault_info_q;
        weft_osif_pkg::SlotRegCaps:      reg_rdata_o = 32'(NumWindows) |
                                                     (32'(NumBinds) << weft_osif_pkg::CapsBindsShift);
        weft_osif_pkg::SlotRegLinkCalls: reg_rdata_o = link_calls_q;
        weft_osif_pkg::SlotRegMemActive: reg_rdata_o = 32'(mem_active_o);
        weft_osif_pkg::SlotRegBusyLo:    reg_rdata_o = busy_q[31:0];
        weft_osif_pkg::SlotRegBusyHi:    reg_rdata_o = busy_hi_q;
        weft_osif_pkg::SlotRegFifoDepth: reg_rdata_o = {16'(OsifDepth), 16'(OsifDepth)};
        default: begin
          // Arrays, then holes: OSIF_SW2HW is write-only, unmapped offsets read 0.
          if (rt_hit) begin
            reg_rdata_o = rt_rdata;
          end
          if (st_hit) begin
            reg_rdata_o = st_rdata;
          end
          if (acc_hit) begin
            reg_rdata_o = acc_rdata;
          end
        end
      endcase
    end
  end

  // ---------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------
  assign slot_rst_no = !reset_q;
  assign mem_active_o = burst_busy_i || req_valid_o;
  assign slot_run_o  = run_q;
  assign irq_o       = irq_en_q && !decouple_i && (osif_irq || fault_any || acc_irq);

  // Quiet: not clocked, or held in reset after one clocked edge, or waiting with nothing
  // to do here: no response waiting, no MEMIF command pending, nothing the stager can do
  // on its own, no word the thread offers taken at this edge, and the thread either
  // blocked in an OSIF call (boundary rule 2; it may wait for one response while it
  // sends its next request) or offering a request word there is no room for (a full
  // HW2SW FIFO, which software drains or releases, or a full hardware link). Idle: stopped, or blocked in a call, with no read data left for the
  // thread and no burst of its own on the bus. A thread waiting for room is not idle: it
  // is clocked while the fabric runs, since it may count its own cycles meanwhile; only a
  // fabric where every slot is quiet stops.
  logic memif_idle, offer_taken, nothing_here, blocked, waits_room, stopped_or_reset;
  assign memif_idle = stopped_q || (!act_valid_q && !w0_valid_q && !cv_q && cmd_empty);
  assign offer_taken = (req.osif.out_valid && slot_rsp_o.osif.out_ready) ||
                       (req.mem.cmd_valid && slot_rsp_o.mem.cmd_ready) ||
                       (req.mem.wr_valid && slot_rsp_o.mem.wr_ready);
  assign nothing_here = !reset_q && !offer_taken && sw2hw_empty && memif_idle && rt_quiet &&
                        st_quiet && !acc_busy;
  assign blocked = nothing_here && req.osif.in_ready;
  assign waits_room = nothing_here && req.osif.out_valid && !slot_rsp_o.osif.out_ready;
  assign stopped_or_reset = !run_q || (reset_q && rst_seen_q);
  assign quiet_o = stopped_or_reset || blocked || waits_room;
  assign idle_o  = (stopped_or_reset || blocked) &&
                   (!run_q || reset_q || (rd_empty && !burst_busy_i));

  // Still: no FIFO or router moves, no command is taken, no register is accessed, no
  // burst event, and a slot held in reset has nothing left to clear.
  assign still_o = hw2sw_still && sw2hw_still && cmd_still && wr_still && rd_still &&
                   rt_still && st_still && !cmd_pop && !chk_done_i && !go && !req_gnt_i &&
                   !bus_err_i && !reg_we_i &&
                   (acc_irq == acc_irq_d) && !acc_busy && !acc_timeout &&
                   !reg_re_i && !(decouple_i && (!reset_q || run_q || signal_q)) &&
                   (rst_seen_q == (reset_q && (rst_seen_q || run_q))) &&
                   (!reset_q || (!fault_any && fault_addr_q == '0 && fault_info_q == '0 &&
                                 !stopped_q && !w0_valid_q && !cv_q && !cres_q && !act_valid_q &&
                                 busy_q == '0 &&
                                 busy_hi_q == '0 && link_calls_q == '0));

`ifndef SYNTHESIS
  // Boundary: while decoupled no valid or ready goes towards the slot.
  DecoupledQuiet_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !connected |-> !(slot_rsp_o.osif.in_valid || slot_rsp_o.osif.out_ready ||
                       slot_rsp_o.mem.cmd_ready || slot_rsp_o.mem.wr_ready ||
                       slot_rsp_o.mem.rd_valid));
  StillMeansStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({reset_q, run_q, irq_en_q, signal_q, rst_seen_q, fault_mem_q,
                           fault_ovf_q, fault_stage_q, fault_acc_q, fault_addr_q, fault_info_q,
                           link_calls_q, busy_hi_q, owner_st_q,
                           stopped_q, w0_valid_q, w0_q, cv_q, cres_q, cgrant_q, ca_q,
                           act_valid_q, act_write_q, act_addr_q, act_left_q}));
  SkipOnlyWhenStill_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      skip_i != '0 |-> still_o);
  CmdCountInRange_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      cmd_count <= CmdCntW'(CmdDepth));
  GrantOnlyWhenRequested_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      req_gnt_i |-> req_valid_o);
  NoReadPushWhenFull_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rd_push_i |-> !rd_full_o);
  NoWritePopWhenEmpty_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      wr_pop_i && !owner_st_q |-> !wr_empty);
  if (CmdDepth < 2) begin : gen_cmd_depth_check
    $error("weft_slot_if: CmdDepth must hold one command (2 words)");
  end
  if (WrDepth < 2 || RdDepth < 2) begin : gen_data_depth_check
    $error("weft_slot_if: data FIFOs need at least 2 words");
  end
`else
  // cmd_count is only observed by assertions.
  logic unused_cmd_count;
  assign unused_cmd_count = ^cmd_count;
`endif

endmodule

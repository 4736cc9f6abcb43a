// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_osif_stage: request staging and response DMA of one slot's OSIF (docs/osif.md,
// "Staging").
//
// Software gives two buffers in memory: OSIF_REQ_BUF and OSIF_RSP_BUF (slot registers,
// protocol/osif.yaml). With OSIF_REQ_BUF non-zero every request the thread sends is
// written there whole by DMA: the header and its argument words from word STAGE_REQ_WORD
// on, as they arrive in the HW2SW FIFO (a burst per batch of words present, so the bus
// never waits for the thread), then, once they are in memory (B response), the request's
// sequence number (1 for the first after RESET) into word STAGE_SEQ_WORD. The request is
// then pending (pending_o, the interrupt) until software releases it: by the response's
// first word written to OSIF_SW2HW (release_i), or by a write to OSIF_RSP_DMA. Nothing is
// staged while a request is pending or a response moves, so software may read the buffer
// from the interrupt until its release, and a thread that sends ahead waits in HW2SW.
// Software finds a new request without a register read: its sequence number has changed.
// It may see the number in memory a few cycles before the interrupt (the write lands
// before its B response), and answer at once: a release (or response DMA) that comes
// while the number's burst is in flight counts for that request.
//
// OSIF_RSP_DMA = n moves the n words at OSIF_RSP_BUF into SW2HW as room allows (bursts no
// longer than the FIFO's free words, so a read never waits on the bus for the thread);
// reading it gives the words not yet in SW2HW (0: the buffer may be written again). A long response (a burst get, a message)
// costs software one register write instead of one per word.
//
// Bursts never cross a 4 KiB boundary. The buffers are software's, so a bus error on a
// staging burst is reported (err_o: FAULT.STAGE) and the stager stops until RESET. While
// freeze_i (a fault is pending) no new request is staged. flush_i (the slot held in
// reset) drops the request in progress, the pending one and the response DMA; a burst
// already granted completes with abort (weft_slot_if). The buffer addresses are kept.
//
// Simulation-friendly style (docs/architecture.md): registers change only on an event,
// and still_o tells a simulator when the next edge changes none of them.
module weft_osif_stage #(
  /// Depth of the slot's OSIF FIFOs in words.
  parameter int unsigned OsifDepth = 16,
  /// Width of their fill counts (derived; do not override).
  parameter int unsigned CntW = $clog2(OsifDepth + 1)
) (
  /// Fabric clock.
  input  logic            clk_i,
  /// Active-low reset of the static region (asynchronous assert).
  input  logic            rst_ni,
  /// The slot is held in reset: drop the transfer in progress and the pending request.
  input  logic            flush_i,
  /// A fault is pending: stage no new request.
  input  logic            freeze_i,

  // ---- registers (OSIF_REQ_BUF, OSIF_RSP_BUF, OSIF_RSP_DMA) ----
  `include "weft_slot_reg_ports.svh"
  /// Software wrote a response word to OSIF_SW2HW: the staged request is released.
  input  logic            release_i,

  // ---- state ----
  /// OSIF_REQ_BUF is set: requests are staged, not read from OSIF_HW2SW.
  output logic            staging_o,
  /// A staged request waits for software (the slot's OSIF interrupt while staging).
  output logic            pending_o,
  /// A response DMA is moving words into SW2HW (software's own writes there are dropped).
  output logic            rsp_busy_o,
  /// A staging burst got a bus error (FAULT.STAGE).
  output logic            err_o,
  /// Nothing to do until the thread or software acts.
  output logic            quiet_o,
  /// The next edge changes no register here (a simulator hint).
  output logic            still_o,

  // ---- the slot's FIFOs ----
  /// HW2SW FIFO: empty, oldest word, fill count; pop its oldest word.
  input  logic            hw_empty_i,
  input  logic [31:0]     hw_data_i,
  input  logic [CntW-1:0] hw_count_i,
  output logic            hw_pop_o,
  /// SW2HW FIFO fill count (response DMA bursts fit its free words).
  input  logic [CntW-1:0] sw_count_i,

  // ---- burst port (weft_slot_if shares the slot's port with the MEMIF) ----
  /// A burst is ready to be issued.
  output logic            req_valid_o,
  /// The burst writes memory (request staging) or reads it (response DMA).
  output logic            req_write_o,
  /// Byte address of its first beat.
  output logic [31:0]     req_addr_o,
  /// AXI4 length (beats - 1).
  output logic [7:0]      req_len_o,
  /// The master issues this module's burst now.
  input  logic            req_gnt_i,
  /// A burst of this module is in flight.
  input  logic            busy_i,
  /// Write beat data and valid; the master takes a beat. (Read beats go straight into
  /// SW2HW: weft_slot_if routes them.)
  output logic [31:0]     wr_data_o,
  output logic            wr_valid_o,
  input  logic            wr_pop_i,
  /// A read beat of this module's burst enters SW2HW.
  input  logic            rd_beat_i,
  /// A burst of this module got an error response.
  input  logic            err_i
);

  localparam int unsigned MaxBeats = weft_osif_pkg::MemifMaxBurstBeats;
  localparam logic [31:0] ReqOffset = weft_osif_pkg::StageReqWord << 2;
  localparam logic [31:0] SeqOffset = weft_osif_pkg::StageSeqWord << 2;

  typedef enum logic [2:0] {
    PhIdle,     // no transfer; a request may start
    PhReq,      // request words still to write
    PhSeq,      // the sequence number still to write
    PhSeqWait,  // its burst in flight; the request is pending when it completes
    PhRsp,      // response words still to read
    PhDead      // a bus error: nothing until flush
  } phase_e;

  phase_e      phase_q;
  logic [31:0] req_buf_q, rsp_buf_q, addr_q, seq_q;
  logic [15:0] left_q;    // words of the transfer not yet in a granted burst
  logic [15:0] unread_q;  // response words not yet in SW2HW
  logic        pending_q;
  logic        released_q;  // software answered the request whose number is still in flight

  // ---- registers -------------------------------------------------------------------
  logic hit_req, hit_rsp, hit_dma;
  assign hit_req = reg_off_i == weft_osif_pkg::SlotRegOsifReqBuf;
  assign hit_rsp = reg_off_i == weft_osif_pkg::SlotRegOsifRspBuf;
  assign hit_dma = reg_off_i == weft_osif_pkg::SlotRegOsifRspDma;
  assign reg_hit_o = hit_req || hit_rsp || hit_dma;

  logic        dma_write;
  logic [15:0] dma_words;
  assign dma_write = reg_we_i && hit_dma;
  assign dma_words = 16'(reg_wdata_i & reg_wmask_i & weft_osif_pkg::RspDmaMask);

  always_comb begin
    reg_rdata_o = '0;
    if (reg_re_i) begin
      if (hit_req) reg_rdata_o = req_buf_q;
      if (hit_rsp) reg_rdata_o = rsp_buf_q;
      // (A response queued while the number's burst is in flight has moved nothing yet.)
      if (hit_dma) reg_rdata_o = (phase_q == PhRsp || phase_q == PhSeqWait) ? 32'(unread_q) : '0;
    end
  end

  // ---- the burst this module wants ---------------------------------------------------
  // A new request starts from the header at the head of HW2SW; its length is known then.
  logic        start;
  logic [15:0] cur_left, avail, beats;
  logic [31:0] cur_addr;

  assign staging_o = req_buf_q != '0;
  assign start = (phase_q == PhIdle) && staging_o && !pending_q && !freeze_i && !flush_i &&
                 !hw_empty_i;

  always_comb begin
    cur_left = left_q;
    cur_addr = addr_q;
    avail = '0;
    beats = '0;
    if (start) begin
      cur_left = 16'd1 + 16'(hw_data_i[weft_osif_pkg::ReqNargsMsb:weft_osif_pkg::ReqNargsLsb]);
      cur_addr = req_buf_q + ReqOffset;
    end
    if (start || phase_q == PhReq) begin
      avail = 16'(hw_count_i);
    end else if (phase_q == PhRsp) begin
      avail = 16'(OsifDepth) - 16'(sw_count_i);
    end else if (phase_q == PhSeq) begin
      avail = 16'd1;
      cur_left = 16'd1;
      cur_addr = req_buf_q + SeqOffset;
    end
    if (avail != '0) begin
      beats = 16'(weft_osif_pkg::memif_burst_beats(cur_addr[11:2],
                                                   {16'd0, (cur_left < avail) ? cur_left : avail},
                                                   9'(MaxBeats)));
    end
  end

  assign req_valid_o = !busy_i && !flush_i && beats != '0;
  assign req_write_o = phase_q != PhRsp;
  assign req_addr_o  = cur_addr;
  assign req_len_o   = 8'(beats - 16'd1);

  // Write beats: request words straight from HW2SW, or the sequence number.
  assign wr_data_o  = (phase_q == PhSeqWait) ? seq_q + 32'd1 : hw_data_i;
  assign wr_valid_o = (phase_q == PhSeqWait) || !hw_empty_i;
  assign hw_pop_o   = wr_pop_i && (phase_q != PhSeqWait);

  assign pending_o  = pending_q;
  assign rsp_busy_o = phase_q == PhRsp;
  assign err_o      = err_i && (phase_q != PhDead);

  // ---- next state, at the edge -------------------------------------------------------
  logic done;  // the burst in flight (sequence number or last response burst) completed
  assign done = !busy_i && ((phase_q == PhSeqWait) || (phase_q == PhRsp && left_q == '0));

  // Software owns the request from the moment its sequence number can be in memory.
  logic sw_owns, release_now, dma_start;
  assign sw_owns     = pending_q || phase_q == PhSeqWait;
  assign release_now = sw_owns && (release_i || dma_write);
  // A response DMA starts between requests, or once the number's burst completes.
  assign dma_start   = dma_write && dma_words != '0 &&
                       ((phase_q == PhIdle && !start) || phase_q == PhSeqWait);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_buf_q <= '0;
      rsp_buf_q <= '0;
    end else if (reg_we_i && (hit_req || hit_rsp)) begin
      if (hit_req) req_buf_q <= ((req_buf_q & ~reg_wmask_i) | (reg_wdata_i & reg_wmask_i)) & ~32'd3;
      if (hit_rsp) rsp_buf_q <= ((rsp_buf_q & ~reg_wmask_i) | (reg_wdata_i & reg_wmask_i)) & ~32'd3;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q   <= PhIdle;
      addr_q    <= '0;
      left_q    <= '0;
      unread_q  <= '0;
      seq_q     <= '0;
      pending_q <= 1'b0;
      released_q <= 1'b0;
    end else if (flush_i) begin
      phase_q    <= PhIdle;
      left_q     <= '0;
      unread_q   <= '0;
      seq_q      <= '0;
      pending_q  <= 1'b0;
      released_q <= 1'b0;
    end else if (req_gnt_i || done || release_now || dma_write || err_i || rd_beat_i) begin
      if (release_now) begin
        pending_q  <= 1'b0;
        released_q <= phase_q == PhSeqWait;
      end
      if (req_gnt_i) begin
        addr_q <= cur_addr + {14'd0, beats, 2'b00};
        left_q <= cur_left - beats;
        unique case (phase_q)
          PhIdle, PhReq: phase_q <= (cur_left == beats) ? PhSeq : PhReq;
          PhSeq:         phase_q <= PhSeqWait;
          default:       ;
        endcase
      end
      // A response DMA given while the number was in flight (left_q) starts after it.
      if (done) begin
        if (phase_q == PhSeqWait) begin
          seq_q      <= seq_q + 32'd1;
          pending_q  <= !(released_q || release_now);
          released_q <= 1'b0;
        end
        phase_q <= (phase_q == PhSeqWait && left_q != '0) ? PhRsp : PhIdle;
      end
      // (Given in the very cycle the number's burst completes, it starts now.)
      // (Beats of a burst aborted by a flush or cut by an error are not counted.)
      if (rd_beat_i && phase_q == PhRsp && unread_q != '0) begin
        unread_q <= unread_q - 16'd1;
      end
      if (dma_start) begin
        addr_q   <= rsp_buf_q;
        left_q   <= dma_words;
        unread_q <= dma_words;
        if (phase_q == PhIdle || done) begin
          phase_q <= PhRsp;
        end
      end
      if (err_i) begin
        phase_q <= PhDead;
      end
    end
  end

  assign quiet_o = !req_valid_o && !busy_i && (phase_q == PhIdle || phase_q == PhReq ||
                                               phase_q == PhDead);
  assign still_o = !req_valid_o && !release_now && !dma_write && !err_i && !done && !rd_beat_i &&
                   !(reg_we_i && (hit_req || hit_rsp)) &&
                   (!flush_i || (phase_q == PhIdle && left_q == '0 && seq_q == '0 &&
                                 unread_q == '0 && !pending_q && !released_q));

`ifndef SYNTHESIS
  NoGrantUnlessRequested_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      req_gnt_i |-> req_valid_o);
  NoPopWhenEmpty_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      hw_pop_o |-> !hw_empty_i);
  ReadFits_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (req_valid_o && !req_write_o) |-> (32'(beats) + 32'(sw_count_i) <= OsifDepth));
  StillMeansStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({phase_q, req_buf_q, rsp_buf_q, addr_q, seq_q, left_q, unread_q,
                           pending_q, released_q}));
`endif

endmodule

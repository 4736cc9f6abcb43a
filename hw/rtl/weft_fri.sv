// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_fri: the reconfiguration interface (FRI) of the static region
// (docs/reconfiguration.md).
//
// Software puts a partial bitstream file (include/weft/bitstream.h) in the DMA region and
// writes FRI_ADDR, FRI_SIZE and FRI_CTRL with START and the slot. The FRI then
//   1. decouples the slot (decouple_o: held in reset, not clocked, no bus traffic, no
//      interrupt) for the whole programming; the other slots run on;
//   2. reads FRI_SIZE bytes over the memory master as a requester of its own (served
//      before the slots, but never twice in a row: weft_memif_master UrgentLast), and
//      consumes them at FRI_RATE bytes per cycle (8.8 fixed point; 0: a word per cycle),
//      the rate of the configuration port it models (FRED's PCAP: about 1.2; ICAP: 4);
//   3. checks the header as it arrives (magic, version and header size, header CRC-32,
//      reserved bytes, payload size against FRI_SIZE, the slot in the file's slot mask)
//      and the payload's CRC-32 at its end;
//   4. waits until no burst of the slot is left on the bus, then asks the host to load
//      the slot (load_o): with the file's configuration when every check passed
//      (load_blank_o = 0), or empty (load_blank_o = 1) when one failed, as a slot whose
//      configuration frames were half written is on a board. The host (which knows from
//      its own START which configuration the file carries) answers with
//      load_done_i and load_ok_i (a board ties both high: the frames it wrote are the
//      load); a refused load leaves the slot empty and fails with FriErrLoad;
//   5. ends DONE or FAILED with the error code and the cycles it took in FRI_CYCLES,
//      raising irq_o while FRI_CTRL.IRQ_EN is set, until software writes ACK.
// One slot is programmed at a time: START is ignored while the FRI is busy. Its registers
// take whole-word writes only (a write with any byte strobe low is ignored), so that no
// byte store can START with a stale slot number.
//
// Rate and jitter: the FRI reads bursts of BurstBeats (128) words into a FIFO of two
// bursts, and never gets two bursts in a row while a slot waits. Between two of its
// bursts a slot burst of at most 256 beats may run: 128 words in about 400 cycles keeps
// 1.2 bytes a cycle, and the words buffered outlast that slot burst. So on a quiet bus a
// programming takes the same cycles every time, and with busy slots only a little more:
// its first words may wait behind a slot's burst, and like a real port it consumes at its
// rate, not faster to catch up. A faster port (an ICAP's 4 bytes a cycle) gets about half
// the bus while the slots ask for it.
module weft_fri #(
  /// Number of slots.
  parameter int unsigned NumSlots = 4,
  /// FRI_RATE after reset: bytes per cycle, 8.8 fixed point.
  parameter logic [15:0] ResetRate = 16'd307,
  /// Read FIFO depth in words (at least two bursts).
  parameter int unsigned FifoDepth = 256
) (
  /// Fabric clock.
  input  logic                clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic                rst_ni,

  // ---- registers (global window, from weft_axil_regs) ----
  `include "weft_global_reg_ports.svh"

  // ---- requester port of weft_memif_master (reads only) ----
  `include "weft_memif_rd_ports.svh"

  // ---- slots ----
  /// Per slot: held decoupled by the FRI.
  output logic [NumSlots-1:0] decouple_o,
  /// Per slot: a burst of the slot waits for the bus or is in flight (MEM_ACTIVE).
  input  logic [NumSlots-1:0] slot_mem_active_i,

  // ---- the loader (the simulation host; tied high on a board) ----
  /// Load slot load_slot_o now; held until load_done_i.
  output logic                load_o,
  /// Leave the slot empty instead (a check failed).
  output logic                load_blank_o,
  /// The slot to load.
  output logic [7:0]          load_slot_o,
  /// The load is done.
  input  logic                load_done_i,
  /// ...and succeeded (ignored for a blank load).
  input  logic                load_ok_i,

  /// DONE or FAILED with FRI_CTRL.IRQ_EN set.
  output logic                irq_o,
  /// Programming in progress: the fabric must be clocked.
  output logic                busy_o,
  /// The next edge changes no register here (docs/architecture.md, "Holding").
  output logic                still_o
);

  localparam int unsigned HeaderWords = weft_osif_pkg::FriHeaderBytes / 4;
  localparam int unsigned HeaderCrcWord = 32;       // bytes 128..131
  localparam int unsigned BurstBeats = 128;
  localparam int unsigned CntW = $clog2(FifoDepth + 1);
  localparam logic [31:0] MaxPayload = 32'(weft_osif_pkg::FriMaxPayload);
  localparam logic [31:0] MaxFile = weft_osif_pkg::FriHeaderBytes + MaxPayload;

  typedef enum logic [2:0] {
    StIdle,
    StRead,    // reading and checking the file
    StDrain,   // the read is over: its burst in flight, and the slot's, leave the bus
    StLoad,    // the loader swaps the slot's configuration
    StDone,
    StFailed
  } state_e;

  // Registers.
  state_e      state_q;
  logic [31:0] addr_q, size_q, cycles_q, bytes_q;
  logic [15:0] rate_q;
  logic [7:0]  slot_q, err_q;
  logic        irq_en_q;
  // Reading: next burst address, words still to request, words requested not yet here.
  logic [31:0] rd_addr_q;
  logic [24:0] req_left_q;
  logic [8:0]  pending_q;
  // Checking: word index, credit (1/256 bytes), the header fields, the two CRCs.
  logic [24:0] pos_q;
  logic [17:0] credit_q;
  logic [31:0] payload_size_q, payload_crc_q, crc_q;
  logic        reserved_bad_q, slot_ok_q;

  // ---------------------------------------------------------------------------------
  // CRC-32 (zlib's: reflected, polynomial 0xEDB88320), little-endian bytes of a word
  // ---------------------------------------------------------------------------------
  function automatic logic [31:0] crc32_bytes(input logic [31:0] crc, input logic [31:0] data,
                                              input logic [2:0] nbytes);
    logic [31:0] c;
    c = crc;
    for (int b = 0; b < 32; b++) begin
      if (32'(b / 8) < 32'(nbytes)) begin
        c = (c[0] ^ data[b]) ? ((c >> 1) ^ 32'hEDB88320) : (c >> 1);
      end
    end
    crc32_bytes = c;
  endfunction

  // ---------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------
  logic busy, we, wr_ctrl, start, ack;
  assign busy    = (state_q != StIdle) && (state_q != StDone) && (state_q != StFailed);
  assign we      = reg_we_i && (reg_wstrb_i == 4'hF);
  assign wr_ctrl = we && (reg_addr_i == weft_osif_pkg::RegFriCtrl);
  assign start   = wr_ctrl && !busy && ((reg_wdata_i & weft_osif_pkg::FriCtrlStart) != '0);
  assign ack     = wr_ctrl && !busy && ((reg_wdata_i & weft_osif_pkg::FriCtrlAck) != '0);

  always_comb begin
    unique case (reg_addr_i)
      weft_osif_pkg::RegFriAddr:   reg_rdata_o = addr_q;
      weft_osif_pkg::RegFriSize:   reg_rdata_o = size_q;
      weft_osif_pkg::RegFriRate:   reg_rdata_o = 32'(rate_q);
      weft_osif_pkg::RegFriCtrl:   reg_rdata_o = 32'(slot_q) |
                                                 (irq_en_q ? weft_osif_pkg::FriCtrlIrqEn : '0);
      weft_osif_pkg::RegFriStatus: reg_rdata_o = {8'd0, slot_q, err_q, 5'd0, fri_state()};
      weft_osif_pkg::RegFriCycles: reg_rdata_o = cycles_q;
      weft_osif_pkg::RegFriBytes:  reg_rdata_o = bytes_q;
      default:                     reg_rdata_o = '0;
    endcase
  end

  function automatic logic [2:0] fri_state();
    unique case (state_q)
      StIdle:   fri_state = 3'(weft_osif_pkg::FriStateIdle);
      StDone:   fri_state = 3'(weft_osif_pkg::FriStateDone);
      StFailed: fri_state = 3'(weft_osif_pkg::FriStateFailed);
      default:  fri_state = 3'(weft_osif_pkg::FriStateBusy);
    endcase
  endfunction

  // ---------------------------------------------------------------------------------
  // Reading the file: bursts of up to BurstBeats words, never across 4 KiB, issued while
  // the FIFO has room for every word requested
  // ---------------------------------------------------------------------------------
  logic [31:0]    fifo_rdata;
  logic           fifo_empty, fifo_full, fifo_flush, fifo_still, pop;
  logic [CntW-1:0] fifo_count;
  logic [24:0]    next_beats;
  assign next_beats = 25'(weft_osif_pkg::memif_burst_beats(rd_addr_q[11:2], 32'(req_left_q),
                                                           9'(BurstBeats)));

  // The next burst is requested while its words have room (fill and words on their way
  // only fall until it is granted); a failed read withdraws it.
  assign req_valid_o = (state_q == StRead) && (req_left_q != '0) &&
                       (32'(fifo_count) + 32'(pending_q) + 32'(next_beats) <= FifoDepth);
  assign req_addr_o  = rd_addr_q;
  assign req_len_o   = 8'(next_beats - 25'd1);

  weft_fifo #(
    .Width(32),
    .Depth(FifoDepth)
  ) u_fifo (
    .clk_i,
    .rst_ni,
    .flush_i (fifo_flush),
    .push_i  (rd_push_i && (state_q == StRead)),
    .wdata_i (rd_data_i),
    .pop_i   (pop),
    .rdata_o (fifo_rdata),
    .full_o  (fifo_full),
    .empty_o (fifo_empty),
    .count_o (fifo_count),
    .still_o (fifo_still)
  );
  // Beats arriving after a check failed are taken and dropped.
  assign rd_full_o  = (state_q == StRead) && fifo_full;
  assign fifo_flush = (state_q != StRead);

  // ---------------------------------------------------------------------------------
  // Checking, one word at a time at the configured rate
  // ---------------------------------------------------------------------------------
  logic [24:0] total_words;
  logic [17:0] word_credit;
  logic        paced;
  assign total_words = 25'(HeaderWords) + 25'((payload_size_q + 32'd3) >> 2);
  assign word_credit = 18'd1024;  // 4 bytes in 1/256 bytes
  assign paced = (rate_q == '0) || (credit_q >= word_credit);
  assign pop   = (state_q == StRead) && !fifo_empty && paced;

  // The verdict on the word popped now: 0 to go on, else the error code. Only
  // comparisons here; the CRC is updated at the edge of a pop (in simulation it costs
  // nothing in the cycles without one), and the payload's is judged there too.
  logic [7:0]  verdict;
  logic        last_word;
  logic [2:0]  word_bytes;
  assign last_word  = (pos_q >= 25'(HeaderWords)) && (pos_q + 25'd1 == total_words);
  assign word_bytes = (last_word && (payload_size_q[1:0] != 2'd0)) ? {1'b0, payload_size_q[1:0]}
                                                                   : 3'd4;
  always_comb begin
    verdict = '0;
    unique case (pos_q)
      25'd0: if (fifo_rdata != weft_osif_pkg::FriMagic0) verdict = 8'(weft_osif_pkg::FriErrMagic);
      25'd1: if (fifo_rdata != weft_osif_pkg::FriMagic1) verdict = 8'(weft_osif_pkg::FriErrMagic);
      25'd2: if (fifo_rdata != weft_osif_pkg::FriVersionWord) verdict = 8'(weft_osif_pkg::FriErrVersion);
      25'(HeaderCrcWord): begin
        if (fifo_rdata != ~crc_q) verdict = 8'(weft_osif_pkg::FriErrHeaderCrc);
      end
      25'(HeaderWords - 1): begin
        if (reserved_bad_q || fifo_rdata != '0) begin
          verdict = 8'(weft_osif_pkg::FriErrReserved);
        end else if (payload_size_q == '0 || payload_size_q > MaxPayload) begin
          verdict = 8'(weft_osif_pkg::FriErrSize);
        end else if (size_q < weft_osif_pkg::FriHeaderBytes + payload_size_q) begin
          verdict = 8'(weft_osif_pkg::FriErrTruncated);
        end else if (size_q > weft_osif_pkg::FriHeaderBytes + payload_size_q) begin
          verdict = 8'(weft_osif_pkg::FriErrLong);
        end else if (!slot_ok_q) begin
          verdict = 8'(weft_osif_pkg::FriErrSlot);
        end
      end
      default: ;
    endcase
  end

  // The slot mask (word 5) is judged with the other fields once the header CRC held.
  logic slot_in_mask;
  assign slot_in_mask = (slot_q < 8'd32) && fifo_rdata[slot_q[4:0]];

  // ---------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------
  logic fail_now;
  logic [7:0] fail_code;
  always_comb begin
    fail_now  = 1'b0;
    fail_code = '0;
    if (state_q == StRead) begin
      if (bus_err_i) begin
        fail_now  = 1'b1;
        fail_code = 8'(weft_osif_pkg::FriErrBus);
      end else if (pop && verdict != '0) begin
        fail_now  = 1'b1;
        fail_code = verdict;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q        <= StIdle;
      addr_q         <= '0;
      size_q         <= '0;
      rate_q         <= ResetRate;
      slot_q         <= '0;
      err_q          <= '0;
      irq_en_q       <= 1'b0;
      cycles_q       <= '0;
      bytes_q        <= '0;
      rd_addr_q      <= '0;
      req_left_q     <= '0;
      pending_q      <= '0;
      pos_q          <= '0;
      credit_q       <= '0;
      payload_size_q <= '0;
      payload_crc_q  <= '0;
      crc_q          <= '1;
      reserved_bad_q <= 1'b0;
      slot_ok_q      <= 1'b0;
    end else begin
      // Registers software writes; the file's place and the rate only while not busy.
      if (we && !busy) begin
        unique case (reg_addr_i)
          weft_osif_pkg::RegFriAddr: addr_q <= reg_wdata_i;
          weft_osif_pkg::RegFriSize: size_q <= reg_wdata_i;
          weft_osif_pkg::RegFriRate: rate_q <= reg_wdata_i[15:0];
          default: ;
        endcase
      end
      if (wr_ctrl) begin
        irq_en_q <= (reg_wdata_i & weft_osif_pkg::FriCtrlIrqEn) != '0;
      end
      if (ack) begin
        state_q <= StIdle;
      end

      if (busy) begin
        cycles_q <= cycles_q + 32'd1;
      end

      // Bursts: the request advances when it is granted.
      if (req_gnt_i) begin
        rd_addr_q  <= rd_addr_q + {5'd0, next_beats, 2'b00};
        req_left_q <= req_left_q - next_beats;
      end
      pending_q <= pending_q + (req_gnt_i ? 9'(next_beats) : 9'd0) -
                   ((rd_push_i && pending_q != '0) ? 9'd1 : 9'd0);

      // Pacing: credit grows by the rate each cycle, a word costs 4 bytes of it.
      if (state_q == StRead && rate_q != '0) begin
        credit_q <= ((credit_q < 18'd2048) ? credit_q + 18'(rate_q) : credit_q) -
                    (pop ? word_credit : 18'd0);
      end

      if (pop) begin
        pos_q   <= pos_q + 25'd1;
        bytes_q <= bytes_q + 32'(word_bytes);
        // Words 0..31 make the header's CRC, the payload's starts after the header.
        crc_q   <= (pos_q >= 25'(HeaderCrcWord) && pos_q < 25'(HeaderWords)) ? '1 :
                   crc32_bytes(crc_q, fifo_rdata, word_bytes);
        unique case (pos_q)
          25'd3: payload_size_q <= fifo_rdata;
          25'd4: payload_crc_q <= fifo_rdata;
          25'd5: slot_ok_q <= slot_in_mask;
          default: ;
        endcase
        if (pos_q > 25'(HeaderCrcWord) && pos_q < 25'(HeaderWords - 1) && fifo_rdata != '0) begin
          reserved_bad_q <= 1'b1;
        end
      end

      unique case (state_q)
        StIdle, StDone, StFailed: if (start) begin
          err_q          <= '0;
          cycles_q       <= '0;
          bytes_q        <= '0;
          pos_q          <= '0;
          credit_q       <= '0;
          crc_q          <= '1;
          reserved_bad_q <= 1'b0;
          payload_size_q <= '0;
          pending_q      <= '0;  // a bus error's unpushed beats are not on their way
          slot_q         <= reg_wdata_i[7:0];
          rd_addr_q      <= addr_q;
          // The whole file is read from the start (the header check then requires
          // FRI_SIZE to be header and payload); no more than the largest one.
          req_left_q     <= 25'((((size_q > MaxFile) ? MaxFile : size_q) + 32'd3) >> 2);
          if (32'(reg_wdata_i[7:0]) >= NumSlots || addr_q[1:0] != 2'b00) begin
            err_q   <= 8'(weft_osif_pkg::FriErrArgs);
            state_q <= StFailed;
          end else if (size_q < weft_osif_pkg::FriHeaderBytes) begin
            // Nothing to read: the slot is left as it was.
            err_q   <= 8'(weft_osif_pkg::FriErrTruncated);
            state_q <= StFailed;
          end else begin
            state_q <= StRead;
          end
        end
        StRead: begin
          if (fail_now) begin
            err_q   <= fail_code;
            state_q <= StDrain;
          end else if (pop && last_word) begin
            if (crc32_bytes(crc_q, fifo_rdata, word_bytes) != ~payload_crc_q) begin
              err_q <= 8'(weft_osif_pkg::FriErrPayloadCrc);
            end
            state_q <= StDrain;
          end
        end
        // With weft_memif_master (one transaction at a time) the slot's bursts are over
        // before the FRI read its first word; the slot's MEM_ACTIVE keeps that true for any
        // interconnect.
        StDrain: if (!burst_busy_i && (slot_mem_active_i & decouple_o) == '0) begin
          state_q <= StLoad;
        end
        StLoad: if (load_done_i) begin
          if (err_q == '0 && !load_ok_i) begin
            err_q <= 8'(weft_osif_pkg::FriErrLoad);
          end
          state_q <= (err_q == '0 && load_ok_i) ? StDone : StFailed;
        end
        default: ;
      endcase
    end
  end

  for (genvar s = 0; s < NumSlots; s++) begin : gen_decouple
    assign decouple_o[s] = busy && (32'(slot_q) == s);
  end
  assign load_o       = (state_q == StLoad);
  assign load_blank_o = (err_q != '0);
  assign load_slot_o  = slot_q;
  assign irq_o        = irq_en_q && ((state_q == StDone) || (state_q == StFailed));
  assign busy_o       = busy;
  assign still_o      = !busy && fifo_still && !we && !req_gnt_i && !rd_push_i;

`ifndef SYNTHESIS
  if (FifoDepth < 2 * BurstBeats) begin : gen_depth_check
    $error("weft_fri: FifoDepth must hold two bursts");
  end
  // A burst is issued only for the FRI's own request, and only while reading.
  GrantOnlyWhenRequested_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      req_gnt_i |-> req_valid_o);
  // One slot at a time.
  DecoupleOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      $onehot0(decouple_o));
  StillMeansStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({state_q, addr_q, size_q, rate_q, slot_q, err_q, irq_en_q, cycles_q,
                           bytes_q}));
`endif

endmodule

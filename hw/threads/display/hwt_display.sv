// hwt_display: the display hardware thread of the image pipeline case study (ReconOS
// Fig. 11/12, Table VIII, in Weft's own design): converts the filter's greyscale frames
// into an XRGB8888 framebuffer, block by block, synchronised by semaphores.
//
// Configuration: the init data (GET_INIT_DATA) is the bus address of a block of 12
// 32-bit words in shared memory, which the thread burst-reads first:
//   word 0  magic 0x4449534C ("DISL")
//   word 1  OUT bus address: grey buffer k at OUT + k*width*height
//   word 2  framebuffer bus address (width*height 32-bit words)
//   word 3  width in pixels: a multiple of 4, 4..MaxWidth
//   word 4  height in lines: 1..MaxHeight, a multiple of B
//   word 5  B, lines per block: 1..height
//   word 6  nbuf: 1 or 2 grey buffers
//   word 7  frames to show: at least 1
//   word 8  handle of OUT.new[0][0]; OUT.new[k][b] is this + k*NB + b (NB = height/B)
//   word 9  handle of OUT.ready[0][0], same layout
//   word 10 handle of fb_free (the framebuffer may be overwritten)
//   word 11 handle of frame_shown
// Every handle must fit 16 bits (for the block handles: base + nbuf*NB - 1 <= 65535),
// the three addresses must be 4-byte aligned and neither the grey buffers nor the
// framebuffer may run past the end of the 32-bit bus address space.
//
// Loop, per frame f with k = f % nbuf:
//   1. SEM_WAIT fb_free.
//   2. For each block b: SEM_WAIT OUT.new[k][b]; convert lines b*B .. b*B+B-1 of grey
//      buffer k into the framebuffer (pixel p becomes the word 0x00pppppp, line y at
//      framebuffer + 4*width*y); SEM_POST OUT.ready[k][b].
//   3. SEM_POST frame_shown.
// After `frames` frames: THREAD_EXIT with the number of frames.
// A bad configuration (wrong magic, a field out of range, a handle past 65535, an address
// not word aligned or a buffer past 2^32, the configuration address itself not word
// aligned or its block running past 2^32) ends the thread with ExitBadConfig (0xFFFFFFFF) before any OS call other than
// GET_INIT_DATA and before any memory access beyond the configuration block. An OS call
// that answers with a non-zero status (or a malformed response) ends the thread with
// ExitOsError (0xFFFFFFFE).
//
// Data path: a block's grey bytes and its framebuffer words are each contiguous, so a
// block is moved in chunks of up to RamWords grey words: one MEMIF burst reads the chunk
// into the local RAM, one burst writes its 4*RamWords XRGB words to the framebuffer. The
// write burst reads a "virtual" RAM four times the size of the real one: word a is byte
// a%4 of grey word a/4, replicated into bits 23:16, 15:8 and 7:0, so no expanded copy is
// ever stored. Both bursts move one word per cycle when the static region keeps up, 4
// bytes per cycle each way: a 320x240 frame is 19,200 words in and 76,800 words out,
// about 96,000 fabric cycles plus a few cycles per chunk and per OS call.
//
// The configuration is checked in one pass over the lines (at most MaxHeight cycles,
// adders only): it counts the blocks and the byte sizes of a block and of a frame, so
// the thread needs no multiplier or divider.
//
// All OS interaction goes through one weft_osif_call: every state below that makes a
// call holds the request until the call's done pulse, then moves on.
module hwt_display #(
  /// Widest frame accepted, in pixels.
  parameter int unsigned MaxWidth = 320,
  /// Tallest frame accepted, in lines (bounds the configuration check's line count).
  parameter int unsigned MaxHeight = 4096,
  /// Local RAM in 32-bit words (a power of two): grey words per chunk.
  parameter int unsigned RamWords = 512
) (
  `include "weft_slot_ports.svh"
);

  /// Word address width of the local RAM.
  localparam int unsigned AddrWidth = $clog2(RamWords);
  /// Width of a pixel count up to MaxWidth.
  localparam int unsigned WidthW = $clog2(MaxWidth + 1);
  /// Width of a line count up to MaxHeight.
  localparam int unsigned LineW = $clog2(MaxHeight + 1);
  /// Width of a grey byte count up to one whole frame.
  localparam int unsigned ByteW = $clog2(MaxWidth * MaxHeight + 1);
  /// Grey bytes per chunk, and the width of a chunk's byte count.
  localparam int unsigned ChunkBytes = RamWords * 4;
  localparam int unsigned ChunkW = $clog2(ChunkBytes + 1);
  /// Words of the configuration block.
  localparam int unsigned CfgWords = 12;
  /// Magic number of the configuration block ("DISL").
  localparam logic [31:0] Magic = 32'h4449_534C;
  /// Exit value: a bad configuration.
  localparam logic [31:0] ExitBadConfig = 32'hFFFF_FFFF;
  /// Exit value: an OS call failed.
  localparam logic [31:0] ExitOsError = 32'hFFFF_FFFE;

  typedef enum logic [3:0] {
    StInit,       // GET_INIT_DATA: the configuration address
    StCfgRead,    // burst the configuration block into the RAM
    StCfgLoad,    // read it out of the RAM into the fields, checking each
    StCfgCount,   // one cycle per line: blocks, block and frame sizes
    StCfgCheck,   // whole-configuration checks: block split, handles, address ranges
    StFbWait,     // SEM_WAIT fb_free
    StNewWait,    // SEM_WAIT OUT.new[k][b]
    StChunk,      // size the next chunk of the block
    StRead,       // burst grey words -> RAM
    StWrite,      // burst XRGB words -> framebuffer
    StReadyPost,  // SEM_POST OUT.ready[k][b]
    StShownPost,  // SEM_POST frame_shown
    StExit        // THREAD_EXIT (never completes)
  } state_e;

  state_e state_d, state_q;
  logic [31:0] exit_val_d, exit_val_q;
  logic [3:0] idx_d, idx_q;  // configuration word being loaded (+1)
  logic bad_d, bad_q;        // a configuration field failed its check

  // Configuration fields (narrowed once checked).
  logic [31:0] out_base_d, out_base_q, fb_base_d, fb_base_q;
  logic [WidthW-1:0] width_d, width_q;
  logic [LineW-1:0] height_d, height_q, blines_d, blines_q;
  logic two_d, two_q;  // nbuf == 2
  logic [31:0] frames_d, frames_q;
  logic [15:0] new_h_d, new_h_q, ready_h_d, ready_h_q, free_h_d, free_h_q;
  logic [15:0] shown_h_d, shown_h_q;

  // Derived by the line count.
  logic [LineW-1:0] lines_d, lines_q, inblk_d, inblk_q, nb_d, nb_q;
  logic [ByteW-1:0] frame_bytes_d, frame_bytes_q, blk_bytes_d, blk_bytes_q;

  // Progress.
  logic k_d, k_q;                 // grey buffer of the current frame
  logic [LineW:0] j_d, j_q;       // block index k*NB + b
  logic [LineW-1:0] b_d, b_q;     // block within the frame
  logic [31:0] shown_d, shown_q;  // frames shown
  logic [31:0] out_ptr_d, out_ptr_q;  // also the configuration address, before the run
  logic [31:0] fb_ptr_d, fb_ptr_q;
  logic [ByteW-1:0] blk_rem_d, blk_rem_q;  // grey bytes of the block still to move
  logic [ChunkW-1:0] chunk_d, chunk_q;     // grey bytes of the current chunk

  // ---- OS call client -------------------------------------------------------------
  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [31:0] call_args, call_result;  // the exit value; the configuration address

  weft_osif_call #(.MaxArgs(1), .MaxResults(1)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_result), .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  // ---- memory bursts, local RAM and the expanding read port ------------------------
  // The burst sees a RAM of 4*RamWords words: grey words for reads (low addresses
  // only), XRGB words for writes.
  weft_hwt_pkg::burst_req_t burst;
  weft_hwt_pkg::burst_rsp_t burst_rsp;
  logic [AddrWidth+1:0] burst_ram_addr;
  logic burst_ram_we;
  logic [31:0] burst_ram_wdata, burst_ram_rdata;

  logic ram_we;
  logic [AddrWidth-1:0] ram_waddr, ram_raddr;
  logic [31:0] ram_wdata, ram_rdata;
  logic [1:0] sel_q;  // byte of ram_rdata the write burst asked for
  logic [7:0] pix;

  weft_memif_burst #(.RamAddrWidth(AddrWidth + 2)) u_burst (
    .clk_i, .rst_ni, .req_i(burst), .ram_addr_i('0), .rsp_o(burst_rsp),
    .ram_addr_o(burst_ram_addr), .ram_we_o(burst_ram_we), .ram_wdata_o(burst_ram_wdata),
    .ram_rdata_i(burst_ram_rdata), .mem_i(slot_i.mem), .mem_o(slot_o.mem));

  // Reads: the burst writes grey words at its (low) addresses. Writes: virtual word a
  // is byte a%4 of RAM word a/4; the byte select is registered alongside the RAM's read
  // register, so the virtual RAM has the real one's one-cycle latency.
  assign ram_we = burst_ram_we;
  assign ram_waddr = burst_ram_addr[AddrWidth-1:0];
  assign ram_wdata = burst_ram_wdata;
  // StCfgLoad reads the configuration words out of the RAM itself.
  assign ram_raddr = (state_q == StCfgLoad) ? AddrWidth'(idx_q) : burst_ram_addr[AddrWidth+1:2];
  assign pix = ram_rdata[8*sel_q +: 8];
  assign burst_ram_rdata = {8'h00, pix, pix, pix};

  always_ff @(posedge clk_i) begin
    sel_q <= burst_ram_addr[1:0];
  end

  weft_ram #(
    .Words(RamWords)
  ) u_ram (
    .clk_i,
    .we_i   (ram_we),
    .waddr_i(ram_waddr),
    .wdata_i(ram_wdata),
    .raddr_i(ram_raddr),
    .rdata_o(ram_rdata)
  );

  // ---- whole-configuration checks (StCfgCheck) ------------------------------------
  logic [LineW:0] nb_total;  // nbuf * NB
  logic [16:0] new_end, ready_end;
  logic [32:0] out_end, fb_end;
  logic cfg_ok;

  assign nb_total = two_q ? {nb_q, 1'b0} : {1'b0, nb_q};
  assign new_end = 17'(new_h_q) + 17'(nb_total);
  assign ready_end = 17'(ready_h_q) + 17'(nb_total);
  assign out_end = {1'b0, out_base_q} +
                   (two_q ? 33'({frame_bytes_q, 1'b0}) : 33'(frame_bytes_q));
  assign fb_end = {1'b0, fb_base_q} + 33'({frame_bytes_q, 2'b00});
  assign cfg_ok = (inblk_q == '0) && (new_end <= 17'h1_0000) &&
                  (ready_end <= 17'h1_0000) && (out_end <= 33'h1_0000_0000) &&
                  (fb_end <= 33'h1_0000_0000);

  // ---- the thread's state machine -------------------------------------------------
  logic [31:0] w;  // configuration word arriving from the RAM

  assign w = ram_rdata;

  always_comb begin
    state_d = state_q;
    exit_val_d = exit_val_q;
    idx_d = idx_q;
    bad_d = bad_q;
    out_base_d = out_base_q;
    fb_base_d = fb_base_q;
    width_d = width_q;
    height_d = height_q;
    blines_d = blines_q;
    two_d = two_q;
    frames_d = frames_q;
    new_h_d = new_h_q;
    ready_h_d = ready_h_q;
    free_h_d = free_h_q;
    shown_h_d = shown_h_q;
    lines_d = lines_q;
    inblk_d = inblk_q;
    nb_d = nb_q;
    frame_bytes_d = frame_bytes_q;
    blk_bytes_d = blk_bytes_q;
    k_d = k_q;
    j_d = j_q;
    b_d = b_q;
    shown_d = shown_q;
    out_ptr_d = out_ptr_q;
    fb_ptr_d = fb_ptr_q;
    blk_rem_d = blk_rem_q;
    chunk_d = chunk_q;

    call = '0;
    call.nresults = 16'd1;
    call_args = '0;
    // Grey words in from out_ptr_q (the configuration block first), XRGB words out to
    // fb_ptr_q.
    burst = '0;
    burst.write = (state_q == StWrite);
    burst.addr = out_ptr_q;
    burst.len = 24'(chunk_q);

    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
        if (call_rsp.done) begin
          out_ptr_d = call_result;
          if (!call_rsp.ok) begin
            exit_val_d = ExitOsError;
            state_d = StExit;
          end else if (call_result[1:0] != 2'b00 ||
                       call_result > 32'hFFFF_FFFF - 32'(CfgWords * 4) + 32'd1) begin
            // Unaligned, or the block would run past 2^32: not read at all.
            exit_val_d = ExitBadConfig;
            state_d = StExit;
          end else begin
            state_d = StCfgRead;
          end
        end
      end

      StCfgRead: begin
        burst.valid = 1'b1;
        burst.len = 24'(CfgWords * 4);
        if (burst_rsp.done) begin
          idx_d = '0;
          bad_d = 1'b0;
          state_d = StCfgLoad;
        end
      end

      StCfgLoad: begin
        // ram_raddr is idx_q; w is the word asked for in the previous cycle.
        idx_d = idx_q + 1'b1;
        unique case (idx_q)
          4'd1: bad_d = bad_q | (w != Magic);
          4'd2: begin
            out_base_d = w;
            bad_d = bad_q | (w[1:0] != 2'b00);
          end
          4'd3: begin
            fb_base_d = w;
            bad_d = bad_q | (w[1:0] != 2'b00);
          end
          4'd4: begin
            width_d = w[WidthW-1:0];
            bad_d = bad_q | (w == '0) | (w[1:0] != 2'b00) | (w > 32'(MaxWidth));
          end
          4'd5: begin
            height_d = w[LineW-1:0];
            bad_d = bad_q | (w == '0) | (w > 32'(MaxHeight));
          end
          4'd6: begin
            blines_d = w[LineW-1:0];
            bad_d = bad_q | (w == '0) | (w > 32'(MaxHeight));
          end
          4'd7: begin
            two_d = w[1];
            bad_d = bad_q | ((w != 32'd1) && (w != 32'd2));
          end
          4'd8: begin
            frames_d = w;
            bad_d = bad_q | (w == '0);
          end
          4'd9: begin
            new_h_d = w[15:0];
            bad_d = bad_q | (w[31:16] != '0);
          end
          4'd10: begin
            ready_h_d = w[15:0];
            bad_d = bad_q | (w[31:16] != '0);
          end
          4'd11: begin
            free_h_d = w[15:0];
            bad_d = bad_q | (w[31:16] != '0);
          end
          4'd12: begin
            shown_h_d = w[15:0];
            bad_d = bad_q | (w[31:16] != '0);
          end
          default: ;
        endcase
        if (idx_q == 4'(CfgWords)) begin
          lines_d = '0;
          inblk_d = '0;
          nb_d = '0;
          frame_bytes_d = '0;
          blk_bytes_d = '0;
          state_d = StCfgCount;
        end
      end

      StCfgCount: begin
        if (bad_q || blines_q > height_q) begin
          exit_val_d = ExitBadConfig;
          state_d = StExit;
        end else begin
          frame_bytes_d = frame_bytes_q + ByteW'(width_q);
          if (nb_q == '0) begin
            blk_bytes_d = blk_bytes_q + ByteW'(width_q);
          end
          if (inblk_q + 1'b1 == blines_q) begin
            inblk_d = '0;
            nb_d = nb_q + 1'b1;
          end else begin
            inblk_d = inblk_q + 1'b1;
          end
          lines_d = lines_q + 1'b1;
          if (lines_q + 1'b1 == height_q) begin
            state_d = StCfgCheck;
          end
        end
      end

      StCfgCheck: begin
        k_d = 1'b0;
        j_d = '0;
        b_d = '0;
        shown_d = '0;
        out_ptr_d = out_base_q;
        if (cfg_ok) begin
          state_d = StFbWait;
        end else begin
          exit_val_d = ExitBadConfig;
          state_d = StExit;
        end
      end

      StFbWait: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemWait;
        call.handle = free_h_q;
        if (call_rsp.done) begin
          fb_ptr_d = fb_base_q;
          exit_val_d = ExitOsError;
          state_d = call_rsp.ok ? StNewWait : StExit;
        end
      end

      StNewWait: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemWait;
        call.handle = new_h_q + 16'(j_q);
        if (call_rsp.done) begin
          blk_rem_d = blk_bytes_q;
          exit_val_d = ExitOsError;
          state_d = call_rsp.ok ? StChunk : StExit;
        end
      end

      StChunk: begin
        chunk_d = (blk_rem_q > ByteW'(ChunkBytes)) ? ChunkW'(ChunkBytes)
                                                    : ChunkW'(blk_rem_q);
        state_d = StRead;
      end

      StRead: begin
        burst.valid = 1'b1;
        if (burst_rsp.done) begin
          out_ptr_d = out_ptr_q + 32'(chunk_q);
          state_d = StWrite;
        end
      end

      StWrite: begin
        burst.valid = 1'b1;
        burst.addr = fb_ptr_q;
        burst.len = 24'({chunk_q, 2'b00});
        if (burst_rsp.done) begin
          fb_ptr_d = fb_ptr_q + 32'({chunk_q, 2'b00});
          blk_rem_d = blk_rem_q - ByteW'(chunk_q);
          state_d = (blk_rem_q == ByteW'(chunk_q)) ? StReadyPost : StChunk;
        end
      end

      StReadyPost: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemPost;
        call.handle = ready_h_q + 16'(j_q);
        if (call_rsp.done) begin
          j_d = j_q + 1'b1;
          if (b_q + 1'b1 == nb_q) begin
            b_d = '0;
            state_d = StShownPost;
          end else begin
            b_d = b_q + 1'b1;
            state_d = StNewWait;
          end
          if (!call_rsp.ok) begin
            exit_val_d = ExitOsError;
            state_d = StExit;
          end
        end
      end

      StShownPost: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemPost;
        call.handle = shown_h_q;
        if (call_rsp.done) begin
          shown_d = shown_q + 32'd1;
          // After the last grey buffer, back to buffer 0 and block handle 0.
          if (k_q == two_q) begin
            k_d = 1'b0;
            j_d = '0;
            out_ptr_d = out_base_q;
          end else begin
            k_d = 1'b1;
          end
          if (!call_rsp.ok) begin
            exit_val_d = ExitOsError;
            state_d = StExit;
          end else if (shown_q + 32'd1 == frames_q) begin
            exit_val_d = frames_q;
            state_d = StExit;
          end else begin
            state_d = StFbWait;
          end
        end
      end

      StExit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
        call_args = exit_val_q;
      end

      default: state_d = StExit;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StInit;
      exit_val_q <= '0;
      idx_q <= '0;
      bad_q <= 1'b0;
      out_base_q <= '0;
      fb_base_q <= '0;
      width_q <= '0;
      height_q <= '0;
      blines_q <= '0;
      two_q <= 1'b0;
      frames_q <= '0;
      new_h_q <= '0;
      ready_h_q <= '0;
      free_h_q <= '0;
      shown_h_q <= '0;
      lines_q <= '0;
      inblk_q <= '0;
      nb_q <= '0;
      frame_bytes_q <= '0;
      blk_bytes_q <= '0;
      k_q <= 1'b0;
      j_q <= '0;
      b_q <= '0;
      shown_q <= '0;
      out_ptr_q <= '0;
      fb_ptr_q <= '0;
      blk_rem_q <= '0;
      chunk_q <= '0;
    end else begin
      state_q <= state_d;
      exit_val_q <= exit_val_d;
      idx_q <= idx_d;
      bad_q <= bad_d;
      out_base_q <= out_base_d;
      fb_base_q <= fb_base_d;
      width_q <= width_d;
      height_q <= height_d;
      blines_q <= blines_d;
      two_q <= two_d;
      frames_q <= frames_d;
      new_h_q <= new_h_d;
      ready_h_q <= ready_h_d;
      free_h_q <= free_h_d;
      shown_h_q <= shown_h_d;
      lines_q <= lines_d;
      inblk_q <= inblk_d;
      nb_q <= nb_d;
      frame_bytes_q <= frame_bytes_d;
      blk_bytes_q <= blk_bytes_d;
      k_q <= k_d;
      j_q <= j_d;
      b_q <= b_d;
      shown_q <= shown_d;
      out_ptr_q <= out_ptr_d;
      fb_ptr_q <= fb_ptr_d;
      blk_rem_q <= blk_rem_d;
      chunk_q <= chunk_d;
    end
  end

  if (RamWords < 16 || (1 << AddrWidth) != RamWords || RamWords > (1 << 20))
  begin : gen_check_ram_words
    $error("hwt_display: RamWords must be a power of two, 16..2^20");
  end
  if (MaxWidth < 4 || MaxWidth % 4 != 0 || MaxHeight < 1 || MaxWidth * MaxHeight >= (1 << 30))
  begin : gen_check_max_frame
    $error("hwt_display: MaxWidth must be a multiple of 4, MaxWidth*MaxHeight below 2^30");
  end

  `include "weft_no_regs.svh"

endmodule

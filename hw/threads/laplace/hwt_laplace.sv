// hwt_laplace: the Laplacian filter hardware thread of the image pipeline case study
// (ReconOS Fig. 11/12, Table VIII, in Weft's own design; docs of the pipeline:
// capture -> filter -> display, 8-bit greyscale frames in shared memory).
//
// Resources, from the init data (GET_INIT_DATA): the bus address of a configuration
// block of 13 words in shared memory, burst-read first:
//   word 0  magic 0x4C41504C ("LAPL")
//   word 1  IN bus address (frame buffer k at IN + k*width*height)
//   word 2  OUT bus address (frame buffer k at OUT + k*width*height)
//   word 3  width in pixels: a multiple of 4, 8 <= width <= MaxWidth
//   word 4  height in lines: w <= height <= 65535, a multiple of B
//   word 5  B, lines per block: r <= B <= height (r = w/2); NB = height/B blocks
//   word 6  w, the kernel width: 3 or 5
//   word 7  nbuf, frame buffers per stage: 1 or 2
//   word 8  frames to filter (>= 1)
//   word 9  handle of IN.new[0][0]; IN.new[k][b] is this + k*NB + b
//   word 10 handle of IN.ready[0][0]   word 11 OUT.new[0][0]   word 12 OUT.ready[0][0]
// Checked before any other memory access: the magic; IN and OUT word aligned and each
// stage's nbuf buffers below 2^32; every field in its range; height a multiple of B
// (found by repeated addition, at most 257 steps, so NB <= 256); for each handle base
// h, h + nbuf*NB - 1 <= 65535 (handles are 16 bits). A configuration address that is not word aligned (or whose
// 52 bytes would wrap past 2^32) is refused before the configuration is read.
//
// Loop, per frame f (buffer k = f % nbuf), the semaphore protocol of the case study:
//   for b in 0 .. NB:
//     if b < NB:  SEM_WAIT IN.new[k][b]
//     if b >= 1:  o = b-1; SEM_WAIT OUT.ready[k][o]; compute and write output lines
//                 o*B .. o*B+B-1 of OUT buffer k; SEM_POST OUT.new[k][o];
//                 if o >= 1: SEM_POST IN.ready[k][o-1]
//   SEM_POST IN.ready[k][NB-1]
// out(x,y) = min(255, |w*w*p(x,y) - sum of the w x w window|) for r <= x < width-r and
// r <= y < height-r, 0 elsewhere. Memory is read only inside IN buffer k (each line
// once per frame) and the configuration block, and written only inside OUT buffer k,
// in blocks whose semaphores the thread holds (the write fence of the static region
// orders each SEM_POST after the lines it announces).
//
// Exit values (THREAD_EXIT): the number of frames when all are done; ExitBadConfig
// (0xFFFFFFFF) for a bad configuration, with no memory touched beyond the configuration
// block; ExitOsError (0xFFFFFFFE) when an OS call answers with a non-zero status (or a
// malformed response).
//
// Data path. Six line buffers (w+1 for w = 5; four of them used for w = 3) form a ring:
// input line L lives in buffer L mod (w+1). While output line y is computed from lines
// y-r .. y+r, line y+r+1 is burst-read into the free buffer, so every input line is
// read from memory once per frame. The compute engine reads the same word index of all
// line buffers each cycle and makes four output pixels (one 32-bit word) per cycle: a
// word of the lines plus the two bytes either side give the column sums of eight
// columns, whose sliding sums are the four window sums (pipeline: RAM read, column sums,
// window sums and saturation into a two-line output buffer). Line bursts to memory
// (output line y-1) and from memory (input line y+r+1) share the one MEMIF and overlap
// the computation; rows within r of the top or bottom need no input and are written as
// zeros.
//
// Cost: memory is the bottleneck. Each line is one read burst and one write burst of
// width/4 words at one word per cycle, plus about five cycles of command, hand-over and
// scheduling per burst, while the compute engine needs width/4 + 4 cycles per line and
// runs in the shadow of the bursts. A 320x240 frame moves 2 x 240 x 80 = 38400 words;
// tests/rtl/tb_thread_laplace.cpp measures 40.7 k fabric cycles per frame for w = 3 and
// for w = 5 (B = 40, nbuf = 1, no back-pressure, semaphores answered at once): about 170
// cycles per line, 1.9 output pixels per cycle, within 6% of the MEMIF bound of one word
// per cycle. The four semaphore calls per block add a few tens of cycles per block.
// In the full system (weft-image with a software display, the runtime answering the
// calls) the thread's busy cycles come to about 45.2 k per frame; the difference from the
// test bench has not been broken down.
//
// All OS interaction goes through one weft_osif_call: every state that makes a call holds
// the request until the call's done pulse, then moves on.
module hwt_laplace #(
  /// Widest frame in pixels (a multiple of 4, 8..16384): sizes the line buffers.
  parameter int unsigned MaxWidth = 320
) (
  `include "weft_slot_ports.svh"
);

  /// Configuration magic, "LAPL".
  localparam logic [31:0] Magic = 32'h4C41_504C;
  /// Exit value: the configuration (or its address) is bad; memory untouched.
  localparam logic [31:0] ExitBadConfig = 32'hFFFF_FFFF;
  /// Exit value: an OS call failed.
  localparam logic [31:0] ExitOsError = 32'hFFFF_FFFE;
  /// Words of the configuration block.
  localparam int unsigned CfgWords = 13;
  /// Words of the widest line.
  localparam int unsigned MaxLineWords = MaxWidth / 4;
  /// Word address width of a line buffer.
  localparam int unsigned LineAw = (MaxLineWords > 1) ? $clog2(MaxLineWords) : 1;
  /// Width of a word index 0 .. MaxLineWords (inclusive).
  localparam int unsigned IdxW = LineAw + 1;
  /// Width of the width field.
  localparam int unsigned WidthW = $clog2(MaxWidth + 1);
  /// Line buffers: w+1 for the widest kernel (w = 5).
  localparam int unsigned Slots = 6;

  typedef enum logic [3:0] {
    StInit,      // GET_INIT_DATA: the configuration address
    StCfg,       // burst-read the configuration block
    StCheck,     // field ranges
    StDiv,       // NB = height / B by repeated addition (exact, at most 256)
    StCheck2,    // handle ranges and buffer ends
    StFrame,     // set up a frame
    StStep,      // step b of the frame
    StWaitIn,    // SEM_WAIT IN.new[k][b]
    StWaitOut,   // SEM_WAIT OUT.ready[k][b-1]
    StWork,      // compute and write output block b-1
    StPostNew,   // SEM_POST OUT.new[k][b-1]
    StPostIn,    // SEM_POST IN.ready[k][b-2]
    StNext,      // next step or end of frame
    StPostLast,  // SEM_POST IN.ready[k][NB-1]
    StExit       // THREAD_EXIT (never completes)
  } state_e;

  state_e state_d, state_q;
  logic [31:0] exit_val_d, exit_val_q;

  // ---- OS call client -------------------------------------------------------------
  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [31:0] call_args;    // THREAD_EXIT's exit value
  logic [31:0] call_result;  // GET_INIT_DATA: the configuration block's address

  weft_osif_call #(.MaxArgs(1), .MaxResults(1)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_result), .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  // ---- memory bursts ---------------------------------------------------------------
  // One burst at a time, from registers: the configuration block, an input line into
  // line buffer mem_slot_q, or an output line from the output buffer half mem_ram_q.
  logic mem_req_d, mem_req_q, mem_dir_d, mem_dir_q;
  logic [31:0] mem_addr_d, mem_addr_q;
  logic [IdxW-1:0] mem_ram_d, mem_ram_q;
  logic [2:0] mem_slot_d, mem_slot_q;
  weft_hwt_pkg::burst_req_t burst;
  weft_hwt_pkg::burst_rsp_t burst_rsp;
  logic [IdxW-1:0] burst_ram_addr;
  logic burst_ram_we;
  logic [31:0] burst_ram_wdata, out_rdata;

  // ---- configuration -------------------------------------------------------------
  logic [3:0] cfg_idx_d, cfg_idx_q;
  logic magic_ok_d, magic_ok_q;
  logic [31:0] in_cfg_d, in_cfg_q, out_cfg_d, out_cfg_q, frames_d, frames_q;
  logic [WidthW-1:0] width_d, width_q;
  logic width_big_d, width_big_q;
  logic [15:0] height_d, height_q, blines_d, blines_q;
  logic height_big_d, height_big_q, blines_big_d, blines_big_q;
  logic w5_d, w5_q, kw_ok_d, kw_ok_q, nbuf2_d, nbuf2_q, nbuf_ok_d, nbuf_ok_q;
  logic [63:0] hbase_d, hbase_q;  // handle bases, word 9 + i in bits [16*i +: 16]
  logic [3:0] hbig_d, hbig_q;     // handle base word i above 65535
  logic [16:0] acc_d, acc_q;      // StDiv: nb_q * B
  logic [8:0] nb_d, nb_q;         // NB once StDiv is done
  logic [31:0] fsize_d, fsize_q;  // bytes per frame buffer

  // ---- frame loop ------------------------------------------------------------------
  logic [31:0] frame_d, frame_q;  // frames done
  logic k_d, k_q;                 // buffer of the frame
  logic [8:0] b_d, b_q;           // step 0 .. NB
  logic [31:0] in_addr_d, in_addr_q;    // address of input line next_line_q
  logic [31:0] out_addr_d, out_addr_q;  // address of output line rows_wr_q
  logic [15:0] in_lines_d, in_lines_q;    // input lines 0 .. in_lines_q-1 may be read
  logic [15:0] out_lines_d, out_lines_q;  // output lines below out_lines_q may be written
  logic [15:0] next_line_d, next_line_q;  // next input line to read
  logic [15:0] rows_wr_d, rows_wr_q;      // next output line to write
  logic [2:0] rd_slot_d, rd_slot_q;       // line buffer of next_line_q

  // ---- compute engine --------------------------------------------------------------
  logic c_busy_d, c_busy_q;
  logic [15:0] c_row_d, c_row_q;     // output line being (or next to be) computed
  logic [2:0] c_slot_d, c_slot_q;    // line buffer of input line c_row_q
  logic [IdxW-1:0] c_k_d, c_k_q;     // next word index to read
  logic c_edge_d, c_edge_q;          // the line is within r of the top or bottom
  logic [14:0] c_sel_d, c_sel_q;     // line buffer of row dy = -2 .. 2 in [3*(dy+2) +: 3]
  logic c_start, c_row_done, frame_start;
  logic s1_v_d, s1_v_q;              // line buffers deliver word s1_idx_q
  logic [IdxW-1:0] s1_idx_d, s1_idx_q;
  logic [79:0] prevhi_d, prevhi_q;   // per row: upper half of word s1_idx_q - 2
  logic [159:0] cur_d, cur_q;        // per row: word s1_idx_q - 1
  logic s2_v_d, s2_v_q;              // column sums of output word s2_idx_q
  logic [IdxW-1:0] s2_idx_d, s2_idx_q;
  logic [87:0] cs_d, cs_q;           // column sums of pixels 4c-2 .. 4c+5, 11 bits each
  logic [31:0] ctr_d, ctr_q;         // centre pixels 4c .. 4c+3

  // ---- derived values --------------------------------------------------------------
  logic [1:0] rad;          // r
  logic [2:0] ksize;        // w
  logic [2:0] ring;         // w + 1 line buffers in the ring
  logic [IdxW-1:0] nwords;  // words per line
  logic [15:0] knb;         // k * NB
  logic [1:0] hidx;         // StCfg: handle base word 9 + hidx arriving
  logic [9:0] nbuf_nb;      // nbuf * NB (<= 512)
  logic [16:0] c_row_r1;    // c_row_q + r + 1
  logic row_edge, lines_in, read_ok, cfg_bad, cfg_addr_bad, handles_bad, bufs_bad;
  logic [WidthW+15:0] frame_bytes;  // width * height

  assign rad = w5_q ? 2'd2 : 2'd1;
  assign ksize = w5_q ? 3'd5 : 3'd3;
  assign ring = w5_q ? 3'd6 : 3'd4;
  assign nwords = IdxW'(width_q >> 2);
  assign frame_bytes = (WidthW + 16)'(width_q) * (WidthW + 16)'(height_q);
  assign knb = k_q ? 16'(nb_q) : 16'd0;
  logic [15:0] h_in_new, h_in_ready, h_out_new, h_out_ready;  // words 9 .. 12
  assign {h_out_ready, h_out_new, h_in_ready, h_in_new} = hbase_q;
  assign hidx = 2'(cfg_idx_q - 4'd9);
  assign nbuf_nb = nbuf2_q ? {nb_q, 1'b0} : {1'b0, nb_q};
  assign c_row_r1 = {1'b0, c_row_q} + 17'(rad) + 17'd1;
  // Output line c_row_q is zero (needs no input) when within r of the top or bottom.
  assign row_edge = (c_row_q < 16'(rad)) || ({1'b0, c_row_q} + 17'(rad) >= {1'b0, height_q});
  // Input lines up to c_row_q + r are in the line buffers.
  assign lines_in = {1'b0, next_line_q} >= c_row_r1;
  // Input line next_line_q may be read: its block was announced, and its buffer (that of
  // line next_line_q - w - 1) is no longer used by output line c_row_q or later.
  assign read_ok = (next_line_q < in_lines_q) && ({1'b0, next_line_q} <= c_row_r1);

  assign cfg_addr_bad = (call_result[1:0] != 2'b00) || (call_result > 32'hFFFF_FFCC);
  assign cfg_bad = !magic_ok_q || (in_cfg_q[1:0] != 2'b00) || (out_cfg_q[1:0] != 2'b00) ||
                   width_big_q || (width_q[1:0] != 2'b00) || (width_q < WidthW'(8)) ||
                   height_big_q || !kw_ok_q || !nbuf_ok_q || (frames_q == '0) ||
                   blines_big_q || (blines_q < 16'(rad)) || (blines_q > height_q) ||
                   (height_q < 16'(ksize)) || (hbig_q != '0);
  always_comb begin
    handles_bad = 1'b0;
    for (int i = 0; i < 4; i++) begin
      if (17'(hbase_q[16*i +: 16]) + 17'(nbuf_nb) > 17'h1_0000) begin
        handles_bad = 1'b1;
      end
    end
  end
  assign bufs_bad =
      ({1'b0, in_cfg_q} + (nbuf2_q ? {fsize_q, 1'b0} : {1'b0, fsize_q}) > 33'h1_0000_0000) ||
      ({1'b0, out_cfg_q} + (nbuf2_q ? {fsize_q, 1'b0} : {1'b0, fsize_q}) > 33'h1_0000_0000);

  // ---- line buffers and output buffer ----------------------------------------------
  logic [Slots*32-1:0] line_rdata;
  logic line_we;

  assign line_we = burst_ram_we && (state_q == StWork);

  for (genvar s = 0; s < Slots; s++) begin : gen_line
    weft_ram #(
      .Words(1 << LineAw)
    ) u_line (
      .clk_i,
      .we_i   (line_we && (mem_slot_q == 3'(s))),
      .waddr_i(burst_ram_addr[LineAw-1:0]),
      .wdata_i(burst_ram_wdata),
      .raddr_i(c_k_q[LineAw-1:0]),
      .rdata_o(line_rdata[32*s +: 32])
    );
  end

  // Output buffer: two lines, line y in half y[0]; the compute engine writes one half
  // while the write burst reads the other.
  logic out_we;
  logic [IdxW-1:0] out_waddr;
  logic [31:0] out_wdata;

  weft_ram #(
    .Words(2 << LineAw)
  ) u_out (
    .clk_i,
    .we_i   (out_we),
    .waddr_i(out_waddr),
    .wdata_i(out_wdata),
    .raddr_i(burst_ram_addr),
    .rdata_o(out_rdata)
  );

  weft_memif_burst #(.RamAddrWidth(IdxW)) u_burst (
    .clk_i, .rst_ni, .req_i(burst), .ram_addr_i(mem_ram_q), .rsp_o(burst_rsp),
    .ram_addr_o(burst_ram_addr), .ram_we_o(burst_ram_we), .ram_wdata_o(burst_ram_wdata),
    .ram_rdata_i(out_rdata), .mem_i(slot_i.mem), .mem_o(slot_o.mem));

  // The burst's request, from the scheduler's registers; a line is width bytes.
  always_comb begin
    burst.valid = mem_req_q;
    burst.write = mem_dir_q;
    burst.addr = mem_addr_q;
    burst.len = (state_q == StCfg) ? 24'(4 * CfgWords) : 24'(width_q);
  end

  // ---- the thread's state machine and the burst scheduler --------------------------
  always_comb begin
    state_d = state_q;
    exit_val_d = exit_val_q;
    mem_req_d = mem_req_q;
    mem_dir_d = mem_dir_q;
    mem_addr_d = mem_addr_q;
    mem_ram_d = mem_ram_q;
    mem_slot_d = mem_slot_q;
    cfg_idx_d = cfg_idx_q;
    magic_ok_d = magic_ok_q;
    in_cfg_d = in_cfg_q;
    out_cfg_d = out_cfg_q;
    frames_d = frames_q;
    width_d = width_q;
    width_big_d = width_big_q;
    height_d = height_q;
    height_big_d = height_big_q;
    blines_d = blines_q;
    blines_big_d = blines_big_q;
    w5_d = w5_q;
    kw_ok_d = kw_ok_q;
    nbuf2_d = nbuf2_q;
    nbuf_ok_d = nbuf_ok_q;
    hbase_d = hbase_q;
    hbig_d = hbig_q;
    acc_d = acc_q;
    nb_d = nb_q;
    fsize_d = fsize_q;
    frame_d = frame_q;
    k_d = k_q;
    b_d = b_q;
    in_addr_d = in_addr_q;
    out_addr_d = out_addr_q;
    in_lines_d = in_lines_q;
    out_lines_d = out_lines_q;
    next_line_d = next_line_q;
    rows_wr_d = rows_wr_q;
    rd_slot_d = rd_slot_q;

    call = '0;
    call.nresults = 16'd1;
    call_args = '0;
    c_start = 1'b0;
    frame_start = 1'b0;

    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
        if (call_rsp.done) begin
          mem_addr_d = call_result;
          mem_dir_d = 1'b0;
          cfg_idx_d = '0;
          if (!call_rsp.ok) begin
            exit_val_d = ExitOsError;
            state_d = StExit;
          end else if (cfg_addr_bad) begin
            exit_val_d = ExitBadConfig;
            state_d = StExit;
          end else begin
            mem_req_d = 1'b1;
            state_d = StCfg;
          end
        end
      end

      StCfg: begin
        // Each word is kept in the width the thread needs, with a flag when it is wider.
        if (burst_ram_we) begin
          cfg_idx_d = cfg_idx_q + 4'd1;
          unique case (cfg_idx_q)
            4'd0: magic_ok_d = (burst_ram_wdata == Magic);
            4'd1: in_cfg_d = burst_ram_wdata;
            4'd2: out_cfg_d = burst_ram_wdata;
            4'd3: begin
              width_d = WidthW'(burst_ram_wdata);
              width_big_d = burst_ram_wdata > 32'(MaxWidth);
            end
            4'd4: begin
              height_d = burst_ram_wdata[15:0];
              height_big_d = burst_ram_wdata[31:16] != '0;
            end
            4'd5: begin
              blines_d = burst_ram_wdata[15:0];
              blines_big_d = burst_ram_wdata[31:16] != '0;
            end
            4'd6: begin
              w5_d = burst_ram_wdata == 32'd5;
              kw_ok_d = (burst_ram_wdata == 32'd3) || (burst_ram_wdata == 32'd5);
            end
            4'd7: begin
              nbuf2_d = burst_ram_wdata == 32'd2;
              nbuf_ok_d = (burst_ram_wdata == 32'd1) || (burst_ram_wdata == 32'd2);
            end
            4'd8: frames_d = burst_ram_wdata;
            4'd9, 4'd10, 4'd11, 4'd12: begin
              hbase_d[16*hidx +: 16] = burst_ram_wdata[15:0];
              hbig_d[hidx] = burst_ram_wdata[31:16] != '0;
            end
            default: ;
          endcase
        end
        if (burst_rsp.done) begin
          mem_req_d = 1'b0;
          state_d = StCheck;
        end
      end

      StCheck: begin
        acc_d = '0;
        nb_d = '0;
        fsize_d = 32'(frame_bytes);
        if (cfg_bad) begin
          exit_val_d = ExitBadConfig;
          state_d = StExit;
        end else begin
          state_d = StDiv;
        end
      end

      StDiv: begin
        if (acc_q == {1'b0, height_q}) begin
          state_d = StCheck2;
        end else if (acc_q > {1'b0, height_q} || nb_q == 9'd256) begin
          exit_val_d = ExitBadConfig;
          state_d = StExit;
        end else begin
          acc_d = acc_q + {1'b0, blines_q};
          nb_d = nb_q + 9'd1;
        end
      end

      StCheck2: begin
        frame_d = '0;
        k_d = 1'b0;
        if (handles_bad || bufs_bad) begin
          exit_val_d = ExitBadConfig;
          state_d = StExit;
        end else begin
          state_d = StFrame;
        end
      end

      StFrame: begin
        frame_start = 1'b1;
        b_d = '0;
        in_addr_d = in_cfg_q + (k_q ? fsize_q : 32'd0);
        out_addr_d = out_cfg_q + (k_q ? fsize_q : 32'd0);
        in_lines_d = '0;
        out_lines_d = '0;
        next_line_d = '0;
        rows_wr_d = '0;
        rd_slot_d = '0;
        state_d = StStep;
      end

      StStep: begin
        state_d = ({1'b0, b_q} < {1'b0, nb_q}) ? StWaitIn : StWaitOut;
      end

      StWaitIn: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemWait;
        call.handle = h_in_new + knb + 16'(b_q);
        if (call_rsp.done) begin
          in_lines_d = in_lines_q + blines_q;
          if (!call_rsp.ok) begin
            exit_val_d = ExitOsError;
            state_d = StExit;
          end else if (b_q == '0) begin
            b_d = 9'd1;
            state_d = StStep;
          end else begin
            state_d = StWaitOut;
          end
        end
      end

      StWaitOut: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemWait;
        call.handle = h_out_ready + knb + {7'd0, b_q - 9'd1};
        if (call_rsp.done) begin
          out_lines_d = out_lines_q + blines_q;
          if (!call_rsp.ok) begin
            exit_val_d = ExitOsError;
            state_d = StExit;
          end else begin
            state_d = StWork;
          end
        end
      end

      StWork: begin
        // Output lines below out_lines_q: writes first, then reads; one burst at a time.
        if (!mem_req_q) begin
          if (rows_wr_q == out_lines_q) begin
            state_d = StPostNew;
          end else if (rows_wr_q < c_row_q) begin
            mem_req_d = 1'b1;
            mem_dir_d = 1'b1;
            mem_addr_d = out_addr_q;
            mem_ram_d = {rows_wr_q[0], {LineAw{1'b0}}};
          end else if (read_ok) begin
            mem_req_d = 1'b1;
            mem_dir_d = 1'b0;
            mem_addr_d = in_addr_q;
            mem_ram_d = '0;
            mem_slot_d = rd_slot_q;
          end
        end else if (burst_rsp.done) begin
          mem_req_d = 1'b0;
          if (mem_dir_q) begin
            rows_wr_d = rows_wr_q + 16'd1;
            out_addr_d = out_addr_q + 32'(width_q);
          end else begin
            next_line_d = next_line_q + 16'd1;
            in_addr_d = in_addr_q + 32'(width_q);
            rd_slot_d = (rd_slot_q + 3'd1 == ring) ? 3'd0 : rd_slot_q + 3'd1;
          end
        end
        // Start the next output line once its input lines are in and its output half
        // has been written out.
        c_start = !c_busy_q && (c_row_q < out_lines_q) && (row_edge || lines_in) &&
                  ({1'b0, c_row_q} <= {1'b0, rows_wr_q} + 17'd1);
      end

      StPostNew: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemPost;
        call.handle = h_out_new + knb + {7'd0, b_q - 9'd1};
        if (call_rsp.done) begin
          if (!call_rsp.ok) begin
            exit_val_d = ExitOsError;
            state_d = StExit;
          end else begin
            state_d = (b_q >= 9'd2) ? StPostIn : StNext;
          end
        end
      end

      StPostIn: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemPost;
        call.handle = h_in_ready + knb + {7'd0, b_q - 9'd2};
        if (call_rsp.done) begin
          if (!call_rsp.ok) begin
            exit_val_d = ExitOsError;
            state_d = StExit;
          end else begin
            state_d = StNext;
          end
        end
      end

      StNext: begin
        if (b_q == nb_q) begin
          state_d = StPostLast;
        end else begin
          b_d = b_q + 9'd1;
          state_d = StStep;
        end
      end

      StPostLast: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemPost;
        call.handle = h_in_ready + knb + {7'd0, nb_q - 9'd1};
        if (call_rsp.done) begin
          frame_d = frame_q + 32'd1;
          k_d = nbuf2_q && !k_q;
          if (!call_rsp.ok) begin
            exit_val_d = ExitOsError;
            state_d = StExit;
          end else if (frame_q + 32'd1 == frames_q) begin
            exit_val_d = frames_q;
            state_d = StExit;
          end else begin
            state_d = StFrame;
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

  // ---- compute engine: four output pixels per cycle --------------------------------
  // The line buffer of row dy of output line c_row_q: (c_slot_q + dy) mod (w+1).
  function automatic logic [2:0] ring_slot(input logic [2:0] slot, input logic [2:0] dy_plus2,
                                           input logic [2:0] ring_size);
    logic [3:0] s;
    s = 4'(slot) + 4'(ring_size) + 4'(dy_plus2) - 4'd2;
    if (s >= {ring_size, 1'b0}) begin
      s = s - {ring_size, 1'b0};
    end else if (s >= 4'(ring_size)) begin
      s = s - 4'(ring_size);
    end
    ring_slot = s[2:0];
  endfunction

  logic [159:0] row_data;  // word s1_idx_q of row dy in [32*(dy+2) +: 32] (0 if unused)
  logic [63:0] span;

  always_comb begin
    for (int d = 0; d < 5; d++) begin
      row_data[32*d +: 32] = '0;
      for (int s = 0; s < Slots; s++) begin
        if (c_sel_q[3*d +: 3] == 3'(s)) begin
          row_data[32*d +: 32] = line_rdata[32*s +: 32];
        end
      end
      if (!w5_q && (d == 0 || d == 4)) begin
        row_data[32*d +: 32] = '0;
      end
    end
  end

  always_comb begin
    c_busy_d = c_busy_q;
    c_row_d = c_row_q;
    c_slot_d = c_slot_q;
    c_k_d = c_k_q;
    c_edge_d = c_edge_q;
    c_sel_d = c_sel_q;
    s1_v_d = 1'b0;
    s1_idx_d = c_k_q;
    prevhi_d = prevhi_q;
    cur_d = cur_q;
    s2_v_d = 1'b0;
    s2_idx_d = s2_idx_q;
    cs_d = cs_q;
    ctr_d = ctr_q;
    span = '0;
    c_row_done = s2_v_q && (s2_idx_q == nwords - IdxW'(1));

    if (c_start) begin
      c_busy_d = 1'b1;
      c_k_d = '0;
      c_edge_d = row_edge;
      for (int d = 0; d < 5; d++) begin
        c_sel_d[3*d +: 3] = ring_slot(c_slot_q, 3'(d), ring);
      end
    end

    // Read word c_k_q of every line buffer (0 .. nwords: the last gives the right-hand
    // neighbours of the last word).
    if (c_busy_q && c_k_q <= nwords) begin
      s1_v_d = 1'b1;
      c_k_d = c_k_q + IdxW'(1);
    end

    // Column sums of pixels 4c-2 .. 4c+5 for c = s1_idx_q - 1, then shift the window.
    if (s1_v_q) begin
      cs_d = '0;
      for (int d = 0; d < 5; d++) begin
        span = {row_data[32*d +: 16], cur_q[32*d +: 32], prevhi_q[16*d +: 16]};
        for (int m = 0; m < 8; m++) begin
          cs_d[11*m +: 11] = cs_d[11*m +: 11] + 11'(span[8*m +: 8]);
        end
        prevhi_d[16*d +: 16] = cur_q[32*d + 16 +: 16];
        cur_d[32*d +: 32] = row_data[32*d +: 32];
      end
      ctr_d = cur_q[64 +: 32];
      s2_v_d = s1_idx_q != '0;
      s2_idx_d = s1_idx_q - IdxW'(1);
    end

    if (c_row_done) begin
      c_busy_d = 1'b0;
      c_row_d = c_row_q + 16'd1;
      c_slot_d = (c_slot_q + 3'd1 == ring) ? 3'd0 : c_slot_q + 3'd1;
    end
    if (frame_start) begin
      c_row_d = '0;
      c_slot_d = '0;
    end
  end

  // Window sums, Laplacian, saturation and edge zeros of output word s2_idx_q.
  always_comb begin
    logic [13:0] box;
    logic [12:0] centre;
    logic [14:0] diff;
    logic [14:0] mag;
    logic zero;
    out_wdata = '0;
    for (int i = 0; i < 4; i++) begin
      box = 14'(cs_q[11*(i+1) +: 11]) + 14'(cs_q[11*(i+2) +: 11]) + 14'(cs_q[11*(i+3) +: 11]);
      if (w5_q) begin
        box = box + 14'(cs_q[11*i +: 11]) + 14'(cs_q[11*(i+4) +: 11]);
        centre = (13'(ctr_q[8*i +: 8]) << 4) + (13'(ctr_q[8*i +: 8]) << 3) +
                 13'(ctr_q[8*i +: 8]);
      end else begin
        centre = (13'(ctr_q[8*i +: 8]) << 3) + 13'(ctr_q[8*i +: 8]);
      end
      diff = 15'(centre) - 15'(box);
      mag = diff[14] ? (15'd0 - diff) : diff;
      zero = c_edge_q || ((s2_idx_q == '0) && (32'(i) < 32'(rad))) ||
             ((s2_idx_q == nwords - IdxW'(1)) && (32'(i) >= 32'd4 - 32'(rad)));
      if (zero) begin
        out_wdata[8*i +: 8] = 8'd0;
      end else if (mag > 15'd255) begin
        out_wdata[8*i +: 8] = 8'd255;
      end else begin
        out_wdata[8*i +: 8] = mag[7:0];
      end
    end
  end

  assign out_we = s2_v_q;
  assign out_waddr = {c_row_q[0], s2_idx_q[LineAw-1:0]};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StInit;
      exit_val_q <= '0;
      mem_req_q <= 1'b0;
      mem_dir_q <= 1'b0;
      mem_addr_q <= '0;
      mem_ram_q <= '0;
      mem_slot_q <= '0;
      cfg_idx_q <= '0;
      magic_ok_q <= 1'b0;
      in_cfg_q <= '0;
      out_cfg_q <= '0;
      frames_q <= '0;
      width_q <= '0;
      width_big_q <= 1'b0;
      height_q <= '0;
      height_big_q <= 1'b0;
      blines_q <= '0;
      blines_big_q <= 1'b0;
      w5_q <= 1'b0;
      kw_ok_q <= 1'b0;
      nbuf2_q <= 1'b0;
      nbuf_ok_q <= 1'b0;
      hbase_q <= '0;
      hbig_q <= '0;
      acc_q <= '0;
      nb_q <= '0;
      fsize_q <= '0;
      frame_q <= '0;
      k_q <= 1'b0;
      b_q <= '0;
      in_addr_q <= '0;
      out_addr_q <= '0;
      in_lines_q <= '0;
      out_lines_q <= '0;
      next_line_q <= '0;
      rows_wr_q <= '0;
      rd_slot_q <= '0;
      c_busy_q <= 1'b0;
      c_row_q <= '0;
      c_slot_q <= '0;
      c_k_q <= '0;
      c_edge_q <= 1'b0;
      c_sel_q <= '0;
      s1_v_q <= 1'b0;
      s1_idx_q <= '0;
      prevhi_q <= '0;
      cur_q <= '0;
      s2_v_q <= 1'b0;
      s2_idx_q <= '0;
      cs_q <= '0;
      ctr_q <= '0;
    end else begin
      state_q <= state_d;
      exit_val_q <= exit_val_d;
      mem_req_q <= mem_req_d;
      mem_dir_q <= mem_dir_d;
      mem_addr_q <= mem_addr_d;
      mem_ram_q <= mem_ram_d;
      mem_slot_q <= mem_slot_d;
      cfg_idx_q <= cfg_idx_d;
      magic_ok_q <= magic_ok_d;
      in_cfg_q <= in_cfg_d;
      out_cfg_q <= out_cfg_d;
      frames_q <= frames_d;
      width_q <= width_d;
      width_big_q <= width_big_d;
      height_q <= height_d;
      height_big_q <= height_big_d;
      blines_q <= blines_d;
      blines_big_q <= blines_big_d;
      w5_q <= w5_d;
      kw_ok_q <= kw_ok_d;
      nbuf2_q <= nbuf2_d;
      nbuf_ok_q <= nbuf_ok_d;
      hbase_q <= hbase_d;
      hbig_q <= hbig_d;
      acc_q <= acc_d;
      nb_q <= nb_d;
      fsize_q <= fsize_d;
      frame_q <= frame_d;
      k_q <= k_d;
      b_q <= b_d;
      in_addr_q <= in_addr_d;
      out_addr_q <= out_addr_d;
      in_lines_q <= in_lines_d;
      out_lines_q <= out_lines_d;
      next_line_q <= next_line_d;
      rows_wr_q <= rows_wr_d;
      rd_slot_q <= rd_slot_d;
      c_busy_q <= c_busy_d;
      c_row_q <= c_row_d;
      c_slot_q <= c_slot_d;
      c_k_q <= c_k_d;
      c_edge_q <= c_edge_d;
      c_sel_q <= c_sel_d;
      s1_v_q <= s1_v_d;
      s1_idx_q <= s1_idx_d;
      prevhi_q <= prevhi_d;
      cur_q <= cur_d;
      s2_v_q <= s2_v_d;
      s2_idx_q <= s2_idx_d;
      cs_q <= cs_d;
      ctr_q <= ctr_d;
    end
  end

  if (MaxWidth < 8 || MaxWidth % 4 != 0 || MaxWidth > 16384) begin : gen_check_max_width
    $error("hwt_laplace: MaxWidth must be a multiple of 4, 8..16384");
  end

  `include "weft_no_regs.svh"

endmodule

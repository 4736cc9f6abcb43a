// hwt_sort: the sort hardware thread (the sort case study of the ReconOS paper, in
// Weft's own design).
//
// Resources, from the init data (GET_INIT_DATA):
//   bits [7:0]   handle of the descriptor mailbox
//   bits [15:8]  handle of the "done" semaphore
//   bits [23:16] handle of the mutex that makes taking a descriptor atomic
//
// Loop:
//   1. MUTEX_LOCK, MBOX_GET the block's bus address, MBOX_GET its length in bytes,
//      MUTEX_UNLOCK. The lock keeps the two words of a descriptor together when several
//      sort threads, in hardware or software, take descriptors from one mailbox.
//   2. Address 0: THREAD_EXIT with the number of blocks sorted.
//   3. Length 0, not a multiple of 4, or larger than the local RAM (MaxWords words):
//      memory is not touched; THREAD_EXIT with ExitBadLength (0xFFFFFFFF).
//   4. Burst-read the block into the local RAM, bubble-sort it ascending as unsigned
//      32-bit integers, burst-write it back to the same address, SEM_POST the done
//      semaphore, go to 1.
// An OS call that answers with a non-zero status (or a malformed response) ends the
// thread with ExitOsError (0xFFFFFFFE).
//
// The sorter is a chain of Passes compare-and-carry stages between the two ports of the
// simple dual-port RAM (one read and one write per cycle). A sweep reads the unsorted
// part of the RAM, words 0..limit, in order into stage 0. Each stage does what one
// bubble pass does: it keeps the largest value seen so far (the carry), and for each
// word that arrives it passes the smaller of that word and the carry on to the next
// stage and keeps the larger. The first word of the stream only loads the carry; after
// the last word, the stage hands its carry on. So each stage passes on as many words as
// it received, in bubble-pass order, and the last stage's stream, written back to words
// 0..limit, is the block after Passes bubble passes: its Passes largest remaining values
// are in their final places. The next sweep is Passes words shorter. The sort ends after
// a sweep whose last pass made no swap (its input was in order, so the block is sorted;
// if an earlier pass of the sweep made no swap, neither did the later ones), or when at
// most one unsorted word would remain. Passes = 1 is the plain one-pass-per-sweep bubble
// sort. Each stage registers its output, so a word takes two cycles per stage (one of
// them spent in the carry), and the chain is idle between sweeps: a sweep over n words
// takes n + 2*Passes + 1 cycles.
//
// Sort cycles of a block of N words (N > 1; P = Passes): a sweep over N - j*P words for
// j = 0, 1, ..., s-1, so sum_j (N - j*P + 2*P + 1), with s at most ceil((N-1)/P) (a
// reversed block and most random ones) and s = 1 for a sorted block. Add the two
// bursts (about N cycles each with no back-pressure) and the OS calls. N = 2048,
// P = 16: at most 136,320 sort cycles (one pass per sweep took about N^2/2: 2.1 M).
//
// All OS interaction goes through one weft_osif_call: every state below that makes a
// call holds the request until the call's done pulse, then moves on.
module hwt_sort #(
  /// Capacity of the local RAM in 32-bit words (a power of two): the largest block.
  parameter int unsigned MaxWords = 2048,
  /// Compare-and-carry stages: bubble passes per sweep over the RAM (1..MaxWords/2).
  parameter int unsigned Passes /*verilator public*/ = 16
) (
  `include "weft_slot_ports.svh"
);

  /// Word address width of the local RAM.
  localparam int unsigned AddrWidth = $clog2(MaxWords);
  /// Exit value: the block length was 0, not a multiple of 4, or too large.
  localparam logic [31:0] ExitBadLength = 32'hFFFF_FFFF;
  /// Exit value: an OS call failed.
  localparam logic [31:0] ExitOsError = 32'hFFFF_FFFE;

  typedef enum logic [3:0] {
    StInit,       // GET_INIT_DATA
    StLock,       // MUTEX_LOCK descriptor mutex
    StGetAddr,    // MBOX_GET: block address
    StGetLen,     // MBOX_GET: block length in bytes
    StUnlock,     // MUTEX_UNLOCK descriptor mutex
    StCheck,      // decide: stop, bad length, or sort
    StRead,       // burst memory -> RAM
    StSortFeed,   // sweep: read words 0..limit into the stage chain
    StSortDrain,  // sweep: the chain writes back its last words
    StWrite,      // burst RAM -> memory
    StPost,       // SEM_POST done semaphore
    StExit        // THREAD_EXIT (never completes)
  } state_e;

  state_e state_d, state_q;
  logic [7:0] mbox_d, mbox_q, sem_d, sem_q, mtx_d, mtx_q;
  logic [31:0] addr_d, addr_q, len_d, len_q;
  logic [31:0] blocks_d, blocks_q;
  logic [31:0] exit_val_d, exit_val_q;
  logic [AddrWidth-1:0] limit_d, limit_q;  // index of the last word of the current sweep
  logic [AddrWidth-1:0] idx_d, idx_q;      // index of the next word read into the chain
  logic [AddrWidth-1:0] widx_d, widx_q;    // index of the next word the chain writes back
  logic feed_d, feed_q;                    // ram_rdata is a word for stage 0
  logic swapped_d, swapped_q;              // the sweep's last pass swapped

  // ---- OS call client, memory bursts and local RAM -------------------------------
  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [63:0] call_args;
  logic [31:0] call_result;

  weft_osif_call #(.MaxArgs(2), .MaxResults(1)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_result), .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  weft_hwt_pkg::burst_req_t burst;
  weft_hwt_pkg::burst_rsp_t burst_rsp;
  logic [AddrWidth-1:0] burst_ram_addr;
  logic burst_ram_we;
  logic [31:0] burst_ram_wdata;

  logic ram_we;
  logic [AddrWidth-1:0] ram_waddr, ram_raddr;
  logic [31:0] ram_wdata, ram_rdata;

  weft_memif_burst #(.RamAddrWidth(AddrWidth)) u_burst (
    .clk_i, .rst_ni, .req_i(burst), .ram_addr_i('0), .rsp_o(burst_rsp),
    .ram_addr_o(burst_ram_addr), .ram_we_o(burst_ram_we), .ram_wdata_o(burst_ram_wdata),
    .ram_rdata_i(ram_rdata), .mem_i(slot_i.mem), .mem_o(slot_o.mem));

  weft_ram #(
    .Words(MaxWords)
  ) u_ram (
    .clk_i,
    .we_i   (ram_we),
    .waddr_i(ram_waddr),
    .wdata_i(ram_wdata),
    .raddr_i(ram_raddr),
    .rdata_o(ram_rdata)
  );

  // ---- the sorter's stage chain --------------------------------------------------
  // Stage k takes a word from link k and, from the second word of a stream on, passes
  // the smaller of it and its carry to link k+1 (one cycle later) and keeps the larger.
  // The cycle after the stream, it passes the carry on. A stage's stream is contiguous,
  // so its carry is full exactly when a word arrived the cycle before, and its output is
  // valid exactly when the carry was full the cycle before. The data registers need no
  // reset: they are read only behind these flags.
  logic [Passes:0] link_valid;            // link k: a word enters stage k
  logic [32*(Passes+1)-1:0] link_data;    // link k: bits [32*k +: 32]
  logic [Passes-1:0] st_swap;             // stage k: the arriving word overtook the carry
  logic [31:0] chain_out;                 // the chain's output word (link Passes)

  assign link_valid[0] = feed_q;
  assign link_data[31:0] = ram_rdata;
  assign chain_out = link_data[32*Passes +: 32];

  for (genvar k = 0; k < Passes; k++) begin : gen_stage
    logic full_q, out_valid_q;
    logic [31:0] in_data, carry_q, out_q;

    assign in_data = link_data[32*k +: 32];
    assign st_swap[k] = link_valid[k] && full_q && (in_data < carry_q);
    assign link_valid[k+1] = out_valid_q;
    assign link_data[32*(k+1) +: 32] = out_q;

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        full_q <= 1'b0;
        out_valid_q <= 1'b0;
      end else begin
        full_q <= link_valid[k];
        out_valid_q <= full_q;
      end
    end

    always_ff @(posedge clk_i) begin
      if (link_valid[k] && !st_swap[k]) begin
        carry_q <= in_data;
      end
      out_q <= st_swap[k] ? in_data : carry_q;
    end
  end

  // ---- the thread's state machine -------------------------------------------------
  logic len_bad;
  logic [AddrWidth-1:0] last_idx;  // index of the block's last word
  logic sweep_last;                // the chain writes the sweep's last word this cycle

  assign len_bad = (len_q == '0) || (len_q[1:0] != 2'b00) ||
                   (len_q > 32'(MaxWords) * 32'd4);
  assign last_idx = AddrWidth'((len_q >> 2) - 32'd1);
  assign sweep_last = link_valid[Passes] && (widx_q == limit_q);

  always_comb begin
    state_d = state_q;
    mbox_d = mbox_q;
    sem_d = sem_q;
    mtx_d = mtx_q;
    addr_d = addr_q;
    len_d = len_q;
    blocks_d = blocks_q;
    exit_val_d = exit_val_q;
    limit_d = limit_q;
    idx_d = idx_q;
    widx_d = widx_q;
    feed_d = 1'b0;
    swapped_d = swapped_q;

    call = '0;
    call.nresults = 16'd1;
    call_args = '0;
    burst = '0;
    burst.write = (state_q == StWrite);
    burst.addr = addr_q;
    burst.len = len_q[23:0];

    ram_we = 1'b0;
    ram_waddr = burst_ram_addr;
    ram_wdata = burst_ram_wdata;
    ram_raddr = '0;

    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
        if (call_rsp.done) begin
          mbox_d = call_result[7:0];
          sem_d = call_result[15:8];
          mtx_d = call_result[23:16];
          exit_val_d = ExitOsError;
          state_d = call_rsp.ok ? StLock : StExit;
        end
      end

      StLock: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMutexLock;
        call.handle = 16'(mtx_q);
        if (call_rsp.done) begin
          exit_val_d = ExitOsError;
          state_d = call_rsp.ok ? StGetAddr : StExit;
        end
      end

      StGetAddr: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMboxGet;
        call.handle = 16'(mbox_q);
        if (call_rsp.done) begin
          addr_d = call_result;
          exit_val_d = ExitOsError;
          state_d = call_rsp.ok ? StGetLen : StExit;
        end
      end

      StGetLen: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMboxGet;
        call.handle = 16'(mbox_q);
        if (call_rsp.done) begin
          len_d = call_result;
          exit_val_d = ExitOsError;
          state_d = call_rsp.ok ? StUnlock : StExit;
        end
      end

      StUnlock: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMutexUnlock;
        call.handle = 16'(mtx_q);
        if (call_rsp.done) begin
          exit_val_d = ExitOsError;
          state_d = call_rsp.ok ? StCheck : StExit;
        end
      end

      StCheck: begin
        if (addr_q == '0) begin
          exit_val_d = blocks_q;
          state_d = StExit;
        end else if (len_bad) begin
          exit_val_d = ExitBadLength;
          state_d = StExit;
        end else begin
          state_d = StRead;
        end
      end

      StRead: begin
        burst.valid = 1'b1;
        ram_we = burst_ram_we;
        if (burst_rsp.done) begin
          limit_d = last_idx;
          idx_d = '0;
          widx_d = '0;
          swapped_d = 1'b0;
          state_d = (last_idx == '0) ? StWrite : StSortFeed;
        end
      end

      StSortFeed: begin
        ram_raddr = idx_q;
        feed_d = 1'b1;
        idx_d = idx_q + 1'b1;
        if (idx_q == limit_q) begin
          state_d = StSortDrain;
        end
        // The chain's first words may come back while the sweep is still read.
        ram_we = link_valid[Passes];
        ram_waddr = widx_q;
        ram_wdata = chain_out;
        widx_d = widx_q + AddrWidth'(link_valid[Passes]);
        swapped_d = swapped_q || st_swap[Passes-1];
      end

      StSortDrain: begin
        ram_we = link_valid[Passes];
        ram_waddr = widx_q;
        ram_wdata = chain_out;
        widx_d = widx_q + AddrWidth'(link_valid[Passes]);
        swapped_d = swapped_q || st_swap[Passes-1];
        if (sweep_last) begin
          // Words limit-Passes+1..limit are final; stop if the sweep's last pass made no
          // swap or at most one word is left unsorted.
          if (!swapped_q || 32'(limit_q) <= 32'(Passes)) begin
            state_d = StWrite;
          end else begin
            limit_d = limit_q - AddrWidth'(Passes);
            idx_d = '0;
            widx_d = '0;
            swapped_d = 1'b0;
            state_d = StSortFeed;
          end
        end
      end

      StWrite: begin
        burst.valid = 1'b1;
        ram_raddr = burst_ram_addr;
        if (burst_rsp.done) begin
          blocks_d = blocks_q + 32'd1;
          state_d = StPost;
        end
      end

      StPost: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdSemPost;
        call.handle = 16'(sem_q);
        if (call_rsp.done) begin
          exit_val_d = ExitOsError;
          state_d = call_rsp.ok ? StLock : StExit;
        end
      end

      StExit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
        call_args = {32'd0, exit_val_q};
      end

      default: state_d = StExit;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StInit;
      mbox_q <= '0;
      sem_q <= '0;
      mtx_q <= '0;
      addr_q <= '0;
      len_q <= '0;
      blocks_q <= '0;
      exit_val_q <= '0;
      limit_q <= '0;
      idx_q <= '0;
      widx_q <= '0;
      feed_q <= 1'b0;
      swapped_q <= 1'b0;
    end else begin
      state_q <= state_d;
      mbox_q <= mbox_d;
      sem_q <= sem_d;
      mtx_q <= mtx_d;
      addr_q <= addr_d;
      len_q <= len_d;
      blocks_q <= blocks_d;
      exit_val_q <= exit_val_d;
      limit_q <= limit_d;
      idx_q <= idx_d;
      widx_q <= widx_d;
      feed_q <= feed_d;
      swapped_q <= swapped_d;
    end
  end

  if (MaxWords < 2 || (1 << $clog2(MaxWords)) != MaxWords || MaxWords > (1 << 21))
  begin : gen_check_max_words
    $error("hwt_sort: MaxWords must be a power of two, 2..2^21");
  end

  if (Passes < 1 || Passes > MaxWords / 2) begin : gen_check_passes
    $error("hwt_sort: Passes must be 1..MaxWords/2");
  end

  `include "weft_no_regs.svh"

endmodule

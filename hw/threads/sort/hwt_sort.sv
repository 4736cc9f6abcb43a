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
// The sorter makes one compare per cycle on the simple dual-port RAM: a pass reads the
// words in order and carries the larger value forward, writing the smaller one back
// one position behind the read, so each cycle is one RAM read and one RAM write. The
// carried value is written to the end of the pass; the next pass is one word shorter. A
// pass without a swap ends the sort. A pass over k+1 words takes k+2 cycles.
//
// All OS interaction goes through one weft_osif_call: every state below that makes a
// call holds the request until the call's done pulse, then moves on.
module hwt_sort #(
  /// Capacity of the local RAM in 32-bit words (a power of two): the largest block.
  parameter int unsigned MaxWords = 2048
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
    StSortFirst,  // pass start: load the first word into the carry
    StSortCmp,    // one compare per cycle
    StSortEnd,    // write the carry to the end of the pass
    StWrite,      // burst RAM -> memory
    StPost,       // SEM_POST done semaphore
    StExit        // THREAD_EXIT (never completes)
  } state_e;

  state_e state_d, state_q;
  logic [7:0] mbox_d, mbox_q, sem_d, sem_q, mtx_d, mtx_q;
  logic [31:0] addr_d, addr_q, len_d, len_q;
  logic [31:0] blocks_d, blocks_q;
  logic [31:0] exit_val_d, exit_val_q;
  logic [AddrWidth-1:0] limit_d, limit_q;  // index of the last word of the current pass
  logic [AddrWidth-1:0] idx_d, idx_q;      // index of the word arriving from the RAM
  logic [31:0] carry_d, carry_q;
  logic swapped_d, swapped_q;

  // ---- OS call client -------------------------------------------------------------
  logic call_req, call_done, call_err;
  logic [7:0] call_cmd, call_handle, call_status;
  logic [1:0] call_nargs;
  logic [63:0] call_args;
  logic [31:0] call_result;
  logic [31:0] unused_resp_hdr;
  logic unused_nresults, unused_call_busy, unused_burst_busy;

  weft_osif_call #(
    .MaxArgs   (2),
    .MaxResults(1)
  ) u_osif_call (
    .clk_i,
    .rst_ni,
    .req_i          (call_req),
    .cmd_i          (call_cmd),
    .handle_i       (call_handle),
    .nargs_i        (call_nargs),
    .args_i         (call_args),
    .nresults_i     (1'b1),
    .done_o         (call_done),
    .status_o       (call_status),
    .resp_err_o     (call_err),
    .resp_hdr_o     (unused_resp_hdr),
    .nresults_o     (unused_nresults),
    .results_o      (call_result),
    .busy_o         (unused_call_busy),
    .osif_in_data_i,
    .osif_in_valid_i,
    .osif_in_ready_o,
    .osif_out_data_o,
    .osif_out_valid_o,
    .osif_out_ready_i
  );

  // ---- memory bursts and local RAM ------------------------------------------------
  logic burst_req, burst_done;
  logic [AddrWidth-1:0] burst_ram_addr;
  logic burst_ram_we;
  logic [31:0] burst_ram_wdata;

  logic ram_we;
  logic [AddrWidth-1:0] ram_waddr, ram_raddr;
  logic [31:0] ram_wdata, ram_rdata;

  weft_memif_burst #(
    .RamAddrWidth(AddrWidth)
  ) u_burst (
    .clk_i,
    .rst_ni,
    .req_i        (burst_req),
    .dir_i        (state_q == StWrite),
    .addr_i       (addr_q),
    .len_i        (len_q[23:0]),
    .ram_addr_i   ('0),
    .done_o       (burst_done),
    .busy_o       (unused_burst_busy),
    .ram_addr_o   (burst_ram_addr),
    .ram_we_o     (burst_ram_we),
    .ram_wdata_o  (burst_ram_wdata),
    .ram_rdata_i  (ram_rdata),
    .mem_cmd_data_o,
    .mem_cmd_valid_o,
    .mem_cmd_ready_i,
    .mem_wr_data_o,
    .mem_wr_valid_o,
    .mem_wr_ready_i,
    .mem_rd_data_i,
    .mem_rd_valid_i,
    .mem_rd_ready_o
  );

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

  // ---- the thread's state machine -------------------------------------------------
  logic call_ok;
  logic len_bad;
  logic [AddrWidth-1:0] last_idx;  // index of the block's last word

  assign call_ok = (call_status == weft_osif_pkg::StatusOk) && !call_err;
  assign len_bad = (len_q == '0) || (len_q[1:0] != 2'b00) ||
                   (len_q > 32'(MaxWords) * 32'd4);
  assign last_idx = AddrWidth'((len_q >> 2) - 32'd1);

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
    carry_d = carry_q;
    swapped_d = swapped_q;

    call_req = 1'b0;
    call_cmd = weft_osif_pkg::CmdGetInitData;
    call_handle = '0;
    call_nargs = '0;
    call_args = '0;
    burst_req = 1'b0;

    ram_we = 1'b0;
    ram_waddr = burst_ram_addr;
    ram_wdata = burst_ram_wdata;
    ram_raddr = '0;

    unique case (state_q)
      StInit: begin
        call_req = 1'b1;
        call_cmd = weft_osif_pkg::CmdGetInitData;
        if (call_done) begin
          mbox_d = call_result[7:0];
          sem_d = call_result[15:8];
          mtx_d = call_result[23:16];
          exit_val_d = ExitOsError;
          state_d = call_ok ? StLock : StExit;
        end
      end

      StLock: begin
        call_req = 1'b1;
        call_cmd = weft_osif_pkg::CmdMutexLock;
        call_handle = mtx_q;
        if (call_done) begin
          exit_val_d = ExitOsError;
          state_d = call_ok ? StGetAddr : StExit;
        end
      end

      StGetAddr: begin
        call_req = 1'b1;
        call_cmd = weft_osif_pkg::CmdMboxGet;
        call_handle = mbox_q;
        if (call_done) begin
          addr_d = call_result;
          exit_val_d = ExitOsError;
          state_d = call_ok ? StGetLen : StExit;
        end
      end

      StGetLen: begin
        call_req = 1'b1;
        call_cmd = weft_osif_pkg::CmdMboxGet;
        call_handle = mbox_q;
        if (call_done) begin
          len_d = call_result;
          exit_val_d = ExitOsError;
          state_d = call_ok ? StUnlock : StExit;
        end
      end

      StUnlock: begin
        call_req = 1'b1;
        call_cmd = weft_osif_pkg::CmdMutexUnlock;
        call_handle = mtx_q;
        if (call_done) begin
          exit_val_d = ExitOsError;
          state_d = call_ok ? StCheck : StExit;
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
        burst_req = 1'b1;
        ram_we = burst_ram_we;
        if (burst_done) begin
          // ram_raddr is 0 here: the first word arrives in StSortFirst.
          limit_d = last_idx;
          state_d = (last_idx == '0) ? StWrite : StSortFirst;
        end
      end

      StSortFirst: begin
        carry_d = ram_rdata;
        swapped_d = 1'b0;
        idx_d = AddrWidth'(1);
        ram_raddr = AddrWidth'(1);
        state_d = StSortCmp;
      end

      StSortCmp: begin
        // ram_rdata is word idx_q; the smaller of it and the carry goes to idx_q - 1.
        ram_we = 1'b1;
        ram_waddr = idx_q - 1'b1;
        if (ram_rdata < carry_q) begin
          ram_wdata = ram_rdata;
          swapped_d = 1'b1;
        end else begin
          ram_wdata = carry_q;
          carry_d = ram_rdata;
        end
        ram_raddr = idx_q + 1'b1;
        idx_d = idx_q + 1'b1;
        if (idx_q == limit_q) begin
          state_d = StSortEnd;
        end
      end

      StSortEnd: begin
        ram_we = 1'b1;
        ram_waddr = limit_q;
        ram_wdata = carry_q;
        ram_raddr = '0;  // first word of the next pass
        limit_d = limit_q - 1'b1;
        state_d = (!swapped_q || limit_q == AddrWidth'(1)) ? StWrite : StSortFirst;
      end

      StWrite: begin
        burst_req = 1'b1;
        ram_raddr = burst_ram_addr;
        if (burst_done) begin
          blocks_d = blocks_q + 32'd1;
          state_d = StPost;
        end
      end

      StPost: begin
        call_req = 1'b1;
        call_cmd = weft_osif_pkg::CmdSemPost;
        call_handle = sem_q;
        if (call_done) begin
          exit_val_d = ExitOsError;
          state_d = call_ok ? StLock : StExit;
        end
      end

      StExit: begin
        call_req = 1'b1;
        call_cmd = weft_osif_pkg::CmdThreadExit;
        call_nargs = 2'd1;
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
      carry_q <= '0;
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
      carry_q <= carry_d;
      swapped_q <= swapped_d;
    end
  end

  if (MaxWords < 2 || (1 << $clog2(MaxWords)) != MaxWords || MaxWords > (1 << 21))
  begin : gen_check_max_words
    $error("hwt_sort: MaxWords must be a power of two, 2..2^21");
  end

endmodule

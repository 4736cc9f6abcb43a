// hwt_stream: moves blocks between shared memory and a mailbox, for the hardware-link
// tests and the communication benchmark (ReconOS Table VI, Fig. 9).
//
// Resources, from the init data (GET_INIT_DATA):
//   bits [7:0]   handle of the job mailbox
//   bits [15:8]  handle of the report mailbox
//   bits [23:16] handle of the data mailbox: a software mailbox or a hardware link; the
//                RTL is the same either way
//
// Loop: take a job of three words with MBOX_GET_BURST from the job mailbox,
// {op, bus address, words}, and carry it out:
//   op 1 SOURCE: read the words from memory into local RAM (MEMIF burst), then put them
//                into the data mailbox (MBOX_PUT_BURST calls, one word per cycle);
//   op 2 SINK:   get the words from the data mailbox into local RAM (MBOX_GET_BURST),
//                then write them to memory;
//   op 0:        THREAD_EXIT with value 0;
// then put a report of three words with MBOX_PUT_BURST into the report mailbox:
//   {status, memory cycles, mailbox cycles}: status 0 when the job was done, StatusBadargs
//   for an unknown op or a block of 0 or more than RamWords words, else the status a
//   mailbox call ended with (CANCELED after a signal: the words moved so far stay moved).
// The cycle counts are the thread's own clock cycles for each phase, from its first
// request to its last word.
module hwt_stream #(
  /// Words of local RAM: the largest block (8 KiB by default).
  parameter int unsigned RamWords = 2048,
  /// Most words per mailbox burst call.
  parameter int unsigned Burst = 256
) (
  `include "weft_slot_ports.svh"
);

  localparam int unsigned AddrWidth = $clog2(RamWords);
  localparam logic [31:0] OpExit = 32'd0, OpSource = 32'd1, OpSink = 32'd2;

  typedef enum logic [3:0] {
    StInit,    // GET_INIT_DATA
    StJob,     // MBOX_GET_BURST the job
    StDecode,  // check it
    StMemRead, // memory to RAM
    StPut,     // RAM to the data mailbox
    StGet,     // the data mailbox to RAM
    StMemWrite,// RAM to memory
    StReport,  // MBOX_PUT_BURST the report
    StExit     // THREAD_EXIT
  } state_e;

  state_e state_d, state_q;
  logic [7:0]  job_h_d, job_h_q, rep_h_d, rep_h_q, data_h_d, data_h_q;
  logic [31:0] op_d, op_q, addr_d, addr_q, words_d, words_q;
  logic [31:0] status_d, status_q, t_mem_d, t_mem_q, t_mbox_d, t_mbox_q;
  logic [31:0] now_q, start_d, start_q;
  logic        streaming_d, streaming_q;  // the RAM stream of a put was started

  // ---- OS call client, put and get streams, sharing the OSIF ----------------------
  logic        call_req, call_done, call_err, call_busy;
  logic [7:0]  call_cmd, call_handle, call_status;
  logic [1:0]  call_nargs;
  logic [95:0] call_args;
  logic [1:0]  call_nres;
  logic [95:0] call_results;
  logic [31:0] unused_call_hdr;

  logic        put_req, put_done, put_busy, put_ready, put_valid;
  logic [7:0]  put_status;
  logic [31:0] put_moved, put_data;
  logic        get_req, get_done, get_busy, get_valid;
  logic [31:0] unused_put_data;
  logic        unused_put_valid, unused_get_ready;
  logic [7:0]  get_status;
  logic [31:0] get_moved, get_data;

  logic [95:0] c_out_data;
  logic [2:0]  c_out_valid, c_out_ready, c_in_valid, c_in_ready, busy;
  logic [31:0] c_in_data;

  weft_osif_call #(
    .MaxArgs   (3),
    .MaxResults(3)
  ) u_call (
    .clk_i,
    .rst_ni,
    .req_i           (call_req),
    .cmd_i           (call_cmd),
    .handle_i        (call_handle),
    .nargs_i         (call_nargs),
    .args_i          (call_args),
    .nresults_i      (2'd3),
    .done_o          (call_done),
    .status_o        (call_status),
    .resp_err_o      (call_err),
    .resp_hdr_o      (unused_call_hdr),
    .nresults_o      (call_nres),
    .results_o       (call_results),
    .busy_o          (call_busy),
    .osif_in_data_i  (c_in_data),
    .osif_in_valid_i (c_in_valid[0]),
    .osif_in_ready_o (c_in_ready[0]),
    .osif_out_data_o (c_out_data[31:0]),
    .osif_out_valid_o(c_out_valid[0]),
    .osif_out_ready_i(c_out_ready[0])
  );

  weft_mbox_stream #(
    .Put     (1'b1),
    .MaxBurst(Burst)
  ) u_put (
    .clk_i,
    .rst_ni,
    .req_i           (put_req),
    .handle_i        (data_h_q),
    .count_i         (words_q),
    .done_o          (put_done),
    .status_o        (put_status),
    .moved_o         (put_moved),
    .busy_o          (put_busy),
    .data_i          (put_data),
    .valid_i         (put_valid),
    .ready_o         (put_ready),
    .data_o          (unused_put_data),
    .valid_o         (unused_put_valid),
    .ready_i         (1'b0),
    .osif_in_data_i  (c_in_data),
    .osif_in_valid_i (c_in_valid[1]),
    .osif_in_ready_o (c_in_ready[1]),
    .osif_out_data_o (c_out_data[63:32]),
    .osif_out_valid_o(c_out_valid[1]),
    .osif_out_ready_i(c_out_ready[1])
  );

  weft_mbox_stream #(
    .Put     (1'b0),
    .MaxBurst(Burst)
  ) u_get (
    .clk_i,
    .rst_ni,
    .req_i           (get_req),
    .handle_i        (data_h_q),
    .count_i         (words_q),
    .done_o          (get_done),
    .status_o        (get_status),
    .moved_o         (get_moved),
    .busy_o          (get_busy),
    .data_i          ('0),
    .valid_i         (1'b0),
    .ready_o         (unused_get_ready),
    .data_o          (get_data),
    .valid_o         (get_valid),
    .ready_i         (1'b1),
    .osif_in_data_i  (c_in_data),
    .osif_in_valid_i (c_in_valid[2]),
    .osif_in_ready_o (c_in_ready[2]),
    .osif_out_data_o (c_out_data[95:64]),
    .osif_out_valid_o(c_out_valid[2]),
    .osif_out_ready_i(c_out_ready[2])
  );

  assign busy = {get_busy, put_busy, call_busy};

  weft_osif_arb #(
    .NumClients(3)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .busy_i         (busy),
    .c_out_data_i   (c_out_data),
    .c_out_valid_i  (c_out_valid),
    .c_out_ready_o  (c_out_ready),
    .c_in_data_o    (c_in_data),
    .c_in_valid_o   (c_in_valid),
    .c_in_ready_i   (c_in_ready),
    .osif_in_data_i,
    .osif_in_valid_i,
    .osif_in_ready_o,
    .osif_out_data_o,
    .osif_out_valid_o,
    .osif_out_ready_i
  );

  // ---- memory and local RAM --------------------------------------------------------
  logic                 mem_req, mem_done, unused_mem_busy;
  logic [AddrWidth-1:0] mem_ram_addr, rd_raddr, ram_waddr, ram_raddr, get_idx_q;
  logic                 mem_ram_we, ram_we;
  logic [31:0]          mem_ram_wdata, ram_wdata, ram_rdata;
  logic                 rd_busy;

  weft_memif_burst #(
    .RamAddrWidth(AddrWidth)
  ) u_memif (
    .clk_i,
    .rst_ni,
    .req_i        (mem_req),
    .dir_i        (state_q == StMemWrite),
    .addr_i       (addr_q),
    .len_i        (24'(words_q << 2)),
    .ram_addr_i   ('0),
    .done_o       (mem_done),
    .busy_o       (unused_mem_busy),
    .ram_addr_o   (mem_ram_addr),
    .ram_we_o     (mem_ram_we),
    .ram_wdata_o  (mem_ram_wdata),
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

  weft_ram_stream #(
    .AddrWidth(AddrWidth)
  ) u_ram_stream (
    .clk_i,
    .rst_ni,
    .start_i    (state_q == StPut && !streaming_q),
    .addr_i     ('0),
    .count_i    ((AddrWidth + 1)'(words_q)),
    .busy_o     (rd_busy),
    .ram_raddr_o(rd_raddr),
    .ram_rdata_i(ram_rdata),
    .data_o     (put_data),
    .valid_o    (put_valid),
    .ready_i    (put_ready)
  );

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

  // The RAM's ports: the memory burst reads and writes in its states, the put stream
  // reads while putting, the get stream writes while getting.
  assign ram_we    = (state_q == StGet) ? get_valid : mem_ram_we;
  assign ram_waddr = (state_q == StGet) ? get_idx_q : mem_ram_addr;
  assign ram_wdata = (state_q == StGet) ? get_data : mem_ram_wdata;
  assign ram_raddr = (state_q == StPut) ? rd_raddr : mem_ram_addr;

  // ---- the state machine -----------------------------------------------------------
  logic call_ok;
  assign call_ok = (call_status == weft_osif_pkg::StatusOk) && !call_err;

  always_comb begin
    state_d     = state_q;
    job_h_d     = job_h_q;
    rep_h_d     = rep_h_q;
    data_h_d    = data_h_q;
    op_d        = op_q;
    addr_d      = addr_q;
    words_d     = words_q;
    status_d    = status_q;
    t_mem_d     = t_mem_q;
    t_mbox_d    = t_mbox_q;
    start_d     = start_q;
    streaming_d = streaming_q;
    call_req    = 1'b0;
    call_cmd    = weft_osif_pkg::CmdGetInitData;
    call_handle = '0;
    call_nargs  = '0;
    call_args   = '0;
    put_req     = 1'b0;
    get_req     = 1'b0;
    mem_req     = 1'b0;

    unique case (state_q)
      StInit: begin
        call_req = 1'b1;
        if (call_done) begin
          job_h_d  = call_results[7:0];
          rep_h_d  = call_results[15:8];
          data_h_d = call_results[23:16];
          state_d  = call_ok ? StJob : StExit;
        end
      end

      StJob: begin
        call_req    = 1'b1;
        call_cmd    = weft_osif_pkg::CmdMboxGetBurst;
        call_handle = job_h_q;
        call_nargs  = 2'd1;
        call_args[31:0] = 32'd3;
        if (call_done) begin
          op_d    = call_results[31:0];
          addr_d  = call_results[63:32];
          words_d = call_results[95:64];
          state_d = (call_ok && call_nres == 2'd3) ? StDecode : StExit;
        end
      end

      StDecode: begin
        status_d = '0;
        t_mem_d  = '0;
        t_mbox_d = '0;
        start_d  = now_q;
        if (op_q == OpExit) begin
          state_d = StExit;
        end else if ((op_q != OpSource && op_q != OpSink) || words_q == '0 ||
                     words_q > 32'(RamWords)) begin
          status_d = 32'(weft_osif_pkg::StatusBadargs);
          state_d  = StReport;
        end else begin
          state_d = (op_q == OpSource) ? StMemRead : StGet;
        end
      end

      StMemRead: begin
        mem_req = 1'b1;
        if (mem_done) begin
          t_mem_d     = now_q - start_q;
          start_d     = now_q;
          streaming_d = 1'b0;
          state_d     = StPut;
        end
      end

      StPut: begin
        streaming_d = 1'b1;
        put_req     = 1'b1;
        if (put_done) begin
          t_mbox_d = now_q - start_q;
          status_d = 32'(put_status);
          state_d  = StReport;
        end
      end

      StGet: begin
        get_req = 1'b1;
        if (get_done) begin
          t_mbox_d = now_q - start_q;
          start_d  = now_q;
          status_d = 32'(get_status);
          state_d  = (get_status == weft_osif_pkg::StatusOk) ? StMemWrite : StReport;
        end
      end

      StMemWrite: begin
        mem_req = 1'b1;
        if (mem_done) begin
          t_mem_d = now_q - start_q;
          state_d = StReport;
        end
      end

      StReport: begin
        call_req    = 1'b1;
        call_cmd    = weft_osif_pkg::CmdMboxPutBurst;
        call_handle = rep_h_q;
        call_nargs  = 2'd3;
        call_args   = {t_mbox_q, t_mem_q, status_q};
        if (call_done) begin
          state_d = call_ok ? StJob : StExit;
        end
      end

      StExit: begin
        call_req = 1'b1;
        call_cmd = weft_osif_pkg::CmdThreadExit;
        call_nargs = 2'd1;
        call_args[31:0] = '0;
      end

      default: state_d = StExit;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q     <= StInit;
      job_h_q     <= '0;
      rep_h_q     <= '0;
      data_h_q    <= '0;
      op_q        <= '0;
      addr_q      <= '0;
      words_q     <= '0;
      status_q    <= '0;
      t_mem_q     <= '0;
      t_mbox_q    <= '0;
      start_q     <= '0;
      now_q       <= '0;
      streaming_q <= 1'b0;
      get_idx_q   <= '0;
    end else begin
      state_q     <= state_d;
      job_h_q     <= job_h_d;
      rep_h_q     <= rep_h_d;
      data_h_q    <= data_h_d;
      op_q        <= op_d;
      addr_q      <= addr_d;
      words_q     <= words_d;
      status_q    <= status_d;
      t_mem_q     <= t_mem_d;
      t_mbox_q    <= t_mbox_d;
      start_q     <= start_d;
      now_q       <= now_q + 32'd1;
      streaming_q <= streaming_d;
      // The get stream's words go to RAM words 0, 1, ... of the job.
      if (state_q != StGet) begin
        get_idx_q <= '0;
      end else if (get_valid) begin
        get_idx_q <= get_idx_q + 1'b1;
      end
    end
  end

  // The moved counts and the read stream's busy flag are not needed: a job either moves
  // every word or reports the status that stopped it.
  logic unused;
  assign unused = ^{put_moved, get_moved, rd_busy};

  if (RamWords < 2 || (1 << AddrWidth) != RamWords) begin : gen_check_ram
    $error("hwt_stream: RamWords must be a power of two, at least 2");
  end

endmodule

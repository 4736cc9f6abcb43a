// hwt_stream: moves blocks between shared memory and a mailbox or a message queue, for
// the hardware-link tests and the communication benchmark (ReconOS Table VI, Fig. 9).
//
// Resources, from the init data (GET_INIT_DATA):
//   bits [7:0]   handle of the job mailbox
//   bits [15:8]  handle of the report mailbox
//   bits [23:16] handle of the data mailbox: a software mailbox or a hardware link (the
//                RTL is the same either way), or a message queue for ops 3 and 4
//
// Loop: take a job of three words with MBOX_GET_BURST from the job mailbox,
// {op, bus address, words}, and carry it out:
//   op 1 SOURCE: read the words from memory into local RAM (MEMIF burst), then put them
//                into the data mailbox (MBOX_PUT_BURST calls, one word per cycle);
//   op 2 SINK:   get the words from the data mailbox into local RAM (MBOX_GET_BURST),
//                then write them to memory;
//   op 3 MQ_SOURCE: as SOURCE, but send the words as messages of MsgWords words (MQ_SEND);
//   op 4 MQ_SINK:   as SINK, but receive messages (MQ_RECEIVE) until the words came;
//   op 5 MQ_SOURCE_MEM: write the words of local RAM to memory (the thread's data leaves
//                it by DMA), then send them from there as messages of up to MsgBytesMem
//                bytes by reference (MQ_SEND_MEM: no word crosses the OSIF);
//   op 6 MQ_SINK_MEM: receive messages into memory at the address (MQ_RECEIVE_MEM, each
//                offering the bytes still to come) until the words came, then read them
//                into local RAM;
//   op 7 LOAD:   read the words from memory into local RAM (for a later op 5);
//   op 0:        THREAD_EXIT with value 0;
// then put a report of three words with MBOX_PUT_BURST into the report mailbox:
//   {status, memory cycles, mailbox cycles} (for ops 5 and 6 the memory cycles are both
//   bursts', the mailbox cycles the calls'): status 0 when the job was done, StatusBadargs
//   for an unknown op or a block of 0 or more than RamWords words, else the status a
//   mailbox call ended with (CANCELED after a signal: the words moved so far stay moved).
// The cycle counts are the thread's own clock cycles for each phase, from its first
// request to its last word.
module hwt_stream #(
  /// Words of local RAM: the largest block (8 KiB by default).
  parameter int unsigned RamWords = 2048,
  /// Most words per mailbox burst call.
  parameter int unsigned Burst = weft_osif_pkg::OsifMaxArgs,
  /// Words per message of MQ_SOURCE (512 bytes); MQ_SINK takes messages up to this long.
  parameter int unsigned MsgWords = 128,
  /// Longest message of MQ_SOURCE_MEM, in bytes (at most 65535).
  parameter int unsigned MsgBytesMem = 8192
) (
  `include "weft_slot_ports.svh"
);

  localparam int unsigned AddrWidth = $clog2(RamWords);
  localparam logic [31:0] OpExit = 32'd0, OpSource = 32'd1, OpSink = 32'd2;
  localparam logic [31:0] OpMqSource = 32'd3, OpMqSink = 32'd4;
  localparam logic [31:0] OpMqSourceMem = 32'd5, OpMqSinkMem = 32'd6, OpLoad = 32'd7;

  typedef enum logic [3:0] {
    StInit,    // GET_INIT_DATA
    StJob,     // MBOX_GET_BURST the job
    StDecode,  // check it
    StMemRead, // memory to RAM
    StPut,     // RAM to the data mailbox
    StGet,     // the data mailbox to RAM
    StMemWrite,// RAM to memory
    StMsgMem,  // MQ_SEND_MEM or MQ_RECEIVE_MEM, one message
    StReport,  // MBOX_PUT_BURST the report
    StExit     // THREAD_EXIT
  } state_e;

  state_e state_d, state_q;
  logic [7:0]  job_h_d, job_h_q, rep_h_d, rep_h_q, data_h_d, data_h_q;
  logic [31:0] op_d, op_q, addr_d, addr_q, words_d, words_q;
  logic [31:0] status_d, status_q, t_mem_d, t_mem_q, t_mbox_d, t_mbox_q;
  logic [31:0] now_q, start_d, start_q;
  logic        streaming_d, streaming_q;  // the RAM stream of a put was started
  logic [31:0] moved_d, moved_q;          // bytes of an op 5 or 6 sent or received
  logic        mem_job;                   // op 5 or 6
  logic [31:0] bytes_left, msg_len;       // op 5 and 6: bytes still to move; op 5's next
  assign mem_job    = (op_q == OpMqSourceMem) || (op_q == OpMqSinkMem);
  assign bytes_left = (words_q << 2) - moved_q;
  assign msg_len    = (bytes_left < 32'(MsgBytesMem)) ? bytes_left : 32'(MsgBytesMem);

  // ---- OS call client, put and get streams, sharing the OSIF ----------------------
  // Clients of u_arb: 0 the call client, 1 the put stream, 2 the get stream, 3 and 4
  // their message-queue twins; client c's side of the OSIF in bits [c*ReqW +: ReqW] of
  // osif_req, the arbiter's answer in osif_rsp (flat vectors: Yosys takes no arrays of
  // structs).
  localparam int unsigned ReqW = weft_osif_pkg::OsifReqWidth;
  localparam int unsigned RspW = weft_osif_pkg::OsifRspWidth;
  logic [5*ReqW-1:0] osif_req;
  logic [5*RspW-1:0] osif_rsp;

  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [95:0] call_args;
  logic [127:0] call_results;

  weft_osif_call #(.MaxArgs(3), .MaxResults(4)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_results), .osif_i(osif_rsp[0 +: RspW]), .osif_o(osif_req[0 +: ReqW]));

  // The put stream takes its words from the RAM stream, the get stream gives them to the
  // RAM at once; the other direction of each is unused. The moved counts (and the RAM
  // stream's busy flag) are not needed: a job either moves every word or reports the
  // status that stopped it.
  weft_hwt_pkg::stream_req_t put, get, mbox_put, mbox_get, mq_put, mq_get;
  weft_hwt_pkg::stream_rsp_t put_rsp, get_rsp, mbox_put_rsp, mbox_get_rsp, mq_put_rsp,
                             mq_get_rsp;
  weft_hwt_pkg::word_stream_t put_words, get_words, mbox_get_words, mq_get_words;
  weft_hwt_pkg::word_stream_t unused_put_out, unused_mq_put_out;
  logic put_ready, mbox_put_ready, mq_put_ready, unused_get_ready, unused_mq_get_ready;

  weft_mbox_stream #(.Put(1'b1), .MaxBurst(Burst)) u_put (
    .clk_i, .rst_ni, .req_i(mbox_put), .rsp_o(mbox_put_rsp), .words_i(put_words),
    .words_ready_o(mbox_put_ready), .words_o(unused_put_out), .words_ready_i(1'b0),
    .osif_i(osif_rsp[RspW +: RspW]), .osif_o(osif_req[ReqW +: ReqW]));

  weft_mbox_stream #(.Put(1'b0), .MaxBurst(Burst)) u_get (
    .clk_i, .rst_ni, .req_i(mbox_get), .rsp_o(mbox_get_rsp), .words_i('0),
    .words_ready_o(unused_get_ready), .words_o(mbox_get_words), .words_ready_i(1'b1),
    .osif_i(osif_rsp[2*RspW +: RspW]), .osif_o(osif_req[2*ReqW +: ReqW]));

  weft_mbox_stream #(.Put(1'b1), .MaxBurst(MsgWords), .Mq(1'b1)) u_mq_put (
    .clk_i, .rst_ni, .req_i(mq_put), .rsp_o(mq_put_rsp), .words_i(put_words),
    .words_ready_o(mq_put_ready), .words_o(unused_mq_put_out), .words_ready_i(1'b0),
    .osif_i(osif_rsp[3*RspW +: RspW]), .osif_o(osif_req[3*ReqW +: ReqW]));

  weft_mbox_stream #(.Put(1'b0), .MaxBurst(MsgWords), .Mq(1'b1)) u_mq_get (
    .clk_i, .rst_ni, .req_i(mq_get), .rsp_o(mq_get_rsp), .words_i('0),
    .words_ready_o(unused_mq_get_ready), .words_o(mq_get_words), .words_ready_i(1'b1),
    .osif_i(osif_rsp[4*RspW +: RspW]), .osif_o(osif_req[4*ReqW +: ReqW]));

  weft_osif_arb #(.NumClients(5)) u_arb (
    .clk_i, .rst_ni,
    .busy_i({mq_get_rsp.busy, mq_put_rsp.busy, mbox_get_rsp.busy, mbox_put_rsp.busy,
             call_rsp.busy}),
    .clients_i(osif_req), .clients_o(osif_rsp), .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  // A job's put and get go to the mailbox streams or the message-queue ones.
  logic mq_job;
  assign mq_job    = (op_q == OpMqSource) || (op_q == OpMqSink);
  assign mbox_put  = mq_job ? '0 : put;
  assign mq_put    = mq_job ? put : '0;
  assign mbox_get  = mq_job ? '0 : get;
  assign mq_get    = mq_job ? get : '0;
  assign put_rsp   = mq_job ? mq_put_rsp : mbox_put_rsp;
  assign get_rsp   = mq_job ? mq_get_rsp : mbox_get_rsp;
  assign put_ready = mq_job ? mq_put_ready : mbox_put_ready;
  assign get_words = mq_job ? mq_get_words : mbox_get_words;

  // ---- memory and local RAM --------------------------------------------------------
  weft_hwt_pkg::burst_req_t burst;
  weft_hwt_pkg::burst_rsp_t burst_rsp;
  logic [AddrWidth-1:0] burst_ram_addr, rd_raddr, ram_waddr, ram_raddr, get_idx_q;
  logic                 burst_ram_we, ram_we;
  logic [31:0]          burst_ram_wdata, ram_wdata, ram_rdata;
  logic                 unused_rd_busy;

  weft_memif_burst #(.RamAddrWidth(AddrWidth)) u_burst (
    .clk_i, .rst_ni, .req_i(burst), .ram_addr_i('0), .rsp_o(burst_rsp),
    .ram_addr_o(burst_ram_addr), .ram_we_o(burst_ram_we), .ram_wdata_o(burst_ram_wdata),
    .ram_rdata_i(ram_rdata), .mem_i(slot_i.mem), .mem_o(slot_o.mem));

  // The RAM's ports: the memory burst reads and writes in its states, the put stream
  // reads while putting, the get stream writes while getting.
  assign ram_we    = (state_q == StGet) ? get_words.valid : burst_ram_we;
  assign ram_waddr = (state_q == StGet) ? get_idx_q : burst_ram_addr;
  assign ram_wdata = (state_q == StGet) ? get_words.data : burst_ram_wdata;
  assign ram_raddr = (state_q == StPut) ? rd_raddr : burst_ram_addr;

  weft_ram_stream #(
    .AddrWidth(AddrWidth)
  ) u_ram_stream (
    .clk_i,
    .rst_ni,
    .start_i    (state_q == StPut && !streaming_q),
    .addr_i     ('0),
    .count_i    ((AddrWidth + 1)'(words_q)),
    .busy_o     (unused_rd_busy),
    .ram_raddr_o(rd_raddr),
    .ram_rdata_i(ram_rdata),
    .data_o     (put_words.data),
    .valid_o    (put_words.valid),
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

  // ---- the state machine -----------------------------------------------------------
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
    moved_d     = moved_q;
    call = '0;
    call.nresults = 16'd4;
    call_args = '0;
    put = '0;
    put.handle = 16'(data_h_q);
    put.count = words_q;
    get = put;  // the same mailbox and count
    burst = '0;
    burst.write = (state_q == StMemWrite);
    burst.addr = addr_q;
    burst.len = 24'(words_q << 2);

    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
        if (call_rsp.done) begin
          job_h_d  = call_results[7:0];
          rep_h_d  = call_results[15:8];
          data_h_d = call_results[23:16];
          state_d  = call_rsp.ok ? StJob : StExit;
        end
      end

      StJob: begin
        call.valid  = 1'b1;
        call.cmd    = weft_osif_pkg::CmdMboxGetBurst;
        call.handle = 16'(job_h_q);
        call.nargs  = 16'd1;
        call_args[31:0] = 32'd3;
        if (call_rsp.done) begin
          op_d    = call_results[31:0];
          addr_d  = call_results[63:32];
          words_d = call_results[95:64];
          state_d = (call_rsp.ok && call_rsp.nresults == 16'd4 &&
                     call_results[127:96] == weft_osif_pkg::burst_end(weft_osif_pkg::StatusOk, 16'd3)) ?
                    StDecode : StExit;
        end
      end

      StDecode: begin
        status_d = '0;
        t_mem_d  = '0;
        t_mbox_d = '0;
        start_d  = now_q;
        moved_d  = '0;
        if (op_q == OpExit) begin
          state_d = StExit;
        end else if ((op_q != OpSource && op_q != OpSink && op_q != OpLoad && !mq_job &&
                      !mem_job) || words_q == '0 || words_q > 32'(RamWords)) begin
          status_d = 32'(weft_osif_pkg::StatusBadargs);
          state_d  = StReport;
        end else if (op_q == OpMqSinkMem) begin
          state_d = StMsgMem;
        end else if (op_q == OpMqSourceMem) begin
          state_d = StMemWrite;
        end else begin
          state_d = (op_q == OpSource || op_q == OpMqSource || op_q == OpLoad) ? StMemRead :
                                                                                   StGet;
        end
      end

      StMemRead: begin
        burst.valid = 1'b1;
        if (burst_rsp.done) begin
          t_mem_d     = t_mem_q + (now_q - start_q);
          start_d     = now_q;
          streaming_d = 1'b0;
          state_d     = (op_q == OpMqSinkMem || op_q == OpLoad) ? StReport : StPut;
        end
      end

      StPut: begin
        streaming_d = 1'b1;
        put.valid   = 1'b1;
        if (put_rsp.done) begin
          t_mbox_d = now_q - start_q;
          status_d = 32'(put_rsp.status);
          state_d  = StReport;
        end
      end

      StGet: begin
        get.valid = 1'b1;
        if (get_rsp.done) begin
          t_mbox_d = now_q - start_q;
          start_d  = now_q;
          status_d = 32'(get_rsp.status);
          state_d  = (get_rsp.status == weft_osif_pkg::StatusOk) ? StMemWrite : StReport;
        end
      end

      StMemWrite: begin
        burst.valid = 1'b1;
        if (burst_rsp.done) begin
          t_mem_d = t_mem_q + (now_q - start_q);
          start_d = now_q;
          state_d = (op_q == OpMqSourceMem) ? StMsgMem : StReport;
        end
      end

      // One message by reference: op 5 sends the next msg_len bytes, op 6 offers the
      // bytes still to come to the next message (its result says how long it was).
      StMsgMem: begin
        call.valid  = 1'b1;
        call.handle = 16'(data_h_q);
        call.nargs  = 16'd2;
        if (op_q == OpMqSourceMem) begin
          call.cmd  = weft_osif_pkg::CmdMqSendMem;
          call_args[63:0] = {addr_q + moved_q, 16'd0, msg_len[15:0]};
        end else begin
          call.cmd  = weft_osif_pkg::CmdMqReceiveMem;
          call_args[63:0] = {addr_q + moved_q, bytes_left};
        end
        if (call_rsp.done) begin
          if (!call_rsp.ok) begin
            t_mbox_d = t_mbox_q + (now_q - start_q);
            status_d = 32'(call_rsp.status);
            state_d  = StReport;
          end else begin
            moved_d = moved_q + ((op_q == OpMqSourceMem) ? msg_len : 32'(call_results[15:0]));
            if (moved_d >= (words_q << 2)) begin
              t_mbox_d = t_mbox_q + (now_q - start_q);
              start_d  = now_q;
              state_d  = (op_q == OpMqSinkMem) ? StMemRead : StReport;
            end
          end
        end
      end

      StReport: begin
        call.valid  = 1'b1;
        call.cmd    = weft_osif_pkg::CmdMboxPutBurst;
        call.handle = 16'(rep_h_q);
        call.nargs  = 16'd3;
        call_args   = {t_mbox_q, t_mem_q, status_q};
        if (call_rsp.done) begin
          state_d = call_rsp.ok ? StJob : StExit;
        end
      end

      StExit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
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
      moved_q     <= '0;
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
      moved_q     <= moved_d;
      // The get stream's words go to RAM words 0, 1, ... of the job.
      if (state_q != StGet) begin
        get_idx_q <= '0;
      end else if (get_words.valid) begin
        get_idx_q <= get_idx_q + 1'b1;
      end
    end
  end

  if (RamWords < 2 || (1 << AddrWidth) != RamWords) begin : gen_check_ram
    $error("hwt_stream: RamWords must be a power of two, at least 2");
  end
  if (MsgBytesMem < 1 || MsgBytesMem > 65535) begin : gen_check_msg
    $error("hwt_stream: MsgBytesMem must be 1 .. 65535");
  end

  `include "weft_no_regs.svh"

endmodule

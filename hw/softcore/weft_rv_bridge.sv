// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_bridge: the softcore's OS interface in a slot (docs/softcore.md, "In a slot").
// It owns the slot's OSIF channel: first it asks for the thread's init data
// (GET_INIT_DATA: where the program image is), then it carries the program's OS calls,
// one at a time, and at the end its THREAD_EXIT.
//
// A program (the kernel's rtk_osif library) writes a request into the request buffer
// (its header, then the nargs argument words the header announces) and START; the
// bridge sends exactly those 1 + nargs words, so the OSIF's framing never depends on
// what else the program wrote, and takes the whole response, header first, into the
// response buffer (words past the buffer are counted and dropped: OVERFLOW). DONE then
// stays set until ACK or the next START, and raises the core's external interrupt when
// enabled. A request too long for the buffer, or THREAD_EXIT or THREAD_YIELD (which have
// no response; a program ends through TOHOST) is not sent: REFUSED with DONE.
//
// Boundary rule 2 (docs/architecture.md): in_ready says "this thread waits for the OS",
// and the simulator pauses a thread that says so. The softcore may run other threads
// while one call waits, so the bridge raises in_ready only to take a word that is there
// (in_valid), or while the core has nothing else to do (may_pause_i).
//
// MMIO: word offsets in the bridge's 4 KiB window (weft_osif_pkg::RvMmioOsif*): CTRL 0,
// IRQ 1, the request buffer from 0x100, the response buffer from 0x200. Every access is
// answered at once; an address outside these, a write to the response buffer, or one to
// the request buffer while a request is in progress is an access fault. ACK while a
// request is in progress does nothing. (hwt_softcore takes whole-word stores only.)
module weft_rv_bridge #(
  /// Words of the request buffer and of the response buffer, headers included.
  parameter int unsigned Words = weft_osif_pkg::RvOsifWords,
  localparam int unsigned WordAw = $clog2(Words)
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // ---- the program's window (weft_rv_soc's outward port, decoded) ----
  input  logic        req_i,
  input  logic        we_i,
  input  logic [9:0]  addr_i,   // word offset in the window
  input  logic [31:0] wdata_i,
  output logic        err_o,
  output logic [31:0] rdata_o,
  /// DONE with its interrupt enabled (mip.MEIP).
  output logic        irq_o,

  // ---- boot ----
  /// GET_INIT_DATA has been answered (held from then on); init_ok_o says it succeeded.
  output logic        init_valid_o,
  output logic        init_ok_o,
  output logic [31:0] init_data_o,

  // ---- the end ----
  /// End the thread with exit_value_i: THREAD_EXIT goes out once no call is in progress.
  input  logic        exit_i,
  input  logic [31:0] exit_value_i,

  /// Nothing in the softcore can go on until an input changes (see above).
  input  logic        may_pause_i,

  input  weft_osif_pkg::osif_rsp_t osif_i,
  output weft_osif_pkg::osif_req_t osif_o
);

  typedef enum logic [2:0] {
    SInit,      // GET_INIT_DATA's header out; its response comes as any other
    SIdle,      // ready for START or the end
    SSend,      // request words out
    SRsp,       // the response header
    SData,      // the response's result words
    SExit,      // THREAD_EXIT's header out
    SExitValue, // its exit value out
    SExited     // nothing more: software stops the slot
  } state_e;

  state_e          state_q;
  logic [31:0]     req_q [Words];
  logic [31:0]     rsp_q [Words];
  logic [8:0]      sent_q;        // words of the request sent
  logic [15:0]     left_q;        // result words still to come
  logic [16:0]     kept_q;        // response words received, header included
  logic            done_q, ovf_q, refused_q, irq_en_q;
  logic            boot_q;        // the response awaited is GET_INIT_DATA's
  logic            init_valid_q, init_ok_q;
  logic [31:0]     init_q;

  localparam logic [9:0] OffCtrl = 10'h000;
  localparam logic [9:0] OffIrq  = 10'h001;
  localparam logic [1:0] PageReq = 2'd1;  // 0x100-0x1FF
  localparam logic [1:0] PageRsp = 2'd2;  // 0x200-0x2FF

  logic in_req_page, in_rsp_page, in_buf;
  assign in_req_page = addr_i[9:8] == PageReq;
  assign in_rsp_page = addr_i[9:8] == PageRsp;
  assign in_buf      = addr_i[7:0] < 8'(Words);

  logic busy;
  assign busy = !boot_q && (state_q == SSend || state_q == SRsp || state_q == SData);

  // The request the buffer holds: 1 + nargs words, if it fits and has a response.
  logic [7:0] req_cmd;
  logic [8:0] req_words;
  logic       req_ok;
  assign req_cmd   = req_q[0][weft_osif_pkg::ReqCmdMsb:weft_osif_pkg::ReqCmdLsb];
  assign req_words = 9'd1 + 9'(req_q[0][weft_osif_pkg::ReqNargsMsb:weft_osif_pkg::ReqNargsLsb]);
  assign req_ok    = req_words <= 9'(Words) && req_cmd != weft_osif_pkg::CmdThreadExit &&
                     req_cmd != weft_osif_pkg::CmdThreadYield;

  logic start, ack;
  assign start = req_i && we_i && addr_i == OffCtrl && wdata_i[0] && state_q == SIdle &&
                 !exit_i;
  assign ack   = req_i && we_i && addr_i == OffCtrl && wdata_i[31] && !busy;

  // ---- the window ----
  always_comb begin
    err_o = 1'b0;
    rdata_o = '0;
    if (addr_i == OffCtrl) begin
      rdata_o = {16'(kept_q > 17'(Words) ? 17'(Words) : kept_q), 12'b0, refused_q, ovf_q,
                 done_q, busy};
    end else if (addr_i == OffIrq) begin
      rdata_o = {31'b0, irq_en_q};
    end else if (in_req_page && in_buf) begin
      rdata_o = req_q[addr_i[WordAw-1:0]];
      err_o = we_i && busy;
    end else if (in_rsp_page && in_buf) begin
      rdata_o = rsp_q[addr_i[WordAw-1:0]];
      err_o = we_i;
    end else begin
      err_o = 1'b1;
    end
  end

  // ---- the OSIF ----
  logic [15:0] in_nwords;
  logic        in_fire, out_fire, rsp_end;
  assign in_nwords = osif_i.in_data[weft_osif_pkg::RespNwordsMsb:weft_osif_pkg::RespNwordsLsb];
  always_comb begin
    osif_o = '0;
    unique case (state_q)
      SInit: begin
        osif_o.out_valid = 1'b1;
        osif_o.out_data  = weft_osif_pkg::req_header(weft_osif_pkg::CmdGetInitData, '0, '0);
      end
      SSend: begin
        osif_o.out_valid = 1'b1;
        osif_o.out_data  = req_q[sent_q[WordAw-1:0]];
      end
      SExit: begin
        osif_o.out_valid = 1'b1;
        osif_o.out_data  = weft_osif_pkg::req_header(weft_osif_pkg::CmdThreadExit, '0, 8'd1);
      end
      SExitValue: begin
        osif_o.out_valid = 1'b1;
        osif_o.out_data  = exit_value_i;
      end
      // After THREAD_EXIT the thread waits for good; booting, the core waits in reset.
      SExited: osif_o.in_ready = 1'b1;
      SRsp, SData: osif_o.in_ready = osif_i.in_valid || may_pause_i || boot_q;
      default: ;
    endcase
  end
  assign out_fire = osif_o.out_valid && osif_i.out_ready;
  assign in_fire  = osif_o.in_ready && osif_i.in_valid;
  // A response's last word (or a header without words) ends the call.
  assign rsp_end  = in_fire && ((state_q == SRsp && in_nwords == '0) ||
                                (state_q == SData && left_q == 16'd1));

  // The request buffer: one write port (the program), read by the sender.
  always_ff @(posedge clk_i) begin
    if (req_i && we_i && in_req_page && in_buf && !busy) req_q[addr_i[WordAw-1:0]] <= wdata_i;
  end
  // The response buffer: written by the receiver, read by the program.
  always_ff @(posedge clk_i) begin
    if (in_fire && (state_q == SRsp || state_q == SData) && kept_q < 17'(Words))
      rsp_q[kept_q[WordAw-1:0]] <= osif_i.in_data;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q      <= SInit;
      sent_q       <= '0;
      left_q       <= '0;
      kept_q       <= '0;
      done_q       <= 1'b0;
      ovf_q        <= 1'b0;
      refused_q    <= 1'b0;
      irq_en_q     <= 1'b0;
      boot_q       <= 1'b1;
      init_valid_q <= 1'b0;
      init_ok_q    <= 1'b0;
      init_q       <= '0;
    end else begin
      if (req_i && we_i && addr_i == OffIrq) irq_en_q <= wdata_i[0];
      if (rsp_end) begin
        state_q <= SIdle;
        if (boot_q) begin
          boot_q <= 1'b0;
          init_valid_q <= 1'b1;
        end else begin
          done_q <= 1'b1;
        end
      end
      if (ack) begin
        done_q    <= 1'b0;
        ovf_q     <= 1'b0;
        refused_q <= 1'b0;
      end
      unique case (state_q)
        SInit: if (out_fire) state_q <= SRsp;
        SIdle: begin
          if (exit_i) begin
            state_q <= SExit;
          end else if (start) begin
            done_q    <= 1'b0;
            ovf_q     <= 1'b0;
            kept_q    <= '0;
            refused_q <= !req_ok;
            sent_q    <= '0;
            if (req_ok) state_q <= SSend;
            else done_q <= 1'b1;
          end
        end
        SSend: begin
          if (out_fire) begin
            sent_q <= sent_q + 9'd1;
            if (sent_q + 9'd1 == req_words) state_q <= SRsp;
          end
        end
        SRsp: begin
          if (in_fire) begin
            kept_q <= 17'd1;
            left_q <= in_nwords;
            if (boot_q)
              init_ok_q <= osif_i.in_data[weft_osif_pkg::RespStatusMsb:weft_osif_pkg::RespStatusLsb] ==
                           weft_osif_pkg::StatusOk && in_nwords != '0;
            if (!rsp_end) state_q <= SData;
          end
        end
        SData: begin
          if (in_fire) begin
            // GET_INIT_DATA's first result word is the init data.
            if (boot_q && kept_q == 17'd1) init_q <= osif_i.in_data;
            kept_q <= kept_q + 17'd1;
            if (kept_q >= 17'(Words)) ovf_q <= 1'b1;
            left_q <= left_q - 16'd1;
          end
        end
        SExit: if (out_fire) state_q <= SExitValue;
        SExitValue: if (out_fire) state_q <= SExited;
        default: ;
      endcase
    end
  end

  assign irq_o        = done_q && irq_en_q;
  assign init_valid_o = init_valid_q;
  assign init_ok_o    = init_ok_q;
  assign init_data_o  = init_q;

  if (Words < 4 || Words > 128 || (1 << WordAw) != Words) begin : gen_check
    $error("weft_rv_bridge: Words must be a power of two from 4 to 128");
  end

endmodule

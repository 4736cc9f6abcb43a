// hwt_bad: a deliberately misbehaving hardware thread, for tests of Weft's error paths.
//
// It first calls GET_INIT_DATA; init data bits [7:0] select the misbehaviour:
//   0  an unknown command (code BadCmd = 0x7E, handle 0, no arguments)
//   1  SEM_POST on handle 200 (outside any resource array)
//   2  SEM_WAIT on handle 0 (the test binds handle 0 to a mailbox: wrong type)
//   3  a malformed length: a SEM_POST header on handle 0 claiming 255 argument words
//      (SEM_POST takes none), followed by an endless stream of words (0, 1, 2, ...) for
//      as long as they are taken: the delegate answers BADARGS, then reads the stream as
//      requests and answers them, and the thread, which takes no answer, overflows its
//      response FIFO
//   4  a MEMIF read of 4 bytes at bus address 0x00000100 (outside its memory window)
//   5  a MEMIF read command whose length (6 bytes) is not a multiple of 4, at bus
//      address {init data[31:8], 8'h00} (so a test can place it inside the window)
// Modes 0-2 then exit (THREAD_EXIT) with the status field of the response they got, so
// a test can check the error code. Modes 3-5 expect to be faulted and stopped: they
// never exit, except when a MEMIF read of mode 4 or 5 unexpectedly returns data, in
// which case they exit with ExitUnexpected (0xFFFFFFFD). Any other mode, or a failing
// GET_INIT_DATA, exits with ExitBadMode (0xFFFFFFFF).
module hwt_bad (
  `include "weft_slot_ports.svh"
);

  /// The unknown command code of mode 0.
  localparam logic [7:0] BadCmd = 8'h7E;
  /// The out-of-range handle of mode 1.
  localparam logic [15:0] BadHandle = 16'd200;
  /// The claimed argument count of mode 3.
  localparam logic [7:0] BadNargs = 8'd255;
  /// The bus address of mode 4.
  localparam logic [31:0] OutsideAddr = 32'h0000_0100;
  /// The MEMIF length of mode 5.
  localparam logic [23:0] UnalignedLen = 24'd6;
  /// Exit value: unknown mode or GET_INIT_DATA failed.
  localparam logic [31:0] ExitBadMode = 32'hFFFF_FFFF;
  /// Exit value: a faulty MEMIF read returned data.
  localparam logic [31:0] ExitUnexpected = 32'hFFFF_FFFD;

  typedef enum logic [2:0] {
    StInit,     // GET_INIT_DATA
    StCall,     // modes 0-2: the bad call
    StRawHdr,   // mode 3: the malformed header
    StRawWords, // mode 3: endless argument words
    StMemCmd0,  // modes 4-5: MEMIF command word 0
    StMemCmd1,  // modes 4-5: MEMIF command word 1
    StMemWait,  // modes 4-5: wait for read data that should never come
    StExit      // THREAD_EXIT with exit_q
  } state_e;

  state_e state_d, state_q;
  logic [31:0] init_d, init_q;
  logic [31:0] exit_d, exit_q;
  logic [31:0] count_d, count_q;

  // The call client's side of the OSIF goes through call_osif (mode 3 sends its own words).
  weft_hwt_pkg::call_req_t call;
  // split_var: call_rsp.busy follows call.valid combinationally, and without it Verilator
  // takes the whole struct for one signal and sees a loop through the state machine.
  weft_hwt_pkg::call_rsp_t call_rsp /* verilator split_var */;
  logic [63:0] call_args;
  logic [31:0] call_result;
  weft_osif_pkg::osif_req_t call_osif;

  weft_osif_call #(.MaxArgs(2), .MaxResults(1)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_result), .osif_i(slot_i.osif), .osif_o(call_osif));

  logic [7:0] mode;
  logic [7:0] hdr_status;
  assign mode = init_q[7:0];
  assign hdr_status = call_rsp.hdr[weft_osif_pkg::RespStatusMsb:weft_osif_pkg::RespStatusLsb];

  logic [31:0] raw_hdr, mem_cmd0, mem_addr;
  always_comb begin
    raw_hdr = weft_osif_pkg::req_header(weft_osif_pkg::CmdSemPost, '0, BadNargs);
    mem_cmd0 = '0;
    mem_cmd0[weft_osif_pkg::MemifOpMsb:weft_osif_pkg::MemifOpLsb] = weft_osif_pkg::MemifOpRead;
    mem_cmd0[weft_osif_pkg::MemifLengthMsb:weft_osif_pkg::MemifLengthLsb] =
        (mode == 8'd4) ? 24'd4 : UnalignedLen;
    mem_addr = (mode == 8'd4) ? OutsideAddr : {init_q[31:8], 8'h00};
  end

  always_comb begin
    state_d = state_q;
    init_d = init_q;
    exit_d = exit_q;
    count_d = count_q;

    call = '0;
    call.nresults = 16'd1;
    call_args = '0;

    // MEMIF: command words of modes 4-5 and their read data; never write data.
    slot_o.mem = '0;
    slot_o.mem.cmd_data = mem_cmd0;

    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
        if (call_rsp.done) begin
          init_d = call_result;
          exit_d = ExitBadMode;
          if (hdr_status != weft_osif_pkg::StatusOk) begin
            state_d = StExit;
          end else begin
            unique case (call_result[7:0])
              8'd0, 8'd1, 8'd2: state_d = StCall;
              8'd3: state_d = StRawHdr;
              8'd4, 8'd5: state_d = StMemCmd0;
              default: state_d = StExit;
            endcase
          end
        end
      end

      StCall: begin
        call.valid = 1'b1;
        unique case (mode)
          8'd0: begin
            call.cmd = BadCmd;
            call.handle = '0;
          end
          8'd1: begin
            call.cmd = weft_osif_pkg::CmdSemPost;
            call.handle = BadHandle;
          end
          default: begin
            call.cmd = weft_osif_pkg::CmdSemWait;
            call.handle = '0;
          end
        endcase
        if (call_rsp.done) begin
          exit_d = {24'd0, hdr_status};
          state_d = StExit;
        end
      end

      StRawHdr: begin
        if (slot_i.osif.out_ready) begin
          count_d = '0;
          state_d = StRawWords;
        end
      end

      StRawWords: begin
        if (slot_i.osif.out_ready) begin
          count_d = count_q + 32'd1;
        end
      end

      StMemCmd0: begin
        slot_o.mem.cmd_valid = 1'b1;
        if (slot_i.mem.cmd_ready) begin
          state_d = StMemCmd1;
        end
      end

      StMemCmd1: begin
        slot_o.mem.cmd_valid = 1'b1;
        slot_o.mem.cmd_data = mem_addr;
        if (slot_i.mem.cmd_ready) begin
          state_d = StMemWait;
        end
      end

      StMemWait: begin
        slot_o.mem.rd_ready = 1'b1;
        if (slot_i.mem.rd_valid) begin
          exit_d = ExitUnexpected;
          state_d = StExit;
        end
      end

      StExit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
        call_args = {32'd0, exit_q};
      end

      default: state_d = StExit;
    endcase
  end

  // Mode 3 drives the OSIF request stream itself; otherwise the call client does.
  always_comb begin
    slot_o.osif = call_osif;
    unique case (state_q)
      StRawHdr: begin
        slot_o.osif.out_valid = 1'b1;
        slot_o.osif.out_data = raw_hdr;
      end
      StRawWords: begin
        slot_o.osif.out_valid = 1'b1;
        slot_o.osif.out_data = count_q;
      end
      default: ;
    endcase
  end

  logic unused_mem;
  assign unused_mem = ^{slot_i.mem.wr_ready, slot_i.mem.rd_data};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StInit;
      init_q <= '0;
      exit_q <= '0;
      count_q <= '0;
    end else begin
      state_q <= state_d;
      init_q <= init_d;
      exit_q <= exit_d;
      count_q <= count_d;
    end
  end

  `include "weft_no_regs.svh"

endmodule

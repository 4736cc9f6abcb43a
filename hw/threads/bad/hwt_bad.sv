// hwt_bad: a deliberately misbehaving hardware thread, for tests of Weft's error paths.
//
// It first calls GET_INIT_DATA; init data bits [7:0] select the misbehaviour:
//   0  an unknown command (code BadCmd = 0x7E, handle 0, no arguments)
//   1  SEM_POST on handle 200 (outside any resource array)
//   2  SEM_WAIT on handle 0 (the test binds handle 0 to a mailbox: wrong type)
//   3  a malformed length: a SEM_POST header on handle 0 claiming 40000 argument words,
//      followed by an endless stream of words (0, 1, 2, ...) for as long as they are
//      taken
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
  localparam logic [7:0] BadHandle = 8'd200;
  /// The claimed argument count of mode 3.
  localparam logic [15:0] BadNargs = 16'd40000;
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

  logic call_req, call_done;
  logic [7:0] call_cmd, call_handle;
  logic [1:0] call_nargs;
  logic [63:0] call_args;
  logic [31:0] call_hdr, call_result;
  logic [31:0] call_out_data;
  logic call_out_valid;
  logic [7:0] unused_status;
  logic unused_err, unused_nres, unused_busy;

  weft_osif_call #(
    .MaxArgs   (2),
    .MaxResults(1)
  ) u_osif_call (
    .clk_i,
    .rst_ni,
    .req_i           (call_req),
    .cmd_i           (call_cmd),
    .handle_i        (call_handle),
    .nargs_i         (call_nargs),
    .args_i          (call_args),
    .nresults_i      (1'b1),
    .done_o          (call_done),
    .status_o        (unused_status),
    .resp_err_o      (unused_err),
    .resp_hdr_o      (call_hdr),
    .nresults_o      (unused_nres),
    .results_o       (call_result),
    .busy_o          (unused_busy),
    .osif_in_data_i,
    .osif_in_valid_i,
    .osif_in_ready_o,
    .osif_out_data_o (call_out_data),
    .osif_out_valid_o(call_out_valid),
    .osif_out_ready_i
  );

  logic [7:0] mode;
  logic [7:0] hdr_status;
  assign mode = init_q[7:0];
  assign hdr_status = call_hdr[weft_osif_pkg::RespStatusMsb:weft_osif_pkg::RespStatusLsb];

  logic [31:0] raw_hdr, mem_cmd0, mem_addr;
  always_comb begin
    raw_hdr = weft_osif_pkg::req_header(weft_osif_pkg::CmdSemPost, 8'd0, BadNargs);
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

    call_req = 1'b0;
    call_cmd = weft_osif_pkg::CmdGetInitData;
    call_handle = '0;
    call_nargs = '0;
    call_args = '0;

    mem_cmd_valid_o = 1'b0;
    mem_cmd_data_o = mem_cmd0;
    mem_rd_ready_o = 1'b0;

    unique case (state_q)
      StInit: begin
        call_req = 1'b1;
        if (call_done) begin
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
        call_req = 1'b1;
        unique case (mode)
          8'd0: begin
            call_cmd = BadCmd;
            call_handle = 8'd0;
          end
          8'd1: begin
            call_cmd = weft_osif_pkg::CmdSemPost;
            call_handle = BadHandle;
          end
          default: begin
            call_cmd = weft_osif_pkg::CmdSemWait;
            call_handle = 8'd0;
          end
        endcase
        if (call_done) begin
          exit_d = {24'd0, hdr_status};
          state_d = StExit;
        end
      end

      StRawHdr: begin
        if (osif_out_ready_i) begin
          count_d = '0;
          state_d = StRawWords;
        end
      end

      StRawWords: begin
        if (osif_out_ready_i) begin
          count_d = count_q + 32'd1;
        end
      end

      StMemCmd0: begin
        mem_cmd_valid_o = 1'b1;
        if (mem_cmd_ready_i) begin
          state_d = StMemCmd1;
        end
      end

      StMemCmd1: begin
        mem_cmd_valid_o = 1'b1;
        mem_cmd_data_o = mem_addr;
        if (mem_cmd_ready_i) begin
          state_d = StMemWait;
        end
      end

      StMemWait: begin
        mem_rd_ready_o = 1'b1;
        if (mem_rd_valid_i) begin
          exit_d = ExitUnexpected;
          state_d = StExit;
        end
      end

      StExit: begin
        call_req = 1'b1;
        call_cmd = weft_osif_pkg::CmdThreadExit;
        call_nargs = 2'd1;
        call_args = {32'd0, exit_q};
      end

      default: state_d = StExit;
    endcase
  end

  // Mode 3 drives the OSIF request stream itself; otherwise the call client does.
  always_comb begin
    unique case (state_q)
      StRawHdr: begin
        osif_out_valid_o = 1'b1;
        osif_out_data_o = raw_hdr;
      end
      StRawWords: begin
        osif_out_valid_o = 1'b1;
        osif_out_data_o = count_q;
      end
      default: begin
        osif_out_valid_o = call_out_valid;
        osif_out_data_o = call_out_data;
      end
    endcase
  end

  assign mem_wr_valid_o = 1'b0;
  assign mem_wr_data_o = '0;

  logic unused_inputs;
  assign unused_inputs = ^{mem_wr_ready_i, mem_rd_data_i, call_hdr[31:24], call_hdr[15:0]};

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

endmodule

// hwt_calls: a scriptable test thread. It performs, on the hardware side, whatever OS
// call or memory access a test asks for, so end-to-end tests can drive every OSIF
// command from a real hardware thread.
//
// Resources, from the init data (GET_INIT_DATA):
//   bits [7:0]   handle of the instruction mailbox
//   bits [15:8]  handle of the result mailbox
//
// Loop: MBOX_GET an instruction word from the instruction mailbox and run it.
//
// An instruction word is an OSIF request header (the fields of request_header in
// protocol/osif.yaml: cmd, handle, nargs).
//   - cmd is an OSIF command: the `nargs` argument words follow as further words of
//     the instruction mailbox (at most CallMaxArgs). The thread makes exactly that call
//     through weft_osif_call, then MBOX_PUTs the response header word as received and
//     then its result words (at most CallMaxResults) into the result mailbox.
//     THREAD_EXIT is made like any other call and ends the thread with its argument.
//     More than CallMaxArgs arguments: no call is made and no argument word is taken;
//     the thread puts the word {cmd, StatusBadargs, 0}.
//   - cmd is a pseudo-command (0xF0..0xFF, defined below; not OSIF commands). Their
//     arguments also follow in the instruction mailbox, but the nargs field is ignored
//     except by PseudoRaw:
//       PseudoMemRead  (0xF0) arg: address. Reads one word of shared memory; puts
//                      {0xF0, 0, 1} and the word.
//       PseudoMemWrite (0xF1) args: address, value. Writes one word; puts {0xF1, 0, 0}.
//       PseudoMemInc   (0xF2) arg: address. Reads a word, adds 1, writes it back; puts
//                      {0xF2, 0, 1} and the new value.
//       PseudoRaw      (0xF3) takes the next `nargs` words of the instruction mailbox
//                      (at most RawMaxWords) and then sends them back to back, verbatim,
//                      on the OSIF request stream, without waiting for any response and
//                      without putting anything: a way to send malformed requests. With
//                      more than RawMaxWords it takes no word and puts {0xF3,
//                      StatusBadargs, 0}.
//     Other codes 0xF4..0xFF put {cmd, StatusNosys, 0}.
// A failing MBOX_GET/MBOX_PUT on the instruction or result mailbox (non-zero status or
// malformed response) ends the thread with ExitOsError (0xFFFFFFFE).
module hwt_calls #(
  /// Most argument words of a scripted OS call.
  parameter int unsigned CallMaxArgs = 18,
  /// Most result words of a scripted OS call that are stored and forwarded.
  parameter int unsigned CallMaxResults = 18,
  /// Most words one PseudoRaw instruction sends.
  parameter int unsigned RawMaxWords = 16
) (
  `include "weft_slot_ports.svh"
);

  /// Pseudo-command: read one word of shared memory.
  localparam logic [7:0] PseudoMemRead = 8'hF0;
  /// Pseudo-command: write one word of shared memory.
  localparam logic [7:0] PseudoMemWrite = 8'hF1;
  /// Pseudo-command: increment one word of shared memory.
  localparam logic [7:0] PseudoMemInc = 8'hF2;
  /// Pseudo-command: send raw OSIF words.
  localparam logic [7:0] PseudoRaw = 8'hF3;
  /// Exit value: a call on the instruction or result mailbox failed.
  localparam logic [31:0] ExitOsError = 32'hFFFF_FFFE;

  /// Words of the argument/raw buffer.
  localparam int unsigned BufWords = (RawMaxWords > CallMaxArgs) ? RawMaxWords : CallMaxArgs;
  /// Words put into the result mailbox at most: header plus results.
  localparam int unsigned PutWords = CallMaxResults + 1;

  typedef enum logic [3:0] {
    StInit,      // GET_INIT_DATA
    StFetch,     // MBOX_GET the instruction word
    StDecode,    // decide how many argument words to take
    StFetchArg,  // MBOX_GET argument word idx_q
    StExec,      // dispatch
    StCall,      // the scripted OS call
    StMemRead,   // one-word memory read (PseudoMemRead, PseudoMemInc)
    StMemWrite,  // one-word memory write (PseudoMemWrite, PseudoMemInc)
    StRaw,       // raw OSIF words
    StPut,       // MBOX_PUT result word idx_q
    StExitErr    // THREAD_EXIT with ExitOsError
  } state_e;

  state_e state_d, state_q;
  logic [7:0] imbox_d, imbox_q, rmbox_d, rmbox_q;
  logic [31:0] instr_d, instr_q;
  logic [15:0] nfetch_d, nfetch_q;
  logic [15:0] idx_d, idx_q;
  logic [BufWords*32-1:0] buf_d, buf_q;
  logic [PutWords*32-1:0] put_d, put_q;
  logic [15:0] nput_d, nput_q;

  logic [7:0] icmd;
  logic [15:0] inargs;
  assign icmd = instr_q[weft_osif_pkg::ReqCmdMsb:weft_osif_pkg::ReqCmdLsb];
  assign inargs = 16'(instr_q[weft_osif_pkg::ReqNargsMsb:weft_osif_pkg::ReqNargsLsb]);


  // ---- OS call client and one-word memory access -----------------------------------
  weft_hwt_pkg::call_req_t call;
  // split_var: call_rsp.busy follows call.valid combinationally, and without it Verilator
  // takes the whole struct for one signal and sees a loop through the state machine.
  weft_hwt_pkg::call_rsp_t call_rsp /* verilator split_var */;
  logic [CallMaxArgs*32-1:0] call_args;
  logic [CallMaxResults*32-1:0] call_results;
  weft_osif_pkg::osif_req_t call_osif;

  weft_osif_call #(.MaxArgs(CallMaxArgs), .MaxResults(CallMaxResults)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_results), .osif_i(slot_i.osif), .osif_o(call_osif));

  weft_hwt_pkg::word_req_t mem;
  weft_hwt_pkg::word_rsp_t mem_rsp;

  weft_memif_word u_mem (
    .clk_i, .rst_ni, .req_i(mem), .rsp_o(mem_rsp), .mem_i(slot_i.mem), .mem_o(slot_o.mem));

  // The raw state drives the OSIF request stream itself; otherwise the call client.
  always_comb begin
    slot_o.osif = call_osif;
    if (state_q == StRaw) begin
      slot_o.osif.out_valid = 1'b1;
      slot_o.osif.out_data = buf_q[32*idx_q[$clog2(BufWords)-1:0] +: 32];
    end
  end

  always_comb begin
    state_d = state_q;
    imbox_d = imbox_q;
    rmbox_d = rmbox_q;
    instr_d = instr_q;
    nfetch_d = nfetch_q;
    idx_d = idx_q;
    buf_d = buf_q;
    put_d = put_q;
    nput_d = nput_q;

    call = '0;
    call.nresults = 16'(CallMaxResults);
    call_args = '0;
    mem = '0;
    mem.addr = buf_q[31:0];
    mem.wdata = buf_q[63:32];

    unique case (state_q)
      StInit: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdGetInitData;
        if (call_rsp.done) begin
          imbox_d = call_results[7:0];
          rmbox_d = call_results[15:8];
          state_d = call_rsp.ok ? StFetch : StExitErr;
        end
      end

      StFetch: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMboxGet;
        call.handle = 16'(imbox_q);
        if (call_rsp.done) begin
          instr_d = call_results[31:0];
          state_d = call_rsp.ok ? StDecode : StExitErr;
        end
      end

      StDecode: begin
        idx_d = '0;
        nput_d = 16'd1;
        state_d = StFetchArg;
        unique case (icmd)
          PseudoMemRead, PseudoMemInc: nfetch_d = 16'd1;
          PseudoMemWrite: nfetch_d = 16'd2;
          PseudoRaw: begin
            nfetch_d = inargs;
            if (32'(inargs) > RawMaxWords) begin
              put_d[31:0] = weft_osif_pkg::resp_header(icmd, weft_osif_pkg::StatusBadargs, 16'd0);
              state_d = StPut;
            end
          end
          default: begin
            nfetch_d = inargs;
            if (icmd >= 8'hF0) begin
              put_d[31:0] = weft_osif_pkg::resp_header(icmd, weft_osif_pkg::StatusNosys, 16'd0);
              state_d = StPut;
            end else if (32'(inargs) > CallMaxArgs) begin
              put_d[31:0] = weft_osif_pkg::resp_header(icmd, weft_osif_pkg::StatusBadargs, 16'd0);
              state_d = StPut;
            end
          end
        endcase
        if (state_d == StFetchArg && nfetch_d == '0) begin
          state_d = StExec;
        end
      end

      StFetchArg: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMboxGet;
        call.handle = 16'(imbox_q);
        if (call_rsp.done) begin
          buf_d[32*idx_q[$clog2(BufWords)-1:0] +: 32] = call_results[31:0];
          idx_d = idx_q + 16'd1;
          if (!call_rsp.ok) begin
            state_d = StExitErr;
          end else if (idx_q + 16'd1 == nfetch_q) begin
            state_d = StExec;
          end
        end
      end

      StExec: begin
        idx_d = '0;
        unique case (icmd)
          PseudoMemRead, PseudoMemInc: state_d = StMemRead;
          PseudoMemWrite: state_d = StMemWrite;
          PseudoRaw: state_d = (nfetch_q == '0) ? StFetch : StRaw;
          default: state_d = StCall;
        endcase
      end

      StCall: begin
        call.valid = 1'b1;
        call.cmd = icmd;
        call.handle = instr_q[weft_osif_pkg::ReqHandleMsb:weft_osif_pkg::ReqHandleLsb];
        call.nargs = inargs;
        call_args = buf_q[CallMaxArgs*32-1:0];
        if (call_rsp.done) begin
          put_d[31:0] = call_rsp.hdr;
          put_d[PutWords*32-1:32] = call_results;
          nput_d = 16'd1 + call_rsp.nresults;
          idx_d = '0;
          state_d = StPut;
        end
      end

      StMemRead: begin
        mem.valid = 1'b1;
        if (mem_rsp.done) begin
          put_d[31:0] = weft_osif_pkg::resp_header(icmd, weft_osif_pkg::StatusOk, 16'd1);
          put_d[63:32] = mem_rsp.rdata;
          nput_d = 16'd2;
          idx_d = '0;
          if (icmd == PseudoMemInc) begin
            put_d[63:32] = mem_rsp.rdata + 32'd1;
            state_d = StMemWrite;
          end else begin
            state_d = StPut;
          end
        end
      end

      StMemWrite: begin
        mem.valid = 1'b1;
        mem.write = 1'b1;
        if (icmd == PseudoMemInc) begin
          mem.wdata = put_q[63:32];
        end
        if (mem_rsp.done) begin
          if (icmd == PseudoMemWrite) begin
            put_d[31:0] = weft_osif_pkg::resp_header(icmd, weft_osif_pkg::StatusOk, 16'd0);
            nput_d = 16'd1;
          end
          idx_d = '0;
          state_d = StPut;
        end
      end

      StRaw: begin
        if (slot_i.osif.out_ready) begin
          idx_d = idx_q + 16'd1;
          if (idx_q + 16'd1 == nfetch_q) begin
            state_d = StFetch;
          end
        end
      end

      StPut: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdMboxPut;
        call.handle = 16'(rmbox_q);
        call.nargs = 16'd1;
        call_args[31:0] = put_q[32*idx_q[$clog2(PutWords)-1:0] +: 32];
        if (call_rsp.done) begin
          idx_d = idx_q + 16'd1;
          if (!call_rsp.ok) begin
            state_d = StExitErr;
          end else if (idx_q + 16'd1 == nput_q) begin
            state_d = StFetch;
          end
        end
      end

      StExitErr: begin
        call.valid = 1'b1;
        call.cmd = weft_osif_pkg::CmdThreadExit;
        call.nargs = 16'd1;
        call_args[31:0] = ExitOsError;
      end

      default: state_d = StExitErr;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StInit;
      imbox_q <= '0;
      rmbox_q <= '0;
      instr_q <= '0;
      nfetch_q <= '0;
      idx_q <= '0;
      buf_q <= '0;
      put_q <= '0;
      nput_q <= '0;
    end else begin
      state_q <= state_d;
      imbox_q <= imbox_d;
      rmbox_q <= rmbox_d;
      instr_q <= instr_d;
      nfetch_q <= nfetch_d;
      idx_q <= idx_d;
      buf_q <= buf_d;
      put_q <= put_d;
      nput_q <= nput_d;
    end
  end

  if (CallMaxArgs < 2 || CallMaxResults < 1 || RawMaxWords < 1) begin : gen_check_params
    $error("hwt_calls: CallMaxArgs >= 2, CallMaxResults >= 1, RawMaxWords >= 1 required");
  end

  `include "weft_no_regs.svh"

endmodule

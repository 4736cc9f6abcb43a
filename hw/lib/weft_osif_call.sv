// weft_osif_call: the OS-call client of a hardware thread.
//
// A thread's OS synchronisation state machine instantiates one of these and makes every
// OS call through it. Protocol towards the state machine:
//
//   - The state machine holds `req_i.valid` high, with the other fields of `req_i` and
//     `args_i` stable, for as long as it stays in the state that makes the call
//     (weft_hwt_pkg: call_req_t, call_rsp_t).
//   - The module sends the OSIF request (header word cmd|handle|nargs, then `nargs`
//     argument words) on the slot's OSIF, then waits for the response (header word
//     cmd|status|nwords, then `nwords` result words).
//   - When the whole response has been taken, `rsp_o.done` is high for exactly one cycle
//     with the other fields of `rsp_o` and `results_o` valid (they stay valid until the
//     next call starts). The state machine moves to its next state on that edge;
//     `req_i.valid` is ignored in the `done` cycle, so a next state that holds it high
//     again makes a new call.
//   - A command without a response (THREAD_EXIT) never completes: after sending it the
//     module waits forever, with `osif_o.in_ready` high, and discards anything it
//     receives. The slot is stopped by software.
//
// Boundary rule 2 (docs/architecture.md): `osif_o.in_ready` is high only while a call
// waits for (or takes) its response, so the static region can tell the thread is blocked.
//
// A response is checked: its cmd echo must equal the request's command and it may carry
// at most `req_i.nresults` result words. A response that breaks either rule is still
// taken whole (all `nwords` words, the extras discarded), so no stale word is left for
// the next call; `rsp_o.err` is then 1 and `rsp_o.status` reads StatusInternal.
module weft_osif_call #(
  /// Most argument words one call sends (at least 1).
  parameter int unsigned MaxArgs = 2,
  /// Most result words one call returns (at least 1).
  parameter int unsigned MaxResults = 1,
  /// Width of the argument count (derived; do not override).
  localparam int unsigned NargsWidth = $clog2(MaxArgs + 1),
  /// Width of the result count (derived; do not override).
  localparam int unsigned NresWidth = $clog2(MaxResults + 1)
) (
  /// Fabric clock.
  input  logic                       clk_i,
  /// Active-low synchronous reset.
  input  logic                       rst_ni,

  /// The call: held with its fields stable until rsp_o.done.
  input  weft_hwt_pkg::call_req_t    req_i,
  /// Argument words, word k in bits [32*k +: 32]; word 0 is sent first.
  input  logic [MaxArgs*32-1:0]      args_i,
  /// The call's completion.
  output weft_hwt_pkg::call_rsp_t    rsp_o,
  /// Result words, word k in bits [32*k +: 32]; word 0 is the first received.
  output logic [MaxResults*32-1:0]   results_o,

  /// The slot's OSIF, static side.
  input  weft_osif_pkg::osif_rsp_t   osif_i,
  /// The slot's OSIF, thread side (in_ready high only while waiting: boundary rule 2).
  output weft_osif_pkg::osif_req_t   osif_o
);

  typedef enum logic [2:0] {
    StIdle,      // no call; header offered as soon as req_i is high
    StSendArgs,  // sending argument word arg_idx_q
    StWaitHdr,   // waiting for the response header
    StWaitData,  // taking result words
    StDone,      // done_o pulse
    StExited     // after THREAD_EXIT: wait forever
  } state_e;

  state_e state_d, state_q;
  logic [NargsWidth-1:0] arg_idx_d, arg_idx_q;
  logic [7:0] cmd_d, cmd_q;
  logic [NargsWidth-1:0] nargs_d, nargs_q;
  logic [NresWidth-1:0] nres_max_d, nres_max_q;
  logic [15:0] remain_d, remain_q;
  logic [NresWidth-1:0] nres_d, nres_q;
  logic [MaxResults*32-1:0] results_d, results_q;
  logic [31:0] hdr_d, hdr_q;
  logic err_d, err_q;

  logic [31:0] req_hdr;
  logic [7:0] in_cmd;
  logic [15:0] in_nwords;
  logic out_fire, in_fire, done;

  // Request header built from the live inputs (held stable by the caller).
  assign req_hdr = weft_osif_pkg::req_header(req_i.cmd, req_i.handle, 8'(req_i.nargs));

  // Fields of the incoming word read as a response header.
  assign in_cmd = osif_i.in_data[weft_osif_pkg::RespCmdMsb:weft_osif_pkg::RespCmdLsb];
  assign in_nwords = osif_i.in_data[weft_osif_pkg::RespNwordsMsb:weft_osif_pkg::RespNwordsLsb];

  assign out_fire = osif_o.out_valid & osif_i.out_ready;
  assign in_fire = osif_i.in_valid & osif_o.in_ready;

  always_comb begin
    state_d = state_q;
    arg_idx_d = arg_idx_q;
    cmd_d = cmd_q;
    nargs_d = nargs_q;
    nres_max_d = nres_max_q;
    remain_d = remain_q;
    nres_d = nres_q;
    results_d = results_q;
    hdr_d = hdr_q;
    err_d = err_q;

    osif_o = '0;
    osif_o.out_data = req_hdr;
    done = 1'b0;

    unique case (state_q)
      StIdle: begin
        osif_o.out_valid = req_i.valid;
        if (req_i.valid) begin
          cmd_d = req_i.cmd;
          nargs_d = NargsWidth'(req_i.nargs);
          nres_max_d = NresWidth'(req_i.nresults);
          arg_idx_d = '0;
        end
        if (out_fire) begin
          if (req_i.nargs != '0) begin
            state_d = StSendArgs;
          end else if (req_i.cmd == weft_osif_pkg::CmdThreadExit) begin
            state_d = StExited;
          end else begin
            state_d = StWaitHdr;
          end
        end
      end

      StSendArgs: begin
        osif_o.out_valid = 1'b1;
        osif_o.out_data = args_i[32*arg_idx_q +: 32];
        if (out_fire) begin
          arg_idx_d = arg_idx_q + 1'b1;
          if (arg_idx_q + 1'b1 == nargs_q) begin
            state_d = (cmd_q == weft_osif_pkg::CmdThreadExit) ? StExited : StWaitHdr;
          end
        end
      end

      StWaitHdr: begin
        osif_o.in_ready = 1'b1;
        if (in_fire) begin
          hdr_d = osif_i.in_data;
          remain_d = in_nwords;
          nres_d = '0;
          err_d = (in_cmd != cmd_q) || (in_nwords > 16'(nres_max_q));
          state_d = (in_nwords == '0) ? StDone : StWaitData;
        end
      end

      StWaitData: begin
        osif_o.in_ready = 1'b1;
        if (in_fire) begin
          // Store the word while there is room and the caller accepts it; drop extras.
          if ((nres_q < nres_max_q) && (32'(nres_q) < MaxResults)) begin
            results_d[32*nres_q +: 32] = osif_i.in_data;
            nres_d = nres_q + 1'b1;
          end
          remain_d = remain_q - 16'd1;
          if (remain_q == 16'd1) begin
            state_d = StDone;
          end
        end
      end

      StDone: begin
        done = 1'b1;
        state_d = StIdle;
      end

      StExited: begin
        // THREAD_EXIT never completes: blocked for good, anything received is dropped.
        osif_o.in_ready = 1'b1;
      end

      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      arg_idx_q <= '0;
      cmd_q <= '0;
      nargs_q <= '0;
      nres_max_q <= '0;
      remain_q <= '0;
      nres_q <= '0;
      results_q <= '0;
      hdr_q <= '0;
      err_q <= 1'b0;
    end else begin
      state_q <= state_d;
      arg_idx_q <= arg_idx_d;
      cmd_q <= cmd_d;
      nargs_q <= nargs_d;
      nres_max_q <= nres_max_d;
      remain_q <= remain_d;
      nres_q <= nres_d;
      results_q <= results_d;
      hdr_q <= hdr_d;
      err_q <= err_d;
    end
  end

  logic [7:0] status;
  assign status = err_q ? weft_osif_pkg::StatusInternal
                        : hdr_q[weft_osif_pkg::RespStatusMsb:weft_osif_pkg::RespStatusLsb];
  assign rsp_o.done = done;
  assign rsp_o.ok = (status == weft_osif_pkg::StatusOk);
  assign rsp_o.status = status;
  assign rsp_o.err = err_q;
  assign rsp_o.hdr = hdr_q;
  assign rsp_o.nresults = 16'(nres_q);
  assign rsp_o.busy = (state_q != StIdle) || req_i.valid;
  assign results_o = results_q;

  // Elaboration-time parameter checks.
  if (MaxArgs < 1 || MaxArgs > weft_osif_pkg::OsifMaxArgs) begin : gen_check_max_args
    $error("weft_osif_call: MaxArgs must be 1..OsifMaxArgs (a header's nargs holds no more)");
  end
  if (MaxResults < 1 || MaxResults > 65535) begin : gen_check_max_results
    $error("weft_osif_call: MaxResults must be 1..65535");
  end

`ifndef SYNTHESIS
  // The caller keeps the request stable while the call is in progress.
  ReqStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (state_q == StSendArgs) |-> (req_i.valid && req_i.cmd == cmd_q &&
                                   NargsWidth'(req_i.nargs) == nargs_q))
    else $error("weft_osif_call: request changed while it was being sent");
  NargsInRange_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      req_i.valid |-> (32'(req_i.nargs) <= MaxArgs && 32'(req_i.nresults) <= MaxResults))
    else $error("weft_osif_call: nargs or nresults larger than MaxArgs or MaxResults");
`endif

endmodule

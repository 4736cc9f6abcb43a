// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_link_router: serves a slot's mailbox calls on hardware links in the static region,
// without the CPU, and passes every other OS call through to software.
//
// It sits on the slot's OSIF streams: between the thread's requests (out_*) and the
// HW2SW FIFO (sw_push_o), and between the SW2HW FIFO (sw_valid_i/sw_pop_o) and the
// thread's responses (in_*). It follows the request framing (a header, then its nargs
// argument words). A header whose handle is enabled in a binding (bind_i: the slot's
// LINK_BIND registers) and whose command is a well-formed mailbox call in the link's
// direction is served here:
//
//   put side (the slot is the link's source, TxMask):  MBOX_PUT, MBOX_TRYPUT,
//     MBOX_TIMEDPUT, MBOX_PUT_BURST, MBOX_TIMEDPUT_BURST
//   get side (the slot is the link's destination, RxMask):  MBOX_GET, MBOX_TRYGET,
//     MBOX_TIMEDGET, MBOX_GET_BURST, MBOX_TIMEDGET_BURST
//
// with the argument counts protocol/osif.yaml gives (a burst put: 1..OsifMaxArgs words).
// Anything else, including a mailbox call with a wrong argument count or the wrong
// direction, goes to software, whose delegate answers it (BADARGS, PERM), so a thread
// gets the same answers whichever way its handle is bound.
//
// Semantics, as the delegate's: a call that cannot go on now blocks; a try call answers
// AGAIN; a pending signal (signal_i, CONTROL.SIGNAL) answers CANCELED and a passed timeout
// TIMEDOUT, but only while the call cannot go on. Timeouts count microseconds of ClockMhz
// fabric cycles. A burst put takes its words straight from the thread into the link and a
// burst get streams them out, one word per cycle while the link allows. A burst that has
// moved words and is then ended while it waits is answered OK with a burst_end word that
// says CANCELED or TIMEDOUT and how many words moved: a put drops the rest of its request
// words, a get sends 0 words for the rest of its count before burst_end.
//
// Boundary rule 1: out_ready_o, in_valid_o and in_data_o are functions of registers only
// (this module's state, the link FIFO's state, the HW2SW/SW2HW FIFOs' state).
module weft_link_router #(
  /// Link bindings of the slot (LINK_BIND registers); 0 disables the router.
  parameter int unsigned NumBinds = 4,
  /// Width of a link index.
  parameter int unsigned LinkW = 5,
  /// Links the slot may put into (it is their source).
  parameter logic [(1<<LinkW)-1:0] TxMask = '0,
  /// Links the slot may get from (it is their destination).
  parameter logic [(1<<LinkW)-1:0] RxMask = '0,
  /// Fabric cycles per microsecond, for timed calls.
  parameter int unsigned ClockMhz = 100,
  /// Binding registers (derived; at least one so the port has a width).
  localparam int unsigned BindRegs = (NumBinds > 0) ? NumBinds : 1
) (
  /// Fabric clock.
  input  logic                  clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic                  rst_ni,
  /// Synchronous clear of every call in progress (the slot is held in reset).
  input  logic                  flush_i,
  /// A signal is pending for the thread (CONTROL.SIGNAL).
  input  logic                  signal_i,
  /// LINK_BIND registers: [31] enable, [20:16] link, [15:0] handle.
  input  logic [BindRegs*32-1:0] bind_i,

  // ---- the thread's OSIF streams (already decoupled by the caller) ----
  /// Request word from the thread.
  input  logic [31:0]           out_data_i,
  /// Request word valid.
  input  logic                  out_valid_i,
  /// The request word is taken.
  output logic                  out_ready_o,
  /// Response word towards the thread.
  output logic [31:0]           in_data_o,
  /// Response word valid.
  output logic                  in_valid_o,
  /// The thread takes the response word.
  input  logic                  in_ready_i,

  // ---- software side ----
  /// HW2SW can take a word (and the write fence allows it).
  input  logic                  sw_ready_i,
  /// Push the request word into HW2SW.
  output logic                  sw_push_o,
  /// SW2HW holds a response word.
  input  logic                  sw_valid_i,
  /// Oldest SW2HW word.
  input  logic [31:0]           sw_data_i,
  /// Pop SW2HW (the thread took its word).
  output logic                  sw_pop_o,

  // ---- the link in use (selected in weft_static by link_o) ----
  /// Index of the link a call in progress uses (registered).
  output logic [LinkW-1:0]      link_o,
  /// Push link_wdata_o into the link.
  output logic                  link_push_o,
  /// Word to push.
  output logic [31:0]           link_wdata_o,
  /// Pop the link's oldest word.
  output logic                  link_pop_o,
  /// The selected link is full.
  input  logic                  link_full_i,
  /// The selected link is empty.
  input  logic                  link_empty_i,
  /// The selected link's oldest word.
  input  logic [31:0]           link_rdata_i,

  // ---- status ----
  /// One-cycle pulse: a call served here completed (its response was taken).
  output logic                  call_done_o,
  /// Nothing here can move without another slot or software acting: idle, or blocked on
  /// a link with no timeout and no signal (a burst put on a full link included, once its
  /// first word moved or when neither may end it).
  output logic                  quiet_o,
  /// The next edge changes no register here (a simulator hint, docs/architecture.md,
  /// "Holding"); 0 whenever unsure.
  output logic                  still_o
);

  localparam int unsigned MaxArgs = weft_osif_pkg::OsifMaxArgs;
  // Signed copy for loop bounds: a loop to 0 bindings would compare unsigned < 0.
  localparam int NumBindsSigned = NumBinds;
  localparam int unsigned PreW = (ClockMhz > 1) ? $clog2(ClockMhz) : 1;

  typedef enum logic [3:0] {
    RtPass,      // not serving a call; software requests pass through
    RtArgs,      // taking the call's fixed argument words
    RtWaitPut,   // single put: waiting for room
    RtWaitGet,   // single get or burst get: waiting for a word
    RtBurstPut,  // burst put: moving the thread's words into the link
    RtDiscard,   // burst put ended early: dropping the rest of its words
    RtResp,      // sending the response header
    RtRespWord,  // sending the single get's word
    RtBurstGet,  // burst get: streaming words from the link to the thread
    RtPad,       // burst get ended early: 0 words for the rest of its count
    RtEnd        // a started burst's burst_end word
  } state_e;

  state_e      state_q;
  logic [15:0] pass_left_q;  // argument words of a forwarded request to pass
  logic [7:0]  cmd_q;
  logic        put_q, burst_q, try_q, timed_q;
  logic [15:0] fixed_q;      // fixed argument words of the call
  logic [15:0] argi_q;       // fixed argument words taken so far
  logic [15:0] cnt_q;        // burst words still to move (or to drop or pad)
  logic [15:0] moved_q;      // burst words moved
  logic [7:0]  end_q;        // how a started burst ended: its burst_end status
  logic [31:0] val_q;        // single put: the value; single get: the word
  logic [31:0] tmo_q;        // microseconds left
  logic [PreW-1:0] pre_q;    // cycles into the current microsecond
  logic [7:0]  status_q;
  logic [LinkW-1:0] link_q;

  // ---- header classification (of the word the thread offers) ----
  // Decoded only in a cycle where a request header is offered: Verilator evaluates this
  // logic, which reads a model input, at every eval() (docs/architecture.md).
  logic        hdr_now;
  assign hdr_now = (state_q == RtPass) && out_valid_i && (pass_left_q == '0);

  logic [7:0]  h_cmd;
  logic [15:0] h_handle, h_nargs;
  assign h_cmd    = out_data_i[weft_osif_pkg::ReqCmdMsb:weft_osif_pkg::ReqCmdLsb];
  assign h_handle = out_data_i[weft_osif_pkg::ReqHandleMsb:weft_osif_pkg::ReqHandleLsb];
  assign h_nargs  = 16'(out_data_i[weft_osif_pkg::ReqNargsMsb:weft_osif_pkg::ReqNargsLsb]);

  logic             h_bound;
  logic [LinkW-1:0] h_link;
  always_comb begin
    h_bound = 1'b0;
    h_link  = '0;
    for (int b = 0; b < NumBindsSigned; b++) begin
      if (hdr_now && !h_bound && bind_i[b*32 + 31] && (bind_i[b*32 +: 16] == h_handle)) begin
        h_bound = 1'b1;
        h_link  = bind_i[b*32 + 16 +: LinkW];
      end
    end
  end

  // What the header asks for, if it is a link call; h_fixed is its fixed argument count.
  logic        h_put, h_get, h_ok, h_burst, h_try, h_timed;
  logic [15:0] h_fixed;
  always_comb begin
    h_put = 1'b0;
    h_get = 1'b0;
    h_burst = 1'b0;
    h_try = 1'b0;
    h_timed = 1'b0;
    h_fixed = '0;
    h_ok = 1'b0;
    if (hdr_now) unique case (h_cmd)
      weft_osif_pkg::CmdMboxPut: begin
        h_put = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxPutNargs);
        h_ok = (h_nargs == h_fixed);
      end
      weft_osif_pkg::CmdMboxTryput: begin
        h_put = 1'b1;
        h_try = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxTryputNargs);
        h_ok = (h_nargs == h_fixed);
      end
      weft_osif_pkg::CmdMboxTimedput: begin
        h_put = 1'b1;
        h_timed = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxTimedputNargs);
        h_ok = (h_nargs == h_fixed);
      end
      weft_osif_pkg::CmdMboxPutBurst: begin
        h_put = 1'b1;
        h_burst = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxPutBurstNargs);
        h_ok = (h_nargs > h_fixed) && (32'(h_nargs) <= MaxArgs);
      end
      weft_osif_pkg::CmdMboxTimedputBurst: begin
        h_put = 1'b1;
        h_burst = 1'b1;
        h_timed = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxTimedputBurstNargs);
        h_ok = (h_nargs > h_fixed) && (32'(h_nargs) <= MaxArgs);
      end
      weft_osif_pkg::CmdMboxGet: begin
        h_get = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxGetNargs);
        h_ok = (h_nargs == h_fixed);
      end
      weft_osif_pkg::CmdMboxTryget: begin
        h_get = 1'b1;
        h_try = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxTrygetNargs);
        h_ok = (h_nargs == h_fixed);
      end
      weft_osif_pkg::CmdMboxTimedget: begin
        h_get = 1'b1;
        h_timed = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxTimedgetNargs);
        h_ok = (h_nargs == h_fixed);
      end
      weft_osif_pkg::CmdMboxGetBurst: begin
        h_get = 1'b1;
        h_burst = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxGetBurstNargs);
        h_ok = (h_nargs == h_fixed);
      end
      weft_osif_pkg::CmdMboxTimedgetBurst: begin
        h_get = 1'b1;
        h_burst = 1'b1;
        h_timed = 1'b1;
        h_fixed = 16'(weft_osif_pkg::CmdMboxTimedgetBurstNargs);
        h_ok = (h_nargs == h_fixed);
      end
      default: ;
    endcase
  end

  logic h_local;
  assign h_local = h_bound && h_ok && ((h_put && TxMask[h_link]) || (h_get && RxMask[h_link]));

  // ---- timeout: microseconds of ClockMhz cycles, counted only while waiting ----
  logic expired, tick;
  assign expired = timed_q && (tmo_q == '0);
  assign tick    = (32'(pre_q) == ClockMhz - 1);

  // A waiting single call or burst get can go on: room to put, or a word to get.
  logic can_go;
  assign can_go = put_q ? !link_full_i : !link_empty_i;

  logic out_fire, in_fire;
  // A burst get's count argument is 0 or too large: the word taken now in RtArgs when it
  // is the count, else what was recorded when the count was taken.
  logic cnt_bad_q, cnt_word, cnt_bad;
  assign cnt_word = burst_q && !(timed_q && (argi_q + 16'd1 == fixed_q));
  assign cnt_bad  = cnt_word ? ((out_data_i == '0) || (out_data_i > 32'(MaxArgs))) : cnt_bad_q;
  assign out_fire = out_valid_i && out_ready_o;
  assign in_fire  = in_valid_o && in_ready_i;

  // Outputs towards the thread: registers only.
  always_comb begin
    out_ready_o = 1'b0;
    in_valid_o  = 1'b0;
    in_data_o   = sw_data_i;
    unique case (state_q)
      RtPass: begin
        out_ready_o = sw_ready_i;
        in_valid_o  = sw_valid_i;
      end
      RtArgs, RtDiscard: out_ready_o = 1'b1;
      RtBurstPut: out_ready_o = !link_full_i;
      RtResp: begin
        in_valid_o = 1'b1;
        in_data_o  = weft_osif_pkg::resp_header(cmd_q, status_q,
                              (status_q != weft_osif_pkg::StatusOk) ? 16'd0 :
                              put_q ? (burst_q ? 16'd1 : 16'd0) :
                              (burst_q ? cnt_q + 16'd1 : 16'd1));
      end
      RtRespWord: begin
        in_valid_o = 1'b1;
        in_data_o  = val_q;
      end
      RtBurstGet: begin
        in_valid_o = !link_empty_i;
        in_data_o  = link_rdata_i;
      end
      RtPad: begin
        in_valid_o = 1'b1;
        in_data_o  = '0;
      end
      RtEnd: begin
        in_valid_o = 1'b1;
        in_data_o  = weft_osif_pkg::burst_end(end_q, moved_q);
      end
      default: ;
    endcase
  end

  assign sw_push_o = (state_q == RtPass) && out_fire &&
                     ((pass_left_q != '0) || !h_local);
  assign sw_pop_o  = (state_q == RtPass) && in_fire;
  assign link_o    = link_q;

  // What moves on the link and whether a call ends in this cycle.
  always_comb begin
    link_push_o  = 1'b0;
    link_wdata_o = val_q;
    link_pop_o   = 1'b0;
    call_done_o  = 1'b0;
    unique case (state_q)
      RtWaitPut, RtWaitGet: begin
        if (can_go) begin
          link_push_o = put_q;
          link_pop_o  = !put_q && !burst_q;
        end
      end
      RtBurstPut: begin
        link_push_o  = out_fire;
        link_wdata_o = out_data_i;
      end
      RtResp: call_done_o = in_fire && (status_q != weft_osif_pkg::StatusOk ||
                                        (put_q && !burst_q));
      RtRespWord, RtEnd: call_done_o = in_fire;
      RtBurstGet: link_pop_o = in_fire;
      default: ;
    endcase
  end

  // Next state, at the edge. A flush (the slot held in reset) ends any call.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= RtPass;
      pass_left_q <= '0;
      cmd_q       <= '0;
      put_q       <= 1'b0;
      burst_q     <= 1'b0;
      try_q       <= 1'b0;
      timed_q     <= 1'b0;
      fixed_q     <= '0;
      argi_q      <= '0;
      cnt_q       <= '0;
      cnt_bad_q   <= 1'b0;
      moved_q     <= '0;
      end_q       <= '0;
      val_q       <= '0;
      tmo_q       <= '0;
      pre_q       <= '0;
      status_q    <= '0;
      link_q      <= '0;
    end else begin
      // The timeout runs while the call is served here: in the waiting states and through
      // a burst (whose word moves do not wait for it).
      if ((state_q == RtWaitPut || state_q == RtWaitGet || state_q == RtBurstPut ||
           state_q == RtBurstGet) && timed_q && !expired) begin
        pre_q <= tick ? '0 : pre_q + 1'b1;
        if (tick) begin
          tmo_q <= tmo_q - 32'd1;
        end
      end

      unique case (state_q)
        RtPass: begin
          if (out_fire) begin
            if (pass_left_q != '0) begin
              pass_left_q <= pass_left_q - 16'd1;
            end else if (!h_local) begin
              pass_left_q <= h_nargs;
            end else begin
              cmd_q     <= h_cmd;
              put_q     <= h_put;
              burst_q   <= h_burst;
              try_q     <= h_try;
              timed_q   <= h_timed;
              fixed_q   <= h_fixed;
              link_q    <= h_link;
              argi_q    <= '0;
              moved_q   <= '0;
              end_q     <= weft_osif_pkg::StatusOk;
              cnt_bad_q <= 1'b0;
              tmo_q     <= '0;
              pre_q     <= '0;
              cnt_q     <= h_nargs - h_fixed;  // burst put: its words
              if (h_fixed != '0) begin
                state_q <= RtArgs;
              end else if (h_put) begin
                state_q <= RtBurstPut;         // MBOX_PUT_BURST: words follow at once
              end else begin
                state_q <= RtWaitGet;          // MBOX_GET, MBOX_TRYGET
              end
            end
          end
        end

        // Fixed arguments, in protocol order: a single put's value or a burst get's count
        // first; the timeout is the last fixed argument of a timed call.
        RtArgs: begin
          if (out_fire) begin
            argi_q <= argi_q + 16'd1;
            if (timed_q && (argi_q + 16'd1 == fixed_q)) begin
              tmo_q <= out_data_i;
            end else if (burst_q) begin
              cnt_q     <= out_data_i[15:0];
              cnt_bad_q <= cnt_bad;
            end else begin
              val_q <= out_data_i;
            end
            if (argi_q + 16'd1 == fixed_q) begin
              status_q <= weft_osif_pkg::StatusOk;
              if (put_q) begin
                state_q <= burst_q ? RtBurstPut : RtWaitPut;
              end else if (burst_q && cnt_bad) begin
                status_q <= weft_osif_pkg::StatusBadargs;
                state_q  <= RtResp;
              end else begin
                state_q <= RtWaitGet;
              end
            end
          end
        end

        // A single call's wait, and a burst get's wait for its first word: go on when the
        // link allows, else answer AGAIN, CANCELED or TIMEDOUT when one applies.
        RtWaitPut, RtWaitGet: begin
          if (can_go) begin
            status_q <= weft_osif_pkg::StatusOk;
            state_q  <= RtResp;
            if (!put_q && !burst_q) begin
              val_q <= link_rdata_i;
            end
          end else if (try_q || signal_i || expired) begin
            status_q <= try_q ? weft_osif_pkg::StatusAgain :
                        signal_i ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
            state_q  <= RtResp;
          end
        end

        // A burst put ended while it waits for room drops the rest of its words: before
        // its first word moved the header says why, after it burst_end does.
        RtBurstPut: begin
          if (out_fire) begin
            moved_q   <= moved_q + 16'd1;
            cnt_q     <= cnt_q - 16'd1;
            if (cnt_q == 16'd1) begin
              status_q <= weft_osif_pkg::StatusOk;
              state_q  <= RtResp;
            end
          end else if (link_full_i && (signal_i || expired)) begin
            if (moved_q != '0) begin  // a word moved: burst_end says how it ended
              status_q <= weft_osif_pkg::StatusOk;
              end_q    <= signal_i ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
            end else begin
              status_q <= signal_i ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
            end
            state_q <= RtDiscard;
          end
        end

        RtDiscard: begin
          if (out_fire) begin
            cnt_q <= cnt_q - 16'd1;
            if (cnt_q == 16'd1) begin
              state_q <= RtResp;
            end
          end
        end

        RtResp: begin
          if (in_fire) begin
            if (status_q != weft_osif_pkg::StatusOk) begin
              state_q <= RtPass;
            end else if (burst_q) begin
              state_q <= put_q ? RtEnd : RtBurstGet;
            end else begin
              state_q <= put_q ? RtPass : RtRespWord;
            end
          end
        end

        RtRespWord, RtEnd: begin
          if (in_fire) begin
            state_q <= RtPass;
          end
        end

        // A burst get ended while it waits for a word sends 0 words for the rest of its
        // count, then burst_end.
        RtBurstGet: begin
          if (in_fire) begin
            moved_q <= moved_q + 16'd1;
            cnt_q   <= cnt_q - 16'd1;
            if (cnt_q == 16'd1) begin
              state_q <= RtEnd;
            end
          end else if (link_empty_i && (signal_i || expired)) begin
            end_q   <= signal_i ? weft_osif_pkg::StatusCanceled : weft_osif_pkg::StatusTimedout;
            state_q <= RtPad;
          end
        end

        RtPad: begin
          if (in_fire) begin
            cnt_q <= cnt_q - 16'd1;
            if (cnt_q == 16'd1) begin
              state_q <= RtEnd;
            end
          end
        end

        default: state_q <= RtPass;
      endcase

      if (flush_i) begin
        state_q     <= RtPass;
        pass_left_q <= '0;
      end
    end
  end

  // Blocked for good until another slot moves the link: no timeout, no signal, no try.
  always_comb begin
    unique case (state_q)
      RtPass:     quiet_o = 1'b1;
      RtWaitPut, RtWaitGet: quiet_o = !can_go && !try_q && !timed_q && !signal_i;
      RtBurstPut: quiet_o = link_full_i && !timed_q && !signal_i;
      RtBurstGet: quiet_o = link_empty_i && !timed_q && !signal_i;
      default:    quiet_o = 1'b0;
    endcase
  end

  // Still: no handshake that moves the state machine, no timeout counting, no flush to
  // do. Conservative: a timed burst is never still.
  always_comb begin
    unique case (state_q)
      RtPass, RtArgs, RtDiscard: still_o = !out_fire;
      RtWaitPut, RtWaitGet: still_o = !can_go && !try_q && !timed_q && !signal_i;
      RtBurstPut: still_o = !out_fire && !timed_q && !(signal_i && link_full_i);
      RtBurstGet: still_o = !in_fire && !timed_q && !(signal_i && link_empty_i);
      RtResp, RtRespWord, RtPad, RtEnd: still_o = !in_fire;
      default: still_o = 1'b0;
    endcase
    if (flush_i && (state_q != RtPass || pass_left_q != '0)) begin
      still_o = 1'b0;
    end
  end

`ifndef SYNTHESIS
  StillMeansStable_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      still_o |=> $stable({state_q, pass_left_q, cmd_q, put_q, burst_q, try_q, timed_q,
                           fixed_q, argi_q, cnt_q, cnt_bad_q, moved_q, end_q, val_q,
                           tmo_q, pre_q, status_q, link_q}));
  if (NumBinds > 8) begin : gen_binds_check
    $error("weft_link_router: at most 8 bindings (LINK_BIND registers)");
  end
  if (ClockMhz < 1) begin : gen_clock_check
    $error("weft_link_router: ClockMhz must be at least 1");
  end
  PushNotFull_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      link_push_o |-> !link_full_i);
  PopNotEmpty_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      link_pop_o |-> !link_empty_i);
  PushOnlyToTxLinks_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      link_push_o |-> TxMask[link_q]);
  PopOnlyFromRxLinks_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      link_pop_o |-> RxMask[link_q]);
`endif

endmodule

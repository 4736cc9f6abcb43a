// hwt_task: small compute kernels run as hardware tasks on demand, for the
// reconfiguration example and tests (apps/reconf, docs/reconfiguration.md). Each kernel
// is its own image (the Op parameter), so running another one in a slot means
// programming it; each has a software reference in apps/reconf/task_reference.c.
//
// The thread takes its argument n with GET_INIT_DATA, computes for about n cycles (one
// step a cycle) and ends with THREAD_EXIT and the result:
//   Op 0 sumsq     sum of i*i for i = 1..n, mod 2^32
//   Op 1 collatz   steps of x -> x/2 or 3x+1 from n until 1 (n = 0 counts as 1)
//   Op 2 fib       F(n) mod 2^32 (F(0) = 0, F(1) = 1)
//   Op 3 popsum    sum of popcount(i) for i = 0..n-1
//   Op 4 xorshift  n steps of xorshift32 (13, 17, 5) from 0x9E3779B9
// An OS call that fails ends the thread with ExitOsError.
module hwt_task #(
  /// The kernel (above).
  parameter int unsigned Op = 0
) (
  `include "weft_slot_ports.svh"
);

  /// Exit value when GET_INIT_DATA failed.
  localparam logic [31:0] ExitOsError = 32'hFFFF_FFFE;

  typedef enum logic [1:0] {
    StInit,  // GET_INIT_DATA
    StRun,   // one step a cycle
    StExit   // THREAD_EXIT (never completes)
  } state_e;

  state_e      state_q;
  logic [31:0] n_q, i_q, acc_q, aux_q;

  weft_hwt_pkg::call_req_t call;
  weft_hwt_pkg::call_rsp_t call_rsp;
  logic [31:0] call_args, call_result;

  weft_osif_call #(.MaxArgs(1), .MaxResults(1)) u_call (
    .clk_i, .rst_ni, .req_i(call), .args_i(call_args), .rsp_o(call_rsp),
    .results_o(call_result), .osif_i(slot_i.osif), .osif_o(slot_o.osif));

  // The thread never touches memory.
  assign slot_o.mem = '0;
  logic unused_mem;
  assign unused_mem = ^slot_i.mem;

  always_comb begin
    call = '0;
    call.nresults = 16'd1;
    call_args = acc_q;
    if (state_q == StInit) begin
      call.valid = 1'b1;
      call.cmd = weft_osif_pkg::CmdGetInitData;
    end else if (state_q == StExit) begin
      call.valid = 1'b1;
      call.cmd = weft_osif_pkg::CmdThreadExit;
      call.nargs = 16'd1;
      call.nresults = 16'd0;
    end
  end

  // One step of the kernel; done when the result is in acc_q.
  logic        done;
  logic [31:0] acc_d, aux_d, x;
  always_comb begin
    acc_d = acc_q;
    aux_d = aux_q;
    x = acc_q;
    done = 1'b0;
    unique case (Op)
      0: begin
        done = (i_q == n_q);
        acc_d = acc_q + (i_q + 32'd1) * (i_q + 32'd1);
      end
      1: begin  // aux: x, acc: steps
        done = (aux_q <= 32'd1);
        aux_d = aux_q[0] ? aux_q * 32'd3 + 32'd1 : aux_q >> 1;
        acc_d = acc_q + 32'd1;
      end
      2: begin  // acc: F(i), aux: F(i+1)
        done = (i_q == n_q);
        acc_d = aux_q;
        aux_d = acc_q + aux_q;
      end
      3: begin
        done = (i_q == n_q);
        acc_d = acc_q + 32'($countones(i_q));
      end
      default: begin
        done = (i_q == n_q);
        x = x ^ (x << 13);
        x = x ^ (x >> 17);
        x = x ^ (x << 5);
        acc_d = x;
      end
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StInit;
      n_q     <= '0;
      i_q     <= '0;
      acc_q   <= '0;
      aux_q   <= '0;
    end else begin
      unique case (state_q)
        StInit: if (call_rsp.done) begin
          if (!call_rsp.ok) begin
            acc_q   <= ExitOsError;
            state_q <= StExit;
          end else begin
            n_q     <= call_result;
            i_q     <= '0;
            acc_q   <= (Op == 4) ? 32'h9E37_79B9 : '0;
            aux_q   <= (Op == 1) ? call_result : (Op == 2) ? 32'd1 : '0;
            state_q <= StRun;
          end
        end
        StRun: begin
          if (done) begin
            state_q <= StExit;
          end else begin
            acc_q <= acc_d;
            aux_q <= aux_d;
            i_q   <= i_q + 32'd1;
          end
        end
        default: ;
      endcase
    end
  end

  logic unused_call;
  assign unused_call = ^{call_rsp, call_result};

  `include "weft_no_regs.svh"

endmodule

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_div: DIV, DIVU, REM and REMU for the softcore, one quotient bit a cycle on the
// operands' magnitudes (restoring division), so a division always takes 34 cycles from
// start_i to the cycle done_o is high: the same for every operand, which keeps the
// core's timing independent of data. Division by zero and the one overflowing case give
// the values the M extension defines (quotient all ones and remainder the dividend;
// quotient -2^31 and remainder 0) without a special path: only the quotient's sign
// correction is skipped when the divisor is zero.
module weft_rv_div (
  input  logic        clk_i,
  input  logic        rst_ni,
  /// Takes the operands (ignored while busy_o).
  input  logic        start_i,
  /// DIV/REM (signed) rather than DIVU/REMU.
  input  logic        signed_i,
  /// The remainder rather than the quotient.
  input  logic        rem_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  /// A division is in progress or its result is out.
  output logic        busy_o,
  /// One cycle: result_o is the answer.
  output logic        done_o,
  output logic [31:0] result_o
);

  logic        run_q, done_q, rem_q, neg_quo_q, neg_rem_q;
  logic [5:0]  count_q;
  logic [31:0] quo_q, den_q;
  logic [31:0] rem_acc_q;

  logic        a_neg, b_neg;
  logic [32:0] trial;
  assign a_neg = signed_i && a_i[31];
  assign b_neg = signed_i && b_i[31];
  // The partial remainder with the next dividend bit shifted in, less the divisor.
  assign trial = {rem_acc_q, quo_q[31]} - {1'b0, den_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q     <= 1'b0;
      done_q    <= 1'b0;
      rem_q     <= 1'b0;
      neg_quo_q <= 1'b0;
      neg_rem_q <= 1'b0;
      count_q   <= '0;
      quo_q     <= '0;
      den_q     <= '0;
      rem_acc_q <= '0;
    end else begin
      done_q <= 1'b0;
      if (start_i && !busy_o) begin
        run_q     <= 1'b1;
        count_q   <= 6'd32;
        rem_q     <= rem_i;
        neg_quo_q <= (a_neg ^ b_neg) && (b_i != 32'd0);
        neg_rem_q <= a_neg;
        quo_q     <= a_neg ? -a_i : a_i;
        den_q     <= b_neg ? -b_i : b_i;
        rem_acc_q <= '0;
      end else if (run_q) begin
        // quo_q shifts the dividend out at the top and the quotient in at the bottom.
        if (!trial[32]) begin
          rem_acc_q <= trial[31:0];
          quo_q     <= {quo_q[30:0], 1'b1};
        end else begin
          rem_acc_q <= {rem_acc_q[30:0], quo_q[31]};
          quo_q     <= {quo_q[30:0], 1'b0};
        end
        count_q <= count_q - 6'd1;
        if (count_q == 6'd1) begin
          run_q  <= 1'b0;
          done_q <= 1'b1;
        end
      end
    end
  end

  assign busy_o   = run_q || done_q;
  assign done_o   = done_q;
  assign result_o = rem_q ? (neg_rem_q ? -rem_acc_q : rem_acc_q)
                          : (neg_quo_q ? -quo_q : quo_q);

endmodule

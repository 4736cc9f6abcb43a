// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rr_arbiter: round-robin arbiter with a one-hot grant.
//
// Protocol: gnt_o is one-hot (or zero when no request is raised) and a pure function of
// req_i and the priority register. The requester just served loses priority when
// advance_i is high in the same cycle as its grant: the search for the next grant then
// starts at the requester after it, so every requester that keeps its request raised is
// served at most NumReq grants later. While advance_i is low the priority stays put.
module weft_rr_arbiter #(
  /// Number of requesters (at least 1).
  parameter int unsigned NumReq = 4
) (
  /// Fabric clock.
  input  logic              clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic              rst_ni,
  /// Request per requester.
  input  logic [NumReq-1:0] req_i,
  /// The current grant is taken: rotate the priority past it.
  input  logic              advance_i,
  /// One-hot grant (zero when no request).
  output logic [NumReq-1:0] gnt_o
);

  // next_q marks, one-hot, the requester with the highest priority.
  logic [NumReq-1:0] next_d, next_q;
  // Requests at or above the priority position, and the double-width search.
  logic [NumReq-1:0] mask;
  logic [NumReq-1:0] req_hi;
  logic [NumReq-1:0] gnt_hi, gnt_lo;

  // mask[i] = 1 for every i at or above the priority position.
  always_comb begin
    mask = '0;
    for (int unsigned i = 0; i < NumReq; i++) begin
      if (i == 0) begin
        mask[i] = next_q[0];
      end else begin
        mask[i] = mask[i-1] | next_q[i];
      end
    end
  end

  assign req_hi = req_i & mask;

  // Lowest requester at or above the priority position, and lowest requester overall.
  always_comb begin
    gnt_hi = '0;
    gnt_lo = '0;
    for (int i = NumReq - 1; i >= 0; i--) begin
      if (req_hi[i]) begin
        gnt_hi = '0;
        gnt_hi[i] = 1'b1;
      end
      if (req_i[i]) begin
        gnt_lo = '0;
        gnt_lo[i] = 1'b1;
      end
    end
  end

  assign gnt_o  = (req_hi != '0) ? gnt_hi : gnt_lo;

  // After a grant to requester g the priority moves to g + 1 (rotate left by one).
  logic [NumReq-1:0] gnt_rot;
  if (NumReq == 1) begin : gen_rot_single
    assign gnt_rot = gnt_o;
  end else begin : gen_rot_multi
    assign gnt_rot = {gnt_o[NumReq-2:0], gnt_o[NumReq-1]};
  end

  assign next_d = (advance_i && (gnt_o != '0)) ? gnt_rot : next_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      next_q <= NumReq'(1);
    end else begin
      next_q <= next_d;
    end
  end

`ifndef SYNTHESIS
  GrantOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(gnt_o));
  GrantOnlyRequested_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (gnt_o & ~req_i) == '0);
  GrantWhenRequested_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (req_i != '0) -> (gnt_o != '0));
  PriorityOneHot_A: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot(next_q));
`endif

endmodule

// hwt_hls: a slot holding one of Weft's HLS-style accelerators unchanged (docs/hls.md),
// joined to the slot by weft_hls_adapter (weft_hls_slot.svh). The Kernel parameter picks
// it, one image each:
//   Kernel 0 hls_vecsum  c = a + b
//   Kernel 1 hls_fir     y = h * x (an FIR filter)
//   Kernel 2 hls_matmul  C = A * B
module hwt_hls #(
  parameter int unsigned Kernel = 0
) (
  `include "weft_slot_ports.svh"
);

  `include "weft_hls_slot.svh"

  if (Kernel == 0) begin : gen_vecsum
    hls_vecsum u_acc (.ap_clk(clk_i), .ap_rst_n(rst_ni), .*);
  end else if (Kernel == 1) begin : gen_fir
    hls_fir u_acc (.ap_clk(clk_i), .ap_rst_n(rst_ni), .*);
  end else begin : gen_matmul
    hls_matmul u_acc (.ap_clk(clk_i), .ap_rst_n(rst_ni), .*);
  end

endmodule

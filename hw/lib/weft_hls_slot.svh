// The body of a slot top that holds an HLS-style accelerator unchanged (docs/hls.md):
// the accelerator's signals and weft_hls_adapter, which joins them to the slot. The top
// then instantiates the accelerator with the slot's clock and reset:
//
//   module hwt_hls_vecsum (
//     `include "weft_slot_ports.svh"
//   );
//     `include "weft_hls_slot.svh"
//     hls_vecsum u_acc (.ap_clk(clk_i), .ap_rst_n(rst_ni), .*);
//   endmodule
`define WEFT_HLS_TO_ACC logic
`define WEFT_HLS_FROM_ACC logic
`define WEFT_HLS_SEP ;
`include "weft_hls_signals.svh"
;
`undef WEFT_HLS_TO_ACC
`undef WEFT_HLS_FROM_ACC
`undef WEFT_HLS_SEP
weft_hls_adapter u_adapter (.*);

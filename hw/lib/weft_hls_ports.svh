// The port list of an HLS-style accelerator (docs/hls.md): the clock and reset, then
// every signal of weft_hls_signals.svh. Include it as the whole port list:
//
//   module hls_vecsum (
//     `include "weft_hls_ports.svh"
//   );
  input logic ap_clk,
  input logic ap_rst_n,
`define WEFT_HLS_TO_ACC input logic
`define WEFT_HLS_FROM_ACC output logic
`define WEFT_HLS_SEP ,
`include "weft_hls_signals.svh"
`undef WEFT_HLS_TO_ACC
`undef WEFT_HLS_FROM_ACC
`undef WEFT_HLS_SEP

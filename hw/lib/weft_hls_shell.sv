// weft_hls_shell: what every one of Weft's HLS-style accelerators has around its kernel
// (docs/hls.md): the ap_ctrl_hs control block (weft_hls_ctrl) and the AXI4 master
// (weft_hls_mem), behind the accelerator's Vitis HLS ports. The kernel sees them as
// weft_hls_pkg's kreq_t/krsp_t; the master counts each transfer's words for it (rd_index,
// rd_last, wr_index, wr_done), so a kernel only starts a transfer and moves its words:
//
//   module hls_example (`include "weft_hls_ports.svh");
//     weft_hls_pkg::kreq_t k;
//     weft_hls_pkg::krsp_t kr;
//     weft_hls_shell #(.NumArgs(4)) u_shell (.k_i(k), .k_o(kr), .*);
//     ...
module weft_hls_shell #(
  /// Arguments the control block holds (1 .. weft_hls_pkg::MaxArgs).
  parameter int unsigned NumArgs = 4
) (
  `include "weft_hls_ports.svh"
  ,
  input  weft_hls_pkg::kreq_t k_i,
  output weft_hls_pkg::krsp_t k_o
);

  logic [NumArgs*64-1:0] args;
  weft_hls_ctrl #(.NumArgs(NumArgs)) u_ctrl (
    .start_o(k_o.start), .done_i(k_i.done), .args_o(args), .*);
  assign k_o.args = (weft_hls_pkg::MaxArgs*64)'(args);

  weft_hls_mem u_mem (
    .k_i, .rd_data_o(k_o.rd_data), .rd_valid_o(k_o.rd_valid), .rd_index_o(k_o.rd_index),
    .rd_last_o(k_o.rd_last), .wr_index_o(k_o.wr_index), .wr_done_o(k_o.wr_done), .*);

endmodule

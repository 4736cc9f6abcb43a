// The signals of an HLS-style accelerator (docs/hls.md): Vitis HLS names for the
// ap_ctrl_hs control block on an AXI4-Lite slave (s_axi_control, 6-bit addresses), one
// AXI4 master (m_axi_gmem, 64-bit addresses, 32-bit data) and the interrupt. One list,
// three uses, chosen by three macros defined before the include and undefined after:
//
//   WEFT_HLS_TO_ACC    what the accelerator receives ("input logic" in its port list)
//   WEFT_HLS_FROM_ACC  what it drives ("output logic")
//   WEFT_HLS_SEP       "," in a port list, ";" for declarations
//
// weft_hls_ports.svh makes an accelerator's port list of it, weft_hls_adapter.sv the
// mirror image, weft_hls_slot.svh the declarations that join the two. ap_clk and
// ap_rst_n are not in it: the slot's clock and reset go to the accelerator directly (a
// clock passed through another module's output is a different signal to Verilator's
// edge detection, docs/architecture.md, "One evaluation per edge"). The master's
// optional AXI4 signals (IDs, USER, LOCK, CACHE, PROT, QOS, REGION) are not used.
`include "weft_hls_axil_signals.svh"
`WEFT_HLS_SEP
`include "weft_hls_axi_signals.svh"
`WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        interrupt

// The ap_ctrl_hs control block's AXI4-Lite slave of an HLS-style accelerator
// (s_axi_control, 6-bit addresses), in the form weft_hls_signals.svh describes.
// s_axi_control: the control block (AP_CTRL, GIE, IER, ISR, arguments from 0x10)
`WEFT_HLS_TO_ACC          s_axi_control_AWVALID `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        s_axi_control_AWREADY `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC   [5:0]  s_axi_control_AWADDR `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          s_axi_control_WVALID `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        s_axi_control_WREADY `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC   [31:0] s_axi_control_WDATA `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC   [3:0]  s_axi_control_WSTRB `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        s_axi_control_BVALID `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          s_axi_control_BREADY `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [1:0]  s_axi_control_BRESP `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          s_axi_control_ARVALID `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        s_axi_control_ARREADY `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC   [5:0]  s_axi_control_ARADDR `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        s_axi_control_RVALID `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          s_axi_control_RREADY `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [31:0] s_axi_control_RDATA `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [1:0]  s_axi_control_RRESP

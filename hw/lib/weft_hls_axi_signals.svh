// The AXI4 master of an HLS-style accelerator (m_axi_gmem, 64-bit addresses, 32-bit
// data), in the form weft_hls_signals.svh describes.
// m_axi_gmem: the accelerator's memory master
`WEFT_HLS_FROM_ACC        m_axi_gmem_AWVALID `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          m_axi_gmem_AWREADY `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [63:0] m_axi_gmem_AWADDR `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [7:0]  m_axi_gmem_AWLEN `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [2:0]  m_axi_gmem_AWSIZE `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [1:0]  m_axi_gmem_AWBURST `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        m_axi_gmem_WVALID `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          m_axi_gmem_WREADY `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [31:0] m_axi_gmem_WDATA `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [3:0]  m_axi_gmem_WSTRB `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        m_axi_gmem_WLAST `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          m_axi_gmem_BVALID `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        m_axi_gmem_BREADY `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC   [1:0]  m_axi_gmem_BRESP `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        m_axi_gmem_ARVALID `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          m_axi_gmem_ARREADY `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [63:0] m_axi_gmem_ARADDR `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [7:0]  m_axi_gmem_ARLEN `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [2:0]  m_axi_gmem_ARSIZE `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC [1:0]  m_axi_gmem_ARBURST `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          m_axi_gmem_RVALID `WEFT_HLS_SEP
`WEFT_HLS_FROM_ACC        m_axi_gmem_RREADY `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC   [31:0] m_axi_gmem_RDATA `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC          m_axi_gmem_RLAST `WEFT_HLS_SEP
`WEFT_HLS_TO_ACC   [1:0]  m_axi_gmem_RRESP

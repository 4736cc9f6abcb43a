// The AXI4 master port that carries every slot's memory traffic (32-bit data, INCR
// bursts, no IDs), as a port list to include: in weft_static, which exposes it, and in
// weft_memif_master, which drives it. Its last port has a trailing comma,
// so at least one more port follows it.
  /// Write address.
  output logic [31:0]            m_axi_awaddr_o,
  /// Write burst length (beats - 1).
  output logic [7:0]             m_axi_awlen_o,
  /// Write beat size (always 4 bytes).
  output logic [2:0]             m_axi_awsize_o,
  /// Write burst type (always INCR).
  output logic [1:0]             m_axi_awburst_o,
  /// Write address valid.
  output logic                   m_axi_awvalid_o,
  /// Write address ready.
  input  logic                   m_axi_awready_i,
  /// Write data.
  output logic [31:0]            m_axi_wdata_o,
  /// Write byte strobes.
  output logic [3:0]             m_axi_wstrb_o,
  /// Last write beat.
  output logic                   m_axi_wlast_o,
  /// Write data valid.
  output logic                   m_axi_wvalid_o,
  /// Write data ready.
  input  logic                   m_axi_wready_i,
  /// Write response.
  input  logic [1:0]             m_axi_bresp_i,
  /// Write response valid.
  input  logic                   m_axi_bvalid_i,
  /// Write response ready.
  output logic                   m_axi_bready_o,
  /// Read address.
  output logic [31:0]            m_axi_araddr_o,
  /// Read burst length (beats - 1).
  output logic [7:0]             m_axi_arlen_o,
  /// Read beat size (always 4 bytes).
  output logic [2:0]             m_axi_arsize_o,
  /// Read burst type (always INCR).
  output logic [1:0]             m_axi_arburst_o,
  /// Read address valid.
  output logic                   m_axi_arvalid_o,
  /// Read address ready.
  input  logic                   m_axi_arready_i,
  /// Read data.
  input  logic [31:0]            m_axi_rdata_i,
  /// Read response.
  input  logic [1:0]             m_axi_rresp_i,
  /// Last read beat.
  input  logic                   m_axi_rlast_i,
  /// Read data valid.
  input  logic                   m_axi_rvalid_i,
  /// Read data ready.
  output logic                   m_axi_rready_o,

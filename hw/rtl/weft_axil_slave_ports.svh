// The AXI4-Lite slave port of the static region's register window (16-bit byte
// address, 32-bit data), as a port list to include: in weft_static, which exposes it,
// and in weft_axil_regs, which serves it. Its last port has a trailing comma, so at least one more port follows it:
//
//   module m (
//     input logic clk_i,
//     `include "weft_axil_slave_ports.svh"
//     output logic irq_o
//   );
  /// Write address (byte address).
  input  logic [15:0]            s_axil_awaddr_i,
  /// Write address valid.
  input  logic                   s_axil_awvalid_i,
  /// Write address ready.
  output logic                   s_axil_awready_o,
  /// Write data.
  input  logic [31:0]            s_axil_wdata_i,
  /// Write byte strobes.
  input  logic [3:0]             s_axil_wstrb_i,
  /// Write data valid.
  input  logic                   s_axil_wvalid_i,
  /// Write data ready.
  output logic                   s_axil_wready_o,
  /// Write response.
  output logic [1:0]             s_axil_bresp_o,
  /// Write response valid.
  output logic                   s_axil_bvalid_o,
  /// Write response ready.
  input  logic                   s_axil_bready_i,
  /// Read address (byte address).
  input  logic [15:0]            s_axil_araddr_i,
  /// Read address valid.
  input  logic                   s_axil_arvalid_i,
  /// Read address ready.
  output logic                   s_axil_arready_o,
  /// Read data.
  output logic [31:0]            s_axil_rdata_o,
  /// Read response.
  output logic [1:0]             s_axil_rresp_o,
  /// Read data valid.
  output logic                   s_axil_rvalid_o,
  /// Read data ready.
  input  logic                   s_axil_rready_i,

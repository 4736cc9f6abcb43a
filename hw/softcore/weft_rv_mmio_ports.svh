// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// The softcore's MMIO master port (addresses with bit 31 set): weft_rv_core's, and
// weft_rv_soc's outward one for what its own devices do not answer.
  // ---- MMIO: addresses with bit 31 set; held until mmio_ready_i ----
  output logic             mmio_req_o,
  output logic             mmio_we_o,
  output logic [31:0]      mmio_addr_o,
  output logic [31:0]      mmio_wdata_o,
  output logic [3:0]       mmio_wstrb_o,
  input  logic             mmio_ready_i,
  /// With mmio_ready_i: no device answers there (an access fault).
  input  logic             mmio_err_i,
  input  logic [31:0]      mmio_rdata_i,


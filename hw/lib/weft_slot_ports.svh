// The slot boundary: the fixed port list every hardware thread's top module has, the
// partition pins of a reconfigurable slot (docs/architecture.md). Include it as the whole
// port list of the top module:
//
//   module hwt_example #(...) (
//     `include "weft_slot_ports.svh"
//   );
//
// One definition, so that no thread can drift from what the static region and the
// simulation's slot model ABI expect.
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low synchronous reset.
  input  logic        rst_ni,
  /// OSIF responses, software to hardware: data.
  input  logic [31:0] osif_in_data_i,
  /// OSIF responses: valid.
  input  logic        osif_in_valid_i,
  /// OSIF responses: ready (high only while an OS call waits, boundary rule 2).
  output logic        osif_in_ready_o,
  /// OSIF requests, hardware to software: data.
  output logic [31:0] osif_out_data_o,
  /// OSIF requests: valid.
  output logic        osif_out_valid_o,
  /// OSIF requests: ready.
  input  logic        osif_out_ready_i,
  /// MEMIF commands: data.
  output logic [31:0] mem_cmd_data_o,
  /// MEMIF commands: valid.
  output logic        mem_cmd_valid_o,
  /// MEMIF commands: ready.
  input  logic        mem_cmd_ready_i,
  /// MEMIF write data: data.
  output logic [31:0] mem_wr_data_o,
  /// MEMIF write data: valid.
  output logic        mem_wr_valid_o,
  /// MEMIF write data: ready.
  input  logic        mem_wr_ready_i,
  /// MEMIF read data: data.
  input  logic [31:0] mem_rd_data_i,
  /// MEMIF read data: valid.
  input  logic        mem_rd_valid_i,
  /// MEMIF read data: ready.
  output logic        mem_rd_ready_o

// A register block inside a slot's window (weft_mem_guard, weft_osif_stage), as a port list
// to include: the slot's register access, and the block's answer. Its last port has a
// trailing comma, so at least one more port follows it:
//
//   module m (
//     input logic clk_i,
//     `include "weft_slot_reg_ports.svh"
//     output logic x_o
//   );
  /// Register write strobe (any slot register; the offset selects).
  input  logic        reg_we_i,
  /// Register read strobe (reg_rdata_o is only computed while it is high).
  input  logic        reg_re_i,
  /// Byte offset inside the slot window.
  input  logic [7:0]  reg_off_i,
  /// Write data.
  input  logic [31:0] reg_wdata_i,
  /// Write data byte mask, expanded to bits.
  input  logic [31:0] reg_wmask_i,
  /// Read data of the register at reg_off_i (0 when it is not one of this block's).
  output logic [31:0] reg_rdata_o,
  /// The offset is one of this block's registers.
  output logic        reg_hit_o,

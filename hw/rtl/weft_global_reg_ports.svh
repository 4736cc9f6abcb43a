// A block's port on the static region's global registers (weft_axil_regs decodes the
// window; each block answers its own offsets), as a port list to include (weft_fri,
// weft_sync_regs, weft_sync_sw). Its last port has a trailing comma, so at least one
// more port follows it.
  /// Write strobe of a global register at reg_addr_i.
  input  logic        reg_we_i,
  /// Byte offset in the register window, word aligned.
  input  logic [15:0] reg_addr_i,
  /// Write data.
  input  logic [31:0] reg_wdata_i,
  /// Write byte strobes (the blocks take whole-word writes only).
  input  logic [3:0]  reg_wstrb_i,
  /// Read data of the block's register at reg_addr_i (0 at any other offset).
  output logic [31:0] reg_rdata_o,

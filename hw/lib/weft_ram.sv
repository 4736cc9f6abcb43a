// weft_ram: simple dual-port RAM for thread-local data.
//
// One write port and one synchronous read port on the same clock. A read returns
// mem[raddr_i] one cycle after raddr_i is presented (the read register updates every
// cycle). A read of the address being written in the same cycle returns the old word
// (read-first). No reset: contents are undefined until written. The plain array with
// one registered read is the template Yosys `synth_xilinx` maps to block RAM (and
// Vivado likewise).
module weft_ram #(
  /// Number of 32-bit words (a power of two).
  parameter int unsigned Words = 2048,
  /// Word address width (derived; do not override).
  localparam int unsigned AddrWidth = (Words > 1) ? $clog2(Words) : 1
) (
  /// Clock.
  input  logic                 clk_i,
  /// Write enable.
  input  logic                 we_i,
  /// Write word address.
  input  logic [AddrWidth-1:0] waddr_i,
  /// Write data.
  input  logic [31:0]          wdata_i,
  /// Read word address.
  input  logic [AddrWidth-1:0] raddr_i,
  /// Read data: mem[raddr_i] of the previous cycle.
  output logic [31:0]          rdata_o
);

  logic [31:0] mem_q [Words];

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      mem_q[waddr_i] <= wdata_i;
    end
    rdata_o <= mem_q[raddr_i];
  end

  if ((1 << AddrWidth) != Words) begin : gen_check_words
    $error("weft_ram: Words must be a power of two");
  end

endmodule

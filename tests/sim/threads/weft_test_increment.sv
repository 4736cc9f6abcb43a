// weft_test_increment: a test-only hardware thread that answers every OSIF word w with
// w + 1 (weft_test_loopback with Increment = 1), so a test can tell it from the echo.
module weft_test_increment (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] osif_in_data_i,
  input  logic        osif_in_valid_i,
  output logic        osif_in_ready_o,
  output logic [31:0] osif_out_data_o,
  output logic        osif_out_valid_o,
  input  logic        osif_out_ready_i,
  output logic [31:0] mem_cmd_data_o,
  output logic        mem_cmd_valid_o,
  input  logic        mem_cmd_ready_i,
  output logic [31:0] mem_wr_data_o,
  output logic        mem_wr_valid_o,
  input  logic        mem_wr_ready_i,
  input  logic [31:0] mem_rd_data_i,
  input  logic        mem_rd_valid_i,
  output logic        mem_rd_ready_o
);
  weft_test_loopback #(.Increment(32'd1)) u_loopback (.*);
endmodule

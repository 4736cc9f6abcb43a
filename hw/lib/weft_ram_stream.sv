// weft_ram_stream: streams words out of a thread's local RAM, one per cycle.
//
// A start_i pulse with addr_i and count_i (at least 1) begins a stream of the words
// addr_i, addr_i+1, ... (wrapping at the RAM size) on data_o/valid_o/ready_i. The RAM's
// one-cycle read latency is hidden by reading ahead into a two-entry buffer, which also
// absorbs back-pressure. busy_o is high from start_i until the last word is taken; while
// busy the module owns the RAM read port (ram_raddr_o). start_i is ignored while busy.
module weft_ram_stream #(
  /// Width of the RAM's word address.
  parameter int unsigned AddrWidth = 11
) (
  /// Fabric clock.
  input  logic                 clk_i,
  /// Active-low synchronous reset.
  input  logic                 rst_ni,
  /// Begin a stream (one-cycle pulse).
  input  logic                 start_i,
  /// First RAM word address.
  input  logic [AddrWidth-1:0] addr_i,
  /// Words to stream (at least 1).
  input  logic [AddrWidth:0]   count_i,
  /// The stream runs.
  output logic                 busy_o,
  /// RAM read address.
  output logic [AddrWidth-1:0] ram_raddr_o,
  /// RAM read data: the word at the previous cycle's ram_raddr_o.
  input  logic [31:0]          ram_rdata_i,
  /// Stream word.
  output logic [31:0]          data_o,
  /// Stream word valid.
  output logic                 valid_o,
  /// Stream word taken.
  input  logic                 ready_i
);

  logic [AddrWidth-1:0] ptr_q;
  logic [AddrWidth:0]   to_fetch_q, to_send_q;
  logic                 pend_q;           // a read issued last cycle returns now
  logic [31:0]          buf0_q, buf1_q;   // buf0_q is the head
  logic [1:0]           cnt_q;
  logic                 pop, fetch;

  assign pop   = valid_o && ready_i;
  assign fetch = (to_fetch_q != '0) && ({1'b0, cnt_q} + {2'b0, pend_q} - {2'b0, pop} < 3'd2);

  assign ram_raddr_o = ptr_q;
  assign valid_o     = cnt_q != '0;
  assign data_o      = buf0_q;
  assign busy_o      = to_send_q != '0;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ptr_q      <= '0;
      to_fetch_q <= '0;
      to_send_q  <= '0;
      pend_q     <= 1'b0;
      cnt_q      <= '0;
      buf0_q     <= '0;
      buf1_q     <= '0;
    end else begin
      pend_q <= fetch;
      if (fetch) begin
        ptr_q      <= ptr_q + 1'b1;
        to_fetch_q <= to_fetch_q - 1'b1;
      end
      if (start_i && !busy_o) begin
        ptr_q      <= addr_i;
        to_fetch_q <= count_i;
        to_send_q  <= count_i;
      end
      if (pop) begin
        to_send_q <= to_send_q - 1'b1;
      end
      // Buffer: pop the head and/or append the word the RAM returns.
      unique case ({pend_q, pop})
        2'b10: begin
          if (cnt_q == 2'd0) buf0_q <= ram_rdata_i;
          else buf1_q <= ram_rdata_i;
          cnt_q <= cnt_q + 2'd1;
        end
        2'b01: begin
          buf0_q <= buf1_q;
          cnt_q  <= cnt_q - 2'd1;
        end
        2'b11: begin
          if (cnt_q == 2'd1) buf0_q <= ram_rdata_i;
          else begin
            buf0_q <= buf1_q;
            buf1_q <= ram_rdata_i;
          end
        end
        default: ;
      endcase
    end
  end

`ifndef SYNTHESIS
  BufferBound_A: assert property (@(posedge clk_i) disable iff (!rst_ni) cnt_q <= 2'd2);
`endif

endmodule

// weft_hls_ctrl: the ap_ctrl_hs control block of Weft's HLS-style accelerators
// (docs/hls.md), an AXI4-Lite slave with Vitis HLS's control registers (arguments every
// 8 bytes, where Vitis leaves a reserved word after each 64-bit one):
//
//   0x00 AP_CTRL  bit0 ap_start (write 1 starts; cleared when the kernel takes it),
//                 bit1 ap_done (cleared when AP_CTRL is read), bit2 ap_idle,
//                 bit3 ap_ready (cleared when AP_CTRL is read), bit7 auto_restart
//   0x04 GIE      bit0 global interrupt enable
//   0x08 IER      bit0 done, bit1 ready: which events raise ISR
//   0x0C ISR      bit0 done, bit1 ready; a 1 written toggles the bit (an event in the
//                 same cycle still sets its bit)
//   0x10 ...      NumArgs 64-bit arguments, low word first (a buffer address is one)
//
// interrupt = GIE & (ISR != 0). The kernel sees start_o for one cycle when it may begin
// (ap_start while idle) and reports done_i for one cycle at its end; ap_ready is ap_done
// (the kernel takes its arguments for its whole run). Writes wait for both AW and W;
// responses are OKAY, an offset past the arguments reads 0 and ignores writes.
module weft_hls_ctrl #(
  /// 64-bit arguments from 0x10 (at most 6 in the 64-byte window).
  parameter int unsigned NumArgs = 4
) (
  input  logic        ap_clk,
  input  logic        ap_rst_n,
`define WEFT_HLS_TO_ACC input logic
`define WEFT_HLS_FROM_ACC output logic
`define WEFT_HLS_SEP ,
`include "weft_hls_axil_signals.svh"
  ,
`undef WEFT_HLS_TO_ACC
`undef WEFT_HLS_FROM_ACC
`undef WEFT_HLS_SEP
  output logic        interrupt,
  /// One cycle: the kernel starts with args_o.
  output logic        start_o,
  /// One cycle: the kernel has finished.
  input  logic        done_i,
  /// The arguments, argument i in bits [64*i +: 64].
  output logic [NumArgs*64-1:0] args_o
);

  if (NumArgs < 1 || NumArgs > 6) begin : gen_check
    $error("weft_hls_ctrl: 1 to 6 arguments fit the window");
  end

  logic        start_q, done_q, auto_q, gie_q, running_q;  // ap_ready is ap_done (above)
  logic [1:0]  ier_q, isr_q;
  logic [31:0] arg_q [2*NumArgs];
  logic        bvalid_q, rvalid_q;
  logic [31:0] rdata_q;

  logic wr, rd;
  assign wr = s_axi_control_AWVALID && s_axi_control_WVALID && !bvalid_q;
  assign rd = s_axi_control_ARVALID && !rvalid_q && !wr;
  assign s_axi_control_AWREADY = wr;
  assign s_axi_control_WREADY  = wr;
  assign s_axi_control_ARREADY = rd;
  assign s_axi_control_BVALID  = bvalid_q;
  assign s_axi_control_BRESP   = 2'b00;
  assign s_axi_control_RVALID  = rvalid_q;
  assign s_axi_control_RDATA   = rdata_q;
  assign s_axi_control_RRESP   = 2'b00;

  logic [31:0] wmask;
  always_comb begin
    for (int b = 0; b < 4; b++) wmask[8*b +: 8] = {8{s_axi_control_WSTRB[b]}};
  end

  logic [3:0] waddr, raddr;  // word offsets
  assign waddr = s_axi_control_AWADDR[5:2];
  assign raddr = s_axi_control_ARADDR[5:2];

  logic [1:0] isr_toggle;
  assign isr_toggle = (wr && waddr == 4'd3 && s_axi_control_WSTRB[0]) ? s_axi_control_WDATA[1:0]
                                                                      : 2'b00;

  logic [31:0] read_word;
  always_comb begin
    unique case (raddr)
      4'd0: read_word = {24'd0, auto_q, 3'd0, done_q, !running_q, done_q, start_q};
      4'd1: read_word = {31'd0, gie_q};
      4'd2: read_word = {30'd0, ier_q};
      4'd3: read_word = {30'd0, isr_q};
      default: read_word = (32'(raddr) - 4 < 2 * NumArgs) ? arg_q[32'(raddr) - 4] : '0;
    endcase
  end

  assign start_o = start_q && !running_q;

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      start_q   <= 1'b0;
      done_q    <= 1'b0;
      auto_q    <= 1'b0;
      gie_q     <= 1'b0;
      running_q <= 1'b0;
      ier_q     <= '0;
      isr_q     <= '0;
      bvalid_q  <= 1'b0;
      rvalid_q  <= 1'b0;
      rdata_q   <= '0;
      for (int i = 0; i < 2 * NumArgs; i++) arg_q[i] <= '0;
    end else begin
      if (start_o) begin
        running_q <= 1'b1;
        start_q   <= auto_q;
      end
      if (done_i) begin
        running_q <= 1'b0;
        done_q    <= 1'b1;
      end
      isr_q <= (isr_q ^ isr_toggle) | (done_i ? ier_q : 2'b00);
      if (wr) begin
        bvalid_q <= 1'b1;
        unique case (waddr)
          4'd0: begin
            if (s_axi_control_WSTRB[0] && s_axi_control_WDATA[0]) start_q <= 1'b1;
            if (s_axi_control_WSTRB[0]) auto_q <= s_axi_control_WDATA[7];
          end
          4'd1: if (s_axi_control_WSTRB[0]) gie_q <= s_axi_control_WDATA[0];
          4'd2: if (s_axi_control_WSTRB[0]) ier_q <= s_axi_control_WDATA[1:0];
          4'd3: ;  // isr_toggle
          default: begin
            if (32'(waddr) - 4 < 2 * NumArgs) begin
              arg_q[32'(waddr) - 4] <= (arg_q[32'(waddr) - 4] & ~wmask) |
                                       (s_axi_control_WDATA & wmask);
            end
          end
        endcase
      end else if (s_axi_control_BREADY) begin
        bvalid_q <= 1'b0;
      end
      if (rd) begin
        rvalid_q <= 1'b1;
        rdata_q  <= read_word;
        if (raddr == 4'd0 && !done_i) begin
          done_q  <= 1'b0;  // clear on read
        end
      end else if (s_axi_control_RREADY) begin
        rvalid_q <= 1'b0;
      end
    end
  end

  assign interrupt = gie_q && (isr_q != '0);

  // Accesses are whole words: the byte offset within a word is not used.
  logic unused;
  assign unused = ^{s_axi_control_AWADDR[1:0], s_axi_control_ARADDR[1:0]};
  for (genvar i = 0; i < NumArgs; i++) begin : gen_args
    assign args_o[64*i +: 64] = {arg_q[2*i+1], arg_q[2*i]};
  end

endmodule

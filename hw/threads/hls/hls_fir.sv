// hls_fir: an HLS-style accelerator (docs/hls.md): y[i] = sum of h[k] * x[i-k] for
// k < taps (x before its start counts as 0), i < n, 32-bit words, mod 2^32.
//
// Arguments (weft_hls_ctrl): 0x10 x, 0x18 y, 0x20 h (buffer addresses), 0x28 n, 0x30 taps
// (1 to MaxTaps; more count as MaxTaps). It reads the taps once, then works in chunks:
// read a chunk of x, compute it in place one multiply-add a cycle, write it to y.
// Software reference: apps/hls/hls_reference.c.
module hls_fir #(
  parameter int unsigned Chunk = 64,
  parameter int unsigned MaxTaps = 16
) (
  `include "weft_hls_ports.svh"
);

  localparam int unsigned ChunkW = $clog2(Chunk);
  localparam int unsigned TapW = $clog2(MaxTaps);

  weft_hls_pkg::kreq_t k;
  weft_hls_pkg::krsp_t kr;
  weft_hls_shell #(.NumArgs(5)) u_shell (.k_i(k), .k_o(kr), .*);

  typedef enum logic [2:0] {StIdle, StTaps, StReadX, StMac, StWrite, StDone} state_e;
  state_e        state_q;
  logic          go_q;           // the first cycle of a transfer state: start it
  logic [31:0]   n_q, pos_q, acc_q;
  logic [15:0]   i_q;            // word of the chunk being computed
  logic [TapW:0] taps_q, t_q;    // taps, and the step of the multiply-add
  logic [31:0]   h_q [MaxTaps];
  logic [31:0]   xs_q [MaxTaps];  // x[i], x[i-1], ...
  logic [31:0]   buf_q [Chunk];

  logic [31:0] left, taps_arg;
  logic [15:0] words;            // of this transfer
  logic        reading;
  assign left     = n_q - pos_q;
  assign taps_arg = weft_hls_pkg::arg32(kr.args, 4);
  assign words    = (state_q == StTaps) ? 16'(taps_q)
                  : (left < Chunk) ? 16'(left) : 16'(Chunk);
  assign reading  = (state_q == StTaps || state_q == StReadX);

  assign k.done     = (state_q == StDone);
  assign k.rd_start = go_q && reading;
  assign k.rd_addr  = (state_q == StTaps) ? weft_hls_pkg::arg32(kr.args, 2)
                                          : weft_hls_pkg::arg32(kr.args, 0) + (pos_q << 2);
  assign k.rd_words = words;
  assign k.rd_ready = reading;
  assign k.wr_start = go_q && (state_q == StWrite);
  assign k.wr_addr  = weft_hls_pkg::arg32(kr.args, 1) + (pos_q << 2);
  assign k.wr_words = words;
  assign k.wr_valid = (state_q == StWrite);
  assign k.wr_data  = buf_q[kr.wr_index[ChunkW-1:0]];

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      state_q <= StIdle;
      go_q    <= 1'b0;
      n_q     <= '0;
      pos_q   <= '0;
      acc_q   <= '0;
      i_q     <= '0;
      taps_q  <= '0;
      t_q     <= '0;
      for (int j = 0; j < MaxTaps; j++) xs_q[j] <= '0;
    end else begin
      go_q <= 1'b0;
      unique case (state_q)
        StIdle: if (kr.start) begin
          n_q     <= weft_hls_pkg::arg32(kr.args, 3);
          taps_q  <= (taps_arg > MaxTaps) ? (TapW+1)'(MaxTaps) : (TapW+1)'(taps_arg);
          pos_q   <= '0;
          go_q    <= 1'b1;
          for (int j = 0; j < MaxTaps; j++) xs_q[j] <= '0;
          state_q <= (weft_hls_pkg::arg32(kr.args, 3) == '0 || taps_arg == '0) ? StDone : StTaps;
        end
        StTaps, StReadX: if (kr.rd_valid) begin
          if (state_q == StTaps) h_q[kr.rd_index[TapW-1:0]] <= kr.rd_data;
          else buf_q[kr.rd_index[ChunkW-1:0]] <= kr.rd_data;
          if (kr.rd_last) begin
            i_q     <= '0;
            t_q     <= '0;
            go_q    <= (state_q == StTaps);
            state_q <= (state_q == StTaps) ? StReadX : StMac;
          end
        end
        StMac: begin
          // Step 0: shift x in; steps 1..taps: one multiply-add; then store y.
          if (t_q == '0) begin
            xs_q[0] <= buf_q[i_q[ChunkW-1:0]];
            for (int j = 1; j < MaxTaps; j++) xs_q[j] <= xs_q[j-1];
            acc_q <= '0;
            t_q   <= t_q + 1'b1;
          end else if (t_q <= taps_q) begin
            acc_q <= acc_q + h_q[TapW'(t_q - 1'b1)] * xs_q[TapW'(t_q - 1'b1)];
            t_q   <= t_q + 1'b1;
          end else begin
            buf_q[i_q[ChunkW-1:0]] <= acc_q;
            t_q <= '0;
            i_q <= i_q + 16'd1;
            if (i_q + 16'd1 == words) begin
              go_q    <= 1'b1;
              state_q <= StWrite;
            end
          end
        end
        StWrite: if (kr.wr_done) begin
          pos_q   <= pos_q + 32'(words);
          go_q    <= 1'b1;
          state_q <= (pos_q + 32'(words) == n_q) ? StDone : StReadX;
        end
        StDone: state_q <= StIdle;
        default: state_q <= StIdle;
      endcase
    end
  end

  // High words of the arguments (the adapter refuses addresses above 4 GiB).
  logic unused;
  assign unused = ^kr.args;

endmodule

// hls_vecsum: an HLS-style accelerator (docs/hls.md) written against Vitis HLS's
// interface: c[i] = a[i] + b[i] for i < n, 32-bit words, mod 2^32.
//
// Arguments (weft_hls_ctrl): 0x10 a, 0x18 b, 0x20 c (buffer addresses), 0x28 n. It works
// in chunks of Chunk words: read a chunk of a into its buffer, add a chunk of b to it,
// write it to c. Software reference: apps/hls/hls_reference.c.
module hls_vecsum #(
  parameter int unsigned Chunk = 64
) (
  `include "weft_hls_ports.svh"
);

  localparam int unsigned ChunkW = $clog2(Chunk);

  weft_hls_pkg::kreq_t k;
  weft_hls_pkg::krsp_t kr;
  weft_hls_shell #(.NumArgs(4)) u_shell (.k_i(k), .k_o(kr), .*);

  typedef enum logic [2:0] {StIdle, StReadA, StReadB, StWrite, StDone} state_e;
  state_e      state_q;
  logic        go_q;      // the first cycle of a transfer state: start it
  logic [31:0] n_q, pos_q;
  logic [31:0] buf_q [Chunk];

  logic [31:0] left;
  logic [15:0] words;     // of this chunk
  logic        reading;
  assign left    = n_q - pos_q;
  assign words   = (left < Chunk) ? 16'(left) : 16'(Chunk);
  assign reading = (state_q == StReadA || state_q == StReadB);

  assign k.done     = (state_q == StDone);
  assign k.rd_start = go_q && reading;
  assign k.rd_addr  = weft_hls_pkg::arg32(kr.args, state_q == StReadA ? 0 : 1) + (pos_q << 2);
  assign k.rd_words = words;
  assign k.rd_ready = reading;
  assign k.wr_start = go_q && (state_q == StWrite);
  assign k.wr_addr  = weft_hls_pkg::arg32(kr.args, 2) + (pos_q << 2);
  assign k.wr_words = words;
  assign k.wr_valid = (state_q == StWrite);
  assign k.wr_data  = buf_q[kr.wr_index[ChunkW-1:0]];

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      state_q <= StIdle;
      go_q    <= 1'b0;
      n_q     <= '0;
      pos_q   <= '0;
    end else begin
      go_q <= 1'b0;
      unique case (state_q)
        StIdle: if (kr.start) begin
          n_q     <= weft_hls_pkg::arg32(kr.args, 3);
          pos_q   <= '0;
          go_q    <= 1'b1;
          state_q <= (weft_hls_pkg::arg32(kr.args, 3) == '0) ? StDone : StReadA;
        end
        StReadA, StReadB: if (kr.rd_valid) begin
          buf_q[kr.rd_index[ChunkW-1:0]] <= (state_q == StReadA)
              ? kr.rd_data : buf_q[kr.rd_index[ChunkW-1:0]] + kr.rd_data;
          if (kr.rd_last) begin
            go_q    <= 1'b1;
            state_q <= (state_q == StReadA) ? StReadB : StWrite;
          end
        end
        StWrite: if (kr.wr_done) begin
          pos_q   <= pos_q + 32'(words);
          go_q    <= 1'b1;
          state_q <= (pos_q + 32'(words) == n_q) ? StDone : StReadA;
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

// hls_matmul: an HLS-style accelerator (docs/hls.md): C = A * B for n x n matrices of
// 32-bit words in row-major order, mod 2^32.
//
// Arguments (weft_hls_ctrl): 0x10 A, 0x18 B, 0x20 C (buffer addresses), 0x28 n (1 to
// MaxN; more counts as MaxN). It reads A and B whole, computes a row of C one
// multiply-add a cycle and writes it. Software reference: apps/hls/hls_reference.c.
module hls_matmul #(
  parameter int unsigned MaxN = 16
) (
  `include "weft_hls_ports.svh"
);

  localparam int unsigned NW = $clog2(MaxN);        // an index
  localparam int unsigned MW = $clog2(MaxN * MaxN);  // an element

  weft_hls_pkg::kreq_t k;
  weft_hls_pkg::krsp_t kr;
  weft_hls_shell #(.NumArgs(4)) u_shell (.k_i(k), .k_o(kr), .*);

  typedef enum logic [2:0] {StIdle, StReadA, StReadB, StRow, StWrite, StDone} state_e;
  state_e      state_q;
  logic        go_q;                      // the first cycle of a transfer state: start it
  logic [NW:0] n_q, i_q, j_q, m_q;        // 0..MaxN: size, row, column, term
  logic [MW:0] ai_q, bj_q;                // A[i][m] and B[m][j] as they walk
  logic [31:0] acc_q;
  logic [31:0] a_q [MaxN * MaxN];
  logic [31:0] b_q [MaxN * MaxN];
  logic [31:0] row_q [MaxN];

  logic [31:0] n_arg;
  logic [15:0] words;                     // of this transfer
  logic        reading;
  assign n_arg   = weft_hls_pkg::arg32(kr.args, 3);
  assign words   = (state_q == StWrite) ? 16'(n_q) : 16'(n_q) * 16'(n_q);
  assign reading = (state_q == StReadA || state_q == StReadB);

  assign k.done     = (state_q == StDone);
  assign k.rd_start = go_q && reading;
  assign k.rd_addr  = weft_hls_pkg::arg32(kr.args, state_q == StReadA ? 0 : 1);
  assign k.rd_words = words;
  assign k.rd_ready = reading;
  assign k.wr_start = go_q && (state_q == StWrite);
  assign k.wr_addr  = weft_hls_pkg::arg32(kr.args, 2) + ((32'(i_q) * 32'(n_q)) << 2);
  assign k.wr_words = words;
  assign k.wr_valid = (state_q == StWrite);
  assign k.wr_data  = row_q[kr.wr_index[NW-1:0]];

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      state_q <= StIdle;
      go_q    <= 1'b0;
      n_q     <= '0;
      i_q     <= '0;
      j_q     <= '0;
      m_q     <= '0;
      ai_q    <= '0;
      bj_q    <= '0;
      acc_q   <= '0;
    end else begin
      go_q <= 1'b0;
      unique case (state_q)
        StIdle: if (kr.start) begin
          n_q     <= (n_arg > MaxN) ? (NW+1)'(MaxN) : (NW+1)'(n_arg);
          i_q     <= '0;
          go_q    <= 1'b1;
          state_q <= (n_arg == '0) ? StDone : StReadA;
        end
        StReadA, StReadB: if (kr.rd_valid) begin
          if (state_q == StReadA) a_q[kr.rd_index[MW-1:0]] <= kr.rd_data;
          else b_q[kr.rd_index[MW-1:0]] <= kr.rd_data;
          if (kr.rd_last) begin
            j_q     <= '0;
            m_q     <= '0;
            acc_q   <= '0;
            ai_q    <= '0;  // A[0][0]
            bj_q    <= '0;  // B[0][0]
            go_q    <= (state_q == StReadA);
            state_q <= (state_q == StReadA) ? StReadB : StRow;
          end
        end
        StRow: begin
          // C[i][j] = sum over m of A[i][m] * B[m][j]: ai walks a row, bj a column.
          if (m_q < n_q) begin
            acc_q <= acc_q + a_q[ai_q[MW-1:0]] * b_q[bj_q[MW-1:0]];
            ai_q  <= ai_q + 1'b1;
            bj_q  <= bj_q + (MW+1)'(n_q);
            m_q   <= m_q + 1'b1;
          end else begin
            row_q[j_q[NW-1:0]] <= acc_q;
            acc_q <= '0;
            m_q   <= '0;
            ai_q  <= ai_q - (MW+1)'(n_q);       // back to A[i][0]
            bj_q  <= (MW+1)'(j_q) + 1'b1;       // B[0][j+1]
            j_q   <= j_q + 1'b1;
            if (j_q + 1'b1 == n_q) begin
              go_q    <= 1'b1;
              state_q <= StWrite;
            end
          end
        end
        StWrite: if (kr.wr_done) begin
          i_q     <= i_q + 1'b1;
          j_q     <= '0;
          ai_q    <= ai_q + (MW+1)'(n_q);       // A[i+1][0]
          bj_q    <= '0;
          state_q <= (i_q + 1'b1 == n_q) ? StDone : StRow;
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

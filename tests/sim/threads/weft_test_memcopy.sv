// weft_test_memcopy: a test-only hardware thread that copies memory through MEMIF.
//
// Protocol on OSIF: software sends three words, source bus address, destination bus
// address and length in bytes (a multiple of 4); the thread copies in chunks of up to
// ChunkWords words (MEMIF read of a chunk into its buffer, then MEMIF write of it), then
// reads back the last destination word (so every write has reached memory) and answers
// with DoneWord. It then waits for the next three words.
module weft_test_memcopy
  import weft_osif_pkg::*;
#(
  /// Buffer size in words; one chunk is read whole before it is written.
  parameter int unsigned ChunkWords = 256,
  /// The word sent back when a copy is complete.
  parameter logic [31:0] DoneWord = 32'hC0DE_D0E5
) (
  `include "weft_slot_ports.svh"
);
  localparam int unsigned IdxW = $clog2(ChunkWords + 1);
  localparam logic [23:0] ChunkBytes = 24'(ChunkWords * 4);

  typedef enum logic [3:0] {
    GetSrc, GetDst, GetLen,
    RdCmd0, RdCmd1, RdData,
    WrCmd0, WrCmd1, WrData,
    FenceCmd0, FenceCmd1, FenceData,
    Done
  } state_e;

  state_e           state_q;
  logic [31:0]      src_q, dst_q, last_q;
  logic [23:0]      len_q, chunk_q;
  logic [IdxW-1:0]  idx_q, words_q;
  logic [31:0]      buf_q [ChunkWords];

  logic [23:0] chunk_d;
  assign chunk_d = (len_q > ChunkBytes) ? ChunkBytes : len_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= GetSrc;
      src_q   <= '0;
      dst_q   <= '0;
      last_q  <= '0;
      len_q   <= '0;
      chunk_q <= '0;
      idx_q   <= '0;
      words_q <= '0;
    end else begin
      unique case (state_q)
        GetSrc: if (osif_in_valid_i) begin src_q <= osif_in_data_i; state_q <= GetDst; end
        GetDst: if (osif_in_valid_i) begin dst_q <= osif_in_data_i; state_q <= GetLen; end
        GetLen: if (osif_in_valid_i) begin
          len_q   <= osif_in_data_i[23:0];
          last_q  <= dst_q + osif_in_data_i - 32'd4;
          state_q <= (osif_in_data_i[23:0] == 24'd0) ? Done : RdCmd0;
        end
        RdCmd0: if (mem_cmd_ready_i) begin
          chunk_q <= chunk_d;
          words_q <= IdxW'(chunk_d >> 2);
          state_q <= RdCmd1;
        end
        RdCmd1: if (mem_cmd_ready_i) begin idx_q <= '0; state_q <= RdData; end
        RdData: if (mem_rd_valid_i) begin
          buf_q[idx_q[IdxW-2:0]] <= mem_rd_data_i;
          idx_q <= idx_q + 1'b1;
          if (idx_q + 1'b1 == words_q) state_q <= WrCmd0;
        end
        WrCmd0: if (mem_cmd_ready_i) state_q <= WrCmd1;
        WrCmd1: if (mem_cmd_ready_i) begin idx_q <= '0; state_q <= WrData; end
        WrData: if (mem_wr_ready_i) begin
          idx_q <= idx_q + 1'b1;
          if (idx_q + 1'b1 == words_q) begin
            src_q <= src_q + 32'(chunk_q);
            dst_q <= dst_q + 32'(chunk_q);
            len_q <= len_q - chunk_q;
            state_q <= (len_q == chunk_q) ? FenceCmd0 : RdCmd0;
          end
        end
        FenceCmd0: if (mem_cmd_ready_i) state_q <= FenceCmd1;
        FenceCmd1: if (mem_cmd_ready_i) state_q <= FenceData;
        FenceData: if (mem_rd_valid_i) state_q <= Done;
        Done: if (osif_out_ready_i) state_q <= GetSrc;
        default: state_q <= GetSrc;
      endcase
    end
  end

  always_comb begin
    osif_in_ready_o  = state_q inside {GetSrc, GetDst, GetLen};
    osif_out_valid_o = state_q == Done;
    osif_out_data_o  = DoneWord;
    mem_cmd_valid_o  = state_q inside {RdCmd0, RdCmd1, WrCmd0, WrCmd1, FenceCmd0, FenceCmd1};
    unique case (state_q)
      RdCmd0:    mem_cmd_data_o = {MemifOpRead, 6'b0, chunk_d};
      RdCmd1:    mem_cmd_data_o = src_q;
      WrCmd0:    mem_cmd_data_o = {MemifOpWrite, 6'b0, chunk_q};
      WrCmd1:    mem_cmd_data_o = dst_q;
      FenceCmd0: mem_cmd_data_o = {MemifOpRead, 6'b0, 24'd4};
      FenceCmd1: mem_cmd_data_o = last_q;
      default:   mem_cmd_data_o = '0;
    endcase
    mem_wr_valid_o = state_q == WrData;
    mem_wr_data_o  = buf_q[idx_q[IdxW-2:0]];
    mem_rd_ready_o = state_q inside {RdData, FenceData};
  end
endmodule

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
        GetSrc: if (slot_i.osif.in_valid) begin src_q <= slot_i.osif.in_data; state_q <= GetDst; end
        GetDst: if (slot_i.osif.in_valid) begin dst_q <= slot_i.osif.in_data; state_q <= GetLen; end
        GetLen: if (slot_i.osif.in_valid) begin
          len_q   <= slot_i.osif.in_data[23:0];
          last_q  <= dst_q + slot_i.osif.in_data - 32'd4;
          state_q <= (slot_i.osif.in_data[23:0] == 24'd0) ? Done : RdCmd0;
        end
        RdCmd0: if (slot_i.mem.cmd_ready) begin
          chunk_q <= chunk_d;
          words_q <= IdxW'(chunk_d >> 2);
          state_q <= RdCmd1;
        end
        RdCmd1: if (slot_i.mem.cmd_ready) begin idx_q <= '0; state_q <= RdData; end
        RdData: if (slot_i.mem.rd_valid) begin
          buf_q[idx_q[IdxW-2:0]] <= slot_i.mem.rd_data;
          idx_q <= idx_q + 1'b1;
          if (idx_q + 1'b1 == words_q) state_q <= WrCmd0;
        end
        WrCmd0: if (slot_i.mem.cmd_ready) state_q <= WrCmd1;
        WrCmd1: if (slot_i.mem.cmd_ready) begin idx_q <= '0; state_q <= WrData; end
        WrData: if (slot_i.mem.wr_ready) begin
          idx_q <= idx_q + 1'b1;
          if (idx_q + 1'b1 == words_q) begin
            src_q <= src_q + 32'(chunk_q);
            dst_q <= dst_q + 32'(chunk_q);
            len_q <= len_q - chunk_q;
            state_q <= (len_q == chunk_q) ? FenceCmd0 : RdCmd0;
          end
        end
        FenceCmd0: if (slot_i.mem.cmd_ready) state_q <= FenceCmd1;
        FenceCmd1: if (slot_i.mem.cmd_ready) state_q <= FenceData;
        FenceData: if (slot_i.mem.rd_valid) state_q <= Done;
        Done: if (slot_i.osif.out_ready) state_q <= GetSrc;
        default: state_q <= GetSrc;
      endcase
    end
  end

  always_comb begin
    slot_o.osif.in_ready  = state_q inside {GetSrc, GetDst, GetLen};
    slot_o.osif.out_valid = state_q == Done;
    slot_o.osif.out_data  = DoneWord;
    slot_o.mem.cmd_valid  = state_q inside {RdCmd0, RdCmd1, WrCmd0, WrCmd1, FenceCmd0, FenceCmd1};
    unique case (state_q)
      RdCmd0:    slot_o.mem.cmd_data = {MemifOpRead, 6'b0, chunk_d};
      RdCmd1:    slot_o.mem.cmd_data = src_q;
      WrCmd0:    slot_o.mem.cmd_data = {MemifOpWrite, 6'b0, chunk_q};
      WrCmd1:    slot_o.mem.cmd_data = dst_q;
      FenceCmd0: slot_o.mem.cmd_data = {MemifOpRead, 6'b0, 24'd4};
      FenceCmd1: slot_o.mem.cmd_data = last_q;
      default:   slot_o.mem.cmd_data = '0;
    endcase
    slot_o.mem.wr_valid = state_q == WrData;
    slot_o.mem.wr_data  = buf_q[idx_q[IdxW-2:0]];
    slot_o.mem.rd_ready = state_q inside {RdData, FenceData};
  end
  `include "weft_no_regs.svh"

endmodule

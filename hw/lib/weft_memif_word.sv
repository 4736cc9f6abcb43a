// weft_memif_word: single-word read or write of shared memory.
//
// Protocol towards the thread: hold `req_i` high with `we_i`, `addr_i` and `wdata_i`
// stable until `done_o`, which is high for exactly one cycle when the word has moved;
// for a read, `rdata_o` then holds the word (and keeps it until the next read). `req_i`
// is ignored in the `done_o` cycle, so the next state may hold it high again.
//
// Towards the static region it sends the two-word MEMIF command (op|length 4, address)
// on mem_cmd and then one data word on mem_wr (write) or takes one from mem_rd (read).
// `addr_i` must be 4-byte aligned; the static region checks it and the memory window.
module weft_memif_word (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low synchronous reset.
  input  logic        rst_ni,

  /// Access request, held high until done_o.
  input  logic        req_i,
  /// 1 = write wdata_i to addr_i, 0 = read addr_i.
  input  logic        we_i,
  /// Bus address, 4-byte aligned.
  input  logic [31:0] addr_i,
  /// Word to write.
  input  logic [31:0] wdata_i,
  /// One-cycle pulse: the access is complete.
  output logic        done_o,
  /// Word read by the last read access.
  output logic [31:0] rdata_o,

  /// MEMIF command words, thread to static region.
  output logic [31:0] mem_cmd_data_o,
  /// mem_cmd word valid.
  output logic        mem_cmd_valid_o,
  /// mem_cmd word taken.
  input  logic        mem_cmd_ready_i,
  /// MEMIF write data, thread to memory.
  output logic [31:0] mem_wr_data_o,
  /// mem_wr word valid.
  output logic        mem_wr_valid_o,
  /// mem_wr word taken.
  input  logic        mem_wr_ready_i,
  /// MEMIF read data, memory to thread.
  input  logic [31:0] mem_rd_data_i,
  /// mem_rd word valid.
  input  logic        mem_rd_valid_i,
  /// mem_rd word taken.
  output logic        mem_rd_ready_o
);

  typedef enum logic [2:0] {
    StIdle,  // command word 0 offered as soon as req_i is high
    StCmd1,  // command word 1 (address)
    StData,  // the data word
    StDone   // done_o pulse
  } state_e;

  state_e state_d, state_q;
  logic [31:0] rdata_d, rdata_q;
  logic [31:0] cmd0;

  always_comb begin
    cmd0 = '0;
    cmd0[weft_osif_pkg::MemifOpMsb:weft_osif_pkg::MemifOpLsb] =
        we_i ? weft_osif_pkg::MemifOpWrite : weft_osif_pkg::MemifOpRead;
    cmd0[weft_osif_pkg::MemifLengthMsb:weft_osif_pkg::MemifLengthLsb] = 24'd4;
  end

  always_comb begin
    state_d = state_q;
    rdata_d = rdata_q;
    done_o = 1'b0;
    mem_cmd_valid_o = 1'b0;
    mem_cmd_data_o = cmd0;
    mem_wr_valid_o = 1'b0;
    mem_rd_ready_o = 1'b0;

    unique case (state_q)
      StIdle: begin
        mem_cmd_valid_o = req_i;
        if (req_i && mem_cmd_ready_i) begin
          state_d = StCmd1;
        end
      end
      StCmd1: begin
        mem_cmd_valid_o = 1'b1;
        mem_cmd_data_o = addr_i;
        if (mem_cmd_ready_i) begin
          state_d = StData;
        end
      end
      StData: begin
        mem_wr_valid_o = we_i;
        mem_rd_ready_o = !we_i;
        if (we_i ? mem_wr_ready_i : mem_rd_valid_i) begin
          if (!we_i) begin
            rdata_d = mem_rd_data_i;
          end
          state_d = StDone;
        end
      end
      StDone: begin
        done_o = 1'b1;
        state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  assign mem_wr_data_o = wdata_i;
  assign rdata_o = rdata_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      rdata_q <= '0;
    end else begin
      state_q <= state_d;
      rdata_q <= rdata_d;
    end
  end

endmodule

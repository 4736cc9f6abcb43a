// weft_memif_word: single-word read or write of shared memory.
//
// Protocol towards the thread (weft_hwt_pkg: word_req_t, word_rsp_t): hold `req_i.valid`
// high with the other fields stable until `rsp_o.done`, which is high for exactly one
// cycle when the word has moved; for a read, `rsp_o.rdata` then holds the word (and keeps
// it until the next read). `req_i.valid` is ignored in the `done` cycle, so the next
// state may hold it high again.
//
// Towards the static region it sends the two-word MEMIF command (op|length 4, address)
// and then one data word on the write-data channel (write) or takes one from the
// read-data channel (read). `addr` must be 4-byte aligned; the static region checks it
// and the memory window.
module weft_memif_word (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low synchronous reset.
  input  logic        rst_ni,

  /// The access: held with its fields stable until rsp_o.done.
  input  weft_hwt_pkg::word_req_t req_i,
  /// The access's end, with the word read.
  output weft_hwt_pkg::word_rsp_t rsp_o,

  /// The slot's MEMIF, static side.
  input  weft_osif_pkg::mem_rsp_t mem_i,
  /// The slot's MEMIF, thread side.
  output weft_osif_pkg::mem_req_t mem_o
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
  logic done;

  assign cmd0 = weft_osif_pkg::memif_word0(req_i.write, 24'd4);

  always_comb begin
    state_d = state_q;
    rdata_d = rdata_q;
    done = 1'b0;
    mem_o = '0;
    mem_o.cmd_data = cmd0;
    mem_o.wr_data = req_i.wdata;

    unique case (state_q)
      StIdle: begin
        mem_o.cmd_valid = req_i.valid;
        if (req_i.valid && mem_i.cmd_ready) begin
          state_d = StCmd1;
        end
      end
      StCmd1: begin
        mem_o.cmd_valid = 1'b1;
        mem_o.cmd_data = req_i.addr;
        if (mem_i.cmd_ready) begin
          state_d = StData;
        end
      end
      StData: begin
        mem_o.wr_valid = req_i.write;
        mem_o.rd_ready = !req_i.write;
        if (req_i.write ? mem_i.wr_ready : mem_i.rd_valid) begin
          if (!req_i.write) begin
            rdata_d = mem_i.rd_data;
          end
          state_d = StDone;
        end
      end
      StDone: begin
        done = 1'b1;
        state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  assign rsp_o.done = done;
  assign rsp_o.rdata = rdata_q;

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

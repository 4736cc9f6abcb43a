// weft_memif_burst: block transfers between shared memory and thread-local RAM.
//
// Protocol towards the thread:
//   - The thread holds `req_i.valid` high with the other fields of `req_i` and
//     `ram_addr_i` stable until `rsp_o.done`, which is high for exactly one cycle once
//     the last word has moved (weft_hwt_pkg: burst_req_t, burst_rsp_t). `req_i.valid`
//     is ignored in the `done` cycle, so the next state may hold it high again for a new
//     transfer.
//   - write = 0 (read): `len` bytes from bus address `addr` into the RAM, words
//     ram_addr_i, ram_addr_i+1, ...; write = 1: the other way round.
//   - `len` is a non-zero multiple of 4 (at most 2^24-4), `addr` 4-byte aligned. The
//     module does not check them: the static region does, and faults the thread on a bad
//     command. RAM word addresses wrap at the RAM size.
//   - While `rsp_o.busy` is high the module owns the RAM port; the thread must not use it.
//
// Towards the static region it sends the two-word MEMIF command (op|length, address)
// on the command channel, then streams the data on the write-data channel (write) or
// takes it from the read-data channel (read).
// Both directions move one word per cycle while the static region keeps ready/valid
// high: RAM reads for a write are issued ahead into a two-entry buffer, which hides the
// RAM's one-cycle read latency and absorbs back-pressure.
//
// Note: `done` of a write means the static region has taken every data word; whether
// it has reached memory is the static region's concern (it must not let a later OSIF
// request overtake the data).
module weft_memif_burst #(
  /// Width of the local RAM's word address.
  parameter int unsigned RamAddrWidth = 11
) (
  /// Fabric clock.
  input  logic                    clk_i,
  /// Active-low synchronous reset.
  input  logic                    rst_ni,

  /// The transfer: held with its fields stable until rsp_o.done.
  input  weft_hwt_pkg::burst_req_t req_i,
  /// First RAM word address.
  input  logic [RamAddrWidth-1:0] ram_addr_i,
  /// The transfer's end; busy while the module owns the RAM port.
  output weft_hwt_pkg::burst_rsp_t rsp_o,

  /// Local RAM word address (write address for reads, read address for writes).
  output logic [RamAddrWidth-1:0] ram_addr_o,
  /// Local RAM write enable.
  output logic                    ram_we_o,
  /// Local RAM write data.
  output logic [31:0]             ram_wdata_o,
  /// Local RAM read data, valid one cycle after ram_addr_o.
  input  logic [31:0]             ram_rdata_i,

  /// The slot's MEMIF, static side.
  input  weft_osif_pkg::mem_rsp_t  mem_i,
  /// The slot's MEMIF, thread side.
  output weft_osif_pkg::mem_req_t  mem_o
);

  typedef enum logic [2:0] {
    StIdle,   // command word 0 offered as soon as req_i is high
    StCmd1,   // command word 1 (address)
    StRead,   // taking read data into the RAM
    StWrite,  // streaming RAM words to mem_wr
    StDone    // done_o pulse
  } state_e;

  state_e state_d, state_q;
  logic [21:0] remain_d, remain_q;       // words still to move on the MEMIF data channel
  logic [21:0] to_fetch_d, to_fetch_q;   // write: RAM words still to read
  logic [RamAddrWidth-1:0] ram_ptr_d, ram_ptr_q;
  logic dir_d, dir_q;

  // Write path: RAM read in flight and a two-entry buffer in front of mem_wr.
  logic rd_pend_d, rd_pend_q;
  logic [31:0] buf0_q, buf1_q;  // buffer entries, buf0_q is the head
  logic [1:0] buf_cnt_q, buf_cnt_d;
  logic buf_push, buf_pop, fetch, done;

  logic [31:0] cmd0;

  assign cmd0 = weft_osif_pkg::memif_word0(req_i.write, req_i.len);

  assign buf_pop = mem_o.wr_valid & mem_i.wr_ready;
  assign buf_push = rd_pend_q;
  // Issue a RAM read when the word it returns will have a buffer entry.
  assign fetch = (state_q == StCmd1 || state_q == StWrite) && dir_q && (to_fetch_q != '0) &&
                 ({1'b0, buf_cnt_q} + {2'b0, rd_pend_q} - {2'b0, buf_pop} < 3'd2);

  always_comb begin
    state_d = state_q;
    remain_d = remain_q;
    to_fetch_d = to_fetch_q;
    ram_ptr_d = ram_ptr_q;
    dir_d = dir_q;
    rd_pend_d = fetch;

    done = 1'b0;
    mem_o = '0;
    mem_o.cmd_data = cmd0;
    mem_o.wr_data = buf0_q;
    ram_we_o = 1'b0;
    ram_wdata_o = mem_i.rd_data;
    ram_addr_o = ram_ptr_q;

    unique case (state_q)
      StIdle: begin
        mem_o.cmd_valid = req_i.valid;
        if (req_i.valid) begin
          dir_d = req_i.write;
          ram_ptr_d = ram_addr_i;
          remain_d = req_i.len[23:2];
          to_fetch_d = req_i.write ? req_i.len[23:2] : '0;
        end
        if (req_i.valid && mem_i.cmd_ready) begin
          state_d = StCmd1;
        end
      end

      StCmd1: begin
        mem_o.cmd_valid = 1'b1;
        mem_o.cmd_data = req_i.addr;
        if (mem_i.cmd_ready) begin
          state_d = dir_q ? StWrite : StRead;
        end
      end

      StRead: begin
        mem_o.rd_ready = 1'b1;
        ram_we_o = mem_i.rd_valid;
        if (mem_i.rd_valid) begin
          ram_ptr_d = ram_ptr_q + 1'b1;
          remain_d = remain_q - 1'b1;
          if (remain_q == 22'd1) begin
            state_d = StDone;
          end
        end
      end

      StWrite: begin
        mem_o.wr_valid = buf_cnt_q != '0;
        if (buf_pop) begin
          remain_d = remain_q - 1'b1;
          if (remain_q == 22'd1) begin
            state_d = StDone;
          end
        end
      end

      StDone: begin
        done = 1'b1;
        state_d = StIdle;
      end

      default: state_d = StIdle;
    endcase

    if (fetch) begin
      ram_ptr_d = ram_ptr_q + 1'b1;
      to_fetch_d = to_fetch_q - 1'b1;
    end
  end

  // Two-entry buffer: entry 0 is the head. A word pushed while the head is popped
  // moves straight to the head.
  always_comb begin
    buf_cnt_d = buf_cnt_q + {1'b0, buf_push} - {1'b0, buf_pop};
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      buf0_q <= '0;
      buf1_q <= '0;
    end else begin
      if (buf_pop) begin
        buf0_q <= (buf_cnt_q == 2'd2) ? buf1_q : ram_rdata_i;
        if (buf_push && buf_cnt_q == 2'd2) begin
          buf1_q <= ram_rdata_i;
        end
      end else if (buf_push) begin
        if (buf_cnt_q == 2'd0) begin
          buf0_q <= ram_rdata_i;
        end else begin
          buf1_q <= ram_rdata_i;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      remain_q <= '0;
      to_fetch_q <= '0;
      ram_ptr_q <= '0;
      dir_q <= 1'b0;
      rd_pend_q <= 1'b0;
      buf_cnt_q <= '0;
    end else begin
      state_q <= state_d;
      remain_q <= remain_d;
      to_fetch_q <= to_fetch_d;
      ram_ptr_q <= ram_ptr_d;
      dir_q <= dir_d;
      rd_pend_q <= rd_pend_d;
      buf_cnt_q <= buf_cnt_d;
    end
  end

  assign rsp_o.done = done;
  assign rsp_o.busy = (state_q != StIdle) || req_i.valid;

  if (RamAddrWidth < 1 || RamAddrWidth > 22) begin : gen_check_ram_addr_width
    $error("weft_memif_burst: RamAddrWidth must be 1..22");
  end

`ifndef SYNTHESIS
  BufNoOverflow_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      buf_cnt_q <= 2'd2)
    else $error("weft_memif_burst: write buffer overflow");
`endif

endmodule

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_dma: the softcore's way to shared memory in a slot (docs/softcore.md, "In a
// slot"): one MEMIF client (weft_memif_burst) on the RAM's load port, which first boots
// the core and then moves blocks for its programs.
//
// Boot: given the program image's bus address (the thread's init data), it reads the
// image's header (weft_osif_pkg::RvBoot*) into registers, checks it, and reads the image
// into the RAM from address 0; then the core may leave reset. A header it refuses ends
// boot with an error (RvBootErr*) and the RAM untouched.
//
// Programs: LOCAL (a RAM byte address), BUS and LEN describe a transfer, and a write to
// CTRL moves it (RvDmaWrite: RAM to memory, else memory to RAM). That write is not
// answered until the last word has moved, so the core, stalled on it, leaves the RAM's
// data port to the transfer: one word a cycle, nothing in the core to arbitrate, and
// after the store the data is there. A transfer that is not word aligned, is empty or
// runs past the RAM is refused (CTRL reads RvDmaErrArgs) and moves nothing. The static
// region checks the bus side: an access outside the thread's memory windows faults the
// whole thread, as for any hardware thread.
module weft_rv_dma #(
  parameter int unsigned MemBytes = weft_osif_pkg::RvRamBytes,
  localparam int unsigned MemAw = $clog2(MemBytes) - 2
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  // ---- boot ----
  /// Boot from the image at boot_addr_i (held from then on).
  input  logic             boot_i,
  input  logic [31:0]      boot_addr_i,
  /// The image is in the RAM: the core may run.
  output logic             booted_o,
  /// The header was refused (boot_err_o says why); nothing was loaded.
  output logic             boot_fail_o,
  output logic [7:0]       boot_err_o,
  /// The header's argument words, word k in bits [32*k +: 32].
  output logic [32*weft_osif_pkg::RvBootArgs-1:0] args_o,

  // ---- the program's window: word offsets 0 LOCAL, 1 BUS, 2 LEN, 3 CTRL ----
  input  logic             req_i,
  input  logic             we_i,
  input  logic [1:0]       addr_i,
  input  logic [31:0]      wdata_i,
  output logic             ready_o,
  output logic [31:0]      rdata_o,

  // ---- the RAM's load port (weft_rv_load_ports.svh) ----
  output logic             load_en_o,
  output logic             load_we_o,
  output logic [MemAw-1:0] load_addr_o,
  output logic [31:0]      load_wdata_o,
  input  logic [31:0]      load_rdata_i,

  input  weft_osif_pkg::mem_rsp_t mem_i,
  output weft_osif_pkg::mem_req_t mem_o
);

  localparam int unsigned HdrWords = weft_osif_pkg::RvBootHeaderBytes / 4;
  localparam int unsigned NumArgs = weft_osif_pkg::RvBootArgs;

  typedef enum logic [2:0] {
    SBoot,    // waiting for boot_i
    SHeader,  // reading the header into hdr_q
    SCheck,   // checking it
    SImage,   // reading the image into the RAM
    SRun,     // the core runs; transfers on request
    SMove,    // a program's transfer
    SFailed   // the header was refused
  } state_e;

  state_e      state_q;
  logic [31:0] hdr_q [HdrWords];
  logic [31:0] local_q, bus_q, len_q;
  logic        dir_q;    // the transfer in progress writes memory
  logic        refused_q;
  logic [7:0]  err_q;

  // ---- the header's check ----
  logic [31:0] img_bytes;
  logic [7:0]  hdr_err;
  assign img_bytes = hdr_q[2];
  always_comb begin
    hdr_err = '0;
    if (hdr_q[0] != weft_osif_pkg::RvBootMagic) hdr_err = 8'(weft_osif_pkg::RvBootErrMagic);
    else if (hdr_q[1] != weft_osif_pkg::RvBootVersion) hdr_err = 8'(weft_osif_pkg::RvBootErrVersion);
    else if (img_bytes == '0 || img_bytes[1:0] != '0 || img_bytes > MemBytes)
      hdr_err = 8'(weft_osif_pkg::RvBootErrSize);
    else if (hdr_q[3] != '0) hdr_err = 8'(weft_osif_pkg::RvBootErrReserved);
  end

  // ---- a program's transfer: the checks before it moves ----
  logic move_req, move_ok;
  assign move_req = req_i && we_i && addr_i == 2'd3 && state_q == SRun;
  // (Inside the RAM is also below a MEMIF transfer's 16 MiB: gen_check_mem.)
  assign move_ok  = local_q[1:0] == '0 && bus_q[1:0] == '0 && len_q != '0 && len_q[1:0] == '0 &&
                    {1'b0, local_q} + {1'b0, len_q} <= 33'(MemBytes);

  // ---- the burst client ----
  weft_hwt_pkg::burst_req_t burst;
  weft_hwt_pkg::burst_rsp_t burst_rsp;
  logic [MemAw-1:0] burst_ram_addr, ram_addr;
  logic             ram_we;
  logic [31:0]      ram_wdata;

  always_comb begin
    burst = '0;
    burst_ram_addr = '0;
    unique case (state_q)
      SHeader: begin
        burst.valid = 1'b1;
        burst.addr  = boot_addr_i;
        burst.len   = 24'(HdrWords * 4);
      end
      SImage: begin
        burst.valid = 1'b1;
        burst.addr  = boot_addr_i + weft_osif_pkg::RvBootHeaderBytes;
        burst.len   = img_bytes[23:0];
      end
      SMove: begin
        burst.valid    = 1'b1;
        burst.write    = dir_q;
        burst.addr     = bus_q;
        burst.len      = len_q[23:0];
        burst_ram_addr = local_q[MemAw+1:2];
      end
      default: ;
    endcase
  end

  weft_memif_burst #(.RamAddrWidth(MemAw)) u_burst (
    .clk_i,
    .rst_ni,
    .req_i      (burst),
    .ram_addr_i (burst_ram_addr),
    .rsp_o      (burst_rsp),
    .ram_addr_o (ram_addr),
    .ram_we_o   (ram_we),
    .ram_wdata_o(ram_wdata),
    .ram_rdata_i(load_rdata_i),
    .mem_i,
    .mem_o
  );

  // The header's words go to hdr_q, never to the RAM.
  assign load_en_o    = burst_rsp.busy && state_q != SHeader;
  assign load_we_o    = ram_we;
  assign load_addr_o  = ram_addr;
  assign load_wdata_o = ram_wdata;

  always_ff @(posedge clk_i) begin
    if (state_q == SHeader && ram_we && {{(32 - MemAw){1'b0}}, ram_addr} < HdrWords)
      hdr_q[ram_addr[$clog2(HdrWords)-1:0]] <= ram_wdata;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q   <= SBoot;
      local_q   <= '0;
      bus_q     <= '0;
      len_q     <= '0;
      dir_q     <= 1'b0;
      refused_q <= 1'b0;
      err_q     <= '0;
    end else begin
      if (req_i && we_i && state_q == SRun) begin
        unique case (addr_i)
          2'd0: local_q <= wdata_i;
          2'd1: bus_q <= wdata_i;
          2'd2: len_q <= wdata_i;
          default: ;
        endcase
      end
      unique case (state_q)
        SBoot: if (boot_i) state_q <= SHeader;
        SHeader: if (burst_rsp.done) state_q <= SCheck;
        SCheck: begin
          err_q <= hdr_err;
          state_q <= (hdr_err != '0) ? SFailed : SImage;
        end
        SImage: if (burst_rsp.done) state_q <= SRun;
        SRun: begin
          if (move_req) begin
            refused_q <= !move_ok;
            dir_q <= wdata_i[0];
            if (move_ok) state_q <= SMove;
          end
        end
        SMove: if (burst_rsp.done) state_q <= SRun;
        default: ;
      endcase
    end
  end

  // A transfer's store waits for its end; everything else is answered at once.
  assign ready_o = (state_q == SMove) ? burst_rsp.done : !(move_req && move_ok);
  always_comb begin
    unique case (addr_i)
      2'd0: rdata_o = local_q;
      2'd1: rdata_o = bus_q;
      2'd2: rdata_o = len_q;
      default: rdata_o = {31'b0, refused_q};
    endcase
  end

  assign booted_o    = state_q == SRun || state_q == SMove;
  assign boot_fail_o = state_q == SFailed;
  assign boot_err_o  = err_q;
  for (genvar k = 0; k < NumArgs; k++) begin : gen_args
    assign args_o[32*k +: 32] = hdr_q[4 + k];
  end

  if (HdrWords != 4 + NumArgs) begin : gen_check_header
    $error("weft_rv_dma: the boot header is magic, version, bytes, reserved and the arguments");
  end
  if (MemBytes >= (1 << 24)) begin : gen_check_mem
    $error("weft_rv_dma: the RAM must be below 16 MiB (one MEMIF transfer)");
  end

endmodule

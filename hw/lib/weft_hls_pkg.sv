// weft_hls_pkg: how a kernel of Weft's HLS-style accelerators talks to weft_hls_shell
// (its ap_ctrl_hs control block and its AXI4 master, docs/hls.md).
package weft_hls_pkg;

  /// Most 64-bit arguments a control block holds (0x10 .. 0x3F).
  localparam int unsigned MaxArgs = 6;

  /// Kernel to shell.
  typedef struct packed {
    logic        done;      // one cycle: the kernel has finished
    logic        rd_start;  // one cycle: read rd_words words from rd_addr
    logic [31:0] rd_addr;
    logic [15:0] rd_words;
    logic        rd_ready;  // takes rd_data (word rd_index of the read)
    logic        wr_start;  // one cycle: write wr_words words to wr_addr
    logic [31:0] wr_addr;
    logic [15:0] wr_words;
    logic [31:0] wr_data;   // word wr_index of the write
    logic        wr_valid;  // wr_data is there (the shell takes it when it can)
  } kreq_t;

  /// Shell to kernel.
  typedef struct packed {
    logic                    start;    // one cycle: begin with args
    logic [MaxArgs*64-1:0]   args;     // argument i in bits [64*i +: 64]
    logic [31:0]             rd_data;
    logic                    rd_valid;
    logic [15:0]             rd_index; // which word of the read rd_data is
    logic                    rd_last;  // rd_data is the read's last word
    logic [15:0]             wr_index; // which word of the write wr_data must be
    logic                    wr_done;  // one cycle: the write is in memory (its last B in)
  } krsp_t;

  /// Argument i of args, low word (a buffer address below 4 GiB, or a count).
  function automatic logic [31:0] arg32(input logic [MaxArgs*64-1:0] args, input integer i);
    arg32 = args[64*i +: 32];
  endfunction

endpackage

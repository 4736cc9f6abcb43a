// weft_hwt_pkg: the types of the hardware-thread API (hw/lib).
//
// A thread's state machine talks to the API's clients through one request struct and
// one response struct per client, so that an instance names a handful of signals and a
// thread reads only the response fields it needs. The slot boundary itself (slot_req_t,
// slot_rsp_t and their channels) is in the generated weft_osif_pkg.
//
// Common protocol of every *_req_t / *_rsp_t pair: the state machine holds `valid` high
// with the other request fields stable until the response's one-cycle `done` pulse; the
// response fields are valid in that cycle and stay so until the next request starts.
// `valid` is ignored in the `done` cycle, so a next state that holds it high again makes
// a new request.
package weft_hwt_pkg;

  /// An OS call, towards weft_osif_call. Argument words go on its args_i port.
  typedef struct packed {
    logic        valid;     // make the call
    logic [7:0]  cmd;       // command code, a weft_osif_pkg::Cmd* constant
    logic [15:0] handle;    // resource handle (0 for commands that take none)
    logic [15:0] nargs;     // argument words to send, at most the client's MaxArgs
    logic [15:0] nresults;  // most result words accepted (at most MaxResults); more: err
  } call_req_t;

  /// The call's completion, from weft_osif_call. Result words are on its results_o port.
  typedef struct packed {
    logic        done;      // one-cycle pulse: the call completed
    logic        ok;        // status is StatusOk and the response was well formed
    logic [7:0]  status;    // the response's status; StatusInternal when malformed
    logic        err;       // malformed response (cmd echo or too many result words)
    logic [31:0] hdr;       // the response header word as received
    logic [15:0] nresults;  // result words stored in results_o
    logic        busy;      // a call is in progress or requested
  } call_rsp_t;

  /// A transfer of words into or out of a mailbox, towards weft_mbox_stream.
  typedef struct packed {
    logic        valid;     // start the transfer
    logic [15:0] handle;    // mailbox handle (a software mailbox or a hardware link)
    logic [31:0] count;     // words to move, at least 1
  } stream_req_t;

  /// The transfer's end, from weft_mbox_stream.
  typedef struct packed {
    logic        done;      // one-cycle pulse: the transfer ended
    logic [7:0]  status;    // StatusOk, StatusCanceled, or a burst call's status
    logic [31:0] moved;     // words moved
    logic        busy;      // a transfer is in progress or requested
  } stream_rsp_t;

  /// A block transfer between shared memory and local RAM, towards weft_memif_burst.
  typedef struct packed {
    logic        valid;     // start the transfer
    logic        write;     // 1: RAM to memory; 0: memory to RAM
    logic [31:0] addr;      // bus address, 4-byte aligned
    logic [23:0] len;       // bytes: a non-zero multiple of 4
  } burst_req_t;

  /// The block transfer's end, from weft_memif_burst.
  typedef struct packed {
    logic        done;      // one-cycle pulse: the last word moved
    logic        busy;      // a transfer is in progress or requested (it owns the RAM port)
  } burst_rsp_t;

  /// A single-word access to shared memory, towards weft_memif_word.
  typedef struct packed {
    logic        valid;     // start the access
    logic        write;     // 1: write wdata; 0: read
    logic [31:0] addr;      // bus address, 4-byte aligned
    logic [31:0] wdata;     // word to write
  } word_req_t;

  /// The access's end, from weft_memif_word.
  typedef struct packed {
    logic        done;      // one-cycle pulse: the word moved
    logic [31:0] rdata;     // word read by the last read (kept until the next read)
  } word_rsp_t;

  /// One word of a valid/ready stream, sender to receiver (ready runs back on its own).
  typedef struct packed {
    logic [31:0] data;
    logic        valid;
  } word_stream_t;

endpackage

// weft_slot_check: a hardware thread's top module against the slot boundary.
//
// This wrapper has exactly the boundary's ports (weft_slot_ports.svh) and connects the
// thread's by name, so Verilator's lint of it fails, naming the port, when the thread
// lacks one, has one more, or gives one another type or width. weft_add_hw_thread()
// (cmake/WeftThread.cmake) runs it with +define+WEFT_SLOT_CHECK_TOP=<top> before it
// builds an image: a mismatch is reported there, not as a compile error in the glue.
`ifndef WEFT_SLOT_CHECK_TOP
  `define WEFT_SLOT_CHECK_TOP weft_slot_check_top_not_given
`endif
module weft_slot_check (
  `include "weft_slot_ports.svh"
);
  `WEFT_SLOT_CHECK_TOP u_thread (.*);
endmodule

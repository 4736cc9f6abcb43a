// weft_test_increment: a test-only hardware thread that answers every OSIF word w with
// w + 1 (weft_test_loopback with Increment = 1), so a test can tell it from the echo.
module weft_test_increment (
  `include "weft_slot_ports.svh"
);
  weft_test_loopback #(.Increment(32'd1)) u_loopback (.*);
endmodule

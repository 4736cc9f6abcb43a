// weft_test_increment: a test-only hardware thread that answers every OSIF word w with
// w + 1, 1000 cycles later (weft_test_loopback with Increment = 1, Delay = 1000), so a
// test can tell it from the echo and the static region holds while it computes.
module weft_test_increment (
  `include "weft_slot_ports.svh"
);
  weft_test_loopback #(.Increment(32'd1), .Delay(16'd1000)) u_loopback (.*);

endmodule

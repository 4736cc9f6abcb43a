// For a hardware thread without registers of its own (the slot's ACC window,
// docs/hls.md): its answer is 0, so an access of the window ends after ACC_TIMEOUT
// cycles, reads 0 and sets FAULT.ACC. Include it in the module body:
//
//   `include "weft_no_regs.svh"
assign slot_o.regs = '0;
logic unused_slot_regs;
assign unused_slot_regs = ^slot_i.regs;

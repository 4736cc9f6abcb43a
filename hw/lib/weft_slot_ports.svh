// The slot boundary: the fixed port list every hardware thread's top module has, the
// partition pins of a reconfigurable slot (docs/architecture.md). Include it as the whole
// port list of the top module:
//
//   module hwt_example #(...) (
//     `include "weft_slot_ports.svh"
//   );
//
// Besides the clock and the reset, the boundary is two packed structs generated from
// protocol/osif.yaml (weft_osif_pkg): slot_i carries the static region's side of every
// channel (OSIF responses and room for requests; MEMIF read data and room for commands
// and write data), slot_o the thread's. A thread connects slot_i.osif/slot_o.osif to its
// OS-call client and slot_i.mem/slot_o.mem to its memory client (hw/lib), and ties a
// channel it does not use to zero. One definition, so that no thread can drift from what
// the static region and the simulation's slot model ABI expect.
  /// Fabric clock; the thread uses its rising edge only.
  input  logic                      clk_i,
  /// Active-low synchronous reset (CONTROL.RESET).
  input  logic                      rst_ni,
  /// The static region's side of the slot's channels.
  input  weft_osif_pkg::slot_rsp_t  slot_i,
  /// The thread's side of the slot's channels.
  output weft_osif_pkg::slot_req_t  slot_o

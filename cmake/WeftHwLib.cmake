# The hardware-thread API (hw/lib): the RTL every hardware thread is built with.
#
# WEFT_HWLIB_SOURCES  ordered list of hw/lib files (after the generated OSIF package
#                     ${WEFT_OSIF_PKG_SV}, which they use); the API's package
#                     weft_hwt_pkg first
# WEFT_HWLIB_INCLUDE  Verilator/Yosys include flag for weft_slot_ports.svh
# WEFT_HWLIB_LINT_VLT Verilator configuration for lint runs of hardware threads
# WEFT_SLOT_CHECK_SV  the slot-boundary check wrapper (weft_slot_check.sv), a top of its
#                     own and so not among the sources
include_guard(GLOBAL)

get_filename_component(WEFT_HWLIB_DIR ${CMAKE_CURRENT_LIST_DIR}/../hw/lib ABSOLUTE)
set(WEFT_HWLIB_SOURCES
  ${WEFT_HWLIB_DIR}/weft_hwt_pkg.sv
  ${WEFT_HWLIB_DIR}/weft_ram.sv
  ${WEFT_HWLIB_DIR}/weft_osif_call.sv
  ${WEFT_HWLIB_DIR}/weft_osif_arb.sv
  ${WEFT_HWLIB_DIR}/weft_mbox_stream.sv
  ${WEFT_HWLIB_DIR}/weft_memif_burst.sv
  ${WEFT_HWLIB_DIR}/weft_ram_stream.sv
  ${WEFT_HWLIB_DIR}/weft_memif_word.sv
  ${WEFT_HWLIB_DIR}/weft_hls_pkg.sv
  ${WEFT_HWLIB_DIR}/weft_hls_ctrl.sv
  ${WEFT_HWLIB_DIR}/weft_hls_mem.sv
  ${WEFT_HWLIB_DIR}/weft_hls_shell.sv
  ${WEFT_HWLIB_DIR}/weft_hls_adapter.sv)

set(WEFT_SLOT_CHECK_SV ${WEFT_HWLIB_DIR}/weft_slot_check.sv)

# Threads include weft_slot_ports.svh (the slot boundary) from here.
set(WEFT_HWLIB_INCLUDE -I${WEFT_HWLIB_DIR})
# Lint runs of hardware threads use the project's Verilator configuration.
set(WEFT_HWLIB_LINT_VLT ${WEFT_VLT_CONFIG})

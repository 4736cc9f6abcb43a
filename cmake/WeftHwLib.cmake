# The hardware-thread API (hw/lib): the RTL every hardware thread is built with.
#
# WEFT_HWLIB_SOURCES  ordered list of hw/lib files (after the generated OSIF package
#                     ${WEFT_OSIF_PKG_SV}, which they use)
# WEFT_HWLIB_LINT_VLT Verilator configuration for lint runs of hardware threads: the
#                     project's ${WEFT_VLT_CONFIG} when it exists, else a file generated
#                     here that waives only UNUSEDPARAM in the generated package (a
#                     thread uses few of the package's constants).
include_guard(GLOBAL)

get_filename_component(WEFT_HWLIB_DIR ${CMAKE_CURRENT_LIST_DIR}/../hw/lib ABSOLUTE)
set(WEFT_HWLIB_SOURCES
  ${WEFT_HWLIB_DIR}/weft_ram.sv
  ${WEFT_HWLIB_DIR}/weft_osif_call.sv
  ${WEFT_HWLIB_DIR}/weft_memif_burst.sv
  ${WEFT_HWLIB_DIR}/weft_memif_word.sv)

if(DEFINED WEFT_VLT_CONFIG AND EXISTS ${WEFT_VLT_CONFIG})
  set(WEFT_HWLIB_LINT_VLT ${WEFT_VLT_CONFIG})
else()
  set(WEFT_HWLIB_LINT_VLT ${CMAKE_BINARY_DIR}/generated/rtl/weft_hwlib_lint.vlt)
  file(WRITE ${WEFT_HWLIB_LINT_VLT}.tmp
    "`verilator_config\n"
    "// The generated package holds every protocol constant; one thread uses few.\n"
    "lint_off -rule UNUSEDPARAM -file \"*/weft_osif_pkg.sv\"\n")
  file(COPY_FILE ${WEFT_HWLIB_LINT_VLT}.tmp ${WEFT_HWLIB_LINT_VLT} ONLY_IF_DIFFERENT)
endif()

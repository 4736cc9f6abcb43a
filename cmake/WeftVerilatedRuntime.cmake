# Verilator's runtime (verilated.cpp, verilated_threads.cpp), compiled once.
#
# verilate() adds the runtime's sources to every target it generates a model for, so a
# build with a dozen thread images and test benches compiled it a dozen times.
# weft_share_verilated_runtime(<target>) takes them out of <target> again and links the
# one copy built here instead. The library is position independent with hidden
# visibility, so a thread image that links it keeps its runtime to itself
# (cmake/WeftThread.cmake), exactly as with its own compiled copy.
include_guard(GLOBAL)

add_library(weft_verilated_runtime STATIC
  ${VERILATOR_ROOT}/include/verilated.cpp
  ${VERILATOR_ROOT}/include/verilated_threads.cpp)
target_include_directories(weft_verilated_runtime SYSTEM PUBLIC
  ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
# The settings verilate() gives the runtime of a model without tracing or coverage.
target_compile_definitions(weft_verilated_runtime PRIVATE
  VM_COVERAGE=0 VM_SC=0 VM_TRACE=0 VM_TRACE_VCD=0 VM_TRACE_FST=0)
target_link_libraries(weft_verilated_runtime PUBLIC Threads::Threads)
set_target_properties(weft_verilated_runtime PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON)

function(weft_share_verilated_runtime target)
  get_target_property(_srcs ${target} SOURCES)
  list(FILTER _srcs EXCLUDE REGEX "^${VERILATOR_ROOT}/include/[^/]*\\.cpp$")
  set_property(TARGET ${target} PROPERTY SOURCES ${_srcs})
  target_link_libraries(${target} PRIVATE weft_verilated_runtime)
endfunction()

# Self-checking Verilator test benches of the hardware-thread API (hw/lib) and of the
# hardware threads (hw/threads), run before (and independently of) the real static
# region: tb_hwlib_slot_model.h models the static side of a slot.
if(NOT DEFINED WEFT_HWLIB_SOURCES)
  message(STATUS "hwlib tests: cmake/WeftHwLib.cmake not included, skipped")
  return()
endif()

set(_hwlib_tb_dir ${CMAKE_CURRENT_LIST_DIR})
set(_hw_threads_dir ${PROJECT_SOURCE_DIR}/hw/threads)

# weft_hwlib_tb(<test> TOP <module> SOURCES <sv...>): <test>.cpp of this directory as a
# test bench (weft_add_thread_testbench(), cmake/WeftThread.cmake), run by ctest.
function(weft_hwlib_tb test)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TOP" "SOURCES")
  weft_add_thread_testbench(${test} TOP ${ARG_TOP} SOURCES ${ARG_SOURCES}
    BENCH ${_hwlib_tb_dir}/${test}.cpp)
  target_include_directories(${test} PRIVATE ${_hwlib_tb_dir})
  target_link_libraries(${test} PRIVATE weft_headers)
  add_test(NAME ${test} COMMAND ${test})
  set_tests_properties(${test} PROPERTIES LABELS "rtl" TIMEOUT 600)
endfunction()

# The lib modules' benches drive them through test-bench tops (tb_weft_*.sv) that give
# each field of the API's structs its own port and put the channel on the slot boundary.
set(_hwt_pkg ${PROJECT_SOURCE_DIR}/hw/lib/weft_hwt_pkg.sv)
weft_hwlib_tb(tb_hwlib_osif_call TOP tb_weft_osif_call
  SOURCES ${_hwt_pkg} ${PROJECT_SOURCE_DIR}/hw/lib/weft_osif_call.sv
          ${_hwlib_tb_dir}/tb_weft_osif_call.sv)
weft_hwlib_tb(tb_hwlib_memif_burst TOP tb_weft_memif_burst
  SOURCES ${_hwt_pkg} ${PROJECT_SOURCE_DIR}/hw/lib/weft_memif_burst.sv
          ${_hwlib_tb_dir}/tb_weft_memif_burst.sv)
weft_hwlib_tb(tb_thread_sort TOP hwt_sort
  SOURCES ${WEFT_HWLIB_SOURCES} ${_hw_threads_dir}/sort/hwt_sort.sv)
weft_hwlib_tb(tb_thread_calls TOP hwt_calls
  SOURCES ${WEFT_HWLIB_SOURCES} ${_hw_threads_dir}/calls/hwt_calls.sv)
weft_hwlib_tb(tb_thread_bad TOP hwt_bad
  SOURCES ${WEFT_HWLIB_SOURCES} ${_hw_threads_dir}/bad/hwt_bad.sv)
weft_hwlib_tb(tb_thread_chaos TOP hwt_chaos
  SOURCES ${WEFT_HWLIB_SOURCES} ${_hw_threads_dir}/chaos/hwt_chaos.sv)
weft_hwlib_tb(tb_thread_display TOP hwt_display
  SOURCES ${WEFT_HWLIB_SOURCES} ${_hw_threads_dir}/display/hwt_display.sv)
weft_hwlib_tb(tb_thread_laplace TOP hwt_laplace
  SOURCES ${WEFT_HWLIB_SOURCES} ${_hw_threads_dir}/laplace/hwt_laplace.sv)

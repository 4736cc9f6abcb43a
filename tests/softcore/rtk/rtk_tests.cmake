# The real-time kernel's self-test (tests/softcore/rtk/rtk_selftest.c): one program that
# checks the API's documented behaviour (include/weft/rtk.h), built once per port, and a
# test for each on eight contexts. include()d from tests/softcore/CMakeLists.txt, after
# rv_run is defined; the images go in this directory's binary directory.
#
# The tick is short (RTK_TICK_CYCLES, read by the program and both ports) so that the
# test's few hundred ticks of sleeps and timeouts run in seconds of simulation.
set(WEFT_RTK_SELFTEST_TICK_CYCLES 20000)

foreach(_port sw hw)
  string(TOUPPER ${_port} _P)
  weft_rv_program(rtk_selftest_${_port}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/rtk_selftest.c ${WEFT_RTK_${_P}_SOURCES}
    INCLUDES ${PROJECT_SOURCE_DIR}/softcore/rtk
    DEFINES RTK_TICK_CYCLES=${WEFT_RTK_SELFTEST_TICK_CYCLES}u)
  add_test(NAME softcore_rtk_selftest_${_port}
    COMMAND rv_run --ctx 8 --max-cycles 60000000 --expect "checks passed"
            ${CMAKE_CURRENT_BINARY_DIR}/rtk_selftest_${_port}.bin)
  set_tests_properties(softcore_rtk_selftest_${_port} PROPERTIES LABELS "softcore" TIMEOUT 600)
endforeach()

# The hardware-context port with two contexts for its threads: every phase has more
# threads than that, so they take turns, switched in software by context 0.
weft_rv_program(rtk_selftest_hw_shared
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/rtk_selftest.c ${WEFT_RTK_HW_SOURCES}
  INCLUDES ${PROJECT_SOURCE_DIR}/softcore/rtk
  DEFINES RTK_TICK_CYCLES=${WEFT_RTK_SELFTEST_TICK_CYCLES}u RTK_HW_CONTEXTS=3)
add_test(NAME softcore_rtk_selftest_hw_shared
  COMMAND rv_run --ctx 8 --max-cycles 60000000 --expect "checks passed"
          ${CMAKE_CURRENT_BINARY_DIR}/rtk_selftest_hw_shared.bin)
set_tests_properties(softcore_rtk_selftest_hw_shared PROPERTIES LABELS "softcore" TIMEOUT 600)

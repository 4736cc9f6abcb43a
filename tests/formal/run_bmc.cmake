# One bounded model check (tests/formal/CMakeLists.txt): the harness and its block to
# SMT-LIB (flattened, memories as flip-flops, the asynchronous reset made synchronous for
# the solver), then yosys-smtbmc with z3 to DEPTH steps; fails, printing the solver's
# report, unless it says PASSED.
string(REPLACE ";" " " sources "${SOURCES}")
execute_process(
  COMMAND ${YOSYS} -q -p "read_verilog -sv -formal ${sources}; prep -flatten -top ${TOP}; memory_map; opt -fast; async2sync; dffunmap; write_smt2 -wires ${SMT2}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "yosys could not read ${TOP}:\n${out}")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env "PATH=${Z3_DIR}:$ENV{PATH}"
          ${SMTBMC} -s z3 -t ${DEPTH} ${SMT2}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "Status: PASSED")
  message(FATAL_ERROR "${TOP}: the proof to depth ${DEPTH} failed:\n${out}")
endif()
message(STATUS "${TOP}: every assertion holds for every input sequence of ${DEPTH} cycles")

# One fuzz test (see CMakeLists.txt): replay every file in REGRESSIONS, then run FUZZER
# with -seed=1 -runs=RUNS on a fresh copy of CORPUS under SCRATCH.
foreach(var FUZZER CORPUS SCRATCH RUNS MAX_LEN TIMEOUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_fuzz.cmake: ${var} not set")
  endif()
endforeach()

file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/corpus ${SCRATCH}/artifacts)
file(GLOB seeds LIST_DIRECTORIES false ${CORPUS}/*)
if(seeds)
  file(COPY ${seeds} DESTINATION ${SCRATCH}/corpus)
endif()
set(common -timeout=${TIMEOUT} -max_len=${MAX_LEN} -artifact_prefix=${SCRATCH}/artifacts/)

if(DEFINED REGRESSIONS AND IS_DIRECTORY ${REGRESSIONS})
  file(GLOB regressions LIST_DIRECTORIES false ${REGRESSIONS}/*)
  list(LENGTH regressions n)
  if(n GREATER 0)
    message(STATUS "replaying ${n} regression input(s) from ${REGRESSIONS}")
    execute_process(COMMAND ${FUZZER} ${common} ${regressions} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "a regression input fails again (exit ${rc})")
    endif()
  endif()
endif()

execute_process(COMMAND ${FUZZER} ${common} -seed=1 -runs=${RUNS} -print_final_stats=1
                        ${SCRATCH}/corpus
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (exit ${rc}); the input is in ${SCRATCH}/artifacts")
endif()

# Runs Doxygen on docs/Doxyfile into OUT_DIR and fails when it prints anything on stderr
# or exits non-zero (FAIL_ON_WARNINGS), after printing every warning as Doxygen wrote it. The Doxyfile
# takes its paths from the environment; Doxygen splits them at spaces, so the source and
# build trees must not have any in their paths.
#   cmake -DDOXYGEN=doxygen -DDOXYFILE=docs/Doxyfile -DSOURCE_DIR=<source tree>
#         -DGEN_DIR=<build>/generated -DOUT_DIR=<output> -P check_api_docs.cmake
foreach(var DOXYGEN DOXYFILE SOURCE_DIR GEN_DIR OUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_api_docs: -D${var}=... is required")
  endif()
endforeach()
if(NOT EXISTS ${GEN_DIR}/include/weft/osif_protocol.h)
  message(FATAL_ERROR "check_api_docs: ${GEN_DIR}/include/weft/osif_protocol.h is missing: "
                      "build first")
endif()

file(REMOVE_RECURSE ${OUT_DIR}) # no page of a removed declaration survives
file(MAKE_DIRECTORY ${OUT_DIR})
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env WEFT_SOURCE_DIR=${SOURCE_DIR} WEFT_GEN_DIR=${GEN_DIR}
          WEFT_API_DOCS=${OUT_DIR} ${DOXYGEN} ${DOXYFILE}
  WORKING_DIRECTORY ${OUT_DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)

string(REGEX MATCHALL "(warning|error): " found "${err}")
list(LENGTH found n)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(NOTICE "${out}${err}") # as Doxygen printed them: FATAL_ERROR would rewrap the lines
  message(FATAL_ERROR "doxygen: ${n} warnings (exit status ${rc}), above; fix the comments "
                      "of include/weft/*.h")
endif()
if(NOT EXISTS ${OUT_DIR}/html/index.html)
  message(FATAL_ERROR "doxygen: no warning, but ${OUT_DIR}/html/index.html was not written")
endif()
message(STATUS "doxygen: API reference without a warning: ${OUT_DIR}/html/index.html")

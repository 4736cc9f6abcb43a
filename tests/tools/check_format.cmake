# Fails when a C or C++ file of the tree differs from what .clang-format asks for.
file(GLOB_RECURSE files
  ${SOURCE_DIR}/include/*.h ${SOURCE_DIR}/runtime/*.[ch] ${SOURCE_DIR}/platform/*.[ch]
  ${SOURCE_DIR}/platform/*.cpp ${SOURCE_DIR}/apps/*.[ch] ${SOURCE_DIR}/tests/*.[ch]
  ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/bench/*.[ch] ${SOURCE_DIR}/bench/*.cpp
  ${SOURCE_DIR}/softcore/*.[ch])
execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${files}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang-format: these files need formatting (run clang-format-14 -i):\n${err}")
endif()
list(LENGTH files n)
message(STATUS "clang-format: ${n} files formatted as .clang-format asks")

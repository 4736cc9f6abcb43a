# Verilator's runtime (verilated.cpp, verilated_threads.cpp), compiled once.
#
# verilate() adds the runtime's sources to every target it generates a model for, so a
# build with a dozen thread images and test benches compiled it a dozen times.
# weft_share_verilated_runtime(<target>) takes them out of <target> again and links the
# one copy built here instead. The library is position independent with hidden
# visibility, so a thread image that links it keeps its runtime to itself
# (cmake/WeftThread.cmake), exactly as with its own compiled copy.
include_guard(GLOBAL)

# The FST writer (with GTKWave's fstapi, which needs zlib) serves the thread images'
# waveforms on demand (docs/waves.md).
find_package(ZLIB REQUIRED)
add_library(weft_verilated_runtime STATIC
  ${VERILATOR_ROOT}/include/verilated.cpp
  ${VERILATOR_ROOT}/include/verilated_threads.cpp
  ${VERILATOR_ROOT}/include/verilated_fst_c.cpp)
target_include_directories(weft_verilated_runtime SYSTEM PUBLIC
  ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
# The settings verilate() gives the runtime of a model without tracing or coverage.
target_compile_definitions(weft_verilated_runtime PRIVATE
  VM_COVERAGE=0 VM_SC=0 VM_TRACE=0 VM_TRACE_VCD=0 VM_TRACE_FST=0)
target_link_libraries(weft_verilated_runtime PUBLIC Threads::Threads ZLIB::ZLIB)
set_target_properties(weft_verilated_runtime PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON)

#
# It also compiles each model's generated files as one translation unit (a unity build
# per model, as Verilator's own makefiles do with V<top>__ALL.cpp). A model is a dozen
# small files that each include verilated.h: compiled one by one, parsing the headers
# took most of the time (hwt_sort's model: 70 s of compiler time apart, 11 s as one).
# The target's other sources are compiled as before.
function(weft_share_verilated_runtime target)
  get_target_property(_srcs ${target} SOURCES)
  list(FILTER _srcs EXCLUDE REGEX "^${VERILATOR_ROOT}/include/[^/]*\\.cpp$")
  set_property(TARGET ${target} PROPERTY SOURCES ${_srcs})
  target_link_libraries(${target} PRIVATE weft_verilated_runtime)

  # verilate() writes a model's files into <Mdir>/V<prefix>.dir/: one group per model.
  set(_models)
  foreach(_src IN LISTS _srcs)
    if(_src MATCHES "/(V[^/]*\\.dir)/[^/]*\\.cpp$")
      set(_group ${CMAKE_MATCH_1})
      list(APPEND _models ${_group})
      list(APPEND _files_${_group} ${_src})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _models)
  foreach(_group IN LISTS _models)
    set_source_files_properties(${_files_${_group}} TARGET_DIRECTORY ${target}
      PROPERTIES UNITY_GROUP ${_group})
  endforeach()
  if(_models)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  endif()
endfunction()

# weft_add_hw_thread(NAME <name> TOP <top> SOURCES <sv files...>)
#
# Builds the simulation image of one hardware thread: ${CMAKE_BINARY_DIR}/images/<name>.so,
# a Verilator model of module <top> (which has the slot-boundary port list of
# docs/architecture.md) plus the glue platform/sim/slot_model_image.cpp, which exports the
# one symbol weft_slot_model_abi() (platform/sim/slot_model_abi.h). The simulation backend
# dlopen()s the image when a slot is reconfigured: it is the simulation's partial
# bitstream.
#
# Verilator inputs, in order: the generated OSIF package (WEFT_OSIF_PKG_SV), the
# hardware-thread API (WEFT_HWLIB_SOURCES, when defined), then SOURCES; -Wall plus the
# project lint configuration WEFT_VLT_CONFIG when that file exists. Configuration files
# (*.vlt) among SOURCES are passed before every source.
#
# The image carries its own copy of the Verilator runtime (the library of
# cmake/WeftVerilatedRuntime.cmake, linked statically). It is compiled with hidden
# visibility and linked with -Bsymbolic, so no symbol of it interposes on (or is
# interposed by) the backend's runtime or another image's; only the ABI symbol is
# exported. The CMake target is <name> itself.
#
# Before it builds, the top module is checked against the slot boundary
# (hw/lib/weft_slot_check.sv) and verilated once. In the tree a thread that fails gets a
# configure warning and no target (test with if(TARGET <name>)), so one broken thread does
# not stop the rest; from the installed package (WEFT_HW_THREAD_STRICT, set by
# WeftConfig.cmake) the configure fails with Verilator's message, since there the thread
# is the user's own.
#
# The same file serves the tree and the installed package (cmake/WeftConfig.cmake.in),
# which sets WEFT_SLOT_MODEL_IMAGE_SOURCE and WEFT_SLOT_MODEL_INCLUDE_DIRS to the
# installed glue before including it.
include_guard(GLOBAL)

if(NOT DEFINED WEFT_SLOT_MODEL_IMAGE_SOURCE)
  get_filename_component(WEFT_SLOT_MODEL_IMAGE_SOURCE
    ${CMAKE_CURRENT_LIST_DIR}/../platform/sim/slot_model_image.cpp ABSOLUTE)
  set(WEFT_SLOT_MODEL_INCLUDE_DIRS ${PROJECT_SOURCE_DIR}/platform/sim ${WEFT_GEN_DIR}/include)
  # The static side's model for test benches of a thread alone (tb_hwlib_slot_model.h).
  set(WEFT_TESTBENCH_INCLUDE_DIRS ${PROJECT_SOURCE_DIR}/tests/rtl ${WEFT_GEN_DIR}/include)
endif()
set(WEFT_IMAGE_DIR ${CMAKE_BINARY_DIR}/images)
# Partial bitstreams of the platform's hardware tasks (tools/CMakeLists.txt), <image>.wbit.
set(WEFT_BITSTREAM_DIR ${CMAKE_BINARY_DIR}/bitstreams)

# weft_parse_hw_thread(<entry> <prefix>): an entry of WEFT_HW_THREADS
# ("image:top:source[,source...][:param=value]") into <prefix>_NAME, _TOP, _SRC (a list,
# the top's file first) and _PARAMS (a list of name=value, maybe empty).
function(weft_parse_hw_thread entry prefix)
  string(REPLACE ":" ";" fields "${entry}")
  list(GET fields 0 name)
  list(GET fields 1 top)
  list(GET fields 2 src)
  string(REPLACE "," ";" src "${src}")  # several files: the top's first
  set(params)
  list(LENGTH fields n)
  if(n GREATER 3)
    list(SUBLIST fields 3 -1 params)
  endif()
  set(${prefix}_NAME ${name} PARENT_SCOPE)
  set(${prefix}_TOP ${top} PARENT_SCOPE)
  set(${prefix}_SRC ${src} PARENT_SCOPE)
  set(${prefix}_PARAMS ${params} PARENT_SCOPE)
endfunction()

# Hidden visibility does not reach what libstdc++ declares with default visibility
# (template instantiations in namespace std); the version script makes everything but
# the ABI symbol local.
set(WEFT_IMAGE_VERSION_SCRIPT ${CMAKE_BINARY_DIR}/weft_image.map)
file(WRITE ${WEFT_IMAGE_VERSION_SCRIPT}.tmp "{\n  global: weft_slot_model_abi;\n  local: *;\n};\n")
configure_file(${WEFT_IMAGE_VERSION_SCRIPT}.tmp ${WEFT_IMAGE_VERSION_SCRIPT} COPYONLY)

# weft_thread_sources(<var> <files...>): what Verilator reads for a thread, in order: the
# lint configuration and any .vlt among the files first (Verilator applies a
# configuration file only to what it reads after it), then the OSIF package, the
# hardware-thread API and the files (relative ones from the calling directory); a file of
# the API named again keeps its place in the API.
function(weft_thread_sources var)
  set(vconfigs)
  if(DEFINED WEFT_VLT_CONFIG AND EXISTS ${WEFT_VLT_CONFIG})
    list(APPEND vconfigs ${WEFT_VLT_CONFIG})
  endif()
  set(vsources ${WEFT_OSIF_PKG_SV} ${WEFT_HWLIB_SOURCES})
  foreach(src IN LISTS ARGN)
    get_filename_component(src ${src} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(src MATCHES "\\.vlt$")
      list(APPEND vconfigs ${src})
    else()
      list(APPEND vsources ${src})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES vsources)
  set(${var} ${vconfigs} ${vsources} PARENT_SCOPE)
endfunction()

function(weft_add_hw_thread)
  # PARAMS: top-module parameters (name=value), so one module can make several images.
  # INCLUDES: directories of the `include files its sources name, besides hw/lib's.
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;TOP" "SOURCES;PARAMS;INCLUDES")
  if(NOT ARG_NAME OR NOT ARG_TOP OR NOT ARG_SOURCES)
    message(FATAL_ERROR "weft_add_hw_thread: NAME, TOP and SOURCES are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "weft_add_hw_thread(${ARG_NAME}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()

  set(target ${ARG_NAME})
  set(prefix V${ARG_TOP})

  weft_thread_sources(vsources ${ARG_SOURCES})
  set(vargs -Wall ${WEFT_HWLIB_INCLUDE} ${WEFT_MODEL_VERILATOR_ARGS})
  list(TRANSFORM ARG_INCLUDES PREPEND -I OUTPUT_VARIABLE includes)
  list(APPEND vargs ${includes})
  foreach(param IN LISTS ARG_PARAMS)
    list(APPEND vargs -G${param})
  endforeach()

  # verilate() runs Verilator while configuring and a failure there stops the whole
  # configure; check first, so a thread Verilator rejects only loses its own image. The
  # thread as it will be built first (--cc rather than --lint-only: some warnings, such
  # as UNOPTFLAT, only appear when verilating), so that its own faults are named as such;
  # then its ports against the slot boundary (the wrapper has no parameters: the top's
  # defaults).
  set(check_dir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.dir/check)
  file(MAKE_DIRECTORY ${check_dir})
  execute_process(
    COMMAND ${VERILATOR_BIN} --cc --Mdir ${check_dir} --top-module ${ARG_TOP} ${vargs} ${vsources}
    RESULT_VARIABLE lint_rc
    OUTPUT_VARIABLE lint_out
    ERROR_VARIABLE lint_out)
  set(why "is rejected by Verilator")
  if(lint_rc EQUAL 0)
    set(boundary_args ${vargs})
    list(FILTER boundary_args EXCLUDE REGEX "^-G")
    execute_process(
      COMMAND ${VERILATOR_BIN} --lint-only -Wno-DECLFILENAME --top-module weft_slot_check
              +define+WEFT_SLOT_CHECK_TOP=${ARG_TOP} ${boundary_args} ${vsources}
              ${WEFT_SLOT_CHECK_SV}
      RESULT_VARIABLE lint_rc
      OUTPUT_VARIABLE lint_out
      ERROR_VARIABLE lint_out)
    set(why "does not match the slot boundary (weft_slot_ports.svh)")
  endif()
  if(NOT lint_rc EQUAL 0)
    set(level WARNING)
    if(WEFT_HW_THREAD_STRICT)
      set(level SEND_ERROR)
    endif()
    message(${level} "weft_add_hw_thread(${ARG_NAME}): ${ARG_TOP} ${why}; "
                     "image ${ARG_NAME}.so is not built:\n${lint_out}")
    return()
  endif()

  add_library(${target} MODULE ${WEFT_SLOT_MODEL_IMAGE_SOURCE})
  # Waveforms on demand (docs/waves.md): every image can record its signals, and records
  # nothing until asked. WEFT_IMAGE_WAVES off builds images that cannot.
  set(trace)
  if(NOT DEFINED WEFT_IMAGE_WAVES OR WEFT_IMAGE_WAVES)
    set(trace TRACE_FST)
  endif()
  verilate(${target}
    SOURCES ${vsources}
    TOP_MODULE ${ARG_TOP}
    PREFIX ${prefix}
    ${trace}
    VERILATOR_ARGS ${vargs})
  target_include_directories(${target} PRIVATE ${WEFT_SLOT_MODEL_INCLUDE_DIRS})
  target_compile_definitions(${target} PRIVATE
    WEFT_IMAGE_MODEL_HEADER="${prefix}.h"
    WEFT_IMAGE_MODEL_ROOT_HEADER="${prefix}___024root.h"
    WEFT_IMAGE_MODEL_CLASS=${prefix}
    WEFT_IMAGE_THREAD_NAME="${ARG_TOP}")
  weft_share_verilated_runtime(${target})
  target_link_options(${target} PRIVATE -Wl,-Bsymbolic -Wl,--no-undefined
    -Wl,--version-script=${WEFT_IMAGE_VERSION_SCRIPT})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${WEFT_IMAGE_VERSION_SCRIPT})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    SUFFIX ".so"
    LIBRARY_OUTPUT_DIRECTORY ${WEFT_IMAGE_DIR}
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(TARGET weft_protocol_gen)
    add_dependencies(${target} weft_protocol_gen)
  endif()
endfunction()

# weft_add_thread_testbench(<test> TOP <module> SOURCES <sv...> BENCH <cpp...>)
#
# A Verilator test bench of a hardware thread on its own: the executable <test>, built
# from the C++ BENCH files and module TOP verilated from SOURCES (after the OSIF package
# and the hardware-thread API, which SOURCES need not and may name; with assertions),
# with tb_hwlib_slot_model.h (the static
# side of a slot, answering OS calls and memory commands) and tb_check.h on its include
# path. Used by Weft's own thread benches (tests/rtl) and by projects that
# `weft new-thread` makes.
function(weft_add_thread_testbench test)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TOP" "SOURCES;BENCH")
  if(NOT ARG_TOP OR NOT ARG_SOURCES OR NOT ARG_BENCH)
    message(FATAL_ERROR "weft_add_thread_testbench(${test}): TOP, SOURCES and BENCH are required")
  endif()
  add_executable(${test} ${ARG_BENCH})
  weft_thread_sources(sources ${ARG_SOURCES})
  verilate(${test}
    SOURCES ${sources}
    TOP_MODULE ${ARG_TOP}
    PREFIX V${ARG_TOP}
    VERILATOR_ARGS -Wall --assert -O3 ${WEFT_HWLIB_INCLUDE})
  weft_share_verilated_runtime(${test})
  target_include_directories(${test} PRIVATE ${WEFT_TESTBENCH_INCLUDE_DIRS})
  target_link_libraries(${test} PRIVATE Threads::Threads)
endfunction()

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
# project lint configuration WEFT_VLT_CONFIG when that file exists.
#
# The image carries its own copy of the Verilator runtime. It is compiled with hidden
# visibility and linked with -Bsymbolic, so no symbol of it interposes on (or is
# interposed by) the backend's runtime or another image's; only the ABI symbol is
# exported. The CMake target is named weft_image_<name>.
include_guard(GLOBAL)

set(WEFT_SLOT_MODEL_IMAGE_SOURCE ${CMAKE_CURRENT_LIST_DIR}/../platform/sim/slot_model_image.cpp)
get_filename_component(WEFT_SLOT_MODEL_IMAGE_SOURCE ${WEFT_SLOT_MODEL_IMAGE_SOURCE} ABSOLUTE)
set(WEFT_IMAGE_DIR ${CMAKE_BINARY_DIR}/images)

function(weft_add_hw_thread)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;TOP" "SOURCES")
  if(NOT ARG_NAME OR NOT ARG_TOP OR NOT ARG_SOURCES)
    message(FATAL_ERROR "weft_add_hw_thread: NAME, TOP and SOURCES are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "weft_add_hw_thread(${ARG_NAME}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()

  set(target weft_image_${ARG_NAME})
  set(prefix V${ARG_TOP})

  set(vsources ${WEFT_OSIF_PKG_SV})
  if(DEFINED WEFT_HWLIB_SOURCES)
    list(APPEND vsources ${WEFT_HWLIB_SOURCES})
  endif()
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src ${src} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND vsources ${src})
  endforeach()
  set(vargs -Wall)
  if(DEFINED WEFT_VLT_CONFIG AND EXISTS ${WEFT_VLT_CONFIG})
    list(PREPEND vsources ${WEFT_VLT_CONFIG})
  endif()

  add_library(${target} MODULE ${WEFT_SLOT_MODEL_IMAGE_SOURCE})
  verilate(${target}
    SOURCES ${vsources}
    TOP_MODULE ${ARG_TOP}
    PREFIX ${prefix}
    VERILATOR_ARGS ${vargs})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/platform/sim)
  target_compile_definitions(${target} PRIVATE
    WEFT_IMAGE_MODEL_HEADER="${prefix}.h"
    WEFT_IMAGE_MODEL_CLASS=${prefix}
    WEFT_IMAGE_THREAD_NAME="${ARG_TOP}")
  target_link_libraries(${target} PRIVATE Threads::Threads)
  target_link_options(${target} PRIVATE -Wl,-Bsymbolic -Wl,--no-undefined)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${ARG_NAME}
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

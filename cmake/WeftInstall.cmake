# What `cmake --install` puts under the prefix (docs/install.md), for programs and hardware
# threads built outside the tree:
#
#   lib/libweft.so, libweft_sim.so   the runtime and the simulated fabric
#   lib/weft/images/                 the tree's thread images (the sim's default directory)
#   include/weft/                    the public headers, the generated ones included
#   share/weft/hw/, rtl/             the hardware-thread API, its lint configuration and
#                                    the generated OSIF package
#   share/weft/platform/sim/         the glue that turns a thread into an image
#   share/weft/cmake/                weft_add_hw_thread(), weft_add_thread_testbench()
#   share/weft/testbench/            the static side's model for a thread's test bench
#   share/weft/tools/, platform/     what the weft command runs, the build's platform
#   bin/weft                         the weft command
#   share/weft/bitstreams/           the platform's partial bitstream files
#   lib/cmake/Weft/                  find_package(Weft): Weft::weft, Weft::weft_sim
#   lib/pkgconfig/weft.pc, weft-sim.pc
#   bin/weft-bitstream
#
# The share/weft tree mirrors the source tree, so the CMake modules find what they need
# beside them as they do in the tree.
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

set(WEFT_INSTALL_SHARE ${CMAKE_INSTALL_DATADIR}/weft)
set(WEFT_INSTALL_CMAKE ${CMAKE_INSTALL_LIBDIR}/cmake/Weft)

# ---- libraries and headers -------------------------------------------------------------
set(_weft_libs weft_shared)
if(TARGET weft_sim_shared)
  list(APPEND _weft_libs weft_sim_shared)
endif()
install(TARGETS ${_weft_libs} EXPORT WeftTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/weft ${WEFT_GEN_DIR}/include/weft
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

# ---- what a hardware thread is built with ----------------------------------------------
install(DIRECTORY ${PROJECT_SOURCE_DIR}/hw/lib DESTINATION ${WEFT_INSTALL_SHARE}/hw
  FILES_MATCHING PATTERN "*.sv" PATTERN "*.svh")
install(FILES ${WEFT_VLT_CONFIG} DESTINATION ${WEFT_INSTALL_SHARE}/hw/lint)
install(FILES ${WEFT_OSIF_PKG_SV} DESTINATION ${WEFT_INSTALL_SHARE}/rtl)
install(FILES ${PROJECT_SOURCE_DIR}/platform/sim/slot_model_image.cpp
  ${PROJECT_SOURCE_DIR}/platform/sim/slot_model_abi.h
  ${PROJECT_SOURCE_DIR}/platform/sim/verilated_edge.h
  DESTINATION ${WEFT_INSTALL_SHARE}/platform/sim)
install(FILES ${PROJECT_SOURCE_DIR}/tests/rtl/tb_hwlib_slot_model.h
  ${PROJECT_SOURCE_DIR}/tests/rtl/tb_check.h DESTINATION ${WEFT_INSTALL_SHARE}/testbench)
# The API's files in the order every tool reads them (packages first), for `weft area`.
list(TRANSFORM WEFT_HWLIB_SOURCES REPLACE "^.*/" "" OUTPUT_VARIABLE _weft_hwlib_names)
list(JOIN _weft_hwlib_names "\n" _weft_hwlib_names)
file(WRITE ${WEFT_GEN_DIR}/hwlib_sources.txt "${_weft_hwlib_names}\n")
install(FILES ${WEFT_GEN_DIR}/hwlib_sources.txt DESTINATION ${WEFT_INSTALL_SHARE}/hw/lib
  RENAME sources.txt)
install(FILES ${PROJECT_SOURCE_DIR}/hw/synth/weft_area.ys DESTINATION ${WEFT_INSTALL_SHARE}/hw/synth)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/WeftHwLib.cmake ${PROJECT_SOURCE_DIR}/cmake/WeftThread.cmake
  ${PROJECT_SOURCE_DIR}/cmake/WeftVerilatedRuntime.cmake
  DESTINATION ${WEFT_INSTALL_SHARE}/cmake)

# ---- the tree's images and bitstreams, and the tools -------------------------------------
get_property(_weft_threads GLOBAL PROPERTY WEFT_HW_THREADS)
foreach(_entry IN LISTS _weft_threads)
  weft_parse_hw_thread("${_entry}" _t)
  if(TARGET ${_t_NAME})
    install(TARGETS ${_t_NAME} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/weft/images)
  endif()
endforeach()
if(TARGET hwt_softcore)
  install(TARGETS hwt_softcore LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/weft/images)
endif()
if(TARGET weft_bitstreams)
  install(DIRECTORY ${WEFT_BITSTREAM_DIR}/ DESTINATION ${WEFT_INSTALL_SHARE}/bitstreams
    FILES_MATCHING PATTERN "*.wbit")
endif()
if(TARGET weft-bitstream)
  install(TARGETS weft-bitstream RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# The weft command (docs/weft-command.md): bin/weft finds its modules in share/weft/tools,
# the platform this build was made for as share/weft/platform/platform.yaml.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/weft DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/weftcmd DESTINATION ${WEFT_INSTALL_SHARE}/tools
  PATTERN "__pycache__" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/tools/area_report.py ${PROJECT_SOURCE_DIR}/tools/synth_flow.py
  ${PROJECT_SOURCE_DIR}/tools/trace_plot.py
  ${PROJECT_SOURCE_DIR}/tools/gen_platform.py DESTINATION ${WEFT_INSTALL_SHARE}/tools)
install(FILES ${PROJECT_SOURCE_DIR}/platform/description.schema.json
  DESTINATION ${WEFT_INSTALL_SHARE}/platform)
install(FILES ${WEFT_PLATFORM} DESTINATION ${WEFT_INSTALL_SHARE}/platform RENAME platform.yaml)

# ---- find_package(Weft) and pkg-config ---------------------------------------------------
install(EXPORT WeftTargets NAMESPACE Weft:: DESTINATION ${WEFT_INSTALL_CMAKE})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/WeftConfig.cmake.in
  ${CMAKE_BINARY_DIR}/WeftConfig.cmake
  INSTALL_DESTINATION ${WEFT_INSTALL_CMAKE}
  PATH_VARS WEFT_INSTALL_SHARE CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/WeftConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/WeftConfig.cmake ${CMAKE_BINARY_DIR}/WeftConfigVersion.cmake
  DESTINATION ${WEFT_INSTALL_CMAKE})
# The .pc files name the prefix relative to themselves, so a moved prefix still works.
file(RELATIVE_PATH WEFT_PC_UP /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" WEFT_PC_UP "${WEFT_PC_UP}")
foreach(_pc weft weft-sim)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${_pc}.pc.in ${CMAKE_BINARY_DIR}/${_pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/${_pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

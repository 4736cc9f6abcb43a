# Programs for the softcore (docs/softcore.md), built with Debian's RISC-V toolchain and
# picolibc inside the host build.
#
# weft_rv_program(<name> SOURCES <files...> [INCLUDES <dirs...>] [DEFINES <defs...>]
#                 [RAM_BYTES <n>] [STACK_BYTES <n>])
#   <name>.elf and <name>.bin (the RAM image from address 0) in the current binary
#   directory; target <name> builds both. Every program gets the start-up code and the
#   console (softcore/crt).
#
# Sources compile with -march=rv32im_zicsr; the link names rv32im, the directory of
# picolibc's multilib (gcc 12 does not match the _zicsr suffix to it), which changes no
# code.
find_program(WEFT_RV_CC riscv64-unknown-elf-gcc REQUIRED)
find_program(WEFT_RV_OBJCOPY riscv64-unknown-elf-objcopy REQUIRED)
set(WEFT_RV_CRT_DIR ${PROJECT_SOURCE_DIR}/softcore/crt)
set(WEFT_RV_CFLAGS -march=rv32im_zicsr -mabi=ilp32 --specs=picolibc.specs -O2 -g
    -std=gnu11 -Wall -Wextra -Werror -ffunction-sections -fdata-sections)

function(weft_rv_program name)
  cmake_parse_arguments(P "" "RAM_BYTES;STACK_BYTES" "SOURCES;INCLUDES;DEFINES" ${ARGN})
  if(NOT P_RAM_BYTES)
    set(P_RAM_BYTES 65536)
  endif()
  if(NOT P_STACK_BYTES)
    set(P_STACK_BYTES 2048)
  endif()
  set(elf ${CMAKE_CURRENT_BINARY_DIR}/${name}.elf)
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/${name}.bin)
  set(srcs ${WEFT_RV_CRT_DIR}/start.S ${WEFT_RV_CRT_DIR}/console.c)
  foreach(s IN LISTS P_SOURCES)
    get_filename_component(s ${s} ABSOLUTE)
    list(APPEND srcs ${s})
  endforeach()
  set(incs -I${WEFT_RV_CRT_DIR} -I${PROJECT_SOURCE_DIR}/include -I${WEFT_GEN_DIR}/include)
  foreach(i IN LISTS P_INCLUDES)
    list(APPEND incs -I${i})
  endforeach()
  set(defs)
  foreach(d IN LISTS P_DEFINES)
    list(APPEND defs -D${d})
  endforeach()
  file(GLOB hdrs ${WEFT_RV_CRT_DIR}/*.h ${PROJECT_SOURCE_DIR}/include/weft/rtk*.h
       ${PROJECT_SOURCE_DIR}/softcore/*/*.h)
  set(objs)
  set(compile)
  foreach(s IN LISTS srcs)
    get_filename_component(stem ${s} NAME)
    set(o ${CMAKE_CURRENT_BINARY_DIR}/${name}.objs/${stem}.o)
    list(APPEND objs ${o})
    list(APPEND compile COMMAND ${WEFT_RV_CC} ${WEFT_RV_CFLAGS} ${incs} ${defs} -c ${s} -o ${o})
  endforeach()
  add_custom_command(OUTPUT ${elf} ${bin}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/${name}.objs
    ${compile}
    COMMAND ${WEFT_RV_CC} -march=rv32im -mabi=ilp32 --specs=picolibc.specs -nostartfiles
            -Wl,--gc-sections -Wl,--no-warn-rwx-segments -T ${WEFT_RV_CRT_DIR}/link.ld
            -Wl,--defsym=WEFT_RV_RAM_BYTES=${P_RAM_BYTES}
            -Wl,--defsym=WEFT_RV_STACK_BYTES=${P_STACK_BYTES} -o ${elf} ${objs}
    COMMAND ${WEFT_RV_OBJCOPY} -O binary ${elf} ${bin}
    DEPENDS ${srcs} ${hdrs} ${WEFT_RV_CRT_DIR}/link.ld ${WEFT_OSIF_HEADER}
    COMMENT "softcore program ${name}"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${elf} ${bin})
endfunction()

# The kernel's ports (softcore/rtk): the sources a program links for each.
set(WEFT_RTK_SW_SOURCES ${PROJECT_SOURCE_DIR}/softcore/rtk/rtk_sw.c
    ${PROJECT_SOURCE_DIR}/softcore/rtk/rtk_sw_trap.S)
set(WEFT_RTK_HW_SOURCES ${PROJECT_SOURCE_DIR}/softcore/rtk/rtk_hw.c
    ${PROJECT_SOURCE_DIR}/softcore/rtk/rtk_hw_trap.S)
# What each port's rtk_port() says.
set(WEFT_RTK_SW_PORT_NAME single-context)
set(WEFT_RTK_HW_PORT_NAME hardware-context)
# What a program in a slot (hwt_softcore) links for its OS calls on the host's objects
# and its shared memory (weft/rtk_osif.h), with either port.
set(WEFT_RTK_OSIF_SOURCES ${PROJECT_SOURCE_DIR}/softcore/rtk/rtk_osif.c)
# The Thread-Metric-equivalent suite's tests, in the order of their TM_TEST numbers.
set(WEFT_TM_TESTS basic cooperative preemptive interrupt interrupt_preemption message
    synchronization memory)

# weft_tm_program(<name> <test> <port> [DEFINES <defs...>]): one test of the suite (a
# name of WEFT_TM_TESTS) on one port of the kernel (sw or hw), softcore/tm's sources
# and its adaptation file.
function(weft_tm_program name test port)
  cmake_parse_arguments(T "" "" "DEFINES" ${ARGN})
  list(FIND WEFT_TM_TESTS ${test} index)
  string(TOUPPER ${port} P)
  weft_rv_program(${name}
    SOURCES ${PROJECT_SOURCE_DIR}/softcore/tm/tm_suite.c
            ${PROJECT_SOURCE_DIR}/softcore/tm/tm_port_rtk.c ${WEFT_RTK_${P}_SOURCES}
    INCLUDES ${PROJECT_SOURCE_DIR}/softcore/rtk ${PROJECT_SOURCE_DIR}/softcore/tm
    DEFINES TM_TEST=${index} ${T_DEFINES})
endfunction()

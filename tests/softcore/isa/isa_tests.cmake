# The softcore's ISA test programs (tests/softcore/isa/*.S), included from
# tests/softcore/CMakeLists.txt after tb_rv_core. Each program is assembled and linked
# alone at address 0 (link.ld) and copied to a flat image, isa/<name>.bin in the binary
# directory, that `tb_rv_core isa` runs on one context and on four in lock step with the
# ISS; it passes when the program writes 1 to TOHOST. One ctest test per program:
# softcore_isa_<name>.
find_program(WEFT_RV_CC riscv64-unknown-elf-gcc REQUIRED)
find_program(WEFT_RV_OBJCOPY riscv64-unknown-elf-objcopy REQUIRED)

set(_isa_dir ${CMAKE_CURRENT_LIST_DIR})
set(_isa_out ${CMAKE_CURRENT_BINARY_DIR}/isa)
file(MAKE_DIRECTORY ${_isa_out})
file(GLOB _isa_sources CONFIGURE_DEPENDS ${_isa_dir}/*.S)
list(SORT _isa_sources)

set(_isa_images)
foreach(_src IN LISTS _isa_sources)
  get_filename_component(_name ${_src} NAME_WE)
  set(_elf ${_isa_out}/${_name}.elf)
  set(_bin ${_isa_out}/${_name}.bin)
  add_custom_command(OUTPUT ${_bin}
    BYPRODUCTS ${_elf}
    COMMAND ${WEFT_RV_CC} -march=rv32im_zicsr -mabi=ilp32 -nostdlib -nostartfiles
            -Wl,--no-warn-rwx-segments -I${_isa_dir} -T ${_isa_dir}/link.ld ${_src}
            -o ${_elf}
    COMMAND ${WEFT_RV_OBJCOPY} -O binary ${_elf} ${_bin}
    DEPENDS ${_src} ${_isa_dir}/isa_macros.inc ${_isa_dir}/link.ld
    COMMENT "softcore ISA test ${_name}"
    VERBATIM)
  list(APPEND _isa_images ${_bin})
  add_test(NAME softcore_isa_${_name} COMMAND tb_rv_core isa ${_bin})
  set_tests_properties(softcore_isa_${_name} PROPERTIES LABELS "rtl;softcore" TIMEOUT 300)
endforeach()
add_custom_target(softcore_isa_images ALL DEPENDS ${_isa_images})

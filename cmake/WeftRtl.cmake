# Static-region RTL file lists (hw/rtl). Included by the top-level CMakeLists.txt before
# any subdirectory, after WEFT_OSIF_PKG_SV and WEFT_VLT_CONFIG are set.
#
# WEFT_STATIC_RTL_SOURCES  ordered list for Verilator/Yosys: the generated protocol
#                          package first, then the modules (leaf modules first).
# WEFT_STATIC_RTL_TOP      top module of the static region.
# WEFT_RTL_VERILATOR_ARGS  flags every Verilator run of Weft RTL should get (the lint
#                          configuration with its documented waivers).

set(WEFT_RTL_DIR ${PROJECT_SOURCE_DIR}/hw/rtl)
set(WEFT_STATIC_RTL_TOP weft_static)
set(WEFT_STATIC_RTL_MODULES
  weft_fifo
  weft_rr_arbiter
  weft_index_mux
  weft_axil_regs
  weft_mem_windows
  weft_call_router
  weft_osif_stage
  weft_slot_acc
  weft_slot_if
  weft_memif_master
  weft_fri
  weft_sync
  weft_sync_regs
  weft_sync_sw
  weft_sched
  weft_tm
  weft_tm_regs
  weft_tm_events
  weft_static)
set(WEFT_STATIC_RTL_SOURCES ${WEFT_OSIF_PKG_SV})
foreach(_m IN LISTS WEFT_STATIC_RTL_MODULES)
  list(APPEND WEFT_STATIC_RTL_SOURCES ${WEFT_RTL_DIR}/${_m}.sv)
endforeach()
unset(_m)
# The static region's modules include their shared port lists (weft_*_ports.svh) from
# hw/rtl.
set(WEFT_RTL_INCLUDE -I${WEFT_RTL_DIR})
set(WEFT_RTL_VERILATOR_ARGS ${WEFT_VLT_CONFIG} ${WEFT_RTL_INCLUDE})

# WEFT_VERILATOR_PROFILE: the fabric's models (the static region and the thread images)
# verilated with --prof-cfuncs, which gives every always block and assignment a C++
# function named after its module and line, so that `perf report` says which RTL block a
# cycle's time goes to (tools/sim_profile.py sums them by module). About 5% slower; for
# a build directory of its own (docs/benchmarks.md, "Where a cycle's time goes").
option(WEFT_VERILATOR_PROFILE "Verilate the fabric's models with --prof-cfuncs" OFF)
set(WEFT_MODEL_VERILATOR_ARGS)
if(WEFT_VERILATOR_PROFILE)
  set(WEFT_MODEL_VERILATOR_ARGS --prof-cfuncs)
endif()

# WEFT_IMAGE_WAVES: thread images verilated with FST tracing, so that any slot can record
# a waveform when asked at run time (WEFT_WAVES, docs/waves.md). Off only to measure what
# having it costs when nothing is recorded (docs/waves.md gives the figure).
option(WEFT_IMAGE_WAVES "Thread images can record waveforms on demand" ON)

# The softcore (hw/softcore, docs/softcore.md): WEFT_RV_RTL_SOURCES in order, its top
# (core and RAM) weft_rv_cpu; its modules include their port lists from hw/softcore.
set(WEFT_RV_RTL_DIR ${PROJECT_SOURCE_DIR}/hw/softcore)
set(WEFT_RV_RTL_MODULES weft_rv_pkg weft_rv_div weft_rv_ram weft_rv_core weft_rv_cpu
  weft_rv_clint weft_rv_os weft_rv_soc)
# The OS services (weft_rv_os) reuse the static region's thread and synchronisation
# managers.
set(WEFT_RV_RTL_SOURCES ${WEFT_OSIF_PKG_SV})
foreach(_m weft_index_mux weft_rr_arbiter weft_sched weft_tm weft_sync)
  list(APPEND WEFT_RV_RTL_SOURCES ${WEFT_RTL_DIR}/${_m}.sv)
endforeach()
foreach(_m IN LISTS WEFT_RV_RTL_MODULES)
  list(APPEND WEFT_RV_RTL_SOURCES ${WEFT_RV_RTL_DIR}/${_m}.sv)
endforeach()
unset(_m)
set(WEFT_RV_VERILATOR_ARGS ${WEFT_VLT_CONFIG} -I${WEFT_RV_RTL_DIR} -I${WEFT_RTL_DIR})

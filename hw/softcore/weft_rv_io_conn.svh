// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// Connects weft_rv_io_ports.svh by name, for a module that passes them through.
  .mmio_req_o,
  .mmio_we_o,
  .mmio_addr_o,
  .mmio_wdata_o,
  .mmio_wstrb_o,
  .mmio_ready_i,
  .mmio_err_i,
  .mmio_rdata_i,
  .irq_soft_i,
  .irq_timer_i,
  .irq_ext_i,
  .time_i,
  .sched_ctx_i,
  .ctx_o,
  .wfi_o,
  .trace_o

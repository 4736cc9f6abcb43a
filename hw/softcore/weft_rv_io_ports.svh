// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// The softcore's ports to the world outside its RAM (weft_rv_core, and weft_rv_cpu,
// which passes them through): MMIO, interrupts, time, the scheduler's choice, the trace.
// Needs CtxW in scope. weft_rv_io_conn.svh connects them by name.
  `include "weft_rv_mmio_ports.svh"

  // ---- interrupts (levels; mip.MSIP, MTIP, MEIP) and time ----
  input  logic             irq_soft_i,
  input  logic             irq_timer_i,
  input  logic             irq_ext_i,
  input  logic [63:0]      time_i,

  // ---- the scheduler's choice (follow mode) ----
  input  logic [CtxW-1:0]  sched_ctx_i,
  output logic [CtxW-1:0]  ctx_o,
  /// A wfi retired in context 0 in the previous cycle with no interrupt pending and the
  /// timer interrupt disabled there: the core now waits for something outside it.
  output logic             wfi_o,
  /// What X did in the previous cycle (test benches, profiling).
  output weft_rv_pkg::trace_t trace_o

// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_pkg: the RV32IM encodings, machine-mode CSR numbers and trap causes the
// softcore (weft_rv_core, docs/softcore.md) decodes, named once for the core, its test
// benches and its wrapper. Values are the RISC-V unprivileged and privileged
// specifications' except the Cust* CSRs, which sit in the custom machine-mode ranges
// (0x7C0-0x7FF read/write, 0xFC0-0xFFF read-only) that the specification leaves to
// implementations.
package weft_rv_pkg;

  // ---- major opcodes (instruction bits 6:0) ----
  localparam logic [6:0] OpLui    = 7'b0110111;
  localparam logic [6:0] OpAuipc  = 7'b0010111;
  localparam logic [6:0] OpJal    = 7'b1101111;
  localparam logic [6:0] OpJalr   = 7'b1100111;
  localparam logic [6:0] OpBranch = 7'b1100011;
  localparam logic [6:0] OpLoad   = 7'b0000011;
  localparam logic [6:0] OpStore  = 7'b0100011;
  localparam logic [6:0] OpImm    = 7'b0010011;
  localparam logic [6:0] OpReg    = 7'b0110011;
  localparam logic [6:0] OpFence  = 7'b0001111;
  localparam logic [6:0] OpSystem = 7'b1110011;

  // ---- machine-mode CSRs ----
  localparam logic [11:0] CsrMstatus   = 12'h300;
  localparam logic [11:0] CsrMisa      = 12'h301;
  localparam logic [11:0] CsrMie       = 12'h304;
  localparam logic [11:0] CsrMtvec     = 12'h305;
  localparam logic [11:0] CsrMscratch  = 12'h340;
  localparam logic [11:0] CsrMepc      = 12'h341;
  localparam logic [11:0] CsrMcause    = 12'h342;
  localparam logic [11:0] CsrMtval     = 12'h343;
  localparam logic [11:0] CsrMip       = 12'h344;
  localparam logic [11:0] CsrMcycle    = 12'hB00;
  localparam logic [11:0] CsrMinstret  = 12'hB02;
  localparam logic [11:0] CsrMcycleh   = 12'hB80;
  localparam logic [11:0] CsrMinstreth = 12'hB82;
  localparam logic [11:0] CsrCycle     = 12'hC00;
  localparam logic [11:0] CsrTime      = 12'hC01;
  localparam logic [11:0] CsrInstret   = 12'hC02;
  localparam logic [11:0] CsrCycleh    = 12'hC80;
  localparam logic [11:0] CsrTimeh     = 12'hC81;
  localparam logic [11:0] CsrInstreth  = 12'hC82;
  localparam logic [11:0] CsrMvendorid = 12'hF11;
  localparam logic [11:0] CsrMarchid   = 12'hF12;
  localparam logic [11:0] CsrMimpid    = 12'hF13;
  localparam logic [11:0] CsrMhartid   = 12'hF14;
  localparam logic [11:0] CsrMconfigptr = 12'hF15;
  localparam logic [11:0] CsrMstatush  = 12'h310;
  // Weft's hardware contexts (docs/softcore.md, "Hardware contexts").
  /// Read: the running context. Write: run context N after this instruction; all ones:
  /// run the context the scheduler chose (sched_ctx_i).
  localparam logic [11:0] CsrCustCtx    = 12'h7C0;
  /// Bit 0: follow the scheduler: a context other than 0 that is not the scheduler's
  /// choice is switched out before its next instruction. Bit 1: hold: no interrupt is
  /// taken and no context switched out while it is set (a kernel's critical section
  /// in any context; what it defers happens before the next instruction after it).
  localparam logic [11:0] CsrCustFollow = 12'h7C1;
  /// Selects the context CsrCustPc reads and writes.
  localparam logic [11:0] CsrCustSel    = 12'h7C2;
  /// The selected context's saved PC: where it resumes when it next runs.
  localparam logic [11:0] CsrCustPc     = 12'h7C3;
  /// 0x7E0 + n: register xn of the selected context (csrr; csrw only with rd = x0):
  /// how a kernel sets up a context or moves a thread's registers in and out of one.
  localparam logic [11:0] CsrCustReg    = 12'h7E0;
  /// Read-only: the number of contexts.
  localparam logic [11:0] CsrCustNctx   = 12'hFC0;

  // ---- the OS services' window (weft_rv_os) at 0xF0010000: word offsets ----
  localparam logic [3:0] OsTmCmd    = 4'd0;   ///< w: a thread manager command (held until
                                              ///< answered; YIELD of thread 0 is the
                                              ///< caller's); r: [7:0] status, [9] blocked,
                                              ///< [23:16] the answer's thread
  localparam logic [3:0] OsTmValue  = 4'd1;   ///< r: the answer's value
  localparam logic [3:0] OsTmCur    = 4'd2;   ///< r: the decision: [7:0] thread, [14:8] priority
  localparam logic [3:0] OsMap      = 4'd3;   ///< w: thread [7:0] in context [12:8], priority
                                              ///< [22:16], bound if [31]
  localparam logic [3:0] OsOwner    = 4'd4;   ///< w: context [12:8] holds thread [7:0];
                                              ///< r: [7:0] the decision, [8] it must be loaded
  localparam logic [3:0] OsSyncCfg  = 4'd5;   ///< w: configure object [7:0], type [9:8], kind
                                              ///< [11:10], inheritance [12]; r: its status
  localparam logic [3:0] OsSyncVal  = 4'd6;   ///< a semaphore's [15:0] count, [31:16] maximum
  localparam logic [3:0] OsSyncTmo  = 4'd7;   ///< a timed call's timeout, microseconds
  localparam logic [3:0] OsSyncCall = 4'd8;   ///< w: call [3:0] on object [15:8] (mutex [23:16],
                                              ///< timed [24]), held until answered or waiting;
                                              ///< r: the running thread's last answer
  localparam logic [3:0] OsTick     = 4'd9;   ///< w: the tick's period in cycles; r: ticks
  localparam logic [3:0] OsSleep    = 4'd10;  ///< w: the running thread sleeps this many ticks
  localparam logic [3:0] OsInfo     = 4'd11;  ///< r: contexts, threads, priorities, objects
  /// The call window, 0xF0014000-0xF0017FFF: a load at + (object << 6) + (op << 2)
  /// makes that synchronisation call and returns its status, or OsCallBlocked: the
  /// caller waited, and reads the status from OsSyncCall when it runs again. From
  /// context 0 (no thread to wait), a wait is made a try and a condition wait is
  /// answered CANCELED.
  localparam logic [31:0] OsCallBlocked = 32'h100;

  /// CsrCustCtx value meaning "the scheduler's choice".
  localparam logic [31:0] CtxFollow = 32'hFFFF_FFFF;

  // ---- trap causes (mcause; interrupts have bit 31 set) ----
  localparam logic [4:0] CauseInstrMisaligned = 5'd0;
  localparam logic [4:0] CauseInstrFault      = 5'd1;
  localparam logic [4:0] CauseIllegal         = 5'd2;
  localparam logic [4:0] CauseBreakpoint      = 5'd3;
  localparam logic [4:0] CauseLoadMisaligned  = 5'd4;
  localparam logic [4:0] CauseLoadFault       = 5'd5;
  localparam logic [4:0] CauseStoreMisaligned = 5'd6;
  localparam logic [4:0] CauseStoreFault      = 5'd7;
  localparam logic [4:0] CauseEcallM          = 5'd11;
  localparam logic [4:0] IrqSoft              = 5'd3;
  localparam logic [4:0] IrqTimer             = 5'd7;
  localparam logic [4:0] IrqExternal          = 5'd11;

  // ---- trace: what the core's X stage did in the previous cycle ----
  localparam logic [1:0] TraceRetired  = 2'd0;  ///< executed
  localparam logic [1:0] TraceTrapped  = 2'd1;  ///< an exception; not executed
  localparam logic [1:0] TraceIrq      = 2'd2;  ///< an interrupt was taken before it
  localparam logic [1:0] TraceSwitched = 2'd3;  ///< switched out before it (follow mode)

  /// One trace record (test benches and profiling; unconnected in a slot, so free).
  typedef struct packed {
    logic        valid;
    logic [1:0]  kind;       ///< Trace*
    logic [4:0]  ctx;        ///< the context of the instruction
    logic [31:0] pc;
    logic [31:0] insn;
    logic [4:0]  cause;      ///< mcause's low bits (TraceTrapped, TraceIrq)
    logic [4:0]  next_ctx;   ///< the context that runs next
    logic        rd_we;      ///< a register write (of the record's instruction)
    logic [4:0]  rd;
    logic [31:0] rd_wdata;
    logic [3:0]  mem_we;     ///< a store's byte strobes
    logic [31:0] mem_addr;
    logic [31:0] mem_wdata;
  } trace_t;

endpackage

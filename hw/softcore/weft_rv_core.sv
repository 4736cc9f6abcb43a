// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_rv_core: Weft's softcore (docs/softcore.md), RV32IM with Zicsr in machine mode,
// with NumCtx hardware contexts: each has its own 31 registers, PC and trap CSRs in the
// core, so running another context saves nothing to memory.
//
// Pipeline, three stages:
//   F  the fetch address (pc_f_q) goes to the RAM's instruction port;
//   X  the instruction decodes, reads its registers (W's result forwarded), computes,
//      resolves its branch, reads and writes CSRs, takes its trap, and sends a store
//      or a load's address to the RAM's data port or to the MMIO port;
//   W  the result, a RAM load's word aligned on the way, is written to the register
//      bank of the context that issued it.
// Every redirect (taken branch, jump, trap, mret, context switch) costs one bubble:
// the next address is registered, not driven from X into the RAM, so the RAM's address
// comes from a flop. X therefore never holds an instruction of another context than W.
// DIV and REM stall X for 34 cycles, an MMIO access until mmio_ready_i; MUL is one cycle.
//
// Contexts. Context 0 is the kernel's: interrupts are taken there only, by its mstatus
// and mie, whichever context runs; one that is running loses its next instruction to the
// interrupt (it re-executes it when it runs again) and keeps all its state. Software
// moves between contexts with the custom CSRs (weft_rv_pkg::CsrCust*): a write to
// weft_rv_pkg::CsrCustCtx runs another context after the writing instruction; in follow mode a
// context other than 0 that the scheduler (sched_ctx_i) no longer chose is switched out
// before its next instruction, so the scheduler's decision, not the core, says which
// thread runs. Each switch costs the one bubble of a redirect.
//
// Traps follow the privileged specification for machine mode only: mepc, mcause, mtval,
// mstatus.MIE/MPIE, mtvec direct or vectored (interrupts), mret. mhartid reads the
// running context, so multi-hart start-up code gives each context its own stack.
module weft_rv_core #(
  /// Hardware contexts, 1 to 32.
  parameter int unsigned NumCtx = 4,
  /// Bytes of local RAM (a power of two), at address 0.
  parameter int unsigned MemBytes = 65536,
  /// Where every context starts after reset.
  parameter logic [31:0] ResetPc = 32'h0,
  localparam int unsigned CtxW = (NumCtx > 1) ? $clog2(NumCtx) : 1,
  localparam int unsigned MemAw = $clog2(MemBytes) - 2
) (
  input  logic             clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic             rst_ni,

  // ---- local RAM (weft_rv_ram), both ports one cycle ----
  output logic             imem_en_o,
  output logic [MemAw-1:0] imem_addr_o,
  input  logic [31:0]      imem_rdata_i,
  output logic             dmem_en_o,
  output logic [3:0]       dmem_we_o,
  output logic [MemAw-1:0] dmem_addr_o,
  output logic [31:0]      dmem_wdata_o,
  input  logic [31:0]      dmem_rdata_i,
  `include "weft_rv_io_ports.svh"
);

  localparam int unsigned NumRegs = NumCtx * 32;
  localparam int unsigned RfAw = (NumCtx > 1) ? CtxW + 5 : 5;
  localparam logic [CtxW-1:0] Ctx0 = '0;
  localparam logic [CtxW:0] NumCtxW = (CtxW + 1)'(NumCtx);

  // ---------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------
  logic [31:0]     pc_f_q;          // the address the RAM fetches this cycle
  logic            x_valid_q;       // X holds an instruction (imem_rdata_i)
  logic [31:0]     pc_x_q;
  logic            x_started_q;     // X's instruction has stalled at least a cycle
  logic [CtxW-1:0] ctx_q;
  logic            follow_q;
  logic            hold_q;          // no interrupt, no follow switch (a kernel's lock)
  logic [CtxW-1:0] sel_q;
  logic [31:0]     ctx_pc_q [NumCtx];  // where each context resumes

  logic [31:0]     rf_q [NumRegs];     // the register banks, {context, register}
  logic [RfAw-1:0] rf_ra1, rf_ra2, rf_wa;

  // Per-context trap CSRs.
  logic            st_mie_q  [NumCtx];
  logic            st_mpie_q [NumCtx];
  logic [2:0]      mie_q     [NumCtx];  // MEIE, MTIE, MSIE
  logic [31:0]     mtvec_q   [NumCtx];
  logic [31:0]     mscratch_q[NumCtx];
  logic [31:0]     mepc_q    [NumCtx];
  logic [31:0]     mcause_q  [NumCtx];
  logic [31:0]     mtval_q   [NumCtx];
  logic [63:0]     mcycle_q, minstret_q;

  // W stage.
  logic            w_we_q, w_load_q, w_from_ram_q;
  logic [4:0]      w_rd_q;
  logic [CtxW-1:0] w_ctx_q;
  logic [31:0]     w_data_q;
  logic [2:0]      w_f3_q;
  logic [1:0]      w_off_q;
  logic [31:0]     w_result;

  // ---------------------------------------------------------------------------------
  // Decode (X)
  // ---------------------------------------------------------------------------------
  logic [31:0] insn;
  logic [6:0]  opcode, funct7;
  logic [2:0]  funct3;
  logic [4:0]  rd, rs1, rs2;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;
  assign insn   = imem_rdata_i;
  assign opcode = insn[6:0];
  assign rd     = insn[11:7];
  assign funct3 = insn[14:12];
  assign rs1    = insn[19:15];
  assign rs2    = insn[24:20];
  assign funct7 = insn[31:25];
  assign imm_i  = {{20{insn[31]}}, insn[31:20]};
  assign imm_s  = {{20{insn[31]}}, insn[31:25], insn[11:7]};
  assign imm_b  = {{20{insn[31]}}, insn[7], insn[30:25], insn[11:8], 1'b0};
  assign imm_u  = {insn[31:12], 12'b0};
  assign imm_j  = {{12{insn[31]}}, insn[19:12], insn[20], insn[30:21], 1'b0};

  // A CSR in CsrCustReg's range names a register of the selected context (sel_q): its
  // number is the CSR address's low five bits, which are the rs2 field, so the second
  // read port serves it. (Decoded here, ahead of the CSRs, because the read needs it.)
  logic csr_remote;
  assign csr_remote = opcode == weft_rv_pkg::OpSystem && funct3 != 3'b000 &&
                      insn[31:25] == weft_rv_pkg::CsrCustReg[11:5];
  if (NumCtx > 1) begin : gen_banks
    assign rf_ra1 = {ctx_q, rs1};
    assign rf_ra2 = {csr_remote ? sel_q : ctx_q, rs2};
    assign rf_wa  = {w_ctx_q, w_rd_q};
  end else begin : gen_one_bank
    logic unused_ctx;
    assign unused_ctx = ^{w_ctx_q, csr_remote};
    assign rf_ra1 = rs1;
    assign rf_ra2 = rs2;
    assign rf_wa  = w_rd_q;
  end

  // Register reads, with W's result forwarded. W holds an instruction of X's context
  // (a redirect leaves a bubble between contexts) unless it writes another context's
  // register (CsrCustReg): the forward compares whole bank addresses.
  logic [31:0] rs1_v, rs2_v;
  always_comb begin
    rs1_v = rf_q[rf_ra1];
    rs2_v = rf_q[rf_ra2];
    if (w_we_q && rf_wa == rf_ra1) rs1_v = w_result;
    if (w_we_q && rf_wa == rf_ra2) rs2_v = w_result;
    if (rs1 == 5'd0) rs1_v = '0;
    if (rs2 == 5'd0) rs2_v = '0;
  end

  // ---------------------------------------------------------------------------------
  // Execute (X)
  // ---------------------------------------------------------------------------------
  logic        is_lui, is_auipc, is_jal, is_jalr, is_branch, is_load, is_store;
  logic        is_opimm, is_op, is_muldiv, is_div, is_fence, is_fencei, is_system;
  logic        is_csr, is_ecall, is_ebreak, is_mret, is_wfi, legal;
  assign is_lui    = opcode == weft_rv_pkg::OpLui;
  assign is_auipc  = opcode == weft_rv_pkg::OpAuipc;
  assign is_jal    = opcode == weft_rv_pkg::OpJal;
  assign is_jalr   = opcode == weft_rv_pkg::OpJalr && funct3 == 3'b000;
  assign is_branch = opcode == weft_rv_pkg::OpBranch && funct3 != 3'b010 && funct3 != 3'b011;
  assign is_load   = opcode == weft_rv_pkg::OpLoad && (funct3 == 3'b000 || funct3 == 3'b001 ||
                                          funct3 == 3'b010 || funct3 == 3'b100 ||
                                          funct3 == 3'b101);
  assign is_store  = opcode == weft_rv_pkg::OpStore && (funct3 == 3'b000 || funct3 == 3'b001 ||
                                           funct3 == 3'b010);
  assign is_opimm  = opcode == weft_rv_pkg::OpImm &&
                     (funct3 == 3'b001 ? funct7 == 7'b0 :
                      funct3 == 3'b101 ? (funct7 == 7'b0 || funct7 == 7'b0100000) : 1'b1);
  assign is_muldiv = opcode == weft_rv_pkg::OpReg && funct7 == 7'b0000001;
  assign is_div    = is_muldiv && funct3[2];
  assign is_op     = opcode == weft_rv_pkg::OpReg &&
                     (funct7 == 7'b0 ||
                      (funct7 == 7'b0100000 && (funct3 == 3'b000 || funct3 == 3'b101)));
  assign is_fence  = opcode == weft_rv_pkg::OpFence && funct3 == 3'b000;
  assign is_fencei = opcode == weft_rv_pkg::OpFence && funct3 == 3'b001;
  assign is_system = opcode == weft_rv_pkg::OpSystem;
  assign is_csr    = is_system && funct3 != 3'b000 && funct3 != 3'b100;
  assign is_ecall  = is_system && insn[31:7] == 25'h0000000;
  assign is_ebreak = is_system && insn[31:7] == 25'h0002000;
  assign is_mret   = is_system && insn[31:7] == 25'h0604000;
  assign is_wfi    = is_system && insn[31:7] == 25'h020a000;

  // ALU (OP and OP-IMM).
  logic [31:0] alu_b, alu_out;
  logic signed [31:0] alu_sra;
  logic [4:0]  shamt;
  logic        alt;
  assign alu_b = (opcode == weft_rv_pkg::OpReg) ? rs2_v : imm_i;
  assign shamt = alu_b[4:0];
  assign alt   = (opcode == weft_rv_pkg::OpReg) ? funct7[5] : (funct3 == 3'b101 && funct7[5]);
  assign alu_sra = $signed(rs1_v) >>> shamt;
  always_comb begin
    unique case (funct3)
      3'b000:  alu_out = alt ? rs1_v - alu_b : rs1_v + alu_b;
      3'b001:  alu_out = rs1_v << shamt;
      3'b010:  alu_out = {31'b0, $signed(rs1_v) < $signed(alu_b)};
      3'b011:  alu_out = {31'b0, rs1_v < alu_b};
      3'b100:  alu_out = rs1_v ^ alu_b;
      3'b101:  alu_out = alt ? alu_sra : rs1_v >> shamt;
      3'b110:  alu_out = rs1_v | alu_b;
      default: alu_out = rs1_v & alu_b;
    endcase
  end

  // MUL, MULH, MULHSU, MULHU: one 33x33 signed product.
  logic signed [32:0] mul_a, mul_b;
  logic signed [63:0] product;  // the low 64 bits of the 66-bit product suffice
  logic [31:0]        mul_out;
  assign mul_a   = {funct3[1:0] != 2'b11 && rs1_v[31], rs1_v};
  assign mul_b   = {funct3[1:0] == 2'b01 && rs2_v[31], rs2_v};
  assign product = mul_a * mul_b;
  assign mul_out = (funct3[1:0] == 2'b00) ? product[31:0] : product[63:32];

  // DIV, DIVU, REM, REMU.
  logic        div_start, div_busy, div_done;
  logic [31:0] div_out;
  weft_rv_div u_div (
    .clk_i, .rst_ni,
    .start_i (div_start),
    .signed_i(!funct3[0]),
    .rem_i   (funct3[1]),
    .a_i     (rs1_v),
    .b_i     (rs2_v),
    .busy_o  (div_busy),
    .done_o  (div_done),
    .result_o(div_out)
  );

  // Branches and jumps.
  logic        take;
  logic [31:0] jump_target;
  always_comb begin
    unique case (funct3)
      3'b000:  take = rs1_v == rs2_v;
      3'b001:  take = rs1_v != rs2_v;
      3'b100:  take = $signed(rs1_v) < $signed(rs2_v);
      3'b101:  take = $signed(rs1_v) >= $signed(rs2_v);
      3'b110:  take = rs1_v < rs2_v;
      default: take = rs1_v >= rs2_v;
    endcase
    take = is_jal || is_jalr || (is_branch && take);
    if (is_jalr) jump_target = (rs1_v + imm_i) & ~32'd1;
    else if (is_jal) jump_target = pc_x_q + imm_j;
    else jump_target = pc_x_q + imm_b;
  end

  // Loads and stores: local RAM below MemBytes, MMIO with bit 31 set, nothing between.
  logic [31:0] mem_addr, store_data;
  logic [3:0]  store_strb;
  logic        mem_misaligned, mem_in_ram, mem_in_mmio;
  assign mem_addr = rs1_v + (is_store ? imm_s : imm_i);
  assign mem_misaligned = (funct3[1:0] == 2'b01 && mem_addr[0]) ||
                          (funct3[1:0] == 2'b10 && mem_addr[1:0] != 2'b00);
  assign mem_in_ram  = mem_addr < MemBytes;
  assign mem_in_mmio = mem_addr[31];
  always_comb begin
    unique case (funct3[1:0])
      2'b00:   begin store_data = {4{rs2_v[7:0]}};  store_strb = 4'b0001 << mem_addr[1:0]; end
      2'b01:   begin store_data = {2{rs2_v[15:0]}}; store_strb = 4'b0011 << mem_addr[1:0]; end
      default: begin store_data = rs2_v;            store_strb = 4'b1111; end
    endcase
  end

  // ---------------------------------------------------------------------------------
  // CSRs
  // ---------------------------------------------------------------------------------
  logic [11:0] csr_addr;
  logic [31:0] csr_rdata, csr_src, csr_wdata;
  logic        csr_known, csr_writes;
  logic [2:0]  mip;
  logic        csr_hpm;
  assign csr_addr = insn[31:20];
  assign csr_hpm  = (csr_addr >= 12'hB03 && csr_addr <= 12'hB1F) ||
                    (csr_addr >= 12'hB83 && csr_addr <= 12'hB9F) ||
                    (csr_addr >= 12'h323 && csr_addr <= 12'h33F);
  assign csr_src  = funct3[2] ? {27'b0, rs1} : rs1_v;
  assign mip      = {irq_ext_i, irq_timer_i, irq_soft_i};
  // CSRRW always writes; CSRRS and CSRRC write unless the source is x0 or zero.
  assign csr_writes = funct3[1:0] == 2'b01 || rs1 != 5'd0;

  always_comb begin
    csr_known = 1'b1;
    csr_rdata = '0;
    unique case (csr_addr)
      weft_rv_pkg::CsrMstatus:   csr_rdata = {19'b0, 2'b11, 3'b0, st_mpie_q[ctx_q], 3'b0,
                                 st_mie_q[ctx_q], 3'b0};
      weft_rv_pkg::CsrMisa:      csr_rdata = 32'h4000_1100;  // MXL 32, I, M
      weft_rv_pkg::CsrMie:       csr_rdata = {20'b0, mie_q[ctx_q][2], 3'b0, mie_q[ctx_q][1], 3'b0,
                                 mie_q[ctx_q][0], 3'b0};
      weft_rv_pkg::CsrMip:       csr_rdata = {20'b0, mip[2], 3'b0, mip[1], 3'b0, mip[0], 3'b0};
      weft_rv_pkg::CsrMtvec:     csr_rdata = mtvec_q[ctx_q];
      weft_rv_pkg::CsrMscratch:  csr_rdata = mscratch_q[ctx_q];
      weft_rv_pkg::CsrMepc:      csr_rdata = mepc_q[ctx_q];
      weft_rv_pkg::CsrMcause:    csr_rdata = mcause_q[ctx_q];
      weft_rv_pkg::CsrMtval:     csr_rdata = mtval_q[ctx_q];
      weft_rv_pkg::CsrMcycle,    weft_rv_pkg::CsrCycle:    csr_rdata = mcycle_q[31:0];
      weft_rv_pkg::CsrMcycleh,   weft_rv_pkg::CsrCycleh:   csr_rdata = mcycle_q[63:32];
      weft_rv_pkg::CsrMinstret,  weft_rv_pkg::CsrInstret:  csr_rdata = minstret_q[31:0];
      weft_rv_pkg::CsrMinstreth, weft_rv_pkg::CsrInstreth: csr_rdata = minstret_q[63:32];
      weft_rv_pkg::CsrTime:      csr_rdata = time_i[31:0];
      weft_rv_pkg::CsrTimeh:     csr_rdata = time_i[63:32];
      weft_rv_pkg::CsrMvendorid, weft_rv_pkg::CsrMarchid, weft_rv_pkg::CsrMimpid: csr_rdata = '0;
      weft_rv_pkg::CsrMhartid,   weft_rv_pkg::CsrCustCtx:  csr_rdata = {{(32 - CtxW){1'b0}}, ctx_q};
      weft_rv_pkg::CsrCustFollow: csr_rdata = {30'b0, hold_q, follow_q};
      weft_rv_pkg::CsrCustSel:   csr_rdata = {{(32 - CtxW){1'b0}}, sel_q};
      weft_rv_pkg::CsrCustPc:    csr_rdata = (sel_q == ctx_q) ? pc_x_q : ctx_pc_q[sel_q];
      weft_rv_pkg::CsrCustNctx:  csr_rdata = NumCtx;
      // Read-only zero: mstatush (little-endian only), mconfigptr (no configuration
      // structure), and the performance counters 3-31 and their events.
      weft_rv_pkg::CsrMstatush, weft_rv_pkg::CsrMconfigptr: csr_rdata = '0;
      default: begin
        csr_known = csr_hpm || csr_remote;
        if (csr_remote) csr_rdata = rs2_v;
      end
    endcase
    unique case (funct3[1:0])
      2'b01:   csr_wdata = csr_src;
      2'b10:   csr_wdata = csr_rdata | csr_src;
      default: csr_wdata = csr_rdata & ~csr_src;
    endcase
  end

  // ---------------------------------------------------------------------------------
  // Control: legality, exceptions, interrupts, switches, stalls
  // ---------------------------------------------------------------------------------
  logic       csr_illegal;
  // A write of another context's register leaves no write port for rd: rd must be x0.
  assign csr_illegal = is_csr && (!csr_known || (csr_writes && csr_addr[11:10] == 2'b11) ||
                                  (csr_remote && csr_writes && rd != 5'd0));
  assign legal = insn[1:0] == 2'b11 &&
                 (is_lui || is_auipc || is_jal || is_jalr || is_branch || is_load ||
                  is_store || is_opimm || is_op || is_muldiv || is_fence || is_fencei ||
                  is_ecall || is_ebreak || is_mret || is_wfi || is_csr) &&
                 !csr_illegal;

  logic        exc;
  logic [4:0]  exc_cause;
  logic [31:0] exc_tval;
  always_comb begin
    exc = 1'b1;
    exc_cause = weft_rv_pkg::CauseIllegal;
    exc_tval = '0;
    if (pc_x_q >= MemBytes) begin
      exc_cause = weft_rv_pkg::CauseInstrFault;
      exc_tval = pc_x_q;
    end else if (!legal) begin
      exc_tval = insn;
    end else if (take && jump_target[1]) begin
      exc_cause = weft_rv_pkg::CauseInstrMisaligned;
      exc_tval = jump_target;
    end else if (is_ecall) begin
      exc_cause = weft_rv_pkg::CauseEcallM;
    end else if (is_ebreak) begin
      exc_cause = weft_rv_pkg::CauseBreakpoint;
      exc_tval = pc_x_q;
    end else if ((is_load || is_store) && mem_misaligned) begin
      exc_cause = is_load ? weft_rv_pkg::CauseLoadMisaligned : weft_rv_pkg::CauseStoreMisaligned;
      exc_tval = mem_addr;
    end else if ((is_load || is_store) && !mem_in_ram && !mem_in_mmio) begin
      exc_cause = is_load ? weft_rv_pkg::CauseLoadFault : weft_rv_pkg::CauseStoreFault;
      exc_tval = mem_addr;
    end else begin
      exc = 1'b0;
    end
  end

  // Interrupts go to context 0 by its enables; the most urgent is external, then
  // software, then timer (the specification's order).
  logic       irq_take;
  logic [4:0] irq_cause;
  logic [2:0] irq_pend;
  assign irq_pend = mip & mie_q[Ctx0];
  assign irq_cause = irq_pend[2] ? weft_rv_pkg::IrqExternal : irq_pend[0] ? weft_rv_pkg::IrqSoft : weft_rv_pkg::IrqTimer;
  // Only at an instruction's first cycle: one that stalls (a division, an MMIO access)
  // has started and finishes.
  assign irq_take = x_valid_q && !x_started_q && !hold_q && st_mie_q[Ctx0] && irq_pend != 3'b0;

  logic follow_switch;
  assign follow_switch = x_valid_q && !x_started_q && !irq_take && follow_q && !hold_q &&
                         ctx_q != Ctx0 && sched_ctx_i != ctx_q &&
                         {1'b0, sched_ctx_i} < NumCtxW;

  logic x_live;        // X's instruction executes (not killed, not trapping)
  logic mmio_access, mmio_fault, stall, x_fire;
  assign x_live      = x_valid_q && !irq_take && !follow_switch && !exc;
  assign mmio_access = x_live && (is_load || is_store) && mem_in_mmio;
  assign mmio_fault  = mmio_access && mmio_ready_i && mmio_err_i;
  assign stall = x_live && ((is_div && !div_done) || (mmio_access && !mmio_ready_i));
  assign div_start = x_live && is_div && !div_busy;
  // X finishes its instruction this cycle (retired, trapped or killed).
  assign x_fire = x_valid_q && !stall;

  // The context a weft_rv_pkg::CsrCustCtx write runs.
  logic            ctx_write, ctx_write_valid;
  logic [CtxW-1:0] ctx_write_to;
  assign ctx_write = x_live && !mmio_fault && is_csr && csr_addr == weft_rv_pkg::CsrCustCtx && csr_writes;
  always_comb begin
    ctx_write_to = csr_wdata[CtxW-1:0];
    ctx_write_valid = csr_wdata < NumCtx;
    if (csr_wdata == weft_rv_pkg::CtxFollow) begin
      ctx_write_to = sched_ctx_i;
      ctx_write_valid = {1'b0, sched_ctx_i} < NumCtxW;
    end
  end

  // Where the pipeline goes next.
  logic            trap, redirect, retire;
  logic [31:0]     redirect_pc, next_pc;
  logic [CtxW-1:0] trap_ctx, next_ctx;
  logic [4:0]      trap_cause;
  logic [31:0]     trap_tval, trap_vector;
  assign trap       = x_fire && (irq_take || (exc && !follow_switch) || mmio_fault);
  assign trap_ctx   = irq_take ? Ctx0 : ctx_q;
  assign trap_cause = irq_take ? irq_cause : mmio_fault ?
                      (is_load ? weft_rv_pkg::CauseLoadFault : weft_rv_pkg::CauseStoreFault) : exc_cause;
  assign trap_tval  = irq_take ? 32'b0 : mmio_fault ? mem_addr : exc_tval;
  assign trap_vector = {mtvec_q[trap_ctx][31:2], 2'b00} +
                       ((irq_take && mtvec_q[trap_ctx][0]) ? {25'b0, trap_cause, 2'b00} : 32'b0);
  assign retire  = x_fire && x_live && !mmio_fault;
  assign next_pc = (take ? jump_target : pc_x_q + 32'd4);

  always_comb begin
    redirect    = 1'b0;
    redirect_pc = next_pc;
    next_ctx    = ctx_q;
    if (x_fire) begin
      if (trap) begin
        redirect    = 1'b1;
        redirect_pc = trap_vector;
        next_ctx    = trap_ctx;
      end else if (follow_switch) begin
        redirect    = 1'b1;
        redirect_pc = ctx_pc_q[sched_ctx_i];
        next_ctx    = sched_ctx_i;
      end else if (retire) begin
        if (is_mret) begin
          redirect    = 1'b1;
          redirect_pc = mepc_q[ctx_q];
        end else if (ctx_write && ctx_write_valid) begin
          redirect    = 1'b1;
          next_ctx    = ctx_write_to;
          redirect_pc = (ctx_write_to == ctx_q) ? next_pc : ctx_pc_q[ctx_write_to];
        end else if (take || is_fencei) begin
          redirect = 1'b1;
        end
      end
    end
  end

  // The result X hands to W.
  logic [31:0] x_result;
  logic        x_writes_rd, remote_write;
  assign remote_write = retire && csr_remote && csr_writes && csr_addr[4:0] != 5'd0;
  always_comb begin
    if (is_lui) x_result = imm_u;
    else if (is_auipc) x_result = pc_x_q + imm_u;
    else if (is_jal || is_jalr) x_result = pc_x_q + 32'd4;
    else if (is_csr) x_result = csr_rdata;
    else if (is_div) x_result = div_out;
    else if (is_muldiv) x_result = mul_out;
    else if (is_load) x_result = mmio_rdata_i;  // a load is aligned and extended in W
    else x_result = alu_out;
  end
  assign x_writes_rd = retire && rd != 5'd0 &&
                       (is_lui || is_auipc || is_jal || is_jalr || is_load || is_opimm ||
                        is_op || is_muldiv || is_csr);

  // ---------------------------------------------------------------------------------
  // Memory ports
  // ---------------------------------------------------------------------------------
  assign imem_en_o   = !stall;
  assign imem_addr_o = pc_f_q[MemAw+1:2];

  logic ram_access;
  assign ram_access   = x_live && (is_load || is_store) && mem_in_ram && x_fire;
  assign dmem_en_o    = ram_access;
  assign dmem_we_o    = (ram_access && is_store) ? store_strb : 4'b0;
  assign dmem_addr_o  = mem_addr[MemAw+1:2];
  assign dmem_wdata_o = store_data;

  assign mmio_req_o   = mmio_access;
  assign mmio_we_o    = is_store;
  assign mmio_addr_o  = mem_addr;
  assign mmio_wdata_o = store_data;
  assign mmio_wstrb_o = is_store ? store_strb : 4'b0;

  // W: a RAM load's byte or halfword, extended.
  // W: a load's byte or halfword, extended: from the RAM's output, or from the word an
  // MMIO device returned (kept in w_data_q).
  logic [31:0] w_raw;
  logic [15:0] w_word;  // the addressed halfword; its low byte the addressed byte
  assign w_raw  = w_from_ram_q ? dmem_rdata_i : w_data_q;
  assign w_word = w_off_q[1] ? w_raw[31:16] >> {w_off_q[0], 3'b000}
                             : w_raw[15:0] >> {w_off_q[0], 3'b000};
  always_comb begin
    w_result = w_data_q;
    if (w_load_q) begin
      unique case (w_f3_q)
        3'b000:  w_result = {{24{w_word[7]}}, w_word[7:0]};
        3'b001:  w_result = {{16{w_word[15]}}, w_word[15:0]};
        3'b100:  w_result = {24'b0, w_word[7:0]};
        3'b101:  w_result = {16'b0, w_word[15:0]};
        default: w_result = w_raw;
      endcase
    end
  end

  // ---------------------------------------------------------------------------------
  // Sequential state
  // ---------------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (w_we_q) begin
      rf_q[rf_wa] <= w_result;
    end
  end

  logic csr_write_now;
  assign csr_write_now = retire && is_csr && csr_writes;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_f_q      <= ResetPc;
      x_valid_q   <= 1'b0;
      pc_x_q      <= ResetPc;
      x_started_q <= 1'b0;
      ctx_q       <= Ctx0;
      follow_q    <= 1'b0;
      hold_q      <= 1'b0;
      sel_q       <= Ctx0;
      mcycle_q    <= '0;
      minstret_q  <= '0;
      w_we_q      <= 1'b0;
      w_load_q    <= 1'b0;
      w_from_ram_q <= 1'b0;
      w_rd_q      <= '0;
      w_ctx_q     <= Ctx0;
      w_data_q    <= '0;
      w_f3_q      <= '0;
      w_off_q     <= '0;
      for (int c = 0; c < NumCtx; c++) begin
        ctx_pc_q[c]   <= ResetPc;
        st_mie_q[c]   <= 1'b0;
        st_mpie_q[c]  <= 1'b0;
        mie_q[c]      <= '0;
        mtvec_q[c]    <= '0;
        mscratch_q[c] <= '0;
        mepc_q[c]     <= '0;
        mcause_q[c]   <= '0;
        mtval_q[c]    <= '0;
      end
    end else begin
      mcycle_q <= mcycle_q + 64'd1;
      if (retire) minstret_q <= minstret_q + 64'd1;

      // F and X.
      if (!stall) begin
        pc_f_q    <= redirect ? redirect_pc : pc_f_q + 32'd4;
        pc_x_q    <= pc_f_q;
        x_valid_q <= !redirect;
      end
      x_started_q <= stall;

      // Context switches: the context left keeps where it resumes.
      if (x_fire && next_ctx != ctx_q) begin
        ctx_pc_q[ctx_q] <= (trap || follow_switch) ? pc_x_q : next_pc;
      end
      ctx_q <= next_ctx;

      // Trap entry and return.
      if (trap) begin
        mepc_q[trap_ctx]    <= (irq_take && trap_ctx != ctx_q) ? ctx_pc_q[Ctx0] : pc_x_q;
        mcause_q[trap_ctx]  <= {irq_take, 26'b0, trap_cause};
        mtval_q[trap_ctx]   <= trap_tval;
        st_mpie_q[trap_ctx] <= st_mie_q[trap_ctx];
        st_mie_q[trap_ctx]  <= 1'b0;
      end else if (retire && is_mret) begin
        st_mie_q[ctx_q]  <= st_mpie_q[ctx_q];
        st_mpie_q[ctx_q] <= 1'b1;
      end

      // CSR writes (the running context's; the counters are the core's).
      if (csr_write_now) begin
        unique case (csr_addr)
          weft_rv_pkg::CsrMstatus: begin
            st_mie_q[ctx_q]  <= csr_wdata[3];
            st_mpie_q[ctx_q] <= csr_wdata[7];
          end
          weft_rv_pkg::CsrMie:        mie_q[ctx_q] <= {csr_wdata[11], csr_wdata[7], csr_wdata[3]};
          weft_rv_pkg::CsrMtvec:      mtvec_q[ctx_q] <= {csr_wdata[31:2], 1'b0, csr_wdata[0]};
          weft_rv_pkg::CsrMscratch:   mscratch_q[ctx_q] <= csr_wdata;
          weft_rv_pkg::CsrMepc:       mepc_q[ctx_q] <= {csr_wdata[31:2], 2'b00};
          weft_rv_pkg::CsrMcause:     mcause_q[ctx_q] <= csr_wdata;
          weft_rv_pkg::CsrMtval:      mtval_q[ctx_q] <= csr_wdata;
          weft_rv_pkg::CsrMcycle:     mcycle_q[31:0] <= csr_wdata;
          weft_rv_pkg::CsrMcycleh:    mcycle_q[63:32] <= csr_wdata;
          weft_rv_pkg::CsrMinstret:   minstret_q[31:0] <= csr_wdata;
          weft_rv_pkg::CsrMinstreth:  minstret_q[63:32] <= csr_wdata;
          weft_rv_pkg::CsrCustFollow: begin
            follow_q <= csr_wdata[0];
            hold_q   <= csr_wdata[1];
          end
          weft_rv_pkg::CsrCustSel:    if (csr_wdata < NumCtx) sel_q <= csr_wdata[CtxW-1:0];
          weft_rv_pkg::CsrCustPc:     if (sel_q != ctx_q) ctx_pc_q[sel_q] <= {csr_wdata[31:2], 2'b00};
          default: ;
        endcase
      end

      // W.
      w_we_q       <= x_writes_rd || remote_write;
      w_load_q     <= retire && is_load;
      w_from_ram_q <= !mem_in_mmio;
      w_rd_q       <= remote_write ? csr_addr[4:0] : rd;
      w_ctx_q      <= remote_write ? sel_q : ctx_q;
      w_data_q     <= remote_write ? csr_wdata : x_result;
      w_f3_q       <= funct3;
      w_off_q      <= mem_addr[1:0];
    end
  end

  assign ctx_o = ctx_q;

  // wfi is a no-op to the pipeline (the specification allows it); the pulse tells a slot
  // wrapper that the kernel's idle loop waits, so that it may stop the clock meanwhile.
  logic wfi_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wfi_q <= 1'b0;
    else wfi_q <= retire && is_wfi && ctx_q == Ctx0 && irq_pend == 3'b0 && !mie_q[Ctx0][1];
  end
  assign wfi_o = wfi_q;

  // ---------------------------------------------------------------------------------
  // Trace
  // ---------------------------------------------------------------------------------
  // The record of X's instruction, registered; W's write (its result) joins it.
  weft_rv_pkg::trace_t tr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tr_q <= '0;
    end else begin
      tr_q.valid     <= x_fire;
      tr_q.kind      <= irq_take ? weft_rv_pkg::TraceIrq : follow_switch ? weft_rv_pkg::TraceSwitched :
                        trap ? weft_rv_pkg::TraceTrapped : weft_rv_pkg::TraceRetired;
      tr_q.ctx       <= 5'(ctx_q);
      tr_q.next_ctx  <= 5'(next_ctx);
      tr_q.pc        <= pc_x_q;
      tr_q.insn      <= insn;
      tr_q.cause     <= trap_cause;
      tr_q.mem_we    <= (retire && is_store) ? store_strb : 4'b0;
      tr_q.mem_addr  <= mem_addr;
      tr_q.mem_wdata <= store_data;
    end
  end
  always_comb begin
    trace_o          = tr_q;
    trace_o.rd_we    = w_we_q;
    trace_o.rd       = w_rd_q;
    trace_o.rd_wdata = w_result;
  end

  if (NumCtx < 1 || NumCtx > 32) begin : gen_check_ctx
    $error("weft_rv_core: NumCtx must be 1 to 32");
  end
  if ((1 << (MemAw + 2)) != MemBytes || MemBytes > 32'h4000_0000) begin : gen_check_mem
    $error("weft_rv_core: MemBytes must be a power of two below 1 GiB");
  end

endmodule

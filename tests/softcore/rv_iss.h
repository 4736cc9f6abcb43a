// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv_iss.h: an instruction-set simulator of Weft's softcore (docs/softcore.md), the
// reference the RTL runs against in lock step (tb_rv_core) and that is itself checked
// against QEMU's qemu-riscv32 (rv_iss_vs_qemu). It models what software sees, written
// from the RISC-V specifications and docs/softcore.md, not from the RTL: RV32IM, the
// machine-mode CSRs and traps, and the hardware contexts with their custom CSRs. It has
// no pipeline: asynchronous things (an interrupt taken, a context switched out by the
// scheduler) happen when the test bench says the core did them, after checking they
// were allowed.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace rv
{

enum class Kind { Retired = 0, Trapped = 1, Interrupted = 2, Switched = 3 };

// What one step did: the fields the core's trace reports.
struct Step {
    Kind kind = Kind::Retired;
    int ctx = 0;
    uint32_t pc = 0, insn = 0;
    uint32_t cause = 0; // mcause's low bits when trapped or interrupted
    int next_ctx = 0;
    bool rd_we = false;
    uint32_t rd = 0, rd_val = 0;
    uint32_t mem_we = 0, mem_addr = 0, mem_wdata = 0; // a store's strobes, address, data
};

// The inputs the core sampled in the cycle it executed an instruction.
struct Inputs {
    uint32_t mip = 0; // bits 3, 7, 11 (MSIP, MTIP, MEIP)
    int sched_ctx = 0;
    uint64_t time = 0;
};

// MMIO: addresses with bit 31 set. Returns false when no device answers there.
struct Mmio {
    std::function<bool(uint32_t addr, uint32_t &data)> load;
    std::function<bool(uint32_t addr, uint32_t data, uint32_t strb)> store;
};

constexpr uint32_t kCsrCustCtx = 0x7C0, kCsrCustFollow = 0x7C1, kCsrCustSel = 0x7C2,
                   kCsrCustPc = 0x7C3, kCsrCustReg = 0x7E0, kCsrCustNctx = 0xFC0;

class Iss
{
  public:
    struct Ctx {
        uint32_t x[32] = {};
        uint32_t pc = 0;
        bool mie = false, mpie = false;
        uint32_t mie_bits = 0; // mie CSR: MSIE, MTIE, MEIE only
        uint32_t mtvec = 0, mscratch = 0, mepc = 0, mcause = 0, mtval = 0;
    };

    Iss(int nctx, uint32_t mem_bytes, uint32_t reset_pc = 0)
        : ctx_(nctx), mem_(mem_bytes, 0), mem_bytes_(mem_bytes)
    {
        for (auto &c : ctx_)
            c.pc = reset_pc;
    }

    int nctx() const { return static_cast<int>(ctx_.size()); }
    int cur() const { return cur_; }
    bool follow() const { return follow_; }
    Ctx &ctx(int i) { return ctx_[i]; }
    const Ctx &ctx(int i) const { return ctx_[i]; }
    std::vector<uint8_t> &mem() { return mem_; }
    uint64_t &minstret() { return minstret_; }
    Mmio mmio;

    void load(uint32_t addr, const std::vector<uint32_t> &words)
    {
        for (size_t i = 0; i < words.size(); i++)
            std::memcpy(&mem_[addr + 4 * i], &words[i], 4);
    }

    // The interrupt context 0 would take now (mcause's low bits), or -1.
    int pending_interrupt(uint32_t mip) const
    {
        const Ctx &k = ctx_[0];
        uint32_t p = mip & k.mie_bits;
        if (hold_ || !k.mie || p == 0)
            return -1;
        if (p & (1u << 11))
            return 11;
        if (p & (1u << 3))
            return 3;
        return 7;
    }

    // Context 0 takes interrupt `cause` before the running context's next instruction.
    Step interrupt(int cause)
    {
        Step s = head(Kind::Interrupted);
        s.cause = static_cast<uint32_t>(cause);
        Ctx &k = ctx_[0];
        // The running context keeps its PC; context 0's trap records where it stood.
        k.mepc = k.pc;
        k.mcause = 0x80000000u | static_cast<uint32_t>(cause);
        k.mtval = 0;
        k.mpie = k.mie;
        k.mie = false;
        k.pc = (k.mtvec & ~3u) + ((k.mtvec & 1u) ? 4u * static_cast<uint32_t>(cause) : 0u);
        cur_ = 0;
        s.next_ctx = 0;
        return s;
    }

    // The scheduler's choice replaces the running context (follow mode).
    bool may_switch_to(int to) const
    {
        return follow_ && !hold_ && cur_ != 0 && to != cur_ && to >= 0 && to < nctx();
    }
    Step switch_to(int to)
    {
        Step s = head(Kind::Switched);
        s.next_ctx = to;
        cur_ = to;
        return s;
    }

    // Executes the running context's next instruction.
    Step step(const Inputs &in)
    {
        Ctx &c = ctx_[cur_];
        Step s = head(Kind::Retired);
        if (c.pc >= mem_bytes_)
            return trap(s, 1, c.pc);
        uint32_t insn;
        std::memcpy(&insn, &mem_[c.pc], 4);
        s.insn = insn;
        uint32_t op = insn & 0x7f, rd = (insn >> 7) & 31, f3 = (insn >> 12) & 7;
        uint32_t rs1 = (insn >> 15) & 31, rs2 = (insn >> 20) & 31, f7 = insn >> 25;
        uint32_t a = c.x[rs1], b = c.x[rs2];
        int32_t imm_i = static_cast<int32_t>(insn) >> 20;
        int32_t imm_s = ((static_cast<int32_t>(insn) >> 25) << 5) | static_cast<int32_t>(rd);
        int32_t imm_b = ((static_cast<int32_t>(insn) >> 31) << 12) | ((insn >> 7 & 1) << 11) |
                        ((insn >> 25 & 0x3f) << 5) | ((insn >> 8 & 0xf) << 1);
        int32_t imm_j = ((static_cast<int32_t>(insn) >> 31) << 20) | (insn & 0xff000) |
                        ((insn >> 20 & 1) << 11) | ((insn >> 21 & 0x3ff) << 1);
        uint32_t next = c.pc + 4;
        bool writes = false;
        uint32_t val = 0;
        auto illegal = [&]() { return trap(s, 2, insn); };
        if ((insn & 3) != 3)
            return illegal();

        switch (op) {
        case 0x37:
            writes = true;
            val = insn & 0xfffff000u;
            break;
        case 0x17:
            writes = true;
            val = c.pc + (insn & 0xfffff000u);
            break;
        case 0x6f:
        case 0x67: {
            if (op == 0x67 && f3 != 0)
                return illegal();
            uint32_t t = op == 0x6f ? c.pc + imm_j : (a + imm_i) & ~1u;
            if (t & 2)
                return trap(s, 0, t);
            writes = true;
            val = c.pc + 4;
            next = t;
            break;
        }
        case 0x63: {
            bool take;
            switch (f3) {
            case 0:
                take = a == b;
                break;
            case 1:
                take = a != b;
                break;
            case 4:
                take = static_cast<int32_t>(a) < static_cast<int32_t>(b);
                break;
            case 5:
                take = static_cast<int32_t>(a) >= static_cast<int32_t>(b);
                break;
            case 6:
                take = a < b;
                break;
            case 7:
                take = a >= b;
                break;
            default:
                return illegal();
            }
            if (take) {
                uint32_t t = c.pc + imm_b;
                if (t & 2)
                    return trap(s, 0, t);
                next = t;
            }
            break;
        }
        case 0x03: {
            if (f3 == 3 || f3 == 6 || f3 == 7)
                return illegal();
            uint32_t addr = a + imm_i;
            if (misaligned(f3, addr))
                return trap(s, 4, addr);
            uint32_t word;
            if (addr < mem_bytes_) {
                std::memcpy(&word, &mem_[addr & ~3u], 4);
            } else if ((addr & 0x80000000u) && mmio.load && mmio.load(addr & ~3u, word)) {
            } else {
                return trap(s, 5, addr);
            }
            word >>= 8 * (addr & 3);
            switch (f3) {
            case 0:
                val = static_cast<uint32_t>(static_cast<int8_t>(word));
                break;
            case 1:
                val = static_cast<uint32_t>(static_cast<int16_t>(word));
                break;
            case 4:
                val = word & 0xff;
                break;
            case 5:
                val = word & 0xffff;
                break;
            default:
                val = word;
                break;
            }
            writes = true;
            break;
        }
        case 0x23: {
            if (f3 > 2)
                return illegal();
            uint32_t addr = a + imm_s;
            if (misaligned(f3, addr))
                return trap(s, 6, addr);
            uint32_t data = f3 == 0   ? (b & 0xff) * 0x01010101u
                            : f3 == 1 ? (b & 0xffff) * 0x00010001u
                                      : b;
            uint32_t strb = (f3 == 0 ? 1u : f3 == 1 ? 3u : 15u) << (addr & 3);
            if (addr < mem_bytes_) {
                for (int i = 0; i < 4; i++)
                    if (strb >> i & 1)
                        mem_[(addr & ~3u) + i] = static_cast<uint8_t>(data >> (8 * i));
            } else if (!((addr & 0x80000000u) && mmio.store &&
                         mmio.store(addr & ~3u, data, strb))) {
                return trap(s, 7, addr);
            }
            s.mem_we = strb;
            s.mem_addr = addr;
            s.mem_wdata = data;
            break;
        }
        case 0x13: {
            if (f3 == 1 && f7 != 0)
                return illegal();
            if (f3 == 5 && f7 != 0 && f7 != 0x20)
                return illegal();
            val = alu(f3, f3 == 5 && f7 == 0x20, a, static_cast<uint32_t>(imm_i));
            writes = true;
            break;
        }
        case 0x33: {
            if (f7 == 1) {
                val = muldiv(f3, a, b);
            } else if (f7 == 0 || (f7 == 0x20 && (f3 == 0 || f3 == 5))) {
                val = alu(f3, f7 == 0x20, a, b);
            } else {
                return illegal();
            }
            writes = true;
            break;
        }
        case 0x0f:
            if (f3 > 1)
                return illegal();
            break;
        case 0x73: {
            if (f3 == 0) {
                uint32_t rest = insn >> 7;
                if (rest == 0)
                    return trap(s, 11, 0);
                if (rest == 0x2000)
                    return trap(s, 3, c.pc);
                if (rest == 0x604000) { // mret
                    c.mie = c.mpie;
                    c.mpie = true;
                    next = c.mepc;
                    break;
                }
                if (rest == 0x20a000)
                    break; // wfi: a no-op here
                return illegal();
            }
            if (f3 == 4)
                return illegal();
            uint32_t addr = insn >> 20;
            uint32_t old;
            if (!csr_read(addr, in, old))
                return illegal();
            uint32_t src = (f3 & 4) ? rs1 : a;
            bool w = (f3 & 3) == 1 || rs1 != 0;
            if (w && (addr >> 10) == 3)
                return illegal();
            bool remote = (addr & ~31u) == kCsrCustReg;
            if (w && remote && rd != 0)
                return illegal();
            uint32_t nv = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? (old | src) : (old & ~src);
            writes = true;
            val = old;
            if (w && remote) { // a register of the selected context; rd is x0
                uint32_t n = addr & 31;
                finish(s, c, rd, writes, val, next);
                if (n != 0) {
                    ctx_[sel_].x[n] = nv;
                    s.rd_we = true;
                    s.rd = n;
                    s.rd_val = nv;
                }
                return s;
            }
            if (w && addr == kCsrCustCtx) {
                int to = -1;
                if (nv == 0xffffffffu) {
                    to = in.sched_ctx;
                } else if (nv < static_cast<uint32_t>(nctx())) {
                    to = static_cast<int>(nv);
                }
                finish(s, c, rd, writes, val, next);
                if (to >= 0 && to < nctx() && to != cur_) {
                    cur_ = to;
                    s.next_ctx = to;
                }
                return s;
            }
            bool counter = addr == 0xB02 || addr == 0xB82;
            if (w && !counter)
                csr_write(addr, nv, c);
            finish(s, c, rd, writes, val, next);
            // A write to minstret lands after the instruction's own count.
            if (w && counter)
                csr_write(addr, nv, c);
            return s;
        }
        default:
            return illegal();
        }
        finish(s, c, rd, writes, val, next);
        return s;
    }

  private:
    Step head(Kind k) const
    {
        Step s;
        s.kind = k;
        s.ctx = cur_;
        s.next_ctx = cur_;
        s.pc = ctx_[cur_].pc;
        if (k != Kind::Retired && ctx_[cur_].pc < mem_bytes_)
            std::memcpy(&s.insn, &mem_[ctx_[cur_].pc], 4);
        return s;
    }

    void finish(Step &s, Ctx &c, uint32_t rd, bool writes, uint32_t val, uint32_t next)
    {
        if (writes && rd != 0) {
            c.x[rd] = val;
            s.rd_we = true;
            s.rd = rd;
            s.rd_val = val;
        }
        c.pc = next;
        minstret_++;
    }

    Step trap(Step &s, uint32_t cause, uint32_t tval)
    {
        Ctx &c = ctx_[cur_];
        s.kind = Kind::Trapped;
        s.cause = cause;
        c.mepc = c.pc;
        c.mcause = cause;
        c.mtval = tval;
        c.mpie = c.mie;
        c.mie = false;
        c.pc = c.mtvec & ~3u;
        return s;
    }

    static bool misaligned(uint32_t f3, uint32_t addr)
    {
        return ((f3 & 3) == 1 && (addr & 1)) || ((f3 & 3) == 2 && (addr & 3));
    }

    static uint32_t alu(uint32_t f3, bool alt, uint32_t a, uint32_t b)
    {
        switch (f3) {
        case 0:
            return alt ? a - b : a + b;
        case 1:
            return a << (b & 31);
        case 2:
            return static_cast<int32_t>(a) < static_cast<int32_t>(b);
        case 3:
            return a < b;
        case 4:
            return a ^ b;
        case 5:
            return alt ? static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31)) : a >> (b & 31);
        case 6:
            return a | b;
        default:
            return a & b;
        }
    }

    static uint32_t muldiv(uint32_t f3, uint32_t a, uint32_t b)
    {
        int64_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
        uint64_t ua = a, ub = b;
        int32_t ia = static_cast<int32_t>(a), ib = static_cast<int32_t>(b);
        switch (f3) {
        case 0:
            return a * b;
        case 1:
            return static_cast<uint32_t>(static_cast<uint64_t>(sa * sb) >> 32);
        case 2:
            return static_cast<uint32_t>(static_cast<uint64_t>(sa * static_cast<int64_t>(ub)) >>
                                         32);
        case 3:
            return static_cast<uint32_t>((ua * ub) >> 32);
        case 4:
            if (b == 0)
                return 0xffffffffu;
            if (ia == INT32_MIN && ib == -1)
                return a;
            return static_cast<uint32_t>(ia / ib);
        case 5:
            return b == 0 ? 0xffffffffu : a / b;
        case 6:
            if (b == 0)
                return a;
            if (ia == INT32_MIN && ib == -1)
                return 0;
            return static_cast<uint32_t>(ia % ib);
        default:
            return b == 0 ? a : a % b;
        }
    }

    bool csr_read(uint32_t addr, const Inputs &in, uint32_t &v) const
    {
        const Ctx &c = ctx_[cur_];
        switch (addr) {
        case 0x300:
            v = (3u << 11) | (c.mpie ? 0x80u : 0) | (c.mie ? 8u : 0);
            return true;
        case 0x301:
            v = 0x40001100u;
            return true;
        case 0x304:
            v = c.mie_bits;
            return true;
        case 0x305:
            v = c.mtvec;
            return true;
        case 0x340:
            v = c.mscratch;
            return true;
        case 0x341:
            v = c.mepc;
            return true;
        case 0x342:
            v = c.mcause;
            return true;
        case 0x343:
            v = c.mtval;
            return true;
        case 0x344:
            v = in.mip;
            return true;
        case 0xB02:
        case 0xC02:
            v = static_cast<uint32_t>(minstret_);
            return true;
        case 0xB82:
        case 0xC82:
            v = static_cast<uint32_t>(minstret_ >> 32);
            return true;
        case 0xC01:
            v = static_cast<uint32_t>(in.time);
            return true;
        case 0xC81:
            v = static_cast<uint32_t>(in.time >> 32);
            return true;
        case 0xF11:
        case 0xF12:
        case 0xF13:
            v = 0;
            return true;
        case 0xF14:
        case kCsrCustCtx:
            v = static_cast<uint32_t>(cur_);
            return true;
        case kCsrCustFollow:
            v = (hold_ ? 2u : 0u) | (follow_ ? 1u : 0u);
            return true;
        case kCsrCustSel:
            v = static_cast<uint32_t>(sel_);
            return true;
        case kCsrCustPc:
            v = ctx_[sel_].pc;
            return true;
        case kCsrCustReg + 0:
        case kCsrCustReg + 1:
        case kCsrCustReg + 2:
        case kCsrCustReg + 3:
        case kCsrCustReg + 4:
        case kCsrCustReg + 5:
        case kCsrCustReg + 6:
        case kCsrCustReg + 7:
        case kCsrCustReg + 8:
        case kCsrCustReg + 9:
        case kCsrCustReg + 10:
        case kCsrCustReg + 11:
        case kCsrCustReg + 12:
        case kCsrCustReg + 13:
        case kCsrCustReg + 14:
        case kCsrCustReg + 15:
        case kCsrCustReg + 16:
        case kCsrCustReg + 17:
        case kCsrCustReg + 18:
        case kCsrCustReg + 19:
        case kCsrCustReg + 20:
        case kCsrCustReg + 21:
        case kCsrCustReg + 22:
        case kCsrCustReg + 23:
        case kCsrCustReg + 24:
        case kCsrCustReg + 25:
        case kCsrCustReg + 26:
        case kCsrCustReg + 27:
        case kCsrCustReg + 28:
        case kCsrCustReg + 29:
        case kCsrCustReg + 30:
        case kCsrCustReg + 31:
            v = ctx_[sel_].x[addr & 31]; // x0 holds 0
            return true;
        case kCsrCustNctx:
            v = static_cast<uint32_t>(nctx());
            return true;
        // The cycle counters exist but their values depend on the pipeline: a test that
        // reads them compares the RTL's value (tb_rv_core does not generate such reads).
        case 0xB00:
        case 0xB80:
        case 0xC00:
        case 0xC80:
            v = 0;
            return true;
        case 0x310: // mstatush
        case 0xF15: // mconfigptr
            v = 0;
            return true;
        default: // the performance counters 3-31 and their events read 0
            v = 0;
            return (addr >= 0xB03 && addr <= 0xB1F) || (addr >= 0xB83 && addr <= 0xB9F) ||
                   (addr >= 0x323 && addr <= 0x33F);
        }
    }

    void csr_write(uint32_t addr, uint32_t v, Ctx &c)
    {
        switch (addr) {
        case 0x300:
            c.mie = v & 8;
            c.mpie = v & 0x80;
            break;
        case 0x304:
            c.mie_bits = v & 0x888u;
            break;
        case 0x305:
            c.mtvec = v & ~2u;
            break;
        case 0x340:
            c.mscratch = v;
            break;
        case 0x341:
            c.mepc = v & ~3u;
            break;
        case 0x342:
            c.mcause = v;
            break;
        case 0x343:
            c.mtval = v;
            break;
        case 0xB02:
            minstret_ = (minstret_ & ~0xffffffffull) | v;
            break;
        case 0xB82:
            minstret_ = (minstret_ & 0xffffffffull) | (static_cast<uint64_t>(v) << 32);
            break;
        case kCsrCustFollow:
            follow_ = v & 1;
            hold_ = v & 2;
            break;
        case kCsrCustSel:
            if (v < static_cast<uint32_t>(nctx()))
                sel_ = static_cast<int>(v);
            break;
        case kCsrCustPc:
            if (sel_ != cur_)
                ctx_[sel_].pc = v & ~3u;
            break;
        default:
            break;
        }
    }

    std::vector<Ctx> ctx_;
    std::vector<uint8_t> mem_;
    uint32_t mem_bytes_;
    int cur_ = 0, sel_ = 0;
    bool follow_ = false, hold_ = false;
    uint64_t minstret_ = 0;
};

} // namespace rv

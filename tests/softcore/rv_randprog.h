// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv_randprog.h: RV32IM instruction encoders and the random instruction streams that the
// softcore's differential tests run (tb_rv_core against the ISS, rv_iss_vs_qemu the ISS
// against QEMU). A stream only jumps forward, so it ends; loads and stores use a base
// register (x29) that it never writes; it leaves x30 and x31 to the trap handler.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "rv_iss.h"

namespace rv
{

// ---- encoders ----
inline uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd,
                       uint32_t op)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
inline uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op)
{
    return (static_cast<uint32_t>(imm) & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
inline uint32_t s_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t op)
{
    uint32_t u = static_cast<uint32_t>(imm);
    return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31) << 7 | op;
}
inline uint32_t b_type(int32_t off, uint32_t rs2, uint32_t rs1, uint32_t f3)
{
    uint32_t u = static_cast<uint32_t>(off);
    return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
           (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | 0x63;
}
inline uint32_t u_type(uint32_t imm20, uint32_t rd, uint32_t op)
{
    return (imm20 & 0xfffff) << 12 | rd << 7 | op;
}
inline uint32_t j_type(int32_t off, uint32_t rd)
{
    uint32_t u = static_cast<uint32_t>(off);
    return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 |
           (u >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}
inline uint32_t csr_op(uint32_t csr, uint32_t rs1, uint32_t f3, uint32_t rd)
{
    return csr << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x73;
}
inline uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm)
{
    return i_type(imm, rs1, 0, rd, 0x13);
}
inline uint32_t lui(uint32_t rd, uint32_t imm20)
{
    return u_type(imm20, rd, 0x37);
}
inline uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm)
{
    return i_type(imm, rs1, 0, rd, 0x67);
}
inline uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm)
{
    return i_type(imm, rs1, 2, rd, 0x03);
}
inline uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm)
{
    return s_type(imm, rs2, rs1, 2, 0x23);
}
inline uint32_t csrrw(uint32_t rd, uint32_t csr, uint32_t rs1)
{
    return csr_op(csr, rs1, 1, rd);
}
inline uint32_t csrrs(uint32_t rd, uint32_t csr, uint32_t rs1)
{
    return csr_op(csr, rs1, 2, rd);
}
constexpr uint32_t kEcall = 0x00000073, kEbreak = 0x00100073, kMret = 0x30200073, kWfi = 0x10500073,
                   kFence = 0x0ff0000f, kFenceI = 0x0000100f;

// Loads a 32-bit constant into rd (two instructions).
inline void li(std::vector<uint32_t> &out, uint32_t rd, uint32_t v)
{
    uint32_t lo = v & 0xfff;
    uint32_t hi = (v + (lo & 0x800 ? 0x1000 : 0)) >> 12;
    out.push_back(lui(rd, hi));
    out.push_back(addi(rd, rd, static_cast<int32_t>(lo << 20) >> 20));
}

// ---- random streams ----
struct StreamOptions {
    bool user_only = false;  // no CSRs, traps or MMIO (what qemu-riscv32 runs in user mode)
    bool kernel_ctx = false; // the stream runs in context 0 (may change mie and mstatus.MIE)
    int nctx = 1;            // contexts a CsrCustCtx write may name
};

class StreamGen
{
  public:
    StreamGen(uint64_t seed, StreamOptions o) : rng_(seed), o_(o) {}

    // Appends at least n instructions. The stream is made of units (an instruction, or a
    // pattern such as auipc + jalr that must run whole); a branch or jump skips whole units.
    void body(std::vector<uint32_t> &out, int n)
    {
        size_t end = out.size() + static_cast<size_t>(n);
        while (out.size() < end)
            unit(out, 0);
    }

    // A value with the corner cases division and shifts care about.
    uint32_t value()
    {
        switch (pick(8)) {
        case 0:
            return 0;
        case 1:
            return 0x80000000u;
        case 2:
            return 0xffffffffu;
        case 3:
            return 1;
        case 4:
            return static_cast<uint32_t>(pick(64)) - 32;
        default:
            return static_cast<uint32_t>(rng_());
        }
    }

    uint32_t pick(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }
    uint32_t reg() { return pick(32); }     // a source
    uint32_t dst() { return 1 + pick(28); } // x1-x28

  private:
    void unit(std::vector<uint32_t> &out, int depth)
    {
        uint32_t w = pick(100);
        if (depth > 2 && w >= 74 && w < 88)
            w = 0; // bounded nesting of skips
        uint32_t rd = dst(), rs1 = reg(), rs2 = reg();
        if (w < 20) { // OP
            static const uint32_t f7[] = {0, 0x20, 0, 0, 0, 0, 0x20, 0, 0, 0};
            static const uint32_t f3[] = {0, 0, 1, 2, 3, 4, 5, 5, 6, 7};
            uint32_t k = pick(10);
            out.push_back(r_type(f7[k], rs2, rs1, f3[k], rd, 0x33));
        } else if (w < 38) { // OP-IMM
            uint32_t f3 = pick(8);
            int32_t imm = static_cast<int32_t>(pick(4096)) - 2048;
            if (f3 == 1)
                imm &= 31;
            if (f3 == 5)
                imm = (imm & 31) | (pick(2) ? 0x400 : 0);
            out.push_back(i_type(imm, rs1, f3, rd, 0x13));
        } else if (w < 46) { // constants, including the corner values
            if (pick(3) == 0)
                out.push_back(u_type(pick(1u << 20), rd, pick(2) ? 0x37 : 0x17));
            else
                li(out, rd, value());
        } else if (w < 56) { // M
            out.push_back(r_type(1, rs2, rs1, pick(8), rd, 0x33));
        } else if (w < 66) { // loads, base x29 (a 4 KiB area around it)
            static const uint32_t f3s[] = {0, 1, 2, 4, 5};
            uint32_t f3 = f3s[pick(5)];
            out.push_back(i_type(offset(f3), 29, f3, rd, 0x03));
        } else if (w < 74) { // stores
            uint32_t f3 = pick(3);
            out.push_back(s_type(offset(f3), rs2, 29, f3, 0x23));
        } else if (w < 88) { // a forward branch, jump or indirect jump over 0 to 3 units
            std::vector<uint32_t> skipped;
            for (uint32_t k = pick(4); k > 0; k--)
                unit(skipped, depth + 1);
            int32_t off = 4 * static_cast<int32_t>(skipped.size() + 1);
            if (w < 82) {
                static const uint32_t f3s[] = {0, 1, 4, 5, 6, 7};
                out.push_back(b_type(off, rs2, rs1, f3s[pick(6)]));
            } else if (w < 85) {
                out.push_back(j_type(off, rd));
            } else { // auipc base, 0; jalr: now and then to a misaligned target (a trap)
                uint32_t base = dst();
                out.push_back(u_type(0, base, 0x17));
                off += 4 + (!o_.user_only && pick(6) == 0 ? 2 : 0) + static_cast<int32_t>(pick(2));
                out.push_back(jalr(rd, base, off)); // bit 0 of the target is dropped
            }
            out.insert(out.end(), skipped.begin(), skipped.end());
        } else if (o_.user_only) {
            out.push_back(r_type(0, rs2, rs1, 0, rd, 0x33));
        } else if (w < 94) {
            csr(out, rd, rs1);
        } else if (w < 96) { // MMIO: the device's scratch words, or nothing (an access fault)
            uint32_t base = dst();
            out.push_back(lui(base, 0x80000));
            int32_t off = pick(5) == 0 ? 0x100 + 4 * static_cast<int32_t>(pick(4))
                                       : 0x40 + 4 * static_cast<int32_t>(pick(16));
            if (pick(2))
                out.push_back(lw(rd == base ? dst() : rd, base, off));
            else
                out.push_back(sw(rs2, base, off));
        } else if (w < 97 && pick(4) == 0) { // follow and hold, on or off
            uint32_t t = dst();
            out.push_back(addi(t, 0, static_cast<int32_t>(pick(4))));
            out.push_back(csrrw(rd, 0x7C1, t));
        } else if (w < 97) { // a context switch (maybe to the scheduler's choice, maybe to none)
            uint32_t t = dst();
            out.push_back(
                addi(t, 0, static_cast<int32_t>(pick(static_cast<uint32_t>(o_.nctx) + 2)) - 1));
            out.push_back(csrrw(rd, kCsrCustCtx, t));
        } else {
            switch (pick(8)) {
            case 0:
                out.push_back(kEcall);
                break;
            case 1:
                out.push_back(kEbreak);
                break;
            case 2:
                out.push_back(kWfi);
                break;
            case 3:
                out.push_back(kFence);
                break;
            case 4:
                out.push_back(kFenceI);
                break;
            case 5: { // an access fault: nothing between the RAM and the MMIO space
                uint32_t base = dst();
                out.push_back(lui(base, 0x40000));
                out.push_back(lw(rd == base ? dst() : rd, base, 0));
                break;
            }
            default: { // illegal
                static const uint32_t bad[] = {0x00000000u, 0xffffffffu, 0x0000000bu, 0x00004073u,
                                               0x00002063u, 0x0200d013u, 0x00003003u, 0x40001033u};
                out.push_back(bad[pick(8)]);
            }
            }
        }
    }

    int32_t offset(uint32_t f3)
    {
        int32_t off = static_cast<int32_t>(pick(4096)) - 2048;
        uint32_t size = f3 & 3;
        if (o_.user_only || pick(8) != 0)
            off &= ~static_cast<int32_t>((1u << size) - 1);
        return off;
    }

    void csr(std::vector<uint32_t> &out, uint32_t rd, uint32_t rs1)
    {
        static const uint32_t rw[] = {0x340, 0x343, 0x342, 0x341, 0x7C2}; // writable
        static const uint32_t ro[] = {0x301, 0xF14, 0xF11, 0xF12, 0xF13, 0xC02, 0xB02, 0x7C0,
                                      0x7C1, 0x7C3, 0xFC0, 0x344, 0x300, 0x304, 0x305};
        uint32_t k = pick(12);
        if (k >= 10) { // a register of the selected context: read, write (rd x0), or illegal
            uint32_t f3 = 1 + pick(3) + (pick(2) ? 4 : 0);
            if (pick(2))
                out.push_back(csr_op(0x7E0 + pick(32), 0, 2, rd)); // csrr
            else // never x29, another stream's base register
                out.push_back(csr_op(0x7E0 + 1 + pick(28), rs1, f3, pick(6) ? 0 : rd));
        } else if (k < 4) {
            out.push_back(csr_op(rw[pick(5)], rs1, 1 + pick(3) + (pick(2) ? 4 : 0), rd));
        } else if (k < 8) {
            out.push_back(csr_op(ro[pick(15)], 0, 2, rd)); // csrr
        } else if (o_.kernel_ctx) {
            if (pick(2))
                out.push_back(csr_op(0x300, 8, pick(2) ? 6 : 7, rd)); // csrrsi/ci MIE
            else
                out.push_back(csr_op(0x304, rs1, 1, rd)); // mie
        } else {
            out.push_back(csr_op(0xF14, rs1 ? rs1 : 1, 1, rd)); // a write to a read-only CSR
        }
    }

    std::mt19937_64 rng_;
    StreamOptions o_;
};

} // namespace rv

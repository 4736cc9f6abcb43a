// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv_soc_host.h: runs a program on a verilated weft_rv_soc (the softcore with its RAM and
// timer) in this process: loads a RAM image (a .bin from weft_rv_program) through the
// load port, releases reset, and serves the host's devices (Device): TOHOST ends the run
// with the program's code, CONSOLE collects its output. It also holds what every host of
// the softcore's models shares (the test benches, rv_run, the bench): the devices, a
// clock cycle, the RAM's load port, the trace record's fields.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace rv
{

struct RunResult {
    bool exited = false; // TOHOST was written
    uint32_t code = 0;   // the program's exit code
    uint64_t cycles = 0;
    std::string console;
};

constexpr uint32_t kTohost = 0x80000000u, kConsole = 0x80000004u, kIrqSet = 0x80000008u,
                   kIrqClr = 0x8000000Cu, kScratch = 0x80000040u;

// The host's devices on the outward MMIO port: 0x80000000 TOHOST (a program's result:
// code << 1 | 1), 0x80000004 CONSOLE, 0x80000008 IRQ_SET and 0x8000000C IRQ_CLR (lines:
// bit 0 soft, 1 timer, 2 external), 0x80000040-0x8000007F scratch words. Nothing else
// answers (an access fault).
struct Device {
    uint32_t tohost = 0;
    bool tohost_written = false;
    uint32_t lines = 0; // bit 0 soft, 1 timer, 2 external
    uint32_t scratch[16] = {};
    std::string console;

    bool load(uint32_t a, uint32_t &d) const
    {
        if (a == kTohost) {
            d = tohost;
            return true;
        }
        if (a == kIrqSet || a == kIrqClr) {
            d = lines;
            return true;
        }
        if (a == kConsole) {
            d = 0;
            return true;
        }
        if (a >= kScratch && a < kScratch + 64) {
            d = scratch[(a - kScratch) / 4];
            return true;
        }
        return false;
    }
    bool store(uint32_t a, uint32_t d, uint32_t strb)
    {
        uint32_t mask = 0;
        for (int i = 0; i < 4; i++)
            if (strb >> i & 1)
                mask |= 0xffu << (8 * i);
        if (a == kTohost) {
            tohost = d;
            tohost_written = true;
            return true;
        }
        if (a == kConsole) {
            console.push_back(static_cast<char>(d & 0xff));
            return true;
        }
        if (a == kIrqSet) {
            lines |= d & 7;
            return true;
        }
        if (a == kIrqClr) {
            lines &= ~d;
            return true;
        }
        if (a >= kScratch && a < kScratch + 64) {
            uint32_t &w = scratch[(a - kScratch) / 4];
            w = (w & ~mask) | (d & mask);
            return true;
        }
        return false;
    }
};

// The fields of weft_rv_pkg::trace_t, from its packed layout (first field highest).
struct Trace {
    bool valid, rd_we;
    uint32_t kind, ctx, pc, insn, cause, next_ctx, rd, rd_wdata, mem_we, mem_addr, mem_wdata;
    template <class W> static uint32_t bits(const W &w, int lo, int n)
    {
        uint64_t v = w[lo / 32];
        if (lo % 32 + n > 32)
            v |= static_cast<uint64_t>(w[lo / 32 + 1]) << 32;
        v >>= lo % 32;
        return static_cast<uint32_t>(v & ((n == 32) ? 0xffffffffull : ((1ull << n) - 1)));
    }
    template <class W> static Trace decode(const W &w)
    {
        Trace t;
        t.mem_wdata = bits(w, 0, 32);
        t.mem_addr = bits(w, 32, 32);
        t.mem_we = bits(w, 64, 4);
        t.rd_wdata = bits(w, 68, 32);
        t.rd = bits(w, 100, 5);
        t.rd_we = bits(w, 105, 1);
        t.next_ctx = bits(w, 106, 5);
        t.cause = bits(w, 111, 5);
        t.insn = bits(w, 116, 32);
        t.pc = bits(w, 148, 32);
        t.ctx = bits(w, 180, 5);
        t.kind = bits(w, 185, 2);
        t.valid = bits(w, 187, 1);
        return t;
    }
};

// One clock cycle of a model (weft_rv_cpu or weft_rv_soc).
template <class M> void tick(M &m)
{
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
}

// Writes words into the RAM from word `first` on, through the load port, the core held in
// reset.
template <class M> void load_ram(M &m, uint32_t first, const std::vector<uint32_t> &words)
{
    m.rst_ni = 0;
    m.load_en_i = 1;
    m.load_we_i = 1;
    for (size_t i = 0; i < words.size(); i++) {
        m.load_addr_i = first + static_cast<uint32_t>(i);
        m.load_wdata_i = words[i];
        tick(m);
    }
    m.load_en_i = 0;
    m.load_we_i = 0;
}

// Reads a RAM image; empty (with `error` set) when missing or larger than `mem_bytes`.
inline std::vector<uint32_t> read_image(const std::string &path, uint32_t mem_bytes,
                                        std::string &error)
{
    std::ifstream f(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words;
    if (!f.good() && !f.eof())
        error = path + ": cannot be read";
    else if (bytes.empty())
        error = path + ": missing or empty";
    else if (bytes.size() > mem_bytes)
        error = path + ": larger than the RAM";
    if (!error.empty())
        return words;
    words.resize((bytes.size() + 3) / 4, 0);
    for (size_t i = 0; i < bytes.size(); i++)
        words[i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i])) << (8 * (i % 4));
    return words;
}

template <class M> class SocHost
{
  public:
    SocHost()
    {
        m_.clk_i = 0;
        m_.rst_ni = 0;
        m_.load_en_i = 0;
        m_.irq_ext_i = 0;
        m_.mmio_ready_i = 0;
        m_.eval();
    }
    M &model() { return m_; }

    void load(const std::vector<uint32_t> &words)
    {
        load_ram(m_, 0, words);
        tick(m_);
    }

    // Runs from reset until the program exits or max_cycles pass. `each` sees the model
    // after every cycle (trace consumers). Device line 2 drives mip.MEIP.
    template <class Each> RunResult run(uint64_t max_cycles, Each each)
    {
        RunResult r;
        m_.rst_ni = 1;
        for (; r.cycles < max_cycles && !dev_.tohost_written; r.cycles++) {
            m_.irq_ext_i = dev_.lines >> 2 & 1;
            m_.mmio_ready_i = 0;
            m_.mmio_err_i = 0;
            m_.eval();
            if (m_.mmio_req_o) {
                uint32_t a = m_.mmio_addr_o & ~3u, d = 0;
                bool ok = m_.mmio_we_o ? dev_.store(a, m_.mmio_wdata_o, m_.mmio_wstrb_o)
                                       : dev_.load(a, d);
                m_.mmio_ready_i = 1;
                m_.mmio_err_i = !ok;
                m_.mmio_rdata_i = d;
                m_.eval();
            }
            tick(m_);
            each(m_);
        }
        m_.rst_ni = 0;
        m_.eval();
        r.exited = dev_.tohost_written;
        r.code = dev_.tohost >> 1;
        r.console = dev_.console;
        return r;
    }
    RunResult run(uint64_t max_cycles)
    {
        return run(max_cycles, [](M &) {});
    }

  private:
    M m_;
    Device dev_;
};

} // namespace rv

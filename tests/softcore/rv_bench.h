// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv_bench.h: runs a verilated weft_rv_cpu in lock step with the ISS (rv_iss.h). Every
// cycle the test bench drives the core's inputs (interrupt lines, the scheduler's choice,
// MMIO wait states), and every record the core's trace reports is checked against what
// the ISS does with the same inputs: each retired instruction's register and memory
// writes, each trap's cause, and that each interrupt and scheduler switch the core took
// was allowed when it took it. It also checks that an allowed interrupt or switch is
// not left waiting. The MMIO device (both sides have one): 0x80000000 TOHOST (a program's
// result), 0x80000004 CONSOLE, 0x80000008 IRQ_SET and 0x8000000C IRQ_CLR (bit 0 soft,
// 1 timer, 2 external), 0x80000040-0x8000007F scratch words; nothing else answers.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "rv_iss.h"
#include "rv_soc_host.h"
#include "tb_check.h"
#include "tb_reset.h"
#include "verilated.h"

namespace rv
{

struct BenchOptions {
    uint64_t seed = 1;
    uint32_t irq_rate = 0;   // per 10,000 cycles, a random line rises (0: never)
    uint32_t sched_rate = 0; // per 10,000 cycles, the scheduler's choice changes
    uint32_t mmio_wait = 0;  // up to this many wait cycles per MMIO access
};

template <class M> class Bench
{
  public:
    Bench(int nctx, uint32_t mem_bytes, BenchOptions o)
        : iss_(nctx, mem_bytes), o_(o), rng_(o.seed), mem_bytes_(mem_bytes)
    {
        iss_.mmio.load = [this](uint32_t a, uint32_t &d) { return iss_dev_.load(a, d); };
        iss_.mmio.store = [this](uint32_t a, uint32_t d, uint32_t s) {
            return iss_dev_.store(a, d, s);
        };
        m_.load_en_i = 0;
        m_.irq_soft_i = m_.irq_timer_i = m_.irq_ext_i = 0;
        m_.mmio_ready_i = 0;
        m_.sched_ctx_i = 0;
        weft_tb::reset_pulse(&m_);
        m_.rst_ni = 0;
    }

    Iss &iss() { return iss_; }
    M &model() { return m_; }
    const Device &device() const { return dev_; }
    uint64_t cycles() const { return cycles_; }
    uint64_t records() const { return records_; }
    // Records by kind (rv::Kind) and retired instructions by context.
    const uint64_t *kinds() const { return kinds_; }
    const uint64_t *per_ctx() const { return per_ctx_; }

    // Writes the image into the RAM through the load port (core in reset) and the ISS.
    void load(uint32_t addr, const std::vector<uint32_t> &words)
    {
        load_ram(m_, addr / 4, words);
        iss_.load(addr, words);
    }

    void start() { m_.rst_ni = 1; }

    // Runs until `done` says so or `max_cycles` pass; false when a check failed.
    template <class Done> bool run(uint64_t max_cycles, Done done)
    {
        int before = weft_tb::failures;
        for (uint64_t i = 0; i < max_cycles && weft_tb::failures == before && !done(); i++)
            cycle();
        return weft_tb::failures == before;
    }

    // Reads the RAM back through the load port (the core is held in reset).
    std::vector<uint8_t> ram()
    {
        m_.rst_ni = 0;
        std::vector<uint8_t> out(mem_bytes_);
        m_.load_en_i = 1;
        m_.load_we_i = 0;
        for (uint32_t w = 0; w <= mem_bytes_ / 4; w++) {
            if (w > 0) {
                uint32_t d = m_.load_rdata_o;
                std::memcpy(&out[4 * (w - 1)], &d, 4);
            }
            m_.load_addr_i = w % (mem_bytes_ / 4);
            tick(m_);
        }
        m_.load_en_i = 0;
        return out;
    }

  private:
    void cycle()
    {
        // Inputs for this cycle.
        if (o_.irq_rate && rng_() % 10000 < o_.irq_rate)
            dev_.lines |= 1u << (rng_() % 3);
        if (o_.sched_rate && rng_() % 10000 < o_.sched_rate)
            sched_ = static_cast<int>(rng_() % static_cast<uint64_t>(iss_.nctx()));
        m_.irq_soft_i = dev_.lines & 1;
        m_.irq_timer_i = dev_.lines >> 1 & 1;
        m_.irq_ext_i = dev_.lines >> 2 & 1;
        m_.sched_ctx_i = static_cast<uint32_t>(sched_);
        m_.time_i = cycles_;
        Inputs in;
        in.mip = (dev_.lines & 1) << 3 | (dev_.lines >> 1 & 1) << 7 | (dev_.lines >> 2 & 1) << 11;
        in.sched_ctx = sched_;
        in.time = cycles_;
        m_.mmio_ready_i = 0;
        m_.mmio_err_i = 0;
        m_.eval();
        // MMIO: answer after a random wait; the access happens at the edge that ends it.
        if (m_.mmio_req_o) {
            if (wait_left_ < 0)
                wait_left_ = o_.mmio_wait ? static_cast<int>(rng_() % (o_.mmio_wait + 1)) : 0;
            if (wait_left_-- == 0) {
                uint32_t a = m_.mmio_addr_o & ~3u, d = 0;
                bool ok = m_.mmio_we_o ? dev_.store(a, m_.mmio_wdata_o, m_.mmio_wstrb_o)
                                       : dev_.load(a, d);
                m_.mmio_ready_i = 1;
                m_.mmio_err_i = !ok;
                m_.mmio_rdata_i = d;
                wait_left_ = -1;
                m_.eval();
            }
        }
        tick(m_);
        cycles_++;
        Trace t = Trace::decode(m_.trace_o);
        check(t, in);
        liveness(in);
        // Nothing takes longer than a division or an MMIO wait: the core must not hang.
        quiet_ = t.valid ? 0 : quiet_ + 1;
        CHECK(quiet_ < 100, "cycle %llu: nothing retired for %u cycles (ctx %d pc %08x)",
              (unsigned long long)cycles_, quiet_, iss_.cur(), iss_.ctx(iss_.cur()).pc);
    }

    void check(const Trace &t, const Inputs &in)
    {
        if (!t.valid)
            return;
        records_++;
        kinds_[t.kind & 3]++;
        if (trace_)
            std::printf("%8llu ctx %u %08x %08x kind %u rd x%u=%08x\n", (unsigned long long)cycles_,
                        t.ctx, t.pc, t.insn, t.kind, t.rd_we ? t.rd : 0, t.rd_wdata);
        if (t.kind == 0)
            per_ctx_[t.ctx & 31]++;
        Step s;
        int cur = iss_.cur();
        uint32_t pc = iss_.ctx(cur).pc;
        if (t.kind == 2) {
            int want = iss_.pending_interrupt(in.mip);
            CHECK(want == static_cast<int>(t.cause),
                  "cycle %llu: core took interrupt %u at pc %08x ctx %u; allowed: %d",
                  (unsigned long long)cycles_, t.cause, t.pc, t.ctx, want);
            s = iss_.interrupt(static_cast<int>(t.cause));
        } else if (t.kind == 3) {
            CHECK(iss_.may_switch_to(static_cast<int>(t.next_ctx)) &&
                      static_cast<int>(t.next_ctx) == in.sched_ctx,
                  "cycle %llu: core switched ctx %u -> %u (scheduler %d, follow %d)",
                  (unsigned long long)cycles_, t.ctx, t.next_ctx, in.sched_ctx, iss_.follow());
            s = iss_.switch_to(static_cast<int>(t.next_ctx));
        } else {
            s = iss_.step(in);
            // The cycle counter's value depends on the pipeline: the model takes the core's.
            uint32_t csr = s.insn >> 20;
            bool cycle_read = (s.insn & 0x7f) == 0x73 && (s.insn >> 12 & 3) != 0 &&
                              (csr == 0xB00 || csr == 0xB80 || csr == 0xC00 || csr == 0xC80);
            if (cycle_read && s.rd_we && t.rd_we && s.rd == t.rd) {
                iss_.ctx(cur).x[s.rd] = t.rd_wdata;
                s.rd_val = t.rd_wdata;
            }
        }
        bool same =
            static_cast<uint32_t>(s.kind) == t.kind && static_cast<uint32_t>(cur) == t.ctx &&
            pc == t.pc && static_cast<uint32_t>(s.next_ctx) == t.next_ctx &&
            (pc >= mem_bytes_ || s.insn == t.insn) &&
            (s.kind != Kind::Trapped || s.cause == t.cause) && s.rd_we == t.rd_we &&
            (!s.rd_we || (s.rd == t.rd && s.rd_val == t.rd_wdata)) && s.mem_we == t.mem_we &&
            (!s.mem_we || (s.mem_addr == t.mem_addr && s.mem_wdata == t.mem_wdata));
        CHECK(same,
              "cycle %llu: core  kind %u ctx %u pc %08x insn %08x cause %u next %u rd %d:x%u=%08x "
              "st %x@%08x=%08x\n                   model kind %u ctx %d pc %08x insn %08x cause %u "
              "next %d rd %d:x%u=%08x st %x@%08x=%08x",
              (unsigned long long)cycles_, t.kind, t.ctx, t.pc, t.insn, t.cause, t.next_ctx,
              t.rd_we, t.rd, t.rd_wdata, t.mem_we, t.mem_addr, t.mem_wdata,
              static_cast<uint32_t>(s.kind), cur, pc, s.insn, s.cause, s.next_ctx, s.rd_we, s.rd,
              s.rd_val, s.mem_we, s.mem_addr, s.mem_wdata);
    }

    // An interrupt or switch the core may take must not wait longer than the longest
    // instruction (a division, 34 cycles) plus MMIO waits and a redirect.
    void liveness(const Inputs &in)
    {
        bool irq = iss_.pending_interrupt(in.mip) >= 0;
        bool sw = iss_.may_switch_to(in.sched_ctx);
        owed_ = (irq || sw) ? owed_ + 1 : 0;
        CHECK(owed_ < 40 + 2 * o_.mmio_wait,
              "cycle %llu: an allowed %s has waited %u cycles (ctx %d pc %08x)",
              (unsigned long long)cycles_, irq ? "interrupt" : "switch", owed_, iss_.cur(),
              iss_.ctx(iss_.cur()).pc);
    }

    M m_;
    Iss iss_;
    Device dev_, iss_dev_;
    BenchOptions o_;
    std::mt19937_64 rng_;
    uint32_t mem_bytes_;
    int sched_ = 0;
    int wait_left_ = -1;
    uint32_t owed_ = 0, quiet_ = 0;
    bool trace_ = std::getenv("WEFT_RV_TRACE") != nullptr; // print every record
    uint64_t cycles_ = 0, records_ = 0;
    uint64_t kinds_[4] = {}, per_ctx_[32] = {};
};

} // namespace rv

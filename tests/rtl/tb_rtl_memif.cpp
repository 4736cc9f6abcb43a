// Self-checking test bench of the MEMIF path of weft_static: slot command checking,
// burst cutting, round-robin arbitration and the AXI4 memory master.
//
// The test bench plays the threads (one per slot: MEMIF command words, write-data words,
// read-data words, each channel with random stalls) and an AXI4 slave backed by a C++
// memory with random ready/valid delays on every channel. Each slot gets a disjoint
// memory window, so a per-slot expected image predicts memory exactly. Checked:
// * every byte of memory after each phase and every read word delivered to a thread;
// * every AXI burst: INCR, 4-byte beats, at most 256 beats, no 4 KiB crossing, wlast on
//   the last beat only, one transaction at a time;
// * round-robin: two slots with multi-burst commands get alternate bursts;
// * throughput of long reads and writes without back-pressure (bytes per cycle);
// * bad commands (op, reserved bits, length, alignment, window, wrap-around, MEM_SIZE 0)
//   set FAULT.MEM/FAULT_ADDR/FAULT_INFO, raise the interrupt, stop the slot's MEMIF and
//   touch no memory; a bus error answer faults the slot the same way;
// * a slot reset (or fault) in the middle of a write or read burst: the burst completes
//   legally (write strobes 0, read data dropped) and the other slots carry on;
// * quiet_o: high once every thread is idle and the bus is idle, low while one has work.
#include "tb_check.h"
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <vector>

#include "tb_rtl_mem_slave.h"
#include "tb_rtl_memif_thread.h"
#include "tb_rtl_static_harness.h"
#include "weft/osif_protocol.h"

using namespace weft_tb;

namespace
{

constexpr uint32_t kRw = WEFT_WIN_READ | WEFT_WIN_WRITE;

constexpr uint32_t kSeed = 0x5eed0003u;
constexpr uint32_t kMemBase = 0x40000000u;
constexpr uint32_t kWinSize = 0x10000u; // 64 KiB per slot
constexpr uint32_t kMemSize = kWinSize * kNumSlots;

// ---------------------------------------------------------------------------------------
// Test bench
// ---------------------------------------------------------------------------------------
class Bench
{
  public:
    Bench() : h(kSeed), mem(kMemSize), shadow(kMemSize), slave(h, mem, kMemBase)
    {
        for (unsigned s = 0; s < kNumSlots; ++s)
            threads.emplace_back(new Thread(h, s));
        for (auto &t : threads)
            h.add_agent(t.get());
        h.add_agent(&slave);
        for (uint32_t i = 0; i < kMemSize; ++i)
            mem[i] = shadow[i] = uint8_t(h.rng()());
    }

    StaticHarness h;
    std::vector<uint8_t> mem, shadow;
    MemSlave slave;
    std::vector<std::unique_ptr<Thread>> threads;
    uint64_t commands = 0, cmd_bytes = 0, crossing_cmds = 0, registered_checks = 0;

    static uint32_t win(unsigned s) { return kMemBase + s * kWinSize; }

    void setup_slot(unsigned s)
    {
        h.set_window(s, 0, win(s), kWinSize, kRw);
        h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
    }

    uint32_t shadow_word(uint32_t a) const { return image_word(shadow, kMemBase, a); }

    // Queue one command on a thread and update the expected image.
    void queue_cmd(unsigned s, bool write, uint32_t addr, uint32_t len)
    {
        queue_memif_cmd(*threads[s], shadow, kMemBase, h.rng(), write, addr, len);
        ++commands;
        cmd_bytes += len;
        if (addr / 4096 != (addr + len - 1) / 4096)
            ++crossing_cmds;
    }

    void queue_random_cmd(unsigned s)
    {
        std::mt19937 &r = h.rng();
        unsigned k = r() % 100;
        uint32_t len = k < 40   ? 4 * (1 + r() % 16)
                       : k < 80 ? 4 * (1 + r() % 256)
                                : 4 * (1 + r() % 1600);
        uint32_t addr;
        if (r() % 3 == 0) {
            // Start just below a 4 KiB boundary so that the command crosses it.
            uint32_t boundary = 4096 * (1 + r() % (kWinSize / 4096 - 1));
            addr = boundary - 4 * (1 + r() % 64);
        } else {
            addr = 4 * (r() % (kWinSize / 4));
        }
        if (addr + len > kWinSize)
            addr = kWinSize - len;
        queue_cmd(s, r() % 2, win(s) + addr, len);
    }

    bool all_idle() const
    {
        for (auto &t : threads)
            if (!t->idle())
                return false;
        return true;
    }

    // Run until every thread is idle and quiet_o is high; check quiet_o on the way.
    bool run_until_quiet(unsigned limit, const char *phase)
    {
        for (unsigned i = 0; i < limit; ++i) {
            h.step();
            Vweft_static &d = h.dut();
            if (!all_idle())
                CHECK(!d.quiet_o, "%s: quiet_o while a thread has work", phase);
            if (all_idle() && d.quiet_o && slave.idle())
                return true;
        }
        CHECK(false, "%s: no quiescence after %u cycles", phase, limit);
        return false;
    }

    void check_memory(const char *phase) { check_memory_image(mem, shadow, kMemBase, phase); }

    void set_slave_timing(unsigned p) { slave.timing = {p, p, p, p, p}; }
    void set_thread_timing(unsigned p)
    {
        for (auto &t : threads)
            t->timing = {p, p, p};
    }

    // ---- phases ----
    void random_phase(unsigned cmds_per_slot, unsigned slots, const char *name)
    {
        for (unsigned n = 0; n < cmds_per_slot; ++n)
            for (unsigned s = 0; s < slots; ++s)
                queue_random_cmd(s);
        // Vary timing while it runs.
        unsigned guard = 0;
        while (!all_idle() && guard++ < 4000) {
            set_slave_timing(30 + h.rng()() % 71);
            for (auto &t : threads)
                t->timing = {unsigned(20 + h.rng()() % 81), unsigned(20 + h.rng()() % 81),
                             unsigned(20 + h.rng()() % 81)};
            h.step(500);
            // Mid-traffic (FIFOs partly full, bursts in flight): outputs are registered.
            weft_tb::failures += int(h.check_outputs_registered());
            ++registered_checks;
        }
        set_slave_timing(100);
        set_thread_timing(100);
        run_until_quiet(200000, name);
        check_memory(name);
    }

    void round_robin_phase()
    {
        set_slave_timing(100);
        set_thread_timing(100);
        bool ok = true;
        for (int write = 0; write < 2; ++write) {
            size_t first = slave.log.size();
            // 4 KiB each from a 4 KiB-aligned address: 4 bursts of 256 beats per slot,
            // both commands presented in the same cycle.
            queue_cmd(0, write, win(0) + 0x4000, 4096);
            queue_cmd(1, write, win(1) + 0x4000, 4096);
            run_until_quiet(20000, "round robin");
            std::vector<unsigned> order;
            for (size_t i = first; i < slave.log.size(); ++i)
                order.push_back((slave.log[i].addr - kMemBase) / kWinSize);
            CHECK(order.size() == 8, "round robin: %zu bursts, want 8", order.size());
            for (size_t i = 1; i < order.size(); ++i)
                if (order[i] == order[i - 1])
                    ok = false;
            std::printf("round robin (%s): burst order by slot:", write ? "writes" : "reads");
            for (unsigned o : order)
                std::printf(" %u", o);
            std::printf("\n");
        }
        CHECK(ok, "round robin: a slot got two bursts in a row while the other waited");
        check_memory("round robin");
    }

    double throughput(bool write, unsigned slots)
    {
        set_slave_timing(100);
        set_thread_timing(100);
        const uint32_t len = 32768;
        uint64_t start = h.cycle();
        for (unsigned s = 0; s < slots; ++s)
            queue_cmd(s, write, win(s), len);
        uint64_t end = 0;
        for (unsigned i = 0; i < 200000 && !(all_idle() && h.dut().quiet_o); ++i)
            h.step();
        if (write) {
            end = slave.last_b_cycle;
        } else {
            for (unsigned s = 0; s < slots; ++s)
                end = std::max(end, threads[s]->last_rd_cycle);
        }
        run_until_quiet(1000, "throughput");
        double bpc = double(len) * slots / double(end - start + 1);
        std::printf("throughput: %u slot(s), %s of %u bytes each: %llu cycles from the first "
                    "command word to the last %s, %.3f bytes/cycle\n",
                    slots, write ? "write" : "read", len, (unsigned long long)(end - start + 1),
                    write ? "write response" : "read word", bpc);
        check_memory("throughput");
        return bpc;
    }

    struct Fault {
        const char *what;
        uint32_t w0, addr;
        uint32_t base, size; // window while the command is checked
    };

    void fault_phase(unsigned s)
    {
        set_slave_timing(70);
        set_thread_timing(100);
        const uint32_t b = win(s);
        const Fault faults[] = {
            {"op 2", (2u << WEFT_MEMIF_OP_SHIFT) | 16u, b, b, kWinSize},
            {"op 3", (3u << WEFT_MEMIF_OP_SHIFT) | 16u, b, b, kWinSize},
            {"reserved bits",
             weft_memif_word0(WEFT_MEMIF_OP_WRITE, 16) | (1u << WEFT_MEMIF_RSVD_SHIFT), b, b,
             kWinSize},
            {"length 0", weft_memif_word0(WEFT_MEMIF_OP_WRITE, 0), b, b, kWinSize},
            {"length 6", weft_memif_word0(WEFT_MEMIF_OP_WRITE, 6), b, b, kWinSize},
            {"unaligned address", weft_memif_word0(WEFT_MEMIF_OP_WRITE, 16), b + 2, b, kWinSize},
            {"below window", weft_memif_word0(WEFT_MEMIF_OP_WRITE, 16), b - 4, b, kWinSize},
            {"end past window", weft_memif_word0(WEFT_MEMIF_OP_WRITE, 8), b + kWinSize - 4, b,
             kWinSize},
            {"above window", weft_memif_word0(WEFT_MEMIF_OP_READ, 4), b + kWinSize, b, kWinSize},
            {"32-bit wrap-around", weft_memif_word0(WEFT_MEMIF_OP_WRITE, 0x20), 0xFFFFFFF0u,
             0xFFFF0000u, 0x10000u},
            {"wrap-around below base", weft_memif_word0(WEFT_MEMIF_OP_WRITE, 0x100), 0xFFFFFFF0u, b,
             kWinSize},
            {"WIN_SIZE 0", weft_memif_word0(WEFT_MEMIF_OP_READ, 4), b, b, 0},
        };
        unsigned checked = 0;
        for (const Fault &f : faults) {
            h.set_window(s, 0, f.base, f.size, kRw);
            size_t bursts = slave.log.size();
            Thread &t = *threads[s];
            t.cmd.push_back(f.w0);
            t.cmd.push_back(f.addr);
            // Write data the thread would send with it must not reach memory.
            for (int i = 0; i < 8; ++i)
                t.wr.push_back(h.rng()());
            h.step(60);
            expect_fault(s, f.what, f.addr, f.w0);
            CHECK(slave.log.size() == bursts, "%s: the bad command reached the bus", f.what);
            Vweft_static &d = h.dut();
            CHECK(!RSP(d, s, MEM_CMD_READY) && !RSP(d, s, MEM_WR_READY),
                  "%s: MEMIF still accepts words after the fault", f.what);
            reset_slot(s, f.what);
            check_memory(f.what);
            ++checked;
        }
        // A window ending exactly at 2^32 accepts its last word (no false wrap fault); the
        // model has no memory there, so the bus answers SLVERR: a bus-error fault.
        h.set_window(s, 0, 0xFFFF0000u, 0x10000u, kRw);
        {
            Thread &t = *threads[s];
            t.cmd.push_back(weft_memif_word0(WEFT_MEMIF_OP_READ, 16));
            t.cmd.push_back(0xFFFFFFF0u);
            size_t bursts = slave.log.size();
            h.step(100);
            CHECK(slave.log.size() == bursts + 1, "top-of-memory read: %zu bursts, want 1",
                  slave.log.size() - bursts);
            expect_fault(s, "bus error", 0xFFFFFFF0u, weft_memif_word0(WEFT_MEMIF_OP_READ, 16));
            CHECK(!RSP(h.dut(), s, MEM_RD_VALID), "bus error: read data delivered");
            reset_slot(s, "bus error");
            ++checked;
        }
        h.set_window(s, 0, win(s), kWinSize, kRw);
        // The last word of the window and the whole window are accepted.
        queue_cmd(s, true, win(s) + kWinSize - 4, 4);
        queue_cmd(s, false, win(s), kWinSize);
        run_until_quiet(50000, "window edges");
        check_memory("window edges");
        std::printf("faults: %u bad commands and 1 bus error each faulted the slot (FAULT.MEM, "
                    "FAULT_ADDR, FAULT_INFO, IRQ) with memory unchanged\n",
                    checked - 1);
    }

    void expect_fault(unsigned s, const char *what, uint32_t addr, uint32_t info)
    {
        uint32_t fault = h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT));
        CHECK(fault == WEFT_FAULT_MEM, "%s: FAULT 0x%x", what, fault);
        uint32_t fa = h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT_ADDR));
        CHECK(fa == addr, "%s: FAULT_ADDR 0x%08x, want 0x%08x", what, fa, addr);
        uint32_t fi = h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT_INFO));
        CHECK(fi == info, "%s: FAULT_INFO 0x%08x, want 0x%08x", what, fi, info);
        uint32_t irqs = h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_IRQ_STATUS));
        CHECK(irqs & WEFT_IRQ_FAULT, "%s: IRQ_STATUS 0x%x", what, irqs);
        CHECK(bit(h.dut().irq_o, s), "%s: interrupt line low", what);
    }

    void reset_slot(unsigned s, const char *what)
    {
        uint32_t base = h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_WIN_BASE(0)));
        uint32_t size = h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_WIN_SIZE(0)));
        h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RESET | WEFT_CONTROL_RUN);
        Thread &t = *threads[s];
        t.cmd.clear();
        t.wr.clear();
        t.rd_expect.clear();
        t.drop_pending = true;
        h.step(4);
        h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
        uint32_t fault = h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT));
        CHECK(fault == 0, "%s: FAULT 0x%x after reset", what, fault);
        CHECK(h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_WIN_BASE(0))) == base &&
                  h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_WIN_SIZE(0))) == size,
              "%s: reset changed the memory window", what);
    }

    // Several windows per slot, each with its own permission: an access passes only
    // inside one window that grants its direction, and a refused one touches nothing.
    void window_phase(unsigned s)
    {
        set_slave_timing(70);
        set_thread_timing(100);
        const uint32_t b = win(s), half = kWinSize / 2;
        h.set_window(s, 0, b, half, WEFT_WIN_READ);         // read-only lower half
        h.set_window(s, 1, b + half, half, WEFT_WIN_WRITE); // write-only upper half
        struct Refused {
            const char *what;
            bool write;
            uint32_t addr, len;
        } refused[] = {
            {"write into a read-only window", true, b, 16},
            {"read from a write-only window", false, b + half, 16},
            {"access across two windows", false, b + half - 8, 16},
        };
        for (const Refused &r : refused) {
            size_t bursts = slave.log.size();
            Thread &t = *threads[s];
            uint32_t w0 =
                weft_memif_word0(r.write ? WEFT_MEMIF_OP_WRITE : WEFT_MEMIF_OP_READ, r.len);
            t.cmd.push_back(w0);
            t.cmd.push_back(r.addr);
            for (uint32_t i = 0; r.write && i < r.len / 4; ++i)
                t.wr.push_back(h.rng()());
            h.step(60);
            expect_fault(s, r.what, r.addr, w0);
            CHECK(slave.log.size() == bursts, "%s: the refused access reached the bus", r.what);
            reset_slot(s, r.what);
            check_memory(r.what);
        }
        // What each window grants goes through, in both windows.
        queue_cmd(s, false, b, half);
        queue_cmd(s, true, b + half, half);
        run_until_quiet(50000, "two windows");
        check_memory("two windows");
        CHECK(h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT)) == 0, "two windows: a fault");
        h.set_window(s, 1, 0, 0, 0);
        h.set_window(s, 0, b, kWinSize, kRw);
        std::printf("windows: read-only, write-only and straddling accesses faulted with memory "
                    "unchanged; granted ones passed\n");
    }

    // A burst stalls in the middle (the thread stops sending or taking data); then the
    // slot is reset (or faulted by a bad command) while other slots run traffic.
    void interrupted_burst_phase(unsigned s, bool write, bool by_fault)
    {
        const char *name =
            write ? (by_fault ? "write burst, fault" : "write burst, reset") : "read burst, reset";
        set_slave_timing(80);
        set_thread_timing(100);
        const uint32_t addr = win(s) + 0x8000;
        Thread &t = *threads[s];
        t.cmd.push_back(weft_memif_word0(write ? WEFT_MEMIF_OP_WRITE : WEFT_MEMIF_OP_READ, 1024));
        t.cmd.push_back(addr);
        std::vector<uint32_t> sent;
        if (write) {
            for (int i = 0; i < 40; ++i) {
                sent.push_back(h.rng()());
                t.wr.push_back(sent.back());
            }
        } else {
            for (int i = 0; i < 10; ++i)
                t.rd_expect.push_back(shadow_word(addr + 4 * i));
        }
        if (by_fault) {
            t.cmd.push_back((3u << WEFT_MEMIF_OP_SHIFT) | 4u);
            t.cmd.push_back(addr);
        }
        h.step(300);
        CHECK(!h.dut().quiet_o, "%s: quiet_o during a stalled burst", name);
        if (by_fault) {
            // The faulted thread's remaining words are never accepted; it gives up.
            t.cmd.clear();
            t.wr.clear();
            t.rd_expect.clear();
            t.drop_pending = true;
        }
        // Traffic on the other slots waits behind the stalled burst and then resumes.
        for (unsigned o = 0; o < kNumSlots; ++o)
            if (o != s)
                queue_random_cmd(o);
        size_t beats_before = slave.write_beats + slave.read_beats;
        if (!by_fault) {
            h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL),
                         WEFT_CONTROL_RESET | WEFT_CONTROL_RUN);
            t.cmd.clear();
            t.wr.clear();
            t.rd_expect.clear();
            t.drop_pending = true;
        }
        run_until_quiet(100000, name);
        CHECK(slave.write_beats + slave.read_beats > beats_before, "%s: burst never completed",
              name);
        if (write) {
            // A prefix of the sent words reached memory, nothing else changed.
            unsigned k = 0;
            while (k < sent.size()) {
                uint32_t a = addr - kMemBase + 4 * k;
                uint32_t v = uint32_t(mem[a]) | uint32_t(mem[a + 1]) << 8 |
                             uint32_t(mem[a + 2]) << 16 | uint32_t(mem[a + 3]) << 24;
                if (v != sent[k])
                    break;
                ++k;
            }
            for (unsigned i = 0; i < 4 * k; ++i)
                shadow[addr - kMemBase + i] = mem[addr - kMemBase + i];
            std::printf("%s: %u of the 40 words sent were written, the other %u beats of the "
                        "256-beat burst went out with wstrb 0\n",
                        name, k, 256 - k);
        } else {
            std::printf("%s: the stalled 256-beat read burst completed after the reset, the "
                        "beats the thread no longer wanted were dropped\n",
                        name);
        }
        check_memory(name);
        if (by_fault) {
            expect_fault(s, name, addr, (3u << WEFT_MEMIF_OP_SHIFT) | 4u);
        }
        reset_slot(s, name);
        // The slot works again.
        queue_random_cmd(s);
        queue_random_cmd(s);
        run_until_quiet(100000, name);
        check_memory(name);
    }
};

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::printf("tb_rtl_memif: seed 0x%08x\n", kSeed);
    Bench b;
    b.h.reset();
    b.h.axil_timing() = {100, 100};
    for (unsigned s = 0; s < kNumSlots; ++s)
        b.setup_slot(s);

    b.random_phase(200, kNumSlots, "random, 4 slots");
    b.random_phase(100, 2, "random, 2 slots");
    b.round_robin_phase();
    double wr1 = b.throughput(true, 1);
    double rd1 = b.throughput(false, 1);
    double wr2 = b.throughput(true, 2);
    double rd2 = b.throughput(false, 2);
    CHECK(wr1 >= 3.5 && rd1 >= 3.5 && wr2 >= 3.5 && rd2 >= 3.5, "throughput below 3.5 bytes/cycle");
    b.fault_phase(2);
    b.window_phase(1);
    b.interrupted_burst_phase(3, true, false);
    b.interrupted_burst_phase(3, false, false);
    b.interrupted_burst_phase(1, true, true);
    b.random_phase(30, kNumSlots, "random after faults");

    uint64_t bursts = b.slave.log.size();
    std::printf("checked %llu commands (%llu bytes, %llu crossing a 4 KiB boundary) from %u "
                "slots, %llu AXI bursts (max %llu beats), %llu write beats (%llu with wstrb 0), "
                "%llu read beats, every byte of %u KiB of memory, %llu cycles\n",
                (unsigned long long)b.commands, (unsigned long long)b.cmd_bytes,
                (unsigned long long)b.crossing_cmds, kNumSlots, (unsigned long long)bursts,
                (unsigned long long)b.slave.max_beats, (unsigned long long)b.slave.write_beats,
                (unsigned long long)b.slave.masked_beats, (unsigned long long)b.slave.read_beats,
                kMemSize / 1024, (unsigned long long)b.h.cycle());
    std::printf("checked %llu times in mid-traffic that no slot or AXI output follows an "
                "input combinationally\n",
                (unsigned long long)b.registered_checks);
    if (b.h.axil_errors())
        weft_tb::failures += b.h.axil_errors();
    std::printf("tb_rtl_memif: %d failed checks: %s\n", weft_tb::failures,
                weft_tb::failures ? "FAIL" : "PASS");
    return weft_tb::failures ? 1 : 0;
}

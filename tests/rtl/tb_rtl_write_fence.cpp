// Self-checking test bench of the write fence of weft_static (docs/architecture.md, "Write
// fence"): while a slot has MEMIF writes that have not reached memory, its next OSIF
// request word is not accepted (slot_rsp_o.osif.out_ready low).
//
// The test bench plays the threads of slots 0 and 1 and an AXI4 memory (MemSlave) that
// holds every B response back for a random 50..300 cycles. Checked:
// * fence: slot 0 writes N words (1 word up to multi-burst commands crossing 4 KiB
//   boundaries) and offers an OSIF request word right after its last data word was
//   accepted. slot_rsp_o.osif.out_ready stays low in every cycle after the first command word
//   was accepted up to and including the B handshake of the command's last burst; the word
//   is accepted after it (at most 2 cycles later) and memory holds every written word at
//   that moment;
// * software: the word read through OSIF_HW2SW (polled during the fence) is the word the
//   thread sent, and when software first sees it, memory already holds the data;
// * isolation: slot 1 (no writes) offers OSIF words while slot 0 is fenced and every one
//   is accepted in the cycle it is offered;
// * no fence for reads: a slot whose read data waits untaken (the whole command in the
//   read FIFO, further bursts waiting for FIFO room, or a burst stalled on the bus) gets
//   its OSIF word accepted at once (no deadlock); the read data is correct after.
#include "tb_check.h"
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "tb_rtl_mem_slave.h"
#include "tb_rtl_static_harness.h"
#include "weft/osif_protocol.h"

using namespace weft_tb;

namespace
{

constexpr uint32_t kSeed = 0x5eed0f3cu;
constexpr uint32_t kMemBase = 0x40000000u;
constexpr uint32_t kWinSize = 0x10000u; // 64 KiB per slot
constexpr uint32_t kMemSize = kWinSize * kNumSlots;
constexpr unsigned kBDelayMin = 50, kBDelayMax = 300;
constexpr unsigned kMaxReleaseLatency = 2; // cycles from the last B handshake to acceptance

// ---------------------------------------------------------------------------------------
// Thread side of one slot: MEMIF command, write-data and read-data words, and OSIF request
// words. A request word is offered only once every queued MEMIF word was accepted (the
// thread writes a block, then makes an OS call), after osif_gap idle cycles, while
// osif_enable is set; a valid once raised stays high until its handshake.
// ---------------------------------------------------------------------------------------
struct ThreadTiming {
    unsigned p_cmd = 100, p_wr = 100, p_rd = 100;
};

class Thread : public Agent
{
  public:
    Thread(StaticHarness &h, unsigned slot) : h_(h), s_(slot) {}
    ThreadTiming timing;
    std::deque<uint32_t> cmd, wr, rd_expect, osif;
    std::deque<unsigned> osif_gap; // idle cycles before each word of osif
    bool osif_enable = true;
    bool rd_hold = false; // do not take read data
    // Cycles of the last handshakes: word 0 of a command, any command word, a data word.
    uint64_t cmd_w0_cycle = 0, last_cmd_cycle = 0, last_wr_cycle = 0, osif_offer_cycle = 0;
    std::vector<uint64_t> osif_accept_cycles;
    uint64_t osif_stall_cycles = 0, cmd_words = 0;

    bool memif_sent() const { return cmd.empty() && wr.empty(); }
    bool osif_valid() const { return osif_valid_; }

    void drive(Vweft_static &d) override
    {
        if (!cmd_pending_ && !cmd.empty() && h_.chance(timing.p_cmd))
            cmd_pending_ = true;
        if (!wr_pending_ && !wr.empty() && h_.chance(timing.p_wr))
            wr_pending_ = true;
        if (!osif_valid_ && osif_enable && memif_sent() && !osif.empty()) {
            if (!osif_gap.empty() && osif_gap.front() > 0) {
                --osif_gap.front();
            } else {
                osif_valid_ = true;
                osif_offer_cycle = h_.cycle();
            }
        }
        SET_REQ(d, s_, MEM_CMD_VALID, cmd_pending_);
        SET_REQ(d, s_, MEM_CMD_DATA, cmd_pending_ ? cmd.front() : 0);
        SET_REQ(d, s_, MEM_WR_VALID, wr_pending_);
        SET_REQ(d, s_, MEM_WR_DATA, wr_pending_ ? wr.front() : 0);
        SET_REQ(d, s_, MEM_RD_READY, !rd_hold && !rd_expect.empty() && h_.chance(timing.p_rd));
        SET_REQ(d, s_, OSIF_OUT_VALID, osif_valid_);
        SET_REQ(d, s_, OSIF_OUT_DATA, osif_valid_ ? osif.front() : 0);
        SET_REQ(d, s_, OSIF_IN_READY, 0);
    }

    void sample(Vweft_static &d) override
    {
        if (cmd_pending_ && RSP(d, s_, MEM_CMD_READY)) {
            if (cmd_words++ % 2 == 0)
                cmd_w0_cycle = h_.cycle();
            last_cmd_cycle = h_.cycle();
            cmd.pop_front();
            cmd_pending_ = false;
        }
        if (wr_pending_ && RSP(d, s_, MEM_WR_READY)) {
            wr.pop_front();
            wr_pending_ = false;
            last_wr_cycle = h_.cycle();
        }
        if (RSP(d, s_, MEM_RD_VALID) && REQ(d, s_, MEM_RD_READY)) {
            uint32_t got = RSP(d, s_, MEM_RD_DATA);
            CHECK(!rd_expect.empty(), "slot %u: unexpected read word 0x%08x", s_, got);
            if (!rd_expect.empty()) {
                CHECK(got == rd_expect.front(), "slot %u: read word 0x%08x, want 0x%08x", s_, got,
                      rd_expect.front());
                rd_expect.pop_front();
            }
        }
        if (osif_valid_) {
            if (RSP(d, s_, OSIF_OUT_READY)) {
                osif.pop_front();
                if (!osif_gap.empty())
                    osif_gap.pop_front();
                osif_valid_ = false;
                osif_accept_cycles.push_back(h_.cycle());
            } else {
                ++osif_stall_cycles;
            }
        }
    }

  private:
    StaticHarness &h_;
    unsigned s_;
    bool cmd_pending_ = false, wr_pending_ = false, osif_valid_ = false;
};

// ---------------------------------------------------------------------------------------
// Watches slot 0's OSIF ready line and the write bursts on the bus during a fence case.
// ---------------------------------------------------------------------------------------
class FenceMonitor : public Agent
{
  public:
    explicit FenceMonitor(StaticHarness &h) : h_(h) {}

    struct Cycle {
        uint64_t cycle;
        bool ready0, valid0, valid1, ready1;
    };
    bool armed = false;
    unsigned words_expected = 0; // words of slot 0's write command
    std::vector<Cycle> trace;
    std::vector<uint64_t> b_cycles; // B handshakes of slot 0's bursts
    uint64_t last_b_cycle = 0;      // B handshake that completed the command
    unsigned bursts = 0;
    // Memory check at the moment slot 0's OSIF word is accepted.
    std::function<bool()> memory_ok;
    int accept_memory_ok = -1; // -1: not accepted yet

    void start(unsigned words)
    {
        armed = true;
        words_expected = words;
        trace.clear();
        b_cycles.clear();
        aw_beats_.clear();
        last_b_cycle = 0;
        bursts = 0;
        beats_done_ = 0;
        accept_memory_ok = -1;
    }

    void drive(Vweft_static &) override {}

    void sample(Vweft_static &d) override
    {
        if (!armed)
            return;
        Cycle c{h_.cycle(), RSP(d, 0, OSIF_OUT_READY) != 0, REQ(d, 0, OSIF_OUT_VALID) != 0,
                REQ(d, 1, OSIF_OUT_VALID) != 0, RSP(d, 1, OSIF_OUT_READY) != 0};
        trace.push_back(c);
        if (d.m_axi_awvalid_o && d.m_axi_awready_i) {
            CHECK((d.m_axi_awaddr_o - kMemBase) / kWinSize == 0,
                  "write burst at 0x%08x outside slot 0's window", d.m_axi_awaddr_o);
            aw_beats_.push_back(unsigned(d.m_axi_awlen_o) + 1);
            ++bursts;
        }
        if (d.m_axi_bvalid_i && d.m_axi_bready_o) {
            CHECK(!aw_beats_.empty(), "B handshake without a write burst");
            if (!aw_beats_.empty()) {
                beats_done_ += aw_beats_.front();
                aw_beats_.pop_front();
            }
            b_cycles.push_back(h_.cycle());
            if (beats_done_ == words_expected)
                last_b_cycle = h_.cycle();
        }
        if (c.valid0 && c.ready0 && accept_memory_ok < 0)
            accept_memory_ok = memory_ok() ? 1 : 0;
    }

  private:
    StaticHarness &h_;
    std::deque<unsigned> aw_beats_;
    unsigned beats_done_ = 0;
};

// ---------------------------------------------------------------------------------------
// Test bench
// ---------------------------------------------------------------------------------------
class Bench
{
  public:
    Bench() : h(kSeed), mem(kMemSize), shadow(kMemSize), slave(h, mem, kMemBase), mon(h)
    {
        for (unsigned s = 0; s < 2; ++s)
            threads.emplace_back(new Thread(h, s));
        for (auto &t : threads)
            h.add_agent(t.get());
        h.add_agent(&slave);
        h.add_agent(&mon);
        for (uint32_t i = 0; i < kMemSize; ++i)
            mem[i] = shadow[i] = uint8_t(h.rng()());
        mon.memory_ok = [this] { return mem == shadow; };
    }

    StaticHarness h;
    std::vector<uint8_t> mem, shadow;
    MemSlave slave;
    FenceMonitor mon;
    std::vector<std::unique_ptr<Thread>> threads;

    // Summary.
    unsigned fence_cases = 0, multi_burst_cases = 0, crossing_cases = 0, one_word_cases = 0;
    uint64_t fenced_cycles = 0, fence_bursts = 0, slot1_words = 0;
    int64_t max_release = INT64_MIN;
    uint64_t sw_polls = 0;

    static uint32_t win(unsigned s) { return kMemBase + s * kWinSize; }

    uint32_t rnd() { return h.rng()(); }

    // Start a slot the way the runtime does: window, then RESET pulsed with RUN set.
    void start_slot(unsigned s)
    {
        h.set_window(s, 0, win(s), kWinSize, WEFT_WIN_READ | WEFT_WIN_WRITE);
        h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RESET | WEFT_CONTROL_RUN);
        h.step(4);
        h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
        uint32_t ctrl = h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL));
        CHECK(ctrl == (WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN), "slot %u: CONTROL 0x%x", s, ctrl);
    }

    uint32_t shadow_word(uint32_t a) const
    {
        const uint8_t *p = &shadow[a - kMemBase];
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    }

    void queue_cmd(unsigned s, bool write, uint32_t addr, uint32_t words)
    {
        Thread &t = *threads[s];
        t.cmd.push_back(
            weft_memif_word0(write ? WEFT_MEMIF_OP_WRITE : WEFT_MEMIF_OP_READ, 4 * words));
        t.cmd.push_back(addr);
        for (uint32_t i = 0; i < words; ++i) {
            uint32_t a = addr + 4 * i;
            if (write) {
                uint32_t v = rnd();
                t.wr.push_back(v);
                for (unsigned k = 0; k < 4; ++k)
                    shadow[a - kMemBase + k] = uint8_t(v >> (8 * k));
            } else {
                t.rd_expect.push_back(shadow_word(a));
            }
        }
    }

    // A request word software can tell from an empty FIFO (which reads 0).
    uint32_t osif_word() { return rnd() | 0x80000000u; }

    void random_timing()
    {
        auto p = [this] { return 50 + rnd() % 51; };
        slave.timing = {p(), p(), p(), p(), p(), kBDelayMin, kBDelayMax};
        for (auto &t : threads)
            t->timing = {p(), p(), p()};
    }

    bool run_until_idle(unsigned limit, const char *what)
    {
        for (unsigned i = 0; i < limit; ++i) {
            bool idle = slave.idle();
            for (auto &t : threads)
                idle = idle && t->memif_sent() && t->rd_expect.empty() && t->osif.empty();
            if (idle)
                return true;
            h.step();
        }
        CHECK(false, "%s: not idle after %u cycles", what, limit);
        return false;
    }

    // ---- check 1, 3 and 4: one write command of `words` words at slot 0's offset `off` ----
    void fence_case(uint32_t off, uint32_t words)
    {
        char name[80];
        std::snprintf(name, sizeof name, "%u-word write at 0x%08x", words, win(0) + off);
        random_timing();
        Thread &t0 = *threads[0];
        Thread &t1 = *threads[1];
        const uint64_t t0_accepts = t0.osif_accept_cycles.size();
        const uint64_t t1_accepts = t1.osif_accept_cycles.size();
        const uint64_t t0_cmd_words = t0.cmd_words;
        mon.start(words);

        queue_cmd(0, true, win(0) + off, words);
        const uint32_t w0 = osif_word();
        t0.osif.push_back(w0);
        // Slot 1 posts a few words while slot 0 is fenced (the shortest fence lasts longer
        // than the B delay, at least kBDelayMin cycles).
        std::vector<uint32_t> w1;
        const unsigned n1 = 2 + rnd() % 5;
        for (unsigned i = 0; i < n1; ++i) {
            w1.push_back(osif_word());
            t1.osif.push_back(w1.back());
            t1.osif_gap.push_back(i == 0 ? 3 : rnd() % 6);
        }
        t1.osif_enable = false;

        // Software polls slot 0's OSIF_HW2SW; slot 1 starts once slot 0's MEMIF is busy.
        uint32_t got = 0;
        bool mem_ok_at_sw = false;
        unsigned polls = 0;
        while (got == 0 && polls < 20000) {
            if (!t1.osif_enable && t0.cmd_words > t0_cmd_words)
                t1.osif_enable = true;
            got = h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_OSIF_HW2SW));
            if (got != 0)
                mem_ok_at_sw = (mem == shadow);
            ++polls;
        }
        sw_polls += polls;
        run_until_idle(20000, name);
        mon.armed = false;

        // ---- slot 0: fence held until the B handshake of the last burst ----
        CHECK(t0.osif_accept_cycles.size() == t0_accepts + 1, "%s: OSIF word not accepted", name);
        CHECK(mon.last_b_cycle != 0, "%s: the command's last B handshake was not seen", name);
        const uint64_t accept = t0.osif_accept_cycles.back();
        const uint64_t first_cmd = t0.cmd_w0_cycle;
        unsigned ready_while_pending = 0;
        for (const auto &c : mon.trace)
            if (c.cycle > first_cmd && c.cycle <= mon.last_b_cycle && c.ready0) {
                if (ready_while_pending == 0)
                    std::printf("%s: slot 0 OSIF ready in cycle %llu, last B handshake in %llu\n",
                                name, (unsigned long long)c.cycle,
                                (unsigned long long)mon.last_b_cycle);
                ++ready_while_pending;
            }
        CHECK(ready_while_pending == 0,
              "%s: slot_rsp_o.osif.out_ready high in %u cycles before the last B handshake", name,
              ready_while_pending);
        CHECK(accept > mon.last_b_cycle, "%s: OSIF word accepted in cycle %llu, last B in %llu",
              name, (unsigned long long)accept, (unsigned long long)mon.last_b_cycle);
        CHECK(accept <= mon.last_b_cycle + kMaxReleaseLatency,
              "%s: OSIF word accepted %llu cycles after the last B handshake", name,
              (unsigned long long)(accept - mon.last_b_cycle));
        const uint64_t sent = std::max(t0.last_cmd_cycle, t0.last_wr_cycle);
        CHECK(t0.osif_offer_cycle == sent + 1,
              "%s: OSIF word offered in cycle %llu, last MEMIF word accepted in %llu", name,
              (unsigned long long)t0.osif_offer_cycle, (unsigned long long)sent);
        CHECK(mon.accept_memory_ok == 1, "%s: memory incomplete when the OSIF word was accepted",
              name);
        const unsigned want_bursts = count_bursts(win(0) + off, words);
        CHECK(mon.bursts == want_bursts && mon.b_cycles.size() == want_bursts,
              "%s: %u bursts, %zu B handshakes, want %u", name, mon.bursts, mon.b_cycles.size(),
              want_bursts);

        // ---- software sees the word, and the data with it ----
        CHECK(got == w0, "%s: OSIF_HW2SW 0x%08x, want 0x%08x", name, got, w0);
        CHECK(mem_ok_at_sw, "%s: memory incomplete when software read the OSIF word", name);

        // ---- slot 1: never fenced by slot 0's write ----
        CHECK(t1.osif_accept_cycles.size() == t1_accepts + n1, "%s: slot 1 sent %zu of %u words",
              name, t1.osif_accept_cycles.size() - t1_accepts, n1);
        unsigned slot1_blocked = 0, slot1_during_fence = 0;
        for (const auto &c : mon.trace)
            if (c.valid1 && !c.ready1)
                ++slot1_blocked;
        for (size_t i = t1_accepts; i < t1.osif_accept_cycles.size(); ++i)
            if (t1.osif_accept_cycles[i] > first_cmd && t1.osif_accept_cycles[i] < accept)
                ++slot1_during_fence;
        CHECK(slot1_blocked == 0, "%s: slot 1's OSIF word waited %u cycles", name, slot1_blocked);
        CHECK(slot1_during_fence == n1, "%s: only %u of slot 1's %u words while slot 0 was fenced",
              name, slot1_during_fence, n1);
        for (unsigned i = 0; i < n1; ++i) {
            uint32_t v = h.mmio_read(WEFT_SLOT_REG(1, WEFT_SLOT_REG_OSIF_HW2SW));
            CHECK(v == w1[i], "%s: slot 1 OSIF_HW2SW word %u 0x%08x, want 0x%08x", name, i, v,
                  w1[i]);
        }
        CHECK(h.mmio_read(WEFT_SLOT_REG(1, WEFT_SLOT_REG_OSIF_HW2SW)) == 0,
              "%s: slot 1 HW2SW not empty", name);
        CHECK(h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_OSIF_HW2SW)) == 0,
              "%s: slot 0 HW2SW not empty", name);
        CHECK(h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_FAULT)) == 0, "%s: slot 0 faulted", name);
        CHECK(mem == shadow, "%s: memory differs after the case", name);

        // ---- summary ----
        uint64_t fenced = accept - t0.osif_offer_cycle;
        int64_t release = int64_t(accept) - int64_t(mon.last_b_cycle);
        ++fence_cases;
        if (mon.bursts > 1)
            ++multi_burst_cases;
        if ((off / 4096) != ((off + 4 * words - 1) / 4096))
            ++crossing_cases;
        if (words == 1)
            ++one_word_cases;
        fenced_cycles += fenced;
        fence_bursts += mon.bursts;
        slot1_words += n1;
        max_release = std::max(max_release, release);
        std::printf("  %-40s %2u burst(s): OSIF word offered in cycle %llu, held %llu cycles, "
                    "accepted %lld cycle(s) after the last B; slot 1 sent %u words meanwhile\n",
                    name, mon.bursts, (unsigned long long)t0.osif_offer_cycle,
                    (unsigned long long)fenced, (long long)release, n1);
    }

    static unsigned count_bursts(uint32_t addr, uint32_t words)
    {
        unsigned n = 0;
        while (words > 0) {
            uint32_t to4k = (4096 - (addr & 0xFFFu)) / 4;
            uint32_t beats = std::min({words, to4k, uint32_t(WEFT_MEMIF_MAX_BURST_BEATS)});
            addr += 4 * beats;
            words -= beats;
            ++n;
        }
        return n;
    }

    // ---- check 2: an active read whose data the thread has not taken does not fence ----
    void read_case(uint32_t off, uint32_t words)
    {
        char name[80];
        std::snprintf(name, sizeof name, "%u-word read at 0x%08x", words, win(0) + off);
        random_timing();
        Thread &t0 = *threads[0];
        const size_t accepts = t0.osif_accept_cycles.size();
        const uint64_t stalls = t0.osif_stall_cycles;
        const size_t log0 = slave.log.size();
        t0.rd_hold = true;
        t0.osif_enable = false;
        queue_cmd(0, false, win(0) + off, words);
        const uint32_t w0 = osif_word();
        t0.osif.push_back(w0);
        // Wait until read data waits for the thread and the read FIFO has filled up.
        unsigned guard = 0;
        while (!(t0.memif_sent() && RSP(h.dut(), 0, MEM_RD_VALID)) && guard++ < 5000)
            h.step();
        h.step(300);
        const size_t left = t0.rd_expect.size();
        const bool bus_busy = !slave.idle();
        const bool bursts_waiting = slave.log.size() - log0 < count_bursts(win(0) + off, words);
        CHECK(RSP(h.dut(), 0, MEM_RD_VALID), "%s: no read data waiting", name);
        CHECK(left == words, "%s: the thread took read data", name);
        t0.osif_enable = true;
        h.step(1 + kMaxReleaseLatency);
        CHECK(t0.osif_accept_cycles.size() == accepts + 1,
              "%s: OSIF word not accepted while read data waits", name);
        CHECK(t0.osif_stall_cycles == stalls, "%s: OSIF word waited %llu cycles", name,
              (unsigned long long)(t0.osif_stall_cycles - stalls));
        uint32_t got = h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_OSIF_HW2SW));
        CHECK(got == w0, "%s: OSIF_HW2SW 0x%08x, want 0x%08x", name, got, w0);
        t0.rd_hold = false;
        run_until_idle(20000, name);
        CHECK(t0.rd_expect.empty(), "%s: %zu read words missing", name, t0.rd_expect.size());
        const size_t bursts = slave.log.size() - log0;
        std::printf("  %-40s OSIF word accepted at once with %zu read words not taken, %s; read "
                    "data correct afterwards (%zu bursts)\n",
                    name, left,
                    bus_busy         ? "a read burst stalled on the bus"
                    : bursts_waiting ? "further bursts waiting for room in the read FIFO"
                                     : "the whole command in the read FIFO",
                    bursts);
    }
};

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::printf("tb_rtl_write_fence: seed 0x%08x\n", kSeed);
    Bench b;
    b.h.reset();
    b.h.axil_timing() = {100, 100};
    b.start_slot(0);
    b.start_slot(1);

    std::printf("write fence (B responses held %u..%u cycles):\n", kBDelayMin, kBDelayMax);
    struct Case {
        uint32_t off, words;
    };
    const Case fixed[] = {
        {0x0100, 1},    // one word
        {0x0FFC, 1},    // one word, last of a 4 KiB page
        {0x0200, 2},    // two words
        {0x0400, 33},   // one burst, above the 32-word start threshold
        {0x1000, 256},  // one full 256-beat burst
        {0x2000, 257},  // 256 + 1 beats
        {0x2F00, 300},  // crosses 4 KiB: 64 + 236 beats
        {0x3F40, 700},  // > 256 beats, crosses 4 KiB
        {0x5FFC, 1500}, // 1 word before a 4 KiB boundary, then 5 more bursts
    };
    for (const Case &c : fixed)
        b.fence_case(c.off, c.words);
    for (int i = 0; i < 6; ++i) {
        uint32_t words = 1 + b.rnd() % 1024;
        uint32_t off = 4 * (b.rnd() % (kWinSize / 4 - words + 1));
        b.fence_case(off, words);
    }

    std::printf("no fence for reads:\n");
    b.read_case(0x8000, 16);   // one burst, all of it waiting in the read FIFO
    b.read_case(0x9F00, 600);  // 64 beats fill the FIFO, the other bursts wait for room
    b.read_case(0xB000, 1024); // a 256-beat burst stalls on the bus (rready low)

    std::printf("checked %u fenced writes (%u multi-burst, %u crossing 4 KiB, %u of one word), "
                "%llu bursts, %llu fenced cycles, fence released at most %lld cycle(s) after "
                "the last B; %llu slot 1 OSIF words accepted during slot 0's fences; %llu "
                "software polls of OSIF_HW2SW; %llu cycles\n",
                b.fence_cases, b.multi_burst_cases, b.crossing_cases, b.one_word_cases,
                (unsigned long long)b.fence_bursts, (unsigned long long)b.fenced_cycles,
                (long long)b.max_release, (unsigned long long)b.slot1_words,
                (unsigned long long)b.sw_polls, (unsigned long long)b.h.cycle());
    weft_tb::failures += int(b.h.axil_errors());
    std::printf("tb_rtl_write_fence: %d failed checks: %s\n", weft_tb::failures,
                weft_tb::failures ? "FAIL" : "PASS");
    return weft_tb::failures ? 1 : 0;
}

// Self-checking test bench of OSIF request staging and response DMA in weft_static
// (weft_osif_stage.sv inside weft_slot_if.sv; docs/osif.md, "Staging"), on the default
// platform (4 slots, 16-word OSIF FIFOs).
//
// The test bench plays the threads at the slot boundary (OSIF request words with random
// pauses, response words taken at random, MEMIF commands as in tb_rtl_memif), software
// through the register window (interrupt-driven, or polling the sequence word in memory
// every cycle) and an AXI4 slave backed by a C++ memory with a shadow image of every
// byte. A monitor follows the register writes, the AXI4 bursts and the interrupt lines
// every cycle. Checked:
// * register mode (OSIF_REQ_BUF = 0) unchanged: IRQ_STATUS bit0 = HW2SW not empty, words
//   popped from OSIF_HW2SW, no bus traffic;
// * staging of random requests (nargs 0..255, with random thread pauses, several slots
//   at once, threads that send their next request ahead): after each interrupt the
//   buffer holds the sequence number (1, 2, 3, ...) in word 0 and the exact request from
//   word 1; nothing else in memory changes; the interrupt line and IRQ_STATUS bit0 are
//   high exactly from the cycle after the sequence burst's B response until the cycle
//   after the release; no staging burst while a request is pending or a response DMA
//   runs; staging bursts no longer than the HW2SW FIFO (16 words); OSIF_HW2SW reads 0 and pops
//   nothing;
// * release by an OSIF_SW2HW write: the thread receives the word;
// * response DMA of 1..257 words: the thread receives them in order, read bursts no
//   longer than the FIFO and never before the release; OSIF_RSP_DMA counts down and
//   reads 0 only once every word has been read;
// * request and response buffers across a 4 KiB boundary (MemSlave: no burst crosses);
// * the early release: software polls the sequence word and releases (OSIF_SW2HW or
//   OSIF_RSP_DMA) the moment it sees it, before the interrupt; nothing stays pending,
//   the response arrives, the next request is staged normally;
// * bus errors on request and response buffers: FAULT.STAGE, FAULT_ADDR, FAULT_INFO, the
//   interrupt, nothing pending, the stager stops; a pending FAULT.MEM holds staging
//   until cleared; RESET recovers;
// * a slot reset in the middle of staging: sequence numbers restart at 1, nothing
//   pending, no write into the buffer after the reset edge except the one beat AXI
//   already had on the W channel; the buffer registers survive;
// * staging and MEMIF traffic on the same slot and on other slots at once;
// * outputs registered in mid-traffic; quiet_o low while a request is staged and high
//   while the only running slot's request is pending and its thread waits.
#include "tb_check.h"
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "tb_rtl_mem_slave.h"
#include "tb_rtl_memif_thread.h"
#include "tb_rtl_static_harness.h"
#include "weft/osif_protocol.h"

using namespace weft_tb;

namespace
{

constexpr uint32_t kDefaultSeed = 0x5eed57a6u;
/** The seed: WEFT_TB_SEED (to explore) or the fixed one. */
uint32_t seed()
{
    const char *e = std::getenv("WEFT_TB_SEED");
    return e ? uint32_t(std::strtoul(e, nullptr, 0)) : kDefaultSeed;
}
constexpr uint32_t kMemBase = 0x10000000u;
constexpr uint32_t kRegion = 0x10000u; // 64 KiB: region 0 scratch, slot s in region s + 1
constexpr uint32_t kMemSize = kRegion * (kNumSlots + 1);
constexpr uint32_t kMemEnd = kMemBase + kMemSize;
constexpr unsigned kFifoDepth = 16; // platform/default.yaml: osif_depth
// Words of a request buffer: the sequence number, the header and up to 255 arguments.
constexpr unsigned kBufWords = WEFT_STAGE_REQ_WORD + 1 + WEFT_OSIF_MAX_ARGS;
constexpr uint32_t kRspSpan = 0x800; // bytes after OSIF_RSP_BUF the monitor attributes to it
constexpr uint32_t kMemifWinOff = 0x8000, kMemifWinSize = 0x8000;
constexpr uint32_t kRw = WEFT_WIN_READ | WEFT_WIN_WRITE;

uint32_t region(unsigned s)
{
    return kMemBase + (s + 1) * kRegion;
}
uint32_t default_req_buf(unsigned s)
{
    return region(s) + 0x0100;
}
uint32_t default_rsp_buf(unsigned s)
{
    return region(s) + 0x2000;
}
uint32_t memif_win(unsigned s)
{
    return region(s) + kMemifWinOff;
}
uint32_t sreg(unsigned s, uint32_t off)
{
    return WEFT_SLOT_REG(s, off);
}
uint32_t nargs_of(uint32_t header)
{
    return (header >> WEFT_OSIF_REQ_NARGS_SHIFT) & WEFT_OSIF_REQ_NARGS_MASK;
}

// ---------------------------------------------------------------------------------------
// The thread of one slot: OSIF requests and responses, and MEMIF commands
// ---------------------------------------------------------------------------------------
class SlotThread : public Agent
{
  public:
    SlotThread(StaticHarness &h, unsigned slot) : mem(h, slot), h_(h), s_(slot) {}

    // OSIF: words to send (a valid, once raised, stays until taken), words received.
    std::deque<uint32_t> out;
    std::vector<uint32_t> in;
    size_t in_expect = 0;      ///< response words the thread waits for in total
    unsigned p_out = 100;      ///< chance per cycle to offer the next request word
    unsigned p_in = 100;       ///< chance per cycle to take a response word while waiting
    unsigned p_pause = 0;      ///< per mille per word: a long pause before it (10..160 cycles)
    uint64_t out_words = 0;    ///< request words taken by the slot
    Thread mem;                ///< the MEMIF side (tb_rtl_memif_thread.h)
    bool drop_pending = false; ///< forget the words presented (the slot was reset)

    bool osif_sent() const { return out.empty() && !valid_; }
    bool offering() const { return valid_; }
    /** Chance per cycle of each MEMIF handshake. */
    void set_p_mem(unsigned p) { mem.timing = ThreadTiming{p, p, p}; }

    /** The slot was reset: the thread starts over. */
    void restart()
    {
        out.clear();
        in.clear();
        in_expect = 0;
        mem.cmd.clear();
        mem.wr.clear();
        mem.rd_expect.clear();
        mem.drop_pending = true;
        drop_pending = true;
    }

    void drive(Vweft_static &d) override
    {
        mem.drive(d); // first: the OSIF lines below are this thread's
        if (drop_pending) {
            valid_ = false;
            pause_until_ = 0;
            drop_pending = false;
        }
        const uint64_t c = h_.cycle();
        if (!valid_ && !out.empty() && c >= pause_until_) {
            if (p_pause && !pause_decided_ && h_.rng()() % 1000 < p_pause)
                pause_until_ = c + 10 + h_.rng()() % 151;
            else if (h_.chance(p_out))
                valid_ = true;
            pause_decided_ = true;
        }
        SET_REQ(d, s_, OSIF_OUT_VALID, valid_);
        SET_REQ(d, s_, OSIF_OUT_DATA, valid_ ? out.front() : 0);
        // Waiting in a call: for a response, or with nothing to send (blocked).
        const bool waits = in.size() < in_expect || osif_sent();
        SET_REQ(d, s_, OSIF_IN_READY, waits && h_.chance(p_in));
    }

    void sample(Vweft_static &d) override
    {
        if (valid_ && RSP(d, s_, OSIF_OUT_READY)) {
            out.pop_front();
            valid_ = false;
            pause_decided_ = false;
            ++out_words;
        }
        if (RSP(d, s_, OSIF_IN_VALID) && REQ(d, s_, OSIF_IN_READY)) {
            uint32_t w = RSP(d, s_, OSIF_IN_DATA);
            CHECK(in.size() < in_expect, "slot %u: unexpected response word 0x%08x (cycle %llu)",
                  s_, w, (unsigned long long)h_.cycle());
            in.push_back(w);
        }
        mem.sample(d);
    }

  private:
    StaticHarness &h_;
    unsigned s_;
    bool valid_ = false, pause_decided_ = false;
    uint64_t pause_until_ = 0;
};

// ---------------------------------------------------------------------------------------
// Monitor: register writes, AXI4 bursts and interrupt lines, every cycle
// ---------------------------------------------------------------------------------------
// Cycle c is the c-th call of StaticHarness::step(); sample() of cycle c sees the
// registers as they are before edge c. weft_axil_regs performs a write in the cycle after
// both its AW and W handshakes (the register changes at that edge), a read in the cycle
// after the AR handshake. A staged request becomes pending at the edge after the cycle of
// its sequence burst's B handshake (the stager sees the burst over one cycle later), so
// IRQ_STATUS bit0 and the line are high from the cycle after that edge; a release
// performed in cycle c lowers them from cycle c + 1.
class Monitor : public Agent
{
  public:
    enum St { Idle, InFlight, Pending };
    enum Kind { KSw2hw = 0, KDma = 1 };

    struct Slot {
        // What software configured (learnt from the register writes).
        uint32_t req_buf = 0, rsp_buf = 0;
        bool irq_en = false, in_reset = true;
        bool check_irq = true; ///< off while faults are expected (the line then shows them)
        // The staged request: sequence burst in flight, or pending.
        St st = Idle;
        unsigned epoch = 0; ///< counts resets; a burst of an older epoch is ignored
        bool early = false;
        Kind early_kind = KSw2hw;
        uint64_t early_cycle = 0, resolve_at = 0;
        bool exp_pend = false; ///< pending_q as predicted for the current cycle
        // Response DMA: from the OSIF_RSP_DMA write until its last word was read.
        bool dma_active = false;
        unsigned dma_n = 0, dma_req = 0, dma_moved = 0;
        // At the last register read of this slot: the staged request's state, and the
        // response words read from memory so far.
        St read_st = Idle;
        unsigned read_dma_moved = 0;
        // Results.
        unsigned irq_mismatch = 0, staged_while_pending = 0, staged_during_dma = 0;
        unsigned dma_before_seq = 0, stray_rsp_reads = 0, oversized_reads = 0;
        unsigned stage_bursts = 0, stage_max_beats = 0;
        unsigned rel_pending[2] = {0, 0}, rel_before_done[2] = {0, 0}, rel_on_done[2] = {0, 0};
        int last_early_delta = 1; ///< release cycle - done cycle of the last early release
        // After a reset: staging writes into the buffer that land after the reset edge.
        bool guard = false;
        uint64_t reset_cycle = 0, reset_b_cycle = 0;
        bool reset_b_seen = false;
        uint64_t allowed_w = ~0ull; ///< index of the W beat the master already held
        unsigned late_inflight = 0, late_inflight_seq = 0, late_after_b = 0, late_bad = 0;
        // The sequence word in memory (what software polls).
        uint32_t seq_word = 0;
    };
    Slot sl[kNumSlots];
    unsigned mixed_slot_switches = 0; ///< a slot's bursts alternating stager <-> MEMIF

    Monitor(StaticHarness &h, std::vector<uint8_t> &mem) : h_(h), mem_(mem) {}

    bool in_req(unsigned s, uint32_t a) const
    {
        return sl[s].req_buf != 0 && a >= sl[s].req_buf && a - sl[s].req_buf < 4 * kBufWords;
    }
    bool in_rsp(unsigned s, uint32_t a) const
    {
        return sl[s].rsp_buf != 0 && a >= sl[s].rsp_buf && a - sl[s].rsp_buf < kRspSpan;
    }
    uint32_t mem_word(uint32_t a) const
    {
        if (a < kMemBase || a >= kMemEnd)
            return 0;
        const uint8_t *p = &mem_[a - kMemBase];
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    }
    /** The interrupt line the monitor predicts for this cycle. */
    bool exp_irq(unsigned s) const { return sl[s].irq_en && sl[s].exp_pend; }

    void drive(Vweft_static &) override {}

    void sample(Vweft_static &d) override
    {
        const uint64_t c = h_.cycle();
        // 1. The interrupt lines against the prediction for this cycle.
        for (unsigned s = 0; s < kNumSlots; ++s) {
            Slot &x = sl[s];
            if (!x.check_irq || x.req_buf == 0)
                continue;
            bool got = bit(d.irq_o, s);
            if (got != exp_irq(s)) {
                if (x.irq_mismatch++ < 5)
                    std::printf("monitor: slot %u interrupt %d at cycle %llu, want %d (state %d)\n",
                                s, got, (unsigned long long)c, exp_irq(s), int(x.st));
            }
        }
        // 2. Register accesses performed in this cycle.
        if (d.s_axil_awvalid_i && d.s_axil_awready_o) {
            aw_l_ = true;
            aw_l_cycle_ = c;
            aw_l_addr_ = d.s_axil_awaddr_i;
        }
        if (d.s_axil_wvalid_i && d.s_axil_wready_o) {
            w_l_ = true;
            w_l_cycle_ = c;
            w_l_data_ = d.s_axil_wdata_i;
        }
        if (we_pending_ && we_cycle_ == c) {
            reg_write(c, we_addr_, we_data_);
            we_pending_ = false;
        }
        if (aw_l_ && w_l_) {
            we_pending_ = true;
            we_cycle_ = std::max(aw_l_cycle_, w_l_cycle_) + 1;
            we_addr_ = aw_l_addr_;
            we_data_ = w_l_data_;
            aw_l_ = w_l_ = false;
        }
        if (re_pending_ && re_cycle_ == c) {
            reg_read(re_addr_);
            re_pending_ = false;
        }
        if (d.s_axil_arvalid_i && d.s_axil_arready_o) {
            re_pending_ = true;
            re_cycle_ = c + 1;
            re_addr_ = d.s_axil_araddr_i;
        }
        if (d.s_axil_bvalid_o && d.s_axil_bready_i) {
            for (unsigned s = 0; s < kNumSlots; ++s)
                if (sl[s].guard && !sl[s].reset_b_seen) {
                    sl[s].reset_b_seen = true;
                    sl[s].reset_b_cycle = c;
                }
        }
        // 3. The sequence burst of a request completed in the previous cycle.
        for (unsigned s = 0; s < kNumSlots; ++s) {
            Slot &x = sl[s];
            if (x.st == InFlight && x.resolve_at == c) {
                x.resolve_at = 0;
                if (x.early) {
                    x.st = Idle;
                    x.last_early_delta = int(int64_t(x.early_cycle) - int64_t(c));
                    if (x.early_cycle == c)
                        ++x.rel_on_done[x.early_kind];
                    else
                        ++x.rel_before_done[x.early_kind];
                } else {
                    x.st = Pending;
                    x.exp_pend = true;
                }
            }
            // The W beat the master holds at the reset edge may still land (AXI).
            if (x.guard && c == x.reset_cycle + 1)
                x.allowed_w = (d.m_axi_wvalid_o && d.m_axi_wstrb_o) ? w_index_ : ~0ull;
        }
        // 4. AXI4 bursts.
        if (d.m_axi_awvalid_o && d.m_axi_awready_i)
            aw_burst(c, d.m_axi_awaddr_o, unsigned(d.m_axi_awlen_o) + 1);
        if (d.m_axi_wvalid_o && d.m_axi_wready_i)
            wq_.push_back({c, w_index_++, uint8_t(d.m_axi_wstrb_o)});
        while (!awq_.empty() && wq_.size() >= awq_.front().beats) {
            Burst b = awq_.front();
            awq_.pop_front();
            for (unsigned i = 0; i < b.beats; ++i) {
                WBeat w = wq_.front();
                wq_.pop_front();
                if (w.strb)
                    landed(w, b.addr + 4 * i);
            }
            bq_.push_back(b);
        }
        if (d.m_axi_bvalid_i && d.m_axi_bready_o && !bq_.empty()) {
            Burst b = bq_.front();
            bq_.pop_front();
            if (b.seq_of >= 0) {
                Slot &x = sl[b.seq_of];
                if (b.epoch == x.epoch && x.st == InFlight && d.m_axi_bresp_i == 0) {
                    x.resolve_at = c + 1;
                }
            }
        }
        if (d.m_axi_arvalid_o && d.m_axi_arready_i)
            ar_burst(c, d.m_axi_araddr_o, unsigned(d.m_axi_arlen_o) + 1);
        if (d.m_axi_rvalid_i && d.m_axi_rready_o && !arq_.empty()) {
            Burst &b = arq_.front();
            if (b.rsp_of >= 0 && d.m_axi_rresp_i == 0) {
                Slot &x = sl[b.rsp_of];
                if (x.dma_active && b.epoch == x.epoch && ++x.dma_moved == x.dma_n)
                    x.dma_active = false;
            }
            if (++b.done == b.beats)
                arq_.pop_front();
        }
        // 5. The sequence word software polls.
        for (unsigned s = 0; s < kNumSlots; ++s) {
            Slot &x = sl[s];
            if (x.req_buf == 0)
                continue;
            uint32_t v = mem_word(x.req_buf + 4 * WEFT_STAGE_SEQ_WORD);
            x.seq_word = v;
        }
    }

  private:
    struct Burst {
        uint32_t addr;
        unsigned beats;
        int seq_of = -1, rsp_of = -1;
        unsigned epoch = 0, done = 0;
    };
    struct WBeat {
        uint64_t cycle, index;
        uint8_t strb;
    };
    StaticHarness &h_;
    std::vector<uint8_t> &mem_;
    std::deque<Burst> awq_, bq_, arq_;
    std::deque<WBeat> wq_;
    uint64_t w_index_ = 0;
    int last_kind_[kNumSlots] = {0, 0, 0, 0}; // 1 stager, 2 MEMIF
    bool aw_l_ = false, w_l_ = false, we_pending_ = false, re_pending_ = false;
    uint64_t aw_l_cycle_ = 0, w_l_cycle_ = 0, we_cycle_ = 0, re_cycle_ = 0;
    uint32_t aw_l_addr_ = 0, w_l_data_ = 0, we_addr_ = 0, we_data_ = 0, re_addr_ = 0;

    static bool slot_of(uint32_t addr, unsigned &s, uint32_t &off)
    {
        if (addr < WEFT_SLOT_BASE)
            return false;
        s = (addr - WEFT_SLOT_BASE) / WEFT_SLOT_STRIDE;
        off = (addr - WEFT_SLOT_BASE) % WEFT_SLOT_STRIDE;
        return s < kNumSlots;
    }

    void note_kind(unsigned s, int kind)
    {
        if (last_kind_[s] != 0 && last_kind_[s] != kind)
            ++mixed_slot_switches;
        last_kind_[s] = kind;
    }

    void reg_write(uint64_t c, uint32_t addr, uint32_t data)
    {
        unsigned s;
        uint32_t off;
        if (!slot_of(addr, s, off))
            return;
        Slot &x = sl[s];
        switch (off) {
        case WEFT_SLOT_REG_CONTROL: {
            bool reset = data & WEFT_CONTROL_RESET;
            x.irq_en = data & WEFT_CONTROL_IRQ_EN;
            if (reset && !x.in_reset) {
                ++x.epoch;
                x.st = Idle;
                x.early = false;
                x.resolve_at = 0;
                x.exp_pend = false;
                x.dma_active = false;
                x.guard = true;
                x.reset_cycle = c;
                x.reset_b_seen = false;
                x.allowed_w = ~0ull;
            }
            x.in_reset = reset;
            break;
        }
        case WEFT_SLOT_REG_OSIF_REQ_BUF:
            x.req_buf = data & ~3u;
            x.seq_word = mem_word(x.req_buf);
            break;
        case WEFT_SLOT_REG_OSIF_RSP_BUF:
            x.rsp_buf = data & ~3u;
            break;
        case WEFT_SLOT_REG_OSIF_SW2HW:
        case WEFT_SLOT_REG_OSIF_RSP_DMA: {
            if (x.req_buf == 0)
                break;
            Kind k = off == WEFT_SLOT_REG_OSIF_SW2HW ? KSw2hw : KDma;
            if (x.st == Pending) {
                x.st = Idle;
                x.exp_pend = false;
                ++x.rel_pending[k];
            } else if (x.st == InFlight) {
                x.early = true;
                x.early_kind = k;
                x.early_cycle = c;
            }
            unsigned n = data & WEFT_RSP_DMA_MASK;
            if (k == KDma && n != 0) {
                x.dma_active = true;
                x.dma_n = n;
                x.dma_req = x.dma_moved = 0;
            }
            break;
        }
        default:
            break;
        }
    }

    void reg_read(uint32_t addr)
    {
        unsigned s;
        uint32_t off;
        if (!slot_of(addr, s, off))
            return;
        Slot &x = sl[s];
        x.read_st = x.st;
        x.read_dma_moved = x.dma_moved;
    }

    /** A burst at addr seen for slot s: a MEMIF one (its window), or the stager's when
     *  ours (into the buffer of the caller's side). Returns the slot for a stager burst of
     *  a slot not in reset, with b's epoch set; else nullptr. */
    Slot *stager_burst(unsigned s, uint32_t addr, bool ours, Burst &b)
    {
        Slot &x = sl[s];
        if (addr >= memif_win(s) && addr < memif_win(s) + kMemifWinSize)
            note_kind(s, 2);
        if (!ours)
            return nullptr;
        note_kind(s, 1);
        // A burst issued in the cycle the slot's reset was performed (the stager sees the
        // reset a cycle later) belongs to the epoch before: it is aborted.
        b.epoch = x.in_reset ? x.epoch - 1 : x.epoch;
        return x.in_reset ? nullptr : &x;
    }

    void aw_burst(uint64_t c, uint32_t addr, unsigned beats)
    {
        Burst b{addr, beats};
        for (unsigned s = 0; s < kNumSlots; ++s) {
            const bool ours = in_req(s, addr);
            Slot *xp = stager_burst(s, addr, ours, b);
            if (ours)
                ++sl[s].stage_bursts;
            if (!xp)
                continue;
            Slot &x = *xp;
            if (x.st == Pending) {
                if (x.staged_while_pending++ < 3)
                    std::printf("monitor: slot %u staging burst at 0x%08x while a request is "
                                "pending (cycle %llu)\n",
                                s, addr, (unsigned long long)c);
            }
            if (x.dma_active) {
                if (x.staged_during_dma++ < 3)
                    std::printf("monitor: slot %u staging burst at 0x%08x during a response "
                                "DMA (cycle %llu)\n",
                                s, addr, (unsigned long long)c);
            }
            x.stage_max_beats = std::max(x.stage_max_beats, beats);
            if (addr == x.req_buf + 4 * WEFT_STAGE_SEQ_WORD) {
                CHECK(beats == 1, "slot %u: sequence burst of %u beats", s, beats);
                b.seq_of = int(s);
                x.st = InFlight;
                x.early = false;
                x.resolve_at = 0;
            }
        }
        awq_.push_back(b);
    }

    void ar_burst(uint64_t c, uint32_t addr, unsigned beats)
    {
        Burst b{addr, beats};
        for (unsigned s = 0; s < kNumSlots; ++s) {
            const bool ours = in_rsp(s, addr);
            if (ours)
                b.rsp_of = int(s);
            Slot *xp = stager_burst(s, addr, ours, b);
            if (!xp)
                continue;
            Slot &x = *xp;
            if (!x.dma_active) {
                if (x.stray_rsp_reads++ < 3)
                    std::printf("monitor: slot %u response-buffer read at 0x%08x without a "
                                "response DMA (cycle %llu)\n",
                                s, addr, (unsigned long long)c);
                continue;
            }
            if (x.st == InFlight) {
                if (x.dma_before_seq++ < 3)
                    std::printf("monitor: slot %u response DMA read before the sequence "
                                "burst completed (cycle %llu)\n",
                                s, (unsigned long long)c);
            }
            if (beats > kFifoDepth || x.dma_req + beats > x.dma_n) {
                if (x.oversized_reads++ < 3)
                    std::printf("monitor: slot %u response read burst of %u beats (%u of %u "
                                "requested before)\n",
                                s, beats, x.dma_req, x.dma_n);
            }
            x.dma_req += beats;
        }
        arq_.push_back(b);
    }

    void landed(const WBeat &w, uint32_t addr)
    {
        for (unsigned s = 0; s < kNumSlots; ++s) {
            Slot &x = sl[s];
            if (!x.guard || !in_req(s, addr) || w.cycle <= x.reset_cycle)
                continue;
            if (w.index == x.allowed_w) {
                ++x.late_inflight;
                if (addr == x.req_buf)
                    ++x.late_inflight_seq;
                if (x.reset_b_seen && w.cycle > x.reset_b_cycle)
                    ++x.late_after_b;
            } else if (x.late_bad++ < 3) {
                std::printf("monitor: slot %u write to 0x%08x at cycle %llu, after its reset "
                            "(cycle %llu)\n",
                            s, addr, (unsigned long long)w.cycle,
                            (unsigned long long)x.reset_cycle);
            }
        }
    }
};

// ---------------------------------------------------------------------------------------
// Test bench
// ---------------------------------------------------------------------------------------
enum class Release { Sw2hw, RspDma };

/** What one slot's thread sends and must receive. */
struct Script {
    std::vector<std::vector<uint32_t>> reqs; ///< requests given to the thread, in order
    std::vector<uint32_t> rsp;               ///< response words it must receive, in order
    std::vector<size_t> rsp_end;             ///< rsp.size() after request k's response
    std::deque<unsigned> nargs;              ///< argument counts to use first
    std::deque<unsigned> dma_len;            ///< response DMA lengths to use first
    /// MEMIF commands the thread issues one at a time, between its requests: each the
    /// command words, its write data and the read data it must receive.
    struct MemCmd {
        uint32_t w0, addr;
        std::vector<uint32_t> wr, rd;
    };
    std::deque<MemCmd> mem;
    size_t handled = 0;    ///< requests software took (last sequence number)
    size_t answered = 0;   ///< requests whose whole response arrived
    size_t checked_in = 0; ///< response words compared
    unsigned to_send = 0;  ///< requests still to generate
    bool ahead = false;    ///< the thread sends its next request early
};

class Bench
{
  public:
    Bench() : h(seed()), mem(kMemSize), shadow(kMemSize), slave(h, mem, kMemBase), mon(h, mem)
    {
        for (unsigned s = 0; s < kNumSlots; ++s)
            threads.emplace_back(new SlotThread(h, s));
        for (auto &t : threads)
            h.add_agent(t.get());
        h.add_agent(&slave);
        h.add_agent(&mon); // after the slave: it sees this cycle's memory writes
        for (uint32_t i = 0; i < kMemSize; ++i)
            mem[i] = shadow[i] = uint8_t(h.rng()());
    }

    StaticHarness h;
    std::vector<uint8_t> mem, shadow;
    MemSlave slave;
    Monitor mon;
    std::vector<std::unique_ptr<SlotThread>> threads;
    Script sc[kNumSlots];

    // Totals for the summary.
    uint64_t requests = 0, request_words = 0, max_nargs_seen = 0, sw2hw_releases = 0;
    uint64_t dmas = 0, dma_words = 0, max_dma = 0, ahead_waits = 0, hw2sw_checks = 0;
    uint64_t crossing_reqs = 0, crossing_rsps = 0, registered_checks = 0, quiet_cycles = 0;
    uint64_t dma_polls = 0, dma_zero_early = 0, dma_zero_in_flight = 0, memif_cmds = 0;
    unsigned dma_zero_max_left = 0;
    unsigned early_total = 0, early_on_done = 0, early_lost = 0, resets = 0, faults = 0,
             drain_waits = 0; // resets after which MEM_ACTIVE read 1 at first

    // ---- memory ----
    uint32_t word(const std::vector<uint8_t> &m, uint32_t a) const
    {
        const uint8_t *p = &m[a - kMemBase];
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    }
    void put(std::vector<uint8_t> &m, uint32_t a, uint32_t v)
    {
        for (unsigned k = 0; k < 4; ++k)
            m[a - kMemBase + k] = uint8_t(v >> (8 * k));
    }
    static bool in_mem(uint32_t a) { return a >= kMemBase && a < kMemEnd; }

    void check_memory(const char *phase) { check_memory_image(mem, shadow, kMemBase, phase); }

    // ---- slots ----
    /** Hold the slot in reset, set its buffers, restart its thread and script, run it. */
    void configure(unsigned s, uint32_t req_buf, uint32_t rsp_buf)
    {
        h.mmio_write(sreg(s, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET | WEFT_CONTROL_RUN);
        threads[s]->restart();
        h.mmio_write(sreg(s, WEFT_SLOT_REG_OSIF_REQ_BUF), req_buf);
        h.mmio_write(sreg(s, WEFT_SLOT_REG_OSIF_RSP_BUF), rsp_buf);
        sc[s] = Script();
        h.step(3);
        h.mmio_write(sreg(s, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
        mon.sl[s].guard = false;
    }

    std::vector<uint32_t> make_request(unsigned nargs)
    {
        std::mt19937 &r = h.rng();
        std::vector<uint32_t> w;
        w.push_back(weft_osif_req_header(r() % 256, r() & 0xFFFF, nargs));
        for (unsigned i = 0; i < nargs; ++i)
            w.push_back(r());
        return w;
    }

    unsigned random_nargs()
    {
        std::mt19937 &r = h.rng();
        unsigned k = r() % 100;
        return k < 20 ? r() % 4 : k < 30 ? 255 : k < 45 ? 13 + r() % 8 : r() % 256;
    }

    /** Give the thread its next request when the script allows it. */
    void feed(unsigned s)
    {
        Script &x = sc[s];
        SlotThread &t = *threads[s];
        if (x.to_send == 0 || !t.osif_sent())
            return;
        if (x.reqs.size() - x.answered >= (x.ahead ? 2u : 1u))
            return;
        unsigned n = random_nargs();
        if (!x.nargs.empty()) {
            n = x.nargs.front();
            x.nargs.pop_front();
        }
        x.reqs.push_back(make_request(n));
        for (uint32_t w : x.reqs.back())
            t.out.push_back(w);
        --x.to_send;
    }

    /** Compare the response words that arrived; count whole responses. */
    void check_in(unsigned s)
    {
        Script &x = sc[s];
        SlotThread &t = *threads[s];
        for (; x.checked_in < t.in.size(); ++x.checked_in) {
            size_t i = x.checked_in;
            CHECK(i < x.rsp.size() && t.in[i] == x.rsp[i],
                  "slot %u: response word %zu is 0x%08x, want 0x%08x", s, i, t.in[i],
                  i < x.rsp.size() ? x.rsp[i] : 0u);
        }
        while (x.answered < x.rsp_end.size() && x.rsp_end[x.answered] <= t.in.size())
            ++x.answered;
    }

    bool finished(unsigned s) const
    {
        const Script &x = sc[s];
        const SlotThread &t = *threads[s];
        return x.to_send == 0 && x.handled == x.reqs.size() && x.answered == x.reqs.size() &&
               t.osif_sent() && t.mem.idle() && x.mem.empty();
    }

    /** Give the thread its next MEMIF command once the last one is done. */
    void feed_mem(unsigned s)
    {
        Script &x = sc[s];
        SlotThread &t = *threads[s];
        if (x.mem.empty() || !t.mem.idle())
            return;
        const Script::MemCmd &c = x.mem.front();
        t.mem.cmd.push_back(c.w0);
        t.mem.cmd.push_back(c.addr);
        t.mem.wr.insert(t.mem.wr.end(), c.wr.begin(), c.wr.end());
        t.mem.rd_expect.insert(t.mem.rd_expect.end(), c.rd.begin(), c.rd.end());
        x.mem.pop_front();
    }

    /** Software takes the staged request: the buffer holds its number and its words. */
    void verify_staged(unsigned s)
    {
        Script &x = sc[s];
        const uint32_t buf = mon.sl[s].req_buf;
        CHECK(x.handled < x.reqs.size(), "slot %u: request staged that was never sent", s);
        if (x.handled >= x.reqs.size())
            return;
        const std::vector<uint32_t> &req = x.reqs[x.handled];
        const uint32_t seq = uint32_t(++x.handled);
        uint32_t got = word(mem, buf + 4 * WEFT_STAGE_SEQ_WORD);
        CHECK(got == seq, "slot %u: sequence word %u, want %u", s, got, seq);
        put(shadow, buf + 4 * WEFT_STAGE_SEQ_WORD, seq);
        unsigned bad = 0;
        for (size_t i = 0; i < req.size(); ++i) {
            uint32_t a = buf + 4 * uint32_t(WEFT_STAGE_REQ_WORD + i);
            if (word(mem, a) != req[i] && bad++ < 3)
                std::printf("slot %u request %u word %zu at 0x%08x: 0x%08x, want 0x%08x\n", s, seq,
                            i, a, word(mem, a), req[i]);
            put(shadow, a, req[i]);
        }
        CHECK(bad == 0, "slot %u: request %u (%zu words) has %u wrong words in memory", s, seq,
              req.size(), bad);
        // The buffer and 64 bytes either side are exactly as expected.
        uint32_t lo = std::max(kMemBase, buf - 64),
                 hi = std::min(kMemEnd, buf + 4 * kBufWords + 64);
        unsigned diff = 0;
        for (uint32_t a = lo; a < hi; ++a)
            diff += mem[a - kMemBase] != shadow[a - kMemBase];
        CHECK(diff == 0, "slot %u: %u bytes around the request buffer differ", s, diff);
        ++requests;
        request_words += req.size();
        max_nargs_seen = std::max<uint64_t>(max_nargs_seen, req.size() - 1);
        if ((buf + 4) / 4096 != (buf + 4 * req.size()) / 4096)
            ++crossing_reqs;
    }

    /** Release the staged request: one response word, or n words by response DMA. */
    unsigned release(unsigned s, Release how, unsigned n = 0)
    {
        Script &x = sc[s];
        SlotThread &t = *threads[s];
        std::mt19937 &r = h.rng();
        if (how == Release::Sw2hw) {
            uint32_t w = r();
            x.rsp.push_back(w);
            x.rsp_end.push_back(x.rsp.size());
            t.in_expect = x.rsp.size();
            h.mmio_write(sreg(s, WEFT_SLOT_REG_OSIF_SW2HW), w);
            ++sw2hw_releases;
            return 1;
        }
        if (n == 0) {
            if (!x.dma_len.empty()) {
                n = x.dma_len.front();
                x.dma_len.pop_front();
            } else {
                unsigned k = r() % 100;
                n = k < 25 ? 1 + r() % 4 : k < 40 ? 14 + r() % 6 : k < 50 ? 257 : 1 + r() % 257;
            }
        }
        const uint32_t buf = mon.sl[s].rsp_buf;
        for (unsigned i = 0; i < n; ++i) {
            uint32_t w = r();
            if (in_mem(buf + 4 * i)) {
                put(mem, buf + 4 * i, w);
                put(shadow, buf + 4 * i, w);
            }
            x.rsp.push_back(w);
        }
        x.rsp_end.push_back(x.rsp.size());
        t.in_expect = x.rsp.size();
        h.mmio_write(sreg(s, WEFT_SLOT_REG_OSIF_RSP_DMA), n);
        ++dmas;
        dma_words += n;
        max_dma = std::max<uint64_t>(max_dma, n);
        if (buf / 4096 != (buf + 4 * n - 1) / 4096)
            ++crossing_rsps;
        return n;
    }

    /** Poll OSIF_RSP_DMA until it reads 0: it counts down and reads 0 only when done. */
    void poll_dma(unsigned s, unsigned n)
    {
        uint32_t prev = n;
        for (unsigned i = 0; i < 5000; ++i) {
            uint32_t v = h.mmio_read(sreg(s, WEFT_SLOT_REG_OSIF_RSP_DMA));
            const Monitor::Slot &m = mon.sl[s];
            unsigned left = n - std::min(n, m.read_dma_moved);
            ++dma_polls;
            CHECK(v <= prev, "slot %u: OSIF_RSP_DMA went up from %u to %u", s, prev, v);
            CHECK(v <= left, "slot %u: OSIF_RSP_DMA reads %u, only %u words left to move", s, v,
                  left);
            if (v == 0) {
                if (left != 0) {
                    ++dma_zero_early;
                    if (m.read_st == Monitor::InFlight)
                        ++dma_zero_in_flight;
                    dma_zero_max_left = std::max(dma_zero_max_left, left);
                }
                return;
            }
            prev = v;
        }
        CHECK(false, "slot %u: OSIF_RSP_DMA never reached 0", s);
    }

    /** OSIF_HW2SW reads 0 and pops nothing while staging. */
    void check_hw2sw_read(unsigned s)
    {
        SlotThread &t = *threads[s];
        bool still = t.osif_sent();
        uint32_t c1 = h.mmio_read(sreg(s, WEFT_SLOT_REG_STATUS)) & 0xFFFFu;
        uint32_t v = h.mmio_read(sreg(s, WEFT_SLOT_REG_OSIF_HW2SW));
        uint32_t c2 = h.mmio_read(sreg(s, WEFT_SLOT_REG_STATUS)) & 0xFFFFu;
        CHECK(v == 0, "slot %u: OSIF_HW2SW read 0x%08x while staging", s, v);
        if (still)
            CHECK(c2 == c1, "slot %u: HW2SW %u -> %u words across an OSIF_HW2SW read", s, c1, c2);
        else
            CHECK(c2 >= c1, "slot %u: HW2SW %u -> %u words across an OSIF_HW2SW read", s, c1, c2);
        if (c1 > 0)
            ++ahead_waits;
        ++hw2sw_checks;
    }

    /** Interrupt-driven software: the staged request of slot s. */
    void handle(unsigned s, Release how)
    {
        uint32_t irqs = h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS));
        CHECK(irqs == WEFT_IRQ_OSIF, "slot %u: IRQ_STATUS 0x%x with a request pending", s, irqs);
        verify_staged(s);
        if (h.chance(30))
            check_hw2sw_read(s);
        unsigned n = release(s, how);
        if (how == Release::RspDma)
            poll_dma(s, n);
    }

    void randomize_timing(unsigned mask)
    {
        std::mt19937 &r = h.rng();
        unsigned p = 40 + r() % 61;
        slave.timing = {p, unsigned(30 + r() % 71), p, unsigned(30 + r() % 71), p};
        slave.timing.b_delay_min = 0;
        slave.timing.b_delay_max = r() % 3 == 0 ? 1 + r() % 6 : 0;
        h.axil_timing() = r() % 2 ? AxilTiming{100, 100} : AxilTiming{60, 40};
        for (unsigned s = 0; s < kNumSlots; ++s)
            if (bit(mask, s)) {
                SlotThread &t = *threads[s];
                t.p_out = 20 + r() % 81;
                t.p_in = 5 + r() % 96;
                t.p_pause = r() % 3 == 0 ? r() % 30 : 0;
                t.set_p_mem(20 + r() % 81);
            }
    }

    void calm_timing()
    {
        slave.timing = SlaveTiming{};
        h.axil_timing() = AxilTiming{100, 100};
        for (auto &t : threads) {
            t->p_out = t->p_in = 100;
            t->set_p_mem(100);
            t->p_pause = 0;
        }
    }

    /** Run the slots of mask until each script is done; software answers every interrupt. */
    bool run(unsigned mask, const std::function<Release(unsigned)> &how, uint64_t limit,
             const char *name, bool vary = true, bool registered = false)
    {
        const uint64_t start = h.cycle();
        uint64_t next_vary = start, next_reg = start + 997;
        for (;;) {
            bool all = true;
            for (unsigned s = 0; s < kNumSlots; ++s)
                if (bit(mask, s)) {
                    feed(s);
                    feed_mem(s);
                    check_in(s);
                    all = all && finished(s);
                }
            if (all)
                return true;
            if (h.cycle() - start > limit) {
                for (unsigned s = 0; s < kNumSlots; ++s)
                    if (bit(mask, s) && !finished(s))
                        CHECK(false,
                              "%s: slot %u stalled: %zu requests sent, %zu staged, %zu answered "
                              "(%zu of %zu response words), %u to send",
                              name, s, sc[s].reqs.size(), sc[s].handled, sc[s].answered,
                              threads[s]->in.size(), sc[s].rsp.size(), sc[s].to_send);
                return false;
            }
            if (vary && h.cycle() >= next_vary) {
                randomize_timing(mask);
                next_vary += 500 + h.rng()() % 1000;
            }
            if (registered && h.cycle() >= next_reg) {
                // Mid-traffic: every slot and AXI output is a register.
                weft_tb::failures += int(h.check_outputs_registered());
                ++registered_checks;
                next_reg += 997;
            }
            h.step();
            for (unsigned s = 0; s < kNumSlots; ++s)
                if (bit(mask, s) && bit(h.dut().irq_o, s))
                    handle(s, how(s));
        }
    }

    bool wait_irq(unsigned s, unsigned limit)
    {
        for (unsigned i = 0; i < limit && !bit(h.dut().irq_o, s); ++i)
            h.step();
        return bit(h.dut().irq_o, s);
    }
    bool wait_in(unsigned s, size_t n, unsigned limit)
    {
        for (unsigned i = 0; i < limit && threads[s]->in.size() < n; ++i)
            h.step();
        check_in(s);
        return threads[s]->in.size() >= n;
    }

    void expect_monitor_clean(const char *phase)
    {
        for (unsigned s = 0; s < kNumSlots; ++s) {
            const Monitor::Slot &m = mon.sl[s];
            const struct {
                unsigned count;
                const char *what;
            } wrong[] = {
                {m.irq_mismatch, "cycles with the interrupt line off the prediction"},
                {m.staged_while_pending, "staging bursts while a request was pending"},
                {m.staged_during_dma, "staging bursts during a response DMA"},
                {m.dma_before_seq, "response reads before the sequence burst completed"},
                {m.stray_rsp_reads, "response-buffer reads without a DMA"},
                {m.oversized_reads, "response read bursts longer than the FIFO or the rest"},
                {m.late_bad, "writes into the buffer after a reset"},
            };
            for (const auto &w : wrong)
                CHECK(w.count == 0, "%s: slot %u: %u %s", phase, s, w.count, w.what);
            CHECK(m.stage_max_beats <= kFifoDepth, "%s: slot %u: a staging burst of %u beats",
                  phase, s, m.stage_max_beats);
        }
    }

    // =====================================================================================
    // Phases
    // =====================================================================================

    // 1. OSIF_REQ_BUF = 0: requests are read from OSIF_HW2SW, IRQ_STATUS bit0 = HW2SW not
    //    empty, and nothing goes on the bus.
    void register_mode()
    {
        const unsigned s = 0;
        calm_timing();
        h.axil_timing() = AxilTiming{60, 40};
        configure(s, 0, 0);
        SlotThread &t = *threads[s];
        t.p_out = 70;
        const size_t bursts = slave.log.size();
        unsigned words = 0;
        for (unsigned nargs : {0u, 1u, 15u, 16u, 40u, 255u}) {
            std::vector<uint32_t> req = make_request(nargs);
            for (uint32_t w : req)
                t.out.push_back(w);
            CHECK(wait_irq(s, 2000), "register mode: no interrupt for a request");
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS)) == WEFT_IRQ_OSIF,
                  "register mode: IRQ_STATUS with words in HW2SW");
            for (size_t i = 0; i < req.size(); ++i) {
                unsigned guard = 0;
                while ((h.mmio_read(sreg(s, WEFT_SLOT_REG_STATUS)) & 0xFFFFu) == 0 && guard++ < 200)
                    h.step();
                uint32_t v = h.mmio_read(sreg(s, WEFT_SLOT_REG_OSIF_HW2SW));
                CHECK(v == req[i], "register mode: word %zu of %zu read 0x%08x, want 0x%08x", i,
                      req.size(), v, req[i]);
                ++words;
            }
            h.step(2);
            CHECK(t.osif_sent(), "register mode: the thread still has words");
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS)) == 0,
                  "register mode: IRQ_STATUS bit0 with HW2SW empty");
            CHECK(!bit(h.dut().irq_o, s), "register mode: interrupt with HW2SW empty");
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_OSIF_HW2SW)) == 0,
                  "register mode: OSIF_HW2SW not 0 when empty");
            uint32_t rsp = h.rng()();
            sc[s].rsp.push_back(rsp);
            sc[s].rsp_end.push_back(sc[s].rsp.size());
            t.in_expect = t.in.size() + 1;
            h.mmio_write(sreg(s, WEFT_SLOT_REG_OSIF_SW2HW), rsp);
            CHECK(wait_in(s, t.in_expect, 200) && t.in.back() == rsp,
                  "register mode: the response word did not arrive");
        }
        CHECK(slave.log.size() == bursts, "register mode: %zu bursts on the bus",
              slave.log.size() - bursts);
        CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_OSIF_RSP_DMA)) == 0,
              "register mode: OSIF_RSP_DMA not 0");
        t.p_out = 100;
        std::printf("register mode: 6 requests (%u words) popped from OSIF_HW2SW, interrupt = "
                    "HW2SW not empty, no burst\n",
                    words);
    }

    // 2./3. Staging of random requests on every slot at once, released by OSIF_SW2HW.
    void staging_phase(unsigned per_slot)
    {
        for (unsigned s = 0; s < kNumSlots; ++s) {
            configure(s, default_req_buf(s), default_rsp_buf(s));
            sc[s].to_send = per_slot;
            sc[s].ahead = s % 2 == 1;
            sc[s].nargs = {255, 0, 16, 17};
        }
        run(
            0xF, [](unsigned) { return Release::Sw2hw; }, 3000000, "staging", true, true);
        calm_timing();
        h.step(20);
        for (unsigned s = 0; s < kNumSlots; ++s) {
            CHECK(sc[s].handled == per_slot, "staging: slot %u took %zu requests", s,
                  sc[s].handled);
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS)) == 0,
                  "staging: slot %u IRQ_STATUS after the last response", s);
        }
        check_memory("staging");
        expect_monitor_clean("staging");
        std::printf("staging: %u requests per slot on 4 slots, sequence numbers 1..%u, every "
                    "buffer exact, %llu checks that OSIF_HW2SW reads 0 (%llu with the next "
                    "request waiting in HW2SW)\n",
                    per_slot, per_slot, (unsigned long long)hw2sw_checks,
                    (unsigned long long)ahead_waits);
        CHECK(ahead_waits > 0, "staging: no thread ever had its next request waiting in HW2SW");
    }

    // 4. Responses by DMA, 1..257 words, the thread taking words at random.
    void rsp_dma_phase(unsigned per_slot)
    {
        const uint64_t d0 = dmas;
        for (unsigned s = 0; s < kNumSlots; ++s) {
            configure(s, default_req_buf(s), default_rsp_buf(s));
            sc[s].to_send = per_slot;
            sc[s].ahead = s != 0;
            sc[s].dma_len = {1, 257, 16, 17, 2, 32, 33, 256};
        }
        run(
            0xF, [](unsigned) { return Release::RspDma; }, 3000000, "response DMA", true, true);
        calm_timing();
        h.step(20);
        check_memory("response DMA");
        expect_monitor_clean("response DMA");
        std::printf("response DMA: %llu responses of 1..257 words (%llu words), in order, %llu "
                    "OSIF_RSP_DMA polls\n",
                    (unsigned long long)(dmas - d0), (unsigned long long)dma_words,
                    (unsigned long long)dma_polls);
    }

    // 5. Request and response buffers across a 4 KiB boundary.
    void boundary_phase()
    {
        const unsigned s = 3;
        const uint64_t cr0 = crossing_reqs, cs0 = crossing_rsps;
        for (unsigned k : {1u, 2u, 3u, 16u, 17u, 100u, 255u, 256u, 257u}) {
            configure(s, region(s) + 0x4000 - 4 * k, default_rsp_buf(s));
            sc[s].to_send = 3;
            sc[s].nargs = {255, unsigned(h.rng()() % 256), 20};
            run(
                1u << s, [](unsigned) { return Release::Sw2hw; }, 200000, "4 KiB request");
        }
        for (unsigned k : {1u, 5u, 16u, 17u, 100u, 256u}) {
            configure(s, default_req_buf(s), region(s) + 0x6000 - 4 * k);
            sc[s].to_send = 2;
            sc[s].dma_len = {257, k + 3};
            run(
                1u << s, [](unsigned) { return Release::RspDma; }, 200000, "4 KiB response");
        }
        calm_timing();
        h.step(20);
        check_memory("4 KiB");
        expect_monitor_clean("4 KiB");
        CHECK(crossing_reqs - cr0 >= 9 && crossing_rsps - cs0 >= 6,
              "4 KiB: too few crossing buffers");
        std::printf("4 KiB: %llu requests and %llu responses across a 4 KiB boundary, no burst "
                    "crossed it\n",
                    (unsigned long long)(crossing_reqs - cr0),
                    (unsigned long long)(crossing_rsps - cs0));
    }

    // 6. Software sees the sequence number in memory and releases at once, before the
    //    interrupt (the sequence burst's B response still to come).
    void early_release_phase(unsigned iters)
    {
        const unsigned s = 1;
        configure(s, default_req_buf(s), default_rsp_buf(s));
        Monitor::Slot &m = mon.sl[s];
        SlotThread &t = *threads[s];
        unsigned kinds_early[2] = {0, 0}, kinds_done[2] = {0, 0}, kinds_pending[2] = {0, 0};
        struct Lost {
            unsigned iteration, b_delay;
            Release how;
        };
        std::vector<Lost> lost;
        for (unsigned i = 0; i < iters; ++i) {
            const unsigned delay = i % 7;
            const Release how = (i / 7) % 2 ? Release::RspDma : Release::Sw2hw;
            const bool fast = (i / 14) % 2 == 0;
            slave.timing = SlaveTiming{};
            if (i % 28 >= 21) { // random slave timing too
                unsigned p = 50 + h.rng()() % 51;
                slave.timing = {p, p, p, p, p};
            }
            slave.timing.b_delay_min = slave.timing.b_delay_max = delay;
            h.axil_timing() = fast ? AxilTiming{100, 100} : AxilTiming{60, 40};
            t.p_in = 100;
            Script &x = sc[s];
            x.to_send = 1;
            x.nargs = {unsigned(h.rng()() % 4 == 0 ? h.rng()() % 256 : h.rng()() % 8)};
            feed(s);
            const uint32_t seq = uint32_t(x.handled + 1);
            unsigned guard = 0;
            while (m.seq_word != seq && guard++ < 5000)
                h.step();
            CHECK(m.seq_word == seq, "early release: sequence %u never appeared", seq);
            // Software saw the number in this cycle: it answers at once.
            const unsigned before[2][3] = {
                {m.rel_before_done[0], m.rel_on_done[0], m.rel_pending[0]},
                {m.rel_before_done[1], m.rel_on_done[1], m.rel_pending[1]}};
            verify_staged(s);
            const unsigned n = release(s, how, how == Release::RspDma ? 1 + h.rng()() % 40 : 0);
            h.step(delay + 3); // the burst completes
            const unsigned k = how == Release::RspDma ? 1 : 0;
            const bool on_done = m.rel_on_done[k] != before[k][1];
            kinds_early[k] += m.rel_before_done[k] != before[k][0];
            kinds_done[k] += on_done;
            kinds_pending[k] += m.rel_pending[k] != before[k][2];
            if (!wait_in(s, x.rsp.size(), 3000)) {
                CHECK(false,
                      "early release: %s response of %u words not delivered (%zu of %zu arrived;"
                      " release performed %d cycles after the sequence burst's B response%s)",
                      how == Release::RspDma ? "OSIF_RSP_DMA" : "OSIF_SW2HW", n,
                      t.in.size() - (x.rsp.size() - n), size_t(n), m.last_early_delta + 1,
                      on_done ? ", in the cycle the stager saw it complete" : "");
                lost.push_back({i, delay, how});
                ++early_lost;
                configure(s, default_req_buf(s), default_rsp_buf(s));
                continue;
            }
            if (how == Release::RspDma)
                poll_dma(s, n);
            h.step(2);
            uint32_t irqs = h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS));
            CHECK(irqs == 0, "early release: IRQ_STATUS 0x%x after the response", irqs);
            CHECK(!bit(h.dut().irq_o, s), "early release: interrupt high after the response");
        }
        // The next requests are staged and answered normally.
        calm_timing();
        sc[s].to_send = 3;
        run(
            1u << s, [](unsigned) { return Release::Sw2hw; }, 100000, "after early releases");
        h.step(20);
        check_memory("early release");
        expect_monitor_clean("early release");
        early_total = kinds_early[0] + kinds_early[1] + kinds_done[0] + kinds_done[1];
        early_on_done = kinds_done[0] + kinds_done[1];
        std::printf("early release: %u releases before the interrupt rose (OSIF_SW2HW %u + %u in "
                    "the cycle the burst completed, OSIF_RSP_DMA %u + %u), %u after it; %u "
                    "responses lost\n",
                    early_total, kinds_early[0], kinds_done[0], kinds_early[1], kinds_done[1],
                    kinds_pending[0] + kinds_pending[1], early_lost);
        for (const Lost &l : lost)
            std::printf("early release: lost %s response in iteration %u (B delay %u)\n",
                        l.how == Release::RspDma ? "OSIF_RSP_DMA" : "OSIF_SW2HW", l.iteration,
                        l.b_delay);
        CHECK(early_total > 0, "early release: no release landed before the interrupt");
        CHECK(kinds_early[0] + kinds_done[0] > 0 && kinds_early[1] + kinds_done[1] > 0,
              "early release: not both release kinds landed early");
    }

    void expect_stage_fault(unsigned s, const char *what, uint32_t addr, uint32_t op)
    {
        uint32_t f = h.mmio_read(sreg(s, WEFT_SLOT_REG_FAULT));
        CHECK(f == WEFT_FAULT_STAGE, "%s: FAULT 0x%x, want STAGE", what, f);
        uint32_t fa = h.mmio_read(sreg(s, WEFT_SLOT_REG_FAULT_ADDR));
        CHECK(fa == addr, "%s: FAULT_ADDR 0x%08x, want 0x%08x", what, fa, addr);
        uint32_t fi = h.mmio_read(sreg(s, WEFT_SLOT_REG_FAULT_INFO));
        CHECK(((fi >> WEFT_MEMIF_OP_SHIFT) & WEFT_MEMIF_OP_MASK) == op,
              "%s: FAULT_INFO 0x%08x, want op %u", what, fi, op);
        uint32_t irqs = h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS));
        CHECK(irqs == WEFT_IRQ_FAULT, "%s: IRQ_STATUS 0x%x, want the fault only", what, irqs);
        CHECK(bit(h.dut().irq_o, s), "%s: interrupt line low", what);
        ++faults;
    }

    /** After a fault: reset with good buffers; FAULT cleared; two requests staged. */
    void recover(unsigned s, const char *what)
    {
        configure(s, default_req_buf(s), default_rsp_buf(s));
        CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_FAULT)) == 0, "%s: FAULT after reset", what);
        CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS)) == 0, "%s: IRQ_STATUS after reset",
              what);
        mon.sl[s].check_irq = true;
        sc[s].to_send = 2;
        run(
            1u << s, [](unsigned) { return Release::RspDma; }, 100000, what, false);
        CHECK(sc[s].handled == 2, "%s: staging did not work again", what);
    }

    // 7. Bus errors on staging bursts; a pending fault holds staging.
    void bus_error_phase()
    {
        const unsigned s = 2;
        Monitor::Slot &m = mon.sl[s];
        SlotThread &t = *threads[s];
        calm_timing();
        slave.timing = {70, 70, 70, 70, 70};

        // a) Request buffer outside memory: the first request burst fails.
        {
            const char *what = "request buffer outside memory";
            const uint32_t buf = kMemEnd + 0x1000;
            configure(s, buf, default_rsp_buf(s));
            m.check_irq = false;
            m.stage_bursts = 0;
            sc[s].to_send = 1;
            sc[s].nargs = {40};
            feed(s);
            CHECK(wait_irq(s, 2000), "%s: no interrupt", what);
            h.step(300);
            expect_stage_fault(s, what, buf + 4 * WEFT_STAGE_REQ_WORD, WEFT_MEMIF_OP_WRITE);
            CHECK(m.stage_bursts == 1, "%s: %u staging bursts, want 1 (the stager stops)", what,
                  m.stage_bursts);
            check_memory(what);
            m.stage_bursts = 0;
            recover(s, what);
        }
        // b) Sequence word outside memory, the request words inside: the request is
        //    written, the sequence burst fails, nothing is pending.
        {
            const char *what = "sequence word outside memory";
            const uint32_t buf = kMemBase - 4;
            configure(s, buf, default_rsp_buf(s));
            m.check_irq = false;
            sc[s].to_send = 1;
            sc[s].nargs = {5};
            feed(s);
            CHECK(wait_irq(s, 2000), "%s: no interrupt", what);
            h.step(100);
            expect_stage_fault(s, what, buf, WEFT_MEMIF_OP_WRITE);
            for (size_t i = 0; i < sc[s].reqs[0].size(); ++i)
                put(shadow, kMemBase + 4 * uint32_t(i), sc[s].reqs[0][i]);
            check_memory(what);
            recover(s, what);
        }
        // c) Response buffer outside memory: the DMA's read fails, no word arrives, the
        //    request was released, the next one is not staged.
        {
            const char *what = "response buffer outside memory";
            const uint32_t rbuf = kMemEnd + 0x2000;
            configure(s, default_req_buf(s), rbuf);
            sc[s].to_send = 1;
            sc[s].nargs = {3};
            feed(s);
            CHECK(wait_irq(s, 2000), "%s: no interrupt for the request", what);
            verify_staged(s);
            m.check_irq = false;
            release(s, Release::RspDma, 20);
            h.step(100);
            expect_stage_fault(s, what, rbuf, WEFT_MEMIF_OP_READ);
            CHECK(t.in.empty(), "%s: %zu response words arrived", what, t.in.size());
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_OSIF_RSP_DMA)) == 0,
                  "%s: OSIF_RSP_DMA not 0 after the fault", what);
            const unsigned bursts = m.stage_bursts;
            for (uint32_t w : make_request(2))
                t.out.push_back(w);
            h.step(300);
            CHECK(m.stage_bursts == bursts, "%s: a request was staged after the fault", what);
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS)) == WEFT_IRQ_FAULT,
                  "%s: IRQ_STATUS with the stager stopped", what);
            recover(s, what);
        }
        // d) Response buffer running off the end of memory: the words before the end arrive
        //    in order, the burst at the end fails.
        {
            const char *what = "response buffer across the end of memory";
            const uint32_t rbuf = kMemEnd - 64;
            configure(s, default_req_buf(s), rbuf);
            sc[s].to_send = 1;
            sc[s].nargs = {1};
            feed(s);
            CHECK(wait_irq(s, 2000), "%s: no interrupt for the request", what);
            verify_staged(s);
            m.check_irq = false;
            release(s, Release::RspDma, 40);
            h.step(300);
            expect_stage_fault(s, what, kMemEnd, WEFT_MEMIF_OP_READ);
            check_in(s);
            CHECK(t.in.size() == 16, "%s: %zu words arrived, want the 16 before the end", what,
                  t.in.size());
            recover(s, what);
        }
        // e) A pending FAULT.MEM (bad MEMIF command) holds staging until cleared.
        {
            const char *what = "FAULT.MEM holds staging";
            configure(s, default_req_buf(s), default_rsp_buf(s));
            h.set_window(s, 0, memif_win(s), kMemifWinSize, kRw);
            m.check_irq = false;
            t.mem.cmd.push_back((3u << WEFT_MEMIF_OP_SHIFT) | 4u);
            t.mem.cmd.push_back(memif_win(s));
            h.step(50);
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_FAULT)) == WEFT_FAULT_MEM, "%s: no FAULT.MEM",
                  what);
            t.mem.cmd.clear();
            const unsigned bursts = m.stage_bursts;
            sc[s].to_send = 1;
            sc[s].nargs = {6};
            feed(s);
            h.step(300);
            CHECK(m.stage_bursts == bursts, "%s: a request was staged with a fault pending", what);
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS)) == WEFT_IRQ_FAULT,
                  "%s: IRQ_STATUS with the fault pending", what);
            CHECK((h.mmio_read(sreg(s, WEFT_SLOT_REG_STATUS)) & 0xFFFFu) == 7,
                  "%s: the request is not waiting in HW2SW", what);
            h.mmio_write(sreg(s, WEFT_SLOT_REG_FAULT), WEFT_FAULT_MEM);
            CHECK(wait_irq(s, 2000), "%s: not staged once the fault was cleared", what);
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS)) == WEFT_IRQ_OSIF,
                  "%s: IRQ_STATUS once staged", what);
            verify_staged(s);
            release(s, Release::Sw2hw);
            CHECK(wait_in(s, 1, 200), "%s: response lost", what);
            h.set_window(s, 0, 0, 0, 0);
            recover(s, what);
        }
        calm_timing();
        check_memory("bus errors");
        expect_monitor_clean("bus errors");
        std::printf("bus errors: request buffer, sequence word, response buffer and its tail "
                    "outside memory each set FAULT.STAGE/FAULT_ADDR with nothing pending; "
                    "FAULT.MEM held staging until cleared; RESET recovered each\n");
    }

    /** Reset the slot (held 6 cycles) and check what must hold after it. */
    void reset_and_check(unsigned s, const char *what)
    {
        const Monitor::Slot &m = mon.sl[s];
        const uint32_t req_buf = m.req_buf, rsp_buf = m.rsp_buf;
        h.mmio_write(sreg(s, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET | WEFT_CONTROL_RUN);
        threads[s]->restart();
        sc[s] = Script();
        // MEM_ACTIVE: a burst granted before the reset completes; once it reads 0 nothing
        // the slot issued changes memory any more.
        unsigned polls = 0;
        while (h.mmio_read(sreg(s, WEFT_SLOT_REG_MEM_ACTIVE)) & WEFT_MEM_ACTIVE_BUSY)
            if (++polls > 2000)
                break;
        CHECK(polls <= 2000, "%s: MEM_ACTIVE never went to 0", what);
        drain_waits += polls > 0;
        const std::vector<uint8_t> drained = mem;
        h.step(6);
        CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_OSIF_REQ_BUF)) == req_buf &&
                  h.mmio_read(sreg(s, WEFT_SLOT_REG_OSIF_RSP_BUF)) == rsp_buf,
              "%s: the buffer registers changed in reset", what);
        h.step(40);
        CHECK(mem == drained, "%s: memory changed after MEM_ACTIVE read 0", what);
        h.mmio_write(sreg(s, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
        const unsigned bursts = m.stage_bursts;
        h.step(100);
        CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_IRQ_STATUS)) == 0, "%s: IRQ_STATUS after the reset",
              what);
        CHECK(!bit(h.dut().irq_o, s), "%s: interrupt after the reset", what);
        CHECK(m.stage_bursts == bursts, "%s: staging burst after the reset", what);
        CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_OSIF_RSP_DMA)) == 0,
              "%s: OSIF_RSP_DMA after the reset", what);
        ++resets;
    }

    /** Whatever the stager left in the buffer is what memory holds now (after a reset). */
    void adopt_buffer(unsigned s)
    {
        const uint32_t buf = mon.sl[s].req_buf;
        for (uint32_t a = buf; a < buf + 4 * kBufWords; ++a)
            shadow[a - kMemBase] = mem[a - kMemBase];
    }

    // 8. Resets in the middle of staging.
    void reset_phase(unsigned random_iters)
    {
        const unsigned s = 3;
        Monitor::Slot &m = mon.sl[s];
        SlotThread &t = *threads[s];
        calm_timing();
        // a) A 255-argument request half staged (the thread stopped after 100 arguments).
        {
            const char *what = "reset, half-staged request";
            configure(s, default_req_buf(s), default_rsp_buf(s));
            std::vector<uint32_t> req = make_request(255);
            for (size_t i = 0; i < 101; ++i)
                t.out.push_back(req[i]);
            unsigned guard = 0;
            while (!(t.osif_sent() && slave.idle() && word(mem, m.req_buf + 4 * 101) == req[100]) &&
                   guard++ < 2000)
                h.step();
            h.step(10);
            for (size_t i = 0; i < 101; ++i)
                CHECK(word(mem, m.req_buf + 4 * uint32_t(1 + i)) == req[i],
                      "%s: word %zu not staged before the reset", what, i);
            CHECK(!bit(h.dut().irq_o, s), "%s: interrupt for a partial request", what);
            std::vector<uint8_t> before(mem.begin() + (m.req_buf - kMemBase),
                                        mem.begin() + (m.req_buf - kMemBase) + 4 * kBufWords);
            reset_and_check(s, what);
            // The thread, out of reset, sends its remaining words no more; nothing moves.
            CHECK(std::equal(before.begin(), before.end(), mem.begin() + (m.req_buf - kMemBase)),
                  "%s: the buffer changed after the reset", what);
            adopt_buffer(s);
            m.guard = false;
            sc[s].to_send = 2;
            run(
                1u << s, [](unsigned) { return Release::Sw2hw; }, 100000, what, false);
            CHECK(sc[s].handled == 2, "%s: sequence did not restart at 1", what);
        }
        // b) Reset with a request pending.
        {
            const char *what = "reset, request pending";
            sc[s].to_send = 1;
            sc[s].nargs = {12};
            feed(s);
            CHECK(wait_irq(s, 2000), "%s: no interrupt", what);
            verify_staged(s);
            reset_and_check(s, what);
            m.guard = false;
            sc[s].to_send = 2;
            run(
                1u << s, [](unsigned) { return Release::Sw2hw; }, 100000, what, false);
            CHECK(sc[s].handled == 2, "%s: sequence did not restart at 1", what);
        }
        // c) Resets at random moments of random traffic (slow W channel included).
        unsigned inflight0 = m.late_inflight;
        for (unsigned i = 0; i < random_iters; ++i) {
            randomize_timing(1u << s);
            slave.timing.p_w = 20 + h.rng()() % 81;
            sc[s].to_send = 1 + h.rng()() % 3;
            sc[s].ahead = h.rng()() % 2;
            const uint64_t until = h.cycle() + h.rng()() % 600;
            while (h.cycle() < until) {
                feed(s);
                check_in(s);
                h.step();
                if (bit(h.dut().irq_o, s))
                    handle(s, h.rng()() % 2 ? Release::Sw2hw : Release::RspDma);
            }
            reset_and_check(s, "reset at a random moment");
            adopt_buffer(s);
            m.guard = false;
            sc[s].to_send = 1;
            run(
                1u << s, [](unsigned) { return Release::Sw2hw; }, 100000, "after a random reset",
                false);
            CHECK(sc[s].handled == 1, "random reset: the next request was not staged as number 1");
        }
        calm_timing();
        h.step(20);
        check_memory("resets");
        expect_monitor_clean("resets");
        std::printf("resets: a half-staged 255-argument request, a pending request and %u "
                    "resets at random moments dropped the request and restarted the numbers at "
                    "1; %u beats already on the W channel landed after a reset edge (%u of them "
                    "a sequence word, %u after the CONTROL write's response), none other; "
                    "MEM_ACTIVE read 1 after %u of the resets, and once it read 0 memory held "
                    "still\n",
                    random_iters, m.late_inflight - inflight0 + 0, m.late_inflight_seq,
                    m.late_after_b, drain_waits);
        CHECK(drain_waits > 0, "resets: MEM_ACTIVE never read 1 (no reset caught a burst)");
    }

    // 9. Staging and MEMIF traffic on the same slots and on other slots at once.
    void shared_port_phase(unsigned per_slot, unsigned cmds)
    {
        std::mt19937 &r = h.rng();
        for (unsigned s = 0; s < kNumSlots; ++s) {
            configure(s, default_req_buf(s), default_rsp_buf(s));
            sc[s].to_send = per_slot;
            sc[s].ahead = s == 1 || s == 2;
        }
        const unsigned switches0 = mon.mixed_slot_switches;
        for (unsigned s = 0; s < 2; ++s) {
            h.set_window(s, 0, memif_win(s), kMemifWinSize, kRw);
            for (unsigned c = 0; c < cmds; ++c) {
                unsigned k = r() % 100;
                uint32_t len = k < 50   ? 4 * (1 + r() % 16)
                               : k < 90 ? 4 * (1 + r() % 256)
                                        : 4 * (1 + r() % 1024);
                uint32_t off = r() % 3 == 0 ? 4096 * (1 + r() % 7) - 4 * (1 + r() % 32)
                                            : 4 * (r() % (kMemifWinSize / 4));
                if (off + len > kMemifWinSize)
                    off = kMemifWinSize - len;
                // Slot 0 mostly reads: its requests pass the write fence while a read runs.
                const bool write = r() % (s == 0 ? 4 : 2) == 0;
                Script::MemCmd m{
                    weft_memif_word0(write ? WEFT_MEMIF_OP_WRITE : WEFT_MEMIF_OP_READ, len),
                    memif_win(s) + off,
                    {},
                    {}};
                for (uint32_t i = 0; i < len; i += 4) {
                    if (write) {
                        uint32_t v = r();
                        m.wr.push_back(v);
                        put(shadow, m.addr + i, v);
                    } else {
                        m.rd.push_back(word(shadow, m.addr + i));
                    }
                }
                sc[s].mem.push_back(std::move(m));
                ++memif_cmds;
            }
        }
        run(
            0xF, [&](unsigned) { return r() % 2 ? Release::RspDma : Release::Sw2hw; }, 3000000,
            "shared port", true, true);
        calm_timing();
        h.step(5000); // the last MEMIF write (up to 4 KiB) lands after the thread's last word
        for (unsigned s = 0; s < kNumSlots; ++s) {
            CHECK(sc[s].handled == per_slot, "shared port: slot %u took %zu requests", s,
                  sc[s].handled);
            CHECK(h.mmio_read(sreg(s, WEFT_SLOT_REG_FAULT)) == 0, "shared port: slot %u fault", s);
        }
        for (unsigned s = 0; s < 2; ++s)
            h.set_window(s, 0, 0, 0, 0);
        check_memory("shared port");
        expect_monitor_clean("shared port");
        CHECK(mon.mixed_slot_switches - switches0 > 50,
              "shared port: stager and MEMIF bursts of one slot hardly interleaved");
        std::printf("shared port: %u requests per slot on 4 slots with %u MEMIF commands on "
                    "slots 0 and 1; a slot's bursts switched between stager and MEMIF %u "
                    "times\n",
                    per_slot, 2 * cmds, mon.mixed_slot_switches - switches0);
    }

    // 10. quiet_o: low while a request is staged, high while the only running slot's
    //     request is pending and its thread waits; outputs registered mid-staging.
    void quiet_phase()
    {
        const unsigned s = 0;
        calm_timing();
        for (unsigned o = 1; o < kNumSlots; ++o)
            h.mmio_write(sreg(o, WEFT_SLOT_REG_CONTROL), 0); // stopped: quiet
        configure(s, default_req_buf(s), default_rsp_buf(s));
        SlotThread &t = *threads[s];
        // (The slots' resets made the synchronisation manager scan its objects, two
        // cycles an object.)
        h.step(20 + 2 * (h.mmio_read(WEFT_REG_SYNC_INFO) & 0x1ff));
        CHECK(h.dut().quiet_o, "quiet: not quiet with the thread waiting and nothing staged");
        unsigned loud = 0, quiet_bad = 0, checks = 0;
        for (unsigned round = 0; round < 3; ++round) {
            t.p_pause = round == 1 ? 100 : 0; // round 1: the thread pauses between words
            t.p_out = round == 2 ? 50 : 100;
            sc[s].to_send = 1;
            sc[s].nargs = {255};
            feed(s);
            unsigned n = 0, quiet_here = 0;
            bool last_quiet = false;
            while (!bit(h.dut().irq_o, s) && n++ < 20000) {
                h.step();
                ++loud;
                last_quiet = h.dut().quiet_o;
                quiet_here += last_quiet;
                if (n % 37 == 0) {
                    weft_tb::failures += int(h.check_outputs_registered());
                    ++checks;
                }
            }
            CHECK(bit(h.dut().irq_o, s), "quiet: request never pending");
            // The request is pending (quiet) a cycle before the registered line rises.
            quiet_bad += quiet_here - (last_quiet ? 1 : 0);
            h.step(3);
            unsigned low = 0;
            for (unsigned i = 0; i < 50; ++i) {
                h.step();
                low += !h.dut().quiet_o;
            }
            quiet_cycles += 50 - low;
            CHECK(low == 0,
                  "quiet: quiet_o low in %u of 50 cycles with the request pending and "
                  "the thread waiting",
                  low);
            handle(s, Release::Sw2hw);
            CHECK(wait_in(s, sc[s].rsp.size(), 200), "quiet: response lost");
        }
        CHECK(quiet_bad == 0, "quiet: quiet_o high in %u cycles while a request was staged",
              quiet_bad);
        registered_checks += checks;
        t.p_pause = 0;
        t.p_out = 100;
        expect_monitor_clean("quiet");
        std::printf(
            "quiet: quiet_o low in the %u cycles of staging 3 requests of 255 arguments (but the "
            "cycle each became pending), "
            "high in the %llu cycles each was pending; %u register checks mid-staging\n",
            loud, (unsigned long long)quiet_cycles, checks);
    }
};

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::printf("tb_rtl_osif_stage: seed 0x%08x\n", seed());
    Bench b;
    b.h.reset();
    CHECK(b.h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_FIFO_DEPTH)) ==
              (kFifoDepth | kFifoDepth << 16),
          "OSIF FIFO depth is not %u", kFifoDepth);

    b.register_mode();
    b.staging_phase(40);
    b.rsp_dma_phase(25);
    b.boundary_phase();
    b.early_release_phase(280);
    b.bus_error_phase();
    b.reset_phase(60);
    b.shared_port_phase(25, 60);
    b.quiet_phase();

    if (b.h.axil_errors())
        weft_tb::failures += int(b.h.axil_errors());
    std::printf("checked %llu staged requests (%llu words, up to %llu arguments, %llu across "
                "4 KiB), %llu OSIF_SW2HW releases, %llu response DMAs (%llu words, up to %llu), "
                "%u early releases (%u in the completing cycle), %u stage faults, %u resets, "
                "%llu MEMIF commands alongside, %llu AXI bursts, %llu register checks, %llu "
                "cycles\n",
                (unsigned long long)b.requests, (unsigned long long)b.request_words,
                (unsigned long long)b.max_nargs_seen, (unsigned long long)b.crossing_reqs,
                (unsigned long long)b.sw2hw_releases, (unsigned long long)b.dmas,
                (unsigned long long)b.dma_words, (unsigned long long)b.max_dma, b.early_total,
                b.early_on_done, b.faults, b.resets, (unsigned long long)b.memif_cmds,
                (unsigned long long)b.slave.log.size(), (unsigned long long)b.registered_checks,
                (unsigned long long)b.h.cycle());
    if (b.dma_zero_early)
        std::printf("OSIF_RSP_DMA read 0 with words still to move in %llu of %llu polls (%llu "
                    "with the sequence burst in flight; up to %u words left)\n",
                    (unsigned long long)b.dma_zero_early, (unsigned long long)b.dma_polls,
                    (unsigned long long)b.dma_zero_in_flight, b.dma_zero_max_left);
    CHECK(b.dma_zero_early == 0, "OSIF_RSP_DMA read 0 before its response was moved (%llu times)",
          (unsigned long long)b.dma_zero_early);
    std::printf("tb_rtl_osif_stage: %d failed checks: %s\n", weft_tb::failures,
                weft_tb::failures ? "FAIL" : "PASS");
    return weft_tb::failures ? 1 : 0;
}

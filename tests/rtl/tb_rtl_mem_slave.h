// AXI4 slave backed by a C++ memory, for the test benches of weft_static's MEMIF path.
//
// Random ready/valid delays on every channel (SlaveTiming: percent chance per cycle) and
// an optional extra delay of the B response (b_delay_min..b_delay_max cycles after the
// burst's last W beat). Memory is written when all W beats of a burst have arrived, i.e.
// before its B response. Checked on every burst: INCR, 4-byte beats, aligned address,
// no 4 KiB crossing, wlast on the last beat only, write strobes all 0 or all 1, one
// transaction at a time. Bursts outside the memory get SLVERR and touch nothing.
#ifndef WEFT_TB_RTL_MEM_SLAVE_H
#define WEFT_TB_RTL_MEM_SLAVE_H

#include "tb_check.h"
#include <cstdint>
#include <cstdio>
#include <deque>
#include <vector>

#include "tb_rtl_static_harness.h"

namespace weft_tb
{

/** Compare a memory of bytes at bus address base with the image it must hold; print the
 *  first differences and count a failed check if any. */
inline void check_memory_image(const std::vector<uint8_t> &mem, const std::vector<uint8_t> &want,
                               uint32_t base, const char *phase)
{
    unsigned bad = 0;
    for (size_t i = 0; i < mem.size(); ++i)
        if (mem[i] != want[i]) {
            if (bad < 5)
                std::printf("%s: memory 0x%08x = %02x, want %02x\n", phase,
                            base + static_cast<uint32_t>(i), mem[i], want[i]);
            ++bad;
        }
    CHECK(bad == 0, "%s: %u memory bytes differ from the expected image", phase, bad);
}

struct SlaveTiming {
    unsigned p_aw = 100, p_w = 100, p_ar = 100, p_r = 100, p_b = 100;
    /// Extra cycles a B response waits after the burst's last W beat (uniform in range).
    unsigned b_delay_min = 0, b_delay_max = 0;
};

struct BurstLog {
    bool write;
    uint32_t addr;
    unsigned beats;
};

class MemSlave : public Agent
{
  public:
    /** mem holds the bytes of [base, base + mem.size()); failed checks count in weft_tb::failures.
     */
    MemSlave(StaticHarness &h, std::vector<uint8_t> &mem, uint32_t base)
        : h_(h), mem_(mem), base_(base)
    {
    }
    SlaveTiming timing;
    std::vector<BurstLog> log;
    uint64_t write_beats = 0, read_beats = 0, masked_beats = 0, max_beats = 0;
    uint64_t last_b_cycle = 0;

    bool idle() const { return aw_.empty() && w_.empty() && b_.empty() && ar_.empty(); }

    void drive(Vweft_static &d) override
    {
        d.m_axi_awready_i = h_.chance(timing.p_aw);
        d.m_axi_wready_i = h_.chance(timing.p_w);
        d.m_axi_arready_i = h_.chance(timing.p_ar);
        if (!b_.empty() && h_.cycle() >= b_.front().at &&
            (d.m_axi_bvalid_i || h_.chance(timing.p_b))) {
            d.m_axi_bvalid_i = 1;
            d.m_axi_bresp_i = b_.front().resp;
        } else {
            d.m_axi_bvalid_i = 0;
        }
        if (!r_presenting_ && !ar_.empty() && h_.chance(timing.p_r)) {
            const Burst &b = ar_.front();
            uint32_t a = b.addr + 4 * r_beat_;
            bool ok = in_range(b.addr, b.beats);
            d.m_axi_rdata_i = ok ? word(a) : 0xDEADBEEFu;
            d.m_axi_rresp_i = ok ? 0 : 2; // SLVERR outside memory
            d.m_axi_rlast_i = (r_beat_ + 1 == b.beats);
            r_presenting_ = true;
        }
        d.m_axi_rvalid_i = r_presenting_;
    }

    void sample(Vweft_static &d) override
    {
        if (d.m_axi_awvalid_o && d.m_axi_awready_i) {
            check_addr(d.m_axi_awaddr_o, d.m_axi_awlen_o, d.m_axi_awsize_o, d.m_axi_awburst_o);
            check(outstanding() == 0, "AW while another transaction is outstanding");
            aw_.push_back({d.m_axi_awaddr_o, unsigned(d.m_axi_awlen_o) + 1});
            log.push_back({true, d.m_axi_awaddr_o, unsigned(d.m_axi_awlen_o) + 1});
        }
        if (d.m_axi_wvalid_o && d.m_axi_wready_i) {
            w_.push_back({d.m_axi_wdata_o, uint8_t(d.m_axi_wstrb_o), bool(d.m_axi_wlast_o)});
        }
        while (!aw_.empty()) {
            Burst &b = aw_.front();
            if (w_.size() < b.beats)
                break;
            bool ok = in_range(b.addr, b.beats);
            for (unsigned i = 0; i < b.beats; ++i) {
                WBeat wb = w_.front();
                w_.pop_front();
                CHECK(wb.last == (i + 1 == b.beats), "wlast on beat %u of %u (addr 0x%08x)", i,
                      b.beats, b.addr);
                if (wb.strb == 0)
                    ++masked_beats;
                CHECK(wb.strb == 0 || wb.strb == 0xF, "partial write strobe 0x%x", wb.strb);
                if (ok)
                    for (unsigned k = 0; k < 4; ++k)
                        if (wb.strb & (1u << k))
                            mem_[b.addr - base_ + 4 * i + k] = uint8_t(wb.data >> (8 * k));
                ++write_beats;
            }
            // Presented from the next cycle on, later when a B delay is set.
            uint64_t at = h_.cycle() + 1;
            if (timing.b_delay_max > 0)
                at +=
                    timing.b_delay_min + h_.rng()() % (timing.b_delay_max - timing.b_delay_min + 1);
            b_.push_back({uint8_t(ok ? 0 : 2), at});
            aw_.pop_front();
        }
        if (d.m_axi_bvalid_i && d.m_axi_bready_o) {
            b_.pop_front();
            last_b_cycle = h_.cycle();
        }
        if (d.m_axi_arvalid_o && d.m_axi_arready_i) {
            check_addr(d.m_axi_araddr_o, d.m_axi_arlen_o, d.m_axi_arsize_o, d.m_axi_arburst_o);
            check(outstanding() == 0, "AR while another transaction is outstanding");
            ar_.push_back({d.m_axi_araddr_o, unsigned(d.m_axi_arlen_o) + 1});
            log.push_back({false, d.m_axi_araddr_o, unsigned(d.m_axi_arlen_o) + 1});
        }
        if (d.m_axi_rvalid_i && d.m_axi_rready_o) {
            r_presenting_ = false;
            ++read_beats;
            if (++r_beat_ == ar_.front().beats) {
                ar_.pop_front();
                r_beat_ = 0;
            }
        }
    }

  private:
    struct Burst {
        uint32_t addr;
        unsigned beats;
    };
    struct WBeat {
        uint32_t data;
        uint8_t strb;
        bool last;
    };
    struct BResp {
        uint8_t resp;
        uint64_t at; ///< first cycle it may be presented
    };
    StaticHarness &h_;
    std::vector<uint8_t> &mem_;
    uint32_t base_;
    std::deque<Burst> aw_, ar_;
    std::deque<WBeat> w_;
    std::deque<BResp> b_;
    unsigned r_beat_ = 0;
    bool r_presenting_ = false;

    void check(bool cond, const char *what) { CHECK(cond, "%s", what); }
    unsigned outstanding() const { return unsigned(aw_.size() + b_.size() + ar_.size()); }
    bool in_range(uint32_t addr, unsigned beats) const
    {
        return addr >= base_ && uint64_t(addr) + 4ull * beats <= uint64_t(base_) + mem_.size();
    }
    uint32_t word(uint32_t a) const
    {
        const uint8_t *p = &mem_[a - base_];
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    }
    void check_addr(uint32_t addr, unsigned len, unsigned size, unsigned burst)
    {
        unsigned beats = len + 1;
        if (beats > max_beats)
            max_beats = beats;
        CHECK(size == 2, "AxSIZE %u", size);
        CHECK(burst == 1, "AxBURST %u", burst);
        CHECK((addr & 3) == 0, "unaligned burst address 0x%08x", addr);
        CHECK((addr & 0xFFFu) + 4u * beats <= 0x1000u, "burst 0x%08x + %u beats crosses 4 KiB",
              addr, beats);
    }
};

} // namespace weft_tb

#endif // WEFT_TB_RTL_MEM_SLAVE_H

// Test harness around the Verilator model of weft_static; see tb_rtl_static_harness.h.
#include "tb_rtl_static_harness.h"

#include "weft/osif_protocol.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

namespace weft_tb
{

/** AXI4-Lite master: one transaction at a time, random valid/ready delays. */
class StaticHarness::AxilMaster : public Agent
{
  public:
    explicit AxilMaster(StaticHarness &h) : h_(h) {}

    void start_write(uint32_t addr, uint32_t data, uint8_t strb)
    {
        write_ = true;
        addr_ = addr;
        data_ = data;
        strb_ = strb;
        aw_done_ = w_done_ = false;
        busy_ = true;
    }
    void start_read(uint32_t addr)
    {
        write_ = false;
        addr_ = addr;
        aw_done_ = w_done_ = false;
        busy_ = true;
    }
    bool busy() const { return busy_; }
    uint32_t rdata() const { return rdata_; }

    void drive(Vweft_static &d) override
    {
        const AxilTiming &t = h_.axil_timing();
        // A valid once raised stays up until its handshake.
        d.s_axil_awaddr_i = static_cast<uint16_t>(addr_);
        d.s_axil_araddr_i = static_cast<uint16_t>(addr_);
        d.s_axil_wdata_i = data_;
        d.s_axil_wstrb_i = strb_;
        if (!busy_) {
            d.s_axil_awvalid_i = d.s_axil_wvalid_i = d.s_axil_arvalid_i = 0;
            d.s_axil_bready_i = d.s_axil_rready_i = 0;
            return;
        }
        if (write_) {
            if (!aw_done_ && !d.s_axil_awvalid_i)
                d.s_axil_awvalid_i = h_.chance(t.p_valid);
            if (!w_done_ && !d.s_axil_wvalid_i)
                d.s_axil_wvalid_i = h_.chance(t.p_valid);
            d.s_axil_arvalid_i = 0;
            d.s_axil_bready_i = h_.chance(t.p_ready);
            d.s_axil_rready_i = 0;
        } else {
            if (!aw_done_ && !d.s_axil_arvalid_i)
                d.s_axil_arvalid_i = h_.chance(t.p_valid);
            d.s_axil_awvalid_i = d.s_axil_wvalid_i = 0;
            d.s_axil_rready_i = h_.chance(t.p_ready);
            d.s_axil_bready_i = 0;
        }
    }

    void sample(Vweft_static &d) override
    {
        if (!busy_)
            return;
        if (write_) {
            if (d.s_axil_awvalid_i && d.s_axil_awready_o) {
                aw_done_ = true;
                next_awvalid_ = false;
            }
            if (d.s_axil_wvalid_i && d.s_axil_wready_o) {
                w_done_ = true;
                next_wvalid_ = false;
            }
            if (d.s_axil_bvalid_o && d.s_axil_bready_i) {
                if (!aw_done_ || !w_done_) {
                    std::printf("axil: B before AW/W handshakes\n");
                    ++h_.axil_errors_;
                }
                if (d.s_axil_bresp_o != 0)
                    ++h_.axil_errors_;
                busy_ = false;
            }
        } else {
            if (d.s_axil_arvalid_i && d.s_axil_arready_o) {
                aw_done_ = true;
                next_arvalid_ = false;
            }
            if (d.s_axil_rvalid_o && d.s_axil_rready_i) {
                if (!aw_done_) {
                    std::printf("axil: R before AR handshake\n");
                    ++h_.axil_errors_;
                }
                if (d.s_axil_rresp_o != 0)
                    ++h_.axil_errors_;
                rdata_ = d.s_axil_rdata_o;
                busy_ = false;
            }
        }
    }

    // Lower the valids that completed their handshake (applied after the edge).
    void after_edge(Vweft_static &d)
    {
        if (!next_awvalid_)
            d.s_axil_awvalid_i = 0;
        if (!next_wvalid_)
            d.s_axil_wvalid_i = 0;
        if (!next_arvalid_)
            d.s_axil_arvalid_i = 0;
        next_awvalid_ = next_wvalid_ = next_arvalid_ = true;
    }

  private:
    StaticHarness &h_;
    bool write_ = false, busy_ = false;
    bool aw_done_ = false, w_done_ = false;
    bool next_awvalid_ = true, next_wvalid_ = true, next_arvalid_ = true;
    uint32_t addr_ = 0, data_ = 0, rdata_ = 0;
    uint8_t strb_ = 0xF;
};

StaticHarness::StaticHarness(uint32_t seed) : ctx_(std::make_unique<VerilatedContext>()), rng_(seed)
{
    ctx_->fatalOnError(true);
    dut_ = std::make_unique<Vweft_static>(ctx_.get(), "weft_static");
    axil_ = std::make_unique<AxilMaster>(*this);
}

StaticHarness::~StaticHarness()
{
    dut_->final();
}

void StaticHarness::reset()
{
    Vweft_static &d = *dut_;
    d.rst_ni = 0;
    d.clk_i = 0;
    d.s_axil_awvalid_i = d.s_axil_wvalid_i = d.s_axil_arvalid_i = 0;
    d.s_axil_bready_i = d.s_axil_rready_i = 0;
    d.m_axi_awready_i = d.m_axi_wready_i = d.m_axi_arready_i = 0;
    d.m_axi_bvalid_i = d.m_axi_rvalid_i = 0;
    d.skip_i = 0;
    for (unsigned i = 0; i < kNumSlots * WEFT_SLOT_REQ_WORDS; ++i)
        d.slot_req_i[i] = 0;
    for (int i = 0; i < 4; ++i) {
        d.clk_i = 0;
        d.eval();
        d.clk_i = 1;
        d.eval();
    }
    d.rst_ni = 1;
    step(2);
}

void StaticHarness::step()
{
    Vweft_static &d = *dut_;
    d.clk_i = 0;
    axil_->drive(d);
    for (Agent *a : agents_)
        a->drive(d);
    d.eval();
    axil_->sample(d);
    for (Agent *a : agents_)
        a->sample(d);
    d.clk_i = 1;
    d.eval();
    axil_->after_edge(d);
    ++cycle_;
    ctx_->timeInc(1);
}

void StaticHarness::set_window(unsigned slot, unsigned w, uint32_t base, uint32_t size,
                               uint32_t perm)
{
    mmio_write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_WIN_BASE(w)), base);
    mmio_write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_WIN_SIZE(w)), size);
    mmio_write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_WIN_PERM(w)), perm);
}

uint32_t StaticHarness::mmio_read(uint32_t addr)
{
    axil_->start_read(addr);
    unsigned guard = 0;
    while (axil_->busy()) {
        step();
        if (++guard > 10000) {
            std::printf("axil: read of 0x%04x never completed\n", addr);
            std::exit(2);
        }
    }
    return axil_->rdata();
}

void StaticHarness::mmio_write(uint32_t addr, uint32_t data, uint8_t strb)
{
    axil_->start_write(addr, data, strb);
    unsigned guard = 0;
    while (axil_->busy()) {
        step();
        if (++guard > 10000) {
            std::printf("axil: write of 0x%04x never completed\n", addr);
            std::exit(2);
        }
    }
}

namespace
{

/** Every output that must not depend combinationally on an input. */
struct Outputs {
    uint32_t words[64];
    unsigned n = 0;
    void add(uint32_t v) { words[n++] = v; }
    template <typename W> void add_wide(const W &w, unsigned words)
    {
        for (unsigned i = 0; i < words; ++i)
            add(w[i]);
    }
};

// The name of output word i of capture(), for messages.
std::string output_name(unsigned i)
{
    static const char *const kHead[] = {"slot_rst_no", "slot_run_o", "irq_o"};
    static const char *const kTail[] = {
        "m_axi_aw*", "m_axi_awaddr_o", "m_axi_w*",       "m_axi_wdata_o",      "m_axi_bready_o",
        "m_axi_ar*", "m_axi_araddr_o", "m_axi_rready_o", "s_axil_ready/valid", "s_axil_rdata_o"};
    constexpr unsigned kRsp = kNumSlots * WEFT_SLOT_RSP_WORDS;
    if (i < 3)
        return kHead[i];
    if (i < 3 + kRsp)
        return "slot_rsp_o[" + std::to_string(i - 3) + "]";
    return i - 3 - kRsp < sizeof kTail / sizeof kTail[0] ? kTail[i - 3 - kRsp] : "?";
}

Outputs capture(Vweft_static &d)
{
    Outputs o;
    o.add(d.slot_rst_no);
    o.add(d.slot_run_o);
    o.add(d.irq_o);
    o.add_wide(d.slot_rsp_o, kNumSlots * WEFT_SLOT_RSP_WORDS);
    o.add(d.m_axi_awlen_o | d.m_axi_awsize_o << 8 | d.m_axi_awburst_o << 11 |
          d.m_axi_awvalid_o << 13);
    o.add(d.m_axi_awaddr_o);
    o.add(d.m_axi_wstrb_o | d.m_axi_wlast_o << 4 | d.m_axi_wvalid_o << 5);
    o.add(d.m_axi_wdata_o);
    o.add(d.m_axi_bready_o);
    o.add(d.m_axi_arlen_o | d.m_axi_arsize_o << 8 | d.m_axi_arburst_o << 11 |
          d.m_axi_arvalid_o << 13);
    o.add(d.m_axi_araddr_o);
    o.add(d.m_axi_rready_o);
    o.add(d.s_axil_awready_o | d.s_axil_wready_o << 1 | d.s_axil_bvalid_o << 2 |
          d.s_axil_bresp_o << 3 | d.s_axil_arready_o << 5 | d.s_axil_rvalid_o << 6 |
          d.s_axil_rresp_o << 7);
    o.add(d.s_axil_rdata_o);
    return o;
}

constexpr unsigned kSlotReqWords = kNumSlots * WEFT_SLOT_REQ_WORDS;

} // namespace

// Calls f on every narrow input and w on every packed slot-data input of the model:
// the inputs check_outputs_registered() perturbs.
template <typename F, typename W> void for_each_input(Vweft_static &d, F &&f, W &&w)
{
    f(d.m_axi_awready_i);
    f(d.m_axi_wready_i);
    f(d.m_axi_bresp_i);
    f(d.m_axi_bvalid_i);
    f(d.m_axi_arready_i);
    f(d.m_axi_rdata_i);
    f(d.m_axi_rresp_i);
    f(d.m_axi_rlast_i);
    f(d.m_axi_rvalid_i);
    f(d.s_axil_awaddr_i);
    f(d.s_axil_awvalid_i);
    f(d.s_axil_wdata_i);
    f(d.s_axil_wstrb_i);
    f(d.s_axil_wvalid_i);
    f(d.s_axil_bready_i);
    f(d.s_axil_araddr_i);
    f(d.s_axil_arvalid_i);
    f(d.s_axil_rready_i);
    w(d.slot_req_i);
}

unsigned StaticHarness::check_outputs_registered()
{
    Vweft_static &d = *dut_;
    d.clk_i = 0;
    d.eval();
    const Outputs base = capture(d);
    std::vector<uint32_t> saved;
    for_each_input(
        d, [&](auto &v) { saved.push_back(uint32_t(v)); },
        [&](auto &v) {
            for (unsigned i = 0; i < kSlotReqWords; ++i)
                saved.push_back(v[i]);
        });
    unsigned changed = 0;
    for (int trial = 0; trial < 3; ++trial) {
        for_each_input(
            d, [&](auto &v) { v = static_cast<std::remove_reference_t<decltype(v)>>(rng_()); },
            [&](auto &v) {
                for (unsigned i = 0; i < kSlotReqWords; ++i)
                    v[i] = static_cast<uint32_t>(rng_());
            });
        d.eval();
        const Outputs now = capture(d);
        for (unsigned i = 0; i < base.n; ++i)
            if (now.words[i] != base.words[i]) {
                std::printf("output %s follows an input combinationally\n", output_name(i).c_str());
                ++changed;
            }
    }
    size_t k = 0;
    for_each_input(
        d, [&](auto &v) { v = static_cast<std::remove_reference_t<decltype(v)>>(saved[k++]); },
        [&](auto &v) {
            for (unsigned i = 0; i < kSlotReqWords; ++i)
                v[i] = saved[k++];
        });
    d.eval();
    return changed;
}

} // namespace weft_tb

// Test harness around the Verilator model of weft_static, built for the default platform
// description (platform/default.yaml: 4 slots, 2 windows and 4 link bindings each, a ring
// of 4 links).
//
// One clock cycle (step()):
//   clk = 0; every agent drives its inputs from the DUT's registered outputs; eval;
//   every agent samples the handshakes of this cycle; clk = 1; eval.
// weft_static's AXI and slot outputs are functions of registers only, so what the agents
// see before the edge is what the DUT acts on at the edge.
//
// MMIO (mmio_read/mmio_write) runs one AXI4-Lite transaction with random delays on every
// channel (valid and ready), stepping the clock (and every agent) until it completes.
#ifndef WEFT_TB_RTL_STATIC_HARNESS_H
#define WEFT_TB_RTL_STATIC_HARNESS_H

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include <verilated.h>

#include "Vweft_static.h"
#include "weft/osif_protocol.h"

namespace weft_tb
{

constexpr unsigned kNumSlots = 4;

/** Something that takes part in every clock cycle. */
class Agent
{
  public:
    virtual ~Agent() = default;
    /** Set DUT inputs before the edge (outputs are the registered ones). */
    virtual void drive(Vweft_static &dut) = 0;
    /** Record the handshakes of this cycle (inputs and outputs are settled). */
    virtual void sample(Vweft_static &dut) = 0;
};

/** Delays (in percent chance per cycle) the AXI4-Lite master applies. */
struct AxilTiming {
    unsigned p_valid = 60; ///< chance to raise awvalid/wvalid/arvalid in a cycle
    unsigned p_ready = 40; ///< chance to raise bready/rready in a cycle
};

class StaticHarness
{
  public:
    explicit StaticHarness(uint32_t seed);
    ~StaticHarness();

    Vweft_static &dut() { return *dut_; }
    std::mt19937 &rng() { return rng_; }
    uint64_t cycle() const { return cycle_; }
    void add_agent(Agent *a) { agents_.push_back(a); }
    AxilTiming &axil_timing() { return axil_timing_; }

    /** Apply reset for a few cycles. */
    void reset();
    /** One clock cycle. */
    void step();
    void step(unsigned n)
    {
        for (unsigned i = 0; i < n; ++i)
            step();
    }

    uint32_t mmio_read(uint32_t addr);
    void mmio_write(uint32_t addr, uint32_t data, uint8_t strb = 0xF);
    /** Set memory window w of a slot (WIN_BASE, WIN_SIZE, WIN_PERM). */
    void set_window(unsigned slot, unsigned w, uint32_t base, uint32_t size, uint32_t perm);
    /** Number of AXI4-Lite responses that were not OKAY. */
    unsigned axil_errors() const { return axil_errors_; }

    bool chance(unsigned percent) { return (rng_() % 100) < percent; }

    /**
     * Boundary rule 1 and AXI's no-combinational-path rule: with the clock held low,
     * drive random values on every slot, AXI4 and AXI4-Lite input and check that no
     * output towards a slot or on an AXI port changes. Inputs are restored afterwards.
     * Returns the number of outputs that changed (0 when every one is registered).
     */
    unsigned check_outputs_registered();

  private:
    class AxilMaster;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vweft_static> dut_;
    std::mt19937 rng_;
    uint64_t cycle_ = 0;
    std::vector<Agent *> agents_;
    std::unique_ptr<AxilMaster> axil_;
    AxilTiming axil_timing_;
    unsigned axil_errors_ = 0;
};

/** A field of slot s's side of the boundary (weft/osif_protocol.h, WEFT_SLOT_*): RSP(d, s,
 *  OSIF_IN_VALID) reads what the static region drives, REQ/SET_REQ what the thread drives. */
#define RSP(d, s, field) WEFT_SLOT_GET((d).slot_rsp_o.data() + (s)*WEFT_SLOT_RSP_WORDS, RSP_##field)
#define REQ(d, s, field) WEFT_SLOT_GET((d).slot_req_i.data() + (s)*WEFT_SLOT_REQ_WORDS, REQ_##field)
#define SET_REQ(d, s, field, v)                                                                    \
    WEFT_SLOT_SET((d).slot_req_i.data() + (s)*WEFT_SLOT_REQ_WORDS, REQ_##field,                    \
                  static_cast<uint32_t>(v))

inline bool bit(uint32_t v, unsigned s)
{
    return (v >> s) & 1u;
}

} // namespace weft_tb

#endif // WEFT_TB_RTL_STATIC_HARNESS_H

// Self-checking test bench of a static region built without OS services: the small
// platform (platform/small.yaml: four slots, no synchronisation manager, thread manager,
// events, reconfiguration interface or hardware links; docs/platform.md, "Services").
//
// Checked:
// * SERVICES reads 0, and so do NUM_LINKS and every register of the services left out
//   (SYNC_INFO, TM_INFO, the FRI_* ones, a software context's call), before and after
//   software writes them; a START written to FRI_CTRL loads nothing;
// * a slot has no link bindings or synchronisation ranges: CAPS says 0 bindings, and
//   LINK_BIND and SYNC_BIND read 0 after a write;
// * every OS call of a thread reaches software, the ones a full static region would serve
//   itself included (a semaphore post, a mailbox put), and software's response words reach
//   the thread;
// * the outputs towards the slots and on the AXI ports are registers (boundary rule 1).
#include "tb_check.h"
#include <cstdint>
#include <cstdio>
#include <vector>

#include "tb_rtl_static_harness.h"
#include "weft/osif_protocol.h"

using namespace weft_tb;

// A check of a value, which names both sides when they differ.
#define CHECK_EQ(got, want)                                                                        \
    do {                                                                                           \
        const auto g_ = (got);                                                                     \
        const auto w_ = (want);                                                                    \
        CHECK(g_ == w_, "%s is %#llx, not %#llx", #got, (unsigned long long)g_,                    \
              (unsigned long long)w_);                                                             \
    } while (0)

namespace
{

// The thread of slot 0: offers its request words one by one and takes every response
// word.
class Thread : public Agent
{
  public:
    std::vector<uint32_t> out; // words still to send, in order
    std::vector<uint32_t> in;  // words received
    void drive(Vweft_static &d) override
    {
        SET_REQ(d, 0, OSIF_OUT_VALID, sent_ < out.size());
        SET_REQ(d, 0, OSIF_OUT_DATA, sent_ < out.size() ? out[sent_] : 0);
        SET_REQ(d, 0, OSIF_IN_READY, 1);
    }
    void sample(Vweft_static &d) override
    {
        if (sent_ < out.size() && RSP(d, 0, OSIF_OUT_READY))
            sent_++;
        if (RSP(d, 0, OSIF_IN_VALID))
            in.push_back(RSP(d, 0, OSIF_IN_DATA));
    }
    size_t sent() const { return sent_; }

  private:
    size_t sent_ = 0;
};

void services_read_as_absent(StaticHarness &h)
{
    const uint32_t absent[] = {
        WEFT_REG_SERVICES,   WEFT_REG_NUM_LINKS,        WEFT_REG_SYNC_INFO,
        WEFT_REG_TM_INFO,    WEFT_REG_TM_CMD,           WEFT_REG_FRI_ADDR,
        WEFT_REG_FRI_SIZE,   WEFT_REG_FRI_RATE,         WEFT_REG_FRI_CTRL,
        WEFT_REG_FRI_STATUS, WEFT_REG_SYNC_CTX_CALL(0), WEFT_REG_TIMER_PERIOD(0)};
    for (uint32_t reg : absent)
        CHECK_EQ(h.mmio_read(reg), 0u);
    h.mmio_write(WEFT_REG_FRI_ADDR, 0x10000000u);
    h.mmio_write(WEFT_REG_FRI_SIZE, 4096);
    h.mmio_write(WEFT_REG_FRI_CTRL, WEFT_FRI_CTRL_START | 1u);
    h.mmio_write(WEFT_REG_TM_CMD, WEFT_TM_OP_CREATE);
    h.mmio_write(WEFT_REG_SYNC_CTX_CALL(0), WEFT_SYNC_OP_SEM_POST);
    h.mmio_write(WEFT_REG_TIMER_PERIOD(0), 100);
    bool loaded = false;
    for (unsigned i = 0; i < 200; i++) {
        h.step();
        loaded = loaded || h.dut().fri_load_o;
    }
    CHECK(!loaded, "a START without a reconfiguration interface loaded a slot");
    for (uint32_t reg : absent)
        CHECK_EQ(h.mmio_read(reg), 0u);
    CHECK_EQ(h.mmio_read(WEFT_REG_IRQ_PENDING), 0u); // no OS services' line either
    CHECK_EQ(h.axil_errors(), 0u);
}

void slots_bind_nothing(StaticHarness &h)
{
    for (unsigned s = 0; s < kNumSlots; s++) {
        const uint32_t caps = h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CAPS));
        CHECK_EQ(caps & WEFT_CAPS_WINDOWS_MASK, 2u);
        CHECK_EQ((caps >> WEFT_CAPS_BINDS_SHIFT) & WEFT_CAPS_BINDS_MASK, 0u);
        h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_LINK_BIND(0)), WEFT_LINK_BIND_EN | 3u);
        h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_SYNC_BIND(0)), WEFT_SYNC_BIND_EN | 7u);
        CHECK_EQ(h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_LINK_BIND(0))), 0u);
        CHECK_EQ(h.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_SYNC_BIND(0))), 0u);
    }
}

// A semaphore post and a mailbox put on the handles written above go to software whole;
// software's answer reaches the thread.
void every_call_reaches_software(StaticHarness &h, Thread &t)
{
    h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RUN);
    const std::vector<uint32_t> req = {weft_osif_req_header(WEFT_OSIF_CMD_SEM_POST, 7, 0),
                                       weft_osif_req_header(WEFT_OSIF_CMD_MBOX_PUT, 3, 1),
                                       0xC0FFEEu};
    t.out = req;
    for (unsigned i = 0; i < 100 && t.sent() < req.size(); i++)
        h.step();
    CHECK_EQ(t.sent(), req.size());
    CHECK_EQ(h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_STATUS)) & 0xffffu, uint32_t(req.size()));
    for (uint32_t word : req)
        CHECK_EQ(h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_OSIF_HW2SW)), word);
    const uint32_t rsp = weft_osif_resp_header(WEFT_OSIF_CMD_SEM_POST, WEFT_OSIF_OK, 0);
    h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_OSIF_SW2HW), rsp);
    for (unsigned i = 0; i < 20 && t.in.empty(); i++)
        h.step();
    CHECK_EQ(t.in.size(), 1u);
    if (!t.in.empty())
        CHECK_EQ(t.in[0], rsp);
    CHECK_EQ(h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_LINK_CALLS)), 0u);
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    StaticHarness h(0x5a11u);
    Thread t;
    h.add_agent(&t);
    h.reset();
    CHECK_EQ(h.mmio_read(WEFT_REG_NUM_SLOTS), kNumSlots);
    services_read_as_absent(h);
    slots_bind_nothing(h);
    every_call_reaches_software(h, t);
    CHECK_EQ(h.check_outputs_registered(), 0u);
    std::printf("tb_rtl_small_platform: %d errors: %s\n", weft_tb::failures,
                weft_tb::failures ? "FAIL" : "PASS");
    return weft_tb::failures ? 1 : 0;
}

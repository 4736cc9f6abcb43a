// Self-checking test bench of the slots' ACC windows (weft_slot_acc in weft_slot_if, and
// weft_axil_regs holding an access until the thread answers; docs/hls.md): registers a
// hardware thread holds itself, such as an accelerator's control block.
//
// The test bench plays a thread in every slot with 16 registers of its own that answers
// each access after a random delay. Checked:
// * a write reaches the thread of its slot with its offset, data and byte strobes, and
//   only that thread; a read returns what the thread answers, for random accesses against
//   a model at random delays;
// * a slot that is not running answers at once: reads 0, its thread sees no access;
// * a thread that never answers: the access ends after ACC_TIMEOUT cycles, reads 0, and
//   FAULT.ACC is set (write 1 clears it); the other slots are untouched;
// * the thread's interrupt shows in IRQ_STATUS.ACC and, with IRQ_EN, on its line;
// * a write that arrives while a read waits for its thread waits behind it: the read
//   completes with its own answer and reaches the thread once, then the write;
// * boundary rule 1 holds with accesses under way.
#include "tb_check.h"
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>

#include "tb_rtl_static_harness.h"
#include "weft/osif_protocol.h"

using namespace weft_tb;

namespace
{

constexpr uint32_t kSeed = 0xacc0acc0u;
constexpr unsigned kAccWords = WEFT_SLOT_REG_ACC_COUNT;

uint32_t acc(unsigned slot, unsigned word)
{
    return WEFT_SLOT_REG(slot, WEFT_SLOT_REG_ACC(word));
}

// The thread of one slot: 16 registers, answers after `delay` cycles (never when silent).
struct RegsThread : Agent {
    unsigned slot;
    std::array<uint32_t, kAccWords> regs{};
    StaticHarness *h;
    bool silent = false, irq = false;
    unsigned min_delay = 0, max_delay = 8;
    // What the thread saw.
    unsigned accesses = 0, writes = 0;
    uint32_t last_addr = 0, last_wdata = 0, last_strb = 0;
    // The access under way.
    bool busy = false, acked = false;
    unsigned wait = 0;

    RegsThread(StaticHarness *harness, unsigned s) : slot(s), h(harness) {}

    void drive(Vweft_static &d) override
    {
        const bool valid = RSP(d, slot, REGS_VALID);
        if (!valid) {
            busy = acked = false;
            SET_REQ(d, slot, REGS_ACK, 0);
        } else if (!busy) {
            busy = true;
            wait = min_delay + h->rng()() % (max_delay - min_delay + 1);
            accesses++;
        }
        if (busy && !acked && !silent && wait-- == 0) {
            const unsigned addr = RSP(d, slot, REGS_ADDR);
            const unsigned word = addr / 4;
            last_addr = addr;
            if (RSP(d, slot, REGS_WRITE)) {
                writes++;
                last_wdata = RSP(d, slot, REGS_WDATA);
                last_strb = RSP(d, slot, REGS_STRB);
                uint32_t mask = 0;
                for (unsigned b = 0; b < 4; b++)
                    if (last_strb >> b & 1u)
                        mask |= 0xFFu << (8 * b);
                regs[word] = (regs[word] & ~mask) | (last_wdata & mask);
                SET_REQ(d, slot, REGS_RD_DATA, 0);
            } else {
                SET_REQ(d, slot, REGS_RD_DATA, regs[word]);
            }
            SET_REQ(d, slot, REGS_ACK, 1);
            acked = true;
        }
        SET_REQ(d, slot, REGS_IRQ, irq);
    }
    void sample(Vweft_static &) override {}
};

// A second AXI4-Lite master's write, driven over the harness's own master (agents drive
// after it) once `thread` has seen more than `after` accesses: while the harness's read
// waits for it.
struct SideWrite : Agent {
    const RegsThread *thread = nullptr;
    unsigned after = 0;
    bool armed = false, aw = false, w = false, done = false;
    uint32_t addr = 0, data = 0;
    void drive(Vweft_static &d) override
    {
        armed = armed || (thread && thread->accesses > after);
        if (!armed || done)
            return;
        d.s_axil_awaddr_i = static_cast<uint16_t>(addr);
        d.s_axil_wdata_i = data;
        d.s_axil_wstrb_i = 0xF;
        d.s_axil_awvalid_i = !aw;
        d.s_axil_wvalid_i = !w;
        d.s_axil_bready_i = aw && w;
    }
    void sample(Vweft_static &d) override
    {
        if (!armed || done)
            return;
        aw = aw || (d.s_axil_awvalid_i && d.s_axil_awready_o);
        w = w || (d.s_axil_wvalid_i && d.s_axil_wready_o);
        done = d.s_axil_bvalid_o && d.s_axil_bready_i;
    }
};

// Checks boundary rule 1 once, in a cycle where `thread` has an access waiting on it.
struct RuleCheck : Agent {
    StaticHarness *h = nullptr;
    const RegsThread *thread = nullptr;
    bool done = false;
    unsigned changed = 0;
    void drive(Vweft_static &) override
    {
        if (!done && thread && thread->busy) {
            changed = h->check_outputs_registered();
            done = true;
        }
    }
    void sample(Vweft_static &) override {}
};

void run_slot(StaticHarness &h, unsigned s)
{
    h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RUN);
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    StaticHarness h(kSeed);
    std::array<std::unique_ptr<RegsThread>, kNumSlots> t;
    for (unsigned s = 0; s < kNumSlots; s++) {
        t[s] = std::make_unique<RegsThread>(&h, s);
        h.add_agent(t[s].get());
    }
    RuleCheck rule_check;
    rule_check.h = &h;
    h.add_agent(&rule_check);
    h.reset();

    // A slot not running answers at once and its thread sees nothing.
    CHECK(h.mmio_read(acc(0, 4)) == 0, "stopped slot reads 0");
    h.mmio_write(acc(0, 4), 0x11111111u);
    CHECK(t[0]->accesses == 0, "a stopped slot's thread saw %u accesses", t[0]->accesses);
    CHECK((h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_FAULT)) & WEFT_FAULT_ACC) == 0,
          "no fault for a stopped slot");

    for (unsigned s = 0; s < kNumSlots; s++)
        run_slot(h, s);

    // A write with its offset, data and strobes reaches its own slot's thread only.
    h.mmio_write(acc(1, 4), 0x12345678u);
    CHECK(t[1]->writes == 1 && t[1]->last_addr == 0x10 && t[1]->last_wdata == 0x12345678u &&
              t[1]->last_strb == 0xF,
          "write seen as addr 0x%x data 0x%x strb 0x%x (%u writes)", t[1]->last_addr,
          t[1]->last_wdata, t[1]->last_strb, t[1]->writes);
    CHECK(t[0]->accesses == 0 && t[2]->accesses == 0 && t[3]->accesses == 0,
          "other slots saw the access");
    h.mmio_write(acc(1, 4), 0xAABBCCDDu, 0x6);
    CHECK(t[1]->last_strb == 0x6, "strobes 0x%x", t[1]->last_strb);
    CHECK(h.mmio_read(acc(1, 4)) == 0x12BBCC78u, "read back 0x%08x", h.mmio_read(acc(1, 4)));

    // Random accesses at random delays against a model of every slot's registers.
    std::array<std::array<uint32_t, kAccWords>, kNumSlots> model{};
    for (unsigned s = 0; s < kNumSlots; s++)
        model[s] = t[s]->regs;
    for (int i = 0; i < 2000; i++) {
        const unsigned s = h.rng()() % kNumSlots, w = h.rng()() % kAccWords;
        t[s]->max_delay = h.rng()() % 30;
        if (h.chance(50)) {
            const uint32_t v = h.rng()();
            h.mmio_write(acc(s, w), v);
            model[s][w] = v;
        } else {
            const uint32_t got = h.mmio_read(acc(s, w));
            CHECK(got == model[s][w], "slot %u word %u: read 0x%08x, model 0x%08x", s, w, got,
                  model[s][w]);
        }
    }

    // A thread that never answers: the access ends after ACC_TIMEOUT cycles with 0.
    t[2]->silent = true;
    rule_check.thread = t[2].get(); // checked once while this access waits
    const uint64_t c0 = h.cycle();
    CHECK(h.mmio_read(acc(2, 0)) == 0, "silent thread reads 0");
    const uint64_t took = h.cycle() - c0;
    CHECK(took >= WEFT_ACC_TIMEOUT && took < WEFT_ACC_TIMEOUT + 64,
          "silent access took %llu cycles", static_cast<unsigned long long>(took));
    uint32_t fault = h.mmio_read(WEFT_SLOT_REG(2, WEFT_SLOT_REG_FAULT));
    CHECK(fault == WEFT_FAULT_ACC, "FAULT 0x%x after a timeout", fault);
    CHECK(h.mmio_read(WEFT_SLOT_REG(2, WEFT_SLOT_REG_IRQ_STATUS)) & WEFT_IRQ_FAULT,
          "IRQ_STATUS.FAULT after a timeout");
    h.mmio_write(WEFT_SLOT_REG(2, WEFT_SLOT_REG_FAULT), WEFT_FAULT_ACC);
    fault = h.mmio_read(WEFT_SLOT_REG(2, WEFT_SLOT_REG_FAULT));
    CHECK(fault == 0, "FAULT 0x%x after clearing", fault);
    CHECK(h.mmio_read(acc(3, 5)) == model[3][5], "slot 3 untouched by slot 2's timeout");
    t[2]->silent = false;

    // The thread's interrupt: IRQ_STATUS.ACC, and the line with IRQ_EN.
    t[0]->irq = true;
    h.step(2);
    CHECK(h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_IRQ_STATUS)) == WEFT_IRQ_ACC,
          "IRQ_STATUS 0x%x", h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_IRQ_STATUS)));
    CHECK(!bit(h.dut().irq_o, 0), "line without IRQ_EN");
    h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
    h.step(2);
    CHECK(bit(h.dut().irq_o, 0), "line with IRQ_EN");
    h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_RESET);
    h.step(2);
    CHECK(!bit(h.dut().irq_o, 0), "no line from a thread held in reset");
    t[0]->irq = false;

    // A write arriving while a read waits for slot 3's thread goes after it.
    SideWrite side; // stays registered with the harness until the end
    h.add_agent(&side);
    {
        RegsThread &th = *t[3];
        th.min_delay = th.max_delay = 40;
        const unsigned acc0 = th.accesses, wr0 = th.writes;
        const uint32_t want = th.regs[3];
        side.addr = acc(3, 3); // the register the read waits on: the order shows
        side.data = 0x7E577E57u;
        side.thread = &th;
        side.after = acc0;
        const uint32_t got = h.mmio_read(acc(3, 3));
        for (int i = 0; i < 500 && !side.done; i++)
            h.step();
        CHECK(side.done, "the side write never completed");
        CHECK(got == want, "the waiting read got 0x%08x, its register holds 0x%08x", got, want);
        CHECK(th.accesses - acc0 == 2 && th.writes - wr0 == 1,
              "the thread saw %u accesses (%u writes), want the read and then the write",
              th.accesses - acc0, th.writes - wr0);
        CHECK(th.regs[3] == 0x7E577E57u, "the side write landed as 0x%08x", th.regs[3]);
        side.thread = nullptr;
        side.armed = false;
        th.min_delay = 0;
        th.max_delay = 8;
    }

    // Outputs stay registered with accesses under way.
    CHECK(rule_check.done && rule_check.changed == 0,
          "boundary rule 1 with an access under way: %u outputs changed (checked: %d)",
          rule_check.changed, rule_check.done);
    CHECK(h.check_outputs_registered() == 0, "boundary rule 1 at rest");
    CHECK(h.axil_errors() == 0, "%u AXI4-Lite errors", h.axil_errors());

    std::printf("rtl_acc: %s (%d failures)\n", weft_tb::failures ? "FAILED" : "ok",
                weft_tb::failures);
    return weft_tb::failures ? 1 : 0;
}

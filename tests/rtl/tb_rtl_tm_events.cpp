// Self-checking test bench of weft_tm_events (hw/rtl/weft_tm_events.sv): interrupts as
// scheduling requests (CBIS) and the timers, in front of the thread manager. Registers
// TM_BIND, TM_RAISE, TM_EV_PENDING, TM_EV_LAT and TIMER_PERIOD/CTRL/LEFT/FIRED
// (protocol/osif.yaml), driven as weft_axil_regs drives a block's global registers:
// reg_we_i for one cycle with reg_addr_i, reg_wdata_i and the strobes (whole words
// only: a write with a strobe low is ignored); reads are combinational on reg_addr_i.
// The thread manager's side is a stub: it takes an event when it likes (ev_ready_i) and
// answers ev_done_i some cycles later, with ev_switched_i at random.
//
// Directed checks, each written out from the registers' description: a one-shot timer
// fires once, TIMER_PERIOD edges after its TIMER_CTRL write (TIMER_LEFT counts down to
// it, TIMER_FIRED goes to 1, ENABLE clears), a periodic one every TIMER_PERIOD edges, a
// write of TIMER_CTRL starts it over, PERIOD 0 never fires, busy_o high exactly while a
// timer runs; a line's rising edge fires its event only while it is bound (a line bound
// while high fires at once: only bound lines are followed), TM_RAISE fires
// the bound ones; pending events go out one at a time, lowest number first, each as its
// thread (ev_tid_o), the next only after the last one's ev_done_i; an event that fires
// again while pending counts once and keeps its first stamp; a new binding drops what is
// pending; TM_EV_LAT's fields (cycles from firing to ev_done_i on the cycle_i counter,
// which the test bench drives and lets wrap, the event's number, SWITCHED, VALID);
// registers past the last event or timer read 0 and ignore writes.
// Then random traffic against a cycle-by-cycle model of the same description: every
// cycle, ev_valid_o, ev_tid_o, busy_o and the register at reg_addr_i are compared, and
// every few cycles every register; still_o high must mean that the edge changes nothing.
//
// Three shapes: 4 timers and 3 lines; 8 timers and 24 lines (32 events, the most); no
// timer and 2 lines.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include <verilated.h>

#include "Vweft_tm_events_t0l2.h"
#include "Vweft_tm_events_t4l3.h"
#include "Vweft_tm_events_t8l24.h"
#include "tb_check.h"
#include "tb_reset.h"
#include "weft/osif_protocol.h"

namespace
{

// ---- the reference model -----------------------------------------------------------------

struct Inputs {
    bool we = false;
    uint32_t addr = 0, wdata = 0, wstrb = 0xF;
    uint32_t cycle = 0; // cycle_i (16 bits)
    uint32_t lines = 0;
    bool ev_ready = false, ev_done = false, ev_switched = false;
};

struct Model {
    unsigned nt, nl, ne;
    std::vector<uint32_t> bind; // {EN, thread} as the register reads
    uint32_t pend = 0;
    std::vector<uint32_t> stamp;
    uint32_t line_q = 0;
    bool serving = false;
    unsigned sidx = 0;
    uint32_t sstamp = 0, lat = 0;
    std::vector<uint32_t> period, left, fired, ctrl;

    Model(unsigned t, unsigned l)
        : nt(t), nl(l), ne(t + l), bind(ne), stamp(ne), period(t), left(t), fired(t), ctrl(t)
    {
    }
    bool operator==(const Model &o) const
    {
        return bind == o.bind && pend == o.pend && stamp == o.stamp && line_q == o.line_q &&
               serving == o.serving && sidx == o.sidx && sstamp == o.sstamp && lat == o.lat &&
               period == o.period && left == o.left && fired == o.fired && ctrl == o.ctrl;
    }

    bool bound(unsigned e) const { return (bind[e] & WEFT_TM_BIND_EN) != 0; }
    bool running(unsigned t) const { return (ctrl[t] & WEFT_TIMER_CTRL_ENABLE) && left[t] != 0; }
    bool busy() const
    {
        for (unsigned t = 0; t < nt; ++t)
            if (running(t))
                return true;
        return false;
    }
    int pick() const // the lowest pending event
    {
        for (unsigned e = 0; e < ne; ++e)
            if (pend >> e & 1)
                return int(e);
        return -1;
    }
    bool ev_valid() const { return pend != 0 && !serving; }
    unsigned ev_tid() const { return pick() < 0 ? 0 : bind[unsigned(pick())] & 0xff; }

    uint32_t read(uint32_t addr) const
    {
        for (unsigned e = 0; e < ne; ++e)
            if (addr == WEFT_REG_TM_BIND(e))
                return bind[e];
        for (unsigned t = 0; t < nt; ++t) {
            if (addr == WEFT_REG_TIMER_PERIOD(t))
                return period[t];
            if (addr == WEFT_REG_TIMER_CTRL(t))
                return ctrl[t];
            if (addr == WEFT_REG_TIMER_LEFT(t))
                return left[t];
            if (addr == WEFT_REG_TIMER_FIRED(t))
                return fired[t];
        }
        if (addr == WEFT_REG_TM_EV_PENDING)
            return pend;
        if (addr == WEFT_REG_TM_EV_LAT)
            return lat;
        return 0;
    }

    // One edge. Returns the events that fired (bound) in the cycle before it.
    uint32_t edge(const Inputs &in)
    {
        const bool wr = in.we && in.wstrb == 0xF;
        uint32_t fire = 0;
        std::vector<bool> tfire(nt);
        for (unsigned t = 0; t < nt; ++t) {
            tfire[t] = running(t) && left[t] == 1;
            if (tfire[t])
                fire |= 1u << t;
        }
        // Only bound lines are followed (the binding before this edge's write).
        uint32_t seen = 0;
        for (unsigned l = 0; l < nl; ++l)
            if ((in.lines >> l & 1) && bound(nt + l))
                seen |= 1u << l;
        for (unsigned l = 0; l < nl; ++l)
            if ((seen >> l & 1) && !(line_q >> l & 1))
                fire |= 1u << (nt + l);
        if (wr && in.addr == WEFT_REG_TM_RAISE)
            fire |= in.wdata;
        const uint32_t mask = ne == 32 ? ~0u : (1u << ne) - 1;
        uint32_t b = 0;
        for (unsigned e = 0; e < ne; ++e)
            b |= bound(e) ? 1u << e : 0;
        fire &= b & mask;

        const int p = pick();
        const bool take = ev_valid() && in.ev_ready;
        const uint32_t taken = take ? 1u << unsigned(p) : 0;
        const uint32_t taken_stamp = take ? stamp[unsigned(p)] : 0;
        for (unsigned e = 0; e < ne; ++e)
            if ((fire >> e & 1) && (!(pend >> e & 1) || (taken >> e & 1)))
                stamp[e] = in.cycle & 0xffff;
        uint32_t npend = (pend & ~taken) | fire;
        if (take) {
            serving = true;
            sidx = unsigned(p);
            sstamp = taken_stamp;
        } else if (in.ev_done && serving) {
            serving = false;
            lat = WEFT_TM_EV_LAT_VALID | (in.ev_switched ? WEFT_TM_EV_LAT_SWITCHED : 0) |
                  (sidx << WEFT_TM_EV_LAT_EVENT_SHIFT) | ((in.cycle - sstamp) & 0xffff);
        }
        for (unsigned e = 0; e < ne; ++e)
            if (wr && in.addr == WEFT_REG_TM_BIND(e)) {
                bind[e] = in.wdata & (WEFT_TM_BIND_EN | 0xff);
                npend &= ~(1u << e);
            }
        pend = npend;
        for (unsigned t = 0; t < nt; ++t) {
            if (tfire[t]) {
                ++fired[t];
                left[t] = (ctrl[t] & WEFT_TIMER_CTRL_PERIODIC) ? period[t] : 0;
                if (!(ctrl[t] & WEFT_TIMER_CTRL_PERIODIC))
                    ctrl[t] &= ~WEFT_TIMER_CTRL_ENABLE;
            } else if (running(t)) {
                --left[t];
            }
            if (wr && in.addr == WEFT_REG_TIMER_PERIOD(t))
                period[t] = in.wdata;
            if (wr && in.addr == WEFT_REG_TIMER_CTRL(t)) {
                ctrl[t] = in.wdata & 3;
                left[t] = (in.wdata & WEFT_TIMER_CTRL_ENABLE) ? period[t] : 0;
                fired[t] = 0;
            }
        }
        line_q = seen;
        return fire;
    }
};

// ---- the bench ---------------------------------------------------------------------------

template <typename Dut> struct Bench {
    const char *name;
    unsigned nt, nl, ne;
    Model m;
    std::unique_ptr<VerilatedContext> ctx = std::make_unique<VerilatedContext>();
    std::unique_ptr<Dut> dut;
    Inputs in;
    uint64_t cycle = 0;
    uint32_t cyc16; // cycle_i
    std::mt19937 rng;
    std::vector<uint32_t> addrs; // every register of the block, and a few around them

    // The thread manager's stub.
    bool tm_auto = true;      // takes events (else ev_ready_i stays low)
    unsigned ready_pct = 100; // how often ev_ready_i is high
    unsigned delay_min = 1, delay_max = 1;
    bool tm_serving = false;
    uint64_t done_at = 0;
    bool next_switched = false;
    // What it saw: every event taken (thread, the model's event number, cycle_i at the
    // take) and every ev_done_i (cycle_i).
    struct Served {
        unsigned tid, ev;
        uint32_t cyc_taken, cyc_done; // cycle_i
        bool switched;
        uint64_t at_taken, at_done; // the test bench's cycle count
    };
    std::vector<Served> served;
    uint64_t sweeps = 0, still_edges = 0, fires = 0;

    Bench(const char *n, unsigned timers, unsigned lines, uint32_t seed, uint32_t cycle0)
        : name(n), nt(timers), nl(lines), ne(timers + lines), m(timers, lines),
          cyc16(cycle0 & 0xffff), rng(seed)
    {
        ctx->randReset(2);
        ctx->randSeed(int(seed & 0x7fffffff));
        dut = std::make_unique<Dut>(ctx.get());
        for (uint32_t a = WEFT_REG_TM_INFO; a < WEFT_REG_TM_BIND(0); a += 4)
            addrs.push_back(a);
        for (unsigned e = 0; e < 32; ++e)
            addrs.push_back(WEFT_REG_TM_BIND(e));
        for (unsigned t = 0; t < 8; ++t) {
            addrs.push_back(WEFT_REG_TIMER_PERIOD(t));
            addrs.push_back(WEFT_REG_TIMER_CTRL(t));
            addrs.push_back(WEFT_REG_TIMER_LEFT(t));
            addrs.push_back(WEFT_REG_TIMER_FIRED(t));
        }
        addrs.push_back(0x8580);
        addrs.push_back(0x847c);
        addrs.push_back(0x0420); // TM_EV_PENDING's offset outside the OS services' window
        addrs.push_back(0x0000);
        drive();
        weft_tb::reset_pulse(dut.get());
        check_outputs();
        sweep();
    }
    ~Bench() { dut->final(); }

    void drive()
    {
        dut->reg_we_i = in.we;
        dut->reg_addr_i = in.addr;
        dut->reg_wdata_i = in.wdata;
        dut->reg_wstrb_i = in.wstrb;
        dut->cycle_i = cyc16;
        dut->line_i = in.lines;
        dut->ev_ready_i = in.ev_ready;
        dut->ev_done_i = in.ev_done;
        dut->ev_switched_i = in.ev_switched;
    }
    void check_outputs()
    {
        CHECK(dut->ev_valid_o == unsigned(m.ev_valid()) &&
                  (!m.ev_valid() || dut->ev_tid_o == m.ev_tid()) &&
                  dut->busy_o == unsigned(m.busy()),
              "%s cycle %" PRIu64 ": ev_valid %u tid %u busy %u, model %u %u %u (pending 0x%x)",
              name, cycle, dut->ev_valid_o, dut->ev_tid_o, dut->busy_o, unsigned(m.ev_valid()),
              m.ev_tid(), unsigned(m.busy()), m.pend);
        CHECK(dut->reg_rdata_o == m.read(in.addr),
              "%s cycle %" PRIu64 ": read 0x%04x: 0x%08x, model 0x%08x", name, cycle, in.addr,
              dut->reg_rdata_o, m.read(in.addr));
    }
    // Every register, read combinationally in this cycle (reg_addr_i put back after).
    void sweep()
    {
        ++sweeps;
        for (uint32_t a : addrs) {
            dut->reg_addr_i = a;
            dut->eval();
            CHECK(dut->reg_rdata_o == m.read(a),
                  "%s cycle %" PRIu64 ": read 0x%04x: 0x%08x, model 0x%08x", name, cycle, a,
                  dut->reg_rdata_o, m.read(a));
        }
        dut->reg_addr_i = in.addr;
        dut->eval();
    }
    uint32_t read(uint32_t addr)
    {
        dut->reg_addr_i = addr;
        dut->eval();
        const uint32_t v = dut->reg_rdata_o;
        CHECK(v == m.read(addr), "%s cycle %" PRIu64 ": read 0x%04x: 0x%08x, model 0x%08x", name,
              cycle, addr, v, m.read(addr));
        dut->reg_addr_i = in.addr;
        dut->eval();
        return v;
    }

    // One clock cycle: the stub's inputs, the checks, the edge.
    void step(bool full_sweep = false)
    {
        in.ev_ready = tm_auto && !tm_serving && rng() % 100 < ready_pct;
        in.ev_done = tm_serving && cycle == done_at;
        in.ev_switched = in.ev_done && next_switched;
        in.cycle = cyc16;
        drive();
        dut->clk_i = 0;
        dut->eval();
        check_outputs();
        if (full_sweep)
            sweep();
        const bool take = dut->ev_valid_o && in.ev_ready;
        const unsigned tid = dut->ev_tid_o;
        const bool still = dut->still_o;
        const Model before = m;
        const int p = m.pick();
        fires += unsigned(__builtin_popcount(m.edge(in)));
        if (still) {
            ++still_edges;
            CHECK(before == m, "%s cycle %" PRIu64 ": still_o high at an edge that changes state",
                  name, cycle);
        }
        dut->clk_i = 1;
        dut->eval();
        ++cycle;
        cyc16 = (cyc16 + 1) & 0xffff;
        if (take) {
            tm_serving = true;
            done_at = cycle + delay_min + rng() % (delay_max - delay_min + 1);
            next_switched = rng() % 2;
            served.push_back({tid, unsigned(p), in.cycle, 0, next_switched, cycle - 1, 0});
        }
        if (in.ev_done) {
            tm_serving = false;
            served.back().cyc_done = in.cycle;
            served.back().at_done = cycle - 1;
        }
        in.we = false;
        in.wstrb = 0xF;
    }
    void idle(unsigned n)
    {
        for (unsigned i = 0; i < n; ++i)
            step();
    }
    // A register write: reg_we_i for one cycle.
    void write(uint32_t addr, uint32_t data, uint32_t strb = 0xF)
    {
        in.we = true;
        in.addr = addr;
        in.wdata = data;
        in.wstrb = strb;
        step();
        in.addr = addr;
    }
};

// ---- directed checks ---------------------------------------------------------------------

template <typename Dut> void timers(Bench<Dut> &b)
{
    if (b.nt == 0)
        return;
    const unsigned t = b.nt - 1, P = 9;
    b.write(WEFT_REG_TM_BIND(t), WEFT_TM_BIND_EN | 0x42);
    CHECK(b.read(WEFT_REG_TM_BIND(t)) == (WEFT_TM_BIND_EN | 0x42), "%s: TM_BIND reads 0x%x", b.name,
          b.read(WEFT_REG_TM_BIND(t)));
    // One-shot: fires P edges after the TIMER_CTRL write, once.
    b.tm_auto = false;
    b.write(WEFT_REG_TIMER_PERIOD(t), P);
    CHECK(!b.dut->busy_o, "%s: busy_o with a period but no ENABLE", b.name);
    b.write(WEFT_REG_TIMER_CTRL(t), WEFT_TIMER_CTRL_ENABLE);
    for (unsigned k = 0; k < P; ++k) {
        CHECK(b.read(WEFT_REG_TIMER_LEFT(t)) == P - k && b.read(WEFT_REG_TIMER_FIRED(t)) == 0 &&
                  b.read(WEFT_REG_TM_EV_PENDING) == 0 && b.dut->busy_o,
              "%s: one-shot, %u edges after the write: LEFT %u FIRED %u PENDING 0x%x busy %u",
              b.name, k, b.read(WEFT_REG_TIMER_LEFT(t)), b.read(WEFT_REG_TIMER_FIRED(t)),
              b.read(WEFT_REG_TM_EV_PENDING), b.dut->busy_o);
        b.step();
    }
    CHECK(b.read(WEFT_REG_TIMER_FIRED(t)) == 1 && b.read(WEFT_REG_TM_EV_PENDING) == 1u << t &&
              b.read(WEFT_REG_TIMER_LEFT(t)) == 0 && b.read(WEFT_REG_TIMER_CTRL(t)) == 0 &&
              !b.dut->busy_o && b.dut->ev_valid_o && b.dut->ev_tid_o == 0x42,
          "%s: one-shot, %u edges after the write: FIRED %u PENDING 0x%x LEFT %u CTRL %u busy %u "
          "ev_valid %u tid 0x%x",
          b.name, P, b.read(WEFT_REG_TIMER_FIRED(t)), b.read(WEFT_REG_TM_EV_PENDING),
          b.read(WEFT_REG_TIMER_LEFT(t)), b.read(WEFT_REG_TIMER_CTRL(t)), b.dut->busy_o,
          b.dut->ev_valid_o, b.dut->ev_tid_o);
    b.tm_auto = true;
    b.idle(4 * P);
    CHECK(b.read(WEFT_REG_TIMER_FIRED(t)) == 1 && b.served.size() == 1 &&
              b.served.back().tid == 0x42 && b.served.back().ev == t,
          "%s: one-shot fired %u times, %zu events served", b.name, b.read(WEFT_REG_TIMER_FIRED(t)),
          b.served.size());
    // Periodic: every P edges; TIMER_LEFT counts down to each.
    b.served.clear();
    b.write(WEFT_REG_TIMER_CTRL(t), WEFT_TIMER_CTRL_ENABLE | WEFT_TIMER_CTRL_PERIODIC);
    std::vector<uint64_t> fire_edges;
    uint32_t last = 0;
    for (unsigned k = 1; k <= 5 * P; ++k) {
        const uint32_t left = b.read(WEFT_REG_TIMER_LEFT(t));
        CHECK(left == P - (k - 1) % P, "%s: periodic, %u edges after the write: LEFT %u", b.name,
              k - 1, left);
        b.step();
        const uint32_t f = b.read(WEFT_REG_TIMER_FIRED(t));
        if (f != last)
            fire_edges.push_back(k);
        last = f;
    }
    CHECK(fire_edges.size() == 5 && last == 5, "%s: periodic fired %zu times in %u edges", b.name,
          fire_edges.size(), 5 * P);
    for (size_t i = 0; i < fire_edges.size(); ++i)
        CHECK(fire_edges[i] == (i + 1) * P, "%s: periodic event %zu at edge %" PRIu64 ", not %zu",
              b.name, i, fire_edges[i], (i + 1) * P);
    b.idle(P / 2);
    CHECK(b.served.size() == 5, "%s: %zu events of a periodic timer served, 5 expected", b.name,
          b.served.size());
    // A TIMER_CTRL write starts it over and clears TIMER_FIRED; disabled: LEFT 0.
    b.write(WEFT_REG_TIMER_CTRL(t), WEFT_TIMER_CTRL_ENABLE | WEFT_TIMER_CTRL_PERIODIC);
    CHECK(b.read(WEFT_REG_TIMER_LEFT(t)) == P && b.read(WEFT_REG_TIMER_FIRED(t)) == 0,
          "%s: restart: LEFT %u FIRED %u", b.name, b.read(WEFT_REG_TIMER_LEFT(t)),
          b.read(WEFT_REG_TIMER_FIRED(t)));
    b.write(WEFT_REG_TIMER_CTRL(t), 0);
    CHECK(b.read(WEFT_REG_TIMER_LEFT(t)) == 0 && !b.dut->busy_o, "%s: stopped: LEFT %u busy %u",
          b.name, b.read(WEFT_REG_TIMER_LEFT(t)), b.dut->busy_o);
    // PERIOD 0 never fires; a write with a strobe low is ignored.
    b.write(WEFT_REG_TIMER_PERIOD(t), 0);
    b.write(WEFT_REG_TIMER_CTRL(t), WEFT_TIMER_CTRL_ENABLE | WEFT_TIMER_CTRL_PERIODIC);
    b.idle(20);
    CHECK(b.read(WEFT_REG_TIMER_FIRED(t)) == 0 && !b.dut->busy_o &&
              b.read(WEFT_REG_TIMER_CTRL(t)) == 3,
          "%s: PERIOD 0: FIRED %u busy %u CTRL %u", b.name, b.read(WEFT_REG_TIMER_FIRED(t)),
          b.dut->busy_o, b.read(WEFT_REG_TIMER_CTRL(t)));
    b.write(WEFT_REG_TIMER_PERIOD(t), 5, 0x7);
    b.write(WEFT_REG_TIMER_CTRL(t), 0, 0xE);
    CHECK(b.read(WEFT_REG_TIMER_PERIOD(t)) == 0 && b.read(WEFT_REG_TIMER_CTRL(t)) == 3,
          "%s: partial-strobe writes not ignored: PERIOD %u CTRL %u", b.name,
          b.read(WEFT_REG_TIMER_PERIOD(t)), b.read(WEFT_REG_TIMER_CTRL(t)));
    b.write(WEFT_REG_TIMER_CTRL(t), 0);
    // An unbound timer counts but signals nothing.
    b.served.clear();
    b.write(WEFT_REG_TM_BIND(t), 0x42);
    b.write(WEFT_REG_TIMER_PERIOD(t), 3);
    b.write(WEFT_REG_TIMER_CTRL(t), WEFT_TIMER_CTRL_ENABLE | WEFT_TIMER_CTRL_PERIODIC);
    b.idle(30);
    CHECK(b.read(WEFT_REG_TIMER_FIRED(t)) == 10 && b.served.empty() &&
              b.read(WEFT_REG_TM_EV_PENDING) == 0,
          "%s: unbound timer: FIRED %u, %zu served, PENDING 0x%x", b.name,
          b.read(WEFT_REG_TIMER_FIRED(t)), b.served.size(), b.read(WEFT_REG_TM_EV_PENDING));
    b.write(WEFT_REG_TIMER_CTRL(t), 0);
}

template <typename Dut> void lines_and_raise(Bench<Dut> &b)
{
    const unsigned nt = b.nt, ne = b.ne;
    const unsigned e0 = nt; // line 0's event
    b.served.clear();
    b.tm_auto = true;
    // A rising edge while unbound: nothing; a line bound while high fires at once (only
    // bound lines are followed), then again at its next rising edge.
    b.in.lines = 1;
    b.idle(3);
    CHECK(b.served.empty(), "%s: an unbound line's edge served", b.name);
    b.write(WEFT_REG_TM_BIND(e0), WEFT_TM_BIND_EN | 7);
    b.idle(5);
    CHECK(b.served.size() == 1 && b.served[0].tid == 7 && b.served[0].ev == e0,
          "%s: a line bound while high: %zu served", b.name, b.served.size());
    b.served.clear();
    b.in.lines = 0;
    b.idle(2);
    b.in.lines = 1;
    b.idle(6);
    CHECK(b.served.size() == 1 && b.served[0].tid == 7 && b.served[0].ev == e0,
          "%s: a bound line's rising edge: %zu served", b.name, b.served.size());
    b.in.lines = 0;
    b.idle(3);
    // TM_RAISE fires the bound events only.
    b.served.clear();
    b.tm_auto = false;
    for (unsigned e = 0; e < ne; ++e)
        b.write(WEFT_REG_TM_BIND(e), (e % 3 == 1 ? 0 : WEFT_TM_BIND_EN) | (0x80 + e));
    uint32_t want = 0;
    for (unsigned e = 0; e < ne; ++e)
        want |= e % 3 == 1 ? 0 : 1u << e;
    b.write(WEFT_REG_TM_RAISE, ~0u, 0x7); // a strobe low: ignored
    CHECK(b.read(WEFT_REG_TM_EV_PENDING) == 0, "%s: TM_RAISE with a strobe low fired 0x%x", b.name,
          b.read(WEFT_REG_TM_EV_PENDING));
    b.write(WEFT_REG_TM_RAISE, ~0u);
    CHECK(b.read(WEFT_REG_TM_EV_PENDING) == want, "%s: TM_RAISE: PENDING 0x%x, expected 0x%x",
          b.name, b.read(WEFT_REG_TM_EV_PENDING), want);
    // Again while pending: counts once. Then they go out lowest first, one at a time,
    // each after the last one's ev_done_i.
    b.write(WEFT_REG_TM_RAISE, want);
    b.idle(3);
    b.tm_auto = true;
    b.delay_min = 2;
    b.delay_max = 6;
    b.idle(10 * ne + 20);
    unsigned n = 0;
    for (unsigned e = 0; e < ne; ++e)
        if (want >> e & 1) {
            CHECK(n < b.served.size() && b.served[n].ev == e && b.served[n].tid == 0x80 + e,
                  "%s: served #%u: event %u thread 0x%x, expected event %u", b.name, n,
                  n < b.served.size() ? b.served[n].ev : 99,
                  n < b.served.size() ? b.served[n].tid : 0, e);
            ++n;
        }
    CHECK(b.served.size() == n, "%s: %zu events served, %u expected", b.name, b.served.size(), n);
    for (size_t i = 1; i < b.served.size(); ++i)
        CHECK(b.served[i].at_taken > b.served[i - 1].at_done,
              "%s: event %u taken before the last one's done", b.name, b.served[i].ev);
    // A new binding drops what is pending.
    if (ne < 3)
        return;
    b.tm_auto = false;
    b.write(WEFT_REG_TM_RAISE, want);
    b.write(WEFT_REG_TM_BIND(0), WEFT_TM_BIND_EN | 0x33);
    CHECK(b.read(WEFT_REG_TM_EV_PENDING) == (want & ~1u), "%s: rebinding: PENDING 0x%x", b.name,
          b.read(WEFT_REG_TM_EV_PENDING));
    CHECK(b.dut->ev_valid_o && b.dut->ev_tid_o == 0x80 + 2, "%s: next event's thread 0x%x", b.name,
          b.dut->ev_tid_o);
    b.tm_auto = true;
    b.idle(10 * ne + 20);
    b.delay_min = b.delay_max = 1;
}

template <typename Dut> void latency(Bench<Dut> &b)
{
    // TM_EV_LAT: cycles from the firing (the TM_RAISE write's cycle) to ev_done_i.
    const unsigned e = b.ne - 1;
    b.write(WEFT_REG_TM_BIND(e), WEFT_TM_BIND_EN | 0x55);
    for (unsigned delay : {1u, 7u, 300u}) {
        b.served.clear();
        b.tm_auto = false;
        const uint32_t c0 = b.cyc16;
        b.write(WEFT_REG_TM_RAISE, 1u << e);
        b.idle(5);                           // waits, pending
        b.write(WEFT_REG_TM_RAISE, 1u << e); // fires again while pending: keeps the first stamp
        b.tm_auto = true;
        b.delay_min = b.delay_max = delay;
        b.idle(delay + 4);
        CHECK(b.served.size() == 1, "%s: %zu served", b.name, b.served.size());
        if (b.served.empty())
            continue;
        const auto &s = b.served[0];
        const uint32_t want = WEFT_TM_EV_LAT_VALID | (s.switched ? WEFT_TM_EV_LAT_SWITCHED : 0) |
                              (e << WEFT_TM_EV_LAT_EVENT_SHIFT) | ((s.cyc_done - c0) & 0xffff);
        const uint32_t lat = b.read(WEFT_REG_TM_EV_LAT);
        CHECK(lat == want && ((s.cyc_done - c0) & 0xffff) >= delay + 6,
              "%s: TM_EV_LAT 0x%08x, expected 0x%08x (fired at cycle %u, done at %u)", b.name, lat,
              want, c0, s.cyc_done);
    }
    b.delay_min = b.delay_max = 1;
}

template <typename Dut> void out_of_range(Bench<Dut> &b)
{
    // Events and timers past the last: read 0, writes ignored (the model reads 0 there).
    for (unsigned e = b.ne; e < 32; ++e)
        b.write(WEFT_REG_TM_BIND(e), WEFT_TM_BIND_EN | e);
    for (unsigned t = b.nt; t < 8; ++t) {
        b.write(WEFT_REG_TIMER_PERIOD(t), 3);
        b.write(WEFT_REG_TIMER_CTRL(t), 3);
    }
    b.write(WEFT_REG_TM_RAISE, ~0u);
    b.idle(10);
    b.step(true);
}

template <typename Dut> void random_traffic(Bench<Dut> &b, unsigned cycles)
{
    auto &rng = b.rng;
    b.tm_auto = true;
    uint64_t writes = 0;
    for (unsigned i = 0; i < cycles && weft_tb::failures == 0; ++i) {
        b.ready_pct = (i / 5000) % 2 ? 30 : 90;
        b.delay_min = 1;
        b.delay_max = (i / 3000) % 2 ? 40 : 4;
        // The lines: rising edges now and then.
        for (unsigned l = 0; l < b.nl; ++l)
            if (rng() % 40 == 0)
                b.in.lines ^= 1u << l;
        if (rng() % 6 == 0) {
            const unsigned r = rng() % 100;
            uint32_t addr, data = rng();
            if (r < 25) {
                addr = WEFT_REG_TM_BIND(rng() % 32);
                data = (rng() % 4 ? WEFT_TM_BIND_EN : 0) | (data & 0x7fffffff);
            } else if (r < 40) {
                addr = WEFT_REG_TM_RAISE;
                data = rng() % 2 ? 1u << (rng() % 32) : rng();
            } else if (r < 55) {
                addr = WEFT_REG_TIMER_PERIOD(rng() % 8);
                data = rng() % 8 ? rng() % 40 : rng() % 3;
            } else if (r < 75) {
                addr = WEFT_REG_TIMER_CTRL(rng() % 8);
                data = rng() % 4;
            } else {
                addr = b.addrs[rng() % b.addrs.size()];
            }
            b.in.we = true;
            b.in.addr = addr;
            b.in.wdata = data;
            b.in.wstrb = rng() % 10 ? 0xF : rng() % 16;
            ++writes;
        } else {
            b.in.addr = b.addrs[rng() % b.addrs.size()];
        }
        b.step(i % 7 == 0);
    }
    uint64_t sw = 0;
    for (const auto &s : b.served)
        sw += s.switched;
    std::printf("%s: %u random cycles (%" PRIu64 " register writes, %" PRIu64
                " events fired, %zu served), every output each cycle, every register in %" PRIu64
                " sweeps, %" PRIu64 " still_o edges\n",
                b.name, cycles, writes, b.fires, b.served.size(), b.sweeps, b.still_edges);
}

template <typename Dut> void run_shape(const char *name, unsigned nt, unsigned nl, uint32_t seed)
{
    {
        // Directed, with cycle_i close to wrapping.
        Bench<Dut> b(name, nt, nl, seed, 0xffd0);
        timers(b);
        lines_and_raise(b);
        latency(b);
        out_of_range(b);
        std::printf("%s: directed checks %s\n", name, weft_tb::failures ? "FAIL" : "pass");
    }
    Bench<Dut> b(name, nt, nl, seed ^ 0x1234u, seed & 0xffff);
    random_traffic(b, 300000);
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    run_shape<Vweft_tm_events_t4l3>("tm_events 4 timers 3 lines", 4, 3, 0x7e3e0001u);
    run_shape<Vweft_tm_events_t8l24>("tm_events 8 timers 24 lines", 8, 24, 0x7e3e0002u);
    run_shape<Vweft_tm_events_t0l2>("tm_events 0 timers 2 lines", 0, 2, 0x7e3e0003u);
    std::printf("tb_rtl_tm_events: %s\n", weft_tb::failures ? "FAIL" : "PASS");
    return weft_tb::failures ? 1 : 0;
}

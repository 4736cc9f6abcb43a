// Self-checking test bench of weft_static's AXI4-Lite register window.
//
// Random register reads and writes (global and all slot registers, partial strobes,
// unmapped offsets, nonexistent slots) with random delays on every AXI4-Lite channel,
// including back-pressure on B and R, interleaved with thread-side actions (the test
// bench pushes OSIF request words and takes OSIF response words at the slot boundary).
// A C++ model of the register semantics of protocol/osif.yaml predicts every read value,
// the FIFOs (HW2SW pop on read, SW2HW overflow), FAULT (rw1c), CONTROL reset behaviour
// (flush, fault clear, SIGNAL cleared, windows and link bindings kept), the WIN_* and
// LINK_BIND arrays, CAPS, the link description registers of the platform the model was
// built for, the decoupler, the interrupt lines and the slot reset/run outputs, which are
// checked every cycle of the test. Link bindings are only ever written disabled here, so
// every request word goes to software (tb_rtl_links covers the links).
#include <cstdint>
#include <cstdio>
#include <deque>

#include "tb_rtl_static_harness.h"
#include "weft/osif_protocol.h"
#include "weft/platform_config.h"

using namespace weft_tb;

namespace
{

constexpr uint32_t kSeed = 0x5eed0002u;
constexpr unsigned kOsifDepth = 16;
// The default platform description: 2 windows and 4 link bindings per slot.
constexpr unsigned kWindows = 2, kBinds = 4;
constexpr unsigned kOps = 100000;

struct SlotModel {
    bool reset = true, run = false, irq_en = false, signal = false;
    bool fault_mem = false, fault_ovf = false, fault_acc = false;
    uint32_t win[kWindows][3] = {}; // WIN_BASE, WIN_SIZE, WIN_PERM
    uint32_t bind[kBinds] = {};
    std::deque<uint32_t> hw2sw, sw2hw;
    uint32_t last_busy = 0;

    bool connected() const { return run && !reset; }
    uint32_t control() const
    {
        return (reset ? WEFT_CONTROL_RESET : 0) | (run ? WEFT_CONTROL_RUN : 0) |
               (irq_en ? WEFT_CONTROL_IRQ_EN : 0) | (signal ? WEFT_CONTROL_SIGNAL : 0);
    }
    uint32_t fault() const
    {
        return (fault_mem ? WEFT_FAULT_MEM : 0) | (fault_ovf ? WEFT_FAULT_OVERFLOW : 0) |
               (fault_acc ? WEFT_FAULT_ACC : 0);
    }
    uint32_t irq_status() const
    {
        return (!hw2sw.empty() ? WEFT_IRQ_OSIF : 0) | (fault() ? WEFT_IRQ_FAULT : 0);
    }
    bool irq() const { return irq_en && irq_status() != 0; }
    void apply_reset()
    {
        if (reset) {
            hw2sw.clear();
            sw2hw.clear();
            fault_mem = fault_ovf = fault_acc = signal = false;
            last_busy = 0;
        }
    }
};

// The WIN_* or LINK_BIND model register at a slot offset, or nullptr.
uint32_t *array_reg(SlotModel &m, uint32_t off)
{
    for (unsigned w = 0; w < kWindows; ++w) {
        if (off == WEFT_SLOT_REG_WIN_BASE(w))
            return &m.win[w][0];
        if (off == WEFT_SLOT_REG_WIN_SIZE(w))
            return &m.win[w][1];
        if (off == WEFT_SLOT_REG_WIN_PERM(w))
            return &m.win[w][2];
    }
    for (unsigned b = 0; b < kBinds; ++b)
        if (off == WEFT_SLOT_REG_LINK_BIND(b))
            return &m.bind[b];
    return nullptr;
}

// Bits a write can set in an array register.
uint32_t array_bits(uint32_t off)
{
    for (unsigned w = 0; w < kWindows; ++w)
        if (off == WEFT_SLOT_REG_WIN_PERM(w))
            return WEFT_WIN_READ | WEFT_WIN_WRITE;
    if (off >= WEFT_SLOT_REG_LINK_BIND(0))
        return WEFT_LINK_BIND_EN | WEFT_LINK_BIND_LINK_MASK << WEFT_LINK_BIND_LINK_SHIFT |
               WEFT_LINK_BIND_HANDLE_MASK;
    return 0xFFFFFFFFu;
}

uint32_t strb_mask(uint8_t strb)
{
    uint32_t m = 0;
    for (unsigned b = 0; b < 4; ++b)
        if (strb & (1u << b))
            m |= 0xFFu << (8 * b);
    return m;
}

class Checker
{
  public:
    Checker(StaticHarness &h) : h_(h) {}
    SlotModel slot[kNumSlots];
    int errors = 0;
    uint64_t reads = 0, writes = 0, thread_pushes = 0, thread_pops = 0, overflow_faults = 0,
             hw2sw_pops = 0, cycles_checked = 0, reset_rise = 0;
    // How long the synchronisation manager's scan after a slot's reset lasts at most:
    // two cycles an object (SYNC_INFO) and its last reap's steps.
    uint64_t sync_scan_cycles = 0;

    void fail(const char *what, uint32_t got, uint32_t want)
    {
        if (errors < 20)
            std::printf("cycle %llu: %s: got 0x%08x, want 0x%08x\n", (unsigned long long)h_.cycle(),
                        what, got, want);
        ++errors;
    }
    void expect(const char *what, uint32_t got, uint32_t want)
    {
        if (got != want)
            fail(what, got, want);
    }

    // Outputs that must always agree with the model (checked between operations).
    void check_outputs()
    {
        Vweft_static &d = h_.dut();
        d.clk_i = 0;
        d.eval();
        uint32_t irq = 0, rst_n = 0, run = 0;
        bool any_connected = false, all_stopped = true;
        for (unsigned s = 0; s < kNumSlots; ++s) {
            const SlotModel &m = slot[s];
            irq |= m.irq() << s;
            rst_n |= (!m.reset) << s;
            run |= m.run << s;
            any_connected |= m.connected();
            all_stopped &= !m.run;
            if (!m.connected()) {
                // Decoupler: nothing valid or ready towards a disconnected slot.
                uint32_t v = RSP(d, s, OSIF_IN_VALID) | RSP(d, s, OSIF_OUT_READY) |
                             RSP(d, s, MEM_CMD_READY) | RSP(d, s, MEM_WR_READY) |
                             RSP(d, s, MEM_RD_VALID);
                expect("decoupled slot outputs", v, 0);
            } else {
                expect("osif_in_valid", RSP(d, s, OSIF_IN_VALID), !m.sw2hw.empty());
                expect("osif_out_ready", RSP(d, s, OSIF_OUT_READY), m.hw2sw.size() < kOsifDepth);
                if (!m.sw2hw.empty())
                    expect("osif_in_data", RSP(d, s, OSIF_IN_DATA), m.sw2hw.front());
            }
        }
        expect("irq_o", d.irq_o, irq);
        expect("slot_rst_no", d.slot_rst_no, rst_n);
        expect("slot_run_o", d.slot_run_o, run);
        // No thread here is blocked (osif_in_ready low), so a connected slot is never
        // quiet, and with every slot stopped the fabric is quiet.
        if (any_connected)
            expect("quiet_o (slot running)", d.quiet_o, 0);
        // (A slot's reset makes the synchronisation manager scan its objects for mutexes
        // to give up, two cycles an object: the fabric is busy meanwhile.)
        if (all_stopped && h_.cycle() > reset_rise + sync_scan_cycles)
            expect("quiet_o (all stopped)", d.quiet_o, 1);
        ++cycles_checked;
    }

    void do_write(unsigned s, uint32_t off, uint32_t data, uint8_t strb)
    {
        SlotModel &m = slot[s];
        h_.mmio_write(WEFT_SLOT_REG(s, off), data, strb);
        ++writes;
        uint32_t mask = strb_mask(strb);
        switch (off) {
        case WEFT_SLOT_REG_OSIF_SW2HW:
            if (strb && !m.reset) {
                if (m.sw2hw.size() == kOsifDepth) {
                    m.fault_ovf = true;
                    ++overflow_faults;
                } else {
                    m.sw2hw.push_back(data);
                }
            }
            break;
        case WEFT_SLOT_REG_CONTROL: {
            uint32_t c = (m.control() & ~mask) | (data & mask);
            if ((c & WEFT_CONTROL_RESET) && !m.reset)
                reset_rise = h_.cycle();
            m.reset = c & WEFT_CONTROL_RESET;
            m.run = c & WEFT_CONTROL_RUN;
            m.irq_en = c & WEFT_CONTROL_IRQ_EN;
            m.signal = c & WEFT_CONTROL_SIGNAL;
            break;
        }
        case WEFT_SLOT_REG_FAULT:
            if (data & mask & WEFT_FAULT_MEM)
                m.fault_mem = false;
            if (data & mask & WEFT_FAULT_OVERFLOW)
                m.fault_ovf = false;
            if (data & mask & WEFT_FAULT_ACC)
                m.fault_acc = false;
            break;
        default:
            // The windows and bindings take whole-word writes only (never half set).
            if (uint32_t *r = array_reg(m, off); r && strb == 0xF)
                *r = data & array_bits(off);
            acc_access(m, off);
            break; // read-only or unmapped: ignored
        }
        m.apply_reset();
    }

    // The ACC window: no thread answers here, so a running slot's access times out.
    static void acc_access(SlotModel &m, uint32_t off)
    {
        if (off >= WEFT_SLOT_REG_ACC(0) && m.connected())
            m.fault_acc = true;
    }

    void do_slot_read(unsigned s, uint32_t off)
    {
        SlotModel &m = slot[s];
        uint32_t got = h_.mmio_read(WEFT_SLOT_REG(s, off));
        ++reads;
        char what[64];
        std::snprintf(what, sizeof what, "slot %u reg 0x%02x", s, off);
        switch (off) {
        case WEFT_SLOT_REG_OSIF_HW2SW:
            if (m.hw2sw.empty()) {
                expect(what, got, 0);
            } else {
                expect(what, got, m.hw2sw.front());
                m.hw2sw.pop_front();
                ++hw2sw_pops;
            }
            break;
        case WEFT_SLOT_REG_STATUS:
            expect(what, got, uint32_t(m.hw2sw.size()) | (uint32_t(m.sw2hw.size()) << 16));
            break;
        case WEFT_SLOT_REG_CONTROL:
            expect(what, got, m.control());
            break;
        case WEFT_SLOT_REG_IRQ_STATUS:
            expect(what, got, m.irq_status());
            break;
        case WEFT_SLOT_REG_FAULT:
            expect(what, got, m.fault());
            break;
        case WEFT_SLOT_REG_FAULT_ADDR:
        case WEFT_SLOT_REG_FAULT_INFO:
            expect(what, got, 0);
            break; // no MEMIF traffic here
        case WEFT_SLOT_REG_CAPS:
            expect(what, got, kWindows | kBinds << WEFT_CAPS_BINDS_SHIFT);
            break;
        case WEFT_SLOT_REG_LINK_CALLS:
            expect(what, got, 0);
            break;
        case WEFT_SLOT_REG_BUSY_LO: {
            // Busy cycles: zero while held in reset, never decreasing otherwise, and
            // BUSY_HI latched with it (0 in a run this short).
            if (m.reset)
                expect(what, got, 0);
            else if (got < m.last_busy)
                fail("BUSY_LO decreased", got, m.last_busy);
            m.last_busy = got;
            uint32_t hi = h_.mmio_read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_BUSY_HI));
            expect("BUSY_HI", hi, 0);
            break;
        }
        case WEFT_SLOT_REG_FIFO_DEPTH:
            expect(what, got, kOsifDepth | (kOsifDepth << 16));
            break;
        default: {
            uint32_t *r = array_reg(m, off);
            expect(what, got, r ? *r : 0);
            acc_access(m, off);
            break; // SW2HW is write-only, holes and the ACC window (unanswered) read 0
        }
        }
    }

    void do_global_read(uint32_t off)
    {
        uint32_t got = h_.mmio_read(off);
        ++reads;
        switch (off) {
        case WEFT_REG_ID:
            expect("ID", got, WEFT_REG_ID_VALUE);
            break;
        case WEFT_REG_VERSION:
            expect("VERSION", got, WEFT_OSIF_VERSION);
            break;
        case WEFT_REG_NUM_SLOTS:
            expect("NUM_SLOTS", got, kNumSlots);
            break;
        case WEFT_REG_CYCLE_LO: {
            uint64_t now = h_.cycle();
            if (got > now || got + 500 < now)
                fail("CYCLE_LO near the cycle count", got, uint32_t(now));
            if (got <= last_cycle_lo_)
                fail("CYCLE_LO increases", got, last_cycle_lo_);
            last_cycle_lo_ = got;
            expect("CYCLE_HI", h_.mmio_read(WEFT_REG_CYCLE_HI), 0);
            break;
        }
        case WEFT_REG_IRQ_PENDING: {
            uint32_t irq = 0;
            for (unsigned s = 0; s < kNumSlots; ++s)
                irq |= slot[s].irq() << s;
            expect("IRQ_PENDING", got, irq);
            break;
        }
        case WEFT_REG_NUM_LINKS:
            expect("NUM_LINKS", got, WEFT_PLATFORM_NUM_LINKS);
            break;
        case WEFT_REG_CLOCK_MHZ:
            expect("CLOCK_MHZ", got, WEFT_PLATFORM_CLOCK_MHZ);
            break;
        case WEFT_REG_SERVICES:
            expect("SERVICES", got, WEFT_PLATFORM_SERVICES);
            break;
        case WEFT_REG_LINK_INFO(0):
            // platform/default.yaml: ring01, slot 0 -> slot 1, 128 words.
            expect("LINK_INFO(0)", got,
                   0u | 1u << WEFT_LINK_INFO_DST_SHIFT | 128u << WEFT_LINK_INFO_DEPTH_SHIFT);
            break;
        default:
            expect("global hole or empty link level", got, 0);
            break;
        }
    }

    // Thread side: offer one OSIF request word for one cycle.
    void thread_push(unsigned s, uint32_t data)
    {
        Vweft_static &d = h_.dut();
        SlotModel &m = slot[s];
        d.clk_i = 0;
        d.eval();
        bool ready = RSP(d, s, OSIF_OUT_READY);
        SET_REQ(d, s, OSIF_OUT_VALID, true);
        SET_REQ(d, s, OSIF_OUT_DATA, data);
        h_.step();
        SET_REQ(d, s, OSIF_OUT_VALID, false);
        if (ready) {
            if (m.connected() && m.hw2sw.size() < kOsifDepth) {
                m.hw2sw.push_back(data);
                ++thread_pushes;
            } else {
                fail("osif_out_ready while decoupled or full", 1, 0);
            }
        }
    }

    // Thread side: take one OSIF response word if one is offered.
    void thread_pop(unsigned s)
    {
        Vweft_static &d = h_.dut();
        SlotModel &m = slot[s];
        d.clk_i = 0;
        d.eval();
        bool valid = RSP(d, s, OSIF_IN_VALID);
        uint32_t data = RSP(d, s, OSIF_IN_DATA);
        SET_REQ(d, s, OSIF_IN_READY, true);
        h_.step();
        SET_REQ(d, s, OSIF_IN_READY, false);
        if (valid) {
            if (m.sw2hw.empty() || !m.connected()) {
                fail("osif_in_valid while decoupled or empty", 1, 0);
            } else {
                expect("osif_in_data", data, m.sw2hw.front());
                m.sw2hw.pop_front();
                ++thread_pops;
            }
        }
    }

  private:
    StaticHarness &h_;
    uint32_t last_cycle_lo_ = 0;
};

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::printf("tb_rtl_axil_regs: seed 0x%08x\n", kSeed);
    StaticHarness h(kSeed);
    h.reset();
    Checker c(h);
    c.sync_scan_cycles = 2 * (h.mmio_read(WEFT_REG_SYNC_INFO) & 0x1ff) + 8;
    c.reset_rise = h.cycle();
    std::mt19937 &rng = h.rng();
    c.check_outputs();

    // Reset values, read before anything is written.
    for (unsigned s = 0; s < kNumSlots; ++s)
        for (uint32_t off = 0; off < 0x100; off += 4)
            c.do_slot_read(s, off);
    c.do_global_read(WEFT_REG_ID);

    static const uint32_t kSlotRegs[] = {WEFT_SLOT_REG_OSIF_HW2SW,
                                         WEFT_SLOT_REG_OSIF_SW2HW,
                                         WEFT_SLOT_REG_STATUS,
                                         WEFT_SLOT_REG_CONTROL,
                                         WEFT_SLOT_REG_IRQ_STATUS,
                                         WEFT_SLOT_REG_FAULT,
                                         WEFT_SLOT_REG_FAULT_ADDR,
                                         WEFT_SLOT_REG_FAULT_INFO,
                                         WEFT_SLOT_REG_WIN_BASE(0),
                                         WEFT_SLOT_REG_WIN_SIZE(1),
                                         WEFT_SLOT_REG_WIN_PERM(1),
                                         WEFT_SLOT_REG_WIN_BASE(2), // beyond this slot's windows
                                         WEFT_SLOT_REG_LINK_BIND(0),
                                         WEFT_SLOT_REG_LINK_BIND(3),
                                         WEFT_SLOT_REG_LINK_BIND(5), // beyond its bindings
                                         WEFT_SLOT_REG_CAPS,
                                         WEFT_SLOT_REG_LINK_CALLS,
                                         WEFT_SLOT_REG_BUSY_LO,
                                         WEFT_SLOT_REG_BUSY_HI,
                                         WEFT_SLOT_REG_FIFO_DEPTH,
                                         0x3Cu,
                                         0xFCu};
    static const uint32_t kGlobalRegs[] = {WEFT_REG_ID,
                                           WEFT_REG_VERSION,
                                           WEFT_REG_NUM_SLOTS,
                                           WEFT_REG_CYCLE_LO,
                                           WEFT_REG_IRQ_PENDING,
                                           WEFT_REG_LINK_FLUSH,
                                           WEFT_REG_NUM_LINKS,
                                           WEFT_REG_CLOCK_MHZ,
                                           WEFT_REG_SERVICES,
                                           WEFT_REG_LINK_INFO(0),
                                           WEFT_REG_LINK_LEVEL(0),
                                           WEFT_REG_LINK_INFO(5), // no such link
                                           0x24u,
                                           0xFCu};
    constexpr unsigned kNumSlotRegs = sizeof kSlotRegs / sizeof kSlotRegs[0];
    constexpr unsigned kNumGlobalRegs = sizeof kGlobalRegs / sizeof kGlobalRegs[0];

    uint64_t nonexistent = 0, registered_checks = 0;
    for (unsigned op = 0; op < kOps; ++op) {
        // Phases of AXI4-Lite timing: fast, slow valids, heavy B/R back-pressure.
        unsigned phase = (op / 2000) % 3;
        h.axil_timing().p_valid = phase == 1 ? 20 : 90;
        h.axil_timing().p_ready = phase == 2 ? 10 : 70;

        unsigned s = rng() % kNumSlots;
        unsigned kind = rng() % 100;
        if (kind < 8) {
            // CONTROL: mostly run, sometimes reset or stop; partial strobes now and then.
            uint32_t v = rng() % 100 < 70 ? (WEFT_CONTROL_RUN | (rng() & WEFT_CONTROL_IRQ_EN) |
                                             (rng() & WEFT_CONTROL_SIGNAL))
                                          : (rng() & 0xFu);
            uint8_t strb = rng() % 10 == 0 ? uint8_t(rng() & 0xF) : 0xF;
            c.do_write(s, WEFT_SLOT_REG_CONTROL, v | (rng() & 0xFFFFFF00u), strb);
        } else if (kind < 25) {
            c.do_write(s, WEFT_SLOT_REG_OSIF_SW2HW, rng(), rng() % 20 == 0 ? 0 : 0xF);
        } else if (kind < 30) {
            static const uint32_t kArray[] = {
                WEFT_SLOT_REG_WIN_BASE(0), WEFT_SLOT_REG_WIN_SIZE(0),  WEFT_SLOT_REG_WIN_PERM(0),
                WEFT_SLOT_REG_WIN_BASE(1), WEFT_SLOT_REG_WIN_SIZE(1),  WEFT_SLOT_REG_WIN_PERM(1),
                WEFT_SLOT_REG_WIN_BASE(3), WEFT_SLOT_REG_LINK_BIND(0), WEFT_SLOT_REG_LINK_BIND(3),
                WEFT_SLOT_REG_LINK_BIND(7)};
            uint32_t off = kArray[rng() % (sizeof kArray / sizeof kArray[0])];
            uint32_t v = rng();
            if (off >= WEFT_SLOT_REG_LINK_BIND(0))
                v &= ~WEFT_LINK_BIND_EN; // a binding written, but never enabled
            c.do_write(s, off, v, rng() % 4 == 0 ? uint8_t(rng() & 0xF) : 0xF);
        } else if (kind < 34) {
            c.do_write(s, WEFT_SLOT_REG_FAULT, rng() & 3u, 0xF);
        } else if (kind < 36) {
            // Writes to read-only registers and holes are ignored.
            c.do_write(s,
                       kSlotRegs[rng() % kNumSlotRegs] == WEFT_SLOT_REG_OSIF_SW2HW
                           ? WEFT_SLOT_REG_STATUS
                           : (rng() % 2 ? WEFT_SLOT_REG_FAULT_ADDR : 0x3Cu),
                       rng(), 0xF);
        } else if (kind < 37) {
            // A slot that does not exist reads 0 and ignores writes.
            uint32_t addr = WEFT_SLOT_REG(kNumSlots + rng() % 8, WEFT_SLOT_REG_CONTROL);
            h.mmio_write(addr, rng(), 0xF);
            c.expect("nonexistent slot", h.mmio_read(addr), 0);
            ++nonexistent;
        } else if (kind < 60) {
            c.do_slot_read(s, kSlotRegs[rng() % kNumSlotRegs]);
        } else if (kind < 66) {
            c.do_global_read(kGlobalRegs[rng() % kNumGlobalRegs]);
        } else if (kind < 85) {
            c.thread_push(s, rng());
        } else {
            c.thread_pop(s);
        }
        c.check_outputs();
        if (op % 16 == 0) {
            unsigned changed = h.check_outputs_registered();
            c.errors += changed;
            ++registered_checks;
        }
        if (rng() % 4 == 0) {
            h.step();
            c.check_outputs();
        }
    }

    if (h.axil_errors()) {
        std::printf("AXI4-Lite protocol/response errors: %u\n", h.axil_errors());
        c.errors += h.axil_errors();
    }
    std::printf("checked %llu register reads, %llu register writes, %llu thread request "
                "words, %llu thread response words, %llu HW2SW pops, %llu SW2HW overflow "
                "faults, %llu nonexistent-slot accesses, outputs on %llu cycles, %llu cycles "
                "in all\n"
                "checked %llu times that no slot or AXI output follows an input "
                "combinationally\n",
                (unsigned long long)c.reads, (unsigned long long)c.writes,
                (unsigned long long)c.thread_pushes, (unsigned long long)c.thread_pops,
                (unsigned long long)c.hw2sw_pops, (unsigned long long)c.overflow_faults,
                (unsigned long long)nonexistent, (unsigned long long)c.cycles_checked,
                (unsigned long long)h.cycle(), (unsigned long long)registered_checks);
    std::printf("tb_rtl_axil_regs: %d mismatches: %s\n", c.errors, c.errors ? "FAIL" : "PASS");
    return c.errors ? 1 : 0;
}

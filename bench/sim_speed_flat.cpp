// The reference half of weft-bench-sim-speed (sim_speed.cpp says what is measured): ONE
// Verilated model of the static region with hwt_sort in its slots (bench/rtl/
// weft_flat_top.sv), clocked by a plain loop on the calling thread (clock low, then high:
// the slots' gated clocks are derived inside the model), with the AXI4 memory slave of the
// simulation backend and nothing else: no runtime, no clock thread, no separately loaded images.
// The register window is driven by hand, and a small responder in the loop answers hwt_sort's OS
// calls.
#include "sim_speed.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "Vweft_flat_empty.h"
#include "Vweft_flat_empty___024root.h"
#include "Vweft_flat_sort.h"
#include "Vweft_flat_sort___024root.h"
#include "axi_mem_slave.h"
#include "bus_bits.h"
#include "verilated.h"
#include "weft/osif_protocol.h"
#include "weft/platform_config.h"

namespace
{

using namespace sim_speed;
using weft::sim::AxiMemSlave;
using weft::sim::bits_get;

constexpr unsigned kSlots = WEFT_PLATFORM_NUM_SLOTS;
constexpr unsigned kResetCycles = 8;              // as the backend resets the static model
constexpr uint64_t kLiteTimeoutCycles = 1u << 20; // as the backend's register-window limit

// M: the flattened model, with every slot holding a sort thread or none.
template <class M> class FlatLoop
{
  public:
    FlatLoop()
    {
        void *mem =
            mmap(nullptr, kDmaSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mem == MAP_FAILED)
            die("flat model: no memory for the DMA region");
        dma_ = static_cast<uint8_t *>(mem);
        context_ = std::make_unique<VerilatedContext>();
        context_->threads(1);
        context_->fatalOnError(false);
        top_ = std::make_unique<M>(context_.get(), "weft_flat_top");
        mem_ = std::make_unique<AxiMemSlave>(dma_, kDmaBus, kDmaSize);
        reset();
        uint32_t id = 0;
        if (lite(false, WEFT_REG_ID, 0, &id) != 0 || id != WEFT_REG_ID_VALUE)
            die("flat model: the static region does not answer ID (0x%08x)", id);
        // What weft_init does: every slot stopped, faults cleared.
        for (unsigned s = 0; s < kSlots; ++s) {
            write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET);
            write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT), WEFT_FAULT_MEM | WEFT_FAULT_OVERFLOW);
        }
    }

    ~FlatLoop()
    {
        top_->final();
        top_.reset();
        context_.reset();
        munmap(dma_, kDmaSize);
    }

    FlatLoop(const FlatLoop &) = delete;
    FlatLoop &operator=(const FlatLoop &) = delete;

    // hwt_sort in slots 0..n-1 with the same blocks as the co-simulation, started as the
    // runtime starts a thread (docs/osif.md, "Life of a slot").
    void start_sorters(unsigned n, unsigned blocks, unsigned rep)
    {
        uint64_t offset = 0;
        for (unsigned slot = 0; slot < n; ++slot) {
            Slot &sl = slots_[slot];
            const uint64_t bytes = uint64_t{blocks} * kBlockBytes;
            if (offset + bytes > kDmaSize)
                die("flat model: %u blocks per slot do not fit the DMA region", blocks);
            sl.ring.init(reinterpret_cast<uint32_t *>(dma_ + offset),
                         static_cast<uint32_t>(kDmaBus + offset), blocks, slot, rep);
            for (unsigned b = 0; b < blocks; ++b)
                queue(sl, b);
            write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_WIN_SIZE(0)), static_cast<uint32_t>(bytes));
            write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_WIN_BASE(0)),
                  static_cast<uint32_t>(kDmaBus + offset));
            write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_WIN_PERM(0)), WEFT_WIN_READ | WEFT_WIN_WRITE);
            write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_FAULT), WEFT_FAULT_MEM | WEFT_FAULT_OVERFLOW);
            write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL),
                  WEFT_CONTROL_RUN | WEFT_CONTROL_RESET | WEFT_CONTROL_IRQ_EN);
            write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL),
                  WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
            sl.busy = true;
            offset += (bytes + 4095) & ~uint64_t{4095};
        }
    }

    void keep_awake(unsigned slot)
    {
        write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RUN);
    }

    std::vector<uint64_t> busy()
    {
        std::vector<uint64_t> v;
        for (unsigned s = 0; s < kSlots; ++s) {
            if (!slots_[s].busy)
                continue;
            const uint32_t lo = read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_BUSY_LO));
            const uint32_t hi = read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_BUSY_HI));
            v.push_back(uint64_t{hi} << 32 | lo);
        }
        return v;
    }

    void warm_up()
    {
        for (unsigned round = 0;; ++round) {
            auto b = busy();
            if (std::all_of(b.begin(), b.end(), [](uint64_t x) { return x >= kWarmBusy; }))
                return;
            if (round > 1000)
                die("flat model: the sort threads did not start (%s)",
                    error_.empty() ? "no OS call problem seen" : error_.c_str());
            run_cycles(10000);
        }
    }

    Window measure(double seconds, bool check)
    {
        std::vector<uint64_t> b0 = check ? busy() : std::vector<uint64_t>{};
        const uint64_t c0 = cycle_;
        const double w0 = now_s(), u0 = cpu_s();
        run_until(w0 + seconds);
        const uint64_t c1 = cycle_;
        const double w1 = now_s(), u1 = cpu_s();
        Window w;
        w.wall = w1 - w0;
        w.cpu = u1 - u0;
        w.cycles = c1 - c0;
        if (check) {
            std::vector<size_t> left;
            for (const Slot &sl : slots_) {
                if (sl.busy)
                    left.push_back(sl.mbox.size());
            }
            check_work(&w, b0, busy(), left);
            if (unsorted_) {
                w.valid = false;
                w.why = "a block reported done is not sorted";
            }
        }
        if (!error_.empty()) {
            w.valid = false;
            w.why = error_;
        }
        return w;
    }

  private:
    static constexpr size_t kDmaSize = WEFT_PLATFORM_DMA_SIZE;
    static constexpr uint64_t kDmaBus = WEFT_PLATFORM_DMA_BUS;

    struct Slot {
        // The in-loop OS call responder's view of the thread.
        bool busy = false;
        BlockRing ring;            // its blocks
        std::deque<uint32_t> mbox; // descriptor words still to hand out
        std::vector<uint32_t> req; // request words received so far
        uint32_t nargs = 0;        // of the request in req
    };

    // ---- one fabric cycle ----

    void reset()
    {
        M &t = *top_;
        t.rst_ni = 0;
        mem_->drive(t);
        for (unsigned i = 0; i < kResetCycles; ++i)
            edge(t);
        t.rst_ni = 1;
        edge(t);
    }

    // A full clock period: the slots' clocks are gated from clk_i inside the model, so
    // the clock must really fall (verilated_edge.h's single evaluation keeps it high).
    static void edge(M &t)
    {
        t.clk_i = 0;
        t.eval();
        t.clk_i = 1;
        t.eval();
    }

    // The memory slave sees the master's registered outputs, then the edge.
    void cycle()
    {
        M &t = *top_;
        mem_->drive(t);
        mem_->sample(t);
        edge(t);
        mem_->commit();
        ++cycle_;
    }

    // The plain loop: cycles, and the OS call responder whenever an interrupt line is up.
    void run_cycles(uint64_t n)
    {
        for (uint64_t i = 0; i < n; ++i) {
            cycle();
            const uint64_t irq = bits_get(top_->irq_o);
            if (irq)
                serve(irq);
        }
    }

    void run_until(double end)
    {
        do {
            run_cycles(1024);
        } while (now_s() < end);
    }

    // ---- the register window by hand ----

    // One AXI4-Lite transaction, clocking the fabric until its response.
    int lite(bool is_write, uint32_t offset, uint32_t wdata, uint32_t *rdata)
    {
        M &t = *top_;
        bool aw = is_write, w = is_write, b = is_write, ar = !is_write, r = !is_write;
        t.s_axil_awaddr_i = static_cast<uint16_t>(offset);
        t.s_axil_araddr_i = static_cast<uint16_t>(offset);
        t.s_axil_wdata_i = wdata;
        t.s_axil_wstrb_i = 0xf;
        int rc = -ETIMEDOUT;
        for (uint64_t n = 0; n < kLiteTimeoutCycles; ++n) {
            t.s_axil_awvalid_i = aw;
            t.s_axil_wvalid_i = w;
            t.s_axil_bready_i = b;
            t.s_axil_arvalid_i = ar;
            t.s_axil_rready_i = r;
            const bool aw_hs = aw && t.s_axil_awready_o;
            const bool w_hs = w && t.s_axil_wready_o;
            const bool b_hs = b && t.s_axil_bvalid_o;
            const bool r_hs = r && t.s_axil_rvalid_o;
            const bool ar_hs = ar && t.s_axil_arready_o;
            if (b_hs)
                rc = t.s_axil_bresp_o ? -EIO : 0;
            if (r_hs) {
                rc = t.s_axil_rresp_o ? -EIO : 0;
                if (rdata)
                    *rdata = t.s_axil_rdata_o;
            }
            cycle();
            aw = aw && !aw_hs;
            w = w && !w_hs;
            ar = ar && !ar_hs;
            if (b_hs || r_hs)
                break;
        }
        t.s_axil_awvalid_i = 0;
        t.s_axil_wvalid_i = 0;
        t.s_axil_bready_i = 0;
        t.s_axil_arvalid_i = 0;
        t.s_axil_rready_i = 0;
        return rc;
    }

    uint32_t read(uint32_t offset)
    {
        uint32_t v = 0;
        int rc = lite(false, offset, 0, &v);
        if (rc)
            die("flat model: read of 0x%04x: %s", offset, std::strerror(-rc));
        return v;
    }

    void write(uint32_t offset, uint32_t v)
    {
        int rc = lite(true, offset, v, nullptr);
        if (rc)
            die("flat model: write of 0x%04x: %s", offset, std::strerror(-rc));
    }

    // ---- the OS call responder: what hwt_sort asks, answered in the loop ----

    void serve(uint64_t irq)
    {
        for (unsigned s = 0; s < kSlots; ++s) {
            if (!((irq >> s) & 1u))
                continue;
            const uint32_t st = read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_IRQ_STATUS));
            if (st & 2u) {
                const uint32_t addr = read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT_ADDR));
                stop(s, "memory fault at bus address 0x" + hex(addr));
                continue;
            }
            const uint32_t n = read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_STATUS)) & 0xffffu;
            for (uint32_t i = 0; i < n && slots_[s].busy; ++i)
                take_word(s, read(WEFT_SLOT_REG(s, WEFT_SLOT_REG_OSIF_HW2SW)));
        }
    }

    void take_word(unsigned s, uint32_t word)
    {
        Slot &sl = slots_[s];
        if (sl.req.empty()) {
            sl.nargs = (word >> WEFT_OSIF_REQ_NARGS_SHIFT) & WEFT_OSIF_REQ_NARGS_MASK;
            if (sl.nargs > WEFT_OSIF_MAX_ARGS) {
                stop(s, "framing fault: header 0x" + hex(word));
                return;
            }
        }
        sl.req.push_back(word);
        if (sl.req.size() < 1 + size_t{sl.nargs})
            return;
        const uint32_t cmd = (sl.req[0] >> WEFT_OSIF_REQ_CMD_SHIFT) & WEFT_OSIF_REQ_CMD_MASK;
        sl.req.clear();
        switch (cmd) {
        case WEFT_OSIF_CMD_GET_INIT_DATA:
            respond(s, cmd, WEFT_OSIF_OK, {kSortInit});
            break;
        case WEFT_OSIF_CMD_MUTEX_LOCK:
        case WEFT_OSIF_CMD_MUTEX_UNLOCK:
            respond(s, cmd, WEFT_OSIF_OK, {});
            break;
        case WEFT_OSIF_CMD_MBOX_GET:
            // Preloaded descriptors; with none left the thread stays blocked, as it would
            // on an empty mailbox (the busy check then flags the window).
            if (!sl.mbox.empty()) {
                respond(s, cmd, WEFT_OSIF_OK, {sl.mbox.front()});
                sl.mbox.pop_front();
            }
            break;
        case WEFT_OSIF_CMD_SEM_POST: {
            // A block done: back into the ring, as the co-simulation's measuring thread does.
            unsigned b = 0;
            unsorted_ = !sl.ring.recycle(&b) || unsorted_;
            queue(sl, b);
            respond(s, cmd, WEFT_OSIF_OK, {});
            break;
        }
        case WEFT_OSIF_CMD_THREAD_EXIT:
            stop(s, "the thread exited");
            break;
        default:
            stop(s, "unexpected command 0x" + hex(cmd));
            break;
        }
    }

    static void queue(Slot &sl, unsigned b)
    {
        sl.mbox.push_back(sl.ring.bus_of(b));
        sl.mbox.push_back(kBlockBytes);
    }

    void respond(unsigned s, uint32_t cmd, uint32_t status, std::initializer_list<uint32_t> words)
    {
        write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_OSIF_SW2HW),
              cmd << WEFT_OSIF_RESP_CMD_SHIFT | status << WEFT_OSIF_RESP_STATUS_SHIFT |
                  static_cast<uint32_t>(words.size()) << WEFT_OSIF_RESP_NWORDS_SHIFT);
        for (uint32_t v : words)
            write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_OSIF_SW2HW), v);
    }

    void stop(unsigned s, const std::string &why)
    {
        write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET);
        write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT), WEFT_FAULT_MEM | WEFT_FAULT_OVERFLOW);
        slots_[s].busy = false;
        if (error_.empty())
            error_ = "slot " + std::to_string(s) + ": " + why;
    }

    static std::string hex(uint32_t v)
    {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%08x", v);
        return buf;
    }

    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<M> top_;
    std::unique_ptr<AxiMemSlave> mem_;
    Slot slots_[kSlots];
    uint8_t *dma_ = nullptr;
    uint64_t cycle_ = 0;
    std::string error_;
    bool unsorted_ = false;
};

} // namespace

sim_speed::Window sim_speed::run_flat(unsigned busy, double seconds, unsigned blocks, unsigned rep)
{
    if (busy == 0) {
        FlatLoop<Vweft_flat_empty> fl;
        fl.keep_awake(0);
        return fl.measure(seconds, false);
    }
    FlatLoop<Vweft_flat_sort> fl;
    fl.start_sorters(busy, blocks, rep);
    fl.warm_up();
    return fl.measure(seconds, true);
}

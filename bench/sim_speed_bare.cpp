// The bare half of weft-bench-sim-speed (sim_speed.cpp says what is measured): the static
// region's Verilated model and the slot images, clocked by a plain loop on the calling
// thread with the wiring of platform/sim/fabric.cpp (eval_low, edge) and nothing else: no
// runtime, no clock thread, no request queue, no atomics. The register window is driven
// by hand, and a small responder in the loop answers hwt_sort's OS calls.
#include "sim_speed.h"

#include <dlfcn.h>
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

#include "Vweft_static.h"
#include "axi_mem_slave.h"
#include "bus_bits.h"
#include "slot_model_abi.h"
#include "verilated.h"
#include "weft/osif_protocol.h"
#include "weft/platform_config.h"

namespace
{

using namespace sim_speed;
using weft::sim::AxiMemSlave;
using weft::sim::bits_get;
using weft::sim::bits_set;
using weft::sim::word_get;
using weft::sim::word_set;

constexpr unsigned kSlots = WEFT_PLATFORM_NUM_SLOTS;
constexpr unsigned kResetCycles = 8;              // as the backend resets the static model
constexpr uint64_t kLiteTimeoutCycles = 1u << 20; // as the backend's register-window limit

class BareLoop
{
  public:
    explicit BareLoop(const char *image) : image_(image)
    {
        void *mem =
            mmap(nullptr, kDmaSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mem == MAP_FAILED)
            die("bare loop: no memory for the DMA region");
        dma_ = static_cast<uint8_t *>(mem);
        context_ = std::make_unique<VerilatedContext>();
        context_->threads(1);
        context_->fatalOnError(false);
        top_ = std::make_unique<Vweft_static>(context_.get(), "weft_static");
        mem_ = std::make_unique<AxiMemSlave>(dma_, kDmaBus, kDmaSize);
        reset();
        uint32_t id = 0;
        if (lite(false, WEFT_REG_ID, 0, &id) != 0 || id != WEFT_REG_ID_VALUE)
            die("bare loop: the static region does not answer ID (0x%08x)", id);
        // What weft_init does: every slot stopped, faults cleared.
        for (unsigned s = 0; s < kSlots; ++s) {
            write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET);
            write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_FAULT), WEFT_FAULT_MEM | WEFT_FAULT_OVERFLOW);
        }
    }

    ~BareLoop()
    {
        for (Slot &s : slots_) {
            if (s.model)
                s.abi->destroy(s.model);
            if (s.dl)
                dlclose(s.dl);
        }
        top_->final();
        top_.reset();
        context_.reset();
        munmap(dma_, kDmaSize);
    }

    BareLoop(const BareLoop &) = delete;
    BareLoop &operator=(const BareLoop &) = delete;

    // hwt_sort in slots 0..n-1 with the same blocks as the co-simulation, started as the
    // runtime starts a thread (docs/osif.md, "Life of a slot").
    void start_sorters(unsigned n, unsigned blocks, unsigned rep)
    {
        uint64_t offset = 0;
        for (unsigned slot = 0; slot < n; ++slot) {
            Slot &sl = slots_[slot];
            const uint64_t bytes = uint64_t{blocks} * kBlockBytes;
            if (offset + bytes > kDmaSize)
                die("bare loop: %u blocks per slot do not fit the DMA region", blocks);
            sl.cpu = reinterpret_cast<uint32_t *>(dma_ + offset);
            fill_blocks(sl.cpu, blocks, slot, rep);
            for (unsigned b = 0; b < blocks; ++b) {
                sl.mbox.push_back(static_cast<uint32_t>(kDmaBus + offset + b * kBlockBytes));
                sl.mbox.push_back(kBlockBytes);
            }
            load(slot);
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
                die("bare loop: the sort threads did not start (%s)",
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
            check_busy(&w, b0, busy());
            for (Slot &sl : slots_) {
                if (sl.busy && sl.posted && !blocks_sorted(sl.cpu, sl.posted)) {
                    w.valid = false;
                    w.why = "a block reported done is not sorted";
                }
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
        const weft_slot_model_abi_t *abi = nullptr;
        weft_slot_model_t *model = nullptr;
        void *dl = nullptr;
        weft_slot_inputs_t in{};
        weft_slot_outputs_t out{};
        // The in-loop OS call responder's view of the thread.
        bool busy = false;
        uint32_t *cpu = nullptr;   // its blocks
        unsigned posted = 0;       // SEM_POSTs: blocks done
        std::deque<uint32_t> mbox; // descriptor words still to hand out
        std::vector<uint32_t> req; // request words received so far
        uint32_t nargs = 0;        // of the request in req
    };

    // ---- one fabric cycle, wired as platform/sim/fabric.cpp wires it ----

    void reset()
    {
        Vweft_static &t = *top_;
        t.rst_ni = 0;
        mem_->drive(t);
        for (unsigned i = 0; i < kResetCycles; ++i) {
            t.clk_i = 0;
            t.eval();
            t.clk_i = 1;
            t.eval();
        }
        t.clk_i = 0;
        t.eval();
        t.rst_ni = 1;
        t.eval();
    }

    void eval_low()
    {
        Vweft_static &t = *top_;
        const uint64_t run = bits_get(t.slot_run_o);
        run_ = run;
        if (run) {
            const uint64_t rst_n = bits_get(t.slot_rst_no);
            const uint64_t in_valid = bits_get(t.slot_osif_in_valid_o);
            const uint64_t out_ready = bits_get(t.slot_osif_out_ready_o);
            const uint64_t cmd_ready = bits_get(t.slot_mem_cmd_ready_o);
            const uint64_t wr_ready = bits_get(t.slot_mem_wr_ready_o);
            const uint64_t rd_valid = bits_get(t.slot_mem_rd_valid_o);
            for (unsigned s = 0; s < kSlots; ++s) {
                Slot &sl = slots_[s];
                if (!((run >> s) & 1u) || !sl.model)
                    continue;
                weft_slot_inputs_t &in = sl.in;
                in.rst_n = (rst_n >> s) & 1u;
                in.osif_in_data = word_get(t.slot_osif_in_data_o, s);
                in.osif_in_valid = (in_valid >> s) & 1u;
                in.osif_out_ready = (out_ready >> s) & 1u;
                in.mem_cmd_ready = (cmd_ready >> s) & 1u;
                in.mem_wr_ready = (wr_ready >> s) & 1u;
                in.mem_rd_data = word_get(t.slot_mem_rd_data_o, s);
                in.mem_rd_valid = (rd_valid >> s) & 1u;
                sl.abi->eval(sl.model, 0, &in, &sl.out);
            }
        }
        uint64_t in_ready = 0, out_valid = 0, cmd_valid = 0, wr_valid = 0, rd_ready = 0;
        for (unsigned s = 0; s < kSlots; ++s) {
            const weft_slot_outputs_t &o = slots_[s].out;
            in_ready |= uint64_t{o.osif_in_ready & 1u} << s;
            out_valid |= uint64_t{o.osif_out_valid & 1u} << s;
            cmd_valid |= uint64_t{o.mem_cmd_valid & 1u} << s;
            wr_valid |= uint64_t{o.mem_wr_valid & 1u} << s;
            rd_ready |= uint64_t{o.mem_rd_ready & 1u} << s;
            word_set(t.slot_osif_out_data_i, s, o.osif_out_data);
            word_set(t.slot_mem_cmd_data_i, s, o.mem_cmd_data);
            word_set(t.slot_mem_wr_data_i, s, o.mem_wr_data);
        }
        bits_set(t.slot_osif_in_ready_i, in_ready);
        bits_set(t.slot_osif_out_valid_i, out_valid);
        bits_set(t.slot_mem_cmd_valid_i, cmd_valid);
        bits_set(t.slot_mem_wr_valid_i, wr_valid);
        bits_set(t.slot_mem_rd_ready_i, rd_ready);
        mem_->drive(t);
        t.clk_i = 0;
        t.eval();
    }

    void edge()
    {
        Vweft_static &t = *top_;
        const uint64_t run = run_;
        mem_->sample(t);
        t.clk_i = 1;
        t.eval();
        if (run) {
            for (unsigned s = 0; s < kSlots; ++s) {
                Slot &sl = slots_[s];
                if (((run >> s) & 1u) && sl.model)
                    sl.abi->eval(sl.model, 1, &sl.in, &sl.out);
            }
        }
        mem_->commit();
        ++cycle_;
    }

    // The plain loop: cycles, and the OS call responder whenever an interrupt line is up.
    void run_cycles(uint64_t n)
    {
        for (uint64_t i = 0; i < n; ++i) {
            eval_low();
            edge();
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
        Vweft_static &t = *top_;
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
            eval_low();
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
            edge();
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
            die("bare loop: read of 0x%04x: %s", offset, std::strerror(-rc));
        return v;
    }

    void write(uint32_t offset, uint32_t v)
    {
        int rc = lite(true, offset, v, nullptr);
        if (rc)
            die("bare loop: write of 0x%04x: %s", offset, std::strerror(-rc));
    }

    void load(unsigned slot)
    {
        Slot &sl = slots_[slot];
        void *dl = dlopen(image_, RTLD_NOW | RTLD_LOCAL);
        if (!dl)
            die("bare loop: %s: %s", image_, dlerror());
        auto fn = reinterpret_cast<weft_slot_model_abi_fn>(dlsym(dl, WEFT_SLOT_MODEL_ABI_SYMBOL));
        const weft_slot_model_abi_t *abi = fn ? fn() : nullptr;
        if (!abi || abi->abi_version != WEFT_SLOT_MODEL_ABI_VERSION || !abi->create || !abi->eval ||
            !abi->destroy)
            die("bare loop: %s is not a thread image of ABI %u", image_,
                WEFT_SLOT_MODEL_ABI_VERSION);
        sl.model = abi->create();
        if (!sl.model)
            die("bare loop: %s could not create its model", image_);
        sl.abi = abi;
        sl.dl = dl;
        sl.in = weft_slot_inputs_t{};
        sl.out = weft_slot_outputs_t{};
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
        case WEFT_OSIF_CMD_SEM_POST:
            ++sl.posted;
            respond(s, cmd, WEFT_OSIF_OK, {});
            break;
        case WEFT_OSIF_CMD_THREAD_EXIT:
            stop(s, "the thread exited");
            break;
        default:
            stop(s, "unexpected command 0x" + hex(cmd));
            break;
        }
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
    std::unique_ptr<Vweft_static> top_;
    std::unique_ptr<AxiMemSlave> mem_;
    Slot slots_[kSlots];
    uint8_t *dma_ = nullptr;
    uint64_t cycle_ = 0;
    uint64_t run_ = 0;
    std::string error_;
    const char *image_;
};

} // namespace

sim_speed::Window sim_speed::run_bare(unsigned busy, double seconds, unsigned blocks, unsigned rep,
                                      const char *image)
{
    BareLoop bl(image);
    if (busy == 0) {
        bl.keep_awake(0);
        return bl.measure(seconds, false);
    }
    bl.start_sorters(busy, blocks, rep);
    bl.warm_up();
    return bl.measure(seconds, true);
}

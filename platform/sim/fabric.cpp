// The clock thread and everything it drives. See fabric.h and docs/architecture.md.
//
// Threads: runtime threads only queue requests (MMIO, reconfiguration) and wait on
// interrupt lines; every Verilated model is created, evaluated and destroyed on the
// clock thread (the static model is built before it starts and freed after it ends),
// except that a helper thread (slot_workers.h) may evaluate some slots' edges within a
// cycle. The per-cycle path takes no lock and makes no system call: it notices queued
// work with one relaxed atomic load and publishes interrupt lines only when they change.
//
// A cycle (prepare(), advance()):
//   1. Each running slot whose inputs (the static region's registered outputs) changed
//      since its model last saw them is settled with them: its outputs are then those
//      of this cycle. An unchanged slot's outputs after its last edge already are.
//   2. Slot outputs that changed are copied to the static model, which is then settled
//      (only then, and only when the fabric could rest) so that quiet_o, hold_o and
//      slot_idle_o describe this cycle.
//   3. Quiet fabric: no edge, the clock thread sleeps. Holding static region (nothing
//      but its free-running counters would change): its edge is skipped and counted;
//      the skipped edges are given to it in one evaluation (skip_i) before anything
//      changes its inputs. Otherwise it gets its rising edge.
//   4. Every running slot gets its rising edge, except a slot the static region calls
//      idle (blocked in an OS call with nothing pending: boundary rule 2), which is
//      paused until its inputs change or it stops being idle.
// A held cycle after which no slot's outputs changed leaves steps 1 to 3 nothing to
// do, so such cycles follow one another with only step 4 (hold_cycles()).
// Every model is evaluated once per edge (verilated_edge.h); WEFT_SIM_EVAL_ALL turns
// steps 3's skipping and 4's pausing off, for measurements and checks.

#include "fabric.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "Vweft_static.h"
#include "Vweft_static___024root.h"
#include "axi_mem_slave.h"
#include "bus_bits.h"
#include "verilated.h"
#include "verilated_edge.h"
#include "weft/osif_protocol.h"
#include "weft/platform_config.h"

// Defined only in the installed shared library, libweft_sim.so (installed_image_dir.cpp):
// there the images sit beside the library, wherever its prefix was put. The static
// library the tree links has no definition and keeps the build's image directory.
extern "C" const char *weft_sim_installed_image_dir(void) __attribute__((weak));

namespace weft::sim
{

namespace
{

// The DMA region of the platform description (platform/default.yaml or WEFT_PLATFORM).
constexpr size_t kDefaultDmaSize = WEFT_PLATFORM_DMA_SIZE;
constexpr uint32_t kDefaultDmaBus = WEFT_PLATFORM_DMA_BUS;
constexpr unsigned kResetCycles = 8;
// An AXI4-Lite transaction that has not finished after this many cycles means the
// register window hangs; the caller gets -EIO rather than waiting forever.
constexpr uint64_t kMmioTimeoutCycles = 1u << 20;
// Skipped hold edges are handed to the static region at least this often, so its
// counters never fall behind by more than skip_i can say.
constexpr uint32_t kMaxSkipped = 1u << 30;
// Held cycles run back to back without the full cycle's checks (hold_cycles()).
constexpr uint64_t kMaxHeldRun = 4096;
// Cycles a borrower of the models runs after its MMIO transaction while the fabric has
// work (run_on_caller()), before it hands the fabric back to the clock thread.
constexpr uint64_t kRunAheadCycles = 256;
constexpr unsigned kReqWords = WEFT_SLOT_REQ_WORDS;
constexpr unsigned kRspWords = WEFT_SLOT_RSP_WORDS;

static_assert(WEFT_PLATFORM_NUM_SLOTS >= 1 && WEFT_PLATFORM_NUM_SLOTS <= 62,
              "the clock loop handles 1 to 62 slots (bit NUM_SLOTS of the lines is the OS "
              "services', bit 63 the FRI's)");

inline bool bit(uint64_t v, unsigned s)
{
    return (v >> s) & 1u;
}

inline bool words_equal(const uint32_t *a, const uint32_t *b, unsigned n)
{
    return std::memcmp(a, b, n * sizeof(uint32_t)) == 0;
}

const char *default_image_dir()
{
    const char *installed = weft_sim_installed_image_dir ? weft_sim_installed_image_dir() : nullptr;
    return installed ? installed : WEFT_SIM_IMAGE_DIR;
}

} // namespace

// ---- construction and teardown --------------------------------------------------------

static int64_t steady_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// irq_wait spins only this soon after a register access (see last_mmio_ns_).
constexpr int64_t kSpinAfterMmioNs = 200 * 1000;
// How long a waiter spins before it sleeps: 40 us.
constexpr int64_t kSpinNs = 40 * 1000;
// irq_wait spins as long in fabric time: the cycles a board's fabric runs in kSpinNs. What
// it waits for is a thread's next request, and the fabric decides when that comes: on a
// board a delegate that spins 40 us catches a thread that asks again within 4,000 cycles,
// and so it does here, where those cycles take a hundred times longer to simulate (with
// 40 us of host time it would sleep, and its wake-up would stand in the call's time
// though a board has none). At most kIrqSpinMaxNs of host time, for a slow fabric.
constexpr uint64_t kIrqSpinCycles = (kSpinNs / 1000) * WEFT_PLATFORM_CLOCK_MHZ;
constexpr int64_t kIrqSpinMaxNs = 2 * 1000 * 1000;

// Poll `ready` while `more` holds (asked every 64 polls); true when it turned true. Only
// for waits that usually end soon; the caller then sleeps on its condition as before.
template <class Ready, class More> static bool spin_while(Ready ready, More more)
{
    do {
        for (int i = 0; i < 64; ++i) {
            if (ready())
                return true;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#elif defined(__aarch64__)
            asm volatile("yield");
#endif
        }
    } while (more());
    return ready();
}

// Poll `ready` for at most kSpinNs of host time.
template <class Ready> static bool spin_until(Ready ready)
{
    const int64_t until = steady_ns() + kSpinNs;
    return spin_while(ready, [until] { return steady_ns() < until; });
}

int Fabric::create(const weft_sim_config_t *cfg, std::unique_ptr<Fabric> *out)
{
    size_t dma_size = cfg && cfg->dma_size ? cfg->dma_size : kDefaultDmaSize;
    uint32_t dma_bus = cfg && cfg->dma_bus_base ? cfg->dma_bus_base : kDefaultDmaBus;
    if (dma_size % 4096 != 0 || dma_bus % 4096 != 0 ||
        uint64_t{dma_bus} + dma_size > (uint64_t{1} << 32) ||
        (cfg && (cfg->flags & ~WEFT_SIM_EVAL_ALL) != 0)) {
        return -EINVAL;
    }

    std::unique_ptr<Fabric> f(new (std::nothrow) Fabric);
    if (!f)
        return -ENOMEM;
    void *mem = mmap(nullptr, dma_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return -ENOMEM;
    f->dma_ = static_cast<uint8_t *>(mem);
    f->dma_size_ = dma_size;
    f->dma_bus_ = dma_bus;
    f->nslots_ = WEFT_PLATFORM_NUM_SLOTS;
    f->eval_all_ = cfg && (cfg->flags & WEFT_SIM_EVAL_ALL);
    std::string why;
    const char *waves = std::getenv("WEFT_WAVES");
    const char *waves_from = "WEFT_WAVES";
    if (!waves) {
        waves = cfg ? cfg->waves : nullptr;
        waves_from = "weft_sim_config_t.waves";
    }
    if (!parse_wave_requests(waves, f->nslots_, &f->waves_, &why)) {
        std::fprintf(stderr, "weft sim: %s \"%s\": %s\n", waves_from, waves, why.c_str());
        return -EINVAL;
    }
    try {
        f->image_dir_ = cfg && cfg->image_dir ? cfg->image_dir : default_image_dir();
    } catch (const std::bad_alloc &) {
        return -ENOMEM;
    }

    try {
        f->context_ = std::make_unique<VerilatedContext>();
        f->context_->threads(1); // single-threaded model: no pool of idle workers
        f->context_->fatalOnError(false);
        f->top_ = std::make_unique<Vweft_static>(f->context_.get(), "weft_static");
        f->mem_slave_ = std::make_unique<AxiMemSlave>(f->dma_, dma_bus, dma_size);
        f->slots_ = std::vector<SlotModel>(f->nslots_);
        f->irq_cancelled_.assign(f->nslots_ + 1, 0); // the slots' lines and the OS services' line
        f->workers_.enable(true);
        f->reset_fabric();
        f->clock_ = std::thread(&Fabric::clock_main, f.get());
    } catch (const std::bad_alloc &) {
        return -ENOMEM;
    } catch (const std::system_error &) {
        return -EAGAIN;
    }

    // The register window must be Weft's and agree with the slot count built in.
    uint32_t id = 0, n = 0;
    int rc = f->mmio_read(WEFT_REG_ID, &id);
    if (rc == 0)
        rc = f->mmio_read(WEFT_REG_NUM_SLOTS, &n);
    if (rc == 0 && (id != WEFT_REG_ID_VALUE || n != f->nslots_)) {
        std::fprintf(
            stderr,
            "weft sim: static region answers ID 0x%08x NUM_SLOTS %u, expected 0x%08x and %u\n", id,
            n, WEFT_REG_ID_VALUE, f->nslots_);
        rc = -EIO;
    }
    if (rc != 0)
        return rc;
    *out = std::move(f);
    return 0;
}

Fabric::~Fabric()
{
    if (clock_.joinable()) {
        {
            std::lock_guard<std::mutex> lk(mu_);
            stop_ = true;
            attention_.store(true, std::memory_order_release);
        }
        wake_cv_.notify_one();
        clock_.join();
    }
    workers_.stop();
    for (SlotModel &s : slots_) {
        if (s.dl)
            dlclose(s.dl);
        s.dl = nullptr;
    }
    for (void *dl : retired_)
        dlclose(dl);
    for (LoadedImage &im : loaded_)
        close_thread_image(&im.image);
    if (top_)
        top_->final();
    top_.reset();
    mem_slave_.reset();
    context_.reset();
    if (dma_)
        munmap(dma_, dma_size_);
}

void Fabric::reset_fabric()
{
    Vweft_static &t = *top_;
    t.rst_ni = 0;
    t.skip_i = 0;
    mem_slave_->drive(t);
    for (unsigned i = 0; i < kResetCycles; ++i)
        rising_edge(t);
    t.rst_ni = 1;
    settle(t);
    irq_seen_ = irq_lines(t);
    irq_level_.store(irq_seen_, std::memory_order_release);
}

// ---- the clock thread ----------------------------------------------------------------

void Fabric::clock_main()
{
    running_begin();
    for (;;) {
        if (!lite_.req && attention_.load(std::memory_order_acquire)) {
            catch_up();
            if (!take_requests())
                break;
        }
        const bool fresh = prepare();
        // A quiet fabric gets no edge: its time stands still while it rests.
        if (fresh && may_rest() && top_->quiet_o && !attention_.load(std::memory_order_relaxed)) {
            catch_up();
            rest();
            continue;
        }
        advance(fresh, kMaxHeldRun);
    }
    running_end();
    // Stopping: fail whatever is still queued, then free the slot models on this thread.
    {
        std::lock_guard<std::mutex> lk(mu_);
        for (Request *r : queue_) {
            r->rc = -ECANCELED;
            r->done.store(true, std::memory_order_release);
            r->cv.notify_one();
        }
        queue_.clear();
    }
    workers_.stop();
    for (SlotModel &s : slots_) {
        if (s.model)
            s.abi->destroy(s.model);
        s.model = nullptr;
    }
}

// No register-window transaction and no memory burst in progress: the static region
// may be quiet or holding.
bool Fabric::may_rest() const
{
    return !lite_.req && mem_slave_->idle();
}

// Steps 1 and 2 of a cycle. Returns true when quiet_o, hold_o and slot_idle_o describe
// this cycle (they are left from the last evaluation when no input changed).
bool Fabric::prepare()
{
    Vweft_static &t = *top_;
    const unsigned n = nslots_;
    const uint64_t run = bits_get(t.slot_run_o);
    const uint64_t rst_n = bits_get(t.slot_rst_no);
    const uint32_t *rsp_all = t.slot_rsp_o.data();
    uint32_t *req_all = t.slot_req_i.data();
    bool changed = false;
    for (unsigned s = 0; s < n; ++s) {
        SlotModel &sl = slots_[s];
        if (!sl.model || !bit(run, s))
            continue;
        const uint32_t *rsp = rsp_all + s * kRspWords;
        const int rn = bit(rst_n, s);
        if (!sl.fresh || rn != sl.rst_n || !words_equal(rsp, sl.rsp, kRspWords))
            sl.settle(rsp, rn);
        if (!words_equal(sl.req, req_all + s * kReqWords, kReqWords)) {
            if (!changed)
                catch_up(); // skipped hold edges saw the old inputs
            changed = true;
            std::memcpy(req_all + s * kReqWords, sl.req, sizeof sl.req);
        }
    }
    if (!changed)
        return true;
    if (!may_rest())
        return false; // the edge comes anyway; nothing to decide before it
    settle(t);
    stat_static_evals_.fetch_add(1, std::memory_order_relaxed);
    return true;
}

// Hands the skipped hold edges to the static region: one evaluation with the inputs
// they saw, counting itself and skip_i more.
void Fabric::catch_up()
{
    if (skipped_ == 0)
        return;
    Vweft_static &t = *top_;
    t.skip_i = skipped_ - 1;
    rising_edge(t);
    t.skip_i = 0;
    skipped_ = 0;
    stat_static_evals_.fetch_add(1, std::memory_order_relaxed);
}

// Steps 3 and 4 of a cycle; a holding static region may run up to max_held cycles.
void Fabric::advance(bool fresh, uint64_t max_held)
{
    Vweft_static &t = *top_;
    if (t.fri_load_done_i && !t.fri_load_o) {
        // The FRI took the loader's answer at the last edge.
        catch_up();
        t.fri_load_done_i = 0;
        t.fri_load_ok_i = 0;
        fresh = false;
    }
    const unsigned n = nslots_;
    const bool rest = fresh && !eval_all_ && may_rest();
    const bool hold = rest && t.hold_o && skipped_ < kMaxSkipped;
    const uint64_t idle = rest ? bits_get(t.slot_idle_o) : 0;
    const uint64_t run = bits_get(t.slot_run_o);

    uint8_t list[64];
    unsigned count = 0;
    for (unsigned s = 0; s < n; ++s) {
        if (slots_[s].model && bit(run, s) && !bit(idle, s))
            list[count++] = static_cast<uint8_t>(s);
    }
    if (hold) {
        hold_cycles(list, count, max_held);
        return;
    }
    workers_.edges(slots_.data(), list, count, [this] { static_edge(); });
    ++cycle_;
    stat_cycles_.store(cycle_, std::memory_order_relaxed);
    if (waving_)
        sample_waves();
    if (t.fri_load_o && !t.fri_load_done_i)
        fri_loader();
    const uint64_t irq = irq_lines(t);
    if (irq != irq_seen_)
        publish_irq(irq);
    if (lite_.req)
        finish_lite();
}

// Cycles in which the static region holds: only the slots in list get their edges. After
// such a cycle nothing the next one decides on has changed unless a slot's outputs did
// (the static region's outputs, the slots' inputs, quiet_o, hold_o and slot_idle_o are
// as they were) or a request came in, so further cycles follow here without prepare()
// and its comparisons: the same edges the clock loop would give, at less cost a cycle.
// At most max_held in a row, so that the held-cycle count stays current.
void Fabric::hold_cycles(const uint8_t *list, unsigned count, uint64_t max_held)
{
    const uint32_t *req_all = top_->slot_req_i.data();
    uint64_t held = 0;
    bool same;
    do {
        workers_.edges(slots_.data(), list, count, [] {});
        ++skipped_;
        ++cycle_;
        ++held;
        stat_cycles_.store(cycle_, std::memory_order_relaxed);
        if (waving_)
            sample_waves();
        same = true;
        for (unsigned i = 0; i < count && same; ++i)
            same = words_equal(slots_[list[i]].req, req_all + list[i] * kReqWords, kReqWords);
    } while (same && held < max_held && skipped_ < kMaxSkipped &&
             !attention_.load(std::memory_order_relaxed));
    stat_held_.fetch_add(held, std::memory_order_relaxed);
}

// The static region's rising edge, with the memory slave and the register-window
// master taking their part of the handshakes.
void Fabric::static_edge()
{
    Vweft_static &t = *top_;
    AxiMemSlave &mem = *mem_slave_;
    mem.drive(t);
    mem.sample(t);
    LiteMaster &l = lite_;
    if (l.req) {
        l.aw_hs = l.aw && t.s_axil_awready_o;
        l.w_hs = l.w && t.s_axil_wready_o;
        l.b_hs = l.b && t.s_axil_bvalid_o;
        l.ar_hs = l.ar && t.s_axil_arready_o;
        l.r_hs = l.r && t.s_axil_rvalid_o;
        if (l.b_hs)
            l.rc = t.s_axil_bresp_o ? -EIO : 0;
        if (l.r_hs) {
            l.rc = t.s_axil_rresp_o ? -EIO : 0;
            l.rdata = t.s_axil_rdata_o;
        }
    }
    rising_edge(t);
    mem.commit();
    stat_static_evals_.fetch_add(1, std::memory_order_relaxed);
}

// The AXI4-Lite master's state across the edge; completes the request one cycle after
// its response so the interrupt lines published by then reflect it.
void Fabric::finish_lite()
{
    Vweft_static &t = *top_;
    LiteMaster &l = lite_;
    if (l.tail) {
        Request *req = l.req;
        const int rc = l.rc;
        if (req->kind == Request::Kind::kRead)
            req->value = l.rdata;
        l = LiteMaster{};
        stat_mmio_.fetch_add(1, std::memory_order_relaxed);
        complete(req, rc);
        return;
    }
    if (l.aw_hs)
        l.aw = false;
    if (l.w_hs)
        l.w = false;
    if (l.ar_hs)
        l.ar = false;
    if (l.b_hs || l.r_hs) {
        l.b = l.r = false;
        l.tail = true;
    } else if (cycle_ - l.started > kMmioTimeoutCycles) {
        std::fprintf(stderr, "weft sim: register window did not answer %s of offset 0x%04x\n",
                     l.req->kind == Request::Kind::kRead ? "a read" : "a write", l.req->offset);
        Request *req = l.req;
        l = LiteMaster{};
        complete(req, -EIO);
    }
    t.s_axil_awvalid_i = l.aw;
    t.s_axil_wvalid_i = l.w;
    t.s_axil_bready_i = l.b;
    t.s_axil_arvalid_i = l.ar;
    t.s_axil_rready_i = l.r;
}

// Changes the static region's inputs: skipped hold edges are given to it first, with the
// inputs they saw.
void Fabric::start_lite(Request *req)
{
    catch_up();
    Vweft_static &t = *top_;
    LiteMaster &l = lite_;
    l = LiteMaster{};
    l.req = req;
    l.started = cycle_;
    if (req->kind == Request::Kind::kWrite) {
        l.aw = l.w = l.b = true;
        t.s_axil_awaddr_i = static_cast<uint16_t>(req->offset);
        t.s_axil_wdata_i = req->value;
        t.s_axil_wstrb_i = 0xf;
    } else {
        l.ar = l.r = true;
        t.s_axil_araddr_i = static_cast<uint16_t>(req->offset);
    }
    t.s_axil_awvalid_i = l.aw;
    t.s_axil_wvalid_i = l.w;
    t.s_axil_bready_i = l.b;
    t.s_axil_arvalid_i = l.ar;
    t.s_axil_rready_i = l.r;
}

// Called with no transaction in flight and no skipped hold edge. Carries out queued
// reconfigurations, starts the next MMIO transaction. Returns false when the clock thread
// must stop.
bool Fabric::take_requests()
{
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_)
        return false;
    while (!queue_.empty()) {
        Request *req = queue_.front();
        queue_.pop_front();
        if (req->kind == Request::Kind::kReconfigure) {
            do_reconfigure(req);
            continue;
        }
        start_lite(req);
        break;
    }
    attention_.store(!queue_.empty(), std::memory_order_relaxed);
    return true;
}

// The thread running the fabric: slot's model becomes model of abi (both null: the slot
// is empty), owning dl if not null; returns the image the slot owned before, for the
// caller to close off the fabric's thread.
void *Fabric::install(unsigned slot, const weft_slot_model_abi_t *abi, weft_slot_model_t *model,
                      void *dl)
{
    SlotModel &sl = slots_[slot];
    if (sl.model)
        sl.abi->destroy(sl.model); // closes its waveform, if it had one
    waves_[slot].open = false;
    void *old = sl.dl;
    sl.abi = abi;
    sl.model = model;
    sl.dl = dl;
    if (model && waves_[slot].wanted && cycle_ <= waves_[slot].to)
        wave_start(slot);
    std::memset(sl.rsp, 0, sizeof sl.rsp);
    std::memset(sl.req, 0, sizeof sl.req);
    sl.fresh = false;
    // The static region sees the new, empty slot's outputs (it ignores them until the
    // slot runs).
    std::memset(top_->slot_req_i.data() + slot * kReqWords, 0, sizeof sl.req);
    return old;
}

// ---- waveforms on demand (waves.h) ----------------------------------------------------

// Whichever thread runs the fabric (the clock thread, or a runtime thread that borrowed
// it for its register access, fabric_fri.cpp): the model just installed in slot records
// into its file.
void Fabric::wave_start(unsigned slot)
{
    WaveRequest &w = waves_[slot];
    const std::string path = wave_file_name(w.file, w.loaded++);
    int rc = slots_[slot].abi->wave_open(slots_[slot].model, path.c_str());
    if (rc != 0) {
        std::fprintf(stderr, "weft sim: slot %u: cannot write waveform %s: %s\n", slot,
                     path.c_str(), std::strerror(-rc));
        return;
    }
    w.open = true;
    waving_ = true;
}

// The thread running the fabric, after a cycle's edges: every open file gets the cycle
// (in picoseconds at the platform's clock) while it is in its window, and is closed with
// the window's last cycle, so that it is whole even if the fabric then goes quiet.
void Fabric::sample_waves()
{
    constexpr uint64_t kCyclePs = 1000000u / WEFT_PLATFORM_CLOCK_MHZ;
    bool any = false;
    for (unsigned s = 0; s < nslots_; ++s) {
        WaveRequest &w = waves_[s];
        if (!w.open)
            continue;
        if (cycle_ >= w.from && cycle_ <= w.to)
            slots_[s].abi->wave_sample(slots_[s].model, cycle_ * kCyclePs);
        if (cycle_ >= w.to) {
            slots_[s].abi->wave_close(slots_[s].model);
            w.open = false;
            continue;
        }
        any = true;
    }
    waving_ = any;
}

// Holds mu_.
void Fabric::do_reconfigure(Request *req)
{
    int rc = 0;
    if (bit(bits_get(top_->slot_run_o), req->slot)) {
        rc = -EBUSY;
    } else {
        weft_slot_model_t *m = req->abi->create();
        if (!m) {
            std::fprintf(stderr, "weft sim: image %s could not create its model\n",
                         req->abi->thread_name ? req->abi->thread_name : "?");
            rc = -ENOMEM;
        } else {
            req->dl = install(req->slot, req->abi, m, req->dl); // the caller closes the old
        }
    }
    req->rc = rc;
    req->done.store(true, std::memory_order_release);
    req->cv.notify_one();
}

void Fabric::complete(Request *req, int rc)
{
    std::lock_guard<std::mutex> lk(mu_);
    req->rc = rc;
    req->done.store(true, std::memory_order_release);
    req->cv.notify_one();
}

void Fabric::publish_irq(uint64_t irq)
{
    const bool rose = (irq & ~irq_seen_) != 0;
    irq_seen_ = irq;
    irq_level_.store(irq, std::memory_order_release);
    if (rose) {
        // Taking the lock orders this store against a waiter between its check and its
        // wait, so the wake-up below cannot be lost.
        {
            std::lock_guard<std::mutex> lk(irq_mu_);
        }
        irq_cv_.notify_all();
    }
}

// The clock thread on a quiet fabric. While it rests, a runtime thread with an MMIO
// request borrows the models and runs the cycles itself (submit()). The next request
// usually comes within microseconds, so it first waits awake, then sleeps; it goes on
// when a request is queued, a borrower left the fabric running (kick_) or it must stop,
// and never while the models are lent out.
void Fabric::rest()
{
    running_end();
    {
        std::lock_guard<std::mutex> lk(mu_);
        resting_ = true;
    }
    const bool woken = spin_until([this] { return attention_.load(std::memory_order_acquire); });
    std::unique_lock<std::mutex> lk(mu_);
    if (!woken && queue_.empty() && !stop_ && !kick_)
        stat_sleeps_.fetch_add(1, std::memory_order_relaxed);
    wake_cv_.wait(lk, [this] { return !borrowed_ && (!queue_.empty() || stop_ || kick_); });
    resting_ = false;
    kick_ = false;
    running_begin();
}

void Fabric::running_begin()
{
    std::lock_guard<std::mutex> lk(sim_ns_mu_);
    running_since_ns_.store(steady_ns(), std::memory_order_relaxed);
}

void Fabric::running_end()
{
    std::lock_guard<std::mutex> lk(sim_ns_mu_);
    const int64_t since = running_since_ns_.load(std::memory_order_relaxed);
    if (since != 0)
        sim_ns_ += static_cast<uint64_t>(steady_ns() - since);
    running_since_ns_.store(0, std::memory_order_relaxed);
}

// Runs one MMIO transaction on the calling thread while the clock thread rests: the same
// cycles the clock thread would run, without the two thread hand-offs a queued request
// costs. Then, if the fabric still has work, the caller runs up to kRunAheadCycles more
// of it (a register write usually answers a thread, which makes its next request within
// a few cycles; the caller waiting for that interrupt would otherwise wait for the clock
// thread to wake up and run them). The fabric is left prepared for its next cycle, and
// the answer is whether it is quiet then: decided after prepare(), never from the outputs
// of the last edge alone, which do not yet see what the slots did at that edge (a thread
// answered there may already be making its next request).
bool Fabric::run_on_caller(Request *req)
{
    start_lite(req);
    for (;;) {
        const bool fresh = prepare();
        if (!lite_.req)
            break;
        advance(fresh, kMaxHeldRun);
    }
    const uint64_t until = cycle_ + kRunAheadCycles;
    for (;;) {
        const bool fresh = prepare();
        if (fresh && may_rest() && top_->quiet_o)
            return true;
        if (cycle_ >= until || attention_.load(std::memory_order_relaxed))
            return false;
        advance(fresh, until - cycle_);
    }
}

// ---- runtime-thread side -------------------------------------------------------------

int Fabric::submit(Request *req)
{
    std::unique_lock<std::mutex> lk(mu_);
    if (stop_)
        return -ECANCELED;
    if (req->kind != Request::Kind::kReconfigure && resting_ && !borrowed_ && queue_.empty()) {
        // Quiet fabric, resting clock thread: borrow the models. mu_ hands them over in
        // both directions, so the clock thread sees everything done here.
        borrowed_ = true;
        lk.unlock();
        running_begin();
        const bool quiet = run_on_caller(req);
        running_end();
        lk.lock();
        borrowed_ = false;
        if (!quiet) {
            kick_ = true;
            attention_.store(true, std::memory_order_release); // ends the clock thread's spin
        }
        if (!quiet || !queue_.empty() || stop_)
            wake_cv_.notify_one();
        return req->rc;
    }
    queue_.push_back(req);
    attention_.store(true, std::memory_order_release);
    wake_cv_.notify_one();
    // The running clock thread takes the request at its next cycle and needs a few
    // cycles for it, microseconds of host time; a thread put to sleep and woken costs
    // more than that, so spin for a while before sleeping.
    lk.unlock();
    spin_until([req] { return req->done.load(std::memory_order_acquire); });
    lk.lock();
    req->cv.wait(lk, [req] { return req->done.load(std::memory_order_relaxed); });
    return req->rc;
}

static int check_offset(uint32_t offset)
{
    return (offset & 3u) == 0 && offset < kMmioWindow ? 0 : -EINVAL;
}

int Fabric::mmio_read(uint32_t offset, uint32_t *value)
{
    if (check_offset(offset) != 0 || !value)
        return -EINVAL;
    Request req;
    req.kind = Request::Kind::kRead;
    req.offset = offset;
    int rc = submit(&req);
    if (rc == 0)
        *value = req.value;
    return rc;
}

int Fabric::mmio_write(uint32_t offset, uint32_t value)
{
    if (check_offset(offset) != 0)
        return -EINVAL;
    Request req;
    req.kind = Request::Kind::kWrite;
    req.offset = offset;
    req.value = value;
    const int rc = submit(&req);
    last_mmio_ns_.store(steady_ns(), std::memory_order_relaxed);
    return rc;
}

// The lines as published: slot s's at bit s, the OS services' at bit nslots_ (where
// IRQ_PENDING has it), the FRI's at kFriIrqLine.
uint64_t Fabric::irq_lines(const Vweft_static &t) const
{
    return bits_get(t.irq_o) | uint64_t{t.svc_irq_o} << nslots_ |
           uint64_t{t.fri_irq_o} << kFriIrqLine;
}

int Fabric::irq_wait(unsigned slot, int timeout_ms)
{
    if (slot > nslots_)
        return -EINVAL;
    return irq_wait_line(slot, timeout_ms);
}

// Waits for interrupt line `slot`: a slot's, the OS services' (nslots_), or kFriIrqLine
// (which no cancel reaches).
int Fabric::irq_wait_line(unsigned slot, int timeout_ms)
{
    const bool cancellable = slot <= nslots_;
    // A thread whose call was just answered (a register write moments ago) usually asks
    // again within a few fabric cycles: spin for a while before sleeping (a cancel is
    // seen once sleeping, below). Otherwise, as on an idle fabric, sleep at once.
    if (timeout_ms != 0 &&
        steady_ns() - last_mmio_ns_.load(std::memory_order_relaxed) < kSpinAfterMmioNs) {
        const int64_t t0 = steady_ns();
        const uint64_t c0 = stat_cycles_.load(std::memory_order_relaxed);
        spin_while([this, slot] { return bit(irq_level_.load(std::memory_order_acquire), slot); },
                   [this, t0, c0] {
                       // A fabric at rest brings no request: then kSpinNs of host time.
                       const int64_t spun = steady_ns() - t0;
                       const uint64_t cycles = stat_cycles_.load(std::memory_order_relaxed) - c0;
                       return spun < kIrqSpinMaxNs && cycles < kIrqSpinCycles &&
                              (spun < kSpinNs ||
                               running_since_ns_.load(std::memory_order_relaxed) != 0);
                   });
    }
    std::unique_lock<std::mutex> lk(irq_mu_);
    auto ready = [this, slot, cancellable] {
        return (cancellable && irq_cancelled_[slot]) ||
               bit(irq_level_.load(std::memory_order_acquire), slot);
    };
    if (timeout_ms < 0) {
        irq_cv_.wait(lk, ready);
    } else if (!irq_cv_.wait_for(lk, std::chrono::milliseconds(timeout_ms), ready)) {
        return -ETIMEDOUT;
    }
    if (cancellable && irq_cancelled_[slot]) {
        irq_cancelled_[slot] = 0;
        return -ECANCELED;
    }
    return 0;
}

int Fabric::irq_cancel(unsigned slot)
{
    if (slot > nslots_)
        return -EINVAL;
    {
        std::lock_guard<std::mutex> lk(irq_mu_);
        irq_cancelled_[slot] = 1;
    }
    irq_cv_.notify_all();
    return 0;
}

void Fabric::dma_region(weft_dma_region_t *region) const
{
    region->cpu = dma_;
    region->bus = dma_bus_;
    region->size = dma_size_;
}

// The region is an anonymous mapping; a shared range is a memfd mapped over its pages
// (MAP_FIXED replaces them in place, so the models' pointer into the region stays valid
// and the bus reads and writes the memfd's pages). Sealed against resizing: a process
// holding the fd could otherwise shrink it and make the fabric's next access fault.
int Fabric::dma_share(size_t offset, size_t size)
{
    if (size == 0 || offset % 4096 != 0 || size % 4096 != 0 || offset > dma_size_ ||
        size > dma_size_ - offset)
        return -EINVAL;
    int fd = memfd_create("weft-dma-buffer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return -errno;
    int err = 0;
    if (ftruncate(fd, static_cast<off_t>(size)) != 0 ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0 ||
        mmap(dma_ + offset, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
            MAP_FAILED)
        err = -errno;
    if (err != 0) {
        close(fd);
        return err;
    }
    return fd;
}

// Fresh private zero pages over the range: a process that still maps the memfd writes
// only to the memfd from now on, never to whoever gets the range next; the memfd's own
// pages are freed (MADV_REMOVE), so a client that keeps its mapping keeps no memory.
int Fabric::dma_unshare(size_t offset, size_t size)
{
    if (size == 0 || offset % 4096 != 0 || size % 4096 != 0 || offset > dma_size_ ||
        size > dma_size_ - offset)
        return -EINVAL;
    // Free the memfd's pages first: a process still mapping it keeps no memory alive, and
    // reads zeros.
    madvise(dma_ + offset, size, MADV_REMOVE);
    if (mmap(dma_ + offset, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
             -1, 0) == MAP_FAILED)
        return -errno;
    return 0;
}

unsigned Fabric::num_slots() const
{
    return nslots_;
}

void Fabric::stats(weft_sim_stats_t *out) const
{
    out->cycles = stat_cycles_.load(std::memory_order_relaxed);
    out->mmio_ops = stat_mmio_.load(std::memory_order_relaxed);
    out->sleeps = stat_sleeps_.load(std::memory_order_relaxed);
    out->static_evals = stat_static_evals_.load(std::memory_order_relaxed);
    out->held_cycles = stat_held_.load(std::memory_order_relaxed);
    {
        std::lock_guard<std::mutex> lk(sim_ns_mu_);
        out->sim_ns = sim_ns_;
        const int64_t since = running_since_ns_.load(std::memory_order_relaxed);
        if (since != 0)
            out->sim_ns += static_cast<uint64_t>(steady_ns() - since);
    }
    out->slot_evals = out->slot_edges = 0;
    for (const SlotModel &s : slots_) {
        out->slot_evals += s.evals.load(std::memory_order_relaxed);
        out->slot_edges += s.edges.load(std::memory_order_relaxed);
    }
}

int Fabric::slot_reconfigure(unsigned slot, const char *image)
{
    if (slot >= nslots_ || !image || !*image)
        return -EINVAL;
    struct stat st;
    if (stat(image, &st) != 0) {
        int e = errno;
        std::fprintf(stderr, "weft sim: thread image %s: %s\n", image, std::strerror(e));
        return e == ENOENT || e == ENOTDIR ? -ENOENT : -e;
    }
    if (!S_ISREG(st.st_mode)) {
        std::fprintf(stderr, "weft sim: thread image %s is not a regular file\n", image);
        return -ENOEXEC;
    }
    // A name without a slash would make dlopen search the library path instead.
    std::string path = std::strchr(image, '/') ? std::string(image) : "./" + std::string(image);
    ThreadImage im;
    std::string why;
    if (open_thread_image(path, image, &im, &why) != 0) {
        std::fprintf(stderr, "weft sim: %s\n", why.c_str());
        return -ENOEXEC;
    }

    Request req;
    req.kind = Request::Kind::kReconfigure;
    req.slot = slot;
    req.abi = im.abi;
    req.dl = im.dl;
    int rc = submit(&req);
    // On success req.dl is the replaced image (or null), else the one loaded above.
    if (req.dl)
        dlclose(req.dl);
    return rc;
}

} // namespace weft::sim

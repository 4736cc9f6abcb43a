// The simulated fabric: the static region's Verilated model, one loadable hardware-thread
// model per slot, the DMA region, and the clock thread that runs them
// (docs/architecture.md, "Simulation backend").
#ifndef WEFT_SIM_FABRIC_H
#define WEFT_SIM_FABRIC_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "slot_model_abi.h"
#include "slot_workers.h"
#include "thread_image.h"
#include "waves.h"
#include "weft/bitstream.h"
#include "weft/osif_protocol.h"
#include "weft/sim.h"

class VerilatedContext;
class Vweft_static;

namespace weft::sim
{

class AxiMemSlave;

/** Interrupt line (bit of the published lines) of the reconfiguration interface. */
constexpr unsigned kFriIrqLine = 63;

/** Size of the static region's register window in bytes. */
constexpr uint32_t kMmioWindow = 0x10000;

class Fabric
{
  public:
    /** Build everything and start the clock thread; returns 0 or a negative errno. */
    static int create(const weft_sim_config_t *cfg, std::unique_ptr<Fabric> *out);
    ~Fabric();

    Fabric(const Fabric &) = delete;
    Fabric &operator=(const Fabric &) = delete;

    int mmio_read(uint32_t offset, uint32_t *value);
    int mmio_write(uint32_t offset, uint32_t value);
    int irq_wait(unsigned slot, int timeout_ms);
    int irq_cancel(unsigned slot);
    void dma_region(weft_dma_region_t *region) const;
    int dma_share(size_t offset, size_t size);
    int dma_unshare(size_t offset, size_t size);
    int slot_reconfigure(unsigned slot, const char *image);
    int slot_program(unsigned slot, uint64_t bus, size_t size, weft_program_result_t *res);
    unsigned num_slots() const;
    void stats(weft_sim_stats_t *out) const;

  private:
    // One request from a runtime thread to the clock thread.
    struct Request {
        enum class Kind { kRead, kWrite, kReconfigure } kind;
        uint32_t offset = 0;
        uint32_t value = 0;
        // kReconfigure: the new image (already loaded) in, the replaced one out.
        unsigned slot = 0;
        const weft_slot_model_abi_t *abi = nullptr;
        void *dl = nullptr;
        int rc = 0;
        // Set under mu_ together with rc, then cv notified still under mu_: the caller
        // takes mu_ again before it returns, so the Request outlives the notify. Atomic
        // so that a caller may spin on it without mu_.
        std::atomic<bool> done{false};
        std::condition_variable cv;
    };

    // The AXI4-Lite master that carries out one MMIO request over several cycles.
    struct LiteMaster {
        Request *req = nullptr;                                       // in progress, or nullptr
        bool aw = false, w = false, b = false, ar = false, r = false; // valid/ready we drive
        bool aw_hs = false, w_hs = false, b_hs = false, ar_hs = false, r_hs = false;
        int rc = 0;
        uint32_t rdata = 0;
        bool tail = false;    // response received; one more cycle, then complete
        uint64_t started = 0; // cycle the transaction began
    };

    Fabric() = default;
    int submit(Request *req);
    void clock_main();
    void reset_fabric();
    bool prepare();
    bool may_rest() const;
    void advance(bool fresh, uint64_t max_held);
    void hold_cycles(const uint8_t *list, unsigned count, uint64_t max_held);
    void static_edge();
    void catch_up();
    bool take_requests();
    void start_lite(Request *req);
    void finish_lite();
    void complete(Request *req, int rc);
    void do_reconfigure(Request *req);
    void publish_irq(uint64_t irq);
    uint64_t irq_lines(const Vweft_static &t) const;
    void fri_loader();
    const weft_slot_model_abi_t *prepare_image(uint64_t bus, size_t size, std::string *why);
    void *install(unsigned slot, const weft_slot_model_abi_t *abi, weft_slot_model_t *model,
                  void *dl);
    void wave_start(unsigned slot);
    void sample_waves();
    int irq_wait_line(unsigned line, int timeout_ms);
    void rest();
    bool run_on_caller(Request *req); // true: the fabric is quiet after it

    // Models and simulation state: the clock thread's alone once it runs.
    std::unique_ptr<VerilatedContext> context_;
    std::unique_ptr<Vweft_static> top_;
    std::unique_ptr<AxiMemSlave> mem_slave_;
    std::vector<SlotModel> slots_;
    SlotWorkers workers_;
    LiteMaster lite_;
    uint64_t cycle_ = 0;
    uint64_t irq_seen_ = 0;
    unsigned nslots_ = 0;
    bool eval_all_ = false; // WEFT_SIM_EVAL_ALL
    // Hold edges of the static region not evaluated yet (docs/architecture.md, "Holding").
    uint32_t skipped_ = 0;
    // Waveforms on demand (waves.h): per slot; waving_ while any slot's file is open, the
    // one test the clock loop makes when none is.
    std::vector<WaveRequest> waves_;
    bool waving_ = false;

    // The reconfiguration port (fabric_fri.cpp). slot_program() opens the image a file
    // names before it starts the FRI, on its caller's thread; the FRI's load (on whichever
    // thread runs the fabric) only creates the model and swaps it in.
    struct LoadedImage {
        uint8_t digest[WEFT_BITSTREAM_DIGEST_BYTES];
        ThreadImage image;
    };
    struct Prepared {
        unsigned slot = ~0u;
        const weft_slot_model_abi_t *abi = nullptr; // null: refuse the load, saying why
        std::string why;
    };
    std::string image_dir_;
    std::mutex program_mu_;           // one slot_program() at a time
    std::vector<LoadedImage> loaded_; // by digest, under program_mu_
    std::mutex load_mu_;
    Prepared prepared_;           // under load_mu_: what the FRI's next load installs
    std::vector<void *> retired_; // under load_mu_: images a load replaced, to close

    // The DMA region.
    uint8_t *dma_ = nullptr;
    size_t dma_size_ = 0;
    uint32_t dma_bus_ = 0;

    // Requests: queued under mu_; attention_ lets the clock thread notice them (or a
    // stop) with one relaxed load per cycle.
    std::mutex mu_;
    std::condition_variable wake_cv_; // clock thread sleeping on a quiet fabric
    std::deque<Request *> queue_;
    bool stop_ = false;
    // A quiet fabric's clock thread rests (resting_: waiting awake, then asleep); an MMIO
    // caller that finds it so borrows the models (borrowed_) and runs the transaction on
    // its own thread; kick_ wakes the clock thread when the caller left the fabric with
    // work to do.
    bool resting_ = false;
    bool borrowed_ = false;
    bool kick_ = false;
    std::atomic<bool> attention_{false};
    std::thread clock_;

    // Interrupt lines, published by the clock thread on change.
    std::mutex irq_mu_;
    std::condition_variable irq_cv_;
    std::atomic<uint64_t> irq_level_{0};
    // steady_clock time (ns) of the last register write: irq_wait spins only soon after
    // one, when the next call of a thread that was just answered is likely.
    std::atomic<int64_t> last_mmio_ns_{0};
    std::vector<bool> irq_cancelled_;

    // Counters (written by the clock thread, read by stats()).
    std::atomic<uint64_t> stat_cycles_{0};
    std::atomic<uint64_t> stat_mmio_{0};
    std::atomic<uint64_t> stat_sleeps_{0};
    std::atomic<uint64_t> stat_static_evals_{0};
    std::atomic<uint64_t> stat_held_{0};
    // Host time running the fabric: closed spans, and the start of the open one (0 while
    // the clock thread rests and nobody borrows; one runs the fabric at a time). Written
    // under the lock; a spinning waiter reads the start alone to see whether it runs.
    mutable std::mutex sim_ns_mu_;
    uint64_t sim_ns_ = 0;
    std::atomic<int64_t> running_since_ns_{0};
    void running_begin();
    void running_end();
};

} // namespace weft::sim

#endif // WEFT_SIM_FABRIC_H

// Shared by the two halves of weft-bench-sim-speed: sim_speed.cpp (the runtime on the
// simulation backend, and main) and sim_speed_flat.cpp (the flattened reference model).
// They are two translation units because weft/weft.h's `struct weft` and the backend
// headers' `namespace weft` cannot meet in one.
#ifndef WEFT_BENCH_SIM_SPEED_H
#define WEFT_BENCH_SIM_SPEED_H

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sim_speed
{

constexpr unsigned kWords = 2048;            // hwt_sort's local RAM: one block of words
constexpr uint32_t kBlockBytes = kWords * 4; // one block in bytes
constexpr uint64_t kWarmBusy = 20000;        // busy cycles: past the first burst read

// hwt_sort's resources: handle 0 the descriptor mailbox, 1 the done semaphore, 2 the
// descriptor mutex (hw/threads/sort/hwt_sort.sv).
enum { kResMbox = 0, kResSem = 1, kResMutex = 2, kNumRes = 3 };
constexpr uint32_t kSortInit = kResMbox | kResSem << 8 | kResMutex << 16;

/** One measured window. */
struct Window {
    double wall = 0, cpu = 0; // seconds: wall clock, process CPU
    uint64_t cycles = 0;      // fabric cycles simulated
    // Co-simulation only (weft_sim_stats): static-region evaluations, cycles whose static
    // edge was skipped (holding), edges given to thread models.
    uint64_t static_evals = 0, held = 0, slot_edges = 0;
    // Least share of the window's cycles a busy slot ran (BUSY counter): the rest it
    // waited in OS calls, whose software side takes wall-clock time.
    double busy_min = 1.0;
    bool valid = true;
    std::string why; // when not valid
    double rate() const { return wall > 0 ? static_cast<double>(cycles) / wall : 0; }
    double rate_cpu() const { return cpu > 0 ? static_cast<double>(cycles) / cpu : 0; }
    double cpu_fraction() const { return wall > 0 ? cpu / wall : 0; }
};

[[noreturn]] void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double now_s();
double cpu_s(); // process CPU time, every thread, user + system

/**
 * A busy slot's work: `blocks` blocks of random words in the DMA region, handed out as
 * descriptors (bus address, length) in turn. A block the thread reports done (its
 * SEM_POST) is checked, refilled with fresh random words and handed out again, so a
 * thread never runs out of work however fast the host clocks it. The words come from one
 * generator per slot and repetition, so both halves sort the same sequence of blocks.
 */
class BlockRing
{
  public:
    /** Fills all `blocks` blocks at cpu (bus address bus). */
    void init(uint32_t *cpu, uint32_t bus, unsigned blocks, unsigned slot, unsigned rep);
    unsigned blocks() const { return blocks_; }
    uint32_t bus_of(unsigned b) const { return bus_ + b * kBlockBytes; }
    /**
     * The thread reported its oldest outstanding block done: checks that block (false
     * when it is not sorted), refills it and stores its index in *b, to be handed out again.
     */
    bool recycle(unsigned *b);
    uint64_t done() const { return done_; }

  private:
    void fill(unsigned b);
    std::mt19937 rng_;
    uint32_t *cpu_ = nullptr;
    uint32_t bus_ = 0;
    unsigned blocks_ = 0;
    uint64_t done_ = 0;
};

/**
 * Records the least busy share of the window (b0, b1: BUSY counters at its start and end)
 * and marks w invalid when a busy slot ran out of work: `left` holds the descriptor words
 * still queued for each busy slot at the end of the window.
 */
void check_work(Window *w, const std::vector<uint64_t> &b0, const std::vector<uint64_t> &b1,
                const std::vector<size_t> &left);

/**
 * The flattened reference: one model of the static region with hwt_sort in every slot,
 * `busy` of them started with `blocks` blocks each; warmed up, then clocked on this thread
 * for `seconds`. busy 0: the model with empty slots, slot 0 kept awake with CONTROL.RUN,
 * as the co-simulation's row.
 */
Window run_flat(unsigned busy, double seconds, unsigned blocks, unsigned rep);

} // namespace sim_speed

#endif // WEFT_BENCH_SIM_SPEED_H

// Shared by the two halves of weft-bench-sim-speed: sim_speed.cpp (the runtime on the
// simulation backend, and main) and sim_speed_flat.cpp (the flattened reference model).
// They are two translation units because weft/weft.h's `struct weft` and the backend
// headers' `namespace weft` cannot meet in one.
#ifndef WEFT_BENCH_SIM_SPEED_H
#define WEFT_BENCH_SIM_SPEED_H

#include <cstdint>
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
/** The random words of slot `slot`'s blocks in repetition `rep`: the same for both halves. */
void fill_blocks(uint32_t *dst, unsigned blocks, unsigned slot, unsigned rep);
bool blocks_sorted(const uint32_t *blocks, unsigned n);
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

// Shared by the two halves of weft-bench-sim-speed: sim_speed.cpp (the runtime on the
// simulation backend, and main) and sim_speed_bare.cpp (the bare loop). They are two
// translation units because weft/weft.h's `struct weft` and the backend headers'
// `namespace weft` cannot meet in one.
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
constexpr double kBusyFraction = 0.98;       // least share of a window a busy slot must run

// hwt_sort's resources: handle 0 the descriptor mailbox, 1 the done semaphore, 2 the
// descriptor mutex (hw/threads/sort/hwt_sort.sv).
enum { kResMbox = 0, kResSem = 1, kResMutex = 2, kNumRes = 3 };
constexpr uint32_t kSortInit = kResMbox | kResSem << 8 | kResMutex << 16;

/** One measured window. */
struct Window {
    double wall = 0, cpu = 0; // seconds: wall clock, process CPU
    uint64_t cycles = 0;      // fabric cycles simulated
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
/** Marks w invalid unless every busy counter grew by kBusyFraction of w's cycles. */
void check_busy(Window *w, const std::vector<uint64_t> &b0, const std::vector<uint64_t> &b1);

/**
 * The bare loop: a fresh static-region model and `busy` hwt_sort images on this thread,
 * each slot given `blocks` blocks; warmed up, then clocked for `seconds`. busy 0: slot 0
 * empty with CONTROL.RUN set, as the co-simulation's awake row.
 */
Window run_bare(unsigned busy, double seconds, unsigned blocks, unsigned rep, const char *image);

} // namespace sim_speed

#endif // WEFT_BENCH_SIM_SPEED_H

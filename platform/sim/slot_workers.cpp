// See slot_workers.h.
#include "slot_workers.h"

#include <algorithm>
#include <chrono>

namespace weft::sim
{

namespace
{

inline void cpu_relax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// The helper sleeps after this long without work: the fabric has gone quiet or down to
// one busy slot, and a spinning thread would take a core from the runtime.
constexpr auto kHelperSpin = std::chrono::microseconds(200);

constexpr unsigned kEpochCycles = 1u << 15;
// Epochs run the faster way before both are timed again: kExploitEpochs, doubled after
// every round the helper loses (a host where it never pays probes ever more rarely).
constexpr unsigned kExploitEpochs = 30;
constexpr unsigned kMaxExploitEpochs = 1u << 10;

int64_t now_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

SlotWorkers::~SlotWorkers()
{
    stop();
}

void SlotWorkers::enable(bool on)
{
    enabled_ = on && std::thread::hardware_concurrency() > 1;
    if (!enabled_)
        stop();
}

void SlotWorkers::stop()
{
    if (!helper_.joinable())
        return;
    {
        std::lock_guard<std::mutex> lk(mu_);
        quit_.store(true, std::memory_order_release);
    }
    cv_.notify_one();
    helper_.join();
    quit_.store(false, std::memory_order_relaxed);
    asleep_.store(false);
}

void SlotWorkers::edges(SlotModel *slots, const uint8_t *list, unsigned n,
                        const std::function<void()> &alongside)
{
    if (enabled_ && n >= 2 && ++epoch_cycles_ == kEpochCycles)
        end_epoch();
    if (!enabled_ || n < 2 || !use_helper_) {
        alongside();
        for (unsigned i = 0; i < n; ++i)
            slots[list[i]].edge();
        return;
    }
    if (!helper_.joinable())
        helper_ = std::thread(&SlotWorkers::helper_main, this);

    const uint32_t ticket = static_cast<uint32_t>(claim_.load(std::memory_order_relaxed) >> 32) + 1;
    slots_ = slots;
    list_ = list;
    done_.store(0, std::memory_order_relaxed);
    // claim_ and asleep_ are sequentially consistent: either the helper sees the new
    // ticket before it waits, or this thread sees it asleep and wakes it.
    claim_.store(uint64_t{ticket} << 32 | uint64_t{n} << 16);
    if (asleep_.load()) {
        std::lock_guard<std::mutex> lk(mu_);
        cv_.notify_one();
    }
    alongside();
    claim_edges(ticket);
    while (done_.load(std::memory_order_acquire) != n)
        cpu_relax();
}

// Epoch 0 runs alone, epoch 1 with the helper; the faster way runs the next
// kExploitEpochs epochs. A helper that is not used goes to sleep by itself.
void SlotWorkers::end_epoch()
{
    const int64_t now = now_ns();
    if (epoch_start_ns_ == 0) { // the first epoch starts now
        epoch_start_ns_ = now;
        epoch_cycles_ = 0;
        return;
    }
    if (epoch_ < 2)
        epoch_ns_[epoch_] = now - epoch_start_ns_;
    epoch_start_ns_ = now;
    epoch_cycles_ = 0;
    epoch_ = epoch_ + 1 < 2 + exploit_epochs_ ? epoch_ + 1 : 0;
    if (epoch_ < 2) {
        use_helper_ = epoch_ == 1;
    } else if (epoch_ == 2) {
        use_helper_ = epoch_ns_[1] < epoch_ns_[0];
        exploit_epochs_ =
            use_helper_ ? kExploitEpochs : std::min(2 * exploit_epochs_, kMaxExploitEpochs);
    }
}

void SlotWorkers::claim_edges(uint32_t ticket)
{
    uint64_t c = claim_.load(std::memory_order_acquire);
    for (;;) {
        const unsigned count = (c >> 16) & 0xffff, next = c & 0xffff;
        if (static_cast<uint32_t>(c >> 32) != ticket || next >= count)
            return;
        if (!claim_.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel,
                                          std::memory_order_acquire))
            continue;
        slots_[list_[next]].edge();
        done_.fetch_add(1, std::memory_order_acq_rel);
        c = claim_.load(std::memory_order_acquire);
    }
}

void SlotWorkers::helper_main()
{
    uint32_t seen = static_cast<uint32_t>(claim_.load(std::memory_order_acquire) >> 32);
    for (;;) {
        // Spin for the next cycle's work, then sleep until there is some.
        auto until = std::chrono::steady_clock::now() + kHelperSpin;
        uint32_t ticket;
        auto fresh = [&] {
            ticket = static_cast<uint32_t>(claim_.load() >> 32);
            return ticket != seen || quit_.load();
        };
        for (unsigned i = 0; !fresh(); ++i) {
            cpu_relax();
            if ((i & 255) == 255 && std::chrono::steady_clock::now() > until) {
                std::unique_lock<std::mutex> lk(mu_);
                asleep_.store(true);
                cv_.wait(lk, fresh);
                asleep_.store(false);
                until = std::chrono::steady_clock::now() + kHelperSpin;
            }
        }
        if (quit_.load(std::memory_order_acquire))
            return;
        claim_edges(ticket);
        seen = ticket;
    }
}

} // namespace weft::sim

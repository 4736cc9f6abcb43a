// The thread models of the slots, and the host threads that evaluate them.
//
// A cycle gives every running, unpaused slot one rising edge (docs/architecture.md,
// "Simulation backend"). Those edges depend only on what the static region drove before
// its own edge, so they can run at the same time as it and as each other: with two or
// more edges in a cycle and more than one host core, a helper thread claims edges while
// the clock thread evaluates the static region, then both claim what is left, one edge
// at a time through an atomic index. Claiming rather than splitting matters on a busy
// host: when the helper is not running (another thread has its core), the clock thread
// does every edge itself instead of waiting for it. The helper spins for a while between
// cycles and sleeps when the fabric stops needing it, so an idle fabric costs no core.
//
// Whether a second host thread pays depends on the host: on a virtual machine whose two
// vCPUs share a physical core it can run slower than one. So the cycles with two or more
// edges are timed in epochs, alternately with and without the helper, and the faster
// way is kept for a while before both are timed again (slot_workers.cpp).
#ifndef WEFT_SIM_SLOT_WORKERS_H
#define WEFT_SIM_SLOT_WORKERS_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "slot_model_abi.h"
#include "weft/osif_protocol.h"

namespace weft::sim
{

/** What a slot holds, and what its model last saw and answered. */
struct SlotModel {
    const weft_slot_model_abi_t *abi = nullptr;
    weft_slot_model_t *model = nullptr;
    void *dl = nullptr;
    uint32_t rsp[WEFT_SLOT_RSP_WORDS] = {}; // static region's side at the last evaluation
    uint32_t req[WEFT_SLOT_REQ_WORDS] = {}; // the thread's side after it
    int rst_n = 0;
    bool fresh = false; // req answers rsp and rst_n as they are (else settle first)
    // Evaluations of this model, and of them clock edges: written by whichever thread
    // evaluates the slot (one at a time), read by stats().
    std::atomic<uint64_t> evals{0};
    std::atomic<uint64_t> edges{0};

    /** Evaluate with new inputs and no edge. */
    void settle(const uint32_t *in, int rn)
    {
        for (unsigned i = 0; i < WEFT_SLOT_RSP_WORDS; ++i)
            rsp[i] = in[i];
        rst_n = rn;
        abi->eval(model, 0, rst_n, rsp, req);
        fresh = true;
        count(evals);
    }

    /** One rising edge with the inputs of the last settle. */
    void edge()
    {
        abi->eval(model, 1, rst_n, rsp, req);
        count(evals);
        count(edges);
    }

  private:
    static void count(std::atomic<uint64_t> &c)
    {
        c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
};

class SlotWorkers
{
  public:
    SlotWorkers() = default;
    ~SlotWorkers();
    SlotWorkers(const SlotWorkers &) = delete;
    SlotWorkers &operator=(const SlotWorkers &) = delete;

    /** Allow a helper thread (only where the host has more than one core). */
    void enable(bool on);

    /**
     * Give slots[list[0..n)] one edge each and run `alongside` (the static region's edge)
     * at the same time; returns when all is done. Called by the clock thread only.
     */
    void edges(SlotModel *slots, const uint8_t *list, unsigned n,
               const std::function<void()> &alongside);

    /** Stop the helper thread (it is started again when needed). */
    void stop();

  private:
    void helper_main();

    void end_epoch();

    bool enabled_ = false;
    // Epochs of kEpochCycles cycles with two or more edges: [0] timed alone, [1] with
    // the helper, then kExploitEpochs with the faster.
    bool use_helper_ = false;
    unsigned epoch_ = 0;
    unsigned epoch_cycles_ = 0;
    unsigned exploit_epochs_ = 30;
    int64_t epoch_start_ns_ = 0;
    int64_t epoch_ns_[2] = {0, 0};
    std::thread helper_;
    void claim_edges(uint32_t ticket);

    // This cycle's edges. claim_ holds {ticket: 32, count: 16, next index: 16}: whoever
    // advances the index from i evaluates slots_[list_[i]] and then counts it in done_.
    // A new ticket publishes a new cycle; a claim of an old one fails, so the helper can
    // never work on a cycle the clock thread has finished.
    SlotModel *slots_ = nullptr;
    const uint8_t *list_ = nullptr;
    std::atomic<uint64_t> claim_{0};
    std::atomic<unsigned> done_{0};
    std::atomic<bool> quit_{false};
    std::mutex mu_;
    std::condition_variable cv_;
    std::atomic<bool> asleep_{false}; // the helper waits on cv_ (seq_cst: see edges())
};

} // namespace weft::sim

#endif // WEFT_SIM_SLOT_WORKERS_H

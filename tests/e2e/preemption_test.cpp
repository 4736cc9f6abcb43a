// Joining, stopping and cooperative preemption of a real hardware thread (hwt_collatz):
// a YIELD signal makes it save its state to memory at a safe point and give up its slot;
// it is resumed from that state in another slot and finishes with the right result.
#include "e2e_fixture.h"

#include <chrono>
#include <thread>

namespace
{

// The sum of Collatz stopping times over [start, end), as hwt_collatz computes it.
uint64_t CollatzSum(uint32_t start, uint32_t end)
{
    uint64_t sum = 0;
    for (uint32_t n = start; n < end; n++) {
        uint64_t x = n;
        while (x > 1) {
            x = (x & 1) ? 3 * x + 1 : x / 2;
            sum++;
        }
    }
    return sum;
}

class Preemption : public Fabric
{
  protected:
    void SetUp() override
    {
        Fabric::SetUp();
        ASSERT_EQ(weft_mbox_init(&jobs_, 4), 0);
        void *cpu = nullptr;
        ASSERT_EQ(weft_mem_alloc(w_, 64, &cpu, &rec_bus_), 0);
        rec_ = static_cast<volatile uint32_t *>(cpu);
    }
    void TearDown() override
    {
        Fabric::TearDown();
        weft_mbox_destroy(&jobs_);
    }

    // hwt_collatz in `slot`; resumed from `state` when resume is set.
    weft_hwthread_t *StartCollatz(unsigned slot, bool resume = false, uint32_t state = 0)
    {
        return Start({"hwt_collatz",
                      "hw-collatz",
                      slot,
                      {{WEFT_RES_MBOX, &jobs_}},
                      0,
                      {{rec_bus_, 64, WEFT_MEM_RW}}, // its record and nothing else
                      resume,
                      state});
    }
    void Job(uint32_t start, uint32_t end)
    {
        ASSERT_EQ(weft_mbox_put(&jobs_, start), 0);
        ASSERT_EQ(weft_mbox_put(&jobs_, end), 0);
        ASSERT_EQ(weft_mbox_put(&jobs_, static_cast<uint32_t>(rec_bus_)), 0);
    }
    // Let the thread work until it has run `cycles` busy cycles.
    void RunFor(weft_hwthread_t *t, uint64_t cycles)
    {
        weft_hwthread_stats_t st{};
        do {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            ASSERT_EQ(weft_hwthread_stats(t, &st), 0);
        } while (st.busy_cycles < cycles);
    }
    // Ask t to yield; it must end YIELDED with the record's address, mid-work.
    uint32_t Yield(weft_hwthread_t *t, uint32_t start, uint32_t end)
    {
        EXPECT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_YIELD), 0);
        weft_exit_status_t st{};
        EXPECT_EQ(weft_hwthread_timedjoin(t, &st, 30000), 0);
        EXPECT_EQ(st.kind, WEFT_EXIT_YIELDED) << st.message;
        EXPECT_EQ(st.value, static_cast<uint32_t>(rec_bus_));
        EXPECT_EQ(rec_[0], start);
        EXPECT_EQ(rec_[1], end);
        EXPECT_GT(rec_[2], start) << "yielded before doing any work";
        EXPECT_LT(rec_[2], end) << "yielded only after finishing";
        return st.value;
    }
    uint64_t Sum() const { return rec_[3] | static_cast<uint64_t>(rec_[4]) << 32; }

    weft_mbox_t jobs_;
    uint64_t rec_bus_ = 0;
    volatile uint32_t *rec_ = nullptr;
};

// Moved between slots mid-work: slot 0, then slot 2, then slot 1, where it finishes.
TEST_F(Preemption, YieldedThreadResumesInAnotherSlotAndFinishesRight)
{
    // About 4 M fabric cycles of work: far more than can pass between RunFor's polls and
    // the signal however fast the fabric runs (4,000 numbers, 0.3 M cycles, could finish
    // within one 2 ms poll once held cycles ran back to back).
    constexpr uint32_t kStart = 1, kEnd = 40001;
    weft_hwthread_t *t = StartCollatz(0);
    ASSERT_NE(t, nullptr);
    Job(kStart, kEnd);
    RunFor(t, 40000);
    uint32_t state = Yield(t, kStart, kEnd);
    uint32_t first_stop = rec_[2];

    t = StartCollatz(2, true, state);
    ASSERT_NE(t, nullptr);
    RunFor(t, 40000);
    state = Yield(t, kStart, kEnd);
    EXPECT_GT(rec_[2], first_stop) << "the resumed thread did not go on from its state";

    t = StartCollatz(1, true, state);
    ASSERT_NE(t, nullptr);
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 60000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 0u);
    EXPECT_EQ(rec_[2], kEnd);
    EXPECT_EQ(Sum(), CollatzSum(kStart, kEnd));
}

// STOP: the thread sees it at its next safe point and exits on its own.
TEST_F(Preemption, StopSignalEndsTheThreadAtItsNextSafePoint)
{
    weft_hwthread_t *t = StartCollatz(3);
    ASSERT_NE(t, nullptr);
    Job(1, 1000000);
    RunFor(t, 20000);
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), 0);
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 30000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 1u) << "hwt_collatz exits with 1 when stopped";
    EXPECT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), -ESRCH);
}

// A thread blocked in an OS call is unblocked by a signal: the call is answered CANCELED
// and the thread, seeing YIELD, yields.
TEST_F(Preemption, SignalUnblocksAThreadWaitingForWork)
{
    weft_hwthread_t *t = StartCollatz(0);
    ASSERT_NE(t, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // it waits for a job
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), 0);
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 30000), 0);
    // The cancelled MBOX_GET_BURST is an OS error to this thread: it exits with its code.
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 0xFFFFFFFEu);
}

// Creating into an occupied slot is refused; the thread there finishes its job.
TEST_F(Preemption, ResumeRefusedWithoutAFreeSlotAndJoinGivesTheExitValue)
{
    weft_hwthread_t *t = StartCollatz(0);
    ASSERT_NE(t, nullptr);
    std::string image = Image("hwt_collatz");
    weft_hwthread_attr_t attr{};
    attr.image = image.c_str();
    attr.slot = 0;
    attr.resume = 1;
    weft_hwthread_t *u = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &u, &attr), -EBUSY) << "slot 0 is taken";
    Job(1, 200);
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 30000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL);
    EXPECT_EQ(Sum(), CollatzSum(1, 200));
}

} // namespace

// Hardware-thread lifecycle on the fake platform: create, join, stats, destroy.
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "runtime_fixture.h"

namespace
{

using Clock = std::chrono::steady_clock;

TEST_F(Runtime, HwthreadCreateLoadsImageSetsWindowAndStartsSlot)
{
    weft_hwthread_attr_t a{};
    a.name = "loader";
    a.image = "images/sort.so";
    a.slot = 2;
    weft_mem_window_t wins[2] = {{FAKE_DMA_BUS + 0x1000, 0x2000, WEFT_MEM_RW},
                                 {FAKE_DMA_BUS + 0x8000, 0x40, WEFT_MEM_READ}};
    a.windows = wins;
    a.num_windows = 2;
    weft_hwthread_t *t = nullptr;
    ASSERT_EQ(weft_hwthread_create(w_, &t, &a), 0);
    threads_.push_back(t);

    unsigned loads = 0;
    EXPECT_STREQ(fake_image(f_, 2, &loads), "images/sort.so");
    EXPECT_EQ(loads, 1u);
    uint32_t base, size, perm;
    fake_window(f_, 2, 0, &base, &size, &perm);
    EXPECT_EQ(base, FAKE_DMA_BUS + 0x1000);
    EXPECT_EQ(size, 0x2000u);
    EXPECT_EQ(perm, WEFT_WIN_READ | WEFT_WIN_WRITE);
    fake_window(f_, 2, 1, &base, &size, &perm);
    EXPECT_EQ(base, FAKE_DMA_BUS + 0x8000);
    EXPECT_EQ(size, 0x40u);
    EXPECT_EQ(perm, WEFT_WIN_READ);

    // weft_init's stop, then create: stop, clock in reset, run.
    uint32_t log[FAKE_CONTROL_LOG];
    unsigned n = fake_control_log(f_, 2, log, FAKE_CONTROL_LOG);
    ASSERT_EQ(n, 4u);
    EXPECT_EQ(log[0], WEFT_CONTROL_RESET);
    EXPECT_EQ(log[1], WEFT_CONTROL_RESET);
    EXPECT_EQ(log[2], WEFT_CONTROL_RUN | WEFT_CONTROL_RESET | WEFT_CONTROL_IRQ_EN);
    EXPECT_EQ(log[3], WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
}

TEST_F(Runtime, HwthreadCreateBadAttributesAreEinval)
{
    weft_resource_t good{WEFT_RES_SEM, &sem_};
    weft_resource_t bad_type{static_cast<weft_res_type_t>(9), &sem_};
    weft_resource_t none_type{WEFT_RES_NONE, &sem_};
    weft_resource_t null_obj{WEFT_RES_MUTEX, nullptr};
    weft_hwthread_t *t = nullptr;
    auto attr = [&] {
        weft_hwthread_attr_t a{};
        a.image = "x.so";
        a.slot = 0;
        a.resources = &good;
        a.num_resources = 1;
        return a;
    };
    weft_hwthread_attr_t a = attr();
    EXPECT_EQ(weft_hwthread_create(nullptr, &t, &a), -EINVAL);
    EXPECT_EQ(weft_hwthread_create(w_, nullptr, &a), -EINVAL);
    EXPECT_EQ(weft_hwthread_create(w_, &t, nullptr), -EINVAL);
    a.image = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "no image";
    a = attr();
    a.slot = 4;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "slot out of range";
    a = attr();
    a.num_resources = WEFT_MAX_RESOURCES + 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "too many resources";
    a = attr();
    a.resources = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "NULL array";
    for (weft_resource_t *r : {&bad_type, &none_type, &null_obj}) {
        a = attr();
        a.resources = r;
        EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "bad entry";
    }
    weft_dma_region_t dma = fake_dma(f_);
    weft_mem_window_t win{dma.bus - 64, 128, WEFT_MEM_RW};
    a = attr();
    a.windows = &win;
    a.num_windows = 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "window starts below the region";
    win.bus = dma.bus + dma.size - 64;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "window ends past the region";
    win = {UINT64_MAX - 10, 100, WEFT_MEM_RW};
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "window wraps around";
    win = {dma.bus, 0, WEFT_MEM_RW};
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "empty window";
    win = {dma.bus, 64, 0};
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "window without permission";
    win = {dma.bus, 64, 0x4};
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "unknown permission bit";
    weft_mem_window_t three[3] = {
        {dma.bus, 64, WEFT_MEM_RW}, {dma.bus, 64, WEFT_MEM_RW}, {dma.bus, 64, WEFT_MEM_RW}};
    a.windows = three;
    a.num_windows = FAKE_WINDOWS + 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "more windows than the slot has";
    a.windows = nullptr;
    a.num_windows = 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "NULL windows";
    unsigned loads = 0;
    fake_image(f_, 0, &loads);
    EXPECT_EQ(loads, 0u) << "nothing was loaded for a rejected attribute";
}

TEST_F(Runtime, HwthreadCreateOccupiedSlotIsEbusy)
{
    weft_hwthread_t *first = Start(1, {});
    ASSERT_NE(first, nullptr);
    weft_hwthread_attr_t a{};
    a.image = "other.so";
    a.slot = 1;
    weft_hwthread_t *t = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EBUSY);
    // Still occupied after the first thread ended: the slot is freed by destroy only.
    Issue(1, WEFT_OSIF_CMD_THREAD_EXIT, 0, {0});
    ASSERT_EQ(weft_hwthread_join(first, nullptr), 0);
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EBUSY);
    Destroy(first);
    ASSERT_EQ(weft_hwthread_create(w_, &t, &a), 0);
    threads_.push_back(t);
}

TEST_F(Runtime, HwthreadCreateImageLoadFailureIsReturned)
{
    fake_fail_reconfigure(f_, ENOENT);
    weft_hwthread_attr_t a{};
    a.image = "missing.so";
    a.slot = 0;
    weft_hwthread_t *t = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -ENOENT);
    EXPECT_EQ(fake_control(f_, 0) & WEFT_CONTROL_RUN, 0u) << "slot left running";
    // The slot was not kept.
    ASSERT_NE(Start(0, {}), nullptr);
}

TEST_F(Runtime, HwthreadJoinReportsExitValueAndStopsSlot)
{
    weft_hwthread_t *t = Start(0, {});
    Issue(0, WEFT_OSIF_CMD_THREAD_EXIT, 0, {0xC0FFEE});
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_join(t, &st), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL);
    EXPECT_EQ(st.value, 0xC0FFEEu);
    EXPECT_EQ(fake_control(f_, 0), WEFT_CONTROL_RESET);
    EXPECT_FALSE(Collect(0, 50).arrived) << "THREAD_EXIT has no response";
    // A second join reports the same.
    weft_exit_status_t again{};
    ASSERT_EQ(weft_hwthread_join(t, &again), 0);
    EXPECT_EQ(again.value, 0xC0FFEEu);
}

// A slot reset in the middle of a burst: its end waits until MEM_ACTIVE says the slot's
// memory traffic is over, and the slot is then used again.
TEST_F(Runtime, SlotStopWaitsForTheSlotsMemoryTrafficToEnd)
{
    fake_hw_set_mem_drain(f_, 0, 7);
    weft_hwthread_t *t = Start(0, {});
    const unsigned before = fake_mem_active_reads(f_, 0);
    Issue(0, WEFT_OSIF_CMD_THREAD_EXIT, 0, {1});
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_join(t, &st), 0);
    EXPECT_EQ(fake_mem_active_reads(f_, 0) - before, 8u) << "7 reads found a burst, the 8th none";
    Destroy(t);
    EXPECT_NE(Start(0, {}), nullptr);
}

// A bus that never ends the slot's last burst: destroy still returns, says so, and leaves
// the thread's staging buffers allocated rather than let the burst write a new owner's.
TEST_F(Runtime, SlotWhoseTrafficNeverEndsIsReportedAndItsBuffersKept)
{
    weft_platform_t *p = fake_platform_base(f_);
    auto req_buf = [p](unsigned slot) {
        uint32_t v = 0;
        EXPECT_EQ(p->ops->mmio_read(p, WEFT_SLOT_REG(slot, WEFT_SLOT_REG_OSIF_REQ_BUF), &v), 0);
        return v;
    };
    weft_hwthread_t *t = Start(0, {});
    const uint32_t kept = req_buf(0);
    ASSERT_NE(kept, 0u);
    fake_hw_set_mem_drain(f_, 0, UINT32_MAX);
    Destroy(t);
    EXPECT_FALSE(
        LogLineWith({"memory traffic did not end", "staging buffers stay allocated"}).empty());
    // Freed, they would be the first fit for the next thread's.
    ASSERT_NE(Start(1, {}), nullptr);
    EXPECT_NE(req_buf(1), kept) << "the stuck slot's staging buffers were handed on";
}

TEST_F(Runtime, HwthreadJoinNullIsEinval)
{
    EXPECT_EQ(weft_hwthread_join(nullptr, nullptr), -EINVAL);
    EXPECT_EQ(weft_hwthread_timedjoin(nullptr, nullptr, 5), -EINVAL);
    EXPECT_EQ(weft_hwthread_destroy(nullptr), -EINVAL);
    weft_hwthread_stats_t s;
    EXPECT_EQ(weft_hwthread_stats(nullptr, &s), -EINVAL);
}

TEST_F(Runtime, HwthreadTimedjoinTimesOutWhileRunning)
{
    weft_hwthread_t *t = Start(0, {});
    auto t0 = Clock::now();
    EXPECT_EQ(weft_hwthread_timedjoin(t, nullptr, 40), -ETIMEDOUT);
    EXPECT_GE(Clock::now() - t0, std::chrono::milliseconds(35));
    EXPECT_EQ(weft_hwthread_timedjoin(t, nullptr, 0), -ETIMEDOUT);
}

TEST_F(Runtime, HwthreadStatsCountsCallsAndBusyCycles)
{
    weft_hwthread_t *t = Start(0, {});
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_GET_INIT_DATA, 0).status, WEFT_OSIF_OK);
    fake_hw_set_busy(f_, 0, 0x100000002ull);
    weft_hwthread_stats_t s{};
    ASSERT_EQ(weft_hwthread_stats(t, &s), 0);
    EXPECT_EQ(s.calls, 3u);
    EXPECT_EQ(s.busy_cycles, 0x100000002ull);
    // After the end the counter read just before the slot reset is kept.
    fake_hw_set_busy(f_, 0, 1234);
    Issue(0, WEFT_OSIF_CMD_THREAD_EXIT, 0, {0});
    ASSERT_EQ(weft_hwthread_join(t, nullptr), 0);
    ASSERT_EQ(weft_hwthread_stats(t, &s), 0);
    EXPECT_EQ(s.calls, 4u);
    EXPECT_EQ(s.busy_cycles, 1234u);
}

TEST_F(Runtime, HwthreadDestroyWhileBlockedInSemWaitReturnsPromptly)
{
    weft_hwthread_t *t = Start(3, {{WEFT_RES_SEM, &sem_}});
    Issue(3, WEFT_OSIF_CMD_SEM_WAIT, 0);
    EXPECT_FALSE(Collect(3, 60).arrived);
    auto t0 = Clock::now();
    Destroy(t);
    EXPECT_LT(Clock::now() - t0, std::chrono::seconds(2));
    EXPECT_EQ(fake_control(f_, 3) & WEFT_CONTROL_RUN, 0u);
    // The abandoned wait took nothing: a post is still there for the next taker.
    ASSERT_EQ(sem_post(&sem_), 0);
    EXPECT_EQ(sem_trywait(&sem_), 0);
    ASSERT_NE(Start(3, {}), nullptr) << "slot is free again";
}

TEST_F(Runtime, HwthreadDestroyWhileBlockedInEveryBlockingCallReturnsPromptly)
{
    // Each blocking call waits in slices; destroy must end every one of them.
    pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
    std::vector<weft_resource_t> res = {{WEFT_RES_MUTEX, &mutex_},
                                        {WEFT_RES_COND, &cond_},
                                        {WEFT_RES_MBOX, &mbox_},
                                        {WEFT_RES_MUTEX, &other}};
    ASSERT_EQ(weft_mbox_put(&mbox_, 1), 0);
    ASSERT_EQ(weft_mbox_put(&mbox_, 2), 0); // full
    pthread_mutex_lock(&other);             // held by software

    weft_hwthread_t *put = Start(0, res, "put");
    Issue(0, WEFT_OSIF_CMD_MBOX_PUT, 2, {3});
    weft_hwthread_t *lock = Start(1, res, "lock");
    Issue(1, WEFT_OSIF_CMD_MUTEX_LOCK, 3);
    weft_hwthread_t *wait = Start(2, res, "wait");
    ASSERT_EQ(Call(2, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    Issue(2, WEFT_OSIF_CMD_COND_WAIT, 1, {0});
    for (unsigned s = 0; s < 3; s++)
        EXPECT_FALSE(Collect(s, 30).arrived) << "slot " << s;

    auto t0 = Clock::now();
    Destroy(put);
    Destroy(lock);
    Destroy(wait);
    EXPECT_LT(Clock::now() - t0, std::chrono::seconds(2));
    EXPECT_EQ(weft_mbox_count(&mbox_), 2u) << "the abandoned put added nothing";
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), 0) << "cond waiter's mutex not released";
    pthread_mutex_unlock(&mutex_);
    pthread_mutex_unlock(&other);

    weft_hwthread_t *get = Start(3, res, "get");
    uint32_t v;
    ASSERT_EQ(weft_mbox_get(&mbox_, &v), 0);
    ASSERT_EQ(weft_mbox_get(&mbox_, &v), 0); // empty now
    Issue(3, WEFT_OSIF_CMD_MBOX_GET, 2);
    EXPECT_FALSE(Collect(3, 30).arrived);
    t0 = Clock::now();
    Destroy(get);
    EXPECT_LT(Clock::now() - t0, std::chrono::seconds(2));
    pthread_mutex_destroy(&other);
}

TEST_F(Runtime, HwthreadDestroyReleasesMutexesTheThreadHeld)
{
    weft_hwthread_t *t = Start(0, {{WEFT_RES_MUTEX, &mutex_}}, "holder");
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), EBUSY);
    Destroy(t);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), 0) << "mutex still held after destroy";
    pthread_mutex_unlock(&mutex_);
    EXPECT_NE(LogLineWith({"holder", "slot 0", "released"}), "");
}

TEST_F(Runtime, HwthreadJoinAfterExitHoldingMutexFindsItReleased)
{
    weft_hwthread_t *t = Start(0, {{WEFT_RES_MUTEX, &mutex_}}, "leaky");
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    Issue(0, WEFT_OSIF_CMD_THREAD_EXIT, 0, {1});
    ASSERT_EQ(weft_hwthread_join(t, nullptr), 0);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), 0);
    pthread_mutex_unlock(&mutex_);
    EXPECT_NE(LogLineWith({"leaky", "mutex handle 0", "released"}), "");
}

TEST_F(Runtime, WeftShutdownStopsRunningThreads)
{
    weft_hwthread_t *a = Start(0, {{WEFT_RES_SEM, &sem_}}, "a");
    weft_hwthread_t *b = Start(1, {{WEFT_RES_MBOX, &mbox_}}, "b");
    weft_hwthread_t *c = Start(2, {}, "c");
    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, 0);
    Issue(1, WEFT_OSIF_CMD_MBOX_GET, 0);
    Issue(2, WEFT_OSIF_CMD_THREAD_EXIT, 0, {7});
    ASSERT_EQ(weft_hwthread_join(c, nullptr), 0);
    EXPECT_FALSE(Collect(0, 30).arrived);

    auto t0 = Clock::now();
    weft_shutdown(w_);
    w_ = nullptr;
    EXPECT_LT(Clock::now() - t0, std::chrono::seconds(2));
    for (unsigned s = 0; s < 4; s++)
        EXPECT_EQ(fake_control(f_, s) & WEFT_CONTROL_RUN, 0u) << "slot " << s;

    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(a, &st, 0), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_STOPPED);
    ASSERT_EQ(weft_hwthread_timedjoin(b, &st, 0), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_STOPPED);
    ASSERT_EQ(weft_hwthread_timedjoin(c, &st, 0), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << "a thread that had ended keeps its status";
    EXPECT_EQ(st.value, 7u);
    // TearDown destroys a, b and c after the runtime is gone.
}

} // namespace

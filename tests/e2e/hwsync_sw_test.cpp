// Software threads on the synchronisation manager's objects (docs/hw-services.md,
// "Software threads"): pthreads call them through the manager's software contexts, beside
// hardware threads (hwt_calls) whose calls the fabric serves, on the same objects.
#include "hwsync_fixture.h"

#include <time.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace
{

// An absolute CLOCK_REALTIME time ms from now, as sem_timedwait() takes.
timespec In(long ms)
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

// A pthread that makes one call and records its result.
class Caller
{
  public:
    template <typename F> explicit Caller(F f) : thread_([this, f] { rc_ = f(), done_ = true; }) {}
    ~Caller()
    {
        // A call that never returned has failed its test already; do not hang on it.
        if (thread_.joinable() && done_)
            thread_.join();
        else if (thread_.joinable())
            thread_.detach();
    }
    bool Done() const { return done_; }
    // Wait up to ms for the call to return; its result, or 1 if it has not.
    int Result(int ms = 20000)
    {
        for (int i = 0; i < ms && !done_; i++)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (!done_)
            return 1;
        thread_.join();
        return rc_;
    }

  private:
    std::atomic<int> rc_{0};
    std::atomic<bool> done_{false};
    std::thread thread_;
};

TEST_F(HwSync, SoftwarePostWakesAHardwareWaiterAndTheOtherWayRound)
{
    ASSERT_GT(weft_hwsync_contexts(w_), 0u);
    weft_hwsem_t *s = Sem(0, 4);
    StartCalls(0, {{WEFT_RES_HWSEM, s}});
    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, kH);
    EXPECT_FALSE(Collect(0, 50).arrived);
    EXPECT_EQ(weft_hwsem_post(s), 0);
    EXPECT_EQ(Collect(0).status, WEFT_OSIF_OK) << "the pthread's post did not wake the thread";

    Caller waiter([s] { return weft_hwsem_wait(s); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(waiter.Done()) << "sem_wait returned with the count at 0";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(waiter.Result(), 0) << "the thread's post did not wake the pthread";
    EXPECT_EQ(Value(s), 0u);
}

TEST_F(HwSync, SoftwareSemaphoreCallsFollowPosix)
{
    weft_hwsem_t *s = Sem(1, 2);
    EXPECT_EQ(weft_hwsem_trywait(s), 0);
    EXPECT_EQ(weft_hwsem_trywait(s), -EAGAIN);
    EXPECT_EQ(weft_hwsem_post(s), 0);
    EXPECT_EQ(weft_hwsem_post(s), 0);
    EXPECT_EQ(weft_hwsem_post(s), -EOVERFLOW);
    EXPECT_EQ(Value(s), 2u);
    EXPECT_EQ(weft_hwsem_wait(s), 0);
    EXPECT_EQ(weft_hwsem_wait(s), 0);
    timespec t = In(50);
    EXPECT_EQ(weft_hwsem_timedwait(s, &t), -ETIMEDOUT);
    EXPECT_EQ(weft_hwsem_post(s), 0);
    EXPECT_EQ(Value(s), 1u) << "a timed-out wait took the count it did not return with";
    t = In(50);
    EXPECT_EQ(weft_hwsem_timedwait(s, &t), 0);
    EXPECT_EQ(weft_hwsem_timedwait(s, nullptr), -EINVAL);
}

TEST_F(HwSync, SoftwareMutexCallsFollowPosix)
{
    weft_hwmutex_t *m = Mutex();
    StartCalls(0, {{WEFT_RES_HWMUTEX, m}});
    EXPECT_EQ(weft_hwmutex_lock(m), 0);
    EXPECT_EQ(weft_hwmutex_lock(m), -EDEADLK) << "a relock must not deadlock the thread";
    EXPECT_EQ(weft_hwmutex_trylock(m), -EBUSY);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TRYLOCK, kH).status, WEFT_OSIF_BUSY);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_PERM);
    Caller other([m] { return weft_hwmutex_unlock(m); });
    EXPECT_EQ(other.Result(), -EPERM) << "another pthread unlocked the mutex";
    Issue(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH);
    EXPECT_FALSE(Collect(0, 50).arrived) << "two holders";
    EXPECT_EQ(weft_hwmutex_unlock(m), 0);
    EXPECT_EQ(Collect(0).status, WEFT_OSIF_OK) << "the unlock did not hand the mutex over";
    EXPECT_EQ(weft_hwmutex_unlock(m), -EPERM);
    timespec t = In(50);
    EXPECT_EQ(weft_hwmutex_timedlock(m, &t), -ETIMEDOUT);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK)
        << "a timed-out lock took the mutex";
    EXPECT_EQ(Depth(m), 0u);

    weft_hwmutex_t *r = Mutex(PTHREAD_MUTEX_RECURSIVE);
    EXPECT_EQ(weft_hwmutex_lock(r), 0);
    EXPECT_EQ(weft_hwmutex_trylock(r), 0);
    EXPECT_EQ(Depth(r), 2u);
    EXPECT_EQ(weft_hwmutex_unlock(r), 0);
    EXPECT_EQ(weft_hwmutex_unlock(r), 0);
    EXPECT_EQ(Depth(r), 0u);
}

TEST_F(HwSync, SoftwareConditionWaitIsSignalledByAHardwareThread)
{
    weft_hwmutex_t *m = Mutex();
    weft_hwcond_t *c = Cond();
    StartCalls(0, {{WEFT_RES_HWMUTEX, m}, {WEFT_RES_HWCOND, c}});
    EXPECT_EQ(weft_hwcond_wait(c, m), -EPERM) << "a wait without the mutex";
    std::atomic<bool> locked{false};
    Caller waiter([c, m, &locked] {
        int rc = weft_hwmutex_lock(m);
        locked = true;
        if (rc == 0)
            rc = weft_hwcond_wait(c, m);
        int depth_rc = 0;
        unsigned depth = 0;
        depth_rc = weft_hwmutex_depth(m, &depth);
        if (rc == 0 && (depth_rc != 0 || depth != 1))
            rc = 99; // returned without the mutex
        int un = weft_hwmutex_unlock(m);
        return rc != 0 ? rc : un;
    });
    while (!locked)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    // The thread gets the mutex once the waiter's wait has given it up.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_SIGNAL, kH + 1).status, WEFT_OSIF_OK);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(waiter.Done()) << "the waiter returned while the thread held the mutex";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(waiter.Result(), 0);

    // A timed wait that times out holds the mutex again.
    ASSERT_EQ(weft_hwmutex_lock(m), 0);
    timespec t = In(50);
    EXPECT_EQ(weft_hwcond_timedwait(c, m, &t), -ETIMEDOUT);
    EXPECT_EQ(Depth(m), 1u);
    EXPECT_EQ(weft_hwmutex_unlock(m), 0);
    EXPECT_EQ(weft_hwcond_broadcast(c), 0);
    EXPECT_EQ(weft_hwcond_signal(c), 0);
}

TEST_F(HwSync, AThreadThatExitsHoldingAMutexHandsItOn)
{
    weft_hwmutex_t *m = Mutex();
    StartCalls(0, {{WEFT_RES_HWMUTEX, m}});
    std::atomic<bool> locked{false}, go{false};
    std::thread holder([&] {
        EXPECT_EQ(weft_hwmutex_lock(m), 0);
        locked = true;
        while (!go)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    while (!locked)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    Issue(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH);
    EXPECT_FALSE(Collect(0, 50).arrived) << "two holders";
    go = true;
    holder.join();
    // The exit gave the context back, and the mutex to its waiter.
    EXPECT_EQ(Collect(0).status, WEFT_OSIF_OK) << "the mutex died with its holder";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
}

TEST_F(HwSync, MostUrgentPthreadFirstThenFirstCome)
{
    weft_hwsem_t *s = Sem(0, 4);
    auto waiter = [this, s](unsigned prio) {
        return [this, s, prio] {
            int rc = weft_hwsync_set_priority(w_, prio);
            return rc != 0 ? rc : weft_hwsem_wait(s);
        };
    };
    // First at 20, then another at 20, then one at 2.
    Caller first(waiter(20));
    ASSERT_TRUE(AwaitWaiters(s, 1));
    Caller second(waiter(20));
    ASSERT_TRUE(AwaitWaiters(s, 2));
    Caller urgent(waiter(2));
    ASSERT_TRUE(AwaitWaiters(s, 3));
    EXPECT_EQ(weft_hwsync_set_priority(w_, 128), -EINVAL);
    EXPECT_EQ(weft_hwsem_post(s), 0);
    EXPECT_EQ(urgent.Result(), 0) << "the more urgent pthread, which came last, was not woken";
    EXPECT_FALSE(first.Done() || second.Done());
    EXPECT_EQ(weft_hwsem_post(s), 0);
    EXPECT_EQ(first.Result(), 0) << "within a priority, the first to wait goes first";
    EXPECT_FALSE(second.Done());
    EXPECT_EQ(weft_hwsem_post(s), 0);
    EXPECT_EQ(second.Result(), 0);
}

TEST_F(HwSync, ContextsRunOutForBlockingCallsButNeverForPosts)
{
    weft_hwsem_t *s = Sem(0, 64);
    const unsigned n = weft_hwsync_contexts(w_);
    ASSERT_GE(n, 2u);
    // Posts and trywaits of a thread without a context go through the shared one.
    EXPECT_EQ(weft_hwsem_trywait(s), -EAGAIN);
    // n - 1 threads hold the other contexts, each blocked in a wait.
    std::vector<std::unique_ptr<Caller>> holders;
    for (unsigned i = 1; i < n; i++)
        holders.push_back(std::make_unique<Caller>([s] { return weft_hwsem_wait(s); }));
    ASSERT_TRUE(AwaitWaiters(s, n - 1));
    Caller one_more([s] { return weft_hwsem_wait(s); });
    EXPECT_EQ(one_more.Result(), -ENOSPC) << "more blocked pthreads than contexts";
    Caller poster([s] { return weft_hwsem_post(s); });
    EXPECT_EQ(poster.Result(), 0) << "a post needs no context of its own";
    for (unsigned i = 2; i < n; i++)
        EXPECT_EQ(weft_hwsem_post(s), 0);
    for (auto &h : holders)
        EXPECT_EQ(h->Result(), 0);
    holders.clear(); // their contexts are given back as they exit
    EXPECT_EQ(Value(s), 0u);
    EXPECT_EQ(weft_hwsem_post(s), 0);
    Caller again([s] { return weft_hwsem_wait(s); });
    EXPECT_EQ(again.Result(), 0) << "a context of an exited thread was not given back";
    EXPECT_EQ(weft_hwsync_release(w_), 0);
    EXPECT_EQ(weft_hwsync_release(w_), 0) << "released twice";
}

TEST_F(HwSync, AWaitAfterATimeoutIsNotCancelled)
{
    weft_hwsem_t *s = Sem(0, 4);
    timespec t = In(30);
    EXPECT_EQ(weft_hwsem_timedwait(s, &t), -ETIMEDOUT);
    Caller poster([s] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return weft_hwsem_post(s);
    });
    EXPECT_EQ(weft_hwsem_wait(s), 0) << "the timed-out wait left the context cancelled";
    EXPECT_EQ(poster.Result(), 0);
}

TEST_F(HwSync, ATimeThatIsNoTimeIsRefusedOnlyWhenTheCallWouldBlock)
{
    weft_hwsem_t *s = Sem(1, 4);
    weft_hwmutex_t *m = Mutex();
    timespec bad = In(1000);
    bad.tv_nsec = 1000000000L;
    EXPECT_EQ(weft_hwsem_timedwait(s, &bad), 0) << "the count was there";
    EXPECT_EQ(weft_hwsem_timedwait(s, &bad), -EINVAL);
    EXPECT_EQ(Value(s), 0u);
    EXPECT_EQ(weft_hwsem_post(s), 0) << "the refused wait left the runtime unusable";
    EXPECT_EQ(Value(s), 1u);
    EXPECT_EQ(weft_hwmutex_timedlock(m, &bad), 0);
    Caller other([m, bad] { return weft_hwmutex_timedlock(m, &bad); });
    EXPECT_EQ(other.Result(), -EINVAL);
    EXPECT_EQ(weft_hwmutex_unlock(m), 0);
}

TEST_F(HwSync, PthreadsExcludeEachOtherOnAHardwareMutex)
{
    weft_hwmutex_t *m = Mutex();
    const unsigned n = weft_hwsync_contexts(w_) - 1; // every context but the shared one
    ASSERT_GE(n, 2u);
    constexpr unsigned kRounds = 150;
    unsigned counter = 0;
    std::atomic<unsigned> inside{0}, overlaps{0}, errors{0};
    std::vector<std::thread> threads;
    for (unsigned k = 0; k < n; k++)
        threads.emplace_back([&] {
            for (unsigned r = 0; r < kRounds; r++) {
                if (weft_hwmutex_lock(m) != 0) {
                    errors++;
                    continue;
                }
                if (inside++ != 0)
                    overlaps++;
                counter = counter + 1;
                inside--;
                if (weft_hwmutex_unlock(m) != 0)
                    errors++;
            }
        });
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(errors.load(), 0u);
    EXPECT_EQ(overlaps.load(), 0u) << "two holders at once";
    EXPECT_EQ(counter, n * kRounds);
    EXPECT_EQ(Depth(m), 0u);
}

TEST_F(HwSync, SoftwareCallsOnWrongObjectsAreRefused)
{
    weft_hwsem_t *s = Sem(0, 1);
    weft_hwmutex_t *m = Mutex();
    weft_hwcond_t *c = Cond();
    EXPECT_EQ(weft_hwsem_post(nullptr), -EINVAL);
    EXPECT_EQ(weft_hwmutex_lock(reinterpret_cast<weft_hwmutex_t *>(s)), -EINVAL);
    EXPECT_EQ(weft_hwcond_wait(c, reinterpret_cast<weft_hwmutex_t *>(c)), -EINVAL);
    ASSERT_EQ(weft_hwsem_destroy(s), 0);
    EXPECT_EQ(weft_hwsem_post(s), -EINVAL) << "a call on a destroyed semaphore";
    EXPECT_EQ(Depth(m), 0u);
}

} // namespace

// Semaphores, mutexes and condition variables of the synchronisation manager
// (docs/hw-services.md), used by real hardware threads (hwt_calls) whose RTL is the one
// they use with software objects: only the resource array binds the handles to hardware
// objects. Every call here is served in the fabric; the delegate only moves hwt_calls'
// instruction and result words.
#include "hwsync_fixture.h"

namespace
{

TEST_F(HwSync, SemHandoffBetweenTwoHardwareThreadsNeedsNoDelegate)
{
    weft_hwsem_t *ping = Sem(0, 1), *pong = Sem(0, 1);
    std::vector<weft_resource_t> res = {{WEFT_RES_HWSEM, ping}, {WEFT_RES_HWSEM, pong}};
    StartCalls(0, res, "hw-a");
    StartCalls(1, res, "hw-b");
    uint64_t a0 = DelegateCalls(0), b0 = DelegateCalls(1);
    constexpr unsigned kRounds = 3;
    for (unsigned round = 0; round < kRounds; round++) {
        Issue(1, WEFT_OSIF_CMD_SEM_WAIT, kH);
        EXPECT_FALSE(Collect(1, 100).arrived) << "SEM_WAIT completed before anybody posted";
        EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, kH).status, WEFT_OSIF_OK);
        CallResult rb = Collect(1);
        ASSERT_TRUE(rb.arrived) << "round " << round;
        EXPECT_EQ(rb.status, WEFT_OSIF_OK);
        EXPECT_EQ(rb.cmd, WEFT_OSIF_CMD_SEM_WAIT);
        Issue(0, WEFT_OSIF_CMD_SEM_WAIT, kH + 1);
        EXPECT_EQ(Call(1, WEFT_OSIF_CMD_SEM_POST, kH + 1).status, WEFT_OSIF_OK);
        ASSERT_TRUE(Collect(0).arrived) << "round " << round;
    }
    EXPECT_EQ(Value(ping), 0u);
    EXPECT_EQ(Value(pong), 0u);
    // Each instruction costs hwt_calls two delegate calls (MBOX_GET of the instruction,
    // MBOX_PUT of the result header), give or take its start-up GET_INIT_DATA and the
    // MBOX_GET of the next instruction, counted or not when the counts are read: the six
    // semaphore calls themselves cost none.
    uint64_t instructions = 2 * kRounds;
    for (uint64_t got : {DelegateCalls(0) - a0, DelegateCalls(1) - b0}) {
        EXPECT_GE(got, 2 * instructions - 1);
        EXPECT_LE(got, 2 * instructions + 2);
    }
}

TEST_F(HwSync, SemCountsUpToItsMaximum)
{
    weft_hwsem_t *s = Sem(1, 2);
    StartCalls(0, {{WEFT_RES_HWSEM, s}});
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Value(s), 2u);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, kH).status, WEFT_OSIF_OVERFLOW);
    EXPECT_EQ(Value(s), 2u) << "a refused post changed the count";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_WAIT, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_TIMEDWAIT, kH, {0}).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_TIMEDWAIT, kH, {0}).status, WEFT_OSIF_TIMEDOUT)
        << "a timeout of 0 never blocks";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_TIMEDWAIT, kH, {20}).status, WEFT_OSIF_TIMEDOUT);
    EXPECT_EQ(Value(s), 0u);
}

TEST_F(HwSync, MutexExcludesAndHandsOverOnUnlock)
{
    weft_hwmutex_t *m = Mutex();
    std::vector<weft_resource_t> res = {{WEFT_RES_HWMUTEX, m}};
    StartCalls(0, res, "hw-a");
    StartCalls(1, res, "hw-b");
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Depth(m), 1u);
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_TRYLOCK, kH).status, WEFT_OSIF_BUSY);
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_PERM)
        << "unlocking a mutex another thread holds";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_INTERNAL)
        << "relocking a non-recursive mutex must not deadlock the thread";
    Issue(1, WEFT_OSIF_CMD_MUTEX_LOCK, kH);
    EXPECT_FALSE(Collect(1, 100).arrived) << "two holders";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Collect(1).status, WEFT_OSIF_OK) << "the unlock did not hand the mutex over";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_PERM);
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Depth(m), 0u);
}

TEST_F(HwSync, RecursiveMutexCountsItsDepth)
{
    weft_hwmutex_t *m = Mutex(PTHREAD_MUTEX_RECURSIVE);
    StartCalls(0, {{WEFT_RES_HWMUTEX, m}});
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TRYLOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TIMEDLOCK, kH, {0}).status, WEFT_OSIF_OK);
    EXPECT_EQ(Depth(m), 3u);
    for (int i = 0; i < 3; i++)
        EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Depth(m), 0u);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_PERM);
}

TEST_F(HwSync, CondWaitReleasesTheMutexAndTakesItBack)
{
    weft_hwmutex_t *m = Mutex();
    weft_hwcond_t *c = Cond();
    std::vector<weft_resource_t> res = {{WEFT_RES_HWMUTEX, m}, {WEFT_RES_HWCOND, c}};
    StartCalls(0, res, "hw-a");
    StartCalls(1, res, "hw-b");
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_WAIT, kH + 1, {kH}).status, WEFT_OSIF_PERM)
        << "a condition wait without its mutex";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
    Issue(0, WEFT_OSIF_CMD_COND_WAIT, kH + 1, {kH});
    EXPECT_FALSE(Collect(0, 100).arrived);
    // The waiter gave the mutex up: b takes it, signals, and only its unlock lets a on.
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_COND_SIGNAL, kH + 1).status, WEFT_OSIF_OK);
    EXPECT_FALSE(Collect(0, 100).arrived) << "answered before it held the mutex again";
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Collect(0).status, WEFT_OSIF_OK);
    EXPECT_EQ(Depth(m), 1u);
    // A timed wait that expires also comes back holding the mutex.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_TIMEDWAIT, kH + 1, {kH, 30}).status, WEFT_OSIF_TIMEDOUT);
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_TRYLOCK, kH).status, WEFT_OSIF_BUSY);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
}

TEST_F(HwSync, BroadcastWakesEveryWaiter)
{
    weft_hwmutex_t *m = Mutex();
    weft_hwcond_t *c = Cond();
    std::vector<weft_resource_t> res = {{WEFT_RES_HWMUTEX, m}, {WEFT_RES_HWCOND, c}};
    for (unsigned s = 0; s < 3; s++) {
        StartCalls(s, res);
        EXPECT_EQ(Call(s, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
        Issue(s, WEFT_OSIF_CMD_COND_WAIT, kH + 1, {kH});
    }
    StartCalls(3, res);
    // Slot 3 gets the mutex only once the last waiter's wait has released it: then all
    // three wait on the condition.
    EXPECT_EQ(Call(3, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(3, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(3, WEFT_OSIF_CMD_COND_BROADCAST, kH + 1).status, WEFT_OSIF_OK);
    // One at a time: each answered waiter holds the mutex until it unlocks.
    std::vector<bool> done(3, false);
    for (int k = 0; k < 3; k++) {
        int got = -1;
        for (int tries = 0; tries < 200 && got < 0; tries++) {
            for (unsigned s = 0; s < 3 && got < 0; s++) {
                if (done[s])
                    continue;
                CallResult r = Collect(s, 10);
                if (r.arrived) {
                    EXPECT_EQ(r.status, WEFT_OSIF_OK);
                    got = static_cast<int>(s);
                }
            }
        }
        ASSERT_GE(got, 0) << "waiter " << k << " never came back";
        done[static_cast<unsigned>(got)] = true;
        EXPECT_EQ(Depth(m), 1u);
        EXPECT_EQ(Call(static_cast<unsigned>(got), WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status,
                  WEFT_OSIF_OK);
    }
}

TEST_F(HwSync, MostUrgentWaiterFirst)
{
    weft_hwsem_t *s = Sem(0, 8);
    std::vector<weft_resource_t> res = {{WEFT_RES_HWSEM, s}};
    // Slot 0 waits first at priority 20, slot 1 next at 20, slot 2 last at 3.
    StartCalls(0, res, "hw-20a", 20);
    StartCalls(1, res, "hw-20b", 20);
    StartCalls(2, res, "hw-3", 3);
    StartCalls(3, res, "poster");
    for (unsigned w = 0; w < 3; w++) {
        Issue(w, WEFT_OSIF_CMD_SEM_WAIT, kH);
        ASSERT_TRUE(AwaitWaiters(s, w + 1)) << "slot " << w << " did not block";
    }
    for (unsigned expect : {2u, 0u, 1u}) {
        EXPECT_EQ(Call(3, WEFT_OSIF_CMD_SEM_POST, kH).status, WEFT_OSIF_OK);
        CallResult r = Collect(expect, 2000);
        ASSERT_TRUE(r.arrived) << "slot " << expect << " was not the one woken";
        for (unsigned other = 0; other < 3; other++)
            if (other != expect)
                EXPECT_FALSE(Collect(other, 20).arrived) << "slot " << other << " woke early";
    }
}

TEST_F(HwSync, SignalCancelsABlockedCall)
{
    weft_hwsem_t *s = Sem(0, 1);
    weft_hwthread_t *t = StartCalls(0, {{WEFT_RES_HWSEM, s}});
    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, kH);
    EXPECT_FALSE(Collect(0, 50).arrived);
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), 0);
    EXPECT_EQ(Collect(0).status, WEFT_OSIF_CANCELED);
}

TEST_F(HwSync, DestroyedHolderHandsItsMutexToTheWaiter)
{
    weft_hwmutex_t *m = Mutex();
    weft_hwsem_t *s = Sem(0, 1);
    std::vector<weft_resource_t> res = {{WEFT_RES_HWMUTEX, m}, {WEFT_RES_HWSEM, s}};
    weft_hwthread_t *a = StartCalls(0, res, "holder");
    StartCalls(1, res, "waiter");
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, kH + 1); // the holder blocks for good
    Issue(1, WEFT_OSIF_CMD_MUTEX_LOCK, kH);
    EXPECT_FALSE(Collect(1, 50).arrived);
    Destroy(a);
    EXPECT_EQ(Collect(1).status, WEFT_OSIF_OK) << "the mutex died with its holder";
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_SEM_POST, kH + 1).status, WEFT_OSIF_OK);
    EXPECT_EQ(Value(s), 1u) << "the post went to the destroyed thread's wait";
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
}

TEST_F(HwSync, WrongTypesAndArgumentsAreRefused)
{
    weft_hwsem_t *s = Sem(0, 1);
    weft_hwmutex_t *m = Mutex();
    weft_hwcond_t *c = Cond();
    pthread_mutex_t sw = PTHREAD_MUTEX_INITIALIZER;
    StartCalls(
        0,
        {{WEFT_RES_HWSEM, s}, {WEFT_RES_HWMUTEX, m}, {WEFT_RES_HWCOND, c}, {WEFT_RES_MUTEX, &sw}});
    // A sync call on the wrong kind of hardware object: the manager says WRONG_TYPE.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, kH + 1).status, WEFT_OSIF_WRONG_TYPE);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_WRONG_TYPE);
    // Another command on a hardware object: the delegate says WRONG_TYPE.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TRYGET, kH).status, WEFT_OSIF_WRONG_TYPE);
    // A malformed sync call goes to the delegate: BADARGS.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, kH, {1}).status, WEFT_OSIF_BADARGS);
    // A hardware condition with a software mutex, and the other way round.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_WAIT, kH + 2, {kH + 3}).status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_WAIT, kH + 2, {kH + 0}).status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(Value(s), 0u);
    EXPECT_EQ(Depth(m), 0u);
}

TEST_F(HwSync, ObjectsAreCheckedAndReturned)
{
    weft_hwsem_t *s = nullptr;
    EXPECT_EQ(weft_hwsem_create(w_, 0, 0, &s), -EINVAL);
    EXPECT_EQ(weft_hwsem_create(w_, 3, 2, &s), -EINVAL);
    EXPECT_EQ(weft_hwsem_create(w_, 0, 70000, &s), -EINVAL);
    weft_hwmutex_t *m = nullptr;
    EXPECT_EQ(weft_hwmutex_create(w_, 99, PTHREAD_PRIO_NONE, &m), -EINVAL);
    EXPECT_EQ(weft_hwmutex_create(w_, PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_PROTECT, &m), -EINVAL);
    // Every object of the manager, then one more.
    unsigned n = weft_hwsync_objects(w_);
    ASSERT_GT(n, 0u);
    std::vector<weft_hwcond_t *> all(n);
    for (auto &c : all)
        ASSERT_EQ(weft_hwcond_create(w_, &c), 0);
    weft_hwcond_t *extra = nullptr;
    EXPECT_EQ(weft_hwcond_create(w_, &extra), -ENOSPC);
    EXPECT_EQ(weft_hwcond_destroy(all[0]), 0);
    EXPECT_EQ(weft_hwcond_destroy(all[0]), -EINVAL) << "destroyed twice";
    ASSERT_EQ(weft_hwcond_create(w_, &extra), 0);
    // A bound object cannot be destroyed while its thread exists.
    StartCalls(0, {{WEFT_RES_HWCOND, extra}});
    EXPECT_EQ(weft_hwcond_destroy(extra), -EBUSY);
    EXPECT_EQ(weft_hwmutex_destroy(reinterpret_cast<weft_hwmutex_t *>(extra)), -EINVAL)
        << "a condition destroyed as a mutex";
}

TEST_F(HwSync, ThreadsWithUnusableBindingsAreRefused)
{
    weft_hwsem_t *a = Sem(0, 1), *b = Sem(0, 1);
    std::string image = Image("hwt_calls");
    weft_mem_window_t win = {dma_.bus, dma_.size, WEFT_MEM_RW};
    weft_hwthread_attr_t attr{};
    attr.name = "refused";
    attr.image = image.c_str();
    attr.windows = &win;
    attr.num_windows = 1;
    weft_hwthread_t *t = nullptr;
    // Five runs of hardware objects: more than the slot's four SYNC_BIND ranges.
    std::vector<weft_resource_t> res;
    for (int i = 0; i < 5; i++) {
        res.push_back({WEFT_RES_HWSEM, i % 2 ? a : b});
        res.push_back({WEFT_RES_MBOX, &instr_[0]});
    }
    attr.resources = res.data();
    attr.num_resources = static_cast<unsigned>(res.size());
    EXPECT_EQ(weft_hwthread_create(w_, &t, &attr), -EINVAL);
    // A handle bound to something that is not a live object of this runtime.
    int junk = 0;
    weft_resource_t bad = {WEFT_RES_HWSEM, &junk};
    attr.resources = &bad;
    attr.num_resources = 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &attr), -EINVAL);
    // A priority past the least urgent.
    weft_resource_t ok = {WEFT_RES_HWSEM, a};
    attr.resources = &ok;
    attr.sync_priority = WEFT_SYNC_PRIO_MAX + 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &attr), -EINVAL);
}

} // namespace

// Every OSIF call from the hardware side, carried out by the delegate on the fake
// platform against real POSIX objects and a Weft mailbox.
#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

#include "runtime_fixture.h"

namespace
{

TEST_F(Runtime, OsifGetInitDataReturnsCreationValue)
{
    Start(0, {}, "init", 0xDEADBEEF);
    Resp r = Call(0, WEFT_OSIF_CMD_GET_INIT_DATA, 0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.cmd, WEFT_OSIF_CMD_GET_INIT_DATA);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    ASSERT_EQ(r.results.size(), 1u);
    EXPECT_EQ(r.results[0], 0xDEADBEEFu);
}

TEST_F(Runtime, OsifSemPostWakesSoftwareWaiter)
{
    Start(0, {{WEFT_RES_SEM, &sem_}});
    std::atomic<bool> woke{false};
    std::thread sw([&] {
        EXPECT_EQ(sem_wait(&sem_), 0);
        woke = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(woke.load());
    Resp r = Call(0, WEFT_OSIF_CMD_SEM_POST, 0);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    sw.join();
    EXPECT_TRUE(woke.load());
}

TEST_F(Runtime, OsifSemWaitBlocksUntilSoftwarePosts)
{
    Start(0, {{WEFT_RES_SEM, &sem_}});
    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, 0);
    EXPECT_FALSE(Collect(0, 80).arrived) << "SEM_WAIT completed before anybody posted";
    ASSERT_EQ(sem_post(&sem_), 0);
    Resp r = Collect(0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.cmd, WEFT_OSIF_CMD_SEM_WAIT);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(sem_trywait(&sem_), -1) << "the post was consumed by the hardware thread";
}

TEST_F(Runtime, OsifSemWaitPingPongWithSoftwareThread)
{
    sem_t back;
    ASSERT_EQ(sem_init(&back, 0, 0), 0);
    Start(0, {{WEFT_RES_SEM, &sem_}, {WEFT_RES_SEM, &back}});
    constexpr int kRounds = 50;
    std::thread sw([&] {
        for (int i = 0; i < kRounds; i++) {
            sem_post(&sem_);
            sem_wait(&back);
        }
    });
    for (int i = 0; i < kRounds; i++) {
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_SEM_WAIT, 0).status, WEFT_OSIF_OK) << i;
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, 1).status, WEFT_OSIF_OK) << i;
    }
    sw.join();
    sem_destroy(&back);
}

TEST_F(Runtime, OsifMutexLockUnlockAndTrylock)
{
    Start(0, {{WEFT_RES_MUTEX, &mutex_}});
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), EBUSY) << "hardware holds it";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TRYLOCK, 0).status, WEFT_OSIF_BUSY)
        << "trylock of a mutex the thread holds";
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 0).status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TRYLOCK, 0).status, WEFT_OSIF_BUSY)
        << "software holds it";
    pthread_mutex_unlock(&mutex_);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TRYLOCK, 0).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 0).status, WEFT_OSIF_OK);
}

TEST_F(Runtime, OsifMutexLockBlocksWhileSoftwareHoldsIt)
{
    Start(0, {{WEFT_RES_MUTEX, &mutex_}});
    pthread_mutex_lock(&mutex_);
    Issue(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0);
    EXPECT_FALSE(Collect(0, 80).arrived) << "hardware got a mutex software holds";
    pthread_mutex_unlock(&mutex_);
    Resp r = Collect(0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), EBUSY);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 0).status, WEFT_OSIF_OK);
}

TEST_F(Runtime, OsifMutexUnlockNotHeldIsPerm)
{
    Start(0, {{WEFT_RES_MUTEX, &mutex_}}, "unlocker");
    pthread_mutex_lock(&mutex_);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 0).status, WEFT_OSIF_PERM);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), EBUSY) << "software's lock must survive";
    pthread_mutex_unlock(&mutex_);
    EXPECT_NE(LogLineWith({"unlocker", "slot 0", "MUTEX_UNLOCK", "handle 0", "PERM"}), "");
}

TEST_F(Runtime, OsifMutexLockTwiceIsAnErrorNotADeadlock)
{
    Start(0, {{WEFT_RES_MUTEX, &mutex_}});
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    Resp r = Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.status, WEFT_OSIF_INTERNAL);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 0).status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), 0);
    pthread_mutex_unlock(&mutex_);
}

TEST_F(Runtime, OsifMutexBoundToTwoHandlesIsOneMutex)
{
    // Handles 0 and 1 name the same mutex: locking through one and again through the
    // other must be refused, not deadlock the delegate; unlocking through either works.
    Start(0, {{WEFT_RES_MUTEX, &mutex_}, {WEFT_RES_MUTEX, &mutex_}}, "aliased");
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    Resp again = Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 1);
    ASSERT_TRUE(again.arrived) << "second lock through the other handle deadlocked";
    EXPECT_EQ(again.status, WEFT_OSIF_INTERNAL);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TRYLOCK, 1).status, WEFT_OSIF_BUSY);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 1).status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), 0);
    pthread_mutex_unlock(&mutex_);
}

TEST_F(Runtime, OsifCondWaitReleasesMutexAndWakesOnSignal)
{
    Start(0, {{WEFT_RES_MUTEX, &mutex_}, {WEFT_RES_COND, &cond_}});
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    Issue(0, WEFT_OSIF_CMD_COND_WAIT, 1, {0});
    EXPECT_FALSE(Collect(0, 80).arrived);
    pthread_mutex_lock(&mutex_); // the wait released it
    pthread_cond_signal(&cond_);
    pthread_mutex_unlock(&mutex_);
    Resp r = Collect(0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.cmd, WEFT_OSIF_CMD_COND_WAIT);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), EBUSY) << "cond wait returned without the mutex";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 0).status, WEFT_OSIF_OK);
}

TEST_F(Runtime, OsifCondWaitWithoutMutexIsPerm)
{
    Start(0, {{WEFT_RES_MUTEX, &mutex_}, {WEFT_RES_COND, &cond_}});
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_WAIT, 1, {0}).status, WEFT_OSIF_PERM);
}

TEST_F(Runtime, OsifCondSignalWakesSoftwareWaiter)
{
    Start(0, {{WEFT_RES_MUTEX, &mutex_}, {WEFT_RES_COND, &cond_}});
    bool ready = false; // guarded by mutex_
    std::atomic<bool> waiting{false}, woke{false};
    std::thread sw([&] {
        pthread_mutex_lock(&mutex_);
        waiting = true;
        while (!ready)
            pthread_cond_wait(&cond_, &mutex_);
        pthread_mutex_unlock(&mutex_);
        woke = true;
    });
    while (!waiting)
        std::this_thread::yield();
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    ready = true; // written while the hardware thread holds the mutex for it
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_COND_SIGNAL, 1).status, WEFT_OSIF_OK);
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 0).status, WEFT_OSIF_OK);
    sw.join();
    EXPECT_TRUE(woke.load());
}

TEST_F(Runtime, OsifCondBroadcastWakesEverySoftwareWaiter)
{
    Start(0, {{WEFT_RES_MUTEX, &mutex_}, {WEFT_RES_COND, &cond_}});
    bool go = false; // guarded by mutex_
    int waiting = 0; // guarded by mutex_
    std::atomic<int> woken{0};
    std::vector<std::thread> waiters;
    for (int i = 0; i < 3; i++)
        waiters.emplace_back([&] {
            pthread_mutex_lock(&mutex_);
            waiting++;
            while (!go)
                pthread_cond_wait(&cond_, &mutex_);
            pthread_mutex_unlock(&mutex_);
            woken++;
        });
    for (;;) {
        pthread_mutex_lock(&mutex_);
        int n = waiting;
        pthread_mutex_unlock(&mutex_);
        if (n == 3)
            break;
        std::this_thread::yield();
    }
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    go = true;
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_COND_BROADCAST, 1).status, WEFT_OSIF_OK);
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 0).status, WEFT_OSIF_OK);
    for (auto &t : waiters)
        t.join();
    EXPECT_EQ(woken.load(), 3);
}

TEST_F(Runtime, OsifMboxPutDeliversToSoftware)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}});
    for (uint32_t v = 0; v < 6; v++) {
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_PUT, 0, {v * 7}).status, WEFT_OSIF_OK);
        uint32_t got = 0;
        ASSERT_EQ(weft_mbox_get(&mbox_, &got), 0);
        EXPECT_EQ(got, v * 7);
    }
}

TEST_F(Runtime, OsifMboxPutBlocksWhileFull)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}});
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_PUT, 0, {1}).status, WEFT_OSIF_OK);
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_PUT, 0, {2}).status, WEFT_OSIF_OK);
    Issue(0, WEFT_OSIF_CMD_MBOX_PUT, 0, {3});
    EXPECT_FALSE(Collect(0, 80).arrived) << "put into a full mailbox returned";
    uint32_t v;
    ASSERT_EQ(weft_mbox_get(&mbox_, &v), 0);
    EXPECT_EQ(v, 1u);
    EXPECT_EQ(Collect(0).status, WEFT_OSIF_OK);
    ASSERT_EQ(weft_mbox_get(&mbox_, &v), 0);
    ASSERT_EQ(weft_mbox_get(&mbox_, &v), 0);
    EXPECT_EQ(v, 3u);
}

TEST_F(Runtime, OsifMboxGetBlocksUntilSoftwarePuts)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}});
    Issue(0, WEFT_OSIF_CMD_MBOX_GET, 0);
    EXPECT_FALSE(Collect(0, 80).arrived);
    ASSERT_EQ(weft_mbox_put(&mbox_, 0xCAFEF00D), 0);
    Resp r = Collect(0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    ASSERT_EQ(r.results.size(), 1u);
    EXPECT_EQ(r.results[0], 0xCAFEF00Du);
}

TEST_F(Runtime, OsifMboxTrygetAndTryputReportAgain)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}});
    Resp empty = Call(0, WEFT_OSIF_CMD_MBOX_TRYGET, 0);
    EXPECT_EQ(empty.status, WEFT_OSIF_AGAIN);
    EXPECT_TRUE(empty.results.empty());
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TRYPUT, 0, {9}).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TRYPUT, 0, {10}).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TRYPUT, 0, {11}).status, WEFT_OSIF_AGAIN);
    Resp got = Call(0, WEFT_OSIF_CMD_MBOX_TRYGET, 0);
    EXPECT_EQ(got.status, WEFT_OSIF_OK);
    ASSERT_EQ(got.results.size(), 1u);
    EXPECT_EQ(got.results[0], 9u);
}

TEST_F(Runtime, OsifRequestIsServedOnlyWhenWhole)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}});
    ASSERT_EQ(fake_hw_push(f_, 0, weft_osif_req_header(WEFT_OSIF_CMD_MBOX_PUT, 0, 1)), 0);
    // The header alone is no request: no sequence number, no answer, until the argument.
    EXPECT_FALSE(Collect(0, 30).arrived);
    ASSERT_EQ(fake_hw_push(f_, 0, 0x5150), 0);
    EXPECT_EQ(Collect(0).status, WEFT_OSIF_OK);
    uint32_t v = 0;
    ASSERT_EQ(weft_mbox_get(&mbox_, &v), 0);
    EXPECT_EQ(v, 0x5150u);
}

TEST_F(Runtime, OsifCallsOfTwoThreadsRunIndependently)
{
    weft_mbox_t other;
    ASSERT_EQ(weft_mbox_init(&other, 1), 0);
    weft_hwthread_t *a = Start(0, {{WEFT_RES_MBOX, &mbox_}}, "a");
    Start(1, {{WEFT_RES_MBOX, &other}}, "b");
    Issue(0, WEFT_OSIF_CMD_MBOX_GET, 0); // a blocks
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MBOX_PUT, 0, {4}).status, WEFT_OSIF_OK);
    EXPECT_FALSE(Collect(0, 20).arrived);
    Destroy(a);
    // End every thread before the mailbox they were given goes.
    for (weft_hwthread_t *t : threads_)
        weft_hwthread_destroy(t);
    threads_.clear();
    weft_mbox_destroy(&other);
}

} // namespace

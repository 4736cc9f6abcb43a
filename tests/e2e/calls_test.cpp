// Every implemented OS call made by a hardware thread (hwt_calls) on native objects that
// software threads use at the same time.
#include "e2e_fixture.h"

#include <pthread.h>
#include <semaphore.h>

#include <atomic>
#include <thread>

namespace
{

constexpr uint32_t kH = 2; // first extra handle

TEST_F(Fabric, SemPostFromHardwareWakesSoftware)
{
    sem_t sem;
    sem_init(&sem, 0, 0);
    StartCalls(0, {{WEFT_RES_SEM, &sem}});
    CallResult r = Call(0, WEFT_OSIF_CMD_SEM_POST, kH);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(r.cmd, WEFT_OSIF_CMD_SEM_POST);
    EXPECT_EQ(sem_trywait(&sem), 0);
    sem_destroy(&sem);
}

TEST_F(Fabric, SemWaitInHardwareBlocksUntilSoftwarePosts)
{
    sem_t sem;
    sem_init(&sem, 0, 0);
    StartCalls(0, {{WEFT_RES_SEM, &sem}});
    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, kH);
    CallResult early = Collect(0, 200);
    EXPECT_FALSE(early.arrived) << "SEM_WAIT completed before anybody posted";
    sem_post(&sem);
    CallResult r = Collect(0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    sem_destroy(&sem);
}

TEST_F(Fabric, SemHandoffBetweenTwoHardwareThreads)
{
    sem_t ping, pong;
    sem_init(&ping, 0, 0);
    sem_init(&pong, 0, 0);
    StartCalls(0, {{WEFT_RES_SEM, &ping}, {WEFT_RES_SEM, &pong}}, "hw-a");
    StartCalls(1, {{WEFT_RES_SEM, &ping}, {WEFT_RES_SEM, &pong}}, "hw-b");
    for (int round = 0; round < 3; round++) {
        Issue(1, WEFT_OSIF_CMD_SEM_WAIT, kH); // b waits for ping
        Issue(0, WEFT_OSIF_CMD_SEM_POST, kH); // a posts ping
        EXPECT_EQ(Collect(0).status, WEFT_OSIF_OK);
        CallResult rb = Collect(1);
        ASSERT_TRUE(rb.arrived) << "round " << round;
        EXPECT_EQ(rb.status, WEFT_OSIF_OK);
        Issue(0, WEFT_OSIF_CMD_SEM_WAIT, kH + 1); // a waits for pong
        Issue(1, WEFT_OSIF_CMD_SEM_POST, kH + 1); // b posts pong
        EXPECT_EQ(Collect(1).status, WEFT_OSIF_OK);
        ASSERT_TRUE(Collect(0).arrived) << "round " << round;
    }
    sem_destroy(&ping);
    sem_destroy(&pong);
}

TEST_F(Fabric, MutexLockTrylockUnlockAgainstSoftware)
{
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    StartCalls(0, {{WEFT_RES_MUTEX, &m}});
    pthread_mutex_lock(&m);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TRYLOCK, kH).status, WEFT_OSIF_BUSY);
    Issue(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH);
    EXPECT_FALSE(Collect(0, 200).arrived) << "hardware got a mutex software holds";
    pthread_mutex_unlock(&m);
    CallResult r = Collect(0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&m), EBUSY);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&m), 0);
    pthread_mutex_unlock(&m);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_PERM)
        << "unlocking a mutex the hardware thread does not hold";
}

TEST_F(Fabric, MutexGivesMutualExclusionOnSharedMemory)
{
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    void *cpu;
    uint64_t bus;
    ASSERT_EQ(weft_mem_alloc(w_, 64, &cpu, &bus), 0);
    volatile uint32_t *counter = static_cast<uint32_t *>(cpu);
    *counter = 0;
    StartCalls(0, {{WEFT_RES_MUTEX, &m}});
    constexpr int kRounds = 40;
    std::thread sw([&] {
        for (int i = 0; i < kRounds; i++) {
            pthread_mutex_lock(&m);
            uint32_t v = *counter;
            std::this_thread::yield();
            *counter = v + 1;
            pthread_mutex_unlock(&m);
        }
    });
    // One round at a time: the instruction and result mailboxes hold 64 words each.
    for (int i = 0; i < kRounds; i++) {
        Issue(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH);
        Issue(0, kCallsMemIncrement, 0, {static_cast<uint32_t>(bus)});
        Issue(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH);
        for (int k = 0; k < 3; k++)
            ASSERT_EQ(Collect(0).status, WEFT_OSIF_OK) << "round " << i << " instruction " << k;
    }
    sw.join();
    EXPECT_EQ(*counter, 2u * kRounds);
}

TEST_F(Fabric, CondWaitInHardwareWokenBySoftwareSignal)
{
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    StartCalls(0, {{WEFT_RES_MUTEX, &m}, {WEFT_RES_COND, &c}});
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
    Issue(0, WEFT_OSIF_CMD_COND_WAIT, kH + 1, {kH});
    // The wait released the mutex: software can take it.
    CallResult none = Collect(0, 100);
    EXPECT_FALSE(none.arrived);
    pthread_mutex_lock(&m);
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    CallResult r = Collect(0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(pthread_mutex_trylock(&m), EBUSY) << "cond wait returned without the mutex";
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_WAIT, kH + 1, {kH}).status, WEFT_OSIF_PERM)
        << "cond wait without holding the mutex";
}

TEST_F(Fabric, CondBroadcastFromHardwareWakesEverySoftwareWaiter)
{
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    std::atomic<bool> go{false};
    int waiting = 0; // guarded by m
    std::atomic<int> woken{0};
    StartCalls(0, {{WEFT_RES_MUTEX, &m}, {WEFT_RES_COND, &c}});
    std::vector<std::thread> waiters;
    for (int i = 0; i < 3; i++)
        waiters.emplace_back([&] {
            pthread_mutex_lock(&m);
            waiting++;
            while (!go)
                pthread_cond_wait(&c, &m);
            pthread_mutex_unlock(&m);
            woken++;
        });
    for (;;) { // until every waiter sits in pthread_cond_wait
        pthread_mutex_lock(&m);
        int n = waiting;
        pthread_mutex_unlock(&m);
        if (n == 3)
            break;
        std::this_thread::yield();
    }
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, kH).status, WEFT_OSIF_OK);
    go = true; // the hardware thread holds m now, so no waiter can miss the broadcast
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_BROADCAST, kH + 1).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, kH).status, WEFT_OSIF_OK);
    for (auto &t : waiters)
        t.join();
    EXPECT_EQ(woken.load(), 3);
}

TEST_F(Fabric, MailboxBothDirectionsKeepsOrder)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 8), 0);
    StartCalls(0, {{WEFT_RES_MBOX, &mb}});
    for (uint32_t v = 1; v <= 5; v++)
        EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_PUT, kH, {v * 7}).status, WEFT_OSIF_OK);
    for (uint32_t v = 1; v <= 5; v++) {
        uint32_t got = 0;
        ASSERT_EQ(weft_mbox_get(&mb, &got), 0);
        EXPECT_EQ(got, v * 7);
    }
    for (uint32_t v = 1; v <= 5; v++)
        ASSERT_EQ(weft_mbox_put(&mb, 100 + v), 0);
    for (uint32_t v = 1; v <= 5; v++) {
        CallResult r = Call(0, WEFT_OSIF_CMD_MBOX_GET, kH);
        ASSERT_TRUE(r.arrived);
        EXPECT_EQ(r.status, WEFT_OSIF_OK);
        ASSERT_EQ(r.results.size(), 1u);
        EXPECT_EQ(r.results[0], 100 + v);
    }
    weft_mbox_destroy(&mb);
}

TEST_F(Fabric, MailboxGetInHardwareBlocksUntilSoftwarePuts)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 2), 0);
    StartCalls(0, {{WEFT_RES_MBOX, &mb}});
    Issue(0, WEFT_OSIF_CMD_MBOX_GET, kH);
    EXPECT_FALSE(Collect(0, 200).arrived);
    ASSERT_EQ(weft_mbox_put(&mb, 0xCAFEF00D), 0);
    CallResult r = Collect(0);
    ASSERT_TRUE(r.arrived);
    ASSERT_EQ(r.results.size(), 1u);
    EXPECT_EQ(r.results[0], 0xCAFEF00Du);
    weft_mbox_destroy(&mb);
}

TEST_F(Fabric, MailboxTryVariantsReportAgain)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 1), 0);
    StartCalls(0, {{WEFT_RES_MBOX, &mb}});
    CallResult empty = Call(0, WEFT_OSIF_CMD_MBOX_TRYGET, kH);
    EXPECT_EQ(empty.status, WEFT_OSIF_AGAIN);
    EXPECT_TRUE(empty.results.empty());
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TRYPUT, kH, {9}).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TRYPUT, kH, {10}).status, WEFT_OSIF_AGAIN);
    CallResult got = Call(0, WEFT_OSIF_CMD_MBOX_TRYGET, kH);
    EXPECT_EQ(got.status, WEFT_OSIF_OK);
    ASSERT_EQ(got.results.size(), 1u);
    EXPECT_EQ(got.results[0], 9u);
    weft_mbox_destroy(&mb);
}

TEST_F(Fabric, InitDataAndExitValueReachJoin)
{
    weft_hwthread_t *t = StartCalls(0, {});
    CallResult r = Call(0, WEFT_OSIF_CMD_GET_INIT_DATA, 0);
    ASSERT_TRUE(r.arrived);
    ASSERT_EQ(r.results.size(), 1u);
    EXPECT_EQ(r.results[0], 0x100u); // handles 0 and 1, as StartCalls passes them
    Issue(0, WEFT_OSIF_CMD_THREAD_EXIT, 0, {0x1234});
    weft_exit_status_t st;
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 20000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL);
    EXPECT_EQ(st.value, 0x1234u);
}

TEST_F(Fabric, MemoryWordsBetweenHardwareAndSoftware)
{
    void *cpu;
    uint64_t bus;
    ASSERT_EQ(weft_mem_alloc(w_, 64, &cpu, &bus), 0);
    auto *words = static_cast<volatile uint32_t *>(cpu);
    words[0] = 0x11223344;
    StartCalls(0, {});
    CallResult rd = Call(0, kCallsMemRead, 0, {static_cast<uint32_t>(bus)});
    ASSERT_EQ(rd.results.size(), 1u);
    EXPECT_EQ(rd.results[0], 0x11223344u);
    EXPECT_EQ(Call(0, kCallsMemWrite, 0, {static_cast<uint32_t>(bus + 4), 0xA5A5F00Du}).status,
              WEFT_OSIF_OK);
    EXPECT_EQ(words[1], 0xA5A5F00Du);
}

} // namespace

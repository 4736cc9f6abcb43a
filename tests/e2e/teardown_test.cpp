// Teardown with real hardware threads: destroying a thread blocked in any call, and
// shutting the runtime down with threads in every state. Nothing may hang, leak or leave
// an object unusable; ASan and TSan runs of this suite check the rest.
#include "e2e_fixture.h"

#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

#include <string>

extern "C" {
#include "weft/platform_config.h"
}

namespace
{

struct Blocked {
    const char *name;
    uint32_t cmd;
    std::vector<uint32_t> args;
    uint32_t handle; // of the resources StartBlocked binds from handle 2 on
};

// Handles: 2 semaphore (0), 3 mutex (held by the test), 4 condition, 5 own mutex,
// 6 mailbox (full), 7 empty mailbox, 8 message queue (full), 9 empty queue, 10 link.
const Blocked kBlocked[] = {
    {"SemWait", WEFT_OSIF_CMD_SEM_WAIT, {}, 2},
    {"SemTimedwaitLong", WEFT_OSIF_CMD_SEM_TIMEDWAIT, {60000000u}, 2},
    {"MutexLock", WEFT_OSIF_CMD_MUTEX_LOCK, {}, 3},
    {"MutexTimedlockLong", WEFT_OSIF_CMD_MUTEX_TIMEDLOCK, {60000000u}, 3},
    {"CondWait", WEFT_OSIF_CMD_COND_WAIT, {5}, 4},
    {"MboxPutFull", WEFT_OSIF_CMD_MBOX_PUT, {1}, 6},
    {"MboxPutBurstFull", WEFT_OSIF_CMD_MBOX_PUT_BURST, {1, 2, 3}, 6},
    {"MboxGetEmpty", WEFT_OSIF_CMD_MBOX_GET, {}, 7},
    {"MboxGetBurstEmpty", WEFT_OSIF_CMD_MBOX_GET_BURST, {4}, 7},
    {"MqSendFull", WEFT_OSIF_CMD_MQ_SEND, {4, 0x64636261u}, 8},
    {"MqReceiveEmpty", WEFT_OSIF_CMD_MQ_RECEIVE, {64}, 9},
    {"LinkGetEmpty", WEFT_OSIF_CMD_MBOX_GET, {}, 10},
};

class Teardown : public Fabric
{
  protected:
    void SetUp() override
    {
        Fabric::SetUp();
        ASSERT_EQ(sem_init(&sem_, 0, 0), 0);
        ASSERT_EQ(weft_mbox_init(&full_, 1), 0);
        ASSERT_EQ(weft_mbox_put(&full_, 0xF0F0), 0);
        ASSERT_EQ(weft_mbox_init(&empty_, 1), 0);
        full_q_ = OpenQueue(1, 64);
        empty_q_ = OpenQueue(1, 64);
        ASSERT_EQ(mq_send(full_q_, "x", 1, 0), 0);
        ASSERT_EQ(weft_link_get(w_, WEFT_LINK_RING30, &link_), 0); // slot 3 -> slot 0
    }
    void TearDown() override
    {
        Fabric::TearDown();
        mq_close(full_q_);
        mq_close(empty_q_);
        weft_mbox_destroy(&full_);
        weft_mbox_destroy(&empty_);
        pthread_cond_destroy(&cond_);
        pthread_mutex_destroy(&own_);
        pthread_mutex_destroy(&held_);
        sem_destroy(&sem_);
    }
    weft_hwthread_t *StartBlocked(unsigned slot)
    {
        return StartCalls(slot, {{WEFT_RES_SEM, &sem_},
                                 {WEFT_RES_MUTEX, &held_},
                                 {WEFT_RES_COND, &cond_},
                                 {WEFT_RES_MUTEX, &own_},
                                 {WEFT_RES_MBOX, &full_},
                                 {WEFT_RES_MBOX, &empty_},
                                 {WEFT_RES_MQ, &full_q_},
                                 {WEFT_RES_MQ, &empty_q_},
                                 {WEFT_RES_LINK, link_}});
    }

    sem_t sem_;
    pthread_mutex_t held_ = PTHREAD_MUTEX_INITIALIZER, own_ = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cond_ = PTHREAD_COND_INITIALIZER;
    weft_mbox_t full_, empty_;
    mqd_t full_q_ = (mqd_t)-1, empty_q_ = (mqd_t)-1;
    weft_link_t *link_ = nullptr;
};

class DestroyBlocked : public Teardown, public ::testing::WithParamInterface<Blocked>
{
};

// The thread (in slot 0, the receiving end of ring30) blocks in the call; destroy returns,
// the objects keep what they held, and the slot takes a new thread.
TEST_P(DestroyBlocked, ReturnsAndLeavesObjectsIntact)
{
    const Blocked &b = GetParam();
    ASSERT_EQ(pthread_mutex_lock(&held_), 0);
    weft_hwthread_t *t = StartBlocked(0);
    ASSERT_NE(t, nullptr);
    if (b.cmd == WEFT_OSIF_CMD_COND_WAIT)
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 5).status, WEFT_OSIF_OK);
    Issue(0, b.cmd, b.handle, b.args);
    EXPECT_FALSE(Collect(0, 300).arrived) << b.name << " did not block";
    threads_.clear();
    EXPECT_EQ(weft_hwthread_destroy(t), 0); // a hang fails by the test's timeout

    ASSERT_EQ(pthread_mutex_unlock(&held_), 0);
    EXPECT_EQ(pthread_mutex_trylock(&own_), 0) << "the destroyed thread's mutex stayed locked";
    pthread_mutex_unlock(&own_);
    int v = -1;
    sem_getvalue(&sem_, &v);
    EXPECT_EQ(v, 0);
    EXPECT_EQ(weft_mbox_count(&full_), 1u) << "a word of a blocked put was delivered or lost";
    EXPECT_EQ(weft_mbox_count(&empty_), 0u);
    mq_attr a{};
    mq_getattr(full_q_, &a);
    EXPECT_EQ(a.mq_curmsgs, 1);
    StartCalls(0, {}, "hw-after");
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_GET_INIT_DATA, 0).status, WEFT_OSIF_OK);
}

INSTANTIATE_TEST_SUITE_P(Calls, DestroyBlocked, ::testing::ValuesIn(kBlocked),
                         [](const ::testing::TestParamInfo<Blocked> &i) {
                             return std::string(i.param.name);
                         });

// Shutdown with a thread blocked in a call, one that has exited without being joined,
// one faulted, and one computing; every handle is then destroyed.
TEST_F(Teardown, ShutdownWithThreadsInEveryState)
{
    weft_hwthread_t *blocked = StartBlocked(0);
    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, 2);
    weft_hwthread_t *exited = StartCalls(1, {}, "hw-exited");
    Issue(1, WEFT_OSIF_CMD_THREAD_EXIT, 0, {7});
    weft_hwthread_t *faulted = StartCalls(2, {}, "hw-faulted");
    Issue(2, kCallsMemWrite, 0, {0x100, 1}); // outside its window
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(exited, &st, 20000), 0);
    ASSERT_EQ(weft_hwthread_timedjoin(faulted, &st, 20000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_FAULTED);
    weft_hwthread_t *busy = StartCalls(3, {}, "hw-busy");
    for (int i = 0; i < 50; i++) // keep it working while shutdown comes
        Issue(3, kCallsMemRead, 0, {static_cast<uint32_t>(dma_.bus)});
    ASSERT_TRUE(blocked && exited && faulted && busy);

    weft_shutdown(w_);
    w_ = nullptr;
    ASSERT_EQ(weft_hwthread_join(blocked, &st), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_STOPPED);
    ASSERT_EQ(weft_hwthread_join(exited, &st), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL);
    EXPECT_EQ(st.value, 7u);
    ASSERT_EQ(weft_hwthread_join(busy, &st), 0);
    EXPECT_TRUE(st.kind == WEFT_EXIT_STOPPED || st.kind == WEFT_EXIT_NORMAL);
    for (weft_hwthread_t *t : threads_)
        EXPECT_EQ(weft_hwthread_destroy(t), 0);
    threads_.clear();
}

} // namespace

// Bad input from a hardware thread: protocol errors get an error response and a log line
// naming thread, slot, command and handle; memory faults stop the thread as FAULTED
// with such a message. Other threads run on.
#include <cerrno>

#include "runtime_fixture.h"

namespace
{

TEST_F(Runtime, OsifUnknownCommandIsNosysAndLogged)
{
    Start(1, {{WEFT_RES_SEM, &sem_}}, "rogue");
    Resp r = Call(1, 0x7e, 0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.cmd, 0x7eu) << "the response echoes the unknown code";
    EXPECT_EQ(r.status, WEFT_OSIF_NOSYS);
    EXPECT_TRUE(r.results.empty());
    EXPECT_NE(LogLineWith({"rogue", "slot 1", "0x7e", "handle 0", "NOSYS"}), "");
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_SEM_POST, 0).status, WEFT_OSIF_OK) << "thread goes on";
}

TEST_F(Runtime, OsifBadHandleIsBadhandleAndLogged)
{
    Start(0, {{WEFT_RES_SEM, &sem_}}, "rogue");
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, 200).status, WEFT_OSIF_BADHANDLE);
    EXPECT_NE(LogLineWith({"rogue", "slot 0", "SEM_POST", "handle 200", "BADHANDLE"}), "");
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_GET_INIT_DATA, 3).status, WEFT_OSIF_BADHANDLE);
}

TEST_F(Runtime, OsifWrongTypeIsWrongTypeAndLogged)
{
    Start(0, {{WEFT_RES_MUTEX, &mutex_}}, "rogue");
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_WAIT, 0).status, WEFT_OSIF_WRONG_TYPE);
    EXPECT_NE(LogLineWith({"rogue", "slot 0", "SEM_WAIT", "handle 0", "WRONG_TYPE"}), "");
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), 0) << "the mutex was not touched";
    pthread_mutex_unlock(&mutex_);
}

TEST_F(Runtime, OsifWrongArgumentCountIsBadargsAndKeepsFraming)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}}, "rogue");
    // MBOX_PUT takes one argument; three follow. All three are consumed.
    Issue(0, WEFT_OSIF_CMD_MBOX_PUT, 0, {1, 2, 3});
    Resp r = Collect(0);
    EXPECT_EQ(r.status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(weft_mbox_count(&mbox_), 0u);
    EXPECT_NE(LogLineWith({"rogue", "slot 0", "MBOX_PUT", "handle 0", "BADARGS"}), "");
    // The stream is still in step: the next request is read as a request.
    Resp ok = Call(0, WEFT_OSIF_CMD_MBOX_PUT, 0, {42});
    EXPECT_EQ(ok.cmd, WEFT_OSIF_CMD_MBOX_PUT);
    EXPECT_EQ(ok.status, WEFT_OSIF_OK);
    uint32_t v = 0;
    ASSERT_EQ(weft_mbox_get(&mbox_, &v), 0);
    EXPECT_EQ(v, 42u);
}

TEST_F(Runtime, OsifCondWaitWithNonMutexArgumentIsBadargs)
{
    Start(0, {{WEFT_RES_SEM, &sem_}, {WEFT_RES_COND, &cond_}}, "rogue");
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_WAIT, 1, {0}).status, WEFT_OSIF_BADARGS);
}

TEST_F(Runtime, OsifLongestRequestIsReadWholeAndTheNextIsFramed)
{
    // 255 argument words, the most a header announces, on a call that takes one: all are
    // consumed and answered BADARGS, and the next word is read as a header.
    Start(2, {{WEFT_RES_MBOX, &mbox_}}, "runaway");
    weft_hwthread_t *good = Start(0, {}, "neighbour", 5);
    std::vector<uint32_t> words(WEFT_OSIF_MAX_ARGS, 0x0a000001u); // MBOX_PUT headers, as data
    EXPECT_EQ(Call(2, WEFT_OSIF_CMD_MBOX_PUT, 0, words).status, WEFT_OSIF_BADARGS);
    EXPECT_NE(LogLineWith({"runaway", "MBOX_PUT", "255 argument words"}), "");
    EXPECT_EQ(weft_mbox_count(&mbox_), 0u);
    EXPECT_EQ(Call(2, WEFT_OSIF_CMD_MBOX_PUT, 0, {7}).status, WEFT_OSIF_OK);
    EXPECT_EQ(weft_mbox_count(&mbox_), 1u);
    // The neighbour runs on.
    Resp r = Call(0, WEFT_OSIF_CMD_GET_INIT_DATA, 0);
    ASSERT_EQ(r.results.size(), 1u);
    EXPECT_EQ(r.results[0], 5u);
    EXPECT_EQ(weft_hwthread_timedjoin(good, nullptr, 0), -ETIMEDOUT);
}

TEST_F(Runtime, OsifMemoryFaultFaultsThreadWithAddress)
{
    weft_hwthread_t *t = Start(1, {{WEFT_RES_MUTEX, &mutex_}}, "wild");
    ASSERT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_LOCK, 0).status, WEFT_OSIF_OK);
    uint32_t info = (WEFT_MEMIF_OP_WRITE << WEFT_MEMIF_OP_SHIFT) | 256u;
    fake_hw_fault(f_, 1, WEFT_FAULT_MEM, 0x00000100u, info);
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 3000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_FAULTED);
    std::string m = st.message;
    EXPECT_NE(m.find("wild"), std::string::npos) << m;
    EXPECT_NE(m.find("slot 1"), std::string::npos) << m;
    EXPECT_NE(m.find("0x00000100"), std::string::npos) << m;
    EXPECT_NE(m.find("write of 256 bytes"), std::string::npos) << m;
    EXPECT_EQ(st.mem_faulted, 1);
    EXPECT_EQ(st.mem_fault.addr, 0x00000100u);
    EXPECT_EQ(st.mem_fault.length, 256u);
    EXPECT_EQ(st.mem_fault.write, 1);
    EXPECT_NE(LogLineWith({"wild", "memory fault", "0x00000100"}), "");
    EXPECT_EQ(fake_control(f_, 1) & WEFT_CONTROL_RUN, 0u);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), 0) << "the faulted thread's mutex was released";
    pthread_mutex_unlock(&mutex_);
}

TEST_F(Runtime, OsifResponseOverflowFaultsThread)
{
    weft_hwthread_t *t = Start(0, {}, "deaf");
    fake_hw_fault(f_, 0, WEFT_FAULT_OVERFLOW, 0, 0);
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 3000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_FAULTED);
    EXPECT_NE(std::string(st.message).find("overflow"), std::string::npos) << st.message;
}

} // namespace

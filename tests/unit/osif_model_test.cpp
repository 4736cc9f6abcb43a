// The rest of the programming model on the fake platform, with the test playing the
// hardware thread: message queues, timed calls, signals (stop, yield), resume, and
// teardown of threads blocked where a delegate cannot simply leave.
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <mqueue.h>
#include <string>
#include <thread>
#include <unistd.h>

#include "osif_decode.h"
#include "runtime_fixture.h"

namespace
{

using Clock = std::chrono::steady_clock;

long MsSince(Clock::time_point t0)
{
    return static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
}

/** A POSIX message queue unlinked at once, so no test leaves a name behind. */
class Queue
{
  public:
    explicit Queue(long msgsize, long maxmsg = 4, int flags = 0)
    {
        std::string name =
            "/weft-unit-" + std::to_string(getpid()) + "-" + std::to_string(counter_.fetch_add(1));
        mq_attr a{};
        a.mq_maxmsg = maxmsg;
        a.mq_msgsize = msgsize;
        q_ = mq_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | flags, 0600, &a);
        if (q_ != (mqd_t)-1)
            mq_unlink(name.c_str());
    }
    ~Queue()
    {
        if (ok())
            mq_close(q_);
    }
    bool ok() const { return q_ != (mqd_t)-1; }
    mqd_t *get() { return &q_; }
    mqd_t q() const { return q_; }

  private:
    static std::atomic<int> counter_;
    mqd_t q_;
};
std::atomic<int> Queue::counter_{0};

/** Message bytes as the protocol carries them: little-endian in words. */
std::vector<uint32_t> Words(const std::string &bytes)
{
    std::vector<uint32_t> w((bytes.size() + 3) / 4, 0);
    for (size_t i = 0; i < bytes.size(); i++)
        w[i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << (8 * (i % 4));
    return w;
}

TEST_F(Runtime, MqSendFromHardwareArrivesWithItsBytesAndPriority)
{
    Queue q(64);
    ASSERT_TRUE(q.ok());
    Start(0, {{WEFT_RES_MQ, q.get()}});
    std::string msg = "hello, queue"; // 12 bytes: 3 words
    std::vector<uint32_t> args = {weft_mq_info(12, 7)};
    for (uint32_t w : Words(msg))
        args.push_back(w);
    Resp r = Call(0, WEFT_OSIF_CMD_MQ_SEND, 0, args);
    ASSERT_EQ(r.status, WEFT_OSIF_OK);
    char buf[64];
    unsigned prio = 0;
    ssize_t n = mq_receive(q.q(), buf, sizeof buf, &prio);
    ASSERT_EQ(n, 12);
    EXPECT_EQ(std::string(buf, 12), msg);
    EXPECT_EQ(prio, 7u);
}

TEST_F(Runtime, MqReceiveInHardwareGetsLengthPriorityAndWords)
{
    Queue q(64);
    ASSERT_TRUE(q.ok());
    Start(0, {{WEFT_RES_MQ, q.get()}});
    Issue(0, WEFT_OSIF_CMD_MQ_RECEIVE, 0, {64});
    EXPECT_FALSE(Collect(0, 60).arrived) << "receive on an empty queue must block";
    std::string msg = "odd-length!"; // 11 bytes: 3 words, the last one padded with 0
    ASSERT_EQ(mq_send(q.q(), msg.data(), msg.size(), 3), 0);
    Resp r = Collect(0);
    ASSERT_TRUE(r.arrived);
    ASSERT_EQ(r.status, WEFT_OSIF_OK);
    ASSERT_EQ(r.results.size(), 4u);
    EXPECT_EQ(weft_mq_info_length(r.results[0]), 11u);
    EXPECT_EQ(weft_mq_info_prio(r.results[0]), 3u);
    std::vector<uint32_t> words(r.results.begin() + 1, r.results.end());
    EXPECT_EQ(words, Words(msg));
}

TEST_F(Runtime, MqHigherPriorityIsReceivedFirstLikePosix)
{
    Queue q(16);
    ASSERT_TRUE(q.ok());
    Start(0, {{WEFT_RES_MQ, q.get()}});
    ASSERT_EQ(mq_send(q.q(), "low", 3, 1), 0);
    ASSERT_EQ(mq_send(q.q(), "high", 4, 9), 0);
    Resp a = Call(0, WEFT_OSIF_CMD_MQ_RECEIVE, 0, {16});
    Resp b = Call(0, WEFT_OSIF_CMD_MQ_RECEIVE, 0, {16});
    ASSERT_EQ(a.status, WEFT_OSIF_OK);
    ASSERT_EQ(b.status, WEFT_OSIF_OK);
    EXPECT_EQ(weft_mq_info_prio(a.results[0]), 9u);
    EXPECT_EQ(weft_mq_info_prio(b.results[0]), 1u);
}

TEST_F(Runtime, MqBadRequestsAreRejectedAndNothingIsLost)
{
    Queue q(8);
    ASSERT_TRUE(q.ok());
    Start(0, {{WEFT_RES_MQ, q.get()}});
    // Data words that do not match the length: framing stays, BADARGS.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_SEND, 0, {weft_mq_info(8, 0), 1}).status, WEFT_OSIF_BADARGS);
    // Longer than the queue's message size.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_SEND, 0, {weft_mq_info(12, 0), 1, 2, 3}).status,
              WEFT_OSIF_MSGSIZE);
    // A receive buffer below mq_msgsize takes nothing.
    ASSERT_EQ(mq_send(q.q(), "kept", 4, 0), 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_RECEIVE, 0, {4}).status, WEFT_OSIF_MSGSIZE);
    mq_attr a{};
    ASSERT_EQ(mq_getattr(q.q(), &a), 0);
    EXPECT_EQ(a.mq_curmsgs, 1) << "the message is still queued";
    EXPECT_FALSE(LogLineWith({"MQ_SEND", "BADARGS"}).empty());
}

TEST_F(Runtime, MqThatTheDelegateCannotServeIsRefusedAtCreate)
{
    Queue nonblocking(16, 4, O_NONBLOCK);
    Queue too_big(WEFT_MQ_MAX_MEM_BYTES + 1, 1); // (a queue only a privileged process makes)
    ASSERT_TRUE(nonblocking.ok());
    mqd_t closed = (mqd_t)-1;
    std::vector<mqd_t *> refused = {nonblocking.get(), &closed};
    if (too_big.ok())
        refused.push_back(too_big.get());
    else // only a privileged process may pass msgsize_max
        std::printf("note: no queue of %u-byte messages here (%s); that case is not tried\n",
                    WEFT_MQ_MAX_MEM_BYTES + 1, std::strerror(errno));
    for (mqd_t *q : refused) {
        weft_resource_t res = {WEFT_RES_MQ, q};
        weft_hwthread_attr_t a{};
        a.image = "test_thread.so";
        a.resources = &res;
        a.num_resources = 1;
        weft_hwthread_t *t = nullptr;
        EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL);
    }
}

/** Memory of the fake platform's DMA region the "hardware thread" names by bus address. */
struct DmaBlock {
    void *cpu = nullptr;
    uint64_t bus = 0;
    char *bytes() { return static_cast<char *>(cpu); }
    uint32_t at(size_t off) const { return static_cast<uint32_t>(bus + off); }
};

// Messages in memory: MQ_SEND_MEM sends the bytes a window grants reading, MQ_RECEIVE_MEM
// writes a message where a window grants writing; messages longer than a request holds.
TEST_F(Runtime, MqMessagesMoveThroughTheThreadsMemoryWindows)
{
    constexpr size_t kBig = 4096; // longer than any message a request carries
    Queue q(kBig);
    ASSERT_TRUE(q.ok());
    DmaBlock in, out;
    ASSERT_EQ(weft_mem_alloc(w_, 2 * kBig, &in.cpu, &in.bus), 0);
    ASSERT_EQ(weft_mem_alloc(w_, 2 * kBig, &out.cpu, &out.bus), 0);
    Start(0, {{WEFT_RES_MQ, q.get()}}, "hw-mem", 0,
          {{in.bus, 2 * kBig, WEFT_MEM_READ}, {out.bus, 2 * kBig, WEFT_MEM_WRITE}});
    for (size_t i = 0; i < kBig; i++)
        in.bytes()[i] = static_cast<char>(i * 7 + 1);

    Resp s = Call(0, WEFT_OSIF_CMD_MQ_SEND_MEM, 0, {weft_mq_info(kBig, 3), in.at(0)});
    EXPECT_EQ(s.status, WEFT_OSIF_OK);
    EXPECT_TRUE(s.results.empty());
    std::string got(kBig, '\0');
    unsigned prio = 0;
    ASSERT_EQ(mq_receive(q.q(), got.data(), kBig, &prio), (ssize_t)kBig);
    EXPECT_EQ(prio, 3u);
    EXPECT_EQ(std::memcmp(got.data(), in.bytes(), kBig), 0);

    // An odd length, at an odd address: bytes, not words.
    const std::string msg = "seventeen bytes!!";
    ASSERT_EQ(mq_send(q.q(), msg.data(), msg.size(), 5), 0);
    std::memset(out.bytes(), 0x55, 2 * kBig);
    Resp r = Call(0, WEFT_OSIF_CMD_MQ_RECEIVE_MEM, 0, {kBig, out.at(1)});
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    ASSERT_EQ(r.results.size(), 1u);
    EXPECT_EQ(r.results[0], weft_mq_info(msg.size(), 5));
    EXPECT_EQ(std::string(out.bytes() + 1, msg.size()), msg);
    EXPECT_EQ(out.bytes()[0], 0x55);
    EXPECT_EQ(out.bytes()[1 + msg.size()], 0x55) << "a byte past the message was written";

    // The same queue's messages are too long for the calls that carry words: a receive
    // could not answer one, and a send carries at most WEFT_MQ_MAX_BYTES (the untimed one's
    // 254 words could frame 1016).
    std::vector<uint32_t> long_send(1 + 254, 0x41414141u);
    long_send[0] = weft_mq_info(1016, 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_SEND, 0, long_send).status, WEFT_OSIF_MSGSIZE);
    ASSERT_EQ(mq_send(q.q(), "x", 1, 0), 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_RECEIVE, 0, {WEFT_MQ_MAX_BYTES}).status, WEFT_OSIF_MSGSIZE);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_RECEIVE_MEM, 0, {kBig, out.at(0)}).status, WEFT_OSIF_OK);
}

// Memory no window grants (or not for this access), a message longer than the queue's,
// a receive buffer shorter: a status, nothing sent or taken, the thread goes on.
TEST_F(Runtime, MqMemoryCallsOutsideTheWindowsAreRefused)
{
    Queue q(64);
    ASSERT_TRUE(q.ok());
    DmaBlock in, out;
    ASSERT_EQ(weft_mem_alloc(w_, 256, &in.cpu, &in.bus), 0);
    ASSERT_EQ(weft_mem_alloc(w_, 256, &out.cpu, &out.bus), 0);
    Start(0, {{WEFT_RES_MQ, q.get()}}, "hw-mem", 0,
          {{in.bus, 256, WEFT_MEM_READ}, {out.bus, 256, WEFT_MEM_WRITE}});
    struct Case {
        const char *what;
        uint32_t cmd;
        std::vector<uint32_t> args;
        uint32_t status;
    } cases[] = {
        {"send from a write-only window",
         WEFT_OSIF_CMD_MQ_SEND_MEM,
         {weft_mq_info(8, 0), out.at(0)},
         WEFT_OSIF_BADADDR},
        {"send running past the window",
         WEFT_OSIF_CMD_MQ_SEND_MEM,
         {weft_mq_info(16, 0), in.at(250)},
         WEFT_OSIF_BADADDR},
        {"send from no window",
         WEFT_OSIF_CMD_MQ_SEND_MEM,
         {weft_mq_info(4, 0), 0x10u},
         WEFT_OSIF_BADADDR},
        {"send wrapping past 2^32",
         WEFT_OSIF_CMD_MQ_SEND_MEM,
         {weft_mq_info(64, 0), 0xFFFFFFF0u},
         WEFT_OSIF_BADADDR},
        {"send longer than mq_msgsize",
         WEFT_OSIF_CMD_MQ_SEND_MEM,
         {weft_mq_info(65, 0), in.at(0)},
         WEFT_OSIF_MSGSIZE},
        {"receive into a read-only window",
         WEFT_OSIF_CMD_MQ_RECEIVE_MEM,
         {64, in.at(0)},
         WEFT_OSIF_BADADDR},
        {"receive room running past the window",
         WEFT_OSIF_CMD_MQ_RECEIVE_MEM,
         {64, out.at(200)},
         WEFT_OSIF_BADADDR},
        {"receive room below mq_msgsize",
         WEFT_OSIF_CMD_MQ_RECEIVE_MEM,
         {63, out.at(0)},
         WEFT_OSIF_MSGSIZE},
        {"timed receive into no window",
         WEFT_OSIF_CMD_MQ_TIMEDRECEIVE_MEM,
         {64, 0x10u, 1000},
         WEFT_OSIF_BADADDR},
    };
    ASSERT_EQ(mq_send(q.q(), "kept", 4, 0), 0);
    for (const Case &c : cases)
        EXPECT_EQ(Call(0, c.cmd, 0, c.args).status, c.status) << c.what;
    mq_attr a{};
    ASSERT_EQ(mq_getattr(q.q(), &a), 0);
    EXPECT_EQ(a.mq_curmsgs, 1) << "a refused call sent or took a message";
    EXPECT_FALSE(LogLineWith({"MQ_SEND_MEM", "BADADDR", "grants reading"}).empty());
    // The thread goes on: a good call after them works.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_RECEIVE_MEM, 0, {64, out.at(0)}).status, WEFT_OSIF_OK);
    EXPECT_EQ(std::string(out.bytes(), 4), "kept");
    // A timed receive on the empty queue times out.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_TIMEDRECEIVE_MEM, 0, {64, out.at(0), 20000}).status,
              WEFT_OSIF_TIMEDOUT);
}

TEST_F(Runtime, TimedCallsTimeOutAndSucceedWhenTheyCan)
{
    Queue q(16);
    ASSERT_TRUE(q.ok());
    Start(0, {{WEFT_RES_SEM, &sem_},
              {WEFT_RES_MUTEX, &mutex_},
              {WEFT_RES_COND, &cond_},
              {WEFT_RES_MBOX, &mbox_},
              {WEFT_RES_MQ, q.get()}});
    auto t0 = Clock::now();
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_TIMEDWAIT, 0, {30000}).status, WEFT_OSIF_TIMEDOUT);
    EXPECT_GE(MsSince(t0), 29);
    ASSERT_EQ(sem_post(&sem_), 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_TIMEDWAIT, 0, {0}).status, WEFT_OSIF_OK)
        << "a zero timeout still takes an available count";

    ASSERT_EQ(pthread_mutex_lock(&mutex_), 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TIMEDLOCK, 1, {20000}).status, WEFT_OSIF_TIMEDOUT);
    ASSERT_EQ(pthread_mutex_unlock(&mutex_), 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_TIMEDLOCK, 1, {20000}).status, WEFT_OSIF_OK);

    // A timed condition wait that expires still returns with the mutex held.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_COND_TIMEDWAIT, 2, {1, 20000}).status, WEFT_OSIF_TIMEDOUT);
    EXPECT_EQ(pthread_mutex_trylock(&mutex_), EBUSY);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_UNLOCK, 1).status, WEFT_OSIF_OK);

    t0 = Clock::now();
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TIMEDGET, 3, {0}).status, WEFT_OSIF_TIMEDOUT);
    EXPECT_LT(MsSince(t0), 1000);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TIMEDPUT, 3, {11, 0}).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TIMEDPUT, 3, {12, 0}).status, WEFT_OSIF_OK);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TIMEDPUT, 3, {13, 10000}).status, WEFT_OSIF_TIMEDOUT)
        << "the mailbox holds two words";
    Resp g = Call(0, WEFT_OSIF_CMD_MBOX_TIMEDGET, 3, {10000});
    ASSERT_EQ(g.status, WEFT_OSIF_OK);
    EXPECT_EQ(g.results, std::vector<uint32_t>{11});

    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_TIMEDRECEIVE, 4, {16, 20000}).status, WEFT_OSIF_TIMEDOUT);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MQ_TIMEDSEND, 4, {weft_mq_info(4, 2), 0, 0x64636261}).status,
              WEFT_OSIF_OK);
    Resp m = Call(0, WEFT_OSIF_CMD_MQ_TIMEDRECEIVE, 4, {16, 0});
    ASSERT_EQ(m.status, WEFT_OSIF_OK);
    EXPECT_EQ(m.results, (std::vector<uint32_t>{weft_mq_info(4, 2), 0x64636261}));
}

TEST_F(Runtime, SignalCancelsABlockedCallAndThreadCheckReportsIt)
{
    weft_hwthread_t *t = Start(0, {{WEFT_RES_SEM, &sem_}});
    Resp c = Call(0, WEFT_OSIF_CMD_THREAD_CHECK, 0);
    ASSERT_EQ(c.status, WEFT_OSIF_OK);
    EXPECT_EQ(c.results, std::vector<uint32_t>{0});

    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, 0);
    EXPECT_FALSE(Collect(0, 50).arrived);
    auto t0 = Clock::now();
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), 0);
    Resp r = Collect(0);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.status, WEFT_OSIF_CANCELED);
    EXPECT_LT(MsSince(t0), 1000);

    c = Call(0, WEFT_OSIF_CMD_THREAD_CHECK, 0);
    EXPECT_EQ(c.results, std::vector<uint32_t>{WEFT_SIGNAL_STOP});
    // Later blocking calls are cancelled at once, but what can happen still happens.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_WAIT, 0).status, WEFT_OSIF_CANCELED);
    ASSERT_EQ(sem_post(&sem_), 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_WAIT, 0).status, WEFT_OSIF_OK);

    Issue(0, WEFT_OSIF_CMD_THREAD_EXIT, 0, {42});
    weft_exit_status_t st;
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 3000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL);
    EXPECT_EQ(st.value, 42u);
    EXPECT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), -ESRCH);
}

TEST_F(Runtime, SignalArgumentsAreChecked)
{
    weft_hwthread_t *t = Start(0, {});
    EXPECT_EQ(weft_hwthread_signal(nullptr, WEFT_SIGNAL_STOP), -EINVAL);
    EXPECT_EQ(weft_hwthread_signal(t, 0), -EINVAL);
    EXPECT_EQ(weft_hwthread_signal(t, 0x80), -EINVAL);
}

TEST_F(Runtime, YieldEndsTheThreadWithItsStateAndResumeHandsItBack)
{
    weft_hwthread_t *t = Start(0, {});
    Resp fresh = Call(0, WEFT_OSIF_CMD_GET_RESUME_STATE, 0);
    ASSERT_EQ(fresh.status, WEFT_OSIF_OK);
    EXPECT_EQ(fresh.results, (std::vector<uint32_t>{0, 0}));
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_YIELD), 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_THREAD_CHECK, 0).results,
              std::vector<uint32_t>{WEFT_SIGNAL_YIELD});
    Issue(0, WEFT_OSIF_CMD_THREAD_YIELD, 0, {0x1234});
    weft_exit_status_t st;
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 3000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_YIELDED);
    EXPECT_EQ(st.value, 0x1234u);
    Destroy(t);

    weft_hwthread_attr_t a{};
    a.image = "test_thread.so";
    a.slot = 1;
    a.resume = 1;
    a.resume_state = st.value;
    weft_hwthread_t *r = nullptr;
    ASSERT_EQ(weft_hwthread_create(w_, &r, &a), 0);
    threads_.push_back(r);
    Resp back = Call(1, WEFT_OSIF_CMD_GET_RESUME_STATE, 0);
    EXPECT_EQ(back.results, (std::vector<uint32_t>{1, 0x1234}));
}

// pthread_cond_*wait must take its mutex back before the delegate can leave it. Held by
// the caller of destroy, that would hang destroy; instead the delegate is left to finish
// alone, and gives the mutex back once it has it.
TEST_F(Runtime, DestroyWhileCondWaitMutexIsHeldByTheCallerReturns)
{
    weft_hwthread_t *t = Start(0, {{WEFT_RES_COND, &cond_}, {WEFT_RES_MUTEX, &mutex_}});
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 1).status, WEFT_OSIF_OK);
    Issue(0, WEFT_OSIF_CMD_COND_WAIT, 0, {1});
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ASSERT_EQ(pthread_mutex_lock(&mutex_), 0) << "the waiting delegate released it";
    auto t0 = Clock::now();
    Destroy(t);
    EXPECT_LT(MsSince(t0), 2000);
    EXPECT_FALSE(LogLineWith({"finishes alone"}).empty());
    EXPECT_EQ(weft_wait_abandoned(0), -ETIMEDOUT) << "the delegate cannot finish yet";
    ASSERT_EQ(pthread_mutex_unlock(&mutex_), 0);
    // The delegate takes the mutex, gives it back, and frees the thread.
    ASSERT_EQ(weft_wait_abandoned(5000), 0);
    ASSERT_EQ(pthread_mutex_trylock(&mutex_), 0) << "the finished delegate kept the mutex";
    pthread_mutex_unlock(&mutex_);
    // The slot is free for a new thread.
    Start(0, {});
}

TEST_F(Runtime, ShutdownWithThreadsInEveryState)
{
    // slot 0 blocked in SEM_WAIT, 1 in COND_WAIT with the mutex held here, 2 in MBOX_PUT
    // on a full mailbox, 3 running (no call), and one more that has exited.
    ASSERT_EQ(weft_mbox_put(&mbox_, 1), 0);
    ASSERT_EQ(weft_mbox_put(&mbox_, 2), 0);
    Start(0, {{WEFT_RES_SEM, &sem_}});
    Start(1, {{WEFT_RES_COND, &cond_}, {WEFT_RES_MUTEX, &mutex_}});
    Start(2, {{WEFT_RES_MBOX, &mbox_}});
    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, 0);
    ASSERT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_LOCK, 1).status, WEFT_OSIF_OK);
    Issue(1, WEFT_OSIF_CMD_COND_WAIT, 0, {1});
    Issue(2, WEFT_OSIF_CMD_MBOX_PUT, 0, {3});
    weft_hwthread_t *ended = Start(3, {});
    Issue(3, WEFT_OSIF_CMD_THREAD_EXIT, 0, {9});
    ASSERT_EQ(weft_hwthread_timedjoin(ended, nullptr, 3000), 0);
    Destroy(ended);
    Start(3, {});
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ASSERT_EQ(pthread_mutex_lock(&mutex_), 0);

    auto t0 = Clock::now();
    weft_shutdown(w_);
    w_ = nullptr;
    EXPECT_LT(MsSince(t0), 3000);
    for (weft_hwthread_t *t : threads_) {
        weft_exit_status_t st;
        ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 0), 0);
        EXPECT_EQ(st.kind, WEFT_EXIT_STOPPED);
    }
    ASSERT_EQ(pthread_mutex_unlock(&mutex_), 0);
    ASSERT_EQ(weft_wait_abandoned(5000), 0); // the abandoned delegate ends
    EXPECT_EQ(weft_mbox_count(&mbox_), 2u) << "the abandoned MBOX_PUT put nothing";
}

} // namespace

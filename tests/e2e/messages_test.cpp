// Bulk messages between software and hardware through a POSIX message queue: hwt_stream's
// MQ_SOURCE sends a block as messages (MQ_SEND, staged whole in memory by the static
// region), MQ_SINK receives them (MQ_RECEIVE, each answered with one response DMA);
// MQ_SOURCE_MEM and MQ_SINK_MEM move messages by reference to the thread's memory
// (MQ_SEND_MEM, MQ_RECEIVE_MEM). Message boundaries are kept both ways, and a message
// that does not fit ends the job with a status instead of losing or splitting words.
#include "e2e_fixture.h"
#include <cstring>
#include <random>
#include <unistd.h>
#include <vector>

namespace
{

constexpr uint32_t kMqSource = 3, kMqSink = 4, kMqSourceMem = 5, kMqSinkMem = 6, kLoad = 7;
constexpr unsigned kJobH = 0, kReportH = 1, kDataH = 2;
constexpr unsigned kMsgWords = 128; // hwt_stream's MsgWords
constexpr unsigned kMsgBytes = 4 * kMsgWords;
constexpr uint32_t kBlockWords = 2048;  // 8 KiB, 16 messages
constexpr unsigned kMemMsgBytes = 8192; // hwt_stream's MsgBytesMem

class Messages : public Fabric
{
  protected:
    void SetUp() override
    {
        Fabric::SetUp();
        ASSERT_EQ(weft_mbox_init(&jobs_, 8), 0);
        ASSERT_EQ(weft_mbox_init(&reports_, 8), 0);
        void *cpu = nullptr;
        ASSERT_EQ(weft_mem_alloc(w_, kBlockWords * 4 + 64, &cpu, &bus_), 0);
        block_ = static_cast<uint32_t *>(cpu);
    }
    // The queue (messages up to msgsize bytes) and the thread, with memory windows when
    // given (else the whole DMA region).
    void Begin(long msgsize, std::vector<weft_mem_window_t> windows = {})
    {
        q_ = OpenQueue(8, msgsize);
        ASSERT_NE(q_, (mqd_t)-1);
        t_ = Start({"hwt_stream",
                    "hw-mq",
                    0,
                    {{WEFT_RES_MBOX, &jobs_}, {WEFT_RES_MBOX, &reports_}, {WEFT_RES_MQ, &q_}},
                    kJobH | kReportH << 8 | kDataH << 16,
                    windows});
        ASSERT_NE(t_, nullptr);
    }
    void TearDown() override
    {
        Fabric::TearDown();
        weft_mbox_destroy(&jobs_);
        weft_mbox_destroy(&reports_);
        if (q_ != (mqd_t)-1)
            mq_close(q_);
    }
    void Job(uint32_t op, uint32_t words)
    {
        ASSERT_EQ(weft_mbox_put(&jobs_, op), 0);
        ASSERT_EQ(weft_mbox_put(&jobs_, static_cast<uint32_t>(bus_)), 0);
        ASSERT_EQ(weft_mbox_put(&jobs_, words), 0);
    }
    // The job's status word; ~0u when no report came.
    uint32_t Report()
    {
        uint32_t w[3];
        for (uint32_t &x : w)
            if (weft_mbox_timedget(&reports_, &x, 60000) != 0)
                return ~0u;
        return w[0];
    }
    void Send(const void *msg, size_t bytes)
    {
        timespec dl{};
        clock_gettime(CLOCK_REALTIME, &dl);
        dl.tv_sec += 30;
        ASSERT_EQ(mq_timedsend(q_, static_cast<const char *>(msg), bytes, 0, &dl), 0)
            << strerror(errno);
    }

    weft_mbox_t jobs_{}, reports_{};
    mqd_t q_ = (mqd_t)-1;
    uint32_t *block_ = nullptr;
    uint64_t bus_ = 0;
    weft_hwthread_t *t_ = nullptr;
};

// MQ_SOURCE: 8 KiB from memory arrive as 16 messages of 512 bytes, in order, each whole.
TEST_F(Messages, HardwareSendsABlockAsWholeMessages)
{
    Begin(kMsgBytes);
    std::mt19937 rng(11);
    for (uint32_t i = 0; i < kBlockWords; i++)
        block_[i] = rng();
    Job(kMqSource, kBlockWords);
    std::vector<uint32_t> got(kMsgWords + 1);
    for (unsigned k = 0; k < kBlockWords / kMsgWords; k++) {
        timespec dl{};
        clock_gettime(CLOCK_REALTIME, &dl);
        dl.tv_sec += 60;
        unsigned prio = 7;
        ssize_t n =
            mq_timedreceive(q_, reinterpret_cast<char *>(got.data()), kMsgBytes, &prio, &dl);
        ASSERT_EQ(n, (ssize_t)kMsgBytes) << "message " << k << ": " << strerror(errno);
        EXPECT_EQ(prio, 0u);
        EXPECT_EQ(std::memcmp(got.data(), &block_[k * kMsgWords], kMsgBytes), 0)
            << "message " << k << " arrived changed";
    }
    EXPECT_EQ(Report(), 0u);
    mq_attr a{};
    ASSERT_EQ(mq_getattr(q_, &a), 0);
    EXPECT_EQ(a.mq_curmsgs, 0) << "more messages than the block";
}

// MQ_SINK: messages of different lengths (a length not a multiple of 4 included) land in
// memory one after another, each taking ceil(length / 4) words, the padding bytes 0.
TEST_F(Messages, HardwareReceivesMessagesOfAnyLengthWithBoundariesKept)
{
    Begin(kMsgBytes);
    const std::vector<size_t> lengths = {512, 4, 100, 37, 512, 511, 8};
    uint32_t words = 0;
    for (size_t len : lengths)
        words += (len + 3) / 4;
    std::memset(block_, 0xEE, kBlockWords * 4);
    Job(kMqSink, words);
    std::vector<uint8_t> expect;
    uint8_t v = 1;
    for (size_t len : lengths) {
        std::vector<uint8_t> msg(len);
        for (uint8_t &b : msg)
            b = v++;
        Send(msg.data(), msg.size());
        expect.insert(expect.end(), msg.begin(), msg.end());
        expect.resize((expect.size() + 3) / 4 * 4, 0); // padding of the last word
    }
    ASSERT_EQ(Report(), 0u);
    EXPECT_EQ(std::memcmp(block_, expect.data(), expect.size()), 0);
    EXPECT_EQ(block_[words], 0xEEEEEEEEu) << "a word past the job was written";
}

// A message longer than the words the job still expects is not split: the job ends with
// MSGSIZE and memory is not written (the sink writes only a whole block).
TEST_F(Messages, AMessageLongerThanTheWordsLeftEndsTheJobWithMsgsize)
{
    Begin(kMsgBytes);
    std::vector<uint8_t> msg(kMsgBytes, 0x5A);
    std::memset(block_, 0, kBlockWords * 4);
    Job(kMqSink, 100); // fewer words than the message has
    Send(msg.data(), msg.size());
    EXPECT_EQ(Report(), (uint32_t)WEFT_OSIF_MSGSIZE);
    EXPECT_EQ(block_[0], 0u) << "part of the message was written";
    // The thread goes on: a fitting job after it works.
    Job(kMqSink, kMsgWords);
    Send(msg.data(), msg.size());
    EXPECT_EQ(Report(), 0u);
    EXPECT_EQ(block_[0], 0x5A5A5A5Au);
}

// A signal ends a receive that waits on an empty queue; the thread reports CANCELED and
// nothing else is taken from the queue.
TEST_F(Messages, ASignalEndsAWaitingReceive)
{
    Begin(kMsgBytes);
    Job(kMqSink, kMsgWords);
    usleep(50 * 1000);
    ASSERT_EQ(weft_hwthread_signal(t_, WEFT_SIGNAL_YIELD), 0);
    EXPECT_EQ(Report(), (uint32_t)WEFT_OSIF_CANCELED);
    std::vector<uint8_t> msg(kMsgBytes, 1);
    Send(msg.data(), msg.size());
    usleep(50 * 1000);
    mq_attr attr{};
    ASSERT_EQ(mq_getattr(q_, &attr), 0);
    EXPECT_EQ(attr.mq_curmsgs, 1) << "the ended receive took a message sent after it";
}

// MQ_SOURCE_MEM: the thread writes the block in its RAM (LOADed first) to memory and
// sends it from there as one 8 KiB message, by reference. MQ_SINK_MEM: the message lands
// in memory and the thread reads it in (its next MQ_SOURCE_MEM sends what it read); a
// message of an odd length writes its bytes and no more.
TEST_F(Messages, MessagesByReferenceKeepTheirBytesAndBoundaries)
{
    Begin(kMemMsgBytes);
    std::mt19937 rng(5);
    for (uint32_t i = 0; i < kBlockWords; i++)
        block_[i] = rng();
    const std::vector<uint32_t> sent(block_, block_ + kBlockWords);
    Job(kLoad, kBlockWords);
    EXPECT_EQ(Report(), 0u);
    std::memset(block_, 0, kBlockWords * 4); // what arrives, the thread wrote
    Job(kMqSourceMem, kBlockWords);
    std::vector<char> got(kMemMsgBytes);
    timespec dl{};
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 60;
    ASSERT_EQ(mq_timedreceive(q_, got.data(), got.size(), nullptr, &dl), (ssize_t)kMemMsgBytes)
        << strerror(errno);
    EXPECT_EQ(std::memcmp(got.data(), sent.data(), kMemMsgBytes), 0);
    EXPECT_EQ(Report(), 0u);

    // Received into memory, read into the thread's RAM: sent again from there.
    std::vector<uint32_t> m(kBlockWords);
    for (uint32_t &w : m)
        w = rng();
    Job(kMqSinkMem, kBlockWords);
    Send(m.data(), kMemMsgBytes);
    EXPECT_EQ(Report(), 0u);
    EXPECT_EQ(std::memcmp(block_, m.data(), kMemMsgBytes), 0);
    std::memset(block_, 0, kBlockWords * 4);
    Job(kMqSourceMem, kBlockWords);
    ASSERT_EQ(mq_timedreceive(q_, got.data(), got.size(), nullptr, &dl), (ssize_t)kMemMsgBytes)
        << strerror(errno);
    EXPECT_EQ(std::memcmp(got.data(), m.data(), kMemMsgBytes), 0) << "the thread's RAM";
    EXPECT_EQ(Report(), 0u);

    // 8189 bytes, then 3 would fill the block, but a receive must offer mq_msgsize.
    std::memset(block_, 0xEE, kBlockWords * 4 + 4);
    std::vector<uint8_t> a(kMemMsgBytes - 3), b = {1, 2, 3};
    for (size_t i = 0; i < a.size(); i++)
        a[i] = static_cast<uint8_t>(i * 13);
    Job(kMqSinkMem, kBlockWords);
    Send(a.data(), a.size());
    // The second receive offers 3 bytes, less than mq_msgsize: MSGSIZE, nothing taken.
    EXPECT_EQ(Report(), (uint32_t)WEFT_OSIF_MSGSIZE);
    EXPECT_EQ(std::memcmp(block_, a.data(), a.size()), 0);
    const uint8_t *bytes = reinterpret_cast<const uint8_t *>(block_);
    for (size_t i = a.size(); i < kBlockWords * 4 + 4; i++)
        EXPECT_EQ(bytes[i], 0xEE) << "byte " << i << " past the message was written";
    Send(b.data(), b.size());
    mq_attr attr{};
    ASSERT_EQ(mq_getattr(q_, &attr), 0);
    EXPECT_EQ(attr.mq_curmsgs, 1) << "the short receive took a message";
}

// Memory the thread was not granted: the call answers BADADDR (the job reports it), the
// message stays queued, the thread takes its next job.
TEST_F(Messages, AMessageOutsideTheThreadsWindowsIsRefused)
{
    // Read-only access to the block: MQ_SOURCE_MEM's write back faults the thread's MEMIF,
    // so only the receive is tried here; it needs a window that grants writing.
    Begin(kMemMsgBytes, {{bus_, kBlockWords * 4 + 64, WEFT_MEM_READ}});
    std::vector<uint8_t> msg(100, 0x42);
    Send(msg.data(), msg.size());
    Job(kMqSinkMem, kBlockWords);
    EXPECT_EQ(Report(), (uint32_t)WEFT_OSIF_BADADDR);
    mq_attr attr{};
    ASSERT_EQ(mq_getattr(q_, &attr), 0);
    EXPECT_EQ(attr.mq_curmsgs, 1) << "a refused receive took the message";
    // The thread goes on: a job that needs no window works.
    Job(kMqSource, kMsgWords);
    std::vector<char> got(kMemMsgBytes);
    timespec dl{};
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 60;
    ASSERT_EQ(mq_timedreceive(q_, got.data(), got.size(), nullptr, &dl), (ssize_t)msg.size());
    ASSERT_EQ(mq_timedreceive(q_, got.data(), got.size(), nullptr, &dl), (ssize_t)kMsgBytes);
    EXPECT_EQ(Report(), 0u);
}

} // namespace

// Every primitive in all four directions: software to software, software to hardware,
// hardware to software and hardware to hardware. A "party" is either a pthread using the
// native object or a hardware thread (hwt_calls) making the OS call through its delegate;
// each test is written once against parties and run for the four placements. The
// call-set table in docs/osif.md names these tests.
#include "e2e_fixture.h"

#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <memory>
#include <string>
#include <thread>

namespace
{

// Handles every hardware party has bound (hwt_calls uses 0 and 1 for its script).
constexpr uint32_t kSemA = 2, kSemB = 3, kMutex = 4, kCond = 5, kMbox = 6, kMq = 7;
constexpr long kMqMsgSize = 64; // 16 data words: a receive's response outgrows the FIFO

enum class Side { Sw, Hw };

struct Placement {
    Side from, to;
    const char *name;
};

class Directions : public Fabric, public ::testing::WithParamInterface<Placement>
{
  protected:
    void SetUp() override
    {
        Fabric::SetUp();
        ASSERT_EQ(sem_init(&sem_a_, 0, 0), 0);
        ASSERT_EQ(sem_init(&sem_b_, 0, 0), 0);
        ASSERT_EQ(weft_mbox_init(&mbox_, 4), 0);
        mq_ = OpenQueue(4, kMqMsgSize);
        ASSERT_NE(mq_, (mqd_t)-1);
        void *cpu = nullptr;
        ASSERT_EQ(weft_mem_alloc(w_, 64, &cpu, &shared_bus_), 0);
        shared_ = static_cast<volatile uint32_t *>(cpu);
        for (int i = 0; i < 16; i++)
            shared_[i] = 0;
    }
    void TearDown() override
    {
        Fabric::TearDown(); // stops the hardware threads before their objects go
        mq_close(mq_);
        weft_mbox_destroy(&mbox_);
        pthread_cond_destroy(&cond_);
        pthread_mutex_destroy(&mutex_);
        sem_destroy(&sem_b_);
        sem_destroy(&sem_a_);
    }

    /** One side of an exchange: a pthread, or the hardware thread in `slot`. */
    struct Party {
        Directions *f;
        Side side;
        unsigned slot;

        uint32_t HwOk(uint32_t cmd, uint32_t handle, const std::vector<uint32_t> &args = {},
                      std::vector<uint32_t> *results = nullptr)
        {
            CallResult r = f->Call(slot, cmd, handle, args);
            EXPECT_TRUE(r.arrived) << "slot " << slot << " cmd " << cmd;
            if (results)
                *results = r.results;
            return r.status;
        }
        void Post(sem_t *s, uint32_t h)
        {
            if (side == Side::Sw)
                ASSERT_EQ(sem_post(s), 0);
            else
                ASSERT_EQ(HwOk(WEFT_OSIF_CMD_SEM_POST, h), WEFT_OSIF_OK);
        }
        void Wait(sem_t *s, uint32_t h)
        {
            if (side == Side::Sw)
                ASSERT_EQ(sem_wait(s), 0);
            else
                ASSERT_EQ(HwOk(WEFT_OSIF_CMD_SEM_WAIT, h), WEFT_OSIF_OK);
        }
        void Lock()
        {
            if (side == Side::Sw)
                ASSERT_EQ(pthread_mutex_lock(&f->mutex_), 0);
            else
                ASSERT_EQ(HwOk(WEFT_OSIF_CMD_MUTEX_LOCK, kMutex), WEFT_OSIF_OK);
        }
        void Unlock()
        {
            if (side == Side::Sw)
                ASSERT_EQ(pthread_mutex_unlock(&f->mutex_), 0);
            else
                ASSERT_EQ(HwOk(WEFT_OSIF_CMD_MUTEX_UNLOCK, kMutex), WEFT_OSIF_OK);
        }
        // Shared word i, read and written without atomics: exclusion is the mutex's job.
        uint32_t Read(unsigned i)
        {
            if (side == Side::Sw)
                return f->shared_[i];
            std::vector<uint32_t> res;
            EXPECT_EQ(HwOk(kCallsMemRead, 0, {f->Addr(i)}, &res), WEFT_OSIF_OK);
            return res.empty() ? 0 : res[0];
        }
        void Write(unsigned i, uint32_t v)
        {
            if (side == Side::Sw)
                f->shared_[i] = v;
            else
                EXPECT_EQ(HwOk(kCallsMemWrite, 0, {f->Addr(i), v}), WEFT_OSIF_OK);
        }
        void Increment(unsigned i)
        {
            if (side == Side::Hw) { // read, then write back: two separate bus accesses
                EXPECT_EQ(HwOk(kCallsMemIncrement, 0, {f->Addr(i)}), WEFT_OSIF_OK);
                return;
            }
            uint32_t v = f->shared_[i];
            std::this_thread::yield(); // widen the window a missing lock would leave open
            f->shared_[i] = v + 1;
        }
        void CondWait()
        {
            if (side == Side::Sw)
                ASSERT_EQ(pthread_cond_wait(&f->cond_, &f->mutex_), 0);
            else
                ASSERT_EQ(HwOk(WEFT_OSIF_CMD_COND_WAIT, kCond, {kMutex}), WEFT_OSIF_OK);
        }
        void Broadcast()
        {
            if (side == Side::Sw)
                ASSERT_EQ(pthread_cond_broadcast(&f->cond_), 0);
            else
                ASSERT_EQ(HwOk(WEFT_OSIF_CMD_COND_BROADCAST, kCond), WEFT_OSIF_OK);
        }
        void Put(uint32_t v)
        {
            if (side == Side::Sw)
                ASSERT_EQ(weft_mbox_put(&f->mbox_, v), 0);
            else
                ASSERT_EQ(HwOk(WEFT_OSIF_CMD_MBOX_PUT, kMbox, {v}), WEFT_OSIF_OK);
        }
        uint32_t Get()
        {
            uint32_t v = 0;
            if (side == Side::Sw) {
                EXPECT_EQ(weft_mbox_get(&f->mbox_, &v), 0);
                return v;
            }
            std::vector<uint32_t> res;
            EXPECT_EQ(HwOk(WEFT_OSIF_CMD_MBOX_GET, kMbox, {}, &res), WEFT_OSIF_OK);
            return res.size() == 1 ? res[0] : 0xDEADDEADu;
        }
        void Send(const std::string &msg)
        {
            if (side == Side::Sw) {
                ASSERT_EQ(mq_send(f->mq_, msg.data(), msg.size(), 0), 0);
                return;
            }
            std::vector<uint32_t> args = {static_cast<uint32_t>(msg.size())};
            for (uint32_t w : PackBytes(msg))
                args.push_back(w);
            ASSERT_EQ(HwOk(WEFT_OSIF_CMD_MQ_SEND, kMq, args), WEFT_OSIF_OK);
        }
        std::string Receive()
        {
            if (side == Side::Sw) {
                char buf[kMqMsgSize];
                ssize_t n = mq_receive(f->mq_, buf, sizeof buf, nullptr);
                EXPECT_GE(n, 0);
                return n < 0 ? std::string() : std::string(buf, static_cast<size_t>(n));
            }
            std::vector<uint32_t> res;
            EXPECT_EQ(HwOk(WEFT_OSIF_CMD_MQ_RECEIVE, kMq, {kMqMsgSize}, &res), WEFT_OSIF_OK);
            if (res.empty())
                return "(no result)";
            uint32_t len = res[0] & 0xffffu;
            EXPECT_EQ(res.size(), 1 + (len + 3) / 4) << "result words for " << len << " bytes";
            std::string out;
            for (uint32_t i = 0; i < len && 1 + i / 4 < res.size(); i++)
                out.push_back(static_cast<char>(res[1 + i / 4] >> (8 * (i % 4))));
            return out;
        }

        // The status a call that may fail answered, as the OSIF status code.
        uint32_t TryLock()
        {
            if (side == Side::Hw)
                return HwOk(WEFT_OSIF_CMD_MUTEX_TRYLOCK, kMutex);
            int rc = pthread_mutex_trylock(&f->mutex_);
            return rc == 0 ? WEFT_OSIF_OK : rc == EBUSY ? WEFT_OSIF_BUSY : WEFT_OSIF_INTERNAL;
        }
        uint32_t TryPut(uint32_t v)
        {
            if (side == Side::Hw)
                return HwOk(WEFT_OSIF_CMD_MBOX_TRYPUT, kMbox, {v});
            return Status(weft_mbox_tryput(&f->mbox_, v));
        }
        uint32_t TryGet(uint32_t *v)
        {
            if (side == Side::Sw)
                return Status(weft_mbox_tryget(&f->mbox_, v));
            std::vector<uint32_t> res;
            uint32_t st = HwOk(WEFT_OSIF_CMD_MBOX_TRYGET, kMbox, {}, &res);
            *v = res.empty() ? 0 : res[0];
            return st;
        }
        void Signal()
        {
            if (side == Side::Sw)
                ASSERT_EQ(pthread_cond_signal(&f->cond_), 0);
            else
                ASSERT_EQ(HwOk(WEFT_OSIF_CMD_COND_SIGNAL, kCond), WEFT_OSIF_OK);
        }
        // Timed calls, each with a timeout of `ms` milliseconds; the OSIF status.
        uint32_t TimedWait(sem_t *s, uint32_t h, int ms)
        {
            if (side == Side::Hw)
                return HwOk(WEFT_OSIF_CMD_SEM_TIMEDWAIT, h, {Us(ms)});
            timespec until = Realtime(ms);
            while (sem_timedwait(s, &until) != 0)
                if (errno != EINTR)
                    return errno == ETIMEDOUT ? WEFT_OSIF_TIMEDOUT : WEFT_OSIF_INTERNAL;
            return WEFT_OSIF_OK;
        }
        uint32_t TimedLock(int ms)
        {
            if (side == Side::Hw)
                return HwOk(WEFT_OSIF_CMD_MUTEX_TIMEDLOCK, kMutex, {Us(ms)});
            timespec until = Realtime(ms);
            int rc = pthread_mutex_timedlock(&f->mutex_, &until);
            return rc == 0           ? WEFT_OSIF_OK
                   : rc == ETIMEDOUT ? WEFT_OSIF_TIMEDOUT
                                     : WEFT_OSIF_INTERNAL;
        }
        uint32_t TimedCondWait(int ms)
        {
            if (side == Side::Hw)
                return HwOk(WEFT_OSIF_CMD_COND_TIMEDWAIT, kCond, {kMutex, Us(ms)});
            timespec until = Realtime(ms);
            int rc = pthread_cond_timedwait(&f->cond_, &f->mutex_, &until);
            return rc == 0           ? WEFT_OSIF_OK
                   : rc == ETIMEDOUT ? WEFT_OSIF_TIMEDOUT
                                     : WEFT_OSIF_INTERNAL;
        }
        uint32_t TimedPut(uint32_t v, int ms)
        {
            if (side == Side::Hw)
                return HwOk(WEFT_OSIF_CMD_MBOX_TIMEDPUT, kMbox, {v, Us(ms)});
            return Status(weft_mbox_timedput(&f->mbox_, v, ms));
        }
        // Timed bursts (hardware); a software party does the same word by word.
        uint32_t TimedPutMany(const std::vector<uint32_t> &words, int ms)
        {
            if (side == Side::Sw)
                return Status(weft_mbox_timedput(&f->mbox_, words.at(0), ms));
            std::vector<uint32_t> args = {Us(ms)};
            args.insert(args.end(), words.begin(), words.end());
            return HwOk(WEFT_OSIF_CMD_MBOX_TIMEDPUT_BURST, kMbox, args);
        }
        uint32_t TimedGetMany(uint32_t n, int ms)
        {
            uint32_t v;
            if (side == Side::Sw)
                return Status(weft_mbox_timedget(&f->mbox_, &v, ms));
            return HwOk(WEFT_OSIF_CMD_MBOX_TIMEDGET_BURST, kMbox, {n, Us(ms)});
        }
        uint32_t TimedGet(uint32_t *v, int ms)
        {
            if (side == Side::Sw)
                return Status(weft_mbox_timedget(&f->mbox_, v, ms));
            std::vector<uint32_t> res;
            uint32_t st = HwOk(WEFT_OSIF_CMD_MBOX_TIMEDGET, kMbox, {Us(ms)}, &res);
            *v = res.empty() ? 0 : res[0];
            return st;
        }
        uint32_t TimedReceive(std::string *msg, int ms)
        {
            if (side == Side::Sw) {
                char buf[kMqMsgSize];
                timespec until = Realtime(ms);
                ssize_t n = mq_timedreceive(f->mq_, buf, sizeof buf, nullptr, &until);
                if (n < 0)
                    return errno == ETIMEDOUT ? WEFT_OSIF_TIMEDOUT : WEFT_OSIF_INTERNAL;
                msg->assign(buf, static_cast<size_t>(n));
                return WEFT_OSIF_OK;
            }
            std::vector<uint32_t> res;
            uint32_t st = HwOk(WEFT_OSIF_CMD_MQ_TIMEDRECEIVE, kMq, {kMqMsgSize, Us(ms)}, &res);
            msg->clear();
            if (st == WEFT_OSIF_OK && !res.empty())
                for (uint32_t i = 0; i < (res[0] & 0xffffu) && 1 + i / 4 < res.size(); i++)
                    msg->push_back(static_cast<char>(res[1 + i / 4] >> (8 * (i % 4))));
            return st;
        }
        uint32_t TimedSend(const std::string &msg, int ms)
        {
            if (side == Side::Sw) {
                timespec until = Realtime(ms);
                if (mq_timedsend(f->mq_, msg.data(), msg.size(), 0, &until) == 0)
                    return WEFT_OSIF_OK;
                return errno == ETIMEDOUT ? WEFT_OSIF_TIMEDOUT : WEFT_OSIF_INTERNAL;
            }
            std::vector<uint32_t> args = {static_cast<uint32_t>(msg.size()), Us(ms)};
            for (uint32_t w : PackBytes(msg))
                args.push_back(w);
            return HwOk(WEFT_OSIF_CMD_MQ_TIMEDSEND, kMq, args);
        }
        // n words in one go: a hardware party uses the burst calls.
        void PutMany(const std::vector<uint32_t> &words)
        {
            if (side == Side::Sw) {
                for (uint32_t w : words)
                    ASSERT_EQ(weft_mbox_put(&f->mbox_, w), 0);
                return;
            }
            std::vector<uint32_t> res;
            ASSERT_EQ(HwOk(WEFT_OSIF_CMD_MBOX_PUT_BURST, kMbox, words, &res), WEFT_OSIF_OK);
            const auto n = static_cast<uint32_t>(words.size());
            EXPECT_EQ(res, std::vector<uint32_t>{weft_osif_burst_end(WEFT_OSIF_OK, n)});
        }
        std::vector<uint32_t> GetMany(uint32_t n)
        {
            std::vector<uint32_t> out;
            if (side == Side::Sw) {
                for (uint32_t i = 0; i < n; i++) {
                    uint32_t v = 0;
                    EXPECT_EQ(weft_mbox_get(&f->mbox_, &v), 0);
                    out.push_back(v);
                }
                return out;
            }
            // The words, then burst_end.
            EXPECT_EQ(HwOk(WEFT_OSIF_CMD_MBOX_GET_BURST, kMbox, {n}, &out), WEFT_OSIF_OK);
            EXPECT_EQ(out.size(), n + 1);
            if (out.size() == n + 1) {
                EXPECT_EQ(out.back(), weft_osif_burst_end(WEFT_OSIF_OK, n));
                out.pop_back();
            }
            return out;
        }

        static uint32_t Us(int ms) { return static_cast<uint32_t>(ms) * 1000u; }
        static timespec Realtime(int ms)
        {
            timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            t.tv_sec += ms / 1000;
            t.tv_nsec += (ms % 1000) * 1000000L;
            if (t.tv_nsec >= 1000000000L) {
                t.tv_sec++;
                t.tv_nsec -= 1000000000L;
            }
            return t;
        }
        static uint32_t Status(int rc)
        {
            switch (rc) {
            case 0:
                return WEFT_OSIF_OK;
            case -EAGAIN:
                return WEFT_OSIF_AGAIN;
            case -ETIMEDOUT:
                return WEFT_OSIF_TIMEDOUT;
            default:
                return WEFT_OSIF_INTERNAL;
            }
        }
    };

    static std::vector<uint32_t> PackBytes(const std::string &s)
    {
        std::vector<uint32_t> w((s.size() + 3) / 4, 0);
        for (size_t i = 0; i < s.size(); i++)
            w[i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(s[i])) << (8 * (i % 4));
        return w;
    }
    uint32_t Addr(unsigned i) const { return static_cast<uint32_t>(shared_bus_ + 4u * i); }

    /** A party on `side`; a hardware party gets the next free slot. */
    Party Make(Side side)
    {
        Party p{this, side, 0};
        if (side == Side::Hw) {
            p.slot = next_slot_++;
            StartCalls(p.slot,
                       {{WEFT_RES_SEM, &sem_a_},
                        {WEFT_RES_SEM, &sem_b_},
                        {WEFT_RES_MUTEX, &mutex_},
                        {WEFT_RES_COND, &cond_},
                        {WEFT_RES_MBOX, &mbox_},
                        {WEFT_RES_MQ, &mq_}},
                       "hw-party");
        }
        return p;
    }
    uint64_t CondFallbacks()
    {
        uint64_t n = 0;
        for (weft_hwthread_t *t : threads_) {
            weft_hwthread_stats_t st{};
            EXPECT_EQ(weft_hwthread_stats(t, &st), 0);
            n += st.cond_fallbacks;
        }
        return n;
    }

    sem_t sem_a_, sem_b_;
    pthread_mutex_t mutex_ = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cond_ = PTHREAD_COND_INITIALIZER;
    weft_mbox_t mbox_;
    mqd_t mq_ = (mqd_t)-1;
    uint64_t shared_bus_ = 0;
    volatile uint32_t *shared_ = nullptr;
    unsigned next_slot_ = 0;
};

// `from` hands a token to `to` (semaphore A), which hands one back (semaphore B); every
// hand-off must be seen exactly once: no count is lost or made up.
TEST_P(Directions, SemaphoreHandoff)
{
    Party from = Make(GetParam().from), to = Make(GetParam().to);
    constexpr int kRounds = 8;
    std::thread receiver([&] {
        for (int i = 0; i < kRounds; i++) {
            to.Wait(&sem_a_, kSemA);
            to.Post(&sem_b_, kSemB);
        }
    });
    for (int i = 0; i < kRounds; i++) {
        from.Post(&sem_a_, kSemA);
        from.Wait(&sem_b_, kSemB);
    }
    receiver.join();
    int a = -1, b = -1;
    sem_getvalue(&sem_a_, &a);
    sem_getvalue(&sem_b_, &b);
    EXPECT_EQ(a, 0);
    EXPECT_EQ(b, 0);
}

// Both parties increment one shared word under the mutex, with the read and the write
// apart; a lost update would show as a short count.
TEST_P(Directions, MutexContentionKeepsMutualExclusion)
{
    Party a = Make(GetParam().from), b = Make(GetParam().to);
    constexpr int kRounds = 25;
    auto worker = [](Party p, int rounds) {
        for (int i = 0; i < rounds; i++) {
            p.Lock();
            p.Increment(0);
            p.Unlock();
        }
    };
    std::thread ta(worker, a, kRounds);
    std::thread tb(worker, b, kRounds);
    ta.join();
    tb.join();
    EXPECT_EQ(shared_[0], 2u * kRounds);
}

// Two waiters of the `to` kind wait for a flag under the mutex; a broadcaster of the
// `from` kind sets it and broadcasts once every waiter is inside its wait. Each waiter
// must wake from the broadcast itself, not from the delegate's fallback wake-up.
TEST_P(Directions, CondBroadcastWakesEveryWaiter)
{
    Party w1 = Make(GetParam().to), w2 = Make(GetParam().to);
    Party bc = Make(GetParam().from);
    constexpr unsigned kFlag = 0, kEntered = 1, kWoken = 2;
    auto waiter = [](Party p) {
        p.Lock();
        p.Increment(kEntered); // under the mutex, just before the wait releases it
        while (p.Read(kFlag) == 0)
            p.CondWait();
        p.Increment(kWoken);
        p.Unlock();
    };
    std::thread t1(waiter, w1);
    std::thread t2(waiter, w2);
    // Holding the mutex and seeing both entries means both waiters are in their wait.
    for (;;) {
        bc.Lock();
        if (bc.Read(kEntered) == 2)
            break;
        bc.Unlock();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    bc.Write(kFlag, 1);
    bc.Broadcast();
    bc.Unlock();
    t1.join();
    t2.join();
    EXPECT_EQ(shared_[kWoken], 2u);
    EXPECT_EQ(CondFallbacks(), 0u) << "a hardware waiter missed the broadcast";
}

// Words through a mailbox of four: order kept, nothing lost, nothing duplicated.
TEST_P(Directions, MailboxKeepsOrderWithoutLossOrDuplication)
{
    Party from = Make(GetParam().from), to = Make(GetParam().to);
    constexpr uint32_t kWords = 24;
    std::vector<uint32_t> got;
    std::thread consumer([&] {
        for (uint32_t i = 0; i < kWords; i++)
            got.push_back(to.Get());
    });
    for (uint32_t i = 0; i < kWords; i++)
        from.Put(0xA5000000u + i * 7u);
    consumer.join();
    ASSERT_EQ(got.size(), kWords);
    for (uint32_t i = 0; i < kWords; i++)
        EXPECT_EQ(got[i], 0xA5000000u + i * 7u) << "word " << i;
    EXPECT_EQ(weft_mbox_count(&mbox_), 0u);
}

// Variable-length messages (0 to 64 bytes) through a POSIX queue of four.
TEST_P(Directions, MessageQueueKeepsOrderAndBytes)
{
    Party from = Make(GetParam().from), to = Make(GetParam().to);
    std::vector<std::string> sent;
    for (int i = 0; i < 12; i++) {
        std::string m;
        size_t len = (static_cast<size_t>(i) * 23u) % (kMqMsgSize + 1);
        for (size_t k = 0; k < len; k++)
            m.push_back(static_cast<char>('a' + (i * 5 + k) % 26));
        sent.push_back(m);
    }
    sent.push_back(std::string(kMqMsgSize, 'z')); // the largest: 17 result words
    std::vector<std::string> got;
    std::thread consumer([&] {
        for (size_t i = 0; i < sent.size(); i++)
            got.push_back(to.Receive());
    });
    for (const std::string &m : sent)
        from.Send(m);
    consumer.join();
    EXPECT_EQ(got, sent);
    mq_attr a{};
    ASSERT_EQ(mq_getattr(mq_, &a), 0);
    EXPECT_EQ(a.mq_curmsgs, 0);
}

// `from` holds the mutex: `to`'s trylock is BUSY; once released, `to` gets it.
TEST_P(Directions, MutexTrylockSeesTheOtherSidesHold)
{
    Party from = Make(GetParam().from), to = Make(GetParam().to);
    from.Lock();
    EXPECT_EQ(to.TryLock(), WEFT_OSIF_BUSY);
    EXPECT_EQ(to.TimedLock(30), WEFT_OSIF_TIMEDOUT);
    from.Unlock();
    EXPECT_EQ(to.TryLock(), WEFT_OSIF_OK);
    to.Unlock();
    EXPECT_EQ(to.TimedLock(5000), WEFT_OSIF_OK);
    to.Unlock();
}

// One waiter of the `to` kind; the `from` party sets the flag and signals.
TEST_P(Directions, CondSignalWakesTheWaiter)
{
    Party waiter = Make(GetParam().to), signaller = Make(GetParam().from);
    constexpr unsigned kFlag = 4, kEntered = 5;
    std::thread t([&] {
        waiter.Lock();
        waiter.Increment(kEntered);
        while (waiter.Read(kFlag) == 0) // timed, so both condition waits are covered
            EXPECT_EQ(waiter.TimedCondWait(5000), WEFT_OSIF_OK);
        waiter.Unlock();
    });
    for (;;) {
        signaller.Lock();
        if (signaller.Read(kEntered) == 1)
            break;
        signaller.Unlock();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    signaller.Write(kFlag, 1);
    signaller.Signal();
    signaller.Unlock();
    t.join();
    EXPECT_EQ(CondFallbacks(), 0u) << "a hardware waiter missed the signal";
}

// Timed calls time out when the other side does nothing, and succeed once it acts:
// semaphore, mailbox and message queue.
TEST_P(Directions, TimedCallsTimeOutThenSucceed)
{
    Party from = Make(GetParam().from), to = Make(GetParam().to);
    to.Lock();
    EXPECT_EQ(to.TimedCondWait(30), WEFT_OSIF_TIMEDOUT);
    to.Unlock(); // held again after the timeout, as pthread_cond_timedwait does

    EXPECT_EQ(to.TimedWait(&sem_a_, kSemA, 30), WEFT_OSIF_TIMEDOUT);
    from.Post(&sem_a_, kSemA);
    EXPECT_EQ(to.TimedWait(&sem_a_, kSemA, 5000), WEFT_OSIF_OK);

    uint32_t v = 0;
    EXPECT_EQ(to.TimedGet(&v, 30), WEFT_OSIF_TIMEDOUT);
    from.Put(0x7777);
    EXPECT_EQ(to.TimedGet(&v, 5000), WEFT_OSIF_OK);
    EXPECT_EQ(v, 0x7777u);

    std::string msg;
    EXPECT_EQ(to.TimedReceive(&msg, 30), WEFT_OSIF_TIMEDOUT);
    for (int i = 0; i < 4; i++) // fill the queue of four
        EXPECT_EQ(from.TimedSend("m" + std::to_string(i), 5000), WEFT_OSIF_OK);
    EXPECT_EQ(from.TimedSend("full", 30), WEFT_OSIF_TIMEDOUT);
    EXPECT_EQ(to.TimedReceive(&msg, 5000), WEFT_OSIF_OK);
    EXPECT_EQ(msg, "m0");
    for (int i = 1; i < 4; i++)
        EXPECT_EQ(to.TimedReceive(&msg, 5000), WEFT_OSIF_OK);
}

// The no-wait variants report AGAIN and the timed ones TIMEDOUT, on an empty and on a
// full mailbox (capacity four).
TEST_P(Directions, MailboxTryAndTimedVariantsOnEmptyAndFull)
{
    Party from = Make(GetParam().from), to = Make(GetParam().to);
    uint32_t v = 0;
    EXPECT_EQ(to.TryGet(&v), WEFT_OSIF_AGAIN);
    EXPECT_EQ(to.TimedGetMany(3, 30), WEFT_OSIF_TIMEDOUT);
    for (uint32_t i = 0; i < 4; i++)
        EXPECT_EQ(from.TryPut(10 + i), WEFT_OSIF_OK);
    EXPECT_EQ(from.TryPut(99), WEFT_OSIF_AGAIN);
    EXPECT_EQ(from.TimedPut(99, 30), WEFT_OSIF_TIMEDOUT);
    EXPECT_EQ(from.TimedPutMany({98, 97}, 30), WEFT_OSIF_TIMEDOUT);
    for (uint32_t i = 0; i < 4; i++) {
        EXPECT_EQ(to.TryGet(&v), WEFT_OSIF_OK);
        EXPECT_EQ(v, 10 + i);
    }
}

// Bursts: a hardware party puts and gets many words per call, through a mailbox of four.
TEST_P(Directions, MailboxBurstsKeepOrder)
{
    Party from = Make(GetParam().from), to = Make(GetParam().to);
    std::vector<uint32_t> sent;
    for (uint32_t i = 0; i < 15; i++)
        sent.push_back(0xB0000000u + i * 3u);
    std::vector<uint32_t> got;
    std::thread consumer([&] {
        for (uint32_t n : {5u, 1u, 9u}) {
            std::vector<uint32_t> part = to.GetMany(n);
            got.insert(got.end(), part.begin(), part.end());
        }
    });
    from.PutMany({sent.begin(), sent.begin() + 10});
    from.PutMany({sent.begin() + 10, sent.end()});
    consumer.join();
    EXPECT_EQ(got, sent);
}

INSTANTIATE_TEST_SUITE_P(Placements, Directions,
                         ::testing::Values(Placement{Side::Sw, Side::Sw, "SwToSw"},
                                           Placement{Side::Sw, Side::Hw, "SwToHw"},
                                           Placement{Side::Hw, Side::Sw, "HwToSw"},
                                           Placement{Side::Hw, Side::Hw, "HwToHw"}),
                         [](const ::testing::TestParamInfo<Placement> &info) {
                             return std::string(info.param.name);
                         });

} // namespace

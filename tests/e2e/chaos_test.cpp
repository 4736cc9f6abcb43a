// Hostile hardware against the real runtime: hwt_chaos (hw/threads/chaos) restarted with
// many seeds in slot 0, bound to every kind of object (a semaphore, a mutex, a mailbox,
// a condition variable or a message queue, and the hardware link into its slot), with a
// healthy hwt_sort in slot 2 sorting a block during every run. Each run checks:
//   - it ends: THREAD_EXIT with the budget as exit value, or FAULTED with a log line
//     naming the thread; a level-0 run (no fault on purpose) always exits normally;
//     a run whose calls stay blocked is helped along by software, then signalled STOP,
//     after which it must end by itself (a BOUNDED run is never stopped). The link is the
//     one into slot 0 with nobody at its source: a call on it never moves a word, so a
//     signal always ends it; a burst that has moved its first word ends only when done
//     (docs/osif.md), so software must be able to finish the ones on the mailbox;
//   - no byte outside the chaos thread's window changes (guard areas on both sides);
//   - the neighbour's block comes back sorted, and it reports every block;
//   - afterwards the objects still work from software (the mutex is free again) and the
//     slot takes the next thread.
// Run length: WEFT_CHAOS_RUNS (default 8) runs of WEFT_CHAOS_BUDGET (default 2000)
// actions from seed WEFT_CHAOS_SEED (default 1); docs/fuzzing.md records a long run.
#include "e2e_fixture.h"

#include <fcntl.h>
#include <mqueue.h>
#include <semaphore.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

extern "C" {
#include "weft/platform_config.h"
}

namespace
{

constexpr unsigned kChaosSlot = 0, kSortSlot = 2;
constexpr uint32_t kBounded = 1u << 24; // job budget word: no call may block for long
constexpr uint32_t kGuardBytes = 4096;  // watched memory on each side of the window
constexpr uint32_t kMaxWindow = 16384;
constexpr uint32_t kAreaBytes = 2 * kGuardBytes + kMaxWindow + 4; // guard, window, guard
constexpr uint32_t kSortWords = 256;
constexpr int kPollMs = 20;
constexpr int kStillPolls = 10;  // polls without a served call before software helps
constexpr int kHelpRounds = 100; // helps without a served call before STOP (a burst of
                                 // 256 words needs 64 of them)
constexpr int kHangMs = 20000;   // stopped or BOUNDED, yet no call served: a hang
constexpr size_t kMqBytes = 64;

unsigned EnvOr(const char *name, unsigned fallback)
{
    const char *v = std::getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = nullptr;
    unsigned long n = std::strtoul(v, &end, 0);
    return *end == '\0' && n > 0 && n < (1ul << 24) ? static_cast<unsigned>(n) : fallback;
}

struct Outcome {
    unsigned runs = 0, exited = 0, mem_faults = 0, other_faults = 0, stopped = 0, helps = 0;
    uint64_t calls = 0, link_calls = 0;
};

class Chaos : public Fabric
{
  protected:
    void SetUp() override
    {
        Fabric::SetUp();
        ASSERT_EQ(sem_init(&sem_, 0, 0), 0);
        ASSERT_EQ(weft_mbox_init(&job_, 4), 0);
        ASSERT_EQ(weft_mbox_init(&mbox_, 4), 0);
        mq_ = OpenQueue(4, kMqBytes);
        ASSERT_NE(mq_, (mqd_t)-1);
        void *cpu = nullptr;
        for (int a = 0; a < 2; a++) {
            ASSERT_EQ(weft_mem_alloc(w_, kAreaBytes, &cpu, &areas_bus_[a]), 0);
            areas_[a] = static_cast<uint8_t *>(cpu);
        }
        ASSERT_EQ(weft_link_get(w_, WEFT_LINK_RING30, &link_), 0);

        ASSERT_EQ(weft_mbox_init(&sort_jobs_, 8), 0);
        ASSERT_EQ(sem_init(&sort_done_, 0, 0), 0);
        ASSERT_EQ(weft_mem_alloc(w_, kSortWords * 4, &cpu, &sort_bus_), 0);
        sort_ = static_cast<uint32_t *>(cpu);
        sorter_ = Start({"hwt_sort",
                         "hw-neighbour",
                         kSortSlot,
                         {{WEFT_RES_MBOX, &sort_jobs_},
                          {WEFT_RES_SEM, &sort_done_},
                          {WEFT_RES_MUTEX, &sort_m_}},
                         0 | 1u << 8 | 2u << 16,
                         {{sort_bus_, kSortWords * 4, WEFT_MEM_RW}}});
        ASSERT_NE(sorter_, nullptr);
    }

    void TearDown() override
    {
        Fabric::TearDown(); // stops the hardware threads before their objects go
        mq_close(mq_);
        weft_mbox_destroy(&mbox_);
        weft_mbox_destroy(&job_);
        weft_mbox_destroy(&sort_jobs_);
        pthread_cond_destroy(&cond_);
        pthread_mutex_destroy(&mutex_);
        sem_destroy(&sem_);
        sem_destroy(&sort_done_);
    }

    // The software side makes possible whatever the chaos thread may wait for.
    void Help(bool job_taken)
    {
        sem_post(&sem_);
        // Empty each mailbox (the job mailbox too, once the job is taken) if it holds
        // words (a put burst waits), else fill it (a get burst waits): a burst has no
        // timeout or signal once its first word moved.
        for (weft_mbox_t *mb : {&job_, &mbox_}) {
            if (mb == &job_ && !job_taken)
                continue;
            uint32_t v;
            if (weft_mbox_tryget(mb, &v) == 0)
                while (weft_mbox_tryget(mb, &v) == 0) {
                }
            else
                while (weft_mbox_tryput(mb, 0x50F70000u + helped_++) == 0) {
                }
        }
        char msg[kMqBytes];
        timespec now{};
        clock_gettime(CLOCK_REALTIME, &now);
        if (mq_timedreceive(mq_, msg, sizeof msg, nullptr, &now) < 0) {
            std::memset(msg, 0x5A, sizeof msg);
            mq_timedsend(mq_, msg, 1 + (mq_serial_++ % kMqBytes), 0, &now);
        }
        // Without the mutex: the chaos thread may hold it for as long as it likes.
        pthread_cond_broadcast(&cond_);
    }

    // Empties every object the chaos thread used, so runs do not depend on each other.
    void ResetObjects()
    {
        while (sem_trywait(&sem_) == 0) {
        }
        uint32_t v;
        while (weft_mbox_tryget(&mbox_, &v) == 0) {
        }
        while (weft_mbox_tryget(&job_, &v) == 0) {
        }
        char msg[kMqBytes];
        timespec now{};
        clock_gettime(CLOCK_REALTIME, &now);
        while (mq_timedreceive(mq_, msg, sizeof msg, nullptr, &now) >= 0) {
        }
        EXPECT_EQ(weft_link_flush(link_), 0);
    }

    // What the slot of a thread that does not end looks like, for the failure report.
    void Diagnose(weft_hwthread_t *t)
    {
        uint32_t v[4] = {};
        const uint32_t regs[4] = {WEFT_SLOT_REG_STATUS, WEFT_SLOT_REG_CONTROL, WEFT_SLOT_REG_FAULT,
                                  WEFT_SLOT_REG_IRQ_STATUS};
        for (int i = 0; i < 4; i++)
            plat_->ops->mmio_read(plat_, WEFT_SLOT_REG(kChaosSlot, regs[i]), &v[i]);
        weft_hwthread_stats_t a{}, b{};
        weft_hwthread_stats(t, &a);
        usleep(200000);
        weft_hwthread_stats(t, &b);
        std::printf(
            "    slot %u: STATUS 0x%08x CONTROL 0x%08x FAULT 0x%08x IRQ_STATUS 0x%08x; "
            "busy cycles %" PRIu64 " -> %" PRIu64 " in 200 ms, calls %" PRIu64 " -> %" PRIu64 "\n",
            kChaosSlot, v[0], v[1], v[2], v[3], a.busy_cycles, b.busy_cycles, a.calls, b.calls);
        std::vector<std::string> log = Log();
        for (size_t i = log.size() > 8 ? log.size() - 8 : 0; i < log.size(); i++)
            std::printf("    log: %s\n", log[i].c_str());
    }

    void RunOne(uint32_t seed, uint32_t budget, Outcome &o);

    sem_t sem_{};
    pthread_mutex_t mutex_ = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cond_ = PTHREAD_COND_INITIALIZER;
    weft_mbox_t job_{}, mbox_{};
    mqd_t mq_ = (mqd_t)-1;
    weft_link_t *link_ = nullptr;
    // Runs take turns with two areas: a read burst the previous thread issued may still
    // run after it was stopped (the static region finishes it and drops the data), so
    // software must not rewrite that area at once (docs/fuzzing.md, "What writing it
    // found").
    uint8_t *areas_[2] = {};
    uint64_t areas_bus_[2] = {};
    unsigned turn_ = 0;
    unsigned mq_serial_ = 0;
    uint32_t helped_ = 0;

    weft_hwthread_t *sorter_ = nullptr;
    weft_mbox_t sort_jobs_{};
    sem_t sort_done_{};
    pthread_mutex_t sort_m_ = PTHREAD_MUTEX_INITIALIZER;
    uint32_t *sort_ = nullptr;
    uint64_t sort_bus_ = 0;
};

void Chaos::RunOne(uint32_t seed, uint32_t budget, Outcome &o)
{
    std::mt19937 rng(seed);
    const unsigned level = seed & 3;
    const bool bounded = (seed >> 2 & 1) != 0;
    const bool use_mq = (seed >> 3 & 1) != 0;
    const uint32_t skew = rng() % 4; // the window need not start on a word
    const uint32_t size = 4 + rng() % (kMaxWindow - 4);
    uint8_t *area_ = areas_[turn_ % 2];
    const uint64_t base = areas_bus_[turn_++ % 2] + kGuardBytes + skew;
    const size_t area_bytes = kAreaBytes;
    const size_t win_off = kGuardBytes + skew;
    for (size_t i = 0; i < area_bytes; i++)
        area_[i] = static_cast<uint8_t>(0xA5 ^ i ^ (i >> 8));
    std::vector<uint8_t> before(area_, area_ + area_bytes);

    // The neighbour's block for this run.
    std::vector<uint32_t> expect(kSortWords);
    for (uint32_t &x : expect)
        x = rng();
    std::copy(expect.begin(), expect.end(), sort_);
    std::sort(expect.begin(), expect.end());
    ASSERT_EQ(weft_mbox_put(&sort_jobs_, static_cast<uint32_t>(sort_bus_)), 0);
    ASSERT_EQ(weft_mbox_put(&sort_jobs_, kSortWords * 4), 0);

    weft_hwthread_t *t = Start(
        {"hwt_chaos",
         "hw-chaos",
         kChaosSlot,
         {{WEFT_RES_MBOX, &job_},
          {WEFT_RES_SEM, &sem_},
          {WEFT_RES_MUTEX, &mutex_},
          {WEFT_RES_MBOX, &mbox_},
          use_mq ? weft_resource_t{WEFT_RES_MQ, &mq_} : weft_resource_t{WEFT_RES_COND, &cond_},
          {WEFT_RES_LINK, link_}},
         seed,
         {{base, size, WEFT_MEM_RW}}});
    ASSERT_NE(t, nullptr) << "seed " << seed;
    ASSERT_EQ(weft_mbox_put(&job_, static_cast<uint32_t>(base)), 0);
    ASSERT_EQ(weft_mbox_put(&job_, size), 0);
    ASSERT_EQ(weft_mbox_put(&job_, budget | (bounded ? kBounded : 0)), 0);

    // Wait for the end; help when no call has been served for a while; STOP when helping
    // does not move it either, and go on helping (a burst that has moved a word goes on
    // after STOP). A BOUNDED run is never stopped: it must end by itself. Stopped or
    // BOUNDED, a stretch of kHangMs without a call served is a hang.
    weft_exit_status_t st{};
    uint64_t last_calls = ~0ull;
    int still = 0, helps_in_vain = 0, helps = 0;
    bool stopped = false, ended = false;
    auto last_progress = std::chrono::steady_clock::now();
    while (!ended) {
        if (weft_hwthread_timedjoin(t, &st, kPollMs) == 0) {
            ended = true;
            break;
        }
        weft_hwthread_stats_t s{};
        ASSERT_EQ(weft_hwthread_stats(t, &s), 0);
        uint64_t calls = s.calls + s.link_calls;
        auto now = std::chrono::steady_clock::now();
        if (calls != last_calls) {
            last_calls = calls;
            last_progress = now;
            still = 0;
            helps_in_vain = 0;
            continue;
        }
        if ((stopped || bounded) && now - last_progress > std::chrono::milliseconds(kHangMs))
            break;
        if (++still < kStillPolls && helps_in_vain == 0)
            continue;
        still = 0;
        if (!stopped && !bounded && helps_in_vain >= kHelpRounds) {
            ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), 0);
            stopped = true;
        }
        Help(last_calls >= 2); // once GET_INIT_DATA and the job burst are served
        helps++;
        helps_in_vain++;
    }
    weft_hwthread_stats_t s{};
    weft_hwthread_stats(t, &s);
    if (!ended)
        Diagnose(t);
    EXPECT_TRUE(ended) << "seed 0x" << std::hex << seed
                       << ": stopped or BOUNDED, yet no call served for " << std::dec << kHangMs
                       << " ms";
    // Destroyed here, not in TearDown (which still has it if an assertion above returned).
    threads_.erase(std::find(threads_.begin(), threads_.end(), t));
    EXPECT_EQ(weft_hwthread_destroy(t), 0);
    ResetObjects();

    const char *how = ended ? "exit" : "no end";
    if (ended && st.kind == WEFT_EXIT_NORMAL) {
        EXPECT_EQ(st.value, budget) << "seed 0x" << std::hex << seed;
        o.exited++;
    } else if (ended) {
        EXPECT_EQ(st.kind, WEFT_EXIT_FAULTED)
            << "seed 0x" << std::hex << seed << ": " << st.message;
        EXPECT_NE(level, 0u) << "seed 0x" << std::hex << seed << ": level 0 ended by "
                             << st.message;
        EXPECT_NE(std::string(st.message).find("hw-chaos"), std::string::npos) << st.message;
        how = st.mem_faulted ? "memory fault" : "fault";
        (st.mem_faulted ? o.mem_faults : o.other_faults)++;
    }
    if (stopped)
        o.stopped++;
    o.runs++;
    o.helps += helps;
    o.calls += s.calls;
    o.link_calls += s.link_calls;
    std::printf("  seed 0x%08x level %u %-7s %-4s window +%u %5u B: %-12s%s after %7" PRIu64
                " calls (%" PRIu64 " on the link), %d helps\n",
                seed, level, bounded ? "bounded" : "", use_mq ? "mq" : "cond", skew, size, how,
                stopped ? " (stopped)" : "", s.calls, s.link_calls, helps);
    if (getenv("WEFT_CHAOS_VERBOSE")) {
        if (ended && st.kind != WEFT_EXIT_NORMAL)
            std::printf("    %s\n", st.message);
    }
    std::fflush(stdout);

    // Nothing outside the window changed.
    for (size_t i = 0; i < area_bytes; i++) {
        if (i >= win_off && i < win_off + size)
            continue;
        ASSERT_EQ(area_[i], before[i])
            << "seed 0x" << std::hex << seed << ": byte at window "
            << (i < win_off ? "base -" : "end +") << std::dec
            << (i < win_off ? win_off - i : i - win_off - size) << " changed";
    }
    // The objects work again from software: the mutex was released with the thread.
    ASSERT_EQ(pthread_mutex_trylock(&mutex_), 0) << "seed 0x" << std::hex << seed;
    pthread_mutex_unlock(&mutex_);
    // The neighbour sorted its block.
    timespec deadline{};
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 60;
    ASSERT_EQ(sem_timedwait(&sort_done_, &deadline), 0)
        << "seed 0x" << std::hex << seed << ": the neighbour reported no block";
    ASSERT_TRUE(std::equal(expect.begin(), expect.end(), sort_))
        << "seed 0x" << std::hex << seed << ": the neighbour's block";
}

TEST_F(Chaos, HostileThreadNeverHarmsTheRuntimeOrItsNeighbours)
{
    const unsigned runs = EnvOr("WEFT_CHAOS_RUNS", 8);
    const unsigned budget = EnvOr("WEFT_CHAOS_BUDGET", 2000);
    const unsigned first = EnvOr("WEFT_CHAOS_SEED", 1);
    std::printf("chaos: %u runs of %u actions from seed %u\n", runs, budget, first);
    Outcome o;
    auto t0 = std::chrono::steady_clock::now();
    for (unsigned i = 0; i < runs && !HasFatalFailure(); i++) {
        // Every level, bounded or not, cond or mq, in turn; the rest of the seed varies.
        const uint32_t n = first + i;
        const uint32_t seed = (n * 0x9E3779B1u & ~0xFu) | (n & 0xF);
        RunOne(seed, budget, o);
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("chaos: %u runs in %.1f s: %u exited, %u memory faults, %u other faults, %u "
                "stopped, %u helps; %" PRIu64 " calls served by the delegate, %" PRIu64
                " on the link\n",
                o.runs, secs, o.exited, o.mem_faults, o.other_faults, o.stopped, o.helps, o.calls,
                o.link_calls);
    // The neighbour is still well: it ends normally with every block reported.
    ASSERT_EQ(weft_mbox_put(&sort_jobs_, 0), 0);
    ASSERT_EQ(weft_mbox_put(&sort_jobs_, 0), 0);
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(sorter_, &st, 20000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, o.runs);
}

} // namespace

// The softcore in a slot (docs/softcore.md, "In a slot"): programs loaded from their ELF
// files through shared memory, their console and exit code, their threads' OS calls on
// the host's objects through the OSIF and their memory through the MEMIF, on both kernel
// ports, and what a program or an image that misbehaves does (tests/softcore/slot).
#include <semaphore.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "e2e_fixture.h"

extern "C" {
#include "weft/softcore.h"
}

namespace
{

class Softcore : public Fabric
{
  protected:
    void TearDown() override
    {
        Fabric::TearDown();
        weft_softcore_image_free(&prog_);
    }

    void Load(const char *program)
    {
        std::string path = std::string(WEFT_SOFTCORE_TEST_DIR "/") + program + ".elf";
        char why[256];
        ASSERT_EQ(
            weft_softcore_image_load(path.c_str(), WEFT_RV_RAM_BYTES, &prog_, why, sizeof why), 0)
            << why;
    }

    // Start the loaded program in slot 0 with these resources, windows and arguments;
    // its console goes to console_.
    weft_hwthread_t *Run(std::vector<weft_resource_t> res, std::vector<weft_mem_window_t> windows,
                         std::vector<uint32_t> args, bool console = true)
    {
        std::string image = Image("hwt_softcore");
        weft_softcore_attr_t a{};
        a.thread.name = "softcore";
        a.thread.image = image.c_str();
        a.thread.slot = 0;
        a.thread.resources = res.data();
        a.thread.num_resources = static_cast<unsigned>(res.size());
        a.thread.windows = windows.data();
        a.thread.num_windows = static_cast<unsigned>(windows.size());
        a.program = &prog_;
        for (size_t i = 0; i < args.size() && i < WEFT_RV_BOOT_ARGS; i++)
            a.args[i] = args[i];
        if (console) {
            a.console = Console;
            a.console_arg = this;
        }
        weft_hwthread_t *t = nullptr;
        EXPECT_EQ(weft_softcore_create(w_, &t, &a), 0);
        if (t)
            threads_.push_back(t);
        return t;
    }

    weft_exit_status_t Join(weft_hwthread_t *t, int timeout_ms = 60000)
    {
        weft_exit_status_t st{};
        EXPECT_EQ(weft_hwthread_timedjoin(t, &st, timeout_ms), 0) << "the softcore did not end";
        return st;
    }

    std::string Out()
    {
        std::lock_guard<std::mutex> g(out_lock_);
        return console_;
    }

    // Memory for the program: words of the DMA region, and their bus address.
    uint32_t *Alloc(size_t bytes, uint64_t *bus)
    {
        void *cpu = nullptr;
        EXPECT_EQ(weft_mem_alloc(w_, bytes, &cpu, bus), 0);
        std::memset(cpu, 0, bytes);
        return static_cast<uint32_t *>(cpu);
    }

    // The largest block the DMA region can still give (allocations come in 64 bytes).
    size_t Largest()
    {
        size_t lo = 0, hi = dma_.size / 64;
        while (lo < hi) {
            size_t mid = (lo + hi + 1) / 2;
            void *cpu = nullptr;
            uint64_t bus = 0;
            if (weft_mem_alloc(w_, 64 * mid, &cpu, &bus) == 0) {
                weft_mem_free(w_, cpu);
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return 64 * lo;
    }

    weft_softcore_image_t prog_{};

  private:
    static void Console(void *arg, const char *bytes, size_t n)
    {
        auto *self = static_cast<Softcore *>(arg);
        std::lock_guard<std::mutex> g(self->out_lock_);
        self->console_.append(bytes, n);
    }
    std::mutex out_lock_;
    std::string console_;
};

TEST_F(Softcore, AProgramPrintsItsArgumentsAndEndsWithItsExitCode)
{
    Load("slot_hello");
    weft_hwthread_t *t = Run({}, {}, {0x12, 0x30, 0xabc, 0xdef});
    ASSERT_NE(t, nullptr);
    weft_exit_status_t st = Join(t);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 0x42u);
    EXPECT_NE(Out().find("hello from the softcore in a slot: 8 contexts, args 12 30 abc def\n"),
              std::string::npos)
        << Out();
}

// The workers of slot_calls against host objects: jobs from a POSIX message queue,
// results and a counter through the MEMIF, a host mutex and semaphore, mailboxes.
class SoftcoreCalls : public Softcore, public ::testing::WithParamInterface<const char *>
{
};

TEST_P(SoftcoreCalls, ThreadsShareTheHostsObjectsAndMemoryThroughOneSlot)
{
    constexpr uint32_t kIds = 40, kWorkers = 5;
    Load(GetParam());
    sem_t done;
    ASSERT_EQ(sem_init(&done, 0, 0), 0);
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
    mqd_t jobs = OpenQueue(8, 12);
    weft_mbox_t out, in;
    ASSERT_EQ(weft_mbox_init(&out, 16), 0);
    ASSERT_EQ(weft_mbox_init(&in, 16), 0);
    uint64_t bus = 0;
    uint32_t *results = Alloc(4 * (kIds + 2), &bus); // a word a job, the counter, the flag

    weft_hwthread_t *t =
        Run({{WEFT_RES_SEM, &done},
             {WEFT_RES_MUTEX, &lock},
             {WEFT_RES_MQ, &jobs},
             {WEFT_RES_MBOX, &out},
             {WEFT_RES_MBOX, &in},
             {WEFT_RES_COND, &cond}},
            {{bus, 4 * (kIds + 2), WEFT_MEM_RW}}, {static_cast<uint32_t>(bus), kIds});
    ASSERT_NE(t, nullptr);
    // Before the kernel runs: a word echoed, plus one.
    ASSERT_EQ(weft_mbox_put(&in, 41), 0);
    uint32_t echo = 0;
    ASSERT_EQ(weft_mbox_timedget(&out, &echo, 60000), 0) << Out();
    EXPECT_EQ(echo, 42u);

    // The jobs, while a host thread also takes the mutex now and then.
    for (uint32_t id = 0; id < kIds; id++) {
        uint32_t job[3] = {id, 27 + 3 * id, 0};
        ASSERT_EQ(mq_send(jobs, reinterpret_cast<const char *>(job), sizeof job, 0), 0);
        if (id % 8 == 0) {
            pthread_mutex_lock(&lock);
            pthread_mutex_unlock(&lock);
        }
    }
    for (uint32_t id = 0; id < kIds; id++) {
        timespec until{};
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 60;
        ASSERT_EQ(sem_timedwait(&done, &until), 0) << "job " << id << "\n" << Out();
    }
    for (uint32_t i = 0; i < kWorkers; i++) {
        uint32_t stop[3] = {0, 0, 0};
        ASSERT_EQ(mq_send(jobs, reinterpret_cast<const char *>(stop), sizeof stop, 0), 0);
    }
    uint32_t total = 0, seen = 0;
    for (uint32_t i = 0; i < kWorkers; i++) {
        uint32_t v = 0;
        ASSERT_EQ(weft_mbox_timedget(&out, &v, 60000), 0) << Out();
        total += v & 0xffffu;
        seen |= 1u << (v >> 16);
    }
    // The controller waits on the condition, under the mutex, for the flag.
    pthread_mutex_lock(&lock);
    results[kIds + 1] = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    weft_exit_status_t st = Join(t);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 0u) << "first failed check, " << Out();
    EXPECT_EQ(total, kIds);
    EXPECT_EQ(seen, (1u << kWorkers) - 1);
    for (uint32_t id = 0; id < kIds; id++) {
        uint32_t n = 27 + 3 * id, steps = 0;
        while (n > 1) {
            n = (n & 1) ? 3 * n + 1 : n / 2;
            steps++;
        }
        EXPECT_EQ(results[id], steps) << "job " << id;
    }
    EXPECT_EQ(results[kIds], kIds) << "the counter: an update lost under the host's mutex";
    EXPECT_NE(Out().find("40 jobs counted, flag 1, first failed check 0"), std::string::npos)
        << Out();
    mq_close(jobs);
    pthread_cond_destroy(&cond);
    sem_destroy(&done);
    weft_mbox_destroy(&out);
    weft_mbox_destroy(&in);
}

INSTANTIATE_TEST_SUITE_P(Ports, SoftcoreCalls,
                         ::testing::Values("slot_calls_sw", "slot_calls_hw",
                                           "slot_calls_hw_shared"),
                         [](const ::testing::TestParamInfo<const char *> &i) {
                             return std::string(i.param + 11); // sw, hw, hw_shared
                         });

TEST_F(Softcore, ASoftcoreThreadPostsASemaphoreAPthreadAndAHardwareThreadWaitOn)
{
    Load("slot_post");
    sem_t posted, go;
    ASSERT_EQ(sem_init(&posted, 0, 0), 0);
    ASSERT_EQ(sem_init(&go, 0, 0), 0);
    // hwt_calls in slot 1 waits on the semaphore (handle 2 of its array).
    ASSERT_NE(StartCalls(1, {{WEFT_RES_SEM, &posted}}), nullptr);
    Issue(1, WEFT_OSIF_CMD_SEM_WAIT, 2);
    // So does a pthread.
    std::atomic<bool> woke{false};
    std::thread waiter([&] {
        timespec until{};
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 60;
        woke = sem_timedwait(&posted, &until) == 0;
    });
    weft_hwthread_t *t = Run({{WEFT_RES_SEM, &posted}, {WEFT_RES_SEM, &go}}, {}, {2});
    ASSERT_NE(t, nullptr);
    // Both wait before the softcore posts: the pthread has had its moment, and the
    // hardware thread's call is in its delegate (nothing came back).
    usleep(100000);
    EXPECT_FALSE(Collect(1, 0).arrived);
    ASSERT_EQ(sem_post(&go), 0);
    CallResult r = Collect(1);
    ASSERT_TRUE(r.arrived);
    EXPECT_EQ(r.status, static_cast<uint32_t>(WEFT_OSIF_OK));
    waiter.join();
    EXPECT_TRUE(woke);
    weft_exit_status_t st = Join(t);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 0u);
    int left = -1;
    sem_getvalue(&posted, &left);
    EXPECT_EQ(left, 0);
    sem_destroy(&posted);
    sem_destroy(&go);
}

TEST_F(Softcore, ADmaOutsideItsWindowsFaultsTheThreadAndWritesNothing)
{
    Load("slot_misuse");
    uint64_t bus = 0;
    uint32_t *other = Alloc(64, &bus);
    weft_hwthread_t *t = Run({}, {}, {1, static_cast<uint32_t>(bus)});
    ASSERT_NE(t, nullptr);
    weft_exit_status_t st = Join(t);
    EXPECT_EQ(st.kind, WEFT_EXIT_FAULTED) << st.message;
    EXPECT_EQ(st.mem_faulted, 1);
    EXPECT_EQ(st.mem_fault.addr, static_cast<uint32_t>(bus));
    EXPECT_EQ(st.mem_fault.write, 0);
    EXPECT_EQ(other[0], 0u);
}

TEST_F(Softcore, ALoadNoDeviceAnswersEndsTheProgramWithTheFaultReport)
{
    Load("slot_misuse");
    weft_exit_status_t st = Join(Run({}, {}, {2}));
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 128u + 5u); // a load access fault
    EXPECT_NE(Out().find("fault: mcause 5 "), std::string::npos) << Out();
    EXPECT_NE(Out().find("mtval 80003000"), std::string::npos) << Out();
}

TEST_F(Softcore, TheBridgeRefusesWhatWouldBreakTheOsifsFraming)
{
    Load("slot_misuse");
    weft_exit_status_t st = Join(Run({}, {}, {3}));
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 0u) << "the check that failed";
}

TEST_F(Softcore, AStoreToTheRequestBufferDuringACallIsAnAccessFault)
{
    Load("slot_misuse");
    sem_t never;
    ASSERT_EQ(sem_init(&never, 0, 0), 0);
    weft_hwthread_t *t = Run({{WEFT_RES_SEM, &never}}, {}, {6});
    ASSERT_NE(t, nullptr);
    weft_exit_status_t st{};
    // The program's end waits for its call in progress: the post answers it.
    EXPECT_EQ(weft_hwthread_timedjoin(t, &st, 500), -ETIMEDOUT);
    sem_post(&never);
    st = Join(t);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 128u + 7u) << Out(); // a store access fault
    sem_destroy(&never);
}

TEST_F(Softcore, EveryConsoleByteReachesTheHostBeforeTheEnd)
{
    Load("slot_misuse");
    weft_exit_status_t st = Join(Run({}, {}, {4}));
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 7u);
    std::string want;
    for (int i = 0; i < 3000; i++)
        want += static_cast<char>('a' + i % 26);
    EXPECT_EQ(Out(), want);
}

TEST_F(Softcore, WithoutAConsoleTheProgramEndsAndItsOutputIsDropped)
{
    Load("slot_misuse");
    weft_exit_status_t st = Join(Run({}, {}, {4}, false));
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 7u);
    EXPECT_EQ(Out(), "");
}

// A softcore whose only thread waits on a host semaphore, before the kernel runs (case
// 5: the call waits on the spot) and after (case 7: the kernel's idle loop): its slot is
// paused, so the fabric rests, and a STOP ends the wait.
class SoftcoreRest : public Softcore, public ::testing::WithParamInterface<uint32_t>
{
};

TEST_P(SoftcoreRest, ASoftcoreThatWaitsOnTheHostLetsTheFabricRest)
{
    Load("slot_misuse");
    sem_t never;
    ASSERT_EQ(sem_init(&never, 0, 0), 0);
    weft_hwthread_t *t = Run({{WEFT_RES_SEM, &never}}, {}, {GetParam()});
    ASSERT_NE(t, nullptr);
    weft_hwthread_stats_t s0{}, s1{};
    usleep(300000);
    ASSERT_EQ(weft_hwthread_stats(t, &s0), 0);
    usleep(300000);
    ASSERT_EQ(weft_hwthread_stats(t, &s1), 0);
    EXPECT_LT(s1.busy_cycles - s0.busy_cycles, 20000u)
        << "a waiting softcore kept its slot busy for " << (s1.busy_cycles - s0.busy_cycles)
        << " cycles in 300 ms";
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), 0);
    weft_exit_status_t st = Join(t);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, static_cast<uint32_t>(WEFT_OSIF_CANCELED));
    sem_destroy(&never);
}

INSTANTIATE_TEST_SUITE_P(BeforeAndAfterTheKernel, SoftcoreRest, ::testing::Values(5u, 7u));

TEST_F(Softcore, AHalfwordStoreToADeviceIsAnAccessFault)
{
    Load("slot_misuse");
    weft_exit_status_t st = Join(Run({}, {}, {8}));
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(st.value, 128u + 7u) << Out();
}

// Images written by hand, as a buggy or hostile host could: the softcore refuses each
// with its reason and loads nothing.
TEST_F(Softcore, TheSoftcoreRefusesABadImageHeaderWithItsReason)
{
    struct Case {
        const char *what;
        uint32_t word, value, err;
    } cases[] = {
        {"magic", 0, 0x12345678, WEFT_RV_BOOT_ERR_MAGIC},
        {"version", 1, 2, WEFT_RV_BOOT_ERR_VERSION},
        {"size 0", 2, 0, WEFT_RV_BOOT_ERR_SIZE},
        {"size not words", 2, 6, WEFT_RV_BOOT_ERR_SIZE},
        {"size past the RAM", 2, WEFT_RV_RAM_BYTES + 4, WEFT_RV_BOOT_ERR_SIZE},
        {"reserved", 3, 1, WEFT_RV_BOOT_ERR_RESERVED},
    };
    uint64_t bus = 0;
    uint32_t *img = Alloc(64, &bus);
    std::string image = Image("hwt_softcore");
    weft_mem_window_t win = {bus, 64, WEFT_MEM_READ};
    // The softcore started with init data `at` ends with this value.
    auto exit_value = [&](const char *what, uint32_t at) {
        weft_hwthread_attr_t a{};
        a.name = what;
        a.image = image.c_str();
        a.init_data = at;
        a.windows = &win;
        a.num_windows = 1;
        weft_hwthread_t *t = nullptr;
        EXPECT_EQ(weft_hwthread_create(w_, &t, &a), 0) << what;
        if (!t)
            return 0u;
        weft_exit_status_t st = Join(t);
        EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL) << what << ": " << st.message;
        weft_hwthread_destroy(t);
        return st.value;
    };
    for (const Case &c : cases) {
        uint32_t good[8] = {WEFT_RV_BOOT_MAGIC, WEFT_RV_BOOT_VERSION, 16, 0, 0, 0, 0, 0};
        std::memcpy(img, good, sizeof good);
        img[c.word] = c.value;
        EXPECT_EQ(exit_value(c.what, static_cast<uint32_t>(bus)), WEFT_RV_EXIT_BOOT | c.err)
            << c.what;
    }
    EXPECT_EQ(exit_value("unaligned init data", static_cast<uint32_t>(bus) + 2),
              WEFT_RV_EXIT_BOOT | WEFT_RV_BOOT_ERR_INIT);
}

TEST_F(Softcore, CreateRefusesWhatItCannotRun)
{
    Load("slot_hello");
    std::string image = Image("hwt_softcore");
    weft_softcore_attr_t a{};
    a.thread.image = image.c_str();
    a.program = &prog_;
    weft_hwthread_t *t = nullptr;
    size_t free_before = Largest();
    EXPECT_EQ(weft_softcore_create(nullptr, &t, &a), -EINVAL);
    EXPECT_EQ(weft_softcore_create(w_, nullptr, &a), -EINVAL);
    EXPECT_EQ(weft_softcore_create(w_, &t, nullptr), -EINVAL);
    weft_softcore_attr_t b = a;
    b.program = nullptr;
    EXPECT_EQ(weft_softcore_create(w_, &t, &b), -EINVAL) << "no program";
    b = a;
    b.thread.init_data = 1;
    EXPECT_EQ(weft_softcore_create(w_, &t, &b), -EINVAL) << "init data set";
    b = a;
    b.thread.accelerator = 1;
    EXPECT_EQ(weft_softcore_create(w_, &t, &b), -EINVAL) << "an accelerator";
    weft_mem_window_t wins[WEFT_MAX_WINDOWS] = {};
    b = a;
    b.thread.windows = wins;
    b.thread.num_windows = WEFT_MAX_WINDOWS;
    EXPECT_EQ(weft_softcore_create(w_, &t, &b), -EINVAL) << "no window left for the image";
    weft_softcore_image_t big = prog_;
    big.size = WEFT_RV_RAM_BYTES + 4;
    b = a;
    b.program = &big;
    EXPECT_EQ(weft_softcore_create(w_, &t, &b), -EINVAL) << "larger than the RAM";
    b = a;
    b.thread.slot = 99;
    EXPECT_EQ(weft_softcore_create(w_, &t, &b), -EINVAL) << "no such slot";
    // Refused after the image went to shared memory: it is given back.
    EXPECT_EQ(Largest(), free_before) << "a refusal kept shared memory";
    ASSERT_NE(StartCalls(0, {}), nullptr);
    free_before = Largest();
    EXPECT_EQ(weft_softcore_create(w_, &t, &a), -EBUSY) << "a slot in use";
    EXPECT_EQ(Largest(), free_before) << "a refusal kept shared memory";
}

} // namespace

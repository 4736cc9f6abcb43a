// The reconfiguration manager on the simulated fabric (docs/reconfiguration.md): real
// bitstream files through the reconfiguration port, real task images. The scheduling
// rules themselves are tested without a fabric in tests/unit/reconf_sched_test.cpp; here
// the request API end to end: results, reuse, timeout, cancel, the fd, damaged files.
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "e2e_fixture.h"

extern "C" {
#include "hls_job.h"
#include "hls_reference.h"
#include "task_reference.h"
#include "weft/bitstream.h"
#include "weft/platform_config.h"
#include "weft/reconf.h"
}

namespace
{

const weft_reconf_partition_t kPartitions[] = WEFT_PLATFORM_PARTITION_LIST;
const weft_platform_task_t kTasks[] = WEFT_PLATFORM_TASK_LIST;
constexpr unsigned kNumTasks = sizeof kTasks / sizeof kTasks[0];

// The index of the platform's task called name.
unsigned TaskIndex(const char *name)
{
    for (unsigned i = 0; i < kNumTasks; i++)
        if (std::string(kTasks[i].name) == name)
            return i;
    ADD_FAILURE() << "the default platform has no task " << name;
    return 0;
}

std::string Bitstream(const char *image)
{
    return std::string(WEFT_BITSTREAM_DIR "/") + image + ".wbit";
}

std::vector<char> ReadFile(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

class Reconf : public Fabric
{
  protected:
    void TearDown() override
    {
        if (mgr_)
            weft_reconf_close(mgr_);
        for (const std::string &p : temp_files_)
            unlink(p.c_str());
        Fabric::TearDown();
    }

    // Open a manager over the platform's partitions and tasks; timeout_us applies to every
    // task, bitstream (if set) replaces the file of task `replaced`.
    int Open(uint64_t timeout_us = 0, const std::string &bitstream = "", unsigned replaced = 0)
    {
        paths_.clear();
        for (unsigned i = 0; i < kNumTasks; i++)
            paths_.push_back(i == replaced && !bitstream.empty() ? bitstream
                                                                 : Bitstream(kTasks[i].image));
        tasks_.clear();
        for (unsigned i = 0; i < kNumTasks; i++)
            tasks_.push_back({kTasks[i].name, paths_[i].c_str(), kTasks[i].partition, timeout_us,
                              kTasks[i].accelerator});
        weft_reconf_config_t cfg{kPartitions, sizeof kPartitions / sizeof kPartitions[0],
                                 tasks_.data(), kNumTasks};
        return weft_reconf_open(w_, &cfg, &mgr_);
    }

    // A copy of task's bitstream, changed by edit.
    template <typename Edit> std::string Damaged(const char *image, Edit edit)
    {
        std::vector<char> bytes = ReadFile(Bitstream(image));
        EXPECT_GT(bytes.size(), 4096u);
        edit(bytes);
        char name[] = "/tmp/weft-reconf-test-XXXXXX";
        int fd = mkstemp(name);
        EXPECT_GE(fd, 0);
        EXPECT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
        close(fd);
        temp_files_.push_back(name);
        return name;
    }

    weft_reconf_req_t *Submit(unsigned task, uint32_t n)
    {
        weft_reconf_args_t args{};
        args.init_data = n;
        weft_reconf_req_t *q = nullptr;
        EXPECT_EQ(weft_reconf_submit(mgr_, task, &args, &q), 0);
        return q;
    }

    // Submit, wait, release; the result.
    weft_reconf_result_t Run(unsigned task, uint32_t n)
    {
        weft_reconf_result_t res{};
        weft_reconf_req_t *q = Submit(task, n);
        EXPECT_EQ(weft_reconf_wait(q, 60000, &res), 0);
        weft_reconf_release(q);
        return res;
    }

    weft_reconf_t *mgr_ = nullptr;
    std::vector<std::string> paths_, temp_files_;
    std::vector<weft_reconf_task_t> tasks_;
};

// A task that counts to n computes for about n cycles: this one would take 40 s of fabric.
constexpr uint32_t kForever = 4000000000u;

TEST_F(Reconf, ATaskIsProgrammedOnceThenReusedAndItsResultsMatchTheReference)
{
    ASSERT_EQ(Open(), 0);
    const unsigned fib = TaskIndex("fib");
    const int op = task_kernel_of(kTasks[fib].image);
    ASSERT_GE(op, 0);

    weft_reconf_result_t first = Run(fib, 1000);
    EXPECT_EQ(first.status, 0) << first.message;
    EXPECT_EQ(first.exit_value, task_reference(op, 1000));
    EXPECT_EQ(first.reconfigured, 1);
    EXPECT_GT(first.reconf_cycles, 0u);
    EXPECT_NE(kPartitions[kTasks[fib].partition].slots & (1ull << first.slot), 0u);

    weft_reconf_result_t again = Run(fib, 77);
    EXPECT_EQ(again.status, 0) << again.message;
    EXPECT_EQ(again.exit_value, task_reference(op, 77));
    EXPECT_EQ(again.reconfigured, 0);
    EXPECT_EQ(again.slot, first.slot);
    EXPECT_EQ(again.reconf_cycles, 0u);

    weft_reconf_stats_t st{};
    weft_reconf_stats(mgr_, &st);
    EXPECT_EQ(st.requests, 2u);
    EXPECT_EQ(st.reconfigured, 1u);
    EXPECT_EQ(st.reused, 1u);
}

TEST_F(Reconf, ATaskPastItsTimeoutIsStoppedAndItsSlotServesTheNextRequest)
{
    ASSERT_EQ(Open(/*timeout_us=*/200), 0); // 20,000 fabric cycles
    // popsum runs n steps; collatz of any n ends soon.
    const unsigned slow = TaskIndex("popsum");
    const unsigned task = TaskIndex("collatz");
    ASSERT_EQ(kTasks[task].partition, kTasks[slow].partition);

    weft_reconf_result_t stopped = Run(slow, kForever);
    EXPECT_EQ(stopped.status, -ETIMEDOUT) << stopped.message;
    EXPECT_GE(stopped.exec_cycles, 20000u);
    EXPECT_LT(stopped.exec_cycles, uint64_t{kForever}); // stopped long before its end

    // The stopped task's slot still holds it and runs it again, to its end.
    weft_reconf_result_t again = Run(slow, 50);
    EXPECT_EQ(again.status, 0) << again.message;
    EXPECT_EQ(again.slot, stopped.slot);
    EXPECT_EQ(again.reconfigured, 0);
    EXPECT_EQ(again.exit_value, task_reference(task_kernel_of(kTasks[slow].image), 50));
    // And the partition's other tasks run too.
    weft_reconf_result_t res = Run(task, 27);
    EXPECT_EQ(res.status, 0) << res.message;
    EXPECT_EQ(res.exit_value, task_reference(task_kernel_of(kTasks[task].image), 27));
}

TEST_F(Reconf, TheFdTurnsReadableWhenTheRequestEnds)
{
    ASSERT_EQ(Open(), 0);
    weft_reconf_req_t *q = Submit(TaskIndex("sumsq"), 300);
    struct pollfd pfd = {weft_reconf_fd(q), POLLIN, 0};
    ASSERT_GE(pfd.fd, 0);
    int n = 0;
    do
        n = poll(&pfd, 1, 60000);
    while (n < 0 && errno == EINTR);
    ASSERT_EQ(n, 1);
    EXPECT_TRUE(pfd.revents & POLLIN);
    weft_reconf_result_t res{};
    EXPECT_EQ(weft_reconf_wait(q, 0, &res), 0); // readable: over, no waiting
    EXPECT_EQ(res.status, 0) << res.message;
    weft_reconf_release(q);
}

TEST_F(Reconf, AWaitingRequestIsCancelledAndARunningOneIsNot)
{
    ASSERT_EQ(Open(/*timeout_us=*/2000), 0);
    const unsigned slow = TaskIndex("popsum");
    // Two forever tasks fill the small partition; the third request waits in its queue.
    weft_reconf_req_t *a = Submit(slow, kForever);
    weft_reconf_req_t *b = Submit(slow, kForever);
    weft_reconf_req_t *c = Submit(slow, 10);
    EXPECT_EQ(weft_reconf_cancel(c), 0);
    weft_reconf_result_t res{};
    EXPECT_EQ(weft_reconf_wait(c, 0, &res), 0);
    EXPECT_EQ(res.status, -ECANCELED);
    EXPECT_EQ(weft_reconf_cancel(c), -EALREADY);
    weft_reconf_release(c);

    // a got its slot at submit (it is programmed or runs): it cannot be taken back.
    EXPECT_EQ(weft_reconf_cancel(a), -EBUSY);
    for (weft_reconf_req_t *q : {a, b}) {
        ASSERT_EQ(weft_reconf_wait(q, 60000, &res), 0);
        EXPECT_EQ(res.status, -ETIMEDOUT) << res.message;
        weft_reconf_release(q);
    }
    weft_reconf_stats_t st{};
    weft_reconf_stats(mgr_, &st);
    EXPECT_GE(st.cancelled, 1u);
}

TEST_F(Reconf, DamagedTruncatedOrMisplacedBitstreamsAreRefusedAtOpen)
{
    const unsigned fib = TaskIndex("fib");
    const char *image = kTasks[fib].image;
    const std::string flipped =
        Damaged(image, [](std::vector<char> &b) { b[b.size() / 2] ^= 0x10; });
    const std::string truncated =
        Damaged(image, [](std::vector<char> &b) { b.resize(b.size() - 100); });
    const std::string bad_magic = Damaged(image, [](std::vector<char> &b) { b[0] ^= 0xFF; });
    for (const std::string &path : {flipped, truncated, bad_magic}) {
        EXPECT_EQ(Open(0, path, fib), -EINVAL) << path;
        EXPECT_EQ(mgr_, nullptr);
    }
    // A bitstream of the other partition, named as a task of this one.
    const unsigned collatz = TaskIndex("collatz");
    ASSERT_NE(kTasks[collatz].partition, kTasks[fib].partition);
    EXPECT_EQ(Open(0, Bitstream(kTasks[collatz].image), fib), -EINVAL);
    EXPECT_EQ(mgr_, nullptr);
    // The runtime is untouched: the real files still work.
    ASSERT_EQ(Open(), 0);
    weft_reconf_result_t res = Run(fib, 10);
    EXPECT_EQ(res.status, 0) << res.message;
}

TEST_F(Reconf, MoreTasksThanSlotsAllRunWithTheirPartitionsSlots)
{
    ASSERT_EQ(Open(), 0);
    std::vector<weft_reconf_req_t *> reqs;
    std::vector<std::pair<unsigned, uint32_t>> asked;
    uint64_t longest_wait = 0, shortest_programming = UINT64_MAX;
    for (unsigned round = 0; round < 2; round++)
        for (unsigned t = 0; t < kNumTasks; t++) {
            if (kTasks[t].accelerator)
                continue; // they want buffers: the accelerator test below
            const uint32_t n = 100 + 13 * t + round;
            reqs.push_back(Submit(t, n));
            asked.emplace_back(t, n);
        }
    for (size_t i = 0; i < reqs.size(); i++) {
        weft_reconf_result_t res{};
        ASSERT_EQ(weft_reconf_wait(reqs[i], 60000, &res), 0);
        const auto [t, n] = asked[i];
        EXPECT_EQ(res.status, 0) << kTasks[t].name << ": " << res.message;
        EXPECT_EQ(res.exit_value, task_reference(task_kernel_of(kTasks[t].image), n))
            << kTasks[t].name;
        EXPECT_NE(kPartitions[kTasks[t].partition].slots & (1ull << res.slot), 0u)
            << kTasks[t].name << " ran in slot " << res.slot;
        longest_wait = std::max(longest_wait, res.wait_cycles);
        if (res.reconfigured)
            shortest_programming = std::min(shortest_programming, res.reconf_cycles);
        weft_reconf_release(reqs[i]);
    }
    weft_reconf_stats_t st{};
    weft_reconf_stats(mgr_, &st);
    EXPECT_EQ(st.requests, reqs.size());
    EXPECT_EQ(st.reused + st.reconfigured, reqs.size());
    EXPECT_GE(st.reconfigured, reqs.size() / 2);
    // The big partition has more tasks than slots: its third task waited, in fabric time,
    // for at least one programming of a slot before it.
    EXPECT_GE(longest_wait, shortest_programming);
}

// An HLS-style accelerator as a hardware task (docs/hls.md): its arguments and its buffer
// come with each request; the second request finds it in its slot.
TEST_F(Reconf, AnAcceleratorTaskRunsWithItsArgumentsAndMatchesTheReference)
{
    ASSERT_EQ(Open(), 0);
    void *cpu = nullptr;
    uint64_t bus = 0;
    ASSERT_EQ(weft_mem_alloc(w_, HLS_JOB_BYTES, &cpu, &bus), 0);
    const weft_mem_window_t win{bus, HLS_JOB_BYTES, WEFT_MEM_RW};
    unsigned ran = 0;
    for (unsigned t = 0; t < kNumTasks; t++) {
        if (!kTasks[t].accelerator)
            continue;
        const int kernel = hls_kernel_of(kTasks[t].image);
        ASSERT_GE(kernel, 0) << kTasks[t].image;
        for (int round = 0; round < 2; round++) {
            hls_job_t job;
            hls_job_prepare(&job, kernel, static_cast<uint32_t *>(cpu), bus,
                            kernel == 2 ? 7u + round : 300u + round, 77u * t + round);
            weft_reconf_args_t a{};
            a.windows = &win;
            a.num_windows = 1;
            a.acc_args = job.args;
            a.num_acc_args = job.num_args;
            weft_reconf_req_t *q = nullptr;
            ASSERT_EQ(weft_reconf_submit(mgr_, t, &a, &q), 0);
            weft_reconf_result_t res{};
            ASSERT_EQ(weft_reconf_wait(q, 60000, &res), 0);
            weft_reconf_release(q);
            EXPECT_EQ(res.status, 0) << kTasks[t].name << ": " << res.message;
            EXPECT_EQ(res.reconfigured, round == 0 ? 1 : 0) << kTasks[t].name;
            EXPECT_TRUE(hls_job_check(&job)) << kTasks[t].name << " round " << round;
            ran++;
        }
    }
    EXPECT_GE(ran, 6u) << "the default platform has three accelerator tasks";
    EXPECT_EQ(weft_mem_free(w_, cpu), 0);
}

// One bitstream a slot, as a board needs (real bitstreams do not relocate): the path
// has a %u for the slot, and each file must be for its own slot.
TEST_F(Reconf, OneBitstreamASlotIsReadForEachSlotAndMustBeForIt)
{
    const unsigned fib = TaskIndex("fib");
    const weft_reconf_partition_t &part = kPartitions[kTasks[fib].partition];
    char dir[] = "/tmp/weft-reconf-slots-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string pattern = std::string(dir) + "/fib-slot%u.wbit";
    auto write_for = [&](unsigned file_slot, unsigned mask_slot) {
        weft_bitstream_info_t info{};
        info.payload_size = 2048;
        info.slot_mask = 1u << mask_slot;
        std::strcpy(info.partition, part.name);
        std::snprintf(info.image, sizeof info.image, "%s.so", kTasks[fib].image);
        ASSERT_EQ(weft_bitstream_file_sha256((std::string(WEFT_IMAGE_DIR "/") + info.image).c_str(),
                                             info.image_sha256),
                  0);
        std::vector<char> file(WEFT_BITSTREAM_HEADER_BYTES + info.payload_size);
        ASSERT_EQ(weft_bitstream_build(&info, file.data()), 0);
        char path[512];
        std::snprintf(path, sizeof path, pattern.c_str(), file_slot);
        std::ofstream(path, std::ios::binary).write(file.data(), file.size());
        temp_files_.push_back(path);
    };
    for (unsigned s = 0; s < 64; s++)
        if (part.slots >> s & 1u)
            write_for(s, s);
    weft_reconf_task_t task{kTasks[fib].name, pattern.c_str(), kTasks[fib].partition, 0, 0};
    weft_reconf_config_t cfg{kPartitions, sizeof kPartitions / sizeof kPartitions[0], &task, 1};
    ASSERT_EQ(weft_reconf_open(w_, &cfg, &mgr_), 0);
    // Two at once take both slots, each programmed from its own file.
    weft_reconf_req_t *a = Submit(0, 20000), *b = Submit(0, 20001);
    weft_reconf_result_t ra{}, rb{};
    ASSERT_EQ(weft_reconf_wait(a, 60000, &ra), 0);
    ASSERT_EQ(weft_reconf_wait(b, 60000, &rb), 0);
    weft_reconf_release(a);
    weft_reconf_release(b);
    EXPECT_EQ(ra.status, 0) << ra.message;
    EXPECT_EQ(rb.status, 0) << rb.message;
    EXPECT_NE(ra.slot, rb.slot);
    const int op = task_kernel_of(kTasks[fib].image);
    EXPECT_EQ(ra.exit_value, task_reference(op, 20000));
    EXPECT_EQ(rb.exit_value, task_reference(op, 20001));
    weft_reconf_close(mgr_);
    mgr_ = nullptr;
    // The file at the first slot's path built for another slot is refused.
    const unsigned first = static_cast<unsigned>(__builtin_ctzll(part.slots));
    const unsigned other = static_cast<unsigned>(__builtin_ctzll(part.slots & ~(1ull << first)));
    write_for(first, other);
    EXPECT_EQ(weft_reconf_open(w_, &cfg, &mgr_), -EINVAL);
    EXPECT_EQ(mgr_, nullptr);
    task.bitstream = "/tmp/no-such-%s-%u"; // a conversion other than one %u
    EXPECT_EQ(weft_reconf_open(w_, &cfg, &mgr_), -EINVAL);
    const std::string missing = std::string(dir) + "/none-slot%u.wbit"; // no such files
    task.bitstream = missing.c_str();
    EXPECT_EQ(weft_reconf_open(w_, &cfg, &mgr_), -ENOENT);
    EXPECT_EQ(mgr_, nullptr);
    for (const std::string &f : temp_files_)
        unlink(f.c_str());
    temp_files_.clear();
    rmdir(dir);
}

} // namespace

// Waveforms on demand (docs/waves.md): recordings of a real thread read back with
// GTKWave's FST reader (fstapi, shipped with Verilator); the parser's own tests are in
// waves_parse_test.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gtkwave/fstapi.h"
#include "weft/sim.h"
#include "weft/weft.h"

namespace
{

constexpr uint64_t kCyclePs = 10000; // the default platform's 100 MHz

// What an FST file holds for some variables: (time, value) of every change.
// Scopes: the model's top is named after the thread, then comes the module's instance.
using Changes = std::map<std::string, std::vector<std::pair<uint64_t, std::string>>>;

Changes read_fst(const std::string &path, const std::vector<std::string> &names)
{
    void *ctx = fstReaderOpen(path.c_str());
    EXPECT_NE(ctx, nullptr) << path;
    if (!ctx)
        return {};
    std::map<fstHandle, std::string> wanted;
    std::vector<std::string> scope; // the path to where the hierarchy walk is
    while (fstHier *h = fstReaderIterateHier(ctx)) {
        if (h->htyp == FST_HT_SCOPE) {
            scope.push_back((scope.empty() ? "" : scope.back() + ".") + h->u.scope.name);
        } else if (h->htyp == FST_HT_UPSCOPE) {
            scope.pop_back();
        } else if (h->htyp == FST_HT_VAR && !scope.empty()) {
            std::string var = h->u.var.name;
            var = var.substr(0, var.find(' ')); // "acc_q [31:0]": the name, not the range
            for (const std::string &n : names)
                if (scope.back() + "." + var == n)
                    wanted[h->u.var.handle] = n;
        }
    }
    struct Ctx {
        std::map<fstHandle, std::string> *wanted;
        Changes out;
    } c{&wanted, {}};
    fstReaderSetFacProcessMaskAll(ctx);
    fstReaderIterBlocks(
        ctx,
        [](void *user, uint64_t time, fstHandle h, const unsigned char *value) {
            auto *cc = static_cast<Ctx *>(user);
            auto it = cc->wanted->find(h);
            if (it != cc->wanted->end())
                cc->out[it->second].emplace_back(time, reinterpret_cast<const char *>(value));
        },
        &c, nullptr);
    fstReaderClose(ctx);
    return c.out;
}

// Runs hwt_task_fib (F(n) of its init data) in slot 0 with WEFT_WAVES set as given, and
// with config_waves as weft_sim_config_t.waves.
int run_fib(const std::string &waves, unsigned n, uint32_t *value,
            const char *config_waves = nullptr)
{
    if (!waves.empty())
        setenv("WEFT_WAVES", waves.c_str(), 1);
    weft_platform_t *p = nullptr;
    weft_t *w = nullptr;
    weft_sim_config_t cfg = {};
    cfg.waves = config_waves;
    int rc = weft_sim_open(&p, &cfg);
    unsetenv("WEFT_WAVES");
    if (rc != 0)
        return rc;
    if ((rc = weft_init(&w, p)) == 0) {
        weft_hwthread_attr_t attr = {};
        attr.image = WEFT_TEST_IMAGE_DIR "/hwt_task_fib.so";
        attr.init_data = n;
        weft_hwthread_t *t = nullptr;
        weft_exit_status_t st = {};
        if ((rc = weft_hwthread_create(w, &t, &attr)) == 0) {
            rc = weft_hwthread_timedjoin(t, &st, 60000);
            *value = st.value;
            weft_hwthread_destroy(t);
        }
        weft_shutdown(w);
    }
    p->ops->close(p);
    return rc;
}

class Waves : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/weft-waves-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string dir_;
};

TEST_F(Waves, TheThreadsSignalsAreInTheFileWithTheirValues)
{
    const std::string file = dir_ + "/fib.fst";
    uint32_t value = 0;
    ASSERT_EQ(run_fib("slot=0 file=" + file, 30, &value), 0);
    ASSERT_EQ(value, 832040u);
    Changes c = read_fst(
        file, {"hwt_task.hwt_task.acc_q", "hwt_task.hwt_task.rst_ni", "hwt_task.hwt_task.n_q"});
    ASSERT_FALSE(c["hwt_task.hwt_task.acc_q"].empty());
    // The accumulator ends at F(30), the argument the thread read is 30, and the reset
    // was let go: values the thread's RTL computed, as the file has them.
    EXPECT_EQ(std::stoull(c["hwt_task.hwt_task.acc_q"].back().second, nullptr, 2), 832040u);
    EXPECT_EQ(std::stoull(c["hwt_task.hwt_task.n_q"].back().second, nullptr, 2), 30u);
    EXPECT_EQ(c["hwt_task.hwt_task.rst_ni"].back().second, "1");
    // Times are fabric cycles in picoseconds: whole cycles.
    for (const auto &[t, v] : c["hwt_task.hwt_task.acc_q"])
        EXPECT_EQ(t % kCyclePs, 0u) << t;
}

TEST_F(Waves, OnlyTheWindowIsRecorded)
{
    // A whole recording says in which fabric cycle the thread starts; the window is set
    // 100 cycles after that, while it counts (it runs about 5000 cycles).
    uint32_t value = 0;
    ASSERT_EQ(run_fib("slot=0 file=" + dir_ + "/all.fst", 5000, &value), 0);
    Changes all = read_fst(dir_ + "/all.fst", {"hwt_task.hwt_task.i_q"});
    ASSERT_FALSE(all["hwt_task.hwt_task.i_q"].empty());
    const uint64_t from = all["hwt_task.hwt_task.i_q"].front().first / kCyclePs + 100;
    const uint64_t to = from + 20;

    const std::string file = dir_ + "/window.fst";
    ASSERT_EQ(run_fib("slot=0 from=" + std::to_string(from) + " to=" + std::to_string(to) +
                          " file=" + file,
                      5000, &value),
              0);
    Changes c = read_fst(file, {"hwt_task.hwt_task.i_q"});
    ASSERT_FALSE(c["hwt_task.hwt_task.i_q"].empty());
    for (const auto &[t, v] : c["hwt_task.hwt_task.i_q"]) {
        EXPECT_GE(t, from * kCyclePs);
        EXPECT_LE(t, to * kCyclePs);
    }
    // One step a cycle: i counts up by one each recorded cycle after the first.
    const auto &i = c["hwt_task.hwt_task.i_q"];
    for (size_t k = 2; k < i.size(); ++k)
        EXPECT_EQ(std::stoull(i[k].second, nullptr, 2),
                  std::stoull(i[k - 1].second, nullptr, 2) + 1);
}

TEST_F(Waves, OffByDefaultAndOtherSlotsUntouched)
{
    uint32_t value = 0;
    ASSERT_EQ(chdir(dir_.c_str()), 0);
    ASSERT_EQ(run_fib("", 10, &value), 0);
    ASSERT_EQ(run_fib("slot=1", 10, &value), 0); // the thread runs in slot 0
    EXPECT_TRUE(std::filesystem::is_empty(dir_));
}

TEST_F(Waves, AProgramAsksThroughItsConfigAndTheEnvironmentOverrides)
{
    uint32_t value = 0;
    const std::string cfg = "slot=0 file=" + dir_ + "/cfg.fst";
    ASSERT_EQ(run_fib("", 20, &value, cfg.c_str()), 0);
    Changes c = read_fst(dir_ + "/cfg.fst", {"hwt_task.hwt_task.acc_q"});
    ASSERT_FALSE(c["hwt_task.hwt_task.acc_q"].empty());
    EXPECT_EQ(std::stoull(c["hwt_task.hwt_task.acc_q"].back().second, nullptr, 2), 6765u);
    std::filesystem::remove(dir_ + "/cfg.fst");
    ASSERT_EQ(run_fib("slot=0 file=" + dir_ + "/env.fst", 20, &value, cfg.c_str()), 0);
    EXPECT_TRUE(std::filesystem::exists(dir_ + "/env.fst"));
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/cfg.fst"));
}

TEST_F(Waves, ABadRequestFailsTheOpenAndSaysWhy)
{
    uint32_t value = 0;
    testing::internal::CaptureStderr();
    EXPECT_EQ(run_fib("slot=0 form=3", 10, &value), -EINVAL);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("unknown key \"form\""),
              std::string::npos);
}

TEST_F(Waves, AnUnwritableFileIsReportedAndTheThreadStillRuns)
{
    uint32_t value = 0;
    testing::internal::CaptureStderr();
    EXPECT_EQ(run_fib("slot=0 file=" + dir_ + "/no/such/dir/x.fst", 10, &value), 0);
    EXPECT_EQ(value, 55u);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("cannot write waveform"),
              std::string::npos);
}

} // namespace

// weftd's configuration file (server/config.c): what it accepts, and each refusal naming
// what was wrong.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

extern "C" {
#include "config.h"
}

namespace
{

class Config : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/weftd-config-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override
    {
        std::remove((dir_ + "/c.json").c_str());
        rmdir(dir_.c_str());
    }

    // Load text as a configuration file: the return code, why in why_.
    int Load(const std::string &text)
    {
        std::ofstream(dir_ + "/c.json") << text;
        why_[0] = '\0';
        return weftd_config_load((dir_ + "/c.json").c_str(), &cfg_, why_, sizeof why_);
    }

    // A valid file with one part replaced by what the test gives.
    static std::string With(const std::string &parts, const std::string &tasks,
                            const std::string &extra = "")
    {
        return "{" + extra + "\"partitions\": " + parts + ", \"tasks\": " + tasks + "}";
    }

    std::string dir_;
    weftd_config_t cfg_{};
    char why_[512];
};

const std::string kParts = R"([{"name": "big", "slots": [0, 1]}, {"name": "small", "slots": [2]}])";
const std::string kTasks =
    R"([{"id": 3, "name": "fib", "partition": "small", "bitstream": "fib.wbit"},
        {"id": 9, "name": "vecsum", "partition": "big", "bitstream": "/abs/v.wbit",
         "kind": "accelerator", "timeout_us": 500}])";

TEST_F(Config, AValidFileReadsBack)
{
    ASSERT_EQ(Load(With(kParts, kTasks,
                        R"("socket": "/run/w.sock", "allow_users": [1000], "allow_groups": [27],
                           "limits": {"clients": 7, "requests": 2},)")),
              0)
        << why_;
    EXPECT_STREQ(cfg_.socket_path, "/run/w.sock");
    ASSERT_EQ(cfg_.num_partitions, 2u);
    EXPECT_EQ(cfg_.partition[0].slots, 3u);
    EXPECT_EQ(cfg_.partition[1].slots, 4u);
    ASSERT_EQ(cfg_.num_tasks, 2u);
    EXPECT_EQ(cfg_.task[0].id, 3u);
    EXPECT_EQ(cfg_.task[0].partition, 1u);
    EXPECT_EQ(std::string(cfg_.task[0].bitstream), dir_ + "/fib.wbit") << "relative to the file";
    EXPECT_EQ(cfg_.task[0].accelerator, 0);
    EXPECT_EQ(cfg_.task[0].timeout_us, 0u);
    EXPECT_STREQ(cfg_.task[1].bitstream, "/abs/v.wbit");
    EXPECT_EQ(cfg_.task[1].accelerator, 1);
    EXPECT_EQ(cfg_.task[1].timeout_us, 500u);
    EXPECT_EQ(cfg_.num_allow_uid, 1u);
    EXPECT_EQ(cfg_.allow_uid[0], 1000u);
    EXPECT_EQ(cfg_.allow_gid[0], 27u);
    EXPECT_EQ(cfg_.limits.clients, 7u);
    EXPECT_EQ(cfg_.limits.requests, 2u);
    EXPECT_EQ(cfg_.limits.buffers, 16u) << "the default";
}

TEST_F(Config, EachMistakeIsNamed)
{
    struct Case {
        std::string text;
        const char *names;
    };
    const Case cases[] = {
        {"{\"partitions\": [", "c.json:1:"},
        {With(kParts, kTasks, R"("colour": 1,)"), "colour"},
        {"{\"partitions\": [], \"tasks\": []}", "partitions: a list of 1 to"},
        {With(R"([{"name": "Big", "slots": [0]}])", kTasks), "name \"Big\""},
        {With(R"([{"name": "a", "slots": [0]}, {"name": "a", "slots": [1]}])", kTasks),
         "a second partition named a"},
        {With(R"([{"name": "a", "slots": [0]}, {"name": "b", "slots": [0]}])", kTasks),
         "slot 0 is in a partition already"},
        {With(R"([{"name": "a", "slots": [64]}])", kTasks), "slots[0] is not a slot number"},
        {With(R"([{"name": "a", "slots": []}])", kTasks), "slots must be a list"},
        {With(kParts, R"([{"id": 70000, "name": "x", "partition": "big", "bitstream": "x"}])"),
         "id 70000 is not 0-65535"},
        {With(kParts, R"([{"id": 1, "name": "x", "partition": "big", "bitstream": "x",
                           "buffers": [0]}])"),
         "buffers[0] is not a size"},
        {With(kParts, R"([{"id": 1, "name": "x", "partition": "huge", "bitstream": "x"}])"),
         "no partition named \"huge\""},
        {With(kParts, R"([{"id": 1, "name": "x", "partition": "big", "bitstream": "x"},
                          {"id": 1, "name": "y", "partition": "big", "bitstream": "y"}])"),
         "id 1 is x's already"},
        {With(kParts, R"([{"id": 1, "name": "x", "partition": "big", "bitstream": "x"},
                          {"id": 2, "name": "x", "partition": "big", "bitstream": "y"}])"),
         "a second task named x"},
        {With(kParts, R"([{"id": 1, "name": "x", "partition": "big", "bitstream": "x",
                           "kind": "gpu"}])"),
         "kind \"gpu\""},
        {With(kParts, R"([{"id": 1, "name": "x", "partition": "big", "bitstream": "x",
                           "timeout_us": -5}])"),
         "timeout_us is negative"},
        {With(kParts, R"([{"id": 1, "name": "x", "partition": "big"}])"), "bitstream"},
        {With(kParts, kTasks, R"("limits": {"clients": 0},)"), "clients 0"},
        {With(kParts, kTasks, R"("limits": {"buffer_bytes": 12},)"), "buffer_bytes 12"},
        {With(kParts, kTasks, R"("allow_users": ["no-such-user-here"],)"), "allow_users[0]"},
        {With(kParts, kTasks, R"("socket": "",)"), "socket: empty"},
        {With(kParts,
              R"([{"id": 1, "name": "big", "partition": "big", "bitstream": "x",
                   "buffers": [4194304, 4096]}])"),
         "task big: its 2 buffers of 4198400 bytes together pass the limits"},
    };
    for (const Case &c : cases) {
        EXPECT_EQ(Load(c.text), -EINVAL) << c.text;
        EXPECT_NE(std::string(why_).find(c.names), std::string::npos)
            << "wanted \"" << c.names << "\" in: " << why_;
    }
}

TEST_F(Config, AMissingFileIsNamed)
{
    const std::string path = dir_ + "/none.json";
    EXPECT_EQ(weftd_config_load(path.c_str(), &cfg_, why_, sizeof why_), -ENOENT);
    EXPECT_NE(std::string(why_).find("none.json"), std::string::npos) << why_;
}

// FRED's files: arch.csv and hw_tasks.csv, as FRED's server reads them, and the older
// layout without a timeout.
class FredConfig : public Config
{
  protected:
    int LoadFred(const std::string &arch, const std::string &tasks)
    {
        std::ofstream(dir_ + "/arch.csv") << arch;
        std::ofstream(dir_ + "/hw_tasks.csv") << tasks;
        why_[0] = '\0';
        int rc = weftd_config_load_fred(dir_.c_str(), &cfg_, why_, sizeof why_);
        std::remove((dir_ + "/arch.csv").c_str());
        std::remove((dir_ + "/hw_tasks.csv").c_str());
        return rc;
    }
};

TEST_F(FredConfig, ReadsFredsFiles)
{
    ASSERT_EQ(LoadFred("# FRED architecture\np0, 2\n\np1\t1\n",
                       "# name, id, timeout, partition, bits, buffers\n"
                       "sum, 0, 1500, p0, bits, 4096, 4096, 4096\n"
                       "mul 7 20ms p1 bits 64\n"
                       "old, 9, p0, bits, 128\n"
                       "idle, 10, 0, p1, bits\n"),
              0)
        << why_;
    ASSERT_EQ(cfg_.num_partitions, 2u);
    EXPECT_STREQ(cfg_.partition[0].name, "p0");
    EXPECT_EQ(cfg_.partition[0].slots, 0x3u);
    EXPECT_EQ(cfg_.partition[1].slots, 0x4u) << "slots follow in file order";
    ASSERT_EQ(cfg_.num_tasks, 4u);
    EXPECT_EQ(cfg_.task[0].id, 0u);
    EXPECT_EQ(cfg_.task[0].timeout_us, 1500u) << "bare numbers are microseconds";
    EXPECT_EQ(cfg_.task[0].num_buffers, 3u);
    EXPECT_EQ(cfg_.task[0].accelerator, 1);
    EXPECT_EQ(std::string(cfg_.task[0].bitstream), dir_ + "/bits/p0/sum.wbit");
    EXPECT_EQ(cfg_.task[1].timeout_us, 20000u);
    EXPECT_EQ(cfg_.task[1].partition, 1u);
    EXPECT_EQ(cfg_.task[2].timeout_us, 10000000u) << "no timeout column: FRED's default";
    EXPECT_EQ(cfg_.task[2].buffer[0], 128u);
    EXPECT_EQ(cfg_.task[3].timeout_us, 10000000u) << "0 is FRED's default";
    EXPECT_EQ(cfg_.task[3].num_buffers, 0u);
    EXPECT_STREQ(cfg_.fred_socket_path, "/tmp/fred_sock");
}

TEST_F(FredConfig, LimitsGrowToFitTheBuffers)
{
    ASSERT_EQ(LoadFred("p0 1\n", "big 1 10 p0 bits 8388608 4096\n"), 0) << why_;
    EXPECT_EQ(cfg_.limits.buffer_bytes, 8388608u + 4096u);
    EXPECT_EQ(cfg_.limits.buffers, 16u);
}

TEST_F(FredConfig, AColumnLabelledInMillisecondsIsRead)
{
    ASSERT_EQ(LoadFred("p0 1\n", "# <name> <id> <timeout_ms> <partition> <bits> <buffers>\n"
                                 "sum 1 15 p0 bits 64\n"),
              0)
        << why_;
    EXPECT_EQ(cfg_.task[0].timeout_us, 15000u);
}

TEST_F(FredConfig, EachMistakeIsNamed)
{
    struct Case {
        std::string arch, tasks;
        const char *names;
    };
    const Case cases[] = {
        {"P0, 1\n", "", "arch.csv:1: partition name \"P0\""},
        {"p0, 0\n", "", "arch.csv:1: partition p0: slots \"0\" is not 1-64"},
        {"p0, 1\np0, 1\n", "", "arch.csv:2: a second partition named p0"},
        {"p0, 1, 2\n", "", "want <partition name>, <slots>"},
        {"", "", "no partition"},
        {"p0 1\n", "sum 1 10 p9 bits 64\n", "hw_tasks.csv:1: task sum: no partition \"p9\""},
        {"p0 1\n", "sum x 10 p0 bits 64\n", "id \"x\""},
        {"p0 1\n", "sum 1 10s p0 bits 64\n", "timeout \"10s\""},
        {"p0 1\n", "sum 1 10 p0 bits 1 2 3 4 5 6 7\n", "7 buffers, at most 6"},
        {"p0 1\n", "sum 1 10 p0 bits 0\n", "buffer size \"0\""},
        {"p0 1\n", "sum 1 10 p0 bits\nsum 2 10 p0 bits\n", "task sum's already"},
        {"p0 1\n", "sum 1\n", "want <name>"},
        {"p0 1\n", "# nothing\n", "no task"},
    };
    for (const Case &c : cases) {
        EXPECT_EQ(LoadFred(c.arch, c.tasks), -EINVAL) << c.arch << " / " << c.tasks;
        EXPECT_NE(std::string(why_).find(c.names), std::string::npos)
            << "wanted \"" << c.names << "\" in: " << why_;
    }
}

} // namespace

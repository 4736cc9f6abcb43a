// Thread timelines end to end: a real hardware thread (hwt_calls) and a software thread
// play semaphore ping-pong on the simulated fabric while the runtime records; the trace
// shows both tracks, every call, and the order the ping-pong forces.
#include "e2e_fixture.h"

#include <semaphore.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "../unit/trace_json.h"
#include "weft/trace.h"

namespace
{

using trace_json::Event;

constexpr uint32_t kH = 2; // first extra handle of hwt_calls
constexpr int kRounds = 3;

TEST_F(Fabric, TraceShowsHardwareAndSoftwareThreadsInPingPong)
{
    sem_t ping, pong;
    ASSERT_EQ(sem_init(&ping, 0, 0), 0);
    ASSERT_EQ(sem_init(&pong, 0, 0), 0);
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_trace_thread_name(w_, "main");
    uint64_t cycles_before = 0, cycles_after = 0;
    ASSERT_EQ(weft_fabric_cycles(w_, &cycles_before), 0);
    weft_hwthread_t *hw = StartCalls(0, {{WEFT_RES_SEM, &ping}, {WEFT_RES_SEM, &pong}});
    ASSERT_NE(hw, nullptr);

    std::thread sw([this, &ping, &pong] {
        weft_trace_thread_name(w_, "sw-ponger");
        for (int i = 0; i < kRounds; i++) {
            weft_trace_begin(w_, "sem_wait");
            sem_wait(&ping);
            weft_trace_end(w_);
            sem_post(&pong);
        }
    });
    for (int i = 0; i < kRounds; i++) {
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, kH).status, WEFT_OSIF_OK) << i;
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_SEM_WAIT, kH + 1).status, WEFT_OSIF_OK) << i;
    }
    sw.join();
    weft_trace_mark(w_, "ping-pong done");
    Issue(0, WEFT_OSIF_CMD_THREAD_EXIT, 0, {5});
    weft_trace_begin(w_, "weft_hwthread_join");
    weft_exit_status_t st;
    ASSERT_EQ(weft_hwthread_join(hw, &st), 0);
    weft_trace_end(w_);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL);
    ASSERT_EQ(weft_fabric_cycles(w_, &cycles_after), 0);

    std::string path =
        ::testing::TempDir() + "weft-e2e-trace-" + std::to_string(getpid()) + ".json";
    ASSERT_EQ(weft_trace_write(w_, path.c_str()), 0);
    trace_json::Trace t = trace_json::Load(path);
    unlink(path.c_str());
    ASSERT_TRUE(t.ok) << t.error;
    ASSERT_TRUE(trace_json::WellFormed(t));
    EXPECT_EQ(t.process_name, "Weft");
    EXPECT_EQ(t.names.size(), 3u) << "main, sw-ponger and the hardware thread";
    EXPECT_EQ(t.other_ints.at("dropped_events"), 0);

    long long main_tid = t.Tid("main"), sw_tid = t.Tid("sw-ponger");
    long long hw_tid = t.Tid("hw-calls (slot 0)");
    ASSERT_GT(main_tid, 0);
    ASSERT_GT(sw_tid, 0);
    ASSERT_GT(hw_tid, 0);
    EXPECT_LT(main_tid, hw_tid);
    EXPECT_LT(sw_tid, hw_tid);

    // The hardware thread: created, its calls as blocked spans with their arguments,
    // and its exit. hwt_calls asks for its init data, takes each instruction from a
    // mailbox (MBOX_GET) and puts each result back (MBOX_PUT), around the call itself.
    std::vector<Event> posts = t.Named(hw_tid, "blocked in SEM_POST");
    std::vector<Event> waits = t.Named(hw_tid, "blocked in SEM_WAIT");
    ASSERT_EQ(posts.size(), size_t(kRounds));
    ASSERT_EQ(waits.size(), size_t(kRounds));
    for (const Event &e : posts) {
        EXPECT_EQ(e.ints.at("cmd"), WEFT_OSIF_CMD_SEM_POST);
        EXPECT_EQ(e.ints.at("handle"), kH);
        EXPECT_EQ(e.strs.at("status"), "OK");
    }
    for (const Event &e : waits) {
        EXPECT_EQ(e.ints.at("handle"), kH + 1);
        EXPECT_EQ(e.strs.at("status"), "OK");
    }
    EXPECT_EQ(t.Count(hw_tid, "blocked in GET_INIT_DATA"), 1u);
    EXPECT_EQ(t.Count(hw_tid, "blocked in MBOX_GET"), size_t(2 * kRounds + 2))
        << "one per instruction and the exit's argument word";
    EXPECT_EQ(t.Count(hw_tid, "blocked in MBOX_PUT"), size_t(2 * kRounds));
    EXPECT_EQ(t.Count(hw_tid, "created"), 1u);
    std::vector<Event> exits = t.Named(hw_tid, "exit");
    ASSERT_EQ(exits.size(), 1u);
    EXPECT_EQ(exits[0].ints.at("value"), 5);

    // The spans' fabric cycles move forward and lie between two readings of the cycle
    // counter taken by the test itself, before the thread started and after it ended.
    std::vector<Event> spans;
    for (const Event &e : t.On(hw_tid))
        if (e.ph == "X")
            spans.push_back(e);
    ASSERT_FALSE(spans.empty());
    for (size_t i = 0; i < spans.size(); i++) {
        EXPECT_LE(spans[i].ints.at("cycles_start"), spans[i].ints.at("cycles_end")) << i;
        EXPECT_GE(spans[i].ints.at("cycles_start"), static_cast<long long>(cycles_before)) << i;
        EXPECT_LE(spans[i].ints.at("cycles_end"), static_cast<long long>(cycles_after)) << i;
    }
    EXPECT_GT(spans.back().ints.at("cycles_end"), spans.front().ints.at("cycles_start"));

    // The software thread waited for each ping; each of its waits ended only after the
    // hardware thread had begun to post it.
    std::vector<Event> sw_waits = t.Named(sw_tid, "blocked in sem_wait");
    ASSERT_EQ(sw_waits.size(), size_t(kRounds));
    for (int i = 0; i < kRounds; i++)
        EXPECT_GE(sw_waits[i].End() + 0.002, posts[i].ts) << i;
    EXPECT_EQ(t.Count(main_tid, "ping-pong done"), 1u);
    EXPECT_EQ(t.Count(main_tid, "blocked in weft_hwthread_join"), 1u);

    sem_destroy(&ping);
    sem_destroy(&pong);
}

} // namespace

// Thread timelines (include/weft/trace.h): software threads' spans and marks, a hardware
// thread's calls recorded by its delegate (on the fake platform), and the file written.
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "runtime_fixture.h"
#include "trace_json.h"
#include "weft/trace.h"

namespace
{

using trace_json::Event;
using trace_json::Trace;

class Tracing : public Runtime
{
  protected:
    void TearDown() override
    {
        if (!path_.empty())
            unlink(path_.c_str());
        Runtime::TearDown();
    }
    // Write the trace and read it back.
    Trace WriteAndLoad()
    {
        if (path_.empty())
            path_ = ::testing::TempDir() + "weft-trace-" + std::to_string(getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json";
        EXPECT_EQ(weft_trace_write(w_, path_.c_str()), 0);
        Trace t = trace_json::Load(path_);
        EXPECT_TRUE(t.ok) << t.error;
        return t;
    }
    std::string path_;
};

TEST_F(Tracing, TraceCallsWithoutRecordingRecordNothing)
{
    weft_trace_thread_name(w_, "main");
    weft_trace_begin(w_, "sem_wait");
    weft_trace_end(w_);
    weft_trace_mark(w_, "nothing");
    weft_trace_stop(w_);
    EXPECT_EQ(weft_trace_write(w_, "/tmp/never-written.json"), -ENODATA);
    EXPECT_EQ(access("/tmp/never-written.json", F_OK), -1);
}

TEST_F(Tracing, TraceBadArguments)
{
    EXPECT_EQ(weft_trace_start(nullptr), -EINVAL);
    EXPECT_EQ(weft_trace_start_max(w_, 0), -EINVAL);
    EXPECT_EQ(weft_trace_write(nullptr, "/tmp/x.json"), -EINVAL);
    EXPECT_EQ(weft_trace_write(w_, nullptr), -EINVAL);
    // NULL runtime or names are ignored, not crashed on.
    weft_trace_stop(nullptr);
    weft_trace_begin(nullptr, "x");
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_trace_thread_name(w_, nullptr);
    weft_trace_begin(w_, nullptr);
    weft_trace_end(w_);
    weft_trace_mark(w_, nullptr);
    Trace t = WriteAndLoad();
    EXPECT_TRUE(trace_json::WellFormed(t));
    EXPECT_EQ(t.Count(t.Tid("?"), "blocked in ?"), 1u);
}

TEST_F(Tracing, TraceStartTwiceIsAlready)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    EXPECT_EQ(weft_trace_start(w_), -EALREADY);
    weft_trace_stop(w_);
    EXPECT_EQ(weft_trace_start(w_), 0);
}

TEST_F(Tracing, TraceSoftwareThreadRunningAndBlockedSpans)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_trace_thread_name(w_, "main");
    weft_trace_begin(w_, "sem_wait");
    weft_trace_end(w_);
    weft_trace_mark(w_, "frame 1 done");
    weft_trace_begin(w_, "pthread_mutex_lock");
    weft_trace_end(w_);
    weft_trace_end(w_); // without an open call: nothing
    Trace t = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(t));
    EXPECT_EQ(t.process_name, "Weft");
    long long tid = t.Tid("main");
    ASSERT_GT(tid, 0);
    EXPECT_LT(tid, 10000) << "software threads come before hardware threads";
    EXPECT_EQ(t.sort.at(tid), tid);
    EXPECT_EQ(trace_json::SpanNames(t, tid),
              (std::vector<std::string>{"running", "blocked in sem_wait", "running",
                                        "blocked in pthread_mutex_lock", "running"}));
    std::vector<Event> marks = t.Named(tid, "frame 1 done");
    ASSERT_EQ(marks.size(), 1u);
    EXPECT_EQ(marks[0].ph, "i");
    EXPECT_EQ(marks[0].cat, "mark");
    EXPECT_EQ(marks[0].pid, static_cast<long long>(getpid()));
    // The last running span is still open: written closed, flagged open.
    std::vector<Event> on = t.On(tid);
    EXPECT_TRUE(on.back().open);
    EXPECT_EQ(t.other_ints.at("dropped_events"), 0);
    EXPECT_TRUE(t.recording);
}

TEST_F(Tracing, TraceBeginWithoutEndIsClosedAtWriteTime)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_trace_thread_name(w_, "waiter");
    weft_trace_begin(w_, "mq_receive");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    Trace t = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(t));
    std::vector<Event> b = t.Named(t.Tid("waiter"), "blocked in mq_receive");
    ASSERT_EQ(b.size(), 1u);
    EXPECT_TRUE(b[0].open);
    EXPECT_GE(b[0].dur, 5000.0) << "closed at write time, at least 5 ms later";
    // Recording went on: the call ends after the write and is in the next file.
    weft_trace_end(w_);
    Trace t2 = WriteAndLoad();
    b = t2.Named(t2.Tid("waiter"), "blocked in mq_receive");
    ASSERT_EQ(b.size(), 1u);
    EXPECT_FALSE(b[0].open);
}

TEST_F(Tracing, TraceUnnamedThreadGetsATrackOfItsOwn)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_trace_thread_name(w_, "main");
    std::thread other([this] {
        weft_trace_begin(w_, "sem_wait");
        weft_trace_end(w_);
    });
    other.join();
    Trace t = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(t));
    EXPECT_EQ(t.names.size(), 2u);
    long long tid = t.Tid("thread 1");
    ASSERT_GT(tid, 0);
    EXPECT_EQ(trace_json::SpanNames(t, tid),
              (std::vector<std::string>{"blocked in sem_wait", "running"}));
}

TEST_F(Tracing, TraceThreadExitEndsItsTrack)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_trace_thread_name(w_, "main");
    std::thread worker([this] {
        weft_trace_thread_name(w_, "worker");
        weft_trace_begin(w_, "sem_wait");
        weft_trace_end(w_);
        weft_trace_thread_exit(w_);
    });
    worker.join();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    Trace t = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(t));
    long long tid = t.Tid("worker");
    ASSERT_GT(tid, 0);
    EXPECT_EQ(trace_json::SpanNames(t, tid),
              (std::vector<std::string>{"running", "blocked in sem_wait", "running"}));
    std::vector<Event> spans;
    for (const Event &e : t.On(tid))
        if (e.ph == "X")
            spans.push_back(e);
    ASSERT_FALSE(spans.empty());
    EXPECT_FALSE(spans.back().open) << "no span stays open after the thread's exit";
    std::vector<Event> exits = t.Named(tid, "exit");
    ASSERT_EQ(exits.size(), 1u);
    EXPECT_EQ(exits[0].ph, "i");
    // The exit and the end of the last span are the same instant; ts + dur is a sum of
    // two decimals, so allow for its rounding (the file has nanosecond digits).
    EXPECT_GE(exits[0].ts + 0.001, spans.back().End());
    // The main thread, not ended, still has its open running span.
    EXPECT_TRUE(t.On(t.Tid("main")).back().open);
}

TEST_F(Tracing, TraceNamesAreCopiedAndBounded)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    char buf[200];
    std::memset(buf, 'n', sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    weft_trace_thread_name(w_, buf);
    std::strcpy(buf, "call");
    weft_trace_begin(w_, buf);
    std::strcpy(buf, "overwritten");
    weft_trace_end(w_);
    weft_trace_mark(w_, "bad \xff\xfe utf-8");
    Trace t = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(t));
    long long tid = t.Tid(std::string(WEFT_TRACE_NAME_MAX - 1, 'n'));
    ASSERT_GT(tid, 0) << "the name is cut to WEFT_TRACE_NAME_MAX - 1 bytes";
    EXPECT_EQ(t.Count(tid, "blocked in call"), 1u);
    EXPECT_EQ(t.Count(tid, "bad ?? utf-8"), 1u) << "invalid UTF-8 becomes '?'";
}

TEST_F(Tracing, TraceManyThreadsAtOnceKeepTheirOwnTracks)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    constexpr int kThreads = 4, kCalls = 200;
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; i++)
        threads.emplace_back([this, i] {
            weft_trace_thread_name(w_, ("worker " + std::to_string(i)).c_str());
            for (int c = 0; c < kCalls; c++) {
                weft_trace_begin(w_, c % 2 ? "sem_wait" : "mbox_get");
                weft_trace_end(w_);
            }
        });
    // Writing while they record: a consistent snapshot each time.
    for (int i = 0; i < 5; i++) {
        Trace mid = WriteAndLoad();
        EXPECT_TRUE(trace_json::WellFormed(mid));
    }
    for (std::thread &th : threads)
        th.join();
    Trace t = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(t));
    for (int i = 0; i < kThreads; i++) {
        long long tid = t.Tid("worker " + std::to_string(i));
        ASSERT_GT(tid, 0) << i;
        EXPECT_EQ(t.Count(tid, "blocked in sem_wait"), size_t(kCalls / 2)) << i;
        EXPECT_EQ(t.Count(tid, "blocked in mbox_get"), size_t(kCalls / 2)) << i;
        EXPECT_EQ(t.Count(tid, "running"), size_t(kCalls + 1)) << i;
    }
}

TEST_F(Tracing, TraceUnwritablePathIsAnErrorAndRecordingGoesOn)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_trace_thread_name(w_, "main");
    EXPECT_EQ(weft_trace_write(w_, "/nonexistent-weft-dir/trace.json"), -ENOENT);
    EXPECT_EQ(weft_trace_write(w_, ::testing::TempDir().c_str()), -EISDIR);
    weft_trace_mark(w_, "after");
    Trace t = WriteAndLoad();
    EXPECT_EQ(t.Count(t.Tid("main"), "after"), 1u);
}

TEST_F(Tracing, TraceStopThenStartAgainBeginsAFreshRecording)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_trace_thread_name(w_, "first");
    weft_trace_begin(w_, "sem_wait");
    weft_trace_stop(w_);
    weft_trace_end(w_);            // not recorded: the recording is off
    weft_trace_mark(w_, "unseen"); // neither
    Trace t = WriteAndLoad();      // a stopped recording can still be written
    ASSERT_TRUE(trace_json::WellFormed(t));
    EXPECT_FALSE(t.recording);
    long long tid = t.Tid("first");
    std::vector<Event> b = t.Named(tid, "blocked in sem_wait");
    ASSERT_EQ(b.size(), 1u);
    EXPECT_TRUE(b[0].open) << "closed by the stop";
    EXPECT_EQ(t.Count(tid, "unseen"), 0u);

    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_trace_thread_name(w_, "second");
    weft_trace_mark(w_, "seen");
    Trace t2 = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(t2));
    EXPECT_EQ(t2.names.size(), 1u) << "the new recording starts with no tracks";
    EXPECT_EQ(t2.Count(t2.Tid("second"), "seen"), 1u);
    EXPECT_EQ(t2.events.size(), 2u) << "the mark and the open running span only";
}

TEST_F(Tracing, TraceEventsBeyondTheCapAreCountedAsDropped)
{
    ASSERT_EQ(weft_trace_start_max(w_, 10), 0);
    weft_trace_thread_name(w_, "main");
    for (int i = 0; i < 25; i++)
        weft_trace_mark(w_, "tick");
    Trace t = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(t));
    EXPECT_EQ(t.Count(t.Tid("main"), "tick"), 10u);
    EXPECT_EQ(t.other_ints.at("dropped_events"), 15);
    EXPECT_EQ(t.other_ints.at("max_events"), 10);
}

// ---- hardware threads, recorded by their delegate ---------------------------------------

TEST_F(Tracing, TraceHardwareCallsAreBlockedSpansWithTheirArguments)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    fake_set_cycles(f_, 1000);
    weft_hwthread_t *t = Start(0, {{WEFT_RES_SEM, &sem_}}, "hw-sem");
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, 0).status, WEFT_OSIF_OK);
    // The delegate records a call after writing its response: once the next call is
    // answered, the posts are recorded in full, and the counter can move on.
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_GET_INIT_DATA, 0).status, WEFT_OSIF_OK);
    fake_set_cycles(f_, 2000);
    for (int i = 0; i < 2; i++)
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_SEM_WAIT, 0).status, WEFT_OSIF_OK);
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, 7).status, WEFT_OSIF_BADHANDLE);
    Issue(0, WEFT_OSIF_CMD_THREAD_EXIT, 0, {42});
    weft_exit_status_t st;
    ASSERT_EQ(weft_hwthread_join(t, &st), 0);
    ASSERT_EQ(st.kind, WEFT_EXIT_NORMAL);

    Trace tr = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(tr));
    long long tid = tr.Tid("hw-sem (slot 0)");
    ASSERT_GT(tid, 10000) << "hardware threads are their own group, after software threads";
    EXPECT_EQ(tr.sort.at(tid), tid);
    std::vector<Event> posts = tr.Named(tid, "blocked in SEM_POST");
    ASSERT_EQ(posts.size(), 4u);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(posts[i].ints.at("cmd"), WEFT_OSIF_CMD_SEM_POST);
        EXPECT_EQ(posts[i].ints.at("handle"), 0);
        EXPECT_EQ(posts[i].strs.at("status"), "OK");
        EXPECT_EQ(posts[i].ints.at("cycles_start"), 1000);
        EXPECT_EQ(posts[i].ints.at("cycles_end"), 1000);
        EXPECT_EQ(posts[i].cat, "hw,call");
    }
    EXPECT_EQ(posts[3].ints.at("handle"), 7);
    EXPECT_EQ(posts[3].strs.at("status"), "BADHANDLE");
    std::vector<Event> waits = tr.Named(tid, "blocked in SEM_WAIT");
    ASSERT_EQ(waits.size(), 2u);
    EXPECT_EQ(waits[0].ints.at("cycles_start"), 2000);
    EXPECT_EQ(tr.Count(tid, "blocked in GET_INIT_DATA"), 1u);

    // created, then running and blocked in turn, then the exit.
    std::vector<Event> on = tr.On(tid);
    ASSERT_FALSE(on.empty());
    EXPECT_EQ(on.front().name, "created");
    EXPECT_EQ(on.front().ph, "i");
    EXPECT_EQ(on.back().name, "exit");
    EXPECT_EQ(on.back().ints.at("value"), 42);
    std::vector<std::string> spans = trace_json::SpanNames(tr, tid);
    ASSERT_EQ(spans.size(), 2u * 8u);
    for (size_t i = 0; i < spans.size(); i += 2)
        EXPECT_EQ(spans[i], "running") << i;
    EXPECT_EQ(spans.back(), "blocked in THREAD_EXIT");
    // Each span begins at the fabric cycle the one before it ended.
    std::vector<Event> seq;
    for (const Event &e : on)
        if (e.ph == "X")
            seq.push_back(e);
    for (size_t i = 1; i < seq.size(); i++)
        EXPECT_EQ(seq[i].ints.at("cycles_start"), seq[i - 1].ints.at("cycles_end")) << i;
    EXPECT_EQ(seq.front().ints.at("cycles_start"), 1000);
    EXPECT_EQ(seq.back().ints.at("cycles_end"), 2000);
}

TEST_F(Tracing, TraceHardwareThreadBlockedAtWriteAndStoppedByDestroy)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_hwthread_t *t = Start(1, {{WEFT_RES_SEM, &sem_}}, "hw-wait");
    Issue(1, WEFT_OSIF_CMD_SEM_WAIT, 0);
    while (fake_hw2sw_count(f_, 1) > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    Trace mid = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(mid));
    std::vector<Event> w = mid.Named(mid.Tid("hw-wait (slot 1)"), "blocked in SEM_WAIT");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_TRUE(w[0].open);
    EXPECT_EQ(w[0].strs.count("status"), 0u) << "not answered yet";

    Destroy(t);
    Trace end = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(end));
    long long tid = end.Tid("hw-wait (slot 1)");
    w = end.Named(tid, "blocked in SEM_WAIT");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_FALSE(w[0].open);
    EXPECT_EQ(end.Count(tid, "stopped"), 1u);
}

TEST_F(Tracing, TraceRecordingStartedWhileAHardwareThreadRuns)
{
    weft_hwthread_t *t = Start(2, {{WEFT_RES_SEM, &sem_}}, "hw-late");
    ASSERT_EQ(Call(2, WEFT_OSIF_CMD_SEM_POST, 0).status, WEFT_OSIF_OK);
    ASSERT_EQ(weft_trace_start(w_), 0);
    ASSERT_EQ(Call(2, WEFT_OSIF_CMD_SEM_WAIT, 0).status, WEFT_OSIF_OK);
    Issue(2, WEFT_OSIF_CMD_THREAD_EXIT, 0, {0});
    ASSERT_EQ(weft_hwthread_join(t, nullptr), 0);
    Trace tr = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(tr));
    long long tid = tr.Tid("hw-late (slot 2)");
    ASSERT_GT(tid, 0);
    EXPECT_EQ(tr.Count(tid, "created"), 0u) << "created before the recording";
    EXPECT_EQ(tr.Count(tid, "blocked in SEM_POST"), 0u);
    EXPECT_EQ(tr.Count(tid, "blocked in SEM_WAIT"), 1u);
    EXPECT_EQ(tr.Count(tid, "exit"), 1u);
}

TEST_F(Tracing, TraceTwoThreadsInOneSlotOverTimeGetTwoTracks)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    for (int round = 0; round < 2; round++) {
        weft_hwthread_t *t = Start(0, {}, "hw-again");
        Issue(0, WEFT_OSIF_CMD_THREAD_EXIT, 0, {static_cast<uint32_t>(round)});
        ASSERT_EQ(weft_hwthread_join(t, nullptr), 0);
        Destroy(t);
    }
    Trace tr = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(tr));
    std::vector<long long> tids;
    for (const auto &kv : tr.names)
        if (kv.second == "hw-again (slot 0)")
            tids.push_back(kv.first);
    ASSERT_EQ(tids.size(), 2u);
    for (long long tid : tids) {
        EXPECT_EQ(tr.Count(tid, "created"), 1u);
        EXPECT_EQ(tr.Count(tid, "exit"), 1u);
    }
}

// A delegate left to finish alone (its condition wait cannot take the mutex back) must
// record nothing more: destroy records the stop, and the runtime may be gone by then.
TEST_F(Tracing, TraceAbandonedDelegateIsStoppedByItsDestroyer)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    weft_hwthread_t *t = Start(0, {{WEFT_RES_COND, &cond_}, {WEFT_RES_MUTEX, &mutex_}}, "hw-cond");
    ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MUTEX_LOCK, 1).status, WEFT_OSIF_OK);
    Issue(0, WEFT_OSIF_CMD_COND_WAIT, 0, {1});
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ASSERT_EQ(pthread_mutex_lock(&mutex_), 0);
    Destroy(t);
    Trace tr = WriteAndLoad();
    ASSERT_TRUE(trace_json::WellFormed(tr));
    long long tid = tr.Tid("hw-cond (slot 0)");
    EXPECT_EQ(tr.Count(tid, "stopped"), 1u);
    std::vector<Event> w = tr.Named(tid, "blocked in COND_WAIT");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_FALSE(w[0].open);
    EXPECT_EQ(w[0].strs.count("status"), 0u);
    size_t before = tr.events.size();

    ASSERT_EQ(pthread_mutex_unlock(&mutex_), 0);
    ASSERT_EQ(weft_wait_abandoned(5000), 0);
    Trace after = WriteAndLoad();
    EXPECT_EQ(after.events.size(), before) << "the abandoned delegate recorded more";
}

// Shutdown with a recording on and threads blocked, parked and running: nothing is
// recorded into a freed runtime (the sanitizer variants check it).
TEST_F(Tracing, TraceShutdownWhileRecordingWithThreadsInEveryState)
{
    ASSERT_EQ(weft_trace_start(w_), 0);
    Start(0, {{WEFT_RES_SEM, &sem_}});
    Start(1, {{WEFT_RES_COND, &cond_}, {WEFT_RES_MUTEX, &mutex_}});
    Start(2, {});
    Issue(0, WEFT_OSIF_CMD_SEM_WAIT, 0);
    ASSERT_EQ(Call(1, WEFT_OSIF_CMD_MUTEX_LOCK, 1).status, WEFT_OSIF_OK);
    Issue(1, WEFT_OSIF_CMD_COND_WAIT, 0, {1});
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ASSERT_EQ(pthread_mutex_lock(&mutex_), 0);
    weft_shutdown(w_);
    w_ = nullptr;
    ASSERT_EQ(pthread_mutex_unlock(&mutex_), 0);
    ASSERT_EQ(weft_wait_abandoned(5000), 0);
}

} // namespace

// Managed software threads (docs/hw-services.md, "Managed threads"): pthreads that the
// static region's thread manager schedules, one at a time, and events (CBIS: timers, a
// slot's interrupt line, a software raise) that make a bound thread ready.
#include "e2e_fixture.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

extern "C" {
#include "weft/hwsync.h"
#include "weft/mthread.h"
}

namespace
{

using MThread = Fabric;

// The order in which managed threads ran their steps (they run one at a time, but the
// log is guarded all the same).
struct RunLog {
    std::mutex lock;
    std::vector<int> steps;
    void Add(int v)
    {
        std::lock_guard<std::mutex> g(lock);
        steps.push_back(v);
    }
    std::vector<int> Get()
    {
        std::lock_guard<std::mutex> g(lock);
        return steps;
    }
};

struct Step {
    RunLog *log;
    int id;
    int times = 1; // steps, with a yield between two
    void *ret = nullptr;
};

void *Steps(void *arg)
{
    auto *s = static_cast<Step *>(arg);
    for (int i = 0; i < s->times; i++) {
        if (i > 0)
            weft_mthread_yield();
        s->log->Add(s->id);
    }
    return s->ret;
}

weft_mthread_attr_t Prio(unsigned p)
{
    weft_mthread_attr_t a{};
    a.priority = p;
    a.cpu = -1;
    return a;
}

TEST_F(MThread, ManagerIsThere)
{
    unsigned threads = 0, events = 0, timers = 0;
    ASSERT_EQ(weft_tm_info(w_, &threads, &events, &timers), 0);
    EXPECT_EQ(threads, 256u);
    EXPECT_EQ(timers, 4u);
    EXPECT_EQ(events, timers + 4u + 1u) << "the timers, four slots' lines, the FRI's";
    EXPECT_EQ(weft_tm_event_slot(w_, 2), static_cast<int>(timers + 2));
    EXPECT_EQ(weft_tm_event_slot(w_, 4), -EINVAL);
}

// A creator at priority 0 creates three less urgent threads; they run once it returns, most
// urgent first.
struct Creator {
    weft_t *w;
    RunLog *log;
    Step steps[3];
    weft_mthread_t *made[3];
    int rc[3];
};

void *Create3(void *arg)
{
    auto *c = static_cast<Creator *>(arg);
    const unsigned prios[3] = {5, 1, 3};
    for (int i = 0; i < 3; i++) {
        weft_mthread_attr_t a = Prio(prios[i]);
        c->rc[i] = weft_mthread_create(c->w, &c->made[i], &a, Steps, &c->steps[i]);
        c->log->Add(100 + i); // the creator goes on: the new threads are less urgent
    }
    return nullptr;
}

TEST_F(MThread, ReadyThreadsRunMostUrgentFirst)
{
    RunLog log;
    Creator c{w_, &log, {{&log, 5}, {&log, 1}, {&log, 3}}, {}, {}};
    weft_mthread_attr_t a = Prio(0);
    weft_mthread_t *creator = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &creator, &a, Create3, &c), 0);
    ASSERT_EQ(weft_mthread_join(creator, nullptr), 0);
    for (int i = 0; i < 3; i++) {
        ASSERT_EQ(c.rc[i], 0);
        EXPECT_EQ(weft_mthread_join(c.made[i], nullptr), 0);
    }
    EXPECT_EQ(log.Get(), (std::vector<int>{100, 101, 102, 1, 3, 5}));
}

TEST_F(MThread, YieldTakesTurnsWithinAPriority)
{
    RunLog log;
    Step a{&log, 1, 3}, b{&log, 2, 3};
    // Both at priority 4 behind a priority-0 creator, so neither starts before the other
    // is queued: created from a managed thread.
    struct Pair {
        weft_t *w;
        Step *a, *b;
        weft_mthread_t *ta, *tb;
    } p{w_, &a, &b, nullptr, nullptr};
    auto make = [](void *arg) -> void * {
        auto *p = static_cast<Pair *>(arg);
        weft_mthread_attr_t at = Prio(4);
        weft_mthread_create(p->w, &p->ta, &at, Steps, p->a);
        weft_mthread_create(p->w, &p->tb, &at, Steps, p->b);
        return nullptr;
    };
    weft_mthread_attr_t top = Prio(0);
    weft_mthread_t *creator = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &creator, &top, make, &p), 0);
    ASSERT_EQ(weft_mthread_join(creator, nullptr), 0);
    ASSERT_NE(p.ta, nullptr);
    ASSERT_NE(p.tb, nullptr);
    EXPECT_EQ(weft_mthread_join(p.ta, nullptr), 0);
    EXPECT_EQ(weft_mthread_join(p.tb, nullptr), 0);
    EXPECT_EQ(log.Get(), (std::vector<int>{1, 2, 1, 2, 1, 2}));
}

// A busy low-priority thread is stopped while a more urgent one runs.
struct Spinner {
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> count{0};
};

void *Spin(void *arg)
{
    auto *s = static_cast<Spinner *>(arg);
    while (!s->stop.load())
        s->count.fetch_add(1);
    return nullptr;
}

struct Watcher {
    Spinner *spin;
    uint64_t before = 0, after = 0;
    int wait_rc = -1;
};

void *Watch(void *arg)
{
    auto *w = static_cast<Watcher *>(arg);
    w->wait_rc = weft_mthread_wait(); // until the test signals it
    // The preempted thread stops when its signal arrives: a moment after this one runs
    // (ThreadSanitizer defers signals to its next call).
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    w->before = w->spin->count.load();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    w->after = w->spin->count.load();
    w->spin->stop = true;
    return nullptr;
}

TEST_F(MThread, AMoreUrgentThreadPreemptsARunningOne)
{
    Spinner spin;
    Watcher watch{&spin};
    weft_mthread_attr_t hi = Prio(1), lo = Prio(9);
    weft_mthread_t *h = nullptr, *l = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &h, &hi, Watch, &watch), 0);
    ASSERT_EQ(weft_mthread_create(w_, &l, &lo, Spin, &spin), 0);
    // The spinner runs once the watcher waits.
    for (int i = 0; i < 5000 && spin.count.load() == 0; i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_GT(spin.count.load(), 0u) << "the low-priority thread never ran";
    ASSERT_EQ(weft_mthread_signal(h), 0);
    ASSERT_EQ(weft_mthread_join(h, nullptr), 0);
    EXPECT_EQ(watch.wait_rc, 0);
    EXPECT_EQ(watch.before, watch.after) << "the preempted thread ran beside the urgent one";
    ASSERT_EQ(weft_mthread_join(l, nullptr), 0);
}

struct Joiner {
    weft_t *w;
    Step child;
    void *got = nullptr;
    int rc = -1, self_rc = 0;
};

void *JoinChild(void *arg)
{
    auto *j = static_cast<Joiner *>(arg);
    weft_mthread_attr_t a = Prio(7); // less urgent: it runs only once this one joins
    weft_mthread_t *c = nullptr;
    if (weft_mthread_create(j->w, &c, &a, Steps, &j->child) != 0)
        return nullptr;
    j->child.log->Add(-1);
    j->self_rc = weft_mthread_join(weft_mthread_self(), nullptr);
    j->rc = weft_mthread_join(c, &j->got);
    j->child.log->Add(-2);
    return nullptr;
}

TEST_F(MThread, AManagedJoinWaitsInTheManager)
{
    RunLog log;
    Joiner j{w_, {&log, 7, 1, reinterpret_cast<void *>(0x42)}};
    weft_mthread_attr_t a = Prio(2);
    weft_mthread_t *t = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &t, &a, JoinChild, &j), 0);
    ASSERT_EQ(weft_mthread_join(t, nullptr), 0);
    EXPECT_EQ(j.self_rc, -EDEADLK);
    EXPECT_EQ(j.rc, 0);
    EXPECT_EQ(j.got, reinterpret_cast<void *>(0x42));
    EXPECT_EQ(log.Get(), (std::vector<int>{-1, 7, -2}));
}

TEST_F(MThread, ErrorsFollowPthreads)
{
    weft_mthread_t *t = nullptr;
    weft_mthread_attr_t bad = Prio(WEFT_TM_PRIO_MAX + 1);
    EXPECT_EQ(weft_mthread_create(w_, &t, &bad, Steps, nullptr), -EINVAL);
    EXPECT_EQ(weft_mthread_yield(), -EPERM) << "the test's own thread is not managed";
    EXPECT_EQ(weft_mthread_wait(), -EPERM);
    EXPECT_EQ(weft_mthread_self(), nullptr);
    EXPECT_EQ(weft_tm_bind(w_, 99, nullptr), -EINVAL);
    EXPECT_EQ(weft_tm_raise(w_, 99), -EINVAL);
    EXPECT_EQ(weft_tm_timer_start(w_, 0, 0, false), -EINVAL);
    EXPECT_EQ(weft_tm_timer_start(w_, 9, 100, false), -EINVAL);

    RunLog log;
    Step s{&log, 1};
    weft_mthread_attr_t a = Prio(3);
    ASSERT_EQ(weft_mthread_create(w_, &t, &a, Steps, &s), 0);
    EXPECT_EQ(weft_mthread_setprio(t, WEFT_TM_PRIO_MAX + 1), -EINVAL);
    ASSERT_EQ(weft_mthread_join(t, nullptr), 0);

    weft_mthread_t *d = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &d, &a, Steps, &s), 0);
    ASSERT_EQ(weft_mthread_detach(d), 0);
    // A detached thread frees its id when it returns: more threads than ids, over time.
    for (int i = 0; i < 300; i++) {
        weft_mthread_attr_t da = Prio(3);
        da.detached = true;
        int rc = -EAGAIN;
        for (int tries = 0; tries < 5000 && rc == -EAGAIN; tries++) {
            rc = weft_mthread_create(w_, &d, &da, Steps, &s);
            if (rc == -EAGAIN) // every id in use for now
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        ASSERT_EQ(rc, 0) << "thread " << i;
    }
    for (int i = 0; i < 5000 && log.Get().size() < 302; i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(log.Get().size(), 302u);
}

// The handler thread of an event: it waits n times and counts.
struct Handler {
    int n;
    std::atomic<int> woke{0};
    std::atomic<bool> ready{false};
};

void *Handle(void *arg)
{
    auto *h = static_cast<Handler *>(arg);
    h->ready = true;
    for (int i = 0; i < h->n; i++) {
        if (weft_mthread_wait() != 0)
            break;
        h->woke++;
    }
    return nullptr;
}

TEST_F(MThread, APeriodicTimerWakesItsThread)
{
    Handler h{5};
    weft_mthread_attr_t a = Prio(0);
    weft_mthread_t *t = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &t, &a, Handle, &h), 0);
    ASSERT_EQ(weft_tm_bind(w_, 0, t), 0);
    ASSERT_EQ(weft_tm_timer_start(w_, 0, 20000, true), 0);
    ASSERT_EQ(weft_mthread_join(t, nullptr), 0);
    EXPECT_EQ(h.woke.load(), 5);
    uint32_t fired = 0;
    ASSERT_EQ(weft_tm_timer_stop(w_, 0, &fired), 0);
    EXPECT_GE(fired, 5u);
    weft_tm_event_delay_t d{};
    ASSERT_EQ(weft_tm_event_delay(w_, &d), 0);
    EXPECT_TRUE(d.valid);
    EXPECT_EQ(d.event, 0u);
    EXPECT_GT(d.cycles, 0u);
    EXPECT_LT(d.cycles, 40u) << "timer event to decision, in fabric cycles";
}

TEST_F(MThread, AOneShotTimerFiresOnce)
{
    Handler h{1};
    weft_mthread_attr_t a = Prio(0);
    weft_mthread_t *t = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &t, &a, Handle, &h), 0);
    ASSERT_EQ(weft_tm_bind(w_, 1, t), 0);
    ASSERT_EQ(weft_tm_timer_start(w_, 1, 5000, false), 0);
    ASSERT_EQ(weft_mthread_join(t, nullptr), 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    uint32_t fired = 0;
    ASSERT_EQ(weft_tm_timer_stop(w_, 1, &fired), 0);
    EXPECT_EQ(fired, 1u);
}

// A thread that runs until told to, then waits once and times its wait.
struct LateWaiter {
    std::atomic<bool> running{false}, go{false};
    std::atomic<long> wait_ms{-1};
};

void *WaitLate(void *arg)
{
    auto *l = static_cast<LateWaiter *>(arg);
    l->running = true;
    while (!l->go.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const auto t0 = std::chrono::steady_clock::now();
    weft_mthread_wait();
    l->wait_ms = static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count());
    return nullptr;
}

TEST_F(MThread, ARaisedEventIsKeptUntilTheNextWait)
{
    LateWaiter l;
    weft_mthread_attr_t a = Prio(0);
    weft_mthread_t *t = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &t, &a, WaitLate, &l), 0);
    const unsigned ev = 3;
    ASSERT_EQ(weft_tm_bind(w_, ev, t), 0);
    for (int i = 0; i < 5000 && !l.running.load(); i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_TRUE(l.running.load());
    ASSERT_EQ(weft_tm_raise(w_, ev), 0); // while it runs: kept pending
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    l.go = true;
    // Should the event have been lost, a signal after 2 s ends the wait (and the test).
    for (int i = 0; i < 2000 && l.wait_ms.load() < 0; i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (l.wait_ms.load() < 0)
        EXPECT_EQ(weft_mthread_signal(t), 0);
    ASSERT_EQ(weft_mthread_join(t, nullptr), 0);
    EXPECT_GE(l.wait_ms.load(), 0);
    EXPECT_LT(l.wait_ms.load(), 1000) << "the wait did not take the pending event";
}

TEST_F(MThread, ASlotInterruptWakesItsThread)
{
    Handler h{1};
    weft_mthread_attr_t a = Prio(0);
    weft_mthread_t *t = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &t, &a, Handle, &h), 0);
    const int ev = weft_tm_event_slot(w_, 0);
    ASSERT_GE(ev, 0);
    for (int i = 0; i < 5000 && !h.ready.load(); i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_EQ(weft_tm_bind(w_, static_cast<unsigned>(ev), t), 0);
    // Any call of the slot's thread to its delegate raises the slot's line.
    StartCalls(0, {});
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_THREAD_CHECK, 0).status, WEFT_OSIF_OK);
    ASSERT_EQ(weft_mthread_join(t, nullptr), 0);
    EXPECT_EQ(h.woke.load(), 1);
}

// A managed thread that waits on a hardware semaphore gives the processor up: a less
// urgent thread runs meanwhile, and the post makes the waiter run again.
struct SemWaiter {
    weft_hwsem_t *sem;
    Spinner *spin;
    int rc = -1;
    uint64_t ran_while_waiting = 0;
};

void *WaitSem(void *arg)
{
    auto *s = static_cast<SemWaiter *>(arg);
    const uint64_t before = s->spin->count.load();
    s->rc = weft_hwsem_wait(s->sem);
    s->ran_while_waiting = s->spin->count.load() - before;
    s->spin->stop = true;
    return nullptr;
}

TEST_F(MThread, AHardwareSemaphoreWaitGivesTheProcessorUp)
{
    weft_hwsem_t *sem = nullptr;
    ASSERT_EQ(weft_hwsem_create(w_, 0, 1, &sem), 0);
    Spinner spin;
    SemWaiter s{sem, &spin};
    weft_mthread_attr_t hi = Prio(0), lo = Prio(5);
    weft_mthread_t *h = nullptr, *l = nullptr;
    ASSERT_EQ(weft_mthread_create(w_, &h, &hi, WaitSem, &s), 0);
    ASSERT_EQ(weft_mthread_create(w_, &l, &lo, Spin, &spin), 0);
    for (int i = 0; i < 5000 && spin.count.load() < 1000; i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_GE(spin.count.load(), 1000u) << "the waiter kept the processor";
    ASSERT_EQ(weft_hwsem_post(sem), 0);
    ASSERT_EQ(weft_mthread_join(h, nullptr), 0);
    EXPECT_EQ(s.rc, 0);
    EXPECT_GT(s.ran_while_waiting, 0u);
    ASSERT_EQ(weft_mthread_join(l, nullptr), 0);
    EXPECT_EQ(weft_hwsem_destroy(sem), 0);
}

} // namespace

// Self-checking test bench of weft_sched (the hardware scheduler's ready queues) against
// a reference model: one std::deque per priority, 0 the most urgent.
//
// Two shapes: the full one (256 threads, 128 priorities) and a small one (8 threads, 4
// priorities, where queues fill and empty often). Random enqueue (at the tail, or at the
// head: req_head_i), dequeue, remove and query requests, ids and priorities out of range
// among them, with random gaps between requests. Every answer's status, thread and priority are
// compared with the model's, all of them (a field that means nothing must be 0:
// hw/rtl/weft_sched.sv's header); in every cycle, the decision (top_*, 0 with nothing queued) and
// the count are compared with the model's after the last response (from the response cycle on) and
// with the cycle before (they change only in a response cycle). Every operation's latency is
// checked to be the same.
// Then, on the full shape, the cycles of each operation against the number of threads
// queued (1 to 256, in one priority and spread over all) are printed: flat.
// SCHED_TRACE=1 in the environment prints every random request with its answer.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include <verilated.h>

#include "Vweft_sched_full.h"
#include "Vweft_sched_small.h"
#include "tb_check.h"

namespace
{

enum Op : uint8_t { kEnqueue = 0, kDequeue = 1, kRemove = 2, kQuery = 3 };
enum Status : uint8_t { kOk = 0, kEmpty = 1, kBusy = 2, kIdle = 3, kRange = 4 };
constexpr unsigned kLatency = 4; // cycles from the edge that takes a request to its response

struct Answer {
    unsigned status, tid, prio;
    uint64_t cycles; // from the edge that took the request to the response
};

// What top_* and count_o must show: the queues after the last response (0 where there
// is no thread).
struct Decision {
    unsigned valid, tid, prio, count;
    bool operator==(const Decision &o) const
    {
        return valid == o.valid && tid == o.tid && prio == o.prio && count == o.count;
    }
    bool operator!=(const Decision &o) const { return !(*this == o); }
};

// The reference: what the queues hold, and what each request must answer.
struct Model {
    unsigned threads, prios;
    std::vector<std::deque<unsigned>> q;
    std::vector<int> prio_of; // -1: not queued

    Model(unsigned t, unsigned p) : threads(t), prios(p), q(p), prio_of(t, -1) {}

    unsigned count() const
    {
        unsigned n = 0;
        for (const auto &d : q)
            n += static_cast<unsigned>(d.size());
        return n;
    }
    int top() const // the most urgent queue's head, or -1
    {
        for (const auto &d : q)
            if (!d.empty())
                return static_cast<int>(d.front());
        return -1;
    }
    Decision decision() const
    {
        const int t = top();
        if (t < 0)
            return {0, 0, 0, count()};
        return {1, unsigned(t), unsigned(prio_of[unsigned(t)]), count()};
    }
    // The expected answer, every field defined (0 where it means nothing: the block's
    // header), and the change.
    void apply(Op op, unsigned tid, unsigned prio, bool head, unsigned *st, unsigned *rt,
               unsigned *rp)
    {
        *rt = 0;
        *rp = 0;
        const bool range = (op != kDequeue && tid >= threads) || (op == kEnqueue && prio >= prios);
        if (range) {
            *st = kRange;
            return;
        }
        switch (op) {
        case kEnqueue: // the request's thread and priority, busy or not
            *rt = tid;
            *rp = prio;
            if (prio_of[tid] >= 0) {
                *st = kBusy;
                return;
            }
            if (head)
                q[prio].push_front(tid);
            else
                q[prio].push_back(tid);
            prio_of[tid] = static_cast<int>(prio);
            *st = kOk;
            return;
        case kDequeue: {
            int t = top();
            if (t < 0) {
                *st = kEmpty;
                return;
            }
            *rp = unsigned(prio_of[t]);
            q[prio_of[t]].pop_front();
            prio_of[t] = -1;
            *st = kOk;
            *rt = unsigned(t);
            return;
        }
        case kRemove: {
            *rt = tid;
            if (prio_of[tid] < 0) {
                *st = kIdle;
                return;
            }
            auto &d = q[prio_of[tid]];
            for (auto it = d.begin(); it != d.end(); ++it)
                if (*it == tid) {
                    d.erase(it);
                    break;
                }
            *rp = unsigned(prio_of[tid]);
            prio_of[tid] = -1;
            *st = kOk;
            return;
        }
        default:
            *rt = tid;
            *st = prio_of[tid] >= 0 ? kOk : kEmpty;
            *rp = prio_of[tid] >= 0 ? unsigned(prio_of[tid]) : 0;
            return;
        }
    }
};

// The block and its model. Every request goes through request(), which checks its answer;
// every cycle, tick() checks the decision and the count: equal to the model's after the
// last response from that response's cycle on, and unchanged in every cycle without a
// response.
template <typename Dut> struct Bench {
    const char *name;
    Model m;
    std::unique_ptr<VerilatedContext> ctx = std::make_unique<VerilatedContext>();
    std::unique_ptr<Dut> dut = std::make_unique<Dut>(ctx.get());
    uint64_t cycle = 0;
    Decision shown{0, 0, 0, 0}; // what the block must show now (reset: nothing queued)
    Decision after{0, 0, 0, 0}; // what it must show from the next response on
    Decision last{0, 0, 0, 0};  // what it showed in the cycle before
    uint64_t decision_checks = 0;

    Decision outputs() const
    {
        return {dut->top_valid_o, dut->top_tid_o, dut->top_prio_o, dut->count_o};
    }
    void tick()
    {
        dut->clk_i = 0;
        dut->eval();
        dut->clk_i = 1;
        dut->eval();
        ++cycle;
        const Decision o = outputs();
        if (dut->rsp_valid_o)
            shown = after;
        else
            CHECK(o == last,
                  "%s cycle %" PRIu64 ": the decision/count changed without a response: "
                  "valid %u tid %u prio %u count %u, the cycle before %u %u %u %u",
                  name, cycle, o.valid, o.tid, o.prio, o.count, last.valid, last.tid, last.prio,
                  last.count);
        CHECK(o == shown,
              "%s cycle %" PRIu64 "%s: valid %u tid %u prio %u count %u, model (after the last "
              "response) %u %u %u %u",
              name, cycle, dut->rsp_valid_o ? " (response)" : "", o.valid, o.tid, o.prio, o.count,
              shown.valid, shown.tid, shown.prio, shown.count);
        last = o;
        ++decision_checks;
    }
    Bench(const char *n, unsigned threads, unsigned prios) : name(n), m(threads, prios)
    {
        dut->req_valid_i = 0;
        dut->rst_ni = 0;
        dut->eval();
        dut->clk_i = 0;
        dut->eval();
        dut->clk_i = 1;
        dut->eval();
        dut->rst_ni = 1;
        last = outputs();
        CHECK(last == shown, "%s: after reset valid %u tid %u prio %u count %u, not all 0", name,
              last.valid, last.tid, last.prio, last.count);
        tick();
    }
    ~Bench() { dut->final(); }

    // One request; its answer checked against the model (status, thread, priority), and
    // its latency against kLatency.
    Answer request(Op op, unsigned tid, unsigned prio, unsigned *expected_status = nullptr,
                   bool head = false)
    {
        while (!dut->req_ready_o)
            tick();
        unsigned st, rt, rp;
        m.apply(op, tid, prio, head, &st, &rt, &rp);
        after = m.decision();
        if (expected_status)
            *expected_status = st;
        dut->req_valid_i = 1;
        dut->req_op_i = op;
        dut->req_tid_i = tid;
        dut->req_prio_i = prio;
        dut->req_head_i = head;
        tick(); // the edge that takes it
        dut->req_valid_i = 0;
        uint64_t cycles = 0;
        while (!dut->rsp_valid_o && cycles < 100) {
            tick();
            ++cycles;
        }
        Answer a{dut->rsp_status_o, dut->rsp_tid_o, dut->rsp_prio_o, cycles};
        CHECK(a.cycles == kLatency, "%s cycle %" PRIu64 ": %u cycles, not %u", name, cycle,
              unsigned(a.cycles), kLatency);
        CHECK(a.status == st && a.tid == rt && a.prio == rp,
              "%s cycle %" PRIu64 " (op %d tid %u prio %u): status %u tid %u prio %u, model %u "
              "%u %u",
              name, cycle, op, tid, prio, a.status, a.tid, a.prio, st, rt, rp);
        return a;
    }
};

template <typename Dut>
void random_traffic(const char *name, unsigned threads, unsigned prios, unsigned ops, uint32_t seed)
{
    Bench<Dut> b(name, threads, prios);
    std::mt19937 rng(seed);
    uint64_t by_status[5] = {}, heads = 0;
    unsigned done = 0;
    for (unsigned i = 0; i < ops && weft_tb::failures == 0; ++i, ++done) {
        // Phases that fill (more enqueues) and drain (more dequeues and removes).
        const bool filling = (i / 2000) % 2 == 0;
        unsigned r = rng() % 100;
        Op op = r < (filling ? 55u : 25u)   ? kEnqueue
                : r < (filling ? 75u : 65u) ? kDequeue
                : r < 92u                   ? kRemove
                                            : kQuery;
        // Mostly valid ids and priorities; some past the ends (8-bit and 7-bit fields).
        unsigned tid = rng() % 20 == 0 ? rng() % 256 : rng() % threads;
        unsigned prio = rng() % 20 == 0 ? rng() % 128 : rng() % prios;
        for (unsigned gap = rng() % 3; gap > 0; --gap)
            b.tick();
        unsigned st = 0;
        // A third of the enqueues at the head (a preempted thread); the field is random in
        // every other request, which must ignore it.
        const bool head = op == kEnqueue ? rng() % 3 == 0 : rng() % 2 == 0;
        Answer a = b.request(op, tid, prio, &st, head);
        if (std::getenv("SCHED_TRACE"))
            std::printf("op %u: %d%s tid %u prio %u -> st %u tid %u prio %u; top %u/%u model %d\n",
                        i, op, head ? " head" : "", tid, prio, a.status, a.tid, a.prio,
                        b.dut->top_tid_o, b.dut->top_prio_o, b.m.top());
        by_status[st < 5 ? st : 0]++;
        heads += op == kEnqueue && head && st == kOk;
    }
    // A few idle cycles: nothing may change.
    for (unsigned i = 0; i < 10; ++i)
        b.tick();
    std::printf("%s: %u requests checked against the model (ok %" PRIu64 ", empty %" PRIu64
                ", busy %" PRIu64 ", idle %" PRIu64 ", range %" PRIu64 "; %" PRIu64
                " enqueued at the head), the decision and count in each of %" PRIu64 " cycles\n",
                name, done, by_status[kOk], by_status[kEmpty], by_status[kBusy], by_status[kIdle],
                by_status[kRange], heads, b.decision_checks);
}

// Cycles of each operation with n threads queued, n = 1 .. 256: in one priority (the
// longest list) and spread over all 128.
void depth_sweep()
{
    std::printf("cycles per operation (request taken -> response) against threads queued:\n");
    std::printf("  queued  layout   enqueue  dequeue  remove(mid)  query\n");
    for (unsigned n : {1u, 2u, 16u, 64u, 128u, 255u, 256u}) {
        for (bool spread : {false, true}) {
            Bench<Vweft_sched_full> b("sweep", 256, 128);
            for (unsigned t = 0; t + 1 < n; ++t)
                b.request(kEnqueue, t, spread ? t % 128 : 5);
            Answer enq = b.request(kEnqueue, n - 1, spread ? (n - 1) % 128 : 5);
            Answer qry = b.request(kQuery, n / 2, 0);
            Answer rem = b.request(kRemove, n / 2, 0);
            b.request(kEnqueue, n / 2, spread ? (n / 2) % 128 : 5);
            Answer deq = b.request(kDequeue, 0, 0);
            CHECK(enq.status == kOk && rem.status == kOk && deq.status == kOk && qry.status == kOk,
                  "sweep n=%u: statuses %u %u %u %u", n, enq.status, rem.status, deq.status,
                  qry.status);
            CHECK(enq.cycles == kLatency && deq.cycles == kLatency && rem.cycles == kLatency &&
                      qry.cycles == kLatency,
                  "sweep n=%u: not flat", n);
            std::printf("  %6u  %-7s  %7" PRIu64 "  %7" PRIu64 "  %11" PRIu64 "  %5" PRIu64 "\n", n,
                        spread ? "spread" : "one", enq.cycles, deq.cycles, rem.cycles, qry.cycles);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    random_traffic<Vweft_sched_small>("sched 8x4", 8, 4, 40000, 0x5c4ed001u);
    random_traffic<Vweft_sched_full>("sched 256x128", 256, 128, 40000, 0x5c4ed002u);
    depth_sweep();
    std::printf("tb_rtl_sched: %s\n", weft_tb::failures ? "FAIL" : "PASS");
    return weft_tb::failures ? 1 : 0;
}

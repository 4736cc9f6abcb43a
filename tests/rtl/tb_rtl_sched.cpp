// Self-checking test bench of weft_sched (the hardware scheduler's ready queues) against
// a reference model: one std::deque per priority, 0 the most urgent.
//
// Two shapes: the full one (256 threads, 128 priorities) and a small one (8 threads, 4
// priorities, where queues fill and empty often). Random enqueue, dequeue, remove and
// query requests, ids and priorities out of range among them, with random gaps between
// requests; after every response the status, the thread, the decision (top_*) and the
// count are compared with the model. Every operation's latency is checked to be the same.
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
    // The expected answer (status, tid or -1 for "any", prio or -1), and the change.
    void apply(Op op, unsigned tid, unsigned prio, unsigned *st, int *rt, int *rp)
    {
        *rt = -1;
        *rp = -1;
        const bool range = (op != kDequeue && tid >= threads) || (op == kEnqueue && prio >= prios);
        if (range) {
            *st = kRange;
            return;
        }
        switch (op) {
        case kEnqueue:
            if (prio_of[tid] >= 0) {
                *st = kBusy;
                return;
            }
            q[prio].push_back(tid);
            prio_of[tid] = static_cast<int>(prio);
            *st = kOk;
            *rt = static_cast<int>(tid);
            *rp = static_cast<int>(prio);
            return;
        case kDequeue: {
            int t = top();
            if (t < 0) {
                *st = kEmpty;
                return;
            }
            *rp = prio_of[t];
            q[prio_of[t]].pop_front();
            prio_of[t] = -1;
            *st = kOk;
            *rt = t;
            return;
        }
        case kRemove: {
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
            *rp = prio_of[tid];
            prio_of[tid] = -1;
            *st = kOk;
            *rt = static_cast<int>(tid);
            return;
        }
        default:
            *st = prio_of[tid] >= 0 ? kOk : kEmpty;
            *rt = static_cast<int>(tid);
            *rp = prio_of[tid];
            return;
        }
    }
};

template <typename Dut> struct Bench {
    std::unique_ptr<VerilatedContext> ctx = std::make_unique<VerilatedContext>();
    std::unique_ptr<Dut> dut = std::make_unique<Dut>(ctx.get());

    void tick()
    {
        dut->clk_i = 0;
        dut->eval();
        dut->clk_i = 1;
        dut->eval();
    }
    Bench()
    {
        dut->req_valid_i = 0;
        dut->rst_ni = 0;
        dut->eval();
        tick();
        dut->rst_ni = 1;
        tick();
    }
    ~Bench() { dut->final(); }

    Answer request(Op op, unsigned tid, unsigned prio)
    {
        while (!dut->req_ready_o)
            tick();
        dut->req_valid_i = 1;
        dut->req_op_i = op;
        dut->req_tid_i = tid;
        dut->req_prio_i = prio;
        tick(); // the edge that takes it
        dut->req_valid_i = 0;
        uint64_t cycles = 0;
        while (!dut->rsp_valid_o && cycles < 100) {
            tick();
            ++cycles;
        }
        return {dut->rsp_status_o, dut->rsp_tid_o, dut->rsp_prio_o, cycles};
    }
};

template <typename Dut>
void random_traffic(const char *name, unsigned threads, unsigned prios, unsigned ops, uint32_t seed)
{
    Bench<Dut> b;
    Model m(threads, prios);
    std::mt19937 rng(seed);
    uint64_t by_status[5] = {};
    for (unsigned i = 0; i < ops && weft_tb::failures == 0; ++i) {
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
        unsigned st;
        int rt, rp;
        m.apply(op, tid, prio, &st, &rt, &rp);
        for (unsigned gap = rng() % 3; gap > 0; --gap)
            b.tick();
        Answer a = b.request(op, tid, prio);
        if (std::getenv("SCHED_TRACE"))
            std::printf("op %u: %d tid %u prio %u -> st %u tid %u prio %u; top %u/%u model %d\n", i,
                        op, tid, prio, a.status, a.tid, a.prio, b.dut->top_tid_o, b.dut->top_prio_o,
                        m.top());
        CHECK(a.cycles == kLatency, "%s op %u: %u cycles, not %u", name, i, unsigned(a.cycles),
              kLatency);
        CHECK(a.status == st, "%s op %u (%d tid %u prio %u): status %u, model %u", name, i, op, tid,
              prio, a.status, st);
        if (rt >= 0)
            CHECK(a.tid == unsigned(rt), "%s op %u: tid %u, model %d", name, i, a.tid, rt);
        if (rp >= 0)
            CHECK(a.prio == unsigned(rp), "%s op %u: prio %u, model %d", name, i, a.prio, rp);
        const int top = m.top();
        CHECK(b.dut->top_valid_o == (top >= 0), "%s op %u: top_valid %u", name, i,
              b.dut->top_valid_o);
        if (top >= 0) {
            CHECK(b.dut->top_tid_o == unsigned(top), "%s op %u: top %u, model %d", name, i,
                  b.dut->top_tid_o, top);
            CHECK(b.dut->top_prio_o == unsigned(m.prio_of[top]), "%s op %u: top prio %u", name, i,
                  b.dut->top_prio_o);
        }
        CHECK(b.dut->count_o == m.count(), "%s op %u: count %u, model %u", name, i, b.dut->count_o,
              m.count());
        by_status[st < 5 ? st : 0]++;
    }
    std::printf("%s: %u requests checked against the model (ok %" PRIu64 ", empty %" PRIu64
                ", busy %" PRIu64 ", idle %" PRIu64 ", range %" PRIu64 ")\n",
                name, ops, by_status[kOk], by_status[kEmpty], by_status[kBusy], by_status[kIdle],
                by_status[kRange]);
}

// Cycles of each operation with n threads queued, n = 1 .. 256: in one priority (the
// longest list) and spread over all 128.
void depth_sweep()
{
    std::printf("cycles per operation (request taken -> response) against threads queued:\n");
    std::printf("  queued  layout   enqueue  dequeue  remove(mid)  query\n");
    for (unsigned n : {1u, 2u, 16u, 64u, 128u, 255u, 256u}) {
        for (bool spread : {false, true}) {
            Bench<Vweft_sched_full> b;
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

// weft-bench-sched-ops: fabric cycles of the hardware scheduler's ready-queue operations
// (hw/rtl/weft_sched.sv, 256 threads, 128 priorities) against the number of threads
// queued, beside hthreads' scheduler (enqueue 28 cycles, dequeue 24, the other operations
// 10 to 50; docs/hw-services.md). Claim: flat, at most 10 cycles.
//
// The block alone, verilated as tests/rtl verilates it, on a plain loop. For each layout
// (spread: every thread at a pseudo-random priority of all 128; clustered: at one of 4
// pseudo-random priorities, so that queues are long and have middles from depth 3 on)
// and each depth d (threads queued: 0, 1, 2, 4, ... 128, 255, 256), the block is reset
// and brought to depth d from a fixed seed, then --reps times each of:
//
//   enqueue  a thread that is not queued, at a priority of the layout   (d < 256)
//            (restored: removed again)
//   dequeue  the most urgent thread                                      (d > 0)
//            (restored: enqueued again at its priority)
//   remove   a thread in the middle of a queue (a head or tail only when (d > 0)
//            no queue has a middle), restored: enqueued again
//   query    a pseudo-random thread, queued or not
//
// so that every measured request is taken with exactly d threads queued. Requests go back
// to back, as a busy client would issue them: each is presented in the cycle after the
// one before it was taken. Per request:
//
//   latency   cycles from the edge that takes it (req_valid_i && req_ready_o) to the
//             cycle rsp_valid_o is high
//   wait      cycles it was presented while req_ready_o was low (behind the one before)
//   total     wait + latency: from presenting the request to its answer
//   interval  cycles from the edge that takes it to the edge that takes the next one:
//             the issue interval, 1 / throughput
//
// Every response of every request (the set-up and restoring ones too) is checked against
// a reference model (one FIFO per priority): status, thread, priority, and the decision
// (top_*) and count_o in the response cycle; a dequeue must take the most urgent thread,
// first come first served within its priority. One wrong answer and the program prints
// what was wrong, writes no figures and exits 1. The models' memories start from random
// values (--x-initial unique, random reset), so nothing may depend on them.
//
// Usage: weft-bench-sched-ops [--reps N] [--out PATH]
#include "bench_util.h"

#include <jansson.h>

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <verilated.h>

#include "Vweft_sched_256x128.h"

#define PROG "weft-bench-sched-ops"

namespace
{

constexpr unsigned kDefaultReps = 200;
constexpr unsigned kMaxReps = 100000;
constexpr const char *kDefaultOut = "bench/sched_ops.json";

constexpr unsigned kThreads = 256; // the verilated shape (bench/CMakeLists.txt)
constexpr unsigned kPrios = 128;
constexpr unsigned kTargetCycles = 10;  // the claim: at most 10 cycles an operation
constexpr unsigned kTimeout = 1000;     // cycles without an answer or a take: an error
constexpr uint32_t kSeed = 0x5c4edbe7u; // every layout, fill and choice derives from it
constexpr unsigned kClusterPrios = 4;   // the clustered layout's priorities
constexpr unsigned kMaxReported = 10;   // wrong answers printed before giving up
const unsigned kDepths[] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 255, 256};

// hthreads' hardware scheduler (Agron et al.), cycles per operation.
constexpr unsigned kHthreadsEnqueue = 28;
constexpr unsigned kHthreadsDequeue = 24;
constexpr unsigned kHthreadsOtherMin = 10;
constexpr unsigned kHthreadsOtherMax = 50;

enum Op : uint8_t { kEnqueue = 0, kDequeue = 1, kRemove = 2, kQuery = 3 };
constexpr unsigned kNumOps = 4;
const char *const kOpName[kNumOps] = {"enqueue", "dequeue", "remove", "query"};
enum Status : uint8_t { kOk = 0, kEmpty = 1, kBusy = 2, kIdle = 3, kRange = 4 };

// Where a removed thread stood in its queue.
enum Position : uint8_t { kMiddle = 0, kHead = 1, kTail = 2, kAlone = 3 };
constexpr unsigned kNumPositions = 4;
const char *const kPositionName[kNumPositions] = {"middle", "head", "tail", "alone"};

unsigned g_wrong = 0; // wrong answers so far

void wrong(const char *fmt, ...)
{
    if (g_wrong < kMaxReported) {
        va_list ap;
        va_start(ap, fmt);
        std::fputs(PROG ": WRONG: ", stderr);
        std::vfprintf(stderr, fmt, ap);
        std::fputc('\n', stderr);
        va_end(ap);
    }
    ++g_wrong;
}

// What a request must answer, and the decision and count right after it.
struct Expect {
    unsigned status;
    int tid, prio; // -1: any
    int top_tid, top_prio;
    unsigned count;
};

// The reference: one FIFO per priority, 0 the most urgent.
struct Model {
    std::vector<std::deque<unsigned>> q = std::vector<std::deque<unsigned>>(kPrios);
    std::vector<int> prio_of = std::vector<int>(kThreads, -1); // -1: not queued
    unsigned count = 0;

    int top() const // the head of the most urgent queue, or -1
    {
        for (const auto &d : q)
            if (!d.empty())
                return static_cast<int>(d.front());
        return -1;
    }
    Position position(unsigned tid) const
    {
        const auto &d = q[static_cast<unsigned>(prio_of[tid])];
        if (d.size() == 1)
            return kAlone;
        if (d.front() == tid)
            return kHead;
        return d.back() == tid ? kTail : kMiddle;
    }
    Expect apply(Op op, unsigned tid, unsigned prio)
    {
        Expect e{kOk, -1, -1, -1, -1, 0};
        switch (op) {
        case kEnqueue:
            if (prio_of[tid] >= 0) {
                e.status = kBusy;
                break;
            }
            q[prio].push_back(tid);
            prio_of[tid] = static_cast<int>(prio);
            ++count;
            e.tid = static_cast<int>(tid);
            e.prio = static_cast<int>(prio);
            break;
        case kDequeue: {
            const int t = top();
            if (t < 0) {
                e.status = kEmpty;
                break;
            }
            e.tid = t;
            e.prio = prio_of[t];
            q[static_cast<unsigned>(prio_of[t])].pop_front();
            prio_of[t] = -1;
            --count;
            break;
        }
        case kRemove: {
            if (prio_of[tid] < 0) {
                e.status = kIdle;
                break;
            }
            auto &d = q[static_cast<unsigned>(prio_of[tid])];
            d.erase(std::find(d.begin(), d.end(), tid));
            e.tid = static_cast<int>(tid);
            e.prio = prio_of[tid];
            prio_of[tid] = -1;
            --count;
            break;
        }
        default: // query
            e.status = prio_of[tid] >= 0 ? kOk : kEmpty;
            e.tid = static_cast<int>(tid);
            e.prio = prio_of[tid];
            break;
        }
        e.top_tid = top();
        e.top_prio = e.top_tid >= 0 ? prio_of[static_cast<unsigned>(e.top_tid)] : -1;
        e.count = count;
        return e;
    }
};

struct Req {
    Op op;
    unsigned tid, prio;
};

// One request as the block served it.
struct Record {
    Req req;
    Expect expect;
    int measured; // the op it measures, or -1 (set-up, restoring)
    int position; // a measured remove's Position, or -1
    uint64_t wait = 0, take = 0, rsp = 0, interval = 0;
    bool answered = false, has_interval = false;
};

// The block on a plain loop: requests presented back to back, answers checked as they
// come.
class Driver
{
  public:
    explicit Driver(uint32_t seed)
    {
        ctx_->randReset(2); // memories and registers start from random values
        ctx_->randSeed(static_cast<int>(seed & 0x7fffffffu));
        dut_ = std::make_unique<Vweft_sched_256x128>(ctx_.get());
        dut_->req_valid_i = 0;
        dut_->clk_i = 0;
        dut_->rst_ni = 0;
        dut_->eval();
        tick();
        dut_->rst_ni = 1;
        tick();
        cycle_ = 0;
    }
    ~Driver() { dut_->final(); }
    Driver(const Driver &) = delete;
    Driver &operator=(const Driver &) = delete;

    // Present a request now (the block may still be busy with the one before) and clock
    // until the block takes it; returns its record's index.
    size_t issue(const Req &r, const Expect &e, int measured, int position)
    {
        Record rec;
        rec.req = r;
        rec.expect = e;
        rec.measured = measured;
        rec.position = position;
        dut_->req_valid_i = 1;
        dut_->req_op_i = r.op;
        dut_->req_tid_i = static_cast<uint8_t>(r.tid);
        dut_->req_prio_i = static_cast<uint8_t>(r.prio);
        dut_->req_head_i = 0; // an enqueue at the head takes the same steps
        dut_->eval();
        for (;;) {
            const bool ready = dut_->req_ready_o;
            tick();
            if (ready)
                break;
            if (++rec.wait > kTimeout) {
                wrong("%s tid %u prio %u not taken in %u cycles", kOpName[r.op], r.tid, r.prio,
                      kTimeout);
                break;
            }
        }
        dut_->req_valid_i = 0;
        rec.take = cycle_;
        if (!records_.empty() && last_back_to_back_) {
            Record &prev = records_.back();
            prev.interval = rec.take - prev.take;
            prev.has_interval = true;
        }
        last_back_to_back_ = true;
        records_.push_back(rec);
        inflight_.push_back(records_.size() - 1);
        return records_.size() - 1;
    }

    // Clock until every request taken has been answered.
    void drain()
    {
        for (unsigned n = 0; !inflight_.empty(); ++n) {
            if (n > kTimeout) {
                wrong("%zu request(s) not answered in %u cycles", inflight_.size(), kTimeout);
                inflight_.clear();
                break;
            }
            tick();
        }
        last_back_to_back_ = false;
    }

    const std::vector<Record> &records() const { return records_; }
    uint64_t cycles() const { return total_cycles_; }
    uint64_t checked() const { return checked_; }

  private:
    void tick()
    {
        dut_->clk_i = 0;
        dut_->eval();
        dut_->clk_i = 1;
        dut_->eval();
        ++cycle_;
        ++total_cycles_;
        if (dut_->rsp_valid_o)
            answer();
        else if (!inflight_.empty() && cycle_ - records_[inflight_.front()].take > kTimeout) {
            const Req &r = records_[inflight_.front()].req;
            wrong("%s tid %u prio %u: no answer in %u cycles", kOpName[r.op], r.tid, r.prio,
                  kTimeout);
            inflight_.pop_front();
        }
    }

    // rsp_valid_o is high in this cycle: the answer of the oldest request taken.
    void answer()
    {
        if (inflight_.empty()) {
            wrong("rsp_valid_o high in cycle %" PRIu64 " with no request outstanding", cycle_);
            return;
        }
        Record &rec = records_[inflight_.front()];
        inflight_.pop_front();
        rec.rsp = cycle_;
        rec.answered = true;
        ++checked_;
        const Req &r = rec.req;
        const Expect &e = rec.expect;
        const unsigned st = dut_->rsp_status_o, tid = dut_->rsp_tid_o, prio = dut_->rsp_prio_o;
        if (st != e.status)
            wrong("%s tid %u prio %u: status %u, model %u", kOpName[r.op], r.tid, r.prio, st,
                  e.status);
        if (e.tid >= 0 && tid != static_cast<unsigned>(e.tid))
            wrong("%s tid %u prio %u: answered thread %u, model %d%s", kOpName[r.op], r.tid, r.prio,
                  tid, e.tid,
                  r.op == kDequeue ? " (the most urgent, first come in its priority)" : "");
        if (e.prio >= 0 && prio != static_cast<unsigned>(e.prio))
            wrong("%s tid %u prio %u: answered priority %u, model %d", kOpName[r.op], r.tid, r.prio,
                  prio, e.prio);
        if (dut_->top_valid_o != (e.top_tid >= 0))
            wrong("after %s tid %u: top_valid_o %u, model %s", kOpName[r.op], r.tid,
                  dut_->top_valid_o, e.top_tid >= 0 ? "a thread" : "none");
        else if (e.top_tid >= 0 && (dut_->top_tid_o != static_cast<unsigned>(e.top_tid) ||
                                    dut_->top_prio_o != static_cast<unsigned>(e.top_prio)))
            wrong("after %s tid %u: top %u at %u, model %d at %d", kOpName[r.op], r.tid,
                  dut_->top_tid_o, dut_->top_prio_o, e.top_tid, e.top_prio);
        if (dut_->count_o != e.count)
            wrong("after %s tid %u: count_o %u, model %u", kOpName[r.op], r.tid, dut_->count_o,
                  e.count);
    }

    std::unique_ptr<VerilatedContext> ctx_ = std::make_unique<VerilatedContext>();
    std::unique_ptr<Vweft_sched_256x128> dut_;
    uint64_t cycle_ = 0, total_cycles_ = 0, checked_ = 0;
    std::vector<Record> records_;
    std::deque<size_t> inflight_;
    bool last_back_to_back_ = false;
};

struct Range {
    uint64_t min = UINT64_MAX, max = 0;
    void add(uint64_t v)
    {
        min = std::min(min, v);
        max = std::max(max, v);
    }
    bool empty() const { return min > max; }
};

// One operation at one depth in one layout.
struct Cell {
    unsigned samples = 0;
    Range latency, wait, total, interval;
    unsigned positions[kNumPositions] = {};
};

struct Layout {
    const char *name;
    const char *what;
    std::vector<unsigned> prios; // empty: all of them
};

struct Phase {
    unsigned layout, depth;
    Cell cell[kNumOps];
};

unsigned pick(std::mt19937 &rng, unsigned n)
{
    return static_cast<unsigned>(rng() % n);
}

// Reset, fill to depth, measure reps of each operation.
Phase run_phase(unsigned li, const Layout &lay, unsigned depth, unsigned reps, uint64_t *cycles,
                uint64_t *checked)
{
    const uint32_t seed = kSeed + 1000u * li + depth;
    std::mt19937 rng(seed);
    Driver drv(seed);
    Model m;
    auto prio_of_layout = [&]() {
        return lay.prios.empty() ? pick(rng, kPrios)
                                 : lay.prios[pick(rng, static_cast<unsigned>(lay.prios.size()))];
    };
    auto go = [&](Op op, unsigned tid, unsigned prio, int measured, int position) {
        const Expect e = m.apply(op, tid, prio);
        drv.issue({op, tid, prio}, e, measured, position);
        return e;
    };

    // Fill: the first depth threads of a pseudo-random order, at the layout's priorities.
    std::vector<unsigned> order(kThreads);
    for (unsigned t = 0; t < kThreads; ++t)
        order[t] = t;
    std::shuffle(order.begin(), order.end(), rng);
    for (unsigned i = 0; i < depth; ++i)
        go(kEnqueue, order[i], prio_of_layout(), -1, -1);

    // One request before the first measured one, so that every measured request is
    // presented behind another (at depth 0 nothing else would be).
    go(kQuery, 0, 0, -1, -1);

    std::vector<unsigned> cands;
    for (unsigned rep = 0; rep < reps && g_wrong == 0; ++rep) {
        if (depth < kThreads) { // enqueue a thread that is not queued; remove it again
            cands.clear();
            for (unsigned t = 0; t < kThreads; ++t)
                if (m.prio_of[t] < 0)
                    cands.push_back(t);
            const unsigned t = cands[pick(rng, static_cast<unsigned>(cands.size()))];
            go(kEnqueue, t, prio_of_layout(), kEnqueue, -1);
            go(kRemove, t, 0, -1, -1);
        }
        if (depth > 0) { // dequeue the most urgent; enqueue it again at its priority
            const Expect e = go(kDequeue, 0, 0, kDequeue, -1);
            go(kEnqueue, static_cast<unsigned>(e.tid), static_cast<unsigned>(e.prio), -1, -1);
        }
        if (depth > 0) { // remove a thread from the middle of a queue; enqueue it again
            cands.clear();
            for (unsigned t = 0; t < kThreads; ++t)
                if (m.prio_of[t] >= 0 && m.position(t) == kMiddle)
                    cands.push_back(t);
            if (cands.empty())
                for (unsigned t = 0; t < kThreads; ++t)
                    if (m.prio_of[t] >= 0)
                        cands.push_back(t);
            const unsigned t = cands[pick(rng, static_cast<unsigned>(cands.size()))];
            const unsigned p = static_cast<unsigned>(m.prio_of[t]);
            go(kRemove, t, 0, kRemove, m.position(t));
            go(kEnqueue, t, p, -1, -1);
        }
        go(kQuery, pick(rng, kThreads), 0, kQuery, -1);
        if (m.count != depth)
            wrong("bench: depth %u not restored (%u queued)", depth, m.count);
    }
    go(kQuery, 0, 0, -1, -1); // so that the last measured request has an issue interval
    drv.drain();

    Phase ph{li, depth, {}};
    for (const Record &r : drv.records()) {
        if (r.measured < 0 || !r.answered || !r.has_interval)
            continue;
        Cell &c = ph.cell[r.measured];
        ++c.samples;
        c.latency.add(r.rsp - r.take);
        c.wait.add(r.wait);
        c.total.add(r.wait + (r.rsp - r.take));
        c.interval.add(r.interval);
        if (r.position >= 0)
            ++c.positions[r.position];
    }
    *cycles += drv.cycles();
    *checked += drv.checked();
    return ph;
}

std::string span(const Range &r)
{
    if (r.empty())
        return "-";
    if (r.min == r.max)
        return std::to_string(r.min);
    return std::to_string(r.min) + "-" + std::to_string(r.max);
}

json_t *range_json(const Range &r, const char *name, json_t *o)
{
    const std::string lo = std::string(name) + "_min", hi = std::string(name) + "_max";
    json_object_set_new(o, lo.c_str(), json_integer(static_cast<json_int_t>(r.min)));
    json_object_set_new(o, hi.c_str(), json_integer(static_cast<json_int_t>(r.max)));
    return o;
}

void usage(FILE *f)
{
    std::fprintf(f,
                 "usage: " PROG " [--reps N] [--out PATH]\n"
                 "  --reps N    requests of each operation per depth and layout, 1..%u "
                 "(default %u)\n"
                 "  --out PATH  JSON result file (default %s; directories are created)\n",
                 kMaxReps, kDefaultReps, kDefaultOut);
}

} // namespace

int main(int argc, char **argv)
{
    unsigned reps = kDefaultReps;
    const char *out = kDefaultOut;
    const int rc = bench_args(argc, argv, PROG, kMaxReps, &reps, &out, usage);
    if (rc >= 0)
        return rc;
    std::remove(out); // a failed run leaves no figures behind

    std::mt19937 lrng(kSeed);
    std::vector<unsigned> cluster;
    while (cluster.size() < kClusterPrios) {
        const unsigned p = pick(lrng, kPrios);
        if (std::find(cluster.begin(), cluster.end(), p) == cluster.end())
            cluster.push_back(p);
    }
    std::sort(cluster.begin(), cluster.end());
    std::string cluster_what = "at one of priorities";
    for (unsigned p : cluster)
        cluster_what += " " + std::to_string(p);
    const std::vector<Layout> layouts = {
        {"spread", "at pseudo-random priorities 0..127", {}},
        {"clustered", cluster_what.c_str(), cluster},
    };

    const double start = bench_now_us();
    std::vector<Phase> phases;
    uint64_t cycles = 0, checked = 0;
    for (unsigned li = 0; li < layouts.size(); ++li) {
        for (unsigned d : kDepths) {
            phases.push_back(run_phase(li, layouts[li], d, reps, &cycles, &checked));
            if (g_wrong) {
                std::fprintf(stderr,
                             PROG ": %u wrong answer(s) from weft_sched (layout %s, depth %u); "
                                  "no figures\n",
                             g_wrong, layouts[li].name, d);
                return 1;
            }
        }
    }
    const double wall_s = (bench_now_us() - start) / 1e6;

    // Over every depth and layout, per operation.
    Cell all[kNumOps];
    for (const Phase &ph : phases)
        for (unsigned op = 0; op < kNumOps; ++op) {
            const Cell &c = ph.cell[op];
            if (!c.samples)
                continue;
            all[op].samples += c.samples;
            for (auto [dst, src] : {std::pair<Range *, const Range *>{&all[op].latency, &c.latency},
                                    {&all[op].wait, &c.wait},
                                    {&all[op].total, &c.total},
                                    {&all[op].interval, &c.interval}}) {
                dst->add(src->min);
                dst->add(src->max);
            }
            for (unsigned k = 0; k < kNumPositions; ++k)
                all[op].positions[k] += c.positions[k];
        }
    uint64_t worst = 0;
    for (const Cell &c : all)
        if (c.samples)
            worst = std::max(worst, c.total.max);

    std::printf("%s: weft_sched, %u threads, %u priorities; %u requests of each operation per "
                "depth and layout\n",
                PROG, kThreads, kPrios, reps);
    std::printf("requests back to back (each presented the cycle after the one before was "
                "taken), fabric cycles:\n"
                "  lat  edge that takes it -> cycle rsp_valid_o is high\n"
                "  wait cycles presented while req_ready_o was low\n"
                "  int  issue interval: its taking edge -> the next request's\n"
                "a cell is min-max, or one figure when they are equal\n");
    for (unsigned li = 0; li < layouts.size(); ++li) {
        std::printf("\nlayout %s: threads %s\n", layouts[li].name, layouts[li].what);
        std::printf("%6s", "");
        for (unsigned op = 0; op < kNumOps; ++op)
            std::printf("  | %16s", op == kRemove ? "remove (mid)" : kOpName[op]);
        std::printf("\n%6s", "depth");
        for (unsigned op = 0; op < kNumOps; ++op)
            std::printf("  | %4s %5s %5s", "lat", "wait", "int");
        std::printf("\n");
        for (const Phase &ph : phases) {
            if (ph.layout != li)
                continue;
            std::printf("%6u", ph.depth);
            for (const Cell &c : ph.cell)
                std::printf("  | %4s %5s %5s", span(c.latency).c_str(), span(c.wait).c_str(),
                            span(c.interval).c_str());
            std::printf("\n");
        }
        unsigned pos[kNumPositions] = {};
        for (const Phase &ph : phases)
            if (ph.layout == li)
                for (unsigned k = 0; k < kNumPositions; ++k)
                    pos[k] += ph.cell[kRemove].positions[k];
        std::printf("removed threads stood: %u in the middle of a queue, %u at the head, %u at "
                    "the tail, %u alone\n",
                    pos[kMiddle], pos[kHead], pos[kTail], pos[kAlone]);
    }
    std::printf("\nover every depth: ");
    for (unsigned op = 0; op < kNumOps; ++op)
        std::printf("%s%s lat %s, wait + lat %s, int %s", op ? "; " : "", kOpName[op],
                    span(all[op].latency).c_str(), span(all[op].total).c_str(),
                    span(all[op].interval).c_str());
    std::printf("\nworst wait + latency %" PRIu64 " cycles: target at most %u %s; hthreads: "
                "enqueue %u, dequeue %u, others %u-%u\n",
                worst, kTargetCycles, worst <= kTargetCycles ? "met" : "MISSED", kHthreadsEnqueue,
                kHthreadsDequeue, kHthreadsOtherMin, kHthreadsOtherMax);
    std::printf("%" PRIu64 " answers checked against the reference model, all right; %" PRIu64
                " cycles simulated in %.2f s\n",
                checked, cycles, wall_s);

    json_t *root = json_object();
    json_object_set_new(root, "benchmark", json_string("sched_ops"));
    json_object_set_new(root, "block", json_string("hw/rtl/weft_sched.sv"));
    json_object_set_new(root, "threads", json_integer(kThreads));
    json_object_set_new(root, "prios", json_integer(kPrios));
    json_object_set_new(root, "reps", json_integer(reps));
    json_object_set_new(root, "seed", json_integer(kSeed));
    json_object_set_new(root, "issue",
                        json_string("back to back: each request presented the cycle after the "
                                    "one before it was taken"));
    json_object_set_new(root, "target_cycles", json_integer(kTargetCycles));
    json_object_set_new(root, "target_figure", json_string("total (wait + latency)"));
    json_object_set_new(root, "reference",
                        json_pack("{s:s, s:i, s:i, s:i, s:i}", "source",
                                  "hthreads hardware scheduler (Agron et al.)", "enqueue",
                                  kHthreadsEnqueue, "dequeue", kHthreadsDequeue, "others_min",
                                  kHthreadsOtherMin, "others_max", kHthreadsOtherMax));
    json_t *jl = json_array();
    for (const Layout &l : layouts) {
        json_t *o = json_pack("{s:s, s:s}", "name", l.name, "what", l.what);
        json_t *p = json_array();
        for (unsigned v : l.prios)
            json_array_append_new(p, json_integer(v));
        json_object_set_new(o, "prios", p);
        json_array_append_new(jl, o);
    }
    json_object_set_new(root, "layouts", jl);
    json_t *jr = json_array();
    for (const Phase &ph : phases)
        for (unsigned op = 0; op < kNumOps; ++op) {
            const Cell &c = ph.cell[op];
            if (!c.samples)
                continue;
            json_t *o = json_pack("{s:s, s:i, s:s, s:i}", "layout", layouts[ph.layout].name,
                                  "depth", ph.depth, "op", kOpName[op], "samples", c.samples);
            range_json(c.latency, "latency", o);
            range_json(c.wait, "wait", o);
            range_json(c.total, "total", o);
            range_json(c.interval, "interval", o);
            if (op == kRemove) {
                json_t *pos = json_object();
                for (unsigned k = 0; k < kNumPositions; ++k)
                    json_object_set_new(pos, kPositionName[k], json_integer(c.positions[k]));
                json_object_set_new(o, "positions", pos);
            }
            json_array_append_new(jr, o);
        }
    json_object_set_new(root, "results", jr);
    json_t *js = json_object();
    for (unsigned op = 0; op < kNumOps; ++op) {
        json_t *o = json_pack("{s:i}", "samples", all[op].samples);
        range_json(all[op].latency, "latency", o);
        range_json(all[op].wait, "wait", o);
        range_json(all[op].total, "total", o);
        range_json(all[op].interval, "interval", o);
        json_object_set_new(js, kOpName[op], o);
    }
    json_object_set_new(root, "summary", js);
    json_object_set_new(root, "max_total_cycles", json_integer(static_cast<json_int_t>(worst)));
    json_object_set_new(root, "meets_target", json_boolean(worst <= kTargetCycles));
    json_object_set_new(root, "answers_checked", json_integer(static_cast<json_int_t>(checked)));
    json_object_set_new(root, "cycles_simulated", json_integer(static_cast<json_int_t>(cycles)));
    json_object_set_new(root, "wall_s", bench_jnum(wall_s));
    const int wrc = json_dump_file(root, out, JSON_INDENT(2));
    json_decref(root);
    if (wrc) {
        std::fprintf(stderr, PROG ": cannot write %s\n", out);
        return 1;
    }
    std::printf("results written to %s\n", out);
    return 0;
}

// Self-checking test bench of weft_tm (hw/rtl/weft_tm.sv), the thread manager and its
// scheduler, against a reference model of protocol/osif.yaml's tm_calls and the rule in
// the module's header.
//
// The model keeps per thread id a record (state, priority, detached, a pending event, the
// joiner, the exit value), the free ids (a stack of freed ids, handed out last freed
// first, then a counter from 1 while it is empty), one FIFO of ready threads per priority
// (0 the most urgent) and the decision cur (0: the idle thread). After every command the
// most urgent ready thread runs if cur is the idle thread or it is strictly more urgent
// than cur; a cur it replaces goes to the head of its priority's queue first (POSIX
// SCHED_FIFO: a preempted thread runs again before the others of its priority). YIELD
// puts cur at the tail of its queue, then decides; YIELD of a ready thread (one whose
// YIELD a preemption overtook) moves it to the tail of its queue. An event (ev_valid_i) is a SIGNAL
// of ev_tid_i that goes before the command port and is answered on ev_done_o/ev_switched_o.
//
// Every cycle the test bench checks cmd_ready_o and ev_ready_o (low while a command or
// event is in progress; an event waiting keeps the port's command out), that rsp_valid_o
// and ev_done_o come only as the answer of what was taken, every answer's status,
// blocked, thread and value against the model's, decided_o (high exactly in the answer
// cycle of a command or event that changed cur_tid_o), and, whenever nothing is in
// progress, cur_tid_o, cur_prio_o, seq_o and the last answer's rsp_* fields (events
// between do not change them). still_o high must mean that the edge changes no
// output. While a command or event is in progress cur_tid_o (what TM_CUR reads) must show
// the decision before it or the one after it, never another thread (counted; one check
// at the end). Latency: the cycles from the edge that takes a command to its answer,
// counting the answer's cycle (a QUERY: 3), must not exceed 33 (the module's header: "3
// to 33 cycles"), and must be the same for every command that takes the same path (op,
// status, blocked, the state of the thread named, scheduler operations), whatever the
// number of threads (one check per op at the end, with the maximum printed).
//
// Directed scenarios first (reset, ids, preemption, yield, wait/signal, join, detach,
// priority, events against commands, seq_o wrapping), each result also checked by hand,
// and the longest paths one by one with their latency; then random commands with random
// gaps (some presented while the block is busy), random events and resets: mostly
// commands that make sense for the model's state (EXIT, YIELD and WAIT by the running
// thread, JOIN by it, SIGNAL of a waiting thread), and bad ones: thread 0, ids out of
// range or free, the wrong caller, bad priorities, op codes 9 to 15. RAM contents start
// random and survive the resets (the block never clears them).
//
// Two shapes: the full one (256 threads, 128 priorities) and a small one (5 threads, 3
// priorities: 4 ids, which run out often).
// TM_TRACE=1 in the environment prints every command and event with its answer,
// TM_PATHS=1 the latency of every path seen.
#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <verilated.h>

#include "Vweft_tm_full.h"
#include "Vweft_tm_small.h"
#include "tb_check.h"
#include "tb_reset.h"
#include "weft/osif_protocol.h"

namespace
{

constexpr unsigned kCreate = WEFT_TM_OP_CREATE;
constexpr unsigned kExit = WEFT_TM_OP_EXIT;
constexpr unsigned kJoin = WEFT_TM_OP_JOIN;
constexpr unsigned kDetach = WEFT_TM_OP_DETACH;
constexpr unsigned kYield = WEFT_TM_OP_YIELD;
constexpr unsigned kWait = WEFT_TM_OP_WAIT;
constexpr unsigned kSignal = WEFT_TM_OP_SIGNAL;
constexpr unsigned kPriority = WEFT_TM_OP_PRIORITY;
constexpr unsigned kQuery = WEFT_TM_OP_QUERY;
constexpr unsigned kEvent = 16; // an event's SIGNAL, in the statistics

constexpr unsigned kFree = WEFT_TM_STATE_FREE;
constexpr unsigned kReady = WEFT_TM_STATE_READY;
constexpr unsigned kRunning = WEFT_TM_STATE_RUNNING;
constexpr unsigned kWaiting = WEFT_TM_STATE_WAITING;
constexpr unsigned kJoining = WEFT_TM_STATE_JOINING;
constexpr unsigned kExited = WEFT_TM_STATE_EXITED;

constexpr unsigned kOk = WEFT_OSIF_OK;
constexpr unsigned kNosys = WEFT_OSIF_NOSYS;
constexpr unsigned kBadhandle = WEFT_OSIF_BADHANDLE;
constexpr unsigned kBadargs = WEFT_OSIF_BADARGS;
constexpr unsigned kBusy = WEFT_OSIF_BUSY;
constexpr unsigned kAgain = WEFT_OSIF_AGAIN;
constexpr unsigned kPerm = WEFT_OSIF_PERM;

// The module's header: "A command takes 3 to 33 cycles from the edge that takes it to its
// answer". Counted here as the cycles after that edge up to and including the answer's
// (rsp_valid_o) cycle, so that the fastest path, a QUERY (record read, answer), is 3.
constexpr unsigned kMaxLatency = 33;
constexpr unsigned kTimeout = 200; // cycles without an answer: the block is stuck

const char *op_name(unsigned op)
{
    static const char *const names[] = {"CREATE", "EXIT",   "JOIN",     "DETACH", "YIELD",
                                        "WAIT",   "SIGNAL", "PRIORITY", "QUERY"};
    static const char *const unknown[] = {"op 9",  "op 10", "op 11", "op 12",
                                          "op 13", "op 14", "op 15"};
    if (op == kEvent)
        return "event";
    return op < 9 ? names[op] : op < 16 ? unknown[op - 9] : "op?";
}

const char *state_name(unsigned st)
{
    static const char *const names[] = {"FREE",    "READY",  "RUNNING", "WAITING",
                                        "JOINING", "EXITED", "6?",      "7?"};
    return names[st & 7];
}

// ---- the reference model -----------------------------------------------------------------

struct Rec {
    unsigned st = kFree, prio = 0;
    bool detached = false, pending = false, joined = false;
    unsigned joiner = 0;
    uint32_t value = 0;
};

// What a command or an event must answer, and what it did (for the statistics and the
// latency's path).
struct Expect {
    unsigned op = 0, tid = 0, arg = 0;
    bool flag = false;
    uint32_t in_value = 0;
    unsigned status = kOk, blocked = 0, rtid = 0;
    uint32_t value = 0;
    bool switched = false;
    unsigned st_before = kFree; // the state of the thread named
    unsigned sched_ops = 0;     // queue operations: enqueues, removes, dequeues
    bool preempted = false;     // a running thread went back to its queue
    bool woke = false;          // a joiner or a waiting thread made ready
    unsigned cur_before = 0, cur_after = 0;
};

struct Model {
    unsigned threads, prios;
    std::vector<Rec> rec;
    std::vector<unsigned> free_stack; // freed ids, the last freed on top
    unsigned fresh = 1;               // ids fresh .. threads - 1 were never handed out
    std::vector<std::deque<unsigned>> q;
    unsigned cur = 0;
    uint16_t seq = 0;
    unsigned sched_ops = 0;
    bool preempted = false;

    Model(unsigned t, unsigned p) : threads(t), prios(p), rec(t), q(p) {}

    bool in_range(unsigned tid) const { return tid != 0 && tid < threads; }
    bool live(unsigned tid) const { return in_range(tid) && rec[tid].st != kFree; }
    unsigned cur_prio() const { return cur ? rec[cur].prio : 0; }
    unsigned live_count() const
    {
        unsigned n = 0;
        for (unsigned t = 1; t < threads; ++t)
            n += rec[t].st != kFree;
        return n;
    }
    std::vector<unsigned> in_state(unsigned st) const
    {
        std::vector<unsigned> v;
        for (unsigned t = 1; t < threads; ++t)
            if (rec[t].st == st)
                v.push_back(t);
        return v;
    }
    std::vector<unsigned> live_ids() const
    {
        std::vector<unsigned> v;
        for (unsigned t = 1; t < threads; ++t)
            if (rec[t].st != kFree)
                v.push_back(t);
        return v;
    }
    uint32_t word(unsigned tid) const // a QUERY's answer: TM_REC_*
    {
        const Rec &r = rec[tid];
        if (r.st == kFree)
            return 0;
        return r.st | (r.prio << WEFT_TM_REC_PRIO_SHIFT) | (r.detached ? WEFT_TM_REC_DETACHED : 0) |
               (r.pending ? WEFT_TM_REC_PENDING : 0) | (r.joined ? WEFT_TM_REC_JOINED : 0) |
               (r.joiner << WEFT_TM_REC_JOINER_SHIFT);
    }
    // Whether thread t waits, through a chain of JOINs, for thread target.
    bool joins_into(unsigned t, unsigned target) const
    {
        for (unsigned n = 0; n < threads && t != target; ++n) {
            if (rec[t].st != kJoining)
                return false;
            unsigned next = 0;
            for (unsigned x = 1; x < threads; ++x)
                if (rec[x].joined && rec[x].joiner == t && rec[x].st != kExited &&
                    rec[x].st != kFree)
                    next = x;
            if (next == 0)
                return false;
            t = next;
        }
        return t == target;
    }
    void free_id(unsigned tid)
    {
        rec[tid].st = kFree;
        free_stack.push_back(tid);
    }
    void enqueue(unsigned tid, bool head = false) // to the tail (or head) of its queue
    {
        rec[tid].st = kReady;
        if (head)
            q[rec[tid].prio].push_front(tid);
        else
            q[rec[tid].prio].push_back(tid);
        ++sched_ops;
    }
    void remove(unsigned tid)
    {
        auto &d = q[rec[tid].prio];
        d.erase(std::find(d.begin(), d.end(), tid));
        ++sched_ops;
    }
    int top_prio() const
    {
        for (unsigned p = 0; p < prios; ++p)
            if (!q[p].empty())
                return int(p);
        return -1;
    }
    // The rule: the most urgent ready thread runs if nothing does or it is strictly more
    // urgent; the one it replaces goes to the head of its queue first.
    void dispatch()
    {
        const int p = top_prio();
        if (p < 0 || (cur != 0 && unsigned(p) >= rec[cur].prio))
            return;
        if (cur != 0) {
            enqueue(cur, true);
            preempted = true;
        }
        cur = q[unsigned(p)].front();
        q[unsigned(p)].pop_front();
        ++sched_ops;
        rec[cur].st = kRunning;
    }

    Expect apply(unsigned op, unsigned tid, unsigned arg, bool flag, uint32_t value)
    {
        Expect e;
        e.op = op;
        e.tid = tid;
        e.arg = arg;
        e.flag = flag;
        e.in_value = value;
        e.rtid = tid;
        e.st_before = in_range(tid) && op != kCreate ? rec[tid].st : kFree;
        const unsigned before = cur;
        sched_ops = 0;
        preempted = false;
        Rec *r = in_range(tid) ? &rec[tid] : nullptr;
        const bool bad = !live(tid);
        switch (op) {
        case kCreate:
            if (arg >= prios) {
                e.status = kBadargs;
            } else if (free_stack.empty() && fresh >= threads) {
                e.status = kAgain;
            } else {
                unsigned id;
                if (!free_stack.empty()) {
                    id = free_stack.back();
                    free_stack.pop_back();
                } else {
                    id = fresh++;
                }
                Rec &n = rec[id];
                n = Rec{};
                n.prio = arg;
                n.detached = flag;
                e.rtid = id;
                enqueue(id);
            }
            break;
        case kExit:
            if (bad) {
                e.status = kBadhandle;
            } else if (tid != cur) {
                e.status = kPerm;
            } else {
                r->value = value;
                cur = 0;
                if (r->detached) {
                    free_id(tid);
                } else {
                    r->st = kExited;
                    if (r->joined) {
                        enqueue(r->joiner);
                        e.woke = true;
                    }
                }
            }
            break;
        case kJoin:
            if (bad) {
                e.status = kBadhandle;
            } else if (r->detached || (r->joined && r->joiner != arg)) {
                e.status = kBadargs;
            } else if (r->st == kExited) {
                e.value = r->value;
                free_id(tid);
            } else if (flag) {
                e.status = kBusy;
            } else if (arg != cur || arg == 0) {
                e.status = kPerm;
            } else if (tid == arg) {
                e.status = kBadargs;
            } else {
                r->joined = true;
                r->joiner = arg;
                rec[arg].st = kJoining;
                cur = 0;
                e.blocked = 1;
            }
            break;
        case kDetach:
            if (bad) {
                e.status = kBadhandle;
            } else if (r->detached || r->joined) {
                e.status = kBadargs;
            } else if (r->st == kExited) {
                free_id(tid);
            } else {
                r->detached = true;
            }
            break;
        case kYield:
            if (bad) {
                e.status = kBadhandle;
            } else if (tid == cur) {
                cur = 0;
                enqueue(tid);
            } else if (r->st == kReady) { // overtaken by a preemption: to the tail still
                remove(tid);
                enqueue(tid);
            } else {
                e.status = kPerm;
            }
            break;
        case kWait:
            if (bad) {
                e.status = kBadhandle;
            } else if (tid != cur && r->st != kReady) {
                e.status = kPerm;
            } else if (r->pending) {
                r->pending = false;
            } else if (tid == cur) {
                r->st = kWaiting;
                cur = 0;
                e.blocked = 1;
            } else { // a ready thread leaves its queue
                remove(tid);
                r->st = kWaiting;
                e.blocked = 1;
            }
            break;
        case kSignal:
            if (bad || r->st == kExited) {
                e.status = kBadhandle;
            } else if (r->st == kWaiting) {
                enqueue(tid);
                e.woke = true;
            } else {
                r->pending = true;
            }
            break;
        case kPriority:
            if (arg >= prios) {
                e.status = kBadargs;
            } else if (bad || r->st == kExited) {
                e.status = kBadhandle;
            } else if (r->st == kReady) {
                remove(tid);
                r->prio = arg;
                enqueue(tid);
            } else {
                r->prio = arg;
            }
            break;
        case kQuery:
            if (!in_range(tid))
                e.status = kBadhandle;
            else
                e.value = word(tid);
            break;
        default:
            e.status = kNosys;
            break;
        }
        dispatch();
        e.switched = cur != before;
        e.cur_before = before;
        e.cur_after = cur;
        if (e.switched)
            ++seq;
        e.sched_ops = sched_ops;
        e.preempted = preempted;
        return e;
    }
};

// ---- the bench ---------------------------------------------------------------------------

struct Answer {
    unsigned status = 0, blocked = 0, tid = 0;
    uint32_t value = 0;
    unsigned latency = 0;
};

struct LatStat {
    unsigned min = ~0u, max = 0;
    uint64_t n = 0;
    Expect example; // a command that took the longest
};

struct Outputs {
    unsigned cmd_ready, rsp_valid, rsp_status, rsp_blocked, rsp_tid, ev_ready, ev_done, ev_switched,
        cur_tid, cur_prio, seq, decided, still;
    uint32_t rsp_value;
    bool operator==(const Outputs &o) const
    {
        return std::tie(cmd_ready, rsp_valid, rsp_status, rsp_blocked, rsp_tid, rsp_value, ev_ready,
                        ev_done, ev_switched, cur_tid, cur_prio, seq, decided) ==
               std::tie(o.cmd_ready, o.rsp_valid, o.rsp_status, o.rsp_blocked, o.rsp_tid,
                        o.rsp_value, o.ev_ready, o.ev_done, o.ev_switched, o.cur_tid, o.cur_prio,
                        o.seq, o.decided);
    }
};

template <typename Dut> struct Bench {
    const char *name;
    Model m;
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Dut> dut;
    uint64_t cycle = 0;
    bool trace = std::getenv("TM_TRACE") != nullptr;

    // What is in progress: a command or an event, taken at cycle `taken`.
    enum Kind { kIdle, kCmd, kEv } busy = kIdle;
    Expect exp;
    uint64_t taken = 0;
    // Set by step(): what its edge took, and what answer came after it.
    bool cmd_taken = false, ev_taken = false, answered = false;
    Answer last;                    // the last command's answer
    unsigned last_lat = 0;          // the last answer's latency (a command's or an event's)
    std::vector<unsigned> cur_seen; // cur_tid_o after each edge, while recording
    bool have_last = false;
    bool ev_since_last = false; // an event was served since the last command's answer
    bool stuck = false;

    // Statistics.
    uint64_t commands = 0, events = 0, events_switched = 0, decisions = 0, preemptions = 0,
             wakes = 0, idle_checks = 0, still_edges = 0, resets = 0;
    // cur_tid_o showing neither the decision before nor the one after a command in progress.
    uint64_t glitch_cycles = 0, glitch_cmds = 0, glitch_cmd = ~uint64_t(0);
    std::string glitch_example;
    unsigned max_live = 0, max_ready = 0;
    std::map<unsigned, LatStat> lat_by_op;
    std::map<std::tuple<unsigned, unsigned, unsigned, unsigned, unsigned>, LatStat> lat_by_path;
    std::map<std::pair<unsigned, unsigned>, uint64_t> by_status; // (op, status)

    Bench(const char *n, unsigned threads, unsigned prios, uint32_t seed)
        : name(n), m(threads, prios)
    {
        ctx = std::make_unique<VerilatedContext>();
        ctx->randReset(2); // RAM words start random: the block must not depend on them
        ctx->randSeed(int(seed & 0x7fffffff));
        ctx->fatalOnError(false);
        dut = std::make_unique<Dut>(ctx.get());
        reset();
    }
    ~Bench() { dut->final(); }

    // Reset (asynchronous, possibly in the middle of a command): no thread but the idle
    // one. The RAMs keep what they held: ids handed out before must be FREE again.
    void reset()
    {
        dut->cmd_valid_i = 0;
        dut->ev_valid_i = 0;
        dut->cmd_op_i = 0;
        dut->cmd_tid_i = 0;
        dut->cmd_arg_i = 0;
        dut->cmd_flag_i = 0;
        dut->cmd_value_i = 0;
        dut->ev_tid_i = 0;
        weft_tb::reset_pulse(dut.get());
        CHECK(dut->cur_tid_o == 0 && dut->cur_prio_o == 0 && dut->seq_o == 0 &&
                  dut->decided_o == 0 && dut->rsp_valid_o == 0 && dut->ev_done_o == 0,
              "%s: after reset cur %u prio %u seq %u decided %u rsp_valid %u ev_done %u", name,
              dut->cur_tid_o, dut->cur_prio_o, dut->seq_o, dut->decided_o, dut->rsp_valid_o,
              dut->ev_done_o);
        m = Model(m.threads, m.prios);
        busy = kIdle;
        have_last = false;
        ev_since_last = false;
        ++resets;
    }

    Outputs outputs() const
    {
        return {dut->cmd_ready_o, dut->rsp_valid_o, dut->rsp_status_o, dut->rsp_blocked_o,
                dut->rsp_tid_o,   dut->ev_ready_o,  dut->ev_done_o,    dut->ev_switched_o,
                dut->cur_tid_o,   dut->cur_prio_o,  dut->seq_o,        dut->decided_o,
                dut->still_o,     dut->rsp_value_o};
    }

    void record_latency(const Expect &e, unsigned lat)
    {
        const unsigned op = busy == kEv ? kEvent : e.op;
        LatStat &s = lat_by_op[op];
        if (lat > s.max)
            s.example = e;
        s.min = std::min(s.min, lat);
        s.max = std::max(s.max, lat);
        ++s.n;
        LatStat &p =
            lat_by_path[std::make_tuple(op, e.status, e.blocked, e.st_before, e.sched_ops)];
        if (p.n == 0)
            p.example = e;
        p.min = std::min(p.min, lat);
        p.max = std::max(p.max, lat);
        ++p.n;
    }

    // One clock cycle with the inputs as they are: what the edge takes is given to the
    // model, and the outputs after it are checked.
    void step()
    {
        cmd_taken = ev_taken = answered = false;
        dut->clk_i = 0;
        dut->eval();
        const bool idle = busy == kIdle;
        CHECK(dut->cmd_ready_o == unsigned(idle && !dut->ev_valid_i),
              "%s cycle %" PRIu64 ": cmd_ready_o %u (in progress %d, ev_valid_i %u)", name, cycle,
              dut->cmd_ready_o, int(busy), dut->ev_valid_i);
        CHECK(dut->ev_ready_o == unsigned(idle && dut->ev_valid_i),
              "%s cycle %" PRIu64 ": ev_ready_o %u (in progress %d, ev_valid_i %u)", name, cycle,
              dut->ev_ready_o, int(busy), dut->ev_valid_i);
        const bool still = dut->still_o;
        const Outputs before = outputs();
        if (dut->ev_valid_i && dut->ev_ready_o) {
            ev_taken = true;
            busy = kEv;
            taken = cycle;
            exp = m.apply(kSignal, dut->ev_tid_i, 0, false, 0);
            ++events;
        } else if (dut->cmd_valid_i && dut->cmd_ready_o) {
            cmd_taken = true;
            busy = kCmd;
            taken = cycle;
            exp = m.apply(dut->cmd_op_i, dut->cmd_tid_i, dut->cmd_arg_i, dut->cmd_flag_i,
                          dut->cmd_value_i);
            ++commands;
        }
        CHECK(!still || (!cmd_taken && !ev_taken),
              "%s cycle %" PRIu64 ": still_o high at an edge that takes a command or event", name,
              cycle);
        dut->clk_i = 1;
        dut->eval();
        ++cycle;
        const Outputs o = outputs();
        cur_seen.push_back(dut->cur_tid_o);
        if (still) {
            ++still_edges;
            CHECK(o == before, "%s cycle %" PRIu64 ": an output changed at an edge after still_o",
                  name, cycle);
        }

        bool switched_now = false;
        if (busy == kCmd && dut->rsp_valid_o) {
            answered = true;
            const unsigned lat = unsigned(cycle - taken);
            last = {dut->rsp_status_o, dut->rsp_blocked_o, dut->rsp_tid_o, dut->rsp_value_o, lat};
            have_last = true;
            ev_since_last = false;
            CHECK(last.status == exp.status && last.blocked == exp.blocked &&
                      last.tid == exp.rtid && last.value == exp.value,
                  "%s cycle %" PRIu64 ": %s tid %u arg %u flag %u value 0x%x (thread %s): "
                  "status %u blocked %u tid %u value 0x%08x, model status %u blocked %u tid %u "
                  "value 0x%08x",
                  name, cycle, op_name(exp.op), exp.tid, exp.arg, exp.flag, exp.in_value,
                  state_name(exp.st_before), last.status, last.blocked, last.tid, last.value,
                  exp.status, exp.blocked, exp.rtid, exp.value);
            CHECK(!dut->ev_done_o, "%s cycle %" PRIu64 ": ev_done_o with a command's answer", name,
                  cycle);
            record_latency(exp, lat);
            last_lat = lat;
            by_status[{exp.op, exp.status}]++;
            switched_now = exp.switched;
            busy = kIdle;
        } else if (busy == kEv && dut->ev_done_o) {
            answered = true;
            const unsigned lat = unsigned(cycle - taken);
            CHECK(dut->ev_switched_o == unsigned(exp.switched),
                  "%s cycle %" PRIu64 ": event of thread %u (%s): ev_switched_o %u, model %u", name,
                  cycle, exp.tid, state_name(exp.st_before), dut->ev_switched_o,
                  unsigned(exp.switched));
            CHECK(!dut->rsp_valid_o, "%s cycle %" PRIu64 ": rsp_valid_o with an event's answer",
                  name, cycle);
            record_latency(exp, lat);
            last_lat = lat;
            by_status[{kEvent, exp.status}]++;
            events_switched += exp.switched;
            switched_now = exp.switched;
            ev_since_last = true;
            busy = kIdle;
        } else {
            CHECK(!dut->rsp_valid_o && !dut->ev_done_o,
                  "%s cycle %" PRIu64 ": rsp_valid_o %u ev_done_o %u with %s in progress", name,
                  cycle, dut->rsp_valid_o, dut->ev_done_o,
                  busy == kCmd  ? "a command"
                  : busy == kEv ? "an event"
                                : "nothing");
            if (busy != kIdle && cycle - taken > kTimeout && !stuck) {
                stuck = true;
                CHECK(false, "%s cycle %" PRIu64 ": no answer to %s tid %u %u cycles after it",
                      name, cycle, op_name(busy == kEv ? kEvent : exp.op), exp.tid, kTimeout);
            }
        }
        // The decision on cur_tid_o (what TM_CUR reads) while a command is in progress: the
        // one before it or the one after it, never another (the idle thread in between).
        if ((busy != kIdle || answered) && dut->cur_tid_o != exp.cur_before &&
            dut->cur_tid_o != exp.cur_after) {
            ++glitch_cycles;
            if (glitch_cmd != taken) {
                glitch_cmd = taken;
                ++glitch_cmds;
                if (glitch_example.empty()) {
                    char buf[200];
                    std::snprintf(buf, sizeof buf,
                                  "%s tid %u arg %u (thread %s): cur_tid_o %u %u cycles after the "
                                  "edge that took it; the decision %u before it, %u after",
                                  busy == kEv ? "event SIGNAL" : op_name(exp.op), exp.tid, exp.arg,
                                  state_name(exp.st_before), dut->cur_tid_o,
                                  unsigned(cycle - taken), exp.cur_before, exp.cur_after);
                    glitch_example = buf;
                }
            }
        }
        CHECK(dut->decided_o == unsigned(switched_now),
              "%s cycle %" PRIu64 ": decided_o %u, model %u (%s tid %u%s)", name, cycle,
              dut->decided_o, unsigned(switched_now), op_name(exp.op), exp.tid,
              answered ? ", its answer" : "");
        if (answered) {
            decisions += exp.switched;
            preemptions += exp.preempted;
            wakes += exp.woke;
            max_live = std::max(max_live, m.live_count());
            unsigned ready = 0;
            for (const auto &d : m.q)
                ready += unsigned(d.size());
            max_ready = std::max(max_ready, ready);
            if (trace)
                std::printf("%s %8" PRIu64 ": %-8s tid %3u arg %3u flag %u -> st %u blk %u tid %3u "
                            "val 0x%08x%s | cur %u prio %u seq %u\n",
                            name, cycle,
                            busy == kIdle && ev_since_last && !dut->rsp_valid_o ? "event"
                                                                                : op_name(exp.op),
                            exp.tid, exp.arg, exp.flag, dut->rsp_status_o, dut->rsp_blocked_o,
                            dut->rsp_tid_o, dut->rsp_value_o, exp.switched ? " SWITCH" : "", m.cur,
                            m.cur_prio(), m.seq);
        }
        if (busy == kIdle) {
            ++idle_checks;
            CHECK(dut->cur_tid_o == m.cur && dut->cur_prio_o == m.cur_prio() && dut->seq_o == m.seq,
                  "%s cycle %" PRIu64 ": cur %u prio %u seq %u, model %u %u %u (after %s tid %u)",
                  name, cycle, dut->cur_tid_o, dut->cur_prio_o, dut->seq_o, m.cur, m.cur_prio(),
                  m.seq, op_name(exp.op), exp.tid);
            if (have_last) {
                const bool same = dut->rsp_status_o == last.status &&
                                  dut->rsp_blocked_o == last.blocked &&
                                  dut->rsp_tid_o == last.tid && dut->rsp_value_o == last.value;
                // The port's header: the rsp_* fields hold until the next answer, whatever
                // events come between.
                (void)ev_since_last;
                CHECK(same,
                      "%s cycle %" PRIu64 ": rsp_* changed since the last answer: status %u "
                      "blocked %u tid %u value 0x%x, answered %u %u %u 0x%x",
                      name, cycle, dut->rsp_status_o, dut->rsp_blocked_o, dut->rsp_tid_o,
                      dut->rsp_value_o, last.status, last.blocked, last.tid, last.value);
            }
        }
    }

    void settle()
    {
        while (busy != kIdle && !stuck)
            step();
    }

    // One command on the port, after anything in progress; its answer (checked against the
    // model by step()).
    Answer command(unsigned op, unsigned tid, unsigned arg = 0, bool flag = false,
                   uint32_t value = 0)
    {
        dut->cmd_valid_i = 1;
        dut->cmd_op_i = op;
        dut->cmd_tid_i = tid;
        dut->cmd_arg_i = arg;
        dut->cmd_flag_i = flag;
        dut->cmd_value_i = value;
        do
            step();
        while (!cmd_taken && !stuck);
        dut->cmd_valid_i = 0;
        settle();
        return last;
    }
    // An event (SIGNAL tid) and its answer: whether it switched.
    bool event(unsigned tid)
    {
        dut->ev_valid_i = 1;
        dut->ev_tid_i = tid;
        do
            step();
        while (!ev_taken && !stuck);
        dut->ev_valid_i = 0;
        settle();
        return exp.switched;
    }
    void idle(unsigned n)
    {
        for (unsigned i = 0; i < n; ++i)
            step();
    }
};

// Expected results written out by hand, besides the model's: an answer's status (and
// thread, value) and the decision after it.
template <typename B>
void expect(B &b, const Answer &a, unsigned status, int tid, unsigned cur, const char *what,
            int64_t value = -1)
{
    CHECK(a.status == status && (tid < 0 || a.tid == unsigned(tid)) &&
              (value < 0 || a.value == uint32_t(value)) && b.dut->cur_tid_o == cur,
          "%s: %s: status %u tid %u value 0x%x cur %u, expected status %u tid %d value 0x%" PRIx64
          " cur %u",
          b.name, what, a.status, a.tid, a.value, b.dut->cur_tid_o, status, tid, uint64_t(value),
          cur);
}

// ---- directed scenarios --------------------------------------------------------------------

// Reset: no thread; QUERY of every id; bad op codes; nothing to EXIT, YIELD or WAIT.
template <typename Dut> void scenario_reset(const char *name, unsigned threads, unsigned prios)
{
    Bench<Dut> b(name, threads, prios, 0x7e570001u);
    b.idle(3);
    for (unsigned t = 0; t < 256; ++t) {
        if (t > threads + 2 && t != 255)
            continue;
        Answer a = b.command(kQuery, t);
        const bool ok = t != 0 && t < threads;
        expect(b, a, ok ? kOk : kBadhandle, int(t), 0, "QUERY after reset", 0);
    }
    for (unsigned op = 9; op < 16; ++op)
        expect(b, b.command(op, 1, 2, true, 3), kNosys, 1, 0, "unknown op");
    expect(b, b.command(kExit, 1), kBadhandle, 1, 0, "EXIT of a free id");
    expect(b, b.command(kYield, 0), kBadhandle, 0, 0, "YIELD of thread 0");
    expect(b, b.command(kWait, threads - 1), kBadhandle, int(threads - 1), 0, "WAIT, free id");
    expect(b, b.command(kSignal, 1), kBadhandle, 1, 0, "SIGNAL of a free id");
    expect(b, b.command(kJoin, 1, 0, true), kBadhandle, 1, 0, "JOIN of a free id");
    expect(b, b.command(kDetach, 1), kBadhandle, 1, 0, "DETACH of a free id");
    expect(b, b.command(kPriority, 1, 0), kBadhandle, 1, 0, "PRIORITY of a free id");
    expect(b, b.command(kPriority, 1, prios), kBadargs, 1, 0, "PRIORITY out of range");
    expect(b, b.command(kCreate, 7, prios), kBadargs, 7, 0, "CREATE, priority out of range");
    CHECK(b.dut->seq_o == 0, "%s: seq %u after commands that decide nothing", name, b.dut->seq_o);
    expect(b, b.command(kQuery, 255), 255 < threads ? kOk : kBadhandle, 255, 0, "QUERY 255", 0);
    b.event(1);
    b.event(0);
    CHECK(b.dut->seq_o == 0, "%s: seq %u after events that decide nothing", name, b.dut->seq_o);
}

// Ids: a counter from 1, then the freed ids last freed first; AGAIN when none is left.
void scenario_ids_small()
{
    Bench<Vweft_tm_small> b("ids 5x3", 5, 3, 0x7e570002u);
    // 1 runs at once (the idle thread ran); 2, 3, 4 queue behind it at the same priority.
    for (unsigned i = 1; i <= 4; ++i)
        expect(b, b.command(kCreate, 0, 2), kOk, int(i), 1, "CREATE while ids last");
    CHECK(b.dut->seq_o == 1, "ids: seq %u, expected 1", b.dut->seq_o);
    expect(b, b.command(kCreate, 9, 0), kAgain, 9, 1, "CREATE with no id left");
    expect(b, b.command(kCreate, 9, 3), kBadargs, 9, 1, "CREATE, bad priority, no id left");
    expect(b, b.command(kQuery, 1), kOk, 1, 1, "QUERY running", kRunning | (2u << 8));
    expect(b, b.command(kQuery, 2), kOk, 2, 1, "QUERY ready", kReady | (2u << 8));
    // 1 exits (not detached: EXITED), 2 runs and reaps it; 2 exits, 3 reaps it.
    expect(b, b.command(kExit, 1, 0, false, 0x11111111u), kOk, 1, 2, "EXIT 1");
    expect(b, b.command(kQuery, 1), kOk, 1, 2, "QUERY exited", kExited | (2u << 8));
    expect(b, b.command(kCreate, 0, 1), kAgain, 0, 2, "CREATE: EXITED ids are not free");
    expect(b, b.command(kJoin, 1, 2), kOk, 1, 2, "JOIN of an exited thread", 0x11111111);
    expect(b, b.command(kQuery, 1), kOk, 1, 2, "QUERY joined", 0);
    expect(b, b.command(kJoin, 1, 2), kBadhandle, 1, 2, "JOIN twice");
    expect(b, b.command(kExit, 2, 0, false, 0x22222222u), kOk, 2, 3, "EXIT 2");
    expect(b, b.command(kJoin, 2, 3, true), kOk, 2, 3, "TRY JOIN of an exited thread", 0x22222222);
    // Free: 1 then 2 (2 on top). A new thread at priority 1 preempts 3.
    expect(b, b.command(kCreate, 0, 2, true), kOk, 2, 3, "CREATE reuses the last freed id");
    expect(b, b.command(kCreate, 0, 1), kOk, 1, 1, "CREATE reuses, preempts");
    expect(b, b.command(kCreate, 0, 1), kAgain, 0, 1, "CREATE, none left");
    expect(b, b.command(kQuery, 2), kOk, 2, 1, "QUERY detached",
           kReady | (2u << 8) | WEFT_TM_REC_DETACHED);
    // 1 exits; 3 (preempted to the head of its queue) runs before 4 and 2, then yields
    // to 4, which yields to 2.
    expect(b, b.command(kExit, 1, 0, false, 5), kOk, 1, 3, "EXIT 1 again: the preempted 3");
    expect(b, b.command(kYield, 3), kOk, 3, 4, "YIELD 3");
    expect(b, b.command(kYield, 4), kOk, 4, 2, "YIELD 4");
    // 2 is detached: its EXIT frees its id at once.
    expect(b, b.command(kExit, 2), kOk, 2, 3, "EXIT detached");
    expect(b, b.command(kQuery, 2), kOk, 2, 3, "QUERY freed", 0);
    expect(b, b.command(kCreate, 0, 0), kOk, 2, 2, "CREATE reuses the detached id");
    expect(b, b.command(kDetach, 1), kOk, 1, 2, "DETACH an exited thread frees it");
    expect(b, b.command(kCreate, 0, 2), kOk, 1, 2, "CREATE reuses it");
    expect(b, b.command(kCreate, 0, 2), kAgain, 0, 2, "CREATE, none left again");
}

// Preemption: a more urgent thread runs at once and the running one goes to the HEAD of
// its queue (it runs again before the others of its priority); equal priority does not
// preempt; YIELD goes round; PRIORITY moves a ready thread to the tail of its new queue
// and may preempt the running one, which goes to the head of its new queue.
template <typename Dut> void scenario_sched(const char *name, unsigned threads, unsigned prios)
{
    Bench<Dut> b(name, threads, prios, 0x7e570003u);
    const unsigned lo = prios - 1, hi = prios - 2;
    expect(b, b.command(kCreate, 0, lo), kOk, 1, 1, "CREATE A (low)");
    expect(b, b.command(kCreate, 0, lo), kOk, 2, 1, "CREATE B (low): no preemption");
    expect(b, b.command(kCreate, 0, hi), kOk, 3, 3, "CREATE C (high): preempts A");
    // The queue at lo is A, B now: C's exit runs A first.
    expect(b, b.command(kExit, 3, 0, false, 33), kOk, 3, 1, "EXIT C: A runs (at the head)");
    expect(b, b.command(kJoin, 3, 1), kOk, 3, 1, "JOIN C", 33);
    expect(b, b.command(kYield, 1), kOk, 1, 2, "YIELD A: B");
    expect(b, b.command(kYield, 2), kOk, 2, 1, "YIELD B: A");
    expect(b, b.command(kYield, 2), kOk, 2, 1, "YIELD of a ready thread: to the tail");
    expect(b, b.command(kExit, 2), kPerm, 2, 1, "EXIT of a thread not running");
    // WAIT of a ready thread (a kernel suspends it): out of its queue, no decision.
    Answer w = b.command(kWait, 2);
    expect(b, w, kOk, 2, 1, "WAIT of a ready thread");
    CHECK(w.blocked == 1, "%s: WAIT of a ready thread not answered blocked", name);
    expect(b, b.command(kQuery, 2), kOk, 2, 1, "QUERY it: waiting", kWaiting | (lo << 8));
    expect(b, b.command(kSignal, 2), kOk, 2, 1, "SIGNAL it: ready again, no preemption");
    // Raising a ready thread above the running one preempts it.
    expect(b, b.command(kPriority, 2, hi), kOk, 2, 2, "PRIORITY B up: preempts A");
    expect(b, b.command(kQuery, 1), kOk, 1, 2, "QUERY A", kReady | (lo << 8));
    expect(b, b.command(kPriority, 1, hi), kOk, 1, 2, "PRIORITY A up to B's: no preemption");
    // Lowering the running thread below a ready one: it goes to the head of its new
    // queue, A runs.
    expect(b, b.command(kPriority, 2, lo), kOk, 2, 1, "PRIORITY B down: A runs");
    CHECK(b.dut->cur_prio_o == hi, "%s: cur_prio %u, expected %u", name, b.dut->cur_prio_o, hi);
    expect(b, b.command(kPriority, 1, 0), kOk, 1, 1, "PRIORITY of the running thread up");
    CHECK(b.dut->cur_prio_o == 0, "%s: cur_prio %u, expected 0", name, b.dut->cur_prio_o);
    const unsigned seq = b.dut->seq_o;
    expect(b, b.command(kYield, 1), kOk, 1, 1, "YIELD alone at its priority: runs again");
    CHECK(b.dut->seq_o == seq, "%s: seq %u after a YIELD that changed nothing, was %u", name,
          b.dut->seq_o, seq);
    // A ready thread moved to another queue goes to its tail; a preempted one to the head.
    expect(b, b.command(kCreate, 0, lo), kOk, 3, 1, "CREATE D (low): behind B");
    expect(b, b.command(kCreate, 0, hi), kOk, 4, 1, "CREATE E (high)");
    expect(b, b.command(kPriority, 3, hi), kOk, 3, 1, "PRIORITY D to high: behind E");
    expect(b, b.command(kPriority, 1, lo), kOk, 1, 4, "PRIORITY A down: E runs, not D");
    expect(b, b.command(kPriority, 4, hi), kOk, 4, 4, "PRIORITY to the same: stays");
    expect(b, b.command(kYield, 4), kOk, 4, 3, "YIELD E: D");
    expect(b, b.command(kQuery, 2), kOk, 2, 3, "QUERY B", kReady | (lo << 8));
    // At lo: A (preempted, at the head), then B, which was preempted before A was.
    expect(b, b.command(kExit, 3), kOk, 3, 4, "EXIT D: E");
    expect(b, b.command(kExit, 4), kOk, 4, 1, "EXIT E: A, at the head of lo");
    expect(b, b.command(kYield, 1), kOk, 1, 2, "YIELD A: B");
}

// WAIT, SIGNAL and events; JOIN, DETACH; events before commands.
template <typename Dut> void scenario_sync(const char *name, unsigned threads, unsigned prios)
{
    Bench<Dut> b(name, threads, prios, 0x7e570004u);
    const unsigned lo = prios - 1, hi = 0;
    expect(b, b.command(kCreate, 0, lo), kOk, 1, 1, "CREATE A (low)");
    expect(b, b.command(kCreate, 0, hi), kOk, 2, 2, "CREATE B (high)");
    Answer a = b.command(kWait, 2);
    expect(b, a, kOk, 2, 1, "WAIT B: A runs");
    CHECK(a.blocked == 1, "%s: WAIT not answered blocked", name);
    expect(b, b.command(kQuery, 2), kOk, 2, 1, "QUERY waiting", kWaiting);
    expect(b, b.command(kSignal, 2), kOk, 2, 2, "SIGNAL B: preempts A");
    // SIGNAL of a thread not waiting: pending, one at most; WAIT takes it without blocking.
    expect(b, b.command(kSignal, 2), kOk, 2, 2, "SIGNAL B running");
    expect(b, b.command(kSignal, 1), kOk, 1, 2, "SIGNAL A ready");
    expect(b, b.command(kSignal, 1), kOk, 1, 2, "SIGNAL A again");
    expect(b, b.command(kQuery, 1), kOk, 1, 2, "QUERY pending",
           kReady | (lo << 8) | WEFT_TM_REC_PENDING);
    a = b.command(kWait, 2);
    expect(b, a, kOk, 2, 2, "WAIT with an event pending");
    CHECK(a.blocked == 0, "%s: WAIT with an event pending answered blocked", name);
    expect(b, b.command(kWait, 2), kOk, 2, 1, "WAIT B again: blocks");
    expect(b, b.command(kWait, 1), kOk, 1, 1, "WAIT A, pending once");
    expect(b, b.command(kWait, 1), kOk, 1, 0, "WAIT A: blocks, idle");
    CHECK(b.event(1), "%s: event of a waiting thread with the idle thread running: no switch",
          name);
    CHECK(b.dut->cur_tid_o == 1, "%s: cur %u after the event", name, b.dut->cur_tid_o);
    CHECK(!b.event(1), "%s: event of the running thread switched", name);
    CHECK(b.event(2), "%s: event of a waiting, more urgent thread: no switch", name);
    CHECK(!b.event(0) && !b.event(255) && !b.event(threads - 1), "%s: bad event switched", name);
    // JOIN: B (running) joins A: blocks; A exits: B ready again, runs, joins again: value.
    a = b.command(kJoin, 1, 2);
    expect(b, a, kOk, 1, 1, "JOIN A by B: blocks");
    CHECK(a.blocked == 1, "%s: JOIN not answered blocked", name);
    expect(b, b.command(kQuery, 2), kOk, 2, 1, "QUERY joining", kJoining);
    expect(b, b.command(kQuery, 1), kOk, 1, 1, "QUERY joined",
           kRunning | (lo << 8) | WEFT_TM_REC_PENDING | WEFT_TM_REC_JOINED | (2u << 24));
    expect(b, b.command(kDetach, 1), kBadargs, 1, 1, "DETACH a joined thread");
    expect(b, b.command(kSignal, 2), kOk, 2, 1, "SIGNAL a joining thread: pending");
    expect(b, b.command(kExit, 1, 0, false, 0xabcdef01u), kOk, 1, 2, "EXIT A: B runs");
    expect(b, b.command(kJoin, 1, 3, true), kBadargs, 1, 2, "TRY JOIN by another");
    expect(b, b.command(kJoin, 1, 2), kOk, 1, 2, "JOIN A again", 0xabcdef01);
    // TRY, PERM, self join, detached.
    expect(b, b.command(kCreate, 0, lo), kOk, -1, 2, "CREATE C (low)");
    const unsigned c = b.last.tid;
    expect(b, b.command(kJoin, c, 2, true), kBusy, int(c), 2, "TRY JOIN of a live thread");
    expect(b, b.command(kJoin, c, c), kPerm, int(c), 2, "JOIN by a thread not running");
    expect(b, b.command(kJoin, c, 0), kPerm, int(c), 2, "JOIN by the idle thread");
    expect(b, b.command(kJoin, 2, 2), kBadargs, 2, 2, "JOIN of itself");
    expect(b, b.command(kDetach, c), kOk, int(c), 2, "DETACH C");
    expect(b, b.command(kDetach, c), kBadargs, int(c), 2, "DETACH twice");
    expect(b, b.command(kJoin, c, 2), kBadargs, int(c), 2, "JOIN of a detached thread");
    // An event waiting goes before a command presented in the same cycle.
    expect(b, b.command(kWait, 2), kOk, 2, 2, "WAIT B: its event was pending");
    expect(b, b.command(kWait, 2), kOk, 2, c, "WAIT B: blocks");
    b.dut->ev_valid_i = 1;
    b.dut->ev_tid_i = 2;
    b.dut->cmd_valid_i = 1;
    b.dut->cmd_op_i = kQuery;
    b.dut->cmd_tid_i = 2;
    b.step();
    CHECK(b.ev_taken && !b.cmd_taken, "%s: event and command together: event %d command %d", name,
          b.ev_taken, b.cmd_taken);
    b.dut->ev_valid_i = 0;
    while (!b.cmd_taken && !b.stuck)
        b.step();
    b.dut->cmd_valid_i = 0;
    b.settle();
    expect(b, b.last, kOk, 2, 2, "QUERY after the event", kRunning);
    // EXIT of the joined-by-nobody, detached running thread C later: freed at once.
    expect(b, b.command(kPriority, c, 0), kOk, int(c), 2, "PRIORITY C up (equal: no switch)");
    expect(b, b.command(kYield, 2), kOk, 2, c, "YIELD B: C");
    expect(b, b.command(kExit, c), kOk, int(c), 2, "EXIT C (detached)");
    expect(b, b.command(kQuery, c), kOk, int(c), 2, "QUERY freed C", 0);
}

// seq_o counts decisions and wraps at 16 bits: two threads at one priority yield to each
// other 65,600 times, each time a new decision.
void scenario_seq_wrap()
{
    Bench<Vweft_tm_small> b("seq 5x3", 5, 3, 0x7e570005u);
    expect(b, b.command(kCreate, 0, 1), kOk, 1, 1, "CREATE A");
    expect(b, b.command(kCreate, 0, 1), kOk, 2, 1, "CREATE B");
    unsigned cur = 1, wrapped = 0;
    for (unsigned i = 0; i < 65600 && !b.stuck && weft_tb::failures < 30; ++i) {
        const unsigned before = b.dut->seq_o;
        b.command(kYield, cur);
        cur = 3 - cur;
        CHECK(b.dut->cur_tid_o == cur && b.dut->seq_o == ((before + 1) & 0xffff),
              "seq: YIELD %u: cur %u seq %u, expected %u %u", i, b.dut->cur_tid_o, b.dut->seq_o,
              cur, (before + 1) & 0xffff);
        wrapped += b.dut->seq_o == 0;
    }
    CHECK(wrapped == 1, "seq: wrapped %u times in 65,600 decisions", wrapped);
}

// The longest paths one by one, with their latency, and what cur_tid_o (TM_CUR) shows
// while each is in progress: printed, as reproductions; the random traffic checks them.
void scenario_paths()
{
    Bench<Vweft_tm_full> b("paths 256x128", 256, 128, 0x7e570006u);
    std::printf("paths (256x128): cycles from the edge that takes it to its answer, inclusive, "
                "and cur_tid_o after each edge\n");
    auto show = [&](const char *what) {
        std::string seq;
        unsigned prev = ~0u, n = 0;
        for (size_t i = 0; i <= b.cur_seen.size(); ++i) {
            if (i < b.cur_seen.size() && b.cur_seen[i] == prev) {
                ++n;
                continue;
            }
            if (n)
                seq += std::to_string(prev) + (n > 1 ? "x" + std::to_string(n) : "") + " ";
            if (i < b.cur_seen.size()) {
                prev = b.cur_seen[i];
                n = 1;
            }
        }
        std::printf("  %-58s %2u  cur: %s\n", what, b.last_lat, seq.c_str());
    };
    auto cmd = [&](const char *what, unsigned op, unsigned tid, unsigned arg) {
        b.idle(1);
        b.cur_seen.clear();
        b.command(op, tid, arg);
        show(what);
    };
    cmd("CREATE A at priority 1, the idle thread runs: A runs", kCreate, 0, 1);
    cmd("CREATE B at priority 0 while A runs: B preempts A", kCreate, 0, 0);
    cmd("WAIT B: A runs", kWait, 2, 0);
    cmd("SIGNAL B: B preempts A", kSignal, 2, 0);
    cmd("WAIT B: A runs", kWait, 2, 0);
    b.idle(1);
    b.cur_seen.clear();
    b.event(2);
    show("event for B: B preempts A");
    cmd("WAIT B: A runs", kWait, 2, 0);
    cmd("CREATE C at priority 1: ready behind A", kCreate, 0, 1);
    cmd("PRIORITY C 0: ready, to priority 0's queue, preempts A", kPriority, 3, 0);
    cmd("YIELD C, alone at priority 0: C again", kYield, 3, 0);
    cmd("JOIN A by C: C waits, A runs", kJoin, 1, 3);
    cmd("EXIT A: C ready again, preempts", kExit, 1, 0);
    cmd("PRIORITY C 2, running, nothing ready: C stays", kPriority, 3, 2);
}

// ---- random traffic ----------------------------------------------------------------------

template <typename Dut>
void random_traffic(const char *name, unsigned threads, unsigned prios, unsigned ncmds,
                    uint32_t seed)
{
    Bench<Dut> b(name, threads, prios, seed);
    std::mt19937 rng(seed);
    const int failures0 = weft_tb::failures;
    const unsigned reset_every = 25000;
    auto any = [&](const std::vector<unsigned> &v, unsigned dflt) {
        return v.empty() ? dflt : v[rng() % v.size()];
    };
    auto rand_id = [&]() { return rng() % 8 == 0 ? rng() % 256 : rng() % threads; };
    auto rand_prio = [&]() { return rng() % 16 == 0 ? rng() % 256 : rng() % prios; };
    const unsigned ev_rate = 4; // percent of cycles an event comes, when none waits

    // The event line: held until taken.
    auto maybe_event = [&]() {
        if (b.dut->ev_valid_i || rng() % 100 >= ev_rate)
            return;
        const unsigned r = rng() % 10;
        const Model &m = b.m;
        b.dut->ev_tid_i = r < 6   ? any(m.in_state(kWaiting), rand_id())
                          : r < 9 ? any(m.live_ids(), rand_id())
                                  : rand_id();
        b.dut->ev_valid_i = 1;
    };
    auto cycle = [&]() {
        maybe_event();
        b.step();
        if (b.ev_taken) {
            b.dut->ev_valid_i = 0;
            b.dut->ev_tid_i = rng();
        }
    };

    for (unsigned i = 0; i < ncmds && weft_tb::failures == failures0 && !b.stuck; ++i) {
        // Phases that fill (more CREATEs) and drain (more EXITs and JOINs).
        const bool filling = (i / 3000) % 2 == 0;
        const Model &m = b.m;
        const unsigned cur = m.cur;
        unsigned op, tid = 0, arg = 0;
        bool flag = false;
        // Weights that follow the state: CREATE while ids are left, EXIT, YIELD and WAIT
        // while a thread runs, SIGNAL while one waits, JOIN and DETACH (which free ids)
        // while some have exited; every op now and then whatever the state.
        const bool ids_left = !m.free_stack.empty() || m.fresh < threads;
        const bool waiting = !m.in_state(kWaiting).empty();
        const bool exited = !m.in_state(kExited).empty();
        enum { wCreate, wExit, wJoin, wDetach, wYield, wWait, wSignal, wPrio, wQuery, wBad, wAny };
        const unsigned w[] = {ids_left ? (filling ? 24u : 8u) : 2u,
                              cur ? (filling ? 6u : 14u) : 1u,
                              exited ? 16u : 8u,
                              exited ? 6u : 3u,
                              cur ? 10u : 1u,
                              cur ? 8u : 1u,
                              waiting ? 12u : 2u,
                              8,
                              5,
                              2,
                              3};
        unsigned total = 0;
        for (unsigned x : w)
            total += x;
        unsigned r = rng() % total, pick = 0;
        while (r >= w[pick])
            r -= w[pick++];
        switch (pick) {
        case wCreate:
            op = kCreate;
            tid = rng() % 256;
            arg = rand_prio();
            flag = rng() % 3 == 0;
            break;
        case wExit:
            op = kExit;
            tid = rng() % 10 ? cur : rand_id();
            break;
        case wJoin: {
            op = kJoin;
            const unsigned s = rng() % 10;
            tid = s < 5   ? any(m.in_state(kExited), rand_id())
                  : s < 9 ? any(m.live_ids(), rand_id())
                          : rand_id();
            // Mostly not a thread that (through others) joins the running one: a cycle of
            // joins never ends, and its ids are lost until the next reset.
            if (cur && m.live(tid) && m.joins_into(tid, cur) && rng() % 16)
                tid = rand_id();
            flag = rng() % 5 == 0;
            arg = rng() % 8 ? cur : rand_id();
            if (m.live(tid) && m.rec[tid].joined && rng() % 4)
                arg = m.rec[tid].joiner;
            break;
        }
        case wDetach:
            op = kDetach;
            tid = rng() % 2 ? any(m.in_state(kExited), rand_id()) : any(m.live_ids(), rand_id());
            break;
        case wYield: {
            op = kYield;
            const unsigned s = rng() % 10;
            tid = s < 7 ? cur : s < 9 ? any(m.in_state(kReady), rand_id()) : rand_id();
            break;
        }
        case wWait: {
            op = kWait;
            const unsigned s = rng() % 10;
            tid = s < 6 ? cur : s < 9 ? any(m.in_state(kReady), rand_id()) : rand_id();
            break;
        }
        case wSignal:
            op = kSignal;
            tid = rng() % 10 < 7 ? any(m.in_state(kWaiting), rand_id()) : rand_id();
            break;
        case wPrio:
            op = kPriority;
            tid = rng() % 10 < 8 ? any(m.live_ids(), rand_id()) : rand_id();
            arg = rand_prio();
            break;
        case wQuery:
            op = kQuery;
            tid = rng() % 4 ? any(m.live_ids(), rand_id()) : rand_id();
            break;
        case wBad:
            op = 9 + rng() % 7;
            tid = rand_id();
            arg = rng() % 256;
            flag = rng() % 2;
            break;
        default: // anything at all
            op = rng() % 9;
            tid = rng() % 4 ? rand_id() : rng() % 256;
            arg = rng() % 2 ? rand_prio() : rand_id();
            flag = rng() % 2;
            break;
        }
        // Now and then a reset, in the middle of a command or not.
        if (i % reset_every == reset_every - 1 && i + 1 < ncmds) {
            for (unsigned n = rng() % 12; n > 0; --n)
                cycle();
            b.reset();
        }
        // The gap before it; with gap 0 it may wait while the last one is in progress.
        for (unsigned gap = rng() % 4 == 0 ? rng() % 6 : 0; gap > 0; --gap)
            cycle();
        b.dut->cmd_valid_i = 1;
        b.dut->cmd_op_i = op;
        b.dut->cmd_tid_i = tid;
        b.dut->cmd_arg_i = arg;
        b.dut->cmd_flag_i = flag;
        b.dut->cmd_value_i = rng();
        do
            cycle();
        while (!b.cmd_taken && !b.stuck);
        // Once taken, the port's fields mean nothing.
        b.dut->cmd_valid_i = 0;
        b.dut->cmd_op_i = rng();
        b.dut->cmd_tid_i = rng();
        b.dut->cmd_arg_i = rng();
        b.dut->cmd_flag_i = rng();
        b.dut->cmd_value_i = rng();
        if (rng() % 2)
            while (b.busy != Bench<Dut>::kIdle && !b.stuck)
                cycle();
    }
    while ((b.busy != Bench<Dut>::kIdle || b.dut->ev_valid_i) && !b.stuck)
        b.step(), b.dut->ev_valid_i = b.ev_taken ? 0 : b.dut->ev_valid_i;
    b.idle(10);

    std::printf("%s: %" PRIu64 " commands and %" PRIu64
                " events checked against the model (%" PRIu64 " cycles, %" PRIu64
                " idle-cycle checks of the decision, %" PRIu64 " still_o edges, %" PRIu64
                " resets)\n",
                name, b.commands, b.events, b.cycle, b.idle_checks, b.still_edges, b.resets);
    std::printf("  decisions %" PRIu64 " (seq %u), preemptions %" PRIu64 ", threads woken %" PRIu64
                ", events that switched %" PRIu64 ", most threads alive %u, most ready %u\n",
                b.decisions, b.dut->seq_o, b.preemptions, b.wakes, b.events_switched, b.max_live,
                b.max_ready);
    std::printf("  %-8s %8s  %s\n", "op", "count",
                "statuses (OK NOSYS BADHANDLE . BADARGS BUSY "
                "AGAIN PERM)");
    for (unsigned op = 0; op <= kEvent; ++op) {
        if (op > 9 && op < kEvent)
            continue;
        uint64_t n[8] = {}, tot = 0;
        for (const auto &kv : b.by_status)
            if (kv.first.first == op || (op == 9 && kv.first.first >= 9 && kv.first.first < 16)) {
                n[kv.first.second & 7] += kv.second;
                tot += kv.second;
            }
        std::printf("  %-8s %8" PRIu64 "  %" PRIu64 " %" PRIu64 " %" PRIu64 " . %" PRIu64
                    " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                    op == 9 ? "op 9-15" : op_name(op), tot, n[0], n[1], n[2], n[4], n[5], n[6],
                    n[7]);
    }
    std::printf("  latency (cycles from the edge that takes it to its answer, inclusive):\n");
    for (const auto &kv : b.lat_by_op) {
        const LatStat &s = kv.second;
        std::printf("    %-8s min %2u max %2u (%" PRIu64 " answers)%s\n", op_name(kv.first), s.min,
                    s.max, s.n, s.max > kMaxLatency ? "  over 33" : "");
        CHECK(s.max <= kMaxLatency,
              "%s: %s answered %u cycles after it was taken (at most %u): %s tid %u arg %u "
              "(thread %s) status %u, %u scheduler operations%s",
              name, op_name(kv.first), s.max, kMaxLatency, op_name(s.example.op), s.example.tid,
              s.example.arg, state_name(s.example.st_before), s.example.status, s.example.sched_ops,
              s.example.preempted ? ", a preemption" : "");
    }
    for (const auto &kv : b.lat_by_path) {
        const LatStat &s = kv.second;
        const Expect &e = s.example;
        if (s.max > kMaxLatency)
            std::printf("    over %u: %s, thread %s, status %u, %u scheduler operations%s%s: %u "
                        "cycles (e.g. tid %u arg %u)\n",
                        kMaxLatency, op_name(std::get<0>(kv.first)), state_name(e.st_before),
                        e.status, e.sched_ops, e.preempted ? " (a preemption)" : "",
                        e.woke ? " (a thread woken)" : "", s.max, e.tid, e.arg);
    }
    if (std::getenv("TM_PATHS"))
        for (const auto &kv : b.lat_by_path) {
            const Expect &e = kv.second.example;
            std::printf("    path %-8s thread %-7s status %u blocked %u, %u scheduler ops%s%s%s: "
                        "%u..%u cycles (%" PRIu64 ")\n",
                        op_name(std::get<0>(kv.first)), state_name(e.st_before), e.status,
                        e.blocked, e.sched_ops, e.preempted ? ", preemption" : "",
                        e.woke ? ", wakes a thread" : "", e.switched ? ", switch" : "",
                        kv.second.min, kv.second.max, kv.second.n);
        }
    unsigned varying = 0;
    for (const auto &kv : b.lat_by_path) {
        const LatStat &s = kv.second;
        if (s.min != s.max && varying++ < 5)
            std::printf("  path %s status %u blocked %u thread %s, %u scheduler ops: %u to %u "
                        "cycles\n",
                        op_name(std::get<0>(kv.first)), std::get<1>(kv.first),
                        std::get<2>(kv.first), state_name(std::get<3>(kv.first)),
                        std::get<4>(kv.first), s.min, s.max);
    }
    CHECK(varying == 0, "%s: %u paths whose latency varies", name, varying);
    std::printf("  %zu paths, each of one latency whatever the number of threads\n",
                b.lat_by_path.size());
    std::printf("  cur_tid_o during a command: neither the decision before nor after it in %" PRIu64
                " cycles of %" PRIu64 " commands/events\n",
                b.glitch_cycles, b.glitch_cmds);
    CHECK(b.glitch_cmds == 0,
          "%s: cur_tid_o (TM_CUR) showed a thread that was never the decision during %" PRIu64
          " commands/events, e.g. %s",
          name, b.glitch_cmds, b.glitch_example.c_str());
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // in order with the FAIL lines on stderr
    scenario_reset<Vweft_tm_small>("reset 5x3", 5, 3);
    scenario_reset<Vweft_tm_full>("reset 256x128", 256, 128);
    scenario_ids_small();
    scenario_sched<Vweft_tm_small>("sched 5x3", 5, 3);
    scenario_sched<Vweft_tm_full>("sched 256x128", 256, 128);
    scenario_sync<Vweft_tm_small>("sync 5x3", 5, 3);
    scenario_sync<Vweft_tm_full>("sync 256x128", 256, 128);
    scenario_seq_wrap();
    scenario_paths();
    std::printf("directed scenarios: %s\n", weft_tb::failures ? "FAIL" : "pass");
    random_traffic<Vweft_tm_small>("tm 5x3", 5, 3, 200000, 0x7e5a0001u);
    random_traffic<Vweft_tm_full>("tm 256x128", 256, 128, 200000, 0x7e5a0002u);
    std::printf("tb_rtl_tm: %s\n", weft_tb::failures ? "FAIL" : "PASS");
    return weft_tb::failures ? 1 : 0;
}

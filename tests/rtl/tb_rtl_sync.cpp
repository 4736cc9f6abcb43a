// Self-checking test bench of weft_sync (hw/rtl/weft_sync.sv), the synchronisation
// manager: hardware mutexes, counting semaphores and condition variables shared by
// clients, served by an engine over tables one event at a time.
//
// The reference is a model of the specification in the module's header comment, kept
// cycle by cycle. Per object: its type, kind, inheritance, count or depth, maximum,
// holder and a condition's mutex. Per client: idle, blocked on an object (a condition
// wait, timed or not, with its deadline on the shared microsecond counter and whether
// the timeout scan found it passed) or retaking a mutex after a condition wait (which no
// timeout or cancel ends); its arrival among the waiters, its registered priority and
// effective priority; reset (no call taken until the scan of the objects is over). The
// engine: SELECT (round robin, weft_rr_arbiter; a reap of the reset scan first; cancel_i
// latched), READ (who waits on the objects the event names and the most urgent of them,
// registered, with the effective priorities of that cycle), EXECUTE (the decision, from
// the tables as they are then); a configuration is checked in its cycle and written at
// the next edge, and an event in READ or EXECUTE in either cycle reads again, as does one
// in EXECUTE when a waiter READ registered is being reset; a call whose client is reset
// between its selection and its execution is dropped. Timeouts: a microsecond counter
// (with its prescaler) that runs only while a wait counts, a deadline of now + t + 1 set
// when a timed call blocks, a scan of one client per counting cycle. Priority
// inheritance: a sweep of one client a cycle in three pipeline steps, restarted by every
// event carried out, every change of prio_i, the reset of a waiter and every step that
// changes a value. The reset scan: two cycles an object (LOOK, then ACT: the reap of a
// mutex a reset client holds is selected as an event; LOOK waits while a reap of its
// object is in READ or EXECUTE), restarted by every rising edge of flush_i.
//
// Every cycle the test bench compares req_ready_o, rsp_valid_o and each answer's status
// (so the client woken is the one the model says), waiting_o, eff_prio_o, settled_o,
// cfg_status_o and the inspection of one object (rd_state_o, rd_waiters_o); still_o must
// mean that the edge changes nothing the model holds; when settled_o is high every
// effective priority must be its own priority or the most urgent one lent to it (the
// rule's fixed point). The model itself checks that a reap gives up a mutex of a client
// reset since its last call. From the answers alone, without the model, it also checks
// that every call taken is answered once (or dropped by flush_i), that no two clients
// hold a mutex, that a semaphore's count is its initial count + posts - waits answered
// OK, that no waiter is left on a free mutex or on a semaphore with a count, that
// TIMEDOUT comes only for a timed call and never before its time, CANCELED only after
// cancel_i was high.
//
// Directed tests for each rule, then random traffic: calls one at a time with the
// manager settled in between, then every client at once with timeouts, cancels, priority
// changes, resets and reconfigurations. The cycles from the edge that takes a call to its
// answer, and from the edge that selects a post/unlock/signal/broadcast/condition wait
// (or the reap of a reset client's mutex) to the answer of the waiter it wakes, are
// measured: 3 (the answer is in the third cycle after that edge), more only where a
// configuration or a reset sent the event back to READ (so one at a time always 3).
// Timed waits are checked against the rule the counter and the scan give: a wait of t
// microseconds blocks two edges after the one that took it, its deadline passes more than
// t and at most t + 1 microseconds after that edge (at least t if another wait was
// counting as it blocked), the scan finds it within NumClients cycles, and its end is
// selected at the next edge and answered two edges later.
//
// Three shapes: 32 objects, 8 clients, 4 MHz; 7, 5, 3 (few objects, contended; no powers
// of two); 3, 2, 1 (the fewest clients, one cycle a microsecond).
// SYNC_TRACE=1 in the environment prints every call and answer.
#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <verilated.h>

#include "Vweft_sync_big.h"
#include "Vweft_sync_pair.h"
#include "Vweft_sync_small.h"
#include "tb_check.h"
#include "tb_reset.h"

namespace
{

// Statuses (weft_osif_pkg::Status*).
enum : unsigned {
    kOk = 0,
    kNosys = 1,
    kBadhandle = 2,
    kWrongType = 3,
    kBadargs = 4,
    kBusy = 5,
    kAgain = 6,
    kPerm = 7,
    kInternal = 8,
    kTimedout = 9,
    kCanceled = 10,
    kOverflow = 13
};
// Calls, object types and mutex kinds (weft_sync's localparams).
enum : unsigned {
    kSemPost,
    kSemWait,
    kSemTrywait,
    kMutexLock,
    kMutexTrylock,
    kMutexUnlock,
    kCondWait,
    kCondSignal,
    kCondBroadcast,
    kNumOps
};
enum : unsigned { kTypeNone, kTypeSem, kTypeMutex, kTypeCond };
enum : unsigned { kKindNormal, kKindRecursive, kKindErrorcheck };
constexpr unsigned kMaxDepth = 65535;                  // a recursive mutex's deepest lock
constexpr uint64_t kNowMask = (uint64_t(1) << 33) - 1; // the microsecond counter's 33 bits
constexpr unsigned kNoPrio = 0x7f;                     // nothing lent
constexpr unsigned kLatency = 3; // from the edge that selects an event to its answers

const char *status_name(int s)
{
    static const char *const names[] = {
        "OK",   "NOSYS",    "BADHANDLE", "WRONG_TYPE", "BADARGS", "BUSY",    "AGAIN",
        "PERM", "INTERNAL", "TIMEDOUT",  "CANCELED",   "MSGSIZE", "BADADDR", "OVERFLOW"};
    if (s < 0)
        return "(none)";
    return s < 14 ? names[s] : "?";
}

const char *op_name(unsigned op)
{
    static const char *const unknown[] = {"op 9",  "op 10", "op 11", "op 12",
                                          "op 13", "op 14", "op 15"};
    if (op >= 9 && op < 16)
        return unknown[op - 9];
    static const char *const names[] = {"sem_post",   "sem_wait",      "sem_trywait",
                                        "mutex_lock", "mutex_trylock", "mutex_unlock",
                                        "cond_wait",  "cond_signal",   "cond_broadcast"};
    return op < kNumOps ? names[op] : "op?";
}

struct Shape {
    const char *name;
    unsigned objs, clients, mhz;
};

struct Call {
    unsigned op = 0, obj = 0, mtx = 0;
    bool timed = false;
    uint32_t tmo = 0; // microseconds
    auto key() const { return std::tie(op, obj, mtx, timed, tmo); }
};

Call mk(unsigned op, unsigned obj, unsigned mtx = 0)
{
    return Call{op, obj, mtx, false, 0};
}
Call timed(unsigned op, unsigned obj, uint32_t tmo, unsigned mtx = 0)
{
    return Call{op, obj, mtx, true, tmo};
}

struct Cfg {
    bool valid = false;
    unsigned obj = 0, type = 0, kind = 0;
    bool pi = false;
    unsigned count = 0, max = 0;
};

// Every input of one cycle.
struct Inputs {
    Cfg cfg;
    std::vector<uint8_t> req, cancel, flush;
    std::vector<Call> call;
    std::vector<unsigned> prio;
    unsigned rd_obj = 0;
    explicit Inputs(unsigned n) : req(n), cancel(n), flush(n), call(n), prio(n) {}
};

uint64_t bit(unsigned c)
{
    return uint64_t(1) << c;
}

// ---- the reference model ---------------------------------------------------------------

struct Obj {
    unsigned type = kTypeNone, kind = 0;
    bool pi = false;
    unsigned cnt = 0;    // a semaphore's count, a mutex's depth (0: free)
    unsigned max = 0;    // a semaphore's maximum
    unsigned cmtx = 0;   // a condition's mutex (what counts is the one while it has waiters)
    unsigned holder = 0; // a mutex's holder (what counts is the one while it is held)
    auto key() const { return std::tie(type, kind, pi, cnt, max, cmtx, holder); }
};

enum class St : uint8_t {
    Idle,    // no call blocked (or reset)
    Blocked, // blocked on obj: a semaphore, a mutex or a condition
    Hold     // a condition wait retaking mutex obj; answers wstat once it has it
};

struct Client {
    St st = St::Idle;
    unsigned obj = 0;        // what it waits on
    bool cond = false;       // its blocked call is a condition wait not yet sent on
    unsigned mtx = 0;        // the mutex its blocking call named (a condition wait's)
    bool timed = false;      // its blocking call was timed
    uint64_t dl = 0;         // and its deadline on the microsecond counter
    bool expired = false;    // the timeout scan found the deadline passed
    unsigned rcnt = 1;       // the depth it gets with the mutex
    unsigned wstat = kOk;    // the answer when it is woken
    uint64_t seq = 0;        // arrival among waiters: smaller is older
    bool dead = false;       // reset, the scan of the objects not over: no call taken
    bool flush_seen = false; // flush_i of the cycle before
    unsigned eff = 0;        // effective priority (eff_prio_o)
    unsigned prio = 0;       // prio_i of the cycle before (what the sweep uses)
    auto key() const
    {
        return std::tie(st, obj, cond, mtx, timed, dl, expired, rcnt, wstat, seq, dead, flush_seen,
                        eff, prio);
    }
    // Not a register: reset since its last call taken, so it may hold mutexes the scan
    // is to give up (the model's own check of the reaps).
    bool gone = false;
};

// The engine: SELECT in Idle, then READ, then EXECUTE.
enum class Eng : uint8_t { Idle, Read, Exec };
enum class Ev : uint8_t { Call, End, Reap };
struct Engine {
    Eng st = Eng::Idle;
    Ev ev = Ev::Call;
    unsigned g = 0;      // its client (a reap keeps the one before)
    Call k;              // the client's fields at the selection (a reap: k.obj its mutex)
    unsigned m2 = 0;     // a call's mutex; the mutex of the condition whose wait ends
    bool cancel = false; // cancel_i at the selection
    // Registered by READ.
    uint64_t w_o = 0, w_m2 = 0; // waiters of k.obj, of m2
    uint64_t cand = 0;          // the waiters the event serves (not being reset then)
    int best = -1;              // the most urgent, then oldest, of them
    auto key() const { return std::tie(st, ev, g, m2, cancel, w_o, w_m2, cand, best); }
};

// What one edge did.
struct Step {
    bool selected = false;       // an event was selected at this edge
    int g = -1;                  // a client's (call or end of its wait)
    bool call = false;           // a call, taken at this edge
    bool exec = false;           // an event was carried out at this edge
    bool reread = false;         // an event in EXECUTE went back to READ
    bool dropped = false;        // a selected event was dropped: its client is reset
    std::vector<unsigned> woken; // clients answered by the event carried out (other than g)
    // For the coverage printed after random traffic.
    bool reap = false, end = false, to_hold = false, expire = false, restart = false;
    unsigned moved = 0;    // condition waiters sent on to their mutex
    bool bad_reap = false; // a reap of a mutex no reset client holds (an error)
};

struct Model {
    unsigned nobj, ncli, mhz;
    std::vector<Obj> obj;
    std::vector<Client> cli;
    std::vector<int> rsp; // per client, the answer in this cycle's rsp_valid_o (-1: none)
    unsigned ptr = 0;     // round robin: the client looked at first
    unsigned cfg_status = kOk;
    uint64_t next_seq = 1;
    Engine eng;
    bool cfg_wr = false; // a configuration checked in the cycle before, written at this edge
    Cfg cfg_q;
    // Timeouts: the microsecond counter, its prescaler, the client the scan looks at.
    uint64_t now = 0;
    unsigned pre = 0, tscan = 0;
    // The inheritance sweep: clients still to look at, whose turn it is; step 1 (a
    // client and the most urgent priority lent to it), step 2 (the same, a cycle later).
    unsigned sweep = 0, sp = 0;
    bool pa_v = false, pb_v = false;
    unsigned pa = 0, pa_min = 0, pc = 0, pb_min = 0;
    // The reset scan: objects left, the one looked at, LOOK done (ACT next), found.
    unsigned scan_left = 0, scan_ptr = 0;
    bool scan_act = false, scan_found = false;

    Model(unsigned o, unsigned c, unsigned m) : nobj(o), ncli(c), mhz(m), obj(o), cli(c), rsp(c, -1)
    {
    }

    bool waiting(unsigned c) const { return cli[c].st != St::Idle; }
    uint64_t flushes(const Inputs &in) const
    {
        uint64_t f = 0;
        for (unsigned c = 0; c < ncli; ++c)
            if (in.flush[c])
                f |= bit(c);
        return f;
    }
    bool cfg_busy(const Inputs &in) const { return in.cfg.valid || cfg_wr; }
    bool free(const Inputs &in) const { return eng.st == Eng::Idle && !cfg_busy(in); }
    bool reap_found() const { return scan_act && scan_found; }
    bool ends(unsigned c, const Inputs &in) const
    {
        const Client &k = cli[c];
        return k.st == St::Blocked && (in.cancel[c] || k.expired);
    }
    bool wants(unsigned c, const Inputs &in) const
    {
        return free(in) && !reap_found() && !in.flush[c] &&
               (ends(c, in) || (in.req[c] && !waiting(c) && !cli[c].dead));
    }
    bool any_want(const Inputs &in) const
    {
        for (unsigned c = 0; c < ncli; ++c)
            if (wants(c, in))
                return true;
        return false;
    }
    int grant(const Inputs &in) const
    {
        for (unsigned i = 0; i < ncli; ++i) {
            const unsigned c = (ptr + i) % ncli;
            if (wants(c, in))
                return static_cast<int>(c);
        }
        return -1;
    }
    uint64_t ready(const Inputs &in) const
    {
        const int g = grant(in);
        if (g < 0 || ends(g, in))
            return 0;
        return bit(g);
    }
    // The most urgent, then oldest, client of the set.
    int best_of(uint64_t set) const
    {
        int b = -1;
        for (unsigned c = 0; c < ncli; ++c) {
            if (!(set & bit(c)))
                continue;
            if (b < 0 || cli[c].eff < cli[b].eff ||
                (cli[c].eff == cli[b].eff && cli[c].seq < cli[b].seq))
                b = static_cast<int>(c);
        }
        return b;
    }
    uint64_t waiters_of(unsigned x) const
    {
        uint64_t w = 0;
        for (unsigned c = 0; c < ncli; ++c)
            if (waiting(c) && cli[c].obj == x)
                w |= bit(c);
        return w;
    }
    // The client a waiter lends its effective priority to: the holder of the inheriting
    // mutex it waits for.
    int lends_to(unsigned w) const
    {
        if (!waiting(w))
            return -1;
        const Obj &x = obj[cli[w].obj];
        if (x.type == kTypeMutex && x.pi && x.cnt != 0)
            return static_cast<int>(x.holder);
        return -1;
    }
    unsigned lent(unsigned c) const
    {
        unsigned e = kNoPrio;
        for (unsigned w = 0; w < ncli; ++w)
            if (lends_to(w) == int(c))
                e = std::min(e, cli[w].eff);
        return e;
    }
    bool prio_changed(const Inputs &in) const
    {
        for (unsigned c = 0; c < ncli; ++c)
            if (in.prio[c] != cli[c].prio)
                return true;
        return false;
    }
    bool settled(const Inputs &in) const
    {
        return sweep == 0 && !pa_v && !pb_v && !prio_changed(in);
    }
    // The rule's fixed point: every effective priority is its own or the most urgent one
    // lent to it.
    bool eff_fixed(const Inputs &in) const
    {
        for (unsigned c = 0; c < ncli; ++c)
            if (cli[c].eff != std::min(in.prio[c], lent(c)))
                return false;
        return true;
    }
    bool counting(unsigned c) const
    {
        return cli[c].st == St::Blocked && cli[c].timed && !cli[c].expired;
    }
    bool any_counting() const
    {
        for (unsigned c = 0; c < ncli; ++c)
            if (counting(c))
                return true;
        return false;
    }
    // Nothing to do: no event in flight or wanted, no configuration to write, no scan,
    // the priorities settled (waits may count).
    bool idle(const Inputs &in) const
    {
        return eng.st == Eng::Idle && !cfg_wr && !in.cfg.valid && scan_left == 0 && !any_want(in) &&
               settled(in);
    }
    unsigned cfg_check(const Cfg &k) const
    {
        if (k.obj >= nobj)
            return kBadhandle;
        if (k.kind == 3 || (k.type == kTypeSem && (k.max == 0 || k.count > k.max)))
            return kBadargs;
        if (obj[k.obj].type == kTypeMutex && obj[k.obj].cnt != 0)
            return kBusy; // held
        for (unsigned c = 0; c < ncli; ++c) {
            if (!waiting(c))
                continue;
            if (cli[c].obj == k.obj)
                return kBusy; // waited on
            if (cli[c].st == St::Blocked && cli[c].cond && cli[c].mtx == k.obj)
                return kBusy; // a condition's waiter will take it
        }
        return kOk;
    }
    uint32_t rd_state(unsigned o) const
    {
        if (o >= nobj)
            return 0;
        const Obj &x = obj[o];
        return (x.cnt << 16) | ((x.holder & 0xff) << 8) | (unsigned(x.pi) << 4) |
               ((x.kind & 3) << 2) | x.type;
    }
    // The bits of rd_state_o the specification defines: the type; a semaphore's count; a
    // mutex's kind, inheritance and depth, and its holder while held. Bits 7:5 are 0.
    uint32_t rd_mask(unsigned o) const
    {
        if (o >= nobj)
            return ~0u;
        switch (obj[o].type) {
        case kTypeSem:
            return 0xffff00ffu & ~0x1cu;
        case kTypeMutex:
            return obj[o].cnt != 0 ? ~0u : ~0xff00u;
        default:
            return 0xe3u;
        }
    }
    uint64_t rd_waiters(unsigned o) const { return o < nobj ? waiters_of(o) : 0; }
    // The registers the next edge may change, compared (for still_o).
    bool same(const Model &o) const
    {
        if (ptr != o.ptr || cfg_status != o.cfg_status || rsp != o.rsp || next_seq != o.next_seq ||
            eng.key() != o.eng.key() || eng.k.key() != o.eng.k.key() || cfg_wr != o.cfg_wr ||
            now != o.now || pre != o.pre || tscan != o.tscan)
            return false;
        if (std::tie(sweep, sp, pa_v, pb_v, pa, pa_min, pc, pb_min) !=
            std::tie(o.sweep, o.sp, o.pa_v, o.pb_v, o.pa, o.pa_min, o.pc, o.pb_min))
            return false;
        if (std::tie(scan_left, scan_ptr, scan_act, scan_found) !=
            std::tie(o.scan_left, o.scan_ptr, o.scan_act, o.scan_found))
            return false;
        for (unsigned i = 0; i < nobj; ++i)
            if (obj[i].key() != o.obj[i].key())
                return false;
        for (unsigned c = 0; c < ncli; ++c)
            if (cli[c].key() != o.cli[c].key())
                return false;
        return true;
    }

    // w is answered (its wstat) by the event; takes: the mutex it now holds.
    void wake(Model &n, unsigned w, int takes, Step *s) const
    {
        n.cli[w].st = St::Idle;
        n.cli[w].expired = false;
        n.rsp[w] = static_cast<int>(cli[w].wstat);
        if (takes >= 0) {
            n.obj[takes].holder = w;
            n.obj[takes].cnt = cli[w].rcnt;
        }
        s->woken.push_back(w);
    }
    void block(Model &n, unsigned g, unsigned o, const Call &k, unsigned rcnt) const
    {
        Client &c = n.cli[g];
        c.st = St::Blocked;
        c.obj = o;
        c.cond = k.op == kCondWait;
        c.mtx = k.mtx;
        c.timed = k.timed;
        c.dl = (now + k.tmo + 1) & kNowMask;
        c.expired = false;
        c.rcnt = rcnt;
        c.wstat = kOk;
        c.seq = n.next_seq++;
    }
    bool mutex_free(unsigned m) const // not a mutex, or not held
    {
        return !(m < nobj && obj[m].type == kTypeMutex) || obj[m].cnt == 0;
    }

    // READ: the waiters of the objects the event names, the one it would serve.
    void read(Engine &e, const Inputs &in) const
    {
        e.w_o = waiters_of(eng.k.obj);
        e.w_m2 = waiters_of(eng.m2);
        const bool sel_m2 = eng.ev == Ev::Call && eng.k.op == kCondWait;
        e.cand = (sel_m2 ? e.w_m2 : e.w_o) & ~flushes(in);
        e.best = best_of(e.cand);
    }

    // EXECUTE: the selected call, from the tables as they are now and what READ found.
    void do_call(Model &n, Step *s) const
    {
        const unsigned g = eng.g;
        const Call &k = eng.k;
        const unsigned o = k.obj, m = k.mtx;
        const bool noblock = (k.timed && k.tmo == 0) || eng.cancel;
        const unsigned nb_st = eng.cancel ? kCanceled : kTimedout;
        const int w = eng.best;
        unsigned st = kOk;
        bool answer = true;
        // docs/osif.md ("Bad input", checked in this order) answers an unknown call NOSYS
        // before it looks at the handle; the header defers to it for such choices.
        if (k.op >= kNumOps) {
            st = kNosys;
        } else if (o >= nobj || obj[o].type == kTypeNone) {
            st = kBadhandle;
        } else {
            const Obj &x = obj[o];
            switch (k.op) {
            case kSemPost:
                if (x.type != kTypeSem)
                    st = kWrongType;
                else if (w >= 0)
                    wake(n, w, -1, s);
                else if (x.cnt == x.max)
                    st = kOverflow;
                else
                    n.obj[o].cnt = x.cnt + 1;
                break;
            case kSemWait:
            case kSemTrywait:
                if (x.type != kTypeSem)
                    st = kWrongType;
                else if (x.cnt != 0)
                    n.obj[o].cnt = x.cnt - 1;
                else if (k.op == kSemTrywait)
                    st = kAgain;
                else if (noblock)
                    st = nb_st;
                else {
                    block(n, g, o, k, 1);
                    answer = false;
                }
                break;
            case kMutexLock:
            case kMutexTrylock:
                if (x.type != kTypeMutex) {
                    st = kWrongType;
                } else if (x.cnt == 0) {
                    n.obj[o].cnt = 1;
                    n.obj[o].holder = g;
                } else if (x.holder == g && x.kind == kKindRecursive) {
                    if (x.cnt == kMaxDepth)
                        st = kAgain;
                    else
                        n.obj[o].cnt = x.cnt + 1;
                } else if (k.op == kMutexTrylock) {
                    st = kBusy;
                } else if (x.holder == g) {
                    st = kInternal;
                } else if (noblock) {
                    st = nb_st;
                } else {
                    block(n, g, o, k, 1);
                    answer = false;
                }
                break;
            case kMutexUnlock:
                if (x.type != kTypeMutex) {
                    st = kWrongType;
                } else if (x.cnt == 0 || x.holder != g) {
                    st = kPerm;
                } else {
                    n.obj[o].cnt = x.cnt - 1;
                    if (x.cnt == 1 && w >= 0)
                        wake(n, w, static_cast<int>(o), s);
                }
                break;
            case kCondWait:
                if (x.type != kTypeCond) {
                    st = kWrongType;
                } else if (m >= nobj || obj[m].type != kTypeMutex ||
                           (eng.w_o != 0 && x.cmtx != m)) {
                    st = kBadargs; // (waiters of the condition as READ saw them)
                } else if (obj[m].cnt == 0 || obj[m].holder != g) {
                    st = kPerm;
                } else if (noblock) {
                    st = nb_st;
                } else {
                    block(n, g, o, k, obj[m].cnt);
                    answer = false;
                    n.obj[o].cmtx = m;
                    // Given up wholly: to its most urgent waiter, else free (the holder
                    // field then is the condition's, which means nothing while free).
                    n.obj[m].cnt = 0;
                    n.obj[m].holder = x.holder;
                    if (w >= 0)
                        wake(n, w, static_cast<int>(m), s);
                }
                break;
            case kCondSignal:
            case kCondBroadcast:
                if (x.type != kTypeCond) {
                    st = kWrongType;
                } else if (w >= 0) {
                    const unsigned mm = x.cmtx;
                    for (unsigned c = 0; c < ncli; ++c) {
                        if ((eng.cand & bit(c)) && (k.op == kCondBroadcast || c == unsigned(w))) {
                            n.cli[c].st = St::Hold; // keeps its place (seq)
                            n.cli[c].obj = mm;
                            n.cli[c].cond = false;
                            n.cli[c].wstat = kOk;
                            n.cli[c].expired = false;
                            ++s->moved;
                        }
                    }
                    if (mutex_free(mm))
                        wake(n, w, static_cast<int>(mm), s);
                }
                break;
            }
        }
        if (answer)
            n.rsp[g] = static_cast<int>(st);
    }

    // EXECUTE: g's blocked call ends (cancel_i at its selection, or its timeout).
    void do_end(Model &n, Step *s) const
    {
        s->end = true;
        const unsigned g = eng.g;
        const unsigned st = eng.cancel ? kCanceled : kTimedout;
        const Client &k = cli[g];
        Client &c = n.cli[g];
        c.expired = false;
        if (k.cond) {
            const unsigned m = eng.m2;
            if (mutex_free(m)) {
                c.st = St::Idle;
                n.rsp[g] = static_cast<int>(st);
                n.obj[m].holder = g;
                n.obj[m].cnt = k.rcnt;
            } else { // retakes it as the newest waiter, answering st then
                s->to_hold = true;
                c.st = St::Hold;
                c.obj = m;
                c.cond = false;
                c.wstat = st;
                c.seq = n.next_seq++;
            }
        } else {
            c.st = St::Idle;
            n.rsp[g] = static_cast<int>(st);
        }
    }

    // EXECUTE: the scan found a mutex of a reset client: to its best waiter, or free.
    void do_reap(Model &n, Step *s) const
    {
        s->reap = true;
        const unsigned r = eng.k.obj;
        if (!(r < nobj && obj[r].type == kTypeMutex && obj[r].cnt != 0 && obj[r].holder < ncli &&
              cli[obj[r].holder].gone))
            s->bad_reap = true;
        if (eng.best >= 0)
            wake(n, static_cast<unsigned>(eng.best), static_cast<int>(r), s);
        else
            n.obj[r].cnt = 0;
    }

    // The state after the next edge, with this cycle's inputs.
    Model next(const Inputs &in, Step *s) const
    {
        Model n = *this;
        n.rsp.assign(ncli, -1);
        const uint64_t fl = flushes(in);
        const bool busy = cfg_busy(in);

        // A configuration: checked now (on the tables as they are), written at the next
        // edge; one checked in the cycle before is written at this one.
        if (in.cfg.valid) {
            n.cfg_status = cfg_check(in.cfg);
            n.cfg_q = in.cfg;
        }
        n.cfg_wr = in.cfg.valid && n.cfg_status == kOk;
        if (cfg_wr) {
            Obj &x = n.obj[cfg_q.obj];
            x = Obj();
            x.type = cfg_q.type;
            x.kind = cfg_q.kind;
            x.pi = cfg_q.type == kTypeMutex && cfg_q.pi;
            x.cnt = cfg_q.type == kTypeSem ? cfg_q.count : 0;
            x.max = cfg_q.type == kTypeSem ? cfg_q.max : 0;
        }

        // The engine.
        const bool sel_reap = free(in) && reap_found();
        const bool g_flushed = eng.ev != Ev::Reap && in.flush[eng.g];
        bool exec = false;
        switch (eng.st) {
        case Eng::Idle:
            if (sel_reap) {
                s->selected = true;
                n.eng.st = Eng::Read;
                n.eng.ev = Ev::Reap;
                n.eng.k.obj = scan_ptr;
            } else if (const int g = grant(in); g >= 0) {
                s->selected = true;
                s->g = g;
                s->call = !ends(g, in);
                n.ptr = (static_cast<unsigned>(g) + 1) % ncli;
                n.eng.st = Eng::Read;
                n.eng.ev = s->call ? Ev::Call : Ev::End;
                n.eng.g = g;
                n.eng.k = in.call[g];
                n.eng.m2 = s->call ? in.call[g].mtx : cli[g].mtx;
                n.eng.cancel = in.cancel[g];
                if (s->call)
                    n.cli[g].gone = false;
            }
            break;
        case Eng::Read:
            read(n.eng, in);
            if (g_flushed) { // its client is reset: never carried out
                s->dropped = true;
                n.eng.st = Eng::Idle;
            } else if (!busy) {
                n.eng.st = Eng::Exec;
            }
            break;
        case Eng::Exec: {
            const bool cand_flushed = (eng.cand & fl) != 0;
            exec = !busy && !g_flushed && !cand_flushed;
            s->reread = !g_flushed && (busy || cand_flushed);
            s->dropped = g_flushed;
            n.eng.st = s->reread ? Eng::Read : Eng::Idle;
            break;
        }
        }

        // The reset scan: restarted by a reset; LOOK, then ACT (waits for the reap of a
        // mutex it found to be selected). LOOK also waits while a reap of its object is
        // still to be written.
        uint64_t rising = 0;
        for (unsigned c = 0; c < ncli; ++c) {
            if (in.flush[c] && !cli[c].flush_seen)
                rising |= bit(c);
            n.cli[c].flush_seen = in.flush[c];
        }
        if (rising) {
            s->restart = true;
            for (unsigned c = 0; c < ncli; ++c)
                if (rising & bit(c)) {
                    n.cli[c].dead = true;
                    n.cli[c].gone = true;
                }
            n.scan_left = nobj;
            n.scan_ptr = 0;
            n.scan_act = false;
        } else if (scan_left != 0 && !scan_act) {
            if (!(eng.st != Eng::Idle && eng.ev == Ev::Reap && eng.k.obj == scan_ptr)) {
                const Obj &x = obj[scan_ptr];
                n.scan_found =
                    x.type == kTypeMutex && x.cnt != 0 && x.holder < ncli && cli[x.holder].dead;
                n.scan_act = true;
            }
        } else if (scan_act && (!scan_found || sel_reap)) {
            n.scan_act = false;
            n.scan_ptr = (scan_ptr + 1) % nobj;
            n.scan_left = scan_left - 1;
            if (scan_left == 1)
                for (Client &c : n.cli)
                    c.dead = false;
        }

        // Timeouts: the counter runs, and the scan looks at one client, while a wait counts.
        if (any_counting()) {
            if (pre == mhz - 1) {
                n.pre = 0;
                n.now = (now + 1) & kNowMask;
            } else {
                n.pre = pre + 1;
            }
            n.tscan = (tscan + 1) % ncli;
            if (counting(tscan) && !(((now - cli[tscan].dl) & kNowMask) >> 32)) {
                n.cli[tscan].expired = true;
                s->expire = true;
            }
        }

        // The inheritance sweep.
        const bool prio_chg = prio_changed(in);
        for (unsigned c = 0; c < ncli; ++c)
            n.cli[c].prio = in.prio[c];
        n.pa_v = sweep != 0;
        n.pb_v = pa_v;
        if (sweep != 0) {
            n.pa = sp;
            n.pa_min = lent(sp);
            n.sp = (sp + 1) % ncli;
        }
        if (pa_v) {
            n.pc = pa;
            n.pb_min = pa_min;
        }
        bool changes = false;
        if (pb_v) {
            const unsigned pnew = std::min(pb_min, cli[pc].prio);
            if (pnew != cli[pc].eff) {
                n.cli[pc].eff = pnew;
                changes = true;
            }
        }
        bool waiter_reset = false;
        for (unsigned c = 0; c < ncli; ++c)
            if (in.flush[c] && waiting(c))
                waiter_reset = true;
        if (exec || prio_chg || waiter_reset || changes)
            n.sweep = ncli;
        else if (sweep != 0)
            n.sweep = sweep - 1;

        // The event's effects.
        if (exec) {
            s->exec = true;
            if (eng.ev == Ev::Reap)
                do_reap(n, s);
            else if (eng.ev == Ev::End)
                do_end(n, s);
            else
                do_call(n, s);
        }
        // A reset client's call is dropped.
        for (unsigned c = 0; c < ncli; ++c) {
            if (in.flush[c]) {
                n.cli[c].st = St::Idle;
                n.cli[c].expired = false;
            }
        }
        return n;
    }
};

// ---- ports of any width ----------------------------------------------------------------

template <typename T> void put(T &sig, unsigned lsb, unsigned width, uint64_t v)
{
    if constexpr (std::is_integral_v<T>) {
        const uint64_t mask = ((width >= 64) ? ~uint64_t(0) : ((uint64_t(1) << width) - 1)) << lsb;
        sig = static_cast<T>((static_cast<uint64_t>(sig) & ~mask) | ((v << lsb) & mask));
    } else {
        for (unsigned i = 0; i < width; ++i) {
            const unsigned b = lsb + i;
            uint32_t &word = sig.data()[b / 32];
            word = (word & ~(1u << (b % 32))) | (uint32_t((v >> i) & 1) << (b % 32));
        }
    }
}

template <typename T> uint64_t get(const T &sig, unsigned lsb, unsigned width)
{
    if constexpr (std::is_integral_v<T>) {
        const uint64_t v = static_cast<uint64_t>(sig) >> lsb;
        return width >= 64 ? v : (v & ((uint64_t(1) << width) - 1));
    } else {
        uint64_t v = 0;
        for (unsigned i = 0; i < width; ++i) {
            const unsigned b = lsb + i;
            v |= uint64_t((sig.data()[b / 32] >> (b % 32)) & 1) << i;
        }
        return v;
    }
}

// ---- the test bench ----------------------------------------------------------------------

template <typename Dut> struct Bench {
    const Shape sh;
    const unsigned N, O;
    std::unique_ptr<VerilatedContext> ctx = std::make_unique<VerilatedContext>();
    std::unique_ptr<Dut> dut = std::make_unique<Dut>(ctx.get());
    Model m;
    Inputs in;
    uint64_t edges = 0; // edges since reset
    bool trace = std::getenv("SYNC_TRACE") != nullptr;
    bool rd_sweep = false; // read every object back at each edge (directed tests)
    int fail_cycle = -1;   // the first cycle a comparison with the model failed

    // The test bench's view of each client's call.
    struct Track {
        bool pending = false; // raised, not taken yet
        bool out = false;     // taken, not answered yet
        Call call;
        uint64_t taken = 0;   // the edge that took it
        bool blocked = false; // it blocked (waiting_o rose)
        uint64_t blocked_at = 0;
        bool cancel_seen = false; // cancel_i was high since the take (in its cycle too)
        bool released = false;    // a condition wait that blocked: its mutex was given up
        unsigned depth = 0;       // that mutex's depth when the wait blocked
        int status = -1;          // the last answer, until answer() reads it
        uint64_t answered = 0;    // the edge after which it came
        int64_t woke_at = -1;     // the edge that selected another's event that woke it
    };
    std::vector<Track> t;

    // From the answers alone: who holds each mutex, each semaphore's count.
    std::vector<int> hold_by;
    std::vector<unsigned> hold_depth;
    std::vector<uint8_t> reaping; // its holder was reset; given up in the manager's time
    std::vector<int64_t> sem_count;
    bool cfg_pend = false; // a configuration answered OK, written at the next edge
    Cfg cfg_pend_k;
    uint64_t sel_edge = 0; // the edge that selected the event in flight

    // Statistics.
    std::map<uint64_t, uint64_t> lat_call, lat_wake;
    uint64_t calls = 0, answers = 0, dropped = 0, woken = 0, by_status[16] = {};
    // Coverage: reset clients' mutexes given up, waits ended by timeout or cancel, ended
    // condition waits queued to retake their mutex, condition waiters sent on to their
    // mutex, cycles with a priority inherited, configurations refused BUSY, timeouts the
    // scan found, events sent back to READ, selected calls dropped by a reset, scans
    // restarted, cycles with still_o high.
    uint64_t cov_reap = 0, cov_end = 0, cov_to_hold = 0, cov_moved = 0, cov_inherit = 0,
             cov_busy = 0, cov_expire = 0, cov_reread = 0, cov_drop = 0, cov_restart = 0,
             cov_still = 0;
    uint64_t last_answer_edge = 0;

    explicit Bench(const Shape &s)
        : sh(s), N(s.clients), O(s.objs), m(s.objs, s.clients, s.mhz), in(s.clients), t(s.clients),
          hold_by(s.objs, -1), hold_depth(s.objs), reaping(s.objs), sem_count(s.objs, -1)
    {
        for (unsigned c = 0; c < N; ++c)
            in.prio[c] = 0;
        drive();
        weft_tb::reset_pulse(dut.get());
    }
    ~Bench() { dut->final(); }

    // The edges from the one that takes a timed call that blocks to its TIMEDOUT answer,
    // with nothing else to do in the manager and no other wait counting: it blocks two
    // edges after it is taken; its deadline passes at the counter's (tmo + 1)-th step
    // after that, tmo * ClockMhz + 1 to (tmo + 1) * ClockMhz edges later (the counter's
    // first step comes 1 to ClockMhz cycles after the block); the timeout scan, one client
    // a cycle, marks its end 1 to NumClients edges later; the end is selected at the next
    // edge and answered two edges after that.
    uint64_t tmo_lo(uint32_t tmo) const { return uint64_t(tmo) * sh.mhz + 7; }
    uint64_t tmo_hi(uint32_t tmo) const { return (uint64_t(tmo) + 1) * sh.mhz + N + 5; }

    void drive()
    {
        Dut *d = dut.get();
        d->cfg_valid_i = in.cfg.valid;
        d->cfg_obj_i = in.cfg.obj;
        d->cfg_type_i = in.cfg.type;
        d->cfg_kind_i = in.cfg.kind;
        d->cfg_pi_i = in.cfg.pi;
        d->cfg_count_i = in.cfg.count;
        d->cfg_max_i = in.cfg.max;
        d->rd_obj_i = in.rd_obj;
        d->rd_en_i = 1; // the inspection is compared every cycle
        for (unsigned c = 0; c < N; ++c) {
            const Call &k = in.call[c];
            put(d->req_valid_i, c, 1, in.req[c]);
            put(d->req_op_i, c * 4, 4, k.op);
            put(d->req_obj_i, c * 8, 8, k.obj);
            put(d->req_mtx_i, c * 8, 8, k.mtx);
            put(d->req_timed_i, c, 1, k.timed);
            put(d->req_tmo_i, c * 32, 32, k.tmo);
            put(d->prio_i, c * 7, 7, in.prio[c]);
            put(d->cancel_i, c, 1, in.cancel[c]);
            put(d->flush_i, c, 1, in.flush[c]);
        }
    }

    void fail_at()
    {
        if (fail_cycle < 0)
            fail_cycle = static_cast<int>(edges);
    }

    // rd_state_o and rd_waiters_o of object o (already on rd_obj_i) against the model and
    // against what the answers say.
    void check_rd(unsigned o)
    {
        const uint32_t rs = dut->rd_state_o;
        const uint64_t rw = get(dut->rd_waiters_o, 0, N);
        const uint32_t mask = m.rd_mask(o);
        if ((rs & mask) != (m.rd_state(o) & mask) || rw != m.rd_waiters(o)) {
            CHECK(false,
                  "%s edge %" PRIu64 ": object %u state %08x waiters %" PRIx64
                  ", model %08x waiters %" PRIx64,
                  sh.name, edges, o, rs, rw, m.rd_state(o), m.rd_waiters(o));
            fail_at();
        }
        if (o >= O) {
            CHECK(rs == 0 && rw == 0, "%s: object %u out of range reads %08x", sh.name, o, rs);
            return;
        }
        CHECK((rs & 0xe0) == 0, "%s: object %u state %08x, bits 7:5 set", sh.name, o, rs);
        const unsigned typ = rs & 3, cnt = rs >> 16, holder = (rs >> 8) & 0xff;
        if (typ == kTypeMutex) {
            if (reaping[o]) {
                if (cnt == 0) {
                    reaping[o] = 0;
                    hold_by[o] = -1;
                }
            } else if (hold_by[o] >= 0) {
                CHECK(cnt == hold_depth[o] && holder == unsigned(hold_by[o]),
                      "%s edge %" PRIu64 ": mutex %u held by %u depth %u, the answers say %d "
                      "depth %u",
                      sh.name, edges, o, holder, cnt, hold_by[o], hold_depth[o]);
            } else {
                CHECK(cnt == 0,
                      "%s edge %" PRIu64 ": mutex %u held (by %u) though no answer said so",
                      sh.name, edges, o, holder);
            }
            CHECK(cnt != 0 || rw == 0, "%s edge %" PRIu64 ": mutex %u free with waiters %" PRIx64,
                  sh.name, edges, o, rw);
        } else if (typ == kTypeSem) {
            CHECK(int64_t(cnt) == sem_count[o],
                  "%s edge %" PRIu64 ": semaphore %u count %u, initial + posts - waits %" PRId64,
                  sh.name, edges, o, cnt, sem_count[o]);
            CHECK(cnt == 0 || rw == 0,
                  "%s edge %" PRIu64 ": semaphore %u count %u with waiters %" PRIx64, sh.name,
                  edges, o, cnt, rw);
        }
    }

    // One clock cycle with the inputs in `in`.
    void cycle()
    {
        drive();
        dut->clk_i = 0;
        dut->eval();
        Step s;
        Model n = m.next(in, &s);
        const uint64_t ready = get(dut->req_ready_o, 0, N);
        if (ready != m.ready(in)) {
            CHECK(false, "%s edge %" PRIu64 ": req_ready_o %" PRIx64 ", model %" PRIx64, sh.name,
                  edges + 1, ready, m.ready(in));
            fail_at();
        }
        const bool settled = m.settled(in);
        if (bool(dut->settled_o) != settled) {
            CHECK(false, "%s edge %" PRIu64 ": settled_o %u, model %u", sh.name, edges + 1,
                  unsigned(dut->settled_o), unsigned(settled));
            fail_at();
        }
        if (dut->settled_o && !m.eff_fixed(in)) {
            CHECK(false,
                  "%s edge %" PRIu64 ": settled_o high but an effective priority is not its "
                  "own or the most urgent one lent to it",
                  sh.name, edges + 1);
            fail_at();
        }
        if (dut->still_o) {
            ++cov_still;
            if (!n.same(m)) {
                CHECK(false, "%s edge %" PRIu64 ": still_o high but the edge changes the state",
                      sh.name, edges + 1);
                fail_at();
            }
        }
        if (s.bad_reap) {
            CHECK(false,
                  "%s edge %" PRIu64 ": a reap gives up mutex %u, which no reset client holds",
                  sh.name, edges + 1, m.eng.k.obj);
            fail_at();
        }
        dut->clk_i = 1;
        dut->eval();
        ++edges;
        m = std::move(n);
        cov_reap += s.reap;
        cov_end += s.end;
        cov_to_hold += s.to_hold;
        cov_moved += s.moved;
        cov_expire += s.expire;
        cov_reread += s.reread;
        cov_drop += s.dropped;
        cov_restart += s.restart;
        cov_busy += in.cfg.valid && m.cfg_status == kBusy;
        for (unsigned c = 0; c < N; ++c)
            if (m.cli[c].eff < in.prio[c]) {
                ++cov_inherit;
                break;
            }

        // Against the model.
        for (unsigned c = 0; c < N; ++c) {
            const bool v = get(dut->rsp_valid_o, c, 1);
            const unsigned st = static_cast<unsigned>(get(dut->rsp_status_o, c * 8, 8));
            if (v != (m.rsp[c] >= 0) || (v && int(st) != m.rsp[c])) {
                CHECK(false, "%s edge %" PRIu64 ": client %u answer %s %s, model %s", sh.name,
                      edges, c, v ? "valid" : "none", v ? status_name(st) : "",
                      status_name(m.rsp[c]));
                fail_at();
            }
            if (get(dut->waiting_o, c, 1) != m.waiting(c)) {
                CHECK(false, "%s edge %" PRIu64 ": client %u waiting_o %u, model %u", sh.name,
                      edges, c, unsigned(get(dut->waiting_o, c, 1)), unsigned(m.waiting(c)));
                fail_at();
            }
            if (get(dut->eff_prio_o, c * 7, 7) != m.cli[c].eff) {
                CHECK(false, "%s edge %" PRIu64 ": client %u eff_prio_o %u, model %u", sh.name,
                      edges, c, unsigned(get(dut->eff_prio_o, c * 7, 7)), m.cli[c].eff);
                fail_at();
            }
        }
        if (dut->cfg_status_o != m.cfg_status) {
            CHECK(false, "%s edge %" PRIu64 ": cfg_status_o %s, model %s", sh.name, edges,
                  status_name(dut->cfg_status_o), status_name(m.cfg_status));
            fail_at();
        }

        // The test bench's own view, from the outputs. A configuration answered OK in the
        // cycle before is written at this edge.
        if (cfg_pend) {
            const unsigned o = cfg_pend_k.obj;
            hold_by[o] = -1;
            reaping[o] = 0;
            sem_count[o] = cfg_pend_k.type == kTypeSem ? int64_t(cfg_pend_k.count) : -1;
            cfg_pend = false;
        }
        if (in.cfg.valid && dut->cfg_status_o == kOk) {
            cfg_pend = true;
            cfg_pend_k = in.cfg;
        }
        for (unsigned c = 0; c < N; ++c) {
            Track &k = t[c];
            if (in.req[c] && ((ready >> c) & 1)) {
                k.pending = false;
                k.out = true;
                k.taken = edges;
                k.blocked = false;
                k.released = false;
                k.cancel_seen = false;
                k.woke_at = -1;
                in.req[c] = 0;
                ++calls;
                if (trace)
                    std::printf("%s %" PRIu64 ": client %u %s obj %u mtx %u%s tmo %u%s\n", sh.name,
                                edges, c, op_name(k.call.op), k.call.obj, k.call.mtx,
                                k.call.timed ? " timed" : "", k.call.tmo,
                                in.cancel[c] ? " cancel" : "");
            }
            if (k.out && !k.blocked && get(dut->waiting_o, c, 1)) {
                // It blocked at this edge; a condition wait gave its mutex up wholly.
                k.blocked = true;
                k.blocked_at = edges;
                if (k.call.op == kCondWait) {
                    const unsigned mx = k.call.mtx;
                    CHECK(hold_by[mx] == int(c),
                          "%s edge %" PRIu64 ": client %u waits on a "
                          "condition with mutex %u the answers do not give it",
                          sh.name, edges, c, mx);
                    k.released = true;
                    k.depth = hold_depth[mx];
                    hold_by[mx] = -1;
                }
            }
        }
        for (unsigned c = 0; c < N; ++c)
            if (t[c].out && in.cancel[c])
                t[c].cancel_seen = true;
        if (s.exec)
            for (unsigned w : s.woken)
                t[w].woke_at = int64_t(sel_edge);
        if (s.selected)
            sel_edge = edges;
        // Answers: the mutexes given up first, then the ones taken.
        std::vector<unsigned> got;
        for (unsigned c = 0; c < N; ++c) {
            if (!get(dut->rsp_valid_o, c, 1))
                continue;
            Track &k = t[c];
            const unsigned st = static_cast<unsigned>(get(dut->rsp_status_o, c * 8, 8));
            if (!k.out) {
                CHECK(false, "%s edge %" PRIu64 ": client %u answered %s without a call", sh.name,
                      edges, c, status_name(st));
                fail_at();
                continue;
            }
            k.out = false;
            k.status = static_cast<int>(st);
            k.answered = edges;
            last_answer_edge = edges;
            ++answers;
            by_status[st & 15]++;
            if (trace)
                std::printf("%s %" PRIu64 ": client %u %s -> %s\n", sh.name, edges, c,
                            op_name(k.call.op), status_name(st));
            // TIMEDOUT only for a timed call, never before its time (a timeout of 0: at once;
            // else at least tmo + 1 steps of the counter, the first at the edge the call
            // blocks at, then the scan, the selection and two edges); CANCELED only after
            // cancel_i was high.
            const uint64_t tmo_min =
                k.call.tmo == 0 ? kLatency - 1 : uint64_t(k.call.tmo) * sh.mhz + 6;
            CHECK(st != kTimedout || (k.call.timed && edges - k.taken >= tmo_min),
                  "%s edge %" PRIu64 ": client %u TIMEDOUT %" PRIu64 " edges after the take "
                  "(timed %u, %u us)",
                  sh.name, edges, c, edges - k.taken, unsigned(k.call.timed), k.call.tmo);
            CHECK(st != kCanceled || k.cancel_seen,
                  "%s edge %" PRIu64 ": client %u CANCELED without cancel_i", sh.name, edges, c);
            if (!k.blocked) {
                lat_call[edges - k.taken + 1]++;
            } else if (k.woke_at >= 0) {
                lat_wake[edges - uint64_t(k.woke_at) + 1]++;
                ++woken;
            }
            got.push_back(c);
            if (k.call.op == kMutexUnlock && st == kOk) {
                const unsigned o = k.call.obj;
                CHECK(hold_by[o] == int(c),
                      "%s edge %" PRIu64 ": client %u unlocked mutex %u the "
                      "answers say %d holds",
                      sh.name, edges, c, o, hold_by[o]);
                if (hold_depth[o] > 0 && --hold_depth[o] == 0)
                    hold_by[o] = -1;
            }
        }
        for (unsigned c : got) {
            Track &k = t[c];
            const unsigned o = k.call.obj, st = static_cast<unsigned>(k.status);
            if ((k.call.op == kMutexLock || k.call.op == kMutexTrylock) && st == kOk) {
                if (hold_by[o] == int(c) && !reaping[o]) {
                    ++hold_depth[o];
                } else {
                    CHECK(hold_by[o] < 0 || reaping[o],
                          "%s edge %" PRIu64 ": client %u took mutex "
                          "%u which client %d holds",
                          sh.name, edges, c, o, hold_by[o]);
                    hold_by[o] = static_cast<int>(c);
                    hold_depth[o] = 1;
                    reaping[o] = 0;
                }
            } else if (k.call.op == kCondWait &&
                       (st == kOk || st == kTimedout || st == kCanceled)) {
                const unsigned mx = k.call.mtx;
                if (k.released) {
                    CHECK(hold_by[mx] < 0 || reaping[mx],
                          "%s edge %" PRIu64 ": client %u retook "
                          "mutex %u which client %d holds",
                          sh.name, edges, c, mx, hold_by[mx]);
                    hold_by[mx] = static_cast<int>(c);
                    hold_depth[mx] = k.depth;
                    reaping[mx] = 0;
                } else {
                    CHECK(hold_by[mx] == int(c),
                          "%s edge %" PRIu64 ": client %u's condition wait "
                          "answered %s without holding mutex %u",
                          sh.name, edges, c, status_name(st), mx);
                }
            } else if (k.call.op == kSemPost && st == kOk && o < O) {
                ++sem_count[o];
            } else if ((k.call.op == kSemWait || k.call.op == kSemTrywait) && st == kOk && o < O) {
                --sem_count[o];
            }
        }
        for (unsigned c = 0; c < N; ++c) {
            CHECK(!get(dut->waiting_o, c, 1) || t[c].out,
                  "%s edge %" PRIu64 ": client %u waiting without a call", sh.name, edges, c);
            if (!in.flush[c])
                continue;
            // Reset: its call is dropped (blocked, or still to be carried out), its
            // mutexes are given up in the manager's time.
            if (t[c].out) {
                t[c].out = false;
                ++dropped;
            }
            t[c].pending = false;
            in.req[c] = 0;
            for (unsigned o = 0; o < O; ++o)
                if (hold_by[o] == int(c))
                    reaping[o] = 1;
        }

        // Inspection.
        if (rd_sweep) {
            const unsigned keep = in.rd_obj;
            for (unsigned o = 0; o <= O; ++o) {
                dut->rd_obj_i = o;
                dut->eval();
                check_rd(o);
            }
            dut->rd_obj_i = 255;
            dut->eval();
            check_rd(255);
            dut->rd_obj_i = keep;
            dut->eval();
        } else {
            check_rd(in.rd_obj);
        }
        in.cfg.valid = false;
    }

    void run(unsigned n)
    {
        for (unsigned i = 0; i < n; ++i)
            cycle();
    }

    // Raise a call for client c; its fields are held until it is taken.
    void raise(unsigned c, const Call &k)
    {
        in.req[c] = 1;
        in.call[c] = k;
        t[c].pending = true;
        t[c].call = k;
        t[c].status = -1;
    }

    bool quiet() const
    {
        for (unsigned c = 0; c < N; ++c)
            if (in.req[c] || m.rsp[c] >= 0)
                return false;
        return m.idle(in);
    }
    void settle(unsigned max = 400)
    {
        unsigned i = 0;
        while (!quiet() && i++ < max)
            cycle();
        CHECK(quiet(), "%s: the manager does not settle", sh.name);
    }

    // The answer c got since it last read one (-1: none: blocked).
    int answer(unsigned c)
    {
        const int s = t[c].status;
        t[c].status = -1;
        return s;
    }
    void take(unsigned c, const Call &k)
    {
        raise(c, k);
        for (unsigned i = 0; t[c].pending && i < 400; ++i)
            cycle();
        CHECK(!t[c].pending, "%s: client %u's %s not taken", sh.name, c, op_name(k.op));
    }
    // One call from c: raised, taken, the manager settled. Its answer or -1 (blocked).
    int call(unsigned c, const Call &k)
    {
        take(c, k);
        settle();
        return answer(c);
    }
    // The same, without waiting for the priorities to settle (long loops).
    int call_fast(unsigned c, const Call &k)
    {
        take(c, k);
        for (unsigned i = 0; t[c].out && !waiting(c) && i < 50; ++i)
            cycle();
        return answer(c);
    }
    // A configuration: checked in one cycle (its answer), written at the next edge.
    unsigned configure(unsigned o, unsigned type, unsigned kind = 0, bool pi = false,
                       unsigned count = 0, unsigned max = 0)
    {
        in.cfg = Cfg{true, o, type, kind, pi, count, max};
        cycle();
        const unsigned st = dut->cfg_status_o;
        cycle();
        return st;
    }
    uint32_t rd(unsigned o)
    {
        dut->rd_obj_i = o;
        dut->eval();
        const uint32_t v = dut->rd_state_o;
        dut->rd_obj_i = in.rd_obj;
        dut->eval();
        return v;
    }
    uint64_t rd_waiters(unsigned o)
    {
        dut->rd_obj_i = o;
        dut->eval();
        const uint64_t v = get(dut->rd_waiters_o, 0, N);
        dut->rd_obj_i = in.rd_obj;
        dut->eval();
        return v;
    }
    bool waiting(unsigned c) { return get(dut->waiting_o, c, 1); }
    unsigned eff(unsigned c) { return static_cast<unsigned>(get(dut->eff_prio_o, c * 7, 7)); }
    unsigned depth(unsigned o) { return rd(o) >> 16; }
    unsigned holder(unsigned o) { return (rd(o) >> 8) & 0xff; }
    void set_prio(unsigned c, unsigned p) { in.prio[c] = p; }
    // Cycles until client c's effective priority is p (at most max); the edge it came at.
    uint64_t until_eff(unsigned c, unsigned p, unsigned max = 100)
    {
        for (unsigned i = 0; eff(c) != p && i < max; ++i)
            cycle();
        return edges;
    }
};

#define EXPECT(b, c, k, want)                                                                      \
    do {                                                                                           \
        const int got_ = (b).call((c), (k));                                                       \
        CHECK(got_ == int(want), "%s: client %u %s obj %u: %s, expected %s", (b).sh.name, (c),     \
              op_name((k).op), (k).obj, status_name(got_), status_name(int(want)));                \
    } while (0)

// ---- directed tests ----------------------------------------------------------------------
// Objects: 0 semaphore (1 of 2), 1 mutex (normal), 2 mutex (recursive, inheritance),
// 3 condition, 4 mutex (error-checking, inheritance), 5 condition, 6 semaphore (0 of 1).
// Clients 0 to 3.

template <typename Dut> void setup(Bench<Dut> &b)
{
    b.rd_sweep = true;
    CHECK(b.configure(0, kTypeSem, 0, false, 1, 2) == kOk, "cfg 0");
    CHECK(b.configure(1, kTypeMutex, kKindNormal) == kOk, "cfg 1");
    CHECK(b.configure(2, kTypeMutex, kKindRecursive, true) == kOk, "cfg 2");
    CHECK(b.configure(3, kTypeCond) == kOk, "cfg 3");
    CHECK(b.configure(4, kTypeMutex, kKindErrorcheck, true) == kOk, "cfg 4");
    CHECK(b.configure(5, kTypeCond) == kOk, "cfg 5");
    CHECK(b.configure(6, kTypeSem, 0, false, 0, 1) == kOk, "cfg 6");
    for (unsigned c = 0; c < b.N; ++c)
        b.set_prio(c, 8);
    b.settle();
}

template <typename Dut> void test_config_refusals(const Shape &sh)
{
    Bench<Dut> b(sh);
    b.rd_sweep = true;
    CHECK(b.configure(sh.objs, kTypeSem, 0, false, 0, 1) == kBadhandle, "cfg out of range");
    CHECK(b.configure(255, kTypeMutex) == kBadhandle, "cfg 255");
    CHECK(b.configure(0, kTypeMutex, 3) == kBadargs, "cfg kind 3");
    CHECK(b.configure(0, kTypeSem, 0, false, 0, 0) == kBadargs, "cfg sem max 0");
    CHECK(b.configure(0, kTypeSem, 0, false, 3, 2) == kBadargs, "cfg sem count > max");
    CHECK(b.rd(0) == 0, "a refused configuration changed object 0: %08x", b.rd(0));
    CHECK(b.configure(0, kTypeSem, 0, false, 2, 2) == kOk, "cfg sem 2 of 2");
    CHECK(b.rd(0) == ((2u << 16) | kTypeSem), "sem state %08x", b.rd(0));
    CHECK(b.configure(1, kTypeMutex, kKindRecursive, true) == kOk, "cfg rec pi");
    CHECK(b.rd(1) == 0x16, "recursive inheriting mutex state %08x", b.rd(1));
    CHECK(b.configure(1, kTypeSem, 0, false, 65535, 65535) == kOk, "cfg sem max 65535");
    CHECK(b.rd(1) == ((65535u << 16) | kTypeSem), "state %08x", b.rd(1));
    // cfg_status_o is the last configuration's answer.
    CHECK(b.configure(sh.objs, kTypeSem) == kBadhandle, "cfg");
    b.run(1);
    CHECK(b.dut->cfg_status_o == kBadhandle, "cfg_status_o changed without a write");
}

// A configuration is checked in its cycle and written at the next edge: no call is taken in
// either. An event in READ or EXECUTE when one comes reads again after the write.
template <typename Dut> void test_config_cycle(const Shape &sh)
{
    Bench<Dut> c(sh);
    setup(c);
    c.raise(0, mk(kSemTrywait, 6)); // semaphore 6: 0 of 1
    c.in.cfg = Cfg{true, 6, kTypeSem, 0, false, 1, 1};
    c.cycle();
    CHECK(c.t[0].pending, "a call was taken in a configuration's cycle");
    CHECK(c.dut->cfg_status_o == kOk, "cfg");
    c.cycle();
    CHECK(c.t[0].pending, "a call was taken in the cycle a configuration is written");
    c.cycle();
    CHECK(!c.t[0].pending, "the call not taken after the configuration");
    c.settle();
    CHECK(c.answer(0) == kOk && c.depth(6) == 0, "trywait after the configuration");
    // A configuration while the call is in READ (the cycle after the edge that took it):
    // READ again once it is written (two cycles later), then EXECUTE: answered at the
    // fourth edge after the take, with what the configuration wrote (a count of 1).
    c.take(0, mk(kSemTrywait, 6));
    uint64_t e0 = c.t[0].taken;
    c.in.cfg = Cfg{true, 6, kTypeSem, 0, false, 1, 1};
    c.settle();
    CHECK(c.t[0].status == kOk && c.t[0].answered == e0 + 4,
          "%s: configuration in READ: %s after %" PRIu64 " edges, expected OK after 4", sh.name,
          status_name(c.t[0].status), c.t[0].answered - e0);
    c.answer(0);
    // ... in EXECUTE: back to READ, answered at the fifth edge.
    c.take(0, mk(kSemTrywait, 6));
    e0 = c.t[0].taken;
    c.cycle();
    c.in.cfg = Cfg{true, 6, kTypeSem, 0, false, 1, 1};
    c.settle();
    CHECK(c.t[0].status == kOk && c.t[0].answered == e0 + 5,
          "%s: configuration in EXECUTE: %s after %" PRIu64 " edges, expected OK after 5", sh.name,
          status_name(c.t[0].status), c.t[0].answered - e0);
    c.answer(0);
    CHECK(c.depth(6) == 0, "count %u", c.depth(6));
    // A refused configuration takes its cycle, but has nothing to write in the next.
    c.raise(1, mk(kSemPost, 6));
    c.in.cfg = Cfg{true, sh.objs, kTypeSem, 0, false, 1, 1};
    c.cycle();
    CHECK(c.t[1].pending && c.dut->cfg_status_o == kBadhandle, "refused configuration");
    c.cycle();
    CHECK(!c.t[1].pending, "a call not taken after a refused configuration");
    c.settle();
    CHECK(c.answer(1) == kOk && c.depth(6) == 1, "post after a refused configuration");
}

// In use: BUSY; free again: OK.
template <typename Dut> void test_config_busy(const Shape &sh)
{
    Bench<Dut> d(sh);
    setup(d);
    EXPECT(d, 0, mk(kMutexLock, 1), kOk);
    CHECK(d.configure(1, kTypeSem, 0, false, 0, 1) == kBusy, "cfg held mutex");
    CHECK(d.configure(1, kTypeMutex, kKindRecursive) == kBusy, "cfg held mutex");
    CHECK(d.rd(1) == ((1u << 16) | kTypeMutex), "a refused configuration changed it: %08x",
          d.rd(1));
    EXPECT(d, 0, mk(kMutexUnlock, 1), kOk);
    CHECK(d.configure(1, kTypeMutex) == kOk, "cfg free mutex");
    EXPECT(d, 1, mk(kSemWait, 6), -1);
    CHECK(d.configure(6, kTypeSem, 0, false, 0, 3) == kBusy, "cfg waited semaphore");
    EXPECT(d, 2, mk(kSemPost, 6), kOk);
    CHECK(d.answer(1) == kOk, "woken");
    CHECK(d.configure(6, kTypeSem, 0, false, 0, 3) == kOk, "cfg semaphore");
    EXPECT(d, 0, mk(kMutexLock, 1), kOk);
    EXPECT(d, 0, mk(kCondWait, 3, 1), -1);
    CHECK(d.configure(3, kTypeCond) == kBusy, "cfg waited condition");
    CHECK(d.configure(1, kTypeMutex) == kBusy, "cfg a free mutex a condition's waiter retakes");
    CHECK(d.configure(4, kTypeMutex) == kOk, "cfg unrelated mutex");
    EXPECT(d, 2, mk(kMutexLock, 1), kOk);
    EXPECT(d, 2, mk(kCondSignal, 3), kOk);
    CHECK(d.configure(3, kTypeCond) == kOk, "cfg condition without waiters");
    CHECK(d.configure(1, kTypeMutex) == kBusy, "cfg a mutex with a waiter (retaking)");
    EXPECT(d, 2, mk(kMutexUnlock, 1), kOk);
    CHECK(d.answer(0) == kOk, "the condition wait");
    EXPECT(d, 0, mk(kMutexUnlock, 1), kOk);
    CHECK(d.configure(1, kTypeNone) == kOk, "unconfigure");
    EXPECT(d, 0, mk(kMutexLock, 1), kBadhandle);
}

template <typename Dut> void test_handles(const Shape &sh)
{
    Bench<Dut> b(sh);
    setup(b);
    CHECK(b.configure(6, kTypeNone) == kOk, "unconfigure 6");
    for (unsigned op = 0; op < kNumOps; ++op) {
        EXPECT(b, 0, mk(op, sh.objs, 1), kBadhandle);
        EXPECT(b, 0, mk(op, 255, 1), kBadhandle);
        EXPECT(b, 1, mk(op, 6, 1), kBadhandle);
    }
    for (unsigned op : {kSemPost, kSemWait, kSemTrywait}) {
        EXPECT(b, 0, mk(op, 1), kWrongType);
        EXPECT(b, 0, mk(op, 3), kWrongType);
    }
    for (unsigned op : {kMutexLock, kMutexTrylock, kMutexUnlock}) {
        EXPECT(b, 0, mk(op, 0), kWrongType);
        EXPECT(b, 0, mk(op, 5), kWrongType);
    }
    for (unsigned op : {kCondWait, kCondSignal, kCondBroadcast}) {
        EXPECT(b, 0, mk(op, 0, 1), kWrongType);
        EXPECT(b, 0, mk(op, 2, 1), kWrongType);
    }
    for (unsigned op = kNumOps; op < 16; ++op)
        for (unsigned o : {0u, 1u, 3u})
            EXPECT(b, 2, mk(op, o), kNosys);
    // An unknown call on a bad handle: NOSYS first (docs/osif.md, "Bad input: error
    // response or fault", checked in this order), as the delegate answers it.
    EXPECT(b, 2, mk(9, 255), kNosys);
    EXPECT(b, 2, mk(15, 6), kNosys);
    CHECK(b.rd(0) == ((1u << 16) | kTypeSem), "failed calls changed semaphore 0: %08x", b.rd(0));
}

template <typename Dut> void test_sem(const Shape &sh)
{
    const unsigned M = sh.mhz;
    Bench<Dut> b(sh);
    setup(b);
    EXPECT(b, 0, mk(kSemWait, 0), kOk);
    EXPECT(b, 0, mk(kSemTrywait, 0), kAgain);
    EXPECT(b, 0, mk(kSemPost, 0), kOk);
    EXPECT(b, 0, mk(kSemPost, 0), kOk);
    EXPECT(b, 0, mk(kSemPost, 0), kOverflow);
    CHECK(b.depth(0) == 2, "count %u after OVERFLOW", b.depth(0));
    EXPECT(b, 1, mk(kSemTrywait, 0), kOk);
    EXPECT(b, 1, timed(kSemWait, 0, 0), kOk); // a count: timeout 0 takes it
    EXPECT(b, 1, timed(kSemWait, 0, 0), kTimedout);
    CHECK(b.lat_call.size() == 1 && b.lat_call.count(kLatency),
          "answers not in the third cycle after the call");
    b.in.cancel[1] = 1;
    EXPECT(b, 1, mk(kSemWait, 0), kCanceled);
    EXPECT(b, 1, timed(kSemWait, 0, 5), kCanceled);
    EXPECT(b, 1, mk(kSemTrywait, 0), kAgain);
    EXPECT(b, 1, mk(kSemPost, 0), kOk);
    EXPECT(b, 1, mk(kSemWait, 0), kOk); // would not block: cancel_i does not matter
    b.in.cancel[1] = 0;

    // Blocks; a post wakes it in the post's cycle, the count stays 0.
    EXPECT(b, 1, mk(kSemWait, 0), -1);
    CHECK(b.waiting(1) && b.rd_waiters(0) == 2, "waiting %u waiters %" PRIx64, b.waiting(1),
          b.rd_waiters(0));
    b.run(10);
    CHECK(b.answer(1) == -1 && b.waiting(1), "woken without a post");
    EXPECT(b, 2, mk(kSemPost, 0), kOk);
    CHECK(b.answer(1) == kOk && b.t[1].answered == b.t[2].answered,
          "the waiter's answer (edge %" PRIu64 ") is not the post's (%" PRIu64 ")", b.t[1].answered,
          b.t[2].answered);
    CHECK(b.depth(0) == 0 && !b.waiting(1), "count %u", b.depth(0));

    // Timed waits end TIMEDOUT: blocked at the second edge after the take, the deadline
    // passes more than tmo and at most tmo + 1 microseconds later, the timeout scan finds
    // it within NumClients cycles, the end is answered three cycles after its selection
    // (Bench::tmo_lo, tmo_hi). The counter runs only while a wait counts, so where in a
    // microsecond a wait starts depends on the waits before it: each bound is met.
    for (uint32_t tmo : {1u, 3u, 7u, 1u, 1u, 2u, 1u, 1u}) {
        b.take(1, timed(kSemWait, 0, tmo));
        const uint64_t e0 = b.t[1].taken;
        b.run(2);
        CHECK(b.t[1].blocked && b.t[1].blocked_at == e0 + 2, "not blocked 2 edges after the take");
        while (b.t[1].out && b.edges < e0 + b.tmo_hi(tmo) + 10)
            b.cycle();
        const uint64_t d = b.t[1].answered - e0;
        CHECK(b.answer(1) == kTimedout && d >= b.tmo_lo(tmo) && d <= b.tmo_hi(tmo),
              "%s: timed wait of %u us answered after %" PRIu64 " edges, expected %" PRIu64
              " to %" PRIu64,
              sh.name, tmo, d, b.tmo_lo(tmo), b.tmo_hi(tmo));
        b.settle();
    }
    // A post before the timeout: OK.
    EXPECT(b, 1, timed(kSemWait, 0, 20), -1);
    b.run(4 * M);
    EXPECT(b, 2, mk(kSemPost, 0), kOk);
    CHECK(b.answer(1) == kOk && b.t[1].answered < b.t[1].blocked_at + 20 * M,
          "a post before the timeout");

    // Cancel: its end is selected at the first edge with cancel_i high (the manager has
    // nothing else to do) and answered two edges later.
    EXPECT(b, 1, timed(kSemWait, 0, 1000), -1);
    b.run(5);
    b.in.cancel[1] = 1;
    b.cycle();
    const uint64_t ec = b.edges;
    b.in.cancel[1] = 0;
    b.settle();
    CHECK(b.t[1].status == kCanceled && b.t[1].answered == ec + 2, "cancel: %s after %" PRIu64,
          status_name(b.t[1].status), b.t[1].answered - ec);
    b.answer(1);
    CHECK(b.depth(0) == 0, "count %u", b.depth(0));
    // The largest timeouts count too (32 bits of microseconds).
    EXPECT(b, 1, timed(kSemWait, 0, 0xffffffffu), -1);
    b.run(300);
    CHECK(b.answer(1) == -1 && b.waiting(1), "a 2^32-1 us wait ended");
    EXPECT(b, 2, mk(kSemPost, 0), kOk);
    CHECK(b.answer(1) == kOk, "woken");

    // Waiter order: most urgent first, then first come.
    const unsigned prios[3] = {5, 3, 5};
    for (unsigned c = 1; c <= 3; ++c) {
        b.set_prio(c, prios[c - 1]);
        EXPECT(b, c, mk(kSemWait, 0), -1);
    }
    for (unsigned want : {2u, 1u, 3u}) {
        EXPECT(b, 0, mk(kSemPost, 0), kOk);
        for (unsigned c = 1; c <= 3; ++c) {
            const int a = b.answer(c);
            CHECK((a == kOk) == (c == want), "post woke client %u (%s), expected %u", c,
                  status_name(a), want);
        }
    }
    for (unsigned c : {3u, 1u, 2u}) {
        b.set_prio(c, 4);
        EXPECT(b, c, mk(kSemWait, 0), -1);
    }
    for (unsigned want : {3u, 1u, 2u}) {
        EXPECT(b, 0, mk(kSemPost, 0), kOk);
        CHECK(b.answer(want) == kOk, "FIFO: client %u not woken", want);
    }
    // A priority change reorders the waiters (once the sweep has written it).
    EXPECT(b, 1, mk(kSemWait, 0), -1);
    EXPECT(b, 2, mk(kSemWait, 0), -1);
    b.set_prio(2, 1);
    b.settle();
    CHECK(b.eff(2) == 1, "eff %u", b.eff(2));
    EXPECT(b, 0, mk(kSemPost, 0), kOk);
    CHECK(b.answer(2) == kOk && b.answer(1) == -1, "the more urgent one first");
    EXPECT(b, 0, mk(kSemPost, 0), kOk);
    CHECK(b.answer(1) == kOk, "then the other");
    EXPECT(b, 0, mk(kSemPost, 0), kOk);
    CHECK(b.depth(0) == 1, "count %u", b.depth(0));
}

template <typename Dut> void test_mutex(const Shape &sh)
{
    const unsigned M = sh.mhz;
    Bench<Dut> b(sh);
    setup(b);
    for (unsigned mx : {1u, 4u}) {
        EXPECT(b, 0, mk(kMutexLock, mx), kOk);
        CHECK(b.rd(mx) == ((1u << 16) | (mx == 4 ? 0x1a : 0x02)), "held mutex %u: %08x", mx,
              b.rd(mx));
        EXPECT(b, 0, mk(kMutexLock, mx), kInternal);
        EXPECT(b, 0, mk(kMutexTrylock, mx), kBusy);
        EXPECT(b, 1, mk(kMutexTrylock, mx), kBusy);
        EXPECT(b, 1, mk(kMutexUnlock, mx), kPerm);
        EXPECT(b, 1, timed(kMutexLock, mx, 0), kTimedout);
        b.in.cancel[1] = 1;
        EXPECT(b, 1, mk(kMutexLock, mx), kCanceled);
        b.in.cancel[1] = 0;
        CHECK(b.depth(mx) == 1 && b.holder(mx) == 0, "failed calls changed it");
        EXPECT(b, 1, mk(kMutexLock, mx), -1);
        EXPECT(b, 2, mk(kMutexLock, mx), -1);
        CHECK(b.rd_waiters(mx) == 6, "waiters %" PRIx64, b.rd_waiters(mx));
        EXPECT(b, 0, mk(kMutexUnlock, mx), kOk);
        CHECK(b.answer(1) == kOk && b.t[1].answered == b.t[0].answered && b.holder(mx) == 1 &&
                  b.depth(mx) == 1,
              "unlock hands it to the first waiter");
        EXPECT(b, 1, mk(kMutexUnlock, mx), kOk);
        CHECK(b.answer(2) == kOk && b.holder(mx) == 2, "then the second");
        EXPECT(b, 2, mk(kMutexUnlock, mx), kOk);
        CHECK(b.depth(mx) == 0, "free");
        EXPECT(b, 2, mk(kMutexUnlock, mx), kPerm);
        EXPECT(b, 2, timed(kMutexLock, mx, 0), kOk);
        EXPECT(b, 2, mk(kMutexUnlock, mx), kOk);
    }
    // Recursive.
    EXPECT(b, 0, mk(kMutexLock, 2), kOk);
    EXPECT(b, 0, mk(kMutexLock, 2), kOk);
    EXPECT(b, 0, mk(kMutexLock, 2), kOk);
    EXPECT(b, 0, mk(kMutexTrylock, 2), kOk);
    CHECK(b.rd(2) == ((4u << 16) | 0x16), "depth 4: %08x", b.rd(2));
    EXPECT(b, 1, mk(kMutexTrylock, 2), kBusy);
    EXPECT(b, 1, mk(kMutexLock, 2), -1);
    for (unsigned i = 0; i < 3; ++i) {
        EXPECT(b, 0, mk(kMutexUnlock, 2), kOk);
        CHECK(b.answer(1) == -1 && b.depth(2) == 3 - i, "depth %u", b.depth(2));
    }
    EXPECT(b, 0, mk(kMutexUnlock, 2), kOk);
    CHECK(b.answer(1) == kOk && b.holder(2) == 1 && b.depth(2) == 1, "the last unlock hands it on");
    EXPECT(b, 1, mk(kMutexUnlock, 2), kOk);
    // 65535 deep, then AGAIN (lock and trylock: POSIX's EAGAIN for trylock too).
    b.rd_sweep = false;
    for (unsigned i = 0; i < kMaxDepth; ++i)
        b.call_fast(0, mk(i % 2 ? kMutexLock : kMutexTrylock, 2));
    CHECK(b.depth(2) == kMaxDepth && b.answers == b.calls, "depth %u", b.depth(2));
    EXPECT(b, 0, mk(kMutexLock, 2), kAgain);
    EXPECT(b, 0, mk(kMutexTrylock, 2), kAgain);
    CHECK(b.depth(2) == kMaxDepth, "depth %u", b.depth(2));
    for (unsigned i = 0; i < kMaxDepth; ++i)
        b.call_fast(0, mk(kMutexUnlock, 2));
    b.settle();
    CHECK(b.depth(2) == 0, "depth %u after as many unlocks", b.depth(2));
    b.rd_sweep = true;
    // Timed lock.
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, timed(kMutexLock, 1, 2), -1);
    const uint64_t e0 = b.t[1].taken;
    while (b.t[1].out && b.edges < e0 + b.tmo_hi(2) + 10)
        b.cycle();
    const uint64_t d = b.t[1].answered - e0;
    CHECK(b.answer(1) == kTimedout && d >= b.tmo_lo(2) && d <= b.tmo_hi(2),
          "timed lock answered after %" PRIu64 " edges", d);
    // Priority order.
    b.set_prio(1, 6);
    b.set_prio(2, 2);
    b.set_prio(3, 6);
    for (unsigned c = 1; c <= 3; ++c)
        EXPECT(b, c, mk(kMutexLock, 1), -1);
    unsigned h = 0;
    for (unsigned want : {2u, 1u, 3u}) {
        EXPECT(b, h, mk(kMutexUnlock, 1), kOk);
        CHECK(b.answer(want) == kOk && b.holder(1) == want, "client %u should have it (%u)", want,
              b.holder(1));
        h = want;
    }
    EXPECT(b, h, mk(kMutexUnlock, 1), kOk);
}

template <typename Dut> void test_cond(const Shape &sh)
{
    const unsigned M = sh.mhz;
    Bench<Dut> b(sh);
    setup(b);
    // A wait gives the mutex up; a signal moves the waiter to the mutex; it is answered
    // once it holds the mutex again.
    EXPECT(b, 1, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kCondWait, 3, 1), -1);
    CHECK(b.depth(1) == 0 && b.rd_waiters(3) == 2, "mutex depth %u, waiters %" PRIx64, b.depth(1),
          b.rd_waiters(3));
    EXPECT(b, 2, mk(kMutexLock, 1), kOk);
    EXPECT(b, 2, mk(kCondSignal, 3), kOk);
    CHECK(b.answer(1) == -1 && b.waiting(1) && b.rd_waiters(3) == 0 && b.rd_waiters(1) == 2,
          "signalled waiter: now a waiter of the mutex");
    b.in.cancel[1] = 1; // retaking the mutex: no cancel ends it
    b.run(20);
    CHECK(b.answer(1) == -1 && b.waiting(1), "a cancel ended the retake");
    EXPECT(b, 2, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(1) == kOk && b.t[1].answered == b.t[2].answered && b.holder(1) == 1,
          "answered with the unlock");
    b.in.cancel[1] = 0;
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    // Signal with the mutex free: answered at once.
    EXPECT(b, 1, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kCondWait, 3, 1), -1);
    EXPECT(b, 2, mk(kCondSignal, 3), kOk);
    CHECK(b.answer(1) == kOk && b.t[1].answered == b.t[2].answered && b.holder(1) == 1 &&
              b.depth(1) == 1,
          "signal with the mutex free");
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    EXPECT(b, 2, mk(kCondSignal, 3), kOk); // nobody waits
    EXPECT(b, 2, mk(kCondBroadcast, 3), kOk);
    // Broadcast: every waiter goes on to the mutex, served by priority.
    const unsigned prios[3] = {4, 2, 4};
    for (unsigned c = 1; c <= 3; ++c) {
        b.set_prio(c, prios[c - 1]);
        EXPECT(b, c, mk(kMutexLock, 1), kOk);
        EXPECT(b, c, mk(kCondWait, 3, 1), -1);
    }
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 0, mk(kCondBroadcast, 3), kOk);
    CHECK(b.rd_waiters(1) == 0xe && b.rd_waiters(3) == 0, "broadcast: mutex waiters %" PRIx64,
          b.rd_waiters(1));
    unsigned h = 0;
    for (unsigned want : {2u, 1u, 3u}) {
        EXPECT(b, h, mk(kMutexUnlock, 1), kOk);
        CHECK(b.answer(want) == kOk && b.holder(1) == want, "broadcast: %u should have it", want);
        h = want;
    }
    EXPECT(b, h, mk(kMutexUnlock, 1), kOk);
    // Broadcast with the mutex free: the best takes it at once.
    for (unsigned c = 1; c <= 2; ++c) {
        b.set_prio(c, 4);
        EXPECT(b, c, mk(kMutexLock, 1), kOk);
        EXPECT(b, c, mk(kCondWait, 3, 1), -1);
    }
    EXPECT(b, 0, mk(kCondBroadcast, 3), kOk);
    CHECK(b.answer(1) == kOk && b.answer(2) == -1 && b.holder(1) == 1, "broadcast, mutex free");
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(2) == kOk && b.holder(1) == 2, "then the other");
    EXPECT(b, 2, mk(kMutexUnlock, 1), kOk);

    // Refusals.
    EXPECT(b, 1, mk(kCondWait, 3, 1), kPerm);
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kCondWait, 3, 1), kPerm);
    EXPECT(b, 0, mk(kCondWait, 3, 0), kBadargs);
    EXPECT(b, 0, mk(kCondWait, 3, 5), kBadargs);
    EXPECT(b, 0, mk(kCondWait, 3, sh.objs), kBadargs);
    EXPECT(b, 0, mk(kCondWait, 3, 255), kBadargs);
    EXPECT(b, 0, mk(kCondWait, 1, 1), kWrongType);
    EXPECT(b, 0, timed(kCondWait, 3, 0, 1), kTimedout);
    b.in.cancel[0] = 1;
    EXPECT(b, 0, mk(kCondWait, 3, 1), kCanceled);
    b.in.cancel[0] = 0;
    CHECK(b.holder(1) == 0 && b.depth(1) == 1, "a refused wait gave the mutex up");
    EXPECT(b, 0, mk(kMutexUnlock, 1), kOk);
    // Another waiter's mutex: BADARGS; once nobody waits, another mutex is fine.
    EXPECT(b, 1, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kCondWait, 3, 1), -1);
    EXPECT(b, 2, mk(kMutexLock, 4), kOk);
    EXPECT(b, 2, mk(kCondWait, 3, 4), kBadargs);
    CHECK(b.holder(4) == 2 && b.depth(4) == 1, "still holds 4");
    EXPECT(b, 0, mk(kCondSignal, 3), kOk);
    CHECK(b.answer(1) == kOk, "signalled");
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    EXPECT(b, 2, mk(kCondWait, 3, 4), -1);
    EXPECT(b, 0, mk(kCondSignal, 3), kOk);
    CHECK(b.answer(2) == kOk && b.holder(4) == 2, "signalled, holds 4");
    EXPECT(b, 2, mk(kMutexUnlock, 4), kOk);
    // A recursive mutex comes back at its depth.
    for (unsigned i = 0; i < 3; ++i)
        EXPECT(b, 1, mk(kMutexLock, 2), kOk);
    EXPECT(b, 1, mk(kCondWait, 5, 2), -1);
    CHECK(b.depth(2) == 0, "given up wholly: depth %u", b.depth(2));
    EXPECT(b, 2, mk(kMutexLock, 2), kOk);
    EXPECT(b, 2, mk(kCondSignal, 5), kOk);
    EXPECT(b, 2, mk(kMutexUnlock, 2), kOk);
    CHECK(b.answer(1) == kOk && b.holder(2) == 1 && b.depth(2) == 3, "back at depth %u",
          b.depth(2));
    for (unsigned i = 0; i < 3; ++i)
        EXPECT(b, 1, mk(kMutexUnlock, 2), kOk);
    // Timed wait that expires with the mutex held elsewhere: TIMEDOUT once retaken. (The
    // timeouts here are long enough for the calls made before they pass.)
    EXPECT(b, 1, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, timed(kCondWait, 3, 10, 1), -1);
    uint64_t e0 = b.t[1].taken;
    EXPECT(b, 2, mk(kMutexLock, 1), kOk);
    CHECK(b.edges < e0 + b.tmo_lo(10), "too slow for the timeout");
    while (b.edges < e0 + b.tmo_hi(10) + 20)
        b.cycle();
    CHECK(b.answer(1) == -1 && b.waiting(1) && b.rd_waiters(1) == 2, "answered before retaking");
    EXPECT(b, 2, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(1) == kTimedout && b.holder(1) == 1 && b.t[1].answered == b.t[2].answered,
          "TIMEDOUT with the mutex");
    // ... and with the mutex free: as a timed semaphore wait, holding it.
    EXPECT(b, 1, timed(kCondWait, 3, 3, 1), -1);
    e0 = b.t[1].taken;
    while (b.t[1].out && b.edges < e0 + b.tmo_hi(3) + 10)
        b.cycle();
    const uint64_t d = b.t[1].answered - e0;
    CHECK(b.answer(1) == kTimedout && d >= b.tmo_lo(3) && d <= b.tmo_hi(3) && b.holder(1) == 1 &&
              b.depth(1) == 1,
          "timed condition wait answered after %" PRIu64 " edges", d);
    // Cancel with the mutex free: answered two edges after the one that selects its end.
    EXPECT(b, 1, mk(kCondWait, 3, 1), -1);
    b.in.cancel[1] = 1;
    b.cycle();
    const uint64_t ec = b.edges;
    b.in.cancel[1] = 0;
    b.settle();
    CHECK(b.t[1].status == kCanceled && b.t[1].answered == ec + 2 && b.holder(1) == 1,
          "cancelled condition wait");
    b.answer(1);
    // Signalled before its timeout, then held past it: OK.
    EXPECT(b, 1, timed(kCondWait, 3, 10, 1), -1);
    e0 = b.t[1].taken;
    EXPECT(b, 2, mk(kMutexLock, 1), kOk);
    EXPECT(b, 2, mk(kCondSignal, 3), kOk);
    CHECK(b.edges < e0 + b.tmo_lo(10), "too slow for the timeout");
    b.run(11 * M + b.N);
    CHECK(b.answer(1) == -1, "timed out while retaking");
    EXPECT(b, 2, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(1) == kOk, "signalled: OK");
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    // A signalled waiter keeps its place among the mutex's waiters...
    for (unsigned c = 0; c < 4; ++c)
        b.set_prio(c, 4);
    b.settle();
    EXPECT(b, 1, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kCondWait, 3, 1), -1);
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 3, mk(kMutexLock, 1), -1);
    EXPECT(b, 0, mk(kCondSignal, 3), kOk);
    EXPECT(b, 0, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(1) == kOk && b.answer(3) == -1, "the signalled waiter came first");
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(3) == kOk, "then the locker");
    EXPECT(b, 3, mk(kMutexUnlock, 1), kOk);
    // ... one that timed out queues as the newest.
    EXPECT(b, 1, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, timed(kCondWait, 3, 10, 1), -1);
    e0 = b.t[1].taken;
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 3, mk(kMutexLock, 1), -1);
    CHECK(b.edges < e0 + b.tmo_lo(10), "too slow for the timeout");
    while (b.edges < e0 + b.tmo_hi(10) + 5)
        b.cycle();
    EXPECT(b, 0, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(3) == kOk && b.answer(1) == -1, "the timed-out waiter came first");
    EXPECT(b, 3, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(1) == kTimedout, "then it, TIMEDOUT");
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
}

template <typename Dut> void test_inherit(const Shape &sh)
{
    Bench<Dut> b(sh);
    setup(b);
    b.set_prio(0, 10);
    b.set_prio(1, 3);
    b.set_prio(2, 20);
    b.set_prio(3, 30);
    b.settle();
    EXPECT(b, 0, mk(kMutexLock, 2), kOk);
    // The sweep looks at one client a cycle and writes its new value three edges after its
    // turn; the event that blocks the waiter restarts it, so the holder's turn comes within
    // NumClients cycles after the edge the waiter blocks at.
    const unsigned N = b.N;
    b.take(1, mk(kMutexLock, 2));
    while (!b.waiting(1))
        b.cycle();
    uint64_t eb = b.edges;
    CHECK(b.eff(0) == 10 && !b.dut->settled_o, "inherits at the blocking edge");
    uint64_t e = b.until_eff(0, 3);
    CHECK(b.eff(0) == 3 && e >= eb + 3 && e <= eb + N + 2,
          "eff %u %" PRIu64 " edges after the waiter blocked, expected 3 after 3 to %u", b.eff(0),
          e - eb, N + 2);
    b.settle();
    CHECK(b.dut->settled_o, "settled_o low once settled");
    // A change of prio_i is registered at the next edge, which restarts the sweep: the
    // waiter's own value is written 4 to NumClients + 3 edges after the change, the
    // holder's 3 to NumClients + 2 edges after that (a turn before saw the old value).
    b.set_prio(1, 1);
    const uint64_t p0 = b.edges;
    b.cycle();
    CHECK(!b.dut->settled_o, "settled_o high after a change of prio_i");
    const uint64_t e1 = b.until_eff(1, 1);
    const uint64_t e0 = b.until_eff(0, 1);
    CHECK(b.eff(1) == 1 && b.eff(0) == 1 && e1 >= p0 + 4 && e1 <= p0 + N + 3 && e0 >= e1 + 3 &&
              e0 <= e1 + N + 2,
          "prio 1 -> 1: eff of the waiter %" PRIu64
          " edges after the change, of the holder %" PRIu64 " after that",
          e1 - p0, e0 - e1);
    b.set_prio(1, 3);
    b.settle();
    // The holder's eff orders it as a waiter: 0 (eff 3) before 2 (5) on semaphore 6.
    b.set_prio(2, 5);
    EXPECT(b, 0, mk(kSemWait, 6), -1);
    EXPECT(b, 2, mk(kSemWait, 6), -1);
    EXPECT(b, 3, mk(kSemPost, 6), kOk);
    CHECK(b.answer(0) == kOk && b.answer(2) == -1, "the inheriting waiter first");
    EXPECT(b, 3, mk(kSemPost, 6), kOk);
    CHECK(b.answer(2) == kOk, "then the other");
    EXPECT(b, 0, mk(kMutexUnlock, 2), kOk);
    CHECK(b.answer(1) == kOk, "handed on");
    b.settle();
    CHECK(b.eff(0) == 10, "restored: %u", b.eff(0));
    EXPECT(b, 1, mk(kMutexUnlock, 2), kOk);
    // No inheritance through mutex 1.
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kMutexLock, 1), -1);
    b.run(10);
    CHECK(b.eff(0) == 10, "inherited through a mutex without it: %u", b.eff(0));
    EXPECT(b, 0, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(1) == kOk, "handed on");
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    // A chain: 1 waits on 2 held by 2, which waits on 4 held by 3.
    b.set_prio(2, 20);
    b.settle();
    EXPECT(b, 3, mk(kMutexLock, 4), kOk);
    EXPECT(b, 2, mk(kMutexLock, 2), kOk);
    EXPECT(b, 2, mk(kMutexLock, 4), -1);
    CHECK(b.eff(3) == 20, "eff %u", b.eff(3));
    b.take(1, mk(kMutexLock, 2));
    while (!b.waiting(1))
        b.cycle();
    eb = b.edges;
    const uint64_t e2 = b.until_eff(2, 3);
    const uint64_t e3 = b.until_eff(3, 3);
    CHECK(b.eff(3) == 3 && b.eff(2) == 3 && e2 >= eb + 3 && e2 <= eb + N + 2 && e3 >= e2 + 3 &&
              e3 <= e2 + N + 2,
          "chain: the first link %" PRIu64 " edges after the block, the second %" PRIu64
          " after that",
          e2 - eb, e3 - e2);
    b.in.cancel[1] = 1;
    b.cycle();
    b.in.cancel[1] = 0;
    b.settle();
    CHECK(b.answer(1) == kCanceled, "cancelled");
    CHECK(b.eff(2) == 20 && b.eff(3) == 20, "restored: %u %u", b.eff(2), b.eff(3));
    EXPECT(b, 3, mk(kMutexUnlock, 4), kOk);
    CHECK(b.answer(2) == kOk, "handed on");
    EXPECT(b, 2, mk(kMutexUnlock, 4), kOk);
    EXPECT(b, 2, mk(kMutexUnlock, 2), kOk);
    // A condition's waiter retaking an inheriting mutex lends its priority too.
    EXPECT(b, 1, mk(kMutexLock, 2), kOk);
    EXPECT(b, 1, mk(kCondWait, 5, 2), -1);
    EXPECT(b, 3, mk(kMutexLock, 2), kOk);
    EXPECT(b, 3, mk(kCondSignal, 5), kOk);
    CHECK(b.eff(3) == 3, "retaking waiter lends: %u", b.eff(3));
    EXPECT(b, 3, mk(kMutexUnlock, 2), kOk);
    CHECK(b.answer(1) == kOk, "retaken");
    EXPECT(b, 1, mk(kMutexUnlock, 2), kOk);
}

// Inheritance around a deadlock: 1 holds 2 and waits on 4, 2 holds 4 and waits on 2, so
// each lends the other its effective priority at every turn of the sweep. Recomputed from
// the registers (the specification's rule, which the model follows), the loop keeps the most urgent
// priority it ever had after that client's own becomes less urgent, not the least urgent
// values the rule allows (10 for both). Once the deadlock ends, the priorities are right again.
template <typename Dut> void test_inherit_deadlock(const Shape &sh)
{
    Bench<Dut> b(sh);
    setup(b);
    b.set_prio(1, 1);
    b.set_prio(2, 10);
    b.settle();
    EXPECT(b, 1, mk(kMutexLock, 2), kOk);
    EXPECT(b, 2, mk(kMutexLock, 4), kOk);
    EXPECT(b, 1, mk(kMutexLock, 4), -1);
    EXPECT(b, 2, mk(kMutexLock, 2), -1);
    CHECK(b.eff(1) == 1 && b.eff(2) == 1, "deadlock: eff %u %u", b.eff(1), b.eff(2));
    b.set_prio(1, 20);
    b.run(50);
    if (b.eff(1) != 10 || b.eff(2) != 10)
        std::printf("%s: inheritance around a deadlock keeps effective priorities %u and %u "
                    "after client 1's own priority went from 1 to 20 (10 and 10: the least "
                    "urgent values the rule allows)\n",
                    sh.name, b.eff(1), b.eff(2));
    b.in.cancel[2] = 1;
    b.cycle();
    b.in.cancel[2] = 0;
    b.settle();
    CHECK(b.answer(2) == kCanceled, "cancelled");
    CHECK(b.eff(1) == 20 && b.eff(2) == 10, "after the deadlock: eff %u %u", b.eff(1), b.eff(2));
    EXPECT(b, 2, mk(kMutexUnlock, 4), kOk);
    CHECK(b.answer(1) == kOk && b.holder(4) == 1, "handed on");
    EXPECT(b, 1, mk(kMutexUnlock, 4), kOk);
    EXPECT(b, 1, mk(kMutexUnlock, 2), kOk);
}

template <typename Dut> void test_flush(const Shape &sh)
{
    Bench<Dut> b(sh);
    setup(b);
    b.set_prio(1, 5);
    b.set_prio(2, 5);
    b.set_prio(3, 1);
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 0, mk(kMutexLock, 2), kOk);
    EXPECT(b, 0, mk(kMutexLock, 2), kOk);
    EXPECT(b, 0, mk(kMutexLock, 4), kOk);
    EXPECT(b, 1, mk(kMutexLock, 1), -1);
    EXPECT(b, 2, mk(kMutexLock, 4), -1);
    EXPECT(b, 3, mk(kMutexLock, 4), -1);
    b.in.flush[0] = 1;
    b.cycle();
    b.in.flush[0] = 0;
    b.settle();
    CHECK(b.answer(0) == -1, "a reset client answered");
    CHECK(b.answer(1) == kOk && b.holder(1) == 1 && b.depth(1) == 1, "mutex 1 to its waiter");
    CHECK(b.depth(2) == 0, "mutex 2 free: depth %u", b.depth(2));
    CHECK(b.answer(3) == kOk && b.holder(4) == 3 && b.answer(2) == -1 && b.rd_waiters(4) == 4,
          "mutex 4 to its most urgent waiter");
    EXPECT(b, 0, mk(kMutexTrylock, 2), kOk);
    EXPECT(b, 0, mk(kMutexUnlock, 2), kOk);
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    EXPECT(b, 3, mk(kMutexUnlock, 4), kOk);
    CHECK(b.answer(2) == kOk, "handed on");
    EXPECT(b, 2, mk(kMutexUnlock, 4), kOk);
    // Held in reset: its mutexes go meanwhile (the scan looks at object 1 in the cycle
    // after the third edge after the reset's, has its reap selected at the next edge and
    // answered two edges later); no call of it is taken until the scan has passed every
    // object, two cycles each.
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kMutexLock, 1), -1);
    b.in.flush[0] = 1;
    b.cycle();
    const uint64_t f = b.edges;
    for (unsigned i = 0; i < 12; ++i) { // a call raised while held in reset is not taken
        b.raise(0, mk(kSemTrywait, 0));
        b.cycle();
        CHECK(!b.t[0].out, "a call taken while its client is held in reset");
    }
    CHECK(b.answer(1) == kOk && b.holder(1) == 1 && b.t[1].answered == f + 6,
          "given up while held in reset (answered %" PRIu64 " edges after it)",
          b.t[1].answered - f);
    b.in.flush[0] = 0;
    b.raise(0, mk(kSemTrywait, 0));
    while (b.t[0].pending && b.edges < f + 400)
        b.cycle();
    CHECK(b.t[0].taken > f + 2 * b.O,
          "a call of a reset client taken %" PRIu64 " edges after the reset, before the scan's "
          "end (%u)",
          b.t[0].taken - f, 2 * b.O);
    b.settle();
    CHECK(b.answer(0) == kOk, "the call after the reset");
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    // A reset waiter is never woken; a post with only it counts.
    EXPECT(b, 1, mk(kSemWait, 6), -1);
    b.in.flush[1] = 1;
    b.cycle();
    b.in.flush[1] = 0;
    EXPECT(b, 2, mk(kSemPost, 6), kOk);
    CHECK(b.answer(1) == -1 && b.depth(6) == 1, "post after the waiter's reset: count %u",
          b.depth(6));
    EXPECT(b, 2, mk(kSemWait, 6), kOk);
    // ... also when it is reset in the cycle the post is taken, or while the post is in
    // READ (it is not registered), or in EXECUTE (READ again: answered two edges later).
    for (unsigned at = 0; at < 3; ++at) {
        EXPECT(b, 1, mk(kSemWait, 6), -1);
        b.raise(2, mk(kSemPost, 6));
        if (at > 0) {
            while (b.t[2].pending)
                b.cycle();
            b.run(at - 1);
        }
        b.in.flush[1] = 1;
        b.cycle();
        b.in.flush[1] = 0;
        b.settle();
        const uint64_t lat = b.t[2].answered - b.t[2].taken;
        CHECK(b.answer(2) == kOk && lat == (at == 2 ? 4u : 2u),
              "post, waiter reset at %u: %" PRIu64, at, lat);
        CHECK(b.answer(1) == -1 && b.depth(6) == 1, "post, waiter reset at %u: count %u", at,
              b.depth(6));
        EXPECT(b, 2, mk(kSemWait, 6), kOk);
    }
    // A call whose client is reset after its selection (in READ, in EXECUTE, in EXECUTE
    // with a configuration, which would send it back to READ) is never carried out, nor
    // answered, even when the reset lasts one cycle.
    static const char *const when[] = {"", "READ", "EXECUTE", "EXECUTE with a configuration"};
    for (unsigned at = 1; at <= 3; ++at) {
        b.take(0, mk(kMutexLock, 1));
        b.run(at == 1 ? 0 : 1);
        b.in.flush[0] = 1;
        if (at == 3)
            b.in.cfg = Cfg{true, 5, kTypeCond}; // no waiters: OK
        b.cycle();
        b.in.flush[0] = 0;
        b.settle();
        CHECK(b.answer(0) == -1 && b.depth(1) == 0,
              "%s: a call of a client reset in %s carried out", sh.name, when[at]);
        b.take(2, mk(kSemTrywait, 6)); // a later event of another client is not disturbed
        b.settle();
        CHECK(b.answer(2) == kAgain, "trywait after a dropped call");
    }
    // A condition's waiter, then one retaking its mutex, reset.
    EXPECT(b, 1, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kCondWait, 3, 1), -1);
    b.in.flush[1] = 1;
    b.cycle();
    b.in.flush[1] = 0;
    EXPECT(b, 2, mk(kCondSignal, 3), kOk);
    CHECK(b.answer(1) == -1 && b.depth(1) == 0, "a reset condition waiter woken");
    EXPECT(b, 1, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kCondWait, 3, 1), -1);
    EXPECT(b, 2, mk(kMutexLock, 1), kOk);
    EXPECT(b, 2, mk(kCondSignal, 3), kOk);
    b.in.flush[1] = 1;
    b.cycle();
    b.in.flush[1] = 0;
    EXPECT(b, 2, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(1) == -1 && b.depth(1) == 0, "a reset retaking waiter got the mutex");
    // A reset lock waiter in the middle is skipped.
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kMutexLock, 1), -1);
    EXPECT(b, 2, mk(kMutexLock, 1), -1);
    b.in.flush[1] = 1;
    b.cycle();
    b.in.flush[1] = 0;
    EXPECT(b, 0, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(1) == -1 && b.answer(2) == kOk && b.holder(1) == 2, "skips the reset waiter");
    EXPECT(b, 2, mk(kMutexUnlock, 1), kOk);
}

// A reset restarts the scan of the objects. One that comes while the scan's reap of mutex
// 0 is in READ or EXECUTE has the scan look at mutex 0 again: only once that reap is
// written, so that it finds the mutex with its new holder (client 1) and gives nothing up
// twice (client 2 waits on).
template <typename Dut> void test_reap_restart(const Shape &sh)
{
    for (unsigned at = 0; at < 3; ++at) {
        Bench<Dut> b(sh);
        b.rd_sweep = true;
        CHECK(b.configure(0, kTypeMutex) == kOk, "cfg");
        for (unsigned c = 0; c < b.N; ++c)
            b.set_prio(c, c);
        b.settle();
        EXPECT(b, 0, mk(kMutexLock, 0), kOk);
        EXPECT(b, 1, mk(kMutexLock, 0), -1);
        EXPECT(b, 2, mk(kMutexLock, 0), -1);
        b.in.flush[0] = 1;
        b.cycle(); // the scan starts at this edge
        const uint64_t f = b.edges;
        b.in.flush[0] = 0;
        b.cycle(); // LOOK at mutex 0: found
        b.run(at); // then ACT (the reap selected at edge f + 2), READ, EXECUTE
        b.in.flush[3] = 1;
        b.cycle();
        b.in.flush[3] = 0;
        b.settle();
        CHECK(b.answer(1) == kOk && b.t[1].answered == f + 4 && b.holder(0) == 1 && b.depth(0) == 1,
              "%s: mutex 0 to its waiter (answered %" PRIu64 " edges after the reset, holder %u)",
              sh.name, b.t[1].answered - f, b.holder(0));
        CHECK(b.answer(2) == -1 && b.waiting(2), "%s: mutex 0 given up twice (reset at %u)",
              sh.name, at);
        EXPECT(b, 1, mk(kMutexUnlock, 0), kOk);
        CHECK(b.answer(2) == kOk && b.holder(0) == 2, "then the other waiter");
        EXPECT(b, 2, mk(kMutexUnlock, 0), kOk);
    }
}

// Calls raised in the same cycle by every client: one taken every third cycle (the next
// is selected in the cycle of the answers), round robin, each answered two edges after
// the edge that takes it.
template <typename Dut> void test_same_cycle(const Shape &sh)
{
    Bench<Dut> b(sh);
    b.rd_sweep = true;
    CHECK(b.configure(0, kTypeSem, 0, false, 2, 3) == kOk, "cfg");
    for (unsigned round = 0; round < 3; ++round) {
        for (unsigned c = 0; c < b.N; ++c)
            b.raise(c, mk(c % 2 ? kSemPost : kSemTrywait, 0));
        const uint64_t e0 = b.edges;
        b.settle();
        std::vector<uint8_t> seen(b.N);
        for (unsigned c = 0; c < b.N; ++c) {
            const uint64_t k = b.t[c].taken - e0;
            const bool ok = k % kLatency == 1 && k / kLatency < b.N && !seen[k / kLatency];
            CHECK(ok && b.t[c].answered == b.t[c].taken + kLatency - 1,
                  "%s: client %u taken at edge %" PRIu64 " of the round, answered %" PRIu64
                  " later",
                  sh.name, c, k, b.t[c].answered - b.t[c].taken);
            if (ok)
                seen[k / kLatency] = 1;
            b.answer(c);
        }
    }
}

// A few rules on the smallest shape (2 clients, 3 objects, one cycle a microsecond).
template <typename Dut> void test_pair(const Shape &sh)
{
    Bench<Dut> b(sh);
    b.rd_sweep = true;
    CHECK(b.configure(0, kTypeSem, 0, false, 0, 1) == kOk, "cfg");
    CHECK(b.configure(1, kTypeMutex, kKindNormal, true) == kOk, "cfg");
    CHECK(b.configure(2, kTypeCond) == kOk, "cfg");
    CHECK(b.configure(3, kTypeSem, 0, false, 0, 1) == kBadhandle, "cfg out of range");
    b.set_prio(0, 9);
    b.set_prio(1, 2);
    EXPECT(b, 0, timed(kSemWait, 0, 5), -1);
    const uint64_t e0 = b.t[0].taken;
    while (b.t[0].out && b.edges < e0 + 40)
        b.cycle();
    const uint64_t d = b.t[0].answered - e0;
    CHECK(b.answer(0) == kTimedout && d >= b.tmo_lo(5) && d <= b.tmo_hi(5),
          "timed out after %" PRIu64 " edges", d);
    EXPECT(b, 0, mk(kMutexLock, 1), kOk);
    EXPECT(b, 1, mk(kMutexLock, 1), -1);
    CHECK(b.eff(0) == 2, "inherits: %u", b.eff(0));
    EXPECT(b, 0, mk(kCondWait, 2, 1), -1);
    CHECK(b.answer(1) == kOk && b.holder(1) == 1, "the wait hands the mutex on");
    EXPECT(b, 1, mk(kCondSignal, 2), kOk);
    EXPECT(b, 1, mk(kMutexUnlock, 1), kOk);
    CHECK(b.answer(0) == kOk && b.holder(1) == 0, "retaken");
    EXPECT(b, 0, mk(kMutexUnlock, 1), kOk);
    EXPECT(b, 1, mk(kSemPost, 3), kBadhandle);
}

// ---- random traffic ----------------------------------------------------------------------

template <typename Dut> struct Traffic {
    Bench<Dut> &b;
    std::mt19937 rng;
    std::vector<unsigned> gap, cancel_left, flush_left;
    bool drain = false;

    Traffic(Bench<Dut> &bench, uint32_t seed)
        : b(bench), rng(seed), gap(bench.N), cancel_left(bench.N), flush_left(bench.N)
    {
    }
    unsigned rnd(unsigned n) { return n ? static_cast<unsigned>(rng() % n) : 0; }
    bool chance(unsigned per_mille) { return rnd(1000) < per_mille; }

    Cfg random_cfg()
    {
        Cfg k;
        k.valid = true;
        const unsigned r = rnd(100);
        k.obj = r < 5 ? b.O + rnd(256 - b.O) : rnd(b.O);
        const unsigned t = rnd(100);
        k.type = t < 30 ? kTypeSem : t < 70 ? kTypeMutex : t < 95 ? kTypeCond : kTypeNone;
        k.kind = rnd(3);
        k.pi = rnd(2);
        k.max = 1 + rnd(4);
        k.count = rnd(k.max + 1);
        if (r >= 5 && r < 12) { // refused: kind 3, maximum 0, count above it
            const unsigned bad = rnd(3);
            if (bad == 0)
                k.kind = 3;
            else if (bad == 1)
                k.max = 0;
            else
                k.count = k.max + 1 + rnd(3);
        }
        return k;
    }
    void configure_all()
    {
        for (unsigned o = 0; o < b.O; ++o) {
            Cfg k = random_cfg();
            k.obj = o;
            k.kind = rnd(3);
            k.pi = o % 2 == 1 || b.O <= 3;
            k.max = 1 + rnd(3);
            k.count = rnd(k.max + 1);
            // A mix with every type, some left unconfigured on the big shape.
            const unsigned t = o % 8;
            k.type = b.O <= 3   ? (o == 0   ? kTypeSem
                                   : o == 1 ? kTypeMutex
                                            : kTypeCond)
                     : t < 2    ? kTypeSem
                     : t < 5    ? kTypeMutex
                     : t < 7    ? kTypeCond
                     : b.O > 16 ? kTypeNone
                                : kTypeMutex;
            b.in.cfg = k;
            b.cycle();
            CHECK(b.dut->cfg_status_o == kOk, "configure %u", o);
        }
    }
    std::vector<unsigned> of_type(unsigned type) const
    {
        std::vector<unsigned> v;
        for (unsigned o = 0; o < b.O; ++o)
            if (b.m.obj[o].type == type)
                v.push_back(o);
        return v;
    }
    std::vector<unsigned> held(unsigned c) const
    {
        std::vector<unsigned> v;
        for (unsigned o = 0; o < b.O; ++o)
            if (b.hold_by[o] == int(c) && !b.reaping[o])
                v.push_back(o);
        return v;
    }
    unsigned pick(const std::vector<unsigned> &v)
    {
        return v[rnd(static_cast<unsigned>(v.size()))];
    }
    unsigned object(unsigned type)
    {
        const unsigned r = rnd(100);
        const std::vector<unsigned> v = of_type(type);
        if (r < 6)
            return b.O + rnd(256 - b.O); // out of range
        if (r < 14 || v.empty())
            return rnd(b.O); // any: another type, unconfigured
        return pick(v);
    }
    Call gen(unsigned c)
    {
        Call k;
        const std::vector<unsigned> h = held(c);
        const unsigned r = rnd(100);
        if (drain) {
            k.op = kMutexUnlock;
            k.obj = pick(h);
            return k;
        }
        if (!h.empty() && r < 40) {
            k.obj = pick(h);
            k.op = kMutexUnlock;
            const std::vector<unsigned> conds = of_type(kTypeCond);
            if (rnd(4) == 0 && !conds.empty()) {
                k.op = kCondWait;
                k.mtx = k.obj;
                k.obj = pick(conds);
            }
        } else {
            const unsigned p = rnd(100);
            k.op = p < 14   ? kSemPost
                   : p < 28 ? kSemWait
                   : p < 33 ? kSemTrywait
                   : p < 50 ? kMutexLock
                   : p < 56 ? kMutexTrylock
                   : p < 60 ? kMutexUnlock
                   : p < 72 ? kCondWait
                   : p < 86 ? kCondSignal
                   : p < 93 ? kCondBroadcast
                   : p < 95 ? kNumOps + rnd(16 - kNumOps)
                            : rnd(kNumOps);
            const unsigned type = k.op <= kSemTrywait      ? kTypeSem
                                  : k.op <= kMutexUnlock   ? kTypeMutex
                                  : k.op <= kCondBroadcast ? kTypeCond
                                                           : kTypeSem;
            k.obj = object(type); // an unknown call: any object (NOSYS first)
            if (k.op == kCondWait)
                k.mtx = (!h.empty() && rnd(100) < 80) ? pick(h) : object(kTypeMutex);
        }
        if (rnd(100) < 30) {
            k.timed = true;
            const unsigned t = rnd(100);
            k.tmo = t < 10 ? 0 : t < 90 ? 1 + rnd(4) : 5 + rnd(40);
        }
        return k;
    }

    // Inputs of the next cycle. seq: only at a settled manager, one thing at a time.
    void inputs(bool seq)
    {
        Inputs &in = b.in;
        in.rd_obj = rnd(8) == 0 ? b.O + rnd(256 - b.O) : rnd(b.O);
        if (seq) {
            for (unsigned c = 0; c < b.N; ++c) {
                in.cancel[c] = 0;
                in.flush[c] = 0;
            }
            if (!b.quiet())
                return;
            const unsigned r = rnd(1000);
            const unsigned c = rnd(b.N);
            if (r < 8 && !drain) {
                in.cfg = random_cfg();
            } else if (r < 20 && !drain) {
                in.prio[c] = rnd(10) == 0 ? rnd(128) : rnd(8);
            } else if (r < (drain ? 500u : 50u)) {
                in.cancel[c] = 1;
            } else if (r < 56 && !drain) {
                in.flush[c] = 1;
            } else if (!b.t[c].out && !b.m.cli[c].dead && (!drain || !held(c).empty())) {
                b.raise(c, gen(c));
                in.cancel[c] = rnd(50) == 0;
            }
            return;
        }
        if (!drain && chance(2))
            in.cfg = random_cfg();
        for (unsigned c = 0; c < b.N; ++c) {
            if (flush_left[c]) {
                --flush_left[c];
            } else if (!drain && chance(1)) {
                flush_left[c] = 1 + rnd(3);
            }
            in.flush[c] = flush_left[c] != 0;
            if (drain) {
                in.cancel[c] = 1;
            } else {
                if (cancel_left[c])
                    --cancel_left[c];
                else if (chance(b.t[c].out ? 15 : 3))
                    cancel_left[c] = 1 + rnd(6);
                in.cancel[c] = cancel_left[c] != 0;
                if (chance(2))
                    in.prio[c] = rnd(10) == 0 ? rnd(128) : rnd(8);
            }
            if (in.flush[c] || b.t[c].pending || b.t[c].out)
                continue;
            if (gap[c]) {
                --gap[c];
                continue;
            }
            if (drain && held(c).empty())
                continue;
            b.raise(c, gen(c));
            gap[c] = rnd(4) == 0 ? rnd(12) : 0;
        }
        // Deadlocks end by cancels and timeouts; a waiter retaking a mutex held by a
        // client stuck for good ends by resetting the holder.
        if (!drain && b.edges > b.last_answer_edge + 300) {
            for (unsigned o = 0; o < b.O; ++o)
                if (b.hold_by[o] >= 0 && !b.reaping[o]) {
                    flush_left[b.hold_by[o]] = 1;
                    break;
                }
            b.last_answer_edge = b.edges;
        }
    }

    bool drained() const
    {
        for (unsigned c = 0; c < b.N; ++c)
            if (b.t[c].pending || b.t[c].out || !held(c).empty() || b.m.cli[c].dead)
                return false;
        return b.quiet();
    }
};

template <typename Dut>
void random_traffic(const Shape &sh, bool seq, uint64_t ncalls, uint32_t seed)
{
    Bench<Dut> b(sh);
    Traffic<Dut> tr(b, seed);
    for (unsigned c = 0; c < b.N; ++c)
        b.in.prio[c] = tr.rnd(8);
    tr.configure_all();
    const int fails0 = weft_tb::failures;
    while (b.calls < ncalls && weft_tb::failures == fails0) {
        tr.inputs(seq);
        b.cycle();
    }
    // Drain: cancel_i high, every mutex unlocked; every call must be answered.
    tr.drain = true;
    for (unsigned c = 0; c < b.N; ++c)
        tr.flush_left[c] = 0;
    const uint64_t e0 = b.edges;
    while (!tr.drained() && b.edges < e0 + 20000 && weft_tb::failures == fails0) {
        tr.inputs(seq);
        b.cycle();
    }
    CHECK(tr.drained() || weft_tb::failures != fails0, "%s: does not drain", sh.name);
    for (unsigned o = 0; o < b.O; ++o) {
        const uint32_t st = b.rd(o);
        CHECK(!((st & 3) == kTypeMutex && (st >> 16) != 0) && b.rd_waiters(o) == 0,
              "%s: object %u still held or waited on after the drain: %08x", sh.name, o, st);
    }
    CHECK(b.calls == b.answers + b.dropped,
          "%s: %" PRIu64 " calls, %" PRIu64 " answered, %" PRIu64 " dropped by resets", sh.name,
          b.calls, b.answers, b.dropped);
    if (b.fail_cycle >= 0)
        std::printf("%s: first mismatch at edge %d (seed %08x; SYNC_TRACE=1 prints the calls)\n",
                    sh.name, b.fail_cycle, seed);
    std::string lc, lw;
    for (const auto &[l, n] : b.lat_call)
        lc += " " + std::to_string(l) + ":" + std::to_string(n);
    for (const auto &[l, n] : b.lat_wake)
        lw += " " + std::to_string(l) + ":" + std::to_string(n);
    std::printf("%s %s: %" PRIu64 " calls in %" PRIu64 " cycles, %" PRIu64 " answered (%" PRIu64
                " by another's event), %" PRIu64 " dropped by resets\n",
                sh.name, seq ? "one at a time" : "all clients", b.calls, b.edges, b.answers,
                b.woken, b.dropped);
    std::printf("  status:");
    for (unsigned s = 0; s < 16; ++s)
        if (b.by_status[s])
            std::printf(" %s %" PRIu64, status_name(int(s)), b.by_status[s]);
    std::printf("\n  latency (cycles: calls) call taken -> answer:%s; event selected -> woken "
                "waiter:%s\n",
                lc.c_str(), lw.c_str());
    std::printf("  coverage: %" PRIu64 " mutexes of reset clients given up, %" PRIu64
                " waits ended by timeout or cancel (%" PRIu64 " condition waits then queued "
                "for their mutex; %" PRIu64 " timeouts found by the scan), %" PRIu64
                " condition waiters sent on to their mutex, %" PRIu64
                " cycles with a priority inherited, %" PRIu64 " configurations BUSY, %" PRIu64
                " events read again, %" PRIu64 " selected calls dropped by a reset, %" PRIu64
                " scans of the objects started, %" PRIu64 " cycles still\n",
                b.cov_reap, b.cov_end, b.cov_to_hold, b.cov_expire, b.cov_moved, b.cov_inherit,
                b.cov_busy, b.cov_reread, b.cov_drop, b.cov_restart, b.cov_still);
    if (!seq)
        CHECK(b.cov_reap && b.cov_end && b.cov_to_hold && b.cov_expire && b.cov_moved &&
                  b.cov_inherit && b.cov_busy && b.cov_reread && b.cov_drop && b.cov_still,
              "%s: the random traffic missed a case (coverage line above)", sh.name);
    // One at a time nothing comes between an event's selection and its answers; with every
    // client at once a configuration or a reset may send it back to READ.
    const auto lat_ok = [&](const std::map<uint64_t, uint64_t> &l) {
        return !l.empty() && l.begin()->first == kLatency && (!seq || l.size() == 1);
    };
    CHECK(lat_ok(b.lat_call),
          "%s: a call's answer is not %s in the third cycle after the edge that takes it", sh.name,
          seq ? "always" : "at the earliest");
    CHECK(lat_ok(b.lat_wake),
          "%s: a woken waiter's answer is not %s in the third cycle after the event's selection",
          sh.name, seq ? "always" : "at the earliest");
}

template <typename Dut>
void run_shape(const Shape &sh, uint32_t seed, uint64_t seq_calls, uint64_t all_calls)
{
    const int f0 = weft_tb::failures;
    // One bench alive at a time: Verilator 5.006 files a model's scopes under the thread's
    // context, so a model that outlives another model's context erases them from freed
    // memory.
    if (sh.clients >= 4 && sh.objs >= 7) {
        test_config_refusals<Dut>(sh);
        test_config_cycle<Dut>(sh);
        test_config_busy<Dut>(sh);
        test_handles<Dut>(sh);
        test_sem<Dut>(sh);
        test_mutex<Dut>(sh);
        test_cond<Dut>(sh);
        test_inherit<Dut>(sh);
        test_inherit_deadlock<Dut>(sh);
        test_flush<Dut>(sh);
        test_reap_restart<Dut>(sh);
    } else {
        test_pair<Dut>(sh);
    }
    test_same_cycle<Dut>(sh);
    std::printf("%s (%u objects, %u clients, %u MHz): directed tests %s\n", sh.name, sh.objs,
                sh.clients, sh.mhz, weft_tb::failures == f0 ? "pass" : "FAIL");
    random_traffic<Dut>(sh, true, seq_calls, seed);
    random_traffic<Dut>(sh, false, all_calls, seed + 1);
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    run_shape<Vweft_sync_big>({"sync 32x8", 32, 8, 4}, 0x5f0c0001u, 20000, 100000);
    run_shape<Vweft_sync_small>({"sync 7x5", 7, 5, 3}, 0x5f0c0011u, 20000, 100000);
    run_shape<Vweft_sync_pair>({"sync 3x2", 3, 2, 1}, 0x5f0c0021u, 10000, 40000);
    std::printf("tb_rtl_sync: %s\n", weft_tb::failures ? "FAIL" : "PASS");
    return weft_tb::failures ? 1 : 0;
}

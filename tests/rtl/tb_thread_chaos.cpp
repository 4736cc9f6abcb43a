// Self-checking test bench of hwt_chaos against the C++ static-side model
// (tb_hwlib_slot_model.h, with the platform's 16-word SW2HW FIFO).
//
// Several seeds (all four hostility levels, with and without BOUNDED), each with a budget
// of actions. The bench plays the software side: it puts the job {window base, window
// size, budget word} into the handle-0 mailbox, binds handles 1..3 to a semaphore, a
// mutex and a mailbox, and in runs without BOUNDED acts as a peer when a call of the
// thread stays blocked (posts, unlocks, fills or empties the mailboxes). It checks:
//   - every run ends: THREAD_EXIT with the budget as exit value, or a fault the model
//     detects (memory, response FIFO overflow); a level-0 run always exits, and
//     a BOUNDED run never needs a peer;
//   - after THREAD_EXIT the thread sends nothing more;
//   - every MEMIF command the model accepted lies inside the window the thread was told;
//     level-0 runs get a model memory larger than that window, with guard words around it
//     that must stay untouched (so it is the thread, not the model, that keeps inside);
//   - the request stream starts with GET_INIT_DATA and the job burst;
//   - boundary rule 2 is broken only while an accepted write still owes data.
// Usage: tb_thread_chaos [runs [budget]] (default 20 runs of 2000 actions).
#include "Vhwt_chaos.h"
#include "tb_check.h"
#include "tb_hwlib_slot_model.h"
#include "verilated.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

namespace
{

using Model = tbm::SlotModel<Vhwt_chaos>;

constexpr uint32_t kJob = 0, kSem = 1, kMutex = 2, kMbox = 3;
constexpr uint32_t kBounded = 1u << 24; // budget word: no call may block for long
constexpr unsigned kSw2hwDepth = 16;    // osif_depth of platform/default.yaml
constexpr uint64_t kStall = 4000;       // cycles a call may stay blocked before the peer acts
constexpr uint64_t kMaxCycles = 40000000;
constexpr uint32_t kGuardWords = 64;
constexpr uint32_t kCanary = 0xC0DEC0DEu;

struct Totals {
    unsigned runs = 0, exited = 0, memory = 0, overflow = 0, hung = 0;
    unsigned level_exits[4] = {}, level_runs[4] = {};
    uint64_t osif_words = 0, osif_requests = 0, memif_cmds = 0, wr_words = 0, rd_words = 0;
    uint64_t cycles = 0, rule2 = 0, withdrawn = 0, helps = 0;
};

// Counts the requests in a request stream by its framing.
uint64_t count_requests(const std::vector<uint32_t> &log)
{
    uint64_t n = 0;
    size_t i = 0;
    while (i < log.size()) {
        const uint32_t nargs = log[i] >> WEFT_OSIF_REQ_NARGS_SHIFT & WEFT_OSIF_REQ_NARGS_MASK;
        ++n;
        i += 1 + nargs;
    }
    return n;
}

// The software side unblocks whatever the thread may wait for.
void help(Model &sm, std::mt19937 &rng)
{
    for (tbm::Resource &r : sm.res) {
        switch (r.type) {
        case WEFT_RES_SEM:
            r.sem++;
            break;
        case WEFT_RES_MUTEX:
            r.locked = false;
            break;
        case WEFT_RES_MBOX:
            if (r.mbox.size() >= r.cap)
                r.mbox.clear();
            else
                while (r.mbox.size() < r.cap)
                    r.mbox.push_back(rng());
            break;
        default:
            break;
        }
    }
}

void run_one(unsigned idx, uint32_t seed, uint32_t budget, Totals &t)
{
    const unsigned level = seed & 3;
    const bool bounded = (idx / 4) % 2 == 0;
    std::mt19937 rng(seed * 2654435761u + idx);

    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vhwt_chaos>(ctx.get());
    Model sm(*top, seed ^ 0x5EEDu);
    sm.pct = 25 + static_cast<int>(rng() % 71);
    sm.max_latency = static_cast<int>(rng() % 40);
    sm.max_nargs = WEFT_OSIF_MAX_ARGS;
    sm.sw2hw_depth = kSw2hwDepth;
    sm.init_data = seed;

    // The window the thread is told. Level 0: inside a larger model memory with guards
    // around it, sometimes with an unaligned base, an odd size or no usable word.
    uint32_t guard = 0, skew = 0, size = 4 * (1 + rng() % 4096);
    if (level == 0) {
        guard = kGuardWords;
        if (idx % 8 == 4)
            skew = 1 + rng() % 3, size += 1 + rng() % 3;
        if (idx == 8)
            size = 3; // not one whole word
    }
    const uint32_t words = (skew + size + 3) / 4;
    sm.mem.resize(2 * guard + words);
    for (size_t i = 0; i < sm.mem.size(); ++i)
        sm.mem[i] = (i < guard || i >= guard + words) ? kCanary ^ static_cast<uint32_t>(i)
                                                      : static_cast<uint32_t>(rng());
    const uint32_t win_base = sm.mem_base + 4 * guard + skew;

    sm.res.resize(4);
    sm.res[kJob].type = WEFT_RES_MBOX;
    sm.res[kJob].mbox = {win_base, size, budget | (bounded ? kBounded : 0)};
    sm.res[kSem].type = WEFT_RES_SEM;
    sm.res[kSem].sem = 1;
    sm.res[kMutex].type = WEFT_RES_MUTEX;
    sm.res[kMbox].type = WEFT_RES_MBOX;
    sm.res[kMbox].cap = 8;
    sm.reset();

    uint64_t stalled = 0, helps = 0, rule2_unsafe = 0, wr_accepted = 0;
    size_t logged = 0;
    bool hung = false;
    auto ended = [&] {
        return sm.exited || sm.yielded || sm.osif_fault || sm.mem_fault || sm.overflow_fault;
    };
    while (!ended()) {
        if (sm.cycle > kMaxCycles) {
            hung = true;
            break;
        }
        for (; logged < sm.memif_log.size(); ++logged)
            if (sm.memif_log[logged].write)
                wr_accepted += sm.memif_log[logged].len / 4;
        const bool owes_write = wr_accepted > sm.memif_wr_words;
        const uint64_t rule2_before = sm.rule2_violations;
        sm.step();
        if (sm.rule2_violations != rule2_before && !owes_write)
            ++rule2_unsafe;
        if (sm.call_pending()) {
            if (++stalled >= kStall) {
                help(sm, rng);
                ++helps;
                stalled = 0;
            }
        } else {
            stalled = 0;
        }
    }
    const uint64_t run_cycles = sm.cycle;

    // After an exit nothing more is sent.
    if (sm.exited) {
        const size_t words_at_exit = sm.osif_log.size();
        const uint64_t cmds_at_exit = sm.memif_cmds;
        for (int i = 0; i < 500; ++i)
            sm.step();
        CHECK(sm.osif_log.size() == words_at_exit && sm.memif_cmds == cmds_at_exit,
              "seed 0x%08x: words sent after THREAD_EXIT", seed);
    }

    const char *how = hung                ? "HUNG"
                      : sm.exited         ? "exit"
                      : sm.mem_fault      ? "memory fault"
                      : sm.overflow_fault ? "overflow fault"
                                          : "yield";
    std::printf("  seed 0x%08x level %u %-7s window 0x%08x+%-5u %-14s after %9" PRIu64
                " cycles: %6zu OSIF words, %5" PRIu64 " MEMIF commands, %3" PRIu64 " peer helps\n",
                seed, level, bounded ? "bounded" : "", win_base, size, how, run_cycles,
                sm.osif_log.size(), sm.memif_cmds, helps);

    CHECK(!hung, "seed 0x%08x: no end within %" PRIu64 " cycles", seed, kMaxCycles);
    CHECK(!sm.yielded, "seed 0x%08x: THREAD_YIELD accepted", seed);
    if (sm.exited) {
        CHECK(sm.exit_value == budget, "seed 0x%08x: exit value %u, want the budget %u", seed,
              sm.exit_value, budget);
        const size_t n = sm.osif_log.size();
        CHECK(n >= 2 && sm.osif_log[n - 2] == tbm::req_hdr(WEFT_OSIF_CMD_THREAD_EXIT, 0, 1) &&
                  sm.osif_log[n - 1] == budget,
              "seed 0x%08x: THREAD_EXIT with the budget is not the last request", seed);
    }
    if (level == 0)
        CHECK(sm.exited && !sm.mem_fault && !sm.overflow_fault,
              "seed 0x%08x: level 0 did not exit (memory %d overflow %d)", seed, sm.mem_fault,
              sm.overflow_fault);
    if (bounded)
        CHECK(helps == 0, "seed 0x%08x: BOUNDED, yet a call stayed blocked", seed);
    CHECK(rule2_unsafe == 0,
          "seed 0x%08x: slot_o.osif.in_ready high with no response due and no write owed (%" PRIu64
          " cycles)",
          seed, rule2_unsafe);
    CHECK(sm.osif_log.size() >= 3 &&
              sm.osif_log[0] == tbm::req_hdr(WEFT_OSIF_CMD_GET_INIT_DATA, 0, 0) &&
              sm.osif_log[1] == tbm::req_hdr(WEFT_OSIF_CMD_MBOX_GET_BURST, kJob, 1) &&
              sm.osif_log[2] == 3,
          "seed 0x%08x: the run does not start with GET_INIT_DATA and the job burst", seed);
    for (const auto &a : sm.memif_log)
        CHECK(a.addr >= win_base && uint64_t{a.addr} + a.len <= uint64_t{win_base} + size,
              "seed 0x%08x: %s of %u bytes at 0x%08x outside the window 0x%08x+%u", seed,
              a.write ? "write" : "read", a.len, a.addr, win_base, size);
    for (size_t i = 0; i < sm.mem.size(); ++i)
        if (i < guard || i >= guard + words)
            CHECK(sm.mem[i] == (kCanary ^ static_cast<uint32_t>(i)),
                  "seed 0x%08x: guard word %zu changed", seed, i);
    if (sm.mem_fault)
        CHECK(level > 0, "seed 0x%08x: memory fault at level 0 (addr 0x%08x info 0x%08x)", seed,
              sm.fault_addr, sm.fault_info);

    ++t.runs;
    ++t.level_runs[level];
    if (hung)
        ++t.hung;
    else if (sm.exited)
        ++t.exited, ++t.level_exits[level];
    else if (sm.mem_fault)
        ++t.memory;
    else if (sm.overflow_fault)
        ++t.overflow;
    t.osif_words += sm.osif_log.size();
    t.osif_requests += count_requests(sm.osif_log);
    t.memif_cmds += sm.memif_cmds;
    t.wr_words += sm.memif_wr_words;
    t.rd_words += sm.memif_rd_words;
    t.cycles += run_cycles;
    t.rule2 += sm.rule2_violations;
    t.withdrawn += sm.stability_violations;
    t.helps += helps;
    top->final();
}

} // namespace

int main(int argc, char **argv)
{
    const unsigned runs = argc > 1 ? static_cast<unsigned>(std::strtoul(argv[1], nullptr, 0)) : 20;
    const uint32_t budget =
        argc > 2 ? static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 0)) : 2000;
    Totals t;
    std::printf("tb_thread_chaos: %u runs of %u actions\n", runs, budget);
    for (unsigned i = 0; i < runs; ++i) {
        // Seed 0 first (it must still work); the low two bits cycle through the levels.
        const uint32_t seed = i == 0 ? 0 : ((i * 0x9E3779B1u) & ~3u) | (i & 3);
        run_one(i, seed, budget, t);
    }
    std::printf("tb_thread_chaos: %u runs: %u exited, %u memory faults, %u overflow faults, "
                "%u hung\n",
                t.runs, t.exited, t.memory, t.overflow, t.hung);
    std::printf("  exits per level 0..3: %u/%u %u/%u %u/%u %u/%u\n", t.level_exits[0],
                t.level_runs[0], t.level_exits[1], t.level_runs[1], t.level_exits[2],
                t.level_runs[2], t.level_exits[3], t.level_runs[3]);
    std::printf("  sent: %" PRIu64 " OSIF words in %" PRIu64 " requests, %" PRIu64
                " MEMIF commands accepted (%" PRIu64 " words written, %" PRIu64 " read)\n",
                t.osif_words, t.osif_requests, t.memif_cmds, t.wr_words, t.rd_words);
    std::printf("  %" PRIu64 " cycles; %" PRIu64 " withdrawn valids, %" PRIu64
                " rule-2 deviations, %" PRIu64 " peer helps\n",
                t.cycles, t.withdrawn, t.rule2, t.helps);
    if (weft_tb::failures) {
        std::fprintf(stderr, "tb_thread_chaos: %d failure(s)\n", weft_tb::failures);
        return 1;
    }
    std::printf("tb_thread_chaos: PASS\n");
    return 0;
}

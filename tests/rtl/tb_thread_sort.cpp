// Self-checking test bench of hwt_sort against the C++ static-side model
// (tb_hwlib_slot_model.h): sorts random, sorted, reverse, duplicate-heavy, nearly sorted
// and one-word blocks, and blocks of sizes around multiples of the sorter's Passes,
// under random back-pressure and compares with std::sort; checks the exit value, the
// bad-length exits (no memory touched), boundary rule 2, and prints the fabric cycles
// per block with no back-pressure.
#include "Vhwt_sort.h"
#include "Vhwt_sort_hwt_sort.h" // the public parameter Passes
#include "tb_check.h"
#include "tb_hwlib_slot_model.h"
#include "verilated.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <vector>

namespace
{

constexpr uint32_t kMaxWords = 2048;                     // hwt_sort's default MaxWords
constexpr uint32_t kPasses = Vhwt_sort_hwt_sort::Passes; // bubble passes per sweep
constexpr uint32_t kMbox = 0, kSem = 1, kMutex = 2;

struct Bench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vhwt_sort> top;
    std::unique_ptr<tbm::SlotModel<Vhwt_sort>> sm;

    Bench(uint32_t seed, int pct, int latency)
    {
        ctx = std::make_unique<VerilatedContext>();
        top = std::make_unique<Vhwt_sort>(ctx.get());
        sm = std::make_unique<tbm::SlotModel<Vhwt_sort>>(*top, seed);
        sm->pct = pct;
        sm->max_latency = latency;
        sm->res.resize(3);
        sm->res[kMbox].type = WEFT_RES_MBOX;
        sm->res[kSem].type = WEFT_RES_SEM;
        sm->res[kMutex].type = WEFT_RES_MUTEX;
        sm->init_data = kMbox | kSem << 8 | kMutex << 16;
        sm->mem.assign(64 * 1024, 0xDEADBEEFu);
        sm->reset();
    }
    ~Bench() { top->final(); }

    // Sorts one block in place at word offset `off`; returns the fabric cycles taken from
    // posting the descriptor to the done semaphore, or 0 on failure.
    uint64_t sort_block(uint32_t off, const std::vector<uint32_t> &data)
    {
        const uint32_t addr = sm->mem_base + 4 * off;
        for (size_t i = 0; i < data.size(); ++i)
            sm->mem[off + i] = data[i];
        const uint32_t guard_before = off > 0 ? sm->mem[off - 1] : 0;
        const uint32_t guard_after = sm->mem[off + data.size()];
        sm->res[kMbox].mbox.push_back(addr);
        sm->res[kMbox].mbox.push_back(static_cast<uint32_t>(4 * data.size()));
        const uint64_t start = sm->cycle;
        const uint64_t limit = 4ull * data.size() * data.size() + 100000;
        if (!sm->run_until([&] { return sm->res[kSem].sem > 0 || sm->exited; }, limit)) {
            CHECK(false, "block of %zu words: no SEM_POST within %" PRIu64 " cycles", data.size(),
                  limit);
            return 0;
        }
        CHECK(!sm->exited, "thread exited while sorting (exit value 0x%08x)", sm->exit_value);
        if (sm->exited)
            return 0;
        const uint64_t cycles = sm->cycle - start;
        sm->res[kSem].sem--;
        CHECK(!sm->res[kMutex].locked, "descriptor mutex still held after the block was sorted");
        std::vector<uint32_t> want = data;
        std::sort(want.begin(), want.end());
        for (size_t i = 0; i < want.size(); ++i) {
            if (sm->mem[off + i] != want[i]) {
                CHECK(false, "block of %zu words: word %zu is 0x%08x, want 0x%08x", data.size(), i,
                      sm->mem[off + i], want[i]);
                break;
            }
        }
        if (off > 0)
            CHECK(sm->mem[off - 1] == guard_before, "word before the block overwritten");
        CHECK(sm->mem[off + data.size()] == guard_after, "word after the block overwritten");
        return cycles;
    }

    // Sends the stop descriptor; returns the exit value.
    uint32_t stop(uint32_t len = 0)
    {
        sm->res[kMbox].mbox.push_back(0);
        sm->res[kMbox].mbox.push_back(len);
        CHECK(sm->run_until([&] { return sm->exited; }, 100000), "no THREAD_EXIT after stop");
        return sm->exit_value;
    }
};

std::vector<uint32_t> random_words(std::mt19937 &rng, size_t n, uint32_t mask = 0xFFFFFFFFu)
{
    std::vector<uint32_t> v(n);
    for (auto &x : v)
        x = rng() & mask;
    return v;
}

void test_correctness(uint32_t seed)
{
    std::mt19937 rng(seed);
    Bench b(seed, 60, 30);
    std::vector<std::vector<uint32_t>> blocks;
    blocks.push_back(random_words(rng, 1)); // length 4 bytes
    blocks.push_back(random_words(rng, 2));
    blocks.push_back(random_words(rng, 37));
    blocks.push_back(random_words(rng, 100, 0x7)); // many duplicates
    {
        auto v = random_words(rng, 200);
        std::sort(v.begin(), v.end());
        blocks.push_back(v); // already sorted
        std::reverse(v.begin(), v.end());
        blocks.push_back(v); // reverse
    }
    blocks.push_back(std::vector<uint32_t>(64, 0x80000000u)); // all equal
    {
        // Nearly sorted: a bubble pass moves the smallest word only one place down, so
        // this one needs every sweep; the largest word at the front needs one pass.
        auto v = random_words(rng, 150);
        std::sort(v.begin(), v.end());
        std::rotate(v.begin(), v.begin() + 1, v.end()); // smallest word last
        blocks.push_back(v);
        std::sort(v.begin(), v.end());
        std::rotate(v.rbegin(), v.rbegin() + 1, v.rend()); // largest word first
        blocks.push_back(v);
    }
    // Sizes around multiples of Passes: one sweep of Passes passes sorts up to
    // Passes + 1 words; the last sweep of a longer block is 1, 2 or Passes - 1 words
    // longer than Passes (random and reverse order each).
    for (uint32_t n : {kPasses - 1, kPasses, kPasses + 1, kPasses + 2, 2 * kPasses, 2 * kPasses + 1,
                       2 * kPasses + 2, 3 * kPasses - 1}) {
        if (n == 0 || n > kMaxWords)
            continue;
        auto v = random_words(rng, n);
        blocks.push_back(v);
        std::sort(v.begin(), v.end());
        std::reverse(v.begin(), v.end());
        blocks.push_back(v);
    }
    {
        std::vector<uint32_t> v = {0xFFFFFFFFu, 0, 0x80000000u, 0x7FFFFFFFu, 1, 0xFFFFFFFEu};
        blocks.push_back(v); // unsigned order
    }
    blocks.push_back(random_words(rng, kMaxWords)); // full RAM
    uint32_t off = 16;
    for (const auto &blk : blocks) {
        b.sort_block(off, blk);
        off += static_cast<uint32_t>(blk.size()) + 8;
    }
    const uint32_t ev = b.stop();
    CHECK(ev == blocks.size(), "exit value %u, want %zu blocks", ev, blocks.size());
    CHECK(b.sm->rule2_violations == 0,
          "slot_o.osif.in_ready high while not waiting: %" PRIu64 " cycles",
          b.sm->rule2_violations);
    CHECK(b.sm->stability_violations == 0, "valid withdrawn or data changed before ready");
    CHECK(!b.sm->mem_fault && !b.sm->osif_fault, "unexpected fault");
}

void test_bad_length(uint32_t len)
{
    Bench b(len + 7, 60, 10);
    const auto before = b.sm->mem;
    b.sm->res[kMbox].mbox.push_back(b.sm->mem_base + 64);
    b.sm->res[kMbox].mbox.push_back(len);
    CHECK(b.sm->run_until([&] { return b.sm->exited; }, 100000), "len %u: no exit", len);
    CHECK(b.sm->exit_value == 0xFFFFFFFFu, "len %u: exit value 0x%08x, want 0xFFFFFFFF", len,
          b.sm->exit_value);
    CHECK(b.sm->memif_cmds == 0 && b.sm->mem == before, "len %u: memory touched", len);
}

void bench_cycles()
{
    std::printf("hwt_sort (Passes = %u) fabric cycles per block (no back-pressure, OSIF answer "
                "latency 0):\n",
                kPasses);
    std::printf("  %6s  %12s  %12s  %12s\n", "words", "random", "sorted", "reverse");
    std::mt19937 rng(1);
    for (uint32_t n : {1u, 16u, 64u, 256u, 1024u, 2048u}) {
        uint64_t c[3];
        for (int kind = 0; kind < 3; ++kind) {
            Bench b(n, 100, 0);
            auto v = random_words(rng, n);
            if (kind > 0)
                std::sort(v.begin(), v.end());
            if (kind == 2)
                std::reverse(v.begin(), v.end());
            c[kind] = b.sort_block(16, v);
        }
        std::printf("  %6u  %12" PRIu64 "  %12" PRIu64 "  %12" PRIu64 "\n", n, c[0], c[1], c[2]);
    }
}

} // namespace

int main()
{
    test_correctness(11);
    test_correctness(12);
    test_bad_length(0);
    test_bad_length(6);
    test_bad_length(4 * kMaxWords + 4);
    bench_cycles();
    if (weft_tb::failures) {
        std::fprintf(stderr, "tb_thread_sort: %d failure(s)\n", weft_tb::failures);
        return 1;
    }
    std::printf("tb_thread_sort: PASS\n");
    return 0;
}

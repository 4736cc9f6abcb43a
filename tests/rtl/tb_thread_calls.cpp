// Self-checking test bench of hwt_calls against the C++ static-side model
// (tb_hwlib_slot_model.h): scripts every kind of instruction (OS calls with and without
// arguments and results, error statuses, a blocking call released by the bench, the
// memory pseudo-commands, the argument limits, a raw malformed request) under random
// back-pressure, and checks the words the thread puts into the result mailbox.
#include "Vhwt_calls.h"
#include "tb_check.h"
#include "tb_hwlib_slot_model.h"
#include "verilated.h"

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <vector>

namespace
{

using tbm::req_hdr;
using tbm::resp_hdr;

// Resource array of the bench.
constexpr uint32_t kInstr = 0, kResult = 1, kSem = 2, kMbox = 3, kMutex = 4, kCond = 5;
// hwt_calls pseudo-commands (documented in hw/threads/calls/hwt_calls.sv).
constexpr uint32_t kMemRead = 0xF0, kMemWrite = 0xF1, kMemInc = 0xF2, kRaw = 0xF3;
constexpr uint32_t kCallMaxArgs = 18;

struct Bench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vhwt_calls> top;
    std::unique_ptr<tbm::SlotModel<Vhwt_calls>> sm;

    explicit Bench(uint32_t seed)
    {
        ctx = std::make_unique<VerilatedContext>();
        top = std::make_unique<Vhwt_calls>(ctx.get());
        sm = std::make_unique<tbm::SlotModel<Vhwt_calls>>(*top, seed);
        sm->res.resize(6);
        sm->res[kInstr].type = WEFT_RES_MBOX;
        sm->res[kInstr].cap = 64;
        sm->res[kResult].type = WEFT_RES_MBOX;
        sm->res[kResult].cap = 4;
        sm->res[kSem].type = WEFT_RES_SEM;
        sm->res[kMbox].type = WEFT_RES_MBOX;
        sm->res[kMbox].cap = 2;
        sm->res[kMutex].type = WEFT_RES_MUTEX;
        sm->res[kCond].type = WEFT_RES_COND;
        sm->init_data = kInstr | kResult << 8 | 0xAB0000u;
        sm->mem.assign(1024, 0);
        sm->reset();
    }
    ~Bench() { top->final(); }

    // Queues an instruction and collects `n` words from the result mailbox.
    std::vector<uint32_t> exec(const std::vector<uint32_t> &words, size_t n)
    {
        for (uint32_t w : words)
            sm->res[kInstr].mbox.push_back(w);
        std::vector<uint32_t> got;
        auto &rm = sm->res[kResult].mbox;
        sm->run_until(
            [&] {
                while (!rm.empty()) {
                    got.push_back(rm.front());
                    rm.pop_front();
                }
                return got.size() >= n || sm->exited || sm->osif_fault;
            },
            20000);
        // Nothing more may follow.
        for (int i = 0; i < 200; ++i)
            sm->step();
        while (!rm.empty()) {
            got.push_back(rm.front());
            rm.pop_front();
        }
        return got;
    }

    void expect(const char *what, const std::vector<uint32_t> &words,
                const std::vector<uint32_t> &want)
    {
        std::vector<uint32_t> got = exec(words, want.size());
        bool same = got == want;
        CHECK(same, "%s: result words differ", what);
        if (!same) {
            for (uint32_t w : got)
                std::fprintf(stderr, "  got  0x%08x\n", w);
            for (uint32_t w : want)
                std::fprintf(stderr, "  want 0x%08x\n", w);
        }
    }
};

void test_calls(uint32_t seed)
{
    Bench b(seed);
    auto &sm = *b.sm;
    b.expect("GET_INIT_DATA", {req_hdr(WEFT_OSIF_CMD_GET_INIT_DATA, 0, 0)},
             {resp_hdr(WEFT_OSIF_CMD_GET_INIT_DATA, WEFT_OSIF_OK, 1), sm.init_data});

    b.expect("SEM_POST", {req_hdr(WEFT_OSIF_CMD_SEM_POST, kSem, 0)},
             {resp_hdr(WEFT_OSIF_CMD_SEM_POST, WEFT_OSIF_OK, 0)});
    CHECK(sm.res[kSem].sem == 1, "SEM_POST: count %u", sm.res[kSem].sem);
    b.expect("SEM_WAIT", {req_hdr(WEFT_OSIF_CMD_SEM_WAIT, kSem, 0)},
             {resp_hdr(WEFT_OSIF_CMD_SEM_WAIT, WEFT_OSIF_OK, 0)});
    CHECK(sm.res[kSem].sem == 0, "SEM_WAIT: count %u", sm.res[kSem].sem);

    // A blocking call: the thread waits (slot_o.osif.in_ready high) until the bench posts.
    {
        sm.res[kInstr].mbox.push_back(req_hdr(WEFT_OSIF_CMD_SEM_WAIT, kSem, 0));
        for (int i = 0; i < 2000; ++i)
            sm.step();
        CHECK(sm.call_pending() && sm.res[kResult].mbox.empty(), "SEM_WAIT did not block");
        CHECK(WEFT_SLOT_GET(b.top->slot_o.data(), REQ_OSIF_IN_READY),
              "blocked thread does not raise slot_o.osif.in_ready");
        sm.res[kSem].sem = 1;
        b.expect("SEM_WAIT released", {}, {resp_hdr(WEFT_OSIF_CMD_SEM_WAIT, WEFT_OSIF_OK, 0)});
    }

    b.expect("MBOX_PUT", {req_hdr(WEFT_OSIF_CMD_MBOX_PUT, kMbox, 1), 0x12345678u},
             {resp_hdr(WEFT_OSIF_CMD_MBOX_PUT, WEFT_OSIF_OK, 0)});
    CHECK(sm.res[kMbox].mbox.size() == 1 && sm.res[kMbox].mbox.front() == 0x12345678u,
          "MBOX_PUT: word not in the mailbox");
    b.expect("MBOX_TRYPUT", {req_hdr(WEFT_OSIF_CMD_MBOX_TRYPUT, kMbox, 1), 0x9u},
             {resp_hdr(WEFT_OSIF_CMD_MBOX_TRYPUT, WEFT_OSIF_OK, 0)});
    b.expect("MBOX_TRYPUT full", {req_hdr(WEFT_OSIF_CMD_MBOX_TRYPUT, kMbox, 1), 0xAu},
             {resp_hdr(WEFT_OSIF_CMD_MBOX_TRYPUT, WEFT_OSIF_AGAIN, 0)});
    b.expect("MBOX_GET", {req_hdr(WEFT_OSIF_CMD_MBOX_GET, kMbox, 0)},
             {resp_hdr(WEFT_OSIF_CMD_MBOX_GET, WEFT_OSIF_OK, 1), 0x12345678u});
    b.expect("MBOX_TRYGET", {req_hdr(WEFT_OSIF_CMD_MBOX_TRYGET, kMbox, 0)},
             {resp_hdr(WEFT_OSIF_CMD_MBOX_TRYGET, WEFT_OSIF_OK, 1), 0x9u});
    b.expect("MBOX_TRYGET empty", {req_hdr(WEFT_OSIF_CMD_MBOX_TRYGET, kMbox, 0)},
             {resp_hdr(WEFT_OSIF_CMD_MBOX_TRYGET, WEFT_OSIF_AGAIN, 0)});

    b.expect("MUTEX_LOCK", {req_hdr(WEFT_OSIF_CMD_MUTEX_LOCK, kMutex, 0)},
             {resp_hdr(WEFT_OSIF_CMD_MUTEX_LOCK, WEFT_OSIF_OK, 0)});
    b.expect("MUTEX_TRYLOCK held", {req_hdr(WEFT_OSIF_CMD_MUTEX_TRYLOCK, kMutex, 0)},
             {resp_hdr(WEFT_OSIF_CMD_MUTEX_TRYLOCK, WEFT_OSIF_BUSY, 0)});
    // COND_WAIT: one argument word (the mutex handle); released by a signal.
    {
        sm.res[kInstr].mbox.push_back(req_hdr(WEFT_OSIF_CMD_COND_WAIT, kCond, 1));
        sm.res[kInstr].mbox.push_back(kMutex);
        for (int i = 0; i < 2000; ++i)
            sm.step();
        CHECK(sm.call_pending() && !sm.res[kMutex].locked, "COND_WAIT did not block and unlock");
        sm.res[kCond].signals = 1;
        b.expect("COND_WAIT released", {}, {resp_hdr(WEFT_OSIF_CMD_COND_WAIT, WEFT_OSIF_OK, 0)});
        CHECK(sm.res[kMutex].locked, "COND_WAIT did not relock the mutex");
    }
    b.expect("COND_SIGNAL", {req_hdr(WEFT_OSIF_CMD_COND_SIGNAL, kCond, 0)},
             {resp_hdr(WEFT_OSIF_CMD_COND_SIGNAL, WEFT_OSIF_OK, 0)});
    b.expect("MUTEX_UNLOCK", {req_hdr(WEFT_OSIF_CMD_MUTEX_UNLOCK, kMutex, 0)},
             {resp_hdr(WEFT_OSIF_CMD_MUTEX_UNLOCK, WEFT_OSIF_OK, 0)});
    b.expect("MUTEX_UNLOCK not held", {req_hdr(WEFT_OSIF_CMD_MUTEX_UNLOCK, kMutex, 0)},
             {resp_hdr(WEFT_OSIF_CMD_MUTEX_UNLOCK, WEFT_OSIF_PERM, 0)});

    // Error statuses come back as they are.
    b.expect("bad handle", {req_hdr(WEFT_OSIF_CMD_SEM_POST, 77, 0)},
             {resp_hdr(WEFT_OSIF_CMD_SEM_POST, WEFT_OSIF_BADHANDLE, 0)});
    b.expect("wrong type", {req_hdr(WEFT_OSIF_CMD_SEM_POST, kMbox, 0)},
             {resp_hdr(WEFT_OSIF_CMD_SEM_POST, WEFT_OSIF_WRONG_TYPE, 0)});
    b.expect("unknown command", {req_hdr(0x7E, 0, 0)}, {resp_hdr(0x7E, WEFT_OSIF_NOSYS, 0)});
    b.expect("wrong nargs", {req_hdr(WEFT_OSIF_CMD_SEM_POST, kSem, 2), 1, 2},
             {resp_hdr(WEFT_OSIF_CMD_SEM_POST, WEFT_OSIF_BADARGS, 0)});
    b.expect("too many args for the thread",
             {req_hdr(WEFT_OSIF_CMD_SEM_POST, kSem, kCallMaxArgs + 1)},
             {resp_hdr(WEFT_OSIF_CMD_SEM_POST, WEFT_OSIF_BADARGS, 0)});
    b.expect("unknown pseudo-command", {req_hdr(0xF7, 0, 0)}, {resp_hdr(0xF7, WEFT_OSIF_NOSYS, 0)});

    // Memory pseudo-commands.
    const uint32_t a = sm.mem_base + 0x40;
    b.expect("mem write", {req_hdr(kMemWrite, 0, 2), a, 0xCAFEF00Du}, {resp_hdr(kMemWrite, 0, 0)});
    CHECK(sm.word(a) == 0xCAFEF00Du, "mem write: memory holds 0x%08x", sm.word(a));
    sm.word(a + 4) = 0x01020304u;
    b.expect("mem read", {req_hdr(kMemRead, 0, 1), a + 4}, {resp_hdr(kMemRead, 0, 1), 0x01020304u});
    sm.word(a + 8) = 0xFFFFFFFFu;
    b.expect("mem inc", {req_hdr(kMemInc, 0, 1), a + 8}, {resp_hdr(kMemInc, 0, 1), 0});
    CHECK(sm.word(a + 8) == 0, "mem inc: memory holds 0x%08x", sm.word(a + 8));
    b.expect("mem inc again", {req_hdr(kMemInc, 0, 1), a + 8}, {resp_hdr(kMemInc, 0, 1), 1});
    CHECK(sm.word(a + 8) == 1, "mem inc: memory holds 0x%08x", sm.word(a + 8));
    b.expect("raw too long", {req_hdr(kRaw, 0, 17)}, {resp_hdr(kRaw, WEFT_OSIF_BADARGS, 0)});

    CHECK(sm.rule2_violations == 0,
          "slot_o.osif.in_ready high while not waiting: %" PRIu64 " cycles", sm.rule2_violations);
    CHECK(sm.stability_violations == 0, "valid withdrawn or data changed before ready");
    CHECK(!sm.mem_fault && !sm.osif_fault, "unexpected fault");

    // THREAD_EXIT as an instruction ends the thread with its argument.
    b.exec({req_hdr(WEFT_OSIF_CMD_THREAD_EXIT, 0, 1), 0x600DF00Du}, 0);
    CHECK(sm.exited && sm.exit_value == 0x600DF00Du, "THREAD_EXIT: exited %d value 0x%08x",
          sm.exited, sm.exit_value);
}

// A raw request's words go out verbatim: one claiming more argument words than the model
// takes (its max_nargs, 16) faults the model's slot.
void test_raw(uint32_t seed)
{
    Bench b(seed);
    auto &sm = *b.sm;
    const uint32_t bad = req_hdr(WEFT_OSIF_CMD_SEM_POST, kSem, WEFT_OSIF_MAX_ARGS);
    b.exec({req_hdr(kRaw, 0, 3), bad, 1, 2}, 1);
    CHECK(sm.osif_fault, "raw malformed request: no OSIF fault");
    CHECK(!sm.osif_log.empty() && sm.osif_log.back() == bad,
          "raw words not sent verbatim (last word 0x%08x)",
          sm.osif_log.empty() ? 0 : sm.osif_log.back());
}

// A memory access outside the window faults the MEMIF, nothing is written.
void test_mem_fault(uint32_t seed)
{
    Bench b(seed);
    auto &sm = *b.sm;
    const auto before = sm.mem;
    b.exec({req_hdr(kMemWrite, 0, 2), 0x100, 5}, 1);
    CHECK(sm.mem_fault && sm.fault_addr == 0x100, "write outside the window: no MEMIF fault");
    CHECK(sm.mem == before, "write outside the window changed memory");
}

} // namespace

int main()
{
    for (uint32_t seed = 1; seed <= 4; ++seed)
        test_calls(seed);
    test_raw(5);
    test_mem_fault(6);
    if (weft_tb::failures) {
        std::fprintf(stderr, "tb_thread_calls: %d failure(s)\n", weft_tb::failures);
        return 1;
    }
    std::printf("tb_thread_calls: PASS\n");
    return 0;
}

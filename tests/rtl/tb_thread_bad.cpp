// Self-checking test bench of hwt_bad against the C++ static-side model
// (tb_hwlib_slot_model.h): each misbehaviour mode produces the error the static side or
// the delegate must see (status codes for modes 0-2, for mode 3 a request longer than the
// model takes,
// MEMIF faults for modes 4-5), and an unknown mode exits with 0xFFFFFFFF.
#include "Vhwt_bad.h"
#include "tb_check.h"
#include "tb_hwlib_slot_model.h"
#include "verilated.h"

#include <cstdio>
#include <memory>

namespace
{

struct Bench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vhwt_bad> top;
    std::unique_ptr<tbm::SlotModel<Vhwt_bad>> sm;

    explicit Bench(uint32_t init)
    {
        ctx = std::make_unique<VerilatedContext>();
        top = std::make_unique<Vhwt_bad>(ctx.get());
        sm = std::make_unique<tbm::SlotModel<Vhwt_bad>>(*top, init + 3);
        sm->res.resize(2);
        sm->res[0].type = WEFT_RES_MBOX; // mode 2 waits on it as if it were a semaphore
        sm->res[1].type = WEFT_RES_SEM;
        sm->init_data = init;
        sm->mem.assign(256, 0);
        sm->reset();
        sm->run_until([&] { return sm->exited || sm->osif_fault || sm->mem_fault; }, 20000);
        for (int i = 0; i < 500; ++i)
            sm->step();
        CHECK(sm->rule2_violations == 0, "init 0x%08x: slot_o.osif.in_ready high while not waiting",
              init);
    }
    ~Bench() { top->final(); }
};

void expect_exit(uint32_t init, uint32_t value)
{
    Bench b(init);
    CHECK(b.sm->exited && b.sm->exit_value == value, "mode %u: exited %d with 0x%08x, want 0x%08x",
          init & 0xFF, b.sm->exited, b.sm->exit_value, value);
    CHECK(!b.sm->osif_fault && !b.sm->mem_fault, "mode %u: unexpected fault", init & 0xFF);
}

} // namespace

int main()
{
    expect_exit(0, WEFT_OSIF_NOSYS);
    expect_exit(1, WEFT_OSIF_BADHANDLE);
    expect_exit(2, WEFT_OSIF_WRONG_TYPE);
    expect_exit(9, 0xFFFFFFFFu);
    {
        Bench b(3);
        // More words than the model takes in one request (max_nargs): it faults the slot.
        CHECK(b.sm->osif_fault && !b.sm->exited, "mode 3: no OSIF fault in the model");
        CHECK(b.sm->osif_log.size() >= 2 &&
                  b.sm->osif_log[1] == tbm::req_hdr(WEFT_OSIF_CMD_SEM_POST, 0, WEFT_OSIF_MAX_ARGS),
              "mode 3: malformed header not sent");
    }
    {
        Bench b(4);
        CHECK(b.sm->mem_fault && b.sm->fault_addr == 0x100 &&
                  b.sm->fault_info == tbm::memif_cmd0(WEFT_MEMIF_OP_READ, 4) && !b.sm->exited,
              "mode 4: fault %d addr 0x%08x info 0x%08x", b.sm->mem_fault, b.sm->fault_addr,
              b.sm->fault_info);
    }
    {
        const uint32_t base = 0x10000000u; // inside the model's window: only the length is bad
        Bench b(5 | base);
        CHECK(b.sm->mem_fault && b.sm->fault_addr == base &&
                  b.sm->fault_info == tbm::memif_cmd0(WEFT_MEMIF_OP_READ, 6) && !b.sm->exited,
              "mode 5: fault %d addr 0x%08x info 0x%08x", b.sm->mem_fault, b.sm->fault_addr,
              b.sm->fault_info);
    }
    if (weft_tb::failures) {
        std::fprintf(stderr, "tb_thread_bad: %d failure(s)\n", weft_tb::failures);
        return 1;
    }
    std::printf("tb_thread_bad: PASS\n");
    return 0;
}

// Self-checking test bench of the synchronisation manager's software contexts
// (weft_sync_sw in weft_static; docs/hw-services.md, "Software threads"), through the
// register window of the whole static region. Checked:
// * SYNC_INFO gives the contexts and the clients (slots + contexts);
// * a call that does not block is answered by the read after its write; one that blocks
//   reads BUSY until another context serves it;
// * a call written while one is in progress, or with a byte strobe low, is ignored;
// * the OS services' line (IRQ_PENDING bit NUM_SLOTS, svc_irq_o) rises only for an armed
//   context whose call is answered, also when the answer came before the arming, and
//   drops when SYNC_SW_PENDING is written 1 or a new call is made;
// * CANCEL ends a blocked call CANCELED; a context's priority orders the waiters;
// * SYNC_SW_FLUSH drops a context's call unanswered and hands its mutex to the waiter;
// * a context's mutex is its own: another context's unlock is refused PERM.
#include "tb_check.h"
#include <cstdint>
#include <cstdio>

#include "tb_rtl_static_harness.h"
#include "weft/osif_protocol.h"
#include "weft/platform_config.h"

using namespace weft_tb;

namespace
{

constexpr uint32_t kSeed = 0x5e5c7e57u;
constexpr unsigned kSem = 0, kMutex = 1; // objects configured below

uint32_t call_word(unsigned op, unsigned obj, unsigned mtx = WEFT_SYNC_NO_OBJECT)
{
    return op | obj << WEFT_SYNC_CTX_OBJ_SHIFT | mtx << WEFT_SYNC_CTX_MTX_SHIFT;
}

struct Bench {
    StaticHarness h{kSeed};

    void call(unsigned ctx, unsigned op, unsigned obj)
    {
        h.mmio_write(WEFT_REG_SYNC_CTX_CALL(ctx), call_word(op, obj));
    }
    uint32_t state(unsigned ctx) { return h.mmio_read(WEFT_REG_SYNC_CTX_CALL(ctx)); }
    bool busy(unsigned ctx) { return (state(ctx) & WEFT_SYNC_CTX_BUSY) != 0; }
    unsigned status(unsigned ctx) { return state(ctx) & 0xffu; }
    bool line() { return (h.mmio_read(WEFT_REG_IRQ_PENDING) >> kNumSlots & 1u) != 0; }
    bool wire() { return h.dut().svc_irq_o != 0; }
    void configure(unsigned obj, unsigned type, uint32_t val)
    {
        h.mmio_write(WEFT_REG_SYNC_CFG_VAL, val);
        h.mmio_write(WEFT_REG_SYNC_CFG, obj | type << WEFT_SYNC_CFG_TYPE_SHIFT);
        CHECK((h.mmio_read(WEFT_REG_SYNC_CFG) & 0xffu) == WEFT_OSIF_OK, "object %u configured",
              obj);
    }
    unsigned depth(unsigned obj)
    {
        h.mmio_write(WEFT_REG_SYNC_INSPECT, obj);
        return h.mmio_read(WEFT_REG_SYNC_STATE) >> WEFT_SYNC_STATE_COUNT_SHIFT;
    }
};

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Bench b;
    StaticHarness &h = b.h;
    h.reset();

    const uint32_t info = h.mmio_read(WEFT_REG_SYNC_INFO);
    const unsigned nctx = info >> WEFT_SYNC_INFO_SW_SHIFT & 0xffu;
    const unsigned clients = info >> WEFT_SYNC_INFO_CLIENTS_SHIFT & 0xffu;
    CHECK(nctx >= 3, "SYNC_INFO: %u software contexts (this bench needs 3)", nctx);
    CHECK(clients == kNumSlots + nctx, "SYNC_INFO: %u clients, %u slots + %u contexts", clients,
          kNumSlots, nctx);
    if (nctx < 3)
        return 1;

    b.configure(kSem, WEFT_SYNC_TYPE_SEM, 0 | 2u << WEFT_SYNC_CFG_MAX_SHIFT);
    b.configure(kMutex, WEFT_SYNC_TYPE_MUTEX, 0);

    // A call that does not block: answered by the read after its write.
    b.call(0, WEFT_SYNC_OP_SEM_TRYWAIT, kSem);
    CHECK(!b.busy(0) && b.status(0) == WEFT_OSIF_AGAIN, "trywait at 0: 0x%x", b.state(0));

    // A wait that blocks; a second call meanwhile and a torn call word are ignored.
    b.call(0, WEFT_SYNC_OP_SEM_WAIT, kSem);
    h.step(20);
    CHECK(b.busy(0), "a wait at count 0 is answered: 0x%x", b.state(0));
    b.call(0, WEFT_SYNC_OP_SEM_POST, kSem);
    h.mmio_write(WEFT_REG_SYNC_CTX_CALL(1), call_word(WEFT_SYNC_OP_SEM_POST, kSem), 0x7);
    h.step(20);
    CHECK(b.busy(0), "a call written while one waits was taken");
    CHECK(!b.busy(1), "a call written with a byte strobe low was taken");
    CHECK(!b.line() && !b.wire(), "the line is high with nothing armed");

    // Armed while blocked: no line until the answer; context 1's post answers it.
    h.mmio_write(WEFT_REG_SYNC_SW_ARM, 1u << 0);
    CHECK(h.mmio_read(WEFT_REG_SYNC_SW_ARM) == 1u, "SYNC_SW_ARM reads 0x%x",
          h.mmio_read(WEFT_REG_SYNC_SW_ARM));
    CHECK(!b.line() && h.mmio_read(WEFT_REG_SYNC_SW_PENDING) == 0, "pending while still blocked");
    b.call(1, WEFT_SYNC_OP_SEM_POST, kSem);
    CHECK(!b.busy(1) && b.status(1) == WEFT_OSIF_OK, "post: 0x%x", b.state(1));
    CHECK(!b.busy(0) && b.status(0) == WEFT_OSIF_OK, "the post did not wake context 0: 0x%x",
          b.state(0));
    CHECK(b.line() && b.wire(), "no interrupt for an armed context's answer");
    CHECK(h.mmio_read(WEFT_REG_SYNC_SW_PENDING) == 1u, "SYNC_SW_PENDING 0x%x",
          h.mmio_read(WEFT_REG_SYNC_SW_PENDING));
    h.mmio_write(WEFT_REG_SYNC_SW_PENDING, 1u);
    CHECK(!b.line() && !b.wire() && h.mmio_read(WEFT_REG_SYNC_SW_ARM) == 0,
          "writing 1 to SYNC_SW_PENDING did not disarm");

    // An answer that came before the arming still raises the line; a new call drops it.
    b.call(1, WEFT_SYNC_OP_SEM_POST, kSem);
    h.mmio_write(WEFT_REG_SYNC_SW_ARM, 1u << 1);
    CHECK(b.line(), "an answer before the arming raised nothing");
    b.call(1, WEFT_SYNC_OP_SEM_TRYWAIT, kSem);
    CHECK(!b.line(), "a new call left the context armed");
    CHECK(b.status(1) == WEFT_OSIF_OK && b.depth(kSem) == 0, "trywait at 1: 0x%x", b.state(1));

    // CANCEL ends a blocked call; its answer is CANCELED and nothing is taken.
    b.call(2, WEFT_SYNC_OP_SEM_WAIT, kSem);
    h.step(10);
    CHECK(b.busy(2), "context 2 did not block");
    h.mmio_write(WEFT_REG_SYNC_CTX_CTRL(2), WEFT_SYNC_CTX_CANCEL);
    CHECK(!b.busy(2) && b.status(2) == WEFT_OSIF_CANCELED, "cancel: 0x%x", b.state(2));
    CHECK(h.mmio_read(WEFT_REG_SYNC_CTX_CTRL(2)) == WEFT_SYNC_CTX_CANCEL, "CTRL reads back");
    h.mmio_write(WEFT_REG_SYNC_CTX_CTRL(2), 0);

    // Priorities: context 1 (priority 9) waits first, context 2 (priority 3) next; the
    // first post goes to context 2.
    h.mmio_write(WEFT_REG_SYNC_CTX_CTRL(1), 9);
    h.mmio_write(WEFT_REG_SYNC_CTX_CTRL(2), 3);
    b.call(1, WEFT_SYNC_OP_SEM_WAIT, kSem);
    b.call(2, WEFT_SYNC_OP_SEM_WAIT, kSem);
    h.step(10);
    b.call(0, WEFT_SYNC_OP_SEM_POST, kSem);
    h.step(10);
    CHECK(!b.busy(2) && b.busy(1), "the less urgent waiter was woken first");
    b.call(0, WEFT_SYNC_OP_SEM_POST, kSem);
    h.step(10);
    CHECK(!b.busy(1) && b.status(1) == WEFT_OSIF_OK, "the second post did not wake context 1");

    // A context's mutex: another's unlock is refused; a flush hands it to the waiter.
    b.call(0, WEFT_SYNC_OP_MUTEX_LOCK, kMutex);
    CHECK(b.status(0) == WEFT_OSIF_OK && b.depth(kMutex) == 1, "lock: 0x%x", b.state(0));
    b.call(1, WEFT_SYNC_OP_MUTEX_UNLOCK, kMutex);
    CHECK(b.status(1) == WEFT_OSIF_PERM, "another context's unlock: 0x%x", b.state(1));
    b.call(1, WEFT_SYNC_OP_MUTEX_LOCK, kMutex);
    b.call(0, WEFT_SYNC_OP_SEM_WAIT, kSem); // context 0 blocks while it holds the mutex
    h.step(10);
    CHECK(b.busy(0) && b.busy(1), "both contexts should wait");
    h.mmio_write(WEFT_REG_SYNC_SW_FLUSH, 1u << 0);
    h.step(10);
    CHECK(!b.busy(0), "the flushed context's call is still in progress");
    CHECK(!b.busy(1) && b.status(1) == WEFT_OSIF_OK, "the flush did not hand the mutex on: 0x%x",
          b.state(1));
    // (A flushed context's next call waits for the manager's scan for its mutexes; the
    // read of its CALL register waits for the answer.)
    b.call(0, WEFT_SYNC_OP_SEM_POST, kSem);
    CHECK(b.status(0) == WEFT_OSIF_OK, "post after the flush: 0x%x", b.state(0));
    CHECK(b.depth(kSem) == 1, "the post went to the flushed context's dropped wait");
    b.call(1, WEFT_SYNC_OP_MUTEX_UNLOCK, kMutex);
    CHECK(b.status(1) == WEFT_OSIF_OK && b.depth(kMutex) == 0, "unlock: 0x%x", b.state(1));

    // An unknown call and an object out of range are refused.
    h.mmio_write(WEFT_REG_SYNC_CTX_CALL(0), 0xF);
    CHECK(b.status(0) == WEFT_OSIF_NOSYS, "unknown call: 0x%x", b.state(0));
    b.call(0, WEFT_SYNC_OP_SEM_POST, 254);
    CHECK(b.status(0) == WEFT_OSIF_BADHANDLE, "object 254: 0x%x", b.state(0));

    if (failures == 0)
        std::printf("tb_rtl_sync_sw: all checks passed\n");
    return failures ? 1 : 0;
}

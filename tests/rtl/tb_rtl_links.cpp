// Self-checking test bench of the hardware links and the link router of weft_static
// (weft_call_router.sv), on the default platform (links ring01: slot 0 -> 1, ring12:
// slot 1 -> 2, ..., 128 words each).
//
// The test bench plays the threads at the slot boundary (OSIF request and response
// streams) and software through the register window. Checked:
// * mailbox calls on bound handles (PUT, TRYPUT, TIMEDPUT, GET, TRYGET, TIMEDGET and the
//   bursts) are answered by the static region, in order, nothing lost or duplicated, with
//   nothing reaching HW2SW and no interrupt;
// * calls the router must not serve go to software unchanged: an unbound handle, the
//   wrong direction, a wrong argument count, a slot that is no end of the link;
// * AGAIN on a full or empty link for the try calls; CANCELED while CONTROL.SIGNAL is set
//   (for a burst only before its first word, whose words are then dropped); TIMEDOUT after
//   the timeout's microseconds of ClockMhz cycles; BADARGS for a burst get of 0 words;
// * bursts stream one word per cycle; a random producer and consumer with random burst
//   sizes and random stalls lose and duplicate nothing;
// * a link keeps its words across slot resets; LINK_LEVEL counts them, LINK_FLUSH empties
//   the link; LINK_CALLS counts the calls served; a slot blocked on a link is quiet.
#include "tb_check.h"
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <random>
#include <vector>

#include "tb_rtl_static_harness.h"
#include "weft/osif_protocol.h"
#include "weft/platform_config.h"

using namespace weft_tb;

namespace
{

constexpr uint32_t kSeed = 0x5eed1111u;
constexpr unsigned kLinkDepth = 128;
constexpr uint32_t kTx = 5, kRx = 3; // handles bound in slot 0 (to ring01) and slot 1

uint32_t hdr(uint32_t cmd, uint32_t handle, uint32_t nargs)
{
    return weft_osif_req_header(cmd, handle, nargs);
}
uint32_t resp_cmd(uint32_t w)
{
    return (w >> WEFT_OSIF_RESP_CMD_SHIFT) & WEFT_OSIF_RESP_CMD_MASK;
}
uint32_t resp_status(uint32_t w)
{
    return (w >> WEFT_OSIF_RESP_STATUS_SHIFT) & WEFT_OSIF_RESP_STATUS_MASK;
}
uint32_t resp_nwords(uint32_t w)
{
    return (w >> WEFT_OSIF_RESP_NWORDS_SHIFT) & WEFT_OSIF_RESP_NWORDS_MASK;
}

// The thread of one slot at the boundary: sends queued request words (a valid, once
// raised, is held until taken) and takes response words when it is "waiting".
class OsifThread : public Agent
{
  public:
    OsifThread(StaticHarness &h, unsigned slot) : h_(h), s_(slot) {}
    std::deque<uint32_t> out;
    std::vector<uint32_t> in;
    std::vector<uint64_t> in_cycles;
    unsigned p_out = 100, p_in = 100;
    bool waiting = true; // raise osif_in_ready (when the dice allow)

    void drive(Vweft_static &d) override
    {
        if (!valid_ && !out.empty() && h_.chance(p_out))
            valid_ = true;
        SET_REQ(d, s_, OSIF_OUT_VALID, valid_);
        SET_REQ(d, s_, OSIF_OUT_DATA, valid_ ? out.front() : 0);
        SET_REQ(d, s_, OSIF_IN_READY, waiting && h_.chance(p_in));
    }
    void sample(Vweft_static &d) override
    {
        if (valid_ && RSP(d, s_, OSIF_OUT_READY)) {
            out.pop_front();
            valid_ = false;
        }
        if (RSP(d, s_, OSIF_IN_VALID) && REQ(d, s_, OSIF_IN_READY)) {
            in.push_back(RSP(d, s_, OSIF_IN_DATA));
            in_cycles.push_back(h_.cycle());
        }
    }
    bool sent() const { return out.empty() && !valid_; }

  private:
    StaticHarness &h_;
    unsigned s_;
    bool valid_ = false;
};

class Bench
{
  public:
    Bench() : h(kSeed), t0(h, 0), t1(h, 1), t2(h, 2)
    {
        h.add_agent(&t0);
        h.add_agent(&t1);
        h.add_agent(&t2);
        h.reset();
        for (unsigned s = 0; s < 3; ++s)
            h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL),
                         WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
        bind(0, 0, kTx, WEFT_LINK_RING01);
        bind(1, 0, kRx, WEFT_LINK_RING01);
    }

    StaticHarness h;
    OsifThread t0, t1, t2;

    void bind(unsigned slot, unsigned b, uint32_t handle, uint32_t link)
    {
        h.mmio_write(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_LINK_BIND(b)),
                     WEFT_LINK_BIND_EN | link << WEFT_LINK_BIND_LINK_SHIFT | handle);
    }
    uint32_t level(uint32_t link) { return h.mmio_read(WEFT_REG_LINK_LEVEL(link)); }
    uint32_t hw2sw(unsigned slot)
    {
        return h.mmio_read(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_STATUS)) & 0xFFFFu;
    }

    // Run until the thread has n response words, at most max cycles.
    bool wait_in(OsifThread &t, size_t n, unsigned max = 20000)
    {
        for (unsigned i = 0; i < max && t.in.size() < n; ++i)
            h.step();
        return t.in.size() >= n;
    }

    // One call: send the words, wait for a response of 1 + nresults words.
    std::vector<uint32_t> call(OsifThread &t, std::vector<uint32_t> words, size_t nresults,
                               unsigned max = 20000)
    {
        size_t base = t.in.size();
        for (uint32_t w : words)
            t.out.push_back(w);
        CHECK(wait_in(t, base + 1 + nresults, max), "call 0x%08x: %zu of %zu response words",
              words[0], t.in.size() - base, 1 + nresults);
        h.step(3);
        std::vector<uint32_t> r(t.in.begin() + static_cast<long>(base), t.in.end());
        return r;
    }

    void expect_status(const std::vector<uint32_t> &r, uint32_t cmd, uint32_t status,
                       uint32_t nwords, const char *what)
    {
        CHECK(!r.empty(), "%s: no response", what);
        if (r.empty())
            return;
        CHECK(resp_cmd(r[0]) == cmd && resp_status(r[0]) == status && resp_nwords(r[0]) == nwords,
              "%s: response 0x%08x, want cmd 0x%02x status %u nwords %u", what, r[0], cmd, status,
              nwords);
        CHECK(r.size() == 1 + nwords, "%s: %zu response words", what, r.size());
    }

    // ---- scenarios ----------------------------------------------------------------

    void single_calls()
    {
        auto r = call(t0, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 1), 0xA1}, 0);
        expect_status(r, WEFT_OSIF_CMD_MBOX_PUT, WEFT_OSIF_OK, 0, "PUT");
        r = call(t0, {hdr(WEFT_OSIF_CMD_MBOX_TRYPUT, kTx, 1), 0xA2}, 0);
        expect_status(r, WEFT_OSIF_CMD_MBOX_TRYPUT, WEFT_OSIF_OK, 0, "TRYPUT");
        r = call(t0, {hdr(WEFT_OSIF_CMD_MBOX_TIMEDPUT, kTx, 2), 0xA3, 5}, 0);
        expect_status(r, WEFT_OSIF_CMD_MBOX_TIMEDPUT, WEFT_OSIF_OK, 0, "TIMEDPUT");
        CHECK(level(WEFT_LINK_RING01) == 3, "LINK_LEVEL %u after 3 puts", level(WEFT_LINK_RING01));
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_GET, kRx, 0)}, 1);
        expect_status(r, WEFT_OSIF_CMD_MBOX_GET, WEFT_OSIF_OK, 1, "GET");
        CHECK(r.size() == 2 && r[1] == 0xA1, "GET word 0x%08x", r.size() > 1 ? r[1] : 0);
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_TRYGET, kRx, 0)}, 1);
        CHECK(r.size() == 2 && r[1] == 0xA2, "TRYGET word");
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_TIMEDGET, kRx, 1), 7}, 1);
        CHECK(r.size() == 2 && r[1] == 0xA3, "TIMEDGET word");
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_TRYGET, kRx, 0)}, 0);
        expect_status(r, WEFT_OSIF_CMD_MBOX_TRYGET, WEFT_OSIF_AGAIN, 0, "TRYGET empty");
        CHECK(hw2sw(0) == 0 && hw2sw(1) == 0, "link calls reached HW2SW");
        CHECK(!bit(h.dut().irq_o, 0) && !bit(h.dut().irq_o, 1), "link calls raised an interrupt");
        uint32_t c0 = h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_LINK_CALLS));
        uint32_t c1 = h.mmio_read(WEFT_SLOT_REG(1, WEFT_SLOT_REG_LINK_CALLS));
        CHECK(c0 == 3 && c1 == 4, "LINK_CALLS %u and %u, want 3 and 4", c0, c1);
    }

    void full_and_empty()
    {
        for (uint32_t i = 0; i < kLinkDepth; ++i)
            call(t0, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 1), i}, 0);
        auto r = call(t0, {hdr(WEFT_OSIF_CMD_MBOX_TRYPUT, kTx, 1), 999}, 0);
        expect_status(r, WEFT_OSIF_CMD_MBOX_TRYPUT, WEFT_OSIF_AGAIN, 0, "TRYPUT full");
        // A blocking put on the full link waits, then completes once a word is taken.
        size_t base = t0.in.size();
        t0.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 1));
        t0.out.push_back(1000);
        h.step(200);
        CHECK(t0.in.size() == base, "PUT on a full link answered without room");
        CHECK(h.dut().quiet_o, "fabric not quiet while slot 0 waits on a full link");
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_GET, kRx, 0)}, 1);
        CHECK(r.size() == 2 && r[1] == 0, "first word after filling: 0x%08x",
              r.size() > 1 ? r[1] : 0);
        CHECK(wait_in(t0, base + 1), "PUT did not complete once room appeared");
        // Drain with one burst get of all words, in order, then its burst_end.
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_GET_BURST, kRx, 1), kLinkDepth}, kLinkDepth + 1);
        expect_status(r, WEFT_OSIF_CMD_MBOX_GET_BURST, WEFT_OSIF_OK, kLinkDepth + 1, "GET_BURST");
        for (uint32_t i = 0; i < kLinkDepth && 1 + i < r.size(); ++i)
            CHECK(r[1 + i] == (i + 1 < kLinkDepth ? i + 1 : 1000u), "burst word %u: 0x%08x", i,
                  r[1 + i]);
        CHECK(r.back() == weft_osif_burst_end(WEFT_OSIF_OK, kLinkDepth), "GET_BURST end 0x%08x",
              r.back());
        CHECK(level(WEFT_LINK_RING01) == 0, "link not empty after draining");
    }

    void not_served_here()
    {
        struct Case {
            const char *what;
            OsifThread *t;
            unsigned slot;
            std::vector<uint32_t> words;
        } cases[] = {
            {"unbound handle", &t0, 0, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx + 1, 1), 1}},
            {"get on the sending end", &t0, 0, {hdr(WEFT_OSIF_CMD_MBOX_GET, kTx, 0)}},
            {"put on the receiving end", &t1, 1, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kRx, 1), 2}},
            {"wrong argument count", &t0, 0, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 2), 3, 4}},
            {"burst put without words", &t0, 0, {hdr(WEFT_OSIF_CMD_MBOX_PUT_BURST, kTx, 0)}},
            {"not a mailbox command", &t0, 0, {hdr(WEFT_OSIF_CMD_SEM_POST, kTx, 0)}},
            {"slot not on the link", &t2, 2, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 1), 5}},
        };
        bind(2, 0, kTx, WEFT_LINK_RING01); // slot 2 is no end of ring01
        for (const Case &c : cases) {
            for (uint32_t w : c.words)
                c.t->out.push_back(w);
            for (unsigned i = 0; i < 200 && !c.t->sent(); ++i)
                h.step();
            h.step(5);
            CHECK(hw2sw(c.slot) == c.words.size(), "%s: %u words in HW2SW, want %zu", c.what,
                  hw2sw(c.slot), c.words.size());
            for (uint32_t w : c.words) {
                uint32_t got = h.mmio_read(WEFT_SLOT_REG(c.slot, WEFT_SLOT_REG_OSIF_HW2SW));
                CHECK(got == w, "%s: software read 0x%08x, want 0x%08x", c.what, got, w);
            }
            // Software answers; the answer reaches the thread through the router.
            size_t base = c.t->in.size();
            uint32_t cmd = resp_cmd(c.words[0]);
            h.mmio_write(WEFT_SLOT_REG(c.slot, WEFT_SLOT_REG_OSIF_SW2HW),
                         weft_osif_resp_header(cmd, WEFT_OSIF_BADARGS, 0));
            CHECK(wait_in(*c.t, base + 1), "%s: software's answer did not arrive", c.what);
        }
        CHECK(level(WEFT_LINK_RING01) == 0, "a forwarded call moved a link word");
    }

    void signal_and_timeout()
    {
        // A get blocked on the empty link is answered CANCELED when SIGNAL is set.
        size_t base = t1.in.size();
        t1.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_GET, kRx, 0));
        h.step(100);
        CHECK(t1.in.size() == base, "GET on an empty link answered");
        h.mmio_write(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_SIGNAL);
        CHECK(wait_in(t1, base + 1, 100), "signal did not end the blocked GET");
        expect_status({t1.in.begin() + static_cast<long>(base), t1.in.end()},
                      WEFT_OSIF_CMD_MBOX_GET, WEFT_OSIF_CANCELED, 0, "GET signalled");
        // With the signal pending, a call that can go on still does.
        call(t0, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 1), 77}, 0);
        auto r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_GET, kRx, 0)}, 1);
        CHECK(r.size() == 2 && r[1] == 77, "signalled GET with a word waiting");
        // Reset clears SIGNAL (and keeps the bindings and the link).
        h.mmio_write(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_RESET);
        h.step(3);
        h.mmio_write(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
        CHECK(!(h.mmio_read(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL)) & WEFT_CONTROL_SIGNAL),
              "SIGNAL survived a reset");

        // TIMEDGET of 3 us at ClockMhz cycles per us.
        base = t1.in.size();
        uint64_t start = h.cycle();
        t1.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_TIMEDGET, kRx, 1));
        t1.out.push_back(3);
        CHECK(wait_in(t1, base + 1, 2000), "TIMEDGET never timed out");
        uint64_t took = t1.in_cycles.back() - start;
        CHECK(took >= 3 * WEFT_PLATFORM_CLOCK_MHZ && took <= 3 * WEFT_PLATFORM_CLOCK_MHZ + 10,
              "TIMEDGET of 3 us took %llu cycles", (unsigned long long)took);
        expect_status({t1.in.begin() + static_cast<long>(base), t1.in.end()},
                      WEFT_OSIF_CMD_MBOX_TIMEDGET, WEFT_OSIF_TIMEDOUT, 0, "TIMEDGET");
        // Timeout 0: no wait at all.
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_TIMEDGET, kRx, 1), 0}, 0, 20);
        expect_status(r, WEFT_OSIF_CMD_MBOX_TIMEDGET, WEFT_OSIF_TIMEDOUT, 0, "TIMEDGET 0");
        // A burst get of 0 words or of more than the limit is BADARGS.
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_GET_BURST, kRx, 1), 0}, 0);
        expect_status(r, WEFT_OSIF_CMD_MBOX_GET_BURST, WEFT_OSIF_BADARGS, 0, "GET_BURST 0");
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_GET_BURST, kRx, 1), WEFT_OSIF_MAX_ARGS + 1}, 0);
        expect_status(r, WEFT_OSIF_CMD_MBOX_GET_BURST, WEFT_OSIF_BADARGS, 0, "GET_BURST too many");

        // A burst put into a full link with SIGNAL set: CANCELED, its words dropped.
        for (uint32_t i = 0; i < kLinkDepth; ++i)
            call(t0, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 1), 0x100 + i}, 0);
        h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_SIGNAL);
        r = call(t0, {hdr(WEFT_OSIF_CMD_MBOX_PUT_BURST, kTx, 4), 1, 2, 3, 4}, 0);
        expect_status(r, WEFT_OSIF_CMD_MBOX_PUT_BURST, WEFT_OSIF_CANCELED, 0,
                      "PUT_BURST signalled");
        CHECK(level(WEFT_LINK_RING01) == kLinkDepth, "cancelled burst changed the link");
        // LINK_FLUSH empties the link; the slots go on.
        h.mmio_write(WEFT_REG_LINK_FLUSH, 1u << WEFT_LINK_RING01);
        CHECK(level(WEFT_LINK_RING01) == 0, "LINK_FLUSH left %u words", level(WEFT_LINK_RING01));

        // A burst put that moved words and then waits for room, ended by SIGNAL: OK, its
        // burst_end says CANCELED and how many moved; the rest of its words are dropped
        // and the next call is framed right.
        h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
        for (uint32_t i = 0; i + 2 < kLinkDepth; ++i)
            call(t0, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 1), 0x200 + i}, 0);
        base = t0.in.size();
        for (uint32_t w : {hdr(WEFT_OSIF_CMD_MBOX_PUT_BURST, kTx, 5), 1u, 2u, 3u, 4u, 5u})
            t0.out.push_back(w);
        h.step(100);
        CHECK(t0.in.size() == base, "a burst put waiting for room was answered");
        CHECK(level(WEFT_LINK_RING01) == kLinkDepth, "the burst put did not fill the link");
        h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_SIGNAL);
        CHECK(wait_in(t0, base + 2, 200), "SIGNAL did not end the waiting burst put");
        r.assign(t0.in.begin() + static_cast<long>(base), t0.in.end());
        expect_status(r, WEFT_OSIF_CMD_MBOX_PUT_BURST, WEFT_OSIF_OK, 1, "PUT_BURST partial");
        CHECK(r.size() == 2 && r[1] == weft_osif_burst_end(WEFT_OSIF_CANCELED, 2),
              "PUT_BURST partial end 0x%08x", r.size() > 1 ? r[1] : 0);
        r = call(t0, {hdr(WEFT_OSIF_CMD_MBOX_TRYPUT, kTx, 1), 9}, 0);
        expect_status(r, WEFT_OSIF_CMD_MBOX_TRYPUT, WEFT_OSIF_AGAIN, 0, "TRYPUT after partial");
        // The link holds exactly what moved: the fill, then words 1 and 2.
        r = call(t1, {hdr(WEFT_OSIF_CMD_MBOX_GET_BURST, kRx, 1), kLinkDepth}, kLinkDepth + 1);
        CHECK(r.size() == kLinkDepth + 2 && r[kLinkDepth - 1] == 1 && r[kLinkDepth] == 2,
              "the partial burst's words in the link");
        CHECK(r.back() == weft_osif_burst_end(WEFT_OSIF_OK, kLinkDepth), "drain end");

        // A burst get that took words and then waits for more, ended by SIGNAL: OK, 0
        // words for the rest of its count, burst_end CANCELED with how many were taken.
        call(t0, {hdr(WEFT_OSIF_CMD_MBOX_PUT_BURST, kTx, 2), 0x31, 0x32}, 1);
        h.mmio_write(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
        base = t1.in.size();
        t1.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_GET_BURST, kRx, 1));
        t1.out.push_back(5);
        h.step(100);
        CHECK(t1.in.size() == base + 3, "partial get: %zu words before the signal, want 3",
              t1.in.size() - base);
        h.mmio_write(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_SIGNAL);
        CHECK(wait_in(t1, base + 7, 200), "SIGNAL did not end the waiting burst get");
        r.assign(t1.in.begin() + static_cast<long>(base), t1.in.end());
        expect_status(r, WEFT_OSIF_CMD_MBOX_GET_BURST, WEFT_OSIF_OK, 6, "GET_BURST partial");
        CHECK(r.size() == 7 && r[1] == 0x31 && r[2] == 0x32 && r[3] == 0 && r[4] == 0 &&
                  r[5] == 0 && r[6] == weft_osif_burst_end(WEFT_OSIF_CANCELED, 2),
              "GET_BURST partial words");
        CHECK(level(WEFT_LINK_RING01) == 0, "partial get left words in the link");
        h.mmio_write(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_RESET);
        h.step(3);
        h.mmio_write(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);

        // A timed burst get: its timeout counts through the burst, and ends it after the
        // words it took (TIMEDOUT in burst_end) at 2 us.
        call(t0, {hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 1), 0x41}, 0);
        base = t1.in.size();
        start = h.cycle();
        t1.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_TIMEDGET_BURST, kRx, 2));
        t1.out.push_back(3);
        t1.out.push_back(2);
        CHECK(wait_in(t1, base + 5, 2000), "TIMEDGET_BURST never timed out");
        took = t1.in_cycles.back() - start;
        CHECK(took >= 2 * WEFT_PLATFORM_CLOCK_MHZ && took <= 2 * WEFT_PLATFORM_CLOCK_MHZ + 12,
              "TIMEDGET_BURST of 2 us took %llu cycles", (unsigned long long)took);
        r.assign(t1.in.begin() + static_cast<long>(base), t1.in.end());
        CHECK(r.size() == 5 && r[1] == 0x41 && r[4] == weft_osif_burst_end(WEFT_OSIF_TIMEDOUT, 1),
              "TIMEDGET_BURST partial words");
        h.mmio_write(WEFT_REG_LINK_FLUSH, 1u << WEFT_LINK_RING01);
        CHECK(level(WEFT_LINK_RING01) == 0, "LINK_FLUSH left %u words", level(WEFT_LINK_RING01));
        h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_RESET);
        h.step(3);
        h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL),
                     WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
    }

    // Back-to-back bursts at full speed: words move one per cycle within a burst.
    void streaming_rate()
    {
        constexpr uint32_t kBurst = 128;
        std::vector<uint32_t> put = {hdr(WEFT_OSIF_CMD_MBOX_PUT_BURST, kTx, kBurst)};
        for (uint32_t i = 0; i < kBurst; ++i)
            put.push_back(0xB0000000u + i);
        size_t base1 = t1.in.size();
        for (uint32_t w : put)
            t0.out.push_back(w);
        t1.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_GET_BURST, kRx, 1));
        t1.out.push_back(kBurst);
        CHECK(wait_in(t1, base1 + 2 + kBurst), "streaming burst incomplete");
        uint64_t first = t1.in_cycles[base1 + 1], last = t1.in_cycles[base1 + kBurst];
        CHECK(last - first == kBurst - 1, "%u burst words took %llu cycles at the consumer", kBurst,
              (unsigned long long)(last - first + 1));
        for (uint32_t i = 0; i < kBurst; ++i)
            CHECK(t1.in[base1 + 1 + i] == 0xB0000000u + i, "streamed word %u", i);
        std::printf("streaming: %u words through ring01 reached the consumer in %llu cycles\n",
                    kBurst, (unsigned long long)(last - first + 1));
        h.step(10);
    }

    // Random producer and consumer, random burst sizes and call kinds, random stalls.
    void random_traffic()
    {
        std::mt19937 &rng = h.rng();
        t0.p_out = 70;
        t1.p_in = 60;
        uint32_t next_put = 0, next_get = 0;
        const uint32_t total = 5000;
        size_t parsed = t1.in.size();
        unsigned calls_done = 0;
        t0_expected_ = t0.in.size();
        while (next_get < total) {
            // Producer: queue the next call when its previous one is answered.
            if (t0.sent() && t0.in.size() >= t0_expected_ && next_put < total) {
                uint32_t n = std::min<uint32_t>(1 + rng() % 40, total - next_put);
                if (n == 1 || rng() % 3 == 0) {
                    t0.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_PUT, kTx, 1));
                    t0.out.push_back(next_put++);
                    t0_expected_ += 1; // the header
                } else {
                    t0.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_PUT_BURST, kTx, n));
                    for (uint32_t i = 0; i < n; ++i)
                        t0.out.push_back(next_put++);
                    t0_expected_ += 2; // the header and burst_end
                }
            }
            // Consumer: one call at a time; parse its response once complete.
            if (!consumer_busy_ && t1.sent()) {
                // Never more than is still to come, so the last call can complete.
                uint32_t n = std::min<uint32_t>(1 + rng() % 40, total - next_get);
                if (n == 1 || rng() % 3 == 0) {
                    t1.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_GET, kRx, 0));
                    want_words_ = 1;
                    want_end_ = false;
                } else {
                    t1.out.push_back(hdr(WEFT_OSIF_CMD_MBOX_GET_BURST, kRx, 1));
                    t1.out.push_back(n);
                    want_words_ = n;
                    want_end_ = true;
                }
                consumer_busy_ = true;
            }
            h.step();
            if (consumer_busy_ && t1.in.size() >= parsed + 1 + want_words_ + want_end_) {
                CHECK(resp_status(t1.in[parsed]) == WEFT_OSIF_OK, "random get status %u",
                      resp_status(t1.in[parsed]));
                for (uint32_t i = 0; i < want_words_; ++i) {
                    uint32_t got = t1.in[parsed + 1 + i];
                    if (got != next_get) {
                        CHECK(false, "random traffic: word %u is 0x%08x", next_get, got);
                        return;
                    }
                    ++next_get;
                }
                if (want_end_)
                    CHECK(t1.in[parsed + 1 + want_words_] ==
                              weft_osif_burst_end(WEFT_OSIF_OK, want_words_),
                          "random traffic: burst_end 0x%08x", t1.in[parsed + 1 + want_words_]);
                parsed += 1 + want_words_ + want_end_;
                consumer_busy_ = false;
                ++calls_done;
            }
            if (h.cycle() > 2000000) {
                CHECK(false, "random traffic stalled at word %u", next_get);
                return;
            }
        }
        std::printf("random traffic: %u words in %u consumer calls, in order, none lost\n",
                    next_get, calls_done);
        t0.p_out = 100;
        t1.p_in = 100;
    }

  private:
    size_t t0_expected_ = 0;
    bool consumer_busy_ = false;
    uint32_t want_words_ = 0;
    bool want_end_ = false;
};

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::printf("tb_rtl_links: seed 0x%08x\n", kSeed);
    Bench b;
    b.single_calls();
    b.full_and_empty();
    b.not_served_here();
    b.signal_and_timeout();
    b.streaming_rate();
    b.random_traffic();
    std::printf("tb_rtl_links: %d errors: %s\n", weft_tb::failures,
                weft_tb::failures ? "FAIL" : "PASS");
    return weft_tb::failures ? 1 : 0;
}

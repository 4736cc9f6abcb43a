// Self-checking test bench of weft_osif_call (MaxArgs 2, MaxResults 1), through the
// test-bench top tb_weft_osif_call.sv (the call's structs field by field, the OSIF on the
// slot boundary's structs). The bench plays both the calling state machine and the
// static side: random calls (0..2 arguments, 0..1 accepted results), random back-pressure
// and answer delays, well-formed responses with every status, and malformed ones (wrong
// cmd echo, too many result words) that must be consumed whole and flagged. It checks the
// request words, the done pulse (one, with the right status, ok flag and results), that
// no stale word is left for the next call, boundary rule 2 (slot_o.osif.in_ready only
// while waiting), stream stability, and that THREAD_EXIT never completes.
#include "Vtb_weft_osif_call.h"
#include "tb_check.h"
#include "tb_hwlib_slot_model.h"
#include "verilated.h"

#include <cstdio>
#include <deque>
#include <memory>
#include <random>
#include <vector>

namespace
{

using tbm::req_hdr;
using tbm::resp_hdr;

struct Call {
    uint32_t cmd, handle, nargs, nres_limit;
    uint32_t args[2];
    // Response the static side sends.
    std::vector<uint32_t> resp;
    bool malformed;
};

class Bench
{
  public:
    Bench(uint32_t seed, int pct) : rng_(seed), pct_(pct)
    {
        ctx_ = std::make_unique<VerilatedContext>();
        m_ = std::make_unique<Vtb_weft_osif_call>(ctx_.get());
        m_->rst_ni = 0;
        for (int i = 0; i < 4; ++i)
            tick();
        m_->rst_ni = 1;
    }
    ~Bench() { m_->final(); }

    Call random_call()
    {
        Call c{};
        do
            c.cmd = 1 + rng_() % 0x7F;
        while (c.cmd == WEFT_OSIF_CMD_THREAD_EXIT);
        c.handle = rng_() % 256;
        c.nargs = rng_() % 3;
        c.args[0] = rng_();
        c.args[1] = rng_();
        c.nres_limit = rng_() % 2;
        const uint32_t kind = rng_() % 4;
        uint32_t echo = c.cmd, nwords = rng_() % (c.nres_limit + 1), status = rng_() % 9;
        c.malformed = false;
        if (kind == 0) {
            echo = c.cmd ^ (1u + rng_() % 0xFF); // wrong echo
            c.malformed = true;
        } else if (kind == 1) {
            nwords = c.nres_limit + 1 + rng_() % 3; // too many words
            c.malformed = true;
        }
        c.resp.push_back(resp_hdr(echo, status, nwords));
        for (uint32_t i = 0; i < nwords; ++i)
            c.resp.push_back(rng_());
        return c;
    }

    // Runs one call to completion; `gap` idle cycles with req_i low before it.
    void run_call(const Call &c, int gap)
    {
        m_->req_i = 0;
        for (int i = 0; i < gap; ++i)
            cycle(nullptr);
        m_->req_i = 1;
        m_->cmd_i = c.cmd;
        m_->handle_i = c.handle;
        m_->nargs_i = c.nargs;
        m_->args_i = static_cast<uint64_t>(c.args[1]) << 32 | c.args[0];
        m_->nresults_i = c.nres_limit;
        expect_req_.clear();
        expect_req_.push_back(req_hdr(c.cmd, c.handle, c.nargs));
        for (uint32_t i = 0; i < c.nargs; ++i)
            expect_req_.push_back(c.args[i]);
        resp_ = std::deque<uint32_t>(c.resp.begin(), c.resp.end());
        release_at_ = ~0ull;
        done_seen_ = 0;
        for (int i = 0; i < 5000 && !done_seen_; ++i)
            cycle(&c);
        CHECK(done_seen_ == 1, "call cmd 0x%02x: no done_o", c.cmd);
        CHECK(resp_.empty(), "call cmd 0x%02x: %zu response words not consumed", c.cmd,
              resp_.size());
    }

    // THREAD_EXIT: sent, never completes, stray words are dropped.
    void run_exit()
    {
        m_->req_i = 1;
        m_->cmd_i = WEFT_OSIF_CMD_THREAD_EXIT;
        m_->handle_i = 0;
        m_->nargs_i = 1;
        m_->args_i = 0x5A5A5A5Au;
        m_->nresults_i = 0;
        expect_req_ = {req_hdr(WEFT_OSIF_CMD_THREAD_EXIT, 0, 1), 0x5A5A5A5Au};
        resp_.clear();
        exit_mode_ = true;
        done_seen_ = 0;
        for (int i = 0; i < 1000; ++i)
            cycle(nullptr);
        CHECK(expect_req_.empty(), "THREAD_EXIT not sent");
        CHECK(done_seen_ == 0, "THREAD_EXIT completed");
        resp_ = {1, 2, 3};
        release_at_ = 0;
        for (int i = 0; i < 1000; ++i)
            cycle(nullptr);
        CHECK(resp_.empty() && done_seen_ == 0, "exited call took %zu of 3 stray words, done %d",
              3 - resp_.size(), done_seen_);
    }

    uint64_t cycles() const { return cycle_; }

  private:
    bool chance() { return static_cast<int>(rng_() % 100) < pct_; }

    void tick()
    {
        m_->clk_i = 0;
        m_->eval();
        m_->clk_i = 1;
        m_->eval();
    }

    void cycle(const Call *c)
    {
        // Registered static-side outputs.
        uint32_t *rsp = m_->slot_i.data();
        WEFT_SLOT_SET(rsp, RSP_OSIF_OUT_READY, out_ready_q_);
        WEFT_SLOT_SET(rsp, RSP_OSIF_IN_VALID, in_valid_q_);
        WEFT_SLOT_SET(rsp, RSP_OSIF_IN_DATA, in_valid_q_ ? resp_.front() : 0);
        m_->clk_i = 0;
        m_->eval();

        const uint32_t *req = m_->slot_o.data();
        const bool out_valid = WEFT_SLOT_GET(req, REQ_OSIF_OUT_VALID);
        const bool in_ready = WEFT_SLOT_GET(req, REQ_OSIF_IN_READY);
        const bool out_fire = out_ready_q_ && out_valid;
        const bool in_fire = in_valid_q_ && in_ready;
        const uint32_t out_word = WEFT_SLOT_GET(req, REQ_OSIF_OUT_DATA);
        // Rule 2: ready only after the whole request and before the whole response.
        const bool waiting = expect_req_.empty() && (exit_mode_ || !resp_.empty());
        CHECK(!in_ready || waiting, "slot_o.osif.in_ready high while not waiting");
        if (out_pending_) {
            CHECK(out_valid && out_word == out_data_, "request word changed before ready");
        }
        out_pending_ = out_valid && !out_fire;
        out_data_ = out_word;
        if (m_->done_o) {
            ++done_seen_;
            if (c)
                check_done(*c);
        }

        m_->clk_i = 1;
        m_->eval();
        ++cycle_;

        if (out_fire) {
            CHECK(!expect_req_.empty(), "extra request word 0x%08x", out_word);
            if (!expect_req_.empty()) {
                CHECK(out_word == expect_req_.front(), "request word 0x%08x, want 0x%08x", out_word,
                      expect_req_.front());
                expect_req_.pop_front();
                if (expect_req_.empty())
                    release_at_ = cycle_ + rng_() % 20;
            }
        }
        if (in_fire)
            resp_.pop_front();
        in_valid_q_ =
            (in_valid_q_ && !in_fire) || (!resp_.empty() && cycle_ >= release_at_ && chance());
        out_ready_q_ = chance();
    }

    void check_done(const Call &c)
    {
        CHECK(resp_.empty(), "done_o before the whole response was taken");
        const uint32_t hdr = c.resp[0];
        CHECK(m_->resp_hdr_o == hdr, "resp_hdr_o 0x%08x, want 0x%08x", m_->resp_hdr_o, hdr);
        CHECK(m_->resp_err_o == c.malformed, "resp_err_o %d, want %d", m_->resp_err_o, c.malformed);
        const uint32_t want_status = c.malformed ? WEFT_OSIF_INTERNAL : tbm::resp_status(hdr);
        CHECK(m_->status_o == want_status, "status_o %u, want %u", m_->status_o, want_status);
        CHECK(m_->ok_o == (want_status == WEFT_OSIF_OK), "ok_o %d with status %u", m_->ok_o,
              want_status);
        const uint32_t nw = tbm::resp_nwords(hdr);
        const uint32_t stored = nw < c.nres_limit ? nw : c.nres_limit;
        CHECK(m_->nresults_o == stored, "nresults_o %u, want %u", m_->nresults_o, stored);
        if (stored > 0) {
            CHECK(m_->results_o == c.resp[1], "results_o 0x%08x, want 0x%08x", m_->results_o,
                  c.resp[1]);
        }
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtb_weft_osif_call> m_;
    std::mt19937 rng_;
    int pct_;
    bool out_ready_q_ = false, in_valid_q_ = false;
    std::deque<uint32_t> expect_req_, resp_;
    uint64_t release_at_ = ~0ull, cycle_ = 0;
    int done_seen_ = 0;
    bool exit_mode_ = false;
    bool out_pending_ = false;
    uint32_t out_data_ = 0;
};

} // namespace

int main()
{
    for (int pct : {100, 70, 30}) {
        Bench b(static_cast<uint32_t>(pct), pct);
        std::mt19937 rng(pct);
        for (int i = 0; i < 3000; ++i) {
            Call c = b.random_call();
            b.run_call(c, rng() % 3 == 0 ? 0 : rng() % 4); // often back to back
        }
        b.run_exit();
        std::printf("pct %3d: 3000 calls in %llu cycles\n", pct,
                    static_cast<unsigned long long>(b.cycles()));
    }
    if (weft_tb::failures) {
        std::fprintf(stderr, "tb_hwlib_osif_call: %d failure(s)\n", weft_tb::failures);
        return 1;
    }
    std::printf("tb_hwlib_osif_call: PASS\n");
    return 0;
}

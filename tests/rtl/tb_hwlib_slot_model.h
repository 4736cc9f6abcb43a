// C++ model of the static side of one slot, for test benches that drive a hardware
// thread's top module (slot-boundary port list) directly, before the real static region
// and co-simulation exist. It drives the thread's slot_i and reads its slot_o (packed
// structs of weft_osif_pkg, more than 64 bits: Verilator's VlWide words) through the
// generated WEFT_SLOT_GET/WEFT_SLOT_SET field accessors, so no bit position is typed here.
//
// What it models:
//   - OSIF: parses the thread's requests (header + nargs words) and answers them the way
//     a delegate would, against a small resource array (semaphores, mutexes, condition
//     variables, mailboxes) and the init data, with the delegate's checks in its order
//     (runtime/osif_decode.c); a rejected request is answered with its error status, also
//     a command that has no response when accepted. Blocking calls stay pending until the
//     test bench makes them possible; their timed variants time out at once instead of
//     blocking (mailbox bursts: only before their first word). Responses appear after a
//     random latency. A request that claims more than `max_nargs` argument words breaks
//     framing: the slot is faulted and its OSIF takes nothing more. With `sw2hw_depth`
//     set, a response that appears while the SW2HW FIFO cannot take its first
//     `sw2hw_depth` words faults the slot (FAULT.OVERFLOW), as the delegate's writes would.
//   - MEMIF: takes two-word commands, checks them whole as the static region does (op,
//     reserved bits, length, alignment, memory window) and serves them in order from a
//     word array; a bad command faults the slot's MEMIF, which then takes nothing more.
//   - Timing: every signal towards the thread is a registered function of model state
//     (boundary rule 1). Every ready and valid the model drives is offered with
//     probability `pct`, except that an offered valid is held until taken.
//   - Boundary rule 2: counts cycles in which the thread raises slot_o.osif.in_ready
//     while it has no call waiting for a response.
#pragma once

#include <weft/osif_protocol.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace tbm
{

inline uint32_t req_hdr(uint32_t cmd, uint32_t handle, uint32_t nargs)
{
    return (cmd & WEFT_OSIF_REQ_CMD_MASK) << WEFT_OSIF_REQ_CMD_SHIFT |
           (handle & WEFT_OSIF_REQ_HANDLE_MASK) << WEFT_OSIF_REQ_HANDLE_SHIFT |
           (nargs & WEFT_OSIF_REQ_NARGS_MASK) << WEFT_OSIF_REQ_NARGS_SHIFT;
}
inline uint32_t resp_hdr(uint32_t cmd, uint32_t status, uint32_t nwords)
{
    return (cmd & WEFT_OSIF_RESP_CMD_MASK) << WEFT_OSIF_RESP_CMD_SHIFT |
           (status & WEFT_OSIF_RESP_STATUS_MASK) << WEFT_OSIF_RESP_STATUS_SHIFT |
           (nwords & WEFT_OSIF_RESP_NWORDS_MASK) << WEFT_OSIF_RESP_NWORDS_SHIFT;
}
inline uint32_t resp_cmd(uint32_t w)
{
    return w >> WEFT_OSIF_RESP_CMD_SHIFT & WEFT_OSIF_RESP_CMD_MASK;
}
inline uint32_t resp_status(uint32_t w)
{
    return w >> WEFT_OSIF_RESP_STATUS_SHIFT & WEFT_OSIF_RESP_STATUS_MASK;
}
inline uint32_t resp_nwords(uint32_t w)
{
    return w >> WEFT_OSIF_RESP_NWORDS_SHIFT & WEFT_OSIF_RESP_NWORDS_MASK;
}
inline uint32_t memif_cmd0(uint32_t op, uint32_t len)
{
    return (op & WEFT_MEMIF_OP_MASK) << WEFT_MEMIF_OP_SHIFT | (len & WEFT_MEMIF_LENGTH_MASK)
                                                                  << WEFT_MEMIF_LENGTH_SHIFT;
}

struct Resource {
    weft_res_type_t type = WEFT_RES_NONE;
    uint32_t sem = 0;          // SEM: count
    bool locked = false;       // MUTEX: held (by the thread under test or the bench)
    uint32_t signals = 0;      // COND: pending signals for a waiter
    std::deque<uint32_t> mbox; // MBOX: words
    size_t cap = 16;           // MBOX: capacity
};

template <class M> class SlotModel
{
  public:
    SlotModel(M &m, uint32_t seed) : m_(m), rng_(seed) {}

    // ---- configuration ---------------------------------------------------------------
    int pct = 60;            // probability (percent) of offering each ready/valid
    int max_latency = 30;    // most cycles before a delegate answer becomes visible
    unsigned max_nargs = 16; // framing limit on argument words
    uint32_t init_data = 0;
    std::vector<Resource> res;
    uint32_t mem_base = 0x10000000u;
    std::vector<uint32_t> mem; // memory window: [mem_base, mem_base + 4 * mem.size())
    unsigned sw2hw_depth = 0;  // SW2HW FIFO depth for the overflow check; 0: unbounded

    // ---- observations ----------------------------------------------------------------
    uint64_t cycle = 0;
    bool exited = false;
    uint32_t exit_value = 0;
    bool yielded = false; // THREAD_YIELD accepted (exit_value holds its state word)
    bool osif_fault = false;
    bool overflow_fault = false; // a response was written while SW2HW was full
    bool mem_fault = false;
    uint32_t fault_addr = 0, fault_info = 0;
    uint64_t rule2_violations = 0;
    uint64_t stability_violations = 0; // a thread valid withdrawn or its data changed
    uint64_t blocked_cycles = 0;       // cycles with slot_o.osif.in_ready high
    uint64_t memif_cmds = 0;           // accepted MEMIF commands
    uint64_t memif_wr_words = 0;       // write-data words taken
    uint64_t memif_rd_words = 0;       // read-data words the thread took
    std::vector<uint32_t> osif_log;    // every request word the thread sent
    struct MemAccess {
        bool write;
        uint32_t addr, len; // bus address, bytes
    };
    std::vector<MemAccess> memif_log; // every accepted MEMIF command

    uint32_t &word(uint32_t addr) { return mem.at((addr - mem_base) / 4); }
    bool in_window(uint64_t addr, uint64_t len) const
    {
        return addr >= mem_base && addr + len <= mem_base + 4ull * mem.size();
    }

    /// Holds the thread in reset for `n` cycles.
    void reset(int n = 4)
    {
        for (int i = 0; i < n; ++i)
            step(false);
    }

    /// One fabric cycle.
    void step(bool run = true)
    {
        // Registered outputs of the static side, written into the thread's slot_i.
        m_.rst_ni = run;
        uint32_t *rsp = m_.slot_i.data();
        WEFT_SLOT_SET(rsp, RSP_OSIF_IN_VALID, in_valid_q_);
        WEFT_SLOT_SET(rsp, RSP_OSIF_IN_DATA, in_valid_q_ ? sw2hw_.front().word : 0);
        WEFT_SLOT_SET(rsp, RSP_OSIF_OUT_READY, out_ready_q_);
        WEFT_SLOT_SET(rsp, RSP_MEM_CMD_READY, cmd_ready_q_);
        WEFT_SLOT_SET(rsp, RSP_MEM_WR_READY, wr_ready_q_);
        WEFT_SLOT_SET(rsp, RSP_MEM_RD_VALID, rd_valid_q_);
        WEFT_SLOT_SET(rsp, RSP_MEM_RD_DATA, rd_valid_q_ ? rd_q_.front() : 0);
        m_.clk_i = 0;
        m_.eval();

        // Handshakes on pre-edge values of the thread's slot_o.
        const uint32_t *req = m_.slot_o.data();
        const bool in_ready = WEFT_SLOT_GET(req, REQ_OSIF_IN_READY);
        const bool out_valid = WEFT_SLOT_GET(req, REQ_OSIF_OUT_VALID);
        const bool cmd_valid = WEFT_SLOT_GET(req, REQ_MEM_CMD_VALID);
        const bool wr_valid = WEFT_SLOT_GET(req, REQ_MEM_WR_VALID);
        const bool in_fire = run && in_valid_q_ && in_ready;
        const bool out_fire = run && out_ready_q_ && out_valid;
        const bool cmd_fire = run && cmd_ready_q_ && cmd_valid;
        const bool wr_fire = run && wr_ready_q_ && wr_valid;
        const bool rd_fire = run && rd_valid_q_ && WEFT_SLOT_GET(req, REQ_MEM_RD_READY);
        const uint32_t out_word = WEFT_SLOT_GET(req, REQ_OSIF_OUT_DATA);
        const uint32_t cmd_word = WEFT_SLOT_GET(req, REQ_MEM_CMD_DATA);
        const uint32_t wr_word = WEFT_SLOT_GET(req, REQ_MEM_WR_DATA);
        if (run) {
            if (in_ready) {
                ++blocked_cycles;
                if (waiting_ == 0 && !exited && !yielded)
                    ++rule2_violations;
            }
            check_stable(osif_out_, out_valid, out_word, out_fire);
            check_stable(mem_cmd_, cmd_valid, cmd_word, cmd_fire);
            check_stable(mem_wr_, wr_valid, wr_word, wr_fire);
        }

        m_.clk_i = 1;
        m_.eval();
        ++cycle;

        if (!run) {
            in_valid_q_ = out_ready_q_ = cmd_ready_q_ = wr_ready_q_ = rd_valid_q_ = false;
            return;
        }
        if (in_fire) {
            if (sw2hw_.front().last && waiting_ > 0)
                --waiting_;
            sw2hw_.pop_front();
            if (visible_ > 0)
                --visible_;
        }
        if (out_fire)
            osif_word(out_word);
        if (cmd_fire)
            memif_cmd_word(cmd_word);
        if (wr_fire) {
            wr_buf_.push_back(wr_word);
            ++memif_wr_words;
        }
        if (rd_fire) {
            rd_q_.pop_front();
            ++memif_rd_words;
        }
        serve_memif();
        serve_osif();
        track_sw2hw();

        // Next cycle's registered outputs.
        in_valid_q_ = (in_valid_q_ && !in_fire) ||
                      (!sw2hw_.empty() && sw2hw_.front().visible_at <= cycle && chance());
        rd_valid_q_ = (rd_valid_q_ && !rd_fire) || (!rd_q_.empty() && chance());
        out_ready_q_ = !osif_fault && !overflow_fault && chance();
        cmd_ready_q_ = !mem_fault && chance();
        wr_ready_q_ = !mem_fault && chance();
        if (mem_fault)
            rd_valid_q_ = false;
    }

    /// Steps until `done()` holds or `max_cycles` pass; false on timeout.
    bool run_until(const std::function<bool()> &done, uint64_t max_cycles)
    {
        for (uint64_t i = 0; i < max_cycles; ++i) {
            if (done())
                return true;
            step();
        }
        return done();
    }

    /// True while a call of the thread is pending in the model delegate (blocked).
    bool call_pending() const { return !pending_.empty(); }

  private:
    struct Word {
        uint32_t word;
        uint64_t visible_at;
        bool last;
        size_t first_of = 0; // a response header: words of its response; else 0
    };
    struct Request {
        uint32_t hdr;
        std::vector<uint32_t> args;
        // COND_WAIT: 0 = not yet released, 1 = waiting for the signal; MBOX_(TIMED)PUT_BURST:
        // words put so far.
        int phase = 0;
        std::vector<uint32_t> got; // MBOX_(TIMED)GET_BURST: words taken so far
    };
    struct Stream {
        bool was_pending = false;
        uint32_t data = 0;
    };
    struct MemCmd {
        bool write;
        uint32_t addr;
        uint32_t words;
    };

    bool chance() { return static_cast<int>(rng_() % 100) < pct; }

    void check_stable(Stream &s, bool valid, uint32_t data, bool fire)
    {
        if (s.was_pending && (!valid || data != s.data))
            ++stability_violations;
        s.was_pending = valid && !fire;
        s.data = data;
    }

    void osif_word(uint32_t w)
    {
        osif_log.push_back(w);
        if (!in_req_) {
            cur_ = Request{w, {}, 0, {}};
            const uint32_t nargs = w >> WEFT_OSIF_REQ_NARGS_SHIFT & WEFT_OSIF_REQ_NARGS_MASK;
            if (nargs > max_nargs) {
                osif_fault = true; // framing broken: the slot is faulted
                return;
            }
            in_req_ = nargs > 0;
        } else {
            cur_.args.push_back(w);
            const uint32_t nargs = cur_.hdr >> WEFT_OSIF_REQ_NARGS_SHIFT & WEFT_OSIF_REQ_NARGS_MASK;
            in_req_ = cur_.args.size() < nargs;
        }
        if (!in_req_) {
            const uint32_t cmd = cur_.hdr >> WEFT_OSIF_REQ_CMD_SHIFT & WEFT_OSIF_REQ_CMD_MASK;
            const weft_osif_cmd_info_t *info = weft_osif_cmd_lookup(cmd);
            if (!info || info->has_response || reject_status(cur_) != WEFT_OSIF_OK)
                ++waiting_;
            pending_.push_back(cur_);
        }
    }

    // The status a delegate rejects a whole request with (runtime/osif_decode.c), or OK.
    uint32_t reject_status(const Request &r) const
    {
        const uint32_t cmd = r.hdr >> WEFT_OSIF_REQ_CMD_SHIFT & WEFT_OSIF_REQ_CMD_MASK;
        const uint32_t h = r.hdr >> WEFT_OSIF_REQ_HANDLE_SHIFT & WEFT_OSIF_REQ_HANDLE_MASK;
        const weft_osif_cmd_info_t *info = weft_osif_cmd_lookup(cmd);
        if (!info)
            return WEFT_OSIF_NOSYS;
        if (info->handle_type == WEFT_RES_NONE ? h != 0 : h >= res.size())
            return WEFT_OSIF_BADHANDLE;
        if (info->handle_type != WEFT_RES_NONE && res[h].type != info->handle_type)
            return WEFT_OSIF_WRONG_TYPE;
        const size_t n = r.args.size();
        if (info->variadic_args ? n < info->nargs : n != info->nargs)
            return WEFT_OSIF_BADARGS;
        if (info->handle_type == WEFT_RES_MBOX && info->variadic_args && n == info->nargs)
            return WEFT_OSIF_BADARGS; // a burst put without words
        if (info->handle_type == WEFT_RES_MBOX && info->variadic_results &&
            (r.args[0] == 0 || r.args[0] > WEFT_OSIF_MAX_ARGS))
            return WEFT_OSIF_BADARGS; // a burst get of 0 or too many words
        return WEFT_OSIF_OK;
    }

    void respond(uint32_t cmd, uint32_t status, const std::vector<uint32_t> &results = {})
    {
        uint64_t at = cycle + rng_() % (max_latency + 1);
        if (!sw2hw_.empty() && sw2hw_.back().visible_at > at)
            at = sw2hw_.back().visible_at;
        sw2hw_.push_back(
            {resp_hdr(cmd, status, results.size()), at, results.empty(), 1 + results.size()});
        for (size_t i = 0; i < results.size(); ++i)
            sw2hw_.push_back({results[i], at, i + 1 == results.size()});
    }

    // A mutex lock that does not wait: answered `fail` when the mutex is held.
    bool mutex_lock_or(uint32_t cmd, uint32_t h, uint32_t fail)
    {
        if (res[h].locked) {
            respond(cmd, fail);
            return true;
        }
        res[h].locked = true;
        respond(cmd, WEFT_OSIF_OK);
        return true;
    }
    // A mailbox get or put that does not wait: answered `fail` when it cannot be done now.
    bool mbox_get_or(uint32_t cmd, uint32_t h, uint32_t fail)
    {
        if (res[h].mbox.empty()) {
            respond(cmd, fail);
            return true;
        }
        respond(cmd, WEFT_OSIF_OK, {res[h].mbox.front()});
        res[h].mbox.pop_front();
        return true;
    }
    bool mbox_put_or(uint32_t cmd, uint32_t h, uint32_t word, uint32_t fail)
    {
        if (res[h].mbox.size() >= res[h].cap) {
            respond(cmd, fail);
            return true;
        }
        res[h].mbox.push_back(word);
        respond(cmd, WEFT_OSIF_OK);
        return true;
    }

    // Words become visible (written to SW2HW) in order. A delegate writes the first
    // sw2hw_depth words of a response without looking (longer ones are flow-controlled):
    // if they do not fit beside the visible words the thread has not taken, the slot
    // faults with OVERFLOW.
    void track_sw2hw()
    {
        while (visible_ < sw2hw_.size() && sw2hw_[visible_].visible_at <= cycle) {
            const Word &w = sw2hw_[visible_];
            if (w.first_of && sw2hw_depth &&
                visible_ + std::min<size_t>(w.first_of, sw2hw_depth) > sw2hw_depth)
                overflow_fault = true;
            ++visible_;
        }
    }

    // Executes the oldest pending request if it can complete now.
    void serve_osif()
    {
        while (!pending_.empty()) {
            Request &r = pending_.front();
            const uint32_t cmd = r.hdr >> WEFT_OSIF_REQ_CMD_SHIFT & WEFT_OSIF_REQ_CMD_MASK;
            const uint32_t h = r.hdr >> WEFT_OSIF_REQ_HANDLE_SHIFT & WEFT_OSIF_REQ_HANDLE_MASK;
            const uint32_t status = reject_status(r);
            if (status != WEFT_OSIF_OK)
                respond(cmd, status);
            else if (!execute(r, cmd, h))
                return; // blocked: stays pending
            pending_.pop_front();
        }
    }

    // Returns false when the call blocks.
    bool execute(Request &r, uint32_t cmd, uint32_t h)
    {
        switch (cmd) {
        case WEFT_OSIF_CMD_SEM_POST:
            res[h].sem++;
            respond(cmd, WEFT_OSIF_OK);
            return true;
        case WEFT_OSIF_CMD_SEM_WAIT:
            if (res[h].sem == 0)
                return false;
            res[h].sem--;
            respond(cmd, WEFT_OSIF_OK);
            return true;
        case WEFT_OSIF_CMD_MUTEX_LOCK:
            if (res[h].locked)
                return false;
            res[h].locked = true;
            respond(cmd, WEFT_OSIF_OK);
            return true;
        case WEFT_OSIF_CMD_MUTEX_UNLOCK:
            if (!res[h].locked) {
                respond(cmd, WEFT_OSIF_PERM);
                return true;
            }
            res[h].locked = false;
            respond(cmd, WEFT_OSIF_OK);
            return true;
        case WEFT_OSIF_CMD_MUTEX_TRYLOCK:
            return mutex_lock_or(cmd, h, WEFT_OSIF_BUSY);
        case WEFT_OSIF_CMD_COND_WAIT: {
            const uint32_t mh = r.args[0];
            if (mh >= res.size() || res[mh].type != WEFT_RES_MUTEX) {
                respond(cmd, WEFT_OSIF_BADARGS);
                return true;
            }
            if (r.phase == 0) {
                if (!res[mh].locked) {
                    respond(cmd, WEFT_OSIF_PERM);
                    return true;
                }
                res[mh].locked = false;
                r.phase = 1;
            }
            if (res[h].signals == 0 || res[mh].locked)
                return false;
            res[h].signals--;
            res[mh].locked = true;
            respond(cmd, WEFT_OSIF_OK);
            return true;
        }
        case WEFT_OSIF_CMD_COND_SIGNAL:
        case WEFT_OSIF_CMD_COND_BROADCAST:
            respond(cmd, WEFT_OSIF_OK);
            return true;
        case WEFT_OSIF_CMD_MBOX_GET:
            if (res[h].mbox.empty())
                return false;
            respond(cmd, WEFT_OSIF_OK, {res[h].mbox.front()});
            res[h].mbox.pop_front();
            return true;
        case WEFT_OSIF_CMD_MBOX_PUT:
            if (res[h].mbox.size() >= res[h].cap)
                return false;
            res[h].mbox.push_back(r.args[0]);
            respond(cmd, WEFT_OSIF_OK);
            return true;
        case WEFT_OSIF_CMD_MBOX_TRYGET:
            return mbox_get_or(cmd, h, WEFT_OSIF_AGAIN);
        case WEFT_OSIF_CMD_MBOX_TRYPUT:
            return mbox_put_or(cmd, h, r.args[0], WEFT_OSIF_AGAIN);
        case WEFT_OSIF_CMD_GET_INIT_DATA:
            respond(cmd, WEFT_OSIF_OK, {init_data});
            return true;
        case WEFT_OSIF_CMD_THREAD_EXIT:
            exited = true;
            exit_value = r.args[0];
            return true;
        case WEFT_OSIF_CMD_THREAD_YIELD:
            yielded = true;
            exit_value = r.args[0];
            return true;
        case WEFT_OSIF_CMD_THREAD_CHECK:
            respond(cmd, WEFT_OSIF_OK, {0}); // no signals in this model
            return true;
        case WEFT_OSIF_CMD_GET_RESUME_STATE:
            respond(cmd, WEFT_OSIF_OK, {0, 0});
            return true;
        case WEFT_OSIF_CMD_SEM_TIMEDWAIT:
            if (res[h].sem == 0) {
                respond(cmd, WEFT_OSIF_TIMEDOUT);
                return true;
            }
            res[h].sem--;
            respond(cmd, WEFT_OSIF_OK);
            return true;
        case WEFT_OSIF_CMD_MUTEX_TIMEDLOCK:
            return mutex_lock_or(cmd, h, WEFT_OSIF_TIMEDOUT);
        case WEFT_OSIF_CMD_COND_TIMEDWAIT: {
            const uint32_t mh = r.args[0];
            if (mh >= res.size() || res[mh].type != WEFT_RES_MUTEX) {
                respond(cmd, WEFT_OSIF_BADARGS);
                return true;
            }
            if (!res[mh].locked) {
                respond(cmd, WEFT_OSIF_PERM);
                return true;
            }
            if (res[h].signals == 0) {
                respond(cmd, WEFT_OSIF_TIMEDOUT); // the mutex stays held
                return true;
            }
            res[h].signals--;
            respond(cmd, WEFT_OSIF_OK);
            return true;
        }
        case WEFT_OSIF_CMD_MBOX_TIMEDGET:
            return mbox_get_or(cmd, h, WEFT_OSIF_TIMEDOUT);
        case WEFT_OSIF_CMD_MBOX_TIMEDPUT:
            return mbox_put_or(cmd, h, r.args[0], WEFT_OSIF_TIMEDOUT);
        case WEFT_OSIF_CMD_MBOX_PUT_BURST:
        case WEFT_OSIF_CMD_MBOX_TIMEDPUT_BURST: {
            // Words after the fixed arguments, put as room allows; a timed call ends as
            // soon as it waits (its timeout counts no time here): before its first word
            // with TIMEDOUT, after it with burst_end saying TIMEDOUT.
            const size_t first = cmd == WEFT_OSIF_CMD_MBOX_PUT_BURST ? 0 : 1;
            size_t put = static_cast<size_t>(r.phase);
            while (first + put < r.args.size() && res[h].mbox.size() < res[h].cap)
                res[h].mbox.push_back(r.args[first + put++]);
            r.phase = static_cast<int>(put);
            const uint32_t moved = static_cast<uint32_t>(put);
            if (first + put == r.args.size()) {
                respond(cmd, WEFT_OSIF_OK, {weft_osif_burst_end(WEFT_OSIF_OK, moved)});
                return true;
            }
            if (first == 1) {
                if (put == 0)
                    respond(cmd, WEFT_OSIF_TIMEDOUT);
                else
                    respond(cmd, WEFT_OSIF_OK, {weft_osif_burst_end(WEFT_OSIF_TIMEDOUT, moved)});
                return true;
            }
            return false;
        }
        case WEFT_OSIF_CMD_MBOX_GET_BURST:
        case WEFT_OSIF_CMD_MBOX_TIMEDGET_BURST: {
            // Words taken as they come, then burst_end; a timed call ends as soon as it
            // waits, after its first word with the rest of its count 0 and burst_end
            // saying TIMEDOUT.
            while (r.got.size() < r.args[0] && !res[h].mbox.empty()) {
                r.got.push_back(res[h].mbox.front());
                res[h].mbox.pop_front();
            }
            const bool timed = cmd == WEFT_OSIF_CMD_MBOX_TIMEDGET_BURST;
            if (r.got.size() < r.args[0] && !(timed && !r.got.empty())) {
                if (!timed)
                    return false;
                respond(cmd, WEFT_OSIF_TIMEDOUT);
                return true;
            }
            const uint32_t moved = static_cast<uint32_t>(r.got.size());
            std::vector<uint32_t> words = r.got;
            words.resize(r.args[0], 0);
            words.push_back(
                weft_osif_burst_end(moved == r.args[0] ? WEFT_OSIF_OK : WEFT_OSIF_TIMEDOUT, moved));
            respond(cmd, WEFT_OSIF_OK, words);
            return true;
        }
        default:
            respond(cmd, WEFT_OSIF_NOSYS);
            return true;
        }
    }

    void memif_cmd_word(uint32_t w)
    {
        if (!have_cmd0_) {
            cmd0_ = w;
            have_cmd0_ = true;
            return;
        }
        have_cmd0_ = false;
        const uint32_t op = cmd0_ >> WEFT_MEMIF_OP_SHIFT & WEFT_MEMIF_OP_MASK;
        const uint32_t rsvd = cmd0_ >> WEFT_MEMIF_RSVD_SHIFT & WEFT_MEMIF_RSVD_MASK;
        const uint32_t len = cmd0_ >> WEFT_MEMIF_LENGTH_SHIFT & WEFT_MEMIF_LENGTH_MASK;
        const bool ok = (op == WEFT_MEMIF_OP_READ || op == WEFT_MEMIF_OP_WRITE) && rsvd == 0 &&
                        len != 0 && len % 4 == 0 && w % 4 == 0 && in_window(w, len);
        if (!ok) {
            mem_fault = true;
            fault_addr = w;
            fault_info = cmd0_;
            return;
        }
        ++memif_cmds;
        memif_log.push_back({op == WEFT_MEMIF_OP_WRITE, w, len});
        cmds_.push_back({op == WEFT_MEMIF_OP_WRITE, w, len / 4});
    }

    // Serves MEMIF commands in order.
    void serve_memif()
    {
        while (!mem_fault && !cmds_.empty()) {
            MemCmd &c = cmds_.front();
            if (c.write) {
                while (c.words > 0 && !wr_buf_.empty()) {
                    word(c.addr) = wr_buf_.front();
                    wr_buf_.pop_front();
                    c.addr += 4;
                    c.words--;
                }
                if (c.words > 0)
                    return;
            } else {
                for (uint32_t i = 0; i < c.words; ++i)
                    rd_q_.push_back(word(c.addr + 4 * i));
            }
            cmds_.pop_front();
        }
    }

    M &m_;
    std::mt19937 rng_;
    bool in_valid_q_ = false, out_ready_q_ = false, cmd_ready_q_ = false;
    bool wr_ready_q_ = false, rd_valid_q_ = false;
    std::deque<Word> sw2hw_;
    size_t visible_ = 0; // words at the front of sw2hw_ that software has written
    std::deque<Request> pending_;
    Request cur_;
    bool in_req_ = false;
    int waiting_ = 0;
    Stream osif_out_, mem_cmd_, mem_wr_;
    bool have_cmd0_ = false;
    uint32_t cmd0_ = 0;
    std::deque<MemCmd> cmds_;
    std::deque<uint32_t> wr_buf_, rd_q_;
};

} // namespace tbm

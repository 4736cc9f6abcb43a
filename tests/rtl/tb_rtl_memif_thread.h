// The thread side of one slot's MEMIF, for the test benches of weft_static's memory
// path: it offers command and write-data words and takes read-data words, each channel
// with random stalls, and checks every read word against what it was told to expect.
#ifndef WEFT_TB_RTL_MEMIF_THREAD_H
#define WEFT_TB_RTL_MEMIF_THREAD_H

#include "tb_check.h"
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "tb_rtl_static_harness.h"
#include "weft/osif_protocol.h"

namespace weft_tb
{

struct ThreadTiming {
    unsigned p_cmd = 100, p_wr = 100, p_rd = 100;
};

class Thread : public Agent
{
  public:
    Thread(StaticHarness &h, unsigned slot) : h_(h), s_(slot) {}
    ThreadTiming timing;
    std::deque<uint32_t> cmd, wr, rd_expect;
    uint64_t rd_words = 0, wr_words = 0, cmd_words = 0;
    uint64_t last_rd_cycle = 0, first_cmd_cycle = 0;
    bool drop_pending = false; // forget a presented word (slot reset while it waits)

    bool idle() const { return cmd.empty() && wr.empty() && rd_expect.empty(); }

    void drive(Vweft_static &d) override
    {
        if (drop_pending) {
            cmd_pending_ = wr_pending_ = false;
            drop_pending = false;
        }
        if (!cmd_pending_ && !cmd.empty() && h_.chance(timing.p_cmd))
            cmd_pending_ = true;
        if (!wr_pending_ && !wr.empty() && h_.chance(timing.p_wr))
            wr_pending_ = true;
        SET_REQ(d, s_, MEM_CMD_VALID, cmd_pending_);
        SET_REQ(d, s_, MEM_CMD_DATA, cmd_pending_ ? cmd.front() : 0);
        SET_REQ(d, s_, MEM_WR_VALID, wr_pending_);
        SET_REQ(d, s_, MEM_WR_DATA, wr_pending_ ? wr.front() : 0);
        SET_REQ(d, s_, MEM_RD_READY, !rd_expect.empty() && h_.chance(timing.p_rd));
        // An idle thread waits in an OSIF call: "blocked" for the quiet_o logic.
        SET_REQ(d, s_, OSIF_IN_READY, idle());
    }

    void sample(Vweft_static &d) override
    {
        if (cmd_pending_ && RSP(d, s_, MEM_CMD_READY)) {
            if (cmd_words++ == 0)
                first_cmd_cycle = h_.cycle();
            cmd.pop_front();
            cmd_pending_ = false;
        }
        if (wr_pending_ && RSP(d, s_, MEM_WR_READY)) {
            wr.pop_front();
            wr_pending_ = false;
            ++wr_words;
        }
        if (RSP(d, s_, MEM_RD_VALID) && REQ(d, s_, MEM_RD_READY)) {
            uint32_t got = RSP(d, s_, MEM_RD_DATA);
            CHECK(!rd_expect.empty(), "slot %u: unexpected read word 0x%08x", s_, got);
            if (!rd_expect.empty()) {
                CHECK(got == rd_expect.front(), "slot %u: read word 0x%08x, want 0x%08x", s_, got,
                      rd_expect.front());
                rd_expect.pop_front();
            }
            ++rd_words;
            last_rd_cycle = h_.cycle();
        }
    }

  private:
    StaticHarness &h_;
    unsigned s_;
    bool cmd_pending_ = false, wr_pending_ = false;
};

/** Word at bus address a of a memory image img whose first byte is at bus address base. */
inline uint32_t image_word(const std::vector<uint8_t> &img, uint32_t base, uint32_t a)
{
    const uint8_t *p = &img[a - base];
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

/** Queue one MEMIF command on t and keep img, the memory it must leave, up to date: a
 *  write's words are random, a read expects what img holds. */
inline void queue_memif_cmd(Thread &t, std::vector<uint8_t> &img, uint32_t base, std::mt19937 &rng,
                            bool write, uint32_t addr, uint32_t len)
{
    t.cmd.push_back(weft_memif_word0(write ? WEFT_MEMIF_OP_WRITE : WEFT_MEMIF_OP_READ, len));
    t.cmd.push_back(addr);
    for (uint32_t a = addr; a < addr + len; a += 4) {
        if (write) {
            uint32_t v = rng();
            t.wr.push_back(v);
            for (unsigned k = 0; k < 4; ++k)
                img[a - base + k] = uint8_t(v >> (8 * k));
        } else {
            t.rd_expect.push_back(image_word(img, base, a));
        }
    }
}

} // namespace weft_tb

#endif // WEFT_TB_RTL_MEMIF_THREAD_H

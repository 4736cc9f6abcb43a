// Self-checking test bench of weft_memif_burst (RamAddrWidth 11), through the test-bench
// top tb_weft_memif_burst.sv (the transfer's structs field by field, the MEMIF on the slot
// boundary's structs). The bench models the static side's MEMIF (two-word commands, read
// data, write data; registered outputs with random back-pressure) and the local RAM
// (one-cycle read latency). Random reads (memory to RAM) and writes (RAM to memory) of
// 1..2048 words at random RAM offsets (wrapping) are checked word for word against a
// reference, together with the MEMIF command words, the done pulse and stream stability.
// With no back-pressure it checks the throughput: one word per cycle in both directions.
#include "Vtb_weft_memif_burst.h"
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

constexpr uint32_t kRamWords = 2048;
constexpr uint32_t kMemBase = 0x20000000u;
constexpr uint32_t kMemWords = 16384;

class Bench
{
  public:
    Bench(uint32_t seed, int pct) : rng_(seed), pct_(pct), ram_(kRamWords), mem_(kMemWords)
    {
        for (auto &w : ram_)
            w = rng_();
        for (auto &w : mem_)
            w = rng_();
        ctx_ = std::make_unique<VerilatedContext>();
        m_ = std::make_unique<Vtb_weft_memif_burst>(ctx_.get());
        m_->rst_ni = 0;
        for (int i = 0; i < 4; ++i)
            cycle();
        m_->rst_ni = 1;
    }
    ~Bench() { m_->final(); }

    // One transfer; returns the cycles from req_i to done_o (inclusive).
    uint64_t transfer(bool write, uint32_t mem_word, uint32_t words, uint32_t ram_off)
    {
        std::vector<uint32_t> ram_ref = ram_, mem_ref = mem_;
        for (uint32_t i = 0; i < words; ++i) {
            uint32_t &r = ram_ref[(ram_off + i) % kRamWords];
            uint32_t &mw = mem_ref[mem_word + i];
            if (write)
                mw = r;
            else
                r = mw;
        }
        m_->req_i = 1;
        m_->dir_i = write;
        m_->addr_i = kMemBase + 4 * mem_word;
        m_->len_i = 4 * words;
        m_->ram_addr_i = ram_off;
        expect_cmd_ = {tbm::memif_cmd0(write ? WEFT_MEMIF_OP_WRITE : WEFT_MEMIF_OP_READ, 4 * words),
                       kMemBase + 4 * mem_word};
        done_ = 0;
        const uint64_t start = cycle_;
        for (uint64_t i = 0; i < 100ull * words + 1000 && !done_; ++i)
            cycle();
        const uint64_t took = cycle_ - start;
        m_->req_i = 0;
        CHECK(done_ == 1, "%s of %u words: no done_o", write ? "write" : "read", words);
        CHECK(expect_cmd_.empty() && wr_left_ == 0 && rd_q_.empty(),
              "%s of %u words: transfer incomplete at done_o", write ? "write" : "read", words);
        CHECK(ram_ == ram_ref, "%s of %u words at RAM %u: RAM differs", write ? "write" : "read",
              words, ram_off);
        CHECK(mem_ == mem_ref, "%s of %u words: memory differs", write ? "write" : "read", words);
        for (int i = 0; i < 3; ++i)
            cycle(); // idle: nothing may move
        CHECK(done_ == 1, "done_o pulsed again");
        return took;
    }

    std::mt19937 &rng() { return rng_; }

  private:
    bool chance() { return static_cast<int>(rng_() % 100) < pct_; }

    void cycle()
    {
        uint32_t *rsp = m_->slot_i.data();
        WEFT_SLOT_SET(rsp, RSP_MEM_CMD_READY, cmd_ready_q_);
        WEFT_SLOT_SET(rsp, RSP_MEM_WR_READY, wr_ready_q_);
        WEFT_SLOT_SET(rsp, RSP_MEM_RD_VALID, rd_valid_q_);
        WEFT_SLOT_SET(rsp, RSP_MEM_RD_DATA, rd_valid_q_ ? rd_q_.front() : 0);
        m_->ram_rdata_i = ram_rdata_q_;
        m_->clk_i = 0;
        m_->eval();

        const uint32_t *req = m_->slot_o.data();
        const bool cmd_valid = WEFT_SLOT_GET(req, REQ_MEM_CMD_VALID);
        const bool wr_valid = WEFT_SLOT_GET(req, REQ_MEM_WR_VALID);
        const bool cmd_fire = cmd_ready_q_ && cmd_valid;
        const bool wr_fire = wr_ready_q_ && wr_valid;
        const bool rd_fire = rd_valid_q_ && WEFT_SLOT_GET(req, REQ_MEM_RD_READY);
        const uint32_t cmd_word = WEFT_SLOT_GET(req, REQ_MEM_CMD_DATA);
        const uint32_t wr_word = WEFT_SLOT_GET(req, REQ_MEM_WR_DATA);
        const uint32_t ram_addr = m_->ram_addr_o;
        const bool ram_we = m_->ram_we_o;
        const uint32_t ram_wdata = m_->ram_wdata_o;
        if (m_->done_o)
            ++done_;
        stable(cmd_, cmd_valid, cmd_word, cmd_fire, "MEMIF command");
        stable(wr_, wr_valid, wr_word, wr_fire, "MEMIF write data");

        m_->clk_i = 1;
        m_->eval();
        ++cycle_;
        if (!m_->rst_ni)
            return;

        // RAM: read first, then write.
        ram_rdata_q_ = ram_.at(ram_addr % kRamWords);
        if (ram_we)
            ram_.at(ram_addr % kRamWords) = ram_wdata;

        if (cmd_fire) {
            CHECK(!expect_cmd_.empty() && cmd_word == expect_cmd_.front(),
                  "MEMIF command word 0x%08x unexpected", cmd_word);
            if (!expect_cmd_.empty())
                expect_cmd_.pop_front();
            if (expect_cmd_.empty()) {
                const uint32_t len = m_->len_i, words = len / 4;
                cur_addr_ = (m_->addr_i - kMemBase) / 4;
                if (m_->dir_i) {
                    wr_left_ = words;
                } else {
                    for (uint32_t i = 0; i < words; ++i)
                        rd_q_.push_back(mem_.at(cur_addr_ + i));
                }
            }
        }
        if (wr_fire) {
            CHECK(wr_left_ > 0, "write data beyond the command length");
            if (wr_left_ > 0) {
                mem_.at(cur_addr_++) = wr_word;
                --wr_left_;
            }
        }
        if (rd_fire)
            rd_q_.pop_front();
        rd_valid_q_ = (rd_valid_q_ && !rd_fire) || (!rd_q_.empty() && chance());
        cmd_ready_q_ = chance();
        wr_ready_q_ = chance();
    }

    struct Stream {
        bool pending = false;
        uint32_t data = 0;
    };
    void stable(Stream &s, bool valid, uint32_t data, bool fire, const char *name)
    {
        if (s.pending)
            CHECK(valid && data == s.data, "%s: valid withdrawn or data changed", name);
        s.pending = valid && !fire;
        s.data = data;
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtb_weft_memif_burst> m_;
    std::mt19937 rng_;
    int pct_;
    std::vector<uint32_t> ram_, mem_;
    uint32_t ram_rdata_q_ = 0;
    bool cmd_ready_q_ = false, wr_ready_q_ = false, rd_valid_q_ = false;
    std::deque<uint32_t> expect_cmd_, rd_q_;
    uint32_t wr_left_ = 0, cur_addr_ = 0;
    int done_ = 0;
    uint64_t cycle_ = 0;
    Stream cmd_, wr_;
};

} // namespace

int main()
{
    for (int pct : {100, 80, 50, 20}) {
        Bench b(static_cast<uint32_t>(pct) * 7 + 1, pct);
        for (int i = 0; i < 150; ++i) {
            const bool write = b.rng()() % 2;
            uint32_t words = 1 + b.rng()() % (i % 10 == 0 ? kRamWords : 64);
            if (i < 4)
                words = (i % 2) ? 1 : kRamWords;
            const uint32_t mem_word = b.rng()() % (kMemWords - words + 1);
            const uint32_t ram_off = b.rng()() % kRamWords;
            b.transfer(write, mem_word, words, ram_off);
        }
    }
    // Throughput with the static side always ready: one word per cycle plus a constant.
    {
        Bench b(99, 100);
        for (uint32_t words : {1u, 16u, 256u, 2048u}) {
            const uint64_t rd = b.transfer(false, 0, words, 0);
            const uint64_t wr = b.transfer(true, 4096, words, 0);
            std::printf(
                "%5u words: read %llu cycles, write %llu cycles (%.2f / %.2f bytes per cycle)\n",
                words, static_cast<unsigned long long>(rd), static_cast<unsigned long long>(wr),
                4.0 * words / rd, 4.0 * words / wr);
            CHECK(rd <= words + 4 && wr <= words + 4, "%u words: not one word per cycle", words);
        }
    }
    if (weft_tb::failures) {
        std::fprintf(stderr, "tb_hwlib_memif_burst: %d failure(s)\n", weft_tb::failures);
        return 1;
    }
    std::printf("tb_hwlib_memif_burst: PASS\n");
    return 0;
}

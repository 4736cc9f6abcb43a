// Self-checking test bench of the reconfiguration interface (weft_fri) inside weft_static.
//
// Files are made by the runtime's own writer (runtime/bitstream.c), so the FRI and
// software agree on the format byte for byte. Slot 0 is programmed again and again while
// slots 1 to 3 run random MEMIF traffic in their own windows, checked word by word: the
// neighbours run on undisturbed. Checked per programming:
// * a good file ends DONE after ceil(bytes / rate) cycles or a little more, the loader
//   is asked once, for that slot and file, after the slot's last burst left the bus;
// * while it runs the slot is decoupled: CONTROL reads DECOUPLED and RESET, a write of
//   RUN does not release it, its reset line is low, no interrupt, nothing it had in
//   flight lands in memory after the load;
// * every damaged file fails with its own error code (magic, version, header CRC,
//   reserved byte, payload size, truncated, longer, slot not in the mask, payload CRC,
//   bus error, bad arguments, a loader that refuses) and the slot is loaded blank
//   (empty) unless nothing was read;
// * one programming at a time: START while busy changes nothing;
// * the interrupt follows DONE/FAILED with IRQ_EN and ACK clears it;
// * the same file at the same rate on a quiet bus takes the same cycles every time.
#include "tb_check.h"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "tb_rtl_mem_slave.h"
#include "tb_rtl_memif_thread.h"
#include "tb_rtl_static_harness.h"
#include "weft/bitstream.h"
#include "weft/osif_protocol.h"

using namespace weft_tb;

namespace
{

constexpr uint32_t kSeed = 0x5eed0f1u;
constexpr uint32_t kMemBase = 0x40000000u;
constexpr uint32_t kWinSize = 0x10000u;                         // 64 KiB per slot
constexpr uint32_t kFileBase = kMemBase + kWinSize * kNumSlots; // files after the windows
constexpr uint32_t kFileArea = 0x20000u;
constexpr uint32_t kMemSize = kWinSize * kNumSlots + kFileArea;
constexpr uint32_t kRw = WEFT_WIN_READ | WEFT_WIN_WRITE;
constexpr uint32_t kRate12 = 307; // 1.2 bytes a cycle, 8.8 fixed point

// Whether a burst to slot 0's window is on the bus (AXI4 runs one transaction at a time
// here): from its AW or AR handshake to its B or last R handshake.
class Slot0Bus : public Agent
{
  public:
    bool open = false;
    void drive(Vweft_static &) override {}
    void sample(Vweft_static &d) override
    {
        if (d.m_axi_awvalid_o && d.m_axi_awready_i)
            open = in_slot0(d.m_axi_awaddr_o);
        if (d.m_axi_arvalid_o && d.m_axi_arready_i)
            open = in_slot0(d.m_axi_araddr_o);
        if ((d.m_axi_bvalid_i && d.m_axi_bready_o) ||
            (d.m_axi_rvalid_i && d.m_axi_rready_o && d.m_axi_rlast_i))
            open = false;
    }

  private:
    static bool in_slot0(uint32_t a) { return a >= kMemBase && a < kMemBase + kWinSize; }
};

// Answers the FRI's load requests after a few cycles, as the simulation host does.
class Loader : public Agent
{
  public:
    Loader(StaticHarness &h, const Slot0Bus &bus) : h_(h), bus_(bus) {}
    bool refuse = false;
    unsigned max_wait = 4; // cycles before the answer: 0 to 3, or always 0 when 1
    struct Load {
        unsigned slot;
        bool blank;
        bool slot0_burst_open; // a burst to slot 0's window was still on the bus
    };
    std::vector<Load> loads;
    std::vector<uint8_t> *mem = nullptr;
    std::vector<uint8_t> slot0_at_load; // slot 0's window when it was loaded

    void drive(Vweft_static &d) override
    {
        d.fri_load_done_i = d.fri_load_o && wait_ == 0;
        d.fri_load_ok_i = d.fri_load_o && wait_ == 0 && !refuse;
    }
    void sample(Vweft_static &d) override
    {
        if (!d.fri_load_o) {
            wait_ = -1;
            return;
        }
        if (wait_ < 0) {
            wait_ = static_cast<int>(h_.rng()() % max_wait);
            loads.push_back({d.fri_load_slot_o, bool(d.fri_load_blank_o), bus_.open});
            if (mem)
                slot0_at_load.assign(mem->begin(), mem->begin() + kWinSize);
        } else if (wait_ > 0) {
            --wait_;
        }
    }

  private:
    StaticHarness &h_;
    const Slot0Bus &bus_;
    int wait_ = -1;
};

class Bench
{
  public:
    Bench() : h(kSeed), mem(kMemSize), shadow(kMemSize), slave(h, mem, kMemBase), loader(h, bus)
    {
        for (unsigned s = 0; s < kNumSlots; ++s)
            threads.emplace_back(new Thread(h, s));
        for (auto &t : threads)
            h.add_agent(t.get());
        h.add_agent(&slave);
        h.add_agent(&bus);
        h.add_agent(&loader);
        loader.mem = &mem;
        for (uint32_t i = 0; i < kMemSize; ++i)
            mem[i] = shadow[i] = uint8_t(h.rng()());
    }

    StaticHarness h;
    std::vector<uint8_t> mem, shadow;
    MemSlave slave;
    Slot0Bus bus;
    Loader loader;
    std::vector<std::unique_ptr<Thread>> threads;

    static uint32_t win(unsigned s) { return kMemBase + s * kWinSize; }

    void queue_cmd(unsigned s, bool write, uint32_t addr, uint32_t len)
    {
        queue_memif_cmd(*threads[s], shadow, kMemBase, h.rng(), write, addr, len);
    }

    // Keep the neighbours busy: a few random commands queued whenever one runs dry.
    void feed_neighbours()
    {
        for (unsigned s = 1; s < kNumSlots; ++s) {
            Thread &t = *threads[s];
            if (t.cmd.size() < 4) {
                uint32_t len = 4 * (1 + h.rng()() % 128);
                uint32_t addr = 4 * (h.rng()() % ((kWinSize - len) / 4));
                queue_cmd(s, h.rng()() % 2, win(s) + addr, len);
            }
        }
    }

    uint64_t neighbour_words() const
    {
        uint64_t n = 0;
        for (unsigned s = 1; s < kNumSlots; ++s)
            n += threads[s]->rd_words + threads[s]->wr_words;
        return n;
    }

    // A file of the given payload size for the slots in mask, at kFileBase + offset.
    std::vector<uint8_t> make_file(uint32_t payload, uint32_t mask)
    {
        std::vector<uint8_t> f(WEFT_BITSTREAM_HEADER_BYTES + payload);
        for (uint32_t i = 0; i < payload; ++i)
            f[WEFT_BITSTREAM_HEADER_BYTES + i] = uint8_t(h.rng()());
        weft_bitstream_info_t info{};
        info.version = WEFT_BITSTREAM_VERSION;
        info.payload_size = payload;
        info.payload_crc = weft_bitstream_crc32(0, f.data() + WEFT_BITSTREAM_HEADER_BYTES, payload);
        info.slot_mask = mask;
        std::snprintf(info.partition, sizeof info.partition, "%s", "small");
        std::snprintf(info.image, sizeof info.image, "%s", "hwt_test.so");
        int rc = weft_bitstream_write_header(&info, f.data());
        CHECK(rc == 0, "write_header: %d", rc);
        return f;
    }

    void place(const std::vector<uint8_t> &f, uint32_t at)
    {
        std::memcpy(&mem[kFileBase - kMemBase + at], f.data(), f.size());
    }

    static void reseal_header(std::vector<uint8_t> &f)
    {
        uint32_t crc = weft_bitstream_crc32(0, f.data(), 128);
        for (unsigned k = 0; k < 4; ++k)
            f[128 + k] = uint8_t(crc >> (8 * k));
    }

    uint32_t status() { return h.mmio_read(WEFT_REG_FRI_STATUS); }
    static uint32_t state_of(uint32_t st) { return st & WEFT_FRI_STATE_MASK; }
    static uint32_t err_of(uint32_t st) { return (st >> WEFT_FRI_ERR_SHIFT) & 0xff; }

    // Program slot from the file at kFileBase + at with the size FRI_SIZE says; returns
    // the final status. Runs the neighbours meanwhile.
    uint32_t program(unsigned slot, uint32_t at, uint32_t size, uint32_t rate = kRate12,
                     bool poke_while_busy = false)
    {
        h.mmio_write(WEFT_REG_FRI_ADDR, kFileBase + at);
        h.mmio_write(WEFT_REG_FRI_SIZE, size);
        h.mmio_write(WEFT_REG_FRI_RATE, rate);
        h.mmio_write(WEFT_REG_FRI_CTRL, WEFT_FRI_CTRL_START | WEFT_FRI_CTRL_IRQ_EN | slot);
        const size_t bursts_before = slave.log.size(); // the FRI has started
        uint32_t st = 0;
        bool poked = false, released_tried = false;
        for (unsigned i = 0; i < 200000; ++i) {
            feed_neighbours();
            h.step(8);
            st = status();
            if (state_of(st) != WEFT_FRI_STATE_BUSY)
                break;
            if (slot == 0) {
                const Vweft_static &d = h.dut();
                CHECK(!bit(d.slot_run_o, 0) && !bit(d.slot_rst_no, 0) && !bit(d.irq_o, 0),
                      "slot 0 clocked, out of reset or interrupting while programmed");
                uint32_t c = h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL));
                if (state_of(st = status()) != WEFT_FRI_STATE_BUSY)
                    break; // it ended between the two reads
                CHECK((c & (WEFT_CONTROL_DECOUPLED | WEFT_CONTROL_RESET)) ==
                              (WEFT_CONTROL_DECOUPLED | WEFT_CONTROL_RESET) &&
                          !(c & WEFT_CONTROL_RUN),
                      "slot 0 CONTROL 0x%x while programmed", c);
                // Software cannot release a slot the FRI holds (tried once, early, so
                // that the write cannot land after the FRI let go).
                if (!released_tried && h.mmio_read(WEFT_REG_FRI_BYTES) < size / 4) {
                    h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL),
                                 WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
                    released_tried = true;
                }
            }
            if (poke_while_busy && !poked) {
                // One programming at a time: another START is ignored.
                h.mmio_write(WEFT_REG_FRI_CTRL, WEFT_FRI_CTRL_START | WEFT_FRI_CTRL_IRQ_EN | 2u);
                h.mmio_write(WEFT_REG_FRI_ADDR, 0x1234);
                CHECK(((status() >> WEFT_FRI_SLOT_SHIFT) & 0xff) == slot,
                      "START while busy changed the slot");
                CHECK(h.mmio_read(WEFT_REG_FRI_ADDR) == kFileBase + at,
                      "FRI_ADDR written while busy");
                poked = true;
            }
        }
        CHECK(state_of(st) == WEFT_FRI_STATE_DONE || state_of(st) == WEFT_FRI_STATE_FAILED,
              "FRI never finished (status 0x%x, %u bytes checked, load %d, slot 0 MEM_ACTIVE %u)",
              st, h.mmio_read(WEFT_REG_FRI_BYTES), int(h.dut().fri_load_o),
              h.mmio_read(WEFT_SLOT_REG(0, WEFT_SLOT_REG_MEM_ACTIVE)));
        CHECK(h.dut().fri_irq_o, "no FRI interrupt at the end");
        CHECK(loader.loads.empty() || !loader.loads.back().slot0_burst_open,
              "slot 0 loaded while a burst of its window was on the bus");
        // The neighbours' bursts went on while the FRI read, at every rate.
        unsigned theirs = 0;
        for (size_t i = bursts_before; i < slave.log.size(); ++i)
            theirs += slave.log[i].addr >= win(1) && slave.log[i].addr < win(kNumSlots);
        const uint32_t cycles = h.mmio_read(WEFT_REG_FRI_CYCLES);
        if (cycles > 300)
            CHECK(theirs > 0, "no neighbour burst in the %u cycles of a programming", cycles);
        return st;
    }

    void ack()
    {
        h.mmio_write(WEFT_REG_FRI_CTRL, WEFT_FRI_CTRL_ACK | WEFT_FRI_CTRL_IRQ_EN);
        CHECK(state_of(status()) == WEFT_FRI_STATE_IDLE, "ACK did not return to IDLE");
        CHECK(!h.dut().fri_irq_o, "FRI interrupt after ACK");
    }

    void drain_neighbours()
    {
        for (unsigned i = 0; i < 200000; ++i) {
            bool idle = slave.idle();
            for (auto &t : threads)
                idle = idle && t->idle();
            if (idle)
                break;
            h.step();
        }
        h.step(5000); // words the threads handed over reach memory
    }

    void run()
    {
        h.reset();
        for (unsigned s = 0; s < kNumSlots; ++s) {
            h.set_window(s, 0, win(s), kWinSize, kRw);
            h.mmio_write(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL),
                         WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
        }
        CHECK(h.mmio_read(WEFT_REG_FRI_RATE) == kRate12, "FRI_RATE reset value %u",
              h.mmio_read(WEFT_REG_FRI_RATE));

        // A good file, twice the size of a burst area, odd payload length.
        const uint32_t payload = 6001;
        std::vector<uint8_t> good = make_file(payload, 0x1);
        place(good, 0);
        const uint32_t size = static_cast<uint32_t>(good.size());

        // Slot 0 is busy with long MEMIF traffic when the FRI takes it: its bursts are
        // aborted or finish, and none lands after the load.
        for (int i = 0; i < 6; ++i)
            queue_cmd(0, i % 2 == 0, win(0) + 0x1000 * i, 0x1000);
        h.step(40);
        uint32_t st = program(0, 0, size, kRate12, true);
        CHECK(state_of(st) == WEFT_FRI_STATE_DONE && err_of(st) == 0, "good file: status 0x%x", st);
        CHECK(loader.loads.size() == 1 && loader.loads[0].slot == 0 && !loader.loads[0].blank,
              "good file: loads %zu", loader.loads.size());
        CHECK(h.mmio_read(WEFT_REG_FRI_BYTES) == size, "FRI_BYTES %u, file %u",
              h.mmio_read(WEFT_REG_FRI_BYTES), size);
        uint32_t cycles = h.mmio_read(WEFT_REG_FRI_CYCLES);
        const uint32_t ideal =
            static_cast<uint32_t>((uint64_t(size) * 256 + kRate12 - 1) / kRate12);
        std::printf("good file: %u bytes in %u cycles (%u at exactly the rate)\n", size, cycles,
                    ideal);
        CHECK(cycles >= ideal - 8 && cycles <= ideal + ideal / 20 + 200,
              "%u cycles for %u bytes at 1.2 B/cycle, want about %u", cycles, size, ideal);
        // The slot's half-done traffic: the thread agent forgets it (a reset thread), and
        // memory must hold still from the load on.
        threads[0]->cmd.clear();
        threads[0]->wr.clear();
        threads[0]->rd_expect.clear();
        threads[0]->drop_pending = true;
        drain_neighbours();
        CHECK(std::memcmp(mem.data(), loader.slot0_at_load.data(), kWinSize) == 0,
              "slot 0's memory changed after its load");
        ack();

        // Full speed (rate 0: a word a cycle) and the ICAP-class 4 bytes a cycle.
        for (uint32_t rate : {0u, 1024u}) {
            st = program(0, 0, size, rate);
            CHECK(err_of(st) == 0, "rate %u: status 0x%x", rate, st);
            uint32_t c = h.mmio_read(WEFT_REG_FRI_CYCLES);
            std::printf("rate %u/256 B/cycle: %u cycles\n", rate, c);
            CHECK(c < cycles, "rate %u: %u cycles, not faster than at 1.2 B/cycle", rate, c);
            ack();
        }

        // The same file on a quiet bus: the same cycles every time (no jitter).
        drain_neighbours();
        loader.max_wait = 1; // the simulation host loads within the cycle
        {
            uint32_t first = 0;
            for (int i = 0; i < 3; ++i) {
                h.mmio_write(WEFT_REG_FRI_ADDR, kFileBase);
                h.mmio_write(WEFT_REG_FRI_SIZE, size);
                h.mmio_write(WEFT_REG_FRI_RATE, kRate12);
                slave.timing = SlaveTiming{};
                h.mmio_write(WEFT_REG_FRI_CTRL, WEFT_FRI_CTRL_START | 0u);
                while (state_of(status()) == WEFT_FRI_STATE_BUSY)
                    h.step(64);
                uint32_t c = h.mmio_read(WEFT_REG_FRI_CYCLES);
                if (i == 0)
                    first = c;
                CHECK(c == first, "jitter: run %d took %u cycles, the first %u", i, c, first);
                CHECK(!h.dut().fri_irq_o, "interrupt without IRQ_EN");
                h.mmio_write(WEFT_REG_FRI_CTRL, WEFT_FRI_CTRL_ACK);
            }
        }
        std::printf("quiet bus: %u bytes in %u cycles, three times\n", size,
                    h.mmio_read(WEFT_REG_FRI_CYCLES));
        loader.max_wait = 4;

        // Damaged files, each with its error code. Each is placed at 0x8000.
        struct Case {
            const char *what;
            uint32_t err;
            bool blank;          // the slot is emptied (something was read)
            bool loaded = false; // a load of the file was asked for (and refused)
        };
        auto expect_fail = [&](const Case &c, const std::vector<uint8_t> &f, uint32_t fsize,
                               unsigned slot = 0, uint32_t at = 0x8000) {
            place(f, at);
            size_t n = loader.loads.size();
            uint32_t s = program(slot, at, fsize);
            CHECK(state_of(s) == WEFT_FRI_STATE_FAILED && err_of(s) == c.err,
                  "%s: status 0x%x, want FAILED with error %u", c.what, s, c.err);
            if (c.loaded) {
                CHECK(loader.loads.size() == n + 1 && !loader.loads.back().blank,
                      "%s: no load was asked for", c.what);
            } else if (c.blank) {
                CHECK(loader.loads.size() == n + 1 && loader.loads.back().blank &&
                          loader.loads.back().slot == slot,
                      "%s: the slot was not emptied", c.what);
            } else {
                CHECK(loader.loads.size() == n, "%s: a load was asked for", c.what);
            }
            ack();
        };
        std::vector<uint8_t> f = good;
        f[3] ^= 0x20;
        expect_fail({"bad magic", WEFT_FRI_ERR_MAGIC, true}, f, size);
        f = good;
        f[8] = 2;
        reseal_header(f);
        expect_fail({"version 2", WEFT_FRI_ERR_VERSION, true}, f, size);
        f = good;
        f[30] ^= 0x01; // a partition name byte
        expect_fail({"header byte flipped", WEFT_FRI_ERR_HEADER_CRC, true}, f, size);
        f = good;
        f[150] = 1;
        expect_fail({"reserved byte", WEFT_FRI_ERR_RESERVED, true}, f, size);
        f = good;
        std::memset(&f[12], 0, 4);
        reseal_header(f);
        expect_fail({"payload size 0", WEFT_FRI_ERR_SIZE, true}, f, size);
        expect_fail({"truncated", WEFT_FRI_ERR_TRUNCATED, true}, good, size - 100);
        expect_fail({"longer", WEFT_FRI_ERR_LONG, true}, good, size + 4);
        expect_fail({"shorter than a header", WEFT_FRI_ERR_TRUNCATED, false}, good, 100);
        f = make_file(payload, 0x2); // for slot 1 only
        expect_fail({"slot outside the mask", WEFT_FRI_ERR_SLOT, true}, f,
                    static_cast<uint32_t>(f.size()));
        f = good;
        f[WEFT_BITSTREAM_HEADER_BYTES + payload - 1] ^= 0x80; // the very last byte
        expect_fail({"payload byte flipped", WEFT_FRI_ERR_PAYLOAD_CRC, true}, f, size);
        expect_fail({"slot out of range", WEFT_FRI_ERR_ARGS, false}, good, size, 9);
        expect_fail({"unaligned address", WEFT_FRI_ERR_ARGS, false}, good, size, 0, 0x8002);
        // A file outside memory gets a bus error, again and again (a bus error's beats
        // never reach the FIFO; nothing of one run may linger into the next).
        for (int run = 0; run < 5; ++run) {
            size_t n = loader.loads.size();
            uint32_t s = program(0, kFileArea, size);
            CHECK(state_of(s) == WEFT_FRI_STATE_FAILED && err_of(s) == WEFT_FRI_ERR_BUS,
                  "bus error: status 0x%x", s);
            CHECK(loader.loads.size() == n + 1 && loader.loads.back().blank,
                  "bus error: the slot was not emptied");
            ack();
        }
        // A loader that refuses the configuration.
        loader.refuse = true;
        expect_fail({"loader refuses", WEFT_FRI_ERR_LOAD, false, true}, good, size);
        loader.refuse = false;
        // A file that fails at once while slot 0 has a long write on a slow bus: the slot
        // is emptied only once that burst is off the bus (the decoupler ends it without
        // data; it still runs to its B response). Here that follows from the memory master
        // running one transaction at a time (the FRI's first read waits behind the burst);
        // weft_fri's drain state waits for the slot's MEM_ACTIVE too, for any other master.
        {
            h.mmio_write(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL),
                         WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
            slave.timing.p_w = 3;
            for (int i = 0; i < 4; ++i)
                queue_cmd(0, true, win(0) + 0x400 * i, 0x400);
            for (unsigned i = 0; i < 20000 && !bus.open; ++i)
                h.step();
            CHECK(bus.open, "slot 0's write never reached the bus");
            f = good;
            f[0] ^= 1;
            expect_fail({"bad magic, slot 0 writing", WEFT_FRI_ERR_MAGIC, true}, f, size);
            slave.timing = SlaveTiming{};
            threads[0]->cmd.clear();
            threads[0]->wr.clear();
            threads[0]->drop_pending = true;
        }
        // And a good file still works after all of that.
        st = program(0, 0, size);
        CHECK(state_of(st) == WEFT_FRI_STATE_DONE, "good file after failures: 0x%x", st);
        ack();

        // The neighbours' memory is exactly what their commands wrote.
        drain_neighbours();
        for (unsigned s = 1; s < kNumSlots; ++s)
            CHECK(threads[s]->rd_expect.empty(), "slot %u still waits for read words", s);
        std::vector<uint8_t> got(mem.begin() + kWinSize, mem.begin() + kWinSize * kNumSlots);
        std::vector<uint8_t> want(shadow.begin() + kWinSize, shadow.begin() + kWinSize * kNumSlots);
        check_memory_image(got, want, win(1), "neighbours");
        std::printf("neighbour words moved: %llu\n",
                    static_cast<unsigned long long>(neighbour_words()));
    }
};

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Bench b;
    b.run();
    if (weft_tb::failures != 0) {
        std::printf("tb_rtl_fri: %d checks failed\n", weft_tb::failures);
        return 1;
    }
    std::printf("tb_rtl_fri: all checks passed\n");
    return 0;
}

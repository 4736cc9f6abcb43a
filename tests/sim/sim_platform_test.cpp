// Tests of the simulation platform (platform/sim) through the platform interface: the
// static region model, MMIO as AXI4-Lite, interrupts, the idle sleep, run-time
// reconfiguration with test-only thread images (by path, and through the reconfiguration
// port from bitstream files), and MEMIF through the DMA region.

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include "weft/bitstream.h"
#include "weft/osif_protocol.h"
#include "weft/platform.h"
#include "weft/sim.h"

namespace
{

const std::string kImageDir = WEFT_TEST_IMAGE_DIR;
const std::string kLoopback = kImageDir + "/test_loopback.so";
const std::string kIncrement = kImageDir + "/test_increment.so";
const std::string kMemcopy = kImageDir + "/test_memcopy.so";
const std::string kNotAnImage = kImageDir + "/test_not_an_image.so";
constexpr uint32_t kMemcopyDone = 0xC0DED0E5;
constexpr int kIrqTimeoutMs = 5000;

class SimPlatformTest : public ::testing::Test
{
  protected:
    void SetUp() override { ASSERT_EQ(weft_sim_open(&p_, nullptr), 0); }
    void TearDown() override
    {
        if (p_)
            p_->ops->close(p_);
    }
    // A new fabric opened with `flags` and `image_dir` (weft_sim_config_t) in place of
    // this one.
    void reopen(uint32_t flags, const char *image_dir = nullptr)
    {
        p_->ops->close(p_);
        p_ = nullptr;
        weft_sim_config_t cfg{};
        cfg.flags = flags;
        cfg.image_dir = image_dir;
        ASSERT_EQ(weft_sim_open(&p_, &cfg), 0);
    }

    uint32_t rd(uint32_t off)
    {
        uint32_t v = 0xdeadbeef;
        EXPECT_EQ(p_->ops->mmio_read(p_, off, &v), 0) << "offset 0x" << std::hex << off;
        return v;
    }
    void wr(uint32_t off, uint32_t v)
    {
        EXPECT_EQ(p_->ops->mmio_write(p_, off, v), 0) << "offset 0x" << std::hex << off;
    }
    weft_sim_stats_t stats()
    {
        weft_sim_stats_t s{};
        EXPECT_EQ(weft_sim_stats(p_, &s), 0);
        return s;
    }

    // Load an image into a stopped slot, then run it.
    void start(unsigned slot, const std::string &image)
    {
        ASSERT_EQ(p_->ops->slot_reconfigure(p_, slot, image.c_str()), 0) << image;
        run(slot);
    }

    // Give a slot the DMA region, pulse reset, run it.
    void run(unsigned slot)
    {
        weft_dma_region_t r{};
        ASSERT_EQ(p_->ops->dma_region(p_, &r), 0);
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_WIN_BASE(0)), static_cast<uint32_t>(r.bus));
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_WIN_SIZE(0)), static_cast<uint32_t>(r.size));
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_WIN_PERM(0)), WEFT_WIN_READ | WEFT_WIN_WRITE);
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET | WEFT_CONTROL_RUN);
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
    }

    void stop(unsigned slot) { wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET); }

    // Send one word to a slot and return the word it answers, waiting on its interrupt.
    uint32_t exchange(unsigned slot, uint32_t word)
    {
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_OSIF_SW2HW), word);
        EXPECT_EQ(p_->ops->irq_wait(p_, slot, kIrqTimeoutMs), 0) << "slot " << slot;
        EXPECT_EQ(rd(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_STATUS)) & 0xffffu, 1u);
        return rd(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_OSIF_HW2SW));
    }

    // The memcopy thread, already started in `slot`, copies len bytes from src_off to
    // dst_off of the DMA region; returns the fabric cycles from its first request word
    // to its answer.
    uint64_t memcopy(unsigned slot, uint32_t src_off, uint32_t dst_off, uint32_t len)
    {
        weft_dma_region_t r{};
        EXPECT_EQ(p_->ops->dma_region(p_, &r), 0);
        const auto before = stats();
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_OSIF_SW2HW), static_cast<uint32_t>(r.bus) + src_off);
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_OSIF_SW2HW), static_cast<uint32_t>(r.bus) + dst_off);
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_OSIF_SW2HW), len);
        EXPECT_EQ(p_->ops->irq_wait(p_, slot, kIrqTimeoutMs), 0);
        EXPECT_EQ(rd(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_OSIF_HW2SW)), kMemcopyDone);
        EXPECT_EQ(rd(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_FAULT)), 0u);
        return stats().cycles - before.cycles;
    }

    // A partial bitstream naming image `name` of the image directory (with that file's
    // SHA-256, or `digest_of`'s), a payload of 1,001 bytes, for every slot, written at
    // offset `off` of the DMA region; returns its bus address, its size in *size.
    uint64_t put_bitstream(size_t off, const std::string &name, size_t *size,
                           const std::string &digest_of = "")
    {
        weft_dma_region_t r{};
        EXPECT_EQ(p_->ops->dma_region(p_, &r), 0);
        uint8_t *file = static_cast<uint8_t *>(r.cpu) + off;
        const uint32_t payload = 1001;
        for (uint32_t i = 0; i < payload; ++i)
            file[WEFT_BITSTREAM_HEADER_BYTES + i] = static_cast<uint8_t>(i * 7);
        weft_bitstream_info_t info{};
        info.payload_size = payload;
        info.payload_crc = weft_bitstream_crc32(0, file + WEFT_BITSTREAM_HEADER_BYTES, payload);
        info.slot_mask = 0xffffffffu;
        std::snprintf(info.partition, sizeof info.partition, "all");
        std::snprintf(info.image, sizeof info.image, "%s", name.c_str());
        const std::string hashed = kImageDir + "/" + (digest_of.empty() ? name : digest_of);
        EXPECT_EQ(weft_bitstream_file_sha256(hashed.c_str(), info.image_sha256), 0) << hashed;
        EXPECT_EQ(weft_bitstream_write_header(&info, file), 0);
        *size = WEFT_BITSTREAM_HEADER_BYTES + payload;
        return r.bus + off;
    }

    // Program a slot through the reconfiguration port; the result in *res.
    int program(unsigned slot, uint64_t bus, size_t size, weft_program_result_t *res)
    {
        return p_->ops->slot_program(p_, slot, bus, size, res);
    }

    // A programmed-and-run slot that holds nothing answers no word.
    void expect_empty(unsigned slot)
    {
        run(slot);
        wr(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_OSIF_SW2HW), 1);
        EXPECT_EQ(p_->ops->irq_wait(p_, slot, 100), -ETIMEDOUT) << "slot " << slot;
        stop(slot);
    }

    weft_platform_t *p_ = nullptr;
};

TEST(SimOpen, OpenCloseRepeatedly)
{
    for (int i = 0; i < 3; ++i) {
        weft_platform_t *p = nullptr;
        ASSERT_EQ(weft_sim_open(&p, nullptr), 0);
        ASSERT_NE(p, nullptr);
        EXPECT_STREQ(p->name, "sim");
        weft_dma_region_t r{};
        ASSERT_EQ(p->ops->dma_region(p, &r), 0);
        EXPECT_EQ(r.bus, 0x10000000u);
        EXPECT_EQ(r.size, size_t{16} << 20);
        ASSERT_NE(r.cpu, nullptr);
        static_cast<uint8_t *>(r.cpu)[r.size - 1] = 1; // the whole region is host memory
        p->ops->close(p);
    }
}

TEST(SimOpen, ConfiguredDmaRegion)
{
    weft_sim_config_t cfg{};
    cfg.dma_size = 1 << 20;
    cfg.dma_bus_base = 0x40000000;
    weft_platform_t *p = nullptr;
    ASSERT_EQ(weft_sim_open(&p, &cfg), 0);
    weft_dma_region_t r{};
    ASSERT_EQ(p->ops->dma_region(p, &r), 0);
    EXPECT_EQ(r.bus, 0x40000000u);
    EXPECT_EQ(r.size, size_t{1} << 20);
    p->ops->close(p);
}

TEST(SimOpen, BadConfigIsEinval)
{
    weft_platform_t *p = nullptr;
    weft_sim_config_t cfg{};
    cfg.dma_size = 1000;
    EXPECT_EQ(weft_sim_open(&p, &cfg), -EINVAL);
    cfg.dma_size = 4096;
    cfg.dma_bus_base = 0x10000010;
    EXPECT_EQ(weft_sim_open(&p, &cfg), -EINVAL);
    cfg.dma_bus_base = 0xfff00000;
    cfg.dma_size = 2u << 20;
    EXPECT_EQ(weft_sim_open(&p, &cfg), -EINVAL);
    EXPECT_EQ(weft_sim_open(nullptr, nullptr), -EINVAL);
}

TEST(SimOpen, TwoPlatformsAtOnce)
{
    weft_platform_t *a = nullptr, *b = nullptr;
    ASSERT_EQ(weft_sim_open(&a, nullptr), 0);
    ASSERT_EQ(weft_sim_open(&b, nullptr), 0);
    uint32_t va = 0, vb = 0;
    EXPECT_EQ(a->ops->mmio_read(a, WEFT_REG_ID, &va), 0);
    EXPECT_EQ(b->ops->mmio_read(b, WEFT_REG_ID, &vb), 0);
    EXPECT_EQ(va, WEFT_REG_ID_VALUE);
    EXPECT_EQ(vb, WEFT_REG_ID_VALUE);
    a->ops->close(a);
    b->ops->close(b);
}

TEST(SimOpen, StatsRejectsOtherPlatforms)
{
    weft_platform_ops_t ops{};
    weft_platform_t fake{&ops, "fake"};
    weft_sim_stats_t s;
    EXPECT_EQ(weft_sim_stats(&fake, &s), -EINVAL);
    EXPECT_EQ(weft_sim_stats(nullptr, &s), -EINVAL);
}

TEST_F(SimPlatformTest, IdentityRegisters)
{
    EXPECT_EQ(rd(WEFT_REG_ID), WEFT_REG_ID_VALUE);
    EXPECT_EQ(rd(WEFT_REG_VERSION), WEFT_OSIF_VERSION);
    EXPECT_EQ(rd(WEFT_REG_NUM_SLOTS), p_->ops->num_slots(p_));
    EXPECT_GE(p_->ops->num_slots(p_), 2u);
}

TEST_F(SimPlatformTest, MmioCountsAndAdvancesCycles)
{
    const auto before = stats();
    const uint32_t c0 = rd(WEFT_REG_CYCLE_LO);
    const uint32_t c1 = rd(WEFT_REG_CYCLE_LO);
    EXPECT_GT(c1, c0);
    const auto after = stats();
    EXPECT_EQ(after.mmio_ops, before.mmio_ops + 2);
    EXPECT_GT(after.cycles, before.cycles);
}

TEST_F(SimPlatformTest, BadOffsetsAreEinval)
{
    uint32_t v = 0;
    for (uint32_t off : {0x1u, 0x2u, 0x103u, 0x10000u, 0x10004u, 0xfffffffcu}) {
        EXPECT_EQ(p_->ops->mmio_read(p_, off, &v), -EINVAL) << off;
        EXPECT_EQ(p_->ops->mmio_write(p_, off, 0), -EINVAL) << off;
    }
    EXPECT_EQ(p_->ops->mmio_read(p_, 0, nullptr), -EINVAL);
    EXPECT_EQ(rd(WEFT_REG_ID), WEFT_REG_ID_VALUE); // and nothing broke
}

TEST_F(SimPlatformTest, ConcurrentMmioFromSeveralThreads)
{
    const unsigned n = p_->ops->num_slots(p_);
    constexpr int kOps = 200;
    const auto before = stats();
    std::atomic<int> errors{0};
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < n; ++t) {
        threads.emplace_back([&, t] {
            const uint32_t reg = WEFT_SLOT_REG(t, WEFT_SLOT_REG_WIN_BASE(0));
            for (int i = 0; i < kOps; ++i) {
                uint32_t v = 0;
                const uint32_t w = (t << 24) | static_cast<uint32_t>(i * 4);
                if (p_->ops->mmio_write(p_, reg, w) != 0)
                    ++errors;
                if (p_->ops->mmio_read(p_, reg, &v) != 0 || v != w)
                    ++errors;
                if (p_->ops->mmio_read(p_, WEFT_REG_ID, &v) != 0 || v != WEFT_REG_ID_VALUE)
                    ++errors;
            }
        });
    }
    for (auto &th : threads)
        th.join();
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(stats().mmio_ops, before.mmio_ops + uint64_t{n} * kOps * 3);
}

TEST_F(SimPlatformTest, IrqWaitTimesOutAndCancels)
{
    EXPECT_EQ(p_->ops->irq_wait(p_, 0, 20), -ETIMEDOUT);
    // Line num_slots is the OS services' (low: no software context is armed); the one
    // after it is none.
    const unsigned svc = WEFT_IRQ_LINE_SVC(p_->ops->num_slots(p_));
    EXPECT_EQ(p_->ops->irq_wait(p_, svc, 0), -ETIMEDOUT);
    EXPECT_EQ(p_->ops->irq_cancel(p_, svc), 0);
    EXPECT_EQ(p_->ops->irq_wait(p_, svc, 1000), -ECANCELED);
    EXPECT_EQ(p_->ops->irq_wait(p_, svc + 1, 0), -EINVAL);
    EXPECT_EQ(p_->ops->irq_cancel(p_, svc + 1), -EINVAL);

    // A cancel before the wait is consumed by that wait.
    EXPECT_EQ(p_->ops->irq_cancel(p_, 1), 0);
    EXPECT_EQ(p_->ops->irq_wait(p_, 1, 1000), -ECANCELED);
    EXPECT_EQ(p_->ops->irq_wait(p_, 1, 10), -ETIMEDOUT);

    // A cancel from another thread wakes a wait without timeout.
    std::thread canceller([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        p_->ops->irq_cancel(p_, 0);
    });
    EXPECT_EQ(p_->ops->irq_wait(p_, 0, -1), -ECANCELED);
    canceller.join();
}

TEST_F(SimPlatformTest, QuietFabricSleepsAndStopsTheClock)
{
    EXPECT_EQ(rd(WEFT_REG_ID), WEFT_REG_ID_VALUE);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto a = stats();
    EXPECT_GE(a.sleeps, 1u);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto b = stats();
    EXPECT_EQ(b.cycles, a.cycles) << "fabric time must stand still while quiet";
    EXPECT_EQ(b.sleeps, a.sleeps);
    // An MMIO request on a quiet fabric runs the cycles its transaction needs (on the
    // caller's thread); afterwards fabric time stands still again.
    EXPECT_EQ(rd(WEFT_REG_ID), WEFT_REG_ID_VALUE);
    const auto c = stats();
    EXPECT_GT(c.cycles, b.cycles);
    EXPECT_EQ(c.mmio_ops, b.mmio_ops + 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(stats().cycles, c.cycles);
}

TEST_F(SimPlatformTest, TwoImagesExchangeOsifWords)
{
    start(0, kLoopback);
    start(1, kIncrement);
    for (uint32_t i = 0; i < 50; ++i) {
        const uint32_t w = 0x1000u * i + 7u;
        EXPECT_EQ(exchange(0, w), w);
        EXPECT_EQ(exchange(1, w), w + 1);
    }
    // With the answer taken the line is low again.
    EXPECT_EQ(rd(WEFT_REG_IRQ_PENDING) & 0x3u, 0u);
    EXPECT_EQ(p_->ops->irq_wait(p_, 0, 10), -ETIMEDOUT);
    // Threads blocked on OSIF leave the fabric quiet.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto a = stats();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(stats().cycles, a.cycles);
}

TEST_F(SimPlatformTest, SameImageInTwoSlots)
{
    const unsigned n = p_->ops->num_slots(p_);
    start(0, kLoopback);
    start(n - 1, kLoopback);
    EXPECT_EQ(exchange(0, 11), 11u);
    EXPECT_EQ(exchange(n - 1, 22), 22u);
    EXPECT_EQ(exchange(0, 33), 33u);
    // Unloading one leaves the other working.
    stop(0);
    ASSERT_EQ(p_->ops->slot_reconfigure(p_, 0, kIncrement.c_str()), 0);
    EXPECT_EQ(exchange(n - 1, 44), 44u);
}

TEST_F(SimPlatformTest, ReconfigureAtRunTime)
{
    start(0, kLoopback);
    EXPECT_EQ(exchange(0, 5), 5u);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, kIncrement.c_str()), -EBUSY);
    EXPECT_EQ(exchange(0, 6), 6u); // still the loopback
    stop(0);
    start(0, kIncrement);
    EXPECT_EQ(exchange(0, 6), 7u);
    stop(0);
    start(0, kLoopback);
    EXPECT_EQ(exchange(0, 8), 8u);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, p_->ops->num_slots(p_), kLoopback.c_str()), -EINVAL);
}

TEST_F(SimPlatformTest, BadImagesAreRefusedAndTheFabricGoesOn)
{
    start(1, kLoopback);
    EXPECT_EQ(exchange(1, 1), 1u);
    stop(1);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 1, (kImageDir + "/no_such_image.so").c_str()), -ENOENT);

    char garbage[] = "/tmp/weft_sim_test_garbage_XXXXXX";
    const int fd = mkstemp(garbage);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, "not an ELF file\n", 16), 16);
    close(fd);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 1, garbage), -ENOEXEC);
    unlink(garbage);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 1, kNotAnImage.c_str()), -ENOEXEC);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 1, kImageDir.c_str()), -ENOEXEC);

    // The previous thread is still in the slot, and the platform still works.
    EXPECT_EQ(rd(WEFT_REG_ID), WEFT_REG_ID_VALUE);
    wr(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET | WEFT_CONTROL_RUN);
    wr(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN);
    EXPECT_EQ(exchange(1, 2), 2u);
    stop(1);
    start(1, kIncrement);
    EXPECT_EQ(exchange(1, 2), 3u);
}

TEST_F(SimPlatformTest, ProgramLoadsTheImageABitstreamNames)
{
    size_t size = 0;
    const uint64_t loop = put_bitstream(0, "test_loopback.so", &size);
    const uint64_t inc = put_bitstream(0x1000, "test_increment.so", &size);
    weft_program_result_t res{};
    ASSERT_EQ(program(0, loop, size, &res), 0) << res.message;
    EXPECT_EQ(res.bytes, size);
    EXPECT_GT(res.cycles, size * 256 / 307 - 1) << "the port reads at 1.2 bytes a cycle";
    run(0);
    EXPECT_EQ(exchange(0, 5), 5u);
    stop(0);
    ASSERT_EQ(program(0, inc, size, &res), 0) << res.message;
    run(0);
    EXPECT_EQ(exchange(0, 5), 6u);
    stop(0);
    // Again: the same cycles (no jitter), the image kept from the first time.
    const uint64_t first = res.cycles;
    ASSERT_EQ(program(0, loop, size, &res), 0) << res.message;
    ASSERT_EQ(program(0, inc, size, &res), 0) << res.message;
    EXPECT_EQ(res.cycles, first);
    run(0);
    EXPECT_EQ(exchange(0, 8), 9u);
}

TEST_F(SimPlatformTest, ProgramRefusesAnImageWhoseDigestIsNotTheBitstreams)
{
    size_t size = 0;
    start(1, kLoopback);
    stop(1);
    // Names the loopback with the increment's digest.
    const uint64_t bad = put_bitstream(0, "test_loopback.so", &size, "test_increment.so");
    weft_program_result_t res{};
    EXPECT_EQ(program(1, bad, size, &res), -EIO);
    EXPECT_EQ(res.error, unsigned{WEFT_FRI_ERR_LOAD});
    EXPECT_NE(std::string(res.message).find("SHA-256"), std::string::npos) << res.message;
    expect_empty(1);
    // Not a thread image, with its true digest.
    const uint64_t not_image = put_bitstream(0, "test_not_an_image.so", &size);
    EXPECT_EQ(program(1, not_image, size, &res), -EIO);
    EXPECT_NE(std::string(res.message).find("not a thread image"), std::string::npos)
        << res.message;
    expect_empty(1);
    // The slot is usable again.
    ASSERT_EQ(program(1, put_bitstream(0, "test_increment.so", &size), size, &res), 0);
    run(1);
    EXPECT_EQ(exchange(1, 1), 2u);
}

TEST_F(SimPlatformTest, ProgramTakesImagesFromTheImageDirectoryOnly)
{
    char dir[] = "/tmp/weft_sim_test_images_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    reopen(0, dir);
    size_t size = 0;
    const uint64_t bus = put_bitstream(0, "test_loopback.so", &size);
    weft_program_result_t res{};
    EXPECT_EQ(program(0, bus, size, &res), -EIO);
    EXPECT_EQ(res.error, unsigned{WEFT_FRI_ERR_LOAD});
    EXPECT_NE(std::string(res.message).find(dir), std::string::npos) << res.message;
    expect_empty(0);
    rmdir(dir);
}

TEST_F(SimPlatformTest, ProgramRefusesADamagedFileAndEmptiesTheSlot)
{
    start(2, kLoopback);
    stop(2);
    size_t size = 0;
    const uint64_t bus = put_bitstream(0, "test_loopback.so", &size);
    weft_dma_region_t r{};
    ASSERT_EQ(p_->ops->dma_region(p_, &r), 0);
    static_cast<uint8_t *>(r.cpu)[size - 1] ^= 0x10; // the last payload byte
    weft_program_result_t res{};
    EXPECT_EQ(program(2, bus, size, &res), -EIO);
    EXPECT_EQ(res.error, unsigned{WEFT_FRI_ERR_PAYLOAD_CRC});
    EXPECT_NE(std::string(res.message).find("payload CRC-32"), std::string::npos) << res.message;
    expect_empty(2);
    EXPECT_EQ(program(2, bus, size - 1, &res), -EIO);
    EXPECT_EQ(res.error, unsigned{WEFT_FRI_ERR_TRUNCATED});
    EXPECT_EQ(program(p_->ops->num_slots(p_), bus, size, &res), -EINVAL);
}

TEST_F(SimPlatformTest, MemifCopyInsideTheDmaRegion)
{
    weft_dma_region_t r{};
    ASSERT_EQ(p_->ops->dma_region(p_, &r), 0);
    auto *mem = static_cast<uint8_t *>(r.cpu);
    // Odd offsets and a length of several chunks that crosses 4 KiB boundaries.
    const uint32_t src_off = 0x1f00, dst_off = 0x23100, len = 5 * 1024 + 12;
    for (uint32_t i = 0; i < len; ++i)
        mem[src_off + i] = static_cast<uint8_t>(i * 7 + 3);
    std::memset(mem + dst_off - 64, 0x5a, len + 128);

    const unsigned slot = p_->ops->num_slots(p_) - 1;
    start(slot, kMemcopy);
    const uint64_t cycles = memcopy(slot, src_off, dst_off, len);

    EXPECT_EQ(std::memcmp(mem + src_off, mem + dst_off, len), 0);
    for (uint32_t i = 0; i < 64; ++i) {
        ASSERT_EQ(mem[dst_off - 64 + i], 0x5a) << "below the destination";
        ASSERT_EQ(mem[dst_off + len + i], 0x5a) << "past the destination";
    }
    std::printf("memcopy of %u bytes: %llu fabric cycles\n", len,
                static_cast<unsigned long long>(cycles));
}

TEST_F(SimPlatformTest, MemifOutsideTheWindowFaults)
{
    weft_dma_region_t r{};
    ASSERT_EQ(p_->ops->dma_region(p_, &r), 0);
    start(0, kMemcopy);
    // The window is the DMA region; a copy to just past its end must fault the thread.
    const uint32_t end = static_cast<uint32_t>(r.bus + r.size);
    wr(WEFT_SLOT_REG(0, WEFT_SLOT_REG_OSIF_SW2HW), static_cast<uint32_t>(r.bus));
    wr(WEFT_SLOT_REG(0, WEFT_SLOT_REG_OSIF_SW2HW), end - 8);
    wr(WEFT_SLOT_REG(0, WEFT_SLOT_REG_OSIF_SW2HW), 64);
    ASSERT_EQ(p_->ops->irq_wait(p_, 0, kIrqTimeoutMs), 0);
    EXPECT_EQ(rd(WEFT_SLOT_REG(0, WEFT_SLOT_REG_FAULT)) & WEFT_FAULT_MEM, WEFT_FAULT_MEM);
    EXPECT_EQ(rd(WEFT_SLOT_REG(0, WEFT_SLOT_REG_FAULT_ADDR)), end - 8);
}

TEST_F(SimPlatformTest, MemoryPastTheDmaRegionAnswersSlverr)
{
    weft_dma_region_t r{};
    ASSERT_EQ(p_->ops->dma_region(p_, &r), 0);
    start(1, kMemcopy);
    // A window wider than the DMA region passes the static region's check; the memory
    // slave must refuse the beats past the region's end, and the slot faults.
    wr(WEFT_SLOT_REG(1, WEFT_SLOT_REG_WIN_SIZE(0)), static_cast<uint32_t>(r.size) + 4096);
    const uint32_t end = static_cast<uint32_t>(r.bus + r.size);
    wr(WEFT_SLOT_REG(1, WEFT_SLOT_REG_OSIF_SW2HW), static_cast<uint32_t>(r.bus));
    wr(WEFT_SLOT_REG(1, WEFT_SLOT_REG_OSIF_SW2HW), end - 8);
    wr(WEFT_SLOT_REG(1, WEFT_SLOT_REG_OSIF_SW2HW), 64);
    ASSERT_EQ(p_->ops->irq_wait(p_, 1, kIrqTimeoutMs), 0);
    EXPECT_EQ(rd(WEFT_SLOT_REG(1, WEFT_SLOT_REG_FAULT)) & WEFT_FAULT_MEM, WEFT_FAULT_MEM);
    stop(1);
    // The fabric goes on.
    start(0, kLoopback);
    EXPECT_EQ(exchange(0, 9), 9u);
}

} // namespace

// ---- the engine: skipped static-region edges and paused slots change no cycle count ----

TEST_F(SimPlatformTest, SkippingAndPausingChangeNoCycleCount)
{
    weft_dma_region_t r{};
    ASSERT_EQ(p_->ops->dma_region(p_, &r), 0);
    const uint32_t src_off = 0x3f00, dst_off = 0x41100, len = 6 * 1024 + 8;
    // A memory copy (a slot paused while it waits for its words) and an exchange with a
    // thread that computes 1000 cycles (the static region holding meanwhile). What is
    // compared is each slot's BUSY counter: the cycles its thread ran outside OS calls,
    // which the fabric alone decides. The total cycle count of an exchange is not: the
    // host's register reads after the interrupt may start while the thread still
    // finishes its last cycle, or after it (on a board as here), one cycle apart.
    auto busy = [&](unsigned slot) {
        const uint32_t lo = rd(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_BUSY_LO));
        return uint64_t{rd(WEFT_SLOT_REG(slot, WEFT_SLOT_REG_BUSY_HI))} << 32 | lo;
    };
    auto work = [&](const char *how) {
        auto *mem = static_cast<uint8_t *>(r.cpu);
        for (uint32_t i = 0; i < len; ++i)
            mem[src_off + i] = static_cast<uint8_t>(i * 13 + 1);
        std::memset(mem + dst_off, 0, len);
        start(1, kMemcopy);
        start(2, kIncrement);
        memcopy(1, src_off, dst_off, len);
        EXPECT_EQ(std::memcmp(mem + src_off, mem + dst_off, len), 0) << how;
        EXPECT_EQ(exchange(2, 41), 42u) << how;
        return std::make_pair(busy(1), busy(2));
    };
    const auto fast = work("skipping");
    EXPECT_GT(stats().held_cycles, 500u); // nearly all of the 1000 computing cycles
    EXPECT_GE(fast.second, 1000u);        // the computing cycles are counted, held or not
    reopen(WEFT_SIM_EVAL_ALL);
    ASSERT_EQ(p_->ops->dma_region(p_, &r), 0);
    const auto all = work("every model");
    EXPECT_EQ(fast.first, all.first) << "memory copy";
    EXPECT_EQ(fast.second, all.second) << "exchange";
    // Evaluating everything skips nothing: at least one static evaluation per cycle.
    const auto s = stats();
    EXPECT_EQ(s.held_cycles, 0u);
    EXPECT_GE(s.static_evals, s.cycles);
}

TEST_F(SimPlatformTest, HoldingStaticRegionCountsEveryCycle)
{
    // An empty slot with CONTROL.RUN set: never quiet, so the clock runs, but nothing in
    // the static region moves except its counters, so the backend skips its edges. CYCLE
    // and the slot's BUSY must still count every one of them.
    wr(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RUN);
    const uint32_t c0 = rd(WEFT_REG_CYCLE_LO);
    const uint32_t b0 = rd(WEFT_SLOT_REG(0, WEFT_SLOT_REG_BUSY_LO));
    const auto s0 = stats();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto s1 = stats();
    const uint32_t b1 = rd(WEFT_SLOT_REG(0, WEFT_SLOT_REG_BUSY_LO));
    const uint32_t c1 = rd(WEFT_REG_CYCLE_LO);
    wr(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL), WEFT_CONTROL_RESET);
    EXPECT_GT(s1.cycles - s0.cycles, 1000u);
    EXPECT_GT(s1.held_cycles - s0.held_cycles, (s1.cycles - s0.cycles) / 2);
    // The clock runs on between the reads, so the intervals nest: CYCLE's (outermost)
    // holds BUSY's, which holds the engine's; BUSY falling short of the engine's count
    // would mean held edges went uncounted.
    EXPECT_GE(c1 - c0, b1 - b0);
    EXPECT_GE(b1 - b0, s1.cycles - s0.cycles);
}

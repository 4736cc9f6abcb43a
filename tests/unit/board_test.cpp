// Unit tests of the board backend (platform/board) against a fake board: a regular file
// standing in for the UIO register window, a FIFO carrying interrupt counts, a second
// FIFO receiving the re-enable writes, fake u-dma-buf and FPGA manager sysfs files.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "board_fixture.h"
#include "weft/bitstream.h"
#include "weft/board.h"
#include "weft/osif_protocol.h"

using namespace weft_board_test;

namespace
{

// The fake board with the FPGA manager's sysfs files, the default reconfiguration method.
class BoardTest : public FakeBoard
{
  protected:
    BoardTest() : FakeBoard("weft-board-test") {}

    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(FakeBoard::SetUp());
        mgr_dir_ = dir_ + "/fpga0";

        // FPGA manager.
        ASSERT_EQ(mkdir(mgr_dir_.c_str(), 0700), 0);
        put(mgr_dir_ + "/flags", "0\n");
        put(mgr_dir_ + "/firmware", "");
        put(mgr_dir_ + "/state", "operating\n");
        cfg_.fpga_mgr_dir = mgr_dir_.c_str();
    }

    // Deliver one interrupt: the UIO count the kernel would hand to read().
    void raise_irq()
    {
        static uint32_t count = 0;
        count++;
        ASSERT_EQ(write(irq_w_, &count, sizeof(count)), (ssize_t)sizeof(count));
    }

    // Re-enable writes seen so far (each must be a 4-byte 1).
    int enables(int wait_ms = 0)
    {
        int n = 0;
        struct pollfd pfd = {irq_en_r_, POLLIN, 0};
        while (poll(&pfd, 1, n == 0 ? wait_ms : 0) > 0 && (pfd.revents & POLLIN)) {
            int32_t v = 0;
            if (read(irq_en_r_, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
                break;
            }
            EXPECT_EQ(v, 1);
            n++;
        }
        return n;
    }

    std::string mgr_dir_;
};

// ---- weft_board_open / close ------------------------------------------------------------

TEST_F(BoardTest, OpenCloseReportsSlotsAndName)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    ASSERT_NE(p_, nullptr);
    EXPECT_STREQ(p_->name, "board");
    EXPECT_EQ(p_->ops->num_slots(p_), kSlots);
    EXPECT_EQ(enables(1000), 1); // the interrupt is enabled once at open
    p_->ops->close(p_);
    p_ = nullptr;
}

TEST_F(BoardTest, OpenCloseRepeatedlyStopsIrqThreadAndLeaksNoFd)
{
    int before = count_fds();
    for (int i = 0; i < 20; i++) {
        ASSERT_EQ(open_board(), 0) << all_logs();
        p_->ops->close(p_);
        p_ = nullptr;
    }
    EXPECT_EQ(count_fds(), before);
}

TEST_F(BoardTest, OpenNullOutIsEinval)
{
    EXPECT_EQ(weft_board_open(nullptr, &cfg_), -EINVAL);
}

TEST_F(BoardTest, OpenMissingUioNamesPath)
{
    std::string missing = dir_ + "/uio7";
    cfg_.uio_path = missing.c_str();
    int before = count_fds();
    EXPECT_EQ(open_board(), -ENOENT);
    EXPECT_EQ(p_, nullptr);
    EXPECT_TRUE(logged(missing)) << all_logs();
    EXPECT_TRUE(logged(strerror(ENOENT))) << all_logs();
    EXPECT_EQ(count_fds(), before);
}

TEST_F(BoardTest, OpenWrongIdIsEnodev)
{
    reg(WEFT_REG_ID) = 0xdeadbeef;
    int before = count_fds();
    EXPECT_EQ(open_board(), -ENODEV);
    EXPECT_TRUE(logged("0xdeadbeef")) << all_logs();
    EXPECT_EQ(count_fds(), before);
}

TEST_F(BoardTest, OpenWrongVersionOrSlotCountIsEnodev)
{
    reg(WEFT_REG_VERSION) = WEFT_OSIF_VERSION + 1;
    EXPECT_EQ(open_board(), -ENODEV);
    reg(WEFT_REG_VERSION) = WEFT_OSIF_VERSION;
    reg(WEFT_REG_NUM_SLOTS) = 0;
    EXPECT_EQ(open_board(), -ENODEV);
    reg(WEFT_REG_NUM_SLOTS) = 33;
    EXPECT_EQ(open_board(), -ENODEV);
}

TEST_F(BoardTest, OpenWindowLargerThanFileIsEinval)
{
    cfg_.uio_map_size = 2 * kMapSize;
    EXPECT_EQ(open_board(), -EINVAL);
    EXPECT_TRUE(logged(regs_path_)) << all_logs();
    cfg_.uio_map_size = kMapSize - 2; // not a multiple of 4
    EXPECT_EQ(open_board(), -EINVAL);
    cfg_.uio_map_size = 8; // not even the global registers
    EXPECT_EQ(open_board(), -EINVAL);
    cfg_.uio_map_size = WEFT_SLOT_REG(kSlots - 1, 0); // last slot's window missing
    EXPECT_EQ(open_board(), -ENODEV);
}

TEST_F(BoardTest, OpenMissingFpgaManagerFileNamesIt)
{
    std::string flags = mgr_dir_ + "/flags";
    ASSERT_EQ(unlink(flags.c_str()), 0);
    int before = count_fds();
    EXPECT_EQ(open_board(), -ENOENT);
    EXPECT_TRUE(logged(flags)) << all_logs();
    EXPECT_EQ(count_fds(), before);
}

TEST_F(BoardTest, OpenFirmwareDirNotADirectory)
{
    std::string file = fw_dir_ + "/slot_a.bin";
    cfg_.firmware_dir = file.c_str();
    EXPECT_EQ(open_board(), -ENOTDIR);
    EXPECT_TRUE(logged(file)) << all_logs();
}

TEST_F(BoardTest, OpenIrqEnableWithoutReaderFails)
{
    close(irq_en_r_);
    irq_en_r_ = -1;
    int before = count_fds();
    EXPECT_EQ(open_board(), -ENXIO);
    EXPECT_TRUE(logged(irq_en_path_)) << all_logs();
    EXPECT_EQ(count_fds(), before);
}

// ---- mmio_read / mmio_write ---------------------------------------------------------------

TEST_F(BoardTest, MmioWriteLandsInFileAtOffset)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    uint32_t off = WEFT_SLOT_REG(2, WEFT_SLOT_REG_WIN_BASE(0));
    EXPECT_EQ(p_->ops->mmio_write(p_, off, 0x12345678u), 0);
    EXPECT_EQ(reg(off), 0x12345678u);
    EXPECT_EQ(p_->ops->mmio_write(p_, kMapSize - 4, 0xa5a5a5a5u), 0);
    EXPECT_EQ(reg(kMapSize - 4), 0xa5a5a5a5u);

    // And through the file itself, as another process would see it.
    uint32_t v = 0;
    int fd = open(regs_path_.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(pread(fd, &v, sizeof(v), off), (ssize_t)sizeof(v));
    close(fd);
    EXPECT_EQ(v, 0x12345678u);
}

TEST_F(BoardTest, MmioReadSeesFile)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    reg(0x200) = 0xcafef00du;
    uint32_t v = 0;
    EXPECT_EQ(p_->ops->mmio_read(p_, 0x200, &v), 0);
    EXPECT_EQ(v, 0xcafef00du);
    EXPECT_EQ(p_->ops->mmio_read(p_, WEFT_REG_ID, &v), 0);
    EXPECT_EQ(v, WEFT_REG_ID_VALUE);
}

TEST_F(BoardTest, MmioBadOffsetsAreEinval)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    uint32_t v = 0;
    const uint32_t bad[] = {
        1, 2, 3, 0x102, (uint32_t)kMapSize, (uint32_t)kMapSize + 4, 0xfffffffcu, 0xffffffffu};
    for (uint32_t off : bad) {
        EXPECT_EQ(p_->ops->mmio_read(p_, off, &v), -EINVAL) << off;
        EXPECT_EQ(p_->ops->mmio_write(p_, off, 1), -EINVAL) << off;
    }
    EXPECT_EQ(p_->ops->mmio_read(p_, 0, nullptr), -EINVAL);
}

// ---- dma_region ------------------------------------------------------------------------------

TEST_F(BoardTest, DmaRegionFromSysfsFiles)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    weft_dma_region_t r{};
    ASSERT_EQ(p_->ops->dma_region(p_, &r), 0);
    EXPECT_EQ(r.bus, 0x1f000000u);
    EXPECT_EQ(r.size, kDmaSize);
    ASSERT_NE(r.cpu, nullptr);
    static_cast<uint32_t *>(r.cpu)[3] = 0x55aa55aau;
    uint32_t v = 0;
    int fd = open(dma_path_.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(pread(fd, &v, sizeof(v), 12), (ssize_t)sizeof(v));
    close(fd);
    EXPECT_EQ(v, 0x55aa55aau);
    EXPECT_EQ(p_->ops->dma_region(p_, nullptr), -EINVAL);
}

TEST_F(BoardTest, DmaBusAddressWithoutPrefixAndPaddedIsHex)
{
    put(phys_path_, "  000000003e000000  \n");
    put(size_path_, "0x8000");
    ASSERT_EQ(open_board(), 0) << all_logs();
    weft_dma_region_t r{};
    ASSERT_EQ(p_->ops->dma_region(p_, &r), 0);
    EXPECT_EQ(r.bus, 0x3e000000u);
    EXPECT_EQ(r.size, 0x8000u);
}

TEST_F(BoardTest, DmaMalformedFilesAreEinvalNamingFile)
{
    const char *bad_phys[] = {"",     "\n",          "zz\n",          "0x\n",
                              "-1\n", "0x10 0x20\n", "0x1f000000x\n", "0x11111111111111111111\n"};
    for (const char *text : bad_phys) {
        put(phys_path_, text);
        logs_.clear();
        int before = count_fds();
        EXPECT_EQ(open_board(), -EINVAL) << "phys_addr \"" << text << "\"";
        EXPECT_TRUE(logged(phys_path_)) << all_logs();
        EXPECT_TRUE(logged("malformed")) << all_logs();
        EXPECT_EQ(count_fds(), before);
    }
    put(phys_path_, "0x1f000000\n");
    const char *bad_size[] = {"", "64k\n", "1e6\n", "0x\n", "+4096\n", "65536 bytes\n"};
    for (const char *text : bad_size) {
        put(size_path_, text);
        logs_.clear();
        EXPECT_EQ(open_board(), -EINVAL) << "size \"" << text << "\"";
        EXPECT_TRUE(logged(size_path_)) << all_logs();
    }
    put(size_path_, "0\n");
    EXPECT_EQ(open_board(), -EINVAL);
}

TEST_F(BoardTest, DmaMissingFilesAreEnoentNamingFile)
{
    ASSERT_EQ(unlink(size_path_.c_str()), 0);
    EXPECT_EQ(open_board(), -ENOENT);
    EXPECT_TRUE(logged(size_path_)) << all_logs();
    put(size_path_, "65536\n");
    ASSERT_EQ(unlink(dma_path_.c_str()), 0);
    logs_.clear();
    EXPECT_EQ(open_board(), -ENOENT);
    EXPECT_TRUE(logged(dma_path_)) << all_logs();
}

TEST_F(BoardTest, DmaBeyond32BitBusIsErange)
{
    put(phys_path_, "0xffff8000\n");
    EXPECT_EQ(open_board(), -ERANGE);
    put(phys_path_, "0x100000000\n");
    EXPECT_EQ(open_board(), -ERANGE);
    put(phys_path_, "0xffff0000\n"); // ends exactly at 4 GiB: fine
    EXPECT_EQ(open_board(), 0) << all_logs();
}

TEST_F(BoardTest, DmaSizeLargerThanBufferFileIsEinval)
{
    put(size_path_, std::to_string(2 * kDmaSize) + "\n");
    EXPECT_EQ(open_board(), -EINVAL);
    EXPECT_TRUE(logged(dma_path_)) << all_logs();
}

// ---- irq_wait / irq_cancel -------------------------------------------------------------------

TEST_F(BoardTest, IrqWaitWakesOnPendingBitAndInterrupt)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    EXPECT_EQ(enables(1000), 1);
    std::atomic<int> ret{1};
    std::thread waiter([&] { ret = p_->ops->irq_wait(p_, 2, 5000); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(ret.load(), 1); // still waiting
    reg(WEFT_REG_IRQ_PENDING) = 1u << 2;
    raise_irq();
    waiter.join();
    EXPECT_EQ(ret.load(), 0);

    // The line is still high: the interrupt stays disabled (it would fire at once).
    EXPECT_EQ(enables(100), 0);
    // Level-triggered: returns at once while the line is high.
    EXPECT_EQ(p_->ops->irq_wait(p_, 2, 0), 0);
    EXPECT_EQ(p_->ops->irq_wait(p_, 2, -1), 0);

    // Line served: the next wait makes the backend re-enable the interrupt.
    reg(WEFT_REG_IRQ_PENDING) = 0;
    EXPECT_EQ(p_->ops->irq_wait(p_, 2, 100), -ETIMEDOUT);
    EXPECT_EQ(enables(1000), 1);
}

TEST_F(BoardTest, IrqWaitIgnoresOtherSlots)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    std::atomic<int> ret{1};
    std::thread waiter([&] { ret = p_->ops->irq_wait(p_, 1, 300); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    reg(WEFT_REG_IRQ_PENDING) = 1u << 3;
    raise_irq();
    waiter.join();
    EXPECT_EQ(ret.load(), -ETIMEDOUT);
}

TEST_F(BoardTest, IrqWaitWakesByPollWhileAnotherLineStaysHigh)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    // Slot 0's line goes high and nobody serves it: the interrupt stays disabled.
    reg(WEFT_REG_IRQ_PENDING) = 1u << 0;
    raise_irq();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::atomic<int> ret{1};
    std::thread waiter([&] { ret = p_->ops->irq_wait(p_, 1, 5000); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(ret.load(), 1);
    // Slot 1's line rises; the ORed interrupt cannot show it (no new count comes).
    reg(WEFT_REG_IRQ_PENDING) = (1u << 0) | (1u << 1);
    auto t0 = std::chrono::steady_clock::now();
    waiter.join();
    EXPECT_EQ(ret.load(), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(2000));
}

TEST_F(BoardTest, IrqWaitTimesOut)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(p_->ops->irq_wait(p_, 0, 100), -ETIMEDOUT);
    EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(95));
    EXPECT_EQ(p_->ops->irq_wait(p_, 0, 0), -ETIMEDOUT);
}

TEST_F(BoardTest, IrqCancelWakesWaiter)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    std::atomic<int> ret{1};
    std::thread waiter([&] { ret = p_->ops->irq_wait(p_, 3, -1); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(ret.load(), 1);
    EXPECT_EQ(p_->ops->irq_cancel(p_, 3), 0);
    waiter.join();
    EXPECT_EQ(ret.load(), -ECANCELED);
    // Consumed: the next wait waits again.
    EXPECT_EQ(p_->ops->irq_wait(p_, 3, 0), -ETIMEDOUT);
}

TEST_F(BoardTest, IrqCancelBeforeWaitCancelsNextWaitOnly)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    EXPECT_EQ(p_->ops->irq_cancel(p_, 1), 0);
    EXPECT_EQ(p_->ops->irq_wait(p_, 0, 0), -ETIMEDOUT); // other slot unaffected
    EXPECT_EQ(p_->ops->irq_wait(p_, 1, 1000), -ECANCELED);
    EXPECT_EQ(p_->ops->irq_wait(p_, 1, 0), -ETIMEDOUT);
}

TEST_F(BoardTest, IrqBadSlotIsEinval)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    // Line kSlots is the OS services' (low here); the one after it is none.
    EXPECT_EQ(p_->ops->irq_wait(p_, WEFT_IRQ_LINE_SVC(kSlots), 0), -ETIMEDOUT);
    EXPECT_EQ(p_->ops->irq_cancel(p_, WEFT_IRQ_LINE_SVC(kSlots)), 0);
    EXPECT_EQ(p_->ops->irq_wait(p_, WEFT_IRQ_LINE_SVC(kSlots), 1000), -ECANCELED);
    EXPECT_EQ(p_->ops->irq_wait(p_, kSlots + 1, 0), -EINVAL);
    EXPECT_EQ(p_->ops->irq_cancel(p_, kSlots + 1), -EINVAL);
    EXPECT_EQ(p_->ops->irq_wait(p_, 1000, 0), -EINVAL);
}

TEST_F(BoardTest, IrqSourceHangupMakesWaitsEio)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    close(irq_w_); // the only writer goes away: the FIFO reports a hang-up
    irq_w_ = -1;
    EXPECT_EQ(p_->ops->irq_wait(p_, 0, 2000), -EIO);
    EXPECT_TRUE(logged("interrupt source")) << all_logs();
    // A high line is still reported.
    reg(WEFT_REG_IRQ_PENDING) = 1u;
    EXPECT_EQ(p_->ops->irq_wait(p_, 0, 0), 0);
}

// ---- slot_reconfigure ------------------------------------------------------------------------

TEST_F(BoardTest, ReconfigureWritesFlagsAndFirmware)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    reg(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL)) = WEFT_CONTROL_IRQ_EN;
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 1, "slot_a.bin"), 0) << all_logs();
    EXPECT_EQ(slurp(mgr_dir_ + "/flags"), "1");
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "slot_a.bin");
    // Stays stopped and is held in reset.
    EXPECT_EQ(reg(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL)),
              WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_RESET);
}

TEST_F(BoardTest, ReconfigureAcceptsPathInsideFirmwareDir)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    ASSERT_EQ(mkdir((fw_dir_ + "/weft").c_str(), 0700), 0);
    put(fw_dir_ + "/weft/sort.bin", "bits");
    std::string full = fw_dir_ + "/weft/sort.bin";
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, full.c_str()), 0) << all_logs();
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "weft/sort.bin");
    // The same file reached through ".." resolves inside the directory too.
    std::string dotted = fw_dir_ + "/weft/../slot_a.bin";
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, dotted.c_str()), 0) << all_logs();
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "slot_a.bin");
}

TEST_F(BoardTest, ReconfigureRunningSlotIsEbusy)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    reg(WEFT_SLOT_REG(2, WEFT_SLOT_REG_CONTROL)) = WEFT_CONTROL_RUN;
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 2, "slot_a.bin"), -EBUSY);
    EXPECT_EQ(slurp(mgr_dir_ + "/flags"), "0\n");
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "");
    EXPECT_EQ(reg(WEFT_SLOT_REG(2, WEFT_SLOT_REG_CONTROL)), WEFT_CONTROL_RUN);
}

TEST_F(BoardTest, ReconfigureMissingImageIsEnoentNamingFile)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, "nothere.bin"), -ENOENT);
    EXPECT_TRUE(logged(fw_dir_ + "/nothere.bin")) << all_logs();
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "");
    std::string full = fw_dir_ + "/gone.bin";
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, full.c_str()), -ENOENT);
}

TEST_F(BoardTest, ReconfigureUnusableImageIsEnoexec)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    put(fw_dir_ + "/empty.bin", "");
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, "empty.bin"), -ENOEXEC);
    ASSERT_EQ(mkdir((fw_dir_ + "/adir").c_str(), 0700), 0);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, "adir"), -ENOEXEC);
}

TEST_F(BoardTest, ReconfigureImageOutsideFirmwareDirIsEinval)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    std::string outside = dir_ + "/elsewhere.bin";
    put(outside, "bits");
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, outside.c_str()), -EINVAL);
    EXPECT_TRUE(logged(outside)) << all_logs();
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "");
}

TEST_F(BoardTest, ReconfigureManagerErrorStateIsEio)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    put(mgr_dir_ + "/state", "write error\n");
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, "slot_a.bin"), -EIO);
    EXPECT_TRUE(logged("write error")) << all_logs();
}

TEST_F(BoardTest, ReconfigureBadArgumentsAreEinval)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, kSlots, "slot_a.bin"), -EINVAL);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, nullptr), -EINVAL);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 0, ""), -EINVAL);
}

} // namespace

// slot_program: a Weft partial bitstream file in the DMA region, checked as the
// reconfiguration port checks it, its payload loaded through the FPGA manager.
class BoardProgramTest : public BoardTest
{
  protected:
    static constexpr uint32_t kPayload = 5000;

    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(BoardTest::SetUp());
        ASSERT_NO_FATAL_FAILURE(open_with_file(kPayload, 1u << 1));
        file_ = static_cast<uint8_t *>(dma_.cpu);
    }

    uint8_t *file_ = nullptr;
};

TEST_F(BoardProgramTest, ThePayloadIsLoadedAsAPartialBitstreamIntoADecoupledSlot)
{
    reg(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL)) = WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN;
    ASSERT_EQ(program(1), 0) << res_.message << all_logs();
    EXPECT_EQ(res_.error, 0u);
    EXPECT_EQ(res_.bytes, WEFT_BITSTREAM_HEADER_BYTES + kPayload);
    EXPECT_EQ(slurp(mgr_dir_ + "/flags"), "1");
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "weft-slot1.bin");
    EXPECT_EQ(slurp(fw_dir_ + "/weft-slot1.bin"), payload());
    // Stopped and held in reset: the static region isolates it until the runtime starts it.
    EXPECT_EQ(reg(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL)),
              WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_RESET);
}

TEST_F(BoardProgramTest, ADamagedFileFailsWithThePortsErrorAndLoadsNothing)
{
    file_[WEFT_BITSTREAM_HEADER_BYTES + 100] ^= 0x08;
    EXPECT_EQ(program(1), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_PAYLOAD_CRC);
    EXPECT_NE(std::string(res_.message).find("payload CRC-32"), std::string::npos) << res_.message;
    file_[WEFT_BITSTREAM_HEADER_BYTES + 100] ^= 0x08;

    EXPECT_EQ(program(1, WEFT_BITSTREAM_HEADER_BYTES + kPayload - 1), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_TRUNCATED);
    EXPECT_EQ(program(1, 100), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_TRUNCATED);

    file_[0] = 'X';
    EXPECT_EQ(program(1), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_MAGIC);
    EXPECT_NE(std::string(res_.message).find("slot 1"), std::string::npos) << res_.message;

    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "");
    EXPECT_EQ(access((fw_dir_ + "/weft-slot1.bin").c_str(), F_OK), -1);
}

TEST_F(BoardProgramTest, AFileBuiltForAnotherSlotIsRefused)
{
    // Real partial bitstreams do not relocate: the file names the slot it was built for.
    EXPECT_EQ(program(2), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_SLOT);
    EXPECT_NE(std::string(res_.message).find("slots 0x2"), std::string::npos) << res_.message;
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "");
}

TEST_F(BoardProgramTest, AFileOutsideTheDmaRegionIsRefused)
{
    res_ = weft_program_result_t{};
    EXPECT_EQ(p_->ops->slot_program(p_, 1, dma_.bus + kDmaSize - 100, 1000, &res_), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_ARGS);
    EXPECT_EQ(p_->ops->slot_program(p_, 1, dma_.bus - 4, 1000, &res_), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_ARGS);
    EXPECT_NE(std::string(res_.message).find("DMA region"), std::string::npos) << res_.message;
}

TEST_F(BoardProgramTest, ItWaitsForTheSlotsMemoryTrafficToEnd)
{
    // A burst still in flight: programming waits for it, then goes on.
    reg(WEFT_SLOT_REG(1, WEFT_SLOT_REG_MEM_ACTIVE)) = 1;
    std::thread ends([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        reg(WEFT_SLOT_REG(1, WEFT_SLOT_REG_MEM_ACTIVE)) = 0;
    });
    EXPECT_EQ(program(1), 0) << res_.message << all_logs();
    ends.join();
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "weft-slot1.bin");
}

TEST_F(BoardProgramTest, TrafficThatNeverEndsIsBusyAndLoadsNothing)
{
    reg(WEFT_SLOT_REG(1, WEFT_SLOT_REG_MEM_ACTIVE)) = 1;
    EXPECT_EQ(program(1), -EBUSY);
    EXPECT_TRUE(logged("memory traffic did not end")) << all_logs();
    EXPECT_EQ(slurp(mgr_dir_ + "/firmware"), "");
}

TEST_F(BoardProgramTest, AManagerInAnErrorStateIsALoadError)
{
    put(mgr_dir_ + "/state", "write error\n");
    EXPECT_EQ(program(1), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_LOAD);
    EXPECT_NE(std::string(res_.message).find("FPGA manager"), std::string::npos) << res_.message;
    EXPECT_TRUE(logged("write error")) << all_logs();
}

TEST_F(BoardProgramTest, BadArgumentsAreEinval)
{
    EXPECT_EQ(program(kSlots), -EINVAL);
    EXPECT_EQ(p_->ops->slot_program(p_, 0, dma_.bus, 1000, nullptr), -EINVAL);
}

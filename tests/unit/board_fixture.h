// The fake board that the board backend's unit tests (board_test.cpp, board_overlay_test.cpp)
// open: a regular file standing in for the UIO register window, a FIFO carrying interrupt
// counts, a second FIFO receiving the re-enable writes, a fake u-dma-buf buffer with its
// sysfs files and a firmware directory holding one image, all in a temporary directory.
// Each test program's fixture derives from FakeBoard and adds the files of the
// reconfiguration method it tests (the FPGA manager's, or a device tree and configfs).
#ifndef WEFT_TESTS_BOARD_FIXTURE_H
#define WEFT_TESTS_BOARD_FIXTURE_H

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "weft/bitstream.h"
#include "weft/board.h"
#include "weft/osif_protocol.h"

namespace weft_board_test
{

constexpr size_t kMapSize = 0x10000;
constexpr size_t kDmaSize = 0x10000;
constexpr unsigned kSlots = 4;

inline int count_fds()
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d == nullptr) {
        return -1;
    }
    while (readdir(d) != nullptr) {
        n++;
    }
    closedir(d);
    return n;
}

inline std::string slurp(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

inline void put(const std::string &path, const std::string &bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes;
}

class FakeBoard : public ::testing::Test
{
  protected:
    // name: the temporary directory's, /tmp/<name>-XXXXXX.
    explicit FakeBoard(std::string name) : name_(std::move(name)) {}

    void SetUp() override
    {
        std::string tmpl = "/tmp/" + name_ + "-XXXXXX";
        ASSERT_NE(mkdtemp(&tmpl[0]), nullptr);
        dir_ = tmpl;
        regs_path_ = dir_ + "/uio0";
        irq_path_ = dir_ + "/irq";
        irq_en_path_ = dir_ + "/irq_enable";
        dma_path_ = dir_ + "/udmabuf0";
        phys_path_ = dir_ + "/phys_addr";
        size_path_ = dir_ + "/size";
        fw_dir_ = dir_ + "/firmware";

        // Register window: ID, VERSION, NUM_SLOTS as the static region reports them.
        int fd = open(regs_path_.c_str(), O_RDWR | O_CREAT, 0600);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(ftruncate(fd, kMapSize), 0);
        void *m = mmap(nullptr, kMapSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        ASSERT_NE(m, MAP_FAILED);
        regs_ = static_cast<volatile uint32_t *>(m);
        reg(WEFT_REG_ID) = WEFT_REG_ID_VALUE;
        reg(WEFT_REG_VERSION) = WEFT_OSIF_VERSION;
        reg(WEFT_REG_NUM_SLOTS) = kSlots;
        for (unsigned s = 0; s < kSlots; s++) {
            reg(WEFT_SLOT_REG(s, WEFT_SLOT_REG_CONTROL)) = WEFT_CONTROL_RESET;
        }

        // Interrupt: the test holds the write end of irq and the read end of irq_enable.
        ASSERT_EQ(mkfifo(irq_path_.c_str(), 0600), 0);
        ASSERT_EQ(mkfifo(irq_en_path_.c_str(), 0600), 0);
        irq_w_ = open(irq_path_.c_str(), O_RDWR | O_CLOEXEC);
        ASSERT_GE(irq_w_, 0);
        irq_en_r_ = open(irq_en_path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        ASSERT_GE(irq_en_r_, 0);

        // DMA buffer and its sysfs files.
        fd = open(dma_path_.c_str(), O_RDWR | O_CREAT, 0600);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(ftruncate(fd, kDmaSize), 0);
        close(fd);
        put(phys_path_, "0x1f000000\n");
        put(size_path_, std::to_string(kDmaSize) + "\n");

        // Firmware directory.
        ASSERT_EQ(mkdir(fw_dir_.c_str(), 0700), 0);
        put(fw_dir_ + "/slot_a.bin", "partial bitstream bytes");

        cfg_ = weft_board_config_t{};
        cfg_.uio_path = regs_path_.c_str();
        cfg_.uio_map_size = kMapSize;
        cfg_.irq_path = irq_path_.c_str();
        cfg_.irq_enable_path = irq_en_path_.c_str();
        cfg_.dma_path = dma_path_.c_str();
        cfg_.dma_phys_addr_path = phys_path_.c_str();
        cfg_.dma_size_path = size_path_.c_str();
        cfg_.firmware_dir = fw_dir_.c_str();
        cfg_.log = &FakeBoard::log_cb;
        cfg_.log_arg = this;
    }

    void TearDown() override
    {
        if (p_ != nullptr) {
            close_board();
        }
        if (regs_ != nullptr) {
            munmap(const_cast<uint32_t *>(regs_), kMapSize);
        }
        if (irq_w_ >= 0) {
            close(irq_w_);
        }
        if (irq_en_r_ >= 0) {
            close(irq_en_r_);
        }
        if (!dir_.empty()) {
            std::string cmd = "rm -rf '" + dir_ + "'";
            (void)!system(cmd.c_str());
        }
    }

    static void log_cb(void *arg, const char *msg)
    {
        auto *self = static_cast<FakeBoard *>(arg);
        std::lock_guard<std::mutex> g(self->log_lock_);
        self->logs_.push_back(msg);
    }

    bool logged(const std::string &needle)
    {
        std::lock_guard<std::mutex> g(log_lock_);
        for (const auto &l : logs_) {
            if (l.find(needle) != std::string::npos) {
                return true;
            }
        }
        return false;
    }

    std::string all_logs()
    {
        std::lock_guard<std::mutex> g(log_lock_);
        std::string s;
        for (const auto &l : logs_) {
            s += l + "\n";
        }
        return s;
    }

    volatile uint32_t &reg(uint32_t offset) { return regs_[offset / 4]; }

    int open_board() { return weft_board_open(&p_, &cfg_); }

    void close_board()
    {
        p_->ops->close(p_);
        p_ = nullptr;
    }

    // Open, and put a Weft partial bitstream file at the start of the DMA region: a payload
    // of payload_size bytes, built for the slots of slot_mask.
    void open_with_file(uint32_t payload_size, uint32_t slot_mask)
    {
        ASSERT_EQ(open_board(), 0) << all_logs();
        ASSERT_EQ(p_->ops->dma_region(p_, &dma_), 0);
        weft_bitstream_info_t info{};
        info.payload_size = payload_size;
        info.slot_mask = slot_mask;
        std::strcpy(info.partition, "big");
        std::strcpy(info.image, "hwt_task_fib.so");
        info.image_sha256[0] = 0x42;
        ASSERT_EQ(weft_bitstream_build(&info, dma_.cpu), 0);
        payload_size_ = payload_size;
    }

    // slot_program with the file open_with_file put, the first size bytes of it.
    int program(unsigned slot, size_t size)
    {
        res_ = weft_program_result_t{};
        return p_->ops->slot_program(p_, slot, dma_.bus, size, &res_);
    }

    // The same with the whole file.
    int program(unsigned slot)
    {
        return program(slot, WEFT_BITSTREAM_HEADER_BYTES + payload_size_);
    }

    // The file's payload, what the FPGA should be loaded with.
    std::string payload() const
    {
        return std::string(static_cast<const char *>(dma_.cpu) + WEFT_BITSTREAM_HEADER_BYTES,
                           payload_size_);
    }

    std::string dir_, regs_path_, irq_path_, irq_en_path_, dma_path_, phys_path_, size_path_,
        fw_dir_;
    volatile uint32_t *regs_ = nullptr;
    int irq_w_ = -1;
    int irq_en_r_ = -1;
    weft_board_config_t cfg_{};
    weft_platform_t *p_ = nullptr;
    weft_dma_region_t dma_{};
    uint32_t payload_size_ = 0;
    weft_program_result_t res_{};
    std::mutex log_lock_;
    std::vector<std::string> logs_;

  private:
    const std::string name_;
};

} // namespace weft_board_test

#endif // WEFT_TESTS_BOARD_FIXTURE_H

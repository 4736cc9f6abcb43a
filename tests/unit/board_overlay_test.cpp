// Unit tests of the board backend's mainline reconfiguration method: device-tree overlays
// on FPGA regions, applied through configfs (platform/board/board_fpga_overlay.c), against
// a fake board (board_fixture.h) and a fake configfs with a fake kernel behind it.
//
// configfs gives a directory made under overlays/ its attribute files at once, takes them
// away again at rmdir, and applies an overlay before the close() of its "dtbo" returns. A
// plain directory does none of that, so this program interposes mkdir() and rmdir(): its
// own definitions come before the C library's for the backend it links. Under the fake
// overlays directory mkdir also makes "dtbo" and "status", and rmdir removes them and
// drops the overlay; anywhere else both only do what the system call does.
//
// With the configfs patch's protocol "status" is a FIFO served by a thread of the fake
// kernel: when the backend opens it to read, the thread parses what "dtbo" holds with
// libfdt and applies the overlay if the kernel would (it targets a known FPGA region that
// no other overlay holds, names a firmware file that exists, asks for partial
// reconfiguration), then answers "applied" or "unapplied". The answer is decided after
// the blob was written and before the reader sees it, as with a kernel. With dtbocfg's
// protocol ("0", then "1" written to apply) "status" is a plain file.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <libfdt.h>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "board_fixture.h"
#include "weft/bitstream.h"
#include "weft/board.h"
#include "weft/osif_protocol.h"

using namespace weft_board_test;

namespace
{

std::vector<std::string> list_dir(const std::string &path)
{
    std::vector<std::string> names;
    DIR *d = opendir(path.c_str());
    if (d == nullptr) {
        return names;
    }
    while (struct dirent *e = readdir(d)) {
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) {
            names.push_back(e->d_name);
        }
    }
    closedir(d);
    return names;
}

bool exists(const std::string &path)
{
    return access(path.c_str(), F_OK) == 0;
}

// ---- the fake configfs and kernel ----------------------------------------------------------

// What an overlay blob holds, read strictly: one fragment with a target-path and an
// __overlay__ of exactly firmware-name and an empty partial-fpga-config.
struct Overlay {
    bool ok = false;
    std::string why; // when not ok
    std::string target;
    std::string firmware;
};

std::string string_prop(const void *fdt, int node, const char *name)
{
    int len = 0;
    const char *v = static_cast<const char *>(fdt_getprop(fdt, node, name, &len));
    if (v == nullptr || len < 1 || v[len - 1] != '\0' || std::strlen(v) + 1 != (size_t)len) {
        return "";
    }
    return v;
}

int count_props(const void *fdt, int node)
{
    int n = 0;
    int off;
    fdt_for_each_property_offset(off, fdt, node)
    {
        n++;
    }
    return n;
}

int count_subnodes(const void *fdt, int node)
{
    int n = 0;
    int off;
    fdt_for_each_subnode(off, fdt, node)
    {
        n++;
    }
    return n;
}

Overlay parse_overlay(const std::string &blob)
{
    Overlay o;
    const void *fdt = blob.data();
    if (blob.size() < sizeof(struct fdt_header) || fdt_check_header(fdt) != 0 ||
        fdt_totalsize(fdt) != blob.size()) {
        o.why = "not a flattened device tree of " + std::to_string(blob.size()) + " bytes";
        return o;
    }
    int frag = fdt_path_offset(fdt, "/fragment@0");
    int ov = frag >= 0 ? fdt_subnode_offset(fdt, frag, "__overlay__") : -1;
    if (count_subnodes(fdt, 0) != 1 || count_props(fdt, 0) != 0 || frag < 0 || ov < 0) {
        o.why = "not one fragment@0 with an __overlay__";
        return o;
    }
    o.target = string_prop(fdt, frag, "target-path");
    o.firmware = string_prop(fdt, ov, "firmware-name");
    int partial_len = -1;
    bool partial = fdt_getprop(fdt, ov, "partial-fpga-config", &partial_len) != nullptr;
    if (o.target.empty() || count_props(fdt, frag) != 1 || count_subnodes(fdt, frag) != 1) {
        o.why = "fragment@0 must hold a target-path and __overlay__ only";
    } else if (o.firmware.empty() || !partial || partial_len != 0 || count_props(fdt, ov) != 2 ||
               count_subnodes(fdt, ov) != 0) {
        o.why = "__overlay__ must hold firmware-name and an empty partial-fpga-config only";
    } else {
        o.ok = true;
    }
    return o;
}

class FakeConfigfs
{
  public:
    enum class Protocol { kConfigfsPatch, kDtbocfg };

    FakeConfigfs(std::string root, std::string fw_dir, std::set<std::string> regions,
                 Protocol protocol)
        : root_(std::move(root)), fw_dir_(std::move(fw_dir)), regions_(std::move(regions)),
          protocol_(protocol)
    {
    }
    ~FakeConfigfs() { shutdown(); }

    // The item name when path is an item directly under the overlays directory.
    bool item_of(const char *path, std::string *name) const
    {
        std::string p(path);
        if (p.compare(0, root_.size() + 1, root_ + "/") != 0) {
            return false;
        }
        *name = p.substr(root_.size() + 1);
        return !name->empty() && name->find('/') == std::string::npos;
    }

    // configfs's make_item, after the directory was made.
    void make_item(const std::string &name)
    {
        auto item = std::make_unique<Item>();
        item->name = name;
        item->dir = root_ + "/" + name;
        put(item->dir + "/dtbo", "");
        std::lock_guard<std::mutex> g(mu_);
        events_.push_back("mkdir " + name);
        if (protocol_ == Protocol::kDtbocfg) {
            put(item->dir + "/status", "0\n");
        } else {
            mkfifo((item->dir + "/status").c_str(), 0644);
            Item *raw = item.get();
            item->server = std::thread([this, raw] { serve(raw); });
        }
        items_[name] = std::move(item);
    }

    // configfs's drop_item, before the directory goes: the overlay is removed.
    void drop_item(const std::string &name)
    {
        Item *item;
        {
            std::lock_guard<std::mutex> g(mu_);
            auto it = items_.find(name);
            if (it == items_.end()) {
                return;
            }
            item = it->second.get();
            item->dropping = true;
        }
        if (item->server.joinable()) {
            // A reader lets the server's open() return; it sees dropping and ends.
            int fd = open((item->dir + "/status").c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
            item->server.join();
            if (fd >= 0) {
                close(fd);
            }
        }
        std::lock_guard<std::mutex> g(mu_);
        blobs_[name] = slurp(item->dir + "/dtbo");
        if (item->applied) {
            events_.push_back("remove " + name);
        }
        events_.push_back("rmdir " + name);
        unlink((item->dir + "/dtbo").c_str());
        unlink((item->dir + "/status").c_str());
        items_.erase(name);
    }

    // Drop every item (the test's end).
    void shutdown()
    {
        std::vector<std::string> names;
        {
            std::lock_guard<std::mutex> g(mu_);
            for (const auto &kv : items_) {
                names.push_back(kv.first);
            }
        }
        for (const auto &n : names) {
            drop_item(n);
        }
    }

    // The kernel refuses overlays that load this firmware (a load error).
    void refuse(const std::string &firmware)
    {
        std::lock_guard<std::mutex> g(mu_);
        refused_.insert(firmware);
    }
    void refuse_nothing()
    {
        std::lock_guard<std::mutex> g(mu_);
        refused_.clear();
    }

    std::vector<std::string> events()
    {
        std::lock_guard<std::mutex> g(mu_);
        return events_;
    }
    void clear_events()
    {
        std::lock_guard<std::mutex> g(mu_);
        events_.clear();
    }

    // The item whose overlay holds region, or "".
    std::string holder(const std::string &region)
    {
        std::lock_guard<std::mutex> g(mu_);
        for (const auto &kv : items_) {
            if (kv.second->applied && kv.second->region == region) {
                return kv.first;
            }
        }
        return "";
    }

    // What an item's dtbo held when it was removed.
    std::string removed_blob(const std::string &name)
    {
        std::lock_guard<std::mutex> g(mu_);
        return blobs_[name];
    }

  private:
    struct Item {
        std::string name;
        std::string dir;
        std::thread server;
        std::atomic<bool> dropping{false};
        bool evaluated = false; // under mu_
        bool applied = false;
        std::string region;
    };

    // Answer every read of the item's status (one open, read to end of file, close); the
    // first one applies the overlay.
    void serve(Item *item)
    {
        const std::string status = item->dir + "/status";
        for (;;) {
            int fd = open(status.c_str(), O_WRONLY | O_CLOEXEC); // waits for a reader
            if (fd < 0 && errno == EINTR) {
                continue;
            }
            if (fd < 0 || item->dropping) {
                if (fd >= 0) {
                    close(fd);
                }
                return;
            }
            std::string answer;
            {
                std::lock_guard<std::mutex> g(mu_);
                if (!item->evaluated) {
                    item->evaluated = true;
                    apply(*item);
                }
                answer = item->applied ? "applied\n" : "unapplied\n";
            }
            (void)!write(fd, answer.data(), answer.size());
            // The next reader gets a FIFO of its own, made before this one can see its end
            // of file: reopening this one while its reader still holds it would answer
            // that reader twice.
            unlink(status.c_str());
            mkfifo(status.c_str(), 0644);
            close(fd);
        }
    }

    // of_overlay_fdt_apply and of-fpga-region's checks, in short (under mu_).
    void apply(Item &item)
    {
        Overlay o = parse_overlay(slurp(item.dir + "/dtbo"));
        std::string why = o.why;
        if (o.ok && regions_.count(o.target) == 0) {
            why = "target " + o.target + " is not an FPGA region";
        }
        for (const auto &kv : items_) {
            if (o.ok && why.empty() && kv.second->applied && kv.second->region == o.target) {
                why = "region " + o.target + " already has an overlay (" + kv.first + ")";
            }
        }
        if (o.ok && why.empty() && !exists(fw_dir_ + "/" + o.firmware)) {
            why = "no firmware " + o.firmware;
        }
        if (o.ok && why.empty() && refused_.count(o.firmware) != 0) {
            why = "the FPGA manager failed to load " + o.firmware;
        }
        if (!why.empty()) {
            events_.push_back("refuse " + item.name + ": " + why);
            return;
        }
        item.applied = true;
        item.region = o.target;
        events_.push_back("apply " + item.name + " " + o.target + " " + o.firmware);
    }

    const std::string root_;
    const std::string fw_dir_;
    const std::set<std::string> regions_;
    const Protocol protocol_;
    std::mutex mu_;
    std::map<std::string, std::unique_ptr<Item>> items_;
    std::vector<std::string> events_;
    std::set<std::string> refused_;
    std::map<std::string, std::string> blobs_;
};

std::atomic<FakeConfigfs *> g_fake{nullptr};

} // namespace

// The interposed calls: the system call, plus configfs's item semantics under the fake
// overlays directory.
extern "C" int mkdir(const char *path, mode_t mode) noexcept
{
    long r = syscall(SYS_mkdirat, AT_FDCWD, path, mode);
    FakeConfigfs *fake = g_fake.load();
    std::string name;
    if (r == 0 && fake != nullptr && fake->item_of(path, &name)) {
        fake->make_item(name);
    }
    return (int)r;
}

extern "C" int rmdir(const char *path) noexcept
{
    FakeConfigfs *fake = g_fake.load();
    std::string name;
    if (fake != nullptr && fake->item_of(path, &name)) {
        fake->drop_item(name);
    }
    return (int)syscall(SYS_unlinkat, AT_FDCWD, path, AT_REMOVEDIR);
}

namespace
{

constexpr uint32_t kPayload = 3000;

// The fake board with the overlay method's files: a live device tree with an FPGA region
// per slot, and the fake configfs overlays directory.
class BoardOverlayTest : public FakeBoard
{
  protected:
    BoardOverlayTest() : FakeBoard("weft-board-overlay-test") {}

    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(FakeBoard::SetUp());
        reg(WEFT_REG_CLOCK_MHZ) = 100;
        dt_dir_ = dir_ + "/devicetree";
        overlays_ = dir_ + "/config/device-tree/overlays";

        // The live device tree: the full-FPGA region with one PR region per slot, and a
        // node that is not a region. Property files hold the raw value, NUL included.
        const std::string region_compat("fpga-region\0", 12);
        ASSERT_EQ(mkdirs(dt_dir_ + "/fpga-full"), 0);
        put(dt_dir_ + "/fpga-full/compatible", region_compat);
        for (unsigned s = 0; s < kSlots; s++) {
            std::string region = "/fpga-full/fpga-region-" + std::to_string(s);
            ASSERT_EQ(mkdirs(dt_dir_ + region), 0);
            put(dt_dir_ + region + "/compatible", region_compat);
            regions_.push_back(region);
        }
        ASSERT_EQ(mkdirs(dt_dir_ + "/axi"), 0);
        put(dt_dir_ + "/axi/compatible", std::string("simple-bus\0", 11));

        ASSERT_EQ(mkdirs(overlays_), 0);
        use_protocol(FakeConfigfs::Protocol::kConfigfsPatch);

        // No fpga_mgr_dir: the overlay method does not use the manager's sysfs files.
        cfg_.reconf_method = WEFT_BOARD_RECONF_OVERLAY;
        cfg_.overlays_dir = overlays_.c_str();
        cfg_.devicetree_dir = dt_dir_.c_str();
        for (unsigned s = 0; s < kSlots; s++) {
            region_ptrs_[s] = regions_[s].c_str();
        }
        cfg_.fpga_regions = region_ptrs_;
        cfg_.num_fpga_regions = kSlots;
    }

    void TearDown() override
    {
        // The backend removes its overlays at close, through the fake configfs.
        if (p_ != nullptr) {
            close_board();
        }
        drop_fake();
        FakeBoard::TearDown();
    }

    static int mkdirs(const std::string &path)
    {
        std::error_code ec;
        std::filesystem::create_directories(path, ec);
        return ec ? -1 : 0;
    }

    void use_protocol(FakeConfigfs::Protocol protocol)
    {
        drop_fake();
        fake_ = std::make_unique<FakeConfigfs>(
            overlays_, fw_dir_, std::set<std::string>(regions_.begin(), regions_.end()), protocol);
        g_fake = fake_.get();
    }

    void drop_fake()
    {
        if (fake_ != nullptr) {
            fake_->shutdown();
            g_fake = nullptr;
            fake_.reset();
        }
    }

    // Open, and put a partial bitstream file for slots 1 and 2 in the DMA region.
    void open_with_file() { FakeBoard::open_with_file(kPayload, (1u << 1) | (1u << 2)); }

    std::string item(unsigned slot) const
    {
        return overlays_ + "/weft-slot" + std::to_string(slot);
    }

    std::string dt_dir_, overlays_;
    std::vector<std::string> regions_;
    const char *region_ptrs_[kSlots] = {};
    std::unique_ptr<FakeConfigfs> fake_;
};

// ---- slot_program ----------------------------------------------------------------------------

TEST_F(BoardOverlayTest, TwoSlotsAreProgrammedEachByAnOverlayOnItsRegion)
{
    open_with_file();
    reg(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL)) = WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN;
    ASSERT_EQ(program(1), 0) << res_.message << all_logs();
    EXPECT_EQ(res_.error, 0u);
    EXPECT_EQ(res_.bytes, WEFT_BITSTREAM_HEADER_BYTES + kPayload);
    ASSERT_EQ(program(2), 0) << res_.message << all_logs();

    for (unsigned s : {1u, 2u}) {
        Overlay o = parse_overlay(slurp(item(s) + "/dtbo"));
        ASSERT_TRUE(o.ok) << "slot " << s << ": " << o.why;
        EXPECT_EQ(o.target, "/fpga-full/fpga-region-" + std::to_string(s));
        EXPECT_EQ(o.firmware, "weft-slot" + std::to_string(s) + ".bin");
        EXPECT_EQ(slurp(fw_dir_ + "/weft-slot" + std::to_string(s) + ".bin"), payload());
        EXPECT_EQ(fake_->holder(regions_[s]), "weft-slot" + std::to_string(s));
    }
    EXPECT_EQ(fake_->holder(regions_[0]), "");
    // Decoupled and held in reset, as with the FPGA manager's files.
    EXPECT_EQ(reg(WEFT_SLOT_REG(1, WEFT_SLOT_REG_CONTROL)),
              WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_RESET);
    EXPECT_EQ(fake_->events(),
              (std::vector<std::string>{
                  "mkdir weft-slot1", "apply weft-slot1 /fpga-full/fpga-region-1 weft-slot1.bin",
                  "mkdir weft-slot2", "apply weft-slot2 /fpga-full/fpga-region-2 weft-slot2.bin"}));
    EXPECT_EQ(all_logs(), "");
}

TEST_F(BoardOverlayTest, ReprogrammingASlotRemovesItsOverlayFirst)
{
    open_with_file();
    ASSERT_EQ(program(1), 0) << res_.message << all_logs();
    // The fake kernel refuses a second overlay on a region, as of-fpga-region does.
    ASSERT_EQ(program(1), 0) << res_.message << all_logs();
    EXPECT_EQ(fake_->events(),
              (std::vector<std::string>{
                  "mkdir weft-slot1", "apply weft-slot1 /fpga-full/fpga-region-1 weft-slot1.bin",
                  "remove weft-slot1", "rmdir weft-slot1", "mkdir weft-slot1",
                  "apply weft-slot1 /fpga-full/fpga-region-1 weft-slot1.bin"}));
    EXPECT_EQ(fake_->holder(regions_[1]), "weft-slot1");
}

TEST_F(BoardOverlayTest, AnOverlayTheKernelRefusesIsALoadErrorAndLeavesTheSlotUsable)
{
    open_with_file();
    ASSERT_EQ(program(1), 0) << res_.message << all_logs();
    fake_->refuse("weft-slot1.bin");
    EXPECT_EQ(program(1), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_LOAD);
    EXPECT_NE(std::string(res_.message).find("overlay"), std::string::npos) << res_.message;
    EXPECT_TRUE(logged(item(1) + "/status: reads \"unapplied\"")) << all_logs();
    EXPECT_TRUE(logged("/fpga-full/fpga-region-1")) << all_logs();
    // The old overlay went first and the refused one is gone: the slot is empty.
    EXPECT_FALSE(exists(item(1)));
    EXPECT_EQ(fake_->holder(regions_[1]), "");

    // The next programming works.
    fake_->refuse_nothing();
    ASSERT_EQ(program(1), 0) << res_.message << all_logs();
    EXPECT_EQ(fake_->holder(regions_[1]), "weft-slot1");
}

TEST_F(BoardOverlayTest, ADirectoryWithoutOverlayAttributesIsALoadErrorNamingTheFile)
{
    // A plain directory where configfs belongs: the item made there has no "dtbo".
    std::string plain = dir_ + "/plain";
    ASSERT_EQ(mkdirs(plain), 0);
    cfg_.overlays_dir = plain.c_str();
    open_with_file();
    EXPECT_EQ(program(1), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_LOAD);
    EXPECT_TRUE(logged(plain + "/weft-slot1/dtbo")) << all_logs();
    EXPECT_FALSE(exists(plain + "/weft-slot1")); // taken away again
}

TEST_F(BoardOverlayTest, AFileThatFailsItsChecksMakesNoOverlay)
{
    open_with_file();
    static_cast<uint8_t *>(dma_.cpu)[WEFT_BITSTREAM_HEADER_BYTES + 7] ^= 0x10;
    EXPECT_EQ(program(1), -EIO);
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_PAYLOAD_CRC);
    static_cast<uint8_t *>(dma_.cpu)[WEFT_BITSTREAM_HEADER_BYTES + 7] ^= 0x10;
    EXPECT_EQ(program(3), -EIO); // built for slots 1 and 2
    EXPECT_EQ(res_.error, WEFT_FRI_ERR_SLOT);
    EXPECT_TRUE(fake_->events().empty());
    EXPECT_TRUE(list_dir(overlays_).empty());
}

// ---- slot_reconfigure ------------------------------------------------------------------------

TEST_F(BoardOverlayTest, ReconfigureLoadsAnImageOfTheFirmwareDirectoryByOverlay)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    reg(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL)) = WEFT_CONTROL_IRQ_EN;
    ASSERT_EQ(p_->ops->slot_reconfigure(p_, 0, "slot_a.bin"), 0) << all_logs();
    Overlay o = parse_overlay(slurp(item(0) + "/dtbo"));
    ASSERT_TRUE(o.ok) << o.why;
    EXPECT_EQ(o.target, "/fpga-full/fpga-region-0");
    EXPECT_EQ(o.firmware, "slot_a.bin");
    EXPECT_EQ(reg(WEFT_SLOT_REG(0, WEFT_SLOT_REG_CONTROL)),
              WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_RESET);

    // A path inside the firmware directory becomes the name relative to it.
    ASSERT_EQ(mkdirs(fw_dir_ + "/weft"), 0);
    put(fw_dir_ + "/weft/sort.bin", "bits");
    std::string full = fw_dir_ + "/weft/sort.bin";
    ASSERT_EQ(p_->ops->slot_reconfigure(p_, 0, full.c_str()), 0) << all_logs();
    EXPECT_EQ(parse_overlay(slurp(item(0) + "/dtbo")).firmware, "weft/sort.bin");
    EXPECT_EQ(fake_->holder(regions_[0]), "weft-slot0");

    // A running slot or a missing image: no overlay is touched.
    fake_->clear_events();
    reg(WEFT_SLOT_REG(3, WEFT_SLOT_REG_CONTROL)) = WEFT_CONTROL_RUN;
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 3, "slot_a.bin"), -EBUSY);
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 2, "nothere.bin"), -ENOENT);
    EXPECT_TRUE(fake_->events().empty());
    EXPECT_EQ(list_dir(overlays_), std::vector<std::string>{"weft-slot0"});
}

TEST_F(BoardOverlayTest, ReconfigureReturnsTheRefusal)
{
    ASSERT_EQ(open_board(), 0) << all_logs();
    fake_->refuse("slot_a.bin");
    EXPECT_EQ(p_->ops->slot_reconfigure(p_, 2, "slot_a.bin"), -EIO);
    EXPECT_TRUE(logged("unapplied")) << all_logs();
    EXPECT_FALSE(exists(item(2)));
}

TEST_F(BoardOverlayTest, AnOverlayAnEarlierRunLeftIsReplaced)
{
    // A first run applies an overlay to slot 0; keep its blob.
    ASSERT_EQ(open_board(), 0) << all_logs();
    ASSERT_EQ(p_->ops->slot_reconfigure(p_, 0, "slot_a.bin"), 0) << all_logs();
    std::string blob = slurp(item(0) + "/dtbo");
    close_board();
    EXPECT_EQ(fake_->holder(regions_[0]), "");

    // Put it back as a run that ended without closing would have left it.
    ASSERT_EQ(mkdir(item(0).c_str(), 0755), 0);
    put(item(0) + "/dtbo", blob);
    EXPECT_EQ(slurp(item(0) + "/status"), "applied\n");
    ASSERT_EQ(fake_->holder(regions_[0]), "weft-slot0");

    logs_.clear();
    fake_->clear_events();
    ASSERT_EQ(open_board(), 0) << all_logs();
    ASSERT_EQ(p_->ops->slot_reconfigure(p_, 0, "slot_a.bin"), 0) << all_logs();
    EXPECT_TRUE(logged("that an earlier run left")) << all_logs();
    EXPECT_EQ(fake_->events(),
              (std::vector<std::string>{"remove weft-slot0", "rmdir weft-slot0", "mkdir weft-slot0",
                                        "apply weft-slot0 /fpga-full/fpga-region-0 slot_a.bin"}));
}

// ---- dtbocfg's status protocol ---------------------------------------------------------------

TEST_F(BoardOverlayTest, WithDtbocfgTheOverlayIsAppliedByWritingOneToStatus)
{
    use_protocol(FakeConfigfs::Protocol::kDtbocfg);
    open_with_file();
    ASSERT_EQ(program(2), 0) << res_.message << all_logs();
    EXPECT_EQ(slurp(item(2) + "/status"), "1");
    Overlay o = parse_overlay(slurp(item(2) + "/dtbo"));
    ASSERT_TRUE(o.ok) << o.why;
    EXPECT_EQ(o.target, "/fpga-full/fpga-region-2");
    close_board();
    EXPECT_TRUE(list_dir(overlays_).empty());
}

// ---- close -----------------------------------------------------------------------------------

TEST_F(BoardOverlayTest, CloseRemovesTheOverlaysItApplied)
{
    open_with_file();
    ASSERT_EQ(program(1), 0) << res_.message << all_logs();
    ASSERT_EQ(program(2), 0) << res_.message << all_logs();
    ASSERT_EQ(list_dir(overlays_).size(), 2u);
    // Someone else's overlay stays.
    ASSERT_EQ(mkdir((overlays_ + "/other").c_str(), 0755), 0);
    fake_->clear_events();
    close_board();
    EXPECT_EQ(list_dir(overlays_), std::vector<std::string>{"other"});
    EXPECT_EQ(fake_->holder(regions_[1]), "");
    EXPECT_EQ(fake_->holder(regions_[2]), "");
    auto ev = fake_->events();
    EXPECT_EQ(std::count(ev.begin(), ev.end(), "remove weft-slot1"), 1) << ev.size();
    EXPECT_EQ(std::count(ev.begin(), ev.end(), "remove weft-slot2"), 1) << ev.size();
    // What was removed was the overlay of that slot.
    EXPECT_EQ(parse_overlay(fake_->removed_blob("weft-slot2")).target, "/fpga-full/fpga-region-2");
}

TEST_F(BoardOverlayTest, ProgrammingAndClosingLeakNoFd)
{
    int before = count_fds();
    open_with_file();
    ASSERT_EQ(program(1), 0) << res_.message << all_logs();
    fake_->refuse("weft-slot2.bin");
    EXPECT_EQ(program(2), -EIO);
    ASSERT_EQ(program(1), 0) << res_.message << all_logs();
    close_board();
    EXPECT_EQ(count_fds(), before);
}

// ---- weft_board_open -------------------------------------------------------------------------

TEST_F(BoardOverlayTest, OpenWithoutTheOverlayDirectoryNamesIt)
{
    std::string missing = dir_ + "/config/device-tree/nothere";
    cfg_.overlays_dir = missing.c_str();
    int before = count_fds();
    EXPECT_EQ(open_board(), -ENOENT);
    EXPECT_EQ(p_, nullptr);
    EXPECT_TRUE(logged(missing + ": device-tree overlay directory")) << all_logs();
    EXPECT_TRUE(logged("configfs")) << all_logs();
    EXPECT_EQ(count_fds(), before);

    std::string file = fw_dir_ + "/slot_a.bin";
    cfg_.overlays_dir = file.c_str();
    EXPECT_EQ(open_board(), -ENOTDIR);
}

TEST_F(BoardOverlayTest, OpenWithoutARegionForEverySlotIsEinval)
{
    cfg_.num_fpga_regions = kSlots - 1;
    EXPECT_EQ(open_board(), -EINVAL);
    EXPECT_TRUE(logged("slot 3 has no FPGA region")) << all_logs();

    cfg_.num_fpga_regions = kSlots;
    region_ptrs_[1] = nullptr;
    EXPECT_EQ(open_board(), -EINVAL);
    EXPECT_TRUE(logged("slot 1 has no FPGA region")) << all_logs();
    region_ptrs_[1] = "";
    logs_.clear();
    EXPECT_EQ(open_board(), -EINVAL);
    EXPECT_TRUE(logged("slot 1 has no FPGA region")) << all_logs();

    cfg_.fpga_regions = nullptr;
    logs_.clear();
    EXPECT_EQ(open_board(), -EINVAL);
    EXPECT_TRUE(logged("slot 0 has no FPGA region")) << all_logs();
    EXPECT_EQ(p_, nullptr);
}

TEST_F(BoardOverlayTest, OpenChecksEachRegionPathAgainstTheLiveTree)
{
    const struct {
        const char *path;
        int ret;
        const char *says;
    } bad[] = {
        {"&pr2", -EINVAL, "not an absolute device-tree node path"},
        {"fpga-full/fpga-region-2", -EINVAL, "not an absolute device-tree node path"},
        {"/fpga-full/../fpga-region-2", -EINVAL, "not an absolute device-tree node path"},
        {"/fpga-full//fpga-region-2", -EINVAL, "not an absolute device-tree node path"},
        {"/fpga-full/fpga-region-2/", -EINVAL, "not an absolute device-tree node path"},
        {"/fpga-full/fpga region", -EINVAL, "not an absolute device-tree node path"},
        {"/", -EINVAL, "not an absolute device-tree node path"},
        {"/fpga-full/fpga-region-9", -ENOENT, "is not in the live device tree"},
        {"/axi", -EINVAL, "is not an FPGA region"},
        {"/fpga-full/fpga-region-2/compatible", -EINVAL, "a property, not a node"},
        {"/fpga-full/fpga-region-1", -EINVAL, "slots 1 and 2 both name"},
    };
    for (const auto &b : bad) {
        region_ptrs_[2] = b.path;
        logs_.clear();
        EXPECT_EQ(open_board(), b.ret) << b.path;
        EXPECT_TRUE(logged(b.says)) << b.path << ": " << all_logs();
        EXPECT_EQ(p_, nullptr);
    }
    region_ptrs_[2] = regions_[2].c_str();
    EXPECT_EQ(open_board(), 0) << all_logs();
}

TEST_F(BoardOverlayTest, OpenRefusesAnUnknownMethod)
{
    cfg_.reconf_method = static_cast<weft_board_reconf_method_t>(7);
    EXPECT_EQ(open_board(), -EINVAL);
    EXPECT_TRUE(logged("reconf_method 7")) << all_logs();
}

TEST_F(BoardOverlayTest, TheManagersSysfsFilesStayTheDefault)
{
    // A zeroed method is the FPGA manager's files: here there is no such manager.
    std::string mgr = dir_ + "/fpga0";
    cfg_.reconf_method = WEFT_BOARD_RECONF_FPGA_MGR;
    cfg_.fpga_mgr_dir = mgr.c_str();
    EXPECT_EQ(open_board(), -ENOENT);
    EXPECT_TRUE(logged(mgr + "/flags")) << all_logs();
}

} // namespace

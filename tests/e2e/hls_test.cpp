// HLS-style accelerators in slots (docs/hls.md): the runtime writes their arguments to
// the ap_ctrl_hs control block in the slot's ACC window, starts them and ends the thread
// at ap_done; their AXI4 master reaches memory through the slot's windows. Results are
// checked against the software references of apps/hls.
#include <cstring>
#include <random>
#include <vector>

#include "e2e_fixture.h"

extern "C" {
#include "hls_reference.h"
}

namespace
{

class Hls : public Fabric
{
  protected:
    void SetUp() override
    {
        Fabric::SetUp();
        void *cpu = nullptr;
        ASSERT_EQ(weft_mem_alloc(w_, kBytes, &cpu, &bus_), 0);
        mem_ = static_cast<uint32_t *>(cpu);
        std::mt19937 rng(7);
        for (uint32_t i = 0; i < kBytes / 4; i++)
            mem_[i] = rng();
    }

    // Words at word offset off of the buffer, and their bus address.
    uint32_t *At(size_t off) { return mem_ + off; }
    uint64_t Bus(size_t off) const { return bus_ + 4 * off; }

    // Run image in slot with args, granted the whole buffer (read-write) unless told;
    // the exit status.
    weft_exit_status_t Run(const char *image, unsigned slot, std::vector<uint64_t> args,
                           std::vector<weft_mem_window_t> windows = {})
    {
        std::string path = Image(image);
        if (windows.empty())
            windows.push_back({bus_, kBytes, WEFT_MEM_RW});
        weft_hwthread_attr_t a{};
        a.name = image;
        a.image = path.c_str();
        a.slot = slot;
        a.windows = windows.data();
        a.num_windows = static_cast<unsigned>(windows.size());
        a.accelerator = 1;
        a.acc_args = args.data();
        a.num_acc_args = static_cast<unsigned>(args.size());
        weft_hwthread_t *t = nullptr;
        weft_exit_status_t st{};
        EXPECT_EQ(weft_hwthread_create(w_, &t, &a), 0);
        if (!t)
            return st;
        EXPECT_EQ(weft_hwthread_timedjoin(t, &st, 60000), 0);
        weft_hwthread_destroy(t);
        return st;
    }

    static constexpr uint32_t kBytes = 64 * 1024;
    uint64_t bus_ = 0;
    uint32_t *mem_ = nullptr;
};

TEST_F(Hls, VectorSumMatchesTheReference)
{
    // 1000 words: chunks of 64 and a short last one, bursts across a 4 KiB boundary.
    const size_t n = 1000, a = 0, b = 1100, c = 2300;
    std::vector<uint32_t> want(n);
    hls_ref_vecsum(At(a), At(b), want.data(), n);
    weft_exit_status_t st = Run("hwt_hls_vecsum", 0, {Bus(a), Bus(b), Bus(c), n});
    ASSERT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(std::memcmp(At(c), want.data(), 4 * n), 0);
}

TEST_F(Hls, FirFilterMatchesTheReference)
{
    const size_t n = 300, taps = 11, x = 0, y = 4000, h = 8000;
    std::vector<uint32_t> want(n);
    hls_ref_fir(At(x), want.data(), At(h), n, taps);
    weft_exit_status_t st = Run("hwt_hls_fir", 1, {Bus(x), Bus(y), Bus(h), n, taps});
    ASSERT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
    EXPECT_EQ(std::memcmp(At(y), want.data(), 4 * n), 0);
}

TEST_F(Hls, MatrixMultiplyMatchesTheReference)
{
    for (size_t n : {1u, 5u, 16u}) {
        const size_t A = 0, B = 512, C = 1024;
        std::vector<uint32_t> want(n * n);
        hls_ref_matmul(At(A), At(B), want.data(), n);
        weft_exit_status_t st = Run("hwt_hls_matmul", 2, {Bus(A), Bus(B), Bus(C), n});
        ASSERT_EQ(st.kind, WEFT_EXIT_NORMAL) << st.message;
        EXPECT_EQ(std::memcmp(At(C), want.data(), 4 * n * n), 0) << "n = " << n;
    }
}

TEST_F(Hls, ASlotRunsAnotherAcceleratorAfterOne)
{
    const size_t n = 64;
    std::vector<uint32_t> want(n);
    hls_ref_vecsum(At(0), At(64), want.data(), n);
    ASSERT_EQ(Run("hwt_hls_vecsum", 3, {Bus(0), Bus(64), Bus(128), n}).kind, WEFT_EXIT_NORMAL);
    EXPECT_EQ(std::memcmp(At(128), want.data(), 4 * n), 0);
    std::vector<uint32_t> prod(4 * 4);
    hls_ref_matmul(At(0), At(64), prod.data(), 4);
    ASSERT_EQ(Run("hwt_hls_matmul", 3, {Bus(0), Bus(64), Bus(256), 4}).kind, WEFT_EXIT_NORMAL);
    EXPECT_EQ(std::memcmp(At(256), prod.data(), 4 * 16), 0);
}

TEST_F(Hls, AnAccessOutsideItsWindowsFaultsTheAcceleratorAndWritesNothing)
{
    // Granted a, b and c read-only: writing c faults, and c keeps its bytes.
    const size_t n = 100, a = 0, b = 200, c = 400;
    std::vector<uint32_t> before(At(c), At(c) + n);
    weft_exit_status_t st =
        Run("hwt_hls_vecsum", 0, {Bus(a), Bus(b), Bus(c), n}, {{Bus(0), 4 * 600, WEFT_MEM_READ}});
    EXPECT_EQ(st.kind, WEFT_EXIT_FAULTED) << st.message;
    EXPECT_EQ(st.mem_faulted, 1) << st.message;
    EXPECT_EQ(st.mem_fault.write, 1);
    EXPECT_EQ(std::memcmp(At(c), before.data(), 4 * n), 0);
    // The slot serves the next accelerator.
    std::vector<uint32_t> want(n);
    hls_ref_vecsum(At(a), At(b), want.data(), n);
    ASSERT_EQ(Run("hwt_hls_vecsum", 0, {Bus(a), Bus(b), Bus(c), n}).kind, WEFT_EXIT_NORMAL);
    EXPECT_EQ(std::memcmp(At(c), want.data(), 4 * n), 0);
}

TEST_F(Hls, AWeftThreadInTheSlotAnswersNoAccOfItsOwn)
{
    // hwt_calls has no registers: an ACC access ends after ACC_TIMEOUT with FAULT.ACC, and
    // the runtime ends the thread naming it.
    std::string path = Image("hwt_calls");
    uint64_t arg = 0;
    weft_hwthread_attr_t a{};
    a.name = "not-an-accelerator";
    a.image = path.c_str();
    a.slot = 1;
    a.accelerator = 1;
    a.acc_args = &arg;
    a.num_acc_args = 1;
    weft_hwthread_t *t = nullptr;
    ASSERT_EQ(weft_hwthread_create(w_, &t, &a), 0);
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 60000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_FAULTED);
    EXPECT_NE(std::string(st.message).find("ACC window"), std::string::npos) << st.message;
    weft_hwthread_destroy(t);
}

TEST_F(Hls, BadAcceleratorAttributesAreRefused)
{
    std::string path = Image("hwt_hls_vecsum");
    uint64_t args[WEFT_HLS_MAX_ARGS + 1] = {};
    weft_hwthread_attr_t a{};
    a.image = path.c_str();
    a.accelerator = 1;
    a.acc_args = args;
    a.num_acc_args = WEFT_HLS_MAX_ARGS + 1;
    weft_hwthread_t *t = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL);
    a.num_acc_args = 1;
    a.acc_args = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL);
    a.acc_args = args;
    weft_resource_t r{WEFT_RES_MBOX, &instr_[0]};
    a.resources = &r;
    a.num_resources = 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL);
    a.num_resources = 0;
    a.resume = 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL);
}

} // namespace

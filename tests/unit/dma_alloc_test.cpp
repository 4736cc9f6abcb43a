// The DMA allocator: alignment, free and coalescing, exhaustion, bus addresses, bad
// frees; and the weft_mem_* calls that expose it.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "dma_alloc.h"

namespace
{

constexpr uint64_t kBus = 0x20000000;

class DmaAlloc : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        mem_ = static_cast<uint8_t *>(std::aligned_alloc(4096, kSize));
        ASSERT_NE(mem_, nullptr);
        weft_dma_region_t r{mem_, kBus, kSize};
        ASSERT_EQ(weft_dma_init(&d_, &r), 0);
    }
    void TearDown() override
    {
        weft_dma_fini(&d_);
        std::free(mem_);
    }
    static constexpr size_t kSize = 64 * 1024;
    uint8_t *mem_ = nullptr;
    weft_dma_t d_{};
};

TEST_F(DmaAlloc, AllocRoundsUpTo64AndAligns)
{
    void *a, *b;
    uint64_t ba, bb;
    ASSERT_EQ(weft_dma_alloc(&d_, 1, &a, &ba), 0);
    ASSERT_EQ(weft_dma_alloc(&d_, 65, &b, &bb), 0);
    EXPECT_EQ(ba % 64, 0u);
    EXPECT_EQ(bb % 64, 0u);
    EXPECT_EQ(static_cast<uint8_t *>(b) - static_cast<uint8_t *>(a), 64);
    EXPECT_EQ(weft_dma_free_bytes(&d_), kSize - 64 - 128);
}

TEST_F(DmaAlloc, AllocBusAddressMatchesCpuPointer)
{
    void *a;
    uint64_t ba;
    ASSERT_EQ(weft_dma_alloc(&d_, 256, &a, &ba), 0);
    EXPECT_EQ(ba, kBus + (static_cast<uint8_t *>(a) - mem_));
    EXPECT_EQ(weft_dma_bus_addr(&d_, a), ba);
    EXPECT_EQ(weft_dma_bus_addr(&d_, static_cast<uint8_t *>(a) + 10), ba + 10);
}

TEST_F(DmaAlloc, BusAddrOutsideRegionIsZero)
{
    int local = 0;
    EXPECT_EQ(weft_dma_bus_addr(&d_, &local), 0u);
    EXPECT_EQ(weft_dma_bus_addr(&d_, mem_ + kSize), 0u);
    EXPECT_EQ(weft_dma_bus_addr(&d_, nullptr), 0u);
}

TEST_F(DmaAlloc, AllocBadArgumentsAreEinval)
{
    void *a;
    uint64_t ba;
    EXPECT_EQ(weft_dma_alloc(&d_, 0, &a, &ba), -EINVAL);
    EXPECT_EQ(weft_dma_alloc(&d_, 64, nullptr, &ba), -EINVAL);
    EXPECT_EQ(weft_dma_alloc(&d_, 64, &a, nullptr), -EINVAL);
    EXPECT_EQ(weft_dma_alloc(nullptr, 64, &a, &ba), -EINVAL);
}

TEST_F(DmaAlloc, AllocExhaustionIsEnomem)
{
    void *a, *b;
    uint64_t ba;
    ASSERT_EQ(weft_dma_alloc(&d_, kSize, &a, &ba), 0);
    EXPECT_EQ(weft_dma_alloc(&d_, 64, &b, &ba), -ENOMEM);
    EXPECT_EQ(weft_dma_alloc(&d_, SIZE_MAX, &b, &ba), -ENOMEM);
    ASSERT_EQ(weft_dma_free(&d_, a), 0);
    EXPECT_EQ(weft_dma_alloc(&d_, 64, &b, &ba), 0);
}

TEST_F(DmaAlloc, FreeCoalescesNeighbours)
{
    std::vector<void *> blocks(4);
    uint64_t bus;
    for (auto &b : blocks)
        ASSERT_EQ(weft_dma_alloc(&d_, kSize / 4, &b, &bus), 0);
    void *x;
    EXPECT_EQ(weft_dma_alloc(&d_, 64, &x, &bus), -ENOMEM);
    // Free 1 and 3, then 2: all three must merge into one extent of 3/4 of the region.
    ASSERT_EQ(weft_dma_free(&d_, blocks[1]), 0);
    ASSERT_EQ(weft_dma_free(&d_, blocks[3]), 0);
    EXPECT_EQ(weft_dma_alloc(&d_, kSize / 2, &x, &bus), -ENOMEM) << "no merge expected yet";
    ASSERT_EQ(weft_dma_free(&d_, blocks[2]), 0);
    ASSERT_EQ(weft_dma_alloc(&d_, kSize * 3 / 4, &x, &bus), 0);
    EXPECT_EQ(x, blocks[1]);
    ASSERT_EQ(weft_dma_free(&d_, x), 0);
    ASSERT_EQ(weft_dma_free(&d_, blocks[0]), 0);
    EXPECT_EQ(weft_dma_free_bytes(&d_), kSize);
    ASSERT_EQ(weft_dma_alloc(&d_, kSize, &x, &bus), 0) << "whole region is one extent again";
}

TEST_F(DmaAlloc, AllocIsFirstFit)
{
    void *a, *b, *c, *x;
    uint64_t bus;
    ASSERT_EQ(weft_dma_alloc(&d_, 128, &a, &bus), 0);
    ASSERT_EQ(weft_dma_alloc(&d_, 128, &b, &bus), 0);
    ASSERT_EQ(weft_dma_alloc(&d_, 128, &c, &bus), 0);
    ASSERT_EQ(weft_dma_free(&d_, a), 0);
    ASSERT_EQ(weft_dma_alloc(&d_, 64, &x, &bus), 0);
    EXPECT_EQ(x, a) << "the first hole that fits is used";
}

TEST_F(DmaAlloc, FreeOfNonAllocationIsEinval)
{
    void *a;
    uint64_t bus;
    ASSERT_EQ(weft_dma_alloc(&d_, 128, &a, &bus), 0);
    int local = 0;
    EXPECT_EQ(weft_dma_free(&d_, &local), -EINVAL);
    EXPECT_EQ(weft_dma_free(&d_, nullptr), -EINVAL);
    EXPECT_EQ(weft_dma_free(&d_, static_cast<uint8_t *>(a) + 64), -EINVAL) << "interior pointer";
    EXPECT_EQ(weft_dma_free(&d_, a), 0);
    EXPECT_EQ(weft_dma_free(&d_, a), -EINVAL) << "double free";
}

TEST(DmaAllocInit, UnalignedRegionStartsOnA64ByteBusBoundary)
{
    std::vector<uint8_t> mem(4096);
    weft_dma_region_t r{mem.data(), kBus + 8, mem.size()};
    weft_dma_t d{};
    ASSERT_EQ(weft_dma_init(&d, &r), 0);
    void *a;
    uint64_t bus;
    ASSERT_EQ(weft_dma_alloc(&d, 64, &a, &bus), 0);
    EXPECT_EQ(bus % 64, 0u);
    EXPECT_EQ(bus, kBus + 64);
    EXPECT_EQ(weft_dma_free_bytes(&d), 4096u - 64 - 64);
    weft_dma_fini(&d);
}

TEST(DmaAllocInit, TooSmallRegionIsEinval)
{
    uint8_t mem[32];
    weft_dma_region_t r{mem, kBus, sizeof mem};
    weft_dma_t d{};
    EXPECT_EQ(weft_dma_init(&d, &r), -EINVAL);
    EXPECT_EQ(weft_dma_init(&d, nullptr), -EINVAL);
}

} // namespace

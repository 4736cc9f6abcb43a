// Tests of the AXI4 memory slave that serves the static region's master port from the
// DMA region (platform/sim/axi_mem_slave.h), against a scripted master.

#include "axi_mem_slave.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace
{

using weft::sim::AxiMemSlave;

// The static model's master-port signals, as the slave sees them.
struct Port {
    uint32_t m_axi_awaddr_o = 0, m_axi_awlen_o = 0, m_axi_awsize_o = 2, m_axi_awburst_o = 1;
    uint8_t m_axi_awvalid_o = 0, m_axi_awready_i = 0;
    uint32_t m_axi_wdata_o = 0, m_axi_wstrb_o = 0xf;
    uint8_t m_axi_wlast_o = 0, m_axi_wvalid_o = 0, m_axi_wready_i = 0;
    uint8_t m_axi_bresp_i = 0, m_axi_bvalid_i = 0, m_axi_bready_o = 0;
    uint32_t m_axi_araddr_o = 0, m_axi_arlen_o = 0, m_axi_arsize_o = 2, m_axi_arburst_o = 1;
    uint8_t m_axi_arvalid_o = 0, m_axi_arready_i = 0;
    uint32_t m_axi_rdata_i = 0;
    uint8_t m_axi_rresp_i = 0, m_axi_rlast_i = 0, m_axi_rvalid_i = 0, m_axi_rready_o = 0;
};

constexpr uint32_t kBase = 0x10000000;
constexpr uint32_t kSize = 4096;
constexpr size_t kGuard = 64;

class AxiMemSlaveTest : public ::testing::Test
{
  protected:
    AxiMemSlaveTest() : host_(kSize + 2 * kGuard, 0xee), slave_(host_.data() + kGuard, kBase, kSize)
    {
    }

    uint8_t *mem() { return host_.data() + kGuard; }

    // One clock: the slave drives, the master's outputs are as set, the edge commits.
    void clock()
    {
        slave_.drive(port_);
        slave_.sample(port_);
        slave_.commit();
    }

    // Write burst; returns bresp.
    uint8_t write(uint32_t addr, const std::vector<uint32_t> &data, uint32_t strb = 0xf)
    {
        port_.m_axi_awaddr_o = addr;
        port_.m_axi_awlen_o = static_cast<uint32_t>(data.size() - 1);
        port_.m_axi_awvalid_o = 1;
        for (;;) {
            slave_.drive(port_);
            const bool hs = port_.m_axi_awready_i;
            slave_.sample(port_);
            slave_.commit();
            if (hs)
                break;
        }
        port_.m_axi_awvalid_o = 0;
        for (size_t i = 0; i < data.size();) {
            port_.m_axi_wvalid_o = 1;
            port_.m_axi_wdata_o = data[i];
            port_.m_axi_wstrb_o = strb;
            port_.m_axi_wlast_o = i + 1 == data.size();
            slave_.drive(port_);
            const bool hs = port_.m_axi_wready_i;
            slave_.sample(port_);
            slave_.commit();
            if (hs)
                ++i;
        }
        port_.m_axi_wvalid_o = 0;
        port_.m_axi_bready_o = 1;
        for (;;) {
            slave_.drive(port_);
            const bool hs = port_.m_axi_bvalid_i;
            const uint8_t resp = port_.m_axi_bresp_i;
            slave_.sample(port_);
            slave_.commit();
            if (hs) {
                port_.m_axi_bready_o = 0;
                return resp;
            }
        }
    }

    // Read burst; returns the data, collects the responses, counts cycles of the data phase.
    std::vector<uint32_t> read(uint32_t addr, uint32_t beats, std::vector<uint8_t> *resps,
                               unsigned *data_cycles = nullptr)
    {
        port_.m_axi_araddr_o = addr;
        port_.m_axi_arlen_o = beats - 1;
        port_.m_axi_arvalid_o = 1;
        for (;;) {
            slave_.drive(port_);
            const bool hs = port_.m_axi_arready_i;
            slave_.sample(port_);
            slave_.commit();
            if (hs)
                break;
        }
        port_.m_axi_arvalid_o = 0;
        port_.m_axi_rready_o = 1;
        std::vector<uint32_t> out;
        unsigned cycles = 0;
        for (;;) {
            slave_.drive(port_);
            ++cycles;
            const bool hs = port_.m_axi_rvalid_i;
            const bool last = port_.m_axi_rlast_i;
            if (hs) {
                out.push_back(port_.m_axi_rdata_i);
                resps->push_back(port_.m_axi_rresp_i);
            }
            slave_.sample(port_);
            slave_.commit();
            if (hs && last)
                break;
            if (out.size() > beats)
                break;
        }
        port_.m_axi_rready_o = 0;
        if (data_cycles)
            *data_cycles = cycles;
        return out;
    }

    std::vector<uint8_t> host_;
    AxiMemSlave slave_;
    Port port_;
};

TEST_F(AxiMemSlaveTest, IncrWriteThenReadBack)
{
    const std::vector<uint32_t> data = {0x11111111, 0x22222222, 0x33333333, 0x44444444};
    EXPECT_EQ(write(kBase + 8, data), AxiMemSlave::kOkay);
    uint32_t w;
    std::memcpy(&w, mem() + 8 + 12, 4);
    EXPECT_EQ(w, 0x44444444u);
    std::vector<uint8_t> resps;
    EXPECT_EQ(read(kBase + 8, 4, &resps), data);
    EXPECT_EQ(resps, std::vector<uint8_t>(4, AxiMemSlave::kOkay));
    EXPECT_TRUE(slave_.idle());
}

TEST_F(AxiMemSlaveTest, ReadStreamsOneBeatPerCycle)
{
    std::vector<uint8_t> resps;
    unsigned cycles = 0;
    auto out = read(kBase, 256, &resps, &cycles);
    EXPECT_EQ(out.size(), 256u);
    EXPECT_EQ(cycles, 256u);
}

TEST_F(AxiMemSlaveTest, WriteStrobesSelectBytes)
{
    const uint32_t before = 0x11223344;
    std::memcpy(mem() + 16, &before, 4);
    EXPECT_EQ(write(kBase + 16, {0xaabbccdd}, 0x5), AxiMemSlave::kOkay);
    uint32_t after;
    std::memcpy(&after, mem() + 16, 4);
    EXPECT_EQ(after, 0x11bb33ddu);
}

TEST_F(AxiMemSlaveTest, WritePastTheEndIsSlverrAndTouchesNothingOutside)
{
    EXPECT_EQ(write(kBase + kSize - 8, {1, 2, 3, 4}), AxiMemSlave::kSlvErr);
    uint32_t w;
    std::memcpy(&w, mem() + kSize - 4, 4);
    EXPECT_EQ(w, 2u); // beats inside the region land
    for (size_t i = 0; i < kGuard; ++i) {
        ASSERT_EQ(host_[i], 0xee);
        ASSERT_EQ(host_[kGuard + kSize + i], 0xee);
    }
    EXPECT_TRUE(slave_.idle());
}

TEST_F(AxiMemSlaveTest, WriteBelowTheRegionIsSlverr)
{
    EXPECT_EQ(write(kBase - 4, {7}), AxiMemSlave::kSlvErr);
    for (size_t i = 0; i < kGuard; ++i)
        ASSERT_EQ(host_[i], 0xee);
}

TEST_F(AxiMemSlaveTest, ReadOutsideIsSlverrPerBeat)
{
    std::vector<uint8_t> resps;
    auto out = read(kBase + kSize - 4, 2, &resps);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(resps[0], AxiMemSlave::kOkay);
    EXPECT_EQ(resps[1], AxiMemSlave::kSlvErr);
    EXPECT_EQ(out[1], 0u);
    resps.clear();
    out = read(0, 1, &resps);
    EXPECT_EQ(resps.at(0), AxiMemSlave::kSlvErr);
}

TEST_F(AxiMemSlaveTest, UnsupportedBurstIsSlverr)
{
    port_.m_axi_arburst_o = 2; // WRAP
    std::vector<uint8_t> resps;
    read(kBase, 4, &resps);
    EXPECT_EQ(resps, std::vector<uint8_t>(4, AxiMemSlave::kSlvErr));
    port_.m_axi_awsize_o = 3; // 8 bytes on a 4-byte bus
    EXPECT_EQ(write(kBase, {1}), AxiMemSlave::kSlvErr);
}

} // namespace

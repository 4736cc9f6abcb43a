// The AXI4 memory slave behind the static region's master port: serves INCR and FIXED
// bursts from the DMA region, one beat per cycle whenever the master is ready.
//
// It behaves like registered logic: drive() sets the slave's outputs from its state
// only, sample() records which handshakes happen at the coming rising edge (master
// outputs after the clk=0 evaluation), and commit() moves the state across that edge.
// Every beat whose 4-byte word is not wholly inside the region answers SLVERR and
// touches no host memory; so does a burst of a size wider than the 32-bit bus or a
// WRAP/reserved burst type. A write burst's response is SLVERR if any beat was.
#ifndef WEFT_SIM_AXI_MEM_SLAVE_H
#define WEFT_SIM_AXI_MEM_SLAVE_H

#include <cstdint>
#include <cstring>

namespace weft::sim
{

class AxiMemSlave
{
  public:
    static constexpr uint8_t kOkay = 0;
    static constexpr uint8_t kSlvErr = 2;

    AxiMemSlave(uint8_t *mem, uint64_t base, uint64_t size) : mem_(mem), base_(base), size_(size) {}

    /** True while no burst is in progress on either direction. */
    bool idle() const { return wr_state_ == WrState::kAddr && rd_state_ == RdState::kAddr; }

    /** Drive the slave's outputs (inputs of the static model) from the state. */
    template <typename M> void drive(M &m) const
    {
        m.m_axi_awready_i = wr_state_ == WrState::kAddr;
        m.m_axi_wready_i = wr_state_ == WrState::kData;
        m.m_axi_bvalid_i = wr_state_ == WrState::kResp;
        m.m_axi_bresp_i = wr_err_ ? kSlvErr : kOkay;
        const bool rv = rd_state_ == RdState::kData;
        m.m_axi_arready_i = rd_state_ == RdState::kAddr;
        m.m_axi_rvalid_i = rv;
        m.m_axi_rdata_i = rv ? rd_data_ : 0;
        m.m_axi_rresp_i = rv ? rd_resp_ : kOkay;
        m.m_axi_rlast_i = rv && rd_beat_ == rd_len_;
    }

    /** Record the handshakes of the coming edge and carry out write beats. */
    template <typename M> void sample(const M &m)
    {
        aw_hs_ = wr_state_ == WrState::kAddr && m.m_axi_awvalid_o;
        w_hs_ = wr_state_ == WrState::kData && m.m_axi_wvalid_o;
        b_hs_ = wr_state_ == WrState::kResp && m.m_axi_bready_o;
        ar_hs_ = rd_state_ == RdState::kAddr && m.m_axi_arvalid_o;
        r_hs_ = rd_state_ == RdState::kData && m.m_axi_rready_o;
        if (aw_hs_) {
            wr_addr_ = m.m_axi_awaddr_o;
            wr_len_ = m.m_axi_awlen_o;
            wr_size_ = m.m_axi_awsize_o;
            wr_burst_ = m.m_axi_awburst_o;
        }
        if (w_hs_) {
            w_data_ = m.m_axi_wdata_o;
            w_strb_ = m.m_axi_wstrb_o;
            w_last_ = m.m_axi_wlast_o;
        }
        if (ar_hs_) {
            ar_addr_ = m.m_axi_araddr_o;
            ar_len_ = m.m_axi_arlen_o;
            ar_size_ = m.m_axi_arsize_o;
            ar_burst_ = m.m_axi_arburst_o;
        }
    }

    /** Advance the state across the rising edge. */
    void commit()
    {
        switch (wr_state_) {
        case WrState::kAddr:
            if (aw_hs_) {
                wr_beat_ = 0;
                wr_err_ = !burst_ok(wr_size_, wr_burst_);
                wr_state_ = WrState::kData;
            }
            break;
        case WrState::kData:
            if (w_hs_) {
                write_beat();
                // wlast ends the burst; a master that overruns awlen ends it too (error).
                if (w_last_ || wr_beat_ >= wr_len_) {
                    if (w_last_ != (wr_beat_ == wr_len_))
                        wr_err_ = true;
                    wr_state_ = WrState::kResp;
                }
                ++wr_beat_;
            }
            break;
        case WrState::kResp:
            if (b_hs_)
                wr_state_ = WrState::kAddr;
            break;
        }
        switch (rd_state_) {
        case RdState::kAddr:
            if (ar_hs_) {
                rd_beat_ = 0;
                rd_len_ = ar_len_;
                rd_bad_burst_ = !burst_ok(ar_size_, ar_burst_);
                load_beat();
                rd_state_ = RdState::kData;
            }
            break;
        case RdState::kData:
            if (r_hs_) {
                if (rd_beat_ == rd_len_) {
                    rd_state_ = RdState::kAddr;
                } else {
                    ++rd_beat_;
                    load_beat();
                }
            }
            break;
        }
    }

  private:
    enum class WrState : uint8_t { kAddr, kData, kResp };
    enum class RdState : uint8_t { kAddr, kData };

    static bool burst_ok(uint32_t size, uint32_t burst) { return size <= 2 && burst <= 1; }

    static uint64_t beat_addr(uint64_t addr, uint32_t size, uint32_t burst, uint32_t beat)
    {
        if (burst == 0)
            return addr; // FIXED
        const uint64_t n = uint64_t{1} << size;
        return beat == 0 ? addr : (addr & ~(n - 1)) + uint64_t{beat} * n;
    }

    // Host pointer of the 4-byte word holding bus address a, or nullptr outside the region.
    uint8_t *word_ptr(uint64_t a) const
    {
        const uint64_t w = a & ~uint64_t{3};
        if (w < base_ || w - base_ + 4 > size_)
            return nullptr;
        return mem_ + (w - base_);
    }

    void write_beat()
    {
        if (wr_err_)
            return; // a bad burst writes nothing from the failing beat on
        uint8_t *p = word_ptr(beat_addr(wr_addr_, wr_size_, wr_burst_, wr_beat_));
        if (!p) {
            wr_err_ = true;
            return;
        }
        if (w_strb_ == 0xF) {
            // A whole word with release order: software that sees it (a staged request's
            // sequence number, docs/osif.md) also sees the beats written before it.
            __atomic_store_n(reinterpret_cast<uint32_t *>(p), w_data_, __ATOMIC_RELEASE);
            return;
        }
        for (unsigned i = 0; i < 4; ++i) {
            if (w_strb_ & (1u << i))
                p[i] = static_cast<uint8_t>(w_data_ >> (8 * i));
        }
    }

    void load_beat()
    {
        const uint8_t *p =
            rd_bad_burst_ ? nullptr : word_ptr(beat_addr(ar_addr_, ar_size_, ar_burst_, rd_beat_));
        if (p) {
            std::memcpy(&rd_data_, p, 4); // host and AXI are both little-endian here
            rd_resp_ = kOkay;
        } else {
            rd_data_ = 0;
            rd_resp_ = kSlvErr;
        }
    }

    uint8_t *mem_;
    uint64_t base_;
    uint64_t size_;

    WrState wr_state_ = WrState::kAddr;
    uint64_t wr_addr_ = 0;
    uint32_t wr_len_ = 0, wr_size_ = 0, wr_burst_ = 0, wr_beat_ = 0;
    bool wr_err_ = false;
    uint32_t w_data_ = 0, w_strb_ = 0;
    bool w_last_ = false;

    RdState rd_state_ = RdState::kAddr;
    uint64_t ar_addr_ = 0;
    uint32_t ar_len_ = 0, ar_size_ = 0, ar_burst_ = 0;
    uint32_t rd_len_ = 0, rd_beat_ = 0;
    bool rd_bad_burst_ = false;
    uint32_t rd_data_ = 0;
    uint8_t rd_resp_ = kOkay;

    bool aw_hs_ = false, w_hs_ = false, b_hs_ = false, ar_hs_ = false, r_hs_ = false;
};

} // namespace weft::sim

#endif // WEFT_SIM_AXI_MEM_SLAVE_H

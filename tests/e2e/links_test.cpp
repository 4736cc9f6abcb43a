// Hardware links between slots (ReconOS Fig. 9): a mailbox handle bound to a link is
// served by the static region, without the CPU; bound to a software mailbox, by the
// delegates. The same two hardware threads (hwt_stream) run both ways and move the same
// block; only the resource arrays differ.
#include "e2e_fixture.h"

#include <algorithm>
#include <cstring>
#include <random>

#include <unistd.h>

extern "C" {
#include "weft/platform_config.h"
}

namespace
{

constexpr uint32_t kSource = 1, kSink = 2; // hwt_stream job ops
constexpr unsigned kJobH = 0, kReportH = 1, kDataH = 2;

class Links : public Fabric
{
  protected:
    void SetUp() override
    {
        Fabric::SetUp();
        for (unsigned s = 0; s < 2; s++) {
            ASSERT_EQ(weft_mbox_init(&jobs_[s], 8), 0);
            ASSERT_EQ(weft_mbox_init(&reports_[s], 8), 0);
        }
        ASSERT_EQ(weft_mbox_init(&data_, 16), 0);
    }
    void TearDown() override
    {
        Fabric::TearDown();
        for (unsigned s = 0; s < 2; s++) {
            weft_mbox_destroy(&jobs_[s]);
            weft_mbox_destroy(&reports_[s]);
        }
        weft_mbox_destroy(&data_);
    }

    weft_link_t *Link(unsigned index)
    {
        weft_link_t *k = nullptr;
        EXPECT_EQ(weft_link_get(w_, index, &k), 0);
        return k;
    }

    // hwt_stream in `slot`, its data handle bound to `data` (a link or a mailbox).
    weft_hwthread_t *StartStream(unsigned slot, weft_resource_t data)
    {
        return Start({"hwt_stream",
                      slot == 0 ? "hw-source" : "hw-sink",
                      slot,
                      {{WEFT_RES_MBOX, &jobs_[slot]}, {WEFT_RES_MBOX, &reports_[slot]}, data},
                      kJobH | kReportH << 8 | kDataH << 16});
    }

    void Job(unsigned slot, uint32_t op, uint64_t bus, uint32_t words)
    {
        ASSERT_EQ(weft_mbox_put(&jobs_[slot], op), 0);
        ASSERT_EQ(weft_mbox_put(&jobs_[slot], static_cast<uint32_t>(bus)), 0);
        ASSERT_EQ(weft_mbox_put(&jobs_[slot], words), 0);
    }

    struct Report {
        bool arrived = false;
        uint32_t status = 0, mem_cycles = 0, mbox_cycles = 0;
    };
    Report Wait(unsigned slot)
    {
        Report r;
        uint32_t w[3];
        for (uint32_t &x : w)
            if (weft_mbox_timedget(&reports_[slot], &x, 60000) != 0)
                return r;
        r.arrived = true;
        r.status = w[0];
        r.mem_cycles = w[1];
        r.mbox_cycles = w[2];
        return r;
    }

    weft_mbox_t jobs_[2], reports_[2], data_;
};

// The same source and sink threads move 8 KiB from one buffer to another, once through
// the hardware link ring01 and once through a software mailbox. The block arrives whole
// either way; only the link keeps the delegates out of the transfer.
TEST_F(Links, SameThreadsMoveABlockThroughALinkOrASoftwareMailbox)
{
    constexpr uint32_t kWords = 2048;
    void *src_cpu = nullptr, *dst_cpu = nullptr;
    uint64_t src_bus = 0, dst_bus = 0;
    ASSERT_EQ(weft_mem_alloc(w_, kWords * 4, &src_cpu, &src_bus), 0);
    ASSERT_EQ(weft_mem_alloc(w_, kWords * 4, &dst_cpu, &dst_bus), 0);
    auto *src = static_cast<uint32_t *>(src_cpu);
    auto *dst = static_cast<uint32_t *>(dst_cpu);
    std::mt19937 rng(7);

    for (bool hardware : {true, false}) {
        SCOPED_TRACE(hardware ? "bound to the hardware link" : "bound to a software mailbox");
        for (uint32_t i = 0; i < kWords; i++) {
            src[i] = rng();
            dst[i] = 0;
        }
        weft_resource_t data = hardware ? weft_resource_t{WEFT_RES_LINK, Link(WEFT_LINK_RING01)}
                                        : weft_resource_t{WEFT_RES_MBOX, &data_};
        weft_hwthread_t *source = StartStream(0, data);
        weft_hwthread_t *sink = StartStream(1, data);
        ASSERT_TRUE(source && sink);
        Job(1, kSink, dst_bus, kWords);
        Job(0, kSource, src_bus, kWords);
        Report rs = Wait(0), rk = Wait(1);
        ASSERT_TRUE(rs.arrived && rk.arrived);
        EXPECT_EQ(rs.status, 0u);
        EXPECT_EQ(rk.status, 0u);
        EXPECT_EQ(std::memcmp(src, dst, kWords * 4), 0) << "the block arrived changed";

        weft_hwthread_stats_t ss{}, sk{};
        ASSERT_EQ(weft_hwthread_stats(source, &ss), 0);
        ASSERT_EQ(weft_hwthread_stats(sink, &sk), 0);
        // Each thread: GET_INIT_DATA, the job, the report and maybe already its wait for
        // the next job through its delegate; the data calls (9 bursts of at most 255
        // words) through the link or through the delegate.
        const uint64_t data_calls = (kWords + WEFT_OSIF_MAX_ARGS - 1) / WEFT_OSIF_MAX_ARGS;
        for (const weft_hwthread_stats_t &st : {ss, sk}) {
            EXPECT_EQ(st.link_calls, hardware ? data_calls : 0u);
            uint64_t own = st.calls - (hardware ? 0u : data_calls);
            EXPECT_TRUE(own == 3u || own == 4u) << st.calls << " calls through the delegate";
        }
        std::printf("%s: 8 KiB in %u cycles at the source, %u at the sink (mailbox phase)\n",
                    hardware ? "link" : "software mailbox", rs.mbox_cycles, rk.mbox_cycles);
        Job(0, 0, 0, 0);
        Job(1, 0, 0, 0);
        weft_exit_status_t st{};
        EXPECT_EQ(weft_hwthread_timedjoin(source, &st, 20000), 0);
        EXPECT_EQ(weft_hwthread_timedjoin(sink, &st, 20000), 0);
        for (weft_hwthread_t *t : {source, sink}) {
            weft_hwthread_destroy(t);
            threads_.erase(std::find(threads_.begin(), threads_.end(), t));
        }
    }
}

// A burst put into a full link whose reader waits in software (for its job) lets the
// fabric stop: nothing can move until software acts, so no cycle passes. Given its job,
// the reader drains the link and the block arrives whole.
TEST_F(Links, BurstPutIntoAFullLinkLetsTheFabricStop)
{
    constexpr uint32_t kWords = 1024;
    void *src_cpu = nullptr, *dst_cpu = nullptr;
    uint64_t src_bus = 0, dst_bus = 0;
    ASSERT_EQ(weft_mem_alloc(w_, kWords * 4, &src_cpu, &src_bus), 0);
    ASSERT_EQ(weft_mem_alloc(w_, kWords * 4, &dst_cpu, &dst_bus), 0);
    auto *src = static_cast<uint32_t *>(src_cpu);
    auto *dst = static_cast<uint32_t *>(dst_cpu);
    for (uint32_t i = 0; i < kWords; i++) {
        src[i] = i * 2654435761u;
        dst[i] = 0;
    }
    weft_link_t *k = Link(WEFT_LINK_RING01);
    weft_hwthread_t *source = StartStream(0, {WEFT_RES_LINK, k});
    weft_hwthread_t *sink = StartStream(1, {WEFT_RES_LINK, k});
    ASSERT_TRUE(source && sink);
    Job(0, kSource, src_bus, kWords);

    weft_link_info_t info{};
    for (int i = 0; i < 10000; i++) {
        ASSERT_EQ(weft_link_info(k, &info), 0);
        if (info.level == info.depth)
            break;
        usleep(1000);
    }
    ASSERT_EQ(info.level, info.depth) << "the source did not fill the link";
    // The simulation's own counter: reading CYCLE_LO through the register window would
    // itself clock the fabric. The clock may still run the few cycles after the register
    // access above; then it must stand still.
    weft_sim_stats_t s0{}, s1{};
    bool stopped = false;
    for (int i = 0; i < 50 && !stopped; i++) {
        ASSERT_EQ(weft_sim_stats(plat_, &s0), 0);
        usleep(20 * 1000);
        ASSERT_EQ(weft_sim_stats(plat_, &s1), 0);
        stopped = s1.cycles == s0.cycles;
    }
    ASSERT_TRUE(stopped) << "the fabric kept clocking a burst put that waits for a full link";
    usleep(100 * 1000);
    ASSERT_EQ(weft_sim_stats(plat_, &s1), 0);
    EXPECT_EQ(s1.cycles, s0.cycles) << "the fabric started again with nothing to do";

    Job(1, kSink, dst_bus, kWords);
    Report rs = Wait(0), rk = Wait(1);
    ASSERT_TRUE(rs.arrived && rk.arrived);
    EXPECT_EQ(rs.status, 0u);
    EXPECT_EQ(rk.status, 0u);
    EXPECT_EQ(std::memcmp(src, dst, kWords * 4), 0) << "the block arrived changed";
}

// A link keeps its words across threads; flushing it is refused while a running thread
// has it bound, and empties it after.
TEST_F(Links, LinkLevelAndFlush)
{
    weft_link_t *k = Link(WEFT_LINK_RING01);
    weft_hwthread_t *t = StartCalls(0, {{WEFT_RES_LINK, k}});
    ASSERT_NE(t, nullptr);
    for (uint32_t i = 0; i < 5; i++)
        ASSERT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_PUT, 2, {i}).status, WEFT_OSIF_OK);
    weft_link_info_t info{};
    ASSERT_EQ(weft_link_info(k, &info), 0);
    EXPECT_EQ(info.from, 0u);
    EXPECT_EQ(info.to, 1u);
    EXPECT_EQ(info.level, 5u);
    EXPECT_EQ(weft_link_flush(k), -EBUSY);
    weft_hwthread_destroy(t);
    threads_.clear();
    ASSERT_EQ(weft_link_info(k, &info), 0);
    EXPECT_EQ(info.level, 5u) << "destroying a thread must not lose the link's words";
    EXPECT_EQ(weft_link_flush(k), 0);
    ASSERT_EQ(weft_link_info(k, &info), 0);
    EXPECT_EQ(info.level, 0u);
}

// hwt_calls makes single calls on a link: try, timed, the wrong direction (answered by
// its delegate), and a get blocked on the empty link that a signal ends.
TEST_F(Links, CallsOnALinkFromTheReceivingEnd)
{
    weft_link_t *k = Link(WEFT_LINK_RING01);
    weft_hwthread_t *t = StartCalls(1, {{WEFT_RES_LINK, k}});
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MBOX_TRYGET, 2).status, WEFT_OSIF_AGAIN);
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MBOX_TIMEDGET, 2, {50}).status, WEFT_OSIF_TIMEDOUT);
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MBOX_PUT, 2, {1}).status, WEFT_OSIF_PERM)
        << "a put on the receiving end is the delegate's to refuse";
    bool logged = false;
    for (const std::string &line : Log())
        logged |= line.find("hardware link 0 (slot 0 -> slot 1)") != std::string::npos;
    EXPECT_TRUE(logged);

    Issue(1, WEFT_OSIF_CMD_MBOX_GET, 2);
    EXPECT_FALSE(Collect(1, 300).arrived) << "a get on an empty link must block";
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_YIELD), 0);
    CallResult r = Collect(1, 5000);
    ASSERT_TRUE(r.arrived) << "the signal did not end the blocked get";
    EXPECT_EQ(r.status, WEFT_OSIF_CANCELED);
    weft_hwthread_stats_t st{};
    ASSERT_EQ(weft_hwthread_stats(t, &st), 0);
    EXPECT_EQ(st.link_calls, 3u);
}

// Binding checks at creation: the slot must be an end of the link, within its bindings.
TEST_F(Links, CreateRefusesLinksTheSlotCannotUse)
{
    weft_link_t *k = Link(WEFT_LINK_RING01);
    std::string image = Image("hwt_calls");
    weft_resource_t res[] = {
        {WEFT_RES_MBOX, &instr_[2]}, {WEFT_RES_MBOX, &result_[2]}, {WEFT_RES_LINK, k}};
    weft_hwthread_attr_t attr{};
    attr.image = image.c_str();
    attr.slot = 2; // ring01 joins slots 0 and 1
    attr.resources = res;
    attr.num_resources = 3;
    weft_hwthread_t *t = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &attr), -EINVAL);
    weft_link_t *none = nullptr;
    EXPECT_EQ(weft_link_get(w_, WEFT_PLATFORM_NUM_LINKS, &none), -ENOENT);
    res[2].object = reinterpret_cast<void *>(&attr); // not a link of this runtime
    attr.slot = 0;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &attr), -EINVAL);
}

// Destroying a thread blocked on a link returns promptly: the slot is reset.
TEST_F(Links, DestroyWhileBlockedOnALink)
{
    weft_hwthread_t *t = StartCalls(1, {{WEFT_RES_LINK, Link(WEFT_LINK_RING01)}});
    ASSERT_NE(t, nullptr);
    Issue(1, WEFT_OSIF_CMD_MBOX_GET_BURST, 2, {16});
    EXPECT_FALSE(Collect(1, 200).arrived);
    EXPECT_EQ(weft_hwthread_destroy(t), 0); // a hang here fails by the test's timeout
    threads_.clear();
}

} // namespace

// Confined memory: a hardware thread reaches only the windows it was granted, each with
// its own permissions, checked in the static region. A thread that tries anything else is
// faulted with the address, length and direction recorded, and no byte of memory changes.
#include "e2e_fixture.h"

#include <cstring>
#include <vector>

namespace
{

class Confinement : public Fabric
{
  protected:
    void SetUp() override
    {
        Fabric::SetUp();
        void *cpu = nullptr;
        ASSERT_EQ(weft_mem_alloc(w_, kBytes, &cpu, &bus_), 0);
        mem_ = static_cast<uint32_t *>(cpu);
        for (uint32_t i = 0; i < kBytes / 4; i++)
            mem_[i] = 0xC0DE0000u + i;
        before_.assign(mem_, mem_ + kBytes / 4);
    }

    // hwt_calls in slot 0 granted: [0, 1 KiB) read-write and [1 KiB, 2 KiB) read-only of
    // the buffer; the rest of the buffer (2 KiB..4 KiB) is nobody's.
    weft_hwthread_t *StartConfined()
    {
        return Start({"hwt_calls",
                      "hw-confined",
                      0,
                      {{WEFT_RES_MBOX, &instr_[0]}, {WEFT_RES_MBOX, &result_[0]}},
                      0 | 1u << 8,
                      {{bus_, 1024, WEFT_MEM_RW}, {bus_ + 1024, 1024, WEFT_MEM_READ}}});
    }
    uint32_t Bus(uint32_t offset) const { return static_cast<uint32_t>(bus_ + offset); }

    static constexpr uint32_t kBytes = 4096;
    uint64_t bus_ = 0;
    uint32_t *mem_ = nullptr;
    std::vector<uint32_t> before_;
};

TEST_F(Confinement, GrantedAccessesWorkInEveryWindow)
{
    ASSERT_NE(StartConfined(), nullptr);
    EXPECT_EQ(Call(0, kCallsMemWrite, 0, {Bus(8), 0x1234u}).status, WEFT_OSIF_OK);
    EXPECT_EQ(mem_[2], 0x1234u);
    CallResult r = Call(0, kCallsMemRead, 0, {Bus(1024 + 12)});
    ASSERT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(r.results.at(0), before_[(1024 + 12) / 4]);
}

struct Attempt {
    const char *name, *what;
    uint32_t cmd, offset;
    int write;
};

class ConfinementAttempt : public Confinement, public ::testing::WithParamInterface<Attempt>
{
};

// Each bad access faults the thread, with what it tried recorded, and changes nothing.
TEST_P(ConfinementAttempt, FaultsTheThreadAndChangesNoByte)
{
    const Attempt &a = GetParam();
    weft_hwthread_t *t = StartConfined();
    ASSERT_NE(t, nullptr);
    Issue(0, a.cmd, 0,
          a.write ? std::vector<uint32_t>{Bus(a.offset), 0xBAD0BAD0u}
                  : std::vector<uint32_t>{Bus(a.offset)});
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 20000), 0) << a.what;
    EXPECT_EQ(st.kind, WEFT_EXIT_FAULTED) << a.what << ": " << st.message;
    ASSERT_EQ(st.mem_faulted, 1) << a.what;
    EXPECT_EQ(st.mem_fault.addr, Bus(a.offset));
    EXPECT_EQ(st.mem_fault.length, 4u);
    EXPECT_EQ(st.mem_fault.write, a.write);
    std::string m = st.message;
    EXPECT_NE(m.find("hw-confined"), std::string::npos) << m;
    EXPECT_NE(m.find(a.write ? "write of 4 bytes" : "read of 4 bytes"), std::string::npos) << m;
    EXPECT_EQ(std::memcmp(mem_, before_.data(), kBytes), 0) << a.what << " changed memory";
    // The slot is usable again at once.
    threads_.clear();
    EXPECT_EQ(weft_hwthread_destroy(t), 0);
    ASSERT_NE(StartConfined(), nullptr);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_GET_INIT_DATA, 0).status, WEFT_OSIF_OK);
}

const Attempt kAttempts[] = {
    {"WriteReadOnly", "write into the read-only window", kCallsMemWrite, 1024 + 4, 1},
    {"WritePastWindows", "write past every window", kCallsMemWrite, 2048, 1},
    {"ReadPastWindows", "read past every window", kCallsMemRead, 4092, 0},
    {"WriteBelowBuffer", "write below the buffer", kCallsMemWrite, 0xFFFFF000u, 1},
};

INSTANTIATE_TEST_SUITE_P(Attempts, ConfinementAttempt, ::testing::ValuesIn(kAttempts),
                         [](const ::testing::TestParamInfo<Attempt> &i) {
                             return std::string(i.param.name);
                         });

} // namespace

// A hardware thread is untrusted input. hwt_bad misbehaves in one way per mode; the
// runtime answers with an error or stops it as faulted, names what happened, and a
// healthy hardware thread next to it keeps working.
#include "e2e_fixture.h"

#include <algorithm>
#include <cctype>
#include <ostream>

namespace
{

struct BadCase {
    uint32_t mode;
    const char *what;
    weft_exit_kind_t kind;
    uint32_t exit_value;  // the status hwt_bad saw, for error-response modes
    const char *mentions; // text the message must contain (lower case)
};

const BadCase kCases[] = {
    {0, "unknown command", WEFT_EXIT_NORMAL, WEFT_OSIF_NOSYS, "0x7e"},
    {1, "handle outside the resource array", WEFT_EXIT_NORMAL, WEFT_OSIF_BADHANDLE, "200"},
    {2, "handle of the wrong type", WEFT_EXIT_NORMAL, WEFT_OSIF_WRONG_TYPE, "sem_wait"},
    {3, "an endless request stream", WEFT_EXIT_FAULTED, 0, "response fifo overflow"},
    {4, "memory outside its window", WEFT_EXIT_FAULTED, 0, "0x00000100"},
    {5, "unaligned MEMIF length", WEFT_EXIT_FAULTED, 0, "slot 2"},
};

// Names the case in test output instead of a byte dump.
void PrintTo(const BadCase &c, std::ostream *os)
{
    *os << "mode " << c.mode << " (" << c.what << ")";
}

std::string Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

class BadInput : public Fabric, public ::testing::WithParamInterface<BadCase>
{
};

TEST_P(BadInput, IsNamedAndContainedWhileNeighboursRunOn)
{
    const BadCase &c = GetParam();
    weft_mbox_t decoy;
    ASSERT_EQ(weft_mbox_init(&decoy, 4), 0);
    weft_mbox_t echo;
    ASSERT_EQ(weft_mbox_init(&echo, 4), 0);

    // A healthy neighbour in slot 1.
    StartCalls(1, {{WEFT_RES_MBOX, &echo}}, "hw-good");
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MBOX_PUT, 2, {1}).status, WEFT_OSIF_OK);

    // Its window is the upper half of the DMA region, so address 0x100 is outside.
    weft_hwthread_t *bad = Start({"hwt_bad",
                                  "hw-bad",
                                  2,
                                  {{WEFT_RES_MBOX, &decoy}},
                                  c.mode,
                                  {{dma_.bus + dma_.size / 2, dma_.size / 2, WEFT_MEM_RW}}});
    ASSERT_NE(bad, nullptr);

    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(bad, &st, 20000), 0) << c.what << ": thread never ended";
    EXPECT_EQ(st.kind, c.kind) << c.what << ": " << st.message;
    if (c.kind == WEFT_EXIT_NORMAL) {
        EXPECT_EQ(st.value, c.exit_value) << c.what;
    }
    if (c.mode == 4) { // the read it tried is recorded
        EXPECT_EQ(st.mem_faulted, 1);
        EXPECT_EQ(st.mem_fault.addr, 0x100u);
        EXPECT_EQ(st.mem_fault.length, 4u);
        EXPECT_EQ(st.mem_fault.write, 0);
    }
    // The runtime said what happened, naming the thread and the slot.
    std::string all = Lower(st.message);
    for (const std::string &line : Log())
        all += "\n" + Lower(line);
    EXPECT_NE(all.find("hw-bad"), std::string::npos) << all;
    EXPECT_NE(all.find("slot 2"), std::string::npos) << all;
    EXPECT_NE(all.find(c.mentions), std::string::npos)
        << c.what << " message lacks '" << c.mentions << "':\n"
        << all;

    // The neighbour was untouched and still works.
    EXPECT_EQ(Call(1, WEFT_OSIF_CMD_MBOX_PUT, 2, {2}).status, WEFT_OSIF_OK);
    uint32_t v = 0;
    ASSERT_EQ(weft_mbox_get(&echo, &v), 0);
    EXPECT_EQ(v, 1u);
    ASSERT_EQ(weft_mbox_get(&echo, &v), 0);
    EXPECT_EQ(v, 2u);
    EXPECT_EQ(weft_mbox_count(&decoy), 0u) << "bad thread reached the decoy mailbox";

    // The slot can be used again.
    for (auto it = threads_.begin(); it != threads_.end(); ++it)
        if (*it == bad) {
            threads_.erase(it);
            break;
        }
    EXPECT_EQ(weft_hwthread_destroy(bad), 0);
    StartCalls(2, {}, "hw-after");
    EXPECT_EQ(Call(2, WEFT_OSIF_CMD_GET_INIT_DATA, 0).status, WEFT_OSIF_OK);

    // Destroy the users of the mailboxes before the mailboxes go.
    for (weft_hwthread_t *t : threads_)
        weft_hwthread_destroy(t);
    threads_.clear();
    weft_mbox_destroy(&decoy);
    weft_mbox_destroy(&echo);
}

INSTANTIATE_TEST_SUITE_P(Modes, BadInput, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<BadCase> &i) {
                             return "mode" + std::to_string(i.param.mode);
                         });

} // namespace

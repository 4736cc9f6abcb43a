// Waveform requests (platform/sim/waves.h): WEFT_WAVES's text, checked field by field,
// and the files later images of a slot record into. (In a file of its own: waves.h's
// namespace weft and weft.h's struct weft cannot meet in one C++ file.)
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "waves.h"

using weft::sim::parse_wave_requests;
using weft::sim::wave_file_name;
using weft::sim::WaveRequest;

namespace
{

TEST(WaveRequests, FieldsDefaultsAndSeveralSlots)
{
    std::vector<WaveRequest> w;
    std::string why;
    ASSERT_TRUE(parse_wave_requests("slot=1 from=10,to=20 file=a.fst; slot=3", 4, &w, &why)) << why;
    ASSERT_EQ(w.size(), 4u);
    EXPECT_FALSE(w[0].wanted);
    EXPECT_TRUE(w[1].wanted);
    EXPECT_EQ(w[1].from, 10u);
    EXPECT_EQ(w[1].to, 20u);
    EXPECT_EQ(w[1].file, "a.fst");
    EXPECT_TRUE(w[3].wanted);
    EXPECT_EQ(w[3].from, 0u);
    EXPECT_EQ(w[3].to, UINT64_MAX);
    EXPECT_EQ(w[3].file, "weft-slot3.fst");
    ASSERT_TRUE(parse_wave_requests(nullptr, 4, &w, &why));
    ASSERT_TRUE(parse_wave_requests(" ; ", 4, &w, &why));
    EXPECT_FALSE(w[1].wanted);
}

TEST(WaveRequests, EachMistakeIsNamed)
{
    const std::map<std::string, std::string> bad = {
        {"slot=4", "slot 4 does not exist (the fabric has 4)"},
        {"slot=x", "slot=x is not a number of a slot"},
        {"slot=0 to=-1", "to=-1 is not a number of fabric cycles"},
        {"slot=0 from=9 to=8", "from=9 is after to=8"},
        {"slot=0 speed=2", "unknown key \"speed\""},
        {"slot=0 file=", "\"file=\" is not key=value"},
        {"from=3", "names no slot"},
        {"slot=1; slot=1", "slot 1 is named twice"},
        {"slot=0 file=a.fst; slot=2 file=a.fst", "two slots record into a.fst"},
        {"slot=99999999999999999999", "is not a number"},
    };
    for (const auto &[text, want] : bad) {
        std::vector<WaveRequest> w;
        std::string why;
        EXPECT_FALSE(parse_wave_requests(text.c_str(), 4, &w, &why)) << text;
        EXPECT_NE(why.find(want), std::string::npos) << text << ": " << why;
    }
}

TEST(WaveRequests, LaterImagesOfASlotGetNumberedFiles)
{
    EXPECT_EQ(wave_file_name("d/run.fst", 0), "d/run.fst");
    EXPECT_EQ(wave_file_name("d/run.fst", 2), "d/run-2.fst");
    EXPECT_EQ(wave_file_name("d.x/run", 1), "d.x/run-1");
    EXPECT_EQ(wave_file_name(".fst", 1), ".fst-1");
}

} // namespace

// The runtime object: weft_init's checks, the fabric cycle counter, logging, the
// weft_mem_* calls and the refusal of calls on OS services the platform lacks.
#include <cerrno>
#include <cstring>

#include "runtime_fixture.h"
#include "weft/hwsync.h"
#include "weft/mthread.h"

namespace
{

TEST(WeftInit, NullArgumentsAreEinval)
{
    fake_platform_t *f = fake_platform_new(nullptr);
    weft_t *w = nullptr;
    EXPECT_EQ(weft_init(nullptr, fake_platform_base(f)), -EINVAL);
    EXPECT_EQ(weft_init(&w, nullptr), -EINVAL);
    fake_platform_free(f);
}

TEST(WeftInit, ForeignIdIsEnodev)
{
    fake_config_t c{};
    c.id = 0x12345678;
    fake_platform_t *f = fake_platform_new(&c);
    weft_t *w = nullptr;
    EXPECT_EQ(weft_init(&w, fake_platform_base(f)), -ENODEV);
    fake_platform_free(f);
}

TEST(WeftInit, OtherProtocolVersionIsEproto)
{
    fake_config_t c{};
    c.version = WEFT_OSIF_VERSION + 1;
    fake_platform_t *f = fake_platform_new(&c);
    weft_t *w = nullptr;
    EXPECT_EQ(weft_init(&w, fake_platform_base(f)), -EPROTO);
    fake_platform_free(f);
}

TEST(WeftInit, StopsEverySlot)
{
    fake_config_t c{};
    c.num_slots = 3;
    fake_platform_t *f = fake_platform_new(&c);
    weft_t *w = nullptr;
    ASSERT_EQ(weft_init(&w, fake_platform_base(f)), 0);
    for (unsigned s = 0; s < 3; s++) {
        uint32_t log[FAKE_CONTROL_LOG];
        ASSERT_EQ(fake_control_log(f, s, log, FAKE_CONTROL_LOG), 1u) << "slot " << s;
        EXPECT_EQ(log[0], WEFT_CONTROL_RESET);
    }
    weft_shutdown(w);
    fake_platform_free(f);
}

TEST(WeftShutdown, NullIsHarmless)
{
    weft_shutdown(nullptr);
}

TEST_F(Runtime, WeftFabricCyclesReadsBothHalves)
{
    fake_set_cycles(f_, 0x0000000500000007ull);
    uint64_t c = 0;
    ASSERT_EQ(weft_fabric_cycles(w_, &c), 0);
    EXPECT_EQ(c, 0x0000000500000007ull);
    EXPECT_EQ(weft_fabric_cycles(nullptr, &c), -EINVAL);
    EXPECT_EQ(weft_fabric_cycles(w_, nullptr), -EINVAL);
}

TEST_F(Runtime, WeftSetLogReceivesOneLinePerMessage)
{
    Start(0, {}, "talker");
    Call(0, 0x55, 0);
    Call(0, 0x56, 0);
    auto log = Log();
    ASSERT_EQ(log.size(), 2u);
    for (const auto &line : log)
        EXPECT_EQ(line.find('\n'), std::string::npos) << line;
}

TEST_F(Runtime, WeftSetLogNullRestoresDefault)
{
    Start(0, {}, "talker");
    weft_set_log(w_, nullptr, nullptr);
    testing::internal::CaptureStderr();
    Call(0, 0x55, 0);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("talker"), std::string::npos) << err;
    EXPECT_TRUE(Log().empty());
}

// The fake's register window holds no OS service (it ends before the services' window):
// every call on one fails with -ENODEV and one log line that names what is missing.
TEST_F(Runtime, CallsOnMissingServicesAreRefusedByName)
{
    EXPECT_EQ(weft_services(w_), 0u);
    EXPECT_EQ(weft_services(nullptr), 0u);
    weft_hwsem_t *sem = nullptr;
    EXPECT_EQ(weft_hwsem_create(w_, 0, 1, &sem), -ENODEV);
    weft_hwcond_t *cond = nullptr;
    EXPECT_EQ(weft_hwcond_create(w_, &cond), -ENODEV);
    weft_mthread_t *t = nullptr;
    EXPECT_EQ(weft_mthread_create(
                  w_, &t, nullptr, [](void *) -> void * { return nullptr; }, nullptr),
              -ENODEV);
    EXPECT_EQ(weft_tm_timer_start(w_, 0, 100, true), -ENODEV);
    EXPECT_EQ(weft_tm_raise(w_, 0), -ENODEV);
    const char *expected[] = {
        "weft_hwsem_create: this platform's static region has no synchronisation manager",
        "weft_hwcond_create: this platform's static region has no synchronisation manager",
        "weft_mthread_create: this platform's static region has no thread manager",
        "weft_tm_timer_start: this platform's static region has no thread manager",
        "weft_tm_raise: this platform's static region has no thread manager",
    };
    auto log = Log();
    ASSERT_EQ(log.size(), std::size(expected));
    for (size_t i = 0; i < log.size(); i++) {
        EXPECT_EQ(log[i].rfind(expected[i], 0), 0u) << log[i];
        EXPECT_NE(log[i].find("SERVICES = 0"), std::string::npos) << log[i];
    }
}

TEST_F(Runtime, WeftMemAllocGivesAddressesInTheDmaRegion)
{
    void *cpu = nullptr;
    uint64_t bus = 0;
    ASSERT_EQ(weft_mem_alloc(w_, 100, &cpu, &bus), 0);
    weft_dma_region_t r = fake_dma(f_);
    EXPECT_GE(bus, r.bus);
    EXPECT_LT(bus, r.bus + r.size);
    EXPECT_EQ(bus % 64, 0u);
    EXPECT_EQ(weft_mem_bus_addr(w_, cpu), bus);
    std::memset(cpu, 0xA5, 100);
    EXPECT_EQ(static_cast<uint8_t *>(r.cpu)[bus - r.bus], 0xA5);
    EXPECT_EQ(weft_mem_free(w_, cpu), 0);
    EXPECT_EQ(weft_mem_free(w_, cpu), -EINVAL);
    EXPECT_EQ(weft_mem_alloc(nullptr, 64, &cpu, &bus), -EINVAL);
    EXPECT_EQ(weft_mem_bus_addr(w_, &bus), 0u);
}

} // namespace

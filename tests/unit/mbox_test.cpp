// Weft mailbox: blocking handoff, no-wait variants, timeouts, many producers and
// consumers, bad arguments. One test per behaviour, named for the call it covers.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

#include "weft/mbox.h"

namespace
{

using Clock = std::chrono::steady_clock;

TEST(MboxInit, RejectsNullAndZeroCapacity)
{
    weft_mbox_t mb;
    EXPECT_EQ(weft_mbox_init(nullptr, 4), -EINVAL);
    EXPECT_EQ(weft_mbox_init(&mb, 0), -EINVAL);
}

TEST(MboxPut, BadArgumentsAreEinval)
{
    uint32_t v;
    EXPECT_EQ(weft_mbox_put(nullptr, 1), -EINVAL);
    EXPECT_EQ(weft_mbox_get(nullptr, &v), -EINVAL);
    EXPECT_EQ(weft_mbox_tryput(nullptr, 1), -EINVAL);
    EXPECT_EQ(weft_mbox_tryget(nullptr, &v), -EINVAL);
    EXPECT_EQ(weft_mbox_timedput(nullptr, 1, 5), -EINVAL);
    EXPECT_EQ(weft_mbox_timedget(nullptr, &v, 5), -EINVAL);
    EXPECT_EQ(weft_mbox_destroy(nullptr), -EINVAL);
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 2), 0);
    EXPECT_EQ(weft_mbox_get(&mb, nullptr), -EINVAL);
    EXPECT_EQ(weft_mbox_tryget(&mb, nullptr), -EINVAL);
    EXPECT_EQ(weft_mbox_destroy(&mb), 0);
}

TEST(MboxGet, ReturnsWordsInFifoOrder)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 3), 0);
    for (uint32_t round = 0; round < 5; round++) { // wraps the ring
        for (uint32_t i = 0; i < 3; i++)
            ASSERT_EQ(weft_mbox_put(&mb, round * 10 + i), 0);
        EXPECT_EQ(weft_mbox_count(&mb), 3u);
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t v = 0;
            ASSERT_EQ(weft_mbox_get(&mb, &v), 0);
            EXPECT_EQ(v, round * 10 + i);
        }
    }
    EXPECT_EQ(weft_mbox_count(&mb), 0u);
    weft_mbox_destroy(&mb);
}

TEST(MboxGet, BlocksUntilAPutHandsAWordOver)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 1), 0);
    std::atomic<bool> got{false};
    uint32_t v = 0;
    std::thread consumer([&] {
        EXPECT_EQ(weft_mbox_get(&mb, &v), 0);
        got = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_FALSE(got.load()) << "get returned from an empty mailbox";
    ASSERT_EQ(weft_mbox_put(&mb, 0xABCD), 0);
    consumer.join();
    EXPECT_TRUE(got.load());
    EXPECT_EQ(v, 0xABCDu);
    weft_mbox_destroy(&mb);
}

TEST(MboxPut, BlocksWhileFullUntilAGetMakesRoom)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 1), 0);
    ASSERT_EQ(weft_mbox_put(&mb, 1), 0);
    std::atomic<bool> put{false};
    std::thread producer([&] {
        EXPECT_EQ(weft_mbox_put(&mb, 2), 0);
        put = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_FALSE(put.load()) << "put returned on a full mailbox";
    uint32_t v = 0;
    ASSERT_EQ(weft_mbox_get(&mb, &v), 0);
    EXPECT_EQ(v, 1u);
    producer.join();
    ASSERT_EQ(weft_mbox_get(&mb, &v), 0);
    EXPECT_EQ(v, 2u);
    weft_mbox_destroy(&mb);
}

TEST(MboxTryget, EmptyIsEagain)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 2), 0);
    uint32_t v = 7;
    EXPECT_EQ(weft_mbox_tryget(&mb, &v), -EAGAIN);
    EXPECT_EQ(v, 7u);
    ASSERT_EQ(weft_mbox_tryput(&mb, 5), 0);
    EXPECT_EQ(weft_mbox_tryget(&mb, &v), 0);
    EXPECT_EQ(v, 5u);
    weft_mbox_destroy(&mb);
}

TEST(MboxTryput, FullIsEagain)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 2), 0);
    EXPECT_EQ(weft_mbox_tryput(&mb, 1), 0);
    EXPECT_EQ(weft_mbox_tryput(&mb, 2), 0);
    EXPECT_EQ(weft_mbox_tryput(&mb, 3), -EAGAIN);
    EXPECT_EQ(weft_mbox_count(&mb), 2u);
    weft_mbox_destroy(&mb);
}

TEST(MboxTimedget, TimesOutOnEmpty)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 2), 0);
    uint32_t v;
    auto t0 = Clock::now();
    EXPECT_EQ(weft_mbox_timedget(&mb, &v, 40), -ETIMEDOUT);
    EXPECT_GE(Clock::now() - t0, std::chrono::milliseconds(35));
    EXPECT_EQ(weft_mbox_timedget(&mb, &v, 0), -ETIMEDOUT);
    weft_mbox_destroy(&mb);
}

TEST(MboxTimedput, TimesOutOnFull)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 1), 0);
    ASSERT_EQ(weft_mbox_put(&mb, 1), 0);
    auto t0 = Clock::now();
    EXPECT_EQ(weft_mbox_timedput(&mb, 2, 40), -ETIMEDOUT);
    EXPECT_GE(Clock::now() - t0, std::chrono::milliseconds(35));
    EXPECT_EQ(weft_mbox_count(&mb), 1u);
    weft_mbox_destroy(&mb);
}

TEST(MboxTimedget, SucceedsWhenAWordArrivesInTime)
{
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 1), 0);
    std::thread producer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        weft_mbox_put(&mb, 99);
    });
    uint32_t v = 0;
    EXPECT_EQ(weft_mbox_timedget(&mb, &v, 5000), 0);
    EXPECT_EQ(v, 99u);
    producer.join();
    weft_mbox_destroy(&mb);
}

TEST(MboxPut, ManyProducersAndConsumersLoseAndDuplicateNothing)
{
    constexpr unsigned kProducers = 4, kConsumers = 4, kPerProducer = 5000;
    weft_mbox_t mb;
    ASSERT_EQ(weft_mbox_init(&mb, 8), 0);
    std::vector<std::atomic<unsigned>> seen(kProducers * kPerProducer);
    for (auto &s : seen)
        s = 0;
    std::vector<std::thread> threads;
    for (unsigned p = 0; p < kProducers; p++)
        threads.emplace_back([&, p] {
            for (unsigned i = 0; i < kPerProducer; i++)
                weft_mbox_put(&mb, p * kPerProducer + i);
        });
    constexpr unsigned kPerConsumer = kProducers * kPerProducer / kConsumers;
    for (unsigned c = 0; c < kConsumers; c++)
        threads.emplace_back([&, c] {
            for (unsigned i = 0; i < kPerConsumer; i++) {
                uint32_t v = 0;
                // Mix the variants: blocking, timed and no-wait gets.
                int rc;
                if (c % 3 == 0)
                    rc = weft_mbox_get(&mb, &v);
                else if (c % 3 == 1)
                    while ((rc = weft_mbox_timedget(&mb, &v, 1)) == -ETIMEDOUT) {
                    }
                else
                    while ((rc = weft_mbox_tryget(&mb, &v)) == -EAGAIN)
                        std::this_thread::yield();
                ASSERT_EQ(rc, 0);
                ASSERT_LT(v, seen.size());
                seen[v]++;
            }
        });
    for (auto &t : threads)
        t.join();
    for (size_t i = 0; i < seen.size(); i++)
        ASSERT_EQ(seen[i].load(), 1u) << "word " << i;
    EXPECT_EQ(weft_mbox_count(&mb), 0u);
    weft_mbox_destroy(&mb);
}

} // namespace

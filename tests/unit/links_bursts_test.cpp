// Hardware links, memory windows and mailbox bursts as the runtime drives them, on the fake
// platform: the registers create writes, what the delegate answers for bursts and for link
// calls that reach it, and the signal bit the static region sees.
#include <cerrno>
#include <thread>

#include "runtime_fixture.h"

namespace
{

weft_link_t *LinkOf(weft_t *w, unsigned i)
{
    weft_link_t *k = nullptr;
    EXPECT_EQ(weft_link_get(w, i, &k), 0);
    return k;
}

TEST_F(Runtime, LinksAreReadFromTheRegisterWindow)
{
    ASSERT_EQ(weft_num_links(w_), FAKE_NUM_LINKS);
    weft_link_info_t info{};
    ASSERT_EQ(weft_link_info(LinkOf(w_, 1), &info), 0);
    EXPECT_EQ(info.index, 1u);
    EXPECT_EQ(info.from, 1u);
    EXPECT_EQ(info.to, 0u);
    EXPECT_EQ(info.depth, 64u);
    weft_link_t *k = nullptr;
    EXPECT_EQ(weft_link_get(w_, FAKE_NUM_LINKS, &k), -ENOENT);
    EXPECT_EQ(weft_link_get(nullptr, 0, &k), -EINVAL);
    EXPECT_EQ(weft_link_info(nullptr, &info), -EINVAL);
}

TEST_F(Runtime, CreateBindsLinkHandlesAndClearsTheRest)
{
    weft_link_t *out = LinkOf(w_, 0), *in = LinkOf(w_, 1); // slot 0 -> 1, slot 1 -> 0
    Start(0, {{WEFT_RES_SEM, &sem_}, {WEFT_RES_LINK, out}, {WEFT_RES_LINK, in}});
    EXPECT_EQ(fake_link_bind(f_, 0, 0), WEFT_LINK_BIND_EN | 0u << WEFT_LINK_BIND_LINK_SHIFT | 1u);
    EXPECT_EQ(fake_link_bind(f_, 0, 1), WEFT_LINK_BIND_EN | 1u << WEFT_LINK_BIND_LINK_SHIFT | 2u);
    // A thread without links leaves no binding of a slot's previous thread behind.
    Start(1, {{WEFT_RES_LINK, out}});
    Destroy(threads_.back());
    Start(1, {{WEFT_RES_SEM, &sem_}});
    EXPECT_EQ(fake_link_bind(f_, 1, 0), 0u);
    EXPECT_EQ(fake_link_bind(f_, 1, 1), 0u);
}

TEST_F(Runtime, CreateRefusesLinksTheSlotCannotBind)
{
    weft_link_t *k = LinkOf(w_, 0);
    weft_hwthread_attr_t a{};
    a.image = "x.so";
    a.slot = 2; // links join slots 0 and 1 only
    weft_resource_t res[FAKE_BINDS + 1];
    for (weft_resource_t &r : res)
        r = {WEFT_RES_LINK, k};
    a.resources = res;
    a.num_resources = 1;
    weft_hwthread_t *t = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "slot is no end of the link";
    a.slot = 0;
    a.num_resources = FAKE_BINDS + 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "more links than bindings";
    int not_a_link = 0;
    res[0].object = &not_a_link;
    a.num_resources = 1;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), -EINVAL) << "object is no link of the runtime";
}

TEST_F(Runtime, LinkFlushIsRefusedWhileBound)
{
    weft_link_t *k = LinkOf(w_, 0);
    weft_hwthread_t *t = Start(0, {{WEFT_RES_LINK, k}});
    EXPECT_EQ(weft_link_flush(k), -EBUSY);
    EXPECT_EQ(fake_link_flushes(f_), 0u);
    Destroy(t);
    EXPECT_EQ(weft_link_flush(k), 0);
    EXPECT_EQ(fake_link_flushes(f_), 1u);
}

// The static region serves link calls in the link's direction; what reaches the delegate
// goes the wrong way, and is refused naming the link.
TEST_F(Runtime, LinkCallThatReachesTheDelegateIsPerm)
{
    Start(0, {{WEFT_RES_LINK, LinkOf(w_, 0)}}, "hw-src");
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_GET, 0).status, WEFT_OSIF_PERM);
    EXPECT_NE(LogLineWith({"hw-src", "MBOX_GET", "PERM", "hardware link 0", "cannot get from"}),
              "");
    // A malformed call is answered as for a mailbox; another type's call is WRONG_TYPE.
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_PUT, 0, {}).status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_SEM_POST, 0).status, WEFT_OSIF_WRONG_TYPE);
}

TEST_F(Runtime, SignalSetsTheSignalBitTheStaticRegionSees)
{
    weft_hwthread_t *t = Start(2, {});
    EXPECT_EQ(fake_control(f_, 2) & WEFT_CONTROL_SIGNAL, 0u);
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), 0);
    EXPECT_EQ(fake_control(f_, 2), WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_SIGNAL);
    Issue(2, WEFT_OSIF_CMD_THREAD_EXIT, 0, {1});
    weft_exit_status_t st{};
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 3000), 0);
    EXPECT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), -ESRCH);
    EXPECT_EQ(fake_control(f_, 2) & WEFT_CONTROL_RUN, 0u) << "a signal restarted an ended slot";
}

TEST_F(Runtime, WindowsReachTheSlotAndUnusedOnesAreCleared)
{
    weft_mem_window_t one{FAKE_DMA_BUS + 0x400, 0x100, WEFT_MEM_READ};
    weft_hwthread_attr_t a{};
    a.image = "x.so";
    a.slot = 3;
    a.windows = &one;
    a.num_windows = 1;
    weft_hwthread_t *t = nullptr;
    ASSERT_EQ(weft_hwthread_create(w_, &t, &a), 0);
    threads_.push_back(t);
    uint32_t base, size, perm;
    fake_window(f_, 3, 0, &base, &size, &perm);
    EXPECT_EQ(base, FAKE_DMA_BUS + 0x400);
    EXPECT_EQ(size, 0x100u);
    EXPECT_EQ(perm, WEFT_WIN_READ);
    fake_window(f_, 3, 1, &base, &size, &perm);
    EXPECT_EQ(size | perm, 0u) << "an unused window must grant nothing";
}

// MBOX_PUT_BURST on a software mailbox: every word in order, blocking while full.
TEST_F(Runtime, MboxPutBurstPutsEveryWordInOrder)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}});
    std::vector<uint32_t> got;
    std::thread consumer([&] {
        for (int i = 0; i < 40; i++) {
            uint32_t v;
            EXPECT_EQ(weft_mbox_timedget(&mbox_, &v, 3000), 0);
            got.push_back(v);
        }
    });
    std::vector<uint32_t> words;
    for (uint32_t i = 0; i < 40; i++)
        words.push_back(0x5000 + i);
    Resp r = Call(0, WEFT_OSIF_CMD_MBOX_PUT_BURST, 0, words);
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(r.results, (std::vector<uint32_t>{weft_osif_burst_end(WEFT_OSIF_OK, 40)}));
    consumer.join();
    EXPECT_EQ(got, words);
}

TEST_F(Runtime, MboxGetBurstTakesExactlyItsCount)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}});
    std::thread producer([&] {
        for (uint32_t i = 0; i < 12; i++)
            EXPECT_EQ(weft_mbox_put(&mbox_, 100 + i), 0);
    });
    Resp r = Call(0, WEFT_OSIF_CMD_MBOX_GET_BURST, 0, {10});
    producer.join();
    ASSERT_EQ(r.status, WEFT_OSIF_OK);
    ASSERT_EQ(r.results.size(), 11u) << "ten words and burst_end";
    for (uint32_t i = 0; i < 10; i++)
        EXPECT_EQ(r.results[i], 100 + i);
    EXPECT_EQ(r.results[10], weft_osif_burst_end(WEFT_OSIF_OK, 10));
    EXPECT_EQ(weft_mbox_count(&mbox_), 2u);
}

TEST_F(Runtime, MboxBurstArgumentsAreChecked)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}});
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_PUT_BURST, 0, {}).status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_GET_BURST, 0, {0}).status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_GET_BURST, 0, {WEFT_OSIF_MAX_ARGS + 1}).status,
              WEFT_OSIF_BADARGS);
    EXPECT_NE(LogLineWith({"MBOX_GET_BURST", "BADARGS", "a burst get of 0 words"}), "");
    EXPECT_NE(LogLineWith({"MBOX_PUT_BURST", "BADARGS", "carries no word"}), "");
}

// A signal or timeout ends a burst that waits. Before its first word moves the status
// says so and nothing moved; after it the response is OK and burst_end says how the call
// ended and how many words moved: a word taken from the mailbox is delivered, a word the
// mailbox had no room for stays the thread's, and none is lost.
TEST_F(Runtime, MboxBurstEndedBeforeItsFirstWordMovesNothing)
{
    Start(0, {{WEFT_RES_MBOX, &mbox_}});
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_TIMEDGET_BURST, 0, {4, 1000}).status, WEFT_OSIF_TIMEDOUT);
    EXPECT_EQ(weft_mbox_count(&mbox_), 0u);
}

TEST_F(Runtime, MboxGetBurstCancelledPartwayDeliversTheWordsItTook)
{
    weft_hwthread_t *t = Start(0, {{WEFT_RES_MBOX, &mbox_}});
    ASSERT_EQ(weft_mbox_put(&mbox_, 1), 0);
    Issue(0, WEFT_OSIF_CMD_MBOX_GET_BURST, 0, {3}); // takes word 1, then waits for two
    EXPECT_FALSE(Collect(0, 60).arrived) << "a burst get waiting for words was answered";
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_YIELD), 0);
    Resp r = Collect(0);
    ASSERT_TRUE(r.arrived) << "the signal did not end the waiting burst";
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(r.results,
              (std::vector<uint32_t>{1, 0, 0, weft_osif_burst_end(WEFT_OSIF_CANCELED, 1)}));
    // Words that come later stay in the mailbox; the thread was told it got one.
    ASSERT_EQ(weft_mbox_put(&mbox_, 2), 0);
    EXPECT_EQ(Call(0, WEFT_OSIF_CMD_MBOX_GET_BURST, 0, {2}).status, WEFT_OSIF_OK)
        << "with the signal pending, a burst that can go on still does (here: one word)";
    EXPECT_EQ(weft_mbox_count(&mbox_), 0u);
}

TEST_F(Runtime, MboxPutBurstEndedPartwayKeepsTheWordsItPut)
{
    weft_mbox_t small;
    ASSERT_EQ(weft_mbox_init(&small, 3), 0);
    weft_hwthread_t *t = Start(0, {{WEFT_RES_MBOX, &small}});
    // Three words fit; the fourth waits for room until the timeout (50 ms) ends the call.
    Resp r = Call(0, WEFT_OSIF_CMD_MBOX_TIMEDPUT_BURST, 0, {50000, 11, 12, 13, 14, 15});
    EXPECT_EQ(r.status, WEFT_OSIF_OK);
    EXPECT_EQ(r.results, (std::vector<uint32_t>{weft_osif_burst_end(WEFT_OSIF_TIMEDOUT, 3)}));
    EXPECT_EQ(weft_mbox_count(&small), 3u);
    // A signal ends a waiting put the same way; nothing moved: CANCELED, no result word.
    Issue(0, WEFT_OSIF_CMD_MBOX_PUT_BURST, 0, {16, 17});
    EXPECT_FALSE(Collect(0, 60).arrived);
    ASSERT_EQ(weft_hwthread_signal(t, WEFT_SIGNAL_STOP), 0);
    r = Collect(0);
    EXPECT_EQ(r.status, WEFT_OSIF_CANCELED);
    EXPECT_TRUE(r.results.empty());
    uint32_t v = 0;
    for (uint32_t want : {11u, 12u, 13u}) {
        ASSERT_EQ(weft_mbox_tryget(&small, &v), 0);
        EXPECT_EQ(v, want);
    }
    Destroy(t);
    weft_mbox_destroy(&small);
}

} // namespace

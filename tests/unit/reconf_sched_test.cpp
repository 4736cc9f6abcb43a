// FRED's scheduling rules (runtime/reconf_sched.h), event by event: reuse without
// reconfiguration, a FIFO queue per partition, the port's queue by ticket, one slot
// programmed at a time, a failed programming, cancelling, and a refused layout.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "reconf_sched.h"

namespace
{

// Two partitions: A = slots 0 and 1, B = slot 2. Tasks 0, 1, 2 fit A; tasks 3, 4 fit B.
class Sched : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        static const uint64_t parts[] = {0x3, 0x4};
        static const unsigned tasks[] = {0, 0, 0, 1, 1};
        reconf_layout_t l{2, parts, 5, tasks};
        reconf_sched_ops_t ops{
            [](void *a, unsigned slot, unsigned task, uint64_t req) {
                auto *t = static_cast<Sched *>(a);
                t->log.push_back("prog " + std::to_string(slot) + " t" + std::to_string(task));
                t->prog_slot = static_cast<int>(slot);
                t->prog_req = req;
            },
            [](void *a, unsigned slot, uint64_t req) {
                auto *t = static_cast<Sched *>(a);
                t->log.push_back("run " + std::to_string(slot) + " r" + std::to_string(req));
                // What runs in a slot just programmed is the request it was programmed for.
                if (t->prog_slot == static_cast<int>(slot)) {
                    EXPECT_EQ(req, t->prog_req) << "slot " << slot;
                    t->prog_slot = -1;
                }
                if (t->end_at_once)
                    EXPECT_EQ(reconf_sched_finished(t->s, slot), 0);
            },
            [](void *a, uint64_t req, int err) {
                auto *t = static_cast<Sched *>(a);
                t->log.push_back("fail r" + std::to_string(req) + " " + std::to_string(err));
                if (err == -EIO) // a failed programming fails the request it was for
                    EXPECT_EQ(req, t->prog_req);
            }};
        ASSERT_EQ(reconf_sched_create(&s, &l, &ops, this), 0);
    }
    void TearDown() override { reconf_sched_destroy(s); }

    uint64_t Submit(unsigned task, uint64_t ticket)
    {
        uint64_t id = 0;
        EXPECT_EQ(reconf_sched_submit(s, task, ticket, &id), 0);
        return id;
    }
    // The events since the last call, and forget them.
    std::vector<std::string> Take()
    {
        std::vector<std::string> v;
        v.swap(log);
        return v;
    }
    using V = std::vector<std::string>;

    reconf_sched_t *s = nullptr;
    std::vector<std::string> log;
    bool end_at_once = false;
    int prog_slot = -1;    // the slot the port programs, -1: none
    uint64_t prog_req = 0; // and for which request
};

TEST_F(Sched, AFreeSlotThatHoldsTheTaskRunsItWithoutReconfiguration)
{
    Submit(0, 1);
    EXPECT_EQ(Take(), (V{"prog 0 t0"}));
    ASSERT_EQ(reconf_sched_reconfigured(s, 0, true), 0);
    EXPECT_EQ(Take(), (V{"run 0 r1"}));
    ASSERT_EQ(reconf_sched_finished(s, 0), 0);
    Submit(0, 2); // slot 0 holds task 0 and is free: no programming
    EXPECT_EQ(Take(), (V{"run 0 r2"}));
    reconf_sched_stats_t st{};
    reconf_sched_stats(s, &st);
    EXPECT_EQ(st.reused, 1u);
    EXPECT_EQ(st.reconfigured, 1u);
    EXPECT_EQ(reconf_sched_slot_task(s, 0), 0u);
}

TEST_F(Sched, AnEmptySlotIsTakenBeforeOneHoldingAnotherTask)
{
    Submit(0, 1);
    reconf_sched_reconfigured(s, 0, true);
    reconf_sched_finished(s, 0);
    Take();
    Submit(1, 2); // slot 0 holds task 0, slot 1 is empty
    EXPECT_EQ(Take(), (V{"prog 1 t1"}));
}

TEST_F(Sched, OfSlotsHoldingOtherTasksTheOneFreeTheLongestIsTaken)
{
    // Slot 0 gets task 0, slot 1 task 1; slot 1 ends first, then slot 0.
    Submit(0, 1);
    reconf_sched_reconfigured(s, 0, true);
    Submit(1, 2);
    reconf_sched_reconfigured(s, 1, true);
    reconf_sched_finished(s, 1);
    reconf_sched_finished(s, 0);
    Take();
    Submit(2, 3); // neither holds task 2: slot 1 has been free the longer
    EXPECT_EQ(Take(), (V{"prog 1 t2"}));
    reconf_sched_reconfigured(s, 1, true);
    reconf_sched_finished(s, 1);
    Take();
    Submit(1, 4); // task 1 is gone from slot 1; slot 0 (task 0) is now free the longest
    EXPECT_EQ(Take(), (V{"prog 0 t1"}));
}

TEST_F(Sched, RequestsWaitInTheirPartitionsQueueFirstInFirstOut)
{
    Submit(3, 1); // partition B has one slot
    reconf_sched_reconfigured(s, 2, true);
    Take();
    Submit(4, 2); // queued
    Submit(3, 3); // queued behind, though slot 2 holds task 3
    EXPECT_TRUE(Take().empty());
    reconf_sched_finished(s, 2); // r2 first: it needs programming
    EXPECT_EQ(Take(), (V{"prog 2 t4"}));
    reconf_sched_reconfigured(s, 2, true);
    reconf_sched_finished(s, 2);
    EXPECT_EQ(Take(), (V{"run 2 r2", "prog 2 t3"}));
}

TEST_F(Sched, ThePortProgramsOneSlotAtATimeByTicket)
{
    Submit(0, 10); // slot 0, programming starts
    Submit(3, 30); // slot 2 reserved, waits for the port
    Submit(1, 20); // slot 1 reserved, waits; its ticket is older than r2's
    EXPECT_EQ(Take(), (V{"prog 0 t0"}));
    EXPECT_EQ(reconf_sched_reconfigured(s, 2, true), -EINVAL) << "slot 2 is not being programmed";
    reconf_sched_reconfigured(s, 0, true);
    EXPECT_EQ(Take(), (V{"run 0 r1", "prog 1 t1"})); // ticket 20 before 30
    reconf_sched_reconfigured(s, 1, true);
    EXPECT_EQ(Take(), (V{"run 1 r3", "prog 2 t3"}));
}

TEST_F(Sched, EqualTicketsGoInArrivalOrder)
{
    Submit(0, 5);
    Submit(3, 7);
    Submit(1, 7);
    Take();
    reconf_sched_reconfigured(s, 0, true);
    EXPECT_EQ(Take(), (V{"run 0 r1", "prog 2 t3"}));
}

TEST_F(Sched, AFailedProgrammingFailsItsRequestAndLeavesTheSlotEmptyAndUsable)
{
    Submit(3, 1);
    Submit(4, 2); // queued for partition B
    Take();
    ASSERT_EQ(reconf_sched_reconfigured(s, 2, false), 0);
    EXPECT_EQ(Take(), (V{"fail r1 " + std::to_string(-EIO), "prog 2 t4"}));
    EXPECT_EQ(reconf_sched_slot_task(s, 2), RECONF_NO_TASK);
    reconf_sched_reconfigured(s, 2, true);
    EXPECT_EQ(Take(), (V{"run 2 r2"}));
}

TEST_F(Sched, CancelTakesBackOnlyWhatHasNotStarted)
{
    Submit(3, 1); // programming
    Submit(4, 2); // queued
    Submit(0, 3); // slot 0 reserved, waits for the port
    Take();
    EXPECT_EQ(reconf_sched_cancel(s, 1), -EBUSY);
    EXPECT_EQ(reconf_sched_cancel(s, 2), 0);
    EXPECT_EQ(reconf_sched_cancel(s, 3), 0); // its slot is free again
    EXPECT_EQ(reconf_sched_cancel(s, 99), -ENOENT);
    EXPECT_EQ(Take(), (V{"fail r2 " + std::to_string(-ECANCELED),
                         "fail r3 " + std::to_string(-ECANCELED)}));
    reconf_sched_reconfigured(s, 2, true);
    EXPECT_EQ(Take(), (V{"run 2 r1"})) << "nothing else waited for the port";
    Submit(1, 4); // slots 0 and 1 are both free and empty
    EXPECT_EQ(Take(), (V{"prog 0 t1"}));
}

TEST_F(Sched, ATaskThatEndsInsideItsStartCallIsFine)
{
    end_at_once = true;
    Submit(3, 1);
    Submit(4, 2);
    reconf_sched_reconfigured(s, 2, true); // r1 runs and ends; r2 takes the slot
    EXPECT_EQ(Take(), (V{"prog 2 t3", "run 2 r1", "prog 2 t4"}));
    reconf_sched_reconfigured(s, 2, true);
    EXPECT_EQ(Take(), (V{"run 2 r2"}));
    EXPECT_EQ(reconf_sched_finished(s, 2), -EINVAL) << "it ended already";
}

TEST_F(Sched, BadCallsAreRefused)
{
    uint64_t id;
    EXPECT_EQ(reconf_sched_submit(s, 5, 1, &id), -EINVAL);
    EXPECT_EQ(reconf_sched_finished(s, 0), -EINVAL);
    EXPECT_EQ(reconf_sched_reconfigured(s, 64, true), -EINVAL);
    EXPECT_EQ(reconf_sched_finished(s, 1000), -EINVAL);
}

TEST(SchedLayout, OverlappingOrEmptyPartitionsAndStrayTasksAreRefused)
{
    reconf_sched_ops_t ops{[](void *, unsigned, unsigned, uint64_t) {},
                           [](void *, unsigned, uint64_t) {}, [](void *, uint64_t, int) {}};
    reconf_sched_t *s = nullptr;
    const uint64_t overlap[] = {0x3, 0x6}, empty[] = {0x3, 0x0}, good[] = {0x3, 0xC};
    const unsigned tasks[] = {0, 2};
    reconf_layout_t l{2, overlap, 0, nullptr};
    EXPECT_EQ(reconf_sched_create(&s, &l, &ops, nullptr), -EINVAL);
    l.partition_slots = empty;
    EXPECT_EQ(reconf_sched_create(&s, &l, &ops, nullptr), -EINVAL);
    l = {2, good, 2, tasks}; // task 1 names partition 2 of 2
    EXPECT_EQ(reconf_sched_create(&s, &l, &ops, nullptr), -EINVAL);
    l.num_tasks = 1;
    ASSERT_EQ(reconf_sched_create(&s, &l, &ops, nullptr), 0);
    reconf_sched_destroy(s);
}

} // namespace

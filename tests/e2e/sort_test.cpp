// hwt_sort end to end: blocks sorted in place by co-simulated hardware threads.
#include "e2e_fixture.h"

#include <semaphore.h>

#include <algorithm>
#include <random>

namespace
{

class Sort : public Fabric
{
  protected:
    weft_hwthread_t *StartSort(unsigned slot, weft_mbox_t *mb, sem_t *done, pthread_mutex_t *m)
    {
        return Start({"hwt_sort",
                      "hw-sort",
                      slot,
                      {{WEFT_RES_MBOX, mb}, {WEFT_RES_SEM, done}, {WEFT_RES_MUTEX, m}},
                      0 | 1u << 8 | 2u << 16});
    }
};

TEST_F(Sort, TwoHardwareThreadsSortEveryBlock)
{
    weft_mbox_t mb;
    sem_t done;
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    ASSERT_EQ(weft_mbox_init(&mb, 64), 0);
    sem_init(&done, 0, 0);
    weft_hwthread_t *a = StartSort(0, &mb, &done, &m);
    weft_hwthread_t *b = StartSort(3, &mb, &done, &m);

    std::mt19937 rng(7);
    const std::vector<unsigned> sizes = {1, 2, 17, 64, 100, 64};
    std::vector<uint32_t *> blocks;
    std::vector<std::vector<uint32_t>> expect;
    for (size_t i = 0; i < sizes.size(); i++) {
        void *cpu;
        uint64_t bus;
        ASSERT_EQ(weft_mem_alloc(w_, sizes[i] * 4, &cpu, &bus), 0);
        auto *p = static_cast<uint32_t *>(cpu);
        for (unsigned k = 0; k < sizes[i]; k++)
            p[k] = i == 3 ? 1000 - k : (i == 5 ? rng() % 4 : rng()); // reversed; duplicates
        expect.emplace_back(p, p + sizes[i]);
        std::sort(expect.back().begin(), expect.back().end());
        blocks.push_back(p);
        ASSERT_EQ(weft_mbox_put(&mb, static_cast<uint32_t>(bus)), 0);
        ASSERT_EQ(weft_mbox_put(&mb, sizes[i] * 4), 0);
    }
    for (size_t i = 0; i < sizes.size(); i++)
        ASSERT_EQ(sem_wait(&done), 0);
    for (int stop = 0; stop < 2; stop++) {
        weft_mbox_put(&mb, 0);
        weft_mbox_put(&mb, 0);
    }
    weft_exit_status_t sa, sb;
    ASSERT_EQ(weft_hwthread_timedjoin(a, &sa, 20000), 0);
    ASSERT_EQ(weft_hwthread_timedjoin(b, &sb, 20000), 0);
    EXPECT_EQ(sa.kind, WEFT_EXIT_NORMAL) << sa.message;
    EXPECT_EQ(sb.kind, WEFT_EXIT_NORMAL) << sb.message;
    EXPECT_EQ(sa.value + sb.value, sizes.size()) << "blocks reported by the two threads";
    for (size_t i = 0; i < sizes.size(); i++)
        EXPECT_TRUE(std::equal(expect[i].begin(), expect[i].end(), blocks[i])) << "block " << i;
    for (weft_hwthread_t *t : threads_)
        weft_hwthread_destroy(t);
    threads_.clear();
    weft_mbox_destroy(&mb);
    sem_destroy(&done);
}

TEST_F(Sort, OversizedBlockIsRefusedWithoutTouchingMemory)
{
    weft_mbox_t mb;
    sem_t done;
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    ASSERT_EQ(weft_mbox_init(&mb, 8), 0);
    sem_init(&done, 0, 0);
    weft_hwthread_t *t = StartSort(0, &mb, &done, &m);
    void *cpu;
    uint64_t bus;
    ASSERT_EQ(weft_mem_alloc(w_, 4 * 4096, &cpu, &bus), 0);
    auto *p = static_cast<uint32_t *>(cpu);
    for (unsigned k = 0; k < 4096; k++)
        p[k] = 4096 - k;
    ASSERT_EQ(weft_mbox_put(&mb, static_cast<uint32_t>(bus)), 0);
    ASSERT_EQ(weft_mbox_put(&mb, 4 * 4096), 0); // twice the thread's local RAM
    weft_exit_status_t st;
    ASSERT_EQ(weft_hwthread_timedjoin(t, &st, 20000), 0);
    EXPECT_EQ(st.kind, WEFT_EXIT_NORMAL);
    EXPECT_EQ(st.value, 0xFFFFFFFFu);
    for (unsigned k = 0; k < 4096; k++)
        ASSERT_EQ(p[k], 4096 - k) << "word " << k << " changed";
    for (weft_hwthread_t *x : threads_)
        weft_hwthread_destroy(x);
    threads_.clear();
    weft_mbox_destroy(&mb);
    sem_destroy(&done);
}

} // namespace

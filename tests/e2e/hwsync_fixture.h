// The fixture of the synchronisation manager's end-to-end tests (hwsync_test.cpp,
// hwsync_sw_test.cpp): the fabric with hwt_calls threads, and the manager's objects.
#ifndef WEFT_TESTS_E2E_HWSYNC_FIXTURE_H
#define WEFT_TESTS_E2E_HWSYNC_FIXTURE_H

#include "e2e_fixture.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>

extern "C" {
#include "weft/hwsync.h"
}

constexpr uint32_t kH = 2; // first extra handle of hwt_calls

class HwSync : public Fabric
{
  protected:
    weft_hwsem_t *Sem(unsigned value, unsigned max)
    {
        weft_hwsem_t *s = nullptr;
        EXPECT_EQ(weft_hwsem_create(w_, value, max, &s), 0);
        return s;
    }
    weft_hwmutex_t *Mutex(int type = PTHREAD_MUTEX_NORMAL, int protocol = PTHREAD_PRIO_NONE)
    {
        weft_hwmutex_t *m = nullptr;
        EXPECT_EQ(weft_hwmutex_create(w_, type, protocol, &m), 0);
        return m;
    }
    weft_hwcond_t *Cond()
    {
        weft_hwcond_t *c = nullptr;
        EXPECT_EQ(weft_hwcond_create(w_, &c), 0);
        return c;
    }
    unsigned Value(weft_hwsem_t *s)
    {
        unsigned v = 0;
        EXPECT_EQ(weft_hwsem_getvalue(s, &v), 0);
        return v;
    }
    // Wait until n threads are blocked on the object (hardware or software); false if
    // that did not happen within 20 s.
    bool AwaitWaiters(const void *object, unsigned n)
    {
        for (int i = 0; i < 20000; i++) {
            unsigned got = 0;
            EXPECT_EQ(weft_hwsync_waiters(object, &got), 0);
            if (got == n)
                return true;
            usleep(1000);
        }
        return false;
    }
    unsigned Depth(weft_hwmutex_t *m)
    {
        unsigned d = 0;
        EXPECT_EQ(weft_hwmutex_depth(m, &d), 0);
        return d;
    }
    // OS calls the slot's delegate has served: hwt_calls' mailbox traffic only.
    uint64_t DelegateCalls(unsigned slot)
    {
        weft_hwthread_stats_t st{};
        EXPECT_EQ(weft_hwthread_stats(threads_[slot], &st), 0);
        return st.calls;
    }
    // Destroy the thread in `slot` before the fixture does.
    void Destroy(weft_hwthread_t *t)
    {
        EXPECT_EQ(weft_hwthread_destroy(t), 0);
        threads_.erase(std::find(threads_.begin(), threads_.end(), t));
    }
};

#endif // WEFT_TESTS_E2E_HWSYNC_FIXTURE_H

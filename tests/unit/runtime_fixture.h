// A runtime on the fake platform, with the test playing the hardware thread.
#ifndef WEFT_TESTS_RUNTIME_FIXTURE_H
#define WEFT_TESTS_RUNTIME_FIXTURE_H

#include <gtest/gtest.h>

#include <mutex>
#include <semaphore.h>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "weft/weft.h"

class Runtime : public ::testing::Test
{
  protected:
    /** What the "hardware thread" read back for one call. */
    struct Resp {
        bool arrived = false;
        uint32_t cmd = 0, status = 0;
        std::vector<uint32_t> results;
    };

    void SetUp() override;
    void TearDown() override;

    /** Create a hardware thread in a slot with the given resource array. */
    weft_hwthread_t *Start(unsigned slot, std::vector<weft_resource_t> res,
                           const char *name = "hw-test", uint32_t init_data = 0,
                           std::vector<weft_mem_window_t> windows = {});
    /** Destroy one thread now (and forget it). */
    void Destroy(weft_hwthread_t *t);

    /** Push one request: header (nargs = args.size()) and args. */
    void Issue(unsigned slot, uint32_t cmd, uint32_t handle, std::vector<uint32_t> args = {});
    /** Read one response: header and the result words it announces. */
    Resp Collect(unsigned slot, int timeout_ms = 3000);
    /** Issue then Collect. */
    Resp Call(unsigned slot, uint32_t cmd, uint32_t handle, std::vector<uint32_t> args = {});

    /** Log lines so far. */
    std::vector<std::string> Log();
    /** The log line mentioning every string given, or "" if none does. */
    std::string LogLineWith(std::vector<std::string> parts);

    fake_platform_t *f_ = nullptr;
    weft_t *w_ = nullptr;
    std::vector<weft_hwthread_t *> threads_;

    // Objects for resource arrays; they outlive every thread of the test.
    sem_t sem_;
    pthread_mutex_t mutex_;
    pthread_cond_t cond_;
    weft_mbox_t mbox_;

  private:
    static void LogSink(void *arg, const char *msg);
    std::mutex log_lock_;
    std::vector<std::string> log_;
};

#endif // WEFT_TESTS_RUNTIME_FIXTURE_H

// Shared set-up of the end-to-end tests: a simulated fabric, the runtime, and a way to
// make a hardware thread (hwt_calls) perform any OS call.
#pragma once

#include <gtest/gtest.h>

#include <mqueue.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

extern "C" {
#include "weft/sim.h"
#include "weft/weft.h"
}

// Pseudo-instructions of hwt_calls (hw/threads/calls): not OSIF commands.
constexpr uint32_t kCallsMemRead = 0xF0;
constexpr uint32_t kCallsMemWrite = 0xF1;
constexpr uint32_t kCallsMemIncrement = 0xF2;
constexpr uint32_t kCallsRaw = 0xF3;

// What hwt_calls reports for one instruction: the response header and its result words.
struct CallResult {
    bool arrived = false;
    uint32_t cmd = 0;
    uint32_t status = 0;
    std::vector<uint32_t> results;
};

class Fabric : public ::testing::Test
{
  protected:
    void SetUp() override;
    void TearDown() override;

    // What a thread is started with; windows empty means the whole DMA region, RW.
    struct ThreadSpec {
        const char *image;
        const char *name;
        unsigned slot;
        std::vector<weft_resource_t> resources;
        uint32_t init_data = 0;
        std::vector<weft_mem_window_t> windows = {};
        bool resume = false;
        uint32_t resume_state = 0;
        unsigned sync_priority = 0;
    };
    // Create the thread (a failure is a test failure) and keep it for TearDown.
    weft_hwthread_t *Start(const ThreadSpec &spec);
    // An anonymous POSIX message queue (created, then unlinked at once).
    static mqd_t OpenQueue(long maxmsg, long msgsize);

    // Start hwt_calls in `slot`; handles 0 and 1 are its instruction and result
    // mailboxes (owned by the fixture), `extra` are bound from handle 2 on.
    // sync_priority: its calls' priority on the synchronisation manager's objects.
    weft_hwthread_t *StartCalls(unsigned slot, const std::vector<weft_resource_t> &extra,
                                const char *name = "hw-calls", unsigned sync_priority = 0);
    // Send one instruction to the calls thread in `slot` without waiting for the result.
    void Issue(unsigned slot, uint32_t cmd, uint32_t handle,
               const std::vector<uint32_t> &args = {});
    // Collect the result of the oldest issued instruction; arrived=false on timeout.
    CallResult Collect(unsigned slot, int timeout_ms = 20000);
    // Issue then collect.
    CallResult Call(unsigned slot, uint32_t cmd, uint32_t handle,
                    const std::vector<uint32_t> &args = {});

    std::string Image(const char *name) const
    {
        return std::string(WEFT_IMAGE_DIR "/") + name + ".so";
    }
    std::vector<std::string> Log();

    weft_platform_t *plat_ = nullptr;
    weft_t *w_ = nullptr;
    weft_dma_region_t dma_{};
    weft_mbox_t instr_[4];
    weft_mbox_t result_[4];
    std::vector<weft_hwthread_t *> threads_;

  private:
    static void LogSink(void *arg, const char *msg);
    std::mutex log_lock_;
    std::vector<std::string> log_;
};

#include "runtime_fixture.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>

void Runtime::SetUp()
{
    f_ = fake_platform_new(nullptr);
    ASSERT_NE(f_, nullptr);
    ASSERT_EQ(weft_init(&w_, fake_platform_base(f_)), 0);
    weft_set_log(w_, &Runtime::LogSink, this);
    ASSERT_EQ(sem_init(&sem_, 0, 0), 0);
    ASSERT_EQ(pthread_mutex_init(&mutex_, nullptr), 0);
    ASSERT_EQ(pthread_cond_init(&cond_, nullptr), 0);
    ASSERT_EQ(weft_mbox_init(&mbox_, 2), 0);
}

void Runtime::TearDown()
{
    for (weft_hwthread_t *t : threads_)
        EXPECT_EQ(weft_hwthread_destroy(t), 0);
    threads_.clear();
    if (w_)
        weft_shutdown(w_);
    w_ = nullptr;
    weft_mbox_destroy(&mbox_);
    pthread_cond_destroy(&cond_);
    pthread_mutex_destroy(&mutex_);
    sem_destroy(&sem_);
    fake_platform_free(f_);
}

weft_hwthread_t *Runtime::Start(unsigned slot, std::vector<weft_resource_t> res, const char *name,
                                uint32_t init_data, std::vector<weft_mem_window_t> windows)
{
    weft_hwthread_attr_t a{};
    a.name = name;
    a.image = "test_thread.so";
    a.slot = slot;
    a.resources = res.empty() ? nullptr : res.data();
    a.num_resources = static_cast<unsigned>(res.size());
    a.init_data = init_data;
    a.windows = windows.empty() ? nullptr : windows.data();
    a.num_windows = static_cast<unsigned>(windows.size());
    weft_hwthread_t *t = nullptr;
    EXPECT_EQ(weft_hwthread_create(w_, &t, &a), 0);
    if (t)
        threads_.push_back(t);
    return t;
}

void Runtime::Destroy(weft_hwthread_t *t)
{
    threads_.erase(std::remove(threads_.begin(), threads_.end(), t), threads_.end());
    EXPECT_EQ(weft_hwthread_destroy(t), 0);
}

void Runtime::Issue(unsigned slot, uint32_t cmd, uint32_t handle, std::vector<uint32_t> args)
{
    std::vector<uint32_t> words = {
        weft_osif_req_header(cmd, handle, static_cast<uint32_t>(args.size()))};
    words.insert(words.end(), args.begin(), args.end());
    // A word waits for room, as a thread's does when the FIFO is full.
    for (uint32_t w : words) {
        int rc;
        for (int tries = 0; (rc = fake_hw_push(f_, slot, w)) == -ENOSPC && tries < 3000; tries++)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ASSERT_EQ(rc, 0);
    }
}

Runtime::Resp Runtime::Collect(unsigned slot, int timeout_ms)
{
    Resp r;
    uint32_t hdr;
    if (fake_hw_pop(f_, slot, &hdr, timeout_ms) != 0)
        return r;
    r.arrived = true;
    r.cmd = (hdr >> WEFT_OSIF_RESP_CMD_SHIFT) & WEFT_OSIF_RESP_CMD_MASK;
    r.status = (hdr >> WEFT_OSIF_RESP_STATUS_SHIFT) & WEFT_OSIF_RESP_STATUS_MASK;
    uint32_t n = (hdr >> WEFT_OSIF_RESP_NWORDS_SHIFT) & WEFT_OSIF_RESP_NWORDS_MASK;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v;
        if (fake_hw_pop(f_, slot, &v, timeout_ms) != 0) {
            ADD_FAILURE() << "response announced " << n << " words, got " << i;
            break;
        }
        r.results.push_back(v);
    }
    return r;
}

Runtime::Resp Runtime::Call(unsigned slot, uint32_t cmd, uint32_t handle,
                            std::vector<uint32_t> args)
{
    Issue(slot, cmd, handle, args);
    return Collect(slot);
}

void Runtime::LogSink(void *arg, const char *msg)
{
    auto *self = static_cast<Runtime *>(arg);
    std::lock_guard<std::mutex> g(self->log_lock_);
    self->log_.emplace_back(msg);
}

std::vector<std::string> Runtime::Log()
{
    std::lock_guard<std::mutex> g(log_lock_);
    return log_;
}

std::string Runtime::LogLineWith(std::vector<std::string> parts)
{
    for (const std::string &line : Log()) {
        bool all = true;
        for (const std::string &p : parts)
            all = all && line.find(p) != std::string::npos;
        if (all)
            return line;
    }
    return "";
}

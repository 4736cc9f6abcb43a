#include "e2e_fixture.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>

void Fabric::LogSink(void *arg, const char *msg)
{
    auto *self = static_cast<Fabric *>(arg);
    std::lock_guard<std::mutex> g(self->log_lock_);
    self->log_.emplace_back(msg);
}

std::vector<std::string> Fabric::Log()
{
    std::lock_guard<std::mutex> g(log_lock_);
    return log_;
}

void Fabric::SetUp()
{
    ASSERT_EQ(weft_sim_open(&plat_, nullptr), 0);
    ASSERT_EQ(weft_init(&w_, plat_), 0);
    weft_set_log(w_, LogSink, this);
    ASSERT_EQ(plat_->ops->dma_region(plat_, &dma_), 0);
    for (unsigned s = 0; s < 4; s++) {
        ASSERT_EQ(weft_mbox_init(&instr_[s], 64), 0);
        ASSERT_EQ(weft_mbox_init(&result_[s], 64), 0);
    }
}

void Fabric::TearDown()
{
    for (weft_hwthread_t *t : threads_)
        weft_hwthread_destroy(t);
    if (w_)
        weft_shutdown(w_);
    if (plat_)
        plat_->ops->close(plat_);
    for (unsigned s = 0; s < 4; s++) {
        weft_mbox_destroy(&instr_[s]);
        weft_mbox_destroy(&result_[s]);
    }
}

weft_hwthread_t *Fabric::Start(const ThreadSpec &spec)
{
    std::string image = Image(spec.image);
    std::vector<weft_mem_window_t> windows = spec.windows;
    if (windows.empty())
        windows.push_back({dma_.bus, dma_.size, WEFT_MEM_RW});
    weft_hwthread_attr_t attr{};
    attr.name = spec.name;
    attr.image = image.c_str();
    attr.slot = spec.slot;
    attr.resources = spec.resources.data();
    attr.num_resources = static_cast<unsigned>(spec.resources.size());
    attr.init_data = spec.init_data;
    attr.windows = windows.data();
    attr.num_windows = static_cast<unsigned>(windows.size());
    attr.resume = spec.resume;
    attr.resume_state = spec.resume_state;
    attr.sync_priority = spec.sync_priority;
    weft_hwthread_t *t = nullptr;
    int rc = weft_hwthread_create(w_, &t, &attr);
    EXPECT_EQ(rc, 0) << "creating " << spec.name << " (" << spec.image << ") in slot " << spec.slot;
    if (t)
        threads_.push_back(t);
    return t;
}

mqd_t Fabric::OpenQueue(long maxmsg, long msgsize)
{
    static std::atomic<int> n{0};
    std::string name = "/weft-e2e-" + std::to_string(getpid()) + "-" + std::to_string(n++);
    mq_attr a{};
    a.mq_maxmsg = maxmsg;
    a.mq_msgsize = msgsize;
    mqd_t q = mq_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600, &a);
    EXPECT_NE(q, (mqd_t)-1) << "mq_open " << name;
    mq_unlink(name.c_str());
    return q;
}

weft_hwthread_t *Fabric::StartCalls(unsigned slot, const std::vector<weft_resource_t> &extra,
                                    const char *name, unsigned sync_priority)
{
    std::vector<weft_resource_t> res = {{WEFT_RES_MBOX, &instr_[slot]},
                                        {WEFT_RES_MBOX, &result_[slot]}};
    res.insert(res.end(), extra.begin(), extra.end());
    ThreadSpec spec = {"hwt_calls", name, slot, res, 0 | 1u << 8};
    spec.sync_priority = sync_priority;
    return Start(spec);
}

void Fabric::Issue(unsigned slot, uint32_t cmd, uint32_t handle, const std::vector<uint32_t> &args)
{
    ASSERT_EQ(weft_mbox_put(&instr_[slot],
                            weft_osif_req_header(cmd, handle, static_cast<uint32_t>(args.size()))),
              0);
    for (uint32_t a : args)
        ASSERT_EQ(weft_mbox_put(&instr_[slot], a), 0);
}

CallResult Fabric::Collect(unsigned slot, int timeout_ms)
{
    CallResult r;
    uint32_t hdr;
    if (weft_mbox_timedget(&result_[slot], &hdr, timeout_ms) != 0)
        return r;
    r.arrived = true;
    r.cmd = (hdr >> WEFT_OSIF_RESP_CMD_SHIFT) & WEFT_OSIF_RESP_CMD_MASK;
    r.status = (hdr >> WEFT_OSIF_RESP_STATUS_SHIFT) & WEFT_OSIF_RESP_STATUS_MASK;
    uint32_t n = (hdr >> WEFT_OSIF_RESP_NWORDS_SHIFT) & WEFT_OSIF_RESP_NWORDS_MASK;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v;
        if (weft_mbox_timedget(&result_[slot], &v, timeout_ms) != 0) {
            r.arrived = false;
            break;
        }
        r.results.push_back(v);
    }
    return r;
}

CallResult Fabric::Call(unsigned slot, uint32_t cmd, uint32_t handle,
                        const std::vector<uint32_t> &args)
{
    Issue(slot, cmd, handle, args);
    return Collect(slot);
}

#include "e2e_fixture.h"

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

weft_hwthread_t *Fabric::StartCalls(unsigned slot, const std::vector<weft_resource_t> &extra,
                                    const char *name)
{
    std::vector<weft_resource_t> res = {{WEFT_RES_MBOX, &instr_[slot]},
                                        {WEFT_RES_MBOX, &result_[slot]}};
    res.insert(res.end(), extra.begin(), extra.end());
    std::string image = Image("hwt_calls");
    weft_hwthread_attr_t attr{};
    attr.name = name;
    attr.image = image.c_str();
    attr.slot = slot;
    attr.resources = res.data();
    attr.num_resources = static_cast<unsigned>(res.size());
    attr.init_data = 0 | 1u << 8;
    weft_mem_window_t win{dma_.bus, dma_.size, WEFT_MEM_RW};
    attr.windows = &win;
    attr.num_windows = 1;
    weft_hwthread_t *t = nullptr;
    int rc = weft_hwthread_create(w_, &t, &attr);
    EXPECT_EQ(rc, 0) << "creating " << name << " in slot " << slot;
    if (t)
        threads_.push_back(t);
    return t;
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

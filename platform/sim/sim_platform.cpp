// The simulation platform's C interface: weft_sim_open(), weft_sim_stats() and the
// weft_platform_ops_t table, each a thin wrapper over weft::sim::Fabric.

#include <cerrno>
#include <memory>
#include <new>
#include <type_traits>

#include "fabric.h"
#include "weft/platform.h"
#include "weft/sim.h"

namespace
{

using weft::sim::Fabric;

// The platform handle: the public header first, so a weft_platform_t * converts back.
struct SimPlatform {
    weft_platform_t base;
    Fabric *fabric;
};
static_assert(std::is_standard_layout_v<SimPlatform>, "base must be first and convertible");

Fabric *fabric_of(weft_platform_t *p)
{
    return reinterpret_cast<SimPlatform *>(p)->fabric;
}

int sim_mmio_read(weft_platform_t *p, uint32_t offset, uint32_t *value)
{
    return fabric_of(p)->mmio_read(offset, value);
}

int sim_mmio_write(weft_platform_t *p, uint32_t offset, uint32_t value)
{
    return fabric_of(p)->mmio_write(offset, value);
}

int sim_irq_wait(weft_platform_t *p, unsigned slot, int timeout_ms)
{
    return fabric_of(p)->irq_wait(slot, timeout_ms);
}

int sim_irq_cancel(weft_platform_t *p, unsigned slot)
{
    return fabric_of(p)->irq_cancel(slot);
}

int sim_dma_region(weft_platform_t *p, weft_dma_region_t *region)
{
    if (!region)
        return -EINVAL;
    fabric_of(p)->dma_region(region);
    return 0;
}

int sim_slot_reconfigure(weft_platform_t *p, unsigned slot, const char *image)
{
    return fabric_of(p)->slot_reconfigure(slot, image);
}

int sim_slot_program(weft_platform_t *p, unsigned slot, uint64_t bus, size_t size,
                     weft_program_result_t *res)
{
    return fabric_of(p)->slot_program(slot, bus, size, res);
}

int sim_dma_share(weft_platform_t *p, size_t offset, size_t size)
{
    return fabric_of(p)->dma_share(offset, size);
}

int sim_dma_unshare(weft_platform_t *p, size_t offset, size_t size)
{
    return fabric_of(p)->dma_unshare(offset, size);
}

unsigned sim_num_slots(weft_platform_t *p)
{
    return fabric_of(p)->num_slots();
}

void sim_close(weft_platform_t *p)
{
    if (!p)
        return;
    auto *sp = reinterpret_cast<SimPlatform *>(p);
    delete sp->fabric;
    delete sp;
}

const weft_platform_ops_t kSimOps = {
    sim_mmio_read,    sim_mmio_write,       sim_irq_wait,    sim_irq_cancel,
    sim_dma_region,   sim_slot_reconfigure, sim_num_slots,   sim_close,
    sim_slot_program, sim_dma_share,        sim_dma_unshare,
};

} // namespace

extern "C" int weft_sim_open(weft_platform_t **out, const weft_sim_config_t *cfg)
{
    if (!out)
        return -EINVAL;
    std::unique_ptr<Fabric> fabric;
    int rc = Fabric::create(cfg, &fabric);
    if (rc != 0)
        return rc;
    auto *sp = new (std::nothrow) SimPlatform;
    if (!sp)
        return -ENOMEM;
    sp->base.ops = &kSimOps;
    sp->base.name = "sim";
    sp->fabric = fabric.release();
    *out = &sp->base;
    return 0;
}

extern "C" int weft_sim_stats(weft_platform_t *p, weft_sim_stats_t *stats)
{
    if (!p || !stats || p->ops != &kSimOps)
        return -EINVAL;
    fabric_of(p)->stats(stats);
    return 0;
}

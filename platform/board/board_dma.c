/*
 * Board backend: the DMA region, one physically contiguous u-dma-buf buffer.
 *
 * The CPU maps the buffer's device; the bus address the fabric uses and the size come
 * from the driver's sysfs files. The static region's memory master drives 32-bit
 * addresses, so the buffer must lie below 4 GiB on the bus.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board_priv.h"

#define DEFAULT_DMA_PATH "/dev/udmabuf0"
#define DEFAULT_DMA_PHYS_PATH "/sys/class/u-dma-buf/udmabuf0/phys_addr"
#define DEFAULT_DMA_SIZE_PATH "/sys/class/u-dma-buf/udmabuf0/size"

int board_dma_open(struct board *b, const weft_board_config_t *cfg)
{
    const char *dev = cfg->dma_path != NULL ? cfg->dma_path : DEFAULT_DMA_PATH;
    const char *phys_path =
        cfg->dma_phys_addr_path != NULL ? cfg->dma_phys_addr_path : DEFAULT_DMA_PHYS_PATH;
    const char *size_path = cfg->dma_size_path != NULL ? cfg->dma_size_path : DEFAULT_DMA_SIZE_PATH;
    uint64_t bus;
    uint64_t size;
    struct stat st;
    void *m;
    int ret;

    ret = board_read_u64_file(b, phys_path, true, "DMA buffer bus address", &bus);
    if (ret != 0) {
        return ret;
    }
    ret = board_read_u64_file(b, size_path, false, "DMA buffer size", &size);
    if (ret != 0) {
        return ret;
    }
    if (size == 0 || (uint64_t)(size_t)size != size) {
        board_log(b, "%s: DMA buffer size %" PRIu64 " is not usable", size_path, size);
        return -EINVAL;
    }
    if ((bus & 3u) != 0) {
        board_log(b, "%s: DMA buffer bus address 0x%" PRIx64 " is not 4-byte aligned", phys_path,
                  bus);
        return -EINVAL;
    }
    if (bus > UINT32_MAX || size > (uint64_t)UINT32_MAX + 1u - bus) {
        board_log(b,
                  "%s, %s: DMA buffer [0x%" PRIx64 ", +0x%" PRIx64
                  ") reaches past 4 GiB; the fabric's memory master has 32-bit addresses",
                  phys_path, size_path, bus, size);
        return -ERANGE;
    }

    b->dma_fd = open(dev, O_RDWR | O_CLOEXEC | (cfg->dma_cached ? 0 : O_SYNC));
    if (b->dma_fd < 0) {
        ret = -errno;
        board_log(b, "%s: cannot open the DMA buffer device: %s", dev, strerror(-ret));
        return ret;
    }
    if (fstat(b->dma_fd, &st) != 0) {
        ret = -errno;
        board_log(b, "%s: cannot stat: %s", dev, strerror(-ret));
        return ret;
    }
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < size) {
        board_log(b, "%s: DMA buffer file holds %jd bytes, %s says %" PRIu64, dev,
                  (intmax_t)st.st_size, size_path, size);
        return -EINVAL;
    }
    m = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, b->dma_fd, 0);
    if (m == MAP_FAILED) {
        ret = -errno;
        board_log(b, "%s: cannot map %" PRIu64 " bytes of the DMA buffer: %s", dev, size,
                  strerror(-ret));
        return ret;
    }
    b->dma_cpu = m;
    b->dma_bus = bus;
    b->dma_size = (size_t)size;
    return 0;
}

void board_dma_close(struct board *b)
{
    if (b->dma_cpu != NULL) {
        munmap(b->dma_cpu, b->dma_size);
        b->dma_cpu = NULL;
    }
    if (b->dma_fd >= 0) {
        close(b->dma_fd);
        b->dma_fd = -1;
    }
}

int board_dma_region(weft_platform_t *p, weft_dma_region_t *region)
{
    struct board *b = board_of(p);

    if (region == NULL) {
        return -EINVAL;
    }
    region->cpu = b->dma_cpu;
    region->bus = b->dma_bus;
    region->size = b->dma_size;
    return 0;
}

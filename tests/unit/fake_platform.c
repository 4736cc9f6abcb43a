/*
 * A software model of Weft's register window, for unit tests (see fake_platform.h).
 * One mutex guards everything; one condition variable (CLOCK_MONOTONIC) is broadcast on
 * every change, and both irq_wait and fake_hw_pop wait on it.
 */
#define _POSIX_C_SOURCE 200809L
#include "fake_platform.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft/osif_protocol.h"

typedef struct fake_queue {
    uint32_t w[FAKE_FIFO_DEPTH];
    unsigned head, count;
} fake_queue_t;

typedef struct fake_slot {
    fake_queue_t hw2sw, sw2hw;
    uint32_t control, fault, fault_addr, fault_info;
    uint32_t win[FAKE_WINDOWS][3]; /* WIN_BASE, WIN_SIZE, WIN_PERM */
    uint32_t bind[FAKE_BINDS];
    uint32_t link_calls;
    uint64_t busy;
    uint32_t busy_hi_latch;
    int cancel;
    char image[256];
    unsigned loads;
    uint32_t control_log[FAKE_CONTROL_LOG];
    unsigned control_writes;
    /* Staging (docs/osif.md): buffer addresses, the last sequence number, the request
     * being staged (words written, words still to come), a request waiting for software,
     * and the response DMA's words still to move. */
    uint32_t req_buf, rsp_buf, seq, rsp_addr, rsp_left;
    unsigned req_have, req_left;
    int pending;
    /* MEM_ACTIVE: reads after a RESET that still find a burst in flight (mem_drain_reads
     * of them; UINT32_MAX: a bus that never ends it), and the MEM_ACTIVE reads made. */
    uint32_t mem_drain_reads, mem_active_left;
    unsigned mem_active_reads;
} fake_slot_t;

struct fake_platform {
    weft_platform_t base; /* first: the platform pointer is the fake's */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint32_t id, version;
    uint32_t link_flushes; /* LINK_FLUSH bits written, ORed */
    uint64_t cycles;
    uint32_t cycle_hi_latch;
    int fail_reconfigure;
    unsigned num_slots;
    fake_slot_t *slots;
    void *dma;
    size_t dma_size;
};

static fake_platform_t *of(weft_platform_t *p)
{
    return (fake_platform_t *)p;
}

static int q_push(fake_queue_t *q, uint32_t v)
{
    if (q->count == FAKE_FIFO_DEPTH)
        return -ENOSPC;
    q->w[(q->head + q->count) % FAKE_FIFO_DEPTH] = v;
    q->count++;
    return 0;
}

static int q_pop(fake_queue_t *q, uint32_t *v)
{
    if (q->count == 0)
        return -ENOENT;
    *v = q->w[q->head];
    q->head = (q->head + 1) % FAKE_FIFO_DEPTH;
    q->count--;
    return 0;
}

static uint32_t irq_status(const fake_slot_t *s)
{
    int request = s->req_buf ? s->pending : s->hw2sw.count != 0;
    return (request ? WEFT_IRQ_OSIF : 0u) | (s->fault ? WEFT_IRQ_FAULT : 0u);
}

static int irq_line(const fake_slot_t *s)
{
    return (s->control & WEFT_CONTROL_IRQ_EN) && irq_status(s);
}

static int running(const fake_slot_t *s)
{
    return (s->control & WEFT_CONTROL_RUN) && !(s->control & WEFT_CONTROL_RESET);
}

/* The DMA region's word at a bus address, NULL outside it. */
static uint32_t *dma_word(fake_platform_t *f, uint32_t bus)
{
    if (bus < FAKE_DMA_BUS || bus - FAKE_DMA_BUS + 4u > f->dma_size || bus % 4u)
        return NULL;
    return (uint32_t *)((uint8_t *)f->dma + (bus - FAKE_DMA_BUS));
}

static void stage_fault(fake_slot_t *s, uint32_t bus)
{
    s->fault |= WEFT_FAULT_STAGE;
    s->fault_addr = bus;
    s->rsp_left = 0;
}

/* What the static region's stager does on its own: move a response DMA's words into
 * SW2HW while there is room; write the words of the request waiting in HW2SW into the
 * request buffer as they come, and once it is whole its sequence number. */
static void stage(fake_platform_t *f, fake_slot_t *s)
{
    while (s->rsp_left > 0 && s->sw2hw.count < FAKE_FIFO_DEPTH) {
        uint32_t *w = dma_word(f, s->rsp_addr);
        if (!w) {
            stage_fault(s, s->rsp_addr);
            break;
        }
        q_push(&s->sw2hw, *w);
        s->rsp_addr += 4u;
        s->rsp_left--;
    }
    if (!s->req_buf || s->pending || s->rsp_left || s->fault)
        return;
    uint32_t first = s->req_buf + WEFT_STAGE_REQ_WORD * 4u;
    while (s->hw2sw.count > 0 && (s->req_have == 0 || s->req_left > 0)) {
        uint32_t *w = dma_word(f, first + s->req_have * 4u);
        if (!w) {
            stage_fault(s, first + s->req_have * 4u);
            return;
        }
        q_pop(&s->hw2sw, w);
        if (s->req_have++ == 0)
            s->req_left = *w >> WEFT_OSIF_REQ_NARGS_SHIFT & WEFT_OSIF_REQ_NARGS_MASK;
        else
            s->req_left--;
    }
    if (s->req_have == 0 || s->req_left > 0)
        return;
    uint32_t *seq = dma_word(f, s->req_buf + WEFT_STAGE_SEQ_WORD * 4u);
    if (!seq) {
        stage_fault(s, s->req_buf);
        return;
    }
    /* Release: a delegate that reads the new number sees the request's words. */
    __atomic_store_n(seq, ++s->seq, __ATOMIC_RELEASE);
    s->req_have = 0;
    s->pending = 1;
}

/* Decode a slot register offset; NULL for a global register. */
static int decode(fake_platform_t *f, uint32_t off, fake_slot_t **slot, uint32_t *reg)
{
    if (off % 4)
        return -EINVAL;
    if (off < WEFT_SLOT_BASE) {
        *slot = NULL;
        *reg = off;
        return 0;
    }
    unsigned s = (off - WEFT_SLOT_BASE) / WEFT_SLOT_STRIDE;
    if (s >= f->num_slots)
        return -EINVAL;
    *slot = &f->slots[s];
    *reg = (off - WEFT_SLOT_BASE) % WEFT_SLOT_STRIDE;
    return 0;
}

/* The fake's links: FAKE_NUM_LINKS of them, link l from slot l % 2 to slot (l + 1) % 2. */
static uint32_t link_info(unsigned l)
{
    return (l % 2u) | (((l + 1u) % 2u) << WEFT_LINK_INFO_DST_SHIFT) |
           (64u << WEFT_LINK_INFO_DEPTH_SHIFT);
}

/* Index of a register of an array (base, count, stride), or -1 when reg is none of it. */
static int array_index(uint32_t reg, uint32_t base, uint32_t count, uint32_t stride)
{
    if (reg < base || (reg - base) % stride || (reg - base) / stride >= count)
        return -1;
    return (int)((reg - base) / stride);
}

/* The WIN_* and LINK_BIND arrays of a slot. */
static uint32_t *slot_array_reg(fake_slot_t *s, uint32_t reg)
{
    const uint32_t win_stride = WEFT_SLOT_REG_WIN_BASE(1) - WEFT_SLOT_REG_WIN_BASE(0);
    int i;
    if ((i = array_index(reg, WEFT_SLOT_REG_WIN_BASE(0), FAKE_WINDOWS, win_stride)) >= 0)
        return &s->win[i][0];
    if ((i = array_index(reg, WEFT_SLOT_REG_WIN_SIZE(0), FAKE_WINDOWS, win_stride)) >= 0)
        return &s->win[i][1];
    if ((i = array_index(reg, WEFT_SLOT_REG_WIN_PERM(0), FAKE_WINDOWS, win_stride)) >= 0)
        return &s->win[i][2];
    if ((i = array_index(reg, WEFT_SLOT_REG_LINK_BIND(0), FAKE_BINDS,
                         WEFT_SLOT_REG_LINK_BIND(1) - WEFT_SLOT_REG_LINK_BIND(0))) >= 0)
        return &s->bind[i];
    return NULL;
}

static uint32_t slot_array_read(fake_slot_t *s, uint32_t reg)
{
    uint32_t *r = slot_array_reg(s, reg);
    return r ? *r : 0; /* write-only registers and holes read 0 */
}

static void slot_array_write(fake_slot_t *s, uint32_t reg, uint32_t v)
{
    uint32_t *r = slot_array_reg(s, reg);
    if (r)
        *r = v; /* other registers are read-only */
}

static int fake_mmio_read(weft_platform_t *p, uint32_t off, uint32_t *value)
{
    fake_platform_t *f = of(p);
    fake_slot_t *s;
    uint32_t reg, v = 0;
    int rc = decode(f, off, &s, &reg);
    if (rc != 0)
        return rc;

    pthread_mutex_lock(&f->lock);
    if (!s) {
        switch (reg) {
        case WEFT_REG_ID:
            v = f->id;
            break;
        case WEFT_REG_VERSION:
            v = f->version;
            break;
        case WEFT_REG_NUM_SLOTS:
            v = f->num_slots;
            break;
        case WEFT_REG_CYCLE_LO:
            v = (uint32_t)f->cycles;
            f->cycle_hi_latch = (uint32_t)(f->cycles >> 32);
            break;
        case WEFT_REG_CYCLE_HI:
            v = f->cycle_hi_latch;
            break;
        case WEFT_REG_IRQ_PENDING:
            for (unsigned i = 0; i < f->num_slots; i++)
                v |= (uint32_t)irq_line(&f->slots[i]) << i;
            break;
        case WEFT_REG_NUM_LINKS:
            v = f->num_slots >= 2 ? FAKE_NUM_LINKS : 0; /* links join slots 0 and 1 */
            break;
        case WEFT_REG_CLOCK_MHZ:
            v = 100;
            break;
        default: {
            int l = array_index(reg, WEFT_REG_LINK_INFO(0), f->num_slots >= 2 ? FAKE_NUM_LINKS : 0,
                                WEFT_REG_LINK_INFO(1) - WEFT_REG_LINK_INFO(0));
            v = l >= 0 ? link_info((unsigned)l) : 0;
            break;
        }
        }
    } else {
        switch (reg) {
        case WEFT_SLOT_REG_OSIF_HW2SW:
            if (s->req_buf || q_pop(&s->hw2sw, &v) != 0)
                v = 0; /* staging takes the words */
            pthread_cond_broadcast(&f->changed);
            break;
        case WEFT_SLOT_REG_STATUS:
            v = s->hw2sw.count | (s->sw2hw.count << 16);
            break;
        case WEFT_SLOT_REG_CONTROL:
            v = s->control;
            break;
        case WEFT_SLOT_REG_IRQ_STATUS:
            v = irq_status(s);
            break;
        case WEFT_SLOT_REG_FAULT:
            v = s->fault;
            break;
        case WEFT_SLOT_REG_FAULT_ADDR:
            v = s->fault_addr;
            break;
        case WEFT_SLOT_REG_FAULT_INFO:
            v = s->fault_info;
            break;
        case WEFT_SLOT_REG_CAPS:
            v = FAKE_WINDOWS | FAKE_BINDS << WEFT_CAPS_BINDS_SHIFT;
            break;
        case WEFT_SLOT_REG_LINK_CALLS:
            v = s->link_calls;
            break;
        case WEFT_SLOT_REG_BUSY_LO:
            v = (uint32_t)s->busy;
            s->busy_hi_latch = (uint32_t)(s->busy >> 32);
            break;
        case WEFT_SLOT_REG_BUSY_HI:
            v = s->busy_hi_latch;
            break;
        case WEFT_SLOT_REG_FIFO_DEPTH:
            v = FAKE_FIFO_DEPTH | (FAKE_FIFO_DEPTH << 16);
            break;
        case WEFT_SLOT_REG_OSIF_REQ_BUF:
            v = s->req_buf;
            break;
        case WEFT_SLOT_REG_OSIF_RSP_BUF:
            v = s->rsp_buf;
            break;
        case WEFT_SLOT_REG_OSIF_RSP_DMA:
            v = s->rsp_left;
            break;
        case WEFT_SLOT_REG_MEM_ACTIVE:
            s->mem_active_reads++;
            v = s->mem_active_left ? WEFT_MEM_ACTIVE_BUSY : 0;
            if (s->mem_active_left && s->mem_active_left != UINT32_MAX)
                s->mem_active_left--;
            break;
        default:
            v = slot_array_read(s, reg);
            break;
        }
    }
    pthread_mutex_unlock(&f->lock);
    *value = v;
    return 0;
}

static int fake_mmio_write(weft_platform_t *p, uint32_t off, uint32_t v)
{
    fake_platform_t *f = of(p);
    fake_slot_t *s;
    uint32_t reg;
    int rc = decode(f, off, &s, &reg);
    if (rc != 0)
        return rc;
    if (!s) {
        pthread_mutex_lock(&f->lock);
        if (reg == WEFT_REG_LINK_FLUSH)
            f->link_flushes |= v;
        pthread_mutex_unlock(&f->lock);
        return 0; /* the other global registers are read-only */
    }

    pthread_mutex_lock(&f->lock);
    switch (reg) {
    case WEFT_SLOT_REG_OSIF_SW2HW:
        s->pending = 0;
        if (s->rsp_left == 0 && q_push(&s->sw2hw, v) != 0)
            s->fault |= WEFT_FAULT_OVERFLOW;
        break;
    case WEFT_SLOT_REG_OSIF_REQ_BUF:
        s->req_buf = v & ~3u;
        break;
    case WEFT_SLOT_REG_OSIF_RSP_BUF:
        s->rsp_buf = v & ~3u;
        break;
    case WEFT_SLOT_REG_OSIF_RSP_DMA:
        s->pending = 0;
        if (s->rsp_left == 0 && (v & WEFT_RSP_DMA_MASK) != 0) {
            s->rsp_addr = s->rsp_buf;
            s->rsp_left = v & WEFT_RSP_DMA_MASK;
        }
        break;
    case WEFT_SLOT_REG_CONTROL:
        s->control =
            v & (WEFT_CONTROL_RESET | WEFT_CONTROL_RUN | WEFT_CONTROL_IRQ_EN | WEFT_CONTROL_SIGNAL);
        if (s->control_writes < FAKE_CONTROL_LOG)
            s->control_log[s->control_writes] = s->control;
        s->control_writes++;
        if (v & WEFT_CONTROL_RESET) {
            memset(&s->hw2sw, 0, sizeof s->hw2sw);
            memset(&s->sw2hw, 0, sizeof s->sw2hw);
            s->seq = 0;
            s->pending = 0;
            s->req_have = 0;
            s->rsp_left = 0;
            s->busy = 0;
            s->link_calls = 0;
            s->control &= ~WEFT_CONTROL_SIGNAL;
            s->mem_active_left = s->mem_drain_reads;
        }
        break;
    case WEFT_SLOT_REG_FAULT:
        s->fault &= ~v;
        break;
    default:
        slot_array_write(s, reg, v);
        break;
    }
    stage(f, s);
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
    return 0;
}

static struct timespec deadline_after(int ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

static int fake_irq_wait(weft_platform_t *p, unsigned slot, int timeout_ms)
{
    fake_platform_t *f = of(p);
    if (slot >= f->num_slots)
        return -EINVAL;
    fake_slot_t *s = &f->slots[slot];
    struct timespec until = deadline_after(timeout_ms > 0 ? timeout_ms : 0);
    int ret = 0;

    pthread_mutex_lock(&f->lock);
    for (;;) {
        if (s->cancel) {
            s->cancel = 0;
            ret = -ECANCELED;
            break;
        }
        if (irq_line(s))
            break;
        int rc = timeout_ms < 0 ? pthread_cond_wait(&f->changed, &f->lock)
                                : pthread_cond_timedwait(&f->changed, &f->lock, &until);
        if (rc == ETIMEDOUT && !irq_line(s) && !s->cancel) {
            ret = -ETIMEDOUT;
            break;
        }
    }
    pthread_mutex_unlock(&f->lock);
    return ret;
}

static int fake_irq_cancel(weft_platform_t *p, unsigned slot)
{
    fake_platform_t *f = of(p);
    if (slot >= f->num_slots)
        return -EINVAL;
    pthread_mutex_lock(&f->lock);
    f->slots[slot].cancel = 1;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
    return 0;
}

static int fake_dma_region(weft_platform_t *p, weft_dma_region_t *r)
{
    fake_platform_t *f = of(p);
    r->cpu = f->dma;
    r->bus = FAKE_DMA_BUS;
    r->size = f->dma_size;
    return 0;
}

static int fake_slot_reconfigure(weft_platform_t *p, unsigned slot, const char *image)
{
    fake_platform_t *f = of(p);
    if (slot >= f->num_slots || !image)
        return -EINVAL;
    int ret = 0;
    pthread_mutex_lock(&f->lock);
    fake_slot_t *s = &f->slots[slot];
    if (s->control & WEFT_CONTROL_RUN) {
        ret = -EBUSY;
    } else if (f->fail_reconfigure) {
        ret = -f->fail_reconfigure;
        f->fail_reconfigure = 0;
    } else {
        strncpy(s->image, image, sizeof s->image - 1);
        s->image[sizeof s->image - 1] = '\0';
        s->loads++;
    }
    pthread_mutex_unlock(&f->lock);
    return ret;
}

static unsigned fake_num_slots(weft_platform_t *p)
{
    return of(p)->num_slots;
}

static void fake_close(weft_platform_t *p)
{
    fake_platform_free(of(p));
}

static const weft_platform_ops_t fake_ops = {
    .mmio_read = fake_mmio_read,
    .mmio_write = fake_mmio_write,
    .irq_wait = fake_irq_wait,
    .irq_cancel = fake_irq_cancel,
    .dma_region = fake_dma_region,
    .slot_reconfigure = fake_slot_reconfigure,
    .num_slots = fake_num_slots,
    .close = fake_close,
};

fake_platform_t *fake_platform_new(const fake_config_t *cfg)
{
    fake_config_t c = {0};
    if (cfg)
        c = *cfg;
    fake_platform_t *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    f->num_slots = c.num_slots ? c.num_slots : 4;
    f->dma_size = c.dma_size ? c.dma_size : (1u << 20);
    f->id = c.id ? c.id : WEFT_REG_ID_VALUE;
    f->version = c.version ? c.version : WEFT_OSIF_VERSION;
    f->slots = calloc(f->num_slots, sizeof(*f->slots));
    f->dma = aligned_alloc(4096, (f->dma_size + 4095) / 4096 * 4096);
    if (!f->slots || !f->dma) {
        free(f->slots);
        free(f->dma);
        free(f);
        return NULL;
    }
    for (unsigned i = 0; i < f->num_slots; i++)
        f->slots[i].control = WEFT_CONTROL_RESET;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&f->changed, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&f->lock, NULL);
    f->base.ops = &fake_ops;
    f->base.name = "fake";
    return f;
}

weft_platform_t *fake_platform_base(fake_platform_t *f)
{
    return &f->base;
}

void fake_platform_free(fake_platform_t *f)
{
    if (!f)
        return;
    pthread_cond_destroy(&f->changed);
    pthread_mutex_destroy(&f->lock);
    free(f->dma);
    free(f->slots);
    free(f);
}

int fake_hw_push(fake_platform_t *f, unsigned slot, uint32_t word)
{
    if (slot >= f->num_slots)
        return -EINVAL;
    pthread_mutex_lock(&f->lock);
    fake_slot_t *s = &f->slots[slot];
    /* A stopped or reset slot is decoupled: its words never reach the FIFO. */
    int rc = running(s) ? q_push(&s->hw2sw, word) : -EPIPE;
    stage(f, s);
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
    return rc;
}

int fake_hw_pop(fake_platform_t *f, unsigned slot, uint32_t *word, int timeout_ms)
{
    if (slot >= f->num_slots)
        return -EINVAL;
    struct timespec until = deadline_after(timeout_ms > 0 ? timeout_ms : 0);
    int ret = 0;
    pthread_mutex_lock(&f->lock);
    fake_slot_t *s = &f->slots[slot];
    for (;;) {
        stage(f, s); /* room for more of a response DMA */
        if (q_pop(&s->sw2hw, word) == 0)
            break;
        int rc = timeout_ms < 0 ? pthread_cond_wait(&f->changed, &f->lock)
                                : pthread_cond_timedwait(&f->changed, &f->lock, &until);
        if (rc == ETIMEDOUT && s->sw2hw.count == 0) {
            ret = -ETIMEDOUT;
            break;
        }
    }
    stage(f, s);
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
    return ret;
}

void fake_hw_fault(fake_platform_t *f, unsigned slot, uint32_t bits, uint32_t addr, uint32_t info)
{
    pthread_mutex_lock(&f->lock);
    fake_slot_t *s = &f->slots[slot];
    s->fault |= bits;
    s->fault_addr = addr;
    s->fault_info = info;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->lock);
}

void fake_hw_set_busy(fake_platform_t *f, unsigned slot, uint64_t cycles)
{
    pthread_mutex_lock(&f->lock);
    f->slots[slot].busy = cycles;
    pthread_mutex_unlock(&f->lock);
}

void fake_hw_set_mem_drain(fake_platform_t *f, unsigned slot, uint32_t reads)
{
    pthread_mutex_lock(&f->lock);
    f->slots[slot].mem_drain_reads = reads;
    pthread_mutex_unlock(&f->lock);
}

unsigned fake_mem_active_reads(fake_platform_t *f, unsigned slot)
{
    pthread_mutex_lock(&f->lock);
    unsigned n = f->slots[slot].mem_active_reads;
    pthread_mutex_unlock(&f->lock);
    return n;
}

void fake_set_cycles(fake_platform_t *f, uint64_t cycles)
{
    pthread_mutex_lock(&f->lock);
    f->cycles = cycles;
    pthread_mutex_unlock(&f->lock);
}

void fake_fail_reconfigure(fake_platform_t *f, int err)
{
    pthread_mutex_lock(&f->lock);
    f->fail_reconfigure = err;
    pthread_mutex_unlock(&f->lock);
}

uint32_t fake_control(fake_platform_t *f, unsigned slot)
{
    pthread_mutex_lock(&f->lock);
    uint32_t v = f->slots[slot].control;
    pthread_mutex_unlock(&f->lock);
    return v;
}

unsigned fake_control_log(fake_platform_t *f, unsigned slot, uint32_t *out, unsigned max)
{
    pthread_mutex_lock(&f->lock);
    fake_slot_t *s = &f->slots[slot];
    unsigned n = s->control_writes < FAKE_CONTROL_LOG ? s->control_writes : FAKE_CONTROL_LOG;
    if (n > max)
        n = max;
    memcpy(out, s->control_log, n * sizeof(*out));
    pthread_mutex_unlock(&f->lock);
    return n;
}

const char *fake_image(fake_platform_t *f, unsigned slot, unsigned *loads)
{
    pthread_mutex_lock(&f->lock);
    const char *img = f->slots[slot].image;
    if (loads)
        *loads = f->slots[slot].loads;
    pthread_mutex_unlock(&f->lock);
    return img;
}

void fake_window(fake_platform_t *f, unsigned slot, unsigned i, uint32_t *base, uint32_t *size,
                 uint32_t *perm)
{
    pthread_mutex_lock(&f->lock);
    *base = f->slots[slot].win[i][0];
    *size = f->slots[slot].win[i][1];
    *perm = f->slots[slot].win[i][2];
    pthread_mutex_unlock(&f->lock);
}

uint32_t fake_link_bind(fake_platform_t *f, unsigned slot, unsigned b)
{
    pthread_mutex_lock(&f->lock);
    uint32_t v = f->slots[slot].bind[b];
    pthread_mutex_unlock(&f->lock);
    return v;
}

uint32_t fake_link_flushes(fake_platform_t *f)
{
    pthread_mutex_lock(&f->lock);
    uint32_t v = f->link_flushes;
    pthread_mutex_unlock(&f->lock);
    return v;
}

unsigned fake_hw2sw_count(fake_platform_t *f, unsigned slot)
{
    pthread_mutex_lock(&f->lock);
    unsigned n = f->slots[slot].hw2sw.count;
    pthread_mutex_unlock(&f->lock);
    return n;
}

weft_dma_region_t fake_dma(fake_platform_t *f)
{
    weft_dma_region_t r = {f->dma, FAKE_DMA_BUS, f->dma_size};
    return r;
}

/*
 * Board backend internals: the platform instance and the helpers its files share.
 */
#ifndef WEFT_BOARD_PRIV_H
#define WEFT_BOARD_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft/board.h"
#include "weft/platform.h"

/* IRQ_PENDING has one bit per slot and then the OS services' line: 32 lines. */
#define BOARD_MAX_SLOTS 31u
#define BOARD_MAX_LINES (BOARD_MAX_SLOTS + 1u)

#define BOARD_DEFAULT_UIO_PATH "/dev/uio0"

/* One interrupt line: a slot's, or the OS services' (line num_slots). */
struct board_slot_irq {
    pthread_cond_t cond; /* signalled when the line was seen high or on cancel */
    bool cancel;         /* irq_cancel() since the last wait returned */
    unsigned waiters;    /* threads in irq_wait() on this line */
};

struct board {
    weft_platform_t base; /* must be first: weft_platform_t * <-> struct board * */

    void (*log)(void *arg, const char *msg);
    void *log_arg;

    /* register window */
    int uio_fd;
    volatile uint32_t *regs;
    size_t map_size;
    unsigned num_slots;

    /* DMA region */
    int dma_fd;
    void *dma_cpu;
    uint64_t dma_bus;
    size_t dma_size;

    /* reconfiguration, shared by both methods */
    weft_board_reconf_method_t reconf_method;
    char *firmware_dir;          /* as configured, for messages and the image check */
    pthread_mutex_t reconf_lock; /* one reconfiguration at a time */
    bool reconf_lock_init;

    /* FPGA manager sysfs files (WEFT_BOARD_RECONF_FPGA_MGR) */
    char *flags_path;
    char *firmware_path;
    char *state_path;

    /* FPGA regions (WEFT_BOARD_RECONF_OVERLAY); under reconf_lock */
    char *overlays_dir;
    char *region_path[BOARD_MAX_SLOTS];    /* each slot's fpga-region node */
    bool overlay_applied[BOARD_MAX_SLOTS]; /* overlays_dir/weft-slot<N> is ours and applied */

    /* interrupts */
    int irq_fd;        /* read(): interrupt count */
    int irq_enable_fd; /* write(1): re-enable; may equal irq_fd */
    int wake_fd;       /* eventfd: stop or re-evaluate (kick) the irq thread */
    unsigned irq_poll_us;
    pthread_t irq_thread;
    bool irq_thread_started;
    pthread_mutex_t irq_lock;
    bool irq_sync_init;   /* irq_lock and the slot conds are initialised */
    bool irq_stop;        /* close() asked the thread to end */
    bool irq_failed;      /* the interrupt source broke; waiters get -EIO */
    bool irq_masked;      /* the thread left the interrupt disabled (a reported line is high) */
    unsigned irq_waiters; /* total threads in irq_wait() */
    struct board_slot_irq slot_irq[BOARD_MAX_LINES];
};

static inline struct board *board_of(weft_platform_t *p)
{
    return (struct board *)p;
}

static inline uint32_t board_reg_read(const struct board *b, uint32_t offset)
{
    return b->regs[offset / 4u];
}

/* A register write is ordered after every store the caller made before it, so that what
 * it tells the fabric to read (a response buffer for OSIF_RSP_DMA) is in memory first. */
static inline void board_reg_write(struct board *b, uint32_t offset, uint32_t value)
{
#if defined(__aarch64__)
    __asm__ volatile("dsb st" ::: "memory"); /* stores to memory before the device write */
#elif defined(__arm__)
    __asm__ volatile("dsb" ::: "memory");
#elif defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("" ::: "memory"); /* x86 keeps stores in order; only the compiler may not */
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
    b->regs[offset / 4u] = value;
}

/* Report one message through the configured log (printf-style). */
void board_log(const struct board *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Join dir and name with one '/'; NULL when out of memory. */
char *board_path_join(const char *dir, const char *name);

/*
 * Read a small text file holding one unsigned number and nothing but white space
 * around it. hex: parse as hex ("0x" optional); else decimal, or hex with "0x".
 * Returns 0, or a negative errno after logging a message naming the file.
 */
int board_read_u64_file(const struct board *b, const char *path, bool hex, const char *what,
                        uint64_t *value);

/* Write size bytes to a sysfs or configfs attribute in one write(), as both want it
 * (truncating it first when asked: not for a configfs binary attribute); failures are
 * logged naming the file and what (a phrase) was written. Returns 0 or a negative errno. */
int board_write_bytes(const struct board *b, const char *path, const void *data, size_t size,
                      bool truncate, const char *what);

/* board_write_bytes() of a string, truncating. */
int board_write_text(const struct board *b, const char *path, const char *text);

/*
 * Read a small sysfs or configfs attribute (to its end) into buf, NUL-terminated and cut
 * at its first line end. Returns 0 or a negative errno after logging a message naming
 * the file; when missing_ok, a file that does not exist gives 0 and "" without a message.
 */
int board_read_line(const struct board *b, const char *path, char *buf, size_t cap,
                    bool missing_ok);

/* DMA region: board_dma.c */
int board_dma_open(struct board *b, const weft_board_config_t *cfg);
void board_dma_close(struct board *b);
int board_dma_region(weft_platform_t *p, weft_dma_region_t *region);

/* Reconfiguration: board_fpga.c (the steps both methods share, and the FPGA manager's
 * sysfs files) */
int board_fpga_open(struct board *b, const weft_board_config_t *cfg);
void board_fpga_close(struct board *b);
int board_slot_reconfigure(weft_platform_t *p, unsigned slot, const char *image);
int board_slot_program(weft_platform_t *p, unsigned slot, uint64_t bus, size_t size,
                       weft_program_result_t *res);

/* FPGA regions through device-tree overlays: board_fpga_overlay.c */
int board_overlay_open(struct board *b, const weft_board_config_t *cfg);
/* Removes the overlays Weft applied (logging what it cannot remove) and frees the rest. */
void board_overlay_close(struct board *b);
/* Load name (relative to the firmware directory; full is its path, for messages) into
 * slot by an overlay on its region; called under reconf_lock with the slot decoupled. */
int board_overlay_load(struct board *b, unsigned slot, const char *name, const char *full);

/* Interrupts: board_irq.c */
int board_irq_open(struct board *b, const weft_board_config_t *cfg);
void board_irq_close(struct board *b);
int board_irq_wait(weft_platform_t *p, unsigned slot, int timeout_ms);
int board_irq_cancel(weft_platform_t *p, unsigned slot);

#endif /* WEFT_BOARD_PRIV_H */

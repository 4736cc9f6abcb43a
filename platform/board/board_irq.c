/*
 * Board backend: slot interrupts.
 *
 * The static region drives one interrupt line per slot and one for the OS services (line
 * num_slots: an armed software context of the synchronisation manager was answered); on
 * the board they are ORed into one interrupt that reaches user space through UIO, and
 * IRQ_PENDING tells which lines are high. One irq thread blocks on the UIO file (read()
 * returns the interrupt count; uio_pdrv_genirq leaves the interrupt disabled until 1 is
 * written back), reads IRQ_PENDING and wakes the waiters of every pending line.
 *
 * irq_wait() is level-triggered: a waiter reads IRQ_PENDING itself, under irq_lock, and
 * only sleeps while its line is low. The irq thread signals a slot's condition with the
 * same lock held, so a line that rises after the waiter's read cannot be missed.
 *
 * The ORed interrupt is level-sensitive: re-enabling it while any line is high makes it
 * fire again at once. So after an interrupt the thread re-enables only once IRQ_PENDING
 * reads 0; until then it is "masked" and, while anyone waits, polls IRQ_PENDING every
 * irq_poll_us for lines of other slots. A waiter that starts a wait while masked kicks
 * the thread, which then looks again (the line that was high has usually been served by
 * then, and the interrupt is re-enabled).
 */
#define _GNU_SOURCE /* ppoll */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "board_priv.h"
#include "weft/osif_protocol.h"

#define DEFAULT_IRQ_POLL_US 200u

/* The lines: the slots' and the OS services' (num_slots <= BOARD_MAX_SLOTS = 31). */
static unsigned num_lines(const struct board *b)
{
    return b->num_slots + 1u;
}

static uint32_t pending_lines(const struct board *b)
{
    return board_reg_read(b, WEFT_REG_IRQ_PENDING) & (uint32_t)((1ull << num_lines(b)) - 1u);
}

static void kick(struct board *b)
{
    uint64_t one = 1;

    /* Only fails when the counter would overflow, i.e. a kick is already pending. */
    (void)!write(b->wake_fd, &one, sizeof(one));
}

static int irq_enable(struct board *b)
{
    int32_t one = 1;
    ssize_t n;

    do {
        n = write(b->irq_enable_fd, &one, sizeof(one));
    } while (n < 0 && errno == EINTR);
    return n == (ssize_t)sizeof(one) ? 0 : (n < 0 ? -errno : -EIO);
}

/* Mark the interrupt source broken: every waiter returns -EIO from now on. */
static void irq_fail(struct board *b, const char *what)
{
    unsigned s;

    board_log(b, "interrupt source %s; slot interrupts no longer arrive", what);
    pthread_mutex_lock(&b->irq_lock);
    b->irq_failed = true;
    for (s = 0; s < num_lines(b); s++) {
        pthread_cond_broadcast(&b->slot_irq[s].cond);
    }
    pthread_mutex_unlock(&b->irq_lock);
}

/*
 * Look at IRQ_PENDING: wake the waiters of every high line, then re-enable the interrupt
 * if no line is high (and it is disabled), else leave it disabled.
 */
static int evaluate(struct board *b, bool interrupted)
{
    uint32_t pend = pending_lines(b);
    bool enable;
    unsigned s;

    pthread_mutex_lock(&b->irq_lock);
    for (s = 0; s < num_lines(b); s++) {
        if ((pend & (1u << s)) != 0 && b->slot_irq[s].waiters != 0) {
            pthread_cond_broadcast(&b->slot_irq[s].cond);
        }
    }
    /* While the interrupt is enabled and none arrived there is nothing to change. */
    enable = false;
    if (interrupted || b->irq_masked) {
        enable = pend == 0;
        b->irq_masked = pend != 0;
    }
    pthread_mutex_unlock(&b->irq_lock);
    return enable ? irq_enable(b) : 0;
}

static void *irq_thread(void *arg)
{
    struct board *b = arg;
    struct timespec poll_ts = {
        .tv_sec = b->irq_poll_us / 1000000u,
        .tv_nsec = (long)(b->irq_poll_us % 1000000u) * 1000L,
    };
    char msg[160];

    for (;;) {
        struct pollfd pfd[2] = {
            {.fd = b->wake_fd, .events = POLLIN},
            {.fd = b->irq_fd, .events = POLLIN},
        };
        bool polling;
        bool interrupted = false;
        int ret;

        pthread_mutex_lock(&b->irq_lock);
        if (b->irq_stop) {
            pthread_mutex_unlock(&b->irq_lock);
            break;
        }
        polling = b->irq_masked && b->irq_waiters != 0;
        pthread_mutex_unlock(&b->irq_lock);

        ret = ppoll(pfd, 2, polling ? &poll_ts : NULL, NULL);
        if (ret < 0) {
            if (errno == EINTR) {
                continue;
            }
            snprintf(msg, sizeof(msg), "poll failed: %s", strerror(errno));
            irq_fail(b, msg);
            break;
        }
        if ((pfd[0].revents & POLLIN) != 0) {
            uint64_t count;

            (void)!read(b->wake_fd, &count, sizeof(count));
        }
        if ((pfd[1].revents & POLLIN) != 0) {
            uint32_t count;
            ssize_t n = read(b->irq_fd, &count, sizeof(count));

            if (n == (ssize_t)sizeof(count)) {
                interrupted = true;
            } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
                /* spurious readiness */
            } else {
                snprintf(msg, sizeof(msg), "read gave %s",
                         n < 0 ? strerror(errno) : (n == 0 ? "end of file" : "a short count"));
                irq_fail(b, msg);
                break;
            }
        } else if ((pfd[1].revents & (POLLHUP | POLLERR | POLLNVAL)) != 0) {
            irq_fail(b, "hung up or reported an error");
            break;
        }
        ret = evaluate(b, interrupted);
        if (ret != 0) {
            snprintf(msg, sizeof(msg), "cannot be re-enabled: %s", strerror(-ret));
            irq_fail(b, msg);
            break;
        }
    }
    return NULL;
}

static int open_fd(const struct board *b, const char *path, int flags, const char *what)
{
    int fd = open(path, flags | O_CLOEXEC);

    if (fd < 0) {
        int ret = -errno;

        board_log(b, "%s: cannot open %s: %s", path, what, strerror(-ret));
        return ret;
    }
    return fd;
}

static int sync_init(struct board *b)
{
    pthread_condattr_t attr;
    unsigned s;
    int ret = 0;

    if (pthread_condattr_init(&attr) != 0) {
        return -ENOMEM;
    }
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (pthread_mutex_init(&b->irq_lock, NULL) != 0) {
        ret = -ENOMEM;
    }
    for (s = 0; ret == 0 && s < BOARD_MAX_LINES; s++) {
        if (pthread_cond_init(&b->slot_irq[s].cond, &attr) != 0) {
            while (s-- > 0) {
                pthread_cond_destroy(&b->slot_irq[s].cond);
            }
            pthread_mutex_destroy(&b->irq_lock);
            ret = -ENOMEM;
        }
    }
    pthread_condattr_destroy(&attr);
    b->irq_sync_init = ret == 0;
    return ret;
}

int board_irq_open(struct board *b, const weft_board_config_t *cfg)
{
    const char *irq_path = cfg->irq_path != NULL   ? cfg->irq_path
                           : cfg->uio_path != NULL ? cfg->uio_path
                                                   : BOARD_DEFAULT_UIO_PATH;
    const char *en_path = cfg->irq_enable_path != NULL ? cfg->irq_enable_path : irq_path;
    int ret;

    b->irq_poll_us = cfg->irq_poll_us != 0 ? cfg->irq_poll_us : DEFAULT_IRQ_POLL_US;
    ret = sync_init(b);
    if (ret != 0) {
        return ret;
    }
    if (strcmp(en_path, irq_path) == 0) {
        ret = open_fd(b, irq_path, O_RDWR | O_NONBLOCK, "the interrupt device");
        if (ret < 0) {
            return ret;
        }
        b->irq_fd = b->irq_enable_fd = ret;
    } else {
        ret = open_fd(b, irq_path, O_RDONLY | O_NONBLOCK, "the interrupt source");
        if (ret < 0) {
            return ret;
        }
        b->irq_fd = ret;
        /* O_NONBLOCK: a FIFO without a reader fails at once instead of hanging here. */
        ret = open_fd(b, en_path, O_WRONLY | O_NONBLOCK, "the interrupt enable");
        if (ret < 0) {
            return ret;
        }
        b->irq_enable_fd = ret;
        fcntl(b->irq_enable_fd, F_SETFL, 0);
    }
    b->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (b->wake_fd < 0) {
        ret = -errno;
        board_log(b, "eventfd for the interrupt thread: %s", strerror(-ret));
        return ret;
    }
    /* A process that ended while the interrupt was disabled leaves it so; start enabled. */
    ret = irq_enable(b);
    if (ret != 0) {
        board_log(b, "%s: cannot enable the interrupt: %s", en_path, strerror(-ret));
        return ret;
    }
    ret = pthread_create(&b->irq_thread, NULL, irq_thread, b);
    if (ret != 0) {
        board_log(b, "cannot start the interrupt thread: %s", strerror(ret));
        return -ret;
    }
    b->irq_thread_started = true;
    return 0;
}

void board_irq_close(struct board *b)
{
    unsigned s;

    if (b->irq_thread_started) {
        pthread_mutex_lock(&b->irq_lock);
        b->irq_stop = true;
        pthread_mutex_unlock(&b->irq_lock);
        kick(b);
        pthread_join(b->irq_thread, NULL);
        b->irq_thread_started = false;
    }
    if (b->wake_fd >= 0) {
        close(b->wake_fd);
    }
    if (b->irq_enable_fd >= 0 && b->irq_enable_fd != b->irq_fd) {
        close(b->irq_enable_fd);
    }
    if (b->irq_fd >= 0) {
        close(b->irq_fd);
    }
    b->wake_fd = b->irq_enable_fd = b->irq_fd = -1;
    if (b->irq_sync_init) {
        for (s = 0; s < BOARD_MAX_LINES; s++) {
            pthread_cond_destroy(&b->slot_irq[s].cond);
        }
        pthread_mutex_destroy(&b->irq_lock);
        b->irq_sync_init = false;
    }
}

static void deadline_after(struct timespec *ts, int timeout_ms)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    ts->tv_sec += timeout_ms / 1000;
    ts->tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

int board_irq_wait(weft_platform_t *p, unsigned slot, int timeout_ms)
{
    struct board *b = board_of(p);
    struct board_slot_irq *s;
    struct timespec deadline;
    bool kicked = false;
    bool timed_out = false;
    int ret;

    if (slot >= num_lines(b)) {
        return -EINVAL;
    }
    s = &b->slot_irq[slot];
    if (timeout_ms > 0) {
        deadline_after(&deadline, timeout_ms);
    }

    pthread_mutex_lock(&b->irq_lock);
    s->waiters++;
    b->irq_waiters++;
    for (;;) {
        /* Every wake-up is checked against the register: only a high line counts. */
        if (s->cancel) {
            s->cancel = false;
            ret = -ECANCELED;
            break;
        }
        if ((pending_lines(b) & (1u << slot)) != 0) {
            ret = 0;
            break;
        }
        if (b->irq_failed) {
            ret = -EIO;
            break;
        }
        if (timeout_ms == 0 || timed_out) {
            ret = -ETIMEDOUT;
            break;
        }
        if (b->irq_masked && !kicked) {
            /* The thread may be asleep with the interrupt disabled; make it look again
             * (re-enable, or poll now that someone waits). */
            kick(b);
            kicked = true;
        }
        if (timeout_ms < 0) {
            pthread_cond_wait(&s->cond, &b->irq_lock);
        } else if (pthread_cond_timedwait(&s->cond, &b->irq_lock, &deadline) == ETIMEDOUT) {
            timed_out = true; /* one last look at the line and the cancel flag */
        }
    }
    s->waiters--;
    b->irq_waiters--;
    pthread_mutex_unlock(&b->irq_lock);
    return ret;
}

int board_irq_cancel(weft_platform_t *p, unsigned slot)
{
    struct board *b = board_of(p);

    if (slot >= num_lines(b)) {
        return -EINVAL;
    }
    pthread_mutex_lock(&b->irq_lock);
    b->slot_irq[slot].cancel = true;
    pthread_cond_broadcast(&b->slot_irq[slot].cond);
    pthread_mutex_unlock(&b->irq_lock);
    return 0;
}

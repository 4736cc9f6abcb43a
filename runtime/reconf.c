/*
 * The reconfiguration manager (weft/reconf.h, docs/reconfiguration.md): the owner of
 * reconf_sched.c. It stamps requests with their tickets, carries out what the scheduler
 * decides and reports back what happened:
 *   - the port thread programs one slot at a time through the platform's reconfiguration
 *     port, from the task's bitstream kept in the DMA region;
 *   - one runner thread per managed slot runs the requests started there as hardware
 *     threads on the slot's configuration, to their end or their timeout in fabric time.
 * Every scheduler call and every request's state is under mu; the port's programming and
 * the threads' runs happen outside it.
 */
#define _GNU_SOURCE
#include "weft/reconf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "deadline.h"
#include "reconf_sched.h"
#include "weft/bitstream.h"
#include "weft/osif_protocol.h"
#include "weft_internal.h"

typedef struct task {
    char name[WEFT_NAME_MAX];
    bool accelerator;        /* an HLS-style accelerator (docs/hls.md) */
    uint64_t timeout_cycles; /* 0: none */
    /* The bitstream of each slot of its partition, in the DMA region: one file for them
     * all, or one a slot (real bitstreams do not relocate). */
    void *file[RECONF_MAX_SLOTS];
    uint64_t file_bus[RECONF_MAX_SLOTS];
    size_t file_size[RECONF_MAX_SLOTS];
} task_t;

typedef struct runner {
    weft_reconf_t *r;
    unsigned slot;
    pthread_t thread;
    bool started;
    weft_reconf_req_t *job; /* under mu */
} runner_t;

struct weft_reconf_req {
    weft_reconf_t *r;
    uint64_t id;
    unsigned task;
    uint32_t init_data;
    weft_resource_t *res;
    unsigned num_res;
    weft_mem_window_t *win;
    unsigned num_win;
    uint64_t acc_args[WEFT_HLS_MAX_ARGS];
    unsigned num_acc_args;
    int efd;
    bool ended;
    bool abort;             /* weft_reconf_abort(): stop it rather than start or run it (atomic) */
    uint64_t submit_fabric; /* the fabric's cycle counter at submit (UINT64_MAX: unread) */
    weft_reconf_result_t result;
    struct weft_reconf_req *next; /* live requests */
};

struct weft_reconf {
    weft_t *w;
    weft_platform_t *p;
    reconf_sched_t *sched;
    task_t *tasks;
    unsigned num_tasks;

    pthread_mutex_t mu;
    pthread_cond_t cv; /* CLOCK_MONOTONIC: port job, runner jobs, a request's end, stopping */
    bool closing;      /* weft_reconf_close() has begun: no more requests */
    bool stopping;     /* every request has ended: the threads leave */
    weft_reconf_req_t *reqs;

    /* the port: one job at a time */
    pthread_t port;
    bool port_started, port_busy;
    unsigned port_slot, port_task;
    uint64_t port_req;

    runner_t runners[RECONF_MAX_SLOTS];
};

/* The fabric's cycle counter; UINT64_MAX when it cannot be read. */
static uint64_t fabric_now(weft_reconf_t *r)
{
    uint64_t c;
    return weft_fabric_cycles(r->w, &c) == 0 ? c : UINT64_MAX;
}

/* Cycles from a counter reading to a later one; 0 when either could not be read. */
static uint64_t fabric_since(uint64_t from, uint64_t to)
{
    return from != UINT64_MAX && to != UINT64_MAX && to >= from ? to - from : 0;
}

static void req_free(weft_reconf_req_t *q)
{
    if (q->efd >= 0)
        close(q->efd);
    free(q->res);
    free(q->win);
    free(q);
}

static weft_reconf_req_t *find_req(weft_reconf_t *r, uint64_t id)
{
    for (weft_reconf_req_t *q = r->reqs; q; q = q->next)
        if (q->id == id)
            return q;
    return NULL;
}

/* Under mu: the request has ended. */
static void end_req(weft_reconf_req_t *q, int status)
{
    q->result.status = status;
    q->result.end_ns = weft_mono_ns();
    q->ended = true;
    uint64_t one = 1;
    if (write(q->efd, &one, sizeof one) != sizeof one)
        weft_log(q->r->w, "reconf: request %" PRIu64 ": eventfd write failed", q->id);
    pthread_cond_broadcast(&q->r->cv);
}

/* ---- what the scheduler asks (called under mu) ------------------------------------- */

static void op_reconfigure(void *arg, unsigned slot, unsigned task, uint64_t id)
{
    weft_reconf_t *r = arg;
    r->port_busy = true;
    r->port_slot = slot;
    r->port_task = task;
    r->port_req = id;
    pthread_cond_broadcast(&r->cv);
}

static void op_execute(void *arg, unsigned slot, uint64_t id)
{
    weft_reconf_t *r = arg;
    weft_reconf_req_t *q = find_req(r, id);
    q->result.slot = slot;
    r->runners[slot].job = q;
    pthread_cond_broadcast(&r->cv);
}

/* A failed programming has already written its message into the request (port_main). */
static void op_fail(void *arg, uint64_t id, int err)
{
    end_req(find_req(arg, id), err);
}

static const reconf_sched_ops_t sched_ops = {op_reconfigure, op_execute, op_fail};

/* ---- the port -------------------------------------------------------------------------- */

static void *port_main(void *arg)
{
    weft_reconf_t *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->port_busy && !r->stopping)
            pthread_cond_wait(&r->cv, &r->mu);
        if (!r->port_busy)
            break;
        const unsigned slot = r->port_slot;
        const task_t *t = &r->tasks[r->port_task];
        /* The request cannot end while its slot is programmed (cancel answers -EBUSY). */
        weft_reconf_req_t *q = find_req(r, r->port_req);
        pthread_mutex_unlock(&r->mu);

        weft_program_result_t res = {0};
        const uint64_t c0 = fabric_now(r);
        const uint64_t t0 = weft_mono_ns();
        int rc = r->p->ops->slot_program(r->p, slot, t->file_bus[slot], t->file_size[slot], &res);
        const uint64_t t1 = weft_mono_ns();

        pthread_mutex_lock(&r->mu);
        weft_reconf_result_t *res_q = &q->result;
        res_q->slot = slot;
        res_q->reconfigured = 1;
        res_q->wait_ns = t0 - res_q->submit_ns;
        res_q->wait_cycles = fabric_since(q->submit_fabric, c0);
        res_q->reconf_ns = t1 - t0;
        res_q->reconf_cycles = res.cycles;
        if (rc != 0) {
            snprintf(res_q->message, sizeof res_q->message, "programming slot %u with %s: %.150s",
                     slot, t->name, rc == -EIO ? res.message : strerror(-rc));
            weft_log(r->w, "reconf: %s", res_q->message);
        }
        r->port_busy = false;
        reconf_sched_reconfigured(r->sched, slot, rc == 0);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* ---- runners --------------------------------------------------------------------------- */

/* Run q on slot to its end or its timeout; fills q's result (outside mu: q is ours). */
static int run_task(weft_reconf_t *r, weft_reconf_req_t *q, unsigned slot)
{
    const task_t *t = &r->tasks[q->task];
    weft_hwthread_attr_t a = {0};
    a.name = t->name;
    a.image = NULL; /* what the port programmed */
    a.slot = slot;
    a.resources = q->res;
    a.num_resources = q->num_res;
    a.init_data = q->init_data;
    a.windows = q->win;
    a.num_windows = q->num_win;
    a.accelerator = t->accelerator;
    a.acc_args = q->acc_args;
    a.num_acc_args = q->num_acc_args;
    weft_hwthread_t *th = NULL;
    q->result.start_ns = weft_mono_ns();
    uint64_t c0 = 0, c = 0;
    int rc = weft_fabric_cycles(r->w, &c0);
    if (!q->result.reconfigured) { /* its slot held its task: it waited until now */
        q->result.wait_ns = q->result.start_ns - q->result.submit_ns;
        q->result.wait_cycles = fabric_since(q->submit_fabric, rc == 0 ? c0 : UINT64_MAX);
    }
    if (__atomic_load_n(&q->abort, __ATOMIC_ACQUIRE)) {
        snprintf(q->result.message, sizeof q->result.message, "%s aborted before it started",
                 t->name);
        return -ECANCELED;
    }
    if (rc == 0)
        rc = weft_hwthread_create(r->w, &th, &a);
    if (rc != 0) {
        snprintf(q->result.message, sizeof q->result.message, "%s could not start in slot %u: %s",
                 t->name, slot, strerror(-rc));
        return rc;
    }
    weft_exit_status_t st;
    bool timed_out = false, aborted = false;
    /* Fabric time: the cycle counter, asked once a wait slice, as is an abort. */
    while ((rc = weft_hwthread_timedjoin(th, &st, WEFT_WAIT_SLICE_MS)) == -ETIMEDOUT) {
        if (__atomic_load_n(&q->abort, __ATOMIC_ACQUIRE)) {
            aborted = true;
            break;
        }
        if (t->timeout_cycles && weft_fabric_cycles(r->w, &c) == 0 && c - c0 > t->timeout_cycles) {
            timed_out = true;
            break;
        }
    }
    weft_hwthread_destroy(th); /* waits for the slot's bursts in flight (docs/reconfiguration.md) */
    if (weft_fabric_cycles(r->w, &c) == 0)
        q->result.exec_cycles = c - c0;
    if (aborted) {
        snprintf(q->result.message, sizeof q->result.message, "%s aborted in slot %u", t->name,
                 slot);
        return -ECANCELED;
    }
    if (timed_out) {
        snprintf(q->result.message, sizeof q->result.message,
                 "%s stopped in slot %u after its timeout of %" PRIu64 " fabric cycles", t->name,
                 slot, t->timeout_cycles);
        return -ETIMEDOUT;
    }
    if (rc != 0)
        return rc;
    if (st.kind == WEFT_EXIT_NORMAL) {
        q->result.exit_value = st.value;
        return 0;
    }
    snprintf(q->result.message, sizeof q->result.message, "%s in slot %u: %.180s", t->name, slot,
             st.kind == WEFT_EXIT_FAULTED ? st.message : "ended without THREAD_EXIT");
    return -EFAULT;
}

static void *runner_main(void *arg)
{
    runner_t *ru = arg;
    weft_reconf_t *r = ru->r;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!ru->job && !r->stopping)
            pthread_cond_wait(&r->cv, &r->mu);
        weft_reconf_req_t *q = ru->job;
        if (!q)
            break;
        pthread_mutex_unlock(&r->mu);
        int status = run_task(r, q, ru->slot);
        pthread_mutex_lock(&r->mu);
        ru->job = NULL;
        end_req(q, status);
        reconf_sched_finished(r->sched, ru->slot);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* ---- set-up ---------------------------------------------------------------------------- */

/* Read a task's bitstream, check it against its partition, and put it in the DMA region. */
/* Read the bitstream file at path into the DMA region and check it whole. */
static int load_file(weft_reconf_t *r, const char *task, const char *path, void **file,
                     uint64_t *bus, size_t *size, weft_bitstream_info_t *info)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        weft_log(r->w, "reconf: task %s: bitstream %s: %s", task, path, strerror(e));
        return -e;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        st.st_size > (off_t)(WEFT_BITSTREAM_HEADER_BYTES + WEFT_BITSTREAM_MAX_PAYLOAD) ||
        st.st_size < (off_t)WEFT_BITSTREAM_HEADER_BYTES) {
        weft_log(r->w, "reconf: task %s: %s is not a bitstream file of a possible size", task,
                 path);
        close(fd);
        return -EINVAL;
    }
    *size = (size_t)st.st_size;
    int rc = weft_mem_alloc(r->w, *size, file, bus);
    size_t got = 0;
    while (rc == 0 && got < *size) {
        ssize_t n = read(fd, (uint8_t *)*file + got, *size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -errno : -EINVAL;
            break;
        }
        got += (size_t)n;
    }
    close(fd);
    if (rc != 0) {
        weft_log(r->w, "reconf: task %s: reading %s: %s", task, path, strerror(-rc));
        return rc;
    }
    char why[160];
    if (weft_bitstream_check(*file, *size, info, why, sizeof why) != 0) {
        weft_log(r->w, "reconf: task %s: %s: %s", task, path, why);
        return -EINVAL;
    }
    return 0;
}

/* A path with one "%u" (and no other conversion) names one bitstream a slot. */
static bool per_slot_path(const char *path)
{
    const char *c = strchr(path, '%');
    return c && c[1] == 'u' && !strchr(c + 2, '%');
}

/* Read and check a task's bitstream (or its one a slot) and put it in the DMA region. */
static int load_task(weft_reconf_t *r, const weft_reconf_task_t *in,
                     const weft_reconf_config_t *cfg, uint32_t clock_mhz, task_t *t)
{
    snprintf(t->name, sizeof t->name, "%s", in->name ? in->name : "task");
    t->accelerator = in->accelerator != 0;
    t->timeout_cycles =
        in->timeout_us > UINT64_MAX / clock_mhz ? UINT64_MAX : in->timeout_us * clock_mhz;
    if (!in->bitstream || (strchr(in->bitstream, '%') && !per_slot_path(in->bitstream))) {
        weft_log(r->w,
                 "reconf: task %s: bitstream path %s (a file, or one with a %%u for the "
                 "slot)",
                 t->name, in->bitstream ? in->bitstream : "(none)");
        return -EINVAL;
    }
    const weft_reconf_partition_t *part = &cfg->partitions[in->partition];
    const bool each = per_slot_path(in->bitstream);
    const unsigned first = (unsigned)__builtin_ctzll(part->slots); /* partitions are not empty */
    for (unsigned s = first; s < RECONF_MAX_SLOTS; s++) {
        if (!(part->slots >> s & 1u))
            continue;
        if (!each && s != first) { /* one file: every slot programs from the first's */
            t->file_bus[s] = t->file_bus[first];
            t->file_size[s] = t->file_size[first];
            continue;
        }
        char path[PATH_MAX];
        if (each)
            snprintf(path, sizeof path, in->bitstream, s);
        else
            snprintf(path, sizeof path, "%s", in->bitstream);
        weft_bitstream_info_t info;
        int rc = load_file(r, t->name, path, &t->file[s], &t->file_bus[s], &t->file_size[s], &info);
        if (rc != 0)
            return rc;
        if (part->name && strcmp(part->name, info.partition) != 0) {
            weft_log(r->w, "reconf: task %s: %s is for partition %s, the task's is %s", t->name,
                     path, info.partition, part->name);
            return -EINVAL;
        }
        const uint64_t want = each ? (uint64_t)1 << s : part->slots;
        if ((want & ~(uint64_t)info.slot_mask) != 0) {
            weft_log(r->w,
                     "reconf: task %s: %s programs slots 0x%x, it must program 0x%" PRIx64
                     " of partition %s",
                     t->name, path, (unsigned)info.slot_mask, want, info.partition);
            return -EINVAL;
        }
    }
    return 0;
}

static void free_tasks(weft_reconf_t *r)
{
    for (unsigned i = 0; r->tasks && i < r->num_tasks; i++)
        for (unsigned s = 0; s < RECONF_MAX_SLOTS; s++)
            if (r->tasks[i].file[s])
                weft_mem_free(r->w, r->tasks[i].file[s]);
    free(r->tasks);
}

static int check_layout(weft_reconf_t *r, const weft_reconf_config_t *cfg)
{
    unsigned n = r->w->num_slots;
    uint64_t all = n >= 64 ? UINT64_MAX : ((uint64_t)1 << n) - 1;
    if (!cfg->partitions || !cfg->tasks || cfg->num_partitions == 0 || cfg->num_tasks == 0)
        return -EINVAL;
    for (unsigned i = 0; i < cfg->num_partitions; i++)
        if (cfg->partitions[i].slots & ~all) {
            weft_log(r->w, "reconf: partition %u has slots 0x%" PRIx64 ", the fabric %u", i,
                     cfg->partitions[i].slots, n);
            return -EINVAL;
        }
    for (unsigned i = 0; i < cfg->num_tasks; i++)
        if (cfg->tasks[i].partition >= cfg->num_partitions) {
            weft_log(r->w, "reconf: task %u names partition %u of %u", i, cfg->tasks[i].partition,
                     cfg->num_partitions);
            return -EINVAL;
        }
    return 0;
}

int weft_reconf_open(weft_t *w, const weft_reconf_config_t *cfg, weft_reconf_t **out)
{
    if (!w || !cfg || !out)
        return -EINVAL;
    if (!w->platform->ops->slot_program)
        return -ENOTSUP;
    if (!(w->services & WEFT_SERVICE_FRI))
        return weft_no_service(w, "weft_reconf_open", WEFT_SERVICE_FRI);
    weft_reconf_t *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    r->w = w;
    r->p = w->platform;
    uint32_t mhz = 0;
    int rc = r->p->ops->mmio_read(r->p, WEFT_REG_CLOCK_MHZ, &mhz);
    if (rc == 0 && mhz == 0)
        rc = -EIO; /* timeouts count cycles at this clock */
    if (rc == 0)
        rc = check_layout(r, cfg);
    r->num_tasks = cfg->num_tasks;
    r->tasks = rc == 0 ? calloc(cfg->num_tasks, sizeof *r->tasks) : NULL;
    unsigned *task_part = rc == 0 ? calloc(cfg->num_tasks, sizeof *task_part) : NULL;
    uint64_t *part_slots = rc == 0 ? calloc(cfg->num_partitions, sizeof *part_slots) : NULL;
    if (rc == 0 && (!r->tasks || !task_part || !part_slots))
        rc = -ENOMEM;
    for (unsigned i = 0; rc == 0 && i < cfg->num_tasks; i++) {
        rc = load_task(r, &cfg->tasks[i], cfg, mhz, &r->tasks[i]);
        task_part[i] = cfg->tasks[i].partition;
    }
    for (unsigned i = 0; rc == 0 && i < cfg->num_partitions; i++)
        part_slots[i] = cfg->partitions[i].slots;
    if (rc == 0) {
        reconf_layout_t layout = {cfg->num_partitions, part_slots, cfg->num_tasks, task_part};
        rc = reconf_sched_create(&r->sched, &layout, &sched_ops, r);
        if (rc == -EINVAL)
            weft_log(w, "reconf: partitions overlap or one has no slot");
    }
    free(task_part);
    free(part_slots);
    if (rc != 0) {
        free_tasks(r);
        free(r);
        return rc;
    }
    pthread_mutex_init(&r->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&r->cv, &ca);
    pthread_condattr_destroy(&ca);
    rc = -pthread_create(&r->port, NULL, port_main, r);
    r->port_started = rc == 0;
    for (unsigned i = 0; rc == 0 && i < cfg->num_partitions; i++)
        for (unsigned s = 0; s < w->num_slots && rc == 0; s++) {
            if (!(cfg->partitions[i].slots >> s & 1))
                continue;
            runner_t *ru = &r->runners[s];
            ru->r = r;
            ru->slot = s;
            rc = -pthread_create(&ru->thread, NULL, runner_main, ru);
            ru->started = rc == 0;
        }
    if (rc != 0) {
        weft_reconf_close(r);
        return rc;
    }
    *out = r;
    return 0;
}

void weft_reconf_close(weft_reconf_t *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    r->closing = true; /* submit refuses from here on */
    for (weft_reconf_req_t *q = r->reqs; q; q = q->next)
        if (!q->ended)
            reconf_sched_cancel(r->sched, q->id);
    /* What could not be cancelled is being programmed or runs: let it end. */
    for (;;) {
        bool live = false;
        for (weft_reconf_req_t *q = r->reqs; q; q = q->next)
            live = live || !q->ended;
        if (!live)
            break;
        pthread_cond_wait(&r->cv, &r->mu);
    }
    r->stopping = true;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    if (r->port_started)
        pthread_join(r->port, NULL);
    for (unsigned s = 0; s < RECONF_MAX_SLOTS; s++)
        if (r->runners[s].started)
            pthread_join(r->runners[s].thread, NULL);
    while (r->reqs) {
        weft_reconf_req_t *q = r->reqs;
        r->reqs = q->next;
        req_free(q);
    }
    reconf_sched_destroy(r->sched);
    free_tasks(r);
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

/* ---- requests -------------------------------------------------------------------------- */

int weft_reconf_submit(weft_reconf_t *r, unsigned task, const weft_reconf_args_t *args,
                       weft_reconf_req_t **out)
{
    if (!r || !out || task >= r->num_tasks || (args && args->num_resources > WEFT_MAX_RESOURCES) ||
        (args && args->num_windows > WEFT_MAX_WINDOWS) ||
        (args && args->num_resources && !args->resources) ||
        (args && args->num_windows && !args->windows) ||
        (args && args->num_acc_args > WEFT_HLS_MAX_ARGS) ||
        (args && args->num_acc_args && !args->acc_args))
        return -EINVAL;
    weft_reconf_req_t *q = calloc(1, sizeof *q);
    if (!q)
        return -ENOMEM;
    q->r = r;
    q->task = task;
    q->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    int rc = q->efd < 0 ? -errno : 0;
    if (rc == 0 && args) {
        q->init_data = args->init_data;
        q->num_acc_args = args->num_acc_args;
        if (q->num_acc_args)
            memcpy(q->acc_args, args->acc_args, q->num_acc_args * sizeof *q->acc_args);
        q->num_res = args->num_resources;
        q->num_win = args->num_windows;
        if (q->num_res && (q->res = malloc(q->num_res * sizeof *q->res)))
            memcpy(q->res, args->resources, q->num_res * sizeof *q->res);
        if (q->num_win && (q->win = malloc(q->num_win * sizeof *q->win)))
            memcpy(q->win, args->windows, q->num_win * sizeof *q->win);
        if ((q->num_res && !q->res) || (q->num_win && !q->win))
            rc = -ENOMEM;
    }
    if (rc == 0)
        q->submit_fabric = fabric_now(r);
    pthread_mutex_lock(&r->mu);
    if (rc == 0 && r->closing)
        rc = -ESHUTDOWN;
    if (rc == 0) {
        q->next = r->reqs;
        r->reqs = q;
        q->result.submit_ns = weft_mono_ns();
        /* The scheduler sets q->id before the ops it calls (execute, fail) look q up. */
        rc = reconf_sched_submit(r->sched, task, q->result.submit_ns, &q->id);
        if (rc != 0)
            r->reqs = q->next;
    }
    pthread_mutex_unlock(&r->mu);
    if (rc != 0) {
        req_free(q);
        return rc;
    }
    *out = q;
    return 0;
}

int weft_reconf_fd(const weft_reconf_req_t *q)
{
    return q ? q->efd : -EINVAL;
}

int weft_reconf_wait(weft_reconf_req_t *q, int timeout_ms, weft_reconf_result_t *res)
{
    if (!q)
        return -EINVAL;
    weft_reconf_t *r = q->r;
    const struct timespec until =
        weft_deadline_after(CLOCK_MONOTONIC, timeout_ms > 0 ? timeout_ms : 0);
    pthread_mutex_lock(&r->mu);
    int rc = 0;
    while (!q->ended && rc == 0) {
        if (timeout_ms < 0)
            pthread_cond_wait(&r->cv, &r->mu);
        else if (timeout_ms == 0 || pthread_cond_timedwait(&r->cv, &r->mu, &until) == ETIMEDOUT)
            rc = q->ended ? 0 : -ETIMEDOUT;
    }
    if (rc == 0 && res)
        *res = q->result;
    pthread_mutex_unlock(&r->mu);
    return rc;
}

int weft_reconf_cancel(weft_reconf_req_t *q)
{
    if (!q)
        return -EINVAL;
    weft_reconf_t *r = q->r;
    pthread_mutex_lock(&r->mu);
    int rc = q->ended ? -EALREADY : reconf_sched_cancel(r->sched, q->id);
    pthread_mutex_unlock(&r->mu);
    return rc;
}

int weft_reconf_abort(weft_reconf_req_t *q)
{
    if (!q)
        return -EINVAL;
    weft_reconf_t *r = q->r;
    pthread_mutex_lock(&r->mu);
    int rc = q->ended ? -EALREADY : reconf_sched_cancel(r->sched, q->id);
    if (rc == -EBUSY) { /* programmed or running: its runner stops it */
        __atomic_store_n(&q->abort, true, __ATOMIC_RELEASE);
        rc = 0;
    }
    pthread_mutex_unlock(&r->mu);
    return rc;
}

void weft_reconf_release(weft_reconf_req_t *q)
{
    if (!q)
        return;
    weft_reconf_t *r = q->r;
    weft_reconf_cancel(q);
    weft_reconf_wait(q, -1, NULL);
    pthread_mutex_lock(&r->mu);
    for (weft_reconf_req_t **pp = &r->reqs; *pp; pp = &(*pp)->next)
        if (*pp == q) {
            *pp = q->next;
            break;
        }
    pthread_mutex_unlock(&r->mu);
    req_free(q);
}

void weft_reconf_stats(weft_reconf_t *r, weft_reconf_stats_t *out)
{
    if (!r || !out)
        return;
    reconf_sched_stats_t st;
    pthread_mutex_lock(&r->mu);
    reconf_sched_stats(r->sched, &st);
    pthread_mutex_unlock(&r->mu);
    *out = (weft_reconf_stats_t){st.requests, st.reused, st.reconfigured, st.failed, st.cancelled};
}

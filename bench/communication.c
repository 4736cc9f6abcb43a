/*
 * weft-bench-communication: throughput of the communication paths between memory,
 * software threads and hardware threads, the measurement of section 6.2 and Table VI of
 * the ReconOS paper, on Weft. Every path moves one block of 8 KiB per sample.
 *
 *   MEM->HW, HW->MEM   hwt_stream's burst read of the block into its local RAM, and its
 *                      burst write of the block to memory, in the thread's own clock
 *                      cycles (hw/threads/stream/hwt_stream.sv reports them per job).
 *   MEM->SW->MEM       memcpy of the block between two shared-memory buffers.
 *   HW->HW             two hwt_stream threads (slots 0 and 1) joined by the hardware link
 *                      ring01: the source's mailbox phase, from its first put request to
 *                      its last word in the link, in its own cycles.
 *   SW<->HW mailbox    a pthread puts (gets) the block word by word into (from) a
 *                      weft_mbox_t that an hwt_stream sink (source) reads (fills) with
 *                      MBOX_GET_BURST (MBOX_PUT_BURST) calls served by its delegate.
 *   SW<->HW mqueue     a pthread sends (receives) the block through a POSIX message
 *                      queue that an hwt_stream receives from (sends to): as 16 messages
 *                      of 512 bytes carried by the calls (MQ_RECEIVE, MQ_SEND: each
 *                      request staged by DMA, each long response moved by one), and as one
 *                      message of 8 KiB by reference to the thread's memory (MQ_RECEIVE_MEM,
 *                      MQ_SEND_MEM: the thread writes or reads the block by burst).
 *
 * Hardware figures are fabric cycles (exact, repeatable) and microseconds and MB/s
 * projected at the platform's nominal clock (WEFT_PLATFORM_CLOCK_MHZ). Software and
 * SW<->HW figures are CLOCK_MONOTONIC wall clock of this host with the fabric co-simulated,
 * plus the fabric cycles and simulation time weft_sim_stats() counted over the same
 * interval (projection.h; the simulated clock stops while every slot is blocked in an OS
 * call, so these are the cycles the fabric itself spent) and the board projection made of
 * them. MiB/s is 2^20 bytes per second, the unit of Table VI.
 *
 * Usage: weft-bench-communication [--reps N] [--out PATH]
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <mqueue.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "projection.h"
#include "weft/platform_config.h"
#include "weft/sim.h"
#include "weft/weft.h"

#define PROG "weft-bench-communication"
#define DEFAULT_REPS 100u
#define MAX_REPS 10000u
#define DEFAULT_OUT "bench/communication.json"

#define BLOCK_BYTES 8192u
#define BLOCK_WORDS (BLOCK_BYTES / 4u)
#define WARMUP 2u            /* unrecorded samples before each path */
#define MEMCPY_WARMUP 100u   /* unrecorded memcpys */
#define MEMCPY_BATCH 16u     /* memcpys per sample (the clock read is not much faster) */
#define WAIT_MS 60000        /* longest wait for a report or a word before giving up */
#define DATA_MBOX_WORDS 256u /* the SW<->HW data mailbox: one burst of the thread */

/* The message queue paths: 16 messages of 512 bytes (hwt_stream's MsgWords) make the
 * block. */
#define MQ_MSG_BYTES 512u      /* hwt_stream's MsgWords x 4 */
#define MQ_MEM_MSG_BYTES 8192u /* hwt_stream's MsgBytesMem; Linux's default msgsize_max */
#define MQ_DEPTH 8             /* mq_maxmsg; Linux lets unprivileged users have 10 */

/* hwt_stream: job ops and the handles of its init data (hw/threads/stream/hwt_stream.sv). */
enum {
    OP_EXIT = 0,
    OP_SOURCE = 1,
    OP_SINK = 2,
    OP_MQ_SOURCE = 3,
    OP_MQ_SINK = 4,
    OP_MQ_SOURCE_MEM = 5,
    OP_MQ_SINK_MEM = 6,
    OP_LOAD = 7
};
#define STREAM_INIT (0u | 1u << 8 | 2u << 16) /* job 0, report 1, data 2 */

/* ---- time, statistics, errors ------------------------------------------------------- */

static void die(const char *what, int rc)
{
    fprintf(stderr, PROG ": %s failed (%d: %s)\n", what, rc, strerror(rc < 0 ? -rc : rc));
    exit(1);
}

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, PROG ": ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* The host's 1-minute load average (/proc/loadavg), NAN when unknown: wall-clock figures
 * of a co-simulation depend on it. */
static double host_load(void)
{
    double load = NAN;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1)
            load = NAN;
        fclose(f);
    }
    return load;
}

static void log_sink(void *arg, const char *msg)
{
    (void)arg;
    fprintf(stderr, "weft: %s\n", msg);
}

/* A deterministic pattern, different for every sample. */
static void fill_pattern(uint32_t *w, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        w[i] = x;
    }
}

/* ---- the fabric and the threads ------------------------------------------------------ */

struct bench {
    weft_platform_t *plat;
    weft_t *w;
    unsigned reps;
    double load_start, load_end; /* host load average before and after */
    double *v[4];                /* per-sample buffers, reps + WARMUP entries each */
};

static uint64_t fabric_cycles(struct bench *b)
{
    uint64_t c = 0;
    int rc = weft_fabric_cycles(b->w, &c);
    if (rc)
        die("weft_fabric_cycles", rc);
    return c;
}

static uint64_t delegate_calls(weft_hwthread_t *t)
{
    weft_hwthread_stats_t st;
    int rc = weft_hwthread_stats(t, &st);
    if (rc)
        die("weft_hwthread_stats", rc);
    return st.calls;
}

struct shm {
    uint32_t *cpu;
    uint64_t bus;
    size_t bytes;
};

static struct shm shm_alloc(struct bench *b, size_t bytes)
{
    struct shm m = {NULL, 0, bytes};
    void *cpu = NULL;
    int rc = weft_mem_alloc(b->w, bytes, &cpu, &m.bus);
    if (rc)
        die("weft_mem_alloc", rc);
    m.cpu = cpu;
    return m;
}

static weft_hwthread_t *hw_start(struct bench *b, const char *image, const char *name,
                                 unsigned slot, const weft_resource_t *res, unsigned nres,
                                 uint32_t init, const weft_mem_window_t *win, unsigned nwin)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.so", WEFT_IMAGE_DIR, image);
    weft_hwthread_attr_t attr = {.name = name,
                                 .image = path,
                                 .slot = slot,
                                 .resources = res,
                                 .num_resources = nres,
                                 .init_data = init,
                                 .windows = win,
                                 .num_windows = nwin};
    weft_hwthread_t *t = NULL;
    int rc = weft_hwthread_create(b->w, &t, &attr);
    if (rc) {
        fprintf(stderr, PROG ": cannot start %s in slot %u\n", image, slot);
        die("weft_hwthread_create", rc);
    }
    return t;
}

/* Give up when a thread of the path has ended (it faulted or exited early). */
static void check_running(weft_hwthread_t *const *watch, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        weft_exit_status_t st;
        if (weft_hwthread_timedjoin(watch[i], &st, 0) == 0) {
            fprintf(stderr, PROG ": a hardware thread ended early (kind %d, value 0x%08x) %s\n",
                    (int)st.kind, (unsigned)st.value, st.message);
            exit(1);
        }
    }
}

/* Take one word, watching the threads that should produce it. */
static uint32_t get_word(weft_mbox_t *mb, weft_hwthread_t *const *watch, unsigned n)
{
    uint32_t w = 0;
    for (int waited = 0; waited < WAIT_MS; waited += 250) {
        if (weft_mbox_timedget(mb, &w, 250) == 0)
            return w;
        check_running(watch, n);
    }
    fail("no word from the hardware within the time limit");
    return 0;
}

static void put_word(weft_mbox_t *mb, uint32_t w, weft_hwthread_t *const *watch, unsigned n)
{
    for (int waited = 0; waited < WAIT_MS; waited += 250) {
        if (weft_mbox_timedput(mb, w, 250) == 0)
            return;
        check_running(watch, n);
    }
    fail("the hardware took no word within the time limit");
}

/* An hwt_stream thread with its job and report mailboxes. */
struct stream {
    weft_hwthread_t *t;
    weft_mbox_t jobs, reports;
};

struct report {
    uint32_t status, mem_cycles, mbox_cycles;
};

/* hwt_stream in `slot`, its data handle bound to `data`, allowed only `win`; its job and
 * report mailboxes hold `jobs` jobs (reports) each. */
static void stream_start(struct bench *b, struct stream *s, const char *name, unsigned slot,
                         weft_resource_t data, const weft_mem_window_t *win, unsigned jobs)
{
    int rc = weft_mbox_init(&s->jobs, 3 * jobs);
    if (rc == 0)
        rc = weft_mbox_init(&s->reports, 3 * jobs);
    if (rc)
        die("weft_mbox_init", rc);
    weft_resource_t res[] = {{WEFT_RES_MBOX, &s->jobs}, {WEFT_RES_MBOX, &s->reports}, data};
    s->t = hw_start(b, "hwt_stream", name, slot, res, 3, STREAM_INIT, win, 1);
}

static void stream_job(struct stream *s, uint32_t op, uint64_t bus, uint32_t words)
{
    put_word(&s->jobs, op, &s->t, 1);
    put_word(&s->jobs, (uint32_t)bus, &s->t, 1);
    put_word(&s->jobs, words, &s->t, 1);
}

/* The report of the stream's oldest job; it must have succeeded. */
static struct report stream_report(struct stream *s, weft_hwthread_t *const *watch, unsigned n)
{
    struct report r;
    r.status = get_word(&s->reports, watch, n);
    r.mem_cycles = get_word(&s->reports, watch, n);
    r.mbox_cycles = get_word(&s->reports, watch, n);
    if (r.status != 0) {
        fprintf(stderr, PROG ": hwt_stream reported status %u (%s)\n", (unsigned)r.status,
                weft_osif_status_name(r.status));
        exit(1);
    }
    return r;
}

/* Exit job, join (a normal exit with value 0), destroy. */
static void stream_stop(struct stream *s)
{
    stream_job(s, OP_EXIT, 0, 0);
    weft_exit_status_t st;
    int rc = weft_hwthread_timedjoin(s->t, &st, WAIT_MS);
    if (rc)
        die("joining hwt_stream", rc);
    if (st.kind != WEFT_EXIT_NORMAL || st.value != 0) {
        fprintf(stderr, PROG ": hwt_stream ended with kind %d value 0x%08x %s\n", (int)st.kind,
                (unsigned)st.value, st.message);
        exit(1);
    }
    weft_hwthread_destroy(s->t);
    weft_mbox_destroy(&s->jobs);
    weft_mbox_destroy(&s->reports);
}

static weft_link_t *link_get(struct bench *b, unsigned index)
{
    weft_link_t *k = NULL;
    int rc = weft_link_get(b->w, index, &k);
    if (rc)
        die("weft_link_get", rc);
    return k;
}

/* ---- wall-clock samples of a software<->hardware path ---------------------------------- */

/* The start of one sample: its projection marks, and one thread's delegate calls. */
struct sample {
    bench_mark_t m;
    uint64_t calls;
};

/* A path's samples: wall-clock and projected microseconds and fabric cycles per sample
 * (b->v[0..2]), and the delegate calls of all of them. */
struct samples {
    double *wall, *proj, *cycles;
    uint64_t calls;
};

static struct samples samples_of(struct bench *b)
{
    return (struct samples){b->v[0], b->v[1], b->v[2], 0};
}

static struct sample sample_start(struct bench *b, weft_hwthread_t *t)
{
    struct sample s;
    s.calls = delegate_calls(t);
    s.m = bench_mark_start(b->plat);
    return s;
}

/* Sample i ends now; the first WARMUP are not kept. */
static void sample_end(struct bench *b, weft_hwthread_t *t, const struct sample *s,
                       struct samples *set, unsigned i)
{
    bench_mark_t m = bench_mark_end(b->plat);
    if (i < WARMUP)
        return;
    set->wall[i - WARMUP] = bench_wall_us(s->m, m);
    set->proj[i - WARMUP] = bench_projected_us(s->m, m, WEFT_PLATFORM_CLOCK_MHZ);
    set->cycles[i - WARMUP] = (double)(m.cycles - s->m.cycles);
    set->calls += delegate_calls(t) - s->calls;
}

/* ---- results ------------------------------------------------------------------------- */

typedef struct row {
    const char *key;            /* JSON name */
    const char *path;           /* as in Table VI */
    const char *basis;          /* "projected" (fabric cycles at the platform clock) or "wall" */
    bench_stats_t us;           /* microseconds per block */
    bench_stats_t proj;         /* board projection per block (projection.h); us when the
                                   basis is already projected or no fabric is involved */
    bench_stats_t cycles;       /* fabric cycles per block; n = 0 when not a hardware figure */
    double cycles_per_word;     /* HW->HW only, else NAN */
    double delegate_calls;      /* per block, median; NAN when not counted */
    double seed_us, seed_mib_s; /* ReconOS Table VI, with data cache */
    const char *target_metric;  /* NULL: no target */
    double target;              /* bound on target_metric */
    int target_is_max;          /* 1: at most, 0: at least */
    const char *skipped;        /* why the path was not measured, or NULL */
    const char *includes;       /* what one sample contains */
} row_t;

enum {
    R_MEM_HW,
    R_HW_MEM,
    R_MEMCPY,
    R_HW_HW,
    R_SW_HW_MBOX,
    R_HW_SW_MBOX,
    R_SW_HW_MQ,
    R_HW_SW_MQ,
    R_SW_HW_MQ_MEM,
    R_HW_SW_MQ_MEM,
    R_COUNT
};

static row_t rows[R_COUNT];

/* A wall-clock row from its samples (sorted here). */
static void sample_rows(struct bench *b, struct samples *set, row_t *r)
{
    r->us = bench_summarize(set->wall, b->reps);
    r->proj = bench_summarize(set->proj, b->reps);
    r->cycles = bench_summarize(set->cycles, b->reps);
    r->delegate_calls = (double)set->calls / b->reps;
}

static double mb_per_s(const row_t *r)
{
    return BLOCK_BYTES / r->us.median;
}
static double mib_per_s(const row_t *r)
{
    return mb_per_s(r) * 1e6 / 1048576.0;
}
static double bytes_per_cycle(const row_t *r)
{
    return r->cycles.n ? BLOCK_BYTES / r->cycles.median : NAN;
}
/* Bytes per cycle of the board projection at the platform clock. */
static double projected_bytes_per_cycle(const row_t *r)
{
    return r->proj.n ? BLOCK_BYTES / (r->proj.median * WEFT_PLATFORM_CLOCK_MHZ) : NAN;
}
/* The seed per bus cycle (its bus ran at 100 MHz: one cycle is 10 ns); NAN for memcpy,
 * which involves no fabric. */
static double seed_bytes_per_cycle(const row_t *r)
{
    return r != &rows[R_MEMCPY] ? BLOCK_BYTES / (r->seed_us * 100.0) : NAN;
}

static double target_value_of(const row_t *r)
{
    if (!r->target_metric)
        return NAN;
    if (!strcmp(r->target_metric, "cycles_per_word"))
        return r->cycles_per_word;
    return !strcmp(r->target_metric, "projected_bytes_per_cycle") ? projected_bytes_per_cycle(r)
                                                                  : bytes_per_cycle(r);
}

/* 1 met, 0 missed, -1 no target or no figure. */
static int target_met(const row_t *r)
{
    double x = target_value_of(r);
    if (!r->target_metric || !isfinite(x))
        return -1;
    return r->target_is_max ? x <= r->target : x >= r->target;
}

/* A hardware row from per-sample cycle counts (sorted here). */
static void set_cycles(row_t *r, double *cyc, size_t n)
{
    r->cycles = bench_summarize(cyc, n);
    r->us = bench_scaled(r->cycles, 1.0 / WEFT_PLATFORM_CLOCK_MHZ);
}

/* ---- MEM->HW, HW->MEM and HW->HW: two hwt_stream threads on the link ring01 ------------ */

static void hw_paths(struct bench *b)
{
    struct shm src = shm_alloc(b, BLOCK_BYTES), dst = shm_alloc(b, BLOCK_BYTES);
    weft_mem_window_t rd = {src.bus, BLOCK_BYTES, WEFT_MEM_READ};
    weft_mem_window_t wr = {dst.bus, BLOCK_BYTES, WEFT_MEM_WRITE};
    weft_resource_t link = {WEFT_RES_LINK, link_get(b, WEFT_LINK_RING01)};
    struct stream source, sink;
    stream_start(b, &source, "hw-source", 0, link, &rd, 2);
    stream_start(b, &sink, "hw-sink", 1, link, &wr, 2);
    weft_hwthread_t *watch[] = {source.t, sink.t};
    double *rd_cyc = b->v[0], *wr_cyc = b->v[1], *link_cyc = b->v[2], *pair_cyc = b->v[3];
    uint64_t calls = 0;

    for (unsigned i = 0; i < WARMUP + b->reps; i++) {
        fill_pattern(src.cpu, BLOCK_WORDS, i);
        memset(dst.cpu, 0, BLOCK_BYTES);
        uint64_t k0 = delegate_calls(source.t) + delegate_calls(sink.t);
        stream_job(&sink, OP_SINK, dst.bus, BLOCK_WORDS);
        uint64_t c0 = fabric_cycles(b);
        stream_job(&source, OP_SOURCE, src.bus, BLOCK_WORDS);
        struct report rs = stream_report(&source, watch, 2);
        struct report rk = stream_report(&sink, watch, 2);
        uint64_t c1 = fabric_cycles(b);
        if (memcmp(src.cpu, dst.cpu, BLOCK_BYTES) != 0)
            fail("HW->HW: the block arrived changed");
        if (i < WARMUP)
            continue;
        unsigned j = i - WARMUP;
        rd_cyc[j] = rs.mem_cycles;
        link_cyc[j] = rs.mbox_cycles;
        wr_cyc[j] = rk.mem_cycles;
        pair_cyc[j] = (double)(c1 - c0);
        calls += delegate_calls(source.t) + delegate_calls(sink.t) - k0;
    }
    stream_stop(&source);
    stream_stop(&sink);
    weft_mem_free(b->w, src.cpu);
    weft_mem_free(b->w, dst.cpu);

    set_cycles(&rows[R_MEM_HW], rd_cyc, b->reps);
    set_cycles(&rows[R_HW_MEM], wr_cyc, b->reps);
    set_cycles(&rows[R_HW_HW], link_cyc, b->reps);
    rows[R_HW_HW].cycles_per_word = rows[R_HW_HW].cycles.median / BLOCK_WORDS;
    bench_stats_t pair = bench_summarize(pair_cyc, b->reps);
    printf("HW->HW job pair (MEM->HW->link->HW->MEM, with job and report calls): median %.0f "
           "fabric cycles, %.1f delegate calls\n",
           pair.median, (double)calls / b->reps);
}

/* ---- MEM->SW->MEM ---------------------------------------------------------------------- */

static void memcpy_path(struct bench *b)
{
    struct shm src = shm_alloc(b, BLOCK_BYTES), dst = shm_alloc(b, BLOCK_BYTES);
    double *v = b->v[0];
    fill_pattern(src.cpu, BLOCK_WORDS, 1);
    for (unsigned i = 0; i < MEMCPY_WARMUP; i++)
        memcpy(dst.cpu, src.cpu, BLOCK_BYTES);
    for (unsigned i = 0; i < b->reps; i++) {
        src.cpu[i % BLOCK_WORDS] ^= i; /* a different block every sample */
        double t0 = bench_now_us();
        for (unsigned k = 0; k < MEMCPY_BATCH; k += 2) {
            memcpy(dst.cpu, src.cpu, BLOCK_BYTES);
            memcpy(src.cpu, dst.cpu, BLOCK_BYTES);
        }
        v[i] = (bench_now_us() - t0) / MEMCPY_BATCH;
    }
    rows[R_MEMCPY].us = bench_summarize(v, b->reps);
    weft_mem_free(b->w, src.cpu);
    weft_mem_free(b->w, dst.cpu);
}

/* ---- SW->HW and HW->SW through a software mailbox --------------------------------------- */

static void mbox_paths(struct bench *b)
{
    struct shm mem = shm_alloc(b, BLOCK_BYTES);
    uint32_t *host = malloc(BLOCK_BYTES);
    if (!host)
        die("malloc", ENOMEM);
    weft_mbox_t data;
    int rc = weft_mbox_init(&data, DATA_MBOX_WORDS);
    if (rc)
        die("weft_mbox_init", rc);
    weft_resource_t res = {WEFT_RES_MBOX, &data};

    /* SW->HW: software puts the block; the sink gets it and writes it to memory. */
    weft_mem_window_t wr = {mem.bus, BLOCK_BYTES, WEFT_MEM_WRITE};
    struct stream sink;
    stream_start(b, &sink, "hw-sink", 2, res, &wr, 2);
    struct samples set = samples_of(b);
    for (unsigned i = 0; i < WARMUP + b->reps; i++) {
        fill_pattern(host, BLOCK_WORDS, i);
        memset(mem.cpu, 0, BLOCK_BYTES);
        stream_job(&sink, OP_SINK, mem.bus, BLOCK_WORDS);
        struct sample sm = sample_start(b, sink.t);
        for (unsigned w = 0; w < BLOCK_WORDS; w++)
            put_word(&data, host[w], &sink.t, 1);
        stream_report(&sink, &sink.t, 1);
        sample_end(b, sink.t, &sm, &set, i);
        if (memcmp(host, mem.cpu, BLOCK_BYTES) != 0)
            fail("SW->HW mailbox: the block arrived changed");
    }
    stream_stop(&sink);
    sample_rows(b, &set, &rows[R_SW_HW_MBOX]);

    /* HW->SW: the source reads the block from memory and puts it; software gets it. */
    weft_mem_window_t rd = {mem.bus, BLOCK_BYTES, WEFT_MEM_READ};
    struct stream source;
    stream_start(b, &source, "hw-source", 3, res, &rd, 2);
    set = samples_of(b);
    for (unsigned i = 0; i < WARMUP + b->reps; i++) {
        fill_pattern(mem.cpu, BLOCK_WORDS, i);
        struct sample sm = sample_start(b, source.t);
        stream_job(&source, OP_SOURCE, mem.bus, BLOCK_WORDS);
        for (unsigned w = 0; w < BLOCK_WORDS; w++)
            host[w] = get_word(&data, &source.t, 1);
        sample_end(b, source.t, &sm, &set, i);
        stream_report(&source, &source.t, 1);
        if (memcmp(host, mem.cpu, BLOCK_BYTES) != 0)
            fail("HW->SW mailbox: the block arrived changed");
    }
    stream_stop(&source);
    sample_rows(b, &set, &rows[R_HW_SW_MBOX]);

    weft_mbox_destroy(&data);
    free(host);
    weft_mem_free(b->w, mem.cpu);
}

/* ---- SW->HW and HW->SW through a POSIX message queue ------------------------------------ */

static int mq_deadline(struct timespec *ts)
{
    if (clock_gettime(CLOCK_REALTIME, ts) != 0)
        return -1;
    ts->tv_sec += WAIT_MS / 1000;
    return 0;
}

/* One way to move the block through a queue: messages of msg_bytes, the jobs that
 * receive and send them, the job that loads the source's RAM before a sample (0: the
 * source job reads memory itself), the two rows. */
struct mq_way {
    const char *what;
    unsigned msg_bytes;
    uint32_t op_sink, op_source, op_load;
    int row_sw_hw, row_hw_sw;
};

/* SW->HW: the pthread sends the block as messages; hwt_stream's sink job receives them
 * (one delegate call per message) and has the block in memory and its RAM. HW->SW: the
 * source job sends the block, read from memory or loaded into its RAM before the sample,
 * as messages; the pthread receives them. */
static void mq_paths(struct bench *b, const struct mq_way *way)
{
    const unsigned msgs = BLOCK_BYTES / way->msg_bytes, msg_words = way->msg_bytes / 4;
    char name[64];
    snprintf(name, sizeof name, "/weft-bench-comm-%ld", (long)getpid());
    struct mq_attr a = {0};
    a.mq_maxmsg = MQ_DEPTH;
    a.mq_msgsize = way->msg_bytes;
    mqd_t q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, &a);
    if (q == (mqd_t)-1) {
        fprintf(stderr, PROG ": mq_open %s: %s; the message queue paths (%s) are skipped\n", name,
                strerror(errno), way->what);
        rows[way->row_sw_hw].skipped = rows[way->row_hw_sw].skipped =
            "mq_open failed (POSIX message queues unavailable)";
        return;
    }
    mq_unlink(name);
    struct shm mem = shm_alloc(b, BLOCK_BYTES);
    uint32_t *host = malloc(BLOCK_BYTES);
    if (!host)
        die("malloc", ENOMEM);
    weft_resource_t res = {WEFT_RES_MQ, &q};
    weft_mem_window_t win = {mem.bus, BLOCK_BYTES, WEFT_MEM_READ | WEFT_MEM_WRITE};
    struct stream s;
    stream_start(b, &s, "hw-mq", 0, res, &win, 2);

    struct samples set = samples_of(b);
    for (unsigned i = 0; i < WARMUP + b->reps; i++) {
        fill_pattern(host, BLOCK_WORDS, i);
        memset(mem.cpu, 0, BLOCK_BYTES);
        stream_job(&s, way->op_sink, mem.bus, BLOCK_WORDS);
        struct sample sm = sample_start(b, s.t);
        for (unsigned k = 0; k < msgs; k++) {
            struct timespec dl;
            if (mq_deadline(&dl) != 0 ||
                mq_timedsend(q, (const char *)&host[k * msg_words], way->msg_bytes, 0, &dl))
                die("mq_timedsend", errno);
        }
        stream_report(&s, &s.t, 1);
        sample_end(b, s.t, &sm, &set, i);
        if (memcmp(host, mem.cpu, BLOCK_BYTES) != 0)
            fail("SW->HW message queue (%s): the block arrived changed", way->what);
    }
    sample_rows(b, &set, &rows[way->row_sw_hw]);

    set = samples_of(b);
    for (unsigned i = 0; i < WARMUP + b->reps; i++) {
        fill_pattern(mem.cpu, BLOCK_WORDS, i);
        if (way->op_load) { /* the block in the thread's RAM; what arrives, it wrote */
            stream_job(&s, way->op_load, mem.bus, BLOCK_WORDS);
            stream_report(&s, &s.t, 1);
            memset(mem.cpu, 0, BLOCK_BYTES);
        }
        struct sample sm = sample_start(b, s.t);
        stream_job(&s, way->op_source, mem.bus, BLOCK_WORDS);
        for (unsigned k = 0; k < msgs; k++) {
            struct timespec dl;
            unsigned prio = 1;
            if (mq_deadline(&dl) != 0)
                die("clock_gettime", errno);
            ssize_t n =
                mq_timedreceive(q, (char *)&host[k * msg_words], way->msg_bytes, &prio, &dl);
            if (n < 0)
                die("mq_timedreceive", errno);
            if (n != (ssize_t)way->msg_bytes || prio != 0)
                fail("HW->SW message queue (%s): a message of the wrong length or priority",
                     way->what);
        }
        sample_end(b, s.t, &sm, &set, i);
        stream_report(&s, &s.t, 1);
        fill_pattern(mem.cpu, BLOCK_WORDS, i); /* (the thread wrote it already) */
        if (memcmp(host, mem.cpu, BLOCK_BYTES) != 0)
            fail("HW->SW message queue (%s): the block arrived changed", way->what);
    }
    sample_rows(b, &set, &rows[way->row_hw_sw]);
    stream_stop(&s);
    mq_close(q);
    free(host);
    weft_mem_free(b->w, mem.cpu);
}

/* ---- descriptions and the seed --------------------------------------------------------- */

/* The message-queue rows, by value and by reference, share ReconOS's figure for the
 * path (its messages were carried either way) and the 1 byte/cycle target. */
#define MQ_SW_HW_SEED_AND_TARGET                                                                   \
    .seed_us = 472.00, .seed_mib_s = 16.55, .target_metric = "projected_bytes_per_cycle",          \
    .target = 1.0
#define MQ_HW_SW_SEED_AND_TARGET                                                                   \
    .seed_us = 482.31, .seed_mib_s = 16.20, .target_metric = "projected_bytes_per_cycle",          \
    .target = 1.0

static void describe(void)
{
    /* Seed: ReconOS/eCos on a PowerPC, Table VI, "with data cache" column (us and MiB/s
     * for 8 KiB). Targets: /work/shared/GUIDE.md, "What good means". */
    static const row_t d[R_COUNT] = {
        [R_MEM_HW] = {.key = "mem_to_hw_burst_read",
                      .path = "MEM->HW (burst read)",
                      .basis = "projected",
                      .seed_us = 45.74,
                      .seed_mib_s = 170.80,
                      .target_metric = "bytes_per_cycle",
                      .target = 3.5,
                      .includes = "hwt_stream's memory phase of a SOURCE job: MEMIF burst read "
                                  "of 2048 words into local RAM, from its first request to its "
                                  "last word, in the thread's own cycles (32-bit data path)"},
        [R_HW_MEM] = {.key = "hw_to_mem_burst_write",
                      .path = "HW->MEM (burst write)",
                      .basis = "projected",
                      .seed_us = 40.54,
                      .seed_mib_s = 192.71,
                      .target_metric = "bytes_per_cycle",
                      .target = 3.5,
                      .includes = "hwt_stream's memory phase of a SINK job: MEMIF burst write "
                                  "of 2048 words from local RAM, from its first request to "
                                  "its completion, in the thread's own cycles"},
        [R_MEMCPY] = {.key = "mem_sw_mem_memcpy",
                      .path = "MEM->SW->MEM (memcpy)",
                      .basis = "wall",
                      .seed_us = 132.51,
                      .seed_mib_s = 58.96,
                      .includes = "memcpy of 8 KiB between two buffers of the shared (DMA) "
                                  "region on this host, caches warm; sample = 16 copies, "
                                  "alternately each way, / 16"},
        [R_HW_HW] = {.key = "hw_to_hw_link",
                     .path = "HW->HW (hardware FIFO)",
                     .basis = "projected",
                     .seed_us = 61.42,
                     .seed_mib_s = 127.20,
                     .target_metric = "cycles_per_word",
                     .target = 1.0,
                     .target_is_max = 1,
                     .includes = "source hwt_stream (slot 0) puts 2048 words into the link "
                                 "ring01 (MBOX_PUT_BURST of up to 255 words, served by the "
                                 "static region) while the sink (slot 1) gets them: the source's "
                                 "mailbox phase, first put request to last word in the link"},
        [R_SW_HW_MBOX] = {.key = "sw_to_hw_mbox",
                          .path = "SW->HW (mailbox)",
                          .basis = "wall",
                          .seed_us = 58500,
                          .seed_mib_s = 0.13,
                          .includes = "a pthread puts 2048 words, one weft_mbox_put each, "
                                      "into a weft_mbox_t of 256 words; hwt_stream (slot 2) "
                                      "takes them with MBOX_GET_BURST of up to 255 words "
                                      "through its delegate (each response one DMA), then "
                                      "writes the block to memory and reports: from the first "
                                      "put to the report (includes the burst write and the "
                                      "report call)"},
        [R_HW_SW_MBOX] = {.key = "hw_to_sw_mbox",
                          .path = "HW->SW (mailbox)",
                          .basis = "wall",
                          .seed_us = 58510,
                          .seed_mib_s = 0.13,
                          .includes = "hwt_stream (slot 3) takes a job, reads the block from "
                                      "memory and puts it with MBOX_PUT_BURST of up to 255 "
                                      "words (each request staged by one DMA) through its "
                                      "delegate into a weft_mbox_t of 256 words; a pthread "
                                      "gets the 2048 words, one weft_mbox_get each: from the "
                                      "job to the last word (includes the job call and the "
                                      "burst read)"},
        [R_SW_HW_MQ] = {.key = "sw_to_hw_mq",
                        .path = "SW->HW (message queue)",
                        .basis = "wall",
                        MQ_SW_HW_SEED_AND_TARGET,
                        .includes = "a pthread sends 16 messages of 512 bytes (queue depth 8); "
                                    "hwt_stream (slot 0) receives them with MQ_RECEIVE, one "
                                    "delegate call per message, each answered with one "
                                    "response DMA, then writes the block to memory and "
                                    "reports: from the first send to the report (includes "
                                    "the burst write and the report call)"},
        [R_HW_SW_MQ] = {.key = "hw_to_sw_mq",
                        .path = "HW->SW (message queue)",
                        .basis = "wall",
                        MQ_HW_SW_SEED_AND_TARGET,
                        .includes = "hwt_stream (slot 0) takes a job, reads the block from "
                                    "memory and sends it as 16 messages of 512 bytes with "
                                    "MQ_SEND, one delegate call per message, each request "
                                    "staged by DMA; a pthread receives them: from the job to "
                                    "the last receive (includes the job call and the burst "
                                    "read)"},
        [R_SW_HW_MQ_MEM] = {.key = "sw_to_hw_mq_mem",
                            .path = "SW->HW (message queue, by reference)",
                            .basis = "wall",
                            MQ_SW_HW_SEED_AND_TARGET,
                            .includes = "a pthread sends one message of 8 KiB; hwt_stream "
                                        "(slot 0) receives it into its memory window with one "
                                        "MQ_RECEIVE_MEM (the delegate's mq_receive writes it "
                                        "there), then burst-reads the block into its RAM and "
                                        "reports: from the send to the report"},
        [R_HW_SW_MQ_MEM] = {.key = "hw_to_sw_mq_mem",
                            .path = "HW->SW (message queue, by reference)",
                            .basis = "wall",
                            MQ_HW_SW_SEED_AND_TARGET,
                            .includes = "the block in hwt_stream's RAM (slot 0; loaded by an "
                                        "earlier job, memory cleared since): it takes a job, "
                                        "burst-writes the block to memory (its data leaves it "
                                        "by DMA) and sends it as one 8 KiB message with "
                                        "MQ_SEND_MEM (the delegate's mq_send reads it from "
                                        "memory); a pthread receives it: from the job to the "
                                        "receive (includes the job call)"},
    };
    for (int i = 0; i < R_COUNT; i++) {
        rows[i] = d[i];
        rows[i].us = bench_no_stats;
        rows[i].proj = bench_no_stats; /* only paths through software have a projection */
        rows[i].cycles = bench_no_stats;
        rows[i].cycles_per_word = NAN;
        rows[i].delegate_calls = NAN;
    }
}

/* ---- output ------------------------------------------------------------------------ */

static void fmt(char *buf, size_t n, const char *f, double x)
{
    if (isfinite(x))
        snprintf(buf, n, f, x);
    else
        snprintf(buf, n, "-");
}

static void print_table(const struct bench *b, double wall_s)
{
    printf("\nweft communication paths: %u repetitions of %u bytes; 'proj' rows are fabric "
           "cycles projected at %u MHz, 'wall' rows CLOCK_MONOTONIC with the fabric "
           "co-simulated\n\n",
           b->reps, BLOCK_BYTES, WEFT_PLATFORM_CLOCK_MHZ);
    printf("%-24s %-4s %11s %11s %10s %8s %11s %8s %10s %10s %9s  %s\n", "path", "", "median us",
           "p99 us", "MiB/s", "fab B/c", "proj us", "proj B/c", "seed us", "seed MiB/s", "seed B/c",
           "target");
    for (int i = 0; i < R_COUNT; i++) {
        const row_t *r = &rows[i];
        if (r->skipped) {
            printf("%-24s skipped: %s\n", r->path, r->skipped);
            continue;
        }
        char med[24], p99[24], mib[24], bpc[24], proj[24], pbpc[24], sbpc[24], tgt[64] = "-";
        fmt(med, sizeof med, "%.2f", r->us.median);
        fmt(p99, sizeof p99, "%.2f", r->us.p99);
        fmt(mib, sizeof mib, "%.2f", mib_per_s(r));
        fmt(bpc, sizeof bpc, "%.3f", bytes_per_cycle(r));
        fmt(proj, sizeof proj, "%.2f", r->proj.median);
        fmt(pbpc, sizeof pbpc, "%.3f", projected_bytes_per_cycle(r));
        fmt(sbpc, sizeof sbpc, "%.4f", seed_bytes_per_cycle(r));
        int met = target_met(r);
        if (met >= 0 && !strcmp(r->target_metric, "cycles_per_word"))
            snprintf(tgt, sizeof tgt, "<= %.0f cycle/word: %.3f (%s)", r->target,
                     r->cycles_per_word, met ? "met" : "missed");
        else if (met >= 0)
            snprintf(tgt, sizeof tgt, ">= %.1f B/cycle%s (%s)", r->target,
                     strcmp(r->basis, "wall") ? "" : " projected", met ? "met" : "missed");
        printf("%-24s %-4s %11s %11s %10s %8s %11s %8s %10.2f %10.2f %9s  %s\n", r->path,
               strcmp(r->basis, "wall") ? "proj" : "wall", med, p99, mib, bpc, proj, pbpc,
               r->seed_us, r->seed_mib_s, sbpc, tgt);
    }
    printf("\nfab B/c: bytes per fabric cycle (proj rows: the thread's own phase; wall rows: "
           "the fabric cycles of the sample).\n"
           "proj: board projection of a wall row: its host time minus the host time spent "
           "simulating the fabric, plus its fabric cycles\nat %u MHz (docs/benchmarks.md); "
           "proj B/c = 8192 / (proj us x %u).\n"
           "seed: ReconOS/eCos Table VI with data cache (PowerPC, 64-bit PLB at 100 MHz; seed "
           "B/c = 8192 / (seed us x 100)).\n"
           "MiB/s = 8192 / median us x 10^6 / 2^20 (Table VI's unit). Whole run %.1f s; host "
           "load average %.2f before, %.2f after (%ld CPUs).\n",
           WEFT_PLATFORM_CLOCK_MHZ, WEFT_PLATFORM_CLOCK_MHZ, wall_s, b->load_start, b->load_end,
           sysconf(_SC_NPROCESSORS_ONLN));
}

static json_t *row_json(const row_t *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(r->key));
    json_object_set_new(o, "path", json_string(r->path));
    json_object_set_new(o, "bytes", json_integer(BLOCK_BYTES));
    json_object_set_new(o, "samples", json_integer((json_int_t)r->us.n));
    json_object_set_new(o, "time_basis",
                        json_string(strcmp(r->basis, "wall")
                                        ? "projected: fabric cycles at the platform clock"
                                        : "wall clock, CLOCK_MONOTONIC, fabric co-simulated"));
    json_object_set_new(o, "median_us", bench_jnum(r->us.median));
    json_object_set_new(o, "p99_us", bench_jnum(r->us.p99));
    json_object_set_new(o, "min_us", bench_jnum(r->us.min));
    json_object_set_new(o, "mb_per_s", bench_jnum(r->us.n ? mb_per_s(r) : NAN));
    json_object_set_new(o, "mib_per_s", bench_jnum(r->us.n ? mib_per_s(r) : NAN));
    json_object_set_new(o, "fabric_cycles_median", bench_jnum(r->cycles.median));
    json_object_set_new(o, "fabric_cycles_p99", bench_jnum(r->cycles.p99));
    json_object_set_new(o, "fabric_cycles_min", bench_jnum(r->cycles.min));
    json_object_set_new(o, "bytes_per_cycle", bench_jnum(bytes_per_cycle(r)));
    json_object_set_new(o, "projected_median_us", bench_jnum(r->proj.median));
    json_object_set_new(o, "projected_p99_us", bench_jnum(r->proj.p99));
    json_object_set_new(o, "projected_bytes_per_cycle", bench_jnum(projected_bytes_per_cycle(r)));
    json_object_set_new(o, "cycles_per_word", bench_jnum(r->cycles_per_word));
    json_object_set_new(o, "delegate_calls", bench_jnum(r->delegate_calls));
    json_t *seed = json_object();
    json_object_set_new(seed, "us", bench_jnum(r->seed_us));
    json_object_set_new(seed, "mib_per_s", bench_jnum(r->seed_mib_s));
    json_object_set_new(seed, "bytes_per_cycle", bench_jnum(seed_bytes_per_cycle(r)));
    if (r == &rows[R_HW_HW])
        json_object_set_new(seed, "cycles_per_word", bench_jnum(r->seed_us * 100.0 / BLOCK_WORDS));
    json_object_set_new(o, "seed", seed);
    if (r->target_metric) {
        int met = target_met(r);
        json_t *t = json_object();
        json_object_set_new(t, "metric", json_string(r->target_metric));
        json_object_set_new(t, r->target_is_max ? "max" : "min", bench_jnum(r->target));
        json_object_set_new(t, "met", met < 0 ? json_null() : json_boolean(met));
        json_object_set_new(o, "target", t);
    } else {
        json_object_set_new(o, "target", json_null());
    }
    json_object_set_new(o, "skipped", r->skipped ? json_string(r->skipped) : json_null());
    json_object_set_new(o, "includes", json_string(r->includes));
    return o;
}

static int write_json(const struct bench *b, const char *path, double wall_s)
{
    json_t *root = json_object();
    json_object_set_new(root, "benchmark", json_string("communication"));
    json_object_set_new(root, "reps", json_integer(b->reps));
    json_object_set_new(root, "block_bytes", json_integer(BLOCK_BYTES));
    json_object_set_new(root, "clock_mhz", json_integer(WEFT_PLATFORM_CLOCK_MHZ));
    json_object_set_new(root, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
    json_object_set_new(root, "wall_s", bench_jnum(wall_s));
    json_object_set_new(root, "host_load_before", bench_jnum(b->load_start));
    json_object_set_new(root, "host_load_after", bench_jnum(b->load_end));
    json_object_set_new(root, "units",
                        json_pack("{s:s, s:s, s:s}", "us",
                                  "microseconds per block: wall clock, or fabric cycles / "
                                  "clock_mhz (projected) as time_basis says",
                                  "mb_per_s", "10^6 bytes per second", "mib_per_s",
                                  "2^20 bytes per second (Table VI's MB/s)"));
    json_object_set_new(root, "seed",
                        json_pack("{s:s, s:s}", "source",
                                  "ReconOS, Table VI, with data cache (eCos, PowerPC 405, PLB)",
                                  "bytes_per_cycle", "8192 / (us x 100): its bus ran at 100 MHz"));
    json_t *arr = json_array();
    for (int i = 0; i < R_COUNT; i++)
        json_array_append_new(arr, row_json(&rows[i]));
    json_object_set_new(root, "results", arr);
    json_object_set_new(
        root, "notes",
        json_pack("[s, s, s]",
                  "Projected rows are the hardware thread's own cycles for its phase, turned into "
                  "microseconds at clock_mhz; wall rows are host time with the fabric "
                  "co-simulated, so they depend on this host's speed and load.",
                  "bytes_per_cycle of a wall row divides the block by the fabric cycles of the "
                  "sample (the clock stops while every slot is blocked in a delegate call), not "
                  "by the wall time; projected_bytes_per_cycle divides it by the board "
                  "projection (host time without the fabric's simulation, plus the fabric "
                  "cycles at clock_mhz) in cycles.",
                  "The message queue rows carried by the calls move 16 messages of 512 bytes, "
                  "one delegate call each; the rows by reference one message of 8 KiB "
                  "(delegate_calls counts them with the job and report calls)."));
    int rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
    json_decref(root);
    if (rc != 0) {
        fprintf(stderr, PROG ": cannot write %s\n", path);
        return -1;
    }
    return 0;
}

/* ---- main ------------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " [--reps N] [--out PATH]\n"
            "  --reps N    8 KiB blocks per path, 1..%u (default %u)\n"
            "  --out PATH  JSON result file (default %s; directories are created)\n",
            MAX_REPS, DEFAULT_REPS, DEFAULT_OUT);
}

int main(int argc, char **argv)
{
    struct bench b = {.reps = DEFAULT_REPS};
    const char *out = DEFAULT_OUT;
    int status = bench_args(argc, argv, PROG, MAX_REPS, &b.reps, &out, usage);
    if (status >= 0)
        return status;

    double start = bench_now_us();
    b.load_start = host_load();
    describe();
    for (int i = 0; i < 4; i++) {
        b.v[i] = malloc(sizeof(double) * (b.reps + WARMUP));
        if (!b.v[i])
            die("malloc", ENOMEM);
    }
    int rc = weft_sim_open(&b.plat, NULL);
    if (rc)
        die("weft_sim_open", rc);
    rc = weft_init(&b.w, b.plat);
    if (rc)
        die("weft_init", rc);
    weft_set_log(b.w, log_sink, NULL);

    hw_paths(&b);
    memcpy_path(&b);
    mbox_paths(&b);
    const struct mq_way carried = {
        "carried by the calls", MQ_MSG_BYTES, OP_MQ_SINK, OP_MQ_SOURCE, 0, R_SW_HW_MQ, R_HW_SW_MQ};
    const struct mq_way by_ref = {"by reference",   MQ_MEM_MSG_BYTES, OP_MQ_SINK_MEM,
                                  OP_MQ_SOURCE_MEM, OP_LOAD,          R_SW_HW_MQ_MEM,
                                  R_HW_SW_MQ_MEM};
    mq_paths(&b, &carried);
    mq_paths(&b, &by_ref);

    weft_shutdown(b.w);
    b.plat->ops->close(b.plat);
    for (int i = 0; i < 4; i++)
        free(b.v[i]);
    double wall_s = (bench_now_us() - start) / 1e6;
    b.load_end = host_load();
    print_table(&b, wall_s);
    if (write_json(&b, out, wall_s))
        return 1;
    printf("results written to %s\n", out);
    return 0;
}

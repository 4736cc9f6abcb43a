/*
 * weft-sort: the sort case study of the ReconOS paper (section 6.3.1, Fig. 10) on Weft.
 *
 * 2^18 random 32-bit integers in 128 chunks of 2048 (by default). Sort threads take a
 * chunk's descriptor (bus address, length in bytes) from one mailbox under one mutex,
 * bubble-sort the chunk in shared memory and post one semaphore. A software merge thread
 * waits for every chunk and merges them into the result. The sort threads are the same
 * two programs in every configuration, a pthread (sort_thread below) and hwt_sort
 * (hw/threads/sort); a configuration only says how many of each run:
 *
 *   sw      one software sort thread
 *   hw      one hardware sort thread (slot 0)
 *   swhw    one of each, racing for chunks
 *   hwmax   one hardware sort thread in every slot
 *
 * --sync hw puts the mutex and the semaphore in the fabric (the synchronisation manager,
 * docs/hw-services.md): hardware sort threads lock, unlock and post without their
 * delegates, software ones through the manager's software contexts; the threads' code is
 * the same (hwt_sort's RTL does not change, only its resource array). --sync both runs
 * every configuration both ways.
 *
 * The result is checked: sorted, and a permutation of the input (it must equal the
 * input sorted by qsort). Times: software phases in wall-clock ms; hardware work in
 * fabric cycles, with the time those cycles would take at the platform's nominal clock
 * labelled "projected". The simulated fabric runs far slower than a real one, so
 * wall-clock time of a configuration with hardware says little about the hardware.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft/hwsync.h"
#include "weft/platform_config.h"
#include "weft/sim.h"
#include "weft/trace.h"
#include "weft/weft.h"

#define MAX_WORDS 2048u /* hwt_sort's local RAM */
#define MAX_CHUNKS 4096u
#define MAX_SORTERS (1 + WEFT_PLATFORM_NUM_SLOTS)

enum { RES_MBOX = 0, RES_SEM = 1, RES_MUTEX = 2, NUM_RES = 3 };

struct config {
    const char *name;
    unsigned sw; /* software sort threads */
    unsigned hw; /* hardware sort threads; UINT_MAX: one per slot */
};

static const struct config configs[] = {
    {"sw", 1, 0},
    {"hw", 0, 1},
    {"swhw", 1, 1},
    {"hwmax", 0, UINT_MAX},
};
#define NUM_CONFIGS (sizeof configs / sizeof configs[0])

struct options {
    unsigned chunks, words, seed;
    const char *json, *trace;
    int which;    /* index into configs, or -1 for all of them */
    bool sync_sw; /* run with the software mutex and semaphore */
    bool sync_hw; /* run with the synchronisation manager's */
};

/* What the sort threads and the merge thread share; the same objects serve software and
 * hardware threads. */
struct shared {
    weft_t *w;
    weft_dma_region_t dma;
    weft_mbox_t descriptors;
    bool hw_sync; /* the mutex and semaphore are the synchronisation manager's */
    sem_t done;
    pthread_mutex_t take; /* makes the two-word descriptor get atomic */
    weft_hwsem_t *hw_done;
    weft_hwmutex_t *hw_take;
};

/* The shared mutex and semaphore, on whichever side they live. A failure of the
 * manager's calls is a broken runtime: the study stops. */
static void check_sync(int rc, const char *what)
{
    if (rc) {
        fprintf(stderr, "weft-sort: %s: %s\n", what, strerror(-rc));
        exit(1);
    }
}

static void take_lock(struct shared *s)
{
    if (s->hw_sync)
        check_sync(weft_hwmutex_lock(s->hw_take), "weft_hwmutex_lock");
    else
        pthread_mutex_lock(&s->take);
}

static void take_unlock(struct shared *s)
{
    if (s->hw_sync)
        check_sync(weft_hwmutex_unlock(s->hw_take), "weft_hwmutex_unlock");
    else
        pthread_mutex_unlock(&s->take);
}

static void done_post(struct shared *s)
{
    if (s->hw_sync)
        check_sync(weft_hwsem_post(s->hw_done), "weft_hwsem_post");
    else
        sem_post(&s->done);
}

static void done_wait(struct shared *s)
{
    if (s->hw_sync)
        check_sync(weft_hwsem_wait(s->hw_done), "weft_hwsem_wait");
    else
        while (sem_wait(&s->done) != 0)
            ;
}

struct sw_sorter {
    pthread_t tid;
    struct shared *s;
    char name[24];
    unsigned chunks;
    double ms; /* wall clock spent sorting */
};

struct result {
    const char *config;
    bool hw_sync;
    unsigned sw, hw;
    double sort_ms, merge_ms;
    uint64_t fabric_cycles; /* during the sort phase */
    unsigned chunks_by[MAX_SORTERS];
    double sw_ms[MAX_SORTERS];
    uint64_t busy_cycles[MAX_SORTERS];
    uint64_t calls[MAX_SORTERS];
    int ok;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The same algorithm as hwt_sort: carry the larger value forward, stop after a pass
 * without a swap. */
static void bubble_sort(uint32_t *a, size_t n)
{
    for (size_t end = n; end > 1; end--) {
        int swapped = 0;
        uint32_t cur = a[0];
        for (size_t i = 1; i < end; i++) {
            if (cur > a[i]) {
                a[i - 1] = a[i];
                swapped = 1;
            } else {
                a[i - 1] = cur;
                cur = a[i];
            }
        }
        a[end - 1] = cur;
        if (!swapped)
            break;
    }
}

/* The software sort thread: hwt_sort's loop in C. */
static void *sort_thread(void *arg)
{
    struct sw_sorter *me = arg;
    struct shared *s = me->s;
    weft_trace_thread_name(s->w, me->name);
    for (;;) {
        uint32_t addr = 0, len = 0;
        weft_trace_begin(s->w, "mutex_lock");
        take_lock(s);
        weft_trace_end(s->w);
        weft_trace_begin(s->w, "mbox_get");
        weft_mbox_get(&s->descriptors, &addr);
        weft_mbox_get(&s->descriptors, &len);
        weft_trace_end(s->w);
        take_unlock(s);
        if (addr == 0)
            break;
        if (addr < s->dma.bus || len % 4 || len / 4 > MAX_WORDS ||
            (uint64_t)addr + len > s->dma.bus + s->dma.size) {
            fprintf(stderr, "%s: descriptor 0x%08" PRIx32 "+%" PRIu32 " is not a chunk\n", me->name,
                    addr, len);
            continue;
        }
        uint32_t *chunk = (uint32_t *)((char *)s->dma.cpu + (addr - s->dma.bus));
        double t0 = now_ms();
        bubble_sort(chunk, len / 4);
        me->ms += now_ms() - t0;
        me->chunks++;
        done_post(s);
    }
    weft_trace_thread_exit(s->w);
    return NULL;
}

/* Merges sorted runs of `run` words pairwise until one run is left; returns the buffer
 * that holds the result (a or tmp). */
static uint32_t *merge_runs(uint32_t *a, uint32_t *tmp, size_t n, size_t run)
{
    for (; run < n; run *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * run) {
            size_t mid = lo + run < n ? lo + run : n;
            size_t hi = lo + 2 * run < n ? lo + 2 * run : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = a[j] < a[i] ? a[j++] : a[i++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        uint32_t *t = a;
        a = tmp;
        tmp = t;
    }
    return a;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* One configuration from start to checked result. */
static int run_config(weft_platform_t *plat, const struct config *c, bool hw_sync,
                      const struct options *o, const uint32_t *input, const uint32_t *want,
                      struct result *r)
{
    struct shared s = {.hw_sync = hw_sync};
    int rc = weft_init(&s.w, plat);
    if (rc) {
        fprintf(stderr, "weft-sort: runtime init failed: %s\n", strerror(-rc));
        return -1;
    }
    plat->ops->dma_region(plat, &s.dma);
    if (o->trace)
        weft_trace_start(s.w);
    weft_trace_thread_name(s.w, "main");

    const size_t n = (size_t)o->chunks * o->words, bytes = (size_t)o->words * 4;
    void *cpu = NULL;
    uint64_t bus = 0;
    rc = weft_mem_alloc(s.w, n * 4, &cpu, &bus);
    uint32_t *data = cpu, *tmp = malloc(n * 4);
    if (rc || !tmp) {
        fprintf(stderr, "weft-sort: %zu bytes of shared memory: %s\n", n * 4,
                strerror(rc ? -rc : ENOMEM));
        free(tmp);
        weft_shutdown(s.w);
        return -1;
    }
    memcpy(data, input, n * 4);

    unsigned slots = plat->ops->num_slots(plat);
    if (slots > WEFT_PLATFORM_NUM_SLOTS)
        slots = WEFT_PLATFORM_NUM_SLOTS;
    unsigned nhw = c->hw == UINT_MAX ? slots : c->hw;
    *r = (struct result){.config = c->name, .hw_sync = hw_sync, .sw = c->sw, .hw = nhw};
    weft_mbox_init(&s.descriptors, 2 * (o->chunks + c->sw + nhw));
    sem_init(&s.done, 0, 0);
    pthread_mutex_init(&s.take, NULL);
    if (hw_sync) {
        rc = weft_hwsem_create(s.w, 0, MAX_CHUNKS, &s.hw_done);
        if (rc == 0)
            rc = weft_hwmutex_create(s.w, PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE, &s.hw_take);
        if (rc) {
            fprintf(stderr, "weft-sort: the synchronisation manager's objects: %s\n",
                    strerror(-rc));
            free(tmp);
            weft_shutdown(s.w);
            return -1;
        }
    }

    weft_resource_t res[NUM_RES] = {
        [RES_MBOX] = {WEFT_RES_MBOX, &s.descriptors},
        [RES_SEM] = hw_sync ? (weft_resource_t){WEFT_RES_HWSEM, s.hw_done}
                            : (weft_resource_t){WEFT_RES_SEM, &s.done},
        [RES_MUTEX] = hw_sync ? (weft_resource_t){WEFT_RES_HWMUTEX, s.hw_take}
                              : (weft_resource_t){WEFT_RES_MUTEX, &s.take},
    };
    /* Each hardware thread may touch the chunks and nothing else. */
    weft_mem_window_t window = {.bus = bus, .size = n * 4, .perm = WEFT_MEM_RW};
    weft_hwthread_t *hw[WEFT_PLATFORM_NUM_SLOTS] = {0};
    struct sw_sorter sw[MAX_SORTERS];
    unsigned started_hw = 0, started_sw = 0;
    for (unsigned k = 0; k < nhw; k++) {
        char name[24];
        snprintf(name, sizeof name, "hw-sort-%u", k);
        weft_hwthread_attr_t attr = {
            .name = name,
            .image = WEFT_IMAGE_DIR "/hwt_sort.so",
            .slot = k,
            .resources = res,
            .num_resources = NUM_RES,
            .init_data = RES_MBOX | RES_SEM << 8 | RES_MUTEX << 16,
            .windows = &window,
            .num_windows = 1,
        };
        rc = weft_hwthread_create(s.w, &hw[k], &attr);
        if (rc) {
            fprintf(stderr, "weft-sort: cannot start %s in slot %u: %s\n", name, k, strerror(-rc));
            break;
        }
        started_hw++;
    }
    for (unsigned k = 0; k < c->sw && !rc; k++) {
        sw[k] = (struct sw_sorter){.s = &s};
        snprintf(sw[k].name, sizeof sw[k].name, "sw-sort-%u", k);
        if (pthread_create(&sw[k].tid, NULL, sort_thread, &sw[k]) != 0) {
            fprintf(stderr, "weft-sort: cannot start a software sort thread\n");
            rc = -EAGAIN;
            break;
        }
        started_sw++;
    }

    /* Sort phase: every descriptor at once; the sort threads race for them. The main
     * thread is the merge thread: it waits for every chunk, then merges. */
    uint64_t c0 = 0, c1 = 0;
    weft_fabric_cycles(s.w, &c0);
    double t0 = now_ms();
    for (unsigned k = 0; k < o->chunks && !rc; k++) {
        weft_mbox_put(&s.descriptors, (uint32_t)(bus + k * bytes));
        weft_mbox_put(&s.descriptors, (uint32_t)bytes);
    }
    weft_trace_begin(s.w, "sem_wait (chunks)");
    for (unsigned k = 0; k < o->chunks && !rc; k++)
        done_wait(&s);
    weft_trace_end(s.w);
    double t1 = now_ms();
    weft_fabric_cycles(s.w, &c1);
    uint32_t *merged = rc ? data : merge_runs(data, tmp, n, o->words);
    double t2 = now_ms();
    r->sort_ms = t1 - t0;
    r->merge_ms = t2 - t1;
    r->fabric_cycles = c1 - c0;

    for (unsigned k = 0; k < started_sw + started_hw; k++) {
        weft_mbox_put(&s.descriptors, 0);
        weft_mbox_put(&s.descriptors, 0);
    }
    unsigned total = 0, slot = 0;
    for (unsigned k = 0; k < started_sw; k++, slot++) {
        pthread_join(sw[k].tid, NULL);
        r->chunks_by[slot] = sw[k].chunks;
        r->sw_ms[slot] = sw[k].ms;
        total += sw[k].chunks;
    }
    int hw_ok = 1;
    for (unsigned k = 0; k < started_hw; k++, slot++) {
        weft_exit_status_t st;
        weft_hwthread_join(hw[k], &st);
        weft_hwthread_stats_t hs = {0};
        weft_hwthread_stats(hw[k], &hs);
        if (st.kind != WEFT_EXIT_NORMAL) {
            fprintf(stderr, "weft-sort: hw-sort-%u: %s\n", k, st.message);
            hw_ok = 0;
        }
        r->chunks_by[slot] = st.kind == WEFT_EXIT_NORMAL ? st.value : 0;
        r->busy_cycles[slot] = hs.busy_cycles;
        r->calls[slot] = hs.calls;
        total += r->chunks_by[slot];
        weft_hwthread_destroy(hw[k]);
    }
    r->ok = !rc && hw_ok && total == o->chunks && memcmp(merged, want, n * 4) == 0;
    if (!rc && memcmp(merged, want, n * 4) != 0)
        fprintf(stderr, "weft-sort: %s: the result is not the input sorted\n", c->name);
    if (o->trace) {
        /* With --sync both, the second run of a configuration gets a file of its own. */
        const char *tag = hw_sync && o->sync_sw ? ".hwsync" : "";
        char path[PATH_MAX];
        if (o->which >= 0 && !*tag)
            snprintf(path, sizeof path, "%s", o->trace);
        else if (o->which >= 0)
            snprintf(path, sizeof path, "%s%s.json", o->trace, tag);
        else
            snprintf(path, sizeof path, "%s.%s%s.json", o->trace, c->name, tag);
        int trc = weft_trace_write(s.w, path);
        if (trc)
            fprintf(stderr, "weft-sort: cannot write the trace %s: %s\n", path, strerror(-trc));
        else
            printf("trace of %s written to %s\n", c->name, path);
    }

    if (hw_sync) {
        weft_hwsem_destroy(s.hw_done);
        weft_hwmutex_destroy(s.hw_take);
        weft_hwsync_release(s.w);
    }
    weft_shutdown(s.w);
    weft_mbox_destroy(&s.descriptors);
    sem_destroy(&s.done);
    pthread_mutex_destroy(&s.take);
    free(tmp);
    return rc ? -1 : 0;
}

static void print_result(const struct result *r, double mhz)
{
    printf("\n%s: %u software and %u hardware sort thread%s; mutex and semaphore in %s\n",
           r->config, r->sw, r->hw, r->sw + r->hw == 1 ? "" : "s",
           r->hw_sync ? "the fabric (synchronisation manager)" : "software");
    printf("  sort phase %.1f ms wall clock, merge %.1f ms (software)\n", r->sort_ms, r->merge_ms);
    if (r->hw)
        printf("  fabric: %" PRIu64 " cycles during the sort phase = %.1f ms projected at %.0f "
               "MHz\n",
               r->fabric_cycles, r->fabric_cycles / (mhz * 1e3), mhz);
    unsigned slot = 0;
    for (unsigned k = 0; k < r->sw; k++, slot++)
        printf("  sw-sort-%u  software  %4u chunks  %9.1f ms sorting (wall clock)\n", k,
               r->chunks_by[slot], r->sw_ms[slot]);
    for (unsigned k = 0; k < r->hw; k++, slot++)
        printf("  hw-sort-%u  slot %u    %4u chunks  %9" PRIu64
               " busy cycles (%.1f ms projected), %" PRIu64 " OS calls\n",
               k, k, r->chunks_by[slot], r->busy_cycles[slot], r->busy_cycles[slot] / (mhz * 1e3),
               r->calls[slot]);
    printf("  %s\n", r->ok ? "result checked: sorted and a permutation of the input"
                           : "FAILED: the result is wrong or a thread failed");
}

static json_t *result_json(const struct result *r, double mhz)
{
    json_t *threads = json_array();
    unsigned slot = 0;
    for (unsigned k = 0; k < r->sw + r->hw; k++, slot++) {
        int is_hw = k >= r->sw;
        json_t *t = json_pack("{s:s, s:I}", "placement", is_hw ? "hardware" : "software", "chunks",
                              (json_int_t)r->chunks_by[slot]);
        if (is_hw) {
            json_object_set_new(t, "slot", json_integer(k - r->sw));
            json_object_set_new(t, "busy_cycles", json_integer((json_int_t)r->busy_cycles[slot]));
            json_object_set_new(t, "os_calls", json_integer((json_int_t)r->calls[slot]));
        } else {
            json_object_set_new(t, "sort_ms_wall", json_real(r->sw_ms[slot]));
        }
        json_array_append_new(threads, t);
    }
    return json_pack("{s:s, s:s, s:I, s:I, s:f, s:f, s:I, s:f, s:b, s:o}", "config", r->config,
                     "sync", r->hw_sync ? "hardware" : "software", "sw_threads", (json_int_t)r->sw,
                     "hw_threads", (json_int_t)r->hw, "sort_ms_wall", r->sort_ms, "merge_ms_wall",
                     r->merge_ms, "fabric_cycles", (json_int_t)r->fabric_cycles,
                     "fabric_ms_projected", r->fabric_cycles / (mhz * 1e3), "verified", r->ok,
                     "threads", threads);
}

static int parse_uint(const char *flag, const char *text, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (errno || *text == '\0' || *end != '\0' || text[0] == '-' || v < lo || v > hi) {
        fprintf(stderr, "weft-sort: %s must be a number from %u to %u, not '%s'\n", flag, lo, hi,
                text);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: weft-sort [--config sw|hw|swhw|hwmax|all] [--sync sw|hw|both] [--chunks N]\n"
            "                 [--words W] [--seed S] [--json PATH] [--trace PATH]\n"
            "  --config C  which sort threads run (default all, one after the other)\n"
            "  --sync S    the shared mutex and semaphore: software objects (sw, the default),\n"
            "              the fabric's synchronisation manager's (hw), or each in turn (both)\n"
            "  --chunks N  chunks (1..%u, default 128)\n"
            "  --words W   32-bit words per chunk (1..%u, default 2048)\n"
            "  --seed S    random seed (default 1)\n"
            "  --json P    write the figures as JSON\n"
            "  --trace P   write a Chrome/Perfetto trace of the threads (with --config all:\n"
            "              one file per configuration, P.<config>.json; with --sync both the\n"
            "              hardware-object runs' are P.<config>.hwsync.json)\n",
            MAX_CHUNKS, MAX_WORDS);
}

static int parse_args(int argc, char **argv, struct options *o)
{
    *o = (struct options){.chunks = 128, .words = 2048, .seed = 1, .which = -1, .sync_sw = true};
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        if (i + 1 >= argc) {
            usage();
            return -1;
        }
        const char *val = argv[++i];
        int rc = 0;
        if (!strcmp(flag, "--chunks"))
            rc = parse_uint(flag, val, 1, MAX_CHUNKS, &o->chunks);
        else if (!strcmp(flag, "--words"))
            rc = parse_uint(flag, val, 1, MAX_WORDS, &o->words);
        else if (!strcmp(flag, "--seed"))
            rc = parse_uint(flag, val, 0, UINT_MAX, &o->seed);
        else if (!strcmp(flag, "--json"))
            o->json = val;
        else if (!strcmp(flag, "--trace"))
            o->trace = val;
        else if (!strcmp(flag, "--sync")) {
            o->sync_sw = !strcmp(val, "sw") || !strcmp(val, "both");
            o->sync_hw = !strcmp(val, "hw") || !strcmp(val, "both");
            if (!o->sync_sw && !o->sync_hw) {
                fprintf(stderr, "weft-sort: --sync must be sw, hw or both, not '%s'\n", val);
                rc = -1;
            }
        } else if (!strcmp(flag, "--config")) {
            o->which = -2;
            for (unsigned k = 0; k < NUM_CONFIGS; k++)
                if (!strcmp(val, configs[k].name))
                    o->which = (int)k;
            if (!strcmp(val, "all"))
                o->which = -1;
            if (o->which == -2) {
                fprintf(stderr, "weft-sort: unknown configuration '%s'\n", val);
                rc = -1;
            }
        } else {
            usage();
            return -1;
        }
        if (rc)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options o;
    if (parse_args(argc, argv, &o))
        return 2;

    const size_t n = (size_t)o.chunks * o.words;
    uint32_t *input = malloc(n * 4), *want = malloc(n * 4);
    if (!input || !want) {
        fprintf(stderr, "weft-sort: out of memory\n");
        return 1;
    }
    srand(o.seed);
    for (size_t i = 0; i < n; i++)
        input[i] = ((uint32_t)rand() << 16) ^ (uint32_t)rand();
    memcpy(want, input, n * 4);
    qsort(want, n, 4, cmp_u32);

    weft_platform_t *plat;
    int rc = weft_sim_open(&plat, NULL);
    if (rc) {
        fprintf(stderr, "weft-sort: cannot open the simulated fabric: %s\n", strerror(-rc));
        return 1;
    }
    const double mhz = WEFT_PLATFORM_CLOCK_MHZ;
    printf("weft sort study: %zu random 32-bit integers in %u chunks of %u; bubble-sort threads\n"
           "in software (pthreads) and hardware (hwt_sort, co-simulated), merge in software\n",
           n, o.chunks, o.words);

    json_t *runs = json_array();
    int all_ok = 1;
    for (int hw_sync = 0; hw_sync < 2 && all_ok; hw_sync++) {
        if (!(hw_sync ? o.sync_hw : o.sync_sw))
            continue;
        for (unsigned k = 0; k < NUM_CONFIGS; k++) {
            if (o.which >= 0 && (unsigned)o.which != k)
                continue;
            struct result r;
            fflush(stdout);
            if (run_config(plat, &configs[k], hw_sync, &o, input, want, &r)) {
                all_ok = 0;
                break;
            }
            print_result(&r, mhz);
            all_ok &= r.ok;
            json_array_append_new(runs, result_json(&r, mhz));
        }
    }
    plat->ops->close(plat);

    if (o.json) {
        json_t *doc = json_pack("{s:s, s:I, s:I, s:I, s:f, s:o}", "benchmark", "sort_study",
                                "chunks", (json_int_t)o.chunks, "words", (json_int_t)o.words,
                                "seed", (json_int_t)o.seed, "clock_mhz", mhz, "runs", runs);
        if (json_dump_file(doc, o.json, JSON_INDENT(2)) != 0) {
            fprintf(stderr, "weft-sort: cannot write %s\n", o.json);
            all_ok = 0;
        }
        json_decref(doc);
    } else {
        json_decref(runs);
    }
    printf("\n%s\n", all_ok ? "every configuration sorted correctly" : "FAILED");
    free(input);
    free(want);
    return all_ok ? 0 : 1;
}

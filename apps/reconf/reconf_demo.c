/*
 * weft-reconf: a FRED-style workload on the simulated fabric (docs/reconfiguration.md).
 *
 * Several periodic software tasks each submit, every period, a request for one of the
 * platform's hardware tasks (cycling through them: more tasks than slots, in two
 * partitions), wait for it and check its result against the software reference. A task
 * is a Weft hardware thread (a compute kernel that returns its result) or an HLS-style
 * accelerator (docs/hls.md) working on a buffer of the software task's. The
 * reconfiguration manager gives each request a slot of its partition, programs the slot
 * through the reconfiguration port when it does not already hold the task, and runs it.
 *
 * It prints every request (waiting, reconfiguration and execution time) and a summary:
 * how often a slot was reused without reconfiguration, reconfiguration cycles. Exit 0
 * when every result matched its reference.
 *
 * With --json PATH it also writes every request and the summary as JSON (the bench's
 * workload figures, bench/report.py).
 *
 * usage: weft-reconf [--rounds N] [--threads N] [--quiet] [--json PATH]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hls_job.h"
#include "task_reference.h"
#include "weft/platform_config.h"
#include "weft/reconf.h"
#include "weft/sim.h"
#include "weft/weft.h"

static const weft_reconf_partition_t kPartitions[] = WEFT_PLATFORM_PARTITION_LIST;
static const weft_platform_task_t kTasks[] = WEFT_PLATFORM_TASK_LIST;
#define NUM_TASKS (sizeof kTasks / sizeof kTasks[0])

typedef struct sw_task {
    pthread_t thread;
    unsigned id, rounds;
    unsigned period_ms;
    weft_reconf_t *mgr;
    void *buf; /* an accelerator's buffer (HLS_JOB_BYTES) */
    uint64_t buf_bus;
    weft_reconf_result_t *results; /* rounds of them */
    unsigned *task_of;             /* the task of each round */
    unsigned mismatches, failures;
    int quiet;
} sw_task_t;

static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static void sleep_until(struct timespec *t, unsigned ms)
{
    t->tv_nsec += (long)ms * 1000000L;
    while (t->tv_nsec >= 1000000000L) {
        t->tv_nsec -= 1000000000L;
        t->tv_sec++;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR) {
    }
}

static void *sw_main(void *arg)
{
    sw_task_t *s = arg;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (unsigned k = 0; k < s->rounds; k++) {
        const unsigned task = (s->id + k * (s->id + 1)) % NUM_TASKS;
        s->task_of[k] = task;
        const uint32_t n = 500 + 97 * s->id + 31 * k;
        weft_reconf_args_t args = {.init_data = n};
        hls_job_t job;
        const weft_mem_window_t win = {s->buf_bus, HLS_JOB_BYTES, WEFT_MEM_RW};
        if (kTasks[task].accelerator) {
            const int kernel = hls_kernel_of(kTasks[task].image);
            hls_job_prepare(&job, kernel, s->buf, s->buf_bus, kernel == 2 ? 4 + (n % 13) : n,
                            n * 2654435761u);
            args.acc_args = job.args;
            args.num_acc_args = job.num_args;
            args.windows = &win;
            args.num_windows = 1;
        }
        weft_reconf_req_t *q = NULL;
        weft_reconf_result_t *res = &s->results[k];
        int rc = weft_reconf_submit(s->mgr, task, &args, &q);
        if (rc == 0)
            rc = weft_reconf_wait(q, -1, res);
        if (rc != 0) {
            res->status = rc; /* not submitted or not waited for: a failure */
            snprintf(res->message, sizeof res->message, "%s", strerror(-rc));
        }
        weft_reconf_release(q);
        const int ok =
            rc == 0 && res->status == 0 &&
            (kTasks[task].accelerator
                 ? hls_job_check(&job)
                 : res->exit_value == task_reference(task_kernel_of(kTasks[task].image), n));
        if (rc != 0 || res->status != 0)
            s->failures++;
        else if (!ok)
            s->mismatches++;
        if (!s->quiet || !ok) {
            pthread_mutex_lock(&print_lock);
            printf("sw%u round %2u: %-8s n=%-5u slot %u %s wait %7.3f ms reconf %7.3f ms "
                   "(%7" PRIu64 " cycles) exec %6" PRIu64 " cycles  -> %s\n",
                   s->id, k, kTasks[task].name, n, res->slot,
                   res->reconfigured ? "programmed" : "reused    ", res->wait_ns / 1e6,
                   res->reconf_ns / 1e6, res->reconf_cycles, res->exec_cycles,
                   ok ? "ok" : (res->status ? res->message : "WRONG RESULT"));
            if (!ok && !res->status && !kTasks[task].accelerator)
                printf("    got 0x%08x, the software reference gives 0x%08x\n", res->exit_value,
                       task_reference(task_kernel_of(kTasks[task].image), n));
            pthread_mutex_unlock(&print_lock);
        }
        sleep_until(&next, s->period_ms);
    }
    return NULL;
}

/* Every request and the summary, for bench/report.py. Returns 0 or 1 (named on stderr). */
static int write_json(const char *path, const sw_task_t *sw, unsigned threads, unsigned rounds,
                      const weft_reconf_stats_t *st)
{
    json_t *reqs = json_array();
    for (unsigned i = 0; i < threads; i++)
        for (unsigned k = 0; k < rounds; k++) {
            const weft_reconf_result_t *r = &sw[i].results[k];
            json_array_append_new(
                reqs,
                json_pack("{s:i, s:i, s:i, s:s, s:s, s:i, s:b, s:f, s:f, s:I, s:I, s:I, s:i}",
                          "sw_task", (int)i, "period_ms", (int)sw[i].period_ms, "round", (int)k,
                          "task", kTasks[sw[i].task_of[k]].name, "partition",
                          kPartitions[kTasks[sw[i].task_of[k]].partition].name, "slot",
                          (int)r->slot, "reconfigured", r->reconfigured, "wait_ms",
                          r->wait_ns / 1e6, "reconf_ms", r->reconf_ns / 1e6, "wait_cycles",
                          (json_int_t)r->wait_cycles, "reconf_cycles", (json_int_t)r->reconf_cycles,
                          "exec_cycles", (json_int_t)r->exec_cycles, "status", r->status));
        }
    json_t *root = json_pack(
        "{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:{s:I, s:I, s:I, s:I, s:I}, s:o}", "benchmark",
        "reconf_workload", "clock_mhz", (int)WEFT_PLATFORM_CLOCK_MHZ, "partitions",
        (int)(sizeof kPartitions / sizeof kPartitions[0]), "software_tasks", (int)threads, "rounds",
        (int)rounds, "hardware_tasks", (int)NUM_TASKS, "slots", (int)WEFT_PLATFORM_NUM_SLOTS,
        "stats", "requests", (json_int_t)st->requests, "reused", (json_int_t)st->reused,
        "reconfigured", (json_int_t)st->reconfigured, "failed", (json_int_t)st->failed, "cancelled",
        (json_int_t)st->cancelled, "requests_list", reqs);
    int rc = root ? json_dump_file(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : -1;
    json_decref(root);
    if (rc) {
        fprintf(stderr, "weft-reconf: cannot write %s\n", path);
        return 1;
    }
    printf("requests written to %s\n", path);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned rounds = 6, threads = 4;
    int quiet = 0;
    const char *json_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--quiet"))
            quiet = 1;
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json_path = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--rounds N] [--threads N] [--quiet] [--json PATH]\n",
                    argv[0]);
            return 2;
        }
    }
    if (rounds == 0 || rounds > 1000 || threads == 0 || threads > 16) {
        fprintf(stderr, "weft-reconf: rounds 1..1000, threads 1..16\n");
        return 2;
    }

    weft_platform_t *p = NULL;
    weft_t *w = NULL;
    int rc = weft_sim_open(&p, NULL);
    if (rc == 0)
        rc = weft_init(&w, p);
    if (rc != 0) {
        fprintf(stderr, "weft-reconf: cannot start the fabric: %s\n", strerror(-rc));
        return 1;
    }
    weft_reconf_task_t tasks[NUM_TASKS];
    char paths[NUM_TASKS][512];
    for (unsigned i = 0; i < NUM_TASKS; i++) {
        if ((kTasks[i].accelerator ? hls_kernel_of(kTasks[i].image)
                                   : task_kernel_of(kTasks[i].image)) < 0) {
            fprintf(stderr, "weft-reconf: task %s: no software reference for image %s\n",
                    kTasks[i].name, kTasks[i].image);
            return 1;
        }
        snprintf(paths[i], sizeof paths[i], "%s/%s.wbit", WEFT_BITSTREAM_DIR, kTasks[i].image);
        tasks[i] = (weft_reconf_task_t){.name = kTasks[i].name,
                                        .bitstream = paths[i],
                                        .partition = kTasks[i].partition,
                                        .accelerator = kTasks[i].accelerator};
    }
    weft_reconf_config_t cfg = {kPartitions, sizeof kPartitions / sizeof kPartitions[0], tasks,
                                NUM_TASKS};
    weft_reconf_t *mgr = NULL;
    rc = weft_reconf_open(w, &cfg, &mgr);
    if (rc != 0) {
        fprintf(stderr, "weft-reconf: reconfiguration manager: %s\n", strerror(-rc));
        return 1;
    }
    printf("weft-reconf: %u software tasks x %u rounds over %zu hardware tasks in %zu "
           "partitions\n",
           threads, rounds, NUM_TASKS, sizeof kPartitions / sizeof kPartitions[0]);

    sw_task_t *sw = calloc(threads, sizeof *sw);
    for (unsigned i = 0; i < threads; i++) {
        if (sw) {
            sw[i] = (sw_task_t){
                .id = i, .rounds = rounds, .period_ms = 3 + 2 * i, .mgr = mgr, .quiet = quiet};
            sw[i].results = calloc(rounds, sizeof *sw[i].results);
            sw[i].task_of = calloc(rounds, sizeof *sw[i].task_of);
        }
        if (!sw || weft_mem_alloc(w, HLS_JOB_BYTES, &sw[i].buf, &sw[i].buf_bus) != 0 ||
            !sw[i].results || !sw[i].task_of ||
            pthread_create(&sw[i].thread, NULL, sw_main, &sw[i]) != 0) {
            fprintf(stderr, "weft-reconf: out of memory or threads\n");
            return 1;
        }
    }
    unsigned bad = 0, total = 0;
    uint64_t cyc_min = UINT64_MAX, cyc_max = 0, cyc_sum = 0, nprog = 0;
    double wait_sum = 0, reconf_sum = 0;
    for (unsigned i = 0; i < threads; i++) {
        pthread_join(sw[i].thread, NULL);
        bad += sw[i].mismatches + sw[i].failures;
        for (unsigned k = 0; k < rounds; k++) {
            const weft_reconf_result_t *r = &sw[i].results[k];
            total++;
            wait_sum += r->wait_ns / 1e6;
            if (!r->reconfigured || r->status != 0)
                continue;
            nprog++;
            reconf_sum += r->reconf_ns / 1e6;
            cyc_sum += r->reconf_cycles;
            cyc_min = r->reconf_cycles < cyc_min ? r->reconf_cycles : cyc_min;
            cyc_max = r->reconf_cycles > cyc_max ? r->reconf_cycles : cyc_max;
        }
    }
    weft_reconf_stats_t st;
    weft_reconf_stats(mgr, &st);
    if (json_path && write_json(json_path, sw, threads, rounds, &st))
        bad++;
    for (unsigned i = 0; i < threads; i++) {
        free(sw[i].results);
        free(sw[i].task_of);
    }
    printf("requests %" PRIu64 ": %" PRIu64 " reused a slot as it was (%.0f%%), %" PRIu64
           " programmed one, %" PRIu64 " programmings failed; mean wait %.3f ms\n",
           st.requests, st.reused, 100.0 * st.reused / st.requests, st.reconfigured, st.failed,
           wait_sum / total);
    if (nprog)
        printf("reconfiguration: %" PRIu64 " .. %" PRIu64 " cycles (mean %" PRIu64
               ", %.3f ms at %u MHz), host time mean %.3f ms\n",
               cyc_min, cyc_max, cyc_sum / nprog,
               (double)cyc_sum / nprog / WEFT_PLATFORM_CLOCK_MHZ / 1000, WEFT_PLATFORM_CLOCK_MHZ,
               reconf_sum / nprog);
    printf("%s: %u of %u results matched their software reference\n", bad ? "FAILED" : "ok",
           total - bad, total);
    weft_reconf_close(mgr);
    for (unsigned i = 0; i < threads; i++)
        weft_mem_free(w, sw[i].buf);
    free(sw);
    weft_shutdown(w);
    p->ops->close(p);
    return bad ? 1 : 0;
}

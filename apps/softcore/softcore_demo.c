/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * weft-softcore-demo: the three kinds of Weft thread on one semaphore and one message
 * queue (docs/softcore.md, "The example"). Jobs {id, n, where its result goes} go into
 * one POSIX message queue; two pthreads, a hardware thread (hwt_jobs, RTL in slot 1) and
 * three C threads of the softcore's real-time kernel (softcore_jobs.c, on the softcore
 * in slot 0) take them, count the Collatz steps of n, write the steps and their worker
 * number to the job's result words in shared memory, and post one POSIX semaphore; each
 * posts it once when it starts, too. The main thread waits until every worker has
 * started, hands out the jobs, waits for a post per job, ends the workers with jobs of
 * n = 0, and checks every result against its own count.
 *
 * The simulated fabric runs about a thousand times slower than the board it models
 * (docs/benchmarks.md), so pthreads that took jobs as fast as the host allows would take
 * nearly all of them: each pthread rests --pace ms after a job, as a CPU with other work
 * to do would, and the output says who did how many.
 *
 * usage: weft-softcore-demo [--jobs N] [--port hw|sw] [--pthreads N]
 *   --jobs N      jobs to hand out (default 200, at most 4096)
 *   --port P      the softcore kernel's port: hw (hardware contexts, default) or sw
 *   --pthreads N  software workers, 0 to 8 (default 2)
 *   --pace MS     a software worker's rest after each job, 0 to 1000 ms (default 2)
 *   --require-all fail unless every kind of worker did a job (the test's check)
 */
#define _DEFAULT_SOURCE /* usleep */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "weft/sim.h"
#include "weft/softcore.h"
#include "weft/weft.h"

enum { MAX_PTHREADS = 8, HW_WORKER = 10, SOFTCORE_FIRST = 20, SOFTCORE_THREADS = 3 };
enum { MAX_JOBS = 4096 };

static mqd_t jobs;
static unsigned pace_ms = 2;
static sem_t done;
static uint32_t *results; /* two words a job: steps, worker number */
static uint64_t results_bus;

static uint32_t collatz_steps(uint32_t n)
{
    uint32_t s = 0;
    for (; n > 1; n = (n & 1) ? 3 * n + 1 : n / 2)
        s++;
    return s;
}

/* A software worker: the same loop as the softcore's threads and hwt_jobs. */
static void *pthread_worker(void *arg)
{
    uint32_t number = (uint32_t)(uintptr_t)arg;
    sem_post(&done); /* started */
    for (;;) {
        uint32_t job[3];
        if (mq_receive(jobs, (char *)job, sizeof job, NULL) != (ssize_t)sizeof job || job[1] == 0)
            return NULL;
        uint32_t *r = results + 2 * job[0];
        r[0] = collatz_steps(job[1]);
        r[1] = number;
        sem_post(&done);
        if (pace_ms)
            usleep(1000u * pace_ms);
    }
}

static void softcore_console(void *arg, const char *bytes, size_t n)
{
    (void)arg;
    fwrite(bytes, 1, n, stdout);
    fflush(stdout);
}

static int usage(void)
{
    fprintf(stderr,
            "usage: weft-softcore-demo [--jobs N] [--port hw|sw] [--pthreads N] [--pace MS] "
            "[--require-all]\n");
    return 2;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The queue: anonymous (unlinked at once), 8 jobs of 12 bytes. */
static int open_jobs(void)
{
    char name[64];
    snprintf(name, sizeof name, "/weft-softcore-demo-%d", (int)getpid());
    struct mq_attr a = {.mq_maxmsg = 8, .mq_msgsize = 12};
    jobs = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, &a);
    if (jobs == (mqd_t)-1)
        return -errno;
    mq_unlink(name);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned njobs = 200, npthreads = 2;
    int require_all = 0;
    const char *port = "hw";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--jobs") && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v == 0 || v > MAX_JOBS)
                return usage();
            njobs = (unsigned)v;
        } else if (!strcmp(argv[i], "--require-all")) {
            require_all = 1;
        } else if (!strcmp(argv[i], "--pace") && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v > 1000)
                return usage();
            pace_ms = (unsigned)v;
        } else if (!strcmp(argv[i], "--pthreads") && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v > MAX_PTHREADS)
                return usage();
            npthreads = (unsigned)v;
        } else if (!strcmp(argv[i], "--port") && i + 1 < argc) {
            port = argv[++i];
            if (strcmp(port, "hw") && strcmp(port, "sw"))
                return usage();
        } else {
            return usage();
        }
    }

    weft_platform_t *p = NULL;
    weft_t *w = NULL;
    int rc = weft_sim_open(&p, NULL);
    if (rc == 0)
        rc = weft_init(&w, p);
    if (rc != 0) {
        fprintf(stderr, "weft-softcore-demo: cannot open the fabric: %s\n", strerror(-rc));
        return 1;
    }
    char why[512] = "";
    char elf[4096];
    snprintf(elf, sizeof elf, "%s/softcore_jobs_%s.elf", WEFT_SOFTCORE_APP_DIR, port);
    weft_softcore_image_t prog = {0};
    void *cpu = NULL;
    size_t bytes = 8u * njobs;
    rc = weft_softcore_image_load(elf, WEFT_RV_RAM_BYTES, &prog, why, sizeof why);
    if (rc == 0)
        rc = open_jobs();
    if (rc == 0 && sem_init(&done, 0, 0) != 0)
        rc = -errno;
    if (rc == 0)
        rc = weft_mem_alloc(w, bytes, &cpu, &results_bus);
    if (rc != 0) {
        fprintf(stderr, "weft-softcore-demo: %s\n", why[0] ? why : strerror(-rc));
        return 1;
    }
    results = cpu;
    memset(results, 0, bytes);

    /* The workers: the hardware thread, the softcore, the pthreads. */
    weft_resource_t res[] = {{WEFT_RES_MQ, &jobs}, {WEFT_RES_SEM, &done}};
    weft_mem_window_t win = {results_bus, bytes, WEFT_MEM_RW};
    weft_hwthread_attr_t hw_attr = {.name = "hwt_jobs",
                                    .image = WEFT_IMAGE_DIR "/hwt_jobs.so",
                                    .slot = 1,
                                    .resources = res,
                                    .num_resources = 2,
                                    .init_data = 0 | 1u << 8 | HW_WORKER << 16,
                                    .windows = &win,
                                    .num_windows = 1};
    weft_softcore_attr_t sc_attr = {.thread = {.name = "softcore",
                                               .image = WEFT_IMAGE_DIR "/hwt_softcore.so",
                                               .slot = 0,
                                               .resources = res,
                                               .num_resources = 2,
                                               .windows = &win,
                                               .num_windows = 1},
                                    .program = &prog,
                                    .args = {SOFTCORE_FIRST},
                                    .console = softcore_console};
    weft_hwthread_t *hw = NULL, *sc = NULL;
    pthread_t sw[MAX_PTHREADS];
    double t0 = now_ms();
    uint64_t c0 = 0, c1 = 0;
    weft_fabric_cycles(w, &c0);
    if ((rc = weft_hwthread_create(w, &hw, &hw_attr)) != 0 ||
        (rc = weft_softcore_create(w, &sc, &sc_attr)) != 0) {
        fprintf(stderr, "weft-softcore-demo: starting the %s: %s\n", hw ? "softcore" : "hwt_jobs",
                strerror(-rc));
        return 1;
    }
    for (uintptr_t i = 0; i < npthreads; i++)
        pthread_create(&sw[i], NULL, pthread_worker, (void *)(i + 1));

    printf("%u jobs for %u pthreads, hwt_jobs in slot 1 and %d softcore threads in slot 0 "
           "(%s port)\n",
           njobs, npthreads, SOFTCORE_THREADS, port);
    for (unsigned i = 0; i < npthreads + 1 + SOFTCORE_THREADS; i++)
        sem_wait(&done); /* every worker has started */
    for (uint32_t id = 0; id < njobs; id++) {
        uint32_t job[3] = {id, 1000 + 37 * id, (uint32_t)(results_bus + 8u * id)};
        mq_send(jobs, (const char *)job, sizeof job, 0);
    }
    for (unsigned i = 0; i < njobs; i++)
        sem_wait(&done);
    weft_fabric_cycles(w, &c1);
    double t1 = now_ms();
    for (unsigned i = 0; i < npthreads + 1 + SOFTCORE_THREADS; i++) {
        uint32_t stop[3] = {0, 0, 0};
        mq_send(jobs, (const char *)stop, sizeof stop, 0);
    }
    for (unsigned i = 0; i < npthreads; i++)
        pthread_join(sw[i], NULL);
    weft_exit_status_t hs, ss;
    weft_hwthread_join(hw, &hs);
    weft_hwthread_join(sc, &ss);

    /* Every result against our own count; who did how many. */
    unsigned by_kind[3] = {0, 0, 0}, wrong = 0;
    for (uint32_t id = 0; id < njobs; id++) {
        uint32_t steps = results[2 * id], who = results[2 * id + 1];
        if (steps != collatz_steps(1000 + 37 * id) || who == 0) {
            if (wrong++ < 5)
                fprintf(stderr, "job %u: %u steps by worker %u, want %u\n", id, steps, who,
                        collatz_steps(1000 + 37 * id));
            continue;
        }
        by_kind[who >= SOFTCORE_FIRST ? 2 : who == HW_WORKER ? 1 : 0]++;
    }
    printf("jobs done by pthreads %u, the hardware thread %u, softcore threads %u\n", by_kind[0],
           by_kind[1], by_kind[2]);
    printf("%.1f ms wall clock, %llu fabric cycles (%.2f ms projected at 100 MHz)\n", t1 - t0,
           (unsigned long long)(c1 - c0), (c1 - c0) / 1e5);
    int ok = wrong == 0 && hs.kind == WEFT_EXIT_NORMAL && hs.value == 0 &&
             ss.kind == WEFT_EXIT_NORMAL && ss.value == 0;
    if (require_all && (by_kind[1] == 0 || by_kind[2] == 0 || (npthreads && by_kind[0] == 0))) {
        fprintf(stderr, "weft-softcore-demo: a kind of worker did no job\n");
        ok = 0;
    }
    if (hs.kind != WEFT_EXIT_NORMAL || hs.value != 0)
        fprintf(stderr, "hwt_jobs: %s (value %u)\n", hs.message, hs.value);
    if (ss.kind != WEFT_EXIT_NORMAL || ss.value != 0)
        fprintf(stderr, "softcore: %s (value %u)\n", ss.message, ss.value);
    printf(wrong ? "%u results wrong\n" : "every result checked: right\n", wrong);

    weft_hwthread_destroy(hw);
    weft_hwthread_destroy(sc);
    weft_softcore_image_free(&prog);
    weft_shutdown(w);
    p->ops->close(p);
    mq_close(jobs);
    sem_destroy(&done);
    return ok ? 0 : 1;
}

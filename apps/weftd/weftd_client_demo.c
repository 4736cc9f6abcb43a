/*
 * weftd-client-demo: a C client of weftd (docs/server.md), linking only libweftd_client.
 *
 * It asks the server for its tasks, allocates one buffer per accelerator job (mapped here,
 * read and written in place by the hardware), and for each round submits a request for
 * every task at once, Weft threads with a problem size and accelerators with their
 * buffers, then collects the results as they end by polling the connection's fd. Every
 * result is checked against the software reference. Exit 0 when all matched.
 *
 * usage: weftd-client-demo [--socket PATH] [--rounds N] [--quiet]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hls_job.h"
#include "task_reference.h"
#include "weft/weftd_client.h"

typedef struct job {
    weftd_task_t task;
    int kernel;         /* the software reference's (task_kernel_of / hls_kernel_of) */
    uint32_t n;         /* a thread's problem size */
    weftd_buffer_t buf; /* an accelerator's */
    hls_job_t hls;
    uint32_t req;
    int ended;
} job_t;

/* Map a task's name to its reference: "sumsq" is hwt_task_sumsq, "fir" hwt_hls_fir. */
static int reference_of(const weftd_task_t *t)
{
    char image[64];
    snprintf(image, sizeof image, "%s%s", t->accelerator ? "hwt_hls_" : "hwt_task_", t->name);
    return t->accelerator ? hls_kernel_of(image) : task_kernel_of(image);
}

static int submit(weftd_client_t *c, job_t *j, unsigned round)
{
    weftd_arg_t args[WEFTD_MAX_ARGS];
    unsigned n = 0;
    if (j->task.accelerator) {
        const uint32_t size = j->kernel == 2 ? 4 + round % 13 : 100 + 37 * round;
        hls_job_prepare(&j->hls, j->kernel, j->buf.data, 0, size, 0x9e3779b9u * (round + 1));
        for (; n < j->hls.num_args; n++) /* the first are offsets in the buffer */
            args[n] = n < HLS_JOB_ADDRESS_ARGS ? weftd_buffer_arg(&j->buf, j->hls.args[n])
                                               : weftd_value(j->hls.args[n]);
    } else {
        j->n = 300 + 53 * round + 7 * j->task.id;
        args[n++] = weftd_value(j->n);
    }
    j->ended = 0;
    return weftd_submit(c, j->task.id, args, n, &j->req);
}

static int check(const job_t *j, const weftd_result_t *r, int quiet)
{
    int ok =
        r->status == 0 && (j->task.accelerator ? hls_job_check(&j->hls)
                                               : r->exit_value == task_reference(j->kernel, j->n));
    if (!quiet || !ok)
        printf("  %-8s slot %u %s wait %7" PRIu64 " reconf %7" PRIu64 " exec %7" PRIu64
               " cycles -> %s%s\n",
               j->task.name, r->slot, r->reconfigured ? "programmed" : "reused    ", r->wait_cycles,
               r->reconf_cycles, r->exec_cycles, ok ? "ok" : "FAILED",
               r->status ? strerror(-r->status) : "");
    return ok;
}

int main(int argc, char **argv)
{
    const char *sock = NULL;
    unsigned rounds = 3;
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--socket") && i + 1 < argc)
            sock = argv[++i];
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--quiet"))
            quiet = 1;
        else {
            fprintf(stderr, "usage: %s [--socket PATH] [--rounds N] [--quiet]\n", argv[0]);
            return 2;
        }
    }
    if (rounds == 0 || rounds > 1000) {
        fprintf(stderr, "weftd-client-demo: rounds 1..1000\n");
        return 2;
    }
    weftd_client_t *c;
    char why[256];
    int rc = weftd_connect(sock, &c, why, sizeof why);
    if (rc) {
        fprintf(stderr, "weftd-client-demo: %s\n", why);
        return 1;
    }
    weftd_task_t tasks[64];
    int ntasks = weftd_tasks(c, tasks, 64);
    job_t *jobs = calloc(ntasks > 0 ? (size_t)ntasks : 1, sizeof *jobs);
    unsigned njobs = 0;
    for (int i = 0; i < ntasks && jobs; i++) {
        job_t *j = &jobs[njobs];
        j->task = tasks[i];
        j->kernel = reference_of(&tasks[i]);
        if (j->kernel < 0) {
            printf("(task %s has no software reference here: skipped)\n", tasks[i].name);
            continue;
        }
        if (tasks[i].accelerator && (rc = weftd_alloc(c, HLS_JOB_BYTES, &j->buf)) != 0) {
            fprintf(stderr, "weftd-client-demo: a buffer: %s (%s)\n", strerror(-rc),
                    weftd_last_error(c));
            return 1;
        }
        njobs++;
    }
    printf("weftd-client-demo: %u tasks x %u rounds\n", njobs, rounds);
    unsigned good = 0, total = 0;
    for (unsigned k = 0; k < rounds; k++) {
        for (unsigned i = 0; i < njobs; i++)
            if ((rc = submit(c, &jobs[i], k)) != 0) {
                fprintf(stderr, "weftd-client-demo: submit %s: %s (%s)\n", jobs[i].task.name,
                        strerror(-rc), weftd_last_error(c));
                return 1;
            }
        for (unsigned left = njobs; left > 0;) { /* as they end, in any order */
            struct pollfd pfd = {weftd_fd(c), POLLIN, 0};
            if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
                return 1;
            uint32_t req;
            weftd_result_t r;
            while ((rc = weftd_next(c, &req, &r)) == 0) {
                for (unsigned i = 0; i < njobs; i++)
                    if (jobs[i].req == req && !jobs[i].ended) {
                        jobs[i].ended = 1;
                        good += check(&jobs[i], &r, quiet);
                        total++;
                        left--;
                    }
            }
            if (rc != -EAGAIN) {
                fprintf(stderr, "weftd-client-demo: %s\n", strerror(-rc));
                return 1;
            }
        }
    }
    for (unsigned i = 0; i < njobs; i++)
        if (jobs[i].task.accelerator)
            weftd_free(c, &jobs[i].buf);
    free(jobs);
    weftd_disconnect(c);
    printf("%s: %u of %u results matched their software reference\n",
           good == total ? "ok" : "FAILED", good, total);
    return good == total ? 0 : 1;
}

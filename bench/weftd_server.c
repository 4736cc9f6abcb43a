/*
 * weft-bench-weftd: what weftd costs a request, beside a bare Unix-socket round trip in
 * the same run, and a stress run of many clients (docs/server.md, docs/benchmarks.md).
 *
 * The server runs on a thread of this process over the simulated fabric with the build's
 * example configuration; clients are threads with their own connections, through
 * libweftd_client, as separate processes would be.
 *
 * Overhead, for 1, 4, 16 and 64 clients at once:
 *   - bare: a 16-byte message to an epoll echo server on its own Unix socket and back;
 *   - refused: a SUBMIT the server checks and refuses (no such task): the protocol path
 *     alone, decode, checks, answer;
 *   - accepted: weftd_submit() of a request until the server's answer that it took it (the
 *     server's whole request path: decode, checks, the scheduler, the answer);
 *   - cycle read: one read of the fabric's cycle counter, which the manager does per
 *     request to stamp its ticket (a register read through the simulated bus);
 *   - whole request: submit to DONE for a sumsq task in a slot that holds it (hardware
 *     time on the simulated fabric included: host time of a simulation, not a board's).
 * p50, p99, p99.9 and max of each, in microseconds (FRED: 78 us average, 227 us max of
 * server overhead on a Zynq).
 *
 * Stress: clients in waves of 50; of every ten, seven run a request and check its result
 * and that it came once, one dies in the middle of a long request (its connection closed
 * while the task runs), one sends garbage. Afterwards the server must hold nothing for
 * them, every slot must serve again, and the process's resident memory is reported
 * before and after.
 *
 * Usage: weft-bench-weftd [--reps N] [--out PATH]  (N: 50 x N round trips per client and
 * 100 x N stress clients)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "bench_util.h"
#include "config.h"
#include "server.h"
#include "task_reference.h"
#include "weft/sim.h"
#include "weft/weft.h"
#include "weft/weftd_client.h"

#define PROG "weft-bench-weftd"
#define DEFAULT_REPS 10u
#define MAX_REPS 100u
#define DEFAULT_OUT "bench/weftd.json"
#define MSG_BYTES 16
#define WAVE 50u

static const unsigned kClients[] = {1, 4, 16, 64};
#define NUM_LEVELS (sizeof kClients / sizeof kClients[0])

static char g_sock[108], g_echo[108];
static weft_t *g_w; /* for the cycle-counter reads measured beside the requests */
static int g_sumsq, g_collatz, g_popsum; /* task ids */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " [--reps N] [--out PATH]\n"
            "  --reps N    50 x N round trips per client and 100 x N stress clients, 1..%u "
            "(default %u)\n"
            "  --out PATH  JSON result file (default %s; directories are created)\n",
            MAX_REPS, DEFAULT_REPS, DEFAULT_OUT);
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, PROG ": %s: %s\n", what, detail);
    exit(1);
}

/* ---- the bare echo server ------------------------------------------------------------- */

static int g_echo_stop;

static void *echo_main(void *arg)
{
    int lfd = *(int *)arg, ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = lfd};
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
    epoll_ctl(ep, EPOLL_CTL_ADD, g_echo_stop,
              &(struct epoll_event){.events = EPOLLIN, .data.fd = g_echo_stop});
    for (;;) {
        struct epoll_event got[32];
        int n = epoll_wait(ep, got, 32, -1);
        for (int i = 0; i < n; i++) {
            int fd = got[i].data.fd;
            if (fd == g_echo_stop) {
                close(ep);
                return NULL;
            }
            if (fd == lfd) {
                int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
                ev = (struct epoll_event){.events = EPOLLIN, .data.fd = c};
                if (c >= 0)
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev);
                continue;
            }
            char buf[256];
            ssize_t r = read(fd, buf, sizeof buf);
            if (r <= 0 || write(fd, buf, (size_t)r) != r) {
                epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
                close(fd);
            }
        }
    }
}

/* ---- overhead ------------------------------------------------------------------------ */

typedef struct level_client {
    pthread_t thread;
    pthread_barrier_t *phase; /* every client measures one thing at a time, together */
    unsigned reps;
    double *bare, *accepted, *whole, *cycles, *refused; /* reps samples each, microseconds */
    int failed;
} level_client_t;

static void *level_main(void *arg)
{
    level_client_t *lc = arg;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, g_echo, sizeof g_echo);
    const int echo_ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    lc->failed |= !echo_ok; /* a failed client still takes its turns at the barrier */
    char msg[MSG_BYTES] = "weft round trip", back[MSG_BYTES];
    pthread_barrier_wait(lc->phase);
    for (unsigned k = 0; k < lc->reps && echo_ok; k++) {
        double t0 = bench_now_us();
        size_t got = 0;
        if (write(fd, msg, sizeof msg) != (ssize_t)sizeof msg)
            lc->failed = 1;
        while (got < sizeof back) {
            ssize_t r = read(fd, back + got, sizeof back - got);
            if (r <= 0) {
                lc->failed = 1;
                break;
            }
            got += (size_t)r;
        }
        lc->bare[k] = bench_now_us() - t0;
    }
    close(fd);
    /* What the manager does once per request to stamp its ticket in fabric time: a
     * register read, through the simulated bus here (about a microsecond on a board). */
    pthread_barrier_wait(lc->phase);
    for (unsigned k = 0; k < lc->reps; k++) {
        uint64_t cyc;
        double t0 = bench_now_us();
        if (weft_fabric_cycles(g_w, &cyc) != 0)
            lc->failed = 1;
        lc->cycles[k] = bench_now_us() - t0;
    }

    weftd_client_t *c = NULL;
    if (weftd_connect(g_sock, &c, NULL, 0) != 0)
        lc->failed = 1;
    /* The protocol alone: a SUBMIT the server refuses after its checks (no such task). */
    pthread_barrier_wait(lc->phase);
    for (unsigned k = 0; k < lc->reps && c; k++) {
        weftd_arg_t n = weftd_value(16);
        double t0 = bench_now_us();
        if (weftd_submit(c, 65535, &n, 1, NULL) != -ENOENT)
            lc->failed = 1;
        lc->refused[k] = bench_now_us() - t0;
    }
    pthread_barrier_wait(lc->phase);
    for (unsigned k = 0; k < lc->reps && c; k++) {
        weftd_arg_t n = weftd_value(16);
        uint32_t req;
        weftd_result_t r;
        double t0 = bench_now_us();
        int rc = weftd_submit(c, (unsigned)g_sumsq, &n, 1, &req);
        double t1 = bench_now_us();
        if (rc == 0)
            rc = weftd_wait(c, req, -1, &r);
        double t2 = bench_now_us();
        if (rc != 0 || r.status != 0 || r.exit_value != task_reference(0, 16))
            lc->failed = 1;
        lc->accepted[k] = t1 - t0;
        lc->whole[k] = t2 - t0;
    }
    weftd_disconnect(c);
    return NULL;
}

/* p50, p99, p99.9 and max of v (sorted here), as JSON; *st gets them too. */
static json_t *percentiles(double *v, size_t n, bench_stats_t *st)
{
    *st = bench_summarize(v, n);
    return json_pack("{s:I, s:o, s:o, s:o, s:o}", "n", (json_int_t)n, "p50_us",
                     bench_jnum(st->median), "p99_us", bench_jnum(st->p99), "p999_us",
                     bench_jnum(st->p999), "max_us", bench_jnum(st->max));
}

static json_t *run_level(unsigned clients, unsigned reps)
{
    level_client_t *lc = calloc(clients, sizeof *lc);
    const size_t total = (size_t)clients * reps;
    double *bare = calloc(total, sizeof *bare), *acc = calloc(total, sizeof *acc),
           *whole = calloc(total, sizeof *whole), *cyc = calloc(total, sizeof *cyc),
           *ref = calloc(total, sizeof *ref);
    pthread_barrier_t phase;
    if (!lc || !bare || !acc || !whole || !cyc || !ref ||
        pthread_barrier_init(&phase, NULL, clients) != 0)
        die("overhead", "out of memory");
    for (unsigned i = 0; i < clients; i++) {
        lc[i] = (level_client_t){.phase = &phase,
                                 .reps = reps,
                                 .bare = bare + (size_t)i * reps,
                                 .accepted = acc + (size_t)i * reps,
                                 .whole = whole + (size_t)i * reps,
                                 .cycles = cyc + (size_t)i * reps,
                                 .refused = ref + (size_t)i * reps};
        if (pthread_create(&lc[i].thread, NULL, level_main, &lc[i]) != 0)
            die("overhead", "cannot start a client thread");
    }
    int failed = 0;
    for (unsigned i = 0; i < clients; i++) {
        pthread_join(lc[i].thread, NULL);
        failed |= lc[i].failed;
    }
    pthread_barrier_destroy(&phase);
    if (failed)
        die("overhead", "a client's request failed or returned a wrong result");
    bench_stats_t b, a, w, y, f;
    json_t *row =
        json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "clients", (json_int_t)clients, "bare",
                  percentiles(bare, total, &b), "refused", percentiles(ref, total, &f), "accepted",
                  percentiles(acc, total, &a), "whole_request", percentiles(whole, total, &w),
                  "cycle_read", percentiles(cyc, total, &y));
    /* The server's own part: accepted less the one simulated register read inside it. */
    const double own = a.median - y.median;
    printf("%4u clients  bare %7.1f %7.1f %7.1f %8.1f   refused %7.1f %7.1f %7.1f %8.1f   "
           "accepted %7.1f %7.1f %7.1f %8.1f   whole %8.1f %8.1f   p50/bare: refused %.2f, "
           "accepted %.2f (less a cycle read of %.1f: %.2f)\n",
           clients, b.median, b.p99, b.p999, b.max, f.median, f.p99, f.p999, f.max, a.median, a.p99,
           a.p999, a.max, w.median, w.max, f.median / b.median, a.median / b.median, y.median,
           own / b.median);
    json_object_set_new(row, "p50_ratio_refused", bench_jnum(f.median / b.median));
    json_object_set_new(row, "p50_ratio", bench_jnum(a.median / b.median));
    json_object_set_new(row, "p50_ratio_less_cycle_read", bench_jnum(own / b.median));
    free(lc);
    free(bare);
    free(acc);
    free(whole);
    free(cyc);
    free(ref);
    return row;
}

/* One client's accepted SUBMIT while its partition's slots are busy (it queues; nothing
 * starts), each taken back at once: what accepting costs without the hardware thread's
 * start beside the answer. */
static json_t *run_queued(unsigned reps)
{
    weftd_client_t *c;
    if (weftd_connect(g_sock, &c, NULL, 0) != 0)
        die("queued", "cannot connect");
    uint32_t busy[2], req;
    weftd_result_t r;
    for (int i = 0; i < 2; i++) /* both of the small partition's slots, for a while */
        if (weftd_submit(c, (unsigned)g_popsum, &(weftd_arg_t){0, 0, 1000000}, 1, &busy[i]) != 0)
            die("queued", "cannot fill the partition");
    usleep(300000);
    double *v = calloc(reps, sizeof *v);
    bench_stats_t q;
    if (!v)
        die("queued", "out of memory");
    for (unsigned k = 0; k < reps; k++) {
        double t0 = bench_now_us();
        if (weftd_submit(c, (unsigned)g_collatz, &(weftd_arg_t){0, 0, 7}, 1, &req) != 0)
            die("queued", "a submit failed");
        v[k] = bench_now_us() - t0;
        if (weftd_cancel(c, req) != 0 || weftd_wait(c, req, -1, &r) != 0 || r.status != -ECANCELED)
            die("queued", "a queued request was not taken back");
    }
    for (int i = 0; i < 2; i++)
        weftd_wait(c, busy[i], -1, &r);
    weftd_disconnect(c);
    json_t *out = percentiles(v, reps, &q);
    printf("   1 client, accepted while its partition is busy (queued, nothing starts): p50 %.1f "
           "p99 %.1f max %.1f\n",
           q.median, q.p99, q.max);
    free(v);
    return out;
}

/* ---- stress ---------------------------------------------------------------------------- */

enum role { GOOD, DYING, GARBAGE };

typedef struct stress_client {
    pthread_t thread;
    unsigned index;
    enum role role;
    int ok, dup, closed; /* GOOD: right result, once; GARBAGE: dropped */
    int failed;
} stress_client_t;

static void *stress_main(void *arg)
{
    stress_client_t *sc = arg;
    if (sc->role == GARBAGE) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        memcpy(a.sun_path, g_sock, sizeof g_sock);
        uint8_t junk[64];
        uint32_t x = 2463534242u * (sc->index + 1);
        for (size_t i = 0; i < sizeof junk; i++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            junk[i] = (uint8_t)x;
        }
        char sink[256];
        if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
            send(fd, junk, sizeof junk, MSG_NOSIGNAL) >= 0) {
            ssize_t r;
            while ((r = read(fd, sink, sizeof sink)) > 0) {
            }
            sc->closed = r == 0 || (r < 0 && errno == ECONNRESET);
        }
        close(fd);
        return NULL;
    }
    weftd_client_t *c;
    if (weftd_connect(g_sock, &c, NULL, 0) != 0) {
        sc->failed = 1;
        return NULL;
    }
    weftd_buffer_t b;
    uint32_t req;
    weftd_result_t r;
    if (weftd_alloc(c, 4096, &b) != 0) {
        sc->failed = 1;
        weftd_disconnect(c);
        return NULL;
    }
    memset(b.data, (int)sc->index, b.size);
    if (sc->role == DYING) { /* a request that runs until stopped, then gone */
        weftd_arg_t n = weftd_value(0xfffffff0u);
        if (weftd_submit(c, (unsigned)g_popsum, &n, 1, &req) != 0)
            sc->failed = 1;
        usleep(2000);
        weftd_disconnect(c);
        return NULL;
    }
    const uint32_t n = 1 + sc->index * 37 % 3000;
    weftd_arg_t a = weftd_value(n);
    if (weftd_run(c, (unsigned)(sc->index % 2 ? g_collatz : g_sumsq), &a, 1, &r) != 0)
        sc->failed = 1;
    else
        sc->ok = r.status == 0 && r.exit_value == task_reference(sc->index % 2 ? 1 : 0, n);
    uint32_t extra;
    sc->dup = weftd_next(c, &extra, &r) != -EAGAIN; /* a second answer to one request */
    if (weftd_free(c, &b) != 0)
        sc->failed = 1;
    weftd_disconnect(c);
    return NULL;
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static json_t *run_stress(weftd_server_t *s, unsigned clients)
{
    const long rss0 = rss_kib();
    const double t0 = bench_now_us();
    unsigned good = 0, ok = 0, dup = 0, dying = 0, garbage = 0, closed = 0, failed = 0;
    stress_client_t *sc = calloc(WAVE, sizeof *sc);
    if (!sc)
        die("stress", "out of memory");
    for (unsigned base = 0; base < clients; base += WAVE) {
        const unsigned n = clients - base < WAVE ? clients - base : WAVE;
        for (unsigned i = 0; i < n; i++) {
            const unsigned k = base + i;
            sc[i] = (stress_client_t){.index = k,
                                      .role = k % 10 == 7   ? DYING
                                              : k % 10 == 3 ? GARBAGE
                                                            : GOOD};
            if (pthread_create(&sc[i].thread, NULL, stress_main, &sc[i]) != 0)
                die("stress", "cannot start a client thread");
        }
        for (unsigned i = 0; i < n; i++) {
            pthread_join(sc[i].thread, NULL);
            good += sc[i].role == GOOD;
            ok += sc[i].ok;
            dup += sc[i].dup;
            dying += sc[i].role == DYING;
            garbage += sc[i].role == GARBAGE;
            closed += sc[i].closed;
            failed += sc[i].failed;
        }
    }
    free(sc);
    /* Everything the clients held is let go once the aborted requests have ended. */
    weftd_server_stats_t st;
    const double until = bench_now_us() + 60e6;
    do {
        usleep(10000);
        weftd_server_stats(s, &st);
    } while ((st.live_clients || st.live_buffers || st.live_requests) && bench_now_us() < until);
    const double secs = (bench_now_us() - t0) / 1e6;
    const long rss1 = rss_kib();

    /* Every slot serves again: two requests per partition at once, long enough (half a
     * million iterations) that each needs a slot of its own. */
    weftd_client_t *c;
    unsigned slots_ok = 0, slot_seen = 0;
    if (weftd_connect(g_sock, &c, NULL, 0) == 0) {
        uint32_t req[4];
        const int task[4] = {g_sumsq, g_sumsq, g_popsum, g_popsum};
        int rc = 0;
        for (int i = 0; i < 4 && rc == 0; i++)
            rc = weftd_submit(c, (unsigned)task[i], &(weftd_arg_t){WEFTD_ARG_VALUE, 0, 500000}, 1,
                              &req[i]);
        for (int i = 0; i < 4 && rc == 0; i++) {
            weftd_result_t r;
            if (weftd_wait(c, req[i], 60000, &r) == 0 && r.status == 0) {
                slots_ok++;
                slot_seen |= 1u << r.slot;
            }
        }
        weftd_disconnect(c);
    }
    printf("stress: %u clients in %.1f s: %u good (%u right, %u answered twice), %u died "
           "mid-request, %u sent garbage (%u dropped), %u failed to run; afterwards %u clients, "
           "%u buffers, %u requests held; %u of 4 requests at once ran (slots 0x%x); resident "
           "memory %ld -> %ld KiB\n",
           clients, secs, good, ok, dup, dying, garbage, closed, failed, st.live_clients,
           st.live_buffers, st.live_requests, slots_ok, slot_seen, rss0, rss1);
    return json_pack("{s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:{s:I, s:I, s:I}, s:I, s:I, "
                     "s:I, s:I, s:I, s:I, s:I}",
                     "clients", (json_int_t)clients, "seconds", bench_jnum(secs), "good",
                     (json_int_t)good, "good_right", (json_int_t)ok, "answered_twice",
                     (json_int_t)dup, "died", (json_int_t)dying, "garbage", (json_int_t)garbage,
                     "garbage_dropped", (json_int_t)closed, "failed", (json_int_t)failed,
                     "held_after", "clients", (json_int_t)st.live_clients, "buffers",
                     (json_int_t)st.live_buffers, "requests", (json_int_t)st.live_requests,
                     "slots_serving", (json_int_t)slots_ok, "slot_mask", (json_int_t)slot_seen,
                     "rss_before_kib", (json_int_t)rss0, "rss_after_kib", (json_int_t)rss1,
                     "server_dropped", (json_int_t)st.dropped, "server_orphaned",
                     (json_int_t)st.orphaned, "server_completed", (json_int_t)st.completed);
}

/* ---- set-up ------------------------------------------------------------------------------ */

static void *server_main(void *arg)
{
    int rc = weftd_server_run(arg);
    if (rc != 0)
        die("the server's loop", strerror(-rc));
    return NULL;
}

static int listen_echo(void)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, g_echo, sizeof g_echo);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 128) != 0)
        die("the echo server", strerror(errno));
    return fd;
}

int main(int argc, char **argv)
{
    unsigned reps = DEFAULT_REPS;
    const char *out = DEFAULT_OUT;
    int status = bench_args(argc, argv, PROG, MAX_REPS, &reps, &out, usage);
    if (status >= 0)
        return status;

    char dir[] = "/tmp/weft-bench-weftd-XXXXXX", why[512];
    if (!mkdtemp(dir))
        die("a directory", strerror(errno));
    snprintf(g_sock, sizeof g_sock, "%s/weftd.sock", dir);
    snprintf(g_echo, sizeof g_echo, "%s/echo.sock", dir);
    static weftd_config_t cfg;
    if (weftd_config_load(WEFTD_EXAMPLE_CONFIG, &cfg, why, sizeof why) != 0)
        die("the example configuration", why);
    snprintf(cfg.socket_path, sizeof cfg.socket_path, "%s", g_sock);
    cfg.limits.clients = 128;

    weft_platform_t *p = NULL;
    weft_t *w = NULL;
    weftd_server_t *s = NULL;
    if (weft_sim_open(&p, NULL) != 0 || weft_init(&w, p) != 0)
        die("the fabric", "cannot open it");
    g_w = w;
    if (weftd_server_open(w, &cfg, &s, why, sizeof why) != 0)
        die("the server", why);
    pthread_t loop, echo;
    pthread_create(&loop, NULL, server_main, s);
    int efd = listen_echo();
    g_echo_stop = eventfd(0, EFD_CLOEXEC);
    pthread_create(&echo, NULL, echo_main, &efd);

    weftd_client_t *c;
    if (weftd_connect(g_sock, &c, why, sizeof why) != 0)
        die("connecting", why);
    g_sumsq = weftd_task_id(c, "sumsq");
    g_collatz = weftd_task_id(c, "collatz");
    g_popsum = weftd_task_id(c, "popsum");
    if (g_sumsq < 0 || g_collatz < 0 || g_popsum < 0)
        die("the example configuration", "no sumsq, collatz or popsum task");
    /* Each task in its slot once, so the measured requests reuse it. */
    weftd_result_t r;
    for (int i = 0; i < 2; i++)
        weftd_run(c, (unsigned)(i ? g_collatz : g_sumsq), &(weftd_arg_t){0, 0, 1}, 1, &r);
    weftd_disconnect(c);

    printf(PROG ": per request, microseconds: p50 p99 p99.9 max\n");
    json_t *levels = json_array();
    for (unsigned i = 0; i < NUM_LEVELS; i++)
        json_array_append_new(levels, run_level(kClients[i], 50 * reps));
    json_t *queued = run_queued(50 * reps);
    json_t *stress = run_stress(s, 100 * reps);

    weftd_server_stop(s);
    pthread_join(loop, NULL);
    uint64_t one = 1;
    if (write(g_echo_stop, &one, sizeof one) != sizeof one)
        die("the echo server", "cannot stop it");
    pthread_join(echo, NULL);
    close(efd);
    weftd_server_close(s);
    weft_shutdown(w);
    p->ops->close(p);
    unlink(g_echo);
    rmdir(dir);

    json_t *root = json_pack("{s:s, s:s, s:o, s:o, s:o}", "benchmark", "weftd", "fred_reference",
                             "78 us average, 227 us max server overhead (Zynq)", "overhead", levels,
                             "accepted_queued", queued, "stress", stress);
    if (json_dump_file(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) != 0)
        die("writing", out);
    json_decref(root);
    printf("written to %s\n", out);
    return 0;
}

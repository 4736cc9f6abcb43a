/*
 * libFuzzer target: the whole runtime serving one hardware thread's requests, with the
 * fake platform (tests/unit/fake_platform.h) as the register window and this harness
 * playing the thread.
 *
 * Per input: fresh objects of every resource type (semaphore, three mutexes of different
 * kinds, condition variable, a small and a large mailbox, message queue) and the fake's
 * two hardware links, one hardware thread in slot 0 (an end of both links) bound to
 * them, signalled YIELD at once so that any call that would block is answered CANCELED
 * instead of blocking; then the request words the input describes, one request at a
 * time, each answer checked; then destroy, and the objects' final state checked. The
 * harness is the objects' only user: with YIELD pending nothing waits, a mailbox burst
 * included, which moves what it can and then ends (burst_end says CANCELED and how many
 * words moved).
 *
 * Input: byte 0 the resource array (its length and rotation), byte 1 the thread's start
 * state (init data, resume, what the objects hold), then requests, each a mode byte:
 * bit 6 set: one lone raw word (the request stream may then read it as a header: the
 * harness follows the framing as the delegate must); otherwise a request from
 * fuzz_request() (bits 0-5).
 *
 * Checked for every request: the documented classification (osif_spec.c); a response
 * echoing the command with a known status, no result words unless OK and then as many
 * as the command has; what a single user of the objects must see (a model of the
 * semaphore count, mutex holds, mailbox and queue contents, mailbox bursts included:
 * the words that could move, in order, then burst_end; CANCELED when none could);
 * PERM for a well-formed mailbox call on a hardware link (the static region serves the
 * ones in the link's direction; the fake platform serves none); one log line per
 * rejected request and per call answered PERM or INTERNAL, naming command, handle and
 * status, and none for any other answer. THREAD_EXIT and THREAD_YIELD end the thread
 * with their value. Nothing may take longer than WAIT_MS. At
 * the end every mutex is free again and the objects hold what the model says.
 *
 * With FUZZ_DELEGATE_TRACE set in the environment every request sent and its answer are
 * printed to stderr (for reading a reproducer; too slow for fuzzing).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fake_platform.h"
#include "fuzz_input.h"
#include "fuzz_request.h"
#include "osif_decode.h"
#include "osif_spec.h"
#include "weft/weft.h"

#define SLOT 0u /* an end of both of the fake's links (0: slot 0 -> 1, 1: slot 1 -> 0) */
#define THREAD_NAME "fuzz-hw"
/* Longest a response or the end of the thread may take: with YIELD pending nothing
 * blocks, so this is only reached by a hang (or a badly overloaded machine). */
#define WAIT_MS 5000
#define MAX_REQUESTS 64u
/* The small mailbox is full or empty after a word or two; the large one takes a whole
 * burst (responses longer than the SW2HW FIFO included) with a few words to spare. */
#define MBOX_CAP 2u
#define BIG_MBOX_CAP (WEFT_OSIF_MAX_ARGS + 8u)
#define MQ_MSGSIZE 16u
#define MQ_MAXMSG 2u
#define MAX_ENTRIES 11u

static fake_platform_t *fake;
static weft_t *runtime;
static weft_link_t *links[FAKE_NUM_LINKS];
static long mq_prio_max;
static atomic_uint log_lines;
static atomic_int log_foreign; /* a line that does not name the thread and its slot */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char last_line[512];
static int trace; /* FUZZ_DELEGATE_TRACE */

/* What the harness was doing, for failure messages. */
static unsigned cur_request;
static uint32_t cur_header;

static void fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz_delegate: request %u (header 0x%08x): ", cur_request, cur_header);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void count_log(void *arg, const char *msg)
{
    (void)arg;
    static const char prefix[] = "thread '" THREAD_NAME "' slot 0: ";
    if (strncmp(msg, prefix, sizeof prefix - 1) != 0)
        atomic_store(&log_foreign, 1);
    pthread_mutex_lock(&log_lock);
    snprintf(last_line, sizeof last_line, "%s", msg);
    pthread_mutex_unlock(&log_lock);
    atomic_fetch_add(&log_lines, 1);
}

/* The last log line names the command (or its code), handle and status, as docs/osif.md
 * shows: "... SEM_WAIT handle 0: WRONG_TYPE (why)". */
static void check_error_line(const osif_expect_t *e, uint32_t status)
{
    char want[96], line[sizeof last_line];
    if (e->info)
        snprintf(want, sizeof want, " %s handle %u: %s (", e->info->name, e->handle,
                 weft_osif_status_name(status));
    else
        snprintf(want, sizeof want, " command 0x%02x handle %u: %s (", e->cmd, e->handle,
                 weft_osif_status_name(status));
    pthread_mutex_lock(&log_lock);
    memcpy(line, last_line, sizeof line);
    pthread_mutex_unlock(&log_lock);
    if (!strstr(line, want))
        fail("log line \"%s\" lacks \"%s\"", line, want);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_request_init();
    fake_config_t cfg = {.num_slots = 2}; /* the fake has links with two slots or more */
    fake = fake_platform_new(&cfg);
    if (!fake || weft_init(&runtime, fake_platform_base(fake)) != 0) {
        fprintf(stderr, "fuzz_delegate: cannot start the runtime on the fake platform\n");
        abort();
    }
    for (unsigned l = 0; l < FAKE_NUM_LINKS; l++) {
        if (weft_link_get(runtime, l, &links[l]) != 0) {
            fprintf(stderr, "fuzz_delegate: the fake platform has no link %u\n", l);
            abort();
        }
    }
    weft_set_log(runtime, count_log, NULL);
    mq_prio_max = sysconf(_SC_MQ_PRIO_MAX);
    trace = getenv("FUZZ_DELEGATE_TRACE") != NULL;
    return 0;
}

/* ---- the objects and the model of what they hold ------------------------------------ */

enum { MUTEX_NORMAL, MUTEX_RECURSIVE, MUTEX_ERRORCHECK, NUM_MUTEXES };
enum { MBOX_SMALL, MBOX_BIG, NUM_MBOXES };

/* A mailbox's words, oldest first (a ring). */
#define MODEL_RING BIG_MBOX_CAP
typedef struct mbox_model {
    uint32_t words[MODEL_RING];
    unsigned head, count, cap;
} mbox_model_t;

typedef struct msg {
    uint32_t len, prio;
    uint8_t bytes[MQ_MSGSIZE];
} msg_t;

typedef struct world {
    sem_t sem;
    pthread_mutex_t mutex[NUM_MUTEXES];
    pthread_cond_t cond;
    weft_mbox_t mbox[NUM_MBOXES];
    mqd_t mq;
    weft_resource_t res[MAX_ENTRIES];
    unsigned num_res;
    uint32_t init_data, resume_state;
    int resume;

    /* The model: the thread is the objects' only user. */
    unsigned sem_count;
    unsigned held[NUM_MUTEXES];
    mbox_model_t mm[NUM_MBOXES];
    msg_t msgs[MQ_MAXMSG]; /* in the order sent */
    unsigned nmsgs;
} world_t;

static void mbox_push(mbox_model_t *m, uint32_t v)
{
    m->words[(m->head + m->count++) % MODEL_RING] = v;
}

static uint32_t mbox_pop(mbox_model_t *m)
{
    uint32_t v = m->words[m->head];
    m->head = (m->head + 1) % MODEL_RING;
    m->count--;
    return v;
}

/* The message a receive gets: the oldest of the highest priority. */
static unsigned mq_next(const world_t *w)
{
    unsigned best = 0;
    for (unsigned i = 1; i < w->nmsgs; i++)
        if (w->msgs[i].prio > w->msgs[best].prio)
            best = i;
    return best;
}

static void mq_model_send(world_t *w, uint32_t len, uint32_t prio, const uint32_t *words)
{
    msg_t *m = &w->msgs[w->nmsgs++];
    m->len = len;
    m->prio = prio;
    for (uint32_t i = 0; i < len; i++)
        m->bytes[i] = (uint8_t)(words[i / 4] >> (8 * (i % 4)));
}

static int mutex_index(const world_t *w, const void *obj)
{
    for (int i = 0; i < NUM_MUTEXES; i++)
        if (obj == &w->mutex[i])
            return i;
    fail("a mutex entry names no mutex of the harness");
}

static mbox_model_t *mbox_model(world_t *w, const void *obj)
{
    for (int i = 0; i < NUM_MBOXES; i++)
        if (obj == &w->mbox[i])
            return &w->mm[i];
    fail("a mailbox entry names no mailbox of the harness");
}

static world_t *world_new(uint8_t layout, uint8_t start)
{
    static atomic_uint queue_counter;
    world_t *w = calloc(1, sizeof *w);
    if (!w)
        fail("out of memory");

    w->sem_count = (start >> 1) & 3u;
    if (sem_init(&w->sem, 0, w->sem_count) != 0)
        fail("sem_init: %s", strerror(errno));
    static const int kinds[NUM_MUTEXES] = {PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
                                           PTHREAD_MUTEX_ERRORCHECK};
    for (int i = 0; i < NUM_MUTEXES; i++) {
        pthread_mutexattr_t ma;
        pthread_mutexattr_init(&ma);
        pthread_mutexattr_settype(&ma, kinds[i]);
        if (pthread_mutex_init(&w->mutex[i], &ma) != 0)
            fail("pthread_mutex_init");
        pthread_mutexattr_destroy(&ma);
    }
    if (pthread_cond_init(&w->cond, NULL) != 0)
        fail("pthread_cond_init");
    /* Words waiting at the start: 0..2 in the small mailbox (bits 3-4), none, one, all
     * but one or all in the large one (bits 6-7). */
    static const unsigned caps[NUM_MBOXES] = {MBOX_CAP, BIG_MBOX_CAP};
    static const unsigned big_fill[4] = {0, 1, BIG_MBOX_CAP - 1, BIG_MBOX_CAP};
    const unsigned prefill[NUM_MBOXES] = {((start >> 3) & 3u) % (MBOX_CAP + 1),
                                          big_fill[start >> 6]};
    for (int b = 0; b < NUM_MBOXES; b++) {
        if (weft_mbox_init(&w->mbox[b], caps[b]) != 0)
            fail("weft_mbox_init");
        w->mm[b].cap = caps[b];
        for (unsigned i = 0; i < prefill[b]; i++) {
            uint32_t v = (b == MBOX_SMALL ? 0xb0c50000u : 0xb16b0000u) + i;
            if (weft_mbox_tryput(&w->mbox[b], v) != 0)
                fail("weft_mbox_tryput while filling mailbox %d", b);
            mbox_push(&w->mm[b], v);
        }
    }

    char name[64];
    snprintf(name, sizeof name, "/weft-fuzz-%ld-%u", (long)getpid(),
             atomic_fetch_add(&queue_counter, 1));
    struct mq_attr qa = {.mq_maxmsg = MQ_MAXMSG, .mq_msgsize = MQ_MSGSIZE};
    w->mq = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, &qa);
    if (w->mq == (mqd_t)-1)
        fail("mq_open %s: %s", name, strerror(errno));
    mq_unlink(name);
    if (start & 0x20) {
        static const uint32_t hello[2] = {0x6c6c6568u, 0x6fu}; /* "hello" */
        if (mq_send(w->mq, "hello", 5, 1) != 0)
            fail("mq_send: %s", strerror(errno));
        mq_model_send(w, 5, 1, hello);
    }

    /* Every type once, link 0 (slot 0 -> 1) and the large mailbox, then extra mutexes: a
     * recursive one, an error-checking one and a second handle for the first mutex, then
     * link 1 (slot 1 -> 0); 7 to 11 entries, rotated so handles differ between inputs. */
    weft_resource_t base[MAX_ENTRIES] = {
        {WEFT_RES_SEM, &w->sem},
        {WEFT_RES_MUTEX, &w->mutex[MUTEX_NORMAL]},
        {WEFT_RES_COND, &w->cond},
        {WEFT_RES_MBOX, &w->mbox[MBOX_SMALL]},
        {WEFT_RES_MQ, &w->mq},
        {WEFT_RES_LINK, links[0]},
        {WEFT_RES_MBOX, &w->mbox[MBOX_BIG]},
        {WEFT_RES_MUTEX, &w->mutex[MUTEX_RECURSIVE]},
        {WEFT_RES_MUTEX, &w->mutex[MUTEX_ERRORCHECK]},
        {WEFT_RES_MUTEX, &w->mutex[MUTEX_NORMAL]},
        {WEFT_RES_LINK, links[1]},
    };
    w->num_res = 7u + (layout & 7u) % 5u;
    unsigned rot = (layout >> 3) % w->num_res;
    for (unsigned i = 0; i < w->num_res; i++)
        w->res[i] = base[(i + rot) % w->num_res];

    w->resume = start & 1;
    w->init_data = 0x1d000000u | (uint32_t)start << 8 | layout;
    w->resume_state = ~w->init_data;
    return w;
}

/* After the thread is gone: the objects hold what the model says and no mutex is held. */
static void world_check_and_free(world_t *w)
{
    int v = -1;
    sem_getvalue(&w->sem, &v);
    if (v < 0 || (unsigned)v != w->sem_count)
        fail("semaphore count %d, the model says %u", v, w->sem_count);
    for (int b = 0; b < NUM_MBOXES; b++) {
        mbox_model_t *m = &w->mm[b];
        if (weft_mbox_count(&w->mbox[b]) != m->count)
            fail("mailbox %d holds %u words, the model says %u", b, weft_mbox_count(&w->mbox[b]),
                 m->count);
        for (uint32_t v = 0, i = 0; m->count > 0; i++) {
            uint32_t expect = mbox_pop(m);
            if (weft_mbox_tryget(&w->mbox[b], &v) != 0 || v != expect)
                fail("mailbox %d: word %u left is 0x%08x, the model says 0x%08x", b, i, v, expect);
        }
        weft_mbox_destroy(&w->mbox[b]);
    }
    struct mq_attr qa;
    if (mq_getattr(w->mq, &qa) != 0 || qa.mq_curmsgs != (long)w->nmsgs)
        fail("queue holds %ld messages, the model says %u", qa.mq_curmsgs, w->nmsgs);
    for (int i = 0; i < NUM_MUTEXES; i++) {
        int rc = pthread_mutex_trylock(&w->mutex[i]);
        if (rc != 0)
            fail("mutex %d still held after the thread ended (trylock: %s)", i, strerror(rc));
        pthread_mutex_unlock(&w->mutex[i]);
        if (pthread_mutex_destroy(&w->mutex[i]) != 0)
            fail("pthread_mutex_destroy");
    }
    mq_close(w->mq);
    pthread_cond_destroy(&w->cond);
    sem_destroy(&w->sem);
    free(w);
}

/* ---- playing the hardware thread ------------------------------------------------------ */

typedef struct response {
    uint32_t cmd, status, nwords;
    uint32_t words[WEFT_OSIF_MAX_ARGS + 1]; /* a burst get's words and its burst_end */
} response_t;

/* Like the slot's OSIF client, wait while the request FIFO is full: a request may be
 * longer than the FIFO, and the delegate reads it as it arrives. */
static void push(uint32_t word)
{
    struct timespec nap = {0, 100000};
    int rc, naps = 0;
    while ((rc = fake_hw_push(fake, SLOT, word)) == -ENOSPC && naps++ < WAIT_MS * 10)
        nanosleep(&nap, NULL);
    if (rc != 0)
        fail("pushing a request word: %s (the thread ended or stopped reading)", strerror(-rc));
}

static const char *ended_how(weft_hwthread_t *t)
{
    static weft_exit_status_t st;
    if (weft_hwthread_timedjoin(t, &st, 0) != 0)
        return "the thread still runs";
    return st.message;
}

static void collect(weft_hwthread_t *t, response_t *r)
{
    uint32_t hdr;
    if (fake_hw_pop(fake, SLOT, &hdr, WAIT_MS) != 0)
        fail("no response within %d ms (%s)", WAIT_MS, ended_how(t));
    r->cmd = hdr >> WEFT_OSIF_RESP_CMD_SHIFT & WEFT_OSIF_RESP_CMD_MASK;
    r->status = hdr >> WEFT_OSIF_RESP_STATUS_SHIFT & WEFT_OSIF_RESP_STATUS_MASK;
    r->nwords = hdr >> WEFT_OSIF_RESP_NWORDS_SHIFT & WEFT_OSIF_RESP_NWORDS_MASK;
    /* No response is longer than a burst get's: its count and burst_end. */
    if (r->nwords > WEFT_OSIF_MAX_ARGS + 1)
        fail("response header 0x%08x announces %u words", hdr, r->nwords);
    for (uint32_t i = 0; i < r->nwords; i++)
        if (fake_hw_pop(fake, SLOT, &r->words[i], WAIT_MS) != 0)
            fail("response announced %u words, %u arrived", r->nwords, i);
}

/* The thread must end as kind (with value, for NORMAL and YIELDED) within WAIT_MS. */
static void expect_end(weft_hwthread_t *t, weft_exit_kind_t kind, uint32_t value)
{
    weft_exit_status_t st;
    if (weft_hwthread_timedjoin(t, &st, WAIT_MS) != 0)
        fail("the thread did not end within %d ms (expected kind %d)", WAIT_MS, (int)kind);
    if (st.kind != kind)
        fail("the thread ended as kind %d, expected %d: %s", (int)st.kind, (int)kind, st.message);
    if ((kind == WEFT_EXIT_NORMAL || kind == WEFT_EXIT_YIELDED) && st.value != value)
        fail("the thread ended with value 0x%08x, expected 0x%08x", st.value, value);
}

static void want(const response_t *r, uint32_t status)
{
    if (r->status != status)
        fail("status %s, the model expects %s", weft_osif_status_name(r->status),
             weft_osif_status_name(status));
}

/* A call that would block: CANCELED (YIELD is pending), or TIMEDOUT for a timed one. */
static void want_blocked(const response_t *r, const weft_osif_cmd_info_t *info)
{
    if (r->status != WEFT_OSIF_CANCELED &&
        !((info->code & 0x80u) && r->status == WEFT_OSIF_TIMEDOUT))
        fail("status %s for a call that would block, expected CANCELED",
             weft_osif_status_name(r->status));
}

static void want_words(const response_t *r, unsigned n, uint32_t w0, uint32_t w1)
{
    uint32_t w[2] = {w0, w1};
    if (r->nwords != n)
        fail("%u result words, expected %u", r->nwords, n);
    for (unsigned i = 0; i < n && i < 2; i++)
        if (r->words[i] != w[i])
            fail("result word %u is 0x%08x, expected 0x%08x", i, r->words[i], w[i]);
}

/* A burst's answer: nwords result words, the last its burst_end: every word moved, or
 * ended by the pending YIELD (or a timed call's timeout) after `moved` of them. */
static void want_burst_end(const response_t *r, unsigned nwords, const weft_osif_cmd_info_t *info,
                           unsigned moved, unsigned n)
{
    if (r->nwords != nwords)
        fail("burst: %u result words, expected %u", r->nwords, nwords);
    uint32_t end = r->words[nwords - 1];
    uint32_t status = end >> WEFT_OSIF_BURST_END_STATUS_SHIFT & WEFT_OSIF_BURST_END_STATUS_MASK;
    uint32_t got = end >> WEFT_OSIF_BURST_END_MOVED_SHIFT & WEFT_OSIF_BURST_END_MOVED_MASK;
    int ok = moved == n ? status == WEFT_OSIF_OK
                        : status == WEFT_OSIF_CANCELED ||
                              ((info->code & 0x80u) && status == WEFT_OSIF_TIMEDOUT);
    if (!ok || got != moved)
        fail("burst_end 0x%08x: %s after %u words, expected %u of %u moved", end,
             weft_osif_status_name(status), got, moved, n);
}

/* Check an accepted call's answer against the model and update it. */
static void model_call(world_t *w, const osif_expect_t *e, const uint32_t *args,
                       const response_t *r)
{
    const weft_osif_cmd_info_t *info = e->info;
    void *obj = w->res[e->handle].object;

    if (e->res >= 0 && w->res[e->res].type == WEFT_RES_LINK) {
        /* Every mailbox call on a link that reaches software: the static region serves
         * the ones in the link's direction, so this one goes the wrong way (and on the
         * fake platform, which serves none, so does every other one). */
        want(r, WEFT_OSIF_PERM);
        return;
    }

    switch (info->code) {
    case WEFT_OSIF_CMD_SEM_POST:
        want(r, WEFT_OSIF_OK);
        w->sem_count++;
        break;
    case WEFT_OSIF_CMD_SEM_WAIT:
    case WEFT_OSIF_CMD_SEM_TIMEDWAIT:
        if (w->sem_count > 0) {
            want(r, WEFT_OSIF_OK);
            w->sem_count--;
        } else {
            want_blocked(r, info);
        }
        break;
    case WEFT_OSIF_CMD_MUTEX_LOCK:
    case WEFT_OSIF_CMD_MUTEX_TIMEDLOCK: {
        int m = mutex_index(w, obj);
        if (w->held[m] == 0 || m == MUTEX_RECURSIVE) {
            want(r, WEFT_OSIF_OK);
            w->held[m]++;
        } else {
            want(r, WEFT_OSIF_INTERNAL); /* would deadlock the delegate on itself */
        }
        break;
    }
    case WEFT_OSIF_CMD_MUTEX_TRYLOCK: {
        int m = mutex_index(w, obj);
        want(r, w->held[m] ? WEFT_OSIF_BUSY : WEFT_OSIF_OK);
        if (!w->held[m])
            w->held[m] = 1;
        break;
    }
    case WEFT_OSIF_CMD_MUTEX_UNLOCK: {
        int m = mutex_index(w, obj);
        want(r, w->held[m] ? WEFT_OSIF_OK : WEFT_OSIF_PERM);
        if (w->held[m])
            w->held[m]--;
        break;
    }
    case WEFT_OSIF_CMD_COND_WAIT:
    case WEFT_OSIF_CMD_COND_TIMEDWAIT: {
        int m = mutex_index(w, w->res[args[0]].object);
        if (w->held[m] == 0)
            want(r, WEFT_OSIF_PERM);
        else if (r->status != WEFT_OSIF_OK) /* OK: a spurious wake-up, as POSIX allows */
            want_blocked(r, info);
        break;
    }
    case WEFT_OSIF_CMD_COND_SIGNAL:
    case WEFT_OSIF_CMD_COND_BROADCAST:
        want(r, WEFT_OSIF_OK);
        break;
    case WEFT_OSIF_CMD_MBOX_GET:
    case WEFT_OSIF_CMD_MBOX_TIMEDGET:
    case WEFT_OSIF_CMD_MBOX_TRYGET: {
        mbox_model_t *m = mbox_model(w, obj);
        if (m->count > 0) {
            want(r, WEFT_OSIF_OK);
            want_words(r, 1, mbox_pop(m), 0);
        } else if (info->code == WEFT_OSIF_CMD_MBOX_TRYGET) {
            want(r, WEFT_OSIF_AGAIN);
        } else {
            want_blocked(r, info);
        }
        break;
    }
    case WEFT_OSIF_CMD_MBOX_PUT:
    case WEFT_OSIF_CMD_MBOX_TIMEDPUT:
    case WEFT_OSIF_CMD_MBOX_TRYPUT: {
        mbox_model_t *m = mbox_model(w, obj);
        if (m->count < m->cap) {
            want(r, WEFT_OSIF_OK);
            mbox_push(m, args[0]);
        } else if (info->code == WEFT_OSIF_CMD_MBOX_TRYPUT) {
            want(r, WEFT_OSIF_AGAIN);
        } else {
            want_blocked(r, info);
        }
        break;
    }
    /* Bursts move what they can (the room, the words waiting) and then end: OK with a
     * burst_end that says CANCELED and how many moved, or CANCELED when none could. */
    case WEFT_OSIF_CMD_MBOX_PUT_BURST:
    case WEFT_OSIF_CMD_MBOX_TIMEDPUT_BURST: {
        mbox_model_t *m = mbox_model(w, obj);
        unsigned n = e->nargs - info->nargs, moved = m->cap - m->count < n ? m->cap - m->count : n;
        if (moved == 0) {
            want_blocked(r, info);
        } else {
            want(r, WEFT_OSIF_OK);
            for (unsigned i = 0; i < moved; i++)
                mbox_push(m, args[info->nargs + i]);
            want_burst_end(r, 1, info, moved, n);
        }
        break;
    }
    case WEFT_OSIF_CMD_MBOX_GET_BURST:
    case WEFT_OSIF_CMD_MBOX_TIMEDGET_BURST: {
        mbox_model_t *m = mbox_model(w, obj);
        unsigned n = args[0], moved = m->count < n ? m->count : n;
        if (moved == 0) {
            want_blocked(r, info);
        } else {
            want(r, WEFT_OSIF_OK);
            want_burst_end(r, n + 1, info, moved, n);
            for (unsigned i = 0; i < n; i++) {
                uint32_t v = i < moved ? mbox_pop(m) : 0;
                if (r->words[i] != v)
                    fail("burst get: word %u is 0x%08x, expected 0x%08x", i, r->words[i], v);
            }
        }
        break;
    }
    case WEFT_OSIF_CMD_MQ_SEND:
    case WEFT_OSIF_CMD_MQ_TIMEDSEND: {
        uint32_t len = weft_mq_info_length(args[0]), prio = weft_mq_info_prio(args[0]);
        if (len > MQ_MSGSIZE) {
            want(r, WEFT_OSIF_MSGSIZE);
        } else if ((long)prio >= mq_prio_max) {
            want(r, WEFT_OSIF_INTERNAL); /* mq_send: EINVAL */
        } else if (w->nmsgs == MQ_MAXMSG) {
            want_blocked(r, info);
        } else {
            want(r, WEFT_OSIF_OK);
            mq_model_send(w, len, prio, args + info->nargs);
        }
        break;
    }
    case WEFT_OSIF_CMD_MQ_RECEIVE:
    case WEFT_OSIF_CMD_MQ_TIMEDRECEIVE: {
        if (args[0] < MQ_MSGSIZE) {
            want(r, WEFT_OSIF_MSGSIZE);
        } else if (w->nmsgs == 0) {
            want_blocked(r, info);
        } else {
            want(r, WEFT_OSIF_OK);
            unsigned k = mq_next(w);
            const msg_t *m = &w->msgs[k];
            if (r->nwords != 1 + (m->len + 3) / 4)
                fail("MQ receive: %u words for a %u-byte message", r->nwords, m->len);
            if (r->words[0] != weft_mq_info(m->len, m->prio))
                fail("MQ receive: msg_info 0x%08x, expected length %u priority %u", r->words[0],
                     m->len, m->prio);
            for (uint32_t i = 0; i < (m->len + 3) / 4 * 4; i++) {
                uint8_t b = (uint8_t)(r->words[1 + i / 4] >> (8 * (i % 4)));
                if (b != (i < m->len ? m->bytes[i] : 0))
                    fail("MQ receive: byte %u is 0x%02x", i, b);
            }
            memmove(&w->msgs[k], &w->msgs[k + 1], (--w->nmsgs - k) * sizeof *m);
        }
        break;
    }
    /* Messages in memory: the fuzzed thread has no memory window, so every one that
     * passes the length checks names memory it was not granted. */
    case WEFT_OSIF_CMD_MQ_SEND_MEM:
    case WEFT_OSIF_CMD_MQ_TIMEDSEND_MEM:
        want(r, weft_mq_info_length(args[0]) > MQ_MSGSIZE ? WEFT_OSIF_MSGSIZE : WEFT_OSIF_BADADDR);
        break;
    case WEFT_OSIF_CMD_MQ_RECEIVE_MEM:
    case WEFT_OSIF_CMD_MQ_TIMEDRECEIVE_MEM:
        want(r, args[0] < MQ_MSGSIZE ? WEFT_OSIF_MSGSIZE : WEFT_OSIF_BADADDR);
        break;
    case WEFT_OSIF_CMD_GET_INIT_DATA:
        want(r, WEFT_OSIF_OK);
        want_words(r, 1, w->init_data, 0);
        break;
    case WEFT_OSIF_CMD_THREAD_CHECK:
        want(r, WEFT_OSIF_OK);
        want_words(r, 1, WEFT_SIGNAL_YIELD, 0);
        break;
    case WEFT_OSIF_CMD_GET_RESUME_STATE:
        want(r, WEFT_OSIF_OK);
        want_words(r, 2, w->resume ? 1u : 0u, w->resume ? w->resume_state : 0u);
        break;
    default:
        break; /* a command newer than this model: the generic checks only */
    }
}

/* Serve one whole request; returns 1 when the thread has ended. */
static int play_request(world_t *w, weft_hwthread_t *t, const uint32_t *req)
{
    const uint32_t *args = req + 1;
    osif_expect_t e;
    osif_spec(req[0], args, w->res, w->num_res, &e);
    unsigned lines = atomic_load(&log_lines);
    for (unsigned i = 0; i <= e.nargs; i++)
        push(req[i]);

    if (e.verdict == WEFT_OSIF_ACCEPT &&
        (e.info->code == WEFT_OSIF_CMD_THREAD_EXIT || e.info->code == WEFT_OSIF_CMD_THREAD_YIELD)) {
        expect_end(t,
                   e.info->code == WEFT_OSIF_CMD_THREAD_EXIT ? WEFT_EXIT_NORMAL : WEFT_EXIT_YIELDED,
                   args[0]);
        return 1;
    }

    response_t r;
    collect(t, &r);
    if (trace) {
        fprintf(stderr, "fuzz_delegate: request %u: %s handle %u, %u args (0x%08x): %s",
                cur_request, e.info ? e.info->name : "(unknown)", e.handle, e.nargs, req[0],
                weft_osif_status_name(r.status));
        for (unsigned i = 0; i < r.nwords && i < 4; i++)
            fprintf(stderr, " 0x%08x", r.words[i]);
        if (r.nwords > 4)
            fprintf(stderr, " ... (%u words)", r.nwords);
        fputc('\n', stderr);
    }
    if (r.cmd != e.cmd)
        fail("response echoes command 0x%02x", r.cmd);
    if (r.status > WEFT_OSIF_BADADDR)
        fail("unknown status %u", r.status);
    if (r.status != WEFT_OSIF_OK && r.nwords != 0)
        fail("status %s with %u result words", weft_osif_status_name(r.status), r.nwords);
    if (r.status == WEFT_OSIF_OK) {
        if (e.verdict != WEFT_OSIF_ACCEPT)
            fail("OK for a request the documentation rejects with %s",
                 weft_osif_status_name(e.status));
        /* The model checks a variadic response's exact length. */
        unsigned least = e.info->nresults;
        unsigned most = e.info->variadic_results ? WEFT_OSIF_MAX_ARGS + 1 : least;
        if (r.nwords < least || r.nwords > most)
            fail("OK with %u result words, %s has %u", r.nwords, e.info->name, least);
    }
    if (fake_hw2sw_count(fake, SLOT) != 0)
        fail("answered before reading the whole request");

    if (e.verdict == WEFT_OSIF_REJECT) {
        if (r.status != e.status)
            fail("status %s, the documentation says %s", weft_osif_status_name(r.status),
                 weft_osif_status_name(e.status));
    } else {
        model_call(w, &e, args, &r);
    }

    /* One log line for a rejection and for an answer that points at a bug of the thread
     * or of the runtime (PERM, INTERNAL); none for success or for what a thread has to
     * expect of a call (BUSY, AGAIN, TIMEDOUT, CANCELED, MSGSIZE). */
    unsigned logged = atomic_load(&log_lines) - lines;
    int loud = e.verdict == WEFT_OSIF_REJECT || r.status == WEFT_OSIF_PERM ||
               r.status == WEFT_OSIF_INTERNAL || r.status == WEFT_OSIF_BADADDR;
    if (logged != (loud ? 1u : 0u))
        fail("status %s made %u log lines, not %u", weft_osif_status_name(r.status), logged,
             loud ? 1u : 0u);
    if (loud)
        check_error_line(&e, r.status);
    return 0;
}

/* The request stream the input describes (see the top of the file). */
static unsigned build_stream(fuzz_input_t *in, const world_t *w, uint32_t *words)
{
    unsigned n = 0;
    for (unsigned k = 0; k < MAX_REQUESTS && fuzz_more(in); k++) {
        uint8_t mode = fuzz_u8(in);
        if (mode & 0x40) {
            words[n++] = fuzz_u32(in);
            continue;
        }
        fuzz_request_t r;
        fuzz_request(in, mode, w->res, w->num_res, &r);
        words[n++] = r.header;
        for (unsigned i = 0; i < r.nargs; i++)
            words[n++] = r.args[i];
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint32_t words[MAX_REQUESTS * (1u + WEFT_OSIF_MAX_ARGS)];
    fuzz_input_t in = {data, size, 0};
    uint8_t layout = fuzz_u8(&in), start = fuzz_u8(&in);
    world_t *w = world_new(layout, start);
    unsigned n = build_stream(&in, w, words);
    cur_request = 0;
    cur_header = 0;

    weft_hwthread_attr_t a = {.name = THREAD_NAME,
                              .image = "fuzz_thread.so",
                              .slot = SLOT,
                              .resources = w->res,
                              .num_resources = w->num_res,
                              .init_data = w->init_data,
                              .resume = w->resume,
                              .resume_state = w->resume_state};
    weft_hwthread_t *t = NULL;
    int rc = weft_hwthread_create(runtime, &t, &a);
    if (rc != 0)
        fail("weft_hwthread_create: %s", strerror(-rc));
    rc = weft_hwthread_signal(t, WEFT_SIGNAL_YIELD);
    if (rc != 0)
        fail("weft_hwthread_signal: %s", strerror(-rc));

    /* Follow the framing as the delegate must: a header, then the words it announces. */
    unsigned pos = 0, served = 0;
    int ended = 0;
    while (pos < n && !ended) {
        cur_request = served;
        cur_header = words[pos];
        unsigned nargs = words[pos] >> WEFT_OSIF_REQ_NARGS_SHIFT & WEFT_OSIF_REQ_NARGS_MASK;
        uint32_t cmd = words[pos] >> WEFT_OSIF_REQ_CMD_SHIFT & WEFT_OSIF_REQ_CMD_MASK;
        if (n - pos - 1 < nargs) {
            /* Unfinished at the end of the input: staged in part, never answered (the
             * fake stages a word as it is pushed, and no sequence number follows). */
            while (pos < n)
                push(words[pos++]);
            uint32_t stray;
            if (fake_hw_pop(fake, SLOT, &stray, 0) == 0)
                fail("answered an unfinished request (0x%08x)", stray);
            if (weft_hwthread_timedjoin(t, NULL, 0) == 0)
                fail("the thread ended on an unfinished request: %s", ended_how(t));
        } else if (weft_osif_cmd_lookup(cmd) && !osif_spec_knows(cmd)) {
            /* A command newer than the model: without its semantics the harness cannot
             * tell a legitimate block from a hang, so it is left out. */
            pos += 1 + nargs;
        } else {
            ended = play_request(w, t, &words[pos]);
            pos += 1 + nargs;
            served++;
        }
    }

    weft_hwthread_stats_t stats;
    if (weft_hwthread_stats(t, &stats) != 0)
        fail("weft_hwthread_stats");
    if (stats.calls != served)
        fail("the delegate counted %llu calls, %u were made", (unsigned long long)stats.calls,
             served);
    if (weft_hwthread_destroy(t) != 0)
        fail("weft_hwthread_destroy");
    if (atomic_load(&log_foreign))
        fail("a log line does not name the thread and its slot");
    world_check_and_free(w);
    return 0;
}

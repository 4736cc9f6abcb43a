/*
 * Thread timelines: record each thread's running and blocked spans, OS calls and
 * instants, and write them as a Chrome trace (JSON object format) with jansson.
 *
 * One lock guards a recording. It is held only to find the calling thread's track (a
 * short scan) and append one fixed-size record; the fabric cycle counter a hardware call
 * carries is read before it is taken, and the file is written from a copy. A relaxed
 * atomic flag is all a recording call looks at while nothing is recorded.
 *
 * A track keeps the span it is in (running or blocked since some time); a record is
 * appended when that span ends. Spans still open when the trace is written are written
 * closed at that time, flagged open.
 */
#define _POSIX_C_SOURCE 200809L
#include "weft/trace.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "deadline.h"
#include "weft_internal.h"

/** What a record is. */
enum ev_kind {
    EV_RUNNING = 0, /**< a running span */
    EV_BLOCKED = 1, /**< a blocked span: a software thread's call or a hardware OS call */
    EV_INSTANT = 2, /**< lifecycle instant of a hardware thread, or a mark */
    EV_MARK = 3,    /**< weft_trace_mark() */
};

/** Which optional fields of a record hold something. */
enum ev_flags {
    EV_HW_CALL = 1u << 0, /**< cmd and handle: a hardware thread's OS call */
    EV_STATUS = 1u << 1,  /**< status: the call was answered */
    EV_CYCLES = 1u << 2,  /**< cyc0, cyc1: fabric cycles at both ends */
    EV_VALUE = 1u << 3,   /**< value: an exit value or yield state */
    EV_OPEN = 1u << 4, /**< the span had not ended; closed when the trace was stopped or written */
};

/** One record, fixed size. Times in ns since the recording started. */
typedef struct trace_event {
    int64_t ts, dur;
    uint64_t cyc0, cyc1;
    uint32_t track; /**< index into tracks */
    uint32_t value;
    uint8_t kind, flags, cmd, status;
    uint16_t handle;
    char name[WEFT_TRACE_NAME_MAX]; /**< software call, instant or mark text */
} trace_event_t;

/** Which span a track is in. */
enum track_state { TS_NONE = 0, TS_RUNNING, TS_BLOCKED };

/** A thread's track: a software thread (keyed by its pthread) or a hardware thread (keyed
 *  by its object until it ends, so a later thread at the same address gets its own). */
typedef struct trace_track {
    bool hw, ended;
    pthread_t thread;
    const weft_hwthread_t *hwt;
    unsigned seq; /**< place in its group (software or hardware), in order of appearance */
    char name[WEFT_NAME_MAX + 16];
    /* The span the track is in. */
    uint8_t state, cmd;
    uint16_t handle;
    bool have_cyc;
    int64_t since;
    uint64_t cyc_since;
    char call[WEFT_TRACE_NAME_MAX];
} trace_track_t;

struct weft_trace {
    atomic_bool on; /**< written under lock, read anywhere */
    pthread_mutex_t lock;
    bool recorded; /**< a recording has been started since weft_init() */
    int64_t t0;    /**< CLOCK_MONOTONIC ns at start */
    trace_event_t *ev;
    size_t n, cap, max;
    uint64_t dropped;
    trace_track_t *tracks;
    unsigned ntracks, tracks_cap, nsw, nhw;
};

static int64_t mono_ns(void)
{
    return (int64_t)weft_mono_ns();
}

/* Copy a caller's string, bounded; NULL reads as "?". */
static void copy_name(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src ? src : "?");
}

int weft_trace_init(weft_t *w)
{
    struct weft_trace *tr = calloc(1, sizeof *tr);
    if (!tr)
        return -ENOMEM;
    if (pthread_mutex_init(&tr->lock, NULL) != 0) {
        free(tr);
        return -ENOMEM;
    }
    atomic_init(&tr->on, false);
    w->trace = tr;
    return 0;
}

void weft_trace_fini(weft_t *w)
{
    struct weft_trace *tr = w->trace;
    if (!tr)
        return;
    pthread_mutex_destroy(&tr->lock);
    free(tr->ev);
    free(tr->tracks);
    free(tr);
    w->trace = NULL;
}

/* Whether anything is recorded now: the only cost of a recording call while nothing is. */
static struct weft_trace *recording(const weft_t *w)
{
    if (!w || !w->trace || !atomic_load_explicit(&w->trace->on, memory_order_relaxed))
        return NULL;
    return w->trace;
}

/* ---- recording (caller holds tr->lock and has checked tr->on) ------------------------- */

static trace_event_t *append(struct weft_trace *tr)
{
    if (tr->n == tr->max) {
        tr->dropped++;
        return NULL;
    }
    if (tr->n == tr->cap) {
        size_t cap = tr->cap ? tr->cap * 2 : 1024;
        if (cap > tr->max)
            cap = tr->max;
        trace_event_t *ev = realloc(tr->ev, cap * sizeof *ev);
        if (!ev) {
            tr->dropped++;
            return NULL;
        }
        tr->ev = ev;
        tr->cap = cap;
    }
    trace_event_t *e = &tr->ev[tr->n++];
    memset(e, 0, sizeof *e);
    return e;
}

/* A new track in the span state given, or NULL (counted as dropped) when there is no room. */
static trace_track_t *track_new(struct weft_trace *tr, bool hw, int64_t now)
{
    if (tr->ntracks == WEFT_TRACE_MAX_TRACKS) {
        tr->dropped++;
        return NULL;
    }
    if (tr->ntracks == tr->tracks_cap) {
        unsigned cap = tr->tracks_cap ? tr->tracks_cap * 2 : 16;
        trace_track_t *tracks = realloc(tr->tracks, cap * sizeof *tracks);
        if (!tracks) {
            tr->dropped++;
            return NULL;
        }
        tr->tracks = tracks;
        tr->tracks_cap = cap;
    }
    trace_track_t *k = &tr->tracks[tr->ntracks++];
    memset(k, 0, sizeof *k);
    k->hw = hw;
    k->seq = hw ? tr->nhw++ : tr->nsw++;
    k->state = TS_NONE;
    k->since = now;
    return k;
}

/* The calling software thread's track; created (not running yet) if create is set. */
static trace_track_t *track_sw(struct weft_trace *tr, bool create, int64_t now)
{
    pthread_t self = pthread_self();
    for (unsigned i = 0; i < tr->ntracks; i++) {
        trace_track_t *k = &tr->tracks[i];
        if (!k->hw && !k->ended && pthread_equal(k->thread, self))
            return k;
    }
    if (!create)
        return NULL;
    trace_track_t *k = track_new(tr, false, now);
    if (k) {
        k->thread = self;
        snprintf(k->name, sizeof k->name, "thread %u", k->seq);
    }
    return k;
}

static trace_track_t *track_hw_find(struct weft_trace *tr, const weft_hwthread_t *t)
{
    for (unsigned i = 0; i < tr->ntracks; i++) {
        trace_track_t *k = &tr->tracks[i];
        if (k->hw && !k->ended && k->hwt == t)
            return k;
    }
    return NULL;
}

/* A hardware thread's track, created here when the recording began after the thread did. */
static trace_track_t *track_hw(struct weft_trace *tr, const weft_hwthread_t *t, int64_t now)
{
    trace_track_t *k = track_hw_find(tr, t);
    if (k)
        return k;
    k = track_new(tr, true, now);
    if (k) {
        k->hwt = t;
        snprintf(k->name, sizeof k->name, "%s (slot %u)", t->name, t->slot);
    }
    return k;
}

/* Record the span track k is in as ending at now (cycles at the end: cyc, if have_cyc),
 * and leave k in no span. Returns the record, or NULL when there was no span or no room. */
static trace_event_t *span_close(struct weft_trace *tr, trace_track_t *k, int64_t now,
                                 bool have_cyc, uint64_t cyc, unsigned flags)
{
    uint8_t state = k->state;
    k->state = TS_NONE;
    if (state == TS_NONE)
        return NULL;
    trace_event_t *e = append(tr);
    if (!e)
        return NULL;
    e->kind = state == TS_RUNNING ? EV_RUNNING : EV_BLOCKED;
    e->track = (uint32_t)(k - tr->tracks);
    e->ts = k->since;
    e->dur = now > k->since ? now - k->since : 0;
    e->flags = (uint8_t)flags;
    if (k->have_cyc && have_cyc) {
        e->flags |= EV_CYCLES;
        e->cyc0 = k->cyc_since;
        e->cyc1 = cyc;
    }
    if (state == TS_BLOCKED) {
        if (k->hw) {
            e->flags |= EV_HW_CALL;
            e->cmd = k->cmd;
            e->handle = k->handle;
        } else {
            memcpy(e->name, k->call, sizeof e->name);
        }
    }
    return e;
}

static void span_open(trace_track_t *k, uint8_t state, int64_t now, bool have_cyc, uint64_t cyc)
{
    k->state = state;
    k->since = now;
    k->have_cyc = have_cyc;
    k->cyc_since = cyc;
}

static trace_event_t *instant(struct weft_trace *tr, trace_track_t *k, uint8_t kind, int64_t now,
                              const char *name)
{
    trace_event_t *e = append(tr);
    if (!e)
        return NULL;
    e->kind = kind;
    e->track = (uint32_t)(k - tr->tracks);
    e->ts = now;
    copy_name(e->name, sizeof e->name, name);
    return e;
}

/* Lock a recording; NULL (nothing locked) when it is off. Returns the time of the event. */
static struct weft_trace *lock_on(struct weft_trace *tr, int64_t *now)
{
    pthread_mutex_lock(&tr->lock);
    if (!atomic_load_explicit(&tr->on, memory_order_relaxed)) {
        pthread_mutex_unlock(&tr->lock);
        return NULL;
    }
    /* Read under the lock: the events of one track are in time order. */
    *now = mono_ns() - tr->t0;
    return tr;
}

/* ---- hooks of the hardware-thread lifecycle and the delegate ------------------------- */

/* Fabric cycles now, for a hardware call's arguments; false when unreadable. */
static bool fabric_cycles(weft_hwthread_t *t, uint64_t *cyc)
{
    return weft_fabric_cycles(t->w, cyc) == 0;
}

void weft_trace_hw_created(weft_hwthread_t *t)
{
    struct weft_trace *tr = recording(t->w);
    if (!tr)
        return;
    uint64_t cyc = 0;
    bool have = fabric_cycles(t, &cyc);
    int64_t now;
    if (!lock_on(tr, &now))
        return;
    trace_track_t *k = track_hw_find(tr, t);
    if (k) {
        /* A track left by an earlier thread at the same address: that one has ended. */
        span_close(tr, k, now, false, 0, EV_OPEN);
        k->ended = true;
    }
    k = track_hw(tr, t, now);
    if (k) {
        instant(tr, k, EV_INSTANT, now, "created");
        span_open(k, TS_RUNNING, now, have, cyc);
    }
    pthread_mutex_unlock(&tr->lock);
}

void weft_trace_hw_call(weft_hwthread_t *t, uint8_t cmd, uint16_t handle)
{
    struct weft_trace *tr = recording(t->w);
    if (!tr)
        return;
    uint64_t cyc = 0;
    bool have = fabric_cycles(t, &cyc);
    int64_t now;
    if (!lock_on(tr, &now))
        return;
    trace_track_t *k = track_hw(tr, t, now);
    if (k) {
        span_close(tr, k, now, have, cyc, 0);
        span_open(k, TS_BLOCKED, now, have, cyc);
        k->cmd = cmd;
        k->handle = handle;
    }
    pthread_mutex_unlock(&tr->lock);
}

void weft_trace_hw_served(weft_hwthread_t *t, uint8_t status)
{
    struct weft_trace *tr = recording(t->w);
    if (!tr)
        return;
    uint64_t cyc = 0;
    bool have = fabric_cycles(t, &cyc);
    int64_t now;
    if (!lock_on(tr, &now))
        return;
    trace_track_t *k = track_hw(tr, t, now);
    if (k) {
        trace_event_t *e =
            k->state == TS_BLOCKED ? span_close(tr, k, now, have, cyc, EV_STATUS) : NULL;
        if (e)
            e->status = status;
        span_open(k, TS_RUNNING, now, have, cyc);
    }
    pthread_mutex_unlock(&tr->lock);
}

void weft_trace_hw_ended(weft_hwthread_t *t, weft_exit_kind_t kind, uint32_t value)
{
    struct weft_trace *tr = recording(t->w);
    if (!tr)
        return;
    uint64_t cyc = 0;
    bool have = fabric_cycles(t, &cyc);
    int64_t now;
    if (!lock_on(tr, &now))
        return;
    trace_track_t *k = track_hw(tr, t, now);
    if (k) {
        span_close(tr, k, now, have, cyc, 0);
        static const char *const names[] = {"exit", "fault", "stopped", "yield"};
        trace_event_t *e =
            instant(tr, k, EV_INSTANT, now, (unsigned)kind < 4 ? names[kind] : "ended");
        if (e && (kind == WEFT_EXIT_NORMAL || kind == WEFT_EXIT_YIELDED)) {
            e->flags |= EV_VALUE;
            e->value = value;
        }
        k->ended = true;
    }
    pthread_mutex_unlock(&tr->lock);
}

/* ---- the public calls ---------------------------------------------------------------- */

int weft_trace_start_max(weft_t *w, size_t max_events)
{
    if (!w || !w->trace || max_events == 0)
        return -EINVAL;
    struct weft_trace *tr = w->trace;
    pthread_mutex_lock(&tr->lock);
    if (atomic_load_explicit(&tr->on, memory_order_relaxed)) {
        pthread_mutex_unlock(&tr->lock);
        return -EALREADY;
    }
    free(tr->ev);
    tr->ev = NULL;
    tr->n = tr->cap = 0;
    tr->max = max_events;
    tr->dropped = 0;
    tr->ntracks = tr->nsw = tr->nhw = 0;
    tr->recorded = true;
    tr->t0 = mono_ns();
    atomic_store_explicit(&tr->on, true, memory_order_relaxed);
    pthread_mutex_unlock(&tr->lock);
    return 0;
}

int weft_trace_start(weft_t *w)
{
    return weft_trace_start_max(w, WEFT_TRACE_MAX_EVENTS);
}

void weft_trace_stop(weft_t *w)
{
    if (!w || !w->trace)
        return;
    int64_t now;
    struct weft_trace *tr = lock_on(w->trace, &now);
    if (!tr)
        return;
    for (unsigned i = 0; i < tr->ntracks; i++)
        span_close(tr, &tr->tracks[i], now, false, 0, EV_OPEN);
    atomic_store_explicit(&tr->on, false, memory_order_relaxed);
    pthread_mutex_unlock(&tr->lock);
}

void weft_trace_thread_name(weft_t *w, const char *name)
{
    struct weft_trace *tr = recording(w);
    int64_t now;
    if (!tr || !lock_on(tr, &now))
        return;
    trace_track_t *k = track_sw(tr, true, now);
    if (k) {
        copy_name(k->name, WEFT_TRACE_NAME_MAX, name); /* the documented bound */
        if (k->state == TS_NONE)
            span_open(k, TS_RUNNING, now, false, 0);
    }
    pthread_mutex_unlock(&tr->lock);
}

void weft_trace_begin(weft_t *w, const char *call)
{
    struct weft_trace *tr = recording(w);
    int64_t now;
    if (!tr || !lock_on(tr, &now))
        return;
    trace_track_t *k = track_sw(tr, true, now);
    if (k) {
        span_close(tr, k, now, false, 0, 0);
        span_open(k, TS_BLOCKED, now, false, 0);
        copy_name(k->call, sizeof k->call, call);
    }
    pthread_mutex_unlock(&tr->lock);
}

void weft_trace_end(weft_t *w)
{
    struct weft_trace *tr = recording(w);
    int64_t now;
    if (!tr || !lock_on(tr, &now))
        return;
    trace_track_t *k = track_sw(tr, false, now);
    if (k && k->state == TS_BLOCKED) {
        span_close(tr, k, now, false, 0, 0);
        span_open(k, TS_RUNNING, now, false, 0);
    }
    pthread_mutex_unlock(&tr->lock);
}

void weft_trace_mark(weft_t *w, const char *what)
{
    struct weft_trace *tr = recording(w);
    int64_t now;
    if (!tr || !lock_on(tr, &now))
        return;
    trace_track_t *k = track_sw(tr, true, now);
    if (k)
        instant(tr, k, EV_MARK, now, what);
    pthread_mutex_unlock(&tr->lock);
}

void weft_trace_thread_exit(weft_t *w)
{
    struct weft_trace *tr = recording(w);
    int64_t now;
    if (!tr || !lock_on(tr, &now))
        return;
    trace_track_t *k = track_sw(tr, false, now);
    if (k) {
        span_close(tr, k, now, false, 0, 0);
        instant(tr, k, EV_INSTANT, now, "exit");
        k->ended = true; /* a later thread with the same pthread_t gets a track of its own */
    }
    pthread_mutex_unlock(&tr->lock);
}

/* ---- writing ------------------------------------------------------------------------- */

/** What weft_trace_write() encodes: a copy, so recording goes on meanwhile. */
typedef struct snapshot {
    trace_event_t *ev;
    size_t n;
    trace_track_t *tracks;
    unsigned ntracks;
    size_t max;
    uint64_t dropped;
    bool on;
} snapshot_t;

/* Copy the recording, and close each open span at now into the copy. */
static int snapshot_take(struct weft_trace *tr, snapshot_t *s)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&tr->lock);
    if (!tr->recorded) {
        pthread_mutex_unlock(&tr->lock);
        return -ENODATA;
    }
    s->on = atomic_load_explicit(&tr->on, memory_order_relaxed);
    s->n = tr->n;
    s->ntracks = tr->ntracks;
    s->max = tr->max;
    s->dropped = tr->dropped;
    s->ev = malloc((tr->n + tr->ntracks + 1) * sizeof *s->ev);
    s->tracks = malloc((tr->ntracks + 1) * sizeof *s->tracks);
    if (!s->ev || !s->tracks) {
        pthread_mutex_unlock(&tr->lock);
        free(s->ev);
        free(s->tracks);
        return -ENOMEM;
    }
    if (tr->n)
        memcpy(s->ev, tr->ev, tr->n * sizeof *s->ev);
    if (tr->ntracks)
        memcpy(s->tracks, tr->tracks, tr->ntracks * sizeof *s->tracks);
    const int64_t now = mono_ns() - tr->t0; /* used only while on: stop closes every span */
    pthread_mutex_unlock(&tr->lock);

    /* Open spans, closed now in the copy only (a stopped recording has none). */
    for (unsigned i = 0; i < s->ntracks; i++) {
        trace_track_t *k = &s->tracks[i];
        if (k->state == TS_NONE)
            continue;
        trace_event_t *e = &s->ev[s->n++];
        memset(e, 0, sizeof *e);
        e->kind = k->state == TS_RUNNING ? EV_RUNNING : EV_BLOCKED;
        e->track = i;
        e->ts = k->since;
        e->dur = now > k->since ? now - k->since : 0;
        e->flags = EV_OPEN;
        if (k->state == TS_BLOCKED && k->hw) {
            e->flags |= EV_HW_CALL;
            e->cmd = k->cmd;
            e->handle = k->handle;
        } else if (k->state == TS_BLOCKED) {
            memcpy(e->name, k->call, sizeof e->name);
        }
    }
    return 0;
}

/* A JSON string of a name a caller or an RTL designer chose: bytes that are not valid
 * UTF-8 (or a multi-byte character cut by the bound) become '?'. */
static json_t *name_string(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    char buf[WEFT_NAME_MAX + 16];
    size_t i = 0;
    for (; s[i] && i + 1 < sizeof buf; i++)
        buf[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
    buf[i] = '\0';
    return json_string(buf);
}

static unsigned track_tid(const trace_track_t *k)
{
    /* Software threads first, then hardware threads: Perfetto orders tracks by tid and
     * by thread_sort_index, and both say the same. */
    return k->hw ? 10001u + k->seq : 1u + k->seq;
}

/* Microseconds, as Chrome's ts and dur are. */
static json_t *usec(int64_t ns)
{
    return json_real((double)ns / 1000.0);
}

static json_t *call_name(const trace_event_t *e)
{
    char buf[WEFT_TRACE_NAME_MAX + 16];
    if (e->flags & EV_HW_CALL) {
        const weft_osif_cmd_info_t *info = weft_osif_cmd_lookup(e->cmd);
        if (info)
            snprintf(buf, sizeof buf, "blocked in %s", info->name);
        else
            snprintf(buf, sizeof buf, "blocked in command 0x%02x", e->cmd);
    } else {
        snprintf(buf, sizeof buf, "blocked in %s", e->name);
    }
    return name_string(buf);
}

/* One record as a Chrome trace event. */
static json_t *event_json(const trace_event_t *e, const trace_track_t *k, json_int_t pid)
{
    json_t *o = json_object();
    json_t *args = json_object();
    if (!o || !args) {
        json_decref(o);
        json_decref(args);
        return NULL;
    }
    json_object_set_new(o, "pid", json_integer(pid));
    json_object_set_new(o, "tid", json_integer(track_tid(k)));
    json_object_set_new(o, "ts", usec(e->ts));
    switch (e->kind) {
    case EV_RUNNING:
        json_object_set_new(o, "ph", json_string("X"));
        json_object_set_new(o, "name", json_string("running"));
        json_object_set_new(o, "cat", json_string(k->hw ? "hw" : "sw"));
        json_object_set_new(o, "dur", usec(e->dur));
        break;
    case EV_BLOCKED:
        json_object_set_new(o, "ph", json_string("X"));
        json_object_set_new(o, "name", call_name(e));
        json_object_set_new(o, "cat", json_string(k->hw ? "hw,call" : "sw,call"));
        json_object_set_new(o, "dur", usec(e->dur));
        if (e->flags & EV_HW_CALL) {
            json_object_set_new(args, "cmd", json_integer(e->cmd));
            json_object_set_new(args, "handle", json_integer(e->handle));
        }
        if (e->flags & EV_STATUS)
            json_object_set_new(args, "status", json_string(weft_osif_status_name(e->status)));
        break;
    default: /* EV_INSTANT, EV_MARK */
        json_object_set_new(o, "ph", json_string("i"));
        json_object_set_new(o, "s", json_string("t"));
        json_object_set_new(o, "name", name_string(e->name));
        json_object_set_new(o, "cat", json_string(e->kind == EV_MARK ? "mark" : "lifecycle"));
        if (e->flags & EV_VALUE)
            json_object_set_new(args, "value", json_integer(e->value));
        break;
    }
    if (e->flags & EV_CYCLES) {
        json_object_set_new(args, "cycles_start", json_integer((json_int_t)e->cyc0));
        json_object_set_new(args, "cycles_end", json_integer((json_int_t)e->cyc1));
        json_object_set_new(args, "cycles", json_integer((json_int_t)(e->cyc1 - e->cyc0)));
    }
    if (e->flags & EV_OPEN)
        json_object_set_new(args, "open", json_true());
    if (json_object_size(args) > 0)
        json_object_set_new(o, "args", args);
    else
        json_decref(args);
    return o;
}

/* Metadata events: the process name, and each track's name and place. */
static json_t *metadata_json(const snapshot_t *s, json_int_t pid)
{
    json_t *a = json_array();
    if (!a)
        return NULL;
    json_array_append_new(a, json_pack("{s:s, s:I, s:i, s:s, s:{s:s}}", "ph", "M", "pid", pid,
                                       "tid", 0, "name", "process_name", "args", "name", "Weft"));
    for (unsigned i = 0; i < s->ntracks; i++) {
        const trace_track_t *k = &s->tracks[i];
        json_t *name = name_string(k->name);
        json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:s, s:{s:o}}", "ph", "M", "pid", pid,
                                           "tid", (json_int_t)track_tid(k), "name", "thread_name",
                                           "args", "name", name));
        json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:s, s:{s:I}}", "ph", "M", "pid", pid,
                                           "tid", (json_int_t)track_tid(k), "name",
                                           "thread_sort_index", "args", "sort_index",
                                           (json_int_t)track_tid(k)));
    }
    return a;
}

#define DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

/* Write the file. Up to a million events would be far too many jansson objects at once,
 * so the events array is streamed: every event and the metadata are encoded by jansson
 * (JSON_EMBED leaves out an array's brackets); only the fixed frame, a literal without
 * any data in it, and the separators are written directly. */
static int encode(FILE *f, const snapshot_t *s)
{
    json_int_t pid = (json_int_t)getpid();
    json_t *meta = metadata_json(s, pid);
    json_t *other =
        json_pack("{s:s, s:I, s:I, s:I, s:I, s:b}", "clock",
                  "CLOCK_MONOTONIC, microseconds since weft_trace_start", "events",
                  (json_int_t)s->n, "max_events", (json_int_t)s->max, "dropped_events",
                  (json_int_t)s->dropped, "tracks", (json_int_t)s->ntracks, "recording", s->on);
    int rc = meta && other ? 0 : -ENOMEM;
    if (rc == 0 &&
        (fputs("{\"traceEvents\":[\n", f) < 0 || json_dumpf(meta, f, DUMP_FLAGS | JSON_EMBED) != 0))
        rc = -EIO;
    for (size_t i = 0; i < s->n && rc == 0; i++) {
        json_t *o = event_json(&s->ev[i], &s->tracks[s->ev[i].track], pid);
        if (!o)
            rc = -ENOMEM;
        else if (fputs(",\n", f) < 0 || json_dumpf(o, f, DUMP_FLAGS) != 0)
            rc = -EIO;
        json_decref(o);
    }
    if (rc == 0 && (fputs("\n],\n\"otherData\":", f) < 0 || json_dumpf(other, f, DUMP_FLAGS) != 0 ||
                    fputs("}\n", f) < 0))
        rc = -EIO;
    json_decref(meta);
    json_decref(other);
    return rc;
}

int weft_trace_write(weft_t *w, const char *path)
{
    if (!w || !w->trace || !path)
        return -EINVAL;
    snapshot_t s;
    int rc = snapshot_take(w->trace, &s);
    if (rc != 0)
        return rc;
    FILE *f = fopen(path, "w");
    if (!f) {
        rc = -errno;
    } else {
        errno = 0;
        rc = encode(f, &s);
        if (rc == -EIO && errno != 0)
            rc = -errno;
        if (fclose(f) != 0 && rc == 0)
            rc = errno ? -errno : -EIO;
        if (rc != 0)
            remove(path); /* a partial file is no trace */
    }
    free(s.ev);
    free(s.tracks);
    return rc;
}

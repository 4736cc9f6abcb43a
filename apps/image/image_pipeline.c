/*
 * weft-image: the image-processing case study of the ReconOS paper (section 6.3.2,
 * Fig. 11 and 12, Table VIII) on Weft.
 *
 * Three threads pass 8-bit grey frames through shared memory: capture (software; it
 * receives frames over TCP from a sender process), a w x w Laplacian filter and display
 * (each in software or in hardware), plus a software scan-out that plays the monitor:
 * it takes each finished framebuffer, keeps it for the check and, with --out, saves it as
 * a PGM file. Each block of lines of a frame buffer has a "ready" and a "new" semaphore;
 * docs/case-studies.md gives the protocol, which the software threads below and the
 * hardware threads (hwt_laplace, hwt_display) follow alike. Configurations:
 *
 *   sw-sw-sw      everything in software                           (Fig. 12 a)
 *   sw-hw-sw      filter in hardware                               (b)
 *   sw-hw-hw      filter and display in hardware                   (c)
 *   sw-hw-hw-db   as sw-hw-hw, with two buffers per stage           (d)
 *
 * Every displayed frame is checked against a plain whole-frame Laplacian of the frame
 * that was sent, bit for bit.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "frame_source.h"
#include "pixels.h"
#include "weft/platform_config.h"
#include "weft/sim.h"
#include "weft/trace.h"
#include "weft/weft.h"

#define MAX_HW_WIDTH 320u /* hwt_laplace and hwt_display line buffers */
#define MAX_WIDTH 1024u
#define MAX_HEIGHT 1024u
#define MAX_FRAMES 10000u
#define MAX_LIST 8u
#define LAPL_MAGIC 0x4C41504Cu
#define DISL_MAGIC 0x4449534Cu
#define CFG_BYTES 64u

struct config {
    const char *name;
    int filter_hw, display_hw;
    unsigned nbuf;
};

static const struct config configs[] = {
    {"sw-sw-sw", 0, 0, 1},
    {"sw-hw-sw", 1, 0, 1},
    {"sw-hw-hw", 1, 1, 1},
    {"sw-hw-hw-db", 1, 1, 2},
};
#define NUM_CONFIGS (sizeof configs / sizeof configs[0])

struct options {
    int config[NUM_CONFIGS];
    unsigned nconfig;
    unsigned ws[MAX_LIST], nws;
    unsigned blocks[MAX_LIST], nblocks;
    unsigned frames, width, height;
    const char *out_dir, *json, *trace, *fault;
    char **images;
    int nimages;
};

/* One run of the pipeline: what every thread of it shares. */
struct pipe {
    weft_t *w;
    const struct config *cfg;
    unsigned width, height, B, NB, nbuf, frames, kw;
    size_t frame_bytes;
    uint8_t *in, *out; /* nbuf frame buffers each, shared memory */
    uint32_t *fb;      /* the framebuffer, XRGB8888 */
    uint32_t *lap_cfg, *disp_cfg;
    uint64_t in_bus, out_bus, fb_bus, lap_cfg_bus, disp_cfg_bus;
    sem_t *in_new, *in_ready, *out_new, *out_ready; /* nbuf * NB each */
    sem_t fb_free, frame_shown;
    struct frame_source src;
    const char *out_dir;
    uint8_t *sent, *shown; /* private copies, frames * frame_bytes */
    double *shown_at;      /* ms, per frame */
    double t0;
    double filter_ms, display_ms; /* software threads' pixel work */
    atomic_int stop;
    atomic_int scan_done; /* the scan-out has shown every frame */
    pthread_mutex_t err_lock;
    char error[200];
};

struct result {
    const char *config;
    unsigned w, block, frames;
    int skipped;
    char why[200];
    double fps, wall_ms;
    double filter_ms, display_ms;           /* per frame, software */
    uint64_t filter_cycles, display_cycles; /* per frame, hardware busy cycles */
    uint64_t fabric_cycles;
    unsigned good;
    int ok;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void fail(struct pipe *p, const char *fmt, const char *what)
{
    pthread_mutex_lock(&p->err_lock);
    if (!p->error[0])
        snprintf(p->error, sizeof p->error, fmt, what);
    pthread_mutex_unlock(&p->err_lock);
    atomic_store(&p->stop, 1);
}

/* Every software thread of the pipeline ends through here, so its track ends too. */
static void *thread_done(struct pipe *p)
{
    weft_trace_thread_exit(p->w);
    return NULL;
}

/* sem_wait that gives up once the run is being stopped (see stop_pipeline). */
static int wait_sem(struct pipe *p, sem_t *s, const char *call)
{
    weft_trace_begin(p->w, call);
    while (sem_wait(s) != 0 && errno == EINTR)
        ;
    weft_trace_end(p->w);
    return atomic_load(&p->stop) ? -1 : 0;
}

static void *capture_thread(void *arg)
{
    struct pipe *p = arg;
    weft_trace_thread_name(p->w, "capture (sw)");
    const size_t block_bytes = (size_t)p->B * p->width;
    for (unsigned f = 0; f < p->frames; f++) {
        const unsigned k = f % p->nbuf;
        weft_trace_begin(p->w, "recv header");
        int rc = frame_source_next(&p->src);
        weft_trace_end(p->w);
        if (rc) {
            fail(p, "capture: %s", rc > 0 ? "the sender ended the stream early" : p->src.error);
            return thread_done(p);
        }
        if (f == 0)
            p->t0 = now_ms();
        for (unsigned b = 0; b < p->NB; b++) {
            if (wait_sem(p, &p->in_ready[k * p->NB + b], "sem_wait ready"))
                return thread_done(p);
            uint8_t *dst = p->in + k * p->frame_bytes + b * block_bytes;
            weft_trace_begin(p->w, "recv block");
            rc = frame_source_read(&p->src, dst, block_bytes);
            weft_trace_end(p->w);
            if (rc) {
                fail(p, "capture: %s", p->src.error);
                return thread_done(p);
            }
            /* Kept for the check after the run. */
            memcpy(p->sent + f * p->frame_bytes + b * block_bytes, dst, block_bytes);
            sem_post(&p->in_new[k * p->NB + b]);
        }
    }
    return thread_done(p);
}

/* The software filter thread: the protocol of docs/case-studies.md. */
static void *filter_thread(void *arg)
{
    struct pipe *p = arg;
    weft_trace_thread_name(p->w, "filter (sw)");
    for (unsigned f = 0; f < p->frames; f++) {
        const unsigned k = f % p->nbuf, base = k * p->NB;
        for (unsigned b = 0; b <= p->NB; b++) {
            if (b < p->NB && wait_sem(p, &p->in_new[base + b], "sem_wait new"))
                return thread_done(p);
            if (b == 0)
                continue;
            const unsigned o = b - 1;
            if (wait_sem(p, &p->out_ready[base + o], "sem_wait ready"))
                return thread_done(p);
            double t = now_ms();
            laplace_lines(p->in + k * p->frame_bytes, p->out + k * p->frame_bytes, p->width,
                          p->height, p->kw, o * p->B, p->B);
            p->filter_ms += now_ms() - t;
            sem_post(&p->out_new[base + o]);
            if (o >= 1)
                sem_post(&p->in_ready[base + o - 1]);
        }
        sem_post(&p->in_ready[base + p->NB - 1]);
    }
    return thread_done(p);
}

static void *display_thread(void *arg)
{
    struct pipe *p = arg;
    weft_trace_thread_name(p->w, "display (sw)");
    const size_t block_px = (size_t)p->B * p->width;
    for (unsigned f = 0; f < p->frames; f++) {
        const unsigned k = f % p->nbuf, base = k * p->NB;
        if (wait_sem(p, &p->fb_free, "sem_wait fb_free"))
            return thread_done(p);
        for (unsigned b = 0; b < p->NB; b++) {
            if (wait_sem(p, &p->out_new[base + b], "sem_wait new"))
                return thread_done(p);
            double t = now_ms();
            grey_to_xrgb(p->out + k * p->frame_bytes + b * block_px, p->fb + b * block_px,
                         block_px);
            p->display_ms += now_ms() - t;
            sem_post(&p->out_ready[base + b]);
        }
        sem_post(&p->frame_shown);
    }
    return thread_done(p);
}

static int write_pgm(const char *dir, const char *kind, unsigned f, const uint8_t *px,
                     unsigned width, unsigned height)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s_%04u.pgm", dir, kind, f);
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    fprintf(fp, "P5\n%u %u\n255\n", width, height);
    size_t n = fwrite(px, 1, (size_t)width * height, fp);
    return fclose(fp) == 0 && n == (size_t)width * height ? 0 : -1;
}

/* The monitor: takes each finished framebuffer, keeps it, saves it with --out. */
static void *scanout_thread(void *arg)
{
    struct pipe *p = arg;
    weft_trace_thread_name(p->w, "scan-out (sw)");
    for (unsigned f = 0; f < p->frames; f++) {
        if (wait_sem(p, &p->frame_shown, "sem_wait shown"))
            return thread_done(p);
        p->shown_at[f] = now_ms();
        uint8_t *dst = p->shown + f * p->frame_bytes;
        xrgb_to_grey(p->fb, dst, p->frame_bytes);
        weft_trace_mark(p->w, "frame shown");
        if (p->out_dir && write_pgm(p->out_dir, "frame", f, dst, p->width, p->height)) {
            fail(p, "scan-out: cannot write a frame into %s", p->out_dir);
            return thread_done(p);
        }
        sem_post(&p->fb_free);
    }
    atomic_store(&p->scan_done, 1);
    return thread_done(p);
}

/* Wake every thread that may be blocked in the pipeline: each semaphore has at most one
 * waiter, and every waiter checks p->stop after waking. */
static void stop_pipeline(struct pipe *p)
{
    atomic_store(&p->stop, 1);
    for (unsigned j = 0; j < p->nbuf * p->NB; j++) {
        sem_post(&p->in_new[j]);
        sem_post(&p->in_ready[j]);
        sem_post(&p->out_new[j]);
        sem_post(&p->out_ready[j]);
    }
    sem_post(&p->fb_free);
    sem_post(&p->frame_shown);
}

/* Handles: a stage's semaphores in the hardware threads' resource arrays. */
static unsigned add_sems(weft_resource_t *res, unsigned at, sem_t *sems, unsigned n)
{
    for (unsigned j = 0; j < n; j++)
        res[at + j] = (weft_resource_t){WEFT_RES_SEM, &sems[j]};
    return at + n;
}

/* Why a configuration cannot run with these settings, or NULL. */
static const char *unsupported(const struct config *c, unsigned width, unsigned NB)
{
    if ((c->filter_hw || c->display_hw) && width > MAX_HW_WIDTH)
        return "frames wider than the hardware threads' 320-pixel lines";
    if (c->filter_hw && 4 * c->nbuf * NB > WEFT_MAX_RESOURCES)
        return "the filter would need more than WEFT_MAX_RESOURCES semaphore handles";
    if (c->display_hw && 2 * c->nbuf * NB + 2 > WEFT_MAX_RESOURCES)
        return "the display would need more than WEFT_MAX_RESOURCES semaphore handles";
    return NULL;
}

static int start_hw(struct pipe *p, weft_hwthread_t **t, const char *name, const char *image,
                    unsigned slot, const weft_resource_t *res, unsigned nres, uint64_t cfg_bus,
                    const weft_mem_window_t *win)
{
    weft_hwthread_attr_t attr = {.name = name,
                                 .image = image,
                                 .slot = slot,
                                 .resources = res,
                                 .num_resources = nres,
                                 .init_data = (uint32_t)cfg_bus,
                                 .windows = win,
                                 .num_windows = 2};
    int rc = weft_hwthread_create(p->w, t, &attr);
    if (rc)
        fprintf(stderr, "weft-image: cannot start %s: %s\n", name, strerror(-rc));
    return rc;
}

static int alloc_shared(struct pipe *p)
{
    /* One allocation, laid out so that each hardware thread needs two windows:
     * [filter cfg | IN | OUT | display cfg | framebuffer]. */
    const size_t stage = p->nbuf * p->frame_bytes;
    const size_t total = CFG_BYTES + 2 * stage + CFG_BYTES + 4 * p->frame_bytes;
    void *cpu;
    uint64_t bus;
    int rc = weft_mem_alloc(p->w, total, &cpu, &bus);
    if (rc)
        return rc;
    uint8_t *c = cpu;
    p->lap_cfg = (uint32_t *)c;
    p->lap_cfg_bus = bus;
    p->in = c + CFG_BYTES;
    p->in_bus = bus + CFG_BYTES;
    p->out = p->in + stage;
    p->out_bus = p->in_bus + stage;
    p->disp_cfg = (uint32_t *)(p->out + stage);
    p->disp_cfg_bus = p->out_bus + stage;
    p->fb = (uint32_t *)((uint8_t *)p->disp_cfg + CFG_BYTES);
    p->fb_bus = p->disp_cfg_bus + CFG_BYTES;
    return 0;
}

static int run_once(weft_platform_t *plat, const struct config *c, unsigned kw, unsigned B,
                    const struct options *o, const char *trace_path, struct result *r)
{
    *r = (struct result){.config = c->name, .w = kw, .block = B, .frames = o->frames};
    const unsigned NB = o->height / B;
    const char *why = o->height % B ? "the frame height is not a multiple of the block size"
                      : B < kw / 2  ? "blocks thinner than the filter's reach"
                                    : unsupported(c, o->width, NB);
    if (why) {
        r->skipped = 1;
        snprintf(r->why, sizeof r->why, "%s", why);
        return 0;
    }

    struct pipe *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    *p = (struct pipe){.cfg = c,
                       .width = o->width,
                       .height = o->height,
                       .B = B,
                       .NB = NB,
                       .nbuf = c->nbuf,
                       .frames = o->frames,
                       .kw = kw,
                       .frame_bytes = (size_t)o->width * o->height,
                       .out_dir = o->out_dir};
    pthread_mutex_init(&p->err_lock, NULL);
    const unsigned nsem = p->nbuf * NB;
    p->in_new = calloc(nsem, sizeof(sem_t));
    p->in_ready = calloc(nsem, sizeof(sem_t));
    p->out_new = calloc(nsem, sizeof(sem_t));
    p->out_ready = calloc(nsem, sizeof(sem_t));
    p->sent = malloc(p->frames * p->frame_bytes);
    p->shown = malloc(p->frames * p->frame_bytes);
    p->shown_at = calloc(p->frames, sizeof(double));
    weft_resource_t *lap_res = calloc(4 * nsem, sizeof *lap_res);
    weft_resource_t *disp_res = calloc(2 * nsem + 2, sizeof *disp_res);
    int rc = -1;
    if (!p->in_new || !p->in_ready || !p->out_new || !p->out_ready || !p->sent || !p->shown ||
        !p->shown_at || !lap_res || !disp_res)
        goto out_free;
    for (unsigned j = 0; j < nsem; j++) {
        sem_init(&p->in_new[j], 0, 0);
        sem_init(&p->in_ready[j], 0, 1);
        sem_init(&p->out_new[j], 0, 0);
        sem_init(&p->out_ready[j], 0, 1);
    }
    sem_init(&p->fb_free, 0, 1);
    sem_init(&p->frame_shown, 0, 0);

    rc = weft_init(&p->w, plat);
    if (rc) {
        fprintf(stderr, "weft-image: runtime init failed: %s\n", strerror(-rc));
        goto out_sems;
    }
    if (trace_path)
        weft_trace_start(p->w);
    weft_trace_thread_name(p->w, "main");
    rc = alloc_shared(p);
    if (rc) {
        fprintf(stderr, "weft-image: shared memory: %s\n", strerror(-rc));
        goto out_runtime;
    }

    /* Hardware threads: configuration blocks, resource arrays, windows. */
    weft_hwthread_t *hw_filter = NULL, *hw_display = NULL;
    const uint32_t lap[] = {LAPL_MAGIC,
                            (uint32_t)p->in_bus,
                            (uint32_t)p->out_bus,
                            p->width,
                            p->height,
                            B,
                            kw,
                            p->nbuf,
                            p->frames,
                            0,
                            nsem,
                            2 * nsem,
                            3 * nsem};
    memcpy(p->lap_cfg, lap, sizeof lap);
    add_sems(lap_res,
             add_sems(lap_res,
                      add_sems(lap_res, add_sems(lap_res, 0, p->in_new, nsem), p->in_ready, nsem),
                      p->out_new, nsem),
             p->out_ready, nsem);
    const uint32_t disp[] = {DISL_MAGIC,
                             (uint32_t)p->out_bus,
                             (uint32_t)p->fb_bus,
                             p->width,
                             p->height,
                             B,
                             p->nbuf,
                             p->frames,
                             0,
                             nsem,
                             2 * nsem,
                             2 * nsem + 1};
    memcpy(p->disp_cfg, disp, sizeof disp);
    unsigned nd = add_sems(disp_res, add_sems(disp_res, 0, p->out_new, nsem), p->out_ready, nsem);
    disp_res[nd++] = (weft_resource_t){WEFT_RES_SEM, &p->fb_free};
    disp_res[nd++] = (weft_resource_t){WEFT_RES_SEM, &p->frame_shown};
    const size_t stage = p->nbuf * p->frame_bytes;
    const weft_mem_window_t lap_win[2] = {
        {.bus = p->lap_cfg_bus, .size = CFG_BYTES + stage, .perm = WEFT_MEM_READ},
        {.bus = p->out_bus, .size = stage, .perm = WEFT_MEM_WRITE},
    };
    const weft_mem_window_t disp_win[2] = {
        {.bus = p->out_bus, .size = stage + CFG_BYTES, .perm = WEFT_MEM_READ},
        {.bus = p->fb_bus, .size = 4 * p->frame_bytes, .perm = WEFT_MEM_WRITE},
    };

    /* The frame source first: the sender process needs a moment to start. */
    const char *argv[40];
    unsigned na = 0;
    char frames_arg[16], size_arg[32];
    snprintf(frames_arg, sizeof frames_arg, "%u", p->frames);
    snprintf(size_arg, sizeof size_arg, "%ux%u", p->width, p->height);
    argv[na++] = WEFT_PYTHON;
    argv[na++] = WEFT_FRAME_SENDER;
    argv[na++] = "--frames";
    argv[na++] = frames_arg;
    argv[na++] = "--size";
    argv[na++] = size_arg;
    if (o->fault) {
        argv[na++] = "--fault";
        argv[na++] = o->fault;
    }
    for (int i = 0; i < o->nimages && na < 29; i++)
        argv[na++] = o->images[i];
    argv[na] = NULL;
    if (frame_source_open(&p->src, p->width, p->height, argv)) {
        fprintf(stderr, "weft-image: %s\n", p->src.error);
        frame_source_close(&p->src);
        rc = -1;
        goto out_runtime;
    }

    uint64_t c0 = 0, c1 = 0;
    weft_fabric_cycles(p->w, &c0);
    pthread_t cap, fil, dis, scan;
    int have_fil = 0, have_dis = 0;
    rc = 0;
    if (c->filter_hw)
        rc = start_hw(p, &hw_filter, "filter (hw)", WEFT_IMAGE_DIR "/hwt_laplace.so", 0, lap_res,
                      4 * nsem, p->lap_cfg_bus, lap_win);
    if (!rc && c->display_hw)
        rc = start_hw(p, &hw_display, "display (hw)", WEFT_IMAGE_DIR "/hwt_display.so", 1, disp_res,
                      nd, p->disp_cfg_bus, disp_win);
    pthread_create(&scan, NULL, scanout_thread, p);
    if (!rc && !c->filter_hw)
        have_fil = !pthread_create(&fil, NULL, filter_thread, p);
    if (!rc && !c->display_hw)
        have_dis = !pthread_create(&dis, NULL, display_thread, p);
    if (rc)
        fail(p, "%s", "a hardware thread did not start");
    pthread_create(&cap, NULL, capture_thread, p);

    /* Watch the run: it ends when the scan-out has shown the last frame. A hardware
     * thread that ends without its frames (a fault, a bad configuration) would leave the
     * software threads waiting for ever, so it stops the run. */
    weft_hwthread_t *hws[2] = {hw_filter, hw_display};
    while (!atomic_load(&p->scan_done) && !atomic_load(&p->stop)) {
        struct timespec tick = {0, 20 * 1000 * 1000};
        nanosleep(&tick, NULL);
        for (unsigned i = 0; i < 2; i++) {
            weft_exit_status_t st;
            /* Ending normally with every frame done is fine: the filter finishes
             * before the display does. */
            if (hws[i] && weft_hwthread_timedjoin(hws[i], &st, 0) == 0 &&
                (st.kind != WEFT_EXIT_NORMAL || st.value != p->frames))
                fail(p, "%s ended before its last frame",
                     i ? "the display hardware thread" : "the filter hardware thread");
        }
    }
    if (atomic_load(&p->stop))
        stop_pipeline(p);
    pthread_join(cap, NULL);
    pthread_join(scan, NULL);
    if (have_fil)
        pthread_join(fil, NULL);
    if (have_dis)
        pthread_join(dis, NULL);
    uint64_t busy[2] = {0, 0};
    for (unsigned i = 0; i < 2; i++) {
        if (!hws[i])
            continue;
        weft_exit_status_t st;
        if (atomic_load(&p->stop))
            weft_hwthread_destroy(hws[i]), hws[i] = NULL;
        else {
            weft_hwthread_join(hws[i], &st);
            weft_hwthread_stats_t hs = {0};
            weft_hwthread_stats(hws[i], &hs);
            busy[i] = hs.busy_cycles;
            if (st.kind != WEFT_EXIT_NORMAL || st.value != p->frames) {
                fprintf(stderr, "weft-image: %s hardware thread: %s (exit value 0x%08" PRIx32 ")\n",
                        i ? "display" : "filter",
                        st.kind == WEFT_EXIT_NORMAL ? "wrong frame count" : st.message, st.value);
                fail(p, "%s", "a hardware thread failed");
            }
            weft_hwthread_destroy(hws[i]);
        }
    }
    weft_fabric_cycles(p->w, &c1);
    int sender_rc = frame_source_close(&p->src);

    if (p->error[0])
        fprintf(stderr, "weft-image: %s: %s\n", c->name, p->error);
    else if (sender_rc != 0)
        fprintf(stderr, "weft-image: the frame sender failed (status %d)\n", sender_rc);
    uint8_t *ref = malloc(p->frame_bytes);
    for (unsigned f = 0; ref && !p->error[0] && f < p->frames; f++) {
        laplace_reference(p->sent + f * p->frame_bytes, ref, p->width, p->height, kw);
        if (memcmp(ref, p->shown + f * p->frame_bytes, p->frame_bytes) == 0)
            r->good++;
        else
            fprintf(stderr, "weft-image: %s: frame %u differs from the reference\n", c->name, f);
        if (p->out_dir && f == 0)
            write_pgm(p->out_dir, "input", f, p->sent, p->width, p->height);
    }
    free(ref);
    const double last = p->shown_at[p->frames - 1];
    r->wall_ms = last - p->t0;
    /* Steady rate: frames after the first over the time since the first was shown, so the
     * pipeline's fill time does not count; one frame: the whole time. */
    r->fps = p->frames > 1 ? (p->frames - 1) / ((last - p->shown_at[0]) / 1e3) : 1e3 / r->wall_ms;
    r->filter_ms = c->filter_hw ? 0 : p->filter_ms / p->frames;
    r->display_ms = c->display_hw ? 0 : p->display_ms / p->frames;
    r->filter_cycles = busy[0] / p->frames;
    r->display_cycles = busy[1] / p->frames;
    r->fabric_cycles = c1 - c0;
    r->ok = !p->error[0] && sender_rc == 0 && r->good == p->frames;
    if (p->error[0])
        snprintf(r->why, sizeof r->why, "%s", p->error);
    else if (!r->ok)
        snprintf(r->why, sizeof r->why, "%u of %u frames match the reference", r->good, p->frames);
    if (trace_path) {
        int trc = weft_trace_write(p->w, trace_path);
        if (trc)
            fprintf(stderr, "weft-image: cannot write the trace %s: %s\n", trace_path,
                    strerror(-trc));
    }
    rc = 0;

out_runtime:
    weft_shutdown(p->w);
out_sems:
    for (unsigned j = 0; j < nsem; j++) {
        sem_destroy(&p->in_new[j]);
        sem_destroy(&p->in_ready[j]);
        sem_destroy(&p->out_new[j]);
        sem_destroy(&p->out_ready[j]);
    }
    sem_destroy(&p->fb_free);
    sem_destroy(&p->frame_shown);
out_free:
    free(p->in_new);
    free(p->in_ready);
    free(p->out_new);
    free(p->out_ready);
    free(p->sent);
    free(p->shown);
    free(p->shown_at);
    free(lap_res);
    free(disp_res);
    pthread_mutex_destroy(&p->err_lock);
    free(p);
    return rc;
}

static void print_result(const struct result *r, double mhz)
{
    if (r->skipped) {
        printf("%-12s w=%u %3u lines  not run: %s\n", r->config, r->w, r->block, r->why);
        return;
    }
    if (!r->ok) {
        printf("%-12s w=%u %3u lines  FAILED: %s\n", r->config, r->w, r->block, r->why);
        return;
    }
    printf("%-12s w=%u %3u lines  %7.1f frames/s  ", r->config, r->w, r->block, r->fps);
    if (r->filter_cycles)
        printf("filter %" PRIu64 " cycles/frame (%.2f ms at %.0f MHz)  ", r->filter_cycles,
               r->filter_cycles / (mhz * 1e3), mhz);
    else
        printf("filter %.2f ms/frame  ", r->filter_ms);
    if (r->display_cycles)
        printf("display %" PRIu64 " cycles/frame  ", r->display_cycles);
    else
        printf("display %.2f ms/frame  ", r->display_ms);
    printf("%s %u/%u\n", r->ok ? "ok" : "FAILED", r->good, r->frames);
}

static json_t *result_json(const struct result *r, double mhz)
{
    json_t *j = json_pack("{s:s, s:I, s:I, s:I}", "config", r->config, "w", (json_int_t)r->w,
                          "block_lines", (json_int_t)r->block, "frames", (json_int_t)r->frames);
    if (r->skipped) {
        json_object_set_new(j, "skipped", json_string(r->why));
        return j;
    }
    if (!r->ok) {
        json_object_set_new(j, "error", json_string(r->why));
        json_object_set_new(j, "verified", json_false());
        return j;
    }
    json_t *more = json_pack(
        "{s:f, s:f, s:f, s:f, s:I, s:I, s:f, s:f, s:I, s:I, s:b}", "fps_wall", r->fps, "wall_ms",
        r->wall_ms, "filter_sw_ms_per_frame", r->filter_ms, "display_sw_ms_per_frame",
        r->display_ms, "filter_hw_cycles_per_frame", (json_int_t)r->filter_cycles,
        "display_hw_cycles_per_frame", (json_int_t)r->display_cycles, "filter_hw_ms_projected",
        r->filter_cycles / (mhz * 1e3), "display_hw_ms_projected", r->display_cycles / (mhz * 1e3),
        "fabric_cycles", (json_int_t)r->fabric_cycles, "frames_checked", (json_int_t)r->good,
        "verified", r->ok);
    json_object_update(j, more);
    json_decref(more);
    return j;
}

/* "3,5" -> list of numbers within lo..hi. */
static int parse_list(const char *flag, const char *text, unsigned lo, unsigned hi, unsigned *out,
                      unsigned *n)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(tok, &end, 10);
        if (errno || *tok == '\0' || *end != '\0' || tok[0] == '-' || v < lo || v > hi ||
            *n == MAX_LIST) {
            fprintf(stderr,
                    "weft-image: %s takes up to %u numbers from %u to %u, comma-separated, "
                    "not '%s'\n",
                    flag, MAX_LIST, lo, hi, text);
            return -1;
        }
        out[(*n)++] = (unsigned)v;
    }
    if (*n == 0) {
        fprintf(stderr, "weft-image: %s needs a value\n", flag);
        return -1;
    }
    return 0;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: weft-image [--config C[,C...]|all] [--w 3|5|3,5] [--block N[,N...]]\n"
            "                  [--frames N] [--size WxH] [--out DIR] [--json PATH]\n"
            "                  [--trace PATH] [IMAGE ...]\n"
            "  --config   sw-sw-sw, sw-hw-sw, sw-hw-hw, sw-hw-hw-db or all (default sw-hw-hw)\n"
            "  --w        Laplacian kernel width(s) (default 3)\n"
            "  --block    lines per block (default 40)\n"
            "  --frames   frames per run (default 10)\n"
            "  --size     frame size (default 320x240; hardware threads take up to 320 wide)\n"
            "  --out DIR  save the first input frame and every displayed frame as PGM\n"
            "  --json     write the figures as JSON\n"
            "  --trace    write a Chrome/Perfetto trace of the first run\n"
            "  --sender-fault KIND  the sender breaks frame 1 (magic, size, seq, length,\n"
            "             short), to test the capture thread's checks\n"
            "  IMAGE      image files the sender streams in a loop (default: a synthetic scene)\n");
}

static int parse_args(int argc, char **argv, struct options *o)
{
    *o = (struct options){.nconfig = 1,
                          .config = {2},
                          .nws = 1,
                          .ws = {3},
                          .nblocks = 1,
                          .blocks = {40},
                          .frames = 10,
                          .width = 320,
                          .height = 240};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *flag = argv[i];
        if (i + 1 >= argc) {
            usage();
            return -1;
        }
        const char *val = argv[++i];
        int rc = 0;
        unsigned n1 = 0, frames[MAX_LIST];
        if (!strcmp(flag, "--w")) {
            rc = parse_list(flag, val, 3, 5, o->ws, &o->nws);
            for (unsigned k = 0; !rc && k < o->nws; k++)
                if (o->ws[k] == 4) {
                    fprintf(stderr, "weft-image: --w is 3 or 5\n");
                    rc = -1;
                }
        } else if (!strcmp(flag, "--block"))
            rc = parse_list(flag, val, 1, MAX_HEIGHT, o->blocks, &o->nblocks);
        else if (!strcmp(flag, "--frames")) {
            rc = parse_list(flag, val, 1, MAX_FRAMES, frames, &n1);
            if (!rc && n1 != 1) {
                fprintf(stderr, "weft-image: --frames takes one number\n");
                rc = -1;
            }
            o->frames = frames[0];
        } else if (!strcmp(flag, "--size")) {
            char *end;
            unsigned long wd = strtoul(val, &end, 10), ht = 0;
            if (*end == 'x')
                ht = strtoul(end + 1, &end, 10);
            if (*end || wd < 8 || wd > MAX_WIDTH || wd % 4 || ht < 5 || ht > MAX_HEIGHT) {
                fprintf(stderr,
                        "weft-image: --size is WIDTHxHEIGHT, width a multiple of 4 from 8 to "
                        "%u, height 5 to %u, not '%s'\n",
                        MAX_WIDTH, MAX_HEIGHT, val);
                rc = -1;
            }
            o->width = (unsigned)wd;
            o->height = (unsigned)ht;
        } else if (!strcmp(flag, "--out"))
            o->out_dir = val;
        else if (!strcmp(flag, "--json"))
            o->json = val;
        else if (!strcmp(flag, "--trace"))
            o->trace = val;
        else if (!strcmp(flag, "--sender-fault"))
            o->fault = val;
        else if (!strcmp(flag, "--config")) {
            o->nconfig = 0;
            char buf[128];
            snprintf(buf, sizeof buf, "%s", val);
            for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && !rc;
                 tok = strtok_r(NULL, ",", &save)) {
                int found = -1;
                for (unsigned k = 0; k < NUM_CONFIGS; k++)
                    if (!strcmp(tok, configs[k].name))
                        found = (int)k;
                if (!strcmp(tok, "all")) {
                    for (unsigned k = 0; k < NUM_CONFIGS; k++)
                        o->config[k] = (int)k;
                    o->nconfig = NUM_CONFIGS;
                } else if (found < 0 || o->nconfig == NUM_CONFIGS) {
                    fprintf(stderr, "weft-image: unknown configuration '%s'\n", tok);
                    rc = -1;
                } else {
                    o->config[o->nconfig++] = found;
                }
            }
        } else {
            usage();
            return -1;
        }
        if (rc)
            return -1;
    }
    o->images = argv + i;
    o->nimages = argc - i;
    return 0;
}

int main(int argc, char **argv)
{
    struct options o;
    if (parse_args(argc, argv, &o))
        return 2;
    if (o.out_dir && mkdir(o.out_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "weft-image: cannot create %s: %s\n", o.out_dir, strerror(errno));
        return 1;
    }
    weft_platform_t *plat;
    int rc = weft_sim_open(&plat, NULL);
    if (rc) {
        fprintf(stderr, "weft-image: cannot open the simulated fabric: %s\n", strerror(-rc));
        return 1;
    }
    const double mhz = WEFT_PLATFORM_CLOCK_MHZ;
    printf("weft image study: %u frames of %ux%u per run from %s over TCP; capture, Laplacian "
           "filter, display\n",
           o.frames, o.width, o.height, o.nimages ? "image files" : "a synthetic scene");
    json_t *runs = json_array();
    int all_ok = 1;
    const char *trace = o.trace;
    for (unsigned ci = 0; ci < o.nconfig; ci++)
        for (unsigned wi = 0; wi < o.nws; wi++)
            for (unsigned bi = 0; bi < o.nblocks; bi++) {
                struct result r;
                if (run_once(plat, &configs[o.config[ci]], o.ws[wi], o.blocks[bi], &o, trace, &r)) {
                    all_ok = 0;
                    continue;
                }
                if (!r.skipped)
                    trace = NULL;
                print_result(&r, mhz);
                fflush(stdout);
                all_ok &= r.skipped || r.ok;
                json_array_append_new(runs, result_json(&r, mhz));
            }
    plat->ops->close(plat);
    if (o.json) {
        json_t *doc = json_pack("{s:s, s:I, s:I, s:I, s:f, s:s, s:o}", "benchmark", "image_study",
                                "width", (json_int_t)o.width, "height", (json_int_t)o.height,
                                "frames", (json_int_t)o.frames, "clock_mhz", mhz, "source",
                                o.nimages ? "image files" : "synthetic", "runs", runs);
        if (json_dump_file(doc, o.json, JSON_INDENT(2)) != 0) {
            fprintf(stderr, "weft-image: cannot write %s\n", o.json);
            all_ok = 0;
        }
        json_decref(doc);
    } else {
        json_decref(runs);
    }
    if (o.trace)
        printf("trace written to %s\n", o.trace);
    if (o.out_dir)
        printf("frames written to %s/\n", o.out_dir);
    printf("%s\n", all_ok ? "every frame matched the reference filter" : "FAILED");
    return all_ok ? 0 : 1;
}

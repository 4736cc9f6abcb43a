/*
 * Weft sort demo: the ReconOS sort case study in miniature.
 *
 * The main thread fills blocks of random 32-bit integers in shared (DMA) memory and puts
 * one descriptor per block (bus address, length in bytes) into a mailbox. A software
 * sort thread (a pthread) and a hardware sort thread (hwt_sort, co-simulated RTL in
 * slot 0) take descriptors from that same mailbox under the same mutex, bubble-sort the
 * block in place and post the same semaphore. Neither knows where the other runs. The
 * main thread hands out one block per sort thread per round.
 * Afterwards every block is checked: sorted, and a permutation of what was written.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft/sim.h"
#include "weft/weft.h"

#define MAX_WORDS 2048u /* hwt_sort's local RAM */

enum { RES_MBOX = 0, RES_SEM = 1, RES_MUTEX = 2, NUM_RES = 3 };

struct shared {
    weft_t *w;
    weft_dma_region_t dma;
    weft_mbox_t descriptors;
    sem_t done;
    pthread_mutex_t take; /* makes the two-word descriptor get atomic */
};

struct sw_result {
    unsigned blocks;
    double ms;
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

static void *sw_sort_thread(void *arg)
{
    struct shared *s = arg;
    struct sw_result *res = calloc(1, sizeof *res);
    if (!res)
        return NULL;
    for (;;) {
        uint32_t addr = 0, len = 0;
        pthread_mutex_lock(&s->take);
        weft_mbox_get(&s->descriptors, &addr);
        weft_mbox_get(&s->descriptors, &len);
        pthread_mutex_unlock(&s->take);
        if (addr == 0)
            break;
        if (addr < s->dma.bus || (uint64_t)addr + len > s->dma.bus + s->dma.size) {
            fprintf(stderr,
                    "sw-sort: descriptor 0x%08" PRIx32 "+%" PRIu32 " outside shared memory\n", addr,
                    len);
            continue;
        }
        uint32_t *block = (uint32_t *)((char *)s->dma.cpu + (addr - s->dma.bus));
        double t0 = now_ms();
        bubble_sort(block, len / 4);
        res->ms += now_ms() - t0;
        res->blocks++;
        sem_post(&s->done);
    }
    return res;
}

static int parse_uint(const char *flag, const char *text, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (errno || *text == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "weft-sort-demo: %s must be a number from %u to %u, not '%s'\n", flag, lo,
                hi, text);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: weft-sort-demo [--blocks N] [--words W] [--seed S]\n"
            "  --blocks N  blocks to sort (1..4096, default 32)\n"
            "  --words W   32-bit words per block (1..%u, default 256)\n"
            "  --seed S    random seed (default 1)\n",
            MAX_WORDS);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    unsigned blocks = 32, words = 256, seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        if (i + 1 >= argc ||
            (strcmp(flag, "--blocks") && strcmp(flag, "--words") && strcmp(flag, "--seed"))) {
            usage();
            return 2;
        }
        const char *val = argv[++i];
        int rc = !strcmp(flag, "--blocks")  ? parse_uint(flag, val, 1, 4096, &blocks)
                 : !strcmp(flag, "--words") ? parse_uint(flag, val, 1, MAX_WORDS, &words)
                                            : parse_uint(flag, val, 0, UINT_MAX, &seed);
        if (rc)
            return 2;
    }

    weft_platform_t *plat;
    int rc = weft_sim_open(&plat, NULL);
    if (rc) {
        fprintf(stderr, "weft-sort-demo: cannot open the simulated fabric: %s\n", strerror(-rc));
        return 1;
    }
    struct shared s = {0};
    rc = weft_init(&s.w, plat);
    if (rc) {
        fprintf(stderr, "weft-sort-demo: runtime init failed: %s\n", strerror(-rc));
        plat->ops->close(plat);
        return 1;
    }
    plat->ops->dma_region(plat, &s.dma);

    size_t bytes = (size_t)words * 4;
    uint32_t **cpu = calloc(blocks, sizeof *cpu);
    uint64_t *bus = calloc(blocks, sizeof *bus);
    uint32_t *orig = malloc((size_t)blocks * bytes);
    if (!cpu || !bus || !orig) {
        fprintf(stderr, "weft-sort-demo: out of memory\n");
        return 1;
    }
    srand(seed);
    for (unsigned b = 0; b < blocks; b++) {
        void *p;
        rc = weft_mem_alloc(s.w, bytes, &p, &bus[b]);
        if (rc) {
            fprintf(stderr, "weft-sort-demo: shared memory for block %u: %s\n", b, strerror(-rc));
            return 1;
        }
        cpu[b] = p;
        for (unsigned i = 0; i < words; i++)
            cpu[b][i] = ((uint32_t)rand() << 16) ^ (uint32_t)rand();
        memcpy(orig + (size_t)b * words, cpu[b], bytes);
    }

    weft_mbox_init(&s.descriptors, 2 * blocks + 4);
    sem_init(&s.done, 0, 0);
    pthread_mutex_init(&s.take, NULL);

    weft_resource_t res[NUM_RES] = {
        [RES_MBOX] = {WEFT_RES_MBOX, &s.descriptors},
        [RES_SEM] = {WEFT_RES_SEM, &s.done},
        [RES_MUTEX] = {WEFT_RES_MUTEX, &s.take},
    };
    weft_mem_window_t window = {.bus = s.dma.bus, .size = s.dma.size, .perm = WEFT_MEM_RW};
    weft_hwthread_attr_t attr = {
        .name = "hw-sort",
        .image = WEFT_IMAGE_DIR "/hwt_sort.so",
        .slot = 0,
        .resources = res,
        .num_resources = NUM_RES,
        .init_data = RES_MBOX | RES_SEM << 8 | RES_MUTEX << 16,
        .windows = &window,
        .num_windows = 1,
    };
    weft_hwthread_t *hw;
    rc = weft_hwthread_create(s.w, &hw, &attr);
    if (rc) {
        fprintf(stderr, "weft-sort-demo: cannot start the hardware sort thread: %s\n",
                strerror(-rc));
        return 1;
    }
    pthread_t sw;
    pthread_create(&sw, NULL, sw_sort_thread, &s);

    printf("weft sort demo: %u blocks of %u words; one software and one hardware sort thread\n"
           "share one mailbox, one mutex and one semaphore (hardware co-simulated, slot 0)\n",
           blocks, words);
    /* Work goes out in rounds of one block per sort thread, as a frame-based application
     * hands out a frame's blocks; within a round the two threads race for descriptors
     * from the one mailbox. Without rounds the software thread, which sorts a block in
     * far less host time than the simulated fabric needs, would take nearly every block. */
    double t0 = now_ms();
    for (unsigned b = 0; b < blocks;) {
        unsigned round = blocks - b < 2 ? blocks - b : 2;
        for (unsigned k = 0; k < round; k++) {
            weft_mbox_put(&s.descriptors, (uint32_t)bus[b + k]);
            weft_mbox_put(&s.descriptors, (uint32_t)bytes);
        }
        for (unsigned k = 0; k < round; k++)
            sem_wait(&s.done);
        b += round;
    }
    double wall = now_ms() - t0;
    for (int stop = 0; stop < 2; stop++) {
        weft_mbox_put(&s.descriptors, 0);
        weft_mbox_put(&s.descriptors, 0);
    }

    void *swret;
    pthread_join(sw, &swret);
    struct sw_result *swr = swret;
    weft_exit_status_t st;
    weft_hwthread_join(hw, &st);
    weft_hwthread_stats_t hs = {0};
    weft_hwthread_stats(hw, &hs);

    unsigned good = 0;
    uint32_t *ref = malloc(bytes);
    for (unsigned b = 0; b < blocks && ref; b++) {
        memcpy(ref, orig + (size_t)b * words, bytes);
        qsort(ref, words, 4, cmp_u32);
        if (memcmp(ref, cpu[b], bytes) == 0)
            good++;
        else
            fprintf(stderr, "weft-sort-demo: block %u is wrong\n", b);
    }
    uint64_t cycles = 0;
    weft_fabric_cycles(s.w, &cycles);

    unsigned hw_blocks = st.kind == WEFT_EXIT_NORMAL ? st.value : 0;
    printf("\n%-8s %-10s %7s  %s\n", "thread", "placement", "blocks", "sort time");
    printf("%-8s %-10s %7u  %.3f ms (wall clock)\n", "sw-sort", "software", swr ? swr->blocks : 0,
           swr ? swr->ms : 0.0);
    printf("%-8s %-10s %7u  %" PRIu64 " fabric cycles (%.3f ms projected at 100 MHz)\n", "hw-sort",
           "slot 0", hw_blocks, hs.busy_cycles, hs.busy_cycles / 1e5);
    printf("\nhardware thread: %s, %" PRIu64 " OS calls served by its delegate\n",
           st.kind == WEFT_EXIT_NORMAL ? "exited normally" : st.message, hs.calls);
    printf("fabric: %" PRIu64 " cycles simulated; whole run %.1f ms wall clock\n", cycles, wall);

    int ok = good == blocks && st.kind == WEFT_EXIT_NORMAL &&
             (swr ? swr->blocks : 0) + hw_blocks == blocks;
    if (ok)
        printf("every block checked out: %u/%u sorted and a permutation of its input\n", good,
               blocks);
    else
        printf("FAILED: %u/%u blocks correct, %u+%u blocks reported\n", good, blocks,
               swr ? swr->blocks : 0, hw_blocks);

    weft_hwthread_destroy(hw);
    weft_shutdown(s.w);
    plat->ops->close(plat);
    weft_mbox_destroy(&s.descriptors);
    sem_destroy(&s.done);
    pthread_mutex_destroy(&s.take);
    free(swr);
    free(ref);
    free(orig);
    free(cpu);
    free(bus);
    return ok ? 0 : 1;
}

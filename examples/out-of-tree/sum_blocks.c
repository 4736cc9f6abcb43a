/*
 * sum-blocks: a program and its own hardware thread, built outside Weft's tree
 * (examples/out-of-tree, docs/install.md).
 *
 * hwt_sum (hwt_sum.sv) takes jobs {bus address, length} from one mailbox, reads each
 * block of shared memory with one burst and puts the sum of its words into another.
 * The program fills blocks with known words, sends a job per block, checks each sum
 * against the CPU's, then ends the thread with address 0.
 *
 * usage: sum-blocks [IMAGE]   (default: the image this build made)
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "weft/mbox.h"
#include "weft/sim.h"
#include "weft/weft.h"

enum { BLOCKS = 8, WORDS = 256 };

/* Sends every block's job and checks every sum; 0 when all were right. A sum that does
 * not come within 60 s means the thread has stopped: join says why. */
static int run_jobs(weft_mbox_t *jobs, weft_mbox_t *sums, const uint32_t *data, uint64_t bus)
{
    int wrong = 0;
    for (unsigned b = 0; b < BLOCKS; b++) {
        uint32_t want = 0, got = 0;
        for (unsigned i = 0; i < WORDS; i++)
            want += data[b * WORDS + i];
        weft_mbox_put(jobs, (uint32_t)(bus + b * WORDS * 4u));
        weft_mbox_put(jobs, WORDS * 4u);
        if (weft_mbox_timedget(sums, &got, 60000) != 0) {
            fprintf(stderr, "sum-blocks: block %u: no sum from the thread\n", b);
            return 1;
        }
        if (got != want) {
            fprintf(stderr, "sum-blocks: block %u: hardware 0x%08x, CPU 0x%08x\n", b, got, want);
            wrong = 1;
        }
    }
    printf("sum-blocks: %u blocks of %u words summed in hardware, %s\n", BLOCKS, WORDS,
           wrong ? "MISMATCH" : "all equal to the CPU's sums");
    weft_mbox_put(jobs, 0); /* address 0: the thread exits */
    weft_mbox_put(jobs, 0);
    return wrong;
}

int main(int argc, char **argv)
{
    weft_platform_t *p = NULL;
    weft_t *w = NULL;
    int rc = weft_sim_open(&p, NULL);
    if (rc == 0 && (rc = weft_init(&w, p)) != 0)
        p->ops->close(p);
    if (rc != 0) {
        fprintf(stderr, "sum-blocks: cannot open the fabric: %s\n", strerror(-rc));
        return 1;
    }

    uint32_t *data = NULL;
    uint64_t bus = 0;
    weft_mbox_t jobs, sums;
    weft_mbox_init(&jobs, 16);
    weft_mbox_init(&sums, 16);
    rc = weft_mem_alloc(w, BLOCKS * WORDS * 4u, (void **)&data, &bus);
    if (rc == 0) {
        for (unsigned i = 0; i < BLOCKS * WORDS; i++)
            data[i] = i * 2654435761u; /* Knuth's multiplicative hash: words that differ */
    }

    /* Handle 0: the job mailbox, handle 1: the sums (init data says so); the thread may
     * read the blocks and nothing else. */
    weft_resource_t res[] = {{WEFT_RES_MBOX, &jobs}, {WEFT_RES_MBOX, &sums}};
    weft_mem_window_t win = {.bus = bus, .size = BLOCKS * WORDS * 4u, .perm = WEFT_MEM_READ};
    weft_hwthread_attr_t attr = {.name = "sum",
                                 .image = argc > 1 ? argv[1] : WEFT_SUM_IMAGE,
                                 .slot = 0,
                                 .resources = res,
                                 .num_resources = 2,
                                 .init_data = 0 | (1u << 8),
                                 .windows = &win,
                                 .num_windows = 1};
    weft_hwthread_t *t = NULL;
    weft_exit_status_t st = {0};
    int wrong = 1;
    if (rc == 0 && (rc = weft_hwthread_create(w, &t, &attr)) == 0) {
        wrong = run_jobs(&jobs, &sums, data, bus);
        rc = weft_hwthread_timedjoin(t, &st, 60000);
        if (rc == 0 && (st.kind != WEFT_EXIT_NORMAL || st.value != 0)) {
            fprintf(stderr, "sum-blocks: the thread ended badly: %s (value 0x%08x)\n", st.message,
                    st.value);
            wrong = 1;
        }
        weft_hwthread_destroy(t);
    }
    if (rc != 0)
        fprintf(stderr, "sum-blocks: %s\n", strerror(-rc));
    if (data)
        weft_mem_free(w, data);
    weft_mbox_destroy(&jobs);
    weft_mbox_destroy(&sums);
    weft_shutdown(w);
    p->ops->close(p);
    return rc == 0 && !wrong ? 0 : 1;
}

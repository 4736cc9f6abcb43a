/*
 * weft-hello: the smallest Weft program (docs/getting-started.md): open the simulated
 * fabric, run one hardware thread (hwt_task_fib: F(n) of its init data n) in slot 0, wait
 * for its result, close everything in order.
 *
 * usage: weft-hello [IMAGE]   (default: build/images/hwt_task_fib.so, from the tree's top)
 */
#include <stdio.h>
#include <string.h>

#include "weft/sim.h"
#include "weft/weft.h"

int main(int argc, char **argv)
{
    weft_platform_t *p = NULL;
    weft_t *w = NULL;
    int rc = weft_sim_open(&p, NULL); /* the simulated fabric, clock running */
    if (rc == 0)
        rc = weft_init(&w, p); /* the runtime on it */
    if (rc != 0) {
        fprintf(stderr, "hello: cannot open the fabric: %s\n", strerror(-rc));
        return 1;
    }
    weft_hwthread_attr_t attr = {.name = "fib",
                                 .image = argc > 1 ? argv[1] : "build/images/hwt_task_fib.so",
                                 .slot = 0,
                                 .init_data = 30};
    weft_hwthread_t *t = NULL;
    weft_exit_status_t st;
    rc = weft_hwthread_create(w, &t, &attr); /* load it into slot 0 and let it run */
    if (rc == 0)
        rc = weft_hwthread_join(t, &st); /* until its THREAD_EXIT */
    if (rc == 0 && st.kind == WEFT_EXIT_NORMAL)
        printf("F(30) = %u, computed in slot 0\n", st.value);
    else
        fprintf(stderr, "hello: %s\n", rc ? strerror(-rc) : st.message);
    if (t)
        weft_hwthread_destroy(t); /* frees the slot */
    weft_shutdown(w);             /* the runtime first, */
    p->ops->close(p);             /* then the platform */
    return rc == 0 && st.kind == WEFT_EXIT_NORMAL ? 0 : 1;
}

/*
 * The OS services' interrupt thread (docs/hw-services.md): one per runtime, started by
 * the first call that needs it. The static region's OS services share one interrupt line
 * (IRQ_PENDING bit NUM_SLOTS): the synchronisation manager's software contexts raise it
 * when an armed call is answered (hwsync_call.c), the thread manager when its decision
 * changes (mthread.c). The thread waits on the line and lets each serve what it has.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <pthread.h>
#include <signal.h>

#include "weft_internal.h"

/* Should the line fail, the thread goes on serving every millisecond. */
static void *svc_main(void *arg)
{
    weft_t *w = arg;
    const unsigned line = WEFT_IRQ_LINE_SVC(w->num_slots);
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the application's threads' */
    pthread_setname_np(pthread_self(), "weft-svc");
    bool polling = false;
    while (!atomic_load(&w->svc_stop)) {
        int rc = w->platform->ops->irq_wait(w->platform, line, polling ? 1 : WEFT_IRQ_WAIT_MS);
        if (rc == -ECANCELED || (rc == -ETIMEDOUT && !polling))
            continue;
        if (rc != 0 && rc != -ETIMEDOUT && !polling) {
            weft_log(w,
                     "OS services: waiting for the interrupt line failed (%d); "
                     "serving every millisecond from now on",
                     rc);
            polling = true;
        }
        weft_swctx_service(w); /* first: a blocked call's answer is the most common */
        weft_tm_service(w);
    }
    return NULL;
}

int weft_svc_start(weft_t *w)
{
    int rc = 0;
    pthread_mutex_lock(&w->svc_lock);
    if (!w->svc_started) {
        atomic_store(&w->svc_stop, false);
        if (pthread_create(&w->svc_thread, NULL, svc_main, w) == 0)
            w->svc_started = true;
        else
            rc = -EAGAIN;
    }
    pthread_mutex_unlock(&w->svc_lock);
    return rc;
}

void weft_svc_stop(weft_t *w)
{
    pthread_mutex_lock(&w->svc_lock);
    bool started = w->svc_started;
    w->svc_started = false;
    pthread_mutex_unlock(&w->svc_lock);
    if (started) {
        atomic_store(&w->svc_stop, true);
        w->platform->ops->irq_cancel(w->platform, WEFT_IRQ_LINE_SVC(w->num_slots));
        pthread_join(w->svc_thread, NULL);
    }
}

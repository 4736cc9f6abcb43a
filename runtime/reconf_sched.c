/*
 * FRED's scheduling rules (reconf_sched.h). Requests live in one list; each is waiting in
 * its partition's queue, waiting for the port with a slot reserved, being programmed, or
 * running. Queues are short (a request per software task at most), so they are walked,
 * not indexed.
 */
#include "reconf_sched.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum slot_state { SLOT_FREE, SLOT_RESERVED, SLOT_PROGRAMMING, SLOT_RUNNING };
enum req_state { REQ_QUEUED, REQ_FOR_PORT, REQ_PROGRAMMING, REQ_RUNNING };

typedef struct request {
    uint64_t id, ticket, seq; /* seq: arrival order, breaks ticket ties */
    unsigned task, partition;
    int slot; /* -1 while queued */
    enum req_state state;
    struct request *next;
} request_t;

typedef struct slot {
    enum slot_state state;
    unsigned task;      /* what it holds, RECONF_NO_TASK when empty */
    int partition;      /* -1: in no partition */
    uint64_t freed_seq; /* when it last became free (least recent first) */
    request_t *req;
} slot_t;

struct reconf_sched {
    reconf_sched_ops_t ops;
    void *arg;
    unsigned num_partitions, num_tasks;
    unsigned *task_partition;
    slot_t slots[RECONF_MAX_SLOTS];
    request_t *reqs; /* every live request, newest first */
    bool port_busy;
    uint64_t next_id, next_seq;
    reconf_sched_stats_t stats;
};

int reconf_sched_create(reconf_sched_t **out, const reconf_layout_t *l,
                        const reconf_sched_ops_t *ops, void *arg)
{
    if (!out || !l || !ops || !ops->reconfigure || !ops->execute || !ops->fail ||
        l->num_partitions == 0 || !l->partition_slots || (l->num_tasks && !l->task_partition))
        return -EINVAL;
    uint64_t seen = 0;
    for (unsigned p = 0; p < l->num_partitions; p++) {
        uint64_t m = l->partition_slots[p];
        if (m == 0 || (m & seen))
            return -EINVAL;
        seen |= m;
    }
    for (unsigned t = 0; t < l->num_tasks; t++)
        if (l->task_partition[t] >= l->num_partitions)
            return -EINVAL;
    reconf_sched_t *s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    s->task_partition = calloc(l->num_tasks ? l->num_tasks : 1, sizeof *s->task_partition);
    if (!s->task_partition) {
        free(s);
        return -ENOMEM;
    }
    if (l->num_tasks)
        memcpy(s->task_partition, l->task_partition, l->num_tasks * sizeof *s->task_partition);
    s->ops = *ops;
    s->arg = arg;
    s->num_partitions = l->num_partitions;
    s->num_tasks = l->num_tasks;
    s->next_id = 1;
    for (unsigned i = 0; i < RECONF_MAX_SLOTS; i++) {
        s->slots[i].task = RECONF_NO_TASK;
        s->slots[i].partition = -1;
        for (unsigned p = 0; p < l->num_partitions; p++)
            if (l->partition_slots[p] >> i & 1)
                s->slots[i].partition = (int)p;
    }
    *out = s;
    return 0;
}

void reconf_sched_destroy(reconf_sched_t *s)
{
    if (!s)
        return;
    while (s->reqs) {
        request_t *r = s->reqs;
        s->reqs = r->next;
        free(r);
    }
    free(s->task_partition);
    free(s);
}

static void unlink_req(reconf_sched_t *s, request_t *r)
{
    for (request_t **p = &s->reqs; *p; p = &(*p)->next)
        if (*p == r) {
            *p = r->next;
            return;
        }
}

/* The free slot of partition p a request for task takes: one holding it, else an empty
 * one, else the one free the longest; -1 when none is free. */
static int pick_slot(const reconf_sched_t *s, unsigned p, unsigned task)
{
    int best = -1, rank = 3;
    for (int i = 0; i < (int)RECONF_MAX_SLOTS; i++) {
        const slot_t *sl = &s->slots[i];
        if (sl->partition != (int)p || sl->state != SLOT_FREE)
            continue;
        int r = sl->task == task ? 0 : sl->task == RECONF_NO_TASK ? 1 : 2;
        if (r < rank || (r == rank && r == 2 && sl->freed_seq < s->slots[best].freed_seq)) {
            best = i;
            rank = r;
        }
    }
    return best;
}

/* The oldest ticket waiting for the port gets it, if it is idle. */
static void run_port(reconf_sched_t *s)
{
    if (s->port_busy)
        return;
    request_t *first = NULL;
    for (request_t *r = s->reqs; r; r = r->next)
        if (r->state == REQ_FOR_PORT && (!first || r->ticket < first->ticket ||
                                         (r->ticket == first->ticket && r->seq < first->seq)))
            first = r;
    if (!first)
        return;
    s->port_busy = true;
    first->state = REQ_PROGRAMMING;
    s->slots[first->slot].state = SLOT_PROGRAMMING;
    s->ops.reconfigure(s->arg, (unsigned)first->slot, first->task, first->id);
}

/* Give request r slot i (free): run at once when the slot holds its task, else wait for
 * the port with the slot reserved. */
static void grant(reconf_sched_t *s, request_t *r, int i)
{
    slot_t *sl = &s->slots[i];
    r->slot = i;
    sl->req = r;
    if (sl->task == r->task) {
        s->stats.reused++;
        r->state = REQ_RUNNING;
        sl->state = SLOT_RUNNING;
        s->ops.execute(s->arg, (unsigned)i, r->id);
        return;
    }
    r->state = REQ_FOR_PORT;
    sl->state = SLOT_RESERVED;
    run_port(s);
}

/* Slot i is free: the head of its partition's queue (the oldest queued) takes it. */
static void slot_freed(reconf_sched_t *s, int i)
{
    slot_t *sl = &s->slots[i];
    sl->state = SLOT_FREE;
    sl->req = NULL;
    sl->freed_seq = s->next_seq++;
    request_t *head = NULL;
    for (request_t *r = s->reqs; r; r = r->next)
        if (r->state == REQ_QUEUED && (int)r->partition == sl->partition &&
            (!head || r->seq < head->seq))
            head = r;
    if (head)
        grant(s, head, i);
}

int reconf_sched_submit(reconf_sched_t *s, unsigned task, uint64_t ticket, uint64_t *req)
{
    if (!s || task >= s->num_tasks)
        return -EINVAL;
    request_t *r = calloc(1, sizeof *r);
    if (!r)
        return -ENOMEM;
    r->id = s->next_id++;
    r->ticket = ticket;
    r->seq = s->next_seq++;
    r->task = task;
    r->partition = s->task_partition[task];
    r->slot = -1;
    r->state = REQ_QUEUED;
    r->next = s->reqs;
    s->reqs = r;
    s->stats.requests++;
    if (req)
        *req = r->id;
    /* A queue is non-empty only while its partition has no free slot, so a request that
     * finds a free slot is never ahead of a queued one. */
    int i = pick_slot(s, r->partition, task);
    if (i >= 0)
        grant(s, r, i);
    return 0;
}

int reconf_sched_reconfigured(reconf_sched_t *s, unsigned slot, bool ok)
{
    if (!s || slot >= RECONF_MAX_SLOTS || s->slots[slot].state != SLOT_PROGRAMMING)
        return -EINVAL;
    slot_t *sl = &s->slots[slot];
    request_t *r = sl->req;
    s->port_busy = false;
    if (ok) {
        s->stats.reconfigured++;
        sl->task = r->task;
        sl->state = SLOT_RUNNING;
        r->state = REQ_RUNNING;
        s->ops.execute(s->arg, slot, r->id);
    } else {
        s->stats.failed++;
        sl->task = RECONF_NO_TASK;
        sl->req = NULL;
        unlink_req(s, r);
        uint64_t id = r->id;
        free(r);
        s->ops.fail(s->arg, id, -EIO);
        slot_freed(s, (int)slot);
    }
    run_port(s);
    return 0;
}

int reconf_sched_finished(reconf_sched_t *s, unsigned slot)
{
    if (!s || slot >= RECONF_MAX_SLOTS || s->slots[slot].state != SLOT_RUNNING)
        return -EINVAL;
    request_t *r = s->slots[slot].req;
    unlink_req(s, r);
    free(r);
    slot_freed(s, (int)slot);
    return 0;
}

int reconf_sched_cancel(reconf_sched_t *s, uint64_t id)
{
    if (!s)
        return -EINVAL;
    request_t *r = s->reqs;
    while (r && r->id != id)
        r = r->next;
    if (!r)
        return -ENOENT;
    if (r->state == REQ_PROGRAMMING || r->state == REQ_RUNNING)
        return -EBUSY;
    int slot = r->state == REQ_FOR_PORT ? r->slot : -1;
    if (slot >= 0)
        s->slots[slot].req = NULL;
    unlink_req(s, r);
    free(r);
    s->stats.cancelled++;
    s->ops.fail(s->arg, id, -ECANCELED);
    if (slot >= 0)
        slot_freed(s, slot);
    return 0;
}

unsigned reconf_sched_slot_task(const reconf_sched_t *s, unsigned slot)
{
    return s && slot < RECONF_MAX_SLOTS ? s->slots[slot].task : RECONF_NO_TASK;
}

void reconf_sched_stats(const reconf_sched_t *s, reconf_sched_stats_t *out)
{
    if (s && out)
        *out = s->stats;
}

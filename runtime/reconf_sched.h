/*
 * The scheduling rules of run-time reconfiguration (FRED, Biondi et al., RTSS 2016;
 * docs/reconfiguration.md, "Scheduling"): which request gets which slot and when the
 * reconfiguration port programs it. Pure bookkeeping: the owner tells it what happened
 * (a request arrived, the port finished a slot, a task ended) and it answers through the
 * ops below, which start the port or a task. No locks, no clock: the owner serialises the
 * calls and stamps each request with its arrival time (its ticket).
 *
 * Rules:
 * - A task runs only in a slot of its partition. A request whose partition has a free
 *   slot gets one at once; otherwise it waits in its partition's queue, first in first
 *   out. A slot freed by a task's end goes to the head of that queue.
 * - A slot that already holds the requested task runs it without reconfiguration. Of the
 *   free slots of a partition the request takes one holding its task, else an empty one,
 *   else the one free the longest (so recently run tasks stay for reuse).
 * - A request whose slot must be programmed joins the port's queue, ordered by ticket
 *   (arrival time; equal tickets by arrival order): the port programs one slot at a time,
 *   the lowest ticket first, and the task starts once its slot is programmed.
 * - Execution is not preemptive: a request cancelled while its slot is being programmed or
 *   its task runs is not taken back (the owner may stop the task, then report its end).
 */
#ifndef WEFT_RECONF_SCHED_H
#define WEFT_RECONF_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RECONF_MAX_SLOTS 64u
#define RECONF_NO_TASK UINT32_MAX

typedef struct reconf_sched reconf_sched_t;

/** What the scheduler asks its owner to do. */
typedef struct reconf_sched_ops {
    /** Start the port programming slot with task for request req (one at a time). */
    void (*reconfigure)(void *arg, unsigned slot, unsigned task, uint64_t req);
    /** Start request req on slot, which holds its task. */
    void (*execute)(void *arg, unsigned slot, uint64_t req);
    /** Request req ends without running: err is negative errno (-EIO: its slot could not be
     *  programmed). */
    void (*fail)(void *arg, uint64_t req, int err);
} reconf_sched_ops_t;

/** The fabric it schedules. */
typedef struct reconf_layout {
    unsigned num_partitions;
    const uint64_t *partition_slots; /**< per partition: its slots (bit i: slot i), disjoint */
    unsigned num_tasks;
    const unsigned *task_partition; /**< per task: the partition it fits */
} reconf_layout_t;

/** Counters since creation. */
typedef struct reconf_sched_stats {
    uint64_t requests, reused, reconfigured, failed, cancelled;
} reconf_sched_stats_t;

/** 0, -EINVAL (an empty or overlapping partition, a task of no partition, a slot past
 *  RECONF_MAX_SLOTS) or -ENOMEM. */
int reconf_sched_create(reconf_sched_t **out, const reconf_layout_t *layout,
                        const reconf_sched_ops_t *ops, void *arg);
void reconf_sched_destroy(reconf_sched_t *s);

/** A request for task with its ticket; *req receives its number (1, 2, ...). The ops it
 *  triggers are called before it returns. 0 or -EINVAL (no such task) or -ENOMEM. */
int reconf_sched_submit(reconf_sched_t *s, unsigned task, uint64_t ticket, uint64_t *req);

/** The port finished programming slot: ok, the slot holds the task and it starts; else the
 *  slot is left empty and the request fails with -EIO. -EINVAL when the port was not
 *  programming that slot. */
int reconf_sched_reconfigured(reconf_sched_t *s, unsigned slot, bool ok);

/** The task running in slot ended (done, failed or stopped by its owner): the slot is
 *  free again and keeps its task. -EINVAL when no task runs there. */
int reconf_sched_finished(reconf_sched_t *s, unsigned slot);

/** Cancel a request that waits in its partition's queue or for the port (its reserved slot
 *  is freed); fail() is called with -ECANCELED. -EBUSY when its slot is being programmed
 *  or it runs, -ENOENT when no such request waits. */
int reconf_sched_cancel(reconf_sched_t *s, uint64_t req);

/** The task a slot holds, or RECONF_NO_TASK. */
unsigned reconf_sched_slot_task(const reconf_sched_t *s, unsigned slot);

void reconf_sched_stats(const reconf_sched_t *s, reconf_sched_stats_t *out);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_RECONF_SCHED_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The order victims are taken in (Volcano's util.BuildVictimsPriorityQueue),
 * for the actions that evict (preempt, reclaim) and the plugins that choose
 * victims themselves (capacity): below both, as Volcano's util package is.
 */
#ifndef VS_SCHED_VICTIMS_H
#define VS_SCHED_VICTIMS_H

#include "sched/pqueue.h"
#include "sched/session.h"

/*
 * Grow an array of the session arena to room for @need elements of @size,
 * by doubling (the arena never frees: at most twice the largest need).
 * The old contents are kept. -ENOMEM leaves it as it was.
 */
int vs_scratch_reserve(struct vs_session *ssn, void **array, u32 *cap, u32 need, size_t size);

/*
 * Volcano's BuildVictimsPriorityQueue: victims come out lowest first.
 * Between tasks of one job, the reverse of the task order; between jobs of
 * one queue, the reverse of the job order (tasks compared as in one job
 * when the job order plugins tie); between queues, the victim queue order
 * with respect to the preemptor's queue. The comparisons read the live
 * state, as Volcano's heap does, so the queue is a struct vs_pqueue.
 */
struct vs_victim {
	struct vs_task *task;
	const struct vs_task *preemptor;
};

struct vs_victim_queue {
	struct vs_pqueue pq;
	struct vs_victim *slots;	/* session arena, reused from fill to fill */
	u32 cap;
};

void vs_victim_queue_init(struct vs_victim_queue *vq, struct vs_session *ssn);
/* Empty the queue, then push @victims. -ENOMEM leaves it empty. */
int vs_victim_queue_fill(struct vs_victim_queue *vq, const struct vs_task *preemptor,
			 struct vs_task *const *victims, u32 nr);
/* The next victim, or NULL. */
struct vs_task *vs_victim_queue_pop(struct vs_victim_queue *vq);

#endif /* VS_SCHED_VICTIMS_H */

// SPDX-License-Identifier: Apache-2.0
/*
 * The victims' priority queue of preempt, reclaim and the capacity plugin
 * (sched/victims.h), and the session scratch arrays it grows.
 */
#include <string.h>

#include "core/arena.h"
#include "sched/victims.h"

int vs_scratch_reserve(struct vs_session *ssn, void **array, u32 *cap, u32 need, size_t size)
{
	u32 n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = vs_arena_alloc(ssn->arena, (size_t)n * size);
	if (!p)
		return -ENOMEM;
	if (*cap)
		memcpy(p, *array, (size_t)*cap * size);
	*array = p;
	*cap = n;
	return 0;
}

/*
 * The less function of BuildVictimsPriorityQueue. Volcano negates its
 * TaskOrderFn and QueueOrderFn, whose fallbacks (creation order) never tie
 * for two different objects, so negating a three-way comparison is the same.
 */
static int victim_cmp(struct vs_session *ssn, const void *a, const void *b)
{
	const struct vs_victim *l = a, *r = b;
	const struct vs_job *lj = l->task->job, *rj = r->task->job;
	const struct vs_job *pj = l->preemptor->job;
	bool l_gone = lj->sidx == VS_SIDX_NONE, r_gone = rj->sidx == VS_SIDX_NONE;
	int c;

	if (lj == rj)
		return -vs_ssn_task_order(ssn, l->task, r->task);
	/* A task whose PodGroup the session lacks goes first. */
	if (l_gone || r_gone) {
		if (l_gone && r_gone)
			return -vs_ssn_task_order(ssn, l->task, r->task);
		return l_gone ? -1 : 1;
	}
	if (pj->sidx != VS_SIDX_NONE && lj->queue != rj->queue)
		return vs_ssn_victim_queue_order(ssn, lj->queue, rj->queue, pj->queue);
	c = vs_ssn_job_compare(ssn, lj, rj);
	if (c)
		return -c;
	return -vs_ssn_task_order(ssn, l->task, r->task);
}

void vs_victim_queue_init(struct vs_victim_queue *vq, struct vs_session *ssn)
{
	vs_pq_init(&vq->pq, ssn, ssn->arena, victim_cmp);
	vq->slots = NULL;
	vq->cap = 0;
}

int vs_victim_queue_fill(struct vs_victim_queue *vq, const struct vs_task *preemptor,
			 struct vs_task *const *victims, u32 nr)
{
	struct vs_session *ssn = vq->pq.ssn;
	int ret;

	vs_pq_clear(&vq->pq);
	/* Before any push: the heap points into the slots. */
	ret = vs_scratch_reserve(ssn, (void **)&vq->slots, &vq->cap, nr, sizeof(*vq->slots));
	if (ret)
		return ret;
	for (u32 i = 0; i < nr; i++) {
		vq->slots[i] = (struct vs_victim){ .task = victims[i], .preemptor = preemptor };
		ret = vs_pq_push(&vq->pq, &vq->slots[i]);
		if (ret) {
			vs_pq_clear(&vq->pq);
			return ret;
		}
	}
	return 0;
}

struct vs_task *vs_victim_queue_pop(struct vs_victim_queue *vq)
{
	struct vs_victim *v = vs_pq_pop(&vq->pq);

	return v ? v->task : NULL;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The priority queue of the actions (queues, jobs, tasks to try next).
 *
 * It is a binary heap that sifts exactly as Go's container/heap does, which
 * is what Volcano's util.PriorityQueue is built on. That matters: the
 * comparisons depend on state that changes while items wait in the queue (a
 * queue's share grows as its tasks are placed), so the order items come out
 * in depends on where the heap put them, not only on the final comparison.
 * Reproducing the sift steps reproduces Volcano's order, and its decisions.
 *
 * Storage comes from the session arena; the queue grows by doubling.
 */
#ifndef VS_SCHED_PQUEUE_H
#define VS_SCHED_PQUEUE_H

#include "core/arena.h"
#include "core/compiler.h"

struct vs_session;

/* Negative when @a should come out before @b. */
typedef int (*vs_pq_cmp_fn)(struct vs_session *ssn, const void *a, const void *b);

struct vs_pqueue {
	void **items;
	u32 nr, cap;
	vs_pq_cmp_fn cmp;
	struct vs_session *ssn;
	struct vs_arena *arena;
};

void vs_pq_init(struct vs_pqueue *pq, struct vs_session *ssn, struct vs_arena *arena,
		vs_pq_cmp_fn cmp);

/* 0, or -ENOMEM (the queue is unchanged). */
int vs_pq_push(struct vs_pqueue *pq, void *item);

/* Make @dst a copy of @src (Volcano's PriorityQueue.Clone); -ENOMEM. */
int vs_pq_copy(struct vs_pqueue *dst, const struct vs_pqueue *src);
/* The same, @dst's items (and what it grows into) from @arena. */
int vs_pq_copy_into(struct vs_pqueue *dst, const struct vs_pqueue *src, struct vs_arena *arena);

/* The first item, removed; NULL when empty. */
void *vs_pq_pop(struct vs_pqueue *pq);

/* Drop every item, keeping the storage for the next fill. */
static inline void vs_pq_clear(struct vs_pqueue *pq)
{
	pq->nr = 0;
}

static inline bool vs_pq_empty(const struct vs_pqueue *pq)
{
	return pq->nr == 0;
}

static inline u32 vs_pq_len(const struct vs_pqueue *pq)
{
	return pq->nr;
}

#endif /* VS_SCHED_PQUEUE_H */

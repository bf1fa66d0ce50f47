// SPDX-License-Identifier: Apache-2.0
/*
 * A binary heap with Go's container/heap sift rules. See pqueue.h for why
 * the exact steps matter.
 */
#include <errno.h>
#include <string.h>

#include "sched/pqueue.h"

void vs_pq_init(struct vs_pqueue *pq, struct vs_session *ssn, struct vs_arena *arena,
		vs_pq_cmp_fn cmp)
{
	memset(pq, 0, sizeof(*pq));
	pq->ssn = ssn;
	pq->arena = arena;
	pq->cmp = cmp;
}

int vs_pq_copy(struct vs_pqueue *dst, const struct vs_pqueue *src)
{
	return vs_pq_copy_into(dst, src, src->arena);
}

int vs_pq_copy_into(struct vs_pqueue *dst, const struct vs_pqueue *src, struct vs_arena *arena)
{
	*dst = *src;
	dst->arena = arena;
	dst->cap = src->nr;
	dst->items = NULL;
	if (!src->nr)
		return 0;
	dst->items = vs_arena_alloc(arena, src->nr * sizeof(*dst->items));
	if (!dst->items)
		return -ENOMEM;
	memcpy(dst->items, src->items, src->nr * sizeof(*dst->items));
	return 0;
}

static bool less(const struct vs_pqueue *pq, u32 i, u32 j)
{
	return pq->cmp(pq->ssn, pq->items[i], pq->items[j]) < 0;
}

static void swap(struct vs_pqueue *pq, u32 i, u32 j)
{
	void *t = pq->items[i];

	pq->items[i] = pq->items[j];
	pq->items[j] = t;
}

/* container/heap's up(): move j towards the root while it is less than its parent. */
static void up(struct vs_pqueue *pq, u32 j)
{
	while (j > 0) {
		u32 i = (j - 1) / 2;

		if (!less(pq, j, i))
			break;
		swap(pq, i, j);
		j = i;
	}
}

/* container/heap's down(): sift i0 down among the first n items. */
static void down(struct vs_pqueue *pq, u32 i0, u32 n)
{
	u32 i = i0;

	for (;;) {
		u32 j1 = 2 * i + 1, j = j1;

		if (j1 >= n)
			break;
		if (j1 + 1 < n && less(pq, j1 + 1, j1))
			j = j1 + 1;	/* the right child, when it is less */
		if (!less(pq, j, i))
			break;
		swap(pq, i, j);
		i = j;
	}
}

int vs_pq_push(struct vs_pqueue *pq, void *item)
{
	if (pq->nr == pq->cap) {
		u32 cap = pq->cap ? pq->cap * 2 : 16;
		void **items = vs_arena_alloc(pq->arena, cap * sizeof(*items));

		if (!items)
			return -ENOMEM;
		if (pq->nr)
			memcpy(items, pq->items, pq->nr * sizeof(*items));
		pq->items = items;
		pq->cap = cap;
	}
	pq->items[pq->nr++] = item;
	up(pq, pq->nr - 1);
	return 0;
}

void *vs_pq_pop(struct vs_pqueue *pq)
{
	u32 n;

	if (!pq->nr)
		return NULL;
	/* heap.Pop: swap the root with the last, sift it down, take the last. */
	n = pq->nr - 1;
	swap(pq, 0, n);
	down(pq, 0, n);
	return pq->items[--pq->nr];
}

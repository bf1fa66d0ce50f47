// SPDX-License-Identifier: Apache-2.0
/*
 * The node index: see nodeindex.h.
 *
 * Slot 1 is the root; slot i has the children 2i and 2i + 1; the leaves
 * are size..2 size - 1, the leaf of the node of session index s at size + s
 * (leaves past the session's nodes stay empty). An inner slot holds the
 * better of its children's keys (a higher score, or an equal one with an
 * earlier node) and the larger of their maxima, so the root knows the
 * index's best node, and a subtree whose maxima do not reach a request
 * holds no node that does.
 *
 * The search is best first: a heap of slots ordered by their keys, the
 * root first; a popped inner slot gives its children that may hold the
 * request, a popped leaf is a node to ask about. Every subtree's key is at
 * least as good as any of its nodes', so the nodes come out in the index's
 * order. A node dropped during a search makes the keys of its ancestors
 * already in the heap too good, never too bad: they come out early, and
 * only give their children, whose keys are true.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sched/nodeindex.h"

static const struct vs_nidx_slot empty_slot = {
	.score = 0,
	.sidx = VS_NIDX_EMPTY,
	.max = { { INT64_MIN, INT64_MIN } },
};

/* @a's key comes before @b's: a node before none, a higher score, an earlier node. */
static bool before(const struct vs_nidx_slot *a, const struct vs_nidx_slot *b)
{
	if (a->sidx == VS_NIDX_EMPTY || b->sidx == VS_NIDX_EMPTY)
		return b->sidx == VS_NIDX_EMPTY && a->sidx != VS_NIDX_EMPTY;
	if (a->score != b->score)
		return a->score > b->score;
	return a->sidx < b->sidx;
}

static bool reaches(const struct vs_nidx_max *m, const struct vs_nidx_max *need)
{
	return m->v[VS_NIDX_CPU] >= need->v[VS_NIDX_CPU] &&
	       m->v[VS_NIDX_MEM] >= need->v[VS_NIDX_MEM];
}

/* What slot @i holds, from its children. */
static void combined(const struct vs_nidx_slot *t, u32 i, struct vs_nidx_slot *out)
{
	const struct vs_nidx_slot *l = &t[2 * i], *r = &t[2 * i + 1];
	const struct vs_nidx_slot *best = before(r, l) ? r : l;

	out->score = best->score;
	out->sidx = best->sidx;
	for (int d = 0; d < VS_NIDX_NR; d++)
		out->max.v[d] = l->max.v[d] > r->max.v[d] ? l->max.v[d] : r->max.v[d];
}

static void fix_up(struct vs_nidx *ix, u32 leaf)
{
	for (u32 i = leaf >> 1; i; i >>= 1)
		combined(ix->t, i, &ix->t[i]);
}

size_t vs_nidx_bytes(u32 nr_nodes)
{
	size_t size = 1;

	while (size < nr_nodes)
		size *= 2;
	return 2 * size * (sizeof(struct vs_nidx_slot) + sizeof(u32)) +
	       nr_nodes * sizeof(struct vs_node *);
}

int vs_nidx_init(struct vs_nidx *ix, u32 nr_nodes)
{
	u32 size = 1;

	while (size < nr_nodes)
		size *= 2;
	memset(ix, 0, sizeof(*ix));
	ix->t = malloc(2 * (size_t)size * sizeof(*ix->t));
	ix->heap = malloc(2 * (size_t)size * sizeof(*ix->heap));
	ix->nodes = calloc(nr_nodes ? nr_nodes : 1, sizeof(*ix->nodes));
	if (!ix->t || !ix->heap || !ix->nodes) {
		vs_nidx_destroy(ix);
		return -ENOMEM;
	}
	for (u32 i = 0; i < 2 * size; i++)
		ix->t[i] = empty_slot;
	ix->size = size;
	ix->nr_nodes = nr_nodes;
	return 0;
}

void vs_nidx_destroy(struct vs_nidx *ix)
{
	free(ix->t);
	free(ix->heap);
	free(ix->nodes);
	memset(ix, 0, sizeof(*ix));
}

void vs_nidx_remove(struct vs_nidx *ix, struct vs_node *node)
{
	u32 leaf = ix->size + node->sidx;

	if (!ix->nodes[node->sidx])
		return;
	ix->nodes[node->sidx] = NULL;
	ix->t[leaf] = empty_slot;
	fix_up(ix, leaf);
	ix->nr--;
}

void vs_nidx_set(struct vs_nidx *ix, struct vs_node *node, double score)
{
	static const unsigned int dims[VS_NIDX_NR] = {
		[VS_NIDX_CPU] = VS_RES_CPU, [VS_NIDX_MEM] = VS_RES_MEMORY,
	};
	const s64 *idle = node->idle.v, *rel = node->releasing.v, *pip = node->pipelined.v;
	u32 leaf = ix->size + node->sidx;
	struct vs_nidx_slot *s = &ix->t[leaf];

	if (!ix->nodes[node->sidx])
		ix->nr++;
	ix->nodes[node->sidx] = node;
	s->score = score;
	s->sidx = node->sidx;
	/* The larger of Idle and FutureIdle, as vs_node_future_idle() has it. */
	for (int d = 0; d < VS_NIDX_NR; d++) {
		s64 i = idle[dims[d]], f = i + rel[dims[d]] - pip[dims[d]];

		s->max.v[d] = i > f ? i : f;
	}
	fix_up(ix, leaf);
}

/* ---- the search: a binary heap of slots, best key on top ---- */

static bool heap_before(const struct vs_nidx *ix, u32 a, u32 b)
{
	return before(&ix->t[a], &ix->t[b]);
}

static void heap_push(struct vs_nidx *ix, u32 *n, u32 slot)
{
	u32 i = (*n)++;

	while (i && heap_before(ix, slot, ix->heap[(i - 1) / 2])) {
		ix->heap[i] = ix->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	ix->heap[i] = slot;
}

static u32 heap_pop(struct vs_nidx *ix, u32 *n)
{
	u32 top = ix->heap[0], last = ix->heap[--*n], i = 0;

	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && heap_before(ix, ix->heap[c + 1], ix->heap[c]))
			c++;
		if (!heap_before(ix, ix->heap[c], last))
			break;
		ix->heap[i] = ix->heap[c];
		i = c;
	}
	if (*n)
		ix->heap[i] = last;
	return top;
}

struct vs_node *vs_nidx_first(struct vs_nidx *ix, const struct vs_nidx_max *need,
			      vs_nidx_accept_fn accept, void *ctx)
{
	u32 n = 0;

	if (ix->t[1].sidx == VS_NIDX_EMPTY || !reaches(&ix->t[1].max, need))
		return NULL;
	heap_push(ix, &n, 1);
	while (n) {
		u32 slot = heap_pop(ix, &n);
		struct vs_node *node;

		if (slot < ix->size) {
			/* An inner slot: its children that may hold the request. */
			for (u32 c = 2 * slot; c <= 2 * slot + 1; c++)
				if (ix->t[c].sidx != VS_NIDX_EMPTY && reaches(&ix->t[c].max, need))
					heap_push(ix, &n, c);
			continue;
		}
		/* A leaf: its node may have left the index since it was pushed. */
		node = ix->nodes[slot - ix->size];
		if (!node)
			continue;
		switch (accept(ctx, node)) {
		case VS_NIDX_TAKE:
			return node;
		case VS_NIDX_DROP:
			vs_nidx_remove(ix, node);
			break;
		case VS_NIDX_SKIP:
			break;
		}
	}
	return NULL;
}

int vs_nidx_check(const struct vs_nidx *ix, struct vs_err *err)
{
	struct vs_nidx_slot want;
	u32 n = 0;

	for (u32 s = 0; s < ix->size; s++) {
		const struct vs_nidx_slot *leaf = &ix->t[ix->size + s];
		const struct vs_node *node = s < ix->nr_nodes ? ix->nodes[s] : NULL;

		if (!node != (leaf->sidx == VS_NIDX_EMPTY) || (node && leaf->sidx != s))
			return vs_err_set(err, EIO, "node index: leaf %u does not hold its node", s);
		n += node != NULL;
	}
	if (n != ix->nr)
		return vs_err_set(err, EIO, "node index: %u nodes counted, %u held", ix->nr, n);
	for (u32 i = ix->size - 1; i >= 1; i--) {
		const struct vs_nidx_slot *got = &ix->t[i];

		combined(ix->t, i, &want);
		if (want.sidx != got->sidx || (want.sidx != VS_NIDX_EMPTY && want.score != got->score) ||
		    memcmp(&want.max, &got->max, sizeof(want.max)))
			return vs_err_set(err, EIO, "node index: slot %u is stale", i);
	}
	return 0;
}

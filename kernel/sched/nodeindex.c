// SPDX-License-Identifier: Apache-2.0
/*
 * The node index: see nodeindex.h.
 *
 * Slot 1 is the root; slot i has the children 2i and 2i + 1; the leaves
 * are size..2 size - 1, the leaf of the node of session index s at size +
 * pos[s], or size + s without a layout (leaves past the session's nodes
 * stay empty). An inner slot holds the
 * better of its children's keys (a higher score, or an equal one with an
 * earlier node), so the root knows the index's best node.
 *
 * The search is best first: a heap of slots ordered by their keys, the
 * root first; a popped inner slot gives its children, a popped leaf is a
 * node to ask about. Every subtree's key is at
 * least as good as any of its nodes', so the nodes come out in the index's
 * order. A node dropped during a search makes the keys of its ancestors
 * already in the heap too good, never too bad: they come out early, and
 * only give their children, whose keys are true.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sched/nodeindex.h"

BUILD_BUG_ON(sizeof(struct vs_nidx_slot) != 16);

static const struct vs_nidx_slot empty_slot = {
	.score = 0,
	.sidx = VS_NIDX_EMPTY,
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

/* What slot @i holds, from its children. */
static void combined(const struct vs_nidx_slot *t, u32 i, struct vs_nidx_slot *out)
{
	const struct vs_nidx_slot *l = &t[2 * i], *r = &t[2 * i + 1];

	*out = before(r, l) ? *r : *l;
}

static bool same_slot(const struct vs_nidx_slot *a, const struct vs_nidx_slot *b)
{
	return a->sidx == b->sidx && a->score == b->score;
}

/*
 * Rewrite the slots above @leaf. A slot that comes out as it was leaves its
 * ancestors as they are: they are made of it and of slots that did not
 * change. Most changes stop a level up: a node that was not its subtree's
 * best, and is not now, changes nothing above.
 */
static void fix_up(struct vs_nidx *ix, u32 leaf)
{
	struct vs_nidx_slot s;

	for (u32 i = leaf >> 1; i; i >>= 1) {
		combined(ix->t, i, &s);
		if (same_slot(&s, &ix->t[i]))
			break;
		ix->t[i] = s;
	}
}

size_t vs_nidx_bytes(u32 nr_nodes)
{
	size_t size = 2;

	while (size < nr_nodes)
		size *= 2;
	return 2 * size * (sizeof(struct vs_nidx_slot) + sizeof(u32));
}

int vs_nidx_init(struct vs_nidx *ix, struct vs_node *const *nodes, u32 nr_nodes, const u32 *pos)
{
	u32 size = 2;	/* 2 * size slots: a multiple of the 64 bytes aligned_alloc() aligns to */

	while (size < nr_nodes)
		size *= 2;
	memset(ix, 0, sizeof(*ix));
	/* Sibling slots in one cache line: a level of fix_up() reads one line. */
	ix->t = aligned_alloc(64, 2 * (size_t)size * sizeof(*ix->t));
	ix->heap = malloc(2 * (size_t)size * sizeof(*ix->heap));
	ix->nodes = nodes;
	ix->pos = pos;
	if (!ix->t || !ix->heap) {
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
	memset(ix, 0, sizeof(*ix));
}

void vs_nidx_remove(struct vs_nidx *ix, struct vs_node *node)
{
	u32 leaf = vs_nidx_leaf(ix, node->sidx);

	if (ix->t[leaf].sidx == VS_NIDX_EMPTY)
		return;
	ix->t[leaf] = empty_slot;
	fix_up(ix, leaf);
	ix->nr--;
}

void vs_nidx_put(struct vs_nidx *ix, struct vs_node *node, double score)
{
	struct vs_nidx_slot *s = &ix->t[vs_nidx_leaf(ix, node->sidx)];

	ix->nr += s->sidx == VS_NIDX_EMPTY;
	s->score = score;
	s->sidx = node->sidx;
}

void vs_nidx_fix_all(struct vs_nidx *ix)
{
	for (u32 i = ix->size - 1; i >= 1; i--)
		combined(ix->t, i, &ix->t[i]);
}

void vs_nidx_set(struct vs_nidx *ix, struct vs_node *node, double score)
{
	u32 leaf = vs_nidx_leaf(ix, node->sidx);
	struct vs_nidx_slot *s = &ix->t[leaf];
	struct vs_nidx_slot n = { .score = score, .sidx = node->sidx };

	if (s->sidx == VS_NIDX_EMPTY)
		ix->nr++;
	else if (s->score == score)
		return;
	*s = n;
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

/* Ask @accept about the nodes below the @n slots in the heap, best key first. */
static struct vs_node *search(struct vs_nidx *ix, u32 n, vs_nidx_accept_fn accept, void *ctx)
{
	while (n) {
		u32 slot = heap_pop(ix, &n);
		struct vs_node *node;

		if (slot < ix->size) {
			/* An inner slot: its children that hold nodes. */
			for (u32 c = 2 * slot; c <= 2 * slot + 1; c++)
				if (ix->t[c].sidx != VS_NIDX_EMPTY)
					heap_push(ix, &n, c);
			continue;
		}
		/* A leaf: its node may have left the index since it was pushed. */
		if (ix->t[slot].sidx == VS_NIDX_EMPTY)
			continue;
		node = ix->nodes[ix->t[slot].sidx];
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

struct vs_node *vs_nidx_first(struct vs_nidx *ix, vs_nidx_accept_fn accept, void *ctx)
{
	u32 n = 0;

	if (ix->t[1].sidx == VS_NIDX_EMPTY)
		return NULL;
	heap_push(ix, &n, 1);
	return search(ix, n, accept, ctx);
}

/*
 * Walk up from leaf positions @lo and @hi: at each level, l_ (when odd)
 * and r_ - 1 (when r_ is odd) are the slots whose subtrees make up
 * positions @lo .. @hi - 1 exactly, at most two a level.
 */
#define for_each_cover(ix, lo, hi, l_, r_)					\
	for ((l_) = (lo) + (ix)->size, (r_) = (hi) + (ix)->size; (l_) < (r_);	\
	     (l_) >>= 1, (r_) >>= 1)

struct vs_node *vs_nidx_first_in(struct vs_nidx *ix, u32 lo, u32 hi, vs_nidx_accept_fn accept,
				 void *ctx)
{
	u32 n = 0, l, r;

	if (hi > ix->size)
		hi = ix->size;
	for_each_cover(ix, lo, hi, l, r) {
		if ((l & 1) && ix->t[l].sidx != VS_NIDX_EMPTY)
			heap_push(ix, &n, l);
		if ((r & 1) && ix->t[r - 1].sidx != VS_NIDX_EMPTY)
			heap_push(ix, &n, r - 1);
		l += l & 1;
		r -= r & 1;
	}
	return search(ix, n, accept, ctx);
}

bool vs_nidx_best_in(const struct vs_nidx *ix, u32 lo, u32 hi, double *score)
{
	const struct vs_nidx_slot *best = &empty_slot;
	u32 l, r;

	if (hi > ix->size)
		hi = ix->size;
	for_each_cover(ix, lo, hi, l, r) {
		if ((l & 1) && before(&ix->t[l], best))
			best = &ix->t[l];
		if ((r & 1) && before(&ix->t[r - 1], best))
			best = &ix->t[r - 1];
		l += l & 1;
		r -= r & 1;
	}
	*score = best->score;
	return best->sidx != VS_NIDX_EMPTY;
}

/* The best score below @below in the subtree of @slot, into *@best (-HUGE_VAL: none yet). */
static void best_below(const struct vs_nidx *ix, u32 slot, double below, double *best)
{
	const struct vs_nidx_slot *s = &ix->t[slot];

	if (s->sidx == VS_NIDX_EMPTY || s->score <= *best)
		return;		/* nothing here, or nothing better */
	if (s->score < below) {
		*best = s->score;
		return;
	}
	if (slot < ix->size) {
		best_below(ix, 2 * slot, below, best);
		best_below(ix, 2 * slot + 1, below, best);
	}
}

bool vs_nidx_best_below(const struct vs_nidx *ix, u32 lo, u32 hi, double below, double *score)
{
	double best = -HUGE_VAL;
	u32 l, r;

	if (hi > ix->size)
		hi = ix->size;
	for_each_cover(ix, lo, hi, l, r) {
		if (l & 1)
			best_below(ix, l, below, &best);
		if (r & 1)
			best_below(ix, r - 1, below, &best);
		l += l & 1;
		r -= r & 1;
	}
	*score = best;
	return best != -HUGE_VAL;
}

int vs_nidx_check(const struct vs_nidx *ix, struct vs_err *err)
{
	struct vs_nidx_slot want;
	u32 n = 0;

	for (u32 p = 0; p < ix->size; p++) {
		const struct vs_nidx_slot *leaf = &ix->t[ix->size + p];
		u32 s = leaf->sidx;

		if (s == VS_NIDX_EMPTY)
			continue;
		if (s >= ix->nr_nodes || ix->nodes[s]->sidx != s || vs_nidx_leaf(ix, s) != ix->size + p)
			return vs_err_set(err, EIO, "node index: leaf %u does not hold its node", p);
		n++;
	}
	if (n != ix->nr)
		return vs_err_set(err, EIO, "node index: %u nodes counted, %u held", ix->nr, n);
	for (u32 i = ix->size - 1; i >= 1; i--) {
		const struct vs_nidx_slot *got = &ix->t[i];

		combined(ix->t, i, &want);
		if (want.sidx != got->sidx || (want.sidx != VS_NIDX_EMPTY && want.score != got->score))
			return vs_err_set(err, EIO, "node index: slot %u is stale", i);
	}
	return 0;
}

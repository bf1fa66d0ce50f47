// SPDX-License-Identifier: Apache-2.0
/*
 * The node index: see nodeindex.h.
 *
 * The tree is in allocate's order: an entry comes before another when its
 * score is higher, or equal with its node earlier in the session. Each entry
 * keeps the largest of every dimension over its subtree (the augmented
 * rb-tree of core/rbtree_augmented.h, as an interval tree keeps the largest
 * end); a subtree whose maxima do not reach the need holds no node that
 * does, and is not visited. Maxima of different dimensions may come from
 * different nodes, so a subtree that passes may still hold none: the
 * search backtracks, in order, and asks its caller only about nodes whose
 * own values reach the need.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/rbtree_augmented.h"
#include "sched/nodeindex.h"

static struct vs_nidx_entry *entry_of(struct rb_node *rb)
{
	return rb ? rb_entry(rb, struct vs_nidx_entry, rb) : NULL;
}

/* @a comes before @b in allocate's order. */
static bool before(const struct vs_nidx_entry *a, const struct vs_nidx_entry *b)
{
	if (a->score != b->score)
		return a->score > b->score;
	return a->sidx < b->sidx;
}

static bool reaches(const struct vs_nidx_max *m, const struct vs_nidx_max *need)
{
	for (int d = 0; d < VS_NIDX_NR; d++)
		if (m->v[d] < need->v[d])
			return false;
	return true;
}

static void max_into(struct vs_nidx_max *m, const struct vs_nidx_max *o)
{
	for (int d = 0; d < VS_NIDX_NR; d++)
		if (o->v[d] > m->v[d])
			m->v[d] = o->v[d];
}

/* RB_DECLARE_CALLBACKS' compute: the subtree's maxima from the node's and its children's. */
static bool compute_sub(struct vs_nidx_entry *e, bool exit)
{
	struct vs_nidx_max m = e->own;

	if (e->rb.rb_left)
		max_into(&m, &entry_of(e->rb.rb_left)->sub);
	if (e->rb.rb_right)
		max_into(&m, &entry_of(e->rb.rb_right)->sub);
	if (exit && !memcmp(&m, &e->sub, sizeof(m)))
		return true;
	e->sub = m;
	return false;
}

RB_DECLARE_CALLBACKS(static, nidx_cb, struct vs_nidx_entry, rb, sub, compute_sub);

int vs_nidx_init(struct vs_nidx *ix, u32 nr_nodes)
{
	ix->root = RB_ROOT;
	ix->nr_nodes = nr_nodes;
	ix->nr = 0;
	ix->by_sidx = calloc(nr_nodes ? nr_nodes : 1, sizeof(*ix->by_sidx));
	return ix->by_sidx ? 0 : -ENOMEM;
}

void vs_nidx_destroy(struct vs_nidx *ix)
{
	free(ix->by_sidx);
	ix->by_sidx = NULL;
	ix->root = RB_ROOT;
	ix->nr = 0;
}

void vs_nidx_remove(struct vs_nidx *ix, struct vs_node *node)
{
	struct vs_nidx_entry *e = &ix->by_sidx[node->sidx];

	if (!e->node)
		return;
	rb_erase_augmented(&e->rb, &ix->root, &nidx_cb);
	e->node = NULL;
	ix->nr--;
}

/*
 * The node's values now: per dimension the larger of its Idle and its
 * FutureIdle (idle + releasing - pipelined, as vs_node_future_idle() has it).
 */
static void own_of(const struct vs_node *node, struct vs_nidx_max *own)
{
	const s64 *idle = node->idle.v, *rel = node->releasing.v, *pip = node->pipelined.v;
	static const unsigned int dims[VS_NIDX_NR] = {
		[VS_NIDX_CPU] = VS_RES_CPU, [VS_NIDX_MEM] = VS_RES_MEMORY,
	};

	for (int d = 0; d < VS_NIDX_NR; d++) {
		s64 i = idle[dims[d]], f = i + rel[dims[d]] - pip[dims[d]];

		own->v[d] = i > f ? i : f;
	}
}

void vs_nidx_set(struct vs_nidx *ix, struct vs_node *node, double score)
{
	struct vs_nidx_entry *e = &ix->by_sidx[node->sidx], *parent;
	struct rb_node **link = &ix->root.rb_node, *up = NULL;

	vs_nidx_remove(ix, node);
	e->node = node;
	e->sidx = node->sidx;
	e->score = score;
	own_of(node, &e->own);
	e->sub = e->own;
	/* Down to the leaf it hangs from: every subtree passed through now holds it. */
	while (*link) {
		up = *link;
		parent = entry_of(up);
		max_into(&parent->sub, &e->own);
		link = before(e, parent) ? &up->rb_left : &up->rb_right;
	}
	rb_link_node(&e->rb, up, link);
	rb_insert_augmented(&e->rb, &ix->root, &nidx_cb);
	ix->nr++;
}

/* The first entry of @rb's subtree, in order, whose own values reach @need. */
static struct vs_nidx_entry *subtree_first(struct rb_node *rb, const struct vs_nidx_max *need)
{
	struct vs_nidx_entry *e = entry_of(rb), *f;

	if (!e || !reaches(&e->sub, need))
		return NULL;
	f = subtree_first(rb->rb_left, need);
	if (f)
		return f;
	if (reaches(&e->own, need))
		return e;
	return subtree_first(rb->rb_right, need);
}

/* The first entry after @rb, in order, whose own values reach @need. */
static struct vs_nidx_entry *next_reaching(struct rb_node *rb, const struct vs_nidx_max *need)
{
	struct vs_nidx_entry *f = subtree_first(rb->rb_right, need);
	struct rb_node *up;

	if (f)
		return f;
	/* Up to the first ancestor this subtree is on the left of: it comes next. */
	for (; (up = rb_parent(rb)); rb = up) {
		if (up->rb_left != rb)
			continue;
		if (reaches(&entry_of(up)->own, need))
			return entry_of(up);
		f = subtree_first(up->rb_right, need);
		if (f)
			return f;
	}
	return NULL;
}

struct vs_node *vs_nidx_first(struct vs_nidx *ix, const struct vs_nidx_max *need,
			      vs_nidx_accept_fn accept, void *ctx)
{
	struct vs_nidx_entry *e = subtree_first(ix->root.rb_node, need), *next;

	while (e) {
		enum vs_nidx_verdict v = accept(ctx, e->node);

		if (v == VS_NIDX_TAKE)
			return e->node;
		/* Taken before the entry may go: erasing it keeps the others' order. */
		next = next_reaching(&e->rb, need);
		if (v == VS_NIDX_DROP)
			vs_nidx_remove(ix, e->node);
		e = next;
	}
	return NULL;
}

/* The subtree's maxima recomputed from scratch; -EIO when a stored one differs. */
static int check_sub(const struct vs_nidx_entry *e, struct vs_nidx_max *out, struct vs_err *err)
{
	struct vs_nidx_max m = e->own, c;
	int ret;

	if (e->rb.rb_left) {
		ret = check_sub(entry_of(e->rb.rb_left), &c, err);
		if (ret)
			return ret;
		max_into(&m, &c);
	}
	if (e->rb.rb_right) {
		ret = check_sub(entry_of(e->rb.rb_right), &c, err);
		if (ret)
			return ret;
		max_into(&m, &c);
	}
	if (memcmp(&m, &e->sub, sizeof(m)))
		return vs_err_set(err, EIO, "node index: the maxima of node %s's subtree are "
				  "stale", e->node->name);
	*out = m;
	return 0;
}

int vs_nidx_check(const struct vs_nidx *ix, struct vs_err *err)
{
	const struct vs_nidx_entry *prev = NULL, *e;
	struct vs_nidx_max m;
	u32 n = 0, listed = 0;

	for (struct rb_node *rb = rb_first(&ix->root); rb; rb = rb_next(rb)) {
		e = entry_of(rb);
		if (prev && !before(prev, e))
			return vs_err_set(err, EIO, "node index: node %s comes after node %s out of "
					  "order", e->node->name, prev->node->name);
		if (&ix->by_sidx[e->node->sidx] != e)
			return vs_err_set(err, EIO, "node index: node %s is not at its index",
					  e->node->name);
		prev = e;
		n++;
	}
	for (u32 i = 0; i < ix->nr_nodes; i++)
		listed += ix->by_sidx[i].node != NULL;
	if (n != ix->nr || listed != ix->nr)
		return vs_err_set(err, EIO, "node index: %u entries in the tree, %u listed, %u "
				  "counted", n, listed, ix->nr);
	if (ix->root.rb_node)
		return check_sub(entry_of(ix->root.rb_node), &m, err);
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A node index: the session's nodes in the order allocate chooses among them
 * for one task template (DESIGN.md, "Choosing a node fast, and exactly").
 *
 * Allocate takes, among the nodes a task passes the predicates on, the one
 * of the highest score whose idle resources hold the task, else the one of
 * the highest score whose future idle resources do; equal scores go to the
 * node first in the session's order. When a task's score on a node depends
 * on that node alone, the order of the nodes by (score, highest first; then
 * session order) is the same for every task of one template, and changes
 * only where a node's accounting changes.
 *
 * The index is a tournament tree over the session's nodes, in an array: a
 * leaf per node (its score), and in every inner slot the best key of its
 * subtree (score, then session order). Changing a node rewrites the slots
 * on its way to the root, O(log n) without rebalancing, and stops at the
 * first slot that comes out unchanged. A search visits subtrees best key
 * first (a heap of slots), so it meets the nodes in allocate's order:
 * O(log n) when the first will do.
 *
 * The index holds only nodes that may hold its template's cpu and memory
 * (allocate leaves the others out, and puts them back when their
 * accounting changes): a search need not prune by resources. Slots are
 * 16 bytes, four to a cache line, and a change of a node that is not its
 * subtree's best stops one level up.
 *
 * The index does not decide: vs_nidx_first() asks its caller, for each node
 * in index order, whether the node will do (the exact resource fit and the
 * predicates), and returns the first it accepts. Its caller re-scores
 * (vs_nidx_set()) every node whose accounting changed before it searches
 * again.
 */
#ifndef VS_SCHED_NODEINDEX_H
#define VS_SCHED_NODEINDEX_H

#include "core/node.h"

/* A slot of the tree: a node's leaf, or the best of a subtree. */
struct vs_nidx_slot {
	double score;
	u32 sidx;			/* VS_NIDX_EMPTY: no node below */
};

#define VS_NIDX_EMPTY	UINT32_MAX

struct vs_nidx {
	struct vs_nidx_slot *t;		/* 2 * size slots; 1 is the root, size + position a leaf */
	struct vs_node *const *nodes;	/* the session's nodes, by sidx (not the index's) */
	/*
	 * The position of the leaf of each session node (by sidx), or NULL:
	 * its sidx. Nodes a search may be restricted to (a HyperNode's) are
	 * put at consecutive positions, so that they are one range.
	 */
	const u32 *pos;
	u32 size;			/* leaves: the power of two at or above nr_nodes */
	u32 nr_nodes;
	u32 nr;				/* nodes in the index */
	u32 *heap;			/* the search's slots, best key first: 2 * size */
};

/*
 * An empty index for the @nr_nodes session nodes @nodes (by sidx; the array
 * must outlive the index), each at the leaf position @pos[sidx] (a
 * permutation of 0..nr_nodes - 1 that outlives the index too), or at its
 * sidx when @pos is NULL; -ENOMEM.
 */
int vs_nidx_init(struct vs_nidx *ix, struct vs_node *const *nodes, u32 nr_nodes, const u32 *pos);
void vs_nidx_destroy(struct vs_nidx *ix);

/* The bytes an index of @nr_nodes nodes holds. */
size_t vs_nidx_bytes(u32 nr_nodes);

/*
 * Filling an index at once: vs_nidx_put() writes @node's leaf alone, and
 * vs_nidx_fix_all() then writes every inner slot, bottom up, in one pass
 * over the array (O(n), where a vs_nidx_set() per node is O(n log n)).
 * No search in between.
 */
void vs_nidx_put(struct vs_nidx *ix, struct vs_node *node, double score);
void vs_nidx_fix_all(struct vs_nidx *ix);

/* Put @node (of the session) in the index with @score, or move it there. */
void vs_nidx_set(struct vs_nidx *ix, struct vs_node *node, double score);

/* Take @node out of the index (nothing if it is not in). */
void vs_nidx_remove(struct vs_nidx *ix, struct vs_node *node);

/* The slot of the leaf of session node @sidx. */
static inline u32 vs_nidx_leaf(const struct vs_nidx *ix, u32 sidx)
{
	return ix->size + (ix->pos ? ix->pos[sidx] : sidx);
}

/*
 * Start loading what vs_nidx_set() of session node @sidx reads first: its
 * leaf and the slot above (a level of slots is a cache line per node).
 */
static inline void vs_nidx_prefetch(const struct vs_nidx *ix, u32 sidx)
{
	u32 leaf = vs_nidx_leaf(ix, sidx);

	__builtin_prefetch(&ix->t[leaf]);
	__builtin_prefetch(&ix->t[leaf >> 1]);
}

/* The score @node is in the index with (it must be in). */
static inline double vs_nidx_score(const struct vs_nidx *ix, const struct vs_node *node)
{
	return ix->t[vs_nidx_leaf(ix, node->sidx)].score;
}

static inline bool vs_nidx_has(const struct vs_nidx *ix, const struct vs_node *node)
{
	return ix->t[vs_nidx_leaf(ix, node->sidx)].sidx != VS_NIDX_EMPTY;
}

/*
 * Whether @node will do, asked in index order. VS_NIDX_TAKE ends the search
 * with it; VS_NIDX_SKIP goes on; VS_NIDX_DROP takes the node out of the
 * index (it will not do until its accounting changes and it is set again)
 * and goes on.
 */
enum vs_nidx_verdict {
	VS_NIDX_SKIP,
	VS_NIDX_TAKE,
	VS_NIDX_DROP,
};

typedef enum vs_nidx_verdict (*vs_nidx_accept_fn)(void *ctx, struct vs_node *node);

/* The first node in index order that @accept takes; NULL when there is none. */
struct vs_node *vs_nidx_first(struct vs_nidx *ix, vs_nidx_accept_fn accept, void *ctx);

/* The same among the nodes at leaf positions @lo .. @hi - 1. */
struct vs_node *vs_nidx_first_in(struct vs_nidx *ix, u32 lo, u32 hi, vs_nidx_accept_fn accept,
				 void *ctx);

/*
 * The best score of a node at leaf positions @lo .. @hi - 1, in *@score;
 * false when none is in the index. O(log n).
 */
bool vs_nidx_best_in(const struct vs_nidx *ix, u32 lo, u32 hi, double *score);

/*
 * The best score below @below of a node at leaf positions @lo .. @hi - 1,
 * in *@score; false when there is none. It descends only into subtrees
 * holding a node scored @below or more: cheap when they are few.
 */
bool vs_nidx_best_below(const struct vs_nidx *ix, u32 lo, u32 hi, double below, double *score);

/* Check every slot against its children and every leaf against its node; 0 or -EIO (tests). */
int vs_nidx_check(const struct vs_nidx *ix, struct vs_err *err);

#endif /* VS_SCHED_NODEINDEX_H */

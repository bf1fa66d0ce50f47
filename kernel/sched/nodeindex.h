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
 * leaf per node (its score, and the cpu and memory it may offer: per
 * dimension the larger of its Idle and its FutureIdle), and in every inner
 * slot the best key of its subtree (score, then session order) and the
 * largest cpu and memory of its nodes. Changing a node rewrites the
 * slots on its way to the root, O(log n) without rebalancing. A search
 * visits subtrees best key first (a heap of slots) and skips those whose
 * maxima cannot hold the request, so it meets the nodes in allocate's
 * order among those that may hold it: O(log n) when the first fits.
 *
 * The index does not decide: vs_nidx_first() asks its caller, for each node
 * the maxima let through, whether the node will do (the exact resource fit
 * and the predicates), in index order, and returns the first it accepts.
 * Its caller re-scores (vs_nidx_set()) every node whose accounting changed
 * before it searches again.
 */
#ifndef VS_SCHED_NODEINDEX_H
#define VS_SCHED_NODEINDEX_H

#include "core/node.h"

/*
 * What the subtree maxima are kept of, for pruning: per dimension, the
 * larger of a node's Idle and FutureIdle (idle + releasing - pipelined),
 * which a request must not exceed to fit either.
 */
enum vs_nidx_dim {
	VS_NIDX_CPU,
	VS_NIDX_MEM,
	VS_NIDX_NR,
};

struct vs_nidx_max {
	s64 v[VS_NIDX_NR];
};

/* A slot of the tree: a node's leaf, or the best of a subtree. */
struct vs_nidx_slot {
	double score;
	u32 sidx;			/* VS_NIDX_EMPTY: no node below */
	struct vs_nidx_max max;
};

#define VS_NIDX_EMPTY	UINT32_MAX

struct vs_nidx {
	struct vs_nidx_slot *t;		/* 2 * size slots; 1 is the root, size + sidx a leaf */
	struct vs_node **nodes;		/* by sidx: the node, NULL when not in the index */
	u32 size;			/* leaves: the power of two at or above nr_nodes */
	u32 nr_nodes;
	u32 nr;				/* nodes in the index */
	u32 *heap;			/* the search's slots, best key first: 2 * size */
};

/* An empty index for @nr_nodes session nodes; -ENOMEM. */
int vs_nidx_init(struct vs_nidx *ix, u32 nr_nodes);
void vs_nidx_destroy(struct vs_nidx *ix);

/* The bytes an index of @nr_nodes nodes holds. */
size_t vs_nidx_bytes(u32 nr_nodes);

/* Put @node (of the session) in the index with @score, or move it there; its resources are read now. */
void vs_nidx_set(struct vs_nidx *ix, struct vs_node *node, double score);

/* Take @node out of the index (nothing if it is not in). */
void vs_nidx_remove(struct vs_nidx *ix, struct vs_node *node);

static inline bool vs_nidx_has(const struct vs_nidx *ix, const struct vs_node *node)
{
	return ix->nodes[node->sidx] != NULL;
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

/*
 * The first node in index order whose own values reach @need in every
 * dimension (a dimension of no concern needs INT64_MIN) and that @accept
 * takes; NULL when there is none.
 */
struct vs_node *vs_nidx_first(struct vs_nidx *ix, const struct vs_nidx_max *need,
			      vs_nidx_accept_fn accept, void *ctx);

/* Check every slot against its children and every leaf against its node; 0 or -EIO (tests). */
int vs_nidx_check(const struct vs_nidx *ix, struct vs_err *err);

#endif /* VS_SCHED_NODEINDEX_H */

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
 * only where a node's accounting changes. The index keeps that order in an
 * rb-tree, each entry holding its node's score and the cpu and memory it
 * may offer (the larger of its idle and its future idle), and each subtree
 * the largest of those, so that the first node whose resources may hold a
 * request in either gradient is found without visiting subtrees that
 * cannot: O(log n) when the first candidates fit.
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
#include "core/rbtree.h"

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

struct vs_nidx_entry {
	struct rb_node rb;
	struct vs_node *node;		/* NULL: the node is not in the index */
	double score;
	u32 sidx;			/* node->sidx, compared without touching the node */
	struct vs_nidx_max own;		/* the node's, when it was set */
	struct vs_nidx_max sub;		/* the largest over the subtree */
};

struct vs_nidx {
	struct rb_root root;
	struct vs_nidx_entry *by_sidx;	/* one per session node, by node->sidx */
	u32 nr_nodes;
	u32 nr;				/* entries in the tree */
};

/* An empty index for @nr_nodes session nodes; -ENOMEM. */
int vs_nidx_init(struct vs_nidx *ix, u32 nr_nodes);
void vs_nidx_destroy(struct vs_nidx *ix);

/* Put @node (of the session) in the index with @score, or move it there; its resources are read now. */
void vs_nidx_set(struct vs_nidx *ix, struct vs_node *node, double score);

/* Take @node out of the index (nothing if it is not in). */
void vs_nidx_remove(struct vs_nidx *ix, struct vs_node *node);

static inline bool vs_nidx_has(const struct vs_nidx *ix, const struct vs_node *node)
{
	return ix->by_sidx[node->sidx].node != NULL;
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
 * dimension (a dimension of no concern needs S64_MIN) and that @accept
 * takes; NULL when there is none.
 */
struct vs_node *vs_nidx_first(struct vs_nidx *ix, const struct vs_nidx_max *need,
			      vs_nidx_accept_fn accept, void *ctx);

/* Check the order and every subtree maximum; 0 or -EIO with why (for tests). */
int vs_nidx_check(const struct vs_nidx *ix, struct vs_err *err);

#endif /* VS_SCHED_NODEINDEX_H */

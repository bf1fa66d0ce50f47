/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Intrusive red-black trees, with the Linux kernel's vocabulary, cut down
 * to what the cluster's name trees (core/nametree.h) and its active jobs
 * (cluster.h) use.
 *
 * An object kept in a tree embeds a struct rb_node; the tree is a struct
 * rb_root. The library never compares keys: the caller walks down from the
 * root itself, links the new node where the walk ended (rb_link_node()) and
 * then asks the library to restore the colour rules (rb_insert_color()).
 * That keeps the comparison inlined at the caller, lets one object sit in
 * several trees under different orders, and means nothing is allocated.
 * Besides that, the library unlinks (rb_erase()) and walks in order
 * (rb_first(), rb_next()); nothing else has a user, so nothing else is
 * here (no reverse walks, cached leftmost, comparison-callback helpers or
 * augmented trees: take them from Linux when a user comes).
 *
 * Invariants, true between any two calls into the library:
 *  - the root is black;
 *  - a red node has no red child;
 *  - every path from a node down to a NULL link crosses the same number of
 *    black nodes;
 *  - each child's parent word points at its parent, and the root's parent
 *    is NULL.
 * Together they bound the height by 2 * log2(n + 1), which is what makes
 * every operation O(log n).
 */
#ifndef VS_CORE_RBTREE_H
#define VS_CORE_RBTREE_H

#include "core/compiler.h"

/*
 * The parent pointer and the colour share one word: nodes are at least
 * word-aligned, so bit 0 of a parent's address is always zero and holds the
 * colour instead (0 red, 1 black). A node whose parent word points at itself
 * is on no tree (RB_CLEAR_NODE).
 */
struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_ROOT		((struct rb_root) { NULL, })

#define RB_EMPTY_ROOT(root)	(READ_ONCE((root)->rb_node) == NULL)

/* A node on no tree points at itself; one on a tree never does. */
#define RB_EMPTY_NODE(node) \
	((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node) \
	((node)->__rb_parent_color = (unsigned long)(node))

/*
 * Attach @node as the red child of @parent through @rb_link, the NULL link
 * where the caller's descent ended (&parent->rb_left or &parent->rb_right,
 * or &root->rb_node for an empty tree, with @parent NULL).
 */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = NULL;
	node->rb_right = NULL;
	*rb_link = node;
}

/*
 * Rebalance after rb_link_node(): @node must be the red leaf the caller just
 * linked. Recolours and rotates so that the invariants above hold again.
 */
void rb_insert_color(struct rb_node *node, struct rb_root *root);

/*
 * Unlink @node from @root and rebalance. The in-order sequence of the other
 * nodes is unchanged. @node's own fields are left stale: RB_CLEAR_NODE() it
 * if the caller wants to test membership later.
 */
void rb_erase(struct rb_node *node, struct rb_root *root);

/* Smallest node in order; NULL for an empty tree. */
struct rb_node *rb_first(const struct rb_root *root);

/* In-order successor; NULL past the end or for a cleared node. */
struct rb_node *rb_next(const struct rb_node *node);

#endif /* VS_CORE_RBTREE_H */

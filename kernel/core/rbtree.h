/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Intrusive red-black trees, with the Linux kernel's vocabulary.
 *
 * An object kept in a tree embeds a struct rb_node; the tree is a struct
 * rb_root. The library never compares keys: the caller walks down from the
 * root itself, links the new node where the walk ended (rb_link_node()) and
 * then asks the library to restore the colour rules (rb_insert_color()).
 * That keeps the comparison inlined at the caller, lets one object sit in
 * several trees under different orders, and means nothing is allocated.
 * rb_add(), rb_find() and friends wrap the usual descent for callers that
 * are happy with a less()/cmp() function.
 *
 * struct rb_root_cached also remembers the leftmost node, so the minimum is
 * O(1): the shape a timer queue or a priority-ordered run queue wants.
 *
 * Invariants, true between any two calls into the library:
 *  - the root is black;
 *  - a red node has no red child;
 *  - every path from a node down to a NULL link crosses the same number of
 *    black nodes;
 *  - for each node n, rb_parent(n->rb_left) == n and likewise on the right,
 *    and the root's parent is NULL.
 * Together they bound the height by 2 * log2(n + 1), which is what makes
 * every operation O(log n).
 *
 * Subtree summaries (the maximum end of an interval tree, a subtree size for
 * order statistics) live in core/rbtree_augmented.h.
 */
#ifndef VS_CORE_RBTREE_H
#define VS_CORE_RBTREE_H

#include "core/compiler.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

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

/* rb_leftmost is NULL exactly when the tree is empty. */
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT		((struct rb_root) { NULL, })
#define RB_ROOT_CACHED	((struct rb_root_cached) { { NULL, }, NULL })

#define rb_parent(r)	((struct rb_node *)((r)->__rb_parent_color & ~1UL))

#define rb_entry(ptr, type, member) container_of(ptr, type, member)

/* rb_entry() that maps NULL to NULL, for the result of rb_first() and kin. */
#define rb_entry_safe(ptr, type, member) ({				\
	__typeof__(ptr) ____ptr = (ptr);				\
	____ptr ? rb_entry(____ptr, type, member) : NULL; })

#define RB_EMPTY_ROOT(root)	(READ_ONCE((root)->rb_node) == NULL)

/* A node on no tree points at itself; one on a tree never does. */
#define RB_EMPTY_NODE(node) \
	((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node) \
	((node)->__rb_parent_color = (unsigned long)(node))

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

/* In-order neighbours; NULL past either end or for a cleared node. */
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

/* Smallest and largest node in order; NULL for an empty tree. */
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);

/*
 * Post-order: every node comes after both its children, so a caller may
 * free each node as it is visited without ever touching freed memory, as
 * long as it fetched the next node first. The tree is not rebalanced and is
 * garbage afterwards; reset the root when done.
 */
struct rb_node *rb_first_postorder(const struct rb_root *root);
struct rb_node *rb_next_postorder(const struct rb_node *node);

/*
 * Put @new where @victim is, taking its colour, parent and children. No
 * rebalancing happens, so @new must sort exactly where @victim did.
 */
void rb_replace_node(struct rb_node *victim, struct rb_node *new,
		     struct rb_root *root);

/* Free a whole tree: @pos is the entry, @n the next one, both of one type. */
#define rbtree_postorder_for_each_entry_safe(pos, n, root, field)		\
	for (pos = rb_entry_safe(rb_first_postorder(root), __typeof__(*pos), field); \
	     pos && ({ n = rb_entry_safe(rb_next_postorder(&pos->field),	\
					 __typeof__(*pos), field); 1; });	\
	     pos = n)

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

/* ---- cached trees: the leftmost node kept for an O(1) minimum ---- */

#define rb_first_cached(root) ((root)->rb_leftmost)

/*
 * rb_insert_color() for a cached tree. @leftmost tells whether the caller's
 * descent only ever went left, that is whether @node is the new minimum.
 */
static inline void rb_insert_color_cached(struct rb_node *node,
					  struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

/*
 * rb_erase() for a cached tree. Returns the new leftmost node when @node
 * was the leftmost, and NULL otherwise (also NULL when @node was the last
 * node), so a caller can tell that its minimum changed.
 */
static inline struct rb_node *rb_erase_cached(struct rb_node *node,
					      struct rb_root_cached *root)
{
	struct rb_node *leftmost = NULL;

	if (root->rb_leftmost == node)
		leftmost = root->rb_leftmost = rb_next(node);
	rb_erase(node, &root->rb_root);
	return leftmost;
}

static inline void rb_replace_node_cached(struct rb_node *victim,
					  struct rb_node *new,
					  struct rb_root_cached *root)
{
	if (root->rb_leftmost == victim)
		root->rb_leftmost = new;
	rb_replace_node(victim, new, &root->rb_root);
}

/*
 * ---- Descent helpers ----
 *
 * The comparison functions are passed by pointer but these helpers are
 * always inlined, so with a static less()/cmp() the call disappears and the
 * result is the hand-written descent.
 *
 * Equal keys: rb_add() and rb_add_cached() put a new node after every node
 * it compares equal to, so equal keys keep their insertion order and
 * rb_find_first() returns the oldest of them.
 */

/* Insert @node into @tree by @less(a, b), "a sorts before b". */
static __always_inline void
rb_add(struct rb_node *node, struct rb_root *tree,
       bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node;
	struct rb_node *parent = NULL;

	while (*link) {
		parent = *link;
		if (less(node, parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
}

/*
 * rb_add() for a cached tree. Returns true when @node became the leftmost
 * node, that is when it sorts strictly before every node already there.
 */
static __always_inline bool
rb_add_cached(struct rb_node *node, struct rb_root_cached *tree,
	      bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color_cached(node, tree, leftmost);
	return leftmost;
}

/*
 * Insert @node unless a node comparing equal is already there. @cmp(a, b)
 * is <0, 0 or >0 as a sorts before, with or after b. Returns the node that
 * was in the way, or NULL when @node went in.
 */
static __always_inline struct rb_node *
rb_find_add(struct rb_node *node, struct rb_root *tree,
	    int (*cmp)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node;
	struct rb_node *parent = NULL;
	int c;

	while (*link) {
		parent = *link;
		c = cmp(node, parent);
		if (c < 0)
			link = &parent->rb_left;
		else if (c > 0)
			link = &parent->rb_right;
		else
			return parent;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
	return NULL;
}

/*
 * Some node matching @key, or NULL. @cmp(key, node) is <0, 0 or >0 as @key
 * sorts before, with or after @node. With duplicates, which of the equal
 * nodes comes back depends on the shape; use rb_find_first() for the first.
 */
static __always_inline struct rb_node *
rb_find(const void *key, const struct rb_root *tree,
	int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *node = tree->rb_node;
	int c;

	while (node) {
		c = cmp(key, node);
		if (c < 0)
			node = node->rb_left;
		else if (c > 0)
			node = node->rb_right;
		else
			return node;
	}
	return NULL;
}

/*
 * The first node in order matching @key, or NULL. A match does not end the
 * walk: an earlier equal node can only be in the match's left subtree, so
 * remember it and keep going left.
 */
static __always_inline struct rb_node *
rb_find_first(const void *key, const struct rb_root *tree,
	      int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *node = tree->rb_node;
	struct rb_node *match = NULL;
	int c;

	while (node) {
		c = cmp(key, node);
		if (c <= 0) {
			if (!c)
				match = node;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return match;
}

/* The node after @node if it still matches @key, else NULL. */
static __always_inline struct rb_node *
rb_next_match(const void *key, struct rb_node *node,
	      int (*cmp)(const void *key, const struct rb_node *))
{
	node = rb_next(node);
	if (node && cmp(key, node))
		node = NULL;
	return node;
}

/* Every node matching @key, in order. */
#define rb_for_each(node, key, tree, cmp)				\
	for ((node) = rb_find_first((key), (tree), (cmp));		\
	     (node); (node) = rb_next_match((key), (node), (cmp)))

#endif /* VS_CORE_RBTREE_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Augmented red-black trees: a summary of each subtree kept in its root.
 *
 * Each node carries a value computed from itself and its children's
 * summaries (the largest interval end below it, the number of nodes below
 * it). A summary answers questions about a whole subtree without walking
 * it, which turns "any interval containing x?" or "the k-th smallest" into
 * one O(log n) descent.
 *
 * The library only knows that summaries exist. Three callbacks keep them
 * right while it moves nodes around:
 *  - propagate(node, stop): recompute node and its ancestors, up to but not
 *    including @stop (NULL: up to the root); it may stop early as soon as a
 *    recomputed summary comes out unchanged, since nothing above can change;
 *  - copy(old, new): @new takes over @old's position and whole subtree, so
 *    it takes @old's summary as it stands;
 *  - rotate(old, new): after a rotation that moved @new up into @old's
 *    place: @new now heads the very set of nodes @old headed, so it takes
 *    @old's summary, and @old, which lost a subtree, recomputes its own.
 * RB_DECLARE_CALLBACKS() writes the three for a summary defined by one
 * compute function; RB_DECLARE_CALLBACKS_MAX() for the common "maximum of a
 * per-node value over the subtree".
 *
 * Inserting: the caller's descent must already fold the new node into the
 * summary of every node it passes (they all gain it as a descendant) and set
 * the new node's own summary, before rb_insert_augmented(); the library then
 * only has rotations to account for. Changing a node's value in place:
 * call propagate(node, NULL) afterwards.
 *
 * This header also holds the colour helpers the library itself uses; code
 * outside core/rbtree.c and the augmented users should not need them.
 */
#ifndef VS_CORE_RBTREE_AUGMENTED_H
#define VS_CORE_RBTREE_AUGMENTED_H

#include "core/compiler.h"
#include "core/rbtree.h"

struct rb_augment_callbacks {
	void (*propagate)(struct rb_node *node, struct rb_node *stop);
	void (*copy)(struct rb_node *old, struct rb_node *new);
	void (*rotate)(struct rb_node *old, struct rb_node *new);
};

/*
 * The shared rebalancing steps of core/rbtree.c, with the rotate callback
 * that the plain entry points replace by a no-op.
 */
void __rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			   void (*augment_rotate)(struct rb_node *old,
						  struct rb_node *new));
void __rb_erase_color(struct rb_node *parent, struct rb_root *root,
		      void (*augment_rotate)(struct rb_node *old,
					     struct rb_node *new));

/*
 * rb_insert_color() for an augmented tree: @node is linked and every
 * summary on its path already includes it (see the top of this file).
 */
static inline void rb_insert_augmented(struct rb_node *node,
				       struct rb_root *root,
				       const struct rb_augment_callbacks *augment)
{
	__rb_insert_augmented(node, root, augment->rotate);
}

static inline void
rb_insert_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
			   bool newleft,
			   const struct rb_augment_callbacks *augment)
{
	if (newleft)
		root->rb_leftmost = node;
	rb_insert_augmented(node, &root->rb_root, augment);
}

/*
 * Generate the callbacks @RBNAME (a const struct rb_augment_callbacks,
 * declared @RBSTATIC) for nodes of type @RBSTRUCT, linked by @RBFIELD, whose
 * summary is the member @RBAUGMENTED. @RBCOMPUTE(node, exit) recomputes
 * node->RBAUGMENTED from the node and its children's summaries; when @exit
 * is true and the result equals the stored value it returns true without
 * storing, which is what ends propagate() early.
 */
#define RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD,		\
			     RBAUGMENTED, RBCOMPUTE)				\
static void RBNAME ## _propagate(struct rb_node *rb, struct rb_node *stop)	\
{										\
	while (rb != stop) {							\
		RBSTRUCT *node = rb_entry(rb, RBSTRUCT, RBFIELD);		\
										\
		if (RBCOMPUTE(node, true))					\
			break;							\
		rb = rb_parent(&node->RBFIELD);					\
	}									\
}										\
static void RBNAME ## _copy(struct rb_node *rb_old, struct rb_node *rb_new)	\
{										\
	RBSTRUCT *old = rb_entry(rb_old, RBSTRUCT, RBFIELD);			\
	RBSTRUCT *new = rb_entry(rb_new, RBSTRUCT, RBFIELD);			\
										\
	new->RBAUGMENTED = old->RBAUGMENTED;					\
}										\
static void RBNAME ## _rotate(struct rb_node *rb_old, struct rb_node *rb_new)	\
{										\
	RBSTRUCT *old = rb_entry(rb_old, RBSTRUCT, RBFIELD);			\
	RBSTRUCT *new = rb_entry(rb_new, RBSTRUCT, RBFIELD);			\
										\
	new->RBAUGMENTED = old->RBAUGMENTED;					\
	RBCOMPUTE(old, false);							\
}										\
RBSTATIC const struct rb_augment_callbacks RBNAME = {				\
	.propagate = RBNAME ## _propagate,					\
	.copy = RBNAME ## _copy,						\
	.rotate = RBNAME ## _rotate,						\
}

/*
 * Callbacks for "@RBAUGMENTED is the largest @RBCOMPUTE(node) over the
 * subtree", of type @RBTYPE, as an interval tree keeps the largest end.
 * Also defines RBNAME ## _compute_max(node, exit), the RB_DECLARE_CALLBACKS
 * compute function, for callers that build or check nodes by hand.
 */
#define RB_DECLARE_CALLBACKS_MAX(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD,		\
				 RBTYPE, RBAUGMENTED, RBCOMPUTE)		\
static inline bool RBNAME ## _compute_max(RBSTRUCT *node, bool exit)		\
{										\
	RBSTRUCT *child;							\
	RBTYPE max = RBCOMPUTE(node);						\
										\
	if (node->RBFIELD.rb_left) {						\
		child = rb_entry(node->RBFIELD.rb_left, RBSTRUCT, RBFIELD);	\
		if (child->RBAUGMENTED > max)					\
			max = child->RBAUGMENTED;				\
	}									\
	if (node->RBFIELD.rb_right) {						\
		child = rb_entry(node->RBFIELD.rb_right, RBSTRUCT, RBFIELD);	\
		if (child->RBAUGMENTED > max)					\
			max = child->RBAUGMENTED;				\
	}									\
	if (exit && node->RBAUGMENTED == max)					\
		return true;							\
	node->RBAUGMENTED = max;						\
	return false;								\
}										\
RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD,			\
		     RBAUGMENTED, RBNAME ## _compute_max)

/* ---- colour and link helpers ---- */

#define RB_RED		0UL
#define RB_BLACK	1UL
#define RB_COLOR_MASK	1UL

#define __rb_color(pc)		((pc) & RB_COLOR_MASK)
#define __rb_is_black(pc)	(__rb_color(pc) == RB_BLACK)
#define __rb_is_red(pc)		(__rb_color(pc) == RB_RED)
#define rb_color(rb)		__rb_color((rb)->__rb_parent_color)
#define rb_is_red(rb)		__rb_is_red((rb)->__rb_parent_color)
#define rb_is_black(rb)		__rb_is_black((rb)->__rb_parent_color)

/* Move @rb under @p, keeping its colour. */
static inline void rb_set_parent(struct rb_node *rb, struct rb_node *p)
{
	rb->__rb_parent_color = rb_color(rb) | (unsigned long)p;
}

static inline void rb_set_parent_color(struct rb_node *rb, struct rb_node *p,
				       unsigned long color)
{
	rb->__rb_parent_color = (unsigned long)p | color;
}

static inline void rb_set_color(struct rb_node *rb, unsigned long color)
{
	rb->__rb_parent_color = (rb->__rb_parent_color & ~RB_COLOR_MASK) | color;
}

/* Make whatever pointed at @old (a child link of @parent, or the root) point at @new. */
static inline void __rb_change_child(struct rb_node *old, struct rb_node *new,
				     struct rb_node *parent,
				     struct rb_root *root)
{
	if (!parent)
		WRITE_ONCE(root->rb_node, new);
	else if (parent->rb_left == old)
		WRITE_ONCE(parent->rb_left, new);
	else
		WRITE_ONCE(parent->rb_right, new);
}

/*
 * Unlink @node and keep the summaries right; the colour repair is left to
 * the caller. Returns the node below which a black is now missing (the
 * parent of the position that lost a black node with no child to take its
 * colour), or NULL when the colours are already fine.
 *
 * A node with two children is not taken out of its place: its in-order
 * successor (the leftmost node of its right subtree, which has no left
 * child) is unlinked from where it was and put in @node's position with
 * @node's colour, so the only structural hole is where the successor was.
 */
static __always_inline struct rb_node *
__rb_erase_augmented(struct rb_node *node, struct rb_root *root,
		     const struct rb_augment_callbacks *augment)
{
	struct rb_node *left = node->rb_left, *right = node->rb_right;
	struct rb_node *parent = rb_parent(node);
	struct rb_node *succ, *hole_parent, *child;
	bool succ_black;

	if (!left || !right) {
		child = left ? left : right;
		__rb_change_child(node, child, parent, root);
		/*
		 * One child: then @node is black and the child a red leaf,
		 * or the black heights of @node's two sides would differ.
		 * Painting the child black makes up for @node.
		 */
		if (child)
			rb_set_parent_color(child, parent, RB_BLACK);
		augment->propagate(parent, NULL);
		if (child || !rb_is_black(node))
			return NULL;
		return parent;
	}

	succ = right;
	while (succ->rb_left)
		succ = succ->rb_left;
	child = succ->rb_right;
	succ_black = rb_is_black(succ);

	if (succ == right) {
		/* The successor keeps its right subtree and moves up one level. */
		hole_parent = succ;
	} else {
		hole_parent = rb_parent(succ);
		WRITE_ONCE(hole_parent->rb_left, child);
		WRITE_ONCE(succ->rb_right, right);
		rb_set_parent(right, succ);
	}
	WRITE_ONCE(succ->rb_left, left);
	rb_set_parent(left, succ);
	succ->__rb_parent_color = node->__rb_parent_color;
	__rb_change_child(node, succ, parent, root);

	if (child)
		rb_set_parent_color(child, hole_parent, RB_BLACK);

	/*
	 * The successor now heads @node's old subtree minus @node: start from
	 * @node's summary, fix the path that lost the successor, then fix the
	 * successor itself and whatever lies above it.
	 */
	augment->copy(node, succ);
	if (hole_parent != succ)
		augment->propagate(hole_parent, succ);
	augment->propagate(succ, NULL);

	/* As above, a child of the successor takes over its black. */
	if (child || !succ_black)
		return NULL;
	return hole_parent;
}

/* rb_erase() for an augmented tree: summaries stay right through it. */
static inline void rb_erase_augmented(struct rb_node *node,
				      struct rb_root *root,
				      const struct rb_augment_callbacks *augment)
{
	struct rb_node *rebalance = __rb_erase_augmented(node, root, augment);

	if (rebalance)
		__rb_erase_color(rebalance, root, augment->rotate);
}

/* As rb_erase_cached(): returns the new leftmost if @node was it, else NULL. */
static inline struct rb_node *
rb_erase_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
			  const struct rb_augment_callbacks *augment)
{
	struct rb_node *leftmost = NULL;

	if (root->rb_leftmost == node)
		leftmost = root->rb_leftmost = rb_next(node);
	rb_erase_augmented(node, &root->rb_root, augment);
	return leftmost;
}

#endif /* VS_CORE_RBTREE_AUGMENTED_H */

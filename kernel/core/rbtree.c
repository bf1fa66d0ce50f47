// SPDX-License-Identifier: Apache-2.0
/*
 * Red-black tree rebalancing and iteration (core/rbtree.h).
 *
 * This file owns the colour rules: after a caller links a red leaf, and
 * after a node is unlinked, it recolours and rotates until the invariants
 * stated in rbtree.h hold again, in O(log n) steps and at most two rotations
 * for an insert, three for an erase. It never compares keys and never
 * allocates. Only plain trees exist (no augmented summaries), so the colour
 * and link helpers below are private to this file.
 */
#include "core/rbtree.h"

/* The colour lives in bit 0 of the parent pointer. */
BUILD_BUG_ON(__alignof__(struct rb_node) < 2);

#define RB_RED		0UL
#define RB_BLACK	1UL
#define RB_COLOR_MASK	1UL

#define rb_parent(r)	((struct rb_node *)((r)->__rb_parent_color & ~RB_COLOR_MASK))
#define rb_color(rb)	((rb)->__rb_parent_color & RB_COLOR_MASK)
#define rb_is_red(rb)	(rb_color(rb) == RB_RED)
#define rb_is_black(rb)	(rb_color(rb) == RB_BLACK)

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

static inline void rb_set_black(struct rb_node *rb)
{
	rb_set_color(rb, RB_BLACK);
}

static inline void rb_set_red(struct rb_node *rb)
{
	rb_set_color(rb, RB_RED);
}

/* Black when absent: the NULL links count as black leaves. */
static inline bool rb_node_is_red(const struct rb_node *rb)
{
	return rb && rb_is_red(rb);
}

/* Make whatever pointed at @old (a child link of @parent, or the root) point at @new. */
static inline void rb_change_child(struct rb_node *old, struct rb_node *new,
				   struct rb_node *parent, struct rb_root *root)
{
	if (!parent)
		WRITE_ONCE(root->rb_node, new);
	else if (parent->rb_left == old)
		WRITE_ONCE(parent->rb_left, new);
	else
		WRITE_ONCE(parent->rb_right, new);
}

/*
 * Rotate @x down to the left: its right child y takes its place, x becomes
 * y's left child and y's old left subtree becomes x's right one. In-order
 * sequence is unchanged. Colours are the caller's business; both nodes keep
 * theirs.
 *
 *       x                y
 *      / \              / \
 *     a   y     =>     x   c
 *        / \          / \
 *       b   c        a   b
 */
static __always_inline void rb_rotate_left(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *parent = rb_parent(x);
	struct rb_node *y = x->rb_right;
	struct rb_node *b = y->rb_left;

	WRITE_ONCE(x->rb_right, b);
	if (b)
		rb_set_parent(b, x);
	WRITE_ONCE(y->rb_left, x);
	rb_set_parent(y, parent);
	rb_set_parent(x, y);
	rb_change_child(x, y, parent, root);
}

/* The mirror image of rb_rotate_left(): @x's left child rises. */
static __always_inline void rb_rotate_right(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *parent = rb_parent(x);
	struct rb_node *y = x->rb_left;
	struct rb_node *b = y->rb_right;

	WRITE_ONCE(x->rb_left, b);
	if (b)
		rb_set_parent(b, x);
	WRITE_ONCE(y->rb_right, x);
	rb_set_parent(y, parent);
	rb_set_parent(x, y);
	rb_change_child(x, y, parent, root);
}

/*
 * Repair after linking the red leaf @node. The only rule that can be broken
 * is "no red node has a red parent", at @node. Each pass either fixes it
 * with at most two rotations and stops, or recolours and moves the problem
 * two levels up; black heights never change on the way, except at the very
 * end when a red root is painted black, which adds one to every path.
 */
void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent, *gparent, *uncle;
	bool parent_is_left;

	for (;;) {
		parent = rb_parent(node);
		if (!parent) {
			rb_set_black(node);
			return;
		}
		if (rb_is_black(parent))
			return;

		/* A red parent is not the root, so the grandparent exists. */
		gparent = rb_parent(parent);
		parent_is_left = parent == gparent->rb_left;
		uncle = parent_is_left ? gparent->rb_right : gparent->rb_left;

		if (rb_node_is_red(uncle)) {
			/*
			 * Push the grandparent's black down onto both its
			 * children: paths through it keep their count, and
			 * the grandparent, now red, may clash with its own
			 * parent, so go round again from there.
			 */
			rb_set_black(parent);
			rb_set_black(uncle);
			rb_set_red(gparent);
			node = gparent;
			continue;
		}

		/*
		 * Black uncle. If @node is an inner grandchild, rotate it
		 * over its parent first so the red pair lines up on the
		 * outside; then rotate the grandparent down towards the
		 * uncle and swap the colours of the two: the red pair is
		 * split and every path keeps its black count.
		 */
		if (parent_is_left) {
			if (node == parent->rb_right) {
				rb_rotate_left(parent, root);
				parent = node;
			}
			rb_rotate_right(gparent, root);
		} else {
			if (node == parent->rb_left) {
				rb_rotate_right(parent, root);
				parent = node;
			}
			rb_rotate_left(gparent, root);
		}
		rb_set_black(parent);
		rb_set_red(gparent);
		return;
	}
}

/*
 * Repair after an erase left the subtree hanging from @parent on one side
 * (@node, possibly NULL) one black short of the other side. The sibling
 * exists and is not empty, because its side has a black height of at least
 * one more than @node's.
 *
 * The loop moves the shortage up while the sibling and its children are all
 * black (recolour the sibling red and both sides are equally short, so the
 * shortage is now @parent's). Otherwise at most three rotations end it: a
 * red sibling is rotated up so the sibling becomes black, an inner red
 * nephew is rotated to the outside, and finally the sibling is rotated over
 * @parent with its outer red child painted black to supply the missing one.
 */
static void rb_erase_color(struct rb_node *parent, struct rb_root *root)
{
	struct rb_node *node = NULL, *sibling;

	for (;;) {
		/* @node may be NULL, but then the sibling is not. */
		if (node == parent->rb_left) {
			sibling = parent->rb_right;
			if (rb_is_red(sibling)) {
				rb_rotate_left(parent, root);
				rb_set_black(sibling);
				rb_set_red(parent);
				sibling = parent->rb_right;
			}
			if (!rb_node_is_red(sibling->rb_left) &&
			    !rb_node_is_red(sibling->rb_right)) {
				rb_set_red(sibling);
				if (rb_is_red(parent)) {
					rb_set_black(parent);
					return;
				}
				node = parent;
				parent = rb_parent(node);
				if (!parent)
					return;
				continue;
			}
			if (!rb_node_is_red(sibling->rb_right)) {
				rb_rotate_right(sibling, root);
				rb_set_red(sibling);
				sibling = parent->rb_right;
				rb_set_black(sibling);
			}
			rb_rotate_left(parent, root);
			rb_set_color(sibling, rb_color(parent));
			rb_set_black(parent);
			rb_set_black(sibling->rb_right);
			return;
		} else {
			sibling = parent->rb_left;
			if (rb_is_red(sibling)) {
				rb_rotate_right(parent, root);
				rb_set_black(sibling);
				rb_set_red(parent);
				sibling = parent->rb_left;
			}
			if (!rb_node_is_red(sibling->rb_left) &&
			    !rb_node_is_red(sibling->rb_right)) {
				rb_set_red(sibling);
				if (rb_is_red(parent)) {
					rb_set_black(parent);
					return;
				}
				node = parent;
				parent = rb_parent(node);
				if (!parent)
					return;
				continue;
			}
			if (!rb_node_is_red(sibling->rb_left)) {
				rb_rotate_left(sibling, root);
				rb_set_red(sibling);
				sibling = parent->rb_left;
				rb_set_black(sibling);
			}
			rb_rotate_right(parent, root);
			rb_set_color(sibling, rb_color(parent));
			rb_set_black(parent);
			rb_set_black(sibling->rb_left);
			return;
		}
	}
}

/*
 * Unlink @node; the colour repair is left to the caller. Returns the node
 * below which a black is now missing (the parent of the position that lost
 * a black node with no child to take its colour), or NULL when the colours
 * are already fine.
 *
 * A node with two children is not taken out of its place: its in-order
 * successor (the leftmost node of its right subtree, which has no left
 * child) is unlinked from where it was and put in @node's position with
 * @node's colour, so the only structural hole is where the successor was.
 */
static struct rb_node *rb_unlink(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *left = node->rb_left, *right = node->rb_right;
	struct rb_node *parent = rb_parent(node);
	struct rb_node *succ, *hole_parent, *child;
	bool succ_black;

	if (!left || !right) {
		child = left ? left : right;
		rb_change_child(node, child, parent, root);
		/*
		 * One child: then @node is black and the child a red leaf,
		 * or the black heights of @node's two sides would differ.
		 * Painting the child black makes up for @node.
		 */
		if (child) {
			rb_set_parent_color(child, parent, RB_BLACK);
			return NULL;
		}
		return rb_is_black(node) ? parent : NULL;
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
	rb_change_child(node, succ, parent, root);

	/* As above, a child of the successor takes over its black. */
	if (child) {
		rb_set_parent_color(child, hole_parent, RB_BLACK);
		return NULL;
	}
	return succ_black ? hole_parent : NULL;
}

/*
 * Unlink @node, then repair the black height it may have taken with it. The
 * other nodes keep their order; at most three rotations.
 */
void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *rebalance = rb_unlink(node, root);

	if (rebalance)
		rb_erase_color(rebalance, root);
}

/* ---- iteration ---- */

/* The minimum: follow left links from the root. */
struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->rb_left)
		n = n->rb_left;
	return n;
}

/*
 * The successor is the leftmost node of the right subtree if there is one;
 * otherwise the first ancestor reached from its left side, since every
 * ancestor reached from the right sorts before @node.
 */
struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;

	if (node->rb_right) {
		node = node->rb_right;
		while (node->rb_left)
			node = node->rb_left;
		return (struct rb_node *)node;
	}
	while ((parent = rb_parent(node)) && node == parent->rb_right)
		node = parent;
	return parent;
}

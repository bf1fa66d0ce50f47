// SPDX-License-Identifier: Apache-2.0
/*
 * Red-black tree rebalancing and iteration (core/rbtree.h).
 *
 * This file owns the colour rules: after a caller links a red leaf, and
 * after a node is unlinked, it recolours and rotates until the invariants
 * stated in rbtree.h hold again, in O(log n) steps and at most two rotations
 * for an insert, three for an erase. It never compares keys and never
 * allocates. The insert and erase repairs are written once, each taking the
 * rotate callback of an augmented tree (rbtree_augmented.h); the plain
 * entry points pass callbacks that do nothing, which the compiler removes.
 */
#include "core/rbtree.h"
#include "core/rbtree_augmented.h"

/* The colour lives in bit 0 of the parent pointer. */
BUILD_BUG_ON(__alignof__(struct rb_node) < 2);

typedef void (*rb_rotate_fn)(struct rb_node *old, struct rb_node *new);

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

/*
 * Rotate @x down to the left: its right child y takes its place, x becomes
 * y's left child and y's old left subtree becomes x's right one. In-order
 * sequence is unchanged. Colours are the caller's business; both nodes keep
 * theirs. The augment callback runs once the links are final.
 *
 *       x                y
 *      / \              / \
 *     a   y     =>     x   c
 *        / \          / \
 *       b   c        a   b
 */
static __always_inline void rb_rotate_left(struct rb_node *x,
					   struct rb_root *root,
					   rb_rotate_fn augment_rotate)
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
	__rb_change_child(x, y, parent, root);
	augment_rotate(x, y);
}

/* The mirror image of rb_rotate_left(): @x's left child rises. */
static __always_inline void rb_rotate_right(struct rb_node *x,
					    struct rb_root *root,
					    rb_rotate_fn augment_rotate)
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
	__rb_change_child(x, y, parent, root);
	augment_rotate(x, y);
}

/*
 * Repair after linking the red leaf @node. The only rule that can be broken
 * is "no red node has a red parent", at @node. Each pass either fixes it
 * with at most two rotations and stops, or recolours and moves the problem
 * two levels up; black heights never change on the way, except at the very
 * end when a red root is painted black, which adds one to every path.
 */
static __always_inline void __rb_insert(struct rb_node *node,
					struct rb_root *root,
					rb_rotate_fn augment_rotate)
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
				rb_rotate_left(parent, root, augment_rotate);
				parent = node;
			}
			rb_rotate_right(gparent, root, augment_rotate);
		} else {
			if (node == parent->rb_left) {
				rb_rotate_right(parent, root, augment_rotate);
				parent = node;
			}
			rb_rotate_left(gparent, root, augment_rotate);
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
static __always_inline void ____rb_erase_color(struct rb_node *parent,
					       struct rb_root *root,
					       rb_rotate_fn augment_rotate)
{
	struct rb_node *node = NULL, *sibling;

	for (;;) {
		/* @node may be NULL, but then the sibling is not. */
		if (node == parent->rb_left) {
			sibling = parent->rb_right;
			if (rb_is_red(sibling)) {
				rb_rotate_left(parent, root, augment_rotate);
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
				rb_rotate_right(sibling, root, augment_rotate);
				rb_set_red(sibling);
				sibling = parent->rb_right;
				rb_set_black(sibling);
			}
			rb_rotate_left(parent, root, augment_rotate);
			rb_set_color(sibling, rb_color(parent));
			rb_set_black(parent);
			rb_set_black(sibling->rb_right);
			return;
		} else {
			sibling = parent->rb_left;
			if (rb_is_red(sibling)) {
				rb_rotate_right(parent, root, augment_rotate);
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
				rb_rotate_left(sibling, root, augment_rotate);
				rb_set_red(sibling);
				sibling = parent->rb_left;
				rb_set_black(sibling);
			}
			rb_rotate_right(parent, root, augment_rotate);
			rb_set_color(sibling, rb_color(parent));
			rb_set_black(parent);
			rb_set_black(sibling->rb_left);
			return;
		}
	}
}

/* ---- augmented entry points: the real callback goes through ---- */

/* Rebalance after an augmented insert; see rb_insert_augmented(). */
void __rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			   rb_rotate_fn augment_rotate)
{
	__rb_insert(node, root, augment_rotate);
}

/*
 * Rebalance after __rb_erase_augmented() returned @parent: the subtree
 * below @parent that lost a black node is one black short.
 */
void __rb_erase_color(struct rb_node *parent, struct rb_root *root,
		      rb_rotate_fn augment_rotate)
{
	____rb_erase_color(parent, root, augment_rotate);
}

/* ---- plain entry points: callbacks that do nothing ---- */

static inline void dummy_propagate(struct rb_node *node, struct rb_node *stop)
{
}

static inline void dummy_copy(struct rb_node *old, struct rb_node *new)
{
}

static inline void dummy_rotate(struct rb_node *old, struct rb_node *new)
{
}

static const struct rb_augment_callbacks dummy_callbacks = {
	.propagate = dummy_propagate,
	.copy = dummy_copy,
	.rotate = dummy_rotate,
};

/*
 * Rebalance after rb_link_node() put the red leaf @node in: at most two
 * rotations, and the in-order sequence is whatever the caller's descent made.
 */
void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	__rb_insert(node, root, dummy_rotate);
}

/*
 * Unlink @node, then repair the black height it may have taken with it. The
 * other nodes keep their order; at most three rotations.
 */
void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *rebalance;

	rebalance = __rb_erase_augmented(node, root, &dummy_callbacks);
	if (rebalance)
		____rb_erase_color(rebalance, root, dummy_rotate);
}

/*
 * Swap @new in for @victim without touching the shape: correct only if @new
 * sorts exactly where @victim did, which is the caller's promise.
 */
void rb_replace_node(struct rb_node *victim, struct rb_node *new,
		     struct rb_root *root)
{
	struct rb_node *parent = rb_parent(victim);

	/* Colour and parent come along in the one word. */
	*new = *victim;
	if (victim->rb_left)
		rb_set_parent(victim->rb_left, new);
	if (victim->rb_right)
		rb_set_parent(victim->rb_right, new);
	__rb_change_child(victim, new, parent, root);
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

/* The maximum: follow right links from the root. */
struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->rb_right)
		n = n->rb_right;
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

/* The mirror image of rb_next(). */
struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;

	if (node->rb_left) {
		node = node->rb_left;
		while (node->rb_right)
			node = node->rb_right;
		return (struct rb_node *)node;
	}
	while ((parent = rb_parent(node)) && node == parent->rb_left)
		node = parent;
	return parent;
}

/* The first node in post-order below @node: a leaf, reached favouring left. */
static struct rb_node *rb_left_deepest_node(const struct rb_node *node)
{
	for (;;) {
		if (node->rb_left)
			node = node->rb_left;
		else if (node->rb_right)
			node = node->rb_right;
		else
			return (struct rb_node *)node;
	}
}

/* The first node to free when tearing the whole tree down; NULL if empty. */
struct rb_node *rb_first_postorder(const struct rb_root *root)
{
	if (!root->rb_node)
		return NULL;
	return rb_left_deepest_node(root->rb_node);
}

/*
 * After a left child comes its right sibling's subtree, if any; after a
 * right child, or a left one without a sibling, comes the parent. Only
 * @node's parent word and the parent's links are read, never @node's own
 * children, so @node's children may already be freed.
 */
struct rb_node *rb_next_postorder(const struct rb_node *node)
{
	struct rb_node *parent;

	if (!node)
		return NULL;
	parent = rb_parent(node);
	if (parent && node == parent->rb_left && parent->rb_right)
		return rb_left_deepest_node(parent->rb_right);
	return parent;
}

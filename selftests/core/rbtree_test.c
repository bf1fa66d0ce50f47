// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the red-black trees (core/rbtree.h).
 *
 * Most tests drive a tree through long seeded random sequences of inserts
 * and erases, duplicates included, and after every single operation check
 * the whole tree against a reference kept beside it: a plain array of the
 * nodes in the order the tree must hold them. The check covers each
 * red-black rule (black root, no red-red edge, equal black heights, parent
 * links), the in-order sequence node for node, and the rb_first()/rb_next()
 * walk. Inserts are the caller's descent with rb_link_node() and
 * rb_insert_color(), as core/nametree.c does them. The PRNG is the test's
 * own xorshift64, so a failure replays exactly from its seed.
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/rbtree.h"

#define POOL 1024

/*
 * A broken parent link can turn a walk into an endless loop; the timeout
 * turns that into a failure. Far above the normal run time, to leave room
 * for sanitizers and valgrind.
 */
TestSuite(rbtree, .timeout = 60);

static const u64 seeds[] = {
	0x9e3779b97f4a7c15ull, 0x2545f4914f6cdd1dull, 0xdeadbeefcafef00dull,
	0x0123456789abcdefull, 42,
};

/* xorshift64: tiny, deterministic, never zero from a non-zero seed. */
static u64 xs_next(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

static u32 xs_below(u64 *state, u32 bound)
{
	return (u32)(xs_next(state) % bound);
}

/* Fisher-Yates, for erasing a fixed set of nodes in a seeded random order. */
static void shuffle_nodes(struct rb_node **v, size_t n, u64 *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = xs_below(rng, (u32)i);
		struct rb_node *t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

/*
 * The parent word as rbtree.h lays it out: the parent's address with the
 * colour in bit 0 (1 black). The library keeps its own accessors private;
 * the test reads the documented layout to check the rules from outside.
 */
static struct rb_node *parent_of(const struct rb_node *rb)
{
	return (struct rb_node *)(rb->__rb_parent_color & ~1UL);
}

static bool is_black(const struct rb_node *rb)
{
	return rb->__rb_parent_color & 1UL;
}

/* A keyed node; @id records insertion order among duplicates. */
struct knode {
	int key;
	int id;
	struct rb_node rb;
};

static struct knode *knode_of(const struct rb_node *rb)
{
	return container_of(rb, struct knode, rb);
}

static int knode_key(const struct rb_node *rb)
{
	return knode_of(rb)->key;
}

/*
 * The descent a caller writes by hand, then rb_link_node() and
 * rb_insert_color(). Equal keys go right, after the ones already there.
 */
static void knode_insert(struct rb_root *root, struct rb_node *rb)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;
	int key = knode_key(rb);

	while (*link) {
		parent = *link;
		if (key < knode_key(parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(rb, parent, link);
	cr_assert(!is_black(rb), "a freshly linked node is red");
	cr_assert_eq(parent_of(rb), parent);
	rb_insert_color(rb, root);
}

/* ---- the structural check ---- */

struct walk {
	struct rb_node *const *ref;
	size_t n;
	size_t count;
	int height;
};

/*
 * Check the subtree at @rb below @parent; returns its black height, the
 * number of black nodes on every path from @rb down to a NULL link.
 * Visits in order, so the count doubles as the position in the reference.
 */
static int check_subtree(const struct rb_node *rb, const struct rb_node *parent,
			 struct walk *w, int depth)
{
	int lh, rh;

	if (!rb) {
		if (depth > w->height)
			w->height = depth;
		return 0;
	}
	cr_assert_eq(parent_of(rb), parent, "key %d: wrong parent link",
		     knode_key(rb));
	cr_assert(!RB_EMPTY_NODE(rb), "key %d: node in tree looks cleared",
		  knode_key(rb));
	if (!is_black(rb)) {
		cr_assert(!rb->rb_left || is_black(rb->rb_left),
			  "key %d: red node with a red left child", knode_key(rb));
		cr_assert(!rb->rb_right || is_black(rb->rb_right),
			  "key %d: red node with a red right child", knode_key(rb));
	}

	lh = check_subtree(rb->rb_left, rb, w, depth + 1);
	cr_assert_lt(w->count, w->n, "tree holds more than the %zu reference nodes",
		     w->n);
	cr_assert_eq(rb, w->ref[w->count],
		     "in-order position %zu holds key %d, reference says key %d",
		     w->count, knode_key(rb), knode_key(w->ref[w->count]));
	w->count++;
	rh = check_subtree(rb->rb_right, rb, w, depth + 1);
	cr_assert_eq(lh, rh, "key %d: black heights %d left, %d right",
		     knode_key(rb), lh, rh);
	return lh + (is_black(rb) ? 1 : 0);
}

/*
 * The tree at @root holds exactly @ref[0..n) in that order, obeys every
 * red-black rule, and rb_first()/rb_next() walk it in that order.
 */
static void check_tree(const struct rb_root *root, struct rb_node *const *ref,
		       size_t n)
{
	struct walk w = { .ref = ref, .n = n };
	struct rb_node *rb;
	size_t i;
	int bh;

	for (i = 1; i < n; i++)
		cr_assert_leq(knode_key(ref[i - 1]), knode_key(ref[i]),
			      "reference unsorted");

	cr_assert_eq(RB_EMPTY_ROOT(root), n == 0);
	if (root->rb_node) {
		cr_assert_null(parent_of(root->rb_node), "root has a parent");
		cr_assert(is_black(root->rb_node), "root is red");
	}
	bh = check_subtree(root->rb_node, NULL, &w, 0);
	cr_assert_eq(w.count, n, "tree holds %zu nodes, reference %zu", w.count, n);

	/*
	 * What the rules buy: at least 2^bh - 1 nodes, and no path more than
	 * twice the black height, hence height <= 2 log2(n + 1).
	 */
	cr_assert_leq((1ul << bh) - 1, n, "black height %d with only %zu nodes",
		      bh, n);
	cr_assert_leq(w.height, 2 * bh, "height %d, black height %d",
		      w.height, bh);

	i = 0;
	for (rb = rb_first(root); rb; rb = rb_next(rb)) {
		cr_assert_lt(i, n, "rb_next walks past the end");
		cr_assert_eq(rb, ref[i], "rb_next step %zu", i);
		i++;
	}
	cr_assert_eq(i, n, "rb_next walk stops after %zu of %zu", i, n);
}

/* ---- the harness: a tree, its reference, and a random workload ---- */

struct harness {
	struct rb_root tree;

	/* what the tree must hold, in order */
	struct rb_node *ref[POOL];
	size_t n;
	/* nodes not in the tree */
	struct rb_node *idle[POOL];
	size_t nidle;

	u64 rng;
	int next_id;
};

static struct knode knodes[POOL];

static void harness_init(struct harness *h, size_t nodes)
{
	memset(h, 0, sizeof(*h));
	h->tree = RB_ROOT;
	for (size_t i = 0; i < nodes; i++) {
		RB_CLEAR_NODE(&knodes[i].rb);
		h->idle[h->nidle++] = &knodes[i].rb;
	}
}

static void harness_check(struct harness *h)
{
	check_tree(&h->tree, h->ref, h->n);
}

/* Insert @rb with @key and check; equal keys go after the ones already there. */
static void harness_insert(struct harness *h, struct rb_node *rb, int key)
{
	size_t pos = h->n;

	knode_of(rb)->key = key;
	knode_of(rb)->id = h->next_id++;
	while (pos > 0 && knode_key(h->ref[pos - 1]) > key)
		pos--;
	knode_insert(&h->tree, rb);
	memmove(&h->ref[pos + 1], &h->ref[pos], (h->n - pos) * sizeof(h->ref[0]));
	h->ref[pos] = rb;
	h->n++;
	harness_check(h);
}

static void harness_erase(struct harness *h, struct rb_node *rb)
{
	size_t pos;

	for (pos = 0; pos < h->n && h->ref[pos] != rb; pos++)
		;
	cr_assert_lt(pos, h->n, "erasing a node the reference does not hold");
	rb_erase(rb, &h->tree);
	memmove(&h->ref[pos], &h->ref[pos + 1], (h->n - pos - 1) * sizeof(h->ref[0]));
	h->n--;
	RB_CLEAR_NODE(rb);
	h->idle[h->nidle++] = rb;
	harness_check(h);
}

static struct rb_node *harness_take_idle(struct harness *h)
{
	u32 i = xs_below(&h->rng, (u32)h->nidle);
	struct rb_node *rb = h->idle[i];

	h->idle[i] = h->idle[--h->nidle];
	return rb;
}

/* Pick a victim, leaning on the root and both ends now and then. */
static struct rb_node *harness_pick_victim(struct harness *h)
{
	switch (xs_below(&h->rng, 8)) {
	case 0:
		return h->tree.rb_node;
	case 1:
		return h->ref[0];
	case 2:
		return h->ref[h->n - 1];
	default:
		return h->ref[xs_below(&h->rng, (u32)h->n)];
	}
}

/*
 * @ops random operations with keys in [0, key_range), then erase what is
 * left. Inserts win 70% of the time for a stretch and 30% for the next, so
 * the size sweeps between empty and the whole pool and both the insert and
 * the erase repairs see trees of every size.
 */
static void harness_run(struct harness *h, u64 seed, int ops, int key_range)
{
	h->rng = seed;
	for (int i = 0; i < ops; i++) {
		bool growing = (i / 400) % 2 == 0;
		u32 p = growing ? 70 : 30;

		if (h->nidle && (!h->n || xs_below(&h->rng, 100) < p)) {
			struct rb_node *rb = harness_take_idle(h);

			harness_insert(h, rb, (int)xs_below(&h->rng, (u32)key_range));
		} else {
			harness_erase(h, harness_pick_victim(h));
		}
	}
	while (h->n)
		harness_erase(h, harness_pick_victim(h));
	cr_assert(RB_EMPTY_ROOT(&h->tree));
	cr_assert_null(rb_first(&h->tree));
}

/* ---- tests ---- */

Test(rbtree, empty_tree_has_no_nodes)
{
	struct rb_root root = RB_ROOT;

	cr_assert(RB_EMPTY_ROOT(&root));
	cr_assert_null(rb_first(&root));
}

Test(rbtree, single_node_tree_is_a_black_root_and_erases_to_empty)
{
	struct rb_root root = RB_ROOT;
	struct knode a = { .key = 7 };

	rb_link_node(&a.rb, NULL, &root.rb_node);
	cr_assert(!is_black(&a.rb), "linked nodes start red");
	rb_insert_color(&a.rb, &root);
	cr_assert(is_black(&a.rb), "the root is painted black");
	cr_assert_null(parent_of(&a.rb));
	cr_assert_eq(rb_first(&root), &a.rb);
	cr_assert_null(rb_next(&a.rb));
	rb_erase(&a.rb, &root);
	cr_assert(RB_EMPTY_ROOT(&root));
	cr_assert_null(rb_first(&root));
}

Test(rbtree, cleared_node_is_empty_until_linked_and_after_erase)
{
	struct rb_root root = RB_ROOT;
	struct knode a = { .key = 1 }, b = { .key = 2 };

	RB_CLEAR_NODE(&a.rb);
	cr_assert(RB_EMPTY_NODE(&a.rb));
	cr_assert_null(rb_next(&a.rb), "a cleared node has no neighbours");

	knode_insert(&root, &a.rb);
	knode_insert(&root, &b.rb);
	cr_assert(!RB_EMPTY_NODE(&a.rb));
	cr_assert(!RB_EMPTY_NODE(&b.rb));
	rb_erase(&a.rb, &root);
	RB_CLEAR_NODE(&a.rb);
	cr_assert(RB_EMPTY_NODE(&a.rb));
	cr_assert_eq(rb_first(&root), &b.rb);

	/* and the node can go back in */
	knode_insert(&root, &a.rb);
	cr_assert_eq(rb_first(&root), &a.rb);
	cr_assert_eq(rb_next(&a.rb), &b.rb);
}

Test(rbtree, node_alignment_leaves_the_colour_bit_free)
{
	/* a char before each node: only the node's own alignment keeps bit 0 free */
	struct { char c; struct rb_node rb; } p, s;
	struct rb_root root = RB_ROOT;

	cr_assert_geq(__alignof__(struct rb_node), sizeof(long));
	cr_assert_eq((unsigned long)&p.rb & 1, 0);
	cr_assert_eq((unsigned long)&s.rb & 1, 0);

	rb_link_node(&p.rb, NULL, &root.rb_node);
	rb_insert_color(&p.rb, &root);
	rb_link_node(&s.rb, &p.rb, &p.rb.rb_right);
	rb_insert_color(&s.rb, &root);
	cr_assert(is_black(&p.rb));
	cr_assert(!is_black(&s.rb));
	cr_assert_eq(parent_of(&s.rb), &p.rb, "the colour leaks into the parent");
	cr_assert_eq(rb_next(&p.rb), &s.rb);

	rb_erase(&p.rb, &root);
	cr_assert_eq(root.rb_node, &s.rb);
	cr_assert(is_black(&s.rb), "the child that took the root's place is black");
	cr_assert_null(parent_of(&s.rb), "the new root has no parent");
}

Test(rbtree, sorted_inserts_stay_balanced)
{
	struct harness *h = malloc(sizeof(*h));

	/* ascending, then erase from the front; descending, erase from the back */
	harness_init(h, POOL);
	for (int i = 0; i < POOL; i++)
		harness_insert(h, harness_take_idle(h), i);
	while (h->n)
		harness_erase(h, h->ref[0]);

	harness_init(h, POOL);
	for (int i = POOL; i > 0; i--)
		harness_insert(h, harness_take_idle(h), i);
	while (h->n)
		harness_erase(h, h->ref[h->n - 1]);
	free(h);
}

Test(rbtree, random_insert_erase_keeps_every_invariant)
{
	struct harness *h = malloc(sizeof(*h));

	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
		/* few distinct keys: duplicates everywhere */
		harness_init(h, 256);
		harness_run(h, seeds[s], 3000, 32);
		/* mostly distinct keys */
		harness_init(h, 256);
		harness_run(h, seeds[s] ^ 0x5555, 3000, 1 << 20);
	}
	free(h);
}

Test(rbtree, erase_root_until_empty)
{
	struct harness *h = malloc(sizeof(*h));
	u64 rng = seeds[0];

	for (int round = 0; round < 4; round++) {
		harness_init(h, 300);
		h->rng = rng;
		while (h->nidle) {
			struct rb_node *rb = harness_take_idle(h);

			harness_insert(h, rb, (int)xs_below(&h->rng, 50));
		}
		while (h->n)
			harness_erase(h, h->tree.rb_node);
		cr_assert(RB_EMPTY_ROOT(&h->tree));
		rng = h->rng;
	}
	free(h);
}

Test(rbtree, erase_every_node_in_each_order_empties_the_tree)
{
	struct harness *h = malloc(sizeof(*h));
	struct rb_node *order[200];

	for (int way = 0; way < 3; way++) {
		harness_init(h, 200);
		h->rng = seeds[way];
		while (h->nidle) {
			struct rb_node *rb = harness_take_idle(h);

			harness_insert(h, rb, (int)xs_below(&h->rng, 1000));
		}
		memcpy(order, h->ref, sizeof(order));
		if (way == 2)
			shuffle_nodes(order, 200, &h->rng);
		for (size_t i = 0; i < 200; i++)
			harness_erase(h, order[way == 1 ? 199 - i : i]);
		cr_assert(RB_EMPTY_ROOT(&h->tree));
		cr_assert_null(rb_first(&h->tree));
	}
	free(h);
}

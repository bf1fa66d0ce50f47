// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the red-black trees (core/rbtree.h, core/rbtree_augmented.h).
 *
 * Most tests drive a tree through long seeded random sequences of inserts
 * and erases, duplicates included, and after every single operation check
 * the whole tree against a reference kept beside it: a plain array of the
 * nodes in the order the tree must hold them. The check covers each
 * red-black rule (black root, no red-red edge, equal black heights, parent
 * links), the in-order sequence node for node, rb_next()/rb_prev() walks in
 * both directions, the cached leftmost, and for augmented trees every
 * node's summary recomputed from scratch. The PRNG is the test's own
 * xorshift64, so a failure replays exactly from its seed.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/rbtree.h"
#include "core/rbtree_augmented.h"

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

/* Fisher-Yates, so fixed key sets go in in a seeded random order. */
static void shuffle(int *v, size_t n, u64 *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = xs_below(rng, (u32)i);
		int t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* ---- node types ---- */

/* A plain keyed node; @id records insertion order among duplicates. */
struct knode {
	int key;
	int id;
	struct rb_node rb;
};

/* An interval-tree-like node: ordered by key, summarised by max value. */
struct anode {
	int key;
	int value;
	int subtree_max;
	struct rb_node rb;
};

/* An order-statistics node: the summary is the subtree's node count. */
struct snode {
	int key;
	unsigned int size;
	struct rb_node rb;
};

static int knode_key(const struct rb_node *rb)
{
	return rb_entry(rb, struct knode, rb)->key;
}

static int anode_key(const struct rb_node *rb)
{
	return rb_entry(rb, struct anode, rb)->key;
}

static int snode_key(const struct rb_node *rb)
{
	return rb_entry(rb, struct snode, rb)->key;
}

static bool knode_less(struct rb_node *a, const struct rb_node *b)
{
	return knode_key(a) < knode_key(b);
}

static int knode_cmp(struct rb_node *a, const struct rb_node *b)
{
	int ka = knode_key(a), kb = knode_key(b);

	return (ka > kb) - (ka < kb);
}

static int knode_cmp_key(const void *key, const struct rb_node *rb)
{
	int k = *(const int *)key, nk = knode_key(rb);

	return (k > nk) - (k < nk);
}

static int anode_value(struct anode *a)
{
	return a->value;
}

RB_DECLARE_CALLBACKS_MAX(static, anode_cb, struct anode, rb, int,
			 subtree_max, anode_value);

static unsigned int snode_size(const struct rb_node *rb)
{
	return rb ? rb_entry(rb, struct snode, rb)->size : 0;
}

static bool snode_compute(struct snode *s, bool exit)
{
	unsigned int size = 1 + snode_size(s->rb.rb_left) +
			    snode_size(s->rb.rb_right);

	if (exit && s->size == size)
		return true;
	s->size = size;
	return false;
}

RB_DECLARE_CALLBACKS(static, snode_cb, struct snode, rb, size, snode_compute);

/* ---- the structural check ---- */

struct walk {
	struct rb_node *const *ref;
	size_t n;
	size_t count;
	int height;
	int (*key)(const struct rb_node *rb);
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
	cr_assert_eq(rb_parent(rb), parent, "key %d: wrong parent link",
		     w->key(rb));
	cr_assert(!RB_EMPTY_NODE(rb), "key %d: node in tree looks cleared",
		  w->key(rb));
	if (rb_is_red(rb)) {
		cr_assert(!rb->rb_left || rb_is_black(rb->rb_left),
			  "key %d: red node with a red left child", w->key(rb));
		cr_assert(!rb->rb_right || rb_is_black(rb->rb_right),
			  "key %d: red node with a red right child", w->key(rb));
	}

	lh = check_subtree(rb->rb_left, rb, w, depth + 1);
	cr_assert_lt(w->count, w->n, "tree holds more than the %zu reference nodes",
		     w->n);
	cr_assert_eq(rb, w->ref[w->count],
		     "in-order position %zu holds key %d, reference says key %d",
		     w->count, w->key(rb), w->key(w->ref[w->count]));
	w->count++;
	rh = check_subtree(rb->rb_right, rb, w, depth + 1);
	cr_assert_eq(lh, rh, "key %d: black heights %d left, %d right",
		     w->key(rb), lh, rh);
	return lh + (rb_is_black(rb) ? 1 : 0);
}

/*
 * The tree at @root holds exactly @ref[0..n) in that order, obeys every
 * red-black rule, and iterates the same way forwards and backwards.
 */
static void check_tree(const struct rb_root *root, struct rb_node *const *ref,
		       size_t n, int (*key)(const struct rb_node *rb))
{
	struct walk w = { .ref = ref, .n = n, .key = key };
	struct rb_node *rb;
	size_t i;
	int bh;

	for (i = 1; i < n; i++)
		cr_assert_leq(key(ref[i - 1]), key(ref[i]), "reference unsorted");

	cr_assert_eq(RB_EMPTY_ROOT(root), n == 0);
	if (root->rb_node) {
		cr_assert_null(rb_parent(root->rb_node), "root has a parent");
		cr_assert(rb_is_black(root->rb_node), "root is red");
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
	for (rb = rb_last(root); rb; rb = rb_prev(rb)) {
		cr_assert_gt(i, 0, "rb_prev walks past the start");
		i--;
		cr_assert_eq(rb, ref[i], "rb_prev step %zu", i);
	}
	cr_assert_eq(i, 0, "rb_prev walk stops early");
}

/* Every anode's subtree_max is the true maximum below it; returns it. */
static int check_max(const struct rb_node *rb)
{
	const struct anode *a;
	int max, m;

	if (!rb)
		return INT_MIN;
	a = rb_entry(rb, struct anode, rb);
	max = a->value;
	m = check_max(rb->rb_left);
	if (m > max)
		max = m;
	m = check_max(rb->rb_right);
	if (m > max)
		max = m;
	cr_assert_eq(a->subtree_max, max, "key %d: subtree_max %d, true max %d",
		     a->key, a->subtree_max, max);
	return max;
}

/* Every snode's size is the true count below it; returns it. */
static unsigned int check_size(const struct rb_node *rb)
{
	const struct snode *s;
	unsigned int size;

	if (!rb)
		return 0;
	s = rb_entry(rb, struct snode, rb);
	size = 1 + check_size(rb->rb_left) + check_size(rb->rb_right);
	cr_assert_eq(s->size, size, "key %d: size %u, true size %u",
		     s->key, s->size, size);
	return size;
}

/* The k-th node in order (from 0), found through the sizes alone. */
static struct rb_node *snode_select(const struct rb_root *root, unsigned int k)
{
	struct rb_node *rb = root->rb_node;

	while (rb) {
		unsigned int left = snode_size(rb->rb_left);

		if (k < left) {
			rb = rb->rb_left;
		} else if (k == left) {
			return rb;
		} else {
			k -= left + 1;
			rb = rb->rb_right;
		}
	}
	return NULL;
}

/* The in-order position of @rb, walking up and counting what lies left. */
static unsigned int snode_rank(const struct rb_node *rb)
{
	unsigned int rank = snode_size(rb->rb_left);
	const struct rb_node *parent;

	while ((parent = rb_parent(rb))) {
		if (rb == parent->rb_right)
			rank += snode_size(parent->rb_left) + 1;
		rb = parent;
	}
	return rank;
}

/* ---- the harness: a tree, its reference, and a random workload ---- */

struct harness {
	struct rb_root_cached tree;
	bool cached;
	int (*key)(const struct rb_node *rb);
	void (*set_key)(struct rb_node *rb, int key, u64 *rng);
	void (*insert)(struct harness *h, struct rb_node *rb);
	void (*erase)(struct harness *h, struct rb_node *rb);
	void (*check_extra)(struct harness *h);

	/* what the tree must hold, in order */
	struct rb_node *ref[POOL];
	size_t n;
	/* nodes not in the tree */
	struct rb_node *idle[POOL];
	size_t nidle;

	/* set before each insert or erase for the callback to check */
	bool expect_leftmost;
	struct rb_node *expect_erase_ret;

	u64 rng;
	size_t ops;
};

static void harness_check(struct harness *h)
{
	check_tree(&h->tree.rb_root, h->ref, h->n, h->key);
	if (h->cached)
		cr_assert_eq(rb_first_cached(&h->tree), rb_first(&h->tree.rb_root),
			     "cached leftmost is not the first node");
	if (h->check_extra)
		h->check_extra(h);
}

/* Insert and check; equal keys go after the ones already there. */
static void harness_insert(struct harness *h, struct rb_node *rb)
{
	int key = h->key(rb);
	size_t pos = h->n;

	while (pos > 0 && h->key(h->ref[pos - 1]) > key)
		pos--;
	h->expect_leftmost = pos == 0;
	h->insert(h, rb);
	memmove(&h->ref[pos + 1], &h->ref[pos], (h->n - pos) * sizeof(h->ref[0]));
	h->ref[pos] = rb;
	h->n++;
	h->ops++;
	harness_check(h);
}

static void harness_erase(struct harness *h, struct rb_node *rb)
{
	size_t pos;

	for (pos = 0; pos < h->n && h->ref[pos] != rb; pos++)
		;
	cr_assert_lt(pos, h->n, "erasing a node the reference does not hold");
	h->expect_erase_ret = pos == 0 && h->n > 1 ? h->ref[1] : NULL;
	h->erase(h, rb);
	memmove(&h->ref[pos], &h->ref[pos + 1], (h->n - pos - 1) * sizeof(h->ref[0]));
	h->n--;
	h->ops++;
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
		return h->tree.rb_root.rb_node;
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

			h->set_key(rb, (int)xs_below(&h->rng, (u32)key_range),
				   &h->rng);
			harness_insert(h, rb);
		} else {
			harness_erase(h, harness_pick_victim(h));
		}
	}
	while (h->n)
		harness_erase(h, harness_pick_victim(h));
	cr_assert(RB_EMPTY_ROOT(&h->tree.rb_root));
	if (h->cached)
		cr_assert_null(rb_first_cached(&h->tree));
}

/* ---- plain trees ---- */

static void knode_set_key(struct rb_node *rb, int key, u64 *rng)
{
	static int next_id;

	rb_entry(rb, struct knode, rb)->key = key;
	rb_entry(rb, struct knode, rb)->id = next_id++;
}

static void plain_add(struct harness *h, struct rb_node *rb)
{
	rb_add(rb, &h->tree.rb_root, knode_less);
}

/* The descent a caller writes by hand, then rb_link_node + rb_insert_color. */
static void plain_descent_insert(struct harness *h, struct rb_node *rb)
{
	struct rb_node **link = &h->tree.rb_root.rb_node, *parent = NULL;
	int key = knode_key(rb);

	while (*link) {
		parent = *link;
		if (key < knode_key(parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(rb, parent, link);
	cr_assert(rb_is_red(rb), "a freshly linked node is red");
	cr_assert_eq(rb_parent(rb), parent);
	rb_insert_color(rb, &h->tree.rb_root);
}

static void plain_erase(struct harness *h, struct rb_node *rb)
{
	rb_erase(rb, &h->tree.rb_root);
}

/* Alternates rb_add_cached() and a hand descent with rb_insert_color_cached(). */
static void cached_insert(struct harness *h, struct rb_node *rb)
{
	bool leftmost = true;

	if (xs_next(&h->rng) & 1) {
		leftmost = rb_add_cached(rb, &h->tree, knode_less);
	} else {
		struct rb_node **link = &h->tree.rb_root.rb_node, *parent = NULL;

		while (*link) {
			parent = *link;
			if (knode_less(rb, parent)) {
				link = &parent->rb_left;
			} else {
				link = &parent->rb_right;
				leftmost = false;
			}
		}
		rb_link_node(rb, parent, link);
		rb_insert_color_cached(rb, &h->tree, leftmost);
	}
	cr_assert_eq(leftmost, h->expect_leftmost,
		     "key %d: leftmost %d, expected %d", knode_key(rb),
		     leftmost, h->expect_leftmost);
}

static void cached_erase(struct harness *h, struct rb_node *rb)
{
	struct rb_node *ret = rb_erase_cached(rb, &h->tree);

	cr_assert_eq(ret, h->expect_erase_ret,
		     "rb_erase_cached returned the wrong new leftmost");
}

static struct knode knodes[POOL];

static void knode_harness(struct harness *h, size_t nodes, bool cached)
{
	memset(h, 0, sizeof(*h));
	h->tree = RB_ROOT_CACHED;
	h->cached = cached;
	h->key = knode_key;
	h->set_key = knode_set_key;
	h->insert = cached ? cached_insert : plain_add;
	h->erase = cached ? cached_erase : plain_erase;
	for (size_t i = 0; i < nodes; i++) {
		RB_CLEAR_NODE(&knodes[i].rb);
		h->idle[h->nidle++] = &knodes[i].rb;
	}
}

Test(rbtree, empty_tree_has_no_nodes)
{
	struct rb_root root = RB_ROOT;
	struct rb_root_cached croot = RB_ROOT_CACHED;
	struct knode *pos, *n;
	int key = 1, visited = 0;

	cr_assert(RB_EMPTY_ROOT(&root));
	cr_assert_null(rb_first(&root));
	cr_assert_null(rb_last(&root));
	cr_assert_null(rb_first_postorder(&root));
	cr_assert_null(rb_next_postorder(NULL));
	cr_assert_null(rb_find(&key, &root, knode_cmp_key));
	cr_assert_null(rb_find_first(&key, &root, knode_cmp_key));
	cr_assert(RB_EMPTY_ROOT(&croot.rb_root));
	cr_assert_null(rb_first_cached(&croot));
	cr_assert_null(rb_entry_safe(rb_first(&root), struct knode, rb));
	rbtree_postorder_for_each_entry_safe(pos, n, &root, rb)
		visited++;
	cr_assert_eq(visited, 0);
}

Test(rbtree, single_node_tree_is_a_black_root_and_erases_to_empty)
{
	struct rb_root root = RB_ROOT;
	struct rb_root_cached croot = RB_ROOT_CACHED;
	struct knode a = { .key = 7 };

	rb_link_node(&a.rb, NULL, &root.rb_node);
	cr_assert(rb_is_red(&a.rb), "linked nodes start red");
	rb_insert_color(&a.rb, &root);
	cr_assert(rb_is_black(&a.rb), "the root is painted black");
	cr_assert_null(rb_parent(&a.rb));
	cr_assert_eq(rb_first(&root), &a.rb);
	cr_assert_eq(rb_last(&root), &a.rb);
	cr_assert_null(rb_next(&a.rb));
	cr_assert_null(rb_prev(&a.rb));
	cr_assert_eq(rb_first_postorder(&root), &a.rb);
	cr_assert_null(rb_next_postorder(&a.rb));
	cr_assert_eq(rb_find(&a.key, &root, knode_cmp_key), &a.rb);
	rb_erase(&a.rb, &root);
	cr_assert(RB_EMPTY_ROOT(&root));

	cr_assert(rb_add_cached(&a.rb, &croot, knode_less),
		  "the only node is the leftmost");
	cr_assert_eq(rb_first_cached(&croot), &a.rb);
	cr_assert_null(rb_erase_cached(&a.rb, &croot),
		       "no node follows the last one");
	cr_assert_null(rb_first_cached(&croot));
	cr_assert(RB_EMPTY_ROOT(&croot.rb_root));
}

Test(rbtree, cleared_node_is_empty_until_linked_and_after_erase)
{
	struct rb_root root = RB_ROOT;
	struct knode a = { .key = 1 }, b = { .key = 2 };

	RB_CLEAR_NODE(&a.rb);
	cr_assert(RB_EMPTY_NODE(&a.rb));
	cr_assert_null(rb_next(&a.rb), "a cleared node has no neighbours");
	cr_assert_null(rb_prev(&a.rb));

	rb_add(&a.rb, &root, knode_less);
	rb_add(&b.rb, &root, knode_less);
	cr_assert(!RB_EMPTY_NODE(&a.rb));
	cr_assert(!RB_EMPTY_NODE(&b.rb));
	rb_erase(&a.rb, &root);
	RB_CLEAR_NODE(&a.rb);
	cr_assert(RB_EMPTY_NODE(&a.rb));
	cr_assert_eq(rb_first(&root), &b.rb);

	/* and the node can go back in */
	rb_add(&a.rb, &root, knode_less);
	cr_assert_eq(rb_first(&root), &a.rb);
	cr_assert_eq(rb_next(&a.rb), &b.rb);
}

Test(rbtree, node_alignment_leaves_the_colour_bit_free)
{
	struct { char c; struct rb_node rb; } s;
	struct rb_node parent;

	cr_assert_geq(__alignof__(struct rb_node), sizeof(long));
	cr_assert_eq((unsigned long)&s.rb & 1, 0);
	rb_set_parent_color(&s.rb, &parent, RB_BLACK);
	cr_assert_eq(rb_parent(&s.rb), &parent, "the colour leaks into the parent");
	cr_assert(rb_is_black(&s.rb));
	rb_set_parent(&s.rb, NULL);
	cr_assert(rb_is_black(&s.rb), "moving a node keeps its colour");
	cr_assert_null(rb_parent(&s.rb));
}

Test(rbtree, sorted_inserts_stay_balanced)
{
	struct harness *h = malloc(sizeof(*h));

	/* ascending, then erase from the front; descending, erase from the back */
	knode_harness(h, POOL, false);
	for (int i = 0; i < POOL; i++) {
		struct rb_node *rb = harness_take_idle(h);

		knode_set_key(rb, i, NULL);
		harness_insert(h, rb);
	}
	while (h->n)
		harness_erase(h, h->ref[0]);

	knode_harness(h, POOL, true);
	for (int i = POOL; i > 0; i--) {
		struct rb_node *rb = harness_take_idle(h);

		knode_set_key(rb, i, NULL);
		harness_insert(h, rb);
	}
	while (h->n)
		harness_erase(h, h->ref[h->n - 1]);
	free(h);
}

Test(rbtree, random_insert_erase_keeps_every_invariant)
{
	struct harness *h = malloc(sizeof(*h));

	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
		/* few distinct keys: duplicates everywhere */
		knode_harness(h, 256, false);
		harness_run(h, seeds[s], 3000, 32);
		/* mostly distinct keys */
		knode_harness(h, 256, false);
		harness_run(h, seeds[s] ^ 0x5555, 3000, 1 << 20);
	}
	free(h);
}

Test(rbtree, caller_descent_with_insert_color_keeps_every_invariant)
{
	struct harness *h = malloc(sizeof(*h));

	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
		knode_harness(h, 256, false);
		h->insert = plain_descent_insert;
		harness_run(h, seeds[s], 3000, 100);
	}
	free(h);
}

Test(rbtree, cached_tree_tracks_leftmost_through_random_ops)
{
	struct harness *h = malloc(sizeof(*h));

	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
		knode_harness(h, 256, true);
		harness_run(h, seeds[s], 3000, 64);
	}
	free(h);
}

Test(rbtree, erase_root_until_empty)
{
	struct harness *h = malloc(sizeof(*h));
	u64 rng = seeds[0];

	for (int round = 0; round < 4; round++) {
		knode_harness(h, 300, round & 1);
		h->rng = rng;
		while (h->nidle) {
			struct rb_node *rb = harness_take_idle(h);

			knode_set_key(rb, (int)xs_below(&h->rng, 50), NULL);
			harness_insert(h, rb);
		}
		while (h->n)
			harness_erase(h, h->tree.rb_root.rb_node);
		cr_assert(RB_EMPTY_ROOT(&h->tree.rb_root));
		rng = h->rng;
	}
	free(h);
}

Test(rbtree, erase_every_node_in_each_order_empties_the_tree)
{
	struct harness *h = malloc(sizeof(*h));
	struct rb_node *order[200];

	for (int way = 0; way < 3; way++) {
		knode_harness(h, 200, false);
		h->rng = seeds[way];
		while (h->nidle) {
			struct rb_node *rb = harness_take_idle(h);

			knode_set_key(rb, (int)xs_below(&h->rng, 1000), NULL);
			harness_insert(h, rb);
		}
		memcpy(order, h->ref, sizeof(order));
		if (way == 2) {
			/* a random permutation of the nodes */
			for (size_t i = 200; i > 1; i--) {
				size_t j = xs_below(&h->rng, (u32)i);
				struct rb_node *t = order[i - 1];

				order[i - 1] = order[j];
				order[j] = t;
			}
		}
		for (size_t i = 0; i < 200; i++)
			harness_erase(h, order[way == 1 ? 199 - i : i]);
		cr_assert(RB_EMPTY_ROOT(&h->tree.rb_root));
		cr_assert_null(rb_first(&h->tree.rb_root));
	}
	free(h);
}

Test(rbtree, add_keeps_equal_keys_in_insertion_order)
{
	struct rb_root root = RB_ROOT;
	struct knode n[60];
	struct rb_node *rb;
	int last_key = -1, last_id = -1;

	for (int i = 0; i < 60; i++) {
		n[i].key = (i * 7) % 5;
		n[i].id = i;
		rb_add(&n[i].rb, &root, knode_less);
	}
	for (rb = rb_first(&root); rb; rb = rb_next(rb)) {
		struct knode *k = rb_entry(rb, struct knode, rb);

		cr_assert_geq(k->key, last_key);
		if (k->key == last_key)
			cr_assert_gt(k->id, last_id, "key %d: id %d after id %d",
				     k->key, k->id, last_id);
		last_key = k->key;
		last_id = k->id;
	}
}

Test(rbtree, replace_node_keeps_position_colour_and_links)
{
	struct harness *h = malloc(sizeof(*h));
	static struct knode spare[127];
	int keys[127];

	knode_harness(h, 127, false);
	for (int i = 0; i < 127; i++)
		keys[i] = i;
	h->rng = seeds[1];
	shuffle(keys, 127, &h->rng);
	for (int i = 0; i < 127; i++) {
		struct rb_node *rb = harness_take_idle(h);

		knode_set_key(rb, keys[i], NULL);
		harness_insert(h, rb);
	}

	/* every position: the root, inner nodes and leaves */
	for (size_t i = 0; i < 127; i++) {
		struct rb_node *victim = h->ref[i];
		struct rb_node *parent = rb_parent(victim);
		unsigned long colour = rb_color(victim);
		bool was_root = h->tree.rb_root.rb_node == victim;

		spare[i].key = knode_key(victim);
		rb_replace_node(victim, &spare[i].rb, &h->tree.rb_root);
		h->ref[i] = &spare[i].rb;
		cr_assert_eq(rb_color(&spare[i].rb), colour);
		cr_assert_eq(rb_parent(&spare[i].rb), parent);
		if (was_root)
			cr_assert_eq(h->tree.rb_root.rb_node, &spare[i].rb);
		harness_check(h);
	}
	free(h);
}

Test(rbtree, replace_node_cached_moves_the_leftmost)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct knode n[10], first = { .key = 0 }, mid = { .key = 5 };

	for (int i = 0; i < 10; i++) {
		n[i].key = i;
		rb_add_cached(&n[i].rb, &root, knode_less);
	}
	rb_replace_node_cached(&n[0].rb, &first.rb, &root);
	cr_assert_eq(rb_first_cached(&root), &first.rb);
	cr_assert_eq(rb_first(&root.rb_root), &first.rb);
	rb_replace_node_cached(&n[5].rb, &mid.rb, &root);
	cr_assert_eq(rb_first_cached(&root), &first.rb);
	cr_assert_eq(rb_next(&n[4].rb), &mid.rb);
	cr_assert_eq(rb_prev(&n[6].rb), &mid.rb);
}

Test(rbtree, postorder_visits_each_node_once_children_first)
{
	struct rb_root root = RB_ROOT;
	static struct knode n[500];
	bool seen[500] = { false };
	struct rb_node *rb, *last = NULL;
	u64 rng = seeds[2];
	size_t count = 0;

	for (int i = 0; i < 500; i++) {
		n[i].key = (int)xs_below(&rng, 100);
		n[i].id = i;
		rb_add(&n[i].rb, &root, knode_less);
	}
	for (rb = rb_first_postorder(&root); rb; rb = rb_next_postorder(rb)) {
		struct knode *k = rb_entry(rb, struct knode, rb);
		struct rb_node *parent = rb_parent(rb);

		cr_assert_lt(count, 500, "post-order walk does not end");
		cr_assert(!seen[k->id], "node %d visited twice", k->id);
		if (rb->rb_left)
			cr_assert(seen[rb_entry(rb->rb_left, struct knode, rb)->id],
				  "node %d before its left child", k->id);
		if (rb->rb_right)
			cr_assert(seen[rb_entry(rb->rb_right, struct knode, rb)->id],
				  "node %d before its right child", k->id);
		if (parent)
			cr_assert(!seen[rb_entry(parent, struct knode, rb)->id],
				  "node %d after its parent", k->id);
		seen[k->id] = true;
		count++;
		last = rb;
	}
	cr_assert_eq(count, 500);
	cr_assert_eq(last, root.rb_node, "the root comes last");
}

Test(rbtree, postorder_safe_iteration_frees_a_whole_tree)
{
	struct rb_root root = RB_ROOT;
	struct knode *pos, *n;
	u64 rng = seeds[3];
	int freed = 0;

	for (int i = 0; i < 1000; i++) {
		struct knode *k = malloc(sizeof(*k));

		cr_assert_not_null(k);
		k->key = (int)xs_below(&rng, 300);
		rb_add(&k->rb, &root, knode_less);
	}
	/*
	 * Scribble over each node before freeing it: if the iterator read a
	 * visited node again the walk would go astray even without ASan.
	 */
	rbtree_postorder_for_each_entry_safe(pos, n, &root, rb) {
		memset(pos, 0x5a, sizeof(*pos));
		free(pos);
		freed++;
	}
	root = RB_ROOT;
	cr_assert_eq(freed, 1000);
}

Test(rbtree, find_and_find_first_handle_duplicates)
{
	struct rb_root root = RB_ROOT;
	static struct knode n[400];
	int keys[400], counts[100] = { 0 };
	u64 rng = seeds[4];

	/* keys 0, 2, .., 198, each four times; odd keys are absent */
	for (int i = 0; i < 400; i++)
		keys[i] = 2 * (i % 100);
	shuffle(keys, 400, &rng);
	for (int i = 0; i < 400; i++) {
		n[i].key = keys[i];
		n[i].id = i;
		rb_add(&n[i].rb, &root, knode_less);
	}

	for (int key = -1; key <= 200; key++) {
		struct rb_node *any = rb_find(&key, &root, knode_cmp_key);
		struct rb_node *first = rb_find_first(&key, &root, knode_cmp_key);
		struct rb_node *rb;
		int seen = 0, last_id = -1;

		if (key < 0 || key >= 200 || key % 2) {
			cr_assert_null(any, "key %d is not in the tree", key);
			cr_assert_null(first, "key %d is not in the tree", key);
			continue;
		}
		cr_assert_not_null(any, "key %d not found", key);
		cr_assert_eq(knode_key(any), key);
		cr_assert_not_null(first);
		cr_assert_eq(knode_key(first), key);
		cr_assert(!rb_prev(first) || knode_key(rb_prev(first)) < key,
			  "key %d: rb_find_first is not the first match", key);

		/* the matches come out in insertion order, then stop */
		rb_for_each(rb, &key, &root, knode_cmp_key) {
			struct knode *k = rb_entry(rb, struct knode, rb);

			cr_assert_eq(k->key, key);
			cr_assert_gt(k->id, last_id);
			last_id = k->id;
			seen++;
		}
		cr_assert_eq(seen, 4, "key %d: %d matches, expected 4", key, seen);
		counts[key / 2] = seen;

		/* and rb_find_first is the oldest of them */
		for (int i = 0; i < 400; i++)
			if (n[i].key == key) {
				cr_assert_eq(first, &n[i].rb);
				break;
			}
	}
	for (int i = 0; i < 100; i++)
		cr_assert_eq(counts[i], 4);
}

Test(rbtree, find_add_refuses_an_equal_key)
{
	struct rb_root root = RB_ROOT;
	static struct knode n[300];
	struct knode *by_key[64] = { NULL };
	struct rb_node *rb;
	u64 rng = seeds[0];
	int inserted = 0, last = -1;

	for (int i = 0; i < 300; i++) {
		int key = (int)xs_below(&rng, 64);
		struct rb_node *clash;

		n[i].key = key;
		clash = rb_find_add(&n[i].rb, &root, knode_cmp);
		if (by_key[key]) {
			cr_assert_eq(clash, &by_key[key]->rb,
				     "key %d: the clash is the node already in", key);
		} else {
			cr_assert_null(clash);
			by_key[key] = &n[i];
			inserted++;
		}
	}
	for (rb = rb_first(&root); rb; rb = rb_next(rb)) {
		cr_assert_gt(knode_key(rb), last, "keys are unique and sorted");
		last = knode_key(rb);
		inserted--;
	}
	cr_assert_eq(inserted, 0);
}

/* ---- augmented: maximum of a per-node value ---- */

static void anode_set_key(struct rb_node *rb, int key, u64 *rng)
{
	struct anode *a = rb_entry(rb, struct anode, rb);

	a->key = key;
	a->value = (int)xs_below(rng, 5000);
}

/*
 * The caller's half of an augmented insert: every node on the way down
 * gains the new node as a descendant, so fold its value in on the way.
 */
static void anode_insert(struct harness *h, struct rb_node *rb)
{
	struct anode *a = rb_entry(rb, struct anode, rb);
	struct rb_node **link = &h->tree.rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	a->subtree_max = a->value;
	while (*link) {
		struct anode *p;

		parent = *link;
		p = rb_entry(parent, struct anode, rb);
		if (p->subtree_max < a->value)
			p->subtree_max = a->value;
		if (a->key < p->key) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(rb, parent, link);
	if (h->cached) {
		cr_assert_eq(leftmost, h->expect_leftmost);
		rb_insert_augmented_cached(rb, &h->tree, leftmost, &anode_cb);
	} else {
		rb_insert_augmented(rb, &h->tree.rb_root, &anode_cb);
	}
}

static void anode_erase(struct harness *h, struct rb_node *rb)
{
	if (h->cached) {
		struct rb_node *ret = rb_erase_augmented_cached(rb, &h->tree,
								&anode_cb);

		cr_assert_eq(ret, h->expect_erase_ret);
	} else {
		rb_erase_augmented(rb, &h->tree.rb_root, &anode_cb);
	}
}

static void anode_check(struct harness *h)
{
	check_max(h->tree.rb_root.rb_node);
}

static struct anode anodes[POOL];

static void anode_harness(struct harness *h, size_t nodes, bool cached)
{
	memset(h, 0, sizeof(*h));
	h->tree = RB_ROOT_CACHED;
	h->cached = cached;
	h->key = anode_key;
	h->set_key = anode_set_key;
	h->insert = anode_insert;
	h->erase = anode_erase;
	h->check_extra = anode_check;
	for (size_t i = 0; i < nodes; i++) {
		RB_CLEAR_NODE(&anodes[i].rb);
		h->idle[h->nidle++] = &anodes[i].rb;
	}
}

Test(rbtree, augmented_max_correct_after_every_insert_and_erase)
{
	struct harness *h = malloc(sizeof(*h));

	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
		anode_harness(h, 256, false);
		harness_run(h, seeds[s], 3000, 40);
	}
	free(h);
}

Test(rbtree, augmented_cached_tracks_leftmost_and_max)
{
	struct harness *h = malloc(sizeof(*h));

	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
		anode_harness(h, 256, true);
		harness_run(h, seeds[s], 3000, 1000);
	}
	free(h);
}

static int root_max(const struct harness *h)
{
	return rb_entry(h->tree.rb_root.rb_node, struct anode, rb)->subtree_max;
}

/*
 * Erase each node of a fixed tree in turn, from a fresh tree every time,
 * with the node's in-order successor holding the one largest value: the
 * successor moves into the erased node's place, and every summary on both
 * its old and its new path must follow it.
 */
Test(rbtree, augmented_max_survives_successor_swap_on_erase)
{
	struct harness *h = malloc(sizeof(*h));
	int keys[127], deep_successors = 0, near_successors = 0;

	for (int i = 0; i < 127; i++)
		keys[i] = i;
	for (int victim = 0; victim < 126; victim++) {
		struct anode *v, *succ;
		u64 rng = seeds[0];

		/* no idle list: the nodes go in by hand, in a shuffled order */
		anode_harness(h, 0, false);
		shuffle(keys, 127, &rng);
		for (int i = 0; i < 127; i++) {
			struct anode *a = &anodes[i];

			a->key = keys[i];
			a->value = keys[i] == victim + 1 ? 1000000 : keys[i] % 17;
			harness_insert(h, &a->rb);
		}
		v = rb_entry(h->ref[victim], struct anode, rb);
		succ = rb_entry(h->ref[victim + 1], struct anode, rb);
		if (v->rb.rb_left && v->rb.rb_right) {
			if (v->rb.rb_right == &succ->rb)
				near_successors++;
			else
				deep_successors++;
		}
		harness_erase(h, &v->rb);
		cr_assert_eq(root_max(h), 1000000);

		/* and erasing the maximum itself brings the root's summary down */
		harness_erase(h, &succ->rb);
		cr_assert_lt(root_max(h), 17);
	}
	/* both shapes of the successor swap were exercised */
	cr_assert_gt(deep_successors, 0, "no erase took a successor from deep down");
	cr_assert_gt(near_successors, 0, "no erase took the right child as successor");
	free(h);
}

Test(rbtree, augmented_propagate_follows_value_changes)
{
	struct harness *h = malloc(sizeof(*h));

	anode_harness(h, 300, false);
	h->rng = seeds[1];
	while (h->nidle) {
		struct rb_node *rb = harness_take_idle(h);

		h->set_key(rb, (int)xs_below(&h->rng, 1000), &h->rng);
		harness_insert(h, rb);
	}
	for (int i = 0; i < 2000; i++) {
		struct anode *a = rb_entry(h->ref[xs_below(&h->rng, (u32)h->n)],
					   struct anode, rb);

		/* raise and lower, so propagate both grows and shrinks maxima */
		a->value = (int)xs_below(&h->rng, 10000);
		anode_cb.propagate(&a->rb, NULL);
		check_max(h->tree.rb_root.rb_node);
	}
	free(h);
}

/* Intervals [key, value] containing @x below @rb, pruned by subtree_max. */
static size_t stab(const struct rb_node *rb, int x, size_t *visited)
{
	const struct anode *a;
	size_t found;

	if (!rb)
		return 0;
	a = rb_entry(rb, struct anode, rb);
	if (a->subtree_max < x)
		return 0;	/* everything below ends before x */
	(*visited)++;
	found = stab(rb->rb_left, x, visited);
	if (a->key > x)
		return found;	/* this node and its right side start after x */
	if (a->value >= x)
		found++;
	return found + stab(rb->rb_right, x, visited);
}

Test(rbtree, augmented_max_answers_interval_stabbing_queries)
{
	struct harness *h = malloc(sizeof(*h));
	size_t visited = 0, queries = 0;

	anode_harness(h, 1000, false);
	h->rng = seeds[2];
	while (h->nidle) {
		struct rb_node *rb = harness_take_idle(h);
		struct anode *a = rb_entry(rb, struct anode, rb);

		a->key = (int)xs_below(&h->rng, 100000);
		a->value = a->key + (int)xs_below(&h->rng, 300);
		harness_insert(h, rb);
	}
	for (int x = -10; x < 100400; x += 97) {
		size_t want = 0;

		for (size_t i = 0; i < h->n; i++) {
			struct anode *a = rb_entry(h->ref[i], struct anode, rb);

			if (a->key <= x && x <= a->value)
				want++;
		}
		cr_assert_eq(stab(h->tree.rb_root.rb_node, x, &visited), want,
			     "point %d", x);
		queries++;
	}
	/* short intervals: the pruning must skip most of the tree */
	cr_assert_lt(visited / queries, h->n / 10,
		     "%zu nodes visited per query of %zu", visited / queries, h->n);
	free(h);
}

/* ---- augmented: a custom summary, subtree sizes ---- */

static void snode_set_key(struct rb_node *rb, int key, u64 *rng)
{
	rb_entry(rb, struct snode, rb)->key = key;
}

static void snode_insert(struct harness *h, struct rb_node *rb)
{
	struct snode *s = rb_entry(rb, struct snode, rb);
	struct rb_node **link = &h->tree.rb_root.rb_node, *parent = NULL;

	s->size = 1;
	while (*link) {
		struct snode *p;

		parent = *link;
		p = rb_entry(parent, struct snode, rb);
		p->size++;
		if (s->key < p->key)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(rb, parent, link);
	rb_insert_augmented(rb, &h->tree.rb_root, &snode_cb);
}

static void snode_erase(struct harness *h, struct rb_node *rb)
{
	rb_erase_augmented(rb, &h->tree.rb_root, &snode_cb);
}

static void snode_check(struct harness *h)
{
	cr_assert_eq(check_size(h->tree.rb_root.rb_node), h->n);
	for (size_t k = 0; k < h->n; k++) {
		cr_assert_eq(snode_select(&h->tree.rb_root, (unsigned int)k),
			     h->ref[k], "select(%zu)", k);
		cr_assert_eq(snode_rank(h->ref[k]), k, "rank of position %zu", k);
	}
	cr_assert_null(snode_select(&h->tree.rb_root, (unsigned int)h->n));
}

static struct snode snodes[POOL];

Test(rbtree, augmented_size_selects_kth_element_after_every_op)
{
	struct harness *h = malloc(sizeof(*h));

	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
		memset(h, 0, sizeof(*h));
		h->tree = RB_ROOT_CACHED;
		h->key = snode_key;
		h->set_key = snode_set_key;
		h->insert = snode_insert;
		h->erase = snode_erase;
		h->check_extra = snode_check;
		for (size_t i = 0; i < 200; i++)
			h->idle[h->nidle++] = &snodes[i].rb;
		harness_run(h, seeds[s], 2000, 50);
	}
	free(h);
}

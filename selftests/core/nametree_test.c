// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the name trees (core/nametree.h): the order they keep, the
 * resumption from a key that is no longer there, and the check that
 * vs_cluster_check() relies on.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/nametree.h"

struct obj {
	const char *ns;
	const char *name;
	struct rb_node rb;
};

/* An object named @n in namespace @s (NULL: cluster-scoped). */
#define O(s, n)	{ .ns = (s), .name = (n) }

static struct vs_name_tree tree;

static void setup(void)
{
	tree = VS_NAME_TREE(struct obj, rb, ns, name);
	vs_name_tree_keep(&tree);
}

TestSuite(nametree, .init = setup);

/* The keys of @t in order, "ns/name " each. */
static void keys(const struct vs_name_tree *t, char *buf, size_t len)
{
	const char *ns, *name;

	buf[0] = '\0';
	for (const void *o = vs_name_tree_after(t, NULL, NULL); o; o = vs_name_tree_next(t, o)) {
		vs_name_tree_key(t, o, &ns, &name);
		snprintf(buf + strlen(buf), len - strlen(buf), "%s/%s ", ns ? ns : "", name);
	}
}

Test(nametree, orders_by_namespace_then_name_bytewise)
{
	struct obj o[] = {
		O("b", "a"), O("a", "b"), O("a", "a-10"), O("a", "a-9"), O("", "z"),
	};
	char buf[128];

	for (size_t i = 0; i < ARRAY_SIZE(o); i++)
		vs_name_tree_add(&tree, &o[i]);
	keys(&tree, buf, sizeof(buf));
	cr_assert_str_eq(buf, "/z a/a-10 a/a-9 a/b b/a ");
	cr_assert_eq(vs_name_tree_check(&tree, ARRAY_SIZE(o)), 0);
	cr_assert_eq(vs_name_tree_check(&tree, ARRAY_SIZE(o) + 1), -EIO, "a count too high");
	cr_assert_eq(vs_name_tree_check(&tree, ARRAY_SIZE(o) - 1), -EIO, "a count too low");
}

Test(nametree, after_a_key_gone_is_the_next_one_still_there)
{
	struct obj o[] = { O("ns", "a"), O("ns", "b"), O("ns", "c"), O("nt", "a") };
	struct obj *after;

	for (size_t i = 0; i < ARRAY_SIZE(o); i++)
		vs_name_tree_add(&tree, &o[i]);
	vs_name_tree_del(&tree, &o[1]);
	cr_assert(RB_EMPTY_NODE(&o[1].rb), "a deleted node is marked off the tree");
	cr_assert_eq(vs_name_tree_after(&tree, "ns", "b"), &o[2]);
	cr_assert_eq(vs_name_tree_after(&tree, "ns", "a"), &o[2]);
	cr_assert_eq(vs_name_tree_after(&tree, "ns", "bb"), &o[2]);
	/* past a namespace's last name: the next namespace's first */
	cr_assert_eq(vs_name_tree_after(&tree, "ns", "zzz"), &o[3]);
	cr_assert_null(vs_name_tree_after(&tree, "nt", "a"));
	after = vs_name_tree_after(&tree, "", "");
	cr_assert_eq(after, &o[0], "the empty key sorts before every other");
	cr_assert_eq(vs_name_tree_check(&tree, 3), 0);
}

Test(nametree, cluster_scoped_kinds_sort_by_name_alone)
{
	struct obj o[] = { O(NULL, "n2"), O(NULL, "n10"), O(NULL, "n1") };
	char buf[64];

	tree = VS_NAME_TREE_CLUSTER(struct obj, rb, name);
	vs_name_tree_keep(&tree);
	for (size_t i = 0; i < ARRAY_SIZE(o); i++)
		vs_name_tree_add(&tree, &o[i]);
	keys(&tree, buf, sizeof(buf));
	cr_assert_str_eq(buf, "/n1 /n10 /n2 ");
	cr_assert_eq(vs_name_tree_after(&tree, NULL, "n10"), &o[0]);
}

Test(nametree, check_finds_a_key_changed_in_place)
{
	struct obj o[] = { O("ns", "a"), O("ns", "b"), O("ns", "c") };

	for (size_t i = 0; i < ARRAY_SIZE(o); i++)
		vs_name_tree_add(&tree, &o[i]);
	o[0].name = "d";	/* what the tree forbids: the order is broken */
	cr_assert_eq(vs_name_tree_check(&tree, 3), -EIO);
}

/*
 * Adds in runs of ascending names, between and around what is there, with
 * deletions (of the last added too): the hint that places a run's next
 * name keeps the order exactly as descents from the root would.
 */
Test(nametree, runs_placed_by_the_hint_keep_the_order)
{
	static struct obj o[600];
	static char names[600][16];
	size_t in = 0;

	for (size_t i = 0; i < ARRAY_SIZE(o); i++) {
		/* runs of 8 ascending names, the runs' starts scattered */
		size_t run = (i / 8 * 37) % 75, k = i % 8;

		snprintf(names[i], sizeof(names[i]), "j%03zu-t%zu", run, k);
		o[i] = (struct obj)O(i % 3 ? "a" : "b", names[i]);
		vs_name_tree_add(&tree, &o[i]);
		in++;
		if (i % 7 == 6) {
			/* the last added, then an older one still there */
			vs_name_tree_del(&tree, &o[i]);
			in--;
			if (!RB_EMPTY_NODE(&o[i / 2].rb)) {
				vs_name_tree_del(&tree, &o[i / 2]);
				in--;
			}
		}
		cr_assert_eq(vs_name_tree_check(&tree, in), 0, "out of order after add %zu", i);
	}
}

Test(nametree, a_tree_not_kept_stays_empty_until_kept)
{
	struct obj o[] = { O("ns", "b"), O("ns", "a") };

	tree = VS_NAME_TREE(struct obj, rb, ns, name);
	vs_name_tree_add(&tree, &o[0]);
	cr_assert_null(vs_name_tree_after(&tree, NULL, NULL), "added to a tree nobody keeps");
	cr_assert_eq(vs_name_tree_check(&tree, 1), 0, "the check asks nothing of it");
	vs_name_tree_del(&tree, &o[0]);
	vs_name_tree_keep(&tree);
	vs_name_tree_add(&tree, &o[0]);
	vs_name_tree_add(&tree, &o[1]);
	cr_assert_eq(vs_name_tree_after(&tree, NULL, NULL), &o[1]);
	cr_assert_eq(vs_name_tree_check(&tree, 2), 0);
}

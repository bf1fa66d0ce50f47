// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for HyperNodes and their tree (core/hypernode.h), after the cases
 * of Volcano's hyper_node_info_test.go: members by each selector, leaves,
 * tiers, the lowest common ancestor, a member claimed by two parents, a
 * cycle, and the tree following changes of HyperNodes and nodes, and
 * transactions undone. vs_cluster_check() runs after every step.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/cluster.h"
#include "core/txn.h"

static struct vs_cluster cl;

static void check(void)
{
	struct vs_err err = { 0 };

	cr_assert_eq(vs_cluster_check(&cl, &err), 0, "%s", err.msg);
}

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
}

static void teardown(void)
{
	check();
	vs_cluster_destroy(&cl);
}

TestSuite(hypernode, .init = setup, .fini = teardown);

static struct vs_node *node(const char *name, const char *rack)
{
	struct vs_kv_spec kv = { "rack", rack };
	struct vs_node_spec spec;
	struct vs_node *n;
	struct vs_err err = { 0 };

	vs_node_spec_init(&spec, name);
	if (rack) {
		spec.labels = &kv;
		spec.nr_labels = 1;
	}
	cr_assert_eq(vs_node_add(&cl, &spec, &n, &err), 0, "%s", err.msg);
	return n;
}

static void relabel(struct vs_node *n, const char *rack)
{
	struct vs_kv_spec kv = { "rack", rack };
	struct vs_node_spec spec;
	struct vs_err err = { 0 };

	vs_node_spec_init(&spec, n->name);
	spec.labels = &kv;
	spec.nr_labels = 1;
	cr_assert_eq(vs_node_update(&cl, n, &spec, &err), 0, "%s", err.msg);
}

#define EXACT(t, n)	{ .type = (t), .sel = VS_HN_EXACT, .name = (n) }
#define NODE(n)		EXACT(VS_HN_MEMBER_NODE, n)
#define HN(n)		EXACT(VS_HN_MEMBER_HYPERNODE, n)
#define REGEX(p)	{ .type = VS_HN_MEMBER_NODE, .sel = VS_HN_REGEX, .name = (p) }

static int hn_put(const char *name, s32 tier, const struct vs_hn_member_spec *m, u32 nr,
		  struct vs_err *err)
{
	struct vs_hypernode_spec spec = {
		.name = name, .tier = tier, .members = m, .nr_members = nr,
	};
	struct vs_hypernode *hn = vs_hypernode_find(&cl, name);

	return hn ? vs_hypernode_update(&cl, hn, &spec, err) :
		    vs_hypernode_add(&cl, &spec, NULL, err);
}

#define PUT(name, tier, ...) do {						\
	const struct vs_hn_member_spec __m[] = { __VA_ARGS__ };			\
	struct vs_err __e = { 0 };						\
	cr_assert_eq(hn_put(name, tier, __m, ARRAY_SIZE(__m), &__e), 0, "%s", __e.msg); \
	check();								\
} while (0)

static struct vs_hypernode *find(const char *name)
{
	struct vs_hypernode *hn = vs_hypernode_find(&cl, name);

	cr_assert_not_null(hn, "no hypernode %s", name);
	return hn;
}

/* @name's leaves, comma-separated, against @want. */
static void leaves_are(const char *name, const char *want)
{
	const struct vs_hypernode *hn = find(name);
	char buf[512] = "";

	for (u32 i = 0; i < hn->nr_leaves; i++) {
		if (i)
			strcat(buf, ",");
		strcat(buf, hn->leaves[i]);
	}
	cr_assert_str_eq(buf, want, "%s's leaves", name);
}

static const char *parent_of(const char *name)
{
	const struct vs_hypernode *hn = find(name);

	return hn->parent ? hn->parent->name : "";
}

/* Volcano's three-tier example: s0..s3 over nodes, s4 and s5 over them, s6 on top. */
static void three_tiers(void)
{
	for (int i = 0; i < 8; i++) {
		char n[32];

		snprintf(n, sizeof(n), "node-%d", i);
		node(n, NULL);
	}
	PUT("s0", 1, NODE("node-0"), NODE("node-1"));
	PUT("s1", 1, NODE("node-2"), NODE("node-3"));
	PUT("s2", 1, NODE("node-4"), NODE("node-5"));
	PUT("s3", 1, NODE("node-6"), NODE("node-7"));
	PUT("s4", 2, HN("s0"), HN("s1"));
	PUT("s5", 2, HN("s2"), HN("s3"));
	PUT("s6", 3, HN("s4"), HN("s5"));
}

Test(hypernode, leaves_of_each_tier)
{
	three_tiers();
	leaves_are("s0", "node-0,node-1");
	leaves_are("s4", "node-0,node-1,node-2,node-3");
	leaves_are("s5", "node-4,node-5,node-6,node-7");
	leaves_are("s6", "node-0,node-1,node-2,node-3,node-4,node-5,node-6,node-7");
	cr_assert_str_eq(parent_of("s0"), "s4");
	cr_assert_str_eq(parent_of("s5"), "s6");
	cr_assert_str_eq(parent_of("s6"), "");
	cr_assert_eq(find("s6")->nr_children, 2);
	cr_assert_eq(find("s6")->tier, 3);
	cr_assert(vs_hypernodes_ready(&cl));
	cr_assert(vs_hypernode_has_leaf(find("s5"), "node-6"));
	cr_assert_not(vs_hypernode_has_leaf(find("s5"), "node-0"));
}

Test(hypernode, lowest_common_ancestor)
{
	three_tiers();
	cr_assert_eq(vs_hypernode_lca(find("s0"), find("s1")), find("s4"));
	cr_assert_eq(vs_hypernode_lca(find("s0"), find("s3")), find("s6"));
	cr_assert_eq(vs_hypernode_lca(find("s0"), find("s4")), find("s4"));
	cr_assert_eq(vs_hypernode_lca(find("s2"), find("s2")), find("s2"));
	cr_assert_eq(vs_hypernode_lca(NULL, find("s2")), find("s2"));
	cr_assert_eq(vs_hypernode_lca(find("s1"), NULL), find("s1"));
	PUT("lone", 1, NODE("node-0"));
	cr_assert_null(vs_hypernode_lca(find("lone"), find("s0")));
}

Test(hypernode, children_created_after_their_parent)
{
	PUT("top", 2, HN("a"), HN("b"));
	leaves_are("top", "");
	cr_assert(vs_hypernodes_ready(&cl), "a member not yet created is no conflict");
	PUT("a", 1, NODE("n1"));
	PUT("b", 1, NODE("n2"), NODE("n3"));
	cr_assert_str_eq(parent_of("a"), "top");
	leaves_are("top", "n1,n2,n3");
}

Test(hypernode, exact_names_count_before_their_nodes)
{
	/* Volcano's GetMembers: an exactMatch name is a member whether or not the node exists. */
	PUT("s", 1, NODE("ghost"));
	leaves_are("s", "ghost");
	node("ghost", NULL);
	leaves_are("s", "ghost");
}

Test(hypernode, regex_members_follow_the_nodes)
{
	node("gpu-a", NULL);
	node("cpu-a", NULL);
	PUT("gpu", 1, REGEX("^gpu-"));
	PUT("top", 2, HN("gpu"));
	leaves_are("top", "gpu-a");
	struct vs_node *b = node("gpu-b", NULL);

	leaves_are("gpu", "gpu-a,gpu-b");
	leaves_are("top", "gpu-a,gpu-b");
	struct vs_err err = { 0 };

	cr_assert_eq(vs_node_del(&cl, b, &err), 0, "%s", err.msg);
	check();
	leaves_are("top", "gpu-a");
}

Test(hypernode, label_members_follow_relabelling)
{
	struct vs_kv_spec r1 = { "rack", "r1" };
	const struct vs_hn_member_spec m = {
		.type = VS_HN_MEMBER_NODE, .sel = VS_HN_LABEL, .labels = &r1, .nr_labels = 1,
	};
	struct vs_err err = { 0 };
	struct vs_node *x = node("x", "r1");

	node("y", "r2");
	cr_assert_eq(hn_put("rack1", 1, &m, 1, &err), 0, "%s", err.msg);
	PUT("row", 2, HN("rack1"));
	leaves_are("row", "x");
	relabel(x, "r2");
	check();
	leaves_are("rack1", "");
	leaves_are("row", "");
	relabel(vs_node_find(&cl, "y"), "r1");
	check();
	leaves_are("row", "y");
}

Test(hypernode, a_member_of_two_parents_keeps_the_older)
{
	PUT("leaf", 1, NODE("n1"));
	PUT("p1", 2, HN("leaf"));
	PUT("p2", 2, HN("leaf"));
	cr_assert_str_eq(parent_of("leaf"), "p1");
	leaves_are("p2", "");
	cr_assert_not(vs_hypernodes_ready(&cl), "Volcano refuses the second parent");
	vs_hypernode_del(&cl, find("p1"));
	check();
	cr_assert_str_eq(parent_of("leaf"), "p2", "the other claimer adopts the freed member");
	leaves_are("p2", "n1");
	cr_assert(vs_hypernodes_ready(&cl));
}

Test(hypernode, a_released_member_is_adopted_by_its_other_claimer)
{
	PUT("leaf", 1, NODE("n1"));
	PUT("p1", 2, HN("leaf"));
	PUT("p2", 2, HN("leaf"));
	PUT("p1", 2, NODE("n9"));
	cr_assert_str_eq(parent_of("leaf"), "p2");
	leaves_are("p1", "n9");
	leaves_are("p2", "n1");
	cr_assert(vs_hypernodes_ready(&cl));
}

Test(hypernode, a_cycle_is_refused_and_not_ready)
{
	PUT("a", 1, HN("b"), NODE("na"));
	PUT("b", 1, HN("a"), NODE("nb"));
	/* Resolved oldest first: a takes its claimer b; b's claimer a would close the cycle. */
	cr_assert_str_eq(parent_of("a"), "b");
	cr_assert_str_eq(parent_of("b"), "", "the claim that closes the cycle is refused");
	leaves_are("b", "na,nb");
	cr_assert_not(vs_hypernodes_ready(&cl));
	PUT("self", 1, HN("self"));
	cr_assert_str_eq(parent_of("self"), "");
	vs_hypernode_del(&cl, find("self"));
	PUT("b", 1, NODE("nb"));
	cr_assert_str_eq(parent_of("b"), "a", "the cycle gone, the other claim holds");
	cr_assert_str_eq(parent_of("a"), "");
	leaves_are("a", "na,nb");
	cr_assert(vs_hypernodes_ready(&cl));
}

Test(hypernode, deleting_a_middle_tier_orphans_its_children)
{
	three_tiers();
	vs_hypernode_del(&cl, find("s4"));
	check();
	cr_assert_str_eq(parent_of("s0"), "");
	leaves_are("s6", "node-4,node-5,node-6,node-7");
	PUT("s4", 2, HN("s0"), HN("s1"));
	leaves_are("s6", "node-0,node-1,node-2,node-3,node-4,node-5,node-6,node-7");
}

Test(hypernode, bad_specs_change_nothing)
{
	struct vs_hn_member_spec bad_re = REGEX("a(");
	struct vs_hn_member_spec no_name = NODE(NULL);
	struct vs_err err = { 0 };

	cr_assert_eq(hn_put("x", 1, &bad_re, 1, &err), -EINVAL);
	cr_assert(strstr(err.msg, "regexMatch pattern"), "%s", err.msg);
	cr_assert_eq(hn_put("x", 1, &no_name, 1, &err), -EINVAL);
	cr_assert(strstr(err.msg, "member 0"), "%s", err.msg);
	cr_assert_eq(hn_put("x", 1, NULL, 0, &err), -EINVAL);
	cr_assert_eq(hn_put("x", -1, &bad_re, 1, &err), -EINVAL);
	cr_assert_eq(hn_put("Bad_Name", 1, &no_name, 1, &err), -EINVAL);
	cr_assert_null(vs_hypernode_find(&cl, "x"));
	PUT("x", 1, NODE("n"));
	cr_assert_eq(hn_put("x", 1, &bad_re, 1, &err), -EINVAL);
	leaves_are("x", "n");
}

Test(hypernode, node_changes_undone_by_a_transaction)
{
	struct vs_kv_spec r1 = { "rack", "r1" };
	const struct vs_hn_member_spec m = {
		.type = VS_HN_MEMBER_NODE, .sel = VS_HN_LABEL, .labels = &r1, .nr_labels = 1,
	};
	struct vs_err err = { 0 };
	struct vs_txn txn;

	node("x", "r1");
	node("y", "r2");
	cr_assert_eq(hn_put("rack1", 1, &m, 1, &err), 0, "%s", err.msg);
	PUT("row", 2, HN("rack1"));
	vs_txn_begin(&txn, &cl);
	relabel(vs_node_find(&cl, "y"), "r1");
	node("z", "r1");
	cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "x"), &err), 0, "%s", err.msg);
	leaves_are("row", "y,z");
	cr_assert_eq(vs_txn_abort(&txn), 0);
	check();
	leaves_are("row", "x");
}

/* Everything the tree holds, in name order: what an undo must give back. */
static void state(char *buf, size_t size)
{
	const struct vs_hypernode *hn;
	size_t n = 0;

	buf[0] = 0;
	vs_cluster_keep_names(&cl);
	for (hn = vs_name_tree_after(&cl.hypernode_names, NULL, NULL); hn;
	     hn = vs_name_tree_next(&cl.hypernode_names, hn)) {
		n += snprintf(buf + n, size - n, "%s seq=%llu tier=%d/%s parent=%s kids=%u m=",
			      hn->name, (unsigned long long)hn->seq, hn->tier,
			      hn->tier_name ? hn->tier_name : "", hn->parent ? hn->parent->name : "",
			      hn->nr_children);
		for (u32 i = 0; i < hn->nr_members; i++)
			n += snprintf(buf + n, size - n, "%d:%d:%s,", hn->members[i].type,
				      hn->members[i].sel, hn->members[i].name ? hn->members[i].name : "");
		n += snprintf(buf + n, size - n, " leaves=");
		for (u32 i = 0; i < hn->nr_leaves; i++)
			n += snprintf(buf + n, size - n, "%s,", hn->leaves[i]);
		n += snprintf(buf + n, size - n, "\n");
		cr_assert_lt(n, size);
	}
}

static void del(const char *name)
{
	vs_hypernode_del(&cl, find(name));
	check();
}

Test(hypernode, every_change_undone_by_a_transaction)
{
	static char before[8192], after[8192];
	struct vs_txn txn;

	three_tiers();
	PUT("other", 2, HN("s0"), REGEX("node-[67]"));
	state(before, sizeof(before));
	for (int step = 0; step < 6; step++) {
		vs_txn_begin(&txn, &cl);
		switch (step) {
		case 0:
			PUT("new", 4, HN("s6"), NODE("extra"));
			break;
		case 1:
			del("s4");	/* its claimer "other" adopts s0 */
			cr_assert_str_eq(parent_of("s0"), "other");
			break;
		case 2:
			PUT("s6", 3, HN("s5"));
			break;
		case 3:
			PUT("s1", 1, NODE("node-9"), REGEX("node-[0-9]"));
			node("node-8", NULL);
			break;
		case 4:
			del("s6");
			del("s5");
			PUT("s5", 1, NODE("x"));
			break;
		case 5:
			PUT("s4", 2, HN("s1"));
			PUT("new", 1, HN("s0"));
			del("s0");
			break;
		}
		state(after, sizeof(after));
		cr_assert_str_neq(after, before, "step %d changed nothing", step);
		cr_assert_eq(vs_txn_abort(&txn), 0);
		check();
		state(after, sizeof(after));
		cr_assert_str_eq(after, before, "step %d", step);
	}
	/* and a commit keeps it, what it deleted freed */
	vs_txn_begin(&txn, &cl);
	del("s4");
	PUT("s6", 3, HN("s5"));
	vs_txn_commit(&txn);
	check();
	cr_assert_null(vs_hypernode_find(&cl, "s4"));
	leaves_are("s6", "node-4,node-5,node-6,node-7");
}

/*
 * Random HyperNodes over random nodes, changed and deleted, nodes added,
 * relabelled and deleted, some of it in transactions aborted or kept: the
 * check verifies the tree against its definitions after every step, and an
 * aborted transaction gives back the state it began on.
 */
Test(hypernode, random_changes_keep_the_tree_exact)
{
	static const char *racks[] = { "r0", "r1", "r2" };
	static const char *patterns[] = { "^n[0-3]$", "n[5-9]", "^m" };
	static char before[16384], after[16384];
	unsigned int seed = 34;
	struct vs_err err = { 0 };
	struct vs_txn txn;
	bool in_txn = false;

	for (int step = 0; step < 3000; step++) {
		char name[32];
		unsigned int r = rand_r(&seed);

		if (!in_txn && r % 40 == 0) {
			state(before, sizeof(before));
			vs_txn_begin(&txn, &cl);
			in_txn = true;
		} else if (in_txn && r % 40 == 1) {
			if (r % 3) {
				cr_assert_eq(vs_txn_abort(&txn), 0);
				check();
				state(after, sizeof(after));
				cr_assert_str_eq(after, before, "step %d:\n%s\n----\n%s", step, before, after);
			} else {
				vs_txn_commit(&txn);
			}
			in_txn = false;
		}
		r /= 40;
		if (r % 3 == 0) {	/* a node */
			struct vs_node *n;

			snprintf(name, sizeof(name), "%c%u", r & 8 ? 'm' : 'n', (r >> 4) % 10);
			n = vs_node_find(&cl, name);
			if (!n)
				node(name, racks[(r >> 8) % 3]);
			else if (r & 0x1000)
				relabel(n, racks[(r >> 8) % 3]);
			else
				cr_assert_eq(vs_node_del(&cl, n, &err), 0, "%s", err.msg);
			check();
			continue;
		}
		snprintf(name, sizeof(name), "h%u", (r >> 2) % 12);
		if (r % 3 == 1 && vs_hypernode_find(&cl, name)) {
			del(name);
			continue;
		}
		struct vs_hn_member_spec m[4];
		struct vs_kv_spec kv[4];
		char kids[4][16];
		u32 nr = 1 + (r >> 6) % 4;

		for (u32 i = 0; i < nr; i++) {
			unsigned int q = rand_r(&seed);

			memset(&m[i], 0, sizeof(m[i]));
			switch (q % 4) {
			case 0:
				snprintf(kids[i], sizeof(kids[i]), "h%u", (q >> 2) % 12);
				m[i] = (struct vs_hn_member_spec)HN(kids[i]);
				break;
			case 1:
				snprintf(kids[i], sizeof(kids[i]), "n%u", (q >> 2) % 12);
				m[i] = (struct vs_hn_member_spec)NODE(kids[i]);
				break;
			case 2:
				m[i] = (struct vs_hn_member_spec)REGEX(patterns[(q >> 2) % 3]);
				break;
			case 3:
				kv[i] = (struct vs_kv_spec){ "rack", racks[(q >> 2) % 3] };
				m[i] = (struct vs_hn_member_spec){
					.type = VS_HN_MEMBER_NODE, .sel = VS_HN_LABEL,
					.labels = &kv[i], .nr_labels = 1,
				};
				break;
			}
		}
		cr_assert_eq(hn_put(name, (r >> 9) % 4, m, nr, &err), 0, "%s", err.msg);
		check();
	}
	if (in_txn)
		vs_txn_commit(&txn);
}

/*
 * An added HyperNode moves only the links of its own claims: the tree it
 * gives is the one a full resolution gives, which a no-op update of the
 * newest runs. Random claims of older, newer, missing and self names,
 * cycles among them, over deletes that make the names new again.
 */
Test(hypernode, adding_gives_the_tree_a_full_resolution_gives)
{
	static char added[16384], resolved[16384];
	struct vs_hn_member_spec m[40][4];
	char kids[40][4][16];
	u32 nr[40];
	unsigned int seed = 3434;
	struct vs_err err = { 0 };

	node("n0", NULL);
	for (int step = 0; step < 2000; step++) {
		unsigned int r = rand_r(&seed);
		u32 h = r % 40;
		char name[16];

		snprintf(name, sizeof(name), "h%u", h);
		if (vs_hypernode_find(&cl, name)) {
			if (r & 0x100)
				del(name);
			continue;
		}
		nr[h] = 1 + (r >> 8) % 4;
		for (u32 i = 0; i < nr[h]; i++) {
			snprintf(kids[h][i], sizeof(kids[h][i]), "h%u", rand_r(&seed) % 40);
			m[h][i] = (struct vs_hn_member_spec)HN(kids[h][i]);
		}
		if (r & 0x10000)
			m[h][0] = (struct vs_hn_member_spec)NODE("n0");
		cr_assert_eq(hn_put(name, 1, m[h], nr[h], &err), 0, "%s", err.msg);
		check();
		state(added, sizeof(added));
		cr_assert_eq(hn_put(name, 1, m[h], nr[h], &err), 0, "%s", err.msg); /* resolves all */
		state(resolved, sizeof(resolved));
		cr_assert_str_eq(added, resolved, "step %d, adding %s", step, name);
	}
}

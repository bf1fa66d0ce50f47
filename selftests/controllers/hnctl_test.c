// SPDX-License-Identifier: Apache-2.0
/*
 * Label discovery: the cases of Volcano's discovery/label/label_test.go
 * (names, tiers, tier names, members and labels of what the nodes' labels
 * make), then what follows nodes relabelled and deleted, explicit
 * HyperNodes beside discovered ones (never touched, their names passed
 * over), a name kept once given, and the configuration's refusals.
 */
#include "ctltest.h"
#include "controllers/hnctl.h"

static struct vs_hnctl_conf conf;

static void type_add(const char *name, const char *top, const char *bottom)
{
	const char *keys[3] = { top, bottom, VS_HNCTL_HOSTNAME_KEY };
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_hnctl_conf_add(&conf, name, keys, 3, &e), 0, "%s", e.msg);
}

/* Volcano's getCfg(): three types of two tiers each. */
static void volcano_conf(void)
{
	vs_hnctl_conf_free(&conf);
	type_add("topologyA2", "volcano.sh/torA2-2", "volcano.sh_torA2-1");
	type_add("topologyA3", "volcano.sh/torA3-2", "volcano.sh/torA3-1");
	type_add("topologyA5", "volcano.sh/torA5-2", "volcano.sh/torA5-1");
}

/* A node with the labels "k=v,k2=v2" (NULL: none). */
static struct vs_node *labelled_node(const char *name, const char *labels)
{
	struct vs_kv_spec kv[4];
	char buf[256], *save = NULL, *tok;
	struct vs_node_spec spec;
	struct vs_node *n = vs_node_find(&cl, name);
	struct vs_err e = { { 0 } };
	u32 nr = 0;

	snprintf(buf, sizeof(buf), "%s", labels ? labels : "");
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		*eq = '\0';
		kv[nr++] = (struct vs_kv_spec){ tok, eq + 1 };
	}
	vs_node_spec_init(&spec, name);
	spec.allocatable = ct_res(8000, 16 * GI);
	spec.labels = kv;
	spec.nr_labels = nr;
	if (n)
		cr_assert_eq(vs_node_update(&cl, n, &spec, &e), 0, "%s", e.msg);
	else
		cr_assert_eq(vs_node_add(&cl, &spec, &n, &e), 0, "%s", e.msg);
	return n;
}

static void sync_ok(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_hnctl_sync(&ctl, &conf, &e), 0, "%s", e.msg);
	ct_check();
}

/* The discovered HyperNode labelled @key=@value, checked to be one and ours. */
static struct vs_hypernode *by_label(const char *key, const char *value)
{
	struct vs_hypernode *hn, *found = NULL;
	const char *ik = vs_str_find(&cl.strs, key, strlen(key));

	list_for_each_entry(hn, &cl.hypernodes.list, list) {
		const char *v = ik ? vs_labels_get(hn->labels, ik) : NULL;

		if (v && !strcmp(v, value)) {
			cr_assert_null(found, "two HyperNodes labelled %s=%s", key, value);
			found = hn;
		}
	}
	cr_assert_not_null(found, "no HyperNode labelled %s=%s", key, value);
	cr_assert(vs_hnctl_owns(found));
	return found;
}

/* @hn's members are exactly the names in @want, of the type its tier says. */
static void members_are(const struct vs_hypernode *hn, const char *const *want, u32 nr)
{
	cr_assert_eq(hn->nr_members, nr, "%s has %u members, not %u", hn->name,
		     hn->nr_members, nr);
	for (u32 i = 0; i < nr; i++) {
		cr_assert_eq(hn->members[i].sel, VS_HN_EXACT);
		cr_assert_eq(hn->members[i].type,
			     hn->tier == 1 ? VS_HN_MEMBER_NODE : VS_HN_MEMBER_HYPERNODE);
		cr_assert_str_eq(hn->members[i].name, want[i]);
	}
}

static void name_has_prefix(const struct vs_hypernode *hn, const char *prefix)
{
	size_t n = strlen(prefix);

	cr_assert_eq(strncmp(hn->name, prefix, n), 0, "%s does not begin %s", hn->name, prefix);
	cr_assert_eq(strlen(hn->name), n + 6, "%s: not PREFIX-XXXXX", hn->name);
	cr_assert_eq(hn->name[n], '-');
}

static void teardown(void)
{
	vs_hnctl_conf_free(&conf);
	ct_teardown();
}

TestSuite(hnctl, .init = ct_setup, .fini = teardown);

/* test1: eight nodes, four tier-1 switches under two tier-2 ones. */
Test(hnctl, test1_four_tors_under_two_spines)
{
	struct vs_hypernode *s[4], *top[2];
	const char *kids[2];

	volcano_conf();
	for (int i = 0; i < 8; i++) {
		char name[16], labels[96];

		snprintf(name, sizeof(name), "node%d", i);
		snprintf(labels, sizeof(labels), "volcano.sh_torA2-1=s%d,volcano.sh/torA2-2=s%d",
			 i / 2, 4 + i / 4);
		labelled_node(name, labels);
	}
	sync_ok();
	cr_assert_eq(cl.hypernodes.nr, 6);
	for (int i = 0; i < 4; i++) {
		char v[16], a[16], b[16];
		const char *want[2] = { a, b };

		snprintf(v, sizeof(v), "s%d", i);
		snprintf(a, sizeof(a), "node%d", 2 * i);
		snprintf(b, sizeof(b), "node%d", 2 * i + 1);
		s[i] = by_label("volcano.sh_torA2-1", v);
		name_has_prefix(s[i], "hypernode-topologya2-tier1");
		cr_assert_eq(s[i]->tier, 1);
		cr_assert_str_eq(s[i]->tier_name, "volcano.sh_torA2-1");
		cr_assert_eq(vs_labels_count(s[i]->labels), 2, "the source and KEY=VALUE");
		members_are(s[i], want, 2);
		cr_assert_eq(s[i]->nr_leaves, 2);
	}
	top[0] = by_label("volcano.sh/torA2-2", "s4");
	top[1] = by_label("volcano.sh/torA2-2", "s5");
	for (int t = 0; t < 2; t++) {
		name_has_prefix(top[t], "hypernode-topologya2-tier2");
		cr_assert_eq(top[t]->tier, 2);
		cr_assert_str_eq(top[t]->tier_name, "volcano.sh/torA2-2");
		kids[0] = strcmp(s[2 * t]->name, s[2 * t + 1]->name) < 0 ? s[2 * t]->name :
									      s[2 * t + 1]->name;
		kids[1] = kids[0] == s[2 * t]->name ? s[2 * t + 1]->name : s[2 * t]->name;
		members_are(top[t], kids, 2);
		cr_assert_eq(top[t]->nr_leaves, 4);
		cr_assert_eq(s[2 * t]->parent, top[t]);
		cr_assert_eq(s[2 * t + 1]->parent, top[t]);
	}
	cr_assert(vs_hypernodes_ready(&cl));
}

/* test2: some nodes have tier 1's label and not tier 2's. */
Test(hnctl, test2_nodes_without_the_upper_tier_label)
{
	struct vs_hypernode *s0, *s1, *top;

	volcano_conf();
	labelled_node("node0", "volcano.sh_torA2-1=s0");
	labelled_node("node1", "volcano.sh_torA2-1=s0,volcano.sh/torA2-2=s2");
	labelled_node("node2", "volcano.sh_torA2-1=s1");
	labelled_node("node3", "volcano.sh_torA2-1=s1");
	sync_ok();
	cr_assert_eq(cl.hypernodes.nr, 3);
	s0 = by_label("volcano.sh_torA2-1", "s0");
	s1 = by_label("volcano.sh_torA2-1", "s1");
	top = by_label("volcano.sh/torA2-2", "s2");
	members_are(s0, (const char *[]){ "node0", "node1" }, 2);
	members_are(s1, (const char *[]){ "node2", "node3" }, 2);
	members_are(top, (const char *[]){ s0->name }, 1);
	cr_assert_eq(top->nr_leaves, 2, "node0 is under s2 through its tier-1 HyperNode");
	cr_assert_null(s1->parent);
}

/* test3: nodes with tier 2's label and not tier 1's are in nothing. */
Test(hnctl, test3_nodes_without_the_lower_tier_label)
{
	struct vs_hypernode *s0;

	volcano_conf();
	labelled_node("node0", "volcano.sh/torA2-2=s2");
	labelled_node("node1", "volcano.sh_torA2-1=s0");
	labelled_node("node2", "volcano.sh/torA2-2=s2");
	labelled_node("node3", "volcano.sh/torA2-2=s2");
	sync_ok();
	cr_assert_eq(cl.hypernodes.nr, 1);
	s0 = by_label("volcano.sh_torA2-1", "s0");
	members_are(s0, (const char *[]){ "node1" }, 1);
}

static struct vs_hypernode *explicit_hn(const char *name, s32 tier, const char *member,
					const struct vs_kv_spec *labels, u32 nr_labels)
{
	struct vs_hn_member_spec m = { VS_HN_MEMBER_NODE, VS_HN_EXACT, member, NULL, 0 };
	struct vs_hypernode_spec spec = {
		.name = name, .tier = tier, .members = &m, .nr_members = 1,
		.labels = labels, .nr_labels = nr_labels,
	};
	struct vs_hypernode *hn;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_hypernode_add(&cl, &spec, &hn, &e), 0, "%s", e.msg);
	return hn;
}

/*
 * test4 and test5: a discovered HyperNode of topologyA2's prefix labelled
 * volcano.sh/torA3-1=s0 is not topologyA3's to reuse: A3's gets a name of
 * its own, and the old one, which discovery no longer makes, goes.
 */
Test(hnctl, test4_an_old_name_of_another_type_is_not_reused)
{
	static const struct vs_kv_spec old_labels[] = {
		{ VS_HNCTL_SOURCE_KEY, VS_HNCTL_SOURCE_LABEL }, { "volcano.sh/torA3-1", "s0" },
	};
	struct vs_hypernode *hn;

	volcano_conf();
	labelled_node("node0", "volcano.sh/torA3-1=s0");
	explicit_hn("hypernode-topologya2-tier1-mnsx6", 1, "node0", old_labels, 2);
	sync_ok();
	cr_assert_eq(cl.hypernodes.nr, 1);
	cr_assert_null(vs_hypernode_find(&cl, "hypernode-topologya2-tier1-mnsx6"));
	hn = by_label("volcano.sh/torA3-1", "s0");
	name_has_prefix(hn, "hypernode-topologya3-tier1");
	cr_assert_str_eq(hn->tier_name, "volcano.sh/torA3-1");
	members_are(hn, (const char *[]){ "node0" }, 1);
}

/* ---- following the nodes ---- */

static void two_tier_conf(void)
{
	vs_hnctl_conf_free(&conf);
	type_add("rack", "example.com/spine", "example.com/tor");
}

Test(hnctl, relabelled_and_deleted_nodes_move_and_empty_hypernodes_go)
{
	struct vs_hypernode *t0, *t1, *sp;
	char t0name[64], t1name[64];
	struct vs_err e = { { 0 } };

	two_tier_conf();
	labelled_node("n0", "example.com/tor=t0,example.com/spine=sp0");
	labelled_node("n1", "example.com/tor=t0,example.com/spine=sp0");
	labelled_node("n2", "example.com/tor=t1,example.com/spine=sp0");
	sync_ok();
	t0 = by_label("example.com/tor", "t0");
	t1 = by_label("example.com/tor", "t1");
	snprintf(t0name, sizeof(t0name), "%s", t0->name);
	snprintf(t1name, sizeof(t1name), "%s", t1->name);

	/* n1 moves to t1: both tier-1 HyperNodes change, names kept */
	labelled_node("n1", "example.com/tor=t1,example.com/spine=sp0");
	sync_ok();
	members_are(by_label("example.com/tor", "t0"), (const char *[]){ "n0" }, 1);
	members_are(by_label("example.com/tor", "t1"), (const char *[]){ "n1", "n2" }, 2);
	cr_assert_str_eq(by_label("example.com/tor", "t0")->name, t0name);
	cr_assert_str_eq(by_label("example.com/tor", "t1")->name, t1name);

	/* n0 loses its tor: t0 is empty and goes, and leaves sp0 */
	labelled_node("n0", "example.com/spine=sp0");
	sync_ok();
	cr_assert_null(vs_hypernode_find(&cl, t0name));
	sp = by_label("example.com/spine", "sp0");
	members_are(sp, (const char *[]){ t1name }, 1);
	cr_assert_eq(sp->nr_leaves, 2);

	/* the last nodes go: nothing is left */
	cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "n1"), &e), 0, "%s", e.msg);
	sync_ok();
	members_are(by_label("example.com/tor", "t1"), (const char *[]){ "n2" }, 1);
	cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "n2"), &e), 0, "%s", e.msg);
	sync_ok();
	cr_assert_eq(cl.hypernodes.nr, 0);
}

Test(hnctl, a_sync_with_nothing_new_changes_nothing)
{
	struct vs_hypernode *t0;
	u64 events;
	u32 nr;

	two_tier_conf();
	labelled_node("n0", "example.com/tor=t0,example.com/spine=sp0");
	sync_ok();
	t0 = by_label("example.com/tor", "t0");
	events = cl.hypernodes.events;
	nr = cl.hypernodes.nr;
	sync_ok();
	cr_assert_eq(by_label("example.com/tor", "t0"), t0);
	cr_assert_eq(cl.hypernodes.events, events, "nothing deleted");
	cr_assert_eq(cl.hypernodes.nr, nr);
	cr_assert_eq(vs_hypernode_find(&cl, t0->name), t0);
}

/* The name discovery would give t0 on its first attempt: what a sync with nothing in the way gives. */
static void first_name(char *out, size_t len)
{
	labelled_node("probe", "example.com/tor=t0");
	sync_ok();
	snprintf(out, len, "%s", by_label("example.com/tor", "t0")->name);
}

/*
 * An explicit HyperNode holding the name discovery would choose is left
 * alone (Volcano's buildHyperNodeName passes a name in use over, and its
 * reconcile only touches what carries the source label); the discovered one
 * takes the next attempt's name, and keeps it once the explicit one goes.
 */
Test(hnctl, an_explicit_hypernode_is_never_touched_and_its_name_is_passed_over)
{
	struct vs_hypernode *ex, *t0;
	char want[64], second[64];
	struct vs_err e = { { 0 } };

	two_tier_conf();
	first_name(want, sizeof(want));
	cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "probe"), &e), 0, "%s", e.msg);
	sync_ok();
	cr_assert_eq(cl.hypernodes.nr, 0);

	labelled_node("n9", NULL);
	ex = explicit_hn(want, 1, "n9", NULL, 0);
	labelled_node("n0", "example.com/tor=t0");
	sync_ok();
	cr_assert_eq(cl.hypernodes.nr, 2);
	cr_assert_eq(vs_hypernode_find(&cl, want), ex);
	cr_assert_not(vs_hnctl_owns(ex));
	members_are(ex, (const char *[]){ "n9" }, 1);
	t0 = by_label("example.com/tor", "t0");
	cr_assert_str_neq(t0->name, want);
	name_has_prefix(t0, "hypernode-rack-tier1");
	snprintf(second, sizeof(second), "%s", t0->name);

	vs_hypernode_del(&cl, ex);
	sync_ok();
	cr_assert_str_eq(by_label("example.com/tor", "t0")->name, second,
			 "a discovered HyperNode keeps its name");
}

/* A user deletes a discovered HyperNode: the next sync makes it again (Volcano's DeleteHyperNode handler). */
Test(hnctl, a_deleted_discovered_hypernode_comes_back)
{
	char name[64];

	two_tier_conf();
	labelled_node("n0", "example.com/tor=t0");
	sync_ok();
	snprintf(name, sizeof(name), "%s", by_label("example.com/tor", "t0")->name);
	vs_hypernode_del(&cl, vs_hypernode_find(&cl, name));
	sync_ok();
	cr_assert_str_eq(by_label("example.com/tor", "t0")->name, name);
}

/* Explicit HyperNodes above discovered ones: the tree is one. */
Test(hnctl, an_explicit_hypernode_may_hold_discovered_ones)
{
	struct vs_hn_member_spec m = { VS_HN_MEMBER_HYPERNODE, VS_HN_EXACT, NULL, NULL, 0 };
	struct vs_hypernode_spec spec = { .name = "pod-a", .tier = 3, .members = &m,
					  .nr_members = 1 };
	struct vs_hypernode *sp, *pod;
	struct vs_err e = { { 0 } };

	two_tier_conf();
	labelled_node("n0", "example.com/tor=t0,example.com/spine=sp0");
	sync_ok();
	sp = by_label("example.com/spine", "sp0");
	m.name = sp->name;
	cr_assert_eq(vs_hypernode_add(&cl, &spec, &pod, &e), 0, "%s", e.msg);
	labelled_node("n1", "example.com/tor=t0,example.com/spine=sp0");
	sync_ok();
	cr_assert_eq(sp->parent, pod);
	cr_assert_eq(pod->nr_leaves, 2);
	cr_assert_null(pod->labels);
}

/* ---- the configuration ---- */

static void refused(const char *name, const char *const *keys, u32 nr, const char *why)
{
	struct vs_err e = { { 0 } };
	u32 before = conf.nr_types;

	cr_assert_eq(vs_hnctl_conf_add(&conf, name, keys, nr, &e), -EINVAL, "%s accepted", name);
	cr_assert(strstr(e.msg, why), "\"%s\" does not say \"%s\"", e.msg, why);
	cr_assert_eq(conf.nr_types, before, "a refused type is not kept");
}

Test(hnctl, bad_types_are_refused_with_why)
{
	static const char *const ok[] = { "a/b", VS_HNCTL_HOSTNAME_KEY };
	static const char *const alone[] = { VS_HNCTL_HOSTNAME_KEY };
	static const char *const no_host[] = { "a/b", "c/d" };
	static const char *const twice[] = { "a/b", "a/b", VS_HNCTL_HOSTNAME_KEY };
	static const char *const bad_key[] = { "a b", VS_HNCTL_HOSTNAME_KEY };

	vs_hnctl_conf_free(&conf);
	refused("", ok, 2, "without a name");
	refused("abcdefghijklmnopqrstu", ok, 2, "21 bytes (at most 20)");
	refused(".", ok, 2, "makes names such as hypernode-.-tier2");
	refused("t", alone, 1, "at least one node label above kubernetes.io/hostname");
	refused("t", no_host, 2, "the last nodeLabel is \"c/d\"");
	refused("t", twice, 3, "nodeLabel \"a/b\" twice");
	refused("t", bad_key, 2, "nodeLabel 0");
	type_add("zeta", "a/b", "c/d");
	type_add("Alpha", "a/b", "c/d");
	cr_assert_str_eq(conf.types[0].name, "Alpha", "types are kept by name");
	cr_assert_str_eq(conf.types[0].keys[0], "c/d", "tier 1's key first");
	cr_assert_str_eq(conf.types[0].keys[1], "a/b");
	refused("zeta", ok, 2, "\"zeta\" twice");
	cr_assert_eq(conf.nr_types, 2);
}

/* A type name is cleaned into the names as Volcano's cleanString does. */
Test(hnctl, a_type_name_is_lowercased_and_cleaned)
{
	vs_hnctl_conf_free(&conf);
	type_add("My_Topo.A", "example.com/spine", "example.com/tor");
	labelled_node("n0", "example.com/tor=t0");
	sync_ok();
	name_has_prefix(by_label("example.com/tor", "t0"), "hypernode-my-topo.a-tier1");
}

/*
 * What makes discovery look again: a node added, deleted or given other
 * labels, and a HyperNode deleted; not a change of a node's resources,
 * which vskube sends far more often.
 */
Test(hnctl, only_a_change_of_shape_calls_for_discovery)
{
	struct vs_node *n = labelled_node("n0", "example.com/tor=t0");
	struct vs_node_spec spec;
	struct vs_err e = { { 0 } };
	u64 events = cl.hypernodes.events;

	vs_node_spec_init(&spec, "n0");
	spec.allocatable = ct_res(2000, GI);
	spec.labels = (const struct vs_kv_spec[]){ { "example.com/tor", "t0" } };
	spec.nr_labels = 1;
	cr_assert_eq(vs_node_update(&cl, n, &spec, &e), 0, "%s", e.msg);
	cr_assert_eq(cl.hypernodes.events, events, "resources alone");
	labelled_node("n0", "example.com/tor=t1");
	cr_assert_eq(cl.hypernodes.events, events + 1, "a label changed");
	labelled_node("n1", NULL);
	cr_assert_eq(cl.hypernodes.events, events + 2, "a node added");
	cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "n1"), &e), 0, "%s", e.msg);
	cr_assert_eq(cl.hypernodes.events, events + 3, "a node deleted");
	vs_hypernode_del(&cl, explicit_hn("x", 1, "n0", NULL, 0));
	cr_assert_eq(cl.hypernodes.events, events + 4, "a HyperNode deleted");
}

// SPDX-License-Identifier: Apache-2.0
/*
 * allocate with network topologies and the network-topology-aware plugin:
 * cases of Volcano's TestAllocateWithNetWorkTopologies
 * (pkg/scheduler/actions/allocate/allocate_test.go) on its cluster of two
 * leaf HyperNodes s0 {s0-n1, s0-n2} and s1 {s1-n3, s1-n4} under s2, each
 * node holding one task of 2 cpu and 4G, and the session's view of the
 * tree (sched/topology.h).
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "schedtest.h"
#include "core/hypernode.h"
#include "sched/statement.h"
#include "sched/topology.h"

#define GI	(1024LL * 1024 * 1024)
#define G	(1000LL * 1000 * 1000)

static struct vs_cluster cl;
static struct vs_sched sched;

static char binds[16][64];
static int nr_binds;

static void sink_bind(void *ctx, struct vs_task *t, struct vs_node *n)
{
	snprintf(binds[nr_binds++], sizeof(binds[0]), "%s=%s", t->name, n->name);
}

/* Volcano's test configuration: gang, predicates, network-topology-aware. */
static const char conf_text[] =
	"actions: allocate\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: gang\n"
	"  - name: predicates\n"
	"  - name: network-topology-aware\n";

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
	nr_binds = 0;
}

static void teardown(void)
{
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(topology, .init = setup, .fini = teardown);

static void start(void)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(conf_text, strlen(conf_text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	sched.sink = (struct vs_decision_sink){ .bind = sink_bind };
}

static void hypernode(const char *name, s32 tier, const char *tier_name,
		      enum vs_hn_member_type type, const char *a, const char *b)
{
	struct vs_hn_member_spec m[2] = {
		{ .type = type, .sel = VS_HN_EXACT, .name = a },
		{ .type = type, .sel = VS_HN_EXACT, .name = b },
	};
	struct vs_hypernode_spec spec = {
		.name = name, .tier = tier, .tier_name = tier_name, .members = m, .nr_members = 2,
	};
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_hypernode_add(&cl, &spec, NULL, &e), 0, "%s", e.msg);
}

/* Four nodes of 2 cpu and 4Gi in s0 and s1 (tier 1), both under s2 (tier 2). */
static void two_leaves(void)
{
	static const char *const nodes[] = { "s0-n1", "s0-n2", "s1-n3", "s1-n4" };

	for (unsigned int i = 0; i < ARRAY_SIZE(nodes); i++)
		st_node(&cl, nodes[i], 2000, 4 * GI, 10);
	hypernode("s0", 1, "leaf", VS_HN_MEMBER_NODE, "s0-n1", "s0-n2");
	hypernode("s1", 1, "leaf", VS_HN_MEMBER_NODE, "s1-n3", "s1-n4");
	hypernode("s2", 2, "spine", VS_HN_MEMBER_HYPERNODE, "s0", "s1");
	st_queue(&cl, "q1");
}

/* PodGroup c1/pg1 of @min, Inqueue, with networkTopology @mode and @tier (or @tier_name). */
static struct vs_job *pg(u32 min, enum vs_nt_mode mode, s32 tier, const char *tier_name)
{
	struct vs_job_spec spec;
	struct vs_job *job;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&spec, "c1", "pg1");
	spec.queue = "q1";
	spec.min_member = min;
	spec.phase = VS_PG_INQUEUE;
	spec.net_topology.set = true;
	spec.net_topology.mode = mode;
	spec.net_topology.has_highest_tier = !tier_name;
	spec.net_topology.highest_tier = tier;
	spec.net_topology.highest_tier_name = tier_name;
	cr_assert_eq(vs_job_add(&cl, &spec, &job, &e), 0, "%s", e.msg);
	return job;
}

/* Pod c1/@name of pg1 with role @role, 2 cpu and 4G, Pending or Running on @on. */
static void pod(const char *name, const char *role, const char *on)
{
	struct vs_task_spec spec;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, "c1", name, "pg1");
	spec.req = st_res(2000, 4 * G);
	spec.role = role;
	spec.status = on ? VS_TASK_RUNNING : VS_TASK_PENDING;
	spec.node = on;
	cr_assert_eq(vs_task_add(&cl, &spec, NULL, &e), 0, "%s", e.msg);
}

static void cycle(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
}

/* Whether every bind went to a node whose name starts with @prefix. */
static bool all_on(const char *prefix)
{
	for (int i = 0; i < nr_binds; i++)
		if (!strstr(binds[i], prefix))
			return false;
	return true;
}

Test(topology, hard_within_tier_1_cannot_take_three_nodes)
{
	two_leaves();
	pg(3, VS_NT_HARD, 1, NULL);
	pod("p1", "master", NULL);
	pod("p2", "worker", NULL);
	pod("p3", "worker", NULL);
	start();
	cycle();
	cr_expect_eq(nr_binds, 0, "a gang of 3 crossed tier 1: %d binds (%s)", nr_binds, binds[0]);
}

Test(topology, hard_within_tier_2_spreads_over_the_spine)
{
	two_leaves();
	pg(3, VS_NT_HARD, 2, NULL);
	pod("p1", "master", NULL);
	pod("p2", "worker", NULL);
	pod("p3", "worker", NULL);
	start();
	cycle();
	cr_expect_eq(nr_binds, 3);
}

Test(topology, hard_within_tier_1_keeps_the_gang_under_one_leaf)
{
	struct vs_job *job;

	two_leaves();
	job = pg(2, VS_NT_HARD, 1, NULL);
	pod("p1", "master", NULL);
	pod("p2", "worker", NULL);
	start();
	cycle();
	cr_assert_eq(nr_binds, 2);
	/* Volcano picks s0 or s1 at random; vsched the first of the best. */
	cr_expect(all_on("=s0-"), "%s %s", binds[0], binds[1]);
	cr_assert_not_null(job->allocated_hn);
	cr_expect_str_eq(job->allocated_hn, "s0");
}

Test(topology, hard_with_min_below_replicas_places_every_task)
{
	two_leaves();
	pg(1, VS_NT_HARD, 1, NULL);
	pod("p1", "master", NULL);
	pod("p2", "worker", NULL);
	start();
	cycle();
	cr_expect_eq(nr_binds, 2);
}

Test(topology, a_rescheduled_task_joins_its_job_within_the_tier_allowed)
{
	struct vs_job *job;

	two_leaves();
	job = pg(2, VS_NT_HARD, 2, NULL);
	pod("p1", "master", "s0-n1");
	pod("p2", "worker", "s0-n2");
	pod("p3", "worker", NULL);
	start();
	cycle();
	cr_assert_eq(nr_binds, 1);
	cr_expect(all_on("=s1-"), "%s", binds[0]);
	/* recovered from its running tasks (s0), widened to s2 by the new one */
	cr_expect_str_eq(job->allocated_hn, "s2");
}

Test(topology, a_rescheduled_task_stays_out_when_its_leaf_is_full)
{
	two_leaves();
	pg(2, VS_NT_HARD, 1, NULL);
	pod("p1", "master", "s0-n1");
	pod("p2", "worker", "s0-n2");
	pod("p3", "worker", NULL);
	start();
	cycle();
	cr_expect_eq(nr_binds, 0, "p3 left s0 within tier 1: %s", binds[0]);
}

Test(topology, soft_mode_takes_the_whole_cluster)
{
	two_leaves();
	pg(3, VS_NT_SOFT, 1, NULL);
	pod("p1", "master", NULL);
	pod("p2", "worker", NULL);
	pod("p3", "worker", NULL);
	start();
	cycle();
	cr_expect_eq(nr_binds, 3);
}

Test(topology, a_tier_name_is_the_tier_of_the_hypernodes_that_bear_it)
{
	two_leaves();
	pg(3, VS_NT_HARD, 0, "leaf");
	pod("p1", "master", NULL);
	pod("p2", "worker", NULL);
	pod("p3", "worker", NULL);
	start();
	cycle();
	cr_expect_eq(nr_binds, 0, "tier name leaf is tier 1: no leaf holds 3");
}

Test(topology, a_job_waits_while_the_hypernodes_are_not_ready)
{
	struct vs_hn_member_spec m = { .type = VS_HN_MEMBER_HYPERNODE, .sel = VS_HN_EXACT,
				       .name = "s0" };
	struct vs_hypernode_spec spec = { .name = "s3", .tier = 2, .members = &m,
					  .nr_members = 1 };

	two_leaves();
	/* a second claim on s0: Volcano's cache is not ready */
	cr_assert_eq(vs_hypernode_add(&cl, &spec, NULL, NULL), 0);
	cr_assert(!vs_hypernodes_ready(&cl));
	pg(1, VS_NT_HARD, 2, NULL);
	pod("p1", "master", NULL);
	start();
	cycle();
	cr_expect_eq(nr_binds, 0);
}

Test(topology, the_view_has_the_top_above_every_root)
{
	struct vs_session *ssn;
	struct vs_topo *topo;
	struct vs_err e = { { 0 } };
	u32 s0, s1, s2;

	two_leaves();
	start();
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	topo = vs_topo_get(ssn);
	cr_assert_not_null(topo);
	cr_assert_eq(topo->nr, 4);
	s0 = vs_topo_find(topo, &cl, "s0");
	s1 = vs_topo_find(topo, &cl, "s1");
	s2 = vs_topo_find(topo, &cl, "s2");
	cr_expect_eq(vs_topo_lca(topo, s0, s1), s2);
	cr_expect_eq(vs_topo_lca(topo, s0, VS_TOPO_NONE), s0);
	cr_expect_eq(topo->hns[s2].parent, topo->top);
	cr_expect_eq(topo->hns[topo->top].tier, 3, "one above the highest");
	cr_expect_eq(topo->hns[topo->top].nr_nodes, 4);
	cr_expect_eq(topo->hns[s1].nr_nodes, 2);
	cr_expect_eq(topo->nr_tiers, 3);
	cr_expect_eq(topo->low[vs_node_find(&cl, "s1-n4")->sidx], s1);
	cr_expect_eq(vs_topo_tier_of_name(topo, "spine"), 2);
	cr_expect_eq(vs_topo_tier_of_name(topo, "rack"), -1);
	vs_session_close(ssn);
}

Test(topology, a_session_without_pending_tasks_makes_its_view_when_asked)
{
	struct vs_session *ssn;
	struct vs_hn_gradients g;
	struct vs_hn_search s;
	struct vs_res min;
	struct vs_err e = { { 0 } };
	struct vs_job *job;

	two_leaves();
	job = pg(2, VS_NT_HARD, 1, NULL);
	pod("p0", "", "s1-n3");
	pod("p1", "", "s1-n4");
	start();
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	cr_assert_null(ssn->topo, "a quiet session makes no view");
	vs_res_clear(&min);
	vs_res_set(&min, VS_RES_CPU, 4000);
	s = (struct vs_hn_search) {
		.job = job, .hard = true, .highest_tier = 1, .allocated = VS_TOPO_NONE,
		.min_res = &min, .purpose = VS_HN_ALLOCATE,
	};
	/* asked anyway (the root is the view's), the plugin takes the view up then */
	s.root = vs_topo_get(ssn)->top;
	cr_assert_eq(vs_ssn_hn_gradient(ssn, &s, &g), 0);
	cr_assert_eq(g.nr, 1);
	cr_assert_eq(g.start[1], 1, "s1 is full: s0 alone holds 4 cpu");
	cr_assert_str_eq(ssn->topo->hns[g.hns[0]].name, "s0");
	vs_session_close(ssn);
}

Test(topology, the_gang_goes_to_the_leaf_that_holds_it_whole)
{
	struct vs_job_spec spec;

	two_leaves();
	vs_job_spec_init(&spec, "c1", "other");
	spec.queue = "q1";
	spec.min_member = 1;
	spec.phase = VS_PG_RUNNING;
	cr_assert_eq(vs_job_add(&cl, &spec, NULL, NULL), 0);
	st_task_on(&cl, "c1", "busy", "other", 2000, 4 * G, VS_TASK_RUNNING,
		   vs_node_find(&cl, "s0-n1"));
	pg(2, VS_NT_HARD, 1, NULL);
	pod("p1", "master", NULL);
	pod("p2", "worker", NULL);
	start();
	cycle();
	/* without the topology: s0-n2 and s1-n3 */
	cr_assert_eq(nr_binds, 2);
	cr_expect(all_on("=s1-"), "%s %s", binds[0], binds[1]);
}

/* Volcano's TestNodeLevelScoreWithNetWorkTopologies: binpack within the best HyperNode. */
Test(topology, the_fuller_hypernode_wins_and_binpack_chooses_within_it)
{
	static const char cfg[] =
		"actions: allocate\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: gang\n"
		"  - name: predicates\n"
		"  - name: binpack\n"
		"  - name: network-topology-aware\n";
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_task_spec ts;
	struct vs_err e = { { 0 } };

	st_node(&cl, "s0-n1", 4000, 8 * GI, 10);
	st_node(&cl, "s0-n2", 8000, 16 * GI, 10);
	st_node(&cl, "s1-n3", 4000, 8 * GI, 10);
	st_node(&cl, "s1-n4", 8000, 16 * GI, 10);
	hypernode("s0", 1, NULL, VS_HN_MEMBER_NODE, "s0-n1", "s0-n2");
	hypernode("s1", 1, NULL, VS_HN_MEMBER_NODE, "s1-n3", "s1-n4");
	hypernode("s2", 2, NULL, VS_HN_MEMBER_HYPERNODE, "s0", "s1");
	st_queue(&cl, "q1");
	st_job(&cl, "c1", "pg2", "q1", 2, VS_PG_RUNNING);
	st_task_on(&cl, "c1", "p3", "pg2", 2000, 4 * GI, VS_TASK_RUNNING,
		   vs_node_find(&cl, "s0-n1"));
	st_task_on(&cl, "c1", "p4", "pg2", 4000, 8 * GI, VS_TASK_RUNNING,
		   vs_node_find(&cl, "s0-n2"));
	pg(2, VS_NT_HARD, 1, NULL);
	vs_task_spec_init(&ts, "c1", "p1", "pg1");
	ts.req = st_res(2000, 4 * GI);
	ts.role = "master";
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, &e), 0, "%s", e.msg);
	vs_task_spec_init(&ts, "c1", "p2", "pg1");
	ts.req = st_res(4000, 8 * GI);
	ts.role = "worker";
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, &e), 0, "%s", e.msg);

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(cfg, strlen(cfg), "t.conf", &names, VS_CONF_FLAGS_DEFAULT_ON,
				   &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	sched.sink = (struct vs_decision_sink){ .bind = sink_bind };
	cycle();
	cr_assert_eq(nr_binds, 2);
	cr_expect_str_eq(binds[0], "p1=s0-n1");
	cr_expect_str_eq(binds[1], "p2=s0-n2");
}

/*
 * Volcano's TestHyperNodeBinpackWithNetWorkTopologies: a gang of four on
 * three leaves of two nodes fills one leaf, then the nodes of the leaf
 * that already has one of its tasks score higher than the third's.
 */
Test(topology, tasks_follow_the_lowest_common_ancestor)
{
	static const char *const nodes[] = { "s0-n1", "s0-n2", "s1-n3", "s1-n4", "s2-n5", "s2-n6" };
	struct vs_hn_member_spec m[3] = {
		{ .type = VS_HN_MEMBER_HYPERNODE, .sel = VS_HN_EXACT, .name = "s0" },
		{ .type = VS_HN_MEMBER_HYPERNODE, .sel = VS_HN_EXACT, .name = "s1" },
		{ .type = VS_HN_MEMBER_HYPERNODE, .sel = VS_HN_EXACT, .name = "s2" },
	};
	struct vs_hypernode_spec s3 = { .name = "s3", .tier = 2, .members = m, .nr_members = 3 };
	int on[3] = { 0 };

	for (unsigned int i = 0; i < ARRAY_SIZE(nodes); i++)
		st_node(&cl, nodes[i], 4000, 8 * GI, 10);
	hypernode("s0", 1, NULL, VS_HN_MEMBER_NODE, "s0-n1", "s0-n2");
	hypernode("s1", 1, NULL, VS_HN_MEMBER_NODE, "s1-n3", "s1-n4");
	hypernode("s2", 1, NULL, VS_HN_MEMBER_NODE, "s2-n5", "s2-n6");
	cr_assert_eq(vs_hypernode_add(&cl, &s3, NULL, NULL), 0);
	st_queue(&cl, "q1");
	pg(4, VS_NT_HARD, 2, NULL);
	for (int i = 0; i < 4; i++) {
		struct vs_task_spec ts;
		char name[16];

		snprintf(name, sizeof(name), "p%d", i + 1);
		vs_task_spec_init(&ts, "c1", name, "pg1");
		ts.req = st_res(4000, 8 * GI);
		ts.role = i ? "worker" : "master";
		cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);
	}
	start();
	cycle();
	cr_assert_eq(nr_binds, 4);
	for (int i = 0; i < nr_binds; i++)
		on[strchr(binds[i], '=')[2] - '0']++;
	/* two leaves, two tasks each (Volcano: ExpectBindNumsInHyperNode {2, 2}) */
	cr_expect((on[0] == 2) + (on[1] == 2) + (on[2] == 2) == 2, "%d %d %d", on[0], on[1], on[2]);
}

/* The plugin's arguments are type-checked when the configuration is loaded, as binpack's. */
Test(topology, bad_arguments_are_refused_with_their_key)
{
	static const char *const bad[] = {
		"{weight: heavy}",
		"{hypernode.binpack.normal-pod.fading: fast}",
		"{hypernode.binpack.normal-pod.enable: maybe}",
		"{hypernode.binpack.resources: nvidia.com/gpu, hypernode.binpack.resources.nvidia.com/gpu: x}",
		"{hypernode.gradient.evict.max-hypernodes: [1]}",
	};
	struct vs_conf_names names;

	vs_registry_names(vs_test_registry(), &names);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		struct vs_conf *conf = NULL;
		struct vs_err e = { { 0 } };
		char text[512];

		snprintf(text, sizeof(text), "actions: allocate\ntiers:\n- plugins:\n"
			 "  - name: network-topology-aware\n    arguments: %s\n", bad[i]);
		cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
					   VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
		cr_expect_neq(vs_registry_check_conf(vs_test_registry(), conf, &e), 0, "%s", bad[i]);
		cr_expect(strstr(e.msg, "argument"), "%s: %s", bad[i], e.msg);
		vs_conf_free(conf);
	}
}

/* ---- the view kept from session to session ---- */

/* A node of 2 cpu and 4Gi with label rack=@rack (none: NULL). */
static struct vs_node *rack_node(const char *name, const char *rack)
{
	struct vs_kv_spec kv = { "rack", rack };
	struct vs_node_spec spec;
	struct vs_node *n;
	struct vs_err e = { { 0 } };

	vs_node_spec_init(&spec, name);
	spec.allocatable = st_res(2000, 4 * GI);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 10);
	if (rack) {
		spec.labels = &kv;
		spec.nr_labels = 1;
	}
	cr_assert_eq(vs_node_add(&cl, &spec, &n, &e), 0, "%s", e.msg);
	return n;
}

/* @n's labels become rack=@rack, and its cpu @mcpu (0: as it is). */
static void relabel(struct vs_node *n, const char *rack, s64 mcpu)
{
	struct vs_kv_spec kv = { "rack", rack };
	struct vs_node_spec spec;
	struct vs_err e = { { 0 } };

	vs_node_spec_init(&spec, n->name);
	spec.allocatable = n->allocatable;
	if (mcpu)
		vs_res_set(&spec.allocatable, VS_RES_CPU, mcpu);
	spec.labels = &kv;
	spec.nr_labels = 1;
	cr_assert_eq(vs_node_update(&cl, n, &spec, &e), 0, "%s", e.msg);
}

/* HyperNode @name of tier @tier with one Node member chosen by @sel (@what: a pattern, a rack). */
static void hypernode_by(const char *name, s32 tier, enum vs_hn_selector sel, const char *what)
{
	struct vs_kv_spec kv = { "rack", what };
	struct vs_hn_member_spec m = { .type = VS_HN_MEMBER_NODE, .sel = sel };
	struct vs_hypernode_spec spec = {
		.name = name, .tier = tier, .members = &m, .nr_members = 1,
	};
	struct vs_err e = { { 0 } };

	if (sel == VS_HN_LABEL) {
		m.labels = &kv;
		m.nr_labels = 1;
	} else {
		m.name = what;
	}
	cr_assert_eq(vs_hypernode_add(&cl, &spec, NULL, &e), 0, "%s", e.msg);
}

/* @s's view in a session of its own, closed again: the view outlives it. */
static struct vs_topo *view_of(struct vs_sched *s)
{
	struct vs_session *ssn;
	struct vs_topo *topo;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_session_open(s, &ssn, &e), 0, "%s", e.msg);
	topo = vs_topo_get(ssn);
	cr_assert_not_null(topo);
	cr_assert_eq(ssn->topo, topo);
	vs_session_close(ssn);
	return topo;
}

static void expect_res_eq(const struct vs_res *a, const struct vs_res *b, const char *what,
			  const char *hn)
{
	cr_expect(vs_res_equal(a, b), "%s of %s: kept %lld/%lld, fresh %lld/%lld", what, hn,
		  (long long)vs_res_get(a, VS_RES_CPU), (long long)vs_res_get(a, VS_RES_MEMORY),
		  (long long)vs_res_get(b, VS_RES_CPU), (long long)vs_res_get(b, VS_RES_MEMORY));
}

/*
 * Whether @kept, the view of the scheduler's last session, is what a
 * scheduler that never had one makes of the cluster now: structure,
 * sums and Ready() alike.
 */
static void expect_fresh(const struct vs_topo *kept)
{
	struct vs_conf_names names;
	struct vs_sched other;
	struct vs_conf *conf;
	struct vs_topo *t;
	struct vs_err e = { { 0 } };
	u32 nr_nodes = cl.nr_nodes;

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(conf_text, strlen(conf_text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&other, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	t = view_of(&other);
	cr_assert_neq(t, kept);
	cr_assert_eq(kept->nr, t->nr, "HyperNodes: kept %u, fresh %u", kept->nr, t->nr);
	cr_expect_eq(kept->top, t->top);
	cr_expect_eq(kept->ready, t->ready);
	cr_assert_eq(kept->nr_tiers, t->nr_tiers);
	for (u32 i = 0; i < t->nr_tiers; i++)
		cr_expect_eq(kept->tiers[i], t->tiers[i]);
	for (u32 h = 0; h < t->nr; h++) {
		const struct vs_topo_hn *a = &kept->hns[h], *b = &t->hns[h];

		cr_expect_str_eq(a->name, b->name);
		cr_expect_eq(a->hn, b->hn);
		cr_expect_eq(a->tier, b->tier, "tier of %s", b->name);
		cr_expect_eq(a->parent, b->parent, "parent of %s", b->name);
		cr_expect_eq(a->depth, b->depth);
		cr_assert_eq(a->nr_children, b->nr_children, "children of %s", b->name);
		for (u32 c = 0; c < b->nr_children; c++)
			cr_expect_eq(a->children[c], b->children[c]);
		cr_assert_eq(a->nr_nodes, b->nr_nodes, "nodes of %s: kept %u, fresh %u", b->name,
			     a->nr_nodes, b->nr_nodes);
		for (u32 k = 0; k < b->nr_nodes; k++)
			cr_expect_eq(a->nodes[k], b->nodes[k], "node %u of %s", k, b->name);
		expect_res_eq(&a->allocatable, &b->allocatable, "allocatable", b->name);
		expect_res_eq(&a->idle, &b->idle, "idle", b->name);
		expect_res_eq(&a->future_idle, &b->future_idle, "future idle", b->name);
		expect_res_eq(&a->used, &b->used, "used", b->name);
	}
	for (u32 i = 0; i < nr_nodes; i++) {
		cr_expect_eq(kept->low[i], t->low[i], "lowest HyperNode of node %u", i);
		cr_assert_eq(kept->of_node_at[i + 1], t->of_node_at[i + 1]);
	}
	for (u32 i = 0; i < t->of_node_at[nr_nodes]; i++)
		cr_expect_eq(kept->of_node[i], t->of_node[i]);
	vs_sched_destroy(&other);
}

/* Whether the last view's HyperNode @name holds @nr nodes. */
static void expect_nodes(const struct vs_topo *topo, const char *name, u32 nr)
{
	u32 h = vs_topo_find(topo, &cl, name);

	cr_assert_neq(h, VS_TOPO_NONE, "%s", name);
	cr_expect_eq(topo->hns[h].nr_nodes, nr, "%s holds %u nodes, not %u", name,
		     topo->hns[h].nr_nodes, nr);
}

Test(topology, the_view_is_kept_while_nothing_changes)
{
	struct vs_topo *topo;
	struct vs_topo_hn *hns;

	two_leaves();
	start();
	topo = view_of(&sched);
	hns = topo->hns;
	cr_expect_eq(view_of(&sched), topo);
	cr_expect_eq(sched.topo->hns, hns, "made again though nothing changed");
	expect_fresh(topo);
}

Test(topology, a_hypernode_added_between_sessions_makes_the_view_again)
{
	struct vs_topo *topo;

	two_leaves();
	start();
	view_of(&sched);
	st_node(&cl, "s3-n5", 2000, 4 * GI, 10);
	hypernode("s3", 1, "leaf", VS_HN_MEMBER_NODE, "s3-n5", "s3-n6");
	topo = view_of(&sched);
	cr_expect_eq(topo->nr, 5);
	expect_nodes(topo, "s3", 1);
	expect_fresh(topo);
	/* a HyperNode alone, its nodes there already */
	hypernode("s4", 2, "spine", VS_HN_MEMBER_HYPERNODE, "s3", "s5");
	topo = view_of(&sched);
	expect_nodes(topo, "s4", 1);
	cr_expect_eq(topo->hns[vs_topo_find(topo, &cl, "s3")].parent,
		     vs_topo_find(topo, &cl, "s4"));
	expect_fresh(topo);
}

Test(topology, a_hypernode_deleted_or_changed_between_sessions_makes_the_view_again)
{
	struct vs_hn_member_spec m[1] = {
		{ .type = VS_HN_MEMBER_NODE, .sel = VS_HN_EXACT, .name = "s0-n1" },
	};
	struct vs_hypernode_spec spec = {
		.name = "s0", .tier = 1, .tier_name = "leaf", .members = m, .nr_members = 1,
	};
	struct vs_topo *topo;
	struct vs_err e = { { 0 } };

	two_leaves();
	start();
	view_of(&sched);
	/* s0 loses a node */
	cr_assert_eq(vs_hypernode_update(&cl, vs_hypernode_find(&cl, "s0"), &spec, &e), 0,
		     "%s", e.msg);
	topo = view_of(&sched);
	expect_nodes(topo, "s0", 1);
	expect_nodes(topo, "s2", 3);
	expect_fresh(topo);
	/* s0 moves up a tier: the tiers, the lowest HyperNodes follow */
	spec.tier = 2;
	cr_assert_eq(vs_hypernode_update(&cl, vs_hypernode_find(&cl, "s0"), &spec, &e), 0,
		     "%s", e.msg);
	topo = view_of(&sched);
	cr_expect_eq(topo->low[vs_node_find(&cl, "s0-n1")->sidx], VS_TOPO_NONE);
	expect_fresh(topo);
	/* s1 goes: s2 keeps s0 alone */
	vs_hypernode_del(&cl, vs_hypernode_find(&cl, "s1"));
	topo = view_of(&sched);
	cr_expect_eq(topo->nr, 3);
	cr_expect_eq(vs_topo_find(topo, &cl, "s1"), VS_TOPO_NONE);
	expect_nodes(topo, "s2", 1);
	expect_fresh(topo);
}

Test(topology, a_node_added_or_deleted_between_sessions_makes_the_view_again)
{
	struct vs_topo *topo;
	struct vs_err e = { { 0 } };

	two_leaves();
	start();
	view_of(&sched);
	/* s0-n1 goes: s0-n2 and the others move to new slots */
	cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "s0-n1"), &e), 0, "%s", e.msg);
	topo = view_of(&sched);
	expect_nodes(topo, "s0", 1);
	cr_expect_eq(topo->hns[topo->top].nr_nodes, 3);
	expect_fresh(topo);
	/* it comes back, a new object in the last slot: the name s0 chose */
	st_node(&cl, "s0-n1", 4000, 8 * GI, 10);
	topo = view_of(&sched);
	expect_nodes(topo, "s0", 2);
	cr_expect_eq(topo->hns[topo->top].nr_nodes, 4);
	expect_fresh(topo);
	/* a node no HyperNode chooses: the top alone holds it */
	st_node(&cl, "n9", 2000, 4 * GI, 10);
	topo = view_of(&sched);
	cr_expect_eq(topo->hns[topo->top].nr_nodes, 5);
	cr_expect_eq(topo->low[vs_node_find(&cl, "n9")->sidx], VS_TOPO_NONE);
	expect_fresh(topo);
	/* one goes and another comes: as many nodes, not the same */
	cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "s1-n3"), &e), 0, "%s", e.msg);
	st_node(&cl, "n10", 2000, 4 * GI, 10);
	topo = view_of(&sched);
	expect_nodes(topo, "s1", 1);
	cr_expect_eq(topo->hns[topo->top].nr_nodes, 5);
	expect_fresh(topo);
}

Test(topology, the_view_follows_nodes_chosen_by_labels_and_patterns)
{
	struct vs_node *x, *y;
	struct vs_topo *topo;

	x = rack_node("x", "r1");
	y = rack_node("y", "r2");
	hypernode_by("rack1", 1, VS_HN_LABEL, "r1");
	hypernode_by("gpus", 1, VS_HN_REGEX, "^gpu-");
	hypernode("row", 2, NULL, VS_HN_MEMBER_HYPERNODE, "rack1", "gpus");
	st_queue(&cl, "q1");
	start();
	topo = view_of(&sched);
	expect_nodes(topo, "rack1", 1);
	expect_nodes(topo, "row", 1);
	relabel(x, "r2", 0);
	topo = view_of(&sched);
	expect_nodes(topo, "rack1", 0);
	expect_nodes(topo, "row", 0);
	expect_fresh(topo);
	relabel(y, "r1", 0);
	topo = view_of(&sched);
	expect_nodes(topo, "rack1", 1);
	cr_expect_eq(topo->hns[vs_topo_find(topo, &cl, "rack1")].nodes[0], y);
	expect_fresh(topo);
	rack_node("gpu-a", NULL);
	topo = view_of(&sched);
	expect_nodes(topo, "gpus", 1);
	expect_nodes(topo, "row", 2);
	expect_fresh(topo);
	/* a change of resources alone keeps the structure, and the sums follow */
	relabel(y, "r1", 8000);
	cr_expect_eq(view_of(&sched), topo);
	cr_expect_eq(vs_res_get(&topo->hns[vs_topo_find(topo, &cl, "rack1")].allocatable,
				VS_RES_CPU), 8000);
	expect_fresh(topo);
}

Test(topology, a_node_two_hypernodes_choose_is_summed_once_above_them)
{
	struct vs_topo *topo;
	u32 row;

	rack_node("n1", NULL);
	rack_node("n2", NULL);
	hypernode_by("a", 1, VS_HN_REGEX, "n[12]");
	hypernode_by("b", 1, VS_HN_REGEX, "n2");
	hypernode("row", 2, NULL, VS_HN_MEMBER_HYPERNODE, "a", "b");
	st_queue(&cl, "q1");
	start();
	topo = view_of(&sched);
	row = vs_topo_find(topo, &cl, "row");
	cr_expect_not(topo->hns[row].sum_children);
	cr_expect(topo->hns[topo->top].sum_children);
	cr_expect_eq(vs_res_get(&topo->hns[row].allocatable, VS_RES_CPU), 4000);
	cr_expect_eq(vs_res_get(&topo->hns[topo->top].idle, VS_RES_CPU), 4000);
	expect_fresh(topo);
}

Test(topology, the_sums_are_made_afresh_each_session)
{
	struct vs_topo *topo;
	u32 s0;

	two_leaves();
	start();
	topo = view_of(&sched);
	s0 = vs_topo_find(topo, &cl, "s0");
	cr_expect_eq(vs_res_get(&topo->hns[s0].idle, VS_RES_CPU), 4000);
	/* a pod starts on s0-n1 between the sessions: the view is kept, its sums are not */
	pg(1, VS_NT_HARD, 1, NULL);
	pod("p0", "", "s0-n1");
	cr_expect_eq(view_of(&sched), topo);
	cr_expect_eq(vs_res_get(&topo->hns[s0].idle, VS_RES_CPU), 2000);
	cr_expect_eq(vs_res_get(&topo->hns[s0].used, VS_RES_CPU), 2000);
	cr_expect_eq(vs_res_get(&topo->hns[topo->top].idle, VS_RES_CPU), 6000);
	expect_fresh(topo);
	/* one releasing on s1-n3: s1's FutureIdle counts it back */
	st_task_on(&cl, "c1", "p9", "pg1", 2000, 4 * G, VS_TASK_RELEASING,
		   vs_node_find(&cl, "s1-n3"));
	cr_expect_eq(view_of(&sched), topo);
	s0 = vs_topo_find(topo, &cl, "s1");
	cr_expect_eq(vs_res_get(&topo->hns[s0].idle, VS_RES_CPU), 2000);
	cr_expect_eq(vs_res_get(&topo->hns[s0].future_idle, VS_RES_CPU), 4000);
	cr_expect_eq(vs_res_get(&topo->hns[topo->top].future_idle, VS_RES_CPU), 6000);
	expect_fresh(topo);
}

Test(topology, what_a_session_tried_does_not_reach_the_next_ones_view)
{
	struct vs_session *ssn;
	struct vs_statement *stmt;
	struct vs_topo *topo;
	struct vs_job *job;
	struct vs_err e = { { 0 } };
	u32 s0;

	two_leaves();
	/* a gang of 3 within a leaf: dry runs in each, none ready, all discarded */
	job = pg(3, VS_NT_HARD, 1, NULL);
	pod("p1", "master", NULL);
	pod("p2", "worker", NULL);
	pod("p3", "worker", NULL);
	start();
	topo = view_of(&sched);
	s0 = vs_topo_find(topo, &cl, "s0");
	cycle();
	cr_assert_eq(nr_binds, 0);
	cr_expect_eq(view_of(&sched), topo);
	cr_expect_eq(vs_res_get(&topo->hns[s0].idle, VS_RES_CPU), 4000);
	cr_expect_eq(vs_res_get(&topo->hns[s0].used, VS_RES_CPU), 0);
	cr_expect_null(topo->task);
	expect_fresh(topo);

	/* a placement the session makes and leaves uncommitted */
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_topo_get(ssn), topo);
	stmt = vs_stmt_new(ssn);
	cr_assert_not_null(stmt);
	cr_assert_eq(vs_stmt_allocate(stmt, vs_task_find(&cl, "c1", "p1"),
				      vs_node_find(&cl, "s0-n1"), &e), 0, "%s", e.msg);
	topo->task = vs_task_find(&cl, "c1", "p1");
	topo->task_hn = s0;
	vs_session_close(ssn);
	cr_expect_eq(view_of(&sched), topo);
	cr_expect_eq(vs_res_get(&topo->hns[s0].idle, VS_RES_CPU), 4000);
	cr_expect_null(topo->task, "the task being placed is the session's");
	cr_expect_eq(topo->task_hn, VS_TOPO_NONE);
	cr_expect_null(job->allocated_hn);
	expect_fresh(topo);
}

Test(topology, an_inspecting_session_shares_the_kept_view)
{
	struct vs_session *ssn;
	struct vs_topo *topo;
	struct vs_err e = { { 0 } };

	two_leaves();
	start();
	topo = view_of(&sched);
	cr_assert_eq(vs_session_open_inspect(&sched, &ssn, &e), 0, "%s", e.msg);
	cr_expect_eq(vs_topo_get(ssn), topo);
	vs_session_close(ssn);
	cr_expect_eq(view_of(&sched), topo);
	expect_fresh(topo);
}

Test(topology, a_stale_view_is_freed_when_the_next_session_opens)
{
	struct vs_session *ssn;
	struct vs_err e = { { 0 } };

	two_leaves();
	start();
	view_of(&sched);
	cr_assert_not_null(sched.topo);
	vs_hypernode_del(&cl, vs_hypernode_find(&cl, "s2"));
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	cr_expect_null(sched.topo);
	cr_expect_eq(sched.topo_arena.reserved, 0);
	vs_session_close(ssn);
}

/*
 * s0's and s1's HyperNodeOrder scores less s1's: equal bin-packing (one
 * task of 1 cpu on each leaf), so the share of pg1's tasks on s0 decides.
 */
static double share_lead(struct vs_session *ssn, struct vs_job *job)
{
	const struct vs_topo *topo = vs_topo_get(ssn);
	struct vs_hn_search s = {
		.job = job, .root = topo->top, .hard = true, .highest_tier = 2,
		.allocated = VS_TOPO_NONE, .purpose = VS_HN_ALLOCATE,
	};
	u32 hns[2] = { vs_topo_find(topo, &cl, "s0"), vs_topo_find(topo, &cl, "s1") };
	double scores[2] = { 0, 0 };

	vs_ssn_hn_order(ssn, &s, hns, 2, scores);
	return scores[0] - scores[1];
}

/*
 * The plugin keeps the count of a job's tasks on each HyperNode as they
 * are placed and taken back, and counts again when a move went by without
 * an event: what it adds is always the share of the tasks on the node.
 */
Test(topology, the_share_of_a_jobs_tasks_follows_every_move)
{
	struct vs_task *p1, *p2;
	struct vs_session *ssn;
	struct vs_statement *stmt;
	struct vs_job *job;
	struct vs_err e = { { 0 } };

	hypernode("s0", 1, "leaf", VS_HN_MEMBER_NODE, "s0-n1", "s0-n2");
	hypernode("s1", 1, "leaf", VS_HN_MEMBER_NODE, "s1-n3", "s1-n4");
	hypernode("s2", 2, "spine", VS_HN_MEMBER_HYPERNODE, "s0", "s1");
	st_node(&cl, "s0-n1", 4000, 8 * GI, 10);
	st_node(&cl, "s0-n2", 4000, 8 * GI, 10);
	st_node(&cl, "s1-n3", 4000, 8 * GI, 10);
	st_node(&cl, "s1-n4", 4000, 8 * GI, 10);
	st_queue(&cl, "q1");
	job = pg(4, VS_NT_HARD, 2, NULL);
	p1 = st_task(&cl, "c1", "p1", "pg1", 1000, GI);
	p2 = st_task(&cl, "c1", "p2", "pg1", 1000, GI);
	st_task(&cl, "c1", "p3", "pg1", 1000, GI);
	st_task(&cl, "c1", "p4", "pg1", 1000, GI);
	st_job(&cl, "c1", "other", "q1", 1, VS_PG_RUNNING);
	st_task_on(&cl, "c1", "o1", "other", 1000, GI, VS_TASK_RUNNING, vs_node_find(&cl, "s1-n3"));
	st_task(&cl, "c1", "o2", "other", 1000, GI);
	start();
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	stmt = vs_stmt_new(ssn);
	cr_assert_not_null(stmt);

	/* s0: (4 / 8 cpu + 4 / 16 Gi) / 2, s1: (5 / 8 + 5 / 16) / 2 */
	cr_expect_float_eq(share_lead(ssn, job), -9.375, 1e-9, "s1 packs fuller before pg1 has a task");
	cr_assert_eq(vs_stmt_allocate(stmt, p1, vs_node_find(&cl, "s0-n1"), &e), 0, "%s", e.msg);
	cr_expect_float_eq(share_lead(ssn, job), 25, 1e-9, "p1 of 4 on s0");
	/* another job's task moving changes nothing of pg1's count */
	cr_assert_eq(vs_stmt_allocate(stmt, vs_task_find(&cl, "c1", "o2"),
				      vs_node_find(&cl, "s0-n2"), &e), 0, "%s", e.msg);
	cr_assert_eq(vs_stmt_allocate(stmt, p2, vs_node_find(&cl, "s1-n4"), &e), 0, "%s", e.msg);
	cr_expect_float_eq(share_lead(ssn, job), 0, 1e-9, "p1 on s0, p2 on s1");
	/*
	 * An eviction gives its resources back but keeps the task on its
	 * node, and so does its undo: with o1 evicted too both leaves use a
	 * cpu, and p1 still counts on s0 as p2 on s1.
	 */
	cr_assert_eq(vs_stmt_evict(stmt, p1, "test", &e), 0, "%s", e.msg);
	cr_assert_eq(vs_stmt_evict(stmt, vs_task_find(&cl, "c1", "o1"), "test", &e), 0, "%s", e.msg);
	cr_expect_float_eq(share_lead(ssn, job), 0, 1e-9, "p1 evicted, still on s0");
	vs_stmt_discard(stmt);
	cr_expect_float_eq(share_lead(ssn, job), -9.375, 1e-9, "all undone: as at the start");
	/* a move the plugin is not told of: counted again */
	cr_assert_eq(vs_task_place(&cl, p2, vs_node_find(&cl, "s0-n1"), VS_TASK_ALLOCATED, &e), 0,
		     "%s", e.msg);
	cr_assert_eq(vs_stmt_allocate(stmt, vs_task_find(&cl, "c1", "o2"),
				      vs_node_find(&cl, "s0-n2"), &e), 0, "%s", e.msg);
	cr_expect_float_eq(share_lead(ssn, job), 25, 1e-9, "p2 on s0, untold; the leaves tie");
	vs_stmt_discard(stmt);
	cr_assert_eq(vs_task_unplace(&cl, p2, VS_TASK_PENDING, &e), 0, "%s", e.msg);
	vs_session_close(ssn);
}

/*
 * What the fast path adds node by node is, to the bit, what the plugin's
 * BatchNodeOrder adds over all candidates for a task without a topology;
 * no node scores above the bound; a task with a topology is not split.
 */
Test(topology, a_split_score_is_the_batch_score_node_by_node)
{
	static const char text[] =
		"actions: allocate\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: predicates\n"
		"  - name: nodeorder\n"
		"  - name: binpack\n"
		"  - name: network-topology-aware\n";
	static const char *const names[] = { "s0-n1", "s0-n2", "s1-n3", "s1-n4", "lone" };
	struct vs_node *nodes[ARRAY_SIZE(names)];
	double whole[ARRAY_SIZE(names)], local[ARRAY_SIZE(names)], bound = -1;
	struct vs_session *ssn;
	struct vs_task *task;
	struct vs_plugin *split;

	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		nodes[i] = st_node(&cl, names[i], 4000 + 1000 * i, 8 * GI, 10);
	hypernode("s0", 1, "leaf", VS_HN_MEMBER_NODE, "s0-n1", "s0-n2");
	hypernode("s1", 1, "leaf", VS_HN_MEMBER_NODE, "s1-n3", "s1-n4");
	hypernode("s2", 2, "spine", VS_HN_MEMBER_HYPERNODE, "s0", "s1");
	st_queue(&cl, "q1");
	st_job(&cl, "c1", "busy", "q1", 1, VS_PG_RUNNING);
	st_task_on(&cl, "c1", "b1", "busy", 3000, 2 * GI, VS_TASK_RUNNING, nodes[0]);
	st_task_on(&cl, "c1", "b2", "busy", 1000, 5 * GI, VS_TASK_RUNNING, nodes[3]);
	st_job(&cl, "c1", "plain", "q1", 1, VS_PG_INQUEUE);
	task = st_task(&cl, "c1", "t1", "plain", 500, GI);
	pg(1, VS_NT_HARD, 1, NULL);
	pod("p1", "worker", NULL);
	st_open(&sched, &cl, text, &ssn);
	split = vs_ssn_split_plugin(ssn);
	cr_assert_not_null(split);
	cr_assert_str_eq(split->ops->name, "network-topology-aware");

	vs_ssn_score_nodes(ssn, task, nodes, ARRAY_SIZE(nodes), whole);
	vs_ssn_score_nodes_local(ssn, task, nodes, ARRAY_SIZE(nodes), local);
	cr_assert(vs_ssn_split_begin(ssn, task, false, &bound));
	for (unsigned int i = 0; i < ARRAY_SIZE(nodes); i++) {
		double split_score = vs_ssn_split_score(ssn, task, nodes[i]);

		cr_expect(local[i] + split_score == whole[i], "%s: %.17g + %.17g != %.17g",
			  names[i], local[i], split_score, whole[i]);
		cr_expect(split_score <= bound, "%s: %.17g above the bound %.17g", names[i],
			  split_score, bound);
		cr_expect(split_score > 0, "%s scores nothing", names[i]);
	}
	/* s0 (3 of 9 cpu used) packs fuller than s1 (1 of 13): its nodes score more */
	cr_expect_gt(vs_ssn_split_score(ssn, task, nodes[0]), vs_ssn_split_score(ssn, task, nodes[2]));
	cr_expect_not(vs_ssn_split_begin(ssn, vs_task_find(&cl, "c1", "p1"), false, &bound),
		      "a task of a job with a network topology scores by its job's HyperNode");
	vs_session_close(ssn);
}

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

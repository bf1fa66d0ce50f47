// SPDX-License-Identifier: Apache-2.0
/*
 * Why a job with a hard network topology waits: the lines vsctl explain
 * gives of allocate's HyperNode search (the gradients, each dry run, the
 * best), and fit errors that name the HyperNode whose nodes refused a task
 * as Volcano's FitErrors.SetHyperNode does, in the explanation and in the
 * PodGroup's Unschedulable condition. The cluster is topology_test.c's: two
 * leaves s0 {s0-n1, s0-n2} and s1 {s1-n3, s1-n4} of tier 1 under s2 (tier
 * 2), nodes of 2 cpu.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "schedtest.h"
#include "core/hypernode.h"
#include "sched/explain.h"
#include "sched/topology.h"

#define GI	(1024LL * 1024 * 1024)

static struct vs_cluster cl;
static struct vs_sched sched;
static const char *p1_on;	/* run(): p1 runs there (the others pend) */

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
	p1_on = NULL;
}

static void teardown(void)
{
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(topology_explain, .init = setup, .fini = teardown);

static void leaf(const char *name, s32 tier, enum vs_hn_member_type type, const char *a,
		 const char *b)
{
	struct vs_hn_member_spec m[2] = {
		{ .type = type, .sel = VS_HN_EXACT, .name = a },
		{ .type = type, .sel = VS_HN_EXACT, .name = b },
	};
	struct vs_hypernode_spec spec = {
		.name = name, .tier = tier, .members = m, .nr_members = 2,
	};
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_hypernode_add(&cl, &spec, NULL, &e), 0, "%s", e.msg);
}

/*
 * The cluster, PodGroup c1/pg1 of @min in @mode within tier @tier (with
 * minResources of @min_mcpu when not 0), @nr pending pods p1.. of @mcpu
 * each, and one cycle of allocate.
 */
static struct vs_job *run(u32 min, enum vs_nt_mode mode, s32 tier, s64 min_mcpu, u32 nr,
			  s64 mcpu)
{
	static const char *const nodes[] = { "s0-n1", "s0-n2", "s1-n3", "s1-n4" };
	struct vs_conf_names names;
	struct vs_job_spec spec;
	struct vs_conf *conf;
	struct vs_job *job;
	struct vs_err e = { { 0 } };

	for (unsigned int i = 0; i < ARRAY_SIZE(nodes); i++)
		st_node(&cl, nodes[i], 2000, 4 * GI, 10);
	leaf("s0", 1, VS_HN_MEMBER_NODE, "s0-n1", "s0-n2");
	leaf("s1", 1, VS_HN_MEMBER_NODE, "s1-n3", "s1-n4");
	leaf("s2", 2, VS_HN_MEMBER_HYPERNODE, "s0", "s1");
	st_queue(&cl, "q1");

	vs_job_spec_init(&spec, "c1", "pg1");
	spec.queue = "q1";
	spec.min_member = min;
	spec.phase = VS_PG_INQUEUE;
	spec.net_topology.set = true;
	spec.net_topology.mode = mode;
	spec.net_topology.has_highest_tier = true;
	spec.net_topology.highest_tier = tier;
	if (min_mcpu) {
		spec.min_resources = st_res(min_mcpu, GI);
		spec.has_min_resources = true;
	}
	cr_assert_eq(vs_job_add(&cl, &spec, &job, &e), 0, "%s", e.msg);
	for (u32 i = 1; i <= nr; i++) {
		char name[16];

		snprintf(name, sizeof(name), "p%u", i);
		st_task_on(&cl, "c1", name, "pg1", mcpu, GI,
			   i == 1 && p1_on ? VS_TASK_RUNNING : VS_TASK_PENDING,
			   i == 1 && p1_on ? vs_node_find(&cl, p1_on) : NULL);
	}

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(conf_text, strlen(conf_text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
	return job;
}

/* Whether @ex has the step @line. */
static bool has_step(const struct vs_explain *ex, const char *line)
{
	for (const char *s = vs_explain_first(ex); s; s = vs_explain_next(ex, s))
		if (!strcmp(s, line))
			return true;
	return false;
}

/* Whether some step of @ex starts with @prefix. */
static bool has_step_prefix(const struct vs_explain *ex, const char *prefix)
{
	for (const char *s = vs_explain_first(ex); s; s = vs_explain_next(ex, s))
		if (!strncmp(s, prefix, strlen(prefix)))
			return true;
	return false;
}

static void explain_job(const struct vs_job *job, struct vs_explain *ex)
{
	vs_explain_init(ex);
	cr_assert_eq(vs_explain_job(&sched, job, 0, ex), 0);
}

static void explain_task(const char *name, struct vs_explain *ex)
{
	const struct vs_task *t = vs_task_find(&cl, "c1", name);

	cr_assert_not_null(t);
	vs_explain_init(ex);
	cr_assert_eq(vs_explain_task(&sched, t, 0, ex), 0);
}

/* Each leaf's idle sum holds three tasks of 1200m, its nodes one each: two placed per leaf. */
Test(topology_explain, partial_gang_names_the_best_hypernode)
{
	struct vs_job *job = run(3, VS_NT_HARD, 1, 0, 3, 1200);
	struct vs_explain ex;

	explain_job(job, &ex);
	cr_expect_str_eq(ex.reason, "NoHyperNodeFits");
	cr_expect(has_step(&ex, "Network topology: hard, highestTierAllowed 1"));
	cr_expect(has_step(&ex, "Tier 1: 2 HyperNode(s) to try: s0 s1"));
	cr_expect(has_step(&ex, "HyperNode s0: 2 of 3 tasks placed"));
	cr_expect(has_step(&ex, "HyperNode s1: 2 of 3 tasks placed"));
	cr_expect(has_step(&ex, "No HyperNode within tier 1 holds the gang: 2 of 3 tasks placed "
			   "under the best (s0)"));
	/* the message is the Unschedulable condition, in Volcano's words, the HyperNode named */
	cr_expect(strstr(vs_explain_message(&ex), "Origin reason is p3: In hyperNode s1: 0/2 "
			 "nodes are unavailable: 2 Insufficient cpu."), "%s",
		  vs_explain_message(&ex));
	vs_explain_release(&ex);

	explain_task("p3", &ex);
	cr_expect_str_eq(ex.reason, "Unschedulable");
	cr_expect_str_eq(vs_explain_message(&ex),
			 "In hyperNode s1: 0/2 nodes are available: 2 Insufficient cpu.");
	cr_expect(has_step(&ex, "No HyperNode within tier 1 holds the gang: 2 of 3 tasks placed "
			   "under the best (s0)"));
	vs_explain_release(&ex);
}

/* The sub-job's pending tasks (6 cpu) are more than a leaf's idle (4 cpu): nothing is tried. */
Test(topology_explain, sub_job_too_big_for_every_leaf)
{
	struct vs_job *job = run(3, VS_NT_HARD, 1, 0, 3, 2000);
	struct vs_explain ex;

	explain_task("p1", &ex);
	cr_expect_str_eq(ex.reason, "NoHyperNodeFits");
	cr_expect_str_eq(vs_explain_message(&ex), "No HyperNode within tier 1 holds the gang: "
			 "no task placed under any of the 2 tried");
	cr_expect(has_step_prefix(&ex, "HyperNode s0: 0 of 3 tasks placed: neither it nor a "
				  "HyperNode in it can hold the pending tasks <cpu 6"));
	vs_explain_release(&ex);

	explain_job(job, &ex);
	cr_expect_str_eq(ex.reason, "NoHyperNodeFits");
	cr_expect(has_step(&ex, "Tier 1: 2 HyperNode(s) to try: s0 s1"));
	vs_explain_release(&ex);
}

/* minResources of 6 cpu: no leaf's idle holds it, the gradients are empty. */
Test(topology_explain, no_hypernode_holds_the_minimum)
{
	struct vs_explain ex;

	run(3, VS_NT_HARD, 1, 6000, 3, 1000);
	explain_task("p2", &ex);
	cr_expect_str_eq(ex.reason, "NoHyperNodeFits");
	cr_expect_str_eq(vs_explain_message(&ex), "No HyperNode within tier 1 can hold its "
			 "minimum resources <cpu 6, memory 1Gi> (idle or future idle)");
	cr_expect(!has_step_prefix(&ex, "Tier "), "no gradient is listed");
	cr_expect(!has_step_prefix(&ex, "HyperNode "), "no dry run is listed");
	vs_explain_release(&ex);
}

/* Within tier 2 the gang fits under s2: its search is not explained. */
Test(topology_explain, placed_job_keeps_no_search)
{
	struct vs_job *job = run(3, VS_NT_HARD, 2, 0, 3, 1200);
	struct vs_explain ex;

	cr_expect_eq(job->nr_by_status[VS_TASK_PENDING], 0);
	explain_job(job, &ex);
	cr_expect_str_eq(ex.reason, "Scheduled");
	cr_expect(!has_step_prefix(&ex, "Network topology"));
	vs_explain_release(&ex);
}

/*
 * Soft mode is tried as hard up to the cluster's top, whose fit errors
 * name no HyperNode (Volcano leaves its ClusterTopHyperNode out).
 */
Test(topology_explain, cluster_top_is_not_named)
{
	struct vs_explain ex;

	run(5, VS_NT_SOFT, 0, 0, 5, 1200);
	explain_task("p5", &ex);
	cr_expect_str_eq(ex.reason, "Unschedulable");
	cr_expect_str_eq(vs_explain_message(&ex), "0/4 nodes are available: 4 Insufficient cpu.");
	cr_expect(has_step(&ex, "Network topology: soft, tried as hard: any HyperNode"));
	cr_expect(has_step(&ex, "HyperNode " VS_TOPO_TOP ": 4 of 5 tasks placed"));
	cr_expect(has_step(&ex, "No HyperNode in the cluster holds the gang: 4 of 5 tasks placed "
			   "under the best (s2)"));
	vs_explain_release(&ex);
}

/*
 * The gang holds (p1 runs in s0, minMember 1) and p2 of 3 cpu fits on no
 * node: its fit errors say so, in s0, and no HyperNode search is blamed.
 */
Test(topology_explain, ready_gang_blames_no_hypernode)
{
	struct vs_explain ex;
	struct vs_job *job;

	p1_on = "s0-n1";
	job = run(1, VS_NT_HARD, 1, 0, 2, 3000);
	explain_task("p2", &ex);
	cr_expect_str_eq(ex.reason, "Unschedulable");
	cr_expect_str_eq(vs_explain_message(&ex),
			 "In hyperNode s0: 0/2 nodes are available: 2 Insufficient cpu.");
	cr_expect(!has_step_prefix(&ex, "Network topology"));
	vs_explain_release(&ex);

	explain_job(job, &ex);
	cr_expect_str_neq(ex.reason, "NoHyperNodeFits");
	cr_expect(!has_step_prefix(&ex, "No HyperNode"));
	vs_explain_release(&ex);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the nodeorder plugin: each kube-scheduler score on hand-computed
 * nodes, with its int64 truncation, its normalisation over the candidates
 * and the weights read from the arguments, scored through the framework's
 * vs_ssn_score_nodes() as allocate scores.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "schedtest.h"
#include "testreg.h"
#include "sched/statement.h"

#define MI (1024LL * 1024)
#define GI (1024LL * MI)

static struct vs_cluster cl;
static struct vs_sched sched;
static struct vs_session *ssn;
static bool sched_up;

static void setup(void)
{
	st_cluster_one_job(&cl);
	sched_up = false;
}

static void teardown(void)
{
	if (sched_up)
		vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(nodeorder, .init = setup, .fini = teardown);

/* Only the nodeorder plugin, with @args (a YAML flow mapping) as its arguments. */
static void open_with(const char *args)
{
	st_open_plugin(&sched, &cl, "nodeorder", args, &ssn);
	sched_up = true;
}

/* Every weight 0 but the one named. */
static void open_only(const char *key, int weight)
{
	static const char *const keys[] = {
		"leastrequested.weight", "mostrequested.weight", "balancedresource.weight",
		"nodeaffinity.weight", "tainttoleration.weight", "podaffinity.weight",
		"imagelocality.weight", "podtopologyspread.weight",
	};
	char args[512];
	int len;

	len = snprintf(args, sizeof(args), "{%s: %d", key, weight);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (strcmp(keys[i], key))
			len += snprintf(args + len, sizeof(args) - (size_t)len, ", %s: 0", keys[i]);
	snprintf(args + len, sizeof(args) - (size_t)len, "}");
	open_with(args);
}

static struct vs_node *node_full(const char *name, s64 mcpu, s64 mem, s64 gpu_milli,
				 const struct vs_kv_spec *labels, u32 nr_labels,
				 const struct vs_taint_spec *taints, u32 nr_taints)
{
	struct vs_node_spec spec;
	struct vs_node *n;
	struct vs_err e = { { 0 } };

	vs_node_spec_init(&spec, name);
	vs_res_set(&spec.allocatable, VS_RES_CPU, mcpu);
	vs_res_set(&spec.allocatable, VS_RES_MEMORY, mem);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
	if (gpu_milli)
		cr_assert_eq(vs_res_set_quantity(&cl.dims, &spec.allocatable, "nvidia.com/gpu", 14,
						 "4", 1, &e), 0, "%s", e.msg);
	spec.labels = labels;
	spec.nr_labels = nr_labels;
	spec.taints = taints;
	spec.nr_taints = nr_taints;
	cr_assert_eq(vs_node_add(&cl, &spec, &n, &e), 0, "%s", e.msg);
	return n;
}

static struct vs_node *node(const char *name, s64 mcpu, s64 mem)
{
	return node_full(name, mcpu, mem, 0, NULL, 0, NULL, 0);
}

static struct vs_task *task_spec(struct vs_task_spec *spec)
{
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_task_add(&cl, spec, &t, &e), 0, "%s", e.msg);
	return t;
}

/* A task requesting @mcpu and @mem, Running on @on, or Pending when @on is NULL. */
static struct vs_task *task(const char *name, s64 mcpu, s64 mem, const char *on)
{
	struct vs_task_spec spec;

	vs_task_spec_init(&spec, "ns", name, "j");
	vs_res_set(&spec.req, VS_RES_CPU, mcpu);
	vs_res_set(&spec.req, VS_RES_MEMORY, mem);
	if (on) {
		spec.status = VS_TASK_RUNNING;
		spec.node = on;
	}
	return task_spec(&spec);
}

static double scores[8];

static void score(const struct vs_task *t, struct vs_node *const *nodes, u32 nr)
{
	vs_ssn_score_nodes(ssn, t, nodes, nr, scores);
}

#define assert_scores(...) do {							\
	const double want[] = { __VA_ARGS__ };					\
	for (size_t i_ = 0; i_ < ARRAY_SIZE(want); i_++)			\
		cr_assert_eq(scores[i_], want[i_], "node %zu: %g, want %g",	\
			     i_, scores[i_], want[i_]);				\
} while (0)

Test(nodeorder, least_allocated_is_the_weighted_average_of_free_shares)
{
	struct vs_node *n[2] = { node("n1", 4000, 8 * GI), node("n2", 4000, 8 * GI) };
	struct vs_task *t;

	task("running", 1000, 2 * GI, "n1");
	t = task("t", 1000, GI, NULL);
	open_only("leastrequested.weight", 1);
	score(t, n, 2);
	/*
	 * n1: cpu (4000-2000)*100/4000 = 50, memory (8-3)*100/8 = 62 (62.5
	 * truncated), (50*50 + 62*50) / 100 = 56. n2: 75 and 87: 81.
	 */
	assert_scores(56, 81);
	vs_session_close(ssn);
}

Test(nodeorder, least_allocated_weight_comes_from_the_arguments)
{
	struct vs_node *n[2] = { node("n1", 4000, 8 * GI), node("n2", 4000, 8 * GI) };
	struct vs_task *t;

	task("running", 1000, 2 * GI, "n1");
	t = task("t", 1000, GI, NULL);
	open_only("leastrequested.weight", 3);
	score(t, n, 2);
	assert_scores(168, 243);
	vs_session_close(ssn);
}

Test(nodeorder, least_allocated_counts_defaults_for_tasks_that_request_nothing)
{
	struct vs_node *n[2] = { node("n1", 4000, 8 * GI), node("n2", 1000, 1000 * MI) };
	struct vs_task *t;

	task("idle", 0, 0, "n2");
	t = task("t", 0, 0, NULL);
	open_only("leastrequested.weight", 1);
	score(t, n, 2);
	/*
	 * n1: cpu 3900*100/4000 = 97, memory (8192-200)*100/8192 = 97: 97.
	 * n2: the idle pod and the task count 100m and 200Mi each:
	 * cpu 800*100/1000 = 80, memory 600*100/1000 = 60: 70.
	 */
	assert_scores(97, 70);
	vs_session_close(ssn);
}

Test(nodeorder, most_allocated_prefers_the_fuller_node)
{
	struct vs_node *n[3] = { node("n1", 4000, 8 * GI), node("n2", 4000, 8 * GI),
				 node("n3", 1000, GI) };
	struct vs_task *t;

	task("running", 1000, 2 * GI, "n1");
	task("big", 900, GI, "n3");
	t = task("t", 1000, GI, NULL);
	open_only("mostrequested.weight", 2);
	score(t, n, 3);
	/*
	 * n1: cpu 2000*100/4000 = 50, memory 3*100/8 = 37: 43 (87/2), x2.
	 * n2: 25 and 12: 18, x2. n3: past its size, capped at 100 each: 100, x2.
	 */
	assert_scores(86, 36, 200);
	vs_session_close(ssn);
}

Test(nodeorder, balanced_allocation_uses_plain_requests_and_gpus_in_whole_units)
{
	const struct vs_kv_spec none[] = { { "x", "y" } };
	struct vs_node *n[3] = { node("n1", 4000, 8 * GI), node("n2", 4000, 4 * GI),
				 node_full("g", 4000, 8 * GI, 4000, none, 1, NULL, 0) };
	struct vs_task_spec spec;
	struct vs_task *t, *gpu, *half, *be;
	struct vs_err e = { { 0 } };

	task("running", 1000, 2 * GI, "n1");
	t = task("t", 1000, GI, NULL);
	vs_task_spec_init(&spec, "ns", "gpu", "j");
	vs_res_set(&spec.req, VS_RES_CPU, 1000);
	vs_res_set(&spec.req, VS_RES_MEMORY, GI);
	cr_assert_eq(vs_res_set_quantity(&cl.dims, &spec.req, "nvidia.com/gpu", 14, "1", 1, &e), 0);
	gpu = task_spec(&spec);
	vs_task_spec_init(&spec, "ns", "half", "j");
	vs_res_set(&spec.req, VS_RES_CPU, 1000);
	vs_res_set(&spec.req, VS_RES_MEMORY, GI);
	cr_assert_eq(vs_res_set_quantity(&cl.dims, &spec.req, "nvidia.com/gpu", 14, "500m", 4, &e),
		     0);
	half = task_spec(&spec);
	be = task("be", 0, 0, NULL);
	open_only("balancedresource.weight", 10);

	score(t, n, 2);
	/*
	 * n1: cpu 2000/4000 = 0.5, memory 3/8 = 0.375; std = 0.0625: 93.
	 * n2: 0.25 and 0.25: 100.
	 */
	assert_scores(930, 1000);
	/* g: fractions 0.25, 0.125 and gpu 1/4 = 0.25: std 0.0589: 94 */
	score(gpu, n + 2, 1);
	assert_scores(940);
	score(half, n + 2, 1);
	assert_scores(940);
	/* kube-scheduler skips balanced allocation for a best-effort pod */
	score(be, n, 2);
	assert_scores(0, 0);
	vs_session_close(ssn);
}

Test(nodeorder, node_affinity_normalises_the_preferred_weights)
{
	const struct vs_kv_spec za[] = { { "zone", "a" } };
	const struct vs_kv_spec zs[] = { { "disk", "ssd" }, { "zone", "a" } };
	struct vs_node *n[3] = { node_full("na", 4000, 8 * GI, 0, za, 1, NULL, 0),
				 node_full("nb", 4000, 8 * GI, 0, zs, 2, NULL, 0),
				 node("nc", 4000, 8 * GI) };
	const char *const a[] = { "a" }, *const ssd[] = { "ssd" };
	const struct vs_sel_req_spec ra = { "zone", VS_SEL_IN, a, 1 };
	const struct vs_sel_req_spec rs = { "disk", VS_SEL_IN, ssd, 1 };
	const struct vs_node_pref_term_spec pref[] = {
		{ 10, { &ra, 1, NULL, 0 } },
		{ 30, { &rs, 1, NULL, 0 } },
	};
	const struct vs_node_affinity_spec na = { NULL, pref, 2 };
	const struct vs_affinity_spec aff = { &na, NULL, NULL };
	struct vs_task_spec spec;
	struct vs_task *t, *plain;

	vs_task_spec_init(&spec, "ns", "t", "j");
	vs_res_set(&spec.req, VS_RES_CPU, 1000);
	spec.affinity = &aff;
	t = task_spec(&spec);
	plain = task("plain", 1000, 0, NULL);
	open_with("{leastrequested.weight: 0, balancedresource.weight: 0, "
		  "tainttoleration.weight: 0}");
	score(t, n, 3);
	/* 10, 40, 0 -> 100*10/40 = 25, 100, 0, times the default weight 2 */
	assert_scores(50, 200, 0);
	score(plain, n, 3);
	assert_scores(0, 0, 0);
	vs_session_close(ssn);
}

Test(nodeorder, taint_toleration_counts_untolerated_prefer_no_schedule_reversed)
{
	const struct vs_taint_spec one[] = { { "a", "", VS_TAINT_PREFER_NO_SCHEDULE } };
	const struct vs_taint_spec two[] = { { "a", "", VS_TAINT_PREFER_NO_SCHEDULE },
					     { "b", "x", VS_TAINT_PREFER_NO_SCHEDULE },
					     { "c", "", VS_TAINT_NO_SCHEDULE } };
	struct vs_node *n[3] = { node("t0", 4000, 8 * GI),
				 node_full("t1", 4000, 8 * GI, 0, NULL, 0, one, 1),
				 node_full("t2", 4000, 8 * GI, 0, NULL, 0, two, 3) };
	const struct vs_toleration_spec tol[] = {
		{ "a", VS_TOLERATION_EXISTS, NULL, VS_TAINT_EFFECT_ALL, false, 0 },
	};
	struct vs_task_spec spec;
	struct vs_task *t, *tolerant;

	t = task("t", 1000, GI, NULL);
	vs_task_spec_init(&spec, "ns", "tol", "j");
	spec.tolerations = tol;
	spec.nr_tolerations = 1;
	tolerant = task_spec(&spec);
	open_only("tainttoleration.weight", 3);
	score(t, n, 3);
	/* 0, 1, 2 untolerated: 100 - 100*n/2 = 100, 50, 0; times 3 */
	assert_scores(300, 150, 0);
	score(tolerant, n, 3);
	/* 0, 0, 1: 100, 100, 0 */
	assert_scores(300, 300, 0);
	/* nothing untolerated anywhere: every node gets the maximum */
	score(tolerant, n, 2);
	assert_scores(300, 300);
	vs_session_close(ssn);
}

static const struct vs_kv_spec web[] = { { "app", "web" } };
static const struct vs_label_selector_spec sel_web = { web, 1, NULL, 0 };

static struct vs_task *labelled(const char *name, const struct vs_kv_spec *labels,
				const struct vs_affinity_spec *aff, const char *on)
{
	struct vs_task_spec spec;

	vs_task_spec_init(&spec, "ns", name, "j");
	vs_res_set(&spec.req, VS_RES_CPU, 100);
	spec.labels = labels;
	spec.nr_labels = labels ? 1 : 0;
	spec.affinity = aff;
	if (on) {
		spec.status = VS_TASK_RUNNING;
		spec.node = on;
	}
	return task_spec(&spec);
}

static void topology_nodes(struct vs_node **n)
{
	static const struct vs_kv_spec h1[] = { { "host", "h1" }, { "zone", "z1" } };
	static const struct vs_kv_spec h2[] = { { "host", "h2" }, { "zone", "z1" } };
	static const struct vs_kv_spec h3[] = { { "host", "h3" }, { "zone", "z2" } };

	n[0] = node_full("h1", 4000, 8 * GI, 0, h1, 2, NULL, 0);
	n[1] = node_full("h2", 4000, 8 * GI, 0, h2, 2, NULL, 0);
	n[2] = node_full("h3", 4000, 8 * GI, 0, h3, 2, NULL, 0);
}

Test(nodeorder, pod_affinity_sums_preferred_terms_by_topology_and_min_max_normalises)
{
	const struct vs_weighted_pod_affinity_term_spec zone[] = {
		{ 100, { &sel_web, NULL, 0, NULL, "zone" } },
	};
	const struct vs_weighted_pod_affinity_term_spec host[] = {
		{ 50, { &sel_web, NULL, 0, NULL, "host" } },
	};
	const struct vs_pod_affinity_spec pa = { NULL, 0, zone, 1 };
	const struct vs_pod_affinity_spec anti = { NULL, 0, host, 1 };
	const struct vs_affinity_spec both = { NULL, &pa, &anti };
	const struct vs_affinity_spec only_anti = { NULL, NULL, &anti };
	struct vs_node *n[3];
	struct vs_task *t, *a;

	topology_nodes(n);
	labelled("web", web, NULL, "h1");
	t = labelled("t", NULL, &both, NULL);
	a = labelled("a", NULL, &only_anti, NULL);
	open_only("podaffinity.weight", 2);
	score(t, n, 3);
	/* z1 +100, h1 -50: 50, 100, 0 -> (s - 0) * 100 / 100, times 2 */
	assert_scores(100, 200, 0);
	score(a, n, 3);
	/* -50, 0, 0: min -50, max 0 -> 0, 100, 100 */
	assert_scores(0, 200, 200);
	/* the same raw score everywhere normalises to 0 */
	score(a, n + 1, 2);
	assert_scores(0, 0);
	vs_session_close(ssn);
}

Test(nodeorder, pod_affinity_of_existing_pods_counts_preferred_terms_only)
{
	const struct vs_weighted_pod_affinity_term_spec pref[] = {
		{ 20, { &sel_web, NULL, 0, NULL, "zone" } },
	};
	const struct vs_pod_affinity_term_spec req[] = { { &sel_web, NULL, 0, NULL, "host" } };
	const struct vs_pod_affinity_spec attract = { NULL, 0, pref, 1 };
	const struct vs_pod_affinity_spec hard = { req, 1, NULL, 0 };
	const struct vs_affinity_spec soft_aff = { NULL, &attract, NULL };
	const struct vs_affinity_spec repel = { NULL, NULL, &attract };
	const struct vs_affinity_spec hard_aff = { NULL, &hard, NULL };
	struct vs_node *n[3];
	struct vs_task *t;

	topology_nodes(n);
	labelled("likes-web", NULL, &soft_aff, "h3");
	labelled("hates-web", NULL, &repel, "h1");
	/* Volcano's HardPodAffinityWeight is 0: this one weighs nothing */
	labelled("needs-web", NULL, &hard_aff, "h2");
	t = labelled("t", web, NULL, NULL);
	open_only("podaffinity.weight", 1);
	score(t, n, 3);
	/* z2 +20, z1 -20: -20, -20, 20 -> 0, 0, 100 */
	assert_scores(0, 0, 100);
	vs_session_close(ssn);
}

Test(nodeorder, pod_affinity_without_any_matching_pair_scores_nothing)
{
	const struct vs_pod_affinity_term_spec req[] = { { &sel_web, NULL, 0, NULL, "host" } };
	const struct vs_pod_affinity_spec hard = { req, 1, NULL, 0 };
	const struct vs_affinity_spec hard_aff = { NULL, &hard, NULL };
	struct vs_node *n[3];
	struct vs_task *t;

	topology_nodes(n);
	labelled("needs-web", NULL, &hard_aff, "h2");
	t = labelled("t", web, NULL, NULL);
	open_only("podaffinity.weight", 5);
	score(t, n, 3);
	assert_scores(0, 0, 0);
	vs_session_close(ssn);
}

Test(nodeorder, default_weights_add_least_balanced_and_taint_scores)
{
	struct vs_node *n[2] = { node("n1", 4000, 8 * GI), node("n2", 4000, 8 * GI) };
	struct vs_task *t;

	task("running", 1000, 2 * GI, "n1");
	t = task("t", 1000, GI, NULL);
	open_with("{}");
	score(t, n, 2);
	/* least 56 + balanced 93 + taint 100*3; least 81 + balanced 93 + 300 */
	assert_scores(449, 474);
	vs_session_close(ssn);
}

Test(nodeorder, scores_follow_allocations_made_in_the_session)
{
	struct vs_node *n[2] = { node("n1", 4000, 8 * GI), node("n2", 4000, 8 * GI) };
	struct vs_statement *stmt;
	struct vs_task *t, *first;

	first = task("first", 1000, 2 * GI, NULL);
	t = task("t", 1000, GI, NULL);
	open_only("leastrequested.weight", 1);
	stmt = vs_stmt_new(ssn);
	cr_assert_not_null(stmt);
	cr_assert_eq(vs_stmt_allocate(stmt, first, n[0], NULL), 0);
	score(t, n, 2);
	assert_scores(56, 81);
	vs_stmt_discard(stmt);
	score(t, n, 2);
	assert_scores(81, 81);
	vs_session_close(ssn);
}

Test(nodeorder, bad_weights_are_refused_at_load)
{
	static const char *const bad[] = {
		"{leastrequested.weight: abc}",
		"{podaffinity.weight: 1.5}",
		"{tainttoleration.weight: true}",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct vs_conf_names names;
		struct vs_conf *conf;
		struct vs_err e = { { 0 } };
		char text[256];
		struct vs_sched s;

		snprintf(text, sizeof(text), "actions: allocate\ntiers:\n- plugins:\n"
			 "  - name: nodeorder\n    arguments: %s\n", bad[i]);
		vs_registry_names(vs_test_registry(), &names);
		cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
					   VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
		cr_assert_neq(vs_sched_init(&s, &cl, vs_test_registry(), conf, &e), 0, "%s accepted", bad[i]);
		cr_assert(strstr(e.msg, "expected an integer"), "%s", e.msg);
		cr_assert(strstr(e.msg, "t.conf:5"), "%s", e.msg);
	}
}

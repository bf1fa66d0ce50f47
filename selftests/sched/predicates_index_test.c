// SPDX-License-Identifier: Apache-2.0
/*
 * The predicates plugin's pods by label (plugins/podindex.h): the pods
 * InterPodAffinity and PodTopologySpread read in PreFilter are found
 * through the labels their selectors anchor on, and the index follows the
 * session: a pod placed joins it, a placement discarded leaves it (and a
 * pod placed again is counted once), whatever the selector anchors on (a
 * matchLabels pair, an In expression, matchLabelKeys, or nothing).
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "schedtest.h"
#include "sched/statement.h"

#define GI (1024LL * 1024 * 1024)

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

TestSuite(predicates_index, .init = setup, .fini = teardown);

static void open_predicates(void)
{
	st_open_plugin(&sched, &cl, "predicates", "{}", &ssn);
	sched_up = true;
}

static struct vs_node *node(const char *name, const char *zone)
{
	struct vs_kv_spec labels[] = { { "host", name }, { "zone", zone } };
	struct vs_node_spec spec;
	struct vs_node *n;
	struct vs_err e = { { 0 } };

	vs_node_spec_init(&spec, name);
	vs_res_set(&spec.allocatable, VS_RES_CPU, 8000);
	vs_res_set(&spec.allocatable, VS_RES_MEMORY, 16 * GI);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
	spec.labels = labels;
	spec.nr_labels = ARRAY_SIZE(labels);
	cr_assert_eq(vs_node_add(&cl, &spec, &n, &e), 0, "%s", e.msg);
	return n;
}

struct pod_opts {
	const struct vs_kv_spec *labels;
	u32 nr_labels;
	const struct vs_affinity_spec *aff;
	const struct vs_spread_constraint_spec *spread;
	const char *on;
};

static struct vs_task *pod(const char *name, struct pod_opts o)
{
	struct vs_task_spec spec;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, "ns", name, "j");
	vs_res_set(&spec.req, VS_RES_CPU, 100);
	spec.labels = o.labels;
	spec.nr_labels = o.nr_labels;
	spec.affinity = o.aff;
	spec.spread = o.spread;
	spec.nr_spread = o.spread ? 1 : 0;
	if (o.on) {
		spec.status = VS_TASK_RUNNING;
		spec.node = o.on;
	}
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);
	return t;
}

static struct vs_fit_error fe;

static const char *refusal(const struct vs_task *t, const struct vs_node *n)
{
	return st_refusal(ssn, t, n, &fe);
}

#define ANTI		"node(s) didn't match pod anti-affinity rules"
#define EXISTING	"node(s) didn't satisfy existing pods anti-affinity rules"
#define SPREAD		"node(s) didn't match pod topology spread constraints"

static const struct vs_kv_spec web[] = { { "app", "web" } };
static const struct vs_label_selector_spec sel_web = { web, 1, NULL, 0 };
static const struct vs_pod_affinity_term_spec web_host[] = {
	{ &sel_web, NULL, 0, NULL, "host" },
};
static const struct vs_pod_affinity_spec apart_web = { web_host, 1, NULL, 0 };
static const struct vs_affinity_spec aff_apart_web = { NULL, NULL, &apart_web };

Test(predicates_index, a_discarded_placement_leaves_and_a_new_one_joins)
{
	struct vs_node *a = node("a", "z1"), *b = node("b", "z1");
	struct vs_task *w = pod("w", (struct pod_opts){ .labels = web, .nr_labels = 1 });
	struct vs_task *t = pod("t", (struct pod_opts){ .aff = &aff_apart_web });
	struct vs_statement *stmt;

	open_predicates();
	/* the key is indexed now, with no web pod on a node */
	cr_assert_null(refusal(t, a));
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, w, a, NULL), 0);
	cr_assert_str_eq(refusal(t, a), ANTI, "a web pod placed joins the index");
	cr_assert_null(refusal(t, b));
	vs_stmt_discard(stmt);
	cr_assert_null(refusal(t, a), "a discarded placement leaves it");
	cr_assert_eq(vs_stmt_allocate(stmt, w, b, NULL), 0);
	cr_assert_null(refusal(t, a));
	cr_assert_str_eq(refusal(t, b), ANTI);
	vs_stmt_discard(stmt);
	vs_session_close(ssn);
}

Test(predicates_index, existing_anti_affinity_placed_in_the_session_repels_until_discarded)
{
	struct vs_node *a = node("a", "z1");
	struct vs_task *t = pod("t", (struct pod_opts){ .labels = web, .nr_labels = 1 });
	struct vs_task *loner = pod("loner", (struct pod_opts){ .aff = &aff_apart_web });
	struct vs_statement *stmt;

	/* a hosts a pod with required anti-affinity at open */
	pod("first", (struct pod_opts){ .aff = &aff_apart_web, .on = "a" });
	open_predicates();
	cr_assert_str_eq(refusal(t, a), EXISTING);
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_evict(stmt, vs_task_find(&cl, "ns", "first"), "preempt", NULL), 0);
	cr_assert_null(refusal(t, a), "the only repelling pod is going");
	cr_assert_eq(vs_stmt_allocate(stmt, loner, a, NULL), 0);
	cr_assert_str_eq(refusal(t, a), EXISTING, "a loner placed on a node listed at open");
	vs_stmt_discard(stmt);
	cr_assert_str_eq(refusal(t, a), EXISTING, "the eviction undone too");
	vs_session_close(ssn);
}

/* Selectors anchored on an In expression, and on nothing (NotIn alone). */
Test(predicates_index, in_and_unanchored_selectors_find_their_pods)
{
	static const char *const vals[] = { "db", "web" };
	static const char *const cache[] = { "cache" };
	static const struct vs_sel_req_spec in_web[] = { { "app", VS_SEL_IN, vals, 2 } };
	static const struct vs_sel_req_spec not_cache[] = { { "app", VS_SEL_NOT_IN, cache, 1 } };
	static const struct vs_label_selector_spec s_in = { NULL, 0, in_web, 1 };
	static const struct vs_label_selector_spec s_not = { NULL, 0, not_cache, 1 };
	static const struct vs_pod_affinity_term_spec t_in[] = { { &s_in, NULL, 0, NULL, "host" } };
	static const struct vs_pod_affinity_term_spec t_not[] = { { &s_not, NULL, 0, NULL, "host" } };
	static const struct vs_pod_affinity_spec p_in = { t_in, 1, NULL, 0 };
	static const struct vs_pod_affinity_spec p_not = { t_not, 1, NULL, 0 };
	static const struct vs_affinity_spec a_in = { NULL, NULL, &p_in };
	static const struct vs_affinity_spec a_not = { NULL, NULL, &p_not };
	static const struct vs_kv_spec cache_l[] = { { "app", "cache" } };
	struct vs_node *a = node("a", "z1"), *b = node("b", "z1"), *c = node("c", "z1");
	struct vs_node *d = node("d", "z1");
	struct vs_task *t_i = pod("ti", (struct pod_opts){ .aff = &a_in });
	struct vs_task *t_n = pod("tn", (struct pod_opts){ .aff = &a_not });
	struct vs_task *t_web = pod("tw", (struct pod_opts){ .labels = web, .nr_labels = 1 });
	struct vs_task *t_cache = pod("tc", (struct pod_opts){ .labels = cache_l, .nr_labels = 1 });

	pod("w", (struct pod_opts){ .labels = web, .nr_labels = 1, .on = "a" });
	pod("k", (struct pod_opts){ .labels = cache_l, .nr_labels = 1, .on = "b" });
	/* an existing pod's anti-affinity under an In anchor */
	pod("g", (struct pod_opts){ .aff = &a_in, .on = "d" });
	open_predicates();
	cr_assert_str_eq(refusal(t_i, a), ANTI);
	cr_assert_null(refusal(t_i, b), "cache is not In (db, web)");
	cr_assert_str_eq(refusal(t_n, a), ANTI);
	cr_assert_null(refusal(t_n, b), "cache is not NotIn (cache)");
	cr_assert_null(refusal(t_n, c));
	cr_assert_str_eq(refusal(t_n, d), ANTI, "a pod without the key is NotIn (cache)");
	cr_assert_str_eq(refusal(t_web, d), EXISTING);
	cr_assert_null(refusal(t_cache, d), "cache is not In (db, web)");
	vs_session_close(ssn);
}

static const struct vs_spread_constraint_spec zone_web = {
	.max_skew = 1, .topology_key = "zone", .when = VS_SPREAD_DO_NOT_SCHEDULE,
	.selector = &sel_web,
};

Test(predicates_index, a_pod_placed_again_is_counted_once)
{
	struct vs_node *a = node("a", "z1"), *c = node("c", "z2");
	struct vs_task *w1 = pod("w1", (struct pod_opts){ .labels = web, .nr_labels = 1 });
	struct vs_task *w2 = pod("w2", (struct pod_opts){ .labels = web, .nr_labels = 1 });
	struct vs_task *t = pod("t", (struct pod_opts){ .labels = web, .nr_labels = 1,
							.spread = &zone_web });
	struct vs_statement *stmt;

	open_predicates();
	cr_assert_null(refusal(t, a));
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, w1, a, NULL), 0);
	cr_assert_str_eq(refusal(t, a), SPREAD, "z1 has 1, z2 none");
	cr_assert_null(refusal(t, c));
	vs_stmt_discard(stmt);
	cr_assert_eq(vs_stmt_allocate(stmt, w1, a, NULL), 0);
	cr_assert_eq(vs_stmt_allocate(stmt, w2, c, NULL), 0);
	/* z1 1, z2 1: either; z1 counted twice would refuse it */
	cr_assert_null(refusal(t, a));
	cr_assert_null(refusal(t, c));
	vs_stmt_discard(stmt);
	vs_session_close(ssn);
}

/* A domain of more nodes than a byte counts is one domain. */
Test(predicates_index, a_zone_of_many_nodes_is_one_domain)
{
	struct vs_node *first = NULL, *c;
	struct vs_task *t = pod("t", (struct pod_opts){ .labels = web, .nr_labels = 1,
							.spread = &zone_web });
	char name[16];

	for (u32 i = 0; i < 300; i++) {
		struct vs_node *n;

		snprintf(name, sizeof(name), "a%u", i);
		n = node(name, "z1");
		if (!first)
			first = n;
	}
	c = node("c", "z2");
	pod("w1", (struct pod_opts){ .labels = web, .nr_labels = 1, .on = "a0" });
	pod("w2", (struct pod_opts){ .labels = web, .nr_labels = 1, .on = "c" });
	open_predicates();
	/* two domains of one pod each: the emptiest holds 1, skew 1 + 1 - 1 */
	cr_assert_null(refusal(t, first));
	cr_assert_null(refusal(t, c));
	vs_session_close(ssn);
}

/* matchLabelKeys alone: the task's value of the key is the anchor. */
Test(predicates_index, match_label_keys_anchor_on_the_tasks_value)
{
	static const char *const keys[] = { "app" };
	static const struct vs_label_selector_spec everything = { NULL, 0, NULL, 0 };
	static const struct vs_spread_constraint_spec by_app = {
		.max_skew = 1, .topology_key = "zone", .when = VS_SPREAD_DO_NOT_SCHEDULE,
		.selector = &everything, .match_label_keys = keys, .nr_match_label_keys = 1,
	};
	static const struct vs_kv_spec db[] = { { "app", "db" } };
	struct vs_node *a = node("a", "z1"), *c = node("c", "z2");
	struct vs_task *t = pod("t", (struct pod_opts){ .labels = web, .nr_labels = 1,
							.spread = &by_app });

	pod("w", (struct pod_opts){ .labels = web, .nr_labels = 1, .on = "a" });
	pod("d1", (struct pod_opts){ .labels = db, .nr_labels = 1, .on = "c" });
	pod("d2", (struct pod_opts){ .labels = db, .nr_labels = 1, .on = "c" });
	open_predicates();
	cr_assert_str_eq(refusal(t, a), SPREAD, "web: z1 1, z2 0");
	cr_assert_null(refusal(t, c), "the db pods are not counted");
	vs_session_close(ssn);
}

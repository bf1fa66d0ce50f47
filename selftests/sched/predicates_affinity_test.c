// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the predicates plugin's affinity filters: required node
 * affinity, and kube-scheduler's InterPodAffinity filter (the task's
 * required pod affinity, the first pod of a self-attracting group, its
 * required anti-affinity, and existing pods' anti-affinity against it),
 * each with its message, and the arguments that switch them off.
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
	struct vs_job_spec js;

	st_cluster_one_job(&cl);
	vs_job_spec_init(&js, "other", "j");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	sched_up = false;
}

static void teardown(void)
{
	if (sched_up)
		vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(predicates_affinity, .init = setup, .fini = teardown);

/* Only the predicates plugin, with @args (a YAML flow mapping) as its arguments. */
static void open_with(const char *args)
{
	st_open_plugin(&sched, &cl, "predicates", args, &ssn);
	sched_up = true;
}

static struct vs_node *node(const char *name, const struct vs_kv_spec *labels, u32 nr)
{
	struct vs_node_spec spec;
	struct vs_node *n;
	struct vs_err e = { { 0 } };

	vs_node_spec_init(&spec, name);
	vs_res_set(&spec.allocatable, VS_RES_CPU, 8000);
	vs_res_set(&spec.allocatable, VS_RES_MEMORY, 16 * GI);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
	spec.labels = labels;
	spec.nr_labels = nr;
	cr_assert_eq(vs_node_add(&cl, &spec, &n, &e), 0, "%s", e.msg);
	return n;
}

static struct vs_task *pod(const char *ns, const char *name, const struct vs_kv_spec *labels,
			   const struct vs_affinity_spec *aff, const char *on)
{
	struct vs_task_spec spec;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, ns, name, "j");
	vs_res_set(&spec.req, VS_RES_CPU, 100);
	spec.labels = labels;
	spec.nr_labels = labels ? 1 : 0;
	spec.affinity = aff;
	if (on) {
		spec.status = VS_TASK_RUNNING;
		spec.node = on;
	}
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);
	return t;
}

static struct vs_fit_error fe;

static const char *refusal(const struct vs_task *t, const struct vs_node *n)
{
	return st_refusal(ssn, t, n, &fe);
}

#define AFFINITY	"node(s) didn't match pod affinity rules"
#define ANTI		"node(s) didn't match pod anti-affinity rules"
#define EXISTING	"node(s) didn't satisfy existing pods anti-affinity rules"
#define NODE_AFFINITY	"node(s) didn't match Pod's node affinity/selector"

static const struct vs_kv_spec web[] = { { "app", "web" } }, db[] = { { "app", "db" } };
static const struct vs_label_selector_spec sel_web = { web, 1, NULL, 0 };
static const struct vs_pod_affinity_term_spec web_zone[] = {
	{ &sel_web, NULL, 0, NULL, "zone" },
};
static const struct vs_pod_affinity_term_spec web_host[] = {
	{ &sel_web, NULL, 0, NULL, "host" },
};
static const struct vs_pod_affinity_spec near_web = { web_zone, 1, NULL, 0 };
static const struct vs_pod_affinity_spec apart_web = { web_host, 1, NULL, 0 };
static const struct vs_affinity_spec aff_near_web = { NULL, &near_web, NULL };
static const struct vs_affinity_spec aff_apart_web = { NULL, NULL, &apart_web };

static struct vs_node *n_a, *n_b, *n_c, *n_bare;

/* a and b in zone z1, c in z2, bare without any label. */
static void topology(void)
{
	static const struct vs_kv_spec a[] = { { "host", "a" }, { "zone", "z1" } };
	static const struct vs_kv_spec b[] = { { "host", "b" }, { "zone", "z1" } };
	static const struct vs_kv_spec c[] = { { "host", "c" }, { "zone", "z2" } };

	n_a = node("a", a, 2);
	n_b = node("b", b, 2);
	n_c = node("c", c, 2);
	n_bare = node("bare", NULL, 0);
}

Test(predicates_affinity, required_node_affinity_filters_with_the_selector_message)
{
	const char *const vals[] = { "z1" };
	const struct vs_sel_req_spec req = { "zone", VS_SEL_IN, vals, 1 };
	const struct vs_node_selector_term_spec term = { &req, 1, NULL, 0 };
	const struct vs_node_selector_spec ns = { &term, 1 };
	const struct vs_node_affinity_spec na = { &ns, NULL, 0 };
	const struct vs_affinity_spec aff = { &na, NULL, NULL };
	struct vs_task *t;

	topology();
	t = pod("ns", "t", NULL, &aff, NULL);
	open_with("{}");
	cr_assert_null(refusal(t, n_a));
	cr_assert_str_eq(refusal(t, n_c), NODE_AFFINITY);
	cr_assert(fe.unresolvable);
	cr_assert_str_eq(refusal(t, n_bare), NODE_AFFINITY);
	vs_session_close(ssn);
	vs_sched_destroy(&sched);
	sched_up = false;

	open_with("{predicate.NodeAffinityEnable: false}");
	cr_assert_null(refusal(t, n_c));
	vs_session_close(ssn);
}

Test(predicates_affinity, pod_affinity_needs_a_matching_pod_in_the_topology)
{
	struct vs_task *t;

	topology();
	pod("ns", "web", web, NULL, "a");
	pod("other", "web", web, NULL, "c");	/* another namespace: not looked at */
	t = pod("ns", "t", NULL, &aff_near_web, NULL);
	open_with("{}");
	cr_assert_null(refusal(t, n_a));
	cr_assert_null(refusal(t, n_b), "same zone as the web pod");
	cr_assert_str_eq(refusal(t, n_c), AFFINITY);
	cr_assert(fe.unresolvable, "UnschedulableAndUnresolvable");
	cr_assert_str_eq(refusal(t, n_bare), AFFINITY, "the topology key must be on the node");
	vs_session_close(ssn);
}

Test(predicates_affinity, first_pod_of_a_self_attracting_group_goes_anywhere_with_the_key)
{
	struct vs_task *self, *stranger;

	topology();
	pod("ns", "db", db, NULL, "a");
	self = pod("ns", "self", web, &aff_near_web, NULL);
	stranger = pod("ns", "stranger", db, &aff_near_web, NULL);
	open_with("{}");
	cr_assert_null(refusal(self, n_a));
	cr_assert_null(refusal(self, n_c));
	cr_assert_str_eq(refusal(self, n_bare), AFFINITY);
	cr_assert_str_eq(refusal(stranger, n_a), AFFINITY, "it does not match its own terms");
	vs_session_close(ssn);
}

Test(predicates_affinity, once_a_group_pod_exists_the_rest_follow_it)
{
	struct vs_statement *stmt;
	struct vs_task *first, *second;

	topology();
	first = pod("ns", "first", web, &aff_near_web, NULL);
	second = pod("ns", "second", web, &aff_near_web, NULL);
	open_with("{}");
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, first, n_c, NULL), 0);
	cr_assert_null(refusal(second, n_c));
	cr_assert_str_eq(refusal(second, n_a), AFFINITY);
	vs_stmt_discard(stmt);
	cr_assert_null(refusal(second, n_a), "the placement was undone");
	vs_session_close(ssn);
}

Test(predicates_affinity, pod_anti_affinity_keeps_off_the_topology_of_matching_pods)
{
	struct vs_task *t;

	topology();
	pod("ns", "web", web, NULL, "a");
	t = pod("ns", "t", NULL, &aff_apart_web, NULL);
	open_with("{}");
	cr_assert_str_eq(refusal(t, n_a), ANTI);
	cr_assert_not(fe.unresolvable, "preemption could help");
	cr_assert_null(refusal(t, n_b));
	cr_assert_null(refusal(t, n_bare));
	vs_session_close(ssn);
}

Test(predicates_affinity, existing_pods_anti_affinity_repels_matching_tasks)
{
	const struct vs_label_selector_spec all = { NULL, 0, NULL, 0 };
	const struct vs_pod_affinity_term_spec zone_all_ns[] = {
		{ &sel_web, NULL, 0, &all, "zone" },
	};
	const struct vs_pod_affinity_spec apart = { zone_all_ns, 1, NULL, 0 };
	const struct vs_affinity_spec aff = { NULL, NULL, &apart };
	struct vs_task *t, *other_ns, *plain;

	topology();
	pod("ns", "loner", NULL, &aff, "a");
	t = pod("ns", "t", web, NULL, NULL);
	other_ns = pod("other", "t", web, NULL, NULL);
	plain = pod("ns", "plain", db, NULL, NULL);
	open_with("{}");
	cr_assert_str_eq(refusal(t, n_a), EXISTING);
	cr_assert_not(fe.unresolvable);
	cr_assert_str_eq(refusal(t, n_b), EXISTING, "same zone");
	cr_assert_str_eq(refusal(other_ns, n_b), EXISTING, "namespaceSelector {}: all");
	cr_assert_null(refusal(t, n_c));
	cr_assert_null(refusal(plain, n_a));
	vs_session_close(ssn);
	vs_sched_destroy(&sched);
	sched_up = false;

	open_with("{predicate.PodAffinityEnable: false}");
	cr_assert_null(refusal(t, n_a));
	vs_session_close(ssn);
}

Test(predicates_affinity, existing_anti_affinity_is_looked_for_where_it_was_at_session_open)
{
	struct vs_statement *stmt;
	struct vs_task *loner, *t;

	topology();
	loner = pod("ns", "loner", NULL, &aff_apart_web, NULL);
	t = pod("ns", "t", web, NULL, NULL);
	open_with("{}");
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, loner, n_a, NULL), 0);
	/* Volcano's HavePodsWithRequiredAntiAffinityList was built before */
	cr_assert_null(refusal(t, n_a));
	vs_stmt_commit(stmt);
	vs_session_close(ssn);

	cr_assert_eq(vs_session_open(&sched, &ssn, NULL), 0);
	cr_assert_str_eq(refusal(t, n_a), EXISTING);
	vs_session_close(ssn);
}

Test(predicates_affinity, predicate_without_pre_predicate_gathers_on_its_own)
{
	struct vs_task *t;

	topology();
	pod("ns", "web", web, NULL, "a");
	t = pod("ns", "t", NULL, &aff_apart_web, NULL);
	open_with("{}");
	memset(&fe, 0, sizeof(fe));
	cr_assert_eq(vs_ssn_predicate(ssn, t, n_a, &fe), -EINVAL);
	cr_assert_str_eq(fe.reason, ANTI);
	cr_assert_eq(vs_ssn_predicate(ssn, t, n_b, &fe), 0);
	vs_session_close(ssn);
}

static const struct vs_label_selector_spec sel_db = { db, 1, NULL, 0 };
static const struct vs_pod_affinity_term_spec db_host[] = {
	{ &sel_db, NULL, 0, NULL, "host" },
};
static const struct vs_pod_affinity_spec apart_db = { db_host, 1, NULL, 0 };
static const struct vs_affinity_spec aff_apart_db = { NULL, NULL, &apart_db };

Test(predicates_affinity, an_eviction_undone_brings_back_that_pod_alone)
{
	struct vs_statement *s_web, *s_db;
	struct vs_task *w, *d, *t, *u;

	topology();
	w = pod("ns", "web", web, NULL, "a");
	d = pod("ns", "db", db, NULL, "a");
	t = pod("ns", "t", NULL, &aff_apart_web, NULL);
	u = pod("ns", "u", NULL, &aff_apart_db, NULL);
	open_with("{}");
	cr_assert_str_eq(refusal(t, n_a), ANTI);
	cr_assert_str_eq(refusal(u, n_a), ANTI);
	/* web evicted first, db after it: db's entry is ahead of web's on a's list */
	s_web = vs_stmt_new(ssn);
	s_db = vs_stmt_new(ssn);
	cr_assert(s_web && s_db);
	cr_assert_eq(vs_stmt_evict(s_web, w, "preempt", NULL), 0);
	cr_assert_eq(vs_stmt_evict(s_db, d, "preempt", NULL), 0);
	cr_assert_null(refusal(t, n_a), "web is going");
	cr_assert_null(refusal(u, n_a), "db is going");
	/* web back: its anti-affinity counts again; db is still going */
	vs_stmt_discard(s_web);
	cr_assert_str_eq(refusal(t, n_a), ANTI);
	cr_assert_null(refusal(u, n_a), "db is still going");
	vs_stmt_discard(s_db);
	cr_assert_str_eq(refusal(u, n_a), ANTI);
	vs_session_close(ssn);
}

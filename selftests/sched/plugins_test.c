// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the predicates, drf and overcommit plugins, each called through
 * the framework in a session opened on a small cluster: the filters and
 * their kube-scheduler messages, DRF's job order following the session's
 * allocations, and overcommit's admission arithmetic.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "schedtest.h"
#include "testreg.h"
#include "sched/statement.h"

#define GI (1024LL * 1024 * 1024)

static struct vs_cluster cl;
static struct vs_sched sched;
static struct vs_session *ssn;

static struct vs_res res(s64 mcpu, s64 mem)
{
	struct vs_res r;

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, mcpu);
	vs_res_set(&r, VS_RES_MEMORY, mem);
	return r;
}

static void setup(void)
{
	struct vs_queue_spec qs;

	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_queue_spec_init(&qs, "default");
	cr_assert_eq(vs_queue_add(&cl, &qs, NULL, NULL), 0);
}

static void teardown(void)
{
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(plugins, .init = setup, .fini = teardown);

static void open_with(const char *text)
{
	st_open(&sched, &cl, text, &ssn);
}

static struct vs_node *node(const char *name, const struct vs_kv_spec *labels, u32 nr_labels,
			    const struct vs_taint_spec *taints, u32 nr_taints, s64 pods)
{
	struct vs_node_spec spec;
	struct vs_node *n;
	struct vs_err e = { { 0 } };

	vs_node_spec_init(&spec, name);
	spec.allocatable = res(8000, 16 * GI);
	vs_res_set(&spec.allocatable, VS_RES_PODS, pods);
	spec.labels = labels;
	spec.nr_labels = nr_labels;
	spec.taints = taints;
	spec.nr_taints = nr_taints;
	cr_assert_eq(vs_node_add(&cl, &spec, &n, &e), 0, "%s", e.msg);
	return n;
}

static struct vs_job *job(const char *name, bool min_res, s64 min_mcpu)
{
	struct vs_job_spec spec;
	struct vs_job *j;

	vs_job_spec_init(&spec, "ns", name);
	spec.has_min_resources = min_res;
	spec.min_resources = res(min_mcpu, 0);
	cr_assert_eq(vs_job_add(&cl, &spec, &j, NULL), 0);
	return j;
}

static struct vs_task *task(const char *name, const char *jname, s64 mcpu,
			    const struct vs_kv_spec *sel, u32 nr_sel,
			    const struct vs_toleration_spec *tols, u32 nr_tols)
{
	struct vs_task_spec spec;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, "ns", name, jname);
	spec.req = res(mcpu, GI);
	spec.node_selector = sel;
	spec.nr_node_selector = nr_sel;
	spec.tolerations = tols;
	spec.nr_tolerations = nr_tols;
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);
	return t;
}

static const char *refusal(const struct vs_task *t, const struct vs_node *n)
{
	static struct vs_fit_error fe;

	memset(&fe, 0, sizeof(fe));
	if (!vs_ssn_predicate(ssn, t, n, &fe))
		return NULL;
	return fe.reason;
}

static const char predicates_conf[] =
	"actions: allocate\ntiers:\n- plugins:\n  - name: predicates\n";

Test(plugins, predicates_filter_with_kube_scheduler_messages)
{
	const struct vs_kv_spec zone_a[] = { { "zone", "a" } };
	const struct vs_taint_spec gpu[] = { { "dedicated", "gpu", VS_TAINT_NO_SCHEDULE } };
	const struct vs_taint_spec soft[] = { { "spot", "", VS_TAINT_PREFER_NO_SCHEDULE } };
	const struct vs_toleration_spec tol[] = {
		{ "dedicated", VS_TOLERATION_EQUAL, "gpu", VS_TAINT_NO_SCHEDULE, false, 0 },
	};
	struct vs_node *plain, *tainted, *prefer, *full;
	struct vs_task *t, *tolerant;

	plain = node("plain", zone_a, 1, NULL, 0, 110);
	tainted = node("tainted", zone_a, 1, gpu, 1, 110);
	prefer = node("prefer", zone_a, 1, soft, 1, 110);
	full = node("full", zone_a, 1, NULL, 0, 0);
	job("j", false, 0);
	t = task("t", "j", 1000, zone_a, 1, NULL, 0);
	tolerant = task("tol", "j", 1000, NULL, 0, tol, 1);
	open_with(predicates_conf);

	cr_assert_null(refusal(t, plain));
	cr_assert_str_eq(refusal(t, tainted), "node(s) had untolerated taint {dedicated: gpu}");
	cr_assert_null(refusal(tolerant, tainted));
	cr_assert_null(refusal(t, prefer), "PreferNoSchedule does not filter");
	cr_assert_str_eq(refusal(t, full), "node(s) pod number exceeded");
	vs_session_close(ssn);
}

Test(plugins, predicates_selector_unschedulable_and_not_ready)
{
	const struct vs_kv_spec zone_a[] = { { "zone", "a" } }, zone_b[] = { { "zone", "b" } };
	const struct vs_toleration_spec not_ready_tol[] = {
		{ "node.kubernetes.io/not-ready", VS_TOLERATION_EXISTS, NULL, VS_TAINT_EFFECT_ALL,
		  false, 0 },
	};
	struct vs_node *b = node("b", zone_b, 1, NULL, 0, 110);
	struct vs_node *n = node("n", zone_a, 1, NULL, 0, 110);
	struct vs_node_spec spec;
	struct vs_task *t, *tolerant;
	struct vs_fit_error fe = { .reason = { 0 } };

	job("j", false, 0);
	t = task("t", "j", 1000, zone_a, 1, NULL, 0);
	tolerant = task("tol", "j", 1000, NULL, 0, not_ready_tol, 1);
	open_with(predicates_conf);
	cr_assert_str_eq(refusal(t, b), "node(s) didn't match Pod's node affinity/selector");
	cr_assert_eq(vs_ssn_predicate(ssn, t, b, &fe), -EINVAL);
	cr_assert(fe.unresolvable, "a selector mismatch cannot be fixed by preemption");
	vs_session_close(ssn);

	vs_node_spec_init(&spec, "n");
	spec.allocatable = n->allocatable;
	spec.labels = zone_a;
	spec.nr_labels = 1;
	spec.unschedulable = true;
	cr_assert_eq(vs_node_update(&cl, n, &spec, NULL), 0);
	cr_assert_eq(vs_session_open(&sched, &ssn, NULL), 0);
	cr_assert_str_eq(refusal(t, n), "node(s) were unschedulable");
	vs_session_close(ssn);

	spec.unschedulable = false;
	spec.ready = false;
	cr_assert_eq(vs_node_update(&cl, n, &spec, NULL), 0);
	cr_assert_eq(vs_session_open(&sched, &ssn, NULL), 0);
	cr_assert_str_eq(refusal(t, n),
			 "node(s) had untolerated taint {node.kubernetes.io/not-ready: }");
	cr_assert_null(refusal(tolerant, n));
	vs_session_close(ssn);
}

Test(plugins, predicates_filters_can_be_switched_off_by_argument)
{
	const struct vs_kv_spec zone_a[] = { { "zone", "a" } }, zone_b[] = { { "zone", "b" } };
	const struct vs_taint_spec gpu[] = { { "dedicated", "gpu", VS_TAINT_NO_SCHEDULE } };
	struct vs_node *b = node("b", zone_b, 1, gpu, 1, 110);
	struct vs_task *t;

	job("j", false, 0);
	t = task("t", "j", 1000, zone_a, 1, NULL, 0);
	open_with("actions: allocate\ntiers:\n- plugins:\n  - name: predicates\n    arguments:\n"
		  "      predicate.NodeAffinityEnable: false\n"
		  "      predicate.TaintTolerationEnable: false\n");
	cr_assert_null(refusal(t, b));
	vs_session_close(ssn);
}

Test(plugins, predicates_refuse_a_mistyped_argument_at_load)
{
	static const char text[] = "actions: allocate\ntiers:\n- plugins:\n  - name: predicates\n"
				   "    arguments: {predicate.CacheEnable: sometimes}\n";
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, NULL), 0);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "plugin predicates: t.conf:5: argument \"predicate.CacheEnable\": "
			 "expected true or false, got \"sometimes\"");
}

Test(plugins, drf_orders_jobs_by_dominant_share_as_the_session_allocates)
{
	struct vs_node *n = node("n", NULL, 0, NULL, 0, 110);
	struct vs_job *a, *b;
	struct vs_task *a0, *b0, *b1;
	struct vs_statement *stmt;

	a = job("a", false, 0);
	b = job("b", false, 0);
	a0 = task("a0", "a", 2000, NULL, 0, NULL, 0);
	b0 = task("b0", "b", 1000, NULL, 0, NULL, 0);
	b1 = task("b1", "b", 1000, NULL, 0, NULL, 0);
	cr_assert_eq(vs_task_place(&cl, a0, n, VS_TASK_RUNNING, NULL), 0);
	open_with("actions: allocate\ntiers:\n- plugins:\n  - name: drf\n");

	/* a holds 2 of 8 cpu, b nothing: b first */
	cr_assert_gt(vs_ssn_job_order(ssn, a, b), 0);
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, b0, n, NULL), 0);
	cr_assert_eq(vs_stmt_allocate(stmt, b1, n, NULL), 0);
	/* both hold 2 cpu now: equal, left to creation order */
	cr_assert_eq(vs_ssn_job_order(ssn, a, b), 0 - 1);
	vs_stmt_discard(stmt);
	cr_assert_gt(vs_ssn_job_order(ssn, a, b), 0, "the discard gave b's share back");
	vs_session_close(ssn);
}

/*
 * A job's allocated in DRF past INT64_MAX, then a discard: its share must
 * come back to what it holds (a saturated total stayed "unlimited").
 */
Test(plugins, drf_share_comes_back_after_a_discard_past_int64_max)
{
	struct vs_node_spec spec;
	struct vs_task_spec ts;
	struct vs_job *a, *b;
	struct vs_task *t[3];
	struct vs_statement *stmt;
	struct vs_node *n;
	static const struct { const char *name, *job; s64 mem; } tasks[] = {
		{ "a0", "a", 6LL << 60 }, { "b0", "b", 5LL << 60 }, { "b1", "b", 5LL << 60 },
	};

	vs_node_spec_init(&spec, "n");
	spec.allocatable = res(8000, 7LL << 60);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
	cr_assert_eq(vs_node_add(&cl, &spec, &n, NULL), 0);
	a = job("a", false, 0);
	b = job("b", false, 0);
	for (int i = 0; i < 3; i++) {
		vs_task_spec_init(&ts, "ns", tasks[i].name, tasks[i].job);
		ts.req = res(0, tasks[i].mem);
		cr_assert_eq(vs_task_add(&cl, &ts, &t[i], NULL), 0);
	}
	/* more than the node has, as a kubelet may report it */
	cr_assert_eq(vs_task_place(&cl, t[0], n, VS_TASK_RUNNING, NULL), 0);
	cr_assert_eq(vs_task_place(&cl, t[1], n, VS_TASK_RUNNING, NULL), 0);
	open_with("actions: allocate\ntiers:\n- plugins:\n  - name: drf\n");

	/* a holds 6 of 7 EiB, b 5: b first */
	cr_assert_gt(vs_ssn_job_order(ssn, a, b), 0);
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, t[2], n, NULL), 0);
	cr_assert_lt(vs_ssn_job_order(ssn, a, b), 0, "b holds 10 EiB: a first");
	vs_stmt_discard(stmt);
	cr_assert_gt(vs_ssn_job_order(ssn, a, b), 0, "the discard gave b's share back");
	vs_session_close(ssn);
}

Test(plugins, drf_refuses_hierarchy_until_it_is_supported)
{
	static const char text[] = "actions: allocate\ntiers:\n- plugins:\n  - name: drf\n"
				   "    enableHierarchy: true\n";
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, NULL), 0);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), -EOPNOTSUPP);
	cr_assert(strstr(e.msg, "t.conf:4: enableHierarchy"), "%s", e.msg);
}

Test(plugins, overcommit_admits_while_min_resources_fit_the_overcommitted_idle)
{
	struct vs_job *fits, *too_big, *second;

	node("n", NULL, 0, NULL, 0, 110);		/* 8 cpu, x1.2 = 9.6 */
	fits = job("fits", true, 6000);
	too_big = job("big", true, 10000);
	second = job("second", true, 4000);
	open_with("actions: enqueue\ntiers:\n- plugins:\n  - name: overcommit\n");

	cr_assert(vs_ssn_job_enqueueable(ssn, fits));
	cr_assert_not(vs_ssn_job_enqueueable(ssn, too_big));
	cr_assert(vs_ssn_job_enqueueable(ssn, second));
	vs_ssn_job_enqueued(ssn, fits);		/* 6 of 9.6 admitted */
	cr_assert_not(vs_ssn_job_enqueueable(ssn, second), "6 + 4 > 9.6");
	vs_session_close(ssn);
}

Test(plugins, overcommit_factor_is_read_and_checked)
{
	static const char bad[] = "actions: enqueue\ntiers:\n- plugins:\n  - name: overcommit\n"
				  "    arguments: {overcommit-factor: 0.5}\n";
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };
	struct vs_job *j;

	node("n", NULL, 0, NULL, 0, 110);
	j = job("j", true, 15000);
	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(bad, strlen(bad), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, NULL), 0);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "plugin overcommit: t.conf:5: overcommit-factor 0.5 cannot be less than 1");
	vs_sched_destroy(&sched);

	open_with("actions: enqueue\ntiers:\n- plugins:\n  - name: overcommit\n"
		  "    arguments: {overcommit-factor: 2}\n");
	cr_assert(vs_ssn_job_enqueueable(ssn, j), "15 cpu fit 8 x 2");
	vs_session_close(ssn);
}

/* A task of @mcpu/@mem on node n (4 cpu, 8Gi) that already uses 1 cpu and 2Gi. */
static double binpack_score(const char *conf_text, s64 mcpu, s64 mem)
{
	struct vs_node *n = vs_node_find(&cl, "n");
	struct vs_task_spec spec;
	struct vs_task *t;
	double score;

	if (!n) {
		struct vs_node_spec ns;

		vs_node_spec_init(&ns, "n");
		ns.allocatable = res(4000, 8 * GI);
		vs_res_set(&ns.allocatable, VS_RES_PODS, 110);
		cr_assert_eq(vs_node_add(&cl, &ns, &n, NULL), 0);
		job("j", false, 0);
		vs_task_spec_init(&spec, "ns", "running", "j");
		spec.req = res(1000, 2 * GI);
		spec.status = VS_TASK_RUNNING;
		spec.node = "n";
		cr_assert_eq(vs_task_add(&cl, &spec, NULL, NULL), 0);
	}
	vs_task_spec_init(&spec, "ns", "t", "j");
	spec.req = res(mcpu, mem);
	cr_assert_eq(vs_task_add(&cl, &spec, &t, NULL), 0);
	open_with(conf_text);
	score = vs_ssn_node_order(ssn, t, n);
	vs_session_close(ssn);
	vs_sched_destroy(&sched);
	vs_task_del(&cl, t);
	return score;
}

Test(plugins, binpack_scores_how_full_the_node_would_be)
{
	/* cpu (1+1)/4 = 0.5, memory (2+2)/8 = 0.5: 0.5 * 100 */
	cr_assert_float_eq(binpack_score("actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n",
					 1000, 2 * GI), 50.0, 1e-9);
	/* weights cpu 5, memory 1, overall 10: (0.5*5 + 0.5*1) / 6 * 1000 = 500 */
	cr_assert_float_eq(binpack_score("actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n"
					 "    arguments: {binpack.weight: 10, binpack.cpu: 5}\n",
					 1000, 2 * GI), 500.0, 1e-9);
	/* cpu (1+2)/4 = 0.75 with weight 3, memory (2+2)/8 with 1: (2.25 + 0.5) / 4 * 100 */
	cr_assert_float_eq(binpack_score("actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n"
					 "    arguments: {binpack.cpu: 3}\n",
					 2000, 2 * GI), 68.75, 1e-9);
	/* a task that would overfill the node scores 0 */
	cr_assert_float_eq(binpack_score("actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n",
					 4000, GI), 0.0, 1e-9);
	/* weight 0 switches scoring off */
	cr_assert_float_eq(binpack_score("actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n"
					 "    arguments: {binpack.weight: 0}\n",
					 1000, 2 * GI), 0.0, 1e-9);
}

Test(plugins, binpack_weighs_listed_scalar_resources)
{
	struct vs_node_spec ns;
	struct vs_task_spec spec;
	struct vs_node *n;
	struct vs_task *t;
	int gpu = vs_cluster_dim_get(&cl, "nvidia.com/gpu", 14, NULL);

	cr_assert_geq(gpu, 0);
	vs_node_spec_init(&ns, "g");
	ns.allocatable = res(4000, 8 * GI);
	vs_res_set(&ns.allocatable, VS_RES_PODS, 110);
	vs_res_set(&ns.allocatable, (unsigned int)gpu, 8000);
	cr_assert_eq(vs_node_add(&cl, &ns, &n, NULL), 0);
	job("j", false, 0);
	vs_task_spec_init(&spec, "ns", "t", "j");
	spec.req = res(2000, 4 * GI);
	vs_res_set(&spec.req, (unsigned int)gpu, 2000);
	cr_assert_eq(vs_task_add(&cl, &spec, &t, NULL), 0);
	open_with("actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n"
		  "    arguments: {binpack.resources: \"nvidia.com/gpu\", "
		  "binpack.resources.nvidia.com/gpu: 2}\n");
	/* cpu 2/4, memory 4/8 weight 1 each, gpu 2/8 weight 2: (0.5 + 0.5 + 0.5) / 4 * 100 */
	cr_assert_float_eq(vs_ssn_node_order(ssn, t, n), 37.5, 1e-9);
	vs_session_close(ssn);
}

Test(plugins, binpack_refuses_mistyped_weights_at_load)
{
	static const char text[] = "actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n"
				   "    arguments: {binpack.resources: \"a.b/c\", binpack.resources.a.b/c: x}\n";
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, NULL), 0);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), -EINVAL);
	cr_assert(strstr(e.msg, "argument \"binpack.resources.a.b/c\": expected an integer"), "%s",
		  e.msg);
}

/* A running task of @ns/@jname on @n. */
static struct vs_task *running(const char *ns, const char *name, const char *jname,
			       struct vs_node *n, s32 prio, const char *pclass)
{
	struct vs_task_spec spec;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, ns, name, jname);
	spec.req = res(1000, GI);
	spec.status = VS_TASK_RUNNING;
	spec.node = n->name;
	spec.priority = prio;
	spec.priority_class = pclass;
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);
	return t;
}

static struct vs_job *job_in(const char *ns, const char *name, u32 min_member,
			     const char *pclass)
{
	struct vs_job_spec spec;
	struct vs_job *j;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&spec, ns, name);
	spec.min_member = min_member;
	spec.priority_class = pclass;
	cr_assert_eq(vs_job_add(&cl, &spec, &j, &e), 0, "%s", e.msg);
	return j;
}

Test(plugins, conformance_never_evicts_critical_or_kube_system_pods)
{
	struct vs_node *n = node("n", NULL, 0, NULL, 0, 110);
	struct vs_task *c[4], *preemptor;

	job_in("ns", "j", 1, NULL);
	job_in("kube-system", "sys", 1, NULL);
	c[0] = running("ns", "plain", "j", n, 1, NULL);
	c[1] = running("ns", "cluster-critical", "j", n, 1, "system-cluster-critical");
	c[2] = running("kube-system", "dns", "sys", n, 1, NULL);
	c[3] = running("ns", "node-critical", "j", n, 1, "system-node-critical");
	preemptor = task("p", "j", 1000, NULL, 0, NULL, 0);
	open_with("actions: allocate\ntiers:\n- plugins:\n  - name: conformance\n");
	cr_assert_eq(vs_ssn_preemptable(ssn, preemptor, c, 4), 1);
	cr_assert_str_eq(c[0]->name, "plain");
	vs_session_close(ssn);
}

Test(plugins, gang_keeps_min_available_of_each_job_running)
{
	struct vs_node *n = node("n", NULL, 0, NULL, 0, 110);
	struct vs_task *c[5], *preemptor;

	job_in("ns", "a", 2, NULL);
	job_in("ns", "b", 1, NULL);
	job_in("ns", "p", 1, NULL);
	c[0] = running("ns", "a0", "a", n, 1, NULL);
	c[1] = running("ns", "b0", "b", n, 1, NULL);
	c[2] = running("ns", "a1", "a", n, 1, NULL);
	c[3] = running("ns", "a2", "a", n, 1, NULL);
	c[4] = running("ns", "b1", "b", n, 1, NULL);
	preemptor = task("p0", "p", 1000, NULL, 0, NULL, 0);
	open_with("actions: allocate\ntiers:\n- plugins:\n  - name: gang\n");
	/* a has 3 ready and needs 2: one goes; b has 2 and needs 1: one goes, its first */
	cr_assert_eq(vs_ssn_reclaimable(ssn, preemptor, c, 5), 2);
	cr_assert_str_eq(c[0]->name, "a0");
	cr_assert_str_eq(c[1]->name, "b0");
	vs_session_close(ssn);
}

Test(plugins, priority_preempts_lower_jobs_and_lower_tasks_of_its_own_job)
{
	const struct vs_prioclass_spec high = { .name = "high", .value = 100 };
	const struct vs_prioclass_spec low = { .name = "low", .value = 10 };
	struct vs_node *n = node("n", NULL, 0, NULL, 0, 110);
	struct vs_task *c[4], *preemptor;
	struct vs_task_spec spec;

	cr_assert_eq(vs_prioclass_add(&cl, &high, NULL, NULL), 0);
	cr_assert_eq(vs_prioclass_add(&cl, &low, NULL, NULL), 0);
	job_in("ns", "hi", 1, "high");
	job_in("ns", "hi2", 1, "high");
	job_in("ns", "lo", 1, "low");
	c[0] = running("ns", "same-job-higher", "hi", n, 50, NULL);
	c[1] = running("ns", "low-job", "lo", n, 1000, NULL);
	c[2] = running("ns", "same-job-lower", "hi", n, 5, NULL);
	c[3] = running("ns", "equal-job", "hi2", n, 1, NULL);
	vs_task_spec_init(&spec, "ns", "p", "hi");
	spec.req = res(1000, GI);
	spec.priority = 10;
	cr_assert_eq(vs_task_add(&cl, &spec, &preemptor, NULL), 0);
	open_with("actions: allocate\ntiers:\n- plugins:\n  - name: priority\n");
	cr_assert_eq(vs_ssn_preemptable(ssn, preemptor, c, 4), 2);
	cr_assert_str_eq(c[0]->name, "low-job");
	cr_assert_str_eq(c[1]->name, "same-job-lower");
	cr_assert_eq(vs_ssn_reclaimable(ssn, preemptor, c, 2), 0, "priority has no say on reclaim");
	vs_session_close(ssn);
}

Test(plugins, drf_preempts_while_the_victims_job_keeps_a_share_as_high)
{
	struct vs_node *n = node("n", NULL, 0, NULL, 0, 110);
	struct vs_task *c[4], *preemptor;

	job_in("ns", "a", 1, NULL);
	job_in("ns", "small", 1, NULL);
	job_in("ns", "p", 1, NULL);
	c[0] = running("ns", "a0", "a", n, 1, NULL);
	c[1] = running("ns", "small0", "small", n, 1, NULL);
	c[2] = running("ns", "a1", "a", n, 1, NULL);
	c[3] = running("ns", "a2", "a", n, 1, NULL);
	preemptor = task("p0", "p", 1000, NULL, 0, NULL, 0);
	open_with("actions: allocate\ntiers:\n- plugins:\n  - name: drf\n");
	/*
	 * Of 8 cpus the preemptor's job would hold 1 (0.125). Job a holds 3:
	 * without a0 it keeps 0.25, without a1 too 0.125 (equal is enough),
	 * without a2 too nothing. small would drop from 0.125 to 0.
	 */
	cr_assert_eq(vs_ssn_preemptable(ssn, preemptor, c, 4), 2);
	cr_assert_str_eq(c[0]->name, "a0");
	cr_assert_str_eq(c[1]->name, "a1");
	/* each call starts from the jobs' real allocations again */
	c[0] = vs_task_find(&cl, "ns", "a2");
	cr_assert_eq(vs_ssn_preemptable(ssn, preemptor, c, 1), 1);
	vs_session_close(ssn);
}

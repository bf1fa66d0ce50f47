// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the preempt action: victims of lower-priority jobs of the same
 * queue go lowest first until the preemptor fits, a node that does not work
 * out evicts nothing, a job that is not pipelined gives every victim back,
 * the predicates are asked again after each eviction, a node full of pods
 * frees a slot by eviction, the per-role predicate error cache, the order of
 * BuildVictimsPriorityQueue, best-effort preemptors, preemption within a
 * job, the refusal of topology-aware preemption, and the preemptor bound in
 * the next cycle once its victim is gone.
 */
#include "testreg.h"
#include "actions/actions.h"
#include "sched/statement.h"
#include "victimtest.h"

static void setup(void)
{
	vt_setup();
	vt_queue("default", 1, true);
	vt_pclass("high", 1000);
	vt_pclass("mid", 50);
	vt_pclass("low", 10);
}

TestSuite(preempt, .init = setup, .fini = vt_teardown);

/* Volcano's first tier, the one most tests need. */
#define FIRST_TIER			\
	"tiers:\n"			\
	"- plugins:\n"			\
	"  - name: priority\n"		\
	"  - name: gang\n"		\
	"  - name: conformance\n"

static const char basic_conf[] = "actions: preempt\n" FIRST_TIER;

/* allocate first: a preemptor is placed once its victims are gone */
static const char alloc_preempt_conf[] = "actions: \"allocate, preempt\"\n" FIRST_TIER;

Test(preempt, a_lower_priority_job_gives_way_lowest_first)
{
	struct vs_session *ssn;
	struct vs_task *low0, *low1, *high0;

	vt_start(basic_conf);
	vt_node("n1", 2000, 10);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	low0 = vt_task("low-0", "low", 1000, "n1");
	low1 = vt_task("low-1", "low", 1000, "n1");
	high0 = vt_task("high-0", "high", 1000, NULL);

	ssn = vt_run_open();
	/* One victim is enough; of one job's tasks the last in task order goes. */
	cr_assert_eq(vt_nr_evicts, 1);
	cr_assert_str_eq(vt_evicts[0], "ns/low-1");
	cr_assert_str_eq(vt_reasons[0], "preempt");
	cr_assert_eq(low1->status, VS_TASK_RELEASING);
	cr_assert_eq(low0->status, VS_TASK_RUNNING);
	cr_assert_eq(high0->status, VS_TASK_PIPELINED);
	cr_assert_eq(high0->node, vs_node_find(&vt_cl, "n1"));
	vs_session_close(ssn);

	/* The pipeline lives as long as the session; the eviction stays. */
	cr_assert_eq(high0->status, VS_TASK_PENDING);
	cr_assert_eq(low1->status, VS_TASK_RELEASING);
	/* and the node the eviction made room on is the preemptor's nominated one */
	cr_assert_str_eq(vs_task_nominated(high0), "n1");
	cr_assert_null(vs_task_nominated(low0));
	vt_check();
}

Test(preempt, equal_job_priority_is_not_preempted)
{
	vt_start(basic_conf);
	vt_node("n1", 1000, 10);
	vt_job("a", "default", 0, VS_PG_RUNNING, "mid");
	vt_job("b", "default", 1, VS_PG_INQUEUE, "mid");
	vt_task("a-0", "a", 1000, "n1");
	vt_task("b-0", "b", 1000, NULL);
	vt_cycle();
	cr_assert_eq(vt_nr_evicts, 0);
}

/* Volcano's deviceFitAfterEvictionPlugin: hidden capacity is held by "victim". */
static int device_calls;

static int device_predicate(struct vs_session *ssn, struct vs_plugin *p,
			    const struct vs_task *task, const struct vs_node *node,
			    struct vs_fit_error *fe)
{
	const struct vs_task *t;

	if (strcmp(task->name, "preemptor"))
		return 0;
	device_calls++;
	list_for_each_entry(t, &node->tasks, node_node)
		if (!strcmp(t->name, "victim") && t->status != VS_TASK_RELEASING) {
			snprintf(fe->reason, sizeof(fe->reason),
				 "hidden device capacity is occupied");
			fe->unresolvable = false;
			return -EINVAL;
		}
	return 0;
}

static const struct vs_plugin_ops device_ops = {
	.name = "device-fit",
	.predicate = device_predicate,
};

Test(preempt, predicates_are_asked_again_after_each_eviction)
{
	static const char conf[] =
		"actions: preempt\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: conformance\n"
		"  - name: gang\n"
		"    enablePreemptable: false\n"
		"  - name: priority\n"
		"  - name: device-fit\n";

	vs_registry_add_plugin(vs_test_registry(), &device_ops);
	vt_start(conf);
	vt_node("n1", 2000, 10);
	vt_job("pg-low", "default", 1, VS_PG_INQUEUE, "low");
	vt_job("pg-high", "default", 1, VS_PG_INQUEUE, "high");
	vt_task("victim", "pg-low", 1000, "n1");
	vt_task("preemptor", "pg-high", 1000, NULL);
	device_calls = 0;
	vt_cycle();
	/* The node has the cpu; only the predicate, asked again, lets it in. */
	cr_assert_eq(vt_nr_evicts, 1);
	cr_assert_str_eq(vt_evicts[0], "ns/victim");
	cr_assert_geq(device_calls, 3, "asked %d times", device_calls);
}

Test(preempt, evictions_on_a_node_that_cannot_take_the_preemptor_are_undone)
{
	static const char conf[] =
		"actions: preempt\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: priority\n"
		"  - name: device-fit\n";
	struct vs_task *held, *free_one;
	u64 discarded;

	vs_registry_add_plugin(vs_test_registry(), &device_ops);
	vt_start(conf);
	vt_node("n1", 1500, 10);
	vt_node("n2", 1000, 10);
	vt_job("keeper", "default", 0, VS_PG_RUNNING, "high");
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("pg-high", "default", 1, VS_PG_INQUEUE, "mid");
	/*
	 * n1, tried first: evicting "held" frees the cpu, but the device stays
	 * with "victim", of a job the preemptor may not touch.
	 */
	held = vt_task("held", "low", 1000, "n1");
	vt_task("victim", "keeper", 500, "n1");
	free_one = vt_task("free-one", "low", 1000, "n2");
	vt_task("preemptor", "pg-high", 1000, NULL);
	discarded = vt_sched.stats.discarded_ops;

	vt_cycle();
	/* n1 evicted "held" in a statement of its own, then gave it back. */
	cr_assert_eq(held->status, VS_TASK_RUNNING);
	cr_assert(vs_res_is_empty(&vs_node_find(&vt_cl, "n1")->releasing));
	cr_assert_gt(vt_sched.stats.discarded_ops, discarded);
	cr_assert_eq(vt_nr_evicts, 1);
	cr_assert_str_eq(vt_evicts[0], "ns/free-one");
	cr_assert_eq(free_one->status, VS_TASK_RELEASING);
}

Test(preempt, a_gang_that_is_not_pipelined_gives_its_victims_back)
{
	struct vs_session *ssn;
	struct vs_task *low0, *low1;

	vt_start(basic_conf);
	vt_node("n1", 2000, 10);
	vt_job("low", "default", 1, VS_PG_RUNNING, "low");
	vt_job("high", "default", 2, VS_PG_INQUEUE, "high");
	low0 = vt_task("low-0", "low", 1000, "n1");
	low1 = vt_task("low-1", "low", 1000, "n1");
	vt_task("high-0", "high", 1000, NULL);
	vt_task("high-1", "high", 1000, NULL);

	ssn = vt_run_open();
	/* gang lets "low" lose one task only: half a gang, no eviction at all */
	cr_assert_eq(vt_nr_evicts, 0);
	cr_assert_eq(low0->status, VS_TASK_RUNNING);
	cr_assert_eq(low1->status, VS_TASK_RUNNING);
	cr_assert_eq(vs_task_find(&vt_cl, "ns", "high-0")->status, VS_TASK_PENDING);
	cr_assert(vs_res_is_empty(&vs_node_find(&vt_cl, "n1")->releasing));
	vs_session_close(ssn);
}

Test(preempt, an_eviction_frees_a_slot_on_a_node_full_of_pods)
{
	static const char conf[] =
		"actions: preempt\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: priority\n"
		"  - name: gang\n"
		"  - name: predicates\n";

	vt_start(conf);
	vt_node("n1", 4000, 2);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 2, VS_PG_INQUEUE, "high");
	vt_task("low-0", "low", 500, "n1");
	vt_task("low-1", "low", 500, "n1");
	vt_task("high-0", "high", 500, NULL);
	vt_task("high-1", "high", 500, NULL);
	vt_cycle();
	/*
	 * The pod count of predicates no longer counts a pod evicted in this
	 * session, as Volcano's NodeInfo drops it: each eviction lets one in.
	 */
	cr_assert_eq(vt_nr_evicts, 2);
	cr_assert(vt_evicted("ns/low-0"));
	cr_assert(vt_evicted("ns/low-1"));
}

Test(preempt, a_pod_terminating_before_the_session_still_holds_its_slot)
{
	static const char conf[] =
		"actions: preempt\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: priority\n"
		"  - name: gang\n"
		"  - name: predicates\n";
	struct vs_task_spec spec;

	struct vs_session *ssn;

	vt_start(conf);
	vt_node("n1", 4000, 2);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	vt_task_spec(&spec, "going", "low", 500, "n1");
	spec.status = VS_TASK_RELEASING;
	vt_add(&spec);
	vt_task_spec(&spec, "kept", "low", 500, "n1");
	spec.preemptable = false;
	vt_add(&spec);
	vt_task("high-0", "high", 500, NULL);

	/*
	 * FutureIdle counts the pod slot "going" gives back, so no victim is
	 * needed; but until it is gone the pod count still sees it.
	 */
	ssn = vt_run_open();
	cr_assert_eq(vt_nr_evicts, 0);
	cr_assert_eq(vs_task_find(&vt_cl, "ns", "high-0")->status, VS_TASK_PENDING);
	vs_session_close(ssn);
}

Test(preempt, an_eviction_left_open_is_undone_after_the_plugins_closed)
{
	static const char conf[] =
		"actions: preempt\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: predicates\n";
	struct vs_statement *stmt;
	struct vs_session *ssn;
	struct vs_task *t;

	vt_start(conf);
	vt_node("n1", 1000, 10);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	t = vt_task("low-0", "low", 1000, "n1");
	ssn = vt_open();
	stmt = vs_stmt_new(ssn);
	cr_assert_not_null(stmt);
	cr_assert_eq(vs_stmt_evict(stmt, t, "preempt", NULL), 0);
	/* Closing discards it after predicates closed: its handler must cope. */
	vs_session_close(ssn);
	cr_assert_eq(t->status, VS_TASK_RUNNING);
	cr_assert_eq(vt_nr_evicts, 0);
	vt_check();
}

/* Does predicates' pod count let @task onto @node now? */
static bool pods_fit(struct vs_session *ssn, const struct vs_task *task, const struct vs_node *node)
{
	struct vs_fit_error fe = { .reason = { 0 } };

	return !vs_ssn_predicate(ssn, task, node, &fe);
}

Test(preempt, evicted_pods_count_again_one_by_one_as_their_evictions_are_undone)
{
	struct vs_statement *sa, *sb, *sc, *sd, *again;
	struct vs_task *a, *b, *c, *d, *p;
	struct vs_node *n1, *n2;
	struct vs_session *ssn;

	vt_start("actions: preempt\n"
		 "tiers:\n"
		 "- plugins:\n"
		 "  - name: predicates\n");
	n1 = vt_node("n1", 4000, 3);
	n2 = vt_node("n2", 4000, 1);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	a = vt_task("a", "low", 100, "n1");
	b = vt_task("b", "low", 100, "n1");
	c = vt_task("c", "low", 100, "n1");
	d = vt_task("d", "low", 100, "n2");
	p = vt_task("p", "high", 100, NULL);
	ssn = vt_open();
	cr_assert_not(pods_fit(ssn, p, n1));
	sa = vs_stmt_new(ssn);
	sb = vs_stmt_new(ssn);
	sc = vs_stmt_new(ssn);
	sd = vs_stmt_new(ssn);
	cr_assert(sa && sb && sc && sd);
	cr_assert_eq(vs_stmt_evict(sa, a, "preempt", NULL), 0);
	cr_assert_eq(vs_stmt_evict(sb, b, "preempt", NULL), 0);
	cr_assert_eq(vs_stmt_evict(sc, c, "preempt", NULL), 0);
	cr_assert_eq(vs_stmt_evict(sd, d, "preempt", NULL), 0);
	cr_assert(pods_fit(ssn, p, n2));
	/* the middle one of n1's back, then the first: one pod slot left */
	vs_stmt_discard(sb);
	vs_stmt_discard(sa);
	cr_assert(pods_fit(ssn, p, n1));
	/* b evicted again takes a freed entry; then c and b back: full */
	again = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_evict(again, b, "preempt", NULL), 0);
	vs_stmt_discard(sc);
	cr_assert(pods_fit(ssn, p, n1));
	vs_stmt_discard(again);
	cr_assert_not(pods_fit(ssn, p, n1));
	/* n2's own list was never touched */
	cr_assert(pods_fit(ssn, p, n2));
	vs_stmt_discard(sd);
	cr_assert_not(pods_fit(ssn, p, n2));
	vs_session_close(ssn);
	vt_check();
}

/* A predicate that refuses n2 for good, counting how often it is asked. */
static int n2_calls;

static int refuse_n2(struct vs_session *ssn, struct vs_plugin *p, const struct vs_task *task,
		     const struct vs_node *node, struct vs_fit_error *fe)
{
	if (strcmp(node->name, "n2"))
		return 0;
	n2_calls++;
	snprintf(fe->reason, sizeof(fe->reason),
		 "node(s) didn't match Pod's node affinity/selector");
	fe->unresolvable = true;
	return -EINVAL;
}

static const struct vs_plugin_ops refuse_n2_ops = {
	.name = "refuse-n2",
	.predicate = refuse_n2,
};

/* How often n2 is predicated for a job of two tasks with @role that preempt nothing. */
static int n2_calls_for(const char *cache_arg, const char *role)
{
	char conf[512];
	struct vs_task_spec spec;

	snprintf(conf, sizeof(conf),
		 "actions: preempt\n"
		 "tiers:\n"
		 "- plugins:\n"
		 "  - name: priority\n"
		 "  - name: refuse-n2\n"
		 "%s", cache_arg);
	vs_registry_add_plugin(vs_test_registry(), &refuse_n2_ops);
	vt_start(conf);
	vt_node("n1", 1000, 10);
	vt_node("n2", 1000, 10);
	vt_job("same", "default", 0, VS_PG_RUNNING, "mid");
	vt_job("w", "default", 2, VS_PG_INQUEUE, "mid");
	vt_task("same-0", "same", 1000, "n1");
	for (int i = 0; i < 2; i++) {
		char name[16];

		snprintf(name, sizeof(name), "w-%d", i);
		vt_task_spec(&spec, name, "w", 1000, NULL);
		spec.role = role;
		vt_add(&spec);
	}
	n2_calls = 0;
	vt_cycle();
	cr_assert_eq(vt_nr_evicts, 0);
	return n2_calls;
}

Test(preempt, the_predicate_error_cache_remembers_a_role_for_the_whole_action)
{
	/* w-0 and w-1 between jobs, w-0 again within the job: n2 is asked once. */
	cr_assert_eq(n2_calls_for("", "worker"), 1);
}

Test(preempt, without_the_error_cache_every_task_asks_again)
{
	static const char off[] = "configurations:\n- name: preempt\n"
				  "  arguments: {enablePredicateErrorCache: false}\n";

	cr_assert_eq(n2_calls_for(off, "worker"), 3);
}

Test(preempt, tasks_without_a_role_do_not_share_the_error_cache)
{
	cr_assert_eq(n2_calls_for("", ""), 3);
}

Test(preempt, a_best_effort_preemptor_takes_only_best_effort_victims)
{
	vt_start(basic_conf);
	vt_node("n1", 4000, 1);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	vt_task("low-0", "low", 1000, "n1");
	vt_task("high-0", "high", 0, NULL);
	vt_cycle();
	cr_assert_eq(vt_nr_evicts, 0);
}

Test(preempt, a_task_outranks_a_running_task_of_its_own_job)
{
	static const char conf[] =
		"actions: preempt\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: priority\n"
		"  - name: gang\n"
		"    enablePreemptable: false\n"
		"    enableJobStarving: false\n";
	struct vs_task_spec spec;
	struct vs_session *ssn;

	vt_start(conf);
	vt_node("n1", 1000, 10);
	vt_job("j", "default", 1, VS_PG_RUNNING, NULL);
	vt_task_spec(&spec, "j-low", "j", 1000, "n1");
	spec.priority = 1;
	vt_add(&spec);
	vt_task_spec(&spec, "j-high", "j", 1000, NULL);
	spec.priority = 100;
	vt_add(&spec);

	ssn = vt_run_open();
	cr_assert_eq(vt_nr_evicts, 1);
	cr_assert_str_eq(vt_evicts[0], "ns/j-low");
	cr_assert_eq(vs_task_find(&vt_cl, "ns", "j-high")->status, VS_TASK_PIPELINED);
	vs_session_close(ssn);
}

Test(preempt, the_preemptor_is_bound_once_its_victim_is_gone)
{
	struct vs_task *victim;

	vt_start(alloc_preempt_conf);
	vt_node("n1", 1000, 10);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	victim = vt_task("low-0", "low", 1000, "n1");
	vt_task("high-0", "high", 1000, NULL);

	vt_cycle();
	cr_assert_eq(vt_nr_evicts, 1);
	cr_assert_eq(vt_nr_binds, 0);
	cr_assert_str_eq(vs_task_nominated(vs_task_find(&vt_cl, "ns", "high-0")), "n1");
	/* Releasing: allocate pipelines onto it but cannot bind yet. */
	vt_cycle();
	cr_assert_eq(vt_nr_binds, 0);
	cr_assert_eq(vt_nr_evicts, 1, "nothing more to evict");
	cr_assert_str_eq(vs_task_nominated(vs_task_find(&vt_cl, "ns", "high-0")), "n1", "kept, never cleared");
	/* The pod is gone: the next cycle binds the preemptor. */
	vs_task_del(&vt_cl, victim);
	vt_cycle();
	cr_assert_eq(vt_nr_binds, 1);
	cr_assert_str_eq(vt_binds[0], "ns/high-0=n1");
}

/*
 * Only a pipeline whose room evictions made nominates: allocate's onto a
 * pod deleted by someone else (EvictionOccurred false) does not.
 */
Test(preempt, a_pipeline_without_evictions_nominates_no_node)
{
	struct vs_task *gone, *high0;
	struct vs_session *ssn;

	vt_start(alloc_preempt_conf);
	vt_node("n1", 1000, 10);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	gone = vt_task("low-0", "low", 1000, "n1");
	cr_assert_eq(vs_task_set_status(&vt_cl, gone, VS_TASK_RELEASING, NULL), 0);
	high0 = vt_task("high-0", "high", 1000, NULL);
	ssn = vt_run_open();
	cr_assert_eq(high0->status, VS_TASK_PIPELINED);
	cr_assert_eq(vt_nr_evicts, 0);
	vs_session_close(ssn);
	cr_assert_null(vs_task_nominated(high0));
}

/*
 * taskEligibleToPreempt with a nominated node: the evictions a preemptor
 * nominated to @nominated makes, wanting disk=ssd when @ssd. n1 holds low-0,
 * n2 (disk=ssd) low-1; each is full.
 */
static u32 nominated_preempts(const char *nominated, bool ssd)
{
	static const char conf[] = "actions: preempt\n" FIRST_TIER "- plugins:\n"
				   "  - name: predicates\n";
	static const struct vs_kv_spec disk = { "disk", "ssd" };
	struct vs_node_spec ns;
	struct vs_task_spec ts;

	vt_start(conf);
	vt_node("n1", 1000, 10);
	vs_node_spec_init(&ns, "n2");
	ns.allocatable = vt_res(1000);
	vs_res_set(&ns.allocatable, VS_RES_PODS, 10);
	ns.labels = &disk;
	ns.nr_labels = 1;
	cr_assert_eq(vs_node_add(&vt_cl, &ns, NULL, NULL), 0);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	vt_task("low-0", "low", 1000, "n1");
	vt_task("low-1", "low", 1000, "n2");
	vt_task_spec(&ts, "high-0", "high", 1000, NULL);
	ts.nominated = nominated;
	if (ssd) {
		ts.node_selector = &disk;
		ts.nr_node_selector = 1;
	}
	vt_add(&ts);
	vt_cycle();
	return vt_nr_evicts;
}

/* A nominated node gone from the cluster: Volcano's preempt takes the task as not eligible. */
Test(preempt, a_preemptor_whose_nominated_node_is_gone_preempts_nothing)
{
	cr_assert_eq(nominated_preempts("gone", false), 0);
}

/* Its predicates pass on its nominated node (resources aside): it waits there, evicting nothing. */
Test(preempt, a_preemptor_its_nominated_node_would_take_preempts_nothing)
{
	cr_assert_eq(nominated_preempts("n1", false), 0);
}

/* The same preemptor without a nominated node preempts. */
Test(preempt, a_preemptor_without_a_nominated_node_preempts)
{
	cr_assert_eq(nominated_preempts(NULL, false), 1);
}

/* Refused there for good (its node selector): it preempts elsewhere. */
Test(preempt, a_preemptor_its_nominated_node_refuses_for_good_preempts_elsewhere)
{
	cr_assert_eq(nominated_preempts("n1", true), 1);
	cr_assert(vt_evicted("ns/low-1"));
}

static void expect_refused(const char *args, const char *what)
{
	char conf[512];
	struct vs_err e = { { 0 } };

	snprintf(conf, sizeof(conf),
		 "actions: preempt\n"
		 "tiers:\n"
		 "- plugins:\n"
		 "  - name: priority\n"
		 "configurations:\n"
		 "- name: preempt\n"
		 "  arguments: %s\n", args);
	cr_assert_eq(vt_try_start(conf, &e), -EINVAL, "%s accepted", args);
	cr_assert(strstr(e.msg, "action preempt: t.conf:7:"), "%s", e.msg);
	cr_assert(strstr(e.msg, what), "%s", e.msg);
}

Test(preempt, a_mistyped_switch_is_refused_at_load)
{
	expect_refused("{enableTopologyAwarePreemption: yes-please}",
		       "enableTopologyAwarePreemption");
}

Test(preempt, mistyped_arguments_are_refused_at_load)
{
	expect_refused("{minCandidateNodesPercentage: ten}", "minCandidateNodesPercentage");
}

Test(preempt, vsched_accepts_volcanos_arguments_for_both_paths)
{
	vt_start("actions: preempt\n"
		 "tiers:\n"
		 "- plugins:\n"
		 "  - name: priority\n"
		 "configurations:\n"
		 "- name: preempt\n"
		 "  arguments: {enableTopologyAwarePreemption: true, enablePredicateErrorCache: "
		 "false, topologyAwarePreemptWorkerNum: 16, minCandidateNodesPercentage: 10, "
		 "minCandidateNodesAbsolute: 1, maxCandidateNodesAbsolute: 100}\n");
	vt_cycle();
}

/* ---- BuildVictimsPriorityQueue ---- */

static struct vs_task *running(const char *name, const char *job, s32 priority)
{
	struct vs_task_spec spec;

	vt_task_spec(&spec, name, job, 100, "n1");
	spec.priority = priority;
	return vt_add(&spec);
}

static void expect_order(struct vs_session *ssn, struct vs_task *preemptor,
			 struct vs_task **victims, u32 nr, const char *const *want)
{
	struct vs_victim_queue vq;

	vs_victim_queue_init(&vq, ssn);
	cr_assert_eq(vs_victim_queue_fill(&vq, preemptor, victims, nr), 0);
	for (u32 i = 0; i < nr; i++) {
		struct vs_task *t = vs_victim_queue_pop(&vq);

		cr_assert_not_null(t);
		cr_assert_str_eq(t->name, want[i], "victim %u: %s, want %s", i, t->name, want[i]);
	}
	cr_assert_null(vs_victim_queue_pop(&vq));
}

Test(preempt, victims_of_one_queue_go_by_reverse_job_then_task_order)
{
	static const char *const want[] = { "low-0", "low-1", "mid-1", "mid-0" };
	struct vs_task *v[4], *preemptor;
	struct vs_session *ssn;

	vt_start(basic_conf);
	vt_node("n1", 10000, 110);
	vt_job("mid", "default", 0, VS_PG_RUNNING, "mid");
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	v[0] = running("mid-0", "mid", 1);
	v[1] = running("low-0", "low", 1);
	v[2] = running("mid-1", "mid", 1);
	/* a higher pod priority goes after its job's others */
	v[3] = running("low-1", "low", 5);
	preemptor = vt_task("high-0", "high", 100, NULL);

	ssn = vt_open();
	expect_order(ssn, preemptor, v, 4, want);
	vs_session_close(ssn);
}

Test(preempt, victims_of_jobs_the_job_order_ties_go_by_reverse_task_order)
{
	static const char *const want[] = { "a-0", "b-0" };
	struct vs_task *v[2], *preemptor;
	struct vs_session *ssn;

	vt_start(basic_conf);
	vt_node("n1", 10000, 110);
	vt_job("a", "default", 0, VS_PG_RUNNING, "low");
	vt_job("b", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	/* Volcano's JobOrderCompareFn ties: no fallback to creation, the tasks decide. */
	v[0] = running("b-0", "b", 9);
	v[1] = running("a-0", "a", 1);
	preemptor = vt_task("high-0", "high", 100, NULL);

	ssn = vt_open();
	expect_order(ssn, preemptor, v, 2, want);
	vs_session_close(ssn);
}

Test(preempt, victims_of_other_queues_go_by_reverse_queue_order)
{
	static const char *const want[] = { "c-0", "b-1", "b-0" };
	struct vs_task *v[3], *preemptor;
	struct vs_session *ssn;

	vt_start(basic_conf);
	vt_queue("qb", 1, true);
	vt_queue("qc", 1, true);
	vt_node("n1", 10000, 110);
	vt_job("b", "qb", 0, VS_PG_RUNNING, "low");
	vt_job("c", "qc", 0, VS_PG_RUNNING, "high");
	vt_job("p", "default", 1, VS_PG_INQUEUE, "low");
	v[0] = running("b-0", "b", 1);
	v[1] = running("c-0", "c", 1);
	v[2] = running("b-1", "b", 1);
	preemptor = vt_task("p-0", "p", 100, NULL);

	/*
	 * No victim queue order plugin: the reverse of the queue order, so qc,
	 * created after qb, gives first whatever its job's priority.
	 */
	ssn = vt_open();
	expect_order(ssn, preemptor, v, 3, want);
	vs_session_close(ssn);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the reclaim action: a queue below its share takes back what
 * another queue holds beyond its own, never from its own queue nor from a
 * queue marked not reclaimable, not for a task its queue may not take
 * (Preemptive) nor for one whose preemptionPolicy is Never; nodes are tried
 * in creation order, not by score, the predicates are not asked again once
 * the victims are gone, and a node that does not work out evicts nothing.
 */
#include "victimtest.h"

static void setup(void)
{
	vt_setup();
}

TestSuite(reclaim, .init = setup, .fini = vt_teardown);

static const char reclaim_conf[] =
	"actions: reclaim\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: conformance\n"
	"  - name: gang\n"
	"  - name: proportion\n";

/* q1 holds n1 (two 1-cpu pods of job a); job b of q2 wants one cpu. */
static void two_queues(bool q1_reclaimable)
{
	vt_queue("q1", 1, q1_reclaimable);
	vt_queue("q2", 1, true);
	vt_node("n1", 2000, 10);
	vt_job("a", "q1", 0, VS_PG_RUNNING, NULL);
	vt_job("b", "q2", 1, VS_PG_INQUEUE, NULL);
	vt_task("a-0", "a", 1000, "n1");
	vt_task("a-1", "a", 1000, "n1");
}

Test(reclaim, a_queue_below_its_share_takes_back_from_one_above)
{
	struct vs_session *ssn;
	struct vs_task *b0;

	vt_start(reclaim_conf);
	two_queues(true);
	b0 = vt_task("b-0", "b", 1000, NULL);

	ssn = vt_run_open();
	/* proportion gives up what brings q1 back to its share: one pod. */
	cr_assert_eq(vt_nr_evicts, 1);
	cr_assert_str_eq(vt_evicts[0], "ns/a-0");
	cr_assert_str_eq(vt_reasons[0], "reclaim");
	cr_assert_eq(b0->status, VS_TASK_PIPELINED);
	cr_assert_str_eq(b0->node->name, "n1");
	vs_session_close(ssn);
	cr_assert_eq(b0->status, VS_TASK_PENDING);
	vt_check();
}

Test(reclaim, a_queue_marked_not_reclaimable_keeps_its_pods)
{
	vt_start(reclaim_conf);
	two_queues(false);
	vt_task("b-0", "b", 1000, NULL);
	vt_cycle();
	cr_assert_eq(vt_nr_evicts, 0);
}

Test(reclaim, a_task_with_preemption_policy_never_does_not_reclaim)
{
	struct vs_task_spec spec;

	vt_start(reclaim_conf);
	two_queues(true);
	vt_task_spec(&spec, "b-0", "b", 1000, NULL);
	spec.preemption_policy = VS_PREEMPT_NEVER;
	vt_add(&spec);
	vt_cycle();
	cr_assert_eq(vt_nr_evicts, 0);
}

Test(reclaim, a_task_its_queue_may_not_take_does_not_reclaim)
{
	vt_start(reclaim_conf);
	two_queues(true);
	/* q2 deserves 1 cpu: proportion's Preemptive refuses 2 */
	vt_task("b-0", "b", 2000, NULL);
	vt_cycle();
	cr_assert_eq(vt_nr_evicts, 0);
}

Test(reclaim, nothing_is_reclaimed_from_the_own_queue)
{
	static const char conf[] =
		"actions: reclaim\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: conformance\n"
		"  - name: gang\n"
		"  - name: proportion\n"
		"    enabledOverused: false\n"
		"    enablePreemptive: false\n";

	vt_start(conf);
	vt_queue("q1", 1, true);
	vt_node("n1", 2000, 10);
	vt_job("a", "q1", 0, VS_PG_RUNNING, NULL);
	vt_job("b", "q1", 1, VS_PG_INQUEUE, NULL);
	vt_task("a-0", "a", 1000, "n1");
	vt_task("a-1", "a", 1000, "n1");
	vt_task("b-0", "b", 1000, NULL);
	vt_cycle();
	/* That would be preempt's business. */
	cr_assert_eq(vt_nr_evicts, 0);
}

/* A scorer that prefers n2, and a predicate that refuses every node. */
static double prefer_n2(struct vs_session *ssn, struct vs_plugin *p, const struct vs_task *task,
			const struct vs_node *node)
{
	return strcmp(node->name, "n2") ? 0 : 100;
}

static int always_busy(struct vs_session *ssn, struct vs_plugin *p, const struct vs_task *task,
		       const struct vs_node *node, struct vs_fit_error *fe)
{
	snprintf(fe->reason, sizeof(fe->reason), "hidden device capacity is occupied");
	fe->unresolvable = false;
	return -EINVAL;
}

static const struct vs_plugin_ops prefer_n2_ops = {
	.name = "prefer-n2",
	.node_order = prefer_n2,
};

static const struct vs_plugin_ops always_busy_ops = {
	.name = "always-busy",
	.predicate = always_busy,
};

Test(reclaim, nodes_are_tried_in_creation_order_not_by_score)
{
	static const char conf[] =
		"actions: reclaim\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: conformance\n"
		"  - name: gang\n"
		"  - name: proportion\n"
		"  - name: prefer-n2\n";
	struct vs_session *ssn;
	struct vs_task *b0;

	vs_registry_add_plugin(vs_test_registry(), &prefer_n2_ops);
	vt_start(conf);
	vt_queue("q1", 1, true);
	vt_queue("q2", 1, true);
	vt_node("n1", 1000, 10);
	vt_node("n2", 1000, 10);
	vt_job("a", "q1", 0, VS_PG_RUNNING, NULL);
	vt_job("b", "q2", 1, VS_PG_INQUEUE, NULL);
	vt_task("a-0", "a", 1000, "n1");
	vt_task("a-1", "a", 1000, "n2");
	b0 = vt_task("b-0", "b", 1000, NULL);

	ssn = vt_run_open();
	cr_assert_eq(vt_nr_evicts, 1);
	cr_assert_str_eq(vt_evicts[0], "ns/a-0");
	cr_assert_str_eq(b0->node->name, "n1");
	vs_session_close(ssn);
}

Test(reclaim, the_predicates_are_not_asked_again_after_the_evictions)
{
	static const char conf[] =
		"actions: reclaim\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: conformance\n"
		"  - name: gang\n"
		"  - name: proportion\n"
		"  - name: always-busy\n";

	vs_registry_add_plugin(vs_test_registry(), &always_busy_ops);
	vt_start(conf);
	two_queues(true);
	vt_task("b-0", "b", 1000, NULL);
	vt_cycle();
	/*
	 * The failure is one eviction could resolve, so the node is a
	 * candidate, and reclaim, unlike preempt, only counts resources.
	 */
	cr_assert_eq(vt_nr_evicts, 1);
}

Test(reclaim, a_node_whose_victims_are_not_enough_evicts_nothing)
{
	struct vs_task_spec spec;
	struct vs_task *big;

	vt_start(reclaim_conf);
	vt_queue("q1", 1, true);
	vt_queue("q2", 1, true);
	vt_node("n1", 2000, 10);
	vt_node("n2", 2000, 10);
	vt_job("a", "q1", 0, VS_PG_RUNNING, NULL);
	vt_job("b", "q2", 1, VS_PG_INQUEUE, NULL);
	/* n1: one small victim and a pod that may not be preempted */
	vt_task("a-0", "a", 500, "n1");
	vt_task_spec(&spec, "a-kept", "a", 1500, "n1");
	spec.preemptable = false;
	vt_add(&spec);
	big = vt_task("a-big", "a", 2000, "n2");
	vt_task("b-0", "b", 1500, NULL);
	vt_cycle();
	/* ValidateVictims refuses n1 before anything is evicted there. */
	cr_assert_eq(vt_nr_evicts, 1);
	cr_assert_str_eq(vt_evicts[0], "ns/a-big");
	cr_assert_eq(big->status, VS_TASK_RELEASING);
	cr_assert_eq(vs_task_find(&vt_cl, "ns", "a-0")->status, VS_TASK_RUNNING);
}

Test(reclaim, a_mistyped_argument_is_refused_at_load)
{
	static const char conf[] =
		"actions: reclaim\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: proportion\n"
		"configurations:\n"
		"- name: reclaim\n"
		"  arguments: {enablePredicateErrorCache: maybe}\n";
	struct vs_err e = { { 0 } };

	cr_assert_eq(vt_try_start(conf, &e), -EINVAL);
	cr_assert(strstr(e.msg, "action reclaim: t.conf:7:"), "%s", e.msg);
	cr_assert(strstr(e.msg, "enablePredicateErrorCache"), "%s", e.msg);
}

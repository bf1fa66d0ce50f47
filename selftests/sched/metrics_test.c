// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for Volcano's scheduler metrics as the core keeps them: the bucket
 * bounds of ExponentialBucketsRange and which bucket an observation takes;
 * a cycle observed once in e2e, open-session, each action and each
 * plugin's open and close; schedule attempts by result; gang's count of
 * unschedulable jobs and tasks; preempt's attempts, victims and eviction
 * transactions; what proportion leaves on each queue; and a look
 * (vs_session_open_inspect()) that changes none of them.
 */
#include <math.h>

#include "testreg.h"
#include "sched/metrics.h"
#include "victimtest.h"

static void setup(void)
{
	vt_setup();
	vt_queue("default", 1, true);
	vt_pclass("high", 1000);
	vt_pclass("low", 10);
}

TestSuite(metrics, .init = setup, .fini = vt_teardown);

static const char conf[] =
	"actions: enqueue, allocate, preempt\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: priority\n"
	"  - name: gang\n"
	"  - name: conformance\n"
	"- plugins:\n"
	"  - name: proportion\n"
	"  - name: predicates\n";

Test(metrics, bounds_are_prometheus_exponential_buckets_range)
{
	/* ExponentialBucketsRange(1, 5000, 20): 1, then x (5000)^(1/19) each, 5000 last. */
	double growth = pow(5000.0, 1.0 / 19);

	cr_assert_float_eq(vs_hist_bound_ms(&vs_hist_e2e, 0), 1.0, 1e-12);
	cr_assert_float_eq(vs_hist_bound_ms(&vs_hist_e2e, 1), growth, 1e-12);
	cr_assert_float_eq(vs_hist_bound_ms(&vs_hist_e2e, 19), 5000.0, 1e-9);
	cr_assert_float_eq(vs_hist_bound_ms(&vs_hist_plugin, 0), 0.1, 1e-15);
	cr_assert_float_eq(vs_hist_bound_ms(&vs_hist_plugin, 14), 100.0, 1e-9);
	cr_assert_float_eq(vs_hist_bound_ms(&vs_hist_action, 19), 2000.0, 1e-9);
}

Test(metrics, an_observation_takes_the_first_bound_it_does_not_exceed)
{
	struct vs_hist h = { .count = 0 };

	vs_hist_observe(&h, &vs_hist_e2e, 1000000);		/* 1 ms: le="1" */
	vs_hist_observe(&h, &vs_hist_e2e, 1000001);		/* just above: the next */
	vs_hist_observe(&h, &vs_hist_e2e, 0);
	vs_hist_observe(&h, &vs_hist_e2e, 6000000000ull);	/* 6 s: +Inf */
	cr_assert_eq(h.bucket[0], 2);
	cr_assert_eq(h.bucket[1], 1);
	cr_assert_eq(h.bucket[vs_hist_e2e.nr], 1);
	cr_assert_eq(h.count, 4);
	cr_assert_eq(h.sum_ns, 1000000 + 1000001 + 6000000000ull);
}

static u64 buckets(const struct vs_hist *h, const struct vs_hist_spec *spec)
{
	u64 n = 0;

	for (u32 i = 0; i <= spec->nr; i++)
		n += h->bucket[i];
	return n;
}

Test(metrics, a_cycle_is_observed_once_everywhere)
{
	const struct vs_metrics *m = &vt_sched.metrics;
	const struct vs_registry *reg = vs_test_registry();
	u32 alloc = vs_registry_action_index(reg, "allocate");
	u32 reclaim = vs_registry_action_index(reg, "reclaim");
	u32 gang = vs_registry_plugin_index(reg, "gang");
	u32 binpack = vs_registry_plugin_index(reg, "binpack");

	vt_start(conf);
	vt_node("n1", 4000, 10);
	vt_job("j", "default", 1, VS_PG_INQUEUE, "low");
	vt_task("j-0", "j", 1000, NULL);
	vt_cycle();
	vt_cycle();
	cr_assert_eq(m->e2e.count, 2);
	cr_assert_eq(buckets(&m->e2e, &vs_hist_e2e), 2);
	cr_assert_eq(m->open_session.count, 2);
	cr_assert_lt(alloc, VS_METRICS_ACTIONS_MAX);
	cr_assert_eq(m->action[alloc].count, 2);
	cr_assert_lt(reclaim, VS_METRICS_ACTIONS_MAX);
	cr_assert_eq(m->action[reclaim].count, 0, "not configured");
	cr_assert_eq(m->plugin_open[gang].count, 2);
	cr_assert_eq(m->plugin_close[gang].count, 2);
	cr_assert_eq(m->plugin_open[binpack].count, 0, "not configured");
	cr_assert_eq(vs_registry_action_index(reg, "nosuch"), reg->nr_actions, "no such action");
}

Test(metrics, attempts_count_placed_and_unschedulable_tasks)
{
	const struct vs_metrics *m = &vt_sched.metrics;

	vt_start(conf);
	/* Enough for proportion to let big's tasks try, too little on any node. */
	vt_node("n1", 2000, 10);
	vt_node("n2", 2000, 10);
	vt_job("fits", "default", 1, VS_PG_INQUEUE, "low");
	vt_task("fits-0", "fits", 1000, NULL);
	vt_job("big", "default", 2, VS_PG_INQUEUE, "low");
	vt_task("big-0", "big", 3000, NULL);
	vt_task("big-1", "big", 3000, NULL);
	vt_cycle();
	cr_assert_eq(m->attempts[VS_ATTEMPT_SCHEDULED], 1);
	/*
	 * big-0 was tried and fit nowhere; big-1, of the same role, was not
	 * tried after it (allocate's predicate error cache, as Volcano's).
	 */
	cr_assert_eq(m->attempts[VS_ATTEMPT_UNSCHEDULABLE], 1);
	/* gang: one job not ready, two tasks short of its minMember. */
	cr_assert_eq(m->unschedulable_jobs, 1);
	cr_assert_eq(m->unschedulable_tasks, 2);

	/* The gauges are the last cycle's, not sums over cycles. */
	vt_cycle();
	cr_assert_eq(m->unschedulable_jobs, 1);
	cr_assert_eq(m->unschedulable_tasks, 2);
	cr_assert_eq(m->attempts[VS_ATTEMPT_UNSCHEDULABLE], 2);
	cr_assert_eq(m->attempts[VS_ATTEMPT_SCHEDULED], 1, "nothing new placed");
}

Test(metrics, proportion_leaves_deserved_share_and_overused_on_the_queue)
{
	struct vs_queue *q = vs_queue_find(&vt_cl, "default"), *idle = vt_queue("idle", 1, true);

	vt_start(conf);
	vt_node("n1", 4000, 10);
	vt_job("j", "default", 1, VS_PG_RUNNING, "low");
	vt_task("j-0", "j", 1000, "n1");
	cr_assert_eq(q->seen.cycle, 0, "no cycle yet");
	vt_cycle();
	cr_assert_eq(q->seen.cycle, 1);
	/* It asks for what it holds: it deserves that, and holds all of it. */
	cr_assert_float_eq(vs_fres_get(&q->seen.deserved, VS_RES_CPU), 1000, 1e-9);
	cr_assert_float_eq(q->seen.share, 1.0, 1e-12);
	cr_assert(q->seen.overused);
	/* A queue with no job: seen by the cycle, deserving nothing. */
	cr_assert_eq(idle->seen.cycle, 1);
	cr_assert_float_eq(vs_fres_get(&idle->seen.deserved, VS_RES_CPU), 0, 1e-12);
	cr_assert_not(idle->seen.overused);
}

Test(metrics, preempt_counts_attempts_victims_and_transactions)
{
	const struct vs_metrics *m = &vt_sched.metrics;

	vt_start(conf);
	vt_node("n1", 2000, 10);
	vt_job("low", "default", 0, VS_PG_RUNNING, "low");
	vt_job("high", "default", 1, VS_PG_INQUEUE, "high");
	vt_task("low-0", "low", 1000, "n1");
	vt_task("low-1", "low", 1000, "n1");
	vt_task("high-0", "high", 1000, NULL);
	vt_cycle();
	cr_assert_eq(vt_nr_evicts, 1);
	cr_assert_eq(m->preemption_attempts, 1);
	cr_assert_eq(m->preemption_victims, 2, "both low tasks were candidates");
	cr_assert_eq(m->eviction_transactions[VS_EVICTION_PREEMPT], 1);
	cr_assert_eq(m->eviction_transactions[VS_EVICTION_RECLAIM], 0);
}

Test(metrics, a_look_changes_no_metric)
{
	struct vs_metrics before;
	struct vs_session *ssn;
	struct vs_err e = { { 0 } };

	vt_start(conf);
	vt_node("n1", 2000, 10);
	vt_job("big", "default", 1, VS_PG_INQUEUE, "low");
	vt_task("big-0", "big", 3000, NULL);
	vt_cycle();
	before = vt_sched.metrics;
	/* What vsctl explain --scores does: open, read, close. */
	cr_assert_eq(vs_session_open_inspect(&vt_sched, &ssn, &e), 0, "%s", e.msg);
	vs_session_close(ssn);
	cr_assert_eq(memcmp(&before, &vt_sched.metrics, sizeof(before)), 0);
	cr_assert_eq(vs_queue_find(&vt_cl, "default")->seen.cycle, 1);
}

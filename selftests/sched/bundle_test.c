// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for victim bundles (actions/bundle.h), transcribing Volcano's
 * pkg/scheduler/actions/utils/bundle_test.go. Volcano's tests build
 * JobInfos and Bundles by hand; here the jobs, tasks and sub-jobs are
 * real (a cluster, a session open on it), and the job and queue orders
 * the sorts follow are the session's, not a function passed in. Where a
 * case cannot be built as Volcano builds it, the comment above it says
 * what differs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "schedtest.h"
#include "actions/bundle.h"
#include "sched/subjob.h"

#define GI (1024LL * 1024 * 1024)
#define GANG_CONF "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n  - name: priority\n"
#define PRIO_CONF "actions: allocate\ntiers:\n- plugins:\n  - name: priority\n"
#define PROP_CONF "actions: allocate\ntiers:\n- plugins:\n  - name: proportion\n"

static struct vs_cluster cl;
static struct vs_sched sched;
static struct vs_session *ssn;
static struct vs_arena arena;
static struct vs_node *node;

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_arena_init(&arena, 0);
	st_queue(&cl, "q");
	node = st_node(&cl, "n", 64000, 64 * GI, 100);
}

static void teardown(void)
{
	if (ssn)
		vs_session_close(ssn);
	ssn = NULL;
	vs_arena_destroy(&arena);
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(bundle, .init = setup, .fini = teardown);

/* PodGroup ns/@name of queue q, Running, with the roles' minima and the policies. */
static struct vs_job *pg(const char *name, u32 min, const struct vs_role_min_spec *roles,
			 u32 nr_roles, const struct vs_subgroup_policy_spec *sgs, u32 nr_sgs)
{
	struct vs_job_spec spec;
	struct vs_job *job;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&spec, "ns", name);
	spec.queue = "q";
	spec.min_member = min;
	spec.phase = VS_PG_RUNNING;
	spec.min_task_member = roles;
	spec.nr_min_task_member = nr_roles;
	spec.subgroups = sgs;
	spec.nr_subgroups = nr_sgs;
	cr_assert_eq(vs_job_add(&cl, &spec, &job, &e), 0, "%s", e.msg);
	return job;
}

/*
 * A pod ns/@name of PodGroup @job, Running on the node, asking 1 cpu, of
 * role @role (also its label "role"), priority @prio, label "grp" @grp
 * unless NULL.
 */
static struct vs_task *run(const char *name, const char *job, const char *role, s32 prio,
			   const char *grp)
{
	struct vs_kv_spec labels[] = { { "role", role }, { "grp", grp } };
	struct vs_task_spec spec;
	struct vs_task *task;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, "ns", name, job);
	spec.req = st_res(1000, 0);
	spec.role = role;
	spec.priority = prio;
	spec.status = VS_TASK_RUNNING;
	spec.node = node->name;
	spec.labels = labels;
	spec.nr_labels = grp ? 2 : 1;
	cr_assert_eq(vs_task_add(&cl, &spec, &task, &e), 0, "%s", e.msg);
	return task;
}

static const char *const grp_key[] = { "grp" };
static const struct vs_kv_spec role_master[] = { { "role", "master" } };
static const struct vs_kv_spec role_worker[] = { { "role", "worker" } };
static const struct vs_label_selector_spec masters = { .match_labels = role_master,
						       .nr_match_labels = 1 };
static const struct vs_label_selector_spec workers = { .match_labels = role_worker,
						       .nr_match_labels = 1 };

/* The names of @b's tasks, space separated, in @buf. */
static const char *names(const struct vs_bundle *b, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (u32 i = 0; i < b->nr && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "",
					b->tasks[i]->name);
	return buf;
}

static void assert_bundle(const struct vs_bundle *b, bool whole, const char *tasks)
{
	char buf[256];

	cr_assert_eq(b->whole, whole, "bundle of %s: whole %d", names(b, buf, sizeof(buf)),
		     b->whole);
	cr_assert_str_eq(names(b, buf, sizeof(buf)), tasks);
}

/* TestCreateJobBundles_SafeAndWhole: ReadyTaskNum 5, minAvailable 3, worker minimum 3. */
Test(bundle, tasks_above_min_available_are_safe_the_rest_whole)
{
	static const struct vs_role_min_spec roles[] = { { "worker", 3 } };
	struct vs_job *job = pg("j", 3, roles, 1, NULL, 0);
	struct vs_task *local[5];
	struct vs_bundle b[2];
	const char *const n[] = { "e", "c", "a", "d", "b" };

	/* given in no order: the lowest priority go first */
	for (int i = 0; i < 5; i++)
		local[i] = run(n[i], "j", "worker", n[i][0] - 'a', NULL);
	st_open(&sched, &cl, GANG_CONF, &ssn);
	cr_assert_eq(vs_bundles_make(ssn, &arena, job, local, 5, b), 2);
	assert_bundle(&b[0], false, "a b");
	assert_bundle(&b[1], true, "c d e");
	/* what a whole bundle gives up is its whole job */
	cr_assert_eq(vs_res_get(&b[0].local, VS_RES_CPU), 2000);
	cr_assert(vs_res_is_empty(&b[0].global));
	cr_assert_eq(vs_res_get(&b[1].local, VS_RES_CPU), 3000);
	cr_assert_eq(vs_res_get(&b[1].global, VS_RES_CPU), 5000);
}

/*
 * TestCreateJobBundles_SubJobGroupSlackCapsSafe: minAvailable 4, three
 * ready sub-jobs of two in a group of minimum 2. The job could spare two
 * tasks, the group one sub-job: one safe. Volcano's sub-jobs sj1..sj3 are
 * here those of a subGroupPolicy "g" (size 2, minSubGroups 2) by label grp.
 */
Test(bundle, a_groups_spare_subjobs_cap_the_safe_tasks)
{
	const struct vs_subgroup_policy_spec sgs[] = {
		{ .name = "g", .sub_group_size = 2, .min_sub_groups = 2,
		  .match_label_keys = grp_key, .nr_match_label_keys = 1 },
	};
	struct vs_job *job = pg("j", 4, NULL, 0, sgs, 1);
	struct vs_task *t1a = run("t1a", "j", "worker", 100, "1");
	struct vs_task *t2a, *t3a, *local[3];
	struct vs_bundle b[2];

	run("t1b", "j", "worker", 101, "1");
	t2a = run("t2a", "j", "worker", 102, "2");
	run("t2b", "j", "worker", 103, "2");
	t3a = run("t3a", "j", "worker", 104, "3");
	run("t3b", "j", "worker", 105, "3");
	local[0] = t3a;
	local[1] = t1a;
	local[2] = t2a;
	st_open(&sched, &cl, GANG_CONF, &ssn);
	cr_assert_eq(vs_subjobs_of(ssn, job)->nr, 3);
	cr_assert_eq(vs_bundles_make(ssn, &arena, job, local, 3, b), 2);
	assert_bundle(&b[0], false, "t1a");
	assert_bundle(&b[1], true, "t2a t3a");
}

/*
 * TestCreateJobBundles_MixedLegacyAndSubJobBothEnforced: minAvailable 5,
 * worker minimum 5; groups m-g (minimum 1: sj_m1, sj_m2 of one master each)
 * and w-g (minimum 2: sj_w1 with one of its two workers, sj_w2, sj_w3). The
 * master goes safe on m-g's spare sub-job; the worker is held by its role.
 * Volcano's sj_w1 has MinAvailable 2 and one task; here it is a sub-job of
 * policy "w" (size 2) with only one pod, which is what that means.
 */
Test(bundle, role_and_subjob_conditions_both_hold)
{
	static const struct vs_role_min_spec roles[] = { { "worker", 5 } };
	const struct vs_subgroup_policy_spec sgs[] = {
		{ .name = "m-g", .sub_group_size = 1, .min_sub_groups = 1, .selector = &masters,
		  .match_label_keys = grp_key, .nr_match_label_keys = 1 },
		{ .name = "w-g", .sub_group_size = 2, .min_sub_groups = 2, .selector = &workers,
		  .match_label_keys = grp_key, .nr_match_label_keys = 1 },
	};
	struct vs_job *job = pg("j", 5, roles, 1, sgs, 2);
	struct vs_task *m1 = run("m1", "j", "master", 0, "m1");
	struct vs_task *w1a, *local[2];
	struct vs_bundle b[2];

	run("m2", "j", "master", 10, "m2");
	w1a = run("w1a", "j", "worker", 1, "w1");
	run("w2a", "j", "worker", 11, "w2");
	run("w2b", "j", "worker", 12, "w2");
	run("w3a", "j", "worker", 13, "w3");
	run("w3b", "j", "worker", 14, "w3");
	local[0] = w1a;
	local[1] = m1;
	st_open(&sched, &cl, GANG_CONF, &ssn);
	cr_assert_eq(vs_subjobs_of(ssn, job)->nr, 5);
	cr_assert_not(vs_subjob_is_ready(vs_subjob_of(ssn, w1a)));
	cr_assert_eq(vs_bundles_make(ssn, &arena, job, local, 2, b), 2);
	assert_bundle(&b[0], false, "m1");
	assert_bundle(&b[1], true, "w1a");
}

/*
 * TestCreateJobBundles_AlreadyBrokenSubJobIsSubjectToFurtherEviction:
 * minAvailable 3, group minimum 2 with sj1 broken (one of two pods) and
 * sj2, sj3 ready: no sub-job to spare, but sj1 has nothing left to lose.
 */
Test(bundle, a_broken_subjob_stays_safe_when_its_group_has_none_to_spare)
{
	const struct vs_subgroup_policy_spec sgs[] = {
		{ .name = "g", .sub_group_size = 2, .min_sub_groups = 2,
		  .match_label_keys = grp_key, .nr_match_label_keys = 1 },
	};
	struct vs_job *job = pg("j", 3, NULL, 0, sgs, 1);
	struct vs_task *local[3];
	struct vs_bundle b[2];

	local[0] = run("sj1a", "j", "worker", 1, "1");
	local[1] = run("sj2a", "j", "worker", 2, "2");
	run("sj2b", "j", "worker", 3, "2");
	local[2] = run("sj3a", "j", "worker", 4, "3");
	run("sj3b", "j", "worker", 5, "3");
	st_open(&sched, &cl, GANG_CONF, &ssn);
	cr_assert_eq(vs_bundles_make(ssn, &arena, job, local, 3, b), 2);
	assert_bundle(&b[0], false, "sj1a");
	assert_bundle(&b[1], true, "sj2a sj3a");
}

/*
 * TestCreateJobBundles_JobNotReadyShortCircuitsAllSafe: minAvailable 10
 * with two pods ready; nothing to keep, one safe bundle whatever the
 * sub-jobs say (sj1, of three, is broken as well).
 */
Test(bundle, a_job_not_gang_ready_gives_all_as_one_safe_bundle)
{
	const struct vs_subgroup_policy_spec sgs[] = {
		{ .name = "g", .sub_group_size = 3, .min_sub_groups = 2,
		  .match_label_keys = grp_key, .nr_match_label_keys = 1 },
	};
	struct vs_job *job = pg("j", 10, NULL, 0, sgs, 1);
	struct vs_task *local[2];
	struct vs_bundle b[2];

	local[0] = run("b", "j", "worker", 1, "1");
	local[1] = run("a", "j", "worker", 0, "1");
	st_open(&sched, &cl, GANG_CONF, &ssn);
	cr_assert_eq(vs_bundles_make(ssn, &arena, job, local, 2, b), 1);
	assert_bundle(&b[0], false, "a b");
	cr_assert(vs_res_is_empty(&b[0].global));
	cr_assert_eq(vs_bundle_roi(&b[0], &b[0].local), HUGE_VAL);
}

/* TestCreateJobBundles_NoTaskMinAvailableTreatsAllRolesAsUnconstrained */
Test(bundle, without_role_minima_roles_do_not_hold_tasks)
{
	struct vs_job *job = pg("j", 2, NULL, 0, NULL, 0);
	struct vs_task *local[4];
	struct vs_bundle b[2];

	local[0] = run("d", "j", "worker", 3, NULL);
	local[1] = run("c", "j", "worker", 2, NULL);
	local[2] = run("b", "j", "worker", 1, NULL);
	local[3] = run("a", "j", "worker", 0, NULL);
	st_open(&sched, &cl, GANG_CONF, &ssn);
	cr_assert_eq(vs_bundles_make(ssn, &arena, job, local, 4, b), 2);
	assert_bundle(&b[0], false, "a b");
	assert_bundle(&b[1], true, "c d");
}

/* vsched: a role at its minimum holds its tasks even when the job could spare them. */
Test(bundle, a_role_at_its_minimum_holds_its_tasks)
{
	static const struct vs_role_min_spec roles[] = { { "worker", 2 } };
	struct vs_job *job = pg("j", 2, roles, 1, NULL, 0);
	struct vs_task *local[3];
	struct vs_bundle b[2];

	local[0] = run("w0", "j", "worker", 0, NULL);
	local[1] = run("w1", "j", "worker", 0, NULL);
	local[2] = run("p0", "j", "ps", 5, NULL);
	run("p1", "j", "ps", 5, NULL);
	st_open(&sched, &cl, GANG_CONF, &ssn);
	/* surplus 2, worker surplus 0: only the ps goes safe */
	cr_assert_eq(vs_bundles_make(ssn, &arena, job, local, 3, b), 2);
	assert_bundle(&b[0], false, "p0");
	assert_bundle(&b[1], true, "w0 w1");
}

/* ---- order ---- */

/* A bundle of @task's job by hand, as Volcano's sort tests make them. */
static struct vs_bundle hand(struct vs_task **task, bool whole, s64 local, s64 global)
{
	struct vs_bundle b = { .job = task[0]->job, .tasks = task, .nr = 1, .whole = whole };

	b.local = st_res(local, 0);
	b.global = st_res(global, 0);
	return b;
}

static void prioclass(const char *name, s32 value)
{
	struct vs_prioclass_spec pc = { .name = name, .value = value };

	cr_assert_eq(vs_prioclass_add(&cl, &pc, NULL, NULL), 0);
}

static struct vs_job *pg_prio(const char *name, const char *pc, const char *queue)
{
	struct vs_job_spec spec;
	struct vs_job *job;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&spec, "ns", name);
	spec.queue = queue;
	spec.min_member = 1;
	spec.phase = VS_PG_RUNNING;
	spec.priority_class = pc;
	cr_assert_eq(vs_job_add(&cl, &spec, &job, &e), 0, "%s", e.msg);
	return job;
}

static void assert_order(const struct vs_bundle *b, u32 nr, const char *want)
{
	char got[256];
	size_t off = 0;

	got[0] = '\0';
	for (u32 i = 0; i < nr; i++)
		off += (size_t)snprintf(got + off, sizeof(got) - off, "%s%s", i ? " " : "",
					b[i].tasks[0]->name);
	cr_assert_str_eq(got, want);
}

/*
 * TestSortBundlesForPreempt_TypePriorityAndROI: safe first even of the
 * higher priority job; then of two whole bundles of one job the one giving
 * back more of the need per resource of the job (1000 of 2000 before 1000
 * of 4000).
 */
Test(bundle, preempt_takes_safe_first_then_the_higher_return)
{
	struct vs_task *s1, *w1, *w2;
	struct vs_bundle b[3];
	struct vs_res need = st_res(1000, 0);

	prioclass("low", 1);
	prioclass("high", 10);
	pg_prio("low", "low", "q");
	pg_prio("high", "high", "q");
	s1 = run("s1", "high", "", 0, NULL);
	w1 = run("w1", "low", "", 0, NULL);
	w2 = run("w2", "low", "", 0, NULL);
	st_open(&sched, &cl, PRIO_CONF, &ssn);
	b[0] = hand(&w1, true, 1000, 4000);
	b[1] = hand(&s1, false, 1000, 0);
	b[2] = hand(&w2, true, 1000, 2000);
	cr_assert_eq(vs_bundles_sort(ssn, &arena, b, 3, &need, NULL), 0);
	assert_order(b, 3, "s1 w2 w1");
}

/*
 * TestSortBundlesForPreempt_UsesVictimJobOrder: of equal bundles, the
 * victim job order decides before the names. Volcano passes a function
 * putting "jb" first; here jb is the lower priority job, which the victim
 * order (the reverse of the job order) takes first.
 */
Test(bundle, preempt_follows_the_victim_job_order)
{
	struct vs_task *a, *bt;
	struct vs_bundle b[2];
	struct vs_res need = st_res(1000, 0);

	prioclass("low", 1);
	prioclass("high", 10);
	pg_prio("ja", "high", "q");
	pg_prio("jb", "low", "q");
	a = run("a", "ja", "", 0, NULL);
	bt = run("b", "jb", "", 0, NULL);
	st_open(&sched, &cl, PRIO_CONF, &ssn);
	b[0] = hand(&a, true, 1000, 2000);
	b[1] = hand(&bt, true, 1000, 2000);
	cr_assert_eq(vs_bundles_sort(ssn, &arena, b, 2, &need, NULL), 0);
	assert_order(b, 2, "b a");
	/* and the job order, not the order given */
	b[0] = hand(&bt, true, 1000, 2000);
	b[1] = hand(&a, true, 1000, 2000);
	cr_assert_eq(vs_bundles_sort(ssn, &arena, b, 2, &need, NULL), 0);
	assert_order(b, 2, "b a");
}

/*
 * Queues qa and qb share a 4 cpu node with the reclaimer's queue qr, which
 * asks for 4: qa holds 3 cpu, qb 1. proportion gives qb its 1 and splits
 * the rest between qa and qr, so qa is the most over its share, the first
 * to give up a task.
 */
static struct vs_queue *reclaim_queues(void)
{
	struct vs_task_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_queue *qr;

	vs_cluster_destroy(&cl);
	cr_assert_eq(vs_cluster_init(&cl), 0);
	st_queue(&cl, "qa");
	st_queue(&cl, "qb");
	qr = st_queue(&cl, "qr");
	node = st_node(&cl, "n", 4000, 64 * GI, 100);
	pg_prio("ja", NULL, "qa");
	pg_prio("jb", NULL, "qb");
	pg_prio("jr", NULL, "qr");
	vs_task_spec_init(&spec, "ns", "r", "jr");
	spec.req = st_res(4000, 0);
	cr_assert_eq(vs_task_add(&cl, &spec, NULL, &e), 0, "%s", e.msg);
	return qr;
}

/*
 * TestSortBundlesForReclaim_UsesQueueOrderThenROI, first half: the victim
 * queue order goes before the return (qa's bundle gives back less). Volcano
 * orders qa first by name; here by proportion's shares.
 */
Test(bundle, reclaim_follows_the_victim_queue_order_before_the_return)
{
	struct vs_task *a, *bt;
	struct vs_queue *qr = reclaim_queues();
	struct vs_bundle b[2];
	struct vs_res need = st_res(1000, 0);

	a = run("a", "ja", "", 0, NULL);
	run("a2", "ja", "", 0, NULL);
	run("a3", "ja", "", 0, NULL);
	bt = run("b", "jb", "", 0, NULL);
	st_open(&sched, &cl, PROP_CONF, &ssn);
	cr_assert_lt(vs_ssn_victim_queue_order(ssn, a->job->queue, bt->job->queue, qr), 0);
	b[0] = hand(&bt, true, 1000, 2000);
	b[1] = hand(&a, true, 1000, 4000);
	cr_assert_eq(vs_bundles_sort(ssn, &arena, b, 2, &need, qr), 0);
	assert_order(b, 2, "a b");
}

/*
 * TestSortBundlesForReclaim_UsesQueueOrderThenROI, second half: when the
 * queues do not decide, the return does. Volcano gets there with no queue
 * order at all; vsched's victim queue order always tells two queues apart
 * (as Volcano's VictimQueueOrderFn does, down to creation and UID), so here
 * the two jobs share a queue.
 */
Test(bundle, reclaim_within_a_queue_takes_the_higher_return)
{
	struct vs_task *c, *d;
	struct vs_queue *qr = reclaim_queues();
	struct vs_bundle b[2];
	struct vs_res need = st_res(1000, 0);

	pg_prio("jc", NULL, "qa");
	pg_prio("jd", NULL, "qa");
	c = run("c", "jc", "", 0, NULL);
	d = run("d", "jd", "", 0, NULL);
	st_open(&sched, &cl, PROP_CONF, &ssn);
	b[0] = hand(&c, true, 1000, 4000);
	b[1] = hand(&d, true, 1000, 2000);
	cr_assert_eq(vs_bundles_sort(ssn, &arena, b, 2, &need, qr), 0);
	assert_order(b, 2, "d c");
}

/*
 * TestSortBundlesForReclaim_DeterministicTieBreaker: one queue, equal
 * returns: by job UID, whatever the order given.
 */
Test(bundle, reclaim_ties_go_by_job_uid)
{
	struct vs_task *a, *bt;
	struct vs_queue *qr = reclaim_queues();
	struct vs_bundle b[2];
	struct vs_res need = st_res(1000, 0);

	pg_prio("jx", NULL, "qa");
	pg_prio("jy", NULL, "qa");
	/* task names against job names, so that only the job's can decide */
	a = run("z", "jx", "", 0, NULL);
	bt = run("a", "jy", "", 0, NULL);
	st_open(&sched, &cl, PROP_CONF, &ssn);
	b[0] = hand(&bt, true, 1000, 2000);
	b[1] = hand(&a, true, 1000, 2000);
	cr_assert_eq(vs_bundles_sort(ssn, &arena, b, 2, &need, qr), 0);
	assert_order(b, 2, "z a");
}

/* bundleROI: per resource of the need, capped at it, over the job's share of it. */
Test(bundle, roi_is_the_capped_return_over_the_jobs_share)
{
	struct vs_job *job = pg("j", 1, NULL, 0, NULL, 0);
	struct vs_task *t = run("t", "j", "", 0, NULL);
	struct vs_bundle b = { .job = job, .tasks = &t, .nr = 1, .whole = true };
	struct vs_res need = st_res(1000, 0);

	b.local = st_res(1000, 0);
	b.global = st_res(4000, 0);
	cr_assert_float_eq(vs_bundle_roi(&b, &need), 0.25, 1e-12);
	/* more than the need counts as the need */
	b.local = st_res(3000, 0);
	cr_assert_float_eq(vs_bundle_roi(&b, &need), 0.25, 1e-12);
	/* two resources: (1 + 1) / (2 + 4) */
	need = st_res(1000, GI);
	b.local = st_res(1000, 2 * GI);
	b.global = st_res(2000, 4 * GI);
	cr_assert_float_eq(vs_bundle_roi(&b, &need), 1.0 / 3, 1e-12);
	/* what is not needed counts for nothing, in the return or the share */
	need = st_res(1000, 0);
	b.local = st_res(500, 8 * GI);
	b.global = st_res(1000, 64 * GI);
	cr_assert_float_eq(vs_bundle_roi(&b, &need), 0.5, 1e-12);
	/* safe: nothing of the job given up, even when it gives back nothing needed */
	vs_res_clear(&b.global);
	cr_assert_eq(vs_bundle_roi(&b, &need), HUGE_VAL);
	b.local = st_res(0, GI);
	cr_assert_eq(vs_bundle_roi(&b, &need), HUGE_VAL);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * The job controller's state machine: every (phase x action) pair on a job
 * whose two tasks run, and on one whose two tasks succeeded; the cases of
 * Volcano's job_state_test.go; KillJob and KillTarget (TestPodsToKill,
 * TestKillPodsPodGroupDeletion); the lifecycle policies (TestApplyPolicies);
 * and calcPGMinResources (TestTaskPriority_CalcPGMin, TestCalcPGMinResources).
 */
#include "controllers/jobstate.h"
#include "ctltest.h"

TestSuite(jobstate, .init = ct_setup, .fini = ct_teardown);

/* ---- the whole table ---- */

enum fixture { ALIVE, DONE, NR_FIXTURES };

struct outcome {
	enum vs_vjob_phase phase;
	u32 retry;
	u32 tasks;		/* left in the core */
	bool pg;		/* the PodGroup is still there */
	u32 kept;		/* finished replicas remembered without a task */
};

#define P(x)		VS_VJOB_##x
/* SyncJob: both tasks stay, so does the PodGroup */
#define SYNC(p)		{ P(p), 0, 2, true, 0 }
/* KillJob: every task and the PodGroup gone */
#define KILLED(p, r)	{ P(p), r, 0, false, 0 }
/* KillJob keeping finished tasks: the two successes remembered, the PodGroup gone */
#define KEPT(p, r)	{ P(p), r, 0, false, 2 }
/* KillTarget: the task group, or one task, gone; the PodGroup stays */
#define GROUP(p, r)	{ P(p), r, 0, true, 0 }
#define POD(p, r)	{ P(p), r, 1, true, 0 }

/* The actions that are no kill in Pending and Running: SyncJob's default. */
#define SYNCS(alive, done)						\
	[VS_ACT_RESUME_JOB]	= { alive, done },			\
	[VS_ACT_SYNC_JOB]	= { alive, done },			\
	[VS_ACT_ENQUEUE_JOB]	= { alive, done },			\
	[VS_ACT_SYNC_QUEUE]	= { alive, done },			\
	[VS_ACT_OPEN_QUEUE]	= { alive, done },			\
	[VS_ACT_CLOSE_QUEUE]	= { alive, done }

#define KILLS_OF_PENDING_AND_RUNNING						\
	[VS_ACT_ABORT_JOB]	= { KILLED(ABORTING, 0), KEPT(ABORTING, 0) },		\
	[VS_ACT_RESTART_JOB]	= { KILLED(RESTARTING, 1), KILLED(RESTARTING, 1) },	\
	[VS_ACT_RESTART_TASK]	= { GROUP(RESTARTING, 1), GROUP(RESTARTING, 1) },	\
	[VS_ACT_RESTART_POD]	= { POD(RESTARTING, 1), POD(RESTARTING, 1) },		\
	[VS_ACT_TERMINATE_JOB]	= { KILLED(TERMINATING, 0), KEPT(TERMINATING, 0) },	\
	[VS_ACT_COMPLETE_JOB]	= { KILLED(COMPLETING, 0), KEPT(COMPLETING, 0) }

/* Every action gives the same. */
#define ALL(alive, done)						\
	[VS_ACT_ABORT_JOB]	= { alive, done },			\
	[VS_ACT_RESTART_JOB]	= { alive, done },			\
	[VS_ACT_RESTART_TASK]	= { alive, done },			\
	[VS_ACT_RESTART_POD]	= { alive, done },			\
	[VS_ACT_TERMINATE_JOB]	= { alive, done },			\
	[VS_ACT_COMPLETE_JOB]	= { alive, done },			\
	[VS_ACT_RESUME_JOB]	= { alive, done },			\
	[VS_ACT_SYNC_JOB]	= { alive, done },			\
	[VS_ACT_ENQUEUE_JOB]	= { alive, done },			\
	[VS_ACT_SYNC_QUEUE]	= { alive, done },			\
	[VS_ACT_OPEN_QUEUE]	= { alive, done },			\
	[VS_ACT_CLOSE_QUEUE]	= { alive, done }

/* Aborting and Aborted: ResumeJob restarts, anything else kills. */
#define ABORTISH(alive, done)						\
	[VS_ACT_ABORT_JOB]	= { alive, done },			\
	[VS_ACT_RESTART_JOB]	= { alive, done },			\
	[VS_ACT_RESTART_TASK]	= { alive, done },			\
	[VS_ACT_RESTART_POD]	= { alive, done },			\
	[VS_ACT_TERMINATE_JOB]	= { alive, done },			\
	[VS_ACT_COMPLETE_JOB]	= { alive, done },			\
	[VS_ACT_RESUME_JOB]	= { KILLED(RESTARTING, 1), KEPT(RESTARTING, 1) }, \
	[VS_ACT_SYNC_JOB]	= { alive, done },			\
	[VS_ACT_ENQUEUE_JOB]	= { alive, done },			\
	[VS_ACT_SYNC_QUEUE]	= { alive, done },			\
	[VS_ACT_OPEN_QUEUE]	= { alive, done },			\
	[VS_ACT_CLOSE_QUEUE]	= { alive, done }

/*
 * Two tasks of one group ("t", replicas = minAvailable = 2, maxRetry 3, no
 * retries yet), the PodGroup admitted: [phase][action][fixture].
 */
static const struct outcome table[VS_VJOB_NR_PHASES][VS_ACT_NR][NR_FIXTURES] = {
	[VS_VJOB_PENDING] = {
		KILLS_OF_PENDING_AND_RUNNING,
		SYNCS(SYNC(RUNNING), SYNC(RUNNING)),
	},
	[VS_VJOB_RUNNING] = {
		KILLS_OF_PENDING_AND_RUNNING,
		SYNCS(SYNC(RUNNING), SYNC(COMPLETED)),
	},
	[VS_VJOB_RESTARTING] = {
		[VS_ACT_ABORT_JOB]	= { KILLED(RESTARTING, 0), KILLED(RESTARTING, 0) },
		[VS_ACT_RESTART_JOB]	= { KILLED(RESTARTING, 0), KILLED(RESTARTING, 0) },
		[VS_ACT_RESTART_TASK]	= { GROUP(RESTARTING, 0), GROUP(RESTARTING, 0) },
		[VS_ACT_RESTART_POD]	= { POD(RESTARTING, 0), POD(RESTARTING, 0) },
		[VS_ACT_TERMINATE_JOB]	= { KILLED(RESTARTING, 0), KILLED(RESTARTING, 0) },
		[VS_ACT_COMPLETE_JOB]	= { KILLED(RESTARTING, 0), KILLED(RESTARTING, 0) },
		[VS_ACT_RESUME_JOB]	= { KILLED(RESTARTING, 0), KILLED(RESTARTING, 0) },
		[VS_ACT_SYNC_JOB]	= { SYNC(PENDING), SYNC(PENDING) },
		[VS_ACT_ENQUEUE_JOB]	= { KILLED(RESTARTING, 0), KILLED(RESTARTING, 0) },
		[VS_ACT_SYNC_QUEUE]	= { KILLED(RESTARTING, 0), KILLED(RESTARTING, 0) },
		[VS_ACT_OPEN_QUEUE]	= { KILLED(RESTARTING, 0), KILLED(RESTARTING, 0) },
		[VS_ACT_CLOSE_QUEUE]	= { KILLED(RESTARTING, 0), KILLED(RESTARTING, 0) },
	},
	[VS_VJOB_ABORTING]	= { ABORTISH(KILLED(ABORTING, 0), KEPT(ABORTED, 0)) },
	[VS_VJOB_ABORTED]	= { ABORTISH(KILLED(ABORTED, 0), KEPT(ABORTED, 0)) },
	[VS_VJOB_COMPLETING]	= { ALL(KILLED(COMPLETING, 0), KEPT(COMPLETED, 0)) },
	[VS_VJOB_COMPLETED]	= { ALL(KILLED(COMPLETED, 0), KEPT(COMPLETED, 0)) },
	[VS_VJOB_TERMINATING]	= { ALL(KILLED(TERMINATING, 0), KEPT(TERMINATED, 0)) },
	[VS_VJOB_TERMINATED]	= { ALL(KILLED(TERMINATED, 0), KEPT(TERMINATED, 0)) },
	[VS_VJOB_FAILED]	= { ALL(KILLED(FAILED, 0), KEPT(FAILED, 0)) },
};

static u32 kept_of(const struct vs_vjob *v)
{
	u32 n = 0;

	for (u32 t = 0; t < v->nr_tasks; t++)
		for (u32 i = 0; v->tasks[t].kept && i < v->tasks[t].replicas; i++)
			n += v->tasks[t].kept[i] != VS_VJOB_KEPT_NONE;
	return n;
}

/* The job of the table: admitted, both tasks placed, Running (ALIVE) or Succeeded. */
static struct vs_vjob *table_job(enum vs_vjob_phase phase, enum fixture f, u32 retry)
{
	struct vs_vjob_task_spec t = ct_vtask("t", 2, 1000);
	struct vs_node *n = ct_node("n1", 4000);
	struct vs_vjob *v = ct_vjob("j", &t, 1);

	ct_sync(v);
	cr_assert_not_null(v->podgroup);
	cr_assert_eq(cl.nr_tasks, 0, "no task before the PodGroup is admitted");
	vs_job_set_phase(&cl, v->podgroup, VS_PG_INQUEUE);
	ct_sync(v);
	cr_assert_eq(cl.nr_tasks, 2);
	for (u32 i = 0; i < 2; i++) {
		struct vs_task *task = ct_task(i ? "j-t-1" : "j-t-0");

		cr_assert_not_null(task);
		cr_assert_eq(vs_task_place(&cl, task, n, VS_TASK_RUNNING, NULL), 0);
		if (f == DONE)
			cr_assert_eq(vs_task_set_status(&cl, task, VS_TASK_SUCCEEDED, NULL), 0);
	}
	v->phase = phase;
	v->retry_count = retry;
	return v;
}

static void run_action(struct vs_vjob *v, enum vs_vjob_action action)
{
	struct vs_jc_target target = { &v->tasks[0], NULL };
	struct vs_err e = { { 0 } };

	if (action == VS_ACT_RESTART_POD)
		target.pod = "j-t-0";
	cr_assert_eq(vs_jc_execute(&ctl, v, action, &target, &e), 0, "%s", e.msg);
}

Test(jobstate, every_phase_and_action_of_the_table)
{
	for (unsigned int p = 0; p < VS_VJOB_NR_PHASES; p++) {
		for (unsigned int a = 0; a < VS_ACT_NR; a++) {
			for (unsigned int f = 0; f < NR_FIXTURES; f++) {
				const struct outcome *want = &table[p][a][f];
				struct vs_vjob *v;
				char what[96];

				snprintf(what, sizeof(what), "%s x %s, tasks %s",
					 vs_vjob_phase_name(p), vs_vjob_action_name(a),
					 f == ALIVE ? "running" : "succeeded");
				vs_cluster_destroy(&cl);
				ct_setup();
				v = table_job(p, f, 0);
				run_action(v, a);
				cr_expect_eq(v->phase, want->phase, "%s: %s, want %s", what,
					     vs_vjob_phase_name(v->phase),
					     vs_vjob_phase_name(want->phase));
				cr_expect_eq(v->retry_count, want->retry, "%s: retries %u, want %u",
					     what, v->retry_count, want->retry);
				cr_expect_eq(cl.nr_tasks, want->tasks, "%s: %u tasks left, want %u",
					     what, cl.nr_tasks, want->tasks);
				cr_expect_eq(v->podgroup != NULL, want->pg, "%s: podgroup %s", what,
					     want->pg ? "gone" : "kept");
				cr_expect_eq(kept_of(v), want->kept, "%s: %u kept", what,
					     kept_of(v));
				ct_check();
			}
		}
	}
}

/* A kill releases what the killed tasks held on their node. */
Test(jobstate, a_kill_releases_the_node)
{
	struct vs_vjob *v = table_job(VS_VJOB_RUNNING, ALIVE, 0);
	struct vs_node *n = vs_node_find(&cl, "n1");

	cr_assert_eq(vs_res_get(&n->used, VS_RES_CPU), 2000);
	run_action(v, VS_ACT_ABORT_JOB);
	cr_assert_eq(vs_res_get(&n->used, VS_RES_CPU), 0);
	cr_assert_eq(n->nr_tasks, 0);
	cr_assert_eq(v->status.terminating, 2);
	cr_assert_eq(v->status.version, 1, "a kill of the whole job bumps the version");
}

/* At the last retry a restart keeps the finished tasks, whatever it asked for. */
Test(jobstate, the_last_retry_keeps_finished_tasks)
{
	struct vs_vjob *v = table_job(VS_VJOB_RUNNING, DONE, 2);

	run_action(v, VS_ACT_RESTART_JOB);
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING);
	cr_assert_eq(v->retry_count, 3);
	cr_assert_eq(kept_of(v), 2);
	cr_assert_eq(v->status.succeeded, 2);
	cr_assert_eq(v->status.terminating, 0);
	/* and the next sync finds the retries spent */
	ct_sync(v);
	cr_assert_eq(v->phase, VS_VJOB_FAILED);
}

/* ---- Volcano's job_state_test.go ---- */

/*
 * A job whose PodGroup is not admitted yet: SyncJob moves the phase on the
 * counters it last wrote, as Volcano's tests set Status directly.
 */
static struct vs_vjob *status_job(u32 replicas, u32 min_available, enum vs_vjob_phase phase)
{
	struct vs_vjob_task_spec t = ct_vtask("task1", replicas, 100);
	struct vs_vjob *v;

	v = ct_vjob_min("job1", &t, 1, min_available);
	ct_sync(v);
	cr_assert_eq(v->podgroup->phase, VS_PG_PENDING);
	v->phase = phase;
	return v;
}

static void execute(struct vs_vjob *v, enum vs_vjob_action action)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_jc_execute(&ctl, v, action, NULL, &e), 0, "%s", e.msg);
	ct_check();
}

Test(jobstate, pending_enqueue_with_min_available_running_goes_running)
{
	struct vs_vjob *v = status_job(3, 3, VS_VJOB_PENDING);

	v->status.running = 3;
	execute(v, VS_ACT_ENQUEUE_JOB);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
}

Test(jobstate, pending_enqueue_short_of_min_available_stays_pending)
{
	struct vs_vjob *v = status_job(3, 3, VS_VJOB_PENDING);

	v->status.running = 2;
	execute(v, VS_ACT_ENQUEUE_JOB);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
}

Test(jobstate, pending_counts_finished_tasks_towards_min_available)
{
	struct vs_vjob *v = status_job(3, 3, VS_VJOB_PENDING);

	v->status.running = 1;
	v->status.succeeded = 1;
	v->status.failed = 1;
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
}

Test(jobstate, restarting_with_retries_spent_fails)
{
	struct vs_vjob *v = status_job(2, 2, VS_VJOB_RESTARTING);

	v->retry_count = 3;
	execute(v, VS_ACT_RESTART_JOB);
	cr_assert_eq(v->phase, VS_VJOB_FAILED);
}

Test(jobstate, restarting_with_retries_left_goes_pending)
{
	struct vs_vjob_task_spec t[2] = { ct_vtask("task1", 1, 100), ct_vtask("task2", 1, 100) };
	struct vs_vjob *v;

	v = ct_vjob_min("job1", t, 2, 1);
	ct_sync(v);
	v->phase = VS_VJOB_RESTARTING;
	v->retry_count = 1;
	execute(v, VS_ACT_RESTART_JOB);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
	cr_assert_eq(v->retry_count, 1);
}

Test(jobstate, restarting_waits_while_too_many_are_terminating)
{
	struct vs_vjob *v = status_job(2, 2, VS_VJOB_RESTARTING);

	v->status.terminating = 1;
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING, "2 replicas - 1 terminating < 2");
	v->status.terminating = 0;
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
}

Test(jobstate, running_with_every_task_succeeded_completes)
{
	struct vs_vjob *v = status_job(2, 2, VS_VJOB_RUNNING);

	v->status.succeeded = 2;
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_COMPLETED);
}

Test(jobstate, running_with_one_of_two_succeeded_stays_running)
{
	struct vs_vjob *v = status_job(2, 2, VS_VJOB_RUNNING);

	v->status.succeeded = 1;
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
}

Test(jobstate, running_goes_back_to_pending_when_all_are_pending)
{
	struct vs_vjob *v = status_job(5, 3, VS_VJOB_RUNNING);

	v->status.pending = 5;
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
}

Test(jobstate, running_goes_back_to_pending_when_more_pending_than_spare)
{
	struct vs_vjob *v = status_job(5, 3, VS_VJOB_RUNNING);

	v->status.pending = 3;
	v->status.running = 2;
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_PENDING, "3 pending > 5 replicas - 3 minAvailable");
}

Test(jobstate, running_stays_when_pending_fits_the_spare)
{
	struct vs_vjob *v = status_job(5, 3, VS_VJOB_RUNNING);

	v->status.pending = 2;
	v->status.running = 1;
	v->status.succeeded = 1;
	v->status.failed = 1;
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
}

Test(jobstate, running_with_every_task_finished_but_too_few_successes_fails)
{
	struct vs_vjob *v = status_job(3, 2, VS_VJOB_RUNNING);

	v->status.succeeded = 1;
	v->status.failed = 2;
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_FAILED);
}

/* The groups' minAvailable is checked when the job's covers them all. */
Test(jobstate, running_fails_when_a_group_has_fewer_successes_than_its_min)
{
	struct vs_vjob_task_spec t[2] = { ct_vtask("ps", 1, 100), ct_vtask("worker", 2, 100) };
	struct vs_node *n = ct_node("n1", 4000);
	const char *names[] = { "tf-ps-0", "tf-worker-0", "tf-worker-1" };
	const enum vs_task_status end[] = { VS_TASK_FAILED, VS_TASK_SUCCEEDED, VS_TASK_SUCCEEDED };
	struct vs_vjob *v;

	t[1].has_min_available = true;
	t[1].min_available = 1;
	v = ct_vjob("tf", t, 2);
	cr_assert_eq(v->min_available, 2);
	ct_sync(v);
	vs_job_set_phase(&cl, v->podgroup, VS_PG_RUNNING);
	ct_sync(v);
	for (int i = 0; i < 3; i++) {
		struct vs_task *task = ct_task(names[i]);

		cr_assert_eq(vs_task_place(&cl, task, n, VS_TASK_RUNNING, NULL), 0);
		cr_assert_eq(vs_task_set_status(&cl, task, end[i], NULL), 0);
	}
	v->phase = VS_VJOB_RUNNING;
	/*
	 * minAvailable 2 covers the groups' 1 + 1, and 2 succeeded, but ps has
	 * 0 successes of its 1: Failed, where the job alone would complete.
	 */
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, VS_VJOB_FAILED);
}

/* Aborting, Completing, Terminating: still alive, or settled. */
static void settles(enum vs_vjob_phase from, enum vs_vjob_phase done)
{
	struct vs_vjob *v;

	v = table_job(from, ALIVE, 0);
	execute(v, VS_ACT_RESTART_JOB);
	cr_assert_eq(v->phase, from, "%s with tasks still alive", vs_vjob_phase_name(from));
	cr_assert_eq(v->status.terminating, 2);
	execute(v, VS_ACT_SYNC_JOB);
	cr_assert_eq(v->phase, done, "%s once nothing is alive", vs_vjob_phase_name(from));
}

Test(jobstate, aborting_becomes_aborted_once_nothing_is_alive)
{
	settles(VS_VJOB_ABORTING, VS_VJOB_ABORTED);
}

Test(jobstate, completing_becomes_completed_once_nothing_is_alive)
{
	settles(VS_VJOB_COMPLETING, VS_VJOB_COMPLETED);
}

Test(jobstate, terminating_becomes_terminated_once_nothing_is_alive)
{
	settles(VS_VJOB_TERMINATING, VS_VJOB_TERMINATED);
}

Test(jobstate, resume_of_an_aborted_job_counts_a_retry)
{
	struct vs_vjob *v = status_job(2, 2, VS_VJOB_ABORTED);

	execute(v, VS_ACT_RESTART_JOB);
	cr_assert_eq(v->phase, VS_VJOB_ABORTED, "only ResumeJob leaves Aborted");
	cr_assert_eq(v->retry_count, 0);
	execute(v, VS_ACT_RESUME_JOB);
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING);
	cr_assert_eq(v->retry_count, 1);
}

/* ---- KillTarget and KillJob (TestPodsToKill, TestKillPodsPodGroupDeletion) ---- */

static struct vs_vjob *two_groups(void)
{
	struct vs_vjob_task_spec t[2] = { ct_vtask("task1", 2, 100), ct_vtask("task2", 1, 100) };
	struct vs_node *n = ct_node("n1", 4000);
	struct vs_vjob *v = ct_vjob("job1", t, 2);
	struct vs_task *task;

	ct_sync(v);
	vs_job_set_phase(&cl, v->podgroup, VS_PG_RUNNING);
	ct_sync(v);
	list_for_each_entry(task, &v->podgroup->tasks, job_node)
		cr_assert_eq(vs_task_place(&cl, task, n, VS_TASK_RUNNING, NULL), 0);
	v->phase = VS_VJOB_RUNNING;
	return v;
}

Test(jobstate, kill_target_task_kills_that_group_only)
{
	struct vs_vjob *v = two_groups();
	struct vs_jc_target tg = { &v->tasks[0], NULL };

	vs_jc_kill(&ctl, v, false, &tg, VS_JC_UPD_NONE);
	cr_assert_null(ct_task("job1-task1-0"));
	cr_assert_null(ct_task("job1-task1-1"));
	cr_assert_not_null(ct_task("job1-task2-0"));
	cr_assert_not_null(v->podgroup, "a targeted kill keeps the PodGroup");
	cr_assert_eq(v->status.terminating, 2);
	cr_assert_eq(v->status.version, 0, "only a kill of the whole job bumps the version");
}

Test(jobstate, kill_target_pod_kills_that_task_only)
{
	struct vs_vjob *v = two_groups();
	struct vs_jc_target tg = { &v->tasks[0], "job1-task1-0" };

	vs_jc_kill(&ctl, v, false, &tg, VS_JC_UPD_NONE);
	cr_assert_null(ct_task("job1-task1-0"));
	cr_assert_not_null(ct_task("job1-task1-1"));
	cr_assert_eq(cl.nr_tasks, 2);
	cr_assert_not_null(v->podgroup);
}

Test(jobstate, kill_target_of_no_group_or_no_pod_kills_nothing)
{
	struct vs_vjob *v = two_groups();
	struct vs_jc_target none = { NULL, NULL }, nopod = { &v->tasks[0], "job1-task1-7" };

	vs_jc_kill(&ctl, v, false, &none, VS_JC_UPD_NONE);
	vs_jc_kill(&ctl, v, false, &nopod, VS_JC_UPD_NONE);
	cr_assert_eq(cl.nr_tasks, 3);
	cr_assert_eq(v->status.terminating, 0);
}

Test(jobstate, a_kill_of_the_whole_job_deletes_the_podgroup)
{
	struct vs_vjob *v = two_groups();

	vs_jc_kill(&ctl, v, false, NULL, VS_JC_UPD_NONE);
	cr_assert_null(v->podgroup);
	cr_assert_null(vs_job_find(&cl, "ns", "job1"));
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(counts.pg_removing, 1);
	cr_assert_eq(counts.task_removing, 3);
}

/* ---- the lifecycle policies (TestApplyPolicies) ---- */

static struct vs_vjob *policy_job(const struct vs_vjob_policy *jp, u32 njp,
				  const struct vs_vjob_policy *tp, u32 ntp)
{
	struct vs_vjob_task_spec t[2] = { ct_vtask("task1", 1, 100), ct_vtask("task2", 1, 100) };
	struct vs_vjob_spec spec;

	t[0].policies = tp;
	t[0].nr_policies = ntp;
	vs_vjob_spec_init(&spec, "ns", "job1");
	spec.tasks = t;
	spec.nr_tasks = 2;
	spec.policies = jp;
	spec.nr_policies = njp;
	return ct_vjob_spec(&spec);
}

Test(jobstate, internal_events_ignore_the_policies)
{
	const struct vs_vjob_policy any[] = {
		{ .event = VS_EV_POD_RUNNING, .action = VS_ACT_ABORT_JOB },
		{ .event = VS_EV_ANY, .action = VS_ACT_ABORT_JOB },
	};
	struct vs_vjob *v = policy_job(any, 2, any, 2);

	cr_assert_eq(vs_jc_policy_action(v, &v->tasks[0], VS_EV_OUT_OF_SYNC, 0), VS_ACT_SYNC_JOB);
	cr_assert_eq(vs_jc_policy_action(v, &v->tasks[0], VS_EV_POD_RUNNING, 0), VS_ACT_SYNC_JOB);
	cr_assert_eq(vs_jc_policy_action(v, NULL, VS_EV_COMMAND_ISSUED, 0), VS_ACT_SYNC_JOB);
}

Test(jobstate, task_policies_come_before_the_job_policies)
{
	const struct vs_vjob_policy jp[] = { { .event = VS_EV_POD_FAILED,
					       .action = VS_ACT_ABORT_JOB } };
	const struct vs_vjob_policy tp[] = { { .event = VS_EV_POD_FAILED,
					       .action = VS_ACT_RESTART_TASK } };
	struct vs_vjob *v = policy_job(jp, 1, tp, 1);

	cr_assert_eq(vs_jc_policy_action(v, &v->tasks[0], VS_EV_POD_FAILED, 1), VS_ACT_RESTART_TASK);
	cr_assert_eq(vs_jc_policy_action(v, &v->tasks[1], VS_EV_POD_FAILED, 1), VS_ACT_ABORT_JOB,
		     "task2 has no policy of its own");
	cr_assert_eq(vs_jc_policy_action(v, NULL, VS_EV_POD_FAILED, 1), VS_ACT_ABORT_JOB);
	cr_assert_eq(vs_jc_policy_action(v, &v->tasks[0], VS_EV_POD_EVICTED, 0), VS_ACT_SYNC_JOB);
}

Test(jobstate, the_first_matching_policy_wins)
{
	const struct vs_vjob_policy jp[] = {
		{ .has_exit_code = true, .exit_code = 137, .action = VS_ACT_RESTART_JOB },
		{ .event = VS_EV_ANY, .action = VS_ACT_TERMINATE_JOB },
		{ .event = VS_EV_POD_FAILED, .action = VS_ACT_ABORT_JOB },
	};
	struct vs_vjob *v = policy_job(jp, 3, NULL, 0);

	cr_assert_eq(vs_jc_policy_action(v, NULL, VS_EV_POD_FAILED, 137), VS_ACT_RESTART_JOB);
	cr_assert_eq(vs_jc_policy_action(v, NULL, VS_EV_POD_FAILED, 1), VS_ACT_TERMINATE_JOB);
	cr_assert_eq(vs_jc_policy_action(v, NULL, VS_EV_TASK_COMPLETED, 0), VS_ACT_TERMINATE_JOB);
	cr_assert_eq(vs_jc_policy_action(v, NULL, VS_EV_JOB_UNKNOWN, 0), VS_ACT_TERMINATE_JOB);
}

Test(jobstate, an_exit_code_policy_matches_only_its_code)
{
	const struct vs_vjob_policy tp[] = {
		{ .has_exit_code = true, .exit_code = 3, .action = VS_ACT_RESTART_TASK },
	};
	struct vs_vjob *v = policy_job(NULL, 0, tp, 1);

	cr_assert_eq(vs_jc_policy_action(v, &v->tasks[0], VS_EV_POD_FAILED, 3), VS_ACT_RESTART_TASK);
	cr_assert_eq(vs_jc_policy_action(v, &v->tasks[0], VS_EV_POD_FAILED, 4), VS_ACT_SYNC_JOB);
	cr_assert_eq(vs_jc_policy_action(v, &v->tasks[0], VS_EV_POD_EVICTED, 0), VS_ACT_SYNC_JOB);
}

/* Volcano honours PodPending only with a timeout, which vsched does not carry. */
Test(jobstate, a_pod_pending_policy_without_timeout_never_matches)
{
	const struct vs_vjob_policy jp[] = {
		{ .event = VS_EV_POD_PENDING, .action = VS_ACT_RESTART_POD },
		{ .event = VS_EV_ANY, .action = VS_ACT_ABORT_JOB },
	};
	struct vs_vjob *v = policy_job(jp, 2, NULL, 0);

	cr_assert_eq(vs_jc_policy_action(v, &v->tasks[0], VS_EV_POD_PENDING, 0), VS_ACT_SYNC_JOB);
}

/* ---- minResources (TestTaskPriority_CalcPGMin, TestCalcPGMinResources) ---- */

/*
 * Volcano's fixtures: master (2 replicas of 50m) and worker (2 of 100m);
 * each group's minAvailable (-1: unset, i.e. its replicas) and the job's (0:
 * unset, the groups' sum); priorities of master and worker. @direct runs
 * CalcPGMinResources itself, as TestTaskPriority_CalcPGMin does, else
 * calcPGMinResources, which picks it or CalcFirstCountResources.
 */
struct min_case {
	s32 min_master, min_worker;
	u32 job_min;
	s32 prio_master, prio_worker;
	s64 want_mcpu;
	s64 want_pods;
};

static void min_case(const struct min_case *c, int i, bool direct)
{
	struct vs_vjob_task_spec t[2] = { ct_vtask("master", 2, 50), ct_vtask("worker", 2, 100) };
	char name[32];
	struct vs_vjob_spec spec;
	struct vs_vjob *v;
	struct vs_res r;
	s32 prio[2] = { c->prio_master, c->prio_worker };
	struct vs_err e = { { 0 } };

	t[0].req = ct_res(50, 0);
	t[1].req = ct_res(100, 0);
	t[0].has_min_available = c->min_master >= 0;
	t[0].min_available = c->min_master >= 0 ? (u32)c->min_master : 0;
	t[1].has_min_available = c->min_worker >= 0;
	t[1].min_available = c->min_worker >= 0 ? (u32)c->min_worker : 0;
	snprintf(name, sizeof(name), "job%d%s", i, direct ? "-direct" : "");
	vs_vjob_spec_init(&spec, "ns", name);
	spec.tasks = t;
	spec.nr_tasks = 2;
	spec.has_min_available = c->job_min != 0;
	spec.min_available = c->job_min;
	cr_assert_eq(vs_vjob_add(&cl, &spec, &v, &e), 0, "%s", e.msg);
	if (direct)
		vs_jc_calc_pg_min(v, prio, v->min_available, &r);
	else
		vs_jobctl_min_resources(v, prio, &r);
	cr_expect_eq(vs_res_get(&r, VS_RES_CPU), c->want_mcpu, "case %d: cpu %lldm, want %lldm",
		     i, (long long)vs_res_get(&r, VS_RES_CPU), (long long)c->want_mcpu);
	cr_expect_eq(vs_res_get(&r, VS_RES_PODS), c->want_pods, "case %d: %lld pods, want %lld",
		     i, (long long)vs_res_get(&r, VS_RES_PODS), (long long)c->want_pods);
	cr_expect(vs_res_has(&r, VS_RES_PODS), "case %d: pods are counted", i);
}

Test(jobstate, calc_pg_min_resources_as_task_priority_calc_pg_min)
{
	static const struct min_case cases[] = {
		/* minAvailable = the groups' sum */
		{ 1, 1, 0, 0, 0, 150, 2 },
		{ -1, 1, 0, 2, 0, 200, 3 },
		{ -1, 1, 3, 0, 0, 200, 3 },
		{ 1, -1, 3, 0, 0, 250, 3 },
		{ 1, 1, 2, 0, 0, 150, 2 },
		/* minAvailable above the groups' sum: more replicas, higher priority first */
		{ 1, 1, 3, 2, 0, 200, 3 },
		{ 1, 1, 3, 0, 2, 250, 3 },
		{ 0, 1, 3, 0, 2, 250, 3 },
		{ -1, 1, 4, 0, 2, 300, 4 },
		{ 1, 1, 4, 0, 2, 300, 4 },
		/* minAvailable below the groups' sum, still through CalcPGMinResources */
		{ -1, 1, 2, 2, 0, 100, 2 },
		{ -1, 1, 2, 0, 2, 150, 2 },
		{ 1, -1, 2, 0, 0, 150, 2 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++)
		min_case(&cases[i], (int)i, true);
}

Test(jobstate, min_resources_as_calc_pg_min_resources)
{
	static const struct min_case cases[] = {
		/* below the groups' sum: the first replicas, in spec order */
		{ 1, -1, 2, 0, 0, 100, 2 },
		{ -1, 1, 2, 0, 0, 100, 2 },
		{ -1, -1, 3, 0, 0, 200, 3 },
		/* above it */
		{ 1, 1, 3, 0, 0, 200, 3 },
		/* equal to it */
		{ 1, -1, 3, 0, 0, 250, 3 },
		{ 1, 1, 2, 0, 0, 150, 2 },
		/* below, with priorities: the higher group's replicas first */
		{ -1, 1, 2, 2, 0, 100, 2 },
		{ -1, 1, 2, 0, 2, 200, 2 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++)
		min_case(&cases[i], (int)i, false);
}

Test(jobstate, the_podgroup_takes_min_member_roles_and_min_resources)
{
	struct vs_vjob_task_spec t[2] = { ct_vtask("ps", 1, 500), ct_vtask("worker", 4, 1000) };
	struct vs_vjob *v;
	struct vs_job *pg;

	t[1].has_min_available = true;
	t[1].min_available = 2;
	v = ct_vjob("tf", t, 2);
	ct_sync(v);
	pg = vs_job_find(&cl, "ns", "tf");
	cr_assert_not_null(pg);
	cr_assert_eq(pg, v->podgroup);
	cr_assert_eq(pg->vjob, v);
	cr_assert_eq(pg->min_member, 3, "the groups' minAvailable: 1 + 2");
	cr_assert_eq(vs_job_role_min(pg, v->tasks[0].name), 1);
	cr_assert_eq(vs_job_role_min(pg, v->tasks[1].name), 2);
	cr_assert(pg->has_min_resources);
	cr_assert_eq(vs_res_get(&pg->min_resources, VS_RES_CPU), 500 + 2 * 1000);
	cr_assert_eq(vs_res_get(&pg->min_resources, VS_RES_MEMORY), 3 * GI);
	cr_assert_eq(vs_res_get(&pg->min_resources, VS_RES_PODS), 3);
	cr_assert_str_eq(pg->queue_name, "default");
	cr_assert_eq(pg->phase, VS_PG_PENDING);
	cr_assert_eq(counts.pg_added, 1);
}

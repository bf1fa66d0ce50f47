// SPDX-License-Identifier: Apache-2.0
/*
 * The job controller with the scheduler: VolcanoJobs made into PodGroups and
 * tasks, scheduled by real cycles on Volcano's default configuration,
 * reported Running, Succeeded or Failed, and driven through their phases
 * by policies and commands; admission, deletion, naming, priorities.
 */
#include "ctltest.h"
#include "../sched/testreg.h"
#include "sched/session.h"
#include "sched/explain.h"

static struct vs_sched sched;
static bool sched_up;
static int nr_binds;

static void sink_bind(void *c, struct vs_task *t, struct vs_node *n)
{
	nr_binds++;
}

static void start(void)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text),
				   "default.conf", &names, VS_CONF_FLAGS_DEFAULT_ON, &conf, &e),
		     0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	sched.sink = (struct vs_decision_sink){ .bind = sink_bind };
	sched_up = true;
}

static void setup(void)
{
	nr_binds = 0;
	sched_up = false;
	ct_setup();
}

static void teardown(void)
{
	if (sched_up)
		vs_sched_destroy(&sched);
	ct_teardown();
}

TestSuite(jobctl, .init = setup, .fini = teardown);

/* One cycle, then what the daemon does after it. */
static void cycle(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	ct_check();
	cr_assert_eq(vs_ctl_after_cycle(&ctl, &e), 0, "%s", e.msg);
	ct_check();
}

/* The binder and the kubelet: every Binding task of @v is Bound, then Running. */
static u32 bind_and_run(struct vs_vjob *v)
{
	struct vs_task *task, *tmp;
	u32 n = 0;

	if (!v->podgroup)
		return 0;
	list_for_each_entry_safe(task, tmp, &v->podgroup->by_status[VS_TASK_BINDING],
				 status_node) {
		ct_report(task, VS_TASK_BOUND, 0, NULL);
		n++;
	}
	/* the reports may have moved tasks: walk the Bound ones afresh */
	while (v->podgroup && !list_empty(&v->podgroup->by_status[VS_TASK_BOUND]))
		ct_report(list_first_entry(&v->podgroup->by_status[VS_TASK_BOUND],
					   struct vs_task, status_node),
			  VS_TASK_RUNNING, 0, NULL);
	return n;
}

/* Cycles (at most @max) until the job is Running, its tasks bound and run. */
static void drive(struct vs_vjob *v, int max)
{
	for (int i = 0; i < max && v->phase != VS_VJOB_RUNNING; i++) {
		cycle();
		bind_and_run(v);
	}
	cr_assert_eq(v->phase, VS_VJOB_RUNNING, "job %s is %s", v->name,
		     vs_vjob_phase_name(v->phase));
}

static s64 used_cpu(const char *node)
{
	return vs_res_get(&vs_node_find(&cl, node)->used, VS_RES_CPU);
}

static bool saw_phases(const enum vs_vjob_phase *want, int nr)
{
	if (counts.nr_phases != nr)
		return false;
	return !memcmp(counts.phases, want, nr * sizeof(*want));
}

Test(jobctl, a_volcano_job_goes_pending_running_completing_completed)
{
	const struct vs_vjob_policy done[] = {
		{ .event = VS_EV_TASK_COMPLETED, .action = VS_ACT_COMPLETE_JOB },
	};
	struct vs_vjob_task_spec t[2] = {
		ct_vtask("master", 1, 1000), ct_vtask("worker", 2, 1000),
	};
	const enum vs_vjob_phase seen[] = { VS_VJOB_RUNNING, VS_VJOB_COMPLETING,
					    VS_VJOB_COMPLETED };
	struct vs_vjob *v;
	struct vs_task *master;

	t[0].policies = done;
	t[0].nr_policies = 1;
	start();
	ct_node("n1", 2000);
	ct_node("n2", 2000);
	v = ct_vjob("mpi", t, 2);

	/* VJOB NEW: the PodGroup, but no task before the scheduler admits it */
	ct_sync(v);
	cr_assert_not_null(v->podgroup);
	cr_assert_eq(v->podgroup->phase, VS_PG_PENDING);
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);

	/* enqueue admits it; the controller makes the tasks */
	cycle();
	cr_assert_eq(v->podgroup->phase, VS_PG_INQUEUE);
	cr_assert_eq(cl.nr_tasks, 3);
	master = ct_task("mpi-master-0");
	cr_assert_not_null(master);
	cr_assert_str_eq(master->role, "master");
	cr_assert_not_null(ct_task("mpi-worker-0"));
	cr_assert_not_null(ct_task("mpi-worker-1"));
	cr_assert_eq(v->status.pending, 3);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);

	/* allocate places the gang; the binder binds, the kubelet runs */
	cycle();
	cr_assert_eq(nr_binds, 3);
	cr_assert_eq(v->phase, VS_VJOB_PENDING, "Binding tasks are pending pods");
	cr_assert_eq(bind_and_run(v), 3);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
	cr_assert_eq(v->status.running, 3);
	cycle();
	cr_assert_eq(v->podgroup->phase, VS_PG_RUNNING);

	/* a worker finishing does not finish its task group */
	ct_report(ct_task("mpi-worker-0"), VS_TASK_SUCCEEDED, 0, NULL);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);

	/* the master does: TaskCompleted -> CompleteJob kills the other worker */
	ct_report(master, VS_TASK_SUCCEEDED, 0, NULL);
	cr_assert_eq(v->phase, VS_VJOB_COMPLETING);
	cr_assert_null(ct_task("mpi-worker-1"));
	cr_assert_null(v->podgroup, "the kill removed the PodGroup");
	cr_assert_eq(v->status.terminating, 1);
	cr_assert_eq(used_cpu("n1") + used_cpu("n2"), 0);

	/* the next sync finds nothing alive */
	cycle();
	cr_assert_eq(v->phase, VS_VJOB_COMPLETED);
	cr_assert_eq(v->status.succeeded, 2);
	cr_assert_eq(v->status.terminating, 0);
	cr_assert(saw_phases(seen, ARRAY_SIZE(seen)), "phases seen: %d", counts.nr_phases);

	/* at rest: later cycles leave it alone */
	cycle();
	cycle();
	cr_assert_eq(v->phase, VS_VJOB_COMPLETED);
	cr_assert_eq(v->status.version, 2);
	cr_assert_eq(cl.nr_jobs, 0);
}

Test(jobctl, a_job_whose_tasks_all_succeed_completes_then_drops_its_podgroup)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_vjob *v;

	start();
	ct_node("n1", 4000);
	v = ct_vjob("j", &t, 1);
	ct_sync(v);
	drive(v, 4);
	ct_report(ct_task("j-w-0"), VS_TASK_SUCCEEDED, 0, NULL);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
	ct_report(ct_task("j-w-1"), VS_TASK_SUCCEEDED, 0, NULL);
	cr_assert_eq(v->phase, VS_VJOB_COMPLETED, "Running completes with no Completing step");
	cr_assert_not_null(v->podgroup);
	cycle();
	cr_assert_null(v->podgroup, "a finished job's PodGroup goes on its next sync");
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(v->status.succeeded, 2, "the successes are remembered");
}

Test(jobctl, a_failed_task_restarts_the_job_until_max_retry_fails_it)
{
	const struct vs_vjob_policy restart[] = {
		{ .event = VS_EV_POD_FAILED, .action = VS_ACT_RESTART_JOB },
	};
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_vjob_spec spec;
	struct vs_vjob *v;

	start();
	ct_node("n1", 4000);
	vs_vjob_spec_init(&spec, "ns", "j");
	spec.tasks = &t;
	spec.nr_tasks = 1;
	spec.policies = restart;
	spec.nr_policies = 1;
	v = ct_vjob_spec(&spec);
	cr_assert_eq(v->max_retry, 3);
	ct_sync(v);

	for (u32 retry = 0; retry < 3; retry++) {
		drive(v, 6);
		cr_assert_eq(cl.nr_tasks, 2);
		ct_report(ct_task("j-w-0"), VS_TASK_FAILED, 1, NULL);
		cr_assert_eq(v->phase, VS_VJOB_RESTARTING, "failure %u", retry + 1);
		cr_assert_eq(v->retry_count, retry + 1);
		cr_assert_null(v->podgroup);
		cr_assert_eq(cl.nr_tasks, 0);
		cr_assert_eq(used_cpu("n1"), 0);
		if (retry < 2) {
			cr_assert_eq(v->status.terminating, 2, "the failed task goes too");
		} else {
			/* the last retry keeps the failed task */
			cr_assert_eq(v->status.terminating, 1);
			cr_assert_eq(v->status.failed, 1);
			cr_assert_eq(v->tasks[0].kept[0], VS_VJOB_KEPT_FAILED);
		}
	}
	cycle();
	cr_assert_eq(v->phase, VS_VJOB_FAILED);
	cycle();
	cr_assert_null(v->podgroup);
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(cl.nr_jobs, 0);
	cr_assert_eq(v->retry_count, 3);
}

Test(jobctl, restarting_waits_for_the_new_podgroup_to_be_admitted)
{
	const struct vs_vjob_policy restart[] = {
		{ .event = VS_EV_POD_FAILED, .action = VS_ACT_RESTART_JOB },
	};
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_vjob *v;

	t.policies = restart;
	t.nr_policies = 1;
	start();
	ct_node("n1", 4000);
	v = ct_vjob("j", &t, 1);
	ct_sync(v);
	drive(v, 4);
	ct_report(ct_task("j-w-1"), VS_TASK_FAILED, 2, NULL);
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING);
	/* a new PodGroup, Pending: both replicas still count as terminating */
	ct_sync(v);
	cr_assert_not_null(v->podgroup);
	cr_assert_eq(v->podgroup->phase, VS_PG_PENDING);
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING);
	cr_assert_eq(cl.nr_tasks, 0);
	/* admitted: the tasks are made again, and the job is Pending */
	cycle();
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
	cr_assert_eq(cl.nr_tasks, 2);
	drive(v, 4);
}

Test(jobctl, an_exit_code_restarts_only_its_task_group)
{
	const struct vs_vjob_policy on3[] = {
		{ .has_exit_code = true, .exit_code = 3, .action = VS_ACT_RESTART_TASK },
	};
	struct vs_vjob_task_spec t[2] = { ct_vtask("ps", 1, 1000), ct_vtask("w", 2, 1000) };
	struct vs_task *ps;
	struct vs_vjob *v;

	t[1].policies = on3;
	t[1].nr_policies = 1;
	start();
	ct_node("n1", 4000);
	v = ct_vjob("tf", t, 2);
	ct_sync(v);
	drive(v, 4);
	ps = ct_task("tf-ps-0");
	ct_report(ct_task("tf-w-1"), VS_TASK_FAILED, 3, NULL);
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING);
	cr_assert_eq(v->retry_count, 1);
	cr_assert_not_null(v->podgroup, "a task restart keeps the PodGroup");
	cr_assert_eq(ct_task("tf-ps-0"), ps);
	cr_assert_eq(ps->status, VS_TASK_RUNNING);
	cr_assert_null(ct_task("tf-w-0"));
	cr_assert_null(ct_task("tf-w-1"));
	/* the PodGroup is still admitted: the group is made again at once */
	ct_sync(v);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
	cr_assert_eq(ct_task("tf-w-0")->status, VS_TASK_PENDING);
	cr_assert_eq(ct_task("tf-w-1")->status, VS_TASK_PENDING);
	drive(v, 4);
	/* another exit code: no policy, nothing restarts */
	ct_report(ct_task("tf-w-0"), VS_TASK_FAILED, 4, NULL);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
	cr_assert_eq(v->retry_count, 1);
}

Test(jobctl, a_deleted_task_is_made_again)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_err e = { { 0 } };
	struct vs_vjob *v;

	start();
	ct_node("n1", 4000);
	v = ct_vjob("j", &t, 1);
	ct_sync(v);
	drive(v, 4);
	cr_assert_eq(vs_ctl_task_del(&ctl, ct_task("j-w-0"), &e), 0, "%s", e.msg);
	ct_check();
	cr_assert_not_null(ct_task("j-w-0"));
	cr_assert_eq(ct_task("j-w-0")->status, VS_TASK_PENDING);
	cr_assert_eq(v->phase, VS_VJOB_PENDING, "1 pending > 2 replicas - 2 minAvailable");
	drive(v, 4);
}

Test(jobctl, a_pod_evicted_policy_aborts_the_job)
{
	const struct vs_vjob_policy evict[] = {
		{ .event = VS_EV_POD_EVICTED, .action = VS_ACT_ABORT_JOB },
	};
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_err e = { { 0 } };
	struct vs_vjob *v;

	t.policies = evict;
	t.nr_policies = 1;
	start();
	ct_node("n1", 4000);
	v = ct_vjob("j", &t, 1);
	ct_sync(v);
	drive(v, 4);
	cr_assert_eq(vs_ctl_task_del(&ctl, ct_task("j-w-1"), &e), 0, "%s", e.msg);
	cr_assert_eq(v->phase, VS_VJOB_ABORTING);
	cr_assert_eq(cl.nr_tasks, 0);
	cycle();
	cr_assert_eq(v->phase, VS_VJOB_ABORTED);
}

Test(jobctl, resume_after_abort_runs_only_the_unfinished_tasks)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_err e = { { 0 } };
	struct vs_vjob *v;

	start();
	ct_node("n1", 4000);
	v = ct_vjob_min("j", &t, 1, 1);
	ct_sync(v);
	drive(v, 4);
	ct_report(ct_task("j-w-0"), VS_TASK_SUCCEEDED, 0, NULL);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);

	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_ABORT_JOB, NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(v->phase, VS_VJOB_ABORTING);
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(v->tasks[0].kept[0], VS_VJOB_KEPT_SUCCEEDED);
	ct_sync(v);
	cr_assert_eq(v->phase, VS_VJOB_ABORTED);
	cr_assert_eq(v->status.succeeded, 1);

	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESUME_JOB, NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING);
	cr_assert_eq(v->retry_count, 1);
	cycle();
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
	cycle();
	cr_assert_eq(cl.nr_tasks, 2);
	cr_assert_eq(ct_task("j-w-0")->status, VS_TASK_SUCCEEDED,
		     "the succeeded replica is back, not run again");
	cr_assert_eq(ct_task("j-w-1")->status, VS_TASK_PENDING);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING, "1 succeeded covers minAvailable 1");
	cycle();
	cr_assert_eq(bind_and_run(v), 1);
	ct_report(ct_task("j-w-1"), VS_TASK_SUCCEEDED, 0, NULL);
	cr_assert_eq(v->phase, VS_VJOB_COMPLETED);
	cr_assert_eq(v->status.succeeded, 2);
}

/*
 * Volcano keeps the succeeded pod through AbortJob (PodRetainPhaseSoft); it
 * still names the job's PodGroup, so when ResumeJob makes the PodGroup again
 * the scheduler's cache puts it back in the job, where ReadyTaskNum counts
 * it: with minAvailable 2, one success and one placed task make the gang.
 */
Test(jobctl, a_resumed_job_gets_its_succeeded_replica_back_and_its_gang_runs)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_err e = { { 0 } };
	struct vs_task *done, *rest;
	struct vs_vjob *v;
	int added, binds;

	start();
	ct_node("n1", 4000);
	v = ct_vjob("j", &t, 1);
	cr_assert_eq(v->min_available, 2);
	ct_sync(v);
	drive(v, 4);
	ct_report(ct_task("j-w-0"), VS_TASK_SUCCEEDED, 0, NULL);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);

	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_ABORT_JOB, NULL, NULL, &e), 0, "%s", e.msg);
	ct_check();
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(v->tasks[0].kept[0], VS_VJOB_KEPT_SUCCEEDED);
	ct_sync(v);
	cr_assert_eq(v->phase, VS_VJOB_ABORTED);

	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESUME_JOB, NULL, NULL, &e), 0, "%s", e.msg);
	ct_check();
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING);
	/* the new PodGroup waits for enqueue: no task of the job yet, the success remembered */
	cycle();
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
	cr_assert_eq(v->podgroup->phase, VS_PG_PENDING);
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(v->tasks[0].kept[0], VS_VJOB_KEPT_SUCCEEDED);

	/* admitted: the success is back in the new PodGroup, the other replica is made */
	added = counts.task_added;
	cycle();
	cr_assert_eq(v->podgroup->phase, VS_PG_INQUEUE);
	cr_assert_eq(cl.nr_tasks, 2);
	done = ct_task("j-w-0");
	rest = ct_task("j-w-1");
	cr_assert_not_null(done, "the succeeded replica is back");
	cr_assert_eq(done->status, VS_TASK_SUCCEEDED);
	cr_assert_eq(done->job, v->podgroup);
	cr_assert_str_eq(done->role, "w");
	cr_assert_null(done->node, "a finished task holds nothing");
	cr_assert_eq(rest->status, VS_TASK_PENDING);
	cr_assert_eq(counts.task_added, added + 2, "the events group hears of both");
	cr_assert_eq(v->tasks[0].kept[0], VS_VJOB_KEPT_NONE, "it is back");
	cr_assert_eq(v->podgroup->nr_by_status[VS_TASK_SUCCEEDED], 1);
	cr_assert_eq(vs_job_ready_num(v->podgroup), 1);
	cr_assert_eq(v->status.succeeded, 1);
	cr_assert_eq(v->status.pending, 1);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);

	/* 1 Succeeded + 1 placed meets minMember 2: the gang is placed and runs */
	binds = nr_binds;
	cycle();
	cr_assert_eq(nr_binds, binds + 1, "j-w-1 is bound");
	cr_assert_eq(rest->status, VS_TASK_BINDING);
	cr_assert(vs_job_is_ready(v->podgroup));
	cr_assert_eq(bind_and_run(v), 1);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
	cycle();
	cr_assert_eq(v->podgroup->phase, VS_PG_RUNNING);
	cr_assert_eq(used_cpu("n1"), 1000);

	ct_report(rest, VS_TASK_SUCCEEDED, 0, NULL);
	cr_assert_eq(v->phase, VS_VJOB_COMPLETED);
	cr_assert_eq(v->status.succeeded, 2);
	cr_assert_eq(v->status.pending + v->status.running + v->status.terminating, 0);
	cycle();
	cr_assert_null(v->podgroup);
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(used_cpu("n1"), 0);
}

/* Abort a job whose j-w-0 succeeded, and resume it: Restarting, j-w-0 kept. */
static struct vs_vjob *aborted_and_resumed(void)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_err e = { { 0 } };
	struct vs_vjob *v;

	start();
	ct_node("n1", 4000);
	v = ct_vjob("j", &t, 1);
	ct_sync(v);
	drive(v, 4);
	ct_report(ct_task("j-w-0"), VS_TASK_SUCCEEDED, 0, NULL);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_ABORT_JOB, NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESUME_JOB, NULL, NULL, &e), 0, "%s", e.msg);
	ct_check();
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING);
	cr_assert_eq(v->tasks[0].kept[0], VS_VJOB_KEPT_SUCCEEDED);
	return v;
}

/* A kill that keeps nothing forgets the success: both replicas run again. */
Test(jobctl, a_restart_that_keeps_nothing_brings_no_finished_task_back)
{
	struct vs_vjob *v = aborted_and_resumed();
	struct vs_err e = { { 0 } };
	int binds;

	/* Restarting takes RestartJob as a kill of everything (not the last retry) */
	cr_assert_eq(v->retry_count, 1);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESTART_JOB, NULL, NULL, &e), 0, "%s",
		     e.msg);
	ct_check();
	cr_assert_eq(v->tasks[0].kept[0], VS_VJOB_KEPT_NONE);
	cr_assert_eq(v->status.succeeded, 0);
	cr_assert_eq(v->status.terminating, 1, "the forgotten success is deleted");
	cycle();
	cycle();
	cr_assert_eq(v->podgroup->phase, VS_PG_INQUEUE);
	cr_assert_eq(cl.nr_tasks, 2);
	cr_assert_eq(ct_task("j-w-0")->status, VS_TASK_PENDING, "run again, not Succeeded");
	cr_assert_eq(ct_task("j-w-1")->status, VS_TASK_PENDING);
	cr_assert_eq(v->podgroup->nr_by_status[VS_TASK_SUCCEEDED], 0);
	cr_assert_eq(v->status.succeeded, 0);
	cr_assert_eq(v->status.pending, 2);
	binds = nr_binds;
	cycle();
	cr_assert_eq(nr_binds, binds + 2, "the gang is both replicas again");
	cr_assert_eq(bind_and_run(v), 2);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
	cr_assert_eq(used_cpu("n1"), 2000);
}

/* RestartPod of a kept replica forgets it too: it is made again Pending. */
Test(jobctl, restarting_a_kept_pod_makes_it_run_again)
{
	struct vs_vjob *v = aborted_and_resumed();
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESTART_POD, "w", "j-w-0", &e), 0, "%s",
		     e.msg);
	ct_check();
	cr_assert_eq(v->tasks[0].kept[0], VS_VJOB_KEPT_NONE);
	cycle();
	cycle();
	cr_assert_eq(cl.nr_tasks, 2);
	cr_assert_eq(ct_task("j-w-0")->status, VS_TASK_PENDING);
	cr_assert_eq(ct_task("j-w-1")->status, VS_TASK_PENDING);
	cycle();
	cr_assert_eq(bind_and_run(v), 2);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
}

/*
 * A failed replica kept by AbortJob comes back Failed: it counts as failed,
 * and, as in Volcano's ReadyTaskNum, not toward the gang.
 */
Test(jobctl, a_resumed_job_gets_its_failed_replica_back_failed)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 3, 1000);
	struct vs_err e = { { 0 } };
	struct vs_task *failed;
	struct vs_vjob *v;
	int binds;

	start();
	ct_node("n1", 4000);
	v = ct_vjob_min("j", &t, 1, 2);
	ct_sync(v);
	drive(v, 4);
	ct_report(ct_task("j-w-2"), VS_TASK_FAILED, 1, NULL);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING, "no policy: a failure only syncs");
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_ABORT_JOB, NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(v->tasks[0].kept[2], VS_VJOB_KEPT_FAILED);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESUME_JOB, NULL, NULL, &e), 0, "%s", e.msg);
	cycle();
	cycle();
	failed = ct_task("j-w-2");
	cr_assert_not_null(failed);
	cr_assert_eq(failed->status, VS_TASK_FAILED);
	cr_assert_null(failed->node);
	cr_assert_eq(v->tasks[0].kept[2], VS_VJOB_KEPT_NONE);
	cr_assert_eq(v->status.failed, 1);
	cr_assert_eq(v->status.pending, 2);
	cr_assert_eq(vs_job_ready_num(v->podgroup), 0);
	binds = nr_binds;
	cycle();
	cr_assert_eq(nr_binds, binds + 2, "the two others make the gang");
	cr_assert_eq(failed->status, VS_TASK_FAILED);
	cr_assert_eq(bind_and_run(v), 2);
	cr_assert_eq(v->phase, VS_VJOB_RUNNING);
}

Test(jobctl, a_job_larger_than_its_queue_is_never_admitted)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 4, 1000);
	struct vs_queue_spec qs;
	struct vs_vjob_spec spec;
	struct vs_vjob *v;

	start();
	ct_node("n1", 8000);
	vs_queue_spec_init(&qs, "small");
	qs.capability = ct_res(2000, 64 * GI);
	qs.has_capability = true;
	cr_assert_eq(vs_queue_add(&cl, &qs, NULL, NULL), 0);
	vs_vjob_spec_init(&spec, "ns", "big");
	spec.queue = "small";
	spec.tasks = &t;
	spec.nr_tasks = 1;
	v = ct_vjob_spec(&spec);
	ct_sync(v);
	cycle();
	cycle();
	cr_assert_eq(v->podgroup->phase, VS_PG_PENDING, "minResources 4 cpu > capability 2");
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
}

Test(jobctl, admission_refuses_what_volcano_refuses)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 1, 100);
	struct vs_vjob_spec spec;
	struct vs_err e = { { 0 } };
	char long_name[80];

	ct_queue("closed", VS_QUEUE_CLOSED, NULL);
	ct_queue("root", VS_QUEUE_OPEN, NULL);
	ct_queue("parent", VS_QUEUE_OPEN, NULL);
	ct_queue("child", VS_QUEUE_OPEN, "parent");
	vs_vjob_spec_init(&spec, "ns", "j");
	spec.tasks = &t;
	spec.nr_tasks = 1;

	spec.queue = "closed";
	cr_assert_eq(vs_jobctl_admit(&ctl, &spec, &e), -EPERM);
	cr_assert(strstr(e.msg, "job ns/j: can only submit job to queue with state `Open`, "
			 "queue `closed` status is `Closed`"), "%s", e.msg);
	vs_err_clear(&e);
	spec.queue = "nope";
	cr_assert_eq(vs_jobctl_admit(&ctl, &spec, &e), -ENOENT);
	cr_assert(strstr(e.msg, "unable to find job queue"), "%s", e.msg);
	vs_err_clear(&e);
	spec.queue = "root";
	cr_assert_eq(vs_jobctl_admit(&ctl, &spec, &e), -EINVAL);
	cr_assert(strstr(e.msg, "can not submit job to root queue"), "%s", e.msg);
	vs_err_clear(&e);
	spec.queue = "parent";
	cr_assert_eq(vs_jobctl_admit(&ctl, &spec, &e), -EINVAL);
	cr_assert(strstr(e.msg, "leaf queue, queue `parent` has 1 child queues"), "%s", e.msg);
	spec.queue = "child";
	cr_assert_eq(vs_jobctl_admit(&ctl, &spec, NULL), 0);

	memset(long_name, 'a', 64);
	long_name[64] = '\0';
	spec.name = long_name;
	spec.queue = NULL;
	vs_err_clear(&e);
	cr_assert_eq(vs_jobctl_admit(&ctl, &spec, &e), -EINVAL);
	cr_assert(strstr(e.msg, "job name"), "%s", e.msg);
	long_name[60] = '\0';
	vs_err_clear(&e);
	cr_assert_eq(vs_jobctl_admit(&ctl, &spec, &e), -EINVAL, "%s-w-0 is 64 characters",
		     long_name);
	cr_assert(strstr(e.msg, "pod name"), "%s", e.msg);
	cr_assert_eq(cl.nr_vjobs, 0);
}

Test(jobctl, no_podgroup_is_made_in_a_queue_that_closed_or_went)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 1, 100);
	struct vs_queue *q = ct_queue("q", VS_QUEUE_OPEN, NULL);
	struct vs_vjob_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_vjob *v;

	vs_vjob_spec_init(&spec, "ns", "j");
	spec.queue = "q";
	spec.tasks = &t;
	spec.nr_tasks = 1;
	v = ct_vjob_spec(&spec);
	cr_assert_eq(vs_qctl_command(&ctl, q, VS_ACT_CLOSE_QUEUE, &e), 0, "%s", e.msg);
	cr_assert_eq(q->state, VS_QUEUE_CLOSED);
	cr_assert_eq(vs_jobctl_sync(&ctl, v, &e), -EPERM);
	cr_assert(strstr(e.msg, "job ns/j: can only submit PodGroup to queue with state `Open`"),
		  "%s", e.msg);
	cr_assert_null(v->podgroup);
	cr_assert_eq(vs_qctl_command(&ctl, q, VS_ACT_OPEN_QUEUE, NULL), 0);
	ct_sync(v);
	cr_assert_not_null(v->podgroup);
	vs_jobctl_delete(&ctl, v);

	v = ct_vjob_spec(&spec);
	cr_assert_eq(vs_queue_del(&cl, q, NULL), 0);
	vs_err_clear(&e);
	cr_assert_eq(vs_jobctl_sync(&ctl, v, &e), -ENOENT);
	cr_assert(strstr(e.msg, "job ns/j: queue q does not exist"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_ctl_after_cycle(&ctl, &e), -ENOENT, "after a cycle too");
	cr_assert(strstr(e.msg, "queue q does not exist"), "%s", e.msg);
}

Test(jobctl, commands_are_checked)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 100);
	struct vs_vjob *v = ct_vjob("j", &t, 1);
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_CLOSE_QUEUE, NULL, NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "CloseQueue is a queue command"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_NR, NULL, NULL, &e), -EINVAL);
	vs_err_clear(&e);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESTART_TASK, NULL, NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "RestartTask needs a task"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESTART_TASK, "x", NULL, &e), -ENOENT);
	cr_assert(strstr(e.msg, "no task \"x\""), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESTART_POD, "w", NULL, &e), -EINVAL);
	vs_err_clear(&e);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESTART_POD, "w", "j-w-2", &e), -ENOENT);
	cr_assert(strstr(e.msg, "task w has no pod \"j-w-2\""), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_ABORT_JOB, "w", NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "job ns/j: AbortJob takes no task or pod"), "%s", e.msg);
	cr_assert_eq(v->phase, VS_VJOB_PENDING, "a refused command changes nothing");
	cr_assert_eq(counts.vjob_changed, 0);

	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_RESTART_POD, "w", "j-w-1", &e), 0,
		     "%s", e.msg);
	cr_assert_eq(v->phase, VS_VJOB_RESTARTING);
	cr_assert_eq(vs_jobctl_command(&ctl, v, VS_ACT_TERMINATE_JOB, "", "", &e), 0, "%s",
		     e.msg);
	cr_assert_eq(v->phase, VS_VJOB_PENDING,
		     "Restarting kills, and nothing terminating means enough are back");
}

Test(jobctl, deleting_a_job_takes_its_tasks_and_podgroup_and_lets_its_queue_close)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_queue *q = ct_queue("q", VS_QUEUE_OPEN, NULL);
	struct vs_vjob_spec spec;
	struct vs_vjob *v;

	start();
	ct_node("n1", 4000);
	vs_vjob_spec_init(&spec, "ns", "j");
	spec.queue = "q";
	spec.tasks = &t;
	spec.nr_tasks = 1;
	v = ct_vjob_spec(&spec);
	ct_sync(v);
	drive(v, 4);
	cr_assert_eq(vs_qctl_command(&ctl, q, VS_ACT_CLOSE_QUEUE, NULL), 0);
	cr_assert_eq(q->state, VS_QUEUE_CLOSING);
	vs_jobctl_delete(&ctl, v);
	ct_check();
	cr_assert_eq(cl.nr_vjobs, 0);
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_null(vs_job_find(&cl, "ns", "j"));
	cr_assert_eq(used_cpu("n1"), 0);
	cr_assert_eq(q->state, VS_QUEUE_CLOSED);
	cr_assert_eq(counts.task_added, 2);
	cr_assert_eq(counts.task_removing, 2);
	cr_assert_eq(counts.pg_added, 1);
	cr_assert_eq(counts.pg_removing, 1);
}

Test(jobctl, tasks_take_the_priority_of_the_job_class)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 1, 100);
	struct vs_prioclass_spec pcs = { .name = "high", .value = 100,
					 .preemption_policy = VS_PREEMPT_NEVER };
	struct vs_vjob_spec spec;
	struct vs_vjob *v;
	struct vs_task *task;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_prioclass_add(&cl, &pcs, NULL, NULL), 0);
	vs_vjob_spec_init(&spec, "ns", "hi");
	spec.tasks = &t;
	spec.nr_tasks = 1;
	spec.priority_class = "high";
	v = ct_vjob_spec(&spec);
	ct_sync(v);
	cr_assert_str_eq(v->podgroup->priority_class, "high");
	vs_job_set_phase(&cl, v->podgroup, VS_PG_INQUEUE);
	ct_sync(v);
	task = ct_task("hi-w-0");
	cr_assert_eq(task->priority, 100);
	cr_assert_eq(task->preemption_policy, VS_PREEMPT_NEVER);
	cr_assert_str_eq(task->priority_class, "high");

	/* no class: the global default's value, else 0, as Kubernetes gives */
	spec.name = "plain";
	spec.priority_class = NULL;
	v = ct_vjob_spec(&spec);
	ct_sync(v);
	vs_job_set_phase(&cl, v->podgroup, VS_PG_INQUEUE);
	ct_sync(v);
	cr_assert_eq(ct_task("plain-w-0")->priority, 0);

	/* a class that does not exist: Kubernetes refuses the pods */
	spec.name = "lost";
	spec.priority_class = "nope";
	v = ct_vjob_spec(&spec);
	ct_sync(v);
	vs_job_set_phase(&cl, v->podgroup, VS_PG_INQUEUE);
	cr_assert_eq(vs_jobctl_sync(&ctl, v, &e), -ENOENT);
	cr_assert(strstr(e.msg, "job ns/lost: no PriorityClass with name nope was found"), "%s",
		  e.msg);
	cr_assert_null(ct_task("lost-w-0"));
}

/* A node of @mcpu millicores in zone @zone. */
static struct vs_node *zone_node(const char *name, s64 mcpu, const char *zone)
{
	const struct vs_kv_spec labels[] = { { "topology.kubernetes.io/zone", zone } };
	struct vs_node_spec spec;
	struct vs_node *n;

	vs_node_spec_init(&spec, name);
	spec.allocatable = ct_res(mcpu, 16 * GI);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
	spec.labels = labels;
	spec.nr_labels = 1;
	cr_assert_eq(vs_node_add(&cl, &spec, &n, NULL), 0);
	return n;
}

/*
 * A template's DoNotSchedule constraint places the job's pods as a pod's
 * own would. Least-requested alone puts both replicas on the big node of
 * zone a; maxSkew 1 over zones puts the second in zone b, the selector
 * picking the job's pods by the label the controller gives them. With four
 * replicas the gang is not placed: big refused the second replica, and
 * Volcano's predicate error cache (per job and task role) keeps it refused
 * for the rest of the job's attempt, so the third goes to small too and the
 * fourth fits nowhere, as in Volcano.
 */
Test(jobctl, a_templates_spread_constraint_spreads_the_jobs_pods)
{
	static const struct vs_kv_spec job[] = { { "volcano.sh/job-name", "k" } };
	static const struct vs_label_selector_spec sel = { .match_labels = job,
							   .nr_match_labels = 1 };
	const struct vs_spread_constraint_spec spread[] = {
		{ .max_skew = 1, .topology_key = "topology.kubernetes.io/zone",
		  .when = VS_SPREAD_DO_NOT_SCHEDULE, .selector = &sel },
	};
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 1000);
	struct vs_explain ex;
	struct vs_vjob *v;

	start();
	zone_node("big", 8000, "a");
	zone_node("small", 2000, "b");
	v = ct_vjob("j", &t, 1);
	ct_sync(v);
	drive(v, 4);
	cr_assert_eq(used_cpu("big"), 2000, "without the constraint: %lld",
		     (long long)used_cpu("big"));
	vs_jobctl_delete(&ctl, v);
	cr_assert_eq(used_cpu("big") + used_cpu("small"), 0);

	t.spread = spread;
	t.nr_spread = 1;
	v = ct_vjob("k", &t, 1);
	ct_sync(v);
	drive(v, 4);
	cr_assert_eq(used_cpu("big"), 1000);
	cr_assert_eq(used_cpu("small"), 1000);
	vs_jobctl_delete(&ctl, v);

	t.replicas = 4;
	v = ct_vjob("k", &t, 1);
	ct_sync(v);
	cycle();
	cycle();
	cr_assert_eq(v->phase, VS_VJOB_PENDING);
	vs_explain_init(&ex);
	cr_assert_eq(vs_explain_task(&sched, ct_task("k-w-3"), 0, &ex), 0);
	cr_assert_str_eq(vs_explain_message(&ex), "0/2 nodes are available: 1 Insufficient cpu, "
			 "1 node(s) didn't match pod topology spread constraints.");
	vs_explain_release(&ex);
}

Test(jobctl, tasks_carry_the_template_and_volcano_labels)
{
	const struct vs_kv_spec labels[] = {
		{ "app", "web" }, { "volcano.sh/job-name", "not-this" },
	};
	const struct vs_kv_spec selector[] = { { "zone", "a" } };
	const struct vs_toleration_spec tols[] = {
		{ .key = "gpu", .op = VS_TOLERATION_EXISTS, .effect = VS_TAINT_NO_SCHEDULE },
	};
	const struct vs_host_port_spec ports[] = {
		{ .port = 8080 }, { .port = 53, .protocol = VS_PORT_UDP, .ip = "10.0.0.1" },
	};
	const char *const images[] = { "busybox", "nginx:1.25" };
	const struct vs_spread_constraint_spec spread[] = {
		{ .max_skew = 1, .topology_key = "zone", .when = VS_SPREAD_SCHEDULE_ANYWAY },
	};
	const struct vs_task_images *im;
	const struct vs_host_ports *hp;
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 100);
	struct vs_vjob *v;
	struct vs_task *task;

#define LABEL(task, k) vs_labels_get((task)->labels, vs_str_find(&cl.strs, k, strlen(k)))
	t.labels = labels;
	t.nr_labels = 2;
	t.node_selector = selector;
	t.nr_node_selector = 1;
	t.tolerations = tols;
	t.nr_tolerations = 1;
	t.ports = ports;
	t.nr_ports = 2;
	t.images = images;
	t.nr_images = 2;
	t.spread = spread;
	t.nr_spread = 1;
	v = ct_vjob("web", &t, 1);
	ct_sync(v);
	vs_job_set_phase(&cl, v->podgroup, VS_PG_INQUEUE);
	ct_sync(v);
	task = ct_task("web-w-1");
	cr_assert_not_null(task);
	cr_assert_str_eq(LABEL(task, "app"), "web");
	cr_assert_str_eq(LABEL(task, "volcano.sh/job-name"), "web");
	cr_assert_str_eq(LABEL(task, "volcano.sh/job-namespace"), "ns");
	cr_assert_str_eq(LABEL(task, "volcano.sh/queue-name"), "default");
	cr_assert_str_eq(LABEL(task, "volcano.sh/task-spec"), "w");
	cr_assert_str_eq(LABEL(task, "volcano.sh/task-index"), "1");
	cr_assert_eq(vs_labels_count(task->labels), 6);
	cr_assert_str_eq(vs_labels_get(task->node_selector,
				       vs_str_find(&cl.strs, "zone", 4)), "a");
	cr_assert_eq(task->tolerations->nr, 1);
	cr_assert_str_eq(task->tolerations->t[0].key, "gpu");
	hp = vs_task_ports(task);
	cr_assert_not_null(hp);
	cr_assert_eq(hp->nr, 2);
	cr_assert_eq(hp->p[0].port, 8080);
	cr_assert_null(hp->p[0].ip);
	cr_assert_eq(hp->p[1].protocol, VS_PORT_UDP);
	cr_assert_str_eq(hp->p[1].ip, "10.0.0.1");
	im = vs_task_images(task);
	cr_assert_not_null(im);
	cr_assert_eq(im->nr, 2);
	cr_assert_str_eq(im->name[0], "busybox:latest");
	cr_assert_str_eq(im->name[1], "nginx:1.25");
	/* the template's constraints, shared by its pods: one reference each */
	cr_assert_eq(vs_task_spread(task), v->tasks[0].spread);
	cr_assert_eq(vs_task_spread(ct_task("web-w-0")), v->tasks[0].spread);
	cr_assert_eq(v->tasks[0].spread->refs, 3);
	cr_assert_str_eq(vs_task_spread(task)->c[0].topology_key, "zone");
	cr_assert_eq(vs_res_get(task->req, VS_RES_CPU), 100);
	cr_assert_eq(vs_res_get(task->req, VS_RES_PODS), 1);
#undef LABEL
}

Test(jobctl, an_existing_podgroup_of_the_name_is_adopted_and_cleaned)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 100);
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_job *pg;
	struct vs_vjob *v;

	vs_job_spec_init(&js, "ns", "j");
	js.min_member = 7;
	js.phase = VS_PG_INQUEUE;
	cr_assert_eq(vs_job_add(&cl, &js, &pg, NULL), 0);
	vs_task_spec_init(&ts, "ns", "j-w-0", "j");
	ts.role = "w";
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "other", "j");
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);

	v = ct_vjob("j", &t, 1);
	ct_sync(v);
	cr_assert_eq(v->podgroup, pg);
	cr_assert_eq(pg->vjob, v);
	cr_assert_eq(pg->min_member, 2, "the job's spec replaces the PodGroup's");
	cr_assert_null(ct_task("other"), "what is no replica of the job goes");
	cr_assert_not_null(ct_task("j-w-0"));
	cr_assert_not_null(ct_task("j-w-1"));
	cr_assert_eq(cl.nr_tasks, 2);
	cr_assert_eq(v->status.terminating, 1);
}

Test(jobctl, an_adopted_pending_podgroup_is_cleaned_before_it_is_admitted)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 1, 100);
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_vjob *v;

	vs_job_spec_init(&js, "ns", "j");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "stray", "j");
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);
	v = ct_vjob("j", &t, 1);
	ct_sync(v);
	cr_assert_null(ct_task("stray"));
	cr_assert_eq(cl.nr_tasks, 0);
	/* so that, admitted, the count of its tasks is the count of the job's */
	vs_job_set_phase(&cl, v->podgroup, VS_PG_INQUEUE);
	ct_sync(v);
	cr_assert_not_null(ct_task("j-w-0"));
}

Test(jobctl, the_podgroup_spec_is_kept_as_the_job_wants_it)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 2, 100);
	struct vs_vjob *v = ct_vjob("j", &t, 1);
	struct vs_job_spec js;

	ct_sync(v);
	vs_job_spec_init(&js, "ns", "j");
	js.min_member = 9;
	js.phase = VS_PG_INQUEUE;
	cr_assert_eq(vs_job_update(&cl, v->podgroup, &js, NULL), 0);
	cr_assert(!v->podgroup->has_min_resources);
	ct_sync(v);
	cr_assert_eq(v->podgroup->min_member, 2);
	cr_assert(v->podgroup->has_min_resources);
	cr_assert_eq(vs_job_role_min(v->podgroup, v->tasks[0].name), 2);
	cr_assert_eq(v->podgroup->phase, VS_PG_INQUEUE, "the phase is not the controller's");
}

Test(jobctl, clients_cannot_add_tasks_to_a_job_podgroup)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 1, 100);
	struct vs_vjob *v = ct_vjob("j", &t, 1);
	struct vs_task_spec ts;
	struct vs_err e = { { 0 } };

	ct_sync(v);
	vs_task_spec_init(&ts, "ns", "intruder", "j");
	cr_assert_eq(vs_ctl_task_add(&ctl, &ts, NULL, NULL, &e), -EPERM);
	cr_assert(strstr(e.msg, "podgroup j belongs to job ns/j"), "%s", e.msg);
	cr_assert_eq(cl.nr_tasks, 0);
}

Test(jobctl, a_task_of_no_job_is_ignored_by_the_job_controller)
{
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_task *task;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&js, "ns", "pg");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "t", "pg");
	cr_assert_eq(vs_task_add(&cl, &ts, &task, NULL), 0);
	cr_assert_eq(vs_ctl_task_updated(&ctl, task, VS_TASK_PENDING, 0, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_ctl_task_updated(&ctl, task, VS_TASK_NR_STATUS, 0, &e), -EINVAL);
	cr_assert(strstr(e.msg, "bad previous status"), "%s", e.msg);
}

/* ---- networkTopology and partitionPolicy (Volcano's createOrUpdatePodGroup) ---- */

#define LABEL(task, k) vs_labels_get((task)->labels, vs_str_find(&cl.strs, k, strlen(k)))

/*
 * Job "j": soft within the tier named spine; a parameter server "ps" of one
 * replica, and workers "w" of 4 in 2 partitions of 2, at least 1, each hard
 * within tier 1.
 */
static struct vs_vjob *partitioned_job(void)
{
	static struct vs_vjob_task_spec t[2];
	struct vs_vjob_spec spec;

	t[0] = ct_vtask("ps", 1, 100);
	t[1] = ct_vtask("w", 4, 100);
	t[1].has_partition = true;
	t[1].total_partitions = 2;
	t[1].partition_size = 2;
	t[1].min_partitions = 1;
	t[1].partition_nt = (struct vs_net_topology_spec){ .set = true, .mode = VS_NT_HARD,
							   .has_highest_tier = true,
							   .highest_tier = 1 };
	vs_vjob_spec_init(&spec, "ns", "j");
	spec.tasks = t;
	spec.nr_tasks = 2;
	spec.net_topology = (struct vs_net_topology_spec){ .set = true, .mode = VS_NT_SOFT,
							   .highest_tier_name = "spine" };
	return ct_vjob_spec(&spec);
}

Test(jobctl, a_partitioned_task_becomes_a_sub_group_policy_of_the_podgroup)
{
	struct vs_vjob *v = partitioned_job();
	const struct vs_subgroup_policy *sg;
	const struct vs_job *pg;

	cr_assert_eq(v->tasks[1].min_available, 2, "minPartitions * partitionSize");
	cr_assert_eq(v->min_available, 3, "the tasks' sum");
	ct_sync(v);
	pg = v->podgroup;
	cr_assert(pg->net_topology.set);
	cr_assert_eq(pg->net_topology.mode, VS_NT_SOFT);
	cr_assert_not(pg->net_topology.has_highest_tier);
	cr_assert_str_eq(pg->net_topology.highest_tier_name, "spine");
	cr_assert_eq(vs_job_role_min(pg, v->tasks[1].name), 2);
	cr_assert_eq(pg->nr_subgroups, 1, "only the partitioned task has one");
	sg = &pg->subgroups[0];
	cr_assert_str_eq(sg->name, "w");
	cr_assert_eq(sg->sub_group_size, 2);
	cr_assert_eq(sg->min_sub_groups, 1);
	cr_assert(sg->nt.set);
	cr_assert_eq(sg->nt.mode, VS_NT_HARD);
	cr_assert(sg->nt.has_highest_tier);
	cr_assert_eq(sg->nt.highest_tier, 1);
	cr_assert_eq(sg->selector->match_labels->nr, 1);
	cr_assert_str_eq(sg->selector->match_labels->kv[0].key, "volcano.sh/task-spec");
	cr_assert_str_eq(sg->selector->match_labels->kv[0].value, "w");
	cr_assert_eq(sg->selector->nr_exprs, 0);
	cr_assert_eq(sg->nr_match_label_keys, 1);
	cr_assert_str_eq(sg->match_label_keys[0], "volcano.sh/partition-id");

	/* the pods carry the partition they are in: replica / partitionSize */
	vs_job_set_phase(&cl, v->podgroup, VS_PG_INQUEUE);
	ct_sync(v);
	cr_assert_str_eq(LABEL(ct_task("j-w-0"), "volcano.sh/partition-id"), "0");
	cr_assert_str_eq(LABEL(ct_task("j-w-1"), "volcano.sh/partition-id"), "0");
	cr_assert_str_eq(LABEL(ct_task("j-w-2"), "volcano.sh/partition-id"), "1");
	cr_assert_str_eq(LABEL(ct_task("j-w-3"), "volcano.sh/partition-id"), "1");
	cr_assert_null(LABEL(ct_task("j-ps-0"), "volcano.sh/partition-id"));
}

/*
 * Once the PodGroup is there, the controller leaves its networkTopology
 * (shouldUpdateExistingPodGroup does not look at it) but puts a partitioned
 * task's policy back when it differs (updatePgSubGroupPolicy), replacing
 * them all; a policy no task names is kept while nothing differs.
 */
Test(jobctl, the_controller_keeps_the_policies_not_the_network_topology)
{
	const struct vs_subgroup_policy_spec extra[] = {
		{ .name = "w", .sub_group_size = 2, .min_sub_groups = 1 },
		{ .name = "other", .sub_group_size = 5 },
	};
	const struct vs_subgroup_policy_spec *cur;
	struct vs_subgroup_policy_spec both[2];
	struct vs_vjob *v = partitioned_job();
	struct vs_arena arena;
	struct vs_job_spec js;
	struct vs_job *pg;

	ct_sync(v);
	pg = v->podgroup;
	vs_job_spec_init(&js, "ns", "j");
	js.min_member = pg->min_member;
	js.net_topology = (struct vs_net_topology_spec){ .set = true, .mode = VS_NT_HARD };
	js.subgroups = extra;
	js.nr_subgroups = 2;
	cr_assert_eq(vs_job_update(&cl, pg, &js, NULL), 0);
	ct_sync(v);
	cr_assert_eq(pg->net_topology.mode, VS_NT_HARD, "the PodGroup's networkTopology stays");
	cr_assert_null(pg->net_topology.highest_tier_name);
	cr_assert_eq(pg->nr_subgroups, 1, "w's policy differed: the job's replace them all");
	cr_assert_not_null(pg->subgroups[0].selector);
	cr_assert_eq(pg->min_member, 3);

	/*
	 * w's as the job wants it, and another: the minResources the update
	 * dropped are put back, the policies are left as they are.
	 */
	vs_arena_init(&arena, 4096);
	cr_assert_eq(vs_subgroups_spec_of(pg->subgroups, 1, &arena, &cur), 0);
	both[0] = cur[0];
	both[1] = extra[1];
	vs_job_spec_init(&js, "ns", "j");
	js.min_member = 3;
	js.subgroups = both;
	js.nr_subgroups = 2;
	cr_assert_eq(vs_job_update(&cl, pg, &js, NULL), 0);
	vs_arena_destroy(&arena);
	cr_assert_not(pg->has_min_resources);
	ct_sync(v);
	cr_assert(pg->has_min_resources, "the update happened");
	cr_assert_eq(pg->nr_subgroups, 2, "no task's policy differed: all are kept");
	cr_assert_str_eq(pg->subgroups[1].name, "other");
	cr_assert_not(pg->net_topology.set, "the update cleared it; the controller leaves it");
}

Test(jobctl, partition_policies_are_refused_as_volcano_refuses_them)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 4, 100);
	struct vs_vjob_spec spec;
	struct vs_err e = { { 0 } };

	t.has_partition = true;
	t.total_partitions = 3;
	t.partition_size = 2;
	vs_vjob_spec_init(&spec, "ns", "j");
	spec.tasks = &t;
	spec.nr_tasks = 1;
	cr_assert_eq(vs_vjob_add(&cl, &spec, NULL, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "job ns/j: task w: partitionPolicy: 'Replicas' (4) are not equal "
			 "to TotalPartitions*PartitionSize (3*2)");

	t.total_partitions = 2;
	t.has_min_available = true;
	t.min_available = 3;
	t.min_partitions = 1;
	vs_err_clear(&e);
	cr_assert_eq(vs_vjob_add(&cl, &spec, NULL, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "job ns/j: task w: partitionPolicy: 'MinAvailable' (3) is not "
			 "equal to MinPartitions*PartitionSize (1*2)");

	t.has_min_available = false;
	t.min_partitions = 3;
	vs_err_clear(&e);
	cr_assert_eq(vs_vjob_add(&cl, &spec, NULL, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "job ns/j: task w: partitionPolicy: minAvailable 6 "
			 "(MinPartitions*PartitionSize) is more than its 4 replicas");

	t.min_partitions = 0;
	t.partition_nt = (struct vs_net_topology_spec){ .set = true, .has_highest_tier = true,
							.highest_tier = 1,
							.highest_tier_name = "rack" };
	vs_err_clear(&e);
	cr_assert_eq(vs_vjob_add(&cl, &spec, NULL, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "job ns/j: task w: partitionPolicy.networkTopology: must not "
			 "specify 'highestTierAllowed' and 'highestTierName' simultaneously");

	t.partition_nt.has_highest_tier = false;
	spec.net_topology = (struct vs_net_topology_spec){ .set = true, .highest_tier = -1,
							   .has_highest_tier = true };
	vs_err_clear(&e);
	cr_assert_eq(vs_vjob_add(&cl, &spec, NULL, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "job ns/j: networkTopology: highestTierAllowed -1 is negative");
	cr_assert_eq(cl.nr_vjobs, 0);

	spec.net_topology.highest_tier = 0;
	cr_assert_eq(vs_vjob_add(&cl, &spec, NULL, NULL), 0);
	cr_assert_eq(cl.nr_vjobs, 1);
	cr_assert_eq(vs_vjob_find(&cl, "ns", "j")->tasks[0].min_available, 4,
		     "no minPartitions: the replicas");
}
#undef LABEL

// SPDX-License-Identifier: Apache-2.0
/*
 * The bind pipeline in-process, on a clock the test steps, as vsbench and
 * "vsctl scenario run" drive it: a bind that no one answers within the
 * timeout fails at the caller's time, forgets the assumption and backs the
 * task off on the same clock; a result that comes in time leaves nothing
 * to expire; the standalone binder confirms what is still Binding.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../sched/schedtest.h"
#include "bind/bind.h"
#include "core/cluster.h"

TestSuite(bind_pipeline);

#define SEC		1000000000ULL
#define TIMEOUT_NS	(5 * SEC)

/* The caller's side: its clock, and its binds waiting on it. */
struct caller {
	u64 now_ns;
	struct vs_binds binds;
};

static void wait_bind(void *ctx, struct vs_task *task, struct vs_node *node)
{
	struct caller *c = ctx;

	cr_assert_eq(vs_binds_wait(&c->binds, task, c->now_ns), 0);
}

static struct vs_cluster cl;
static struct vs_sched sched;
static struct caller caller;

/* Node n1 of 4 cpus, a PodGroup of minMember 1 and its one-cpu task ns/p0; a scheduler. */
static struct vs_task *one_task(void)
{
	struct vs_conf_names names;
	struct vs_task *task;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_init(&cl), 0);
	st_node(&cl, "n1", 4000, 8LL << 30, 110);
	st_queue(&cl, "default");
	st_job(&cl, "ns", "pg", "default", 1, VS_PG_INQUEUE);
	task = st_task(&cl, "ns", "p0", "pg", 1000, 1LL << 30);

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text), "default",
				   &names, VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	caller.now_ns = 500 * SEC;
	vs_binds_init(&caller.binds, &cl, TIMEOUT_NS);
	sched.sink = (struct vs_decision_sink){ .bind = wait_bind, .ctx = &caller };
	return task;
}

static void done(void)
{
	vs_binds_destroy(&caller.binds);
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

/* A cycle at the caller's time: how many binds it made. */
static u64 cycle(void)
{
	u64 before = sched.stats.binds;
	struct vs_err e = { { 0 } };

	sched.now_ns = caller.now_ns;
	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
	return sched.stats.binds - before;
}

static void expire(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_binds_expire(&caller.binds, caller.now_ns, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
}

static s64 idle_cpu(void)
{
	return vs_res_get(&vs_node_find(&cl, "n1")->idle, VS_RES_CPU);
}

Test(bind_pipeline, unanswered_bind_fails_at_callers_clock_and_backs_off)
{
	struct vs_task *task = one_task();
	u64 failed_at;

	cr_assert_eq(cycle(), 1);
	cr_assert_eq(task->status, VS_TASK_BINDING);
	cr_assert_eq(idle_cpu(), 3000);
	cr_assert_eq(vs_binds_next_ms(&caller.binds, caller.now_ns), 5000);

	/* A nanosecond short of the timeout on the caller's clock: it still waits. */
	caller.now_ns += TIMEOUT_NS - 1;
	expire();
	cr_assert_eq(task->status, VS_TASK_BINDING);
	cr_assert_eq(vs_binds_next_ms(&caller.binds, caller.now_ns), 1);

	/* At the timeout the assumption is forgotten and the task backs off 1 s. */
	caller.now_ns += 1;
	failed_at = caller.now_ns;
	expire();
	cr_assert_eq(task->status, VS_TASK_PENDING);
	cr_assert_null(task->node);
	cr_assert_eq(idle_cpu(), 4000);
	cr_assert_eq(vs_task_bind_failures(task), 1);
	cr_assert_eq(vs_task_retry_after(task), failed_at + SEC);
	cr_assert_str_eq(vs_task_bind_error(task), "binding to node n1 failed: no bind result within "
			 "5000 ms (error -110)");
	cr_assert_eq(vs_binds_next_ms(&caller.binds, caller.now_ns), -1);

	/* The scheduler, on the same clock, leaves it alone until the backoff is over. */
	caller.now_ns = failed_at + SEC - 1;
	cr_assert_eq(cycle(), 0);
	cr_assert_eq(task->status, VS_TASK_PENDING);
	caller.now_ns = failed_at + SEC;
	cr_assert_eq(cycle(), 1);
	cr_assert_eq(task->status, VS_TASK_BINDING);

	/* Unanswered again: the second failure in a row backs it off 2 s. */
	caller.now_ns += TIMEOUT_NS;
	expire();
	cr_assert_eq(task->status, VS_TASK_PENDING);
	cr_assert_eq(vs_task_bind_failures(task), 2);
	cr_assert_eq(vs_task_retry_after(task), caller.now_ns + 2 * SEC);
	done();
}

Test(bind_pipeline, answered_bind_leaves_nothing_to_expire)
{
	struct vs_task *task = one_task();
	struct vs_err e = { { 0 } };

	cr_assert_eq(cycle(), 1);
	caller.now_ns += SEC;
	cr_assert_eq(vs_bind_succeeded(&cl, task, &e), 0, "%s", e.msg);
	cr_assert_eq(task->status, VS_TASK_BOUND);
	/* Its wait is dropped at its deadline: the task is no longer Binding. */
	caller.now_ns += TIMEOUT_NS;
	expire();
	cr_assert_eq(task->status, VS_TASK_BOUND);
	cr_assert_eq(vs_task_bind_failures(task), 0);
	cr_assert_eq(vs_binds_next_ms(&caller.binds, caller.now_ns), -1);
	/* A result for a task that is not Binding is refused, and changes nothing. */
	cr_assert_eq(vs_bind_failed(&cl, task, caller.now_ns, -EIO, "late", &e), -EINVAL);
	cr_assert_str_eq(e.msg, "task ns/p0 is Bound, not Binding");
	cr_assert_eq(task->status, VS_TASK_BOUND);
	done();
}

Test(bind_pipeline, failed_bind_wait_does_not_expire_the_next_bind)
{
	struct vs_task *task = one_task();
	struct vs_err e = { { 0 } };
	u64 t0 = caller.now_ns;

	/* The binder fails the first bind a second in; the task backs off 1 s. */
	cr_assert_eq(cycle(), 1);
	caller.now_ns = t0 + SEC;
	cr_assert_eq(vs_bind_failed(&cl, task, caller.now_ns, -EIO, "node busy", &e), 0, "%s",
		     e.msg);
	caller.now_ns = t0 + 2 * SEC;
	cr_assert_eq(cycle(), 1);
	cr_assert_eq(task->status, VS_TASK_BINDING);

	/* The first bind's deadline is not the second's: that one has its full timeout. */
	caller.now_ns = t0 + TIMEOUT_NS;
	expire();
	cr_assert_eq(task->status, VS_TASK_BINDING, "the second bind timed out with the first's "
		     "deadline");
	cr_assert_eq(vs_task_bind_failures(task), 1);
	caller.now_ns = t0 + 2 * SEC + TIMEOUT_NS;
	expire();
	cr_assert_eq(task->status, VS_TASK_PENDING);
	cr_assert_eq(vs_task_bind_failures(task), 2);
	done();
}

Test(bind_pipeline, no_timeout_leaves_binds_waiting)
{
	struct vs_task *task = one_task();

	vs_binds_destroy(&caller.binds);
	vs_binds_init(&caller.binds, &cl, 0);
	cr_assert_eq(cycle(), 1);
	caller.now_ns += 1000 * SEC;
	expire();
	cr_assert_eq(task->status, VS_TASK_BINDING);
	cr_assert_eq(vs_binds_next_ms(&caller.binds, caller.now_ns), -1);
	done();
}

Test(bind_pipeline, standalone_binder_confirms_only_binding_tasks)
{
	struct vs_task *task = one_task();
	struct vs_task *tasks[2];
	struct vs_task_spec ts;
	struct vs_err e = { { 0 } };

	sched.sink = (struct vs_decision_sink){ 0 };
	cr_assert_eq(cycle(), 1);
	vs_task_spec_init(&ts, "ns", "p1", "pg");
	ts.status = VS_TASK_RUNNING;
	ts.node = "n1";
	ts.req = st_res(1000, 1LL << 30);
	cr_assert_eq(vs_task_add(&cl, &ts, &tasks[1], &e), 0, "%s", e.msg);
	cr_assert_eq(vs_task_set_status(&cl, tasks[1], VS_TASK_RELEASING, &e), 0, "%s", e.msg);
	tasks[0] = task;
	cr_assert_eq(vs_bind_confirm_all(&cl, tasks, 2), 1);
	cr_assert_eq(task->status, VS_TASK_RUNNING);
	cr_assert_eq(tasks[1]->status, VS_TASK_RELEASING);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
	done();
}

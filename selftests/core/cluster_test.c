// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the object model (core/cluster.h, node.h, job.h): node
 * accounting per task status with Volcano's numbers, the job status index and
 * gang counts, queue totals and orphan adoption, lookups, refusals that leave
 * the state untouched, and a long random sequence of operations after each of
 * which every invariant of every object is re-verified.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/cluster.h"

static struct vs_cluster cl;

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
}

static void teardown(void)
{
	vs_cluster_destroy(&cl);
}

TestSuite(cluster, .init = setup, .fini = teardown);

static struct vs_res res(s64 millicpu, s64 mem)
{
	struct vs_res r;

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, millicpu);
	vs_res_set(&r, VS_RES_MEMORY, mem);
	return r;
}

#define GI (1024LL * 1024 * 1024)

static void check_all(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "invariant broken: %s", e.msg);
}

static struct vs_node *add_node(const char *name, s64 mcpu, s64 mem)
{
	struct vs_node_spec spec;
	struct vs_node *node;
	struct vs_err e = { { 0 } };

	vs_node_spec_init(&spec, name);
	spec.allocatable = res(mcpu, mem);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
	cr_assert_eq(vs_node_add(&cl, &spec, &node, &e), 0, "%s", e.msg);
	return node;
}

static struct vs_queue *add_queue(const char *name)
{
	struct vs_queue_spec spec;
	struct vs_queue *q;
	struct vs_err e = { { 0 } };

	vs_queue_spec_init(&spec, name);
	cr_assert_eq(vs_queue_add(&cl, &spec, &q, &e), 0, "%s", e.msg);
	return q;
}

static struct vs_job *add_job(const char *name, const char *queue, u32 min_member)
{
	struct vs_job_spec spec;
	struct vs_job *job;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&spec, "ns", name);
	spec.queue = queue;
	spec.min_member = min_member;
	cr_assert_eq(vs_job_add(&cl, &spec, &job, &e), 0, "%s", e.msg);
	return job;
}

static int add_task(const char *name, const char *job, enum vs_task_status st,
		    const char *node, s64 mcpu, s64 mem, struct vs_task **out,
		    struct vs_err *e)
{
	struct vs_task_spec spec;

	vs_task_spec_init(&spec, "ns", name, job);
	spec.status = st;
	spec.node = node;
	spec.req = res(mcpu, mem);
	return vs_task_add(&cl, &spec, out, e);
}

static struct vs_task *task_ok(const char *name, const char *job, enum vs_task_status st,
			       const char *node, s64 mcpu, s64 mem)
{
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	cr_assert_eq(add_task(name, job, st, node, mcpu, mem, &t, &e), 0, "%s", e.msg);
	return t;
}

Test(cluster, node_accounting_follows_each_task_status)
{
	struct vs_node *n = add_node("n1", 8000, 16 * GI);
	struct vs_res fi;

	add_queue("default");
	add_job("j", NULL, 1);
	task_ok("run", "j", VS_TASK_RUNNING, "n1", 1000, 1 * GI);
	task_ok("rel", "j", VS_TASK_RELEASING, "n1", 2000, 2 * GI);
	task_ok("pipe", "j", VS_TASK_PIPELINED, "n1", 4000, 4 * GI);
	task_ok("alloc", "j", VS_TASK_ALLOCATED, "n1", 500, 0);

	/* used: run + rel + alloc; idle = allocatable - used */
	cr_assert_eq(vs_res_get(&n->used, VS_RES_CPU), 3500);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_CPU), 4500);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_MEMORY), 13 * GI);
	cr_assert_eq(vs_res_get(&n->releasing, VS_RES_CPU), 2000);
	cr_assert_eq(vs_res_get(&n->pipelined, VS_RES_CPU), 4000);
	cr_assert_eq(n->nr_tasks, 4);

	/* FutureIdle = idle + releasing - pipelined */
	vs_node_future_idle(n, &fi);
	cr_assert_eq(vs_res_get(&fi, VS_RES_CPU), 4500 + 2000 - 4000);
	cr_assert_eq(vs_res_get(&fi, VS_RES_MEMORY), 13 * GI + 2 * GI - 4 * GI);
	check_all();
}

Test(cluster, status_changes_move_resources_between_buckets)
{
	struct vs_node *n = add_node("n1", 4000, 8 * GI);
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	add_queue("default");
	add_job("j", NULL, 1);
	t = task_ok("t", "j", VS_TASK_RUNNING, "n1", 1000, GI);

	/* evicted: still uses its resources, and they are releasing */
	cr_assert_eq(vs_task_set_status(&cl, t, VS_TASK_RELEASING, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_res_get(&n->releasing, VS_RES_CPU), 1000);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_CPU), 3000);
	check_all();

	/* finished: it leaves the node and gives everything back */
	cr_assert_eq(vs_task_set_status(&cl, t, VS_TASK_SUCCEEDED, &e), 0, "%s", e.msg);
	cr_assert_null(t->node);
	cr_assert_eq(n->nr_tasks, 0);
	cr_assert_eq(vs_res_get(&n->releasing, VS_RES_CPU), 0);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_CPU), 4000);
	cr_assert_eq(vs_res_get(&n->used, VS_RES_CPU), 0);
	check_all();
}

Test(cluster, pipelined_task_becomes_allocated_in_place)
{
	struct vs_node *n = add_node("n1", 4000, 8 * GI);
	struct vs_task *t;

	add_queue("default");
	add_job("j", NULL, 1);
	t = task_ok("t", "j", VS_TASK_PENDING, NULL, 1000, GI);
	cr_assert_eq(vs_task_place(&cl, t, n, VS_TASK_PIPELINED, NULL), 0);
	cr_assert_eq(vs_res_get(&n->pipelined, VS_RES_CPU), 1000);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_CPU), 4000);
	cr_assert_eq(vs_task_set_status(&cl, t, VS_TASK_ALLOCATED, NULL), 0);
	cr_assert_eq(vs_res_get(&n->pipelined, VS_RES_CPU), 0);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_CPU), 3000);
	cr_assert_eq(t->acct, VS_ACCT_USED);
	check_all();

	/* and back: discard of the allocation */
	cr_assert_eq(vs_task_unplace(&cl, t, VS_TASK_PENDING, NULL), 0);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_CPU), 4000);
	cr_assert_eq(t->status, VS_TASK_PENDING);
	check_all();
}

Test(cluster, binding_that_does_not_fit_is_refused_and_changes_nothing)
{
	struct vs_node *n = add_node("n1", 2000, 4 * GI);
	struct vs_task *big;
	struct vs_res idle_before;
	struct vs_err e = { { 0 } };

	add_queue("default");
	add_job("j", NULL, 1);
	task_ok("a", "j", VS_TASK_RUNNING, "n1", 1500, GI);
	big = task_ok("big", "j", VS_TASK_PENDING, NULL, 1000, GI);
	idle_before = n->idle;

	cr_assert_eq(vs_task_place(&cl, big, n, VS_TASK_BINDING, &e), -ENOSPC);
	cr_assert(strstr(e.msg, "node n1 has not enough idle resources"), "%s", e.msg);
	cr_assert_eq(big->status, VS_TASK_PENDING);
	cr_assert_null(big->node);
	cr_assert_eq(memcmp(idle_before.v, n->idle.v, sizeof(idle_before.v)), 0);
	cr_assert_eq(cl.jobs.next != NULL, true);
	check_all();

	/* Allocated is not checked (the session checked FutureIdle); Bound neither */
	cr_assert_eq(vs_task_place(&cl, big, n, VS_TASK_BOUND, &e), 0);
	cr_assert_lt(vs_res_get(&n->idle, VS_RES_CPU), 0);	/* over-committed, as reported */
	check_all();
}

Test(cluster, a_condition_keeps_its_buffer_while_it_fits)
{
	struct vs_job *job;
	struct vs_pg_condition *c;
	char *buf;
	char long_msg[300];

	add_queue("q");
	job = add_job("j", "q", 1);
	c = &job->cond[VS_PG_COND_UNSCHEDULABLE];
	cr_assert_eq(vs_job_set_condition(job, VS_PG_COND_UNSCHEDULABLE, true, "NotEnoughResources",
					  "pod group is not ready, 1 Pending", 3), 0);
	cr_assert_str_eq(vs_pg_cond_reason(c), "NotEnoughResources");
	cr_assert_str_eq(vs_pg_cond_message(c), "pod group is not ready, 1 Pending");
	cr_assert_str_eq(vs_pg_cond_transition_id(c), "", "a cycle's own has the cycle's number");
	buf = c->text;
	cr_assert_eq(vs_job_set_condition(job, VS_PG_COND_UNSCHEDULABLE, true, "NotEnoughResources",
					  "pod group is not ready, 2 Pending", 4), 0);
	cr_assert_eq(c->text, buf, "a text that fits is written in place");
	cr_assert_str_eq(vs_pg_cond_message(c), "pod group is not ready, 2 Pending");
	cr_assert_eq(c->transition, 4);
	memset(long_msg, 'x', sizeof(long_msg) - 1);
	long_msg[sizeof(long_msg) - 1] = '\0';
	cr_assert_eq(vs_job_set_condition(job, VS_PG_COND_UNSCHEDULABLE, true, "NotEnoughResources",
					  long_msg, 5), 0);
	cr_assert_str_eq(vs_pg_cond_message(c), long_msg);
	cr_assert_eq(vs_pg_cond_text_size(c), strlen(long_msg) + 2, "the message and an empty id");
	cr_assert_gt(c->cap, vs_pg_cond_text_size(c));
	cr_assert_eq(vs_job_set_condition(job, VS_PG_COND_UNSCHEDULABLE, false, "", "", 6), 0);
	cr_assert_null(c->text, "no texts, no buffer");
	cr_assert_eq(c->cap, 0);
	cr_assert_str_eq(vs_pg_cond_reason(c), "");
	cr_assert_str_eq(vs_pg_cond_message(c), "");
	cr_assert_eq(vs_job_set_condition(job, VS_PG_COND_UNSCHEDULABLE, true, "NotEnoughResources",
					  "short", 7), 0);
	cr_assert_str_eq(vs_pg_cond_message(c), "short");
}

/*
 * A condition a message gives (the API server's) is kept as given, with
 * its transitionID and time, until a cycle sets the type; after that a
 * message's condition of that type is not taken (the echo of what vschedd
 * wrote, or an older one, does not undo a cycle's).
 */
Test(cluster, a_given_condition_stays_until_a_cycle_sets_its_type)
{
	struct vs_pg_condition_spec unsched = {
		.type = VS_PG_COND_UNSCHEDULABLE, .status = true, .reason = "NotEnoughResources",
		.message = "3/3 tasks in gang unschedulable", .transition_id = "6b1e-uuid",
		.time = 1767225600,
	};
	struct vs_pg_condition_spec sched = {
		.type = VS_PG_COND_SCHEDULED, .status = true,
		.reason = "tasks in gang are ready to be scheduled",
	};
	struct vs_pg_condition_spec conds[] = { unsched, sched };
	struct vs_job_spec spec;
	struct vs_pg_condition *u, *s;
	struct vs_err e = { { 0 } };
	struct vs_job *job;

	add_queue("q");
	vs_job_spec_init(&spec, "ns", "pg");
	spec.queue = "q";
	spec.cond = conds;
	spec.nr_cond = 2;
	cr_assert_eq(vs_job_add(&cl, &spec, &job, &e), 0, "%s", e.msg);
	u = &job->cond[VS_PG_COND_UNSCHEDULABLE];
	s = &job->cond[VS_PG_COND_SCHEDULED];
	cr_assert(u->set && u->status && u->given);
	cr_assert_str_eq(vs_pg_cond_reason(u), "NotEnoughResources");
	cr_assert_str_eq(vs_pg_cond_message(u), "3/3 tasks in gang unschedulable");
	cr_assert_str_eq(vs_pg_cond_transition_id(u), "6b1e-uuid");
	cr_assert_eq(u->time, 1767225600);
	cr_assert_eq(u->transition, 0, "no cycle set it");
	cr_assert(s->set && s->given);
	cr_assert_str_eq(vs_pg_cond_message(s), "");
	cr_assert_str_eq(vs_pg_cond_reason(s), "tasks in gang are ready to be scheduled");
	cr_assert_eq(vs_pg_cond_text_size(s), 2 + strlen(vs_pg_cond_reason(s)) + 1);

	/* a cycle sets Scheduled: a message's Scheduled is no longer taken, Unschedulable is */
	cr_assert_eq(vs_job_set_condition(job, VS_PG_COND_SCHEDULED, true,
					  "tasks in gang are ready to be scheduled", NULL, 9), 0);
	conds[0].message = "1/3 tasks in gang unschedulable";
	conds[1].status = false;
	cr_assert_eq(vs_job_update(&cl, job, &spec, &e), 0, "%s", e.msg);
	cr_assert(s->set && s->status && !s->given && s->transition == 9, "the cycle's stays");
	cr_assert_str_eq(vs_pg_cond_message(u), "1/3 tasks in gang unschedulable");

	/* a spec without conditions leaves them */
	spec.nr_cond = 0;
	cr_assert_eq(vs_job_update(&cl, job, &spec, &e), 0, "%s", e.msg);
	cr_assert(u->set && u->given && s->set);

	/* an undo copies exactly, given or not, set or not */
	{
		struct vs_pg_condition none = { 0 };

		cr_assert_eq(vs_job_copy_condition(job, VS_PG_COND_UNSCHEDULABLE, s), 0);
		cr_assert(u->set && !u->given && u->transition == 9);
		cr_assert_str_eq(vs_pg_cond_reason(u), "tasks in gang are ready to be scheduled");
		cr_assert_eq(vs_job_copy_condition(job, VS_PG_COND_UNSCHEDULABLE, &none), 0);
		cr_assert(!u->set);
		cr_assert_null(u->text);
	}
	check_all();
}

Test(cluster, job_status_index_and_gang_counts)
{
	struct vs_job *j;
	struct vs_task *t[5];
	char name[16];

	add_node("n1", 64000, 64 * GI);
	add_queue("default");
	j = add_job("j", NULL, 3);
	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		t[i] = task_ok(name, "j", VS_TASK_PENDING, NULL, 1000, GI);
	}
	cr_assert_eq(j->nr_by_status[VS_TASK_PENDING], 5);
	cr_assert(vs_job_is_starving(j));
	cr_assert_not(vs_job_is_ready(j));

	cr_assert_eq(vs_task_place(&cl, t[0], vs_node_find(&cl, "n1"), VS_TASK_ALLOCATED, NULL), 0);
	cr_assert_eq(vs_task_place(&cl, t[1], vs_node_find(&cl, "n1"), VS_TASK_PIPELINED, NULL), 0);
	cr_assert_eq(vs_job_ready_num(j), 1);
	cr_assert_eq(vs_job_waiting_num(j), 1);
	cr_assert_not(vs_job_is_pipelined(j));
	cr_assert_eq(vs_task_place(&cl, t[2], vs_node_find(&cl, "n1"), VS_TASK_PIPELINED, NULL), 0);
	cr_assert(vs_job_is_pipelined(j));
	cr_assert_not(vs_job_is_ready(j));
	cr_assert_not(vs_job_is_starving(j));
	cr_assert_eq(vs_task_set_status(&cl, t[1], VS_TASK_ALLOCATED, NULL), 0);
	cr_assert_eq(vs_task_set_status(&cl, t[2], VS_TASK_BINDING, NULL), 0);
	cr_assert(vs_job_is_ready(j));

	/* allocated counts Allocated, Binding, Bound, Running only */
	cr_assert_eq(vs_res_get(&j->allocated, VS_RES_CPU), 3000);
	cr_assert_eq(vs_res_get(&j->total_request, VS_RES_CPU), 5000);
	cr_assert_eq(vs_res_get(&j->queue->allocated, VS_RES_CPU), 3000);
	cr_assert_eq(vs_res_get(&j->queue->request, VS_RES_CPU), 5000);
	check_all();
}

Test(cluster, best_effort_pending_tasks_count_towards_readiness)
{
	struct vs_job *j;

	add_queue("default");
	j = add_job("j", NULL, 2);
	task_ok("be1", "j", VS_TASK_PENDING, NULL, 0, 0);
	task_ok("be2", "j", VS_TASK_PENDING, NULL, 0, 0);
	cr_assert_eq(j->nr_pending_best_effort, 2);
	cr_assert(vs_job_is_ready(j));
	cr_assert(vs_job_is_starving(j));
	check_all();
}

Test(cluster, jobs_wait_for_their_queue_and_join_it_in_order)
{
	struct vs_job *a, *b, *c;
	struct vs_queue *q;

	a = add_job("a", "research", 1);
	b = add_job("b", "prod", 1);
	c = add_job("c", "research", 1);
	cr_assert_null(a->queue);
	task_ok("a-0", "a", VS_TASK_PENDING, NULL, 1000, GI);
	check_all();

	q = add_queue("research");
	cr_assert_eq(a->queue, q);
	cr_assert_eq(c->queue, q);
	cr_assert_null(b->queue);
	cr_assert_eq(q->nr_jobs, 2);
	cr_assert_eq(list_first_entry(&q->jobs, struct vs_job, queue_node), a);
	cr_assert_eq(vs_res_get(&q->request, VS_RES_CPU), 1000);
	cr_assert_eq(q->nr_jobs_by_phase[VS_PG_PENDING], 2);
	check_all();
}

/* The active jobs' names, in the order the cluster keeps them, e.g. "a c d". */
static void assert_active(const char *want)
{
	const struct vs_job *job;
	char got[256] = "";
	size_t len = 0;
	u32 n = 0;

	vs_for_each_active_job(job, &cl) {
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s", n ? " " : "",
					job->name);
		n++;
	}
	cr_assert_str_eq(got, want);
	cr_assert_eq(n, cl.nr_active_jobs);
	check_all();
}

/* A job with a running task and nothing pending, which may rest. */
static struct vs_job *add_running_job(const char *name, const char *queue)
{
	struct vs_job *job = add_job(name, queue, 1);
	char task[32];

	snprintf(task, sizeof(task), "%s-0", name);
	task_ok(task, name, VS_TASK_RUNNING, "n1", 100, GI / 8);
	vs_job_set_phase(&cl, job, VS_PG_RUNNING);
	return job;
}

/*
 * Sessions walk the active jobs in creation order and sort nothing: the
 * cluster keeps that order however jobs wake and rest, move and go.
 */
Test(cluster, active_jobs_stay_in_creation_order_as_they_wake_rest_and_go)
{
	struct vs_job *job[6];
	struct vs_err e = { { 0 } };
	const char *names[] = { "a", "b", "c", "d", "e", "f" };
	struct vs_job_spec spec;

	add_node("n1", 64000, 64 * GI);
	add_queue("q1");
	add_queue("q2");
	for (int i = 0; i < 6; i++)
		job[i] = add_running_job(names[i], i % 2 ? "q2" : "q1");
	assert_active("a b c d e f");

	vs_job_rest(&cl, job[4]);
	vs_job_rest(&cl, job[0]);
	vs_job_rest(&cl, job[5]);		/* the last one */
	vs_job_rest(&cl, job[2]);
	assert_active("b d");
	add_running_job("g", "q1");		/* made last, while the last made rests */
	assert_active("b d g");

	/* they wake out of creation order, each by a different change */
	cr_assert_eq(vs_task_set_status(&cl, vs_task_find(&cl, "ns", "e-0"),
					VS_TASK_SUCCEEDED, &e), 0, "%s", e.msg);
	assert_active("b d e g");
	vs_job_set_phase(&cl, job[0], VS_PG_COMPLETED);
	assert_active("a b d e g");
	task_ok("c-1", "c", VS_TASK_PENDING, NULL, 100, GI / 8);
	assert_active("a b c d e g");
	vs_job_spec_init(&spec, "ns", "f");
	spec.queue = "q1";
	spec.phase = VS_PG_RUNNING;
	cr_assert_eq(vs_job_update(&cl, job[5], &spec, &e), 0, "%s", e.msg);
	assert_active("a b c d e f g");

	/* rest and wake again; a queue going makes its jobs orphans, its making adopts them */
	vs_job_rest(&cl, job[3]);
	vs_job_rest(&cl, job[1]);
	assert_active("a c e f g");
	cr_assert_eq(vs_task_set_status(&cl, vs_task_find(&cl, "ns", "d-0"),
					VS_TASK_FAILED, &e), 0, "%s", e.msg);
	assert_active("a c d e f g");
	vs_job_spec_init(&spec, "ns", "d");
	spec.queue = "gone";
	cr_assert_eq(vs_job_update(&cl, job[3], &spec, &e), 0, "%s", e.msg);
	assert_active("a c e f g");
	add_queue("gone");
	assert_active("a c d e f g");

	/* deleted, first, in the middle and last */
	vs_task_del(&cl, vs_task_find(&cl, "ns", "g-0"));
	cr_assert_eq(vs_job_del(&cl, vs_job_find(&cl, "ns", "g"), &e), 0, "%s", e.msg);
	assert_active("a c d e f");
	vs_task_del(&cl, vs_task_find(&cl, "ns", "a-0"));
	cr_assert_eq(vs_job_del(&cl, job[0], &e), 0, "%s", e.msg);
	vs_task_del(&cl, vs_task_find(&cl, "ns", "d-0"));
	cr_assert_eq(vs_job_del(&cl, job[3], &e), 0, "%s", e.msg);
	assert_active("c e f");
	add_running_job("h", "q2");
	assert_active("c e f h");
}

Test(cluster, job_update_moves_it_between_queues_with_its_totals)
{
	struct vs_queue *q1 = add_queue("q1"), *q2 = add_queue("q2");
	struct vs_job *j = add_job("j", "q1", 1);
	struct vs_job_spec spec;

	add_node("n1", 4000, 4 * GI);
	task_ok("t", "j", VS_TASK_RUNNING, "n1", 1000, GI);
	vs_job_set_phase(&cl, j, VS_PG_RUNNING);
	cr_assert_eq(q1->nr_jobs_by_phase[VS_PG_RUNNING], 1);

	vs_job_spec_init(&spec, "ns", "j");
	spec.queue = "q2";
	spec.min_member = 1;
	spec.phase = VS_PG_RUNNING;
	cr_assert_eq(vs_job_update(&cl, j, &spec, NULL), 0);
	cr_assert_eq(j->queue, q2);
	cr_assert_eq(q1->nr_jobs, 0);
	cr_assert_eq(vs_res_get(&q1->allocated, VS_RES_CPU), 0);
	cr_assert_eq(vs_res_get(&q2->allocated, VS_RES_CPU), 1000);
	cr_assert_eq(q2->nr_jobs_by_phase[VS_PG_RUNNING], 1);
	check_all();
}

Test(cluster, lookups_by_name_and_namespace)
{
	struct vs_node *n = add_node("n1", 1000, GI);
	struct vs_task *t;
	struct vs_job_spec spec;

	add_queue("default");
	add_job("j", NULL, 1);
	vs_job_spec_init(&spec, "other", "j");
	cr_assert_eq(vs_job_add(&cl, &spec, NULL, NULL), 0);
	t = task_ok("t", "j", VS_TASK_PENDING, NULL, 1, 1);

	cr_assert_eq(vs_node_find(&cl, "n1"), n);
	cr_assert_null(vs_node_find(&cl, "n2"));
	cr_assert_null(vs_node_find(&cl, NULL));
	cr_assert_eq(vs_task_find(&cl, "ns", "t"), t);
	cr_assert_null(vs_task_find(&cl, "other", "t"));
	cr_assert_neq(vs_job_find(&cl, "ns", "j"), vs_job_find(&cl, "other", "j"));
	cr_assert_str_eq(vs_job_find(&cl, "other", "j")->ns, "other");
	cr_assert_eq(vs_job_find(&cl, "ns", "j"), t->job);
	cr_assert_not_null(vs_queue_find(&cl, "default"));
}

Test(cluster, duplicates_and_bad_specs_are_refused_with_a_reason)
{
	struct vs_node_spec ns;
	struct vs_queue_spec qs;
	struct vs_err e = { { 0 } };
	struct vs_task *t;

	add_node("n1", 1000, GI);
	vs_node_spec_init(&ns, "n1");
	cr_assert_eq(vs_node_add(&cl, &ns, NULL, &e), -EEXIST);
	cr_assert_str_eq(e.msg, "node n1 already exists");

	vs_err_clear(&e);
	vs_node_spec_init(&ns, "N_1");
	cr_assert_eq(vs_node_add(&cl, &ns, NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "invalid node name \"N_1\""), "%s", e.msg);

	vs_err_clear(&e);
	vs_node_spec_init(&ns, "n2");
	vs_res_set(&ns.allocatable, VS_RES_CPU, -1);
	cr_assert_eq(vs_node_add(&cl, &ns, NULL, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "node n2: allocatable: cpu is negative");

	vs_err_clear(&e);
	vs_queue_spec_init(&qs, "q");
	qs.weight = 0;
	cr_assert_eq(vs_queue_add(&cl, &qs, NULL, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "queue q: weight must be at least 1");

	add_queue("default");
	add_job("j", NULL, 1);
	vs_err_clear(&e);
	cr_assert_eq(add_task("t", "nope", VS_TASK_PENDING, NULL, 1, 1, &t, &e), -ENOENT);
	cr_assert_str_eq(e.msg, "pod ns/t: podgroup ns/nope does not exist");
	vs_err_clear(&e);
	cr_assert_eq(add_task("t", "j", VS_TASK_PENDING, "n1", 1, 1, &t, &e), -EINVAL);
	cr_assert(strstr(e.msg, "a Pending task cannot be on node n1"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(add_task("t", "j", VS_TASK_RUNNING, NULL, 1, 1, &t, &e), -EINVAL);
	cr_assert(strstr(e.msg, "a Running task needs a node"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(add_task("t", "j", VS_TASK_RUNNING, "n9", 1, 1, &t, &e), -ENOENT);
	cr_assert(strstr(e.msg, "node n9 does not exist"), "%s", e.msg);

	/* nothing of the refused objects remains */
	cr_assert_eq(cl.nr_nodes, 1);
	cr_assert_eq(cl.nr_tasks, 0);
	check_all();
}

Test(cluster, busy_objects_cannot_be_deleted)
{
	struct vs_node *n = add_node("n1", 1000, GI);
	struct vs_queue *q = add_queue("default");
	struct vs_job *j = add_job("j", NULL, 1);
	struct vs_task *t = task_ok("t", "j", VS_TASK_RUNNING, "n1", 100, 1);
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_node_del(&cl, n, &e), -EBUSY);
	cr_assert_str_eq(e.msg, "node n1 still holds 1 tasks");
	cr_assert_eq(vs_job_del(&cl, j, NULL), -EBUSY);
	cr_assert_eq(vs_queue_del(&cl, q, NULL), -EBUSY);
	vs_task_del(&cl, t);
	cr_assert_eq(vs_node_del(&cl, n, NULL), 0);
	cr_assert_eq(vs_job_del(&cl, j, NULL), 0);
	cr_assert_eq(vs_queue_del(&cl, q, NULL), 0);
	cr_assert_eq(cl.nr_nodes + cl.nr_jobs + cl.nr_queues + cl.nr_tasks, 0);
	cr_assert_eq(vs_res_get(&cl.total_allocatable, VS_RES_CPU), 0);
	check_all();
}

Test(cluster, node_update_recomputes_idle_from_use)
{
	struct vs_node *n = add_node("n1", 4000, 4 * GI);
	struct vs_node_spec spec;
	const struct vs_kv_spec labels[] = { { "zone", "b" } };

	add_queue("default");
	add_job("j", NULL, 1);
	task_ok("t", "j", VS_TASK_RUNNING, "n1", 1000, GI);
	vs_node_spec_init(&spec, "n1");
	spec.allocatable = res(8000, 8 * GI);
	spec.labels = labels;
	spec.nr_labels = 1;
	spec.unschedulable = true;
	cr_assert_eq(vs_node_update(&cl, n, &spec, NULL), 0);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_CPU), 7000);
	cr_assert_eq(vs_res_get(&cl.total_allocatable, VS_RES_CPU), 8000);
	cr_assert(n->unschedulable);
	cr_assert_str_eq(vs_labels_get(n->labels, vs_str_find(&cl.strs, "zone", 4)), "b");
	check_all();
}

Test(cluster, creation_order_is_the_tie_breaker)
{
	struct vs_node *a = add_node("zz", 1, 1), *b = add_node("aa", 1, 1);

	cr_assert_lt(a->seq, b->seq);
	cr_assert_eq(list_first_entry(&cl.nodes, struct vs_node, list), a);
}

Test(cluster, only_one_global_default_priority_class)
{
	struct vs_prioclass_spec s = { .name = "high", .value = 1000, .global_default = true };
	struct vs_prioclass *pc;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_prioclass_add(&cl, &s, &pc, NULL), 0);
	s.name = "low";
	cr_assert_eq(vs_prioclass_add(&cl, &s, NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "high is already the global default"), "%s", e.msg);
	s.global_default = false;
	s.value = -5;
	cr_assert_eq(vs_prioclass_add(&cl, &s, NULL, NULL), 0);
	cr_assert_eq(vs_prioclass_default(&cl), pc);
	cr_assert_eq(vs_prioclass_find(&cl, "low")->value, -5);
	vs_prioclass_del(&cl, pc);
	cr_assert_null(vs_prioclass_default(&cl));
}

Test(cluster, volcano_job_specs_are_validated_and_defaulted)
{
	struct vs_vjob_task_spec tasks[2] = {
		{ .name = "ps", .replicas = 1 },
		{ .name = "worker", .replicas = 4, .has_min_available = true, .min_available = 2 },
	};
	struct vs_vjob_spec spec;
	struct vs_vjob *vj;
	struct vs_err e = { { 0 } };

	vs_vjob_spec_init(&spec, "ns", "tf");
	spec.tasks = tasks;
	spec.nr_tasks = 2;
	cr_assert_eq(vs_vjob_add(&cl, &spec, &vj, &e), 0, "%s", e.msg);
	cr_assert_eq(vj->min_available, 3);	/* the tasks' minAvailable: 1 + 2 */
	cr_assert_eq(vj->max_retry, 3);
	cr_assert_str_eq(vj->queue_name, "default");
	cr_assert_eq(vj->tasks[1].min_available, 2);
	cr_assert_eq(vj->tasks[0].min_available, 1);
	cr_assert_eq(vs_vjob_find(&cl, "ns", "tf"), vj);

	vs_vjob_spec_init(&spec, "ns", "bad");
	spec.tasks = tasks;
	spec.nr_tasks = 2;
	spec.has_min_available = true;
	spec.min_available = 6;
	cr_assert_eq(vs_vjob_add(&cl, &spec, NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "minAvailable 6 is more than the 5 replicas"), "%s", e.msg);

	tasks[1].name = "ps";
	spec.has_min_available = false;
	vs_err_clear(&e);
	cr_assert_eq(vs_vjob_add(&cl, &spec, NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "given twice"), "%s", e.msg);
	spec.nr_tasks = 0;
	cr_assert_eq(vs_vjob_add(&cl, &spec, NULL, NULL), -EINVAL);
	cr_assert_eq(cl.nr_vjobs, 1);
}

Test(cluster, limits_refuse_one_object_past_them_and_change_nothing)
{
	struct vs_vjob_task_spec big = { .name = "worker", .replicas = 3000000000u };
	struct vs_vjob_spec vspec;
	struct vs_err e = { { 0 } };
	struct vs_node_spec nspec;
	struct vs_task *t;

	cr_assert_eq(cl.limits.tasks, VS_LIMIT_TASKS, "the default");
	cr_assert_eq(vs_cluster_limit_set(&cl.limits, "nodes", 2, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_cluster_limit_set(&cl.limits, "tasks", 3, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_cluster_limit_set(&cl.limits, "podgroups", 1, &e), 0, "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_cluster_limit_set(&cl.limits, "pods", 3, &e), -EINVAL);
	cr_assert(strstr(e.msg, "\"pods\" is no kind of object with a limit"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_cluster_limit_set(&cl.limits, "queues", 0, &e), -EINVAL);
	cr_assert(strstr(e.msg, "at least 1"), "%s", e.msg);
	cr_assert_eq(cl.limits.queues, VS_LIMIT_QUEUES, "a refused limit changes nothing");

	add_node("n1", 4000, 1 << 30);
	add_node("n2", 4000, 1 << 30);
	vs_node_spec_init(&nspec, "n3");
	vs_err_clear(&e);
	cr_assert_eq(vs_node_add(&cl, &nspec, NULL, &e), -ENOSPC);
	cr_assert(strstr(e.msg, "the cluster holds 2 nodes, its limit (vschedd --limit nodes=N)"),
		  "%s", e.msg);
	vs_node_spec_init(&nspec, "n1");
	vs_err_clear(&e);
	cr_assert_eq(vs_node_add(&cl, &nspec, NULL, &e), -EEXIST, "a duplicate says so first");

	add_queue("q");
	add_job("pg", "q", 1);
	{
		struct vs_job_spec jspec;

		vs_job_spec_init(&jspec, "ns", "pg2");
		jspec.queue = "q";
		vs_err_clear(&e);
		cr_assert_eq(vs_job_add(&cl, &jspec, NULL, &e), -ENOSPC);
		cr_assert(strstr(e.msg, "1 podgroups"), "%s", e.msg);
	}
	task_ok("t1", "pg", VS_TASK_RUNNING, "n1", 100, 1 << 20);
	task_ok("t2", "pg", VS_TASK_PENDING, NULL, 100, 1 << 20);
	task_ok("t3", "pg", VS_TASK_PENDING, NULL, 100, 1 << 20);
	vs_err_clear(&e);
	cr_assert_eq(add_task("t4", "pg", VS_TASK_PENDING, NULL, 100, 1 << 20, &t, &e), -ENOSPC);
	cr_assert(strstr(e.msg, "the cluster holds 3 pods"), "%s", e.msg);
	cr_assert_eq(cl.nr_tasks, 3);
	check_all();

	/* Deleting makes room again. */
	vs_task_del(&cl, vs_task_find(&cl, "ns", "t3"));
	task_ok("t4", "pg", VS_TASK_PENDING, NULL, 100, 1 << 20);

	/* A job whose replicas alone pass the limit of pods is refused whole, at once. */
	vs_vjob_spec_init(&vspec, "ns", "huge");
	vspec.tasks = &big;
	vspec.nr_tasks = 1;
	vs_err_clear(&e);
	cr_assert_eq(vs_vjob_add(&cl, &vspec, NULL, &e), -ENOSPC);
	cr_assert(strstr(e.msg, "3000000000 replicas: more pods than the cluster may hold (3,"),
		  "%s", e.msg);
	cr_assert_eq(cl.nr_vjobs, 0);
	check_all();
}

Test(cluster, a_saturated_total_allocatable_comes_apart_again)
{
	const s64 huge = INT64_MAX - 1;
	struct vs_node_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_node *a;

	a = add_node("a", huge, 1 << 30);
	add_node("b", huge, 1 << 30);
	cr_assert_eq(vs_res_get(&cl.total_allocatable, VS_RES_CPU), VS_RES_INF, "saturated");
	check_all();
	/* Changing a node, then deleting it, leaves the other's amounts exactly. */
	vs_node_spec_init(&spec, "a");
	spec.allocatable = res(2000, 1 << 30);
	cr_assert_eq(vs_node_update(&cl, a, &spec, &e), 0, "%s", e.msg);
	check_all();
	cr_assert_eq(vs_res_get(&cl.total_allocatable, VS_RES_CPU), VS_RES_INF);
	cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "b"), &e), 0, "%s", e.msg);
	check_all();
	cr_assert_eq(vs_res_get(&cl.total_allocatable, VS_RES_CPU), 2000);
}

/* ---- a long random walk over every operation, checking all invariants ---- */

static u64 rng_state;

static u32 rnd(u32 n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (u32)(rng_state % n);
}

#define NR_NODES 12
#define NR_JOBS 10
#define MAX_TASKS 400

static void random_walk(u64 seed, int steps)
{
	struct vs_task *tasks[MAX_TASKS];
	struct vs_node *nodes[NR_NODES];
	int nr = 0, made = 0;
	char name[32];

	rng_state = seed;
	for (int i = 0; i < NR_NODES; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		nodes[i] = add_node(name, 4000 + 1000 * (i % 4), (4 + i % 3) * GI);
	}
	add_queue("q0");
	for (int i = 0; i < NR_JOBS; i++) {
		snprintf(name, sizeof(name), "j%d", i);
		/* q1 does not exist until later: those jobs start as orphans */
		add_job(name, i % 3 ? "q0" : "q1", 1 + i % 3);
	}

	for (int step = 0; step < steps; step++) {
		u32 op = rnd(100);
		struct vs_err e = { { 0 } };

		if (op < 30 && nr < MAX_TASKS) {
			enum vs_task_status st = (enum vs_task_status)rnd(VS_TASK_NR_STATUS);
			const char *node = NULL;
			char job[16];
			int ret;

			if (st != VS_TASK_PENDING && st != VS_TASK_UNKNOWN &&
			    (st != VS_TASK_RELEASING || rnd(2)))
				node = nodes[rnd(NR_NODES)]->name;
			snprintf(name, sizeof(name), "t%d", made++);
			snprintf(job, sizeof(job), "j%u", rnd(NR_JOBS));
			ret = add_task(name, job, st, node, 100 * (1 + rnd(20)),
				       (s64)(1 + rnd(8)) * GI / 4, &tasks[nr], &e);
			if (ret == 0)
				nr++;
			else
				cr_assert(ret == -ENOSPC && st == VS_TASK_BINDING,
					  "unexpected refusal %d: %s", ret, e.msg);
		} else if (op < 60 && nr) {
			struct vs_task *t = tasks[rnd(nr)];
			enum vs_task_status old = t->status;
			struct vs_node *old_node = t->node;
			enum vs_task_status st = (enum vs_task_status)rnd(VS_TASK_NR_STATUS);

			if (vs_task_set_status(&cl, t, st, &e)) {
				cr_assert_eq(t->status, old);
				cr_assert_eq(t->node, old_node);
			} else {
				cr_assert_eq(t->status, st);
			}
		} else if (op < 75 && nr) {
			struct vs_task *t = tasks[rnd(nr)];
			enum vs_task_status st = (enum vs_task_status)rnd(VS_TASK_NR_STATUS);

			if (!t->node)
				(void)vs_task_place(&cl, t, nodes[rnd(NR_NODES)], st, &e);
			else
				(void)vs_task_unplace(&cl, t, st, &e);
		} else if (op < 88 && nr) {
			u32 i = rnd(nr);

			vs_task_del(&cl, tasks[i]);
			tasks[i] = tasks[--nr];
		} else if (op < 95) {
			struct vs_node *n = nodes[rnd(NR_NODES)];
			struct vs_node_spec spec;

			vs_node_spec_init(&spec, n->name);
			spec.allocatable = res(1000 * (1 + rnd(16)), (s64)(1 + rnd(16)) * GI);
			cr_assert_eq(vs_node_update(&cl, n, &spec, &e), 0, "%s", e.msg);
		} else if (op < 97 && !vs_queue_find(&cl, "q1")) {
			add_queue("q1");
		} else {
			struct vs_job *j;

			snprintf(name, sizeof(name), "j%u", rnd(NR_JOBS));
			j = vs_job_find(&cl, "ns", name);
			vs_job_set_phase(&cl, j, (enum vs_pg_phase)rnd(VS_PG_NR_PHASES));
		}
		check_all();
	}
	/* tear down through the del paths as well */
	while (nr)
		vs_task_del(&cl, tasks[--nr]);
	for (int i = 0; i < NR_NODES; i++) {
		cr_assert_eq(vs_res_get(&nodes[i]->idle, VS_RES_CPU),
			     vs_res_get(&nodes[i]->allocatable, VS_RES_CPU));
		cr_assert_eq(vs_node_del(&cl, nodes[i], NULL), 0);
	}
	check_all();
}

Test(cluster, random_operations_keep_every_invariant_seed_1)
{
	random_walk(0x9e3779b97f4a7c15ULL, 3000);
}

Test(cluster, random_operations_keep_every_invariant_seed_2)
{
	random_walk(0xdeadbeefcafef00dULL, 3000);
}

Test(cluster, destroy_frees_a_populated_cluster)
{
	/* Everything is released without the del paths (checked by ASan/valgrind). */
	add_node("n1", 1000, GI);
	add_queue("default");
	add_job("j", NULL, 1);
	task_ok("t", "j", VS_TASK_RUNNING, "n1", 100, 1);
	add_job("orphan", "missing", 1);
	vs_cluster_destroy(&cl);
	cr_assert_eq(vs_cluster_init(&cl), 0);
	cr_assert_eq(cl.nr_nodes, 0);
}

Test(cluster, request_is_the_larger_of_containers_and_init_plus_one_pod)
{
	struct vs_node *n = add_node("n1", 8000, 8 * GI);
	struct vs_task_spec spec;
	struct vs_task *plain, *init;

	add_queue("default");
	add_job("j", NULL, 1);
	vs_task_spec_init(&spec, "ns", "plain", "j");
	spec.req = res(1000, GI);
	spec.status = VS_TASK_RUNNING;
	spec.node = "n1";
	cr_assert_eq(vs_task_add(&cl, &spec, &plain, NULL), 0);
	/* Volcano's Resreq counts the pod itself, so the node's idle pods drop */
	cr_assert_eq(vs_res_get(plain->req, VS_RES_PODS), 1);
	cr_assert_eq(vs_res_get(plain->req, VS_RES_CPU), 1000);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_PODS), 109);
	cr_assert_eq(plain->priority, 1, "Volcano's default task priority");

	vs_task_spec_init(&spec, "ns", "init", "j");
	spec.req = res(1000, GI);
	spec.init_req = res(3000, GI / 2);	/* a heavier init container, less memory */
	spec.has_init_req = true;
	cr_assert_eq(vs_task_add(&cl, &spec, &init, NULL), 0);
	cr_assert_eq(vs_res_get(init->req, VS_RES_CPU), 3000);
	cr_assert_eq(vs_res_get(init->req, VS_RES_MEMORY), GI);
	cr_assert_not(init->best_effort);
	check_all();
}

Test(cluster, per_role_gang_checks_follow_volcano)
{
	const struct vs_role_min_spec roles[] = { { "ps", 1 }, { "worker", 2 } };
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_task *w0, *w1, *ps;
	struct vs_job *j;
	struct vs_node *n = add_node("n1", 64000, 64 * GI);

	add_queue("default");
	vs_job_spec_init(&js, "ns", "tf");
	js.min_member = 3;
	js.min_task_member = roles;
	js.nr_min_task_member = 2;
	cr_assert_eq(vs_job_add(&cl, &js, &j, NULL), 0);

	vs_task_spec_init(&ts, "ns", "ps-0", "tf");
	ts.role = "ps";
	ts.req = res(1000, GI);
	cr_assert_eq(vs_task_add(&cl, &ts, &ps, NULL), 0);
	vs_task_spec_init(&ts, "ns", "worker-0", "tf");
	ts.role = "worker";
	ts.req = res(1000, GI);
	cr_assert_eq(vs_task_add(&cl, &ts, &w0, NULL), 0);

	/* one worker short of its minimum: not valid */
	cr_assert_not(vs_job_check_task_valid(j));
	cr_assert_eq(vs_job_valid_task_num(j), 2);
	ts.name = "worker-1";
	cr_assert_eq(vs_task_add(&cl, &ts, &w1, NULL), 0);
	cr_assert(vs_job_check_task_valid(j));

	/* ready counts placed tasks per role; pipelined ones count for pipelined only */
	cr_assert_not(vs_job_check_task_ready(j));
	cr_assert_eq(vs_task_place(&cl, ps, n, VS_TASK_ALLOCATED, NULL), 0);
	cr_assert_eq(vs_task_place(&cl, w0, n, VS_TASK_ALLOCATED, NULL), 0);
	cr_assert_eq(vs_task_place(&cl, w1, n, VS_TASK_PIPELINED, NULL), 0);
	cr_assert_not(vs_job_check_task_ready(j));
	cr_assert(vs_job_check_task_pipelined(j));
	cr_assert_eq(vs_task_set_status(&cl, w1, VS_TASK_ALLOCATED, NULL), 0);
	cr_assert(vs_job_check_task_ready(j));

	/* minMember below the sum of role minimums: the role checks pass */
	js.min_member = 2;
	cr_assert_eq(vs_job_update(&cl, j, &js, NULL), 0);
	cr_assert_eq(vs_task_unplace(&cl, w1, VS_TASK_PENDING, NULL), 0);
	cr_assert(vs_job_check_task_ready(j));
	check_all();
}

Test(cluster, node_requested_counts_every_task_with_kube_scheduler_defaults)
{
	struct vs_node *n = add_node("n1", 8000, 16 * GI);
	struct vs_task *p;
	s64 cpu, mem, nzcpu, nzmem;

	add_queue("default");
	add_job("j", NULL, 1);
	task_ok("run", "j", VS_TASK_RUNNING, "n1", 1000, GI);
	task_ok("be", "j", VS_TASK_RUNNING, "n1", 0, 0);		/* best effort */
	task_ok("rel", "j", VS_TASK_RELEASING, "n1", 500, 0);
	p = task_ok("pipe", "j", VS_TASK_PIPELINED, "n1", 2000, GI);
	vs_node_requested(n, &cpu, &mem, &nzcpu, &nzmem);
	cr_assert_eq(cpu, 3500);
	cr_assert_eq(mem, 2 * GI);
	cr_assert_eq(nzcpu, 3500 + VS_NONZERO_CPU);
	cr_assert_eq(nzmem, 2 * GI + 2 * VS_NONZERO_MEMORY);
	vs_task_del(&cl, p);
	vs_node_requested(n, &cpu, &mem, &nzcpu, &nzmem);
	cr_assert_eq(cpu, 1500);
	check_all();
}

Test(cluster, pod_indexes_read_as_volcano_reads_them)
{
	cr_assert_eq(vs_task_name_index("job-worker-10"), 10);
	cr_assert_eq(vs_task_name_index("a-b-c-007"), 7);
	cr_assert_eq(vs_task_name_index("a-b--3"), 3, "Go splits \"--3\" into \"\" and \"3\"");
	cr_assert_eq(vs_task_name_index("a-b-+4"), 4);
	cr_assert_eq(vs_task_name_index("worker-3"), VS_NO_NAME_INDEX, "two parts are not enough");
	cr_assert_eq(vs_task_name_index("a-b-3x"), VS_NO_NAME_INDEX);
	cr_assert_eq(vs_task_name_index("a-b-"), VS_NO_NAME_INDEX);
	cr_assert_eq(vs_task_name_index("a-b-99999999999999999999"), VS_NO_NAME_INDEX,
		     "out of Atoi's range");
	cr_assert_eq(vs_task_name_index("a-b-9223372036854775807"), INT64_MAX);
}

/* The counts allocate's fast path asks: nodes with a PreferNoSchedule taint follow their taints. */
Test(cluster, nodes_with_a_prefer_no_schedule_taint_are_counted)
{
	struct vs_taint_spec soft = { "spot", "true", VS_TAINT_PREFER_NO_SCHEDULE };
	struct vs_taint_spec hard = { "gpu", "true", VS_TAINT_NO_SCHEDULE };
	struct vs_err e = { { 0 } };
	struct vs_node_spec spec;
	struct vs_node *n1, *n2;

	n1 = add_node("n1", 1000, GI);
	vs_node_spec_init(&spec, "n2");
	spec.allocatable = res(1000, GI);
	spec.taints = &soft;
	spec.nr_taints = 1;
	cr_assert_eq(vs_node_add(&cl, &spec, &n2, &e), 0, "%s", e.msg);
	cr_assert_eq(cl.nr_prefer_no_schedule_nodes, 1);
	/* n1 gets one, n2 trades it for a hard one */
	vs_node_spec_init(&spec, "n1");
	spec.allocatable = res(1000, GI);
	spec.taints = &soft;
	spec.nr_taints = 1;
	cr_assert_eq(vs_node_update(&cl, n1, &spec, &e), 0, "%s", e.msg);
	cr_assert_eq(cl.nr_prefer_no_schedule_nodes, 2);
	vs_node_spec_init(&spec, "n2");
	spec.allocatable = res(1000, GI);
	spec.taints = &hard;
	spec.nr_taints = 1;
	cr_assert_eq(vs_node_update(&cl, n2, &spec, &e), 0, "%s", e.msg);
	cr_assert_eq(cl.nr_prefer_no_schedule_nodes, 1);
	check_all();
	cr_assert_eq(vs_node_del(&cl, n1, &e), 0, "%s", e.msg);
	cr_assert_eq(cl.nr_prefer_no_schedule_nodes, 0);
	check_all();
	/* a count gone wrong is an invariant broken */
	cl.nr_prefer_no_schedule_nodes = 3;
	cr_assert_eq(vs_cluster_check(&cl, &e), -EIO);
	cl.nr_prefer_no_schedule_nodes = 0;
}

Test(cluster, a_node_counts_the_tasks_holding_host_ports)
{
	const struct vs_host_port_spec port = { .port = 8080 };
	struct vs_node *n = add_node("n1", 8000, 16 * GI);
	struct vs_task_spec spec;
	struct vs_task *t, *plain;
	struct vs_err e = { { 0 } };

	add_queue("default");
	add_job("j", NULL, 1);
	vs_task_spec_init(&spec, "ns", "web", "j");
	spec.status = VS_TASK_RUNNING;
	spec.node = "n1";
	spec.ports = &port;
	spec.nr_ports = 1;
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);
	cr_assert_not_null(vs_task_ports(t));
	plain = task_ok("plain", "j", VS_TASK_RUNNING, "n1", 1000, GI);
	cr_assert_null(plain->ext, "a pod asking for nothing rare carries nothing");
	cr_assert_eq(n->nr_port_tasks, 1);
	check_all();
	cr_assert_eq(vs_task_unplace(&cl, t, VS_TASK_PENDING, &e), 0, "%s", e.msg);
	cr_assert_eq(n->nr_port_tasks, 0);
	check_all();
	cr_assert_eq(vs_task_place(&cl, t, n, VS_TASK_PIPELINED, &e), 0, "%s", e.msg);
	cr_assert_eq(n->nr_port_tasks, 1, "a pipelined task holds its ports too");
	check_all();
	/* a count gone wrong is an invariant broken */
	n->nr_port_tasks = 2;
	cr_assert_eq(vs_cluster_check(&cl, &e), -EIO);
	cr_assert_str_eq(e.msg, "node n1 counts 2 tasks with host ports, has 1");
	n->nr_port_tasks = 1;
	vs_task_del(&cl, t);
	cr_assert_eq(n->nr_port_tasks, 0);
	check_all();
}

Test(cluster, a_job_counts_its_gated_tasks_and_leaves_them_out_of_what_it_reserves)
{
	struct vs_task_spec spec;
	struct vs_job_spec js;
	struct vs_job_contrib c;
	struct vs_job *j;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	add_node("n1", 8000, 16 * GI);
	add_queue("default");
	vs_job_spec_init(&js, "ns", "j");
	js.min_member = 1;
	js.phase = VS_PG_INQUEUE;
	js.has_min_resources = true;
	js.min_resources = res(3000, 4 * GI);
	vs_res_set(&js.min_resources, VS_RES_PODS, 3);
	cr_assert_eq(vs_job_add(&cl, &js, &j, &e), 0, "%s", e.msg);
	vs_task_spec_init(&spec, "ns", "g", "j");
	spec.req = res(2000, 1 * GI);
	spec.gated = true;
	/* the API server's rule: no node while gated */
	spec.status = VS_TASK_RUNNING;
	spec.node = "n1";
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "pod ns/g: a pod with scheduling gates cannot be on node n1");
	spec.status = VS_TASK_PENDING;
	spec.node = NULL;
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);
	task_ok("plain", "j", VS_TASK_PENDING, NULL, 2000, 8 * GI);
	cr_assert_eq(j->nr_gated, 1);
	check_all();
	/* minResources less the gated task's request, floored at 0, pods with it */
	vs_job_contrib(j, &c);
	cr_assert(c.has_inqueue);
	cr_assert_eq(vs_res_get(&c.inqueue, VS_RES_CPU), 1000);
	cr_assert_eq(vs_res_get(&c.inqueue, VS_RES_MEMORY), 3 * GI);
	cr_assert_eq(vs_res_get(&c.inqueue, VS_RES_PODS), 2);
	cr_assert_eq(vs_res_get(&c.oc_inqueue, VS_RES_CPU), 1000);
	/* a count gone wrong is an invariant broken */
	j->nr_gated = 0;
	cr_assert_eq(vs_cluster_check(&cl, &e), -EIO);
	j->nr_gated = 1;
	cr_assert_eq(vs_task_ungate(&cl, t, &e), 0, "%s", e.msg);
	cr_assert_not(t->gated);
	cr_assert_eq(j->nr_gated, 0);
	cr_assert_eq(vs_task_ungate(&cl, t, &e), 0, "said again: nothing changes");
	vs_job_contrib(j, &c);
	cr_assert_eq(vs_res_get(&c.inqueue, VS_RES_CPU), 3000);
	check_all();
}

Test(cluster, check_finds_leaked_pool_objects_and_wrong_counts_of_other_kinds)
{
	struct vs_prioclass_spec pcs = { .name = "high", .value = 1000 };
	struct vs_err e = { { 0 } };
	void *leak;

	add_node("n1", 4000, 8 * GI);
	cr_assert_eq(vs_prioclass_add(&cl, &pcs, NULL, &e), 0, "%s", e.msg);
	check_all();
	/* an object taken from a pool and never made part of the cluster */
	leak = vs_pool_alloc(&cl.node_pool);
	cr_assert_not_null(leak);
	cr_assert_eq(vs_cluster_check(&cl, &e), -EIO);
	cr_assert_str_eq(e.msg, "pool vs_node has 2 objects in use for 1");
	vs_pool_free(&cl.node_pool, leak);
	check_all();
	/* a count of priority classes gone wrong */
	e.msg[0] = '\0';
	cl.nr_prioclasses++;
	cr_assert_eq(vs_cluster_check(&cl, &e), -EIO);
	cr_assert_str_eq(e.msg, "0 jobs and 1 priorityclasses listed, 0 and 2 counted, 0 and 1 "
			 "indexed");
	cl.nr_prioclasses--;
	check_all();
}


/* ---- totals at the edges of the quantity range (core/res.h) ---- */

#define QMAX	(VS_RES_INF - 1)	/* the largest amount a quantity parses to */
#define EI	(1LL << 60)

/*
 * A job's and a queue's totals past INT64_MAX read as unlimited; once
 * tasks leave, they are what the tasks left make them, exactly.
 */
Test(cluster, job_and_queue_totals_come_back_from_past_int64_max)
{
	struct vs_task *t[8];
	struct vs_job *j;
	struct vs_queue *q = add_queue("q1");
	struct vs_err e = { { 0 } };
	char name[16];

	add_node("n1", 8000, 7 * EI);
	j = add_job("j", "q1", 1);
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		t[i] = task_ok(name, "j", i < 2 ? VS_TASK_RUNNING : VS_TASK_PENDING,
			       i < 2 ? "n1" : NULL, 1, i == 7 ? 1000003 : QMAX);
	}
	cr_assert_eq(vs_res_get(&j->total_request, VS_RES_MEMORY), VS_RES_INF);
	cr_assert_eq(vs_res_get(&q->allocated, VS_RES_MEMORY), VS_RES_INF);
	check_all();

	/* out of order, through a status change and deletions */
	cr_assert_eq(vs_task_set_status(&cl, t[0], VS_TASK_SUCCEEDED, &e), 0, "%s", e.msg);
	check_all();
	cr_assert_eq(vs_res_get(&j->allocated, VS_RES_MEMORY), QMAX);
	cr_assert_eq(vs_res_get(&q->allocated, VS_RES_MEMORY), QMAX);
	for (int i = 6; i >= 0; i--) {
		if (i == 2)
			continue;
		vs_task_del(&cl, t[i]);
		check_all();
	}
	/* left: t2 (QMAX) and t7 (1000003), still past INT64_MAX together */
	cr_assert_eq(vs_res_get(&j->total_request, VS_RES_MEMORY), VS_RES_INF);
	vs_task_del(&cl, t[2]);
	check_all();
	cr_assert_eq(vs_res_get(&j->total_request, VS_RES_MEMORY), 1000003);
	cr_assert_eq(vs_res_get(&q->request, VS_RES_MEMORY), 1000003);
	cr_assert_eq(vs_res_get(&q->allocated, VS_RES_MEMORY), 0);
}

/* A job leaving a queue whose totals saturated leaves the others' exactly. */
Test(cluster, a_queue_past_int64_max_loses_a_job_exactly)
{
	struct vs_queue *q1 = add_queue("q1"), *q2 = add_queue("q2");
	struct vs_err e = { { 0 } };
	struct vs_job_spec spec;
	struct vs_job *big;

	add_job("small", "q1", 1);
	add_job("big0", "q1", 1);
	big = add_job("big1", "q1", 1);
	task_ok("s", "small", VS_TASK_PENDING, NULL, 1, 1000003);
	task_ok("b0", "big0", VS_TASK_PENDING, NULL, 1, 5 * EI);
	task_ok("b1", "big1", VS_TASK_PENDING, NULL, 1, 5 * EI);
	cr_assert_eq(vs_res_get(&q1->request, VS_RES_MEMORY), VS_RES_INF);

	vs_job_spec_init(&spec, "ns", "big1");
	spec.queue = "q2";
	cr_assert_eq(vs_job_update(&cl, big, &spec, &e), 0, "%s", e.msg);
	check_all();
	cr_assert_eq(vs_res_get(&q1->request, VS_RES_MEMORY), 5 * EI + 1000003);
	cr_assert_eq(vs_res_get(&q2->request, VS_RES_MEMORY), 5 * EI);
}

/*
 * A node whose used memory passes INT64_MAX: idle is allocatable less what
 * used reads, and every task that leaves, or moves between used, releasing
 * and pipelined, leaves the totals its tasks make.
 */
Test(cluster, node_totals_come_back_from_past_int64_max)
{
	struct vs_node *n = add_node("n1", 8000, 7 * EI);
	struct vs_err e = { { 0 } };
	struct vs_task *a, *b, *c;

	add_queue("default");
	add_job("j", NULL, 1);
	a = task_ok("a", "j", VS_TASK_RUNNING, "n1", 1000, 5 * EI);
	b = task_ok("b", "j", VS_TASK_RUNNING, "n1", 1000, 5 * EI);
	c = task_ok("c", "j", VS_TASK_PIPELINED, "n1", 1000, QMAX);
	check_all();
	cr_assert_eq(vs_res_get(&n->used, VS_RES_MEMORY), VS_RES_INF);
	task_ok("d", "j", VS_TASK_PIPELINED, "n1", 1000, QMAX);
	cr_assert_eq(vs_res_get(&n->pipelined, VS_RES_MEMORY), VS_RES_INF);
	check_all();

	cr_assert_eq(vs_task_set_status(&cl, a, VS_TASK_RELEASING, &e), 0, "%s", e.msg);
	check_all();
	cr_assert_eq(vs_task_set_status(&cl, a, VS_TASK_SUCCEEDED, &e), 0, "%s", e.msg);
	check_all();
	cr_assert_eq(vs_res_get(&n->used, VS_RES_MEMORY), 5 * EI);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_MEMORY), 2 * EI);
	vs_task_del(&cl, c);
	check_all();
	cr_assert_eq(vs_res_get(&n->pipelined, VS_RES_MEMORY), QMAX);
	vs_task_del(&cl, b);
	check_all();
	cr_assert_eq(vs_res_get(&n->used, VS_RES_MEMORY), 0);
	cr_assert_eq(vs_res_get(&n->idle, VS_RES_MEMORY), 7 * EI);
	cr_assert_eq(vs_res_get(&n->used, VS_RES_CPU), 0);
}

/* Each cluster names its own scalars: what one registers the other does not know. */
Test(cluster, each_cluster_keeps_its_own_resource_names)
{
	struct vs_cluster other;
	int fpga, gpu;

	cr_assert_eq(vs_cluster_init(&other), 0);
	fpga = vs_cluster_dim_get(&cl, "example.com/fpga", 16, NULL);
	cr_assert_eq(fpga, VS_RES_PODS + 1);
	cr_assert_eq(vs_res_dim_lookup(&other.dims, "example.com/fpga", 16), -ENOENT);
	cr_assert_null(vs_res_dim_name(&other.dims, (unsigned int)fpga));
	cr_assert_eq(vs_res_ndims(&other.dims), VS_RES_PODS + 1);

	/* the other's first scalar takes the same index, under its own name */
	gpu = vs_cluster_dim_get(&other, "nvidia.com/gpu", 14, NULL);
	cr_assert_eq(gpu, fpga);
	cr_assert_str_eq(vs_res_dim_name(&other.dims, (unsigned int)gpu), "nvidia.com/gpu");
	cr_assert_str_eq(vs_res_dim_name(&cl.dims, (unsigned int)fpga), "example.com/fpga");
	cr_assert_eq(vs_res_dim_lookup(&cl.dims, "nvidia.com/gpu", 14), -ENOENT);

	/* and both still share the fixed ones */
	cr_assert_eq(vs_res_dim_lookup(&other.dims, "pods", 4), VS_RES_PODS);
	cr_assert_eq(vs_res_dim_lookup(&cl.dims, "cpu", 3), VS_RES_CPU);
	vs_cluster_destroy(&other);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for Statements (sched/statement.h) and for what a session keeps:
 * each operation's effect on the live state and on the event handlers,
 * commit forward (binds and evicts to the sink), discard backward to the
 * exact state before, save and recover, merge, the discard of everything
 * left open when the session closes, and PodGroup phases at close.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "testreg.h"
#include "sched/session.h"
#include "sched/statement.h"

#define GI (1024LL * 1024 * 1024)

static struct vs_cluster cl;
static struct vs_sched sched;
static struct vs_session *ssn;
static struct vs_node *n1, *n2;
static struct vs_job *job;

/* The event handlers' running total, as a share-keeping plugin would hold. */
static s64 tracked_cpu;
static int nr_allocate_events, nr_deallocate_events;

static void ev_allocate(struct vs_session *s, struct vs_plugin *p, struct vs_task *t)
{
	tracked_cpu += vs_res_get(t->req, VS_RES_CPU);
	nr_allocate_events++;
}

static void ev_deallocate(struct vs_session *s, struct vs_plugin *p, struct vs_task *t,
			  struct vs_node *n)
{
	tracked_cpu -= vs_res_get(t->req, VS_RES_CPU);
	nr_deallocate_events++;
}

static const struct vs_plugin_ops tracker_ops = {
	.name = "tracker",
	.on_allocate = ev_allocate,
	.on_deallocate = ev_deallocate,
};

static int noop_execute(struct vs_session *s, const struct vs_args *args)
{
	return 0;
}

static const struct vs_action_ops noop_action = { .name = "noop", .execute = noop_execute };

/* What the sink received. */
static struct vs_task *bound[8];
static struct vs_node *bound_to[8];
static int nr_bound;
static struct vs_task *evicted[8];
static int nr_evicted;

static void sink_bind(void *ctx, struct vs_task *t, struct vs_node *n)
{
	bound[nr_bound] = t;
	bound_to[nr_bound++] = n;
}

static void sink_evict(void *ctx, struct vs_task *t, const char *reason)
{
	cr_assert_str_eq(reason, "preempted");
	evicted[nr_evicted++] = t;
}

static struct vs_res res(s64 mcpu, s64 mem)
{
	struct vs_res r;

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, mcpu);
	vs_res_set(&r, VS_RES_MEMORY, mem);
	return r;
}

static struct vs_node *add_node(const char *name)
{
	struct vs_node_spec spec;
	struct vs_node *n;

	vs_node_spec_init(&spec, name);
	spec.allocatable = res(4000, 8 * GI);
	cr_assert_eq(vs_node_add(&cl, &spec, &n, NULL), 0);
	return n;
}

static struct vs_task *add_task(const char *name, enum vs_task_status st, const char *node)
{
	struct vs_task_spec spec;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, "ns", name, "j");
	spec.req = res(1000, GI);
	spec.status = st;
	spec.node = node;
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);
	return t;
}

static void setup(void)
{
	static const char text[] = "actions: noop\ntiers:\n- plugins:\n  - name: tracker\n";
	struct vs_conf_names names;
	struct vs_queue_spec qs;
	struct vs_job_spec js;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_add_plugin(vs_test_registry(), &tracker_ops);
	vs_registry_add_action(vs_test_registry(), &noop_action);
	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_queue_spec_init(&qs, "default");
	cr_assert_eq(vs_queue_add(&cl, &qs, NULL, NULL), 0);
	vs_job_spec_init(&js, "ns", "j");
	js.min_member = 2;
	cr_assert_eq(vs_job_add(&cl, &js, &job, NULL), 0);
	n1 = add_node("n1");
	n2 = add_node("n2");

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t", &names, VS_CONF_FLAGS_DEFAULT_ON,
				   &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	sched.sink = (struct vs_decision_sink){ .bind = sink_bind, .evict = sink_evict };
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	tracked_cpu = 0;
	nr_allocate_events = nr_deallocate_events = 0;
	nr_bound = nr_evicted = 0;
}

static void teardown(void)
{
	struct vs_err e = { { 0 } };

	cr_expect_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(statement, .init = setup, .fini = teardown);

Test(statement, allocate_takes_idle_and_tells_the_handlers)
{
	struct vs_statement *stmt = vs_stmt_new(ssn);
	struct vs_task *t = add_task("t", VS_TASK_PENDING, NULL);

	cr_assert_eq(vs_stmt_allocate(stmt, t, n1, NULL), 0);
	cr_assert_eq(t->status, VS_TASK_ALLOCATED);
	cr_assert_eq(t->node, n1);
	cr_assert_eq(vs_res_get(&n1->idle, VS_RES_CPU), 3000);
	cr_assert_eq(tracked_cpu, 1000);
	cr_assert_eq(stmt->nr, 1);
	vs_session_close(ssn);
}

Test(statement, discard_restores_the_state_exactly_in_reverse)
{
	struct vs_statement *stmt = vs_stmt_new(ssn);
	struct vs_task *a = add_task("a", VS_TASK_PENDING, NULL);
	struct vs_task *b = add_task("b", VS_TASK_PENDING, NULL);
	struct vs_task *r = add_task("r", VS_TASK_RUNNING, "n2");
	struct vs_node before1 = *n1, before2 = *n2;

	cr_assert_eq(vs_stmt_allocate(stmt, a, n1, NULL), 0);
	cr_assert_eq(vs_stmt_evict(stmt, r, "preempted", NULL), 0);
	cr_assert_eq(vs_stmt_pipeline(stmt, b, n2, false, NULL), 0);
	cr_assert_eq(r->status, VS_TASK_RELEASING);
	cr_assert_eq(vs_res_get(&n2->releasing, VS_RES_CPU), 1000);
	cr_assert_eq(vs_res_get(&n2->pipelined, VS_RES_CPU), 1000);

	vs_stmt_discard(stmt);
	cr_assert_eq(a->status, VS_TASK_PENDING);
	cr_assert_null(a->node);
	cr_assert_eq(b->status, VS_TASK_PENDING);
	cr_assert_eq(r->status, VS_TASK_RUNNING);
	cr_assert_eq(memcmp(before1.idle.v, n1->idle.v, sizeof(n1->idle.v)), 0);
	cr_assert_eq(memcmp(before2.idle.v, n2->idle.v, sizeof(n2->idle.v)), 0);
	cr_assert_eq(memcmp(before2.releasing.v, n2->releasing.v, sizeof(n2->releasing.v)), 0);
	cr_assert_eq(memcmp(before2.pipelined.v, n2->pipelined.v, sizeof(n2->pipelined.v)), 0);
	cr_assert_eq(tracked_cpu, 0, "handlers saw an unbalanced sequence");
	cr_assert_eq(nr_bound + nr_evicted, 0);
	cr_assert_eq(sched.stats.discarded_ops, 3);
	vs_session_close(ssn);
}

Test(statement, commit_binds_allocations_and_evicts_victims)
{
	struct vs_statement *stmt = vs_stmt_new(ssn);
	struct vs_task *a = add_task("a", VS_TASK_PENDING, NULL);
	struct vs_task *p = add_task("p", VS_TASK_PENDING, NULL);
	struct vs_task *r = add_task("r", VS_TASK_RUNNING, "n2");

	cr_assert_eq(vs_stmt_allocate(stmt, a, n1, NULL), 0);
	cr_assert_eq(vs_stmt_evict(stmt, r, "preempted", NULL), 0);
	cr_assert_eq(vs_stmt_pipeline(stmt, p, n2, false, NULL), 0);
	vs_stmt_commit(stmt);

	cr_assert_eq(a->status, VS_TASK_BINDING);
	cr_assert_eq(vs_res_get(&n1->idle, VS_RES_CPU), 3000, "a binding task stays counted");
	cr_assert_eq(nr_bound, 1);
	cr_assert_eq(bound[0], a);
	cr_assert_eq(bound_to[0], n1);
	cr_assert_eq(nr_evicted, 1);
	cr_assert_eq(evicted[0], r);
	cr_assert_eq(r->status, VS_TASK_RELEASING);
	cr_assert_eq(p->status, VS_TASK_PIPELINED);
	cr_assert_eq(sched.stats.binds, 1);

	/*
	 * Committed binds and evictions survive the session; a committed
	 * pipeline does not, as Volcano's cache never hears of it.
	 */
	vs_session_close(ssn);
	cr_assert_eq(a->status, VS_TASK_BINDING);
	cr_assert_eq(r->status, VS_TASK_RELEASING);
	cr_assert_eq(p->status, VS_TASK_PENDING);
	cr_assert_null(p->node);
	cr_assert_eq(vs_res_get(&n2->pipelined, VS_RES_CPU), 0);
}

Test(statement, what_nobody_commits_vanishes_when_the_session_closes)
{
	struct vs_statement *s1 = vs_stmt_new(ssn), *s2 = vs_stmt_new(ssn);
	struct vs_task *a = add_task("a", VS_TASK_PENDING, NULL);
	struct vs_task *b = add_task("b", VS_TASK_PENDING, NULL);

	cr_assert_eq(vs_stmt_allocate(s1, a, n1, NULL), 0);
	cr_assert_eq(vs_stmt_pipeline(s2, b, n1, false, NULL), 0);
	vs_session_close(ssn);
	cr_assert_eq(a->status, VS_TASK_PENDING);
	cr_assert_eq(b->status, VS_TASK_PENDING);
	cr_assert_eq(n1->nr_tasks, 0);
	cr_assert_eq(vs_res_get(&n1->idle, VS_RES_CPU), 4000);
	cr_assert_eq(nr_bound, 0);
}

Test(statement, refused_operations_change_nothing)
{
	struct vs_statement *stmt = vs_stmt_new(ssn);
	struct vs_task *r = add_task("r", VS_TASK_RUNNING, "n1");
	struct vs_task *pend = add_task("p", VS_TASK_PENDING, NULL);
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_stmt_allocate(stmt, r, n2, &e), -EINVAL);
	cr_assert(strstr(e.msg, "is Running, not Pending"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_stmt_evict(stmt, pend, "x", &e), -EINVAL);
	cr_assert(strstr(e.msg, "only a task holding a node"), "%s", e.msg);
	cr_assert_eq(stmt->nr, 0);
	cr_assert_eq(nr_allocate_events + nr_deallocate_events, 0);
	vs_session_close(ssn);
}

Test(statement, save_and_recover_replay_a_discarded_log)
{
	struct vs_statement *stmt = vs_stmt_new(ssn), *again;
	struct vs_task *a = add_task("a", VS_TASK_PENDING, NULL);
	struct vs_task *b = add_task("b", VS_TASK_PENDING, NULL);
	struct vs_stmt_log log;

	cr_assert_eq(vs_stmt_allocate(stmt, a, n1, NULL), 0);
	cr_assert_eq(vs_stmt_allocate(stmt, b, n2, NULL), 0);
	cr_assert_eq(vs_stmt_save(stmt, &log), 0);
	vs_stmt_discard(stmt);
	cr_assert_eq(a->status, VS_TASK_PENDING);

	again = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_recover(again, &log, NULL), 0);
	cr_assert_eq(a->node, n1);
	cr_assert_eq(b->node, n2);
	cr_assert_eq(again->nr, 2);
	vs_stmt_commit(again);
	cr_assert_eq(nr_bound, 2);
	vs_session_close(ssn);
}

Test(statement, merge_moves_operations_to_one_statement)
{
	struct vs_statement *dst = vs_stmt_new(ssn), *src = vs_stmt_new(ssn);
	struct vs_task *a = add_task("a", VS_TASK_PENDING, NULL);
	struct vs_task *b = add_task("b", VS_TASK_PENDING, NULL);

	cr_assert_eq(vs_stmt_allocate(dst, a, n1, NULL), 0);
	cr_assert_eq(vs_stmt_allocate(src, b, n1, NULL), 0);
	cr_assert_eq(vs_stmt_merge(dst, src), 0);
	cr_assert_eq(dst->nr, 2);
	cr_assert_eq(src->nr, 0);
	vs_stmt_discard(dst);
	cr_assert_eq(b->status, VS_TASK_PENDING);
	cr_assert_eq(n1->nr_tasks, 0);
	vs_session_close(ssn);
}

Test(statement, many_operations_grow_the_log)
{
	struct vs_statement *stmt = vs_stmt_new(ssn);
	struct vs_node_spec spec;
	struct vs_node *big;
	char name[16];

	vs_node_spec_init(&spec, "big");
	spec.allocatable = res(1000 * 1000, 1000 * GI);
	cr_assert_eq(vs_node_add(&cl, &spec, &big, NULL), 0);
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		cr_assert_eq(vs_stmt_allocate(stmt, add_task(name, VS_TASK_PENDING, NULL), big,
					      NULL), 0);
	}
	cr_assert_eq(stmt->nr, 100);
	cr_assert_eq(big->nr_tasks, 100);
	vs_session_close(ssn);
	cr_assert_eq(big->nr_tasks, 0);
}

Test(statement, session_close_sets_podgroup_phases)
{
	struct vs_err e = { { 0 } };

	/* minMember 2: one running task leaves it Pending... */
	add_task("r1", VS_TASK_RUNNING, "n1");
	vs_session_close(ssn);
	cr_assert_eq(job->phase, VS_PG_PENDING);

	/* ...an admitted job stays Inqueue while short... */
	vs_job_set_phase(&cl, job, VS_PG_INQUEUE);
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	vs_session_close(ssn);
	cr_assert_eq(job->phase, VS_PG_INQUEUE);

	/* ...two scheduled make it Running, all finished Completed */
	add_task("r2", VS_TASK_BOUND, "n2");
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	vs_session_close(ssn);
	cr_assert_eq(job->phase, VS_PG_RUNNING);
	cr_assert_eq(job->queue->nr_jobs_by_phase[VS_PG_RUNNING], 1);

	cr_assert_eq(vs_task_set_status(&cl, vs_task_find(&cl, "ns", "r1"), VS_TASK_SUCCEEDED, NULL), 0);
	cr_assert_eq(vs_task_set_status(&cl, vs_task_find(&cl, "ns", "r2"), VS_TASK_FAILED, NULL), 0);
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	vs_session_close(ssn);
	cr_assert_eq(job->phase, VS_PG_COMPLETED);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the enqueue, allocate and backfill actions with the gang and
 * priority plugins: admission, all-or-nothing placement, pipelining onto
 * releasing resources, priority order, best-effort backfill, and that every
 * cycle leaves the cluster's invariants intact and only committed work
 * behind.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "testreg.h"
#include "sched/fiterr.h"
#include "sched/session.h"

#define GI (1024LL * 1024 * 1024)

static struct vs_cluster cl;
static struct vs_sched sched;

static char binds[64][64];
static int nr_binds;

static void sink_bind(void *ctx, struct vs_task *t, struct vs_node *n)
{
	snprintf(binds[nr_binds++], sizeof(binds[0]), "%s/%s=%s", t->ns, t->name, n->name);
}

static struct vs_res res(s64 mcpu, s64 mem)
{
	struct vs_res r;

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, mcpu);
	vs_res_set(&r, VS_RES_MEMORY, mem);
	return r;
}

static void start(const char *conf_text)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(conf_text, strlen(conf_text), "test.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	sched.sink = (struct vs_decision_sink){ .bind = sink_bind };
}

static void node(const char *name, s64 mcpu)
{
	struct vs_node_spec spec;

	vs_node_spec_init(&spec, name);
	spec.allocatable = res(mcpu, 16 * GI);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
	cr_assert_eq(vs_node_add(&cl, &spec, NULL, NULL), 0);
}

static struct vs_job *job(const char *name, u32 min_member, enum vs_pg_phase phase,
			  const char *pclass)
{
	struct vs_job_spec spec;
	struct vs_job *j;

	vs_job_spec_init(&spec, "ns", name);
	spec.min_member = min_member;
	spec.phase = phase;
	spec.priority_class = pclass;
	cr_assert_eq(vs_job_add(&cl, &spec, &j, NULL), 0);
	return j;
}

static struct vs_task *task(const char *name, const char *jname, s64 mcpu,
			    enum vs_task_status st, const char *on)
{
	struct vs_task_spec spec;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, "ns", name, jname);
	spec.req = res(mcpu, mcpu ? GI : 0);
	spec.status = st;
	spec.node = on;
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);
	return t;
}

static bool bound(const char *what)
{
	for (int i = 0; i < nr_binds; i++)
		if (!strcmp(binds[i], what))
			return true;
	return false;
}

static void cycle(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
}

static void setup(void)
{
	struct vs_queue_spec qs;

	nr_binds = 0;
	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_queue_spec_init(&qs, "default");
	cr_assert_eq(vs_queue_add(&cl, &qs, NULL, NULL), 0);
}

static void teardown(void)
{
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(actions, .init = setup, .fini = teardown);

static const char gang_conf[] =
	"actions: \"enqueue, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: priority\n"
	"  - name: gang\n";

Test(actions, a_gang_that_cannot_be_placed_whole_takes_nothing)
{
	start(gang_conf);
	node("n1", 2000);
	node("n2", 2000);
	job("big", 3, VS_PG_INQUEUE, NULL);
	job("small", 1, VS_PG_INQUEUE, NULL);
	task("big-0", "big", 2000, VS_TASK_PENDING, NULL);
	task("big-1", "big", 2000, VS_TASK_PENDING, NULL);
	task("big-2", "big", 2000, VS_TASK_PENDING, NULL);
	task("small-0", "small", 1000, VS_TASK_PENDING, NULL);
	cycle();
	cr_assert_eq(nr_binds, 1, "binds: %d", nr_binds);
	cr_assert(bound("ns/small-0=n1"), "%s", binds[0]);
	cr_assert_eq(vs_task_find(&cl, "ns", "big-0")->status, VS_TASK_PENDING);
	cr_assert_eq(vs_node_find(&cl, "n2")->nr_tasks, 0);
}

Test(actions, enqueue_admits_pending_jobs_before_allocate_places_them)
{
	struct vs_job *j;

	start(gang_conf);
	node("n1", 4000);
	j = job("j", 2, VS_PG_PENDING, NULL);
	task("j-0", "j", 1000, VS_TASK_PENDING, NULL);
	task("j-1", "j", 1000, VS_TASK_PENDING, NULL);
	cycle();
	cr_assert_eq(nr_binds, 2);
	/* binds went out; the tasks are Binding, not yet scheduled, so it stays Inqueue */
	cr_assert_eq(j->phase, VS_PG_INQUEUE);
	cr_assert_eq(vs_task_find(&cl, "ns", "j-0")->status, VS_TASK_BINDING);
}

Test(actions, without_enqueue_allocate_admits_pending_jobs_itself)
{
	start("actions: allocate\ntiers:\n- plugins:\n  - name: gang\n");
	node("n1", 4000);
	job("j", 1, VS_PG_PENDING, NULL);
	task("j-0", "j", 1000, VS_TASK_PENDING, NULL);
	cycle();
	cr_assert(bound("ns/j-0=n1"));
}

Test(actions, allocate_takes_the_exhaustive_argument)
{
	start("actions: allocate\ntiers:\n- plugins:\n  - name: gang\n"
	      "configurations:\n- name: allocate\n"
	      "  arguments: {exhaustive: true, enablePredicateErrorCache: false}\n");
	node("n1", 4000);
	job("j", 1, VS_PG_INQUEUE, NULL);
	task("j-0", "j", 1000, VS_TASK_PENDING, NULL);
	cycle();
	cr_assert(bound("ns/j-0=n1"));
}

Test(actions, allocate_refuses_a_mistyped_argument_at_load)
{
	static const char text[] = "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n"
				   "configurations:\n- name: allocate\n"
				   "  arguments: {exhaustive: always}\n";
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, NULL), 0);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "action allocate: t.conf:7: argument \"exhaustive\": "
			 "expected true or false, got \"always\"");
}

Test(actions, higher_priority_jobs_are_placed_first)
{
	struct vs_prioclass_spec hi = { .name = "high", .value = 1000 };

	cr_assert_eq(vs_prioclass_add(&cl, &hi, NULL, NULL), 0);
	start(gang_conf);
	node("n1", 2000);
	job("low", 1, VS_PG_INQUEUE, NULL);
	job("high", 1, VS_PG_INQUEUE, "high");
	task("low-0", "low", 2000, VS_TASK_PENDING, NULL);
	task("high-0", "high", 2000, VS_TASK_PENDING, NULL);
	cycle();
	cr_assert_eq(nr_binds, 1);
	cr_assert(bound("ns/high-0=n1"), "%s", binds[0]);
}

Test(actions, a_task_waits_on_a_node_whose_resources_are_being_released)
{
	struct vs_session *ssn;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	start(gang_conf);
	node("n1", 2000);
	job("old", 1, VS_PG_RUNNING, NULL);
	task("old-0", "old", 2000, VS_TASK_RELEASING, "n1");
	job("new", 1, VS_PG_INQUEUE, NULL);
	t = task("new-0", "new", 2000, VS_TASK_PENDING, NULL);

	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_session_run_actions(ssn, &e), 0, "%s", e.msg);
	/* idle has nothing, FutureIdle has the releasing 2 cpu: pipelined, not bound */
	cr_assert_eq(nr_binds, 0);
	cr_assert_eq(t->status, VS_TASK_PIPELINED);
	cr_assert_eq(t->node, vs_node_find(&cl, "n1"));
	/* a job that is only pipelined commits nothing: it is gone with the session */
	vs_session_close(ssn);
	cr_assert_eq(t->status, VS_TASK_PENDING);
	cr_assert_null(t->node);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
}

Test(actions, a_pipelined_but_unready_gang_keeps_nothing_after_the_cycle)
{
	start(gang_conf);
	node("n1", 2000);
	job("old", 1, VS_PG_RUNNING, NULL);
	task("old-0", "old", 1000, VS_TASK_RELEASING, "n1");
	job("g", 3, VS_PG_INQUEUE, NULL);
	task("g-0", "g", 1000, VS_TASK_PENDING, NULL);
	task("g-1", "g", 1000, VS_TASK_PENDING, NULL);
	task("g-2", "g", 1000, VS_TASK_PENDING, NULL);
	cycle();
	/* one allocated, one pipelined, one nowhere: neither ready nor pipelined */
	cr_assert_eq(nr_binds, 0);
	cr_assert_eq(vs_node_find(&cl, "n1")->nr_tasks, 1);
	cr_assert_eq(vs_task_find(&cl, "ns", "g-0")->status, VS_TASK_PENDING);
}

Test(actions, backfill_places_best_effort_tasks)
{
	start(gang_conf);
	node("n1", 1000);
	job("be", 1, VS_PG_INQUEUE, NULL);
	task("be-0", "be", 0, VS_TASK_PENDING, NULL);
	cycle();
	cr_assert(bound("ns/be-0=n1"), "binds: %d", nr_binds);
}

Test(actions, committed_jobs_rotate_back_until_their_tasks_are_placed)
{
	start(gang_conf);
	node("n1", 8000);
	job("j", 1, VS_PG_INQUEUE, NULL);
	for (int i = 0; i < 5; i++) {
		char name[16];

		snprintf(name, sizeof(name), "j-%d", i);
		task(name, "j", 1000, VS_TASK_PENDING, NULL);
	}
	cycle();
	cr_assert_eq(nr_binds, 5);
	cr_assert_eq(vs_node_find(&cl, "n1")->nr_tasks, 5);
}

Test(actions, a_second_cycle_does_not_place_bound_tasks_again)
{
	start(gang_conf);
	node("n1", 4000);
	job("j", 1, VS_PG_INQUEUE, NULL);
	task("j-0", "j", 1000, VS_TASK_PENDING, NULL);
	cycle();
	cycle();
	cr_assert_eq(nr_binds, 1);
	cr_assert_eq(sched.stats.cycles, 2);
}

Test(actions, gang_explains_an_unschedulable_job_as_volcano_does)
{
	struct vs_job *big, *small;
	const struct vs_pg_condition *c;

	start(gang_conf);
	node("n1", 2000);
	node("n2", 2000);
	big = job("big", 3, VS_PG_INQUEUE, NULL);
	task("big-0", "big", 2000, VS_TASK_PENDING, NULL);
	task("big-1", "big", 2000, VS_TASK_PENDING, NULL);
	task("big-2", "big", 2000, VS_TASK_PENDING, NULL);
	small = job("small", 1, VS_PG_INQUEUE, NULL);
	task("small-0", "small", 1000, VS_TASK_PENDING, NULL);
	cycle();

	/* big-0 and big-1 fitted and were discarded with the gang; big-2 fitted nowhere */
	c = &big->cond[VS_PG_COND_UNSCHEDULABLE];
	cr_assert(c->set);
	cr_assert_str_eq(vs_pg_cond_reason(c), "NotEnoughResources");
	cr_assert_str_eq(vs_pg_cond_message(c),
			 "1/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, "
			 "3 minAvailable; Pending: 1 Unschedulable, 2 Schedulable. "
			 "Origin reason is big-2: 0/2 nodes are unavailable: 2 Insufficient cpu.");
	cr_assert_eq(c->transition, 1);
	cr_assert_not(big->cond[VS_PG_COND_SCHEDULED].set);

	c = &small->cond[VS_PG_COND_SCHEDULED];
	cr_assert(c->set);
	cr_assert_str_eq(vs_pg_cond_reason(c), "tasks in gang are ready to be scheduled");
	cr_assert_str_eq(vs_pg_cond_message(c), "");
	cr_assert_not(small->cond[VS_PG_COND_UNSCHEDULABLE].set);

	/* notes live for one session only */
	cr_assert_null(vs_task_find(&cl, "ns", "big-2")->note);
	cycle();
	cr_assert_eq(big->cond[VS_PG_COND_UNSCHEDULABLE].transition, 2);
}

Test(actions, fit_errors_read_as_a_sorted_histogram)
{
	struct vs_session *ssn;
	struct vs_fit_errors *fe;
	struct vs_err e = { { 0 } };
	char buf[256];

	start(gang_conf);
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
	fe = vs_fit_errors_new(ssn);
	cr_assert_not_null(fe);
	vs_fit_errors_format(fe, buf, sizeof(buf));
	cr_assert_str_eq(buf, "0/0 nodes are unavailable");
	for (int i = 0; i < 10; i++)
		vs_fit_errors_add(ssn, fe, "node(s) were unschedulable");
	vs_fit_errors_add(ssn, fe, "Insufficient memory");
	vs_fit_errors_add(ssn, fe, "Insufficient cpu");
	vs_fit_errors_add(ssn, fe, "Insufficient cpu");
	vs_fit_errors_format(fe, buf, sizeof(buf));
	/* Go sorts "count reason" as strings: "10 ..." before "2 ..." */
	cr_assert_str_eq(buf, "0/13 nodes are unavailable: 1 Insufficient memory, "
			      "10 node(s) were unschedulable, 2 Insufficient cpu.");
	cr_assert_eq(vs_fit_errors_format(fe, buf, 8), (int)strlen("0/13 nodes are unavailable: "
			"1 Insufficient memory, 10 node(s) were unschedulable, 2 Insufficient cpu."));
	cr_assert_str_eq(buf, "0/13 no", "truncated, still terminated");
	vs_fit_errors_set_error(ssn, fe, "Task t with role spec w has already predicated failed, skip");
	vs_fit_errors_format(fe, buf, sizeof(buf));
	cr_assert(!strncmp(buf, "Task t with role spec w has already predicated failed, skip: 1 ", 62),
		  "%s", buf);
	vs_session_close(ssn);
}

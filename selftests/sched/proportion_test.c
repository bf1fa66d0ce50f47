// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the proportion plugin, called through the framework in a session
 * opened on a small cluster. The deserved amounts are asserted to the bit:
 * the expected doubles come from a line-by-line Python transliteration of
 * Volcano's OnSessionOpen (Python's float is Go's float64), written apart
 * from the C code, and are given here in hexadecimal where they are not
 * round. The admission and allocation cases are transcribed from Volcano's
 * proportion_test.go (TestEnqueueAndAllocable, TestAllocate,
 * TestNoDoubleCountingForInqueueJobWithBindingTasks,
 * TestJobEnqueuedOnOtherPluginsReject).
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "schedtest.h"
#include "plugins/proportion.h"
#include "sched/statement.h"

#define GI	(1024LL * 1024 * 1024)
#define G	1000000000LL

static struct vs_cluster cl;
static struct vs_sched sched;
static struct vs_session *ssn;

static const char conf_all[] =
	"actions: enqueue, allocate\ntiers:\n- plugins:\n  - name: proportion\n";

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
}

static void teardown(void)
{
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(proportion, .init = setup, .fini = teardown);

/* A queue; @cap and @guarantee may be NULL (unset). */
static struct vs_queue *queue(const char *name, u32 weight, s32 prio, const struct vs_res *cap,
			      const struct vs_res *guarantee, enum vs_queue_state state)
{
	struct vs_queue_spec spec;
	struct vs_queue *q;
	struct vs_err e = { { 0 } };

	vs_queue_spec_init(&spec, name);
	spec.weight = weight;
	spec.priority = prio;
	spec.state = state;
	if (cap) {
		spec.capability = *cap;
		spec.has_capability = true;
	}
	if (guarantee)
		spec.guarantee = *guarantee;
	cr_assert_eq(vs_queue_add(&cl, &spec, &q, &e), 0, "%s", e.msg);
	return q;
}

/* A PodGroup; @min (minResources) may be NULL. */
static struct vs_job *job(const char *name, const char *qname, u32 min_member,
			  const struct vs_res *min, enum vs_pg_phase phase)
{
	struct vs_job_spec spec;
	struct vs_job *j;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&spec, "ns", name);
	spec.queue = qname;
	spec.min_member = min_member;
	spec.phase = phase;
	if (min) {
		spec.min_resources = *min;
		spec.has_min_resources = true;
	}
	cr_assert_eq(vs_job_add(&cl, &spec, &j, &e), 0, "%s", e.msg);
	return j;
}

/* A task of @jname; @n is its node for the statuses that hold one. */
static struct vs_task *task(const char *name, const char *jname, s64 mcpu, s64 mem,
			    enum vs_task_status status, const struct vs_node *n)
{
	return st_task_on(&cl, "ns", name, jname, mcpu, mem, status, n);
}

/* @nr pending tasks "<jname>-<i>" of @mcpu and @mem. */
static void pending(const char *jname, u32 nr, s64 mcpu, s64 mem)
{
	char name[64];

	for (u32 i = 0; i < nr; i++) {
		snprintf(name, sizeof(name), "%s-%u", jname, i);
		task(name, jname, mcpu, mem, VS_TASK_PENDING, NULL);
	}
}

static void open_conf(const char *text)
{
	st_open(&sched, &cl, text, &ssn);
}

static const struct vs_proportion_queue *attr(const struct vs_queue *q)
{
	const struct vs_plugin *p = vs_session_plugin(ssn, "proportion");
	const struct vs_proportion_queue *pq;

	cr_assert_not_null(p);
	pq = vs_proportion_queue(p, q);
	cr_assert_not_null(pq, "queue %s has no attributes", q->name);
	return pq;
}

/* Bit-exact: a double equal to the one Volcano's float64 arithmetic gives. */
#define assert_dbl(got, want) \
	cr_assert((got) == (want), "%s: got %a (%.17g), want %a", #got, (got), (got), \
		  (double)(want))

static void assert_deserved(const struct vs_queue *q, double cpu, double mem, double pods)
{
	const struct vs_fres *d = &attr(q)->deserved;

	assert_dbl(d->v[VS_RES_CPU], cpu);
	assert_dbl(d->v[VS_RES_MEMORY], mem);
	cr_assert(vs_fres_has(d, VS_RES_PODS));
	assert_dbl(d->v[VS_RES_PODS], pods);
}

/* ---- deserved ---- */

Test(proportion, deserved_splits_by_weight_keeping_fractions)
{
	struct vs_node *n = st_node(&cl, "n", 4000, 8 * GI, 110);
	struct vs_queue *q1 = queue("q1", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	struct vs_queue *q2 = queue("q2", 2, 0, NULL, NULL, VS_QUEUE_OPEN);
	struct vs_statement *stmt;
	struct vs_task *t;

	job("a", "q1", 1, NULL, VS_PG_INQUEUE);
	job("b", "q2", 1, NULL, VS_PG_INQUEUE);
	t = task("big", "a", 1333, GI, VS_TASK_PENDING, NULL);
	pending("a", 7, 1000, GI);
	pending("b", 8, 1000, GI);
	open_conf(conf_all);

	/* one round: 4 cpu and 8Gi split 1:2, pods capped by the 8 pods asked */
	assert_deserved(q1, 0x1.4d55555555555p+10, 0x1.5555555555555p+31, 8);
	assert_deserved(q2, 0x1.4d55555555555p+11, 0x1.5555555555555p+32, 8);
	assert_dbl(attr(q1)->share, 0.0);

	/* 1333m of 1333.33m: fits, and is not overused (an integer 1333 would be) */
	cr_assert(vs_ssn_allocatable(ssn, q1, t));
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, t, n, NULL), 0);
	cr_assert_not(vs_ssn_overused(ssn, q1));
	assert_dbl(attr(q1)->share, 0x1.ffdf3b645a1cbp-1);
	assert_dbl(attr(q1)->allocated.v[VS_RES_CPU], 1333.0);
	cr_assert_gt(vs_ssn_queue_order(ssn, q1, q2), 0, "q2 holds nothing: it goes first");
	vs_stmt_discard(stmt);
	assert_dbl(attr(q1)->share, 0.0);
	assert_dbl(attr(q1)->allocated.v[VS_RES_CPU], 0.0);
	vs_session_close(ssn);
}

Test(proportion, deserved_fills_in_rounds_around_a_capability)
{
	struct vs_res cap = st_res(1500, 0);	/* memory left out: unlimited */
	struct vs_queue *q1, *q2, *q3;

	st_node(&cl, "n", 10000, 10 * GI, 110);
	q1 = queue("q1", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	q2 = queue("q2", 2, 0, &cap, NULL, VS_QUEUE_OPEN);
	q3 = queue("q3", 4, 0, NULL, NULL, VS_QUEUE_OPEN);
	job("a", "q1", 1, NULL, VS_PG_INQUEUE);
	job("b", "q2", 1, NULL, VS_PG_INQUEUE);
	job("c", "q3", 1, NULL, VS_PG_INQUEUE);
	pending("a", 10, 1000, GI);
	pending("b", 10, 1000, GI);
	pending("c", 10, 1000, GI);
	open_conf(conf_all);

	/*
	 * Four rounds: q2 stops at its 1.5 cpu, and what it leaves goes to
	 * q1 and q3 1:4, with the float64 error Volcano carries along.
	 */
	assert_deserved(q1, 0x1.a900000000001p+10, 0x1.6db6db6db6db7p+30, 10);
	assert_deserved(q2, 1500, 0x1.6db6db6db6db7p+31, 10);
	assert_deserved(q3, 0x1.a900000000001p+12, 0x1.6db6db6db6db7p+32, 10);
	assert_dbl(attr(q2)->real_capability.v[VS_RES_MEMORY], 10.0 * GI);
	vs_session_close(ssn);
}

Test(proportion, deserved_rounds_end_when_requests_are_met)
{
	struct vs_queue *q1, *q2, *q3;

	st_node(&cl, "n", 10000, 30 * GI, 110);
	q1 = queue("q1", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	q2 = queue("q2", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	q3 = queue("q3", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	queue("empty", 5, 0, NULL, NULL, VS_QUEUE_OPEN);	/* no job: no part */
	job("a", "q1", 1, NULL, VS_PG_INQUEUE);
	job("b", "q2", 1, NULL, VS_PG_INQUEUE);
	job("c", "q3", 1, NULL, VS_PG_INQUEUE);
	pending("a", 1, 1000, GI);
	pending("b", 10, 1000, GI);
	pending("c", 10, 1000, GI);
	open_conf(conf_all);

	assert_deserved(q1, 1000, GI, 1);
	assert_deserved(q2, 4500, 10 * GI, 10);
	assert_deserved(q3, 4500, 10 * GI, 10);
	cr_assert(attr(q1)->meet && attr(q2)->meet && attr(q3)->meet);
	cr_assert_null(vs_proportion_queue(vs_session_plugin(ssn, "proportion"),
					   vs_queue_find(&cl, "empty")));
	vs_session_close(ssn);
}

Test(proportion, guarantee_is_reserved_and_raises_deserved)
{
	struct vs_res g = st_res(4000, 0);
	struct vs_queue *q1, *q2;

	st_node(&cl, "n", 10000, 10 * GI, 110);
	q1 = queue("q1", 1, 0, NULL, &g, VS_QUEUE_OPEN);
	q2 = queue("q2", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	job("a", "q1", 1, NULL, VS_PG_INQUEUE);
	job("b", "q2", 1, NULL, VS_PG_INQUEUE);
	pending("a", 2, 1000, GI);
	pending("b", 10, 1000, GI);
	open_conf(conf_all);

	/* the others' guarantees are out of reach: q2 may have 10 - 4 cpu */
	assert_dbl(attr(q1)->real_capability.v[VS_RES_CPU], 10000.0);
	assert_dbl(attr(q2)->real_capability.v[VS_RES_CPU], 6000.0);
	/* q1 deserves its guarantee although it asks for 2 cpu */
	assert_deserved(q1, 4000, 2 * GI, 2);
	assert_deserved(q2, 6000, 8 * GI, 10);
	vs_session_close(ssn);
}

/* ---- queue order, overused, allocatable ---- */

/* Volcano's TestAllocate: the queue of the highest priority goes first. */
Test(proportion, queue_order_priority_then_share)
{
	struct vs_res cap = st_res(2000, 4 * GI);
	struct vs_node *n1 = st_node(&cl, "n1", 2000, 4 * GI, 10);
	struct vs_queue *q1, *q2, *q3;

	st_node(&cl, "n2", 2000, 4 * GI, 10);
	q1 = queue("q1", 1, 5, &cap, NULL, VS_QUEUE_OPEN);
	q2 = queue("q2", 1, 1, &cap, NULL, VS_QUEUE_OPEN);
	q3 = queue("q3", 1, 10, &cap, NULL, VS_QUEUE_OPEN);
	job("pg1", "q1", 1, NULL, VS_PG_RUNNING);
	job("pg2", "q2", 1, NULL, VS_PG_INQUEUE);
	job("pg3", "q3", 1, NULL, VS_PG_INQUEUE);
	task("p1", "pg1", 2000, 4 * GI, VS_TASK_RUNNING, n1);
	task("p2", "pg2", 2000, 4 * GI, VS_TASK_PENDING, NULL);
	task("p3", "pg3", 2000, 4 * GI, VS_TASK_PENDING, NULL);
	open_conf("actions: allocate\ntiers:\n- plugins:\n  - name: proportion\n");

	cr_assert_lt(vs_ssn_queue_order(ssn, q3, q1), 0);
	cr_assert_lt(vs_ssn_queue_order(ssn, q1, q2), 0, "priority before share");
	cr_assert_gt(attr(q1)->share, attr(q2)->share);
	cr_assert_lt(vs_ssn_queue_order(ssn, q3, q2), 0);
	vs_session_close(ssn);
}

/*
 * Volcano's TestEnqueueAndAllocable: two 2-cpu 2G nodes, q1 (2 cpu, 2G)
 * running a 1 cpu 2G pod, q2 (3 cpu, 3G) running a 2 cpu 1G pod, and a
 * closed q3; the pending job @jname asks for @mcpu and @mem in @qname.
 */
static struct vs_task *enqueue_case(const char *jname, const char *qname, s64 mcpu, s64 mem)
{
	struct vs_res cap1 = st_res(2000, 2 * G), cap2 = st_res(3000, 3 * G), cap3 = st_res(3000, 3 * G);
	struct vs_res r1 = st_res(1000, 2 * G), r2 = st_res(2000, G), rp = st_res(mcpu, mem);
	struct vs_node *n1 = st_node(&cl, "n1", 2000, 2 * G, 10);
	struct vs_node *n2 = st_node(&cl, "n2", 2000, 2 * G, 10);

	queue("q1", 1, 0, &cap1, NULL, VS_QUEUE_OPEN);
	queue("q2", 1, 0, &cap2, NULL, VS_QUEUE_OPEN);
	queue("q3", 1, 0, &cap3, NULL, VS_QUEUE_CLOSED);
	job("pg1", "q1", 1, &r1, VS_PG_RUNNING);
	job("pg2", "q2", 1, &r2, VS_PG_RUNNING);
	task("p1", "pg1", 1000, 2 * G, VS_TASK_RUNNING, n1);
	task("p2", "pg2", 2000, G, VS_TASK_RUNNING, n2);
	job(jname, qname, 1, &rp, VS_PG_PENDING);
	return task("pod", jname, mcpu, mem, VS_TASK_PENDING, NULL);
}

Test(proportion, volcano_case0_cpu_only_job_fits_though_memory_is_used_up)
{
	struct vs_task *t = enqueue_case("pg3", "q1", 1000, 0);
	struct vs_queue *q1 = vs_queue_find(&cl, "q1");

	open_conf(conf_all);
	cr_assert(vs_ssn_job_enqueueable(ssn, t->job));
	cr_assert(vs_ssn_allocatable(ssn, q1, t));
	cr_assert_not(vs_ssn_overused(ssn, q1));
	assert_deserved(q1, 2000, 2 * G, 2);
	vs_session_close(ssn);
}

Test(proportion, volcano_case1_memory_only_job_fits_though_cpu_is_used_up)
{
	struct vs_task *t = enqueue_case("pg4", "q2", 0, G);
	struct vs_queue *q2 = vs_queue_find(&cl, "q2");

	open_conf(conf_all);
	cr_assert(vs_ssn_job_enqueueable(ssn, t->job));
	cr_assert(vs_ssn_allocatable(ssn, q2, t));
	vs_session_close(ssn);
}

Test(proportion, volcano_case2_job_over_capability_is_not_enqueued)
{
	struct vs_task *t = enqueue_case("pg5", "q1", 1000, G);

	open_conf(conf_all);
	/* 1c1G + 1c2G allocated, less elastic (the one pod) = 2c3G > 2c2G */
	cr_assert_not(vs_ssn_job_enqueueable(ssn, t->job));
	vs_session_close(ssn);
}

Test(proportion, volcano_case3_task_over_deserved_is_not_allocatable)
{
	struct vs_task *t = enqueue_case("pg5", "q1", 1000, G);
	struct vs_queue *q1 = vs_queue_find(&cl, "q1");

	open_conf(conf_all);
	/* two rounds; deserved stops at the capability's 2G */
	assert_deserved(q1, 2000, 2 * G, 2);
	cr_assert_not(vs_ssn_allocatable(ssn, q1, t));
	vs_session_close(ssn);
}

Test(proportion, volcano_case4_closed_queue_takes_nothing)
{
	struct vs_task *t = enqueue_case("pg6", "q3", 1000, G);
	struct vs_queue *q3 = vs_queue_find(&cl, "q3");

	open_conf(conf_all);
	cr_assert_not(vs_ssn_job_enqueueable(ssn, t->job));
	cr_assert_not(vs_ssn_allocatable(ssn, q3, t));
	vs_session_close(ssn);
}

Test(proportion, overused_once_allocated_reaches_deserved)
{
	struct vs_node *n = st_node(&cl, "n", 4000, 8 * GI, 110);
	struct vs_queue *q1 = queue("q1", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	struct vs_statement *stmt;
	struct vs_task *a0, *a1;

	queue("q2", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	job("a", "q1", 1, NULL, VS_PG_INQUEUE);
	job("b", "q2", 1, NULL, VS_PG_INQUEUE);
	a0 = task("a0", "a", 2000, 4 * GI, VS_TASK_PENDING, NULL);
	a1 = task("a1", "a", 2000, 4 * GI, VS_TASK_PENDING, NULL);
	pending("b", 4, 1000, 2 * GI);
	open_conf(conf_all);

	assert_deserved(q1, 2000, 4 * GI, 2);
	cr_assert_not(vs_ssn_overused(ssn, q1));
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, a0, n, NULL), 0);
	/* cpu and memory are used up, but pods count too: 1 of the 2 deserved */
	cr_assert_not(vs_ssn_overused(ssn, q1));
	cr_assert_not(vs_ssn_allocatable(ssn, q1, a1));
	assert_dbl(attr(q1)->share, 1.0);
	cr_assert_eq(vs_stmt_allocate(stmt, a1, n, NULL), 0);
	cr_assert(vs_ssn_overused(ssn, q1), "deserved <= allocated in every dimension");
	vs_stmt_discard(stmt);
	cr_assert_not(vs_ssn_overused(ssn, q1));
	cr_assert(vs_ssn_allocatable(ssn, q1, a1));
	vs_session_close(ssn);
}

Test(proportion, events_count_pipelined_tasks_and_follow_discards)
{
	struct vs_node *n = st_node(&cl, "n", 4000, 8 * GI, 110);
	struct vs_queue *q1 = queue("q1", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	struct vs_statement *stmt;
	struct vs_task *a0, *a1;

	job("a", "q1", 1, NULL, VS_PG_INQUEUE);
	a0 = task("a0", "a", 1000, GI, VS_TASK_PENDING, NULL);
	a1 = task("a1", "a", 1000, 3 * GI, VS_TASK_PENDING, NULL);
	open_conf(conf_all);

	/* deserved is the whole request, 2 cpu 4Gi */
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, a0, n, NULL), 0);
	assert_dbl(attr(q1)->share, 0.5);
	cr_assert_eq(vs_stmt_pipeline(stmt, a1, n, false, NULL), 0);
	assert_dbl(attr(q1)->share, 1.0);
	assert_dbl(attr(q1)->allocated.v[VS_RES_MEMORY], 4.0 * GI);
	assert_dbl(attr(q1)->allocated.v[VS_RES_PODS], 2.0);
	vs_stmt_discard(stmt);
	assert_dbl(attr(q1)->share, 0.0);
	assert_dbl(attr(q1)->allocated.v[VS_RES_CPU], 0.0);
	vs_session_close(ssn);
}

/* ---- enqueue ---- */

/* Volcano's TestNoDoubleCountingForInqueueJobWithBindingTasks, cycle 2. */
Test(proportion, inqueue_counts_only_what_admitted_jobs_still_miss)
{
	struct vs_res cap = st_res(4000, 8 * GI), min3 = st_res(3000, 3 * GI), min1 = st_res(1000, GI);
	struct vs_node *n = st_node(&cl, "n1", 4000, 8 * GI, 10);
	struct vs_queue *q1 = queue("q1", 1, 0, &cap, NULL, VS_QUEUE_OPEN);
	struct vs_job *b;

	job("pg-a", "q1", 3, &min3, VS_PG_INQUEUE);
	task("pa1", "pg-a", 1000, GI, VS_TASK_BINDING, n);
	task("pa2", "pg-a", 1000, GI, VS_TASK_BINDING, n);
	task("pa3", "pg-a", 1000, GI, VS_TASK_BINDING, n);
	b = job("pg-b", "q1", 1, &min1, VS_PG_PENDING);
	task("pb1", "pg-b", 1000, GI, VS_TASK_PENDING, NULL);
	open_conf(conf_all);

	assert_dbl(attr(q1)->inqueue.v[VS_RES_CPU], 0.0);
	assert_dbl(attr(q1)->allocated.v[VS_RES_CPU], 3000.0);
	/* 1 + 3 allocated + 0 inqueue = 4 cpu: fits the 4 cpu */
	cr_assert(vs_ssn_job_enqueueable(ssn, b));
	vs_session_close(ssn);
}

/* Volcano's TestJobEnqueuedOnOtherPluginsReject, at the plugin's level. */
Test(proportion, job_enqueued_reserves_min_resources)
{
	struct vs_res cap = st_res(1000, 4 * G), min = st_res(1000, G);
	struct vs_job *a, *b;

	st_node(&cl, "n1", 4000, 4 * G, 10);
	queue("q1", 1, 0, &cap, NULL, VS_QUEUE_OPEN);
	a = job("pg-a", "q1", 1, &min, VS_PG_PENDING);
	b = job("pg-b", "q1", 1, &min, VS_PG_PENDING);
	task("pod-a", "pg-a", 1000, G, VS_TASK_PENDING, NULL);
	task("pod-b", "pg-b", 1000, G, VS_TASK_PENDING, NULL);
	open_conf(conf_all);

	/* asking does not reserve: only JobEnqueued does */
	cr_assert(vs_ssn_job_enqueueable(ssn, a));
	cr_assert(vs_ssn_job_enqueueable(ssn, b));
	vs_ssn_job_enqueued(ssn, a);
	cr_assert_not(vs_ssn_job_enqueueable(ssn, b), "the queue's one cpu went to pg-a");
	vs_session_close(ssn);
}

Test(proportion, elastic_resources_leave_room_and_no_min_resources_always_fits)
{
	struct vs_res cap = st_res(4000, 16 * GI), min1 = st_res(1000, GI);
	struct vs_res min2 = st_res(2000, GI), min4 = st_res(4000, GI);
	struct vs_node *n = st_node(&cl, "n", 8000, 16 * GI, 110);
	struct vs_queue *q1 = queue("q1", 1, 0, &cap, NULL, VS_QUEUE_OPEN);
	struct vs_job *fits, *too_big, *free_job;

	/* a running job of minResources 1 cpu holding 3: 2 cpu are elastic */
	job("run", "q1", 1, &min1, VS_PG_RUNNING);
	task("r0", "run", 1000, GI, VS_TASK_RUNNING, n);
	task("r1", "run", 1000, GI, VS_TASK_RUNNING, n);
	task("r2", "run", 1000, GI, VS_TASK_RUNNING, n);
	fits = job("fits", "q1", 1, &min2, VS_PG_PENDING);
	too_big = job("big", "q1", 1, &min4, VS_PG_PENDING);
	free_job = job("free", "q1", 1, NULL, VS_PG_PENDING);
	task("f0", "free", 64000, GI, VS_TASK_PENDING, NULL);
	open_conf(conf_all);

	assert_dbl(attr(q1)->elastic.v[VS_RES_CPU], 2000.0);
	/* 2 + 3 allocated - 2 elastic = 3 <= 4; 4 + 3 - 2 = 5 > 4 */
	cr_assert(vs_ssn_job_enqueueable(ssn, fits));
	cr_assert_not(vs_ssn_job_enqueueable(ssn, too_big));
	cr_assert(vs_ssn_job_enqueueable(ssn, free_job), "no minResources: nothing to check");
	vs_session_close(ssn);
}

/* ---- reclaim ---- */

Test(proportion, reclaimable_takes_victims_while_the_queue_is_above_deserved)
{
	struct vs_node *n = st_node(&cl, "n", 4000, 8 * GI, 110);
	struct vs_task *c[4], *reclaimer;

	queue("q1", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	queue("q2", 1, 0, NULL, NULL, VS_QUEUE_OPEN);
	job("a", "q1", 1, NULL, VS_PG_RUNNING);
	job("b", "q2", 1, NULL, VS_PG_INQUEUE);
	c[0] = task("a0", "a", 1000, GI, VS_TASK_RUNNING, n);
	c[1] = task("a1", "a", 1000, GI, VS_TASK_RUNNING, n);
	c[2] = task("a2", "a", 1000, GI, VS_TASK_RUNNING, n);
	c[3] = task("a3", "a", 1000, GI, VS_TASK_RUNNING, n);
	reclaimer = task("b0", "b", 1000, GI, VS_TASK_PENDING, NULL);
	pending("b", 3, 1000, GI);
	open_conf("actions: allocate\ntiers:\n- plugins:\n  - name: proportion\n");

	/* q1 holds 4 cpu and deserves 2: two victims take it down to 2 */
	cr_assert_eq(vs_ssn_reclaimable(ssn, reclaimer, c, 4), 2);
	cr_assert_str_eq(c[0]->name, "a0");
	cr_assert_str_eq(c[1]->name, "a1");
	vs_session_close(ssn);
}

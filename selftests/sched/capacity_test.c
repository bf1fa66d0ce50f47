// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the capacity plugin, called through the framework in a session
 * opened on a small cluster: the attributes it computes at open (deserved
 * within realCapability and raised to the guarantee, realCapability from the
 * others' guarantees and the capability, the share of Volcano's
 * Test_updateQueueAttrShare), how the events move them, the boundaries of
 * Allocatable and Reclaimable, what the configuration loader refuses, and
 * the two comparisons of Volcano's resource_info.go that capacity brought
 * into core/fres.c. The expected values were worked out by hand from
 * Volcano's capacity.go; the decisions of whole cycles are in the
 * capacity-*.yaml scenarios.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "schedtest.h"
#include "testreg.h"
#include "plugins/capacity.h"
#include "sched/statement.h"

#define GI	(1024LL * 1024 * 1024)

static struct vs_cluster cl;
static struct vs_sched sched;
static struct vs_session *ssn;

static const char conf_all[] =
	"actions: enqueue, allocate, reclaim\ntiers:\n- plugins:\n  - name: capacity\n";

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
}

static void teardown(void)
{
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(capacity, .init = setup, .fini = teardown);

/* A queue; @deserved, @cap and @guarantee may be NULL (unset). */
static struct vs_queue *queue(const char *name, const struct vs_res *deserved,
			      const struct vs_res *cap, const struct vs_res *guarantee)
{
	struct vs_queue_spec spec;
	struct vs_queue *q;
	struct vs_err e = { { 0 } };

	vs_queue_spec_init(&spec, name);
	if (deserved) {
		spec.deserved = *deserved;
		spec.has_deserved = true;
	}
	if (cap) {
		spec.capability = *cap;
		spec.has_capability = true;
	}
	if (guarantee)
		spec.guarantee = *guarantee;
	cr_assert_eq(vs_queue_add(&cl, &spec, &q, &e), 0, "%s", e.msg);
	return q;
}

static struct vs_job *job(const char *name, const char *qname, enum vs_pg_phase phase)
{
	return st_job(&cl, "ns", name, qname, 1, phase);
}

/* A task of @jname; @n is its node for the statuses that hold one. */
static struct vs_task *task(const char *name, const char *jname, s64 mcpu, s64 mem,
			    enum vs_task_status status, const struct vs_node *n)
{
	return st_task_on(&cl, "ns", name, jname, mcpu, mem, status, n);
}

static const struct vs_capacity_queue *attr(const struct vs_queue *q)
{
	const struct vs_plugin *p = vs_session_plugin(ssn, "capacity");
	const struct vs_capacity_queue *cq;

	cr_assert_not_null(p);
	cq = vs_capacity_queue(p, q);
	cr_assert_not_null(cq, "queue %s has no attributes", q->name);
	return cq;
}

#define assert_dbl(got, want) \
	cr_assert((got) == (want), "%s: got %a (%.17g), want %a", #got, (got), (got), \
		  (double)(want))

static void assert_fres(const struct vs_fres *f, double cpu, double mem)
{
	assert_dbl(f->v[VS_RES_CPU], cpu);
	assert_dbl(f->v[VS_RES_MEMORY], mem);
}

/* ---- the attributes at session open ---- */

Test(capacity, deserved_is_the_spec_within_real_capability_and_at_least_guarantee)
{
	struct vs_res g1 = st_res(2000, 0), d2 = st_res(10000, 4 * GI), c2 = st_res(3000, 0);
	struct vs_res d3 = st_res(1000, 0), g3 = st_res(2000, GI);
	struct vs_queue *q1, *q2, *q3;

	st_node(&cl, "n", 8000, 16 * GI, 110);
	q1 = queue("q1", NULL, NULL, &g1);
	q2 = queue("q2", &d2, &c2, NULL);
	q3 = queue("q3", &d3, NULL, &g3);
	job("a", "q1", VS_PG_INQUEUE);
	job("b", "q2", VS_PG_INQUEUE);
	job("c", "q3", VS_PG_INQUEUE);
	st_open(&sched, &cl, conf_all, &ssn);

	/* the guarantees (4 cpu, 1Gi in all) are out of reach but a queue's own */
	assert_fres(&attr(q1)->real_capability, 4000 + 2000, 15.0 * GI);
	assert_fres(&attr(q3)->real_capability, 4000 + 2000, 16.0 * GI);
	/* capped by a capability that leaves memory out, so memory is not */
	assert_fres(&attr(q2)->real_capability, 3000, 15.0 * GI);
	assert_fres(&attr(q2)->capability, 3000, VS_FRES_INF);
	assert_dbl(attr(q2)->real_capability.v[VS_RES_PODS], 110.0);

	/* q1 asks for nothing and deserves its guarantee */
	assert_fres(&attr(q1)->deserved, 2000, 0);
	/* q2's 10 cpu are more than it may ever hold */
	assert_fres(&attr(q2)->deserved, 3000, 4.0 * GI);
	cr_assert_not(vs_fres_has(&attr(q2)->deserved, VS_RES_PODS));
	/* q3's guarantee raises its deserved in both dimensions */
	assert_fres(&attr(q3)->deserved, 2000, 1.0 * GI);
	vs_session_close(ssn);
}

Test(capacity, deserved_and_real_capability_keep_scalars)
{
	struct vs_res d = st_res(0, 0), c = st_res(1000, 0);
	int gpu = vs_cluster_dim_get(&cl, "nvidia.com/gpu", 14, NULL);
	struct vs_queue *q;
	struct vs_node_spec spec;
	struct vs_err e = { { 0 } };

	cr_assert_geq(gpu, 0);
	vs_res_set(&d, gpu, 8000);
	vs_res_set(&c, gpu, 2000);
	vs_node_spec_init(&spec, "n");
	spec.allocatable = st_res(8000, 8 * GI);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 10);
	vs_res_set(&spec.allocatable, gpu, 4000);
	cr_assert_eq(vs_node_add(&cl, &spec, NULL, &e), 0, "%s", e.msg);
	q = queue("q", &d, &c, NULL);
	job("a", "q", VS_PG_INQUEUE);
	st_open(&sched, &cl, conf_all, &ssn);

	assert_dbl(attr(q)->real_capability.v[gpu], 2000.0);
	assert_dbl(attr(q)->deserved.v[gpu], 2000.0);
	assert_fres(&attr(q)->deserved, 0, 0);
	/* deserved names only the gpu: a share of the gpu alone */
	assert_dbl(attr(q)->share, 0.0);
	vs_session_close(ssn);
}

Test(capacity, queue_without_jobs_has_no_attributes)
{
	struct vs_queue *idle;

	st_node(&cl, "n", 4000, 4 * GI, 10);
	queue("q", NULL, NULL, NULL);
	idle = queue("idle", NULL, NULL, NULL);
	job("a", "q", VS_PG_INQUEUE);
	st_open(&sched, &cl, conf_all, &ssn);

	cr_assert_null(vs_capacity_queue(vs_session_plugin(ssn, "capacity"), idle));
	vs_session_close(ssn);
}

/*
 * Volcano's Test_updateQueueAttrShare, each case as a queue holding
 * @mcpu/@mem in running tasks against a deserved of @dcpu/@dmem (none when
 * both are negative).
 */
static double share_of(s64 dcpu, s64 dmem, s64 mcpu, s64 mem)
{
	struct vs_res d = st_res(dcpu, dmem);
	struct vs_node *n = st_node(&cl, "n", 64000, 64 * GI, 110);
	struct vs_queue *q = queue("q", dcpu < 0 ? NULL : &d, NULL, NULL);
	double share;

	job("a", "q", VS_PG_RUNNING);
	if (mcpu || mem)
		task("t", "a", mcpu, mem, VS_TASK_RUNNING, n);
	st_open(&sched, &cl, conf_all, &ssn);
	share = attr(q)->share;
	vs_session_close(ssn);
	return share;
}

Test(capacity, share_best_effort_with_allocated_is_one)
{
	assert_dbl(share_of(-1, -1, 1000, GI), 1.0);
}

Test(capacity, share_best_effort_idle_is_one)
{
	assert_dbl(share_of(-1, -1, 0, 0), 1.0);
}

Test(capacity, share_best_effort_cpu_only_is_one)
{
	assert_dbl(share_of(-1, -1, 1000, 0), 1.0);
}

Test(capacity, share_deserved_nothing_allocated_is_zero)
{
	assert_dbl(share_of(2000, 2 * GI, 0, 0), 0.0);
}

Test(capacity, share_half_of_deserved)
{
	assert_dbl(share_of(2000, 2 * GI, 1000, GI), 0.5);
}

Test(capacity, share_at_deserved_is_one)
{
	assert_dbl(share_of(2000, 2 * GI, 2000, 2 * GI), 1.0);
}

Test(capacity, share_above_deserved)
{
	assert_dbl(share_of(2000, 2 * GI, 3000, 2 * GI), 1.5);
}

Test(capacity, share_dominant_memory)
{
	assert_dbl(share_of(2000, 4 * GI, 1000, 3 * GI), 0.75);
}

Test(capacity, share_dominant_cpu)
{
	assert_dbl(share_of(2000, 4 * GI, 1500, 2 * GI), 0.75);
}

Test(capacity, share_zero_deserved_is_best_effort)
{
	assert_dbl(share_of(0, 0, 1000, GI), 1.0);
}

/* ---- events, queue order, Allocatable, Preemptive, JobEnqueueable ---- */

Test(capacity, events_move_allocated_and_share)
{
	struct vs_res d = st_res(2000, 2 * GI);
	struct vs_node *n = st_node(&cl, "n", 4000, 4 * GI, 10);
	struct vs_queue *q = queue("q", &d, NULL, NULL), *be = queue("be", NULL, NULL, NULL);
	struct vs_statement *stmt;
	struct vs_task *t;

	job("a", "q", VS_PG_INQUEUE);
	job("b", "be", VS_PG_INQUEUE);
	t = task("t", "a", 2000, GI, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_all, &ssn);

	assert_dbl(attr(q)->share, 0.0);
	cr_assert_lt(vs_ssn_queue_order(ssn, q, be), 0, "share 0 before a best-effort 1");
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, t, n, NULL), 0);
	assert_fres(&attr(q)->allocated, 2000, 1.0 * GI);
	assert_dbl(attr(q)->share, 1.0);
	/* equal shares: the queue that deserves something first, both ways */
	cr_assert_lt(vs_ssn_queue_order(ssn, q, be), 0);
	cr_assert_gt(vs_ssn_queue_order(ssn, be, q), 0);
	vs_stmt_discard(stmt);
	assert_fres(&attr(q)->allocated, 0, 0);
	assert_dbl(attr(q)->share, 0.0);
	vs_session_close(ssn);
}

/*
 * 4 EiB allocated beside the 1000003 bytes a queue holds, then discarded:
 * its allocated is the 1000003 again (a float64 sum kept 1000448).
 */
Test(capacity, a_discard_beside_a_huge_allocation_leaves_allocated_exact)
{
	struct vs_res d = st_res(2000, 2 * GI);
	struct vs_node *n = st_node(&cl, "n", 4000, 7LL << 60, 10);
	struct vs_queue *q = queue("q", &d, NULL, NULL);
	struct vs_statement *stmt;
	struct vs_task *t;

	job("a", "q", VS_PG_RUNNING);
	task("small", "a", 0, 1000003, VS_TASK_RUNNING, n);
	t = task("huge", "a", 0, 4LL << 60, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_all, &ssn);
	assert_fres(&attr(q)->allocated, 0, 1000003);
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, t, n, NULL), 0);
	vs_stmt_discard(stmt);
	cr_assert_eq(attr(q)->allocated.v[VS_RES_MEMORY], 1000003.0);
	vs_session_close(ssn);
}

Test(capacity, allocatable_up_to_real_capability_not_deserved)
{
	struct vs_res d = st_res(1000, GI), c = st_res(4000, 0);
	struct vs_node *n = st_node(&cl, "n", 8000, 8 * GI, 10);
	struct vs_queue *q = queue("q", &d, &c, NULL);
	struct vs_task *fits, *over, *mem_only;

	job("a", "q", VS_PG_RUNNING);
	task("run", "a", 2000, 2 * GI, VS_TASK_RUNNING, n);
	fits = task("fits", "a", 2000, GI, VS_TASK_PENDING, NULL);
	over = task("over", "a", 2001, GI, VS_TASK_PENDING, NULL);
	mem_only = task("mem", "a", 0, 6 * GI, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_all, &ssn);

	cr_assert(vs_ssn_allocatable(ssn, q, fits), "2 + 2 cpu is the capability, exactly");
	cr_assert_not(vs_ssn_allocatable(ssn, q, over), "one millicpu too many");
	cr_assert(vs_ssn_allocatable(ssn, q, mem_only), "2 + 6Gi is all of the cluster's 8Gi");
	cr_assert_not(vs_ssn_overused(ssn, q), "capacity registers no Overused");
	vs_session_close(ssn);
}

Test(capacity, closed_queue_allocates_and_admits_nothing)
{
	struct vs_queue_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_queue *q;
	struct vs_task *t;
	struct vs_job *j;

	st_node(&cl, "n", 8000, 8 * GI, 10);
	vs_queue_spec_init(&spec, "q");
	spec.state = VS_QUEUE_CLOSED;
	cr_assert_eq(vs_queue_add(&cl, &spec, &q, &e), 0, "%s", e.msg);
	j = job("a", "q", VS_PG_PENDING);
	t = task("t", "a", 1000, GI, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_all, &ssn);

	cr_assert_not(vs_ssn_allocatable(ssn, q, t));
	cr_assert_not(vs_ssn_preemptive(ssn, q, t));
	cr_assert_not(vs_ssn_job_enqueueable(ssn, j));
	vs_session_close(ssn);
}

Test(capacity, preemptive_needs_one_dimension_at_or_below_deserved)
{
	struct vs_res d = st_res(2000, 2 * GI);
	struct vs_node *n = st_node(&cl, "n", 8000, 8 * GI, 10);
	struct vs_queue *q = queue("q", &d, NULL, NULL);
	struct vs_task *cpu_at, *cpu_over, *both_over;

	job("a", "q", VS_PG_RUNNING);
	task("run", "a", 1000, 3 * GI, VS_TASK_RUNNING, n);
	cpu_at = task("at", "a", 1000, GI, VS_TASK_PENDING, NULL);
	cpu_over = task("over", "a", 1001, 0, VS_TASK_PENDING, NULL);
	both_over = task("both", "a", 1001, GI, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_all, &ssn);

	cr_assert(vs_ssn_preemptive(ssn, q, cpu_at), "cpu reaches 2 of 2, memory is over");
	cr_assert_not(vs_ssn_preemptive(ssn, q, cpu_over),
		      "memory is over but not asked for; cpu is over by 1m");
	cr_assert_not(vs_ssn_preemptive(ssn, q, both_over));
	vs_session_close(ssn);
}

Test(capacity, enqueue_counts_inqueue_and_elastic)
{
	struct vs_res c = st_res(4000, 0), min1 = st_res(1000, 0), min3 = st_res(3000, 0);
	struct vs_node *n = st_node(&cl, "n", 8000, 8 * GI, 10);
	struct vs_job_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_job *fits, *more;

	queue("q", NULL, &c, NULL);
	vs_job_spec_init(&spec, "ns", "run");
	spec.queue = "q";
	spec.min_member = 1;
	spec.phase = VS_PG_RUNNING;
	spec.min_resources = min1;
	spec.has_min_resources = true;
	cr_assert_eq(vs_job_add(&cl, &spec, NULL, &e), 0, "%s", e.msg);
	task("r1", "run", 1000, 0, VS_TASK_RUNNING, n);
	task("r2", "run", 1000, 0, VS_TASK_RUNNING, n);
	task("r3", "run", 1000, 0, VS_TASK_RUNNING, n);
	spec.name = "fits";
	spec.phase = VS_PG_PENDING;
	spec.min_resources = min3;
	cr_assert_eq(vs_job_add(&cl, &spec, &fits, &e), 0, "%s", e.msg);
	spec.name = "more";
	spec.min_resources = min1;
	cr_assert_eq(vs_job_add(&cl, &spec, &more, &e), 0, "%s", e.msg);
	st_open(&sched, &cl, conf_all, &ssn);

	/* 3 held, 2 of them beyond minResources: 3 + 3 - 2 is the 4 allowed */
	assert_dbl(attr(vs_queue_find(&cl, "q"))->elastic.v[VS_RES_CPU], 2000.0);
	cr_assert(vs_ssn_job_enqueueable(ssn, fits));
	cr_assert(vs_ssn_job_enqueueable(ssn, more));
	vs_ssn_job_enqueued(ssn, fits);
	assert_dbl(attr(vs_queue_find(&cl, "q"))->inqueue.v[VS_RES_CPU], 3000.0);
	cr_assert_not(vs_ssn_job_enqueueable(ssn, more), "fits now reserves its 3 cpu");
	vs_session_close(ssn);
}

/* ---- Reclaimable ---- */

Test(capacity, reclaim_stops_at_guarantee)
{
	struct vs_res d1 = st_res(500, 0), g1 = st_res(0, GI), d2 = st_res(2000, 2 * GI);
	struct vs_node *n = st_node(&cl, "n", 3000, 8 * GI, 10);
	struct vs_task *p[3], *cands[3], *big;

	queue("q1", &d1, NULL, &g1);
	queue("q2", &d2, NULL, NULL);
	job("a", "q1", VS_PG_RUNNING);
	job("b", "q2", VS_PG_INQUEUE);
	p[0] = task("p1", "a", 1000, GI, VS_TASK_RUNNING, n);
	p[1] = task("p2", "a", 1000, GI, VS_TASK_RUNNING, n);
	p[2] = task("p3", "a", 1000, GI, VS_TASK_RUNNING, n);
	big = task("big", "b", 2000, 2 * GI, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_all, &ssn);

	/* q1 deserves 500m and its 1Gi guarantee, and holds 3 cpu, 3Gi */
	assert_fres(&attr(vs_queue_find(&cl, "q1"))->deserved, 500, 1.0 * GI);
	memcpy(cands, p, sizeof(cands));
	/* lowest first: p3, p2 leave exactly the guarantee; p1 would go below */
	cr_assert_eq(vs_ssn_reclaimable(ssn, big, cands, 3), 2);
	cr_assert_eq(cands[0], p[1]);
	cr_assert_eq(cands[1], p[2]);
	/* nothing was taken off the queue by asking */
	assert_fres(&attr(vs_queue_find(&cl, "q1"))->allocated, 3000, 3.0 * GI);
	vs_session_close(ssn);
}

Test(capacity, reclaim_skips_victims_sharing_nothing_with_the_reclaimer)
{
	struct vs_res d2 = st_res(2000, 2 * GI);
	struct vs_node *n = st_node(&cl, "n", 3000, 8 * GI, 10);
	struct vs_task *cands[2], *mem, *cpu, *rec;

	queue("q1", NULL, NULL, NULL);
	queue("q2", &d2, NULL, NULL);
	job("a", "q1", VS_PG_RUNNING);
	job("b", "q2", VS_PG_INQUEUE);
	mem = task("mem", "a", 0, GI, VS_TASK_RUNNING, n);
	cpu = task("cpu", "a", 1000, 0, VS_TASK_RUNNING, n);
	rec = task("rec", "b", 1000, 0, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_all, &ssn);

	cands[0] = mem;
	cands[1] = cpu;
	/* q1 deserves nothing: immediate victims, but mem holds no cpu */
	cr_assert_eq(vs_ssn_reclaimable(ssn, rec, cands, 2), 1);
	cr_assert_eq(cands[0], cpu);
	vs_session_close(ssn);
}

/* ---- hierarchical queues ---- */

static const char conf_tree[] =
	"actions: enqueue, allocate, reclaim\ntiers:\n- plugins:\n  - name: capacity\n"
	"    enableHierarchy: true\n";

/* A queue under @parent (NULL: none written); the others may be NULL too. */
static struct vs_queue *child(const char *name, const char *parent, const struct vs_res *deserved,
			      const struct vs_res *cap, const struct vs_res *guarantee)
{
	struct vs_queue_spec spec;
	struct vs_queue *q;
	struct vs_err e = { { 0 } };

	vs_queue_spec_init(&spec, name);
	spec.parent = parent;
	if (deserved) {
		spec.deserved = *deserved;
		spec.has_deserved = true;
	}
	if (cap) {
		spec.capability = *cap;
		spec.has_capability = true;
	}
	if (guarantee)
		spec.guarantee = *guarantee;
	cr_assert_eq(vs_queue_add(&cl, &spec, &q, &e), 0, "%s", e.msg);
	return q;
}

#define UNLIMITED_SCALAR	((double)INT64_MAX)

/*
 * root (no capability), A (cap 6 cpu, guarantee 1 cpu 1Gi, deserved 2
 * cpu) and B (guarantee 2 cpu) under it, A1 (deserved 500m, guarantee 1
 * cpu) and A2 (cap 2Gi) under A; A1 runs 500m and 256Mi.
 */
Test(capacity, tree_settles_each_level_from_its_parent)
{
	struct vs_res ca = st_res(6000, 0), ga = st_res(1000, GI), da = st_res(2000, 0);
	struct vs_res gb = st_res(2000, 0), d1 = st_res(500, 0), g1 = st_res(1000, 0), c2 = st_res(0, 2 * GI);
	struct vs_node *n = st_node(&cl, "n", 8000, 16 * GI, 110);
	struct vs_queue *root, *a, *b, *a1, *a2;
	const struct vs_capacity_queue *ra, *rr;
	struct vs_statement *stmt;
	struct vs_task *t, *big;

	root = child("root", NULL, NULL, NULL, NULL);
	a = child("a", NULL, &da, &ca, &ga);		/* no parent written: root's child */
	b = child("b", "root", NULL, NULL, &gb);
	a1 = child("a1", "a", &d1, NULL, &g1);
	a2 = child("a2", "a", NULL, &c2, NULL);
	job("j1", "a1", VS_PG_RUNNING);
	job("j2", "a2", VS_PG_INQUEUE);
	task("run", "j1", 500, 256LL << 20, VS_TASK_RUNNING, n);
	t = task("t", "j2", 5000, GI, VS_TASK_PENDING, NULL);
	big = task("big", "j2", 5001, GI, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_tree, &ssn);

	rr = attr(root);
	ra = attr(a);
	/* root: unlimited, deserving and guaranteeing what its children do */
	assert_fres(&rr->real_capability, VS_FRES_INF, VS_FRES_INF);
	assert_dbl(rr->real_capability.v[VS_RES_PODS], UNLIMITED_SCALAR);
	assert_fres(&rr->deserved, 4000, 1.0 * GI);
	assert_fres(&rr->guarantee, 3000, 1.0 * GI);
	cr_assert_eq(rr->nr_children, 2);
	cr_assert_eq(rr->nr_ancestors, 0);

	/* A: deserved raised to its guarantee, memory and pods from root */
	assert_fres(&ra->deserved, 2000, 1.0 * GI);
	assert_fres(&ra->capability, 6000, VS_FRES_INF);
	assert_dbl(ra->capability.v[VS_RES_PODS], UNLIMITED_SCALAR);
	assert_fres(&ra->real_capability, 6000, VS_FRES_INF);
	assert_fres(&attr(b)->deserved, 2000, 0);
	assert_fres(&attr(b)->real_capability, VS_FRES_INF, VS_FRES_INF);

	/* A1 and A2: A's 6 cpu less A1's guarantee, plus each one's own */
	assert_fres(&attr(a1)->deserved, 1000, 0);
	assert_fres(&attr(a1)->real_capability, 6000, VS_FRES_INF);
	assert_fres(&attr(a2)->capability, 6000, 2.0 * GI);
	assert_fres(&attr(a2)->real_capability, 5000, 2.0 * GI);
	assert_fres(&attr(a2)->deserved, 0, 0);
	cr_assert_eq(attr(a2)->nr_ancestors, 2);
	cr_assert_eq(attr(a2)->ancestors[0], root->sidx);
	cr_assert_eq(attr(a2)->ancestors[1], a->sidx);

	/* what A1 holds is counted up the tree */
	assert_fres(&attr(a1)->allocated, 500, 256.0 * (1 << 20));
	assert_fres(&ra->allocated, 500, 256.0 * (1 << 20));
	assert_fres(&rr->allocated, 500, 256.0 * (1 << 20));
	assert_dbl(attr(a1)->share, 0.5);
	assert_dbl(ra->share, 0.25);
	assert_dbl(rr->share, 0.25);

	cr_assert(vs_ssn_allocatable(ssn, a2, t), "5 cpu is A2's realCapability");
	cr_assert_not(vs_ssn_allocatable(ssn, a2, big));
	cr_assert_not(vs_ssn_allocatable(ssn, a, t), "A is no leaf");

	/* events reach the ancestors, but only the leaf's share moves */
	stmt = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(stmt, t, n, NULL), 0);
	assert_fres(&ra->allocated, 5500, GI + 256.0 * (1 << 20));
	assert_dbl(ra->share, 0.25);
	cr_assert_not(vs_ssn_allocatable(ssn, a1, big), "A would pass its 6 cpu");
	vs_stmt_discard(stmt);
	assert_fres(&ra->allocated, 500, 256.0 * (1 << 20));
	vs_session_close(ssn);
}

Test(capacity, tree_queue_order_compares_below_the_common_ancestor)
{
	struct vs_res d = st_res(1000, 0);
	struct vs_node *n = st_node(&cl, "n", 8000, 8 * GI, 110);
	struct vs_queue *x1, *x2, *y1;

	child("root", NULL, NULL, NULL, NULL);
	child("x", "root", &d, NULL, NULL);
	child("y", "root", &d, NULL, NULL);
	x1 = child("x1", "x", &d, NULL, NULL);
	x2 = child("x2", "x", &d, NULL, NULL);
	y1 = child("y1", "y", &d, NULL, NULL);
	job("jx1", "x1", VS_PG_RUNNING);
	job("jx2", "x2", VS_PG_INQUEUE);
	job("jy1", "y1", VS_PG_RUNNING);
	task("a", "jx1", 900, 0, VS_TASK_RUNNING, n);
	task("b", "jy1", 300, 0, VS_TASK_RUNNING, n);
	st_open(&sched, &cl, conf_tree, &ssn);

	/* x1 (0.9) against y1 (0.3): through x (0.9) and y (0.3) */
	cr_assert_gt(vs_ssn_queue_order(ssn, x1, y1), 0);
	/* x2 (0) against y1: through x, which holds more than y */
	cr_assert_gt(vs_ssn_queue_order(ssn, x2, y1), 0);
	/* siblings: themselves */
	cr_assert_lt(vs_ssn_queue_order(ssn, x2, x1), 0);
	/* a victim's queue closer to the reclaimer's comes first */
	cr_assert_lt(vs_ssn_victim_queue_order(ssn, x1, y1, x2), 0);
	vs_session_close(ssn);
}

/* A tree capacity cannot use: it refuses everything and orders nothing. */
static void assert_not_ready(struct vs_queue *q, struct vs_job *j, struct vs_task *t,
			     struct vs_queue *other)
{
	cr_assert_not(vs_ssn_allocatable(ssn, q, t));
	cr_assert_not(vs_ssn_preemptive(ssn, q, t));
	cr_assert_not(vs_ssn_job_enqueueable(ssn, j));
	/* no QueueOrder: creation order decides */
	cr_assert_lt(vs_ssn_queue_order(ssn, other, q), 0);
}

Test(capacity, tree_with_a_job_above_a_leaf_is_refused)
{
	struct vs_res min = st_res(1000, 0), d = st_res(1000, 0);
	struct vs_queue *first, *mid;
	struct vs_job_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_task *t;
	struct vs_job *j;

	st_node(&cl, "n", 8000, 8 * GI, 110);
	child("root", NULL, NULL, NULL, NULL);
	first = child("first", "root", NULL, NULL, NULL);
	mid = child("mid", "root", &d, NULL, NULL);
	child("leaf", "mid", NULL, NULL, NULL);
	vs_job_spec_init(&spec, "ns", "j");
	spec.queue = "mid";
	spec.min_member = 1;
	spec.min_resources = min;
	spec.has_min_resources = true;
	cr_assert_eq(vs_job_add(&cl, &spec, &j, &e), 0, "%s", e.msg);
	t = task("t", "j", 1000, 0, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_tree, &ssn);
	assert_not_ready(mid, j, t, first);
	vs_session_close(ssn);
}

Test(capacity, tree_without_root_is_refused)
{
	struct vs_queue *q, *other;
	struct vs_task *t;
	struct vs_job *j;

	st_node(&cl, "n", 8000, 8 * GI, 110);
	other = child("other", NULL, NULL, NULL, NULL);
	q = child("q", NULL, NULL, NULL, NULL);
	j = job("j", "q", VS_PG_PENDING);
	t = task("t", "j", 1000, 0, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_tree, &ssn);
	/* a job without minResources is admitted without asking: only the queue check */
	cr_assert_not(vs_ssn_allocatable(ssn, q, t));
	cr_assert_lt(vs_ssn_queue_order(ssn, other, q), 0);
	(void)j;
	vs_session_close(ssn);
}

Test(capacity, tree_with_a_missing_parent_is_refused)
{
	struct vs_queue *q, *other;
	struct vs_task *t;

	st_node(&cl, "n", 8000, 8 * GI, 110);
	child("root", NULL, NULL, NULL, NULL);
	other = child("other", "root", NULL, NULL, NULL);
	q = child("q", "nowhere", NULL, NULL, NULL);
	job("j", "q", VS_PG_INQUEUE);
	t = task("t", "j", 1000, 0, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_tree, &ssn);
	cr_assert_not(vs_ssn_allocatable(ssn, q, t));
	cr_assert_lt(vs_ssn_queue_order(ssn, other, q), 0);
	vs_session_close(ssn);
}

Test(capacity, tree_with_a_cycle_is_refused)
{
	struct vs_queue *x, *other;
	struct vs_task *t;

	st_node(&cl, "n", 8000, 8 * GI, 110);
	child("root", NULL, NULL, NULL, NULL);
	other = child("other", "root", NULL, NULL, NULL);
	x = child("x", "y", NULL, NULL, NULL);
	child("y", "x", NULL, NULL, NULL);
	job("j", "x", VS_PG_INQUEUE);
	t = task("t", "j", 1000, 0, VS_TASK_PENDING, NULL);
	st_open(&sched, &cl, conf_tree, &ssn);
	cr_assert_not(vs_ssn_allocatable(ssn, x, t));
	cr_assert_lt(vs_ssn_queue_order(ssn, other, x), 0);
	vs_session_close(ssn);
}

/* ---- configuration ---- */

static int load(const char *text, struct vs_err *e)
{
	struct vs_conf_names names;
	struct vs_conf *conf;

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, NULL), 0);
	return vs_sched_init(&sched, &cl, vs_test_registry(), conf, e);
}

Test(capacity, arguments_are_typed_at_load)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(load("actions: allocate\ntiers:\n- plugins:\n  - name: capacity\n"
			  "    arguments:\n      ancestorReclaimLevel: one\n", &e), -EINVAL);
	cr_assert(strstr(e.msg, "t.conf:6: argument \"ancestorReclaimLevel\""), "%s", e.msg);
}

Test(capacity, negative_ancestor_reclaim_level_is_refused)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(load("actions: allocate\ntiers:\n- plugins:\n  - name: capacity\n"
			  "    arguments: {ancestorReclaimLevel: -1}\n", &e), -EINVAL);
	cr_assert_str_eq(e.msg, "plugin capacity: t.conf:5: ancestorReclaimLevel -1 cannot be "
			 "negative");
}

Test(capacity, dra_switches_must_be_booleans)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(load("actions: allocate\ntiers:\n- plugins:\n  - name: capacity\n"
			  "    arguments: {capacity.DynamicResourceAllocationEnable: 2}\n", &e),
		     -EINVAL);
	cr_assert(strstr(e.msg, "t.conf:5: argument \"capacity.DynamicResourceAllocationEnable\""),
		  "%s", e.msg);
}

Test(capacity, known_arguments_are_accepted)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(load("actions: allocate\ntiers:\n- plugins:\n  - name: capacity\n"
			  "    arguments: {ancestorReclaimLevel: 2, "
			  "capacity.DynamicResourceAllocationEnable: true, "
			  "capacity.DRAConsumableCapacityEnable: \"false\"}\n", &e),
		     0, "%s", e.msg);
}

/* ---- the comparisons capacity added to core/fres.c ---- */

static struct vs_fres fres(double cpu, double mem, int dim, double v)
{
	struct vs_fres f;

	vs_fres_clear(&f);
	f.v[VS_RES_CPU] = cpu;
	f.v[VS_RES_MEMORY] = mem;
	if (dim >= 0)
		vs_fres_set(&f, (unsigned int)dim, v);
	return f;
}

/* The examples in the comment of Volcano's GreaterPartlyWithRelevantDimensions. */
Test(capacity, gt_partly_relevant_looks_only_at_what_rr_has)
{
	int gpu = vs_cluster_dim_get(&cl, "nvidia.com/gpu", 14, NULL);
	struct vs_fres r, rr, req;

	cr_assert_geq(gpu, 0);
	r = fres(0, 0, gpu, 2);
	req = fres(0, 0, gpu, 1);
	rr = fres(0, 0, -1, 0);
	cr_assert_eq(vs_fres_gt_partly_relevant(&r, &rr, &req), 0, "rr has no gpu");
	rr = fres(0, 0, gpu, 0);
	cr_assert_eq(vs_fres_gt_partly_relevant(&r, &rr, &req), VS_RES_BIT(gpu), "gpu 0 is had");

	r = fres(4, 0, -1, 0);
	req = fres(2, 0, -1, 0);
	rr = fres(0, 0, -1, 0);
	cr_assert_eq(vs_fres_gt_partly_relevant(&r, &rr, &req), 0, "rr has zero cpu");
	rr = fres(0.1, 0, -1, 0);
	cr_assert_eq(vs_fres_gt_partly_relevant(&r, &rr, &req), VS_RES_BIT(VS_RES_CPU));

	r = fres(4, 8192, gpu, 2);
	rr = fres(2, 8192, gpu, 1);
	req = fres(0, 0, gpu, 1);
	cr_assert_eq(vs_fres_gt_partly_relevant(&r, &rr, &req), VS_RES_BIT(gpu));
	req = fres(2, 0, gpu, 1);
	cr_assert_eq(vs_fres_gt_partly_relevant(&r, &rr, &req),
		     VS_RES_BIT(VS_RES_CPU) | VS_RES_BIT(gpu));
	req = fres(0, 4096, gpu, 0);
	cr_assert_eq(vs_fres_gt_partly_relevant(&r, &rr, &req), 0);
}

Test(capacity, le_partly_zero_filtered_ignores_dimensions_neither_holds)
{
	int gpu = vs_cluster_dim_get(&cl, "nvidia.com/gpu", 14, NULL);
	struct vs_fres r, rr, req;

	cr_assert_geq(gpu, 0);
	/* over in cpu, and the gpu asked for is held by neither: no */
	r = fres(3000, 0, -1, 0);
	rr = fres(2000, 0, -1, 0);
	req = fres(1000, 0, gpu, 1000);
	cr_assert_eq(vs_fres_le_partly_zero_filtered(&r, &rr, &req), 0);
	/* the gpu held by rr only: at or below it */
	rr = fres(2000, 0, gpu, 1000);
	cr_assert_eq(vs_fres_le_partly_zero_filtered(&r, &rr, &req), VS_RES_BIT(gpu));
	/* within 0.1 counts as equal; pods never count */
	r = fres(2000.05, 0, VS_RES_PODS, 5);
	rr = fres(2000, 0, VS_RES_PODS, 10);
	req = fres(1000, 0, VS_RES_PODS, 1);
	cr_assert_eq(vs_fres_le_partly_zero_filtered(&r, &rr, &req), VS_RES_BIT(VS_RES_CPU));
	req = fres(0, 0, VS_RES_PODS, 1);
	cr_assert_eq(vs_fres_le_partly_zero_filtered(&r, &rr, &req), 0);
}

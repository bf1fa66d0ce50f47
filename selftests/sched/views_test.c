// SPDX-License-Identifier: Apache-2.0
/*
 * Sparse sessions against full ones: a session leaves out the jobs that
 * rest (core/rest.h) and reads their part of the queues' attributes from
 * the queues' sums; it must decide exactly as a session that sees every
 * job. Random clusters (queues of several weights, gang jobs with and
 * without minResources in every phase, running load) are built twice from
 * one seed and scheduled for six cycles, once as usual and once with
 * sched.full_views; between cycles the same things happen to both (binds
 * confirmed, tasks running, finishing and deleted, new jobs arriving). Every
 * bind and pipeline in order, every PodGroup phase and condition must be
 * the same, the invariants (the resting sums among them) must hold after
 * every cycle, and the sparse run must have left jobs out (else the test
 * proves nothing).
 *
 * VIEWS_SEEDS in the environment runs more seeds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testreg.h"
#include "bind/bind.h"
#include "core/log.h"
#include "schedtest.h"
#include "tracetest.h"

#define NAME	32
#define TRACE	(512u << 10)
#define CYCLES	6

struct run {
	struct vs_cluster cl;
	struct vs_sched sched;
	struct st_trace t;		/* of trace[] */
	char trace[TRACE];
	u32 left_out;			/* sessions' jobs left out, summed */
	u32 next_job;
};

static u32 nr_queues;

/* A scheduler on the built-in configuration (Volcano's default). */
static void start(struct vs_sched *sched, struct vs_cluster *cl)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text), "default",
				   &names, VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(sched, cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
}

/* A job of 1 to 6 tasks of one request, some Running already (@start), maybe with minResources. */
static void add_job(struct run *r, bool start)
{
	static const s64 cpus[] = { 500, 1000, 2000, 3000 };
	static const s64 mems[] = { 1LL << 30, 2LL << 30, 4LL << 30 };
	static const enum vs_pg_phase phases[] = { VS_PG_PENDING, VS_PG_INQUEUE, VS_PG_RUNNING };
	char jname[NAME], qname[NAME], name[NAME], node[NAME];
	struct vs_err e = { { 0 } };
	u32 nr_tasks = 1 + rnd(6), j = r->next_job++;
	s64 cpu = cpus[rnd(4)], mem = mems[rnd(3)];
	bool running = start && !rnd(3);
	struct vs_job_spec js;
	struct vs_job *job;

	snprintf(jname, sizeof(jname), "j%u", j);
	snprintf(qname, sizeof(qname), "q%u", rnd(nr_queues));
	vs_job_spec_init(&js, "ns", jname);
	js.queue = qname;
	js.min_member = 1 + rnd(nr_tasks);
	js.phase = running ? VS_PG_RUNNING : phases[rnd(2)];
	if (rnd(2)) {
		js.has_min_resources = true;
		js.min_resources = st_res(cpu * js.min_member, mem * (s64)rnd(js.min_member + 1));
	}
	cr_assert_eq(vs_job_add(&r->cl, &js, &job, &e), 0, "%s", e.msg);
	for (u32 t = 0; t < nr_tasks; t++) {
		struct vs_task_spec ts;
		struct vs_task *task;

		snprintf(name, sizeof(name), "j%u-%u", j, t);
		vs_task_spec_init(&ts, "ns", name, jname);
		ts.req = st_res(cpu, mem);
		ts.priority = (s32)rnd(3) * 10;
		if (running) {
			snprintf(node, sizeof(node), "n%u", rnd(r->cl.nr_nodes));
			ts.node = node;
			ts.status = VS_TASK_RUNNING;
			if (!vs_task_add(&r->cl, &ts, &task, &e))
				continue;
			vs_err_clear(&e);
			ts.node = NULL;
			ts.status = VS_TASK_PENDING;
		}
		cr_assert_eq(vs_task_add(&r->cl, &ts, &task, &e), 0, "%s", e.msg);
	}
}

static void build(struct run *r, unsigned long long seed)
{
	struct vs_err e = { { 0 } };
	char name[NAME];
	u32 nr_nodes, nr_jobs;

	rnd_state = seed;
	r->t = (struct st_trace){ .buf = r->trace, .cap = TRACE };
	cr_assert_eq(vs_cluster_init(&r->cl), 0);
	nr_nodes = 3 + rnd(20);
	for (u32 i = 0; i < nr_nodes; i++) {
		struct vs_node_spec spec;
		struct vs_node *n;

		snprintf(name, sizeof(name), "n%u", i);
		vs_node_spec_init(&spec, name);
		spec.allocatable = st_res(4000 * (1 + rnd(4)), (8LL << 30) * (1 + rnd(4)));
		vs_res_set(&spec.allocatable, VS_RES_PODS, 5 + rnd(20));
		cr_assert_eq(vs_node_add(&r->cl, &spec, &n, &e), 0, "%s", e.msg);
	}
	nr_queues = 1 + rnd(3);
	for (u32 q = 0; q < nr_queues; q++) {
		struct vs_queue_spec spec;
		struct vs_queue *queue;

		snprintf(name, sizeof(name), "q%u", q);
		vs_queue_spec_init(&spec, name);
		spec.weight = 1 + rnd(4);
		cr_assert_eq(vs_queue_add(&r->cl, &spec, &queue, &e), 0, "%s", e.msg);
	}
	nr_jobs = 2 + rnd(30);
	for (u32 j = 0; j < nr_jobs; j++)
		add_job(r, true);
	cr_assert_eq(vs_cluster_check(&r->cl, &e), 0, "%s", e.msg);
}

/* What happens between cycles: the same to both runs, from the same draws. */
static void world(struct run *r, unsigned long long seed)
{
	struct vs_err e = { { 0 } };
	struct vs_job *job;
	struct vs_task *t, *tmp;
	u32 arrivals;

	rnd_state = seed * 1000 + r->t.cycle;
	list_for_each_entry(job, &r->cl.jobs, list) {
		list_for_each_entry_safe(t, tmp, &job->by_status[VS_TASK_BOUND], status_node)
			if (rnd(2))
				cr_assert_eq(vs_task_set_status(&r->cl, t, VS_TASK_RUNNING, &e), 0,
					     "%s", e.msg);
		list_for_each_entry_safe(t, tmp, &job->by_status[VS_TASK_BINDING], status_node)
			cr_assert_eq(vs_bind_succeeded(&r->cl, t, &e), 0, "%s", e.msg);
		list_for_each_entry_safe(t, tmp, &job->by_status[VS_TASK_RUNNING], status_node)
			if (!rnd(5))
				cr_assert_eq(vs_task_set_status(&r->cl, t, VS_TASK_SUCCEEDED, &e), 0,
					     "%s", e.msg);
		list_for_each_entry_safe(t, tmp, &job->by_status[VS_TASK_SUCCEEDED], status_node)
			if (!rnd(4))
				vs_task_del(&r->cl, t);
	}
	for (arrivals = rnd(4); arrivals; arrivals--)
		add_job(r, false);
}

static void schedule(struct run *r, unsigned long long seed, bool full)
{
	struct vs_err e = { { 0 } };
	struct vs_job *job;

	start(&r->sched, &r->cl);
	r->sched.full_views = full;
	r->sched.sink = (struct vs_decision_sink){
		.bind = st_trace_bind, .pipeline = st_trace_pipeline, .ctx = &r->t,
	};
	for (r->t.cycle = 1; r->t.cycle <= CYCLES; r->t.cycle++) {
		u32 awake = r->cl.nr_active_jobs;

		cr_assert_eq(vs_sched_run_cycle(&r->sched, &e), 0, "%s", e.msg);
		cr_assert_eq(vs_cluster_check(&r->cl, &e), 0, "seed %llu cycle %u: %s", seed,
			     r->t.cycle, e.msg);
		if (!full)
			r->left_out += r->cl.nr_jobs - awake;	/* what the session did not see */
		list_for_each_entry(job, &r->cl.jobs, list) {
			r->t.len += (size_t)snprintf(r->trace + r->t.len, TRACE - r->t.len,
						   "cycle %u: podgroup %s %s", r->t.cycle, job->name,
						   vs_pg_phase_name(job->phase));
			for (int c = 0; c < VS_PG_COND_NR; c++)
				if (job->cond[c].set)
					r->t.len += (size_t)snprintf(r->trace + r->t.len,
								   TRACE - r->t.len, " [%s %d %s %s]",
								   vs_pg_cond_type_name(c),
								   job->cond[c].status,
								   vs_pg_cond_reason(&job->cond[c]),
								   vs_pg_cond_message(&job->cond[c]));
			r->t.len += (size_t)snprintf(r->trace + r->t.len, TRACE - r->t.len, "\n");
			cr_assert_lt(r->t.len, TRACE - 1, "the trace is full");
		}
		world(r, seed);
	}
}

static void release(struct run *r)
{
	vs_sched_destroy(&r->sched);
	vs_cluster_destroy(&r->cl);
}

static struct run sparse, full;

static void setup(void)
{
	vs_log_file = tmpfile();	/* the plugins' warnings */
}

static void teardown(void)
{
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
}

TestSuite(views, .init = setup, .fini = teardown, .timeout = 300);

Test(views, sparse_sessions_decide_as_full_ones)
{
	const char *env = getenv("VIEWS_SEEDS");
	u32 seeds = env ? (u32)strtoul(env, NULL, 10) : 200;
	u64 left_out = 0;

	for (u32 s = 1; s <= seeds; s++) {
		memset(&sparse, 0, sizeof(sparse));
		memset(&full, 0, sizeof(full));
		build(&sparse, s);
		build(&full, s);
		schedule(&sparse, s, false);
		schedule(&full, s, true);
		cr_assert_str_eq(sparse.trace, full.trace, "seed %u: the sparse session decided "
				 "otherwise", s);
		left_out += sparse.left_out;
		release(&sparse);
		release(&full);
	}
	cr_assert_gt(left_out, seeds, "sparse sessions left %llu jobs out in %u clusters",
		     (unsigned long long)left_out, seeds);
}

/* A job with nothing to do rests; a change to it wakes it before it is made. */
Test(views, a_job_rests_until_it_changes)
{
	struct vs_cluster cl;
	struct vs_sched sched;
	struct vs_err e = { { 0 } };
	struct vs_job *job;
	struct vs_task *task;

	cr_assert_eq(vs_cluster_init(&cl), 0);
	st_node(&cl, "n1", 8000, 16LL << 30, 10);
	st_queue(&cl, "default");
	job = st_job(&cl, "ns", "pg", "default", 1, VS_PG_INQUEUE);
	task = st_task(&cl, "ns", "t1", "pg", 1000, 1LL << 30);
	start(&sched, &cl);

	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert_eq(task->status, VS_TASK_BINDING);
	/* waiting for its bind, it has nothing for a session to do */
	cr_assert(job->resting, "a job with nothing pending does not rest");
	cr_assert_eq(job->sidx, VS_SIDX_NONE);
	cr_assert_eq(vs_bind_succeeded(&cl, task, &e), 0, "%s", e.msg);
	cr_assert_not(job->resting, "the bind's result did not wake its job");
	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert(job->resting, "a running job with nothing pending does not rest");
	cr_assert_eq(job->phase, VS_PG_RUNNING);
	cr_assert_eq(cl.nr_active_jobs, 0);
	cr_assert_eq(job->queue->rest.nr_jobs, 1);
	cr_assert_eq(vs_sum_get(&job->queue->rest.allocated.s, VS_RES_CPU), 1000);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);

	/* its task finishes: it wakes, and the session sees it complete */
	cr_assert_eq(vs_task_set_status(&cl, task, VS_TASK_SUCCEEDED, &e), 0, "%s", e.msg);
	cr_assert_not(job->resting);
	cr_assert_eq(job->queue->rest.nr_jobs, 0);
	cr_assert_eq(vs_sum_get(&job->queue->rest.allocated.s, VS_RES_CPU), 0);
	cr_assert_eq(cl.nr_active_jobs, 1);
	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert_eq(job->phase, VS_PG_COMPLETED);
	cr_assert(job->resting);

	/* a new task wakes it */
	task = st_task(&cl, "ns", "t2", "pg", 1000, 1LL << 30);
	cr_assert_not(job->resting);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

/*
 * The resting sums stay exact beside a huge job: 4 EiB resting with
 * 1000003 bytes in another job of the queue; the huge one goes, and the
 * sum over the one left resting must be its 1000003 (a float64 sum kept
 * 1000448).
 */
Test(views, resting_sums_stay_exact_beside_a_huge_job)
{
	static const struct { const char *pg, *task; s64 mem; } jobs[] = {
		{ "small", "small-0", 1000003 },
		{ "huge", "huge-0", 4LL << 60 },
	};
	struct vs_task *tasks[2];
	struct vs_cluster cl;
	struct vs_sched sched;
	struct vs_err e = { { 0 } };
	struct vs_queue_spec qs;
	struct vs_job_spec js;
	struct vs_task_spec ts;

	cr_assert_eq(vs_cluster_init(&cl), 0);
	st_node(&cl, "n1", 8000, 7LL << 60, 110);
	vs_queue_spec_init(&qs, "q1");
	cr_assert_eq(vs_queue_add(&cl, &qs, NULL, &e), 0, "%s", e.msg);
	for (int i = 0; i < 2; i++) {
		vs_job_spec_init(&js, "ns", jobs[i].pg);
		js.queue = "q1";
		js.phase = VS_PG_RUNNING;
		cr_assert_eq(vs_job_add(&cl, &js, NULL, &e), 0, "%s", e.msg);
		vs_task_spec_init(&ts, "ns", jobs[i].task, jobs[i].pg);
		ts.req = st_res(0, jobs[i].mem);
		ts.status = VS_TASK_RUNNING;
		ts.node = "n1";
		cr_assert_eq(vs_task_add(&cl, &ts, &tasks[i], &e), 0, "%s", e.msg);
	}
	start(&sched, &cl);
	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert(tasks[0]->job->resting && tasks[1]->job->resting, "the jobs do not rest");

	vs_task_del(&cl, tasks[1]);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sum_get(&tasks[0]->job->queue->rest.allocated.s, VS_RES_MEMORY), 1000003);
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * "vsbench sim": the scheduler in a cluster that lives, in virtual time.
 *
 * Time moves by the scheduling period. At each step, in this order: the
 * binds of the step before are confirmed (Bound, then Running: the task
 * starts and its run time begins), tasks whose run time is over finish
 * (Succeeded, through vs_task_set_status() and the job controller, so
 * node and queue accounting follow), evicted tasks whose grace period is
 * over leave their node and are submitted again, Pending (their owner
 * makes the pod again), the jobs due by now arrive (PodGroups and tasks
 * through the object model), and one scheduling cycle runs, timed with
 * CLOCK_MONOTONIC: that wall-clock time is the figure a steady state is
 * judged by. The session's job updater marks a PodGroup Completed when
 * its tasks have all finished; it is then deleted with its tasks, as a
 * user or a TTL controller would, so a long run keeps the size of its
 * steady state.
 *
 * Jobs come from a preset (the generator's gangs, as "vsbench run" draws
 * them, arriving as a Poisson process, with exponential run times) or
 * from a trace (simtrace.c). Everything random comes from the generator's
 * seeded RNG, and events of one time are handled in the order they were
 * made, so a seed and a trace always give the same decisions; their hash
 * is reported to compare runs. Times are kept in whole microseconds.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controllers/controllers.h"
#include "core/names.h"
#include "harness/bench.h"
#include "plugins/proportion.h"
#include "registry/builtin.h"
#include "sched/session.h"

#define USEC		1000000ULL
#define SLOW_CYCLE	0.1		/* seconds: the steady-state target */

struct sim_preset {
	const char *name;
	unsigned long nodes;
	unsigned long queues;		/* weights 1, 2, 3, 4, 1, ... */
	unsigned long start_tasks;	/* running at start, in gangs */
	unsigned long rate;		/* tasks arriving per virtual second */
	unsigned long mean_s;		/* mean run time */
	unsigned long duration_s;	/* virtual time simulated */
	const char *note;
};

/*
 * Load at start is what arrivals keep up (rate x mean run time: Little's
 * law), so the cluster starts in its steady state: about 56% of the cpu.
 */
static const struct sim_preset presets[] = {
	{ .name = "sim-tiny", .nodes = 200, .queues = 4, .start_tasks = 4000, .rate = 400,
	  .mean_s = 10, .duration_s = 30, .note = "for tests" },
	{ .name = "steady-10k", .nodes = 10000, .queues = 8, .start_tasks = 200000,
	  .rate = 2000, .mean_s = 100, .duration_s = 60 },
	{ .name = "steady-50k", .nodes = 50000, .queues = 16, .start_tasks = 1000000,
	  .rate = 10000, .mean_s = 100, .duration_s = 60 },
};

struct sim_opts {
	const struct sim_preset *preset;
	const char *trace;
	unsigned long long seed;
	u64 duration_us;		/* 0: the preset's, or until a trace is done */
	u64 period_us;
	u64 grace_us;
	unsigned long nodes;		/* --trace */
	s64 node_cpu, node_memory;	/* --node-size; 0: the mixed fleet */
	const char *conf;
	bool json;
};

/* A task of the simulation: what the core does not keep. */
struct sim_task {
	u64 created;			/* submitted (again, after an eviction) */
	u32 gen;			/* bumped by an eviction: its older events are void */
};

/* A PodGroup of the simulation and its tasks, by their name's index. */
struct sim_job {
	struct hlist_node hnode;	/* sim->jobs, by pg */
	struct vs_job *pg;		/* NULL once deleted */
	struct vs_task **tasks;
	struct sim_task *st;
	u32 nr_tasks;
	u32 left;			/* tasks not finished */
	u64 duration_us;		/* every task's run time; 0: drawn per task */
	struct sim_job *next;		/* sim->all */
	struct sim_job *done_next;	/* sim->done: every task finished */
};

enum sim_event_kind { EV_END, EV_EVICTED };

struct sim_event {
	u64 at;
	u64 seq;			/* ties: the order they were made */
	struct sim_job *sj;
	u32 idx, gen;
	enum sim_event_kind kind;
};

struct sim_queue_acc {
	double deserved[2], allocated[2];	/* cpu, memory: sums over the cycles */
};

struct sim {
	const struct sim_opts *o;
	const char *prog;
	struct vs_cluster cl;
	struct vs_sched sched;
	struct vs_ctl ctl;
	struct vsbench_shape shape;
	struct vsbench_gangs gangs;
	const struct vsbench_trace *trace;
	size_t next_trace;		/* the next trace job to arrive */

	u64 now;
	double mean_us;			/* presets: mean run time */
	u64 next_arrival;		/* presets */
	unsigned long next_job;		/* presets: the generator's job number */
	double job_rate;		/* presets: jobs per microsecond */

	struct vs_htable jobs;		/* sim_job by pg */
	struct sim_job *all, *done;
	struct vsbench_binder binder;

	struct sim_event *heap;
	size_t nr_events, cap_events;
	u64 event_seq;

	double *tts;			/* seconds, one per bind */
	size_t nr_tts, cap_tts;
	double *cycle_s;
	size_t nr_cycles, cap_cycles;

	u64 hash;			/* every decision, in order */
	unsigned long jobs_arrived, tasks_arrived, tasks_at_start, running_at_start;
	unsigned long finished, evictions, evictions_done, podgroups_done;
	double util_sum[2], util_end[2];
	struct sim_queue_acc *qacc;	/* by the queue's place on cl.queues */
	u32 nr_qacc;
	bool has_deserved;		/* proportion is configured */
	bool oom;			/* a sink callback could not keep what it saw */
	struct vs_res total;
};

/* ---- options ---- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vsbench sim (--preset NAME | --trace FILE.csv [--nodes N]\n"
		"                   [--node-size CPU,MEMORY]) [--seed N] [--duration SECONDS]\n"
		"                   [--period MS] [--grace SECONDS] [--conf FILE] [--json]\n"
		"\n"
		"Simulate a living cluster in virtual time: jobs arrive, tasks run for\n"
		"their run time and finish, evicted tasks leave after a grace period;\n"
		"one scheduling cycle per period. Report utilisation, time-to-schedule\n"
		"percentiles, each queue's share against its deserved share, and the\n"
		"wall-clock time of the scheduling cycles.\n"
		"\n"
		"  -p, --preset NAME      a synthetic workload (below)\n"
		"  -T, --trace FILE       replay the jobs of a CSV trace (columns in\n"
		"                         Documentation/simulation.md)\n"
		"  -n, --nodes N          --trace: nodes of the generator's mixed fleet\n"
		"                         (default 100)\n"
		"  -N, --node-size C,M    --trace: every node of C cpu and M memory\n"
		"                         (quantities: 4,8Gi)\n"
		"  -s, --seed N           generator seed (default 1)\n"
		"  -d, --duration S       virtual seconds (default: the preset's; a trace\n"
		"                         runs until nothing is left to happen)\n"
		"  -P, --period MS        scheduling period, virtual (default 1000)\n"
		"  -g, --grace S          an evicted task's grace period (default 30)\n"
		"  -f, --conf FILE        a volcano-scheduler.conf (default: Volcano's)\n"
		"  -j, --json             one JSON object instead of the table\n"
		"  -h, --help             this text\n"
		"\n"
		"presets (the generator's nodes and gangs; Poisson arrivals; exponential\n"
		"run times, at least 1 s and at most 5 times the mean):\n");
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++) {
		const struct sim_preset *p = &presets[i];

		fprintf(out, "  %-10s %6lu nodes, %2lu queues, %7lu tasks running, %5lu tasks/s,\n"
			"             mean run time %lu s, %lu s%s%s\n", p->name, p->nodes,
			p->queues, p->start_tasks, p->rate, p->mean_s, p->duration_s,
			p->note ? "; " : "", p->note ? p->note : "");
	}
	fprintf(out, "\nSee Documentation/simulation.md.\n");
}

static void preset_names(FILE *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
		fprintf(out, "%s%s", i ? ", " : "", presets[i].name);
}

/* Seconds with up to six decimals, as whole microseconds. */
static int parse_us(const char *opt, const char *s, double min, double max, u64 *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < min || v > max) {
		fprintf(stderr, "vsbench sim: --%s: \"%s\" is not a number of seconds from %g "
			"to %g\n", opt, s, min, max);
		return -1;
	}
	*out = (u64)llround(v * (double)USEC);
	return 0;
}

/* CPU,MEMORY as two quantities. */
static int parse_node_size(const char *s, struct sim_opts *o)
{
	struct vs_err err = { { 0 } };
	const char *comma = strchr(s, ',');

	if (!comma) {
		fprintf(stderr, "vsbench sim: --node-size: \"%s\" is not CPU,MEMORY (4,8Gi)\n", s);
		return -1;
	}
	if (vs_quantity_parse(s, (size_t)(comma - s), 3, &o->node_cpu, &err) ||
	    vs_quantity_parse(comma + 1, strlen(comma + 1), 0, &o->node_memory, &err)) {
		fprintf(stderr, "vsbench sim: --node-size: %s\n", err.msg);
		return -1;
	}
	if (!o->node_cpu || !o->node_memory) {
		fprintf(stderr, "vsbench sim: --node-size: \"%s\": a node of no cpu or no "
			"memory holds nothing\n", s);
		return -1;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct sim_opts *o)
{
	static const struct option longopts[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "trace", required_argument, NULL, 'T' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "node-size", required_argument, NULL, 'N' },
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "period", required_argument, NULL, 'P' },
		{ "grace", required_argument, NULL, 'g' },
		{ "conf", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool nodes_given = false;
	unsigned long v;
	int c;

	*o = (struct sim_opts){ .seed = 1, .period_us = USEC, .grace_us = 30 * USEC,
				.nodes = 100 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:T:n:N:s:d:P:g:f:jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->preset = NULL;
			for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
				if (!strcmp(presets[i].name, optarg))
					o->preset = &presets[i];
			if (!o->preset) {
				fprintf(stderr, "vsbench sim: --preset: unknown preset \"%s\" (",
					optarg);
				preset_names(stderr);
				fprintf(stderr, ")\n");
				return -1;
			}
			break;
		case 'T':
			o->trace = optarg;
			break;
		case 'n':
			if (vsbench_parse_ulong("sim", "nodes", optarg, 1, 1000000, &o->nodes))
				return -1;
			nodes_given = true;
			break;
		case 'N':
			if (parse_node_size(optarg, o))
				return -1;
			break;
		case 's':
			/* JSON integers are signed 64-bit */
			if (vsbench_parse_ulong("sim", "seed", optarg, 0, LLONG_MAX, &v))
				return -1;
			o->seed = v;
			break;
		case 'd':
			if (parse_us("duration", optarg, 1e-3, 1e7, &o->duration_us))
				return -1;
			break;
		case 'P':
			if (vsbench_parse_ulong("sim", "period", optarg, 1, 3600000, &v))
				return -1;
			o->period_us = v * 1000;
			break;
		case 'g':
			if (parse_us("grace", optarg, 0, 1e6, &o->grace_us))
				return -1;
			break;
		case 'f':
			o->conf = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "vsbench sim: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	if (!o->preset == !o->trace) {
		fprintf(stderr, "vsbench sim: one of --preset (");
		preset_names(stderr);
		fprintf(stderr, ") or --trace FILE.csv is required\n");
		return -1;
	}
	if (o->preset && (nodes_given || o->node_cpu)) {
		fprintf(stderr, "vsbench sim: --%s is for --trace: a preset has its nodes\n",
			nodes_given ? "nodes" : "node-size");
		return -1;
	}
	return 0;
}

/* ---- the jobs of the simulation, found by PodGroup ---- */

static u32 hash_ptr(const void *p)
{
	return (u32)(((uintptr_t)p * 0x9e3779b97f4a7c15ULL) >> 32);
}

static u32 sim_job_hash(const struct hlist_node *node)
{
	return hash_ptr(hlist_entry(node, struct sim_job, hnode)->pg);
}

static struct sim_job *sim_job_find(const struct sim *s, const struct vs_job *pg)
{
	struct sim_job *sj;

	hlist_for_each_entry(sj, vs_htable_bucket(&s->jobs, hash_ptr(pg)), hnode)
		if (sj->pg == pg)
			return sj;
	return NULL;
}

/* The task of @sj behind @task: its name ends in its index. */
static struct sim_task *sim_task_of(const struct sim *s, const struct vs_task *task,
				    struct sim_job **sjp, u32 *idx)
{
	struct sim_job *sj = sim_job_find(s, task->job);

	if (!sj || task->name_index < 0 || (u64)task->name_index >= sj->nr_tasks ||
	    sj->tasks[task->name_index] != task)
		return NULL;
	*sjp = sj;
	*idx = (u32)task->name_index;
	return &sj->st[*idx];
}

/* Track @pg, whose tasks are submitted at @created. */
static struct sim_job *sim_job_track(struct sim *s, struct vs_job *pg, u64 created,
				     u64 duration_us)
{
	struct sim_job *sj = calloc(1, sizeof(*sj));
	struct vs_task *task;

	if (!sj)
		return NULL;
	sj->tasks = calloc(pg->nr_tasks, sizeof(*sj->tasks));
	sj->st = calloc(pg->nr_tasks, sizeof(*sj->st));
	if (!sj->tasks || !sj->st) {
		free(sj->tasks);
		free(sj->st);
		free(sj);
		return NULL;
	}
	sj->pg = pg;
	sj->nr_tasks = pg->nr_tasks;
	sj->left = pg->nr_tasks;
	sj->duration_us = duration_us;
	list_for_each_entry(task, &pg->tasks, job_node) {
		s64 i = task->name_index;

		if (i < 0 || i >= (s64)sj->nr_tasks || sj->tasks[i])
			continue;	/* not the generator's or the trace's: never the case */
		sj->tasks[i] = task;
		sj->st[i].created = created;
	}
	sj->next = s->all;
	s->all = sj;
	vs_htable_add(&s->jobs, &sj->hnode, hash_ptr(pg));
	return sj;
}

/* ---- events, in a binary heap by (time, creation) ---- */

static bool ev_before(const struct sim_event *a, const struct sim_event *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

static int ev_push(struct sim *s, u64 at, enum sim_event_kind kind, struct sim_job *sj, u32 idx)
{
	struct sim_event e = { .at = at, .seq = s->event_seq++, .sj = sj, .idx = idx,
			       .gen = sj->st[idx].gen, .kind = kind };
	size_t i;

	if (s->nr_events == s->cap_events) {
		size_t cap = s->cap_events ? 2 * s->cap_events : 4096;
		struct sim_event *h = realloc(s->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		s->heap = h;
		s->cap_events = cap;
	}
	for (i = s->nr_events++; i && ev_before(&e, &s->heap[(i - 1) / 2]); i = (i - 1) / 2)
		s->heap[i] = s->heap[(i - 1) / 2];
	s->heap[i] = e;
	return 0;
}

static struct sim_event ev_pop(struct sim *s)
{
	struct sim_event top = s->heap[0], last = s->heap[--s->nr_events];
	size_t i = 0, n = s->nr_events;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_before(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_before(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
	return top;
}

static int push_double(double **v, size_t *nr, size_t *cap, double x)
{
	if (*nr == *cap) {
		size_t c = *cap ? 2 * *cap : 4096;
		double *n = realloc(*v, c * sizeof(*n));

		if (!n)
			return -ENOMEM;
		*v = n;
		*cap = c;
	}
	(*v)[(*nr)++] = x;
	return 0;
}

/* ---- what the cluster does ---- */

/* A preset's run time: exponential, at least 1 s, at most 5 times the mean. */
static u64 draw_run_time(const struct sim *s)
{
	double d = -s->mean_us * log(vsbench_rnd_unit());

	if (d < (double)USEC)
		d = (double)USEC;
	if (d > 5 * s->mean_us)
		d = 5 * s->mean_us;
	return (u64)llround(d);
}

static u64 run_time(const struct sim *s, const struct sim_job *sj)
{
	return sj->duration_us ? sj->duration_us : draw_run_time(s);
}

static void sim_bind(void *ctx, struct vs_task *task, struct vs_node *node)
{
	struct sim *s = ctx;
	struct sim_task *st;
	struct sim_job *sj;
	u32 idx;

	vsbench_fold(&s->hash, task->ns);
	vsbench_fold(&s->hash, task->name);
	vsbench_fold(&s->hash, node->name);
	st = sim_task_of(s, task, &sj, &idx);
	if (st && push_double(&s->tts, &s->nr_tts, &s->cap_tts,
			      (double)(s->now - st->created) / (double)USEC))
		s->oom = true;
	vsbench_binder_bind(&s->binder, task, node);
}

static void sim_evict(void *ctx, struct vs_task *task, const char *reason)
{
	struct sim *s = ctx;
	struct sim_task *st;
	struct sim_job *sj;
	u32 idx;

	(void)reason;
	vsbench_fold(&s->hash, "evict");
	vsbench_fold(&s->hash, task->ns);
	vsbench_fold(&s->hash, task->name);
	s->evictions++;
	st = sim_task_of(s, task, &sj, &idx);
	if (!st)
		return;
	st->gen++;		/* its run ends otherwise now */
	if (ev_push(s, s->now + s->o->grace_us, EV_EVICTED, sj, idx))
		s->oom = true;
}

/* The binds of the last cycle run: each task starts now. */
static int start_bound(struct sim *s)
{
	struct vsbench_binder *b = &s->binder;

	for (size_t i = 0; i < b->nr; i++) {
		struct sim_task *st;
		struct sim_job *sj;
		u32 idx;

		if (b->bound[i]->status != VS_TASK_BINDING)
			continue;
		st = sim_task_of(s, b->bound[i], &sj, &idx);
		if (st && ev_push(s, s->now + run_time(s, sj), EV_END, sj, idx))
			return -ENOMEM;
	}
	vsbench_binder_confirm(b, &s->cl);
	return 0;
}

static int finish(struct sim *s, struct sim_job *sj, u32 idx, struct vs_err *err)
{
	struct vs_task *task = sj->tasks[idx];
	enum vs_task_status old = task->status;
	int ret;

	if (old != VS_TASK_RUNNING)
		return 0;
	ret = vs_task_set_status(&s->cl, task, VS_TASK_SUCCEEDED, err);
	if (!ret)
		ret = vs_ctl_task_updated(&s->ctl, task, old, 0, err);
	if (ret)
		return ret;
	s->finished++;
	if (!--sj->left) {
		sj->done_next = s->done;
		s->done = sj;
	}
	return 0;
}

/* The pod of an evicted task is gone; its owner makes it again, Pending. */
static int resubmit(struct sim *s, struct sim_job *sj, u32 idx, struct vs_err *err)
{
	struct vs_task *task = sj->tasks[idx];
	char ns[VS_DNS_SUBDOMAIN_MAX + 1], name[VS_DNS_SUBDOMAIN_MAX + 1];
	char job[VS_DNS_SUBDOMAIN_MAX + 1], role[VS_DNS_SUBDOMAIN_MAX + 1];
	char pc[VS_DNS_SUBDOMAIN_MAX + 1];
	struct vs_task_spec ts;
	int ret;

	if (task->status != VS_TASK_RELEASING)
		return 0;
	snprintf(ns, sizeof(ns), "%s", task->ns);
	snprintf(name, sizeof(name), "%s", task->name);
	snprintf(job, sizeof(job), "%s", task->job->name);
	snprintf(role, sizeof(role), "%s", task->role);
	snprintf(pc, sizeof(pc), "%s", task->priority_class ? task->priority_class : "");
	vs_task_spec_init(&ts, ns, name, job);
	ts.req = *task->req;	/* the pod it counts is counted again */
	vs_res_set(&ts.req, VS_RES_PODS, vs_res_get(&ts.req, VS_RES_PODS) - 1);
	ts.role = role;
	ts.priority = task->priority;
	ts.priority_class = *pc ? pc : NULL;
	ts.preemptable = task->preemptable;
	ret = vs_ctl_task_del(&s->ctl, task, err);
	if (!ret)
		ret = vs_task_add(&s->cl, &ts, &sj->tasks[idx], err);
	if (ret)
		return ret;
	sj->st[idx].created = s->now;
	s->evictions_done++;
	return 0;
}

static int run_events(struct sim *s, struct vs_err *err)
{
	while (s->nr_events && s->heap[0].at <= s->now) {
		struct sim_event e = ev_pop(s);
		int ret;

		if (e.gen != e.sj->st[e.idx].gen || !e.sj->pg)
			continue;	/* evicted meanwhile, or its job is gone */
		if (e.kind == EV_END)
			ret = finish(s, e.sj, e.idx, err);
		else
			ret = resubmit(s, e.sj, e.idx, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Delete the PodGroups the job updater marked Completed, with their tasks. */
static int collect_done(struct sim *s, struct vs_err *err)
{
	struct sim_job **pp = &s->done;

	while (*pp) {
		struct sim_job *sj = *pp;
		int ret = 0;

		if (sj->pg->phase != VS_PG_COMPLETED) {
			pp = &sj->done_next;
			continue;
		}
		*pp = sj->done_next;
		for (u32 i = 0; i < sj->nr_tasks && !ret; i++)
			ret = vs_ctl_task_del(&s->ctl, sj->tasks[i], err);
		vs_htable_del(&s->jobs, &sj->hnode);
		if (!ret)
			ret = vs_ctl_podgroup_del(&s->ctl, sj->pg, err);
		sj->pg = NULL;
		if (ret)
			return ret;
		s->podgroups_done++;
	}
	return 0;
}

static int arrive_preset(struct sim *s, struct vs_err *err)
{
	while (s->next_arrival <= s->now) {
		unsigned long size = vsbench_gang_size(&s->gangs, ULONG_MAX);
		struct vs_job *pg;

		if (vsbench_gen_job(&s->cl, &s->shape, s->next_job++, size, &pg))
			return vs_err_set(err, EINVAL, "the generator failed");
		if (!sim_job_track(s, pg, s->next_arrival, 0))
			return vs_err_set(err, ENOMEM, "out of memory");
		s->jobs_arrived++;
		s->tasks_arrived += size;
		s->next_arrival += (u64)llround(-log(vsbench_rnd_unit()) / s->job_rate);
	}
	return 0;
}

static char *priority_class_name(char *buf, size_t len, s32 priority)
{
	snprintf(buf, len, "priority-%d", priority);
	return buf;
}

static int arrive_trace(struct sim *s, struct vs_err *err)
{
	while (s->next_trace < s->trace->nr_jobs) {
		const struct vsbench_trace_job *tj = &s->trace->jobs[s->next_trace];
		u64 submit = (u64)llround(tj->submit * (double)USEC);
		char tname[VS_DNS_SUBDOMAIN_MAX + 32], pc[32];
		struct vs_job_spec js;
		struct vs_job *pg;
		int ret;

		if (submit > s->now)
			break;
		vs_job_spec_init(&js, tj->ns, tj->name);
		js.queue = tj->queue;
		js.min_member = tj->min_member;
		if (tj->has_priority)
			js.priority_class = priority_class_name(pc, sizeof(pc), tj->priority);
		ret = vs_job_add(&s->cl, &js, &pg, err);
		for (u32 t = 0; !ret && t < tj->tasks; t++) {
			struct vs_task_spec ts;

			snprintf(tname, sizeof(tname), "%s-task-%u", tj->name, t);
			vs_task_spec_init(&ts, tj->ns, tname, tj->name);
			vs_res_set(&ts.req, VS_RES_CPU, tj->cpu);
			vs_res_set(&ts.req, VS_RES_MEMORY, tj->memory);
			if (tj->has_priority) {
				ts.priority = tj->priority;
				ts.priority_class = js.priority_class;
			}
			ret = vs_task_add(&s->cl, &ts, NULL, err);
		}
		if (ret)
			return ret;
		if (!sim_job_track(s, pg, submit, (u64)llround(tj->duration * (double)USEC)))
			return vs_err_set(err, ENOMEM, "out of memory");
		s->jobs_arrived++;
		s->tasks_arrived += tj->tasks;
		s->next_trace++;
	}
	return 0;
}

/* The deserved amounts proportion computed at this session's open. */
static void sample_deserved(struct sim *s, struct vs_session *ssn)
{
	struct vs_plugin *p = vs_session_plugin(ssn, "proportion");
	const struct vs_queue *q;
	u32 i = 0;

	s->has_deserved = p != NULL;
	if (!p)
		return;
	list_for_each_entry(q, &s->cl.queues, list) {
		const struct vs_proportion_queue *pq = vs_proportion_queue(p, q);

		if (i >= s->nr_qacc)
			break;
		if (pq) {
			s->qacc[i].deserved[0] += vs_fres_get(&pq->deserved, VS_RES_CPU);
			s->qacc[i].deserved[1] += vs_fres_get(&pq->deserved, VS_RES_MEMORY);
		}
		i++;
	}
}

static int cycle(struct sim *s, struct vs_err *err)
{
	struct vs_session *ssn;
	double t0, t1, t2;
	int ret;

	t0 = vsbench_now();
	ret = vs_session_open(&s->sched, &ssn, err);
	if (ret)
		return ret;
	t1 = vsbench_now();
	sample_deserved(s, ssn);	/* not the scheduler's time */
	t2 = vsbench_now();
	ret = vs_session_run_actions(ssn, err);
	vs_session_close(ssn);
	if (push_double(&s->cycle_s, &s->nr_cycles, &s->cap_cycles,
			vsbench_now() - t2 + (t1 - t0)))
		return vs_err_set(err, ENOMEM, "out of memory");
	if (!ret)
		ret = vs_ctl_after_cycle(&s->ctl, err);
	return ret;
}

/* Allocated over allocatable, now, and each queue's part of the cluster. */
static void sample_use(struct sim *s)
{
	const struct vs_queue *q;
	const struct vs_node *n;
	double used[2] = { 0, 0 };
	u32 i = 0;

	list_for_each_entry(n, &s->cl.nodes, list) {
		used[0] += (double)vs_res_get(&n->used, VS_RES_CPU);
		used[1] += (double)vs_res_get(&n->used, VS_RES_MEMORY);
	}
	s->util_end[0] = used[0] / (double)vs_res_get(&s->total, VS_RES_CPU);
	s->util_end[1] = used[1] / (double)vs_res_get(&s->total, VS_RES_MEMORY);
	s->util_sum[0] += s->util_end[0];
	s->util_sum[1] += s->util_end[1];
	list_for_each_entry(q, &s->cl.queues, list) {
		if (i >= s->nr_qacc)
			break;
		s->qacc[i].allocated[0] += (double)vs_res_get(&q->allocated, VS_RES_CPU);
		s->qacc[i].allocated[1] += (double)vs_res_get(&q->allocated, VS_RES_MEMORY);
		i++;
	}
}

/* A trace is over when everything arrived and nothing is left to happen. */
static bool trace_over(const struct sim *s, unsigned long binds)
{
	return s->next_trace == s->trace->nr_jobs && !s->nr_events && !binds;
}

static int step(struct sim *s, struct vs_err *err)
{
	int ret = start_bound(s);

	if (ret)
		return vs_err_set(err, ret, "out of memory");
	ret = run_events(s, err);
	if (!ret)
		ret = s->trace ? arrive_trace(s, err) : arrive_preset(s, err);
	if (!ret)
		ret = cycle(s, err);
	if (!ret)
		ret = collect_done(s, err);
	if (!ret && s->oom)
		ret = vs_err_set(err, ENOMEM, "out of memory");
	if (!ret)
		sample_use(s);
	return ret;
}

/* ---- the cluster at start ---- */

static int setup_trace(struct sim *s, struct vs_err *err)
{
	const struct vsbench_trace *t = s->trace;

	for (size_t i = 0; i < t->nr_queues; i++) {
		struct vs_queue_spec qs;
		int ret;

		vs_queue_spec_init(&qs, t->queues[i].name);
		qs.weight = t->queues[i].weight;
		ret = vs_queue_add(&s->cl, &qs, NULL, err);
		if (ret)
			return ret;
	}
	for (size_t i = 0; i < t->nr_jobs; i++) {
		struct vs_prioclass_spec ps = { 0 };
		char pc[32];
		int ret;

		if (!t->jobs[i].has_priority)
			continue;
		ps.name = priority_class_name(pc, sizeof(pc), t->jobs[i].priority);
		ps.value = t->jobs[i].priority;
		if (vs_prioclass_find(&s->cl, pc))
			continue;
		ret = vs_prioclass_add(&s->cl, &ps, NULL, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every job the generator built is tracked; its running tasks started at 0. */
static int setup_preset(struct sim *s, struct vs_err *err)
{
	struct vs_job *pg;

	list_for_each_entry(pg, &s->cl.jobs, list) {
		struct sim_job *sj = sim_job_track(s, pg, 0, 0);

		if (!sj)
			return vs_err_set(err, ENOMEM, "out of memory");
		s->tasks_at_start += sj->nr_tasks;
		for (u32 i = 0; i < sj->nr_tasks; i++)
			if (sj->tasks[i] && sj->tasks[i]->status == VS_TASK_RUNNING &&
			    ev_push(s, draw_run_time(s), EV_END, sj, i))
				return vs_err_set(err, ENOMEM, "out of memory");
	}
	s->next_job = s->cl.nr_jobs;
	s->job_rate = 0;
	{
		double mean_size = 0, total = 0;

		for (unsigned int i = 0; i < s->gangs.nr_sizes; i++) {
			mean_size += (double)(s->gangs.sizes[i].size * s->gangs.sizes[i].weight);
			total += s->gangs.sizes[i].weight;
		}
		mean_size /= total;
		s->job_rate = (double)s->o->preset->rate / mean_size / (double)USEC;
	}
	s->next_arrival = (u64)llround(-log(vsbench_rnd_unit()) / s->job_rate);
	return 0;
}

static int setup(struct sim *s, struct vs_conf *conf, struct vs_err *err)
{
	const struct sim_opts *o = s->o;
	int ret;

	if (o->preset) {
		s->gangs = (struct vsbench_gangs){ .tasks = o->preset->start_tasks,
						   .sizes = vsbench_gang_sizes,
						   .nr_sizes = vsbench_nr_gang_sizes };
		s->shape = (struct vsbench_shape){ .nodes = o->preset->nodes,
						   .queues = o->preset->queues,
						   .running_pct = 100, .seed = o->seed,
						   .gangs = &s->gangs };
		s->mean_us = (double)o->preset->mean_s * (double)USEC;
	} else {
		s->shape = (struct vsbench_shape){ .nodes = o->nodes, .seed = o->seed,
						   .node_cpu = o->node_cpu,
						   .node_memory = o->node_memory };
	}
	vsbench_seed(o->seed);
	if (vsbench_build(&s->cl, &s->shape, &s->running_at_start)) {
		vs_conf_free(conf);
		return vs_err_set(err, EINVAL, "the generator failed");
	}
	ret = vs_sched_init(&s->sched, &s->cl, vs_builtin_registry(), conf, err);
	if (ret)
		return ret;
	s->sched.sink = (struct vs_decision_sink){ .bind = sim_bind, .evict = sim_evict,
						   .ctx = s };
	vs_ctl_init(&s->ctl, &s->cl, NULL, NULL);
	ret = o->preset ? setup_preset(s, err) : setup_trace(s, err);
	if (ret)
		return ret;
	s->nr_qacc = s->cl.nr_queues;
	s->qacc = calloc(s->nr_qacc ? s->nr_qacc : 1, sizeof(*s->qacc));
	if (!s->qacc)
		return vs_err_set(err, ENOMEM, "out of memory");
	s->total = s->cl.total_allocatable;
	return 0;
}

/* ---- the report ---- */

struct sim_report {
	double tts[4];			/* p50, p90, p99, max */
	double cycle[3];		/* p50, p99, max */
	unsigned long slow;		/* cycles over SLOW_CYCLE */
	u32 pending, running;
};

static int summarise(struct sim *s, struct sim_report *r)
{
	double *c = malloc((s->nr_cycles ? s->nr_cycles : 1) * sizeof(*c));

	if (!c)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	vsbench_sort_doubles(s->tts, s->nr_tts);
	if (s->nr_tts) {
		r->tts[0] = vsbench_percentile(s->tts, s->nr_tts, 0.50);
		r->tts[1] = vsbench_percentile(s->tts, s->nr_tts, 0.90);
		r->tts[2] = vsbench_percentile(s->tts, s->nr_tts, 0.99);
		r->tts[3] = s->tts[s->nr_tts - 1];
	}
	memcpy(c, s->cycle_s, s->nr_cycles * sizeof(*c));
	vsbench_sort_doubles(c, s->nr_cycles);
	if (s->nr_cycles) {
		r->cycle[0] = vsbench_percentile(c, s->nr_cycles, 0.50);
		r->cycle[1] = vsbench_percentile(c, s->nr_cycles, 0.99);
		r->cycle[2] = c[s->nr_cycles - 1];
	}
	for (size_t i = 0; i < s->nr_cycles; i++)
		r->slow += s->cycle_s[i] > SLOW_CYCLE;
	free(c);
	r->pending = vsbench_count_status(&s->cl, VS_TASK_PENDING);
	r->running = vsbench_count_status(&s->cl, VS_TASK_RUNNING) +
		     vsbench_count_status(&s->cl, VS_TASK_BINDING);
	return 0;
}

/* The queue's time-averaged part of the cluster's @dim (0 cpu, 1 memory). */
static double q_share(const struct sim *s, const double *sum, int dim)
{
	s64 total = vs_res_get(&s->total, dim ? VS_RES_MEMORY : VS_RES_CPU);

	if (!s->nr_cycles || total <= 0)
		return 0;
	return sum[dim] / (double)s->nr_cycles / (double)total;
}

static json_t *json_ratio(double a, double b)
{
	return b > 0 ? json_real(a / b) : json_null();
}

static json_t *json_round(double v)
{
	return json_real(round(v * 1e6) / 1e6);
}

static int print_json(struct sim *s, const struct sim_report *r)
{
	json_t *o = json_object(), *queues = json_array(), *tts;
	const struct vs_queue *q;
	char hash[32];
	u32 i = 0;
	int ret = -1;

	if (!o || !queues)
		goto out;
	if (s->o->preset)
		json_object_set_new(o, "preset", json_string(s->o->preset->name));
	else
		json_object_set_new(o, "trace", json_string(s->o->trace));
	json_object_set_new(o, "seed", json_integer((json_int_t)s->o->seed));
	json_object_set_new(o, "period_ms", json_integer((json_int_t)(s->o->period_us / 1000)));
	json_object_set_new(o, "nodes", json_integer(s->cl.nr_nodes));
	json_object_set_new(o, "queues", json_integer(s->cl.nr_queues));
	json_object_set_new(o, "virtual_s", json_round((double)s->now / (double)USEC));
	json_object_set_new(o, "cycles", json_integer((json_int_t)s->nr_cycles));
	json_object_set_new(o, "tasks_at_start", json_integer((json_int_t)s->tasks_at_start));
	json_object_set_new(o, "running_at_start",
			    json_integer((json_int_t)s->running_at_start));
	json_object_set_new(o, "jobs_arrived", json_integer((json_int_t)s->jobs_arrived));
	json_object_set_new(o, "tasks_arrived", json_integer((json_int_t)s->tasks_arrived));
	json_object_set_new(o, "binds", json_integer((json_int_t)s->binder.total));
	json_object_set_new(o, "tasks_finished", json_integer((json_int_t)s->finished));
	json_object_set_new(o, "podgroups_completed", json_integer((json_int_t)s->podgroups_done));
	json_object_set_new(o, "pending_at_end", json_integer(r->pending));
	json_object_set_new(o, "running_at_end", json_integer(r->running));
	json_object_set_new(o, "evictions", json_integer((json_int_t)s->evictions));
	json_object_set_new(o, "evictions_completed", json_integer((json_int_t)s->evictions_done));
	json_object_set_new(o, "utilisation", json_pack("{s:o, s:o, s:o, s:o}",
			    "cpu_mean", json_round(s->nr_cycles ? s->util_sum[0] / s->nr_cycles : 0),
			    "memory_mean", json_round(s->nr_cycles ? s->util_sum[1] / s->nr_cycles : 0),
			    "cpu_end", json_round(s->util_end[0]),
			    "memory_end", json_round(s->util_end[1])));
	tts = s->nr_tts ? json_pack("{s:I, s:o, s:o, s:o, s:o}", "samples", (json_int_t)s->nr_tts,
				    "p50", json_round(r->tts[0]), "p90", json_round(r->tts[1]),
				    "p99", json_round(r->tts[2]), "max", json_round(r->tts[3])) :
			  json_null();
	json_object_set_new(o, "time_to_schedule_s", tts);
	list_for_each_entry(q, &s->cl.queues, list) {
		const struct sim_queue_acc *a;
		double d[2], al[2];

		if (i >= s->nr_qacc)
			break;	/* every queue is made at start: never the case */
		a = &s->qacc[i++];
		d[0] = q_share(s, a->deserved, 0);
		d[1] = q_share(s, a->deserved, 1);
		al[0] = q_share(s, a->allocated, 0);
		al[1] = q_share(s, a->allocated, 1);
		json_array_append_new(queues, json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o}",
				      "name", q->name, "weight", (int)q->weight,
				      "deserved_cpu", s->has_deserved ? json_round(d[0]) : json_null(),
				      "allocated_cpu", json_round(al[0]),
				      "ratio_cpu", s->has_deserved ? json_ratio(al[0], d[0]) : json_null(),
				      "deserved_memory", s->has_deserved ? json_round(d[1]) : json_null(),
				      "allocated_memory", json_round(al[1]),
				      "ratio_memory", s->has_deserved ? json_ratio(al[1], d[1]) :
									json_null()));
	}
	json_object_set_new(o, "per_queue", queues);
	queues = NULL;
	json_object_set_new(o, "cycle_ms", json_pack("{s:o, s:o, s:o}",
			    "p50", vsbench_json_ms(r->cycle[0]), "p99", vsbench_json_ms(r->cycle[1]),
			    "max", vsbench_json_ms(r->cycle[2])));
	json_object_set_new(o, "cycles_over_100ms", json_integer((json_int_t)r->slow));
	snprintf(hash, sizeof(hash), "%016" PRIx64, s->hash);
	json_object_set_new(o, "decisions_hash", json_string(hash));
	if (json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) || putchar('\n') == EOF)
		goto out;
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "vsbench sim: out of memory writing JSON\n");
	json_decref(queues);
	json_decref(o);
	return ret;
}

static void print_table(struct sim *s, const struct sim_report *r)
{
	const struct vs_queue *q;
	u32 i = 0;

	if (s->o->preset)
		printf("vsbench sim: preset %s, seed %llu", s->o->preset->name, s->o->seed);
	else
		printf("vsbench sim: trace %s, seed %llu", s->o->trace, s->o->seed);
	printf(": %u nodes, %u queues, period %" PRIu64 " ms\n\n", s->cl.nr_nodes,
	       s->cl.nr_queues, s->o->period_us / 1000);
	printf("  virtual time             %.3f s in %zu cycles\n", (double)s->now / USEC,
	       s->nr_cycles);
	printf("  tasks at start           %lu (%lu running)\n", s->tasks_at_start,
	       s->running_at_start);
	printf("  arrived                  %lu jobs, %lu tasks\n", s->jobs_arrived,
	       s->tasks_arrived);
	printf("  bound                    %" PRIu64 "\n", s->binder.total);
	printf("  finished                 %lu tasks, %lu podgroups completed\n", s->finished,
	       s->podgroups_done);
	printf("  at the end               %u pending, %u running\n", r->pending, r->running);
	printf("  evictions                %lu, %lu completed\n", s->evictions,
	       s->evictions_done);
	printf("  utilisation cpu          %.1f%% mean, %.1f%% at the end\n",
	       s->nr_cycles ? 100 * s->util_sum[0] / s->nr_cycles : 0, 100 * s->util_end[0]);
	printf("  utilisation memory       %.1f%% mean, %.1f%% at the end\n",
	       s->nr_cycles ? 100 * s->util_sum[1] / s->nr_cycles : 0, 100 * s->util_end[1]);
	if (s->nr_tts)
		printf("  time to schedule s       p50 %.3f, p90 %.3f, p99 %.3f, max %.3f "
		       "(%zu binds)\n", r->tts[0], r->tts[1], r->tts[2], r->tts[3], s->nr_tts);
	else
		printf("  time to schedule s       no bind\n");
	printf("  cycle ms                 p50 %.3f, p99 %.3f, max %.3f; %lu over 100 ms\n",
	       r->cycle[0] * 1e3, r->cycle[1] * 1e3, r->cycle[2] * 1e3, r->slow);
	printf("  decisions hash           %016" PRIx64 "\n\n", s->hash);
	printf("%-20s %6s %12s %12s %8s\n", "QUEUE", "WEIGHT", "DESERVED-CPU", "ALLOC-CPU",
	       "RATIO");
	list_for_each_entry(q, &s->cl.queues, list) {
		const struct sim_queue_acc *a;
		double d, al;

		if (i >= s->nr_qacc)
			break;
		a = &s->qacc[i++];
		d = q_share(s, a->deserved, 0);
		al = q_share(s, a->allocated, 0);
		if (s->has_deserved)
			printf("%-20s %6u %11.2f%% %11.2f%% %8.3f\n", q->name, q->weight, 100 * d,
			       100 * al, d > 0 ? al / d : 0.0);
		else
			printf("%-20s %6u %12s %11.2f%% %8s\n", q->name, q->weight, "-", 100 * al,
			       "-");
	}
}

/* ---- the command ---- */

static void sim_destroy(struct sim *s)
{
	while (s->all) {
		struct sim_job *sj = s->all;

		s->all = sj->next;
		free(sj->tasks);
		free(sj->st);
		free(sj);
	}
	free(s->heap);
	free(s->tts);
	free(s->cycle_s);
	free(s->qacc);
	free(s->binder.bound);
	vs_htable_destroy(&s->jobs);
}

int vsbench_sim(int argc, char **argv)
{
	struct vsbench_trace trace = { 0 };
	struct vs_err err = { { 0 } };
	struct sim_report r;
	struct sim_opts o;
	struct vs_conf *conf;
	struct sim s;
	u64 end;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 2;
	if (o.trace && vsbench_trace_load(o.trace, "vsbench sim", &trace))
		return 2;
	memset(&s, 0, sizeof(s));
	s.o = &o;
	s.trace = o.trace ? &trace : NULL;
	s.hash = 0xcbf29ce484222325ULL;
	ret = 1;
	if (vsbench_conf_load(o.conf, &conf, &err)) {
		fprintf(stderr, "vsbench sim: %s\n", err.msg);
		goto out_trace;
	}
	if (vs_cluster_init(&s.cl) || vs_htable_init(&s.jobs, 10, sim_job_hash)) {
		fprintf(stderr, "vsbench sim: out of memory\n");
		vs_conf_free(conf);
		goto out_cluster;
	}
	if (setup(&s, conf, &err)) {
		fprintf(stderr, "vsbench sim: %s\n", err.msg);
		goto out_sched;
	}

	end = o.duration_us ? o.duration_us :
	      o.preset ? o.preset->duration_s * USEC : 0;
	for (s.now = 0; !end || s.now < end; s.now += o.period_us) {
		u64 before = s.binder.total;

		if (step(&s, &err)) {
			fprintf(stderr, "vsbench sim: at %.3f s: %s\n", (double)s.now / USEC,
				err.msg);
			goto out_sched;
		}
		if (s.trace && trace_over(&s, (unsigned long)(s.binder.total - before))) {
			s.now += o.period_us;
			break;
		}
	}
	if (vs_cluster_check(&s.cl, &err)) {
		fprintf(stderr, "vsbench sim: invariant check: %s\n", err.msg);
		goto out_sched;
	}
	if (summarise(&s, &r)) {
		fprintf(stderr, "vsbench sim: out of memory\n");
		goto out_sched;
	}
	if (o.json)
		ret = print_json(&s, &r) ? 1 : 0;
	else {
		print_table(&s, &r);
		ret = 0;
	}
out_sched:
	vs_sched_destroy(&s.sched);
out_cluster:
	sim_destroy(&s);
	vs_cluster_destroy(&s.cl);
out_trace:
	vsbench_trace_free(&trace);
	return ret;
}

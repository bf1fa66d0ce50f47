// SPDX-License-Identifier: Apache-2.0
/*
 * "vsbench cluster": build a synthetic cluster in the core's object model
 * and report how long it took and what it holds in memory.
 *
 * The cluster is generated from a seed, so two runs with the same options
 * build the same objects: nodes of mixed shapes across zones, queues with
 * weights, PodGroups of equal-sized tasks, and a share of those tasks already
 * running on nodes (placed first-fit, as pods a real cluster reports at
 * start-up; this command does not schedule). After the build every invariant
 * of the object model is verified, and the per-type pools are listed as
 * /proc/slabinfo lists kmem caches.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cluster.h"
#include "vsbench/vsbench.h"

struct opts {
	unsigned long nodes;
	unsigned long queues;
	unsigned long jobs;
	unsigned long tasks_per_job;
	unsigned long running_pct;
	unsigned long show;
	unsigned long long seed;
};

static u64 rng;

/* xorshift64*: a small, fast, seedable generator; quality is plenty here. */
static u64 rnd64(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static u64 rnd(u64 n)
{
	return rnd64() % n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Resident set size in bytes, from /proc/self/statm; 0 if unreadable. */
static u64 rss_bytes(void)
{
	unsigned long size, resident;
	FILE *f = fopen("/proc/self/statm", "r");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%lu %lu", &size, &resident);
	fclose(f);
	return n == 2 ? (u64)resident * (u64)sysconf(_SC_PAGESIZE) : 0;
}

static int parse_ulong(const char *opt, const char *s, unsigned long min,
		       unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "vsbench cluster: --%s: \"%s\" is not a number from %lu to %lu\n",
			opt, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vsbench cluster [OPTIONS]\n"
		"\n"
		"Build a synthetic cluster in-process and report time and memory.\n"
		"\n"
		"  -n, --nodes N          nodes (default 1000)\n"
		"  -q, --queues N         queues (default 4)\n"
		"  -j, --jobs N           podgroups (default 1000)\n"
		"  -t, --tasks-per-job N  tasks in each podgroup (default 10)\n"
		"  -r, --running PCT      percent of tasks already running (default 50)\n"
		"  -s, --seed N           generator seed (default 1)\n"
		"      --show N           print the first N nodes' accounting (default 10)\n"
		"  -h, --help             this text\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "queues", required_argument, NULL, 'q' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "tasks-per-job", required_argument, NULL, 't' },
		{ "running", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "show", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long seed;
	int c, ret = 0;

	*o = (struct opts){ .nodes = 1000, .queues = 4, .jobs = 1000, .tasks_per_job = 10,
			    .running_pct = 50, .show = 10, .seed = 1 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:q:j:t:r:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			ret = parse_ulong("nodes", optarg, 1, 1000000, &o->nodes);
			break;
		case 'q':
			ret = parse_ulong("queues", optarg, 1, 10000, &o->queues);
			break;
		case 'j':
			ret = parse_ulong("jobs", optarg, 0, 10000000, &o->jobs);
			break;
		case 't':
			ret = parse_ulong("tasks-per-job", optarg, 1, 100000, &o->tasks_per_job);
			break;
		case 'r':
			ret = parse_ulong("running", optarg, 0, 100, &o->running_pct);
			break;
		case 's':
			ret = parse_ulong("seed", optarg, 0, ULONG_MAX, &seed);
			o->seed = seed;
			break;
		case 'S':
			ret = parse_ulong("show", optarg, 0, 1000000, &o->show);
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
		if (ret)
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "vsbench cluster: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	if ((u64)o->jobs * o->tasks_per_job > 50000000ULL) {
		fprintf(stderr, "vsbench cluster: %lu jobs of %lu tasks is more than 50 million tasks\n",
			o->jobs, o->tasks_per_job);
		return -1;
	}
	return 0;
}

static int fail(const char *what, const struct vs_err *err)
{
	fprintf(stderr, "vsbench cluster: %s: %s\n", what, err->msg);
	return 1;
}

static int build_nodes(struct vs_cluster *cl, const struct opts *o, struct vs_node **nodes)
{
	static const char *const zones[] = { "zone-a", "zone-b", "zone-c", "zone-d" };
	/* Shapes in cores and GiB, as a mixed fleet has them. */
	static const struct { s64 cores, gib; } shapes[] = {
		{ 32, 128 }, { 64, 256 }, { 96, 384 }, { 128, 512 },
	};
	struct vs_err err = { { 0 } };
	char name[32];

	for (unsigned long i = 0; i < o->nodes; i++) {
		u64 s = rnd(ARRAY_SIZE(shapes));
		struct vs_kv_spec labels[] = {
			{ "topology.kubernetes.io/zone", zones[i % ARRAY_SIZE(zones)] },
			{ "node.kubernetes.io/instance-type", s < 2 ? "standard" : "large" },
		};
		struct vs_node_spec spec;

		snprintf(name, sizeof(name), "node-%06lu", i);
		vs_node_spec_init(&spec, name);
		vs_res_set(&spec.allocatable, VS_RES_CPU, shapes[s].cores * 1000);
		vs_res_set(&spec.allocatable, VS_RES_MEMORY, shapes[s].gib << 30);
		vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
		spec.labels = labels;
		spec.nr_labels = ARRAY_SIZE(labels);
		if (vs_node_add(cl, &spec, &nodes[i], &err))
			return fail("node", &err);
	}
	return 0;
}

static int build_queues(struct vs_cluster *cl, const struct opts *o)
{
	struct vs_err err = { { 0 } };
	char name[32];

	for (unsigned long i = 0; i < o->queues; i++) {
		struct vs_queue_spec spec;

		snprintf(name, sizeof(name), "queue-%lu", i);
		vs_queue_spec_init(&spec, name);
		spec.weight = 1 + (u32)(i % 4);
		if (vs_queue_add(cl, &spec, NULL, &err))
			return fail("queue", &err);
	}
	return 0;
}

/* First fit from a cursor that moves on, so the nodes fill in turn. */
static struct vs_node *first_fit(struct vs_node **nodes, unsigned long nr,
				 unsigned long *cursor, const struct vs_res *req)
{
	for (unsigned long k = 0; k < nr; k++) {
		struct vs_node *n = nodes[(*cursor + k) % nr];

		if (n->nr_tasks < 110 && vs_res_less_equal(req, &n->idle, VS_DIM_ZERO)) {
			*cursor = (*cursor + k + 1) % nr;
			return n;
		}
	}
	return NULL;
}

static int build_jobs(struct vs_cluster *cl, const struct opts *o, struct vs_node **nodes,
		      unsigned long *running)
{
	struct vs_err err = { { 0 } };
	unsigned long cursor = 0;
	char ns[32], name[48], queue[32], tname[128];

	for (unsigned long j = 0; j < o->jobs; j++) {
		struct vs_job_spec js;
		struct vs_res req;
		const char *role = j % 3 ? "worker" : "ps";

		snprintf(ns, sizeof(ns), "team-%lu", j % 16);
		snprintf(name, sizeof(name), "job-%07lu", j);
		snprintf(queue, sizeof(queue), "queue-%lu", j % o->queues);
		vs_job_spec_init(&js, ns, name);
		js.queue = queue;
		js.min_member = (u32)(1 + rnd(o->tasks_per_job));
		js.phase = VS_PG_INQUEUE;
		if (vs_job_add(cl, &js, NULL, &err))
			return fail("podgroup", &err);

		vs_res_clear(&req);
		vs_res_set(&req, VS_RES_CPU, (s64)(500 * (1 + rnd(8))));
		vs_res_set(&req, VS_RES_MEMORY, (s64)(1 + rnd(8)) << 30);
		for (unsigned long t = 0; t < o->tasks_per_job; t++) {
			struct vs_task_spec ts;
			struct vs_node *node = NULL;

			snprintf(tname, sizeof(tname), "%s-%s-%lu", name, role, t);
			vs_task_spec_init(&ts, ns, tname, name);
			ts.req = req;
			ts.role = role;
			if (rnd(100) < o->running_pct)
				node = first_fit(nodes, o->nodes, &cursor, &req);
			if (node) {
				ts.status = VS_TASK_RUNNING;
				ts.node = node->name;
				(*running)++;
			}
			if (vs_task_add(cl, &ts, NULL, &err))
				return fail("pod", &err);
		}
	}
	return 0;
}

static void print_pool(const struct vs_pool *pool, void *arg)
{
	struct vs_pool_stats st;

	vs_pool_get_stats(pool, &st);
	printf("%-14s %10zu %10zu %8zu %8zu %8zu %12zu\n", pool->name, st.active_objs,
	       st.total_objs, st.obj_size, st.objs_per_slab, st.nr_slabs, st.bytes);
}

static void show_nodes(const struct vs_cluster *cl, unsigned long show)
{
	const struct vs_node *n;
	char idle[32], alloc[32], midle[32], malloc_[32];
	unsigned long i = 0;

	if (!show)
		return;
	printf("\n%-12s %5s %9s %9s %9s %9s\n", "NODE", "PODS", "CPU-IDLE", "CPU-ALLOC",
	       "MEM-IDLE", "MEM-ALLOC");
	list_for_each_entry(n, &cl->nodes, list) {
		if (i++ == show)
			break;
		vs_quantity_fmt(idle, sizeof(idle), vs_res_get(&n->idle, VS_RES_CPU), 3, false);
		vs_quantity_fmt(alloc, sizeof(alloc), vs_res_get(&n->allocatable, VS_RES_CPU), 3,
				false);
		vs_quantity_fmt(midle, sizeof(midle), vs_res_get(&n->idle, VS_RES_MEMORY), 0, true);
		vs_quantity_fmt(malloc_, sizeof(malloc_), vs_res_get(&n->allocatable, VS_RES_MEMORY),
				0, true);
		printf("%-12s %5u %9s %9s %9s %9s\n", n->name, n->nr_tasks, idle, alloc, midle,
		       malloc_);
	}
}

int vsbench_cluster(int argc, char **argv)
{
	struct vs_cluster cl;
	struct vs_node **nodes;
	struct vs_err err = { { 0 } };
	unsigned long running = 0;
	double t0, t1, t2, t3;
	u64 rss0, rss1, tasks;
	struct opts o;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 2;
	rng = o.seed * 0x9e3779b97f4a7c15ULL + 1;
	tasks = (u64)o.jobs * o.tasks_per_job;

	nodes = calloc(o.nodes, sizeof(*nodes));
	if (!nodes || vs_cluster_init(&cl)) {
		fprintf(stderr, "vsbench cluster: out of memory\n");
		free(nodes);
		return 1;
	}
	rss0 = rss_bytes();
	t0 = now();
	ret = build_nodes(&cl, &o, nodes);
	t1 = now();
	if (!ret)
		ret = build_queues(&cl, &o);
	if (!ret)
		ret = build_jobs(&cl, &o, nodes, &running);
	t2 = now();
	if (!ret && vs_cluster_check(&cl, &err))
		ret = fail("invariant check", &err);
	t3 = now();
	rss1 = rss_bytes();
	if (ret)
		goto out;

	printf("vsbench cluster: %lu nodes, %lu queues, %lu podgroups, %" PRIu64
	       " tasks (%lu running), seed %llu\n",
	       o.nodes, o.queues, o.jobs, tasks, running, o.seed);
	printf("  nodes built in     %9.3f s  (%10.0f nodes/s)\n", t1 - t0,
	       (double)o.nodes / (t1 - t0 > 0 ? t1 - t0 : 1e-9));
	printf("  jobs+tasks built in %8.3f s  (%10.0f tasks/s)\n", t2 - t1,
	       (double)tasks / (t2 - t1 > 0 ? t2 - t1 : 1e-9));
	printf("  invariants checked in %6.3f s: every node, job and queue consistent\n",
	       t3 - t2);
	printf("  resident memory grew %.1f MiB (%.0f bytes per task)\n",
	       (double)(rss1 - rss0) / (1 << 20),
	       tasks ? (double)(rss1 - rss0) / (double)tasks : 0.0);
	printf("  strings interned: %zu (%zu bytes)\n", vs_strtab_count(&cl.strs),
	       cl.strs.bytes);

	printf("\n%-14s %10s %10s %8s %8s %8s %12s\n", "POOL", "ACTIVE", "TOTAL", "OBJSIZE",
	       "PERSLAB", "SLABS", "BYTES");
	vs_pools_for_each(print_pool, NULL);
	show_nodes(&cl, o.show);
out:
	vs_cluster_destroy(&cl);
	free(nodes);
	return ret ? 1 : 0;
}

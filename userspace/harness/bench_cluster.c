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

#include "core/cluster.h"
#include "harness/bench.h"

struct opts {
	struct vsbench_shape shape;
	unsigned long show;
};

static const struct vsbench_shape cluster_shape = {
	.nodes = 1000, .queues = 4, .jobs = 1000, .tasks_per_job = 10, .running_pct = 50,
	.seed = 1,
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vsbench cluster [OPTIONS]\n"
		"\n"
		"Build a synthetic cluster in-process and report time and memory.\n"
		"\n");
	vsbench_shape_usage(out, &cluster_shape);
	fprintf(out,
		"      --show N           print the first N nodes' accounting (default 10)\n"
		"  -h, --help             this text\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		VSBENCH_SHAPE_LONGOPTS,
		{ "show", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	*o = (struct opts){
		.shape = cluster_shape,
		.show = 10,
	};
	optind = 1;
	while ((c = getopt_long(argc, argv, VSBENCH_SHAPE_SHORTOPTS "h", longopts, NULL)) != -1) {
		if (c == 'S') {
			ret = vsbench_parse_ulong("cluster", "show", optarg, 0, 1000000, &o->show);
		} else if (c == 'h') {
			usage(stdout);
			return 1;
		} else {
			ret = vsbench_shape_opt("cluster", c, optarg, &o->shape);
			if (ret > 0) {
				usage(stderr);
				return -1;
			}
		}
		if (ret)
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "vsbench cluster: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	return vsbench_shape_check("cluster", &o->shape);
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
	const struct vsbench_shape *shape;
	struct vs_cluster cl;
	struct vs_err err = { { 0 } };
	unsigned long running = 0;
	double t0, t1, t2;
	u64 rss0, rss1, tasks;
	struct opts o;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 2;
	shape = &o.shape;
	vsbench_seed(shape->seed);
	tasks = (u64)shape->jobs * shape->tasks_per_job;
	if (vs_cluster_init(&cl)) {
		fprintf(stderr, "vsbench cluster: out of memory\n");
		return 1;
	}
	rss0 = vsbench_rss();
	t0 = vsbench_now();
	ret = vsbench_build(&cl, shape, &running);
	t1 = vsbench_now();
	if (!ret && vs_cluster_check(&cl, &err)) {
		fprintf(stderr, "vsbench cluster: invariant check: %s\n", err.msg);
		ret = 1;
	}
	t2 = vsbench_now();
	rss1 = vsbench_rss();
	if (ret)
		goto out;

	printf("vsbench cluster: %lu nodes, %lu queues, %lu podgroups, %" PRIu64
	       " tasks (%lu running), seed %llu\n",
	       shape->nodes, shape->queues, shape->jobs, tasks, running, shape->seed);
	printf("  built in %9.3f s  (%10.0f objects/s)\n", t1 - t0,
	       (double)(shape->nodes + shape->jobs + tasks) / (t1 - t0 > 0 ? t1 - t0 : 1e-9));
	printf("  invariants checked in %6.3f s: every node, job and queue consistent\n",
	       t2 - t1);
	printf("  resident memory grew %.1f MiB (%.0f bytes per task)\n",
	       (double)(rss1 - rss0) / (1 << 20),
	       tasks ? (double)(rss1 - rss0) / (double)tasks : 0.0);
	printf("  strings interned: %zu (%zu bytes)\n\n", vs_strtab_count(&cl.strs),
	       cl.strs.bytes);
	vsbench_print_pools();
	show_nodes(&cl, o.show);
out:
	vs_cluster_destroy(&cl);
	return ret ? 1 : 0;
}

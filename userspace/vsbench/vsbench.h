/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vsbench's commands. Each takes the arguments after its name and returns
 * the program's exit status.
 */
#ifndef VSBENCH_H
#define VSBENCH_H

#include "core/cluster.h"

int vsbench_cluster(int argc, char **argv);
int vsbench_cycle(int argc, char **argv);
int vsbench_load(int argc, char **argv);

/* The shape of a synthetic cluster (gen.c). */
struct vsbench_shape {
	unsigned long nodes;
	unsigned long queues;
	unsigned long jobs;
	unsigned long tasks_per_job;
	unsigned long running_pct;	/* tasks that start Running on a node */
	unsigned long long seed;
	const struct vsbench_gangs *gangs;	/* if set, replaces jobs and tasks_per_job */
};

void vsbench_seed(u64 seed);
u64 vsbench_rnd(u64 n);
double vsbench_now(void);
u64 vsbench_rss(void);		/* resident bytes, 0 if unknown */

/* Parse a number for --@opt within [min, max]; -1 with a message otherwise. */
int vsbench_parse_ulong(const char *cmd, const char *opt, const char *s, unsigned long min,
			unsigned long max, unsigned long *out);

/* The long options of the shape, for every command's option table. */
#define VSBENCH_SHAPE_LONGOPTS						\
	{ "nodes", required_argument, NULL, 'n' },			\
	{ "queues", required_argument, NULL, 'q' },			\
	{ "jobs", required_argument, NULL, 'j' },			\
	{ "tasks-per-job", required_argument, NULL, 't' },		\
	{ "running", required_argument, NULL, 'r' },			\
	{ "seed", required_argument, NULL, 's' }
#define VSBENCH_SHAPE_SHORTOPTS "n:q:j:t:r:s:"

/*
 * The shape options every command takes: -n nodes, -q queues, -j jobs,
 * -t tasks per job, -r running percent, -s seed. 0 taken, -1 bad value,
 * 1 not a shape option.
 */
int vsbench_shape_opt(const char *cmd, int c, const char *arg, struct vsbench_shape *shape);

/* Refuse shapes too large to build (more than 50 million tasks). */
int vsbench_shape_check(const char *cmd, const struct vsbench_shape *shape);

/* Build the nodes, queues, PodGroups and tasks of @shape into @cl. 0 or 1. */
int vsbench_build(struct vs_cluster *cl, const struct vsbench_shape *shape,
		  unsigned long *running);

/* Every object pool, as /proc/slabinfo lists kmem caches. */
void vsbench_print_pools(void);

/* ---- vsbench run (run.c) and what it shares with vsbench cycle ---- */

int vsbench_run(int argc, char **argv);

/*
 * Gang jobs of sizes drawn from a distribution: PodGroups are made until
 * @tasks tasks exist, each of a size drawn from @sizes by weight (the last
 * one cut to what is left), with minMember equal to its size.
 */
struct vsbench_gang_size {
	unsigned long size;
	unsigned int weight;
};

struct vsbench_gangs {
	unsigned long tasks;
	const struct vsbench_gang_size *sizes;
	unsigned int nr_sizes;
};

/*
 * The decision sink of the in-process commands (cycle.c): binds are kept
 * and, between cycles, confirmed (every bound task runs), as a binder and
 * a kubelet would report them.
 */
struct vsbench_binder {
	struct vs_task **bound;		/* bound this cycle, confirmed after it */
	size_t nr, cap;
	u64 total;
};

void vsbench_binder_bind(void *ctx, struct vs_task *task, struct vs_node *node);
void vsbench_binder_confirm(struct vsbench_binder *b, struct vs_cluster *cl);
u32 vsbench_count_status(const struct vs_cluster *cl, enum vs_task_status s);

struct vs_conf;
/* @file, or the built-in configuration (Volcano's default) when NULL. */
int vsbench_conf_load(const char *file, struct vs_conf **conf, struct vs_err *err);

#endif /* VSBENCH_H */

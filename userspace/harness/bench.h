/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The harness's part of vsbench: its commands that run the core in-process
 * (cluster, cycle, run, sim), the synthetic clusters they build (the
 * generator, also what "vsbench load" and "vsbench run --mode socket" send),
 * the binder that answers their binds, the scenario export, the job traces
 * of sim and what the reports share. Each command takes the arguments after
 * its name and returns the program's exit status.
 */
#ifndef HARNESS_BENCH_H
#define HARNESS_BENCH_H

#include <stdio.h>

#include "core/cluster.h"

int vsbench_cluster(int argc, char **argv);
int vsbench_cycle(int argc, char **argv);

#define VSBENCH_NT_MAX	4

/* The shape of a synthetic cluster (bench_gen.c). */
struct vsbench_shape {
	unsigned long nodes;
	unsigned long queues;
	unsigned long jobs;
	unsigned long tasks_per_job;
	unsigned long running_pct;	/* tasks that start Running on a node */
	unsigned long long seed;
	const struct vsbench_gangs *gangs;	/* if set, replaces jobs and tasks_per_job */
	s64 node_cpu, node_memory;	/* if node_cpu: every node this size, else mixed */
	/*
	 * Node classes: percent of the podgroups whose tasks select one zone
	 * by nodeSelector, and percent of the nodes with a NoSchedule taint
	 * no task tolerates (dedicated=infra). Neither draws a number.
	 */
	unsigned long selector_pct, tainted_pct;
	/*
	 * Percent of the podgroups whose tasks look beyond their node, by
	 * turns a required pod anti-affinity over hostnames and a
	 * DoNotSchedule topology spread constraint (maxSkew 1) over zones,
	 * each selecting the job's own pods (label app=JOB): those whose
	 * (j * 53) % 100 falls below it. The nodes then carry their
	 * kubernetes.io/hostname label. No number is drawn.
	 */
	unsigned long spread_pct;
	/*
	 * A network topology (--topology spine=S,leaf=L; 0: none): L tier-1
	 * HyperNodes of consecutive nodes (exactMatch members), S tier-2 ones
	 * of consecutive leaves, and one tier-3 root over the spines.
	 */
	unsigned long topo_spines, topo_leaves;
	/*
	 * PodGroups with a networkTopology (--network-topology): share k
	 * takes the jobs whose (j * 37) % 100 falls in its percent, after those of
	 * the shares before it; the rest have none. No number is drawn, so
	 * the cluster is the one built without it. @nt_given: the option
	 * (or a preset) was there, "none" too: the built-in configuration
	 * then has the network-topology-aware plugin (vsbench_conf_pick()).
	 */
	struct vsbench_nt_share {
		enum vs_nt_mode mode;
		s32 tier;		/* highestTierAllowed; 0: none given */
		unsigned long pct;
	} nt[VSBENCH_NT_MAX];
	unsigned int nr_nt;
	bool nt_given;
};

void vsbench_seed(u64 seed);
u64 vsbench_rnd(u64 n);
double vsbench_rnd_unit(void);	/* uniform in (0, 1] */
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

/*
 * --topology spine=S,leaf=L into @shape: 0, or -1 with a message (1 <= S <=
 * L; vsbench_shape_check() checks L <= nodes, once every option is read).
 */
int vsbench_topology_opt(const char *cmd, const char *arg, struct vsbench_shape *shape);

/*
 * --network-topology MODE[:TIER][=PCT%],... or "none" into @shape: 0, or
 * -1 with a message naming the share at fault. A share without =PCT% takes
 * what the others leave (at most one such); the percents sum to at most
 * 100. vsbench_shape_check() refuses it without --topology.
 */
int vsbench_nt_opt(const char *cmd, const char *arg, struct vsbench_shape *shape);

/* The shape options' lines of a command's --help, with its defaults @def. */
void vsbench_shape_usage(FILE *out, const struct vsbench_shape *def);

/* Refuse shapes too large to build (more than 50 million tasks). */
int vsbench_shape_check(const char *cmd, const struct vsbench_shape *shape);

/*
 * Build the nodes, HyperNodes, queues, PodGroups and tasks of @shape into
 * @cl. 0 or 1.
 */
int vsbench_build(struct vs_cluster *cl, const struct vsbench_shape *shape,
		  unsigned long *running);

/*
 * @cl, as built, into the scenario file @file (bench_export.c) of @cycles cycles
 * and the default configuration, @source its "source:". 0; -1 when @file
 * cannot be created (a bad path); 1 when the cluster holds what the file
 * would not carry, or the write failed; each said on stderr.
 */
int vsbench_export_scenario(const struct vs_cluster *cl, const char *file, const char *source,
			    unsigned long cycles);

/* ---- what the reports share (bench_stats.c) ---- */

void vsbench_sort_doubles(double *v, size_t n);
/* The nearest-rank percentile @q (0 < q <= 1) of @n sorted values; n may be 0 if v has one. */
double vsbench_percentile(const double *sorted, size_t n, double q);

struct json_t;
/* Seconds as JSON milliseconds, to the nanosecond the clock gives. */
struct json_t *vsbench_json_ms(double s);

/* Fold @s and its end into the FNV-1a hash @h (start: 0xcbf29ce484222325). */
void vsbench_fold(u64 *h, const char *s);

/*
 * One more PodGroup of the generator, job-@j (its namespace, queue, role
 * and request drawn as vsbench_build() draws them), with @size Pending
 * tasks, Pending itself as a PodGroup just submitted is (vsbench_build()'s
 * start Inqueue); *@out (if not NULL) is the PodGroup. 0 or 1, the reason
 * said.
 */
int vsbench_gen_job(struct vs_cluster *cl, const struct vsbench_shape *shape, unsigned long j,
		    unsigned long size, struct vs_job **out);

/* Every object pool, as /proc/slabinfo lists kmem caches. */
void vsbench_print_pools(void);

/* ---- vsbench run (bench_run.c) and what it shares with vsbench cycle ---- */

int vsbench_run(int argc, char **argv);

/* The presets of vsbench run, for vsbench sweep: a preset's nodes, 0 if unknown. */
unsigned long vsbench_preset_nodes(const char *name);
/* Their names, ", " between them, for messages. */
void vsbench_preset_names(FILE *out);

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

/* The presets' distribution (bench_run.c): 1 to 64 tasks, a mean of 8.66. */
extern const struct vsbench_gang_size vsbench_gang_sizes[];
extern const unsigned int vsbench_nr_gang_sizes;

/* A gang's size, drawn by weight, cut to the @left tasks still to make. */
unsigned long vsbench_gang_size(const struct vsbench_gangs *g, unsigned long left);

/*
 * The decision sink of the in-process commands (bench_cycle.c): binds are kept
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

/* ---- vsbench sim (bench_sim.c) and its job traces (bench_simtrace.c) ---- */

int vsbench_sim(int argc, char **argv);

/* One line of a trace: a gang PodGroup of @tasks equal tasks. */
struct vsbench_trace_job {
	double submit;			/* seconds from the start */
	char *name, *ns, *queue;
	u32 tasks, min_member;
	s64 cpu, memory;		/* each task's: millicores, bytes */
	double duration;		/* each task's run time, seconds */
	s32 priority;
	bool has_priority;
	unsigned int line;
};

struct vsbench_trace_queue {
	char *name;
	u32 weight;			/* 1 unless a line gave it */
	unsigned int weight_line;	/* the first line giving it, 0: none */
};

struct vsbench_trace {
	struct vsbench_trace_job *jobs;	/* by submission time, then line */
	size_t nr_jobs;
	struct vsbench_trace_queue *queues;	/* in order of first mention */
	size_t nr_queues;
};

/*
 * Read and check every line of @file: 0, or -1 with the first fault
 * printed as "@prog: FILE:LINE: column NAME: what is wrong" and nothing
 * kept.
 */
int vsbench_trace_load(const char *file, const char *prog, struct vsbench_trace *t);
void vsbench_trace_free(struct vsbench_trace *t);

struct vs_conf;
/* @file, or the built-in configuration (Volcano's default) when NULL. */
int vsbench_conf_load(const char *file, struct vs_conf **conf, struct vs_err *err);
/* Volcano's default configuration with @tail after it, read as from @source. */
int vsbench_conf_default_plus(const char *tail, const char *source, struct vs_conf **conf,
			      struct vs_err *err);
/*
 * @file, else the built-in configuration for @shape: Volcano's default,
 * with the network-topology-aware plugin in its second tier when
 * @shape->nt_given.
 */
int vsbench_conf_pick(const char *file, const struct vsbench_shape *shape, struct vs_conf **conf,
		      struct vs_err *err);

#endif /* HARNESS_BENCH_H */

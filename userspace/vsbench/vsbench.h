/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vsbench's commands. Each takes the arguments after its name and returns
 * the program's exit status.
 */
#ifndef VSBENCH_H
#define VSBENCH_H

#include <stdio.h>

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
	s64 node_cpu, node_memory;	/* if node_cpu: every node this size, else mixed */
	/*
	 * Node classes: percent of the podgroups whose tasks select one zone
	 * by nodeSelector, and percent of the nodes with a NoSchedule taint
	 * no task tolerates (dedicated=infra). Neither draws a number.
	 */
	unsigned long selector_pct, tainted_pct;
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

/* The shape options' lines of a command's --help, with its defaults @def. */
void vsbench_shape_usage(FILE *out, const struct vsbench_shape *def);

/* Refuse shapes too large to build (more than 50 million tasks). */
int vsbench_shape_check(const char *cmd, const struct vsbench_shape *shape);

/* Build the nodes, queues, PodGroups and tasks of @shape into @cl. 0 or 1. */
int vsbench_build(struct vs_cluster *cl, const struct vsbench_shape *shape,
		  unsigned long *running);

/*
 * @cl, as built, into the scenario file @file (export.c) of @cycles cycles
 * and the default configuration, @source its "source:". 0; -1 when @file
 * cannot be created (a bad path); 1 when the cluster holds what the file
 * would not carry, or the write failed; each said on stderr.
 */
int vsbench_export_scenario(const struct vs_cluster *cl, const char *file, const char *source,
			    unsigned long cycles);

/* ---- what the reports share (stats.c) ---- */

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

/* ---- vsbench run (run.c) and what it shares with vsbench cycle ---- */

int vsbench_run(int argc, char **argv);
int vsbench_sweep(int argc, char **argv);

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

/* The presets' distribution (run.c): 1 to 64 tasks, a mean of 8.66. */
extern const struct vsbench_gang_size vsbench_gang_sizes[];
extern const unsigned int vsbench_nr_gang_sizes;

/* A gang's size, drawn by weight, cut to the @left tasks still to make. */
unsigned long vsbench_gang_size(const struct vsbench_gangs *g, unsigned long left);

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

/* ---- vsbench sim (sim.c) and its job traces (simtrace.c) ---- */

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

/* ---- requests to vschedd in batches (load.c): vsbench load, vsbench run --mode socket ---- */

struct vsnl;
struct nlmsghdr;
struct vsbench_load_obj;

/*
 * Requests to vschedd on one connection, in batches of @batch messages that
 * the daemon applies all or nothing (<= 1: one request each, acknowledged
 * before the next). The first refusal is printed on stderr, "prog: what
 * name: the daemon's message", and returned (a negative errno): the caller
 * stops, the batches before it stay applied.
 */
struct vsbench_loader {
	const char *prog;
	struct vsnl *c;
	unsigned char *buf;		/* VS_MSG_MAX: one request, for vsnl_msg_put() */
	unsigned long batch;		/* messages per batch; <= 1: one acked request each */
	/*
	 * The next batch, written while the daemon applies the one before
	 * and sent once that one's verdict is in: the messages back to back,
	 * and their names.
	 */
	unsigned char *stage;
	size_t stage_len, stage_cap;
	struct vsbench_load_obj *staged;
	unsigned long nr_staged;
	/* The batch sent, whose END is not answered yet. */
	struct vsbench_load_obj *held;	/* by seq - first_seq */
	unsigned long nr_held;		/* 0: none */
	u32 first_seq;			/* the seq of its first message */
	unsigned long room;		/* staged's and held's */
	unsigned long batches;		/* batches applied */
	unsigned long sent;		/* messages the daemon applied */
};

/*
 * @most: the most messages sent between two flushes (a batch never needs
 * more room than that). 0, or -ENOMEM.
 */
int vsbench_loader_init(struct vsbench_loader *l, const char *prog, struct vsnl *c,
			unsigned long batch, unsigned long most);
void vsbench_loader_destroy(struct vsbench_loader *l);

/*
 * The request in @nlh (copied; l->buf may hold it) into the next batch,
 * which is sent when full, once the batch before is applied; @what and
 * @name (kept until the batch ends) name it if refused. A refusal is
 * returned by the call that reads it: the one that sends the batch after.
 */
int vsbench_loader_add(struct vsbench_loader *l, const struct nlmsghdr *nlh, const char *what,
		       const char *name);

/* Send what is staged, and wait for the daemon's verdict on every batch sent. */
int vsbench_loader_flush(struct vsbench_loader *l);

/*
 * Every object of @cl as a NEW request written by the core's fills, in
 * dependency order (priority classes, queues, nodes, each PodGroup then its
 * tasks), the last batch flushed. 0 or a negative errno, reported.
 */
int vsbench_load_cluster(struct vsbench_loader *l, const struct vs_cluster *cl);
unsigned long vsbench_load_nr_objects(const struct vs_cluster *cl);

/* ---- vsbench run --mode socket (socket.c): the daemon's side of a run ---- */

struct vsbench_remote;

/* What VS_CMD_STATS_GET says, of what a run reports. */
struct vsbench_daemon_stats {
	u32 nodes, queues, podgroups, tasks, vjobs, prioclasses;
	u64 last_cycle;			/* 0 before the first */
	u32 last_pending;		/* tasks pending after it */
	bool has_rss;
	u64 rss;			/* the daemon's resident set, now */
	unsigned int pools;		/* 1: node_pool came, 2: task_pool came */
	struct vs_pool_stats node_pool, task_pool;
};

#define VSBENCH_REMOTE_ACTIONS	16

/* One cycle, as the daemon ran and reported it; times of this side in seconds. */
struct vsbench_remote_cycle {
	u64 id;
	u64 duration_ns;		/* VS_CYCLE_A_DURATION_NS: the daemon's own clock */
	u32 binds;			/* bind decisions read from the notifications */
	u32 daemon_binds;		/* VS_CYCLE_A_BINDS, which they must match */
	u32 pending;			/* VS_CYCLE_A_PENDING */
	u32 nr_actions;
	char action_names[VSBENCH_REMOTE_ACTIONS][32];
	u64 action_ns[VSBENCH_REMOTE_ACTIONS];
	double wall;			/* VS_CMD_CYCLE_RUN sent to its last notification read */
	double confirm;			/* its binds answered, the batches applied */
};

/*
 * Connect twice to the daemon at @socket (NULL: $VSCHED_SOCKET, else the
 * default), check that it holds no object and runs no periodic cycle, and
 * subscribe to decisions and cycles: the run is the binder. Errors are
 * printed with @prog; -EEXIST: the daemon holds objects.
 */
int vsbench_remote_open(struct vsbench_remote **r, const char *socket, const char *prog);
void vsbench_remote_close(struct vsbench_remote *r);

/*
 * Have the daemon queue a whole cycle's decisions of @cl for the run (VS_CMD_CONN_SET),
 * then load @cl with vsbench_load_cluster(), in batches of 1000: the objects applied, the time.
 */
int vsbench_remote_load(struct vsbench_remote *r, const struct vs_cluster *cl,
			unsigned long *objects, double *seconds);

/* Run a cycle, read its decisions, answer every bind (bound, running) before returning. */
int vsbench_remote_cycle(struct vsbench_remote *r, struct vsbench_remote_cycle *rc);

/* The actions the daemon's cycles ran, in order (known after the first cycle). */
const char *const *vsbench_remote_actions(const struct vsbench_remote *r, u32 *nr);

int vsbench_remote_stats(struct vsbench_remote *r, struct vsbench_daemon_stats *st);

#endif /* VSBENCH_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scheduler and its sessions.
 *
 * struct vs_sched binds a cluster to a configuration and runs scheduling
 * cycles on it. One cycle is one session: open it (plugins compute their
 * state in the session arena and register their extension points), run the
 * configured actions in order, close it.
 *
 * Volcano schedules on a snapshot it clones every cycle and throws away at
 * the end, so whatever a session did not commit simply vanishes. vsched
 * schedules on the live objects instead, and gets the same result by
 * bookkeeping: every Statement that is neither committed nor discarded when
 * the session closes is discarded then, newest first. What survives a
 * session is exactly what Volcano's cache would have seen: committed
 * allocations (tasks now Binding, each announced to the decision sink) and
 * committed evictions (tasks Releasing), plus PodGroup phases and
 * conditions written at close.
 */
#ifndef VS_SCHED_SESSION_H
#define VS_SCHED_SESSION_H

#include "core/arena.h"
#include "core/cluster.h"
#include "sched/conf.h"
#include "sched/fastpath.h"
#include "sched/framework.h"
#include "sched/metrics.h"

/* A session keeps the duration of its first VS_SESSION_ACTIONS_TIMED actions. */
#define VS_SESSION_ACTIONS_TIMED	16

struct vs_statement;
struct vs_topo;

/*
 * Where committed decisions go: the bind pipeline, the socket layer's
 * multicast, or a test. Any callback may be NULL. @pipeline hears, as the
 * session closes, each task it leaves Pipelined onto @node (waiting for
 * resources being released), just before the session takes the pipeline
 * back: nothing outside acts on it, but it says where the task will go.
 */
struct vs_decision_sink {
	void (*bind)(void *ctx, struct vs_task *task, struct vs_node *node);
	void (*evict)(void *ctx, struct vs_task *task, const char *reason);
	void (*pipeline)(void *ctx, struct vs_task *task, struct vs_node *node);
	/*
	 * Volcano's job updater: at close, each job the session saw, its
	 * phase set, while the session's notes on its tasks (why they did
	 * not get a node, sched/fiterr.h) are still there.
	 */
	void (*job_status)(void *ctx, struct vs_job *job);
	void *ctx;
};

struct vs_sched_stats {
	u64 cycles;
	u64 binds;
	u64 evicts;
	u64 discarded_ops;	/* operations undone by discards */
	u64 fast_placements;	/* allocate's tasks placed from a node index */
	u64 fast_dry_placements;	/* the same within a HyperNode's dry run */
	u64 fast_misses;	/* tasks the index found no node for where the scan did: 0 */
	u64 class_out;		/* nodes a node class kept out of an index, unscored */
	u64 fast_elsewhere;	/* nodes an index offered that pods elsewhere refused (kept) */
};

struct vs_sched {
	struct vs_cluster *cl;
	const struct vs_registry *reg;	/* the plugins and actions conf may name */
	struct vs_conf *conf;		/* owned */
	struct vs_arena arena;		/* the sessions' scratch memory */
	/*
	 * allocate's dry runs over HyperNodes: what they save and copy,
	 * forgotten once a job's attempt is decided (actions/allocate.c).
	 */
	struct vs_arena dry;
	struct vs_decision_sink sink;
	struct vs_sched_stats stats;
	struct vs_metrics metrics;	/* Volcano's scheduler metrics */
	/*
	 * The time of the cycle about to run (CLOCK_MONOTONIC, ns), set by
	 * whoever runs it: Pending tasks backing off after a failed bind
	 * (vs_task_backing_off()) wait until it passes their retry time. 0:
	 * no clock, no task waits (the in-process tools, which fail no bind).
	 */
	u64 now_ns;
	/*
	 * Every session sees every job, resting or not (tests: the sparse
	 * view must decide as the full one does).
	 */
	bool full_views;
	/* allocate's templates and node indexes, kept from cycle to cycle */
	struct vs_fastpath fast;
	/*
	 * The network topology's view, kept from session to session while
	 * what it is made from holds (sched/topology.h), NULL for none; its
	 * memory, an arena of its own, is freed when it goes stale.
	 */
	struct vs_topo *topo;
	struct vs_arena topo_arena;
};

/* A plugin's enabled implementations of one extension point, in tier order. */
struct vs_ext_list {
	struct vs_plugin **p;
	u32 nr;
};

struct vs_session {
	struct vs_sched *sched;
	struct vs_cluster *cl;
	struct vs_arena *arena;
	u64 cycle;			/* the session's number, from 1 */
	/*
	 * A look at the current state (vs_session_open_inspect()): no cycle
	 * is counted and closing it writes nothing, phases, conditions,
	 * explanations and decisions alike.
	 */
	bool inspect;

	struct vs_plugin *plugins;	/* every configured plugin, in tier order */
	u32 nr_plugins;
	u32 nr_tiers;
	struct vs_ext_list ext[VS_EXT_NR];

	/*
	 * What the session schedules: the jobs whose queue exists (as
	 * Volcano's snapshot keeps them), every queue and every node, in
	 * creation order. Each object's sidx is its index here, so plugins
	 * keep per-object state in arrays (share[job->sidx]).
	 *
	 * A sparse session (see vs_session_sparse()) leaves out the jobs
	 * that rest (core/rest.h): its jobs are the active ones, still in
	 * creation order, and the plugins read the resting ones' part of
	 * the queues' attributes from queue->rest.
	 */
	struct vs_job **jobs;
	u32 nr_jobs;
	bool sparse;
	struct vs_queue **queues;
	u32 nr_queues;
	struct vs_node **nodes;
	u32 nr_nodes;

	struct vs_res total_resource;	/* the sum of the nodes' allocatable */
	struct list_head open_stmts;	/* statements neither committed nor discarded */
	struct vs_statement *direct;	/* vs_session_allocate()'s log, made on first use */

	/* Tasks this session noted something about (sched/fiterr.h). */
	struct vs_task_note *notes;
	/* How far each job got, by sidx, made on first use (sched/explain.h). */
	struct vs_job_trace *traces;
	/* Set around a call whose refusal the caller wants explained (struct vs_why). */
	struct vs_why *why;

	/* The network topology as this session sees it, made on first use (sched/topology.h). */
	struct vs_topo *topo;
	/*
	 * The sub-jobs of the jobs with a subGroupPolicy, by job sidx (NULL
	 * for the others; NULL when no job has one): sched/subjob.h.
	 */
	struct vs_subjobs **subjobs;

	/* Scratch for scoring one task on up to nr_nodes nodes, made on first use. */
	struct vs_node_score *score_buf;
	double *score_raw;

	/* Scratch for victim selection: two masks of victim_cap candidates. */
	bool *victim_keep, *victim_acc;
	u32 victim_cap;

	/* For the metrics (sched/metrics.h): when it opened, the binds before it. */
	u64 opened_ns;
	u64 binds_at_open;
	/* How long each configured action took, by its place in the configuration. */
	u64 action_ns[VS_SESSION_ACTIONS_TIMED];
	u32 nr_actions_run;		/* the failed one included */
};

/*
 * Take @conf (owned from now on, also on failure) after checking it against
 * @reg, which must outlive the scheduler. The sink may be changed later
 * through sched->sink.
 */
int vs_sched_init(struct vs_sched *sched, struct vs_cluster *cl, const struct vs_registry *reg,
		  struct vs_conf *conf, struct vs_err *err);
void vs_sched_destroy(struct vs_sched *sched);

/* Replace the configuration; on error the old one stays in force. */
int vs_sched_set_conf(struct vs_sched *sched, struct vs_conf *conf, struct vs_err *err);

/* One scheduling cycle: open a session, run the actions, close it. */
int vs_sched_run_cycle(struct vs_sched *sched, struct vs_err *err);

/*
 * The configured actions, in order, in an open session. A cycle is
 * vs_session_open(), this, vs_session_close(); tools and tests that must
 * look at a session's decisions before it closes (what is pipelined, the
 * scores) run the three themselves.
 */
int vs_session_run_actions(struct vs_session *ssn, struct vs_err *err);

/*
 * The parts of a cycle, for tests and for tools that inspect a session
 * (scores in a session opened on the current state).
 */
int vs_session_open(struct vs_sched *sched, struct vs_session **out, struct vs_err *err);
void vs_session_close(struct vs_session *ssn);

/*
 * A session opened to look (vsctl explain --scores): the plugins see the
 * current state as a cycle's would, nothing is counted as a cycle, and
 * vs_session_close() on it leaves everything as it was. Only reads may be
 * done in it.
 */
int vs_session_open_inspect(struct vs_sched *sched, struct vs_session **out,
			    struct vs_err *err);

/*
 * Volcano's Session.Allocate, used by backfill: allocate @task on @node at
 * once (no statement of the caller's), and when that makes its job ready,
 * dispatch every Allocated task of the job to the binder. What is still
 * only Allocated when the session closes is undone then.
 */
int vs_session_allocate(struct vs_session *ssn, struct vs_task *task, struct vs_node *node,
			struct vs_err *err);

/* The plugin instance named @name in this session, or NULL. */
struct vs_plugin *vs_session_plugin(struct vs_session *ssn, const char *name);

/*
 * The priority of a job: its PodGroup's priority class value, else the
 * global default class's, else 0 (as Volcano's snapshot sets JobInfo.Priority).
 */
s32 vs_session_job_priority(const struct vs_session *ssn, const struct vs_job *job);

#endif /* VS_SCHED_SESSION_H */

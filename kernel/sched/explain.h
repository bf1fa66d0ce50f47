/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Why a job or a task is where it is ("vsctl explain"), following the
 * decision tree of seed 002: admitted by enqueue, JobValid, the queue
 * (missing, closed, overused), Allocatable, PrePredicate, the predicates
 * on every node, the gang's readiness, pipelining, the bind.
 *
 * Volcano answers these questions in its logs. vsched keeps the answer:
 * while a session runs, the actions trace how far each job got (struct
 * vs_job_trace, session arena, and the task notes of sched/fiterr.h); as
 * it closes, vs_explain_record() copies what it found for each job into
 * one block hung off the job (job->why), replaced by the next session
 * that considers the job, and freed with it. Jobs with nothing to explain
 * (everything placed) keep none. vs_explain_task(), vs_explain_job() and
 * vs_explain_node() compose the explanation from that block and the live
 * state (a bind's backoff, the tasks being released on a node).
 */
#ifndef VS_SCHED_EXPLAIN_H
#define VS_SCHED_EXPLAIN_H

#include "core/cluster.h"

struct vs_session;
struct vs_sched;
struct vs_why;
struct vs_topo;
struct vs_hn_gradients;
struct vs_topo_trace;

/* How far a job got in the last session that considered it. */
enum vs_why_step {
	VS_WHY_NONE,		/* nothing stopped it, or nothing was tried */
	VS_WHY_NOT_ENQUEUED,	/* Pending: enqueue did not admit it */
	VS_WHY_INVALID,		/* JobValid failed */
	VS_WHY_OVERUSED,	/* its queue was overused when the job's turn came */
	VS_WHY_DISCARDED,	/* tasks were placed, the gang was not ready: discarded */
	VS_WHY_PIPELINED,	/* enough tasks placed or pipelined: left pipelined */
	VS_WHY_COMMITTED,	/* ready: its allocations went to the binder */
	VS_WHY_NR
};

/* What a session's actions found about one job (session arena). */
struct vs_job_trace {
	u8 step;			/* enum vs_why_step, the last one reached */
	bool admitted;			/* enqueue admitted it in this session */
	u32 placed;			/* tasks ready or pipelined when its attempt ended */
	u32 refused;			/* tasks Allocatable refused */
	const struct vs_task *first_refused;
	const char *reason;		/* JobValid's reason */
	char *words;			/* arena: the refusal's words ("plugin: text") */
	struct vs_topo_trace *topo;	/* arena: its HyperNode search, if it had one */
	char *topo_text;		/* arena: vs_explain_record()'s words for it */
	/*
	 * A job with sub-groups: its sub-jobs, and the tasks each had ready or
	 * pipelined in the dry run that placed the most (sub_placed[i] for
	 * subs->sj[i], arena; NULL: none noted), and vs_explain_record()'s
	 * words for them.
	 */
	const struct vs_subjobs *subs;
	u32 *sub_placed;
	u32 sub_best;
	char *sub_text;
	/* vs_explain_record()'s: the job's noted tasks, their texts, its cursor */
	u32 nr_notes, text_bytes;
	u32 filled, text_pos;
};

/*
 * The trace of @job in this session, the session's array made on first
 * use; NULL when out of memory or when the session does not schedule the
 * job. A trace is bookkeeping: losing one loses a detail of an
 * explanation, never a decision.
 */
struct vs_job_trace *vs_trace(struct vs_session *ssn, const struct vs_job *job);

/* Keep @why's words ("plugin: text") in @t, from the session arena. */
void vs_trace_words(struct vs_session *ssn, struct vs_job_trace *t, const struct vs_why *why,
		    const char *what);

/*
 * A job with a hard network topology: allocate's search HyperNode by
 * HyperNode (allocate_for_job()), kept for the explanation. Only pointers
 * into the session and a few counters are noted while allocate runs; the
 * words are made at session close for the jobs that did not fit
 * (Documentation/scheduling.md, "Why a topology job waits").
 */
struct vs_topo_trace {
	const struct vs_topo *topo;
	s32 highest_tier;
	u32 allocated;			/* the job's AllocatedHyperNode, or VS_TOPO_NONE */
	bool no_root;			/* no search root within the tier (gradient failed) */
	const u32 *hns;			/* the job's gradients (session arena)... */
	const u32 *start;
	u32 nr_gradients;		/* ...0: no HyperNode within the tier could hold it */
	struct vs_res min;		/* what a HyperNode had to hold (the job's minResources) */
	/* the dry runs, one per HyperNode of the gradients, in order */
	u32 nr_tried;
	u32 *placed;			/* by dry run: the most tasks ready or pipelined */
	bool *sub_empty;		/* by dry run: no HyperNode under it held the sub-job */
	struct vs_res sub_min;		/* the sub-job's pending requests, the first time */
	bool has_sub_min;
};

/*
 * Start @t's topology trace for one search: @g the job's gradients (NULL:
 * the search failed), @min what a HyperNode had to hold. NULL when out of
 * memory (the explanation loses the detail).
 */
struct vs_topo_trace *vs_trace_topo(struct vs_session *ssn, struct vs_job_trace *t,
				    const struct vs_topo *topo, s32 highest_tier, u32 allocated,
				    const struct vs_hn_gradients *g, const struct vs_res *min);

/* A dry run in the gradients' next HyperNode begins. */
static inline void vs_trace_topo_try(struct vs_topo_trace *tt)
{
	if (tt && tt->placed)
		tt->nr_tried++;
}

/* The dry run now under way got @placed tasks ready or pipelined. */
static inline void vs_trace_topo_placed(struct vs_topo_trace *tt, u32 placed)
{
	if (tt && tt->nr_tried && tt->placed[tt->nr_tried - 1] < placed)
		tt->placed[tt->nr_tried - 1] = placed;
}

/* No HyperNode under the one being tried could hold the sub-job's @min. */
void vs_trace_topo_sub_empty(struct vs_topo_trace *tt, const struct vs_res *min);

/*
 * A dry run of @t's job, which has sub-groups (@sjs), ends: keep what each
 * sub-group has ready or pipelined if it is the most so far.
 */
void vs_trace_subs_placed(struct vs_session *ssn, struct vs_job_trace *t,
			  const struct vs_subjobs *sjs);

/*
 * At session close, after the open statements are discarded and before the
 * notes go: each job the session scheduled gets the block of what it found
 * (or loses its old one when there is nothing to say).
 */
void vs_explain_record(struct vs_session *ssn);

/* Free a job's block (the cluster calls it as the job goes). */
void vs_explain_free(struct vs_job *job);

/*
 * An explanation: the object's status, a reason (one word,
 * "Unschedulable", "QueueOverused"...), a message (one line) and the steps
 * of the decision tree, one line each, in order, the last where it stopped.
 */
struct vs_explain {
	const char *status;		/* "Pending", "Running", "Ready"... */
	const char *reason;
	u64 cycle;			/* the session it comes from; 0: live state only */
	char *message;			/* heap */
	char *steps;			/* heap: step\0step\0... */
	size_t len, cap;
	u32 nr_steps;
	bool failed;			/* out of memory: the text is cut */
};

void vs_explain_init(struct vs_explain *ex);
void vs_explain_release(struct vs_explain *ex);

static inline const char *vs_explain_message(const struct vs_explain *ex)
{
	return ex->message ? ex->message : "";
}

/* The steps in order: for (s = vs_explain_first(ex); s; s = vs_explain_next(ex, s)) */
const char *vs_explain_first(const struct vs_explain *ex);
const char *vs_explain_next(const struct vs_explain *ex, const char *step);

/*
 * Compose the explanation of a task, a job (a PodGroup) or a node. @now_ns
 * is the clock bind backoffs are counted in (0: none waits). @sched may be
 * NULL (no configuration: nothing was scheduled). 0, or -ENOMEM.
 */
int vs_explain_task(const struct vs_sched *sched, const struct vs_task *task, u64 now_ns,
		    struct vs_explain *ex);
int vs_explain_job(const struct vs_sched *sched, const struct vs_job *job, u64 now_ns,
		   struct vs_explain *ex);
int vs_explain_node(const struct vs_node *node, struct vs_explain *ex);

/*
 * --scores: add to @ex the nodes @task passes allocate's predicates on,
 * the Idle gradient's then FutureIdle's, each scored over its gradient as
 * allocate scores it, best first (ties in creation order), at most @max,
 * with every scoring plugin's part: "Score n2: 137.5 (Idle, nodeorder 100,
 * binpack 37.5)". In a session that only looks (vs_session_open_inspect()).
 * A placed task is scored on the other nodes. 0, or a negative errno with
 * @err. (kernel/actions/scores.c: it predicates as allocate does.)
 */
struct vs_err;
int vs_explain_scores(struct vs_sched *sched, const struct vs_task *task, u32 max,
		      struct vs_explain *ex, struct vs_err *err);

/* Add a step line (for the composers of explanations). */
__printf(2, 3)
void vs_explain_step(struct vs_explain *ex, const char *fmt, ...);

#endif /* VS_SCHED_EXPLAIN_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Why tasks did not get a node: what a session notes about a task, and the
 * messages Volcano builds from it for PodGroup conditions and events.
 *
 * Volcano keeps this on its per-session clones of JobInfo and TaskInfo:
 * job.NodesFitErrors[task] (the nodes that refused a task and why) and
 * task.LastTransaction (what the task was in the last Statement that was
 * discarded). vsched schedules the live objects, so the session hangs a
 * struct vs_task_note off each task it has something to say about, from
 * its arena, and takes them all down again when it closes.
 */
#ifndef VS_SCHED_FITERR_H
#define VS_SCHED_FITERR_H

#include "core/cluster.h"

struct vs_session;

/*
 * allocate's fit error for a task whose role failed before (the task's
 * name, its role): the only SetError message, so an explanation says it
 * again from the task rather than keep a copy per task.
 */
#define VS_ROLE_FAILED_FMT	"Task %s with role spec %s has already predicated failed, skip"

/* snprintf at @off of @buf, which may already be full (@off counts on, as snprintf's). */
#define VS_APPEND(buf, len, off, ...)						\
	((off) += snprintf((buf) + ((size_t)(off) < (len) ? (size_t)(off) : (len)),	\
			   (size_t)(off) < (len) ? (len) - (size_t)(off) : 0, __VA_ARGS__))

/* One reason and the number of nodes that gave it. */
struct vs_fit_reason {
	const char *reason;		/* session arena */
	u32 count;
};

/* Volcano's FitErrors: the nodes that refused a task, as a histogram of reasons. */
struct vs_fit_errors {
	u32 nr_nodes;
	u32 nr_reasons, cap_reasons;
	struct vs_fit_reason *reasons;
	const char *err;		/* SetError's text; NULL: "0/<nodes> nodes are unavailable" */
	bool pre_predicate;		/* PrePredicate refused the task (every node's reason) */
	/*
	 * SetHyperNode: the HyperNode whose nodes refused the task (a HyperNode
	 * of the cluster's, never its top), or NULL; the text then starts "In
	 * hyperNode NAME: ".
	 */
	const char *hypernode;
	/*
	 * A byte per session node (ssn->nodes order), true where the node
	 * refused for good (UnschedulableAndUnresolvable): preempt does not try
	 * those nodes again (Volcano's FilterOutUnschedulableAndUnresolvable-
	 * NodesForTask). NULL when none did or nodes were not told apart.
	 */
	u8 *unresolvable;
};

struct vs_task_note {
	struct vs_task *task;
	struct vs_task_note *next;	/* the session's notes */
	struct vs_fit_errors *fit;	/* NodesFitErrors[task], or NULL */
	bool has_last_tx;		/* LastTransaction */
	bool tx_evicted;		/* its pipeline's EvictionOccurred */
	bool last_tx_evicted;		/* LastTransaction's */
	enum vs_task_status last_tx;
	const struct vs_node *last_tx_node;
	struct vs_node *committed_pipeline;	/* pipelined here by a committed Statement */
	/* @fit in kube-scheduler's words, formatted once by vs_explain_record() (arena) */
	const char *fit_text;
};

/* An empty histogram, from the session arena; NULL when out of memory. */
struct vs_fit_errors *vs_fit_errors_new(struct vs_session *ssn);

/* One more node refused the task for @reason. */
int vs_fit_errors_add(struct vs_session *ssn, struct vs_fit_errors *fe, const char *reason);

/* Replace the "0/N nodes are unavailable" lead with @msg. */
int vs_fit_errors_set_error(struct vs_session *ssn, struct vs_fit_errors *fe, const char *msg);

/*
 * FitErrors.Error(): "0/3 nodes are unavailable: 1 Insufficient cpu, 2
 * node(s) had untolerated taint {k: v}." (reasons as "count reason",
 * sorted as strings), after "In hyperNode NAME: " when @hypernode is set.
 * Returns what snprintf() would.
 */
int vs_fit_errors_format(const struct vs_fit_errors *fe, char *buf, size_t len);

/*
 * The same in kube-scheduler's words, which vsctl explain uses: "0/3 nodes
 * are available: 1 Insufficient memory, 2 node(s) had untolerated taint
 * {k: v}."
 */
int vs_fit_errors_format_kube(const struct vs_fit_errors *fe, char *buf, size_t len);

/* The task's note in this session, made on first use; NULL when out of memory. */
struct vs_task_note *vs_session_task_note(struct vs_session *ssn, struct vs_task *task);

/* job.NodesFitErrors[task] = fe. */
int vs_session_set_fit_errors(struct vs_session *ssn, struct vs_task *task,
			      struct vs_fit_errors *fe);

/*
 * A Statement placed @task: its EvictionOccurred is @evicted (noted only
 * where true, or where a note is kept already).
 */
void vs_session_note_tx(struct vs_session *ssn, struct vs_task *task, bool evicted);

/*
 * The node to write as @task's nominated one at the session's end: where
 * its last transaction, else its current one, pipelined it with room made
 * by evictions (TaskSchedulingReason's nominatedNodeName). NULL: none.
 */
const struct vs_node *vs_task_tx_nominated(const struct vs_task *task);

/* A Statement is undoing @task's operation (GenerateLastTxContext). */
void vs_session_note_discard(struct vs_session *ssn, struct vs_task *task);

/* A Statement committed @task's operation (ClearLastTxContext). */
static inline void vs_session_note_commit(struct vs_task *task)
{
	if (task->note)
		task->note->has_last_tx = false;
}

/*
 * A committed Statement left @task pipelined on @node. Volcano's cache never
 * hears of it, so the session puts the task back to Pending at close.
 */
void vs_session_note_pipeline(struct vs_session *ssn, struct vs_task *task,
			      struct vs_node *node);

/* The status of the task's last transaction: LastTransaction, else its own. */
static inline enum vs_task_status vs_task_last_tx_status(const struct vs_task *task)
{
	return task->note && task->note->has_last_tx ? task->note->last_tx : task->status;
}

/*
 * TaskSchedulingReason's reason for a pending task: "Schedulable" when its
 * last transaction allocated it (it only waits for the gang),
 * "Unschedulable" otherwise.
 */
const char *vs_task_scheduling_reason(const struct vs_task *task);

/*
 * JobInfo.FitError(): the job's readiness, a histogram of its tasks'
 * statuses with minAvailable, the pending tasks' scheduling reasons, and
 * the fit errors of its first task that has some ("Origin reason is").
 */
int vs_job_fit_error(const struct vs_job *job, char *buf, size_t len);

/*
 * At session close: committed pipelines are undone, then every note goes,
 * with the arena.
 */
void vs_session_drop_notes(struct vs_session *ssn);

#endif /* VS_SCHED_FITERR_H */

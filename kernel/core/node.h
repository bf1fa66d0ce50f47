/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_node: a Kubernetes node and Volcano's resource accounting on it.
 *
 * The accounting is Volcano's NodeInfo, kept exact by vs_node_add_task(),
 * vs_node_remove_task() and vs_node_update_task() for every task status:
 *
 *   Releasing:	idle -= req, used += req, releasing += req
 *   Pipelined:	pipelined += req
 *   otherwise:	idle -= req, used += req
 *
 * Invariants, for every node at every moment between calls:
 *   idle + used == allocatable
 *   releasing == sum of the requests of its Releasing tasks
 *   pipelined == sum of the requests of its Pipelined tasks
 *   nr_tasks == the length of @tasks
 * FutureIdle = idle + releasing - pipelined is derived, never stored.
 * Idle can go negative only when the outside world reports more running
 * work on a node than it has room for, which Volcano also tolerates.
 * A sum past INT64_MAX - 1 reads as VS_RES_INF (then idle is allocatable
 * less that) and is counted again from the tasks when one leaves it
 * (core/res.h): the sums are always what vs_node_check() computes.
 */
#ifndef VS_CORE_NODE_H
#define VS_CORE_NODE_H

#include "core/compiler.h"
#include "core/err.h"
#include "core/labels.h"
#include "core/list.h"
#include "core/rbtree.h"
#include "core/res.h"

struct vs_task;
struct vs_node_class;

/*
 * The touch log: the session indexes (sidx) of the nodes whose accounting
 * or spec changed, in order, for whoever keeps something computed from
 * nodes across calls (allocate's node indexes, sched/fastpath.h) and must
 * re-compute it for those nodes only. Positions count from the cluster's
 * start and never go back, so a reader keeps the position it read up to.
 *
 * A node already logged at or after @read (the position up to which
 * anybody may have read) is not logged again: every reader will meet that
 * entry. So between two reads the log holds each node at most once.
 */
struct vs_node_log {
	u32 *sidx;
	u32 nr, cap;
	u64 base;			/* the position of sidx[0] */
	u64 read;			/* entries before it may have been read */
	bool lost;			/* an entry was not stored (memory): readers start over */
};

static inline u64 vs_node_log_end(const struct vs_node_log *log)
{
	return log->base + log->nr;
}

/* A reader took in every entry before @pos (at most the end). */
static inline void vs_node_log_read(struct vs_node_log *log, u64 pos)
{
	if (pos > log->read)
		log->read = pos;
}

/* Forget the entries before @pos: every reader is past them. */
void vs_node_log_trim(struct vs_node_log *log, u64 pos);

/* Forget every entry (the readers start over from the nodes themselves). */
void vs_node_log_reset(struct vs_node_log *log);

void vs_node_log_destroy(struct vs_node_log *log);

struct vs_node {
	const char *name;		/* interned */
	u64 seq;			/* creation order: breaks ties between equal scores */
	struct hlist_node hnode;	/* cluster node index */
	struct list_head list;		/* cluster->nodes, creation order */

	struct vs_labels *labels;
	struct vs_taints *taints;
	struct vs_node_images *images;	/* its summaries (core/images.h), or NULL */
	bool unschedulable;		/* spec.unschedulable (cordoned) */
	bool ready;			/* the Ready condition */
	struct vs_node_class *cls;	/* of the four above (core/nodeclass.h) */

	struct vs_res allocatable;
	struct vs_res idle;
	struct vs_res used;
	struct vs_res releasing;
	struct vs_res pipelined;

	struct list_head tasks;		/* every task counted here */
	u32 nr_tasks;			/* Volcano's len(node.Tasks), for max pods */
	u32 nr_zero_cpu;		/* tasks here requesting no cpu */
	u32 nr_zero_memory;		/* tasks here requesting no memory */
	u32 nr_port_tasks;		/* tasks here holding host ports */

	/*
	 * The node's stable index in its cluster (cluster->node_slot), which
	 * is its index in a session's nodes too: given when the node is added,
	 * changed only when deleted nodes' slots are closed up (a new node
	 * generation, cluster->node_gen).
	 */
	u32 sidx;
	u32 txn_gen;			/* its sums saved by that transaction (core/txn.h) */
	struct vs_node_log *log;	/* the cluster's touch log, or NULL */
	u64 logged;			/* 1 + the position of its last entry, 0: none */
	/* Last, out of the way of the fields scheduling reads: only listings walk it. */
	struct rb_node byname;		/* cluster->node_names */
	/* Only what prints or sends it reads this: out of the way too. */
	const struct vs_res_dims *dims;	/* its cluster's resource names */
};

/*
 * Log @node in its cluster's touch log: what allocate's predicates or
 * scores read of it changed. The accounting functions below do it; so
 * does every change of the node's spec.
 */
void vs_node_touch(struct vs_node *node);

/* FutureIdle = idle + releasing - pipelined. */
void vs_node_future_idle(const struct vs_node *node, struct vs_res *out);

/*
 * @node's FutureIdle, in *@buf unless it is the node's idle as it is (no
 * task releasing or pipelined there, the common case): no copy then.
 */
static inline const struct vs_res *vs_node_future_idle_of(const struct vs_node *node,
							  struct vs_res *buf)
{
	const struct vs_res *r = &node->releasing, *p = &node->pipelined;

	if (!r->present && !p->present && !r->v[VS_RES_CPU] && !r->v[VS_RES_MEMORY] &&
	    !p->v[VS_RES_CPU] && !p->v[VS_RES_MEMORY])
		return &node->idle;
	vs_node_future_idle(node, buf);
	return buf;
}

/* kube-scheduler's defaults for a container that requests no cpu or memory. */
#define VS_NONZERO_CPU		100			/* millicores */
#define VS_NONZERO_MEMORY	(200LL * 1024 * 1024)	/* bytes */

/*
 * What kube-scheduler's NodeInfo sees as requested on the node (cpu and
 * memory of every task on it, pipelined and releasing ones included, as
 * Volcano builds that NodeInfo from node.Tasks), plain and "non-zero" (a
 * task requesting none counts the defaults above). The scoring plugins read
 * these. vsched knows a task's total request, not its containers', so a
 * task counts as one container here.
 */
void vs_node_requested(const struct vs_node *node, s64 *cpu, s64 *memory,
		       s64 *nonzero_cpu, s64 *nonzero_memory);

/*
 * Count @task (which must have no node) on @node according to its status.
 * A Binding task that does not fit the node's idle resources is refused with
 * -ENOSPC, as Volcano double-checks before binding; nothing changes then.
 * Terminal tasks occupy nothing and are refused with -EINVAL.
 */
int vs_node_add_task(struct vs_node *node, struct vs_task *task, struct vs_err *err);

/* Undo exactly what vs_node_add_task() counted; the task leaves the node. */
void vs_node_remove_task(struct vs_node *node, struct vs_task *task);

/*
 * Re-count @task, already on @node, after its status changed. Cannot fail:
 * as Volcano's UpdateTask, removal always leaves room to add it back.
 */
void vs_node_update_task(struct vs_node *node, struct vs_task *task);

/*
 * Replace the node's allocatable resources and recompute idle from what its
 * tasks use, keeping the invariants. An allocatable without pods counts as
 * pods 0: no pod fits there, as in Volcano.
 */
void vs_node_set_allocatable(struct vs_node *node, const struct vs_res *allocatable);

/* Check every invariant above against the node's task list; 0 or -EIO with why. */
int vs_node_check(const struct vs_node *node, struct vs_err *err);

/* ---- the node in the cluster (node.c) ---- */

struct vs_cluster;

struct vs_node_spec {
	const char *name;
	struct vs_res allocatable;
	const struct vs_kv_spec *labels;
	u32 nr_labels;
	const struct vs_taint_spec *taints;
	u32 nr_taints;
	bool unschedulable;
	bool ready;
	const struct vs_image_spec *images;	/* status.images */
	u32 nr_images;
};

/* A spec with Kubernetes' defaults: ready, schedulable, nothing allocatable. */
void vs_node_spec_init(struct vs_node_spec *spec, const char *name);

/* -EEXIST for a name in use; -EINVAL for a bad spec. */
int vs_node_add(struct vs_cluster *cl, const struct vs_node_spec *spec,
		struct vs_node **out, struct vs_err *err);

/* Replace the node's spec (name excepted); accounting follows the new allocatable. */
int vs_node_update(struct vs_cluster *cl, struct vs_node *node,
		   const struct vs_node_spec *spec, struct vs_err *err);

/* -EBUSY while tasks are counted on it. */
int vs_node_del(struct vs_cluster *cl, struct vs_node *node, struct vs_err *err);

struct vs_node *vs_node_find(const struct vs_cluster *cl, const char *name);

#endif /* VS_CORE_NODE_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_cluster: the whole scheduling state, owned by one thread.
 *
 * The cluster allocates every object from its per-type pools, interns their
 * strings, indexes them by name (nodes, queues and priority classes by name;
 * jobs, tasks and VolcanoJobs by namespace/name), keeps them in name order
 * for listings (core/nametree.h) and on lists in creation order, which is
 * the stable order ties are broken by.
 *
 * Task requests are interned as strings are (core/reqtab.h): tasks that ask
 * for the same resources share one immutable copy.
 *
 * Objects are created from specs: plain descriptions a caller (the socket
 * layer, the scenario loader, a test) fills in, declared with each object
 * (node.h, queue.h, job.h, task.h, prioclass.h, vjob.h), which this header
 * brings in. Every spec is validated before anything changes; a refused
 * spec leaves the cluster exactly as it was and explains itself in the
 * struct vs_err.
 *
 * A task's status changes only through vs_task_set_status(),
 * vs_task_place() and vs_task_unplace() (task.h), which keep the job's
 * status index and totals, the node's accounting and the queue's totals
 * consistent: vs_cluster_check() (check.c) verifies all of it.
 */
#ifndef VS_CORE_CLUSTER_H
#define VS_CORE_CLUSTER_H

#include "core/affinity.h"
#include "core/compiler.h"
#include "core/err.h"
#include "core/htable.h"
#include "core/job.h"
#include "core/labels.h"
#include "core/list.h"
#include "core/hypernode.h"
#include "core/images.h"
#include "core/nametree.h"
#include "core/node.h"
#include "core/nodeclass.h"
#include "core/pool.h"
#include "core/prioclass.h"
#include "core/queue.h"
#include "core/reqtab.h"
#include "core/res.h"
#include "core/strtab.h"
#include "core/task.h"
#include "core/vjob.h"

/*
 * The most objects of each kind a cluster holds, so that a client cannot
 * make the process run out of memory with objects (one VolcanoJob of two
 * billion replicas, say): an add past a limit is refused with ENOSPC and a
 * message naming it, and changes nothing. vs_cluster_init() sets the
 * defaults below, a few times what the largest clusters vsched is for hold
 * (50,000 nodes, a million pods: Documentation/admin-guide.md, "Limits");
 * vschedd's --limit KIND=N sets them. A VolcanoJob whose replicas alone
 * pass the limit of tasks is refused at once.
 */
struct vs_cluster_limits {
	u32 nodes;
	u32 queues;
	u32 podgroups;
	u32 tasks;
	u32 vjobs;
	u32 prioclasses;
	u32 hypernodes;
};

#define VS_LIMIT_NODES		200000
#define VS_LIMIT_QUEUES		100000
#define VS_LIMIT_PODGROUPS	2000000
#define VS_LIMIT_TASKS		4000000
#define VS_LIMIT_VJOBS		1000000
#define VS_LIMIT_PRIOCLASSES	10000
#define VS_LIMIT_HYPERNODES	100000

/*
 * Set the limit of the kind @kind names ("nodes", "queues", "podgroups",
 * "tasks", "vjobs", "prioclasses", "hypernodes") to @value (at least 1); -EINVAL with
 * the reason for another name or 0.
 */
int vs_cluster_limit_set(struct vs_cluster_limits *limits, const char *kind, u32 value,
			 struct vs_err *err);

struct vs_cluster {
	struct vs_strtab strs;
	struct vs_reqtab reqs;		/* the tasks' requests, interned */

	struct vs_pool node_pool;
	struct vs_pool queue_pool;
	struct vs_pool job_pool;
	struct vs_pool task_pool;
	struct vs_pool vjob_pool;
	struct vs_pool prioclass_pool;
	struct vs_pool hypernode_pool;

	struct vs_htable node_index;
	struct vs_htable queue_index;
	struct vs_htable job_index;
	struct vs_htable task_index;
	struct vs_htable vjob_index;
	struct vs_htable prioclass_index;
	struct vs_htable hypernode_index;
	struct vs_htable hypernode_claims;	/* HyperNode members by exactMatch, by name */
	/* The same objects in name order (core/nametree.h) once listed. */
	struct vs_name_tree node_names;
	struct vs_name_tree queue_names;
	struct vs_name_tree job_names;
	struct vs_name_tree task_names;
	struct vs_name_tree vjob_names;
	struct vs_name_tree prioclass_names;
	struct vs_name_tree hypernode_names;

	struct list_head nodes;		/* creation order */
	struct list_head queues;
	struct list_head jobs;
	struct list_head orphan_jobs;	/* jobs whose queue does not exist */
	/*
	 * Jobs with a queue that do not rest (core/rest.h), in creation
	 * order (seq): the order a session's view has them in, kept as jobs
	 * wake and rest so that opening a session sorts nothing
	 * (Documentation/core.md, "The active jobs"). @active_last is the
	 * last of them, where a new job goes without a descent.
	 */
	struct rb_root active_jobs;
	struct rb_node *active_last;
	u32 nr_active_jobs;
	struct list_head vjobs;
	struct list_head prioclasses;
	/* HyperNodes and the tree over them (core/hypernode.h). */
	struct vs_hypernodes hypernodes;

	struct vs_cluster_limits limits;
	u32 nr_nodes;
	u32 nr_queues;
	u32 nr_jobs;
	u32 nr_tasks;
	u32 nr_vjobs;
	u32 nr_prioclasses;
	/*
	 * What makes a score depend on more than its node (the fast path of
	 * allocate asks): tasks with pod affinity or anti-affinity terms,
	 * nodes with a PreferNoSchedule taint.
	 */
	u32 nr_pod_affinity_tasks;
	u32 nr_pod_preferred_tasks;	/* of those, with preferred terms */
	u32 nr_prefer_no_schedule_nodes;

	u64 seq;			/* the next creation sequence number */
	u64 created_max;		/* the latest creation time given */
	struct vs_res total_allocatable;	/* sum over every node */

	/*
	 * The nodes by their stable index (node->sidx), in creation order: a
	 * node keeps its slot from vs_node_add() to vs_node_del(), which
	 * leaves a NULL hole there until vs_cluster_compact_nodes() closes
	 * the holes up (at session open). @node_gen changes whenever a slot
	 * changes hands (a node added, deleted, or moved by compaction):
	 * whoever keeps something by sidx across calls starts over then.
	 */
	struct vs_node **node_slot;
	u32 nr_node_slots;		/* nodes and holes */
	u32 cap_node_slots;
	u32 nr_node_holes;
	u64 node_gen;
	/* The nodes whose accounting or spec changed (core/node.h). */
	struct vs_node_log touched;
	/* The nodes' classes (core/nodeclass.h). */
	struct vs_node_classes classes;
	struct vs_image_table images;	/* the names nodes report (core/images.h) */
	/* The open transaction, or NULL (core/txn.h); @txn_gen numbers them. */
	struct vs_txn *txn;
	u32 txn_gen;
	/*
	 * What each scalar index of this cluster's vectors means (core/res.h):
	 * read it freely; it grows through vs_cluster_dim_get() alone.
	 */
	struct vs_res_dims dims;
};

int vs_cluster_init(struct vs_cluster *cl);

/*
 * The index of the resource @name in @cl's table, registering it if it is
 * new (vs_res_dim_get(): the same refusals). A name registered while a
 * transaction is open is journalled: its abort forgets it, so that what
 * was refused or undone keeps no name and cannot fill the table.
 */
int vs_cluster_dim_get(struct vs_cluster *cl, const char *name, size_t len,
		       struct vs_err *err);

/* Free every object and the cluster's own memory. */
void vs_cluster_destroy(struct vs_cluster *cl);

/*
 * Verify every invariant of every object (node accounting, job indexes and
 * totals, queue totals, index membership, the cluster's counters, the
 * reference counts of the interned requests); 0, or
 * -EIO with the first violation. For tests and for "vsctl check".
 */
int vs_cluster_check(const struct vs_cluster *cl, struct vs_err *err);

/*
 * Keep the name trees (core/nametree.h) from now on, made at the first
 * call from every object there is: for who lists the objects in name
 * order (the dumps). O(n log n) once, then O(log n) per add and delete.
 */
void vs_cluster_keep_names(struct vs_cluster *cl);

/* ---- node slots and creation order ---- */

/*
 * Close up the holes deleted nodes left in cl->node_slot, keeping the
 * order: afterwards node_slot[0..nr_nodes) are the nodes in creation order
 * and each node's sidx is its slot. A new node generation when anything
 * moved; the touch log, whose entries name slots, starts over then.
 */
void vs_cluster_compact_nodes(struct vs_cluster *cl);

/*
 * Creation order, as Volcano's fallbacks order queues, jobs and tasks the
 * plugins leave equal: the metadata.creationTimestamp (whole seconds, as
 * Kubernetes keeps it), then the order the objects reached the cluster
 * (@ls, @rs: their seq), which stands for the UID Volcano compares last.
 * A client that loads an existing cluster from the API server's lists
 * (in name order) thus gets the order its objects were made in.
 */
static inline int vs_created_cmp(u64 lc, u64 ls, u64 rc, u64 rs)
{
	if (lc != rc)
		return lc < rc ? -1 : 1;
	return ls < rs ? -1 : ls > rs;
}

/*
 * The creation time of an object given @created (0: none): that, which
 * the cluster then counts as the latest it knows if it is; or, for none,
 * the latest (an object made by the daemon's controllers, or sent without
 * one, is newer than every object it was given), 0 while none was.
 */
static inline u64 vs_created_take(struct vs_cluster *cl, u64 created)
{
	if (!created)
		return cl->created_max;
	if (created > cl->created_max)
		cl->created_max = created;
	return created;
}

static inline struct vs_job *vs_active_job_of(const struct rb_node *node)
{
	return node ? container_of(node, struct vs_job, active_node) : NULL;
}

/* The first active job in creation order, or NULL. */
static inline struct vs_job *vs_active_job_first(const struct vs_cluster *cl)
{
	return vs_active_job_of(rb_first(&cl->active_jobs));
}

/* The active job made after @job, or NULL. */
static inline struct vs_job *vs_active_job_next(const struct vs_job *job)
{
	return vs_active_job_of(rb_next(&job->active_node));
}

/* Walk the active jobs in creation order; @job must not wake or rest meanwhile. */
#define vs_for_each_active_job(job, cl) \
	for (job = vs_active_job_first(cl); job; job = vs_active_job_next(job))

#endif /* VS_CORE_CLUSTER_H */

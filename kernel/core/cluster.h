/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_cluster: the whole scheduling state, owned by one thread.
 *
 * The cluster allocates every object from its per-type pools, interns their
 * strings, indexes them by name (nodes, queues and priority classes by name;
 * jobs, tasks and VolcanoJobs by namespace/name) and keeps them on lists in
 * creation order, which is the stable order ties are broken by.
 *
 * Task requests are interned as strings are (core/reqtab.h): tasks that ask
 * for the same resources share one immutable copy.
 *
 * Objects are created from specs: plain descriptions a caller (the socket
 * layer, the scenario loader, a test) fills in. Every spec is validated
 * before anything changes; a refused spec leaves the cluster exactly as it
 * was and explains itself in the struct vs_err.
 *
 * A task's status changes only through vs_task_set_status(),
 * vs_task_place() and vs_task_unplace(), which keep the job's status index
 * and totals, the node's accounting and the queue's totals consistent:
 * vs_cluster_check() verifies all of it.
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
};

#define VS_LIMIT_NODES		200000
#define VS_LIMIT_QUEUES		100000
#define VS_LIMIT_PODGROUPS	2000000
#define VS_LIMIT_TASKS		4000000
#define VS_LIMIT_VJOBS		1000000
#define VS_LIMIT_PRIOCLASSES	10000

/*
 * Set the limit of the kind @kind names ("nodes", "queues", "podgroups",
 * "tasks", "vjobs", "prioclasses") to @value (at least 1); -EINVAL with
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

	struct vs_htable node_index;
	struct vs_htable queue_index;
	struct vs_htable job_index;
	struct vs_htable task_index;
	struct vs_htable vjob_index;
	struct vs_htable prioclass_index;

	struct list_head nodes;		/* creation order */
	struct list_head queues;
	struct list_head jobs;
	struct list_head orphan_jobs;	/* jobs whose queue does not exist */
	/* Jobs with a queue that do not rest (core/rest.h), in no order. */
	struct list_head active_jobs;
	u32 nr_active_jobs;
	struct list_head vjobs;
	struct list_head prioclasses;

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
};

int vs_cluster_init(struct vs_cluster *cl);

/* Free every object and the cluster's own memory. */
void vs_cluster_destroy(struct vs_cluster *cl);

/*
 * Verify every invariant of every object (node accounting, job indexes and
 * totals, queue totals, index membership, the cluster's counters, the
 * reference counts of the interned requests); 0, or
 * -EIO with the first violation. For tests and for "vsctl check".
 */
int vs_cluster_check(const struct vs_cluster *cl, struct vs_err *err);

/* ---- nodes ---- */

struct vs_node_spec {
	const char *name;
	struct vs_res allocatable;
	const struct vs_kv_spec *labels;
	u32 nr_labels;
	const struct vs_taint_spec *taints;
	u32 nr_taints;
	bool unschedulable;
	bool ready;
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

/*
 * Close up the holes deleted nodes left in cl->node_slot, keeping the
 * order: afterwards node_slot[0..nr_nodes) are the nodes in creation order
 * and each node's sidx is its slot. A new node generation when anything
 * moved; the touch log, whose entries name slots, starts over then.
 */
void vs_cluster_compact_nodes(struct vs_cluster *cl);

/*
 * Give the nodes their slots again in the order of cl->nodes, for who
 * moved a node in that list (a batch's undo puts a node made again back
 * at its place in creation order). A new node generation.
 */
void vs_cluster_renumber_nodes(struct vs_cluster *cl);

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

/* ---- queues ---- */

struct vs_queue_spec {
	const char *name;
	u32 weight;
	struct vs_res capability;
	bool has_capability;
	struct vs_res guarantee;
	struct vs_res deserved;
	bool has_deserved;
	bool reclaimable;
	s32 priority;
	enum vs_queue_state state;
	const char *parent;		/* NULL or "" for none */
	u64 created;			/* see vs_created_cmp(); 0: unknown */
};

/* Volcano's defaults: weight 1, reclaimable, Open, no limits. */
void vs_queue_spec_init(struct vs_queue_spec *spec, const char *name);

/* Creating a queue adopts the orphan jobs that name it. */
int vs_queue_add(struct vs_cluster *cl, const struct vs_queue_spec *spec,
		 struct vs_queue **out, struct vs_err *err);
int vs_queue_update(struct vs_cluster *cl, struct vs_queue *queue,
		    const struct vs_queue_spec *spec, struct vs_err *err);

/* -EBUSY while PodGroups are in it (close it and let them finish first). */
int vs_queue_del(struct vs_cluster *cl, struct vs_queue *queue, struct vs_err *err);

struct vs_queue *vs_queue_find(const struct vs_cluster *cl, const char *name);

/* ---- jobs (PodGroups) ---- */

struct vs_role_min_spec {
	const char *role;		/* NULL or "" for tasks without a role */
	u32 min;
};

/* A PodGroup condition as a message gives it. */
struct vs_pg_condition_spec {
	enum vs_pg_cond_type type;
	bool status;			/* ConditionTrue */
	const char *reason;		/* NULL: "" */
	const char *message;		/* NULL: "" */
	const char *transition_id;	/* NULL: "" */
	u64 time;			/* lastTransitionTime, s since 1970; 0: none */
};

struct vs_job_spec {
	const char *ns;
	const char *name;
	const char *queue;		/* NULL or "": the "default" queue */
	u32 min_member;
	const struct vs_role_min_spec *min_task_member;
	u32 nr_min_task_member;
	struct vs_res min_resources;
	bool has_min_resources;
	const char *priority_class;	/* NULL or "" for none */
	enum vs_pg_phase phase;
	/* status.conditions: taken by vs_job_add() and vs_job_update() */
	const struct vs_pg_condition_spec *cond;
	u32 nr_cond;
	u64 created;			/* see vs_created_cmp(); 0: unknown */
};

/* Volcano's defaults: minMember 1, queue "default", phase Pending. */
void vs_job_spec_init(struct vs_job_spec *spec, const char *ns, const char *name);

int vs_job_add(struct vs_cluster *cl, const struct vs_job_spec *spec,
	       struct vs_job **out, struct vs_err *err);

/* Change the spec; the job moves to another queue if it names one. */
int vs_job_update(struct vs_cluster *cl, struct vs_job *job,
		  const struct vs_job_spec *spec, struct vs_err *err);

/* Set the PodGroup phase, keeping the queue's counts by phase. */
void vs_job_set_phase(struct vs_cluster *cl, struct vs_job *job, enum vs_pg_phase phase);

/*
 * Let @job rest (core/rest.h) if it may: it has a queue, nothing pending,
 * allocated or pipelined, and a phase other than Pending. Its contribution
 * joins its queue's sums, it leaves the active jobs, and its sidx becomes
 * VS_SIDX_NONE. Any change to the job wakes it first. Session close calls
 * it for the jobs in view, after the job updater.
 */
void vs_job_rest(struct vs_cluster *cl, struct vs_job *job);

/*
 * Set the PodGroup condition of @type as a cycle's own (replacing the one
 * before, as Volcano keeps one per type). @reason must be static; @message
 * is copied.
 * -ENOMEM leaves the old condition in place.
 */
int vs_job_set_condition(struct vs_job *job, enum vs_pg_cond_type type, bool status,
			 const char *reason, const char *message, u64 transition);

/*
 * Take a condition given by a message (the PodGroup's status as the API
 * server has it): it replaces a given one of its type, never a cycle's own.
 * 0 when taken or left; -ENOMEM leaves the old condition in place.
 */
int vs_job_take_condition(struct vs_job *job, const struct vs_pg_condition_spec *spec);

/* Make @job's condition of @type a copy of @from (set or not): an undo. */
int vs_job_copy_condition(struct vs_job *job, enum vs_pg_cond_type type,
			  const struct vs_pg_condition *from);

/* The size of @c's texts (text's used part), 0 when it has none. */
size_t vs_pg_cond_text_size(const struct vs_pg_condition *c);

/* "Unschedulable", "Scheduled". */
const char *vs_pg_cond_type_name(enum vs_pg_cond_type type);

/* -EBUSY while it has tasks. */
int vs_job_del(struct vs_cluster *cl, struct vs_job *job, struct vs_err *err);

struct vs_job *vs_job_find(const struct vs_cluster *cl, const char *ns, const char *name);

/* ---- tasks (Pods) ---- */

struct vs_task_spec {
	const char *ns;
	const char *name;
	const char *job;		/* the PodGroup's name, in the same namespace */
	const char *role;		/* NULL or "" for none */
	enum vs_task_status status;
	const char *node;		/* required for statuses that hold a node */
	struct vs_res req;		/* the sum of its containers' requests */
	struct vs_res init_req;		/* the init containers' effective request */
	bool has_init_req;		/* the task's request is the larger, + 1 pod */
	s32 priority;
	const char *priority_class;
	bool preemptable;
	enum vs_preemption_policy preemption_policy;
	const struct vs_kv_spec *labels;
	u32 nr_labels;
	const struct vs_kv_spec *node_selector;
	u32 nr_node_selector;
	const struct vs_toleration_spec *tolerations;
	u32 nr_tolerations;
	const struct vs_affinity_spec *affinity;	/* NULL: none */
	u64 created;			/* see vs_created_cmp(); 0: unknown */
};

/*
 * Defaults: Pending, no node, no request, PreemptLowerPriority, priority 1,
 * which Volcano gives a task whose pod has no priority, and preemptable, as
 * Volcano's GetPodPreemptable answers for a pod without the
 * volcano.sh/preemptable annotation or label.
 */
void vs_task_spec_init(struct vs_task_spec *spec, const char *ns, const char *name,
		       const char *job);

/*
 * Create a task in its job (which must exist). A task whose status holds a
 * node (Allocated, Pipelined, Binding, Bound, Running, and Releasing if a
 * node is given) is counted on that node at once; a Binding task that does
 * not fit is refused. Pending and Unknown tasks may not name a node, and a
 * finished task's node is not kept: it holds nothing.
 */
int vs_task_add(struct vs_cluster *cl, const struct vs_task_spec *spec,
		struct vs_task **out, struct vs_err *err);

/* Remove the task from its node, job and indexes, and free it. */
void vs_task_del(struct vs_cluster *cl, struct vs_task *task);

struct vs_task *vs_task_find(const struct vs_cluster *cl, const char *ns, const char *name);

/*
 * Change a task's status in place. A task on a node is re-counted there;
 * a task that finishes (Succeeded, Failed) leaves its node. A task without a
 * node cannot take a status that needs one (-EINVAL): use vs_task_place().
 */
int vs_task_set_status(struct vs_cluster *cl, struct vs_task *task,
		       enum vs_task_status status, struct vs_err *err);

/*
 * Put a task that has no node on @node with @status (Allocated, Pipelined,
 * Binding, Bound, Running, Releasing). Fails, changing nothing, if the node
 * refuses it (a Binding task that does not fit).
 */
int vs_task_place(struct vs_cluster *cl, struct vs_task *task, struct vs_node *node,
		  enum vs_task_status status, struct vs_err *err);

/* Take a task off its node and give it @status (Pending, or a final one). */
int vs_task_unplace(struct vs_cluster *cl, struct vs_task *task,
		    enum vs_task_status status, struct vs_err *err);

/*
 * The bind pipeline's outcomes for a Binding task. A bind that succeeded
 * moves it to Bound and clears its failures. A bind that failed (@why:
 * the binder's message, or the timeout) forgets the assumption: the task
 * leaves its node, is Pending again, counts one more failure, keeps @why
 * for explanations, and is not scheduled again before @now_ns plus
 * vs_bind_backoff_ns(failures), as kube-scheduler backs a pod off.
 */
int vs_task_bind_succeeded(struct vs_cluster *cl, struct vs_task *task, struct vs_err *err);
int vs_task_bind_failed(struct vs_cluster *cl, struct vs_task *task, u64 now_ns,
			const char *why, struct vs_err *err);

/* ---- priority classes ---- */

struct vs_prioclass_spec {
	const char *name;
	s32 value;
	bool global_default;
	enum vs_preemption_policy preemption_policy;
};

/* A second global default is refused, as Kubernetes refuses it. */
int vs_prioclass_add(struct vs_cluster *cl, const struct vs_prioclass_spec *spec,
		     struct vs_prioclass **out, struct vs_err *err);
int vs_prioclass_update(struct vs_cluster *cl, struct vs_prioclass *pc,
			const struct vs_prioclass_spec *spec, struct vs_err *err);
void vs_prioclass_del(struct vs_cluster *cl, struct vs_prioclass *pc);
struct vs_prioclass *vs_prioclass_find(const struct vs_cluster *cl, const char *name);

/* The global default class, or NULL. */
struct vs_prioclass *vs_prioclass_default(const struct vs_cluster *cl);

/* ---- VolcanoJobs ---- */

struct vs_vjob_task_spec {
	const char *name;
	u32 replicas;
	u32 min_available;
	bool has_min_available;		/* else min_available = replicas */
	struct vs_res req;
	const struct vs_kv_spec *labels;
	u32 nr_labels;
	const struct vs_kv_spec *node_selector;
	u32 nr_node_selector;
	const struct vs_toleration_spec *tolerations;
	u32 nr_tolerations;
	const struct vs_vjob_policy *policies;
	u32 nr_policies;
};

struct vs_vjob_spec {
	const char *ns;
	const char *name;
	const char *queue;		/* NULL or "": "default" */
	const char *priority_class;
	u32 min_available;
	bool has_min_available;		/* else (or if 0) the sum of the tasks' minAvailable */
	u32 max_retry;			/* 0 takes Volcano's default of 3 */
	const struct vs_vjob_task_spec *tasks;
	u32 nr_tasks;
	const struct vs_vjob_policy *policies;
	u32 nr_policies;
};

void vs_vjob_spec_init(struct vs_vjob_spec *spec, const char *ns, const char *name);

/*
 * Refuses what Volcano's admission webhook refuses: no tasks, duplicate or
 * invalid task names, zero replicas, minAvailable above the replicas, a
 * task minAvailable above its replicas.
 */
int vs_vjob_add(struct vs_cluster *cl, const struct vs_vjob_spec *spec,
		struct vs_vjob **out, struct vs_err *err);

/* The PodGroup it made is kept, without its owner. */
void vs_vjob_del(struct vs_cluster *cl, struct vs_vjob *vjob);

struct vs_vjob *vs_vjob_find(const struct vs_cluster *cl, const char *ns, const char *name);

#endif /* VS_CORE_CLUSTER_H */

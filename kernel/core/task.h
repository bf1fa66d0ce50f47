/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_task: a Pod, as the scheduler sees it (Volcano's TaskInfo).
 *
 * A task belongs to exactly one job (its PodGroup) and, while it holds or
 * awaits resources, to one node. Its status follows Volcano's state machine:
 *
 *   Pending -> Allocated -> Binding -> Bound -> Running -> Succeeded/Failed
 *   Pending -> Pipelined (waits for resources being released on a node)
 *   Running -> Releasing (evicted or deleted, still holding its resources)
 *
 * The status is changed only through vs_task_set_status() and friends
 * below (task.c), which keep the job's status index, the node's accounting
 * and the queue's totals in step in one place.
 */
#ifndef VS_CORE_TASK_H
#define VS_CORE_TASK_H

#include "core/affinity.h"
#include "core/compiler.h"
#include "core/images.h"
#include "core/labels.h"
#include "core/list.h"
#include "core/ports.h"
#include "core/rbtree.h"
#include "core/spread.h"
#include "core/res.h"

struct vs_job;
struct vs_node;

enum vs_task_status {
	VS_TASK_PENDING,
	VS_TASK_ALLOCATED,
	VS_TASK_PIPELINED,
	VS_TASK_BINDING,
	VS_TASK_BOUND,
	VS_TASK_RUNNING,
	VS_TASK_RELEASING,
	VS_TASK_SUCCEEDED,
	VS_TASK_FAILED,
	VS_TASK_UNKNOWN,
	VS_TASK_NR_STATUS
};

#define VS_TASK_BIT(s)	(1u << (s))

/* Volcano's AllocatedStatus: the task holds resources it was given. */
#define VS_TASK_ALLOCATED_MASK	(VS_TASK_BIT(VS_TASK_BOUND) | VS_TASK_BIT(VS_TASK_BINDING) | \
				 VS_TASK_BIT(VS_TASK_RUNNING) | VS_TASK_BIT(VS_TASK_ALLOCATED))
/* Volcano's ScheduledStatus. */
#define VS_TASK_SCHEDULED_MASK	(VS_TASK_BIT(VS_TASK_RUNNING) | VS_TASK_BIT(VS_TASK_BOUND) | \
				 VS_TASK_BIT(VS_TASK_FAILED) | VS_TASK_BIT(VS_TASK_SUCCEEDED))
/* Finished: the task holds nothing on any node. */
#define VS_TASK_TERMINAL_MASK	(VS_TASK_BIT(VS_TASK_SUCCEEDED) | VS_TASK_BIT(VS_TASK_FAILED))
/* The statuses a task may have while it is on a node. */
#define VS_TASK_ON_NODE_MASK	(VS_TASK_ALLOCATED_MASK | VS_TASK_BIT(VS_TASK_PIPELINED) | \
				 VS_TASK_BIT(VS_TASK_RELEASING))

static inline bool vs_task_status_allocated(enum vs_task_status s)
{
	return VS_TASK_ALLOCATED_MASK & VS_TASK_BIT(s);
}

static inline bool vs_task_status_terminal(enum vs_task_status s)
{
	return VS_TASK_TERMINAL_MASK & VS_TASK_BIT(s);
}

const char *vs_task_status_name(enum vs_task_status s);
int vs_task_status_parse(const char *s, enum vs_task_status *out, struct vs_err *err);

/* How the node a task is on counts its request (Volcano's NodeInfo.AddTask). */
enum vs_node_acct {
	VS_ACCT_NONE,		/* not on a node */
	VS_ACCT_USED,		/* idle -= req, used += req */
	VS_ACCT_RELEASING,	/* as USED, and releasing += req */
	VS_ACCT_PIPELINED,	/* pipelined += req only */
};

enum vs_preemption_policy {
	VS_PREEMPT_LOWER_PRIORITY,	/* PreemptLowerPriority, the default */
	VS_PREEMPT_NEVER,
};

int vs_preemption_policy_parse(const char *s, enum vs_preemption_policy *out,
			       struct vs_err *err);
const char *vs_preemption_policy_name(enum vs_preemption_policy p);

struct vs_task_note;

/* A task whose name does not end in a pod index (see vs_task_name_index()). */
#define VS_NO_NAME_INDEX	(-1LL)

/*
 * The pod index Volcano's job controller puts at the end of a pod's name
 * ("job-worker-3" is 3): the last of three or more "-"-separated parts,
 * when it reads as a whole number as Go's strconv.Atoi reads one.
 * VS_NO_NAME_INDEX otherwise.
 */
s64 vs_task_name_index(const char *name);

struct vs_task {
	const char *ns;			/* interned */
	const char *name;		/* interned */
	u64 seq;			/* arrival order: stands for the UID */
	u64 created;			/* s since 1970 (vs_created_cmp()), 0: unknown */
	s64 name_index;			/* N of a name "a-b-N", else VS_NO_NAME_INDEX (-1) */
	struct hlist_node hnode;	/* cluster task index, by ns/name */

	struct vs_job *job;
	struct list_head job_node;	/* job->tasks, creation order */
	struct list_head status_node;	/* job->by_status[status] */
	const char *role;		/* interned volcano.sh/task-spec, "" when none */

	struct vs_node *node;		/* where it is placed, or NULL */
	struct list_head node_node;	/* node->tasks */
	/*
	 * Volcano's Resreq, which equals its InitResreq: the larger of the
	 * containers' and the init containers' requests, plus the one pod
	 * it is. Nodes account it; predicates check it against FutureIdle.
	 * Interned in the cluster's request table (core/reqtab.h), shared
	 * with every task that asks for the same and never written: two
	 * tasks ask for the same exactly when their pointers are equal.
	 */
	const struct vs_res *req;
	s32 priority;
	/*
	 * The PodScheduled condition last told to the status group (a hash of
	 * its reason and message, netlink/writeback.h), 0 when none was.
	 */
	u32 sched_digest;
	/*
	 * The narrow fields, together so that they leave no holes: a byte
	 * for each enum (their values are checked to fit, in task.c).
	 */
	enum vs_task_status status : 8;
	enum vs_node_acct acct : 8;	/* how node counts it; NONE iff node is NULL */
	enum vs_preemption_policy preemption_policy : 8;
	bool best_effort;		/* req is empty */
	bool preemptable;		/* volcano.sh/preemptable */
	/*
	 * The pod has scheduling gates (Volcano's SchGated): no action places
	 * it, and its job's reservation in its queue leaves its request out
	 * (vs_job_deduct_gated()). Cleared by vs_task_ungate(), never set again.
	 */
	bool gated;
	const char *priority_class;	/* interned, or NULL */
	/*
	 * Interned, or NULL: the UID of the pod's controller owner (else its
	 * own) that the podgroup controller names its PodGroup from.
	 */
	const char *owner_uid;

	struct vs_labels *labels;
	struct vs_labels *node_selector;
	struct vs_tolerations *tolerations;
	struct vs_affinity *affinity;	/* NULL when it has none */
	struct vs_task_ext *ext;	/* NULL when it has none */

	/* What the open session noted about it (sched/fiterr.h), else NULL. */
	struct vs_task_note *note;

	struct vs_task_bind *bind;	/* NULL until a bind fails */
	/* Last, out of the way of the fields scheduling reads: only listings walk it. */
	struct rb_node byname;		/* cluster->task_names */
};

/*
 * What a pod asks for that most pods do not, beyond its request, node
 * selector, tolerations and affinity: made with the task, read-only after.
 * A task has none (NULL) when it asks for none of it.
 */
struct vs_task_ext {
	struct vs_host_ports *ports;	/* its containers' host ports, or NULL */
	struct vs_task_images *images;	/* NULL when none is given */
	struct vs_spread_constraints *spread;	/* topologySpreadConstraints, or NULL */
};

static inline const struct vs_task_images *vs_task_images(const struct vs_task *task)
{
	return task->ext ? task->ext->images : NULL;
}

static inline const struct vs_spread_constraints *vs_task_spread(const struct vs_task *task)
{
	return task->ext ? task->ext->spread : NULL;
}

static inline const struct vs_host_ports *vs_task_ports(const struct vs_task *task)
{
	return task->ext ? task->ext->ports : NULL;
}

/*
 * What a task's way to a node keeps, which few tasks ever need: what the
 * bind pipeline keeps on a task whose bind failed (kept, zeroed, once a
 * bind succeeds), and the node a preemption nominated for it.
 */
struct vs_task_bind {
	const char *error;		/* interned: why the last bind failed, or NULL */
	/*
	 * Interned: the pod's status.nominatedNodeName, which allocate tries
	 * first (a node of that name need not exist), or NULL.
	 */
	const char *nominated;
	/*
	 * After a failed bind the task is Pending again but not scheduled
	 * before this time (ns, on the clock of whoever runs the bind
	 * pipeline): the backoff of vs_bind_failed() (bind/bind.h). 0: no
	 * backoff.
	 */
	u64 retry_after_ns;
	/*
	 * Binds that failed in a row: a failed VS_CMD_BIND_RESULT, or none
	 * within the daemon's bind timeout. 0 again once a bind succeeds.
	 * It stops at UINT16_MAX: the backoff is at its longest long before.
	 */
	u16 failures;
};

static inline u16 vs_task_bind_failures(const struct vs_task *task)
{
	return task->bind ? task->bind->failures : 0;
}

static inline const char *vs_task_bind_error(const struct vs_task *task)
{
	return task->bind ? task->bind->error : NULL;
}

static inline const char *vs_task_nominated(const struct vs_task *task)
{
	return task->bind ? task->bind->nominated : NULL;
}

static inline u64 vs_task_retry_after(const struct vs_task *task)
{
	return task->bind ? task->bind->retry_after_ns : 0;
}

/* Whether @task waits out a bind backoff at @now_ns (0: no clock, nothing waits). */
static inline bool vs_task_backing_off(const struct vs_task *task, u64 now_ns)
{
	return now_ns && vs_task_retry_after(task) > now_ns;
}

/* ---- the task in the cluster (task.c) ---- */

struct vs_cluster;

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
	const char *owner_uid;		/* NULL or "" for none */
	bool preemptable;
	bool gated;			/* spec.schedulingGates; not with a node */
	const char *nominated;		/* status.nominatedNodeName; NULL or "" for none */
	enum vs_preemption_policy preemption_policy;
	const struct vs_kv_spec *labels;
	u32 nr_labels;
	const struct vs_kv_spec *node_selector;
	u32 nr_node_selector;
	const struct vs_toleration_spec *tolerations;
	u32 nr_tolerations;
	const struct vs_affinity_spec *affinity;	/* NULL: none */
	const struct vs_host_port_spec *ports;	/* its containers' host ports */
	u32 nr_ports;
	const char *const *images;	/* its containers' images, init ones first */
	u32 nr_images;
	const struct vs_spread_constraint_spec *spread;	/* topologySpreadConstraints */
	u32 nr_spread;
	/* or, instead, built ones to share (a VolcanoJob template's): a reference is taken */
	struct vs_spread_constraints *spread_shared;
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
 * The pod's last scheduling gate was removed: the task may be scheduled
 * from now on. A task without gates is left as it is.
 */
int vs_task_ungate(struct vs_cluster *cl, struct vs_task *task, struct vs_err *err);

/*
 * Set @task's nominated node (status.nominatedNodeName) to @node, a node
 * name (a node of that name need not exist); NULL or "": none. In a
 * transaction the old one is journalled. -EINVAL for a name that is no
 * DNS subdomain, -ENOMEM: nothing changed.
 */
int vs_task_set_nominated(struct vs_cluster *cl, struct vs_task *task, const char *node,
			  struct vs_err *err);

/*
 * Set what the bind pipeline (kernel/bind/) keeps on @task: the reason of
 * its last failed bind (@error, interned, a reference @task takes over;
 * NULL: none), its failures in a row and when it may be tried again. In a
 * transaction the old values are journalled: -ENOMEM, nothing changed and
 * @error still the caller's, when there is no room for them.
 */
int vs_task_set_bind_state(struct vs_cluster *cl, struct vs_task *task, const char *error,
			   u16 failures, u64 retry_after_ns, struct vs_err *err);

/*
 * A task named by its key and creation number, so that it is found again
 * only if it is still the same task: what is acted on later may be gone by
 * then (a controller's restart deletes tasks). A reference holds its
 * strings until it is put.
 */
struct vs_task_ref {
	const char *ns;			/* interned, a reference held */
	const char *name;		/* interned, a reference held */
	u64 seq;
};

void vs_task_ref_take(struct vs_task_ref *r, const struct vs_task *task);
void vs_task_ref_put(struct vs_cluster *cl, struct vs_task_ref *r);
/* The task @r names if it is still the same one and in @status, else NULL. */
struct vs_task *vs_task_ref_find(const struct vs_cluster *cl, const struct vs_task_ref *r,
				 enum vs_task_status status);

#endif /* VS_CORE_TASK_H */

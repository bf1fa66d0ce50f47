/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the object files of the core (cluster.c, node.c, queue.c, job.c,
 * task.c, prioclass.c, vjob.c, check.c) share and nobody else uses: the
 * helpers of object creation, the frees that vs_cluster_destroy() calls
 * without the bookkeeping of the del functions, and the pieces of a job's
 * membership in its queue that the queue, the task and the check need.
 * Only the core's own .c files include it; the rest of the tree goes through
 * cluster.h and the objects' headers.
 */
#ifndef VS_CORE_INTERNAL_H
#define VS_CORE_INTERNAL_H

#include <stddef.h>

#include "core/cluster.h"
#include "core/hash.h"
#include "core/names.h"
#include "core/txn.h"

static inline bool vs_str_empty(const char *s)
{
	return !s || !*s;
}

/* Intern @s, or NULL for an empty or absent string. -ENOMEM is *@ret. */
static inline const char *vs_cluster_intern_opt(struct vs_cluster *cl, const char *s, int *ret)
{
	const char *is;

	if (vs_str_empty(s))
		return NULL;
	is = vs_str_get_cstr(&cl->strs, s);
	if (!is)
		*ret = -ENOMEM;
	return is;
}

/* Resources given by the outside world are amounts: never negative. */
static inline int vs_res_check_amounts(const struct vs_cluster *cl, const struct vs_res *r,
				       const char *what, struct vs_err *err)
{
	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		if (r->v[d] < 0) {
			const char *name = vs_res_dim_name(&cl->dims, d);

			return vs_err_set(err, EINVAL, "%s: %s is negative", what,
					  name ? name : "a resource");
		}
	}
	return 0;
}

/* Volcano files PodGroups that name no queue under "default". */
static inline const char *vs_queue_name_or_default(const char *name)
{
	return vs_str_empty(name) ? "default" : name;
}

/* The index hash of a namespaced object (PodGroups, tasks, VolcanoJobs). */
static inline u32 vs_ns_name_hash(const char *ns, const char *name)
{
	return vs_hash_combine(vs_str_hash(ns), vs_str_hash(name));
}

/* -ENOSPC, saying which limit @nr objects of the kind of @off (in limits) reached. */
int vs_cluster_limit_refuse(const struct vs_cluster *cl, size_t off, u32 nr, struct vs_err *err);

/*
 * ENOSPC when the cluster holds @nr objects of the kind of @off (in
 * limits), its limit. Every add asks: the usual answer is inline.
 */
static inline int vs_cluster_limit_check(const struct vs_cluster *cl, size_t off, u32 nr,
					 struct vs_err *err)
{
	if (likely(nr < *(const u32 *)((const char *)&cl->limits + off)))
		return 0;
	return vs_cluster_limit_refuse(cl, off, nr, err);
}

#define VS_LIMIT_CHECK(cl, kind, nr, err) \
	vs_cluster_limit_check((cl), offsetof(struct vs_cluster_limits, kind), (nr), (err))

/* ---- transactions (txn.c, core/txn.h) ---- */

enum vs_txn_kind {
	/* An object made: undone by deleting it. */
	VS_TXN_ADD_NODE,
	VS_TXN_ADD_QUEUE,
	VS_TXN_ADD_JOB,
	VS_TXN_ADD_TASK,
	VS_TXN_ADD_VJOB,
	VS_TXN_ADD_PRIOCLASS,
	/* An object taken out of every list and index, kept whole: linked back, or freed. */
	VS_TXN_DEL_NODE,
	VS_TXN_DEL_QUEUE,
	VS_TXN_DEL_JOB,
	VS_TXN_DEL_TASK,
	VS_TXN_DEL_VJOB,
	VS_TXN_DEL_PRIOCLASS,
	/* A spec replaced: the old one saved, what it held kept until the commit. */
	VS_TXN_NODE_SPEC,
	VS_TXN_QUEUE_SPEC,
	VS_TXN_JOB_SPEC,
	VS_TXN_PRIOCLASS_SPEC,
	/* Status. */
	VS_TXN_JOB_PHASE,
	VS_TXN_TASK_MOVE,		/* a task's status or node */
	VS_TXN_TASK_BIND,		/* what the bind pipeline keeps on a task */
	VS_TXN_TASK_UNGATE,		/* a task's scheduling gates cleared */
	VS_TXN_TASK_NOMINATED,		/* a task's nominated node */
	VS_TXN_QUEUE_STATE,
	VS_TXN_VJOB_STATE,
	VS_TXN_VJOB_LINK,
	VS_TXN_JOB_WAKE,		/* a resting PodGroup woke: it rests again */
	/* The sums of an object, the first time the transaction touches them. */
	VS_TXN_SUMS_NODE,
	VS_TXN_SUMS_JOB,
	VS_TXN_SUMS_QUEUE,
	/* A resource name registered: undone by forgetting it (the newest one). */
	VS_TXN_DIM,
	/* HyperNodes (hypernode.c undoes and forgets them: the tree follows). */
	VS_TXN_ADD_HYPERNODE,
	VS_TXN_DEL_HYPERNODE,
	VS_TXN_HYPERNODE_SPEC,
};

/*
 * Where an object was: what came before it on each list it was on (a
 * pointer, valid again when the entry is undone), and what it was with.
 */
struct vs_txn_place {
	struct list_head *list;		/* its cluster list; a task: its job's tasks */
	struct list_head *queue_node;	/* a PodGroup: its queue's, or the orphans */
	struct list_head *status_node;	/* a task: its job's of its status */
	struct list_head *node_node;	/* a task: its node's */
	struct vs_node *node;		/* a task's node */
	void *link;			/* a PodGroup's VolcanoJob, a VolcanoJob's PodGroup */
	enum vs_task_status status;	/* a task's */
};

struct vs_txn_ent {
	struct vs_txn_ent *prev;
	enum vs_txn_kind kind;
	void *obj;
	union {
		struct vs_txn_place place;	/* DEL_*, TASK_MOVE, JOB_SPEC */
		struct {			/* ADD_QUEUE: the orphans it adopted */
			struct list_head **prev;
			u32 nr;
		} adopt;
		enum vs_pg_phase phase;		/* JOB_PHASE */
		const char *nominated;		/* TASK_NOMINATED: a reference the entry holds */
		struct {			/* TASK_BIND */
			const char *error;	/* a reference the entry holds */
			u64 retry_after_ns;
			u32 failures;
		} bind;
		struct {			/* QUEUE_STATE */
			enum vs_queue_state state;
			bool closed_by_parent;
		} qstate;
		unsigned int dim;		/* DIM: the index it took */
		struct {			/* VJOB_LINK: what both pointed to */
			struct vs_job *pg;
			struct vs_vjob *vjob;
		} link;
	};
	void *saved;			/* *_SPEC, SUMS_*, VJOB_STATE: a copy, in the arena */
};

/*
 * The entry for a change about to be made to @obj, @extra bytes of saved
 * room with it: *@out, NULL when no transaction is open; -ENOMEM (and
 * nothing journalled) when there is no room. vs_txn_push() journals it
 * once the change is made; a change refused after all is not pushed.
 */
int vs_txn_prep_open(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj, size_t extra,
		     struct vs_txn_ent **out);

/* Inline: outside transactions, every change pays a test and nothing else. */
static inline int vs_txn_prep(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj,
			      size_t extra, struct vs_txn_ent **out)
{
	if (likely(!cl->txn)) {
		*out = NULL;
		return 0;
	}
	return vs_txn_prep_open(cl, kind, obj, extra, out);
}
void vs_txn_link(struct vs_cluster *cl, struct vs_txn_ent *ent);

/* Journal @ent (from vs_txn_prep()) now that its change is made; NULL: none. */
static inline void vs_txn_push(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	if (ent)
		vs_txn_link(cl, ent);
}

/*
 * vs_txn_prep() for a change that cannot be refused: out of memory breaks
 * the transaction (vs_txn_broken()) and journals nothing.
 */
struct vs_txn_ent *vs_txn_prep_nofail(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj,
				      size_t extra);

/* Prepare and push at once, for changes that cannot be refused (out of memory breaks the txn). */
struct vs_txn_ent *vs_txn_note(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj,
			       size_t extra);

/* vs_txn_prep() with a copy of the @size bytes of @obj as they are, to put back. */
int vs_txn_prep_copy(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj, size_t size,
		     struct vs_txn_ent **out);

/* Make the conditions @cond (a saved copy of a job's) hold their texts in the journal. */
int vs_txn_save_conditions(struct vs_cluster *cl, struct vs_pg_condition *cond);

/* Save the sums of an object before a change to them, once per transaction. */
void vs_txn_save_node(struct vs_cluster *cl, struct vs_node *node);
void vs_txn_save_job(struct vs_cluster *cl, struct vs_job *job);
void vs_txn_save_queue(struct vs_cluster *cl, struct vs_queue *queue);

static inline void vs_txn_touch_node(struct vs_cluster *cl, struct vs_node *node)
{
	if (unlikely(cl->txn))
		vs_txn_save_node(cl, node);
}

static inline void vs_txn_touch_job(struct vs_cluster *cl, struct vs_job *job)
{
	if (unlikely(cl->txn))
		vs_txn_save_job(cl, job);
}

static inline void vs_txn_touch_queue(struct vs_cluster *cl, struct vs_queue *queue)
{
	if (unlikely(cl->txn))
		vs_txn_save_queue(cl, queue);
}

/* A task's places, before a change of its status or node, or its deletion. */
void vs_txn_task_place(const struct vs_task *task, struct vs_txn_place *p);

/*
 * The entries of @kind the open transaction holds, 0 for none: for the
 * check, the objects it keeps (DEL_*) and the node classes they and the
 * old specs (NODE_SPEC) hold.
 */
u32 vs_txn_kept(const struct vs_cluster *cl, enum vs_txn_kind kind);

/* The pieces of an object's bookkeeping the undo of its change redoes. */
void vs_job_queue_detach(struct vs_cluster *cl, struct vs_job *job);
void vs_job_queue_join(struct vs_cluster *cl, struct vs_job *job);
void vs_job_account(struct vs_cluster *cl, struct vs_job *job, struct vs_task *task, int sign);
void vs_node_link_task(struct vs_node *node, struct vs_task *task);

/* Undo a HyperNode's entry, or free what it kept once committed. */
void vs_hypernode_undo(struct vs_cluster *cl, struct vs_txn_ent *ent);
void vs_hypernode_forget(struct vs_cluster *cl, struct vs_txn_ent *ent);

/* ---- a PodGroup's topology request (pgtopo.c), checked before it is built ---- */

/* Intern the tier name: -ENOMEM leaves nothing held. */
int vs_net_topology_build(struct vs_cluster *cl, const struct vs_net_topology_spec *s,
			  struct vs_net_topology *out);
void vs_net_topology_put(struct vs_cluster *cl, struct vs_net_topology *nt);
/* Check and build every policy; on an error nothing is left held. */
int vs_subgroups_build(struct vs_cluster *cl, const struct vs_subgroup_policy_spec *specs,
		       u32 nr, struct vs_subgroup_policy **out, struct vs_err *err);
void vs_subgroups_free(struct vs_cluster *cl, struct vs_subgroup_policy *sg, u32 nr);

/* Free an object that is on no list and in no index, with what it holds. */
void vs_node_free(struct vs_cluster *cl, struct vs_node *node);
void vs_queue_free(struct vs_cluster *cl, struct vs_queue *queue);
void vs_job_free(struct vs_cluster *cl, struct vs_job *job);
void vs_task_free(struct vs_cluster *cl, struct vs_task *task);
void vs_prioclass_free(struct vs_cluster *cl, struct vs_prioclass *pc);
void vs_vjob_free(struct vs_cluster *cl, struct vs_vjob *vjob);

/* Nodes with a PreferNoSchedule taint are counted (cl->nr_prefer_no_schedule_nodes). */
static inline bool vs_node_prefers_no_schedule(const struct vs_node *node)
{
	for (u32 i = 0; node->taints && i < node->taints->nr; i++)
		if (node->taints->t[i].effect == VS_TAINT_PREFER_NO_SCHEDULE)
			return true;
	return false;
}

/* Tasks with pod (anti-)affinity terms are counted (cl->nr_pod_affinity_tasks). */
static inline bool vs_task_has_pod_terms(const struct vs_task *task)
{
	return task->affinity && (task->affinity->pod_affinity || task->affinity->pod_anti_affinity);
}

/* ... and those among them with preferred ones (cl->nr_pod_preferred_tasks). */
static inline bool vs_task_has_preferred_pod_terms(const struct vs_task *task)
{
	const struct vs_affinity *a = task->affinity;

	return a && ((a->pod_affinity && a->pod_affinity->nr_preferred) ||
		     (a->pod_anti_affinity && a->pod_anti_affinity->nr_preferred));
}

/* Make @queue @job's: the active jobs, the queue's list, counts and totals. */
void vs_job_queue_attach(struct vs_cluster *cl, struct vs_job *job, struct vs_queue *queue);

/*
 * A queue's totals taken afresh from its jobs' (which are current): for
 * the check, and to count saturated ones again (core/res.h).
 */
void vs_queue_sums(const struct vs_queue *queue, struct vs_res *allocated,
		   struct vs_res *request);

/* ---- resting jobs (core/rest.h) ---- */

/* Wake a job that rests: out of its queue's sums, back among the active. */
void vs_job_wake_resting(struct vs_cluster *cl, struct vs_job *job);

/*
 * Wake @job if it rests. Every change to a job's tasks calls it; inline,
 * so that the usual case, a job that does not rest, costs one test.
 */
static inline void vs_job_wake(struct vs_cluster *cl, struct vs_job *job)
{
	if (unlikely(job->resting))
		vs_job_wake_resting(cl, job);
}

static inline bool vs_job_may_rest(const struct vs_job *job)
{
	return job->queue && !job->nr_by_status[VS_TASK_PENDING] &&
	       !job->nr_by_status[VS_TASK_ALLOCATED] && !job->nr_by_status[VS_TASK_PIPELINED] &&
	       job->phase != VS_PG_PENDING;
}

#endif /* VS_CORE_INTERNAL_H */

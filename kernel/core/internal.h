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
static inline int vs_res_check_amounts(const struct vs_res *r, const char *what,
				       struct vs_err *err)
{
	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		if (r->v[d] < 0) {
			const char *name = vs_res_dim_name(d);

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

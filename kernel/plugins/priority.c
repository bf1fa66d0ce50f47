// SPDX-License-Identifier: Apache-2.0
/*
 * The priority plugin (Volcano's plugins/priority): higher-priority tasks and
 * jobs (and sub-jobs, by their tasks' highest priority) first, and a job starves while some of its tasks are neither placed
 * nor waiting on a node. A job's priority is its PodGroup's priority class
 * value (or the global default's); a task's is its pod's.
 */
#include <string.h>

#include "plugins/plugins.h"
#include "sched/session.h"
#include "sched/subjob.h"

static int cmp_desc(s32 l, s32 r)
{
	return l > r ? -1 : l < r;
}

static int priority_task_order(struct vs_session *ssn, struct vs_plugin *p,
			       const struct vs_task *l, const struct vs_task *r)
{
	return cmp_desc(l->priority, r->priority);
}

static int priority_job_order(struct vs_session *ssn, struct vs_plugin *p,
			      const struct vs_job *l, const struct vs_job *r)
{
	return cmp_desc(vs_session_job_priority(ssn, l), vs_session_job_priority(ssn, r));
}

/* Sub-jobs by the highest priority of their tasks. */
static int priority_subjob_order(struct vs_session *ssn, struct vs_plugin *p,
				 const struct vs_subjob *l, const struct vs_subjob *r)
{
	return cmp_desc(l->priority, r->priority);
}

static bool priority_job_starving(struct vs_session *ssn, struct vs_plugin *p,
				  const struct vs_job *job)
{
	return vs_job_ready_num(job) + vs_job_waiting_num(job) < job->nr_tasks;
}

/*
 * Only lower priority goes: a job's tasks yield to a job of higher
 * priority, and within one job a task yields to a task of higher priority.
 */
static enum vs_vote priority_preemptable(struct vs_session *ssn, struct vs_plugin *p,
					 const struct vs_task *evictor,
					 struct vs_task *const *cands, u32 nr, bool *keep)
{
	const struct vs_job *ej = evictor->job;
	s32 eprio;

	if (ej->sidx == VS_SIDX_NONE)
		return VS_VOTE_PERMIT;	/* keeps none */
	eprio = vs_session_job_priority(ssn, ej);
	for (u32 i = 0; i < nr; i++) {
		const struct vs_task *t = cands[i];

		if (t->job->sidx == VS_SIDX_NONE)
			continue;
		if (t->job != ej)
			keep[i] = vs_session_job_priority(ssn, t->job) < eprio;
		else
			keep[i] = t->priority < evictor->priority;
	}
	return VS_VOTE_PERMIT;
}

/*
 * Gang-aware: a preempting job takes only from jobs of lower priority;
 * reclaim is about fairness between queues, where priority has no say.
 */
static enum vs_vote priority_unified_evictable(struct vs_session *ssn, struct vs_plugin *p,
					       const struct vs_evict_ctx *ctx,
					       struct vs_task *const *cands, u32 nr, bool *keep)
{
	s32 eprio;

	if (ctx->kind == VS_EVICT_GANG_RECLAIM) {
		memset(keep, 1, nr * sizeof(*keep));
		return VS_VOTE_PERMIT;
	}
	eprio = vs_session_job_priority(ssn, ctx->job);
	for (u32 i = 0; i < nr; i++)
		keep[i] = cands[i]->job->sidx != VS_SIDX_NONE &&
			  vs_session_job_priority(ssn, cands[i]->job) < eprio;
	return VS_VOTE_PERMIT;
}

const struct vs_plugin_ops vs_plugin_priority = {
	.name		= "priority",
	.task_order	= priority_task_order,
	.job_order	= priority_job_order,
	.subjob_order	= priority_subjob_order,
	.job_starving	= priority_job_starving,
	.preemptable	= priority_preemptable,
	.unified_evictable = priority_unified_evictable,
};

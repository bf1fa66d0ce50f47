// SPDX-License-Identifier: Apache-2.0
/*
 * The gang plugin (Volcano's plugins/gang): a PodGroup is scheduled all or
 * nothing. A job is valid when it has enough tasks (minMember, and each
 * role's minTaskMember); ready when at least minMember tasks are placed;
 * pipelined when that many are placed or waiting for releasing resources;
 * starving until then. Jobs that are not ready yet go first. With a
 * subGroupPolicy, a job is valid, ready or pipelined only when each policy
 * with a minSubGroups has that many sub-groups (ready or pipelined ones);
 * a sub-group is ready when subGroupSize of its pods are placed
 * (sched/subjob.h), and those not ready go first.
 */
#include <stdio.h>
#include <string.h>

#include "plugins/plugins.h"
#include "sched/fiterr.h"
#include "sched/session.h"
#include "sched/subjob.h"

static bool gang_job_valid(struct vs_session *ssn, struct vs_plugin *p,
			   const struct vs_job *job, struct vs_validate *res)
{
	u32 valid;

	if (!vs_job_check_task_valid(job)) {
		res->reason = "NotEnoughPodsOfTask";
		snprintf(res->message, sizeof(res->message),
			 "Not enough valid pods of each task for gang-scheduling");
		return false;
	}
	if (!vs_job_check_subjob_valid(ssn, job)) {
		res->reason = "NotEnoughPodsOfTask";
		snprintf(res->message, sizeof(res->message),
			 "Not enough valid subGroups of each task for gang-scheduling");
		return false;
	}
	valid = vs_job_valid_task_num(job);
	if (valid < job->min_member) {
		res->reason = "NotEnoughTasks";
		snprintf(res->message, sizeof(res->message),
			 "Not enough valid tasks for gang-scheduling, valid: %u, min: %u",
			 valid, job->min_member);
		return false;
	}
	return true;
}

/* Jobs that are not ready yet come before ready ones. */
static int gang_job_order(struct vs_session *ssn, struct vs_plugin *p,
			  const struct vs_job *l, const struct vs_job *r)
{
	bool lr = vs_job_is_ready(l), rr = vs_job_is_ready(r);

	if (lr == rr)
		return 0;
	return lr ? 1 : -1;
}

static bool gang_job_ready(struct vs_session *ssn, struct vs_plugin *p,
			   const struct vs_job *job)
{
	return vs_job_check_task_ready(job) && vs_job_check_subjob_ready(ssn, job) &&
	       vs_job_is_ready(job);
}

static enum vs_vote gang_job_pipelined(struct vs_session *ssn, struct vs_plugin *p,
				       const struct vs_job *job)
{
	if (vs_job_check_task_pipelined(job) && vs_job_check_subjob_pipelined(ssn, job) &&
	    vs_job_is_pipelined(job))
		return VS_VOTE_PERMIT;
	return VS_VOTE_REJECT;
}

/* Sub-jobs that are not ready yet come before ready ones. */
static int gang_subjob_order(struct vs_session *ssn, struct vs_plugin *p,
			     const struct vs_subjob *l, const struct vs_subjob *r)
{
	bool lr = vs_subjob_is_ready(l), rr = vs_subjob_is_ready(r);

	if (lr == rr)
		return 0;
	return lr ? 1 : -1;
}

static bool gang_subjob_ready(struct vs_session *ssn, struct vs_plugin *p,
			      const struct vs_subjob *sj)
{
	return vs_subjob_is_ready(sj);
}

static enum vs_vote gang_subjob_pipelined(struct vs_session *ssn, struct vs_plugin *p,
					  const struct vs_subjob *sj)
{
	return vs_subjob_is_pipelined(sj) ? VS_VOTE_PERMIT : VS_VOTE_REJECT;
}

static bool gang_job_starving(struct vs_session *ssn, struct vs_plugin *p,
			      const struct vs_job *job)
{
	return vs_job_is_starving(job);
}

/* Per session: what each job still occupies while victims are chosen. */
struct gang_state {
	u32 *occupied;		/* by job sidx, valid where stamp == epoch */
	u32 *stamp;
	u32 epoch;
};

static int gang_open(struct vs_session *ssn, struct vs_plugin *p)
{
	struct gang_state *gs = vs_arena_zalloc(ssn->arena, sizeof(*gs));

	if (!gs)
		return -ENOMEM;
	gs->occupied = vs_arena_alloc(ssn->arena, (ssn->nr_jobs + 1) * sizeof(u32));
	gs->stamp = vs_arena_calloc(ssn->arena, ssn->nr_jobs + 1, sizeof(u32));
	if (!gs->occupied || !gs->stamp)
		return -ENOMEM;
	p->priv = gs;
	return 0;
}

/*
 * A job gives up tasks only while it keeps more than minAvailable ready
 * ones: each victim taken from a job lowers what it still occupies. Tasks
 * of jobs outside the session are never victims.
 */
static enum vs_vote gang_evictable(struct vs_session *ssn, struct vs_plugin *p,
				   const struct vs_task *evictor, struct vs_task *const *cands,
				   u32 nr, bool *keep)
{
	struct gang_state *gs = p->priv;

	gs->epoch++;
	for (u32 i = 0; i < nr; i++) {
		const struct vs_job *job = cands[i]->job;
		u32 j = job->sidx;

		if (j == VS_SIDX_NONE)
			continue;
		if (gs->stamp[j] != gs->epoch) {
			gs->stamp[j] = gs->epoch;
			gs->occupied[j] = vs_job_ready_num(job);
		}
		if (gs->occupied[j] > job->min_member) {
			gs->occupied[j]--;
			keep[i] = true;
		}
	}
	return VS_VOTE_PERMIT;
}

/*
 * A job that is short of minAvailable only because some of its placed tasks
 * are being deleted still has its slots: no Unschedulable condition then,
 * unless tasks still wait to be scheduled.
 */
static bool skip_for_releasing(const struct vs_job *job)
{
	u32 releasing = vs_job_releasing_placed_num(job);

	if (!releasing || job->nr_by_status[VS_TASK_PENDING] ||
	    job->nr_by_status[VS_TASK_PIPELINED])
		return false;
	return vs_job_scheduled_num(job) + releasing >= job->min_member;
}

/* Pending tasks whose last transaction placed them, plus the ready ones. */
static u32 schedulable_num(const struct vs_job *job)
{
	const struct vs_task *t;
	u32 n = vs_job_ready_num(job);

	list_for_each_entry(t, &job->by_status[VS_TASK_PENDING], status_node)
		n += vs_task_status_allocated(vs_task_last_tx_status(t));
	return n;
}

/*
 * OnSessionClose: every job with tasks gets the Scheduled condition when it
 * is ready, else Unschedulable with Volcano's account of why, e.g. "2/3
 * tasks in gang unschedulable: pod group is not ready, 1 Pending, 2
 * Running, 3 minAvailable; Pending: 1 Unschedulable. Origin reason is p2:
 * 0/2 nodes are unavailable: 2 Insufficient cpu."
 */
static void gang_close(struct vs_session *ssn, struct vs_plugin *p)
{
	struct vs_metrics *m = &ssn->sched->metrics;
	char why[512], msg[640];
	s64 unready;

	if (ssn->inspect)
		return;		/* a look writes no condition */
	/* Volcano's unschedule_job_count and unschedule_task_count, summed. */
	m->unschedulable_jobs = 0;
	m->unschedulable_tasks = 0;
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct vs_job *job = ssn->jobs[i];

		if (!job->nr_tasks)
			continue;
		if (vs_job_is_ready(job)) {
			vs_job_set_condition(job, VS_PG_COND_SCHEDULED, true,
					     "tasks in gang are ready to be scheduled", NULL,
					     ssn->cycle);
			continue;
		}
		if (skip_for_releasing(job))
			continue;
		vs_job_fit_error(job, why, sizeof(why));
		unready = (s64)job->min_member - schedulable_num(job);
		m->unschedulable_jobs++;
		m->unschedulable_tasks += unready > 0 ? (u64)unready : 0;
		snprintf(msg, sizeof(msg), "%lld/%u tasks in gang unschedulable: %s",
			 (long long)unready, job->nr_tasks, why);
		vs_job_set_condition(job, VS_PG_COND_UNSCHEDULABLE, true, "NotEnoughResources", msg,
				     ssn->cycle);
	}
}

/*
 * Gang-aware eviction keeps minAvailable itself, with its victim bundles
 * (actions/gangevict.h): every candidate may go as far as gang cares.
 */
static enum vs_vote gang_unified_evictable(struct vs_session *ssn, struct vs_plugin *p,
					   const struct vs_evict_ctx *ctx,
					   struct vs_task *const *cands, u32 nr, bool *keep)
{
	memset(keep, 1, nr * sizeof(*keep));
	return VS_VOTE_PERMIT;
}

const struct vs_plugin_ops vs_plugin_gang = {
	.name		= "gang",
	.open		= gang_open,
	.close		= gang_close,
	.job_valid	= gang_job_valid,
	.job_order	= gang_job_order,
	.job_ready	= gang_job_ready,
	.job_pipelined	= gang_job_pipelined,
	.job_starving	= gang_job_starving,
	.subjob_order	= gang_subjob_order,
	.subjob_ready	= gang_subjob_ready,
	.subjob_pipelined = gang_subjob_pipelined,
	.preemptable	= gang_evictable,
	.reclaimable	= gang_evictable,
	.unified_evictable = gang_unified_evictable,
};

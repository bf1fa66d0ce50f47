// SPDX-License-Identifier: Apache-2.0
/*
 * The drf plugin (Volcano's plugins/drf): Dominant Resource Fairness between
 * jobs. A job's share is the largest fraction of any resource of the cluster
 * that its allocated tasks hold; jobs with the smaller share go first. The
 * share follows every allocation and deallocation of the session (pipelined
 * tasks included, as Volcano's event handlers count them).
 *
 * A job's allocated is an exact sum (core/sum.h) that the events add to and
 * take from, and the share is computed from it: a saturating or rounding
 * sum would not come back to what the job holds once a huge task is
 * allocated and discarded.
 *
 * Hierarchical DRF (enableHierarchy) is not implemented yet: a configuration
 * that asks for it is refused when it is loaded, rather than scheduled
 * differently from Volcano.
 */
#include <math.h>

#include "core/sum.h"
#include "plugins/plugins.h"
#include "sched/session.h"

struct drf_job {
	struct vs_sum allocated;
	double share;
};

struct drf {
	struct drf_job *jobs;		/* by job sidx */

	/* Preemptable's running allocations, by job sidx, made on first use. */
	struct vs_sum *left;
	u32 *stamp;			/* left[i] is valid when stamp[i] == epoch */
	u32 epoch;
};

/* Volcano's shareDelta: shares this close are equal. */
#define DRF_SHARE_DELTA	0.000001

static int drf_check_conf(const struct vs_conf_plugin *cp, struct vs_err *err)
{
	if ((cp->flags_set & (1u << VS_EN_HIERARCHY)) &&
	    vs_conf_plugin_enabled(cp, VS_EN_HIERARCHY))
		return vs_err_set(err, EOPNOTSUPP,
				  "%s:%u: enableHierarchy (hierarchical DRF) is not supported yet",
				  cp->args.source ? cp->args.source : "configuration", cp->line);
	return 0;
}

static void update_share(struct vs_session *ssn, struct drf_job *dj)
{
	dj->share = vs_sum_dominant_share(&dj->allocated, &ssn->total_resource);
}

/*
 * The core keeps job->allocated as the sum over AllocatedStatus tasks,
 * which Volcano sums too; past INT64_MAX it reads as unlimited
 * (core/res.h), and the tasks are summed again exactly.
 */
static void job_allocated(struct vs_sum *s, const struct vs_job *job)
{
	const struct vs_task *task;

	vs_sum_clear(s);
	if (likely(!vs_res_saturated(&job->allocated))) {
		vs_sum_add(s, &job->allocated);
		return;
	}
	list_for_each_entry(task, &job->tasks, job_node)
		if (vs_task_status_allocated(task->status))
			vs_sum_add(s, task->req);
}

static int drf_open(struct vs_session *ssn, struct vs_plugin *p)
{
	struct drf *drf = vs_arena_zalloc(ssn->arena, sizeof(*drf));

	if (!drf)
		return -ENOMEM;
	drf->jobs = vs_arena_calloc(ssn->arena, ssn->nr_jobs + 1, sizeof(*drf->jobs));
	if (!drf->jobs)
		return -ENOMEM;
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		job_allocated(&drf->jobs[i].allocated, ssn->jobs[i]);
		update_share(ssn, &drf->jobs[i]);
	}
	p->priv = drf;
	return 0;
}

static int drf_job_order(struct vs_session *ssn, struct vs_plugin *p,
			 const struct vs_job *l, const struct vs_job *r)
{
	const struct drf *drf = p->priv;
	double ls = drf->jobs[l->sidx].share, rs = drf->jobs[r->sidx].share;

	if (ls == rs)
		return 0;
	return ls < rs ? -1 : 1;
}

/* The state of @job, or NULL if the session does not schedule it (no queue). */
static struct drf_job *drf_job(struct drf *drf, const struct vs_job *job)
{
	return job->queue ? &drf->jobs[job->sidx] : NULL;
}

static void drf_on_allocate(struct vs_session *ssn, struct vs_plugin *p, struct vs_task *task)
{
	struct drf_job *dj = drf_job(p->priv, task->job);

	if (!dj)
		return;

	vs_sum_add(&dj->allocated, task->req);
	update_share(ssn, dj);
}

static void drf_on_deallocate(struct vs_session *ssn, struct vs_plugin *p, struct vs_task *task,
			      struct vs_node *node)
{
	struct drf_job *dj = drf_job(p->priv, task->job);

	if (!dj)
		return;

	vs_sum_sub(&dj->allocated, task->req);
	update_share(ssn, dj);
}

/*
 * A task may be preempted when, once it is gone, its job's share is still
 * at least the share the preemptor's job would have with the preemptor.
 * Victims of one job are taken off one after the other, so each further
 * victim of that job must leave a share that is still high enough.
 */
static enum vs_vote drf_preemptable(struct vs_session *ssn, struct vs_plugin *p,
				    const struct vs_task *evictor, struct vs_task *const *cands,
				    u32 nr, bool *keep)
{
	struct drf *drf = p->priv;
	struct drf_job *lj = drf_job(drf, evictor->job);
	struct vs_sum lalloc;
	double ls;

	if (!lj)
		return VS_VOTE_PERMIT;	/* keeps none */
	if (!drf->left) {
		drf->left = vs_arena_alloc(ssn->arena, (ssn->nr_jobs + 1) * sizeof(*drf->left));
		drf->stamp = vs_arena_calloc(ssn->arena, ssn->nr_jobs + 1, sizeof(*drf->stamp));
		if (!drf->left || !drf->stamp) {
			drf->left = NULL;
			return VS_VOTE_PERMIT;
		}
	}
	lalloc = lj->allocated;
	vs_sum_add(&lalloc, evictor->req);
	ls = vs_sum_dominant_share(&lalloc, &ssn->total_resource);
	drf->epoch++;
	for (u32 i = 0; i < nr; i++) {
		const struct vs_job *job = cands[i]->job;
		double rs;

		if (!drf_job(drf, job))
			continue;
		if (drf->stamp[job->sidx] != drf->epoch) {
			drf->stamp[job->sidx] = drf->epoch;
			drf->left[job->sidx] = drf->jobs[job->sidx].allocated;
		}
		vs_sum_sub(&drf->left[job->sidx], cands[i]->req);
		rs = vs_sum_dominant_share(&drf->left[job->sidx], &ssn->total_resource);
		keep[i] = ls < rs || fabs(ls - rs) <= DRF_SHARE_DELTA;
	}
	return VS_VOTE_PERMIT;
}

const struct vs_plugin_ops vs_plugin_drf = {
	.name		= "drf",
	.check_conf	= drf_check_conf,
	.open		= drf_open,
	.job_order	= drf_job_order,
	.preemptable	= drf_preemptable,
	.on_allocate	= drf_on_allocate,
	.on_deallocate	= drf_on_deallocate,
};

// SPDX-License-Identifier: Apache-2.0
/*
 * The overcommit plugin (Volcano's plugins/overcommit): admit a PodGroup
 * (enqueue) only while the minResources of every admitted job fit in the
 * cluster's resources multiplied by overcommit-factor (default 1.2), less
 * what is in use. Jobs already admitted count with their whole
 * minResources; running jobs with minResources count for what they still
 * miss. Only the dimensions a job's minResources names are compared.
 *
 * vsched refuses an overcommit-factor below 1 when the configuration is
 * loaded; Volcano logs it and uses the default.
 */
#include "core/sum.h"
#include "plugins/plugins.h"
#include "sched/session.h"

#define OVERCOMMIT_FACTOR_DEFAULT 1.2

struct overcommit {
	struct vs_res idle;		/* total * factor - used */
	struct vs_res inqueue;		/* admitted jobs' minResources */
};

static int overcommit_check_conf(const struct vs_conf_plugin *cp, struct vs_err *err)
{
	double factor = OVERCOMMIT_FACTOR_DEFAULT;
	int ret = vs_args_get_float(&cp->args, "overcommit-factor", &factor, err);

	if (ret)
		return ret;
	if (factor < 1.0) {
		const struct vs_arg *a = vs_args_find(&cp->args, "overcommit-factor");

		return vs_err_set(err, EINVAL, "%s:%u: overcommit-factor %g cannot be less than 1",
				  cp->args.source ? cp->args.source : "configuration",
				  a ? a->line : cp->line, factor);
	}
	return 0;
}

static int overcommit_open(struct vs_session *ssn, struct vs_plugin *p)
{
	struct overcommit *oc = vs_arena_zalloc(ssn->arena, sizeof(*oc));
	double factor = OVERCOMMIT_FACTOR_DEFAULT;
	struct vs_res used, rest;

	if (!oc)
		return -ENOMEM;
	vs_args_get_float(&p->conf->args, "overcommit-factor", &factor, NULL);

	/*
	 * The idle resources are read only for a Pending job with
	 * minResources (enqueue asks): without one, no walk of every node.
	 */
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		if (ssn->jobs[i]->phase != VS_PG_PENDING || !ssn->jobs[i]->has_min_resources)
			continue;
		vs_res_clear(&used);
		for (u32 n = 0; n < ssn->nr_nodes; n++)
			vs_res_add(&used, &ssn->nodes[n]->used);
		oc->idle = ssn->total_resource;
		vs_res_multi(&oc->idle, factor);
		vs_res_sub(&oc->idle, &used);
		break;
	}

	vs_res_clear(&oc->inqueue);
	/*
	 * A sparse session's resting jobs are in their queues' sums
	 * (core/rest.h). The amounts only grow here, so the saturating
	 * vs_res_add() gives what it would give adding the jobs one by one.
	 */
	for (u32 i = 0; ssn->sparse && i < ssn->nr_queues; i++) {
		vs_sum_to_res(&rest, &ssn->queues[i]->rest.oc_inqueue.s);
		vs_res_add(&oc->inqueue, &rest);
	}
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct vs_job_contrib c;

		vs_job_contrib(ssn->jobs[i], &c);
		if (c.has_oc_inqueue)
			vs_res_add(&oc->inqueue, &c.oc_inqueue);
	}
	p->priv = oc;
	return 0;
}

static enum vs_vote overcommit_job_enqueueable(struct vs_session *ssn, struct vs_plugin *p,
					       const struct vs_job *job)
{
	const struct overcommit *oc = p->priv;
	struct vs_res inqueue;

	if (!job->has_min_resources)
		return VS_VOTE_PERMIT;
	inqueue = oc->inqueue;
	vs_res_add(&inqueue, &job->min_resources);
	/* Only what the job asks for is compared. */
	if (!vs_res_exceeding_dim(&inqueue, &oc->idle, &job->min_resources))
		return VS_VOTE_PERMIT;
	if (vs_ssn_wants_why(ssn)) {
		char i[256], c[256];

		vs_res_fmt(&ssn->cl->dims, i, sizeof(i), &oc->inqueue);
		vs_res_fmt(&ssn->cl->dims, c, sizeof(c), &oc->idle);
		vs_ssn_why(ssn, p, "admitted <%s>, the cluster's idle resources times the "
			   "overcommit factor <%s>: minResources do not fit", i, c);
	}
	return VS_VOTE_REJECT;
}

static void overcommit_job_enqueued(struct vs_session *ssn, struct vs_plugin *p,
				    const struct vs_job *job)
{
	struct overcommit *oc = p->priv;
	struct vs_res min;

	if (!job->has_min_resources)
		return;
	/* its gated tasks' requests do not keep other jobs out */
	min = job->min_resources;
	vs_job_deduct_gated(job, &min);
	vs_res_add(&oc->inqueue, &min);
}

const struct vs_plugin_ops vs_plugin_overcommit = {
	.name			= "overcommit",
	.check_conf		= overcommit_check_conf,
	.open			= overcommit_open,
	.job_enqueueable	= overcommit_job_enqueueable,
	.job_enqueued		= overcommit_job_enqueued,
};

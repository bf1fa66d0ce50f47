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
	struct vs_res used, need;

	if (!oc)
		return -ENOMEM;
	vs_args_get_float(&p->conf->args, "overcommit-factor", &factor, NULL);

	vs_res_clear(&used);
	for (u32 i = 0; i < ssn->nr_nodes; i++)
		vs_res_add(&used, &ssn->nodes[i]->used);
	oc->idle = ssn->total_resource;
	vs_res_multi(&oc->idle, factor);
	vs_res_sub(&oc->idle, &used);

	vs_res_clear(&oc->inqueue);
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		const struct vs_job *job = ssn->jobs[i];

		if (!job->has_min_resources)
			continue;
		if (job->phase == VS_PG_INQUEUE) {
			vs_res_add(&oc->inqueue, &job->min_resources);
		} else if (job->phase == VS_PG_RUNNING &&
			   vs_job_allocated_task_num(job) >= job->min_member) {
			vs_job_inqueue_resource(job, &need);
			vs_res_add(&oc->inqueue, &need);
		}
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
	return VS_VOTE_REJECT;
}

static void overcommit_job_enqueued(struct vs_session *ssn, struct vs_plugin *p,
				    const struct vs_job *job)
{
	struct overcommit *oc = p->priv;

	if (job->has_min_resources)
		vs_res_add(&oc->inqueue, &job->min_resources);
}

const struct vs_plugin_ops vs_plugin_overcommit = {
	.name			= "overcommit",
	.check_conf		= overcommit_check_conf,
	.open			= overcommit_open,
	.job_enqueueable	= overcommit_job_enqueueable,
	.job_enqueued		= overcommit_job_enqueued,
};

// SPDX-License-Identifier: Apache-2.0
/*
 * What the actions share: the comparison functions their priority queues
 * use, the resource-fit predicate, choosing the best of scored nodes, and
 * for preempt and reclaim, the predicate that ignores resources and the check
 * of a victim set.
 */
#include <stdio.h>
#include <string.h>

#include "actions/actions.h"

int vs_cmp_queue(struct vs_session *ssn, const void *a, const void *b)
{
	return vs_ssn_queue_order(ssn, a, b);
}

int vs_cmp_job(struct vs_session *ssn, const void *a, const void *b)
{
	return vs_ssn_job_order(ssn, a, b);
}

int vs_cmp_task(struct vs_session *ssn, const void *a, const void *b)
{
	return vs_ssn_task_order(ssn, a, b);
}

bool vs_session_has_action(const struct vs_session *ssn, const char *action)
{
	const struct vs_conf *conf = ssn->sched->conf;

	for (u32 i = 0; i < conf->nr_actions; i++)
		if (!strcmp(conf->actions[i], action))
			return true;
	return false;
}

/*
 * "Insufficient cpu": Volcano names only the first short resource (cpu,
 * memory, then the scalars; Volcano takes those in map order, vsched in its
 * dimension order).
 */
static void insufficient(struct vs_fit_error *fe, const struct vs_res_dims *names,
			 vs_resmask_t dims)
{
	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		if (dims & VS_RES_BIT(d)) {
			vs_fit_say(fe, "Insufficient ", vs_res_dim_name(names, d));
			return;
		}
}

int vs_allocate_predicate(struct vs_session *ssn, const struct vs_task *task,
			  const struct vs_node *node, struct vs_fit_error *fe)
{
	struct vs_res buf;
	vs_resmask_t short_dims;

	short_dims = vs_res_exceeding(task->req, vs_node_future_idle_of(node, &buf), VS_DIM_ZERO);
	if (short_dims) {
		insufficient(fe, &ssn->cl->dims, short_dims);
		fe->unresolvable = false;
		return -EINVAL;
	}
	return vs_ssn_predicate(ssn, task, node, fe);
}

struct vs_node *vs_select_best_node(struct vs_session *ssn, const struct vs_task *task,
				    struct vs_node **nodes, u32 nr, double *score)
{
	struct vs_node_score *scores;
	struct vs_node *best;
	double *raw;
	u32 b = 0;

	*score = 0;
	if (!nr)
		return NULL;
	if (nr == 1)
		return nodes[0];	/* one candidate: Volcano does not score it */

	if (!ssn->score_buf) {
		/* Once per session: scoring must not grow the arena per task. */
		ssn->score_buf = vs_arena_alloc(ssn->arena, ssn->nr_nodes * sizeof(*scores));
		ssn->score_raw = vs_arena_alloc(ssn->arena, ssn->nr_nodes * sizeof(*raw));
		if (!ssn->score_buf || !ssn->score_raw) {
			ssn->score_buf = NULL;
			return nodes[0];
		}
	}
	scores = ssn->score_buf;
	raw = ssn->score_raw;
	vs_ssn_score_nodes(ssn, task, nodes, nr, raw);
	for (u32 i = 0; i < nr; i++) {
		scores[i].node = nodes[i];
		scores[i].score = raw[i];
		if (scores[i].score > scores[b].score)
			b = i;		/* strictly greater: the first of equals stays */
	}
	best = vs_ssn_best_node(ssn, task, scores, nr);
	if (best)
		return best;
	*score = scores[b].score;
	return scores[b].node;
}

int vs_preempt_predicate(struct vs_session *ssn, const struct vs_task *task,
			 const struct vs_node *node, struct vs_fit_error *fe)
{
	struct vs_fit_error why = { .reason = { 0 } };

	if (!vs_ssn_predicate(ssn, task, node, &why) || !why.unresolvable)
		return 0;
	*fe = why;
	return -EINVAL;
}

bool vs_victims_validate(const struct vs_task *task, const struct vs_node *node,
			 struct vs_task *const *victims, u32 nr)
{
	struct vs_res future;

	/*
	 * No victim at all is not a refusal: a task may fit what earlier
	 * evictions freed on the node.
	 */
	vs_node_future_idle(node, &future);
	for (u32 i = 0; i < nr; i++)
		vs_res_add(&future, victims[i]->req);
	return vs_res_less_equal(task->req, &future, VS_DIM_ZERO);
}

void vs_tasks_sort_by_creation(struct vs_task **tasks, u32 nr)
{
	/* Insertion sort: a node holds tens of tasks, mostly in order already. */
	for (u32 i = 1; i < nr; i++) {
		struct vs_task *t = tasks[i];
		u32 j = i;

		for (; j > 0 && tasks[j - 1]->seq > t->seq; j--)
			tasks[j] = tasks[j - 1];
		tasks[j] = t;
	}
}

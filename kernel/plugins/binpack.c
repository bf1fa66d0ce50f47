// SPDX-License-Identifier: Apache-2.0
/*
 * The binpack plugin (Volcano's plugins/binpack): score a node by how full
 * it would be with the task on it, so that tasks pack onto fewer nodes.
 * For every resource the task requests and the configuration weighs:
 *
 *	(used + request) * weight / allocatable
 *
 * summed, divided by the sum of the weights, and scaled by
 * 100 * binpack.weight. A node the task would overfill in any weighed
 * resource scores 0. Weights: binpack.weight (1; 0 switches scoring off),
 * binpack.cpu and binpack.memory (1; a negative one counts as 1), and
 * binpack.resources, a comma-separated list of further resources each
 * weighed by binpack.resources.<name> (1).
 */
#include <stdio.h>
#include <string.h>

#include "plugins/plugins.h"
#include "sched/session.h"

#define MAX_NODE_SCORE 100

struct binpack {
	s64 weight;			/* binpack.weight */
	s64 dim_weight[VS_RES_MAX];	/* per dimension; -1: not weighed */
};

static int binpack_check_conf(const struct vs_conf_plugin *cp, struct vs_err *err)
{
	s64 w;

	return vs_args_get_int(&cp->args, "binpack.weight", &w, err) ?:
	       vs_res_weights_check(&cp->args, "binpack", err);
}

static int binpack_open(struct vs_session *ssn, struct vs_plugin *p)
{
	const struct vs_args *args = &p->conf->args;
	struct binpack *bp = vs_arena_zalloc(ssn->arena, sizeof(*bp));

	if (!bp)
		return -ENOMEM;
	bp->weight = 1;
	vs_args_get_int(args, "binpack.weight", &bp->weight, NULL);
	vs_res_weights(args, "binpack", &ssn->cl->dims, bp->dim_weight);
	if (!bp->weight)
		vs_plugin_disable(p, VS_EXT_NODE_ORDER);
	p->priv = bp;
	return 0;
}

static double binpack_node_order(struct vs_session *ssn, struct vs_plugin *p,
				 const struct vs_task *task, const struct vs_node *node)
{
	const struct binpack *bp = p->priv;
	double score = 0;
	s64 weight_sum = 0;

	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		double request = (double)vs_res_get(task->req, d);
		double capacity = (double)vs_res_get(&node->allocatable, d);
		double used = (double)vs_res_get(&node->used, d);
		s64 w = bp->dim_weight[d];

		if (request <= 0 || w < 0)
			continue;
		weight_sum += w;
		if (capacity == 0 || w == 0)
			continue;
		if (used + request > capacity)
			return 0;	/* it would not fit: Volcano gives up on the node */
		score += (used + request) * (double)w / capacity;
	}
	if (weight_sum > 0)
		score /= (double)weight_sum;
	return score * (double)(MAX_NODE_SCORE * bp->weight);
}

const struct vs_plugin_ops vs_plugin_binpack = {
	.name		= "binpack",
	.check_conf	= binpack_check_conf,
	.open		= binpack_open,
	.node_order	= binpack_node_order,
};

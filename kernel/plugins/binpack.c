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

static s64 weight_or_one(const struct vs_args *args, const char *key)
{
	s64 w = 1;

	vs_args_get_int(args, key, &w, NULL);
	return w < 0 ? 1 : w;
}

struct check_ctx {
	const struct vs_args *args;
	struct vs_err *err;
};

static int check_resource(const char *name, void *ctx)
{
	struct check_ctx *c = ctx;
	char key[300];
	s64 w;

	snprintf(key, sizeof(key), "binpack.resources.%s", name);
	return vs_args_get_int(c->args, key, &w, c->err);
}

static int binpack_check_conf(const struct vs_conf_plugin *cp, struct vs_err *err)
{
	struct check_ctx c = { &cp->args, err };
	const char *s;
	s64 w;
	int ret;

	if ((ret = vs_args_get_int(&cp->args, "binpack.weight", &w, err)) ||
	    (ret = vs_args_get_int(&cp->args, "binpack.cpu", &w, err)) ||
	    (ret = vs_args_get_int(&cp->args, "binpack.memory", &w, err)) ||
	    (ret = vs_args_get_string(&cp->args, "binpack.resources", &s, err)))
		return ret;
	return vs_args_for_each_name(&cp->args, "binpack.resources", check_resource, &c);
}

static int weigh_resource(const char *name, void *ctx)
{
	const struct vs_args *args = ((void **)ctx)[0];
	struct binpack *bp = ((void **)ctx)[1];
	const struct vs_res_dims *dims = ((void **)ctx)[2];
	int dim = vs_res_dim_lookup(dims, name, strlen(name));
	char key[300];

	/* A resource nobody has registered cannot be requested: nothing to weigh. */
	if (dim < 0)
		return 0;
	snprintf(key, sizeof(key), "binpack.resources.%s", name);
	bp->dim_weight[dim] = weight_or_one(args, key);
	return 0;
}

static int binpack_open(struct vs_session *ssn, struct vs_plugin *p)
{
	const struct vs_args *args = &p->conf->args;
	struct binpack *bp = vs_arena_zalloc(ssn->arena, sizeof(*bp));
	void *ctx[3] = { (void *)args, bp, &ssn->cl->dims };

	if (!bp)
		return -ENOMEM;
	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		bp->dim_weight[d] = -1;
	bp->weight = 1;
	vs_args_get_int(args, "binpack.weight", &bp->weight, NULL);
	vs_args_for_each_name(args, "binpack.resources", weigh_resource, ctx);
	/* cpu and memory are always weighed, whatever the list says */
	bp->dim_weight[VS_RES_CPU] = weight_or_one(args, "binpack.cpu");
	bp->dim_weight[VS_RES_MEMORY] = weight_or_one(args, "binpack.memory");
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

// SPDX-License-Identifier: Apache-2.0
/*
 * Resource weights as binpack's arguments write them, shared by binpack
 * and network-topology-aware (plugins.h).
 */
#include <stdio.h>
#include <string.h>

#include "plugins/plugins.h"

static s64 weight_or_one(const struct vs_args *args, const char *key)
{
	s64 w = 1;

	vs_args_get_int(args, key, &w, NULL);
	return w < 0 ? 1 : w;
}

struct weights_ctx {
	const struct vs_args *args;
	const char *prefix;
	struct vs_err *err;		/* checking */
	const struct vs_res_dims *dims;	/* weighing */
	s64 *dim_weight;
};

static void resource_key(const struct weights_ctx *c, const char *name, char *key, size_t size)
{
	snprintf(key, size, "%s.resources.%s", c->prefix, name);
}

static int check_resource(const char *name, void *ctx)
{
	struct weights_ctx *c = ctx;
	char key[320];
	s64 w;

	resource_key(c, name, key, sizeof(key));
	return vs_args_get_int(c->args, key, &w, c->err);
}

int vs_res_weights_check(const struct vs_args *args, const char *prefix, struct vs_err *err)
{
	struct weights_ctx c = { .args = args, .prefix = prefix, .err = err };
	char key[320];
	const char *s;
	s64 w;
	int ret;

	snprintf(key, sizeof(key), "%s.cpu", prefix);
	if ((ret = vs_args_get_int(args, key, &w, err)))
		return ret;
	snprintf(key, sizeof(key), "%s.memory", prefix);
	if ((ret = vs_args_get_int(args, key, &w, err)))
		return ret;
	snprintf(key, sizeof(key), "%s.resources", prefix);
	if ((ret = vs_args_get_string(args, key, &s, err)))
		return ret;
	return vs_args_for_each_name(args, key, check_resource, &c);
}

static int weigh_resource(const char *name, void *ctx)
{
	struct weights_ctx *c = ctx;
	int dim = vs_res_dim_lookup(c->dims, name, strlen(name));
	char key[320];

	/* A resource nobody has registered cannot be requested: nothing to weigh. */
	if (dim < 0)
		return 0;
	resource_key(c, name, key, sizeof(key));
	c->dim_weight[dim] = weight_or_one(c->args, key);
	return 0;
}

void vs_res_weights(const struct vs_args *args, const char *prefix,
		    const struct vs_res_dims *dims, s64 *dim_weight)
{
	struct weights_ctx c = { .args = args, .prefix = prefix, .dims = dims,
				 .dim_weight = dim_weight };
	char key[320];

	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		dim_weight[d] = -1;
	snprintf(key, sizeof(key), "%s.resources", prefix);
	vs_args_for_each_name(args, key, weigh_resource, &c);
	/* cpu and memory are always weighed, whatever the list says */
	snprintf(key, sizeof(key), "%s.cpu", prefix);
	dim_weight[VS_RES_CPU] = weight_or_one(args, key);
	snprintf(key, sizeof(key), "%s.memory", prefix);
	dim_weight[VS_RES_MEMORY] = weight_or_one(args, key);
}

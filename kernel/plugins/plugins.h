/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The built-in plugins. Each is one file in kernel/plugins/ defining its
 * const struct vs_plugin_ops; vs_builtin_plugins lists them all for
 * registry/builtin.c (a table, not constructors: an object nobody
 * references would not be linked out of libvscore.a).
 */
#ifndef VS_PLUGINS_H
#define VS_PLUGINS_H

#include "sched/framework.h"

extern const struct vs_plugin_ops vs_plugin_binpack;
extern const struct vs_plugin_ops vs_plugin_capacity;
extern const struct vs_plugin_ops vs_plugin_conformance;
extern const struct vs_plugin_ops vs_plugin_drf;
extern const struct vs_plugin_ops vs_plugin_gang;
extern const struct vs_plugin_ops vs_plugin_nettopo;
extern const struct vs_plugin_ops vs_plugin_nodeorder;
extern const struct vs_plugin_ops vs_plugin_overcommit;
extern const struct vs_plugin_ops vs_plugin_predicates;
extern const struct vs_plugin_ops vs_plugin_priority;
extern const struct vs_plugin_ops vs_plugin_proportion;

/*
 * Resource weights written as binpack's arguments under @prefix
 * ("binpack", "hypernode.binpack"): PREFIX.cpu and PREFIX.memory (1; a
 * negative one counts as 1), PREFIX.resources (a comma list) and
 * PREFIX.resources.NAME (1). vs_res_weights() gives each dimension its
 * weight, -1 for one not weighed; cpu and memory are always weighed, a
 * listed resource that no object has is passed over.
 */
int vs_res_weights_check(const struct vs_args *args, const char *prefix, struct vs_err *err);
void vs_res_weights(const struct vs_args *args, const char *prefix,
		    const struct vs_res_dims *dims, s64 *dim_weight);

/* NULL-terminated. */
extern const struct vs_plugin_ops *const vs_builtin_plugins[];

#endif /* VS_PLUGINS_H */

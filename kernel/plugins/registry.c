// SPDX-License-Identifier: Apache-2.0
/*
 * The table of built-in plugins, in the order "vsctl" lists them.
 */
#include "plugins/plugins.h"
#include "sched/metrics.h"

const struct vs_plugin_ops *const vs_builtin_plugins[] = {
	&vs_plugin_binpack,
	&vs_plugin_capacity,
	&vs_plugin_conformance,
	&vs_plugin_drf,
	&vs_plugin_gang,
	&vs_plugin_nettopo,
	&vs_plugin_nodeorder,
	&vs_plugin_overcommit,
	&vs_plugin_predicates,
	&vs_plugin_priority,
	&vs_plugin_proportion,
	NULL,
};

_Static_assert(ARRAY_SIZE(vs_builtin_plugins) - 1 <= VS_METRICS_PLUGINS_MAX,
	       "a latency histogram for every built-in plugin");

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

/* NULL-terminated. */
extern const struct vs_plugin_ops *const vs_builtin_plugins[];

#endif /* VS_PLUGINS_H */

// SPDX-License-Identifier: Apache-2.0
/*
 * The registry of the built-in actions and plugins (registry/builtin.h).
 */
#include <string.h>

#include "actions/actions.h"
#include "plugins/plugins.h"
#include "registry/builtin.h"

void vs_registry_builtin(struct vs_registry *reg)
{
	memset(reg, 0, sizeof(*reg));
	for (u32 i = 0; vs_builtin_actions[i]; i++)
		vs_registry_add_action(reg, vs_builtin_actions[i]);
	for (u32 i = 0; vs_builtin_plugins[i]; i++)
		vs_registry_add_plugin(reg, vs_builtin_plugins[i]);
}

const struct vs_registry *vs_builtin_registry(void)
{
	static struct vs_registry reg;

	/* Single-threaded, as the core is: the first call fills it. */
	if (!reg.nr_actions)
		vs_registry_builtin(&reg);
	return &reg;
}

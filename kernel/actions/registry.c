// SPDX-License-Identifier: Apache-2.0
/*
 * The table of built-in actions.
 */
#include "actions/actions.h"

const struct vs_action_ops *const vs_builtin_actions[] = {
	&vs_action_enqueue,
	&vs_action_allocate,
	&vs_action_backfill,
	NULL,
};

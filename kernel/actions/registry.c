// SPDX-License-Identifier: Apache-2.0
/*
 * The table of built-in actions.
 */
#include "actions/actions.h"
#include "sched/metrics.h"

const struct vs_action_ops *const vs_builtin_actions[] = {
	&vs_action_enqueue,
	&vs_action_allocate,
	&vs_action_backfill,
	&vs_action_preempt,
	&vs_action_reclaim,
	&vs_action_gangpreempt,
	&vs_action_gangreclaim,
	NULL,
};

_Static_assert(ARRAY_SIZE(vs_builtin_actions) - 1 <= VS_METRICS_ACTIONS_MAX,
	       "a latency histogram for every built-in action");

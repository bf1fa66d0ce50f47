// SPDX-License-Identifier: Apache-2.0
/*
 * Queue states and PodGroup phases as text. Queues are created, changed and
 * destroyed in cluster.c.
 */
#include "core/enum.h"
#include "core/queue.h"

static const char *const state_names[VS_QUEUE_NR_STATES] = {
	[VS_QUEUE_OPEN]		= "Open",
	[VS_QUEUE_CLOSING]	= "Closing",
	[VS_QUEUE_CLOSED]	= "Closed",
	[VS_QUEUE_UNKNOWN]	= "Unknown",
};

const char *vs_queue_state_name(enum vs_queue_state s)
{
	return vs_enum_name(state_names, ARRAY_SIZE(state_names), s);
}

int vs_queue_state_parse(const char *s, enum vs_queue_state *out, struct vs_err *err)
{
	int v;

	if (!s || !*s) {
		*out = VS_QUEUE_OPEN;
		return 0;
	}
	v = vs_enum_parse(state_names, ARRAY_SIZE(state_names), s, "queue state", err);
	if (v < 0)
		return v;
	*out = (enum vs_queue_state)v;
	return 0;
}

static const char *const phase_names[VS_PG_NR_PHASES] = {
	[VS_PG_PENDING]		= "Pending",
	[VS_PG_RUNNING]		= "Running",
	[VS_PG_UNKNOWN]		= "Unknown",
	[VS_PG_INQUEUE]		= "Inqueue",
	[VS_PG_COMPLETED]	= "Completed",
};

const char *vs_pg_phase_name(enum vs_pg_phase p)
{
	return vs_enum_name(phase_names, ARRAY_SIZE(phase_names), p);
}

int vs_pg_phase_parse(const char *s, enum vs_pg_phase *out, struct vs_err *err)
{
	int v;

	if (!s || !*s) {
		*out = VS_PG_PENDING;
		return 0;
	}
	v = vs_enum_parse(phase_names, ARRAY_SIZE(phase_names), s, "podgroup phase", err);
	if (v < 0)
		return v;
	*out = (enum vs_pg_phase)v;
	return 0;
}

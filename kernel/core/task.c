// SPDX-License-Identifier: Apache-2.0
/*
 * Task statuses and preemption policies as text, and pod indexes in names.
 * The status changes themselves live in cluster.c, where the job, node and
 * queue are at hand.
 */
#include <string.h>

#include "core/enum.h"
#include "core/task.h"

/*
 * Memory per task is the core's first cost at scale (a million tasks):
 * struct vs_task stays within 248 bytes, so that with its pool's slab
 * header a task costs under 256. Its enums are kept in 8-bit fields, which
 * hold 0..127 whatever sign the compiler gives the enum.
 */
BUILD_BUG_ON(sizeof(struct vs_task) > 248);
BUILD_BUG_ON(VS_TASK_NR_STATUS > 128);
BUILD_BUG_ON(VS_ACCT_PIPELINED >= 128);
BUILD_BUG_ON(VS_PREEMPT_NEVER >= 128);

static const char *const status_names[VS_TASK_NR_STATUS] = {
	[VS_TASK_PENDING]	= "Pending",
	[VS_TASK_ALLOCATED]	= "Allocated",
	[VS_TASK_PIPELINED]	= "Pipelined",
	[VS_TASK_BINDING]	= "Binding",
	[VS_TASK_BOUND]		= "Bound",
	[VS_TASK_RUNNING]	= "Running",
	[VS_TASK_RELEASING]	= "Releasing",
	[VS_TASK_SUCCEEDED]	= "Succeeded",
	[VS_TASK_FAILED]	= "Failed",
	[VS_TASK_UNKNOWN]	= "Unknown",
};

const char *vs_task_status_name(enum vs_task_status s)
{
	return vs_enum_name(status_names, ARRAY_SIZE(status_names), s);
}

int vs_task_status_parse(const char *s, enum vs_task_status *out, struct vs_err *err)
{
	int v = vs_enum_parse(status_names, ARRAY_SIZE(status_names), s, "task status", err);

	if (v < 0)
		return v;
	*out = (enum vs_task_status)v;
	return 0;
}

static const char *const policy_names[] = {
	[VS_PREEMPT_LOWER_PRIORITY]	= "PreemptLowerPriority",
	[VS_PREEMPT_NEVER]		= "Never",
};

const char *vs_preemption_policy_name(enum vs_preemption_policy p)
{
	return vs_enum_name(policy_names, ARRAY_SIZE(policy_names), p);
}

int vs_preemption_policy_parse(const char *s, enum vs_preemption_policy *out,
			       struct vs_err *err)
{
	int v;

	if (!s || !*s) {
		*out = VS_PREEMPT_LOWER_PRIORITY;
		return 0;
	}
	v = vs_enum_parse(policy_names, ARRAY_SIZE(policy_names), s, "preemption policy", err);
	if (v < 0)
		return v;
	*out = (enum vs_preemption_policy)v;
	return 0;
}

s64 vs_task_name_index(const char *name)
{
	const char *p = strrchr(name, '-');
	unsigned int dashes = 0;
	u64 v = 0;

	for (const char *q = name; *q; q++)
		dashes += *q == '-';
	if (dashes < 2)
		return VS_NO_NAME_INDEX;
	/* After the last "-" there is no "-" sign; Atoi takes a "+". */
	if (*++p == '+')
		p++;
	if (!*p)
		return VS_NO_NAME_INDEX;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return VS_NO_NAME_INDEX;
		v = v * 10 + (u64)(*p - '0');
		if (v > (u64)INT64_MAX)
			return VS_NO_NAME_INDEX;	/* Atoi's range error */
	}
	return (s64)v;
}

u64 vs_bind_backoff_ns(u32 failures)
{
	u64 ns = VS_BIND_BACKOFF_INITIAL_NS;

	for (u32 i = 1; i < failures && ns < VS_BIND_BACKOFF_MAX_NS; i++)
		ns *= 2;
	return min_t(u64, ns, VS_BIND_BACKOFF_MAX_NS);
}

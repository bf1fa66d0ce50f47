// SPDX-License-Identifier: Apache-2.0
/*
 * VolcanoJob phases, policy events and actions as text, with Volcano's
 * spelling. VolcanoJobs are created and destroyed in cluster.c.
 */
#include "core/enum.h"
#include "core/vjob.h"

static const char *const phase_names[VS_VJOB_NR_PHASES] = {
	[VS_VJOB_PENDING]	= "Pending",
	[VS_VJOB_ABORTING]	= "Aborting",
	[VS_VJOB_ABORTED]	= "Aborted",
	[VS_VJOB_RUNNING]	= "Running",
	[VS_VJOB_RESTARTING]	= "Restarting",
	[VS_VJOB_COMPLETING]	= "Completing",
	[VS_VJOB_COMPLETED]	= "Completed",
	[VS_VJOB_TERMINATING]	= "Terminating",
	[VS_VJOB_TERMINATED]	= "Terminated",
	[VS_VJOB_FAILED]	= "Failed",
};

const char *vs_vjob_phase_name(enum vs_vjob_phase p)
{
	return vs_enum_name(phase_names, ARRAY_SIZE(phase_names), p);
}

static const char *const event_names[VS_EV_NR] = {
	[VS_EV_ANY]		= "*",
	[VS_EV_POD_FAILED]	= "PodFailed",
	[VS_EV_POD_EVICTED]	= "PodEvicted",
	[VS_EV_POD_PENDING]	= "PodPending",
	[VS_EV_POD_RUNNING]	= "PodRunning",
	[VS_EV_JOB_UNKNOWN]	= "Unknown",
	[VS_EV_TASK_COMPLETED]	= "TaskCompleted",
	[VS_EV_TASK_FAILED]	= "TaskFailed",
	[VS_EV_OUT_OF_SYNC]	= "OutOfSync",
	[VS_EV_COMMAND_ISSUED]	= "CommandIssued",
	[VS_EV_JOB_UPDATED]	= "JobUpdated",
};

const char *vs_vjob_event_name(enum vs_vjob_event e)
{
	return vs_enum_name(event_names, ARRAY_SIZE(event_names), e);
}

int vs_vjob_event_parse(const char *s, enum vs_vjob_event *out, struct vs_err *err)
{
	int v = vs_enum_parse(event_names, ARRAY_SIZE(event_names), s, "job event", err);

	if (v < 0)
		return v;
	*out = (enum vs_vjob_event)v;
	return 0;
}

static const char *const action_names[VS_ACT_NR] = {
	[VS_ACT_ABORT_JOB]	= "AbortJob",
	[VS_ACT_RESTART_JOB]	= "RestartJob",
	[VS_ACT_RESTART_TASK]	= "RestartTask",
	[VS_ACT_RESTART_POD]	= "RestartPod",
	[VS_ACT_TERMINATE_JOB]	= "TerminateJob",
	[VS_ACT_COMPLETE_JOB]	= "CompleteJob",
	[VS_ACT_RESUME_JOB]	= "ResumeJob",
	[VS_ACT_SYNC_JOB]	= "SyncJob",
	[VS_ACT_ENQUEUE_JOB]	= "EnqueueJob",
	[VS_ACT_SYNC_QUEUE]	= "SyncQueue",
	[VS_ACT_OPEN_QUEUE]	= "OpenQueue",
	[VS_ACT_CLOSE_QUEUE]	= "CloseQueue",
};

const char *vs_vjob_action_name(enum vs_vjob_action a)
{
	return vs_enum_name(action_names, ARRAY_SIZE(action_names), a);
}

int vs_vjob_action_parse(const char *s, enum vs_vjob_action *out, struct vs_err *err)
{
	int v = vs_enum_parse(action_names, ARRAY_SIZE(action_names), s, "job action", err);

	if (v < 0)
		return v;
	*out = (enum vs_vjob_action)v;
	return 0;
}

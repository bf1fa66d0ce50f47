// SPDX-License-Identifier: Apache-2.0
/*
 * Lifecycle policies (Volcano's applyPolicies): which action an event on a
 * VolcanoJob asks for. A policy names either an event ("*" for any) or a
 * container exit code, and an action. The first policy of the event's task
 * group that matches wins, then the first of the job's; an event nothing
 * matches, and an internal event (OutOfSync, CommandIssued, PodRunning), is
 * a SyncJob. A PodPending policy is honoured by Volcano only with a timeout,
 * which vsched's policies do not carry: it never matches.
 */
#include "controllers/jobstate.h"

static bool internal_event(enum vs_vjob_event event)
{
	return event == VS_EV_OUT_OF_SYNC || event == VS_EV_COMMAND_ISSUED ||
	       event == VS_EV_POD_RUNNING;
}

static bool policy_matches(const struct vs_vjob_policy *p, enum vs_vjob_event event,
			   s32 exit_code)
{
	if (p->has_exit_code)
		return p->exit_code == exit_code;	/* never 0: refused at creation */
	if (p->event != event && p->event != VS_EV_ANY)
		return false;
	return event != VS_EV_POD_PENDING;		/* needs a timeout */
}

static bool first_match(const struct vs_vjob_policy *p, u32 nr, enum vs_vjob_event event,
			s32 exit_code, enum vs_vjob_action *action)
{
	for (u32 i = 0; i < nr; i++) {
		if (policy_matches(&p[i], event, exit_code)) {
			*action = p[i].action;
			return true;
		}
	}
	return false;
}

enum vs_vjob_action vs_jc_policy_action(const struct vs_vjob *vjob, const struct vs_vjob_task *vt,
					enum vs_vjob_event event, s32 exit_code)
{
	enum vs_vjob_action action = VS_ACT_SYNC_JOB;

	if (internal_event(event))
		return action;
	if (vt && first_match(vt->policies, vt->nr_policies, event, exit_code, &action))
		return action;
	first_match(vjob->policies, vjob->nr_policies, event, exit_code, &action);
	return action;
}

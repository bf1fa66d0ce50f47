// SPDX-License-Identifier: Apache-2.0
/*
 * What the outside world reports about tasks: VS_CMD_TASK_STATUS (a pod
 * runs, finished, is being deleted, is gone, lost its scheduling gates) and VS_CMD_BIND_RESULT (the
 * answer to a bind decision, applied by the bind pipeline, bind/bind.h).
 * See ctl.h.
 *
 * The task statuses follow Volcano's getTaskStatus() from a pod's phase:
 * a pod being deleted is Releasing unless it finished, a finished pod holds
 * nothing on its node. Reports that contradict what the core knows (a
 * Pending task that succeeded, a bind result for a task that is not
 * Binding) are refused and change nothing: the reporter is out of step and
 * must resynchronise, as a Kubernetes bridge does with a relist.
 *
 * A status report is what Volcano's job controller hears as a pod update,
 * and a deletion as a pod deleted: after the core's change, the
 * controllers are told (vs_ctl_task_updated(), vs_ctl_task_del()).
 */
#include <libmnl/libmnl.h>
#include <stdio.h>
#include <string.h>

#include "bind/bind.h"
#include "controllers/controllers.h"
#include "core/log.h"
#include "netlink/ctl.h"
#include "netlink/handlers.h"
#include "netlink/objects.h"
#include "netlink/parse.h"
#include "vsched/vsched.h"

static struct vs_nl_core *core_of(const struct vs_genl_info *info)
{
	return info->ctx->priv;
}

/* ---- VS_CMD_TASK_STATUS ---- */

#define ST(s)		VS_TASK_BIT(VS_TASK_##s)
/* On a node, or was: what the outside world can see running. */
#define PLACED		(ST(BINDING) | ST(BOUND) | ST(RUNNING) | ST(RELEASING))

/*
 * The statuses each event may come from. Allocated and Pipelined tasks are
 * the scheduler's, between a decision and its bind: nothing outside knows
 * them. A pod may fail without ever running (activeDeadlineSeconds), and be
 * deleted in any phase.
 */
static const u32 event_from[] = {
	[VS_TASK_EVENT_RUNNING]		= PLACED,
	[VS_TASK_EVENT_SUCCEEDED]	= PLACED | ST(SUCCEEDED),
	[VS_TASK_EVENT_FAILED]		= PLACED | ST(PENDING) | ST(UNKNOWN) | ST(FAILED),
	[VS_TASK_EVENT_DELETING]	= PLACED | ST(PENDING) | ST(UNKNOWN) | ST(SUCCEEDED) |
					  ST(FAILED),
	[VS_TASK_EVENT_DELETED]		= (1u << VS_TASK_NR_STATUS) - 1,
	/* the API server lets the gates go in any phase */
	[VS_TASK_EVENT_UNGATED]		= (1u << VS_TASK_NR_STATUS) - 1,
	/* status.nominatedNodeName may change in any phase */
	[VS_TASK_EVENT_NOMINATED]	= (1u << VS_TASK_NR_STATUS) - 1,
};

static const char *const event_what[] = {
	[VS_TASK_EVENT_RUNNING]		= "be running",
	[VS_TASK_EVENT_SUCCEEDED]	= "have succeeded",
	[VS_TASK_EVENT_FAILED]		= "have failed",
	[VS_TASK_EVENT_DELETING]	= "be terminating",
	[VS_TASK_EVENT_DELETED]		= "be gone",
	[VS_TASK_EVENT_UNGATED]		= "lose its scheduling gates",
	[VS_TASK_EVENT_NOMINATED]	= "have its nominated node changed",
};

/* The status @event gives a task in @status (it may come from it). */
static enum vs_task_status event_target(enum vs_task_event event, enum vs_task_status status)
{
	switch (event) {
	case VS_TASK_EVENT_RUNNING:
		/* A pod being deleted still runs: it stays Releasing. */
		return status == VS_TASK_RELEASING ? status : VS_TASK_RUNNING;
	case VS_TASK_EVENT_SUCCEEDED:
		return VS_TASK_SUCCEEDED;
	case VS_TASK_EVENT_FAILED:
		return VS_TASK_FAILED;
	case VS_TASK_EVENT_DELETING:
		return vs_task_status_terminal(status) ? status : VS_TASK_RELEASING;
	case VS_TASK_EVENT_DELETED:
	case VS_TASK_EVENT_UNGATED:
	case VS_TASK_EVENT_NOMINATED:
		break;
	}
	return status;
}

/*
 * The report was applied; the job controller then failed to do what follows
 * from it (a sync whose queue is gone, say). That is the job's trouble, not
 * the reporter's: logged, and tried again on the next sync.
 */
static void controller_failed(const struct nlattr *const *tb, const struct vs_err *err)
{
	vs_warn("task %s/%s: %s", mnl_attr_get_str(tb[VS_TASK_A_NAMESPACE]),
		mnl_attr_get_str(tb[VS_TASK_A_NAME]), err->msg);
}

int vs_nl_task_status_doit(struct vs_genl_info *info)
{
	const struct nlattr *nest = info->attrs[VS_A_TASK], *tb[VS_TASK_A_MAX + 1];
	const struct vs_nl_objtype *ot = vs_nl_objtype(VS_A_TASK);
	struct vs_nl_core *core = core_of(info);
	struct vs_cluster *cl = core->cl;
	struct vs_err *err = &info->extack->err;
	enum vs_task_status target, old;
	enum vs_task_event event;
	struct vs_task *task;
	struct vs_ctl ctl;
	s32 exit_code;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_TASK_A_MAX);
	event = (enum vs_task_event)mnl_attr_get_u32(tb[VS_TASK_A_EVENT]);	/* required */
	if (tb[VS_TASK_A_EXIT_CODE] && event != VS_TASK_EVENT_FAILED)
		return vs_nl_refuse(info, tb[VS_TASK_A_EXIT_CODE], EINVAL,
				    "task.exitCode (VS_TASK_A_EXIT_CODE): only a failed task has "
				    "an exit code");
	if (tb[VS_TASK_A_NOMINATED_NODE] && event != VS_TASK_EVENT_NOMINATED)
		return vs_nl_refuse(info, tb[VS_TASK_A_NOMINATED_NODE], EINVAL,
				    "task.nominatedNodeName (VS_TASK_A_NOMINATED_NODE): only a "
				    "nominated report has a nominated node");
	task = vs_nl_obj_find(ot, cl, nest, err, &ret);
	if (!task)
		return vs_nl_refuse(info, nest, ret, "task not found");
	if (!(event_from[event] & VS_TASK_BIT(task->status)))
		return vs_nl_refuse(info, tb[VS_TASK_A_EVENT], EINVAL,
				    "task %s/%s is %s: it cannot %s", task->ns, task->name,
				    vs_task_status_name(task->status), event_what[event]);
	vs_nl_ctl_init(core, &ctl);
	/* The task may be gone after the controllers ran: @tb names it. */
	if (event == VS_TASK_EVENT_DELETED) {
		vs_nl_event(core, VS_EVENT_DEL, VS_A_TASK, task);
		if (vs_ctl_task_del(&ctl, task, err))
			controller_failed(tb, err);
		vs_err_clear(err);
		return 0;
	}
	if (event == VS_TASK_EVENT_UNGATED) {
		if (!task->gated)
			return 0;	/* said again, or it had none */
		ret = vs_task_ungate(cl, task, err);
		if (ret)
			return vs_nl_refuse(info, tb[VS_TASK_A_EVENT], ret, "ungate refused");
		vs_nl_event(core, VS_EVENT_STATUS, VS_A_TASK, task);
		return 0;
	}
	if (event == VS_TASK_EVENT_NOMINATED) {
		const char *node = tb[VS_TASK_A_NOMINATED_NODE] ?
				   mnl_attr_get_str(tb[VS_TASK_A_NOMINATED_NODE]) : NULL;
		const char *was = vs_task_nominated(task);

		ret = vs_task_set_nominated(cl, task, node, err);
		if (ret)
			return vs_nl_refuse(info, tb[VS_TASK_A_NOMINATED_NODE] ?: tb[VS_TASK_A_EVENT],
					    ret, "nominated node refused");
		if (vs_task_nominated(task) != was)	/* interned: a change is a new pointer */
			vs_nl_event(core, VS_EVENT_STATUS, VS_A_TASK, task);
		return 0;
	}
	target = event_target(event, task->status);
	if (target == task->status)
		return 0;	/* said again: nothing changes */
	old = task->status;
	ret = vs_task_set_status(cl, task, target, err);
	if (ret)
		return vs_nl_refuse(info, tb[VS_TASK_A_EVENT], ret, "task status refused");
	vs_nl_event(core, VS_EVENT_STATUS, VS_A_TASK, task);
	/* no exit code is no code: a policy's exit code is never 0 */
	exit_code = tb[VS_TASK_A_EXIT_CODE] ? (s32)mnl_attr_get_u32(tb[VS_TASK_A_EXIT_CODE]) : 0;
	if (vs_ctl_task_updated(&ctl, task, old, exit_code, err))
		controller_failed(tb, err);
	vs_err_clear(err);
	return 0;
}

/* ---- VS_CMD_BIND_RESULT ---- */

int vs_nl_bind_result_doit(struct vs_genl_info *info)
{
	const struct nlattr *nest = info->attrs[VS_A_BIND_RESULT], *tb[VS_BIND_A_MAX + 1];
	struct vs_nl_core *core = core_of(info);
	const char *ns, *name, *msg;
	struct vs_task *task;
	s32 error;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_BIND_A_MAX);
	/* The policy requires the namespace, the name and the error. */
	ns = mnl_attr_get_str(tb[VS_BIND_A_NAMESPACE]);
	name = mnl_attr_get_str(tb[VS_BIND_A_NAME]);
	error = (s32)mnl_attr_get_u32(tb[VS_BIND_A_ERROR]);
	msg = tb[VS_BIND_A_MESSAGE] ? mnl_attr_get_str(tb[VS_BIND_A_MESSAGE]) : "";
	if (!error && tb[VS_BIND_A_MESSAGE])
		return vs_nl_refuse(info, tb[VS_BIND_A_MESSAGE], EINVAL,
				    "bindResult.message (VS_BIND_A_MESSAGE): only a failed bind "
				    "has one (error is 0)");
	task = vs_task_find(core->cl, ns, name);
	if (!task)
		return vs_nl_refuse(info, nest, ENOENT, "task %s/%s not found", ns, name);
	if (task->status != VS_TASK_BINDING)
		return vs_nl_refuse(info, nest, ESTALE, "task %s/%s is %s, not Binding: no bind "
				    "result is awaited", ns, name,
				    vs_task_status_name(task->status));
	if (tb[VS_BIND_A_NODE] && strcmp(mnl_attr_get_str(tb[VS_BIND_A_NODE]), task->node->name))
		return vs_nl_refuse(info, tb[VS_BIND_A_NODE], ESTALE, "task %s/%s is Binding to "
				    "node %s, not %s: the result is stale", ns, name,
				    task->node->name, mnl_attr_get_str(tb[VS_BIND_A_NODE]));
	if (!error) {
		ret = vs_bind_succeeded(core->cl, task, &info->extack->err);
		if (ret)
			return vs_nl_refuse(info, nest, ret, "bind result refused");
		vs_nl_event(core, VS_EVENT_STATUS, VS_A_TASK, task);
		return 0;
	}
	/* Retried after its backoff, with the reason kept on it for explanations. */
	ret = vs_bind_failed(core->cl, task, vs_nl_now_ns(core), error, msg, &info->extack->err);
	if (ret)
		return vs_nl_refuse(info, nest, ret, "bind result refused");
	vs_nl_event(core, VS_EVENT_STATUS, VS_A_TASK, task);
	core->ctl.bind_failures++;
	return 0;
}

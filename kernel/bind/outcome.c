// SPDX-License-Identifier: Apache-2.0
/*
 * The outcomes of binds (bind.h): a Binding task's bind succeeded, failed
 * with a backoff, or is confirmed by the standalone binder; and how long a
 * task backs off after failures in a row.
 */
#include <errno.h>
#include <stdio.h>

#include "bind/bind.h"
#include "core/cluster.h"
#include "core/err.h"
#include "core/log.h"
#include "core/node.h"

u64 vs_bind_backoff_ns(u32 failures)
{
	u64 ns = VS_BIND_BACKOFF_INITIAL_NS;

	for (u32 i = 1; i < failures && ns < VS_BIND_BACKOFF_MAX_NS; i++)
		ns *= 2;
	return min_t(u64, ns, VS_BIND_BACKOFF_MAX_NS);
}

static int not_binding(const struct vs_task *task, struct vs_err *err)
{
	return vs_err_set(err, EINVAL, "task %s/%s is %s, not Binding", task->ns, task->name,
			  vs_task_status_name(task->status));
}

int vs_bind_succeeded(struct vs_cluster *cl, struct vs_task *task, struct vs_err *err)
{
	int ret;

	if (task->status != VS_TASK_BINDING)
		return not_binding(task, err);
	ret = vs_task_set_status(cl, task, VS_TASK_BOUND, err);
	if (ret)
		return ret;
	/* Most binds follow no failure: nothing to clear then, on every bind of a cycle. */
	if (vs_task_bind_failures(task) || vs_task_retry_after(task) || vs_task_bind_error(task))
		return vs_task_set_bind_state(cl, task, NULL, 0, 0, err);
	return 0;
}

int vs_bind_failed(struct vs_cluster *cl, struct vs_task *task, u64 now_ns, s32 error,
		   const char *msg, struct vs_err *err)
{
	char why[VS_ERR_MSG_MAX];
	const char *node, *kept;
	u16 failures;
	int ret;

	if (task->status != VS_TASK_BINDING)
		return not_binding(task, err);
	if (!msg || !*msg)
		msg = "no reason given";
	node = task->node->name;	/* interned: the node holds it */
	snprintf(why, sizeof(why), "binding to node %s failed: %s (error %d)", node, msg, error);
	kept = vs_str_get_cstr(&cl->strs, why);
	if (!kept)
		return vs_err_set(err, ENOMEM, "out of memory");
	/* Forget the assumption: the node gets its resources back. */
	ret = vs_task_unplace(cl, task, VS_TASK_PENDING, err);
	if (ret) {
		vs_str_put(&cl->strs, kept);
		return ret;
	}
	failures = vs_task_bind_failures(task);
	failures = failures < UINT16_MAX ? failures + 1 : UINT16_MAX;
	ret = vs_task_set_bind_state(cl, task, kept, failures,
				     now_ns + vs_bind_backoff_ns(failures), err);
	if (ret) {
		vs_str_put(&cl->strs, kept);
		return ret;
	}
	vs_warn("Failed to bind task <%s/%s> to node <%s>: %s (error %d): back to Pending, "
		"retried in %llu ms", task->ns, task->name, node, msg, error,
		(unsigned long long)(vs_bind_backoff_ns(failures) / 1000000));
	return 0;
}

int vs_bind_confirm(struct vs_cluster *cl, struct vs_task *task, struct vs_err *err)
{
	int ret = vs_bind_succeeded(cl, task, err);

	return ret ? ret : vs_task_set_status(cl, task, VS_TASK_RUNNING, err);
}

size_t vs_bind_confirm_all(struct vs_cluster *cl, struct vs_task *const *tasks, size_t nr)
{
	size_t n = 0;

	for (size_t i = 0; i < nr; i++)
		if (tasks[i]->status == VS_TASK_BINDING && !vs_bind_confirm(cl, tasks[i], NULL))
			n++;
	return n;
}

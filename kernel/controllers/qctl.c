// SPDX-License-Identifier: Apache-2.0
/*
 * The queue controller (Volcano's queue_controller_action.go and
 * queue/state): the state table of qctl.h, the three operations it picks
 * (SyncQueue, OpenQueue, CloseQueue), the parent/child propagation and the
 * admission of new work into a queue.
 *
 * Volcano propagates along the tree by queueing requests for the children;
 * here the child runs at once. A parent is opened before the children it
 * had closed, so that their own check of the parent sees it Open.
 */
#include <string.h>

#include "controllers/qctl.h"
#include "core/log.h"
#include "core/txn.h"

static bool closed_or_closing(enum vs_queue_state s)
{
	return s == VS_QUEUE_CLOSED || s == VS_QUEUE_CLOSING;
}

static bool is_root(const struct vs_queue *queue)
{
	return !strcmp(queue->name, "root");
}

static void set_state(struct vs_ctl *ctl, struct vs_queue *queue, enum vs_queue_state state)
{
	enum vs_queue_state old = queue->state;

	if (old == state)
		return;
	vs_queue_journal_state(ctl->cl, queue);
	queue->state = state;
	vs_v(2, "Queue <%s> is %s, was %s (%u podgroups)", queue->name,
	     vs_queue_state_name(state), vs_queue_state_name(old), queue->nr_jobs);
	vs_ctl_queue_changed(ctl, queue, old);
}

/* The parent a queue follows: the one it names, else "root" if there is one. */
static struct vs_queue *parent_of(struct vs_cluster *cl, const struct vs_queue *queue)
{
	if (is_root(queue))
		return NULL;
	return vs_queue_find(cl, queue->parent ? queue->parent : "root");
}

/* What a Closing queue, or a queue being closed, becomes. */
static enum vs_queue_state closing_state(const struct vs_queue *queue)
{
	return queue->nr_jobs ? VS_QUEUE_CLOSING : VS_QUEUE_CLOSED;
}

/* syncHierarchicalQueue: a queue follows a parent that closed or opened again. */
static int follow_parent(struct vs_ctl *ctl, struct vs_queue *queue, struct vs_err *err)
{
	struct vs_queue *parent = parent_of(ctl->cl, queue);

	if (!parent)
		return 0;
	if (closed_or_closing(parent->state) && !closed_or_closing(queue->state)) {
		vs_v(3, "Closing queue %s because its parent queue %s is closing or closed.",
		     queue->name, parent->name);
		vs_queue_journal_state(ctl->cl, queue);
		queue->closed_by_parent = true;
		return vs_qctl_execute(ctl, queue, VS_ACT_CLOSE_QUEUE, err);
	}
	if (parent->state == VS_QUEUE_OPEN && closed_or_closing(queue->state) &&
	    queue->closed_by_parent) {
		vs_v(3, "Opening queue %s because its parent queue %s is opened.", queue->name,
		     parent->name);
		return vs_qctl_execute(ctl, queue, VS_ACT_OPEN_QUEUE, err);
	}
	return 0;
}

/* SyncQueue: the counts are the core's; the state is @state; then the parent. */
static int sync_queue(struct vs_ctl *ctl, struct vs_queue *queue, enum vs_queue_state state,
		      struct vs_err *err)
{
	set_state(ctl, queue, state);
	return follow_parent(ctl, queue, err);
}

/* OpenQueue: not under a closed parent; the children it closed open again. */
static int open_queue(struct vs_ctl *ctl, struct vs_queue *queue, struct vs_err *err)
{
	struct vs_queue *parent, *child;
	int ret = 0;

	if (queue->state != VS_QUEUE_OPEN && queue->parent && strcmp(queue->parent, "root")) {
		parent = vs_queue_find(ctl->cl, queue->parent);
		if (!parent)
			return vs_err_set(err, ENOENT, "parent queue %s does not exist",
					  queue->parent);
		if (closed_or_closing(parent->state))
			return vs_err_set(err, EPERM, "cannot open queue %s because its parent "
					  "queue %s is closing or closed; open the parent queue "
					  "first", queue->name, parent->name);
	}
	set_state(ctl, queue, VS_QUEUE_OPEN);
	vs_queue_journal_state(ctl->cl, queue);
	queue->closed_by_parent = false;
	list_for_each_entry(child, &ctl->cl->queues, list) {
		int r;

		if (child->parent != queue->name || !child->closed_by_parent ||
		    !closed_or_closing(child->state))
			continue;
		vs_v(3, "Opening queue %s because its parent queue %s is opened", child->name,
		     queue->name);
		r = vs_qctl_execute(ctl, child, VS_ACT_OPEN_QUEUE, err);
		if (r && !ret)
			ret = r;
	}
	return ret;
}

/* CloseQueue: the open children close too; "root" never closes. */
static int close_queue(struct vs_ctl *ctl, struct vs_queue *queue, struct vs_err *err)
{
	struct vs_queue *child;
	int ret = 0;

	if (!closed_or_closing(queue->state)) {
		if (is_root(queue)) {
			vs_v(2, "Root queue cannot be closed");
			return 0;
		}
		list_for_each_entry(child, &ctl->cl->queues, list) {
			int r;

			if (child->parent != queue->name || closed_or_closing(child->state))
				continue;
			vs_v(3, "Closing child queue %s because its parent queue %s is closing "
			     "or closed.", child->name, queue->name);
			child->closed_by_parent = true;
			r = vs_qctl_execute(ctl, child, VS_ACT_CLOSE_QUEUE, err);
			if (r && !ret)
				ret = r;
		}
	}
	set_state(ctl, queue, closing_state(queue));
	return ret;
}

int vs_qctl_execute(struct vs_ctl *ctl, struct vs_queue *queue, enum vs_vjob_action action,
		    struct vs_err *err)
{
	int ret;

	switch (queue->state) {
	case VS_QUEUE_OPEN:
		if (action == VS_ACT_CLOSE_QUEUE)
			ret = close_queue(ctl, queue, err);
		else
			ret = sync_queue(ctl, queue, VS_QUEUE_OPEN, err);
		break;
	case VS_QUEUE_CLOSED:
		if (action == VS_ACT_OPEN_QUEUE)
			ret = open_queue(ctl, queue, err);
		else
			ret = sync_queue(ctl, queue, VS_QUEUE_CLOSED, err);
		break;
	case VS_QUEUE_CLOSING:
		if (action == VS_ACT_OPEN_QUEUE)
			ret = open_queue(ctl, queue, err);
		else
			ret = sync_queue(ctl, queue, closing_state(queue), err);
		break;
	case VS_QUEUE_UNKNOWN:
	default:
		if (action == VS_ACT_OPEN_QUEUE)
			ret = open_queue(ctl, queue, err);
		else if (action == VS_ACT_CLOSE_QUEUE)
			ret = close_queue(ctl, queue, err);
		else
			ret = sync_queue(ctl, queue, VS_QUEUE_UNKNOWN, err);
		break;
	}
	if (ret)
		vs_err_prefix(err, "queue %s: ", queue->name);
	return ret;
}

int vs_qctl_command(struct vs_ctl *ctl, struct vs_queue *queue, enum vs_vjob_action action,
		    struct vs_err *err)
{
	if (action != VS_ACT_OPEN_QUEUE && action != VS_ACT_CLOSE_QUEUE)
		return vs_err_set(err, EINVAL, "queue %s: %s is not a queue command (OpenQueue, "
				  "CloseQueue)", queue->name,
				  (unsigned int)action < VS_ACT_NR ? vs_vjob_action_name(action) :
								     "that");
	if (action == VS_ACT_CLOSE_QUEUE && is_root(queue))
		return vs_err_set(err, EPERM, "queue root: the root queue cannot be closed");
	vs_v(3, "Start to execute command %s on Queue <%s>", vs_vjob_action_name(action),
	     queue->name);
	return vs_qctl_execute(ctl, queue, action, err);
}

int vs_qctl_sync(struct vs_ctl *ctl, struct vs_queue *queue, struct vs_err *err)
{
	return vs_qctl_execute(ctl, queue, VS_ACT_SYNC_QUEUE, err);
}

int vs_qctl_sync_all(struct vs_ctl *ctl, struct vs_err *err)
{
	struct vs_queue *queue;
	int first = 0;

	list_for_each_entry(queue, &ctl->cl->queues, list) {
		int ret = vs_qctl_sync(ctl, queue, first ? NULL : err);

		if (ret && !first)
			first = ret;
	}
	return first;
}

int vs_qctl_admit_job(struct vs_ctl *ctl, const char *name, struct vs_err *err)
{
	const struct vs_queue *queue = name ? vs_queue_find(ctl->cl, name) : NULL, *q;
	u32 children = 0;

	if (!queue)
		return vs_err_set(err, ENOENT, "unable to find job queue: queue %s does not exist",
				  name ? name : "");
	if (queue->state != VS_QUEUE_OPEN)
		return vs_err_set(err, EPERM, "can only submit job to queue with state `Open`, "
				  "queue `%s` status is `%s`", queue->name,
				  vs_queue_state_name(queue->state));
	if (is_root(queue))
		return vs_err_set(err, EINVAL, "can not submit job to root queue");
	list_for_each_entry(q, &ctl->cl->queues, list)
		children += q->parent == queue->name;
	if (children)
		return vs_err_set(err, EINVAL, "can only submit job to leaf queue, queue `%s` has "
				  "%u child queues", queue->name, children);
	return 0;
}

int vs_qctl_admit_podgroup(struct vs_ctl *ctl, const char *name, struct vs_err *err)
{
	const struct vs_queue *queue;

	if (!name || !*name)
		name = "default";
	queue = vs_queue_find(ctl->cl, name);
	if (!queue)
		return vs_err_set(err, ENOENT, "unable to find queue: queue %s does not exist",
				  name);
	if (queue->state != VS_QUEUE_OPEN)
		return vs_err_set(err, EPERM, "can only submit PodGroup to queue with state "
				  "`Open`, queue `%s` status is `%s`", queue->name,
				  vs_queue_state_name(queue->state));
	return 0;
}

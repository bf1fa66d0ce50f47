// SPDX-License-Identifier: Apache-2.0
/*
 * The events group's messages: see events.h.
 *
 * Each event is a whole message, built in place after the ones waiting, so
 * that sending them is handing out the buffer in datagrams. An event the
 * buffer cannot take is lost, and said to be (events->lost): a listener
 * that missed one must not go on believing it knows the cluster.
 */
#include <libmnl/libmnl.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "netlink/events.h"
#include "netlink/handlers.h"
#include "netlink/objects.h"
#include "sched/session.h"

struct vs_nl_pg_phase {
	struct vs_job *pg;
	enum vs_pg_phase phase;
};

static void lose(struct vs_nl_events *ev, const char *why)
{
	if (!ev->lost)
		vs_error("events: %s: the events group's listeners get ENOBUFS", why);
	ev->lost = true;
}

/* Room for one more message of the largest size; false when there is none. */
static bool reserve(struct vs_nl_events *ev)
{
	size_t cap;
	char *buf;

	if (ev->cap - ev->len >= VS_NL_EVENT_MSG_MAX)
		return true;
	if (ev->len + VS_NL_EVENT_MSG_MAX > VS_NL_EVENTS_MAX) {
		lose(ev, "more events wait than they may hold");
		return false;
	}
	cap = ev->cap ? ev->cap : 4 * VS_NL_EVENT_MSG_MAX;
	while (cap - ev->len < VS_NL_EVENT_MSG_MAX)
		cap *= 2;
	buf = realloc(ev->buf, cap);
	if (!buf) {
		lose(ev, "out of memory");
		return false;
	}
	ev->buf = buf;
	ev->cap = cap;
	return true;
}

size_t vs_nl_events_put(struct vs_nl_events *ev, u8 cmd, enum vs_event_kind kind,
			vs_nl_event_put_fn put, const void *arg)
{
	struct vs_nl_reply r;
	struct nlmsghdr *nlh;

	if (!reserve(ev))
		return 0;
	vs_nl_reply_init(&r, ev->buf + ev->len, VS_NL_EVENT_MSG_MAX, 0);
	nlh = vs_nl_reply_genl(&r, NULL, VSCHED_GENL_ID, 0, cmd, VSCHED_GENL_VERSION);
	if (!nlh || !mnl_attr_put_u32_check(nlh, vs_nl_reply_room(&r, nlh), VS_A_EVENT_KIND,
					    kind) ||
	    (put && !put(nlh, vs_nl_reply_room(&r, nlh), arg))) {
		lose(ev, "an object does not fit an event message");
		return 0;
	}
	vs_nl_reply_finish(&r, nlh);
	ev->len += r.len;
	ev->nr++;
	return r.len;
}

struct obj_arg {
	const struct vs_nl_objtype *ot;
	const void *obj;
};

static bool put_obj(struct nlmsghdr *nlh, size_t room, const void *arg)
{
	const struct obj_arg *a = arg;

	return vs_nl_obj_put(a->ot, nlh, room, a->obj);
}

/* The message at the end; its length, 0 when it was not made. */
static size_t put_event(struct vs_nl_events *ev, enum vs_event_kind kind, u16 attr,
			const void *obj)
{
	struct obj_arg a = { attr ? vs_nl_objtype(attr) : NULL, obj };

	return vs_nl_events_put(ev, VS_CMD_EVENT, kind, a.ot ? put_obj : NULL, &a);
}

void vs_nl_event(struct vs_nl_core *core, enum vs_event_kind kind, u16 attr, const void *obj)
{
	if (core->events.on)
		put_event(&core->events, kind, attr, obj);
}

static void reverse(char *a, char *b)
{
	while (a < --b) {
		char c = *a;

		*a++ = *b;
		*b = c;
	}
}

void vs_nl_event_at(struct vs_nl_core *core, size_t mark, enum vs_event_kind kind, u16 attr,
		    const void *obj)
{
	struct vs_nl_events *ev = &core->events;
	size_t n;

	if (!ev->on)
		return;
	n = put_event(ev, kind, attr, obj);
	if (!n || mark >= ev->len - n)
		return;
	/* Rotate [mark, len) so that the last n bytes come first. */
	reverse(ev->buf + mark, ev->buf + ev->len);
	reverse(ev->buf + mark, ev->buf + mark + n);
	reverse(ev->buf + mark + n, ev->buf + ev->len);
}

void vs_nl_events_rewind(struct vs_nl_events *ev, size_t mark)
{
	const struct nlmsghdr *nlh;
	size_t off = mark;

	if (mark >= ev->len)
		return;
	/* Whole messages from the mark: count them out. */
	while (off < ev->len) {
		nlh = (const struct nlmsghdr *)(ev->buf + off);
		off += NLMSG_ALIGN(nlh->nlmsg_len);
		ev->nr--;
	}
	ev->len = mark;
}

void vs_nl_events_sent(struct vs_nl_events *ev)
{
	ev->len = 0;
	ev->nr = 0;
	ev->lost = false;
}

void vs_nl_events_release(struct vs_nl_events *ev)
{
	free(ev->buf);
	free(ev->phases);
	ev->buf = NULL;
	ev->phases = NULL;
	ev->len = ev->cap = 0;
	ev->nr = ev->nr_phases = 0;
}

/* ---- a cycle's PodGroup phases ---- */

void vs_nl_events_cycle_begin(struct vs_nl_core *core, const struct vs_session *ssn)
{
	struct vs_nl_events *ev = &core->events;

	ev->nr_phases = 0;
	if (!ev->on || !ssn->nr_jobs)
		return;
	free(ev->phases);
	ev->phases = malloc(ssn->nr_jobs * sizeof(*ev->phases));
	if (!ev->phases) {
		lose(ev, "out of memory noting the PodGroups' phases");
		return;
	}
	for (u32 i = 0; i < ssn->nr_jobs; i++)
		ev->phases[i] = (struct vs_nl_pg_phase){ ssn->jobs[i], ssn->jobs[i]->phase };
	ev->nr_phases = ssn->nr_jobs;
}

void vs_nl_events_cycle_end(struct vs_nl_core *core)
{
	struct vs_nl_events *ev = &core->events;

	/* The session freed no PodGroup: the pointers still hold. */
	for (u32 i = 0; i < ev->nr_phases; i++)
		if (ev->phases[i].pg->phase != ev->phases[i].phase)
			vs_nl_event(core, VS_EVENT_STATUS, VS_A_PODGROUP, ev->phases[i].pg);
	ev->nr_phases = 0;
}

/* ---- the controllers' deeds ---- */

static void hook_task_added(void *ctx, struct vs_task *task)
{
	vs_nl_event(ctx, VS_EVENT_NEW, VS_A_TASK, task);
}

static void hook_task_removing(void *ctx, struct vs_task *task)
{
	vs_nl_event(ctx, VS_EVENT_DEL, VS_A_TASK, task);
}

static void hook_podgroup_added(void *ctx, struct vs_job *pg)
{
	vs_nl_event(ctx, VS_EVENT_NEW, VS_A_PODGROUP, pg);
}

static void hook_podgroup_removing(void *ctx, struct vs_job *pg)
{
	vs_nl_event(ctx, VS_EVENT_DEL, VS_A_PODGROUP, pg);
}

static void hook_vjob_changed(void *ctx, struct vs_vjob *vjob, enum vs_vjob_phase old)
{
	vs_nl_event(ctx, VS_EVENT_STATUS, VS_A_VJOB, vjob);
}

static void hook_queue_changed(void *ctx, struct vs_queue *queue, enum vs_queue_state old)
{
	vs_nl_event(ctx, VS_EVENT_STATUS, VS_A_QUEUE, queue);
}

static void hook_hypernode_added(void *ctx, struct vs_hypernode *hn)
{
	vs_nl_event(ctx, VS_EVENT_NEW, VS_A_HYPERNODE, hn);
}

static void hook_hypernode_changed(void *ctx, struct vs_hypernode *hn)
{
	vs_nl_event(ctx, VS_EVENT_SET, VS_A_HYPERNODE, hn);
}

static void hook_hypernode_removing(void *ctx, struct vs_hypernode *hn)
{
	vs_nl_event(ctx, VS_EVENT_DEL, VS_A_HYPERNODE, hn);
}

const struct vs_ctl_hooks vs_nl_event_hooks = {
	.task_added		= hook_task_added,
	.task_removing		= hook_task_removing,
	.podgroup_added		= hook_podgroup_added,
	.podgroup_removing	= hook_podgroup_removing,
	.vjob_changed		= hook_vjob_changed,
	.queue_changed		= hook_queue_changed,
	.hypernode_added	= hook_hypernode_added,
	.hypernode_changed	= hook_hypernode_changed,
	.hypernode_removing	= hook_hypernode_removing,
};

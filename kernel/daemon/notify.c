// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd's multicast: the messages the decisions, events and cycles groups
 * get (Documentation/protocol.md, "Notifications"), built in place with
 * libmnl as the handlers build replies, and sent to every client in the
 * group. The events are made by the handlers (netlink/events.h); here they
 * only go out.
 *
 * A cycle's decisions go out as VS_CMD_DECISIONS messages of
 * VSCHEDD_NOTIFY_MAX bytes at most: VS_A_CYCLE_ID first, then as many
 * VS_A_DECISION nests as fit. Each decision is written into the message
 * being filled when the scheduler commits it, so nothing of the task (its
 * names, the reason, which may live in the session's arena) is kept past
 * the commit; a full message goes out at once, the last one when the cycle
 * is over. Notifications carry nlmsg_pid 0 and nlmsg_seq 0, as the
 * kernel's do.
 */
#include <libmnl/libmnl.h>

#include "core/log.h"
#include "daemon/vschedd.h"

void vschedd_multicast(struct vschedd *d, unsigned int group, const void *buf, size_t len)
{
	struct vs_client *c;

	list_for_each_entry(c, &d->clients, node) {
		if (c->dead || !(c->groups & (1u << group)))
			continue;
		vschedd_tx_order(d, c);
		vschedd_send(d, c, buf, len, true);
	}
}

/* ---- decisions ---- */

static struct nlmsghdr *decisions_open(struct vschedd *d)
{
	struct nlmsghdr *nlh;

	vs_nl_reply_init(&d->dec, d->notebuf, VSCHEDD_NOTIFY_MAX, 0);
	nlh = vs_nl_reply_genl(&d->dec, NULL, VSCHED_GENL_ID, 0, VS_CMD_DECISIONS,
			       VSCHED_GENL_VERSION);
	/* The session under way has the number the cycle counter just took. */
	mnl_attr_put_u64(nlh, VS_A_CYCLE_ID, d->sched.stats.cycles);
	d->dec_nlh = nlh;
	return nlh;
}

static void decisions_send(struct vschedd *d)
{
	if (!d->dec_nlh)
		return;
	vs_nl_reply_finish(&d->dec, d->dec_nlh);
	vschedd_multicast(d, VS_MCGRP_DECISIONS, d->dec_nlh, d->dec_nlh->nlmsg_len);
	d->dec_nlh = NULL;
}

/* One VS_A_DECISION; false, with the message as it was, when it does not fit. */
static bool put_decision(struct nlmsghdr *nlh, size_t room, enum vs_decision_kind kind,
			 const struct vs_task *task, const char *node, const char *reason)
{
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, room, VS_A_DECISION);

	if (!nest)
		return false;
	if (!mnl_attr_put_u32_check(nlh, room, VS_DECISION_A_KIND, kind) ||
	    !vs_nla_put_strz(nlh, room, VS_DECISION_A_NAMESPACE, task->ns) ||
	    !vs_nla_put_strz(nlh, room, VS_DECISION_A_NAME, task->name) ||
	    (node && !vs_nla_put_strz(nlh, room, VS_DECISION_A_NODE, node)) ||
	    (reason && !vs_nla_put_strz(nlh, room, VS_DECISION_A_REASON, reason))) {
		mnl_attr_nest_cancel(nlh, nest);
		return false;
	}
	mnl_attr_nest_end(nlh, nest);
	return true;
}

void vschedd_notify_decision(struct vschedd *d, enum vs_decision_kind kind,
			     const struct vs_task *task, const char *node, const char *reason)
{
	struct nlmsghdr *nlh;

	if (!d->nr_subscribers[VS_MCGRP_DECISIONS])
		return;
	nlh = d->dec_nlh ? d->dec_nlh : decisions_open(d);
	if (put_decision(nlh, vs_nl_reply_room(&d->dec, nlh), kind, task, node, reason))
		return;
	/* Full: it goes, and a new one takes the decision (names are short, it fits). */
	decisions_send(d);
	nlh = decisions_open(d);
	if (!put_decision(nlh, vs_nl_reply_room(&d->dec, nlh), kind, task, node, reason))
		vs_error("the decision on task %s/%s does not fit a message", task->ns,
			 task->name);
}

void vschedd_notify_decisions_end(struct vschedd *d)
{
	decisions_send(d);
}

/* ---- events ---- */

/* @ev's messages to @group, as many whole ones to a datagram as fit. */
static void send_events(struct vschedd *d, struct vs_nl_events *ev, unsigned int group)
{
	size_t off = 0;

	if (ev->lost) {
		struct vs_client *c;

		list_for_each_entry(c, &d->clients, node)
			if (!c->dead && (c->groups & (1u << group)))
				vschedd_client_overrun(d, c);
	}
	while (off < ev->len) {
		size_t end = off;

		while (end < ev->len) {
			const struct nlmsghdr *nlh = (const void *)(ev->buf + end);
			size_t n = NLMSG_ALIGN(nlh->nlmsg_len);

			if (end > off && end + n - off > VSCHEDD_NOTIFY_MAX)
				break;
			end += n;
		}
		vschedd_multicast(d, group, ev->buf + off, end - off);
		off = end;
	}
	vs_nl_events_sent(ev);
}

void vschedd_notify_events(struct vschedd *d)
{
	send_events(d, &d->core.events, VS_MCGRP_EVENTS);
	send_events(d, &d->core.status, VS_MCGRP_STATUS);
}

/* ---- cycles ---- */

void vschedd_notify_cycle(struct vschedd *d, const struct vs_nl_cycle *cy)
{
	struct nlmsghdr *nlh;
	struct vs_nl_reply r;

	if (!d->nr_subscribers[VS_MCGRP_CYCLES])
		return;
	vs_nl_reply_init(&r, d->notebuf, VSCHEDD_NOTIFY_MAX, 0);
	nlh = vs_nl_reply_genl(&r, NULL, VSCHED_GENL_ID, 0, VS_CMD_CYCLE, VSCHED_GENL_VERSION);
	if (!nlh || !vs_nl_put_cycle(nlh, vs_nl_reply_room(&r, nlh), VS_A_CYCLE, cy)) {
		vs_error("cycle %llu does not fit a message", (unsigned long long)cy->id);
		return;
	}
	vs_nl_reply_finish(&r, nlh);
	vschedd_multicast(d, VS_MCGRP_CYCLES, nlh, nlh->nlmsg_len);
}

/* ---- overruns ---- */

int vschedd_put_enobufs(struct vs_nl_reply *r)
{
	/* No request is answered: the header echoed is zeroes, its sequence number 0. */
	const struct nlmsghdr none = { .nlmsg_len = sizeof(none) };
	struct vs_extack ext;

	vs_extack_clear(&ext);
	vs_extack_fail(&ext, ENOBUFS, "notifications were dropped: this connection did not "
		       "read them fast enough; resynchronise with dumps");
	return vs_nl_reply_error(r, &none, ext.error, &ext);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The events multicast group: a VS_CMD_EVENT message for every change of
 * an object, as a Kubernetes watch tells an informer (Documentation/
 * protocol.md, "Events").
 *
 * The handlers and the controllers' hooks build the messages while they
 * change the cluster; the messages wait in the core's struct vs_nl_events
 * until the program around the core (the daemon) sends them, between
 * requests and at the end of a cycle, so that what a request changed goes
 * out as one run, before the request is answered. A batch's events wait
 * until the batch is applied; a batch undone takes its events back. When
 * nobody listens (events->on false) nothing is built.
 *
 * In a request, the object it names comes first, then what the controllers
 * did about it: a VolcanoJob, then the PodGroup its controller made.
 */
#ifndef VS_NETLINK_EVENTS_H
#define VS_NETLINK_EVENTS_H

#include <linux/netlink.h>
#include <stddef.h>

#include "controllers/controllers.h"
#include "vsched/vsched.h"

struct vs_nl_core;
struct vs_session;

/* The largest VS_CMD_EVENT message: an object larger than this is not told. */
#define VS_NL_EVENT_MSG_MAX	(64u << 10)
/* The most the events waiting to be sent may hold; past it they are lost. */
#define VS_NL_EVENTS_MAX	(64u << 20)

struct vs_nl_events {
	bool on;			/* somebody listens: set by the daemon */
	/*
	 * An event could not be made or kept (no memory, too large): the
	 * listeners must be told that they missed some (ENOBUFS) and
	 * resynchronise with dumps.
	 */
	bool lost;
	char *buf;			/* VS_CMD_EVENT messages, NLMSG_ALIGNed, back to back */
	size_t len;
	size_t cap;
	u32 nr;				/* messages in buf */
	/* The PodGroup phases at the start of the cycle under way (vs_nl_events_cycle_*()). */
	struct vs_nl_pg_phase *phases;
	u32 nr_phases;
};

/* Adds an event's object to @nlh, a buffer of @room bytes; false when it does not fit. */
typedef bool (*vs_nl_event_put_fn)(struct nlmsghdr *nlh, size_t room, const void *arg);

/*
 * A notification @cmd (VS_CMD_EVENT, VS_CMD_STATUS) of @kind at the end of
 * @ev, with what @put (NULL: nothing) adds from @arg. Its length, 0 when it
 * could not be made (then @ev is marked lost).
 */
size_t vs_nl_events_put(struct vs_nl_events *ev, u8 cmd, enum vs_event_kind kind,
			vs_nl_event_put_fn put, const void *arg);

/*
 * @kind of the object @obj of the type whose top-level attribute is @attr
 * (VS_A_NODE...), as GET puts it; a DEL is told before the object goes,
 * with the object as it was. VS_EVENT_RESET has no object (@attr 0).
 */
void vs_nl_event(struct vs_nl_core *core, enum vs_event_kind kind, u16 attr, const void *obj);

/*
 * The same, placed at @mark (vs_nl_events_mark() before the change): the
 * object a request names comes before what the controllers did about it.
 */
void vs_nl_event_at(struct vs_nl_core *core, size_t mark, enum vs_event_kind kind, u16 attr,
		    const void *obj);

static inline size_t vs_nl_events_mark(const struct vs_nl_events *ev)
{
	return ev->len;
}

/* Forget the events made since @mark: what they told did not happen (an undone batch). */
void vs_nl_events_rewind(struct vs_nl_events *ev, size_t mark);

/* The events were sent: the buffer is empty again (it keeps its memory). */
void vs_nl_events_sent(struct vs_nl_events *ev);

void vs_nl_events_release(struct vs_nl_events *ev);

/*
 * A cycle's PodGroup phases: _begin() notes them in an open session, _end()
 * (after vs_session_close(), before the controllers run) tells VS_EVENT_STATUS
 * of every PodGroup whose phase the session changed.
 */
void vs_nl_events_cycle_begin(struct vs_nl_core *core, const struct vs_session *ssn);
void vs_nl_events_cycle_end(struct vs_nl_core *core);

/*
 * The controllers' hooks that tell their deeds as events; the hooks'
 * context is the struct vs_nl_core. The daemon puts them in core->hooks.
 */
extern const struct vs_ctl_hooks vs_nl_event_hooks;

#endif /* VS_NETLINK_EVENTS_H */

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the events group's messages (netlink/events.h): which change
 * makes which VS_CMD_EVENT, in which order, and that what did not happen
 * (a refused request, an undone batch) is never told. Requests go through
 * the in-process dispatcher with the core's hooks set as the daemon sets
 * them; the events are read from the core's buffer, where the daemon finds
 * them.
 */
#include <stdio.h>

#include "core/log.h"
#include "ctltest.h"
#include "netlink/events.h"

static void setup(void)
{
	ct_setup_sched();
	ct.core.hooks = &vs_nl_event_hooks;
	ct.core.hooks_priv = &ct.core;
	vs_log_file = tmpfile();
	/* Bare tasks' PodGroups go to the queue "default", which is there before anyone listens. */
	CT_OK(({ struct nlmsghdr *n = ct_req(VS_CMD_QUEUE_NEW, 0);
		 ct_put_queue(n, "default", 1); n; }));
	ct.core.events.on = true;
}

static void teardown(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	vs_nl_events_release(&ct.core.events);
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
	ct_teardown();
}

TestSuite(events, .init = setup, .fini = teardown);

/* ---- reading the events ---- */

static const char *const kind_names[] = { "new", "set", "del", "status", "reset",
					  "unschedulable" };

/* Per top-level attribute: its name, and its key and state attributes. */
static const struct {
	const char *what;
	u16 ns, name, state;
	const char *const *states;
	unsigned int nr_states;
} types[] = {
#define STATES(...) (const char *const[]){ __VA_ARGS__ }, \
	ARRAY_SIZE(((const char *const[]){ __VA_ARGS__ }))
	[VS_A_NODE]	= { "node", 0, VS_NODE_A_NAME, 0, NULL, 0 },
	[VS_A_QUEUE]	= { "queue", 0, VS_QUEUE_A_NAME, VS_QUEUE_A_STATE,
			    STATES("Open", "Closing", "Closed", "Unknown") },
	[VS_A_PODGROUP]	= { "podgroup", VS_PG_A_NAMESPACE, VS_PG_A_NAME, VS_PG_A_PHASE,
			    STATES("Pending", "Running", "Unknown", "Inqueue", "Completed") },
	[VS_A_TASK]	= { "task", VS_TASK_A_NAMESPACE, VS_TASK_A_NAME, VS_TASK_A_STATUS,
			    STATES("Pending", "Allocated", "Pipelined", "Binding", "Bound",
				   "Running", "Releasing", "Succeeded", "Failed", "Unknown") },
	[VS_A_VJOB]	= { "vjob", VS_VJOB_A_NAMESPACE, VS_VJOB_A_NAME, VS_VJOB_A_PHASE,
			    STATES("Pending", "Aborting", "Aborted", "Running", "Restarting",
				   "Completing", "Completed", "Terminating", "Terminated",
				   "Failed") },
	[VS_A_PRIOCLASS] = { "priorityclass", 0, VS_PC_A_NAME, 0, NULL, 0 },
#undef STATES
};

/* One event: "new task ns/p1 Pending", "set node n1", "reset". */
static void describe(const struct nlmsghdr *nlh, char *buf, size_t len)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *kind = ct_attr(nlh, VS_A_EVENT_KIND), *a, *s;
	int n;

	cr_assert_eq(nlh->nlmsg_type, VSCHED_GENL_ID);
	cr_assert_eq(g->cmd, VS_CMD_EVENT);
	cr_assert_eq(nlh->nlmsg_seq, 0, "notifications answer no request");
	cr_assert_eq(nlh->nlmsg_pid, 0);
	cr_assert_not_null(kind);
	cr_assert_lt(mnl_attr_get_u32(kind), ARRAY_SIZE(kind_names));
	n = snprintf(buf, len, "%s", kind_names[mnl_attr_get_u32(kind)]);
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		u16 type = mnl_attr_get_type(a);

		if (type == VS_A_EVENT_KIND)
			continue;
		cr_assert(type < ARRAY_SIZE(types) && types[type].what, "attribute %u", type);
		n += snprintf(buf + n, len - (size_t)n, " %s ", types[type].what);
		if (types[type].ns)
			n += snprintf(buf + n, len - (size_t)n, "%s/",
				      mnl_attr_get_str(ct_nested(a, types[type].ns)));
		n += snprintf(buf + n, len - (size_t)n, "%s",
			      mnl_attr_get_str(ct_nested(a, types[type].name)));
		s = types[type].state ? ct_nested(a, types[type].state) : NULL;
		if (s && mnl_attr_get_u32(s) < types[type].nr_states)
			n += snprintf(buf + n, len - (size_t)n, " %s",
				      types[type].states[mnl_attr_get_u32(s)]);
	}
}

/* One event, one line. */
static size_t describe_line(const struct nlmsghdr *nlh, char *buf, size_t len)
{
	size_t n;

	describe(nlh, buf, len);
	n = strlen(buf);
	return n + (size_t)snprintf(buf + n, len - n, "\n");
}

/* Every event waiting, one a line; the buffer is then empty. */
static char *take(void)
{
	static char text[8192];

	return ct_take_notes(&ct.core.events, describe_line, text, sizeof(text));
}

#define EXPECT(...)	cr_assert_str_eq(take(), __VA_ARGS__)

/* ---- requests ---- */

#define SEND(_cmd, _flags, ...)							\
	({									\
		struct nlmsghdr *__n = ct_req(_cmd, _flags);			\
										\
		__VA_ARGS__;							\
		ct_send(__n);							\
	})

#define SEND_OK(_cmd, ...)	cr_assert_eq(SEND(_cmd, 0, __VA_ARGS__), 0, "%s", ct.ext.err.msg)

static void put_label(struct nlmsghdr *nlh, const char *name, const char *key, const char *value)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE), *l, *e;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, name);
	l = mnl_attr_nest_start(nlh, VS_NODE_A_LABELS);
	e = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
	mnl_attr_put_strz(nlh, VS_KV_A_KEY, key);
	mnl_attr_put_strz(nlh, VS_KV_A_VALUE, value);
	mnl_attr_nest_end(nlh, e);
	mnl_attr_nest_end(nlh, l);
	mnl_attr_nest_end(nlh, n);
}

static void put_vjob(struct nlmsghdr *nlh, const char *name, const char *queue, u32 replicas)
{
	struct nlattr *v = mnl_attr_nest_start(nlh, VS_A_VJOB), *t;

	mnl_attr_put_strz(nlh, VS_VJOB_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_VJOB_A_NAME, name);
	mnl_attr_put_strz(nlh, VS_VJOB_A_QUEUE, queue);
	t = mnl_attr_nest_start(nlh, VS_VJOB_A_TASK);
	mnl_attr_put_strz(nlh, VS_VTASK_A_NAME, "worker");
	mnl_attr_put_u32(nlh, VS_VTASK_A_REPLICAS, replicas);
	ct_put_res(nlh, VS_VTASK_A_REQUEST, 1000, 1024 * CT_MI, -1);
	mnl_attr_nest_end(nlh, t);
	mnl_attr_nest_end(nlh, v);
}

static void put_command(struct nlmsghdr *nlh, const char *ns, const char *name,
			enum vs_action_uapi action, const char *task)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_COMMAND);

	if (ns)
		mnl_attr_put_strz(nlh, VS_COMMAND_A_NAMESPACE, ns);
	mnl_attr_put_strz(nlh, VS_COMMAND_A_NAME, name);
	mnl_attr_put_u32(nlh, VS_COMMAND_A_ACTION, action);
	if (task)
		mnl_attr_put_strz(nlh, VS_COMMAND_A_TASK, task);
	mnl_attr_nest_end(nlh, n);
}

/* ---- tests ---- */

Test(events, nobody_listening_nothing_is_made)
{
	ct.core.events.on = false;
	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 1));
	SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "p1", NULL, 1000, NULL, 0));
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	cr_assert_eq(ct.core.events.len, 0);
	cr_assert_eq(ct.core.events.nr, 0);
	cr_assert_null(ct.core.events.buf, "not even a buffer");
}

Test(events, object_commands_tell_new_set_and_del_of_what_they_change)
{
	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 2));
	EXPECT("new node n1\nnew queue q1 Open\n");
	SEND_OK(VS_CMD_NODE_SET, put_label(__n, "n1", "zone", "a"));
	/* A replacing NEW of an object that exists is a SET to whoever watches. */
	cr_assert_eq(SEND(VS_CMD_NODE_NEW, NLM_F_REPLACE, ct_put_node(__n, "n1", 8000)), 0);
	EXPECT("set node n1\nset node n1\n");
	SEND_OK(VS_CMD_NODE_DEL, ct_put_key(__n, VS_A_NODE, NULL, "n1"));
	EXPECT("del node n1\n");
}

Test(events, a_refused_request_tells_nothing)
{
	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	take();
	cr_assert_eq(SEND(VS_CMD_NODE_NEW, 0, ct_put_node(__n, "n1", 4000)), -EEXIST);
	cr_assert_eq(SEND(VS_CMD_NODE_DEL, 0, ct_put_key(__n, VS_A_NODE, NULL, "n2")), -ENOENT);
	cr_assert_eq(SEND(VS_CMD_NODE_SET, 0, put_label(__n, "n2", "zone", "a")), -ENOENT);
	/* A queue with a PodGroup cannot go: its DEL was made first, and taken back. */
	SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 1));
	SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "pg1", "q1", 1));
	take();
	cr_assert_lt(SEND(VS_CMD_QUEUE_DEL, 0, ct_put_key(__n, VS_A_QUEUE, NULL, "q1")), 0);
	EXPECT("");
	cr_assert_eq(ct.core.events.len, 0);
}

Test(events, a_bare_task_comes_before_the_podgroup_made_for_it)
{
	SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "p1", NULL, 1000, NULL, 0));
	EXPECT("new task ns/p1 Pending\nnew podgroup ns/podgroup-p1 Pending\n");
	/* Deleted, it goes first, then the PodGroup made for it. */
	SEND_OK(VS_CMD_TASK_DEL, ct_put_key(__n, VS_A_TASK, "ns", "p1"));
	EXPECT("del task ns/p1 Pending\ndel podgroup ns/podgroup-p1 Pending\n");
}

Test(events, a_volcano_job_comes_before_what_its_controller_makes)
{
	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 8000));
	SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 1));
	take();
	SEND_OK(VS_CMD_VJOB_NEW, put_vjob(__n, "j1", "q1", 2));
	EXPECT("new vjob ns/j1 Pending\nnew podgroup ns/j1 Pending\n");
	/*
	 * The cycle admits the PodGroup (its phase is told at the end of the
	 * session), then the job controller makes the tasks.
	 */
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("status podgroup ns/j1 Inqueue\nnew task ns/j1-worker-0 Pending\n"
	       "new task ns/j1-worker-1 Pending\nstatus vjob ns/j1 Pending\n");
	/* Sent to the binder: no phase moves while the binds are under way. */
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	cr_assert_eq(ct_task("j1-worker-0")->status, VS_TASK_BINDING);
	EXPECT("");
	SEND_OK(VS_CMD_BIND_RESULT, ct_put_bind(__n, "j1-worker-0", NULL, 0, NULL));
	SEND_OK(VS_CMD_TASK_STATUS, ct_put_event(__n, "j1-worker-0", VS_TASK_EVENT_RUNNING));
	SEND_OK(VS_CMD_BIND_RESULT, ct_put_bind(__n, "j1-worker-1", NULL, 0, NULL));
	SEND_OK(VS_CMD_TASK_STATUS, ct_put_event(__n, "j1-worker-1", VS_TASK_EVENT_RUNNING));
	EXPECT("status task ns/j1-worker-0 Bound\nstatus task ns/j1-worker-0 Running\n"
	       "status vjob ns/j1 Pending\n"
	       "status task ns/j1-worker-1 Bound\nstatus task ns/j1-worker-1 Running\n"
	       "status vjob ns/j1 Running\n");
	/* The PodGroup follows at the next session's end. */
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("status podgroup ns/j1 Running\n");
	/* A user's command: the job's phase, and the tasks the controller kills. */
	SEND_OK(VS_CMD_VJOB_COMMAND, put_command(__n, "ns", "j1", VS_ACTION_ABORT_JOB, NULL));
	cr_assert(strstr(take(), "status vjob ns/j1 Aborting\n"));
}

Test(events, a_refused_command_tells_nothing)
{
	SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 1));
	SEND_OK(VS_CMD_VJOB_NEW, put_vjob(__n, "j1", "q1", 1));
	take();
	/* A task group the job does not have, a job that is not there. */
	cr_assert_lt(SEND(VS_CMD_VJOB_COMMAND, 0,
			  put_command(__n, "ns", "j1", VS_ACTION_RESTART_TASK, "nope")), 0);
	cr_assert_eq(SEND(VS_CMD_VJOB_COMMAND, 0,
			  put_command(__n, "ns", "j2", VS_ACTION_ABORT_JOB, NULL)), -ENOENT);
	EXPECT("");
	/* A queue closed: Closing while its PodGroup is there. */
	SEND_OK(VS_CMD_QUEUE_COMMAND, put_command(__n, NULL, "q1", VS_ACTION_CLOSE_QUEUE, NULL));
	EXPECT("status queue q1 Closing\n");
}

Test(events, task_reports_and_bind_results_tell_the_status)
{
	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "p1", NULL, 1000, NULL, 0));
	SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "p2", NULL, 1000, NULL, 0));
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	take();
	/* A failed bind puts the task back: Pending, said so. */
	SEND_OK(VS_CMD_BIND_RESULT, ct_put_bind(__n, "p1", "n1", -EIO, "no"));
	SEND_OK(VS_CMD_BIND_RESULT, ct_put_bind(__n, "p2", "n1", 0, NULL));
	SEND_OK(VS_CMD_TASK_STATUS, ct_put_event(__n, "p2", VS_TASK_EVENT_SUCCEEDED));
	/* Said again: nothing changes, nothing is told. */
	SEND_OK(VS_CMD_TASK_STATUS, ct_put_event(__n, "p2", VS_TASK_EVENT_SUCCEEDED));
	SEND_OK(VS_CMD_TASK_STATUS, ct_put_event(__n, "p2", VS_TASK_EVENT_DELETED));
	EXPECT("status task ns/p1 Pending\nstatus task ns/p2 Bound\n"
	       "status task ns/p2 Succeeded\ndel task ns/p2 Succeeded\n"
	       "del podgroup ns/podgroup-p2 Inqueue\n");
	/* A refused report tells nothing. */
	cr_assert_eq(SEND(VS_CMD_TASK_STATUS, 0,
			  ct_put_event(__n, "p1", VS_TASK_EVENT_SUCCEEDED)), -EINVAL);
	EXPECT("");
}

Test(events, a_batch_tells_what_it_applied_and_nothing_of_what_it_undid)
{
	struct nlmsghdr *first, *nlh;

	first = ct_req(VS_CMD_BATCH_BEGIN, 0);
	first->nlmsg_seq = 1;
	nlh = ct_next(first, VS_CMD_NODE_NEW, 0, 2);
	ct_put_node(nlh, "n1", 4000);
	nlh = ct_next(nlh, VS_CMD_TASK_NEW, 0, 3);
	ct_put_task(nlh, "p1", NULL, 1000, NULL, 0);
	nlh = ct_next(nlh, VS_CMD_BATCH_END, 0, 4);
	cr_assert_eq(ct_send_dgram(first, ct_len(first, nlh)), 0, "%s", ct.ext.err.msg);
	EXPECT("new node n1\nnew task ns/p1 Pending\nnew podgroup ns/podgroup-p1 Pending\n");

	/* The third message fails: the first two are undone, and not told. */
	first = ct_req(VS_CMD_BATCH_BEGIN, 0);
	first->nlmsg_seq = 5;
	nlh = ct_next(first, VS_CMD_NODE_NEW, 0, 6);
	ct_put_node(nlh, "n2", 4000);
	nlh = ct_next(nlh, VS_CMD_TASK_NEW, 0, 7);
	ct_put_task(nlh, "p2", NULL, 1000, NULL, 0);
	nlh = ct_next(nlh, VS_CMD_NODE_NEW, 0, 8);
	ct_put_node(nlh, "n1", 4000);
	nlh = ct_next(nlh, VS_CMD_BATCH_END, 0, 9);
	cr_assert_eq(ct_send_dgram(first, ct_len(first, nlh)), -EEXIST);
	cr_assert_null(vs_node_find(&ct.cl, "n2"));
	EXPECT("");
}

Test(events, a_cycle_tells_the_podgroups_whose_phase_it_changed)
{
	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 2000));
	SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 1));
	SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "fits", "q1", 1));
	SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "big", "q1", 4));
	SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "a", "fits", 1000, NULL, 0));
	for (unsigned int i = 0; i < 4; i++) {
		char name[16];

		snprintf(name, sizeof(name), "b%u", i);
		SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, name, "big", 1000, NULL, 0));
	}
	take();
	/* Both admitted; the gang that cannot fit is told no more. */
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("status podgroup ns/fits Inqueue\nstatus podgroup ns/big Inqueue\n");
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("");
	/* Bound, its task is scheduled: Running at the next session's end. */
	SEND_OK(VS_CMD_BIND_RESULT, ct_put_bind(__n, "a", "n1", 0, NULL));
	take();
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("status podgroup ns/fits Running\n");
}

Test(events, a_reset_is_one_event)
{
	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "p1", NULL, 1000, NULL, 0));
	take();
	CT_OK(ct_req(VS_CMD_RESET, 0));
	EXPECT("reset\n");
}

/* ---- the buffer ---- */

Test(events, an_event_placed_at_a_mark_comes_before_those_made_after_it)
{
	struct vs_node *n1, *n2;
	size_t mark;

	ct.core.events.on = false;
	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n2", 4000));
	ct.core.events.on = true;
	n1 = vs_node_find(&ct.cl, "n1");
	n2 = vs_node_find(&ct.cl, "n2");
	vs_nl_event(&ct.core, VS_EVENT_SET, VS_A_NODE, n1);
	mark = vs_nl_events_mark(&ct.core.events);
	vs_nl_event(&ct.core, VS_EVENT_SET, VS_A_NODE, n2);
	vs_nl_event(&ct.core, VS_EVENT_STATUS, VS_A_NODE, n2);
	vs_nl_event_at(&ct.core, mark, VS_EVENT_NEW, VS_A_NODE, n1);
	EXPECT("set node n1\nnew node n1\nset node n2\nstatus node n2\n");
	/* Rewound to a mark: what came after goes, what came before stays. */
	vs_nl_event(&ct.core, VS_EVENT_SET, VS_A_NODE, n1);
	mark = vs_nl_events_mark(&ct.core.events);
	vs_nl_event(&ct.core, VS_EVENT_DEL, VS_A_NODE, n2);
	vs_nl_event(&ct.core, VS_EVENT_DEL, VS_A_NODE, n1);
	vs_nl_events_rewind(&ct.core.events, mark);
	EXPECT("set node n1\n");
}

Test(events, an_event_that_cannot_be_kept_is_said_lost)
{
	struct vs_node *n1;

	SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	take();
	n1 = vs_node_find(&ct.cl, "n1");
	/* As if VS_NL_EVENTS_MAX bytes waited already. */
	ct.core.events.len = VS_NL_EVENTS_MAX - 100;
	ct.core.events.cap = VS_NL_EVENTS_MAX;
	vs_nl_event(&ct.core, VS_EVENT_SET, VS_A_NODE, n1);
	cr_assert(ct.core.events.lost);
	cr_assert_eq(ct.core.events.len, VS_NL_EVENTS_MAX - 100, "nothing was written");
	ct.core.events.cap = 0;		/* what the test pretended */
	vs_nl_events_sent(&ct.core.events);
	cr_assert_not(ct.core.events.lost, "sent, the loss was told");
	cr_assert_eq(ct.core.events.len, 0);
}

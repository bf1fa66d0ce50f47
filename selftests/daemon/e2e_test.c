// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd end to end: a daemon served in a child process on a socket of
 * the test's own, and clients talking to it as vsctl does (libvsnl), or
 * raw where the test must see datagrams: objects made and read back, dumps
 * in parts, errors with their extended ack, permissions, subscriptions and
 * what a cycle sends, standalone binds, signals, the socket file.
 */
#include <grp.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <libmnl/libmnl.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "dreq.h"
#include "dtest.h"
#include "lib/codec_gen.h"
#include "lib/vsnl.h"

static struct dtest t;

static void fini(void)
{
	dt_cleanup(&t);
}

TestSuite(vschedd, .fini = fini, .timeout = 120);

/* A daemon with cycles only on request, and the options a test gives. */
static void start(struct vschedd_opts *o)
{
	struct vschedd_opts def = { .period_ms = 0 };

	dt_start(&t, o ? o : &def);
}

static struct vsnl *conn(void)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = vsnl_open(t.path, &err);

	cr_assert_not_null(c, "%s", err.msg);
	return c;
}

/* ---- requests, as vsctl builds them ---- */

static int req(struct vsnl *c, struct nl_msg *m, vsnl_cb cb, void *arg, struct vsnl_err *err)
{
	struct vsnl_err mine = { 0 };

	return vsnl_request(c, m, cb, arg, err ? err : &mine);
}

static void ok(struct vsnl *c, struct nl_msg *m)
{
	struct vsnl_err err = { 0 };

	cr_assert_eq(vsnl_request(c, m, NULL, NULL, &err), 0, "%s", err.msg);
}

/* A queue, a node of 4 cpus, a PodGroup ns/pg of two tasks ns/t0 and ns/t1 of 1 cpu. */
static void small_cluster(struct vsnl *c)
{
	ok(c, dr_queue_new("q1"));
	ok(c, dr_node_new("n1", 4000));
	ok(c, dr_pg_new("ns", "pg", "q1", 2));
	ok(c, dr_task_new("ns", "t0", "pg", 1000));
	ok(c, dr_task_new("ns", "t1", "pg", 1000));
}

struct task_state {
	u32 status;
	char node[VS_NAME_MAX];
	u32 bind_failures;
	char bind_error[256];
	unsigned int seen;
};

static int read_task(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct task_state *st = arg;
	struct vsnl_task_tb a;

	cr_assert_not_null(tb[VS_A_TASK]);
	cr_assert_eq(vsnl_task_parse(tb[VS_A_TASK], &a, VSNL_CODEC_REPLY, NULL), 0);
	cr_assert(vsnl_task_get_status(&a, &st->status));
	snprintf(st->node, sizeof(st->node), "%s", vsnl_task_get_node(&a) ?: "");
	st->bind_failures = 0;
	vsnl_task_get_bind_failures(&a, &st->bind_failures);
	snprintf(st->bind_error, sizeof(st->bind_error), "%s",
		 vsnl_task_get_bind_error(&a) ?: "");
	st->seen++;
	return 0;
}

static struct task_state task_state(struct vsnl *c, const char *ns, const char *name)
{
	struct task_state st = { 0 };
	struct vsnl_err err = { 0 };

	cr_assert_eq(vsnl_request(c, dr_task_key(VS_CMD_TASK_GET, ns, name), read_task, &st,
				  &err), 0, "%s", err.msg);
	cr_assert_eq(st.seen, 1);
	return st;
}

/* Wait for ns/t1 to run, as periodic cycles and the standalone binder make it: @why if not. */
static void wait_t1_running(struct vsnl *c, const char *why)
{
	int i;

	for (i = 0; i < DT_TIMEOUT_MS / 10; i++) {
		if (task_state(c, "ns", "t1").status == VS_TASK_STATUS_RUNNING)
			break;
		usleep(10000);
	}
	cr_assert_lt(i, DT_TIMEOUT_MS / 10, "%s", why);
}

static int read_cycle(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_cycle_tb a;

	cr_assert_not_null(tb[VS_A_CYCLE]);
	cr_assert_eq(vsnl_cycle_parse(tb[VS_A_CYCLE], &a, VSNL_CODEC_REPLY, NULL), 0);
	cr_assert(vsnl_cycle_get_binds(&a, arg));
	return 0;
}

/* One cycle on request: its number of binds. */
static u32 cycle_run(struct vsnl *c)
{
	struct vsnl_err err = { 0 };
	u32 binds = ~0u;

	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_CYCLE_RUN, 0), read_cycle, &binds, &err),
		     0, "%s", err.msg);
	cr_assert_neq(binds, ~0u, "no VS_A_CYCLE in the reply");
	return binds;
}

/* What VS_CMD_EXPLAIN says of a task: reason, message, and the steps a line each. */
struct explanation {
	char reason[64];
	char message[1024];
	char steps[4096];
};

static int read_explain(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct explanation *x = arg;
	struct nlattr *a;
	int rem;

	cr_assert_not_null(tb[VS_A_EXPLAIN]);
	nla_for_each_nested(a, tb[VS_A_EXPLAIN], rem) {
		const char *s = nla_get_string(a);

		if (nla_type(a) == VS_EXPLAIN_A_REASON)
			snprintf(x->reason, sizeof(x->reason), "%s", s);
		else if (nla_type(a) == VS_EXPLAIN_A_MESSAGE)
			snprintf(x->message, sizeof(x->message), "%s", s);
		else if (nla_type(a) == VS_EXPLAIN_A_STEP)
			snprintf(x->steps + strlen(x->steps), sizeof(x->steps) - strlen(x->steps),
				 "%s\n", s);
	}
	return 0;
}

static struct explanation explain_task(struct vsnl *c, const char *ns, const char *name)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_EXPLAIN, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_EXPLAIN);
	struct explanation x;
	struct vsnl_err err = { 0 };

	memset(&x, 0, sizeof(x));
	nla_put_string(m, VS_EXPLAIN_A_NAMESPACE, ns);
	nla_put_string(m, VS_EXPLAIN_A_TASK, name);
	nla_nest_end(m, n);
	cr_assert_eq(vsnl_request(c, m, read_explain, &x, &err), 0, "%s", err.msg);
	return x;
}

/* ---- objects ---- */

static int count_msgs(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	(*(unsigned int *)arg)++;
	return 0;
}

Test(vschedd, objects_made_through_the_socket_come_back_by_get_and_dump)
{
	struct vsnl *c;
	struct task_state st;
	unsigned int n = 0;

	start(NULL);
	c = conn();
	small_cluster(c);
	st = task_state(c, "ns", "t1");
	cr_assert_eq(st.status, VS_TASK_STATUS_PENDING);
	cr_assert_str_empty(st.node);
	cr_assert_eq(req(c, vsnl_msg_new(VS_CMD_TASK_GET, NLM_F_DUMP), count_msgs, &n, NULL), 0);
	cr_assert_eq(n, 2);
	n = 0;
	cr_assert_eq(req(c, vsnl_msg_new(VS_CMD_QUEUE_GET, NLM_F_DUMP), count_msgs, &n, NULL), 0);
	cr_assert_eq(n, 1);
	vsnl_close(c);
	cr_assert_eq(dt_stop(&t), 0);
}

Test(vschedd, a_bad_request_is_answered_with_the_reason_and_the_attribute)
{
	struct vsnl_err err = { 0 };
	struct nlattr *n, *taint;
	struct vsnl *c;
	struct nl_msg *m;

	start(NULL);
	c = conn();
	m = vsnl_msg_new(VS_CMD_NODE_NEW, 0);
	n = nla_nest_start(m, VS_A_NODE);
	nla_put_string(m, VS_NODE_A_NAME, "n1");
	taint = nla_nest_start(m, VS_NODE_A_TAINT);
	nla_put_string(m, VS_TAINT_A_KEY, "k");
	nla_put_u32(m, VS_TAINT_A_EFFECT, 7);
	nla_nest_end(m, taint);
	nla_nest_end(m, n);
	cr_assert_eq(vsnl_request(c, m, NULL, NULL, &err), -EINVAL);
	cr_assert(strstr(err.msg, "node.taints[0].effect (VS_TAINT_A_EFFECT): 7 is out of range"),
		  "message: %s", err.msg);
	cr_assert(err.has_offset);
	/* Refused, it changed nothing. */
	memset(&err, 0, sizeof(err));
	cr_assert_eq(req(c, dr_task_key(VS_CMD_TASK_GET, "ns", "nope"), NULL, NULL, &err), -ENOENT);
	cr_assert(strstr(err.msg, "ns/nope"), "message: %s", err.msg);
	vsnl_close(c);
}

/* ---- dumps ---- */

struct dump_seen {
	unsigned int datagrams, objects, done;
	int error;
	char last[32];
	bool in_order;
};

/* Read the answers to a dump of nodes sent with @seq, to its NLMSG_DONE. */
static void read_dump(int fd, u32 seq, struct dump_seen *s)
{
	static char rx[VS_MSG_MAX];

	s->in_order = true;
	while (!s->done) {
		ssize_t len = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
		struct nlmsghdr *nlh;
		int left = (int)len;

		cr_assert_gt(len, 0, "the dump stopped");
		s->datagrams++;
		for (nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			struct nlattr *a;

			cr_assert_eq(nlh->nlmsg_seq, seq);
			if (nlh->nlmsg_type == NLMSG_DONE) {
				s->error = *(int *)mnl_nlmsg_get_payload(nlh);
				s->done++;
				continue;
			}
			cr_assert_eq(nlh->nlmsg_type, VSCHED_GENL_ID);
			cr_assert(nlh->nlmsg_flags & NLM_F_MULTI);
			a = mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN);
			cr_assert_eq(mnl_attr_get_type(a), VS_A_NODE);
			a = mnl_attr_get_payload(a);
			cr_assert_eq(mnl_attr_get_type(a), VS_NODE_A_NAME);
			if (strcmp(s->last, mnl_attr_get_str(a)) >= 0)
				s->in_order = false;
			snprintf(s->last, sizeof(s->last), "%s", mnl_attr_get_str(a));
			s->objects++;
		}
	}
}

static void send_dump(int fd, u8 cmd, u32 seq)
{
	struct dt_dgram g;
	struct nlmsghdr *nlh;

	dt_dgram_init(&g, 4096);
	nlh = dt_msg(&g, cmd, NLM_F_DUMP, seq);
	dt_msg_end(&g, nlh);
	dt_send(fd, &g);
	free(g.buf);
}

Test(vschedd, a_dump_of_many_objects_comes_in_parts_and_in_order)
{
	struct dump_seen s = { 0 };
	int fd;

	start(NULL);
	fd = dt_connect(t.path);
	dt_make_nodes(fd, 3000);
	send_dump(fd, VS_CMD_NODE_GET, 7);
	read_dump(fd, 7, &s);
	cr_assert_eq(s.objects, 3000);
	cr_assert_eq(s.error, 0);
	cr_assert_eq(s.done, 1);
	cr_assert(s.in_order);
	cr_assert_geq(s.datagrams, 4, "%u datagrams", s.datagrams);
	cr_assert_str_eq(s.last, "node-02999");
	close(fd);
}

Test(vschedd, a_second_dump_while_one_is_under_way_is_busy_and_others_are_served)
{
	static char rx[VS_MSG_MAX];
	struct dump_seen s = { 0 };
	bool busy = false, stats = false;
	const char *msg;
	int fd;

	start(NULL);
	fd = dt_connect(t.path);
	/* Far more than the socket holds: the dump waits for the client to read. */
	dt_make_nodes(fd, 20000);
	send_dump(fd, VS_CMD_NODE_GET, 1);
	send_dump(fd, VS_CMD_QUEUE_GET, 2);
	send_dump(fd, VS_CMD_STATS_GET, 3);	/* not a dump: with NLM_F_DUMP it is refused */
	/* Read until the busy answer and the refusal came, counting the dump's objects meanwhile. */
	while (!busy || !stats || !s.done) {
		ssize_t len = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
		struct nlmsghdr *nlh;
		int left = (int)len;

		cr_assert_gt(len, 0);
		for (nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_seq == 2) {
				cr_assert_eq(nlh->nlmsg_type, NLMSG_ERROR);
				cr_assert_eq(dt_error(nlh, &msg), -EBUSY);
				cr_assert(strstr(msg, "a dump is under way"), "%s", msg);
				busy = true;
			} else if (nlh->nlmsg_seq == 3) {
				cr_assert_eq(nlh->nlmsg_type, NLMSG_ERROR);
				cr_assert_eq(dt_error(nlh, &msg), -EOPNOTSUPP, "%s", msg);
				stats = true;
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				s.done++;
			} else {
				cr_assert_eq(nlh->nlmsg_seq, 1);
				s.objects++;
			}
		}
	}
	cr_assert_eq(s.objects, 20000);
	/* Over, the dump lets the next one start. */
	memset(&s, 0, sizeof(s));
	send_dump(fd, VS_CMD_NODE_GET, 4);
	read_dump(fd, 4, &s);
	cr_assert_eq(s.objects, 20000);
	close(fd);
}

/* ---- the order of answers and notifications ---- */

Test(vschedd, a_cycle_run_among_requests_is_answered_in_order)
{
	static char rx[VS_MSG_MAX];
	struct dt_dgram g;
	struct nlmsghdr *nlh;
	u32 order[8], n = 0;
	struct nlattr *a;
	int fd;

	start(NULL);
	fd = dt_connect(t.path);
	dt_dgram_init(&g, 65536);
	nlh = dt_msg(&g, VS_CMD_SUBSCRIBE, NLM_F_ACK, 1);
	mnl_attr_put_u32(nlh, VS_A_MCGRP, VS_MCGRP_CYCLES);
	dt_msg_end(&g, nlh);
	nlh = dt_msg(&g, VS_CMD_NODE_NEW, NLM_F_ACK, 2);
	dt_put_node(nlh, "n1");
	dt_msg_end(&g, nlh);
	nlh = dt_msg(&g, VS_CMD_CYCLE_RUN, NLM_F_ACK, 3);
	dt_msg_end(&g, nlh);
	dt_send(fd, &g);
	free(g.buf);
	/* ack 1, ack 2, the cycle to the group (seq 0), the reply 3, ack 3. */
	while (n < 5) {
		ssize_t len = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
		int left = (int)len;

		cr_assert_gt(len, 0);
		for (nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			cr_assert_lt(n, 5);
			order[n++] = nlh->nlmsg_seq;
			if (nlh->nlmsg_seq == 0) {
				struct genlmsghdr *gh = mnl_nlmsg_get_payload(nlh);

				cr_assert_eq(gh->cmd, VS_CMD_CYCLE);
				cr_assert_eq(nlh->nlmsg_pid, 0);
				a = mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN);
				cr_assert_eq(mnl_attr_get_type(a), VS_A_CYCLE);
			}
		}
	}
	cr_assert_eq(order[0], 1);
	cr_assert_eq(order[1], 2);
	cr_assert_eq(order[2], 0);
	cr_assert_eq(order[3], 3);
	cr_assert_eq(order[4], 3);
	close(fd);
}

/* ---- cycles, binds, notifications ---- */

Test(vschedd, a_standalone_daemon_confirms_its_binds_and_tasks_run)
{
	struct task_state st;
	struct vsnl *c;

	start(NULL);
	c = conn();
	small_cluster(c);
	cr_assert_eq(cycle_run(c), 2);
	st = task_state(c, "ns", "t0");
	cr_assert_eq(st.status, VS_TASK_STATUS_RUNNING);
	cr_assert_str_eq(st.node, "n1");
	cr_assert_eq(task_state(c, "ns", "t1").status, VS_TASK_STATUS_RUNNING);
	/* Nothing is left to do. */
	cr_assert_eq(cycle_run(c), 0);
	vsnl_close(c);
}

struct decisions {
	u64 cycle;
	unsigned int binds;
	char names[4][16];
	char node[16];
	u64 cycles_seen[4];
	unsigned int nr_cycles;
};

static int read_notification(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct genlmsghdr *g = nlmsg_data(nlh);
	struct decisions *dec = arg;
	const struct vsnl_vsched_tb *top = vsnl_reply_tb(tb);
	struct vsnl_decision_tb da;
	struct vsnl_cycle_tb ca;
	const struct nlattr *a;
	u32 kind = 0;

	if (g->cmd == VS_CMD_CYCLE) {
		cr_assert_eq(vsnl_cycle_parse(tb[VS_A_CYCLE], &ca, VSNL_CODEC_REPLY, NULL), 0);
		cr_assert_lt(dec->nr_cycles, 4);
		cr_assert(vsnl_cycle_get_id(&ca, &dec->cycles_seen[dec->nr_cycles++]));
		return 0;
	}
	cr_assert_eq(g->cmd, VS_CMD_DECISIONS);
	cr_assert(vsnl_vsched_get_cycle_id(top, &dec->cycle));
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) != VS_A_DECISION)
			continue;
		cr_assert_eq(vsnl_decision_parse(a, &da, VSNL_CODEC_REPLY, NULL), 0);
		cr_assert(vsnl_decision_get_kind(&da, &kind));
		cr_assert_eq(kind, VS_DECISION_BIND);
		cr_assert_str_eq(vsnl_decision_get_namespace(&da), "ns");
		cr_assert_lt(dec->binds, 4);
		snprintf(dec->names[dec->binds++], sizeof(dec->names[0]), "%s",
			 vsnl_decision_get_name(&da));
		snprintf(dec->node, sizeof(dec->node), "%s", vsnl_decision_get_node(&da));
	}
	return 0;
}

static struct nl_msg *bind_result(const char *name, const char *node, s32 error)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_BIND_RESULT, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_BIND_RESULT);

	nla_put_string(m, VS_BIND_A_NAMESPACE, "ns");
	nla_put_string(m, VS_BIND_A_NAME, name);
	nla_put_string(m, VS_BIND_A_NODE, node);
	nla_put_u32(m, VS_BIND_A_ERROR, (u32)error);
	if (error)
		nla_put_string(m, VS_BIND_A_MESSAGE, "node went away");
	nla_nest_end(m, n);
	return m;
}

Test(vschedd, a_decisions_subscriber_gets_the_binds_and_answers_them)
{
	struct vschedd_opts o = { .verbosity = 1 };	/* to see the binder go */
	struct decisions dec = { 0 };
	struct task_state st;
	struct vsnl_err err = { 0 };
	struct vsnl *c, *binder;
	int got = 0;

	start(&o);
	c = conn();
	binder = conn();
	small_cluster(c);
	cr_assert_eq(vsnl_subscribe(binder, VS_MCGRP_DECISIONS, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_subscribe(binder, VS_MCGRP_CYCLES, &err), 0, "%s", err.msg);
	cr_assert_eq(cycle_run(c), 2);
	while (dec.nr_cycles < 1) {
		int n = vsnl_recv_notifications(binder, DT_TIMEOUT_MS, read_notification, &dec,
						&err);

		cr_assert_gt(n, 0, "%d: %s", n, err.msg);
		got += n;
	}
	cr_assert_eq(got, 2, "one VS_CMD_DECISIONS and one VS_CMD_CYCLE");
	cr_assert_eq(dec.cycle, 1);
	cr_assert_eq(dec.cycles_seen[0], 1);
	cr_assert_eq(dec.binds, 2);
	cr_assert_str_eq(dec.names[0], "t0");
	cr_assert_str_eq(dec.names[1], "t1");
	cr_assert_str_eq(dec.node, "n1");
	/* With a binder subscribed, the binds wait for it. */
	cr_assert_eq(task_state(c, "ns", "t0").status, VS_TASK_STATUS_BINDING);
	ok(binder, bind_result("t0", "n1", 0));
	cr_assert_eq(task_state(c, "ns", "t0").status, VS_TASK_STATUS_BOUND);
	ok(binder, bind_result("t1", "n1", -EIO));
	st = task_state(c, "ns", "t1");
	cr_assert_eq(st.status, VS_TASK_STATUS_PENDING);
	cr_assert_eq(st.bind_failures, 1);
	cr_assert_str_eq(st.bind_error, "binding to node n1 failed: node went away (error -5)");
	/* The binder gone, the daemon binds for itself again, once t1's backoff (1 s) is over. */
	vsnl_close(binder);
	/* Its going and the next request come on two sockets: in either order. */
	cr_assert(dt_log_wait(&t, ") gone"), "the daemon did not see the binder go");
	usleep(1100 * 1000);
	cr_assert_eq(cycle_run(c), 1);
	cr_assert_eq(task_state(c, "ns", "t1").status, VS_TASK_STATUS_RUNNING);
	vsnl_close(c);
}

struct status_seen {
	char lines[8][160];
	unsigned int nr;
	bool cycle;
};

/* The status group's messages as lines, until the cycle's VS_CMD_CYCLE. */
static int read_status(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct genlmsghdr *g = nlmsg_data(nlh);
	struct status_seen *s = arg;
	struct vsnl_podgroup_tb pg;
	struct vsnl_queue_tb q;
	struct vsnl_task_tb task;
	u32 kind = 0, phase = 0;

	if (g->cmd == VS_CMD_CYCLE) {
		s->cycle = true;
		return 0;
	}
	cr_assert_eq(g->cmd, VS_CMD_STATUS);
	cr_assert_lt(s->nr, 8);
	if (tb[VS_A_TASK]) {
		cr_assert(vsnl_vsched_get_event_kind(vsnl_reply_tb(tb), &kind));
		cr_assert_eq(kind, VS_EVENT_UNSCHEDULABLE);
		cr_assert_eq(vsnl_task_parse(tb[VS_A_TASK], &task, VSNL_CODEC_REPLY, NULL), 0);
		snprintf(s->lines[s->nr++], sizeof(s->lines[0]), "pod %s %s",
			 vsnl_task_get_name(&task), vsnl_task_get_sched_reason(&task));
	} else if (tb[VS_A_PODGROUP]) {
		cr_assert_eq(vsnl_podgroup_parse(tb[VS_A_PODGROUP], &pg, VSNL_CODEC_REPLY, NULL), 0);
		cr_assert(vsnl_podgroup_get_phase(&pg, &phase));
		snprintf(s->lines[s->nr++], sizeof(s->lines[0]), "podgroup %s phase %u",
			 vsnl_podgroup_get_name(&pg), phase);
	} else {
		cr_assert_not_null(tb[VS_A_QUEUE]);
		cr_assert_eq(vsnl_queue_parse(tb[VS_A_QUEUE], &q, VSNL_CODEC_REPLY, NULL), 0);
		snprintf(s->lines[s->nr++], sizeof(s->lines[0]), "queue %s",
			 vsnl_queue_get_name(&q));
	}
	return 0;
}

Test(vschedd, a_status_subscriber_hears_what_a_cycle_writes_back)
{
	struct status_seen s = { 0 };
	struct vsnl_err err = { 0 };
	struct vsnl *c, *bridge;

	start(NULL);
	c = conn();
	bridge = conn();
	small_cluster(c);
	ok(c, dr_task_new("ns", "big", "pg", 8000));
	cr_assert_eq(vsnl_subscribe(bridge, VS_MCGRP_STATUS, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_subscribe(bridge, VS_MCGRP_CYCLES, &err), 0, "%s", err.msg);
	cr_assert_eq(cycle_run(c), 2);
	while (!s.cycle)
		cr_assert_gt(vsnl_recv_notifications(bridge, DT_TIMEOUT_MS, read_status, &s, &err),
			     0, "%s", err.msg);
	cr_assert_eq(s.nr, 3);
	cr_assert_str_eq(s.lines[0], "podgroup pg phase 3");	/* Inqueue */
	cr_assert_str_eq(s.lines[1], "pod big Unschedulable");
	cr_assert_str_eq(s.lines[2], "queue q1");
	vsnl_close(bridge);
	vsnl_close(c);
}

Test(vschedd, an_external_binder_leaves_binds_to_bind_results)
{
	struct vschedd_opts o = { .binder = VSCHEDD_BINDER_EXTERNAL };
	struct vsnl *c;

	start(&o);
	c = conn();
	small_cluster(c);
	cr_assert_eq(cycle_run(c), 2);
	cr_assert_eq(task_state(c, "ns", "t0").status, VS_TASK_STATUS_BINDING);
	vsnl_close(c);
}

static const char conf_preempt[] =
	"actions: \"enqueue, allocate, preempt\"\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: priority\n"
	"  - name: gang\n"
	"  - name: conformance\n"
	"- plugins:\n"
	"  - name: drf\n"
	"  - name: predicates\n"
	"  - name: proportion\n"
	"  - name: nodeorder\n";

/* A one-cpu task of priority @prio in PodGroup @pg, Running on @node if not NULL. */
static struct nl_msg *task_prio(const char *name, const char *pg, s32 prio, const char *node)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_TASK_NEW, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_TASK);

	nla_put_string(m, VS_TASK_A_NAMESPACE, "ns");
	nla_put_string(m, VS_TASK_A_NAME, name);
	nla_put_string(m, VS_TASK_A_PODGROUP, pg);
	dr_put_res(m, VS_TASK_A_REQUEST, 1000, 1ULL << 30, 0);
	nla_put_s32(m, VS_TASK_A_PRIORITY, prio);
	if (node) {
		nla_put_string(m, VS_TASK_A_NODE, node);
		nla_put_u32(m, VS_TASK_A_STATUS, VS_TASK_STATUS_RUNNING);
	}
	nla_nest_end(m, n);
	return m;
}

/*
 * The preempt configuration, and a node of 2 cpus full with two tasks of
 * PodGroup ns/low (priority 1), and ns/h0 of PodGroup ns/high (priority
 * 100) pending.
 */
static void preempt_cluster(struct vsnl *c)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_CONF_SET, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_CONF);

	nla_put_string(m, VS_CONF_A_TEXT, conf_preempt);
	nla_nest_end(m, n);
	ok(c, m);
	ok(c, dr_queue_new("q1"));
	ok(c, dr_node_new("n1", 2000));
	ok(c, dr_pg_new("ns", "low", "q1", 1));
	ok(c, task_prio("l0", "low", 1, "n1"));
	ok(c, task_prio("l1", "low", 1, "n1"));
	ok(c, dr_pg_new("ns", "high", "q1", 1));
	ok(c, task_prio("h0", "high", 100, NULL));
}

static int task_gone(struct vsnl *c, const char *name)
{
	struct vsnl_err err = { 0 };

	return vsnl_request(c, dr_task_key(VS_CMD_TASK_GET, "ns", name), NULL, NULL,
			    &err) == -ENOENT;
}

Test(vschedd, a_standalone_daemon_carries_out_its_evictions)
{
	struct vsnl *c;

	start(NULL);
	c = conn();
	preempt_cluster(c);
	/*
	 * The node is full: preempt evicts a low task and pipelines h0 where it
	 * ran; pipelining lives as long as the session (as in Volcano's cache,
	 * which never records it), so h0 is Pending after the cycle.
	 */
	cr_assert_eq(cycle_run(c), 0);
	cr_assert_eq(task_state(c, "ns", "h0").status, VS_TASK_STATUS_PENDING);
	/* Standalone, the daemon stopped the victim's pod itself: it is gone. */
	cr_assert_eq(task_gone(c, "l0") + task_gone(c, "l1"), 1, "one victim, deleted");
	cr_assert_eq(cycle_run(c), 1);
	cr_assert_eq(task_state(c, "ns", "h0").status, VS_TASK_STATUS_RUNNING);
	vsnl_close(c);
}

/* Every decision of one cycle, as "kind ns/name node" lines. */
struct decision_lines {
	char text[1024];
	size_t len;
	bool cycle_end;
};

static int read_decision_lines(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	static const char *const kinds[] = { "bind", "evict", "pipeline" };
	const struct genlmsghdr *g = nlmsg_data(nlh);
	struct decision_lines *dl = arg;
	struct vsnl_decision_tb da;
	const struct nlattr *a;

	if (g->cmd == VS_CMD_CYCLE) {
		dl->cycle_end = true;
		return 0;
	}
	cr_assert_eq(g->cmd, VS_CMD_DECISIONS);
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		u32 kind = 0;

		if (mnl_attr_get_type(a) != VS_A_DECISION)
			continue;
		cr_assert_eq(vsnl_decision_parse(a, &da, VSNL_CODEC_REPLY, NULL), 0);
		cr_assert(vsnl_decision_get_kind(&da, &kind));
		cr_assert_lt(kind, ARRAY_SIZE(kinds));
		dl->len += (size_t)snprintf(dl->text + dl->len, sizeof(dl->text) - dl->len,
					    "%s %s/%s %s\n", kinds[kind],
					    vsnl_decision_get_namespace(&da),
					    vsnl_decision_get_name(&da),
					    vsnl_decision_get_node(&da));
	}
	return 0;
}

/* Run a cycle and read what the binder @binder hears of it. */
static void cycle_decisions(struct vsnl *c, struct vsnl *binder, struct decision_lines *dl)
{
	struct vsnl_err err = { 0 };

	memset(dl, 0, sizeof(*dl));
	cycle_run(c);
	while (!dl->cycle_end)
		cr_assert_gt(vsnl_recv_notifications(binder, DT_TIMEOUT_MS, read_decision_lines,
						     dl, &err), 0, "%s", err.msg);
}

Test(vschedd, a_preemptor_is_pipelined_until_an_external_binder_reports_its_victim_gone)
{
	struct vschedd_opts o = { .binder = VSCHEDD_BINDER_EXTERNAL };
	struct vsnl_err err = { 0 };
	struct decision_lines dl;
	struct task_state st;
	struct vsnl *c, *binder;
	struct nlattr *n;
	struct nl_msg *m;
	const char *victim;

	start(&o);
	c = conn();
	binder = conn();
	preempt_cluster(c);
	cr_assert_eq(vsnl_subscribe(binder, VS_MCGRP_DECISIONS, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_subscribe(binder, VS_MCGRP_CYCLES, &err), 0, "%s", err.msg);

	/* One victim, and the preemptor waits on its node: the binder hears both. */
	cycle_decisions(c, binder, &dl);
	cr_assert(!strcmp(dl.text, "evict ns/l0 n1\npipeline ns/h0 n1\n") ||
		  !strcmp(dl.text, "evict ns/l1 n1\npipeline ns/h0 n1\n"), "%s", dl.text);
	victim = strstr(dl.text, "l0") ? "l0" : "l1";
	cr_assert_eq(task_state(c, "ns", victim).status, VS_TASK_STATUS_RELEASING);
	cr_assert_eq(task_state(c, "ns", "h0").status, VS_TASK_STATUS_PENDING,
		     "the pipeline ended with its session");
	/* vsctl explain: pipelined, and for which eviction it waits */
	{
		struct explanation x = explain_task(c, "ns", "h0");
		char line[128];

		cr_assert_str_eq(x.reason, "Pipelined", "%s\n%s", x.message, x.steps);
		cr_assert_str_eq(x.message, "pipelined onto n1: it waits for resources being "
				 "released there");
		snprintf(line, sizeof(line), "Waiting for ns/%s to be released on n1\n", victim);
		cr_assert_not_null(strstr(x.steps, line), "%s", x.steps);
	}

	/* The victim still holds its cpu: pipelined again, nothing evicted twice. */
	cycle_decisions(c, binder, &dl);
	cr_assert_str_eq(dl.text, "pipeline ns/h0 n1\n");

	/* Reported gone, its room goes to the preemptor. */
	m = vsnl_msg_new(VS_CMD_TASK_STATUS, 0);
	n = nla_nest_start(m, VS_A_TASK);
	nla_put_string(m, VS_TASK_A_NAMESPACE, "ns");
	nla_put_string(m, VS_TASK_A_NAME, victim);
	nla_put_u32(m, VS_TASK_A_EVENT, VS_TASK_EVENT_DELETED);
	nla_nest_end(m, n);
	ok(binder, m);
	cycle_decisions(c, binder, &dl);
	cr_assert_str_eq(dl.text, "bind ns/h0 n1\n");
	ok(binder, bind_result("h0", "n1", 0));
	st = task_state(c, "ns", "h0");
	cr_assert_eq(st.status, VS_TASK_STATUS_BOUND);
	cr_assert_str_eq(st.node, "n1");
	vsnl_close(binder);
	vsnl_close(c);
}

Test(vschedd, a_bind_without_a_result_in_time_fails_and_is_retried)
{
	struct vschedd_opts o = { .binder = VSCHEDD_BINDER_EXTERNAL, .bind_timeout_ms = 100 };
	struct task_state st;
	struct vsnl *c;
	int i;

	start(&o);
	c = conn();
	small_cluster(c);
	cr_assert_eq(cycle_run(c), 2);
	/* One result comes, the other never does. */
	ok(c, bind_result("t0", "n1", 0));
	for (i = 0; i < DT_TIMEOUT_MS / 10; i++) {
		st = task_state(c, "ns", "t1");
		if (st.status != VS_TASK_STATUS_BINDING)
			break;
		usleep(10000);
	}
	cr_assert_eq(st.status, VS_TASK_STATUS_PENDING, "t1 is still %u", st.status);
	cr_assert_str_empty(st.node, "its node got its resources back");
	cr_assert_eq(st.bind_failures, 1);
	cr_assert_str_eq(st.bind_error, "binding to node n1 failed: no bind result within "
			 "100 ms (error -110)");
	/* vsctl explain: why it waits, and when it is tried again */
	{
		struct explanation x = explain_task(c, "ns", "t1");

		cr_assert_str_eq(x.reason, "BindBackoff", "%s\n%s", x.message, x.steps);
		static const char want[] = "its bind failed (binding to node n1 failed: no bind "
					   "result within 100 ms (error -110)); it is tried again in ";

		cr_assert(!strncmp(x.message, want, sizeof(want) - 1), "%s", x.message);
		cr_assert_not_null(strstr(x.steps, "Bind: failed 1 time(s) in a row, the last: "
					  "binding to node n1 failed"), "%s", x.steps);
	}
	st = task_state(c, "ns", "t0");
	cr_assert_eq(st.status, VS_TASK_STATUS_BOUND, "the bind that was answered stands");
	cr_assert_eq(st.bind_failures, 0);
	/* Retried after its backoff, and bound again: the gang holds with t0. */
	usleep(1100 * 1000);
	cr_assert_eq(cycle_run(c), 1);
	cr_assert_eq(task_state(c, "ns", "t1").status, VS_TASK_STATUS_BINDING);
	vsnl_close(c);
}

Test(vschedd, periodic_cycles_schedule_without_a_request)
{
	struct vschedd_opts o = { .period_ms = 20 };
	struct vsnl *c;

	start(&o);
	c = conn();
	small_cluster(c);
	wait_t1_running(c, "no periodic cycle scheduled the tasks");
	vsnl_close(c);
}

Test(vschedd, a_connection_that_holds_cycles_keeps_periodic_cycles_off_until_it_goes)
{
	struct vschedd_opts o = { .period_ms = 20 };
	struct vsnl_err err = { 0 };
	struct vsnl *holder, *c;

	start(&o);
	holder = conn();
	c = conn();
	cr_assert_eq(vsnl_set_hold(holder, true, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_set_hold(holder, true, &err), 0, "said again: nothing changes");
	small_cluster(c);
	/* Many periods pass: none schedules while the hold stands. */
	usleep(300 * 1000);
	cr_assert_eq(task_state(c, "ns", "t1").status, VS_TASK_STATUS_PENDING);
	/* The holder goes without letting go: its hold goes with it. */
	vsnl_close(holder);
	wait_t1_running(c, "no periodic cycle after the hold went");
	vsnl_close(c);
}

Test(vschedd, a_hold_lets_go_on_request_and_cycles_on_request_still_run)
{
	struct vschedd_opts o = { .period_ms = 20 };
	struct vsnl_err err = { 0 };
	struct vsnl *c;

	start(&o);
	c = conn();
	cr_assert_eq(vsnl_set_hold(c, true, &err), 0, "%s", err.msg);
	small_cluster(c);
	usleep(100 * 1000);
	cr_assert_eq(task_state(c, "ns", "t1").status, VS_TASK_STATUS_PENDING);
	cr_assert_eq(cycle_run(c), 2, "a cycle asked for runs, held or not");
	cr_assert_eq(vsnl_set_hold(c, false, &err), 0, "%s", err.msg);
	wait_t1_running(c, "no periodic cycle after the hold was let go");
	vsnl_close(c);
}

Test(vschedd, a_batch_through_the_daemon_is_applied_whole)
{
	struct vsnl *c;
	unsigned int n = 0;

	start(NULL);
	c = conn();
	ok(c, vsnl_msg_new(VS_CMD_BATCH_BEGIN, 0));
	ok(c, dr_node_new("b1", 1000));
	ok(c, dr_node_new("b2", 1000));
	ok(c, vsnl_msg_new(VS_CMD_BATCH_END, 0));
	cr_assert_eq(req(c, vsnl_msg_new(VS_CMD_NODE_GET, NLM_F_DUMP), count_msgs, &n, NULL), 0);
	cr_assert_eq(n, 2);
	vsnl_close(c);
}

Test(vschedd, requests_sent_before_the_client_went_are_still_applied)
{
	struct dt_dgram g;
	struct nlmsghdr *nlh;
	unsigned int n = 0;
	char name[24];
	struct vsnl *c;
	int fd;

	start(NULL);
	fd = dt_connect(t.path);
	dt_dgram_init(&g, 1 << 16);
	for (int i = 0; i < 50; i++) {
		snprintf(name, sizeof(name), "gone-%02d", i);
		nlh = dt_msg(&g, VS_CMD_NODE_NEW, NLM_F_ACK, (u32)i + 1);
		dt_put_node(nlh, name);
		dt_msg_end(&g, nlh);
	}
	dt_send(fd, &g);
	free(g.buf);
	close(fd);	/* without reading a single ack */
	c = conn();
	cr_assert_eq(req(c, vsnl_msg_new(VS_CMD_NODE_GET, NLM_F_DUMP), count_msgs, &n, NULL), 0);
	cr_assert_eq(n, 50);
	vsnl_close(c);
}

/*
 * A batch of @nodes NEWs in datagrams (BEGIN acked, the rest silent), the
 * client gone without reading the BEGIN's ack, its last datagram still
 * queued at the daemon when it closes: the peer's close leaves ECONNRESET
 * pending on the daemon's end. With @end the batch is terminated. The
 * daemon is left to read everything (its log says the client went).
 */
static void batch_then_close_unread(unsigned int nodes, bool end)
{
	struct pollfd pfd;
	struct dt_dgram g;
	int fd;

	fd = dt_connect(t.path);
	dt_dgram_init(&g, 128 << 10);
	dt_msg_end(&g, dt_msg(&g, VS_CMD_BATCH_BEGIN, NLM_F_ACK, 1));
	dt_send(fd, &g);
	/* Its ack waits in our receive queue, unread. */
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	cr_assert_eq(poll(&pfd, 1, DT_TIMEOUT_MS), 1);
	dt_put_nodes(fd, &g, "unread", nodes, 2);
	/*
	 * The last datagram is still queued at the daemon when the client
	 * goes: the daemon has read the others (nothing of ours is left
	 * in flight), then it is stopped until the client is gone.
	 */
	for (int i = 0, q = 1; q; i++) {
		cr_assert_eq(ioctl(fd, SIOCOUTQ, &q), 0);
		cr_assert_lt(i, DT_TIMEOUT_MS, "the daemon does not read");
		if (q)
			usleep(1000);
	}
	kill(t.pid, SIGSTOP);
	if (end)
		dt_msg_end(&g, dt_msg(&g, VS_CMD_BATCH_END, 0, nodes + 2));
	dt_send(fd, &g);
	free(g.buf);
	close(fd);
	kill(t.pid, SIGCONT);
	cr_assert(dt_log_wait(&t, "client 1 (pid"), "the daemon did not see the client");
	cr_assert(dt_log_wait(&t, ") gone"), "the daemon did not see the client go");
}

/* The nodes a dump lists, on a connection of its own. */
static unsigned int nodes_now(void)
{
	struct vsnl *c = conn();
	unsigned int n = 0;

	cr_assert_eq(req(c, vsnl_msg_new(VS_CMD_NODE_GET, NLM_F_DUMP), count_msgs, &n, NULL), 0);
	vsnl_close(c);
	return n;
}

Test(vschedd, an_empty_datagram_is_ignored_and_the_connection_goes_on)
{
	static char rx[VSCHEDD_REPLY_MAX];
	struct nlmsghdr *nlh;
	struct dt_dgram g;
	const char *msg;
	ssize_t len;
	int fd;

	start(NULL);
	fd = dt_connect(t.path);
	cr_assert_eq(send(fd, "", 0, 0), 0);
	dt_dgram_init(&g, 4096);
	nlh = dt_msg(&g, VS_CMD_NODE_NEW, NLM_F_ACK, 7);
	dt_put_node(nlh, "after-empty");
	dt_msg_end(&g, nlh);
	dt_send(fd, &g);
	free(g.buf);
	len = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
	cr_assert_gt(len, 0, "the connection was closed after an empty datagram");
	nlh = (struct nlmsghdr *)rx;
	cr_assert_eq(nlh->nlmsg_type, NLMSG_ERROR);
	cr_assert_eq(nlh->nlmsg_seq, 7);
	cr_assert_eq(dt_error(nlh, &msg), 0, "NODE_NEW after an empty datagram: %s", msg);
	close(fd);
	cr_assert_eq(nodes_now(), 1);
}

Test(vschedd, a_batch_sent_whole_is_applied_though_the_client_left_a_reply_unread)
{
	struct vschedd_opts o = { .verbosity = 1 };
	unsigned int n;
	char *log;

	start(&o);
	batch_then_close_unread(10000, true);
	n = nodes_now();
	cr_assert_eq(n, 10000, "%u of the batch's 10000 nodes were applied", n);
	log = dt_log(&t);
	cr_assert(strstr(log, "Connection reset by peer: its answers are discarded"), "%s", log);
	free(log);
	cr_assert_eq(dt_stop(&t), 0);
}

Test(vschedd, a_batch_without_its_end_is_dropped_when_the_client_leaves_a_reply_unread)
{
	struct vschedd_opts o = { .verbosity = 1 };
	unsigned int n;

	start(&o);
	batch_then_close_unread(1000, false);
	n = nodes_now();
	cr_assert_eq(n, 0, "%u nodes of a batch never ended were applied", n);
	cr_assert_eq(dt_stop(&t), 0);
}

/* ---- permissions ---- */

/* What a client with other credentials could do. */
enum user_result {
	USER_CHANGED = 0x1,		/* NODE_NEW passed the permission check */
	USER_REFUSED = 0x2,		/* EPERM, in the daemon's words */
	USER_READ = 0x4,		/* its dump was answered */
};

/* In a child with the credentials given: NODE_NEW, then a dump of nodes. */
static int as_user(gid_t gid, const gid_t *groups, int nr, uid_t uid)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		struct vsnl_err err = { 0 };
		unsigned int n = 0;
		struct vsnl *c;
		int ret, res = 0;

		if (setgroups((size_t)nr, groups) || setgid(gid) || setuid(uid))
			_exit(0x80);
		c = vsnl_open(t.path, &err);
		if (!c)
			_exit(0x40);
		ret = vsnl_request(c, dr_node_new("by-user", 1000), NULL, NULL, &err);
		/* Made, or found made by an admin before: either way it was let through. */
		if (!ret || ret == -EEXIST)
			res |= USER_CHANGED;
		if (ret == -EPERM && strstr(err.msg, "VS_CMD_NODE_NEW needs the admin permission"))
			res |= USER_REFUSED;
		if (!vsnl_request(c, vsnl_msg_new(VS_CMD_NODE_GET, NLM_F_DUMP), count_msgs, &n,
				  &err))
			res |= USER_READ;
		vsnl_close(c);
		_exit(res);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

Test(vschedd, a_client_without_the_admin_permission_reads_but_does_not_change)
{
	if (geteuid())
		cr_skip_test("needs root to take another user's credentials");
	start(NULL);
	/* Let everybody connect: the permission is the daemon's to refuse. */
	cr_assert_eq(chmod(t.path, 0666), 0);
	cr_assert_eq(as_user(65534, NULL, 0, 65534), USER_REFUSED | USER_READ);
}

Test(vschedd, the_admin_group_grants_the_admin_permission)
{
	struct vschedd_opts o = { .have_admin_group = true, .admin_gid = 4242 };
	const gid_t admin[] = { 4242 };
	struct stat st;

	if (geteuid())
		cr_skip_test("needs root to take another user's credentials");
	start(&o);
	/* The socket is the admin group's: its members can connect. */
	cr_assert_eq(stat(t.path, &st), 0);
	cr_assert_eq(st.st_gid, 4242);
	cr_assert_eq(st.st_mode & 0777, 0660);
	cr_assert_eq(as_user(65534, admin, 1, 65534), USER_CHANGED | USER_READ,
		     "a supplementary group");
	cr_assert_eq(as_user(4242, NULL, 0, 65534), USER_CHANGED | USER_READ, "its group");
	cr_assert_eq(chmod(t.path, 0666), 0);
	cr_assert_eq(as_user(65534, NULL, 0, 65534), USER_REFUSED | USER_READ, "no group");
}

/*
 * A connection whose peer is @uid:@gid: SO_PEERCRED tells the effective
 * ids at connect time, so the test takes them for the connect alone and
 * keeps the connection, deaf if it likes, beside its own.
 */
static struct vsnl *conn_as(uid_t uid, gid_t gid)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c;

	cr_assert_eq(setegid(gid), 0);
	cr_assert_eq(seteuid(uid), 0);
	c = vsnl_open(t.path, &err);
	cr_assert_eq(seteuid(0), 0);
	cr_assert_eq(setegid(0), 0);
	cr_assert_not_null(c, "%s", err.msg);
	return c;
}

Test(vschedd, a_reader_may_size_its_queue_but_not_hold_periodic_cycles)
{
	struct vschedd_opts o = { .period_ms = 20 };
	struct vsnl_err err = { 0 };
	struct vsnl *reader, *c;

	if (geteuid())
		cr_skip_test("needs root to take another user's credentials");
	start(&o);
	cr_assert_eq(chmod(t.path, 0666), 0);
	reader = conn_as(65534, 65534);
	cr_assert_eq(vsnl_set_rcvbuf(reader, VS_CONN_RCVBUF_MIN, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_set_hold(reader, true, &err), -EPERM);
	cr_assert_str_eq(err.msg, "conn.hold (VS_CONN_A_HOLD): holding periodic cycles needs "
			 "the admin permission (root or the admin group)");
	cr_assert(err.has_offset, "the refusal points at VS_CONN_A_HOLD");
	/* The periodic cycles go on for everybody. */
	c = conn();
	small_cluster(c);
	wait_t1_running(c, "no periodic cycle while a reader asked to hold");
	vsnl_close(reader);
	vsnl_close(c);
}

Test(vschedd, a_readers_deaf_decisions_subscription_leaves_the_binds_to_the_daemon)
{
	struct decisions dec = { 0 };
	struct vsnl_err err = { 0 };
	struct vsnl *reader, *binder, *c;

	if (geteuid())
		cr_skip_test("needs root to take another user's credentials");
	start(NULL);
	cr_assert_eq(chmod(t.path, 0666), 0);
	reader = conn_as(65534, 65534);
	cr_assert_eq(vsnl_subscribe(reader, VS_MCGRP_DECISIONS, &err), 0, "%s", err.msg);
	c = conn();
	small_cluster(c);
	/* The reader reads nothing: the daemon confirms its binds all the same. */
	cr_assert_eq(cycle_run(c), 2);
	cr_assert_eq(task_state(c, "ns", "t0").status, VS_TASK_STATUS_RUNNING);
	cr_assert_eq(task_state(c, "ns", "t1").status, VS_TASK_STATUS_RUNNING);
	/* What it listened to was told all the same. */
	cr_assert_gt(vsnl_recv_notifications(reader, DT_TIMEOUT_MS, read_notification, &dec,
					     &err), 0, "%s", err.msg);
	cr_assert_eq(dec.binds, 2);
	/* An admin's subscription still makes it the binder: the next bind waits for it. */
	binder = conn();
	cr_assert_eq(vsnl_subscribe(binder, VS_MCGRP_DECISIONS, &err), 0, "%s", err.msg);
	ok(c, dr_task_new("ns", "t2", "pg", 1000));
	cr_assert_eq(cycle_run(c), 1);
	cr_assert_eq(task_state(c, "ns", "t2").status, VS_TASK_STATUS_BINDING);
	vsnl_close(binder);
	vsnl_close(reader);
	vsnl_close(c);
}

/* ---- signals and the socket file ---- */

static const char conf_a[] =
	"actions: \"enqueue, allocate\"\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: priority\n"
	"  - name: gang\n";

static const char conf_bad[] =
	"actions: \"enqueue, allocate\"\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: binpak\n";

static const char conf_b[] =
	"actions: \"allocate\"\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: binpack\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	cr_assert_not_null(f);
	cr_assert_geq(fputs(text, f), 0);
	fclose(f);
}

static int read_conf(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_conf_tb a;

	cr_assert_eq(vsnl_conf_parse(tb[VS_A_CONF], &a, VSNL_CODEC_REPLY, NULL), 0);
	cr_assert_not_null(vsnl_conf_get_text(&a));
	snprintf(arg, 4096, "%s", vsnl_conf_get_text(&a));
	return 0;
}

static void conf_text(struct vsnl *c, char *buf)
{
	struct vsnl_err err = { 0 };

	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_CONF_GET, 0), read_conf, buf, &err), 0,
		     "%s", err.msg);
}

/* A daemon started with --conf @path (of the test's directory) holding conf_a; a client. */
static struct vsnl *start_with_conf(struct vschedd_opts *o, char *path, size_t cap)
{
	dt_paths(&t);
	snprintf(path, cap, "%s/volcano-scheduler.conf", t.dir);
	write_file(path, conf_a);
	o->conf_path = path;
	start(o);
	return conn();
}

Test(vschedd, sighup_reads_the_file_again_and_keeps_the_old_one_on_error)
{
	struct vschedd_opts o = { 0 };
	char path[128], text[4096];
	struct vsnl *c;
	int i;

	c = start_with_conf(&o, path, sizeof(path));
	conf_text(c, text);
	cr_assert_str_eq(text, conf_a);

	write_file(path, conf_bad);
	kill(t.pid, SIGHUP);
	cr_assert(dt_log_wait(&t, "the configuration in force stays"));
	cr_assert(dt_log_wait(&t, "volcano-scheduler.conf:4:"), "no file:line in the log");
	cr_assert(dt_log_wait(&t, "binpak"));
	conf_text(c, text);
	cr_assert_str_eq(text, conf_a);

	write_file(path, conf_b);
	kill(t.pid, SIGHUP);
	for (i = 0; i < DT_TIMEOUT_MS / 10; i++) {
		conf_text(c, text);
		if (!strcmp(text, conf_b))
			break;
		usleep(10000);
	}
	cr_assert_str_eq(text, conf_b);
	vsnl_close(c);
}

/*
 * A FIFO at the configuration's path is refused at once, never waited on:
 * on SIGHUP the configuration in force stays and the daemon goes on
 * serving; at start the daemon does not start, saying why.
 */
Test(vschedd, a_fifo_at_the_configuration_path_is_refused_at_once)
{
	struct vschedd_opts o = { 0 };
	char path[128], text[4096];
	long long t0;
	pid_t writer;
	struct vsnl *c;

	c = start_with_conf(&o, path, sizeof(path));
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(mkfifo(path, 0600), 0);
	writer = dt_fifo_writer_after(path, 10000);
	t0 = dt_now_ms();
	kill(t.pid, SIGHUP);
	cr_assert(dt_log_wait(&t, "a FIFO, not a regular file; the configuration in force stays"));
	conf_text(c, text);
	cr_assert_lt(dt_now_ms() - t0, 5000, "refused at once, not when a writer came");
	dt_reap(writer);
	cr_assert_str_eq(text, conf_a, "the configuration in force stays");
	vsnl_close(c);
	cr_assert_eq(dt_stop(&t), 0);

	writer = dt_fifo_writer_after(path, 10000);
	t0 = dt_now_ms();
	cr_assert_neq(dt_try_start(&t, &o), 0, "a FIFO is no configuration to start with");
	cr_assert_lt(dt_now_ms() - t0, 5000, "refused at once, not when a writer came");
	dt_reap(writer);
	cr_assert(strstr(t.error, path) && strstr(t.error, "a FIFO, not a regular file"), "%s",
		  t.error);
}

Test(vschedd, sigusr1_logs_the_state_and_sigusr2_checks_the_core)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c;

	start(NULL);
	c = conn();
	cr_assert_eq(vsnl_request(c, dr_node_new("n1", 4000), NULL, NULL, &err), 0, "%s", err.msg);
	kill(t.pid, SIGUSR1);
	cr_assert(dt_log_wait(&t, "SIGUSR1: 1 nodes, 0 queues, 0 PodGroups, 0 tasks"));
	kill(t.pid, SIGUSR2);
	cr_assert(dt_log_wait(&t, "SIGUSR2: the core is whole (1 nodes, 0 tasks checked)"));
	/* Neither ends the daemon: it still answers, then stops cleanly. */
	cr_assert_eq(vsnl_request(c, dr_node_new("n2", 4000), NULL, NULL, &err), 0, "%s", err.msg);
	vsnl_close(c);
	cr_assert_eq(dt_stop(&t), 0);
}

Test(vschedd, a_limit_refuses_one_object_more_with_its_name)
{
	struct vschedd_opts o = { .limits = { .nodes = 1 } };
	struct vsnl_err err = { 0 };
	struct vsnl *c;

	start(&o);
	c = conn();
	cr_assert_eq(vsnl_request(c, dr_node_new("n1", 4000), NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_request(c, dr_node_new("n2", 4000), NULL, NULL, &err), -ENOSPC);
	cr_assert(strstr(err.msg, "the cluster holds 1 nodes, its limit (vschedd --limit nodes=N)"),
		  "%s", err.msg);
	vsnl_close(c);
}

/*
 * A node of 512 labels whose values no other node has: tens of kilobytes of
 * the daemon's heap, so that a few hundred fill the cap (the daemon checks
 * its whole core after each request here).
 */
static struct nl_msg *fat_node_new(u32 i)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_NODE_NEW, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_NODE), *labels, *kv;
	char name[32], value[64];

	snprintf(name, sizeof(name), "fat-%06u", i);
	nla_put_string(m, VS_NODE_A_NAME, name);
	dr_put_res(m, VS_NODE_A_ALLOCATABLE, 4000, 8ULL << 30, 110);
	labels = nla_nest_start(m, VS_NODE_A_LABELS);
	for (u32 k = 0; k < 512; k++) {
		kv = nla_nest_start(m, VS_LABELS_A_ITEM);
		snprintf(name, sizeof(name), "example.com/label-%03u", k);
		snprintf(value, sizeof(value), "value-%06u-%03u-abcdefghijklmnopqrstuvwxyz", i, k);
		nla_put_string(m, VS_KV_A_KEY, name);
		nla_put_string(m, VS_KV_A_VALUE, value);
		nla_nest_end(m, kv);
	}
	nla_nest_end(m, labels);
	nla_nest_end(m, n);
	return m;
}

struct mem_stats {
	u64 heap, max;
	u32 nodes;
};

static int read_mem_stats(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct mem_stats *ms = arg;
	struct vsnl_stats_tb a;

	cr_assert_not_null(tb[VS_A_STATS]);
	cr_assert_eq(vsnl_stats_parse(tb[VS_A_STATS], &a, VSNL_CODEC_REPLY, NULL), 0);
	cr_assert(vsnl_stats_get_heap_bytes(&a, &ms->heap));
	ms->max = 0;
	vsnl_stats_get_max_memory(&a, &ms->max);
	cr_assert(vsnl_stats_get_nr_nodes(&a, &ms->nodes));
	return 0;
}

static struct mem_stats mem_stats(struct vsnl *c)
{
	struct mem_stats ms = { 0 };
	struct vsnl_err err = { 0 };

	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_STATS_GET, 0), read_mem_stats, &ms, &err),
		     0, "%s", err.msg);
	return ms;
}

Test(vschedd, past_the_memory_cap_what_adds_is_refused_until_deletes_make_room)
{
	struct vschedd_opts o = { .max_memory = VSCHEDD_MAX_MEMORY_MIN };
	struct vsnl_err err = { 0 };
	struct mem_stats ms;
	char name[32];
	struct vsnl *c;
	u32 n;
	int ret;

	if (!vs_mem_counted(NULL))
		cr_skip_test("the allocator counts nothing here (valgrind replaces it)");
	start(&o);
	c = conn();
	for (n = 0;; n++) {
		ret = req(c, fat_node_new(n), NULL, NULL, &err);
		if (ret)
			break;
		cr_assert_lt(n, 1000000u, "the cap never came");
	}
	cr_assert_eq(ret, -ENOMEM, "%s", err.msg);
	cr_assert(strstr(err.msg, "VS_CMD_NODE_NEW refused: vschedd holds 64 MiB, its memory cap "
			 "is 64 MiB (vschedd --max-memory); delete objects first"), "%s", err.msg);
	ms = mem_stats(c);
	cr_assert_eq(ms.nodes, n, "the refused node was made");
	cr_assert_eq(ms.max, VSCHEDD_MAX_MEMORY_MIN);
	cr_assert_geq(ms.heap, ms.max);
	cr_assert_gt(n, 100u, "%u nodes filled 64 MiB", n);

	/* Anything that adds is refused, and the daemon goes on answering. */
	cr_assert_eq(req(c, dr_queue_new("q"), NULL, NULL, &err), -ENOMEM);
	cr_assert(strstr(err.msg, "VS_CMD_QUEUE_NEW refused"), "%s", err.msg);

	/* Deletes make room: a tenth of the nodes, and NEW works again. */
	for (u32 i = 0; i < n / 10; i++) {
		struct nl_msg *m = vsnl_msg_new(VS_CMD_NODE_DEL, 0);
		struct nlattr *k = nla_nest_start(m, VS_A_NODE);

		snprintf(name, sizeof(name), "fat-%06u", i);
		nla_put_string(m, VS_NODE_A_NAME, name);
		nla_nest_end(m, k);
		ok(c, m);
	}
	ms = mem_stats(c);
	cr_assert_lt(ms.heap, ms.max, "%u nodes deleted, %llu bytes held", n / 10,
		     (unsigned long long)ms.heap);
	ok(c, dr_queue_new("q"));
	vsnl_close(c);
	cr_assert_eq(dt_stop(&t), 0);
}

/*
 * In a child of uid and gid 65534: @n connections, each with a queue of
 * 256 MiB (the most it may ask for) and in the events group, reading
 * nothing. Once they are set up it writes to the pipe @ready; once the
 * pipe @go is written to (or the test is gone), the first reads what waits
 * for it. Its exit status: 0 when that ended with ENOBUFS.
 */
static pid_t deaf_readers(unsigned int n, const int ready[2], const int go[2])
{
	struct vsnl_err err = { 0 };
	struct vsnl *conns[32];
	char byte = 0;
	pid_t pid;
	int ret;

	cr_assert_leq(n, ARRAY_SIZE(conns));
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid)
		return pid;
	close(ready[0]);
	close(go[1]);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || setgroups(0, NULL) || setgid(65534) ||
	    setuid(65534))
		_exit(0x80);
	for (unsigned int i = 0; i < n; i++) {
		conns[i] = vsnl_open(t.path, &err);
		if (!conns[i] || vsnl_set_rcvbuf(conns[i], 256ull << 20, &err) ||
		    vsnl_subscribe(conns[i], VS_MCGRP_EVENTS, &err))
			_exit(0x40);
	}
	if (write(ready[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1)
		_exit(0x20);
	do
		ret = vsnl_recv_notifications(conns[0], DT_TIMEOUT_MS, NULL, NULL, &err);
	while (ret > 0);
	_exit(ret == -ENOBUFS ? 0 : 1);
}

/* @pairs NEW and DEL of one node, no acks: two events each, the state as it was. */
static void churn(int fd, unsigned int pairs)
{
	struct dt_dgram g;
	struct nlmsghdr *nlh;
	struct nlattr *k;

	dt_dgram_init(&g, 128 << 10);
	for (unsigned int i = 0; i < pairs; i++) {
		if (g.len + 8192 > g.cap)
			dt_send(fd, &g);
		nlh = dt_msg(&g, VS_CMD_NODE_NEW, 0, 2 * i + 1);
		dt_put_node(nlh, "churn");
		dt_msg_end(&g, nlh);
		nlh = dt_msg(&g, VS_CMD_NODE_DEL, 0, 2 * i + 2);
		k = mnl_attr_nest_start(nlh, VS_A_NODE);
		mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "churn");
		mnl_attr_nest_end(nlh, k);
		dt_msg_end(&g, nlh);
	}
	/* Any of them refused would be answered, and fail here. */
	dt_send_synced(fd, &g);
}

Test(vschedd, readers_that_never_read_cannot_take_the_memory_of_the_writers)
{
	struct vschedd_opts o = { .max_memory = VSCHEDD_MAX_MEMORY_MIN };
	int ready[2], go[2], status, fd;
	struct mem_stats ms;
	struct vsnl *c;
	char byte = 0;
	pid_t readers;

	if (geteuid())
		cr_skip_test("needs root to take another user's credentials");
	if (!vs_mem_counted(NULL))
		cr_skip_test("the allocator counts nothing here (valgrind replaces it)");
	start(&o);
	c = conn();
	cr_assert_eq(pipe(ready), 0);
	cr_assert_eq(pipe(go), 0);
	/* Let everybody connect: the permission is the daemon's to refuse. */
	cr_assert_eq(chmod(t.path, 0666), 0);
	readers = deaf_readers(24, ready, go);
	close(ready[1]);
	close(go[0]);
	cr_assert_eq(read(ready[0], &byte, 1), 1, "the readers did not connect");

	/*
	 * Some 80,000 events for each of 24 readers, 6 MiB each when queued:
	 * more than the cap, which the writers never see.
	 */
	fd = dt_connect(t.path);
	churn(fd, 40000);
	close(fd);
	ok(c, dr_node_new("after", 1000));
	ms = mem_stats(c);
	cr_assert_eq(ms.nodes, 1);
	/* The state, the 64 MiB the readers share, and the allocator's rounding. */
	cr_assert_lt(ms.heap, VSCHEDD_MAX_MEMORY_MIN + VSCHEDD_UNPRIV_QUEUE_MAX_DEFAULT +
			      (32ull << 20), "%llu MiB held", (unsigned long long)(ms.heap >> 20));

	/* A reader that reads is told what it lost. */
	cr_assert_eq(write(go[1], &byte, 1), 1);
	cr_assert_eq(waitpid(readers, &status, 0), readers);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "the reader: status %#x", status);
	close(ready[0]);
	close(go[1]);
	vsnl_close(c);
	cr_assert_eq(dt_stop(&t), 0);
}

Test(vschedd, a_memory_cap_without_a_count_stops_the_start)
{
	struct vschedd_opts o = { .max_memory = VSCHEDD_MAX_MEMORY_MIN };

	if (vs_mem_counted(NULL))
		cr_skip_test("the allocator counts its heap here: the cap starts");
	cr_assert_eq(dt_try_start(&t, &o), -EINVAL);
	cr_assert(strstr(t.error, "--max-memory: "), "%s", t.error);
}

Test(vschedd, sigterm_stops_cleanly_and_removes_the_socket)
{
	struct stat st;

	start(NULL);
	cr_assert_eq(stat(t.path, &st), 0);
	cr_assert(S_ISSOCK(st.st_mode));
	cr_assert_eq(st.st_mode & 0777, 0660);
	cr_assert_eq(dt_stop(&t), 0);
	cr_assert_eq(access(t.path, F_OK), -1);
	cr_assert_eq(errno, ENOENT);
}

Test(vschedd, a_stale_socket_is_replaced_and_a_live_one_is_not)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct vschedd_opts o = { 0 };
	struct dtest second = { 0 };
	int fd;

	dt_paths(&t);
	/* A socket nothing listens on, as a daemon that died leaves it. */
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", t.path);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	start(NULL);
	fd = dt_connect(t.path);
	close(fd);

	/* The second daemon keeps its own log, in the same directory. */
	snprintf(second.dir, sizeof(second.dir), "%s", t.dir);
	snprintf(second.log, sizeof(second.log), "%s/log2", t.dir);
	o.socket_path = t.path;
	cr_assert_eq(dt_try_start(&second, &o), -EADDRINUSE);
	cr_assert(strstr(second.error, "a daemon is listening on it already"), "%s",
		  second.error);
	/* The first one still serves. */
	fd = dt_connect(t.path);
	close(fd);
}

/*
 * The socket is made at PATH~ and appears at PATH once it listens: a PATH~
 * left by a start that died there goes; none is left by a start.
 */
Test(vschedd, a_socket_half_made_by_a_start_that_died_is_cleared)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	dt_paths(&t);
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s~", t.path);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	start(NULL);
	close(fd);
	fd = dt_connect(t.path);
	close(fd);
	cr_assert_eq(lstat(sa.sun_path, &st), -1, "%s is still there", sa.sun_path);
	cr_assert_eq(errno, ENOENT);
}

Test(vschedd, a_file_in_the_way_is_not_removed)
{
	struct vschedd_opts o = { 0 };

	dt_paths(&t);
	write_file(t.path, "not a socket\n");
	cr_assert_eq(dt_try_start(&t, &o), -EEXIST);
	cr_assert(strstr(t.error, "exists and is not a socket"), "%s", t.error);
	cr_assert_eq(access(t.path, F_OK), 0);
}

/*
 * A test that died leaves its directory, its socket in it; pids wrap, and
 * a later test of the same pid must not find that socket where it writes.
 */
Test(vschedd, a_dead_tests_directory_is_not_reused)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char stale[96], cmd[160];
	int fd;

	snprintf(stale, sizeof(stale), "/tmp/vschedd-test-%d", (int)getpid());
	mkdir(stale, 0755);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/vs.sock", stale);
	unlink(sa.sun_path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	cr_assert_geq(fd, 0);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0, "%s", strerror(errno));
	close(fd);
	dt_paths(&t);
	write_file(t.path, "not a socket\n");
	cr_assert_eq(access(sa.sun_path, F_OK), 0, "the dead test's socket is its own");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", stale);
	cr_assert_eq(system(cmd), 0);
}

Test(vschedd, the_socket_directory_is_made)
{
	struct vschedd_opts o = { 0 };
	char path[128];
	int fd;

	dt_paths(&t);
	snprintf(path, sizeof(path), "%s/run/vsched/x.sock", t.dir);
	o.socket_path = path;
	dt_start(&t, &o);
	fd = dt_connect(path);
	close(fd);
}

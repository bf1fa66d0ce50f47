// SPDX-License-Identifier: Apache-2.0
/*
 * Every command of the family through a real vschedd, as a client library
 * sends it (libvsnl): each object kind made, changed, read, dumped and
 * deleted; the control commands; subscriptions; the connection's receive
 * queue; reset; the generic netlink
 * controller's GETFAMILY; and the command not implemented yet, refused.
 * The other files test each in depth; this one proves the daemon serves
 * them all.
 */
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "dtest.h"
#include "lib/codec_gen.h"
#include "lib/vsnl.h"

static struct dtest t;
static struct vsnl *c;

static void setup(void)
{
	struct vschedd_opts o = { .period_ms = 0 };
	struct vsnl_err err = { 0 };

	dt_start(&t, &o);
	c = vsnl_open(t.path, &err);
	cr_assert_not_null(c, "%s", err.msg);
}

static void teardown(void)
{
	if (c)
		vsnl_close(c);
	c = NULL;
	dt_cleanup(&t);
}

TestSuite(vschedd_commands, .init = setup, .fini = teardown, .timeout = 120);

/* Send @m; its errno, 0 when it succeeded; the replies' count in *@n if @n. */
static int count_cb(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	(*(unsigned int *)arg)++;
	return 0;
}

static int send_msg(struct nl_msg *m, unsigned int *n, char *why)
{
	struct vsnl_err err = { 0 };
	unsigned int mine = 0;
	int ret = vsnl_request(c, m, count_cb, n ? n : &mine, &err);

	if (why)
		snprintf(why, VSNL_ERR_MSG_MAX, "%s", err.msg);
	return ret;
}

#define OK(_m)								\
	do {								\
		char __why[VSNL_ERR_MSG_MAX];				\
		cr_assert_eq(send_msg((_m), NULL, __why), 0, "%s", __why);	\
	} while (0)

/* How many objects a dump of @cmd lists. */
static unsigned int dump(u8 cmd)
{
	unsigned int n = 0;

	cr_assert_eq(send_msg(vsnl_msg_new(cmd, NLM_F_DUMP), &n, NULL), 0);
	return n;
}

static int read_period(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_conf_tb a;

	cr_assert_not_null(tb[VS_A_CONF]);
	cr_assert_eq(vsnl_conf_parse(tb[VS_A_CONF], &a, VSNL_CODEC_REPLY, NULL), 0);
	cr_assert(vsnl_conf_get_period_ms(&a, arg));
	return 0;
}

/* The period CONF_GET reports. */
static u32 period(void)
{
	struct vsnl_err err = { 0 };
	u32 ms = ~0u;

	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_CONF_GET, 0), read_period, &ms, &err), 0,
		     "%s", err.msg);
	return ms;
}

/* VS_CONN_A_HOLD of a CONN_GET reply, into an unsigned int. */
static int read_hold(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_conn_tb a;
	u8 hold;

	cr_assert_not_null(tb[VS_A_CONN]);
	cr_assert_eq(vsnl_conn_parse(tb[VS_A_CONN], &a, VSNL_CODEC_REPLY, NULL), 0);
	cr_assert(vsnl_conn_get_hold(&a, &hold));
	*(unsigned int *)arg = hold;
	return 0;
}

static struct nl_msg *obj(u8 cmd, int type, int flags)
{
	struct nl_msg *m = vsnl_msg_new(cmd, flags);

	nla_nest_start(m, type);
	return m;
}

static void end(struct nl_msg *m)
{
	/* Each request here has one nest, its first attribute. */
	nla_nest_end(m, (struct nlattr *)((char *)nlmsg_data(nlmsg_hdr(m)) + GENL_HDRLEN));
}

static void put_res(struct nl_msg *m, int type, u64 mcpu, u64 pods)
{
	struct nlattr *r = nla_nest_start(m, type);

	nla_put_u64(m, VS_RES_A_CPU, mcpu);
	nla_put_u64(m, VS_RES_A_MEMORY, mcpu << 20);
	if (pods)
		nla_put_u64(m, VS_RES_A_PODS, pods);
	nla_nest_end(m, r);
}

Test(vschedd_commands, every_command_is_served)
{
	struct vsnl_err err = { 0 };
	struct nlattr *t1, *n;
	struct nl_msg *m;
	unsigned int got;
	char why[VSNL_ERR_MSG_MAX];

	/* Priority classes. */
	m = obj(VS_CMD_PRIOCLASS_NEW, VS_A_PRIOCLASS, 0);
	nla_put_string(m, VS_PC_A_NAME, "high");
	nla_put_s32(m, VS_PC_A_VALUE, 1000);
	end(m);
	OK(m);
	m = obj(VS_CMD_PRIOCLASS_SET, VS_A_PRIOCLASS, 0);
	nla_put_string(m, VS_PC_A_NAME, "high");
	nla_put_s32(m, VS_PC_A_VALUE, 2000);
	end(m);
	OK(m);
	cr_assert_eq(dump(VS_CMD_PRIOCLASS_GET), 1);

	/* Queues, nodes, PodGroups, tasks: NEW, SET, GET. */
	m = obj(VS_CMD_QUEUE_NEW, VS_A_QUEUE, 0);
	nla_put_string(m, VS_QUEUE_A_NAME, "q1");
	end(m);
	OK(m);
	m = obj(VS_CMD_QUEUE_SET, VS_A_QUEUE, 0);
	nla_put_string(m, VS_QUEUE_A_NAME, "q1");
	nla_put_u32(m, VS_QUEUE_A_WEIGHT, 3);
	end(m);
	OK(m);
	m = obj(VS_CMD_NODE_NEW, VS_A_NODE, 0);
	nla_put_string(m, VS_NODE_A_NAME, "n1");
	put_res(m, VS_NODE_A_ALLOCATABLE, 4000, 110);
	end(m);
	OK(m);
	m = obj(VS_CMD_NODE_SET, VS_A_NODE, 0);
	nla_put_string(m, VS_NODE_A_NAME, "n1");
	nla_put_u8(m, VS_NODE_A_UNSCHEDULABLE, 0);
	end(m);
	OK(m);
	m = obj(VS_CMD_PODGROUP_NEW, VS_A_PODGROUP, 0);
	nla_put_string(m, VS_PG_A_NAMESPACE, "ns");
	nla_put_string(m, VS_PG_A_NAME, "pg");
	nla_put_string(m, VS_PG_A_QUEUE, "q1");
	end(m);
	OK(m);
	m = obj(VS_CMD_PODGROUP_SET, VS_A_PODGROUP, 0);
	nla_put_string(m, VS_PG_A_NAMESPACE, "ns");
	nla_put_string(m, VS_PG_A_NAME, "pg");
	nla_put_u32(m, VS_PG_A_MIN_MEMBER, 1);
	end(m);
	OK(m);
	m = obj(VS_CMD_TASK_NEW, VS_A_TASK, 0);
	nla_put_string(m, VS_TASK_A_NAMESPACE, "ns");
	nla_put_string(m, VS_TASK_A_NAME, "p1");
	nla_put_string(m, VS_TASK_A_PODGROUP, "pg");
	put_res(m, VS_TASK_A_REQUEST, 1000, 0);
	nla_put_string(m, VS_TASK_A_PRIORITY_CLASS, "high");
	end(m);
	OK(m);
	/* A task's spec never changes (as a pod's): SET is refused, and says so. */
	m = obj(VS_CMD_TASK_SET, VS_A_TASK, 0);
	nla_put_string(m, VS_TASK_A_NAMESPACE, "ns");
	nla_put_string(m, VS_TASK_A_NAME, "p1");
	nla_put_s32(m, VS_TASK_A_PRIORITY, 5);
	end(m);
	cr_assert_eq(send_msg(m, NULL, why), -EOPNOTSUPP, "%s", why);
	m = obj(VS_CMD_TASK_GET, VS_A_TASK, 0);
	nla_put_string(m, VS_TASK_A_NAMESPACE, "ns");
	nla_put_string(m, VS_TASK_A_NAME, "p1");
	end(m);
	got = 0;
	cr_assert_eq(send_msg(m, &got, why), 0, "%s", why);
	cr_assert_eq(got, 1);
	cr_assert_eq(dump(VS_CMD_NODE_GET), 1);
	cr_assert_eq(dump(VS_CMD_QUEUE_GET), 1);
	cr_assert_eq(dump(VS_CMD_PODGROUP_GET), 1);
	cr_assert_eq(dump(VS_CMD_TASK_GET), 1);

	/* A VolcanoJob: NEW, GET. */
	m = obj(VS_CMD_VJOB_NEW, VS_A_VJOB, 0);
	nla_put_string(m, VS_VJOB_A_NAMESPACE, "ns");
	nla_put_string(m, VS_VJOB_A_NAME, "vj");
	nla_put_string(m, VS_VJOB_A_QUEUE, "q1");
	t1 = nla_nest_start(m, VS_VJOB_A_TASK);
	nla_put_string(m, VS_VTASK_A_NAME, "worker");
	nla_put_u32(m, VS_VTASK_A_REPLICAS, 2);
	put_res(m, VS_VTASK_A_REQUEST, 500, 0);
	nla_nest_end(m, t1);
	end(m);
	OK(m);
	cr_assert_eq(dump(VS_CMD_VJOB_GET), 1);

	/* The configuration, a cycle, statistics. */
	cr_assert_eq(period(), 0, "vschedd --period 0: cycles only on request");
	m = vsnl_msg_new(VS_CMD_CONF_SET, 0);
	n = nla_nest_start(m, VS_A_CONF);
	nla_put_u32(m, VS_CONF_A_PERIOD_MS, 60000);
	nla_nest_end(m, n);
	OK(m);
	cr_assert_eq(period(), 60000);
	got = 0;
	cr_assert_eq(send_msg(vsnl_msg_new(VS_CMD_CYCLE_RUN, 0), &got, why), 0, "%s", why);
	cr_assert_eq(got, 1, "the cycle's numbers");
	got = 0;
	cr_assert_eq(send_msg(vsnl_msg_new(VS_CMD_STATS_GET, 0), &got, why), 0, "%s", why);
	cr_assert_eq(got, 1);

	/* The task was bound by the standalone binder and runs: it finishes. */
	m = obj(VS_CMD_TASK_STATUS, VS_A_TASK, 0);
	nla_put_string(m, VS_TASK_A_NAMESPACE, "ns");
	nla_put_string(m, VS_TASK_A_NAME, "p1");
	nla_put_u32(m, VS_TASK_A_EVENT, VS_TASK_EVENT_SUCCEEDED);
	end(m);
	OK(m);
	/* A bind result for it now is stale. */
	m = obj(VS_CMD_BIND_RESULT, VS_A_BIND_RESULT, 0);
	nla_put_string(m, VS_BIND_A_NAMESPACE, "ns");
	nla_put_string(m, VS_BIND_A_NAME, "p1");
	nla_put_u32(m, VS_BIND_A_ERROR, 0);
	end(m);
	cr_assert_eq(send_msg(m, NULL, why), -ESTALE, "%s", why);

	/* Subscriptions, both ways; a batch. */
	cr_assert_eq(vsnl_subscribe(c, VS_MCGRP_CYCLES, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_unsubscribe(c, VS_MCGRP_CYCLES, &err), 0, "%s", err.msg);
	/* The connection's receive queue: read, raised, refused past the maximum. */
	got = 0;
	cr_assert_eq(send_msg(vsnl_msg_new(VS_CMD_CONN_GET, 0), &got, why), 0, "%s", why);
	cr_assert_eq(got, 1);
	cr_assert_eq(vsnl_set_rcvbuf(c, 64 << 20, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_set_rcvbuf(c, VSCHEDD_RCVBUF_MAX_DEFAULT + 1, &err), -EINVAL);
	cr_assert(strstr(err.msg, "more than this daemon's maximum, 268435456 bytes (vschedd "
			 "--rcvbuf-max)"), "%s", err.msg);
	/* A hold, read back. */
	cr_assert_eq(vsnl_set_hold(c, true, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_CONN_GET, 0), read_hold, &got, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(got, 1, "CONN_GET says the connection holds");
	cr_assert_eq(vsnl_set_hold(c, false, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_CONN_GET, 0), read_hold, &got, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(got, 0);
	OK(vsnl_msg_new(VS_CMD_BATCH_BEGIN, 0));
	m = obj(VS_CMD_TASK_DEL, VS_A_TASK, 0);
	nla_put_string(m, VS_TASK_A_NAMESPACE, "ns");
	nla_put_string(m, VS_TASK_A_NAME, "p1");
	end(m);
	OK(m);
	OK(vsnl_msg_new(VS_CMD_BATCH_END, 0));
	m = obj(VS_CMD_TASK_GET, VS_A_TASK, 0);
	nla_put_string(m, VS_TASK_A_NAMESPACE, "ns");
	nla_put_string(m, VS_TASK_A_NAME, "p1");
	end(m);
	cr_assert_eq(send_msg(m, NULL, why), -ENOENT, "the batch deleted it: %s", why);

	/* Explained: the batch above deleted it. */
	m = obj(VS_CMD_EXPLAIN, VS_A_EXPLAIN, 0);
	nla_put_string(m, VS_EXPLAIN_A_NAMESPACE, "ns");
	nla_put_string(m, VS_EXPLAIN_A_TASK, "p1");
	end(m);
	cr_assert_eq(send_msg(m, NULL, why), -ENOENT, "%s", why);
	m = obj(VS_CMD_EXPLAIN, VS_A_EXPLAIN, 0);
	nla_put_string(m, VS_EXPLAIN_A_NODE, "n1");
	end(m);
	OK(m);

	/* DEL of each kind, then RESET of what is left. */
	m = obj(VS_CMD_PRIOCLASS_DEL, VS_A_PRIOCLASS, 0);
	nla_put_string(m, VS_PC_A_NAME, "high");
	end(m);
	OK(m);
	OK(vsnl_msg_new(VS_CMD_RESET, 0));
	cr_assert_eq(dump(VS_CMD_NODE_GET) + dump(VS_CMD_QUEUE_GET) + dump(VS_CMD_PODGROUP_GET) +
		     dump(VS_CMD_TASK_GET) + dump(VS_CMD_VJOB_GET) + dump(VS_CMD_PRIOCLASS_GET), 0);
}

Test(vschedd_commands, the_controller_describes_the_family)
{
	static char rx[VSCHEDD_REPLY_MAX];
	struct dt_dgram g;
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;
	const struct nlattr *a;
	bool name = false, groups = false;
	int fd = dt_connect(t.path);
	ssize_t len;

	dt_dgram_init(&g, 4096);
	nlh = mnl_nlmsg_put_header(g.buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 9;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = CTRL_CMD_GETFAMILY;
	gh->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, VSCHED_GENL_NAME);
	g.len = nlh->nlmsg_len;
	dt_send(fd, &g);
	free(g.buf);
	len = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
	cr_assert_gt(len, 0);
	nlh = (struct nlmsghdr *)rx;
	cr_assert_eq(nlh->nlmsg_type, GENL_ID_CTRL, "an error: %d", nlh->nlmsg_type);
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_NAME)
			name = !strcmp(mnl_attr_get_str(a), VSCHED_GENL_NAME);
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			groups = true;
	}
	cr_assert(name && groups);
	close(fd);
}

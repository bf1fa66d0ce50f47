// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl's batches against a real vschedd on a socket of the test's own:
 * many objects packed into few datagrams and applied at END, messages
 * built with libnl and with the core's own fills side by side, and a batch
 * with one bad message applying nothing and naming the message.
 */
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "../daemon/dtest.h"
#include "lib/codec_gen.h"
#include "lib/vsnl.h"
#include "netlink/fill.h"

static struct dtest t;

static void fini(void)
{
	dt_cleanup(&t);
}

TestSuite(vsnl_batch, .fini = fini, .timeout = 120);

static struct vsnl *start(void)
{
	struct vschedd_opts o = { .period_ms = 0 };
	struct vsnl_err err = { 0 };
	struct vsnl *c;

	dt_start(&t, &o);
	c = vsnl_open(t.path, &err);
	cr_assert_not_null(c, "%s", err.msg);
	return c;
}

/* A node as dtest.h writes one, in a buffer: added with vsnl_batch_add_nlh(). */
static void add_node(struct vsnl *c, const char *name, u32 *seq)
{
	static unsigned char buf[4096];
	struct vsnl_err err = { 0 };
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);

	dt_put_node(nlh, name);
	cr_assert_eq(vsnl_batch_add_nlh(c, nlh, seq, &err), 0, "%s", err.msg);
}

static struct nl_msg *queue_new(const char *name)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_QUEUE_NEW, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_QUEUE);

	nla_put_string(m, VS_QUEUE_A_NAME, name);
	nla_nest_end(m, n);
	return m;
}

static struct nl_msg *task_new(const char *ns, const char *name, const char *pg)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_TASK_NEW, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_TASK);

	nla_put_string(m, VS_TASK_A_NAMESPACE, ns);
	nla_put_string(m, VS_TASK_A_NAME, name);
	nla_put_string(m, VS_TASK_A_PODGROUP, pg);
	nla_nest_end(m, n);
	return m;
}

struct counts {
	u32 nodes, podgroups, tasks;
};

static int read_stats(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_stats_tb a;
	struct counts *n = arg;

	cr_assert_not_null(tb[VS_A_STATS]);
	cr_assert_eq(vsnl_stats_parse(tb[VS_A_STATS], &a, VSNL_CODEC_REPLY, NULL), 0);
	cr_assert(vsnl_stats_get_nr_nodes(&a, &n->nodes));
	cr_assert(vsnl_stats_get_nr_podgroups(&a, &n->podgroups));
	cr_assert(vsnl_stats_get_nr_tasks(&a, &n->tasks));
	return 0;
}

static struct counts counts(struct vsnl *c)
{
	struct vsnl_err err = { 0 };
	struct counts n = { 0 };

	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_STATS_GET, 0), read_stats, &n, &err),
		     0, "%s", err.msg);
	return n;
}

static void add(struct vsnl *c, struct nl_msg *m, u32 *seq)
{
	struct vsnl_err err = { 0 };

	cr_assert_eq(vsnl_batch_add(c, m, seq, &err), 0, "%s", err.msg);
}

Test(vsnl_batch, ten_thousand_nodes_applied_in_one_batch)
{
	struct vsnl *c = start();
	struct vsnl_err err = { 0 };
	char name[32];
	u32 seq, prev = 0;

	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	for (unsigned int i = 0; i < 10000; i++) {
		snprintf(name, sizeof(name), "node-%05u", i);
		add_node(c, name, &seq);
		if (i)
			cr_assert_eq(seq, prev + 1, "sequence numbers follow each other");
		prev = seq;
	}
	cr_assert_eq(vsnl_batch_end(c, &err), 0, "%s", err.msg);
	cr_assert_eq(counts(c).nodes, 10000);
	vsnl_close(c);
}

/* What vsctl apply sends: objects of an in-process cluster, written by the core's fills. */
Test(vsnl_batch, messages_of_the_core_fills_applied_with_libnl_ones)
{
	static unsigned char buf[64 << 10];
	struct vsnl *c = start();
	struct vsnl_err err = { 0 };
	struct vs_err e = { { 0 } };
	struct vs_cluster cl;
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_job *pg;
	struct vs_task *task;
	struct nlmsghdr *nlh;

	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_job_spec_init(&js, "ns", "pg1");
	js.min_member = 2;
	cr_assert_eq(vs_job_add(&cl, &js, &pg, &e), 0, "%s", e.msg);
	vs_task_spec_init(&ts, "ns", "p0", "pg1");
	vs_res_set(&ts.req, VS_RES_CPU, 500);
	cr_assert_eq(vs_task_add(&cl, &ts, &task, &e), 0, "%s", e.msg);

	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	add_node(c, "n1", NULL);
	add(c, queue_new("default"), NULL);
	nlh = nlt_request(buf, VS_CMD_PODGROUP_NEW, 0);
	cr_assert(vs_nl_put_podgroup_spec(nlh, sizeof(buf), pg));
	cr_assert_eq(vsnl_batch_add_nlh(c, nlh, NULL, &err), 0, "%s", err.msg);
	nlh = nlt_request(buf, VS_CMD_TASK_NEW, 0);
	cr_assert(vs_nl_put_task_spec(nlh, sizeof(buf), task));
	cr_assert_eq(vsnl_batch_add_nlh(c, nlh, NULL, &err), 0, "%s", err.msg);
	add(c, task_new("ns", "p1", "pg1"), NULL);
	cr_assert_eq(vsnl_batch_end(c, &err), 0, "%s", err.msg);

	struct counts n = counts(c);

	cr_assert_eq(n.nodes, 1);
	cr_assert_eq(n.podgroups, 1);
	cr_assert_eq(n.tasks, 2);
	vs_cluster_destroy(&cl);
	vsnl_close(c);
}

/* vsnl_msg_put() starts in a buffer the request vsnl_msg_new() starts in an nl_msg. */
Test(vsnl_batch, a_request_put_in_a_buffer_has_the_headers_of_a_new_message)
{
	unsigned char buf[64] = { 0 };
	struct nl_msg *m = vsnl_msg_new(VS_CMD_NODE_NEW, NLM_F_REPLACE);
	struct nlmsghdr *want = nlmsg_hdr(m), *nlh;

	memset(buf, 0xa5, sizeof(buf));
	nlh = vsnl_msg_put(buf, sizeof(buf), VS_CMD_NODE_NEW, NLM_F_REPLACE);
	cr_assert_eq((void *)nlh, (void *)buf);
	cr_assert_eq(nlh->nlmsg_len, NLMSG_HDRLEN + GENL_HDRLEN);
	cr_assert_eq(nlh->nlmsg_len, want->nlmsg_len);
	cr_assert_eq(nlh->nlmsg_type, VSCHED_GENL_ID);
	cr_assert_eq(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_REPLACE);
	cr_assert_eq(nlh->nlmsg_seq, 0, "numbered when sent, not here");
	cr_assert_eq(nlh->nlmsg_pid, 0);
	cr_assert_arr_eq(nlmsg_data(nlh), nlmsg_data(want), GENL_HDRLEN,
			 "the generic netlink header (cmd, version, reserved) as libnl writes it");
	cr_assert_eq(buf[NLMSG_HDRLEN + GENL_HDRLEN], 0xa5, "nothing written past the headers");
	cr_assert_null(vsnl_msg_put(buf, NLMSG_HDRLEN + GENL_HDRLEN - 1, VS_CMD_NODE_NEW, 0),
		       "no room for the headers");
	nlmsg_free(m);
}

/* What vsbench load sends: requests started by libvsnl, written by the core's fills. */
Test(vsnl_batch, requests_put_in_a_buffer_are_applied_alone_and_in_a_batch)
{
	static unsigned char buf[64 << 10];
	struct vsnl *c = start();
	struct vsnl_err err = { 0 };
	struct vs_err e = { { 0 } };
	struct vs_node_spec ns;
	struct vs_node *node;
	struct vs_cluster cl;
	struct nlmsghdr *nlh;
	char name[32];

	cr_assert_eq(vs_cluster_init(&cl), 0);
	for (unsigned int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "n%u", i);
		vs_node_spec_init(&ns, name);
		vs_res_set(&ns.allocatable, VS_RES_CPU, 4000);
		cr_assert_eq(vs_node_add(&cl, &ns, &node, &e), 0, "%s", e.msg);
		nlh = vsnl_msg_put(buf, sizeof(buf), VS_CMD_NODE_NEW, 0);
		cr_assert_not_null(nlh);
		cr_assert(vs_nl_put_node_spec(nlh, sizeof(buf), node));
		if (!i) {
			cr_assert_eq(vsnl_request(c, nlmsg_convert(nlh), NULL, NULL, &err), 0, "%s",
				     err.msg);
			cr_assert_eq(counts(c).nodes, 1);
			cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
			continue;
		}
		cr_assert_eq(vsnl_batch_add_nlh(c, nlh, NULL, &err), 0, "%s", err.msg);
	}
	cr_assert_eq(vsnl_batch_end(c, &err), 0, "%s", err.msg);
	cr_assert_eq(counts(c).nodes, 3);
	vs_cluster_destroy(&cl);
	vsnl_close(c);
}

/* A message that passes every check but fails when applied: END undoes the rest. */
Test(vsnl_batch, one_failing_object_applies_nothing_and_is_named)
{
	struct vsnl *c = start();
	struct vsnl_err err = { 0 };
	char name[32];
	u32 bad = 0;
	int ret;

	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	for (unsigned int i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "node-%05u", i);
		add_node(c, name, NULL);
		if (i == 1500)
			add(c, task_new("ns", "bad", "nosuch"), &bad);
	}
	ret = vsnl_batch_end(c, &err);
	cr_assert_eq(ret, -ENOENT, "%d: %s", ret, err.msg);
	cr_assert_eq(err.err, -ENOENT);
	cr_assert_eq(err.seq, bad, "the error names seq %u, the bad message is %u", err.seq, bad);
	cr_assert(strstr(err.msg, "batch not applied: message seq "), "%s", err.msg);
	cr_assert(strstr(err.msg, "(VS_CMD_TASK_NEW task ns/bad)"), "%s", err.msg);
	cr_assert_eq(counts(c).nodes, 0, "nothing of the batch was applied");
	vsnl_close(c);
}

/* A message refused on arrival: its answer comes at once and dooms the batch. */
Test(vsnl_batch, one_refused_message_applies_nothing_and_is_named)
{
	struct vsnl *c = start();
	struct vsnl_err err = { 0 };
	struct nl_msg *m;
	struct nlattr *n;
	char name[32];
	u32 bad = 0;
	int ret;

	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	for (unsigned int i = 0; i < 2000; i++) {
		snprintf(name, sizeof(name), "node-%05u", i);
		add_node(c, name, NULL);
		if (i != 10)
			continue;
		/* a node without its name: the policy refuses it */
		m = vsnl_msg_new(VS_CMD_NODE_NEW, 0);
		n = nla_nest_start(m, VS_A_NODE);
		nla_put_u8(m, VS_NODE_A_UNSCHEDULABLE, 1);
		nla_nest_end(m, n);
		add(c, m, &bad);
	}
	ret = vsnl_batch_end(c, &err);
	cr_assert_eq(ret, -EINVAL, "%d: %s", ret, err.msg);
	cr_assert_eq(err.seq, bad, "the error names seq %u, the bad message is %u", err.seq, bad);
	cr_assert(strstr(err.msg, "was refused"), "%s", err.msg);
	cr_assert(strstr(err.msg, "node.name (VS_NODE_A_NAME): required but missing"), "%s",
		  err.msg);
	/* the connection goes on: requests, and another batch */
	cr_assert_eq(counts(c).nodes, 0);
	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	add_node(c, "n1", NULL);
	cr_assert_eq(vsnl_batch_end(c, &err), 0, "%s", err.msg);
	cr_assert_eq(counts(c).nodes, 1);
	vsnl_close(c);
}

Test(vsnl_batch, requests_wait_for_the_end_of_an_open_batch)
{
	struct vsnl *c = start();
	struct vsnl_err err = { 0 };
	int ret;

	cr_assert_eq(vsnl_batch_add(c, queue_new("q0"), NULL, &err), -EINVAL);
	cr_assert_eq(vsnl_batch_end(c, &err), -EINVAL);
	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_batch_begin(c, &err), -EBUSY);
	ret = vsnl_request(c, vsnl_msg_new(VS_CMD_STATS_GET, 0), NULL, NULL, &err);
	cr_assert_eq(ret, -EBUSY, "%d: %s", ret, err.msg);
	add_node(c, "n1", NULL);
	cr_assert_eq(vsnl_batch_end(c, &err), 0, "%s", err.msg);
	cr_assert_eq(counts(c).nodes, 1);
	vsnl_close(c);
}

/* END sent, its answer read later: what a loader does while it writes the next batch. */
Test(vsnl_batch, an_end_sent_is_answered_when_read_and_blocks_requests_until_then)
{
	struct vsnl *c = start();
	struct vsnl_err err = { 0 };
	u32 bad = 0;
	int ret;

	cr_assert_eq(vsnl_batch_end_wait(c, &err), -EINVAL, "no END was sent");
	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	add_node(c, "n1", NULL);
	cr_assert_eq(vsnl_batch_end_send(c, &err), 0, "%s", err.msg);
	/* its answer would be taken for another's */
	ret = vsnl_request(c, vsnl_msg_new(VS_CMD_STATS_GET, 0), NULL, NULL, &err);
	cr_assert_eq(ret, -EBUSY, "%d: %s", ret, err.msg);
	cr_assert_eq(vsnl_batch_begin(c, &err), -EBUSY);
	cr_assert_eq(vsnl_batch_end_wait(c, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_batch_end_wait(c, &err), -EINVAL, "read once");
	cr_assert_eq(counts(c).nodes, 1);

	/* a failure is the same as vsnl_batch_end()'s */
	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	add_node(c, "n2", NULL);
	add(c, task_new("ns", "bad", "nosuch"), &bad);
	cr_assert_eq(vsnl_batch_end_send(c, &err), 0, "%s", err.msg);
	ret = vsnl_batch_end_wait(c, &err);
	cr_assert_eq(ret, -ENOENT, "%d: %s", ret, err.msg);
	cr_assert_eq(err.seq, bad);
	cr_assert_eq(counts(c).nodes, 1, "nothing of the second batch");
	vsnl_close(c);
}

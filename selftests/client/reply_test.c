// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl reads what the daemon answers through the spec's policies: a
 * fake daemon (a child on a real socket, answering one request with bytes
 * the test wrote) sends replies and errors the real one never would, and
 * each must come back as -EPROTO naming what was wrong and where, with no
 * callback called and nothing read past the message that holds it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "lib/codec_gen.h"
#include "lib/vsnl.h"

/* What the fake daemon sends: datagrams built for the request it read. */
typedef void (*answer_fn)(const struct nlmsghdr *req, int fd);

static char path[64];
static pid_t daemon_pid;

static void send_dgram(int fd, const void *buf, size_t len)
{
	if (send(fd, buf, len, 0) != (ssize_t)len)
		_exit(1);
}

/* A reply of the family to @req, with its headers and no attribute yet. */
static struct nlmsghdr *reply_start(void *buf, const struct nlmsghdr *req)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = VSCHED_GENL_ID;
	nlh->nlmsg_seq = req->nlmsg_seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = VS_CMD_NODE_GET;
	g->version = VSCHED_GENL_VERSION;
	return nlh;
}

/* The request's ack, in a datagram of its own. */
static void send_ack(const struct nlmsghdr *req, int fd)
{
	static unsigned char buf[256] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	nlh->nlmsg_seq = req->nlmsg_seq;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = 0;
	memcpy(&e->msg, req, sizeof(*req));
	send_dgram(fd, buf, nlh->nlmsg_len);
}

static void fake_daemon(answer_fn answer)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd;

	snprintf(path, sizeof(path), "/tmp/vsnl-reply-test-%d.sock", getpid());
	unlink(path);
	strcpy(sa.sun_path, path);
	lfd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	cr_assert_geq(lfd, 0);
	cr_assert_eq(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0, "%s", strerror(errno));
	cr_assert_eq(listen(lfd, 1), 0);
	daemon_pid = fork();
	cr_assert_geq(daemon_pid, 0);
	if (!daemon_pid) {
		static unsigned char rx[VS_MSG_MAX] __attribute__((aligned(8)));
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0 || recv(fd, rx, sizeof(rx), 0) < (ssize_t)NLMSG_HDRLEN)
			_exit(1);
		answer((const struct nlmsghdr *)rx, fd);
		/* until the client goes */
		while (recv(fd, rx, sizeof(rx), 0) > 0)
			;
		_exit(0);
	}
	close(lfd);
}

static void teardown(void)
{
	int status;

	if (daemon_pid > 0) {
		kill(daemon_pid, SIGTERM);
		waitpid(daemon_pid, &status, 0);
	}
	unlink(path);
}

TestSuite(vsnl_reply, .fini = teardown);

static int count_calls(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct vsnl_vsched_tb *top = vsnl_reply_tb(tb);
	struct vsnl_node_tb node;

	(*(int *)arg)++;
	cr_assert_not_null(vsnl_vsched_get_node(top));
	cr_assert_eq(vsnl_node_parse(vsnl_vsched_get_node(top), &node, VSNL_CODEC_REPLY, NULL), 0);
	cr_assert_str_eq(vsnl_node_get_name(&node), "n1");
	return 0;
}

/* Ask for node n1 from the fake daemon: what vsnl_request() returns, and the calls of its callback. */
static int ask(answer_fn answer, struct vsnl_err *err, int *calls)
{
	struct vsnl *c;
	int ret;

	fake_daemon(answer);
	c = vsnl_open(path, err);
	cr_assert_not_null(c, "%s", err->msg);
	*calls = 0;
	ret = vsnl_request(c, vsnl_msg_new(VS_CMD_NODE_GET, 0), count_calls, calls, err);
	vsnl_close(c);
	return ret;
}

static void answer_node(const struct nlmsghdr *req, int fd)
{
	static unsigned char buf[1024] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = reply_start(buf, req);
	struct nlattr *node = mnl_attr_nest_start(nlh, VS_A_NODE), *res;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	res = mnl_attr_nest_start(nlh, VS_NODE_A_ALLOCATABLE);
	mnl_attr_put_u64(nlh, VS_RES_A_CPU, 4000);
	mnl_attr_nest_end(nlh, res);
	mnl_attr_nest_end(nlh, node);
	send_dgram(fd, buf, nlh->nlmsg_len);
	send_ack(req, fd);
}

/* The control: what the others break is read as it comes when it is well formed. */
Test(vsnl_reply, a_well_formed_reply_reaches_the_callback, .timeout = 30)
{
	struct vsnl_err err = { 0 };
	int calls;

	cr_assert_eq(ask(answer_node, &err, &calls), 0, "%s", err.msg);
	cr_assert_eq(calls, 1);
}

/* node.allocatable.cpu, a u64, in 4 bytes */
static void answer_short_value(const struct nlmsghdr *req, int fd)
{
	static unsigned char buf[1024] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = reply_start(buf, req);
	struct nlattr *node = mnl_attr_nest_start(nlh, VS_A_NODE), *res;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	res = mnl_attr_nest_start(nlh, VS_NODE_A_ALLOCATABLE);
	mnl_attr_put_u32(nlh, VS_RES_A_CPU, 4000);
	mnl_attr_nest_end(nlh, res);
	mnl_attr_nest_end(nlh, node);
	send_dgram(fd, buf, nlh->nlmsg_len);
	send_ack(req, fd);
}

Test(vsnl_reply, a_value_of_the_wrong_length_is_refused_by_its_path, .timeout = 30)
{
	struct vsnl_err err = { 0 };
	int calls;

	cr_assert_eq(ask(answer_short_value, &err, &calls), -EPROTO, "%s", err.msg);
	cr_assert_eq(err.err, -EPROTO);
	cr_assert_str_eq(err.msg, "vschedd sent a malformed reply: node.allocatable.cpu: "
			 "4 bytes, needs 8");
	cr_assert_eq(calls, 0);
}

/* A node nest whose one attribute says it is 200 bytes long in a nest of 8. */
static void answer_garbage_nest(const struct nlmsghdr *req, int fd)
{
	static unsigned char buf[1024] __attribute__((aligned(8)));
	static const unsigned char garbage[8] = { 200, 0, VS_NODE_A_NAME, 0, 'n', '1', 0, 0 };
	struct nlmsghdr *nlh = reply_start(buf, req);

	mnl_attr_put(nlh, VS_A_NODE | NLA_F_NESTED, sizeof(garbage), garbage);
	send_dgram(fd, buf, nlh->nlmsg_len);
	send_ack(req, fd);
}

Test(vsnl_reply, a_nest_holding_garbage_is_refused, .timeout = 30)
{
	struct vsnl_err err = { 0 };
	int calls;

	cr_assert_eq(ask(answer_garbage_nest, &err, &calls), -EPROTO, "%s", err.msg);
	cr_assert_str_eq(err.msg, "vschedd sent a malformed reply: node: a truncated attribute");
	cr_assert_eq(calls, 0);
}

/*
 * A reply whose header says it ends 8 bytes into its node nest: the rest
 * of the nest is still in the datagram, and must not be read as its.
 */
static void answer_past_the_end(const struct nlmsghdr *req, int fd)
{
	static unsigned char buf[1024] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = reply_start(buf, req);
	struct nlattr *node = mnl_attr_nest_start(nlh, VS_A_NODE);
	size_t full;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_nest_end(nlh, node);
	full = nlh->nlmsg_len;
	nlh->nlmsg_len = (uint32_t)((unsigned char *)node - buf) + 8;
	send_dgram(fd, buf, full);
	send_ack(req, fd);
}

Test(vsnl_reply, an_attribute_past_the_end_of_its_message_is_refused, .timeout = 30)
{
	struct vsnl_err err = { 0 };
	int calls;

	cr_assert_eq(ask(answer_past_the_end, &err, &calls), -EPROTO, "%s", err.msg);
	cr_assert_str_eq(err.msg, "vschedd sent a malformed reply: reply: a truncated attribute");
	cr_assert_eq(calls, 0);
}

/* An error whose extended ack has its message and an OFFS of 2 bytes. */
static void answer_short_offs(const struct nlmsghdr *req, int fd)
{
	static unsigned char buf[1024] __attribute__((aligned(8)));
	static const uint16_t offs = 20;
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	nlh->nlmsg_seq = req->nlmsg_seq;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -EINVAL;
	memcpy(&e->msg, req, sizeof(*req));
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "node.name: required but missing");
	mnl_attr_put(nlh, NLMSGERR_ATTR_OFFS, sizeof(offs), &offs);
	send_dgram(fd, buf, nlh->nlmsg_len);
}

Test(vsnl_reply, an_ack_with_a_truncated_offset_is_refused, .timeout = 30)
{
	struct vsnl_err err = { 0 };
	int calls;

	cr_assert_eq(ask(answer_short_offs, &err, &calls), -EPROTO, "%s", err.msg);
	cr_assert_str_eq(err.msg, "vschedd sent a malformed extended ack: offs: 2 bytes, needs 4");
	cr_assert_not(err.has_offset);
	cr_assert_eq(calls, 0);
}

/* The same error well formed: the daemon's words and its offset. */
static void answer_error(const struct nlmsghdr *req, int fd)
{
	static unsigned char buf[1024] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_ACK_TLVS;
	nlh->nlmsg_seq = req->nlmsg_seq;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -EINVAL;
	memcpy(&e->msg, req, sizeof(*req));
	/* not capped: the request's payload is echoed before the TLVs */
	memcpy(mnl_nlmsg_put_extra_header(nlh, MNL_ALIGN(req->nlmsg_len - NLMSG_HDRLEN)),
	       (const char *)req + NLMSG_HDRLEN, req->nlmsg_len - NLMSG_HDRLEN);
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "node.name: required but missing");
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 20);
	send_dgram(fd, buf, nlh->nlmsg_len);
}

Test(vsnl_reply, a_well_formed_error_keeps_the_daemons_words_and_offset, .timeout = 30)
{
	struct vsnl_err err = { 0 };
	int calls;

	cr_assert_eq(ask(answer_error, &err, &calls), -EINVAL, "%s", err.msg);
	cr_assert_str_eq(err.msg, "node.name: required but missing");
	cr_assert(err.has_offset);
	cr_assert_eq(err.offset, 20);
	cr_assert_eq(calls, 0);
}

/* A notification is read as a reply is: the same value in 4 bytes reaches no callback. */
Test(vsnl_reply, a_malformed_notification_reaches_no_callback, .timeout = 30)
{
	struct nlmsghdr req = { .nlmsg_len = NLMSG_HDRLEN, .nlmsg_seq = 0 };
	struct vsnl_err err = { 0 };
	struct vsnl *c;
	int calls = 0;

	fake_daemon(answer_short_value);
	c = vsnl_open(path, &err);
	cr_assert_not_null(c, "%s", err.msg);
	/* the fake daemon answers whatever it reads first */
	cr_assert_eq(send(vsnl_fd(c), &req, sizeof(req), 0), (ssize_t)sizeof(req));
	cr_assert_eq(vsnl_recv_notifications(c, 10000, count_calls, &calls, &err), -EPROTO,
		     "%s", err.msg);
	cr_assert_str_eq(err.msg, "vschedd sent a malformed reply: node.allocatable.cpu: "
			 "4 bytes, needs 8");
	cr_assert_eq(calls, 0);
	vsnl_close(c);
}

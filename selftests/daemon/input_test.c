// SPDX-License-Identifier: Apache-2.0
/*
 * What comes in over the socket, through a real vschedd: malformed
 * datagrams and messages of every kind, each answered with an error that
 * says what and where and leaving the state as it was; a batch with one
 * bad object that applies nothing; and a dump of 100,000 tasks that
 * arrives complete, through libvsnl as vsctl reads it.
 */
#include <stdalign.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "dtest.h"
#include "lib/vsnl.h"

static struct dtest t;

static void fini(void)
{
	dt_cleanup(&t);
}

TestSuite(vschedd_input, .fini = fini, .timeout = 300);

static void start(void)
{
	struct vschedd_opts o = { .period_ms = 0 };

	dt_start(&t, &o);
}

/* ---- the state, as dumps show it ---- */

static u64 fnv(u64 h, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

/* Every object of every kind, dumped, as one hash of their bytes (headers aside). */
static u64 digest(int fd)
{
	static const u8 cmds[] = { VS_CMD_NODE_GET, VS_CMD_QUEUE_GET, VS_CMD_PODGROUP_GET,
				   VS_CMD_TASK_GET, VS_CMD_PRIOCLASS_GET, VS_CMD_VJOB_GET };
	static char rx[VSCHEDD_REPLY_MAX];
	u64 h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		struct dt_dgram g;
		struct nlmsghdr *nlh;
		bool done = false;

		dt_dgram_init(&g, 4096);
		nlh = dt_msg(&g, cmds[i], NLM_F_DUMP, 777);
		dt_msg_end(&g, nlh);
		dt_send(fd, &g);
		free(g.buf);
		while (!done) {
			ssize_t len = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
			int left = (int)len;

			cr_assert_gt(len, 0, "the dump stopped");
			for (nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
			     nlh = mnl_nlmsg_next(nlh, &left)) {
				cr_assert_eq(nlh->nlmsg_seq, 777);
				if (nlh->nlmsg_type == NLMSG_DONE) {
					done = true;
					break;
				}
				cr_assert_neq(nlh->nlmsg_type, NLMSG_ERROR);
				h = fnv(h, mnl_nlmsg_get_payload(nlh),
					nlh->nlmsg_len - NLMSG_HDRLEN);
			}
		}
	}
	return h;
}

/* Send @len bytes as one datagram; the one answer: its errno, and its message in @msg. */
static int answer(int fd, const void *buf, size_t len, char *msg, size_t size)
{
	static char rx[VSCHEDD_REPLY_MAX];
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)rx;
	const char *text;
	ssize_t n;
	int e;

	cr_assert_eq(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len, "send: %s", strerror(errno));
	n = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
	cr_assert_gt(n, 0, "no answer");
	cr_assert(mnl_nlmsg_ok(nlh, (int)n));
	cr_assert_eq(nlh->nlmsg_type, NLMSG_ERROR, "the answer is not an error");
	e = dt_error(nlh, &text);
	snprintf(msg, size, "%s", text);
	cr_assert_eq(dt_recv(fd, rx, sizeof(rx), 50), 0, "more than one answer");
	return e;
}

/* A few objects, so that "unchanged" means something. */
static void some_state(int fd)
{
	struct dt_dgram g;
	struct nlmsghdr *nlh;
	struct nlattr *n;

	dt_make_nodes(fd, 3);
	dt_dgram_init(&g, 16384);
	nlh = dt_msg(&g, VS_CMD_QUEUE_NEW, 0, 1);
	n = mnl_attr_nest_start(nlh, VS_A_QUEUE);
	mnl_attr_put_strz(nlh, VS_QUEUE_A_NAME, "q1");
	mnl_attr_nest_end(nlh, n);
	dt_msg_end(&g, nlh);
	nlh = dt_msg(&g, VS_CMD_PODGROUP_NEW, 0, 2);
	n = mnl_attr_nest_start(nlh, VS_A_PODGROUP);
	mnl_attr_put_strz(nlh, VS_PG_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_PG_A_NAME, "pg");
	mnl_attr_put_strz(nlh, VS_PG_A_QUEUE, "q1");
	mnl_attr_nest_end(nlh, n);
	dt_msg_end(&g, nlh);
	dt_send_synced(fd, &g);
}

struct bad_case {
	const char *what;
	int error;
	const char *said;		/* a part of the extended ack's message */
};

/* A node request whose nest holds what @fill puts there. */
static size_t node_with(char *buf, void (*fill)(struct nlmsghdr *nlh))
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, NLM_F_ACK);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	fill(nlh);
	mnl_attr_nest_end(nlh, n);
	return nlh->nlmsg_len;
}

static void name_without_nul(struct nlmsghdr *nlh)
{
	mnl_attr_put(nlh, VS_NODE_A_NAME, 3, "abc");
}

static void unknown_attribute(struct nlmsghdr *nlh)
{
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "x1");
	mnl_attr_put_u32(nlh, 200, 7);
}

static void wrong_type(struct nlmsghdr *nlh)
{
	u16 two = 2;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "x2");
	mnl_attr_put(nlh, VS_NODE_A_UNSCHEDULABLE, sizeof(two), &two);
}

static void too_deep(struct nlmsghdr *nlh)
{
	struct nlattr *nest[VS_NEST_MAX + 2];
	int i;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "x3");
	nest[0] = mnl_attr_nest_start(nlh, VS_NODE_A_LABELS);
	for (i = 1; i < VS_NEST_MAX + 2; i++)
		nest[i] = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
	while (i--)
		mnl_attr_nest_end(nlh, nest[i]);
}

static void missing_name(struct nlmsghdr *nlh)
{
	mnl_attr_put_u8(nlh, VS_NODE_A_UNSCHEDULABLE, 1);
}

Test(vschedd_input, malformed_messages_are_refused_and_change_nothing)
{
	alignas(NLMSG_ALIGNTO) static char buf[8192];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g;
	char msg[256];
	u64 before;
	int fd;

	start();
	fd = dt_connect(t.path);
	some_state(fd);
	before = digest(fd);
	cr_assert_eq(digest(fd), before, "the digest is stable");

	/* A datagram shorter than a message header. */
	memset(buf, 0, sizeof(buf));
	cr_assert_eq(answer(fd, buf, 10, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "truncated message header: 10 bytes"), "%s", msg);

	/* A length past the end of the datagram. */
	nlh = nlt_request(buf, VS_CMD_STATS_GET, 0);
	nlh->nlmsg_len = 4000;
	cr_assert_eq(answer(fd, buf, NLMSG_HDRLEN + GENL_HDRLEN, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "runs past the end of the datagram"), "%s", msg);

	/* A length shorter than the header it is in. */
	nlh = nlt_request(buf, VS_CMD_STATS_GET, 0);
	nlh->nlmsg_len = 8;
	cr_assert_eq(answer(fd, buf, NLMSG_HDRLEN + GENL_HDRLEN, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "shorter than the message header"), "%s", msg);

	/* No generic netlink header. */
	nlh = nlt_request(buf, VS_CMD_STATS_GET, 0);
	nlh->nlmsg_len = NLMSG_HDRLEN;
	cr_assert_eq(answer(fd, buf, NLMSG_HDRLEN, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "generic netlink header missing"), "%s", msg);

	/* Another family, an unknown command, not a request. */
	nlh = nlt_request(buf, VS_CMD_STATS_GET, 0);
	nlh->nlmsg_type = 0x77;
	cr_assert_eq(answer(fd, buf, nlh->nlmsg_len, msg, sizeof(msg)), -ENOENT);
	cr_assert(strstr(msg, "unknown family id 0x77"), "%s", msg);
	nlh = nlt_request(buf, VS_CMD_STATS_GET, 0);
	g = mnl_nlmsg_get_payload(nlh);
	g->cmd = 250;
	cr_assert_eq(answer(fd, buf, nlh->nlmsg_len, msg, sizeof(msg)), -EOPNOTSUPP);
	cr_assert(strstr(msg, "unknown command 250"), "%s", msg);
	nlh = nlt_request(buf, VS_CMD_STATS_GET, 0);
	nlh->nlmsg_flags = 0;
	cr_assert_eq(answer(fd, buf, nlh->nlmsg_len, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "NLM_F_REQUEST not set"), "%s", msg);

	/* Attributes: no NUL, unknown, of the wrong size, nested too deep, a name missing. */
	cr_assert_eq(answer(fd, buf, node_with(buf, name_without_nul), msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "node.name (VS_NODE_A_NAME): string not NUL-terminated"), "%s", msg);
	cr_assert_eq(answer(fd, buf, node_with(buf, unknown_attribute), msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "unknown attribute type 200"), "%s", msg);
	cr_assert_eq(answer(fd, buf, node_with(buf, wrong_type), msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "VS_NODE_A_UNSCHEDULABLE"), "%s", msg);
	cr_assert_eq(answer(fd, buf, node_with(buf, too_deep), msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "node.labels"), "%s", msg);
	cr_assert_eq(answer(fd, buf, node_with(buf, missing_name), msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "node.name (VS_NODE_A_NAME): required but missing"), "%s", msg);

	/* Nothing of it changed anything, and the daemon still serves. */
	cr_assert_eq(digest(fd), before);
	close(fd);
	cr_assert_eq(dt_stop(&t), 0);
}

Test(vschedd_input, a_batch_with_one_bad_object_applies_nothing_and_names_it)
{
	struct vsnl_err err = { 0 };
	struct nlattr *n;
	struct nl_msg *m;
	struct vsnl *c;
	u64 before;
	int fd, ret;

	start();
	fd = dt_connect(t.path);
	some_state(fd);
	before = digest(fd);
	c = vsnl_open(t.path, &err);
	cr_assert_not_null(c, "%s", err.msg);
	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_BATCH_BEGIN, 0), NULL, NULL, &err), 0,
		     "%s", err.msg);
	for (int i = 0; i < 20; i++) {
		char name[16];

		snprintf(name, sizeof(name), "b%02d", i);
		m = vsnl_msg_new(VS_CMD_TASK_NEW, 0);
		n = nla_nest_start(m, VS_A_TASK);
		nla_put_string(m, VS_TASK_A_NAMESPACE, "ns");
		nla_put_string(m, VS_TASK_A_NAME, name);
		/* The eleventh names a PodGroup that does not exist. */
		nla_put_string(m, VS_TASK_A_PODGROUP, i == 10 ? "nopg" : "pg");
		nla_nest_end(m, n);
		cr_assert_eq(vsnl_request(c, m, NULL, NULL, &err), 0, "%s", err.msg);
	}
	ret = vsnl_request(c, vsnl_msg_new(VS_CMD_BATCH_END, 0), NULL, NULL, &err);
	cr_assert_lt(ret, 0);
	cr_assert(strstr(err.msg, "batch not applied") && strstr(err.msg, "task ns/b10"), "%s",
		  err.msg);
	cr_assert_eq(digest(fd), before, "the ten tasks before it are gone again");
	vsnl_close(c);
	close(fd);
}

/* ---- a dump of 100k tasks ---- */

static int count(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	cr_assert_not_null(tb[VS_A_TASK]);
	(*(unsigned int *)arg)++;
	return 0;
}

Test(vschedd_input, a_dump_of_100k_tasks_arrives_complete)
{
	const unsigned int n = 100000;
	struct vsnl_err err = { 0 };
	unsigned int seen = 0;
	struct dt_dgram g;
	struct nlmsghdr *nlh;
	struct nlattr *a;
	struct vsnl *c;
	int fd;

	start();
	fd = dt_connect(t.path);
	some_state(fd);
	/* 100k tasks without acks, in datagrams of 128 KiB; then one acked request. */
	dt_dgram_init(&g, 128 << 10);
	for (unsigned int i = 0; i < n; i++) {
		char name[16];

		if (g.len + 4096 > g.cap)
			dt_send(fd, &g);
		snprintf(name, sizeof(name), "t%06u", i);
		nlh = dt_msg(&g, VS_CMD_TASK_NEW, 0, i + 10);
		a = mnl_attr_nest_start(nlh, VS_A_TASK);
		mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
		mnl_attr_put_strz(nlh, VS_TASK_A_NAME, name);
		mnl_attr_put_strz(nlh, VS_TASK_A_PODGROUP, "pg");
		mnl_attr_nest_end(nlh, a);
		dt_msg_end(&g, nlh);
	}
	dt_send_synced(fd, &g);
	close(fd);

	c = vsnl_open(t.path, &err);
	cr_assert_not_null(c, "%s", err.msg);
	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_TASK_GET, NLM_F_DUMP), count, &seen,
				  &err), 0, "%s", err.msg);
	cr_assert_eq(seen, n, "%u of %u tasks", seen, n);
	vsnl_close(c);
}

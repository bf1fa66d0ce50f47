// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl and vsctl's renderer against the real protocol on a real socket:
 * a child process serves one connection with the core's dispatcher
 * (vs_genl_rcv_msg, as the daemon answers), and the test talks to it as
 * vsctl does. Requests, acks, errors with their extended ack, and dumps in
 * several parts all cross the socket.
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
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "lib/render.h"
#include "lib/vsnl.h"
#include "netlink/family.h"
#include "netlink/handlers.h"
#include "netlink/msg.h"

/* Small parts, so that a dump of a few dozen nodes takes several. */
#define PART_SIZE	2048

static char path[64];
static pid_t server;

/* The child: answer every message of one client until it goes. */
static void serve(int lfd)
{
	static unsigned char rx[VS_MSG_MAX], tx[PART_SIZE];
	struct vs_cluster cl;
	struct vs_arena arena;
	struct vs_nl_core core = { .cl = &cl, .arena = &arena };
	struct vs_genl_ctx ctx = { .portid = 7, .admin = true, .priv = &core };
	int fd = accept(lfd, NULL, NULL);
	ssize_t n;

	if (fd < 0 || vs_cluster_init(&cl))
		_exit(1);
	vs_arena_init(&arena, 4096);
	while ((n = recv(fd, rx, sizeof(rx), 0)) > 0) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)rx;
		struct vs_genl_dump dump;
		struct vs_nl_reply reply;
		struct vs_extack ext;
		int ret;

		vs_nl_reply_init(&reply, tx, sizeof(tx), ctx.portid);
		vs_extack_clear(&ext);
		ret = vs_genl_rcv_msg(&ctx, nlh, &reply, &dump, &ext);
		for (;;) {
			if (send(fd, tx, reply.len, 0) < 0)
				_exit(1);
			if (ret != 1)
				break;
			vs_nl_reply_init(&reply, tx, sizeof(tx), ctx.portid);
			vs_extack_clear(&ext);
			ret = vs_genl_dump_next(&ctx, nlh, &reply, &dump, &ext);
		}
	}
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&cl);
	_exit(0);
}

static void setup(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd;

	snprintf(path, sizeof(path), "/tmp/vsnl-test-%d.sock", getpid());
	unlink(path);
	strcpy(sa.sun_path, path);
	lfd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	cr_assert_geq(lfd, 0);
	cr_assert_eq(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0, "%s", strerror(errno));
	cr_assert_eq(listen(lfd, 1), 0);
	server = fork();
	cr_assert_geq(server, 0);
	if (!server)
		serve(lfd);
	close(lfd);
}

static void teardown(void)
{
	int status;

	kill(server, SIGTERM);
	waitpid(server, &status, 0);
	unlink(path);
}

TestSuite(vsnl, .init = setup, .fini = teardown);

static struct vsnl *connect_ok(void)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = vsnl_open(path, &err);

	cr_assert_not_null(c, "%s", err.msg);
	return c;
}

static int new_node(struct vsnl *c, const char *name, long long mcpu, struct vsnl_err *err)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_NODE_NEW, 0);
	struct nlattr *node = nla_nest_start(m, VS_A_NODE), *res;

	nla_put_string(m, VS_NODE_A_NAME, name);
	res = nla_nest_start(m, VS_NODE_A_ALLOCATABLE);
	nla_put_u64(m, VS_RES_A_CPU, (u64)mcpu);
	nla_put_u64(m, VS_RES_A_MEMORY, 4ULL << 30);
	nla_put_u64(m, VS_RES_A_PODS, 110);
	nla_nest_end(m, res);
	nla_nest_end(m, node);
	return vsnl_request(c, m, NULL, NULL, err);
}

/* Every reply rendered, appended to the array @arg. */
static int collect(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	json_t *obj = vsnl_render_msg(nlh);

	cr_assert_not_null(obj);
	return json_array_append_new(arg, obj) ? -ENOMEM : 0;
}

Test(vsnl, an_object_made_through_the_socket_renders_as_vsctl_shows_it)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = connect_ok();
	json_t *got = json_array(), *node;
	struct nl_msg *m;
	struct nlattr *key;
	char *text;

	cr_assert_eq(new_node(c, "n1", 1500, &err), 0, "%s", err.msg);
	m = vsnl_msg_new(VS_CMD_NODE_GET, 0);
	key = nla_nest_start(m, VS_A_NODE);
	nla_put_string(m, VS_NODE_A_NAME, "n1");
	nla_nest_end(m, key);
	cr_assert_eq(vsnl_request(c, m, collect, got, &err), 0, "%s", err.msg);
	cr_assert_eq(json_array_size(got), 1);
	node = json_object_get(json_array_get(got, 0), "node");
	text = json_dumps(node, JSON_COMPACT | JSON_SORT_KEYS);
	cr_assert_str_eq(text,
			 "{\"allocatable\":{\"cpu\":\"1500m\",\"memory\":\"4Gi\",\"pods\":\"110\"},"
			 "\"idle\":{\"cpu\":\"1500m\",\"memory\":\"4Gi\",\"pods\":\"110\"},"
			 "\"name\":\"n1\",\"nrTasks\":0,"
			 "\"pipelined\":{\"cpu\":\"0\",\"memory\":\"0\"},"
			 "\"ready\":true,"
			 "\"releasing\":{\"cpu\":\"0\",\"memory\":\"0\"},"
			 "\"unschedulable\":false,"
			 "\"used\":{\"cpu\":\"0\",\"memory\":\"0\"}}");
	free(text);
	json_decref(got);
	vsnl_close(c);
}

Test(vsnl, a_creation_time_renders_as_kubernetes_writes_it)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = connect_ok();
	json_t *got = json_array(), *queue;
	struct nl_msg *m = vsnl_msg_new(VS_CMD_QUEUE_NEW, 0);
	struct nlattr *q = nla_nest_start(m, VS_A_QUEUE);

	nla_put_string(m, VS_QUEUE_A_NAME, "timed");
	nla_put_u64(m, VS_QUEUE_A_CREATED, 1795428000);
	nla_nest_end(m, q);
	cr_assert_eq(vsnl_request(c, m, NULL, NULL, &err), 0, "%s", err.msg);
	m = vsnl_msg_new(VS_CMD_QUEUE_GET, 0);
	q = nla_nest_start(m, VS_A_QUEUE);
	nla_put_string(m, VS_QUEUE_A_NAME, "timed");
	nla_nest_end(m, q);
	cr_assert_eq(vsnl_request(c, m, collect, got, &err), 0, "%s", err.msg);
	queue = json_object_get(json_array_get(got, 0), "queue");
	cr_assert_str_eq(json_string_value(json_object_get(queue, "creationTimestamp")),
			 "2026-11-23T10:00:00Z");
	json_decref(got);
	vsnl_close(c);
}

Test(vsnl, an_error_comes_back_with_the_daemons_words)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = connect_ok();
	struct nl_msg *m;
	struct nlattr *key;

	cr_assert_eq(new_node(c, "n1", 1000, &err), 0, "%s", err.msg);
	cr_assert_eq(new_node(c, "n1", 1000, &err), -EEXIST);
	cr_assert(strstr(err.msg, "n1"), "message: %s", err.msg);
	m = vsnl_msg_new(VS_CMD_NODE_DEL, 0);
	key = nla_nest_start(m, VS_A_NODE);
	nla_put_string(m, VS_NODE_A_NAME, "nope");
	nla_nest_end(m, key);
	memset(&err, 0, sizeof(err));
	cr_assert_eq(vsnl_request(c, m, NULL, NULL, &err), -ENOENT);
	cr_assert(strstr(err.msg, "nope"), "message: %s", err.msg);
	vsnl_close(c);
}

Test(vsnl, a_dump_in_many_parts_arrives_whole_and_in_order)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = connect_ok();
	json_t *got = json_array(), *msg;
	char name[32];
	size_t i;

	for (i = 0; i < 60; i++) {
		snprintf(name, sizeof(name), "node-%02zu", i);
		cr_assert_eq(new_node(c, name, 1000 + (long long)i, &err), 0, "%s", err.msg);
	}
	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_NODE_GET, NLM_F_DUMP), collect, got,
				  &err), 0, "%s", err.msg);
	cr_assert_eq(json_array_size(got), 60);
	json_array_foreach(got, i, msg) {
		snprintf(name, sizeof(name), "node-%02zu", i);
		cr_assert_str_eq(json_string_value(json_object_get(json_object_get(msg, "node"),
								   "name")), name);
	}
	json_decref(got);
	vsnl_close(c);
}

Test(vsnl, no_daemon_is_an_error_that_names_the_socket)
{
	struct vsnl_err err = { 0 };

	cr_assert_null(vsnl_open("/tmp/no-such-vsched.sock", &err));
	cr_assert(strstr(err.msg, "/tmp/no-such-vsched.sock"), "%s", err.msg);
}

/*
 * A client's message around the daemon's: the longest the daemon sends,
 * under a prefix naming a document with the longest names, is kept whole.
 */
Test(vsnl_err, a_daemons_longest_message_under_a_documents_name_is_kept_whole)
{
	char daemon[VS_ERR_MSG_MAX], ns[64], name[254], want[VSNL_ERR_MSG_MAX];
	struct vsnl_err err = { 0 };

	memset(daemon, 'd', sizeof(daemon) - 1);
	daemon[sizeof(daemon) - 1] = '\0';
	memset(ns, 'n', sizeof(ns) - 1);
	ns[sizeof(ns) - 1] = '\0';
	memset(name, 'p', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	cr_assert_eq(vsnl_err_set(&err, EINVAL, "%s", daemon), -EINVAL);
	vsnl_err_prefix(&err, "manifests/cluster.yaml:123456: document 99999 (Pod %s/%s): "
			"spec.containers[15].resources.requests[nvidia.com/gpu]: ", ns, name);
	snprintf(want, sizeof(want), "manifests/cluster.yaml:123456: document 99999 (Pod %s/%s): "
		 "spec.containers[15].resources.requests[nvidia.com/gpu]: %s", ns, name, daemon);
	cr_assert_str_eq(err.msg, want);
	cr_assert_eq(err.err, -EINVAL);
}


// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the object handlers (netlink/handlers.h) through the
 * dispatcher, as a client's requests reach them: NEW with an ack, GET of
 * one object, errors naming the object, and dumps over several parts that
 * resume where they stopped, skip what was deleted meanwhile and apply
 * their filters.
 */
#include "nltest.h"
#include "netlink/handlers.h"

static char req_buf[4096] __attribute__((aligned(4)));
static char out[16384] __attribute__((aligned(4)));
static struct vs_cluster cl;
static struct vs_arena arena;
static struct vs_nl_core core = { .cl = &cl, .arena = &arena };
static struct vs_genl_ctx ctx = { .portid = 3, .admin = true, .priv = &core };
static struct vs_nl_reply reply;
static struct vs_extack ext;
static struct vs_genl_dump dump;

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_arena_init(&arena, 4096);
}

static void teardown(void)
{
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&cl);
}

TestSuite(handlers, .init = setup, .fini = teardown);

static int send_req(const struct nlmsghdr *nlh, size_t cap)
{
	vs_nl_reply_init(&reply, out, cap, 3);
	vs_extack_clear(&ext);
	return vs_genl_rcv_msg(&ctx, nlh, &reply, &dump, &ext);
}

static int new_node(const char *name)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_NODE_NEW, NLM_F_ACK);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, name);
	mnl_attr_nest_end(nlh, n);
	return send_req(nlh, sizeof(out));
}

/*
 * The keys of the objects in the reply's NLM_F_MULTI messages ("ns/name"
 * with @ns_type, else the name), space-separated; whether it ended.
 */
static bool keys_in_reply(char *keys, size_t len, u16 ns_type, u16 name_type)
{
	const struct nlmsghdr *r = (const void *)out;
	int left = (int)reply.len;
	bool done = false;

	keys[0] = '\0';
	for (; mnl_nlmsg_ok(r, left); r = mnl_nlmsg_next(r, &left)) {
		const struct nlattr *a, *b;

		if (r->nlmsg_type == NLMSG_DONE) {
			done = true;
			continue;
		}
		cr_assert(r->nlmsg_flags & NLM_F_MULTI);
		mnl_attr_for_each(a, r, GENL_HDRLEN) {
			const char *ns = NULL, *name = NULL;

			mnl_attr_for_each_nested(b, a) {
				if (ns_type && mnl_attr_get_type(b) == ns_type)
					ns = mnl_attr_get_str(b);
				if (mnl_attr_get_type(b) == name_type)
					name = mnl_attr_get_str(b);
			}
			cr_assert_not_null(name, "an object without its name");
			if (ns) {
				strncat(keys, ns, len - strlen(keys) - 2);
				strcat(keys, "/");
			}
			strncat(keys, name, len - strlen(keys) - 2);
			strcat(keys, " ");
		}
	}
	return done;
}

/* The names of the nodes in the reply, as keys_in_reply(). */
static bool names_in_reply(char *names, size_t len)
{
	return keys_in_reply(names, len, 0, VS_NODE_A_NAME);
}

Test(handlers, new_get_and_errors_name_the_object)
{
	const struct nlmsghdr *r = (const void *)out;
	struct nlmsghdr *nlh;
	struct nlattr *n;

	cr_assert_eq(new_node("n1"), 0, "%s", ext.err.msg);
	cr_assert_eq(r->nlmsg_type, NLMSG_ERROR, "the ack");
	cr_assert_not_null(vs_node_find(&cl, "n1"));
	cr_assert_eq(new_node("n1"), -EEXIST);
	cr_assert_str_eq(ext.err.msg, "node n1: exists already");

	nlh = nlt_request(req_buf, VS_CMD_NODE_GET, 0);
	n = mnl_attr_nest_start(nlh, VS_A_NODE);
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(send_req(nlh, sizeof(out)), 0, "%s", ext.err.msg);
	cr_assert_eq(r->nlmsg_type, VSCHED_GENL_ID);
	cr_assert_eq(r->nlmsg_seq, 42);
	cr_assert_eq(r->nlmsg_pid, 3);

	nlh = nlt_request(req_buf, VS_CMD_NODE_DEL, NLM_F_ACK);
	n = mnl_attr_nest_start(nlh, VS_A_NODE);
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n9");
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(send_req(nlh, sizeof(out)), -ENOENT);
	cr_assert_str_eq(ext.err.msg, "node n9 not found");
	cr_assert(ext.has_offs);
	cr_assert_eq(ext.offs, FIRST_ATTR, "the offset points at the node's nest");
}

Test(handlers, a_dump_resumes_across_parts_and_skips_the_deleted)
{
	char names[512], all[1024] = "";
	struct nlmsghdr *nlh;
	int ret, parts = 0;

	for (int i = 0; i < 12; i++) {
		char name[24];

		snprintf(name, sizeof(name), "node-%02d", i % 100);
		cr_assert_eq(new_node(name), 0, "%s", ext.err.msg);
	}
	nlh = nlt_request(req_buf, VS_CMD_NODE_GET, NLM_F_DUMP);
	/* small parts: a few nodes each, and room for the error kept aside */
	ret = send_req(nlh, VS_NL_ERROR_MIN + 1200);
	while (ret == 1) {
		cr_assert_not(names_in_reply(names, sizeof(names)));
		cr_assert_neq(names[0], '\0', "an empty part");
		strcat(all, names);
		if (++parts == 1) {
			/* between parts: one node already sent and one still to come go */
			vs_node_del(&cl, vs_node_find(&cl, "node-00"), NULL);
			vs_node_del(&cl, vs_node_find(&cl, "node-11"), NULL);
		}
		vs_nl_reply_init(&reply, out, VS_NL_ERROR_MIN + 1200, 3);
		ret = vs_genl_dump_next(&ctx, nlh, &reply, &dump, &ext);
	}
	cr_assert_eq(ret, 0, "%s", ext.err.msg);
	cr_assert(names_in_reply(names, sizeof(names)), "no NLMSG_DONE");
	strcat(all, names);
	cr_assert_gt(parts, 1, "the dump fitted one part: the test proves nothing");
	cr_assert_str_eq(all, "node-00 node-01 node-02 node-03 node-04 node-05 node-06 node-07 "
			      "node-08 node-09 node-10 ");
}

Test(handlers, a_dump_in_name_order_neither_skips_nor_repeats_around_changes)
{
	char names[512], all[1024] = "";
	struct vs_node_spec spec;
	struct nlmsghdr *nlh;
	int ret, parts = 0;

	/* Made in reverse: the dump's order is the names', not the creation's. */
	for (int i = 19; i >= 0; i--) {
		char name[24];

		snprintf(name, sizeof(name), "node-%02d", i);
		cr_assert_eq(new_node(name), 0, "%s", ext.err.msg);
	}
	nlh = nlt_request(req_buf, VS_CMD_NODE_GET, NLM_F_DUMP);
	ret = send_req(nlh, VS_NL_ERROR_MIN + 1200);
	while (ret == 1) {
		cr_assert_not(names_in_reply(names, sizeof(names)));
		strcat(all, names);
		if (++parts == 1) {
			cr_assert_str_eq(all, "node-00 node-01 node-02 node-03 node-04 ",
					 "the first part: %s", all);
			/*
			 * Between parts, other objects come and go on both
			 * sides of the last key sent: one sent and one still to
			 * come deleted, one that sorts before the key and one
			 * that sorts after it added.
			 */
			cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "node-01"), NULL), 0);
			cr_assert_eq(vs_node_del(&cl, vs_node_find(&cl, "node-18"), NULL), 0);
			vs_node_spec_init(&spec, "node-005");
			cr_assert_eq(vs_node_add(&cl, &spec, NULL, NULL), 0);
			vs_node_spec_init(&spec, "node-155");
			cr_assert_eq(vs_node_add(&cl, &spec, NULL, NULL), 0);
		}
		vs_nl_reply_init(&reply, out, VS_NL_ERROR_MIN + 1200, 3);
		ret = vs_genl_dump_next(&ctx, nlh, &reply, &dump, &ext);
	}
	cr_assert_eq(ret, 0, "%s", ext.err.msg);
	cr_assert(names_in_reply(names, sizeof(names)), "no NLMSG_DONE");
	strcat(all, names);
	cr_assert_gt(parts, 2, "the dump fitted two parts: the test proves little");
	cr_assert_str_eq(all, "node-00 node-01 node-02 node-03 node-04 node-05 node-06 node-07 "
			      "node-08 node-09 node-10 node-11 node-12 node-13 node-14 node-15 "
			      "node-155 node-16 node-17 node-19 ", "%s", all);
	/* the trees made for the dump were kept by the adds and deletes */
	cr_assert_eq(vs_cluster_check(&cl, &ext.err), 0, "%s", ext.err.msg);
}

Test(handlers, task_dumps_list_by_namespace_then_name)
{
	const char *const tasks[][3] = {
		{ "b", "t2", "pg-b" }, { "a", "z1", "pg-a" }, { "b", "t10", "pg-b2" },
		{ "a", "a9", "pg-a" }, { "b", "a1", "pg-b2" },
	};
	struct vs_job_spec js;
	struct vs_task_spec ts;
	char keys[512];

	vs_job_spec_init(&js, "b", "pg-b2");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	vs_job_spec_init(&js, "a", "pg-a");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	vs_job_spec_init(&js, "b", "pg-b");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	for (size_t i = 0; i < ARRAY_SIZE(tasks); i++) {
		vs_task_spec_init(&ts, tasks[i][0], tasks[i][1], tasks[i][2]);
		cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);
	}
	cr_assert_eq(send_req(nlt_request(req_buf, VS_CMD_TASK_GET, NLM_F_DUMP), sizeof(out)), 0,
		     "%s", ext.err.msg);
	cr_assert(keys_in_reply(keys, sizeof(keys), VS_TASK_A_NAMESPACE, VS_TASK_A_NAME));
	/* Neither by PodGroup nor by creation: as kubectl get pods -A. */
	cr_assert_str_eq(keys, "a/a9 a/z1 b/a1 b/t10 b/t2 ");
	cr_assert_eq(send_req(nlt_request(req_buf, VS_CMD_PODGROUP_GET, NLM_F_DUMP), sizeof(out)),
		     0, "%s", ext.err.msg);
	cr_assert(keys_in_reply(keys, sizeof(keys), VS_PG_A_NAMESPACE, VS_PG_A_NAME));
	cr_assert_str_eq(keys, "a/pg-a b/pg-b b/pg-b2 ");
}

Test(handlers, task_dumps_apply_their_filters)
{
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_node_spec ns;
	struct nlmsghdr *nlh;
	const struct nlmsghdr *r;
	int left, tasks = 0;

	vs_node_spec_init(&ns, "n1");
	vs_res_set(&ns.allocatable, VS_RES_PODS, 10);
	cr_assert_eq(vs_node_add(&cl, &ns, NULL, NULL), 0);
	vs_job_spec_init(&js, "ns", "pg");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "pending", "pg");
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "running", "pg");
	ts.status = VS_TASK_RUNNING;
	ts.node = "n1";
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);

	nlh = nlt_request(req_buf, VS_CMD_TASK_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, VS_A_FILTER_NODE, "n1");
	mnl_attr_put_u32(nlh, VS_A_FILTER_STATUS, 1 << VS_TASK_STATUS_RUNNING);
	cr_assert_eq(send_req(nlh, sizeof(out)), 0, "%s", ext.err.msg);
	r = (const void *)out;
	left = (int)reply.len;
	for (; mnl_nlmsg_ok(r, left); r = mnl_nlmsg_next(r, &left))
		tasks += r->nlmsg_type == VSCHED_GENL_ID;
	cr_assert_eq(tasks, 1, "only the running task on n1");
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the _spec fills (netlink/fill.h): an object written as its NEW
 * request and sent to another core makes the same object there, down to
 * every attribute a GET shows, derived accounting (idle, allocated, counts)
 * included. This is what checkpoints, "vsctl dump" and loading a generated
 * cluster into a daemon rely on.
 */
#include "nltest.h"
#include "netlink/fill.h"
#include "netlink/handlers.h"

static char req[8192] __attribute__((aligned(4)));
static char out[8192] __attribute__((aligned(4)));
static char a_buf[8192] __attribute__((aligned(4)));
static char b_buf[8192] __attribute__((aligned(4)));

static struct vs_cluster src, dst;
static struct vs_arena arena;
static struct vs_nl_core core = { .cl = &dst, .arena = &arena };
static struct vs_genl_ctx ctx = { .portid = 3, .admin = true, .priv = &core };

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&src), 0);
	cr_assert_eq(vs_cluster_init(&dst), 0);
	vs_arena_init(&arena, 4096);
}

static void teardown(void)
{
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&dst);
	vs_cluster_destroy(&src);
}

TestSuite(replay, .init = setup, .fini = teardown);

/* Send the NEW request @fill writes for @obj to the destination core; it must be acked. */
#define REPLAY(_cmd, _fill, _obj)							\
	do {										\
		struct nlmsghdr *nlh = nlt_request(req, (_cmd), NLM_F_ACK);		\
		struct vs_nl_reply reply;						\
		struct vs_genl_dump dump;						\
		struct vs_extack ext;							\
											\
		cr_assert(_fill(nlh, sizeof(req), (_obj)));				\
		vs_nl_reply_init(&reply, out, sizeof(out), 3);				\
		vs_extack_clear(&ext);							\
		cr_assert_eq(vs_genl_rcv_msg(&ctx, nlh, &reply, &dump, &ext), 0,	\
			     "%s: %s", #_cmd, ext.err.msg);					\
	} while (0)

/* The full GET fills of @a (source) and @b (destination) are the same bytes. */
#define SAME(_fill, _a, _b)								\
	do {										\
		struct nlmsghdr *x = nlt_request(a_buf, VS_CMD_UNSPEC, 0);		\
		struct nlmsghdr *y = nlt_request(b_buf, VS_CMD_UNSPEC, 0);		\
											\
		cr_assert_not_null(_b);							\
		cr_assert(_fill(x, sizeof(a_buf), (_a)));				\
		cr_assert(_fill(y, sizeof(b_buf), (_b)));				\
		cr_assert_eq(x->nlmsg_len, y->nlmsg_len, "%s: %u against %u bytes",	\
			     #_fill, x->nlmsg_len, y->nlmsg_len);			\
		cr_assert_eq(memcmp(x, y, x->nlmsg_len), 0, "%s differs", #_fill);	\
	} while (0)

Test(replay, every_object_comes_back_the_same_through_its_new_request)
{
	const struct vs_kv_spec labels[] = { { "zone", "a" }, { "kubernetes.io/arch", "" } };
	const struct vs_taint_spec taints[] = { { "dedicated", "gpu", VS_TAINT_NO_SCHEDULE } };
	const struct vs_role_min_spec roles[] = { { "worker", 1 } };
	const struct vs_toleration_spec tols[] = {
		{ .key = "dedicated", .op = VS_TOLERATION_EQUAL, .value = "gpu",
		  .effect = VS_TAINT_NO_SCHEDULE },
	};
	const char *const zones[] = { "a", "b" };
	const struct vs_sel_req_spec expr[] = { { "zone", VS_SEL_IN, zones, 2 } };
	const struct vs_node_selector_term_spec term = { expr, 1, NULL, 0 };
	const struct vs_node_selector_spec required = { &term, 1 };
	const struct vs_node_affinity_spec na = { &required, NULL, 0 };
	const struct vs_affinity_spec aff = { &na, NULL, NULL };
	struct vs_prioclass_spec ps = { .name = "high", .value = 100, .global_default = true };
	struct vs_node_spec nspec;
	struct vs_queue_spec qspec;
	struct vs_job_spec jspec;
	struct vs_task_spec tspec;
	struct vs_err e = { { 0 } };
	struct vs_node *n;
	struct vs_queue *q;
	struct vs_job *j;
	struct vs_task *t0, *t1;
	struct vs_prioclass *pc;

	cr_assert_eq(vs_prioclass_add(&src, &ps, &pc, &e), 0, "%s", e.msg);
	vs_queue_spec_init(&qspec, "q1");
	qspec.weight = 3;
	qspec.has_capability = true;
	vs_res_set(&qspec.capability, VS_RES_CPU, 4000);
	cr_assert_eq(vs_queue_add(&src, &qspec, &q, &e), 0, "%s", e.msg);
	vs_node_spec_init(&nspec, "n1");
	vs_res_set(&nspec.allocatable, VS_RES_CPU, 8000);
	vs_res_set(&nspec.allocatable, VS_RES_MEMORY, 16LL << 30);
	vs_res_set(&nspec.allocatable, VS_RES_PODS, 110);
	cr_assert_eq(vs_res_set_quantity(&src.dims, &nspec.allocatable, "nvidia.com/gpu", 14, "4",
					 1, &e), 0);
	nspec.labels = labels;
	nspec.nr_labels = 2;
	nspec.taints = taints;
	nspec.nr_taints = 1;
	cr_assert_eq(vs_node_add(&src, &nspec, &n, &e), 0, "%s", e.msg);
	vs_job_spec_init(&jspec, "ns", "pg");
	jspec.queue = "q1";
	jspec.min_member = 2;
	jspec.min_task_member = roles;
	jspec.nr_min_task_member = 1;
	jspec.priority_class = "high";
	jspec.phase = VS_PG_RUNNING;
	cr_assert_eq(vs_job_add(&src, &jspec, &j, &e), 0, "%s", e.msg);
	vs_task_spec_init(&tspec, "ns", "pg-worker-0", "pg");
	tspec.role = "worker";
	tspec.status = VS_TASK_RUNNING;
	tspec.node = "n1";
	vs_res_set(&tspec.req, VS_RES_CPU, 1500);
	vs_res_set(&tspec.req, VS_RES_MEMORY, 1LL << 30);
	tspec.tolerations = tols;
	tspec.nr_tolerations = 1;
	cr_assert_eq(vs_task_add(&src, &tspec, &t0, &e), 0, "%s", e.msg);
	vs_task_spec_init(&tspec, "ns", "pg-worker-1", "pg");
	tspec.role = "worker";
	vs_res_set(&tspec.req, VS_RES_CPU, 500);
	tspec.labels = labels;
	tspec.nr_labels = 1;
	tspec.affinity = &aff;
	tspec.preemptable = false;
	cr_assert_eq(vs_task_add(&src, &tspec, &t1, &e), 0, "%s", e.msg);

	REPLAY(VS_CMD_PRIOCLASS_NEW, vs_nl_put_prioclass_spec, pc);
	REPLAY(VS_CMD_QUEUE_NEW, vs_nl_put_queue_spec, q);
	REPLAY(VS_CMD_NODE_NEW, vs_nl_put_node_spec, n);
	REPLAY(VS_CMD_PODGROUP_NEW, vs_nl_put_podgroup_spec, j);
	REPLAY(VS_CMD_TASK_NEW, vs_nl_put_task_spec, t0);
	REPLAY(VS_CMD_TASK_NEW, vs_nl_put_task_spec, t1);

	SAME(vs_nl_put_prioclass, pc, vs_prioclass_find(&dst, "high"));
	SAME(vs_nl_put_queue, q, vs_queue_find(&dst, "q1"));
	SAME(vs_nl_put_node, n, vs_node_find(&dst, "n1"));
	SAME(vs_nl_put_podgroup, j, vs_job_find(&dst, "ns", "pg"));
	SAME(vs_nl_put_task, t0, vs_task_find(&dst, "ns", "pg-worker-0"));
	SAME(vs_nl_put_task, t1, vs_task_find(&dst, "ns", "pg-worker-1"));
	cr_assert_eq(vs_cluster_check(&dst, &e), 0, "%s", e.msg);
}

Test(replay, a_spec_fill_carries_no_read_only_attribute)
{
	struct vs_node_spec nspec;
	struct vs_err e = { { 0 } };
	struct vs_node *n;
	struct nlmsghdr *nlh = nlt_request(req, VS_CMD_NODE_NEW, 0);
	const struct nlattr *nest, *a;
	int seen = 0;

	vs_node_spec_init(&nspec, "n1");
	vs_res_set(&nspec.allocatable, VS_RES_CPU, 1000);
	cr_assert_eq(vs_node_add(&src, &nspec, &n, &e), 0, "%s", e.msg);
	cr_assert(vs_nl_put_node_spec(nlh, sizeof(req), n));
	nest = mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN);
	mnl_attr_for_each_nested(a, nest) {
		u16 type = mnl_attr_get_type(a);

		cr_assert(type != VS_NODE_A_IDLE && type != VS_NODE_A_USED &&
			  type != VS_NODE_A_RELEASING && type != VS_NODE_A_PIPELINED &&
			  type != VS_NODE_A_NR_TASKS, "read-only attribute %u written", type);
		seen++;
	}
	cr_assert_geq(seen, 2);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the object codec (netlink/fill.h, parse.h): every object put
 * into a message and read back gives the spec it was made from, so GET
 * followed by NEW recreates the object; a buffer too small for an object
 * leaves the message as it was; the core's refusals come through parse.
 */
#include <libmnl/libmnl.h>
#include <string.h>
#include <criterion/criterion.h>

#include "netlink/fill.h"
#include "netlink/parse.h"
#include "vsched/vsched.h"

#define GI (1024LL * 1024 * 1024)

static struct vs_cluster cl, cl2;
static struct vs_arena arena;
static char buf[8192];
static struct nlmsghdr *nlh;

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
	cr_assert_eq(vs_cluster_init(&cl2), 0);
	vs_arena_init(&arena, 4096);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = VSCHED_GENL_ID;
}

static void teardown(void)
{
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&cl2);
	vs_cluster_destroy(&cl);
}

TestSuite(codec, .init = setup, .fini = teardown);

/* The first attribute of the message, an object nest. */
static const struct nlattr *first_attr(void)
{
	return mnl_nlmsg_get_payload(nlh);
}

Test(codec, a_node_reads_back_as_its_spec)
{
	const struct vs_kv_spec labels[] = { { "zone", "a" }, { "kubernetes.io/arch", "arm64" } };
	const struct vs_taint_spec taints[] = { { "dedicated", "gpu", VS_TAINT_NO_SCHEDULE } };
	struct vs_node_spec spec, back;
	struct vs_node *n, *n2;
	int gpu;
	struct vs_err e = { { 0 } };

	vs_node_spec_init(&spec, "n1");
	vs_res_set(&spec.allocatable, VS_RES_CPU, 8000);
	vs_res_set(&spec.allocatable, VS_RES_MEMORY, 32 * GI);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
	cr_assert_eq(vs_res_set_quantity(&cl.dims, &spec.allocatable, "nvidia.com/gpu", 14, "4", 1,
					 &e), 0);
	spec.labels = labels;
	spec.nr_labels = 2;
	spec.taints = taints;
	spec.nr_taints = 1;
	spec.unschedulable = true;
	cr_assert_eq(vs_node_add(&cl, &spec, &n, &e), 0, "%s", e.msg);

	cr_assert(vs_nl_put_node(nlh, sizeof(buf), n));
	vs_node_spec_init(&back, NULL);
	cr_assert_eq(vs_nl_parse_node(&cl2, first_attr(), &arena, &back, &e), 0, "%s", e.msg);
	cr_assert_str_eq(back.name, "n1");
	cr_assert(vs_res_equal(&back.allocatable, &spec.allocatable));
	cr_assert_eq(back.nr_labels, 2);
	cr_assert_eq(back.nr_taints, 1);
	cr_assert_str_eq(back.taints[0].value, "gpu");
	cr_assert(back.unschedulable);
	cr_assert(back.ready);

	/* and it makes the same node elsewhere */
	cr_assert_eq(vs_node_add(&cl2, &back, &n2, &e), 0, "%s", e.msg);
	cr_assert_str_eq(vs_labels_get(n2->labels, vs_str_find(&cl2.strs, "zone", 4)), "a");
	gpu = vs_res_dim_lookup(&cl2.dims, "nvidia.com/gpu", 14);
	cr_assert_geq(gpu, 0);
	cr_assert_eq(vs_res_get(&n2->allocatable, (unsigned int)gpu), 4000);
}

Test(codec, a_task_with_affinity_reads_back_as_its_spec)
{
	const struct vs_kv_spec sel[] = { { "zone", "a" } };
	const char *const zones[] = { "a", "b" };
	const struct vs_sel_req_spec expr[] = { { "zone", VS_SEL_IN, zones, 2 } };
	const struct vs_node_selector_term_spec term = { expr, 1, NULL, 0 };
	const struct vs_node_selector_spec required = { &term, 1 };
	const struct vs_node_pref_term_spec pref = { 30, { expr, 1, NULL, 0 } };
	const struct vs_node_affinity_spec na = { &required, &pref, 1 };
	const struct vs_kv_spec app[] = { { "app", "db" } };
	const struct vs_label_selector_spec lsel = { app, 1, NULL, 0 };
	const struct vs_pod_affinity_term_spec pterm = { &lsel, NULL, 0, NULL, "zone" };
	const struct vs_pod_affinity_spec anti = { &pterm, 1, NULL, 0 };
	const struct vs_affinity_spec aff = { &na, NULL, &anti };
	const struct vs_toleration_spec tol[] = {
		{ "dedicated", VS_TOLERATION_EQUAL, "gpu", VS_TAINT_NO_SCHEDULE, false, 0 },
	};
	const struct vs_host_port_spec ports[] = {
		{ .port = 8080 }, { .port = 53, .protocol = VS_PORT_UDP, .ip = "10.0.0.1" },
		{ .port = 53, .protocol = VS_PORT_SCTP, .ip = "0.0.0.0" },
	};
	const struct vs_host_ports *hp;
	struct vs_task_spec spec, back;
	struct vs_job_spec js;
	struct vs_task *t, *t2;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&js, "ns", "pg");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_job_add(&cl2, &js, NULL, &e), 0, "%s", e.msg);
	vs_task_spec_init(&spec, "ns", "p0", "pg");
	vs_res_set(&spec.req, VS_RES_CPU, 500);
	vs_res_set(&spec.req, VS_RES_MEMORY, GI);
	spec.role = "worker";
	spec.priority = 7;
	spec.node_selector = sel;
	spec.nr_node_selector = 1;
	spec.tolerations = tol;
	spec.nr_tolerations = 1;
	spec.affinity = &aff;
	spec.ports = ports;
	spec.nr_ports = 3;
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);

	cr_assert(vs_nl_put_task(nlh, sizeof(buf), t));
	vs_task_spec_init(&back, NULL, NULL, NULL);
	cr_assert_eq(vs_nl_parse_task(&cl, first_attr(), &arena, &back, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_task_add(&cl2, &back, &t2, &e), 0, "%s", e.msg);
	cr_assert_str_eq(t2->role, "worker");
	cr_assert_eq(t2->priority, 7);
	cr_assert(vs_res_equal(t2->req, t->req), "the pod is counted once, not twice");
	cr_assert_eq(t2->tolerations->nr, 1);
	cr_assert_not_null(t2->affinity);
	cr_assert_eq(t2->affinity->node_affinity->nr_required, 1);
	cr_assert_eq(t2->affinity->node_affinity->required[0].exprs[0].nr_values, 2);
	cr_assert_eq(t2->affinity->node_affinity->preferred[0].weight, 30);
	cr_assert_eq(t2->affinity->pod_anti_affinity->nr_required, 1);
	cr_assert_str_eq(t2->affinity->pod_anti_affinity->required[0].topology_key, "zone");
	cr_assert_null(t2->affinity->pod_affinity);
	hp = vs_task_ports(t2);
	cr_assert_not_null(hp);
	cr_assert_eq(hp->nr, 3);
	cr_assert_eq(hp->p[0].port, 8080);
	cr_assert_eq(hp->p[0].protocol, VS_PORT_TCP);
	cr_assert_null(hp->p[0].ip);
	cr_assert_eq(hp->p[1].protocol, VS_PORT_UDP);
	cr_assert_str_eq(hp->p[1].ip, "10.0.0.1");
	cr_assert_eq(hp->p[2].protocol, VS_PORT_SCTP);
	cr_assert_str_eq(hp->p[2].ip, "0.0.0.0", "kept as written");
}

Test(codec, queues_podgroups_and_priority_classes_read_back)
{
	const struct vs_role_min_spec roles[] = { { "worker", 2 }, { "", 1 } };
	struct vs_queue_spec qs, qback;
	struct vs_job_spec js, jback;
	struct vs_prioclass_spec ps = { .name = "high", .value = 100, .global_default = true };
	struct vs_prioclass_spec pback;
	struct vs_queue *q;
	struct vs_job *j;
	struct vs_prioclass *pc;
	struct vs_err e = { { 0 } };
	const struct nlattr *a;

	vs_queue_spec_init(&qs, "q1");
	qs.weight = 3;
	qs.has_capability = true;
	vs_res_set(&qs.capability, VS_RES_CPU, 4000);
	qs.priority = -2;
	qs.state = VS_QUEUE_CLOSING;
	cr_assert_eq(vs_queue_add(&cl, &qs, &q, &e), 0, "%s", e.msg);
	vs_job_spec_init(&js, "ns", "pg");
	js.queue = "q1";
	js.min_member = 3;
	js.min_task_member = roles;
	js.nr_min_task_member = 2;
	js.has_min_resources = true;
	vs_res_set(&js.min_resources, VS_RES_CPU, 3000);
	js.phase = VS_PG_INQUEUE;
	cr_assert_eq(vs_job_add(&cl, &js, &j, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_prioclass_add(&cl, &ps, &pc, &e), 0, "%s", e.msg);

	cr_assert(vs_nl_put_queue(nlh, sizeof(buf), q));
	cr_assert(vs_nl_put_podgroup(nlh, sizeof(buf), j));
	cr_assert(vs_nl_put_prioclass(nlh, sizeof(buf), pc));
	a = first_attr();
	vs_queue_spec_init(&qback, NULL);
	cr_assert_eq(vs_nl_parse_queue(&cl, a, &arena, &qback, &e), 0, "%s", e.msg);
	cr_assert_eq(qback.weight, 3);
	cr_assert(qback.has_capability);
	cr_assert_eq(vs_res_get(&qback.capability, VS_RES_CPU), 4000);
	cr_assert_eq(qback.priority, -2);
	cr_assert_eq(qback.state, VS_QUEUE_CLOSING);
	a = mnl_attr_next(a);
	vs_job_spec_init(&jback, NULL, NULL);
	cr_assert_eq(vs_nl_parse_podgroup(&cl, a, &arena, &jback, &e), 0, "%s", e.msg);
	cr_assert_str_eq(jback.queue, "q1");
	cr_assert_eq(jback.min_member, 3);
	cr_assert_eq(jback.nr_min_task_member, 2);
	cr_assert_str_eq(jback.min_task_member[0].role, "worker");
	cr_assert(jback.has_min_resources);
	cr_assert_eq(jback.phase, VS_PG_INQUEUE);
	a = mnl_attr_next(a);
	memset(&pback, 0, sizeof(pback));
	cr_assert_eq(vs_nl_parse_prioclass(a, &arena, &pback, &e), 0, "%s", e.msg);
	cr_assert_str_eq(pback.name, "high");
	cr_assert_eq(pback.value, 100);
	cr_assert(pback.global_default);
}

Test(codec, an_object_that_does_not_fit_leaves_the_message_as_it_was)
{
	struct vs_node_spec spec;
	struct vs_node *n;
	u32 before;

	vs_node_spec_init(&spec, "a-node-with-a-long-enough-name");
	cr_assert_eq(vs_node_add(&cl, &spec, &n, NULL), 0);
	before = nlh->nlmsg_len;
	for (size_t cap = before; cap < before + 64; cap += 4) {
		cr_assert_not(vs_nl_put_node(nlh, cap, n), "fit in %zu bytes", cap);
		cr_assert_eq(nlh->nlmsg_len, before, "a partial node stayed at %zu bytes", cap);
	}
	cr_assert(vs_nl_put_node(nlh, sizeof(buf), n));
}

Test(codec, values_the_core_cannot_hold_are_refused)
{
	struct nlattr *obj, *res;
	struct vs_node_spec back;
	struct vs_err e = { { 0 } };

	obj = mnl_attr_nest_start(nlh, VS_A_NODE);
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n");
	res = mnl_attr_nest_start(nlh, VS_NODE_A_ALLOCATABLE);
	mnl_attr_put_u64(nlh, VS_RES_A_CPU, UINT64_MAX);
	mnl_attr_nest_end(nlh, res);
	mnl_attr_nest_end(nlh, obj);
	vs_node_spec_init(&back, NULL);
	cr_assert_eq(vs_nl_parse_node(&cl, first_attr(), &arena, &back, &e), -ERANGE);
	cr_assert_str_eq(e.msg, "allocatable: resource cpu: 18446744073709551615 is too large");
}

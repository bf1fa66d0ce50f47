// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the object commands (netlink/objects.h) on a cluster: NEW,
 * NEW with replace, SET of some attributes, DEL, and that a refused
 * request changes nothing.
 */
#include <libmnl/libmnl.h>
#include <criterion/criterion.h>

#include "netlink/fill.h"
#include "netlink/objects.h"
#include "vsched/vsched.h"

static struct vs_cluster cl;
static struct vs_arena arena;
static char buf[4096];
static struct nlmsghdr *nlh;

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

TestSuite(objects, .init = setup, .fini = teardown);

/* PodGroup ns/@name, made in the core. */
static void add_pg(const char *name)
{
	struct vs_job_spec js;

	vs_job_spec_init(&js, "ns", name);
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
}

/*
 * A new message in buf with task ns/@name of PodGroup "pg", its nest left
 * open for more: the caller closes it (mnl_attr_nest_end(nlh, obj)).
 */
static struct nlattr *task_msg(const char *name)
{
	struct nlattr *obj;

	nlh = mnl_nlmsg_put_header(buf);
	obj = mnl_attr_nest_start(nlh, VS_A_TASK);
	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, name);
	mnl_attr_put_strz(nlh, VS_TASK_A_PODGROUP, "pg");
	return obj;
}

/* A fresh message holding one node nest; returns the nest. */
static const struct nlattr *node_msg(const char *name, s64 mcpu,
				     int unschedulable)
{
	struct nlattr *obj, *res;

	nlh = mnl_nlmsg_put_header(buf);
	obj = mnl_attr_nest_start(nlh, VS_A_NODE);
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, name);
	if (mcpu >= 0) {
		res = mnl_attr_nest_start(nlh, VS_NODE_A_ALLOCATABLE);
		mnl_attr_put_u64(nlh, VS_RES_A_CPU, (u64)mcpu);
		mnl_attr_nest_end(nlh, res);
	}
	if (unschedulable >= 0)
		mnl_attr_put_u8(nlh, VS_NODE_A_UNSCHEDULABLE, (u8)unschedulable);
	mnl_attr_nest_end(nlh, obj);
	return obj;
}

Test(objects, new_set_replace_and_del_a_node)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype(VS_A_NODE);
	struct vs_err e = { { 0 } };
	struct vs_node *n;

	cr_assert_not_null(ot);
	cr_assert_eq(vs_nl_obj_new(ot, &cl, NULL, node_msg("n1", 4000, 1), false, &arena, &e), 0,
		     "%s", e.msg);
	n = vs_node_find(&cl, "n1");
	cr_assert_not_null(n);
	cr_assert_eq(vs_res_get(&n->allocatable, VS_RES_CPU), 4000);
	cr_assert(n->unschedulable);

	cr_assert_eq(vs_nl_obj_new(ot, &cl, NULL, node_msg("n1", 8000, -1), false, &arena, &e),
		     -EEXIST);
	cr_assert_str_eq(e.msg, "node n1: exists already");
	cr_assert_eq(vs_res_get(&n->allocatable, VS_RES_CPU), 4000, "a refused NEW changed it");

	/* SET keeps what it does not name */
	e.msg[0] = '\0';
	cr_assert_eq(vs_nl_obj_set(ot, &cl, NULL, node_msg("n1", 8000, -1), &arena, &e), 0, "%s",
		     e.msg);
	cr_assert_eq(vs_res_get(&n->allocatable, VS_RES_CPU), 8000);
	cr_assert(n->unschedulable, "SET dropped an attribute it was not given");

	/* a replacing NEW takes the defaults for what it leaves out */
	cr_assert_eq(vs_nl_obj_new(ot, &cl, NULL, node_msg("n1", -1, -1), true, &arena, &e), 0,
		     "%s", e.msg);
	cr_assert_not(n->unschedulable);
	cr_assert_eq(vs_res_get(&n->allocatable, VS_RES_CPU), 0);

	cr_assert_eq(vs_nl_obj_set(ot, &cl, NULL, node_msg("n2", 1, -1), &arena, &e), -ENOENT);
	cr_assert_str_eq(e.msg, "node n2 not found");
	e.msg[0] = '\0';
	cr_assert_eq(vs_nl_obj_del(ot, &cl, NULL, node_msg("n1", -1, -1), &e), 0, "%s", e.msg);
	cr_assert_null(vs_node_find(&cl, "n1"));
	cr_assert_eq(cl.nr_nodes, 0);
}

Test(objects, dumps_walk_in_creation_order_across_podgroups)
{
	const struct vs_nl_objtype *tasks = vs_nl_objtype(VS_A_TASK);
	const char *names[] = { "a0", "a1", "b0" };
	struct vs_task_spec ts;
	struct vs_task *t = NULL;

	add_pg("a");
	add_pg("empty");
	add_pg("b");
	vs_task_spec_init(&ts, "ns", "b0", "b");
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "a0", "a");
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "a1", "a");
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);
	for (int i = 0; i < 3; i++) {
		t = vs_nl_obj_next(tasks, &cl, t);
		cr_assert_not_null(t);
		cr_assert_str_eq(t->name, names[i]);
	}
	cr_assert_null(vs_nl_obj_next(tasks, &cl, t));
}

Test(objects, a_task_spec_never_changes)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype(VS_A_TASK);
	struct vs_err e = { { 0 } };
	struct nlattr *obj;

	add_pg("pg");
	obj = task_msg("p");
	mnl_attr_nest_end(nlh, obj);
	cr_assert_eq(vs_nl_obj_new(ot, &cl, NULL, obj, false, &arena, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_nl_obj_set(ot, &cl, NULL, obj, &arena, &e), -EOPNOTSUPP);
	cr_assert_eq(vs_nl_obj_new(ot, &cl, NULL, obj, true, &arena, &e), -EOPNOTSUPP);
	cr_assert_eq(cl.nr_tasks, 1);
}

/* Each type's four commands, by verb, and no other command: the table names them all. */
Test(objects, each_type_knows_its_four_commands_by_verb)
{
	static const struct {
		u16 attr;
		u8 cmd[VS_NL_NR_VERBS];
	} want[] = {
		{ VS_A_NODE, { VS_CMD_NODE_NEW, VS_CMD_NODE_SET, VS_CMD_NODE_DEL, VS_CMD_NODE_GET } },
		{ VS_A_QUEUE, { VS_CMD_QUEUE_NEW, VS_CMD_QUEUE_SET, VS_CMD_QUEUE_DEL,
				VS_CMD_QUEUE_GET } },
		{ VS_A_PODGROUP, { VS_CMD_PODGROUP_NEW, VS_CMD_PODGROUP_SET, VS_CMD_PODGROUP_DEL,
				   VS_CMD_PODGROUP_GET } },
		{ VS_A_TASK, { VS_CMD_TASK_NEW, VS_CMD_TASK_SET, VS_CMD_TASK_DEL, VS_CMD_TASK_GET } },
		{ VS_A_VJOB, { VS_CMD_VJOB_NEW, VS_CMD_VJOB_SET, VS_CMD_VJOB_DEL, VS_CMD_VJOB_GET } },
		{ VS_A_PRIOCLASS, { VS_CMD_PRIOCLASS_NEW, VS_CMD_PRIOCLASS_SET,
				    VS_CMD_PRIOCLASS_DEL, VS_CMD_PRIOCLASS_GET } },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++) {
		const struct vs_nl_objtype *ot = vs_nl_objtype(want[i].attr);

		cr_assert_not_null(ot, "type %u", want[i].attr);
		for (enum vs_nl_verb v = VS_NL_NEW; v < VS_NL_NR_VERBS; v++) {
			cr_expect_eq(vs_nl_objtype_cmd(want[i].cmd[v]), ot, "command %u",
				     want[i].cmd[v]);
			cr_expect_eq(vs_nl_obj_verb(ot, want[i].cmd[v]), v, "command %u",
				     want[i].cmd[v]);
		}
		/* another type's command is none of this one's */
		cr_expect_eq(vs_nl_obj_verb(ot, want[(i + 1) % ARRAY_SIZE(want)].cmd[VS_NL_GET]),
			     VS_NL_NR_VERBS);
	}
	cr_expect_null(vs_nl_objtype_cmd(VS_CMD_TASK_STATUS));
	cr_expect_null(vs_nl_objtype_cmd(VS_CMD_BIND_RESULT));
	cr_expect_null(vs_nl_objtype_cmd(VS_CMD_CONF_SET));
}

/* A PodGroup or queue nest: the key, and a phase or state when @status >= 0. */
static const struct nlattr *status_msg(u16 attr, const char *name, int status)
{
	struct nlattr *obj;

	nlh = mnl_nlmsg_put_header(buf);
	obj = mnl_attr_nest_start(nlh, attr);
	if (attr == VS_A_PODGROUP) {
		mnl_attr_put_strz(nlh, VS_PG_A_NAMESPACE, "ns");
		mnl_attr_put_strz(nlh, VS_PG_A_NAME, name);
		mnl_attr_put_strz(nlh, VS_PG_A_QUEUE, "q");
		if (status >= 0)
			mnl_attr_put_u32(nlh, VS_PG_A_PHASE, (u32)status);
	} else {
		mnl_attr_put_strz(nlh, VS_QUEUE_A_NAME, name);
		mnl_attr_put_u32(nlh, VS_QUEUE_A_WEIGHT, 3);
		if (status >= 0)
			mnl_attr_put_u32(nlh, VS_QUEUE_A_STATE, (u32)status);
	}
	mnl_attr_nest_end(nlh, obj);
	return obj;
}

/* Kubernetes' apply of a spec leaves the status: so does a replacing NEW without one. */
Test(objects, a_replacing_new_without_status_keeps_the_status)
{
	const struct vs_nl_objtype *pgs = vs_nl_objtype(VS_A_PODGROUP);
	const struct vs_nl_objtype *queues = vs_nl_objtype(VS_A_QUEUE);
	struct vs_err e = { { 0 } };
	struct vs_queue *q;
	struct vs_job *pg;

	cr_assert_eq(vs_nl_obj_new(queues, &cl, NULL, status_msg(VS_A_QUEUE, "q", VS_QUEUE_CLOSED),
				   false, &arena, &e), 0, "%s", e.msg);
	q = vs_queue_find(&cl, "q");
	cr_assert_eq(q->state, VS_QUEUE_CLOSED);
	cr_assert_eq(vs_nl_obj_new(queues, &cl, NULL, status_msg(VS_A_QUEUE, "q", -1), true,
				   &arena, &e), 0, "%s", e.msg);
	cr_assert_eq(q->state, VS_QUEUE_CLOSED, "the replacing NEW reset the state");
	cr_assert_eq(vs_nl_obj_new(queues, &cl, NULL, status_msg(VS_A_QUEUE, "q", VS_QUEUE_OPEN),
				   true, &arena, &e), 0, "%s", e.msg);
	cr_assert_eq(q->state, VS_QUEUE_OPEN, "a state given is taken");

	cr_assert_eq(vs_nl_obj_new(pgs, &cl, NULL, status_msg(VS_A_PODGROUP, "pg", VS_PG_RUNNING),
				   false, &arena, &e), 0, "%s", e.msg);
	pg = vs_job_find(&cl, "ns", "pg");
	cr_assert_eq(pg->phase, VS_PG_RUNNING);
	cr_assert_eq(vs_nl_obj_new(pgs, &cl, NULL, status_msg(VS_A_PODGROUP, "pg", -1), true,
				   &arena, &e), 0, "%s", e.msg);
	cr_assert_eq(pg->phase, VS_PG_RUNNING, "the replacing NEW reset the phase");
	cr_assert_eq(vs_nl_obj_new(pgs, &cl, NULL, status_msg(VS_A_PODGROUP, "pg", VS_PG_INQUEUE),
				   true, &arena, &e), 0, "%s", e.msg);
	cr_assert_eq(pg->phase, VS_PG_INQUEUE, "a phase given is taken");
}

/* @a and @b alike, attribute for attribute, padding aside. */
static bool attrs_alike(const struct nlattr *a, const struct nlattr *b)
{
	const struct nlattr *x, *y;

	if (a->nla_type != b->nla_type || a->nla_len != b->nla_len)
		return false;
	if (!(a->nla_type & NLA_F_NESTED))
		return !memcmp(mnl_attr_get_payload(a), mnl_attr_get_payload(b),
			       mnl_attr_get_payload_len(a));
	y = mnl_attr_get_payload(b);
	mnl_attr_for_each_nested(x, a) {
		if (!attrs_alike(x, y))
			return false;
		y = (const struct nlattr *)((const char *)y + MNL_ALIGN(y->nla_len));
	}
	return true;
}

/* The task's spread constraints as given: NEW builds them, the spec fill gives them back alike. */
static void put_spread(struct nlmsghdr *m)
{
	struct nlattr *sp = mnl_attr_nest_start(m, VS_TASK_A_SPREAD), *sel, *labels, *item;

	mnl_attr_put_u32(m, VS_SPREAD_A_MAX_SKEW, 2);
	mnl_attr_put_strz(m, VS_SPREAD_A_TOPOLOGY_KEY, "zone");
	mnl_attr_put_u32(m, VS_SPREAD_A_WHEN, VS_SPREAD_ACTION_DO_NOT_SCHEDULE);
	sel = mnl_attr_nest_start(m, VS_SPREAD_A_SELECTOR);
	labels = mnl_attr_nest_start(m, VS_LSEL_A_MATCH_LABELS);
	item = mnl_attr_nest_start(m, VS_LABELS_A_ITEM);
	mnl_attr_put_strz(m, VS_KV_A_KEY, "app");
	mnl_attr_put_strz(m, VS_KV_A_VALUE, "web");
	mnl_attr_nest_end(m, item);
	mnl_attr_nest_end(m, labels);
	mnl_attr_nest_end(m, sel);
	mnl_attr_put_u32(m, VS_SPREAD_A_MIN_DOMAINS, 3);
	mnl_attr_put_u32(m, VS_SPREAD_A_NODE_TAINTS_POLICY, VS_SPREAD_INCLUSION_HONOR);
	mnl_attr_put_strz(m, VS_SPREAD_A_MATCH_LABEL_KEY, "pod-template-hash");
	mnl_attr_nest_end(m, sp);
}

Test(objects, a_tasks_spread_constraints_come_back_as_given)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype(VS_A_TASK);
	static char out[4096];
	struct vs_err e = { { 0 } };
	const struct vs_spread_constraint *c;
	const struct vs_spread_constraints *sc;
	struct nlmsghdr *back;
	struct nlattr *obj;

	add_pg("pg");
	obj = task_msg("p");
	put_spread(nlh);
	mnl_attr_nest_end(nlh, obj);
	cr_assert_eq(vs_nl_obj_new(ot, &cl, NULL, obj, false, &arena, &e), 0, "%s", e.msg);
	sc = vs_task_spread(vs_task_find(&cl, "ns", "p"));
	cr_assert_not_null(sc);
	cr_assert_eq(sc->nr, 1);
	c = &sc->c[0];
	cr_assert_eq(c->max_skew, 2);
	cr_assert_str_eq(c->topology_key, "zone");
	cr_assert_eq(c->when, VS_SPREAD_DO_NOT_SCHEDULE);
	cr_assert_eq(c->min_domains, 3);
	cr_assert(vs_spread_honors_taints(c));
	cr_assert_eq(c->node_affinity_policy, VS_INCLUSION_UNSET, "not given: unset");
	cr_assert_eq(c->nr_match_label_keys, 1);
	cr_assert_not_null(c->selector);
	cr_assert_eq(c->selector->match_labels->nr, 1);

	/* the spec fill holds the same nest, attribute for attribute */
	back = mnl_nlmsg_put_header(out);
	cr_assert(vs_nl_put_task_spec(back, sizeof(out), vs_task_find(&cl, "ns", "p")));
	nlh = mnl_nlmsg_put_header(buf);
	put_spread(nlh);
	{
		const struct nlattr *want = mnl_nlmsg_get_payload(nlh), *a, *got = NULL;

		const struct nlattr *task = mnl_nlmsg_get_payload(back);

		cr_assert_eq(mnl_attr_get_type(task), VS_A_TASK);
		mnl_attr_for_each_nested(a, task)
			if (mnl_attr_get_type(a) == VS_TASK_A_SPREAD)
				got = a;
		cr_assert_not_null(got);
		cr_assert(attrs_alike(got, want));
	}
}

/* A pod's status.nominatedNodeName: kept as given (no such node need exist), given back. */
Test(objects, a_tasks_nominated_node_comes_back_and_a_bad_name_is_refused)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype(VS_A_TASK);
	static char out[4096];
	struct vs_err e = { { 0 } };
	const struct nlattr *a, *task;
	struct nlmsghdr *back;
	const char *got = NULL;
	struct nlattr *obj;

	add_pg("pg");
	for (int i = 0; i < 2; i++) {
		obj = task_msg(i ? "q" : "p");
		mnl_attr_put_strz(nlh, VS_TASK_A_NOMINATED_NODE, i ? "Bad_Node" : "gone");
		mnl_attr_nest_end(nlh, obj);
		vs_err_clear(&e);
		if (!i) {
			cr_assert_eq(vs_nl_obj_new(ot, &cl, NULL, obj, false, &arena, &e), 0, "%s",
				     e.msg);
			continue;
		}
		cr_assert_eq(vs_nl_obj_new(ot, &cl, NULL, obj, false, &arena, &e), -EINVAL);
		cr_assert(strstr(e.msg, "pod ns/q: invalid nominated node name \"Bad_Node\""), "%s",
			  e.msg);
		cr_assert_null(vs_task_find(&cl, "ns", "q"));
	}
	cr_assert_str_eq(vs_task_nominated(vs_task_find(&cl, "ns", "p")), "gone");
	back = mnl_nlmsg_put_header(out);
	cr_assert(vs_nl_put_task_spec(back, sizeof(out), vs_task_find(&cl, "ns", "p")));
	task = mnl_nlmsg_get_payload(back);
	mnl_attr_for_each_nested(a, task)
		if (mnl_attr_get_type(a) == VS_TASK_A_NOMINATED_NODE)
			got = mnl_attr_get_str(a);
	cr_assert_str_eq(got, "gone");
}

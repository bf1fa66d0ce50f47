// SPDX-License-Identifier: Apache-2.0
/*
 * The harness's encoder of a cluster into requests (harness/encode.h),
 * what "vsbench load" and "vsctl scenario run --socket" send: each
 * message is, byte for byte, what the core's fill writes for its object;
 * the objects come in the order the daemon needs; a queue not Open is made
 * Open and set to its state after the last task.
 */
#include <errno.h>
#include <stdalign.h>
#include <string.h>
#include <criterion/criterion.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "harness/encode.h"
#include "harness/scenario.h"
#include "netlink/fill.h"

/* Tasks listed out of their PodGroups' order: creation order is the file's. */
static const char scn_text[] =
	"actions: [enqueue, allocate]\n"
	"priorityClasses:\n"
	"  - {name: low, value: 10}\n"
	"queues:\n"
	"  - {name: q1, weight: 1}\n"
	"  - {name: q2, weight: 1, state: Closed}\n"
	"nodes:\n"
	"  - {name: n1, allocatable: {cpu: \"3\", memory: 3G, pods: \"10\"}}\n"
	"  - {name: n2, allocatable: {cpu: \"3\", memory: 3G, pods: \"10\"}}\n"
	"podgroups:\n"
	"  - {name: pga, namespace: ns1, queue: q1, minMember: 1}\n"
	"  - {name: pgb, namespace: ns1, queue: q2, minMember: 1}\n"
	"pods:\n"
	"  - {name: b0, namespace: ns1, podgroup: pgb, request: {cpu: \"1\"}}\n"
	"  - {name: a0, namespace: ns1, podgroup: pga, request: {cpu: \"1\"},"
	" priorityClass: low}\n"
	"  - {name: b1, namespace: ns1, podgroup: pgb, request: {cpu: \"1\"}}\n"
	"  - {name: a1, namespace: ns1, podgroup: pga, request: {cpu: \"1\"}, node: n2,"
	" phase: Running}\n"
	"expect:\n"
	"  bindCount: 0\n";

struct seen_msg {
	u8 cmd;
	enum harness_kind kind;
	char what[32];
	char key[64];
	unsigned char bytes[4096];
	u32 len;
};

struct seen {
	struct seen_msg m[16];
	u32 nr;
	u32 stop_at;			/* nonzero: return -EINTR at this message */
};

static int record(const struct harness_msg *msg, void *arg)
{
	struct seen *s = arg;
	struct seen_msg *m;

	cr_assert_lt(s->nr, 16, "more requests than objects");
	m = &s->m[s->nr++];
	cr_assert_leq(msg->nlh->nlmsg_len, sizeof(m->bytes));
	m->cmd = ((const struct genlmsghdr *)NLMSG_DATA(msg->nlh))->cmd;
	m->kind = msg->kind;
	m->len = msg->nlh->nlmsg_len;
	memcpy(m->bytes, msg->nlh, m->len);
	snprintf(m->what, sizeof(m->what), "%s", msg->what);
	snprintf(m->key, sizeof(m->key), "%s%s%s", msg->ns ? msg->ns : "", msg->ns ? "/" : "",
		 msg->name);
	return s->stop_at && s->nr == s->stop_at ? -EINTR : 0;
}

static alignas(NLMSG_ALIGNTO) unsigned char buf[VS_MSG_MAX];
static alignas(NLMSG_ALIGNTO) unsigned char want[VS_MSG_MAX];
static struct scenario scn;

static void load(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(scenario_load_text(&scn, "encode.yaml", scn_text, strlen(scn_text), &e), 0,
		     "%s", e.msg);
}

static void unload(void)
{
	scenario_free(&scn);
}

TestSuite(harness_encode, .init = load, .fini = unload);

/* What the fill writes for the object, as vsbench load and scenario_remote.c wrote it. */
#define EXPECT(_s, _i, _cmd, _fill, _obj)						\
	do {										\
		struct nlmsghdr *__w = vsnl_msg_put(want, sizeof(want), (_cmd), 0);	\
		const struct seen_msg *__m = &(_s)->m[(_i)];				\
											\
		cr_assert_not_null((_obj));						\
		cr_assert(_fill(__w, sizeof(want), (_obj)));				\
		cr_assert_eq(__m->cmd, (_cmd), "request %u: command %u, not %u", (_i),	\
			     __m->cmd, (_cmd));						\
		cr_assert_eq(__m->len, __w->nlmsg_len, "request %u (%s): %u bytes, the "	\
			     "fill's %u", (_i), __m->key, __m->len, __w->nlmsg_len);	\
		cr_assert_eq(memcmp(__m->bytes, __w, __w->nlmsg_len), 0,		\
			     "request %u (%s) is not the fill's", (_i), __m->key);	\
	} while (0)

Test(harness_encode, each_request_is_the_fills_in_dependency_order)
{
	const struct vs_cluster *cl = &scn.cl;
	static const char *const keys[] = {
		"low", "q1", "q2", "n1", "n2", "ns1/pga", "ns1/pgb",
		"ns1/b0", "ns1/a0", "ns1/b1", "ns1/a1", "q2",
	};
	struct vsnl_err err = { 0 };
	struct seen s = { 0 };

	/* the buffer full of what an earlier message left: nothing of it may show */
	memset(buf, 0xa5, sizeof(buf));
	cr_assert_eq(harness_encode_cluster(cl, buf, sizeof(buf), record, &s, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(s.nr, 12);
	cr_assert_eq(harness_encode_nr(cl), 12);
	for (u32 i = 0; i < s.nr; i++)
		cr_assert_str_eq(s.m[i].key, keys[i], "request %u names %s, not %s", i, s.m[i].key,
				 keys[i]);
	EXPECT(&s, 0, VS_CMD_PRIOCLASS_NEW, vs_nl_put_prioclass_spec,
	       vs_prioclass_find(cl, "low"));
	EXPECT(&s, 1, VS_CMD_QUEUE_NEW, vs_nl_put_queue_spec, vs_queue_find(cl, "q1"));
	EXPECT(&s, 3, VS_CMD_NODE_NEW, vs_nl_put_node_spec, vs_node_find(cl, "n1"));
	EXPECT(&s, 4, VS_CMD_NODE_NEW, vs_nl_put_node_spec, vs_node_find(cl, "n2"));
	EXPECT(&s, 5, VS_CMD_PODGROUP_NEW, vs_nl_put_podgroup_spec, vs_job_find(cl, "ns1", "pga"));
	EXPECT(&s, 6, VS_CMD_PODGROUP_NEW, vs_nl_put_podgroup_spec, vs_job_find(cl, "ns1", "pgb"));
	EXPECT(&s, 7, VS_CMD_TASK_NEW, vs_nl_put_task_spec, vs_task_find(cl, "ns1", "b0"));
	EXPECT(&s, 8, VS_CMD_TASK_NEW, vs_nl_put_task_spec, vs_task_find(cl, "ns1", "a0"));
	EXPECT(&s, 9, VS_CMD_TASK_NEW, vs_nl_put_task_spec, vs_task_find(cl, "ns1", "b1"));
	EXPECT(&s, 10, VS_CMD_TASK_NEW, vs_nl_put_task_spec, vs_task_find(cl, "ns1", "a1"));
	/* the closed queue's state, after its PodGroup and tasks */
	EXPECT(&s, 11, VS_CMD_QUEUE_SET, vs_nl_put_queue_spec, vs_queue_find(cl, "q2"));
	cr_assert_eq(s.m[0].kind, HARNESS_PRIOCLASS);
	cr_assert_str_eq(s.m[5].what, "PodGroup");
	cr_assert_eq(s.m[10].kind, HARNESS_TASK);
	cr_assert_str_eq(s.m[10].what, "task");
	cr_assert_eq(s.m[11].kind, HARNESS_QUEUE);
}

/* The fill's message for q2 but VS_QUEUE_A_STATE: Open, so that it admits its PodGroup. */
Test(harness_encode, a_queue_not_open_is_made_open)
{
	const struct vs_queue *q2 = vs_queue_find(&scn.cl, "q2");
	struct nlmsghdr *w = vsnl_msg_put(want, sizeof(want), VS_CMD_QUEUE_NEW, 0);
	struct vsnl_err err = { 0 };
	struct seen s = { .stop_at = 3 };
	struct nlattr *top, *a;
	u32 diffs = 0, state = ~0u;

	cr_assert_eq(harness_encode_cluster(&scn.cl, buf, sizeof(buf), record, &s, &err), -EINTR,
		     "the callback's return is not returned as it is");
	cr_assert_eq(err.err, 0, "the encoder set an error for the callback's return");
	cr_assert_eq(s.nr, 3, "the walk went on after the callback stopped it");
	cr_assert(vs_nl_put_queue_spec(w, sizeof(want), q2));
	cr_assert_eq(s.m[2].cmd, VS_CMD_QUEUE_NEW);
	cr_assert_eq(s.m[2].len, w->nlmsg_len);
	for (u32 i = 0; i < w->nlmsg_len; i++)
		diffs += s.m[2].bytes[i] != ((unsigned char *)w)[i];
	cr_assert_eq(diffs, 1, "%u bytes differ from the fill's, not the state's one", diffs);
	mnl_attr_for_each(top, (struct nlmsghdr *)s.m[2].bytes, GENL_HDRLEN)
		if (mnl_attr_get_type(top) == VS_A_QUEUE)
			mnl_attr_for_each_nested(a, top)
				if (mnl_attr_get_type(a) == VS_QUEUE_A_STATE)
					state = mnl_attr_get_u32(a);
	cr_assert_eq(state, VS_QUEUE_STATE_OPEN);
}

/* No room for an object: -EMSGSIZE naming it, and nothing handed on. */
Test(harness_encode, an_object_too_large_is_named)
{
	struct vsnl_err err = { 0 };
	struct seen s = { 0 };

	cr_assert_eq(harness_encode_cluster(&scn.cl, buf, NLMSG_HDRLEN + GENL_HDRLEN + 8, record,
					    &s, &err), -EMSGSIZE);
	cr_assert_eq(s.nr, 0);
	cr_assert_str_eq(err.msg, "priority class low does not fit in a message");
}

/*
 * HyperNodes go after the nodes, in creation order, each the fill's spec:
 * the daemon then resolves the claims (the older claimer wins) as the
 * in-process core did.
 */
static const char hn_text[] =
	"actions: [allocate]\n"
	"nodes:\n"
	"  - {name: n1, labels: {rack: r1}}\n"
	"  - {name: n2}\n"
	"hypernodes:\n"
	"  - {name: leaf, tier: 1, tierName: leaf, members: [\n"
	"      {type: Node, selector: {exactMatch: {name: n1}}},\n"
	"      {type: Node, selector: {regexMatch: {pattern: \"^n[2-9]$\"}}},\n"
	"      {type: Node, selector: {labelMatch: {matchLabels: {rack: r1}}}}]}\n"
	"  - {name: spine-b, tier: 2, members: [{type: HyperNode, selector: {exactMatch: {name: leaf}}}]}\n"
	"  - {name: spine-a, tier: 2, members: [{type: HyperNode, selector: {exactMatch: {name: leaf}}}]}\n"
	"queues:\n"
	"  - {name: q1, weight: 1}\n"
	"podgroups:\n"
	"  - {name: pg, namespace: ns, queue: q1}\n";

static struct scenario hn_scn;

static void hn_load(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(scenario_load_text(&hn_scn, "hn.yaml", hn_text, strlen(hn_text), &e), 0,
		     "%s", e.msg);
}

static void hn_unload(void)
{
	scenario_free(&hn_scn);
}

TestSuite(harness_encode_hypernodes, .init = hn_load, .fini = hn_unload);

Test(harness_encode_hypernodes, come_after_the_nodes_in_creation_order)
{
	const struct vs_cluster *cl = &hn_scn.cl;
	static const char *const keys[] = {
		"q1", "n1", "n2", "leaf", "spine-b", "spine-a", "ns/pg",
	};
	struct vsnl_err err = { 0 };
	struct seen s = { 0 };

	memset(buf, 0xa5, sizeof(buf));
	cr_assert_eq(harness_encode_cluster(cl, buf, sizeof(buf), record, &s, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(s.nr, ARRAY_SIZE(keys));
	cr_assert_eq(harness_encode_nr(cl), ARRAY_SIZE(keys));
	for (u32 i = 0; i < s.nr; i++)
		cr_assert_str_eq(s.m[i].key, keys[i], "request %u names %s, not %s", i, s.m[i].key,
				 keys[i]);
	EXPECT(&s, 3, VS_CMD_HYPERNODE_NEW, vs_nl_put_hypernode_spec, vs_hypernode_find(cl, "leaf"));
	EXPECT(&s, 4, VS_CMD_HYPERNODE_NEW, vs_nl_put_hypernode_spec,
	       vs_hypernode_find(cl, "spine-b"));
	EXPECT(&s, 5, VS_CMD_HYPERNODE_NEW, vs_nl_put_hypernode_spec,
	       vs_hypernode_find(cl, "spine-a"));
	cr_assert_eq(s.m[3].kind, HARNESS_HYPERNODE);
	cr_assert_str_eq(s.m[3].what, "HyperNode");
}

/* The loader built the tree the file describes: every selector, the older claimer. */
Test(harness_encode_hypernodes, the_loader_builds_the_tree)
{
	const struct vs_cluster *cl = &hn_scn.cl;
	const struct vs_hypernode *leaf = vs_hypernode_find(cl, "leaf");

	cr_assert_not_null(leaf);
	cr_assert_eq(leaf->tier, 1);
	cr_assert_str_eq(leaf->tier_name, "leaf");
	cr_assert_eq(leaf->nr_members, 3);
	cr_assert_eq(leaf->members[0].sel, VS_HN_EXACT);
	cr_assert_eq(leaf->members[1].sel, VS_HN_REGEX);
	cr_assert_eq(leaf->members[2].sel, VS_HN_LABEL);
	cr_assert_eq(leaf->nr_leaves, 2);
	cr_assert_str_eq(leaf->leaves[0], "n1");
	cr_assert_str_eq(leaf->leaves[1], "n2");
	/* spine-b is listed first: created first, its claim wins */
	cr_assert_not_null(leaf->parent);
	cr_assert_str_eq(leaf->parent->name, "spine-b");
	cr_assert_null(vs_hypernode_find(cl, "spine-a")->parent);
	cr_assert_eq(vs_hypernode_find(cl, "spine-a")->nr_leaves, 0);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * HyperNodes through the protocol: NEW, SET, DEL and GET as a client sends
 * them (the command's policy, then the object table of netlink/objects.c),
 * their refusals, which name what and where and change nothing, the events
 * group, batches (applied whole, or undone byte for byte by the core's
 * journal, or run dry), dumps in name order and checkpoints, which make
 * them again oldest first so that the oldest claimer of a member stays it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/log.h"
#include "ctltest.h"
#include "netlink/checkpoint.h"
#include "netlink/fill.h"

static char dir[64], path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/vs-hn-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state", dir);
	ct_setup_sched();
	vs_log_file = tmpfile();
}

static void teardown(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
	ct_teardown();
	unlink(path);
	rmdir(dir);
}

TestSuite(nl_hypernode, .init = setup, .fini = teardown);

/* ---- HyperNodes as a client writes them ---- */

enum sel { EXACT, REGEX, LABELS };

struct member {
	enum vs_hn_member_type_uapi type;
	enum sel sel;
	const char *what;		/* the name, the pattern, or "k=v" (NULL: no label) */
};

#define NODE(s, w)	{ VS_HN_TYPE_NODE, s, w }
#define HN(w)		{ VS_HN_TYPE_HYPER_NODE, EXACT, w }

static void put_member(struct nlmsghdr *nlh, const struct member *m)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_HN_A_MEMBER), *l, *kv;
	char key[64];
	const char *eq;

	mnl_attr_put_u32(nlh, VS_HN_MEMBER_A_TYPE, m->type);
	if (m->sel == EXACT) {
		mnl_attr_put_strz(nlh, VS_HN_MEMBER_A_EXACT_NAME, m->what);
	} else if (m->sel == REGEX) {
		mnl_attr_put_strz(nlh, VS_HN_MEMBER_A_REGEX_PATTERN, m->what);
	} else {
		l = mnl_attr_nest_start(nlh, VS_HN_MEMBER_A_MATCH_LABELS);
		if (m->what) {
			eq = strchr(m->what, '=');
			snprintf(key, sizeof(key), "%.*s", (int)(eq - m->what), m->what);
			kv = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
			mnl_attr_put_strz(nlh, VS_KV_A_KEY, key);
			mnl_attr_put_strz(nlh, VS_KV_A_VALUE, eq + 1);
			mnl_attr_nest_end(nlh, kv);
		}
		mnl_attr_nest_end(nlh, l);
	}
	mnl_attr_nest_end(nlh, n);
}

/* A HyperNode nest: @tier < 0 leaves the tier out; @nr members of @m. */
static void put_hn(struct nlmsghdr *nlh, const char *name, int tier, const char *tier_name,
		   const struct member *m, unsigned int nr)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_HYPERNODE);

	mnl_attr_put_strz(nlh, VS_HN_A_NAME, name);
	if (tier >= 0)
		mnl_attr_put_u32(nlh, VS_HN_A_TIER, (u32)tier);
	if (tier_name)
		mnl_attr_put_strz(nlh, VS_HN_A_TIER_NAME, tier_name);
	for (unsigned int i = 0; i < nr; i++)
		put_member(nlh, &m[i]);
	mnl_attr_nest_end(nlh, n);
}

static void put_hn_key(struct nlmsghdr *nlh, const char *name)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_HYPERNODE);

	mnl_attr_put_strz(nlh, VS_HN_A_NAME, name);
	mnl_attr_nest_end(nlh, n);
}

static void node_with_zone(const char *name, const char *zone)
{
	CT_SEND_OK(VS_CMD_NODE_NEW, {
		struct nlattr *n = mnl_attr_nest_start(__n, VS_A_NODE), *l, *kv;

		mnl_attr_put_strz(__n, VS_NODE_A_NAME, name);
		l = mnl_attr_nest_start(__n, VS_NODE_A_LABELS);
		kv = mnl_attr_nest_start(__n, VS_LABELS_A_ITEM);
		mnl_attr_put_strz(__n, VS_KV_A_KEY, "zone");
		mnl_attr_put_strz(__n, VS_KV_A_VALUE, zone);
		mnl_attr_nest_end(__n, kv);
		mnl_attr_nest_end(__n, l);
		mnl_attr_nest_end(__n, n);
	});
}

/*
 * Nodes n1..n4 (n1, n2 in zone a; n3, n4 in zone b), leaf-a (n1 by name,
 * n2 by pattern), leaf-b (zone b by labels), and spine over both.
 */
static void topology(void)
{
	static const struct member a[] = { NODE(EXACT, "n1"), NODE(REGEX, "^n2$") };
	static const struct member b[] = { NODE(LABELS, "zone=b") };
	static const struct member s[] = { HN("leaf-a"), HN("leaf-b") };

	node_with_zone("n1", "a");
	node_with_zone("n2", "a");
	node_with_zone("n3", "b");
	node_with_zone("n4", "b");
	CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, "leaf-a", 1, "switch", a, 2));
	CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, "leaf-b", 1, "switch", b, 1));
	CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, "spine", 2, NULL, s, 2));
}

static struct vs_hypernode *hn(const char *name)
{
	return vs_hypernode_find(&ct.cl, name);
}

/* GET @name: its nest in the reply, checked against the reply policy. */
static const struct nlattr *get(const char *name)
{
	CT_SEND_OK(VS_CMD_HYPERNODE_GET, put_hn_key(__n, name));
	return ct_attr(ct_reply_genl(), VS_A_HYPERNODE);
}

static u32 get_u32(const struct nlattr *nest, u16 type)
{
	const struct nlattr *a = ct_nested(nest, type);

	cr_assert_not_null(a, "no attribute %u", type);
	return mnl_attr_get_u32(a);
}

/* ---- the whole state, to compare ---- */

static char obj_buf[65536] __attribute__((aligned(4)));

/*
 * Every HyperNode as GET shows it (its place in the tree too), with its
 * creation number, its direct and leaf node sets, in creation order; the
 * nodes' names, and the counters.
 */
static char *state(size_t *len)
{
	const struct vs_hypernode *h;
	const struct vs_node *node;
	char *s = NULL;
	FILE *f = open_memstream(&s, len);

	cr_assert_not_null(f);
	list_for_each_entry(h, &ct.cl.hypernodes.list, list) {
		struct nlmsghdr *m;

		memset(obj_buf, 0, sizeof(obj_buf));
		m = mnl_nlmsg_put_header(obj_buf);
		cr_assert(vs_nl_put_hypernode(m, sizeof(obj_buf), h));
		fprintf(f, "\n%llu ", (unsigned long long)h->seq);
		fwrite(obj_buf, 1, m->nlmsg_len, f);
		fprintf(f, " direct:");
		for (u32 i = 0; i < h->nr_direct; i++)
			fprintf(f, " %s", h->direct[i]);
		fprintf(f, " leaves:");
		for (u32 i = 0; i < h->nr_leaves; i++)
			fprintf(f, " %s", h->leaves[i]);
	}
	fprintf(f, "\nnodes:");
	list_for_each_entry(node, &ct.cl.nodes, list)
		fprintf(f, " %s", node->name);
	fprintf(f, "\nseq %llu counts %u %u ready %d\n", (unsigned long long)ct.cl.seq,
		ct.cl.nr_nodes, ct.cl.hypernodes.nr, vs_hypernodes_ready(&ct.cl));
	fclose(f);
	return s;
}

static void assert_same_state(const char *before, size_t before_len)
{
	struct vs_err e = { { 0 } };
	size_t len;
	char *now = state(&len);

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	cr_assert_eq(len, before_len, "the state changed size");
	cr_assert_eq(memcmp(now, before, len), 0, "the state changed");
	free(now);
}

/* ---- the commands ---- */

Test(nl_hypernode, new_get_set_and_del_keep_the_tree)
{
	static const struct member c[] = { HN("leaf-b") };
	const struct nlattr *a;

	topology();
	cr_assert_eq(ct.cl.hypernodes.nr, 3);
	cr_assert_eq(hn("leaf-a")->parent, hn("spine"));
	cr_assert_eq(hn("leaf-b")->parent, hn("spine"));
	cr_assert(vs_hypernode_has_leaf(hn("spine"), "n4"));

	a = get("leaf-b");
	cr_assert_str_eq(mnl_attr_get_str(ct_nested(a, VS_HN_A_NAME)), "leaf-b");
	cr_assert_str_eq(mnl_attr_get_str(ct_nested(a, VS_HN_A_PARENT)), "spine");
	cr_assert_str_eq(mnl_attr_get_str(ct_nested(a, VS_HN_A_TIER_NAME)), "switch");
	cr_assert_eq(get_u32(a, VS_HN_A_TIER), 1);
	cr_assert_eq(get_u32(a, VS_HN_A_NR_NODES), 2, "zone b: n3 and n4");
	cr_assert_eq(get_u32(a, VS_HN_A_NR_CHILDREN), 0);
	a = ct_nested(a, VS_HN_A_MEMBER);
	cr_assert_eq(get_u32(a, VS_HN_MEMBER_A_TYPE), VS_HN_TYPE_NODE);
	cr_assert_not_null(ct_nested(a, VS_HN_MEMBER_A_MATCH_LABELS));
	a = get("spine");
	cr_assert_null(ct_nested(a, VS_HN_A_PARENT), "a root has no parent");
	cr_assert_eq(get_u32(a, VS_HN_A_NR_CHILDREN), 2);
	cr_assert_eq(get_u32(a, VS_HN_A_NR_NODES), 4);

	/* SET keeps what it does not name; members given replace them all */
	CT_SEND_OK(VS_CMD_HYPERNODE_SET, put_hn(__n, "leaf-b", -1, "rack", NULL, 0));
	cr_assert_str_eq(hn("leaf-b")->tier_name, "rack");
	cr_assert_eq(hn("leaf-b")->tier, 1);
	cr_assert_eq(hn("leaf-b")->nr_leaves, 2);
	CT_SEND_OK(VS_CMD_HYPERNODE_SET, put_hn(__n, "spine", -1, NULL, c, 1));
	cr_assert_null(hn("leaf-a")->parent, "no longer claimed");
	cr_assert_eq(hn("spine")->nr_leaves, 2);
	cr_assert_eq(hn("spine")->tier, 2);

	CT_SEND_OK(VS_CMD_HYPERNODE_DEL, put_hn_key(__n, "spine"));
	cr_assert_null(hn("spine"));
	cr_assert_null(hn("leaf-b")->parent);
	cr_assert_eq(ct.cl.hypernodes.nr, 2);
}

/* Each refusal: its errno and message, and nothing changed. */
Test(nl_hypernode, bad_input_is_refused_naming_what_and_changes_nothing)
{
	static const struct member good[] = { NODE(EXACT, "n1") };
	static const struct member bad_re[] = { NODE(EXACT, "n1"), NODE(REGEX, "n[") };
	static const struct member loop[] = { HN("spine") };
	static const struct {
		u8 cmd;
		const char *name;
		int tier;
		const struct member *m;
		unsigned int nr;
		int err;
		const char *msg;
	} cases[] = {
		{ VS_CMD_HYPERNODE_NEW, "h", -1, good, 1, -EINVAL,
		  "hypernode h: the tier is missing" },
		{ VS_CMD_HYPERNODE_NEW, "h", 1, NULL, 0, -EINVAL,
		  "hypernode h: a HyperNode must have at least one member" },
		{ VS_CMD_HYPERNODE_NEW, "h", 1, bad_re, 2, -EINVAL,
		  "hypernode h: member 1: regexMatch pattern \"n[\": " },
		{ VS_CMD_HYPERNODE_NEW, "Bad_Name", 1, good, 1, -EINVAL,
		  "hypernode Bad_Name: " },
		{ VS_CMD_HYPERNODE_NEW, "leaf-a", 1, good, 1, -EEXIST,
		  "hypernode leaf-a: exists already" },
		{ VS_CMD_HYPERNODE_SET, "nope", 1, good, 1, -ENOENT, "hypernode nope not found" },
		{ VS_CMD_HYPERNODE_DEL, "nope", -1, NULL, 0, -ENOENT, "hypernode nope not found" },
		{ VS_CMD_HYPERNODE_SET, "leaf-a", -1, bad_re, 2, -EINVAL,
		  "hypernode leaf-a: member 1: regexMatch pattern \"n[\": " },
		/* a claim that closes a cycle is refused by the tree, not by the request */
		{ VS_CMD_HYPERNODE_SET, "leaf-a", -1, loop, 1, 0, NULL },
	};
	size_t before_len;
	char *before;

	topology();
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct nlmsghdr *m = ct_req(cases[i].cmd, 0);
		int ret;

		before = state(&before_len);
		if (cases[i].cmd == VS_CMD_HYPERNODE_DEL)
			put_hn_key(m, cases[i].name);
		else
			put_hn(m, cases[i].name, cases[i].tier, NULL, cases[i].m, cases[i].nr);
		ret = ct_send(m);
		cr_assert_eq(ret, cases[i].err, "case %zu: %d (%s)", i, ret, ct.ext.err.msg);
		if (!cases[i].msg) {
			free(before);
			continue;
		}
		cr_assert_eq(strncmp(ct.ext.err.msg, cases[i].msg, strlen(cases[i].msg)), 0,
			     "case %zu: \"%s\"", i, ct.ext.err.msg);
		assert_same_state(before, before_len);
		free(before);
	}
	/* the cycle's claim was refused: leaf-a keeps spine, and the tree is not ready */
	cr_assert_eq(hn("leaf-a")->parent, hn("spine"));
	cr_assert_not(vs_hypernodes_ready(&ct.cl));
}

/* What the policy refuses never reaches the core: a member without a type, a tier past int32. */
Test(nl_hypernode, the_policy_refuses_a_member_without_a_type_and_a_tier_past_int32)
{
	struct nlmsghdr *m = ct_req(VS_CMD_HYPERNODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(m, VS_A_HYPERNODE), *mem;

	mnl_attr_put_strz(m, VS_HN_A_NAME, "h");
	mnl_attr_put_u32(m, VS_HN_A_TIER, 1);
	mem = mnl_attr_nest_start(m, VS_HN_A_MEMBER);
	mnl_attr_put_strz(m, VS_HN_MEMBER_A_EXACT_NAME, "n1");
	mnl_attr_nest_end(m, mem);
	mnl_attr_nest_end(m, n);
	cr_assert_eq(ct_send(m), -EINVAL);
	cr_assert_not_null(strstr(ct.ext.err.msg, "type"), "%s", ct.ext.err.msg);
	cr_assert_eq(ct.cl.hypernodes.nr, 0);

	m = ct_req(VS_CMD_HYPERNODE_NEW, 0);
	n = mnl_attr_nest_start(m, VS_A_HYPERNODE);
	mnl_attr_put_strz(m, VS_HN_A_NAME, "h");
	mnl_attr_put_u32(m, VS_HN_A_TIER, 1u << 31);
	mnl_attr_nest_end(m, n);
	cr_assert_eq(ct_send(m), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "hypernode.tier (VS_HN_A_TIER): 2147483648 is out of range "
			 "0..2147483647");
	cr_assert_eq(ct.cl.hypernodes.nr, 0);
}

Test(nl_hypernode, a_member_takes_exactly_one_selector)
{
	struct nlmsghdr *m = ct_req(VS_CMD_HYPERNODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(m, VS_A_HYPERNODE), *mem;

	mnl_attr_put_strz(m, VS_HN_A_NAME, "h");
	mnl_attr_put_u32(m, VS_HN_A_TIER, 1);
	mem = mnl_attr_nest_start(m, VS_HN_A_MEMBER);
	mnl_attr_put_u32(m, VS_HN_MEMBER_A_TYPE, VS_HN_TYPE_NODE);
	mnl_attr_put_strz(m, VS_HN_MEMBER_A_EXACT_NAME, "n1");
	mnl_attr_put_strz(m, VS_HN_MEMBER_A_REGEX_PATTERN, "n.*");
	mnl_attr_nest_end(m, mem);
	mnl_attr_nest_end(m, n);
	cr_assert_eq(ct_send(m), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "hypernode h: member 0: more than one selector: "
			 "exactly one of exactMatch, regexMatch and matchLabels");
	cr_assert_eq(ct.cl.hypernodes.nr, 0);
}

/* ---- dumps, events ---- */

Test(nl_hypernode, a_dump_lists_them_in_name_order)
{
	static const struct member m[] = { NODE(EXACT, "n1") };
	static const char *const names[] = { "b", "c", "a" };
	const struct nlmsghdr *r;
	unsigned int n = 0;
	int left;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, names[i], 1, NULL, m, 1));
	memset(&ct.dump, 0, sizeof(ct.dump));
	CT_OK(ct_req(VS_CMD_HYPERNODE_GET, NLM_F_DUMP));
	r = (const void *)ct.out;
	left = (int)ct.reply.len;
	for (; mnl_nlmsg_ok(r, left); r = mnl_nlmsg_next(r, &left)) {
		const struct nlattr *a;
		char want[2] = { (char)('a' + n), 0 };

		if (r->nlmsg_type != VSCHED_GENL_ID)
			continue;
		a = ct_nested(ct_attr(r, VS_A_HYPERNODE), VS_HN_A_NAME);
		cr_assert_not_null(a);
		cr_assert_str_eq(mnl_attr_get_str(a), want);
		n++;
	}
	cr_assert_eq(n, 3);
}

static size_t describe(const struct nlmsghdr *nlh, char *buf, size_t len)
{
	const struct nlattr *h = ct_attr(nlh, VS_A_HYPERNODE);
	const struct nlattr *name = ct_nested(h, VS_HN_A_NAME), *parent;

	parent = ct_nested(h, VS_HN_A_PARENT);
	return (size_t)snprintf(buf, len, "%u %s^%s;",
				mnl_attr_get_u32(ct_attr(nlh, VS_A_EVENT_KIND)),
				name ? mnl_attr_get_str(name) : "-",
				parent ? mnl_attr_get_str(parent) : "");
}

Test(nl_hypernode, changes_are_told_to_the_events_group)
{
	static const struct member m[] = { NODE(EXACT, "n1") };
	char text[512], want[128];

	ct.core.events.on = true;
	topology();
	ct_take_notes(&ct.core.events, describe, text, sizeof(text));
	CT_SEND_OK(VS_CMD_HYPERNODE_SET, put_hn(__n, "leaf-a", -1, NULL, m, 1));
	CT_SEND_OK(VS_CMD_HYPERNODE_DEL, put_hn_key(__n, "leaf-a"));
	CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, "x", 3, NULL, m, 1));
	snprintf(want, sizeof(want), "%u leaf-a^spine;%u leaf-a^spine;%u x^;", VS_EVENT_SET,
		 VS_EVENT_DEL, VS_EVENT_NEW);
	cr_assert_str_eq(ct_take_notes(&ct.core.events, describe, text, sizeof(text)), want);
	/* refused: nothing told */
	cr_assert_eq(ct_send(({ struct nlmsghdr *__n = ct_req(VS_CMD_HYPERNODE_NEW, 0);
				put_hn(__n, "x", 3, NULL, m, 1); __n; })), -EEXIST);
	cr_assert_eq(ct.core.events.nr, 0);
}

/* ---- batches ---- */

/* BEGIN (seq 100), a change of every kind, and a NEW refused by the core at seq 106 if @bad. */
static size_t batch(bool dry, bool bad)
{
	static const struct member spine[] = { HN("leaf-a"), HN("leaf-c") };
	static const struct member c[] = { NODE(REGEX, "n[34]") };
	static const struct member bad_re[] = { NODE(REGEX, "(") };
	struct nlmsghdr *first = ct_req(VS_CMD_BATCH_BEGIN, 0), *m = first;
	u32 seq = 100;

	if (dry)
		mnl_attr_put(first, VS_A_DRY_RUN, 0, NULL);
	first->nlmsg_seq = seq++;
	m = ct_next(m, VS_CMD_HYPERNODE_NEW, 0, seq++);
	put_hn(m, "leaf-c", 1, "switch", c, 1);
	m = ct_next(m, VS_CMD_HYPERNODE_SET, 0, seq++);
	put_hn(m, "spine", 3, "spine", spine, 2);
	m = ct_next(m, VS_CMD_HYPERNODE_DEL, 0, seq++);
	put_hn_key(m, "leaf-b");
	m = ct_next(m, VS_CMD_NODE_DEL, 0, seq++);		/* the leaves follow */
	ct_put_key(m, VS_A_NODE, NULL, "n3");
	m = ct_next(m, VS_CMD_HYPERNODE_NEW, NLM_F_REPLACE, seq++);
	put_hn(m, "leaf-a", 0, NULL, c, 1);
	if (bad) {
		m = ct_next(m, VS_CMD_HYPERNODE_NEW, 0, seq++);
		put_hn(m, "worse", 1, NULL, bad_re, 1);
	}
	m = ct_next(m, VS_CMD_BATCH_END, NLM_F_ACK, 200);
	return ct_len(first, m);
}

Test(nl_hypernode, a_batch_that_fails_leaves_the_tree_byte_for_byte)
{
	size_t before_len;
	char *before;

	topology();
	ct.core.events.on = true;
	before = state(&before_len);
	cr_assert_eq(ct_send_dgram(ct.req, batch(false, true)), -EINVAL);
	cr_assert_not_null(strstr(ct.ext.err.msg, "message seq 106 (VS_CMD_HYPERNODE_NEW "
					  "hypernode worse) failed: member 0: "
					  "regexMatch pattern \"(\""), "%s", ct.ext.err.msg);
	assert_same_state(before, before_len);
	cr_assert_eq(ct.core.events.nr, 0, "a refused batch tells nothing");

	/* without the failure: applied whole */
	cr_assert_eq(ct_send_dgram(ct.req, batch(false, false)), 0, "%s", ct.ext.err.msg);
	cr_assert_null(hn("leaf-b"));
	cr_assert_eq(hn("leaf-c")->parent, hn("spine"));
	cr_assert_eq(hn("leaf-a")->parent, hn("spine"));
	cr_assert_eq(hn("spine")->tier, 3);
	cr_assert_eq(hn("spine")->nr_leaves, 1, "n4 alone: n3 is gone, leaf-a replaced");
	cr_assert_gt(ct.core.events.nr, 0);
	free(before);
}

Test(nl_hypernode, a_dry_run_batch_answers_as_it_would_and_changes_nothing)
{
	size_t before_len;
	char *before;

	topology();
	ct.core.events.on = true;
	before = state(&before_len);
	cr_assert_eq(ct_send_dgram(ct.req, batch(true, false)), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_reply_count(), 1, "END's ack, not %u", ct_reply_count());
	cr_assert_eq(ct_reply_errno(0), 0);
	assert_same_state(before, before_len);
	cr_assert_eq(ct.core.events.nr, 0);
	cr_assert_eq(ct_send_dgram(ct.req, batch(true, true)), -EINVAL);
	assert_same_state(before, before_len);
	free(before);
}

/* ---- checkpoints, limits, stats ---- */

/*
 * Two HyperNodes claim one: the older (made first, though its name sorts
 * last) is its parent. Written and read back into a fresh core, it still
 * is: the checkpoint makes them in creation order, not name order.
 */
Test(nl_hypernode, a_checkpoint_keeps_the_oldest_claimer_the_parent)
{
	static const struct member leaf[] = { NODE(EXACT, "n1") };
	static const struct member claim[] = { HN("leaf") };
	static const struct member labels[] = { NODE(LABELS, "zone=a"), NODE(LABELS, NULL) };
	struct vs_ckpt_info info;
	struct vs_err e = { { 0 } };
	size_t before_len;
	char *before, *after;
	size_t after_len;

	node_with_zone("n1", "a");
	CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, "z-older", 2, NULL, claim, 1));
	CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, "a-younger", 2, NULL, claim, 1));
	CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, "leaf", 1, "switch", leaf, 1));
	CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, "by-labels", 1, NULL, labels, 2));
	cr_assert_eq(hn("leaf")->parent, hn("z-older"));
	cr_assert_not(vs_hypernodes_ready(&ct.cl), "a-younger's claim is refused");
	before = state(&before_len);
	cr_assert_eq(vs_nl_checkpoint_save(&ct.core, path, &info, &e), 0, "%s", e.msg);

	ct_teardown();
	ct_setup_sched();
	cr_assert_eq(vs_nl_checkpoint_load(&ct.ctx, path, 0, &info, &e), 0, "%s", e.msg);
	cr_assert_eq(hn("leaf")->parent, hn("z-older"));
	cr_assert_null(hn("a-younger")->parent);
	cr_assert_eq(hn("by-labels")->nr_members, 2, "an empty matchLabels is kept");
	cr_assert_null(hn("by-labels")->members[1].labels);
	cr_assert_eq(hn("by-labels")->nr_leaves, 1);
	after = state(&after_len);
	cr_assert_eq(after_len, before_len);
	cr_assert_eq(memcmp(after, before, before_len), 0, "the restored tree differs");
	free(before);
	free(after);
}

Test(nl_hypernode, the_limit_and_the_stats_count_them)
{
	static const struct member m[] = { NODE(EXACT, "n1") };
	const struct nlattr *st;

	ct.cl.limits.hypernodes = 1;
	CT_SEND_OK(VS_CMD_HYPERNODE_NEW, put_hn(__n, "h1", 1, NULL, m, 1));
	cr_assert_eq(ct_send(({ struct nlmsghdr *__n = ct_req(VS_CMD_HYPERNODE_NEW, 0);
				put_hn(__n, "h2", 1, NULL, m, 1); __n; })), -ENOSPC);
	cr_assert_str_eq(ct.ext.err.msg, "hypernode h2: the cluster holds 1 hypernodes, its limit "
			 "(vschedd --limit hypernodes=N): delete some first");
	cr_assert_eq(ct.cl.hypernodes.nr, 1);

	CT_OK(ct_req(VS_CMD_STATS_GET, 0));
	st = ct_attr(ct_reply_genl(), VS_A_STATS);
	cr_assert_eq(mnl_attr_get_u32(ct_nested(st, VS_STATS_A_NR_HYPERNODES)), 1);
	cr_assert_eq(mnl_attr_get_u8(ct_nested(st, VS_STATS_A_HYPERNODES_READY)), 1);

	/* a reset forgets them */
	CT_OK(ct_req(VS_CMD_RESET, 0));
	cr_assert_eq(ct.cl.hypernodes.nr, 0);
}

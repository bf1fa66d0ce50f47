// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for attribute validation (netlink/policy.h) through vsched's
 * request policies: a valid request fills tb[]; every malformed kind is
 * refused with EINVAL, a message naming the attribute by its path and its
 * uapi constant, and the exact offset of the attribute from the nlmsghdr.
 */
#include "nltest.h"

static char buf[8192] __attribute__((aligned(4)));
static const struct nlattr *tb[VS_NLA_SET_MAX + 1];
static struct vs_extack ext;

static void setup(void)
{
	memset(buf, 0, sizeof(buf));
	vs_extack_clear(&ext);
}

TestSuite(policy, .init = setup);

/* Refused with EINVAL, @msg, and the offset @offs. */
static void assert_refused(const struct nlmsghdr *nlh, const char *msg, u32 offs)
{
	cr_assert_eq(nlt_validate(nlh, tb, &ext), -EINVAL);
	cr_assert_eq(ext.error, -EINVAL);
	cr_assert_str_eq(ext.err.msg, msg);
	cr_assert(ext.has_offs, "no offset for \"%s\"", ext.err.msg);
	cr_assert_eq(ext.offs, offs, "offset %u, expected %u", ext.offs, offs);
	for (unsigned int i = 0; i <= VS_A_MAX; i++)
		cr_assert_null(tb[i], "tb[] filled by a refused request");
}

Test(policy, valid_node_new_passes_and_fills_tb)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *node, *res, *labels, *item, *taint;

	node = mnl_attr_nest_start(nlh, VS_A_NODE);
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	res = mnl_attr_nest_start(nlh, VS_NODE_A_ALLOCATABLE);
	mnl_attr_put_u64(nlh, VS_RES_A_CPU, 8000);
	mnl_attr_put_u64(nlh, VS_RES_A_MEMORY, 1ULL << 35);
	item = mnl_attr_nest_start(nlh, VS_RES_A_SCALAR);
	mnl_attr_put_strz(nlh, VS_SCALAR_A_NAME, "nvidia.com/gpu");
	mnl_attr_put_u64(nlh, VS_SCALAR_A_VALUE, 4000);
	mnl_attr_nest_end(nlh, item);
	mnl_attr_nest_end(nlh, res);
	labels = mnl_attr_nest_start(nlh, VS_NODE_A_LABELS);
	for (int i = 0; i < 2; i++) {
		item = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
		mnl_attr_put_strz(nlh, VS_KV_A_KEY, i ? "zone" : "kubernetes.io/arch");
		mnl_attr_put_strz(nlh, VS_KV_A_VALUE, i ? "a" : "");
		mnl_attr_nest_end(nlh, item);
	}
	mnl_attr_nest_end(nlh, labels);
	for (int i = 0; i < 2; i++) {
		taint = mnl_attr_nest_start(nlh, VS_NODE_A_TAINT);
		mnl_attr_put_strz(nlh, VS_TAINT_A_KEY, "dedicated");
		mnl_attr_put_u32(nlh, VS_TAINT_A_EFFECT, VS_TAINT_EFFECT_NO_EXECUTE);
		mnl_attr_nest_end(nlh, taint);
	}
	mnl_attr_put_u8(nlh, VS_NODE_A_UNSCHEDULABLE, 1);
	mnl_attr_nest_end(nlh, node);

	cr_assert_eq(nlt_validate(nlh, tb, &ext), 0, "%s", ext.err.msg);
	cr_assert_eq(ext.error, 0);
	cr_assert_eq((const void *)tb[VS_A_NODE], (void *)node);
	cr_assert_eq(nlt_offs(nlh, tb[VS_A_NODE]), FIRST_ATTR);
	for (unsigned int i = 0; i <= VS_A_MAX; i++)
		if (i != VS_A_NODE)
			cr_assert_null(tb[i]);
}

Test(policy, last_occurrence_of_a_repeated_attribute_is_in_tb)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_EXPLAIN, 0);
	struct nlattr *ex = mnl_attr_nest_start(nlh, VS_A_EXPLAIN);
	const struct vs_nla_policy top[] = {
		[1] = { .type = VS_NLA_U32, .flags = VS_NLA_F_MULTI, .name = "x", .id = "X" },
	};
	const struct nlattr *t[2];
	struct nlattr *second;

	mnl_attr_put_strz(nlh, VS_EXPLAIN_A_NAMESPACE, "ns");
	mnl_attr_nest_end(nlh, ex);
	cr_assert_eq(nlt_validate(nlh, tb, &ext), 0, "%s", ext.err.msg);

	nlh = nlt_request(buf, 0, 0);
	mnl_attr_put_u32(nlh, 1, 1);
	second = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, 1, 2);
	cr_assert_eq(vs_nla_validate(nlh, GENL_HDRLEN, top, 1, t, 0, &ext), 0, "%s",
		     ext.err.msg);
	cr_assert_eq((const void *)t[1], (void *)second);
}

/* What a batch applies its held messages with: the tb validation filled, without the walk. */
Test(policy, a_validated_messages_tb_is_found_again_without_the_policy)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_TASK_GET, NLM_F_DUMP);
	const struct nlattr *again[VS_A_MAX + 1];

	mnl_attr_put_strz(nlh, VS_A_FILTER_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_A_FILTER_NODE, "n1");
	mnl_attr_put_u32(nlh, VS_A_FILTER_STATUS, 1);
	cr_assert_eq(vs_nla_validate(nlh, GENL_HDRLEN, vs_genl_op_find(&vs_genl_vsched,
			VS_CMD_TASK_GET)->dump_policy, VS_A_MAX, tb, 0, &ext), 0, "%s",
		     ext.err.msg);
	memset(again, 0xa5, sizeof(again));
	vs_nla_tb(nlh, GENL_HDRLEN, VS_A_MAX, again);
	for (unsigned int i = 0; i <= VS_A_MAX; i++)
		cr_assert_eq((const void *)again[i], (const void *)tb[i], "attribute %u", i);
	cr_assert_not_null(again[VS_A_FILTER_NODE]);
}

Test(policy, u32_of_three_bytes_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_QUEUE_NEW, 0);
	struct nlattr *q = mnl_attr_nest_start(nlh, VS_A_QUEUE);
	const u8 three[3] = { 1, 0, 0 };

	mnl_attr_put_strz(nlh, VS_QUEUE_A_NAME, "q1");		/* 24..32 */
	mnl_attr_put(nlh, VS_QUEUE_A_WEIGHT, sizeof(three), three);
	mnl_attr_nest_end(nlh, q);
	assert_refused(nlh, "queue.weight (VS_QUEUE_A_WEIGHT): u32 of 3 bytes, needs 4", 32);
}

Test(policy, string_without_nul_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	mnl_attr_put_str(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "node.name (VS_NODE_A_NAME): string not NUL-terminated",
		       FIRST_ATTR + 4);
}

Test(policy, string_with_a_nul_inside_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	mnl_attr_put(nlh, VS_NODE_A_NAME, 4, "n\0x");
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "node.name (VS_NODE_A_NAME): string has a NUL before its end",
		       FIRST_ATTR + 4);
}

Test(policy, string_too_long_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);
	char name[VS_NAME_MAX + 1];

	/* VS_NAME_MAX bytes with the NUL pass; one more does not. */
	memset(name, 'a', sizeof(name));
	name[VS_NAME_MAX - 1] = '\0';
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, name);
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(nlt_validate(nlh, tb, &ext), 0, "%s", ext.err.msg);

	nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	n = mnl_attr_nest_start(nlh, VS_A_NODE);
	name[VS_NAME_MAX - 1] = 'a';
	name[VS_NAME_MAX] = '\0';
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, name);
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "node.name (VS_NODE_A_NAME): string of 255 bytes with its NUL, "
		       "at most 254", FIRST_ATTR + 4);
}

Test(policy, unknown_attribute_type_is_refused)
{
	char want[64];
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_put_u32(nlh, 42, 7);
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "node: unknown attribute type 42 (the highest is 12)", 32);

	/* at the top level too, and type 0 is never an attribute */
	vs_extack_clear(&ext);
	nlh = nlt_request(buf, VS_CMD_NODE_GET, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, 0, 7);
	cr_assert_eq(vs_nla_validate(nlh, GENL_HDRLEN, vs_genl_op_find(&vs_genl_vsched,
			VS_CMD_NODE_GET)->dump_policy, VS_A_MAX, tb, 0, &ext), -EINVAL);
	snprintf(want, sizeof(want), "unknown attribute type 0 (the highest is %d)", VS_A_MAX);
	cr_assert_str_eq(ext.err.msg, want);
	cr_assert_eq(ext.offs, FIRST_ATTR);
}

Test(policy, nest_without_nla_f_nested_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE), *res;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	res = mnl_attr_nest_start(nlh, VS_NODE_A_ALLOCATABLE);
	mnl_attr_put_u64(nlh, VS_RES_A_CPU, 1000);
	mnl_attr_nest_end(nlh, res);
	mnl_attr_nest_end(nlh, n);
	res->nla_type &= (u16)~NLA_F_NESTED;
	assert_refused(nlh, "node.allocatable (VS_NODE_A_ALLOCATABLE): a nest without "
		       "NLA_F_NESTED", 32);

	/* and the flag on what is not a nest */
	vs_extack_clear(&ext);
	res->nla_type |= NLA_F_NESTED;
	((struct nlattr *)((char *)nlh + 24))->nla_type |= NLA_F_NESTED;
	assert_refused(nlh, "node.name (VS_NODE_A_NAME): NLA_F_NESTED set on a string", 24);
}

/* A set that nests itself, to reach any depth. */
static const struct vs_nla_policy deep_policy[2] = {
	[1] = { .type = VS_NLA_NESTED, .name = "deep", .id = "DEEP", .nested = deep_policy,
		.maxattr = 1 },
};

static struct nlmsghdr *deep_request(unsigned int levels, u32 *last)
{
	struct nlmsghdr *nlh = nlt_request(buf, 0, 0);
	struct nlattr *nest[VS_NEST_MAX + 2];

	for (unsigned int i = 0; i < levels; i++) {
		*last = nlt_offs(nlh, mnl_nlmsg_get_payload_tail(nlh));
		nest[i] = mnl_attr_nest_start(nlh, 1);
	}
	for (unsigned int i = levels; i-- > 0;)
		mnl_attr_nest_end(nlh, nest[i]);
	return nlh;
}

Test(policy, nesting_deeper_than_vs_nest_max_is_refused)
{
	const struct nlattr *t[2];
	struct nlmsghdr *nlh;
	u32 last;

	nlh = deep_request(VS_NEST_MAX, &last);
	cr_assert_eq(vs_nla_validate(nlh, GENL_HDRLEN, deep_policy, 1, t, 0, &ext), 0, "%s",
		     ext.err.msg);

	nlh = deep_request(VS_NEST_MAX + 1, &last);
	cr_assert_eq(vs_nla_validate(nlh, GENL_HDRLEN, deep_policy, 1, t, 0, &ext), -EINVAL);
	cr_assert_str_eq(ext.err.msg, "deep.deep.deep.deep.deep.deep.deep.deep.deep (DEEP): "
			 "nested deeper than 8 levels");
	cr_assert_eq(last, FIRST_ATTR + 4 * VS_NEST_MAX);
	cr_assert_eq(ext.offs, last);
}

Test(policy, integer_out_of_range_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_QUEUE_NEW, 0);
	struct nlattr *q = mnl_attr_nest_start(nlh, VS_A_QUEUE);

	mnl_attr_put_strz(nlh, VS_QUEUE_A_NAME, "q1");
	mnl_attr_put_u32(nlh, VS_QUEUE_A_WEIGHT, 0);
	mnl_attr_nest_end(nlh, q);
	assert_refused(nlh, "queue.weight (VS_QUEUE_A_WEIGHT): 0 is out of range 1..2147483647",
		       32);
}

Test(policy, out_of_range_in_a_repeated_nest_names_its_occurrence)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_SET, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE), *t;
	u32 effect_offs = 0;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	for (u32 i = 0; i < 2; i++) {
		t = mnl_attr_nest_start(nlh, VS_NODE_A_TAINT);
		mnl_attr_put_strz(nlh, VS_TAINT_A_KEY, "k");
		effect_offs = nlt_offs(nlh, mnl_nlmsg_get_payload_tail(nlh));
		mnl_attr_put_u32(nlh, VS_TAINT_A_EFFECT, i ? 7 : 0);
		mnl_attr_nest_end(nlh, t);
	}
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "node.taints[1].effect (VS_TAINT_A_EFFECT): 7 is out of range 0..2",
		       effect_offs);
}

Test(policy, signed_range_is_checked_as_signed)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_BIND_RESULT, 0);
	struct nlattr *b = mnl_attr_nest_start(nlh, VS_A_BIND_RESULT);

	mnl_attr_put_strz(nlh, VS_BIND_A_NAMESPACE, "ns");	/* 24..32 */
	mnl_attr_put_strz(nlh, VS_BIND_A_NAME, "p");		/* 32..40 */
	mnl_attr_put_u32(nlh, VS_BIND_A_ERROR, (u32)-ENOSPC);	/* 40..48 */
	mnl_attr_nest_end(nlh, b);
	cr_assert_eq(nlt_validate(nlh, tb, &ext), 0, "%s", ext.err.msg);
	*(s32 *)((char *)nlh + 44) = 1;
	assert_refused(nlh, "bindResult.error (VS_BIND_A_ERROR): 1 is out of range -4095..0", 40);
}

Test(policy, missing_required_attribute_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	mnl_attr_put_u8(nlh, VS_NODE_A_UNSCHEDULABLE, 1);
	mnl_attr_nest_end(nlh, n);
	/* As the kernel: the offset and NLMSGERR_ATTR_MISS_NEST are the nest's. */
	assert_refused(nlh, "node.name (VS_NODE_A_NAME): required but missing", FIRST_ATTR);
	cr_assert_eq(ext.miss_type, VS_NODE_A_NAME);
	cr_assert(ext.has_miss_nest);
	cr_assert_eq(ext.miss_nest, FIRST_ATTR);

	/* at the top level there is no nest to point at */
	vs_extack_clear(&ext);
	nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	cr_assert_eq(nlt_validate(nlh, tb, &ext), -EINVAL);
	cr_assert_str_eq(ext.err.msg, "node (VS_A_NODE): required but missing");
	cr_assert_not(ext.has_offs);
	cr_assert_eq(ext.miss_type, VS_A_NODE);
	cr_assert_not(ext.has_miss_nest);
}

Test(policy, read_only_attribute_in_a_request_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE), *idle;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	idle = mnl_attr_nest_start(nlh, VS_NODE_A_IDLE);
	mnl_attr_put_u64(nlh, VS_RES_A_CPU, 1000);
	mnl_attr_nest_end(nlh, idle);
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "node.idle (VS_NODE_A_IDLE): read-only, not accepted in a request",
		       32);

	/* and top-level reply attributes too */
	vs_extack_clear(&ext);
	nlh = nlt_request(buf, VS_CMD_CYCLE_RUN, 0);
	mnl_attr_put_u64(nlh, VS_A_CYCLE_ID, 3);
	assert_refused(nlh, "cycleID (VS_A_CYCLE_ID): read-only, not accepted in a request",
		       FIRST_ATTR);
}

Test(policy, attribute_the_command_does_not_take_is_refused_by_name)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_DEL, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_put_u8(nlh, VS_NODE_A_READY, 1);
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "node.ready (VS_NODE_A_READY): not taken by this command", 32);

	vs_extack_clear(&ext);
	nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	n = mnl_attr_nest_start(nlh, VS_A_QUEUE);
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "queue (VS_A_QUEUE): not taken by this command", FIRST_ATTR);

	/* an exit code belongs to VS_CMD_TASK_STATUS */
	vs_extack_clear(&ext);
	nlh = nlt_request(buf, VS_CMD_TASK_NEW, 0);
	n = mnl_attr_nest_start(nlh, VS_A_TASK);
	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, "p");
	mnl_attr_put_strz(nlh, VS_TASK_A_PODGROUP, "pg");
	mnl_attr_put_u32(nlh, VS_TASK_A_EXIT_CODE, 1);
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "task.exitCode (VS_TASK_A_EXIT_CODE): not taken by this command",
		       48);
}

Test(policy, attribute_given_twice_is_refused_unless_it_repeats)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n2");
	mnl_attr_nest_end(nlh, n);
	assert_refused(nlh, "node.name (VS_NODE_A_NAME): given more than once", 32);
}

Test(policy, attribute_past_the_end_of_its_nest_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE), *name;

	name = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_nest_end(nlh, n);
	name->nla_len = 40;
	assert_refused(nlh, "node: attribute length 40 runs past the end of its nest "
		       "(8 bytes left)", 24);
	vs_extack_clear(&ext);
	name->nla_len = 2;
	assert_refused(nlh, "node: attribute length 2 is shorter than its header", 24);
}

Test(policy, network_byte_order_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_SUBSCRIBE, 0);
	struct nlattr *a = mnl_nlmsg_get_payload_tail(nlh);

	mnl_attr_put_u32(nlh, VS_A_MCGRP, VS_MCGRP_EVENTS);
	cr_assert_eq(nlt_validate(nlh, tb, &ext), 0, "%s", ext.err.msg);
	a->nla_type |= NLA_F_NET_BYTEORDER;
	assert_refused(nlh, "mcgrp (VS_A_MCGRP): NLA_F_NET_BYTEORDER set: values are in host "
		       "byte order", FIRST_ATTR);
}

Test(policy, a_reply_may_carry_read_only_attributes)
{
	struct nlmsghdr *nlh = nlt_request(buf, VS_CMD_NODE_GET, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE), *idle;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	idle = mnl_attr_nest_start(nlh, VS_NODE_A_IDLE);
	mnl_attr_nest_end(nlh, idle);
	mnl_attr_put_u32(nlh, VS_NODE_A_NR_TASKS, 3);
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(vs_nla_validate(nlh, GENL_HDRLEN, vs_genl_reply_policy, VS_A_MAX, tb,
				     VS_NLA_V_REPLY, &ext), 0, "%s", ext.err.msg);
}

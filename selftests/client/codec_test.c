// SPDX-License-Identifier: Apache-2.0
/*
 * The typed codec (userspace/lib/codec.h) against the daemon's own
 * validator: what the codec puts, the daemon's policy for the command
 * takes; what the policy refuses, the codec refuses to put, and refuses
 * to parse, naming the attribute by its path.
 */
#include <errno.h>
#include <string.h>
#include <criterion/criterion.h>
#include <linux/genetlink.h>

#include "lib/codec_gen.h"
#include "lib/vsnl.h"
#include "netlink/family.h"
#include "netlink/policy.h"

static unsigned char buf[4096];

/* A NODE_NEW request for @name: READY, 2 cpus, one NoExecute taint. */
static struct nlmsghdr *put_node(const char *name)
{
	struct nlmsghdr *nlh = vsnl_msg_put(buf, sizeof(buf), VS_CMD_NODE_NEW, NLM_F_REQUEST);
	struct vsnl_err err = { 0 };
	struct nlattr *node, *res, *taint;

	cr_assert_not_null(nlh);
	node = vsnl_vsched_start_node(nlh, sizeof(buf), &err);
	cr_assert_not_null(node, "%s", err.msg);
	cr_assert_eq(vsnl_node_put_name(nlh, sizeof(buf), name, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_node_put_ready(nlh, sizeof(buf), 1, &err), 0, "%s", err.msg);
	res = vsnl_node_start_allocatable(nlh, sizeof(buf), &err);
	cr_assert_not_null(res, "%s", err.msg);
	cr_assert_eq(vsnl_res_put_cpu(nlh, sizeof(buf), 2000, &err), 0, "%s", err.msg);
	mnl_attr_nest_end(nlh, res);
	taint = vsnl_node_start_taint(nlh, sizeof(buf), &err);
	cr_assert_not_null(taint, "%s", err.msg);
	cr_assert_eq(vsnl_taint_put_key(nlh, sizeof(buf), "gpu", &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_taint_put_effect(nlh, sizeof(buf), VS_TAINT_EFFECT_NO_EXECUTE, &err), 0,
		     "%s", err.msg);
	mnl_attr_nest_end(nlh, taint);
	mnl_attr_nest_end(nlh, node);
	return nlh;
}

/* The daemon's validation of @nlh against the request policy of its command. */
static int daemon_validate(const struct nlmsghdr *nlh, struct vs_extack *ext)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct vs_genl_op *op = vs_genl_op_find(&vs_genl_vsched, g->cmd);
	const struct nlattr *tb[VS_A_MAX + 1];

	cr_assert_not_null(op);
	memset(ext, 0, sizeof(*ext));
	return vs_nla_validate(nlh, GENL_HDRLEN, op->policy, op->maxattr, tb, 0, ext);
}

Test(vsnl_codec, put_request_is_taken_by_the_daemon_and_parses_back)
{
	struct nlmsghdr *nlh = put_node("n1");
	struct vsnl_vsched_tb top;
	struct vsnl_node_tb node;
	struct vsnl_res_tb res;
	struct vsnl_err err = { 0 };
	struct vs_extack ext;
	uint64_t cpu = 0;
	uint8_t ready = 0;

	cr_assert_eq(daemon_validate(nlh, &ext), 0, "%s", ext.err.msg);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr,
					  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	cr_assert_not_null(vsnl_vsched_get_node(&top));
	cr_assert_eq(vsnl_node_parse(vsnl_vsched_get_node(&top), &node, VSNL_CODEC_REQUEST, &err),
		     0, "%s", err.msg);
	cr_assert_str_eq(vsnl_node_get_name(&node), "n1");
	cr_assert(vsnl_node_get_ready(&node, &ready));
	cr_assert_eq(ready, 1);
	cr_assert_eq(vsnl_res_parse(vsnl_node_get_allocatable(&node), &res, 0, &err), 0, "%s",
		     err.msg);
	cr_assert(vsnl_res_get_cpu(&res, &cpu));
	cr_assert_eq(cpu, 2000);
	cr_assert_not(vsnl_node_get_unschedulable(&node, &ready), "absent attributes read as absent");
}

Test(vsnl_codec, put_refuses_what_the_policy_refuses)
{
	struct nlmsghdr *nlh = vsnl_msg_put(buf, sizeof(buf), VS_CMD_NODE_NEW, NLM_F_REQUEST);
	struct vsnl_err err = { 0 };
	char long_name[VS_NAME_MAX + 1];
	uint32_t before = nlh->nlmsg_len;

	cr_assert_eq(vsnl_taint_put_effect(nlh, sizeof(buf), VS_TAINT_EFFECT_ANY, &err), -EINVAL);
	cr_assert(strstr(err.msg, "taint.effect: 3 out of 0..2"), "%s", err.msg);
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	cr_assert_eq(vsnl_node_put_name(nlh, sizeof(buf), long_name, &err), -EINVAL);
	cr_assert(strstr(err.msg, "node.name: 255 bytes with the NUL, at most 254"), "%s", err.msg);
	cr_assert_eq(vsnl_queue_put_weight(nlh, sizeof(buf), 0, &err), -EINVAL, "weight is 1..");
	cr_assert_eq(nlh->nlmsg_len, before, "a refused put leaves the message as it was");
	cr_assert_eq(vsnl_node_put_name(nlh, 24, "n1", &err), -EMSGSIZE);
}

Test(vsnl_codec, parse_refuses_what_the_daemon_refuses_with_the_path)
{
	struct nlmsghdr *nlh = put_node("n1");
	struct vsnl_vsched_tb top;
	struct vsnl_node_tb node;
	struct vsnl_err err = { 0 };
	struct vs_extack ext;
	struct nlattr *a;
	uint32_t *effect = NULL;

	/* Past the codec: the taint's effect becomes 7 in the message. */
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		struct nlattr *n, *t;

		mnl_attr_for_each_nested(n, a)
			if (mnl_attr_get_type(n) == VS_NODE_A_TAINT)
				mnl_attr_for_each_nested(t, n)
					if (mnl_attr_get_type(t) == VS_TAINT_A_EFFECT)
						effect = mnl_attr_get_payload(t);
	}
	cr_assert_not_null(effect);
	*effect = 7;
	cr_assert_eq(daemon_validate(nlh, &ext), -EINVAL);
	cr_assert(strstr(ext.err.msg, "node.taints[0].effect"), "%s", ext.err.msg);
	/* The message is checked down to its innermost nest, as the daemon checks it. */
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr, 0, &err),
		     -EINVAL);
	cr_assert_str_eq(err.msg, "node.taints[0].effect: 7 out of 0..2");
	cr_assert_null(vsnl_vsched_get_node(&top), "a refused message leaves no attribute");
	/* And a nest alone, named from where the reader starts. */
	a = mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN);
	cr_assert_eq(vsnl_node_parse(a, &node, 0, &err), -EINVAL);
	cr_assert_str_eq(err.msg, "taints[0].effect: 7 out of 0..2");
	cr_assert_null(vsnl_node_get_name(&node), "a refused nest leaves no attribute");
}

/*
 * A reply says what the daemon has: its ranges are a request's, and a
 * reply's value out of them is read; its types and lengths are not.
 */
Test(vsnl_codec, a_reply_is_read_past_a_requests_range_not_past_its_length)
{
	static unsigned char msg[512] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = vsnl_msg_put(msg, sizeof(msg), VS_CMD_CONF_GET, 0);
	struct vsnl_err err = { 0 };
	struct vsnl_vsched_tb top;
	struct vsnl_conf_tb conf;
	struct nlattr *nest;
	uint32_t period = 1;

	/* conf.periodMs 0: periodic cycles off, which no request may set */
	nest = mnl_attr_nest_start(nlh, VS_A_CONF);
	mnl_attr_put_u32(nlh, VS_CONF_A_PERIOD_MS, 0);
	mnl_attr_nest_end(nlh, nest);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_reply, nlh, GENL_HDRLEN, top.attr, 0, &err),
		     -EINVAL);
	cr_assert_str_eq(err.msg, "conf.periodMs: 0 out of 1..86400000");
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_reply, nlh, GENL_HDRLEN, top.attr,
					  VSNL_CODEC_REPLY, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_conf_parse(vsnl_vsched_get_conf(&top), &conf, VSNL_CODEC_REPLY, &err), 0);
	cr_assert(vsnl_conf_get_period_ms(&conf, &period));
	cr_assert_eq(period, 0);

	/* the same value in 8 bytes is refused however it is read */
	nlh = vsnl_msg_put(msg, sizeof(msg), VS_CMD_CONF_GET, 0);
	nest = mnl_attr_nest_start(nlh, VS_A_CONF);
	mnl_attr_put_u64(nlh, VS_CONF_A_PERIOD_MS, 0);
	mnl_attr_nest_end(nlh, nest);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_reply, nlh, GENL_HDRLEN, top.attr,
					  VSNL_CODEC_REPLY, &err), -EINVAL);
	cr_assert_str_eq(err.msg, "conf.periodMs: 8 bytes, needs 4");
}

Test(vsnl_codec, subset_refuses_what_its_command_does_not_take)
{
	struct nlmsghdr *nlh = put_node("n1");
	struct vsnl_vsched_tb top;
	struct vsnl_node_tb node;
	struct vsnl_err err = { 0 };
	struct vs_extack ext;
	struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);

	/* DEL takes the key alone: the daemon and node-key both refuse READY. */
	g->cmd = VS_CMD_NODE_DEL;
	cr_assert_eq(daemon_validate(nlh, &ext), -EINVAL);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr, 0, &err), 0);
	cr_assert_eq(vsnl_node_key_parse(vsnl_vsched_get_node(&top), &node, VSNL_CODEC_REQUEST, &err),
		     -EINVAL);
	cr_assert_str_eq(err.msg, "ready: not taken here");
}

/*
 * A client that writes its requests one after another in one buffer (the
 * binder of "vsbench run --mode socket") sends their padding: the codec
 * zeroes it, whatever the buffer held, so that the bytes are the request's.
 */
Test(vsnl_codec, put_zeroes_the_padding_the_buffer_held)
{
	struct nlmsghdr *nlh;
	struct vsnl_err err = { 0 };
	struct nlattr *node, *a;
	unsigned int checked = 0;

	memset(buf, 0xa5, sizeof(buf));
	nlh = vsnl_msg_put(buf, sizeof(buf), VS_CMD_NODE_NEW, 0);
	cr_assert_not_null(nlh);
	node = vsnl_vsched_start_node(nlh, sizeof(buf), &err);
	cr_assert_not_null(node, "%s", err.msg);
	/* 3 bytes with the NUL, 1 byte: each leaves padding to fill */
	cr_assert_eq(vsnl_node_put_name(nlh, sizeof(buf), "n1", &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_node_put_ready(nlh, sizeof(buf), 1, &err), 0, "%s", err.msg);
	mnl_attr_nest_end(nlh, node);
	mnl_attr_for_each_nested(a, node) {
		const unsigned char *p = mnl_attr_get_payload(a);
		size_t len = mnl_attr_get_payload_len(a);

		for (size_t i = len; i < MNL_ALIGN(len); i++, checked++)
			cr_assert_eq(p[i], 0, "attribute %u: padding byte %zu is 0x%02x",
				     mnl_attr_get_type(a), i - len, p[i]);
	}
	cr_assert_eq(checked, 1 + 3, "not the padding of both attributes");
}

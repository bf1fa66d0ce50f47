// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for framing and replies (netlink/msg.h): a datagram splits into its
 * messages and a broken one stops the split with the right error; errors,
 * acks, NLMSG_DONE and generic netlink replies, parsed back with libmnl, are
 * what the kernel would have sent.
 */
#include <stdalign.h>

#include "nltest.h"

static char req_buf[1024] __attribute__((aligned(4)));
static char out[4096] __attribute__((aligned(4)));
static struct vs_nl_reply reply;
static struct vs_extack ext;

static void setup(void)
{
	memset(req_buf, 0, sizeof(req_buf));
	memset(out, 0xa5, sizeof(out));
	vs_nl_reply_init(&reply, out, sizeof(out), 77);
	vs_extack_clear(&ext);
}

TestSuite(msg, .init = setup);

Test(msg, a_datagram_splits_into_its_messages)
{
	char dgram[256] __attribute__((aligned(4))) = { 0 };
	const struct nlmsghdr *nlh;
	struct vs_nl_iter it;
	struct nlmsghdr *a = nlt_request(dgram, VS_CMD_STATS_GET, 0), *b;
	size_t len;

	mnl_attr_put_u32(a, VS_A_MCGRP, 1);
	b = nlt_request(dgram + a->nlmsg_len, VS_CMD_CONF_GET, 0);
	b->nlmsg_seq = 43;
	len = a->nlmsg_len + b->nlmsg_len;

	vs_nl_iter_init(&it, dgram, len);
	cr_assert_eq(vs_nl_iter_next(&it, &nlh, &ext), 1);
	cr_assert_eq(nlh, a);
	cr_assert_eq(vs_nl_iter_next(&it, &nlh, &ext), 1);
	cr_assert_eq(nlh, b);
	cr_assert_eq(vs_nl_iter_next(&it, &nlh, &ext), 0);
	cr_assert_null(nlh);
	cr_assert_eq(ext.error, 0);
}

Test(msg, truncated_header_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_STATS_GET, 0);
	const struct nlmsghdr *got;
	struct vs_nl_iter it;

	vs_nl_iter_init(&it, req_buf, 6);
	cr_assert_eq(vs_nl_iter_next(&it, &got, &ext), -EINVAL);
	cr_assert_str_eq(ext.err.msg, "truncated message header: 6 bytes, needs 16");
	cr_assert_not(ext.has_offs);
	/* what there was of the header answers it */
	cr_assert_eq(it.bad.nlmsg_type, nlh->nlmsg_type);
	cr_assert_eq(it.bad.nlmsg_seq, 0);
	cr_assert_eq(it.bad.nlmsg_len, sizeof(struct nlmsghdr));
	cr_assert_eq(vs_nl_iter_next(&it, &got, &ext), 0);
}

Test(msg, nlmsg_len_past_the_datagram_is_refused)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_STATS_GET, 0);
	const struct nlmsghdr *got;
	struct vs_nl_iter it;

	nlh->nlmsg_len = 100;
	vs_nl_iter_init(&it, req_buf, 40);
	cr_assert_eq(vs_nl_iter_next(&it, &got, &ext), -EINVAL);
	cr_assert_str_eq(ext.err.msg, "nlmsg_len 100 runs past the end of the datagram "
			 "(40 bytes left)");
	cr_assert_not(ext.has_offs);
	cr_assert_eq(it.bad.nlmsg_seq, 42);

	vs_extack_clear(&ext);
	nlh->nlmsg_len = 8;
	vs_nl_iter_init(&it, req_buf, 40);
	cr_assert_eq(vs_nl_iter_next(&it, &got, &ext), -EINVAL);
	cr_assert_str_eq(ext.err.msg, "nlmsg_len 8 is shorter than the message header");
}

Test(msg, a_message_after_a_good_one_can_be_broken)
{
	char dgram[128] __attribute__((aligned(4))) = { 0 };
	struct nlmsghdr *a = nlt_request(dgram, VS_CMD_STATS_GET, 0);
	const struct nlmsghdr *got;
	struct vs_nl_iter it;

	vs_nl_iter_init(&it, dgram, a->nlmsg_len + 6);
	cr_assert_eq(vs_nl_iter_next(&it, &got, &ext), 1);
	cr_assert_eq(vs_nl_iter_next(&it, &got, &ext), -EINVAL);
	cr_assert_str_eq(ext.err.msg, "truncated message header: 6 bytes, needs 16");
}

Test(msg, request_checks)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_STATS_GET, 0);

	cr_assert_eq(vs_nl_msg_check(nlh, &ext), 0);
	nlh->nlmsg_type = 0x21;
	cr_assert_eq(vs_nl_msg_check(nlh, &ext), -ENOENT);
	cr_assert_str_eq(ext.err.msg, "unknown family id 0x21 (vsched's is 0x20)");

	vs_extack_clear(&ext);
	nlh->nlmsg_type = NLMSG_NOOP;
	cr_assert_eq(vs_nl_msg_check(nlh, &ext), -EINVAL);
	cr_assert_str_eq(ext.err.msg, "nlmsg_type 1 is a control message, not a request");

	vs_extack_clear(&ext);
	nlh->nlmsg_type = VSCHED_GENL_ID;
	nlh->nlmsg_flags = 0;
	cr_assert_eq(vs_nl_msg_check(nlh, &ext), -EINVAL);
	cr_assert_str_eq(ext.err.msg, "NLM_F_REQUEST not set: not a request");

	vs_extack_clear(&ext);
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_len = NLMSG_HDRLEN + 2;
	cr_assert_eq(vs_nl_msg_check(nlh, &ext), -EINVAL);
	cr_assert_str_eq(ext.err.msg, "generic netlink header missing: 2 bytes after the "
			 "message header, needs 4");

	vs_extack_clear(&ext);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	cr_assert_eq(vs_nl_msg_check(nlh, &ext), 0);
}

/* The extended-ack attributes of an NLMSG_ERROR or NLMSG_DONE. */
struct tlvs {
	const char *msg;
	u32 offs, miss_type, miss_nest;
	bool has_offs, has_miss_nest;
};

static int tlv_cb(const struct nlattr *a, void *data)
{
	struct tlvs *t = data;

	switch (mnl_attr_get_type(a)) {
	case NLMSGERR_ATTR_MSG:
		cr_assert_eq(mnl_attr_validate(a, MNL_TYPE_NUL_STRING), 0);
		t->msg = mnl_attr_get_str(a);
		break;
	case NLMSGERR_ATTR_OFFS:
		t->offs = mnl_attr_get_u32(a);
		t->has_offs = true;
		break;
	case NLMSGERR_ATTR_MISS_TYPE:
		t->miss_type = mnl_attr_get_u32(a);
		break;
	case NLMSGERR_ATTR_MISS_NEST:
		t->miss_nest = mnl_attr_get_u32(a);
		t->has_miss_nest = true;
		break;
	default:
		cr_assert_fail("unexpected attribute %u", mnl_attr_get_type(a));
	}
	return MNL_CB_OK;
}

Test(msg, error_echoes_the_request_and_carries_the_extended_ack)
{
	struct nlmsghdr *req = nlt_request(req_buf, VS_CMD_NODE_NEW, NLM_F_ACK);
	const struct nlmsghdr *nlh = (const void *)out;
	const struct nlmsgerr *e;
	struct tlvs t = { 0 };
	size_t echo;

	mnl_attr_put_strz(req, VS_A_FILTER_NODE, "n1");
	ext.error = -EINVAL;
	vs_err_set(&ext.err, EINVAL, "node.name (VS_NODE_A_NAME): string not NUL-terminated");
	vs_extack_set_attr(&ext, req, (char *)req + FIRST_ATTR);
	ext.miss_type = 3;
	ext.miss_nest = 20;
	ext.has_miss_nest = true;
	cr_assert_eq(vs_nl_reply_error(&reply, req, EINVAL, &ext), 0);

	cr_assert(mnl_nlmsg_ok(nlh, (int)reply.len));
	cr_assert_eq(nlh->nlmsg_len, reply.len);
	cr_assert_eq(nlh->nlmsg_type, NLMSG_ERROR);
	cr_assert_eq(nlh->nlmsg_flags, NLM_F_ACK_TLVS);
	cr_assert_eq(nlh->nlmsg_seq, 42);
	cr_assert_eq(nlh->nlmsg_pid, 77);
	e = mnl_nlmsg_get_payload(nlh);
	cr_assert_eq(e->error, -EINVAL);
	cr_assert_eq(memcmp(&e->msg, req, sizeof(*req)), 0);
	echo = req->nlmsg_len - NLMSG_HDRLEN;
	cr_assert_eq(memcmp(e + 1, (char *)req + NLMSG_HDRLEN, echo), 0);
	cr_assert_eq(mnl_attr_parse(nlh, sizeof(*e) + MNL_ALIGN(echo), tlv_cb, &t), MNL_CB_OK);
	cr_assert_str_eq(t.msg, "node.name (VS_NODE_A_NAME): string not NUL-terminated");
	cr_assert(t.has_offs);
	cr_assert_eq(t.offs, FIRST_ATTR);
	cr_assert_eq(t.miss_type, 3);
	cr_assert(t.has_miss_nest);
	cr_assert_eq(t.miss_nest, 20);
	/* and the offset points into the echo, at the same attribute */
	cr_assert_eq(memcmp((char *)&e->msg + t.offs, (char *)req + FIRST_ATTR, 4), 0);
}

Test(msg, error_is_capped_when_the_request_does_not_fit)
{
	struct nlmsghdr *req = nlt_request(req_buf, VS_CMD_NODE_NEW, 0);
	const struct nlmsghdr *nlh = (const void *)out;
	char big[600];
	struct tlvs t = { 0 };

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	mnl_attr_put_strz(req, VS_A_FILTER_NODE, big);
	vs_nl_reply_init(&reply, out, VS_NL_ERROR_MIN, 77);
	vs_extack_fail(&ext, EINVAL, "too long");
	cr_assert_eq(vs_nl_reply_error(&reply, req, -EINVAL, &ext), 0);
	cr_assert_eq(nlh->nlmsg_flags, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	/* the header keeps the request's length, as the kernel's does */
	cr_assert_eq(((const struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->msg.nlmsg_len,
		     req->nlmsg_len);
	cr_assert_eq(mnl_attr_parse(nlh, sizeof(struct nlmsgerr), tlv_cb, &t), MNL_CB_OK);
	cr_assert_str_eq(t.msg, "too long");
	cr_assert_not(t.has_offs);

	/* and the caller may ask for capped errors always (NETLINK_CAP_ACK) */
	vs_nl_reply_init(&reply, out, sizeof(out), 77);
	reply.cap_ack = true;
	cr_assert_eq(vs_nl_reply_error(&reply, req, -EINVAL, &ext), 0);
	cr_assert_eq(nlh->nlmsg_flags, NLM_F_CAPPED | NLM_F_ACK_TLVS);

	/* no room at all */
	vs_nl_reply_init(&reply, out, 20, 77);
	cr_assert_eq(vs_nl_reply_error(&reply, req, -EINVAL, &ext), -EMSGSIZE);
	cr_assert_eq(reply.len, 0);
}

Test(msg, ack_is_a_capped_error_of_zero)
{
	struct nlmsghdr *req = nlt_request(req_buf, VS_CMD_NODE_NEW, NLM_F_ACK);
	const struct nlmsghdr *nlh = (const void *)out;
	const struct nlmsgerr *e;

	mnl_attr_put_u32(req, VS_A_MCGRP, 1);
	cr_assert_eq(vs_nl_reply_ack(&reply, req), 0);
	cr_assert_eq(reply.len, NLMSG_HDRLEN + sizeof(*e));
	cr_assert(mnl_nlmsg_ok(nlh, (int)reply.len));
	cr_assert_eq(nlh->nlmsg_type, NLMSG_ERROR);
	cr_assert_eq(nlh->nlmsg_flags, NLM_F_CAPPED);
	cr_assert_eq(nlh->nlmsg_seq, 42);
	cr_assert_eq(nlh->nlmsg_pid, 77);
	e = mnl_nlmsg_get_payload(nlh);
	cr_assert_eq(e->error, 0);
	cr_assert_eq(e->msg.nlmsg_seq, 42);
}

Test(msg, done_ends_a_dump_with_its_status)
{
	struct nlmsghdr *req = nlt_request(req_buf, VS_CMD_NODE_GET, NLM_F_DUMP);
	const struct nlmsghdr *nlh = (const void *)out, *next;
	struct tlvs t = { 0 };
	int left;

	cr_assert_eq(vs_nl_reply_done(&reply, req, 0, NULL), 0);
	cr_assert_eq(nlh->nlmsg_type, NLMSG_DONE);
	cr_assert_eq(nlh->nlmsg_flags, NLM_F_MULTI);
	cr_assert_eq(nlh->nlmsg_len, NLMSG_HDRLEN + sizeof(int));
	cr_assert_eq(*(const int *)mnl_nlmsg_get_payload(nlh), 0);

	/* an error in a later part of a dump ends it, with the extended ack */
	vs_extack_fail(&ext, ENOMEM, "out of memory");
	cr_assert_eq(vs_nl_reply_done(&reply, req, -ENOMEM, &ext), 0);
	left = (int)reply.len;
	next = mnl_nlmsg_next(nlh, &left);
	cr_assert(mnl_nlmsg_ok(next, left));
	cr_assert_eq(next->nlmsg_flags, NLM_F_MULTI | NLM_F_ACK_TLVS);
	cr_assert_eq(*(const int *)mnl_nlmsg_get_payload(next), -ENOMEM);
	cr_assert_eq(mnl_attr_parse(next, sizeof(int), tlv_cb, &t), MNL_CB_OK);
	cr_assert_str_eq(t.msg, "out of memory");
}

Test(msg, genl_reply_header_has_the_client_port_and_the_request_seq)
{
	struct nlmsghdr *req = nlt_request(req_buf, VS_CMD_NODE_GET, 0);
	struct nlmsghdr *nlh, *second;
	const struct genlmsghdr *g;
	size_t room;

	req->nlmsg_seq = 1234;
	nlh = vs_nl_reply_genl(&reply, req, VSCHED_GENL_ID, 0, VS_CMD_NODE_GET,
			       VSCHED_GENL_VERSION);
	cr_assert_not_null(nlh);
	room = vs_nl_reply_room(&reply, nlh);
	cr_assert_eq(room, sizeof(out));
	cr_assert(mnl_attr_put_strz_check(nlh, room, VS_A_FILTER_NODE, "n1"));
	cr_assert_eq(reply.len, 0, "an open message is not part of the reply");
	vs_nl_reply_finish(&reply, nlh);
	cr_assert_eq(reply.len, nlh->nlmsg_len);
	cr_assert_eq(nlh->nlmsg_type, VSCHED_GENL_ID);
	cr_assert_eq(nlh->nlmsg_seq, 1234);
	cr_assert_eq(nlh->nlmsg_pid, 77);
	g = mnl_nlmsg_get_payload(nlh);
	cr_assert_eq(g->cmd, VS_CMD_NODE_GET);
	cr_assert_eq(g->version, VSCHED_GENL_VERSION);

	/* the next message goes after it; a notification has seq 0 */
	second = vs_nl_reply_genl(&reply, NULL, VSCHED_GENL_ID, 0, VS_CMD_EVENT,
				  VSCHED_GENL_VERSION);
	cr_assert_eq((char *)second, out + reply.len);
	cr_assert_eq(second->nlmsg_seq, 0);

	/* no room for the headers: NULL */
	vs_nl_reply_init(&reply, out, NLMSG_HDRLEN + 2, 77);
	cr_assert_null(vs_nl_reply_genl(&reply, req, VSCHED_GENL_ID, 0, 1, 1));
}

/* mnl_nlmsg_ok() compares nlmsg_len as an int: 2^31 and more looked negative, and fit. */
Test(msg, nlmsg_len_of_2_to_the_31_is_past_the_datagram)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_STATS_GET, 0);
	const struct nlmsghdr *got;
	struct vs_nl_iter it;

	nlh->nlmsg_len = 0x8000009cu;
	vs_nl_iter_init(&it, req_buf, 92);
	cr_assert_eq(vs_nl_iter_next(&it, &got, &ext), -EINVAL);
	cr_assert_null(got);
	cr_assert_str_eq(ext.err.msg, "nlmsg_len 2147483804 runs past the end of the datagram "
			 "(92 bytes left)");
	cr_assert_eq(vs_nl_iter_next(&it, &got, &ext), 0);
}

Test(msg, attribute_padding_is_zeroed_whatever_the_buffer_held)
{
	alignas(NLMSG_ALIGNTO) unsigned char b[256];
	struct nlmsghdr *nlh;
	const unsigned char *p;

	memset(b, 0xa5, sizeof(b));
	nlh = nlt_request(b, VS_CMD_STATS_GET, 0);
	cr_assert(vs_nla_put_u8(nlh, sizeof(b), 1, 7));
	cr_assert(vs_nla_put_strz(nlh, sizeof(b), 2, "abcde"));	/* 6 bytes, 2 of padding */
	cr_assert(vs_nla_put_u16(nlh, sizeof(b), 3, 9));
	cr_assert_eq(nlh->nlmsg_len, FIRST_ATTR + 8 + 12 + 8);
	p = b + FIRST_ATTR;
	cr_assert(p[5] == 0 && p[6] == 0 && p[7] == 0, "after the u8");
	cr_assert(p[8 + 10] == 0 && p[8 + 11] == 0, "after the string");
	cr_assert(p[20 + 6] == 0 && p[20 + 7] == 0, "after the u16");
	/* What does not fit is not written at all. */
	cr_assert_not(vs_nla_put_strz(nlh, nlh->nlmsg_len + 4, 4, "x"));
	cr_assert_eq(nlh->nlmsg_len, FIRST_ATTR + 28);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz-style tests of validation: random byte flips of a valid node NEW.
 *
 * The attribute bytes are checked against an oracle written apart from
 * policy.c, with libmnl's own checks, for the node set alone: validation
 * must accept exactly the mutants the oracle accepts, so a broken message
 * never passes and a good one is never refused; what passes is then parsed
 * (parse.c trusts validation), which under SANITIZE=1 would catch any read
 * past an attribute. Flips anywhere in the datagram, headers included, go
 * through the framing and the dispatcher and must always be answered.
 */
#include <stdio.h>

#include "nltest.h"
#include "core/arena.h"
#include "netlink/handlers.h"
#include "netlink/parse.h"

#define ITERATIONS	20000

static char good[1024] __attribute__((aligned(4)));
static char buf[1024] __attribute__((aligned(4)));
static char out[16384] __attribute__((aligned(4)));
static u32 good_len;
static u64 rng = 0x9e3779b97f4a7c15ULL;

/* xorshift64*: the same mutants on every run, so a failure reproduces. */
static u64 next_rand(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static void build_good(void)
{
	struct nlmsghdr *nlh = nlt_request(good, VS_CMD_NODE_NEW, NLM_F_ACK);
	struct nlattr *node, *res, *labels, *item, *taint;

	node = mnl_attr_nest_start(nlh, VS_A_NODE);
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "node-1");
	res = mnl_attr_nest_start(nlh, VS_NODE_A_ALLOCATABLE);
	mnl_attr_put_u64(nlh, VS_RES_A_CPU, 8000);
	mnl_attr_put_u64(nlh, VS_RES_A_MEMORY, 1ULL << 35);
	item = mnl_attr_nest_start(nlh, VS_RES_A_SCALAR);
	mnl_attr_put_strz(nlh, VS_SCALAR_A_NAME, "nvidia.com/gpu");
	mnl_attr_put_u64(nlh, VS_SCALAR_A_VALUE, 4000);
	mnl_attr_nest_end(nlh, item);
	mnl_attr_nest_end(nlh, res);
	labels = mnl_attr_nest_start(nlh, VS_NODE_A_LABELS);
	item = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
	mnl_attr_put_strz(nlh, VS_KV_A_KEY, "zone");
	mnl_attr_put_strz(nlh, VS_KV_A_VALUE, "a");
	mnl_attr_nest_end(nlh, item);
	mnl_attr_nest_end(nlh, labels);
	taint = mnl_attr_nest_start(nlh, VS_NODE_A_TAINT);
	mnl_attr_put_strz(nlh, VS_TAINT_A_KEY, "gpu");
	mnl_attr_put_u32(nlh, VS_TAINT_A_EFFECT, VS_TAINT_EFFECT_NO_SCHEDULE);
	mnl_attr_nest_end(nlh, taint);
	mnl_attr_put_u8(nlh, VS_NODE_A_READY, 1);
	mnl_attr_nest_end(nlh, node);
	good_len = nlh->nlmsg_len;
}

/* ---- the oracle: the node set of uapi/vsched/vsched.h, by hand ---- */

typedef bool (*attr_fn)(const struct nlattr *a);

static bool is_nest(const struct nlattr *a)
{
	return a->nla_type & NLA_F_NESTED;
}

static bool str_ok(const struct nlattr *a, size_t max)
{
	size_t len = mnl_attr_get_payload_len(a);

	return !is_nest(a) && mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0 &&
	       strlen(mnl_attr_get_str(a)) + 1 == len && len <= max;
}

static bool uint_ok(const struct nlattr *a, size_t size, u64 max)
{
	u64 v = 0;

	if (is_nest(a) || mnl_attr_get_payload_len(a) != size)
		return false;
	memcpy(&v, mnl_attr_get_payload(a), size);	/* little-endian hosts */
	return v <= max;
}

/*
 * Every attribute of a set through @fn, which says whether it is good;
 * types in @multi may repeat, those in @required must be there.
 */
static bool set_ok(const struct nlattr *nest, attr_fn fn, u64 multi, u64 required)
{
	const struct nlattr *a = mnl_attr_get_payload(nest);
	int len = (int)mnl_attr_get_payload_len(nest);
	u64 seen = 0;

	if (!is_nest(nest))
		return false;
	while (len > 0) {
		u16 type;

		if (!mnl_attr_ok(a, len) || (a->nla_type & NLA_F_NET_BYTEORDER))
			return false;
		type = mnl_attr_get_type(a);
		if (type > 63 || ((seen >> type) & 1 && !((multi >> type) & 1)) || !fn(a))
			return false;
		seen |= 1ULL << type;
		len -= (int)MNL_ALIGN(a->nla_len);
		a = mnl_attr_next(a);
	}
	return (seen & required) == required;
}

#define BIT(t)		(1ULL << (t))
#define RES_MAX		(9223372036854775807ULL - 1)

static bool scalar_attr(const struct nlattr *a)
{
	switch (mnl_attr_get_type(a)) {
	case VS_SCALAR_A_NAME:
		return str_ok(a, 318);
	case VS_SCALAR_A_VALUE:
		return uint_ok(a, 8, RES_MAX);
	}
	return false;
}

static bool res_attr(const struct nlattr *a)
{
	switch (mnl_attr_get_type(a)) {
	case VS_RES_A_CPU:
	case VS_RES_A_MEMORY:
	case VS_RES_A_PODS:
		return uint_ok(a, 8, RES_MAX);
	case VS_RES_A_SCALAR:
		return set_ok(a, scalar_attr, 0, BIT(VS_SCALAR_A_NAME) | BIT(VS_SCALAR_A_VALUE));
	}
	return false;
}

static bool kv_attr(const struct nlattr *a)
{
	switch (mnl_attr_get_type(a)) {
	case VS_KV_A_KEY:
		return str_ok(a, 318);
	case VS_KV_A_VALUE:
		return str_ok(a, VS_LABEL_VALUE_MAX);
	}
	return false;
}

static bool labels_attr(const struct nlattr *a)
{
	return mnl_attr_get_type(a) == VS_LABELS_A_ITEM && set_ok(a, kv_attr, 0, BIT(VS_KV_A_KEY));
}

static bool taint_attr(const struct nlattr *a)
{
	switch (mnl_attr_get_type(a)) {
	case VS_TAINT_A_KEY:
		return str_ok(a, 318);
	case VS_TAINT_A_VALUE:
		return str_ok(a, VS_LABEL_VALUE_MAX);
	case VS_TAINT_A_EFFECT:
		return uint_ok(a, 4, 2);
	}
	return false;
}

static bool node_attr(const struct nlattr *a)
{
	switch (mnl_attr_get_type(a)) {
	case VS_NODE_A_NAME:
		return str_ok(a, VS_NAME_MAX);
	case VS_NODE_A_ALLOCATABLE:
		return set_ok(a, res_attr, BIT(VS_RES_A_SCALAR), 0);
	case VS_NODE_A_LABELS:
		return set_ok(a, labels_attr, BIT(VS_LABELS_A_ITEM), 0);
	case VS_NODE_A_TAINT:
		return set_ok(a, taint_attr, 0, BIT(VS_TAINT_A_KEY) | BIT(VS_TAINT_A_EFFECT));
	case VS_NODE_A_UNSCHEDULABLE:
	case VS_NODE_A_READY:
		return uint_ok(a, 1, 1);
	}
	return false;
}

static bool top_attr(const struct nlattr *a)
{
	return mnl_attr_get_type(a) == VS_A_NODE &&
	       set_ok(a, node_attr, BIT(VS_NODE_A_TAINT), BIT(VS_NODE_A_NAME));
}

static bool oracle(const struct nlmsghdr *nlh)
{
	/* The message's attributes, seen as the payload of a nest around them. */
	static char wrap[1024 + 4] __attribute__((aligned(4)));
	struct nlattr *w = (struct nlattr *)wrap;
	size_t len = nlh->nlmsg_len - FIRST_ATTR;

	w->nla_type = NLA_F_NESTED;
	w->nla_len = (u16)(NLA_HDRLEN + len);
	memcpy(wrap + NLA_HDRLEN, (const char *)nlh + FIRST_ATTR, len);
	return set_ok(w, top_attr, 0, BIT(VS_A_NODE));
}

TestSuite(fuzz, .init = build_good);

Test(fuzz, the_oracle_and_validation_agree_on_the_good_message)
{
	const struct nlattr *tb[VS_A_MAX + 1];
	struct vs_extack ext = { 0 };

	cr_assert(oracle((const void *)good));
	cr_assert_eq(nlt_validate((const void *)good, tb, &ext), 0, "%s", ext.err.msg);
}

Test(fuzz, attribute_flips_pass_validation_exactly_when_the_message_stays_valid)
{
	const struct nlattr *tb[VS_A_MAX + 1];
	struct vs_cluster cl;
	struct vs_arena arena;
	unsigned int accepted = 0, refused = 0;

	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_arena_init(&arena, 4096);
	for (unsigned int i = 0; i < ITERATIONS; i++) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		unsigned int flips = 1 + (unsigned int)(next_rand() % 3);
		struct vs_extack ext = { 0 };
		bool want;
		int ret;

		memcpy(buf, good, good_len);
		for (unsigned int f = 0; f < flips; f++) {
			u64 r = next_rand();
			size_t pos = FIRST_ATTR + (size_t)(r % (good_len - FIRST_ATTR));

			/* Bit flips, and now and then the bytes that matter most: 0 and 0xff. */
			switch ((r >> 32) % 4) {
			case 0:
				buf[pos] = 0;
				break;
			case 1:
				buf[pos] = (char)0xff;
				break;
			default:
				buf[pos] ^= (char)(1u << ((r >> 40) % 8));
			}
		}
		want = oracle(nlh);
		ret = nlt_validate(nlh, tb, &ext);
		cr_assert_eq(ret == 0, want, "iteration %u: validation says %d (%s), the oracle "
			     "%s", i, ret, ext.err.msg, want ? "accepts" : "refuses");
		if (ret) {
			refused++;
			cr_assert(ext.err.msg[0], "iteration %u: refused without a message", i);
			cr_assert(!ext.has_offs || (ext.offs >= FIRST_ATTR && ext.offs < good_len),
				  "iteration %u: offset %u outside the attributes", i, ext.offs);
			continue;
		}
		accepted++;
		{
			struct vs_node_spec spec;
			struct vs_err e = { { 0 } };

			vs_node_spec_init(&spec, NULL);
			vs_nl_parse_node(&cl, tb[VS_A_NODE], &arena, &spec, &e);
			vs_arena_reset(&arena);
		}
	}
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&cl);
	/* Both sides must have been exercised for the agreement to mean something. */
	cr_assert_gt(accepted, ITERATIONS / 100, "accepted %u", accepted);
	cr_assert_gt(refused, ITERATIONS / 2, "refused %u", refused);
}

Test(fuzz, any_flip_of_the_datagram_is_answered)
{
	struct vs_cluster cl;
	struct vs_arena arena;
	struct vs_nl_core core = { .cl = &cl, .arena = &arena };
	struct vs_genl_ctx ctx = { .portid = 5, .admin = true, .priv = &core };
	struct vs_genl_dump dump;

	/* Whatever passes the checks reaches the real handlers, on a real cluster. */
	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_arena_init(&arena, 4096);

	for (unsigned int i = 0; i < ITERATIONS; i++) {
		unsigned int flips = 1 + (unsigned int)(next_rand() % 4);
		size_t len = good_len;
		const struct nlmsghdr *nlh;
		struct vs_nl_reply reply;
		struct vs_nl_iter it;
		struct vs_extack ext = { 0 };
		bool silent;
		int ret;

		memcpy(buf, good, good_len);
		for (unsigned int f = 0; f < flips; f++) {
			u64 r = next_rand();

			buf[r % good_len] ^= (char)(1u << ((r >> 32) % 8));
		}
		/* now and then a datagram cut short */
		if (next_rand() % 8 == 0)
			len = (size_t)(next_rand() % good_len);
		vs_nl_reply_init(&reply, out, sizeof(out), 5);
		vs_nl_iter_init(&it, buf, len);
		silent = false;
		while ((ret = vs_nl_iter_next(&it, &nlh, &ext)) > 0) {
			ret = vs_genl_rcv_msg(&ctx, nlh, &reply, &dump, &ext);
			/* a node NEW is not a dump: answered whole, created or refused */
			cr_assert_leq(ret, 0, "iteration %u", i);
			/* a success nobody asked to ack goes unanswered, as in the kernel */
			silent |= !ret && !(nlh->nlmsg_flags & NLM_F_ACK);
			vs_extack_clear(&ext);
		}
		if (ret < 0) {
			cr_assert(ext.err.msg[0]);
			cr_assert_eq(vs_nl_reply_error(&reply, &it.bad, ret, &ext), 0);
		}
		if (len && !silent)
			cr_assert_gt(reply.len, 0, "iteration %u: not answered", i);
		for (const struct nlmsghdr *r = (const void *)out; reply.len;) {
			int left = (int)reply.len;

			for (; mnl_nlmsg_ok(r, left); r = mnl_nlmsg_next(r, &left))
				cr_assert_eq(r->nlmsg_type, NLMSG_ERROR);
			cr_assert_eq(left, 0, "iteration %u: a broken reply", i);
			break;
		}
	}
	/* Whatever the flips made, the cluster is whole. */
	{
		struct vs_err e = { { 0 } };

		cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
	}
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&cl);
}

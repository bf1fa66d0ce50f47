// SPDX-License-Identifier: Apache-2.0
/*
 * The protocol's lists read into C (userspace/lib/decode.h), as the
 * renderer and "vsctl KIND set" read them: every entry in the message's
 * order, in the protocol's units, and what cannot be read skipped rather
 * than guessed.
 */
#include <string.h>
#include <criterion/criterion.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "lib/decode.h"
#include "vsched/vsched.h"

static unsigned char buf[4096];

static struct nlmsghdr *msg(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	mnl_nlmsg_put_extra_header(nlh, GENL_HDRLEN);
	return nlh;
}

static char seen[512];

static int note_res(const char *dim, u64 value, void *arg)
{
	size_t n = strlen(seen);

	snprintf(seen + n, sizeof(seen) - n, "%s=%llu;", dim, (unsigned long long)value);
	return arg ? -1 : 0;
}

static int note_label(const char *key, const char *value, void *arg)
{
	size_t n = strlen(seen);

	snprintf(seen + n, sizeof(seen) - n, "%s=%s;", key, value);
	return 0;
}

TestSuite(client_decode);

Test(client_decode, a_resource_list_reads_in_order_and_skips_what_is_malformed)
{
	struct nlmsghdr *nlh = msg();
	struct nlattr *res = mnl_attr_nest_start(nlh, 1), *s;

	mnl_attr_put_u64(nlh, VS_RES_A_MEMORY, 4ull << 30);
	mnl_attr_put_u32(nlh, VS_RES_A_PODS, 110);	/* short: not a u64 */
	s = mnl_attr_nest_start(nlh, VS_RES_A_SCALAR);
	mnl_attr_put_strz(nlh, VS_SCALAR_A_NAME, "nvidia.com/gpu");
	mnl_attr_put_u64(nlh, VS_SCALAR_A_VALUE, 2000);
	mnl_attr_nest_end(nlh, s);
	s = mnl_attr_nest_start(nlh, VS_RES_A_SCALAR);	/* no name */
	mnl_attr_put_u64(nlh, VS_SCALAR_A_VALUE, 1);
	mnl_attr_nest_end(nlh, s);
	mnl_attr_put_u64(nlh, VS_RES_A_CPU, 7500);
	mnl_attr_nest_end(nlh, res);

	seen[0] = '\0';
	cr_assert_eq(vsnl_read_res(res, note_res, NULL), 0);
	cr_assert_str_eq(seen, "memory=4294967296;nvidia.com/gpu=2000;cpu=7500;");
	seen[0] = '\0';
	cr_assert_eq(vsnl_read_res(res, note_res, seen), -1, "the callback stops the walk");
	cr_assert_str_eq(seen, "memory=4294967296;");
}

Test(client_decode, labels_read_with_an_empty_value_for_none_and_no_keyless_item)
{
	struct nlmsghdr *nlh = msg();
	struct nlattr *labels = mnl_attr_nest_start(nlh, 1), *item;

	item = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
	mnl_attr_put_strz(nlh, VS_KV_A_KEY, "zone");
	mnl_attr_put_strz(nlh, VS_KV_A_VALUE, "a");
	mnl_attr_nest_end(nlh, item);
	item = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
	mnl_attr_put_strz(nlh, VS_KV_A_VALUE, "orphan");
	mnl_attr_nest_end(nlh, item);
	item = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
	mnl_attr_put_strz(nlh, VS_KV_A_KEY, "gpu");
	mnl_attr_nest_end(nlh, item);
	mnl_attr_nest_end(nlh, labels);

	seen[0] = '\0';
	cr_assert_eq(vsnl_read_labels(labels, note_label, NULL), 0);
	cr_assert_str_eq(seen, "zone=a;gpu=;");
}

Test(client_decode, a_taint_reads_whole_and_one_without_a_key_is_none)
{
	struct nlmsghdr *nlh = msg();
	struct nlattr *t1, *t2;
	struct vsnl_taint t;

	t1 = mnl_attr_nest_start(nlh, 1);
	mnl_attr_put_strz(nlh, VS_TAINT_A_KEY, "gpu");
	mnl_attr_put_u32(nlh, VS_TAINT_A_EFFECT, VS_TAINT_EFFECT_NO_EXECUTE);
	mnl_attr_nest_end(nlh, t1);
	t2 = mnl_attr_nest_start(nlh, 1);
	mnl_attr_put_strz(nlh, VS_TAINT_A_VALUE, "yes");
	mnl_attr_nest_end(nlh, t2);

	cr_assert(vsnl_read_taint(t1, &t));
	cr_assert_str_eq(t.key, "gpu");
	cr_assert_null(t.value, "a taint without a value has none, not \"\"");
	cr_assert_eq(t.effect, VS_TAINT_EFFECT_NO_EXECUTE);
	cr_assert_not(vsnl_read_taint(t2, &t));
}

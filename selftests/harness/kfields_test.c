// SPDX-License-Identifier: Apache-2.0
/*
 * The field walker vsctl's scenario and manifest readers share
 * (userspace/kube/kfields.c): how a field is named in each, open and
 * closed tables, and ParseBool's spellings. The test binary links
 * kfields.o (the Makefile's test-client-objs).
 */
#include <stdio.h>
#include <criterion/criterion.h>

#include "harness/kfields.h"

struct two {
	const char *a;
	s32 b;
};

static const struct kf_field closed[] = {
	KF_FIELD("a", kf_str, struct two, a),
	KF_FIELD("b", kf_s32, struct two, b),
	KF_IGNORE("c"),
};

static const struct kf_field open_[] = {
	KF_FIELD("a", kf_str, struct two, a),
	KF_OPEN,
};

static char msg[512], a_copy[64];

static int walk_text(const char *text, bool paths, const struct kf_field *f, u32 nr,
		     struct two *out)
{
	struct kf kf = { .file = "f.yaml", .msg = msg, .msg_size = sizeof(msg), .paths = paths,
			 .doc = paths ? "document 1 (X x)" : NULL };
	struct vs_err e = { { 0 } };
	struct vs_arg root;
	int ret;

	msg[0] = '\0';
	cr_assert_eq(vs_yaml_parse(text, strlen(text), "f.yaml", &root, &e), 0, "%s", e.msg);
	vs_arena_init(&kf.scratch, 0);
	kf_push(&kf, "spec");
	ret = kf_walk(&kf, &root, "a thing", f, nr, out, NULL);
	/* the strings read live in the tree freed below */
	if (out->a) {
		snprintf(a_copy, sizeof(a_copy), "%s", out->a);
		out->a = a_copy;
	}
	vs_arena_destroy(&kf.scratch);
	vs_arg_free(&root);
	return ret;
}

Test(kfields, a_scenario_names_the_key_a_manifest_the_path)
{
	struct two t = { 0 };

	cr_assert_neq(walk_text("a: x\nb: nope\n", false, closed, ARRAY_SIZE(closed), &t), 0);
	cr_assert_str_eq(msg, "f.yaml:2: b must be an integer, not a string");
	cr_assert_neq(walk_text("a: x\nb: nope\n", true, closed, ARRAY_SIZE(closed), &t), 0);
	cr_assert_str_eq(msg, "f.yaml:2: document 1 (X x): spec.b must be an integer, not a string");
}

Test(kfields, closed_tables_refuse_unknown_keys_open_ones_take_them)
{
	struct two t = { 0 };

	cr_assert_neq(walk_text("a: x\nd: 1\n", false, closed, ARRAY_SIZE(closed), &t), 0);
	cr_assert_str_eq(msg, "f.yaml:2: unknown key \"d\" in a thing (known: a, b, c)");
	cr_assert_neq(walk_text("a: x\nd: 1\n", true, closed, ARRAY_SIZE(closed), &t), 0);
	cr_assert_str_eq(msg, "f.yaml:2: document 1 (X x): spec.d: unknown field (known: a, b, c)");
	cr_assert_eq(walk_text("a: x\nc: [1]\n", true, closed, ARRAY_SIZE(closed), &t), 0,
		     "an ignored key takes any value");
	cr_assert_eq(walk_text("a: z\nd: {e: 1}\n", true, open_, ARRAY_SIZE(open_), &t), 0);
	cr_assert_str_eq(t.a, "z");
}

Test(kfields, map_keys_with_dots_or_slashes_are_bracketed)
{
	struct kf kf = { .paths = true };
	struct vs_arg_kv kv = { .key = (char *)"requests" };

	kf_push(&kf, "spec");
	kf_push_idx(&kf, 2);
	cr_assert_str_eq(kf_sub(&kf, &kv, "cpu"), "spec[2].requests.cpu");
	cr_assert_str_eq(kf_sub(&kf, &kv, "nvidia.com/gpu"), "spec[2].requests[nvidia.com/gpu]");
	kf.paths = false;
	cr_assert_str_eq(kf_sub(&kf, &kv, "cpu"), "requests: cpu");
	cr_assert_str_eq(kf_name(&kf, &kv), "requests");
}

Test(kfields, parse_bool_takes_go_spellings_only)
{
	bool b = false;

	cr_assert_eq(kf_parse_bool("True", &b), 0);
	cr_assert(b);
	cr_assert_eq(kf_parse_bool("f", &b), 0);
	cr_assert_not(b);
	cr_assert_neq(kf_parse_bool("yes", &b), 0);
	cr_assert_neq(kf_parse_bool("", &b), 0);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for label sets, taints and tolerations (core/labels.h): validation,
 * interning (equal strings share one pointer), selector matching, and
 * Kubernetes' rules for which toleration tolerates which taint.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/labels.h"
#include "strtest.h"

STRS_SUITE(labels);

Test(labels, set_is_sorted_interned_and_looked_up_by_pointer)
{
	const struct vs_kv_spec kv[] = { { "zone", "a" }, { "app", "web" }, { "tier", "" } };
	struct vs_labels *l;

	cr_assert_eq(vs_labels_new(&strs, kv, 3, "label", &l, NULL), 0);
	cr_assert_eq(vs_labels_count(l), 3);
	cr_assert_str_eq(l->kv[0].key, "app");
	cr_assert_str_eq(l->kv[1].key, "tier");
	cr_assert_str_eq(l->kv[2].key, "zone");
	cr_assert_str_eq(vs_labels_get(l, vs_str_find(&strs, "zone", 4)), "a");
	cr_assert_str_eq(vs_labels_get(l, vs_str_find(&strs, "tier", 4)), "");
	cr_assert_null(vs_labels_get(l, NULL));
	vs_labels_free(&strs, l);
}

Test(labels, empty_set_is_null_and_matches_an_empty_selector)
{
	struct vs_labels *l = (void *)1;

	cr_assert_eq(vs_labels_new(&strs, NULL, 0, "label", &l, NULL), 0);
	cr_assert_null(l);
	cr_assert(vs_labels_match(NULL, NULL));
	vs_labels_free(&strs, NULL);
}

Test(labels, selector_matches_only_when_every_pair_is_present)
{
	const struct vs_kv_spec node_kv[] = { { "zone", "a" }, { "disk", "ssd" } };
	const struct vs_kv_spec sel_ok[] = { { "zone", "a" } };
	const struct vs_kv_spec sel_val[] = { { "zone", "b" } };
	const struct vs_kv_spec sel_key[] = { { "zone", "a" }, { "gpu", "true" } };
	struct vs_labels *node, *s1, *s2, *s3;

	cr_assert_eq(vs_labels_new(&strs, node_kv, 2, "label", &node, NULL), 0);
	cr_assert_eq(vs_labels_new(&strs, sel_ok, 1, "nodeSelector", &s1, NULL), 0);
	cr_assert_eq(vs_labels_new(&strs, sel_val, 1, "nodeSelector", &s2, NULL), 0);
	cr_assert_eq(vs_labels_new(&strs, sel_key, 2, "nodeSelector", &s3, NULL), 0);
	cr_assert(vs_labels_match(node, s1));
	cr_assert_not(vs_labels_match(node, s2));
	cr_assert_not(vs_labels_match(node, s3));
	cr_assert_not(vs_labels_match(NULL, s1));
	cr_assert(vs_labels_match(node, NULL));
	vs_labels_free(&strs, node);
	vs_labels_free(&strs, s1);
	vs_labels_free(&strs, s2);
	vs_labels_free(&strs, s3);
}

Test(labels, bad_keys_values_and_duplicates_are_refused_with_the_field)
{
	const struct vs_kv_spec bad_key[] = { { "Zone/x", "a" } };
	const struct vs_kv_spec bad_val[] = { { "zone", "a b" } };
	const struct vs_kv_spec dup[] = { { "zone", "a" }, { "zone", "b" } };
	struct vs_err e = { { 0 } };
	struct vs_labels *l;

	cr_assert_eq(vs_labels_new(&strs, bad_key, 1, "nodeSelector", &l, &e), -EINVAL);
	cr_assert(strstr(e.msg, "nodeSelector key"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_labels_new(&strs, bad_val, 1, "label", &l, &e), -EINVAL);
	cr_assert(strstr(e.msg, "label \"zone\": invalid label value \"a b\""), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_labels_new(&strs, dup, 2, "label", &l, &e), -EINVAL);
	cr_assert(strstr(e.msg, "given twice"), "%s", e.msg);
	cr_assert_null(l);
}

Test(labels, taints_validate_effects_and_duplicates)
{
	const struct vs_taint_spec ok[] = {
		{ "dedicated", "gpu", VS_TAINT_NO_SCHEDULE },
		{ "dedicated", "gpu", VS_TAINT_NO_EXECUTE },	/* same key, other effect */
		{ "spot", NULL, VS_TAINT_PREFER_NO_SCHEDULE },
	};
	const struct vs_taint_spec dup[] = {
		{ "dedicated", "a", VS_TAINT_NO_SCHEDULE },
		{ "dedicated", "b", VS_TAINT_NO_SCHEDULE },
	};
	const struct vs_taint_spec all[] = { { "k", "v", VS_TAINT_EFFECT_ALL } };
	struct vs_taints *t;
	struct vs_err e = { { 0 } };
	enum vs_taint_effect eff;

	cr_assert_eq(vs_taints_new(&strs, ok, 3, &t, NULL), 0);
	cr_assert_eq(t->nr, 3);
	cr_assert_str_eq(t->t[2].value, "");
	vs_taints_free(&strs, t);
	cr_assert_eq(vs_taints_new(&strs, dup, 2, &t, &e), -EINVAL);
	cr_assert(strstr(e.msg, "given twice"), "%s", e.msg);
	cr_assert_eq(vs_taints_new(&strs, all, 1, &t, NULL), -EINVAL);

	cr_assert_eq(vs_taint_effect_parse("NoExecute", false, &eff, NULL), 0);
	cr_assert_eq(eff, VS_TAINT_NO_EXECUTE);
	cr_assert_eq(vs_taint_effect_parse("", true, &eff, NULL), 0);
	cr_assert_eq(eff, VS_TAINT_EFFECT_ALL);
	cr_assert_eq(vs_taint_effect_parse("", false, &eff, NULL), -EINVAL);
	vs_err_clear(&e);
	cr_assert_eq(vs_taint_effect_parse("NoSchedul", false, &eff, &e), -EINVAL);
	cr_assert(strstr(e.msg, "\"NoSchedul\""), "%s", e.msg);
}

/* One taint and one toleration, each built through the validated path. */
static bool tolerates(const struct vs_toleration_spec *ts, const struct vs_taint_spec *tt)
{
	struct vs_tolerations *tols;
	struct vs_taints *taints;
	bool r;

	cr_assert_eq(vs_tolerations_new(&strs, ts, 1, &tols, NULL), 0);
	cr_assert_eq(vs_taints_new(&strs, tt, 1, &taints, NULL), 0);
	r = vs_toleration_tolerates(&tols->t[0], &taints->t[0]);
	vs_tolerations_free(&strs, tols);
	vs_taints_free(&strs, taints);
	return r;
}

Test(labels, toleration_rules_follow_kubernetes)
{
	const struct vs_taint_spec gpu = { "dedicated", "gpu", VS_TAINT_NO_SCHEDULE };

	/* Equal: key, value and effect */
	cr_assert(tolerates(&(struct vs_toleration_spec){ "dedicated", VS_TOLERATION_EQUAL,
			    "gpu", VS_TAINT_NO_SCHEDULE, false, 0 }, &gpu));
	cr_assert_not(tolerates(&(struct vs_toleration_spec){ "dedicated", VS_TOLERATION_EQUAL,
				"cpu", VS_TAINT_NO_SCHEDULE, false, 0 }, &gpu));
	cr_assert_not(tolerates(&(struct vs_toleration_spec){ "dedicated", VS_TOLERATION_EQUAL,
				"gpu", VS_TAINT_NO_EXECUTE, false, 0 }, &gpu));
	/* empty effect tolerates every effect */
	cr_assert(tolerates(&(struct vs_toleration_spec){ "dedicated", VS_TOLERATION_EQUAL,
			    "gpu", VS_TAINT_EFFECT_ALL, false, 0 }, &gpu));
	/* Exists: any value */
	cr_assert(tolerates(&(struct vs_toleration_spec){ "dedicated", VS_TOLERATION_EXISTS,
			    NULL, VS_TAINT_NO_SCHEDULE, false, 0 }, &gpu));
	cr_assert_not(tolerates(&(struct vs_toleration_spec){ "other", VS_TOLERATION_EXISTS,
				NULL, VS_TAINT_NO_SCHEDULE, false, 0 }, &gpu));
	/* empty key with Exists tolerates everything */
	cr_assert(tolerates(&(struct vs_toleration_spec){ NULL, VS_TOLERATION_EXISTS,
			    NULL, VS_TAINT_EFFECT_ALL, false, 0 }, &gpu));
}

Test(labels, invalid_tolerations_are_refused)
{
	struct vs_tolerations *t;
	struct vs_err e = { { 0 } };
	const struct vs_toleration_spec empty_key_equal = { NULL, VS_TOLERATION_EQUAL, "v",
							    VS_TAINT_NO_SCHEDULE, false, 0 };
	const struct vs_toleration_spec exists_value = { "k", VS_TOLERATION_EXISTS, "v",
							 VS_TAINT_NO_SCHEDULE, false, 0 };
	const struct vs_toleration_spec seconds = { "k", VS_TOLERATION_EQUAL, "v",
						    VS_TAINT_NO_SCHEDULE, true, 30 };
	enum vs_toleration_op op;

	cr_assert_eq(vs_tolerations_new(&strs, &empty_key_equal, 1, &t, &e), -EINVAL);
	cr_assert(strstr(e.msg, "empty key needs operator Exists"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_tolerations_new(&strs, &exists_value, 1, &t, &e), -EINVAL);
	cr_assert(strstr(e.msg, "Exists takes no value"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_tolerations_new(&strs, &seconds, 1, &t, &e), -EINVAL);
	cr_assert(strstr(e.msg, "NoExecute"), "%s", e.msg);

	cr_assert_eq(vs_toleration_op_parse("Exists", &op, NULL), 0);
	cr_assert_eq(op, VS_TOLERATION_EXISTS);
	cr_assert_eq(vs_toleration_op_parse("", &op, NULL), 0);
	cr_assert_eq(op, VS_TOLERATION_EQUAL);
	cr_assert_eq(vs_toleration_op_parse("In", &op, NULL), -EINVAL);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for Kubernetes name validation (core/names.h): what the API server
 * accepts is accepted, what it refuses is refused with a message that names
 * the field and quotes the text.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/names.h"

#define OK_SUB(s) cr_assert_eq(vs_check_dns_subdomain(s, strlen(s), "name", NULL), 0, \
			       "refused \"%s\"", s)
#define BAD_SUB(s, why) do {							\
	struct vs_err e = { { 0 } };						\
	cr_assert_eq(vs_check_dns_subdomain(s, strlen(s), "node name", &e), -EINVAL, \
		     "accepted \"%s\"", s);					\
	cr_assert(strstr(e.msg, why), "\"%s\": message \"%s\" lacks \"%s\"", s, e.msg, why); \
} while (0)

Test(names, dns_subdomain_accepts_kubernetes_names)
{
	OK_SUB("n1");
	OK_SUB("node-1.example.com");
	OK_SUB("a");
	OK_SUB("0");
	OK_SUB("a--b");
	char long_ok[254];

	memset(long_ok, 'a', 253);
	long_ok[253] = '\0';
	for (int i = 60; i < 253; i += 61)
		long_ok[i] = '.';	/* parts of 60 characters */
	OK_SUB(long_ok);
}

Test(names, dns_subdomain_refuses_bad_names_with_reason)
{
	char too_long[255];

	BAD_SUB("", "empty");
	BAD_SUB("Node1", "lowercase");
	BAD_SUB("-n1", "start and end");
	BAD_SUB("n1-", "start and end");
	BAD_SUB("n_1", "only lowercase letters");
	BAD_SUB("a..b", "empty label");
	BAD_SUB(".a", "empty label");
	BAD_SUB("a.", "empty label");
	BAD_SUB("node 1", "only lowercase letters");
	memset(too_long, 'a', 254);
	too_long[254] = '\0';
	BAD_SUB(too_long, "longer than 253");
}

Test(names, message_names_the_field_and_quotes_the_text)
{
	struct vs_err e = { { 0 } };

	vs_check_dns_subdomain("Bad", 3, "pod name", &e);
	cr_assert_str_eq(e.msg,
			 "invalid pod name \"Bad\": must start and end with a lowercase letter or digit");
}

Test(names, text_is_taken_by_length_not_terminator)
{
	/* "n1" followed by garbage that must not be looked at */
	cr_assert_eq(vs_check_dns_subdomain("n1!!!", 2, "name", NULL), 0);
	cr_assert_eq(vs_check_dns_label("ns/x", 2, "namespace", NULL), 0);
}

Test(names, dns_label_refuses_dots_and_long_names)
{
	char l64[65];

	cr_assert_eq(vs_check_dns_label("default", 7, "namespace", NULL), 0);
	cr_assert_eq(vs_check_dns_label("a.b", 3, "namespace", NULL), -EINVAL);
	memset(l64, 'a', 64);
	l64[64] = '\0';
	cr_assert_eq(vs_check_dns_label(l64, 64, "namespace", NULL), -EINVAL);
	cr_assert_eq(vs_check_dns_label(l64, 63, "namespace", NULL), 0);
	cr_assert_eq(vs_check_dns_label("", 0, "namespace", NULL), -EINVAL);
}

Test(names, label_keys_with_and_without_prefix)
{
	const char *good[] = { "zone", "topology.kubernetes.io/zone", "app_Name-1.x",
			       "volcano.sh/task-spec", "A" };
	const char *bad[] = { "", "/zone", "Example.com/zone", "a/b/c", "zone-",
			      "-zone", "z one", "example.com/", "kubernetes.io/_x" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		cr_assert_eq(vs_check_label_key(good[i], strlen(good[i]), "label key", NULL), 0,
			     "refused \"%s\"", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(vs_check_label_key(bad[i], strlen(bad[i]), "label key", NULL), -EINVAL,
			     "accepted \"%s\"", bad[i]);
}

Test(names, label_values_may_be_empty_but_not_malformed)
{
	char v64[65];

	cr_assert_eq(vs_check_label_value("", 0, "label value", NULL), 0);
	cr_assert_eq(vs_check_label_value("gpu", 3, "label value", NULL), 0);
	cr_assert_eq(vs_check_label_value("a.b_c-D", 7, "label value", NULL), 0);
	cr_assert_eq(vs_check_label_value("a/b", 3, "label value", NULL), -EINVAL);
	cr_assert_eq(vs_check_label_value("_a", 2, "label value", NULL), -EINVAL);
	memset(v64, 'v', 64);
	v64[64] = '\0';
	cr_assert_eq(vs_check_label_value(v64, 64, "label value", NULL), -EINVAL);
}

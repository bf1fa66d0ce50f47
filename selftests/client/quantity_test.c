// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl's reader of Kubernetes' quantities against the core's: vsctl
 * puts in a request what the first reads from its options, the daemon's
 * files and manifests are read with the second, and a quantity one takes
 * the other must take as the same integer, or refuse for the same reason.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/res.h"
#include "lib/quantity.h"

/* Both readers on @s in units of 10^-@milli; the test fails where they differ. */
static void same(const char *s, unsigned int milli)
{
	struct vsnl_err e = { 0 };
	struct vs_err why = { { 0 } };
	s64 core_v = 7, client_v = 7;
	int core = vs_quantity_parse(s, strlen(s), milli, &core_v, &why);
	int client = vsnl_quantity_parse(s, strlen(s), milli, &client_v, &e);

	cr_assert_eq(client, core, "\"%s\" (milli %u): the client answers %d, the core %d (%s)", s,
		     milli, client, core, why.msg);
	if (core) {
		cr_assert_str_eq(e.msg, why.msg, "\"%s\"", s);
		cr_assert_eq(client_v, 7, "\"%s\": a refusal leaves the output alone", s);
	} else {
		cr_assert_eq(client_v, core_v, "\"%s\" (milli %u): %lld against the core's %lld", s,
			     milli, (long long)client_v, (long long)core_v);
	}
}

TestSuite(client_quantity);

Test(client_quantity, the_client_reads_quantities_as_the_core_does)
{
	static const char *const cases[] = {
		"0", "-0", "+0", "-0.0", "1", "+1", "500m", "7500m", "1.5", "0.5", ".5", "5.",
		"4Gi", "1536Mi", "1Ki", "1G", "2k", "1e3", "2E3", "1E", "1e-3", "1.5e-2", "1n",
		"1u", "999n", "1.0000001", "0.0001m", "123456789012345678", "9223372036854775806",
		"9223372036854775807", "9223372036854775806m", "8Ei", "7Ei", "7.99Ei", "1e18",
		"1e19", "0e2147483647", "1e2147483647", "1e2147483648", "1e-2147483647",
		"00000000000000000000000000001", "0.000000000000000000000000000001Ki",
		"", " 1", "1 ", "1\t", "--1", "+-1", "-1", "-1m", "1..5", "1.5.", ".", "+", "m",
		"Ki", "1x", "1Kii", "1ki", "1e", "1e+", "1e-", "1e3x", "1.5Gi", "0.1Ki", "1mm",
		"\x01\x7f", "1\xc3\xa9",
		"0.999999999999999999999999999999999999999Ei", "3.3333333333333333333333333n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		same(cases[i], 0);
		same(cases[i], 3);
	}
}

/* Strings of a quantity's own characters, so that most are near misses. */
Test(client_quantity, random_strings_get_the_same_answer_from_both)
{
	static const char *const parts[] = {
		"0", "1", "5", "9", "12", "999", "00", ".", "+", "-", "e", "E", "Ki", "Mi", "Ei",
		"m", "n", "u", "k", "M", "G", "i", "x", " ", "18", "2147483647",
	};
	unsigned int seed = 20261202;

	for (int n = 0; n < 30000; n++) {
		char s[96] = "";
		int len = rand_r(&seed) % 8 + 1;

		for (int i = 0; i < len; i++)
			strcat(s, parts[rand_r(&seed) % ARRAY_SIZE(parts)]);
		same(s, 0);
		same(s, 3);
	}
}

Test(client_quantity, a_refusal_says_why_and_the_units_are_the_protocols)
{
	struct vsnl_err e = { 0 };
	s64 v = 42;

	cr_assert_eq(vsnl_quantity_parse("abc", 3, 3, &v, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "invalid quantity \"abc\": no digits");
	cr_assert_eq(vsnl_quantity_parse("-1Gi", 4, 0, &v, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "invalid quantity \"-1Gi\": negative values are not allowed");
	cr_assert_eq(v, 42);
	cr_assert_eq(vsnl_quantity_parse("7500m", 5, vsnl_res_milli("cpu"), &v, NULL), 0);
	cr_assert_eq(v, 7500);
	cr_assert_eq(vsnl_quantity_parse("500m", 4, vsnl_res_milli("memory"), &v, NULL), 0);
	cr_assert_eq(v, 1, "a fraction of a byte rounds up, as Value() does");
	cr_assert_eq(vsnl_quantity_parse("1", 1, vsnl_res_milli("nvidia.com/gpu"), &v, NULL), 0);
	cr_assert_eq(v, 1000, "other resources count milli-units");
	cr_assert_eq(vsnl_res_milli("pods"), 0);
}

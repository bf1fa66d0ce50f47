// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl's reader of Go's durations against the core's: vskube reads its
 * flags with the first, vschedd with the second, and a duration that one
 * takes the other must take as the same number of milliseconds, or refuse
 * for the same reason.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/duration.h"
#include "lib/duration.h"

#define DAY_MS	(24 * 3600 * 1000)

/* Both readers on @s with @max_ms; the test fails where they differ. */
static void same(const char *s, u32 max_ms)
{
	struct vsnl_err e = { 0 };
	const char *why = "";
	u32 core_ms = 7, client_ms = 7;
	int core = vs_parse_duration(s, max_ms, &core_ms, &why);
	int client = vsnl_parse_duration(s, max_ms, &client_ms, &e);

	cr_assert_eq(client, core, "\"%s\": the client answers %d, the core %d (%s)", s, client,
		     core, why);
	if (core) {
		cr_assert_str_eq(e.msg, why, "\"%s\"", s);
		cr_assert_eq(e.err, core, "\"%s\"", s);
	} else {
		cr_assert_eq(client_ms, core_ms, "\"%s\": %u ms against the core's %u", s,
			     client_ms, core_ms);
		cr_assert_eq(e.msg[0], '\0', "\"%s\": %s", s, e.msg);
	}
}

TestSuite(client_duration);

Test(client_duration, the_client_reads_durations_as_the_core_does)
{
	static const char *const cases[] = {
		"0", "+0", "0s", "1s", "500ms", "1m30s", "1.5s", "2h", "+3s", "1500000us",
		"1000000000ns", "2000\u00b5s", "3000\u03bcs", ".5s", "5.s", "24h", "1h0m0.001s",
		"0.0000001h", "1.0000001ms", "0.999999999999999999999h", "1.9999999ms",
		"86399.999s", "86400.001s", "23h59m60s", "1h1h1h", "0ms0s", "00001s",
		"", "+", "-", "5", "5x", "-1s", "1.5ms", "500us", "25h", "s", "1s2", ".", ".s",
		"1..5s", "1.5.s", "99999999999999999999999h", "18446744073709551616ns",
		"4294967296ms", "1hs", "1mss", "1 s", "1S", "\u00b5s", "1\u00b5", "0x10s",
		"+-1s", "++1s", "1e3ms",
		/* A fraction's digits count to the 18th, not further. */
		"0.5000000001h", "999996ns0.0000000000011111119h", "999996ns0.000000000001111112h",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		same(cases[i], DAY_MS);
		same(cases[i], 1000);
		same(cases[i], UINT32_MAX);
	}
}

/* Strings of duration's own characters, so that most are near misses. */
Test(client_duration, random_strings_get_the_same_answer_from_both)
{
	static const char *const parts[] = {
		"0", "1", "5", "9", "12", "999", ".", "+", "-", "s", "m", "h", "ms", "us", "ns",
		"\u00b5", "\u03bc", "x",
	};
	unsigned int seed = 20261202;

	for (int n = 0; n < 20000; n++) {
		char s[64] = "";
		int len = rand_r(&seed) % 7 + 1;

		for (int i = 0; i < len; i++)
			strcat(s, parts[rand_r(&seed) % ARRAY_SIZE(parts)]);
		same(s, DAY_MS);
		same(s, (u32)rand_r(&seed));
	}
}

Test(client_duration, a_refusal_says_why_and_changes_nothing)
{
	struct vsnl_err e = { 0 };
	u32 ms = 42;

	cr_assert_eq(vsnl_parse_duration("25h", DAY_MS, &ms, &e), -ERANGE);
	cr_assert_str_eq(e.msg, "too long");
	cr_assert_eq(vsnl_parse_duration("1.5ms", DAY_MS, &ms, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "not a whole number of milliseconds");
	cr_assert_eq(vsnl_parse_duration("5x", DAY_MS, &ms, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "unknown unit (ns, us, ms, s, m, h)");
	cr_assert_eq(ms, 42, "a refused duration leaves the output alone");
	cr_assert_eq(vsnl_parse_duration("1m30s", DAY_MS, &ms, NULL), 0);
	cr_assert_eq(ms, 90000);
}

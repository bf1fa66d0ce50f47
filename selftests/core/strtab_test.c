// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for string interning (core/strtab.h): equal bytes give the same
 * pointer and different bytes different ones, whatever the input's
 * termination; the last put frees and find never adds; length and hash are
 * kept with the string and agree with vs_str_hash_bytes(); the statistics
 * count what happened; 100k distinct names intern and release cleanly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/strtab.h"

static struct vs_strtab tab;

static void setup(void)
{
	cr_assert_eq(vs_strtab_init(&tab), 0);
}

static void teardown(void)
{
	vs_strtab_destroy(&tab);
}

TestSuite(strtab, .init = setup, .fini = teardown);

Test(strtab, same_string_gives_the_same_pointer)
{
	char a[] = "default", b[] = "default";
	const char *x = vs_str_get_cstr(&tab, a);
	const char *y = vs_str_get_cstr(&tab, b);

	cr_assert_not_null(x);
	cr_assert_eq(x, y);
	cr_assert_neq(x, a, "the table holds its own copy");
	cr_assert_str_eq(x, "default");
	cr_assert_eq(vs_strtab_count(&tab), 1);
	cr_assert_eq(tab.misses, 1);
	cr_assert_eq(tab.hits, 1);
}

Test(strtab, different_strings_give_different_pointers)
{
	const char *x = vs_str_get_cstr(&tab, "kube-system");
	const char *y = vs_str_get_cstr(&tab, "kube-public");
	const char *z = vs_str_get_cstr(&tab, "kube");
	const char *e = vs_str_get_cstr(&tab, "");

	cr_assert_neq(x, y);
	cr_assert_neq(x, z);
	cr_assert_neq(y, z);
	cr_assert_neq(e, z);
	cr_assert_str_eq(e, "");
	cr_assert_eq(vs_str_len(e), 0);
	cr_assert_eq(vs_strtab_count(&tab), 4);
}

Test(strtab, unterminated_input_is_copied_and_terminated)
{
	/* "zone" inside a larger buffer, followed by bytes that must be ignored. */
	const char buf[] = { 'z', 'o', 'n', 'e', 'X', 'Y', 'Z' };
	const char *x = vs_str_get(&tab, buf, 4);

	cr_assert_str_eq(x, "zone");
	cr_assert_eq(x[4], '\0');
	cr_assert_eq(vs_str_len(x), 4);
	cr_assert_eq(vs_str_get_cstr(&tab, "zone"), x);
	cr_assert_eq(vs_str_get(&tab, "zone-a", 4), x, "bytes beyond len are ignored");
	cr_assert_neq(vs_str_get(&tab, buf, 5), x, "a longer prefix is another string");
}

Test(strtab, embedded_content_beyond_len_is_ignored)
{
	char buf[64];
	const char *x;

	memset(buf, 'q', sizeof(buf));
	memcpy(buf, "app=web", 7);
	x = vs_str_get(&tab, buf, 3);
	cr_assert_str_eq(x, "app");
	cr_assert_eq(vs_str_hash(x), vs_str_hash_bytes("app", 3));
	cr_assert_eq(vs_str_find(&tab, buf + 0, 3), x);
	cr_assert_eq(vs_str_find(&tab, "app=web", 3), x);
	/* Any byte but NUL is content. */
	x = vs_str_get(&tab, "\x01\xff\x7f", 3);
	cr_assert_eq(vs_str_len(x), 3);
	cr_assert_eq(memcmp(x, "\x01\xff\x7f", 4), 0);
}

Test(strtab, last_put_frees_the_string)
{
	const char *x = vs_str_get_cstr(&tab, "nvidia.com/gpu");
	size_t bytes = tab.bytes;

	cr_assert_gt(bytes, strlen("nvidia.com/gpu"));
	cr_assert_eq(vs_str_get_cstr(&tab, "nvidia.com/gpu"), x);
	cr_assert_eq(vs_str_ref(x), x);
	/* Three references now. */
	vs_str_put(&tab, x);
	vs_str_put(&tab, x);
	cr_assert_eq(vs_strtab_count(&tab), 1, "one reference is left");
	cr_assert_eq(vs_str_find(&tab, "nvidia.com/gpu", 14), x);
	vs_str_put(&tab, x);
	cr_assert_eq(vs_strtab_count(&tab), 0);
	cr_assert_eq(tab.bytes, 0);
	cr_assert_null(vs_str_find(&tab, "nvidia.com/gpu", 14));
	vs_str_put(&tab, NULL);
	cr_assert_null(vs_str_ref(NULL));
}

Test(strtab, find_does_not_add_or_take_a_reference)
{
	const char *x;

	cr_assert_null(vs_str_find(&tab, "queue-a", 7));
	cr_assert_eq(vs_strtab_count(&tab), 0);
	cr_assert_eq(tab.misses, 0);

	x = vs_str_get(&tab, "queue-a", 7);
	cr_assert_eq(vs_str_find(&tab, "queue-a", 7), x);
	cr_assert_eq(vs_str_find(&tab, "queue-a", 7), x);
	cr_assert_eq(tab.hits, 0, "find is not a get");
	vs_str_put(&tab, x);
	cr_assert_eq(vs_strtab_count(&tab), 0, "finds took no reference");
}

Test(strtab, hash_and_len_are_kept_and_match_hash_bytes)
{
	const char *names[] = { "", "a", "cpu", "memory", "ephemeral-storage",
				"hugepages-2Mi", "topology.kubernetes.io/zone" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		size_t len = strlen(names[i]);
		const char *x = vs_str_get(&tab, names[i], len);

		cr_assert_eq(vs_str_len(x), len, "%s", names[i]);
		cr_assert_eq(vs_str_hash(x), vs_str_hash_bytes(names[i], len), "%s", names[i]);
		cr_assert_eq(vs_str_hash(x), vs_str_hash_bytes(x, vs_str_len(x)));
	}
	cr_assert_neq(vs_str_hash_bytes("cpu", 3), vs_str_hash_bytes("cpv", 3));
}

Test(strtab, stats_count_hits_misses_and_bytes)
{
	const char *a, *b;
	size_t one;

	a = vs_str_get_cstr(&tab, "abc");
	one = tab.bytes;
	cr_assert_geq(one, 4, "at least the bytes and the NUL");
	b = vs_str_get_cstr(&tab, "abcdef");
	cr_assert_eq(tab.bytes, 2 * one + 3, "each block is header + len + 1");
	vs_str_get_cstr(&tab, "abc");
	vs_str_get_cstr(&tab, "abc");
	cr_assert_eq(tab.misses, 2);
	cr_assert_eq(tab.hits, 2);
	for (int i = 0; i < 3; i++)
		vs_str_put(&tab, a);
	cr_assert_eq(tab.bytes, one + 3);
	vs_str_put(&tab, b);
	cr_assert_eq(tab.bytes, 0);
}

Test(strtab, hundred_thousand_distinct_names)
{
	static const char *interned[100000];
	char name[32];

	for (int i = 0; i < 100000; i++) {
		int len = snprintf(name, sizeof(name), "pod-%d", i);

		interned[i] = vs_str_get(&tab, name, (size_t)len);
		cr_assert_not_null(interned[i]);
	}
	cr_assert_eq(vs_strtab_count(&tab), 100000);
	cr_assert_eq(tab.misses, 100000);

	for (int i = 0; i < 100000; i++) {
		int len = snprintf(name, sizeof(name), "pod-%d", i);

		cr_assert_eq(vs_str_get(&tab, name, (size_t)len), interned[i]);
		cr_assert_str_eq(interned[i], name);
	}
	cr_assert_eq(tab.hits, 100000);

	/* Two references each: release both, and the table is empty. */
	for (int i = 0; i < 100000; i++) {
		vs_str_put(&tab, interned[i]);
		vs_str_put(&tab, interned[i]);
	}
	cr_assert_eq(vs_strtab_count(&tab), 0);
	cr_assert_eq(tab.bytes, 0);
}

Test(strtab, destroy_frees_strings_still_held)
{
	struct vs_strtab t2;

	cr_assert_eq(vs_strtab_init(&t2), 0);
	for (int i = 0; i < 1000; i++) {
		char name[32];
		int len = snprintf(name, sizeof(name), "leak-%d", i);

		vs_str_get(&t2, name, (size_t)len);
	}
	/* Valgrind and ASan's leak check see that nothing is lost here. */
	vs_strtab_destroy(&t2);
	cr_assert_eq(t2.bytes, 0);
	cr_assert_eq(vs_strtab_count(&t2), 0);
}

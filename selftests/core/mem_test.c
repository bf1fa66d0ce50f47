// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the heap count (core/mem.h): it follows what is allocated and
 * freed, pool slabs included, as the allocator the build links counts it.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/pool.h"

/* Valgrind replaces the allocator and its count: nothing to test there. */
static void need_count(void)
{
	const char *source;

	if (!vs_mem_counted(&source))
		cr_skip_test("the allocator (%s) counts nothing here", source ? source : "none");
}

Test(mem, the_count_follows_allocations_and_frees)
{
	const size_t len = 8u << 20;
	u64 before, during, after;
	char *p;

	need_count();
	before = vs_mem_allocated();
	p = malloc(len);
	cr_assert_not_null(p);
	memset(p, 1, len);
	during = vs_mem_allocated();
	free(p);
	after = vs_mem_allocated();
	cr_assert_geq(during, before + len, "%llu then %llu", (unsigned long long)before,
		      (unsigned long long)during);
	cr_assert_lt(during, before + 2 * len);
	cr_assert_leq(after, before + (64u << 10), "%llu then %llu", (unsigned long long)before,
		      (unsigned long long)after);
}

Test(mem, pool_slabs_are_counted_and_given_back)
{
	struct vs_pool pool;
	void *objs[4096];
	u64 before, during;

	need_count();
	cr_assert_eq(vs_pool_init(&pool, "mem-test", 512, 0, NULL), 0);
	before = vs_mem_allocated();
	for (size_t i = 0; i < 4096; i++)
		cr_assert_not_null(objs[i] = vs_pool_alloc(&pool));
	during = vs_mem_allocated();
	cr_assert_geq(during, before + 4096 * 512);
	for (size_t i = 0; i < 4096; i++)
		vs_pool_free(&pool, objs[i]);
	vs_pool_destroy(&pool);
	cr_assert_leq(vs_mem_allocated(), before + (64u << 10));
}

Test(mem, a_cap_is_reached_at_its_max_and_none_never)
{
	struct vs_mem_cap cap = { .max = 0 };
	u64 used = 7;

	cr_assert_not(vs_mem_cap_reached(NULL, &used));
	cr_assert_not(vs_mem_cap_reached(&cap, &used));
	cr_assert_eq(used, 7, "no cap, no count");
	need_count();
	cap.max = vs_mem_allocated() + (256u << 20);
	cr_assert_not(vs_mem_cap_reached(&cap, &used));
	cr_assert_gt(used, 0);
	cap.max = 1;
	cr_assert(vs_mem_cap_reached(&cap, &used));
}

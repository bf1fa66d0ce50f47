// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the object pools (core/pool.h): objects are distinct, aligned and
 * writable; constructors run once per object when a slab is made and their
 * work survives alloc/free; memory is reused; the stats are exact after known
 * sequences; only one empty slab is kept; a long random alloc/free sequence
 * never hands out a live object twice; every pool is listed in creation
 * order; bad sizes and alignments are refused. Under AddressSanitizer, a use
 * after free and a double free are caught.
 */
#include <errno.h>
#include <signal.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "core/pool.h"

static struct vs_pool_stats stats_of(const struct vs_pool *pool)
{
	struct vs_pool_stats st;

	vs_pool_get_stats(pool, &st);
	return st;
}

Test(pool, objects_are_distinct_aligned_and_writable)
{
	static const size_t aligns[] = { 0, 8, 16, 64, 256, 4096 };
	const size_t size = 100;
	struct vs_pool pool;
	char *objs[300];

	for (size_t a = 0; a < ARRAY_SIZE(aligns); a++) {
		size_t want = aligns[a] ? aligns[a] : alignof(max_align_t);

		cr_assert_eq(vs_pool_init(&pool, "aligned", size, aligns[a], NULL), 0);
		for (size_t i = 0; i < ARRAY_SIZE(objs); i++) {
			objs[i] = vs_pool_alloc(&pool);
			cr_assert_not_null(objs[i]);
			cr_assert_eq((uintptr_t)objs[i] % want, 0,
				     "align %zu: object %p", want, (void *)objs[i]);
			memset(objs[i], (int)i, size);
		}
		/* Writing each over its full size clobbered no neighbour. */
		for (size_t i = 0; i < ARRAY_SIZE(objs); i++) {
			for (size_t b = 0; b < size; b++)
				cr_assert_eq((unsigned char)objs[i][b], (unsigned char)i);
		}
		for (size_t i = 0; i < ARRAY_SIZE(objs); i++)
			vs_pool_free(&pool, objs[i]);
		cr_assert_eq(stats_of(&pool).active_objs, 0);
		vs_pool_destroy(&pool);
	}
}

static unsigned int ctor_calls;

static void ctor_mark(void *obj)
{
	ctor_calls++;
	memcpy(obj, "constructed", 12);
}

Test(pool, ctor_runs_once_per_object_when_its_slab_is_made)
{
	struct vs_pool pool;
	struct vs_pool_stats st;
	size_t per_slab;
	void **objs;

	ctor_calls = 0;
	cr_assert_eq(vs_pool_init(&pool, "ctor", 48, 0, ctor_mark), 0);
	cr_assert_eq(ctor_calls, 0, "nothing is constructed before the first alloc");
	per_slab = stats_of(&pool).objs_per_slab;

	objs = calloc(per_slab + 1, sizeof(*objs));
	objs[0] = vs_pool_alloc(&pool);
	cr_assert_eq(ctor_calls, per_slab, "the whole first slab is constructed at once");
	for (size_t i = 1; i < per_slab; i++)
		objs[i] = vs_pool_alloc(&pool);
	cr_assert_eq(ctor_calls, per_slab, "no ctor call while the slab has room");
	objs[per_slab] = vs_pool_alloc(&pool);
	cr_assert_eq(ctor_calls, 2 * per_slab, "a second slab, constructed whole");

	for (size_t i = 0; i <= per_slab; i++)
		cr_assert_str_eq(objs[i], "constructed");

	/* Freed and reallocated objects are not constructed again. */
	for (size_t i = 0; i <= per_slab; i++)
		vs_pool_free(&pool, objs[i]);
	st = stats_of(&pool);
	cr_assert_eq(st.nr_slabs, 1);
	for (size_t i = 0; i < per_slab; i++)
		objs[i] = vs_pool_alloc(&pool);
	cr_assert_eq(ctor_calls, 2 * per_slab);
	for (size_t i = 0; i < per_slab; i++)
		vs_pool_free(&pool, objs[i]);
	free(objs);
	vs_pool_destroy(&pool);
}

Test(pool, object_comes_back_as_it_was_freed_in_a_ctor_pool)
{
	struct vs_pool pool;
	char *a, *b;

	cr_assert_eq(vs_pool_init(&pool, "state", 32, 0, ctor_mark), 0);
	a = vs_pool_alloc(&pool);
	/* The user restores an invariant state before freeing, all 32 bytes of it. */
	memset(a, 'x', 31);
	a[31] = '\0';
	vs_pool_free(&pool, a);
	b = vs_pool_alloc(&pool);
	cr_assert_eq(b, a, "LIFO reuse");
	for (int i = 0; i < 31; i++)
		cr_assert_eq(b[i], 'x', "byte %d was overwritten by the pool", i);
	vs_pool_free(&pool, b);
	vs_pool_destroy(&pool);
}

Test(pool, zalloc_clears_constructed_objects)
{
	struct vs_pool pool;
	unsigned char *p;

	cr_assert_eq(vs_pool_init(&pool, "zero", 40, 0, ctor_mark), 0);
	p = vs_pool_zalloc(&pool);
	cr_assert_not_null(p);
	for (int i = 0; i < 40; i++)
		cr_assert_eq(p[i], 0);
	vs_pool_free(&pool, p);
	vs_pool_destroy(&pool);
}

Test(pool, alloc_free_cycles_reuse_memory)
{
	struct vs_pool pool;
	void *first, *p;

	cr_assert_eq(vs_pool_init(&pool, "reuse", 64, 0, NULL), 0);
	first = vs_pool_alloc(&pool);
	vs_pool_free(&pool, first);
	for (int i = 0; i < 10000; i++) {
		p = vs_pool_alloc(&pool);
		cr_assert_eq(p, first, "cycle %d got a different object", i);
		vs_pool_free(&pool, p);
	}
	cr_assert_eq(stats_of(&pool).nr_slabs, 1);
	cr_assert_eq(stats_of(&pool).allocs, 10001);
	cr_assert_eq(stats_of(&pool).frees, 10001);
	vs_pool_destroy(&pool);
}

Test(pool, free_of_null_is_a_no_op)
{
	struct vs_pool pool;

	cr_assert_eq(vs_pool_init(&pool, "null", 16, 0, NULL), 0);
	vs_pool_free(&pool, NULL);
	cr_assert_eq(stats_of(&pool).frees, 0);
	cr_assert_eq(stats_of(&pool).active_objs, 0);
	vs_pool_destroy(&pool);
}

Test(pool, stats_are_exact_after_a_known_sequence)
{
	struct vs_pool pool;
	struct vs_pool_stats st;
	void *objs[1000];
	size_t per;

	cr_assert_eq(vs_pool_init(&pool, "stats", 24, 0, NULL), 0);
	st = stats_of(&pool);
	cr_assert_eq(st.obj_size, 32, "24 rounded up to the 16-byte default alignment");
	cr_assert_eq(st.slab_size, 16 * 1024);
	cr_assert_eq(st.nr_slabs, 0);
	cr_assert_eq(st.bytes, 0);
	cr_assert_eq(st.total_objs, 0);
	per = st.objs_per_slab;
	cr_assert_gt(per, 400);
	cr_assert_leq(per * 32, 16 * 1024);

	for (size_t i = 0; i < 1000; i++)
		objs[i] = vs_pool_alloc(&pool);
	st = stats_of(&pool);
	cr_assert_eq(st.active_objs, 1000);
	cr_assert_eq(st.nr_slabs, (1000 + per - 1) / per);
	cr_assert_eq(st.total_objs, st.nr_slabs * per);
	cr_assert_eq(st.bytes, st.nr_slabs * 16 * 1024);
	cr_assert_eq(st.allocs, 1000);
	cr_assert_eq(st.frees, 0);

	for (size_t i = 0; i < 1000; i += 2)
		vs_pool_free(&pool, objs[i]);
	st = stats_of(&pool);
	cr_assert_eq(st.active_objs, 500);
	cr_assert_eq(st.frees, 500);
	cr_assert_eq(st.nr_slabs, (1000 + per - 1) / per, "no slab became empty");

	for (size_t i = 1; i < 1000; i += 2)
		vs_pool_free(&pool, objs[i]);
	st = stats_of(&pool);
	cr_assert_eq(st.active_objs, 0);
	cr_assert_eq(st.allocs, 1000);
	cr_assert_eq(st.frees, 1000);
	cr_assert_eq(st.nr_slabs, 1, "one empty slab kept in reserve");
	cr_assert_eq(st.total_objs, per);
	cr_assert_eq(st.bytes, 16 * 1024);
	vs_pool_destroy(&pool);
}

Test(pool, empty_slabs_beyond_one_are_released)
{
	struct vs_pool pool;
	size_t per, n;
	void **objs;

	cr_assert_eq(vs_pool_init(&pool, "release", 200, 0, NULL), 0);
	per = stats_of(&pool).objs_per_slab;
	n = 5 * per;
	objs = calloc(n, sizeof(*objs));
	for (size_t i = 0; i < n; i++)
		objs[i] = vs_pool_alloc(&pool);
	cr_assert_eq(stats_of(&pool).nr_slabs, 5);

	/* Empty the slabs one by one: the count drops to one and stays there. */
	for (size_t s = 0; s < 5; s++) {
		for (size_t i = s * per; i < (s + 1) * per; i++)
			vs_pool_free(&pool, objs[i]);
		cr_assert_eq(stats_of(&pool).nr_slabs, s == 0 ? 5 : 5 - s,
			     "after emptying slab %zu", s);
	}
	cr_assert_eq(stats_of(&pool).nr_slabs, 1);

	/* The reserve serves the next allocation without a new slab. */
	objs[0] = vs_pool_alloc(&pool);
	cr_assert_eq(stats_of(&pool).nr_slabs, 1);
	vs_pool_free(&pool, objs[0]);
	free(objs);
	vs_pool_destroy(&pool);
}

/* xorshift64*: a fixed seed, so a failure replays exactly. */
static u64 rnd_state = 0x853c49e6748fea9bULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

#define RAND_OBJ_SIZE	40
#define RAND_SLOTS	4096
#define RAND_OPS	200000

static void fill(u32 *obj, u32 id)
{
	for (size_t w = 0; w < RAND_OBJ_SIZE / sizeof(u32); w++)
		obj[w] = id * 2654435761u + (u32)w;
}

static void verify(const u32 *obj, u32 id)
{
	for (size_t w = 0; w < RAND_OBJ_SIZE / sizeof(u32); w++)
		cr_assert_eq(obj[w], id * 2654435761u + (u32)w,
			     "object %u was overwritten at word %zu", id, w);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

Test(pool, random_alloc_free_never_hands_out_a_live_object_twice)
{
	struct vs_pool pool;
	u32 *live[RAND_SLOTS] = { NULL };
	u32 ids[RAND_SLOTS];
	uintptr_t sorted[RAND_SLOTS];
	size_t nr_live = 0, max_live = 0;
	u32 next_id = 1;

	cr_assert_eq(vs_pool_init(&pool, "random", RAND_OBJ_SIZE, 8, NULL), 0);
	for (int op = 0; op < RAND_OPS; op++) {
		size_t slot = rnd() % RAND_SLOTS;

		if (live[slot]) {
			verify(live[slot], ids[slot]);
			vs_pool_free(&pool, live[slot]);
			live[slot] = NULL;
			nr_live--;
		} else {
			live[slot] = vs_pool_alloc(&pool);
			cr_assert_not_null(live[slot]);
			ids[slot] = next_id++;
			fill(live[slot], ids[slot]);
			nr_live++;
		}
		if (nr_live > max_live)
			max_live = nr_live;
		cr_assert_eq(stats_of(&pool).active_objs, nr_live);

		/* Now and then: every live object is a different address. */
		if (op % 20000 == 0) {
			size_t n = 0;

			for (size_t i = 0; i < RAND_SLOTS; i++)
				if (live[i])
					sorted[n++] = (uintptr_t)live[i];
			qsort(sorted, n, sizeof(sorted[0]), cmp_ptr);
			for (size_t i = 1; i < n; i++)
				cr_assert_geq(sorted[i] - sorted[i - 1],
					      (uintptr_t)RAND_OBJ_SIZE, "overlapping objects");
		}
	}
	for (size_t i = 0; i < RAND_SLOTS; i++) {
		if (live[i]) {
			verify(live[i], ids[i]);
			vs_pool_free(&pool, live[i]);
		}
	}
	cr_assert_eq(stats_of(&pool).active_objs, 0);
	cr_assert_eq(stats_of(&pool).nr_slabs, 1);
	cr_assert_gt(max_live, 3 * stats_of(&pool).objs_per_slab,
		     "the sequence spanned several slabs");
	vs_pool_destroy(&pool);
}

struct seen {
	const struct vs_pool *pools[64];
	size_t n;
};

static void collect(const struct vs_pool *pool, void *arg)
{
	struct seen *seen = arg;

	if (strncmp(pool->name, "listed-", 7))
		return;
	cr_assert_lt(seen->n, ARRAY_SIZE(seen->pools));
	seen->pools[seen->n++] = pool;
}

Test(pool, pools_are_listed_in_creation_order)
{
	static char names[40][24];
	struct vs_pool pools[40];
	struct seen seen = { .n = 0 };

	for (int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "listed-%d", i);
		cr_assert_eq(vs_pool_init(&pools[i], names[i], 8 + (size_t)i, 0, NULL), 0);
	}
	vs_pools_for_each(collect, &seen);
	cr_assert_eq(seen.n, 40);
	for (size_t i = 0; i < 40; i++)
		cr_assert_eq(seen.pools[i], &pools[i], "position %zu", i);

	/* A destroyed pool leaves the list; the others keep their order. */
	vs_pool_destroy(&pools[7]);
	seen.n = 0;
	vs_pools_for_each(collect, &seen);
	cr_assert_eq(seen.n, 39);
	for (size_t i = 0, j = 0; i < 40; i++) {
		if (i == 7)
			continue;
		cr_assert_eq(seen.pools[j++], &pools[i]);
	}
	for (int i = 0; i < 40; i++)
		if (i != 7)
			vs_pool_destroy(&pools[i]);
	seen.n = 0;
	vs_pools_for_each(collect, &seen);
	cr_assert_eq(seen.n, 0);
}

Test(pool, large_objects_get_slabs_of_at_least_eight)
{
	struct vs_pool pool;
	struct vs_pool_stats st;
	unsigned char *objs[20];

	cr_assert_eq(vs_pool_init(&pool, "large", 5000, 0, NULL), 0);
	st = stats_of(&pool);
	cr_assert_geq(st.objs_per_slab, 8);
	cr_assert_eq(st.slab_size & (st.slab_size - 1), 0, "a power of two");
	cr_assert_eq(st.slab_size, 64 * 1024, "8 * 5008 + header rounds up to 64 KiB");
	for (int i = 0; i < 20; i++) {
		objs[i] = vs_pool_alloc(&pool);
		memset(objs[i], i, 5000);
	}
	for (int i = 0; i < 20; i++) {
		cr_assert_eq(objs[i][0], i);
		cr_assert_eq(objs[i][4999], i);
		vs_pool_free(&pool, objs[i]);
	}
	vs_pool_destroy(&pool);
}

Test(pool, invalid_size_or_alignment_is_refused)
{
	struct vs_pool pool;

	cr_assert_eq(vs_pool_init(&pool, "bad", 0, 0, NULL), -EINVAL);
	cr_assert_eq(vs_pool_init(&pool, "bad", 16, 3, NULL), -EINVAL);
	cr_assert_eq(vs_pool_init(&pool, "bad", 16, 24, NULL), -EINVAL);
	cr_assert_eq(vs_pool_init(&pool, "bad", SIZE_MAX, 0, NULL), -EINVAL);
	cr_assert_eq(vs_pool_init(&pool, "bad", 16, (size_t)1 << 62, NULL), -EINVAL);
	/* Small alignments are raised to a pointer, so the free link fits. */
	cr_assert_eq(vs_pool_init(&pool, "tiny", 1, 1, NULL), 0);
	cr_assert_eq(stats_of(&pool).obj_size, sizeof(void *));
	vs_pool_destroy(&pool);
}

#if defined(__SANITIZE_ADDRESS__)
/* ASan reports and exits with status 1 (the sanitizer's default). */
Test(pool, use_after_free_is_reported_under_asan, .exit_code = 1,
     .init = cr_redirect_stderr)
{
	struct vs_pool pool;
	volatile char *p;

	vs_pool_init(&pool, "uaf", 64, 0, NULL);
	p = vs_pool_alloc(&pool);
	vs_pool_alloc(&pool);
	vs_pool_free(&pool, (void *)p);
	p[20] = 1;
	cr_assert_fail("the write after free was not reported");
}

Test(pool, double_free_aborts_under_asan, .signal = SIGABRT,
     .init = cr_redirect_stderr)
{
	struct vs_pool pool;
	void *p;

	vs_pool_init(&pool, "double", 64, 0, NULL);
	p = vs_pool_alloc(&pool);
	vs_pool_alloc(&pool);
	vs_pool_free(&pool, p);
	vs_pool_free(&pool, p);
}
#endif

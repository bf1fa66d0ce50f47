// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the session arena (core/arena.h): alignment, zeroing, requests
 * larger than a chunk, reset that keeps the chunks and hands out the same
 * addresses again, the usage statistics, calloc's overflow check and strdup.
 * Under AddressSanitizer, reading arena memory after a reset is caught.
 */
#include <stdint.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "core/arena.h"

Test(arena, init_allocates_nothing)
{
	struct vs_arena a;

	vs_arena_init(&a, 0);
	cr_assert_eq(a.chunk_size, VS_ARENA_CHUNK_DEFAULT);
	cr_assert_eq(a.nr_chunks, 0);
	cr_assert_eq(a.reserved, 0);
	cr_assert_eq(a.used, 0);
	vs_arena_reset(&a);
	cr_assert_eq(a.nr_chunks, 0, "reset of an unused arena allocates nothing");
	vs_arena_destroy(&a);
}

Test(arena, every_allocation_is_aligned_and_writable)
{
	struct vs_arena a;
	unsigned char *p[500];
	size_t sz[500];

	vs_arena_init(&a, 4096);
	for (size_t i = 0; i < 500; i++) {
		sz[i] = 1 + (i * 37) % 300;
		p[i] = vs_arena_alloc(&a, sz[i]);
		cr_assert_not_null(p[i]);
		cr_assert_eq((uintptr_t)p[i] % VS_ARENA_ALIGN, 0, "allocation %zu", i);
		memset(p[i], (int)i, sz[i]);
	}
	for (size_t i = 0; i < 500; i++) {
		for (size_t b = 0; b < sz[i]; b++)
			cr_assert_eq(p[i][b], (unsigned char)i, "allocation %zu overlapped", i);
	}
	vs_arena_destroy(&a);
}

Test(arena, zero_size_gets_a_distinct_pointer)
{
	struct vs_arena a;
	void *x, *y;

	vs_arena_init(&a, 0);
	x = vs_arena_alloc(&a, 0);
	y = vs_arena_alloc(&a, 0);
	cr_assert_not_null(x);
	cr_assert_not_null(y);
	cr_assert_neq(x, y);
	vs_arena_destroy(&a);
}

Test(arena, zalloc_and_calloc_return_zeroes_after_reuse)
{
	struct vs_arena a;
	unsigned char *p;
	u32 *v;

	vs_arena_init(&a, 4096);
	p = vs_arena_alloc(&a, 1000);
	memset(p, 0xa5, 1000);
	vs_arena_reset(&a);
	p = vs_arena_zalloc(&a, 1000);
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(p[i], 0);

	memset(p, 0xa5, 1000);
	vs_arena_reset(&a);
	v = vs_arena_calloc(&a, 250, sizeof(*v));
	cr_assert_not_null(v);
	for (int i = 0; i < 250; i++)
		cr_assert_eq(v[i], 0);
	vs_arena_destroy(&a);
}

Test(arena, calloc_overflow_returns_null)
{
	struct vs_arena a;

	vs_arena_init(&a, 0);
	cr_assert_null(vs_arena_calloc(&a, SIZE_MAX / 2, 3));
	cr_assert_null(vs_arena_calloc(&a, (size_t)1 << 40, (size_t)1 << 40));
	cr_assert_null(vs_arena_alloc(&a, SIZE_MAX));
	cr_assert_null(vs_arena_alloc(&a, SIZE_MAX - 8));
	cr_assert_eq(a.used, 0);
	cr_assert_not_null(vs_arena_calloc(&a, 0, 16), "an empty array is not an error");
	vs_arena_destroy(&a);
}

Test(arena, big_allocation_gets_its_own_chunk)
{
	struct vs_arena a;
	unsigned char *small, *big, *after;

	vs_arena_init(&a, 4096);
	small = vs_arena_alloc(&a, 100);
	cr_assert_eq(a.nr_chunks, 1);
	big = vs_arena_alloc(&a, 100000);
	cr_assert_not_null(big);
	cr_assert_eq(a.nr_chunks, 2);
	memset(big, 0x5a, 100000);
	cr_assert_geq(a.reserved, 4096 + 100000);
	cr_assert_lt(a.reserved, 4096 + 100000 + 256, "the big chunk is sized to fit");

	/* The big chunk is full: the next small request needs a regular one. */
	after = vs_arena_alloc(&a, 100);
	cr_assert_eq(a.nr_chunks, 3);
	cr_assert((uintptr_t)after < (uintptr_t)big ||
		  (uintptr_t)after >= (uintptr_t)big + 100000);
	cr_assert_not_null(small);
	vs_arena_destroy(&a);
}

/* One session's worth of allocations, the same every time. */
static void session(struct vs_arena *a, void **out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = vs_arena_alloc(a, i % 7 == 0 ? 5000 : 16 + (i * 13) % 500);
}

Test(arena, reset_keeps_chunks_and_hands_out_the_same_memory)
{
	struct vs_arena a;
	void *first[400], *again[400];
	size_t chunks, reserved;

	vs_arena_init(&a, 8192);
	session(&a, first, 400);
	chunks = a.nr_chunks;
	reserved = a.reserved;
	cr_assert_gt(chunks, 5, "the session needs several chunks");

	for (int round = 0; round < 3; round++) {
		vs_arena_reset(&a);
		cr_assert_eq(a.used, 0);
		cr_assert_eq(a.nr_chunks, chunks, "reset keeps every chunk");
		session(&a, again, 400);
		cr_assert_eq(a.nr_chunks, chunks, "a repeated session allocates no chunk");
		cr_assert_eq(a.reserved, reserved);
		for (size_t i = 0; i < 400; i++)
			cr_assert_eq(again[i], first[i], "round %d, allocation %zu", round, i);
	}
	cr_assert_eq(a.resets, 3);
	vs_arena_destroy(&a);
	cr_assert_eq(a.nr_chunks, 0);
	cr_assert_eq(a.reserved, 0);
}

Test(arena, after_reset_allocation_moves_through_existing_chunks)
{
	struct vs_arena a;
	void *c0, *c1, *c2, *p;

	vs_arena_init(&a, 1024);
	c0 = vs_arena_alloc(&a, 1024);
	c1 = vs_arena_alloc(&a, 1024);
	c2 = vs_arena_alloc(&a, 1024);
	cr_assert_eq(a.nr_chunks, 3);

	vs_arena_reset(&a);
	cr_assert_eq(vs_arena_alloc(&a, 512), c0, "restarts at the first chunk");
	p = vs_arena_alloc(&a, 1024);
	cr_assert_eq(p, c1, "moves on to the second rather than allocating");
	cr_assert_eq(vs_arena_alloc(&a, 16), c2);
	cr_assert_eq(a.nr_chunks, 3);
	vs_arena_alloc(&a, 1024);
	cr_assert_eq(a.nr_chunks, 4, "only past the last chunk is a new one made");
	vs_arena_destroy(&a);
}

Test(arena, used_and_high_water_follow_the_sessions)
{
	struct vs_arena a;

	vs_arena_init(&a, 4096);
	vs_arena_alloc(&a, 10);
	cr_assert_eq(a.used, 16, "sizes count rounded to the alignment");
	vs_arena_alloc(&a, 32);
	cr_assert_eq(a.used, 48);
	cr_assert_eq(a.high_water, 48);

	vs_arena_reset(&a);
	cr_assert_eq(a.used, 0);
	cr_assert_eq(a.high_water, 48, "high water survives a reset");
	vs_arena_alloc(&a, 16);
	cr_assert_eq(a.high_water, 48);
	vs_arena_alloc(&a, 100);
	cr_assert_eq(a.used, 128);
	cr_assert_eq(a.high_water, 128);
	cr_assert_eq(a.resets, 1);
	cr_assert_geq(a.reserved, a.nr_chunks * 4096);
	vs_arena_destroy(&a);
}

Test(arena, strdup_copies_the_string)
{
	struct vs_arena a;
	char buf[] = "worker-1234";
	char *s, *e;

	vs_arena_init(&a, 0);
	s = vs_arena_strdup(&a, buf);
	buf[0] = 'X';
	cr_assert_str_eq(s, "worker-1234");
	e = vs_arena_strdup(&a, "");
	cr_assert_str_eq(e, "");
	cr_assert_neq(e, s);
	vs_arena_destroy(&a);
}

#if defined(__SANITIZE_ADDRESS__)
Test(arena, read_after_reset_is_reported_under_asan, .exit_code = 1,
     .init = cr_redirect_stderr)
{
	struct vs_arena a;
	volatile char *p;

	vs_arena_init(&a, 0);
	p = vs_arena_alloc(&a, 64);
	p[0] = 1;
	vs_arena_reset(&a);
	(void)p[0];
	cr_assert_fail("the read after reset was not reported");
}

Test(arena, overrun_into_the_rounding_is_reported_under_asan, .exit_code = 1,
     .init = cr_redirect_stderr)
{
	struct vs_arena a;
	volatile char *p;

	vs_arena_init(&a, 0);
	p = vs_arena_alloc(&a, 20);
	p[24] = 1;
	cr_assert_fail("the overrun was not reported");
}
#endif

/*
 * An arena embedded after a lone u64 (as vsctl's loader state once had it)
 * used to sit 8 bytes off a chunk's alignment, and the list walk of destroy
 * formed a misaligned chunk pointer from the head: UBSan aborted there.
 */
Test(arena, embedded_after_a_u64_is_aligned_and_destroyed_cleanly)
{
	struct {
		u64 pad;
		struct vs_arena arena;
	} s;

	cr_assert_eq((uintptr_t)&s.arena.chunks % VS_ARENA_ALIGN, 0);
	vs_arena_init(&s.arena, 0);
	cr_assert_not_null(vs_arena_alloc(&s.arena, 64));
	vs_arena_reset(&s.arena);
	cr_assert_not_null(vs_arena_alloc(&s.arena, 64));
	vs_arena_destroy(&s.arena);
	s.pad = 0;
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the priority queue (sched/pqueue.h): it must sift exactly as Go's
 * container/heap does, so the heap's array after each step is checked
 * against the steps worked by hand from that algorithm, including the case
 * where an item's key changes while it waits (the root comes out first even
 * if it is no longer the least).
 */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "sched/pqueue.h"

struct item {
	int key;
	char name;
};

static int cmp_items(struct vs_session *ssn, const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

static struct vs_arena arena;
static struct vs_pqueue pq;

static void setup(void)
{
	vs_arena_init(&arena, 0);
	vs_pq_init(&pq, NULL, &arena, cmp_items);
}

static void teardown(void)
{
	vs_arena_destroy(&arena);
}

TestSuite(pqueue, .init = setup, .fini = teardown);

static void expect_layout(const char *names)
{
	cr_assert_eq(vs_pq_len(&pq), strlen(names));
	for (u32 i = 0; i < pq.nr; i++)
		cr_assert_eq(((struct item *)pq.items[i])->name, names[i],
			     "slot %u holds %c, expected %c", i,
			     ((struct item *)pq.items[i])->name, names[i]);
}

Test(pqueue, push_and_pop_sift_as_go_container_heap)
{
	struct item a = { 5, 'a' }, b = { 3, 'b' }, c = { 8, 'c' }, d = { 1, 'd' };

	vs_pq_push(&pq, &a);
	vs_pq_push(&pq, &b);
	expect_layout("ba");
	vs_pq_push(&pq, &c);
	expect_layout("bac");
	vs_pq_push(&pq, &d);		/* d rises past a, then past b */
	expect_layout("dbca");
	cr_assert_eq(vs_pq_pop(&pq), &d);
	expect_layout("bac");		/* a moved to the root, sank below b */
	cr_assert_eq(vs_pq_pop(&pq), &b);
	cr_assert_eq(vs_pq_pop(&pq), &a);
	cr_assert_eq(vs_pq_pop(&pq), &c);
	cr_assert_null(vs_pq_pop(&pq));
	cr_assert(vs_pq_empty(&pq));
}

Test(pqueue, a_key_that_grows_while_waiting_still_comes_out_from_the_root)
{
	struct item a = { 1, 'a' }, b = { 2, 'b' }, c = { 3, 'c' };

	vs_pq_push(&pq, &a);
	vs_pq_push(&pq, &b);
	vs_pq_push(&pq, &c);
	a.key = 10;			/* a's queue took a large share meanwhile */
	cr_assert_eq(vs_pq_pop(&pq), &a, "the heap is not re-sorted, as in Volcano");
	cr_assert_eq(vs_pq_pop(&pq), &b);
	cr_assert_eq(vs_pq_pop(&pq), &c);
}

Test(pqueue, many_items_come_out_sorted)
{
	struct item items[1000];

	srand(7);
	for (int i = 0; i < 1000; i++) {
		items[i].key = rand() % 500;
		cr_assert_eq(vs_pq_push(&pq, &items[i]), 0);
	}
	for (int i = 0, last = -1; i < 1000; i++) {
		struct item *it = vs_pq_pop(&pq);

		cr_assert_geq(it->key, last);
		last = it->key;
	}
}

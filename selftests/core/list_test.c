// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the intrusive lists (core/list.h): order of insertion at head and
 * tail, removal while iterating, moves and splices, and hlist chains, each
 * checked against the expected sequence and the link invariant
 * n->next->prev == n for every node.
 */
#include <criterion/criterion.h>

#include "core/list.h"

struct item {
	int val;
	struct list_head node;
	struct hlist_node hnode;
};

/* Every link points back; returns the number of nodes. */
static size_t check_links(const struct list_head *head)
{
	const struct list_head *pos = head;
	size_t n = 0;

	do {
		cr_assert_eq(pos->next->prev, pos);
		cr_assert_eq(pos->prev->next, pos);
		pos = pos->next;
		if (pos != head)
			n++;
		cr_assert_lt(n, 100000, "list does not close");
	} while (pos != head);
	return n;
}

static void expect_vals(struct list_head *head, const int *vals, size_t n)
{
	struct item *it;
	size_t i = 0;

	cr_assert_eq(check_links(head), n);
	list_for_each_entry(it, head, node) {
		cr_assert_lt(i, n);
		cr_assert_eq(it->val, vals[i], "position %zu: %d, expected %d",
			     i, it->val, vals[i]);
		i++;
	}
	cr_assert_eq(i, n);
	/* and backwards */
	list_for_each_entry_reverse(it, head, node) {
		i--;
		cr_assert_eq(it->val, vals[i]);
	}
}

Test(list, add_tail_keeps_insertion_order)
{
	struct item items[5];
	LIST_HEAD(head);
	const int want[] = { 0, 1, 2, 3, 4 };

	cr_assert(list_empty(&head));
	for (int i = 0; i < 5; i++) {
		items[i].val = i;
		list_add_tail(&items[i].node, &head);
	}
	expect_vals(&head, want, 5);
	cr_assert_eq(list_first_entry(&head, struct item, node), &items[0]);
	cr_assert_eq(list_last_entry(&head, struct item, node), &items[4]);
	cr_assert_eq(list_count_nodes(&head), 5);
}

Test(list, add_at_head_reverses_order)
{
	struct item items[4];
	LIST_HEAD(head);
	const int want[] = { 3, 2, 1, 0 };

	for (int i = 0; i < 4; i++) {
		items[i].val = i;
		list_add(&items[i].node, &head);
	}
	expect_vals(&head, want, 4);
	cr_assert(list_is_first(&items[3].node, &head));
	cr_assert(list_is_last(&items[0].node, &head));
}

Test(list, del_init_leaves_an_empty_reusable_node)
{
	struct item a = { .val = 1 }, b = { .val = 2 };
	LIST_HEAD(head);
	const int want[] = { 2 };

	list_add_tail(&a.node, &head);
	list_add_tail(&b.node, &head);
	list_del_init(&a.node);
	cr_assert(list_empty(&a.node));
	expect_vals(&head, want, 1);
	cr_assert(list_is_singular(&head));
	/* removing it again changes nothing */
	list_del_init(&a.node);
	expect_vals(&head, want, 1);
	list_del(&b.node);
	cr_assert(list_empty(&head));
	cr_assert_eq(b.node.next, LIST_POISON1);
	cr_assert_null(list_first_entry_or_null(&head, struct item, node));
}

Test(list, safe_iteration_survives_deleting_every_other_entry)
{
	struct item items[10], *it, *tmp;
	LIST_HEAD(head);
	const int want[] = { 1, 3, 5, 7, 9 };

	for (int i = 0; i < 10; i++) {
		items[i].val = i;
		list_add_tail(&items[i].node, &head);
	}
	list_for_each_entry_safe(it, tmp, &head, node)
		if (it->val % 2 == 0)
			list_del(&it->node);
	expect_vals(&head, want, 5);

	list_for_each_entry_safe_reverse(it, tmp, &head, node)
		list_del_init(&it->node);
	cr_assert(list_empty(&head));
}

Test(list, move_and_splice)
{
	struct item items[6];
	LIST_HEAD(a);
	LIST_HEAD(b);
	const int want_a[] = { 2, 0, 1, 3, 4, 5 };

	for (int i = 0; i < 3; i++) {
		items[i].val = i;
		list_add_tail(&items[i].node, &a);
	}
	for (int i = 3; i < 6; i++) {
		items[i].val = i;
		list_add_tail(&items[i].node, &b);
	}
	list_move(&items[2].node, &a);		/* 2 0 1 */
	list_splice_tail_init(&b, &a);		/* 2 0 1 3 4 5 */
	cr_assert(list_empty(&b));
	expect_vals(&a, want_a, 6);

	list_move_tail(&items[2].node, &b);
	list_splice_init(&b, &a);		/* 2 0 1 3 4 5 again */
	expect_vals(&a, want_a, 6);

	struct item r = { .val = 9 };
	const int want_r[] = { 2, 9, 1, 3, 4, 5 };

	list_replace(&items[0].node, &r.node);
	expect_vals(&a, want_r, 6);
}

Test(list, continue_resumes_after_the_given_entry)
{
	struct item items[5], *it;
	LIST_HEAD(head);
	int sum = 0;

	for (int i = 0; i < 5; i++) {
		items[i].val = i;
		list_add_tail(&items[i].node, &head);
	}
	it = &items[2];
	list_for_each_entry_continue(it, &head, node)
		sum += it->val;
	cr_assert_eq(sum, 3 + 4);
}

Test(hlist, add_head_del_and_iterate)
{
	struct hlist_head h = HLIST_HEAD_INIT;
	struct item items[4], *it;
	struct hlist_node *tmp;
	int seen[4] = { 0 };
	int n = 0;

	cr_assert(hlist_empty(&h));
	for (int i = 0; i < 4; i++) {
		items[i].val = i;
		INIT_HLIST_NODE(&items[i].hnode);
		cr_assert(hlist_unhashed(&items[i].hnode));
		hlist_add_head(&items[i].hnode, &h);
	}
	/* head insertion: the last added comes first */
	cr_assert_eq(hlist_entry(h.first, struct item, hnode), &items[3]);

	hlist_del_init(&items[1].hnode);
	cr_assert(hlist_unhashed(&items[1].hnode));
	hlist_del_init(&items[1].hnode);	/* harmless twice */

	hlist_for_each_entry(it, &h, hnode) {
		seen[it->val]++;
		n++;
		/* pprev points at the pointer that points at us */
		cr_assert_eq(*it->hnode.pprev, &it->hnode);
	}
	cr_assert_eq(n, 3);
	cr_assert_eq(seen[1], 0);

	hlist_for_each_entry_safe(it, tmp, &h, hnode)
		hlist_del(&it->hnode);
	cr_assert(hlist_empty(&h));
}

Test(hlist, add_before_and_behind_keep_chain_order)
{
	struct hlist_head h = HLIST_HEAD_INIT;
	struct item a = { .val = 1 }, b = { .val = 2 }, c = { .val = 3 }, *it;
	int order[3], n = 0;

	hlist_add_head(&b.hnode, &h);
	hlist_add_before(&a.hnode, &b.hnode);
	hlist_add_behind(&c.hnode, &b.hnode);
	hlist_for_each_entry(it, &h, hnode)
		order[n++] = it->val;
	cr_assert_eq(n, 3);
	cr_assert_eq(order[0], 1);
	cr_assert_eq(order[1], 2);
	cr_assert_eq(order[2], 3);
	cr_assert_eq(h.first, &a.hnode);
}

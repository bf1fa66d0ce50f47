// SPDX-License-Identifier: Apache-2.0
/*
 * struct vs_htable: the bucket array of a hash table of hlist chains, and its
 * growth. The entries and the lookups belong to the callers (see htable.h);
 * this file only allocates buckets, links and unlinks nodes, and rehashes
 * everything into a table twice as large when the entries outnumber the
 * buckets, so that the average chain stays at most one entry long.
 *
 * Invariant: every entry is on the chain of bucket
 * t->hashfn(node) & (vs_htable_size(t) - 1), and t->count is the number of
 * entries on all chains.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/htable.h"

#define HTABLE_DEFAULT_SHIFT	4
/* vs_htable_bucket() masks with a 32-bit (1u << shift) - 1. */
#define HTABLE_MAX_SHIFT	31

static struct hlist_head *buckets_alloc(unsigned int shift)
{
	/* calloc: an all-zero hlist_head is an empty chain. */
	return calloc((size_t)1 << shift, sizeof(struct hlist_head));
}

/*
 * A @shift above 31 cannot be addressed by vs_htable_bucket() and is refused
 * with -EINVAL. A NULL @hashfn is accepted and gives a table that never grows.
 */
int vs_htable_init(struct vs_htable *t, unsigned int shift,
		   u32 (*hashfn)(const struct hlist_node *node))
{
	if (!shift)
		shift = HTABLE_DEFAULT_SHIFT;
	if (shift > HTABLE_MAX_SHIFT)
		return -EINVAL;

	t->buckets = buckets_alloc(shift);
	if (!t->buckets)
		return -ENOMEM;
	t->shift = shift;
	t->count = 0;
	t->hashfn = hashfn;
	return 0;
}

void vs_htable_destroy(struct vs_htable *t)
{
	free(t->buckets);
	t->buckets = NULL;
	t->count = 0;
}

/*
 * Move every entry into a bucket array twice the size. On allocation failure
 * nothing changes: a table with long chains is slower, not wrong.
 */
static void htable_grow(struct vs_htable *t)
{
	unsigned int new_shift = t->shift + 1;
	u32 new_mask = (u32)(((u64)1 << new_shift) - 1);
	struct hlist_head *nb;
	struct hlist_node *pos, *n;
	size_t bkt;

	nb = buckets_alloc(new_shift);
	if (!nb)
		return;

	for (bkt = 0; bkt < vs_htable_size(t); bkt++) {
		hlist_for_each_safe(pos, n, &t->buckets[bkt])
			hlist_add_head(pos, &nb[t->hashfn(pos) & new_mask]);
	}
	free(t->buckets);
	t->buckets = nb;
	t->shift = new_shift;
}

void vs_htable_add(struct vs_htable *t, struct hlist_node *node, u32 hash)
{
	hlist_add_head(node, vs_htable_bucket(t, hash));
	t->count++;
	if (unlikely(t->count > vs_htable_size(t)) && t->hashfn &&
	    t->shift < HTABLE_MAX_SHIFT)
		htable_grow(t);
}

/* The node is left unhashed (hlist_unhashed() is true), so it may be re-added. */
void vs_htable_del(struct vs_htable *t, struct hlist_node *node)
{
	hlist_del_init(node);
	t->count--;
}

int vs_htable_check(const struct vs_htable *t)
{
	u32 mask = (u32)((1ull << t->shift) - 1);
	const struct hlist_node *pos;
	size_t n = 0;

	for (size_t bkt = 0; bkt < vs_htable_size(t); bkt++) {
		struct hlist_node *const *link = &t->buckets[bkt].first;

		for (pos = *link; pos; link = &pos->next, pos = pos->next) {
			if (pos->pprev != link || (t->hashfn(pos) & mask) != bkt)
				return -EIO;
			n++;
		}
	}
	return n == t->count ? 0 : -EIO;
}

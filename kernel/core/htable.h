/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A resizable hash table of intrusive hlist chains.
 *
 * The table owns only its bucket array; entries embed a struct hlist_node and
 * the caller supplies their hash when adding, and a function that recomputes
 * the hash of an entry so the table can rehash when it grows. Lookups are
 * written by the caller: walk vs_htable_bucket(t, hash) comparing keys.
 *
 * The table doubles when it holds more entries than buckets, so chains stay
 * short. If the larger bucket array cannot be allocated the table keeps
 * working at its current size.
 */
#ifndef VS_CORE_HTABLE_H
#define VS_CORE_HTABLE_H

#include <stddef.h>
#include "core/compiler.h"
#include "core/list.h"

struct vs_htable {
	struct hlist_head *buckets;
	unsigned int shift;		/* 1 << shift buckets */
	size_t count;
	u32 (*hashfn)(const struct hlist_node *node);
};

/* 1 << @shift buckets to start with (0: a small default). 0 or -ENOMEM. */
int vs_htable_init(struct vs_htable *t, unsigned int shift,
		   u32 (*hashfn)(const struct hlist_node *node));

/* Free the bucket array; the entries are the caller's. */
void vs_htable_destroy(struct vs_htable *t);

static inline struct hlist_head *vs_htable_bucket(const struct vs_htable *t, u32 hash)
{
	return &t->buckets[hash & ((1u << t->shift) - 1)];
}

/* Add @node with @hash (which must equal t->hashfn(node)); may grow the table. */
void vs_htable_add(struct vs_htable *t, struct hlist_node *node, u32 hash);

/* Remove @node, which must be in @t. */
void vs_htable_del(struct vs_htable *t, struct hlist_node *node);

/*
 * Whether the table is whole: every entry in the bucket its hash names,
 * each chain's back links right, as many entries as counted. 0, or -EIO
 * (for vs_cluster_check(): a walk of every entry, not for hot paths).
 */
int vs_htable_check(const struct vs_htable *t);

static inline size_t vs_htable_count(const struct vs_htable *t)
{
	return t->count;
}

static inline size_t vs_htable_size(const struct vs_htable *t)
{
	return (size_t)1 << t->shift;
}

/* Every entry: iterate buckets, then chains. */
#define vs_htable_for_each_entry(pos, t, bkt, member)			\
	for ((bkt) = 0; (bkt) < vs_htable_size(t); (bkt)++)		\
		hlist_for_each_entry(pos, &(t)->buckets[bkt], member)

#endif /* VS_CORE_HTABLE_H */

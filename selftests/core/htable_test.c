// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the resizable hash table (core/htable.h) and the byte hash under
 * it (core/hash.h): 100k entries added, found and deleted across many
 * doublings, count and size, iteration that visits every entry once, chains
 * that stay short for sequential names, and a hash that is deterministic and
 * sensitive to every byte, the length and the seed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/hash.h"
#include "core/htable.h"

#define NR_ENTRIES	100000

struct entry {
	char name[32];
	size_t len;
	u32 hash;
	unsigned int visits;
	struct hlist_node node;
};

static u32 entry_hashfn(const struct hlist_node *node)
{
	return container_of(node, struct entry, node)->hash;
}

static void entry_set(struct entry *e, unsigned int i)
{
	e->len = (size_t)snprintf(e->name, sizeof(e->name), "task-%u", i);
	e->hash = vs_hash_bytes(e->name, e->len, 0);
	e->visits = 0;
	INIT_HLIST_NODE(&e->node);
}

static struct entry *lookup(const struct vs_htable *t, const char *name)
{
	size_t len = strlen(name);
	u32 hash = vs_hash_bytes(name, len, 0);
	struct entry *e;

	hlist_for_each_entry(e, vs_htable_bucket(t, hash), node) {
		if (e->hash == hash && e->len == len && !memcmp(e->name, name, len))
			return e;
	}
	return NULL;
}

static struct entry *make_entries(size_t n)
{
	struct entry *v = calloc(n, sizeof(*v));

	cr_assert_not_null(v);
	for (size_t i = 0; i < n; i++)
		entry_set(&v[i], (unsigned int)i);
	return v;
}

Test(htable, init_shift_zero_takes_the_default)
{
	struct vs_htable t;

	cr_assert_eq(vs_htable_init(&t, 0, entry_hashfn), 0);
	cr_assert_eq(vs_htable_size(&t), 16);
	cr_assert_eq(vs_htable_count(&t), 0);
	vs_htable_destroy(&t);

	cr_assert_eq(vs_htable_init(&t, 10, entry_hashfn), 0);
	cr_assert_eq(vs_htable_size(&t), 1024);
	vs_htable_destroy(&t);

	cr_assert_eq(vs_htable_init(&t, 40, entry_hashfn), -EINVAL,
		     "buckets beyond what a u32 hash can address");
}

Test(htable, add_find_del_100k_entries_with_growth)
{
	struct entry *v = make_entries(NR_ENTRIES);
	struct vs_htable t;
	char name[32];

	cr_assert_eq(vs_htable_init(&t, 0, entry_hashfn), 0);
	for (size_t i = 0; i < NR_ENTRIES; i++) {
		vs_htable_add(&t, &v[i].node, v[i].hash);
		cr_assert_eq(vs_htable_count(&t), i + 1);
		cr_assert_geq(vs_htable_size(&t), vs_htable_count(&t),
			      "grows when count exceeds buckets");
	}
	cr_assert_eq(vs_htable_size(&t), 131072, "16 doubled 13 times");

	for (size_t i = 0; i < NR_ENTRIES; i++) {
		snprintf(name, sizeof(name), "task-%zu", i);
		cr_assert_eq(lookup(&t, name), &v[i], "%s", name);
	}
	cr_assert_null(lookup(&t, "task-100000"));
	cr_assert_null(lookup(&t, "task-"));

	/* Delete the even ones: the odd ones are still found, the even gone. */
	for (size_t i = 0; i < NR_ENTRIES; i += 2) {
		vs_htable_del(&t, &v[i].node);
		cr_assert(hlist_unhashed(&v[i].node), "del leaves the node unhashed");
	}
	cr_assert_eq(vs_htable_count(&t), NR_ENTRIES / 2);
	cr_assert_eq(vs_htable_size(&t), 131072, "the table does not shrink");
	for (size_t i = 0; i < NR_ENTRIES; i++) {
		snprintf(name, sizeof(name), "task-%zu", i);
		if (i % 2)
			cr_assert_eq(lookup(&t, name), &v[i]);
		else
			cr_assert_null(lookup(&t, name));
	}

	/* A deleted node can be added again. */
	vs_htable_add(&t, &v[0].node, v[0].hash);
	cr_assert_eq(lookup(&t, "task-0"), &v[0]);
	cr_assert_eq(vs_htable_count(&t), NR_ENTRIES / 2 + 1);

	vs_htable_destroy(&t);
	free(v);
}

Test(htable, iteration_visits_every_entry_once)
{
	struct entry *v = make_entries(5000);
	struct vs_htable t;
	struct entry *e;
	size_t bkt, n = 0;

	cr_assert_eq(vs_htable_init(&t, 2, entry_hashfn), 0);
	for (size_t i = 0; i < 5000; i++)
		vs_htable_add(&t, &v[i].node, v[i].hash);

	vs_htable_for_each_entry(e, &t, bkt, node) {
		e->visits++;
		n++;
	}
	cr_assert_eq(n, 5000);
	for (size_t i = 0; i < 5000; i++)
		cr_assert_eq(v[i].visits, 1, "entry %zu visited %u times", i, v[i].visits);
	vs_htable_destroy(&t);
	free(v);
}

Test(htable, every_entry_is_in_its_bucket_after_doublings)
{
	struct entry *v = make_entries(3000);
	struct vs_htable t;
	struct entry *e;
	size_t bkt;

	cr_assert_eq(vs_htable_init(&t, 1, entry_hashfn), 0);
	for (size_t i = 0; i < 3000; i++) {
		vs_htable_add(&t, &v[i].node, v[i].hash);
		/* Check the invariant right after each doubling. */
		if (vs_htable_count(&t) == vs_htable_size(&t) / 2 + 1) {
			vs_htable_for_each_entry(e, &t, bkt, node)
				cr_assert_eq(vs_htable_bucket(&t, e->hash), &t.buckets[bkt]);
		}
	}
	cr_assert_eq(vs_htable_size(&t), 4096, "2 doubled 11 times");
	for (size_t i = 0; i < 3000; i++)
		cr_assert_eq(lookup(&t, v[i].name), &v[i]);
	vs_htable_destroy(&t);
	free(v);
}

Test(htable, check_finds_an_entry_out_of_place_a_broken_link_and_a_wrong_count)
{
	struct entry *v = make_entries(100);
	struct vs_htable t;
	struct hlist_head *home;
	u32 hash;

	cr_assert_eq(vs_htable_init(&t, 1, entry_hashfn), 0);
	cr_assert_eq(vs_htable_check(&t), 0, "an empty table is whole");
	for (size_t i = 0; i < 100; i++)
		vs_htable_add(&t, &v[i].node, v[i].hash);
	cr_assert_eq(vs_htable_check(&t), 0);

	/* an entry moved to the bucket after its own */
	hash = v[7].hash;
	hlist_del(&v[7].node);
	hlist_add_head(&v[7].node, vs_htable_bucket(&t, hash + 1));
	cr_assert_eq(vs_htable_check(&t), -EIO);
	hlist_del(&v[7].node);
	home = vs_htable_bucket(&t, hash);
	hlist_add_head(&v[7].node, home);
	cr_assert_eq(vs_htable_check(&t), 0);

	/* a back link that points elsewhere */
	v[7].node.pprev = &v[8].node.next;
	cr_assert_eq(vs_htable_check(&t), -EIO);
	v[7].node.pprev = &home->first;
	cr_assert_eq(vs_htable_check(&t), 0);

	/* a count that says more than the chains hold */
	t.count++;
	cr_assert_eq(vs_htable_check(&t), -EIO);
	t.count--;
	cr_assert_eq(vs_htable_check(&t), 0);
	vs_htable_destroy(&t);
	free(v);
}

Test(htable, sequential_names_give_short_chains)
{
	struct entry *v = make_entries(NR_ENTRIES);
	struct vs_htable t;
	size_t bkt, longest = 0, used = 0;

	cr_assert_eq(vs_htable_init(&t, 0, entry_hashfn), 0);
	for (size_t i = 0; i < NR_ENTRIES; i++)
		vs_htable_add(&t, &v[i].node, v[i].hash);

	for (bkt = 0; bkt < vs_htable_size(&t); bkt++) {
		struct hlist_node *pos;
		size_t len = 0;

		hlist_for_each(pos, &t.buckets[bkt])
			len++;
		if (len)
			used++;
		if (len > longest)
			longest = len;
	}
	/* A random function gives ~8 for 100k keys in 128k buckets. */
	cr_assert_leq(longest, 12, "longest chain %zu", longest);
	/* ... and fills 1 - e^(-100k/128k), about 54%, of the buckets. */
	cr_assert_gt(used, vs_htable_size(&t) / 2, "only %zu buckets used", used);
	vs_htable_destroy(&t);
	free(v);
}

Test(hash, bytes_hash_is_deterministic_and_depends_on_every_input)
{
	const char key[] = "worker-1234.example";
	char buf[64];
	u32 h = vs_hash_bytes(key, sizeof(key) - 1, 0);

	/* Fixed across runs: nothing is randomised. */
	cr_assert_eq(vs_hash_bytes(key, sizeof(key) - 1, 0), h);
	cr_assert_neq(vs_hash_bytes(key, sizeof(key) - 1, 1), h, "seed matters");
	cr_assert_neq(vs_hash_bytes(key, sizeof(key) - 2, 0), h, "length matters");
	cr_assert_neq(vs_hash_bytes("ab", 2, 0), vs_hash_bytes("ab\0", 3, 0),
		      "trailing zero bytes matter");

	/* Any alignment of the same bytes hashes alike. */
	for (size_t off = 0; off < 8; off++) {
		memcpy(buf + off, key, sizeof(key) - 1);
		cr_assert_eq(vs_hash_bytes(buf + off, sizeof(key) - 1, 0), h);
	}

	/* Flipping any one bit changes the hash. */
	memcpy(buf, key, sizeof(key) - 1);
	for (size_t i = 0; i < sizeof(key) - 1; i++) {
		for (int b = 0; b < 8; b++) {
			buf[i] ^= (char)(1 << b);
			cr_assert_neq(vs_hash_bytes(buf, sizeof(key) - 1, 0), h,
				      "byte %zu bit %d", i, b);
			buf[i] ^= (char)(1 << b);
		}
	}
	cr_assert_eq(vs_hash_bytes("", 0, 0), vs_hash_bytes(NULL, 0, 0));
}

Test(hash, one_bit_flips_change_about_half_the_output_bits)
{
	char buf[32] = "node-0042";
	u32 base = vs_hash_bytes(buf, 9, 7);
	unsigned int total = 0, flips = 0;

	for (int i = 0; i < 9; i++) {
		for (int b = 0; b < 8; b++) {
			buf[i] ^= (char)(1 << b);
			total += (unsigned int)__builtin_popcount(vs_hash_bytes(buf, 9, 7) ^ base);
			flips++;
			buf[i] ^= (char)(1 << b);
		}
	}
	/* 16 of 32 bits on average for a good mixer; allow a wide margin. */
	cr_assert_gt(total, flips * 13, "avalanche %u/%u", total, flips);
	cr_assert_lt(total, flips * 19, "avalanche %u/%u", total, flips);
}

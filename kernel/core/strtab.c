// SPDX-License-Identifier: Apache-2.0
/*
 * The string table: one shared, reference-counted copy of every name in use.
 * Each interned string is a single malloc'd block, a struct vs_istr header
 * followed by the bytes and their NUL; callers hold a pointer to the bytes
 * and the header is found again with container_of(), which is what makes
 * vs_str_len(), vs_str_hash(), vs_str_ref() and vs_str_put() O(1) without
 * a lookup. The headers are chained in a struct vs_htable keyed by the hash
 * of the bytes.
 *
 * Invariants: no two strings in a table have the same bytes, so pointer
 * equality is string equality; a string is in the table exactly as long as
 * its refcount is positive; tab->bytes is the sum of the block sizes.
 *
 * Reference counts saturate: a string that reaches U32_MAX references is
 * pinned, further gets and puts leave it alone, and only
 * vs_strtab_destroy() frees it. A leak is preferable to a use after free.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/strtab.h"

/* Any fixed value will do; fixed so that table order is the same every run. */
#define STRTAB_SEED		0x5eed1e55u
#define ISTR_REF_PINNED		UINT32_MAX

struct vs_istr {
	struct hlist_node node;
	u32 hash;
	u32 refcount;
	u32 len;		/* bytes of @str, without the NUL */
	char str[];
};

/*
 * The header of an interned string. Users see the bytes as const; the header
 * in front of them is the table's, hence the cast.
 */
static inline struct vs_istr *to_istr(const char *istr)
{
	return (struct vs_istr *)(void *)((char *)istr - offsetof(struct vs_istr, str));
}

static inline size_t istr_block_size(u32 len)
{
	return sizeof(struct vs_istr) + len + 1;
}

static u32 istr_hashfn(const struct hlist_node *node)
{
	return container_of(node, struct vs_istr, node)->hash;
}

int vs_strtab_init(struct vs_strtab *tab)
{
	tab->bytes = 0;
	tab->hits = 0;
	tab->misses = 0;
	return vs_htable_init(&tab->table, 0, istr_hashfn);
}

void vs_strtab_destroy(struct vs_strtab *tab)
{
	struct vs_istr *is;
	struct hlist_node *n;
	size_t bkt;

	for (bkt = 0; bkt < vs_htable_size(&tab->table); bkt++) {
		hlist_for_each_entry_safe(is, n, &tab->table.buckets[bkt], node)
			free(is);
	}
	vs_htable_destroy(&tab->table);
	tab->bytes = 0;
}

u32 vs_str_hash_bytes(const char *s, size_t len)
{
	return vs_hash_bytes(s, len, STRTAB_SEED);
}

static struct vs_istr *strtab_lookup(const struct vs_strtab *tab, const char *s,
				     size_t len, u32 hash)
{
	struct vs_istr *is;

	hlist_for_each_entry(is, vs_htable_bucket(&tab->table, hash), node) {
		if (is->hash == hash && is->len == len && !memcmp(is->str, s, len))
			return is;
	}
	return NULL;
}

static inline void istr_get(struct vs_istr *is)
{
	if (is->refcount != ISTR_REF_PINNED)
		is->refcount++;
}

const char *vs_str_get(struct vs_strtab *tab, const char *s, size_t len)
{
	struct vs_istr *is;
	u32 hash;

	/* The length is kept in 32 bits, and the block must not overflow. */
	if (unlikely(len >= UINT32_MAX))
		return NULL;

	hash = vs_str_hash_bytes(s, len);
	is = strtab_lookup(tab, s, len, hash);
	if (is) {
		istr_get(is);
		tab->hits++;
		return is->str;
	}

	is = malloc(istr_block_size((u32)len));
	if (!is)
		return NULL;
	is->hash = hash;
	is->refcount = 1;
	is->len = (u32)len;
	memcpy(is->str, s, len);
	is->str[len] = '\0';

	vs_htable_add(&tab->table, &is->node, hash);
	tab->bytes += istr_block_size(is->len);
	tab->misses++;
	return is->str;
}

const char *vs_str_find(const struct vs_strtab *tab, const char *s, size_t len)
{
	struct vs_istr *is;

	if (unlikely(len >= UINT32_MAX))
		return NULL;
	is = strtab_lookup(tab, s, len, vs_str_hash_bytes(s, len));
	return is ? is->str : NULL;
}

const char *vs_str_ref(const char *istr)
{
	if (istr)
		istr_get(to_istr(istr));
	return istr;
}

void vs_str_put(struct vs_strtab *tab, const char *istr)
{
	struct vs_istr *is;

	if (!istr)
		return;
	is = to_istr(istr);
	if (is->refcount == ISTR_REF_PINNED || --is->refcount)
		return;

	vs_htable_del(&tab->table, &is->node);
	tab->bytes -= istr_block_size(is->len);
	free(is);
}

size_t vs_str_len(const char *istr)
{
	return to_istr(istr)->len;
}

u32 vs_str_hash(const char *istr)
{
	return to_istr(istr)->hash;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * String interning.
 *
 * Names that repeat across objects (namespaces, label keys and values, queue
 * and resource names, taint keys) are stored once. vs_str_get() returns the
 * one shared copy of a string, so two interned strings are equal exactly when
 * their pointers are: label matching and name indexes compare pointers.
 *
 * Interned strings are reference counted: every vs_str_get() or vs_str_ref()
 * is matched by a vs_str_put(), and the last put frees the string. The hash
 * and length are kept with the string, so hashing an interned name is free.
 */
#ifndef VS_CORE_STRTAB_H
#define VS_CORE_STRTAB_H

#include <stddef.h>
#include "core/compiler.h"
#include "core/htable.h"

struct vs_strtab {
	struct vs_htable table;
	size_t bytes;		/* bytes held by the strings and their headers */
	u64 hits;		/* vs_str_get() calls that found the string */
	u64 misses;		/* ... that had to add it */
};

int vs_strtab_init(struct vs_strtab *tab);

/* Free every string still held (their users must be gone). */
void vs_strtab_destroy(struct vs_strtab *tab);

/*
 * The interned copy of the @len bytes at @s (which need not be terminated),
 * with a reference taken; NULL when memory is exhausted. The copy is NUL
 * terminated. Strings may contain any byte but NUL.
 */
const char *vs_str_get(struct vs_strtab *tab, const char *s, size_t len);

static inline const char *vs_str_get_cstr(struct vs_strtab *tab, const char *s)
{
	return vs_str_get(tab, s, __builtin_strlen(s));
}

/* The interned copy if there is one, with no reference taken; else NULL. */
const char *vs_str_find(const struct vs_strtab *tab, const char *s, size_t len);

/* Take another reference on an interned string; returns it. */
const char *vs_str_ref(const char *istr);

/* Drop a reference; the last one frees the string. NULL is ignored. */
void vs_str_put(struct vs_strtab *tab, const char *istr);

/* Length and hash of an interned string, in O(1). */
size_t vs_str_len(const char *istr);
u32 vs_str_hash(const char *istr);

/* The hash vs_str_hash() would give the same bytes. */
u32 vs_str_hash_bytes(const char *s, size_t len);

static inline size_t vs_strtab_count(const struct vs_strtab *tab)
{
	return vs_htable_count(&tab->table);
}

#endif /* VS_CORE_STRTAB_H */

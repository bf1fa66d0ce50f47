// SPDX-License-Identifier: Apache-2.0
/*
 * vs_hash_bytes(): the byte-string hash behind every name table of the core.
 * It reads the input eight bytes at a time (memcpy, so any alignment is
 * fine), folds each word into the state with a 64x64->128 multiply whose two
 * halves are xored together, and ends with the 64-bit finaliser of
 * vs_hash_u64(). Words are read little-endian on every host, so a given input
 * and seed hash to the same value on every run and every machine: nothing
 * here is randomised, and tables built from the same names iterate alike.
 */
#include <string.h>

#include "core/hash.h"

/* Odd constants with well-mixed bits (from the golden ratio and splitmix64). */
#define HASH_K0	0x9e3779b97f4a7c15ULL
#define HASH_K1	0xbf58476d1ce4e5b9ULL
#define HASH_K2	0x94d049bb133111ebULL

static inline u64 load_le64(const unsigned char *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* The last 1..7 bytes, little-endian, zero-extended. */
static inline u64 load_le_tail(const unsigned char *p, size_t len)
{
	u64 v = 0;
	size_t i;

	for (i = 0; i < len; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

/*
 * Multiply and fold: the high half of the product carries the influence of
 * the low input bits upwards, the low half of the high ones downwards, so one
 * step already spreads every input bit over the whole word.
 */
static inline u64 fold_mul(u64 a, u64 b)
{
	unsigned __int128 r = (unsigned __int128)a * b;

	return (u64)r ^ (u64)(r >> 64);
}

u32 vs_hash_bytes(const void *data, size_t len, u32 seed)
{
	const unsigned char *p = data;
	/*
	 * The length goes into the initial state: the tail is zero-padded, so
	 * without it "ab" and "ab\0" would collide.
	 */
	u64 h = ((u64)seed << 32 | seed) ^ HASH_K0 ^ ((u64)len * HASH_K1);

	while (len >= 8) {
		h = fold_mul(h ^ load_le64(p), HASH_K1);
		p += 8;
		len -= 8;
	}
	if (len)
		h = fold_mul(h ^ load_le_tail(p, len), HASH_K2);
	return vs_hash_u64(h);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hash functions for the core's tables: strings and pointers to 32 bits.
 * Not cryptographic; chosen for speed and an even spread of short keys
 * (names such as "worker-1234").
 */
#ifndef VS_CORE_HASH_H
#define VS_CORE_HASH_H

#include <stddef.h>
#include "core/compiler.h"

/* A 32-bit hash of @len bytes at @data. */
u32 vs_hash_bytes(const void *data, size_t len, u32 seed);

static inline u32 vs_hash_u64(u64 v)
{
	/* The finaliser of a 64-bit mixer: every input bit affects every output bit. */
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	v *= 0xc4ceb9fe1a85ec53ULL;
	v ^= v >> 33;
	return (u32)v;
}

static inline u32 vs_hash_ptr(const void *p)
{
	return vs_hash_u64((u64)(uintptr_t)p);
}

/* Combine two hashes (e.g. namespace and name) into one. */
static inline u32 vs_hash_combine(u32 a, u32 b)
{
	return vs_hash_u64(((u64)a << 32) | b);
}

#endif /* VS_CORE_HASH_H */

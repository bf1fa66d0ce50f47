/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The session arena: bump allocation for per-cycle scratch memory.
 *
 * Everything a scheduling session computes for itself (plugin state, job
 * worksheets, score arrays) comes from an arena and is dropped at once when
 * the session closes: vs_arena_reset() rewinds to the first chunk in O(1),
 * keeping every chunk for the next session, so a steady-state cycle
 * allocates nothing from the general heap. Chunks come from jemalloc.
 *
 * Memory from an arena is never freed one object at a time. Under
 * AddressSanitizer the unused tail of each chunk, and all of it after a
 * reset, is poisoned, so reading scratch memory of a closed session is
 * reported.
 */
#ifndef VS_CORE_ARENA_H
#define VS_CORE_ARENA_H

#include <stdalign.h>
#include <stddef.h>
#include "core/compiler.h"
#include "core/list.h"

#define VS_ARENA_ALIGN		16
#define VS_ARENA_CHUNK_DEFAULT	(256 * 1024)

struct vs_arena_chunk;

struct vs_arena {
	/*
	 * Aligned as a chunk is: the list walks form a chunk pointer from the
	 * head itself (never dereferenced), and UBSan checks that pointer's
	 * alignment wherever the arena is embedded.
	 */
	alignas(VS_ARENA_ALIGN) struct list_head chunks;	/* every chunk, in the order made */
	struct vs_arena_chunk *cur;	/* the chunk being carved */
	char *pos, *end;		/* free space of @cur */
	size_t chunk_size;

	size_t used;			/* bytes handed out since the last reset */
	size_t high_water;		/* the largest @used ever seen */
	size_t reserved;		/* bytes of all chunks */
	size_t nr_chunks;
	u64 resets;
};

/* @chunk_size 0 takes VS_ARENA_CHUNK_DEFAULT. Allocates nothing yet. */
void vs_arena_init(struct vs_arena *arena, size_t chunk_size);

/* Free every chunk. */
void vs_arena_destroy(struct vs_arena *arena);

/* @size bytes aligned to VS_ARENA_ALIGN, or NULL when memory is exhausted. */
void *vs_arena_alloc(struct vs_arena *arena, size_t size);

/* @size bytes of zeroes. */
void *vs_arena_zalloc(struct vs_arena *arena, size_t size);

/* An array of @n elements of @size, zeroed; NULL on overflow or exhaustion. */
void *vs_arena_calloc(struct vs_arena *arena, size_t n, size_t size);

/* A copy of the string @s in the arena. */
char *vs_arena_strdup(struct vs_arena *arena, const char *s);

/* Forget every allocation, keep the chunks: O(1). */
void vs_arena_reset(struct vs_arena *arena);

#endif /* VS_CORE_ARENA_H */

// SPDX-License-Identifier: Apache-2.0
/*
 * struct vs_arena: bump allocation from a list of chunks, and its reset.
 *
 * The chunks stay on arena->chunks in the order they were made, and
 * allocation walks that list forwards: it carves the current chunk until a
 * request does not fit, then moves on to the next existing chunk that can
 * hold the request, and only when there is none allocates a new chunk at the
 * tail. A request larger than chunk_size gets a chunk of exactly its own size,
 * which then lives on the list like any other. vs_arena_reset() points the
 * arena back at the first chunk, so a session that repeats the allocations of
 * the previous one reuses the same chunks in the same order and never calls
 * malloc: steady state costs nothing from the heap.
 *
 * Invariants: chunks before @cur are spent until the next reset (what is left
 * in them is wasted, never handed out twice); chunks after @cur are untouched
 * since the last reset; [pos, end) is the free part of @cur. @used counts the
 * bytes handed out, each request rounded up to VS_ARENA_ALIGN; @reserved
 * counts whole chunks, headers included.
 *
 * Under AddressSanitizer a chunk is poisoned when made, each allocation is
 * unpoisoned over the size asked for (so running past it into the rounding
 * is reported), and a reset poisons the chunks used since the previous reset
 * again. That makes a reset O(chunks used) in sanitizer builds only.
 */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define arena_poison(addr, size)	ASAN_POISON_MEMORY_REGION(addr, size)
#define arena_unpoison(addr, size)	ASAN_UNPOISON_MEMORY_REGION(addr, size)
#else
#define arena_poison(addr, size)	((void)(addr), (void)(size))
#define arena_unpoison(addr, size)	((void)(addr), (void)(size))
#endif

struct vs_arena_chunk {
	struct list_head node;		/* on arena->chunks */
	size_t size;			/* bytes of @data */
	alignas(VS_ARENA_ALIGN) char data[];
};

/* malloc() must give chunks at least the alignment the arena promises. */
BUILD_BUG_ON(VS_ARENA_ALIGN > alignof(max_align_t));
BUILD_BUG_ON(offsetof(struct vs_arena_chunk, data) % VS_ARENA_ALIGN);

static inline size_t chunk_bytes(const struct vs_arena_chunk *c)
{
	return sizeof(*c) + c->size;
}

static void arena_use_chunk(struct vs_arena *arena, struct vs_arena_chunk *c)
{
	arena->cur = c;
	arena->pos = c->data;
	arena->end = c->data + c->size;
}

void vs_arena_init(struct vs_arena *arena, size_t chunk_size)
{
	if (!chunk_size)
		chunk_size = VS_ARENA_CHUNK_DEFAULT;
	INIT_LIST_HEAD(&arena->chunks);
	arena->cur = NULL;
	arena->pos = NULL;
	arena->end = NULL;
	arena->chunk_size = ALIGN_UP(chunk_size, (size_t)VS_ARENA_ALIGN);
	arena->used = 0;
	arena->high_water = 0;
	arena->reserved = 0;
	arena->nr_chunks = 0;
	arena->resets = 0;
}

void vs_arena_destroy(struct vs_arena *arena)
{
	struct vs_arena_chunk *c, *n;

	list_for_each_entry_safe(c, n, &arena->chunks, node) {
		arena_unpoison(c->data, c->size);
		free(c);
	}
	/* Leave an empty arena behind: using it again is harmless. */
	vs_arena_init(arena, arena->chunk_size);
}

static struct vs_arena_chunk *arena_new_chunk(struct vs_arena *arena, size_t size)
{
	struct vs_arena_chunk *c;

	if (size > SIZE_MAX - sizeof(*c))
		return NULL;
	c = malloc(sizeof(*c) + size);
	if (!c)
		return NULL;
	c->size = size;
	arena_poison(c->data, size);
	list_add_tail(&c->node, &arena->chunks);
	arena->reserved += chunk_bytes(c);
	arena->nr_chunks++;
	return c;
}

/*
 * @size (already rounded) does not fit in what is left of @cur: move on to
 * the next chunk that can hold it, making one if none can.
 */
static __cold bool arena_refill(struct vs_arena *arena, size_t size)
{
	struct vs_arena_chunk *c;

	c = arena->cur ? list_next_entry(arena->cur, node) :
			 list_first_entry(&arena->chunks, struct vs_arena_chunk, node);
	for (; !list_entry_is_head(c, &arena->chunks, node); c = list_next_entry(c, node)) {
		if (c->size >= size) {
			arena_use_chunk(arena, c);
			return true;
		}
	}

	c = arena_new_chunk(arena, size > arena->chunk_size ? size : arena->chunk_size);
	if (!c)
		return false;
	arena_use_chunk(arena, c);
	return true;
}

void *vs_arena_alloc(struct vs_arena *arena, size_t size)
{
	size_t rounded;
	void *p;

	/* Size 0 still gets a distinct pointer: NULL means failure. */
	if (unlikely(size > SIZE_MAX - VS_ARENA_ALIGN))
		return NULL;
	rounded = size ? ALIGN_UP(size, (size_t)VS_ARENA_ALIGN) : VS_ARENA_ALIGN;

	if (unlikely(rounded > (size_t)(arena->end - arena->pos)) &&
	    !arena_refill(arena, rounded))
		return NULL;

	p = arena->pos;
	arena->pos += rounded;
	arena_unpoison(p, size);
	arena->used += rounded;
	if (arena->used > arena->high_water)
		arena->high_water = arena->used;
	return p;
}

void *vs_arena_zalloc(struct vs_arena *arena, size_t size)
{
	void *p = vs_arena_alloc(arena, size);

	if (p)
		memset(p, 0, size);
	return p;
}

void *vs_arena_calloc(struct vs_arena *arena, size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return vs_arena_zalloc(arena, bytes);
}

char *vs_arena_strdup(struct vs_arena *arena, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = vs_arena_alloc(arena, len);

	if (p)
		memcpy(p, s, len);
	return p;
}

void vs_arena_reset(struct vs_arena *arena)
{
#if defined(__SANITIZE_ADDRESS__)
	struct vs_arena_chunk *c;

	/* Chunks after @cur were not touched since they were last poisoned. */
	if (arena->cur) {
		list_for_each_entry(c, &arena->chunks, node) {
			arena_poison(c->data, c->size);
			if (c == arena->cur)
				break;
		}
	}
#endif
	if (list_empty(&arena->chunks)) {
		arena->cur = NULL;
		arena->pos = NULL;
		arena->end = NULL;
	} else {
		arena_use_chunk(arena, list_first_entry(&arena->chunks,
							struct vs_arena_chunk, node));
	}
	arena->used = 0;
	arena->resets++;
}

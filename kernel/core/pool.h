/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Object pools, in the spirit of the kernel's kmem_cache.
 *
 * A pool hands out fixed-size objects carved from slabs: power-of-two sized,
 * size-aligned blocks from the general allocator (jemalloc), so that the slab
 * of any object is found by masking its address. Each slab keeps its own free
 * list; slabs with free objects sit on the pool's partial list, full ones on
 * the full list, and at most one empty slab is kept in reserve, the rest are
 * given back. An optional constructor runs on each object when its slab is
 * created (as kmem_cache ctors do): objects come back from vs_pool_alloc()
 * as they were freed, or fresh from the ctor; vs_pool_zalloc() clears them.
 *
 * Every pool is on a process-wide list so that "vsctl stats pools" can print
 * them as /proc/slabinfo does. Under AddressSanitizer, free objects are
 * poisoned so that a use after vs_pool_free() is reported.
 */
#ifndef VS_CORE_POOL_H
#define VS_CORE_POOL_H

#include <stddef.h>
#include "core/compiler.h"
#include "core/list.h"

struct vs_pool_stats {
	size_t active_objs;	/* allocated and not freed */
	size_t total_objs;	/* capacity of all slabs */
	size_t objs_per_slab;
	size_t obj_size;	/* after alignment */
	size_t nr_slabs;
	size_t slab_size;	/* bytes per slab */
	size_t bytes;		/* nr_slabs * slab_size */
	u64 allocs;		/* vs_pool_alloc() calls that succeeded */
	u64 frees;
};

struct vs_pool {
	const char *name;
	size_t obj_size;
	size_t align;
	size_t slab_size;
	unsigned int objs_per_slab;
	void (*ctor)(void *obj);

	struct list_head partial;	/* slabs with some objects free */
	struct list_head full;		/* slabs with no object free */
	struct list_head empty;		/* at most one slab kept in reserve */

	size_t active_objs;
	size_t nr_slabs;
	u64 allocs;
	u64 frees;

	struct list_head list;		/* on the list of all pools */
};

/*
 * Set up @pool for objects of @size bytes aligned to @align (0: the natural
 * alignment of the largest scalar type). @name must outlive the pool.
 * Returns 0 or -EINVAL for a size or alignment that cannot be served.
 */
int vs_pool_init(struct vs_pool *pool, const char *name, size_t size,
		 size_t align, void (*ctor)(void *obj));

/*
 * Release every slab. Objects still allocated are lost to their users: a
 * pool is destroyed after everything in it was freed (or with its owner).
 */
void vs_pool_destroy(struct vs_pool *pool);

/* An object, or NULL when memory is exhausted. */
void *vs_pool_alloc(struct vs_pool *pool);

/* An object filled with zeroes, or NULL. */
void *vs_pool_zalloc(struct vs_pool *pool);

/* Give @obj back to @pool, which it must have come from. NULL is ignored. */
void vs_pool_free(struct vs_pool *pool, void *obj);

void vs_pool_get_stats(const struct vs_pool *pool, struct vs_pool_stats *st);

/* Call @fn for every live pool, in the order they were created. */
void vs_pools_for_each(void (*fn)(const struct vs_pool *pool, void *arg), void *arg);

#endif /* VS_CORE_POOL_H */

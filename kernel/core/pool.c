// SPDX-License-Identifier: Apache-2.0
/*
 * Object pools (struct vs_pool): slabs, their free lists, and the list of
 * every pool in the process. A slab is one power-of-two block, aligned to its
 * own size, that starts with a struct vs_slab header followed by
 * objs_per_slab slots of pool->obj_size bytes; masking an object's address
 * with ~(slab_size - 1) gives its slab, so freeing needs no lookup.
 *
 * A free slot holds the link to the next free slot of its slab in one
 * pointer-sized word. Without a constructor that word is the first word of
 * the object (its contents are the user's garbage anyway). With one, the
 * object must come back from vs_pool_alloc() as the ctor or the last user
 * left it, so, as SLUB does, the link lives in an extra word after the object
 * and the object itself is never written by the pool.
 *
 * Invariants, for every slab s of a pool p:
 *	s->inuse == objs_per_slab	<=> s is on p->full
 *	0 < s->inuse < objs_per_slab	<=> s is on p->partial
 *	s->inuse == 0			<=> s is on p->empty, which holds at most one
 *	p->active_objs is the sum of s->inuse
 *
 * Under AddressSanitizer every free slot, the link word included, is
 * poisoned; the pool unpoisons the link word only for the instant it reads or
 * writes it. An allocated object is unpoisoned over its usable size only, so
 * an overrun into a ctor pool's link word is reported too, and freeing an
 * object whose first byte is poisoned (already free) aborts.
 *
 * Pools are not locked: the core is single-threaded.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define pool_poison(addr, size)		ASAN_POISON_MEMORY_REGION(addr, size)
#define pool_unpoison(addr, size)	ASAN_UNPOISON_MEMORY_REGION(addr, size)
#define pool_is_poisoned(addr)		__asan_address_is_poisoned(addr)
#else
#define pool_poison(addr, size)		((void)(addr), (void)(size))
#define pool_unpoison(addr, size)	((void)(addr), (void)(size))
#define pool_is_poisoned(addr)		((void)(addr), 0)
#endif

/* Slabs are at least this big, so that small objects cost few allocations. */
#define POOL_SLAB_MIN		(16 * 1024)
/* ... and hold at least this many objects, so that big ones waste little. */
#define POOL_MIN_OBJS		8
/* A pool whose slab would exceed this serves objects too big to pool. */
#define POOL_SLAB_MAX		((size_t)64 * 1024 * 1024)

struct vs_slab {
	struct list_head node;		/* on pool->partial, full or empty */
	void *freelist;			/* first free slot, NULL when full */
	unsigned int inuse;		/* objects handed out */
	struct vs_pool *pool;		/* for the sanity check in vs_pool_free() */
};

/* All pools, oldest first. */
static LIST_HEAD(vs_pools);

static __cold __noreturn void pool_bug(const struct vs_pool *pool, const void *obj,
				       const char *what)
{
	fprintf(stderr, "vs_pool %s: %s (object %p)\n", pool->name, what, obj);
	abort();
}

/* Where the slabs' first slot starts: the header, rounded to the alignment. */
static inline size_t slab_first_off(const struct vs_pool *pool)
{
	return ALIGN_UP(sizeof(struct vs_slab), pool->align);
}

/* Offset of the free-list link in a slot (see the comment at the top). */
static inline size_t slot_link_off(const struct vs_pool *pool)
{
	return pool->ctor ? pool->obj_size - sizeof(void *) : 0;
}

/* The bytes of a slot that belong to the user. */
static inline size_t slot_usable(const struct vs_pool *pool)
{
	return pool->ctor ? pool->obj_size - sizeof(void *) : pool->obj_size;
}

static inline void *slab_first_obj(const struct vs_pool *pool, struct vs_slab *slab)
{
	return (char *)slab + slab_first_off(pool);
}

static inline struct vs_slab *obj_to_slab(const struct vs_pool *pool, const void *obj)
{
	return (struct vs_slab *)((uintptr_t)obj & ~((uintptr_t)pool->slab_size - 1));
}

static inline void *slot_get_link(const struct vs_pool *pool, void *obj)
{
	void **link = (void **)((char *)obj + slot_link_off(pool));
	void *next;

	pool_unpoison(link, sizeof(*link));
	next = *link;
	pool_poison(link, sizeof(*link));
	return next;
}

static inline void slot_set_link(const struct vs_pool *pool, void *obj, void *next)
{
	void **link = (void **)((char *)obj + slot_link_off(pool));

	pool_unpoison(link, sizeof(*link));
	*link = next;
	pool_poison(link, sizeof(*link));
}

static inline size_t next_pow2(size_t v)
{
	size_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

int vs_pool_init(struct vs_pool *pool, const char *name, size_t size,
		 size_t align, void (*ctor)(void *obj))
{
	size_t stride, first, slab_size;

	if (!align)
		align = alignof(max_align_t);
	if (!size || align & (align - 1))
		return -EINVAL;
	/* The free-list link must be storable in every slot. */
	if (align < sizeof(void *))
		align = sizeof(void *);
	/* Checked before any arithmetic, so nothing below can overflow. */
	if (size > POOL_SLAB_MAX / POOL_MIN_OBJS || align > POOL_SLAB_MAX / POOL_MIN_OBJS)
		return -EINVAL;

	stride = ALIGN_UP(size, align);
	if (ctor)
		stride = ALIGN_UP(ALIGN_UP(size, sizeof(void *)) + sizeof(void *), align);
	first = ALIGN_UP(sizeof(struct vs_slab), align);
	slab_size = next_pow2(first + POOL_MIN_OBJS * stride);
	if (slab_size < POOL_SLAB_MIN)
		slab_size = POOL_SLAB_MIN;
	if (slab_size > POOL_SLAB_MAX)
		return -EINVAL;

	pool->name = name;
	pool->obj_size = stride;
	pool->align = align;
	pool->slab_size = slab_size;
	pool->objs_per_slab = (unsigned int)((slab_size - first) / stride);
	pool->ctor = ctor;
	INIT_LIST_HEAD(&pool->partial);
	INIT_LIST_HEAD(&pool->full);
	INIT_LIST_HEAD(&pool->empty);
	pool->active_objs = 0;
	pool->nr_slabs = 0;
	pool->allocs = 0;
	pool->frees = 0;
	list_add_tail(&pool->list, &vs_pools);
	return 0;
}

/*
 * A new slab, every slot constructed and free, on no list. The free list runs
 * in address order so that a fresh slab hands out ascending addresses.
 */
static struct vs_slab *slab_create(struct vs_pool *pool)
{
	struct vs_slab *slab;
	char *first, *obj;
	unsigned int i;

	slab = aligned_alloc(pool->slab_size, pool->slab_size);
	if (!slab)
		return NULL;
	slab->inuse = 0;
	slab->pool = pool;
	first = slab_first_obj(pool, slab);
	if (pool->ctor) {
		for (i = 0, obj = first; i < pool->objs_per_slab; i++, obj += pool->obj_size)
			pool->ctor(obj);
	}

	/* The header stays addressable; the slots and the unused tail do not. */
	pool_poison(first, pool->slab_size - slab_first_off(pool));
	slab->freelist = first;
	for (i = 0, obj = first; i < pool->objs_per_slab; i++, obj += pool->obj_size)
		slot_set_link(pool, obj, i + 1 < pool->objs_per_slab ?
			      obj + pool->obj_size : NULL);
	pool->nr_slabs++;
	return slab;
}

static void slab_destroy(struct vs_pool *pool, struct vs_slab *slab)
{
	/* The allocator may hand this memory to code that knows no poison. */
	pool_unpoison(slab, pool->slab_size);
	free(slab);
	pool->nr_slabs--;
}

void vs_pool_destroy(struct vs_pool *pool)
{
	struct list_head *lists[] = { &pool->partial, &pool->full, &pool->empty };
	struct vs_slab *slab, *n;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry_safe(slab, n, lists[i], node)
			slab_destroy(pool, slab);
		INIT_LIST_HEAD(lists[i]);
	}
	pool->active_objs = 0;
	list_del_init(&pool->list);
}

void *vs_pool_alloc(struct vs_pool *pool)
{
	struct vs_slab *slab;
	void *obj;

	if (likely(!list_empty(&pool->partial))) {
		slab = list_first_entry(&pool->partial, struct vs_slab, node);
	} else if (!list_empty(&pool->empty)) {
		slab = list_first_entry(&pool->empty, struct vs_slab, node);
		list_move(&slab->node, &pool->partial);
	} else {
		slab = slab_create(pool);
		if (!slab)
			return NULL;
		list_add(&slab->node, &pool->partial);
	}

	obj = slab->freelist;
	slab->freelist = slot_get_link(pool, obj);
	pool_unpoison(obj, slot_usable(pool));
	if (++slab->inuse == pool->objs_per_slab)
		list_move(&slab->node, &pool->full);
	pool->active_objs++;
	pool->allocs++;
	return obj;
}

void *vs_pool_zalloc(struct vs_pool *pool)
{
	void *obj = vs_pool_alloc(pool);

	if (obj)
		memset(obj, 0, slot_usable(pool));
	return obj;
}

void vs_pool_free(struct vs_pool *pool, void *obj)
{
	struct vs_slab *slab;
	size_t off;

	if (!obj)
		return;
	slab = obj_to_slab(pool, obj);
	off = (size_t)((char *)obj - (char *)slab);
	/* Cheap checks that catch a pointer from elsewhere before it corrupts us. */
	if (unlikely(slab->pool != pool || off < slab_first_off(pool) ||
		     (off - slab_first_off(pool)) % pool->obj_size))
		pool_bug(pool, obj, "freeing an object that is not from this pool");
	if (unlikely(pool_is_poisoned(obj)))
		pool_bug(pool, obj, "double free");

	pool_poison(obj, pool->obj_size);
	slot_set_link(pool, obj, slab->freelist);
	slab->freelist = obj;

	if (slab->inuse-- == pool->objs_per_slab) {
		/* Was full. At the head: the next allocation reuses hot memory. */
		list_move(&slab->node, &pool->partial);
	}
	if (!slab->inuse) {
		if (list_empty(&pool->empty))
			list_move(&slab->node, &pool->empty);
		else {
			list_del(&slab->node);
			slab_destroy(pool, slab);
		}
	}
	pool->active_objs--;
	pool->frees++;
}

void vs_pool_get_stats(const struct vs_pool *pool, struct vs_pool_stats *st)
{
	st->active_objs = pool->active_objs;
	st->total_objs = pool->nr_slabs * pool->objs_per_slab;
	st->objs_per_slab = pool->objs_per_slab;
	st->obj_size = pool->obj_size;
	st->nr_slabs = pool->nr_slabs;
	st->slab_size = pool->slab_size;
	st->bytes = pool->nr_slabs * pool->slab_size;
	st->allocs = pool->allocs;
	st->frees = pool->frees;
}

void vs_pools_for_each(void (*fn)(const struct vs_pool *pool, void *arg), void *arg)
{
	struct vs_pool *pool;

	list_for_each_entry(pool, &vs_pools, list)
		fn(pool, arg);
}

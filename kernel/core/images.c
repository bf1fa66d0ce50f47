// SPDX-License-Identifier: Apache-2.0
/*
 * Container images on nodes (images.h): the cluster's table of names and
 * the summaries each node took of its own, as Volcano's cache makes them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/images.h"
#include "core/strtab.h"

struct image_state {
	struct hlist_node hnode;
	const char *name;		/* interned, a reference held */
	s64 size;			/* the first node's */
	u32 nr_nodes;
};

static u32 state_hashfn(const struct hlist_node *n)
{
	return vs_str_hash(hlist_entry(n, struct image_state, hnode)->name);
}

int vs_image_table_init(struct vs_image_table *tab)
{
	return vs_htable_init(&tab->states, 6, state_hashfn);
}

size_t vs_image_table_count(const struct vs_image_table *tab)
{
	return vs_htable_count(&tab->states);
}

void vs_image_table_destroy(struct vs_image_table *tab)
{
	vs_htable_destroy(&tab->states);
}

static struct image_state *state_find(const struct vs_image_table *tab, const char *name)
{
	struct image_state *s;

	hlist_for_each_entry(s, vs_htable_bucket(&tab->states, vs_str_hash(name)), hnode)
		if (s->name == name)
			return s;
	return NULL;
}

/* Count the node in @name's state, made with @size when no node had it. */
static struct image_state *state_get(struct vs_image_table *tab, const char *name, s64 size)
{
	struct image_state *s = state_find(tab, name);

	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return NULL;
		s->name = vs_str_ref(name);
		s->size = size;
		vs_htable_add(&tab->states, &s->hnode, vs_str_hash(name));
	}
	s->nr_nodes++;
	return s;
}

/* Uncount the node in @name's state, which it is in. */
static void state_put(struct vs_image_table *tab, struct vs_strtab *strs, const char *name)
{
	struct image_state *s = state_find(tab, name);

	if (!s || --s->nr_nodes)
		return;
	vs_htable_del(&tab->states, &s->hnode);
	vs_str_put(strs, s->name);
	free(s);
}

static int by_name(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct vs_node_image *)a)->name;
	uintptr_t y = (uintptr_t)((const struct vs_node_image *)b)->name;

	return x < y ? -1 : x > y;
}

void vs_node_images_free(struct vs_strtab *strs, struct vs_node_images *imgs)
{
	if (!imgs)
		return;
	for (u32 i = 0; i < imgs->nr; i++)
		vs_str_put(strs, imgs->v[i].name);
	free(imgs);
}

static bool listed(const struct vs_node_images *imgs, const char *name)
{
	for (u32 i = 0; i < imgs->nr; i++)
		if (imgs->v[i].name == name)
			return true;
	return false;
}

int vs_node_images_new(struct vs_image_table *tab, struct vs_strtab *strs,
		       const struct vs_image_spec *specs, u32 nr, struct vs_node_images **out,
		       struct vs_err *err)
{
	struct vs_node_images *imgs;
	size_t total = 0;
	u32 registered = 0;

	*out = NULL;
	for (u32 i = 0; i < nr; i++) {
		if (specs[i].size < 0)
			return vs_err_set(err, EINVAL, "images[%u]: sizeBytes %lld is negative", i,
					  (long long)specs[i].size);
		for (u32 j = 0; j < specs[i].nr_names; j++)
			if (!specs[i].names[j] || !*specs[i].names[j])
				return vs_err_set(err, EINVAL, "images[%u].names[%u]: empty", i, j);
		total += specs[i].nr_names;
	}
	if (!total)
		return 0;
	imgs = calloc(1, sizeof(*imgs) + total * sizeof(imgs->v[0]));
	if (!imgs)
		return vs_err_set(err, ENOMEM, "out of memory for images");
	/* each name once, with the first size given for it, as Volcano's summary */
	for (u32 i = 0; i < nr; i++) {
		for (u32 j = 0; j < specs[i].nr_names; j++) {
			const char *name = vs_str_get_cstr(strs, specs[i].names[j]);

			if (!name)
				goto nomem;
			if (listed(imgs, name)) {
				vs_str_put(strs, name);
				continue;
			}
			imgs->v[imgs->nr++] = (struct vs_node_image){ .name = name,
								      .size = specs[i].size };
		}
	}
	for (; registered < imgs->nr; registered++) {
		struct vs_node_image *v = &imgs->v[registered];
		struct image_state *s = state_get(tab, v->name, v->size);

		if (!s)
			goto nomem;
		v->size = s->size;
		v->num_nodes = s->nr_nodes;
	}
	qsort(imgs->v, imgs->nr, sizeof(imgs->v[0]), by_name);
	*out = imgs;
	return 0;

nomem:
	while (registered--)
		state_put(tab, strs, imgs->v[registered].name);
	vs_node_images_free(strs, imgs);
	return vs_err_set(err, ENOMEM, "out of memory for images");
}

void vs_node_images_release(struct vs_image_table *tab, struct vs_strtab *strs,
			    const struct vs_node_images *imgs)
{
	for (u32 i = 0; imgs && i < imgs->nr; i++)
		state_put(tab, strs, imgs->v[i].name);
}

int vs_node_images_restore(struct vs_image_table *tab, struct vs_strtab *strs,
			   const struct vs_node_images *imgs)
{
	for (u32 i = 0; imgs && i < imgs->nr; i++) {
		if (state_get(tab, imgs->v[i].name, imgs->v[i].size))
			continue;
		while (i--)
			state_put(tab, strs, imgs->v[i].name);
		return -ENOMEM;
	}
	return 0;
}

const struct vs_node_image *vs_node_image_find(const struct vs_node_images *imgs,
					       const char *name)
{
	struct vs_node_image key = { .name = name };

	if (!imgs || !name)
		return NULL;
	return bsearch(&key, imgs->v, imgs->nr, sizeof(imgs->v[0]), by_name);
}

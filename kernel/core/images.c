// SPDX-License-Identifier: Apache-2.0
/*
 * Container images on nodes (images.h): the cluster's table of names and
 * the summaries each node took of its own, as Volcano's cache makes them.
 *
 * A state counts the nodes reporting its name now (nr_nodes) and is held
 * by the summaries that point at it (refs): those of live nodes, and those
 * a transaction keeps for an undo. A name has at most one live state (one
 * with nodes); one whose nodes all went stays, dead, while a summary holds
 * it, so that an undo counts the node in it again without allocating.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/images.h"
#include "core/strtab.h"

struct vs_image_state {
	struct hlist_node hnode;
	const char *name;		/* interned, a reference held */
	s64 size;			/* the first node's */
	u32 nr_nodes;			/* reporting it now */
	u32 refs;			/* summaries pointing here */
	u32 audit;			/* live nodes' summaries seen by the audit */
};

static u32 state_hashfn(const struct hlist_node *n)
{
	return vs_str_hash(hlist_entry(n, struct vs_image_state, hnode)->name);
}

int vs_image_table_init(struct vs_image_table *tab)
{
	return vs_htable_init(&tab->states, 6, state_hashfn);
}

size_t vs_image_table_count(const struct vs_image_table *tab)
{
	const struct vs_image_state *s;
	size_t n = 0, b;

	vs_htable_for_each_entry(s, &tab->states, b, hnode)
		n += s->nr_nodes > 0;
	return n;
}

void vs_image_table_destroy(struct vs_image_table *tab)
{
	vs_htable_destroy(&tab->states);
}

/* The live state of @name: the one with nodes. */
static struct vs_image_state *live_state(const struct vs_image_table *tab, const char *name)
{
	struct vs_image_state *s;

	hlist_for_each_entry(s, vs_htable_bucket(&tab->states, vs_str_hash(name)), hnode)
		if (s->name == name && s->nr_nodes)
			return s;
	return NULL;
}

u32 vs_image_table_nodes(const struct vs_image_table *tab, const char *name)
{
	const struct vs_image_state *s = name ? live_state(tab, name) : NULL;

	return s ? s->nr_nodes : 0;
}

static void state_unref(struct vs_image_table *tab, struct vs_strtab *strs,
			struct vs_image_state *s)
{
	if (--s->refs)
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

void vs_node_images_free(struct vs_image_table *tab, struct vs_strtab *strs,
			 struct vs_node_images *imgs)
{
	if (!imgs)
		return;
	for (u32 i = 0; i < imgs->nr; i++)
		if (imgs->v[i].state)
			state_unref(tab, strs, imgs->v[i].state);
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
	/*
	 * Each name once, with the first size given for it, as Volcano's
	 * summary. The states are found or made first, uncounted, so that
	 * memory running out changes nothing.
	 */
	for (u32 i = 0; i < nr; i++) {
		for (u32 j = 0; j < specs[i].nr_names; j++) {
			const char *name = vs_str_get_cstr(strs, specs[i].names[j]);
			struct vs_image_state *s;

			if (!name)
				goto nomem;
			if (listed(imgs, name)) {
				vs_str_put(strs, name);
				continue;
			}
			s = live_state(tab, name);
			if (!s) {
				s = calloc(1, sizeof(*s));
				if (!s) {
					vs_str_put(strs, name);
					goto nomem;
				}
				s->name = name;	/* the reference taken above */
				s->size = specs[i].size;
				vs_htable_add(&tab->states, &s->hnode, vs_str_hash(name));
			} else {
				vs_str_put(strs, name);	/* the state has one */
			}
			s->refs++;
			imgs->v[imgs->nr++] = (struct vs_node_image){ .name = s->name, .state = s };
		}
	}
	for (u32 k = 0; k < imgs->nr; k++) {
		struct vs_image_state *s = imgs->v[k].state;

		s->nr_nodes++;
		imgs->v[k].size = s->size;
		imgs->v[k].num_nodes = s->nr_nodes;
	}
	qsort(imgs->v, imgs->nr, sizeof(imgs->v[0]), by_name);
	*out = imgs;
	return 0;

nomem:
	vs_node_images_free(tab, strs, imgs);
	return vs_err_set(err, ENOMEM, "out of memory for images");
}

void vs_node_images_release(const struct vs_node_images *imgs)
{
	for (u32 i = 0; imgs && i < imgs->nr; i++)
		imgs->v[i].state->nr_nodes--;
}

void vs_node_images_restore(const struct vs_node_images *imgs)
{
	for (u32 i = 0; imgs && i < imgs->nr; i++)
		imgs->v[i].state->nr_nodes++;
}

const struct vs_node_image *vs_node_image_find(const struct vs_node_images *imgs,
					       const char *name)
{
	struct vs_node_image key = { .name = name };

	if (!imgs || !name)
		return NULL;
	return bsearch(&key, imgs->v, imgs->nr, sizeof(imgs->v[0]), by_name);
}

void vs_image_audit_start(const struct vs_image_table *tab)
{
	struct vs_image_state *s;
	size_t b;

	vs_htable_for_each_entry(s, &tab->states, b, hnode)
		s->audit = 0;
}

int vs_node_images_audit(const struct vs_node_images *imgs, struct vs_err *err)
{
	for (u32 i = 0; imgs && i < imgs->nr; i++) {
		const struct vs_node_image *im = &imgs->v[i];

		if (im->state->name != im->name || (i && by_name(&imgs->v[i - 1], im) >= 0))
			return vs_err_set(err, EIO, "image %s: summary not of its state or out of "
					  "order", im->name);
		if (!im->num_nodes || ++im->state->audit > im->state->refs)
			return vs_err_set(err, EIO, "image %s: %u nodes when summarised, more "
					  "summaries than the %u references", im->name,
					  im->num_nodes, im->state->refs);
	}
	return 0;
}

int vs_image_audit_end(const struct vs_image_table *tab, struct vs_err *err)
{
	const struct vs_image_state *s;
	size_t b;

	vs_htable_for_each_entry(s, &tab->states, b, hnode) {
		if (s->audit != s->nr_nodes)
			return vs_err_set(err, EIO, "image %s: %u nodes counted, %u report it",
					  s->name, s->nr_nodes, s->audit);
		if (!s->refs || (s->nr_nodes && live_state(tab, s->name) != s))
			return vs_err_set(err, EIO, "image %s: %u references, two live states",
					  s->name, s->refs);
	}
	return 0;
}

/* kube-scheduler's normalizedImageName: a name without a tag is ":latest". */
static const char *image_intern(struct vs_strtab *strs, const char *name)
{
	const char *colon = strrchr(name, ':'), *slash = strrchr(name, '/');
	char buf[1100];

	if (colon && (!slash || colon > slash))
		return vs_str_get_cstr(strs, name);
	if ((size_t)snprintf(buf, sizeof(buf), "%s:latest", name) >= sizeof(buf))
		return NULL;
	return vs_str_get_cstr(strs, buf);
}

int vs_task_images_new(struct vs_strtab *strs, const char *const *names, u32 nr,
		       struct vs_task_images **out, struct vs_err *err)
{
	struct vs_task_images *im;

	*out = NULL;
	if (!nr)
		return 0;
	for (u32 i = 0; i < nr; i++)
		if (!names[i] || !*names[i] || strlen(names[i]) > 1024)
			return vs_err_set(err, EINVAL, "images[%u]: empty or longer than 1024 "
					  "bytes", i);
	im = calloc(1, sizeof(*im) + nr * sizeof(im->name[0]));
	if (!im)
		return vs_err_set(err, ENOMEM, "out of memory for images");
	for (u32 i = 0; i < nr; i++) {
		im->name[i] = image_intern(strs, names[i]);
		if (!im->name[i]) {
			vs_task_images_free(strs, im);
			return vs_err_set(err, ENOMEM, "out of memory for images");
		}
		im->nr++;
	}
	*out = im;
	return 0;
}

void vs_task_images_free(struct vs_strtab *strs, struct vs_task_images *im)
{
	for (u32 i = 0; im && i < im->nr; i++)
		vs_str_put(strs, im->name[i]);
	free(im);
}

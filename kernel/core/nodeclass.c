// SPDX-License-Identifier: Apache-2.0
/*
 * Node classes: see nodeclass.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/nodeclass.h"

static u32 class_hashfn(const struct hlist_node *n)
{
	return hlist_entry(n, struct vs_node_class, hnode)->hash;
}

int vs_node_classes_init(struct vs_node_classes *nc)
{
	memset(nc, 0, sizeof(*nc));
	return vs_htable_init(&nc->index, 4, class_hashfn);
}

void vs_node_classes_destroy(struct vs_node_classes *nc)
{
	vs_htable_destroy(&nc->index);
	free(nc->by_id);
	memset(nc, 0, sizeof(*nc));
}

/* The interned hostname key, or NULL when no label has it. */
static const char *hostname_key(const struct vs_strtab *strs)
{
	return vs_str_find(strs, VS_HOSTNAME_LABEL, sizeof(VS_HOSTNAME_LABEL) - 1);
}

/* Every string is interned: a class hashes and compares pointers. */
static u32 class_hash(const struct vs_labels *labels, const struct vs_taints *taints,
		      const char *hostname, bool unschedulable, bool ready)
{
	u32 h = vs_hash_u64((u64)unschedulable << 1 | ready);

	for (u32 i = 0; labels && i < labels->nr; i++) {
		if (labels->kv[i].key == hostname)
			continue;
		h = vs_hash_combine(h, vs_hash_ptr(labels->kv[i].key));
		h = vs_hash_combine(h, vs_hash_ptr(labels->kv[i].value));
	}
	for (u32 i = 0; taints && i < taints->nr; i++) {
		h = vs_hash_combine(h, vs_hash_ptr(taints->t[i].key));
		h = vs_hash_combine(h, vs_hash_ptr(taints->t[i].value) ^ taints->t[i].effect);
	}
	return h;
}

static bool class_equal(const struct vs_node_class *c, const struct vs_labels *labels,
			const struct vs_taints *taints, const char *hostname,
			bool unschedulable, bool ready)
{
	u32 n = 0, nr_taints = taints ? taints->nr : 0;

	if (c->unschedulable != unschedulable || c->ready != ready ||
	    vs_taints_count(c->taints) != nr_taints)
		return false;
	/* Both sorted by key: the class's are the node's without the hostname. */
	for (u32 i = 0; labels && i < labels->nr; i++) {
		if (labels->kv[i].key == hostname)
			continue;
		if (n == vs_labels_count(c->labels) || c->labels->kv[n].key != labels->kv[i].key ||
		    c->labels->kv[n].value != labels->kv[i].value)
			return false;
		n++;
	}
	if (n != vs_labels_count(c->labels))
		return false;
	for (u32 i = 0; i < nr_taints; i++)
		if (c->taints->t[i].key != taints->t[i].key ||
		    c->taints->t[i].value != taints->t[i].value ||
		    c->taints->t[i].effect != taints->t[i].effect)
			return false;
	return true;
}

/* The class's own copies of the sets, referencing the same interned strings. */
static int class_fill(struct vs_node_class *c, const struct vs_labels *labels,
		      const struct vs_taints *taints, const char *hostname)
{
	u32 nr = 0;

	for (u32 i = 0; labels && i < labels->nr; i++)
		nr += labels->kv[i].key != hostname;
	if (nr) {
		c->labels = malloc(sizeof(*c->labels) + nr * sizeof(c->labels->kv[0]));
		if (!c->labels)
			return -ENOMEM;
		c->labels->nr = 0;
		for (u32 i = 0; i < labels->nr; i++) {
			if (labels->kv[i].key == hostname)
				continue;
			c->labels->kv[c->labels->nr].key = vs_str_ref(labels->kv[i].key);
			c->labels->kv[c->labels->nr].value = vs_str_ref(labels->kv[i].value);
			c->labels->nr++;
		}
	}
	if (vs_taints_count(taints)) {
		c->taints = malloc(sizeof(*c->taints) + taints->nr * sizeof(c->taints->t[0]));
		if (!c->taints)
			return -ENOMEM;
		c->taints->nr = taints->nr;
		for (u32 i = 0; i < taints->nr; i++) {
			c->taints->t[i] = taints->t[i];
			vs_str_ref(taints->t[i].key);
			vs_str_ref(taints->t[i].value);
		}
	}
	return 0;
}

static void class_free(struct vs_strtab *strs, struct vs_node_class *c)
{
	vs_labels_free(strs, c->labels);
	vs_taints_free(strs, c->taints);
	free(c);
}

/* The lowest free id, growing the table when every id is taken. */
static int class_id(struct vs_node_classes *nc, u32 *id)
{
	u32 i;

	if (nc->nr < nc->nr_ids) {
		for (i = 0; nc->by_id[i]; i++)
			;
		*id = i;
		return 0;
	}
	if (nc->nr_ids == nc->cap_ids) {
		u32 cap = nc->cap_ids ? 2 * nc->cap_ids : 16;
		struct vs_node_class **by_id = realloc(nc->by_id, cap * sizeof(*by_id));

		if (!by_id)
			return -ENOMEM;
		nc->by_id = by_id;
		nc->cap_ids = cap;
	}
	*id = nc->nr_ids++;
	return 0;
}

int vs_node_class_get(struct vs_node_classes *nc, struct vs_strtab *strs,
		      const struct vs_labels *labels, const struct vs_taints *taints,
		      bool unschedulable, bool ready, struct vs_node_class **out)
{
	const char *hostname = hostname_key(strs);
	u32 hash = class_hash(labels, taints, hostname, unschedulable, ready);
	struct vs_node_class *c;
	int ret;

	hlist_for_each_entry(c, vs_htable_bucket(&nc->index, hash), hnode)
		if (c->hash == hash &&
		    class_equal(c, labels, taints, hostname, unschedulable, ready)) {
			c->nr_nodes++;
			*out = c;
			return 0;
		}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	ret = class_fill(c, labels, taints, hostname);
	if (!ret)
		ret = class_id(nc, &c->id);
	if (ret) {
		class_free(strs, c);
		return ret;
	}
	c->hash = hash;
	c->unschedulable = unschedulable;
	c->ready = ready;
	c->nr_nodes = 1;
	nc->by_id[c->id] = c;
	nc->nr++;
	vs_htable_add(&nc->index, &c->hnode, hash);
	*out = c;
	return 0;
}

void vs_node_class_put(struct vs_node_classes *nc, struct vs_strtab *strs,
		       struct vs_node_class *c)
{
	if (!c || --c->nr_nodes)
		return;
	vs_htable_del(&nc->index, &c->hnode);
	nc->by_id[c->id] = NULL;
	nc->nr--;
	nc->gen++;
	class_free(strs, c);
}

bool vs_node_class_is(const struct vs_node_class *c, const struct vs_strtab *strs,
		      const struct vs_labels *labels, const struct vs_taints *taints,
		      bool unschedulable, bool ready)
{
	const char *hostname = hostname_key(strs);

	return c && c->hash == class_hash(labels, taints, hostname, unschedulable, ready) &&
	       class_equal(c, labels, taints, hostname, unschedulable, ready);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Pods on nodes by label, for one session (plugins/podindex.h).
 */
#include <string.h>

#include "core/affinity.h"
#include "core/arena.h"
#include "core/hash.h"
#include "plugins/podindex.h"

static u32 pair_hash(const char *key, const char *value)
{
	return vs_hash_combine(vs_hash_ptr(key), vs_hash_ptr(value));
}

struct vs_pair_slot *vs_pair_find(const struct vs_pair_map *m, const char *key, const char *value)
{
	if (!m->slot)
		return NULL;
	for (u32 i = pair_hash(key, value) & m->mask;; i = (i + 1) & m->mask) {
		struct vs_pair_slot *s = &m->slot[i];

		if (!s->key)
			return NULL;
		if (s->key == key && s->value == value)
			return s;
	}
}

/* Twice the slots (at least half of them free after), the old ones left in the arena. */
static int pair_grow(struct vs_arena *arena, struct vs_pair_map *m)
{
	u32 n = m->slot ? 2 * (m->mask + 1) : 64;
	struct vs_pair_slot *ns = vs_arena_calloc(arena, n, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (u32 i = 0; m->slot && i <= m->mask; i++) {
		u32 j;

		if (!m->slot[i].key)
			continue;
		for (j = pair_hash(m->slot[i].key, m->slot[i].value) & (n - 1); ns[j].key;
		     j = (j + 1) & (n - 1))
			;
		ns[j] = m->slot[i];
	}
	m->slot = ns;
	m->mask = n - 1;
	return 0;
}

struct vs_pair_slot *vs_pair_get(struct vs_arena *arena, struct vs_pair_map *m, const char *key,
				 const char *value, u32 v)
{
	if ((!m->slot || 2 * (m->used + 1) > m->mask + 1) && pair_grow(arena, m))
		return NULL;
	for (u32 i = pair_hash(key, value) & m->mask;; i = (i + 1) & m->mask) {
		struct vs_pair_slot *s = &m->slot[i];

		if (s->key == key && s->value == value)
			return s;
		if (!s->key) {
			*s = (struct vs_pair_slot){ .key = key, .value = value, .v = v };
			m->used++;
			return s;
		}
	}
}

void vs_pod_index_init(struct vs_pod_index *ix, struct vs_arena *arena)
{
	memset(ix, 0, sizeof(*ix));
	ix->arena = arena;
	ix->free = ix->any = VS_PIDX_END;
}

static u32 entry_new(struct vs_pod_index *ix)
{
	u32 i;

	if (ix->free != VS_PIDX_END) {
		i = ix->free;
		ix->free = ix->e[i].next;
		return i;
	}
	if (ix->nr == ix->cap) {
		u32 cap = ix->cap ? 2 * ix->cap : 256;
		struct vs_pod_entry *e = vs_arena_alloc(ix->arena, cap * sizeof(*e));

		if (!e)
			return VS_PIDX_END;
		if (ix->nr)
			memcpy(e, ix->e, ix->nr * sizeof(*e));
		ix->e = e;
		ix->cap = cap;
	}
	return ix->nr++;
}

/* Where the list of (@key, @value) starts, made when @make; NULL when it is not there. */
static u32 *head_of(struct vs_pod_index *ix, const char *key, const char *value, bool make)
{
	struct vs_pair_slot *s;

	if (!key)
		return &ix->any;
	s = make ? vs_pair_get(ix->arena, &ix->map, key, value, VS_PIDX_END)
		 : vs_pair_find(&ix->map, key, value);
	return s ? &s->v : NULL;
}

int vs_pod_index_push(struct vs_pod_index *ix, const char *key, const char *value,
		      const struct vs_task *t, const struct vs_node *node, const void *what)
{
	u32 *head = head_of(ix, key, value, true);
	u32 i;

	if (!head || (i = entry_new(ix)) == VS_PIDX_END)
		return -ENOMEM;
	ix->e[i] = (struct vs_pod_entry){ .t = t, .node = node, .what = what, .next = *head };
	*head = i;
	return 0;
}

void vs_pod_index_unlink(struct vs_pod_index *ix, const char *key, const char *value,
			 const struct vs_task *t)
{
	u32 *link = head_of(ix, key, value, false);

	while (link && *link != VS_PIDX_END) {
		u32 i = *link;

		if (ix->e[i].t != t) {
			link = &ix->e[i].next;
			continue;
		}
		*link = ix->e[i].next;
		ix->e[i].next = ix->free;
		ix->free = i;
	}
}

u32 vs_pod_index_first(const struct vs_pod_index *ix, const char *key, const char *value)
{
	const struct vs_pair_slot *s;

	if (!key)
		return ix->any;
	s = vs_pair_find(&ix->map, key, value);
	return s ? s->v : VS_PIDX_END;
}

bool vs_pod_index_anchor(const struct vs_label_selector *sel, const char **key,
			 const char *const **values, u32 *nr)
{
	if (!sel) {
		*key = NULL;
		*values = NULL;
		*nr = 0;
		return true;
	}
	if (sel->match_labels && sel->match_labels->nr) {
		*key = sel->match_labels->kv[0].key;
		*values = &sel->match_labels->kv[0].value;
		*nr = 1;
		return true;
	}
	for (u32 i = 0; i < sel->nr_exprs; i++)
		if (sel->exprs[i].op == VS_SEL_IN) {
			*key = sel->exprs[i].key;
			*values = sel->exprs[i].values;
			*nr = sel->exprs[i].nr_values;
			return true;
		}
	return false;
}

// SPDX-License-Identifier: Apache-2.0
/*
 * The store: every object of every resource, and the history of changes
 * that watches replay. It plays etcd's part: one revision counter for the
 * whole store, objects ordered by key within a resource, and a bounded
 * window of past events, beyond which a watch is answered 410 Gone.
 *
 * Stored values are never changed in place: a write stores a new value and
 * the history keeps references to both, so a watch that is behind sees each
 * version as it was, and a reply can hold a value after it is replaced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kapi.h"

int kapi_store_init(struct kapi_store *s, size_t history)
{
	memset(s, 0, sizeof(*s));
	s->tables = calloc(kapi_nr_resources, sizeof(*s->tables));
	s->hist_cap = history ? history : 1;
	s->hist = calloc(s->hist_cap, sizeof(*s->hist));
	if (!s->tables || !s->hist) {
		kapi_store_fini(s);
		return -1;
	}
	return 0;
}

static void event_clear(struct kapi_event *e)
{
	json_decref(e->obj);
	json_decref(e->prev);
	memset(e, 0, sizeof(*e));
}

void kapi_store_fini(struct kapi_store *s)
{
	for (size_t i = 0; s->tables && i < kapi_nr_resources; i++) {
		struct kapi_table *t = &s->tables[i];

		for (size_t j = 0; j < t->n; j++) {
			free(t->v[j].key);
			json_decref(t->v[j].obj);
		}
		free(t->v);
	}
	for (size_t i = 0; s->hist && i < s->hist_cap; i++)
		event_clear(&s->hist[i]);
	free(s->tables);
	free(s->hist);
	s->tables = NULL;
	s->hist = NULL;
}

struct kapi_table *kapi_store_table(struct kapi_store *s, const struct kapi_resource *res)
{
	return &s->tables[res - kapi_resources];
}

char *kapi_key(const struct kapi_resource *res, const char *ns, const char *name)
{
	char *key;

	if (res->namespaced) {
		if (asprintf(&key, "%s/%s", ns ? ns : "", name) < 0)
			return NULL;
		return key;
	}
	return strdup(name);
}

size_t kapi_table_seek(const struct kapi_table *t, const char *key, bool after)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(t->v[mid].key, key);

		if (c < 0 || (after && c == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct kapi_object *table_find(struct kapi_table *t, const char *key)
{
	size_t i = kapi_table_seek(t, key, false);

	return i < t->n && !strcmp(t->v[i].key, key) ? &t->v[i] : NULL;
}

json_t *kapi_store_get(struct kapi_store *s, const struct kapi_resource *res,
		       const char *ns, const char *name)
{
	char *key = kapi_key(res, ns, name);
	struct kapi_object *o;

	if (!key)
		return NULL;
	o = table_find(kapi_store_table(s, res), key);
	free(key);
	return o ? o->obj : NULL;
}

const struct kapi_event *kapi_store_event(const struct kapi_store *s, uint64_t rv)
{
	if (rv <= s->compacted || rv > s->rv)
		return NULL;
	return &s->hist[rv % s->hist_cap];
}

/* Take the next revision for an event; the oldest one leaves the window. */
static struct kapi_event *next_event(struct kapi_store *s)
{
	struct kapi_event *e;

	s->rv++;
	if (s->rv - s->compacted > s->hist_cap)
		s->compacted = s->rv - s->hist_cap;
	e = &s->hist[s->rv % s->hist_cap];
	event_clear(e);
	e->rv = s->rv;
	return e;
}

static void set_rv(json_t *obj, uint64_t rv)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)rv);
	json_object_set_new(json_object_get(obj, "metadata"), "resourceVersion",
			    json_string(buf));
}

uint64_t kapi_store_put(struct kapi_store *s, const struct kapi_resource *res, json_t *obj)
{
	struct kapi_table *t = kapi_store_table(s, res);
	char *key = kapi_key(res, kapi_meta_str(obj, "namespace"), kapi_meta_str(obj, "name"));
	struct kapi_object *o;
	struct kapi_event *e;

	if (!key)
		goto out_free;
	o = table_find(t, key);
	if (!o) {
		size_t i = kapi_table_seek(t, key, false);

		if (t->n == t->cap) {
			size_t cap = t->cap ? t->cap * 2 : 16;
			struct kapi_object *v = realloc(t->v, cap * sizeof(*v));

			if (!v)
				goto out_free;
			t->v = v;
			t->cap = cap;
		}
		memmove(&t->v[i + 1], &t->v[i], (t->n - i) * sizeof(*t->v));
		t->n++;
		o = &t->v[i];
		o->key = key;
		o->obj = NULL;
		key = NULL;
	}
	free(key);

	e = next_event(s);
	set_rv(obj, s->rv);
	e->res = res;
	e->type = o->obj ? KAPI_MODIFIED : KAPI_ADDED;
	e->prev = o->obj;	/* the table's reference moves to the history */
	e->obj = json_incref(obj);
	o->obj = obj;
	return s->rv;

out_free:
	free(key);
	json_decref(obj);
	return 0;
}

uint64_t kapi_store_delete(struct kapi_store *s, const struct kapi_resource *res,
			   const char *ns, const char *name)
{
	struct kapi_table *t = kapi_store_table(s, res);
	char *key = kapi_key(res, ns, name);
	struct kapi_object *o;
	struct kapi_event *e;
	json_t *last;

	if (!key)
		return 0;
	o = table_find(t, key);
	free(key);
	if (!o)
		return 0;
	/* The deleted object is told with the revision of its deletion, as etcd does. */
	last = json_deep_copy(o->obj);
	if (!last)
		return 0;
	e = next_event(s);
	set_rv(last, s->rv);
	e->res = res;
	e->type = KAPI_DELETED;
	e->obj = last;
	e->prev = o->obj;
	free(o->key);
	memmove(o, o + 1, (size_t)(&t->v[t->n] - (o + 1)) * sizeof(*o));
	t->n--;
	return s->rv;
}

void kapi_store_compact(struct kapi_store *s)
{
	for (size_t i = 0; i < s->hist_cap; i++)
		event_clear(&s->hist[i]);
	s->compacted = s->rv;
}

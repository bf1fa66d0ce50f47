/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pods on nodes by label, for one session: what InterPodAffinity's and
 * PodTopologySpread's PreFilter look at, so that a task's PreFilter reads
 * the pods its label selectors may pick instead of every pod of the
 * cluster (kube-scheduler's PreFilter walks every node's pods once per
 * pod; at thousands of nodes and pods that walk is most of a placement).
 *
 * A selector is anchored on a label every pod it picks carries: its first
 * matchLabels pair, or the values of an In expression
 * (vs_pod_index_anchor()). The index holds a list per (key, value) pair;
 * an entry is a pod, the node it is on, and optionally what of the pod
 * is indexed (an anti-affinity term). Lists are threaded through one
 * array whose freed entries are reused; everything lives in the session's
 * arena (a steady cycle takes nothing from the heap) and is forgotten with
 * it.
 *
 * The index knows nothing of the session: its owner puts a pod in as it
 * arrives on a node and takes it out as it leaves (the plugin's
 * allocate and deallocate events), and decides which pods count.
 */
#ifndef VS_PLUGINS_PODINDEX_H
#define VS_PLUGINS_PODINDEX_H

#include "core/compiler.h"

struct vs_arena;
struct vs_label_selector;
struct vs_node;
struct vs_task;

#define VS_PIDX_END	((u32)-1)

/* (label key, value), both interned, to a u32: open addressing, in an arena. */
struct vs_pair_map {
	struct vs_pair_slot {
		const char *key, *value;	/* key NULL: a free slot */
		u32 v;
	} *slot;
	u32 mask, used;
};

/* The slot of (@key, @value), or NULL when the map lacks it. */
struct vs_pair_slot *vs_pair_find(const struct vs_pair_map *m, const char *key, const char *value);

/* The slot of (@key, @value), made with @v when missing; NULL: out of memory. */
struct vs_pair_slot *vs_pair_get(struct vs_arena *arena, struct vs_pair_map *m, const char *key,
				 const char *value, u32 v);

struct vs_pod_entry {
	const struct vs_task *t;
	const struct vs_node *node;	/* where the pod was put in */
	const void *what;		/* the owner's: what of the pod this entry is for */
	u32 next;			/* VS_PIDX_END ends a list */
};

struct vs_pod_index {
	struct vs_arena *arena;
	struct vs_pair_map map;		/* (key, value) -> its list's first entry */
	struct vs_pod_entry *e;
	u32 nr, cap, free;		/* free: a list of entries to reuse */
	u32 any;			/* the list of entries under no pair */
};

void vs_pod_index_init(struct vs_pod_index *ix, struct vs_arena *arena);

/*
 * Put @t (on @node) in the list of (@key, @value), or with @key NULL in the
 * list of entries under no pair; 0 or -ENOMEM.
 */
int vs_pod_index_push(struct vs_pod_index *ix, const char *key, const char *value,
		      const struct vs_task *t, const struct vs_node *node, const void *what);

/* Take every entry of @t out of the list of (@key, @value) (@key NULL: of no pair). */
void vs_pod_index_unlink(struct vs_pod_index *ix, const char *key, const char *value,
			 const struct vs_task *t);

/* The first entry of the list of (@key, @value) (@key NULL: of no pair), or VS_PIDX_END. */
u32 vs_pod_index_first(const struct vs_pod_index *ix, const char *key, const char *value);

static inline const struct vs_pod_entry *vs_pod_index_entry(const struct vs_pod_index *ix, u32 i)
{
	return &ix->e[i];
}

/*
 * The label every pod @sel picks carries: its first matchLabels pair, or
 * the key of an In expression and its @nr values. With no selector (which
 * picks no pod) *@nr is 0. False when the selector names no such label
 * (only NotIn, Exists, DoesNotExist, or nothing: then every pod may be
 * picked).
 */
bool vs_pod_index_anchor(const struct vs_label_selector *sel, const char **key,
			 const char *const **values, u32 *nr);

#endif /* VS_PLUGINS_PODINDEX_H */

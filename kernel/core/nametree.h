/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cluster's objects in name order.
 *
 * Each object the cluster names embeds a struct rb_node and sits in its
 * kind's tree (struct vs_cluster's *_names) under (namespace, name),
 * compared byte by byte, namespace first: the order kubectl lists in. The
 * hash indexes (htable.h) still answer lookups by name, which they do in
 * O(1); the trees answer what a hash cannot: the objects in order, and
 * "the first object after this key", from which a dump resumes whatever
 * was added or deleted since its last part.
 *
 * A tree knows where its objects keep their node and their key (offsets
 * into the object), so that one set of walks serves every kind, and an
 * object pays only the node's three words (a task's size is budgeted).
 *
 * A tree is kept from the moment someone asks for it (vs_name_tree_keep()
 * then an add of every object there is, vs_cluster_keep_names()); before,
 * adds and deletes leave it empty. A cluster nobody lists (in-process
 * runs, the benchmarks, a simulation) thus pays nothing for the order,
 * which costs an add a few hundred instructions (Documentation/core.md).
 */
#ifndef VS_CORE_NAMETREE_H
#define VS_CORE_NAMETREE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/rbtree.h"

struct vs_name_tree {
	struct rb_root root;
	bool kept;		/* adds and deletes change it: see above */
	/*
	 * The object added last, while it is in the tree: where the next add
	 * looks first. Objects tend to come in name order, a client loading
	 * the API server's lists (sorted) or a controller making one job's
	 * pods, and then two comparisons place them instead of a descent.
	 */
	struct rb_node *hint;
	size_t node;		/* offsetof(object, its struct rb_node) */
	size_t ns;		/* offsetof(object, const char *ns); VS_NAME_NO_NS */
	size_t name;		/* offsetof(object, const char *name) */
};

#define VS_NAME_NO_NS	((size_t)-1)	/* cluster-scoped: the namespace sorts as "" */

/* The tree of objects of @type, linked by their @node, keyed by @ns and @name. */
#define VS_NAME_TREE(type, node_, ns_, name_)					\
	((struct vs_name_tree){ .node = offsetof(type, node_),			\
				.ns = offsetof(type, ns_), .name = offsetof(type, name_) })
#define VS_NAME_TREE_CLUSTER(type, node_, name_)				\
	((struct vs_name_tree){ .node = offsetof(type, node_),			\
				.ns = VS_NAME_NO_NS, .name = offsetof(type, name_) })

/*
 * <0, 0 or >0 as (@ans, @aname) sorts before, with or after (@bns,
 * @bname); a NULL namespace sorts as the empty one. Namespaces are
 * interned: the same pointer is the same namespace, without a strcmp().
 */
static inline int vs_name_cmp(const char *ans, const char *aname, const char *bns,
			      const char *bname)
{
	int c = ans == bns ? 0 : strcmp(ans ? ans : "", bns ? bns : "");

	return c ? c : strcmp(aname, bname);
}

/* Keep @t, still empty, from now on; the caller adds what is already there. */
static inline void vs_name_tree_keep(struct vs_name_tree *t)
{
	t->kept = true;
}

/*
 * Put @obj into @t (if kept) under its key, which must stay as it is while it is
 * there and be no other object's (the hash index refused duplicates).
 */
void __vs_name_tree_add(struct vs_name_tree *t, void *obj);
static inline void vs_name_tree_add(struct vs_name_tree *t, void *obj)
{
	if (t->kept)	/* inline: what a tree nobody keeps costs an add */
		__vs_name_tree_add(t, obj);
}

/* Take @obj, which is in @t if @t is kept, out of it. */
void __vs_name_tree_del(struct vs_name_tree *t, void *obj);
static inline void vs_name_tree_del(struct vs_name_tree *t, void *obj)
{
	if (t->kept)
		__vs_name_tree_del(t, obj);
}

/*
 * The first object whose key sorts strictly after (@ns, @name), or NULL;
 * with @name NULL, the first object of all. The key need not be in @t.
 */
void *vs_name_tree_after(const struct vs_name_tree *t, const char *ns, const char *name);

/* The object after @obj in name order, or NULL. */
void *vs_name_tree_next(const struct vs_name_tree *t, const void *obj);

/* The key of @obj: its namespace (NULL for cluster-scoped kinds) and name. */
void vs_name_tree_key(const struct vs_name_tree *t, const void *obj, const char **ns,
		      const char **name);

/*
 * Whether @t, if kept, holds @count objects in strictly increasing key
 * order (one not kept must be empty). 0, or -EIO (for vs_cluster_check():
 * a walk of the whole tree).
 */
int vs_name_tree_check(const struct vs_name_tree *t, size_t count);

#endif /* VS_CORE_NAMETREE_H */

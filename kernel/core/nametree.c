// SPDX-License-Identifier: Apache-2.0
/*
 * The cluster's objects in name order (nametree.h): the descents over
 * (namespace, name) keys found through the tree's offsets; rbtree.c
 * rebalances.
 */
#include <errno.h>
#include <stdbool.h>

#include "core/nametree.h"

static inline const void *obj_of(const struct vs_name_tree *t, const struct rb_node *rb)
{
	return (const char *)rb - t->node;
}

static inline struct rb_node *node_of(const struct vs_name_tree *t, const void *obj)
{
	return (struct rb_node *)((char *)obj + t->node);
}

void vs_name_tree_key(const struct vs_name_tree *t, const void *obj, const char **ns,
		      const char **name)
{
	*ns = t->ns == VS_NAME_NO_NS ? NULL : *(const char *const *)((const char *)obj + t->ns);
	*name = *(const char *const *)((const char *)obj + t->name);
}

/* <0, 0 or >0 as (@ns, @name) sorts before, with or after the object at @rb. */
static int key_cmp(const struct vs_name_tree *t, const char *ns, const char *name,
		   const struct rb_node *rb)
{
	const char *rns, *rname;

	vs_name_tree_key(t, obj_of(t, rb), &rns, &rname);
	return vs_name_cmp(ns, name, rns, rname);
}

/*
 * Whether (@ns, @name) sorts right after the hint, and if so where it
 * links: as the hint's right child when it has none, else as the left
 * child of its successor, the leftmost node of its right subtree.
 */
static bool link_after_hint(const struct vs_name_tree *t, const char *ns, const char *name,
			    struct rb_node **parent, struct rb_node ***link)
{
	struct rb_node *h = t->hint, *next;

	if (!h || key_cmp(t, ns, name, h) <= 0)
		return false;
	next = rb_next(h);
	if (next && key_cmp(t, ns, name, next) >= 0)
		return false;
	if (!h->rb_right) {
		*parent = h;
		*link = &h->rb_right;
	} else {
		*parent = next;
		*link = &next->rb_left;
	}
	return true;
}

void __vs_name_tree_add(struct vs_name_tree *t, void *obj)
{
	struct rb_node **link = &t->root.rb_node;
	struct rb_node *parent = NULL;
	const char *ns, *name;

	vs_name_tree_key(t, obj, &ns, &name);
	if (!link_after_hint(t, ns, name, &parent, &link)) {
		while (*link) {
			parent = *link;
			if (key_cmp(t, ns, name, parent) < 0)
				link = &parent->rb_left;
			else
				link = &parent->rb_right;
		}
	}
	t->hint = node_of(t, obj);
	rb_link_node(t->hint, parent, link);
	rb_insert_color(t->hint, &t->root);
}

void __vs_name_tree_del(struct vs_name_tree *t, void *obj)
{
	if (t->hint == node_of(t, obj))
		t->hint = NULL;
	rb_erase(node_of(t, obj), &t->root);
	RB_CLEAR_NODE(node_of(t, obj));
}

void *vs_name_tree_after(const struct vs_name_tree *t, const char *ns, const char *name)
{
	struct rb_node *rb = t->root.rb_node;
	struct rb_node *after = NULL;

	if (!name) {
		after = rb_first(&t->root);
	} else {
		/* The last node where the descent went left is the least key above. */
		while (rb) {
			if (key_cmp(t, ns, name, rb) < 0) {
				after = rb;
				rb = rb->rb_left;
			} else {
				rb = rb->rb_right;
			}
		}
	}
	return after ? (void *)obj_of(t, after) : NULL;
}

void *vs_name_tree_next(const struct vs_name_tree *t, const void *obj)
{
	struct rb_node *rb = rb_next(node_of(t, obj));

	return rb ? (void *)obj_of(t, rb) : NULL;
}

int vs_name_tree_check(const struct vs_name_tree *t, size_t count)
{
	const char *pns = NULL, *pname = NULL, *ns, *name;
	size_t seen = 0;

	if (!t->kept)
		return RB_EMPTY_ROOT(&t->root) ? 0 : -EIO;
	for (const void *obj = vs_name_tree_after(t, NULL, NULL); obj;
	     obj = vs_name_tree_next(t, obj)) {
		vs_name_tree_key(t, obj, &ns, &name);
		if (pname && vs_name_cmp(pns, pname, ns, name) >= 0)
			return -EIO;
		if (++seen > count)
			return -EIO;
		pns = ns;
		pname = name;
	}
	return seen == count ? 0 : -EIO;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Node classes: the nodes that look alike to a static predicate.
 *
 * A node's class is what a predicate that does not count or measure reads
 * of it: its labels, its taints, whether it is cordoned and whether it is
 * Ready. Two nodes of a class pass or fail such a predicate together, for
 * any task, so the fast path of allocate asks once per (task template,
 * class) instead of once per (task, node) (sched/fastpath.h).
 *
 * The label kubernetes.io/hostname is left out of the class: every node of
 * a Kubernetes cluster carries its own, and with it every class would hold
 * one node. A predicate that reads it (a node selector on the hostname)
 * cannot be answered per class, and says so (vs_plugin_ops.class_fails).
 *
 * Classes are counted references held by the nodes: a node takes the class
 * of its spec when it is added or updated and drops the old one; the last
 * node to leave a class frees it. A class has a small dense id that its
 * users index by; ids are reused, and @gen changes whenever a class goes,
 * so that whoever keeps something by id across calls starts over then.
 */
#ifndef VS_CORE_NODECLASS_H
#define VS_CORE_NODECLASS_H

#include "core/compiler.h"
#include "core/htable.h"
#include "core/labels.h"
#include "core/strtab.h"

/* The label a class leaves out. */
#define VS_HOSTNAME_LABEL	"kubernetes.io/hostname"

struct vs_node_class {
	struct hlist_node hnode;	/* vs_node_classes.index */
	u32 hash;
	u32 id;				/* dense, from 0; reused after the class goes */
	u32 nr_nodes;			/* the references */
	bool unschedulable;
	bool ready;
	struct vs_labels *labels;	/* the nodes' labels but the hostname; owned */
	struct vs_taints *taints;	/* owned */
};

struct vs_node_classes {
	struct vs_htable index;
	struct vs_node_class **by_id;	/* NULL where an id is free */
	u32 nr_ids, cap_ids;		/* ids handed out (the highest + 1), and room */
	u32 nr;				/* classes */
	u64 gen;			/* changes when a class is freed */
};

int vs_node_classes_init(struct vs_node_classes *nc);

/* Every class must have been put. */
void vs_node_classes_destroy(struct vs_node_classes *nc);

/*
 * A reference to the class of a node with these attributes, made when it
 * is the first; -ENOMEM and nothing changed when memory runs out.
 */
int vs_node_class_get(struct vs_node_classes *nc, struct vs_strtab *strs,
		      const struct vs_labels *labels, const struct vs_taints *taints,
		      bool unschedulable, bool ready, struct vs_node_class **out);

/* Drop a reference; the last frees the class. NULL is allowed. */
void vs_node_class_put(struct vs_node_classes *nc, struct vs_strtab *strs,
		       struct vs_node_class *c);

/* Whether @c is the class of these attributes (for checks). */
bool vs_node_class_is(const struct vs_node_class *c, const struct vs_strtab *strs,
		      const struct vs_labels *labels, const struct vs_taints *taints,
		      bool unschedulable, bool ready);

#endif /* VS_CORE_NODECLASS_H */

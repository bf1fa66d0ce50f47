/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_hypernode: a topology.volcano.sh/v1alpha1 HyperNode, a group
 * of nodes that share a network tier (a switch, a spine...), and the tree
 * Volcano's scheduler builds from them (pkg/scheduler/api/hyper_node_info.go).
 *
 * A HyperNode's members are nodes or HyperNodes, each chosen by one
 * selector: exactMatch (a name), regexMatch (a pattern over node names) or
 * labelMatch (matchLabels over node labels). A HyperNode member is named
 * by exactMatch only; one chosen otherwise matches nothing, as in Volcano.
 *
 * The tree, kept current by every change of a HyperNode or a node, never
 * rebuilt per cycle:
 *  - parent: of the HyperNodes that claim a HyperNode as a member, the
 *    oldest (creation order) whose claim closes no cycle with the links of
 *    the HyperNodes older than it. Volcano refuses
 *    the second claim it meets and the claim that closes a cycle and marks
 *    its cache not ready; vsched refuses the same claims but chooses among
 *    them by age rather than by event order, so that the tree is a function
 *    of the objects alone (an undone change gives back the same tree).
 *  - children: the HyperNodes whose parent it is.
 *  - direct: the node names its Node members choose. An exactMatch name
 *    counts whether or not such a node exists (Volcano's GetMembers); a
 *    pattern or labels count the nodes that exist and match.
 *  - leaves: the real nodes under it, transitively: its direct names and
 *    its children's leaves (Volcano's realNodesSet).
 * vs_hypernodes_ready() is Volcano's Ready(): false while a claim is
 * refused.
 *
 * Invariants (vs_hypernodes_check()): the parent links form a forest; each
 * parent claims its child and is the oldest claimer that closes no cycle;
 * direct and leaves are sorted, without duplicates, and what their
 * definitions above compute.
 */
#ifndef VS_CORE_HYPERNODE_H
#define VS_CORE_HYPERNODE_H

#include <regex.h>

#include "core/compiler.h"
#include "core/err.h"
#include "core/labels.h"
#include "core/list.h"
#include "core/rbtree.h"

enum vs_hn_member_type {
	VS_HN_MEMBER_NODE,
	VS_HN_MEMBER_HYPERNODE,
};

enum vs_hn_selector {
	VS_HN_EXACT,		/* exactMatch.name */
	VS_HN_REGEX,		/* regexMatch.pattern */
	VS_HN_LABEL,		/* labelMatch.matchLabels */
};

struct vs_hn_member {
	enum vs_hn_member_type type;
	enum vs_hn_selector sel;
	const char *name;		/* interned: the exact name, or the pattern */
	regex_t *re;			/* VS_HN_REGEX: compiled @name */
	struct vs_labels *labels;	/* VS_HN_LABEL: NULL matches nothing */
	/*
	 * A HyperNode member by exactMatch, while its HyperNode is in the
	 * cluster: in cl->hypernode_claims by @name, so that a HyperNode
	 * finds its claimers without a pass over every HyperNode.
	 */
	struct hlist_node claim;
	struct vs_hypernode *by;	/* the HyperNode whose member it is */
};

struct vs_hypernode {
	const char *name;		/* interned */
	u64 seq;			/* creation order: the older claimer wins */
	struct hlist_node hnode;	/* cl->hypernode_index */
	struct rb_node byname;		/* cl->hypernode_names */
	struct list_head list;		/* cl->hypernodes.list, creation order */
	u32 sidx;			/* its index in a session's view (sched/topology.h) */

	s32 tier;
	const char *tier_name;		/* interned, or NULL */
	/*
	 * metadata.labels, NULL for none: what marks a HyperNode that label
	 * discovery made (controllers/hnctl.h), as Volcano marks it.
	 */
	struct vs_labels *labels;
	struct vs_hn_member *members;
	u32 nr_members;

	struct vs_hypernode *parent;
	struct list_head children;	/* its children, by their sibling */
	struct list_head sibling;
	u32 nr_children;
	struct vs_hypernode *next_parent;	/* scratch of the resolution */
	u32 claimers_at, nr_claimers;		/* scratch: its claimers in the resolution's table */
	bool dirty;				/* scratch: its leaves are to compute */

	const char **direct;		/* sorted (strcmp), interned, referenced */
	u32 nr_direct;
	const char **leaves;		/* sorted, borrowed from the direct sets below */
	u32 nr_leaves;
};

/*
 * The cluster's HyperNodes (struct vs_cluster's hypernodes; indexed by
 * name in its hypernode_index and hypernode_names, as the other objects).
 */
struct vs_hypernodes {
	struct list_head list;		/* creation order */
	u32 nr;
	bool lost;			/* a node set could not be stored (memory): not ready */
	/*
	 * Nodes added, deleted or changed in shape (labels, taints, cordon,
	 * readiness: node.c counts them) and HyperNodes deleted, ever: label
	 * discovery (controllers/hnctl.h) looks at the nodes again when it
	 * moved, and not for a change of a node's resources alone.
	 */
	u64 events;
	/*
	 * Moves whenever the tree may have changed: a HyperNode added,
	 * deleted or given a new spec (members, tier), a parent link made or
	 * broken, a HyperNode's leaves computed again (a node's membership,
	 * by name, pattern or labels). Whoever keeps something made from the
	 * tree across calls (sched/topology.h) makes it again when it moved;
	 * a node's resources alone never move it.
	 */
	u64 gen;
};

struct vs_cluster;
struct vs_node;

struct vs_hn_member_spec {
	enum vs_hn_member_type type;
	enum vs_hn_selector sel;
	const char *name;		/* VS_HN_EXACT: the name; VS_HN_REGEX: the pattern */
	const struct vs_kv_spec *labels;	/* VS_HN_LABEL */
	u32 nr_labels;
};

struct vs_hypernode_spec {
	const char *name;
	s32 tier;
	const char *tier_name;		/* NULL or "": none */
	const struct vs_kv_spec *labels;	/* metadata.labels */
	u32 nr_labels;
	const struct vs_hn_member_spec *members;
	u32 nr_members;
};

void vs_hypernodes_init(struct vs_hypernodes *hns);
void vs_hypernodes_destroy(struct vs_cluster *cl);

/*
 * -EEXIST for a name in use; -EINVAL for a bad spec: a bad name, a
 * negative tier, no members (Volcano's webhook), a member without a name
 * or pattern, a pattern that does not compile (POSIX extended syntax).
 */
int vs_hypernode_add(struct vs_cluster *cl, const struct vs_hypernode_spec *spec,
		     struct vs_hypernode **out, struct vs_err *err);

/* Replace the spec (name excepted); the tree follows. */
int vs_hypernode_update(struct vs_cluster *cl, struct vs_hypernode *hn,
			const struct vs_hypernode_spec *spec, struct vs_err *err);

void vs_hypernode_del(struct vs_cluster *cl, struct vs_hypernode *hn);

struct vs_hypernode *vs_hypernode_find(const struct vs_cluster *cl, const char *name);

/*
 * The node @name was added, changed or (@node NULL) deleted: the direct
 * sets of the HyperNodes whose patterns or labels choose it follow, and
 * their ancestors' leaves. Node add, update and delete call it.
 */
void vs_hypernodes_node_event(struct vs_cluster *cl, const char *name,
			      const struct vs_node *node);

/* Whether the node @name is among @hn's leaves. */
bool vs_hypernode_has_leaf(const struct vs_hypernode *hn, const char *name);

/* The lowest common ancestor of @a and @b (either may be NULL: the other), or NULL. */
struct vs_hypernode *vs_hypernode_lca(struct vs_hypernode *a, struct vs_hypernode *b);

/* Volcano's Ready(): no claim of a HyperNode member is refused. */
bool vs_hypernodes_ready(const struct vs_cluster *cl);

/* The invariants above; 0 or -EIO with why. */
int vs_hypernodes_check(const struct vs_cluster *cl, struct vs_err *err);

#endif /* VS_CORE_HYPERNODE_H */

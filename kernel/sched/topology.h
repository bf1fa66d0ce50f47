/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A session's view of the network topology: the HyperNodes of the cluster
 * (core/hypernode.h) with the nodes of the session under each, and the
 * cluster's top above them all, as Volcano's OpenSession prepares them
 * (framework/session.go: HyperNodes, RealNodesList, RealNodesSet,
 * HyperNodesSetByTier, HyperNodesTiers, addClusterTopHyperNode).
 *
 * Made on first use (vs_topo_get()) from the core's tree, which is kept
 * current as objects change: building the view costs one pass over the
 * HyperNodes' leaves, not a resolution of the tree. Its structure (all
 * but the sums and the per-session fields below) is kept by the scheduler
 * (sched->topo, in an arena of its own) from session to session, and made
 * again only when what it is made from changed: the session's nodes, in
 * their order (cl->node_gen: a node added, deleted or moved to another
 * slot; the view holds their pointers and indexes by their sidx) and the
 * tree (cl->hypernodes.gen: a HyperNode added, deleted or changed, a link,
 * a node's membership by name, pattern or labels); the cluster's top is
 * made from those alone. A session that asks for it sums the nodes
 * afresh and reads Ready() again; nothing else writes the sums, so what a
 * session did (its placements, its dry runs, the plugin's own copy of
 * `used`) never reaches the next one. A stale view is freed at the next
 * session's open.
 *
 *  - hns[]: every HyperNode in creation order, then the cluster's top,
 *    a HyperNode of no object named VS_TOPO_TOP whose tier is one above
 *    the highest and whose children are the HyperNodes without a parent.
 *    A HyperNode's index here is its sidx.
 *  - nodes: the session's nodes among a HyperNode's leaves, in the
 *    session's order (node sidx); the top has every node. Volcano lists
 *    them in map order.
 *  - tiers[]: the tiers in use, ascending, the top's last.
 *  - low[node sidx]: Volcano's FindHyperNodeForNode, the HyperNode of the
 *    lowest tier in use that holds the node (the first such in creation
 *    order, where Volcano takes one in map order), or VS_TOPO_NONE.
 *  - allocatable, idle, future_idle, used: each HyperNode's sums over its
 *    nodes when the session first asked for the view (the
 *    network-topology-aware plugin's resource cache): its children's sums
 *    where they hold each of its nodes once (sum_children), else its
 *    nodes', children first (sum_order).
 *  - of_node: the HyperNodes holding a node (the top last), in creation
 *    order: node sidx i's are of_node[of_node_at[i] .. of_node_at[i + 1]),
 *    a few each (one a tier), so that a node's HyperNodes cost no search.
 *  - ready, task, task_hn: the session's own, set afresh when it asks.
 */
#ifndef VS_SCHED_TOPOLOGY_H
#define VS_SCHED_TOPOLOGY_H

#include "core/cluster.h"

#define VS_TOPO_TOP	"<cluster-top-hypernode>"
#define VS_TOPO_NONE	((u32)-1)

struct vs_session;

struct vs_topo_hn {
	const char *name;
	struct vs_hypernode *hn;	/* NULL: the cluster's top */
	s32 tier;
	u32 parent;			/* VS_TOPO_NONE: the top */
	u32 depth;			/* the top's is 0 */
	u32 *children;			/* creation order */
	u32 nr_children;
	struct vs_node **nodes;		/* session order */
	u32 nr_nodes;
	/* its children hold each of its nodes once: its sums are theirs */
	bool sum_children;
	struct vs_res allocatable, idle, future_idle, used;
};

struct vs_topo {
	struct vs_topo_hn *hns;
	u32 nr;				/* the HyperNodes and the top */
	u32 top;
	s32 *tiers;			/* ascending, the top's last */
	u32 nr_tiers;
	u32 *low;			/* by node sidx */
	u32 *of_node, *of_node_at;	/* by node sidx, see above */
	bool ready;			/* the core's vs_hypernodes_ready() */
	/*
	 * The task allocate is placing and its job's AllocatedHyperNode as it
	 * does (Volcano's task.JobAllocatedHyperNode), for the scores.
	 */
	const struct vs_task *task;
	u32 task_hn;
	/* What the structure was made from: kept while these hold. */
	const struct vs_cluster *cl;
	u64 node_gen;			/* cl->node_gen */
	u64 hn_gen;			/* cl->hypernodes.gen */
	u32 nr_nodes;			/* the session's */
	u32 *sum_order;			/* the HyperNodes, children before parents */
};

/* The session's view, made on first use; NULL when out of memory. */
struct vs_topo *vs_topo_get(struct vs_session *ssn);

struct vs_sched;
/* Free @sched's kept view if what it was made from changed (session open). */
void vs_topo_expire(struct vs_sched *sched);

/* The index of the HyperNode named @name (VS_TOPO_TOP included; NULL: none), or VS_TOPO_NONE. */
u32 vs_topo_find(const struct vs_topo *topo, const struct vs_cluster *cl, const char *name);

/* Volcano's GetLCAHyperNode: VS_TOPO_NONE stands for "" (the other one). */
u32 vs_topo_lca(const struct vs_topo *topo, u32 a, u32 b);

/* Whether @node is under HyperNode @h. */
bool vs_topo_has_node(const struct vs_topo *topo, u32 h, const struct vs_node *node);

/*
 * The tier of the HyperNodes named @tier_name (Volcano's
 * HyperNodeTierNameMap), or -1 when none has it. HyperNodes that disagree:
 * the newest one's tier (Volcano warns and takes one in map order).
 */
s32 vs_topo_tier_of_name(const struct vs_topo *topo, const char *tier_name);

/*
 * A job's network topology as this session schedules it (Volcano's
 * OpenSession: adjustNetworkTopologySpec, removeInvalidAllocatedHyperNode,
 * recoverAllocatedHyperNode), for the job and its default sub-job alike.
 */
struct vs_topo_job {
	bool with;		/* WithNetworkTopology: the PodGroup has one */
	bool hard;		/* IsHardTopologyMode: hard with a tier, soft made hard */
	s32 highest_tier;	/* when hard: highestTierAllowed, or the name's tier */
	u32 allocated;		/* AllocatedHyperNode, VS_TOPO_NONE for none */
	u32 sub_allocated;	/* its default sub-job's */
};

/*
 * @job's, into @out, and for a job with a subGroupPolicy its sub-jobs'
 * (sched/subjob.h), into @subs[i] for its i-th (out->sub_allocated is
 * the default sub-job's of a job without one). A sub-job's soft mode is
 * made hard within the job's tier, when the job has one.
 *
 * It also settles the AllocatedHyperNodes the core keeps (job->
 * allocated_hn, sub_allocated_hn, sub_hns): forgotten when that
 * HyperNode is gone or the (sub-)job has no task on a node; a sub-job's
 * recovered from the nodes its tasks are on when it has none (after a
 * restart, as Volcano's cache loses them), and the job's then from the
 * lowest common ancestor of its sub-jobs'. Called once per job and
 * session. -ENOMEM.
 */
int vs_topo_job(struct vs_session *ssn, struct vs_topo *topo, struct vs_job *job,
		struct vs_topo_job *out, struct vs_topo_job *subs);

struct vs_subjob;
/* Keep HyperNode @h (VS_TOPO_NONE: none) as @sj's AllocatedHyperNode (NULL: the job's default one). */
int vs_topo_set_sub_hn(struct vs_session *ssn, struct vs_job *job, const struct vs_subjob *sj,
		       u32 h);

/*
 * Whether @task's sub-job (its job, without a subGroupPolicy) has a
 * network topology; if so, *@hn is that sub-job's AllocatedHyperNode as
 * allocate placed it (VS_TOPO_NONE: none yet).
 */
bool vs_topo_task_hn(const struct vs_session *ssn, const struct vs_task *task, u32 *hn);

#endif /* VS_SCHED_TOPOLOGY_H */

// SPDX-License-Identifier: Apache-2.0
/*
 * The session's view of the network topology (topology.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hypernode.h"
#include "core/log.h"
#include "sched/session.h"
#include "sched/subjob.h"
#include "sched/topology.h"

static int tier_cmp(const void *a, const void *b)
{
	s32 x = *(const s32 *)a, y = *(const s32 *)b;

	return (x > y) - (x < y);
}

/* The distinct tiers of the HyperNodes, ascending, then the top's one above. */
static int build_tiers(struct vs_arena *a, struct vs_topo *topo)
{
	u32 n = 0;

	topo->tiers = vs_arena_alloc(a, topo->nr * sizeof(*topo->tiers));
	if (!topo->tiers)
		return -ENOMEM;
	for (u32 i = 0; i < topo->top; i++)
		topo->tiers[n++] = topo->hns[i].tier;
	qsort(topo->tiers, n, sizeof(*topo->tiers), tier_cmp);
	topo->nr_tiers = 0;
	for (u32 i = 0; i < n; i++)
		if (!topo->nr_tiers || topo->tiers[topo->nr_tiers - 1] != topo->tiers[i])
			topo->tiers[topo->nr_tiers++] = topo->tiers[i];
	/* Volcano's top: one above the highest tier, and at least 1. */
	topo->hns[topo->top].tier = topo->nr_tiers ? topo->tiers[topo->nr_tiers - 1] + 1 : 1;
	topo->tiers[topo->nr_tiers++] = topo->hns[topo->top].tier;
	return 0;
}

/* Whether adding or taking away @r changes nothing: no amount, no scalar present. */
static bool res_none(const struct vs_res *r)
{
	return !r->present && !r->v[VS_RES_CPU] && !r->v[VS_RES_MEMORY];
}

static void sum_node(struct vs_topo_hn *h, const struct vs_node *node)
{
	struct vs_res future;

	vs_res_add(&h->allocatable, &node->allocatable);
	vs_res_add(&h->idle, &node->idle);
	vs_res_add(&h->used, &node->used);
	/* most nodes release nothing and have nothing pipelined: their FutureIdle is their idle */
	if (res_none(&node->releasing) && res_none(&node->pipelined)) {
		vs_res_add(&h->future_idle, &node->idle);
		return;
	}
	vs_node_future_idle(node, &future);
	vs_res_add(&h->future_idle, &future);
}

static void sum_child(struct vs_topo_hn *h, const struct vs_topo_hn *c)
{
	vs_res_add(&h->allocatable, &c->allocatable);
	vs_res_add(&h->idle, &c->idle);
	vs_res_add(&h->used, &c->used);
	vs_res_add(&h->future_idle, &c->future_idle);
}

static int node_sidx_cmp(const void *a, const void *b)
{
	const struct vs_node *x = *(struct vs_node *const *)a, *y = *(struct vs_node *const *)b;

	return (x->sidx > y->sidx) - (x->sidx < y->sidx);
}

/*
 * The session's nodes by name, for the leaves: both are the cluster's
 * interned strings, so that a leaf is found by its pointer, without the
 * string table's lookup and the name's hash that vs_node_find() pays (a
 * node is the leaf of a HyperNode of every tier: at 100,000 nodes that
 * was most of a session's view).
 */
struct node_map {
	struct {
		const char *name;	/* beside the node: a probe touches one line */
		struct vs_node *node;
	} *slot;
	u32 mask;
};

static u32 ptr_hash(const void *p)
{
	u64 x = (u64)(uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (u32)x;
}

static int node_map_build(struct vs_session *ssn, struct node_map *m)
{
	u32 size = 16;

	while (size < 2 * ssn->nr_nodes)
		size *= 2;
	m->slot = vs_arena_calloc(ssn->arena, size, sizeof(*m->slot));
	if (!m->slot)
		return -ENOMEM;
	m->mask = size - 1;
	for (u32 i = 0; i < ssn->nr_nodes; i++) {
		u32 at = ptr_hash(ssn->nodes[i]->name) & m->mask;

		while (m->slot[at].name)
			at = (at + 1) & m->mask;
		m->slot[at].name = ssn->nodes[i]->name;
		m->slot[at].node = ssn->nodes[i];
	}
	return 0;
}

static struct vs_node *node_map_find(const struct node_map *m, const char *iname)
{
	for (u32 at = ptr_hash(iname) & m->mask; m->slot[at].name; at = (at + 1) & m->mask)
		if (m->slot[at].name == iname)
			return m->slot[at].node;
	return NULL;
}

/* A HyperNode's session nodes: its leaves that are nodes, by sidx. */
static int build_nodes(struct vs_arena *a, const struct node_map *map, struct vs_topo_hn *h)
{
	const struct vs_hypernode *hn = h->hn;

	h->nodes = vs_arena_alloc(a, (hn->nr_leaves + 1) * sizeof(*h->nodes));
	if (!h->nodes)
		return -ENOMEM;
	for (u32 i = 0; i < hn->nr_leaves; i++) {
		struct vs_node *node = node_map_find(map, hn->leaves[i]);

		if (node)
			h->nodes[h->nr_nodes++] = node;
	}
	qsort(h->nodes, h->nr_nodes, sizeof(*h->nodes), node_sidx_cmp);
	return 0;
}

static int build_links(struct vs_arena *a, struct vs_topo *topo)
{
	struct vs_topo_hn *top = &topo->hns[topo->top];
	u32 nr_roots = 0;

	for (u32 i = 0; i < topo->top; i++) {
		struct vs_topo_hn *h = &topo->hns[i];
		struct vs_hypernode *child;
		u32 n = 0;

		h->parent = h->hn->parent ? h->hn->parent->sidx : topo->top;
		if (!h->hn->parent)
			nr_roots++;
		h->children = vs_arena_alloc(a, (h->hn->nr_children + 1) *
					     sizeof(*h->children));
		if (!h->children)
			return -ENOMEM;
		list_for_each_entry(child, &h->hn->children, sibling)
			h->children[n++] = child->sidx;
		h->nr_children = n;
	}
	top->parent = VS_TOPO_NONE;
	top->children = vs_arena_alloc(a, (nr_roots + 1) * sizeof(*top->children));
	if (!top->children)
		return -ENOMEM;
	for (u32 i = 0; i < topo->top; i++)
		if (topo->hns[i].parent == topo->top)
			top->children[top->nr_children++] = i;
	return 0;
}

static u32 depth_of(struct vs_topo *topo, u32 h)
{
	u32 d = 0;

	while (topo->hns[h].parent != VS_TOPO_NONE) {
		h = topo->hns[h].parent;
		d++;
	}
	return d;
}

/* Each node's HyperNode of the lowest tier in use, the first in creation order. */
static int build_low(struct vs_arena *a, struct vs_topo *topo)
{
	s32 lowest = topo->tiers[0];

	topo->low = vs_arena_alloc(a, (topo->nr_nodes + 1) * sizeof(*topo->low));
	if (!topo->low)
		return -ENOMEM;
	memset(topo->low, 0xff, (topo->nr_nodes + 1) * sizeof(*topo->low));
	for (u32 i = 0; i < topo->top; i++) {
		const struct vs_topo_hn *h = &topo->hns[i];

		if (h->tier != lowest)
			continue;
		for (u32 k = 0; k < h->nr_nodes; k++)
			if (topo->low[h->nodes[k]->sidx] == VS_TOPO_NONE)
				topo->low[h->nodes[k]->sidx] = i;
	}
	return 0;
}

/* Each node's HyperNodes, in creation order, the top last. */
static int build_of_node(struct vs_session *ssn, struct vs_arena *a, struct vs_topo *topo)
{
	u32 n = topo->nr_nodes, total = 0, *fill;

	topo->of_node_at = vs_arena_calloc(a, n + 2, sizeof(*topo->of_node_at));
	fill = vs_arena_calloc(ssn->arena, n + 1, sizeof(*fill));
	if (!topo->of_node_at || !fill)
		return -ENOMEM;
	for (u32 h = 0; h < topo->nr; h++)
		for (u32 k = 0; k < topo->hns[h].nr_nodes; k++)
			topo->of_node_at[topo->hns[h].nodes[k]->sidx + 1]++;
	for (u32 i = 0; i < n; i++) {
		total += topo->of_node_at[i + 1];
		topo->of_node_at[i + 1] = total;
	}
	topo->of_node = vs_arena_alloc(a, (total + 1) * sizeof(*topo->of_node));
	if (!topo->of_node)
		return -ENOMEM;
	for (u32 h = 0; h < topo->nr; h++)
		for (u32 k = 0; k < topo->hns[h].nr_nodes; k++) {
			u32 s = topo->hns[h].nodes[k]->sidx;

			topo->of_node[topo->of_node_at[s] + fill[s]++] = h;
		}
	return 0;
}

/*
 * Which HyperNodes sum their children rather than their nodes: those
 * whose children hold each of its nodes exactly once (a node chosen by
 * two children, or by the HyperNode itself and none of them, makes it sum
 * its nodes), so that the sums cost a pass over the lowest HyperNodes'
 * nodes and one over the links, not one per node and tier. And the
 * order the sums are made in: children before their parent.
 */
static int build_sums(struct vs_session *ssn, struct vs_arena *a, struct vs_topo *topo)
{
	u32 *stamp = vs_arena_calloc(ssn->arena, topo->nr_nodes + 1, sizeof(*stamp));
	u32 *at = vs_arena_calloc(ssn->arena, topo->nr + 2, sizeof(*at));
	u32 max_depth = 0;

	topo->sum_order = vs_arena_alloc(a, topo->nr * sizeof(*topo->sum_order));
	if (!stamp || !at || !topo->sum_order)
		return -ENOMEM;
	for (u32 i = 0; i < topo->nr; i++) {
		struct vs_topo_hn *h = &topo->hns[i];
		u32 mine = 2 * i + 1, seen = 2 * i + 2, covered = 0;
		bool exact = h->nr_children;

		for (u32 k = 0; k < h->nr_nodes; k++)
			stamp[h->nodes[k]->sidx] = mine;
		for (u32 c = 0; exact && c < h->nr_children; c++) {
			const struct vs_topo_hn *ch = &topo->hns[h->children[c]];

			for (u32 k = 0; exact && k < ch->nr_nodes; k++) {
				u32 *st = &stamp[ch->nodes[k]->sidx];

				exact = *st == mine;	/* not met yet, and one of its nodes */
				*st = seen;
				covered++;
			}
		}
		h->sum_children = exact && covered == h->nr_nodes;
		if (h->depth > max_depth)
			max_depth = h->depth;
	}
	/* deepest first: a counting sort by depth, creation order among equals */
	for (u32 i = 0; i < topo->nr; i++)
		at[max_depth - topo->hns[i].depth + 1]++;
	for (u32 d = 1; d <= max_depth + 1; d++)
		at[d] += at[d - 1];
	for (u32 i = 0; i < topo->nr; i++)
		topo->sum_order[at[max_depth - topo->hns[i].depth]++] = i;
	return 0;
}

/* The structure, into @a: what vs_topo_get() keeps while its sources hold. */
static int build(struct vs_session *ssn, struct vs_arena *a, struct vs_topo *topo)
{
	struct vs_cluster *cl = ssn->cl;
	struct vs_hypernode *hn;
	struct node_map map;
	struct vs_topo_hn *top;
	u32 n = 0;
	int ret;

	ret = node_map_build(ssn, &map);
	if (ret)
		return ret;
	topo->cl = cl;
	topo->node_gen = cl->node_gen;
	topo->hn_gen = cl->hypernodes.gen;
	topo->nr_nodes = ssn->nr_nodes;
	topo->nr = cl->hypernodes.nr + 1;
	topo->top = cl->hypernodes.nr;
	topo->hns = vs_arena_calloc(a, topo->nr, sizeof(*topo->hns));
	if (!topo->hns)
		return -ENOMEM;
	list_for_each_entry(hn, &cl->hypernodes.list, list) {
		struct vs_topo_hn *h = &topo->hns[n];

		hn->sidx = n++;
		h->name = hn->name;
		h->hn = hn;
		h->tier = hn->tier;
		ret = build_nodes(a, &map, h);
		if (ret)
			return ret;
	}
	top = &topo->hns[topo->top];
	top->name = VS_TOPO_TOP;
	top->nodes = vs_arena_alloc(a, (ssn->nr_nodes + 1) * sizeof(*top->nodes));
	if (!top->nodes)
		return -ENOMEM;
	for (u32 i = 0; i < ssn->nr_nodes; i++)
		top->nodes[top->nr_nodes++] = ssn->nodes[i];
	ret = build_tiers(a, topo);
	if (!ret)
		ret = build_links(a, topo);
	if (!ret)
		ret = build_low(a, topo);
	if (!ret)
		ret = build_of_node(ssn, a, topo);
	if (ret)
		return ret;
	for (u32 i = 0; i < topo->nr; i++)
		topo->hns[i].depth = depth_of(topo, i);
	return build_sums(ssn, a, topo);
}

/*
 * Whether the kept view still describes @cl: the same nodes in the same
 * slots (their sidx, and the pointers the view holds, are those of its
 * node generation: a node deleted, added or moved makes a new one) and the
 * same tree (the HyperNodes' sidx, names, tiers, links and nodes).
 */
static bool fresh(const struct vs_topo *topo, const struct vs_cluster *cl)
{
	return topo->cl == cl && topo->node_gen == cl->node_gen &&
	       topo->hn_gen == cl->hypernodes.gen && topo->nr_nodes == cl->nr_nodes;
}

void vs_topo_expire(struct vs_sched *sched)
{
	if (!sched->topo || fresh(sched->topo, sched->cl))
		return;
	sched->topo = NULL;
	vs_arena_destroy(&sched->topo_arena);
	vs_arena_init(&sched->topo_arena, 0);
}

/*
 * What a session must see afresh in a kept view: the sums over each
 * HyperNode's nodes as they are now (the plugin's resource cache; nothing
 * writes them but this), Ready(), and no task being placed.
 */
static void refresh(struct vs_topo *topo, const struct vs_cluster *cl)
{
	for (u32 k = 0; k < topo->nr; k++) {
		struct vs_topo_hn *h = &topo->hns[topo->sum_order[k]];

		vs_res_clear(&h->allocatable);
		vs_res_clear(&h->idle);
		vs_res_clear(&h->used);
		vs_res_clear(&h->future_idle);
		if (h->sum_children) {
			for (u32 c = 0; c < h->nr_children; c++)
				sum_child(h, &topo->hns[h->children[c]]);
		} else {
			for (u32 i = 0; i < h->nr_nodes; i++)
				sum_node(h, h->nodes[i]);
		}
	}
	topo->ready = vs_hypernodes_ready(cl);
	topo->task = NULL;
	topo->task_hn = VS_TOPO_NONE;
}

struct vs_topo *vs_topo_get(struct vs_session *ssn)
{
	struct vs_sched *sched = ssn->sched;
	struct vs_topo *topo;

	if (ssn->topo)
		return ssn->topo;
	vs_topo_expire(sched);
	topo = sched->topo;
	if (!topo) {
		topo = vs_arena_zalloc(&sched->topo_arena, sizeof(*topo));
		if (!topo || build(ssn, &sched->topo_arena, topo)) {
			vs_arena_destroy(&sched->topo_arena);
			vs_arena_init(&sched->topo_arena, 0);
			return NULL;
		}
		sched->topo = topo;
	}
	refresh(topo, ssn->cl);
	ssn->topo = topo;
	return topo;
}

u32 vs_topo_find(const struct vs_topo *topo, const struct vs_cluster *cl, const char *name)
{
	const struct vs_hypernode *hn;

	if (!name)
		return VS_TOPO_NONE;
	if (!strcmp(name, VS_TOPO_TOP))
		return topo->top;
	hn = vs_hypernode_find(cl, name);
	return hn ? hn->sidx : VS_TOPO_NONE;
}

u32 vs_topo_lca(const struct vs_topo *topo, u32 a, u32 b)
{
	if (a == VS_TOPO_NONE)
		return b;
	if (b == VS_TOPO_NONE)
		return a;
	while (topo->hns[a].depth > topo->hns[b].depth)
		a = topo->hns[a].parent;
	while (topo->hns[b].depth > topo->hns[a].depth)
		b = topo->hns[b].parent;
	while (a != b) {
		a = topo->hns[a].parent;
		b = topo->hns[b].parent;
	}
	return a;
}

bool vs_topo_has_node(const struct vs_topo *topo, u32 h, const struct vs_node *node)
{
	for (u32 i = topo->of_node_at[node->sidx]; i < topo->of_node_at[node->sidx + 1]; i++)
		if (topo->of_node[i] == h)
			return true;
	return false;
}

s32 vs_topo_tier_of_name(const struct vs_topo *topo, const char *tier_name)
{
	s32 tier = -1;

	for (u32 i = 0; i < topo->top; i++)
		if (topo->hns[i].hn->tier_name && !strcmp(topo->hns[i].hn->tier_name, tier_name))
			tier = topo->hns[i].tier;
	return tier;
}

struct holds {
	const struct vs_topo *topo;
	u32 h;
	bool any;			/* an allocated task was met */
};

/* Whether HyperNode hs->h holds @t's node, for an allocated task. */
static bool holds_task(const struct vs_task *t, void *arg)
{
	struct holds *hs = arg;

	if (!vs_task_status_allocated(t->status) || !t->node)
		return true;
	hs->any = true;
	return vs_topo_has_node(hs->topo, hs->h, t->node);
}

/*
 * Volcano's recoverAllocatedHyperNode for one sub-job (@sj, or NULL: the
 * job's only one, all its tasks): of the HyperNodes (the top included)
 * that hold every node its allocated tasks are on, the one of the lowest
 * tier (the first in creation order among equals, where Volcano takes one
 * in map order); VS_TOPO_NONE if none.
 */
static u32 recover_allocated(const struct vs_topo *topo, const struct vs_job *job,
			     const struct vs_subjob *sj)
{
	u32 best = VS_TOPO_NONE;

	for (u32 h = 0; h < topo->nr; h++) {
		struct holds hs = { .topo = topo, .h = h };

		if (best != VS_TOPO_NONE && topo->hns[h].tier >= topo->hns[best].tier)
			continue;
		if (vs_subjob_each_task(job, sj, holds_task, &hs))
			best = h;
		if (!hs.any)
			return VS_TOPO_NONE;
	}
	return best;
}

/*
 * adjustNetworkTopologySpec of @nt into @out: a highestTierName becomes
 * its tier, soft mode becomes hard within @soft_tier. @what names the
 * owner in the warning.
 */
static void adjust(const struct vs_topo *topo, const struct vs_job *job,
		   const struct vs_subjob *sj, const struct vs_net_topology *nt, s32 soft_tier,
		   struct vs_topo_job *out)
{
	bool has_tier = nt->has_highest_tier;

	out->with = true;
	out->highest_tier = nt->highest_tier;
	if (!nt->has_highest_tier && nt->highest_tier_name) {
		s32 tier = vs_topo_tier_of_name(topo, nt->highest_tier_name);

		if (tier >= 0) {
			has_tier = true;
			out->highest_tier = tier;
		} else if (sj) {
			vs_warn("Failed to translate highestTierName for subJob %s of job %s/%s: failed "
				"to find hypernode tier name %s, skip translation", sj->uid, job->ns,
				job->name, nt->highest_tier_name);
		} else {
			vs_warn("Failed to translate highestTierName for job %s/%s: failed to find "
				"hypernode tier name %s, skip translation", job->ns, job->name,
				nt->highest_tier_name);
		}
	}
	out->hard = nt->mode == VS_NT_HARD && has_tier;
	/* Soft mode takes the hard path with the top's tier: no HyperNode is filtered out. */
	if (nt->mode == VS_NT_SOFT) {
		out->hard = true;
		out->highest_tier = soft_tier;
	}
}

/* A sub-job's AllocatedHyperNode as the core keeps it: the default one's in the job. */
static const char *sub_hn(const struct vs_job *job, const struct vs_subjob *sj)
{
	if (!sj || sj->policy == VS_SUBJOB_DEFAULT)
		return job->sub_allocated_hn;
	return vs_job_subjob_hn(job, sj->uid);
}

int vs_topo_set_sub_hn(struct vs_session *ssn, struct vs_job *job, const struct vs_subjob *sj,
		       u32 h)
{
	const char *name = h == VS_TOPO_NONE ? NULL : ssn->topo->hns[h].name;

	if (!sj || sj->policy == VS_SUBJOB_DEFAULT)
		return vs_job_set_allocated_hn(ssn->cl, job, true, name);
	return vs_job_set_subjob_hn(ssn->cl, job, sj->uid, name);
}

/* removeInvalidAllocatedHyperNode and recoverAllocatedHyperNode of one sub-job. */
static int settle_sub(struct vs_session *ssn, struct vs_topo *topo, struct vs_job *job,
		      const struct vs_subjob *sj, bool with, u32 *allocated, bool *updated)
{
	const char *name = sub_hn(job, sj);
	u32 h;

	if (name && (vs_topo_find(topo, ssn->cl, name) == VS_TOPO_NONE ||
		     !(sj ? vs_subjob_allocated_num(sj) : vs_job_allocated_task_num(job)))) {
		vs_v(3, "remove allocated hyperNode for subJob %s AllocatedHyperNode %s",
		     sj ? sj->uid : job->name, name);
		if (vs_topo_set_sub_hn(ssn, job, sj, VS_TOPO_NONE))
			return -ENOMEM;
	}
	h = vs_topo_find(topo, ssn->cl, sub_hn(job, sj));
	if (h == VS_TOPO_NONE && with && (h = recover_allocated(topo, job, sj)) != VS_TOPO_NONE) {
		vs_v(3, "update subJob %s allocated hyperNode %s", sj ? sj->uid : job->name,
		     topo->hns[h].name);
		if (vs_topo_set_sub_hn(ssn, job, sj, h))
			return -ENOMEM;
		*updated = true;
	}
	*allocated = h;
	return 0;
}

int vs_topo_job(struct vs_session *ssn, struct vs_topo *topo, struct vs_job *job,
		struct vs_topo_job *out, struct vs_topo_job *subs)
{
	const struct vs_subjobs *sjs = vs_subjobs_of(ssn, job);
	const struct vs_net_topology *nt = &job->net_topology;
	bool updated = false, any = nt->set;
	s32 sub_tier = topo->hns[topo->top].tier;
	u32 allocated, lca = VS_TOPO_NONE;
	int ret;

	memset(out, 0, sizeof(*out));
	out->allocated = out->sub_allocated = VS_TOPO_NONE;
	if (nt->set) {
		adjust(topo, job, NULL, nt, topo->hns[topo->top].tier, out);
		/* a sub-job's soft mode stays within the job's tier */
		if (out->hard || nt->has_highest_tier)
			sub_tier = out->highest_tier;
	}
	for (u32 i = 0; sjs && i < sjs->nr; i++) {
		memset(&subs[i], 0, sizeof(subs[i]));
		subs[i].allocated = subs[i].sub_allocated = VS_TOPO_NONE;
		if (sjs->sj[i].nt) {
			adjust(topo, job, &sjs->sj[i], sjs->sj[i].nt, sub_tier, &subs[i]);
			any = true;
		}
	}
	if (!topo->ready || (!any && !job->allocated_hn))
		return 0;
	/* removeInvalidAllocatedHyperNode: the job's, then its sub-jobs' */
	if (job->allocated_hn && (vs_topo_find(topo, ssn->cl, job->allocated_hn) == VS_TOPO_NONE ||
				  !vs_job_allocated_task_num(job))) {
		vs_v(3, "remove allocated hyperNode for job %s/%s AllocatedHyperNode %s", job->ns,
		     job->name, job->allocated_hn);
		if (vs_job_set_allocated_hn(ssn->cl, job, false, NULL))
			return -ENOMEM;
	}
	/* recoverAllocatedHyperNode: the sub-jobs', then the job's from theirs */
	if (!sjs) {
		ret = settle_sub(ssn, topo, job, NULL, any, &out->sub_allocated, &updated);
		if (ret)
			return ret;
		lca = out->sub_allocated;
	}
	for (u32 i = 0; sjs && i < sjs->nr; i++) {
		ret = settle_sub(ssn, topo, job, &sjs->sj[i], subs[i].with && any,
				 &subs[i].allocated, &updated);
		if (ret)
			return ret;
		if (subs[i].allocated != VS_TOPO_NONE)
			lca = vs_topo_lca(topo, lca, subs[i].allocated);
	}
	allocated = vs_topo_find(topo, ssn->cl, job->allocated_hn);
	if (any && (allocated == VS_TOPO_NONE || updated) && allocated != lca) {
		allocated = lca;
		vs_v(3, "update job %s/%s allocated hyperNode %s", job->ns, job->name,
		     lca == VS_TOPO_NONE ? "" : topo->hns[lca].name);
		if (vs_job_set_allocated_hn(ssn->cl, job, false,
					    lca == VS_TOPO_NONE ? NULL : topo->hns[lca].name))
			return -ENOMEM;
	}
	out->allocated = allocated;
	return 0;
}

bool vs_topo_task_hn(const struct vs_session *ssn, const struct vs_task *task, u32 *hn)
{
	const struct vs_topo *topo = ssn->topo;
	const struct vs_subjob *sj = vs_subjob_of(ssn, task);

	if (sj ? !sj->nt : !task->job->net_topology.set)
		return false;
	*hn = topo && topo->task == task ? topo->task_hn : VS_TOPO_NONE;
	return true;
}

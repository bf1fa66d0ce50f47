// SPDX-License-Identifier: Apache-2.0
/*
 * The network-topology-aware plugin (Volcano's
 * plugins/network-topology-aware): which HyperNodes a job with a network
 * topology is tried in, in what order, and which nodes its tasks prefer.
 *
 * HyperNodeGradient, for a job (or sub-job) in hard mode (soft mode is made
 * hard by the session, sched/topology.h): a breadth-first walk down from
 * the search root (the root given, or, for a job already partly placed,
 * the highest ancestor of its AllocatedHyperNode within its highest tier
 * allowed) keeps the HyperNodes of a tier within that limit which could
 * hold the job's minimum resources (in their idle or future idle sums at
 * session open; every one when the job is partly placed; for eviction,
 * their allocatable), grouped by tier, lowest first. Eviction searches
 * take the gradients from the highest down and at most
 * hypernode.gradient.evict.max-hypernodes HyperNodes (8). A job without
 * hard mode gets the root alone.
 *
 * HyperNodeOrder: the bin-packing score of the HyperNode with the
 * sub-job's requests added to what its nodes use (0 when they would not
 * fit), weighed per resource; among the best, the share of the sub-job's
 * tasks already on the HyperNode is added; scaled by 100 * weight.
 *
 * BatchNodeOrder: for a task whose (sub-)job has a network topology, by
 * the tier of the lowest common ancestor of the node's HyperNode (of the
 * lowest tier) and the job's AllocatedHyperNode as the task is placed
 * (1 for the same HyperNode, (maxTier - tier) / (maxTier - minTier) for an
 * ancestor, 0 with no AllocatedHyperNode), the best ones again
 * tie-broken by the share of tasks; for any other task (when
 * hypernode.binpack.normal-pod.enable, true), the HyperNode bin-packing of
 * the task at every tier in use, the tier's weight fading by
 * hypernode.binpack.normal-pod.fading (0.8) per tier up. Scaled by
 * 100 * weight.
 *
 * The score of a task without a topology reads only its node's
 * HyperNodes: the plugin lets allocate's fast path add it node by node
 * (split_begin, split_score), with a bound made of each tier's best.
 *
 * Arguments (Volcano's): weight (1), hypernode.binpack.cpu (1),
 * hypernode.binpack.memory (1), hypernode.binpack.resources (a list) and
 * hypernode.binpack.resources.<name> (1) (a negative weight counts as 1),
 * hypernode.binpack.normal-pod.enable, hypernode.binpack.normal-pod.fading
 * (a negative one counts as 0.8), hypernode.gradient.evict.max-hypernodes
 * (8; 0 or less counts as 8).
 *
 * Where Volcano walks Go maps (children, the HyperNodes of a tier, equal
 * scores), vsched takes creation order.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "plugins/plugins.h"
#include "sched/session.h"
#include "sched/subjob.h"
#include "sched/topology.h"

#define MAX_NODE_SCORE 100

struct nettopo {
	s64 weight;			/* weight */
	s64 dim_weight[VS_RES_MAX];	/* hypernode.binpack.*; -1: not weighed */
	bool normal_enable;
	double fading;
	s64 evict_max;
	struct vs_topo *topo;
	struct vs_res *used;		/* by HyperNode: its nodes' used, as tasks come and go */
	double *raw;			/* scratch: a score per node or HyperNode */
	u32 *hn_of;			/* scratch: a HyperNode per node */
	s32 min_tier, max_tier;		/* of the tiers in use, the top's included */
	/*
	 * By HyperNode, the tasks of one sub-job on each (cnt_job's, of
	 * cnt_sj or all of them), kept as they come and go while the job's
	 * place_gen says no move was missed (the HyperNodes touched listed,
	 * to be zeroed when another sub-job is counted); and a task's
	 * bin-packing score on each, good while its stamp is the call's.
	 */
	u32 *count, *touched;
	u32 nr_touched;
	const struct vs_job *cnt_job;	/* NULL: nothing counted */
	const struct vs_subjob *cnt_sj;
	u32 cnt_gen;			/* cnt_job->place_gen that count follows */
	double *hn_score;
	u32 *hn_stamp, stamp;
	double *tier_weight;		/* fading^(t-1) for t in min_tier..max_tier, or NULL */
	double tier_total;
	/*
	 * The fast path's split (nettopo_split_begin()), by tier from
	 * min_tier when tier_weight is: whether a node has no HyperNode of
	 * the tier (NULL until asked), and the best score at the tier.
	 */
	bool *uncovered;
	double *tier_best;
	enum { SPLIT_NORMAL, SPLIT_ZERO, SPLIT_AWARE } split;
	/* SPLIT_AWARE: the (sub-)job's AllocatedHyperNode, and its task count */
	u32 split_allocated, split_nr_tasks;
};

/* Tier weights precomputed when the range of tiers is no wider than this. */
#define TIER_WEIGHTS_MAX	64

static int nettopo_check_conf(const struct vs_conf_plugin *cp, struct vs_err *err)
{
	double f;
	bool b;
	s64 w;

	return vs_args_get_int(&cp->args, "weight", &w, err) ?:
	       vs_args_get_int(&cp->args, "hypernode.gradient.evict.max-hypernodes", &w, err) ?:
	       vs_args_get_bool(&cp->args, "hypernode.binpack.normal-pod.enable", &b, err) ?:
	       vs_args_get_float(&cp->args, "hypernode.binpack.normal-pod.fading", &f, err) ?:
	       vs_res_weights_check(&cp->args, "hypernode.binpack", err);
}

static int view_init(struct vs_session *ssn, struct nettopo *nt);

static int nettopo_open(struct vs_session *ssn, struct vs_plugin *p)
{
	const struct vs_args *args = &p->conf->args;
	struct nettopo *nt = vs_arena_zalloc(ssn->arena, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	nt->weight = 1;
	vs_args_get_int(args, "weight", &nt->weight, NULL);
	if (nt->weight < 0)
		nt->weight = 1;
	vs_res_weights(args, "hypernode.binpack", &ssn->cl->dims, nt->dim_weight);
	nt->normal_enable = true;
	vs_args_get_bool(args, "hypernode.binpack.normal-pod.enable", &nt->normal_enable, NULL);
	nt->fading = 0.8;
	vs_args_get_float(args, "hypernode.binpack.normal-pod.fading", &nt->fading, NULL);
	if (nt->fading < 0)
		nt->fading = 0.8;
	nt->evict_max = 8;
	vs_args_get_int(args, "hypernode.gradient.evict.max-hypernodes", &nt->evict_max, NULL);
	if (nt->evict_max <= 0)
		nt->evict_max = 8;
	p->priv = nt;
	/*
	 * Volcano's resource cache is made when the session opens. A session
	 * with no pending task asks the plugin nothing (a quiet cycle): it
	 * makes no view, and a later call makes it then.
	 */
	for (u32 i = 0; i < ssn->nr_jobs; i++)
		if (ssn->jobs[i]->nr_by_status[VS_TASK_PENDING])
			return view_init(ssn, nt);
	return 0;
}

/* The session's view and what the plugin keeps by HyperNode. -ENOMEM. */
static int view_init(struct vs_session *ssn, struct nettopo *nt)
{
	nt->topo = vs_topo_get(ssn);
	if (!nt->topo)
		return -ENOMEM;
	nt->used = vs_arena_alloc(ssn->arena, nt->topo->nr * sizeof(*nt->used));
	nt->raw = vs_arena_alloc(ssn->arena, (ssn->nr_nodes + nt->topo->nr) * sizeof(*nt->raw));
	nt->hn_of = vs_arena_alloc(ssn->arena, (ssn->nr_nodes + 1) * sizeof(*nt->hn_of));
	if (!nt->used || !nt->raw || !nt->hn_of)
		return -ENOMEM;
	for (u32 h = 0; h < nt->topo->nr; h++)
		nt->used[h] = nt->topo->hns[h].used;
	nt->min_tier = nt->topo->tiers[0];
	nt->max_tier = nt->topo->tiers[nt->topo->nr_tiers - 1];
	nt->count = vs_arena_calloc(ssn->arena, nt->topo->nr, sizeof(*nt->count));
	nt->touched = vs_arena_alloc(ssn->arena, nt->topo->nr * sizeof(*nt->touched));
	nt->hn_score = vs_arena_alloc(ssn->arena, nt->topo->nr * sizeof(*nt->hn_score));
	nt->hn_stamp = vs_arena_calloc(ssn->arena, nt->topo->nr, sizeof(*nt->hn_stamp));
	if (!nt->count || !nt->touched || !nt->hn_score || !nt->hn_stamp)
		return -ENOMEM;
	for (s32 tier = nt->min_tier; tier <= nt->max_tier; tier++)
		nt->tier_total += pow(nt->fading, (double)(tier - 1));
	if ((s64)nt->max_tier - nt->min_tier < TIER_WEIGHTS_MAX) {
		nt->tier_weight = vs_arena_alloc(ssn->arena, (size_t)(nt->max_tier - nt->min_tier + 1) *
						 sizeof(*nt->tier_weight));
		if (!nt->tier_weight)
			return -ENOMEM;
		for (s32 tier = nt->min_tier; tier <= nt->max_tier; tier++)
			nt->tier_weight[tier - nt->min_tier] = pow(nt->fading, (double)(tier - 1));
		nt->tier_best = vs_arena_alloc(ssn->arena, (size_t)(nt->max_tier - nt->min_tier + 1) *
					       sizeof(*nt->tier_best));
		if (!nt->tier_best)
			return -ENOMEM;
	}
	return 0;
}

/* @p's state with its view, made now if the session opened without one; NULL: no memory. */
static struct nettopo *ready(struct vs_session *ssn, struct vs_plugin *p)
{
	struct nettopo *nt = p->priv;

	if (!nt->topo && view_init(ssn, nt)) {
		nt->topo = NULL;
		return NULL;
	}
	return nt;
}

/* The HyperNodes holding @node follow what @task takes there or gives back. */
static void follow(struct nettopo *nt, const struct vs_task *task, const struct vs_node *node,
		   bool add)
{
	const struct vs_topo *topo = nt->topo;

	if (!node)
		return;
	for (u32 i = topo->of_node_at[node->sidx]; i < topo->of_node_at[node->sidx + 1]; i++) {
		u32 h = topo->of_node[i];

		if (add)
			vs_res_add(&nt->used[h], task->req);
		else
			vs_res_sub(&nt->used[h], task->req);
	}
}

static void count_on(struct nettopo *nt, const struct vs_node *node, bool add);

/*
 * The counts of the sub-job counted follow @task, one of its job's, whose
 * event this is. Every event comes right after its task moved, or with no
 * move (an eviction and its undo keep the node): a place_gen one on from
 * the counts' is this task's move, equal is none; anything else means a
 * move was not seen, and the counts are made again when next asked.
 */
static void count_follow(struct vs_session *ssn, struct nettopo *nt, const struct vs_task *task,
			 const struct vs_node *node, bool add)
{
	u32 moved = task->job->place_gen - nt->cnt_gen;

	if (!moved)
		return;
	nt->cnt_gen = task->job->place_gen;
	if (moved != 1 || !node || (task->node != NULL) != add) {
		nt->cnt_job = NULL;
		return;
	}
	if (!nt->cnt_sj || vs_subjob_of(ssn, task) == nt->cnt_sj)
		count_on(nt, node, add);
}

/* Without a view yet there is nothing to follow: it sums the nodes as they are when made. */
static void nettopo_on_allocate(struct vs_session *ssn, struct vs_plugin *p, struct vs_task *task)
{
	struct nettopo *nt = p->priv;

	if (!nt->topo)
		return;
	follow(nt, task, task->node, true);
	if (nt->cnt_job == task->job)
		count_follow(ssn, nt, task, task->node, true);
}

static void nettopo_on_deallocate(struct vs_session *ssn, struct vs_plugin *p,
				  struct vs_task *task, struct vs_node *node)
{
	struct nettopo *nt = p->priv;

	if (!nt->topo)
		return;
	follow(nt, task, node, false);
	if (nt->cnt_job == task->job)
		count_follow(ssn, nt, task, node, false);
}

/* ---- gradients ---- */

/* The highest of @allocated and its ancestors within @tier, or VS_TOPO_NONE. */
static u32 highest_allowed(const struct vs_topo *topo, u32 allocated, s32 tier)
{
	u32 best = VS_TOPO_NONE;

	for (u32 h = allocated; h != VS_TOPO_NONE; h = topo->hns[h].parent) {
		if (topo->hns[h].tier > tier)
			break;
		best = h;
	}
	return best;
}

/* Volcano's getSearchRoot; VS_TOPO_NONE when the job cannot be placed under @root. */
static u32 search_root(const struct vs_topo *topo, const struct vs_hn_search *s)
{
	u32 allowed, lca;

	if (s->allocated == VS_TOPO_NONE)
		return s->root;
	allowed = highest_allowed(topo, s->allocated, s->highest_tier);
	if (allowed == VS_TOPO_NONE)
		return VS_TOPO_NONE;
	lca = vs_topo_lca(topo, s->root, allowed);
	if (lca == allowed)
		return s->root;
	if (lca == s->root)
		return allowed;
	return VS_TOPO_NONE;
}

static bool eligible(const struct nettopo *nt, u32 h, const struct vs_hn_search *s)
{
	const struct vs_topo_hn *t = &nt->topo->hns[h];

	if (t->tier > s->highest_tier)
		return false;
	if (s->allocated != VS_TOPO_NONE)
		return true;	/* partly placed: no filtering */
	if (s->purpose == VS_HN_EVICT)
		return vs_res_less_equal(s->min_res, &t->allocatable, VS_DIM_ZERO);
	return vs_res_less_equal(s->min_res, &t->idle, VS_DIM_ZERO) ||
	       vs_res_less_equal(s->min_res, &t->future_idle, VS_DIM_ZERO);
}

static int single(struct vs_session *ssn, u32 root, struct vs_hn_gradients *out)
{
	out->hns = vs_arena_alloc(ssn->arena, sizeof(*out->hns));
	out->start = vs_arena_alloc(ssn->arena, 2 * sizeof(*out->start));
	if (!out->hns || !out->start)
		return -ENOMEM;
	out->hns[0] = root;
	out->start[0] = 0;
	out->start[1] = 1;
	out->nr = 1;
	return 0;
}

/* The last @max HyperNodes of the gradients, the highest gradient first. */
static void reverse_and_cap(struct vs_hn_gradients *g, u32 *hns, u32 *start, s64 max)
{
	u32 n = 0, nr = 0;

	start[0] = 0;
	for (u32 k = g->nr; k-- > 0 && max > 0;) {
		u32 from = g->start[k], to = g->start[k + 1];

		if ((s64)(to - from) > max)
			from = to - (u32)max;
		for (u32 i = from; i < to; i++)
			hns[n++] = g->hns[i];
		max -= to - from;
		start[++nr] = n;
	}
	g->hns = hns;
	g->start = start;
	g->nr = nr;
}

static int nettopo_hn_gradient(struct vs_session *ssn, struct vs_plugin *p,
			       const struct vs_hn_search *s, struct vs_hn_gradients *out)
{
	const struct nettopo *nt = ready(ssn, p);
	const struct vs_topo *topo;
	u32 *queue, *by_tier, head = 0, tail = 0, n = 0, root;

	if (!nt)
		return -ENOMEM;
	topo = nt->topo;
	if (!s->hard)
		return single(ssn, s->root, out);
	root = search_root(topo, s);
	if (root == VS_TOPO_NONE) {
		vs_error("build hyperNode gradient fail job=\"%s/%s\" hyperNode=\"%s\": no "
		 "HyperNode within tier %d holds both the search root and the "
		 "allocated hyperNode", s->job->ns, s->job->name,
		 topo->hns[s->root].name, s->highest_tier);
		return -EINVAL;
	}
	queue = vs_arena_alloc(ssn->arena, topo->nr * sizeof(*queue));
	by_tier = vs_arena_alloc(ssn->arena, topo->nr * sizeof(*by_tier));
	out->hns = vs_arena_alloc(ssn->arena, topo->nr * sizeof(*out->hns));
	out->start = vs_arena_alloc(ssn->arena, (topo->nr_tiers + 1) * sizeof(*out->start));
	if (!queue || !by_tier || !out->hns || !out->start)
		return -ENOMEM;
	/* Breadth first (a tree: nothing is met twice), the eligible ones kept. */
	queue[tail++] = root;
	while (head < tail) {
		u32 h = queue[head++];
		const struct vs_topo_hn *t = &topo->hns[h];

		if (eligible(nt, h, s))
			by_tier[n++] = h;
		for (u32 c = 0; c < t->nr_children; c++)
			queue[tail++] = t->children[c];
	}
	/* Grouped by tier, ascending, in the walk's order within a tier. */
	out->nr = 0;
	out->start[0] = 0;
	for (u32 k = 0, m = 0; k < topo->nr_tiers; k++) {
		for (u32 i = 0; i < n; i++)
			if (topo->hns[by_tier[i]].tier == topo->tiers[k])
				out->hns[m++] = by_tier[i];
		if (m > out->start[out->nr])
			out->start[++out->nr] = m;
	}
	if (s->purpose == VS_HN_EVICT)
		reverse_and_cap(out, queue, by_tier, nt->evict_max);
	return 0;
}

/* ---- scores ---- */

/*
 * The bin-packing score of HyperNode @h with @req added to its use: the
 * weighed mean over the weighed resources @req asks for, 0 when one would
 * not fit.
 */
static double binpack(const struct nettopo *nt, u32 h, const struct vs_res *req)
{
	const struct vs_topo_hn *t = &nt->topo->hns[h];
	double score = 0;
	s64 weights = 0;

	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		double request = (double)vs_res_get(req, d);
		double allocatable = (double)vs_res_get(&t->allocatable, d);
		double used = (double)vs_res_get(&nt->used[h], d);
		s64 w = nt->dim_weight[d];

		if (request <= 0 || w < 0)
			continue;
		if (used + request > allocatable)
			return 0;
		score += (double)w * (used + request) / allocatable;
		weights += w;
	}
	return weights > 0 ? score / (double)weights : 0;
}

/* Count a task on @node, or one less, on each HyperNode holding it. */
static void count_on(struct nettopo *nt, const struct vs_node *node, bool add)
{
	const struct vs_topo *topo = nt->topo;

	for (u32 i = topo->of_node_at[node->sidx]; i < topo->of_node_at[node->sidx + 1]; i++) {
		u32 h = topo->of_node[i];

		if (!add) {
			nt->count[h]--;
			continue;
		}
		/* listed when first counted; a list as long as the HyperNodes is zeroed whole */
		if (!nt->count[h]++ && nt->nr_touched < topo->nr)
			nt->touched[nt->nr_touched++] = h;
	}
}

static bool count_task(const struct vs_task *t, void *arg)
{
	if (t->node)
		count_on(arg, t->node, true);
	return true;
}

/*
 * How many of the sub-job's tasks (@sj's, or all of @job's for its only
 * one) are on each HyperNode, in nt->count: counted afresh unless they are
 * those of this sub-job and every move of the job's tasks since was seen.
 */
static void count_tasks(struct nettopo *nt, const struct vs_job *job, const struct vs_subjob *sj)
{
	if (nt->cnt_job == job && nt->cnt_sj == sj && nt->cnt_gen == job->place_gen)
		return;
	if (nt->nr_touched < nt->topo->nr) {
		for (u32 i = 0; i < nt->nr_touched; i++)
			nt->count[nt->touched[i]] = 0;
	} else {
		memset(nt->count, 0, nt->topo->nr * sizeof(*nt->count));
	}
	nt->nr_touched = 0;
	vs_subjob_each_task(job, sj, count_task, nt);
	nt->cnt_job = job;
	nt->cnt_sj = sj;
	nt->cnt_gen = job->place_gen;
}

static bool add_request(const struct vs_task *t, void *req)
{
	vs_res_add(req, t->req);
	return true;
}

/* The share of @nr_tasks tasks on HyperNode @h's nodes (Volcano's scoreWithTaskNum), once counted. */
static double task_share(const struct nettopo *nt, u32 h, u32 nr_tasks)
{
	if (!nr_tasks || h == VS_TOPO_NONE)
		return 0;
	return (double)nt->count[h] / (double)nr_tasks;
}

static double scaled(const struct nettopo *nt, double score)
{
	return (double)MAX_NODE_SCORE * (double)nt->weight * score;
}

/* Among the best of @raw (more than one), add the share of the sub-job's tasks on each. */
static void break_ties(struct nettopo *nt, const struct vs_job *job, const struct vs_subjob *sj,
		       const u32 *hns, u32 nr, double *raw)
{
	double best = -1;
	u32 ties = 0;

	for (u32 i = 0; i < nr; i++)
		if (raw[i] > best)
			best = raw[i];
	for (u32 i = 0; i < nr; i++)
		ties += raw[i] == best;
	if (ties < 2)
		return;
	count_tasks(nt, job, sj);
	for (u32 i = 0; i < nr; i++)
		if (raw[i] == best)
			raw[i] += task_share(nt, hns[i], sj ? sj->nr_tasks : job->nr_tasks);
}

static void nettopo_hn_order(struct vs_session *ssn, struct vs_plugin *p,
			     const struct vs_hn_search *s, const u32 *hns, u32 nr, double *scores)
{
	struct nettopo *nt = ready(ssn, p);
	struct vs_res req;
	double *raw;

	if (!nt)
		return;		/* no memory for its view: no HyperNode scores */
	raw = nt->raw;
	/* What the sub-job's tasks ask for, every one of them. */
	vs_res_clear(&req);
	vs_subjob_each_task(s->job, s->sj, add_request, &req);
	for (u32 i = 0; i < nr; i++)
		raw[i] = binpack(nt, hns[i], &req);
	break_ties(nt, s->job, s->sj, hns, nr, raw);
	for (u32 i = 0; i < nr; i++)
		scores[i] += scaled(nt, raw[i]);
}

/* Volcano's scoreHyperNodeWithTier. */
static double tier_score(const struct nettopo *nt, s32 tier)
{
	if (nt->min_tier == nt->max_tier)
		return 1;
	if (tier >= nt->min_tier && tier <= nt->max_tier)
		return (double)(nt->max_tier - tier) / (double)(nt->max_tier - nt->min_tier);
	return 0;
}

/* A task of a (sub-)job with a network topology: near its AllocatedHyperNode. */
static void score_network_aware(struct nettopo *nt, const struct vs_task *task,
				const struct vs_subjob *sj, u32 allocated, struct vs_node *const *nodes,
				u32 nr, double *raw)
{
	const struct vs_topo *topo = nt->topo;

	for (u32 i = 0; i < nr; i++) {
		u32 h = topo->low[nodes[i]->sidx];

		raw[i] = 0;
		nt->hn_of[i] = h;
		if (allocated == VS_TOPO_NONE || h == VS_TOPO_NONE)
			continue;
		raw[i] = h == allocated ? 1 :
			 tier_score(nt, topo->hns[vs_topo_lca(topo, h, allocated)].tier);
	}
	if (allocated != VS_TOPO_NONE)
		break_ties(nt, task->job, sj, nt->hn_of, nr, raw);
}

/* @task's bin-packing score on HyperNode @h, computed once a call. */
static double hn_binpack(struct nettopo *nt, u32 h, const struct vs_task *task)
{
	if (nt->hn_stamp[h] != nt->stamp) {
		nt->hn_stamp[h] = nt->stamp;
		nt->hn_score[h] = binpack(nt, h, task->req);
	}
	return nt->hn_score[h];
}

/* A new call: every HyperNode's bin-packing score is stale. */
static void new_call(struct nettopo *nt)
{
	if (!++nt->stamp) {	/* wrapped: every stamp is stale again */
		memset(nt->hn_stamp, 0, nt->topo->nr * sizeof(*nt->hn_stamp));
		nt->stamp = 1;
	}
}

static double tier_weight(const struct nettopo *nt, s32 tier)
{
	return nt->tier_weight ? nt->tier_weight[tier - nt->min_tier] :
	       pow(nt->fading, (double)(tier - 1));
}

/*
 * Any other task on @node: the HyperNode bin-packing at every tier, fading
 * upwards; at each tier the node's first HyperNode of that tier, 1 where it
 * has none (Volcano's sum, term for term in the same order).
 */
static double normal_raw(struct nettopo *nt, const struct vs_task *task,
			 const struct vs_node *node)
{
	const struct vs_topo *topo = nt->topo;
	u32 at = topo->of_node_at[node->sidx], end = topo->of_node_at[node->sidx + 1];
	double sum = 0;

	for (s32 tier = nt->min_tier; tier <= nt->max_tier; tier++) {
		double score = 1;

		for (u32 k = at; k < end; k++) {
			if (topo->hns[topo->of_node[k]].tier != tier)
				continue;
			score = hn_binpack(nt, topo->of_node[k], task);
			break;
		}
		sum += tier_weight(nt, tier) * score;
	}
	return sum / nt->tier_total;
}

static void score_normal(struct nettopo *nt, const struct vs_task *task,
			 struct vs_node *const *nodes, u32 nr, double *raw)
{
	for (u32 i = 0; i < nr; i++)
		raw[i] = 0;
	if (nt->tier_total <= 0) {
		vs_warn("the total tier weight of plugin network-topology-aware should be greater "
			"than zero, but got %g", nt->tier_total);
		return;
	}
	new_call(nt);
	for (u32 i = 0; i < nr; i++)
		raw[i] = normal_raw(nt, task, nodes[i]);
}

static void nettopo_batch_node_order(struct vs_session *ssn, struct vs_plugin *p,
				     const struct vs_task *task, struct vs_node *const *nodes,
				     u32 nr, double *scores)
{
	struct nettopo *nt = ready(ssn, p);
	u32 allocated;
	double *raw;

	if (!nt)
		return;		/* no memory for its view: no node scores */
	raw = nt->raw;
	if (vs_topo_task_hn(ssn, task, &allocated)) {
		score_network_aware(nt, task, vs_subjob_of(ssn, task), allocated, nodes, nr, raw);
	} else {
		if (!nt->normal_enable)
			return;
		score_normal(nt, task, nodes, nr, raw);
	}
	for (u32 i = 0; i < nr; i++)
		scores[i] += scaled(nt, raw[i]);
}

/*
 * Whether each tier in use leaves a session node out (then that node scores
 * 1 at the tier), once a session, in nt->uncovered; -ENOMEM.
 */
static int find_uncovered(struct vs_session *ssn, struct nettopo *nt)
{
	const struct vs_topo *topo = nt->topo;
	u32 tiers = (u32)(nt->max_tier - nt->min_tier + 1);
	u32 *seen = vs_arena_calloc(ssn->arena, tiers, sizeof(*seen));

	nt->uncovered = vs_arena_calloc(ssn->arena, tiers, sizeof(*nt->uncovered));
	if (!seen || !nt->uncovered)
		return -ENOMEM;
	/* seen[t]: the last node (its sidx + 1) found with a HyperNode of tier t */
	for (u32 n = 0; n < ssn->nr_nodes; n++) {
		for (u32 k = topo->of_node_at[n]; k < topo->of_node_at[n + 1]; k++) {
			s32 tier = topo->hns[topo->of_node[k]].tier;

			if (tier >= nt->min_tier && tier <= nt->max_tier)
				seen[tier - nt->min_tier] = n + 1;
		}
		for (u32 t = 0; t < tiers; t++)
			if (seen[t] != n + 1)
				nt->uncovered[t] = true;
	}
	return 0;
}

/*
 * A task with a network topology among candidates under one lowest
 * HyperNode: every one has the same score by the tier of its common
 * ancestor with the AllocatedHyperNode, and being two or more they tie,
 * so each gets the share of the sub-job's tasks on that HyperNode too
 * (score_network_aware()).
 */
static double aware_raw(struct nettopo *nt, const struct vs_node *node)
{
	const struct vs_topo *topo = nt->topo;
	u32 h = topo->low[node->sidx], a = nt->split_allocated;

	if (a == VS_TOPO_NONE || h == VS_TOPO_NONE)
		return 0;
	return (h == a ? 1 : tier_score(nt, topo->hns[vs_topo_lca(topo, h, a)].tier)) +
	       task_share(nt, h, nt->split_nr_tasks);
}

/*
 * The fast path's split: a task without a network topology scores by its
 * node's HyperNodes alone. The bound is the same sum with, at each tier,
 * the best score of a HyperNode of that tier (1 when a node has none):
 * each term is at least the node's, and floating-point products, sums and
 * quotients of non-negative terms keep their order. A task with one, only
 * among the nodes of one lowest HyperNode (aware_raw()).
 */
static bool nettopo_split_begin(struct vs_session *ssn, struct vs_plugin *p,
				const struct vs_task *task, bool one_leaf, double *bound)
{
	struct nettopo *nt = ready(ssn, p);
	const struct vs_topo *topo;
	double sum = 0;
	u32 allocated;

	if (!nt)
		return false;
	if (vs_topo_task_hn(ssn, task, &allocated)) {
		const struct vs_subjob *sj = vs_subjob_of(ssn, task);

		if (!one_leaf)
			return false;
		nt->split = SPLIT_AWARE;
		nt->split_allocated = allocated;
		nt->split_nr_tasks = sj ? sj->nr_tasks : task->job->nr_tasks;
		if (allocated != VS_TOPO_NONE)
			count_tasks(nt, task->job, sj);
		*bound = scaled(nt, 2);		/* 1, and a share of at most 1 */
		return true;
	}
	nt->split = nt->normal_enable ? SPLIT_NORMAL : SPLIT_ZERO;
	if (nt->split == SPLIT_ZERO) {
		*bound = 0;
		return true;
	}
	/* what the scan warns about it warns about; a wide range of tiers is the scan's too */
	if (nt->tier_total <= 0 || !nt->tier_weight)
		return false;
	if (!nt->uncovered && find_uncovered(ssn, nt))
		return false;
	topo = nt->topo;
	new_call(nt);
	for (s32 tier = nt->min_tier; tier <= nt->max_tier; tier++)
		nt->tier_best[tier - nt->min_tier] = nt->uncovered[tier - nt->min_tier] ? 1 : 0;
	for (u32 h = 0; h < topo->nr; h++) {
		s32 tier = topo->hns[h].tier;
		double score;

		if (tier < nt->min_tier || tier > nt->max_tier)
			continue;
		score = hn_binpack(nt, h, task);
		if (score > nt->tier_best[tier - nt->min_tier])
			nt->tier_best[tier - nt->min_tier] = score;
	}
	for (s32 tier = nt->min_tier; tier <= nt->max_tier; tier++)
		sum += tier_weight(nt, tier) * nt->tier_best[tier - nt->min_tier];
	*bound = scaled(nt, sum / nt->tier_total);
	return true;
}

static double nettopo_split_score(struct vs_session *ssn, struct vs_plugin *p,
				  const struct vs_task *task, const struct vs_node *node)
{
	struct nettopo *nt = p->priv;

	switch (nt->split) {
	case SPLIT_ZERO:
		return 0;
	case SPLIT_AWARE:
		return scaled(nt, aware_raw(nt, node));
	case SPLIT_NORMAL:
		break;
	}
	return scaled(nt, normal_raw(nt, task, node));
}

const struct vs_plugin_ops vs_plugin_nettopo = {
	.name			= "network-topology-aware",
	.check_conf		= nettopo_check_conf,
	.open			= nettopo_open,
	.batch_node_order	= nettopo_batch_node_order,
	.split_begin		= nettopo_split_begin,
	.split_score		= nettopo_split_score,
	.on_allocate		= nettopo_on_allocate,
	.on_deallocate		= nettopo_on_deallocate,
	.hn_gradient		= nettopo_hn_gradient,
	.hn_order		= nettopo_hn_order,
};

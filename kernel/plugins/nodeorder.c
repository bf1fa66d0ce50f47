// SPDX-License-Identifier: Apache-2.0
/*
 * The nodeorder plugin (Volcano's plugins/nodeorder, which runs
 * kube-scheduler's score plugins): how good is each node that passed the
 * predicates for this task? Every score is a batch score, as Volcano's
 * BatchNodeOrderFn computes it: score each candidate (0..100, int64), let the
 * plugin normalise over the candidates if kube-scheduler's does, multiply by
 * the weight, and add the plugins up.
 *
 *   leastrequested.weight (1)	NodeResourcesFit LeastAllocated, cpu 50 memory 50:
 *				(alloc - req) * 100 / alloc per resource, weighted
 *				average; "non-zero" requests
 *   mostrequested.weight (0)	NodeResourcesFit MostAllocated, cpu 1 memory 1:
 *				min(req, alloc) * 100 / alloc, weighted average;
 *				"non-zero" requests
 *   balancedresource.weight (1) NodeResourcesBalancedAllocation over cpu,
 *				memory and nvidia.com/gpu: (1 - std of the
 *				req/alloc fractions) * 100; plain requests; not
 *				run for a task requesting none of the three
 *   nodeaffinity.weight (2)	NodeAffinity: the weights of the preferred terms
 *				the node matches, normalised to 0..100
 *   tainttoleration.weight (3)	TaintToleration: PreferNoSchedule taints not
 *				tolerated, normalised and reversed
 *   podaffinity.weight (2)	InterPodAffinity: preferred pod affinity and
 *				anti-affinity, min-max normalised
 *   imagelocality.weight (1)	ImageLocality: the sizes of the task's images
 *				the node has, each scaled by the share of the
 *				session's nodes that had it when the node was
 *				summarised, clamped to 23..1000 MiB a container,
 *				mapped to 0..100 (Volcano's NodeOrderFn part: not
 *				normalised, so scored here with the others)
 *   podtopologyspread.weight (2) PodTopologySpread: the task's ScheduleAnyway
 *				constraints, the pods in each candidate's domain
 *				scaled by ln(domains + 2) plus maxSkew - 1,
 *				reversed over the candidates; a candidate without
 *				the keys is ignored (0)
 *
 * "Non-zero" requests count 100m cpu and 200Mi memory for a task that
 * requests none, on the node and for the task, as kube-scheduler's
 * NonZeroRequested does; "plain" ones do not (its useRequested flag).
 * kube-scheduler sums a pod's extended resources in whole units
 * (Quantity.Value(), rounding up), so nvidia.com/gpu, which vsched keeps in
 * milli-units, is rounded up per task before it is summed.
 *
 * PodTopologySpread's system default constraints (Volcano's SystemDefaulting)
 * need the Services, ReplicaSets and StatefulSets a pod belongs to; vsched
 * does not model them, so a task without constraints of its own is not
 * scored by it, which is what kube-scheduler does when nothing is known.
 *
 * Which pods are on a node: kube-scheduler's NodeInfo, as Volcano builds it
 * at session open and as only the predicates plugin's event handlers update
 * it during the session. vsched reads its live nodes, which is the same
 * whenever predicates is configured (Volcano's default). Two traits of
 * Volcano's snapshot are kept on purpose: InterPodAffinity, for a task with
 * no preferred pod terms of its own, looks only at the nodes that hosted a
 * pod with pod (anti-)affinity when the session opened; and existing pods'
 * required affinity terms weigh nothing, because Volcano passes the plugin
 * an InterPodAffinityArgs whose HardPodAffinityWeight is zero.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/node.h"
#include "core/task.h"
#include "plugins/plugins.h"
#include "sched/session.h"

#define MAX_NODE_SCORE	100LL

enum {
	W_LEAST,
	W_MOST,
	W_BALANCED,
	W_NODE_AFFINITY,
	W_TAINT,
	W_POD_AFFINITY,
	W_IMAGE,
	W_SPREAD,
	W_NR
};

static const struct {
	const char *key;
	s64 def;
} weights[W_NR] = {
	[W_LEAST]		= { "leastrequested.weight", 1 },
	[W_MOST]		= { "mostrequested.weight", 0 },
	[W_BALANCED]		= { "balancedresource.weight", 1 },
	[W_NODE_AFFINITY]	= { "nodeaffinity.weight", 2 },
	[W_TAINT]		= { "tainttoleration.weight", 3 },
	[W_POD_AFFINITY]	= { "podaffinity.weight", 2 },
	[W_IMAGE]		= { "imagelocality.weight", 1 },
	[W_SPREAD]		= { "podtopologyspread.weight", 2 },
};

/* One (topology key, value) pair of InterPodAffinity's topologyScore and its sum. */
struct topo_score {
	const char *key;	/* interned, compared as pointers */
	const char *value;
	s64 score;
};

/* One domain of a ScheduleAnyway constraint among the candidates, and its pods. */
struct spread_domain {
	const char *value;		/* interned */
	s64 count;
};

struct nodeorder {
	s64 w[W_NR];
	int gpu;			/* the nvidia.com/gpu dimension, or -1 */
	s64 *raw;			/* one plugin's scores of the candidates */
	/* Nodes that hosted a pod with pod (anti-)affinity at session open. */
	struct vs_node **aff_nodes;
	u32 nr_aff_nodes;
	struct topo_score *topo;	/* malloc'd, kept for the session */
	u32 nr_topo, cap_topo;
	bool topo_nomem;
	/* PodTopologySpread's scratch, grown in the session's arena as tasks need */
	struct spread_scratch {
		struct spread_domain *dom;	/* constraints * candidates */
		size_t cap_dom;
		u32 *nr_dom;			/* by constraint */
		double *weight;
		u32 cap_k;
		bool *skip;			/* by candidate */
		u32 cap_skip;
	} sp;
};

static int nodeorder_check_conf(const struct vs_conf_plugin *cp, struct vs_err *err)
{
	s64 w;
	int ret;

	for (unsigned int i = 0; i < W_NR; i++)
		if ((ret = vs_args_get_int(&cp->args, weights[i].key, &w, err)))
			return ret;
	return 0;
}

static bool has_pod_terms(const struct vs_task *t)
{
	return t->affinity && (t->affinity->pod_affinity || t->affinity->pod_anti_affinity);
}

static int nodeorder_open(struct vs_session *ssn, struct vs_plugin *p)
{
	struct nodeorder *no = vs_arena_zalloc(ssn->arena, sizeof(*no));
	bool any = false;

	if (!no)
		return -ENOMEM;
	for (unsigned int i = 0; i < W_NR; i++) {
		no->w[i] = weights[i].def;
		vs_args_get_int(&p->conf->args, weights[i].key, &no->w[i], NULL);
	}
	no->gpu = vs_res_dim_lookup(&ssn->cl->dims, "nvidia.com/gpu", strlen("nvidia.com/gpu"));
	no->raw = vs_arena_calloc(ssn->arena, ssn->nr_nodes ? ssn->nr_nodes : 1, sizeof(s64));
	if (!no->raw)
		return -ENOMEM;
	/* Without a task that has pod terms, no node has one: no walk of every task. */
	if (no->w[W_POD_AFFINITY] && ssn->cl->nr_pod_affinity_tasks) {
		/* Volcano's snapshot lists these once, at open (HavePodsWithAffinityList). */
		no->aff_nodes = vs_arena_calloc(ssn->arena, ssn->nr_nodes ? ssn->nr_nodes : 1,
						sizeof(*no->aff_nodes));
		if (!no->aff_nodes)
			return -ENOMEM;
		for (u32 n = 0; n < ssn->nr_nodes; n++) {
			struct vs_task *t;

			list_for_each_entry(t, &ssn->nodes[n]->tasks, node_node)
				if (has_pod_terms(t)) {
					no->aff_nodes[no->nr_aff_nodes++] = ssn->nodes[n];
					break;
				}
		}
	}
	for (unsigned int i = 0; i < W_NR; i++)
		any |= no->w[i] != 0;
	if (!any)
		vs_plugin_disable(p, VS_EXT_BATCH_NODE_ORDER);
	p->priv = no;
	return 0;
}

static void nodeorder_close(struct vs_session *ssn, struct vs_plugin *p)
{
	struct nodeorder *no = p->priv;

	(void)ssn;
	if (no)
		free(no->topo);
}

/* ---- NodeResourcesFit and NodeResourcesBalancedAllocation ---- */

/* What one node and the task ask of cpu and memory, as the scorers see them. */
struct alloc_req {
	s64 alloc[2];
	s64 req[2];
};

static void cpu_mem(const struct vs_task *task, const struct vs_node *node, bool nonzero,
		    struct alloc_req *ar)
{
	s64 cpu, mem, nz_cpu, nz_mem;
	s64 tcpu = vs_res_get(task->req, VS_RES_CPU);
	s64 tmem = vs_res_get(task->req, VS_RES_MEMORY);

	vs_node_requested(node, &cpu, &mem, &nz_cpu, &nz_mem);
	if (nonzero) {
		cpu = nz_cpu;
		mem = nz_mem;
		tcpu = tcpu ? tcpu : VS_NONZERO_CPU;
		tmem = tmem ? tmem : VS_NONZERO_MEMORY;
	}
	ar->alloc[0] = vs_res_get(&node->allocatable, VS_RES_CPU);
	ar->alloc[1] = vs_res_get(&node->allocatable, VS_RES_MEMORY);
	ar->req[0] = vs_add_clamped(cpu, tcpu);
	ar->req[1] = vs_add_clamped(mem, tmem);
}

/*
 * @part * MAX_NODE_SCORE / @whole (0 <= @part <= @whole), in 128 bits where
 * 64 overflow: a node's allocatable may be any quantity up to the largest
 * int64, where the product would overflow (kube-scheduler's int64 wraps).
 */
static s64 score_of(s64 part, s64 whole)
{
	s64 prod;

	/* 64 bits while they do: a 128-bit division is a libgcc call, on every node scored */
	if (likely(!__builtin_mul_overflow(part, (s64)MAX_NODE_SCORE, &prod)))
		return prod / whole;
	return (s64)((__int128)part * MAX_NODE_SCORE / whole);
}

static s64 least_requested(s64 req, s64 alloc)
{
	if (req > alloc)
		return 0;
	return score_of(alloc - req, alloc);
}

static s64 most_requested(s64 req, s64 alloc)
{
	/* Defaults for pods without requests can take a node past its size. */
	if (req > alloc)
		req = alloc;
	return score_of(req, alloc);
}

/* kube-scheduler's weighted average over the resources the node has. */
static s64 allocated_score(const struct vs_task *task, const struct vs_node *node,
			   s64 (*fn)(s64 req, s64 alloc), s64 weight)
{
	struct alloc_req ar;
	s64 sum = 0, wsum = 0;

	cpu_mem(task, node, true, &ar);
	for (int i = 0; i < 2; i++) {
		if (ar.alloc[i] <= 0)
			continue;
		sum += fn(ar.req[i], ar.alloc[i]) * weight;
		wsum += weight;
	}
	return wsum ? sum / wsum : 0;
}

static s64 whole_units(s64 milli)
{
	return milli > 0 ? (milli + 999) / 1000 : milli;
}

/* What the node's tasks request of @dim, each rounded up to whole units. */
static s64 node_scalar_requested(const struct vs_node *node, int dim)
{
	const struct vs_task *t;
	s64 sum = 0;

	list_for_each_entry(t, &node->tasks, node_node)
		sum += whole_units(vs_res_get(t->req, (unsigned int)dim));
	return sum;
}

/* ---- ImageLocality ---- */

#define IMAGE_MB		(1024LL * 1024)
#define IMAGE_MIN_THRESHOLD	(23 * IMAGE_MB)
#define IMAGE_MAX_CONTAINER	(1000 * IMAGE_MB)

/*
 * kube-scheduler's ImageLocality on the node's summaries (core/images.h):
 * each of the pod's images the node has adds its size scaled by the share
 * of the session's nodes the summary counted; the sum, clamped between
 * 23 MiB and 1000 MiB a container, maps to 0..100.
 */
static s64 image_locality(const struct vs_task_images *im, const struct vs_node *node,
			  u32 total_nodes)
{
	s64 sum = 0, max = IMAGE_MAX_CONTAINER * (s64)im->nr;

	for (u32 i = 0; i < im->nr; i++) {
		const struct vs_node_image *s = vs_node_image_find(node->images, im->name[i]);

		if (s)
			sum += (s64)((double)s->size * ((double)s->num_nodes / (double)total_nodes));
	}
	if (sum < IMAGE_MIN_THRESHOLD)
		sum = IMAGE_MIN_THRESHOLD;
	else if (sum > max)
		sum = max;
	return MAX_NODE_SCORE * (sum - IMAGE_MIN_THRESHOLD) / (max - IMAGE_MIN_THRESHOLD);
}

static s64 balanced_score(const struct nodeorder *no, const struct vs_task *task,
			  const struct vs_node *node, s64 task_gpu)
{
	double frac[3], total = 0, std = 0;
	struct alloc_req ar;
	int nr = 0;

	cpu_mem(task, node, false, &ar);
	for (int i = 0; i < 2; i++) {
		if (ar.alloc[i] == 0)
			continue;
		frac[nr] = (double)ar.req[i] / (double)ar.alloc[i];
		if (frac[nr] > 1)
			frac[nr] = 1;
		total += frac[nr++];
	}
	/* An extended resource counts only when the task asks for it. */
	if (task_gpu && vs_res_has(&node->allocatable, (unsigned int)no->gpu)) {
		s64 alloc = whole_units(vs_res_get(&node->allocatable, (unsigned int)no->gpu));

		if (alloc) {
			frac[nr] = (double)(node_scalar_requested(node, no->gpu) + task_gpu) /
				   (double)alloc;
			if (frac[nr] > 1)
				frac[nr] = 1;
			total += frac[nr++];
		}
	}
	if (nr == 2) {
		std = frac[0] - frac[1];
		std = (std < 0 ? -std : std) / 2;
	} else if (nr > 2) {
		double mean = total / nr, sum = 0;

		for (int i = 0; i < nr; i++)
			sum += (frac[i] - mean) * (frac[i] - mean);
		std = sqrt(sum / nr);
	}
	return (s64)((1 - std) * (double)MAX_NODE_SCORE);
}

/* ---- normalisation (kube-scheduler's helper.DefaultNormalizeScore) ---- */

static void default_normalize(s64 *raw, u32 nr, bool reverse)
{
	s64 max = 0;

	for (u32 i = 0; i < nr; i++)
		if (raw[i] > max)
			max = raw[i];
	for (u32 i = 0; i < nr; i++) {
		if (!max) {
			if (reverse)
				raw[i] = MAX_NODE_SCORE;
			continue;
		}
		raw[i] = MAX_NODE_SCORE * raw[i] / max;
		if (reverse)
			raw[i] = MAX_NODE_SCORE - raw[i];
	}
}

static bool tolerated(const struct vs_task *task, const struct vs_taint *taint)
{
	for (u32 i = 0; task->tolerations && i < task->tolerations->nr; i++)
		if (vs_toleration_tolerates(&task->tolerations->t[i], taint))
			return true;
	return false;
}

static s64 intolerable_prefer_no_schedule(const struct vs_task *task, const struct vs_node *node)
{
	s64 n = 0;

	for (u32 i = 0; node->taints && i < node->taints->nr; i++)
		if (node->taints->t[i].effect == VS_TAINT_PREFER_NO_SCHEDULE &&
		    !tolerated(task, &node->taints->t[i]))
			n++;
	return n;
}

/* ---- InterPodAffinity ---- */

static void topo_add(struct nodeorder *no, const char *key, const struct vs_node *node, s64 delta)
{
	const char *value = vs_labels_get(node->labels, key);

	if (!value)
		return;
	if (no->nr_topo == no->cap_topo) {
		u32 cap = no->cap_topo ? 2 * no->cap_topo : 64;
		struct topo_score *t = realloc(no->topo, cap * sizeof(*t));

		if (!t) {
			no->topo_nomem = true;
			return;
		}
		no->topo = t;
		no->cap_topo = cap;
	}
	no->topo[no->nr_topo++] = (struct topo_score){ key, value, delta };
}

static int topo_cmp(const void *a, const void *b)
{
	const struct topo_score *l = a, *r = b;
	uintptr_t lk = (uintptr_t)l->key, rk = (uintptr_t)r->key;
	uintptr_t lv = (uintptr_t)l->value, rv = (uintptr_t)r->value;

	if (lk != rk)
		return lk < rk ? -1 : 1;
	return lv < rv ? -1 : lv > rv;
}

/* Sort the contributions by pair and add up each pair's. */
static void topo_merge(struct nodeorder *no)
{
	u32 out = 0;

	qsort(no->topo, no->nr_topo, sizeof(*no->topo), topo_cmp);
	for (u32 i = 0; i < no->nr_topo; i++) {
		if (out && !topo_cmp(&no->topo[out - 1], &no->topo[i]))
			no->topo[out - 1].score += no->topo[i].score;
		else
			no->topo[out++] = no->topo[i];
	}
	no->nr_topo = out;
}

static void weighted_terms(struct nodeorder *no, const struct vs_pod_affinity *pa,
			   const char *owner_ns, const struct vs_task *other,
			   const struct vs_node *node, s64 sign)
{
	for (u32 i = 0; pa && i < pa->nr_preferred; i++)
		if (vs_pod_affinity_term_match(&pa->preferred[i].term, owner_ns, other))
			topo_add(no, pa->preferred[i].term.topology_key, node,
				 sign * pa->preferred[i].weight);
}

/* processExistingPod: what @existing on @node adds to the topology scores. */
static void ipa_existing(struct nodeorder *no, const struct vs_task *task,
			 const struct vs_task *existing, const struct vs_node *node)
{
	const struct vs_affinity *in = task->affinity, *ex = existing->affinity;

	if (!node->labels)
		return;
	if (in) {
		weighted_terms(no, in->pod_affinity, task->ns, existing, node, 1);
		weighted_terms(no, in->pod_anti_affinity, task->ns, existing, node, -1);
	}
	/* The existing pod's required terms would weigh HardPodAffinityWeight: 0 in Volcano. */
	if (ex) {
		weighted_terms(no, ex->pod_affinity, existing->ns, task, node, 1);
		weighted_terms(no, ex->pod_anti_affinity, existing->ns, task, node, -1);
	}
}

static s64 topo_lookup(const struct nodeorder *no, u32 lo, u32 hi, const char *value)
{
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		uintptr_t v = (uintptr_t)no->topo[mid].value;

		if (v == (uintptr_t)value)
			return no->topo[mid].score;
		if (v < (uintptr_t)value)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static s64 topo_node_score(const struct nodeorder *no, const struct vs_node *node)
{
	s64 score = 0;

	for (u32 i = 0, j; i < no->nr_topo; i = j) {
		const char *value = vs_labels_get(node->labels, no->topo[i].key);

		for (j = i + 1; j < no->nr_topo && no->topo[j].key == no->topo[i].key; j++)
			;
		if (value)
			score += topo_lookup(no, i, j, value);
	}
	return score;
}

static bool has_preferred(const struct vs_pod_affinity *pa)
{
	return pa && pa->nr_preferred;
}

/*
 * PreScore, Score and NormalizeScore of InterPodAffinity. False when
 * PreScore would skip the plugin: no pair got any weight.
 */
static bool pod_affinity_scores(struct nodeorder *no, struct vs_session *ssn,
				const struct vs_task *task, struct vs_node *const *nodes, u32 nr)
{
	bool all = task->affinity && (has_preferred(task->affinity->pod_affinity) ||
				       has_preferred(task->affinity->pod_anti_affinity));
	u32 nr_scan = all ? ssn->nr_nodes : no->nr_aff_nodes;
	s64 min = INT64_MAX, max = INT64_MIN;

	/* Only preferred terms weigh: without any, no pair would get a weight. */
	if (!all && !ssn->cl->nr_pod_preferred_tasks)
		return false;
	no->nr_topo = 0;
	no->topo_nomem = false;
	for (u32 n = 0; n < nr_scan; n++) {
		const struct vs_node *node = all ? ssn->nodes[n] : no->aff_nodes[n];
		const struct vs_task *t;

		list_for_each_entry(t, &node->tasks, node_node)
			if (t != task && (all || has_pod_terms(t)))
				ipa_existing(no, task, t, node);
	}
	if (no->topo_nomem) {
		vs_warn("nodeorder: out of memory scoring pod affinity of %s/%s", task->ns,
			task->name);
		return false;
	}
	if (!no->nr_topo)
		return false;
	topo_merge(no);
	for (u32 i = 0; i < nr; i++) {
		no->raw[i] = topo_node_score(no, nodes[i]);
		if (no->raw[i] > max)
			max = no->raw[i];
		if (no->raw[i] < min)
			min = no->raw[i];
	}
	for (u32 i = 0; i < nr; i++) {
		double f = 0;

		if (max - min > 0)
			f = (double)MAX_NODE_SCORE *
			    ((double)(no->raw[i] - min) / (double)(max - min));
		no->raw[i] = (s64)f;
	}
	return true;
}

/* ---- the batch ---- */

/* ---- PodTopologySpread ---- */

static int by_domain(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct spread_domain *)a)->value;
	uintptr_t y = (uintptr_t)((const struct spread_domain *)b)->value;

	return x < y ? -1 : x > y;
}

static bool has_keys(const struct vs_spread_constraints *sc, const struct vs_node *node)
{
	for (u32 k = 0; k < sc->nr; k++)
		if (sc->c[k].when == VS_SPREAD_SCHEDULE_ANYWAY &&
		    !vs_labels_get(node->labels, sc->c[k].topology_key))
			return false;
	return true;
}

/*
 * kube-scheduler's PodTopologySpread score for the task's ScheduleAnyway
 * constraints, in @no->raw: a candidate without every constraint's key is
 * ignored (0); the others score, per constraint, the pods counted in their
 * domain times log(domains + 2), plus maxSkew - 1, rounded, where a
 * constraint's domains are those of the candidates (hostname: each
 * candidate) and its pods are counted over every node of the session that
 * has the keys and that its inclusion policies admit; then the scores are
 * reversed over the candidates (fewer pods, higher). False when the task
 * has no such constraint (PreScore skips) or memory ran out.
 */
/*
 * The scratch for @k constraints over @nr candidates, grown in the session's
 * arena (a steady cycle takes nothing from the heap); false: out of memory.
 */
static bool spread_scratch(struct vs_session *ssn, struct spread_scratch *sp, u32 k, u32 nr)
{
	if ((size_t)k * nr > sp->cap_dom) {
		sp->dom = vs_arena_alloc(ssn->arena, (size_t)k * nr * sizeof(*sp->dom));
		sp->cap_dom = sp->dom ? (size_t)k * nr : 0;
	}
	if (k > sp->cap_k) {
		sp->nr_dom = vs_arena_alloc(ssn->arena, k * sizeof(*sp->nr_dom));
		sp->weight = vs_arena_alloc(ssn->arena, k * sizeof(*sp->weight));
		sp->cap_k = sp->nr_dom && sp->weight ? k : 0;
	}
	if (nr > sp->cap_skip) {
		sp->skip = vs_arena_alloc(ssn->arena, nr * sizeof(*sp->skip));
		sp->cap_skip = sp->skip ? nr : 0;
	}
	if (!sp->cap_dom || !sp->cap_k || !sp->cap_skip)
		return false;
	memset(sp->nr_dom, 0, k * sizeof(*sp->nr_dom));
	return true;
}

static bool spread_scores(struct nodeorder *no, struct vs_session *ssn, const struct vs_task *task,
			  struct vs_node *const *nodes, u32 nr)
{
	const struct vs_spread_constraints *sc = vs_task_spread(task);
	const char *hostname = vs_str_find(&ssn->cl->strs, VS_HOSTNAME_LABEL,
					   sizeof(VS_HOSTNAME_LABEL) - 1);
	struct spread_domain *dom;
	u32 soft = 0, ignored = 0, *nr_dom;
	double *weight;
	bool *skip;
	s64 min = INT64_MAX, max = 0;
	s64 *raw = no->raw;

	for (u32 k = 0; sc && k < sc->nr; k++)
		soft += sc->c[k].when == VS_SPREAD_SCHEDULE_ANYWAY;
	if (!soft)
		return false;
	if (!spread_scratch(ssn, &no->sp, sc->nr, nr)) {
		vs_error("nodeorder: out of memory for PodTopologySpread scores of %s/%s",
			 task->ns, task->name);
		return false;
	}
	dom = no->sp.dom;
	nr_dom = no->sp.nr_dom;
	weight = no->sp.weight;
	skip = no->sp.skip;
	/* PreScore: the candidates' domains, each once. */
	for (u32 i = 0; i < nr; i++) {
		skip[i] = !has_keys(sc, nodes[i]);
		ignored += skip[i];
		for (u32 k = 0; !skip[i] && k < sc->nr; k++) {
			const struct vs_spread_constraint *c = &sc->c[k];

			if (c->when == VS_SPREAD_SCHEDULE_ANYWAY && c->topology_key != hostname)
				dom[(size_t)k * nr + nr_dom[k]++] = (struct spread_domain){
					.value = vs_labels_get(nodes[i]->labels, c->topology_key) };
		}
	}
	for (u32 k = 0; k < sc->nr; k++) {
		struct spread_domain *d = &dom[(size_t)k * nr];
		u32 n = 0;

		qsort(d, nr_dom[k], sizeof(*d), by_domain);
		for (u32 j = 0; j < nr_dom[k]; j++)
			if (!n || d[n - 1].value != d[j].value)
				d[n++] = d[j];
		nr_dom[k] = n;
		weight[k] = log((double)(sc->c[k].topology_key == hostname ? nr - ignored : n) + 2);
	}
	/* ... and their pods, over every node of the session. */
	for (u32 n = 0; n < ssn->nr_nodes; n++) {
		const struct vs_node *node = ssn->nodes[n];

		if (!has_keys(sc, node))
			continue;
		for (u32 k = 0; k < sc->nr; k++) {
			const struct vs_spread_constraint *c = &sc->c[k];
			struct spread_domain key, *d;

			if (c->when != VS_SPREAD_SCHEDULE_ANYWAY || c->topology_key == hostname ||
			    !nr_dom[k] || !vs_spread_node_included(c, task, node))
				continue;
			key.value = vs_labels_get(node->labels, c->topology_key);
			d = bsearch(&key, &dom[(size_t)k * nr], nr_dom[k], sizeof(*d), by_domain);
			if (d)
				d->count += vs_spread_count_on(c, task, node);
		}
	}
	/* Score, then NormalizeScore. */
	for (u32 i = 0; i < nr; i++) {
		double s = 0;

		raw[i] = 0;
		if (skip[i])
			continue;
		for (u32 k = 0; k < sc->nr; k++) {
			const struct vs_spread_constraint *c = &sc->c[k];
			struct spread_domain key, *d;
			s64 cnt = 0;

			if (c->when != VS_SPREAD_SCHEDULE_ANYWAY)
				continue;
			if (c->topology_key == hostname) {
				cnt = vs_spread_count_on(c, task, nodes[i]);
			} else {
				key.value = vs_labels_get(nodes[i]->labels, c->topology_key);
				d = bsearch(&key, &dom[(size_t)k * nr], nr_dom[k], sizeof(*d),
					    by_domain);
				cnt = d ? d->count : 0;
			}
			s += (double)cnt * weight[k] + (double)(c->max_skew - 1);
		}
		raw[i] = llround(s);
		if (raw[i] < min)
			min = raw[i];
		if (raw[i] > max)
			max = raw[i];
	}
	for (u32 i = 0; i < nr; i++) {
		if (skip[i])
			raw[i] = 0;
		else if (!max)
			raw[i] = MAX_NODE_SCORE;
		else
			raw[i] = MAX_NODE_SCORE * (max + min - raw[i]) / max;
	}
	return true;
}

static void add_weighted(double *scores, const s64 *raw, u32 nr, s64 weight)
{
	for (u32 i = 0; i < nr; i++)
		scores[i] += (double)(raw[i] * weight);
}

static void nodeorder_batch(struct vs_session *ssn, struct vs_plugin *p,
			    const struct vs_task *task, struct vs_node *const *nodes, u32 nr,
			    double *scores)
{
	struct nodeorder *no = p->priv;
	const struct vs_task_images *im;
	s64 *raw = no->raw;

	if (!nr)
		return;
	if (no->w[W_LEAST]) {
		for (u32 i = 0; i < nr; i++)
			raw[i] = allocated_score(task, nodes[i], least_requested, 50);
		add_weighted(scores, raw, nr, no->w[W_LEAST]);
	}
	if (no->w[W_MOST]) {
		for (u32 i = 0; i < nr; i++)
			raw[i] = allocated_score(task, nodes[i], most_requested, 1);
		add_weighted(scores, raw, nr, no->w[W_MOST]);
	}
	if (no->w[W_BALANCED]) {
		s64 gpu = no->gpu >= 0 ? whole_units(vs_res_get(task->req, (unsigned int)no->gpu))
				       : 0;

		/* PreScore skips best-effort tasks (kubernetes#129138). */
		if (vs_res_get(task->req, VS_RES_CPU) || vs_res_get(task->req, VS_RES_MEMORY) ||
		    gpu) {
			for (u32 i = 0; i < nr; i++)
				raw[i] = balanced_score(no, task, nodes[i], gpu);
			add_weighted(scores, raw, nr, no->w[W_BALANCED]);
		}
	}
	/*
	 * PreScore skips NodeAffinity for a task without preferred terms; the
	 * scores would all be 0 anyway.
	 */
	if (no->w[W_NODE_AFFINITY] && task->affinity && task->affinity->node_affinity &&
	    task->affinity->node_affinity->nr_preferred) {
		for (u32 i = 0; i < nr; i++)
			raw[i] = vs_node_affinity_preferred_score(task->affinity, nodes[i]);
		default_normalize(raw, nr, false);
		add_weighted(scores, raw, nr, no->w[W_NODE_AFFINITY]);
	}
	if (no->w[W_TAINT]) {
		for (u32 i = 0; i < nr; i++)
			raw[i] = intolerable_prefer_no_schedule(task, nodes[i]);
		default_normalize(raw, nr, true);
		add_weighted(scores, raw, nr, no->w[W_TAINT]);
	}
	if (no->w[W_POD_AFFINITY] && pod_affinity_scores(no, ssn, task, nodes, nr))
		add_weighted(scores, raw, nr, no->w[W_POD_AFFINITY]);
	if (no->w[W_SPREAD] && spread_scores(no, ssn, task, nodes, nr))
		add_weighted(scores, raw, nr, no->w[W_SPREAD]);
	im = vs_task_images(task);
	if (no->w[W_IMAGE] && im && ssn->nr_nodes) {
		for (u32 i = 0; i < nr; i++)
			raw[i] = image_locality(im, nodes[i], ssn->nr_nodes);
		add_weighted(scores, raw, nr, no->w[W_IMAGE]);
	}
}

const struct vs_plugin_ops vs_plugin_nodeorder = {
	.name			= "nodeorder",
	.check_conf		= nodeorder_check_conf,
	.open			= nodeorder_open,
	.close			= nodeorder_close,
	.batch_node_order	= nodeorder_batch,
};

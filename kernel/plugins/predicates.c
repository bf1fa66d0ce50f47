// SPDX-License-Identifier: Apache-2.0
/*
 * The predicates plugin (Volcano's plugins/predicates, which runs
 * kube-scheduler's filter plugins): may this task go to this node?
 *
 *   pod count		node(s) pod number exceeded
 *   NodeUnschedulable	node(s) were unschedulable (unless the pod tolerates
 *			node.kubernetes.io/unschedulable:NoSchedule)
 *   NodeAffinity	node(s) didn't match Pod's node affinity/selector (the
 *			node selector, and the required node affinity terms)
 *   TaintToleration	node(s) had untolerated taint {key: value}
 *			(NoSchedule and NoExecute taints only)
 *   NodePorts		node(s) didn't have free ports for the requested pod
 *			ports (a host port of the task's that a pod on the
 *			node holds: same protocol and port, and the same
 *			hostIP or either one 0.0.0.0)
 *
 * A node that is not Ready carries, as Kubernetes' node lifecycle controller
 * gives it, the taint node.kubernetes.io/not-ready:NoSchedule, and is
 * filtered by TaintToleration like any other taint.
 *
 *   InterPodAffinity	node(s) didn't match pod affinity rules
 *			node(s) didn't match pod anti-affinity rules
 *			node(s) didn't satisfy existing pods anti-affinity rules
 *
 * InterPodAffinity works as kube-scheduler's: PrePredicate (its PreFilter)
 * gathers, over the pods on nodes, the (topology key, value) pairs where the
 * task's required affinity terms find pods matching all of them, where its
 * required anti-affinity terms find a matching pod, and where an existing
 * pod's required anti-affinity term matches the task; Predicate looks the
 * node's labels up in those sets. A task whose affinity terms match itself
 * may go to any node carrying the topology keys while no pod matches them
 * yet (the first of a group of pods attracted to each other).
 *
 * As in Volcano's session snapshot, existing pods' anti-affinity is looked
 * for only on the nodes that hosted a pod with required anti-affinity when
 * the session opened (HavePodsWithRequiredAntiAffinityList is built once);
 * a task that brings the first such pod to a node in this session does not
 * repel later tasks there until the next session. When neither the task nor
 * any of those nodes has required pod (anti-)affinity, PreFilter skips the
 * plugin and nothing is scanned.
 *
 * A pod evicted in this session no longer counts on its node, for the pod
 * count, NodePorts and InterPodAffinity: Volcano's deallocate handler takes it off
 * kube-scheduler's NodeInfo at once (and puts it back if the eviction is
 * undone), while a pod that was already terminating when the session
 * opened stays there until it is gone. That is what lets preempt and
 * reclaim free a slot on a node that is full of pods.
 *
 *   PodTopologySpread	node(s) didn't match pod topology spread constraints
 *			(and " (missing required label)" for a node without
 *			a constraint's topology key, which no preemption helps)
 *
 * PodTopologySpread works as kube-scheduler's, for the task's own
 * DoNotSchedule constraints: PrePredicate counts, per constraint, the pods
 * in the task's namespace its selector picks (the task's matchLabelKeys
 * values joined; an empty selector picks none), not terminating, on each
 * node that has every constraint's topology key and that the constraint's
 * node inclusion policies admit (nodeAffinityPolicy Honor: the task's node
 * selector and required node affinity; nodeTaintsPolicy Honor: its
 * NoSchedule and NoExecute taints tolerated), by the node's domain (its
 * value of the key); Predicate refuses a node where the domain's count,
 * plus one if the task picks itself, exceeds the emptiest domain's by more
 * than maxSkew (the emptiest is 0 while fewer domains than minDomains
 * exist).
 *
 * The filter plugins for NodeAffinity, TaintToleration, NodePorts,
 * InterPodAffinity and PodTopologySpread can be switched off with
 * Volcano's arguments predicate.NodeAffinityEnable,
 * predicate.TaintTolerationEnable, predicate.NodePortsEnable,
 * predicate.PodAffinityEnable and predicate.PodTopologySpreadEnable (all
 * default true). The checks that need objects vsched does not model
 * (volumes, DRA) are not made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/plugins.h"
#include "sched/session.h"

/*
 * A set of (topology key, value) pairs, both interned; sorted once
 * gathered. It grows in the session's arena (a steady cycle takes nothing
 * from the heap): what it outgrows is left there until the session ends.
 */
struct topo_set {
	struct topo_pair {
		const char *key, *value;
	} *p;
	u32 nr, cap;
	struct vs_arena *arena;
};

/* One domain of a constraint: a value of its topology key, and the pods it counts there. */
struct pts_domain {
	const char *value;		/* interned */
	u32 count;
};

/* PodTopologySpread's PreFilter state for one DoNotSchedule constraint. */
struct pts_hard {
	const struct vs_spread_constraint *c;
	struct pts_domain *d;		/* by value pointer, each value once */
	u32 nr, cap;
	u32 min;			/* the emptiest domain's count */
	bool self;			/* the task picks itself */
};

struct predicates {
	bool node_affinity;
	bool taint_toleration;
	bool node_ports;
	bool pod_affinity;
	bool pod_topology_spread;
	/* Nodes that hosted a pod with required anti-affinity at session open. */
	struct vs_node **anti_nodes;
	u32 nr_anti_nodes;
	/* InterPodAffinity's PreFilter state, for ipa_task. */
	const struct vs_task *ipa_task;
	bool ipa_skip;
	struct topo_set affinity, anti_affinity, existing_anti;
	/* PodTopologySpread's PreFilter state, for pts_task. */
	const struct vs_task *pts_task;
	struct pts_hard *pts;
	u32 nr_pts, cap_pts;
	const char *unschedulable_key;	/* interned, or NULL if nobody uses it */
	const char *not_ready_key;
	const char *empty;		/* interned "" */
	/*
	 * Tasks evicted in this session, which the node no longer counts: a
	 * list per node (evicted_head, by node sidx) threaded through one heap
	 * array, whose freed entries are reused, so that finding one costs a
	 * walk of its node's alone.
	 */
	struct evicted_entry {
		const struct vs_task *task;
		u32 next;		/* NO_ENTRY ends a list */
	} *evicted;
	u32 nr_evicted, cap_evicted, free_evicted;
	u32 *evicted_head;		/* by node sidx */
	u32 *evicted_on;		/* how many, by node sidx */
};

#define NO_ENTRY	((u32)-1)

static int predicates_check_conf(const struct vs_conf_plugin *cp, struct vs_err *err)
{
	static const char *const keys[] = {
		"predicate.NodeAffinityEnable", "predicate.NodePortsEnable",
		"predicate.TaintTolerationEnable", "predicate.PodAffinityEnable",
		"predicate.NodeVolumeLimitsEnable", "predicate.VolumeZoneEnable",
		"predicate.PodTopologySpreadEnable", "predicate.VolumeBindingEnable",
		"predicate.DynamicResourceAllocationEnable", "predicate.CacheEnable",
	};
	bool b;
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if ((ret = vs_args_get_bool(&cp->args, keys[i], &b, err)))
			return ret;
	return 0;
}

static const struct vs_pod_affinity *required_anti(const struct vs_task *t)
{
	const struct vs_pod_affinity *pa = t->affinity ? t->affinity->pod_anti_affinity : NULL;

	return pa && pa->nr_required ? pa : NULL;
}

static const struct vs_pod_affinity *required_affinity(const struct vs_task *t)
{
	const struct vs_pod_affinity *pa = t->affinity ? t->affinity->pod_affinity : NULL;

	return pa && pa->nr_required ? pa : NULL;
}

static int find_anti_nodes(struct vs_session *ssn, struct predicates *st)
{
	/* No task has pod terms: no node has one (a walk of every task spared). */
	if (!ssn->cl->nr_pod_affinity_tasks)
		return 0;
	st->anti_nodes = vs_arena_calloc(ssn->arena, ssn->nr_nodes ? ssn->nr_nodes : 1,
					 sizeof(*st->anti_nodes));
	if (!st->anti_nodes)
		return -ENOMEM;
	for (u32 n = 0; n < ssn->nr_nodes; n++) {
		struct vs_task *t;

		list_for_each_entry(t, &ssn->nodes[n]->tasks, node_node)
			if (required_anti(t)) {
				st->anti_nodes[st->nr_anti_nodes++] = ssn->nodes[n];
				break;
			}
	}
	return 0;
}

static int predicates_open(struct vs_session *ssn, struct vs_plugin *p)
{
	struct predicates *st = vs_arena_zalloc(ssn->arena, sizeof(*st));
	int ret;

	if (!st)
		return -ENOMEM;
	st->node_affinity = true;
	st->taint_toleration = true;
	vs_args_get_bool(&p->conf->args, "predicate.NodeAffinityEnable", &st->node_affinity, NULL);
	vs_args_get_bool(&p->conf->args, "predicate.TaintTolerationEnable",
			 &st->taint_toleration, NULL);
	st->node_ports = true;
	vs_args_get_bool(&p->conf->args, "predicate.NodePortsEnable", &st->node_ports, NULL);
	st->pod_affinity = true;
	vs_args_get_bool(&p->conf->args, "predicate.PodAffinityEnable", &st->pod_affinity, NULL);
	st->pod_topology_spread = true;
	vs_args_get_bool(&p->conf->args, "predicate.PodTopologySpreadEnable",
			 &st->pod_topology_spread, NULL);
	if (st->pod_affinity && (ret = find_anti_nodes(ssn, st)))
		return ret;
	/* Interned keys are compared by pointer; absent ones cannot match. */
	st->unschedulable_key = vs_str_find(&ssn->cl->strs, "node.kubernetes.io/unschedulable",
					    strlen("node.kubernetes.io/unschedulable"));
	st->not_ready_key = vs_str_find(&ssn->cl->strs, "node.kubernetes.io/not-ready",
					strlen("node.kubernetes.io/not-ready"));
	st->empty = vs_str_find(&ssn->cl->strs, "", 0);
	st->evicted_on = vs_arena_calloc(ssn->arena, ssn->nr_nodes ? ssn->nr_nodes : 1,
					 sizeof(*st->evicted_on));
	st->evicted_head = vs_arena_alloc(ssn->arena, (ssn->nr_nodes ? ssn->nr_nodes : 1) *
					  sizeof(*st->evicted_head));
	if (!st->evicted_on || !st->evicted_head)
		return -ENOMEM;
	memset(st->evicted_head, 0xff, (ssn->nr_nodes ? ssn->nr_nodes : 1) *
	       sizeof(*st->evicted_head));
	st->free_evicted = NO_ENTRY;
	st->affinity.arena = st->anti_affinity.arena = st->existing_anti.arena = ssn->arena;
	p->priv = st;
	return 0;
}

static void predicates_close(struct vs_session *ssn, struct vs_plugin *p)
{
	struct predicates *st = p->priv;

	(void)ssn;
	if (!st)
		return;
	free(st->evicted);
	/* The session discards what is left open after its plugins closed. */
	st->evicted = NULL;
	st->nr_evicted = st->cap_evicted = 0;
	st->evicted_on = st->evicted_head = NULL;
}

/* ---- pods evicted in this session ---- */

static bool evicted_here(const struct predicates *st, const struct vs_task *t)
{
	if (t->status != VS_TASK_RELEASING || !t->node || !st->evicted_on ||
	    !st->evicted_on[t->node->sidx])
		return false;
	for (u32 e = st->evicted_head[t->node->sidx]; e != NO_ENTRY; e = st->evicted[e].next)
		if (st->evicted[e].task == t)
			return true;
	return false;
}

/* A Statement evicted @task (the only deallocation that leaves it Releasing). */
static void predicates_on_deallocate(struct vs_session *ssn, struct vs_plugin *p,
				     struct vs_task *task, struct vs_node *node)
{
	struct predicates *st = p->priv;
	u32 e, sidx;

	if (!st->evicted_on || task->status != VS_TASK_RELEASING || !task->node)
		return;
	if (st->free_evicted != NO_ENTRY) {
		e = st->free_evicted;
		st->free_evicted = st->evicted[e].next;
	} else {
		if (st->nr_evicted == st->cap_evicted) {
			u32 cap = st->cap_evicted ? 2 * st->cap_evicted : 16;
			struct evicted_entry *v = realloc(st->evicted, cap * sizeof(*v));

			/* Out of memory: it keeps counting, as a pod terminating before. */
			if (!v)
				return;
			st->evicted = v;
			st->cap_evicted = cap;
		}
		e = st->nr_evicted++;
	}
	sidx = task->node->sidx;
	st->evicted[e].task = task;
	st->evicted[e].next = st->evicted_head[sidx];
	st->evicted_head[sidx] = e;
	st->evicted_on[sidx]++;
}

/* An eviction undone puts the pod back on its node. */
static void predicates_on_allocate(struct vs_session *ssn, struct vs_plugin *p,
				   struct vs_task *task)
{
	struct predicates *st = p->priv;
	u32 *link;

	if (!st->evicted_on || !task->node || !st->evicted_on[task->node->sidx])
		return;
	for (link = &st->evicted_head[task->node->sidx]; *link != NO_ENTRY;
	     link = &st->evicted[*link].next) {
		u32 e = *link;

		if (st->evicted[e].task != task)
			continue;
		*link = st->evicted[e].next;
		st->evicted[e].next = st->free_evicted;
		st->free_evicted = e;
		st->evicted_on[task->node->sidx]--;
		return;
	}
}

/* ---- InterPodAffinity ---- */

/* Add (@key, the node's value of it) to @set; a node without the key adds nothing. */
static int topo_add(struct topo_set *set, const char *key, const struct vs_node *node)
{
	const char *value = vs_labels_get(node->labels, key);

	if (!value)
		return 0;
	if (set->nr == set->cap) {
		u32 cap = set->cap ? 2 * set->cap : 32;
		struct topo_pair *np = vs_arena_alloc(set->arena, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		if (set->nr)
			memcpy(np, set->p, set->nr * sizeof(*np));
		set->p = np;
		set->cap = cap;
	}
	set->p[set->nr++] = (struct topo_pair){ key, value };
	return 0;
}

static int pair_cmp(const void *a, const void *b)
{
	const struct topo_pair *l = a, *r = b;
	uintptr_t lk = (uintptr_t)l->key, rk = (uintptr_t)r->key;
	uintptr_t lv = (uintptr_t)l->value, rv = (uintptr_t)r->value;

	if (lk != rk)
		return lk < rk ? -1 : 1;
	return lv < rv ? -1 : lv > rv;
}

static void topo_sort(struct topo_set *set)
{
	u32 out = 0;

	if (!set->nr)
		return;		/* set->p may still be NULL */
	qsort(set->p, set->nr, sizeof(*set->p), pair_cmp);
	for (u32 i = 0; i < set->nr; i++)
		if (!out || pair_cmp(&set->p[out - 1], &set->p[i]))
			set->p[out++] = set->p[i];
	set->nr = out;
}

static bool topo_has(const struct topo_set *set, const char *key, const char *value)
{
	struct topo_pair k = { key, value };

	return set->nr && bsearch(&k, set->p, set->nr, sizeof(*set->p), pair_cmp);
}

/* kube-scheduler's podMatchesAllAffinityTerms: false when there are none. */
static bool matches_all(const struct vs_pod_affinity *pa, const char *owner_ns,
			const struct vs_task *t)
{
	if (!pa || !pa->nr_required)
		return false;
	for (u32 i = 0; i < pa->nr_required; i++)
		if (!vs_pod_affinity_term_match(&pa->required[i], owner_ns, t))
			return false;
	return true;
}

/* What one pod @t on @node adds to the task's own affinity and anti-affinity sets. */
static int ipa_incoming(struct predicates *st, const struct vs_task *task,
			const struct vs_task *t, const struct vs_node *node)
{
	const struct vs_pod_affinity *aff = required_affinity(task);
	const struct vs_pod_affinity *anti = required_anti(task);
	int ret;

	if (matches_all(aff, task->ns, t))
		for (u32 i = 0; i < aff->nr_required; i++)
			if ((ret = topo_add(&st->affinity, aff->required[i].topology_key, node)))
				return ret;
	for (u32 i = 0; anti && i < anti->nr_required; i++)
		if (vs_pod_affinity_term_match(&anti->required[i], task->ns, t) &&
		    (ret = topo_add(&st->anti_affinity, anti->required[i].topology_key, node)))
			return ret;
	return 0;
}

/*
 * PreFilter: gather the three sets for @task. The task's own terms look at
 * every pod on every node; existing pods' anti-affinity only at the nodes
 * listed at open.
 */
static int ipa_prepare(struct vs_session *ssn, struct predicates *st, const struct vs_task *task)
{
	bool own = required_affinity(task) || required_anti(task);
	int ret;

	st->ipa_task = task;
	st->affinity.nr = st->anti_affinity.nr = st->existing_anti.nr = 0;
	for (u32 n = 0; n < st->nr_anti_nodes; n++) {
		const struct vs_node *node = st->anti_nodes[n];
		const struct vs_task *t;

		list_for_each_entry(t, &node->tasks, node_node) {
			const struct vs_pod_affinity *anti = required_anti(t);

			if (evicted_here(st, t))
				continue;
			for (u32 i = 0; t != task && anti && i < anti->nr_required; i++)
				if (vs_pod_affinity_term_match(&anti->required[i], t->ns, task) &&
				    (ret = topo_add(&st->existing_anti,
						    anti->required[i].topology_key, node)))
					goto nomem;
		}
	}
	for (u32 n = 0; own && n < ssn->nr_nodes; n++) {
		const struct vs_node *node = ssn->nodes[n];
		const struct vs_task *t;

		list_for_each_entry(t, &node->tasks, node_node)
			if (t != task && !evicted_here(st, t) &&
			    (ret = ipa_incoming(st, task, t, node)))
				goto nomem;
	}
	topo_sort(&st->affinity);
	topo_sort(&st->anti_affinity);
	topo_sort(&st->existing_anti);
	st->ipa_skip = !own && !st->existing_anti.nr;
	return 0;
nomem:
	st->ipa_task = NULL;
	return ret;
}

/* ---- PodTopologySpread ---- */

static int by_value(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct pts_domain *)a)->value;
	uintptr_t y = (uintptr_t)((const struct pts_domain *)b)->value;

	return x < y ? -1 : x > y;
}

/* The domain of @value in @h, or NULL. */
static const struct pts_domain *pts_find(const struct pts_hard *h, const char *value)
{
	struct pts_domain key = { .value = value };

	return h->nr ? bsearch(&key, h->d, h->nr, sizeof(*h->d), by_value) : NULL;
}

/* Whether @node has the topology key of every DoNotSchedule constraint. */
static bool pts_node_has_keys(const struct predicates *st, const struct vs_node *node)
{
	for (u32 i = 0; i < st->nr_pts; i++)
		if (!vs_labels_get(node->labels, st->pts[i].c->topology_key))
			return false;
	return true;
}

/*
 * PreFilter: count the task's DoNotSchedule constraints' domains over every
 * node of the session. A node's count joins its domain's; the domains are
 * sorted by value and merged, so that a constraint over hostname costs a
 * sort of the nodes, not a search per node.
 */
static int pts_prepare(struct vs_session *ssn, struct predicates *st, const struct vs_task *task)
{
	const struct vs_spread_constraints *sc = vs_task_spread(task);
	u32 nr = 0;

	st->pts_task = task;
	st->nr_pts = 0;
	for (u32 i = 0; sc && i < sc->nr; i++)
		nr += sc->c[i].when == VS_SPREAD_DO_NOT_SCHEDULE;
	if (!nr)
		return 0;
	/* In the session's arena, as the topology sets (a steady cycle takes no heap). */
	if (nr > st->cap_pts) {
		struct pts_hard *h = vs_arena_calloc(ssn->arena, nr, sizeof(*h));

		if (!h)
			goto nomem;
		if (st->cap_pts)
			memcpy(h, st->pts, st->cap_pts * sizeof(*h));
		st->pts = h;
		st->cap_pts = nr;
	}
	for (u32 i = 0; i < sc->nr; i++) {
		const struct vs_spread_constraint *c = &sc->c[i];
		struct pts_hard *h = &st->pts[st->nr_pts];

		if (c->when != VS_SPREAD_DO_NOT_SCHEDULE)
			continue;
		if (h->cap < ssn->nr_nodes) {
			struct pts_domain *d = vs_arena_alloc(ssn->arena, ssn->nr_nodes * sizeof(*d));

			if (!d)
				goto nomem;
			h->d = d;
			h->cap = ssn->nr_nodes;
		}
		h->c = c;
		h->nr = 0;
		h->self = vs_spread_selects(c, task->labels, task->labels);
		st->nr_pts++;
	}
	for (u32 n = 0; n < ssn->nr_nodes; n++) {
		const struct vs_node *node = ssn->nodes[n];

		if (!pts_node_has_keys(st, node))
			continue;
		for (u32 i = 0; i < st->nr_pts; i++) {
			struct pts_hard *h = &st->pts[i];

			if (vs_spread_node_included(h->c, task, node))
				h->d[h->nr++] = (struct pts_domain){
					.value = vs_labels_get(node->labels, h->c->topology_key),
					.count = vs_spread_count_on(h->c, task, node),
				};
		}
	}
	for (u32 i = 0; i < st->nr_pts; i++) {
		struct pts_hard *h = &st->pts[i];
		u32 k = 0;

		qsort(h->d, h->nr, sizeof(*h->d), by_value);
		for (u32 j = 0; j < h->nr; j++) {
			if (k && h->d[k - 1].value == h->d[j].value)
				h->d[k - 1].count += h->d[j].count;
			else
				h->d[k++] = h->d[j];
		}
		h->nr = k;
		h->min = UINT32_MAX;
		for (u32 j = 0; j < h->nr; j++)
			if (h->d[j].count < h->min)
				h->min = h->d[j].count;
	}
	return 0;
nomem:
	st->pts_task = NULL;
	st->nr_pts = 0;
	return -ENOMEM;
}

/*
 * The constraints in order, as kube-scheduler's Filter takes them: a node
 * without the constraint's key is refused for good, one over its skew for
 * now, whichever comes first.
 */
static const char *pts_filter(const struct predicates *st, const struct vs_node *node,
			      bool *unresolvable)
{
	for (u32 i = 0; i < st->nr_pts; i++) {
		const struct pts_hard *h = &st->pts[i];
		const char *value = vs_labels_get(node->labels, h->c->topology_key);
		const struct pts_domain *d;
		s64 min, skew;

		*unresolvable = !value;
		if (!value)
			return "node(s) didn't match pod topology spread constraints (missing "
			       "required label)";
		/* no domain at all: kube-scheduler finds no count to compare with */
		if (!h->nr)
			continue;
		d = pts_find(h, value);
		min = h->nr < (u32)vs_spread_min_domains(h->c) ? 0 : h->min;
		skew = (s64)(d ? d->count : 0) + h->self - min;
		if (skew > h->c->max_skew)
			return "node(s) didn't match pod topology spread constraints";
	}
	*unresolvable = false;
	return NULL;
}

static int predicates_pre_predicate(struct vs_session *ssn, struct vs_plugin *p,
				    const struct vs_task *task, struct vs_fit_error *fe)
{
	struct predicates *st = p->priv;

	if (st->pod_affinity && ipa_prepare(ssn, st, task)) {
		vs_fit_say(fe, "out of memory in InterPodAffinity PreFilter", NULL);
		fe->unresolvable = false;
		return -EINVAL;
	}
	if (st->pod_topology_spread && pts_prepare(ssn, st, task)) {
		vs_fit_say(fe, "out of memory in PodTopologySpread PreFilter", NULL);
		fe->unresolvable = false;
		return -EINVAL;
	}
	return 0;
}

static const char *ipa_filter(const struct predicates *st, const struct vs_task *task,
			      const struct vs_node *node, bool *unresolvable)
{
	const struct vs_pod_affinity *aff = required_affinity(task);
	const struct vs_pod_affinity *anti = required_anti(task);

	if (st->ipa_skip)
		return NULL;
	if (aff) {
		bool pods_exist = true;

		for (u32 i = 0; i < aff->nr_required; i++) {
			const char *key = aff->required[i].topology_key;
			const char *value = vs_labels_get(node->labels, key);

			*unresolvable = true;
			/* every topology key must be on the node */
			if (!value)
				return "node(s) didn't match pod affinity rules";
			if (!topo_has(&st->affinity, key, value))
				pods_exist = false;
		}
		/* The first of a group of pods with affinity to each other. */
		if (!pods_exist && (st->affinity.nr || !matches_all(aff, task->ns, task)))
			return "node(s) didn't match pod affinity rules";
	}
	*unresolvable = false;
	for (u32 i = 0; anti && st->anti_affinity.nr && i < anti->nr_required; i++) {
		const char *key = anti->required[i].topology_key;
		const char *value = vs_labels_get(node->labels, key);

		if (value && topo_has(&st->anti_affinity, key, value))
			return "node(s) didn't match pod anti-affinity rules";
	}
	for (u32 i = 0; st->existing_anti.nr && node->labels && i < node->labels->nr; i++) {
		const struct vs_label *l = &node->labels->kv[i];

		if (topo_has(&st->existing_anti, l->key, l->value))
			return "node(s) didn't satisfy existing pods anti-affinity rules";
	}
	return NULL;
}

/*
 * NodePorts: does a pod on @node hold a port the task asks for? The node's
 * pods are walked only for a task with host ports on a node where some pod
 * has them; a pod evicted in this session holds none (see above).
 */
static int ports_filter(const struct predicates *st, const struct vs_task *task,
			const struct vs_node *node, struct vs_fit_error *fe)
{
	const struct vs_host_ports *want = vs_task_ports(task);
	const struct vs_task *t;

	if (!want || !node->nr_port_tasks)
		return 0;
	list_for_each_entry(t, &node->tasks, node_node)
		if (t != task && vs_host_ports_conflict(want, vs_task_ports(t)) &&
		    !evicted_here(st, t)) {
			vs_fit_say(fe, "node(s) didn't have free ports for the requested pod ports",
				   NULL);
			fe->unresolvable = false;
			return -EINVAL;
		}
	return 0;
}

static bool tolerates(const struct vs_task *task, const struct vs_taint *taint)
{
	for (u32 i = 0; task->tolerations && i < task->tolerations->nr; i++)
		if (vs_toleration_tolerates(&task->tolerations->t[i], taint))
			return true;
	return false;
}

/* Does the task tolerate a taint with @key (interned or NULL), no value and @effect? */
static bool tolerates_synthetic(const struct vs_task *task, const char *key,
				const char *empty, enum vs_taint_effect effect)
{
	struct vs_taint t = { .key = key, .value = empty, .effect = effect };

	if (!key || !empty)
		return false;	/* nobody interned it: no toleration can name it */
	return tolerates(task, &t);
}

static int taint_filter(const struct predicates *st, const struct vs_task *task,
			const struct vs_node *node, struct vs_fit_error *fe)
{
	if (!node->ready &&
	    !tolerates_synthetic(task, st->not_ready_key, st->empty, VS_TAINT_NO_SCHEDULE)) {
		vs_fit_say(fe, "node(s) had untolerated taint {node.kubernetes.io/not-ready: }",
			   NULL);
		fe->unresolvable = true;
		return -EINVAL;
	}
	for (u32 i = 0; node->taints && i < node->taints->nr; i++) {
		const struct vs_taint *t = &node->taints->t[i];

		if (t->effect == VS_TAINT_PREFER_NO_SCHEDULE || tolerates(task, t))
			continue;
		snprintf(fe->reason, sizeof(fe->reason), "node(s) had untolerated taint {%s: %s}",
			 t->key, t->value);
		fe->unresolvable = true;
		return -EINVAL;
	}
	return 0;
}

/*
 * NodeUnschedulable, NodeAffinity (with the node selector) and
 * TaintToleration: what the node's class decides (core/nodeclass.h), the
 * hostname label and node affinity's fields aside.
 */
static int class_filter(const struct predicates *st, const struct vs_task *task,
			const struct vs_node *node, struct vs_fit_error *fe)
{
	if (node->unschedulable &&
	    !tolerates_synthetic(task, st->unschedulable_key, st->empty, VS_TAINT_NO_SCHEDULE)) {
		vs_fit_say(fe, "node(s) were unschedulable", NULL);
		fe->unresolvable = true;
		return -EINVAL;
	}
	if (st->node_affinity && (!vs_labels_match(node->labels, task->node_selector) ||
				  !vs_node_affinity_required_match(task->affinity, node))) {
		vs_fit_say(fe, "node(s) didn't match Pod's node affinity/selector", NULL);
		fe->unresolvable = true;
		return -EINVAL;
	}
	if (st->taint_toleration)
		return taint_filter(st, task, node, fe);
	return 0;
}

static bool predicates_class_fails(struct vs_session *ssn, struct vs_plugin *p,
				   const struct vs_task *task, const struct vs_node *node)
{
	const char *hostname = vs_str_find(&ssn->cl->strs, VS_HOSTNAME_LABEL,
					   sizeof(VS_HOSTNAME_LABEL) - 1);
	struct vs_fit_error fe;

	/* Node affinity may name the node; a selector on the hostname is the node's own. */
	if (task->affinity || (hostname && vs_labels_get(task->node_selector, hostname)))
		return false;
	return class_filter(p->priv, task, node, &fe) != 0;
}

static int predicates_predicate(struct vs_session *ssn, struct vs_plugin *p,
				const struct vs_task *task, const struct vs_node *node,
				struct vs_fit_error *fe)
{
	struct predicates *st = p->priv;
	s64 max_pods = vs_res_get(&node->allocatable, VS_RES_PODS);
	const char *why;
	int ret;

	if (max_pods <= (s64)node->nr_tasks - st->evicted_on[node->sidx]) {
		vs_fit_say(fe, "node(s) pod number exceeded", NULL);
		fe->unresolvable = false;
		return -EINVAL;
	}
	if ((ret = class_filter(st, task, node, fe)))
		return ret;
	if (st->node_ports && (ret = ports_filter(st, task, node, fe)))
		return ret;
	/* PrePredicate gathered the states for the task last asked about; else gather now. */
	if (st->pod_affinity && st->ipa_task != task && ipa_prepare(ssn, st, task)) {
		vs_fit_say(fe, "out of memory in InterPodAffinity PreFilter", NULL);
		fe->unresolvable = false;
		return -EINVAL;
	}
	if (st->pod_affinity && (why = ipa_filter(st, task, node, &fe->unresolvable))) {
		vs_fit_say(fe, why, NULL);
		fe->elsewhere = true;
		return -EINVAL;
	}
	if (!st->pod_topology_spread || !vs_task_spread(task))
		return 0;
	if (st->pts_task != task && pts_prepare(ssn, st, task)) {
		vs_fit_say(fe, "out of memory in PodTopologySpread PreFilter", NULL);
		fe->unresolvable = false;
		return -EINVAL;
	}
	if ((why = pts_filter(st, node, &fe->unresolvable))) {
		vs_fit_say(fe, why, NULL);
		fe->elsewhere = true;
		return -EINVAL;
	}
	return 0;
}

const struct vs_plugin_ops vs_plugin_predicates = {
	.name		= "predicates",
	.check_conf	= predicates_check_conf,
	.open		= predicates_open,
	.close		= predicates_close,
	.pre_predicate	= predicates_pre_predicate,
	.predicate	= predicates_predicate,
	.class_fails	= predicates_class_fails,
	.on_allocate	= predicates_on_allocate,
	.on_deallocate	= predicates_on_deallocate,
};

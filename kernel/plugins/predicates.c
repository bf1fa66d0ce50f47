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
 * Both PreFilters read the pods their selectors may pick through the pods
 * by label (plugins/podindex.h), not a walk of every node's pods: the
 * pods on nodes indexed by the keys selectors anchor on, and the required
 * anti-affinity terms of the pods on the nodes listed at open, kept by the
 * plugin's allocate and deallocate events; and a constraint's domains and
 * counted nodes are made once per kind of task (struct pts_dset).
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
#include "plugins/podindex.h"
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

/* The values of one topology key over the session's nodes, an id each. */
struct key_domains {
	const char *key;		/* interned */
	u32 *of;			/* by node sidx: its value's id, NO_ENTRY without the key */
	u32 nr;				/* ids */
	/* the nodes of id i: nodes[start[i]] .. nodes[start[i + 1] - 1] (sidx) */
	u32 *start, *nodes;
};

/*
 * The nodes a DoNotSchedule constraint counts for a kind of task, and the
 * domains they make: those with the topology key of every DoNotSchedule
 * constraint of the task that the constraint's inclusion policies admit
 * (the task's node selector and node affinity, its tolerations). Made for
 * the first task of its kind and kept for the session: a job's tasks ask
 * for the same.
 */
struct pts_dset {
	const struct key_domains *kd;
	/* what it was made for */
	const struct vs_spread_constraints *sc;	/* a task's: its constraints' keys */
	const struct vs_spread_constraint *c;	/* the policies */
	const struct vs_labels *selector;
	const struct vs_node_affinity *node_affinity;
	const struct vs_tolerations *tols;
	u8 *inc;			/* by node sidx: counted */
	u8 *present;			/* by id: some counted node is in that domain */
	u32 nr_present;
	u32 *marked;			/* by id: the epoch its nodes were last marked in */
};

#define PTS_DSETS	32

/*
 * PodTopologySpread's PreFilter state for one DoNotSchedule constraint:
 * the pods counted in each domain (by id; zero but at touched[]).
 */
struct pts_hard {
	const struct vs_spread_constraint *c;
	const struct pts_dset *ds;
	u32 *count;
	u32 *touched;			/* the ids counted, each once */
	u32 nr_touched, cap;
	u32 min;			/* the emptiest domain's count */
	bool self;			/* the task picks itself */
};

struct predicates {
	bool node_affinity;
	bool taint_toleration;
	bool node_ports;
	bool pod_affinity;
	bool pod_topology_spread;
	/*
	 * Pods on nodes by the label keys selectors anchor on (plugins/
	 * podindex.h), each key indexed the first time a selector asks; and
	 * the required anti-affinity terms of the pods on the nodes that
	 * hosted such a pod at session open (anti_node[], by sidx), by their
	 * selectors' anchors. no_index: out of memory once, walk every pod.
	 */
	struct vs_pod_index pods, anti;
	const char **pod_keys;
	u32 nr_pod_keys, cap_pod_keys;
	u8 *anti_node;
	bool any_anti;
	bool no_index;
	/* PodTopologySpread's domains by key, and node sets by kind of task */
	struct key_domains *kds;
	u32 nr_kds, cap_kds;
	struct vs_pair_map dom_ids;	/* (key, value) -> id */
	struct pts_dset dsets[PTS_DSETS];
	u32 nr_dsets, next_dset;
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

/*
 * Put the required anti-affinity terms of @t (on @node) in st->anti, each
 * under its selector's anchor (or under none).
 */
static int anti_push(struct predicates *st, const struct vs_task *t, const struct vs_node *node)
{
	const struct vs_pod_affinity *anti = required_anti(t);

	for (u32 i = 0; anti && i < anti->nr_required; i++) {
		const struct vs_pod_affinity_term *term = &anti->required[i];
		const char *const *values;
		const char *key;
		u32 nr;

		if (!vs_pod_index_anchor(term->selector, &key, &values, &nr)) {
			if (vs_pod_index_push(&st->anti, NULL, NULL, t, node, term))
				return -ENOMEM;
			continue;
		}
		for (u32 v = 0; v < nr; v++)
			if (vs_pod_index_push(&st->anti, key, values[v], t, node, term))
				return -ENOMEM;
	}
	return 0;
}

static void anti_unlink(struct predicates *st, const struct vs_task *t)
{
	const struct vs_pod_affinity *anti = required_anti(t);

	for (u32 i = 0; anti && i < anti->nr_required; i++) {
		const char *const *values;
		const char *key;
		u32 nr;

		if (!vs_pod_index_anchor(anti->required[i].selector, &key, &values, &nr))
			vs_pod_index_unlink(&st->anti, NULL, NULL, t);
		for (u32 v = 0; v < nr && key; v++)
			vs_pod_index_unlink(&st->anti, key, values[v], t);
	}
}

/* As Volcano's snapshot: the nodes with a pod that has required anti-affinity, once, at open. */
static int find_anti_nodes(struct vs_session *ssn, struct predicates *st)
{
	/* No task has pod terms: no node has one (a walk of every task spared). */
	if (!ssn->cl->nr_pod_affinity_tasks)
		return 0;
	st->anti_node = vs_arena_calloc(ssn->arena, ssn->nr_nodes ? ssn->nr_nodes : 1, 1);
	if (!st->anti_node)
		return -ENOMEM;
	for (u32 n = 0; n < ssn->nr_nodes; n++) {
		struct vs_task *t;

		list_for_each_entry(t, &ssn->nodes[n]->tasks, node_node)
			if (required_anti(t)) {
				st->anti_node[n] = 1;
				st->any_anti = true;
				if (anti_push(st, t, ssn->nodes[n]))
					return -ENOMEM;
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
	vs_pod_index_init(&st->pods, ssn->arena);
	vs_pod_index_init(&st->anti, ssn->arena);
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

/* ---- the pods the indexes hold ---- */

/* @t arrived on its node: into the indexes. */
static void index_pod(struct predicates *st, const struct vs_task *t)
{
	for (u32 i = 0; i < st->nr_pod_keys; i++) {
		const char *value = vs_labels_get(t->labels, st->pod_keys[i]);

		if (value && vs_pod_index_push(&st->pods, st->pod_keys[i], value, t, t->node, NULL))
			st->no_index = true;
	}
	if (st->anti_node && st->anti_node[t->node->sidx] && required_anti(t) &&
	    anti_push(st, t, t->node))
		st->no_index = true;
}

/* @t left @node (its allocation or pipeline discarded): out of them. */
static void unindex_pod(struct predicates *st, const struct vs_task *t, const struct vs_node *node)
{
	for (u32 i = 0; i < st->nr_pod_keys; i++) {
		const char *value = vs_labels_get(t->labels, st->pod_keys[i]);

		if (value)
			vs_pod_index_unlink(&st->pods, st->pod_keys[i], value, t);
	}
	if (st->anti_node && st->anti_node[node->sidx] && required_anti(t))
		anti_unlink(st, t);
}

/*
 * Index the pods on nodes by @key (each key once in a session): 0, or
 * -ENOMEM (then nothing is read from the index any more).
 */
static int pods_key(struct vs_session *ssn, struct predicates *st, const char *key)
{
	for (u32 i = 0; i < st->nr_pod_keys; i++)
		if (st->pod_keys[i] == key)
			return 0;
	if (st->nr_pod_keys == st->cap_pod_keys) {
		u32 cap = st->cap_pod_keys ? 2 * st->cap_pod_keys : 8;
		const char **keys = vs_arena_alloc(ssn->arena, cap * sizeof(*keys));

		if (!keys)
			goto nomem;
		if (st->nr_pod_keys)
			memcpy(keys, st->pod_keys, st->nr_pod_keys * sizeof(*keys));
		st->pod_keys = keys;
		st->cap_pod_keys = cap;
	}
	for (u32 n = 0; n < ssn->nr_nodes; n++) {
		const struct vs_task *t;

		list_for_each_entry(t, &ssn->nodes[n]->tasks, node_node) {
			const char *value = vs_labels_get(t->labels, key);

			if (value && vs_pod_index_push(&st->pods, key, value, t, ssn->nodes[n], NULL))
				goto nomem;
		}
	}
	st->pod_keys[st->nr_pod_keys++] = key;
	return 0;
nomem:
	st->no_index = true;
	return -ENOMEM;
}

/* What for_pods() calls for each pod on a node, but the task, that a selector may pick. */
typedef int (*pod_fn)(struct predicates *st, const struct vs_task *task, const struct vs_task *t,
		      const struct vs_node *node, const void *arg);

/*
 * Call @fn for every pod on a node but @task that carries (@key, one of the
 * @nr @values) when @anchored, else for every pod on a node; stop at the
 * first error it returns.
 */
static int for_pods(struct vs_session *ssn, struct predicates *st, const struct vs_task *task,
		    bool anchored, const char *key, const char *const *values, u32 nr, pod_fn fn,
		    const void *arg)
{
	int ret;

	if (anchored && !st->no_index && (!nr || !pods_key(ssn, st, key))) {
		for (u32 v = 0; v < nr; v++)
			for (u32 e = vs_pod_index_first(&st->pods, key, values[v]); e != VS_PIDX_END;
			     e = vs_pod_index_entry(&st->pods, e)->next) {
				const struct vs_pod_entry *pe = vs_pod_index_entry(&st->pods, e);

				if (pe->t != task && (ret = fn(st, task, pe->t, pe->node, arg)))
					return ret;
			}
		return 0;
	}
	for (u32 n = 0; n < ssn->nr_nodes; n++) {
		const struct vs_task *t;

		list_for_each_entry(t, &ssn->nodes[n]->tasks, node_node)
			if (t != task && (ret = fn(st, task, t, ssn->nodes[n], arg)))
				return ret;
	}
	return 0;
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

	/* An allocation or a pipeline discarded: the pod left @node. */
	if (task->status != VS_TASK_RELEASING) {
		unindex_pod(st, task, node);
		return;
	}
	if (!st->evicted_on || !task->node)
		return;
	if (st->free_evicted != NO_ENTRY) {
		e = st->free_evicted;
		st->free_evicted = st->evicted[e].next;
	} else {
		if (st->nr_evicted == st->cap_evicted) {
			u32 cap = st->cap_evicted ? 2 * st->cap_evicted : 16;
			struct evicted_entry *v = realloc(st->evicted, cap * sizeof(*v));

			/*
			 * Out of memory: it keeps counting, as a pod terminating
			 * before; and the indexes would take it in twice if the
			 * eviction were undone.
			 */
			if (!v) {
				st->no_index = true;
				return;
			}
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

/* An eviction undone puts the pod back on its node: true when @task's was. */
static bool eviction_undone(struct predicates *st, const struct vs_task *task)
{
	u32 *link;

	if (!st->evicted_on || !st->evicted_on[task->node->sidx])
		return false;
	for (link = &st->evicted_head[task->node->sidx]; *link != NO_ENTRY;
	     link = &st->evicted[*link].next) {
		u32 e = *link;

		if (st->evicted[e].task != task)
			continue;
		*link = st->evicted[e].next;
		st->evicted[e].next = st->free_evicted;
		st->free_evicted = e;
		st->evicted_on[task->node->sidx]--;
		return true;
	}
	return false;
}

/* A pod placed on a node, or one whose eviction was undone. */
static void predicates_on_allocate(struct vs_session *ssn, struct vs_plugin *p,
				   struct vs_task *task)
{
	struct predicates *st = p->priv;

	if (!task->node || eviction_undone(st, task))
		return;
	index_pod(st, task);
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

/* A pod that matches all of the task's required affinity terms: their domains. */
static int affinity_pod(struct predicates *st, const struct vs_task *task, const struct vs_task *t,
			const struct vs_node *node, const void *arg)
{
	const struct vs_pod_affinity *aff = arg;
	int ret;

	if (evicted_here(st, t) || !matches_all(aff, task->ns, t))
		return 0;
	for (u32 i = 0; i < aff->nr_required; i++)
		if ((ret = topo_add(&st->affinity, aff->required[i].topology_key, node)))
			return ret;
	return 0;
}

/* A pod that one of the task's required anti-affinity terms matches: its domain. */
static int anti_pod(struct predicates *st, const struct vs_task *task, const struct vs_task *t,
		    const struct vs_node *node, const void *arg)
{
	const struct vs_pod_affinity_term *term = arg;

	if (evicted_here(st, t) || !vs_pod_affinity_term_match(term, task->ns, t))
		return 0;
	return topo_add(&st->anti_affinity, term->topology_key, node);
}

/*
 * The task's own required terms over the pods on nodes: a pod must match
 * every affinity term, so any term's anchor finds the candidates; each
 * anti-affinity term looks by its own.
 */
static int ipa_own(struct vs_session *ssn, struct predicates *st, const struct vs_task *task)
{
	const struct vs_pod_affinity *aff = required_affinity(task);
	const struct vs_pod_affinity *anti = required_anti(task);
	const char *const *values = NULL;
	const char *key = NULL;
	bool anchored = false;
	u32 nr = 0;
	int ret;

	for (u32 i = 0; aff && !anchored && i < aff->nr_required; i++)
		anchored = vs_pod_index_anchor(aff->required[i].selector, &key, &values, &nr);
	if (aff && (ret = for_pods(ssn, st, task, anchored, key, values, nr, affinity_pod, aff)))
		return ret;
	for (u32 i = 0; anti && i < anti->nr_required; i++) {
		const struct vs_pod_affinity_term *term = &anti->required[i];

		anchored = vs_pod_index_anchor(term->selector, &key, &values, &nr);
		if ((ret = for_pods(ssn, st, task, anchored, key, values, nr, anti_pod, term)))
			return ret;
	}
	return 0;
}

/* An existing pod's anti-affinity term, of st->anti's entry @pe, that may repel @task. */
static int existing_term(struct predicates *st, const struct vs_task *task,
			 const struct vs_pod_entry *pe)
{
	const struct vs_pod_affinity_term *term = pe->what;

	if (pe->t == task || evicted_here(st, pe->t) ||
	    !vs_pod_affinity_term_match(term, pe->t->ns, task))
		return 0;
	return topo_add(&st->existing_anti, term->topology_key, pe->node);
}

/*
 * The existing pods' required anti-affinity terms that match @task: those
 * anchored on one of its labels, and those anchored on none.
 */
static int ipa_existing(struct vs_session *ssn, struct predicates *st, const struct vs_task *task)
{
	u32 nr = vs_labels_count(task->labels);
	int ret;

	if (st->no_index) {
		for (u32 n = 0; n < ssn->nr_nodes; n++) {
			const struct vs_node *node = ssn->nodes[n];
			const struct vs_task *t;

			if (!st->anti_node[n])
				continue;
			list_for_each_entry(t, &node->tasks, node_node) {
				const struct vs_pod_affinity *anti = required_anti(t);

				for (u32 i = 0; anti && i < anti->nr_required; i++) {
					struct vs_pod_entry pe = { .t = t, .node = node,
								   .what = &anti->required[i] };

					if ((ret = existing_term(st, task, &pe)))
						return ret;
				}
			}
		}
		return 0;
	}
	for (u32 l = 0; l <= nr; l++) {
		u32 e = l < nr ? vs_pod_index_first(&st->anti, task->labels->kv[l].key,
						    task->labels->kv[l].value)
			       : vs_pod_index_first(&st->anti, NULL, NULL);

		for (; e != VS_PIDX_END; e = vs_pod_index_entry(&st->anti, e)->next)
			if ((ret = existing_term(st, task, vs_pod_index_entry(&st->anti, e))))
				return ret;
	}
	return 0;
}

/*
 * PreFilter: gather the three sets for @task. The task's own terms look at
 * the pods on every node their selectors may pick; existing pods'
 * anti-affinity only at the nodes listed at open.
 */
static int ipa_prepare(struct vs_session *ssn, struct predicates *st, const struct vs_task *task)
{
	bool own = required_affinity(task) || required_anti(task);
	int ret;

	st->ipa_task = task;
	st->affinity.nr = st->anti_affinity.nr = st->existing_anti.nr = 0;
	if ((st->any_anti && (ret = ipa_existing(ssn, st, task))) ||
	    (own && (ret = ipa_own(ssn, st, task)))) {
		st->ipa_task = NULL;
		return ret;
	}
	topo_sort(&st->affinity);
	topo_sort(&st->anti_affinity);
	topo_sort(&st->existing_anti);
	st->ipa_skip = !own && !st->existing_anti.nr;
	return 0;
}

/* ---- PodTopologySpread ---- */

/* The ids of @key's values over the session's nodes, made on first use; NULL: out of memory. */
static const struct key_domains *key_domains(struct vs_session *ssn, struct predicates *st,
					     const char *key)
{
	struct key_domains *kd;
	u32 *fill;

	for (u32 i = 0; i < st->nr_kds; i++)
		if (st->kds[i].key == key)
			return &st->kds[i];
	if (st->nr_kds == st->cap_kds) {
		u32 cap = st->cap_kds ? 2 * st->cap_kds : 4;
		struct key_domains *kds = vs_arena_alloc(ssn->arena, cap * sizeof(*kds));

		if (!kds)
			return NULL;
		if (st->nr_kds)
			memcpy(kds, st->kds, st->nr_kds * sizeof(*kds));
		st->kds = kds;
		st->cap_kds = cap;
	}
	kd = &st->kds[st->nr_kds];
	kd->key = key;
	kd->nr = 0;
	kd->of = vs_arena_alloc(ssn->arena, (ssn->nr_nodes ? ssn->nr_nodes : 1) * sizeof(*kd->of));
	if (!kd->of)
		return NULL;
	for (u32 n = 0; n < ssn->nr_nodes; n++) {
		const char *value = vs_labels_get(ssn->nodes[n]->labels, key);
		struct vs_pair_slot *slot;

		kd->of[n] = NO_ENTRY;
		if (!value)
			continue;
		slot = vs_pair_get(ssn->arena, &st->dom_ids, key, value, kd->nr);
		if (!slot)
			return NULL;
		if (slot->v == kd->nr)
			kd->nr++;
		kd->of[n] = slot->v;
	}
	/* each id's nodes, in session order (a counting sort) */
	kd->start = vs_arena_calloc(ssn->arena, kd->nr + 1, sizeof(*kd->start));
	kd->nodes = vs_arena_alloc(ssn->arena, (ssn->nr_nodes ? ssn->nr_nodes : 1) *
				   sizeof(*kd->nodes));
	if (!kd->start || !kd->nodes)
		return NULL;
	for (u32 n = 0; n < ssn->nr_nodes; n++)
		if (kd->of[n] != NO_ENTRY)
			kd->start[kd->of[n] + 1]++;
	for (u32 i = 0; i < kd->nr; i++)
		kd->start[i + 1] += kd->start[i];
	fill = vs_arena_alloc(ssn->arena, (kd->nr ? kd->nr : 1) * sizeof(*fill));
	if (!fill)
		return NULL;
	memcpy(fill, kd->start, kd->nr * sizeof(*fill));
	for (u32 n = 0; n < ssn->nr_nodes; n++)
		if (kd->of[n] != NO_ENTRY)
			kd->nodes[fill[kd->of[n]]++] = n;
	st->nr_kds++;
	return kd;
}

/* Whether @node has the topology key of every DoNotSchedule constraint of @sc. */
static bool has_hard_keys(const struct vs_spread_constraints *sc, const struct vs_node *node)
{
	for (u32 i = 0; i < sc->nr; i++)
		if (sc->c[i].when == VS_SPREAD_DO_NOT_SCHEDULE &&
		    !vs_labels_get(node->labels, sc->c[i].topology_key))
			return false;
	return true;
}

/* Whether @a and @b have DoNotSchedule constraints over the same keys, in order. */
static bool same_hard_keys(const struct vs_spread_constraints *a,
			   const struct vs_spread_constraints *b)
{
	u32 i = 0, j = 0;

	if (a == b)
		return true;
	for (;;) {
		while (i < a->nr && a->c[i].when != VS_SPREAD_DO_NOT_SCHEDULE)
			i++;
		while (j < b->nr && b->c[j].when != VS_SPREAD_DO_NOT_SCHEDULE)
			j++;
		if (i == a->nr || j == b->nr)
			return i == a->nr && j == b->nr;
		if (a->c[i++].topology_key != b->c[j++].topology_key)
			return false;
	}
}

static bool same_tolerations(const struct vs_tolerations *a, const struct vs_tolerations *b)
{
	u32 nr = a ? a->nr : 0;

	if (a == b)
		return true;
	if (nr != (b ? b->nr : 0))
		return false;
	for (u32 i = 0; i < nr; i++) {
		const struct vs_toleration *x = &a->t[i], *y = &b->t[i];

		if (x->key != y->key || x->value != y->value || x->op != y->op ||
		    x->effect != y->effect || x->has_seconds != y->has_seconds ||
		    x->seconds != y->seconds)
			return false;
	}
	return true;
}

static const struct vs_node_affinity *node_affinity_of(const struct vs_task *task)
{
	return task->affinity ? task->affinity->node_affinity : NULL;
}

/* Whether @d counts the nodes @task's constraint @c (of @sc) would count. */
static bool dset_fits(const struct pts_dset *d, const struct vs_task *task,
		      const struct vs_spread_constraints *sc, const struct vs_spread_constraint *c)
{
	if (d->kd->key != c->topology_key ||
	    vs_spread_honors_affinity(d->c) != vs_spread_honors_affinity(c) ||
	    vs_spread_honors_taints(d->c) != vs_spread_honors_taints(c) ||
	    !same_hard_keys(d->sc, sc))
		return false;
	if (vs_spread_honors_affinity(c) &&
	    (!vs_labels_equal(d->selector, task->node_selector) ||
	     d->node_affinity != node_affinity_of(task)))
		return false;
	return !vs_spread_honors_taints(c) || same_tolerations(d->tols, task->tolerations);
}

/*
 * The nodes @task's constraint @c (of @sc) counts and their domains, made
 * when no kept set fits (the oldest kept one replaced: its arrays stay in
 * the arena); NULL: out of memory.
 */
static const struct pts_dset *pts_dset(struct vs_session *ssn, struct predicates *st,
				       const struct vs_task *task,
				       const struct vs_spread_constraints *sc,
				       const struct vs_spread_constraint *c)
{
	const struct key_domains *kd;
	struct pts_dset *d;
	u32 nr_nodes = ssn->nr_nodes ? ssn->nr_nodes : 1;
	u8 *inc, *present;
	u32 *marked;

	for (u32 i = 0; i < st->nr_dsets; i++)
		if (dset_fits(&st->dsets[i], task, sc, c))
			return &st->dsets[i];
	kd = key_domains(ssn, st, c->topology_key);
	if (!kd)
		return NULL;
	inc = vs_arena_alloc(ssn->arena, nr_nodes);
	present = vs_arena_calloc(ssn->arena, kd->nr ? kd->nr : 1, 1);
	marked = vs_arena_calloc(ssn->arena, kd->nr ? kd->nr : 1, sizeof(*marked));
	if (!inc || !present || !marked)
		return NULL;
	if (st->nr_dsets < PTS_DSETS) {
		d = &st->dsets[st->nr_dsets++];
	} else {
		d = &st->dsets[st->next_dset];
		st->next_dset = (st->next_dset + 1) % PTS_DSETS;
	}
	*d = (struct pts_dset){
		.kd = kd, .sc = sc, .c = c, .selector = task->node_selector,
		.node_affinity = node_affinity_of(task), .tols = task->tolerations,
		.inc = inc, .present = present, .marked = marked,
	};
	for (u32 n = 0; n < ssn->nr_nodes; n++) {
		const struct vs_node *node = ssn->nodes[n];

		inc[n] = has_hard_keys(sc, node) && vs_spread_node_included(c, task, node);
		if (inc[n] && !present[kd->of[n]]) {
			present[kd->of[n]] = 1;
			d->nr_present++;
		}
	}
	return d;
}

/* A pod @h's constraint counts: in the task's namespace, not terminating, picked, on a counted node. */
static int spread_pod(struct predicates *st, const struct vs_task *task, const struct vs_task *t,
		      const struct vs_node *node, const void *arg)
{
	struct pts_hard *h = (struct pts_hard *)arg;
	u32 id;

	(void)st;
	if (t->ns != task->ns || t->status == VS_TASK_RELEASING || !h->ds->inc[node->sidx] ||
	    !vs_spread_selects(h->c, task->labels, t->labels))
		return 0;
	id = h->ds->kd->of[node->sidx];
	if (!h->count[id]++)
		h->touched[h->nr_touched++] = id;
	return 0;
}

/*
 * The label a pod @c counts for @task carries: the selector's anchor, else
 * a matchLabelKeys value of the task's. False: every pod may be counted.
 */
static bool spread_anchor(const struct vs_spread_constraint *c, const struct vs_task *task,
			  const char **key, const char *const **values, u32 *nr)
{
	if (vs_pod_index_anchor(c->selector, key, values, nr))
		return true;
	for (u32 k = 0; k < c->nr_match_label_keys; k++) {
		const struct vs_labels *l = task->labels;

		for (u32 i = 0; l && i < l->nr; i++)
			if (l->kv[i].key == c->match_label_keys[k]) {
				*key = l->kv[i].key;
				*values = &l->kv[i].value;
				*nr = 1;
				return true;
			}
	}
	return false;
}

/*
 * PreFilter: count, for each of the task's DoNotSchedule constraints, the
 * pods it picks in each domain of the nodes it counts: the pods its
 * selector's anchor finds (or every pod, without one), not a walk of
 * every node. The emptiest domain is 0 while one counted domain has no pod.
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
		const char *const *values = NULL;
		const char *key = NULL;
		bool anchored;
		u32 nv = 0;

		if (c->when != VS_SPREAD_DO_NOT_SCHEDULE)
			continue;
		for (u32 j = 0; j < h->nr_touched; j++)
			h->count[h->touched[j]] = 0;
		h->nr_touched = 0;
		h->c = c;
		h->self = vs_spread_selects(c, task->labels, task->labels);
		h->ds = pts_dset(ssn, st, task, sc, c);
		if (!h->ds)
			goto nomem;
		if (h->cap < h->ds->kd->nr) {
			h->count = vs_arena_calloc(ssn->arena, h->ds->kd->nr, sizeof(*h->count));
			h->touched = vs_arena_alloc(ssn->arena, h->ds->kd->nr * sizeof(*h->touched));
			if (!h->count || !h->touched) {
				h->cap = 0;
				goto nomem;
			}
			h->cap = h->ds->kd->nr;
		}
		st->nr_pts++;
		if (!vs_spread_selector_empty(c, task->labels)) {
			anchored = spread_anchor(c, task, &key, &values, &nv);
			for_pods(ssn, st, task, anchored, key, values, nv, spread_pod, h);
		}
		h->min = 0;
		if (h->nr_touched == h->ds->nr_present) {
			h->min = UINT32_MAX;
			for (u32 j = 0; j < h->nr_touched; j++)
				if (h->count[h->touched[j]] < h->min)
					h->min = h->count[h->touched[j]];
		}
	}
	return 0;
nomem:
	st->pts_task = NULL;
	st->nr_pts = 0;
	return -ENOMEM;
}

/* The skew @task would make in domain @id of @h's constraint, against the emptiest. */
static s64 pts_skew(const struct pts_hard *h, u32 id)
{
	s64 min = h->ds->nr_present < (u32)vs_spread_min_domains(h->c) ? 0 : h->min;

	return (s64)h->count[id] + h->self - min;
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
		u32 id = h->ds->kd->of[node->sidx];

		*unresolvable = id == NO_ENTRY;
		if (id == NO_ENTRY)
			return "node(s) didn't match pod topology spread constraints (missing "
			       "required label)";
		/* no domain at all: kube-scheduler finds no count to compare with */
		if (!h->ds->nr_present)
			continue;
		if (pts_skew(h, id) > h->c->max_skew)
			return "node(s) didn't match pod topology spread constraints";
	}
	*unresolvable = false;
	return NULL;
}

/* The domains of @h's constraint the role refuses now: over the skew, or marked under @epoch. */
static bool pts_refused(const struct pts_hard *h, u32 id, u32 epoch)
{
	return h->ds->marked[id] == epoch || pts_skew(h, id) > h->c->max_skew;
}

/*
 * Allocate's fast path under the error cache: the nodes of every domain
 * over a constraint's skew now, which the scan would refuse and cache for
 * the role, though a later task of it may find the skew lower. A domain
 * without a counted pod is never over it (maxSkew is at least 1), nor
 * marked before in the epoch (counts only grow while a job is tried): only
 * the domains counted are looked at. When they are every domain of the
 * key's, no node passes (one without the key is refused too), and nothing
 * is marked: the scan that follows refuses them as this task's.
 */
static bool predicates_mark_refused(struct vs_session *ssn, struct vs_plugin *p,
				    const struct vs_task *task, u32 epoch,
				    void (*mark)(void *arg, const struct vs_node *node), void *arg,
				    struct vs_fit_error *fe)
{
	struct predicates *st = p->priv;

	if (!st->pod_topology_spread || st->pts_task != task)
		return true;
	vs_fit_say(fe, "node(s) didn't match pod topology spread constraints", NULL);
	fe->unresolvable = false;
	fe->elsewhere = true;
	for (u32 i = 0; i < st->nr_pts; i++) {
		const struct pts_hard *h = &st->pts[i];
		u32 refused = 0;

		for (u32 j = 0; h->ds->nr_present && j < h->nr_touched; j++)
			refused += pts_refused(h, h->touched[j], epoch);
		if (h->ds->nr_present && refused == h->ds->kd->nr)
			return false;
	}
	for (u32 i = 0; i < st->nr_pts; i++) {
		const struct pts_hard *h = &st->pts[i];
		const struct key_domains *kd = h->ds->kd;

		for (u32 j = 0; h->ds->nr_present && j < h->nr_touched; j++) {
			u32 id = h->touched[j];

			if (h->ds->marked[id] == epoch || pts_skew(h, id) <= h->c->max_skew)
				continue;
			h->ds->marked[id] = epoch;
			for (u32 k = kd->start[id]; k < kd->start[id + 1]; k++)
				mark(arg, ssn->nodes[kd->nodes[k]]);
		}
	}
	return true;
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
	.mark_refused	= predicates_mark_refused,
	.class_fails	= predicates_class_fails,
	.on_allocate	= predicates_on_allocate,
	.on_deallocate	= predicates_on_deallocate,
};

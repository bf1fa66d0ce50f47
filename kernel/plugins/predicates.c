// SPDX-License-Identifier: Apache-2.0
/*
 * The predicates plugin (Volcano's plugins/predicates, which runs
 * kube-scheduler's filter plugins): may this task go to this node?
 *
 *   pod count		node(s) pod number exceeded
 *   NodeUnschedulable	node(s) were unschedulable (unless the pod tolerates
 *			node.kubernetes.io/unschedulable:NoSchedule)
 *   NodeAffinity	node(s) didn't match Pod's node affinity/selector
 *   TaintToleration	node(s) had untolerated taint {key: value}
 *			(NoSchedule and NoExecute taints only)
 *
 * A node that is not Ready carries, as Kubernetes' node lifecycle controller
 * gives it, the taint node.kubernetes.io/not-ready:NoSchedule, and is
 * filtered by TaintToleration like any other taint.
 *
 * The filter plugins for NodeAffinity and TaintToleration can be switched
 * off with Volcano's arguments predicate.NodeAffinityEnable and
 * predicate.TaintTolerationEnable. The checks that need objects vsched does
 * not model (volumes, ports, DRA) are not made.
 */
#include <stdio.h>
#include <string.h>

#include "plugins/plugins.h"
#include "sched/session.h"

struct predicates {
	bool node_affinity;
	bool taint_toleration;
	const char *unschedulable_key;	/* interned, or NULL if nobody uses it */
	const char *not_ready_key;
	const char *empty;		/* interned "" */
};

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

static int predicates_open(struct vs_session *ssn, struct vs_plugin *p)
{
	struct predicates *st = vs_arena_zalloc(ssn->arena, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->node_affinity = true;
	st->taint_toleration = true;
	vs_args_get_bool(&p->conf->args, "predicate.NodeAffinityEnable", &st->node_affinity, NULL);
	vs_args_get_bool(&p->conf->args, "predicate.TaintTolerationEnable",
			 &st->taint_toleration, NULL);
	/* Interned keys are compared by pointer; absent ones cannot match. */
	st->unschedulable_key = vs_str_find(&ssn->cl->strs, "node.kubernetes.io/unschedulable",
					    strlen("node.kubernetes.io/unschedulable"));
	st->not_ready_key = vs_str_find(&ssn->cl->strs, "node.kubernetes.io/not-ready",
					strlen("node.kubernetes.io/not-ready"));
	st->empty = vs_str_find(&ssn->cl->strs, "", 0);
	p->priv = st;
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

static int predicates_predicate(struct vs_session *ssn, struct vs_plugin *p,
				const struct vs_task *task, const struct vs_node *node,
				struct vs_fit_error *fe)
{
	struct predicates *st = p->priv;
	s64 max_pods = vs_res_get(&node->allocatable, VS_RES_PODS);

	if (max_pods <= (s64)node->nr_tasks) {
		snprintf(fe->reason, sizeof(fe->reason), "node(s) pod number exceeded");
		fe->unresolvable = false;
		return -EINVAL;
	}
	if (node->unschedulable &&
	    !tolerates_synthetic(task, st->unschedulable_key, st->empty, VS_TAINT_NO_SCHEDULE)) {
		snprintf(fe->reason, sizeof(fe->reason), "node(s) were unschedulable");
		fe->unresolvable = true;
		return -EINVAL;
	}
	if (st->node_affinity && !vs_labels_match(node->labels, task->node_selector)) {
		snprintf(fe->reason, sizeof(fe->reason),
			 "node(s) didn't match Pod's node affinity/selector");
		fe->unresolvable = true;
		return -EINVAL;
	}
	if (!st->taint_toleration)
		return 0;
	if (!node->ready &&
	    !tolerates_synthetic(task, st->not_ready_key, st->empty, VS_TAINT_NO_SCHEDULE)) {
		snprintf(fe->reason, sizeof(fe->reason),
			 "node(s) had untolerated taint {node.kubernetes.io/not-ready: }");
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

const struct vs_plugin_ops vs_plugin_predicates = {
	.name		= "predicates",
	.check_conf	= predicates_check_conf,
	.open		= predicates_open,
	.predicate	= predicates_predicate,
};

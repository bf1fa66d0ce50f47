// SPDX-License-Identifier: Apache-2.0
/*
 * Topology spread constraints (spread.h): the API server's validation of
 * them, and the selector as kube-scheduler merges the pod's matchLabelKeys
 * values into it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/enum.h"
#include "core/labels.h"
#include "core/names.h"
#include "core/node.h"
#include "core/spread.h"
#include "core/strtab.h"
#include "core/task.h"

static const char *const action_names[VS_NR_SPREAD_ACTIONS] = {
	[VS_SPREAD_DO_NOT_SCHEDULE] = "DoNotSchedule",
	[VS_SPREAD_SCHEDULE_ANYWAY] = "ScheduleAnyway",
};

static const char *const policy_names[VS_NR_INCLUSION_POLICIES] = {
	[VS_INCLUSION_UNSET] = "",
	[VS_INCLUSION_HONOR] = "Honor",
	[VS_INCLUSION_IGNORE] = "Ignore",
};

int vs_spread_action_parse(const char *s, enum vs_spread_action *out, struct vs_err *err)
{
	int v = vs_enum_parse(action_names, VS_NR_SPREAD_ACTIONS, s ? s : "",
			      "whenUnsatisfiable", err);

	if (v < 0)
		return v;
	*out = (enum vs_spread_action)v;
	return 0;
}

const char *vs_spread_action_name(enum vs_spread_action a)
{
	return vs_enum_name(action_names, VS_NR_SPREAD_ACTIONS, a);
}

int vs_inclusion_policy_parse(const char *s, enum vs_inclusion_policy *out, struct vs_err *err)
{
	int v;

	if (!s || !*s) {
		*out = VS_INCLUSION_UNSET;
		return 0;
	}
	v = vs_enum_parse(policy_names + 1, VS_NR_INCLUSION_POLICIES - 1, s, "policy", err);
	if (v < 0)
		return v;
	*out = (enum vs_inclusion_policy)(v + 1);
	return 0;
}

const char *vs_inclusion_policy_name(enum vs_inclusion_policy p)
{
	return vs_enum_name(policy_names, VS_NR_INCLUSION_POLICIES, p);
}

/* Does the selector spec name @key, in matchLabels or an expression? */
static bool selector_names(const struct vs_label_selector_spec *sel, const char *key)
{
	for (u32 i = 0; i < sel->nr_match_labels; i++)
		if (!strcmp(sel->match_labels[i].key, key))
			return true;
	for (u32 i = 0; i < sel->nr_exprs; i++)
		if (sel->exprs[i].key && !strcmp(sel->exprs[i].key, key))
			return true;
	return false;
}

static int check_one(const struct vs_spread_constraint_spec *specs, u32 i, struct vs_err *err)
{
	const struct vs_spread_constraint_spec *s = &specs[i];
	int ret;

	if (s->max_skew <= 0)
		return vs_err_set(err, EINVAL, "maxSkew: %d must be greater than zero", s->max_skew);
	if (!s->topology_key || !*s->topology_key)
		return vs_err_set(err, EINVAL, "topologyKey: can not be empty");
	if ((unsigned int)s->when >= VS_NR_SPREAD_ACTIONS)
		return vs_err_set(err, EINVAL, "whenUnsatisfiable: unknown action %u",
				  (unsigned int)s->when);
	if ((unsigned int)s->node_affinity_policy >= VS_NR_INCLUSION_POLICIES ||
	    (unsigned int)s->node_taints_policy >= VS_NR_INCLUSION_POLICIES)
		return vs_err_set(err, EINVAL, "node inclusion policy: unknown policy");
	/* the later entries, as the API server's ValidateSpreadConstraintNotRepeat */
	for (u32 j = 0; j < i; j++)
		if (!strcmp(specs[j].topology_key, s->topology_key) && specs[j].when == s->when)
			return vs_err_set(err, EINVAL, "{topologyKey, whenUnsatisfiable}: duplicate "
					  "{%s, %s} (entry %u)", s->topology_key,
					  vs_spread_action_name(s->when), j);
	if (s->min_domains < 0)
		return vs_err_set(err, EINVAL, "minDomains: %d must be greater than zero",
				  s->min_domains);
	if (s->min_domains && s->when != VS_SPREAD_DO_NOT_SCHEDULE)
		return vs_err_set(err, EINVAL, "minDomains: can only use minDomains if "
				  "whenUnsatisfiable=DoNotSchedule, not %s",
				  vs_spread_action_name(s->when));
	if (s->nr_match_label_keys && !s->selector)
		return vs_err_set(err, EINVAL, "matchLabelKeys: must not be specified when "
				  "labelSelector is not set");
	for (u32 k = 0; k < s->nr_match_label_keys; k++) {
		const char *key = s->match_label_keys[k];

		ret = vs_check_label_key(key, key ? strlen(key) : 0, "label key", err);
		if (ret) {
			vs_err_prefix(err, "matchLabelKeys[%u]: ", k);
			return ret;
		}
		if (selector_names(s->selector, key))
			return vs_err_set(err, EINVAL, "matchLabelKeys[%u]: \"%s\" exists in both "
					  "matchLabelKeys and labelSelector", k, key);
	}
	return 0;
}

void vs_spread_constraints_free(struct vs_strtab *strs, struct vs_spread_constraints *sc)
{
	if (!sc || --sc->refs)
		return;
	for (u32 i = 0; i < sc->nr; i++) {
		struct vs_spread_constraint *c = &sc->c[i];

		vs_str_put(strs, c->topology_key);
		vs_label_selector_free(strs, c->selector);
		for (u32 k = 0; k < c->nr_match_label_keys; k++)
			vs_str_put(strs, c->match_label_keys[k]);
	}
	free(sc);
}

int vs_spread_constraints_new(struct vs_strtab *strs, const struct vs_spread_constraint_spec *specs,
			      u32 nr, struct vs_spread_constraints **out, struct vs_err *err)
{
	struct vs_spread_constraints *sc;
	const char **keys;
	u32 nr_keys = 0;
	int ret;

	*out = NULL;
	if (!nr)
		return 0;
	for (u32 i = 0; i < nr; i++) {
		ret = check_one(specs, i, err);
		if (ret) {
			vs_err_prefix(err, "topologySpreadConstraints[%u].", i);
			return ret;
		}
		nr_keys += specs[i].nr_match_label_keys;
	}
	/* the constraints, then every matchLabelKeys array, in one block */
	sc = calloc(1, sizeof(*sc) + nr * sizeof(sc->c[0]) + nr_keys * sizeof(*keys));
	if (!sc)
		return vs_err_set(err, ENOMEM, "out of memory for topology spread constraints");
	sc->refs = 1;
	keys = (const char **)&sc->c[nr];
	for (u32 i = 0; i < nr; i++) {
		const struct vs_spread_constraint_spec *s = &specs[i];
		struct vs_spread_constraint *c = &sc->c[i];
		char where[64];

		c->max_skew = s->max_skew;
		c->min_domains = s->min_domains;
		c->when = (u8)s->when;
		c->node_affinity_policy = (u8)s->node_affinity_policy;
		c->node_taints_policy = (u8)s->node_taints_policy;
		c->match_label_keys = keys;
		sc->nr++;
		c->topology_key = vs_str_get_cstr(strs, s->topology_key);
		for (u32 k = 0; c->topology_key && k < s->nr_match_label_keys; k++) {
			keys[k] = vs_str_get_cstr(strs, s->match_label_keys[k]);
			if (!keys[k])
				break;
			c->nr_match_label_keys++;
		}
		keys += s->nr_match_label_keys;
		if (!c->topology_key || c->nr_match_label_keys != s->nr_match_label_keys) {
			vs_spread_constraints_free(strs, sc);
			return vs_err_set(err, ENOMEM, "out of memory for topology spread "
					  "constraints");
		}
		snprintf(where, sizeof(where), "topologySpreadConstraints[%u].labelSelector", i);
		ret = vs_label_selector_new(strs, s->selector, where, &c->selector, err);
		if (ret) {
			vs_spread_constraints_free(strs, sc);
			return ret;
		}
	}
	*out = sc;
	return 0;
}

bool vs_spread_constraints_equal(const struct vs_spread_constraints *a,
				 const struct vs_spread_constraints *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->nr != b->nr)
		return false;
	for (u32 i = 0; i < a->nr; i++) {
		const struct vs_spread_constraint *x = &a->c[i], *y = &b->c[i];

		if (x->topology_key != y->topology_key || x->max_skew != y->max_skew ||
		    x->min_domains != y->min_domains || x->when != y->when ||
		    x->node_affinity_policy != y->node_affinity_policy ||
		    x->node_taints_policy != y->node_taints_policy ||
		    x->nr_match_label_keys != y->nr_match_label_keys ||
		    !vs_label_selector_equal(x->selector, y->selector))
			return false;
		for (u32 k = 0; k < x->nr_match_label_keys; k++)
			if (x->match_label_keys[k] != y->match_label_keys[k])	/* interned */
				return false;
	}
	return true;
}

bool vs_spread_selects(const struct vs_spread_constraint *c, const struct vs_labels *owner,
		       const struct vs_labels *labels)
{
	if (!vs_label_selector_match(c->selector, labels))
		return false;
	for (u32 k = 0; k < c->nr_match_label_keys; k++) {
		const char *want = vs_labels_get(owner, c->match_label_keys[k]);

		if (want && vs_labels_get(labels, c->match_label_keys[k]) != want)
			return false;
	}
	return true;
}

bool vs_spread_selector_empty(const struct vs_spread_constraint *c,
			      const struct vs_labels *owner)
{
	if (!c->selector || c->selector->match_labels || c->selector->nr_exprs)
		return false;
	for (u32 k = 0; k < c->nr_match_label_keys; k++)
		if (vs_labels_get(owner, c->match_label_keys[k]))
			return false;
	return true;
}

static bool tolerated(const struct vs_task *task, const struct vs_taint *taint)
{
	for (u32 i = 0; task->tolerations && i < task->tolerations->nr; i++)
		if (vs_toleration_tolerates(&task->tolerations->t[i], taint))
			return true;
	return false;
}

bool vs_spread_node_included(const struct vs_spread_constraint *c, const struct vs_task *task,
			     const struct vs_node *node)
{
	if (vs_spread_honors_affinity(c) &&
	    (!vs_labels_match(node->labels, task->node_selector) ||
	     !vs_node_affinity_required_match(task->affinity, node)))
		return false;
	for (u32 i = 0; vs_spread_honors_taints(c) && node->taints && i < node->taints->nr; i++)
		if (node->taints->t[i].effect != VS_TAINT_PREFER_NO_SCHEDULE &&
		    !tolerated(task, &node->taints->t[i]))
			return false;
	return true;
}

u32 vs_spread_count_on(const struct vs_spread_constraint *c, const struct vs_task *task,
		       const struct vs_node *node)
{
	const struct vs_task *t;
	u32 n = 0;

	if (vs_spread_selector_empty(c, task->labels))
		return 0;
	list_for_each_entry(t, &node->tasks, node_node)
		n += t != task && t->ns == task->ns && t->status != VS_TASK_RELEASING &&
		     vs_spread_selects(c, task->labels, t->labels);
	return n;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A pod's topology spread constraints (spec.topologySpreadConstraints), as
 * the API server validates them and kube-scheduler's PodTopologySpread
 * reads them: how unevenly (maxSkew) the pods a label selector picks, in
 * the pod's namespace, may spread over the domains of a node label
 * (topologyKey), and whether a node that would make it worse is refused
 * (DoNotSchedule, the filter) or only scored lower (ScheduleAnyway).
 *
 * matchLabelKeys are kept as keys: the pod's values for them join the
 * selector when it is matched (kube-scheduler's mergeLabelSetWithSelector),
 * so that a selector is shared by every pod of a template. Set once when
 * the task is made and only read after; a pod without constraints has none
 * (NULL).
 */
#ifndef VS_CORE_SPREAD_H
#define VS_CORE_SPREAD_H

#include "core/affinity.h"
#include "core/compiler.h"
#include "core/err.h"

struct vs_labels;
struct vs_strtab;

enum vs_spread_action {
	VS_SPREAD_DO_NOT_SCHEDULE,
	VS_SPREAD_SCHEDULE_ANYWAY,
	VS_NR_SPREAD_ACTIONS
};

/* nodeAffinityPolicy and nodeTaintsPolicy; unset is each field's default. */
enum vs_inclusion_policy {
	VS_INCLUSION_UNSET,
	VS_INCLUSION_HONOR,
	VS_INCLUSION_IGNORE,
	VS_NR_INCLUSION_POLICIES
};

int vs_spread_action_parse(const char *s, enum vs_spread_action *out, struct vs_err *err);
const char *vs_spread_action_name(enum vs_spread_action a);
/* "" or NULL: unset. */
int vs_inclusion_policy_parse(const char *s, enum vs_inclusion_policy *out, struct vs_err *err);
const char *vs_inclusion_policy_name(enum vs_inclusion_policy p);

struct vs_spread_constraint_spec {
	s32 max_skew;				/* > 0 */
	const char *topology_key;		/* required */
	enum vs_spread_action when;
	const struct vs_label_selector_spec *selector;	/* NULL: selects no pod */
	s32 min_domains;			/* 0: unset (1); else > 0, DoNotSchedule only */
	enum vs_inclusion_policy node_affinity_policy;
	enum vs_inclusion_policy node_taints_policy;
	const char *const *match_label_keys;
	u32 nr_match_label_keys;
};

struct vs_spread_constraint {
	const char *topology_key;		/* interned */
	struct vs_label_selector *selector;	/* NULL: selects no pod */
	const char *const *match_label_keys;	/* interned */
	u32 nr_match_label_keys;
	s32 max_skew;
	s32 min_domains;			/* 0: unset */
	u8 when;				/* enum vs_spread_action */
	u8 node_affinity_policy;		/* enum vs_inclusion_policy */
	u8 node_taints_policy;
};

/*
 * Shared by reference: a VolcanoJob template's constraints are its pods'
 * (vs_spread_constraints_get()); freed with the last reference.
 */
struct vs_spread_constraints {
	u32 refs;
	u32 nr;
	struct vs_spread_constraint c[];
};

/*
 * As the API server validates a pod's constraints: maxSkew positive, a
 * topologyKey, minDomains positive and only with DoNotSchedule, no
 * {topologyKey, whenUnsatisfiable} twice, matchLabelKeys valid label keys
 * that the selector does not name, and only with a selector. Messages name
 * the entry ("topologySpreadConstraints[1].maxSkew: ..."). *@out is NULL
 * when @nr is 0.
 */
int vs_spread_constraints_new(struct vs_strtab *strs, const struct vs_spread_constraint_spec *specs,
			      u32 nr, struct vs_spread_constraints **out, struct vs_err *err);
/* Drop a reference; the last frees. */
void vs_spread_constraints_free(struct vs_strtab *strs, struct vs_spread_constraints *sc);

static inline struct vs_spread_constraints *vs_spread_constraints_get(struct vs_spread_constraints *sc)
{
	if (sc)
		sc->refs++;
	return sc;
}

/* Whether @a and @b (of one string table; NULL is none) are the same constraints, in order. */
bool vs_spread_constraints_equal(const struct vs_spread_constraints *a,
				 const struct vs_spread_constraints *b);

/* The policies in force: nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore unless set. */
static inline bool vs_spread_honors_affinity(const struct vs_spread_constraint *c)
{
	return c->node_affinity_policy != VS_INCLUSION_IGNORE;
}

static inline bool vs_spread_honors_taints(const struct vs_spread_constraint *c)
{
	return c->node_taints_policy == VS_INCLUSION_HONOR;
}

/* minDomains in force: 1 when unset. */
static inline s32 vs_spread_min_domains(const struct vs_spread_constraint *c)
{
	return c->min_domains ? c->min_domains : 1;
}

/*
 * Does the selector of @c, for a pod whose labels are @owner, pick a pod
 * with @labels? Its matchLabelKeys the owner has join it as equalities; an
 * absent selector picks nothing.
 */
bool vs_spread_selects(const struct vs_spread_constraint *c, const struct vs_labels *owner,
		       const struct vs_labels *labels);

/*
 * Whether the selector of @c, for the owner @owner, is empty (an empty
 * selector and no matchLabelKeys value joined): kube-scheduler counts no
 * pod for an empty selector, though it matches the owner itself.
 */
bool vs_spread_selector_empty(const struct vs_spread_constraint *c,
			      const struct vs_labels *owner);

struct vs_node;
struct vs_task;

/*
 * Do @c's node inclusion policies take @node into @task's counts?
 * nodeAffinityPolicy Honor: the task's node selector and required node
 * affinity match it; nodeTaintsPolicy Honor: the task tolerates its
 * NoSchedule and NoExecute taints.
 */
bool vs_spread_node_included(const struct vs_spread_constraint *c, const struct vs_task *task,
			     const struct vs_node *node);

/*
 * The pods on @node that @task's constraint @c counts: in the task's
 * namespace, picked by the selector (none for an empty one), not
 * terminating (Releasing: deleted, or evicted in this session), the task
 * itself aside.
 */
u32 vs_spread_count_on(const struct vs_spread_constraint *c, const struct vs_task *task,
		       const struct vs_node *node);

#endif /* VS_CORE_SPREAD_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes affinity: a pod's node affinity, pod affinity and pod
 * anti-affinity (core/v1 Affinity), and the selectors they are made of.
 *
 * Like label sets, an affinity is immutable and built once from a spec of
 * plain C strings: the whole spec is validated first, with Kubernetes' rules
 * and a message naming the offending field
 * ("affinity.nodeAffinity.required[1].matchExpressions[0]: ..."), then the
 * tree is laid out in one allocation and every string in it is interned in
 * the cluster's string table, so that matching compares pointers and never
 * allocates. A task without affinity has a NULL one, and so has each absent
 * or empty part of it.
 *
 * Matching follows Kubernetes' labels.Requirement: NotIn and DoesNotExist
 * match an object that lacks the key; In, Exists, Gt and Lt need it. Gt and
 * Lt compare the label's value as a 64-bit integer, parsed when matching;
 * a value that is not an integer does not match.
 *
 * Limitation: vsched has no Namespace objects, so a pod affinity term's
 * namespaceSelector can only be absent or empty ({}, every namespace); one
 * with requirements is refused.
 */
#ifndef VS_CORE_AFFINITY_H
#define VS_CORE_AFFINITY_H

#include "core/compiler.h"
#include "core/err.h"
#include "core/labels.h"
#include "core/strtab.h"

struct vs_node;
struct vs_task;

/* The operators of node selectors (all six) and label selectors (the first four). */
enum vs_sel_op {
	VS_SEL_IN,
	VS_SEL_NOT_IN,
	VS_SEL_EXISTS,
	VS_SEL_DOES_NOT_EXIST,
	VS_SEL_GT,
	VS_SEL_LT,
	VS_SEL_NR_OPS
};

/* Kubernetes' names: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt". */
int vs_sel_op_parse(const char *s, enum vs_sel_op *out, struct vs_err *err);
const char *vs_sel_op_name(enum vs_sel_op op);

/* The only field a node selector term may select on. */
#define VS_NODE_FIELD_NAME	"metadata.name"

/* ---- specs: what callers fill in, plain C strings ---- */

struct vs_sel_req_spec {
	const char *key;
	enum vs_sel_op op;
	const char *const *values;	/* NULL entries count as "" */
	u32 nr_values;
};

/* Expressions and fields are ANDed; a term with neither matches no node. */
struct vs_node_selector_term_spec {
	const struct vs_sel_req_spec *exprs;	/* matchExpressions, against labels */
	u32 nr_exprs;
	const struct vs_sel_req_spec *fields;	/* matchFields: metadata.name, In/NotIn */
	u32 nr_fields;
};

/* A NodeSelector: its terms are ORed, and there must be at least one. */
struct vs_node_selector_spec {
	const struct vs_node_selector_term_spec *terms;
	u32 nr_terms;
};

struct vs_node_pref_term_spec {
	s32 weight;				/* 1..100 */
	struct vs_node_selector_term_spec preference;
};

struct vs_node_affinity_spec {
	const struct vs_node_selector_spec *required;	/* NULL: none */
	const struct vs_node_pref_term_spec *preferred;
	u32 nr_preferred;
};

/* metav1.LabelSelector: matchLabels ANDed with matchExpressions. */
struct vs_label_selector_spec {
	const struct vs_kv_spec *match_labels;
	u32 nr_match_labels;
	const struct vs_sel_req_spec *exprs;	/* In, NotIn, Exists, DoesNotExist */
	u32 nr_exprs;
};

struct vs_pod_affinity_term_spec {
	const struct vs_label_selector_spec *selector;	/* NULL: matches no pod */
	const char *const *namespaces;
	u32 nr_namespaces;
	/* NULL, or empty for every namespace: see the limitation above. */
	const struct vs_label_selector_spec *ns_selector;
	const char *topology_key;		/* required */
};

struct vs_weighted_pod_affinity_term_spec {
	s32 weight;				/* 1..100 */
	struct vs_pod_affinity_term_spec term;
};

/* Used for both podAffinity and podAntiAffinity. */
struct vs_pod_affinity_spec {
	const struct vs_pod_affinity_term_spec *required;
	u32 nr_required;
	const struct vs_weighted_pod_affinity_term_spec *preferred;
	u32 nr_preferred;
};

struct vs_affinity_spec {
	const struct vs_node_affinity_spec *node_affinity;	/* each NULL: none */
	const struct vs_pod_affinity_spec *pod_affinity;
	const struct vs_pod_affinity_spec *pod_anti_affinity;
};

/* ---- the built, immutable form: every string interned ---- */

struct vs_sel_req {
	const char *key;		/* interned */
	enum vs_sel_op op;
	u32 nr_values;
	const char *const *values;	/* interned; NULL when there are none */
	s64 num;			/* Gt, Lt: the one value, parsed */
};

struct vs_node_selector_term {
	u32 nr_exprs;
	u32 nr_fields;
	const struct vs_sel_req *exprs;	/* against the node's labels */
	const struct vs_sel_req *fields;	/* against the node's name */
};

struct vs_node_pref_term {
	s32 weight;
	struct vs_node_selector_term preference;
};

struct vs_node_affinity {
	u32 nr_required;		/* 0: no required node affinity */
	u32 nr_preferred;
	const struct vs_node_selector_term *required;		/* ORed */
	const struct vs_node_pref_term *preferred;
};

/*
 * Within an affinity, never freed on its own: match_labels lives in the
 * affinity's allocation. vs_label_selector_new() makes one of its own.
 */
struct vs_label_selector {
	const struct vs_labels *match_labels;	/* NULL when none */
	u32 nr_exprs;
	const struct vs_sel_req *exprs;
};

/*
 * The namespaces a term looks in, as Kubernetes resolves them: every one if
 * all_namespaces, else those listed, else (none listed) the owner's own.
 */
struct vs_pod_affinity_term {
	const struct vs_label_selector *selector;	/* NULL: matches no pod */
	const char *topology_key;	/* interned: look it up in node labels */
	bool all_namespaces;		/* namespaceSelector {} */
	u32 nr_namespaces;
	const char *const *namespaces;	/* interned */
};

struct vs_weighted_pod_affinity_term {
	s32 weight;
	struct vs_pod_affinity_term term;
};

struct vs_pod_affinity {
	u32 nr_required;
	u32 nr_preferred;
	const struct vs_pod_affinity_term *required;
	const struct vs_weighted_pod_affinity_term *preferred;
};

/* Each part is NULL when absent or empty; so is the whole. */
struct vs_affinity {
	const struct vs_node_affinity *node_affinity;
	const struct vs_pod_affinity *pod_affinity;
	const struct vs_pod_affinity *pod_anti_affinity;
};

/*
 * Build an affinity from @spec (NULL: none). *@out is NULL when the spec
 * holds nothing. Errors are -EINVAL with the field named, or -ENOMEM; either
 * way nothing is left allocated or referenced.
 */
int vs_affinity_new(struct vs_strtab *strs, const struct vs_affinity_spec *spec,
		    struct vs_affinity **out, struct vs_err *err);
void vs_affinity_free(struct vs_strtab *strs, struct vs_affinity *aff);

/*
 * A label selector in a block of its own (a PodGroup's subGroupPolicy),
 * checked as a pod affinity term's is; @where names it in messages. *@out
 * is NULL for a NULL @spec; an empty one selects every pod.
 */
int vs_label_selector_new(struct vs_strtab *strs, const struct vs_label_selector_spec *spec,
			  const char *where, struct vs_label_selector **out, struct vs_err *err);
void vs_label_selector_free(struct vs_strtab *strs, struct vs_label_selector *sel);

struct vs_arena;

/* @sel as a spec in @arena, its strings @sel's: -ENOMEM, or 0. */
int vs_label_selector_spec_of(const struct vs_label_selector *sel, struct vs_arena *arena,
			      const struct vs_label_selector_spec **out);

/*
 * ---- matching: pure, no allocation ----
 *
 * Nodes and tasks must have their strings interned in the table the
 * affinity was built with (the cluster's): names and values compare as
 * pointers.
 */

/* Does @req hold for an object whose key has the interned @value (NULL: absent)? */
bool vs_sel_req_match(const struct vs_sel_req *req, const char *value);

/* Every expression against the node's labels and every field against its name. */
bool vs_node_selector_term_match(const struct vs_node_selector_term *term,
				 const struct vs_node *node);

/* True when @aff has no required node affinity, else when any term matches. */
bool vs_node_affinity_required_match(const struct vs_affinity *aff,
				     const struct vs_node *node);

/* The sum of the weights of the preferred terms @node matches. */
s64 vs_node_affinity_preferred_score(const struct vs_affinity *aff,
				     const struct vs_node *node);

/* An absent (NULL) selector matches nothing; an empty one everything. */
bool vs_label_selector_match(const struct vs_label_selector *sel,
			     const struct vs_labels *labels);

/*
 * Is @other one of the pods @term selects, for a term owned by a pod in the
 * interned namespace @owner_ns? (Kubernetes' AffinityTerm.Matches.)
 */
bool vs_pod_affinity_term_match(const struct vs_pod_affinity_term *term,
				const char *owner_ns, const struct vs_task *other);

/* Whether two label selectors (of one string table; NULL is none) pick alike, written alike. */
bool vs_label_selector_equal(const struct vs_label_selector *a, const struct vs_label_selector *b);

/*
 * Whether two pod (anti-)affinities (of one string table; NULL is none) ask
 * the same: the same terms in the same order, selectors, namespaces and
 * topology keys alike, and the same weights.
 */
bool vs_pod_affinity_equal(const struct vs_pod_affinity *a, const struct vs_pod_affinity *b);

#endif /* VS_CORE_AFFINITY_H */

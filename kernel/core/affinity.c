// SPDX-License-Identifier: Apache-2.0
/*
 * Affinity: validation of a spec with Kubernetes' rules, its layout in one
 * allocation with every string interned, and the matching of node selector
 * terms, label selectors and pod affinity terms. See affinity.h.
 *
 * Construction runs in three passes over the spec: check (every message is
 * produced here, before anything is allocated), size, then build into the
 * one block. Only interning can fail while building; the block is zeroed,
 * so the walk that drops references simply skips the strings never taken.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/affinity.h"
#include "core/arena.h"
#include "core/names.h"
#include "core/node.h"
#include "core/task.h"

#define OP_BIT(op)	(1u << (op))
#define OPS_ALL		(OP_BIT(VS_SEL_NR_OPS) - 1)
#define OPS_SET		(OP_BIT(VS_SEL_IN) | OP_BIT(VS_SEL_NOT_IN) | \
			 OP_BIT(VS_SEL_EXISTS) | OP_BIT(VS_SEL_DOES_NOT_EXIST))

/* Room for the longest path a message names, with indexes in the hundreds. */
#define WHERE_MAX	160

/* Every piece of the block starts on this boundary: pointers and s64s. */
#define CARVE_ALIGN	8

static const char *const op_names[] = {
	[VS_SEL_IN]		= "In",
	[VS_SEL_NOT_IN]		= "NotIn",
	[VS_SEL_EXISTS]		= "Exists",
	[VS_SEL_DOES_NOT_EXIST]	= "DoesNotExist",
	[VS_SEL_GT]		= "Gt",
	[VS_SEL_LT]		= "Lt",
};

const char *vs_sel_op_name(enum vs_sel_op op)
{
	BUILD_BUG_ON(ARRAY_SIZE(op_names) != VS_SEL_NR_OPS);
	if ((unsigned int)op >= VS_SEL_NR_OPS)
		return "?";
	return op_names[op];
}

int vs_sel_op_parse(const char *s, enum vs_sel_op *out, struct vs_err *err)
{
	for (unsigned int i = 0; s && i < VS_SEL_NR_OPS; i++) {
		if (!strcmp(s, op_names[i])) {
			*out = (enum vs_sel_op)i;
			return 0;
		}
	}
	return vs_err_set(err, EINVAL,
			  "unknown operator \"%s\" (In, NotIn, Exists, DoesNotExist, Gt or Lt)",
			  s ? s : "");
}

static size_t str_len(const char *s)
{
	return s ? strlen(s) : 0;
}

/*
 * Go's strconv.ParseInt(s, 10, 64), which Kubernetes uses for Gt and Lt:
 * the whole string, no surrounding space, no overflow.
 */
static bool parse_s64(const char *s, s64 *out)
{
	long long v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* ---- checking ---- */

/* What a requirement may be, by where it appears. */
struct req_rules {
	unsigned int ops;
	const char *ops_text;		/* the allowed ones, for the message */
	bool field;			/* matchFields: metadata.name against node names */
};

static const struct req_rules node_expr_rules = {
	.ops = OPS_ALL,
	.ops_text = "In, NotIn, Exists, DoesNotExist, Gt or Lt",
};

static const struct req_rules node_field_rules = {
	.ops = OP_BIT(VS_SEL_IN) | OP_BIT(VS_SEL_NOT_IN),
	.ops_text = "In or NotIn",
	.field = true,
};

static const struct req_rules label_selector_rules = {
	.ops = OPS_SET,
	.ops_text = "In, NotIn, Exists or DoesNotExist",
};

__printf(2, 3)
static void where_fmt(char *dst, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, WHERE_MAX, fmt, ap);
	va_end(ap);
}

/* How many values each operator takes, as Kubernetes' validation says. */
static int check_req_count(const struct vs_sel_req_spec *r, const char *where,
			   struct vs_err *err)
{
	const char *op = op_names[r->op];

	switch (r->op) {
	case VS_SEL_IN:
	case VS_SEL_NOT_IN:
		if (!r->nr_values)
			return vs_err_set(err, EINVAL, "%s: operator %s needs at least one value",
					  where, op);
		break;
	case VS_SEL_EXISTS:
	case VS_SEL_DOES_NOT_EXIST:
		if (r->nr_values)
			return vs_err_set(err, EINVAL, "%s: operator %s takes no values",
					  where, op);
		break;
	case VS_SEL_GT:
	case VS_SEL_LT:
		if (r->nr_values != 1)
			return vs_err_set(err, EINVAL, "%s: operator %s needs exactly one value",
					  where, op);
		break;
	case VS_SEL_NR_OPS:
		break;
	}
	return 0;
}

static int check_req(const struct vs_sel_req_spec *r, const struct req_rules *rules,
		     const char *where, struct vs_err *err)
{
	s64 num;
	int ret;

	if ((unsigned int)r->op >= VS_SEL_NR_OPS)
		return vs_err_set(err, EINVAL, "%s: bad operator %d", where, r->op);
	if (!(rules->ops & OP_BIT(r->op)))
		return vs_err_set(err, EINVAL, "%s: operator %s is not allowed here (%s)",
				  where, op_names[r->op], rules->ops_text);
	if (rules->field) {
		/* Kubernetes: a node field selector names one node per requirement. */
		if (!r->key || strcmp(r->key, VS_NODE_FIELD_NAME))
			return vs_err_set(err, EINVAL,
					  "%s: field \"%s\" is not supported (only %s)",
					  where, r->key ? r->key : "", VS_NODE_FIELD_NAME);
		if (r->nr_values != 1)
			return vs_err_set(err, EINVAL,
					  "%s: operator %s on a field needs exactly one value",
					  where, op_names[r->op]);
	} else {
		ret = vs_check_label_key(r->key, str_len(r->key), "label key", err);
		if (ret) {
			vs_err_prefix(err, "%s: ", where);
			return ret;
		}
		ret = check_req_count(r, where, err);
		if (ret)
			return ret;
	}
	for (u32 i = 0; i < r->nr_values; i++) {
		const char *v = r->values[i] ? r->values[i] : "";

		if (rules->field)
			ret = vs_check_dns_subdomain(v, strlen(v), "node name", err);
		else
			ret = vs_check_label_value(v, strlen(v), "label value", err);
		if (ret) {
			vs_err_prefix(err, "%s.values[%u]: ", where, i);
			return ret;
		}
	}
	if ((r->op == VS_SEL_GT || r->op == VS_SEL_LT) && !parse_s64(r->values[0], &num))
		return vs_err_set(err, EINVAL,
				  "%s: operator %s needs an integer value, not \"%s\"",
				  where, op_names[r->op], r->values[0] ? r->values[0] : "");
	return 0;
}

static int check_reqs(const struct vs_sel_req_spec *reqs, u32 nr,
		      const struct req_rules *rules, const char *where,
		      const char *name, struct vs_err *err)
{
	char w[WHERE_MAX];
	int ret;

	for (u32 i = 0; i < nr; i++) {
		where_fmt(w, "%s.%s[%u]", where, name, i);
		ret = check_req(&reqs[i], rules, w, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_node_term(const struct vs_node_selector_term_spec *t, const char *where,
			   struct vs_err *err)
{
	int ret;

	ret = check_reqs(t->exprs, t->nr_exprs, &node_expr_rules, where,
			 "matchExpressions", err);
	if (!ret)
		ret = check_reqs(t->fields, t->nr_fields, &node_field_rules, where,
				 "matchFields", err);
	return ret;
}

static int check_weight(s32 weight, const char *where, struct vs_err *err)
{
	if (weight < 1 || weight > 100)
		return vs_err_set(err, EINVAL, "%s.weight: %d is not in the range 1-100",
				  where, weight);
	return 0;
}

static int check_node_affinity(const struct vs_node_affinity_spec *na, struct vs_err *err)
{
	static const char where[] = "affinity.nodeAffinity";
	char w[WHERE_MAX], pw[WHERE_MAX];
	int ret;

	if (na->required) {
		if (!na->required->nr_terms)
			return vs_err_set(err, EINVAL, "%s.required: needs at least one term",
					  where);
		for (u32 i = 0; i < na->required->nr_terms; i++) {
			where_fmt(w, "%s.required[%u]", where, i);
			ret = check_node_term(&na->required->terms[i], w, err);
			if (ret)
				return ret;
		}
	}
	for (u32 i = 0; i < na->nr_preferred; i++) {
		where_fmt(w, "%s.preferred[%u]", where, i);
		ret = check_weight(na->preferred[i].weight, w, err);
		if (ret)
			return ret;
		where_fmt(pw, "%s.preference", w);
		ret = check_node_term(&na->preferred[i].preference, pw, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_label_selector(const struct vs_label_selector_spec *s, const char *where,
				struct vs_err *err)
{
	const struct vs_kv_spec *kv = s->match_labels;
	int ret;

	for (u32 i = 0; i < s->nr_match_labels; i++) {
		ret = vs_check_label_key(kv[i].key, str_len(kv[i].key), "label key", err);
		if (!ret)
			ret = vs_check_label_value(kv[i].value, str_len(kv[i].value),
						   "label value", err);
		if (ret) {
			vs_err_prefix(err, "%s.matchLabels: ", where);
			return ret;
		}
		/* A map in Kubernetes: a key given twice is a mistake of the caller. */
		for (u32 j = 0; j < i; j++)
			if (!strcmp(kv[j].key, kv[i].key))
				return vs_err_set(err, EINVAL,
						  "%s.matchLabels: key \"%s\" given twice",
						  where, kv[i].key);
	}
	return check_reqs(s->exprs, s->nr_exprs, &label_selector_rules, where,
			  "matchExpressions", err);
}

static int check_pod_term(const struct vs_pod_affinity_term_spec *t, const char *where,
			  struct vs_err *err)
{
	char w[WHERE_MAX];
	int ret;

	if (t->selector) {
		where_fmt(w, "%s.labelSelector", where);
		ret = check_label_selector(t->selector, w, err);
		if (ret)
			return ret;
	}
	for (u32 i = 0; i < t->nr_namespaces; i++) {
		const char *ns = t->namespaces[i];

		ret = vs_check_dns_label(ns, str_len(ns), "namespace", err);
		if (ret) {
			vs_err_prefix(err, "%s.namespaces[%u]: ", where, i);
			return ret;
		}
	}
	/*
	 * A namespace selector matches Namespace objects by their labels, and
	 * vsched has none: only the empty selector, which needs no labels,
	 * means something here.
	 */
	if (t->ns_selector && (t->ns_selector->nr_match_labels || t->ns_selector->nr_exprs))
		return vs_err_set(err, EINVAL,
				  "%s.namespaceSelector: only the empty selector (every namespace) is supported: vsched has no namespace objects to match labels against",
				  where);
	if (!str_len(t->topology_key))
		return vs_err_set(err, EINVAL, "%s: topologyKey is required", where);
	ret = vs_check_label_key(t->topology_key, strlen(t->topology_key), "topologyKey", err);
	if (ret)
		vs_err_prefix(err, "%s: ", where);
	return ret;
}

static int check_pod_affinity(const struct vs_pod_affinity_spec *pa, const char *where,
			      struct vs_err *err)
{
	char w[WHERE_MAX], tw[WHERE_MAX];
	int ret;

	for (u32 i = 0; i < pa->nr_required; i++) {
		where_fmt(w, "%s.required[%u]", where, i);
		ret = check_pod_term(&pa->required[i], w, err);
		if (ret)
			return ret;
	}
	for (u32 i = 0; i < pa->nr_preferred; i++) {
		where_fmt(w, "%s.preferred[%u]", where, i);
		ret = check_weight(pa->preferred[i].weight, w, err);
		if (ret)
			return ret;
		where_fmt(tw, "%s.podAffinityTerm", w);
		ret = check_pod_term(&pa->preferred[i].term, tw, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_affinity(const struct vs_affinity_spec *spec, struct vs_err *err)
{
	int ret = 0;

	if (spec->node_affinity)
		ret = check_node_affinity(spec->node_affinity, err);
	if (!ret && spec->pod_affinity)
		ret = check_pod_affinity(spec->pod_affinity, "affinity.podAffinity", err);
	if (!ret && spec->pod_anti_affinity)
		ret = check_pod_affinity(spec->pod_anti_affinity, "affinity.podAntiAffinity",
					 err);
	return ret;
}

/* ---- sizing: must carve exactly what the build below carves ---- */

static bool node_affinity_empty(const struct vs_node_affinity_spec *na)
{
	return !na || (!na->required && !na->nr_preferred);
}

static bool pod_affinity_empty(const struct vs_pod_affinity_spec *pa)
{
	return !pa || (!pa->nr_required && !pa->nr_preferred);
}

static size_t csize(size_t n)
{
	return ALIGN_UP(n, (size_t)CARVE_ALIGN);
}

static size_t labels_bytes(u32 nr)
{
	return nr ? sizeof(struct vs_labels) + nr * sizeof(struct vs_label) : 0;
}

static size_t reqs_size(const struct vs_sel_req_spec *reqs, u32 nr)
{
	size_t sz = csize(nr * sizeof(struct vs_sel_req));

	for (u32 i = 0; i < nr; i++)
		sz += csize(reqs[i].nr_values * sizeof(const char *));
	return sz;
}

static size_t node_term_size(const struct vs_node_selector_term_spec *t)
{
	return reqs_size(t->exprs, t->nr_exprs) + reqs_size(t->fields, t->nr_fields);
}

static size_t node_affinity_size(const struct vs_node_affinity_spec *na)
{
	size_t sz;

	if (node_affinity_empty(na))
		return 0;
	sz = csize(sizeof(struct vs_node_affinity));
	if (na->required) {
		sz += csize(na->required->nr_terms * sizeof(struct vs_node_selector_term));
		for (u32 i = 0; i < na->required->nr_terms; i++)
			sz += node_term_size(&na->required->terms[i]);
	}
	sz += csize(na->nr_preferred * sizeof(struct vs_node_pref_term));
	for (u32 i = 0; i < na->nr_preferred; i++)
		sz += node_term_size(&na->preferred[i].preference);
	return sz;
}

static size_t label_selector_size(const struct vs_label_selector_spec *s)
{
	if (!s)
		return 0;
	return csize(sizeof(struct vs_label_selector)) + csize(labels_bytes(s->nr_match_labels)) +
	       reqs_size(s->exprs, s->nr_exprs);
}

static size_t pod_term_size(const struct vs_pod_affinity_term_spec *t)
{
	return label_selector_size(t->selector) +
	       csize(t->nr_namespaces * sizeof(const char *));
}

static size_t pod_affinity_size(const struct vs_pod_affinity_spec *pa)
{
	size_t sz;

	if (pod_affinity_empty(pa))
		return 0;
	sz = csize(sizeof(struct vs_pod_affinity));
	sz += csize(pa->nr_required * sizeof(struct vs_pod_affinity_term));
	for (u32 i = 0; i < pa->nr_required; i++)
		sz += pod_term_size(&pa->required[i]);
	sz += csize(pa->nr_preferred * sizeof(struct vs_weighted_pod_affinity_term));
	for (u32 i = 0; i < pa->nr_preferred; i++)
		sz += pod_term_size(&pa->preferred[i].term);
	return sz;
}

static size_t affinity_size(const struct vs_affinity_spec *spec)
{
	return csize(sizeof(struct vs_affinity)) + node_affinity_size(spec->node_affinity) +
	       pod_affinity_size(spec->pod_affinity) +
	       pod_affinity_size(spec->pod_anti_affinity);
}

/* ---- building ---- */

struct builder {
	char *mem;			/* the zeroed block */
	size_t off, cap;
	struct vs_strtab *strs;
	bool nomem;			/* an intern failed: free and report */
};

static __cold __noreturn void affinity_bug(const char *what)
{
	fprintf(stderr, "vs_affinity: %s\n", what);
	abort();
}

/* The next @n bytes of the block; NULL for none. */
static void *carve(struct builder *b, size_t n)
{
	void *p;

	n = csize(n);
	if (!n)
		return NULL;
	if (n > b->cap - b->off)
		affinity_bug("the build carves more than was sized");
	p = b->mem + b->off;
	b->off += n;
	return p;
}

static const char *intern(struct builder *b, const char *s)
{
	const char *is = vs_str_get(b->strs, s ? s : "", str_len(s));

	if (!is)
		b->nomem = true;
	return is;
}

static const struct vs_sel_req *build_reqs(struct builder *b,
					   const struct vs_sel_req_spec *specs, u32 nr)
{
	struct vs_sel_req *reqs = carve(b, nr * sizeof(*reqs));

	for (u32 i = 0; i < nr; i++) {
		const struct vs_sel_req_spec *s = &specs[i];
		const char **values = carve(b, s->nr_values * sizeof(*values));
		struct vs_sel_req *r = &reqs[i];

		r->key = intern(b, s->key);
		r->op = s->op;
		r->nr_values = s->nr_values;
		for (u32 v = 0; v < s->nr_values; v++)
			values[v] = intern(b, s->values[v]);
		r->values = values;
		/* Checked already: it parses. */
		if (s->op == VS_SEL_GT || s->op == VS_SEL_LT)
			parse_s64(s->values[0], &r->num);
	}
	return reqs;
}

static void build_node_term(struct builder *b, struct vs_node_selector_term *t,
			    const struct vs_node_selector_term_spec *s)
{
	t->nr_exprs = s->nr_exprs;
	t->exprs = build_reqs(b, s->exprs, s->nr_exprs);
	t->nr_fields = s->nr_fields;
	t->fields = build_reqs(b, s->fields, s->nr_fields);
}

static const struct vs_node_affinity *build_node_affinity(struct builder *b,
							  const struct vs_node_affinity_spec *s)
{
	struct vs_node_selector_term *req = NULL;
	struct vs_node_pref_term *pref;
	struct vs_node_affinity *na;

	if (node_affinity_empty(s))
		return NULL;
	na = carve(b, sizeof(*na));
	if (s->required) {
		req = carve(b, s->required->nr_terms * sizeof(*req));
		for (u32 i = 0; i < s->required->nr_terms; i++)
			build_node_term(b, &req[i], &s->required->terms[i]);
		na->nr_required = s->required->nr_terms;
	}
	pref = carve(b, s->nr_preferred * sizeof(*pref));
	for (u32 i = 0; i < s->nr_preferred; i++) {
		pref[i].weight = s->preferred[i].weight;
		build_node_term(b, &pref[i].preference, &s->preferred[i].preference);
	}
	na->required = req;
	na->preferred = pref;
	na->nr_preferred = s->nr_preferred;
	return na;
}

static int cmp_label(const void *a, const void *b)
{
	const struct vs_label *la = a, *lb = b;

	return strcmp(la->key, lb->key);
}

static const struct vs_label_selector *build_label_selector(struct builder *b,
							    const struct vs_label_selector_spec *s)
{
	struct vs_label_selector *sel;
	struct vs_labels *ml;

	if (!s)
		return NULL;
	sel = carve(b, sizeof(*sel));
	ml = carve(b, labels_bytes(s->nr_match_labels));
	if (ml) {
		ml->nr = s->nr_match_labels;
		for (u32 i = 0; i < ml->nr; i++) {
			ml->kv[i].key = intern(b, s->match_labels[i].key);
			ml->kv[i].value = intern(b, s->match_labels[i].value);
		}
		/* Sorted like every other label set; NULL keys are only freed. */
		if (!b->nomem)
			qsort(ml->kv, ml->nr, sizeof(ml->kv[0]), cmp_label);
	}
	sel->match_labels = ml;
	sel->nr_exprs = s->nr_exprs;
	sel->exprs = build_reqs(b, s->exprs, s->nr_exprs);
	return sel;
}

static void build_pod_term(struct builder *b, struct vs_pod_affinity_term *t,
			   const struct vs_pod_affinity_term_spec *s)
{
	const char **ns;

	t->selector = build_label_selector(b, s->selector);
	ns = carve(b, s->nr_namespaces * sizeof(*ns));
	for (u32 i = 0; i < s->nr_namespaces; i++)
		ns[i] = intern(b, s->namespaces[i]);
	t->namespaces = ns;
	t->nr_namespaces = s->nr_namespaces;
	/* Checked already: a selector here is empty, and empty means every namespace. */
	t->all_namespaces = s->ns_selector != NULL;
	t->topology_key = intern(b, s->topology_key);
}

static const struct vs_pod_affinity *build_pod_affinity(struct builder *b,
							const struct vs_pod_affinity_spec *s)
{
	struct vs_weighted_pod_affinity_term *pref;
	struct vs_pod_affinity_term *req;
	struct vs_pod_affinity *pa;

	if (pod_affinity_empty(s))
		return NULL;
	pa = carve(b, sizeof(*pa));
	req = carve(b, s->nr_required * sizeof(*req));
	for (u32 i = 0; i < s->nr_required; i++)
		build_pod_term(b, &req[i], &s->required[i]);
	pref = carve(b, s->nr_preferred * sizeof(*pref));
	for (u32 i = 0; i < s->nr_preferred; i++) {
		pref[i].weight = s->preferred[i].weight;
		build_pod_term(b, &pref[i].term, &s->preferred[i].term);
	}
	pa->nr_required = s->nr_required;
	pa->required = req;
	pa->nr_preferred = s->nr_preferred;
	pa->preferred = pref;
	return pa;
}

/* ---- freeing: drop every reference the build took ---- */

static void put_reqs(struct vs_strtab *strs, const struct vs_sel_req *reqs, u32 nr)
{
	for (u32 i = 0; i < nr; i++) {
		vs_str_put(strs, reqs[i].key);
		for (u32 v = 0; v < reqs[i].nr_values; v++)
			vs_str_put(strs, reqs[i].values[v]);
	}
}

static void put_node_term(struct vs_strtab *strs, const struct vs_node_selector_term *t)
{
	put_reqs(strs, t->exprs, t->nr_exprs);
	put_reqs(strs, t->fields, t->nr_fields);
}

static void put_node_affinity(struct vs_strtab *strs, const struct vs_node_affinity *na)
{
	if (!na)
		return;
	for (u32 i = 0; i < na->nr_required; i++)
		put_node_term(strs, &na->required[i]);
	for (u32 i = 0; i < na->nr_preferred; i++)
		put_node_term(strs, &na->preferred[i].preference);
}

static void put_label_selector(struct vs_strtab *strs, const struct vs_label_selector *sel)
{
	for (u32 i = 0; sel->match_labels && i < sel->match_labels->nr; i++) {
		vs_str_put(strs, sel->match_labels->kv[i].key);
		vs_str_put(strs, sel->match_labels->kv[i].value);
	}
	put_reqs(strs, sel->exprs, sel->nr_exprs);
}

static void put_pod_term(struct vs_strtab *strs, const struct vs_pod_affinity_term *t)
{
	if (t->selector)
		put_label_selector(strs, t->selector);
	for (u32 i = 0; i < t->nr_namespaces; i++)
		vs_str_put(strs, t->namespaces[i]);
	vs_str_put(strs, t->topology_key);
}

static void put_pod_affinity(struct vs_strtab *strs, const struct vs_pod_affinity *pa)
{
	if (!pa)
		return;
	for (u32 i = 0; i < pa->nr_required; i++)
		put_pod_term(strs, &pa->required[i]);
	for (u32 i = 0; i < pa->nr_preferred; i++)
		put_pod_term(strs, &pa->preferred[i].term);
}

void vs_affinity_free(struct vs_strtab *strs, struct vs_affinity *aff)
{
	if (!aff)
		return;
	put_node_affinity(strs, aff->node_affinity);
	put_pod_affinity(strs, aff->pod_affinity);
	put_pod_affinity(strs, aff->pod_anti_affinity);
	free(aff);		/* the block: everything else lives inside it */
}

int vs_affinity_new(struct vs_strtab *strs, const struct vs_affinity_spec *spec,
		    struct vs_affinity **out, struct vs_err *err)
{
	struct builder b = { .strs = strs };
	struct vs_affinity *aff;
	int ret;

	*out = NULL;
	if (!spec)
		return 0;
	ret = check_affinity(spec, err);
	if (ret)
		return ret;
	if (node_affinity_empty(spec->node_affinity) && pod_affinity_empty(spec->pod_affinity) &&
	    pod_affinity_empty(spec->pod_anti_affinity))
		return 0;

	b.cap = affinity_size(spec);
	b.mem = calloc(1, b.cap);
	if (!b.mem)
		return vs_err_set(err, ENOMEM, "out of memory for affinity");
	aff = carve(&b, sizeof(*aff));	/* first: the block is freed through it */
	aff->node_affinity = build_node_affinity(&b, spec->node_affinity);
	aff->pod_affinity = build_pod_affinity(&b, spec->pod_affinity);
	aff->pod_anti_affinity = build_pod_affinity(&b, spec->pod_anti_affinity);
	if (b.off != b.cap)
		affinity_bug("the build carves less than was sized");
	if (b.nomem) {
		vs_affinity_free(strs, aff);
		return vs_err_set(err, ENOMEM, "out of memory for affinity");
	}
	*out = aff;
	return 0;
}

/* ---- a label selector on its own ---- */

int vs_label_selector_new(struct vs_strtab *strs, const struct vs_label_selector_spec *spec,
			  const char *where, struct vs_label_selector **out, struct vs_err *err)
{
	struct builder b = { .strs = strs };
	const struct vs_label_selector *sel;
	int ret;

	*out = NULL;
	if (!spec)
		return 0;
	ret = check_label_selector(spec, where, err);
	if (ret)
		return ret;
	b.cap = label_selector_size(spec);
	b.mem = calloc(1, b.cap);
	if (!b.mem)
		return vs_err_set(err, ENOMEM, "out of memory for %s", where);
	sel = build_label_selector(&b, spec);	/* first: the block is freed through it */
	if (b.off != b.cap)
		affinity_bug("the build carves less than was sized");
	if (b.nomem) {
		vs_label_selector_free(strs, (struct vs_label_selector *)sel);
		return vs_err_set(err, ENOMEM, "out of memory for %s", where);
	}
	*out = (struct vs_label_selector *)sel;
	return 0;
}

void vs_label_selector_free(struct vs_strtab *strs, struct vs_label_selector *sel)
{
	if (!sel)
		return;
	put_label_selector(strs, sel);
	free(sel);
}

int vs_label_selector_spec_of(const struct vs_label_selector *sel, struct vs_arena *arena,
			      const struct vs_label_selector_spec **out)
{
	struct vs_label_selector_spec *s = vs_arena_zalloc(arena, sizeof(*s));
	u32 nl = sel->match_labels ? sel->match_labels->nr : 0;
	struct vs_sel_req_spec *r;
	struct vs_kv_spec *kv;

	if (!s)
		return -ENOMEM;
	kv = nl ? vs_arena_alloc(arena, nl * sizeof(*kv)) : NULL;
	r = sel->nr_exprs ? vs_arena_zalloc(arena, sel->nr_exprs * sizeof(*r)) : NULL;
	if ((nl && !kv) || (sel->nr_exprs && !r))
		return -ENOMEM;
	for (u32 i = 0; i < nl; i++)
		kv[i] = (struct vs_kv_spec){ sel->match_labels->kv[i].key,
					     sel->match_labels->kv[i].value };
	for (u32 i = 0; i < sel->nr_exprs; i++) {
		r[i].key = sel->exprs[i].key;
		r[i].op = sel->exprs[i].op;
		r[i].values = sel->exprs[i].values;
		r[i].nr_values = sel->exprs[i].nr_values;
	}
	s->match_labels = kv;
	s->nr_match_labels = nl;
	s->exprs = r;
	s->nr_exprs = sel->nr_exprs;
	*out = s;
	return 0;
}

/* ---- matching ---- */

static bool req_has_value(const struct vs_sel_req *req, const char *value)
{
	for (u32 i = 0; i < req->nr_values; i++)
		if (req->values[i] == value)
			return true;
	return false;
}

bool vs_sel_req_match(const struct vs_sel_req *req, const char *value)
{
	s64 n;

	switch (req->op) {
	case VS_SEL_IN:
		return value && req_has_value(req, value);
	case VS_SEL_NOT_IN:
		return !value || !req_has_value(req, value);
	case VS_SEL_EXISTS:
		return value;
	case VS_SEL_DOES_NOT_EXIST:
		return !value;
	case VS_SEL_GT:
		return value && parse_s64(value, &n) && n > req->num;
	case VS_SEL_LT:
		return value && parse_s64(value, &n) && n < req->num;
	case VS_SEL_NR_OPS:
		break;
	}
	return false;
}

bool vs_node_selector_term_match(const struct vs_node_selector_term *term,
				 const struct vs_node *node)
{
	/* Kubernetes: "a nil or empty term selects no objects". */
	if (!term->nr_exprs && !term->nr_fields)
		return false;
	for (u32 i = 0; i < term->nr_exprs; i++) {
		const struct vs_sel_req *r = &term->exprs[i];

		if (!vs_sel_req_match(r, vs_labels_get(node->labels, r->key)))
			return false;
	}
	/* The one field is metadata.name, and node names are interned too. */
	for (u32 i = 0; i < term->nr_fields; i++)
		if (!vs_sel_req_match(&term->fields[i], node->name))
			return false;
	return true;
}

bool vs_node_affinity_required_match(const struct vs_affinity *aff,
				     const struct vs_node *node)
{
	const struct vs_node_affinity *na = aff ? aff->node_affinity : NULL;

	if (!na || !na->nr_required)
		return true;
	for (u32 i = 0; i < na->nr_required; i++)
		if (vs_node_selector_term_match(&na->required[i], node))
			return true;
	return false;
}

s64 vs_node_affinity_preferred_score(const struct vs_affinity *aff,
				     const struct vs_node *node)
{
	const struct vs_node_affinity *na = aff ? aff->node_affinity : NULL;
	s64 score = 0;

	for (u32 i = 0; na && i < na->nr_preferred; i++)
		if (vs_node_selector_term_match(&na->preferred[i].preference, node))
			score += na->preferred[i].weight;
	return score;
}

bool vs_label_selector_match(const struct vs_label_selector *sel,
			     const struct vs_labels *labels)
{
	if (!sel)
		return false;
	if (!vs_labels_match(labels, sel->match_labels))
		return false;
	for (u32 i = 0; i < sel->nr_exprs; i++) {
		const struct vs_sel_req *r = &sel->exprs[i];

		if (!vs_sel_req_match(r, vs_labels_get(labels, r->key)))
			return false;
	}
	return true;
}

static bool pod_term_ns_match(const struct vs_pod_affinity_term *term,
			      const char *owner_ns, const char *ns)
{
	if (term->all_namespaces)
		return true;
	if (!term->nr_namespaces)
		return ns == owner_ns;
	for (u32 i = 0; i < term->nr_namespaces; i++)
		if (term->namespaces[i] == ns)
			return true;
	return false;
}

bool vs_pod_affinity_term_match(const struct vs_pod_affinity_term *term,
				const char *owner_ns, const struct vs_task *other)
{
	return pod_term_ns_match(term, owner_ns, other->ns) &&
	       vs_label_selector_match(term->selector, other->labels);
}

static bool sel_reqs_equal(const struct vs_sel_req *a, const struct vs_sel_req *b, u32 nr)
{
	for (u32 i = 0; i < nr; i++) {
		if (a[i].key != b[i].key || a[i].op != b[i].op ||
		    a[i].nr_values != b[i].nr_values || a[i].num != b[i].num)
			return false;
		for (u32 v = 0; v < a[i].nr_values; v++)
			if (a[i].values[v] != b[i].values[v])	/* interned */
				return false;
	}
	return true;
}

bool vs_label_selector_equal(const struct vs_label_selector *a, const struct vs_label_selector *b)
{
	if (!a || !b)
		return a == b;
	return vs_labels_equal(a->match_labels, b->match_labels) && a->nr_exprs == b->nr_exprs &&
	       sel_reqs_equal(a->exprs, b->exprs, a->nr_exprs);
}

static bool pod_term_equal(const struct vs_pod_affinity_term *a,
			   const struct vs_pod_affinity_term *b)
{
	if (a->topology_key != b->topology_key || a->all_namespaces != b->all_namespaces ||
	    a->nr_namespaces != b->nr_namespaces || !vs_label_selector_equal(a->selector, b->selector))
		return false;
	for (u32 i = 0; i < a->nr_namespaces; i++)
		if (a->namespaces[i] != b->namespaces[i])
			return false;
	return true;
}

bool vs_pod_affinity_equal(const struct vs_pod_affinity *a, const struct vs_pod_affinity *b)
{
	if (!a || !b)
		return a == b;
	if (a->nr_required != b->nr_required || a->nr_preferred != b->nr_preferred)
		return false;
	for (u32 i = 0; i < a->nr_required; i++)
		if (!pod_term_equal(&a->required[i], &b->required[i]))
			return false;
	for (u32 i = 0; i < a->nr_preferred; i++)
		if (a->preferred[i].weight != b->preferred[i].weight ||
		    !pod_term_equal(&a->preferred[i].term, &b->preferred[i].term))
			return false;
	return true;
}

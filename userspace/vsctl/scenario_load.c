// SPDX-License-Identifier: Apache-2.0
/*
 * Reading a scenario file into a fresh core. This file owns the scenario
 * format's schema: which keys each object takes, how their values are
 * typed, and how they become the core's specs (vs_*_spec_init(),
 * vs_*_add()), the configuration and the expectations.
 *
 * The YAML goes through the configuration loader's own reader
 * (vs_yaml_parse(): the same refusals, every value with its line), so that a
 * scenario and a volcano-scheduler.conf are read by one set of rules. Every
 * object is a mapping walked against a table of its keys; an unknown key, a
 * value of the wrong type, a bad quantity or enum, a duplicate name or a
 * reference to something not listed is refused with "FILE:LINE: ..." naming
 * the key. Specs are built in a scratch arena that is reset after each
 * object: the core copies (interns) everything it keeps.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arena.h"
#include "sched/framework.h"
#include "vsctl/scenario.h"

#define SCN_FILE_MAX	(4u << 20)
#define SCN_CYCLES_MAX	1000

struct ld {
	struct scenario *scn;
	const char *file;
	const char *text;		/* the file, for the conf: block's position */
	size_t len;
	struct vs_err *err;
	struct vs_arena scratch;	/* the specs of the object being built */
};

__printf(3, 4)
static int lerr(struct ld *ld, u32 line, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vs_err_vat(ld->err, EINVAL, ld->file, line, fmt, ap);
	va_end(ap);
	return ret;
}

static int loom(struct ld *ld)
{
	return vs_err_set(ld->err, ENOMEM, "%s: out of memory", ld->file);
}

/* ---- entries ---- */

int scn_set_add(struct scn_set *set, const char *key, const char *val, double score, u32 line)
{
	struct scn_entry *e;

	if (set->nr == set->cap) {
		u32 cap = set->cap ? 2 * set->cap : 8;

		e = realloc(set->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		set->e = e;
		set->cap = cap;
	}
	e = &set->e[set->nr];
	*e = (struct scn_entry){ .score = score, .line = line };
	e->key = strdup(key);
	e->val = val ? strdup(val) : NULL;
	if (!e->key || (val && !e->val)) {
		free(e->key);
		free(e->val);
		return -ENOMEM;
	}
	set->nr++;
	return 0;
}

void scn_set_free(struct scn_set *set)
{
	for (u32 i = 0; i < set->nr; i++) {
		free(set->e[i].key);
		free(set->e[i].val);
	}
	free(set->e);
	*set = (struct scn_set){ 0 };
}

static const char *const key_names[SCN_NR_KEYS] = {
	[SCN_BINDS]		= "binds",
	[SCN_BIND_COUNT]	= "bindCount",
	[SCN_EVICTS]		= "evicts",
	[SCN_EVICT_COUNT]	= "evictCount",
	[SCN_PIPELINED]		= "pipelined",
	[SCN_PHASES]		= "podgroupPhase",
	[SCN_SCORES]		= "nodeScores",
};

const char *scn_key_name(enum scn_key key)
{
	return (unsigned int)key < SCN_NR_KEYS ? key_names[key] : "?";
}

/* ---- walking a mapping against a table of keys ---- */

/*
 * One key of an object: its parser stores the value at @off in the object
 * being filled. A null value is skipped (the default stays), as the format
 * says; bit i of the walk's @seen tells that field i was written.
 */
struct field {
	const char *key;
	int (*parse)(struct ld *ld, struct vs_arg_kv *kv, void *slot);
	size_t off;
};

#define FIELD(k, fn, type, member) { .key = k, .parse = fn, .off = offsetof(type, member) }

static const char *type_name(const struct vs_arg *v)
{
	static const char *const names[] = {
		[VS_ARG_NULL] = "null", [VS_ARG_BOOL] = "a boolean", [VS_ARG_INT] = "an integer",
		[VS_ARG_FLOAT] = "a number", [VS_ARG_STRING] = "a string",
		[VS_ARG_MAP] = "a mapping", [VS_ARG_SEQ] = "a list",
	};

	return names[v->type];
}

static int want(struct ld *ld, const struct vs_arg_kv *kv, enum vs_arg_type type,
		const char *what)
{
	if (kv->val.type == type)
		return 0;
	return lerr(ld, kv->line, "%s must be %s, not %s", kv->key, what, type_name(&kv->val));
}

static int walk(struct ld *ld, struct vs_arg *map, const char *what, const struct field *fields,
		u32 nr, void *obj, u64 *seen)
{
	char known[160];

	if (map->type != VS_ARG_MAP)
		return lerr(ld, map->line, "%s must be a mapping, not %s", what, type_name(map));
	for (u32 i = 0; i < map->map->nr; i++) {
		struct vs_arg_kv *kv = &map->map->kv[i];
		size_t len = 0;
		u32 f;
		int ret;

		for (f = 0; f < nr; f++)
			if (!strcmp(fields[f].key, kv->key))
				break;
		if (f == nr) {
			known[0] = '\0';
			for (u32 k = 0; k < nr && len < sizeof(known); k++)
				len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
							k ? ", " : "", fields[k].key);
			return lerr(ld, kv->line, "unknown key \"%s\" in %s (known: %s)", kv->key,
				    what, known);
		}
		if (kv->val.type == VS_ARG_NULL)
			continue;
		ret = fields[f].parse(ld, kv, (char *)obj + fields[f].off);
		if (ret)
			return ret;
		if (seen)
			*seen |= 1ull << f;
	}
	return 0;
}

/* "node n1", or "nodes[2]" when it has no name yet: what messages call an object. */
static const char *obj_name(struct ld *ld, struct vs_arg *map, const char *kind,
			    const char *list, u32 idx)
{
	const struct vs_arg *name = map->type == VS_ARG_MAP ? vs_args_find(map->map, "name") : NULL;
	char buf[160];

	if (name && name->type == VS_ARG_STRING)
		snprintf(buf, sizeof(buf), "%s %s", kind, name->s);
	else
		snprintf(buf, sizeof(buf), "%s[%u]", list, idx);
	return vs_arena_strdup(&ld->scratch, buf);
}

/* ---- scalar parsers ---- */

static int p_str(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	int ret = want(ld, kv, VS_ARG_STRING, "a string");

	if (!ret)
		*(const char **)slot = kv->val.s;
	return ret;
}

static int p_bool(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	int ret = want(ld, kv, VS_ARG_BOOL, "true or false");

	if (!ret)
		*(bool *)slot = kv->val.b;
	return ret;
}

static int get_int(struct ld *ld, struct vs_arg_kv *kv, s64 min, s64 max, s64 *out)
{
	int ret = want(ld, kv, VS_ARG_INT, "an integer");

	if (ret)
		return ret;
	if (kv->val.i < min || kv->val.i > max)
		return lerr(ld, kv->line, "%s must be between %lld and %lld", kv->key,
			    (long long)min, (long long)max);
	*out = kv->val.i;
	return 0;
}

static int p_u32(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	s64 v = 0;
	int ret = get_int(ld, kv, 0, UINT32_MAX, &v);

	if (!ret)
		*(u32 *)slot = (u32)v;
	return ret;
}

static int p_s32(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	s64 v = 0;
	int ret = get_int(ld, kv, INT32_MIN, INT32_MAX, &v);

	if (!ret)
		*(s32 *)slot = (s32)v;
	return ret;
}

/*
 * A quantity's text. Numbers are printed back as Go's FormatFloat(f, 'g',
 * -1) would (the shortest text that reads back to the same double), which is
 * what a Quantity decoded from a YAML number sees.
 */
static const char *qty_text(struct ld *ld, const struct vs_arg *v, char *buf, size_t size)
{
	switch (v->type) {
	case VS_ARG_STRING:
		return v->s;
	case VS_ARG_INT:
		snprintf(buf, size, "%lld", (long long)v->i);
		return buf;
	case VS_ARG_FLOAT:
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(buf, size, "%.*g", prec, v->f);
			if (strtod(buf, NULL) == v->f)
				break;
		}
		return buf;
	default:
		return NULL;
	}
}

/* A resource list: {cpu: "2", memory: 4Gi, pods: 110, nvidia.com/gpu: 1}. */
static int p_res(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct vs_res *r = slot;
	int ret = want(ld, kv, VS_ARG_MAP, "a mapping of quantities");

	if (ret)
		return ret;
	vs_res_clear(r);
	for (u32 i = 0; i < kv->val.map->nr; i++) {
		struct vs_arg_kv *q = &kv->val.map->kv[i];
		struct vs_err e = { { 0 } };
		const char *text;
		char buf[64];

		text = qty_text(ld, &q->val, buf, sizeof(buf));
		if (!text)
			return lerr(ld, q->line, "%s: %s must be a quantity, not %s", kv->key,
				    q->key, type_name(&q->val));
		if (vs_res_set_quantity(r, q->key, strlen(q->key), text, strlen(text), &e))
			return lerr(ld, q->line, "%s: %s", kv->key, e.msg);
	}
	return 0;
}

/* A string map (labels, nodeSelector): the core checks keys and values. */
struct kvs {
	struct vs_kv_spec *kv;
	u32 nr;
};

static int p_kvs(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct kvs *out = slot;
	int ret = want(ld, kv, VS_ARG_MAP, "a mapping of strings");

	if (ret)
		return ret;
	out->nr = 0;
	out->kv = vs_arena_calloc(&ld->scratch, kv->val.map->nr + 1, sizeof(*out->kv));
	if (!out->kv)
		return loom(ld);
	for (u32 i = 0; i < kv->val.map->nr; i++) {
		struct vs_arg_kv *l = &kv->val.map->kv[i];

		if (l->val.type != VS_ARG_STRING)
			return lerr(ld, l->line, "%s: the value of %s must be a string, not %s",
				    kv->key, l->key, type_name(&l->val));
		out->kv[out->nr++] = (struct vs_kv_spec){ .key = l->key, .value = l->val.s };
	}
	return 0;
}

/* A string list (namespaces, values). */
struct strs {
	const char **s;
	u32 nr;
};

static int p_strs(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct strs *out = slot;
	int ret = want(ld, kv, VS_ARG_SEQ, "a list of strings");

	if (ret)
		return ret;
	out->nr = 0;
	out->s = vs_arena_calloc(&ld->scratch, kv->val.seq.nr + 1, sizeof(*out->s));
	if (!out->s)
		return loom(ld);
	for (u32 i = 0; i < kv->val.seq.nr; i++) {
		const struct vs_arg *v = &kv->val.seq.items[i];

		if (v->type != VS_ARG_STRING)
			return lerr(ld, v->line, "%s[%u] must be a string, not %s", kv->key, i,
				    type_name(v));
		out->s[out->nr++] = v->s;
	}
	return 0;
}

/* An enum through the core's own parser, whose message lists the names. */
#define ENUM_PARSER(fn, type, parse)						\
static int fn(struct ld *ld, struct vs_arg_kv *kv, void *slot)			\
{										\
	struct vs_err e = { { 0 } };						\
	int ret = want(ld, kv, VS_ARG_STRING, "a string");			\
										\
	if (ret || !*kv->val.s)		/* "" is the default */			\
		return ret;							\
	if (parse(kv->val.s, (type *)slot, &e))					\
		return lerr(ld, kv->line, "%s: %s", kv->key, e.msg);		\
	return 0;								\
}

ENUM_PARSER(p_queue_state, enum vs_queue_state, vs_queue_state_parse)
ENUM_PARSER(p_pg_phase, enum vs_pg_phase, vs_pg_phase_parse)
ENUM_PARSER(p_task_status, enum vs_task_status, vs_task_status_parse)
ENUM_PARSER(p_policy, enum vs_preemption_policy, vs_preemption_policy_parse)
ENUM_PARSER(p_tol_op, enum vs_toleration_op, vs_toleration_op_parse)
ENUM_PARSER(p_sel_op, enum vs_sel_op, vs_sel_op_parse)

/* Taint effects: an empty effect is every effect, for tolerations only. */
static int p_effect(struct ld *ld, struct vs_arg_kv *kv, void *slot, bool allow_empty)
{
	struct vs_err e = { { 0 } };
	int ret = want(ld, kv, VS_ARG_STRING, "a string");

	if (ret)
		return ret;
	if (vs_taint_effect_parse(kv->val.s, allow_empty, slot, &e))
		return lerr(ld, kv->line, "%s: %s", kv->key, e.msg);
	return 0;
}

static int p_taint_effect(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	return p_effect(ld, kv, slot, false);
}

static int p_tol_effect(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	return p_effect(ld, kv, slot, true);
}

static int p_s64(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	return get_int(ld, kv, INT64_MIN, INT64_MAX, slot);
}

/* ---- lists of objects ---- */

/*
 * A list whose items are mappings of @fields, each item @size bytes in the
 * scratch arena, initialised by @init (or zeroed), checked by @done.
 */
struct list_desc {
	const char *what;		/* "a taint" */
	const struct field *fields;
	u32 nr_fields;
	size_t size;
	void (*init)(void *item);
	int (*done)(struct ld *ld, struct vs_arg *item_arg, void *item, u64 seen);
};

struct items {
	void *v;
	u32 nr;
};

static int parse_list(struct ld *ld, struct vs_arg_kv *kv, const struct list_desc *d,
		      struct items *out)
{
	int ret = want(ld, kv, VS_ARG_SEQ, "a list");

	if (ret)
		return ret;
	out->nr = 0;
	out->v = vs_arena_calloc(&ld->scratch, kv->val.seq.nr + 1, d->size);
	if (!out->v)
		return loom(ld);
	for (u32 i = 0; i < kv->val.seq.nr; i++) {
		struct vs_arg *a = &kv->val.seq.items[i];
		void *item = (char *)out->v + i * d->size;
		char what[96];
		u64 seen = 0;

		if (d->init)
			d->init(item);
		snprintf(what, sizeof(what), "%s (%s[%u])", d->what, kv->key, i);
		ret = walk(ld, a, what, d->fields, d->nr_fields, item, &seen);
		if (!ret && d->done)
			ret = d->done(ld, a, item, seen);
		if (ret)
			return ret;
		out->nr++;
	}
	return 0;
}

#define LIST_PARSER(fn, desc)							\
static int fn(struct ld *ld, struct vs_arg_kv *kv, void *slot)			\
{										\
	return parse_list(ld, kv, &desc, slot);					\
}

static const struct field taint_fields[] = {
	FIELD("key", p_str, struct vs_taint_spec, key),
	FIELD("value", p_str, struct vs_taint_spec, value),
	FIELD("effect", p_taint_effect, struct vs_taint_spec, effect),
};

static const struct list_desc taint_list = {
	.what = "a taint", .fields = taint_fields, .nr_fields = ARRAY_SIZE(taint_fields),
	.size = sizeof(struct vs_taint_spec),
};
LIST_PARSER(p_taints, taint_list)

static int tol_done(struct ld *ld, struct vs_arg *a, void *item, u64 seen)
{
	struct vs_toleration_spec *t = item;

	t->has_seconds = seen & (1u << 4);	/* tolerationSeconds */
	return 0;
}

static void tol_init(void *item)
{
	struct vs_toleration_spec *t = item;

	t->effect = VS_TAINT_EFFECT_ALL;
}

static const struct field tol_fields[] = {
	FIELD("key", p_str, struct vs_toleration_spec, key),
	FIELD("operator", p_tol_op, struct vs_toleration_spec, op),
	FIELD("value", p_str, struct vs_toleration_spec, value),
	FIELD("effect", p_tol_effect, struct vs_toleration_spec, effect),
	FIELD("tolerationSeconds", p_s64, struct vs_toleration_spec, seconds),
};

static const struct list_desc tol_list = {
	.what = "a toleration", .fields = tol_fields, .nr_fields = ARRAY_SIZE(tol_fields),
	.size = sizeof(struct vs_toleration_spec), .init = tol_init, .done = tol_done,
};
LIST_PARSER(p_tolerations, tol_list)

/* ---- affinity, in Kubernetes' shape ---- */

/* A requirement: {key, operator, values}. */
struct req_in {
	struct vs_sel_req_spec spec;
	struct strs values;
};

static int req_done(struct ld *ld, struct vs_arg *a, void *item, u64 seen)
{
	struct req_in *r = item;

	if (!(seen & 1))
		return lerr(ld, a->line, "a requirement without a key");
	if (!(seen & 2))
		return lerr(ld, a->line, "requirement %s has no operator", r->spec.key);
	r->spec.values = r->values.s;
	r->spec.nr_values = r->values.nr;
	return 0;
}

static const struct field req_fields[] = {
	FIELD("key", p_str, struct req_in, spec.key),
	FIELD("operator", p_sel_op, struct req_in, spec.op),
	FIELD("values", p_strs, struct req_in, values),
};

static const struct list_desc req_list = {
	.what = "a requirement", .fields = req_fields, .nr_fields = ARRAY_SIZE(req_fields),
	.size = sizeof(struct req_in), .done = req_done,
};

/* The core takes arrays of specs: copy them out of their wrappers. */
static int reqs_out(struct ld *ld, const struct items *in, const struct vs_sel_req_spec **out,
		    u32 *nr)
{
	struct vs_sel_req_spec *v = vs_arena_calloc(&ld->scratch, in->nr + 1, sizeof(*v));

	if (!v)
		return loom(ld);
	for (u32 i = 0; i < in->nr; i++)
		v[i] = ((struct req_in *)in->v)[i].spec;
	*out = v;
	*nr = in->nr;
	return 0;
}

static int p_reqs(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	return parse_list(ld, kv, &req_list, slot);
}

/* A NodeSelectorTerm: {matchExpressions, matchFields}. */
struct term_in {
	struct vs_node_selector_term_spec spec;
	struct items exprs, fields;
};

static int term_done(struct ld *ld, struct vs_arg *a, void *item, u64 seen)
{
	struct term_in *t = item;

	return reqs_out(ld, &t->exprs, &t->spec.exprs, &t->spec.nr_exprs) ?:
	       reqs_out(ld, &t->fields, &t->spec.fields, &t->spec.nr_fields);
}

static const struct field term_fields[] = {
	FIELD("matchExpressions", p_reqs, struct term_in, exprs),
	FIELD("matchFields", p_reqs, struct term_in, fields),
};

static const struct list_desc term_list = {
	.what = "a node selector term", .fields = term_fields,
	.nr_fields = ARRAY_SIZE(term_fields), .size = sizeof(struct term_in), .done = term_done,
};

static int p_term(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct term_in *t = slot;
	char what[64];
	int ret;

	snprintf(what, sizeof(what), "%s", kv->key);
	ret = walk(ld, &kv->val, what, term_fields, ARRAY_SIZE(term_fields), t, NULL);
	return ret ?: term_done(ld, &kv->val, t, 0);
}

/* requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [...]} */
struct node_sel_in {
	struct vs_node_selector_spec spec;
	struct items terms;
	bool set;
};

static int p_terms(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	return parse_list(ld, kv, &term_list, slot);
}

static const struct field node_sel_fields[] = {
	FIELD("nodeSelectorTerms", p_terms, struct node_sel_in, terms),
};

static int p_node_sel(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct node_sel_in *s = slot;
	struct vs_node_selector_term_spec *v;
	int ret;

	ret = walk(ld, &kv->val, kv->key, node_sel_fields, ARRAY_SIZE(node_sel_fields), s, NULL);
	if (ret)
		return ret;
	v = vs_arena_calloc(&ld->scratch, s->terms.nr + 1, sizeof(*v));
	if (!v)
		return loom(ld);
	for (u32 i = 0; i < s->terms.nr; i++)
		v[i] = ((struct term_in *)s->terms.v)[i].spec;
	s->spec = (struct vs_node_selector_spec){ .terms = v, .nr_terms = s->terms.nr };
	s->set = true;
	return 0;
}

/* preferredDuringSchedulingIgnoredDuringExecution: [{weight, preference}] */
struct pref_in {
	s32 weight;
	struct term_in preference;
};

static const struct field pref_fields[] = {
	FIELD("weight", p_s32, struct pref_in, weight),
	FIELD("preference", p_term, struct pref_in, preference),
};

static const struct list_desc pref_list = {
	.what = "a preferred term", .fields = pref_fields, .nr_fields = ARRAY_SIZE(pref_fields),
	.size = sizeof(struct pref_in),
};
LIST_PARSER(p_prefs, pref_list)

struct node_aff_in {
	struct node_sel_in required;
	struct items preferred;
};

static const struct field node_aff_fields[] = {
	FIELD("requiredDuringSchedulingIgnoredDuringExecution", p_node_sel, struct node_aff_in,
	      required),
	FIELD("preferredDuringSchedulingIgnoredDuringExecution", p_prefs, struct node_aff_in,
	      preferred),
};

/* A LabelSelector: {matchLabels, matchExpressions}. */
struct label_sel_in {
	struct vs_label_selector_spec spec;
	struct kvs labels;
	struct items exprs;
	bool set;
};

static const struct field label_sel_fields[] = {
	FIELD("matchLabels", p_kvs, struct label_sel_in, labels),
	FIELD("matchExpressions", p_reqs, struct label_sel_in, exprs),
};

static int p_label_sel(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct label_sel_in *s = slot;
	int ret;

	ret = walk(ld, &kv->val, kv->key, label_sel_fields, ARRAY_SIZE(label_sel_fields), s,
		   NULL);
	if (!ret)
		ret = reqs_out(ld, &s->exprs, &s->spec.exprs, &s->spec.nr_exprs);
	if (ret)
		return ret;
	s->spec.match_labels = s->labels.kv;
	s->spec.nr_match_labels = s->labels.nr;
	s->set = true;
	return 0;
}

/* A PodAffinityTerm. */
struct pod_term_in {
	struct vs_pod_affinity_term_spec spec;
	struct label_sel_in selector, ns_selector;
	struct strs namespaces;
};

static int pod_term_done(struct ld *ld, struct vs_arg *a, void *item, u64 seen)
{
	struct pod_term_in *t = item;

	t->spec.selector = t->selector.set ? &t->selector.spec : NULL;
	t->spec.ns_selector = t->ns_selector.set ? &t->ns_selector.spec : NULL;
	t->spec.namespaces = t->namespaces.s;
	t->spec.nr_namespaces = t->namespaces.nr;
	return 0;
}

static const struct field pod_term_fields[] = {
	FIELD("labelSelector", p_label_sel, struct pod_term_in, selector),
	FIELD("namespaces", p_strs, struct pod_term_in, namespaces),
	FIELD("namespaceSelector", p_label_sel, struct pod_term_in, ns_selector),
	FIELD("topologyKey", p_str, struct pod_term_in, spec.topology_key),
};

static const struct list_desc pod_term_list = {
	.what = "a pod affinity term", .fields = pod_term_fields,
	.nr_fields = ARRAY_SIZE(pod_term_fields), .size = sizeof(struct pod_term_in),
	.done = pod_term_done,
};
LIST_PARSER(p_pod_terms, pod_term_list)

static int p_pod_term(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	int ret = walk(ld, &kv->val, kv->key, pod_term_fields, ARRAY_SIZE(pod_term_fields), slot,
		       NULL);

	return ret ?: pod_term_done(ld, &kv->val, slot, 0);
}

struct wpod_term_in {
	s32 weight;
	struct pod_term_in term;
};

static const struct field wpod_term_fields[] = {
	FIELD("weight", p_s32, struct wpod_term_in, weight),
	FIELD("podAffinityTerm", p_pod_term, struct wpod_term_in, term),
};

static const struct list_desc wpod_term_list = {
	.what = "a weighted pod affinity term", .fields = wpod_term_fields,
	.nr_fields = ARRAY_SIZE(wpod_term_fields), .size = sizeof(struct wpod_term_in),
};
LIST_PARSER(p_wpod_terms, wpod_term_list)

struct pod_aff_in {
	struct items required, preferred;
};

static const struct field pod_aff_fields[] = {
	FIELD("requiredDuringSchedulingIgnoredDuringExecution", p_pod_terms, struct pod_aff_in,
	      required),
	FIELD("preferredDuringSchedulingIgnoredDuringExecution", p_wpod_terms, struct pod_aff_in,
	      preferred),
};

struct aff_in {
	struct vs_arg_kv *node, *pod, *anti;
};

static int p_keep(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	*(struct vs_arg_kv **)slot = kv;
	return 0;
}

static const struct field aff_fields[] = {
	FIELD("nodeAffinity", p_keep, struct aff_in, node),
	FIELD("podAffinity", p_keep, struct aff_in, pod),
	FIELD("podAntiAffinity", p_keep, struct aff_in, anti),
};

static int build_node_aff(struct ld *ld, struct vs_arg_kv *kv,
			  const struct vs_node_affinity_spec **out)
{
	struct vs_node_affinity_spec *spec = vs_arena_zalloc(&ld->scratch, sizeof(*spec));
	struct node_aff_in in = { 0 };
	struct vs_node_pref_term_spec *prefs;
	int ret;

	if (!spec)
		return loom(ld);
	ret = walk(ld, &kv->val, kv->key, node_aff_fields, ARRAY_SIZE(node_aff_fields), &in,
		   NULL);
	if (ret)
		return ret;
	prefs = vs_arena_calloc(&ld->scratch, in.preferred.nr + 1, sizeof(*prefs));
	if (!prefs)
		return loom(ld);
	for (u32 i = 0; i < in.preferred.nr; i++) {
		struct pref_in *p = &((struct pref_in *)in.preferred.v)[i];

		prefs[i] = (struct vs_node_pref_term_spec){ .weight = p->weight,
							     .preference = p->preference.spec };
	}
	if (in.required.set) {
		struct vs_node_selector_spec *req = vs_arena_zalloc(&ld->scratch, sizeof(*req));

		if (!req)
			return loom(ld);
		*req = in.required.spec;
		spec->required = req;
	}
	spec->preferred = prefs;
	spec->nr_preferred = in.preferred.nr;
	*out = spec;
	return 0;
}

static int build_pod_aff(struct ld *ld, struct vs_arg_kv *kv,
			 const struct vs_pod_affinity_spec **out)
{
	struct vs_pod_affinity_spec *spec = vs_arena_zalloc(&ld->scratch, sizeof(*spec));
	struct vs_pod_affinity_term_spec *req;
	struct vs_weighted_pod_affinity_term_spec *pref;
	struct pod_aff_in in = { 0 };
	int ret;

	if (!spec)
		return loom(ld);
	ret = walk(ld, &kv->val, kv->key, pod_aff_fields, ARRAY_SIZE(pod_aff_fields), &in, NULL);
	if (ret)
		return ret;
	req = vs_arena_calloc(&ld->scratch, in.required.nr + 1, sizeof(*req));
	pref = vs_arena_calloc(&ld->scratch, in.preferred.nr + 1, sizeof(*pref));
	if (!req || !pref)
		return loom(ld);
	for (u32 i = 0; i < in.required.nr; i++)
		req[i] = ((struct pod_term_in *)in.required.v)[i].spec;
	for (u32 i = 0; i < in.preferred.nr; i++) {
		struct wpod_term_in *w = &((struct wpod_term_in *)in.preferred.v)[i];

		pref[i] = (struct vs_weighted_pod_affinity_term_spec){ .weight = w->weight,
									.term = w->term.spec };
	}
	*spec = (struct vs_pod_affinity_spec){ .required = req, .nr_required = in.required.nr,
					       .preferred = pref,
					       .nr_preferred = in.preferred.nr };
	*out = spec;
	return 0;
}

static int p_affinity(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct vs_affinity_spec *spec = vs_arena_zalloc(&ld->scratch, sizeof(*spec));
	struct aff_in in = { 0 };
	int ret;

	if (!spec)
		return loom(ld);
	ret = walk(ld, &kv->val, "affinity", aff_fields, ARRAY_SIZE(aff_fields), &in, NULL);
	if (!ret && in.node)
		ret = build_node_aff(ld, in.node, &spec->node_affinity);
	if (!ret && in.pod)
		ret = build_pod_aff(ld, in.pod, &spec->pod_affinity);
	if (!ret && in.anti)
		ret = build_pod_aff(ld, in.anti, &spec->pod_anti_affinity);
	if (!ret)
		*(const struct vs_affinity_spec **)slot = spec;
	return ret;
}

/* minTaskMember: {role: min}; "" stands for tasks without a role. */
struct role_mins {
	struct vs_role_min_spec *v;
	u32 nr;
};

static int p_role_mins(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct role_mins *out = slot;
	int ret = want(ld, kv, VS_ARG_MAP, "a mapping of roles to numbers");

	if (ret)
		return ret;
	out->nr = 0;
	out->v = vs_arena_calloc(&ld->scratch, kv->val.map->nr + 1, sizeof(*out->v));
	if (!out->v)
		return loom(ld);
	for (u32 i = 0; i < kv->val.map->nr; i++) {
		struct vs_arg_kv *r = &kv->val.map->kv[i];
		u32 min;

		ret = p_u32(ld, r, &min);
		if (ret)
			return ret;
		out->v[out->nr++] = (struct vs_role_min_spec){ .role = r->key, .min = min };
	}
	return 0;
}

/* ---- the objects ---- */

/* Add each item of the list @kv (NULL: none) with @add, in file order. */
static int add_each(struct ld *ld, struct vs_arg_kv *kv,
		    int (*add)(struct ld *ld, struct vs_arg *item, u32 idx, const char *list))
{
	int ret;

	if (!kv || kv->val.type == VS_ARG_NULL)
		return 0;
	ret = want(ld, kv, VS_ARG_SEQ, "a list");
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		ret = add(ld, &kv->val.seq.items[i], i, kv->key);
		vs_arena_reset(&ld->scratch);
	}
	return ret;
}

/* Report a refusal of the core (whose message names the object) at the object's line. */
static int core_err(struct ld *ld, u32 line, const struct vs_err *e)
{
	return lerr(ld, line, "%s", e->msg);
}

static int need_name(struct ld *ld, struct vs_arg *item, const char *what, const char *name)
{
	if (name && *name)
		return 0;
	return lerr(ld, item->line, "%s has no name", what);
}

struct prioclass_in {
	struct vs_prioclass_spec spec;
};

static const struct field prioclass_fields[] = {
	FIELD("name", p_str, struct prioclass_in, spec.name),
	FIELD("value", p_s32, struct prioclass_in, spec.value),
	FIELD("globalDefault", p_bool, struct prioclass_in, spec.global_default),
	FIELD("preemptionPolicy", p_policy, struct prioclass_in, spec.preemption_policy),
};

static int add_prioclass(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "priority class", list, idx);
	struct prioclass_in in = { { 0 } };
	struct vs_err e = { { 0 } };
	int ret;

	ret = walk(ld, item, what, prioclass_fields, ARRAY_SIZE(prioclass_fields), &in, NULL) ?:
	      need_name(ld, item, what, in.spec.name);
	if (ret)
		return ret;
	if (vs_prioclass_add(&ld->scn->cl, &in.spec, NULL, &e))
		return core_err(ld, item->line, &e);
	return 0;
}

struct queue_in {
	struct vs_queue_spec spec;
	const char *name;
};

static const struct field queue_fields[] = {
	FIELD("name", p_str, struct queue_in, name),
	FIELD("weight", p_u32, struct queue_in, spec.weight),
	FIELD("capability", p_res, struct queue_in, spec.capability),
	FIELD("guarantee", p_res, struct queue_in, spec.guarantee),
	FIELD("deserved", p_res, struct queue_in, spec.deserved),
	FIELD("reclaimable", p_bool, struct queue_in, spec.reclaimable),
	FIELD("priority", p_s32, struct queue_in, spec.priority),
	FIELD("state", p_queue_state, struct queue_in, spec.state),
	FIELD("parent", p_str, struct queue_in, spec.parent),
};

static int add_queue(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "queue", list, idx);
	struct queue_in in;
	struct vs_err e = { { 0 } };
	u64 seen = 0;
	int ret;

	memset(&in, 0, sizeof(in));
	vs_queue_spec_init(&in.spec, NULL);
	ret = walk(ld, item, what, queue_fields, ARRAY_SIZE(queue_fields), &in, &seen) ?:
	      need_name(ld, item, what, in.name);
	if (ret)
		return ret;
	in.spec.name = in.name;
	in.spec.has_capability = seen & (1u << 2);
	in.spec.has_deserved = seen & (1u << 4);
	if (vs_queue_add(&ld->scn->cl, &in.spec, NULL, &e))
		return core_err(ld, item->line, &e);
	return 0;
}

struct node_in {
	struct vs_node_spec spec;
	const char *name;
	struct kvs labels;
	struct items taints;
};

static const struct field node_fields[] = {
	FIELD("name", p_str, struct node_in, name),
	FIELD("allocatable", p_res, struct node_in, spec.allocatable),
	FIELD("labels", p_kvs, struct node_in, labels),
	FIELD("taints", p_taints, struct node_in, taints),
	FIELD("unschedulable", p_bool, struct node_in, spec.unschedulable),
	FIELD("ready", p_bool, struct node_in, spec.ready),
};

static int add_node(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "node", list, idx);
	struct node_in in;
	struct vs_err e = { { 0 } };
	int ret;

	memset(&in, 0, sizeof(in));
	vs_node_spec_init(&in.spec, NULL);
	ret = walk(ld, item, what, node_fields, ARRAY_SIZE(node_fields), &in, NULL) ?:
	      need_name(ld, item, what, in.name);
	if (ret)
		return ret;
	in.spec.name = in.name;
	in.spec.labels = in.labels.kv;
	in.spec.nr_labels = in.labels.nr;
	in.spec.taints = in.taints.v;
	in.spec.nr_taints = in.taints.nr;
	if (vs_node_add(&ld->scn->cl, &in.spec, NULL, &e))
		return core_err(ld, item->line, &e);
	return 0;
}

struct pg_in {
	struct vs_job_spec spec;
	const char *name, *ns;
	struct role_mins mins;
};

static const struct field pg_fields[] = {
	FIELD("name", p_str, struct pg_in, name),
	FIELD("namespace", p_str, struct pg_in, ns),
	FIELD("queue", p_str, struct pg_in, spec.queue),
	FIELD("minMember", p_u32, struct pg_in, spec.min_member),
	FIELD("minTaskMember", p_role_mins, struct pg_in, mins),
	FIELD("minResources", p_res, struct pg_in, spec.min_resources),
	FIELD("phase", p_pg_phase, struct pg_in, spec.phase),
	FIELD("priorityClass", p_str, struct pg_in, spec.priority_class),
};

/* Kubernetes' namespace when none is written. */
#define SCN_DEFAULT_NS	"default"

static int add_podgroup(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "podgroup", list, idx);
	struct pg_in in;
	struct vs_err e = { { 0 } };
	u64 seen = 0;
	int ret;

	memset(&in, 0, sizeof(in));
	vs_job_spec_init(&in.spec, NULL, NULL);
	ret = walk(ld, item, what, pg_fields, ARRAY_SIZE(pg_fields), &in, &seen) ?:
	      need_name(ld, item, what, in.name);
	if (ret)
		return ret;
	in.spec.ns = in.ns && *in.ns ? in.ns : SCN_DEFAULT_NS;
	in.spec.name = in.name;
	in.spec.min_task_member = in.mins.v;
	in.spec.nr_min_task_member = in.mins.nr;
	in.spec.has_min_resources = seen & (1u << 5);
	if (vs_job_add(&ld->scn->cl, &in.spec, NULL, &e))
		return core_err(ld, item->line, &e);
	return 0;
}

struct pod_in {
	struct vs_task_spec spec;
	const char *name, *ns, *podgroup, *node, *pipelined_to;
	enum vs_task_status phase;
	struct kvs labels, selector;
	struct items tolerations;
	struct vs_arg_kv *podgroup_kv, *node_kv, *pipelined_kv, *class_kv;
	bool has_priority, has_preemptable;
};

static int p_pod_podgroup(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, podgroup);

	in->podgroup_kv = kv;
	return p_str(ld, kv, slot);
}

static int p_pod_node(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, node);

	in->node_kv = kv;
	return p_str(ld, kv, slot);
}

static int p_pod_pipelined(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, pipelined_to);

	in->pipelined_kv = kv;
	return p_str(ld, kv, slot);
}

static int p_pod_class(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, spec.priority_class);

	in->class_kv = kv;
	return p_str(ld, kv, slot);
}

static int p_pod_priority(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, spec.priority);

	in->has_priority = true;
	return p_s32(ld, kv, slot);
}

static int p_pod_preemptable(struct ld *ld, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, spec.preemptable);

	in->has_preemptable = true;
	return p_bool(ld, kv, slot);
}

static const struct field pod_fields[] = {
	FIELD("name", p_str, struct pod_in, name),
	FIELD("namespace", p_str, struct pod_in, ns),
	FIELD("podgroup", p_pod_podgroup, struct pod_in, podgroup),
	FIELD("phase", p_task_status, struct pod_in, phase),
	FIELD("node", p_pod_node, struct pod_in, node),
	FIELD("request", p_res, struct pod_in, spec.req),
	FIELD("priority", p_pod_priority, struct pod_in, spec.priority),
	FIELD("priorityClass", p_pod_class, struct pod_in, spec.priority_class),
	FIELD("role", p_str, struct pod_in, spec.role),
	FIELD("preemptable", p_pod_preemptable, struct pod_in, spec.preemptable),
	FIELD("labels", p_kvs, struct pod_in, labels),
	FIELD("nodeSelector", p_kvs, struct pod_in, selector),
	FIELD("tolerations", p_tolerations, struct pod_in, tolerations),
	FIELD("affinity", p_affinity, struct pod_in, spec.affinity),
	FIELD("preemptionPolicy", p_policy, struct pod_in, spec.preemption_policy),
	FIELD("pipelinedTo", p_pod_pipelined, struct pod_in, pipelined_to),
};

/* What Volcano reads from a pod's labels (and annotations): role, preemptable. */
#define LABEL_TASK_SPEC		"volcano.sh/task-spec"
#define LABEL_PREEMPTABLE	"volcano.sh/preemptable"

static const char *label_get(const struct kvs *labels, const char *key)
{
	for (u32 i = 0; i < labels->nr; i++)
		if (!strcmp(labels->kv[i].key, key))
			return labels->kv[i].value;
	return NULL;
}

/*
 * The pod's status, as Volcano's getTaskStatus derives it from the phase:
 * a Pending pod with a node name is Bound. Any other task status may be
 * written directly (vsched's extension, for states a test sets up).
 */
static int pod_status(struct ld *ld, struct vs_arg *item, struct pod_in *in)
{
	bool on_node = in->node && *in->node;

	in->spec.status = in->phase;
	if (in->phase == VS_TASK_PENDING && on_node)
		in->spec.status = VS_TASK_BOUND;
	in->spec.node = on_node ? in->node : NULL;
	if (on_node && !vs_node_find(&ld->scn->cl, in->node))
		return lerr(ld, in->node_kv->line, "node: %s is not listed", in->node);
	return 0;
}

/* As Kubernetes' priority admission: a class gives its value, else the default class's. */
static int pod_priority(struct ld *ld, struct pod_in *in)
{
	const struct vs_prioclass *pc = NULL;
	const char *class = in->spec.priority_class;

	if (class && *class) {
		pc = vs_prioclass_find(&ld->scn->cl, class);
		if (!pc)
			return lerr(ld, in->class_kv->line, "priorityClass: %s is not listed",
				    class);
	} else {
		pc = vs_prioclass_default(&ld->scn->cl);
	}
	if (pc && !in->has_priority)
		in->spec.priority = pc->value;
	return 0;
}

static int add_pipeline(struct ld *ld, struct pod_in *in, struct vs_task *task)
{
	struct scenario *scn = ld->scn;
	struct scn_pipeline *p;
	struct vs_node *node;

	if (!in->pipelined_to || !*in->pipelined_to)
		return 0;
	node = vs_node_find(&scn->cl, in->pipelined_to);
	if (!node)
		return lerr(ld, in->pipelined_kv->line, "pipelinedTo: %s is not listed",
			    in->pipelined_to);
	if (task->status != VS_TASK_PENDING)
		return lerr(ld, in->pipelined_kv->line,
			    "pipelinedTo: only a pending pod without a node can be pipelined");
	p = realloc(scn->pipelines, (scn->nr_pipelines + 1) * sizeof(*p));
	if (!p)
		return loom(ld);
	scn->pipelines = p;
	p[scn->nr_pipelines++] = (struct scn_pipeline){ .task = task, .node = node };
	return 0;
}

static int add_pod(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "pod", list, idx);
	const char *label;
	struct pod_in in;
	struct vs_task *task;
	struct vs_err e = { { 0 } };
	int ret;

	memset(&in, 0, sizeof(in));
	vs_task_spec_init(&in.spec, NULL, NULL, NULL);
	in.phase = VS_TASK_PENDING;
	ret = walk(ld, item, what, pod_fields, ARRAY_SIZE(pod_fields), &in, NULL) ?:
	      need_name(ld, item, what, in.name);
	if (ret)
		return ret;
	in.spec.ns = in.ns && *in.ns ? in.ns : SCN_DEFAULT_NS;
	in.spec.name = in.name;
	if (!in.podgroup || !*in.podgroup)
		return lerr(ld, item->line, "%s: no podgroup", what);
	if (!vs_job_find(&ld->scn->cl, in.spec.ns, in.podgroup))
		return lerr(ld, in.podgroup_kv->line, "podgroup: %s/%s is not listed", in.spec.ns,
			    in.podgroup);
	in.spec.job = in.podgroup;
	ret = pod_status(ld, item, &in) ?: pod_priority(ld, &in);
	if (ret)
		return ret;
	label = label_get(&in.labels, LABEL_TASK_SPEC);
	if (label && !in.spec.role)
		in.spec.role = label;
	label = label_get(&in.labels, LABEL_PREEMPTABLE);
	if (label && !in.has_preemptable)
		in.spec.preemptable = !strcmp(label, "true") || !strcmp(label, "1") ||
				      !strcmp(label, "t") || !strcmp(label, "T") ||
				      !strcmp(label, "TRUE") || !strcmp(label, "True");
	in.spec.labels = in.labels.kv;
	in.spec.nr_labels = in.labels.nr;
	in.spec.node_selector = in.selector.kv;
	in.spec.nr_node_selector = in.selector.nr;
	in.spec.tolerations = in.tolerations.v;
	in.spec.nr_tolerations = in.tolerations.nr;
	if (vs_task_add(&ld->scn->cl, &in.spec, &task, &e))
		return core_err(ld, item->line, &e);
	return add_pipeline(ld, &in, task);
}

/* ---- the configuration ---- */

static bool known_name(const char *const *list, u32 nr, const char *name)
{
	for (u32 i = 0; i < nr; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static int unknown_name(struct ld *ld, u32 line, const char *what, const char *name,
			const char *const *list, u32 nr)
{
	char known[VS_ERR_MSG_MAX / 2];
	size_t len = 0;

	known[0] = '\0';
	for (u32 i = 0; i < nr && len < sizeof(known); i++)
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "",
					list[i]);
	return lerr(ld, line, "unknown %s \"%s\" (known: %s)", what, name, known);
}

/* Take the arguments map out of the tree: the configuration owns it from now on. */
static void steal_args(struct vs_arg *from, struct vs_args *to, const char *source)
{
	if (from->type == VS_ARG_MAP) {
		*to = *from->map;
		*from->map = (struct vs_args){ 0 };
	}
	to->source = source;
}

/* One plugin of the explicit form: {name, enableXxx: bool..., arguments: {...}}. */
static int conf_plugin(struct ld *ld, struct vs_arg *a, const struct vs_conf_names *names,
		       struct vs_conf_plugin *cp, const char *source)
{
	const struct vs_arg *name = a->type == VS_ARG_MAP ? vs_args_find(a->map, "name") : NULL;

	cp->line = a->line;
	cp->args.source = source;
	if (a->type != VS_ARG_MAP)
		return lerr(ld, a->line, "a plugin must be a mapping, not %s", type_name(a));
	if (!name || name->type != VS_ARG_STRING || !*name->s)
		return lerr(ld, a->line, "a plugin without a name");
	cp->name = strdup(name->s);
	if (!cp->name)
		return loom(ld);
	cp->line = name->line;
	if (!known_name(names->plugins, names->nr_plugins, cp->name))
		return unknown_name(ld, name->line, "plugin", cp->name, names->plugins,
				    names->nr_plugins);
	for (u32 i = 0; i < a->map->nr; i++) {
		struct vs_arg_kv *kv = &a->map->kv[i];
		int f, ret;

		if (!strcmp(kv->key, "name"))
			continue;
		if (!strcmp(kv->key, "arguments")) {
			if (kv->val.type != VS_ARG_NULL &&
			    (ret = want(ld, kv, VS_ARG_MAP, "a mapping")))
				return ret;
			steal_args(&kv->val, &cp->args, source);
			continue;
		}
		for (f = 0; f < VS_EN_NR; f++)
			if (!strcmp(kv->key, vs_en_flag_name((enum vs_en_flag)f)))
				break;
		if (f == VS_EN_NR)
			return lerr(ld, kv->line, "unknown key \"%s\" in plugin %s", kv->key,
				    cp->name);
		if (kv->val.type == VS_ARG_NULL)
			continue;
		ret = want(ld, kv, VS_ARG_BOOL, "true or false");
		if (ret)
			return ret;
		/* the explicit form: a flag not written stays off */
		cp->flags_set |= 1u << f;
		if (kv->val.b)
			cp->flags_on |= 1u << f;
	}
	return 0;
}

static int conf_tiers(struct ld *ld, struct vs_arg_kv *kv, const struct vs_conf_names *names,
		      struct vs_conf *conf)
{
	int ret;

	if (!kv || kv->val.type == VS_ARG_NULL)
		return 0;
	ret = want(ld, kv, VS_ARG_SEQ, "a list of tiers");
	if (ret || !kv->val.seq.nr)
		return ret;
	conf->tiers = calloc(kv->val.seq.nr, sizeof(*conf->tiers));
	if (!conf->tiers)
		return loom(ld);
	for (u32 t = 0; t < kv->val.seq.nr; t++) {
		struct vs_arg *tier = &kv->val.seq.items[t];
		struct vs_conf_tier *ct = &conf->tiers[conf->nr_tiers++];

		if (tier->type == VS_ARG_NULL)
			continue;
		if (tier->type != VS_ARG_SEQ)
			return lerr(ld, tier->line, "plugins[%u]: a tier must be a list of plugins",
				    t);
		if (!tier->seq.nr)
			continue;
		ct->plugins = calloc(tier->seq.nr, sizeof(*ct->plugins));
		if (!ct->plugins)
			return loom(ld);
		for (u32 i = 0; i < tier->seq.nr; i++) {
			ct->nr++;
			ret = conf_plugin(ld, &tier->seq.items[i], names, &ct->plugins[i],
					  conf->source);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int conf_actions(struct ld *ld, struct vs_arg_kv *kv, u32 line,
			const struct vs_conf_names *names, struct vs_conf *conf)
{
	int ret;

	if (!kv)
		return lerr(ld, line, "plugins or actionArguments without actions");
	if (kv->val.type == VS_ARG_NULL)
		return 0;
	ret = want(ld, kv, VS_ARG_SEQ, "a list");
	if (ret || !kv->val.seq.nr)
		return ret;
	conf->actions = calloc(kv->val.seq.nr, sizeof(*conf->actions));
	if (!conf->actions)
		return loom(ld);
	for (u32 i = 0; i < kv->val.seq.nr; i++) {
		const struct vs_arg *a = &kv->val.seq.items[i];

		if (a->type != VS_ARG_STRING)
			return lerr(ld, a->line, "actions[%u] must be a string, not %s", i,
				    type_name(a));
		if (!known_name(names->actions, names->nr_actions, a->s))
			return unknown_name(ld, a->line, "action", a->s, names->actions,
					    names->nr_actions);
		conf->actions[conf->nr_actions] = strdup(a->s);
		if (!conf->actions[conf->nr_actions])
			return loom(ld);
		conf->nr_actions++;
	}
	return 0;
}

static int conf_action_args(struct ld *ld, struct vs_arg_kv *kv,
			    const struct vs_conf_names *names, struct vs_conf *conf)
{
	int ret;

	if (!kv || kv->val.type == VS_ARG_NULL)
		return 0;
	ret = want(ld, kv, VS_ARG_MAP, "a mapping of actions to arguments");
	if (ret || !kv->val.map->nr)
		return ret;
	conf->configurations = calloc(kv->val.map->nr, sizeof(*conf->configurations));
	if (!conf->configurations)
		return loom(ld);
	for (u32 i = 0; i < kv->val.map->nr; i++) {
		struct vs_arg_kv *a = &kv->val.map->kv[i];
		struct vs_conf_action *ca = &conf->configurations[conf->nr_configurations++];

		ca->line = a->line;
		ca->args.source = conf->source;
		ca->name = strdup(a->key);
		if (!ca->name)
			return loom(ld);
		if (!known_name(names->actions, names->nr_actions, a->key))
			return unknown_name(ld, a->line, "action", a->key, names->actions,
					    names->nr_actions);
		if (a->val.type != VS_ARG_NULL && (ret = want(ld, a, VS_ARG_MAP, "a mapping")))
			return ret;
		steal_args(&a->val, &ca->args, conf->source);
	}
	return 0;
}

/*
 * The explicit form, built as the struct the configuration loader would
 * make, so that every line (plugins, flags, arguments) is the scenario's
 * own and every message points into the scenario.
 */
static int conf_explicit(struct ld *ld, struct vs_arg_kv *actions, struct vs_arg_kv *plugins,
			 struct vs_arg_kv *args)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	int ret;

	vs_framework_names(&names);
	conf = calloc(1, sizeof(*conf));
	if (!conf || !(conf->source = strdup(ld->file))) {
		free(conf);
		return loom(ld);
	}
	conf->metrics.source = conf->source;
	ld->scn->conf = conf;
	/* without actions, the explicit form is there for plugins or actionArguments */
	ret = conf_actions(ld, actions, actions ? actions->line : plugins ? plugins->line :
			   args->line, &names, conf);
	if (!ret)
		ret = conf_tiers(ld, plugins, &names, conf);
	if (!ret)
		ret = conf_action_args(ld, args, &names, conf);
	return ret;
}

/*
 * The line where the text of "conf:" starts: after the indicator line of a
 * block scalar (| or >), else on the value's own line. Messages about the
 * embedded configuration then point into the scenario once the text is
 * shifted down by that many lines.
 */
static u32 conf_first_line(struct ld *ld, const struct vs_arg *v)
{
	const char *p = ld->text, *end = ld->text + ld->len;
	u32 line = 1;

	while (p < end && line < v->line) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			return v->line;
		p = nl + 1;
		line++;
	}
	while (p < end && *p != '\n' && *p != ':')
		p++;
	if (p < end && *p == ':')
		p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p < end && (*p == '|' || *p == '>') ? v->line + 1 : v->line;
}

/* conf: a volcano-scheduler.conf, verbatim, with Volcano's defaults (flags on). */
static int conf_text(struct ld *ld, struct vs_arg_kv *kv)
{
	struct vs_conf_names names;
	size_t pad, len;
	char *text = NULL;
	int ret;

	ret = want(ld, kv, VS_ARG_STRING, "the text of a volcano-scheduler.conf");
	if (ret)
		return ret;
	pad = conf_first_line(ld, &kv->val) - 1;
	len = strlen(kv->val.s);
	text = malloc(pad + len + 1);
	if (!text)
		return loom(ld);
	memset(text, '\n', pad);
	memcpy(text + pad, kv->val.s, len + 1);
	vs_framework_names(&names);
	ret = vs_conf_parse(text, pad + len, ld->file, &names, VS_CONF_FLAGS_DEFAULT_ON,
			    &ld->scn->conf, ld->err);
	free(text);
	return ret;
}

static int conf_default(struct ld *ld)
{
	struct vs_conf_names names;

	vs_framework_names(&names);
	return vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text),
			     "the default configuration", &names, VS_CONF_FLAGS_DEFAULT_ON,
			     &ld->scn->conf, ld->err);
}

/* ---- expectations ---- */

/* "ns/name" of a task that exists, else an error at the entry's line. */
static int check_task(struct ld *ld, const char *key, u32 line, const char *what,
		      struct vs_task **out)
{
	const char *slash = strchr(key, '/');
	char ns[256];
	struct vs_task *task;

	if (!slash || (size_t)(slash - key) >= sizeof(ns))
		return lerr(ld, line, "%s: \"%s\" is not NAMESPACE/NAME", what, key);
	memcpy(ns, key, (size_t)(slash - key));
	ns[slash - key] = '\0';
	task = vs_task_find(&ld->scn->cl, ns, slash + 1);
	if (!task)
		return lerr(ld, line, "%s: pod %s is not listed", what, key);
	if (out)
		*out = task;
	return 0;
}

static int check_node(struct ld *ld, const char *name, u32 line, const char *what)
{
	if (vs_node_find(&ld->scn->cl, name))
		return 0;
	return lerr(ld, line, "%s: node %s is not listed", what, name);
}

static int add_entry(struct ld *ld, struct scn_set *set, const char *key, const char *val,
		     double score, u32 line)
{
	return scn_set_add(set, key, val, score, line) ? loom(ld) : 0;
}

/* binds, pipelined: {ns/pod: node}. */
static int e_placements(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = want(ld, kv, VS_ARG_MAP, "a mapping of pods to nodes");

	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *e = &kv->val.map->kv[i];

		if (e->val.type != VS_ARG_STRING)
			return lerr(ld, e->line, "%s: the node of %s must be a string", kv->key,
				    e->key);
		ret = check_task(ld, e->key, e->line, kv->key, NULL) ?:
		      check_node(ld, e->val.s, e->line, kv->key) ?:
		      add_entry(ld, set, e->key, e->val.s, 0, e->line);
	}
	return ret;
}

static int e_evicts(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = want(ld, kv, VS_ARG_SEQ, "a list of pods");

	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		const struct vs_arg *e = &kv->val.seq.items[i];

		if (e->type != VS_ARG_STRING)
			return lerr(ld, e->line, "evicts[%u] must be a string", i);
		ret = check_task(ld, e->s, e->line, kv->key, NULL) ?:
		      add_entry(ld, set, e->s, NULL, 0, e->line);
	}
	return ret;
}

static int e_phases(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = want(ld, kv, VS_ARG_MAP, "a mapping of podgroups to phases");

	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *e = &kv->val.map->kv[i];
		const char *slash = strchr(e->key, '/');
		struct vs_err err = { { 0 } };
		enum vs_pg_phase phase;
		char ns[256];

		if (!slash || (size_t)(slash - e->key) >= sizeof(ns))
			return lerr(ld, e->line, "%s: \"%s\" is not NAMESPACE/NAME", kv->key,
				    e->key);
		memcpy(ns, e->key, (size_t)(slash - e->key));
		ns[slash - e->key] = '\0';
		if (!vs_job_find(&ld->scn->cl, ns, slash + 1))
			return lerr(ld, e->line, "%s: podgroup %s is not listed", kv->key, e->key);
		if (e->val.type != VS_ARG_STRING)
			return lerr(ld, e->line, "%s: the phase of %s must be a string", kv->key,
				    e->key);
		if (vs_pg_phase_parse(e->val.s, &phase, &err))
			return lerr(ld, e->line, "%s: %s", kv->key, err.msg);
		ret = add_entry(ld, set, e->key, vs_pg_phase_name(phase), 0, e->line);
	}
	return ret;
}

static int e_scores(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = want(ld, kv, VS_ARG_MAP, "a mapping of pods to node scores");

	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *t = &kv->val.map->kv[i];

		ret = check_task(ld, t->key, t->line, kv->key, NULL) ?:
		      want(ld, t, VS_ARG_MAP, "a mapping of nodes to scores");
		for (u32 j = 0; !ret && j < t->val.map->nr; j++) {
			struct vs_arg_kv *n = &t->val.map->kv[j];
			double score;

			if (n->val.type == VS_ARG_INT)
				score = (double)n->val.i;
			else if (n->val.type == VS_ARG_FLOAT)
				score = n->val.f;
			else
				return lerr(ld, n->line, "%s: the score of %s on %s must be a number",
					    kv->key, t->key, n->key);
			ret = check_node(ld, n->key, n->line, kv->key) ?:
			      add_entry(ld, set, t->key, n->key, score, n->line);
		}
	}
	return ret;
}

static int e_count(struct ld *ld, struct vs_arg_kv *kv, u64 *out)
{
	s64 v = 0;
	int ret = get_int(ld, kv, 0, INT64_MAX, &v);

	if (!ret)
		*out = (u64)v;
	return ret;
}

static int parse_expect(struct ld *ld, struct vs_arg_kv *kv)
{
	struct scn_expect *x = &ld->scn->expect;
	int ret;

	if (!kv || kv->val.type == VS_ARG_NULL)
		return 0;
	ret = want(ld, kv, VS_ARG_MAP, "a mapping");
	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *e = &kv->val.map->kv[i];
		int k;

		if (!strcmp(e->key, "notes"))
			continue;
		for (k = 0; k < SCN_NR_KEYS; k++)
			if (!strcmp(e->key, key_names[k]))
				break;
		if (k == SCN_NR_KEYS)
			return lerr(ld, e->line, "unknown key \"%s\" in expect (known: binds, "
				    "bindCount, evicts, evictCount, pipelined, podgroupPhase, "
				    "nodeScores, notes)", e->key);
		if (e->val.type == VS_ARG_NULL)
			continue;
		x->has |= 1u << k;
		switch ((enum scn_key)k) {
		case SCN_BINDS:
			ret = e_placements(ld, e, &x->binds);
			break;
		case SCN_PIPELINED:
			ret = e_placements(ld, e, &x->pipelined);
			break;
		case SCN_EVICTS:
			ret = e_evicts(ld, e, &x->evicts);
			break;
		case SCN_PHASES:
			ret = e_phases(ld, e, &x->phases);
			break;
		case SCN_SCORES:
			ret = e_scores(ld, e, &x->scores);
			break;
		case SCN_BIND_COUNT:
			ret = e_count(ld, e, &x->bind_count);
			break;
		case SCN_EVICT_COUNT:
			ret = e_count(ld, e, &x->evict_count);
			break;
		default:
			break;
		}
	}
	return ret;
}

/* ---- the file ---- */

struct top_in {
	struct vs_arg_kv *source, *commit, *cycles, *actions, *plugins, *action_args, *conf;
	struct vs_arg_kv *queues, *nodes, *podgroups, *pods, *prioclasses, *expect;
};

static const struct field top_fields[] = {
	FIELD("source", p_keep, struct top_in, source),
	FIELD("commit", p_keep, struct top_in, commit),
	FIELD("cycles", p_keep, struct top_in, cycles),
	FIELD("actions", p_keep, struct top_in, actions),
	FIELD("plugins", p_keep, struct top_in, plugins),
	FIELD("actionArguments", p_keep, struct top_in, action_args),
	FIELD("conf", p_keep, struct top_in, conf),
	FIELD("queues", p_keep, struct top_in, queues),
	FIELD("nodes", p_keep, struct top_in, nodes),
	FIELD("podgroups", p_keep, struct top_in, podgroups),
	FIELD("pods", p_keep, struct top_in, pods),
	FIELD("priorityClasses", p_keep, struct top_in, prioclasses),
	FIELD("expect", p_keep, struct top_in, expect),
};

/* Keys whose null is not a default: an empty "actions:" is kept as "no actions". */
static struct vs_arg_kv *find_kv(struct vs_arg *root, const char *key)
{
	for (u32 i = 0; i < root->map->nr; i++)
		if (!strcmp(root->map->kv[i].key, key))
			return &root->map->kv[i];
	return NULL;
}

static int parse_root(struct ld *ld, struct vs_arg *root)
{
	struct scenario *scn = ld->scn;
	struct top_in in = { 0 };
	s64 cycles = 1;
	int ret;

	if (root->type == VS_ARG_NULL)
		return lerr(ld, 1, "the file is empty");
	ret = walk(ld, root, "a scenario", top_fields, ARRAY_SIZE(top_fields), &in, NULL);
	if (ret)
		return ret;
	if (in.cycles && (ret = get_int(ld, in.cycles, 1, SCN_CYCLES_MAX, &cycles)))
		return ret;
	scn->cycles = (u32)cycles;

	ret = add_each(ld, in.prioclasses, add_prioclass) ?:
	      add_each(ld, in.queues, add_queue) ?:
	      add_each(ld, in.nodes, add_node) ?:
	      add_each(ld, in.podgroups, add_podgroup) ?:
	      add_each(ld, in.pods, add_pod);
	if (ret)
		return ret;

	/* walk() skips null values; "actions:" alone still chooses the explicit form */
	in.actions = find_kv(root, "actions");
	if (in.conf && (in.actions || in.plugins || in.action_args))
		return lerr(ld, in.conf->line,
			    "conf and actions/plugins/actionArguments exclude each other");
	if (in.conf)
		ret = conf_text(ld, in.conf);
	else if (in.actions || in.plugins || in.action_args)
		ret = conf_explicit(ld, in.actions, in.plugins, in.action_args);
	else
		ret = conf_default(ld);
	return ret ?: parse_expect(ld, in.expect);
}

static int read_file(const char *path, char **out, size_t *out_len, struct vs_err *err)
{
	size_t len = 0, cap = 16 << 10;
	char *buf = malloc(cap), *bigger;
	int fd, ret = 0;
	ssize_t n;

	if (!buf)
		return vs_err_set(err, ENOMEM, "%s: out of memory", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = vs_err_set(err, errno, "%s: %s", path, strerror(errno));
		goto out_free;
	}
	for (;;) {
		if (len == cap) {
			if (cap > SCN_FILE_MAX) {
				ret = vs_err_set(err, EFBIG, "%s: larger than %u bytes", path,
						 SCN_FILE_MAX);
				break;
			}
			cap *= 2;
			bigger = realloc(buf, cap);
			if (!bigger) {
				ret = vs_err_set(err, ENOMEM, "%s: out of memory", path);
				break;
			}
			buf = bigger;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = vs_err_set(err, errno, "%s: %s", path, strerror(errno));
			break;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!ret) {
		*out = buf;
		*out_len = len;
		return 0;
	}
out_free:
	free(buf);
	return ret;
}

int scenario_load(struct scenario *scn, const char *file, struct vs_err *err)
{
	struct ld ld = { .scn = scn, .file = file, .err = err };
	struct vs_arg root;
	char *text = NULL;
	size_t len = 0;
	int ret;

	memset(scn, 0, sizeof(*scn));
	scn->file = file;
	scn->cycles = 1;
	ret = read_file(file, &text, &len, err);
	if (ret)
		return ret;
	ld.text = text;
	ld.len = len;
	ret = vs_yaml_parse(text, len, file, &root, err);
	if (!ret) {
		ret = vs_cluster_init(&scn->cl);
		if (ret)
			ret = loom(&ld);
		else
			scn->cl_ready = true;
	}
	if (!ret) {
		vs_arena_init(&ld.scratch, 0);
		ret = parse_root(&ld, &root);
		vs_arena_destroy(&ld.scratch);
	}
	vs_arg_free(&root);
	free(text);
	return ret;
}

void scenario_free(struct scenario *scn)
{
	struct scn_expect *x = &scn->expect;

	vs_conf_free(scn->conf);
	free(scn->pipelines);
	scn_set_free(&x->binds);
	scn_set_free(&x->evicts);
	scn_set_free(&x->pipelined);
	scn_set_free(&x->phases);
	scn_set_free(&x->scores);
	if (scn->cl_ready)
		vs_cluster_destroy(&scn->cl);
	memset(scn, 0, sizeof(*scn));
}

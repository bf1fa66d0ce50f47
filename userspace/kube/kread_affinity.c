// SPDX-License-Identifier: Apache-2.0
/*
 * A pod spec's affinity as the protocol's affinity nest: see kread.h.
 *
 * Kubernetes nests what the protocol flattens: a required node affinity's
 * nodeSelectorTerms are each a node-required nest, a preferred term's
 * weight sits beside its preference's requirements, a weighted pod
 * affinity term's beside its podAffinityTerm's fields. The keys taken and
 * refused, and the reader's own messages, are kfields.c's (kf_affinity());
 * ranges (weights, key lengths) are the codec's and the daemon's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"
#include "vsched/vsched.h"

/*
 * What a walk below the affinity nest writes into: the nest's set (its
 * attributes are put as their keys are read), and a weighted term's weight,
 * put after the walk.
 */
struct aff_obj {
	const struct vsnl_codec_set *set;
	u16 req_type, pref_type;	/* pod (anti-)affinity: its terms' types */
	s32 weight;
};

static int nest_failed(struct kr *kr, const struct vsnl_ynode *at, const char *field)
{
	return kr_put_ret(kr, at, field, kr->err->err ?: -EMSGSIZE);
}

/* How messages name the field @key of the item the walk is at: "...matchExpressions[0].key". */
static const char *item_field(struct kr *kr, const char *key)
{
	size_t len = kr->path_len < sizeof(kr->path) ? kr->path_len : sizeof(kr->path) - 1;

	memcpy(kr->name, kr->path, len);
	kr->name[len] = '\0';
	kr_path_step(kr->name, sizeof(kr->name), len, key);
	return kr->name;
}

/* ---- lists ---- */

int kr_strs(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list of strings");

	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		const struct vsnl_ynode *v = &kv->val.seq.items[i];

		if (v->type != VSNL_Y_STRING)
			ret = kr_err(kr, v->line, "%s[%u] must be a string, not %s",
				     kr_name(kr, kv), i, kr_type_name(v));
	}
	if (!ret)
		*(const struct vsnl_ypair **)slot = kv;
	return ret;
}

int kr_put_strs(struct kr *kr, const struct vsnl_ypair *kv, const struct vsnl_codec_set *set,
		u16 type)
{
	size_t old = kr_push(kr, kv->key);
	int ret = 0;

	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		const struct vsnl_ynode *v = &kv->val.seq.items[i];
		size_t at = kr_push_idx(kr, i);

		ret = kr_put_ret(kr, v, kr->path,
				 vsnl_codec_put_str(kr->nlh, kr->cap, set, type, v->text, kr->err));
		kr_pop(kr, at);
	}
	kr_pop(kr, old);
	return ret;
}

/*
 * A list of terms: each item's mapping walked against @fields into an
 * aff_obj on its nest, whose "weight", when the walk read one, is then put
 * as @weight_type (0: the terms have none).
 */
struct aff_list {
	const char *what;		/* "a node selector term" */
	const struct kr_field *fields;
	u32 nr_fields;
	u16 weight_type;
};

/*
 * The weight the walk read, beside the term's attributes; without one the
 * term lacks a required attribute, which the daemon refuses (the old
 * reader's core refused its weight 0).
 */
static int put_weight(struct kr *kr, const struct vsnl_ynode *item, const struct aff_obj *obj,
		      u16 type)
{
	return kr_put_ret(kr, vsnl_ymap_get(item, "weight"), item_field(kr, "weight"),
			  vsnl_codec_put_int(kr->nlh, kr->cap, obj->set, type, obj->weight,
					     kr->err));
}

/* The list @kv, each item a nest @type of @set written as @l says, with @proto's types. */
static int put_list(struct kr *kr, const struct vsnl_ypair *kv, const struct vsnl_codec_set *set,
		    u16 type, const struct aff_list *l, const struct aff_obj *proto)
{
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list");
	size_t old;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		const struct vsnl_ynode *n = &kv->val.seq.items[i];
		struct aff_obj obj = *proto;
		size_t at = kr_push_idx(kr, i);
		struct nlattr *nest;
		char what[96];
		u64 seen = 0;

		obj.set = set->attrs[type].nested;
		nest = vsnl_codec_nest_start(kr->nlh, kr->cap, set, type, kr->err);
		if (!nest) {
			ret = nest_failed(kr, n, kr->path);
		} else {
			snprintf(what, sizeof(what), "%s (%s[%u])", l->what, kv->key, i);
			ret = kr_walk(kr, n, what, l->fields, l->nr_fields, &obj, &seen);
			if (!ret && l->weight_type &&
			    kr_has(l->fields, l->nr_fields, seen, "weight"))
				ret = put_weight(kr, n, &obj, l->weight_type);
			if (!ret)
				mnl_attr_nest_end(kr->nlh, nest);
		}
		kr_pop(kr, at);
	}
	kr_pop(kr, old);
	return ret;
}

/* ---- requirements: {key, operator, values} ---- */

struct req_in {
	const char *key;
	u32 op;
	const struct vsnl_ypair *values;
};

/* The operator, by the protocol's names; "" is In, as kfields.c takes the default. */
static int p_req_op(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	char list[128];
	size_t len = 0;
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	if (ret)
		return ret;
	*(u32 *)slot = VS_SEL_OP_IN;
	if (!*kv->val.text)
		return 0;
	for (u32 i = 0; i < VSNL_NR_SEL_OP; i++) {
		if (vsnl_sel_op_names[i] && !strcmp(vsnl_sel_op_names[i], kv->val.text)) {
			*(u32 *)slot = i;
			return 0;
		}
	}
	list[0] = '\0';
	for (u32 i = 0; i < VSNL_NR_SEL_OP && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					!i ? "" : i + 1 < VSNL_NR_SEL_OP ? ", " : " or ",
					vsnl_sel_op_names[i]);
	return kr_err(kr, kv->line, "%s: unknown operator \"%s\" (%s)", kr_name(kr, kv),
		      kv->val.text, list);
}

static const struct kr_field req_fields[] = {
	KR_FIELD("key", kr_str, struct req_in, key),
	KR_FIELD("operator", p_req_op, struct req_in, op),
	KR_FIELD("values", kr_strs, struct req_in, values),
};

/* The list of requirements @kv, each a nest @type of @set (nested set selreq or selfield). */
static int put_reqs(struct kr *kr, const struct vsnl_ypair *kv, const struct vsnl_codec_set *set,
		    u16 type)
{
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list");
	const struct vsnl_codec_set *req = set->attrs[type].nested;
	size_t old;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		const struct vsnl_ynode *n = &kv->val.seq.items[i];
		size_t at = kr_push_idx(kr, i);
		struct req_in in = { 0 };
		struct nlattr *nest;
		char what[96];
		u64 seen = 0;

		snprintf(what, sizeof(what), "a requirement (%s[%u])", kv->key, i);
		ret = kr_walk(kr, n, what, req_fields, ARRAY_SIZE(req_fields), &in, &seen);
		if (!ret && !KR_HAS(req_fields, seen, "key"))
			ret = kr_err(kr, n->line, "%s.key: required", kr->path);
		if (!ret && !KR_HAS(req_fields, seen, "operator"))
			ret = kr_err(kr, n->line, "%s.operator: required", kr->path);
		if (ret)
			goto next;
		nest = vsnl_codec_nest_start(kr->nlh, kr->cap, set, type, kr->err);
		if (!nest) {
			ret = nest_failed(kr, n, kr->path);
			goto next;
		}
		ret = kr_put_ret(kr, vsnl_ymap_get(n, "key"), item_field(kr, "key"),
				 vsnl_codec_put_str(kr->nlh, kr->cap, req, VS_SELREQ_A_KEY, in.key,
						    kr->err)) ?:
		      kr_put_ret(kr, vsnl_ymap_get(n, "operator"), item_field(kr, "operator"),
				 vsnl_codec_put_uint(kr->nlh, kr->cap, req, VS_SELREQ_A_OP, in.op,
						     kr->err));
		if (!ret && in.values)
			ret = kr_put_strs(kr, in.values, req, VS_SELREQ_A_VALUE);
		if (!ret)
			mnl_attr_nest_end(kr->nlh, nest);
next:
		kr_pop(kr, at);
	}
	kr_pop(kr, old);
	return ret;
}

/* ---- node affinity ---- */

static int p_nsterm_exprs(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_reqs(kr, kv, ((struct aff_obj *)slot)->set, VS_NSTERM_A_EXPR);
}

static int p_nsterm_fields(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_reqs(kr, kv, ((struct aff_obj *)slot)->set, VS_NSTERM_A_FIELD);
}

/* A NodeSelectorTerm, into the nest being written. */
static const struct kr_field nsterm_fields[] = {
	{ .key = "matchExpressions", .parse = p_nsterm_exprs },
	{ .key = "matchFields", .parse = p_nsterm_fields },
};

static const struct aff_list nsterm_list = {
	.what = "a node selector term", .fields = nsterm_fields,
	.nr_fields = ARRAY_SIZE(nsterm_fields),
};

static int p_node_terms(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct aff_obj *aff = slot;

	if (!kr_want(kr, kv, VSNL_Y_SEQ, "a list") && !kv->val.seq.nr)
		return kr_err(kr, kv->line, "%s: needs at least one term", kr_name(kr, kv));
	return put_list(kr, kv, aff->set, VS_AFF_A_NODE_REQUIRED, &nsterm_list, aff);
}

static const struct kr_field node_sel_fields[] = {
	{ .key = "nodeSelectorTerms", .parse = p_node_terms },
};

/*
 * requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms}. The
 * protocol has no required affinity without a term, which the old reader's
 * core refused: refused here, as the daemon cannot see it.
 */
static int p_node_required(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	u64 seen = 0;
	int ret = kr_walk_kv(kr, kv, node_sel_fields, ARRAY_SIZE(node_sel_fields), slot, &seen);

	if (!ret && !seen)
		ret = kr_err(kr, kv->line, "%s.nodeSelectorTerms: needs at least one term",
			     kr_name(kr, kv));
	return ret;
}

static int p_preference(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, nsterm_fields, ARRAY_SIZE(nsterm_fields), slot, NULL);
}

static const struct kr_field node_pref_fields[] = {
	KR_FIELD("weight", kr_s32, struct aff_obj, weight),
	{ .key = "preference", .parse = p_preference },
};

static const struct aff_list node_pref_list = {
	.what = "a preferred term", .fields = node_pref_fields,
	.nr_fields = ARRAY_SIZE(node_pref_fields), .weight_type = VS_NSTERM_A_WEIGHT,
};

static int p_node_preferred(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct aff_obj *aff = slot;

	return put_list(kr, kv, aff->set, VS_AFF_A_NODE_PREFERRED, &node_pref_list, aff);
}

static const struct kr_field node_aff_fields[] = {
	{ .key = "requiredDuringSchedulingIgnoredDuringExecution", .parse = p_node_required },
	{ .key = "preferredDuringSchedulingIgnoredDuringExecution", .parse = p_node_preferred },
};

/* ---- pod (anti-)affinity ---- */

static int put_lsel(struct kr *kr, const struct vsnl_ypair *kv, const struct aff_obj *term,
		    u16 type);

static int p_selector(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_lsel(kr, kv, slot, VS_PODTERM_A_SELECTOR);
}

static int p_ns_selector(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_lsel(kr, kv, slot, VS_PODTERM_A_NS_SELECTOR);
}

static int p_namespaces(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct aff_obj *term = slot;
	const struct vsnl_ypair *list;

	return kr_strs(kr, kv, &list) ?: kr_put_strs(kr, kv, term->set, VS_PODTERM_A_NAMESPACE);
}

static int p_topology_key(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct aff_obj *term = slot;
	const char *key = NULL;

	return kr_str(kr, kv, &key) ?:
	       kr_put_ret(kr, &kv->val, kr_name(kr, kv),
			  vsnl_codec_put_str(kr->nlh, kr->cap, term->set,
					     VS_PODTERM_A_TOPOLOGY_KEY, key, kr->err));
}

/* A PodAffinityTerm, into the nest being written. */
static const struct kr_field podterm_fields[] = {
	{ .key = "labelSelector", .parse = p_selector },
	{ .key = "namespaces", .parse = p_namespaces },
	{ .key = "namespaceSelector", .parse = p_ns_selector },
	{ .key = "topologyKey", .parse = p_topology_key },
};

static const struct aff_list podterm_list = {
	.what = "a pod affinity term", .fields = podterm_fields,
	.nr_fields = ARRAY_SIZE(podterm_fields),
};

static int p_podterm(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, podterm_fields, ARRAY_SIZE(podterm_fields), slot, NULL);
}

static const struct kr_field pod_pref_fields[] = {
	KR_FIELD("weight", kr_s32, struct aff_obj, weight),
	{ .key = "podAffinityTerm", .parse = p_podterm },
};

static const struct aff_list pod_pref_list = {
	.what = "a weighted pod affinity term", .fields = pod_pref_fields,
	.nr_fields = ARRAY_SIZE(pod_pref_fields), .weight_type = VS_PODTERM_A_WEIGHT,
};

static int p_pod_required(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct aff_obj *aff = slot;

	return put_list(kr, kv, aff->set, aff->req_type, &podterm_list, aff);
}

static int p_pod_preferred(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct aff_obj *aff = slot;

	return put_list(kr, kv, aff->set, aff->pref_type, &pod_pref_list, aff);
}

static const struct kr_field pod_aff_fields[] = {
	{ .key = "requiredDuringSchedulingIgnoredDuringExecution", .parse = p_pod_required },
	{ .key = "preferredDuringSchedulingIgnoredDuringExecution", .parse = p_pod_preferred },
};

/* ---- label selectors: {matchLabels, matchExpressions} ---- */

/* matchLabels: {} selects what no matchLabels does: nothing is put, as the old reader puts. */
static int p_match_labels(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	if (kv->val.type == VSNL_Y_MAP && !kv->val.map.nr)
		return 0;
	return kr_put_labels(kr, ((struct aff_obj *)slot)->set, VS_LSEL_A_MATCH_LABELS, kv);
}

static int p_lsel_exprs(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_reqs(kr, kv, ((struct aff_obj *)slot)->set, VS_LSEL_A_EXPR);
}

static const struct kr_field lsel_fields[] = {
	{ .key = "matchLabels", .parse = p_match_labels },
	{ .key = "matchExpressions", .parse = p_lsel_exprs },
};

/* The selector @kv as the nest @type of @term's set: {} is a nest without attributes. */
static int put_lsel(struct kr *kr, const struct vsnl_ypair *kv, const struct aff_obj *term,
		    u16 type)
{
	struct aff_obj sel = { .set = term->set->attrs[type].nested };
	struct nlattr *nest;
	int ret;

	if (kv->val.type != VSNL_Y_MAP)		/* refused in kr_walk()'s words */
		return kr_walk_kv(kr, kv, lsel_fields, ARRAY_SIZE(lsel_fields), &sel, NULL);
	nest = vsnl_codec_nest_start(kr->nlh, kr->cap, term->set, type, kr->err);
	if (!nest)
		return nest_failed(kr, &kv->val, kr_name(kr, kv));
	ret = kr_walk_kv(kr, kv, lsel_fields, ARRAY_SIZE(lsel_fields), &sel, NULL);
	if (!ret)
		mnl_attr_nest_end(kr->nlh, nest);
	return ret;
}

int kr_put_lsel(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		const struct vsnl_ypair *kv)
{
	struct aff_obj o = { .set = set };

	return put_lsel(kr, kv, &o, type);
}

/* ---- the affinity ---- */

struct aff_in {
	const struct vsnl_ypair *node, *pod, *anti;
};

static int p_keep(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	*(const struct vsnl_ypair **)slot = kv;
	return 0;
}

static const struct kr_field aff_fields[] = {
	KR_FIELD("nodeAffinity", p_keep, struct aff_in, node),
	KR_FIELD("podAffinity", p_keep, struct aff_in, pod),
	KR_FIELD("podAntiAffinity", p_keep, struct aff_in, anti),
};

/*
 * The three parts in kf_affinity()'s order (node, pod, anti), each walked
 * in file order, so that the first refusal is the old reader's.
 */
int kr_put_affinity(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		    const struct vsnl_ypair *kv)
{
	const struct vsnl_codec_set *aff = set->attrs[type].nested;
	struct aff_obj node = { .set = aff };
	struct aff_obj pod = { .set = aff, .req_type = VS_AFF_A_POD_REQUIRED,
			       .pref_type = VS_AFF_A_POD_PREFERRED };
	struct aff_obj anti = { .set = aff, .req_type = VS_AFF_A_ANTI_REQUIRED,
				.pref_type = VS_AFF_A_ANTI_PREFERRED };
	struct aff_in in = { 0 };
	struct nlattr *nest;
	size_t old;
	int ret;

	if (!kv || kv->val.type == VSNL_Y_NULL)
		return 0;
	old = kr_push(kr, kv->key);
	ret = kr_walk(kr, &kv->val, "affinity", aff_fields, ARRAY_SIZE(aff_fields), &in, NULL);
	if (ret)
		goto out;
	nest = vsnl_codec_nest_start(kr->nlh, kr->cap, set, type, kr->err);
	if (!nest) {
		ret = nest_failed(kr, &kv->val, kr->path);
		goto out;
	}
	if (in.node)
		ret = kr_walk_kv(kr, in.node, node_aff_fields, ARRAY_SIZE(node_aff_fields), &node,
				 NULL);
	if (!ret && in.pod)
		ret = kr_walk_kv(kr, in.pod, pod_aff_fields, ARRAY_SIZE(pod_aff_fields), &pod,
				 NULL);
	if (!ret && in.anti)
		ret = kr_walk_kv(kr, in.anti, pod_aff_fields, ARRAY_SIZE(pod_aff_fields), &anti,
				 NULL);
	if (!ret && mnl_nlmsg_get_payload_tail(kr->nlh) == mnl_attr_get_payload(nest))
		mnl_attr_nest_cancel(kr->nlh, nest);	/* nothing: no affinity, as the core makes it */
	else if (!ret)
		mnl_attr_nest_end(kr->nlh, nest);
out:
	kr_pop(kr, old);
	return ret;
}

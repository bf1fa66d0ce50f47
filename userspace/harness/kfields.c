// SPDX-License-Identifier: Apache-2.0
/*
 * Kubernetes-shaped fields read from YAML: see kfields.h. This file owns
 * the walk of a mapping against a table of keys, how its errors name a
 * field, and the parsers that scenarios and manifests share.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/kfields.h"
#include "kube/kread.h"

int kf_err(struct kf *kf, u32 line, const char *fmt, ...)
{
	char msg[KF_PATH_MAX + 512];
	va_list ap;

	if (kf->msg[0])
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(kf->msg, kf->msg_size, "%s:%u: %s%s%s", kf->file, line, kf->doc ? kf->doc : "",
		 kf->doc ? ": " : "", msg);
	return -EINVAL;
}

int kf_oom(struct kf *kf)
{
	if (!kf->msg[0])
		snprintf(kf->msg, kf->msg_size, "%s: out of memory", kf->file);
	return -ENOMEM;
}

const char *kf_type_name(const struct vs_arg *v)
{
	static const char *const names[] = {
		[VS_ARG_NULL] = "null", [VS_ARG_BOOL] = "a boolean", [VS_ARG_INT] = "an integer",
		[VS_ARG_FLOAT] = "a number", [VS_ARG_STRING] = "a string",
		[VS_ARG_MAP] = "a mapping", [VS_ARG_SEQ] = "a list",
	};

	return names[v->type];
}

/* ---- where the walk is ---- */

size_t kf_push(struct kf *kf, const char *key)
{
	size_t old = kf->path_len;

	kf->path_len = kr_path_step(kf->path, sizeof(kf->path), old, key);
	return old;
}

size_t kf_push_idx(struct kf *kf, u32 idx)
{
	size_t old = kf->path_len;
	int n;

	if (old < sizeof(kf->path)) {
		n = snprintf(kf->path + old, sizeof(kf->path) - old, "[%u]", idx);
		kf->path_len = n < 0 ? old : old + (size_t)n;
	}
	return old;
}

void kf_pop(struct kf *kf, size_t len)
{
	kf->path_len = len;
	if (len < sizeof(kf->path))
		kf->path[len] = '\0';
}

const char *kf_name(struct kf *kf, const struct vs_arg_kv *kv)
{
	size_t len;

	if (!kf->paths)
		return kv->key;
	len = kf->path_len < sizeof(kf->path) ? kf->path_len : sizeof(kf->path) - 1;
	memcpy(kf->name, kf->path, len);
	kf->name[len] = '\0';
	kr_path_step(kf->name, sizeof(kf->name), len, kv->key);
	return kf->name;
}

const char *kf_sub(struct kf *kf, const struct vs_arg_kv *kv, const char *key)
{
	size_t len;

	if (!kf->paths) {
		snprintf(kf->name, sizeof(kf->name), "%s: %s", kv->key, key);
		return kf->name;
	}
	len = strlen(kf_name(kf, kv));
	kr_path_step(kf->name, sizeof(kf->name), len, key);
	return kf->name;
}

/* ---- walking a mapping against a table of keys ---- */

int kf_want(struct kf *kf, const struct vs_arg_kv *kv, enum vs_arg_type type, const char *what)
{
	if (kv->val.type == type)
		return 0;
	return kf_err(kf, kv->line, "%s must be %s, not %s", kf_name(kf, kv), what,
		      kf_type_name(&kv->val));
}

static int unknown_key(struct kf *kf, struct vs_arg_kv *kv, const char *what,
		       const struct kf_field *fields, u32 nr)
{
	char known[256];
	size_t len = 0;

	known[0] = '\0';
	for (u32 k = 0; k < nr && len < sizeof(known); k++) {
		if (!strcmp(fields[k].key, KF_ANY_OTHER))
			continue;
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", len ? ", " : "",
					fields[k].key);
	}
	if (kf->paths)
		return kf_err(kf, kv->line, "%s: unknown field (known: %s)", kf_name(kf, kv), known);
	return kf_err(kf, kv->line, "unknown key \"%s\" in %s (known: %s)", kv->key, what, known);
}

int kf_walk(struct kf *kf, struct vs_arg *map, const char *what, const struct kf_field *fields,
	    u32 nr, void *obj, u64 *seen)
{
	if (map->type != VS_ARG_MAP)
		return kf_err(kf, map->line, "%s must be a mapping, not %s",
			      kf->paths && kf->path_len ? kf->path : what, kf_type_name(map));
	for (u32 i = 0; i < map->map->nr; i++) {
		struct vs_arg_kv *kv = &map->map->kv[i];
		u32 f;
		int ret;

		for (f = 0; f < nr; f++)
			if (!strcmp(fields[f].key, kv->key) ||
			    !strcmp(fields[f].key, KF_ANY_OTHER))
				break;
		if (f == nr)
			return unknown_key(kf, kv, what, fields, nr);
		if (kv->val.type == VS_ARG_NULL || !fields[f].parse)
			continue;
		ret = fields[f].parse(kf, kv, (char *)obj + fields[f].off);
		if (ret)
			return ret;
		if (seen)
			*seen |= 1ull << f;
	}
	return 0;
}

int kf_walk_kv(struct kf *kf, struct vs_arg_kv *kv, const struct kf_field *fields, u32 nr,
	       void *obj, u64 *seen)
{
	size_t old = kf_push(kf, kv->key);
	int ret = kf_walk(kf, &kv->val, kv->key, fields, nr, obj, seen);

	kf_pop(kf, old);
	return ret;
}

/* ---- scalar parsers ---- */

int kf_str(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	int ret = kf_want(kf, kv, VS_ARG_STRING, "a string");

	if (!ret)
		*(const char **)slot = kv->val.s;
	return ret;
}

int kf_time(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	int ret = kf_want(kf, kv, VS_ARG_STRING, "a time");

	if (ret)
		return ret;
	if (kr_parse_time(kv->val.s, slot))
		return kf_err(kf, kv->line, "%s: \"%s\" is not a time as Kubernetes writes one "
			      "(RFC 3339: 2026-01-01T00:00:00Z)", kf_name(kf, kv), kv->val.s);
	return 0;
}

int kf_bool(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	int ret = kf_want(kf, kv, VS_ARG_BOOL, "true or false");

	if (!ret)
		*(bool *)slot = kv->val.b;
	return ret;
}

int kf_keep(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	*(struct vs_arg_kv **)slot = kv;
	return 0;
}

int kf_get_int(struct kf *kf, struct vs_arg_kv *kv, s64 min, s64 max, s64 *out)
{
	int ret = kf_want(kf, kv, VS_ARG_INT, "an integer");

	if (ret)
		return ret;
	if (kv->val.i < min || kv->val.i > max)
		return kf_err(kf, kv->line, "%s must be between %lld and %lld", kf_name(kf, kv),
			      (long long)min, (long long)max);
	*out = kv->val.i;
	return 0;
}

int kf_u32(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	s64 v = 0;
	int ret = kf_get_int(kf, kv, 0, UINT32_MAX, &v);

	if (!ret)
		*(u32 *)slot = (u32)v;
	return ret;
}

int kf_s32(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	s64 v = 0;
	int ret = kf_get_int(kf, kv, INT32_MIN, INT32_MAX, &v);

	if (!ret)
		*(s32 *)slot = (s32)v;
	return ret;
}

int kf_s64(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return kf_get_int(kf, kv, INT64_MIN, INT64_MAX, slot);
}

int kf_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true", "True" };
	static const char *const no[] = { "0", "f", "F", "FALSE", "false", "False" };

	for (u32 i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcmp(s, yes[i]) || !strcmp(s, no[i])) {
			*out = !strcmp(s, yes[i]);
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * A quantity's text. Numbers are printed back as Go's FormatFloat(f, 'g',
 * -1) would (the shortest text that reads back to the same double), which is
 * what a Quantity decoded from a YAML number sees.
 */
static const char *qty_text(const struct vs_arg *v, char *buf, size_t size)
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

/*
 * One quantity of a resource list. A manifest's message names the entry by
 * its path; a scenario's names the list and lets the core name the resource.
 */
static int res_entry(struct kf *kf, struct vs_arg_kv *kv, struct vs_arg_kv *q, struct vs_res *r)
{
	struct vs_err e = { { 0 } };
	const char *text;
	char buf[64];
	s64 v;
	int d;

	text = qty_text(&q->val, buf, sizeof(buf));
	if (!text)
		return kf_err(kf, q->line, "%s must be a quantity, not %s", kf_sub(kf, kv, q->key),
			      kf_type_name(&q->val));
	if (!kf->paths) {
		if (vs_res_set_quantity(kf->dims, r, q->key, strlen(q->key), text, strlen(text),
					&e))
			return kf_err(kf, q->line, "%s: %s", kv->key, e.msg);
		return 0;
	}
	d = vs_res_dim_get(kf->dims, q->key, strlen(q->key), &e);
	if (d < 0 || vs_quantity_parse(text, strlen(text), vs_res_dim_milli((unsigned int)d), &v,
				       &e))
		return kf_err(kf, q->line, "%s: %s", kf_sub(kf, kv, q->key), e.msg);
	vs_res_set(r, (unsigned int)d, v);
	return 0;
}

int kf_res(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct vs_res *r = slot;
	int ret = kf_want(kf, kv, VS_ARG_MAP, "a mapping of quantities");

	if (ret)
		return ret;
	vs_res_clear(r);
	for (u32 i = 0; !ret && i < kv->val.map->nr; i++)
		ret = res_entry(kf, kv, &kv->val.map->kv[i], r);
	return ret;
}

int kf_kvs(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct kf_kvs *out = slot;
	int ret = kf_want(kf, kv, VS_ARG_MAP, "a mapping of strings");

	if (ret)
		return ret;
	out->nr = 0;
	out->kv = vs_arena_calloc(&kf->scratch, kv->val.map->nr + 1, sizeof(*out->kv));
	if (!out->kv)
		return kf_oom(kf);
	for (u32 i = 0; i < kv->val.map->nr; i++) {
		struct vs_arg_kv *l = &kv->val.map->kv[i];

		if (l->val.type != VS_ARG_STRING && kf->paths)
			return kf_err(kf, l->line, "%s must be a string, not %s",
				      kf_sub(kf, kv, l->key), kf_type_name(&l->val));
		if (l->val.type != VS_ARG_STRING)
			return kf_err(kf, l->line, "%s: the value of %s must be a string, not %s",
				      kv->key, l->key, kf_type_name(&l->val));
		out->kv[out->nr++] = (struct vs_kv_spec){ .key = l->key, .value = l->val.s };
	}
	return 0;
}

const char *kf_kvs_get(const struct kf_kvs *kvs, const char *key)
{
	for (u32 i = 0; i < kvs->nr; i++)
		if (!strcmp(kvs->kv[i].key, key))
			return kvs->kv[i].value;
	return NULL;
}

int kf_strs(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct kf_strs *out = slot;
	int ret = kf_want(kf, kv, VS_ARG_SEQ, "a list of strings");

	if (ret)
		return ret;
	out->nr = 0;
	out->s = vs_arena_calloc(&kf->scratch, kv->val.seq.nr + 1, sizeof(*out->s));
	if (!out->s)
		return kf_oom(kf);
	for (u32 i = 0; i < kv->val.seq.nr; i++) {
		const struct vs_arg *v = &kv->val.seq.items[i];

		if (v->type != VS_ARG_STRING)
			return kf_err(kf, v->line, "%s[%u] must be a string, not %s",
				      kf_name(kf, kv), i, kf_type_name(v));
		out->s[out->nr++] = v->s;
	}
	return 0;
}

/* An enum through the core's own parser, whose message lists the names. */
#define ENUM_PARSER(fn, type, parse)						\
int fn(struct kf *kf, struct vs_arg_kv *kv, void *slot)				\
{										\
	struct vs_err e = { { 0 } };						\
	int ret = kf_want(kf, kv, VS_ARG_STRING, "a string");			\
										\
	if (ret || !*kv->val.s)		/* "" is the default */			\
		return ret;							\
	if (parse(kv->val.s, (type *)slot, &e))					\
		return kf_err(kf, kv->line, "%s: %s", kf_name(kf, kv), e.msg);	\
	return 0;								\
}

ENUM_PARSER(kf_queue_state, enum vs_queue_state, vs_queue_state_parse)
ENUM_PARSER(kf_pg_phase, enum vs_pg_phase, vs_pg_phase_parse)
ENUM_PARSER(kf_task_status, enum vs_task_status, vs_task_status_parse)
ENUM_PARSER(kf_preemption_policy, enum vs_preemption_policy, vs_preemption_policy_parse)
static ENUM_PARSER(p_tol_op, enum vs_toleration_op, vs_toleration_op_parse)
static ENUM_PARSER(p_protocol, enum vs_port_protocol, vs_port_protocol_parse)
static ENUM_PARSER(p_sel_op, enum vs_sel_op, vs_sel_op_parse)

/* Taint effects: an empty effect is every effect, for tolerations only. */
static int p_effect(struct kf *kf, struct vs_arg_kv *kv, void *slot, bool allow_empty)
{
	struct vs_err e = { { 0 } };
	int ret = kf_want(kf, kv, VS_ARG_STRING, "a string");

	if (ret)
		return ret;
	if (vs_taint_effect_parse(kv->val.s, allow_empty, slot, &e))
		return kf_err(kf, kv->line, "%s: %s", kf_name(kf, kv), e.msg);
	return 0;
}

static int p_taint_effect(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return p_effect(kf, kv, slot, false);
}

static int p_tol_effect(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return p_effect(kf, kv, slot, true);
}

/* ---- lists of objects ---- */

void *kf_specs(struct kf *kf, const struct kf_items *items, size_t stride, size_t off,
	       size_t size)
{
	char *v = vs_arena_calloc(&kf->scratch, items->nr + 1, size);

	if (!v) {
		kf_oom(kf);
		return NULL;
	}
	for (u32 i = 0; i < items->nr; i++)
		memcpy(v + i * size, (const char *)items->v + i * stride + off, size);
	return v;
}

int kf_list(struct kf *kf, struct vs_arg_kv *kv, const struct kf_list *d, struct kf_items *out)
{
	int ret = kf_want(kf, kv, VS_ARG_SEQ, "a list");
	size_t old;

	if (ret)
		return ret;
	out->nr = 0;
	out->v = vs_arena_calloc(&kf->scratch, kv->val.seq.nr + 1, d->size);
	if (!out->v)
		return kf_oom(kf);
	old = kf_push(kf, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		struct vs_arg *a = &kv->val.seq.items[i];
		void *item = (char *)out->v + i * d->size;
		size_t at = kf_push_idx(kf, i);
		char what[96];
		u64 seen = 0;

		if (d->init)
			d->init(item);
		snprintf(what, sizeof(what), "%s (%s[%u])", d->what, kv->key, i);
		ret = kf_walk(kf, a, what, d->fields, d->nr_fields, item, &seen);
		if (!ret && d->done)
			ret = d->done(kf, a, item, seen);
		kf_pop(kf, at);
		if (!ret)
			out->nr++;
	}
	kf_pop(kf, old);
	return ret;
}


static const struct kf_field taint_fields[] = {
	KF_FIELD("key", kf_str, struct vs_taint_spec, key),
	KF_FIELD("value", kf_str, struct vs_taint_spec, value),
	KF_FIELD("effect", p_taint_effect, struct vs_taint_spec, effect),
	KF_IGNORE("timeAdded"),
};

static const struct kf_list taint_list = {
	.what = "a taint", .fields = taint_fields, .nr_fields = ARRAY_SIZE(taint_fields),
	.size = sizeof(struct vs_taint_spec),
};
KF_LIST_PARSER(kf_taints, taint_list)

static int tol_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
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

static const struct kf_field tol_fields[] = {
	KF_FIELD("key", kf_str, struct vs_toleration_spec, key),
	KF_FIELD("operator", p_tol_op, struct vs_toleration_spec, op),
	KF_FIELD("value", kf_str, struct vs_toleration_spec, value),
	KF_FIELD("effect", p_tol_effect, struct vs_toleration_spec, effect),
	KF_FIELD("tolerationSeconds", kf_s64, struct vs_toleration_spec, seconds),
};

static const struct kf_list tol_list = {
	.what = "a toleration", .fields = tol_fields, .nr_fields = ARRAY_SIZE(tol_fields),
	.size = sizeof(struct vs_toleration_spec), .init = tol_init, .done = tol_done,
};
KF_LIST_PARSER(kf_tolerations, tol_list)

/* A container port: hostPort 0..65535, as the API server validates them. */
static int port_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct kf_port *p = item;

	if (!(seen & 1u) || p->container_port < 1 || p->container_port > 65535)
		return kf_err(kf, a->line, "%s: containerPort must be in 1..65535", kf->path);
	if (p->host.port > 65535)
		return kf_err(kf, a->line, "%s: hostPort must be in 0..65535", kf->path);
	return 0;
}

static const struct kf_field port_fields[] = {
	KF_FIELD("containerPort", kf_u32, struct kf_port, container_port),
	KF_FIELD("hostPort", kf_u32, struct kf_port, host.port),
	KF_FIELD("protocol", p_protocol, struct kf_port, host.protocol),
	KF_FIELD("hostIP", kf_str, struct kf_port, host.ip),
	KF_FIELD("name", kf_str, struct kf_port, name),
};

static const struct kf_list port_list = {
	.what = "a container port", .fields = port_fields, .nr_fields = ARRAY_SIZE(port_fields),
	.size = sizeof(struct kf_port), .done = port_done,
};
KF_LIST_PARSER(kf_ports, port_list)

int kf_host_ports(struct kf *kf, const struct kf_items *ports,
		  const struct vs_host_port_spec **out, u32 *nr)
{
	const struct kf_port *p = ports->v;
	struct vs_host_port_spec *v;
	u32 n = 0;

	*out = NULL;
	*nr = 0;
	if (!ports->nr)
		return 0;
	v = vs_arena_calloc(&kf->scratch, ports->nr, sizeof(*v));
	if (!v)
		return kf_oom(kf);
	for (u32 i = 0; i < ports->nr; i++)
		if (p[i].host.port)
			v[n++] = p[i].host;
	*out = v;
	*nr = n;
	return 0;
}

static int gate_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	const char **name = item;

	if (!*name || !**name)
		return kf_err(kf, a->line, "%s.name: required", kf->path);
	return 0;
}

static const struct kf_field gate_fields[] = {
	{ .key = "name", .parse = kf_str, .off = 0 },
};

static const struct kf_list gate_list = {
	.what = "a scheduling gate", .fields = gate_fields, .nr_fields = ARRAY_SIZE(gate_fields),
	.size = sizeof(const char *), .done = gate_done,
};
KF_LIST_PARSER(kf_sched_gates, gate_list)

/* A node's status.images entry: {names, sizeBytes}. */
static int image_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct kf_image *im = item;

	if (!im->names.nr)
		return kf_err(kf, a->line, "%s.names: required", kf->path);
	im->spec.names = im->names.s;
	im->spec.nr_names = im->names.nr;
	return 0;
}

static const struct kf_field image_fields[] = {
	KF_FIELD("names", kf_strs, struct kf_image, names),
	KF_FIELD("sizeBytes", kf_s64, struct kf_image, spec.size),
};

static const struct kf_list image_list = {
	.what = "a node image", .fields = image_fields, .nr_fields = ARRAY_SIZE(image_fields),
	.size = sizeof(struct kf_image), .done = image_done,
};
KF_LIST_PARSER(kf_node_images, image_list)

KF_SPECS_FN(kf_image_specs, struct kf_image, struct vs_image_spec)

/* ---- affinity, in Kubernetes' shape ---- */

/* A requirement: {key, operator, values}. */
struct req_in {
	struct vs_sel_req_spec spec;
	struct kf_strs values;
};

static int req_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct req_in *r = item;

	if (!(seen & 1))
		return kf->paths ? kf_err(kf, a->line, "%s.key: required", kf->path) :
				   kf_err(kf, a->line, "a requirement without a key");
	if (!(seen & 2))
		return kf->paths ? kf_err(kf, a->line, "%s.operator: required", kf->path) :
				   kf_err(kf, a->line, "requirement %s has no operator",
					  r->spec.key);
	r->spec.values = r->values.s;
	r->spec.nr_values = r->values.nr;
	return 0;
}

static const struct kf_field req_fields[] = {
	KF_FIELD("key", kf_str, struct req_in, spec.key),
	KF_FIELD("operator", p_sel_op, struct req_in, spec.op),
	KF_FIELD("values", kf_strs, struct req_in, values),
};

static const struct kf_list req_list = {
	.what = "a requirement", .fields = req_fields, .nr_fields = ARRAY_SIZE(req_fields),
	.size = sizeof(struct req_in), .done = req_done,
};

static KF_SPECS_FN(reqs_out, struct req_in, struct vs_sel_req_spec)

static int p_reqs(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return kf_list(kf, kv, &req_list, slot);
}

/* A NodeSelectorTerm: {matchExpressions, matchFields}. */
struct term_in {
	struct vs_node_selector_term_spec spec;
	struct kf_items exprs, fields;
};

static int term_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct term_in *t = item;

	return reqs_out(kf, &t->exprs, &t->spec.exprs, &t->spec.nr_exprs) ?:
	       reqs_out(kf, &t->fields, &t->spec.fields, &t->spec.nr_fields);
}

static const struct kf_field term_fields[] = {
	KF_FIELD("matchExpressions", p_reqs, struct term_in, exprs),
	KF_FIELD("matchFields", p_reqs, struct term_in, fields),
};

static const struct kf_list term_list = {
	.what = "a node selector term", .fields = term_fields,
	.nr_fields = ARRAY_SIZE(term_fields), .size = sizeof(struct term_in), .done = term_done,
};

static int p_term(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	int ret = kf_walk_kv(kf, kv, term_fields, ARRAY_SIZE(term_fields), slot, NULL);

	return ret ?: term_done(kf, &kv->val, slot, 0);
}

/* requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [...]} */
struct node_sel_in {
	struct vs_node_selector_spec spec;
	struct kf_items terms;
	bool set;
};

static int p_terms(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return kf_list(kf, kv, &term_list, slot);
}

static const struct kf_field node_sel_fields[] = {
	KF_FIELD("nodeSelectorTerms", p_terms, struct node_sel_in, terms),
};

static int p_node_sel(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct node_sel_in *s = slot;
	struct vs_node_selector_term_spec *v;
	int ret;

	ret = kf_walk_kv(kf, kv, node_sel_fields, ARRAY_SIZE(node_sel_fields), s, NULL);
	if (ret)
		return ret;
	v = KF_SPECS(kf, &s->terms, struct term_in, spec);
	if (!v)
		return -ENOMEM;
	s->spec = (struct vs_node_selector_spec){ .terms = v, .nr_terms = s->terms.nr };
	s->set = true;
	return 0;
}

/* preferredDuringSchedulingIgnoredDuringExecution: [{weight, preference}] */
struct pref_in {
	s32 weight;
	struct term_in preference;
};

static const struct kf_field pref_fields[] = {
	KF_FIELD("weight", kf_s32, struct pref_in, weight),
	KF_FIELD("preference", p_term, struct pref_in, preference),
};

static const struct kf_list pref_list = {
	.what = "a preferred term", .fields = pref_fields, .nr_fields = ARRAY_SIZE(pref_fields),
	.size = sizeof(struct pref_in),
};
static KF_LIST_PARSER(p_prefs, pref_list)

struct node_aff_in {
	struct node_sel_in required;
	struct kf_items preferred;
};

static const struct kf_field node_aff_fields[] = {
	KF_FIELD("requiredDuringSchedulingIgnoredDuringExecution", p_node_sel, struct node_aff_in,
		 required),
	KF_FIELD("preferredDuringSchedulingIgnoredDuringExecution", p_prefs, struct node_aff_in,
		 preferred),
};

static const struct kf_field label_sel_fields[] = {
	KF_FIELD("matchLabels", kf_kvs, struct kf_label_sel, labels),
	KF_FIELD("matchExpressions", p_reqs, struct kf_label_sel, exprs),
};

int kf_label_selector(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct kf_label_sel *s = slot;
	int ret;

	ret = kf_walk_kv(kf, kv, label_sel_fields, ARRAY_SIZE(label_sel_fields), s, NULL);
	if (!ret)
		ret = reqs_out(kf, &s->exprs, &s->spec.exprs, &s->spec.nr_exprs);
	if (ret)
		return ret;
	s->spec.match_labels = s->labels.kv;
	s->spec.nr_match_labels = s->labels.nr;
	s->set = true;
	return 0;
}

/* ---- topology spread constraints ---- */

static int spread_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct kf_spread *s = item;
	struct vs_err e = { { 0 } };

	(void)seen;
	if (!s->when)
		return kf_err(kf, a->line, "%s.whenUnsatisfiable: required", kf->path);
	if (vs_spread_action_parse(s->when, &s->spec.when, &e) ||
	    vs_inclusion_policy_parse(s->affinity_policy, &s->spec.node_affinity_policy, &e) ||
	    vs_inclusion_policy_parse(s->taints_policy, &s->spec.node_taints_policy, &e))
		return kf_err(kf, a->line, "%s: %s", kf->path, e.msg);
	s->spec.selector = s->selector.set ? &s->selector.spec : NULL;
	s->spec.match_label_keys = s->match_label_keys.s;
	s->spec.nr_match_label_keys = s->match_label_keys.nr;
	return 0;
}

static const struct kf_field spread_fields[] = {
	KF_FIELD("maxSkew", kf_s32, struct kf_spread, spec.max_skew),
	KF_FIELD("topologyKey", kf_str, struct kf_spread, spec.topology_key),
	KF_FIELD("whenUnsatisfiable", kf_str, struct kf_spread, when),
	KF_FIELD("labelSelector", kf_label_selector, struct kf_spread, selector),
	KF_FIELD("minDomains", kf_s32, struct kf_spread, spec.min_domains),
	KF_FIELD("nodeAffinityPolicy", kf_str, struct kf_spread, affinity_policy),
	KF_FIELD("nodeTaintsPolicy", kf_str, struct kf_spread, taints_policy),
	KF_FIELD("matchLabelKeys", kf_strs, struct kf_spread, match_label_keys),
};

static const struct kf_list spread_list = {
	.what = "a topology spread constraint", .fields = spread_fields,
	.nr_fields = ARRAY_SIZE(spread_fields), .size = sizeof(struct kf_spread),
	.done = spread_done,
};
KF_LIST_PARSER(kf_spreads, spread_list)

KF_SPECS_FN(kf_spread_specs, struct kf_spread, struct vs_spread_constraint_spec)

/* A PodAffinityTerm. */
struct pod_term_in {
	struct vs_pod_affinity_term_spec spec;
	struct kf_label_sel selector, ns_selector;
	struct kf_strs namespaces;
};

static int pod_term_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct pod_term_in *t = item;

	t->spec.selector = t->selector.set ? &t->selector.spec : NULL;
	t->spec.ns_selector = t->ns_selector.set ? &t->ns_selector.spec : NULL;
	t->spec.namespaces = t->namespaces.s;
	t->spec.nr_namespaces = t->namespaces.nr;
	return 0;
}

static const struct kf_field pod_term_fields[] = {
	KF_FIELD("labelSelector", kf_label_selector, struct pod_term_in, selector),
	KF_FIELD("namespaces", kf_strs, struct pod_term_in, namespaces),
	KF_FIELD("namespaceSelector", kf_label_selector, struct pod_term_in, ns_selector),
	KF_FIELD("topologyKey", kf_str, struct pod_term_in, spec.topology_key),
};

static const struct kf_list pod_term_list = {
	.what = "a pod affinity term", .fields = pod_term_fields,
	.nr_fields = ARRAY_SIZE(pod_term_fields), .size = sizeof(struct pod_term_in),
	.done = pod_term_done,
};
static KF_LIST_PARSER(p_pod_terms, pod_term_list)

static int p_pod_term(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	int ret = kf_walk_kv(kf, kv, pod_term_fields, ARRAY_SIZE(pod_term_fields), slot, NULL);

	return ret ?: pod_term_done(kf, &kv->val, slot, 0);
}

struct wpod_term_in {
	s32 weight;
	struct pod_term_in term;
};

static const struct kf_field wpod_term_fields[] = {
	KF_FIELD("weight", kf_s32, struct wpod_term_in, weight),
	KF_FIELD("podAffinityTerm", p_pod_term, struct wpod_term_in, term),
};

static const struct kf_list wpod_term_list = {
	.what = "a weighted pod affinity term", .fields = wpod_term_fields,
	.nr_fields = ARRAY_SIZE(wpod_term_fields), .size = sizeof(struct wpod_term_in),
};
static KF_LIST_PARSER(p_wpod_terms, wpod_term_list)

struct pod_aff_in {
	struct kf_items required, preferred;
};

static const struct kf_field pod_aff_fields[] = {
	KF_FIELD("requiredDuringSchedulingIgnoredDuringExecution", p_pod_terms, struct pod_aff_in,
		 required),
	KF_FIELD("preferredDuringSchedulingIgnoredDuringExecution", p_wpod_terms, struct pod_aff_in,
		 preferred),
};

struct aff_in {
	struct vs_arg_kv *node, *pod, *anti;
};

static const struct kf_field aff_fields[] = {
	KF_FIELD("nodeAffinity", kf_keep, struct aff_in, node),
	KF_FIELD("podAffinity", kf_keep, struct aff_in, pod),
	KF_FIELD("podAntiAffinity", kf_keep, struct aff_in, anti),
};

static int build_node_aff(struct kf *kf, struct vs_arg_kv *kv,
			  const struct vs_node_affinity_spec **out)
{
	struct vs_node_affinity_spec *spec = vs_arena_zalloc(&kf->scratch, sizeof(*spec));
	struct node_aff_in in = { 0 };
	struct vs_node_pref_term_spec *prefs;
	int ret;

	if (!spec)
		return kf_oom(kf);
	ret = kf_walk_kv(kf, kv, node_aff_fields, ARRAY_SIZE(node_aff_fields), &in, NULL);
	if (ret)
		return ret;
	prefs = vs_arena_calloc(&kf->scratch, in.preferred.nr + 1, sizeof(*prefs));
	if (!prefs)
		return kf_oom(kf);
	for (u32 i = 0; i < in.preferred.nr; i++) {
		struct pref_in *p = &((struct pref_in *)in.preferred.v)[i];

		prefs[i] = (struct vs_node_pref_term_spec){ .weight = p->weight,
							     .preference = p->preference.spec };
	}
	if (in.required.set) {
		struct vs_node_selector_spec *req = vs_arena_zalloc(&kf->scratch, sizeof(*req));

		if (!req)
			return kf_oom(kf);
		*req = in.required.spec;
		spec->required = req;
	}
	spec->preferred = prefs;
	spec->nr_preferred = in.preferred.nr;
	*out = spec;
	return 0;
}

static int build_pod_aff(struct kf *kf, struct vs_arg_kv *kv,
			 const struct vs_pod_affinity_spec **out)
{
	struct vs_pod_affinity_spec *spec = vs_arena_zalloc(&kf->scratch, sizeof(*spec));
	struct vs_pod_affinity_term_spec *req;
	struct vs_weighted_pod_affinity_term_spec *pref;
	struct pod_aff_in in = { 0 };
	int ret;

	if (!spec)
		return kf_oom(kf);
	ret = kf_walk_kv(kf, kv, pod_aff_fields, ARRAY_SIZE(pod_aff_fields), &in, NULL);
	if (ret)
		return ret;
	req = KF_SPECS(kf, &in.required, struct pod_term_in, spec);
	pref = vs_arena_calloc(&kf->scratch, in.preferred.nr + 1, sizeof(*pref));
	if (!req || !pref)
		return kf_oom(kf);
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

int kf_affinity(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct vs_affinity_spec *spec = vs_arena_zalloc(&kf->scratch, sizeof(*spec));
	struct aff_in in = { 0 };
	size_t old;
	int ret;

	if (!spec)
		return kf_oom(kf);
	old = kf_push(kf, kv->key);
	ret = kf_walk(kf, &kv->val, "affinity", aff_fields, ARRAY_SIZE(aff_fields), &in, NULL);
	if (!ret && in.node)
		ret = build_node_aff(kf, in.node, &spec->node_affinity);
	if (!ret && in.pod)
		ret = build_pod_aff(kf, in.pod, &spec->pod_affinity);
	if (!ret && in.anti)
		ret = build_pod_aff(kf, in.anti, &spec->pod_anti_affinity);
	kf_pop(kf, old);
	if (!ret)
		*(const struct vs_affinity_spec **)slot = spec;
	return ret;
}

int kf_role_mins(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct kf_role_mins *out = slot;
	int ret = kf_want(kf, kv, VS_ARG_MAP, "a mapping of roles to numbers");
	size_t old;

	if (ret)
		return ret;
	out->nr = 0;
	out->v = vs_arena_calloc(&kf->scratch, kv->val.map->nr + 1, sizeof(*out->v));
	if (!out->v)
		return kf_oom(kf);
	old = kf_push(kf, kv->key);
	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *r = &kv->val.map->kv[i];
		u32 min = 0;

		ret = kf_u32(kf, r, &min);
		if (!ret)
			out->v[out->nr++] = (struct vs_role_min_spec){ .role = r->key, .min = min };
	}
	kf_pop(kf, old);
	return ret;
}

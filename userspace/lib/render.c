// SPDX-License-Identifier: Apache-2.0
/*
 * Replies as JSON, driven by the family's policies: see render.h.
 *
 * The policies say what every attribute is; they do not say how a person
 * reads it. Three things are added here: resource sets and label sets are
 * read as every client reads them (decode.h) and rendered in Kubernetes' forms;
 * enum attributes are named and times recognised as the spec says
 * (display), through the codec's tables.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "lib/codec_gen.h"
#include "lib/decode.h"
#include "lib/quantity.h"
#include "lib/render.h"
#include "vsched/vsched.h"

/* An enum attribute's value by its name in the spec's display table, "?" past its end. */
static const char *enum_name(const struct vsnl_codec_attr *p, unsigned int v)
{
	return v < p->nr_names && p->names[v] ? p->names[v] : "?";
}

/* Times in seconds since 1970, shown as Kubernetes writes them (RFC 3339, UTC). */
static json_t *render_time(u64 secs)
{
	time_t t = (time_t)secs;
	char buf[32];
	struct tm tm;

	if (secs > (u64)INT64_MAX || !gmtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return json_integer((json_int_t)secs);
	return json_string(buf);
}

/*
 * Quantities as Kubernetes' canonical form writes them: "500m", "2",
 * "4Gi" (binary suffixes for bytes), "1k". The daemon counts an unlimited
 * amount (Volcano's MaxFloat64) as INT64_MAX.
 */
static const char bin_sfx[][3] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
static const char dec_sfx[][2] = { "", "k", "M", "G", "T", "P", "E" };

static u64 pow_u64(u64 base, unsigned int n)
{
	u64 p = 1;

	while (n--)
		p *= base;
	return p;
}

int vsnl_quantity_fmt(char *buf, size_t len, s64 v, unsigned int milli, bool binary)
{
	const char *sign = v < 0 ? "-" : "";
	u64 m = v < 0 ? -(u64)v : (u64)v;
	unsigned int k;

	if (v == INT64_MAX)
		return snprintf(buf, len, "unlimited");
	if (milli) {
		/* millicores and milli-units: the protocol's only fractional unit */
		if (m % 1000 == 0)
			return snprintf(buf, len, "%s%" PRIu64, sign, m / 1000);
		return snprintf(buf, len, "%s%" PRIu64 "m", sign, m);
	}
	if (!m)
		return snprintf(buf, len, "0");
	for (k = ARRAY_SIZE(bin_sfx) - 1; binary && k > 0; k--)
		if (m % ((u64)1 << (10 * k)) == 0)
			return snprintf(buf, len, "%s%" PRIu64 "%s", sign, m >> (10 * k),
					bin_sfx[k]);
	for (k = ARRAY_SIZE(dec_sfx) - 1; k > 0; k--)
		if (m % pow_u64(1000, k) == 0)
			return snprintf(buf, len, "%s%" PRIu64 "%s", sign, m / pow_u64(1000, k),
					dec_sfx[k]);
	return snprintf(buf, len, "%s%" PRIu64, sign, m);
}

static json_t *quantity(s64 v, unsigned int milli, bool binary)
{
	char buf[32];

	vsnl_quantity_fmt(buf, sizeof(buf), v, milli, binary);
	return json_string(buf);
}

/* Checked reads: a reply with a short attribute renders as null. */
static bool attr_ok(const struct nlattr *a, enum mnl_attr_data_type t)
{
	return mnl_attr_validate(a, t) == 0;
}

/* {"cpu": "500m", "memory": "4Gi", "pods": "110", "nvidia.com/gpu": "1"} */
static int res_entry(const char *dim, u64 value, void *arg)
{
	json_t *v = quantity((s64)value, vsnl_res_milli(dim), !strcmp(dim, "memory"));

	return json_object_set_new(arg, dim, v);
}

/* {"zone": "a", "kubernetes.io/hostname": "n1"} */
static int label_entry(const char *key, const char *value, void *arg)
{
	return json_object_set_new(arg, key, json_string(value));
}

static json_t *render_map(const struct nlattr *nest, bool res)
{
	json_t *obj = json_object();

	if (obj && (res ? vsnl_read_res(nest, res_entry, obj) :
			  vsnl_read_labels(nest, label_entry, obj))) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static json_t *render_int(const struct nlattr *a, const struct vsnl_codec_set *set, u16 type)
{
	const struct vsnl_codec_attr *p = &set->attrs[type];
	bool is_bool = (p->flags & VSNL_CODEC_F_RANGE) && p->min == 0 && p->max == 1;

	switch (p->type) {
	case VSNL_CODEC_U8:
		if (!attr_ok(a, MNL_TYPE_U8))
			return json_null();
		return is_bool ? json_boolean(mnl_attr_get_u8(a)) : json_integer(mnl_attr_get_u8(a));
	case VSNL_CODEC_U16:
		return attr_ok(a, MNL_TYPE_U16) ? json_integer(mnl_attr_get_u16(a)) : json_null();
	case VSNL_CODEC_U32:
		if (!attr_ok(a, MNL_TYPE_U32))
			return json_null();
		if (p->names)
			return json_string(enum_name(p, mnl_attr_get_u32(a)));
		return json_integer(mnl_attr_get_u32(a));
	case VSNL_CODEC_S32:
		return attr_ok(a, MNL_TYPE_U32) ? json_integer((s32)mnl_attr_get_u32(a)) : json_null();
	case VSNL_CODEC_U64:
	case VSNL_CODEC_S64:
		if (!attr_ok(a, MNL_TYPE_U64))
			return json_null();
		if (p->flags & VSNL_CODEC_F_TIME)
			return render_time(mnl_attr_get_u64(a));
		/* json_int_t is long long: a u64 past INT64_MAX shows negative, as no value does today */
		return json_integer((json_int_t)mnl_attr_get_u64(a));
	}
	return json_null();
}

static json_t *render_attr(const struct nlattr *a, const struct vsnl_codec_set *set, u16 type)
{
	const struct vsnl_codec_attr *p = &set->attrs[type];

	switch (p->type) {
	case VSNL_CODEC_STRING:
		return attr_ok(a, MNL_TYPE_NUL_STRING) ? json_string(mnl_attr_get_str(a)) :
							 json_null();
	case VSNL_CODEC_FLAG:
		return json_true();
	case VSNL_CODEC_NESTED:
		return vsnl_render_nest(a, p->nested);
	default:
		return render_int(a, set, type);
	}
}

/* Add one attribute's value under its name, as an array element when it repeats. */
static int add(json_t *obj, const struct vsnl_codec_attr *p, json_t *v)
{
	json_t *arr;

	if (!v)
		return -1;
	if (!(p->flags & VSNL_CODEC_F_MULTI))
		return json_object_set_new(obj, p->name, v);
	arr = json_object_get(obj, p->name);
	if (!arr) {
		arr = json_array();
		if (!arr || json_object_set_new(obj, p->name, arr)) {
			json_decref(v);
			return -1;
		}
	}
	return json_array_append_new(arr, v);
}

static bool renderable(const struct vsnl_codec_set *set, u16 type)
{
	const struct vsnl_codec_attr *p;

	if (!type || type > set->maxattr)
		return false;
	p = &set->attrs[type];
	return p->name && p->type != VSNL_CODEC_UNSPEC && p->type != VSNL_CODEC_REJECT &&
	       (p->type != VSNL_CODEC_NESTED || p->nested);
}

/* Add @a to @obj if @set knows it; attributes it does not know are skipped. */
static int render_into(json_t *obj, const struct vsnl_codec_set *set, const struct nlattr *a)
{
	u16 type = mnl_attr_get_type(a);

	if (!renderable(set, type))
		return 0;
	return add(obj, &set->attrs[type], render_attr(a, set, type));
}

json_t *vsnl_render_nest(const struct nlattr *nest, const struct vsnl_codec_set *set)
{
	const struct nlattr *a;
	json_t *obj;

	if (set == &vsnl_codec_res || set == &vsnl_codec_labels)
		return render_map(nest, set == &vsnl_codec_res);
	obj = json_object();
	if (!obj)
		return NULL;
	mnl_attr_for_each_nested(a, nest) {
		if (render_into(obj, set, a)) {
			json_decref(obj);
			return NULL;
		}
	}
	return obj;
}

json_t *vsnl_render_msg(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;
	json_t *obj = json_object();

	if (!obj)
		return NULL;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (render_into(obj, &vsnl_codec_reply, a)) {
			json_decref(obj);
			return NULL;
		}
	}
	return obj;
}

/* "cpu=2,memory=4Gi", "zone=a": an object of strings (resources, labels); NULL if not one. */
static char *string_map(const json_t *v)
{
	const char *key;
	char *s = NULL, *next;
	json_t *x;

	json_object_foreach((json_t *)v, key, x)
		if (!json_is_string(x))
			return NULL;
	s = strdup("");
	json_object_foreach((json_t *)v, key, x) {
		if (!s || asprintf(&next, "%s%s%s=%s", s, *s ? "," : "", key,
				   json_string_value(x)) < 0)
			next = NULL;
		free(s);
		s = next;
	}
	return s;
}

char *vsnl_render_cell(const json_t *v)
{
	char *s;

	if (!v || json_is_null(v))
		return strdup("");
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_object(v) && (s = string_map(v)))
		return s;
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
}

/*
 * A quantity as quantity() writes it, back in the protocol's units, read as
 * the options' quantities are (quantity.h). Anything else ("unlimited") is 0.
 */
double vsnl_quantity(const json_t *res, const char *dim)
{
	const char *q = json_string_value(json_object_get(res, dim));
	s64 v;

	if (!q || vsnl_quantity_parse(q, strlen(q), vsnl_res_milli(dim), &v, NULL))
		return 0;
	return (double)v;
}

u64 vsnl_u64(const json_t *obj, const char *key)
{
	return (u64)json_integer_value(json_object_get(obj, key));
}

int vsnl_render_keep(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	json_t **out = arg;

	json_decref(*out);
	*out = vsnl_render_msg(nlh);
	return *out ? 0 : -ENOMEM;
}

int vsnl_render_collect(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_collect *col = arg;
	json_t *msg = vsnl_render_msg(nlh), *obj;
	int ret = 0;

	if (!msg)
		return -ENOMEM;
	obj = json_object_get(msg, col->key);
	if (obj && json_array_append(col->items, obj))
		ret = -ENOMEM;
	json_decref(msg);
	return ret;
}

void vsnl_render_explain(FILE *out, const char *kind, const char *name, const json_t *ex)
{
	const json_t *cycle = json_object_get(ex, "cycle"), *s;
	size_t i;

	fprintf(out, "%-9s %s\n", kind, name);
	fprintf(out, "%-9s %s\n", "Status:", json_string_value(json_object_get(ex, "status")));
	fprintf(out, "%-9s %s\n", "Reason:", json_string_value(json_object_get(ex, "reason")));
	fprintf(out, "%-9s %s\n", "Message:", json_string_value(json_object_get(ex, "message")));
	if (cycle)
		fprintf(out, "%-9s %lld\n", "Cycle:", json_integer_value(cycle));
	else
		fprintf(out, "%-9s none\n", "Cycle:");
	fprintf(out, "Steps:\n");
	json_array_foreach(json_object_get(ex, "steps"), i, s)
		fprintf(out, "  %s\n", json_string_value(s));
}

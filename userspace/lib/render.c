// SPDX-License-Identifier: Apache-2.0
/*
 * Replies as JSON, driven by the family's policies: see render.h.
 *
 * The policies say what every attribute is; they do not say how a person
 * reads it. Three things are added here: resource sets and label sets are
 * recognised by the ids of their entries and rendered in Kubernetes' forms,
 * and enum attributes are named through the core's own name tables, found
 * by the attribute's id ("VS_TASK_A_STATUS").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "core/affinity.h"
#include "core/cluster.h"
#include "core/enum.h"
#include "core/labels.h"
#include "core/queue.h"
#include "core/res.h"
#include "core/task.h"
#include "core/vjob.h"
#include "lib/render.h"
#include "netlink/family.h"
#include "vsched/vsched.h"

static const char *decision_kind_name(unsigned int v)
{
	static const char *const names[] = { "bind", "evict", "pipeline" };

	return v < ARRAY_SIZE(names) ? names[v] : "?";
}

static const char *event_kind_name(unsigned int v)
{
	static const char *const names[] = { "new", "set", "del", "status", "reset",
					     "unschedulable" };

	return v < ARRAY_SIZE(names) ? names[v] : "?";
}

const char *const vsnl_task_events[VSNL_NR_TASK_EVENTS] = {
	[VS_TASK_EVENT_RUNNING] = "running",
	[VS_TASK_EVENT_SUCCEEDED] = "succeeded",
	[VS_TASK_EVENT_FAILED] = "failed",
	[VS_TASK_EVENT_DELETING] = "deleting",
	[VS_TASK_EVENT_DELETED] = "deleted",
};

static const char *task_event_name(unsigned int v)
{
	return vs_enum_name(vsnl_task_events, VSNL_NR_TASK_EVENTS, v);
}

/* Tolerations and affinity operators: "" means every effect, as in Kubernetes. */
static const char *tol_effect_name(unsigned int v)
{
	return v == VS_TAINT_EFFECT_ANY ? "" : vs_taint_effect_name(v);
}

static const char *taint_effect_name(unsigned int v)
{
	return vs_taint_effect_name(v);
}

static const char *tol_op_name(unsigned int v)
{
	return vs_toleration_op_name(v);
}

static const char *sel_op_name(unsigned int v)
{
	return vs_sel_op_name(v);
}

static const char *queue_state_name(unsigned int v)
{
	return vs_queue_state_name(v);
}

static const char *pg_phase_name(unsigned int v)
{
	return vs_pg_phase_name(v);
}

static const char *cond_type_name(unsigned int v)
{
	return vs_pg_cond_type_name(v);
}

static const char *task_status_name(unsigned int v)
{
	return vs_task_status_name(v);
}

static const char *preemption_policy_name(unsigned int v)
{
	return vs_preemption_policy_name(v);
}

static const char *vjob_phase_name(unsigned int v)
{
	return vs_vjob_phase_name(v);
}

static const struct {
	const char *id;
	const char *(*name)(unsigned int v);
} enum_names[] = {
	{ "VS_TAINT_A_EFFECT", taint_effect_name },
	{ "VS_TOL_A_EFFECT", tol_effect_name },
	{ "VS_TOL_A_OPERATOR", tol_op_name },
	{ "VS_SELREQ_A_OP", sel_op_name },
	{ "VS_QUEUE_A_STATE", queue_state_name },
	{ "VS_PG_A_PHASE", pg_phase_name },
	{ "VS_COND_A_TYPE", cond_type_name },
	{ "VS_TASK_A_STATUS", task_status_name },
	{ "VS_TASK_A_PREEMPTION_POLICY", preemption_policy_name },
	{ "VS_PC_A_PREEMPTION_POLICY", preemption_policy_name },
	{ "VS_TASK_A_EVENT", task_event_name },
	{ "VS_VJOB_A_PHASE", vjob_phase_name },
	{ "VS_DECISION_A_KIND", decision_kind_name },
	{ "VS_A_EVENT_KIND", event_kind_name },
};

/* Times in seconds since 1970, shown as Kubernetes writes them (RFC 3339, UTC). */
static const char *const time_ids[] = {
	"VS_QUEUE_A_CREATED", "VS_PG_A_CREATED", "VS_TASK_A_CREATED", "VS_COND_A_TIME",
};

static bool is_time(const struct vs_nla_policy *p)
{
	if (!p->id)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(time_ids); i++)
		if (!strcmp(time_ids[i], p->id))
			return true;
	return false;
}

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

static const char *(*enum_of(const struct vs_nla_policy *p))(unsigned int)
{
	if (!p->id)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(enum_names); i++)
		if (!strcmp(enum_names[i].id, p->id))
			return enum_names[i].name;
	return NULL;
}

/* Is @policy the set whose entry @type has the id @id? (How sets are recognised.) */
static bool set_is(const struct vs_nla_policy *policy, u16 maxattr, u16 type, const char *id)
{
	return type <= maxattr && policy[type].id && !strcmp(policy[type].id, id);
}

static json_t *quantity(s64 v, unsigned int milli, bool binary)
{
	char buf[32];

	vs_quantity_fmt(buf, sizeof(buf), v, milli, binary);
	return json_string(buf);
}

/* Checked reads: a reply with a short attribute renders as null. */
static bool attr_ok(const struct nlattr *a, enum mnl_attr_data_type t)
{
	return mnl_attr_validate(a, t) == 0;
}

/* {"cpu": "500m", "memory": "4Gi", "pods": "110", "nvidia.com/gpu": "1"} */
static json_t *render_res(const struct nlattr *nest)
{
	json_t *obj = json_object();
	const struct nlattr *a, *s;

	if (!obj)
		return NULL;
	mnl_attr_for_each_nested(a, nest) {
		const char *name = NULL;
		json_t *v = NULL;

		switch (mnl_attr_get_type(a)) {
		case VS_RES_A_CPU:
			if (attr_ok(a, MNL_TYPE_U64))
				v = quantity((s64)mnl_attr_get_u64(a), 3, false);
			name = "cpu";
			break;
		case VS_RES_A_MEMORY:
			if (attr_ok(a, MNL_TYPE_U64))
				v = quantity((s64)mnl_attr_get_u64(a), 0, true);
			name = "memory";
			break;
		case VS_RES_A_PODS:
			if (attr_ok(a, MNL_TYPE_U64))
				v = quantity((s64)mnl_attr_get_u64(a), 0, false);
			name = "pods";
			break;
		case VS_RES_A_SCALAR:
			mnl_attr_for_each_nested(s, a) {
				if (mnl_attr_get_type(s) == VS_SCALAR_A_NAME &&
				    attr_ok(s, MNL_TYPE_NUL_STRING))
					name = mnl_attr_get_str(s);
				else if (mnl_attr_get_type(s) == VS_SCALAR_A_VALUE &&
					 attr_ok(s, MNL_TYPE_U64))
					v = quantity((s64)mnl_attr_get_u64(s), 3, false);
			}
			break;
		}
		if (name && json_object_set_new(obj, name, v ? v : json_null()))
			goto fail;
		if (!name)
			json_decref(v);
	}
	return obj;
fail:
	json_decref(obj);
	return NULL;
}

/* {"zone": "a", "kubernetes.io/hostname": "n1"} */
static json_t *render_labels(const struct nlattr *nest)
{
	json_t *obj = json_object();
	const struct nlattr *item, *a;

	if (!obj)
		return NULL;
	mnl_attr_for_each_nested(item, nest) {
		const char *key = NULL, *value = "";

		if (mnl_attr_get_type(item) != VS_LABELS_A_ITEM)
			continue;
		mnl_attr_for_each_nested(a, item) {
			if (!attr_ok(a, MNL_TYPE_NUL_STRING))
				continue;
			if (mnl_attr_get_type(a) == VS_KV_A_KEY)
				key = mnl_attr_get_str(a);
			else if (mnl_attr_get_type(a) == VS_KV_A_VALUE)
				value = mnl_attr_get_str(a);
		}
		if (key && json_object_set_new(obj, key, json_string(value))) {
			json_decref(obj);
			return NULL;
		}
	}
	return obj;
}

static json_t *render_int(const struct nlattr *a, const struct vs_nla_policy *p)
{
	const char *(*name)(unsigned int) = enum_of(p);
	bool is_bool = (p->flags & VS_NLA_F_RANGE) && p->min == 0 && p->max == 1;

	switch (p->type) {
	case VS_NLA_U8:
		if (!attr_ok(a, MNL_TYPE_U8))
			return json_null();
		return is_bool ? json_boolean(mnl_attr_get_u8(a)) : json_integer(mnl_attr_get_u8(a));
	case VS_NLA_U16:
		return attr_ok(a, MNL_TYPE_U16) ? json_integer(mnl_attr_get_u16(a)) : json_null();
	case VS_NLA_U32:
		if (!attr_ok(a, MNL_TYPE_U32))
			return json_null();
		if (name)
			return json_string(name(mnl_attr_get_u32(a)));
		return json_integer(mnl_attr_get_u32(a));
	case VS_NLA_S32:
		return attr_ok(a, MNL_TYPE_U32) ? json_integer((s32)mnl_attr_get_u32(a)) : json_null();
	case VS_NLA_U64:
	case VS_NLA_S64:
		if (!attr_ok(a, MNL_TYPE_U64))
			return json_null();
		if (is_time(p))
			return render_time(mnl_attr_get_u64(a));
		/* json_int_t is long long: a u64 past INT64_MAX shows negative, as no value does today */
		return json_integer((json_int_t)mnl_attr_get_u64(a));
	}
	return json_null();
}

static json_t *render_attr(const struct nlattr *a, const struct vs_nla_policy *p)
{
	switch (p->type) {
	case VS_NLA_STRING:
		return attr_ok(a, MNL_TYPE_NUL_STRING) ? json_string(mnl_attr_get_str(a)) :
							 json_null();
	case VS_NLA_FLAG:
		return json_true();
	case VS_NLA_NESTED:
		return vsnl_render_nest(a, p->nested, p->maxattr);
	default:
		return render_int(a, p);
	}
}

/* Add one attribute's value under its name, as an array element when it repeats. */
static int add(json_t *obj, const struct vs_nla_policy *p, json_t *v)
{
	json_t *arr;

	if (!v)
		return -1;
	if (!(p->flags & VS_NLA_F_MULTI))
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

static bool renderable(const struct vs_nla_policy *policy, u16 maxattr, u16 type)
{
	const struct vs_nla_policy *p = &policy[type];

	return type && type <= maxattr && p->name && p->type != VS_NLA_UNSPEC &&
	       p->type != VS_NLA_REJECT && (p->type != VS_NLA_NESTED || p->nested);
}

json_t *vsnl_render_nest(const struct nlattr *nest, const struct vs_nla_policy *policy,
			  u16 maxattr)
{
	const struct nlattr *a;
	json_t *obj;

	if (set_is(policy, maxattr, VS_RES_A_CPU, "VS_RES_A_CPU"))
		return render_res(nest);
	if (set_is(policy, maxattr, VS_LABELS_A_ITEM, "VS_LABELS_A_ITEM"))
		return render_labels(nest);
	obj = json_object();
	if (!obj)
		return NULL;
	mnl_attr_for_each_nested(a, nest) {
		u16 type = mnl_attr_get_type(a);

		if (!renderable(policy, maxattr, type))
			continue;
		if (add(obj, &policy[type], render_attr(a, &policy[type]))) {
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
		u16 type = mnl_attr_get_type(a);

		if (!renderable(vs_genl_reply_policy, VS_A_MAX, type))
			continue;
		if (add(obj, &vs_genl_reply_policy[type],
			render_attr(a, &vs_genl_reply_policy[type]))) {
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

double vsnl_quantity(const json_t *res, const char *dim)
{
	const char *q = json_string_value(json_object_get(res, dim));
	unsigned int milli = strcmp(dim, "memory") && strcmp(dim, "pods") ? 3 : 0;
	struct vs_err err;
	s64 v;

	if (!q || vs_quantity_parse(q, strlen(q), milli, &v, &err))
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

// SPDX-License-Identifier: Apache-2.0
/* The protocol's lists read into C: see decode.h. */
#include <libmnl/libmnl.h>

#include "lib/decode.h"
#include "vsched/vsched.h"

static const char *str_of(const struct nlattr *a)
{
	return mnl_attr_validate(a, MNL_TYPE_NUL_STRING) ? NULL : mnl_attr_get_str(a);
}

static bool u64_of(const struct nlattr *a, u64 *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U64))
		return false;
	*v = mnl_attr_get_u64(a);
	return true;
}

int vsnl_read_res(const struct nlattr *nest, vsnl_res_fn fn, void *arg)
{
	static const char *const fixed[] = {
		[VS_RES_A_CPU] = "cpu", [VS_RES_A_MEMORY] = "memory", [VS_RES_A_PODS] = "pods",
	};
	const struct nlattr *a, *s;
	int ret;

	mnl_attr_for_each_nested(a, nest) {
		u16 type = mnl_attr_get_type(a);
		const char *name = type < ARRAY_SIZE(fixed) ? fixed[type] : NULL;
		bool ok = false;
		u64 v = 0;

		if (name) {
			ok = u64_of(a, &v);
		} else if (type == VS_RES_A_SCALAR) {
			mnl_attr_for_each_nested(s, a) {
				if (mnl_attr_get_type(s) == VS_SCALAR_A_NAME)
					name = str_of(s);
				else if (mnl_attr_get_type(s) == VS_SCALAR_A_VALUE)
					ok = u64_of(s, &v);
			}
		}
		if (!name || !ok)
			continue;
		ret = fn(name, v, arg);
		if (ret)
			return ret;
	}
	return 0;
}

int vsnl_read_labels(const struct nlattr *nest, vsnl_label_fn fn, void *arg)
{
	const struct nlattr *item, *a;
	int ret;

	mnl_attr_for_each_nested(item, nest) {
		const char *key = NULL, *value = "";

		if (mnl_attr_get_type(item) != VS_LABELS_A_ITEM)
			continue;
		mnl_attr_for_each_nested(a, item) {
			const char *s = str_of(a);

			if (s && mnl_attr_get_type(a) == VS_KV_A_KEY)
				key = s;
			else if (s && mnl_attr_get_type(a) == VS_KV_A_VALUE)
				value = s;
		}
		if (!key)
			continue;
		ret = fn(key, value, arg);
		if (ret)
			return ret;
	}
	return 0;
}

bool vsnl_read_taint(const struct nlattr *nest, struct vsnl_taint *t)
{
	const struct nlattr *a;

	*t = (struct vsnl_taint){ NULL, NULL, 0 };
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case VS_TAINT_A_KEY:
			t->key = str_of(a);
			break;
		case VS_TAINT_A_VALUE:
			t->value = str_of(a);
			break;
		case VS_TAINT_A_EFFECT:
			if (!mnl_attr_validate(a, MNL_TYPE_U32))
				t->effect = mnl_attr_get_u32(a);
			break;
		}
	}
	return t->key != NULL;
}

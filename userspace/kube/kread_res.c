// SPDX-License-Identifier: Apache-2.0
/*
 * Resource lists and labels of manifests as protocol nests: see kread.h.
 * A quantity is read into the protocol's units by lib/quantity.c; which
 * names a resource may have is the daemon's to say.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"
#include "lib/quantity.h"
#include "vsched/vsched.h"

/* The largest finite quantity: INT64_MAX is the protocol's "unlimited". */
#define KR_RES_TOP	(INT64_MAX - 1)

/*
 * A quantity's text: a string as written, a number as YAML wrote it
 * ("2", "0.5", "1e3"), which is what Kubernetes' Quantity reads.
 */
static const char *qty_text(const struct vsnl_ynode *v)
{
	switch (v->type) {
	case VSNL_Y_STRING:
	case VSNL_Y_INT:
	case VSNL_Y_FLOAT:
		return v->text;
	default:
		return NULL;
	}
}

struct kr_res_ent *kr_res_get(struct kr_res *r, const char *name, bool add)
{
	for (u32 i = 0; i < r->nr; i++)
		if (!strcmp(r->e[i].name, name))
			return &r->e[i];
	if (!add || r->nr == KR_RES_MAX)
		return NULL;
	r->e[r->nr] = (struct kr_res_ent){ .name = name };
	return &r->e[r->nr++];
}

int kr_res(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct kr_res *r = slot;
	int ret = kr_want(kr, kv, VSNL_Y_MAP, "a mapping of quantities");
	size_t old;

	if (ret)
		return ret;
	memset(r, 0, sizeof(*r));
	r->line = kv->line;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.map.nr; i++) {
		const struct vsnl_ypair *q = &kv->val.map.pairs[i];
		const char *text = qty_text(&q->val);
		struct kr_res_ent *e;

		if (!text) {
			ret = kr_err(kr, q->line, "%s must be a quantity, not %s", kr_name(kr, q),
				     kr_type_name(&q->val));
			break;
		}
		e = kr_res_get(r, q->key, true);
		if (!e) {
			ret = kr_err(kr, q->line, "%s: more than %d resources", kr_name(kr, q),
				     KR_RES_MAX);
			break;
		}
		if (vsnl_quantity_parse(text, strlen(text), vsnl_res_milli(q->key), &e->v,
					kr->err))
			ret = kr_put_ret(kr, &q->val, kr_name(kr, q), -EINVAL);
	}
	kr_pop(kr, old);
	return ret;
}

static s64 sat_add(s64 a, s64 b)
{
	return a > KR_RES_TOP - b ? KR_RES_TOP : a + b;
}

int kr_res_add(struct kr_res *to, const struct kr_res *r)
{
	for (u32 i = 0; i < r->nr; i++) {
		struct kr_res_ent *e = kr_res_get(to, r->e[i].name, true);

		if (!e)
			return -ENOSPC;
		e->v = sat_add(e->v, r->e[i].v);
	}
	return 0;
}

int kr_res_max(struct kr_res *to, const struct kr_res *r)
{
	for (u32 i = 0; i < r->nr; i++) {
		struct kr_res_ent *e = kr_res_get(to, r->e[i].name, true);

		if (!e)
			return -ENOSPC;
		if (r->e[i].v > e->v)
			e->v = r->e[i].v;
	}
	return 0;
}

int kr_put_res(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
	       const struct kr_res *r, const char *field)
{
	static const struct { const char *dim; u16 type; } fixed[] = {
		{ "cpu", VS_RES_A_CPU }, { "memory", VS_RES_A_MEMORY }, { "pods", VS_RES_A_PODS },
	};
	const struct vsnl_codec_set *res = set->attrs[type].nested;
	struct nlattr *nest, *scalar;
	u32 line = r->line ?: kr->doc->line;
	struct vsnl_ynode at = { .line = line };
	int ret = 0;
	size_t k;

	nest = vsnl_codec_nest_start(kr->nlh, kr->cap, set, type, kr->err);
	if (!nest)
		return kr_put_ret(kr, &at, field, kr->err->err ?: -EMSGSIZE);
	for (k = 0; !ret && k < ARRAY_SIZE(fixed); k++) {
		const struct kr_res_ent *e = kr_res_get((struct kr_res *)r, fixed[k].dim, false);

		if (e)
			ret = vsnl_codec_put_uint(kr->nlh, kr->cap, res, fixed[k].type, (u64)e->v,
						  kr->err);
	}
	for (u32 i = 0; !ret && i < r->nr; i++) {
		const struct kr_res_ent *e = &r->e[i];

		for (k = 0; k < ARRAY_SIZE(fixed) && strcmp(e->name, fixed[k].dim); k++)
			;
		if (k < ARRAY_SIZE(fixed))
			continue;
		scalar = vsnl_codec_nest_start(kr->nlh, kr->cap, res, VS_RES_A_SCALAR, kr->err);
		if (!scalar) {
			ret = kr->err->err ?: -EMSGSIZE;
			break;
		}
		ret = vsnl_scalar_put_name(kr->nlh, kr->cap, e->name, kr->err) ?:
		      vsnl_scalar_put_value(kr->nlh, kr->cap, (u64)e->v, kr->err);
		if (!ret)
			mnl_attr_nest_end(kr->nlh, scalar);
	}
	if (ret)
		return kr_put_ret(kr, &at, field, ret);
	mnl_attr_nest_end(kr->nlh, nest);
	return 0;
}

int kr_put_labels(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		  const struct vsnl_ypair *kv)
{
	struct nlattr *nest, *item;
	size_t old;
	int ret;

	if (!kv || kv->val.type == VSNL_Y_NULL)
		return 0;
	ret = kr_want(kr, kv, VSNL_Y_MAP, "a mapping of strings");
	if (ret)
		return ret;
	nest = vsnl_codec_nest_start(kr->nlh, kr->cap, set, type, kr->err);
	if (!nest)
		return kr_put_ret(kr, &kv->val, kv->key, kr->err->err ?: -EMSGSIZE);
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.map.nr; i++) {
		const struct vsnl_ypair *l = &kv->val.map.pairs[i];

		ret = kr_want(kr, l, VSNL_Y_STRING, "a string");
		if (ret)
			break;
		item = vsnl_labels_start_item(kr->nlh, kr->cap, kr->err);
		ret = !item ? (kr->err->err ?: -EMSGSIZE) :
		      vsnl_kv_put_key(kr->nlh, kr->cap, l->key, kr->err) ?:
		      vsnl_kv_put_value(kr->nlh, kr->cap, l->val.text ?: "", kr->err);
		if (ret) {
			ret = kr_put_ret(kr, &l->val, kr_name(kr, l), ret);
			break;
		}
		mnl_attr_nest_end(kr->nlh, item);
	}
	kr_pop(kr, old);
	if (!ret)
		mnl_attr_nest_end(kr->nlh, nest);
	return ret;
}

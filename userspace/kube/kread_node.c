// SPDX-License-Identifier: Apache-2.0
/*
 * Nodes (v1) as VS_CMD_NODE_NEW: see kread.h. The labels and the taints
 * are put as the walk reads them, into the node's nest started before it;
 * the rest once the whole document is read: the allocatable resources
 * (the capacity of a node that gives no allocatable) and the Ready
 * condition. What a manifest leaves out is left out of the request: the
 * daemon's node is schedulable and ready, as Volcano's NodeInfo takes a
 * node without a Ready condition.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"

struct node_spec_in {
	bool unschedulable;
	u64 seen;
};

struct node_status_in {
	struct kr_res allocatable, capacity;
	const char *ready;		/* the status of the last Ready condition */
	bool has_ready;
	s64 bad_ready;			/* the first Ready condition of no known status, or -1 */
	const char *bad_status;
	u64 seen;
};

/* What metadata is read into: of it only the labels are sent (the name is the document's). */
struct node_meta_in {
	const char *str;
	u64 created;
};

struct node_in {
	struct node_meta_in meta;
	struct node_spec_in spec;
	struct node_status_in status;
};

/* ---- metadata ---- */

static int p_labels(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_labels(kr, &vsnl_codec_node, VS_NODE_A_LABELS, kv);
}

/* Refused where the old reader refuses every kind's metadata (manifest.c's meta_fields). */
static const struct kr_field node_meta_fields[] = {
	KR_FIELD("name", kr_str, struct node_meta_in, str),
	KR_FIELD("namespace", kr_str, struct node_meta_in, str),
	{ .key = "labels", .parse = p_labels },
	{ .key = "annotations", .parse = kr_str_map },
	KR_FIELD("uid", kr_str, struct node_meta_in, str),
	KR_FIELD("creationTimestamp", kr_time, struct node_meta_in, created),
	KR_OPEN,
};

static int p_node_meta(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, node_meta_fields, ARRAY_SIZE(node_meta_fields), slot, NULL);
}

/* ---- spec.taints ---- */

struct taint_in {
	const char *key, *value;
	u32 effect;
	bool has_effect;
};

/* A taint's effect, refused in the old reader's words (a taint's may not be empty). */
static int p_taint_effect(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct taint_in *t = slot;
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	if (ret)
		return ret;
	if (!*kv->val.text)
		return kr_err(kr, kv->line, "%s: taint effect is required (NoSchedule, "
			      "PreferNoSchedule or NoExecute)", kr_name(kr, kv));
	for (u32 i = 0; i < VSNL_NR_TAINT_EFFECT; i++) {
		const char *name = vsnl_taint_effect_names[i];

		if (*name && !strcmp(name, kv->val.text)) {	/* "" is a toleration's any */
			t->effect = i;
			t->has_effect = true;
			return 0;
		}
	}
	return kr_err(kr, kv->line, "%s: unknown taint effect \"%s\" (NoSchedule, "
		      "PreferNoSchedule or NoExecute)", kr_name(kr, kv), kv->val.text);
}

static const struct kr_field taint_fields[] = {
	KR_FIELD("key", kr_str, struct taint_in, key),
	KR_FIELD("value", kr_str, struct taint_in, value),
	{ .key = "effect", .parse = p_taint_effect },	/* the whole taint_in */
	KR_IGNORE("timeAdded"),
};

/* The codec's answer @ret for the field @key of the taint @item, at the walk's place. */
static int taint_ret(struct kr *kr, const struct vsnl_ynode *item, const char *key, int ret)
{
	char field[KR_PATH_MAX + 16];

	if (!ret)
		return 0;
	snprintf(field, sizeof(field), "%s.%s", kr->path, key);
	return kr_put_ret(kr, vsnl_ymap_get(item, key) ?: item, field, ret);
}

/*
 * One taint as a nest of the node: what it gives of key, value and effect
 * (a taint without a key or an effect is the daemon's to refuse, as
 * Kubernetes refuses it).
 */
static int put_taint(struct kr *kr, const struct vsnl_ynode *item, const struct taint_in *t)
{
	struct nlmsghdr *nlh = kr->nlh;
	struct nlattr *nest;
	int ret = 0;

	nest = vsnl_node_start_taint(nlh, kr->cap, kr->err);
	if (!nest)
		return kr->err->err ?: -EMSGSIZE;
	if (t->key)
		ret = taint_ret(kr, item, "key", vsnl_taint_put_key(nlh, kr->cap, t->key, kr->err));
	if (!ret && t->value)
		ret = taint_ret(kr, item, "value",
				vsnl_taint_put_value(nlh, kr->cap, t->value, kr->err));
	if (!ret && t->has_effect)
		ret = taint_ret(kr, item, "effect",
				vsnl_taint_put_effect(nlh, kr->cap, t->effect, kr->err));
	if (ret)
		return ret;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

static int taint_item(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx)
{
	struct taint_in t = { 0 };

	return kr_walk(kr, item, "a taint", taint_fields, ARRAY_SIZE(taint_fields), &t, NULL) ?:
	       put_taint(kr, item, &t);
}

static int p_taints(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_each_item(kr, kv, taint_item, NULL);
}

static const struct kr_field node_spec_fields[] = {
	{ .key = "taints", .parse = p_taints },
	KR_FIELD("unschedulable", kr_bool, struct node_spec_in, unschedulable),
	KR_OPEN,
};

static int p_node_spec(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct node_spec_in *spec = slot;

	return kr_walk_kv(kr, kv, node_spec_fields, ARRAY_SIZE(node_spec_fields), spec,
			  &spec->seen);
}

/* ---- status ---- */

struct cond_in {
	const char *type, *status;
};

static const struct kr_field cond_fields[] = {
	KR_FIELD("type", kr_str, struct cond_in, type),
	KR_FIELD("status", kr_str, struct cond_in, status),
	KR_OPEN,
};

static int cond_item(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx)
{
	struct node_status_in *st = ctx;
	struct cond_in c = { 0 };
	int ret = kr_walk(kr, item, "a condition", cond_fields, ARRAY_SIZE(cond_fields), &c,
			  NULL);

	if (ret || !c.type || strcmp(c.type, "Ready"))
		return ret;
	if (st->bad_ready < 0 && (!c.status || (strcmp(c.status, "True") &&
						strcmp(c.status, "False") &&
						strcmp(c.status, "Unknown")))) {
		st->bad_ready = idx;
		st->bad_status = c.status ?: "";
	}
	st->ready = c.status;
	st->has_ready = true;
	return 0;
}

/* The conditions: of the Ready ones, the last's status, and the first that has no known one. */
static int p_conds(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_each_item(kr, kv, cond_item, slot);
}

/* ---- status.images ---- */

struct image_in {
	const struct vsnl_ypair *names;
	s64 size;
};

static int p_image_size(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_get_int(kr, kv, 0, INT64_MAX, slot);
}

static const struct kr_field image_fields[] = {
	KR_FIELD("names", kr_strs, struct image_in, names),
	KR_FIELD("sizeBytes", p_image_size, struct image_in, size),
};

/* One image, a VS_NODE_A_IMAGE nest put as it is read. */
static int image_item(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx)
{
	struct image_in im = { 0 };
	struct nlattr *nest;
	int ret;

	ret = kr_walk(kr, item, "an image", image_fields, ARRAY_SIZE(image_fields), &im, NULL);
	if (ret)
		return ret;
	if (!im.names || !im.names->val.seq.nr)
		return kr_err(kr, item->line, "%s.names: required", kr->path);
	nest = vsnl_codec_nest_start(kr->nlh, kr->cap, &vsnl_codec_node, VS_NODE_A_IMAGE,
				     kr->err);
	if (!nest)
		return kr->err->err ?: -EMSGSIZE;
	ret = kr_put_strs(kr, im.names, &vsnl_codec_node_image, VS_NIMG_A_NAME) ?:
	      vsnl_node_image_put_size(kr->nlh, kr->cap, (u64)im.size, kr->err);
	if (!ret)
		mnl_attr_nest_end(kr->nlh, nest);
	return ret;
}

static int p_images(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_each_item(kr, kv, image_item, NULL);
}

static const struct kr_field node_status_fields[] = {
	KR_FIELD("allocatable", kr_res, struct node_status_in, allocatable),
	KR_FIELD("capacity", kr_res, struct node_status_in, capacity),
	{ .key = "images", .parse = p_images },
	{ .key = "conditions", .parse = p_conds },	/* the whole node_status_in */
	KR_OPEN,
};

static int p_node_status(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct node_status_in *st = slot;

	return kr_walk_kv(kr, kv, node_status_fields, ARRAY_SIZE(node_status_fields), st,
			  &st->seen);
}

static const struct kr_field node_fields[] = {
	KR_IGNORE("apiVersion"),
	KR_IGNORE("kind"),
	KR_FIELD("metadata", p_node_meta, struct node_in, meta),
	KR_FIELD("spec", p_node_spec, struct node_in, spec),
	KR_FIELD("status", p_node_status, struct node_in, status),
};

/* ---- the node ---- */

/* allocatable, as Volcano reads it; a hand-written node may give only its capacity */
static int put_allocatable(struct kr *kr, const struct node_status_in *st)
{
	if (KR_HAS(node_status_fields, st->seen, "allocatable"))
		return kr_put_res(kr, &vsnl_codec_node, VS_NODE_A_ALLOCATABLE, &st->allocatable,
				  "status.allocatable");
	if (KR_HAS(node_status_fields, st->seen, "capacity"))
		return kr_put_res(kr, &vsnl_codec_node, VS_NODE_A_ALLOCATABLE, &st->capacity,
				  "status.capacity");
	return 0;
}

/*
 * A Node: its name, labels, spec.taints and spec.unschedulable, its
 * status.allocatable (else capacity) and whether it is ready: a Ready
 * condition that is not True makes it not ready, as Volcano's NodeInfo
 * has it; a status other than True, False or Unknown is refused.
 */
int kr_put_node(struct kr *kr)
{
	const struct vsnl_ynode *root = kr->doc->root;
	struct node_in in = { .status.bad_ready = -1 };
	struct nlmsghdr *nlh = kr->nlh;
	struct nlattr *nest;
	int ret;

	nest = vsnl_vsched_start_node(nlh, kr->cap, kr->err);
	if (!nest)
		return kr->err->err ?: -EMSGSIZE;
	ret = kr_walk(kr, root, "a manifest", node_fields, ARRAY_SIZE(node_fields), &in, NULL);
	if (ret)
		return ret;
	if (!kr->doc->name || !*kr->doc->name)
		return kr_err(kr, kr->doc->line, "metadata.name: required");
	if (in.status.bad_ready >= 0)
		return kr_err(kr, kr->doc->line, "status.conditions[%lld].status: \"%s\" is not "
			      "True, False or Unknown", (long long)in.status.bad_ready,
			      in.status.bad_status);
	ret = kr_put_ret(kr, vsnl_ymap_get(vsnl_ymap_get(root, "metadata"), "name"),
			 "metadata.name",
			 vsnl_node_put_name(nlh, kr->cap, kr->doc->name, kr->err)) ?:
	      put_allocatable(kr, &in.status);
	if (!ret && KR_HAS(node_spec_fields, in.spec.seen, "unschedulable"))
		ret = kr_put_ret(kr, vsnl_ymap_get(vsnl_ymap_get(root, "spec"), "unschedulable"),
				 "spec.unschedulable",
				 vsnl_node_put_unschedulable(nlh, kr->cap, in.spec.unschedulable,
							     kr->err));
	if (!ret && in.status.has_ready)
		ret = kr_put_ret(kr, vsnl_ymap_get(vsnl_ymap_get(root, "status"), "conditions"),
				 "status.conditions",
				 vsnl_node_put_ready(nlh, kr->cap, !strcmp(in.status.ready, "True"),
						     kr->err));
	if (ret)
		return ret;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

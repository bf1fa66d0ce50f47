// SPDX-License-Identifier: Apache-2.0
/*
 * Topology requests as the protocol's nests: see kread.h. A
 * networkTopology (a PodGroup's, a sub-group policy's, a VolcanoJob's, a
 * partition's), a PodGroup's subGroupPolicy and a VolcanoJob task's
 * partitionPolicy, each written as its keys are read. The reader refuses
 * what it cannot read (types, numbers, the mode's name); ranges are the
 * codec's, named by path, and Volcano's rules (not both tiers, partitions
 * that make the replicas) the daemon's.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"
#include "vsched/vsched.h"

/* What a walk below a nest writes into: the nest's set. */
struct topo_obj {
	const struct vsnl_codec_set *set;
};

static int nest_failed(struct kr *kr, const struct vsnl_ynode *at, const char *field)
{
	return kr_put_ret(kr, at, field, kr->err->err ?: -EMSGSIZE);
}

/* An integer of @lo..@hi at @kv, put as @type of the walk's set. */
static int put_int(struct kr *kr, const struct vsnl_ypair *kv, const struct topo_obj *o,
		   u16 type, s64 lo, s64 hi)
{
	s64 v = 0;

	return kr_get_int(kr, kv, lo, hi, &v) ?:
	       kr_put_ret(kr, &kv->val, kr_name(kr, kv),
			  vsnl_codec_put_int(kr->nlh, kr->cap, o->set, type, v, kr->err));
}

static int put_str(struct kr *kr, const struct vsnl_ypair *kv, const struct topo_obj *o,
		   u16 type)
{
	const char *s = NULL;

	return kr_str(kr, kv, &s) ?:
	       kr_put_ret(kr, &kv->val, kr_name(kr, kv),
			  vsnl_codec_put_str(kr->nlh, kr->cap, o->set, type, s, kr->err));
}

/* ---- networkTopology ---- */

static int p_nt_mode(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct topo_obj *o = slot;
	bool present = false;
	u32 mode = 0;

	return kr_enum(kr, kv, vsnl_nt_mode_names, VSNL_NR_NT_MODE, "networkTopology mode",
		       &mode, &present) ?:
	       (!present ? 0 :
		kr_put_ret(kr, &kv->val, kr_name(kr, kv),
			   vsnl_codec_put_int(kr->nlh, kr->cap, o->set, VS_NT_A_MODE, mode,
					      kr->err)));
}

static int p_nt_tier(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_int(kr, kv, slot, VS_NT_A_HIGHEST_TIER, INT32_MIN, INT32_MAX);
}

static int p_nt_tier_name(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_str(kr, kv, slot, VS_NT_A_HIGHEST_TIER_NAME);
}

static const struct kr_field nt_fields[] = {
	{ .key = "mode", .parse = p_nt_mode },
	{ .key = "highestTierAllowed", .parse = p_nt_tier },
	{ .key = "highestTierName", .parse = p_nt_tier_name },
};

/* A nest @type of @set, its keys walked against @fields, each put as it is read. */
static int put_nest(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		    const struct vsnl_ypair *kv, const struct kr_field *fields, u32 nr)
{
	struct topo_obj o = { .set = set->attrs[type].nested };
	struct nlattr *nest;
	int ret;

	if (kv->val.type != VSNL_Y_MAP)		/* refused in kr_walk()'s words */
		return kr_walk_kv(kr, kv, fields, nr, &o, NULL);
	nest = vsnl_codec_nest_start(kr->nlh, kr->cap, set, type, kr->err);
	if (!nest)
		return nest_failed(kr, &kv->val, kr_name(kr, kv));
	ret = kr_walk_kv(kr, kv, fields, nr, &o, NULL);
	if (!ret)
		mnl_attr_nest_end(kr->nlh, nest);
	return ret;
}

int kr_put_net_topology(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
			const struct vsnl_ypair *kv)
{
	return put_nest(kr, set, type, kv, nt_fields, ARRAY_SIZE(nt_fields));
}

/* ---- subGroupPolicy ---- */

static int p_sg_name(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_str(kr, kv, slot, VS_SGP_A_NAME);
}

static int p_sg_nt(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct topo_obj *o = slot;

	return kr_put_net_topology(kr, o->set, VS_SGP_A_NETWORK_TOPOLOGY, kv);
}

static int p_sg_size(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_int(kr, kv, slot, VS_SGP_A_SUBGROUP_SIZE, INT32_MIN, INT32_MAX);
}

static int p_sg_min(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_int(kr, kv, slot, VS_SGP_A_MIN_SUBGROUPS, INT32_MIN, INT32_MAX);
}

static int p_sg_selector(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct topo_obj *o = slot;

	return kr_put_lsel(kr, o->set, VS_SGP_A_LABEL_SELECTOR, kv);
}

static int p_sg_keys(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct topo_obj *o = slot;
	const struct vsnl_ypair *list;

	return kr_strs(kr, kv, &list) ?: kr_put_strs(kr, kv, o->set, VS_SGP_A_MATCH_LABEL_KEY);
}

static const struct kr_field sg_fields[] = {
	{ .key = "name", .parse = p_sg_name },
	{ .key = "networkTopology", .parse = p_sg_nt },
	{ .key = "subGroupSize", .parse = p_sg_size },
	{ .key = "minSubGroups", .parse = p_sg_min },
	{ .key = "labelSelector", .parse = p_sg_selector },
	{ .key = "matchLabelKeys", .parse = p_sg_keys },
};

struct sg_to {
	const struct vsnl_codec_set *set;	/* the nest @type of @set */
	u16 type;
	struct topo_obj o;
};

static int sg_item(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx)
{
	struct sg_to *to = ctx;
	struct nlattr *nest = NULL;
	int ret;

	/* one that is no mapping is refused by the walk, in its words */
	if (item->type == VSNL_Y_MAP) {
		nest = vsnl_codec_nest_start(kr->nlh, kr->cap, to->set, to->type, kr->err);
		if (!nest)
			return nest_failed(kr, item, kr->path);
	}
	ret = kr_walk(kr, item, "a sub-group policy", sg_fields, ARRAY_SIZE(sg_fields), &to->o,
		      NULL);
	if (!ret && nest)
		mnl_attr_nest_end(kr->nlh, nest);
	return ret;
}

int kr_put_subgroups(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		     const struct vsnl_ypair *kv)
{
	struct sg_to to = { set, type, { .set = set->attrs[type].nested } };

	return kr_each_item(kr, kv, sg_item, &to);
}

/* ---- a task's partitionPolicy ---- */

static int p_part_total(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_int(kr, kv, slot, VS_PART_A_TOTAL_PARTITIONS, INT32_MIN, INT32_MAX);
}

static int p_part_size(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_int(kr, kv, slot, VS_PART_A_PARTITION_SIZE, INT32_MIN, INT32_MAX);
}

static int p_part_min(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_int(kr, kv, slot, VS_PART_A_MIN_PARTITIONS, INT32_MIN, INT32_MAX);
}

static int p_part_nt(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct topo_obj *o = slot;

	return kr_put_net_topology(kr, o->set, VS_PART_A_NETWORK_TOPOLOGY, kv);
}

static const struct kr_field part_fields[] = {
	{ .key = "totalPartitions", .parse = p_part_total },
	{ .key = "partitionSize", .parse = p_part_size },
	{ .key = "networkTopology", .parse = p_part_nt },
	{ .key = "minPartitions", .parse = p_part_min },
};

int kr_put_partition(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		     const struct vsnl_ypair *kv)
{
	return put_nest(kr, set, type, kv, part_fields, ARRAY_SIZE(part_fields));
}

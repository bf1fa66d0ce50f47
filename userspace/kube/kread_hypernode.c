// SPDX-License-Identifier: Apache-2.0
/*
 * HyperNodes (topology.volcano.sh/v1alpha1) as VS_CMD_HYPERNODE_NEW: see
 * kread.h. spec.tier, spec.tierName and spec.members, each member's type
 * and its selector (exactMatch.name, regexMatch.pattern,
 * labelMatch.matchLabels) written as the walk meets them. Which of them a
 * HyperNode must have, and that a member has exactly one selector, are
 * the daemon's to say (protocol.md).
 */
#include <errno.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"

static int p_exact_name(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	return ret ?: kr_put_ret(kr, &kv->val, kr_name(kr, kv),
				 vsnl_hn_member_put_exact_name(kr->nlh, kr->cap, kv->val.text,
							       kr->err));
}

static int p_pattern(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	return ret ?: kr_put_ret(kr, &kv->val, kr_name(kr, kv),
				 vsnl_hn_member_put_regex_pattern(kr->nlh, kr->cap, kv->val.text,
								  kr->err));
}

static int p_match_labels(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_labels(kr, &vsnl_codec_hn_member, VS_HN_MEMBER_A_MATCH_LABELS, kv);
}

static int p_match_exprs(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	if (kv->val.type == VSNL_Y_SEQ && !kv->val.seq.nr)
		return 0;
	return kr_err(kr, kv->line, "%s: not supported: select the members by matchLabels, "
		      "a name or a pattern", kr_name(kr, kv));
}

static const struct kr_field exact_fields[] = {
	{ .key = "name", .parse = p_exact_name },
};

static const struct kr_field regex_fields[] = {
	{ .key = "pattern", .parse = p_pattern },
};

static const struct kr_field label_fields[] = {
	{ .key = "matchLabels", .parse = p_match_labels },
	{ .key = "matchExpressions", .parse = p_match_exprs },
};

static int p_exact(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, exact_fields, ARRAY_SIZE(exact_fields), NULL, NULL);
}

static int p_regex(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, regex_fields, ARRAY_SIZE(regex_fields), NULL, NULL);
}

static int p_label(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, label_fields, ARRAY_SIZE(label_fields), NULL, NULL);
}

static const struct kr_field selector_fields[] = {
	{ .key = "exactMatch", .parse = p_exact },
	{ .key = "regexMatch", .parse = p_regex },
	{ .key = "labelMatch", .parse = p_label },
};

static int p_selector(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, selector_fields, ARRAY_SIZE(selector_fields), NULL, NULL);
}

static int p_member_type(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	bool present = false;
	u32 type = 0;
	int ret = kr_enum(kr, kv, vsnl_hn_member_type_names, VSNL_NR_HN_MEMBER_TYPE,
			  "member type", &type, &present);

	if (ret || !present)
		return ret;
	return kr_put_ret(kr, &kv->val, kr_name(kr, kv),
			  vsnl_hn_member_put_type(kr->nlh, kr->cap, type, kr->err));
}

static const struct kr_field member_fields[] = {
	{ .key = "type", .parse = p_member_type },
	{ .key = "selector", .parse = p_selector },
};

static int member_item(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx)
{
	struct nlattr *nest = vsnl_hypernode_start_member(kr->nlh, kr->cap, kr->err);
	int ret;

	if (!nest)
		return kr_put_ret(kr, item, kr->path, kr->err->err ?: -EMSGSIZE);
	ret = kr_walk(kr, item, "a member", member_fields, ARRAY_SIZE(member_fields), NULL, NULL);
	if (!ret)
		mnl_attr_nest_end(kr->nlh, nest);
	return ret;
}

/* spec.members: one nest each, walked into as it is written. */
static int p_members(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_each_item(kr, kv, member_item, NULL);
}

static int p_tier(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	s64 v = 0;
	int ret = kr_get_int(kr, kv, 0, INT32_MAX, &v);

	return ret ?: kr_put_ret(kr, &kv->val, kr_name(kr, kv),
				 vsnl_hypernode_put_tier(kr->nlh, kr->cap, (u32)v, kr->err));
}

static int p_tier_name(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	return ret ?: kr_put_ret(kr, &kv->val, kr_name(kr, kv),
				 vsnl_hypernode_put_tier_name(kr->nlh, kr->cap, kv->val.text,
							      kr->err));
}

static const struct kr_field spec_fields[] = {
	{ .key = "tier", .parse = p_tier },
	{ .key = "tierName", .parse = p_tier_name },
	{ .key = "members", .parse = p_members },
	KR_OPEN,
};

static int p_spec(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, spec_fields, ARRAY_SIZE(spec_fields), NULL, NULL);
}

/* metadata.labels: label discovery keeps its own HyperNodes by them (controllers.md). */
static int p_labels(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_labels(kr, &vsnl_codec_hypernode, VS_HN_A_LABELS, kv);
}

static const struct kr_field hn_meta_fields[] = {
	{ .key = "labels", .parse = p_labels },
	KR_OPEN,
};

static int p_meta(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, hn_meta_fields, ARRAY_SIZE(hn_meta_fields), slot, NULL);
}

static const struct kr_field hn_fields[] = {
	KR_IGNORE("apiVersion"),
	KR_IGNORE("kind"),
	{ .key = "metadata", .parse = p_meta },
	{ .key = "spec", .parse = p_spec },
	KR_IGNORE("status"),		/* the daemon's tree says it */
};

int kr_put_hypernode(struct kr *kr)
{
	const struct vsnl_ynode *root = kr->doc->root;
	struct nlattr *nest;
	int ret = 0;

	if (!kr->doc->name || !*kr->doc->name)
		return kr_err(kr, kr->doc->line, "metadata.name: required");
	nest = vsnl_vsched_start_hypernode(kr->nlh, kr->cap, kr->err);
	if (!nest)
		return kr->err->err ?: -EMSGSIZE;
	ret = kr_put_ret(kr, vsnl_ymap_get(vsnl_ymap_get(root, "metadata"), "name"),
			 "metadata.name",
			 vsnl_hypernode_put_name(kr->nlh, kr->cap, kr->doc->name, kr->err)) ?:
	      kr_walk(kr, root, "a manifest", hn_fields, ARRAY_SIZE(hn_fields), NULL, NULL);
	if (ret)
		return ret;
	mnl_attr_nest_end(kr->nlh, nest);
	return 0;
}

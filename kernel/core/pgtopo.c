// SPDX-License-Identifier: Apache-2.0
/*
 * A PodGroup's topology request: its networkTopology and its sub-group
 * policies (Volcano's NetworkTopologySpec and SubGroupPolicySpec), checked
 * as Volcano's CRD schema and admission webhook check them, and built with
 * their strings interned. A VolcanoJob's networkTopology and partition
 * policies use the same network topology (vjob.c).
 *
 * Which check comes from where:
 *   mode hard|soft (empty: hard)        the CRD's Enum and default
 *   highestTierAllowed >= 0             the CRD's Minimum
 *   highestTierName at most 253 bytes   the CRD's MaxLength
 *   not both tiers                      validateNetworkTopology, the PodGroup
 *                                       and the Job webhooks
 *   subGroupPolicy name <= 253 bytes    the CRD's MaxLength
 *   subGroupSize >= 1                   the CRD's Minimum (default 1)
 *   minSubGroups <= 2^31-1              its int32 (the CRD's Minimum is 0)
 *   labelSelector                       as Kubernetes checks a LabelSelector
 *   matchLabelKeys label keys           vsched's: a key that is no label key
 *                                       could never match a pod's label
 */
#include <stdlib.h>
#include <string.h>

#include "core/affinity.h"
#include "core/arena.h"
#include "core/enum.h"
#include "core/internal.h"
#include "core/job.h"

#define TIER_NAME_MAX	253
#define SG_NAME_MAX	253

static const char *const nt_mode_names[VS_NT_NR_MODES] = {
	[VS_NT_HARD]	= "hard",
	[VS_NT_SOFT]	= "soft",
};

const char *vs_nt_mode_name(enum vs_nt_mode mode)
{
	return vs_enum_name(nt_mode_names, ARRAY_SIZE(nt_mode_names), mode);
}

int vs_nt_mode_parse(const char *s, enum vs_nt_mode *out, struct vs_err *err)
{
	int v;

	if (vs_str_empty(s)) {
		*out = VS_NT_HARD;	/* the CRD's default */
		return 0;
	}
	v = vs_enum_parse(nt_mode_names, ARRAY_SIZE(nt_mode_names), s,
			  "networkTopology mode", err);
	if (v < 0)
		return v;
	*out = (enum vs_nt_mode)v;
	return 0;
}

int vs_net_topology_check(const struct vs_net_topology_spec *nt, const char *what,
			  struct vs_err *err)
{
	if (!nt->set)
		return 0;
	if ((unsigned int)nt->mode >= VS_NT_NR_MODES)
		return vs_err_set(err, EINVAL, "%s: bad mode %d", what, nt->mode);
	if (nt->has_highest_tier && nt->highest_tier < 0)
		return vs_err_set(err, EINVAL, "%s: highestTierAllowed %d is negative", what,
				  nt->highest_tier);
	if (!vs_str_empty(nt->highest_tier_name) &&
	    strlen(nt->highest_tier_name) > TIER_NAME_MAX)
		return vs_err_set(err, EINVAL, "%s: highestTierName is longer than %u bytes",
				  what, TIER_NAME_MAX);
	if (nt->has_highest_tier && !vs_str_empty(nt->highest_tier_name))
		return vs_err_set(err, EINVAL,
				  "%s: must not specify 'highestTierAllowed' and 'highestTierName' "
				  "simultaneously", what);
	return 0;
}

int vs_net_topology_build(struct vs_cluster *cl, const struct vs_net_topology_spec *s,
			  struct vs_net_topology *out)
{
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!s->set)
		return 0;
	out->set = true;
	out->mode = s->mode;
	out->has_highest_tier = s->has_highest_tier;
	out->highest_tier = s->has_highest_tier ? s->highest_tier : 0;
	out->highest_tier_name = vs_cluster_intern_opt(cl, s->highest_tier_name, &ret);
	return ret;
}

void vs_net_topology_put(struct vs_cluster *cl, struct vs_net_topology *nt)
{
	vs_str_put(&cl->strs, nt->highest_tier_name);
	nt->highest_tier_name = NULL;
}

static void subgroup_put(struct vs_cluster *cl, struct vs_subgroup_policy *sg)
{
	vs_str_put(&cl->strs, sg->name);
	vs_net_topology_put(cl, &sg->nt);
	vs_label_selector_free(&cl->strs, sg->selector);
	for (u32 i = 0; i < sg->nr_match_label_keys; i++)
		vs_str_put(&cl->strs, sg->match_label_keys[i]);
	free(sg->match_label_keys);
}

void vs_subgroups_free(struct vs_cluster *cl, struct vs_subgroup_policy *sg, u32 nr)
{
	for (u32 i = 0; sg && i < nr; i++)
		subgroup_put(cl, &sg[i]);
	free(sg);
}

static int subgroup_check(const struct vs_subgroup_policy_spec *s, struct vs_err *err)
{
	int ret;

	if (!vs_str_empty(s->name) && strlen(s->name) > SG_NAME_MAX)
		return vs_err_set(err, EINVAL, "name is longer than %u bytes", SG_NAME_MAX);
	if (s->sub_group_size < 1 || s->sub_group_size > INT32_MAX)
		return vs_err_set(err, EINVAL, "subGroupSize %u is not in 1..%d",
				  s->sub_group_size, INT32_MAX);
	if (s->min_sub_groups > INT32_MAX)
		return vs_err_set(err, EINVAL, "minSubGroups %u is more than %d",
				  s->min_sub_groups, INT32_MAX);
	ret = vs_net_topology_check(&s->nt, "networkTopology", err);
	if (ret)
		return ret;
	for (u32 i = 0; i < s->nr_match_label_keys; i++) {
		const char *k = s->match_label_keys[i];

		ret = vs_check_label_key(k, k ? strlen(k) : 0, "matchLabelKeys key", err);
		if (ret)
			return ret;
	}
	return 0;
}

static int subgroup_build(struct vs_cluster *cl, const struct vs_subgroup_policy_spec *s,
			  struct vs_subgroup_policy *sg, struct vs_err *err)
{
	int ret;

	sg->sub_group_size = s->sub_group_size;
	sg->min_sub_groups = s->min_sub_groups;
	sg->name = vs_str_get_cstr(&cl->strs, s->name ? s->name : "");
	if (!sg->name)
		return vs_err_set(err, ENOMEM, "out of memory");
	if (vs_net_topology_build(cl, &s->nt, &sg->nt))
		return vs_err_set(err, ENOMEM, "out of memory");
	ret = vs_label_selector_new(&cl->strs, s->selector, "labelSelector", &sg->selector, err);
	if (ret)
		return ret;
	if (s->nr_match_label_keys) {
		sg->match_label_keys = calloc(s->nr_match_label_keys,
					      sizeof(*sg->match_label_keys));
		if (!sg->match_label_keys)
			return vs_err_set(err, ENOMEM, "out of memory");
	}
	for (u32 i = 0; i < s->nr_match_label_keys; i++) {
		sg->match_label_keys[i] = vs_str_get_cstr(&cl->strs, s->match_label_keys[i]);
		if (!sg->match_label_keys[i])
			return vs_err_set(err, ENOMEM, "out of memory");
		sg->nr_match_label_keys++;
	}
	return 0;
}

int vs_subgroups_build(struct vs_cluster *cl, const struct vs_subgroup_policy_spec *specs,
		       u32 nr, struct vs_subgroup_policy **out, struct vs_err *err)
{
	struct vs_subgroup_policy *sg;
	int ret;

	*out = NULL;
	if (nr > VS_SUBGROUPS_MAX)
		return vs_err_set(err, EINVAL, "subGroupPolicy: %u policies, at most %u", nr,
				  VS_SUBGROUPS_MAX);
	for (u32 i = 0; i < nr; i++) {
		ret = subgroup_check(&specs[i], err);
		if (ret) {
			vs_err_prefix(err, "subGroupPolicy[%u]: ", i);
			return ret;
		}
	}
	if (!nr)
		return 0;
	sg = calloc(nr, sizeof(*sg));
	if (!sg)
		return vs_err_set(err, ENOMEM, "out of memory");
	for (u32 i = 0; i < nr; i++) {
		ret = subgroup_build(cl, &specs[i], &sg[i], err);
		if (ret) {
			vs_subgroups_free(cl, sg, i + 1);
			vs_err_prefix(err, "subGroupPolicy[%u]: ", i);
			return ret;
		}
	}
	*out = sg;
	return 0;
}

/* ---- back to specs ---- */

void vs_net_topology_spec_of(const struct vs_net_topology *nt,
			     struct vs_net_topology_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->set = nt->set;
	spec->mode = nt->mode;
	spec->has_highest_tier = nt->has_highest_tier;
	spec->highest_tier = nt->highest_tier;
	spec->highest_tier_name = nt->highest_tier_name;
}

int vs_subgroups_spec_of(const struct vs_subgroup_policy *sg, u32 nr, struct vs_arena *arena,
			 const struct vs_subgroup_policy_spec **out)
{
	struct vs_subgroup_policy_spec *s;

	*out = NULL;
	if (!nr)
		return 0;
	s = vs_arena_zalloc(arena, nr * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++) {
		s[i].name = sg[i].name;
		vs_net_topology_spec_of(&sg[i].nt, &s[i].nt);
		s[i].sub_group_size = sg[i].sub_group_size;
		s[i].min_sub_groups = sg[i].min_sub_groups;
		if (sg[i].selector &&
		    vs_label_selector_spec_of(sg[i].selector, arena, &s[i].selector))
			return -ENOMEM;
		s[i].match_label_keys = sg[i].match_label_keys;
		s[i].nr_match_label_keys = sg[i].nr_match_label_keys;
	}
	*out = s;
	return 0;
}

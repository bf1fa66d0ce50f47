// SPDX-License-Identifier: Apache-2.0
/*
 * PriorityClasses (scheduling.k8s.io/v1) as VS_CMD_PRIOCLASS_NEW: see kread.h.
 */
#include <errno.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"

struct pc_in {
	s32 value;
	bool global_default;
	u32 policy;
	bool has_policy;
};

static int p_pc_policy(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct pc_in *in = slot;

	return kr_enum(kr, kv, vsnl_preemption_policy_names, VSNL_NR_PREEMPTION_POLICY,
		       "preemption policy", &in->policy, &in->has_policy);
}

static const struct kr_field pc_fields[] = {
	KR_IGNORE("apiVersion"),
	KR_IGNORE("kind"),
	{ .key = "metadata", .parse = kr_meta },
	KR_FIELD("value", kr_s32, struct pc_in, value),
	KR_FIELD("globalDefault", kr_bool, struct pc_in, global_default),
	{ .key = "preemptionPolicy", .parse = p_pc_policy },
	KR_IGNORE("description"),
};

/*
 * A PriorityClass: its name, value, globalDefault (false when not given,
 * as Kubernetes' API server defaults it) and preemptionPolicy (when given;
 * the daemon's default is PreemptLowerPriority, as Kubernetes').
 */
int kr_put_prioclass(struct kr *kr)
{
	const struct vsnl_ynode *root = kr->doc->root;
	struct nlmsghdr *nlh = kr->nlh;
	struct pc_in in = { 0 };
	struct nlattr *nest;
	u64 seen = 0;
	int ret;

	ret = kr_walk(kr, root, "a manifest", pc_fields, ARRAY_SIZE(pc_fields), &in,
		      &seen);
	if (ret)
		return ret;
	if (!kr->doc->name || !*kr->doc->name)
		return kr_err(kr, kr->doc->line, "metadata.name: required");
	if (!KR_HAS(pc_fields, seen, "value"))
		return kr_err(kr, kr->doc->line, "value: required");
	nest = vsnl_vsched_start_prioclass(nlh, kr->cap, kr->err);
	if (!nest)
		return kr->err->err ?: -EMSGSIZE;
	ret = kr_put_ret(kr, vsnl_ymap_get(vsnl_ymap_get(root, "metadata"), "name"), "metadata.name",
		      vsnl_prioclass_put_name(nlh, kr->cap, kr->doc->name, kr->err)) ?:
	      kr_put_ret(kr, vsnl_ymap_get(root, "value"), "value",
		      vsnl_prioclass_put_value(nlh, kr->cap, in.value, kr->err)) ?:
	      kr_put_ret(kr, vsnl_ymap_get(root, "globalDefault"), "globalDefault",
		      vsnl_prioclass_put_global_default(nlh, kr->cap, in.global_default,
							kr->err));
	if (!ret && in.has_policy)
		ret = kr_put_ret(kr, vsnl_ymap_get(root, "preemptionPolicy"), "preemptionPolicy",
			      vsnl_prioclass_put_preemption_policy(nlh, kr->cap, in.policy,
								   kr->err));
	if (ret)
		return ret;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

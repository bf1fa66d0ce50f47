// SPDX-License-Identifier: Apache-2.0
/*
 * PodGroups (scheduling.volcano.sh/v1beta1) as VS_CMD_PODGROUP_NEW: see
 * kread.h. The spec's gang (minMember, minTaskMember, minResources), its
 * queue and priority class, its networkTopology and subGroupPolicy
 * (kread_topo.c), its creation time and volcano.sh/preemptable, and the
 * status a manifest gives (phase and conditions); what a manifest leaves
 * out is not sent, but for minMember, whose CRD has no default (0, not the
 * daemon's 1).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"
#include "vsched/vsched.h"

/*
 * metadata, checked as the old reader checks every kind's (labels and
 * annotations mappings of strings, owner references closed structures),
 * though a PodGroup's send only its name, its creation time and its
 * volcano.sh/preemptable.
 */
struct pg_owner_in {
	const char *uid;
	bool controller;
};

static const struct kr_field pg_owner_fields[] = {
	KR_IGNORE("apiVersion"),
	KR_IGNORE("kind"),
	KR_IGNORE("name"),
	KR_FIELD("uid", kr_str, struct pg_owner_in, uid),
	KR_FIELD("controller", kr_bool, struct pg_owner_in, controller),
	KR_IGNORE("blockOwnerDeletion"),
};

static int owner_item(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx)
{
	struct pg_owner_in o;

	return kr_walk(kr, item, "an owner reference", pg_owner_fields,
		       ARRAY_SIZE(pg_owner_fields), &o, NULL);
}

static int p_owners(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_each_item(kr, kv, owner_item, NULL);
}

struct pg_meta_in {
	const char *name, *ns, *uid;
	const struct vsnl_ypair *labels, *annotations;	/* kept for volcano.sh/preemptable */
	u64 created;			/* creationTimestamp, s since 1970; 0: none */
};

/* A mapping of strings, kept for what is read from it after the walk. */
static int p_strings(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_str_map(kr, kv, NULL);

	if (!ret)
		*(const struct vsnl_ypair **)slot = kv;
	return ret;
}

static const struct kr_field pg_meta_fields[] = {
	KR_FIELD("name", kr_str, struct pg_meta_in, name),
	KR_FIELD("namespace", kr_str, struct pg_meta_in, ns),
	KR_FIELD("labels", p_strings, struct pg_meta_in, labels),
	KR_FIELD("annotations", p_strings, struct pg_meta_in, annotations),
	KR_FIELD("uid", kr_str, struct pg_meta_in, uid),
	{ .key = "ownerReferences", .parse = p_owners },
	KR_IGNORE("deletionTimestamp"),
	KR_FIELD("creationTimestamp", kr_time, struct pg_meta_in, created),
	KR_OPEN,
};

static int p_pg_meta(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, pg_meta_fields, ARRAY_SIZE(pg_meta_fields), slot, NULL);
}

/* minTaskMember: {role: min}, each an unsigned 32-bit integer; kept to be put. */
static int p_role_mins(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_MAP, "a mapping of roles to numbers");
	size_t old;
	s64 v;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.map.nr; i++)
		ret = kr_get_int(kr, &kv->val.map.pairs[i], 0, UINT32_MAX, &v);
	kr_pop(kr, old);
	if (!ret)
		*(const struct vsnl_ypair **)slot = kv;
	return ret;
}

struct pg_spec_in {
	u64 seen;
	u32 min_member;
	const struct vsnl_ypair *mins;
	struct kr_res min_resources;
	const char *queue, *class;
	const struct vsnl_ypair *nt, *subgroups;	/* read as they are put */
};

static int p_keep(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	*(const struct vsnl_ypair **)slot = kv;
	return 0;
}

static const struct kr_field pg_spec_fields[] = {
	KR_FIELD("networkTopology", p_keep, struct pg_spec_in, nt),
	KR_FIELD("subGroupPolicy", p_keep, struct pg_spec_in, subgroups),
	KR_FIELD("minMember", kr_count, struct pg_spec_in, min_member),
	KR_FIELD("minTaskMember", p_role_mins, struct pg_spec_in, mins),
	KR_FIELD("minResources", kr_res, struct pg_spec_in, min_resources),
	KR_FIELD("queue", kr_str, struct pg_spec_in, queue),
	KR_FIELD("priorityClassName", kr_str, struct pg_spec_in, class),
	KR_OPEN,
};

/*
 * status.conditions as Volcano's PodGroupCondition. Types other than
 * Unschedulable and Scheduled are left out: vsched neither reads nor
 * writes them.
 */
struct pg_cond_in {
	const char *type, *status, *reason, *message, *id;
	u64 time;
};

static const struct kr_field pg_cond_fields[] = {
	KR_FIELD("type", kr_str, struct pg_cond_in, type),
	KR_FIELD("status", kr_str, struct pg_cond_in, status),
	KR_FIELD("reason", kr_str, struct pg_cond_in, reason),
	KR_FIELD("message", kr_str, struct pg_cond_in, message),
	KR_FIELD("transitionID", kr_str, struct pg_cond_in, id),
	KR_FIELD("lastTransitionTime", kr_time, struct pg_cond_in, time),
	KR_OPEN,
};

/* Condition @i of the list @kv into @c, the walk at "status.conditions". */
static int read_cond(struct kr *kr, const struct vsnl_ypair *kv, u32 i, struct pg_cond_in *c)
{
	const struct vsnl_ynode *item = &kv->val.seq.items[i];
	size_t at = kr_push_idx(kr, i);
	int ret;

	memset(c, 0, sizeof(*c));
	ret = kr_walk(kr, item, "a condition", pg_cond_fields, ARRAY_SIZE(pg_cond_fields), c,
		      NULL);
	if (!ret && !c->type)
		ret = kr_err(kr, item->line, "%s: a condition needs its type", kr->path);
	if (!ret && c->status && strcmp(c->status, "True") && strcmp(c->status, "False") &&
	    strcmp(c->status, "Unknown"))
		ret = kr_err(kr, item->line, "%s: status \"%s\" is not True, False or Unknown",
			     kr->path, c->status);
	kr_pop(kr, at);
	return ret;
}

/* The conditions, read to be refused here and kept to be put. */
static int p_pg_conds(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list");
	struct pg_cond_in c;
	size_t old;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++)
		ret = read_cond(kr, kv, i, &c);
	kr_pop(kr, old);
	if (!ret)
		*(const struct vsnl_ypair **)slot = kv;
	return ret;
}

struct pg_status_in {
	u32 phase;
	bool has_phase;
	const struct vsnl_ypair *conds;
};

static int p_pg_phase(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct pg_status_in *in = slot;

	return kr_enum(kr, kv, vsnl_pg_phase_names, VSNL_NR_PG_PHASE, "podgroup phase",
		       &in->phase, &in->has_phase);
}

static const struct kr_field pg_status_fields[] = {
	{ .key = "phase", .parse = p_pg_phase },
	KR_FIELD("conditions", p_pg_conds, struct pg_status_in, conds),
	KR_OPEN,
};

struct pg_in {
	struct pg_meta_in meta;
	struct pg_spec_in spec;
	struct pg_status_in status;
};

static int p_pg_spec(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct pg_spec_in *in = slot;

	return kr_walk_kv(kr, kv, pg_spec_fields, ARRAY_SIZE(pg_spec_fields), in, &in->seen);
}

static int p_pg_status(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, pg_status_fields, ARRAY_SIZE(pg_status_fields), slot, NULL);
}

static const struct kr_field pg_fields[] = {
	KR_IGNORE("apiVersion"),
	KR_IGNORE("kind"),
	KR_FIELD("metadata", p_pg_meta, struct pg_in, meta),
	KR_FIELD("spec", p_pg_spec, struct pg_in, spec),
	KR_FIELD("status", p_pg_status, struct pg_in, status),
};

static int put_role_mins(struct kr *kr, const struct vsnl_ypair *kv)
{
	struct nlattr *nest;
	int ret = 0;

	for (u32 i = 0; !ret && i < kv->val.map.nr; i++) {
		const struct vsnl_ypair *r = &kv->val.map.pairs[i];

		nest = vsnl_podgroup_start_min_task_member(kr->nlh, kr->cap, kr->err);
		ret = !nest ? (kr->err->err ?: -EMSGSIZE) :
		      vsnl_role_min_put_role(kr->nlh, kr->cap, r->key, kr->err) ?:
		      vsnl_role_min_put_min(kr->nlh, kr->cap, (u32)r->val.i, kr->err);
		if (ret) {
			size_t old = kr_push(kr, "spec");

			kr_push(kr, kv->key);
			ret = kr_put_ret(kr, &r->val, kr_name(kr, r), ret);
			kr_pop(kr, old);
			break;
		}
		mnl_attr_nest_end(kr->nlh, nest);
	}
	return ret;
}

/*
 * A message longer than the protocol takes (Kubernetes' bound for a
 * condition) cut at a character's start, as the old reader cut it; NULL
 * when it fits as it is, or no memory (*@oom).
 */
static char *cut_message(const char *msg, bool *oom)
{
	size_t n = VS_COND_MESSAGE_MAX - 1;
	char *cut;

	*oom = false;
	if (strlen(msg) < VS_COND_MESSAGE_MAX)
		return NULL;
	while (n && ((unsigned char)msg[n] & 0xc0) == 0x80)
		n--;
	cut = strndup(msg, n);
	*oom = !cut;
	return cut;
}

static int put_cond(struct kr *kr, const struct pg_cond_in *c, u32 type)
{
	struct nlattr *nest;
	char *cut = NULL;
	bool oom = false;
	int ret;

	if (c->message)
		cut = cut_message(c->message, &oom);
	if (oom)
		return vsnl_err_set(kr->err, ENOMEM, "%s: out of memory", kr->doc->file);
	nest = vsnl_podgroup_start_condition(kr->nlh, kr->cap, kr->err);
	ret = !nest ? (kr->err->err ?: -EMSGSIZE) :
	      vsnl_cond_put_type(kr->nlh, kr->cap, type, kr->err) ?:
	      vsnl_cond_put_status(kr->nlh, kr->cap, c->status && !strcmp(c->status, "True"),
				   kr->err);
	if (!ret && c->reason)
		ret = vsnl_cond_put_reason(kr->nlh, kr->cap, c->reason, kr->err);
	if (!ret && c->message)
		ret = vsnl_cond_put_message(kr->nlh, kr->cap, cut ?: c->message, kr->err);
	if (!ret && c->id)
		ret = vsnl_cond_put_transition_id(kr->nlh, kr->cap, c->id, kr->err);
	if (!ret && c->time)
		ret = vsnl_cond_put_time(kr->nlh, kr->cap, c->time, kr->err);
	free(cut);
	if (!ret)
		mnl_attr_nest_end(kr->nlh, nest);
	return ret;
}

/*
 * The conditions of the types vsched keeps. One with a reason or a
 * transitionID longer than the protocol takes is left out, as the old
 * reader left it out: the PodGroup itself is not refused for its status.
 */
static int put_conds(struct kr *kr, const struct vsnl_ypair *kv)
{
	size_t old = kr_push(kr, kv->key);
	struct pg_cond_in c;
	int ret = 0;

	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		u32 type;

		ret = read_cond(kr, kv, i, &c);
		if (ret)
			break;
		for (type = 0; type < VSNL_NR_PG_COND; type++)
			if (vsnl_pg_cond_names[type] && !strcmp(vsnl_pg_cond_names[type], c.type))
				break;
		if (type == VSNL_NR_PG_COND ||
		    (c.reason && strlen(c.reason) >= VS_COND_REASON_MAX) ||
		    (c.id && strlen(c.id) >= VS_COND_ID_MAX))
			continue;
		ret = put_cond(kr, &c, type);
		if (ret) {
			size_t at = kr_push_idx(kr, i);

			ret = kr_put_ret(kr, &kv->val.seq.items[i], kr->path, ret);
			kr_pop(kr, at);
		}
	}
	kr_pop(kr, old);
	return ret;
}

static const struct vsnl_ynode *at_key(const struct vsnl_ynode *root, const char *obj,
				       const char *key)
{
	return vsnl_ymap_get(vsnl_ymap_get(root, obj), key);
}

/*
 * A PodGroup. The reader refuses what it cannot read (types, numbers,
 * quantities, times, a condition's type and status); that the queue and
 * the priority class exist, and Volcano's rules, are the daemon's.
 */
int kr_put_podgroup(struct kr *kr)
{
	const struct vsnl_ynode *root = kr->doc->root;
	struct nlmsghdr *nlh = kr->nlh;
	struct pg_in in;
	struct nlattr *nest;
	int ret;

	memset(&in, 0, sizeof(in));
	ret = kr_walk(kr, root, "a manifest", pg_fields, ARRAY_SIZE(pg_fields), &in, NULL);
	if (ret)
		return ret;
	if (!kr->doc->name || !*kr->doc->name)
		return kr_err(kr, kr->doc->line, "metadata.name: required");
	nest = vsnl_vsched_start_podgroup(nlh, kr->cap, kr->err);
	if (!nest)
		return kr->err->err ?: -EMSGSIZE;
	ret = kr_put_ret(kr, at_key(root, "metadata", "namespace"), "metadata.namespace",
			 vsnl_podgroup_put_namespace(nlh, kr->cap, kr->doc->ns, kr->err)) ?:
	      kr_put_ret(kr, at_key(root, "metadata", "name"), "metadata.name",
			 vsnl_podgroup_put_name(nlh, kr->cap, kr->doc->name, kr->err)) ?:
	      kr_put_ret(kr, at_key(root, "spec", "minMember"), "spec.minMember",
			 vsnl_podgroup_put_min_member(nlh, kr->cap, in.spec.min_member,
						      kr->err));
	if (!ret && in.spec.queue)
		ret = kr_put_ret(kr, at_key(root, "spec", "queue"), "spec.queue",
				 vsnl_podgroup_put_queue(nlh, kr->cap, in.spec.queue, kr->err));
	if (!ret && in.spec.class)
		ret = kr_put_ret(kr, at_key(root, "spec", "priorityClassName"),
				 "spec.priorityClassName",
				 vsnl_podgroup_put_priority_class(nlh, kr->cap, in.spec.class,
								  kr->err));
	if (!ret && in.spec.mins)
		ret = put_role_mins(kr, in.spec.mins);
	if (!ret && KR_HAS(pg_spec_fields, in.spec.seen, "minResources"))
		ret = kr_put_res(kr, &vsnl_codec_podgroup, VS_PG_A_MIN_RESOURCES,
				 &in.spec.min_resources, "spec.minResources");
	if (in.spec.nt || in.spec.subgroups) {
		size_t old = kr_push(kr, "spec");

		if (!ret && in.spec.nt)
			ret = kr_put_net_topology(kr, &vsnl_codec_podgroup, VS_PG_A_NETWORK_TOPOLOGY,
						  in.spec.nt);
		if (!ret && in.spec.subgroups)
			ret = kr_put_subgroups(kr, &vsnl_codec_podgroup, VS_PG_A_SUBGROUP_POLICY,
					       in.spec.subgroups);
		kr_pop(kr, old);
	}
	if (!ret)
		ret = kr_put_preemptable(kr, in.meta.annotations, in.meta.labels,
					 &vsnl_codec_podgroup, VS_PG_A_PREEMPTABLE);
	if (!ret && in.meta.created)
		ret = kr_put_ret(kr, at_key(root, "metadata", "creationTimestamp"),
				 "metadata.creationTimestamp",
				 vsnl_podgroup_put_created(nlh, kr->cap, in.meta.created,
							   kr->err));
	if (!ret && in.status.has_phase)
		ret = kr_put_ret(kr, at_key(root, "status", "phase"), "status.phase",
				 vsnl_podgroup_put_phase(nlh, kr->cap, in.status.phase, kr->err));
	if (!ret && in.status.conds) {
		size_t old = kr_push(kr, "status");

		ret = put_conds(kr, in.status.conds);
		kr_pop(kr, old);
	}
	if (ret)
		return ret;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

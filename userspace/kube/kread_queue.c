// SPDX-License-Identifier: Apache-2.0
/*
 * Queues (scheduling.volcano.sh/v1beta1) as VS_CMD_QUEUE_NEW: see kread.h.
 *
 * What a manifest leaves out is left out of the request: the daemon
 * creates a queue of weight 1, reclaimable and Open (vs_queue_spec_init()),
 * which is what Volcano makes of the same Queue. Its admission webhook
 * (pkg/webhooks/admission/queues/mutate/mutate_queue.go, createQueuePatch)
 * sets spec.reclaimable to true when it is nil and spec.weight to 1 when
 * it is 0, and its queue controller (pkg/controllers/queue/state/factory.go,
 * NewState) takes an empty status.state as Open. So weight 0 is not sent
 * either: the webhook's default is the daemon's, and 0 is no weight the
 * protocol takes.
 */
#include <errno.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"

struct guarantee_in {
	struct kr_res resource;
	u64 seen;
};

struct queue_spec_in {
	u32 weight;
	struct kr_res capability, deserved;
	struct guarantee_in guarantee;
	bool reclaimable;
	s32 priority;
	const char *parent;
	u64 seen;
};

struct queue_status_in {
	u32 state;
	bool has_state;
};

struct queue_meta_in {
	const char *str;		/* the strings checked, read and dropped */
	u64 created;			/* creationTimestamp; 0: none */
};

struct queue_in {
	struct queue_meta_in meta;
	struct queue_spec_in spec;
	struct queue_status_in status;
};

static const struct kr_field guarantee_fields[] = {
	KR_FIELD("resource", kr_res, struct guarantee_in, resource),
};

static int p_guarantee(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct guarantee_in *g = slot;

	return kr_walk_kv(kr, kv, guarantee_fields, ARRAY_SIZE(guarantee_fields), g, &g->seen);
}

static const struct kr_field queue_spec_fields[] = {
	KR_FIELD("weight", kr_count, struct queue_spec_in, weight),
	KR_FIELD("capability", kr_res, struct queue_spec_in, capability),
	KR_FIELD("guarantee", p_guarantee, struct queue_spec_in, guarantee),
	KR_FIELD("deserved", kr_res, struct queue_spec_in, deserved),
	KR_FIELD("reclaimable", kr_bool, struct queue_spec_in, reclaimable),
	KR_FIELD("priority", kr_s32, struct queue_spec_in, priority),
	KR_FIELD("parent", kr_str, struct queue_spec_in, parent),
	KR_OPEN,
};

static int p_queue_spec(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct queue_spec_in *spec = slot;

	return kr_walk_kv(kr, kv, queue_spec_fields, ARRAY_SIZE(queue_spec_fields), spec,
			  &spec->seen);
}

static int p_queue_state(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct queue_status_in *st = slot;

	return kr_enum(kr, kv, vsnl_queue_state_names, VSNL_NR_QUEUE_STATE, "queue state",
		       &st->state, &st->has_state);
}

static const struct kr_field queue_status_fields[] = {
	{ .key = "state", .parse = p_queue_state },
	KR_OPEN,
};

static int p_queue_status(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, queue_status_fields, ARRAY_SIZE(queue_status_fields), slot,
			  NULL);
}

/*
 * metadata, refused where the old reader refuses every kind's (manifest.c's
 * meta_fields); of it only the name (the document's) and the creation
 * time are sent.
 */
static const struct kr_field queue_meta_fields[] = {
	KR_FIELD("name", kr_str, struct queue_meta_in, str),
	KR_FIELD("namespace", kr_str, struct queue_meta_in, str),
	{ .key = "labels", .parse = kr_str_map },
	{ .key = "annotations", .parse = kr_str_map },
	KR_FIELD("uid", kr_str, struct queue_meta_in, str),
	KR_FIELD("creationTimestamp", kr_time, struct queue_meta_in, created),
	KR_OPEN,
};

static int p_queue_meta(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, queue_meta_fields, ARRAY_SIZE(queue_meta_fields), slot, NULL);
}

static const struct kr_field queue_fields[] = {
	KR_IGNORE("apiVersion"),
	KR_IGNORE("kind"),
	KR_FIELD("metadata", p_queue_meta, struct queue_in, meta),
	KR_FIELD("spec", p_queue_spec, struct queue_in, spec),
	KR_FIELD("status", p_queue_status, struct queue_in, status),
};

/* The value of spec's @key, for the line of a refusal. */
static const struct vsnl_ynode *spec_at(const struct kr *kr, const char *key)
{
	return vsnl_ymap_get(vsnl_ymap_get(kr->doc->root, "spec"), key);
}

#define SPEC_HAS(in, key)	KR_HAS(queue_spec_fields, (in)->spec.seen, key)

/* The resource lists of spec that were given, each as its nest. */
static int put_queue_res(struct kr *kr, const struct queue_in *in)
{
	const struct vsnl_codec_set *set = &vsnl_codec_queue;
	int ret = 0;

	if (SPEC_HAS(in, "capability"))
		ret = kr_put_res(kr, set, VS_QUEUE_A_CAPABILITY, &in->spec.capability,
				 "spec.capability");
	if (!ret && KR_HAS(guarantee_fields, in->spec.guarantee.seen, "resource"))
		ret = kr_put_res(kr, set, VS_QUEUE_A_GUARANTEE, &in->spec.guarantee.resource,
				 "spec.guarantee.resource");
	if (!ret && SPEC_HAS(in, "deserved"))
		ret = kr_put_res(kr, set, VS_QUEUE_A_DESERVED, &in->spec.deserved,
				 "spec.deserved");
	return ret;
}

/*
 * A Queue: its name and creationTimestamp, spec.weight (when not 0),
 * capability, guarantee.resource, deserved, reclaimable, priority and
 * parent, and status.state, each when given; the daemon defaults the rest
 * as Volcano does (see above).
 */
int kr_put_queue(struct kr *kr)
{
	const struct vsnl_ynode *root = kr->doc->root, *meta = vsnl_ymap_get(root, "metadata");
	struct nlmsghdr *nlh = kr->nlh;
	struct queue_in in = { 0 };
	struct nlattr *nest;
	int ret;

	ret = kr_walk(kr, root, "a manifest", queue_fields, ARRAY_SIZE(queue_fields), &in, NULL);
	if (ret)
		return ret;
	if (!kr->doc->name || !*kr->doc->name)
		return kr_err(kr, kr->doc->line, "metadata.name: required");
	nest = vsnl_vsched_start_queue(nlh, kr->cap, kr->err);
	if (!nest)
		return kr->err->err ?: -EMSGSIZE;
	ret = kr_put_ret(kr, vsnl_ymap_get(meta, "name"), "metadata.name",
			 vsnl_queue_put_name(nlh, kr->cap, kr->doc->name, kr->err));
	if (!ret && in.spec.weight)
		ret = kr_put_ret(kr, spec_at(kr, "weight"), "spec.weight",
				 vsnl_queue_put_weight(nlh, kr->cap, in.spec.weight, kr->err));
	if (!ret)
		ret = put_queue_res(kr, &in);
	if (!ret && SPEC_HAS(&in, "reclaimable"))
		ret = kr_put_ret(kr, spec_at(kr, "reclaimable"), "spec.reclaimable",
				 vsnl_queue_put_reclaimable(nlh, kr->cap, in.spec.reclaimable,
							    kr->err));
	if (!ret && SPEC_HAS(&in, "priority"))
		ret = kr_put_ret(kr, spec_at(kr, "priority"), "spec.priority",
				 vsnl_queue_put_priority(nlh, kr->cap, in.spec.priority, kr->err));
	if (!ret && SPEC_HAS(&in, "parent"))
		ret = kr_put_ret(kr, spec_at(kr, "parent"), "spec.parent",
				 vsnl_queue_put_parent(nlh, kr->cap, in.spec.parent, kr->err));
	if (!ret && in.status.has_state)
		ret = kr_put_ret(kr, vsnl_ymap_get(vsnl_ymap_get(root, "status"), "state"),
				 "status.state",
				 vsnl_queue_put_state(nlh, kr->cap, in.status.state, kr->err));
	if (!ret && in.meta.created)
		ret = kr_put_ret(kr, vsnl_ymap_get(meta, "creationTimestamp"),
				 "metadata.creationTimestamp",
				 vsnl_queue_put_created(nlh, kr->cap, in.meta.created, kr->err));
	if (ret)
		return ret;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

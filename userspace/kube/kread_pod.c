// SPDX-License-Identifier: Apache-2.0
/*
 * Pods (v1) as VS_CMD_TASK_NEW: see kread.h. A pod is read as the old
 * reader (manifest.c's build_pod()) read it, and sent as a pod on its way
 * in: ADMIT, for the daemon to run the API server's priority admission
 * (not for a mirrored pod, kr_doc.mirror: the API server ran it already);
 * OWNER_UID and SCHEDULER, for its podgroup controller to make the
 * PodGroup of a pod that names none, or the shadow one of another
 * scheduler's pod (Documentation/protocol.md, "Pods on their way in").
 * Only the pod's status is worked out here, from its phase, node and
 * deletion, as Volcano's getTaskStatus does.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"

/* What Volcano and Kubernetes read from a pod's metadata. */
#define POD_GROUP_NAME	"scheduling.k8s.io/group-name"
#define POD_TASK_SPEC	"volcano.sh/task-spec"
#define POD_QUEUE_NAME	"scheduling.volcano.sh/queue-name"

/* The scheduler whose pods these are, unless the caller names another. */
#define POD_SCHEDULER	"volcano"

/* ---- metadata ---- */

struct owner_in {
	const char *uid;
	bool controller;
};

static const struct kr_field owner_fields[] = {
	KR_IGNORE("apiVersion"),
	KR_IGNORE("kind"),
	KR_IGNORE("name"),
	KR_FIELD("uid", kr_str, struct owner_in, uid),
	KR_FIELD("controller", kr_bool, struct owner_in, controller),
	KR_IGNORE("blockOwnerDeletion"),
};

struct meta_in {
	const char *name, *ns;		/* the document's: kr_docs_read() */
	const char *uid, *owner_uid;
	const struct vsnl_ypair *labels, *annotations;
	bool deleting;
	u64 created;
};

/* The first controller's UID: Volcano's GeneratePodgroupName takes it. */
static int p_owners(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const char **uid = slot;
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list");
	size_t old, at;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		struct owner_in o = { 0 };

		at = kr_push_idx(kr, i);
		ret = kr_walk(kr, &kv->val.seq.items[i], kv->key, owner_fields,
			      ARRAY_SIZE(owner_fields), &o, NULL);
		if (!ret && !*uid && o.controller && o.uid && *o.uid)
			*uid = o.uid;
		kr_pop(kr, at);
	}
	kr_pop(kr, old);
	return ret;
}

/* A mapping of strings, kept for what is read from it after the walk. */
static int p_strings(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_str_map(kr, kv, NULL);

	if (!ret)
		*(const struct vsnl_ypair **)slot = kv;
	return ret;
}

/* The labels, put as they are met. */
static int p_labels(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return p_strings(kr, kv, slot) ?:
	       kr_put_labels(kr, &vsnl_codec_task, VS_TASK_A_LABELS, kv);
}

static int p_present(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	*(bool *)slot = true;
	return 0;
}

static const struct kr_field meta_fields[] = {
	KR_FIELD("name", kr_str, struct meta_in, name),
	KR_FIELD("namespace", kr_str, struct meta_in, ns),
	KR_FIELD("labels", p_labels, struct meta_in, labels),
	KR_FIELD("annotations", p_strings, struct meta_in, annotations),
	KR_FIELD("uid", kr_str, struct meta_in, uid),
	KR_FIELD("ownerReferences", p_owners, struct meta_in, owner_uid),
	KR_FIELD("deletionTimestamp", p_present, struct meta_in, deleting),
	KR_FIELD("creationTimestamp", kr_time, struct meta_in, created),
	KR_OPEN,
};

/* ---- spec and status ---- */

struct spec_in {
	struct kr_containers containers;
	struct kr_res init, overhead;
	s32 priority;
	const char *class, *node, *scheduler;
	u32 policy;
	bool has_policy;
	bool host_network;
	u32 nr_gates;
};

static int p_policy(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct spec_in *s = slot;

	return kr_enum(kr, kv, vsnl_preemption_policy_names, VSNL_NR_PREEMPTION_POLICY,
		       "preemption policy", &s->policy, &s->has_policy);
}

static int p_node_selector(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_labels(kr, &vsnl_codec_task, VS_TASK_A_NODE_SELECTOR, kv);
}

static int p_tolerations(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_tolerations(kr, &vsnl_codec_task, VS_TASK_A_TOLERATION, kv);
}

static int p_affinity(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_affinity(kr, &vsnl_codec_task, VS_TASK_A_AFFINITY, kv);
}

static int p_spreads(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_spreads(kr, &vsnl_codec_task, VS_TASK_A_SPREAD, kv);
}

static const struct kr_field gate_fields[] = {
	{ .key = "name", .parse = kr_str },
};

static int gate_item(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx)
{
	const char *name = NULL;
	int ret = kr_walk(kr, item, "a scheduling gate", gate_fields, ARRAY_SIZE(gate_fields),
			  &name, NULL);

	if (!ret && (!name || !*name))
		ret = kr_err(kr, item->line, "%s.name: required", kr->path);
	return ret;
}

/* spec.schedulingGates: a list of {name}, each named; counted, then put as GATED. */
static int p_gates(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct spec_in *s = slot;
	int ret = kr_each_item(kr, kv, gate_item, NULL);

	if (!ret)
		s->nr_gates = kv->val.seq.nr;
	return ret;
}

static const struct kr_field spec_fields[] = {
	KR_FIELD("containers", kr_containers, struct spec_in, containers),
	KR_FIELD("initContainers", kr_init_containers, struct spec_in, init),
	KR_FIELD("overhead", kr_res, struct spec_in, overhead),
	KR_FIELD("priority", kr_s32, struct spec_in, priority),
	KR_FIELD("priorityClassName", kr_str, struct spec_in, class),
	{ .key = "preemptionPolicy", .parse = p_policy },
	KR_FIELD("nodeName", kr_str, struct spec_in, node),
	KR_FIELD("schedulerName", kr_str, struct spec_in, scheduler),
	{ .key = "nodeSelector", .parse = p_node_selector },
	{ .key = "tolerations", .parse = p_tolerations },
	{ .key = "affinity", .parse = p_affinity },
	KR_FIELD("hostNetwork", kr_bool, struct spec_in, host_network),
	{ .key = "schedulingGates", .parse = p_gates },
	{ .key = "topologySpreadConstraints", .parse = p_spreads },
	KR_OPEN,
};

enum pod_phase { POD_PENDING, POD_RUNNING, POD_SUCCEEDED, POD_FAILED, POD_UNKNOWN };

static const char *const phase_names[] = {
	[POD_PENDING] = "Pending", [POD_RUNNING] = "Running", [POD_SUCCEEDED] = "Succeeded",
	[POD_FAILED] = "Failed", [POD_UNKNOWN] = "Unknown",
};

static int p_phase(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	for (u32 i = 0; !ret && i < ARRAY_SIZE(phase_names); i++) {
		if (!strcmp(kv->val.text, phase_names[i])) {
			*(enum pod_phase *)slot = (enum pod_phase)i;
			return 0;
		}
	}
	return ret ?: kr_err(kr, kv->line, "%s: unknown pod phase \"%s\" (known: Pending, "
			     "Running, Succeeded, Failed, Unknown)", kr_name(kr, kv), kv->val.text);
}

struct status_in {
	enum pod_phase phase;
	const char *nominated;		/* nominatedNodeName */
};

static const struct kr_field status_fields[] = {
	KR_FIELD("phase", p_phase, struct status_in, phase),
	KR_FIELD("nominatedNodeName", kr_str, struct status_in, nominated),
	KR_OPEN,
};

struct pod_in {
	struct meta_in meta;
	struct spec_in spec;
	struct status_in status;
	u64 seen_spec, seen_status;
};

static int p_meta(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, meta_fields, ARRAY_SIZE(meta_fields), slot, NULL);
}

static int p_spec(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct pod_in *in = slot;

	return kr_walk_kv(kr, kv, spec_fields, ARRAY_SIZE(spec_fields), &in->spec,
			  &in->seen_spec);
}

static int p_status(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct pod_in *in = slot;

	return kr_walk_kv(kr, kv, status_fields, ARRAY_SIZE(status_fields), &in->status,
			  &in->seen_status);
}

static const struct kr_field pod_fields[] = {
	KR_IGNORE("apiVersion"),
	KR_IGNORE("kind"),
	KR_FIELD("metadata", p_meta, struct pod_in, meta),
	{ .key = "spec", .parse = p_spec },
	{ .key = "status", .parse = p_status },
};

/* ---- what the daemon is told ---- */

/* A string of @map (annotations, labels), or NULL. */
static const char *string_of(const struct vsnl_ypair *map, const char *key)
{
	return map ? vsnl_ystr(vsnl_ymap_get(&map->val, key)) : NULL;
}

/* volcano.sh/preemptable, annotation first, then label, as Go's strconv.ParseBool reads it. */
static int pod_preemptable(struct kr *kr, const struct pod_in *in)
{
	return kr_put_preemptable(kr, in->meta.annotations, in->meta.labels, &vsnl_codec_task,
				  VS_TASK_A_PREEMPTABLE);
}

/*
 * Volcano's getTaskStatus: the phase, a node name and a deletion say it.
 * Pending, Unknown and finished pods hold nothing on a node. A pod that
 * says none of them sends no status: the daemon's default is Pending.
 */
static int pod_status(struct kr *kr, const struct pod_in *in)
{
	static const u32 by_phase[] = {
		[POD_PENDING] = VS_TASK_STATUS_PENDING, [POD_RUNNING] = VS_TASK_STATUS_RUNNING,
		[POD_SUCCEEDED] = VS_TASK_STATUS_SUCCEEDED, [POD_FAILED] = VS_TASK_STATUS_FAILED,
		[POD_UNKNOWN] = VS_TASK_STATUS_UNKNOWN,
	};
	const struct vsnl_ynode *at = vsnl_ymap_get(vsnl_ymap_get(kr->doc->root, "status"),
						    "phase");
	bool on_node = in->spec.node && *in->spec.node;
	enum pod_phase phase = in->status.phase;
	u32 status = by_phase[phase];

	if (phase == POD_PENDING && on_node)
		status = VS_TASK_STATUS_BOUND;
	if ((phase == POD_PENDING || phase == POD_RUNNING) && in->meta.deleting)
		status = VS_TASK_STATUS_RELEASING;
	if (phase == POD_RUNNING && !on_node)
		return kr_err(kr, kr->doc->line, "status.phase: a Running pod needs spec.nodeName");
	if (!in->seen_status && !on_node && !in->meta.deleting)
		return 0;
	if (on_node && (status == VS_TASK_STATUS_BOUND || status == VS_TASK_STATUS_RUNNING ||
			status == VS_TASK_STATUS_RELEASING))
		return kr_put_ret(kr, vsnl_ymap_get(vsnl_ymap_get(kr->doc->root, "spec"),
						    "nodeName"), "spec.nodeName",
				  vsnl_task_put_node(kr->nlh, kr->cap, in->spec.node, kr->err)) ?:
		       vsnl_task_put_status(kr->nlh, kr->cap, status, kr->err);
	return kr_put_ret(kr, at, "status.phase",
			  vsnl_task_put_status(kr->nlh, kr->cap, status, kr->err));
}

/* A string attribute of the task, when the manifest gives a non-empty one, named by @field. */
static int put_str(struct kr *kr, const char *field, const char *v,
		   int (*put)(struct nlmsghdr *nlh, size_t cap, const char *v,
			      struct vsnl_err *err))
{
	if (!v || !*v)
		return 0;
	return kr_put_ret(kr, NULL, field, put(kr->nlh, kr->cap, v, kr->err));
}

static int pod_request(struct kr *kr, struct pod_in *in)
{
	struct kr_res *req = &in->spec.containers.req;
	int ret = 0;

	if (kr_res_add(req, &in->spec.overhead))
		return kr_err(kr, in->spec.overhead.line, "spec.overhead: more than %d resources",
			      KR_RES_MAX);
	ret = kr_put_res(kr, &vsnl_codec_task, VS_TASK_A_REQUEST, req, "spec.containers");
	if (!ret && in->spec.init.line)
		ret = kr_put_res(kr, &vsnl_codec_task, VS_TASK_A_INIT_REQUEST, &in->spec.init,
				 "spec.initContainers");
	return ret;
}

static int pod_priority(struct kr *kr, const struct pod_in *in)
{
	int ret = 0;

	if (KR_HAS(spec_fields, in->seen_spec, "priority"))
		ret = kr_put_ret(kr, NULL, "spec.priority",
				 vsnl_task_put_priority(kr->nlh, kr->cap, in->spec.priority,
							kr->err));
	if (!ret && in->spec.has_policy)
		ret = vsnl_task_put_preemption_policy(kr->nlh, kr->cap, in->spec.policy, kr->err);
	return ret ?: put_str(kr, "spec.priorityClassName", in->spec.class,
			      vsnl_task_put_priority_class);
}

/* Why a document is read and not sent: kr_put_new()'s KR_SKIPPED. */
static int skip(struct kr *kr, const char *why)
{
	snprintf(kr->err->msg, sizeof(kr->err->msg), "%s", why);
	kr->err->err = 0;
	return KR_SKIPPED;
}

/*
 * A pod: read whole first (its labels, node selector, tolerations and
 * affinity put as they are met), then, as build_pod() did, its name, whether it is
 * vsched's, its preemptable flag, its status and its host ports, which the
 * reader refuses itself; the rest is the daemon's to check.
 */
int kr_put_pod(struct kr *kr)
{
	const char *ours = kr->doc->scheduler ?: POD_SCHEDULER;
	const struct kr_doc *doc = kr->doc;
	struct nlmsghdr *nlh = kr->nlh;
	struct pod_in in;
	struct nlattr *nest;
	const char *uid;
	int ret;

	memset(&in, 0, sizeof(in));
	nest = vsnl_vsched_start_task(nlh, kr->cap, kr->err);
	if (!nest)
		return kr->err->err ?: -EMSGSIZE;
	ret = kr_walk(kr, doc->root, "a manifest", pod_fields, ARRAY_SIZE(pod_fields), &in, NULL);
	if (ret)
		return ret;
	if (!doc->name || !*doc->name)
		return kr_err(kr, doc->line, "metadata.name: required");
	if (in.spec.scheduler && *in.spec.scheduler && strcmp(in.spec.scheduler, ours) &&
	    !(in.spec.node && *in.spec.node))
		return skip(kr, "another scheduler's, without a node");
	uid = in.meta.owner_uid ?: in.meta.uid;
	ret = kr_put_ret(kr, NULL, "metadata.namespace",
			 vsnl_task_put_namespace(nlh, kr->cap, doc->ns, kr->err)) ?:
	      kr_put_ret(kr, NULL, "metadata.name",
			 vsnl_task_put_name(nlh, kr->cap, doc->name, kr->err)) ?:
	      pod_preemptable(kr, &in) ?:
	      pod_status(kr, &in) ?:
	      pod_request(kr, &in) ?:
	      kr_put_host_ports(kr, &vsnl_codec_task, VS_TASK_A_HOST_PORT, &in.spec.containers,
				in.spec.host_network, "spec.containers") ?:
	      pod_priority(kr, &in) ?:
	      (in.spec.nr_gates ? vsnl_task_put_gated(nlh, kr->cap, kr->err) : 0) ?:
	      kr_put_images(kr, &vsnl_codec_task, VS_TASK_A_IMAGE,
			    vsnl_ymap_get(kr->doc->root, "spec"), "spec") ?:
	      put_str(kr, "metadata.annotations[" POD_TASK_SPEC "]",
		      string_of(in.meta.annotations, POD_TASK_SPEC), vsnl_task_put_role) ?:
	      put_str(kr, "metadata.annotations[" POD_GROUP_NAME "]",
		      string_of(in.meta.annotations, POD_GROUP_NAME), vsnl_task_put_podgroup) ?:
	      put_str(kr, "metadata.annotations[" POD_QUEUE_NAME "]",
		      string_of(in.meta.annotations, POD_QUEUE_NAME), vsnl_task_put_queue) ?:
	      put_str(kr, in.meta.owner_uid ? "metadata.ownerReferences" : "metadata.uid", uid,
		      vsnl_task_put_owner_uid) ?:
	      put_str(kr, "spec.schedulerName", in.spec.scheduler, vsnl_task_put_scheduler) ?:
	      put_str(kr, "status.nominatedNodeName", in.status.nominated,
		      vsnl_task_put_nominated_node) ?:
	      (doc->mirror ? 0 : vsnl_task_put_admit(nlh, kr->cap, kr->err));
	if (!ret && in.meta.created)
		ret = vsnl_task_put_created(nlh, kr->cap, in.meta.created, kr->err);
	if (ret)
		return ret;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

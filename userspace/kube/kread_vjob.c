// SPDX-License-Identifier: Apache-2.0
/*
 * VolcanoJobs (batch.volcano.sh/v1alpha1 Job) as VS_CMD_VJOB_NEW: see
 * kread.h. The keys taken and refused, and the reader's own messages, are
 * manifest.c's (build_vjob()); the events and actions of lifecycle
 * policies, the tasks' counts and the defaults (the queue, minAvailable,
 * maxRetry) are the daemon's, which reads them as the old reader's core
 * did.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec_gen.h"
#include "vsched/vsched.h"

/* A field Kubernetes has and vsched cannot honour: refused rather than ignored. */
static int p_unsupported(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_err(kr, kv->line, "%s: not supported by vsched", kr_name(kr, kv));
}

/*
 * A put's answer @ret for the field @key of the mapping @map at the walk's
 * place: a refusal named by its path, at its line.
 */
static int put_ret_at(struct kr *kr, const struct vsnl_ynode *map, const char *key, int ret)
{
	for (u32 i = 0; i < map->map.nr; i++)
		if (!strcmp(map->map.pairs[i].key, key))
			return kr_put_ret(kr, &map->map.pairs[i].val,
					  kr_name(kr, &map->map.pairs[i]), ret);
	return kr_put_ret(kr, map, key, ret);
}

/* ---- lifecycle policies: the job's and each task's ---- */

struct policy_in {
	const char *event, *action;
	const struct vsnl_ypair *events;
	s32 exit_code;
};

static const struct kr_field policy_fields[] = {
	KR_FIELD("event", kr_str, struct policy_in, event),
	KR_FIELD("events", kr_strs, struct policy_in, events),
	KR_FIELD("action", kr_str, struct policy_in, action),
	KR_FIELD("exitCode", kr_s32, struct policy_in, exit_code),
	{ .key = "timeout", .parse = p_unsupported },
};

/*
 * One lifecycle nest @type of @set: the event @ev (named @field), or the
 * exit code when @ev is NULL, and the action of the policy @item. Which
 * names are events and actions is the daemon's to know.
 */
static int put_lifecycle(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
			 const struct vsnl_ynode *item, const struct policy_in *p,
			 const struct vsnl_ynode *ev, const char *field)
{
	struct nlattr *nest = vsnl_codec_nest_start(kr->nlh, kr->cap, set, type, kr->err);
	int ret;

	if (!nest)
		return kr_put_ret(kr, item, kr->path, kr->err->err ?: -EMSGSIZE);
	if (ev)
		ret = kr_put_ret(kr, ev, field,
				 vsnl_lifecycle_put_event(kr->nlh, kr->cap, ev->text, kr->err));
	else
		ret = put_ret_at(kr, item, "exitCode",
				 vsnl_lifecycle_put_exit_code(kr->nlh, kr->cap, p->exit_code,
							      kr->err));
	if (!ret)
		ret = put_ret_at(kr, item, "action",
				 vsnl_lifecycle_put_action(kr->nlh, kr->cap, p->action, kr->err));
	if (!ret)
		mnl_attr_nest_end(kr->nlh, nest);
	return ret;
}

/*
 * One policy: an action, and an event, events or an exitCode, which the
 * protocol has as one lifecycle nest per event (the events first, as the
 * old reader's vpolicies_out()), or one for the exit code.
 */
static int put_policy(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		      const struct vsnl_ynode *item)
{
	bool by_event, by_code;
	struct policy_in p = { 0 };
	u64 seen = 0;
	int ret;

	ret = kr_walk(kr, item, "a policy", policy_fields, ARRAY_SIZE(policy_fields), &p, &seen);
	if (ret)
		return ret;
	by_event = KR_HAS(policy_fields, seen, "event") || KR_HAS(policy_fields, seen, "events");
	by_code = KR_HAS(policy_fields, seen, "exitCode");
	if (!KR_HAS(policy_fields, seen, "action"))
		return kr_err(kr, item->line, "%s.action: required", kr->path);
	if (by_event == by_code)
		return kr_err(kr, item->line, "%s: a policy takes an event (or events) or an "
			      "exitCode, one of the two", kr->path);
	if (by_code)
		return put_lifecycle(kr, set, type, item, &p, NULL, NULL);
	for (u32 k = 0; !ret && p.events && k < p.events->val.seq.nr; k++) {
		char name[KR_PATH_MAX + 32];

		snprintf(name, sizeof(name), "%s.events[%u]", kr->path, k);
		ret = put_lifecycle(kr, set, type, item, &p, &p.events->val.seq.items[k], name);
	}
	if (!ret && p.event) {
		char name[KR_PATH_MAX + 16];

		snprintf(name, sizeof(name), "%s.event", kr->path);
		ret = put_lifecycle(kr, set, type, item, &p, vsnl_ymap_get(item, "event"), name);
	}
	return ret;
}

static int put_policies(struct kr *kr, const struct vsnl_ypair *kv,
			const struct vsnl_codec_set *set, u16 type)
{
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list");
	size_t old, at;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		at = kr_push_idx(kr, i);
		ret = put_policy(kr, set, type, &kv->val.seq.items[i]);
		kr_pop(kr, at);
	}
	kr_pop(kr, old);
	return ret;
}

static int p_job_policies(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_policies(kr, kv, &vsnl_codec_vjob, VS_VJOB_A_POLICY);
}

static int p_task_policies(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return put_policies(kr, kv, &vsnl_codec_vtask, VS_VTASK_A_POLICY);
}

/* ---- tasks ---- */

struct task_in {
	const char *name;
	u32 replicas, min_available;
	struct kr_containers containers;
	struct kr_res init, overhead;
	bool host_network;
};

static int p_task_labels(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_labels(kr, &vsnl_codec_vtask, VS_VTASK_A_LABELS, kv);
}

static const struct kr_field template_meta_fields[] = {
	{ .key = "labels", .parse = p_task_labels },
	KR_OPEN,
};

static int p_node_selector(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_labels(kr, &vsnl_codec_vtask, VS_VTASK_A_NODE_SELECTOR, kv);
}

static int p_tolerations(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_tolerations(kr, &vsnl_codec_vtask, VS_VTASK_A_TOLERATION, kv);
}

/* A template's pod spec: its request, host ports, selector and tolerations; affinity is refused. */
static int p_spreads(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_spreads(kr, &vsnl_codec_vtask, VS_VTASK_A_SPREAD, kv);
}

static const struct kr_field template_spec_fields[] = {
	KR_FIELD("containers", kr_containers, struct task_in, containers),
	KR_FIELD("initContainers", kr_init_containers, struct task_in, init),
	KR_FIELD("overhead", kr_res, struct task_in, overhead),
	{ .key = "nodeSelector", .parse = p_node_selector },
	{ .key = "tolerations", .parse = p_tolerations },
	{ .key = "affinity", .parse = p_unsupported },
	{ .key = "priorityClassName", .parse = p_unsupported },
	KR_FIELD("hostNetwork", kr_bool, struct task_in, host_network),
	{ .key = "schedulingGates", .parse = p_unsupported },
	{ .key = "topologySpreadConstraints", .parse = p_spreads },
	KR_OPEN,
};

static int p_template_meta(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, template_meta_fields, ARRAY_SIZE(template_meta_fields), slot,
			  NULL);
}

static int p_template_spec(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, template_spec_fields, ARRAY_SIZE(template_spec_fields), slot,
			  NULL);
}

static const struct kr_field template_fields[] = {
	{ .key = "metadata", .parse = p_template_meta },
	{ .key = "spec", .parse = p_template_spec },
};

static int p_template(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, template_fields, ARRAY_SIZE(template_fields), slot, NULL);
}

static int p_partition(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_partition(kr, &vsnl_codec_vtask, VS_VTASK_A_PARTITION_POLICY, kv);
}

static const struct kr_field task_fields[] = {
	KR_FIELD("name", kr_str, struct task_in, name),
	KR_FIELD("replicas", kr_count, struct task_in, replicas),
	KR_FIELD("minAvailable", kr_count, struct task_in, min_available),
	{ .key = "template", .parse = p_template },
	{ .key = "policies", .parse = p_task_policies },
	{ .key = "partitionPolicy", .parse = p_partition },
	KR_OPEN,
};

/*
 * One task's nest. The template's labels, selector, tolerations and the
 * task's policies are put as they are read; the request after the walk:
 * the containers' sum and the overhead, at least each init container's
 * (Volcano's GetPodResourceRequest, as the old build_vjob_task()).
 */
static int put_task(struct kr *kr, const struct vsnl_ynode *item)
{
	struct nlattr *nest = vsnl_vjob_start_task(kr->nlh, kr->cap, kr->err);
	struct task_in t = { 0 };
	u64 seen = 0;
	int ret;

	if (!nest)
		return kr_put_ret(kr, item, kr->path, kr->err->err ?: -EMSGSIZE);
	ret = kr_walk(kr, item, "a task", task_fields, ARRAY_SIZE(task_fields), &t, &seen);
	if (ret)
		return ret;
	if (kr_res_add(&t.containers.req, &t.overhead) || kr_res_max(&t.containers.req, &t.init))
		return kr_err(kr, item->line, "%s.template.spec: more than %d resources", kr->path,
			      KR_RES_MAX);
	if (KR_HAS(task_fields, seen, "name"))
		ret = put_ret_at(kr, item, "name",
				 vsnl_vtask_put_name(kr->nlh, kr->cap, t.name, kr->err));
	if (!ret && KR_HAS(task_fields, seen, "replicas"))
		ret = put_ret_at(kr, item, "replicas",
				 vsnl_vtask_put_replicas(kr->nlh, kr->cap, t.replicas, kr->err));
	if (!ret && KR_HAS(task_fields, seen, "minAvailable"))
		ret = put_ret_at(kr, item, "minAvailable",
				 vsnl_vtask_put_min_available(kr->nlh, kr->cap, t.min_available,
							      kr->err));
	if (!ret) {
		char name[KR_PATH_MAX + 32];

		snprintf(name, sizeof(name), "%s.template.spec.containers", kr->path);
		ret = kr_put_res(kr, &vsnl_codec_vtask, VS_VTASK_A_REQUEST, &t.containers.req,
				 name) ?:
		      kr_put_host_ports(kr, &vsnl_codec_vtask, VS_VTASK_A_HOST_PORT, &t.containers,
					t.host_network, name);
	}
	if (!ret) {
		char at[KR_PATH_MAX + 32];

		snprintf(at, sizeof(at), "%s.template.spec", kr->path);
		ret = kr_put_images(kr, &vsnl_codec_vtask, VS_VTASK_A_IMAGE,
				    vsnl_ymap_get(vsnl_ymap_get(item, "template"), "spec"), at);
	}
	if (!ret)
		mnl_attr_nest_end(kr->nlh, nest);
	return ret;
}

static int p_tasks(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list");
	size_t old, at;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		at = kr_push_idx(kr, i);
		ret = put_task(kr, &kv->val.seq.items[i]);
		kr_pop(kr, at);
	}
	kr_pop(kr, old);
	return ret;
}

/* ---- the job ---- */

struct spec_in {
	u32 min_available, max_retry;
	const char *queue, *class;
};

static int p_job_nt(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_put_net_topology(kr, &vsnl_codec_vjob, VS_VJOB_A_NETWORK_TOPOLOGY, kv);
}

static const struct kr_field spec_fields[] = {
	{ .key = "tasks", .parse = p_tasks },
	{ .key = "networkTopology", .parse = p_job_nt },
	KR_FIELD("minAvailable", kr_count, struct spec_in, min_available),
	KR_FIELD("queue", kr_str, struct spec_in, queue),
	KR_FIELD("priorityClassName", kr_str, struct spec_in, class),
	KR_FIELD("maxRetry", kr_count, struct spec_in, max_retry),
	{ .key = "policies", .parse = p_job_policies },
	KR_OPEN,
};

/* The spec's scalars, as written: the daemon defaults the rest. */
static int p_spec(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	const struct vsnl_ynode *spec = &kv->val;
	struct nlmsghdr *nlh = kr->nlh;
	struct spec_in in = { 0 };
	u64 seen = 0;
	size_t old;
	int ret;

	ret = kr_walk_kv(kr, kv, spec_fields, ARRAY_SIZE(spec_fields), &in, &seen);
	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	if (KR_HAS(spec_fields, seen, "queue"))
		ret = put_ret_at(kr, spec, "queue",
				 vsnl_vjob_put_queue(nlh, kr->cap, in.queue, kr->err));
	if (!ret && KR_HAS(spec_fields, seen, "priorityClassName"))
		ret = put_ret_at(kr, spec, "priorityClassName",
				 vsnl_vjob_put_priority_class(nlh, kr->cap, in.class, kr->err));
	if (!ret && KR_HAS(spec_fields, seen, "minAvailable"))
		ret = put_ret_at(kr, spec, "minAvailable",
				 vsnl_vjob_put_min_available(nlh, kr->cap, in.min_available,
							     kr->err));
	if (!ret && KR_HAS(spec_fields, seen, "maxRetry"))
		ret = put_ret_at(kr, spec, "maxRetry",
				 vsnl_vjob_put_max_retry(nlh, kr->cap, in.max_retry, kr->err));
	kr_pop(kr, old);
	return ret;
}

struct meta_in {
	const char *str;
	u64 created;
};

/*
 * metadata, refused where the old reader refuses every kind's (manifest.c's
 * meta_fields) but for ownerReferences; none of it is sent but the key
 * (the document's name and namespace).
 */
static const struct kr_field meta_fields[] = {
	KR_FIELD("name", kr_str, struct meta_in, str),
	KR_FIELD("namespace", kr_str, struct meta_in, str),
	{ .key = "labels", .parse = kr_str_map },
	{ .key = "annotations", .parse = kr_str_map },
	KR_FIELD("uid", kr_str, struct meta_in, str),
	KR_FIELD("creationTimestamp", kr_time, struct meta_in, created),
	KR_OPEN,
};

static int p_meta(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	struct meta_in in = { 0 };

	return kr_walk_kv(kr, kv, meta_fields, ARRAY_SIZE(meta_fields), &in, NULL);
}

static const struct kr_field vjob_fields[] = {
	KR_IGNORE("apiVersion"),
	KR_IGNORE("kind"),
	{ .key = "metadata", .parse = p_meta },
	{ .key = "spec", .parse = p_spec },
	KR_IGNORE("status"),		/* the job controller's */
};

/*
 * A VolcanoJob: its key, the spec's scalars as written, each task with its
 * request and template, and the lifecycle policies. A job without a spec
 * or without tasks is the daemon's to refuse.
 */
int kr_put_vjob(struct kr *kr)
{
	const struct vsnl_ynode *root = kr->doc->root;
	const struct vsnl_ynode *name = vsnl_ymap_get(vsnl_ymap_get(root, "metadata"), "name");
	struct nlattr *nest;
	u8 none;
	int ret;

	nest = vsnl_vsched_start_vjob(kr->nlh, kr->cap, kr->err);
	if (!nest)
		return kr->err->err ?: -EMSGSIZE;
	ret = kr_walk(kr, root, "a manifest", vjob_fields, ARRAY_SIZE(vjob_fields), &none, NULL);
	if (ret)
		return ret;
	if (!kr->doc->name || !*kr->doc->name)
		return kr_err(kr, kr->doc->line, "metadata.name: required");
	ret = kr_put_ret(kr, vsnl_ymap_get(vsnl_ymap_get(root, "metadata"), "namespace"),
			 "metadata.namespace",
			 vsnl_vjob_put_namespace(kr->nlh, kr->cap, kr->doc->ns, kr->err)) ?:
	      kr_put_ret(kr, name, "metadata.name",
			 vsnl_vjob_put_name(kr->nlh, kr->cap, kr->doc->name, kr->err));
	if (ret)
		return ret;
	mnl_attr_nest_end(kr->nlh, nest);
	return 0;
}

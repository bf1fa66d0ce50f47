// SPDX-License-Identifier: Apache-2.0
/*
 * Kubernetes manifests as vsched objects: see manifest.h. This file owns
 * which kinds are taken, the fields read from each and the rules (Volcano's
 * and Kubernetes' own defaulting and admission) that turn them into the
 * core's specs; kfields.c reads the values.
 *
 * A document is split out of its file with libyaml (only to find where
 * each one starts), then parsed alone by the configuration loader's reader,
 * its lines shifted to the file's. Kubernetes objects carry many fields
 * vsched has no use for (metadata.uid, status.conditions, container images,
 * volumes...): the open objects of the tables (KF_OPEN) take any key, while
 * the closed structures vsched reads whole (resources, taints, tolerations,
 * affinity, lifecycle policies) refuse an unknown one as a typo.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <yaml.h>

#include "controllers/pgctl.h"
#include "core/file.h"
#include "netlink/fill.h"
#include "netlink/msg.h"
#include "kube/kfields.h"
#include "kube/manifest.h"
#include "vsched/vsched.h"

/* Manifests larger than this are refused: 16k pods of 16 KiB each. */
#define MF_FILE_MAX	(256u << 20)

/* What Volcano and Kubernetes read from a pod's metadata. */
#define MF_GROUP_NAME	"scheduling.k8s.io/group-name"
#define MF_TASK_SPEC	"volcano.sh/task-spec"
#define MF_PREEMPTABLE	"volcano.sh/preemptable"
#define MF_QUEUE_NAME	"scheduling.volcano.sh/queue-name"
#define MF_DEFAULT_NS	"default"

struct build {
	struct mf_set *set;
	struct kf kf;
};

static void set_err(struct mf_err *err, const char *fmt, ...) __printf(2, 3);

static void set_err(struct mf_err *err, const char *fmt, ...)
{
	va_list ap;

	if (err->msg[0])
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* Whether the field @key of @fields was written, by the walk's @seen. */
static bool has(const struct kf_field *fields, u32 nr, u64 seen, const char *key)
{
	for (u32 i = 0; i < nr; i++)
		if (!strcmp(fields[i].key, key))
			return seen & (1ull << i);
	return false;
}

#define HAS(fields, seen, key)	has(fields, ARRAY_SIZE(fields), seen, key)

/* Kubernetes' int32 counts: 0..2^31-1. */
static int p_count(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	s64 v = 0;
	int ret = kf_get_int(kf, kv, 0, INT32_MAX, &v);

	if (!ret)
		*(u32 *)slot = (u32)v;
	return ret;
}

/* Any value: the field is there (metadata.deletionTimestamp). */
static int p_present(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	*(bool *)slot = true;
	return 0;
}

/* A field Kubernetes has and vsched cannot honour: refused rather than ignored. */
static int p_unsupported(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return kf_err(kf, kv->line, "%s: not supported by vsched", kf_name(kf, kv));
}

/* ---- metadata ---- */

struct owner_in {
	const char *uid;
	bool controller;
};

static const struct kf_field owner_fields[] = {
	KF_IGNORE("apiVersion"),
	KF_IGNORE("kind"),
	KF_IGNORE("name"),
	KF_FIELD("uid", kf_str, struct owner_in, uid),
	KF_FIELD("controller", kf_bool, struct owner_in, controller),
	KF_IGNORE("blockOwnerDeletion"),
};

static const struct kf_list owner_list = {
	.what = "an owner reference", .fields = owner_fields,
	.nr_fields = ARRAY_SIZE(owner_fields), .size = sizeof(struct owner_in),
};
static KF_LIST_PARSER(p_owners, owner_list)

struct meta_in {
	const char *name, *ns, *uid;
	struct kf_kvs labels, annotations;
	struct kf_items owners;
	bool deleting;
	u64 created;			/* creationTimestamp, s since 1970; 0: none */
};

static const struct kf_field meta_fields[] = {
	KF_FIELD("name", kf_str, struct meta_in, name),
	KF_FIELD("namespace", kf_str, struct meta_in, ns),
	KF_FIELD("labels", kf_kvs, struct meta_in, labels),
	KF_FIELD("annotations", kf_kvs, struct meta_in, annotations),
	KF_FIELD("uid", kf_str, struct meta_in, uid),
	KF_FIELD("ownerReferences", p_owners, struct meta_in, owners),
	KF_FIELD("deletionTimestamp", p_present, struct meta_in, deleting),
	KF_FIELD("creationTimestamp", kf_time, struct meta_in, created),
	KF_OPEN,
};

static KF_NESTED(p_meta, meta_fields)

/* The UID of the pod's controller, else its own (Volcano's GeneratePodgroupName). */
static const char *owner_uid(const struct meta_in *m)
{
	for (u32 i = 0; i < m->owners.nr; i++) {
		const struct owner_in *o = &((const struct owner_in *)m->owners.v)[i];

		if (o->controller && o->uid && *o->uid)
			return o->uid;
	}
	return m->uid && *m->uid ? m->uid : NULL;
}

/* ---- pods: containers and the request ---- */

struct container_in {
	struct vs_res req, lim;
};

static const struct kf_field resources_fields[] = {
	KF_FIELD("requests", kf_res, struct container_in, req),
	KF_FIELD("limits", kf_res, struct container_in, lim),
	KF_IGNORE("claims"),
};

static KF_NESTED(p_resources, resources_fields)

static const struct kf_field container_fields[] = {
	KF_FIELD("resources", p_resources, struct container_in, req),
	KF_OPEN,
};

static const struct vs_args *map_at(const struct vs_arg *a, const char *key)
{
	const struct vs_arg *v = a && a->type == VS_ARG_MAP ? vs_args_find(a->map, key) : NULL;

	return v && v->type == VS_ARG_MAP ? v->map : NULL;
}

/*
 * Kubernetes' defaulting: a limit without its request makes the request
 * (SetDefaults_Container). Which requests were written is read from the
 * document: cpu and memory are always present in a struct vs_res.
 */
static int container_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct container_in *c = item;
	const struct vs_arg *res = NULL;
	const struct vs_args *req, *lim;

	if (a->type == VS_ARG_MAP)
		res = vs_args_find(a->map, "resources");
	req = map_at(res, "requests");
	lim = map_at(res, "limits");
	for (u32 i = 0; lim && i < lim->nr; i++) {
		int d = vs_res_dim_lookup(kf->dims, lim->kv[i].key, strlen(lim->kv[i].key));

		if (d >= 0 && !(req && vs_args_find(req, lim->kv[i].key)))
			vs_res_set(&c->req, (unsigned int)d, vs_res_get(&c->lim, (unsigned int)d));
	}
	return 0;
}

static const struct kf_list container_list = {
	.what = "a container", .fields = container_fields,
	.nr_fields = ARRAY_SIZE(container_fields), .size = sizeof(struct container_in),
	.done = container_done,
};
static KF_LIST_PARSER(p_containers, container_list)

/*
 * Volcano's pod request (GetPodResourceWithoutInitContainers and
 * GetPodResourceRequest): the sum of the containers' requests plus the
 * overhead; the init containers' is the largest of each, dimension by
 * dimension, which the core takes the larger of with the first.
 */
static void pod_request(const struct kf_items *containers, const struct kf_items *inits,
			const struct vs_res *overhead, struct vs_res *req, struct vs_res *init,
			bool *has_init)
{
	vs_res_clear(req);
	vs_res_clear(init);
	for (u32 i = 0; i < containers->nr; i++)
		vs_res_add(req, &((const struct container_in *)containers->v)[i].req);
	vs_res_add(req, overhead);
	for (u32 i = 0; i < inits->nr; i++)
		vs_res_set_max(init, &((const struct container_in *)inits->v)[i].req);
	*has_init = inits->nr;
}

/* ---- pods ---- */

enum pod_phase { POD_PENDING, POD_RUNNING, POD_SUCCEEDED, POD_FAILED, POD_UNKNOWN };

static int p_pod_phase(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	static const char *const names[] = {
		[POD_PENDING] = "Pending", [POD_RUNNING] = "Running",
		[POD_SUCCEEDED] = "Succeeded", [POD_FAILED] = "Failed",
		[POD_UNKNOWN] = "Unknown",
	};
	int ret = kf_want(kf, kv, VS_ARG_STRING, "a string");

	for (u32 i = 0; !ret && i < ARRAY_SIZE(names); i++) {
		if (!strcmp(kv->val.s, names[i])) {
			*(enum pod_phase *)slot = (enum pod_phase)i;
			return 0;
		}
	}
	return ret ?: kf_err(kf, kv->line, "%s: unknown pod phase \"%s\" (known: Pending, "
			     "Running, Succeeded, Failed, Unknown)", kf_name(kf, kv), kv->val.s);
}

struct pod_spec_in {
	u64 seen;
	struct kf_items containers, inits;
	struct vs_res overhead;
	s32 priority;
	const char *class, *node, *scheduler;
	struct kf_kvs selector;
	struct kf_items tolerations;
	const struct vs_affinity_spec *affinity;
	enum vs_preemption_policy policy;
};

static const struct kf_field pod_spec_fields[] = {
	KF_FIELD("containers", p_containers, struct pod_spec_in, containers),
	KF_FIELD("initContainers", p_containers, struct pod_spec_in, inits),
	KF_FIELD("overhead", kf_res, struct pod_spec_in, overhead),
	KF_FIELD("priority", kf_s32, struct pod_spec_in, priority),
	KF_FIELD("priorityClassName", kf_str, struct pod_spec_in, class),
	KF_FIELD("preemptionPolicy", kf_preemption_policy, struct pod_spec_in, policy),
	KF_FIELD("nodeName", kf_str, struct pod_spec_in, node),
	KF_FIELD("schedulerName", kf_str, struct pod_spec_in, scheduler),
	KF_FIELD("nodeSelector", kf_kvs, struct pod_spec_in, selector),
	KF_FIELD("tolerations", kf_tolerations, struct pod_spec_in, tolerations),
	KF_FIELD("affinity", kf_affinity, struct pod_spec_in, affinity),
	KF_OPEN,
};

static KF_NESTED_SEEN(p_pod_spec, pod_spec_fields, struct pod_spec_in)

struct pod_status_in {
	enum pod_phase phase;
};

static const struct kf_field pod_status_fields[] = {
	KF_FIELD("phase", p_pod_phase, struct pod_status_in, phase),
	KF_OPEN,
};

static KF_NESTED(p_pod_status, pod_status_fields)

struct pod_in {
	struct meta_in meta;
	struct pod_spec_in spec;
	struct pod_status_in status;
};

#define TOP_FIELDS(type, spec_fn, status_fn)					\
	KF_IGNORE("apiVersion"),						\
	KF_IGNORE("kind"),							\
	KF_FIELD("metadata", p_meta, type, meta),				\
	KF_FIELD("spec", spec_fn, type, spec),					\
	KF_FIELD("status", status_fn, type, status)

static const struct kf_field pod_fields[] = {
	TOP_FIELDS(struct pod_in, p_pod_spec, p_pod_status),
};

/* ---- building ---- */

static int add_obj(struct build *b, enum mf_kind kind, const struct mf_doc *doc, void *obj,
		   const char *ns, const char *name, struct mf_obj **out)
{
	struct mf_set *set = b->set;
	struct mf_obj *o;

	if (set->nr_objs == set->cap_objs) {
		u32 cap = set->cap_objs ? 2 * set->cap_objs : 64;

		o = realloc(set->objs, cap * sizeof(*o));
		if (!o)
			return kf_oom(&b->kf);
		set->objs = o;
		set->cap_objs = cap;
	}
	o = &set->objs[set->nr_objs++];
	*o = (struct mf_obj){ .kind = kind, .doc = doc, .obj = obj, .ns = ns, .name = name };
	if (out)
		*out = o;
	return 0;
}

/* A refusal of the core, whose message names the object, at the document. */
static int core_err(struct build *b, const struct mf_doc *doc, const struct vs_err *e)
{
	return kf_err(&b->kf, doc->line, "%s", e->msg);
}

/* Walk a document's fields, after which it must have a name. */
static int walk_doc(struct build *b, struct mf_doc *doc, const struct kf_field *fields, u32 nr,
		    void *in, const struct meta_in *meta)
{
	int ret = kf_walk(&b->kf, doc->root, "a manifest", fields, nr, in, NULL);

	if (!ret && (!meta->name || !*meta->name))
		ret = kf_err(&b->kf, doc->line, "metadata.name: required");
	return ret;
}

static const char *doc_ns(const struct meta_in *meta)
{
	return meta->ns && *meta->ns ? meta->ns : MF_DEFAULT_NS;
}

/* A pod's priority and preemption policy, as Kubernetes' priority admission sets them. */
static int pod_priority(struct build *b, struct mf_doc *doc, struct pod_in *in,
			struct vs_task_spec *spec)
{
	const struct vs_prioclass *pc = NULL;
	const char *class = in->spec.class;
	char msg[MF_ERR_MAX];

	if (class && *class) {
		pc = vs_prioclass_find(&b->set->cl, class);
		if (!pc && !b->set->offline)
			return kf_err(&b->kf, doc->line, "spec.priorityClassName: no PriorityClass "
				      "\"%s\", in the manifests or in vschedd", class);
		if (!pc && b->set->warn) {
			snprintf(msg, sizeof(msg), "%s:%u: %s: spec.priorityClassName: "
				 "PriorityClass \"%s\" is not in the manifests, and vschedd is not "
				 "asked: priority 0 assumed", doc->file, doc->line, doc->label,
				 class);
			b->set->warn(b->set->warn_arg, msg);
		}
		spec->priority_class = class;
	} else {
		pc = vs_prioclass_default(&b->set->cl);
		spec->priority_class = pc ? pc->name : NULL;
	}
	spec->priority = HAS(pod_spec_fields, in->spec.seen, "priority") ? in->spec.priority :
			 pc ? pc->value : 0;
	spec->preemption_policy = HAS(pod_spec_fields, in->spec.seen, "preemptionPolicy") ?
				  in->spec.policy : pc ? pc->preemption_policy :
				  VS_PREEMPT_LOWER_PRIORITY;
	return 0;
}

/* Volcano's getTaskStatus: the phase, a node name and a deletion say it. */
static int pod_status(struct build *b, struct mf_doc *doc, struct pod_in *in,
		      struct vs_task_spec *spec)
{
	static const enum vs_task_status by_phase[] = {
		[POD_PENDING] = VS_TASK_PENDING, [POD_RUNNING] = VS_TASK_RUNNING,
		[POD_SUCCEEDED] = VS_TASK_SUCCEEDED, [POD_FAILED] = VS_TASK_FAILED,
		[POD_UNKNOWN] = VS_TASK_UNKNOWN,
	};
	bool on_node = in->spec.node && *in->spec.node;
	enum pod_phase phase = in->status.phase;

	spec->status = by_phase[phase];
	if (phase == POD_PENDING && on_node)
		spec->status = VS_TASK_BOUND;
	if ((phase == POD_PENDING || phase == POD_RUNNING) && in->meta.deleting)
		spec->status = VS_TASK_RELEASING;
	if (phase == POD_RUNNING && !on_node)
		return kf_err(&b->kf, doc->line, "status.phase: a Running pod needs "
			      "spec.nodeName");
	/* Pending, Unknown and finished pods hold nothing on a node */
	spec->node = on_node && (VS_TASK_ON_NODE_MASK & VS_TASK_BIT(spec->status)) ?
		     in->spec.node : NULL;
	return 0;
}

/* An object the daemon must have, for the private cluster to take what names it. */
static int stand_in_node(struct build *b, struct mf_doc *doc, const char *name)
{
	struct vs_node_spec spec;
	struct vs_err e = { { 0 } };

	if (vs_node_find(&b->set->cl, name))
		return 0;
	vs_node_spec_init(&spec, name);
	return vs_node_add(&b->set->cl, &spec, NULL, &e) ? core_err(b, doc, &e) : 0;
}

/*
 * The pod's PodGroup: the one its group-name annotation names (which, if
 * the manifests do not hold it, must be in the daemon), else one of its own
 * as Volcano's podgroup controller makes it (minMember 1, the pod's
 * request, priority class and queue annotation), or for a pod of another
 * scheduler the shadow PodGroup Volcano's cache accounts it in.
 */
static int pod_group(struct build *b, struct mf_doc *doc, struct pod_in *in,
		     struct vs_task_spec *spec, bool ours)
{
	const char *group = kf_kvs_get(&in->meta.annotations, MF_GROUP_NAME);
	const char *uid = owner_uid(&in->meta);
	struct vs_err e = { { 0 } };
	char *name = vs_arena_alloc(&b->kf.scratch, VS_PGCTL_NAME_BUF);
	struct vs_job_spec js;
	struct mf_obj *o;
	struct vs_job *pg;
	int ret;

	if (!name)
		return kf_oom(&b->kf);
	if (group && *group) {
		spec->job = group;
		if (vs_job_find(&b->set->cl, spec->ns, group))
			return 0;
		vs_job_spec_init(&js, spec->ns, group);
		return vs_job_add(&b->set->cl, &js, NULL, &e) ? core_err(b, doc, &e) : 0;
	}
	vs_pgctl_name(uid ? uid : spec->name, name);
	spec->job = name;
	if (vs_job_find(&b->set->cl, spec->ns, name))
		return 0;
	vs_job_spec_init(&js, spec->ns, name);
	js.min_member = 1;
	/* made when the pod was seen: no earlier than it */
	js.created = spec->created;
	if (ours) {
		js.queue = kf_kvs_get(&in->meta.annotations, MF_QUEUE_NAME);
		js.priority_class = spec->priority_class;
		js.min_resources = spec->req;
		if (spec->has_init_req)
			vs_res_set_max(&js.min_resources, &spec->init_req);
		vs_res_set(&js.min_resources, VS_RES_PODS,
			   vs_res_get(&js.min_resources, VS_RES_PODS) + 1);
		js.has_min_resources = true;
	}
	if (vs_job_add(&b->set->cl, &js, &pg, &e))
		return core_err(b, doc, &e);
	ret = add_obj(b, MF_PODGROUP, doc, pg, pg->ns, pg->name, &o);
	if (!ret)
		o->implicit = true;
	return ret;
}

static int pod_preemptable(struct build *b, struct mf_doc *doc, struct pod_in *in,
			   struct vs_task_spec *spec)
{
	const char *where = "metadata.annotations";
	const char *v = kf_kvs_get(&in->meta.annotations, MF_PREEMPTABLE);

	if (!v) {
		where = "metadata.labels";
		v = kf_kvs_get(&in->meta.labels, MF_PREEMPTABLE);
	}
	if (v && kf_parse_bool(v, &spec->preemptable))
		return kf_err(&b->kf, doc->line, "%s[" MF_PREEMPTABLE "]: \"%s\" is not a boolean",
			      where, v);
	return 0;
}

static int build_pod(struct build *b, struct mf_doc *doc)
{
	struct pod_in in;
	struct vs_task_spec spec;
	struct vs_task *task;
	struct vs_err e = { { 0 } };
	bool ours;
	int ret;

	memset(&in, 0, sizeof(in));
	ret = walk_doc(b, doc, pod_fields, ARRAY_SIZE(pod_fields), &in, &in.meta);
	if (ret)
		return ret;
	vs_task_spec_init(&spec, doc_ns(&in.meta), in.meta.name, NULL);
	spec.created = in.meta.created;
	ours = !in.spec.scheduler || !*in.spec.scheduler ||
	       !strcmp(in.spec.scheduler, b->set->scheduler);
	if (!ours && !(in.spec.node && *in.spec.node)) {
		struct mf_obj *o;

		ret = add_obj(b, MF_POD, doc, NULL, doc->ns, doc->name, &o);
		if (!ret)
			o->skipped = "another scheduler's, without a node";
		return ret;
	}
	pod_request(&in.spec.containers, &in.spec.inits, &in.spec.overhead, &spec.req,
		    &spec.init_req, &spec.has_init_req);
	spec.role = kf_kvs_get(&in.meta.annotations, MF_TASK_SPEC);
	spec.labels = in.meta.labels.kv;
	spec.nr_labels = in.meta.labels.nr;
	spec.node_selector = in.spec.selector.kv;
	spec.nr_node_selector = in.spec.selector.nr;
	spec.tolerations = in.spec.tolerations.v;
	spec.nr_tolerations = in.spec.tolerations.nr;
	spec.affinity = in.spec.affinity;
	ret = pod_preemptable(b, doc, &in, &spec) ?:
	      pod_priority(b, doc, &in, &spec) ?:
	      pod_status(b, doc, &in, &spec) ?:
	      pod_group(b, doc, &in, &spec, ours);
	if (!ret && spec.node)
		ret = stand_in_node(b, doc, spec.node);
	if (ret)
		return ret;
	if (vs_task_add(&b->set->cl, &spec, &task, &e))
		return core_err(b, doc, &e);
	return add_obj(b, MF_POD, doc, task, task->ns, task->name, NULL);
}

/* ---- PodGroups ---- */

struct pg_spec_in {
	u64 seen;
	u32 min_member;
	struct kf_role_mins mins;
	struct vs_res min_resources;
	const char *queue, *class;
};

static const struct kf_field pg_spec_fields[] = {
	KF_FIELD("minMember", p_count, struct pg_spec_in, min_member),
	KF_FIELD("minTaskMember", kf_role_mins, struct pg_spec_in, mins),
	KF_FIELD("minResources", kf_res, struct pg_spec_in, min_resources),
	KF_FIELD("queue", kf_str, struct pg_spec_in, queue),
	KF_FIELD("priorityClassName", kf_str, struct pg_spec_in, class),
	KF_OPEN,
};

static KF_NESTED_SEEN(p_pg_spec, pg_spec_fields, struct pg_spec_in)

/*
 * status.conditions as Volcano's PodGroupCondition. Types other than
 * Unschedulable and Scheduled are left out: vsched neither reads nor
 * writes them.
 */
struct pg_cond_in {
	const char *type, *status, *reason, *message, *id;
	u64 time;
};

static const struct kf_field pg_cond_fields[] = {
	KF_FIELD("type", kf_str, struct pg_cond_in, type),
	KF_FIELD("status", kf_str, struct pg_cond_in, status),
	KF_FIELD("reason", kf_str, struct pg_cond_in, reason),
	KF_FIELD("message", kf_str, struct pg_cond_in, message),
	KF_FIELD("transitionID", kf_str, struct pg_cond_in, id),
	KF_FIELD("lastTransitionTime", kf_time, struct pg_cond_in, time),
	KF_OPEN,
};

static int pg_cond_done(struct kf *kf, struct vs_arg *item_arg, void *item, u64 seen)
{
	const struct pg_cond_in *c = item;

	if (!c->type)
		return kf_err(kf, item_arg->line, "%s: a condition needs its type", kf->path);
	if (c->status && strcmp(c->status, "True") && strcmp(c->status, "False") &&
	    strcmp(c->status, "Unknown"))
		return kf_err(kf, item_arg->line, "%s: status \"%s\" is not True, False or Unknown",
			      kf->path, c->status);
	return 0;
}

static const struct kf_list pg_cond_list = {
	.what = "a condition", .fields = pg_cond_fields, .nr_fields = ARRAY_SIZE(pg_cond_fields),
	.size = sizeof(struct pg_cond_in), .done = pg_cond_done,
};
static KF_LIST_PARSER(p_pg_conds, pg_cond_list)

struct pg_status_in {
	u64 seen;
	enum vs_pg_phase phase;
	struct kf_items conds;
};

static const struct kf_field pg_status_fields[] = {
	KF_FIELD("phase", kf_pg_phase, struct pg_status_in, phase),
	KF_FIELD("conditions", p_pg_conds, struct pg_status_in, conds),
	KF_OPEN,
};

/*
 * The conditions of types vsched keeps, in the scratch arena; -ENOMEM.
 * Beyond the protocol's bounds (Kubernetes' for a condition), a message is
 * cut at a character's start; a condition with a longer reason or
 * transitionID is left out: the PodGroup itself is not refused for it.
 */
static int pg_conditions(struct build *b, const struct kf_items *in, struct vs_job_spec *spec)
{
	const struct pg_cond_in *c = in->v;
	struct vs_pg_condition_spec *out;

	if (!in->nr)
		return 0;
	out = vs_arena_calloc(&b->kf.scratch, in->nr, sizeof(*out));
	if (!out)
		return kf_oom(&b->kf);
	for (u32 i = 0; i < in->nr; i++) {
		struct vs_pg_condition_spec *o = &out[spec->nr_cond];

		if (!strcmp(c[i].type, "Unschedulable"))
			o->type = VS_PG_COND_UNSCHEDULABLE;
		else if (!strcmp(c[i].type, "Scheduled"))
			o->type = VS_PG_COND_SCHEDULED;
		else
			continue;
		if ((c[i].reason && strlen(c[i].reason) >= VS_COND_REASON_MAX) ||
		    (c[i].id && strlen(c[i].id) >= VS_COND_ID_MAX))
			continue;
		o->status = c[i].status && !strcmp(c[i].status, "True");
		o->reason = c[i].reason;
		o->message = c[i].message;
		if (c[i].message && strlen(c[i].message) >= VS_COND_MESSAGE_MAX) {
			size_t n = VS_COND_MESSAGE_MAX - 1;
			char *cut;

			while (n && ((unsigned char)c[i].message[n] & 0xc0) == 0x80)
				n--;
			cut = vs_arena_alloc(&b->kf.scratch, n + 1);
			if (!cut)
				return kf_oom(&b->kf);
			memcpy(cut, c[i].message, n);
			cut[n] = '\0';
			o->message = cut;
		}
		o->transition_id = c[i].id;
		o->time = c[i].time;
		spec->nr_cond++;
	}
	spec->cond = out;
	return 0;
}

static KF_NESTED_SEEN(p_pg_status, pg_status_fields, struct pg_status_in)

struct pg_in {
	struct meta_in meta;
	struct pg_spec_in spec;
	struct pg_status_in status;
};

static const struct kf_field pg_fields[] = {
	TOP_FIELDS(struct pg_in, p_pg_spec, p_pg_status),
};

static int build_podgroup(struct build *b, struct mf_doc *doc)
{
	struct vs_job_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_job *pg;
	struct mf_obj *o;
	struct pg_in in;
	int ret;

	memset(&in, 0, sizeof(in));
	ret = walk_doc(b, doc, pg_fields, ARRAY_SIZE(pg_fields), &in, &in.meta);
	if (ret)
		return ret;
	vs_job_spec_init(&spec, doc_ns(&in.meta), in.meta.name);
	/* the CRD has no default: a PodGroup without minMember has 0 */
	spec.min_member = in.spec.min_member;
	spec.min_task_member = in.spec.mins.v;
	spec.nr_min_task_member = in.spec.mins.nr;
	spec.min_resources = in.spec.min_resources;
	spec.has_min_resources = HAS(pg_spec_fields, in.spec.seen, "minResources");
	spec.queue = in.spec.queue;
	spec.priority_class = in.spec.class;
	spec.created = in.meta.created;
	if (HAS(pg_status_fields, in.status.seen, "phase"))
		spec.phase = in.status.phase;
	ret = pg_conditions(b, &in.status.conds, &spec);
	if (ret)
		return ret;
	if (vs_job_add(&b->set->cl, &spec, &pg, &e))
		return core_err(b, doc, &e);
	ret = add_obj(b, MF_PODGROUP, doc, pg, pg->ns, pg->name, &o);
	if (!ret)
		o->has_status = HAS(pg_status_fields, in.status.seen, "phase");
	return ret;
}

/* ---- queues ---- */

struct guarantee_in {
	struct vs_res resource;
};

static const struct kf_field guarantee_fields[] = {
	KF_FIELD("resource", kf_res, struct guarantee_in, resource),
};

static KF_NESTED(p_guarantee, guarantee_fields)

struct queue_spec_in {
	u64 seen;
	u32 weight;
	struct vs_res capability, deserved;
	struct guarantee_in guarantee;
	bool reclaimable;
	s32 priority;
	const char *parent;
};

static const struct kf_field queue_spec_fields[] = {
	KF_FIELD("weight", p_count, struct queue_spec_in, weight),
	KF_FIELD("capability", kf_res, struct queue_spec_in, capability),
	KF_FIELD("guarantee", p_guarantee, struct queue_spec_in, guarantee),
	KF_FIELD("deserved", kf_res, struct queue_spec_in, deserved),
	KF_FIELD("reclaimable", kf_bool, struct queue_spec_in, reclaimable),
	KF_FIELD("priority", kf_s32, struct queue_spec_in, priority),
	KF_FIELD("parent", kf_str, struct queue_spec_in, parent),
	KF_OPEN,
};

static KF_NESTED_SEEN(p_queue_spec, queue_spec_fields, struct queue_spec_in)

struct queue_status_in {
	u64 seen;
	enum vs_queue_state state;
};

static const struct kf_field queue_status_fields[] = {
	KF_FIELD("state", kf_queue_state, struct queue_status_in, state),
	KF_OPEN,
};

static KF_NESTED_SEEN(p_queue_status, queue_status_fields, struct queue_status_in)

struct queue_in {
	struct meta_in meta;
	struct queue_spec_in spec;
	struct queue_status_in status;
};

static const struct kf_field queue_fields[] = {
	TOP_FIELDS(struct queue_in, p_queue_spec, p_queue_status),
};

static int build_queue(struct build *b, struct mf_doc *doc)
{
	struct vs_queue_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_queue *q;
	struct queue_in in;
	struct mf_obj *o;
	u64 seen;
	int ret;

	memset(&in, 0, sizeof(in));
	ret = walk_doc(b, doc, queue_fields, ARRAY_SIZE(queue_fields), &in, &in.meta);
	if (ret)
		return ret;
	seen = in.spec.seen;
	vs_queue_spec_init(&spec, in.meta.name);
	spec.created = in.meta.created;
	/* Volcano's admission webhook: weight 0 becomes 1, reclaimable defaults to true */
	if (in.spec.weight)
		spec.weight = in.spec.weight;
	if (HAS(queue_spec_fields, seen, "reclaimable"))
		spec.reclaimable = in.spec.reclaimable;
	spec.capability = in.spec.capability;
	spec.has_capability = HAS(queue_spec_fields, seen, "capability");
	spec.deserved = in.spec.deserved;
	spec.has_deserved = HAS(queue_spec_fields, seen, "deserved");
	spec.guarantee = in.spec.guarantee.resource;
	spec.priority = in.spec.priority;
	spec.parent = in.spec.parent;
	if (HAS(queue_status_fields, in.status.seen, "state"))
		spec.state = in.status.state;
	if (vs_queue_add(&b->set->cl, &spec, &q, &e))
		return core_err(b, doc, &e);
	ret = add_obj(b, MF_QUEUE, doc, q, NULL, q->name, &o);
	if (!ret)
		o->has_status = HAS(queue_status_fields, in.status.seen, "state");
	return ret;
}

/* ---- nodes ---- */

struct cond_in {
	const char *type, *status;
};

static const struct kf_field cond_fields[] = {
	KF_FIELD("type", kf_str, struct cond_in, type),
	KF_FIELD("status", kf_str, struct cond_in, status),
	KF_OPEN,
};

static const struct kf_list cond_list = {
	.what = "a condition", .fields = cond_fields, .nr_fields = ARRAY_SIZE(cond_fields),
	.size = sizeof(struct cond_in),
};
static KF_LIST_PARSER(p_conds, cond_list)

struct node_spec_in {
	struct kf_items taints;
	bool unschedulable;
};

static const struct kf_field node_spec_fields[] = {
	KF_FIELD("taints", kf_taints, struct node_spec_in, taints),
	KF_FIELD("unschedulable", kf_bool, struct node_spec_in, unschedulable),
	KF_OPEN,
};

static KF_NESTED(p_node_spec, node_spec_fields)

struct node_status_in {
	u64 seen;
	struct vs_res allocatable, capacity;
	struct kf_items conds;
};

static const struct kf_field node_status_fields[] = {
	KF_FIELD("allocatable", kf_res, struct node_status_in, allocatable),
	KF_FIELD("capacity", kf_res, struct node_status_in, capacity),
	KF_FIELD("conditions", p_conds, struct node_status_in, conds),
	KF_OPEN,
};

static KF_NESTED_SEEN(p_node_status, node_status_fields, struct node_status_in)

struct node_in {
	struct meta_in meta;
	struct node_spec_in spec;
	struct node_status_in status;
};

static const struct kf_field node_fields[] = {
	TOP_FIELDS(struct node_in, p_node_spec, p_node_status),
};

/* Volcano's NodeInfo: a Ready condition that is not True makes the node NotReady. */
static int node_ready(struct build *b, struct mf_doc *doc, const struct node_in *in, bool *ready)
{
	for (u32 i = 0; i < in->status.conds.nr; i++) {
		const struct cond_in *c = &((const struct cond_in *)in->status.conds.v)[i];

		if (!c->type || strcmp(c->type, "Ready"))
			continue;
		if (!c->status || (strcmp(c->status, "True") && strcmp(c->status, "False") &&
				   strcmp(c->status, "Unknown")))
			return kf_err(&b->kf, doc->line, "status.conditions[%u].status: \"%s\" is "
				      "not True, False or Unknown", i, c->status ? c->status : "");
		*ready = !strcmp(c->status, "True");
	}
	return 0;
}

static int build_node(struct build *b, struct mf_doc *doc)
{
	struct vs_node_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_node *node;
	struct node_in in;
	int ret;

	memset(&in, 0, sizeof(in));
	ret = walk_doc(b, doc, node_fields, ARRAY_SIZE(node_fields), &in, &in.meta);
	if (ret)
		return ret;
	vs_node_spec_init(&spec, in.meta.name);
	ret = node_ready(b, doc, &in, &spec.ready);
	if (ret)
		return ret;
	/* allocatable, as Volcano reads it; a hand-written node may give only its capacity */
	if (HAS(node_status_fields, in.status.seen, "allocatable"))
		spec.allocatable = in.status.allocatable;
	else if (HAS(node_status_fields, in.status.seen, "capacity"))
		spec.allocatable = in.status.capacity;
	spec.labels = in.meta.labels.kv;
	spec.nr_labels = in.meta.labels.nr;
	spec.taints = in.spec.taints.v;
	spec.nr_taints = in.spec.taints.nr;
	spec.unschedulable = in.spec.unschedulable;
	if (vs_node_add(&b->set->cl, &spec, &node, &e))
		return core_err(b, doc, &e);
	return add_obj(b, MF_NODE, doc, node, NULL, node->name, NULL);
}

/* ---- priority classes ---- */

struct pc_in {
	u64 seen;
	struct meta_in meta;
	struct vs_prioclass_spec spec;
};

static const struct kf_field pc_fields[] = {
	KF_IGNORE("apiVersion"),
	KF_IGNORE("kind"),
	KF_FIELD("metadata", p_meta, struct pc_in, meta),
	KF_FIELD("value", kf_s32, struct pc_in, spec.value),
	KF_FIELD("globalDefault", kf_bool, struct pc_in, spec.global_default),
	KF_FIELD("preemptionPolicy", kf_preemption_policy, struct pc_in, spec.preemption_policy),
	KF_IGNORE("description"),
};

static struct mf_obj *find_obj(struct mf_set *set, enum mf_kind kind, const void *obj)
{
	for (u32 i = 0; i < set->nr_objs; i++)
		if (set->objs[i].kind == kind && set->objs[i].obj == obj)
			return &set->objs[i];
	return NULL;
}

static int build_prioclass(struct build *b, struct mf_doc *doc)
{
	struct vs_err e = { { 0 } };
	struct vs_prioclass *pc;
	struct mf_obj *twin;
	struct pc_in in;
	int ret;

	memset(&in, 0, sizeof(in));
	ret = kf_walk(&b->kf, doc->root, "a manifest", pc_fields, ARRAY_SIZE(pc_fields), &in,
		      &in.seen);
	if (!ret && (!in.meta.name || !*in.meta.name))
		ret = kf_err(&b->kf, doc->line, "metadata.name: required");
	if (!ret && !HAS(pc_fields, in.seen, "value"))
		ret = kf_err(&b->kf, doc->line, "value: required");
	if (ret)
		return ret;
	in.spec.name = in.meta.name;
	/* the daemon's class of that name is replaced; a second document is an error */
	pc = vs_prioclass_find(&b->set->cl, in.spec.name);
	twin = pc ? find_obj(b->set, MF_PRIOCLASS, pc) : NULL;
	if (twin)
		return kf_err(&b->kf, doc->line, "priority class %s is also %s", pc->name,
			      twin->doc->label);
	if (pc ? vs_prioclass_update(&b->set->cl, pc, &in.spec, &e) :
		 vs_prioclass_add(&b->set->cl, &in.spec, &pc, &e))
		return core_err(b, doc, &e);
	return add_obj(b, MF_PRIOCLASS, doc, pc, NULL, pc->name, NULL);
}

/* ---- VolcanoJobs ---- */

struct vpolicy_in {
	u64 seen;
	const char *event, *action;
	struct kf_strs events;
	s32 exit_code;
};

static const struct kf_field vpolicy_fields[] = {
	KF_FIELD("event", kf_str, struct vpolicy_in, event),
	KF_FIELD("events", kf_strs, struct vpolicy_in, events),
	KF_FIELD("action", kf_str, struct vpolicy_in, action),
	KF_FIELD("exitCode", kf_s32, struct vpolicy_in, exit_code),
	KF_FIELD("timeout", p_unsupported, struct vpolicy_in, event),
};

static int vpolicy_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct vpolicy_in *p = item;
	bool by_event = HAS(vpolicy_fields, seen, "event") || HAS(vpolicy_fields, seen, "events");

	p->seen = seen;
	if (!HAS(vpolicy_fields, seen, "action"))
		return kf_err(kf, a->line, "%s.action: required", kf->path);
	if (by_event == HAS(vpolicy_fields, seen, "exitCode"))
		return kf_err(kf, a->line, "%s: a policy takes an event (or events) or an "
			      "exitCode, one of the two", kf->path);
	return 0;
}

static const struct kf_list vpolicy_list = {
	.what = "a policy", .fields = vpolicy_fields, .nr_fields = ARRAY_SIZE(vpolicy_fields),
	.size = sizeof(struct vpolicy_in), .done = vpolicy_done,
};
static KF_LIST_PARSER(p_vpolicies, vpolicy_list)

/* A task's policies as the core's: one per event, in order. */
static int vpolicies_out(struct build *b, struct mf_doc *doc, const struct kf_items *in,
			 const char *where, const struct vs_vjob_policy **out, u32 *nr)
{
	struct vs_vjob_policy *v;
	struct vs_err e = { { 0 } };
	u32 n = 0;

	for (u32 i = 0; i < in->nr; i++) {
		const struct vpolicy_in *p = &((const struct vpolicy_in *)in->v)[i];

		n += p->events.nr + (p->event ? 1 : 0) +
		     (HAS(vpolicy_fields, p->seen, "exitCode") ? 1 : 0);
	}
	v = vs_arena_calloc(&b->kf.scratch, n + 1, sizeof(*v));
	if (!v)
		return kf_oom(&b->kf);
	*out = v;
	*nr = 0;
	for (u32 i = 0; i < in->nr; i++) {
		const struct vpolicy_in *p = &((const struct vpolicy_in *)in->v)[i];
		struct vs_vjob_policy pol = { 0 };

		if (vs_vjob_action_parse(p->action, &pol.action, &e))
			return kf_err(&b->kf, doc->line, "%s[%u].action: %s", where, i, e.msg);
		if (HAS(vpolicy_fields, p->seen, "exitCode")) {
			pol.has_exit_code = true;
			pol.exit_code = p->exit_code;
			v[(*nr)++] = pol;
			continue;
		}
		for (u32 k = 0; k < p->events.nr + (p->event ? 1 : 0); k++) {
			const char *ev = k < p->events.nr ? p->events.s[k] : p->event;

			if (vs_vjob_event_parse(ev, &pol.event, &e))
				return kf_err(&b->kf, doc->line, "%s[%u].event%s: %s", where, i,
					      k < p->events.nr ? "s" : "", e.msg);
			v[(*nr)++] = pol;
		}
	}
	return 0;
}

struct vtemplate_in {
	struct {
		struct kf_kvs labels;
	} meta;
	struct {
		struct kf_items containers, inits;
		struct vs_res overhead;
		struct kf_kvs selector;
		struct kf_items tolerations;
	} spec;
};

static const struct kf_field vtemplate_meta_fields[] = {
	KF_FIELD("labels", kf_kvs, struct vtemplate_in, meta.labels),
	KF_OPEN,
};

static const struct kf_field vtemplate_spec_fields[] = {
	KF_FIELD("containers", p_containers, struct vtemplate_in, spec.containers),
	KF_FIELD("initContainers", p_containers, struct vtemplate_in, spec.inits),
	KF_FIELD("overhead", kf_res, struct vtemplate_in, spec.overhead),
	KF_FIELD("nodeSelector", kf_kvs, struct vtemplate_in, spec.selector),
	KF_FIELD("tolerations", kf_tolerations, struct vtemplate_in, spec.tolerations),
	KF_FIELD("affinity", p_unsupported, struct vtemplate_in, spec),
	KF_FIELD("priorityClassName", p_unsupported, struct vtemplate_in, spec),
	KF_OPEN,
};

/* Both halves of the template fill the same struct, from its start. */
static KF_NESTED(p_vtemplate_meta, vtemplate_meta_fields)

static KF_NESTED(p_vtemplate_spec, vtemplate_spec_fields)

static const struct kf_field vtemplate_fields[] = {
	{ .key = "metadata", .parse = p_vtemplate_meta },
	{ .key = "spec", .parse = p_vtemplate_spec },
};

static KF_NESTED(p_vtemplate, vtemplate_fields)

struct vtask_in {
	u64 seen;
	const char *name;
	u32 replicas, min_available;
	struct vtemplate_in tmpl;
	struct kf_items policies;
};

static const struct kf_field vtask_fields[] = {
	KF_FIELD("name", kf_str, struct vtask_in, name),
	KF_FIELD("replicas", p_count, struct vtask_in, replicas),
	KF_FIELD("minAvailable", p_count, struct vtask_in, min_available),
	KF_FIELD("template", p_vtemplate, struct vtask_in, tmpl),
	KF_FIELD("policies", p_vpolicies, struct vtask_in, policies),
	KF_OPEN,
};

static int vtask_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	((struct vtask_in *)item)->seen = seen;
	return 0;
}

static const struct kf_list vtask_list = {
	.what = "a task", .fields = vtask_fields, .nr_fields = ARRAY_SIZE(vtask_fields),
	.size = sizeof(struct vtask_in), .done = vtask_done,
};
static KF_LIST_PARSER(p_vtasks, vtask_list)

struct vjob_spec_in {
	u64 seen;
	struct kf_items tasks, policies;
	u32 min_available, max_retry;
	const char *queue, *class;
};

static const struct kf_field vjob_spec_fields[] = {
	KF_FIELD("tasks", p_vtasks, struct vjob_spec_in, tasks),
	KF_FIELD("minAvailable", p_count, struct vjob_spec_in, min_available),
	KF_FIELD("queue", kf_str, struct vjob_spec_in, queue),
	KF_FIELD("priorityClassName", kf_str, struct vjob_spec_in, class),
	KF_FIELD("maxRetry", p_count, struct vjob_spec_in, max_retry),
	KF_FIELD("policies", p_vpolicies, struct vjob_spec_in, policies),
	KF_OPEN,
};

static KF_NESTED_SEEN(p_vjob_spec, vjob_spec_fields, struct vjob_spec_in)

struct vjob_in {
	struct meta_in meta;
	struct vjob_spec_in spec;
	u32 status;			/* unread: the job controller writes it */
};

static int p_ignore(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return 0;
}

static const struct kf_field vjob_fields[] = {
	TOP_FIELDS(struct vjob_in, p_vjob_spec, p_ignore),
};

static int build_vjob_task(struct build *b, struct mf_doc *doc, struct vtask_in *in, u32 idx,
			   struct vs_vjob_task_spec *t)
{
	struct vs_res init;
	bool has_init;
	char where[48];

	snprintf(where, sizeof(where), "spec.tasks[%u].policies", idx);
	memset(t, 0, sizeof(*t));
	t->name = in->name;
	t->replicas = in->replicas;
	t->min_available = in->min_available;
	t->has_min_available = HAS(vtask_fields, in->seen, "minAvailable");
	pod_request(&in->tmpl.spec.containers, &in->tmpl.spec.inits, &in->tmpl.spec.overhead,
		    &t->req, &init, &has_init);
	if (has_init)
		vs_res_set_max(&t->req, &init);
	t->labels = in->tmpl.meta.labels.kv;
	t->nr_labels = in->tmpl.meta.labels.nr;
	t->node_selector = in->tmpl.spec.selector.kv;
	t->nr_node_selector = in->tmpl.spec.selector.nr;
	t->tolerations = in->tmpl.spec.tolerations.v;
	t->nr_tolerations = in->tmpl.spec.tolerations.nr;
	return vpolicies_out(b, doc, &in->policies, where, &t->policies, &t->nr_policies);
}

static int build_vjob(struct build *b, struct mf_doc *doc)
{
	struct vs_vjob_task_spec *tasks;
	struct vs_vjob_spec spec;
	struct vs_err e = { { 0 } };
	struct vs_vjob *vjob;
	struct vjob_in in;
	int ret;

	memset(&in, 0, sizeof(in));
	ret = walk_doc(b, doc, vjob_fields, ARRAY_SIZE(vjob_fields), &in, &in.meta);
	if (ret)
		return ret;
	vs_vjob_spec_init(&spec, doc_ns(&in.meta), in.meta.name);
	tasks = vs_arena_calloc(&b->kf.scratch, in.spec.tasks.nr + 1, sizeof(*tasks));
	if (!tasks)
		return kf_oom(&b->kf);
	for (u32 i = 0; !ret && i < in.spec.tasks.nr; i++)
		ret = build_vjob_task(b, doc, &((struct vtask_in *)in.spec.tasks.v)[i], i,
				      &tasks[i]);
	if (!ret)
		ret = vpolicies_out(b, doc, &in.spec.policies, "spec.policies", &spec.policies,
				    &spec.nr_policies);
	if (ret)
		return ret;
	spec.tasks = tasks;
	spec.nr_tasks = in.spec.tasks.nr;
	spec.queue = in.spec.queue;
	spec.priority_class = in.spec.class;
	spec.min_available = in.spec.min_available;
	spec.has_min_available = HAS(vjob_spec_fields, in.spec.seen, "minAvailable");
	spec.max_retry = in.spec.max_retry;
	if (vs_vjob_add(&b->set->cl, &spec, &vjob, &e))
		return core_err(b, doc, &e);
	return add_obj(b, MF_VJOB, doc, vjob, vjob->ns, vjob->name, NULL);
}

/* ---- the kinds ---- */

static bool put_prioclass(struct nlmsghdr *nlh, size_t cap, const void *obj)
{
	return vs_nl_put_prioclass_spec(nlh, cap, obj);
}

static bool put_queue(struct nlmsghdr *nlh, size_t cap, const void *obj)
{
	return vs_nl_put_queue_spec(nlh, cap, obj);
}

static bool put_node(struct nlmsghdr *nlh, size_t cap, const void *obj)
{
	return vs_nl_put_node_spec(nlh, cap, obj);
}

static bool put_podgroup(struct nlmsghdr *nlh, size_t cap, const void *obj)
{
	return vs_nl_put_podgroup_spec(nlh, cap, obj);
}

static bool put_vjob(struct nlmsghdr *nlh, size_t cap, const void *obj)
{
	return vs_nl_put_vjob_spec(nlh, cap, obj);
}

static bool put_task(struct nlmsghdr *nlh, size_t cap, const void *obj)
{
	return vs_nl_put_task_spec(nlh, cap, obj);
}

static const struct mf_kind_info kinds[MF_NR_KINDS] = {
	[MF_PRIOCLASS] = {
		.api = "scheduling.k8s.io/v1", .kind = "PriorityClass",
		.resource = "priorityclass.scheduling.k8s.io",
		.cmd_new = VS_CMD_PRIOCLASS_NEW, .cmd_del = VS_CMD_PRIOCLASS_DEL,
		.cmd_get = VS_CMD_PRIOCLASS_GET, .attr = VS_A_PRIOCLASS, .a_name = VS_PC_A_NAME,
	},
	[MF_QUEUE] = {
		.api = "scheduling.volcano.sh/v1beta1", .kind = "Queue",
		.resource = "queue.scheduling.volcano.sh",
		.cmd_new = VS_CMD_QUEUE_NEW, .cmd_del = VS_CMD_QUEUE_DEL,
		.cmd_get = VS_CMD_QUEUE_GET, .attr = VS_A_QUEUE, .a_name = VS_QUEUE_A_NAME,
	},
	[MF_NODE] = {
		.api = "v1", .kind = "Node", .resource = "node",
		.cmd_new = VS_CMD_NODE_NEW, .cmd_del = VS_CMD_NODE_DEL,
		.cmd_get = VS_CMD_NODE_GET, .attr = VS_A_NODE, .a_name = VS_NODE_A_NAME,
	},
	[MF_PODGROUP] = {
		.api = "scheduling.volcano.sh/v1beta1", .kind = "PodGroup",
		.resource = "podgroup.scheduling.volcano.sh", .namespaced = true,
		.cmd_new = VS_CMD_PODGROUP_NEW, .cmd_del = VS_CMD_PODGROUP_DEL,
		.cmd_get = VS_CMD_PODGROUP_GET, .attr = VS_A_PODGROUP,
		.a_ns = VS_PG_A_NAMESPACE, .a_name = VS_PG_A_NAME,
	},
	[MF_VJOB] = {
		.api = "batch.volcano.sh/v1alpha1", .kind = "Job",
		.resource = "job.batch.volcano.sh", .namespaced = true,
		.cmd_new = VS_CMD_VJOB_NEW, .cmd_del = VS_CMD_VJOB_DEL,
		.cmd_get = VS_CMD_VJOB_GET, .attr = VS_A_VJOB,
		.a_ns = VS_VJOB_A_NAMESPACE, .a_name = VS_VJOB_A_NAME,
	},
	[MF_POD] = {
		.api = "v1", .kind = "Pod", .resource = "pod", .namespaced = true,
		.cmd_new = VS_CMD_TASK_NEW, .cmd_del = VS_CMD_TASK_DEL,
		.cmd_get = VS_CMD_TASK_GET, .attr = VS_A_TASK,
		.a_ns = VS_TASK_A_NAMESPACE, .a_name = VS_TASK_A_NAME,
	},
};

/* How each kind is built from its document, and written as its NEW request. */
static const struct mf_kind_ops {
	int (*build)(struct build *b, struct mf_doc *doc);
	bool (*put)(struct nlmsghdr *nlh, size_t cap, const void *obj);
} ops[MF_NR_KINDS] = {
	[MF_PRIOCLASS]	= { build_prioclass, put_prioclass },
	[MF_QUEUE]	= { build_queue, put_queue },
	[MF_NODE]	= { build_node, put_node },
	[MF_PODGROUP]	= { build_podgroup, put_podgroup },
	[MF_VJOB]	= { build_vjob, put_vjob },
	[MF_POD]	= { build_pod, put_task },
};

const struct mf_kind_info *mf_kind(enum mf_kind kind)
{
	return &kinds[kind];
}

bool mf_put_spec(const struct mf_obj *o, struct nlmsghdr *nlh, size_t cap)
{
	return o->obj && ops[o->kind].put(nlh, cap, o->obj);
}

bool mf_put_key(const struct mf_obj *o, struct nlmsghdr *nlh, size_t cap)
{
	const struct mf_kind_info *k = &kinds[o->kind];
	u32 len = nlh->nlmsg_len;
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, cap, k->attr);

	/* vs_nla_put_strz() zeroes the padding libmnl leaves as the buffer had it. */
	if (nest && (!k->a_ns || vs_nla_put_strz(nlh, cap, k->a_ns, o->ns)) &&
	    vs_nla_put_strz(nlh, cap, k->a_name, o->name)) {
		mnl_attr_nest_end(nlh, nest);
		return true;
	}
	nlh->nlmsg_len = len;
	return false;
}

void mf_obj_where(const struct mf_obj *o, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%u: %s", o->doc->file, o->doc->line, o->doc->label);
}

/* ---- the set ---- */

int mf_set_init(struct mf_set *set)
{
	memset(set, 0, sizeof(*set));
	set->scheduler = "volcano";
	return vs_cluster_init(&set->cl);
}

void mf_set_free(struct mf_set *set)
{
	for (u32 i = 0; i < set->nr_roots; i++) {
		vs_arg_free(set->roots[i]);
		free(set->roots[i]);
	}
	for (u32 i = 0; i < set->nr_files; i++)
		free(set->files[i]);
	free(set->roots);
	free(set->files);
	free(set->docs);
	free(set->objs);
	free(set->known);
	vs_cluster_destroy(&set->cl);
	memset(set, 0, sizeof(*set));
}

int mf_set_add_prioclass(struct mf_set *set, const struct vs_prioclass_spec *spec,
			 struct mf_err *err)
{
	struct vs_prioclass **known = realloc(set->known, (set->nr_known + 1) * sizeof(*known));
	struct vs_err e = { { 0 } };

	if (!known) {
		set_err(err, "out of memory");
		return -ENOMEM;
	}
	set->known = known;
	if (vs_prioclass_add(&set->cl, spec, &known[set->nr_known], &e)) {
		set_err(err, "vschedd's %s", e.msg);
		return -EINVAL;
	}
	set->nr_known++;
	return 0;
}

/*
 * Forget the objects a document that failed made (from @from on): the
 * PodGroup made for a pod that was refused goes from the private cluster
 * too, so that the next pod of the same owner makes it again.
 */
static void drop_objs(struct mf_set *set, u32 from)
{
	struct vs_err e = { { 0 } };

	for (u32 i = from; i < set->nr_objs; i++) {
		struct mf_obj *o = &set->objs[i];

		if (o->kind == MF_PODGROUP && o->implicit && o->obj)
			vs_job_del(&set->cl, o->obj, &e);
	}
	set->nr_objs = from;
}

int mf_set_build(struct mf_set *set, struct mf_err *err)
{
	struct build b = {
		.set = set,
		.kf = { .msg = err->msg, .msg_size = sizeof(err->msg), .paths = true,
			.dims = &set->cl.dims },
	};
	struct mf_obj *sorted;
	u32 n = 0, from;
	int ret = 0;

	vs_arena_init(&b.kf.scratch, 0);
	for (int k = 0; !ret && k < MF_NR_KINDS; k++) {
		for (u32 i = 0; !ret && i < set->nr_docs; i++) {
			struct mf_doc *doc = &set->docs[i];

			if (doc->kind != (enum mf_kind)k)
				continue;
			b.kf.file = doc->file;
			b.kf.doc = doc->label;
			kf_pop(&b.kf, 0);
			from = set->nr_objs;
			ret = ops[k].build(&b, doc);
			vs_arena_reset(&b.kf.scratch);
			if (ret && ret != -ENOMEM && set->keep_going) {
				drop_objs(set, from);
				set->refused(set->warn_arg, doc, err->msg);
				err->msg[0] = '\0';
				ret = 0;
			}
		}
	}
	vs_arena_destroy(&b.kf.scratch);
	if (ret || !set->nr_objs)
		return ret;
	/* by kind, else in the order they were made: a pod's own PodGroup joins the others */
	sorted = malloc(set->nr_objs * sizeof(*sorted));
	if (!sorted) {
		set_err(err, "out of memory");
		return -ENOMEM;
	}
	for (int k = 0; k < MF_NR_KINDS; k++)
		for (u32 i = 0; i < set->nr_objs; i++)
			if (set->objs[i].kind == (enum mf_kind)k)
				sorted[n++] = set->objs[i];
	free(set->objs);
	set->objs = sorted;
	set->cap_objs = set->nr_objs;
	return 0;
}

/* ---- documents ---- */

static void shift_lines(struct vs_arg *a, u32 delta)
{
	a->line += delta;
	if (a->type == VS_ARG_MAP) {
		for (u32 i = 0; i < a->map->nr; i++) {
			a->map->kv[i].line += delta;
			shift_lines(&a->map->kv[i].val, delta);
		}
	} else if (a->type == VS_ARG_SEQ) {
		for (u32 i = 0; i < a->seq.nr; i++)
			shift_lines(&a->seq.items[i], delta);
	}
}

/*
 * Parse the document at [@start, @end) of @text, which begins on @line:
 * alone, its lines shifted after. An error is found again with the
 * document where it stands (the lines before it blank), for its message.
 */
static int parse_doc(const char *file, const char *text, size_t start, size_t end, u32 line,
		     struct vs_arg *out, struct mf_err *err)
{
	struct vs_err e = { { 0 } };
	char *padded;
	int ret;

	ret = vs_yaml_parse(text + start, end - start, file, out, &e);
	if (!ret) {
		shift_lines(out, line - 1);
		return 0;
	}
	vs_arg_free(out);
	padded = malloc(line - 1 + end - start);
	if (!padded) {
		set_err(err, "%s: out of memory", file);
		return -ENOMEM;
	}
	memset(padded, '\n', line - 1);
	memcpy(padded + line - 1, text + start, end - start);
	memset(&e, 0, sizeof(e));
	ret = vs_yaml_parse(padded, line - 1 + end - start, file, out, &e);
	vs_arg_free(out);
	free(padded);
	set_err(err, "%s", e.msg[0] ? e.msg : "malformed YAML");
	return ret ? ret : -EINVAL;
}

struct span {
	size_t start;
	u32 line;
};

/*
 * libyaml's marks count characters, not bytes, from after a UTF-8 byte
 * order mark (which it skips uncounted): a walk through @text that turns
 * them into byte offsets, on from where it last stopped.
 */
struct cursor {
	size_t chars, bytes;
};

static void cursor_init(struct cursor *c, const char *text, size_t len)
{
	c->chars = 0;
	c->bytes = len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0;
}

/* The byte offset of character @chars: libyaml has read the text up to it as UTF-8. */
static size_t byte_at(struct cursor *c, const char *text, size_t len, size_t chars)
{
	if (chars < c->chars)
		cursor_init(c, text, len);
	while (c->chars < chars && c->bytes < len) {
		unsigned char b = (unsigned char)text[c->bytes];
		size_t w = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;

		c->bytes += w < len - c->bytes ? w : len - c->bytes;
		c->chars++;
	}
	return c->bytes;
}

/*
 * Where each document of @text starts, by libyaml's events. A syntax error
 * stops the walk with the documents found so far and *@broken set: the last
 * of them holds the error. So does a collection opened deeper than
 * vs_yaml_parse() reads, as it opens: libyaml's scanner takes time
 * quadratic in the depth of flow collections, and a walk to the end of a
 * file nested 200,000 levels deep would take minutes before the document's
 * reader refused it.
 */
static int find_docs(const char *text, size_t len, struct span **out, u32 *nr, bool *broken)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	struct span *v = NULL;
	struct cursor cur;
	u32 n = 0, cap = 0, depth = 0;
	int ret = 0;

	*broken = false;
	cursor_init(&cur, text, len);
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	for (;;) {
		bool end;

		if (!yaml_parser_parse(&parser, &ev)) {
			*broken = true;
			break;
		}
		if (ev.type == YAML_DOCUMENT_START_EVENT) {
			if (n == cap) {
				struct span *bigger;

				cap = cap ? 2 * cap : 16;
				bigger = realloc(v, cap * sizeof(*v));
				if (!bigger) {
					yaml_event_delete(&ev);
					ret = -ENOMEM;
					break;
				}
				v = bigger;
			}
			/* the start of its line: libyaml's own line breaks, \r and NEL too */
			v[n].start = byte_at(&cur, text, len,
					     ev.start_mark.index - ev.start_mark.column);
			v[n].line = (u32)ev.start_mark.line + 1;
			n++;
		}
		if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT)
			depth++;
		else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)
			depth--;
		end = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		if (depth > VS_YAML_DEPTH_MAX) {
			/* the document's reader says so, with its line */
			*broken = true;
			break;
		}
		if (end)
			break;
	}
	yaml_parser_delete(&parser);
	if (ret) {
		free(v);
		return ret;
	}
	*out = v;
	*nr = n;
	return 0;
}

static const char *str_at(const struct vs_arg *map, const char *key, const struct vs_arg **v)
{
	*v = map->type == VS_ARG_MAP ? vs_args_find(map->map, key) : NULL;
	return *v && (*v)->type == VS_ARG_STRING ? (*v)->s : NULL;
}

static struct mf_doc *new_doc(struct mf_set *set)
{
	struct mf_doc *d;

	if (set->nr_docs == set->cap_docs) {
		u32 cap = set->cap_docs ? 2 * set->cap_docs : 64;

		d = realloc(set->docs, cap * sizeof(*d));
		if (!d)
			return NULL;
		set->docs = d;
		set->cap_docs = cap;
	}
	d = &set->docs[set->nr_docs++];
	memset(d, 0, sizeof(*d));
	return d;
}

/*
 * What the document @root is: its kind among those taken (a List's items
 * each on their own), and its name for messages.
 */
static int classify(struct mf_set *set, const char *file, u32 index, u32 item,
		    struct vs_arg *root, struct mf_err *err)
{
	struct kf kf = { .file = file, .msg = err->msg, .msg_size = sizeof(err->msg),
			 .paths = true, .dims = &set->cl.dims };
	const struct vs_arg *v, *meta;
	const char *api, *kind, *name, *ns;
	char label[64];
	struct mf_doc *doc;
	int k;

	if (item)
		snprintf(label, sizeof(label), "document %u items[%u]", index, item - 1);
	else
		snprintf(label, sizeof(label), "document %u", index);
	kf.doc = label;
	if (root->type != VS_ARG_MAP)
		return kf_err(&kf, root->line, "a manifest must be a mapping, not %s",
			      kf_type_name(root));
	api = str_at(root, "apiVersion", &v);
	if (!api)
		return kf_err(&kf, v ? v->line : root->line, "apiVersion: %s", v ?
			      "must be a string" : "required");
	kind = str_at(root, "kind", &v);
	if (!kind)
		return kf_err(&kf, v ? v->line : root->line, "kind: %s", v ?
			      "must be a string" : "required");
	if (!strcmp(api, "v1") && !strcmp(kind, "List") && !item) {
		v = vs_args_find(root->map, "items");
		if (!v || v->type != VS_ARG_SEQ)
			return kf_err(&kf, v ? v->line : root->line, "items: %s", v ?
				      "must be a list" : "required");
		for (u32 i = 0; i < v->seq.nr; i++) {
			int ret = classify(set, file, index, i + 1, &v->seq.items[i], err);

			if (ret)
				return ret;
		}
		return 0;
	}
	for (k = 0; k < MF_NR_KINDS; k++)
		if (!strcmp(kinds[k].kind, kind))
			break;
	if (k == MF_NR_KINDS)
		return kf_err(&kf, root->line, "kind %s (%s) is not one vsctl apply takes: "
			      "PriorityClass, Queue, Node, PodGroup, Job, Pod, List", kind, api);
	if (strcmp(kinds[k].api, api))
		return kf_err(&kf, root->line, "apiVersion %s: vsctl apply takes %s of %s", api,
			      kind, kinds[k].api);
	doc = new_doc(set);
	if (!doc)
		return kf_oom(&kf);
	meta = vs_args_find(root->map, "metadata");
	name = meta ? str_at(meta, "name", &v) : NULL;
	ns = meta ? str_at(meta, "namespace", &v) : NULL;
	*doc = (struct mf_doc){
		.file = file, .index = index, .item = item, .line = root->line,
		.kind = (enum mf_kind)k, .name = name, .root = root,
		.ns = !kinds[k].namespaced ? NULL : ns && *ns ? ns : MF_DEFAULT_NS,
	};
	snprintf(doc->label, sizeof(doc->label), "%s (%s%s%s%s%s)", label, kind,
		 name ? " " : "", doc->ns && name ? doc->ns : "", doc->ns && name ? "/" : "",
		 name ? name : "");
	return 0;
}

static int keep(struct mf_set *set, void **arr, u32 nr, size_t size, struct mf_err *err)
{
	void *bigger = realloc(*arr, (nr + 1) * size);

	if (!bigger) {
		set_err(err, "out of memory");
		return -ENOMEM;
	}
	*arr = bigger;
	return 0;
}

int mf_set_parse(struct mf_set *set, const char *file, const char *text, size_t len,
		 struct mf_err *err)
{
	struct span *docs = NULL;
	u32 nr = 0;
	bool broken;
	char *name;
	int ret;

	ret = keep(set, (void **)&set->files, set->nr_files, sizeof(*set->files), err);
	if (ret)
		return ret;
	name = strdup(file);
	if (!name) {
		set_err(err, "out of memory");
		return -ENOMEM;
	}
	set->files[set->nr_files++] = name;
	ret = find_docs(text, len, &docs, &nr, &broken);
	if (ret) {
		set_err(err, "%s: out of memory", file);
		return ret;
	}
	if (broken) {
		/* the reader says what and where, on the document that holds the error */
		struct vs_arg root;
		size_t start = nr ? docs[nr - 1].start : 0;

		ret = parse_doc(name, text, start, len, nr ? docs[nr - 1].line : 1, &root, err);
		vs_arg_free(&root);
		free(docs);
		if (!ret)
			set_err(err, "%s: malformed YAML", file);
		return ret ? ret : -EINVAL;
	}
	for (u32 i = 0; !ret && i < nr; i++) {
		size_t end = i + 1 < nr ? docs[i + 1].start : len;
		struct vs_arg *root = calloc(1, sizeof(*root));

		ret = root ? keep(set, (void **)&set->roots, set->nr_roots, sizeof(*set->roots),
				  err) : -ENOMEM;
		if (ret) {
			free(root);
			set_err(err, "out of memory");
			break;
		}
		set->roots[set->nr_roots++] = root;
		ret = parse_doc(name, text, docs[i].start, end, docs[i].line, root, err);
		if (!ret && root->type != VS_ARG_NULL)
			ret = classify(set, name, i + 1, 0, root, err);
	}
	free(docs);
	return ret;
}

int mf_set_add(struct mf_set *set, const char *source, struct vs_arg *root, struct mf_err *err)
{
	char *name;
	int ret;

	ret = keep(set, (void **)&set->files, set->nr_files, sizeof(*set->files), err) ?:
	      keep(set, (void **)&set->roots, set->nr_roots, sizeof(*set->roots), err);
	name = ret ? NULL : strdup(source);
	if (!name) {
		vs_arg_free(root);
		free(root);
		set_err(err, "out of memory");
		return -ENOMEM;
	}
	set->files[set->nr_files++] = name;
	set->roots[set->nr_roots++] = root;
	return classify(set, name, 1, 0, root, err);
}

int mf_set_read(struct mf_set *set, const char *path, struct mf_err *err)
{
	struct vs_err e = { { 0 } };
	char *text = NULL;
	size_t len = 0;
	int ret;

	ret = vs_read_file(path, MF_FILE_MAX, &text, &len, &e);
	if (ret) {
		set_err(err, "%s", e.msg);
		return ret;
	}
	ret = mf_set_parse(set, strcmp(path, "-") ? path : "stdin", text, len, err);
	free(text);
	return ret;
}

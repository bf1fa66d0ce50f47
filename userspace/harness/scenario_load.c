// SPDX-License-Identifier: Apache-2.0
/*
 * Reading a scenario file into a fresh core. This file owns the scenario
 * format's schema: which keys each object takes, how their values are
 * typed, and how they become the core's specs (vs_*_spec_init(),
 * vs_*_add()), the configuration and the expectations.
 *
 * The YAML goes through the configuration loader's own reader
 * (vs_yaml_parse(): the same refusals, every value with its line), so that a
 * scenario and a volcano-scheduler.conf are read by one set of rules. Every
 * object is a mapping walked against a table of its keys; an unknown key, a
 * value of the wrong type, a bad quantity or enum, a duplicate name or a
 * reference to something not listed is refused with "FILE:LINE: ..." naming
 * the key. Specs are built in a scratch arena that is reset after each
 * object: the core copies (interns) everything it keeps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/file.h"
#include "harness/scenario.h"
#include "harness/kfields.h"
#include "registry/builtin.h"
#include "sched/framework.h"

#define SCN_FILE_MAX	(4u << 20)
#define SCN_CYCLES_MAX	1000

struct ld {
	struct kf kf;			/* the walk: file, errors, scratch arena */
	struct scenario *scn;
	const char *file;
	const char *text;		/* the file, for the conf: block's position */
	size_t len;
	struct vs_err *err;
	const struct vs_arg *missing_queues;	/* missingQueues:, a list of strings, or NULL */
};

__printf(3, 4)
static int lerr(struct ld *ld, u32 line, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vs_err_vat(ld->err, EINVAL, ld->file, line, fmt, ap);
	va_end(ap);
	return ret;
}

static int loom(struct ld *ld)
{
	return vs_err_set(ld->err, ENOMEM, "%s: out of memory", ld->file);
}

/* ---- entries ---- */

int scn_set_add(struct scn_set *set, const char *key, const char *val, double score, u32 line)
{
	struct scn_entry *e;

	if (set->nr == set->cap) {
		u32 cap = set->cap ? 2 * set->cap : 8;

		e = realloc(set->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		set->e = e;
		set->cap = cap;
	}
	e = &set->e[set->nr];
	*e = (struct scn_entry){ .score = score, .line = line };
	e->key = strdup(key);
	e->val = val ? strdup(val) : NULL;
	if (!e->key || (val && !e->val)) {
		free(e->key);
		free(e->val);
		return -ENOMEM;
	}
	set->nr++;
	return 0;
}

void scn_set_free(struct scn_set *set)
{
	for (u32 i = 0; i < set->nr; i++) {
		free(set->e[i].key);
		free(set->e[i].val);
	}
	free(set->e);
	*set = (struct scn_set){ 0 };
}

static const char *const key_names[SCN_NR_KEYS] = {
	[SCN_BINDS]		= "binds",
	[SCN_BIND_COUNT]	= "bindCount",
	[SCN_EVICTS]		= "evicts",
	[SCN_EVICT_COUNT]	= "evictCount",
	[SCN_PIPELINED]		= "pipelined",
	[SCN_PHASES]		= "podgroupPhase",
	[SCN_SCORES]		= "nodeScores",
	[SCN_EXPLAIN]		= "explain",
	[SCN_HYPERNODES]	= "hypernodes",
};

const char *scn_key_name(enum scn_key key)
{
	return (unsigned int)key < SCN_NR_KEYS ? key_names[key] : "?";
}

/* "node n1", or "nodes[2]" when it has no name yet: what messages call an object. */
static const char *obj_name(struct ld *ld, struct vs_arg *map, const char *kind,
			    const char *list, u32 idx)
{
	const struct vs_arg *name = map->type == VS_ARG_MAP ? vs_args_find(map->map, "name") : NULL;
	char buf[160];

	if (name && name->type == VS_ARG_STRING)
		snprintf(buf, sizeof(buf), "%s %s", kind, name->s);
	else
		snprintf(buf, sizeof(buf), "%s[%u]", list, idx);
	return vs_arena_strdup(&ld->kf.scratch, buf);
}

/* ---- the objects ---- */

/* Add each item of the list @kv (NULL: none) with @add, in file order. */
static int add_each(struct ld *ld, struct vs_arg_kv *kv,
		    int (*add)(struct ld *ld, struct vs_arg *item, u32 idx, const char *list))
{
	int ret;

	if (!kv || kv->val.type == VS_ARG_NULL)
		return 0;
	ret = kf_want(&ld->kf, kv, VS_ARG_SEQ, "a list");
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		ret = add(ld, &kv->val.seq.items[i], i, kv->key);
		vs_arena_reset(&ld->kf.scratch);
	}
	return ret;
}

/* Report a refusal of the core (whose message names the object) at the object's line. */
static int core_err(struct ld *ld, u32 line, const struct vs_err *e)
{
	return lerr(ld, line, "%s", e->msg);
}

static int need_name(struct ld *ld, struct vs_arg *item, const char *what, const char *name)
{
	if (name && *name)
		return 0;
	return lerr(ld, item->line, "%s has no name", what);
}

struct prioclass_in {
	struct vs_prioclass_spec spec;
};

static const struct kf_field prioclass_fields[] = {
	KF_FIELD("name", kf_str, struct prioclass_in, spec.name),
	KF_FIELD("value", kf_s32, struct prioclass_in, spec.value),
	KF_FIELD("globalDefault", kf_bool, struct prioclass_in, spec.global_default),
	KF_FIELD("preemptionPolicy", kf_preemption_policy, struct prioclass_in, spec.preemption_policy),
};

static int add_prioclass(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "priority class", list, idx);
	struct prioclass_in in = { { 0 } };
	struct vs_err e = { { 0 } };
	int ret;

	ret = kf_walk(&ld->kf, item, what, prioclass_fields, ARRAY_SIZE(prioclass_fields), &in, NULL) ?:
	      need_name(ld, item, what, in.spec.name);
	if (ret)
		return ret;
	if (vs_prioclass_add(&ld->scn->cl, &in.spec, NULL, &e))
		return core_err(ld, item->line, &e);
	return 0;
}

struct queue_in {
	struct vs_queue_spec spec;
	const char *name;
};

static const struct kf_field queue_fields[] = {
	KF_FIELD("name", kf_str, struct queue_in, name),
	KF_FIELD("weight", kf_u32, struct queue_in, spec.weight),
	KF_FIELD("capability", kf_res, struct queue_in, spec.capability),
	KF_FIELD("guarantee", kf_res, struct queue_in, spec.guarantee),
	KF_FIELD("deserved", kf_res, struct queue_in, spec.deserved),
	KF_FIELD("reclaimable", kf_bool, struct queue_in, spec.reclaimable),
	KF_FIELD("priority", kf_s32, struct queue_in, spec.priority),
	KF_FIELD("state", kf_queue_state, struct queue_in, spec.state),
	KF_FIELD("parent", kf_str, struct queue_in, spec.parent),
};

static int add_queue(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "queue", list, idx);
	struct queue_in in;
	struct vs_err e = { { 0 } };
	u64 seen = 0;
	int ret;

	memset(&in, 0, sizeof(in));
	vs_queue_spec_init(&in.spec, NULL);
	ret = kf_walk(&ld->kf, item, what, queue_fields, ARRAY_SIZE(queue_fields), &in, &seen) ?:
	      need_name(ld, item, what, in.name);
	if (ret)
		return ret;
	in.spec.name = in.name;
	in.spec.has_capability = seen & (1u << 2);
	in.spec.has_deserved = seen & (1u << 4);
	if (vs_queue_add(&ld->scn->cl, &in.spec, NULL, &e))
		return core_err(ld, item->line, &e);
	return 0;
}

struct node_in {
	struct vs_node_spec spec;
	const char *name;
	struct kf_kvs labels;
	struct kf_items taints, images;
};

static const struct kf_field node_fields[] = {
	KF_FIELD("name", kf_str, struct node_in, name),
	KF_FIELD("allocatable", kf_res, struct node_in, spec.allocatable),
	KF_FIELD("labels", kf_kvs, struct node_in, labels),
	KF_FIELD("taints", kf_taints, struct node_in, taints),
	KF_FIELD("unschedulable", kf_bool, struct node_in, spec.unschedulable),
	KF_FIELD("ready", kf_bool, struct node_in, spec.ready),
	KF_FIELD("images", kf_node_images, struct node_in, images),
};

static int add_node(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "node", list, idx);
	struct node_in in;
	struct vs_err e = { { 0 } };
	int ret;

	memset(&in, 0, sizeof(in));
	vs_node_spec_init(&in.spec, NULL);
	ret = kf_walk(&ld->kf, item, what, node_fields, ARRAY_SIZE(node_fields), &in, NULL) ?:
	      need_name(ld, item, what, in.name);
	if (ret)
		return ret;
	in.spec.name = in.name;
	in.spec.labels = in.labels.kv;
	in.spec.nr_labels = in.labels.nr;
	in.spec.taints = in.taints.v;
	in.spec.nr_taints = in.taints.nr;
	ret = kf_image_specs(&ld->kf, &in.images, &in.spec.images, &in.spec.nr_images);
	if (ret)
		return ret;
	if (vs_node_add(&ld->scn->cl, &in.spec, NULL, &e))
		return core_err(ld, item->line, &e);
	return 0;
}

/*
 * HyperNodes: the object's name and spec keys at one level, as every object
 * of the format has them (tier, tierName, members), and each member in
 * Kubernetes' own shape: {type: Node|HyperNode, selector: {exactMatch:
 * {name}, regexMatch: {pattern}, labelMatch: {matchLabels}}}, exactly one
 * selector. The core says the rest (names, patterns, labels, the tree).
 */
struct hn_member_in {
	struct vs_hn_member_spec spec;
	struct kf_kvs labels;
	u32 nr_sel;			/* selectors written: exactly one is kept */
};

static const char *const hn_member_types[] = {
	[VS_HN_MEMBER_NODE] = "Node",
	[VS_HN_MEMBER_HYPERNODE] = "HyperNode",
};

static int p_hn_type(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	enum vs_hn_member_type *type = slot;
	int ret = kf_want(kf, kv, VS_ARG_STRING, "a string");

	if (ret)
		return ret;
	for (u32 i = 0; i < ARRAY_SIZE(hn_member_types); i++) {
		if (!strcmp(kv->val.s, hn_member_types[i])) {
			*type = (enum vs_hn_member_type)i;
			return 0;
		}
	}
	return kf_err(kf, kv->line, "%s: unknown member type \"%s\" (one of: Node, HyperNode)",
		      kf_name(kf, kv), kv->val.s);
}

static int p_hn_match_exprs(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	if (kv->val.type == VS_ARG_SEQ && !kv->val.seq.nr)
		return 0;
	return kf_err(kf, kv->line, "%s: not supported: select the members by matchLabels, "
		      "a name or a pattern", kf_name(kf, kv));
}

static const struct kf_field hn_exact_fields[] = {
	KF_FIELD("name", kf_str, struct hn_member_in, spec.name),
};

static const struct kf_field hn_regex_fields[] = {
	KF_FIELD("pattern", kf_str, struct hn_member_in, spec.name),
};

static const struct kf_field hn_label_fields[] = {
	KF_FIELD("matchLabels", kf_kvs, struct hn_member_in, labels),
	KF_FIELD("matchExpressions", p_hn_match_exprs, struct hn_member_in, labels),
};

/* One selector of a member: counted, and walked into the member. */
static int hn_selector(struct kf *kf, struct vs_arg_kv *kv, void *slot, enum vs_hn_selector sel,
		       const struct kf_field *fields, u32 nr)
{
	struct hn_member_in *in = slot;

	in->spec.sel = sel;
	in->nr_sel++;
	return kf_walk_kv(kf, kv, fields, nr, in, NULL);
}

static int p_hn_exact(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return hn_selector(kf, kv, slot, VS_HN_EXACT, hn_exact_fields,
			   ARRAY_SIZE(hn_exact_fields));
}

static int p_hn_regex(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return hn_selector(kf, kv, slot, VS_HN_REGEX, hn_regex_fields,
			   ARRAY_SIZE(hn_regex_fields));
}

static int p_hn_label(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	return hn_selector(kf, kv, slot, VS_HN_LABEL, hn_label_fields,
			   ARRAY_SIZE(hn_label_fields));
}

static const struct kf_field hn_selector_fields[] = {
	KF_FIELD("exactMatch", p_hn_exact, struct hn_member_in, spec),
	KF_FIELD("regexMatch", p_hn_regex, struct hn_member_in, spec),
	KF_FIELD("labelMatch", p_hn_label, struct hn_member_in, spec),
};

static KF_NESTED(p_hn_selector, hn_selector_fields)

static const struct kf_field hn_member_fields[] = {
	KF_FIELD("type", p_hn_type, struct hn_member_in, spec.type),
	KF_FIELD("selector", p_hn_selector, struct hn_member_in, spec),
};

static int hn_member_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct hn_member_in *in = item;

	if (!(seen & (1u << 0)))
		return kf_err(kf, a->line, "a HyperNode member needs a type (Node or HyperNode)");
	if (in->nr_sel != 1)
		return kf_err(kf, a->line, "a HyperNode member needs exactly one selector of exactMatch, "
			      "regexMatch and labelMatch, not %u", in->nr_sel);
	in->spec.labels = in->labels.kv;
	in->spec.nr_labels = in->labels.nr;
	return 0;
}

static const struct kf_list hn_member_list = {
	.what = "a member", .fields = hn_member_fields, .nr_fields = ARRAY_SIZE(hn_member_fields),
	.size = sizeof(struct hn_member_in), .done = hn_member_done,
};

static KF_LIST_PARSER(p_hn_members, hn_member_list)

struct hypernode_in {
	struct vs_hypernode_spec spec;
	struct kf_items members;	/* of struct hn_member_in */
};

static const struct kf_field hypernode_fields[] = {
	KF_FIELD("name", kf_str, struct hypernode_in, spec.name),
	KF_FIELD("tier", kf_s32, struct hypernode_in, spec.tier),
	KF_FIELD("tierName", kf_str, struct hypernode_in, spec.tier_name),
	KF_FIELD("members", p_hn_members, struct hypernode_in, members),
};

static int add_hypernode(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "hypernode", list, idx);
	struct hypernode_in in;
	struct vs_hn_member_spec *members;
	struct vs_err e = { { 0 } };
	int ret;

	memset(&in, 0, sizeof(in));
	ret = kf_walk(&ld->kf, item, what, hypernode_fields, ARRAY_SIZE(hypernode_fields), &in,
		      NULL) ?:
	      need_name(ld, item, what, in.spec.name);
	if (ret)
		return ret;
	/* the members' specs, apart from what their parse kept beside them */
	members = KF_SPECS(&ld->kf, &in.members, struct hn_member_in, spec);
	if (!members)
		return loom(ld);
	in.spec.members = members;
	in.spec.nr_members = in.members.nr;
	if (vs_hypernode_add(&ld->scn->cl, &in.spec, NULL, &e))
		return core_err(ld, item->line, &e);
	return 0;
}

struct pg_in {
	struct vs_job_spec spec;
	const char *name, *ns;
	struct kf_role_mins mins;
	struct kf_items subgroups;	/* of struct sg_in */
	struct vs_arg_kv *queue_kv;
};

static int p_pg_queue(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct pg_in *in = container_of(slot, struct pg_in, spec.queue);

	in->queue_kv = kv;
	return kf_str(kf, kv, slot);
}

static int p_nt_mode(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	const char *name = NULL;
	struct vs_err e = { { 0 } };

	if (kf_str(kf, kv, &name))
		return -EINVAL;
	if (vs_nt_mode_parse(name, slot, &e))
		return kf_err(kf, kv->line, "%s: %s", kf_name(kf, kv), e.msg);
	return 0;
}

static const struct kf_field nt_fields[] = {
	KF_FIELD("mode", p_nt_mode, struct vs_net_topology_spec, mode),
	KF_FIELD("highestTierAllowed", kf_s32, struct vs_net_topology_spec, highest_tier),
	KF_FIELD("highestTierName", kf_str, struct vs_net_topology_spec, highest_tier_name),
};

/* A PodGroup's networkTopology: mode hard (the CRD's default) or soft, a tier or a tier's name. */
static int p_pg_nt(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct vs_net_topology_spec *nt = slot;
	u64 seen = 0;
	int ret;

	nt->set = true;
	nt->mode = VS_NT_HARD;
	ret = kf_walk_kv(kf, kv, nt_fields, ARRAY_SIZE(nt_fields), nt, &seen);
	nt->has_highest_tier = seen & (1u << 1);
	return ret;
}

/* One of a PodGroup's subGroupPolicy (Volcano's SubGroupPolicySpec). */
struct sg_in {
	struct vs_subgroup_policy_spec spec;
	struct kf_label_sel selector;
	struct kf_strs keys;
};

static const struct kf_field sg_fields[] = {
	KF_FIELD("name", kf_str, struct sg_in, spec.name),
	KF_FIELD("networkTopology", p_pg_nt, struct sg_in, spec.nt),
	KF_FIELD("subGroupSize", kf_u32, struct sg_in, spec.sub_group_size),
	KF_FIELD("minSubGroups", kf_u32, struct sg_in, spec.min_sub_groups),
	KF_FIELD("labelSelector", kf_label_selector, struct sg_in, selector),
	KF_FIELD("matchLabelKeys", kf_strs, struct sg_in, keys),
};

static void sg_init(void *item)
{
	struct sg_in *in = item;

	memset(in, 0, sizeof(*in));
	in->spec.sub_group_size = 1;	/* Volcano's default */
}

static int sg_done(struct kf *kf, struct vs_arg *a, void *item, u64 seen)
{
	struct sg_in *in = item;

	in->spec.selector = in->selector.set ? &in->selector.spec : NULL;
	in->spec.match_label_keys = in->keys.s;
	in->spec.nr_match_label_keys = in->keys.nr;
	return 0;
}

static const struct kf_list sg_list = {
	.what = "a sub-group policy", .fields = sg_fields, .nr_fields = ARRAY_SIZE(sg_fields),
	.size = sizeof(struct sg_in), .init = sg_init, .done = sg_done,
};

static KF_LIST_PARSER(p_pg_subgroups, sg_list)

/* The PodGroup's volcano.sh/preemptable: true or false; without the key, none. */
static int p_pg_preemptable(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	bool v = false;
	int ret = kf_bool(kf, kv, &v);

	if (!ret)
		*(enum vs_pg_preemptable *)slot = v ? VS_PG_PREEMPTABLE_TRUE :
						      VS_PG_PREEMPTABLE_FALSE;
	return ret;
}

static const struct kf_field pg_fields[] = {
	KF_FIELD("name", kf_str, struct pg_in, name),
	KF_FIELD("namespace", kf_str, struct pg_in, ns),
	KF_FIELD("queue", p_pg_queue, struct pg_in, spec.queue),
	KF_FIELD("minMember", kf_u32, struct pg_in, spec.min_member),
	KF_FIELD("minTaskMember", kf_role_mins, struct pg_in, mins),
	KF_FIELD("minResources", kf_res, struct pg_in, spec.min_resources),
	KF_FIELD("phase", kf_pg_phase, struct pg_in, spec.phase),
	KF_FIELD("priorityClass", kf_str, struct pg_in, spec.priority_class),
	KF_FIELD("networkTopology", p_pg_nt, struct pg_in, spec.net_topology),
	KF_FIELD("subGroupPolicy", p_pg_subgroups, struct pg_in, subgroups),
	KF_FIELD("preemptable", p_pg_preemptable, struct pg_in, spec.preemptable),
};

/* Kubernetes' namespace when none is written. */
#define SCN_DEFAULT_NS	"default"
/* Volcano's queue for a PodGroup that names none. */
#define SCN_DEFAULT_QUEUE	"default"

static bool queue_missing(const struct ld *ld, const char *name)
{
	const struct vs_arg *list = ld->missing_queues;

	for (u32 i = 0; list && i < list->seq.nr; i++)
		if (!strcmp(list->seq.items[i].s, name))
			return true;
	return false;
}

/*
 * The core keeps a PodGroup whose queue is not there (a bridge may see it
 * before its queue, or after the queue went), and a cycle skips it. A file
 * lists every queue at once, so a queue it does not list is a slip unless
 * the file says it leaves the queue out on purpose (missingQueues:):
 * otherwise the run would go on with the PodGroup silently out of it.
 */
static int pg_queue(struct ld *ld, struct vs_arg *item, const char *what,
		    const struct pg_in *in)
{
	bool named = in->spec.queue && *in->spec.queue;
	const char *queue = named ? in->spec.queue : SCN_DEFAULT_QUEUE;

	if (vs_queue_find(&ld->scn->cl, queue) || queue_missing(ld, queue))
		return 0;
	if (named)
		return lerr(ld, in->queue_kv->line, "queue: %s is neither in queues nor in "
			    "missingQueues", queue);
	return lerr(ld, item->line, "%s: its queue, %s when none is named, is neither in "
		    "queues nor in missingQueues", what, queue);
}

static int add_podgroup(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "podgroup", list, idx);
	struct pg_in in;
	struct vs_err e = { { 0 } };
	u64 seen = 0;
	int ret;

	memset(&in, 0, sizeof(in));
	vs_job_spec_init(&in.spec, NULL, NULL);
	ret = kf_walk(&ld->kf, item, what, pg_fields, ARRAY_SIZE(pg_fields), &in, &seen) ?:
	      need_name(ld, item, what, in.name) ?:
	      pg_queue(ld, item, what, &in);
	if (ret)
		return ret;
	in.spec.ns = in.ns && *in.ns ? in.ns : SCN_DEFAULT_NS;
	in.spec.name = in.name;
	in.spec.min_task_member = in.mins.v;
	in.spec.nr_min_task_member = in.mins.nr;
	in.spec.has_min_resources = seen & (1u << 5);
	if (in.subgroups.nr) {
		struct vs_subgroup_policy_spec *sgs;

		sgs = KF_SPECS(&ld->kf, &in.subgroups, struct sg_in, spec);
		if (!sgs)
			return loom(ld);
		in.spec.subgroups = sgs;
		in.spec.nr_subgroups = in.subgroups.nr;
	}
	if (vs_job_add(&ld->scn->cl, &in.spec, NULL, &e))
		return core_err(ld, item->line, &e);
	return 0;
}

struct pod_in {
	struct vs_task_spec spec;
	const char *name, *ns, *podgroup, *node, *pipelined_to;
	enum vs_task_status phase;
	struct kf_kvs labels, selector;
	struct kf_items tolerations, ports, gates, spread;
	struct kf_strs images;
	struct vs_arg_kv *podgroup_kv, *node_kv, *pipelined_kv, *class_kv;
	bool has_priority, has_preemptable;
};

static int p_pod_podgroup(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, podgroup);

	in->podgroup_kv = kv;
	return kf_str(kf, kv, slot);
}

static int p_pod_node(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, node);

	in->node_kv = kv;
	return kf_str(kf, kv, slot);
}

static int p_pod_pipelined(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, pipelined_to);

	in->pipelined_kv = kv;
	return kf_str(kf, kv, slot);
}

static int p_pod_class(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, spec.priority_class);

	in->class_kv = kv;
	return kf_str(kf, kv, slot);
}

static int p_pod_priority(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, spec.priority);

	in->has_priority = true;
	return kf_s32(kf, kv, slot);
}

static int p_pod_preemptable(struct kf *kf, struct vs_arg_kv *kv, void *slot)
{
	struct pod_in *in = container_of(slot, struct pod_in, spec.preemptable);

	in->has_preemptable = true;
	return kf_bool(kf, kv, slot);
}

static const struct kf_field pod_fields[] = {
	KF_FIELD("name", kf_str, struct pod_in, name),
	KF_FIELD("namespace", kf_str, struct pod_in, ns),
	KF_FIELD("podgroup", p_pod_podgroup, struct pod_in, podgroup),
	KF_FIELD("phase", kf_task_status, struct pod_in, phase),
	KF_FIELD("node", p_pod_node, struct pod_in, node),
	KF_FIELD("request", kf_res, struct pod_in, spec.req),
	KF_FIELD("priority", p_pod_priority, struct pod_in, spec.priority),
	KF_FIELD("priorityClass", p_pod_class, struct pod_in, spec.priority_class),
	KF_FIELD("role", kf_str, struct pod_in, spec.role),
	KF_FIELD("preemptable", p_pod_preemptable, struct pod_in, spec.preemptable),
	KF_FIELD("labels", kf_kvs, struct pod_in, labels),
	KF_FIELD("nodeSelector", kf_kvs, struct pod_in, selector),
	KF_FIELD("tolerations", kf_tolerations, struct pod_in, tolerations),
	KF_FIELD("affinity", kf_affinity, struct pod_in, spec.affinity),
	KF_FIELD("ports", kf_ports, struct pod_in, ports),
	KF_FIELD("schedulingGates", kf_sched_gates, struct pod_in, gates),
	KF_FIELD("images", kf_strs, struct pod_in, images),
	KF_FIELD("topologySpreadConstraints", kf_spreads, struct pod_in, spread),
	KF_FIELD("preemptionPolicy", kf_preemption_policy, struct pod_in, spec.preemption_policy),
	KF_FIELD("pipelinedTo", p_pod_pipelined, struct pod_in, pipelined_to),
	KF_FIELD("nominatedNodeName", kf_str, struct pod_in, spec.nominated),
};

/* What Volcano reads from a pod's labels (and annotations): role, preemptable. */
#define LABEL_TASK_SPEC		"volcano.sh/task-spec"
#define LABEL_PREEMPTABLE	"volcano.sh/preemptable"

/*
 * The pod's status, as Volcano's getTaskStatus derives it from the phase:
 * a Pending pod with a node name is Bound. Any other task status may be
 * written directly (vsched's extension, for states a test sets up).
 */
static int pod_status(struct ld *ld, struct vs_arg *item, struct pod_in *in)
{
	bool on_node = in->node && *in->node;

	in->spec.status = in->phase;
	if (in->phase == VS_TASK_PENDING && on_node)
		in->spec.status = VS_TASK_BOUND;
	in->spec.node = on_node ? in->node : NULL;
	if (on_node && !vs_node_find(&ld->scn->cl, in->node))
		return lerr(ld, in->node_kv->line, "node: %s is not listed", in->node);
	return 0;
}

/* As Kubernetes' priority admission: a class gives its value, else the default class's. */
static int pod_priority(struct ld *ld, struct pod_in *in)
{
	const struct vs_prioclass *pc = NULL;
	const char *class = in->spec.priority_class;

	if (class && *class) {
		pc = vs_prioclass_find(&ld->scn->cl, class);
		if (!pc)
			return lerr(ld, in->class_kv->line, "priorityClass: %s is not listed",
				    class);
	} else {
		pc = vs_prioclass_default(&ld->scn->cl);
	}
	if (pc && !in->has_priority)
		in->spec.priority = pc->value;
	return 0;
}

static int add_pipeline(struct ld *ld, struct pod_in *in, struct vs_task *task)
{
	struct scenario *scn = ld->scn;
	struct scn_pipeline *p;
	struct vs_node *node;

	if (!in->pipelined_to || !*in->pipelined_to)
		return 0;
	node = vs_node_find(&scn->cl, in->pipelined_to);
	if (!node)
		return lerr(ld, in->pipelined_kv->line, "pipelinedTo: %s is not listed",
			    in->pipelined_to);
	if (task->status != VS_TASK_PENDING)
		return lerr(ld, in->pipelined_kv->line,
			    "pipelinedTo: only a pending pod without a node can be pipelined");
	p = realloc(scn->pipelines, (scn->nr_pipelines + 1) * sizeof(*p));
	if (!p)
		return loom(ld);
	scn->pipelines = p;
	p[scn->nr_pipelines++] = (struct scn_pipeline){ .task = task, .node = node };
	return 0;
}

static int add_pod(struct ld *ld, struct vs_arg *item, u32 idx, const char *list)
{
	const char *what = obj_name(ld, item, "pod", list, idx);
	const char *label;
	struct pod_in in;
	struct vs_task *task;
	struct vs_err e = { { 0 } };
	int ret;

	memset(&in, 0, sizeof(in));
	vs_task_spec_init(&in.spec, NULL, NULL, NULL);
	in.phase = VS_TASK_PENDING;
	ret = kf_walk(&ld->kf, item, what, pod_fields, ARRAY_SIZE(pod_fields), &in, NULL) ?:
	      need_name(ld, item, what, in.name);
	if (ret)
		return ret;
	in.spec.ns = in.ns && *in.ns ? in.ns : SCN_DEFAULT_NS;
	in.spec.name = in.name;
	if (!in.podgroup || !*in.podgroup)
		return lerr(ld, item->line, "%s: no podgroup", what);
	if (!vs_job_find(&ld->scn->cl, in.spec.ns, in.podgroup))
		return lerr(ld, in.podgroup_kv->line, "podgroup: %s/%s is not listed", in.spec.ns,
			    in.podgroup);
	in.spec.job = in.podgroup;
	ret = pod_status(ld, item, &in) ?: pod_priority(ld, &in);
	if (ret)
		return ret;
	label = kf_kvs_get(&in.labels, LABEL_TASK_SPEC);
	if (label && !in.spec.role)
		in.spec.role = label;
	label = kf_kvs_get(&in.labels, LABEL_PREEMPTABLE);
	if (label && !in.has_preemptable)
		in.spec.preemptable = !strcmp(label, "true") || !strcmp(label, "1") ||
				      !strcmp(label, "t") || !strcmp(label, "T") ||
				      !strcmp(label, "TRUE") || !strcmp(label, "True");
	in.spec.labels = in.labels.kv;
	in.spec.nr_labels = in.labels.nr;
	in.spec.node_selector = in.selector.kv;
	in.spec.nr_node_selector = in.selector.nr;
	in.spec.tolerations = in.tolerations.v;
	in.spec.nr_tolerations = in.tolerations.nr;
	in.spec.gated = in.gates.nr > 0;
	in.spec.images = in.images.s;
	in.spec.nr_images = in.images.nr;
	ret = kf_host_ports(&ld->kf, &in.ports, &in.spec.ports, &in.spec.nr_ports) ?:
	      kf_spread_specs(&ld->kf, &in.spread, &in.spec.spread, &in.spec.nr_spread);
	if (ret)
		return ret;
	if (vs_task_add(&ld->scn->cl, &in.spec, &task, &e))
		return core_err(ld, item->line, &e);
	return add_pipeline(ld, &in, task);
}

/* ---- the configuration ---- */

static bool known_name(const char *const *list, u32 nr, const char *name)
{
	for (u32 i = 0; i < nr; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static int unknown_name(struct ld *ld, u32 line, const char *what, const char *name,
			const char *const *list, u32 nr)
{
	char known[VS_ERR_MSG_MAX / 2];
	size_t len = 0;

	known[0] = '\0';
	for (u32 i = 0; i < nr && len < sizeof(known); i++)
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "",
					list[i]);
	return lerr(ld, line, "unknown %s \"%s\" (known: %s)", what, name, known);
}

/* Take the arguments map out of the tree: the configuration owns it from now on. */
static void steal_args(struct vs_arg *from, struct vs_args *to, const char *source)
{
	if (from->type == VS_ARG_MAP) {
		*to = *from->map;
		*from->map = (struct vs_args){ 0 };
	}
	to->source = source;
}

/* One plugin of the explicit form: {name, enableXxx: bool..., arguments: {...}}. */
static int conf_plugin(struct ld *ld, struct vs_arg *a, const struct vs_conf_names *names,
		       struct vs_conf_plugin *cp, const char *source)
{
	const struct vs_arg *name = a->type == VS_ARG_MAP ? vs_args_find(a->map, "name") : NULL;

	cp->line = a->line;
	cp->args.source = source;
	if (a->type != VS_ARG_MAP)
		return lerr(ld, a->line, "a plugin must be a mapping, not %s", kf_type_name(a));
	if (!name || name->type != VS_ARG_STRING || !*name->s)
		return lerr(ld, a->line, "a plugin without a name");
	cp->name = strdup(name->s);
	if (!cp->name)
		return loom(ld);
	cp->line = name->line;
	if (!known_name(names->plugins, names->nr_plugins, cp->name))
		return unknown_name(ld, name->line, "plugin", cp->name, names->plugins,
				    names->nr_plugins);
	for (u32 i = 0; i < a->map->nr; i++) {
		struct vs_arg_kv *kv = &a->map->kv[i];
		int f, ret;

		if (!strcmp(kv->key, "name"))
			continue;
		if (!strcmp(kv->key, "arguments")) {
			if (kv->val.type != VS_ARG_NULL &&
			    (ret = kf_want(&ld->kf, kv, VS_ARG_MAP, "a mapping")))
				return ret;
			steal_args(&kv->val, &cp->args, source);
			continue;
		}
		for (f = 0; f < VS_EN_NR; f++)
			if (!strcmp(kv->key, vs_en_flag_name((enum vs_en_flag)f)))
				break;
		if (f == VS_EN_NR)
			return lerr(ld, kv->line, "unknown key \"%s\" in plugin %s", kv->key,
				    cp->name);
		if (kv->val.type == VS_ARG_NULL)
			continue;
		ret = kf_want(&ld->kf, kv, VS_ARG_BOOL, "true or false");
		if (ret)
			return ret;
		/* the explicit form: a flag not written stays off */
		cp->flags_set |= 1u << f;
		if (kv->val.b)
			cp->flags_on |= 1u << f;
	}
	return 0;
}

static int conf_tiers(struct ld *ld, struct vs_arg_kv *kv, const struct vs_conf_names *names,
		      struct vs_conf *conf)
{
	int ret;

	if (!kv || kv->val.type == VS_ARG_NULL)
		return 0;
	ret = kf_want(&ld->kf, kv, VS_ARG_SEQ, "a list of tiers");
	if (ret || !kv->val.seq.nr)
		return ret;
	conf->tiers = calloc(kv->val.seq.nr, sizeof(*conf->tiers));
	if (!conf->tiers)
		return loom(ld);
	for (u32 t = 0; t < kv->val.seq.nr; t++) {
		struct vs_arg *tier = &kv->val.seq.items[t];
		struct vs_conf_tier *ct = &conf->tiers[conf->nr_tiers++];

		if (tier->type == VS_ARG_NULL)
			continue;
		if (tier->type != VS_ARG_SEQ)
			return lerr(ld, tier->line, "plugins[%u]: a tier must be a list of plugins",
				    t);
		if (!tier->seq.nr)
			continue;
		ct->plugins = calloc(tier->seq.nr, sizeof(*ct->plugins));
		if (!ct->plugins)
			return loom(ld);
		for (u32 i = 0; i < tier->seq.nr; i++) {
			ct->nr++;
			ret = conf_plugin(ld, &tier->seq.items[i], names, &ct->plugins[i],
					  conf->source);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int conf_actions(struct ld *ld, struct vs_arg_kv *kv, u32 line,
			const struct vs_conf_names *names, struct vs_conf *conf)
{
	int ret;

	if (!kv)
		return lerr(ld, line, "plugins or actionArguments without actions");
	if (kv->val.type == VS_ARG_NULL)
		return 0;
	ret = kf_want(&ld->kf, kv, VS_ARG_SEQ, "a list");
	if (ret || !kv->val.seq.nr)
		return ret;
	conf->actions = calloc(kv->val.seq.nr, sizeof(*conf->actions));
	if (!conf->actions)
		return loom(ld);
	for (u32 i = 0; i < kv->val.seq.nr; i++) {
		const struct vs_arg *a = &kv->val.seq.items[i];

		if (a->type != VS_ARG_STRING)
			return lerr(ld, a->line, "actions[%u] must be a string, not %s", i,
				    kf_type_name(a));
		if (!known_name(names->actions, names->nr_actions, a->s))
			return unknown_name(ld, a->line, "action", a->s, names->actions,
					    names->nr_actions);
		conf->actions[conf->nr_actions] = strdup(a->s);
		if (!conf->actions[conf->nr_actions])
			return loom(ld);
		conf->nr_actions++;
	}
	return 0;
}

static int conf_action_args(struct ld *ld, struct vs_arg_kv *kv,
			    const struct vs_conf_names *names, struct vs_conf *conf)
{
	int ret;

	if (!kv || kv->val.type == VS_ARG_NULL)
		return 0;
	ret = kf_want(&ld->kf, kv, VS_ARG_MAP, "a mapping of actions to arguments");
	if (ret || !kv->val.map->nr)
		return ret;
	conf->configurations = calloc(kv->val.map->nr, sizeof(*conf->configurations));
	if (!conf->configurations)
		return loom(ld);
	for (u32 i = 0; i < kv->val.map->nr; i++) {
		struct vs_arg_kv *a = &kv->val.map->kv[i];
		struct vs_conf_action *ca = &conf->configurations[conf->nr_configurations++];

		ca->line = a->line;
		ca->args.source = conf->source;
		ca->name = strdup(a->key);
		if (!ca->name)
			return loom(ld);
		if (!known_name(names->actions, names->nr_actions, a->key))
			return unknown_name(ld, a->line, "action", a->key, names->actions,
					    names->nr_actions);
		if (a->val.type != VS_ARG_NULL && (ret = kf_want(&ld->kf, a, VS_ARG_MAP, "a mapping")))
			return ret;
		steal_args(&a->val, &ca->args, conf->source);
	}
	return 0;
}

/*
 * The explicit form, built as the struct the configuration loader would
 * make, so that every line (plugins, flags, arguments) is the scenario's
 * own and every message points into the scenario.
 */
static int conf_explicit(struct ld *ld, struct vs_arg_kv *actions, struct vs_arg_kv *plugins,
			 struct vs_arg_kv *args)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	int ret;

	vs_registry_names(vs_builtin_registry(), &names);
	conf = calloc(1, sizeof(*conf));
	if (!conf || !(conf->source = strdup(ld->file))) {
		free(conf);
		return loom(ld);
	}
	conf->metrics.source = conf->source;
	ld->scn->conf = conf;
	/* without actions, the explicit form is there for plugins or actionArguments */
	ret = conf_actions(ld, actions, actions ? actions->line : plugins ? plugins->line :
			   args->line, &names, conf);
	if (!ret)
		ret = conf_tiers(ld, plugins, &names, conf);
	if (!ret)
		ret = conf_action_args(ld, args, &names, conf);
	return ret;
}

/*
 * The line where the text of "conf:" starts: after the indicator line of a
 * block scalar (| or >), else on the value's own line. Messages about the
 * embedded configuration then point into the scenario once the text is
 * shifted down by that many lines.
 */
static u32 conf_first_line(struct ld *ld, const struct vs_arg *v)
{
	const char *p = ld->text, *end = ld->text + ld->len;
	u32 line = 1;

	while (p < end && line < v->line) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			return v->line;
		p = nl + 1;
		line++;
	}
	while (p < end && *p != '\n' && *p != ':')
		p++;
	if (p < end && *p == ':')
		p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p < end && (*p == '|' || *p == '>') ? v->line + 1 : v->line;
}

/* conf: a volcano-scheduler.conf, verbatim, with Volcano's defaults (flags on). */
static int conf_text(struct ld *ld, struct vs_arg_kv *kv)
{
	struct vs_conf_names names;
	size_t pad, len;
	char *text = NULL;
	int ret;

	ret = kf_want(&ld->kf, kv, VS_ARG_STRING, "the text of a volcano-scheduler.conf");
	if (ret)
		return ret;
	pad = conf_first_line(ld, &kv->val) - 1;
	len = strlen(kv->val.s);
	text = malloc(pad + len + 1);
	if (!text)
		return loom(ld);
	memset(text, '\n', pad);
	memcpy(text + pad, kv->val.s, len + 1);
	vs_registry_names(vs_builtin_registry(), &names);
	ret = vs_conf_parse(text, pad + len, ld->file, &names, VS_CONF_FLAGS_DEFAULT_ON,
			    &ld->scn->conf, ld->err);
	free(text);
	return ret;
}

static int conf_default(struct ld *ld)
{
	struct vs_conf_names names;

	vs_registry_names(vs_builtin_registry(), &names);
	return vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text),
			     "the default configuration", &names, VS_CONF_FLAGS_DEFAULT_ON,
			     &ld->scn->conf, ld->err);
}

/* ---- expectations ---- */

/* "ns/name" of a task that exists, else an error at the entry's line. */
static int check_task(struct ld *ld, const char *key, u32 line, const char *what,
		      struct vs_task **out)
{
	const char *slash = strchr(key, '/');
	char ns[256];
	struct vs_task *task;

	if (!slash || (size_t)(slash - key) >= sizeof(ns))
		return lerr(ld, line, "%s: \"%s\" is not NAMESPACE/NAME", what, key);
	memcpy(ns, key, (size_t)(slash - key));
	ns[slash - key] = '\0';
	task = vs_task_find(&ld->scn->cl, ns, slash + 1);
	if (!task)
		return lerr(ld, line, "%s: pod %s is not listed", what, key);
	if (out)
		*out = task;
	return 0;
}

static int check_node(struct ld *ld, const char *name, u32 line, const char *what)
{
	if (vs_node_find(&ld->scn->cl, name))
		return 0;
	return lerr(ld, line, "%s: node %s is not listed", what, name);
}

static int add_entry(struct ld *ld, struct scn_set *set, const char *key, const char *val,
		     double score, u32 line)
{
	return scn_set_add(set, key, val, score, line) ? loom(ld) : 0;
}

/* binds, pipelined: {ns/pod: node}. */
static int e_placements(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = kf_want(&ld->kf, kv, VS_ARG_MAP, "a mapping of pods to nodes");

	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *e = &kv->val.map->kv[i];

		if (e->val.type != VS_ARG_STRING)
			return lerr(ld, e->line, "%s: the node of %s must be a string", kv->key,
				    e->key);
		ret = check_task(ld, e->key, e->line, kv->key, NULL) ?:
		      check_node(ld, e->val.s, e->line, kv->key) ?:
		      add_entry(ld, set, e->key, e->val.s, 0, e->line);
	}
	return ret;
}

static int e_evicts(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = kf_want(&ld->kf, kv, VS_ARG_SEQ, "a list of pods");

	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		const struct vs_arg *e = &kv->val.seq.items[i];

		if (e->type != VS_ARG_STRING)
			return lerr(ld, e->line, "evicts[%u] must be a string", i);
		ret = check_task(ld, e->s, e->line, kv->key, NULL) ?:
		      add_entry(ld, set, e->s, NULL, 0, e->line);
	}
	return ret;
}

static int e_phases(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = kf_want(&ld->kf, kv, VS_ARG_MAP, "a mapping of podgroups to phases");

	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *e = &kv->val.map->kv[i];
		const char *slash = strchr(e->key, '/');
		struct vs_err err = { { 0 } };
		enum vs_pg_phase phase;
		char ns[256];

		if (!slash || (size_t)(slash - e->key) >= sizeof(ns))
			return lerr(ld, e->line, "%s: \"%s\" is not NAMESPACE/NAME", kv->key,
				    e->key);
		memcpy(ns, e->key, (size_t)(slash - e->key));
		ns[slash - e->key] = '\0';
		if (!vs_job_find(&ld->scn->cl, ns, slash + 1))
			return lerr(ld, e->line, "%s: podgroup %s is not listed", kv->key, e->key);
		if (e->val.type != VS_ARG_STRING)
			return lerr(ld, e->line, "%s: the phase of %s must be a string", kv->key,
				    e->key);
		if (vs_pg_phase_parse(e->val.s, &phase, &err))
			return lerr(ld, e->line, "%s: %s", kv->key, err.msg);
		ret = add_entry(ld, set, e->key, vs_pg_phase_name(phase), 0, e->line);
	}
	return ret;
}

static int e_scores(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = kf_want(&ld->kf, kv, VS_ARG_MAP, "a mapping of pods to node scores");

	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *t = &kv->val.map->kv[i];

		ret = check_task(ld, t->key, t->line, kv->key, NULL) ?:
		      kf_want(&ld->kf, t, VS_ARG_MAP, "a mapping of nodes to scores");
		for (u32 j = 0; !ret && j < t->val.map->nr; j++) {
			struct vs_arg_kv *n = &t->val.map->kv[j];
			double score;

			if (n->val.type == VS_ARG_INT)
				score = (double)n->val.i;
			else if (n->val.type == VS_ARG_FLOAT)
				score = n->val.f;
			else
				return lerr(ld, n->line, "%s: the score of %s on %s must be a number",
					    kv->key, t->key, n->key);
			ret = check_node(ld, n->key, n->line, kv->key) ?:
			      add_entry(ld, set, t->key, n->key, score, n->line);
		}
	}
	return ret;
}

/*
 * explain: {"task ns/p1": [lines], "job ns/pg1": [...], "node n1": [...]}:
 * each line must be a line of what vsctl explain prints for the object
 * after the last cycle (leading blanks aside).
 */
static int e_explain(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = kf_want(&ld->kf, kv, VS_ARG_MAP, "a mapping of objects to lines");

	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *o = &kv->val.map->kv[i];
		const char *sp = strchr(o->key, ' '), *name = sp ? sp + 1 : "";
		size_t kind = sp ? (size_t)(sp - o->key) : 0;

		if ((kind == 4 && !strncmp(o->key, "task", 4)) ||
		    (kind == 6 && !strncmp(o->key, "scores", 6))) {
			ret = check_task(ld, name, o->line, kv->key, NULL);
		} else if (kind == 4 && !strncmp(o->key, "node", 4)) {
			ret = check_node(ld, name, o->line, kv->key);
		} else if ((kind == 3 && !strncmp(o->key, "job", 3)) ||
			   (kind == 8 && !strncmp(o->key, "podgroup", 8))) {
			const char *slash = strchr(name, '/');
			char ns[256];

			if (!slash || (size_t)(slash - name) >= sizeof(ns))
				return lerr(ld, o->line, "%s: \"%s\" is not NAMESPACE/NAME", kv->key,
					    name);
			memcpy(ns, name, (size_t)(slash - name));
			ns[slash - name] = '\0';
			if (!vs_job_find(&ld->scn->cl, ns, slash + 1))
				return lerr(ld, o->line, "%s: podgroup %s is not listed", kv->key,
					    name);
		} else {
			return lerr(ld, o->line, "%s: \"%s\" is not \"task NS/NAME\", \"scores "
				    "NS/NAME\", \"job NS/NAME\", \"podgroup NS/NAME\" or \"node "
				    "NAME\"", kv->key, o->key);
		}
		if (!ret)
			ret = kf_want(&ld->kf, o, VS_ARG_SEQ, "a list of lines");
		for (u32 j = 0; !ret && j < o->val.seq.nr; j++) {
			const struct vs_arg *l = &o->val.seq.items[j];

			if (l->type != VS_ARG_STRING)
				return lerr(ld, o->line, "%s: the lines of %s must be strings",
					    kv->key, o->key);
			ret = add_entry(ld, set, o->key, l->s, 0, o->line);
		}
	}
	return ret;
}

/*
 * hypernodes: {NAME: {parent: P, nodeCount: N, leaves: [n1, n2]}}: the tree
 * after the last cycle, each field checked when written; parent "" is a
 * root. Leaves are names, not necessarily nodes listed: an exactMatch
 * member counts its name whether or not such a node exists (core.md).
 */
struct hn_expect_in {
	struct vs_arg_kv *parent, *count, *leaves;
};

static const struct kf_field hn_expect_fields[] = {
	KF_FIELD("parent", kf_keep, struct hn_expect_in, parent),
	KF_FIELD("nodeCount", kf_keep, struct hn_expect_in, count),
	KF_FIELD("leaves", kf_keep, struct hn_expect_in, leaves),
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int e_hypernode(struct ld *ld, struct vs_arg_kv *h, struct scn_set *set)
{
	struct hn_expect_in in = { 0 };
	struct kf_strs leaves = { 0 };
	char key[320], count[24];
	char *joined = NULL;
	s64 n = 0;
	int ret;

	if (!vs_hypernode_find(&ld->scn->cl, h->key))
		return lerr(ld, h->line, "hypernodes: hypernode %s is not listed", h->key);
	if (strlen(h->key) > 256)	/* a DNS subdomain is shorter */
		return lerr(ld, h->line, "hypernodes: the name %s is too long", h->key);
	ret = kf_walk_kv(&ld->kf, h, hn_expect_fields, ARRAY_SIZE(hn_expect_fields), &in, NULL);
	if (!ret && in.parent) {
		ret = kf_want(&ld->kf, in.parent, VS_ARG_STRING, "a string (\"\" for a root)");
		if (!ret && *in.parent->val.s && !vs_hypernode_find(&ld->scn->cl, in.parent->val.s))
			ret = lerr(ld, in.parent->line, "parent: hypernode %s is not listed",
				   in.parent->val.s);
		snprintf(key, sizeof(key), "%s parent", h->key);
		ret = ret ?: add_entry(ld, set, key, in.parent->val.s, 0, in.parent->line);
	}
	if (!ret && in.count) {
		ret = kf_get_int(&ld->kf, in.count, 0, UINT32_MAX, &n);
		snprintf(key, sizeof(key), "%s nodeCount", h->key);
		snprintf(count, sizeof(count), "%lld", (long long)n);
		ret = ret ?: add_entry(ld, set, key, count, 0, in.count->line);
	}
	if (!ret && in.leaves) {
		ret = kf_strs(&ld->kf, in.leaves, &leaves);
		if (!ret)
			qsort(leaves.s, leaves.nr, sizeof(*leaves.s), cmp_str);
		joined = ret ? NULL : scn_join_names(leaves.s, leaves.nr);
		if (!ret && !joined)
			ret = loom(ld);
		snprintf(key, sizeof(key), "%s leaves", h->key);
		ret = ret ?: add_entry(ld, set, key, joined, 0, in.leaves->line);
		free(joined);
		ld->scn->expect.has |= SCN_HAS_HN_LEAVES;
	}
	vs_arena_reset(&ld->kf.scratch);
	return ret;
}

static int e_hypernodes(struct ld *ld, struct vs_arg_kv *kv, struct scn_set *set)
{
	int ret = kf_want(&ld->kf, kv, VS_ARG_MAP, "a mapping of hypernodes to what they hold");

	for (u32 i = 0; !ret && i < kv->val.map->nr; i++)
		ret = e_hypernode(ld, &kv->val.map->kv[i], set);
	return ret;
}

static int e_count(struct ld *ld, struct vs_arg_kv *kv, u64 *out)
{
	s64 v = 0;
	int ret = kf_get_int(&ld->kf, kv, 0, INT64_MAX, &v);

	if (!ret)
		*out = (u64)v;
	return ret;
}

static int parse_expect(struct ld *ld, struct vs_arg_kv *kv)
{
	struct scn_expect *x = &ld->scn->expect;
	int ret;

	if (!kv || kv->val.type == VS_ARG_NULL)
		return 0;
	ret = kf_want(&ld->kf, kv, VS_ARG_MAP, "a mapping");
	for (u32 i = 0; !ret && i < kv->val.map->nr; i++) {
		struct vs_arg_kv *e = &kv->val.map->kv[i];
		int k;

		if (!strcmp(e->key, "notes"))
			continue;
		for (k = 0; k < SCN_NR_KEYS; k++)
			if (!strcmp(e->key, key_names[k]))
				break;
		if (k == SCN_NR_KEYS)
			return lerr(ld, e->line, "unknown key \"%s\" in expect (known: binds, "
				    "bindCount, evicts, evictCount, pipelined, podgroupPhase, "
				    "nodeScores, explain, hypernodes, notes)", e->key);
		if (e->val.type == VS_ARG_NULL)
			continue;
		x->has |= 1u << k;
		switch ((enum scn_key)k) {
		case SCN_BINDS:
			ret = e_placements(ld, e, &x->binds);
			break;
		case SCN_PIPELINED:
			ret = e_placements(ld, e, &x->pipelined);
			break;
		case SCN_EVICTS:
			ret = e_evicts(ld, e, &x->evicts);
			break;
		case SCN_PHASES:
			ret = e_phases(ld, e, &x->phases);
			break;
		case SCN_SCORES:
			ret = e_scores(ld, e, &x->scores);
			break;
		case SCN_EXPLAIN:
			ret = e_explain(ld, e, &x->explain);
			break;
		case SCN_HYPERNODES:
			ret = e_hypernodes(ld, e, &x->hypernodes);
			break;
		case SCN_BIND_COUNT:
			ret = e_count(ld, e, &x->bind_count);
			break;
		case SCN_EVICT_COUNT:
			ret = e_count(ld, e, &x->evict_count);
			break;
		default:
			break;
		}
	}
	return ret;
}

/* ---- the file ---- */

/*
 * conformance: {known: REASON, keys: [KEY...]} marks the file as a known
 * departure from Volcano's own scheduler (scripts/conformance.sh,
 * Documentation/conformance.md), in the decisions named by keys (all of them
 * without). The oracle reads it; vsched only checks that it says why and
 * names decisions that exist.
 */
struct conformance_in {
	const char *known;
	struct vs_arg_kv *keys;
};

static const struct kf_field conformance_fields[] = {
	KF_FIELD("known", kf_str, struct conformance_in, known),
	KF_FIELD("keys", kf_keep, struct conformance_in, keys),
};

static int conformance_mark(struct ld *ld, struct vs_arg_kv *kv)
{
	struct conformance_in in = { 0 };
	struct kf_strs keys = { 0 };
	int ret;

	if (!kv)
		return 0;
	ret = kf_walk_kv(&ld->kf, kv, conformance_fields, ARRAY_SIZE(conformance_fields), &in,
			 NULL);
	if (!ret && (!in.known || !*in.known))
		ret = lerr(ld, kv->line, "conformance: known must give the reason of the departure");
	if (ret || !in.keys)
		return ret;
	ret = kf_strs(&ld->kf, in.keys, &keys);
	for (u32 i = 0; !ret && i < keys.nr; i++) {
		u32 k;

		for (k = 0; k < SCN_EXPLAIN; k++)
			if (!strcmp(keys.s[i], key_names[k]))
				break;
		if (k == SCN_EXPLAIN)
			ret = lerr(ld, in.keys->val.seq.items[i].line,
				   "conformance: keys: \"%s\" is no decision the oracle gives "
				   "(binds, bindCount, evicts, evictCount, pipelined, podgroupPhase, "
				   "nodeScores)", keys.s[i]);
	}
	return ret;
}

struct top_in {
	struct vs_arg_kv *source, *commit, *cycles, *actions, *plugins, *action_args, *conf;
	struct vs_arg_kv *queues, *missing_queues, *nodes, *hypernodes, *podgroups, *pods;
	struct vs_arg_kv *prioclasses, *expect, *conformance;
};

static const struct kf_field top_fields[] = {
	KF_FIELD("source", kf_keep, struct top_in, source),
	KF_FIELD("commit", kf_keep, struct top_in, commit),
	KF_FIELD("cycles", kf_keep, struct top_in, cycles),
	KF_FIELD("actions", kf_keep, struct top_in, actions),
	KF_FIELD("plugins", kf_keep, struct top_in, plugins),
	KF_FIELD("actionArguments", kf_keep, struct top_in, action_args),
	KF_FIELD("conf", kf_keep, struct top_in, conf),
	KF_FIELD("queues", kf_keep, struct top_in, queues),
	KF_FIELD("missingQueues", kf_keep, struct top_in, missing_queues),
	KF_FIELD("nodes", kf_keep, struct top_in, nodes),
	KF_FIELD("hypernodes", kf_keep, struct top_in, hypernodes),
	KF_FIELD("podgroups", kf_keep, struct top_in, podgroups),
	KF_FIELD("pods", kf_keep, struct top_in, pods),
	KF_FIELD("priorityClasses", kf_keep, struct top_in, prioclasses),
	KF_FIELD("expect", kf_keep, struct top_in, expect),
	KF_FIELD("conformance", kf_keep, struct top_in, conformance),
};

/*
 * missingQueues: the queues podgroups may name that the file leaves out on
 * purpose (one deleted, one never made), so that a test of what Volcano
 * does with such a PodGroup is told from a typo. None may be listed too.
 */
static int missing_queues(struct ld *ld, struct vs_arg_kv *kv)
{
	struct kf_strs names;
	int ret;

	if (!kv || kv->val.type == VS_ARG_NULL)
		return 0;
	ret = kf_strs(&ld->kf, kv, &names);
	for (u32 i = 0; !ret && i < names.nr; i++)
		if (vs_queue_find(&ld->scn->cl, names.s[i]))
			ret = lerr(ld, kv->val.seq.items[i].line,
				   "missingQueues: %s is listed in queues", names.s[i]);
	vs_arena_reset(&ld->kf.scratch);
	if (!ret)
		ld->missing_queues = &kv->val;
	return ret;
}

/* Keys whose null is not a default: an empty "actions:" is kept as "no actions". */
static struct vs_arg_kv *find_kv(struct vs_arg *root, const char *key)
{
	for (u32 i = 0; i < root->map->nr; i++)
		if (!strcmp(root->map->kv[i].key, key))
			return &root->map->kv[i];
	return NULL;
}

static int parse_root(struct ld *ld, struct vs_arg *root)
{
	struct scenario *scn = ld->scn;
	struct top_in in = { 0 };
	s64 cycles = 1;
	int ret;

	if (root->type == VS_ARG_NULL)
		return lerr(ld, 1, "the file is empty");
	ret = kf_walk(&ld->kf, root, "a scenario", top_fields, ARRAY_SIZE(top_fields), &in, NULL);
	if (ret)
		return ret;
	if (in.cycles && (ret = kf_get_int(&ld->kf, in.cycles, 1, SCN_CYCLES_MAX, &cycles)))
		return ret;
	ret = conformance_mark(ld, in.conformance);
	if (ret)
		return ret;
	scn->cycles = (u32)cycles;

	ret = add_each(ld, in.prioclasses, add_prioclass) ?:
	      add_each(ld, in.queues, add_queue) ?:
	      missing_queues(ld, in.missing_queues) ?:
	      add_each(ld, in.nodes, add_node) ?:
	      add_each(ld, in.hypernodes, add_hypernode) ?:
	      add_each(ld, in.podgroups, add_podgroup) ?:
	      add_each(ld, in.pods, add_pod);
	if (ret)
		return ret;

	/* walk() skips null values; "actions:" alone still chooses the explicit form */
	in.actions = find_kv(root, "actions");
	if (in.conf && (in.actions || in.plugins || in.action_args))
		return lerr(ld, in.conf->line,
			    "conf and actions/plugins/actionArguments exclude each other");
	if (in.conf)
		ret = conf_text(ld, in.conf);
	else if (in.actions || in.plugins || in.action_args)
		ret = conf_explicit(ld, in.actions, in.plugins, in.action_args);
	else
		ret = conf_default(ld);
	return ret ?: parse_expect(ld, in.expect);
}

static void scenario_init(struct scenario *scn, const char *file)
{
	memset(scn, 0, sizeof(*scn));
	scn->file = file;
	scn->cycles = 1;
}

int scenario_load_text(struct scenario *scn, const char *file, const char *text, size_t len,
		       struct vs_err *err)
{
	struct ld ld = {
		.kf = { .file = file, .msg = err->msg, .msg_size = sizeof(err->msg),
			.dims = &scn->cl.dims },
		.scn = scn, .file = file, .text = text, .len = len, .err = err,
	};
	struct vs_arg root;
	int ret;

	scenario_init(scn, file);
	ret = vs_yaml_parse(text, len, file, &root, err);
	if (!ret) {
		ret = vs_cluster_init(&scn->cl);
		if (ret)
			ret = loom(&ld);
		else
			scn->cl_ready = true;
	}
	if (!ret) {
		vs_arena_init(&ld.kf.scratch, 0);
		ret = parse_root(&ld, &root);
		vs_arena_destroy(&ld.kf.scratch);
	}
	vs_arg_free(&root);
	return ret;
}

int scenario_load(struct scenario *scn, const char *file, struct vs_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	scenario_init(scn, file);
	ret = vs_read_file(file, SCN_FILE_MAX, &text, &len, err);
	if (ret)
		return ret;
	ret = scenario_load_text(scn, file, text, len, err);
	free(text);
	return ret;
}

void scenario_free(struct scenario *scn)
{
	struct scn_expect *x = &scn->expect;

	vs_conf_free(scn->conf);
	free(scn->pipelines);
	scn_set_free(&x->binds);
	scn_set_free(&x->evicts);
	scn_set_free(&x->pipelined);
	scn_set_free(&x->phases);
	scn_set_free(&x->scores);
	scn_set_free(&x->explain);
	scn_set_free(&x->hypernodes);
	if (scn->cl_ready)
		vs_cluster_destroy(&scn->cl);
	memset(scn, 0, sizeof(*scn));
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Attributes as object specs: see parse.h.
 */
#include <libmnl/libmnl.h>
#include <string.h>

#include "netlink/parse.h"
#include "vsched/vsched.h"

void vs_nl_nest_tb(const struct nlattr *nest, const struct nlattr **tb, u16 max)
{
	const struct nlattr *a;

	memset(tb, 0, (max + 1u) * sizeof(*tb));
	mnl_attr_for_each_nested(a, nest) {
		u16 type = mnl_attr_get_type(a);

		if (type <= max)
			tb[type] = a;
	}
}

static u32 count_type(const struct nlattr *nest, u16 type)
{
	const struct nlattr *a;
	u32 n = 0;

	mnl_attr_for_each_nested(a, nest)
		n += mnl_attr_get_type(a) == type;
	return n;
}

/* Name the field an inner error came from, and pass the error on. */
static int in_field(struct vs_err *err, int ret, const char *field)
{
	vs_err_prefix(err, "%s: ", field);
	return ret;
}

static int nomem(struct vs_err *err)
{
	return vs_err_set(err, ENOMEM, "out of memory");
}

/* The strings of type @type in @parent, in order, in *@out (arena), *@nr of them. */
static int parse_strs(const struct nlattr *parent, u16 type, struct vs_arena *arena,
		      const char *const **out, u32 *nr, struct vs_err *err)
{
	u32 n = count_type(parent, type), k = 0;
	const struct nlattr *a;
	const char **v;

	*out = NULL;
	*nr = 0;
	if (!n)
		return 0;
	v = vs_arena_alloc(arena, n * sizeof(*v));
	if (!v)
		return nomem(err);
	mnl_attr_for_each_nested(a, parent)
		if (mnl_attr_get_type(a) == type)
			v[k++] = mnl_attr_get_str(a);
	*out = v;
	*nr = n;
	return 0;
}

/*
 * The nests of type @type in @parent, each read by @fn into its item of an
 * array of @size-byte items (zeroed, in @arena): *@out, *@nr of them; NULL
 * and 0 for none. @fn's error stops the read.
 */
typedef int (*parse_item_fn)(const struct nlattr *nest, void *item, struct vs_arena *arena,
			     struct vs_err *err);

static int parse_nests(const struct nlattr *parent, u16 type, struct vs_arena *arena, size_t size,
		       void **out, u32 *nr, parse_item_fn fn, struct vs_err *err)
{
	u32 n = count_type(parent, type), i = 0;
	const struct nlattr *a;
	char *v;
	int ret;

	*out = NULL;
	*nr = 0;
	if (!n)
		return 0;
	v = vs_arena_zalloc(arena, n * size);
	if (!v)
		return nomem(err);
	mnl_attr_for_each_nested(a, parent)
		if (mnl_attr_get_type(a) == type && (ret = fn(a, v + size * i++, arena, err)))
			return ret;
	*out = v;
	*nr = n;
	return 0;
}

/* ---- shared sets ---- */

static int res_value(const char *name, u64 v, struct vs_err *err)
{
	/* INT64_MAX is the core's "unlimited"; a real amount stays below it. */
	if (v >= (u64)VS_RES_INF)
		return vs_err_set(err, ERANGE, "resource %s: %llu is too large", name,
				  (unsigned long long)v);
	return 0;
}

/* The names go in @cl's table, journalled, or in @dims when @cl is NULL. */
static int parse_res(struct vs_cluster *cl, struct vs_res_dims *dims, const struct nlattr *nest,
		     struct vs_res *out, struct vs_err *err)
{
	static const struct { u16 type; unsigned int dim; const char *name; } fixed[] = {
		{ VS_RES_A_CPU, VS_RES_CPU, "cpu" },
		{ VS_RES_A_MEMORY, VS_RES_MEMORY, "memory" },
		{ VS_RES_A_PODS, VS_RES_PODS, "pods" },
	};
	const struct nlattr *a;
	int ret;

	vs_res_clear(out);
	mnl_attr_for_each_nested(a, nest) {
		u16 type = mnl_attr_get_type(a);
		const struct nlattr *tb[VS_SCALAR_A_MAX + 1];
		const char *name;
		int dim;

		for (unsigned int i = 0; i < ARRAY_SIZE(fixed); i++) {
			if (type != fixed[i].type)
				continue;
			ret = res_value(fixed[i].name, mnl_attr_get_u64(a), err);
			if (ret)
				return ret;
			vs_res_set(out, fixed[i].dim, (s64)mnl_attr_get_u64(a));
		}
		if (type != VS_RES_A_SCALAR)
			continue;
		vs_nl_nest_tb(a, tb, VS_SCALAR_A_MAX);
		if (!tb[VS_SCALAR_A_NAME] || !tb[VS_SCALAR_A_VALUE])
			return vs_err_set(err, EINVAL, "a scalar resource needs a name and a value");
		name = mnl_attr_get_str(tb[VS_SCALAR_A_NAME]);
		dim = cl ? vs_cluster_dim_get(cl, name, strlen(name), err) :
			   vs_res_dim_get(dims, name, strlen(name), err);
		if (dim < 0)
			return dim;
		ret = res_value(name, mnl_attr_get_u64(tb[VS_SCALAR_A_VALUE]), err);
		if (ret)
			return ret;
		vs_res_set(out, (unsigned int)dim, (s64)mnl_attr_get_u64(tb[VS_SCALAR_A_VALUE]));
	}
	return 0;
}

int vs_nl_parse_res(struct vs_cluster *cl, const struct nlattr *nest, struct vs_res *out,
		    struct vs_err *err)
{
	return parse_res(cl, NULL, nest, out, err);
}

int vs_nl_parse_res_names(struct vs_res_dims *dims, const struct nlattr *nest, struct vs_res *out,
			  struct vs_err *err)
{
	return parse_res(NULL, dims, nest, out, err);
}

/* Labels (or a node selector) into an arena array of key/value specs. */
static int parse_labels(const struct nlattr *nest, struct vs_arena *arena,
			const struct vs_kv_spec **out, u32 *nr, struct vs_err *err)
{
	u32 n = count_type(nest, VS_LABELS_A_ITEM), i = 0;
	struct vs_kv_spec *kv;
	const struct nlattr *a;

	*out = NULL;
	*nr = 0;
	if (!n)
		return 0;
	kv = vs_arena_alloc(arena, n * sizeof(*kv));
	if (!kv)
		return nomem(err);
	mnl_attr_for_each_nested(a, nest) {
		const struct nlattr *tb[VS_KV_A_MAX + 1];

		if (mnl_attr_get_type(a) != VS_LABELS_A_ITEM)
			continue;
		vs_nl_nest_tb(a, tb, VS_KV_A_MAX);
		if (!tb[VS_KV_A_KEY])
			return vs_err_set(err, EINVAL, "a label needs a key");
		kv[i].key = mnl_attr_get_str(tb[VS_KV_A_KEY]);
		kv[i].value = tb[VS_KV_A_VALUE] ? mnl_attr_get_str(tb[VS_KV_A_VALUE]) : "";
		i++;
	}
	*out = kv;
	*nr = n;
	return 0;
}

static int parse_taint(const struct nlattr *nest, void *item, struct vs_arena *arena,
		       struct vs_err *err)
{
	const struct nlattr *tb[VS_TAINT_A_MAX + 1];
	struct vs_taint_spec *t = item;

	vs_nl_nest_tb(nest, tb, VS_TAINT_A_MAX);
	if (!tb[VS_TAINT_A_KEY] || !tb[VS_TAINT_A_EFFECT])
		return vs_err_set(err, EINVAL, "a taint needs a key and an effect");
	t->key = mnl_attr_get_str(tb[VS_TAINT_A_KEY]);
	t->value = tb[VS_TAINT_A_VALUE] ? mnl_attr_get_str(tb[VS_TAINT_A_VALUE]) : "";
	t->effect = (enum vs_taint_effect)mnl_attr_get_u32(tb[VS_TAINT_A_EFFECT]);
	if (t->effect > VS_TAINT_NO_EXECUTE)
		return vs_err_set(err, EINVAL, "taint %s: effect %u is not a taint's", t->key,
				  t->effect);
	return 0;
}

static int parse_taints(const struct nlattr *parent, u16 type, struct vs_arena *arena,
			const struct vs_taint_spec **out, u32 *nr, struct vs_err *err)
{
	void *v;
	int ret = parse_nests(parent, type, arena, sizeof(**out), &v, nr, parse_taint, err);

	*out = v;
	return ret;
}

/* ---- nodes ---- */

/* A node's status.images: each entry's names and size. */
static int parse_node_image(const struct nlattr *nest, void *item, struct vs_arena *arena,
			    struct vs_err *err)
{
	const struct nlattr *tb[VS_NIMG_A_MAX + 1];
	struct vs_image_spec *im = item;

	vs_nl_nest_tb(nest, tb, VS_NIMG_A_MAX);
	im->size = tb[VS_NIMG_A_SIZE] ? (s64)mnl_attr_get_u64(tb[VS_NIMG_A_SIZE]) : 0;
	return parse_strs(nest, VS_NIMG_A_NAME, arena, &im->names, &im->nr_names, err) ?
	       -ENOMEM : 0;
}

int vs_nl_parse_node(struct vs_cluster *cl, const struct nlattr *nest,
		     struct vs_arena *arena, struct vs_node_spec *spec, struct vs_err *err)
{
	const struct nlattr *tb[VS_NODE_A_MAX + 1];
	int ret;

	vs_nl_nest_tb(nest, tb, VS_NODE_A_MAX);
	if (tb[VS_NODE_A_NAME])
		spec->name = mnl_attr_get_str(tb[VS_NODE_A_NAME]);
	if (tb[VS_NODE_A_ALLOCATABLE] &&
	    (ret = vs_nl_parse_res(cl, tb[VS_NODE_A_ALLOCATABLE], &spec->allocatable, err)))
		return in_field(err, ret, "allocatable");
	if (tb[VS_NODE_A_LABELS] &&
	    (ret = parse_labels(tb[VS_NODE_A_LABELS], arena, &spec->labels, &spec->nr_labels, err)))
		return ret;
	/* Taints repeat: if any is given, they replace the node's. */
	if (tb[VS_NODE_A_TAINT] &&
	    (ret = parse_taints(nest, VS_NODE_A_TAINT, arena, &spec->taints, &spec->nr_taints, err)))
		return ret;
	if (tb[VS_NODE_A_UNSCHEDULABLE])
		spec->unschedulable = mnl_attr_get_u8(tb[VS_NODE_A_UNSCHEDULABLE]);
	if (tb[VS_NODE_A_READY])
		spec->ready = mnl_attr_get_u8(tb[VS_NODE_A_READY]);
	/* Images repeat too: given, they replace the node's. */
	if (tb[VS_NODE_A_IMAGE]) {
		void *v;

		ret = parse_nests(nest, VS_NODE_A_IMAGE, arena, sizeof(*spec->images), &v,
				  &spec->nr_images, parse_node_image, err);
		if (ret)
			return in_field(err, ret, "images");
		spec->images = v;
	}
	return 0;
}

int vs_nl_node_spec_of(const struct vs_node *node, struct vs_arena *arena,
		       struct vs_node_spec *spec)
{
	vs_node_spec_init(spec, node->name);
	spec->allocatable = node->allocatable;
	spec->unschedulable = node->unschedulable;
	spec->ready = node->ready;
	if (node->labels && node->labels->nr) {
		struct vs_kv_spec *kv = vs_arena_alloc(arena, node->labels->nr * sizeof(*kv));

		if (!kv)
			return -ENOMEM;
		for (u32 i = 0; i < node->labels->nr; i++) {
			kv[i].key = node->labels->kv[i].key;
			kv[i].value = node->labels->kv[i].value;
		}
		spec->labels = kv;
		spec->nr_labels = node->labels->nr;
	}
	if (node->taints && node->taints->nr) {
		struct vs_taint_spec *t = vs_arena_alloc(arena, node->taints->nr * sizeof(*t));

		if (!t)
			return -ENOMEM;
		for (u32 i = 0; i < node->taints->nr; i++) {
			t[i].key = node->taints->t[i].key;
			t[i].value = node->taints->t[i].value;
			t[i].effect = node->taints->t[i].effect;
		}
		spec->taints = t;
		spec->nr_taints = node->taints->nr;
	}
	if (node->images && node->images->nr) {
		struct vs_image_spec *im = vs_arena_alloc(arena, node->images->nr * sizeof(*im));

		if (!im)
			return -ENOMEM;
		/* each name alone, with the size its summary holds */
		for (u32 i = 0; i < node->images->nr; i++)
			im[i] = (struct vs_image_spec){ .names = &node->images->v[i].name,
							.nr_names = 1,
							.size = node->images->v[i].size };
		spec->images = im;
		spec->nr_images = node->images->nr;
	}
	return 0;
}

/* ---- queues ---- */

int vs_nl_parse_queue(struct vs_cluster *cl, const struct nlattr *nest,
		      struct vs_arena *arena, struct vs_queue_spec *spec, struct vs_err *err)
{
	const struct nlattr *tb[VS_QUEUE_A_MAX + 1];
	int ret;

	vs_nl_nest_tb(nest, tb, VS_QUEUE_A_MAX);
	if (tb[VS_QUEUE_A_NAME])
		spec->name = mnl_attr_get_str(tb[VS_QUEUE_A_NAME]);
	if (tb[VS_QUEUE_A_WEIGHT])
		spec->weight = mnl_attr_get_u32(tb[VS_QUEUE_A_WEIGHT]);
	if (tb[VS_QUEUE_A_CAPABILITY]) {
		ret = vs_nl_parse_res(cl, tb[VS_QUEUE_A_CAPABILITY], &spec->capability, err);
		if (ret)
			return in_field(err, ret, "capability");
		spec->has_capability = true;
	}
	if (tb[VS_QUEUE_A_GUARANTEE] &&
	    (ret = vs_nl_parse_res(cl, tb[VS_QUEUE_A_GUARANTEE], &spec->guarantee, err)))
		return in_field(err, ret, "guarantee");
	if (tb[VS_QUEUE_A_DESERVED]) {
		ret = vs_nl_parse_res(cl, tb[VS_QUEUE_A_DESERVED], &spec->deserved, err);
		if (ret)
			return in_field(err, ret, "deserved");
		spec->has_deserved = true;
	}
	if (tb[VS_QUEUE_A_RECLAIMABLE])
		spec->reclaimable = mnl_attr_get_u8(tb[VS_QUEUE_A_RECLAIMABLE]);
	if (tb[VS_QUEUE_A_PRIORITY])
		spec->priority = (s32)mnl_attr_get_u32(tb[VS_QUEUE_A_PRIORITY]);
	if (tb[VS_QUEUE_A_STATE])
		spec->state = (enum vs_queue_state)mnl_attr_get_u32(tb[VS_QUEUE_A_STATE]);
	if (tb[VS_QUEUE_A_PARENT])
		spec->parent = mnl_attr_get_str(tb[VS_QUEUE_A_PARENT]);
	if (tb[VS_QUEUE_A_CREATED])
		spec->created = mnl_attr_get_u64(tb[VS_QUEUE_A_CREATED]);
	return 0;
}

void vs_nl_queue_spec_of(const struct vs_queue *q, struct vs_queue_spec *spec)
{
	vs_queue_spec_init(spec, q->name);
	spec->weight = q->weight;
	spec->capability = q->capability;
	spec->has_capability = q->has_capability;
	spec->guarantee = q->guarantee;
	spec->deserved = q->deserved;
	spec->has_deserved = q->has_deserved;
	spec->reclaimable = q->reclaimable;
	spec->priority = q->priority;
	spec->state = q->state;
	spec->parent = q->parent;
	spec->created = q->created;
}
/* status.conditions, each a given one (policies.c has checked the attributes). */
static int parse_pg_conditions(const struct nlattr *nest, struct vs_job_spec *spec,
			       struct vs_arena *arena, struct vs_err *err)
{
	u32 n = count_type(nest, VS_PG_A_CONDITION), i = 0;
	struct vs_pg_condition_spec *cond = vs_arena_alloc(arena, n * sizeof(*cond));
	const struct nlattr *a;

	if (!cond)
		return nomem(err);
	mnl_attr_for_each_nested(a, nest) {
		const struct nlattr *ctb[VS_COND_A_MAX + 1];

		if (mnl_attr_get_type(a) != VS_PG_A_CONDITION)
			continue;
		vs_nl_nest_tb(a, ctb, VS_COND_A_MAX);
		memset(&cond[i], 0, sizeof(cond[i]));
		cond[i].type = (enum vs_pg_cond_type)mnl_attr_get_u32(ctb[VS_COND_A_TYPE]);
		cond[i].status = ctb[VS_COND_A_STATUS] && mnl_attr_get_u8(ctb[VS_COND_A_STATUS]);
		if (ctb[VS_COND_A_REASON])
			cond[i].reason = mnl_attr_get_str(ctb[VS_COND_A_REASON]);
		if (ctb[VS_COND_A_MESSAGE])
			cond[i].message = mnl_attr_get_str(ctb[VS_COND_A_MESSAGE]);
		if (ctb[VS_COND_A_TRANSITION_ID])
			cond[i].transition_id = mnl_attr_get_str(ctb[VS_COND_A_TRANSITION_ID]);
		if (ctb[VS_COND_A_TIME])
			cond[i].time = mnl_attr_get_u64(ctb[VS_COND_A_TIME]);
		i++;
	}
	spec->cond = cond;
	spec->nr_cond = n;
	return 0;
}


/* ---- PodGroups ---- */

static void parse_net_topology(const struct nlattr *nest, struct vs_net_topology_spec *nt);
static int parse_subgroups(const struct nlattr *nest, struct vs_arena *arena,
			   struct vs_job_spec *spec, struct vs_err *err);

int vs_nl_parse_podgroup(struct vs_cluster *cl, const struct nlattr *nest,
			 struct vs_arena *arena, struct vs_job_spec *spec, struct vs_err *err)
{
	const struct nlattr *tb[VS_PG_A_MAX + 1];
	int ret;

	vs_nl_nest_tb(nest, tb, VS_PG_A_MAX);
	if (tb[VS_PG_A_NAMESPACE])
		spec->ns = mnl_attr_get_str(tb[VS_PG_A_NAMESPACE]);
	if (tb[VS_PG_A_NAME])
		spec->name = mnl_attr_get_str(tb[VS_PG_A_NAME]);
	if (tb[VS_PG_A_QUEUE])
		spec->queue = mnl_attr_get_str(tb[VS_PG_A_QUEUE]);
	if (tb[VS_PG_A_MIN_MEMBER])
		spec->min_member = mnl_attr_get_u32(tb[VS_PG_A_MIN_MEMBER]);
	if (tb[VS_PG_A_MIN_TASK_MEMBER]) {
		u32 n = count_type(nest, VS_PG_A_MIN_TASK_MEMBER), i = 0;
		struct vs_role_min_spec *rm = vs_arena_alloc(arena, n * sizeof(*rm));
		const struct nlattr *a;

		if (!rm)
			return nomem(err);
		mnl_attr_for_each_nested(a, nest) {
			const struct nlattr *rtb[VS_ROLE_MIN_A_MAX + 1];

			if (mnl_attr_get_type(a) != VS_PG_A_MIN_TASK_MEMBER)
				continue;
			vs_nl_nest_tb(a, rtb, VS_ROLE_MIN_A_MAX);
			if (!rtb[VS_ROLE_MIN_A_MIN])
				return vs_err_set(err, EINVAL, "minTaskMember: a role needs its minimum");
			rm[i].role = rtb[VS_ROLE_MIN_A_ROLE] ? mnl_attr_get_str(rtb[VS_ROLE_MIN_A_ROLE])
							      : "";
			rm[i].min = mnl_attr_get_u32(rtb[VS_ROLE_MIN_A_MIN]);
			i++;
		}
		spec->min_task_member = rm;
		spec->nr_min_task_member = n;
	}
	if (tb[VS_PG_A_MIN_RESOURCES]) {
		ret = vs_nl_parse_res(cl, tb[VS_PG_A_MIN_RESOURCES], &spec->min_resources, err);
		if (ret)
			return in_field(err, ret, "minResources");
		spec->has_min_resources = true;
	}
	if (tb[VS_PG_A_PRIORITY_CLASS])
		spec->priority_class = mnl_attr_get_str(tb[VS_PG_A_PRIORITY_CLASS]);
	if (tb[VS_PG_A_PHASE])
		spec->phase = (enum vs_pg_phase)mnl_attr_get_u32(tb[VS_PG_A_PHASE]);
	if (tb[VS_PG_A_CREATED])
		spec->created = mnl_attr_get_u64(tb[VS_PG_A_CREATED]);
	if (tb[VS_PG_A_PREEMPTABLE])
		spec->preemptable = mnl_attr_get_u8(tb[VS_PG_A_PREEMPTABLE]) ?
				    VS_PG_PREEMPTABLE_TRUE : VS_PG_PREEMPTABLE_FALSE;
	if (tb[VS_PG_A_NETWORK_TOPOLOGY])
		parse_net_topology(tb[VS_PG_A_NETWORK_TOPOLOGY], &spec->net_topology);
	if (tb[VS_PG_A_SUBGROUP_POLICY] && (ret = parse_subgroups(nest, arena, spec, err)))
		return ret;
	if (tb[VS_PG_A_CONDITION])
		return parse_pg_conditions(nest, spec, arena, err);
	return 0;
}

int vs_nl_podgroup_spec_of(const struct vs_job *job, struct vs_arena *arena,
			   struct vs_job_spec *spec)
{
	vs_job_spec_init(spec, job->ns, job->name);
	spec->queue = job->queue_name;
	spec->min_member = job->min_member;
	spec->min_resources = job->min_resources;
	spec->has_min_resources = job->has_min_resources;
	spec->priority_class = job->priority_class;
	spec->phase = job->phase;
	spec->preemptable = (enum vs_pg_preemptable)job->preemptable;
	spec->created = job->created;
	vs_net_topology_spec_of(&job->net_topology, &spec->net_topology);
	if (vs_subgroups_spec_of(job->subgroups, job->nr_subgroups, arena, &spec->subgroups))
		return -ENOMEM;
	spec->nr_subgroups = job->nr_subgroups;
	if (job->nr_min_task_member) {
		struct vs_role_min_spec *rm;

		rm = vs_arena_alloc(arena, job->nr_min_task_member * sizeof(*rm));
		if (!rm)
			return -ENOMEM;
		for (u32 i = 0; i < job->nr_min_task_member; i++) {
			rm[i].role = job->min_task_member[i].role;
			rm[i].min = job->min_task_member[i].min;
		}
		spec->min_task_member = rm;
		spec->nr_min_task_member = job->nr_min_task_member;
	}
	return 0;
}

/* ---- tasks ---- */

static int parse_toleration(const struct nlattr *nest, void *item, struct vs_arena *arena,
			    struct vs_err *err)
{
	const struct nlattr *tb[VS_TOL_A_MAX + 1];
	struct vs_toleration_spec *t = item;

	vs_nl_nest_tb(nest, tb, VS_TOL_A_MAX);
	t->key = tb[VS_TOL_A_KEY] ? mnl_attr_get_str(tb[VS_TOL_A_KEY]) : "";
	t->op = tb[VS_TOL_A_OPERATOR] ?
		(enum vs_toleration_op)mnl_attr_get_u32(tb[VS_TOL_A_OPERATOR]) :
		VS_TOLERATION_EQUAL;
	t->value = tb[VS_TOL_A_VALUE] ? mnl_attr_get_str(tb[VS_TOL_A_VALUE]) : "";
	t->effect = tb[VS_TOL_A_EFFECT] ?
		(enum vs_taint_effect)mnl_attr_get_u32(tb[VS_TOL_A_EFFECT]) : VS_TAINT_EFFECT_ALL;
	if (tb[VS_TOL_A_SECONDS]) {
		t->has_seconds = true;
		t->seconds = (s64)mnl_attr_get_u64(tb[VS_TOL_A_SECONDS]);
	}
	return 0;
}

static int parse_tolerations(const struct nlattr *parent, u16 type, struct vs_arena *arena,
			     const struct vs_toleration_spec **out, u32 *nr, struct vs_err *err)
{
	void *v;
	int ret = parse_nests(parent, type, arena, sizeof(**out), &v, nr, parse_toleration, err);

	*out = v;
	return ret;
}

/* A host port; the core checks it (core/ports.h). */
static int parse_host_port(const struct nlattr *nest, void *item, struct vs_arena *arena,
			   struct vs_err *err)
{
	const struct nlattr *tb[VS_HPORT_A_MAX + 1];
	struct vs_host_port_spec *p = item;

	vs_nl_nest_tb(nest, tb, VS_HPORT_A_MAX);
	p->port = mnl_attr_get_u32(tb[VS_HPORT_A_PORT]);	/* required */
	p->protocol = tb[VS_HPORT_A_PROTOCOL] ?
		      (enum vs_port_protocol)mnl_attr_get_u32(tb[VS_HPORT_A_PROTOCOL]) : VS_PORT_TCP;
	p->ip = tb[VS_HPORT_A_IP] ? mnl_attr_get_str(tb[VS_HPORT_A_IP]) : NULL;
	return 0;
}

/* The host ports of type @type in @parent. */
static int parse_host_ports(const struct nlattr *parent, u16 type, struct vs_arena *arena,
			    const struct vs_host_port_spec **out, u32 *nr, struct vs_err *err)
{
	void *v;
	int ret = parse_nests(parent, type, arena, sizeof(**out), &v, nr, parse_host_port, err);

	*out = v;
	return ret;
}

/* The requirements of type @type in @parent (selector expressions or fields). */
static int parse_selreqs(const struct nlattr *parent, u16 type, struct vs_arena *arena,
			 const struct vs_sel_req_spec **out, u32 *nr, struct vs_err *err)
{
	u32 n = count_type(parent, type), i = 0;
	struct vs_sel_req_spec *r;
	const struct nlattr *a;

	*out = NULL;
	*nr = 0;
	if (!n)
		return 0;
	r = vs_arena_zalloc(arena, n * sizeof(*r));
	if (!r)
		return nomem(err);
	mnl_attr_for_each_nested(a, parent) {
		const struct nlattr *tb[VS_SELREQ_A_MAX + 1], *v;
		const char **values;
		u32 nv, j = 0;

		if (mnl_attr_get_type(a) != type)
			continue;
		vs_nl_nest_tb(a, tb, VS_SELREQ_A_MAX);
		if (!tb[VS_SELREQ_A_KEY] || !tb[VS_SELREQ_A_OP])
			return vs_err_set(err, EINVAL, "a selector requirement needs a key and an operator");
		r[i].key = mnl_attr_get_str(tb[VS_SELREQ_A_KEY]);
		r[i].op = (enum vs_sel_op)mnl_attr_get_u32(tb[VS_SELREQ_A_OP]);
		nv = count_type(a, VS_SELREQ_A_VALUE);
		values = nv ? vs_arena_alloc(arena, nv * sizeof(*values)) : NULL;
		if (nv && !values)
			return nomem(err);
		mnl_attr_for_each_nested(v, a)
			if (mnl_attr_get_type(v) == VS_SELREQ_A_VALUE)
				values[j++] = mnl_attr_get_str(v);
		r[i].values = values;
		r[i].nr_values = nv;
		i++;
	}
	*out = r;
	*nr = n;
	return 0;
}

static int parse_nsterm(const struct nlattr *nest, struct vs_arena *arena,
			struct vs_node_selector_term_spec *t, struct vs_err *err)
{
	int ret = parse_selreqs(nest, VS_NSTERM_A_EXPR, arena, &t->exprs, &t->nr_exprs, err);

	return ret ? ret : parse_selreqs(nest, VS_NSTERM_A_FIELD, arena, &t->fields,
					 &t->nr_fields, err);
}

static s32 weight_of(const struct nlattr *nest, u16 type)
{
	const struct nlattr *a;
	s32 w = 0;

	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == type)
			w = (s32)mnl_attr_get_u32(a);
	return w;
}

static int parse_lsel(const struct nlattr *nest, struct vs_arena *arena,
		      const struct vs_label_selector_spec **out, struct vs_err *err)
{
	struct vs_label_selector_spec *sel = vs_arena_zalloc(arena, sizeof(*sel));
	const struct nlattr *tb[VS_LSEL_A_MAX + 1];
	int ret;

	if (!sel)
		return nomem(err);
	vs_nl_nest_tb(nest, tb, VS_LSEL_A_MAX);
	if (tb[VS_LSEL_A_MATCH_LABELS] &&
	    (ret = parse_labels(tb[VS_LSEL_A_MATCH_LABELS], arena, &sel->match_labels,
				&sel->nr_match_labels, err)))
		return ret;
	ret = parse_selreqs(nest, VS_LSEL_A_EXPR, arena, &sel->exprs, &sel->nr_exprs, err);
	*out = sel;
	return ret;
}

/* A topology spread constraint; the core checks it (core/spread.h). */
static int parse_spread(const struct nlattr *nest, void *item, struct vs_arena *arena,
			struct vs_err *err)
{
	const struct nlattr *tb[VS_SPREAD_A_MAX + 1];
	struct vs_spread_constraint_spec *s = item;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_SPREAD_A_MAX);
	/* required: maxSkew, topologyKey, whenUnsatisfiable */
	s->max_skew = (s32)mnl_attr_get_u32(tb[VS_SPREAD_A_MAX_SKEW]);
	s->topology_key = mnl_attr_get_str(tb[VS_SPREAD_A_TOPOLOGY_KEY]);
	s->when = mnl_attr_get_u32(tb[VS_SPREAD_A_WHEN]) == VS_SPREAD_ACTION_SCHEDULE_ANYWAY ?
		  VS_SPREAD_SCHEDULE_ANYWAY : VS_SPREAD_DO_NOT_SCHEDULE;
	if (tb[VS_SPREAD_A_MIN_DOMAINS])
		s->min_domains = (s32)mnl_attr_get_u32(tb[VS_SPREAD_A_MIN_DOMAINS]);
	/* the uapi's Honor 0 and Ignore 1; the core's 0 is unset */
	if (tb[VS_SPREAD_A_NODE_AFFINITY_POLICY])
		s->node_affinity_policy = (enum vs_inclusion_policy)
			(mnl_attr_get_u32(tb[VS_SPREAD_A_NODE_AFFINITY_POLICY]) + 1);
	if (tb[VS_SPREAD_A_NODE_TAINTS_POLICY])
		s->node_taints_policy = (enum vs_inclusion_policy)
			(mnl_attr_get_u32(tb[VS_SPREAD_A_NODE_TAINTS_POLICY]) + 1);
	if (tb[VS_SPREAD_A_SELECTOR] &&
	    (ret = parse_lsel(tb[VS_SPREAD_A_SELECTOR], arena, &s->selector, err)))
		return ret;
	return parse_strs(nest, VS_SPREAD_A_MATCH_LABEL_KEY, arena, &s->match_label_keys,
			  &s->nr_match_label_keys, err) ? -ENOMEM : 0;
}

/* ---- topology requests: networkTopology, subGroupPolicy ---- */

static void parse_net_topology(const struct nlattr *nest, struct vs_net_topology_spec *nt)
{
	const struct nlattr *tb[VS_NT_A_MAX + 1];

	vs_nl_nest_tb(nest, tb, VS_NT_A_MAX);
	memset(nt, 0, sizeof(*nt));
	nt->set = true;
	nt->mode = tb[VS_NT_A_MODE] ? (enum vs_nt_mode)mnl_attr_get_u32(tb[VS_NT_A_MODE]) :
				      VS_NT_HARD;
	if (tb[VS_NT_A_HIGHEST_TIER]) {
		nt->has_highest_tier = true;
		nt->highest_tier = (s32)mnl_attr_get_u32(tb[VS_NT_A_HIGHEST_TIER]);
	}
	if (tb[VS_NT_A_HIGHEST_TIER_NAME])
		nt->highest_tier_name = mnl_attr_get_str(tb[VS_NT_A_HIGHEST_TIER_NAME]);
}

static int parse_subgroup(const struct nlattr *nest, struct vs_arena *arena,
			  struct vs_subgroup_policy_spec *sg, struct vs_err *err)
{
	const struct nlattr *tb[VS_SGP_A_MAX + 1];
	int ret;

	vs_nl_nest_tb(nest, tb, VS_SGP_A_MAX);
	sg->name = tb[VS_SGP_A_NAME] ? mnl_attr_get_str(tb[VS_SGP_A_NAME]) : "";
	if (tb[VS_SGP_A_NETWORK_TOPOLOGY])
		parse_net_topology(tb[VS_SGP_A_NETWORK_TOPOLOGY], &sg->nt);
	sg->sub_group_size = tb[VS_SGP_A_SUBGROUP_SIZE] ?
			     mnl_attr_get_u32(tb[VS_SGP_A_SUBGROUP_SIZE]) : 1;
	if (tb[VS_SGP_A_MIN_SUBGROUPS])
		sg->min_sub_groups = mnl_attr_get_u32(tb[VS_SGP_A_MIN_SUBGROUPS]);
	if (tb[VS_SGP_A_LABEL_SELECTOR] &&
	    (ret = parse_lsel(tb[VS_SGP_A_LABEL_SELECTOR], arena, &sg->selector, err)))
		return in_field(err, ret, "labelSelector");
	return parse_strs(nest, VS_SGP_A_MATCH_LABEL_KEY, arena, &sg->match_label_keys,
			  &sg->nr_match_label_keys, err);
}

static int parse_subgroups(const struct nlattr *nest, struct vs_arena *arena,
			   struct vs_job_spec *spec, struct vs_err *err)
{
	u32 n = count_type(nest, VS_PG_A_SUBGROUP_POLICY), i = 0;
	struct vs_subgroup_policy_spec *sg = vs_arena_zalloc(arena, n * sizeof(*sg));
	const struct nlattr *a;
	int ret;

	if (!sg)
		return nomem(err);
	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) != VS_PG_A_SUBGROUP_POLICY)
			continue;
		ret = parse_subgroup(a, arena, &sg[i], err);
		if (ret) {
			vs_err_prefix(err, "subGroupPolicy[%u]: ", i);
			return ret;
		}
		i++;
	}
	spec->subgroups = sg;
	spec->nr_subgroups = n;
	return 0;
}

static int parse_podterm(const struct nlattr *nest, struct vs_arena *arena,
			 struct vs_pod_affinity_term_spec *t, struct vs_err *err)
{
	const struct nlattr *tb[VS_PODTERM_A_MAX + 1], *a;
	u32 n = count_type(nest, VS_PODTERM_A_NAMESPACE), i = 0;
	const char **ns;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_PODTERM_A_MAX);
	if (!tb[VS_PODTERM_A_TOPOLOGY_KEY])
		return vs_err_set(err, EINVAL, "a pod affinity term needs a topologyKey");
	t->topology_key = mnl_attr_get_str(tb[VS_PODTERM_A_TOPOLOGY_KEY]);
	if (tb[VS_PODTERM_A_SELECTOR] &&
	    (ret = parse_lsel(tb[VS_PODTERM_A_SELECTOR], arena, &t->selector, err)))
		return ret;
	if (tb[VS_PODTERM_A_NS_SELECTOR] &&
	    (ret = parse_lsel(tb[VS_PODTERM_A_NS_SELECTOR], arena, &t->ns_selector, err)))
		return ret;
	ns = n ? vs_arena_alloc(arena, n * sizeof(*ns)) : NULL;
	if (n && !ns)
		return nomem(err);
	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == VS_PODTERM_A_NAMESPACE)
			ns[i++] = mnl_attr_get_str(a);
	t->namespaces = ns;
	t->nr_namespaces = n;
	return 0;
}

static int parse_pod_affinity(const struct nlattr *aff, u16 req_type, u16 pref_type,
			      struct vs_arena *arena, const struct vs_pod_affinity_spec **out,
			      struct vs_err *err)
{
	u32 nr = count_type(aff, req_type), np = count_type(aff, pref_type), ir = 0, ip = 0;
	struct vs_weighted_pod_affinity_term_spec *pref;
	struct vs_pod_affinity_term_spec *req;
	struct vs_pod_affinity_spec *pa;
	const struct nlattr *a;
	int ret;

	*out = NULL;
	if (!nr && !np)
		return 0;
	pa = vs_arena_zalloc(arena, sizeof(*pa));
	req = nr ? vs_arena_zalloc(arena, nr * sizeof(*req)) : NULL;
	pref = np ? vs_arena_zalloc(arena, np * sizeof(*pref)) : NULL;
	if (!pa || (nr && !req) || (np && !pref))
		return nomem(err);
	mnl_attr_for_each_nested(a, aff) {
		u16 type = mnl_attr_get_type(a);

		if (type == req_type) {
			ret = parse_podterm(a, arena, &req[ir++], err);
		} else if (type == pref_type) {
			pref[ip].weight = weight_of(a, VS_PODTERM_A_WEIGHT);
			ret = parse_podterm(a, arena, &pref[ip++].term, err);
		} else {
			continue;
		}
		if (ret)
			return ret;
	}
	pa->required = req;
	pa->nr_required = nr;
	pa->preferred = pref;
	pa->nr_preferred = np;
	*out = pa;
	return 0;
}

static int parse_affinity(const struct nlattr *aff, struct vs_arena *arena,
			  const struct vs_affinity_spec **out, struct vs_err *err)
{
	u32 nr = count_type(aff, VS_AFF_A_NODE_REQUIRED), np = count_type(aff, VS_AFF_A_NODE_PREFERRED);
	struct vs_affinity_spec *spec = vs_arena_zalloc(arena, sizeof(*spec));
	u32 ir = 0, ip = 0;
	const struct nlattr *a;
	int ret;

	if (!spec)
		return nomem(err);
	if (nr || np) {
		struct vs_node_affinity_spec *na = vs_arena_zalloc(arena, sizeof(*na));
		struct vs_node_selector_term_spec *terms = NULL;
		struct vs_node_pref_term_spec *pref = NULL;

		if (!na)
			return nomem(err);
		if (nr) {
			struct vs_node_selector_spec *sel = vs_arena_zalloc(arena, sizeof(*sel));

			terms = vs_arena_zalloc(arena, nr * sizeof(*terms));
			if (!sel || !terms)
				return nomem(err);
			sel->terms = terms;
			sel->nr_terms = nr;
			na->required = sel;
		}
		if (np && !(pref = vs_arena_zalloc(arena, np * sizeof(*pref))))
			return nomem(err);
		mnl_attr_for_each_nested(a, aff) {
			u16 type = mnl_attr_get_type(a);

			if (type == VS_AFF_A_NODE_REQUIRED) {
				ret = parse_nsterm(a, arena, &terms[ir++], err);
			} else if (type == VS_AFF_A_NODE_PREFERRED) {
				pref[ip].weight = weight_of(a, VS_NSTERM_A_WEIGHT);
				ret = parse_nsterm(a, arena, &pref[ip++].preference, err);
			} else {
				continue;
			}
			if (ret)
				return ret;
		}
		na->preferred = pref;
		na->nr_preferred = np;
		spec->node_affinity = na;
	}
	ret = parse_pod_affinity(aff, VS_AFF_A_POD_REQUIRED, VS_AFF_A_POD_PREFERRED, arena,
				 &spec->pod_affinity, err);
	if (!ret)
		ret = parse_pod_affinity(aff, VS_AFF_A_ANTI_REQUIRED, VS_AFF_A_ANTI_PREFERRED, arena,
					 &spec->pod_anti_affinity, err);
	*out = spec;
	return ret;
}

int vs_nl_parse_task(struct vs_cluster *cl, const struct nlattr *nest,
		     struct vs_arena *arena, struct vs_task_spec *spec, struct vs_err *err)
{
	return vs_nl_parse_pod(cl, nest, arena, spec, NULL, err);
}

int vs_nl_parse_pod(struct vs_cluster *cl, const struct nlattr *nest, struct vs_arena *arena,
		    struct vs_task_spec *spec, struct vs_ctl_pod *pod, struct vs_err *err)
{
	const struct nlattr *tb[VS_TASK_A_MAX + 1];
	void *v;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_TASK_A_MAX);
	if (pod)
		*pod = (struct vs_ctl_pod){
			.queue = tb[VS_TASK_A_QUEUE] ? mnl_attr_get_str(tb[VS_TASK_A_QUEUE]) : NULL,
			.scheduler = tb[VS_TASK_A_SCHEDULER] ?
				     mnl_attr_get_str(tb[VS_TASK_A_SCHEDULER]) : NULL,
			.admit = tb[VS_TASK_A_ADMIT],
			.has_priority = tb[VS_TASK_A_PRIORITY],
			.has_policy = tb[VS_TASK_A_PREEMPTION_POLICY],
		};
	if (tb[VS_TASK_A_NAMESPACE])
		spec->ns = mnl_attr_get_str(tb[VS_TASK_A_NAMESPACE]);
	if (tb[VS_TASK_A_NAME])
		spec->name = mnl_attr_get_str(tb[VS_TASK_A_NAME]);
	if (tb[VS_TASK_A_PODGROUP])
		spec->job = mnl_attr_get_str(tb[VS_TASK_A_PODGROUP]);
	if (tb[VS_TASK_A_ROLE])
		spec->role = mnl_attr_get_str(tb[VS_TASK_A_ROLE]);
	if (tb[VS_TASK_A_STATUS])
		spec->status = (enum vs_task_status)mnl_attr_get_u32(tb[VS_TASK_A_STATUS]);
	if (tb[VS_TASK_A_NODE])
		spec->node = mnl_attr_get_str(tb[VS_TASK_A_NODE]);
	if (tb[VS_TASK_A_REQUEST] &&
	    (ret = vs_nl_parse_res(cl, tb[VS_TASK_A_REQUEST], &spec->req, err)))
		return in_field(err, ret, "request");
	if (tb[VS_TASK_A_INIT_REQUEST]) {
		ret = vs_nl_parse_res(cl, tb[VS_TASK_A_INIT_REQUEST], &spec->init_req, err);
		if (ret)
			return in_field(err, ret, "init request");
		spec->has_init_req = true;
	}
	if (tb[VS_TASK_A_PRIORITY])
		spec->priority = (s32)mnl_attr_get_u32(tb[VS_TASK_A_PRIORITY]);
	if (tb[VS_TASK_A_PRIORITY_CLASS])
		spec->priority_class = mnl_attr_get_str(tb[VS_TASK_A_PRIORITY_CLASS]);
	if (tb[VS_TASK_A_CREATED])
		spec->created = mnl_attr_get_u64(tb[VS_TASK_A_CREATED]);
	if (tb[VS_TASK_A_OWNER_UID])
		spec->owner_uid = mnl_attr_get_str(tb[VS_TASK_A_OWNER_UID]);
	if (tb[VS_TASK_A_PREEMPTABLE])
		spec->preemptable = mnl_attr_get_u8(tb[VS_TASK_A_PREEMPTABLE]);
	spec->gated = tb[VS_TASK_A_GATED];
	if (tb[VS_TASK_A_NOMINATED_NODE])
		spec->nominated = mnl_attr_get_str(tb[VS_TASK_A_NOMINATED_NODE]);
	if (tb[VS_TASK_A_PREEMPTION_POLICY])
		spec->preemption_policy =
			(enum vs_preemption_policy)mnl_attr_get_u32(tb[VS_TASK_A_PREEMPTION_POLICY]);
	if (tb[VS_TASK_A_LABELS] &&
	    (ret = parse_labels(tb[VS_TASK_A_LABELS], arena, &spec->labels, &spec->nr_labels, err)))
		return in_field(err, ret, "labels");
	if (tb[VS_TASK_A_NODE_SELECTOR] &&
	    (ret = parse_labels(tb[VS_TASK_A_NODE_SELECTOR], arena, &spec->node_selector,
				&spec->nr_node_selector, err)))
		return in_field(err, ret, "nodeSelector");
	if (tb[VS_TASK_A_TOLERATION] &&
	    (ret = parse_tolerations(nest, VS_TASK_A_TOLERATION, arena, &spec->tolerations,
				     &spec->nr_tolerations, err)))
		return in_field(err, ret, "tolerations");
	if (tb[VS_TASK_A_AFFINITY] &&
	    (ret = parse_affinity(tb[VS_TASK_A_AFFINITY], arena, &spec->affinity, err)))
		return in_field(err, ret, "affinity");
	if (tb[VS_TASK_A_HOST_PORT] &&
	    (ret = parse_host_ports(nest, VS_TASK_A_HOST_PORT, arena, &spec->ports,
				    &spec->nr_ports, err)))
		return in_field(err, ret, "hostPorts");
	if (parse_strs(nest, VS_TASK_A_IMAGE, arena, &spec->images, &spec->nr_images, err))
		return -ENOMEM;
	ret = parse_nests(nest, VS_TASK_A_SPREAD, arena, sizeof(*spec->spread), &v,
			  &spec->nr_spread, parse_spread, err);
	if (ret)
		return in_field(err, ret, "topologySpreadConstraints");
	spec->spread = v;
	return 0;
}

/* ---- VolcanoJobs ---- */

/* The lifecycle policies of type @type in @parent: an event or an exit code, and an action. */
static int parse_policies(const struct nlattr *parent, u16 type, struct vs_arena *arena,
			  const struct vs_vjob_policy **out, u32 *nr, struct vs_err *err)
{
	u32 n = count_type(parent, type), i = 0;
	struct vs_vjob_policy *p;
	const struct nlattr *a;
	int ret;

	*out = NULL;
	*nr = 0;
	if (!n)
		return 0;
	p = vs_arena_zalloc(arena, n * sizeof(*p));
	if (!p)
		return nomem(err);
	mnl_attr_for_each_nested(a, parent) {
		const struct nlattr *tb[VS_POLICY_A_MAX + 1];

		if (mnl_attr_get_type(a) != type)
			continue;
		vs_nl_nest_tb(a, tb, VS_POLICY_A_MAX);
		/* As Volcano's admission webhook: one of the two, never both. */
		if (!tb[VS_POLICY_A_EVENT] == !tb[VS_POLICY_A_EXIT_CODE])
			return vs_err_set(err, EINVAL, "policy %u: give an event or an exit "
					  "code, %s", i,
					  tb[VS_POLICY_A_EVENT] ? "not both" : "none is given");
		if (tb[VS_POLICY_A_EVENT]) {
			ret = vs_vjob_event_parse(mnl_attr_get_str(tb[VS_POLICY_A_EVENT]),
						  &p[i].event, err);
		} else {
			p[i].has_exit_code = true;
			p[i].exit_code = (s32)mnl_attr_get_u32(tb[VS_POLICY_A_EXIT_CODE]);
			ret = 0;
		}
		if (!ret)
			ret = vs_vjob_action_parse(mnl_attr_get_str(tb[VS_POLICY_A_ACTION]),
						   &p[i].action, err);
		if (ret) {
			vs_err_prefix(err, "policy %u: ", i);
			return ret;
		}
		i++;
	}
	*out = p;
	*nr = n;
	return 0;
}

static void parse_partition(const struct nlattr *nest, struct vs_vjob_task_spec *t)
{
	const struct nlattr *tb[VS_PART_A_MAX + 1];

	vs_nl_nest_tb(nest, tb, VS_PART_A_MAX);
	t->has_partition = true;
	/* both required by the policy */
	t->total_partitions = mnl_attr_get_u32(tb[VS_PART_A_TOTAL_PARTITIONS]);
	t->partition_size = mnl_attr_get_u32(tb[VS_PART_A_PARTITION_SIZE]);
	if (tb[VS_PART_A_MIN_PARTITIONS])
		t->min_partitions = mnl_attr_get_u32(tb[VS_PART_A_MIN_PARTITIONS]);
	if (tb[VS_PART_A_NETWORK_TOPOLOGY])
		parse_net_topology(tb[VS_PART_A_NETWORK_TOPOLOGY], &t->partition_nt);
}

static int parse_vtask(struct vs_cluster *cl, const struct nlattr *nest, struct vs_arena *arena,
		       struct vs_vjob_task_spec *t, struct vs_err *err)
{
	const struct nlattr *tb[VS_VTASK_A_MAX + 1];
	void *v;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_VTASK_A_MAX);
	t->name = mnl_attr_get_str(tb[VS_VTASK_A_NAME]);	/* required by the policy */
	if (tb[VS_VTASK_A_REPLICAS])
		t->replicas = mnl_attr_get_u32(tb[VS_VTASK_A_REPLICAS]);
	if (tb[VS_VTASK_A_MIN_AVAILABLE]) {
		t->min_available = mnl_attr_get_u32(tb[VS_VTASK_A_MIN_AVAILABLE]);
		t->has_min_available = true;
	}
	if (tb[VS_VTASK_A_REQUEST] &&
	    (ret = vs_nl_parse_res(cl, tb[VS_VTASK_A_REQUEST], &t->req, err)))
		return in_field(err, ret, "request");
	if (tb[VS_VTASK_A_LABELS] &&
	    (ret = parse_labels(tb[VS_VTASK_A_LABELS], arena, &t->labels, &t->nr_labels, err)))
		return in_field(err, ret, "labels");
	if (tb[VS_VTASK_A_NODE_SELECTOR] &&
	    (ret = parse_labels(tb[VS_VTASK_A_NODE_SELECTOR], arena, &t->node_selector,
				&t->nr_node_selector, err)))
		return in_field(err, ret, "nodeSelector");
	ret = parse_tolerations(nest, VS_VTASK_A_TOLERATION, arena, &t->tolerations,
				&t->nr_tolerations, err);
	if (ret)
		return in_field(err, ret, "tolerations");
	ret = parse_host_ports(nest, VS_VTASK_A_HOST_PORT, arena, &t->ports, &t->nr_ports, err);
	if (ret)
		return in_field(err, ret, "hostPorts");
	if (parse_strs(nest, VS_VTASK_A_IMAGE, arena, &t->images, &t->nr_images, err))
		return -ENOMEM;
	ret = parse_nests(nest, VS_VTASK_A_SPREAD, arena, sizeof(*t->spread), &v, &t->nr_spread,
			  parse_spread, err);
	if (ret)
		return in_field(err, ret, "topologySpreadConstraints");
	t->spread = v;
	if (tb[VS_VTASK_A_PARTITION_POLICY])
		parse_partition(tb[VS_VTASK_A_PARTITION_POLICY], t);
	return parse_policies(nest, VS_VTASK_A_POLICY, arena, &t->policies, &t->nr_policies, err);
}

int vs_nl_parse_vjob(struct vs_cluster *cl, const struct nlattr *nest,
		     struct vs_arena *arena, struct vs_vjob_spec *spec, struct vs_err *err)
{
	const struct nlattr *tb[VS_VJOB_A_MAX + 1], *a;
	u32 n = count_type(nest, VS_VJOB_A_TASK), i = 0;
	struct vs_vjob_task_spec *tasks;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_VJOB_A_MAX);
	if (tb[VS_VJOB_A_NAMESPACE])
		spec->ns = mnl_attr_get_str(tb[VS_VJOB_A_NAMESPACE]);
	if (tb[VS_VJOB_A_NAME])
		spec->name = mnl_attr_get_str(tb[VS_VJOB_A_NAME]);
	if (tb[VS_VJOB_A_QUEUE])
		spec->queue = mnl_attr_get_str(tb[VS_VJOB_A_QUEUE]);
	if (tb[VS_VJOB_A_PRIORITY_CLASS])
		spec->priority_class = mnl_attr_get_str(tb[VS_VJOB_A_PRIORITY_CLASS]);
	if (tb[VS_VJOB_A_MIN_AVAILABLE]) {
		spec->min_available = mnl_attr_get_u32(tb[VS_VJOB_A_MIN_AVAILABLE]);
		spec->has_min_available = true;
	}
	if (tb[VS_VJOB_A_MAX_RETRY])
		spec->max_retry = mnl_attr_get_u32(tb[VS_VJOB_A_MAX_RETRY]);
	if (tb[VS_VJOB_A_NETWORK_TOPOLOGY])
		parse_net_topology(tb[VS_VJOB_A_NETWORK_TOPOLOGY], &spec->net_topology);
	if (n) {
		tasks = vs_arena_zalloc(arena, n * sizeof(*tasks));
		if (!tasks)
			return nomem(err);
		mnl_attr_for_each_nested(a, nest) {
			if (mnl_attr_get_type(a) != VS_VJOB_A_TASK)
				continue;
			ret = parse_vtask(cl, a, arena, &tasks[i], err);
			if (ret) {
				vs_err_prefix(err, "task %s: ", tasks[i].name);
				return ret;
			}
			i++;
		}
		spec->tasks = tasks;
		spec->nr_tasks = n;
	}
	return parse_policies(nest, VS_VJOB_A_POLICY, arena, &spec->policies, &spec->nr_policies,
			      err);
}

/* The values of every @type attribute in @nest, into an array of @arena. */
static int parse_u32s(const struct nlattr *nest, u16 type, struct vs_arena *arena,
		      const u32 **out, u32 *nr, struct vs_err *err)
{
	u32 n = count_type(nest, type), i = 0, *v;
	const struct nlattr *a;

	*out = NULL;
	*nr = 0;
	if (!n)
		return 0;
	v = vs_arena_calloc(arena, n, sizeof(*v));
	if (!v)
		return nomem(err);
	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == type)
			v[i++] = mnl_attr_get_u32(a);
	*out = v;
	*nr = n;
	return 0;
}

static u32 get_u32_or(const struct nlattr *a, u32 dflt)
{
	return a ? mnl_attr_get_u32(a) : dflt;
}

int vs_nl_parse_vjob_state(const struct nlattr *nest, struct vs_arena *arena,
			   struct vs_vjob_state *st, struct vs_err *err)
{
	const struct nlattr *tb[VS_VJSTATE_A_MAX + 1], *a;
	u32 n = count_type(nest, VS_VJSTATE_A_KEPT), i = 0;
	struct vs_vjob_kept_spec *kept;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_VJSTATE_A_MAX);
	memset(st, 0, sizeof(*st));
	st->phase = (enum vs_vjob_phase)get_u32_or(tb[VS_VJSTATE_A_PHASE], VS_VJOB_PENDING);
	st->retry_count = get_u32_or(tb[VS_VJSTATE_A_RETRY_COUNT], 0);
	st->status.version = get_u32_or(tb[VS_VJSTATE_A_VERSION], 0);
	st->status.min_available = get_u32_or(tb[VS_VJSTATE_A_MIN_AVAILABLE], 0);
	st->status.pending = get_u32_or(tb[VS_VJSTATE_A_PENDING], 0);
	st->status.running = get_u32_or(tb[VS_VJSTATE_A_RUNNING], 0);
	st->status.succeeded = get_u32_or(tb[VS_VJSTATE_A_SUCCEEDED], 0);
	st->status.failed = get_u32_or(tb[VS_VJSTATE_A_FAILED], 0);
	st->status.terminating = get_u32_or(tb[VS_VJSTATE_A_TERMINATING], 0);
	st->status.unknown = get_u32_or(tb[VS_VJSTATE_A_UNKNOWN], 0);
	st->podgroup = tb[VS_VJSTATE_A_PODGROUP];
	if (!n)
		return 0;
	kept = vs_arena_calloc(arena, n, sizeof(*kept));
	if (!kept)
		return nomem(err);
	mnl_attr_for_each_nested(a, nest) {
		const struct nlattr *ktb[VS_KEPT_A_MAX + 1];

		if (mnl_attr_get_type(a) != VS_VJSTATE_A_KEPT)
			continue;
		vs_nl_nest_tb(a, ktb, VS_KEPT_A_MAX);
		kept[i].task = ktb[VS_KEPT_A_TASK] ? mnl_attr_get_str(ktb[VS_KEPT_A_TASK]) : "";
		ret = parse_u32s(a, VS_KEPT_A_SUCCEEDED, arena, &kept[i].succeeded,
				 &kept[i].nr_succeeded, err);
		if (!ret)
			ret = parse_u32s(a, VS_KEPT_A_FAILED, arena, &kept[i].failed,
					 &kept[i].nr_failed, err);
		if (ret)
			return ret;
		i++;
	}
	st->kept = kept;
	st->nr_kept = n;
	return 0;
}

/* ---- priority classes ---- */

int vs_nl_parse_prioclass(const struct nlattr *nest, struct vs_arena *arena,
			  struct vs_prioclass_spec *spec, struct vs_err *err)
{
	const struct nlattr *tb[VS_PC_A_MAX + 1];

	vs_nl_nest_tb(nest, tb, VS_PC_A_MAX);
	if (tb[VS_PC_A_NAME])
		spec->name = mnl_attr_get_str(tb[VS_PC_A_NAME]);
	if (tb[VS_PC_A_VALUE])
		spec->value = (s32)mnl_attr_get_u32(tb[VS_PC_A_VALUE]);
	if (tb[VS_PC_A_GLOBAL_DEFAULT])
		spec->global_default = mnl_attr_get_u8(tb[VS_PC_A_GLOBAL_DEFAULT]);
	if (tb[VS_PC_A_PREEMPTION_POLICY])
		spec->preemption_policy =
			(enum vs_preemption_policy)mnl_attr_get_u32(tb[VS_PC_A_PREEMPTION_POLICY]);
	return 0;
}

void vs_nl_prioclass_spec_of(const struct vs_prioclass *pc, struct vs_prioclass_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->name = pc->name;
	spec->value = pc->value;
	spec->global_default = pc->global_default;
	spec->preemption_policy = pc->preemption_policy;
}

/* ---- HyperNodes ---- */

/* A member's type is the core's: neither side translates. */
_Static_assert((int)VS_HN_TYPE_NODE == (int)VS_HN_MEMBER_NODE &&
	       (int)VS_HN_TYPE_HYPER_NODE == (int)VS_HN_MEMBER_HYPERNODE,
	       "enum vs_hn_member_type_uapi is enum vs_hn_member_type");

/* One member: its type and exactly one selector. */
static int parse_hn_member(const struct nlattr *nest, struct vs_arena *arena,
			   struct vs_hn_member_spec *m, struct vs_err *err)
{
	const struct nlattr *tb[VS_HN_MEMBER_A_MAX + 1];
	unsigned int nr_sel;

	vs_nl_nest_tb(nest, tb, VS_HN_MEMBER_A_MAX);
	nr_sel = !!tb[VS_HN_MEMBER_A_EXACT_NAME] + !!tb[VS_HN_MEMBER_A_REGEX_PATTERN] +
		 !!tb[VS_HN_MEMBER_A_MATCH_LABELS];
	if (!tb[VS_HN_MEMBER_A_TYPE])
		return vs_err_set(err, EINVAL, "no type");
	if (nr_sel != 1)
		return vs_err_set(err, EINVAL, "%s selector: exactly one of exactMatch, "
				  "regexMatch and matchLabels", nr_sel ? "more than one" : "no");
	memset(m, 0, sizeof(*m));
	m->type = (enum vs_hn_member_type)mnl_attr_get_u32(tb[VS_HN_MEMBER_A_TYPE]);
	if (tb[VS_HN_MEMBER_A_EXACT_NAME]) {
		m->sel = VS_HN_EXACT;
		m->name = mnl_attr_get_str(tb[VS_HN_MEMBER_A_EXACT_NAME]);
		return 0;
	}
	if (tb[VS_HN_MEMBER_A_REGEX_PATTERN]) {
		m->sel = VS_HN_REGEX;
		m->name = mnl_attr_get_str(tb[VS_HN_MEMBER_A_REGEX_PATTERN]);
		return 0;
	}
	m->sel = VS_HN_LABEL;
	return parse_labels(tb[VS_HN_MEMBER_A_MATCH_LABELS], arena, &m->labels, &m->nr_labels,
			    err);
}

int vs_nl_parse_hypernode(const struct nlattr *nest, struct vs_arena *arena, bool whole,
			  struct vs_hypernode_spec *spec, struct vs_err *err)
{
	const struct nlattr *tb[VS_HN_A_MAX + 1], *a;
	u32 n = count_type(nest, VS_HN_A_MEMBER), i = 0;
	struct vs_hn_member_spec *m;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_HN_A_MAX);
	if (whole && !tb[VS_HN_A_TIER])
		return vs_err_set(err, EINVAL, "the tier is missing");
	if (tb[VS_HN_A_NAME])
		spec->name = mnl_attr_get_str(tb[VS_HN_A_NAME]);
	if (tb[VS_HN_A_TIER])
		spec->tier = (s32)mnl_attr_get_u32(tb[VS_HN_A_TIER]);
	if (tb[VS_HN_A_TIER_NAME])
		spec->tier_name = mnl_attr_get_str(tb[VS_HN_A_TIER_NAME]);
	if (tb[VS_HN_A_LABELS]) {
		ret = parse_labels(tb[VS_HN_A_LABELS], arena, &spec->labels, &spec->nr_labels,
				   err);
		if (ret)
			return ret;
	}
	/* Members repeat: if any is given, they replace the HyperNode's. */
	if (!n)
		return 0;
	m = vs_arena_alloc(arena, n * sizeof(*m));
	if (!m)
		return nomem(err);
	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) != VS_HN_A_MEMBER)
			continue;
		ret = parse_hn_member(a, arena, &m[i], err);
		if (ret) {
			vs_err_prefix(err, "member %u: ", i);
			return ret;
		}
		i++;
	}
	spec->members = m;
	spec->nr_members = n;
	return 0;
}

int vs_nl_hypernode_spec_of(const struct vs_hypernode *hn, struct vs_arena *arena,
			    struct vs_hypernode_spec *spec)
{
	struct vs_hn_member_spec *m = NULL;

	memset(spec, 0, sizeof(*spec));
	if (hn->nr_members && !(m = vs_arena_alloc(arena, hn->nr_members * sizeof(*m))))
		return -ENOMEM;
	spec->name = hn->name;
	spec->tier = hn->tier;
	spec->tier_name = hn->tier_name;
	if (hn->labels && hn->labels->nr) {
		struct vs_kv_spec *kv = vs_arena_alloc(arena, hn->labels->nr * sizeof(*kv));

		if (!kv)
			return -ENOMEM;
		for (u32 k = 0; k < hn->labels->nr; k++) {
			kv[k].key = hn->labels->kv[k].key;
			kv[k].value = hn->labels->kv[k].value;
		}
		spec->labels = kv;
		spec->nr_labels = hn->labels->nr;
	}
	for (u32 i = 0; i < hn->nr_members; i++) {
		const struct vs_hn_member *from = &hn->members[i];
		const struct vs_labels *l = from->labels;
		struct vs_kv_spec *kv = NULL;

		if (l && l->nr) {
			kv = vs_arena_alloc(arena, l->nr * sizeof(*kv));
			if (!kv)
				return -ENOMEM;
			for (u32 k = 0; k < l->nr; k++) {
				kv[k].key = l->kv[k].key;
				kv[k].value = l->kv[k].value;
			}
		}
		m[i] = (struct vs_hn_member_spec){
			.type = from->type, .sel = from->sel, .name = from->name,
			.labels = kv, .nr_labels = l ? l->nr : 0,
		};
	}
	spec->members = m;
	spec->nr_members = hn->nr_members;
	return 0;
}

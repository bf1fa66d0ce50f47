// SPDX-License-Identifier: Apache-2.0
/*
 * The cluster: object lifecycles, the name indexes and the one place where
 * task status changes are applied to the job, the node and the queue
 * together. See cluster.h for the contract; every function that takes a spec
 * validates all of it before it changes anything.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cluster.h"
#include "core/enum.h"
#include "core/hash.h"
#include "core/names.h"

/* ---- strings ---- */

static bool empty(const char *s)
{
	return !s || !*s;
}

/* Intern @s, or NULL for an empty or absent string. -ENOMEM is *@ret. */
static const char *intern_opt(struct vs_cluster *cl, const char *s, int *ret)
{
	const char *is;

	if (empty(s))
		return NULL;
	is = vs_str_get_cstr(&cl->strs, s);
	if (!is)
		*ret = -ENOMEM;
	return is;
}

/* Volcano files PodGroups that name no queue under "default". */
static const char *queue_name_or_default(const char *name)
{
	return empty(name) ? "default" : name;
}

/* ---- index hashing ---- */

static u32 ns_name_hash(const char *ns, const char *name)
{
	return vs_hash_combine(vs_str_hash(ns), vs_str_hash(name));
}

static u32 node_hashfn(const struct hlist_node *n)
{
	return vs_str_hash(hlist_entry(n, struct vs_node, hnode)->name);
}

static u32 queue_hashfn(const struct hlist_node *n)
{
	return vs_str_hash(hlist_entry(n, struct vs_queue, hnode)->name);
}

static u32 prioclass_hashfn(const struct hlist_node *n)
{
	return vs_str_hash(hlist_entry(n, struct vs_prioclass, hnode)->name);
}

static u32 job_hashfn(const struct hlist_node *n)
{
	const struct vs_job *job = hlist_entry(n, struct vs_job, hnode);

	return ns_name_hash(job->ns, job->name);
}

static u32 task_hashfn(const struct hlist_node *n)
{
	const struct vs_task *task = hlist_entry(n, struct vs_task, hnode);

	return ns_name_hash(task->ns, task->name);
}

static u32 vjob_hashfn(const struct hlist_node *n)
{
	const struct vs_vjob *vjob = hlist_entry(n, struct vs_vjob, hnode);

	return ns_name_hash(vjob->ns, vjob->name);
}

/* ---- lookups ---- */

/* The interned copy of @s, or NULL: then no object can have that name. */
static const char *find_str(const struct vs_cluster *cl, const char *s)
{
	return s ? vs_str_find(&cl->strs, s, strlen(s)) : NULL;
}

/* fn(cl, name): the object of @type named @name in the index @index. */
#define DEFINE_NAME_FIND(fn, type, index)					\
struct type *fn(const struct vs_cluster *cl, const char *name)		\
{										\
	const char *iname = find_str(cl, name);				\
	struct type *obj;							\
										\
	if (!iname)								\
		return NULL;							\
	hlist_for_each_entry(obj, vs_htable_bucket(&cl->index, vs_str_hash(iname)), hnode) \
		if (obj->name == iname)						\
			return obj;						\
	return NULL;								\
}

/* fn(cl, ns, name): the namespaced object of @type in the index @index. */
#define DEFINE_NS_NAME_FIND(fn, type, index)					\
struct type *fn(const struct vs_cluster *cl, const char *ns, const char *name) \
{										\
	const char *ins = find_str(cl, ns), *iname = find_str(cl, name);	\
	struct type *obj;							\
										\
	if (!ins || !iname)							\
		return NULL;							\
	hlist_for_each_entry(obj, vs_htable_bucket(&cl->index, ns_name_hash(ins, iname)), hnode) \
		if (obj->ns == ins && obj->name == iname)			\
			return obj;						\
	return NULL;								\
}

DEFINE_NAME_FIND(vs_node_find, vs_node, node_index)
DEFINE_NAME_FIND(vs_queue_find, vs_queue, queue_index)
DEFINE_NAME_FIND(vs_prioclass_find, vs_prioclass, prioclass_index)
DEFINE_NS_NAME_FIND(vs_job_find, vs_job, job_index)
DEFINE_NS_NAME_FIND(vs_task_find, vs_task, task_index)
DEFINE_NS_NAME_FIND(vs_vjob_find, vs_vjob, vjob_index)

/* ---- the cluster ---- */

/* ---- limits ---- */

static const struct {
	const char *kind;
	size_t off;
	const char *what;		/* in messages */
} limit_kinds[] = {
	{ "nodes", offsetof(struct vs_cluster_limits, nodes), "nodes" },
	{ "queues", offsetof(struct vs_cluster_limits, queues), "queues" },
	{ "podgroups", offsetof(struct vs_cluster_limits, podgroups), "podgroups" },
	{ "tasks", offsetof(struct vs_cluster_limits, tasks), "pods" },
	{ "vjobs", offsetof(struct vs_cluster_limits, vjobs), "jobs" },
	{ "prioclasses", offsetof(struct vs_cluster_limits, prioclasses), "priority classes" },
};

int vs_cluster_limit_set(struct vs_cluster_limits *limits, const char *kind, u32 value,
			 struct vs_err *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(limit_kinds); i++) {
		if (strcmp(kind, limit_kinds[i].kind))
			continue;
		if (!value)
			return vs_err_set(err, EINVAL, "the limit of %s must be at least 1", kind);
		*(u32 *)((char *)limits + limit_kinds[i].off) = value;
		return 0;
	}
	return vs_err_set(err, EINVAL, "\"%s\" is no kind of object with a limit (nodes, queues, "
			  "podgroups, tasks, vjobs, prioclasses)", kind);
}

/* ENOSPC when the cluster holds @nr objects of the kind of @off (in limits), its limit. */
static int limit_check(const struct vs_cluster *cl, size_t off, u32 nr, struct vs_err *err)
{
	u32 max = *(const u32 *)((const char *)&cl->limits + off);

	if (likely(nr < max))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(limit_kinds); i++)
		if (limit_kinds[i].off == off)
			return vs_err_set(err, ENOSPC, "the cluster holds %u %s, its limit "
					  "(vschedd --limit %s=N): delete some first", nr,
					  limit_kinds[i].what, limit_kinds[i].kind);
	return vs_err_set(err, ENOSPC, "limit reached");
}

#define LIMIT_CHECK(cl, kind, nr, err) \
	limit_check((cl), offsetof(struct vs_cluster_limits, kind), (nr), (err))

int vs_cluster_init(struct vs_cluster *cl)
{
	int ret;

	memset(cl, 0, sizeof(*cl));
	cl->limits = (struct vs_cluster_limits){
		.nodes = VS_LIMIT_NODES, .queues = VS_LIMIT_QUEUES,
		.podgroups = VS_LIMIT_PODGROUPS, .tasks = VS_LIMIT_TASKS,
		.vjobs = VS_LIMIT_VJOBS, .prioclasses = VS_LIMIT_PRIOCLASSES,
	};
	INIT_LIST_HEAD(&cl->nodes);
	INIT_LIST_HEAD(&cl->queues);
	INIT_LIST_HEAD(&cl->jobs);
	INIT_LIST_HEAD(&cl->orphan_jobs);
	INIT_LIST_HEAD(&cl->active_jobs);
	INIT_LIST_HEAD(&cl->vjobs);
	INIT_LIST_HEAD(&cl->prioclasses);

	ret = vs_strtab_init(&cl->strs);
	if (ret)
		return ret;
	ret = vs_reqtab_init(&cl->reqs);
	if (ret) {
		vs_strtab_destroy(&cl->strs);
		return ret;
	}
	if ((ret = vs_pool_init(&cl->node_pool, "vs_node", sizeof(struct vs_node), 0, NULL)) ||
	    (ret = vs_pool_init(&cl->queue_pool, "vs_queue", sizeof(struct vs_queue), 0, NULL)) ||
	    (ret = vs_pool_init(&cl->job_pool, "vs_job", sizeof(struct vs_job), 0, NULL)) ||
	    (ret = vs_pool_init(&cl->task_pool, "vs_task", sizeof(struct vs_task), 0, NULL)) ||
	    (ret = vs_pool_init(&cl->vjob_pool, "vs_vjob", sizeof(struct vs_vjob), 0, NULL)) ||
	    (ret = vs_pool_init(&cl->prioclass_pool, "vs_prioclass",
				sizeof(struct vs_prioclass), 0, NULL)))
		goto out_destroy;
	if ((ret = vs_htable_init(&cl->node_index, 8, node_hashfn)) ||
	    (ret = vs_htable_init(&cl->queue_index, 4, queue_hashfn)) ||
	    (ret = vs_htable_init(&cl->job_index, 8, job_hashfn)) ||
	    (ret = vs_htable_init(&cl->task_index, 10, task_hashfn)) ||
	    (ret = vs_htable_init(&cl->vjob_index, 4, vjob_hashfn)) ||
	    (ret = vs_htable_init(&cl->prioclass_index, 2, prioclass_hashfn)) ||
	    (ret = vs_node_classes_init(&cl->classes)))
		goto out_destroy;
	return 0;

out_destroy:
	vs_cluster_destroy(cl);
	return ret;
}

static void job_free(struct vs_cluster *cl, struct vs_job *job);
static void task_free(struct vs_cluster *cl, struct vs_task *task);
static void vjob_free(struct vs_cluster *cl, struct vs_vjob *vjob);
static void node_free(struct vs_cluster *cl, struct vs_node *node);
static void queue_free(struct vs_cluster *cl, struct vs_queue *queue);
static void prioclass_free(struct vs_cluster *cl, struct vs_prioclass *pc);

void vs_cluster_destroy(struct vs_cluster *cl)
{
	struct vs_job *job, *jtmp;
	struct vs_task *task, *ttmp;
	struct vs_vjob *vjob, *vtmp;
	struct vs_node *node, *ntmp;
	struct vs_queue *queue, *qtmp;
	struct vs_prioclass *pc, *ptmp;

	/*
	 * Everything is freed without the bookkeeping of the del functions:
	 * the whole state goes at once. The lists are set up even when init
	 * failed half way, so this is safe after a failed vs_cluster_init().
	 */
	if (cl->jobs.next) {
		list_for_each_entry_safe(job, jtmp, &cl->jobs, list) {
			list_for_each_entry_safe(task, ttmp, &job->tasks, job_node)
				task_free(cl, task);
			job_free(cl, job);
		}
		list_for_each_entry_safe(vjob, vtmp, &cl->vjobs, list)
			vjob_free(cl, vjob);
		list_for_each_entry_safe(node, ntmp, &cl->nodes, list)
			node_free(cl, node);
		list_for_each_entry_safe(queue, qtmp, &cl->queues, list)
			queue_free(cl, queue);
		list_for_each_entry_safe(pc, ptmp, &cl->prioclasses, list)
			prioclass_free(cl, pc);
	}

	vs_htable_destroy(&cl->node_index);
	vs_htable_destroy(&cl->queue_index);
	vs_htable_destroy(&cl->job_index);
	vs_htable_destroy(&cl->task_index);
	vs_htable_destroy(&cl->vjob_index);
	vs_htable_destroy(&cl->prioclass_index);
	vs_node_classes_destroy(&cl->classes);
	vs_pool_destroy(&cl->node_pool);
	vs_pool_destroy(&cl->queue_pool);
	vs_pool_destroy(&cl->job_pool);
	vs_pool_destroy(&cl->task_pool);
	vs_pool_destroy(&cl->vjob_pool);
	vs_pool_destroy(&cl->prioclass_pool);
	vs_reqtab_destroy(&cl->reqs);
	vs_strtab_destroy(&cl->strs);
	free(cl->node_slot);
	vs_node_log_destroy(&cl->touched);
	memset(cl, 0, sizeof(*cl));
}

/* Resources given by the outside world are amounts: never negative. */
static int check_res(const struct vs_res *r, const char *what, struct vs_err *err)
{
	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		if (r->v[d] < 0) {
			const char *name = vs_res_dim_name(d);

			return vs_err_set(err, EINVAL, "%s: %s is negative", what,
					  name ? name : "a resource");
		}
	}
	return 0;
}

/* ---- nodes ---- */

void vs_node_spec_init(struct vs_node_spec *spec, const char *name)
{
	memset(spec, 0, sizeof(*spec));
	spec->name = name;
	spec->ready = true;
}

/* The parts of a node spec that are built before anything changes. */
struct node_attrs {
	struct vs_labels *labels;
	struct vs_taints *taints;
};

static int node_attrs_build(struct vs_cluster *cl, const struct vs_node_spec *spec,
			    struct node_attrs *a, struct vs_err *err)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = check_res(&spec->allocatable, "allocatable", err);
	if (!ret)
		ret = vs_labels_new(&cl->strs, spec->labels, spec->nr_labels, "label",
				    &a->labels, err);
	if (!ret)
		ret = vs_taints_new(&cl->strs, spec->taints, spec->nr_taints, &a->taints, err);
	if (ret) {
		vs_labels_free(&cl->strs, a->labels);
		return ret;
	}
	return 0;
}

static bool prefers_no_schedule(const struct vs_node *node)
{
	for (u32 i = 0; node->taints && i < node->taints->nr; i++)
		if (node->taints->t[i].effect == VS_TAINT_PREFER_NO_SCHEDULE)
			return true;
	return false;
}

/*
 * The total allocatable is kept by adding and taking away each node's; a
 * sum that saturated (nodes may be given quantities up to the largest
 * int64) cannot be taken apart, and is counted again from the nodes
 * instead, but @skip.
 */
static void total_recount(struct vs_cluster *cl, const struct vs_node *skip)
{
	const struct vs_node *n;

	vs_res_clear(&cl->total_allocatable);
	list_for_each_entry(n, &cl->nodes, list)
		if (n != skip)
			vs_res_add(&cl->total_allocatable, &n->allocatable);
}

int vs_node_add(struct vs_cluster *cl, const struct vs_node_spec *spec,
		struct vs_node **out, struct vs_err *err)
{
	struct node_attrs a;
	struct vs_node *node;
	int ret;

	ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
				     "node name", err);
	if (ret)
		return ret;
	if (vs_node_find(cl, spec->name))
		return vs_err_set(err, EEXIST, "node %s already exists", spec->name);
	ret = LIMIT_CHECK(cl, nodes, cl->nr_nodes, err);
	if (ret)
		return ret;
	if (cl->nr_node_slots == cl->cap_node_slots) {
		u32 cap = cl->cap_node_slots ? 2 * cl->cap_node_slots : 64;
		struct vs_node **slot = realloc(cl->node_slot, cap * sizeof(*slot));

		if (!slot) {
			ret = vs_err_set(err, ENOMEM, "out of memory");
			goto out_prefix;
		}
		cl->node_slot = slot;
		cl->cap_node_slots = cap;
	}
	ret = node_attrs_build(cl, spec, &a, err);
	if (ret)
		goto out_prefix;

	node = vs_pool_zalloc(&cl->node_pool);
	if (node)
		node->name = vs_str_get_cstr(&cl->strs, spec->name);
	if (!node || !node->name ||
	    vs_node_class_get(&cl->classes, &cl->strs, a.labels, a.taints, spec->unschedulable,
			      spec->ready, &node->cls)) {
		if (node)
			vs_str_put(&cl->strs, node->name);
		vs_pool_free(&cl->node_pool, node);
		vs_labels_free(&cl->strs, a.labels);
		vs_taints_free(&cl->strs, a.taints);
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	node->seq = cl->seq++;
	node->labels = a.labels;
	node->taints = a.taints;
	node->unschedulable = spec->unschedulable;
	node->ready = spec->ready;
	INIT_LIST_HEAD(&node->tasks);
	vs_res_clear(&node->used);
	vs_res_clear(&node->releasing);
	vs_res_clear(&node->pipelined);
	vs_node_set_allocatable(node, &spec->allocatable);

	/* A new generation: not logged, nothing kept by sidx knows the slot. */
	node->sidx = cl->nr_node_slots;
	cl->node_slot[cl->nr_node_slots++] = node;
	cl->node_gen++;
	node->log = &cl->touched;
	vs_htable_add(&cl->node_index, &node->hnode, vs_str_hash(node->name));
	list_add_tail(&node->list, &cl->nodes);
	cl->nr_nodes++;
	cl->nr_prefer_no_schedule_nodes += prefers_no_schedule(node);
	vs_res_add(&cl->total_allocatable, &node->allocatable);
	if (out)
		*out = node;
	return 0;

out_prefix:
	vs_err_prefix(err, "node %s: ", spec->name);
	return ret;
}

int vs_node_update(struct vs_cluster *cl, struct vs_node *node,
		   const struct vs_node_spec *spec, struct vs_err *err)
{
	struct node_attrs a;
	int ret;

	struct vs_node_class *cls;

	ret = node_attrs_build(cl, spec, &a, err);
	if (!ret && vs_node_class_get(&cl->classes, &cl->strs, a.labels, a.taints,
				      spec->unschedulable, spec->ready, &cls)) {
		vs_labels_free(&cl->strs, a.labels);
		vs_taints_free(&cl->strs, a.taints);
		ret = vs_err_set(err, ENOMEM, "out of memory");
	}
	if (ret) {
		vs_err_prefix(err, "node %s: ", node->name);
		return ret;
	}
	cl->nr_prefer_no_schedule_nodes -= prefers_no_schedule(node);
	vs_node_class_put(&cl->classes, &cl->strs, node->cls);
	node->cls = cls;
	vs_labels_free(&cl->strs, node->labels);
	vs_taints_free(&cl->strs, node->taints);
	node->labels = a.labels;
	node->taints = a.taints;
	cl->nr_prefer_no_schedule_nodes += prefers_no_schedule(node);
	node->unschedulable = spec->unschedulable;
	node->ready = spec->ready;

	if (vs_res_saturated(&cl->total_allocatable)) {
		vs_node_set_allocatable(node, &spec->allocatable);
		total_recount(cl, NULL);
	} else {
		vs_res_sub(&cl->total_allocatable, &node->allocatable);
		vs_node_set_allocatable(node, &spec->allocatable);
		vs_res_add(&cl->total_allocatable, &node->allocatable);
	}
	/* Labels, taints, cordon and readiness are what predicates read. */
	vs_node_touch(node);
	return 0;
}

static void node_free(struct vs_cluster *cl, struct vs_node *node)
{
	vs_node_class_put(&cl->classes, &cl->strs, node->cls);
	vs_labels_free(&cl->strs, node->labels);
	vs_taints_free(&cl->strs, node->taints);
	vs_str_put(&cl->strs, node->name);
	vs_pool_free(&cl->node_pool, node);
}

int vs_node_del(struct vs_cluster *cl, struct vs_node *node, struct vs_err *err)
{
	if (node->nr_tasks)
		return vs_err_set(err, EBUSY, "node %s still holds %u tasks", node->name,
				  node->nr_tasks);
	if (vs_res_saturated(&cl->total_allocatable))
		total_recount(cl, node);
	else
		vs_res_sub(&cl->total_allocatable, &node->allocatable);
	vs_htable_del(&cl->node_index, &node->hnode);
	list_del(&node->list);
	cl->nr_nodes--;
	cl->nr_prefer_no_schedule_nodes -= prefers_no_schedule(node);
	cl->node_slot[node->sidx] = NULL;
	cl->nr_node_holes++;
	cl->node_gen++;
	node_free(cl, node);
	return 0;
}

void vs_cluster_compact_nodes(struct vs_cluster *cl)
{
	u32 n = 0;

	if (!cl->nr_node_holes)
		return;
	for (u32 i = 0; i < cl->nr_node_slots; i++) {
		struct vs_node *node = cl->node_slot[i];

		if (!node)
			continue;
		node->sidx = n;
		cl->node_slot[n++] = node;
	}
	cl->nr_node_slots = n;
	cl->nr_node_holes = 0;
	cl->node_gen++;
	vs_node_log_reset(&cl->touched);
}

void vs_cluster_renumber_nodes(struct vs_cluster *cl)
{
	struct vs_node *node;
	u32 n = 0;

	/* Every node has a slot, so there are at least as many slots as nodes. */
	list_for_each_entry(node, &cl->nodes, list) {
		node->sidx = n;
		cl->node_slot[n++] = node;
	}
	cl->nr_node_slots = n;
	cl->nr_node_holes = 0;
	cl->node_gen++;
	vs_node_log_reset(&cl->touched);
}

/* ---- queues ---- */

void vs_queue_spec_init(struct vs_queue_spec *spec, const char *name)
{
	memset(spec, 0, sizeof(*spec));
	spec->name = name;
	spec->weight = 1;
	spec->reclaimable = true;
	spec->state = VS_QUEUE_OPEN;
}

static int queue_spec_check(const struct vs_queue_spec *spec, struct vs_err *err)
{
	int ret;

	if (spec->weight < 1)
		return vs_err_set(err, EINVAL, "weight must be at least 1");
	if ((unsigned int)spec->state >= VS_QUEUE_NR_STATES)
		return vs_err_set(err, EINVAL, "bad state %d", spec->state);
	if (!empty(spec->parent)) {
		ret = vs_check_dns_subdomain(spec->parent, strlen(spec->parent),
					     "parent queue name", err);
		if (ret)
			return ret;
		if (!strcmp(spec->parent, spec->name))
			return vs_err_set(err, EINVAL, "a queue cannot be its own parent");
	}
	ret = check_res(&spec->capability, "capability", err);
	if (!ret)
		ret = check_res(&spec->guarantee, "guarantee", err);
	if (!ret)
		ret = check_res(&spec->deserved, "deserved", err);
	return ret;
}

/* Apply a checked spec; only the parent string can fail to be interned. */
static int queue_apply(struct vs_cluster *cl, struct vs_queue *queue,
		       const struct vs_queue_spec *spec)
{
	int ret = 0;
	const char *parent = intern_opt(cl, spec->parent, &ret);

	if (ret)
		return ret;
	vs_str_put(&cl->strs, queue->parent);
	queue->parent = parent;
	queue->weight = spec->weight;
	queue->capability = spec->capability;
	queue->has_capability = spec->has_capability;
	queue->guarantee = spec->guarantee;
	queue->deserved = spec->deserved;
	queue->has_deserved = spec->has_deserved;
	queue->reclaimable = spec->reclaimable;
	queue->priority = spec->priority;
	queue->state = spec->state;
	return 0;
}

static void job_queue_attach(struct vs_cluster *cl, struct vs_job *job, struct vs_queue *queue);

int vs_queue_add(struct vs_cluster *cl, const struct vs_queue_spec *spec,
		 struct vs_queue **out, struct vs_err *err)
{
	struct vs_queue *queue;
	struct vs_job *job, *tmp;
	int ret;

	ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
				     "queue name", err);
	if (ret)
		return ret;
	if (vs_queue_find(cl, spec->name))
		return vs_err_set(err, EEXIST, "queue %s already exists", spec->name);
	ret = LIMIT_CHECK(cl, queues, cl->nr_queues, err);
	if (ret)
		return ret;
	ret = queue_spec_check(spec, err);
	if (ret)
		goto out_prefix;

	queue = vs_pool_zalloc(&cl->queue_pool);
	if (queue)
		queue->name = vs_str_get_cstr(&cl->strs, spec->name);
	if (!queue || !queue->name || queue_apply(cl, queue, spec)) {
		if (queue)
			vs_str_put(&cl->strs, queue->name);
		vs_pool_free(&cl->queue_pool, queue);
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	queue->seq = cl->seq++;
	queue->created = vs_created_take(cl, spec->created);
	INIT_LIST_HEAD(&queue->jobs);
	vs_res_clear(&queue->allocated);
	vs_res_clear(&queue->request);
	vs_htable_add(&cl->queue_index, &queue->hnode, vs_str_hash(queue->name));
	list_add_tail(&queue->list, &cl->queues);
	cl->nr_queues++;

	/* Jobs that were waiting for this queue join it, keeping their order. */
	list_for_each_entry_safe(job, tmp, &cl->orphan_jobs, queue_node) {
		if (job->queue_name == queue->name) {
			list_del(&job->queue_node);
			job_queue_attach(cl, job, queue);
		}
	}
	if (out)
		*out = queue;
	return 0;

out_prefix:
	vs_err_prefix(err, "queue %s: ", spec->name);
	return ret;
}

int vs_queue_update(struct vs_cluster *cl, struct vs_queue *queue,
		    const struct vs_queue_spec *spec, struct vs_err *err)
{
	int ret = queue_spec_check(spec, err);

	if (!ret && queue_apply(cl, queue, spec))
		ret = vs_err_set(err, ENOMEM, "out of memory");
	if (ret)
		vs_err_prefix(err, "queue %s: ", queue->name);
	return ret;
}

static void queue_free(struct vs_cluster *cl, struct vs_queue *queue)
{
	vs_str_put(&cl->strs, queue->parent);
	vs_str_put(&cl->strs, queue->name);
	vs_pool_free(&cl->queue_pool, queue);
}

int vs_queue_del(struct vs_cluster *cl, struct vs_queue *queue, struct vs_err *err)
{
	if (queue->nr_jobs)
		return vs_err_set(err, EBUSY, "queue %s still has %u podgroups", queue->name,
				  queue->nr_jobs);
	vs_htable_del(&cl->queue_index, &queue->hnode);
	list_del(&queue->list);
	cl->nr_queues--;
	queue_free(cl, queue);
	return 0;
}

/* ---- jobs ---- */

void vs_job_spec_init(struct vs_job_spec *spec, const char *ns, const char *name)
{
	memset(spec, 0, sizeof(*spec));
	spec->ns = ns;
	spec->name = name;
	spec->min_member = 1;
	spec->phase = VS_PG_PENDING;
}

/* ---- resting jobs (core/rest.h) ---- */

/* A job that rests wakes: out of its queue's sums, back among the active. */
static void job_wake(struct vs_cluster *cl, struct vs_job *job)
{
	struct vs_job_contrib c;

	if (likely(!job->resting))
		return;
	vs_job_contrib(job, &c);
	vs_queue_rest_sub(&job->queue->rest, &c);
	job->resting = false;
	list_add_tail(&job->active_node, &cl->active_jobs);
	cl->nr_active_jobs++;
}

static bool may_rest(const struct vs_job *job)
{
	return job->queue && !job->nr_by_status[VS_TASK_PENDING] &&
	       !job->nr_by_status[VS_TASK_ALLOCATED] && !job->nr_by_status[VS_TASK_PIPELINED] &&
	       job->phase != VS_PG_PENDING;
}

void vs_job_rest(struct vs_cluster *cl, struct vs_job *job)
{
	struct vs_job_contrib c;

	if (job->resting || !may_rest(job))
		return;
	vs_job_contrib(job, &c);
	vs_queue_rest_add(&job->queue->rest, &c);
	job->resting = true;
	job->sidx = VS_SIDX_NONE;
	list_del_init(&job->active_node);
	cl->nr_active_jobs--;
}

/*
 * A queue's totals taken afresh from its jobs' (which are current): for
 * the check, and to count saturated ones again (core/res.h).
 */
static void queue_sums(const struct vs_queue *queue, struct vs_res *allocated,
		       struct vs_res *request)
{
	const struct vs_job *job;

	vs_res_clear(allocated);
	vs_res_clear(request);
	list_for_each_entry(job, &queue->jobs, queue_node) {
		vs_res_add(allocated, &job->allocated);
		vs_res_add(request, &job->total_request);
	}
}

static bool queue_saturated(const struct vs_queue *queue)
{
	return vs_res_saturated(&queue->allocated) || vs_res_saturated(&queue->request);
}

static void job_queue_attach(struct vs_cluster *cl, struct vs_job *job, struct vs_queue *queue)
{
	job->queue = queue;
	list_add_tail(&job->active_node, &cl->active_jobs);
	cl->nr_active_jobs++;
	list_add_tail(&job->queue_node, &queue->jobs);
	queue->nr_jobs++;
	queue->nr_jobs_by_phase[job->phase]++;
	vs_res_add(&queue->allocated, &job->allocated);
	vs_res_add(&queue->request, &job->total_request);
}

/* Leave the queue (or the orphan list); the job is then on no list, and awake. */
static void job_queue_detach(struct vs_cluster *cl, struct vs_job *job)
{
	struct vs_queue *queue = job->queue;

	list_del_init(&job->queue_node);
	if (!queue)
		return;
	job_wake(cl, job);
	list_del_init(&job->active_node);
	cl->nr_active_jobs--;
	queue->nr_jobs--;
	queue->nr_jobs_by_phase[job->phase]--;
	if (queue_saturated(queue)) {
		queue_sums(queue, &queue->allocated, &queue->request);
	} else {
		vs_res_sub(&queue->allocated, &job->allocated);
		vs_res_sub(&queue->request, &job->total_request);
	}
	job->queue = NULL;
}

/* Join the queue named job->queue_name, or the orphans if there is none. */
static void job_queue_join(struct vs_cluster *cl, struct vs_job *job)
{
	struct vs_queue *queue = vs_queue_find(cl, job->queue_name);

	if (queue)
		job_queue_attach(cl, job, queue);
	else
		list_add_tail(&job->queue_node, &cl->orphan_jobs);
}

/* The parts of a job spec that are built before anything changes. */
struct job_attrs {
	const char *queue_name;
	const char *priority_class;
	struct vs_role_min *roles;
	u32 nr_roles;
};

static void job_attrs_free(struct vs_cluster *cl, struct job_attrs *a)
{
	for (u32 i = 0; i < a->nr_roles; i++)
		vs_str_put(&cl->strs, a->roles[i].role);
	free(a->roles);
	vs_str_put(&cl->strs, a->queue_name);
	vs_str_put(&cl->strs, a->priority_class);
	memset(a, 0, sizeof(*a));
}

static int job_attrs_build(struct vs_cluster *cl, const struct vs_job_spec *spec,
			   struct job_attrs *a, struct vs_err *err)
{
	const char *qname = queue_name_or_default(spec->queue);
	int ret = 0;

	memset(a, 0, sizeof(*a));
	ret = vs_check_dns_subdomain(qname, strlen(qname), "queue name", err);
	if (ret)
		return ret;
	if (!empty(spec->priority_class)) {
		ret = vs_check_dns_subdomain(spec->priority_class, strlen(spec->priority_class),
					     "priority class name", err);
		if (ret)
			return ret;
	}
	if ((unsigned int)spec->phase >= VS_PG_NR_PHASES)
		return vs_err_set(err, EINVAL, "bad phase %d", spec->phase);
	if (spec->has_min_resources) {
		ret = check_res(&spec->min_resources, "minResources", err);
		if (ret)
			return ret;
	}
	for (u32 i = 0; i < spec->nr_min_task_member; i++) {
		const char *role = spec->min_task_member[i].role;

		if (!empty(role)) {
			ret = vs_check_label_value(role, strlen(role), "minTaskMember role", err);
			if (ret)
				return ret;
		}
		for (u32 j = 0; j < i; j++) {
			const char *other = spec->min_task_member[j].role;

			if (!strcmp(role ? role : "", other ? other : ""))
				return vs_err_set(err, EINVAL, "minTaskMember role \"%s\" given twice",
						  role ? role : "");
		}
	}

	a->queue_name = vs_str_get_cstr(&cl->strs, qname);
	a->priority_class = intern_opt(cl, spec->priority_class, &ret);
	if (spec->nr_min_task_member) {
		a->roles = calloc(spec->nr_min_task_member, sizeof(*a->roles));
		if (!a->roles)
			ret = -ENOMEM;
	}
	for (u32 i = 0; a->roles && i < spec->nr_min_task_member; i++) {
		const char *role = spec->min_task_member[i].role;

		a->roles[i].role = vs_str_get_cstr(&cl->strs, role ? role : "");
		a->roles[i].min = spec->min_task_member[i].min;
		a->nr_roles++;
		if (!a->roles[i].role) {
			a->nr_roles--;
			ret = -ENOMEM;
			break;
		}
	}
	if (ret || !a->queue_name) {
		job_attrs_free(cl, a);
		return vs_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

/* Take the attributes into @job (whose old ones the caller released). */
static void job_attrs_apply(struct vs_job *job, const struct vs_job_spec *spec,
			    struct job_attrs *a)
{
	job->queue_name = a->queue_name;
	job->priority_class = a->priority_class;
	job->min_task_member = a->roles;
	job->nr_min_task_member = a->nr_roles;
	job->min_member = spec->min_member;
	job->has_min_resources = spec->has_min_resources;
	if (spec->has_min_resources)
		job->min_resources = spec->min_resources;
	else
		vs_res_clear(&job->min_resources);
}

size_t vs_pg_cond_text_size(const struct vs_pg_condition *c)
{
	const char *id = vs_pg_cond_transition_id(c);
	size_t n;

	if (!c->text)
		return 0;
	n = (size_t)(id - c->text) + strlen(id) + 1;
	return c->given ? n + strlen(vs_pg_cond_reason(c)) + 1 : n;
}

/*
 * Write "message\0id\0", and @owned_reason after them, into @c's buffer,
 * and point c->reason at that copy (or at @static_reason). gang rewrites
 * the condition of every job that is not ready, every cycle, mostly with
 * the text it had: the buffer is kept, and grows in steps, so that the
 * steady state allocates nothing. -ENOMEM leaves @c as it was.
 */
static int cond_write(struct vs_pg_condition *c, const char *static_reason,
		      const char *owned_reason, const char *message, const char *id)
{
	size_t m = message ? strlen(message) : 0, i = id ? strlen(id) : 0;
	size_t r = owned_reason ? strlen(owned_reason) : 0, n = m + i + (r ? r + 3 : 2);
	char *p;

	if (!m && !i && !r) {
		free(c->text);
		c->text = NULL;
		c->cap = 0;
		c->reason = static_reason;
		return 0;
	}
	if (n > c->cap) {
		size_t cap = n < 64 ? 64 : (n + 64) & ~(size_t)63;
		char *buf = cap <= UINT32_MAX ? malloc(cap) : NULL;

		if (!buf)
			return -ENOMEM;
		free(c->text);
		c->text = buf;
		c->cap = (u32)cap;
	}
	p = c->text;
	memcpy(p, m ? message : "", m + 1);
	p += m + 1;
	memcpy(p, i ? id : "", i + 1);
	p += i + 1;
	c->reason = static_reason;
	if (r) {
		memcpy(p, owned_reason, r + 1);
		c->reason = p;
	}
	return 0;
}

int vs_job_set_condition(struct vs_job *job, enum vs_pg_cond_type type, bool status,
			 const char *reason, const char *message, u64 transition)
{
	struct vs_pg_condition *c = &job->cond[type];
	int ret = cond_write(c, reason, NULL, message, NULL);

	if (ret)
		return ret;
	c->set = true;
	c->status = status;
	c->given = false;
	c->transition = transition;
	c->time = 0;
	return 0;
}

int vs_job_take_condition(struct vs_job *job, const struct vs_pg_condition_spec *spec)
{
	struct vs_pg_condition *c;
	int ret;

	if ((unsigned int)spec->type >= VS_PG_COND_NR)
		return 0;
	c = &job->cond[spec->type];
	if (c->set && !c->given)
		return 0;
	ret = cond_write(c, NULL, spec->reason, spec->message, spec->transition_id);
	if (ret)
		return ret;
	c->set = true;
	c->status = spec->status;
	c->given = true;
	c->transition = 0;
	c->time = spec->time;
	return 0;
}

int vs_job_copy_condition(struct vs_job *job, enum vs_pg_cond_type type,
			  const struct vs_pg_condition *from)
{
	struct vs_pg_condition *c = &job->cond[type];
	int ret;

	if (!from->set)
		ret = cond_write(c, NULL, NULL, NULL, NULL);
	else if (from->given)
		ret = cond_write(c, NULL, from->reason, vs_pg_cond_message(from),
				 vs_pg_cond_transition_id(from));
	else
		ret = cond_write(c, from->reason, NULL, vs_pg_cond_message(from), NULL);

	if (ret)
		return ret;
	c->set = from->set;
	c->status = from->status;
	c->given = from->given;
	c->transition = from->transition;
	c->time = from->time;
	return 0;
}

/* The conditions of @spec, each a given one unless a cycle set its type. */
static int take_conditions(struct vs_job *job, const struct vs_job_spec *spec)
{
	int ret = 0;

	for (u32 i = 0; i < spec->nr_cond && !ret; i++)
		ret = vs_job_take_condition(job, &spec->cond[i]);
	return ret;
}

int vs_job_add(struct vs_cluster *cl, const struct vs_job_spec *spec,
	       struct vs_job **out, struct vs_err *err)
{
	struct job_attrs a;
	struct vs_job *job;
	int ret;

	ret = vs_check_dns_label(spec->ns, spec->ns ? strlen(spec->ns) : 0, "namespace", err);
	if (!ret)
		ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
					     "podgroup name", err);
	if (ret)
		return ret;
	if (vs_job_find(cl, spec->ns, spec->name))
		return vs_err_set(err, EEXIST, "podgroup %s/%s already exists", spec->ns,
				  spec->name);
	ret = LIMIT_CHECK(cl, podgroups, cl->nr_jobs, err);
	if (ret)
		return ret;
	ret = job_attrs_build(cl, spec, &a, err);
	if (ret)
		goto out_prefix;

	job = vs_pool_zalloc(&cl->job_pool);
	if (job) {
		job->ns = vs_str_get_cstr(&cl->strs, spec->ns);
		job->name = vs_str_get_cstr(&cl->strs, spec->name);
	}
	if (!job || !job->ns || !job->name) {
		if (job) {
			vs_str_put(&cl->strs, job->ns);
			vs_str_put(&cl->strs, job->name);
		}
		vs_pool_free(&cl->job_pool, job);
		job_attrs_free(cl, &a);
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	if (take_conditions(job, spec)) {
		for (int i = 0; i < VS_PG_COND_NR; i++)
			free(job->cond[i].text);
		vs_str_put(&cl->strs, job->ns);
		vs_str_put(&cl->strs, job->name);
		vs_pool_free(&cl->job_pool, job);
		job_attrs_free(cl, &a);
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	job->seq = cl->seq++;
	job->created = vs_created_take(cl, spec->created);
	job_attrs_apply(job, spec, &a);
	job->phase = spec->phase;
	INIT_LIST_HEAD(&job->tasks);
	INIT_LIST_HEAD(&job->active_node);
	for (unsigned int s = 0; s < VS_TASK_NR_STATUS; s++)
		INIT_LIST_HEAD(&job->by_status[s]);
	vs_res_clear(&job->total_request);
	vs_res_clear(&job->allocated);

	vs_htable_add(&cl->job_index, &job->hnode, ns_name_hash(job->ns, job->name));
	list_add_tail(&job->list, &cl->jobs);
	cl->nr_jobs++;
	job_queue_join(cl, job);
	if (out)
		*out = job;
	return 0;

out_prefix:
	vs_err_prefix(err, "podgroup %s/%s: ", spec->ns, spec->name);
	return ret;
}

int vs_job_update(struct vs_cluster *cl, struct vs_job *job,
		  const struct vs_job_spec *spec, struct vs_err *err)
{
	struct job_attrs a, old = {
		.queue_name = job->queue_name,
		.priority_class = job->priority_class,
		.roles = job->min_task_member,
		.nr_roles = job->nr_min_task_member,
	};
	int ret;

	ret = job_attrs_build(cl, spec, &a, err);
	if (!ret && take_conditions(job, spec)) {
		/* Out of memory, conditions may be partly taken: a batch's undo puts them back. */
		job_attrs_free(cl, &a);
		ret = vs_err_set(err, ENOMEM, "out of memory");
	}
	if (ret) {
		vs_err_prefix(err, "podgroup %s/%s: ", job->ns, job->name);
		return ret;
	}
	job_queue_detach(cl, job);
	job_attrs_apply(job, spec, &a);
	job_attrs_free(cl, &old);
	/* The phase counts of the queue follow the job when it moves. */
	job->phase = spec->phase;
	job_queue_join(cl, job);
	return 0;
}

void vs_job_set_phase(struct vs_cluster *cl, struct vs_job *job, enum vs_pg_phase phase)
{
	if (phase != job->phase)
		job_wake(cl, job);
	if (job->queue) {
		job->queue->nr_jobs_by_phase[job->phase]--;
		job->queue->nr_jobs_by_phase[phase]++;
	}
	job->phase = phase;
}

const char *vs_pg_cond_type_name(enum vs_pg_cond_type type)
{
	static const char *const names[] = {
		[VS_PG_COND_UNSCHEDULABLE] = "Unschedulable",
		[VS_PG_COND_SCHEDULED] = "Scheduled",
	};

	return vs_enum_name(names, ARRAY_SIZE(names), type);
}

static void job_free(struct vs_cluster *cl, struct vs_job *job)
{
	struct job_attrs a = {
		.queue_name = job->queue_name,
		.priority_class = job->priority_class,
		.roles = job->min_task_member,
		.nr_roles = job->nr_min_task_member,
	};

	if (job->vjob)
		job->vjob->podgroup = NULL;
	job_attrs_free(cl, &a);
	for (int i = 0; i < VS_PG_COND_NR; i++)
		free(job->cond[i].text);
	free(job->why);		/* sched/explain.h: one block */
	vs_str_put(&cl->strs, job->ns);
	vs_str_put(&cl->strs, job->name);
	vs_pool_free(&cl->job_pool, job);
}

int vs_job_del(struct vs_cluster *cl, struct vs_job *job, struct vs_err *err)
{
	if (job->nr_tasks)
		return vs_err_set(err, EBUSY, "podgroup %s/%s still has %u tasks", job->ns,
				  job->name, job->nr_tasks);
	job_queue_detach(cl, job);
	vs_htable_del(&cl->job_index, &job->hnode);
	list_del(&job->list);
	cl->nr_jobs--;
	job_free(cl, job);
	return 0;
}

/* ---- task status: the job's index and totals, and the queue's ---- */

/* Count the task into (or, with @sign -1, out of) its job's index and totals. */
static void job_account(struct vs_cluster *cl, struct vs_job *job, struct vs_task *task, int sign)
{
	bool allocated = vs_task_status_allocated(task->status);
	bool best_effort = task->status == VS_TASK_PENDING && task->best_effort;
	struct vs_queue *queue = job->queue;

	job_wake(cl, job);
	if (sign > 0) {
		list_add_tail(&task->status_node, &job->by_status[task->status]);
		job->nr_by_status[task->status]++;
		job->nr_pending_best_effort += best_effort;
		vs_res_add(&job->total_request, task->req);
		if (queue)
			vs_res_add(&queue->request, task->req);
		if (allocated) {
			vs_res_add(&job->allocated, task->req);
			if (queue)
				vs_res_add(&queue->allocated, task->req);
		}
	} else {
		list_del_init(&task->status_node);
		job->nr_by_status[task->status]--;
		job->nr_pending_best_effort -= best_effort;
		/* a saturated total is counted again without the task (core/res.h) */
		if (unlikely(vs_res_saturated_by(&job->total_request, task->req) ||
			     (allocated && vs_res_saturated_by(&job->allocated, task->req)))) {
			vs_job_sums(job, task, &job->total_request, &job->allocated);
		} else {
			vs_res_sub(&job->total_request, task->req);
			if (allocated)
				vs_res_sub(&job->allocated, task->req);
		}
		if (!queue)
			return;
		if (unlikely(vs_res_saturated_by(&queue->request, task->req) ||
			     (allocated && vs_res_saturated_by(&queue->allocated, task->req)))) {
			queue_sums(queue, &queue->allocated, &queue->request);
		} else {
			vs_res_sub(&queue->request, task->req);
			if (allocated)
				vs_res_sub(&queue->allocated, task->req);
		}
	}
}

/* Volcano's UpdateTaskStatus: out of the index under the old status, in under the new. */
static void job_move_task(struct vs_cluster *cl, struct vs_job *job, struct vs_task *task,
			  enum vs_task_status status)
{
	job_account(cl, job, task, -1);
	task->status = status;
	job_account(cl, job, task, +1);
}

static bool status_valid(enum vs_task_status status)
{
	return (unsigned int)status < VS_TASK_NR_STATUS;
}

/* Statuses that put a task on a node (Releasing may also be nodeless). */
static bool status_needs_node(enum vs_task_status status)
{
	return status != VS_TASK_RELEASING && (VS_TASK_ON_NODE_MASK & VS_TASK_BIT(status));
}

int vs_task_set_status(struct vs_cluster *cl, struct vs_task *task,
		       enum vs_task_status status, struct vs_err *err)
{
	if (!status_valid(status))
		return vs_err_set(err, EINVAL, "bad task status %d", status);
	if (!task->node) {
		if (status_needs_node(status))
			return vs_err_set(err, EINVAL, "task %s/%s has no node: it cannot be %s",
					  task->ns, task->name, vs_task_status_name(status));
		job_move_task(cl, task->job, task, status);
		return 0;
	}
	if (status == VS_TASK_PENDING || status == VS_TASK_UNKNOWN)
		return vs_err_set(err, EINVAL, "task %s/%s is on node %s: it cannot be %s",
				  task->ns, task->name, task->node->name,
				  vs_task_status_name(status));

	job_move_task(cl, task->job, task, status);
	if (vs_task_status_terminal(status))
		vs_node_remove_task(task->node, task);	/* a finished task holds nothing */
	else
		vs_node_update_task(task->node, task);
	return 0;
}

int vs_task_place(struct vs_cluster *cl, struct vs_task *task, struct vs_node *node,
		  enum vs_task_status status, struct vs_err *err)
{
	enum vs_task_status old = task->status;
	int ret;

	if (task->node)
		return vs_err_set(err, EEXIST, "task %s/%s is already on node %s",
				  task->ns, task->name, task->node->name);
	if (!status_valid(status) || !(VS_TASK_ON_NODE_MASK & VS_TASK_BIT(status)))
		return vs_err_set(err, EINVAL, "task %s/%s cannot be placed as %s",
				  task->ns, task->name,
				  status_valid(status) ? vs_task_status_name(status) : "?");

	/* The node decides under the new status; on refusal nothing moved. */
	task->status = status;
	ret = vs_node_add_task(node, task, err);
	task->status = old;
	if (ret)
		return ret;
	job_move_task(cl, task->job, task, status);
	return 0;
}

int vs_task_unplace(struct vs_cluster *cl, struct vs_task *task,
		    enum vs_task_status status, struct vs_err *err)
{
	if (!task->node)
		return vs_err_set(err, EINVAL, "task %s/%s is on no node", task->ns, task->name);
	if (!status_valid(status) || status_needs_node(status) ||
	    status == VS_TASK_RELEASING)
		return vs_err_set(err, EINVAL, "task %s/%s cannot leave its node as %s",
				  task->ns, task->name,
				  status_valid(status) ? vs_task_status_name(status) : "?");
	vs_node_remove_task(task->node, task);
	job_move_task(cl, task->job, task, status);
	return 0;
}

int vs_task_bind_succeeded(struct vs_cluster *cl, struct vs_task *task, struct vs_err *err)
{
	int ret;

	if (task->status != VS_TASK_BINDING)
		return vs_err_set(err, EINVAL, "task %s/%s is %s, not Binding", task->ns,
				  task->name, vs_task_status_name(task->status));
	ret = vs_task_set_status(cl, task, VS_TASK_BOUND, err);
	if (ret)
		return ret;
	task->bind_failures = 0;
	task->retry_after_ns = 0;
	vs_str_put(&cl->strs, task->bind_error);
	task->bind_error = NULL;
	return 0;
}

int vs_task_bind_failed(struct vs_cluster *cl, struct vs_task *task, u64 now_ns,
			const char *why, struct vs_err *err)
{
	const char *error;
	int ret;

	if (task->status != VS_TASK_BINDING)
		return vs_err_set(err, EINVAL, "task %s/%s is %s, not Binding", task->ns,
				  task->name, vs_task_status_name(task->status));
	error = vs_str_get_cstr(&cl->strs, why);
	if (!error)
		return vs_err_set(err, ENOMEM, "out of memory");
	ret = vs_task_unplace(cl, task, VS_TASK_PENDING, err);
	if (ret) {
		vs_str_put(&cl->strs, error);
		return ret;
	}
	vs_str_put(&cl->strs, task->bind_error);
	task->bind_error = error;
	if (task->bind_failures < UINT16_MAX)
		task->bind_failures++;
	task->retry_after_ns = now_ns + vs_bind_backoff_ns(task->bind_failures);
	return 0;
}

/* ---- tasks ---- */

void vs_task_spec_init(struct vs_task_spec *spec, const char *ns, const char *name,
		       const char *job)
{
	memset(spec, 0, sizeof(*spec));
	spec->ns = ns;
	spec->name = name;
	spec->job = job;
	spec->status = VS_TASK_PENDING;
	spec->priority = 1;
	spec->preemptable = true;
	spec->preemption_policy = VS_PREEMPT_LOWER_PRIORITY;
}

static bool has_pod_terms(const struct vs_task *task)
{
	return task->affinity && (task->affinity->pod_affinity || task->affinity->pod_anti_affinity);
}

static void task_free(struct vs_cluster *cl, struct vs_task *task)
{
	vs_labels_free(&cl->strs, task->labels);
	vs_labels_free(&cl->strs, task->node_selector);
	vs_tolerations_free(&cl->strs, task->tolerations);
	vs_affinity_free(&cl->strs, task->affinity);
	vs_str_put(&cl->strs, task->ns);
	vs_str_put(&cl->strs, task->name);
	vs_str_put(&cl->strs, task->role);
	vs_str_put(&cl->strs, task->priority_class);
	vs_str_put(&cl->strs, task->bind_error);
	vs_req_put(&cl->reqs, task->req);
	vs_pool_free(&cl->task_pool, task);
}

/*
 * Volcano's GetPodResourceRequest, which NewTaskInfo uses for both Resreq and
 * InitResreq: the larger of the containers' and the init containers'
 * requests, plus the one pod the task is.
 */
static void task_request(struct vs_res *req, const struct vs_task_spec *spec)
{
	*req = spec->req;
	if (spec->has_init_req)
		vs_res_set_max(req, &spec->init_req);
	vs_res_set(req, VS_RES_PODS, vs_res_get(req, VS_RES_PODS) + 1);
}

static int task_spec_check(struct vs_cluster *cl, const struct vs_task_spec *spec,
			   struct vs_job **job, struct vs_node **node, struct vs_err *err)
{
	int ret;

	*job = NULL;
	*node = NULL;
	if (!status_valid(spec->status))
		return vs_err_set(err, EINVAL, "bad status %d", spec->status);
	if (empty(spec->job))
		return vs_err_set(err, EINVAL, "no podgroup given");
	*job = vs_job_find(cl, spec->ns, spec->job);
	if (!*job)
		return vs_err_set(err, ENOENT, "podgroup %s/%s does not exist", spec->ns,
				  spec->job);
	if (!empty(spec->role)) {
		ret = vs_check_label_value(spec->role, strlen(spec->role), "role", err);
		if (ret)
			return ret;
	}
	if (!empty(spec->priority_class)) {
		ret = vs_check_dns_subdomain(spec->priority_class, strlen(spec->priority_class),
					     "priority class name", err);
		if (ret)
			return ret;
	}
	if ((unsigned int)spec->preemption_policy > VS_PREEMPT_NEVER)
		return vs_err_set(err, EINVAL, "bad preemption policy %d",
				  spec->preemption_policy);
	ret = check_res(&spec->req, "request", err);
	if (!ret && spec->has_init_req)
		ret = check_res(&spec->init_req, "init request", err);
	if (ret)
		return ret;

	if (!empty(spec->node) && !vs_task_status_terminal(spec->status)) {
		if (spec->status == VS_TASK_PENDING || spec->status == VS_TASK_UNKNOWN)
			return vs_err_set(err, EINVAL, "a %s task cannot be on node %s",
					  vs_task_status_name(spec->status), spec->node);
		*node = vs_node_find(cl, spec->node);
		if (!*node)
			return vs_err_set(err, ENOENT, "node %s does not exist", spec->node);
	} else if (empty(spec->node) && status_needs_node(spec->status)) {
		return vs_err_set(err, EINVAL, "a %s task needs a node",
				  vs_task_status_name(spec->status));
	}
	return 0;
}

int vs_task_add(struct vs_cluster *cl, const struct vs_task_spec *spec,
		struct vs_task **out, struct vs_err *err)
{
	struct vs_job *job;
	struct vs_node *node;
	struct vs_task *task;
	struct vs_res req;
	int ret = 0;

	ret = vs_check_dns_label(spec->ns, spec->ns ? strlen(spec->ns) : 0, "namespace", err);
	if (!ret)
		ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
					     "pod name", err);
	if (ret)
		return ret;
	if (vs_task_find(cl, spec->ns, spec->name))
		return vs_err_set(err, EEXIST, "pod %s/%s already exists", spec->ns, spec->name);
	ret = LIMIT_CHECK(cl, tasks, cl->nr_tasks, err);
	if (ret)
		return ret;
	ret = task_spec_check(cl, spec, &job, &node, err);
	if (ret)
		goto out_prefix;

	task = vs_pool_zalloc(&cl->task_pool);
	if (!task) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	INIT_LIST_HEAD(&task->node_node);
	ret = vs_labels_new(&cl->strs, spec->labels, spec->nr_labels, "label",
			    &task->labels, err);
	if (!ret)
		ret = vs_labels_new(&cl->strs, spec->node_selector, spec->nr_node_selector,
				    "nodeSelector", &task->node_selector, err);
	if (!ret)
		ret = vs_tolerations_new(&cl->strs, spec->tolerations, spec->nr_tolerations,
					 &task->tolerations, err);
	if (!ret)
		ret = vs_affinity_new(&cl->strs, spec->affinity, &task->affinity, err);
	if (ret)
		goto out_free;
	task->ns = vs_str_get_cstr(&cl->strs, spec->ns);
	task->name = vs_str_get_cstr(&cl->strs, spec->name);
	task->role = vs_str_get_cstr(&cl->strs, spec->role ? spec->role : "");
	task->priority_class = intern_opt(cl, spec->priority_class, &ret);
	if (ret || !task->ns || !task->name || !task->role) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	task_request(&req, spec);
	task->req = vs_req_get(&cl->reqs, &req);
	if (!task->req) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	task->best_effort = vs_res_is_empty(task->req);	/* pods do not count */
	task->preemptable = spec->preemptable;
	task->preemption_policy = spec->preemption_policy;
	task->priority = spec->priority;
	task->job = job;
	task->status = spec->status;
	if (node) {
		ret = vs_node_add_task(node, task, err);
		if (ret)
			goto out_free;
	}

	task->seq = cl->seq++;
	task->created = vs_created_take(cl, spec->created);
	task->name_index = vs_task_name_index(task->name);
	list_add_tail(&task->job_node, &job->tasks);
	job->nr_tasks++;
	job_account(cl, job, task, +1);
	vs_htable_add(&cl->task_index, &task->hnode, ns_name_hash(task->ns, task->name));
	cl->nr_tasks++;
	cl->nr_pod_affinity_tasks += has_pod_terms(task);
	if (out)
		*out = task;
	return 0;

out_free:
	task_free(cl, task);
out_prefix:
	vs_err_prefix(err, "pod %s/%s: ", spec->ns, spec->name);
	return ret;
}

void vs_task_del(struct vs_cluster *cl, struct vs_task *task)
{
	if (task->node)
		vs_node_remove_task(task->node, task);
	job_account(cl, task->job, task, -1);
	list_del(&task->job_node);
	task->job->nr_tasks--;
	vs_htable_del(&cl->task_index, &task->hnode);
	cl->nr_tasks--;
	cl->nr_pod_affinity_tasks -= has_pod_terms(task);
	task_free(cl, task);
}

/* ---- priority classes ---- */

struct vs_prioclass *vs_prioclass_default(const struct vs_cluster *cl)
{
	struct vs_prioclass *pc;

	list_for_each_entry(pc, &cl->prioclasses, list)
		if (pc->global_default)
			return pc;
	return NULL;
}

static int prioclass_spec_check(const struct vs_cluster *cl, const struct vs_prioclass *self,
				const struct vs_prioclass_spec *spec, struct vs_err *err)
{
	struct vs_prioclass *def;

	if ((unsigned int)spec->preemption_policy > VS_PREEMPT_NEVER)
		return vs_err_set(err, EINVAL, "bad preemption policy %d",
				  spec->preemption_policy);
	def = vs_prioclass_default(cl);
	if (spec->global_default && def && def != self)
		return vs_err_set(err, EINVAL, "%s is already the global default", def->name);
	return 0;
}

int vs_prioclass_add(struct vs_cluster *cl, const struct vs_prioclass_spec *spec,
		     struct vs_prioclass **out, struct vs_err *err)
{
	struct vs_prioclass *pc;
	int ret;

	ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
				     "priority class name", err);
	if (ret)
		return ret;
	if (vs_prioclass_find(cl, spec->name))
		return vs_err_set(err, EEXIST, "priority class %s already exists", spec->name);
	ret = LIMIT_CHECK(cl, prioclasses, cl->nr_prioclasses, err);
	if (ret)
		return ret;
	ret = prioclass_spec_check(cl, NULL, spec, err);
	if (ret)
		goto out_prefix;
	pc = vs_pool_zalloc(&cl->prioclass_pool);
	if (pc)
		pc->name = vs_str_get_cstr(&cl->strs, spec->name);
	if (!pc || !pc->name) {
		vs_pool_free(&cl->prioclass_pool, pc);
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	pc->seq = cl->seq++;
	pc->value = spec->value;
	pc->global_default = spec->global_default;
	pc->preemption_policy = spec->preemption_policy;
	vs_htable_add(&cl->prioclass_index, &pc->hnode, vs_str_hash(pc->name));
	list_add_tail(&pc->list, &cl->prioclasses);
	cl->nr_prioclasses++;
	if (out)
		*out = pc;
	return 0;

out_prefix:
	vs_err_prefix(err, "priority class %s: ", spec->name);
	return ret;
}

int vs_prioclass_update(struct vs_cluster *cl, struct vs_prioclass *pc,
			const struct vs_prioclass_spec *spec, struct vs_err *err)
{
	int ret = prioclass_spec_check(cl, pc, spec, err);

	if (ret) {
		vs_err_prefix(err, "priority class %s: ", pc->name);
		return ret;
	}
	pc->value = spec->value;
	pc->global_default = spec->global_default;
	pc->preemption_policy = spec->preemption_policy;
	return 0;
}

static void prioclass_free(struct vs_cluster *cl, struct vs_prioclass *pc)
{
	vs_str_put(&cl->strs, pc->name);
	vs_pool_free(&cl->prioclass_pool, pc);
}

void vs_prioclass_del(struct vs_cluster *cl, struct vs_prioclass *pc)
{
	vs_htable_del(&cl->prioclass_index, &pc->hnode);
	list_del(&pc->list);
	cl->nr_prioclasses--;
	prioclass_free(cl, pc);
}

/* ---- VolcanoJobs ---- */

void vs_vjob_spec_init(struct vs_vjob_spec *spec, const char *ns, const char *name)
{
	memset(spec, 0, sizeof(*spec));
	spec->ns = ns;
	spec->name = name;
}

static void vjob_free(struct vs_cluster *cl, struct vs_vjob *vjob)
{
	for (u32 i = 0; vjob->tasks && i < vjob->nr_tasks; i++) {
		struct vs_vjob_task *t = &vjob->tasks[i];

		vs_str_put(&cl->strs, t->name);
		vs_labels_free(&cl->strs, t->labels);
		vs_labels_free(&cl->strs, t->node_selector);
		vs_tolerations_free(&cl->strs, t->tolerations);
		free(t->policies);
		free(t->kept);
	}
	if (vjob->podgroup)
		vjob->podgroup->vjob = NULL;
	free(vjob->tasks);
	free(vjob->policies);
	vs_str_put(&cl->strs, vjob->ns);
	vs_str_put(&cl->strs, vjob->name);
	vs_str_put(&cl->strs, vjob->queue_name);
	vs_str_put(&cl->strs, vjob->priority_class);
	vs_pool_free(&cl->vjob_pool, vjob);
}

static int policies_check(const struct vs_vjob_policy *p, u32 nr, struct vs_err *err)
{
	for (u32 i = 0; i < nr; i++) {
		if ((unsigned int)p[i].event >= VS_EV_NR ||
		    (unsigned int)p[i].action >= VS_ACT_NR)
			return vs_err_set(err, EINVAL, "policy %u: bad event or action", i);
		if (p[i].has_exit_code && p[i].exit_code == 0)
			return vs_err_set(err, EINVAL, "policy %u: exitCode 0 is not a failure", i);
	}
	return 0;
}

static struct vs_vjob_policy *policies_dup(const struct vs_vjob_policy *p, u32 nr)
{
	struct vs_vjob_policy *copy;

	if (!nr)
		return NULL;
	copy = calloc(nr, sizeof(*copy));
	if (copy)
		memcpy(copy, p, nr * sizeof(*copy));
	return copy;
}

static int vjob_spec_check(const struct vs_cluster *cl, const struct vs_vjob_spec *spec,
			   struct vs_err *err)
{
	u64 replicas = 0;
	int ret;

	if (!spec->nr_tasks)
		return vs_err_set(err, EINVAL, "no tasks specified");
	for (u32 i = 0; i < spec->nr_tasks; i++) {
		const struct vs_vjob_task_spec *t = &spec->tasks[i];

		ret = vs_check_dns_label(t->name, t->name ? strlen(t->name) : 0, "task name", err);
		if (ret)
			return ret;
		for (u32 j = 0; j < i; j++)
			if (!strcmp(spec->tasks[j].name, t->name))
				return vs_err_set(err, EINVAL, "task name \"%s\" given twice", t->name);
		if (!t->replicas)
			return vs_err_set(err, EINVAL, "task %s: replicas must be at least 1", t->name);
		if (t->has_min_available && t->min_available > t->replicas)
			return vs_err_set(err, EINVAL,
					  "task %s: minAvailable %u is more than its %u replicas",
					  t->name, t->min_available, t->replicas);
		ret = check_res(&t->req, "request", err);
		if (!ret)
			ret = policies_check(t->policies, t->nr_policies, err);
		if (ret) {
			vs_err_prefix(err, "task %s: ", t->name);
			return ret;
		}
		replicas += t->replicas;
	}
	if (spec->has_min_available && spec->min_available > replicas)
		return vs_err_set(err, EINVAL, "minAvailable %u is more than the %llu replicas",
				  spec->min_available, (unsigned long long)replicas);
	if (replicas > cl->limits.tasks)
		return vs_err_set(err, ENOSPC, "%llu replicas: more pods than the cluster may hold "
				  "(%u, vschedd --limit tasks=N)", (unsigned long long)replicas,
				  cl->limits.tasks);
	if (!empty(spec->priority_class)) {
		ret = vs_check_dns_subdomain(spec->priority_class, strlen(spec->priority_class),
					     "priority class name", err);
		if (ret)
			return ret;
	}
	ret = vs_check_dns_subdomain(queue_name_or_default(spec->queue),
				     strlen(queue_name_or_default(spec->queue)), "queue name", err);
	if (ret)
		return ret;
	return policies_check(spec->policies, spec->nr_policies, err);
}

int vs_vjob_add(struct vs_cluster *cl, const struct vs_vjob_spec *spec,
		struct vs_vjob **out, struct vs_err *err)
{
	struct vs_vjob *vjob;
	u32 task_min = 0;
	int ret = 0;

	ret = vs_check_dns_label(spec->ns, spec->ns ? strlen(spec->ns) : 0, "namespace", err);
	if (!ret)
		ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
					     "job name", err);
	if (ret)
		return ret;
	if (vs_vjob_find(cl, spec->ns, spec->name))
		return vs_err_set(err, EEXIST, "job %s/%s already exists", spec->ns, spec->name);
	ret = LIMIT_CHECK(cl, vjobs, cl->nr_vjobs, err);
	if (!ret)
		ret = vjob_spec_check(cl, spec, err);
	if (ret)
		goto out_prefix;

	vjob = vs_pool_zalloc(&cl->vjob_pool);
	if (!vjob) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	vjob->ns = vs_str_get_cstr(&cl->strs, spec->ns);
	vjob->name = vs_str_get_cstr(&cl->strs, spec->name);
	vjob->queue_name = vs_str_get_cstr(&cl->strs, queue_name_or_default(spec->queue));
	vjob->priority_class = intern_opt(cl, spec->priority_class, &ret);
	vjob->tasks = calloc(spec->nr_tasks, sizeof(*vjob->tasks));
	vjob->policies = policies_dup(spec->policies, spec->nr_policies);
	if (ret || !vjob->ns || !vjob->name || !vjob->queue_name || !vjob->tasks ||
	    (spec->nr_policies && !vjob->policies)) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	vjob->nr_policies = spec->nr_policies;
	for (u32 i = 0; i < spec->nr_tasks; i++) {
		const struct vs_vjob_task_spec *ts = &spec->tasks[i];
		struct vs_vjob_task *t = &vjob->tasks[i];

		vjob->nr_tasks++;
		t->name = vs_str_get_cstr(&cl->strs, ts->name);
		t->replicas = ts->replicas;
		t->min_available = ts->has_min_available ? ts->min_available : ts->replicas;
		t->req = ts->req;
		t->policies = policies_dup(ts->policies, ts->nr_policies);
		t->nr_policies = t->policies ? ts->nr_policies : 0;
		ret = vs_labels_new(&cl->strs, ts->labels, ts->nr_labels, "label",
				    &t->labels, err);
		if (!ret)
			ret = vs_labels_new(&cl->strs, ts->node_selector, ts->nr_node_selector,
					    "nodeSelector", &t->node_selector, err);
		if (!ret)
			ret = vs_tolerations_new(&cl->strs, ts->tolerations, ts->nr_tolerations,
						 &t->tolerations, err);
		if (!ret && (!t->name || (ts->nr_policies && !t->policies)))
			ret = vs_err_set(err, ENOMEM, "out of memory");
		if (ret) {
			vs_err_prefix(err, "task %s: ", ts->name);
			goto out_free;
		}
		task_min += t->min_available;
	}
	/* Volcano's mutating webhook: an unset or zero minAvailable takes the tasks' sum. */
	vjob->min_available = spec->has_min_available && spec->min_available ?
			      spec->min_available : task_min;
	vjob->status.min_available = vjob->min_available;
	vjob->max_retry = spec->max_retry ? spec->max_retry : 3;
	vjob->phase = VS_VJOB_PENDING;
	vjob->seq = cl->seq++;
	vs_htable_add(&cl->vjob_index, &vjob->hnode, ns_name_hash(vjob->ns, vjob->name));
	list_add_tail(&vjob->list, &cl->vjobs);
	cl->nr_vjobs++;
	if (out)
		*out = vjob;
	return 0;

out_free:
	vjob_free(cl, vjob);
out_prefix:
	vs_err_prefix(err, "job %s/%s: ", spec->ns, spec->name);
	return ret;
}

void vs_vjob_del(struct vs_cluster *cl, struct vs_vjob *vjob)
{
	vs_htable_del(&cl->vjob_index, &vjob->hnode);
	list_del(&vjob->list);
	cl->nr_vjobs--;
	vjob_free(cl, vjob);
}

/* ---- the whole-state check ---- */

static int check_queue(const struct vs_queue *queue, struct vs_err *err)
{
	struct vs_queue_rest rest = { 0 };
	struct vs_res allocated, request;
	struct vs_job_contrib c;
	const struct vs_job *job;
	u32 n = 0, phases[VS_PG_NR_PHASES] = { 0 };

	list_for_each_entry(job, &queue->jobs, queue_node) {
		if (job->queue != queue)
			return vs_err_set(err, EIO, "queue %s lists podgroup %s/%s of another queue",
					  queue->name, job->ns, job->name);
		if (job->resting) {
			if (!may_rest(job) || !list_empty(&job->active_node))
				return vs_err_set(err, EIO, "podgroup %s/%s rests but may not",
						  job->ns, job->name);
			vs_job_contrib(job, &c);
			vs_queue_rest_add(&rest, &c);
		}
		phases[job->phase]++;
		n++;
	}
	if (n != queue->nr_jobs)
		return vs_err_set(err, EIO, "queue %s has %u podgroups but counts %u",
				  queue->name, n, queue->nr_jobs);
	if (memcmp(phases, queue->nr_jobs_by_phase, sizeof(phases)))
		return vs_err_set(err, EIO, "queue %s: podgroup counts by phase are wrong",
				  queue->name);
	queue_sums(queue, &allocated, &request);
	if (memcmp(allocated.v, queue->allocated.v, sizeof(allocated.v)) ||
	    memcmp(request.v, queue->request.v, sizeof(request.v)))
		return vs_err_set(err, EIO, "queue %s: totals differ from its podgroups'",
				  queue->name);
	if (!vs_queue_rest_equal(&rest, &queue->rest))
		return vs_err_set(err, EIO, "queue %s: the sums of its %u resting podgroups are "
				  "wrong (%u counted)", queue->name, rest.nr_jobs,
				  queue->rest.nr_jobs);
	return 0;
}

/* VolcanoJobs and PriorityClasses: listed, indexed and counted alike. */
static int check_others(const struct vs_cluster *cl, struct vs_err *err)
{
	const struct vs_prioclass *pc;
	const struct vs_vjob *vjob;
	u32 vjobs = 0, pcs = 0;

	list_for_each_entry(vjob, &cl->vjobs, list) {
		if (vs_vjob_find(cl, vjob->ns, vjob->name) != vjob)
			return vs_err_set(err, EIO, "job %s/%s is not indexed", vjob->ns,
					  vjob->name);
		vjobs++;
	}
	list_for_each_entry(pc, &cl->prioclasses, list) {
		if (vs_prioclass_find(cl, pc->name) != pc)
			return vs_err_set(err, EIO, "priorityclass %s is not indexed", pc->name);
		pcs++;
	}
	if (vjobs != cl->nr_vjobs || pcs != cl->nr_prioclasses ||
	    vs_htable_count(&cl->vjob_index) != vjobs ||
	    vs_htable_count(&cl->prioclass_index) != pcs)
		return vs_err_set(err, EIO, "%u jobs and %u priorityclasses listed, %u and %u "
				  "counted, %zu and %zu indexed", vjobs, pcs, cl->nr_vjobs,
				  cl->nr_prioclasses, vs_htable_count(&cl->vjob_index),
				  vs_htable_count(&cl->prioclass_index));
	return 0;
}

/* Each index whole: a name found above could still hide a broken chain. */
static int check_indexes(const struct vs_cluster *cl, struct vs_err *err)
{
	const struct {
		const char *what;
		const struct vs_htable *t;
	} idx[] = {
		{ "node", &cl->node_index },
		{ "queue", &cl->queue_index },
		{ "podgroup", &cl->job_index },
		{ "task", &cl->task_index },
		{ "job", &cl->vjob_index },
		{ "priorityclass", &cl->prioclass_index },
	};

	for (size_t i = 0; i < ARRAY_SIZE(idx); i++)
		if (vs_htable_check(idx[i].t))
			return vs_err_set(err, EIO, "the %s index is broken", idx[i].what);
	return 0;
}

/* Every object of a pool is one the cluster holds: none leaked, none freed twice. */
static int check_pools(const struct vs_cluster *cl, struct vs_err *err)
{
	const struct {
		const struct vs_pool *pool;
		u32 nr;
	} pools[] = {
		{ &cl->node_pool, cl->nr_nodes },
		{ &cl->queue_pool, cl->nr_queues },
		{ &cl->job_pool, cl->nr_jobs },
		{ &cl->task_pool, cl->nr_tasks },
		{ &cl->vjob_pool, cl->nr_vjobs },
		{ &cl->prioclass_pool, cl->nr_prioclasses },
	};

	for (size_t i = 0; i < ARRAY_SIZE(pools); i++)
		if (pools[i].pool->active_objs != pools[i].nr)
			return vs_err_set(err, EIO, "pool %s has %zu objects in use for %u",
					  pools[i].pool->name, pools[i].pool->active_objs,
					  pools[i].nr);
	return 0;
}

int vs_cluster_check(const struct vs_cluster *cl, struct vs_err *err)
{
	const struct vs_node *node;
	const struct vs_queue *queue;
	const struct vs_job *job;
	const struct vs_task *task;
	struct vs_res total;
	u32 nodes = 0, queues = 0, jobs = 0, tasks = 0, pns = 0, ipa = 0, active = 0, awake = 0;
	u32 prev_sidx = 0;
	int ret;

	vs_res_clear(&total);
	list_for_each_entry(node, &cl->nodes, list) {
		if (vs_node_find(cl, node->name) != node)
			return vs_err_set(err, EIO, "node %s is not indexed", node->name);
		if (node->sidx >= cl->nr_node_slots || cl->node_slot[node->sidx] != node)
			return vs_err_set(err, EIO, "node %s is not in its slot %u", node->name,
					  node->sidx);
		if (nodes && node->sidx <= prev_sidx)
			return vs_err_set(err, EIO, "node %s: slots out of creation order",
					  node->name);
		prev_sidx = node->sidx;
		if (!vs_node_class_is(node->cls, &cl->strs, node->labels, node->taints,
				      node->unschedulable, node->ready) ||
		    node->cls->id >= cl->classes.nr_ids ||
		    cl->classes.by_id[node->cls->id] != node->cls)
			return vs_err_set(err, EIO, "node %s is not in the class of its spec",
					  node->name);
		ret = vs_node_check(node, err);
		if (ret)
			return ret;
		vs_res_add(&total, &node->allocatable);
		pns += prefers_no_schedule(node);
		nodes++;
	}
	if (memcmp(total.v, cl->total_allocatable.v, sizeof(total.v)))
		return vs_err_set(err, EIO, "total allocatable differs from the nodes' sum");
	for (u32 i = 0, classes = 0, refs = 0; i <= cl->classes.nr_ids; i++) {
		const struct vs_node_class *c = i < cl->classes.nr_ids ? cl->classes.by_id[i] : NULL;

		if (c) {
			if (c->id != i || !c->nr_nodes)
				return vs_err_set(err, EIO, "node class %u: id %u, %u nodes", i,
						  c->id, c->nr_nodes);
			classes++;
			refs += c->nr_nodes;
		}
		if (i == cl->classes.nr_ids && (classes != cl->classes.nr || refs != nodes))
			return vs_err_set(err, EIO, "%u node classes of %u nodes; %u and %u counted",
					  cl->classes.nr, nodes, classes, refs);
	}
	if (cl->nr_node_slots != nodes + cl->nr_node_holes)
		return vs_err_set(err, EIO, "%u node slots for %u nodes and %u holes",
				  cl->nr_node_slots, nodes, cl->nr_node_holes);

	list_for_each_entry(queue, &cl->queues, list) {
		if (vs_queue_find(cl, queue->name) != queue)
			return vs_err_set(err, EIO, "queue %s is not indexed", queue->name);
		ret = check_queue(queue, err);
		if (ret)
			return ret;
		queues++;
	}

	ret = vs_reqtab_audit_start(&cl->reqs, err);
	if (ret)
		return ret;
	list_for_each_entry(job, &cl->active_jobs, active_node) {
		if (!job->queue || job->resting)
			return vs_err_set(err, EIO, "podgroup %s/%s is active but %s", job->ns,
					  job->name, job->resting ? "rests" : "has no queue");
		active++;
	}
	list_for_each_entry(job, &cl->jobs, list) {
		if (vs_job_find(cl, job->ns, job->name) != job)
			return vs_err_set(err, EIO, "podgroup %s/%s is not indexed", job->ns,
					  job->name);
		awake += job->queue && !job->resting;
		if (!job->queue && vs_queue_find(cl, job->queue_name))
			return vs_err_set(err, EIO, "podgroup %s/%s is orphaned but queue %s exists",
					  job->ns, job->name, job->queue_name);
		ret = vs_job_check(job, err);
		if (ret)
			return ret;
		list_for_each_entry(task, &job->tasks, job_node) {
			if (vs_task_find(cl, task->ns, task->name) != task)
				return vs_err_set(err, EIO, "task %s/%s is not indexed",
						  task->ns, task->name);
			if (!task->node != (task->acct == VS_ACCT_NONE))
				return vs_err_set(err, EIO, "task %s/%s: node and accounting disagree",
						  task->ns, task->name);
			ret = vs_reqtab_audit_ref(&cl->reqs, task->req, err);
			if (ret) {
				vs_err_prefix(err, "task %s/%s: ", task->ns, task->name);
				return ret;
			}
			ipa += has_pod_terms(task);
			tasks++;
		}
		jobs++;
	}
	ret = vs_reqtab_audit_end(&cl->reqs, err);
	if (ret)
		return ret;

	if (nodes != cl->nr_nodes || queues != cl->nr_queues || jobs != cl->nr_jobs ||
	    tasks != cl->nr_tasks)
		return vs_err_set(err, EIO, "object counts are wrong");
	if (active != awake || active != cl->nr_active_jobs)
		return vs_err_set(err, EIO, "%u podgroups listed active, %u awake with a queue, %u "
				  "counted", active, awake, cl->nr_active_jobs);
	if (pns != cl->nr_prefer_no_schedule_nodes || ipa != cl->nr_pod_affinity_tasks)
		return vs_err_set(err, EIO, "%u nodes with a PreferNoSchedule taint, %u counted; %u "
				  "tasks with pod affinity, %u counted", pns,
				  cl->nr_prefer_no_schedule_nodes, ipa, cl->nr_pod_affinity_tasks);
	if (vs_htable_count(&cl->node_index) != nodes ||
	    vs_htable_count(&cl->queue_index) != queues ||
	    vs_htable_count(&cl->job_index) != jobs ||
	    vs_htable_count(&cl->task_index) != tasks)
		return vs_err_set(err, EIO, "an index holds objects that are not listed");
	return check_others(cl, err) ?: check_indexes(cl, err) ?: check_pools(cl, err);
}

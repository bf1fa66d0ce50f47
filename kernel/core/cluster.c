// SPDX-License-Identifier: Apache-2.0
/*
 * The cluster itself: its creation and teardown, the per-type pools, the
 * name indexes and their lookups, the limits on how many objects it holds,
 * and the node slots. The objects live in their own files (node.c,
 * queue.c, job.c, task.c, prioclass.c, vjob.c, with condition.c for
 * PodGroup conditions) and the whole-state check in check.c; see
 * Documentation/core.md for the map.
 */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

/* ---- index hashing ---- */

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

static u32 hypernode_hashfn(const struct hlist_node *n)
{
	return vs_str_hash(hlist_entry(n, struct vs_hypernode, hnode)->name);
}

static u32 hypernode_claim_hashfn(const struct hlist_node *n)
{
	return vs_str_hash(hlist_entry(n, struct vs_hn_member, claim)->name);
}

static u32 job_hashfn(const struct hlist_node *n)
{
	const struct vs_job *job = hlist_entry(n, struct vs_job, hnode);

	return vs_ns_name_hash(job->ns, job->name);
}

static u32 task_hashfn(const struct hlist_node *n)
{
	const struct vs_task *task = hlist_entry(n, struct vs_task, hnode);

	return vs_ns_name_hash(task->ns, task->name);
}

static u32 vjob_hashfn(const struct hlist_node *n)
{
	const struct vs_vjob *vjob = hlist_entry(n, struct vs_vjob, hnode);

	return vs_ns_name_hash(vjob->ns, vjob->name);
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
	hlist_for_each_entry(obj, vs_htable_bucket(&cl->index, vs_ns_name_hash(ins, iname)), hnode) \
		if (obj->ns == ins && obj->name == iname)			\
			return obj;						\
	return NULL;								\
}

DEFINE_NAME_FIND(vs_node_find, vs_node, node_index)
DEFINE_NAME_FIND(vs_queue_find, vs_queue, queue_index)
DEFINE_NAME_FIND(vs_prioclass_find, vs_prioclass, prioclass_index)
DEFINE_NAME_FIND(vs_hypernode_find, vs_hypernode, hypernode_index)
DEFINE_NS_NAME_FIND(vs_job_find, vs_job, job_index)
DEFINE_NS_NAME_FIND(vs_task_find, vs_task, task_index)
DEFINE_NS_NAME_FIND(vs_vjob_find, vs_vjob, vjob_index)

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
	{ "hypernodes", offsetof(struct vs_cluster_limits, hypernodes), "hypernodes" },
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
			  "podgroups, tasks, vjobs, prioclasses, hypernodes)", kind);
}

int vs_cluster_limit_refuse(const struct vs_cluster *cl, size_t off, u32 nr, struct vs_err *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(limit_kinds); i++)
		if (limit_kinds[i].off == off)
			return vs_err_set(err, ENOSPC, "the cluster holds %u %s, its limit "
					  "(vschedd --limit %s=N): delete some first", nr,
					  limit_kinds[i].what, limit_kinds[i].kind);
	return vs_err_set(err, ENOSPC, "limit reached");
}

/* ---- the cluster ---- */

int vs_cluster_init(struct vs_cluster *cl)
{
	int ret;

	memset(cl, 0, sizeof(*cl));
	cl->limits = (struct vs_cluster_limits){
		.nodes = VS_LIMIT_NODES, .queues = VS_LIMIT_QUEUES,
		.podgroups = VS_LIMIT_PODGROUPS, .tasks = VS_LIMIT_TASKS,
		.vjobs = VS_LIMIT_VJOBS, .prioclasses = VS_LIMIT_PRIOCLASSES,
		.hypernodes = VS_LIMIT_HYPERNODES,
	};
	vs_res_dims_init(&cl->dims);
	INIT_LIST_HEAD(&cl->nodes);
	INIT_LIST_HEAD(&cl->queues);
	INIT_LIST_HEAD(&cl->jobs);
	INIT_LIST_HEAD(&cl->orphan_jobs);
	cl->active_jobs = RB_ROOT;
	INIT_LIST_HEAD(&cl->vjobs);
	INIT_LIST_HEAD(&cl->prioclasses);
	vs_hypernodes_init(&cl->hypernodes);
	cl->node_names = VS_NAME_TREE_CLUSTER(struct vs_node, byname, name);
	cl->queue_names = VS_NAME_TREE_CLUSTER(struct vs_queue, byname, name);
	cl->job_names = VS_NAME_TREE(struct vs_job, byname, ns, name);
	cl->task_names = VS_NAME_TREE(struct vs_task, byname, ns, name);
	cl->vjob_names = VS_NAME_TREE(struct vs_vjob, byname, ns, name);
	cl->prioclass_names = VS_NAME_TREE_CLUSTER(struct vs_prioclass, byname, name);
	cl->hypernode_names = VS_NAME_TREE_CLUSTER(struct vs_hypernode, byname, name);

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
				sizeof(struct vs_prioclass), 0, NULL)) ||
	    (ret = vs_pool_init(&cl->hypernode_pool, "vs_hypernode",
				sizeof(struct vs_hypernode), 0, NULL)))
		goto out_destroy;
	if ((ret = vs_htable_init(&cl->node_index, 8, node_hashfn)) ||
	    (ret = vs_htable_init(&cl->queue_index, 4, queue_hashfn)) ||
	    (ret = vs_htable_init(&cl->job_index, 8, job_hashfn)) ||
	    (ret = vs_htable_init(&cl->task_index, 10, task_hashfn)) ||
	    (ret = vs_htable_init(&cl->vjob_index, 4, vjob_hashfn)) ||
	    (ret = vs_htable_init(&cl->prioclass_index, 2, prioclass_hashfn)) ||
	    (ret = vs_htable_init(&cl->hypernode_index, 2, hypernode_hashfn)) ||
	    (ret = vs_htable_init(&cl->hypernode_claims, 2, hypernode_claim_hashfn)) ||
	    (ret = vs_node_classes_init(&cl->classes)) ||
	    (ret = vs_image_table_init(&cl->images)))
		goto out_destroy;
	return 0;

out_destroy:
	vs_cluster_destroy(cl);
	return ret;
}

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
				vs_task_free(cl, task);
			vs_job_free(cl, job);
		}
		list_for_each_entry_safe(vjob, vtmp, &cl->vjobs, list)
			vs_vjob_free(cl, vjob);
		list_for_each_entry_safe(node, ntmp, &cl->nodes, list)
			vs_node_free(cl, node);
		list_for_each_entry_safe(queue, qtmp, &cl->queues, list)
			vs_queue_free(cl, queue);
		list_for_each_entry_safe(pc, ptmp, &cl->prioclasses, list)
			vs_prioclass_free(cl, pc);
		vs_hypernodes_destroy(cl);
	}

	vs_htable_destroy(&cl->node_index);
	vs_htable_destroy(&cl->queue_index);
	vs_htable_destroy(&cl->job_index);
	vs_htable_destroy(&cl->task_index);
	vs_htable_destroy(&cl->vjob_index);
	vs_htable_destroy(&cl->prioclass_index);
	vs_htable_destroy(&cl->hypernode_index);
	vs_htable_destroy(&cl->hypernode_claims);
	vs_node_classes_destroy(&cl->classes);
	vs_image_table_destroy(&cl->images);
	vs_pool_destroy(&cl->node_pool);
	vs_pool_destroy(&cl->queue_pool);
	vs_pool_destroy(&cl->job_pool);
	vs_pool_destroy(&cl->task_pool);
	vs_pool_destroy(&cl->vjob_pool);
	vs_pool_destroy(&cl->prioclass_pool);
	vs_pool_destroy(&cl->hypernode_pool);
	vs_reqtab_destroy(&cl->reqs);
	vs_strtab_destroy(&cl->strs);
	free(cl->node_slot);
	vs_node_log_destroy(&cl->touched);
	memset(cl, 0, sizeof(*cl));
}

/* ---- node slots ---- */

void vs_cluster_keep_names(struct vs_cluster *cl)
{
	struct vs_hypernode *hn;
	struct vs_prioclass *pc;
	struct vs_queue *queue;
	struct vs_vjob *vjob;
	struct vs_node *node;
	struct vs_task *task;
	struct vs_job *job;

	if (cl->node_names.kept)	/* all seven are kept together */
		return;
	vs_name_tree_keep(&cl->node_names);
	vs_name_tree_keep(&cl->queue_names);
	vs_name_tree_keep(&cl->job_names);
	vs_name_tree_keep(&cl->task_names);
	vs_name_tree_keep(&cl->vjob_names);
	vs_name_tree_keep(&cl->prioclass_names);
	vs_name_tree_keep(&cl->hypernode_names);
	list_for_each_entry(node, &cl->nodes, list)
		vs_name_tree_add(&cl->node_names, node);
	list_for_each_entry(queue, &cl->queues, list)
		vs_name_tree_add(&cl->queue_names, queue);
	list_for_each_entry(job, &cl->jobs, list) {
		vs_name_tree_add(&cl->job_names, job);
		list_for_each_entry(task, &job->tasks, job_node)
			vs_name_tree_add(&cl->task_names, task);
	}
	list_for_each_entry(vjob, &cl->vjobs, list)
		vs_name_tree_add(&cl->vjob_names, vjob);
	list_for_each_entry(pc, &cl->prioclasses, list)
		vs_name_tree_add(&cl->prioclass_names, pc);
	list_for_each_entry(hn, &cl->hypernodes.list, list)
		vs_name_tree_add(&cl->hypernode_names, hn);
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

// SPDX-License-Identifier: Apache-2.0
/*
 * Nodes: their life in the cluster (add, update, delete, with the
 * cluster's total allocatable and node slots), and their resource
 * accounting after Volcano's NodeInfo: how each task status moves a node's
 * idle, used, releasing and pipelined resources, and the check that
 * recomputes all of it from the node's tasks. See node.h.
 */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/node.h"
#include "core/task.h"

/* ---- the touch log ---- */

void vs_node_touch(struct vs_node *node)
{
	struct vs_node_log *log = node->log;

	if (!log || node->logged > log->read)
		return;		/* no log, or its last entry is still to be read */
	if (log->nr == log->cap) {
		u32 cap = log->cap ? 2 * log->cap : 1024;
		u32 *sidx = realloc(log->sidx, cap * sizeof(*sidx));

		if (!sidx) {
			log->lost = true;
			return;
		}
		log->sidx = sidx;
		log->cap = cap;
	}
	log->sidx[log->nr++] = node->sidx;
	node->logged = vs_node_log_end(log);
}

void vs_node_log_trim(struct vs_node_log *log, u64 pos)
{
	u32 drop = (u32)(pos - log->base);

	if (pos <= log->base)
		return;
	if (drop > log->nr)
		drop = log->nr;
	memmove(log->sidx, log->sidx + drop, (log->nr - drop) * sizeof(*log->sidx));
	log->nr -= drop;
	log->base += drop;
	vs_node_log_read(log, log->base);
}

void vs_node_log_reset(struct vs_node_log *log)
{
	log->base += log->nr;
	log->nr = 0;
	log->read = log->base;	/* every node may be logged again */
	log->lost = false;
}

void vs_node_log_destroy(struct vs_node_log *log)
{
	free(log->sidx);
	memset(log, 0, sizeof(*log));
}

/* ---- accounting ---- */

static enum vs_node_acct acct_for_status(enum vs_task_status status)
{
	switch (status) {
	case VS_TASK_RELEASING:
		return VS_ACCT_RELEASING;
	case VS_TASK_PIPELINED:
		return VS_ACCT_PIPELINED;
	case VS_TASK_ALLOCATED:
	case VS_TASK_BINDING:
	case VS_TASK_BOUND:
	case VS_TASK_RUNNING:
		return VS_ACCT_USED;
	default:
		/* Pending and Unknown are not placed; finished tasks hold nothing. */
		return VS_ACCT_NONE;
	}
}

void vs_node_requested(const struct vs_node *node, s64 *cpu, s64 *memory,
		       s64 *nonzero_cpu, s64 *nonzero_memory)
{
	/* clamped: a node may hold quantities up to the largest int64 */
	*cpu = vs_add_clamped(vs_res_get(&node->used, VS_RES_CPU),
			      vs_res_get(&node->pipelined, VS_RES_CPU));
	*memory = vs_add_clamped(vs_res_get(&node->used, VS_RES_MEMORY),
				 vs_res_get(&node->pipelined, VS_RES_MEMORY));
	*nonzero_cpu = vs_add_clamped(*cpu, (s64)node->nr_zero_cpu * VS_NONZERO_CPU);
	*nonzero_memory = vs_add_clamped(*memory, (s64)node->nr_zero_memory * VS_NONZERO_MEMORY);
}

void vs_node_future_idle(const struct vs_node *node, struct vs_res *out)
{
	*out = node->idle;
	vs_res_add(out, &node->releasing);
	vs_res_sub(out, &node->pipelined);
}

/* What @node's tasks but @skip (may be NULL) use, release and have pipelined, taken afresh. */
static void node_sums(const struct vs_node *node, const struct vs_task *skip,
		      struct vs_res *used, struct vs_res *releasing, struct vs_res *pipelined)
{
	const struct vs_task *task;

	vs_res_clear(used);
	vs_res_clear(releasing);
	vs_res_clear(pipelined);
	list_for_each_entry(task, &node->tasks, node_node) {
		if (task == skip)
			continue;
		switch (task->acct) {
		case VS_ACCT_RELEASING:
			vs_res_add(releasing, task->req);
			fallthrough;
		case VS_ACCT_USED:
			vs_res_add(used, task->req);
			break;
		case VS_ACCT_PIPELINED:
			vs_res_add(pipelined, task->req);
			break;
		case VS_ACCT_NONE:
			break;
		}
	}
}

/* Whether taking @req out of @node's totals needs them counted again. */
static bool node_saturated_by(const struct vs_node *node, const struct vs_res *req)
{
	return vs_res_saturated_by(&node->used, req) ||
	       vs_res_saturated_by(&node->releasing, req) ||
	       vs_res_saturated_by(&node->pipelined, req);
}

/*
 * Count the node's totals again from its tasks but @skip: they saturated
 * (core/res.h), and a subtraction cannot take them apart. idle is then
 * allocatable - used, as vs_node_set_allocatable() makes it.
 */
static void node_recount(struct vs_node *node, const struct vs_task *skip)
{
	node_sums(node, skip, &node->used, &node->releasing, &node->pipelined);
	node->idle = node->allocatable;
	vs_res_sub(&node->idle, &node->used);
}

/* Count @req on @node the way @acct says; the inverse is uncount(). */
static void count(struct vs_node *node, const struct vs_res *req, enum vs_node_acct acct)
{
	switch (acct) {
	case VS_ACCT_RELEASING:
		vs_res_add(&node->releasing, req);
		/* a releasing task still uses its resources */
		fallthrough;
	case VS_ACCT_USED:
		vs_res_add(&node->used, req);
		/* idle is allocatable - used, with used as it reads once saturated */
		if (unlikely(vs_res_saturated_by(&node->used, req))) {
			node->idle = node->allocatable;
			vs_res_sub(&node->idle, &node->used);
		} else {
			vs_res_sub(&node->idle, req);
		}
		break;
	case VS_ACCT_PIPELINED:
		vs_res_add(&node->pipelined, req);
		break;
	case VS_ACCT_NONE:
		break;
	}
}

/* Take @task's request out of @node's totals, counted as @acct. */
static void uncount(struct vs_node *node, const struct vs_task *task, enum vs_node_acct acct)
{
	const struct vs_res *req = task->req;

	if (unlikely(node_saturated_by(node, req))) {
		node_recount(node, task);
		return;
	}
	switch (acct) {
	case VS_ACCT_RELEASING:
		vs_res_sub(&node->releasing, req);
		fallthrough;
	case VS_ACCT_USED:
		vs_res_add(&node->idle, req);
		vs_res_sub(&node->used, req);
		break;
	case VS_ACCT_PIPELINED:
		vs_res_sub(&node->pipelined, req);
		break;
	case VS_ACCT_NONE:
		break;
	}
}

int vs_node_add_task(struct vs_node *node, struct vs_task *task, struct vs_err *err)
{
	enum vs_node_acct acct = acct_for_status(task->status);

	if (task->node)
		return vs_err_set(err, EEXIST, "task %s/%s is already on node %s",
				  task->ns, task->name, task->node->name);
	if (acct == VS_ACCT_NONE)
		return vs_err_set(err, EINVAL, "task %s/%s is %s: it cannot be on a node",
				  task->ns, task->name, vs_task_status_name(task->status));
	/*
	 * A task about to be bound is checked against what is really idle, so
	 * that a stale decision never over-commits a node (Volcano's AddTask
	 * does the same for Binding).
	 */
	if (task->status == VS_TASK_BINDING) {
		vs_resmask_t short_dims = vs_res_exceeding(task->req, &node->idle, VS_DIM_ZERO);

		if (short_dims) {
			char need[160], idle[160];

			vs_res_fmt(node->dims, need, sizeof(need), task->req);
			vs_res_fmt(node->dims, idle, sizeof(idle), &node->idle);
			return vs_err_set(err, ENOSPC,
					  "node %s has not enough idle resources for task %s/%s: needs <%s>, idle <%s>",
					  node->name, task->ns, task->name, need, idle);
		}
	}

	vs_node_link_task(node, task);
	return 0;
}

/* vs_node_add_task() past its checks: an undo puts back what was there. */
void vs_node_link_task(struct vs_node *node, struct vs_task *task)
{
	enum vs_node_acct acct = acct_for_status(task->status);

	count(node, task->req, acct);
	task->node = node;
	task->acct = acct;
	list_add_tail(&task->node_node, &node->tasks);
	node->nr_tasks++;
	node->nr_zero_cpu += vs_res_get(task->req, VS_RES_CPU) == 0;
	node->nr_zero_memory += vs_res_get(task->req, VS_RES_MEMORY) == 0;
	node->nr_port_tasks += vs_task_ports(task) != NULL;
	vs_node_touch(node);
}

void vs_node_remove_task(struct vs_node *node, struct vs_task *task)
{
	uncount(node, task, task->acct);
	list_del_init(&task->node_node);
	node->nr_tasks--;
	node->nr_zero_cpu -= vs_res_get(task->req, VS_RES_CPU) == 0;
	node->nr_zero_memory -= vs_res_get(task->req, VS_RES_MEMORY) == 0;
	node->nr_port_tasks -= vs_task_ports(task) != NULL;
	task->node = NULL;
	task->acct = VS_ACCT_NONE;
	vs_node_touch(node);
}

void vs_node_update_task(struct vs_node *node, struct vs_task *task)
{
	enum vs_node_acct acct = acct_for_status(task->status);

	if (acct == task->acct)
		return;		/* Binding to Bound to Running: nothing moves */
	uncount(node, task, task->acct);
	count(node, task->req, acct);
	task->acct = acct;
	vs_node_touch(node);
}

void vs_node_set_allocatable(struct vs_node *node, const struct vs_res *allocatable)
{
	node->allocatable = *allocatable;
	/*
	 * A node that reports no pods capacity can hold no pod: Volcano's
	 * predicates refuse every task there (MaxTaskNum is 0). Saying so
	 * explicitly keeps idle a real vector: with no scalar at all, Volcano's
	 * Sub would leave idle's scalars alone while Add created them, and a
	 * removed task would leave a phantom free pod behind.
	 */
	if (!vs_res_has(&node->allocatable, VS_RES_PODS))
		vs_res_set(&node->allocatable, VS_RES_PODS, 0);
	node->idle = node->allocatable;
	vs_res_sub(&node->idle, &node->used);
	vs_node_touch(node);
}

static int res_differs(const struct vs_node *node, const char *what,
		       const struct vs_res *have, const struct vs_res *want,
		       struct vs_err *err)
{
	char a[200], b[200];

	if (!memcmp(have->v, want->v, sizeof(have->v)))
		return 0;
	vs_res_fmt(node->dims, a, sizeof(a), have);
	vs_res_fmt(node->dims, b, sizeof(b), want);
	return vs_err_set(err, EIO, "node %s: %s is <%s>, its tasks make it <%s>",
			  node->name, what, a, b);
}

int vs_node_check(const struct vs_node *node, struct vs_err *err)
{
	struct vs_res used, releasing, pipelined, idle;
	const struct vs_task *task;
	u32 n = 0, zero_cpu = 0, zero_memory = 0, ports = 0;
	int ret;

	list_for_each_entry(task, &node->tasks, node_node) {
		if (task->node != node)
			return vs_err_set(err, EIO, "node %s lists task %s/%s which is not on it",
					  node->name, task->ns, task->name);
		if (task->acct != acct_for_status(task->status))
			return vs_err_set(err, EIO,
					  "node %s counts task %s/%s as if it were not %s",
					  node->name, task->ns, task->name,
					  vs_task_status_name(task->status));
		if (task->acct == VS_ACCT_NONE)
			return vs_err_set(err, EIO, "node %s lists task %s/%s that it does not count",
					  node->name, task->ns, task->name);
		zero_cpu += vs_res_get(task->req, VS_RES_CPU) == 0;
		zero_memory += vs_res_get(task->req, VS_RES_MEMORY) == 0;
		ports += vs_task_ports(task) != NULL;
		n++;
	}
	if (ports != node->nr_port_tasks)
		return vs_err_set(err, EIO, "node %s counts %u tasks with host ports, has %u",
				  node->name, node->nr_port_tasks, ports);
	if (zero_cpu != node->nr_zero_cpu || zero_memory != node->nr_zero_memory)
		return vs_err_set(err, EIO, "node %s counts %u/%u tasks without cpu/memory, has %u/%u",
				  node->name, node->nr_zero_cpu, node->nr_zero_memory,
				  zero_cpu, zero_memory);
	if (n != node->nr_tasks)
		return vs_err_set(err, EIO, "node %s has %u tasks but counts %u",
				  node->name, n, node->nr_tasks);

	node_sums(node, NULL, &used, &releasing, &pipelined);
	idle = node->allocatable;
	vs_res_sub(&idle, &used);
	ret = res_differs(node, "used", &node->used, &used, err);
	if (!ret)
		ret = res_differs(node, "releasing", &node->releasing, &releasing, err);
	if (!ret)
		ret = res_differs(node, "pipelined", &node->pipelined, &pipelined, err);
	if (!ret)
		ret = res_differs(node, "idle", &node->idle, &idle, err);
	return ret;
}

/* ---- the node in the cluster ---- */

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
	ret = vs_res_check_amounts(cl, &spec->allocatable, "allocatable", err);
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
	struct vs_node_images *imgs;
	struct vs_txn_ent *ent;
	struct node_attrs a;
	struct vs_node *node;
	int ret;

	ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
				     "node name", err);
	if (ret)
		return ret;
	if (vs_node_find(cl, spec->name))
		return vs_err_set(err, EEXIST, "node %s already exists", spec->name);
	ret = VS_LIMIT_CHECK(cl, nodes, cl->nr_nodes, err);
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
	if (vs_txn_prep(cl, VS_TXN_ADD_NODE, NULL, 0, &ent)) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	ret = node_attrs_build(cl, spec, &a, err);
	if (ret)
		goto out_prefix;

	ret = vs_node_images_new(&cl->images, &cl->strs, spec->images, spec->nr_images,
				 &imgs, err);
	if (ret) {
		vs_labels_free(&cl->strs, a.labels);
		vs_taints_free(&cl->strs, a.taints);
		goto out_prefix;
	}
	node = vs_pool_zalloc(&cl->node_pool);
	if (node) {
		node->name = vs_str_get_cstr(&cl->strs, spec->name);
		node->dims = &cl->dims;
	}
	if (!node || !node->name ||
	    vs_node_class_get(&cl->classes, &cl->strs, a.labels, a.taints, spec->unschedulable,
			      spec->ready, &node->cls)) {
		if (node)
			vs_str_put(&cl->strs, node->name);
		vs_pool_free(&cl->node_pool, node);
		vs_labels_free(&cl->strs, a.labels);
		vs_taints_free(&cl->strs, a.taints);
		vs_node_images_release(imgs);
		vs_node_images_free(&cl->images, &cl->strs, imgs);
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	node->images = imgs;
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
	vs_name_tree_add(&cl->node_names, node);
	list_add_tail(&node->list, &cl->nodes);
	cl->nr_nodes++;
	cl->nr_prefer_no_schedule_nodes += vs_node_prefers_no_schedule(node);
	vs_res_add(&cl->total_allocatable, &node->allocatable);
	cl->hypernodes.events++;
	vs_hypernodes_node_event(cl, node->name, node);
	if (ent) {
		ent->obj = node;
		vs_txn_push(cl, ent);
	}
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
	struct vs_node_images *imgs = NULL;
	struct vs_txn_ent *ent;
	struct node_attrs a;
	int ret;

	struct vs_node_class *cls;

	/* The old attributes stay the journal's until the transaction ends. */
	if (vs_txn_prep_copy(cl, VS_TXN_NODE_SPEC, node, sizeof(*node), &ent))
		return vs_err_set(err, ENOMEM, "node %s: out of memory", node->name);
	ret = node_attrs_build(cl, spec, &a, err);
	if (!ret && vs_node_class_get(&cl->classes, &cl->strs, a.labels, a.taints,
				      spec->unschedulable, spec->ready, &cls)) {
		vs_labels_free(&cl->strs, a.labels);
		vs_taints_free(&cl->strs, a.taints);
		ret = vs_err_set(err, ENOMEM, "out of memory");
	}
	if (!ret) {
		/* As Volcano's cache: the node's names out first, then its new summaries. */
		vs_node_images_release(node->images);
		ret = vs_node_images_new(&cl->images, &cl->strs, spec->images, spec->nr_images,
					 &imgs, err);
		if (ret) {
			vs_node_images_restore(node->images);
			vs_node_class_put(&cl->classes, &cl->strs, cls);
			vs_labels_free(&cl->strs, a.labels);
			vs_taints_free(&cl->strs, a.taints);
		}
	}
	if (ret) {
		vs_err_prefix(err, "node %s: ", node->name);
		return ret;
	}
	cl->nr_prefer_no_schedule_nodes -= vs_node_prefers_no_schedule(node);
	/* the same class: the same labels, so nothing for label discovery */
	if (cls != node->cls)
		cl->hypernodes.events++;
	vs_txn_touch_node(cl, node);
	vs_txn_push(cl, ent);
	if (!ent) {
		vs_node_class_put(&cl->classes, &cl->strs, node->cls);
		vs_labels_free(&cl->strs, node->labels);
		vs_taints_free(&cl->strs, node->taints);
		vs_node_images_free(&cl->images, &cl->strs, node->images);
	}
	node->images = imgs;
	node->cls = cls;
	node->labels = a.labels;
	node->taints = a.taints;
	cl->nr_prefer_no_schedule_nodes += vs_node_prefers_no_schedule(node);
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
	vs_hypernodes_node_event(cl, node->name, node);
	return 0;
}

void vs_node_free(struct vs_cluster *cl, struct vs_node *node)
{
	/* released when it was deleted (or never counted, if it never was added) */
	vs_node_images_free(&cl->images, &cl->strs, node->images);
	vs_node_class_put(&cl->classes, &cl->strs, node->cls);
	vs_labels_free(&cl->strs, node->labels);
	vs_taints_free(&cl->strs, node->taints);
	vs_str_put(&cl->strs, node->name);
	vs_pool_free(&cl->node_pool, node);
}

int vs_node_del(struct vs_cluster *cl, struct vs_node *node, struct vs_err *err)
{
	struct vs_txn_ent *ent;

	if (node->nr_tasks)
		return vs_err_set(err, EBUSY, "node %s still holds %u tasks", node->name,
				  node->nr_tasks);
	if (vs_txn_prep(cl, VS_TXN_DEL_NODE, node, 0, &ent))
		return vs_err_set(err, ENOMEM, "node %s: out of memory", node->name);
	if (ent)
		ent->place.list = node->list.prev;
	if (vs_res_saturated(&cl->total_allocatable))
		total_recount(cl, node);
	else
		vs_res_sub(&cl->total_allocatable, &node->allocatable);
	vs_htable_del(&cl->node_index, &node->hnode);
	vs_name_tree_del(&cl->node_names, node);
	list_del(&node->list);
	cl->nr_nodes--;
	cl->nr_prefer_no_schedule_nodes -= vs_node_prefers_no_schedule(node);
	cl->node_slot[node->sidx] = NULL;
	cl->nr_node_holes++;
	cl->node_gen++;
	vs_node_images_release(node->images);
	cl->hypernodes.events++;
	vs_hypernodes_node_event(cl, node->name, NULL);
	if (ent)
		vs_txn_push(cl, ent);	/* kept whole, freed by the commit */
	else
		vs_node_free(cl, node);
	return 0;
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Tasks (Pods): created and destroyed in the cluster, and the one place
 * where a task's status changes are applied to its job (status index and
 * totals), its node (accounting) and its queue (totals) together;
 * statuses and preemption policies as text, pod indexes in names, and
 * references that find a task again later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/enum.h"
#include "core/internal.h"
#include "core/task.h"

/*
 * Memory per task is the core's first cost at scale (a million tasks):
 * struct vs_task stays within 248 bytes, so that with its pool's slab
 * header a task costs under 256. Its enums are kept in 8-bit fields, which
 * hold 0..127 whatever sign the compiler gives the enum.
 */
BUILD_BUG_ON(sizeof(struct vs_task) > 248);
BUILD_BUG_ON(VS_TASK_NR_STATUS > 128);
BUILD_BUG_ON(VS_ACCT_PIPELINED >= 128);
BUILD_BUG_ON(VS_PREEMPT_NEVER >= 128);

static const char *const status_names[VS_TASK_NR_STATUS] = {
	[VS_TASK_PENDING]	= "Pending",
	[VS_TASK_ALLOCATED]	= "Allocated",
	[VS_TASK_PIPELINED]	= "Pipelined",
	[VS_TASK_BINDING]	= "Binding",
	[VS_TASK_BOUND]		= "Bound",
	[VS_TASK_RUNNING]	= "Running",
	[VS_TASK_RELEASING]	= "Releasing",
	[VS_TASK_SUCCEEDED]	= "Succeeded",
	[VS_TASK_FAILED]	= "Failed",
	[VS_TASK_UNKNOWN]	= "Unknown",
};

const char *vs_task_status_name(enum vs_task_status s)
{
	return vs_enum_name(status_names, ARRAY_SIZE(status_names), s);
}

int vs_task_status_parse(const char *s, enum vs_task_status *out, struct vs_err *err)
{
	int v = vs_enum_parse(status_names, ARRAY_SIZE(status_names), s, "task status", err);

	if (v < 0)
		return v;
	*out = (enum vs_task_status)v;
	return 0;
}

static const char *const policy_names[] = {
	[VS_PREEMPT_LOWER_PRIORITY]	= "PreemptLowerPriority",
	[VS_PREEMPT_NEVER]		= "Never",
};

const char *vs_preemption_policy_name(enum vs_preemption_policy p)
{
	return vs_enum_name(policy_names, ARRAY_SIZE(policy_names), p);
}

int vs_preemption_policy_parse(const char *s, enum vs_preemption_policy *out,
			       struct vs_err *err)
{
	int v;

	if (!s || !*s) {
		*out = VS_PREEMPT_LOWER_PRIORITY;
		return 0;
	}
	v = vs_enum_parse(policy_names, ARRAY_SIZE(policy_names), s, "preemption policy", err);
	if (v < 0)
		return v;
	*out = (enum vs_preemption_policy)v;
	return 0;
}

s64 vs_task_name_index(const char *name)
{
	const char *p = strrchr(name, '-');
	unsigned int dashes = 0;
	u64 v = 0;

	for (const char *q = name; *q; q++)
		dashes += *q == '-';
	if (dashes < 2)
		return VS_NO_NAME_INDEX;
	/* After the last "-" there is no "-" sign; Atoi takes a "+". */
	if (*++p == '+')
		p++;
	if (!*p)
		return VS_NO_NAME_INDEX;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return VS_NO_NAME_INDEX;
		v = v * 10 + (u64)(*p - '0');
		if (v > (u64)INT64_MAX)
			return VS_NO_NAME_INDEX;	/* Atoi's range error */
	}
	return (s64)v;
}

/* ---- task status: the job's index and totals, and the queue's ---- */

/* Count the task into (or, with @sign -1, out of) its job's index and totals. */
void vs_job_account(struct vs_cluster *cl, struct vs_job *job, struct vs_task *task, int sign)
{
	bool allocated = vs_task_status_allocated(task->status);
	bool best_effort = task->status == VS_TASK_PENDING && task->best_effort;
	struct vs_queue *queue = job->queue;

	vs_job_wake(cl, job);		/* journalled before the sums it rests with */
	vs_txn_touch_job(cl, job);
	if (sign > 0) {
		list_add_tail(&task->status_node, &job->by_status[task->status]);
		job->nr_by_status[task->status]++;
		job->nr_pending_best_effort += best_effort;
		job->nr_gated += task->gated;
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
		job->nr_gated -= task->gated;
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
			vs_queue_sums(queue, &queue->allocated, &queue->request);
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
	vs_job_account(cl, job, task, -1);
	task->status = status;
	vs_job_account(cl, job, task, +1);
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

/*
 * Journal a change of @task's status or node about to be made (and save
 * the sums of its node, which vs_job_account() does not see); -ENOMEM when
 * it cannot be.
 */
static int task_journal_open(struct vs_cluster *cl, struct vs_task *task, struct vs_node *to,
			     struct vs_txn_ent **ent, struct vs_err *err)
{
	if (vs_txn_prep_open(cl, VS_TXN_TASK_MOVE, task, 0, ent))
		return vs_err_set(err, ENOMEM, "task %s/%s: out of memory", task->ns, task->name);
	if (!*ent)
		return 0;
	vs_txn_task_place(task, &(*ent)->place);
	if (task->node)
		vs_txn_touch_node(cl, task->node);
	if (to)
		vs_txn_touch_node(cl, to);
	return 0;
}

/* Every move of every task in a cycle comes here: outside a transaction, a test. */
static inline int task_journal(struct vs_cluster *cl, struct vs_task *task, struct vs_node *to,
			       struct vs_txn_ent **ent, struct vs_err *err)
{
	if (likely(!cl->txn)) {
		*ent = NULL;
		return 0;
	}
	return task_journal_open(cl, task, to, ent, err);
}

int vs_task_set_status(struct vs_cluster *cl, struct vs_task *task,
		       enum vs_task_status status, struct vs_err *err)
{
	struct vs_txn_ent *ent = NULL;

	if (!status_valid(status))
		return vs_err_set(err, EINVAL, "bad task status %d", status);
	if (!task->node) {
		if (status_needs_node(status))
			return vs_err_set(err, EINVAL, "task %s/%s has no node: it cannot be %s",
					  task->ns, task->name, vs_task_status_name(status));
		if (task_journal(cl, task, NULL, &ent, err))
			return -ENOMEM;
		job_move_task(cl, task->job, task, status);
		vs_txn_push(cl, ent);
		return 0;
	}
	if (status == VS_TASK_PENDING || status == VS_TASK_UNKNOWN)
		return vs_err_set(err, EINVAL, "task %s/%s is on node %s: it cannot be %s",
				  task->ns, task->name, task->node->name,
				  vs_task_status_name(status));

	if (task_journal(cl, task, NULL, &ent, err))
		return -ENOMEM;
	job_move_task(cl, task->job, task, status);
	if (vs_task_status_terminal(status))
		vs_node_remove_task(task->node, task);	/* a finished task holds nothing */
	else
		vs_node_update_task(task->node, task);
	vs_txn_push(cl, ent);
	return 0;
}

int vs_task_place(struct vs_cluster *cl, struct vs_task *task, struct vs_node *node,
		  enum vs_task_status status, struct vs_err *err)
{
	enum vs_task_status old = task->status;
	struct vs_txn_ent *ent;
	int ret;

	if (task->node)
		return vs_err_set(err, EEXIST, "task %s/%s is already on node %s",
				  task->ns, task->name, task->node->name);
	if (!status_valid(status) || !(VS_TASK_ON_NODE_MASK & VS_TASK_BIT(status)))
		return vs_err_set(err, EINVAL, "task %s/%s cannot be placed as %s",
				  task->ns, task->name,
				  status_valid(status) ? vs_task_status_name(status) : "?");

	if (task_journal(cl, task, node, &ent, err))
		return -ENOMEM;
	/* The node decides under the new status; on refusal nothing moved. */
	task->status = status;
	ret = vs_node_add_task(node, task, err);
	task->status = old;
	if (ret)
		return ret;
	job_move_task(cl, task->job, task, status);
	task->job->place_gen++;
	vs_txn_push(cl, ent);
	return 0;
}

int vs_task_unplace(struct vs_cluster *cl, struct vs_task *task,
		    enum vs_task_status status, struct vs_err *err)
{
	struct vs_txn_ent *ent;

	if (!task->node)
		return vs_err_set(err, EINVAL, "task %s/%s is on no node", task->ns, task->name);
	if (!status_valid(status) || status_needs_node(status) ||
	    status == VS_TASK_RELEASING)
		return vs_err_set(err, EINVAL, "task %s/%s cannot leave its node as %s",
				  task->ns, task->name,
				  status_valid(status) ? vs_task_status_name(status) : "?");
	if (task_journal(cl, task, NULL, &ent, err))
		return -ENOMEM;
	vs_node_remove_task(task->node, task);
	job_move_task(cl, task->job, task, status);
	task->job->place_gen++;
	vs_txn_push(cl, ent);
	return 0;
}

/* ---- scheduling gates ---- */

int vs_task_ungate(struct vs_cluster *cl, struct vs_task *task, struct vs_err *err)
{
	(void)err;
	if (!task->gated)
		return 0;
	/* the job rests with what its gated tasks leave out: out of the sums first */
	vs_job_wake(cl, task->job);
	if (unlikely(cl->txn))
		vs_txn_note(cl, VS_TXN_TASK_UNGATE, task, 0);
	task->gated = false;
	task->job->nr_gated--;
	return 0;
}

/* ---- what the bind pipeline keeps on a task ---- */

int vs_task_set_bind_state(struct vs_cluster *cl, struct vs_task *task, const char *error,
			   u16 failures, u64 retry_after_ns, struct vs_err *err)
{
	struct vs_task_bind *b = task->bind;
	struct vs_txn_ent *ent;

	if (!b && !error && !failures && !retry_after_ns)
		return 0;	/* none kept, none to keep */
	if (!b && !(b = calloc(1, sizeof(*b))))
		return vs_err_set(err, ENOMEM, "task %s/%s: out of memory", task->ns, task->name);
	/* Kept from here on: an undo writes back into it, which cannot fail. */
	task->bind = b;
	if (vs_txn_prep(cl, VS_TXN_TASK_BIND, task, 0, &ent))
		return vs_err_set(err, ENOMEM, "task %s/%s: out of memory", task->ns, task->name);
	if (ent) {
		/* the journal takes over the reference to the error it had */
		ent->bind.error = b->error;
		ent->bind.failures = b->failures;
		ent->bind.retry_after_ns = b->retry_after_ns;
		vs_txn_push(cl, ent);
	} else {
		vs_str_put(&cl->strs, b->error);
	}
	b->error = error;
	b->failures = failures;
	b->retry_after_ns = retry_after_ns;
	return 0;
}

int vs_task_set_nominated(struct vs_cluster *cl, struct vs_task *task, const char *node,
			  struct vs_err *err)
{
	struct vs_task_bind *b = task->bind;
	const char *old = vs_task_nominated(task), *is = NULL;
	struct vs_txn_ent *ent;
	int ret;

	if (vs_str_empty(node) ? !old : old && !strcmp(old, node))
		return 0;	/* as it is */
	if (!vs_str_empty(node)) {
		ret = vs_check_dns_subdomain(node, strlen(node), "nominated node name", err);
		if (ret)
			return ret;
	}
	if (!b && !(b = calloc(1, sizeof(*b))))
		return vs_err_set(err, ENOMEM, "task %s/%s: out of memory", task->ns, task->name);
	task->bind = b;
	ret = 0;
	is = vs_cluster_intern_opt(cl, node, &ret);
	if (ret || vs_txn_prep(cl, VS_TXN_TASK_NOMINATED, task, 0, &ent)) {
		vs_str_put(&cl->strs, is);
		return vs_err_set(err, ENOMEM, "task %s/%s: out of memory", task->ns, task->name);
	}
	if (ent) {
		ent->nominated = old;	/* the journal takes over the reference */
		vs_txn_push(cl, ent);
	} else {
		vs_str_put(&cl->strs, old);
	}
	b->nominated = is;
	return 0;
}

/* ---- the task in the cluster ---- */

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

static void task_ext_free(struct vs_cluster *cl, struct vs_task_ext *ext)
{
	if (!ext)
		return;
	vs_host_ports_free(&cl->strs, ext->ports);
	vs_task_images_free(&cl->strs, ext->images);
	vs_spread_constraints_free(&cl->strs, ext->spread);
	free(ext);
}

/* What @spec asks beyond the common fields, in *@out; NULL when nothing. */
static int task_ext_new(struct vs_cluster *cl, const struct vs_task_spec *spec,
			struct vs_task_ext **out, struct vs_err *err)
{
	struct vs_task_ext *ext;
	int ret;

	*out = NULL;
	if (!spec->nr_ports && !spec->nr_images && !spec->nr_spread && !spec->spread_shared)
		return 0;
	ext = calloc(1, sizeof(*ext));
	if (!ext)
		return vs_err_set(err, ENOMEM, "out of memory");
	ret = vs_host_ports_new(&cl->strs, spec->ports, spec->nr_ports, &ext->ports, err) ?:
	      vs_task_images_new(&cl->strs, spec->images, spec->nr_images, &ext->images, err);
	if (!ret && spec->spread_shared)
		ext->spread = vs_spread_constraints_get(spec->spread_shared);
	else if (!ret)
		ret = vs_spread_constraints_new(&cl->strs, spec->spread, spec->nr_spread,
						&ext->spread, err);
	if (ret) {
		task_ext_free(cl, ext);
		return ret;
	}
	*out = ext;
	return 0;
}

void vs_task_free(struct vs_cluster *cl, struct vs_task *task)
{
	vs_labels_free(&cl->strs, task->labels);
	vs_labels_free(&cl->strs, task->node_selector);
	vs_tolerations_free(&cl->strs, task->tolerations);
	vs_affinity_free(&cl->strs, task->affinity);
	task_ext_free(cl, task->ext);
	vs_str_put(&cl->strs, task->ns);
	vs_str_put(&cl->strs, task->name);
	vs_str_put(&cl->strs, task->role);
	vs_str_put(&cl->strs, task->priority_class);
	vs_str_put(&cl->strs, task->owner_uid);
	if (task->bind) {
		vs_str_put(&cl->strs, task->bind->error);
		vs_str_put(&cl->strs, task->bind->nominated);
		free(task->bind);
	}
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
	if (vs_str_empty(spec->job))
		return vs_err_set(err, EINVAL, "no podgroup given");
	*job = vs_job_find(cl, spec->ns, spec->job);
	if (!*job)
		return vs_err_set(err, ENOENT, "podgroup %s/%s does not exist", spec->ns,
				  spec->job);
	if (!vs_str_empty(spec->role)) {
		ret = vs_check_label_value(spec->role, strlen(spec->role), "role", err);
		if (ret)
			return ret;
	}
	if (!vs_str_empty(spec->priority_class)) {
		ret = vs_check_dns_subdomain(spec->priority_class, strlen(spec->priority_class),
					     "priority class name", err);
		if (ret)
			return ret;
	}
	/* a PodGroup's name is made from it: "podgroup-<owner UID>" */
	if (!vs_str_empty(spec->owner_uid)) {
		ret = vs_check_dns_subdomain(spec->owner_uid, strlen(spec->owner_uid),
					     "owner UID", err);
		if (ret)
			return ret;
	}
	if (!vs_str_empty(spec->nominated)) {
		ret = vs_check_dns_subdomain(spec->nominated, strlen(spec->nominated),
					     "nominated node name", err);
		if (ret)
			return ret;
	}
	if ((unsigned int)spec->preemption_policy > VS_PREEMPT_NEVER)
		return vs_err_set(err, EINVAL, "bad preemption policy %d",
				  spec->preemption_policy);
	ret = vs_res_check_amounts(cl, &spec->req, "request", err);
	if (!ret && spec->has_init_req)
		ret = vs_res_check_amounts(cl, &spec->init_req, "init request", err);
	if (ret)
		return ret;

	if (!vs_str_empty(spec->node) && !vs_task_status_terminal(spec->status)) {
		if (spec->status == VS_TASK_PENDING || spec->status == VS_TASK_UNKNOWN)
			return vs_err_set(err, EINVAL, "a %s task cannot be on node %s",
					  vs_task_status_name(spec->status), spec->node);
		*node = vs_node_find(cl, spec->node);
		if (!*node)
			return vs_err_set(err, ENOENT, "node %s does not exist", spec->node);
	} else if (vs_str_empty(spec->node) && status_needs_node(spec->status)) {
		return vs_err_set(err, EINVAL, "a %s task needs a node",
				  vs_task_status_name(spec->status));
	}
	/* The API server's rule: spec.nodeName only once every gate is cleared. */
	if (spec->gated && !vs_str_empty(spec->node))
		return vs_err_set(err, EINVAL, "a pod with scheduling gates cannot be on node %s",
				  spec->node);
	return 0;
}

int vs_task_add(struct vs_cluster *cl, const struct vs_task_spec *spec,
		struct vs_task **out, struct vs_err *err)
{
	struct vs_job *job;
	struct vs_node *node;
	struct vs_txn_ent *ent;
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
	ret = VS_LIMIT_CHECK(cl, tasks, cl->nr_tasks, err);
	if (ret)
		return ret;
	ret = task_spec_check(cl, spec, &job, &node, err);
	if (ret)
		goto out_prefix;
	if (vs_txn_prep(cl, VS_TXN_ADD_TASK, NULL, 0, &ent)) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}

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
	if (!ret)
		ret = task_ext_new(cl, spec, &task->ext, err);
	if (ret)
		goto out_free;
	task->ns = vs_str_get_cstr(&cl->strs, spec->ns);
	task->name = vs_str_get_cstr(&cl->strs, spec->name);
	task->role = vs_str_get_cstr(&cl->strs, spec->role ? spec->role : "");
	task->priority_class = vs_cluster_intern_opt(cl, spec->priority_class, &ret);
	if (!ret)
		task->owner_uid = vs_cluster_intern_opt(cl, spec->owner_uid, &ret);
	if (!ret && !vs_str_empty(spec->nominated)) {
		task->bind = calloc(1, sizeof(*task->bind));
		if (!task->bind)
			ret = -ENOMEM;
		else
			task->bind->nominated = vs_cluster_intern_opt(cl, spec->nominated, &ret);
	}
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
	task->gated = spec->gated;
	task->preemption_policy = spec->preemption_policy;
	task->priority = spec->priority;
	task->job = job;
	task->status = spec->status;
	if (node) {
		vs_txn_touch_node(cl, node);
		ret = vs_node_add_task(node, task, err);
		if (ret)
			goto out_free;
	}

	task->seq = cl->seq++;
	task->created = vs_created_take(cl, spec->created);
	task->name_index = vs_task_name_index(task->name);
	list_add_tail(&task->job_node, &job->tasks);
	job->nr_tasks++;
	vs_job_account(cl, job, task, +1);
	vs_htable_add(&cl->task_index, &task->hnode, vs_ns_name_hash(task->ns, task->name));
	vs_name_tree_add(&cl->task_names, task);
	cl->nr_tasks++;
	cl->nr_pod_affinity_tasks += vs_task_has_pod_terms(task);
	cl->nr_pod_preferred_tasks += vs_task_has_preferred_pod_terms(task);
	if (ent) {
		ent->obj = task;
		vs_txn_push(cl, ent);
	}
	if (out)
		*out = task;
	return 0;

out_free:
	vs_task_free(cl, task);
out_prefix:
	vs_err_prefix(err, "pod %s/%s: ", spec->ns, spec->name);
	return ret;
}

void vs_task_del(struct vs_cluster *cl, struct vs_task *task)
{
	/* kept whole until the commit, with its places to go back to */
	struct vs_txn_ent *ent = vs_txn_prep_nofail(cl, VS_TXN_DEL_TASK, task, 0);

	if (ent) {
		vs_txn_task_place(task, &ent->place);
		if (task->node)
			vs_txn_touch_node(cl, task->node);
	}
	if (task->node)
		vs_node_remove_task(task->node, task);
	vs_job_account(cl, task->job, task, -1);
	list_del(&task->job_node);
	task->job->nr_tasks--;
	vs_htable_del(&cl->task_index, &task->hnode);
	vs_name_tree_del(&cl->task_names, task);
	cl->nr_tasks--;
	cl->nr_pod_affinity_tasks -= vs_task_has_pod_terms(task);
	cl->nr_pod_preferred_tasks -= vs_task_has_preferred_pod_terms(task);
	if (ent)
		vs_txn_push(cl, ent);
	else
		vs_task_free(cl, task);
}

/* ---- references to a task ---- */

void vs_task_ref_take(struct vs_task_ref *r, const struct vs_task *task)
{
	r->ns = vs_str_ref(task->ns);
	r->name = vs_str_ref(task->name);
	r->seq = task->seq;
}

void vs_task_ref_put(struct vs_cluster *cl, struct vs_task_ref *r)
{
	vs_str_put(&cl->strs, r->ns);
	vs_str_put(&cl->strs, r->name);
}

struct vs_task *vs_task_ref_find(const struct vs_cluster *cl, const struct vs_task_ref *r,
				 enum vs_task_status status)
{
	struct vs_task *task = vs_task_find(cl, r->ns, r->name);

	return task && task->seq == r->seq && task->status == status ? task : NULL;
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Jobs (PodGroups): created, changed and destroyed in the cluster, their
 * membership in a queue (or among the orphans waiting for one), phases,
 * resting, role minimums, and the self-check of the status index and
 * resource totals. The index itself follows the tasks' statuses in
 * task.c; the conditions are in condition.c.
 */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/job.h"

u32 vs_job_role_min(const struct vs_job *job, const char *role)
{
	for (u32 i = 0; i < job->nr_min_task_member; i++)
		if (job->min_task_member[i].role == role)
			return job->min_task_member[i].min;
	return 0;
}

/* How a gang check counts a task of some role. */
enum role_count {
	COUNT_VALID,
	COUNT_READY,
	COUNT_PIPELINED,
};

static bool counts(const struct vs_task *task, enum role_count how)
{
	enum vs_task_status s = task->status;

	if (vs_task_status_allocated(s) || s == VS_TASK_SUCCEEDED)
		return true;
	if (s == VS_TASK_PIPELINED)
		return how != COUNT_READY;
	if (s == VS_TASK_PENDING)
		return how == COUNT_VALID || vs_res_is_empty(task->req);
	return false;
}

static bool check_roles(const struct vs_job *job, enum role_count how)
{
	u64 total = 0;

	for (u32 i = 0; i < job->nr_min_task_member; i++)
		total += job->min_task_member[i].min;
	if (job->min_member < total)
		return true;

	for (u32 i = 0; i < job->nr_min_task_member; i++) {
		const struct vs_role_min *rm = &job->min_task_member[i];
		const struct vs_task *task;
		u32 n = 0;

		if (!rm->min)
			continue;
		list_for_each_entry(task, &job->tasks, job_node)
			if (task->role == rm->role && counts(task, how) && ++n >= rm->min)
				break;
		if (n < rm->min)
			return false;
	}
	return true;
}

bool vs_job_check_task_valid(const struct vs_job *job)
{
	return check_roles(job, COUNT_VALID);
}

bool vs_job_check_task_ready(const struct vs_job *job)
{
	return check_roles(job, COUNT_READY);
}

bool vs_job_check_task_pipelined(const struct vs_job *job)
{
	return check_roles(job, COUNT_PIPELINED);
}

void vs_job_inqueue_resource(const struct vs_job *job, struct vs_res *out)
{
	const struct vs_res *min = &job->min_resources, *alloc = &job->allocated;

	vs_res_clear(out);
	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		s64 reserved;

		if (!vs_res_has(min, d))
			continue;
		reserved = vs_res_get(min, d) - vs_res_get(alloc, d);
		if (reserved > 0)
			vs_res_set(out, d, reserved);
	}
}

void vs_job_deduct_gated(const struct vs_job *job, struct vs_res *r)
{
	const struct vs_task *task;
	struct vs_res gated;

	/* Most jobs have no gated task: nothing to walk. */
	if (!job->nr_gated)
		return;
	vs_res_clear(&gated);
	list_for_each_entry(task, &job->tasks, job_node)
		if (task->gated)
			vs_res_add(&gated, task->req);
	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		s64 left;

		/* Go's Resource has cpu and memory always, a scalar only when set */
		if (!vs_res_has(r, d) || (!vs_res_has(&gated, d) &&
					  d != VS_RES_CPU && d != VS_RES_MEMORY))
			continue;
		left = vs_res_get(r, d) - vs_res_get(&gated, d);
		vs_res_set(r, d, left > 0 ? left : 0);
	}
}

void vs_job_sums(const struct vs_job *job, const struct vs_task *skip,
		 struct vs_res *total, struct vs_res *allocated)
{
	const struct vs_task *task;

	vs_res_clear(total);
	vs_res_clear(allocated);
	list_for_each_entry(task, &job->tasks, job_node) {
		if (task == skip)
			continue;
		vs_res_add(total, task->req);
		if (vs_task_status_allocated(task->status))
			vs_res_add(allocated, task->req);
	}
}

int vs_job_check(const struct vs_job *job, struct vs_err *err)
{
	struct vs_res total, allocated;
	const struct vs_task *task;
	u32 nr[VS_TASK_NR_STATUS] = { 0 };
	u32 n = 0, best_effort = 0, gated = 0;

	list_for_each_entry(task, &job->tasks, job_node) {
		if (task->job != job)
			return vs_err_set(err, EIO, "job %s/%s lists task %s/%s of another job",
					  job->ns, job->name, task->ns, task->name);
		if (task->status == VS_TASK_PENDING && task->best_effort)
			best_effort++;
		gated += task->gated;
		nr[task->status]++;
		n++;
	}
	if (n != job->nr_tasks)
		return vs_err_set(err, EIO, "job %s/%s has %u tasks but counts %u",
				  job->ns, job->name, n, job->nr_tasks);
	for (unsigned int s = 0; s < VS_TASK_NR_STATUS; s++) {
		u32 listed = 0;

		list_for_each_entry(task, &job->by_status[s], status_node) {
			if (task->status != s)
				return vs_err_set(err, EIO,
						  "job %s/%s indexes task %s as %s but it is %s",
						  job->ns, job->name, task->name,
						  vs_task_status_name((enum vs_task_status)s),
						  vs_task_status_name(task->status));
			listed++;
		}
		if (listed != nr[s] || job->nr_by_status[s] != nr[s])
			return vs_err_set(err, EIO,
					  "job %s/%s: %u tasks are %s, the index lists %u and counts %u",
					  job->ns, job->name, nr[s],
					  vs_task_status_name((enum vs_task_status)s),
					  listed, job->nr_by_status[s]);
	}
	if (gated != job->nr_gated)
		return vs_err_set(err, EIO, "job %s/%s: %u tasks with scheduling gates, counts %u",
				  job->ns, job->name, gated, job->nr_gated);
	if (best_effort != job->nr_pending_best_effort)
		return vs_err_set(err, EIO, "job %s/%s: %u pending best-effort tasks, counts %u",
				  job->ns, job->name, best_effort, job->nr_pending_best_effort);
	vs_job_sums(job, NULL, &total, &allocated);
	if (memcmp(total.v, job->total_request.v, sizeof(total.v)))
		return vs_err_set(err, EIO, "job %s/%s: total request differs from its tasks'",
				  job->ns, job->name);
	if (memcmp(allocated.v, job->allocated.v, sizeof(allocated.v)))
		return vs_err_set(err, EIO, "job %s/%s: allocated differs from its tasks'",
				  job->ns, job->name);
	return 0;
}

void vs_job_contrib(const struct vs_job *job, struct vs_job_contrib *c)
{
	bool holds_min = job->phase == VS_PG_RUNNING &&
			 vs_job_allocated_task_num(job) >= job->min_member;
	struct vs_res min, dec;

	memset(c, 0, sizeof(*c));
	c->allocated = job->allocated;
	if (!job->has_min_resources) {
		vs_res_clear(&min);
		vs_res_diff(&c->allocated, &min, VS_DIM_ZERO, &c->elastic, &dec);
		return;
	}
	/*
	 * Admitted jobs reserve the part of minResources they have not been
	 * given yet (proportion); overcommit counts an Inqueue job's whole
	 * minResources. A running job counts only while it has minMember
	 * tasks placed.
	 */
	if (job->phase == VS_PG_INQUEUE || holds_min) {
		vs_job_inqueue_resource(job, &c->inqueue);
		c->has_inqueue = true;
		c->has_oc_inqueue = true;
		c->oc_inqueue = job->phase == VS_PG_INQUEUE ? job->min_resources : c->inqueue;
		/* less what its gated tasks ask for (DeductSchGatedResources) */
		vs_job_deduct_gated(job, &c->inqueue);
		vs_job_deduct_gated(job, &c->oc_inqueue);
	}
	vs_res_diff(&c->allocated, &job->min_resources, VS_DIM_ZERO, &c->elastic, &dec);
}

/* ---- the job in the cluster ---- */

void vs_job_spec_init(struct vs_job_spec *spec, const char *ns, const char *name)
{
	memset(spec, 0, sizeof(*spec));
	spec->ns = ns;
	spec->name = name;
	spec->min_member = 1;
	spec->phase = VS_PG_PENDING;
}

/* ---- the active jobs, in creation order (cluster.h) ---- */

/*
 * Among the active jobs, after those made before it. Most jobs become
 * active as they are made, the newest of all: they go after the last one
 * without a descent.
 */
static void active_add(struct vs_cluster *cl, struct vs_job *job)
{
	struct rb_node **link = &cl->active_jobs.rb_node, *parent = NULL;
	struct rb_node *last = cl->active_last;

	if (!last || vs_active_job_of(last)->seq < job->seq) {
		if (last) {
			parent = last;
			link = &last->rb_right;	/* the last has no right child */
		}
		cl->active_last = &job->active_node;
	} else {
		while (*link) {
			parent = *link;
			link = job->seq < vs_active_job_of(parent)->seq ? &parent->rb_left :
									   &parent->rb_right;
		}
	}
	rb_link_node(&job->active_node, parent, link);
	rb_insert_color(&job->active_node, &cl->active_jobs);
	cl->nr_active_jobs++;
}

static void active_del(struct vs_cluster *cl, struct vs_job *job)
{
	struct rb_node *n;

	rb_erase(&job->active_node, &cl->active_jobs);
	RB_CLEAR_NODE(&job->active_node);
	cl->nr_active_jobs--;
	if (cl->active_last != &job->active_node)
		return;
	for (n = cl->active_jobs.rb_node; n && n->rb_right; n = n->rb_right)
		;
	cl->active_last = n;
}

/* ---- resting (core/rest.h) ---- */

/*
 * Journalled first, before whatever woke it touches the job's sums: undone
 * last, the job rests again with the sums it rested with.
 */
void vs_job_wake_resting(struct vs_cluster *cl, struct vs_job *job)
{
	struct vs_job_contrib c;

	if (unlikely(cl->txn))
		vs_txn_note(cl, VS_TXN_JOB_WAKE, job, 0);
	vs_job_contrib(job, &c);
	vs_queue_rest_sub(&job->queue->rest, &c);
	job->resting = false;
	active_add(cl, job);
}

void vs_job_rest(struct vs_cluster *cl, struct vs_job *job)
{
	struct vs_job_contrib c;

	if (job->resting || !vs_job_may_rest(job))
		return;
	vs_job_contrib(job, &c);
	vs_queue_rest_add(&job->queue->rest, &c);
	job->resting = true;
	job->sidx = VS_SIDX_NONE;
	active_del(cl, job);
}

/* ---- its queue, or the orphans waiting for one ---- */

static bool queue_saturated(const struct vs_queue *queue)
{
	return vs_res_saturated(&queue->allocated) || vs_res_saturated(&queue->request);
}

void vs_job_queue_attach(struct vs_cluster *cl, struct vs_job *job, struct vs_queue *queue)
{
	vs_txn_touch_queue(cl, queue);
	job->queue = queue;
	active_add(cl, job);
	list_add_tail(&job->queue_node, &queue->jobs);
	queue->nr_jobs++;
	queue->nr_jobs_by_phase[job->phase]++;
	vs_res_add(&queue->allocated, &job->allocated);
	vs_res_add(&queue->request, &job->total_request);
}

/* Leave the queue (or the orphan list); the job is then on no list, and awake. */
void vs_job_queue_detach(struct vs_cluster *cl, struct vs_job *job)
{
	struct vs_queue *queue = job->queue;

	list_del_init(&job->queue_node);
	if (!queue)
		return;
	vs_txn_touch_queue(cl, queue);
	vs_job_wake(cl, job);
	active_del(cl, job);
	queue->nr_jobs--;
	queue->nr_jobs_by_phase[job->phase]--;
	if (queue_saturated(queue)) {
		vs_queue_sums(queue, &queue->allocated, &queue->request);
	} else {
		vs_res_sub(&queue->allocated, &job->allocated);
		vs_res_sub(&queue->request, &job->total_request);
	}
	job->queue = NULL;
}

/* Join the queue named job->queue_name, or the orphans if there is none. */
void vs_job_queue_join(struct vs_cluster *cl, struct vs_job *job)
{
	struct vs_queue *queue = vs_queue_find(cl, job->queue_name);

	if (queue)
		vs_job_queue_attach(cl, job, queue);
	else
		list_add_tail(&job->queue_node, &cl->orphan_jobs);
}

/* ---- add, update, delete ---- */

/* The parts of a job spec that are built before anything changes. */
struct job_attrs {
	const char *queue_name;
	const char *priority_class;
	struct vs_role_min *roles;
	u32 nr_roles;
	struct vs_net_topology nt;
	struct vs_subgroup_policy *sg;
	u32 nr_sg;
};

static void job_attrs_free(struct vs_cluster *cl, struct job_attrs *a)
{
	for (u32 i = 0; i < a->nr_roles; i++)
		vs_str_put(&cl->strs, a->roles[i].role);
	free(a->roles);
	vs_str_put(&cl->strs, a->queue_name);
	vs_str_put(&cl->strs, a->priority_class);
	vs_net_topology_put(cl, &a->nt);
	vs_subgroups_free(cl, a->sg, a->nr_sg);
	memset(a, 0, sizeof(*a));
}

static int job_attrs_build(struct vs_cluster *cl, const struct vs_job_spec *spec,
			   struct job_attrs *a, struct vs_err *err)
{
	const char *qname = vs_queue_name_or_default(spec->queue);
	int ret = 0;

	memset(a, 0, sizeof(*a));
	ret = vs_check_dns_subdomain(qname, strlen(qname), "queue name", err);
	if (ret)
		return ret;
	if (!vs_str_empty(spec->priority_class)) {
		ret = vs_check_dns_subdomain(spec->priority_class, strlen(spec->priority_class),
					     "priority class name", err);
		if (ret)
			return ret;
	}
	if ((unsigned int)spec->phase >= VS_PG_NR_PHASES)
		return vs_err_set(err, EINVAL, "bad phase %d", spec->phase);
	if ((unsigned int)spec->preemptable > VS_PG_PREEMPTABLE_TRUE)
		return vs_err_set(err, EINVAL, "bad preemptable %d", spec->preemptable);
	if (spec->has_min_resources) {
		ret = vs_res_check_amounts(cl, &spec->min_resources, "minResources", err);
		if (ret)
			return ret;
	}
	ret = vs_net_topology_check(&spec->net_topology, "networkTopology", err);
	if (ret)
		return ret;
	for (u32 i = 0; i < spec->nr_min_task_member; i++) {
		const char *role = spec->min_task_member[i].role;

		if (!vs_str_empty(role)) {
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
	a->priority_class = vs_cluster_intern_opt(cl, spec->priority_class, &ret);
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
	if (!ret && vs_net_topology_build(cl, &spec->net_topology, &a->nt))
		ret = -ENOMEM;
	if (ret || !a->queue_name) {
		job_attrs_free(cl, a);
		return vs_err_set(err, ENOMEM, "out of memory");
	}
	/* last: its own messages, checks included */
	ret = vs_subgroups_build(cl, spec->subgroups, spec->nr_subgroups, &a->sg, err);
	if (ret) {
		job_attrs_free(cl, a);
		return ret;
	}
	a->nr_sg = spec->nr_subgroups;
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
	job->net_topology = a->nt;
	job->subgroups = a->sg;
	job->nr_subgroups = a->nr_sg;
	job->min_member = spec->min_member;
	job->preemptable = (u8)spec->preemptable;
	job->has_min_resources = spec->has_min_resources;
	if (spec->has_min_resources)
		job->min_resources = spec->min_resources;
	else
		vs_res_clear(&job->min_resources);
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
	struct vs_txn_ent *ent;
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
	ret = VS_LIMIT_CHECK(cl, podgroups, cl->nr_jobs, err);
	if (ret)
		return ret;
	if (vs_txn_prep(cl, VS_TXN_ADD_JOB, NULL, 0, &ent)) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	ret = job_attrs_build(cl, spec, &a, err);
	if (ret)
		goto out_prefix;

	job = vs_pool_zalloc(&cl->job_pool);
	if (job) {
		job->dims = &cl->dims;
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
	RB_CLEAR_NODE(&job->active_node);
	for (unsigned int s = 0; s < VS_TASK_NR_STATUS; s++)
		INIT_LIST_HEAD(&job->by_status[s]);
	vs_res_clear(&job->total_request);
	vs_res_clear(&job->allocated);

	vs_htable_add(&cl->job_index, &job->hnode, vs_ns_name_hash(job->ns, job->name));
	vs_name_tree_add(&cl->job_names, job);
	list_add_tail(&job->list, &cl->jobs);
	cl->nr_jobs++;
	vs_job_queue_join(cl, job);
	if (ent) {
		ent->obj = job;
		vs_txn_push(cl, ent);
	}
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
		.nt = job->net_topology,
		.sg = job->subgroups,
		.nr_sg = job->nr_subgroups,
	};
	struct vs_txn_ent *ent = NULL;
	int ret;

	/* The journal keeps the old attributes, and copies of the conditions. */
	if (vs_txn_prep_copy(cl, VS_TXN_JOB_SPEC, job, sizeof(*job), &ent) ||
	    (ent && vs_txn_save_conditions(cl, ((struct vs_job *)ent->saved)->cond))) {
		vs_err_set(err, ENOMEM, "out of memory");
		vs_err_prefix(err, "podgroup %s/%s: ", job->ns, job->name);
		return -ENOMEM;
	}
	if (ent)
		ent->place.queue_node = job->queue_node.prev;
	ret = job_attrs_build(cl, spec, &a, err);
	if (!ret && take_conditions(job, spec)) {
		/* Out of memory, conditions may be partly taken: a transaction puts them back. */
		for (u32 i = 0; ent && i < VS_PG_COND_NR; i++)
			vs_job_copy_condition(job, (enum vs_pg_cond_type)i,
					      &((struct vs_job *)ent->saved)->cond[i]);
		job_attrs_free(cl, &a);
		ret = vs_err_set(err, ENOMEM, "out of memory");
	}
	if (ret) {
		vs_err_prefix(err, "podgroup %s/%s: ", job->ns, job->name);
		return ret;
	}
	vs_job_queue_detach(cl, job);
	job_attrs_apply(job, spec, &a);
	if (!ent)
		job_attrs_free(cl, &old);
	/* The phase counts of the queue follow the job when it moves. */
	job->phase = spec->phase;
	vs_job_queue_join(cl, job);
	vs_txn_push(cl, ent);		/* after the sums it touched */
	return 0;
}

void vs_job_set_phase(struct vs_cluster *cl, struct vs_job *job, enum vs_pg_phase phase)
{
	struct vs_txn_ent *ent;

	if (phase != job->phase)
		vs_job_wake(cl, job);	/* journalled before the phase: undone after it */
	ent = cl->txn ? vs_txn_note(cl, VS_TXN_JOB_PHASE, job, 0) : NULL;
	if (ent)
		ent->phase = job->phase;
	if (job->queue) {
		job->queue->nr_jobs_by_phase[job->phase]--;
		job->queue->nr_jobs_by_phase[phase]++;
	}
	job->phase = phase;
}

void vs_job_free(struct vs_cluster *cl, struct vs_job *job)
{
	struct job_attrs a = {
		.queue_name = job->queue_name,
		.priority_class = job->priority_class,
		.roles = job->min_task_member,
		.nr_roles = job->nr_min_task_member,
		.nt = job->net_topology,
		.sg = job->subgroups,
		.nr_sg = job->nr_subgroups,
	};

	if (job->vjob)
		job->vjob->podgroup = NULL;
	job_attrs_free(cl, &a);
	for (int i = 0; i < VS_PG_COND_NR; i++)
		free(job->cond[i].text);
	free(job->why);		/* sched/explain.h: one block */
	vs_str_put(&cl->strs, job->allocated_hn);
	vs_str_put(&cl->strs, job->sub_allocated_hn);
	for (u32 i = 0; i < job->nr_sub_hns; i++) {
		vs_str_put(&cl->strs, job->sub_hns[i].uid);
		vs_str_put(&cl->strs, job->sub_hns[i].hn);
	}
	free(job->sub_hns);
	vs_str_put(&cl->strs, job->ns);
	vs_str_put(&cl->strs, job->name);
	vs_pool_free(&cl->job_pool, job);
}

int vs_job_del(struct vs_cluster *cl, struct vs_job *job, struct vs_err *err)
{
	struct vs_txn_ent *ent;

	if (job->nr_tasks)
		return vs_err_set(err, EBUSY, "podgroup %s/%s still has %u tasks", job->ns,
				  job->name, job->nr_tasks);
	if (vs_txn_prep(cl, VS_TXN_DEL_JOB, job, 0, &ent))
		return vs_err_set(err, ENOMEM, "podgroup %s/%s: out of memory", job->ns,
				  job->name);
	if (ent) {
		ent->place.list = job->list.prev;
		ent->place.queue_node = job->queue_node.prev;
		/* kept whole until the commit: the VolcanoJob lets go of it now */
		ent->place.link = job->vjob;
		if (job->vjob)
			job->vjob->podgroup = NULL;
		job->vjob = NULL;
	}
	vs_job_queue_detach(cl, job);
	vs_htable_del(&cl->job_index, &job->hnode);
	vs_name_tree_del(&cl->job_names, job);
	list_del(&job->list);
	cl->nr_jobs--;
	if (ent)
		vs_txn_push(cl, ent);
	else
		vs_job_free(cl, job);
	return 0;
}


static struct vs_subjob_hn *subjob_hn(const struct vs_job *job, const char *uid)
{
	for (u32 i = 0; i < job->nr_sub_hns; i++)
		if (!strcmp(job->sub_hns[i].uid, uid))
			return &job->sub_hns[i];
	return NULL;
}

const char *vs_job_subjob_hn(const struct vs_job *job, const char *uid)
{
	const struct vs_subjob_hn *e = subjob_hn(job, uid);

	return e ? e->hn : NULL;
}

int vs_job_set_subjob_hn(struct vs_cluster *cl, struct vs_job *job, const char *uid,
			 const char *name)
{
	struct vs_subjob_hn *e = subjob_hn(job, uid), *t;
	const char *s = NULL;

	if (!name) {
		if (!e)
			return 0;
		vs_str_put(&cl->strs, e->uid);
		vs_str_put(&cl->strs, e->hn);
		*e = job->sub_hns[--job->nr_sub_hns];
		return 0;
	}
	if (!(s = vs_str_get_cstr(&cl->strs, name)))
		return -ENOMEM;
	if (e) {
		vs_str_put(&cl->strs, e->hn);
		e->hn = s;
		return 0;
	}
	t = realloc(job->sub_hns, (job->nr_sub_hns + 1) * sizeof(*t));
	if (!t || !(uid = vs_str_get_cstr(&cl->strs, uid))) {
		if (t)
			job->sub_hns = t;
		vs_str_put(&cl->strs, s);
		return -ENOMEM;
	}
	job->sub_hns = t;
	job->sub_hns[job->nr_sub_hns++] = (struct vs_subjob_hn) { .uid = uid, .hn = s };
	return 0;
}

int vs_job_set_allocated_hn(struct vs_cluster *cl, struct vs_job *job, bool sub,
			    const char *name)
{
	const char **field = sub ? &job->sub_allocated_hn : &job->allocated_hn;
	const char *s = NULL;

	if (name && !(s = vs_str_get_cstr(&cl->strs, name)))
		return -ENOMEM;
	vs_str_put(&cl->strs, *field);
	*field = s;
	return 0;
}

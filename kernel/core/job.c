// SPDX-License-Identifier: Apache-2.0
/*
 * Jobs (PodGroups): role minimums and the self-check of the status index
 * and resource totals. Creation, status changes and deletion are in
 * cluster.c, which also keeps the index current.
 */
#include <string.h>

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
	u32 n = 0, best_effort = 0;

	list_for_each_entry(task, &job->tasks, job_node) {
		if (task->job != job)
			return vs_err_set(err, EIO, "job %s/%s lists task %s/%s of another job",
					  job->ns, job->name, task->ns, task->name);
		if (task->status == VS_TASK_PENDING && task->best_effort)
			best_effort++;
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
	}
	vs_res_diff(&c->allocated, &job->min_resources, VS_DIM_ZERO, &c->elastic, &dec);
}

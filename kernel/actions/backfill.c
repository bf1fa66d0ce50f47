// SPDX-License-Identifier: Apache-2.0
/*
 * The backfill action (Volcano's actions/backfill): place best-effort tasks,
 * those that request nothing, of admitted and valid jobs. They are taken
 * queue by queue (queue order), job by job (job order), task by task (task
 * order); a best-effort task that a previous decision pipelined is taken
 * back to Pending first. Each task goes to the best node that passes the
 * predicates, through the session's own Allocate, which dispatches a job's
 * allocated tasks once the job is ready.
 */
#include "actions/actions.h"
#include "core/log.h"
#include "sched/fiterr.h"
#include "sched/pqueue.h"
#include "sched/statement.h"

struct queue_jobs {
	struct vs_queue *queue;
	struct vs_pqueue jobs;
};

struct job_tasks {
	struct vs_job *job;
	struct vs_pqueue tasks;
};

static int cmp_job_tasks(struct vs_session *ssn, const void *a, const void *b)
{
	const struct job_tasks *x = a, *y = b;

	return vs_ssn_job_order(ssn, x->job, y->job);
}

/* The best-effort tasks of @job, or NULL when it has none. */
static struct job_tasks *collect(struct vs_session *ssn, struct vs_job *job, int *ret)
{
	struct job_tasks *jt = NULL;
	struct vs_task *task, *tmp;

	list_for_each_entry_safe(task, tmp, &job->by_status[VS_TASK_PIPELINED], status_node) {
		struct vs_node *node = task->node;

		if (!task->best_effort)
			continue;
		vs_task_unplace(ssn->cl, task, VS_TASK_PENDING, NULL);
		vs_ssn_on_deallocate(ssn, task, node);
	}
	list_for_each_entry(task, &job->by_status[VS_TASK_PENDING], status_node) {
		if (!task->best_effort || task->gated ||
		    vs_task_backing_off(task, ssn->sched->now_ns))
			continue;
		if (!jt) {
			jt = vs_arena_zalloc(ssn->arena, sizeof(*jt));
			if (!jt) {
				*ret = -ENOMEM;
				return NULL;
			}
			jt->job = job;
			vs_pq_init(&jt->tasks, ssn, ssn->arena, vs_cmp_task);
		}
		if (vs_pq_push(&jt->tasks, task)) {
			*ret = -ENOMEM;
			return NULL;
		}
	}
	return jt;
}

static void backfill_task(struct vs_session *ssn, struct vs_task *task, struct vs_node **nodes,
			  u32 nr_nodes, struct vs_node **fit)
{
	struct vs_fit_error fe = { .reason = { 0 } };
	struct vs_node *node;
	double score;
	struct vs_fit_errors *errs;
	u32 n = 0;

	if (vs_ssn_pre_predicate(ssn, task, &fe)) {
		vs_v(3, "PrePredicate for task %s/%s failed in backfill for: %s", task->ns,
		     task->name, fe.reason);
		errs = vs_fit_errors_new(ssn);
		for (u32 i = 0; errs && i < nr_nodes; i++)
			vs_fit_errors_add(ssn, errs, fe.reason);
		if (errs) {
			errs->pre_predicate = true;
			vs_session_set_fit_errors(ssn, task, errs);
		}
		return;
	}
	for (u32 i = 0; i < nr_nodes; i++)
		if (!vs_allocate_predicate(ssn, task, nodes[i], &fe))
			fit[n++] = nodes[i];
	if (!n) {
		/*
		 * job.NodesFitErrors[task]: predicates are pure, so asking
		 * again for the reasons costs nothing when all is well.
		 */
		errs = vs_fit_errors_new(ssn);
		for (u32 i = 0; errs && i < nr_nodes; i++)
			if (vs_allocate_predicate(ssn, task, nodes[i], &fe))
				vs_fit_errors_add(ssn, errs, fe.reason);
		if (errs)
			vs_session_set_fit_errors(ssn, task, errs);
		return;
	}
	node = vs_select_best_node(ssn, task, fit, n, &score);
	if (!node)
		return;
	vs_v(3, "Binding Task <%s/%s> to node <%s>", task->ns, task->name, node->name);
	vs_session_allocate(ssn, task, node, NULL);
}

static int backfill_execute(struct vs_session *ssn, const struct vs_args *args)
{
	u32 nr_order = 0, n = ssn->nr_nodes ? ssn->nr_nodes : 1;
	struct queue_jobs *qj;		/* by queue sidx */
	struct vs_pqueue queues;
	struct vs_task **order;
	struct vs_node **fit;
	int ret = 0;

	fit = vs_arena_alloc(ssn->arena, n * sizeof(*fit));
	qj = vs_arena_calloc(ssn->arena, ssn->nr_queues ? ssn->nr_queues : 1, sizeof(*qj));
	order = vs_arena_alloc(ssn->arena, (ssn->cl->nr_tasks + 1) * sizeof(*order));
	if (!fit || !qj || !order)
		return -ENOMEM;
	vs_pq_init(&queues, ssn, ssn->arena, vs_cmp_queue);

	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct vs_validate vr = { NULL, { 0 } };
		struct vs_job *job = ssn->jobs[i];
		struct job_tasks *jt;
		struct queue_jobs *q;

		if (job->phase == VS_PG_PENDING)
			continue;
		if (!vs_ssn_job_valid(ssn, job, &vr))
			continue;
		jt = collect(ssn, job, &ret);
		if (ret)
			return ret;
		if (!jt)
			continue;
		q = &qj[job->queue->sidx];
		if (!q->queue) {
			q->queue = job->queue;
			vs_pq_init(&q->jobs, ssn, ssn->arena, cmp_job_tasks);
			if (vs_pq_push(&queues, q->queue))
				return -ENOMEM;
		}
		if (vs_pq_push(&q->jobs, jt))
			return -ENOMEM;
	}

	/*
	 * Volcano lists every task first and then places them in that
	 * order: placing while popping would let the orders, which change
	 * as tasks are placed, reorder what is left.
	 */
	while (!vs_pq_empty(&queues)) {
		struct queue_jobs *q = &qj[((struct vs_queue *)vs_pq_pop(&queues))->sidx];

		while (!vs_pq_empty(&q->jobs)) {
			struct job_tasks *jt = vs_pq_pop(&q->jobs);

			while (!vs_pq_empty(&jt->tasks))
				order[nr_order++] = vs_pq_pop(&jt->tasks);
		}
	}
	for (u32 i = 0; i < nr_order; i++)
		backfill_task(ssn, order[i], ssn->nodes, ssn->nr_nodes, fit);
	return 0;
}

const struct vs_action_ops vs_action_backfill = {
	.name		= "backfill",
	.execute	= backfill_execute,
};

// SPDX-License-Identifier: Apache-2.0
/*
 * The reclaim action (Volcano's actions/reclaim): a queue that has less than
 * it deserves takes back what other queues hold beyond their share.
 *
 *   1. Every job the session schedules that is not Pending and is valid
 *      (JobValid) puts its queue into rotation (queue order); the jobs that
 *      starve (JobStarving) are the preemptors, by queue in job order, each
 *      with its pending tasks in task order.
 *   2. Queue by queue: an Overused queue is skipped. Otherwise each of its
 *      preemptor jobs gets one Statement, and while it starves its next task
 *      tries to reclaim, unless its preemptionPolicy is Never, its queue may
 *      not take it (Preemptive) or PrePredicate fails. The Statement is
 *      committed if the job is then pipelined (JobPipelined), discarded
 *      otherwise.
 *
 * One task's attempt, node by node in the order the predicates for
 * preemption let them through (only a failure no eviction can resolve
 * refuses a node; nodes are not scored): the candidates are the node's
 * Running, preemptable (volcano.sh/preemptable) tasks of jobs of other
 * queues, provided those queues are reclaimable (a queue with reclaimable:
 * false is never reclaimed from). The Reclaimable plugins choose the
 * victims, ValidateVictims checks that they would be enough, and they are
 * evicted lowest first (BuildVictimsPriorityQueue) until the task's request
 * fits the node's FutureIdle plus what the victims give back; then the task
 * is pipelined there. As in preempt, one node's evictions and the pipeline
 * make their own Statement, merged into the job's on success and discarded
 * otherwise. Unlike preempt, the queue's Allocatable and the predicates are
 * not asked again once victims are gone.
 *
 * enablePredicateErrorCache is accepted for Volcano's sake and changes
 * nothing: Volcano builds a fresh cache for every task, which no node is
 * ever looked up in twice. Differences, towards determinism: nodes are
 * tried in creation order (Volcano starts where its last search stopped and
 * works in parallel), and a node's candidates are taken in creation order
 * (Volcano walks a Go map).
 */
#include <string.h>

#include "actions/actions.h"
#include "core/log.h"
#include "sched/statement.h"

struct job_work {
	struct vs_job *job;
	struct vs_pqueue tasks;		/* pending tasks, task order */
};

struct queue_work {
	struct vs_queue *queue;
	struct vs_pqueue jobs;		/* starving jobs (struct job_work), job order */
};

struct reclaim_ctx {
	struct vs_session *ssn;
	int err;			/* -ENOMEM met on the way */
	struct queue_work *qw;		/* by queue sidx; .queue NULL when not in rotation */
	struct vs_node **fit;		/* nodes passing the predicates */
	struct vs_task **cands;		/* candidate victims on one node */
	u32 cap_cands;
	struct vs_victim_queue victims;
};

/* The candidates on @node for @task, in creation order, into ctx->cands. */
static u32 candidates(struct reclaim_ctx *ctx, const struct vs_task *task,
		      const struct vs_node *node)
{
	struct vs_task *t;
	u32 n = 0;

	if (vs_scratch_reserve(ctx->ssn, (void **)&ctx->cands, &ctx->cap_cands, node->nr_tasks,
			       sizeof(*ctx->cands))) {
		ctx->err = -ENOMEM;
		return 0;
	}
	list_for_each_entry(t, &node->tasks, node_node) {
		if (t->status != VS_TASK_RUNNING || !t->preemptable)
			continue;
		/* Tasks of the own queue are preempt's business. */
		if (t->job->sidx == VS_SIDX_NONE || t->job->queue == task->job->queue)
			continue;
		if (!t->job->queue->reclaimable)
			continue;
		ctx->cands[n++] = t;
	}
	vs_tasks_sort_by_creation(ctx->cands, n);
	return n;
}

/*
 * Try @node for @task: evict its victims until the request fits, then
 * pipeline the task, in a Statement of the node's that joins @stmt on
 * success. True when the task was placed.
 */
static bool reclaim_on_node(struct reclaim_ctx *ctx, struct vs_statement *stmt,
			    struct vs_task *task, struct vs_node *node)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_statement *nstmt = NULL;
	struct vs_task *victim;
	struct vs_res avail;
	u32 nr;

	nr = candidates(ctx, task, node);
	if (!nr) {
		vs_v(4, "No reclaimees on Node <%s>.", node->name);
		return false;
	}
	nr = vs_ssn_reclaimable(ssn, task, ctx->cands, nr);
	if (!vs_victims_validate(task, node, ctx->cands, nr)) {
		vs_v(3, "No validated victims on Node <%s>", node->name);
		return false;
	}
	if (vs_victim_queue_fill(&ctx->victims, task, ctx->cands, nr))
		goto nomem;

	/* What the node will have free, counting what the victims give back. */
	vs_node_future_idle(node, &avail);
	while (!vs_res_less_equal(task->req, &avail, VS_DIM_ZERO) &&
	       (victim = vs_victim_queue_pop(&ctx->victims))) {
		if (!nstmt && !(nstmt = vs_stmt_new(ssn)))
			goto nomem;
		vs_v(3, "Try to reclaim Task <%s/%s> for Tasks <%s/%s>", victim->ns, victim->name,
		     task->ns, task->name);
		if (vs_stmt_evict(nstmt, victim, "reclaim", NULL))
			break;
		vs_res_add(&avail, victim->req);
	}
	if (vs_res_less_equal(task->req, &avail, VS_DIM_ZERO)) {
		/* evictionOccurred: a victim went for it */
		bool evicted = nstmt && nstmt->nr;

		if (!nstmt && !(nstmt = vs_stmt_new(ssn)))
			goto nomem;
		if (!vs_stmt_pipeline(nstmt, task, node, evicted, NULL)) {
			if (!vs_stmt_merge(stmt, nstmt))
				return true;
			ctx->err = -ENOMEM;
		}
	}
	if (nstmt)
		vs_stmt_discard(nstmt);
	return false;
nomem:
	ctx->err = -ENOMEM;
	if (nstmt)
		vs_stmt_discard(nstmt);
	return false;
}

/* Volcano's reclaimForTask. */
static void reclaim_task(struct reclaim_ctx *ctx, struct vs_statement *stmt,
			 struct vs_task *task)
{
	struct vs_session *ssn = ctx->ssn;
	u32 nr = 0;

	for (u32 i = 0; i < ssn->nr_nodes; i++) {
		struct vs_fit_error fe = { .reason = { 0 } };

		if (!vs_preempt_predicate(ssn, task, ssn->nodes[i], &fe))
			ctx->fit[nr++] = ssn->nodes[i];
	}
	for (u32 i = 0; i < nr && !ctx->err; i++) {
		vs_v(3, "Considering Task <%s/%s> on Node <%s>.", task->ns, task->name,
		     ctx->fit[i]->name);
		if (reclaim_on_node(ctx, stmt, task, ctx->fit[i]))
			return;
	}
}

static int cmp_job_work(struct vs_session *ssn, const void *a, const void *b)
{
	const struct job_work *x = a, *y = b;

	return vs_ssn_job_order(ssn, x->job, y->job);
}

/* Step 1: the queues in rotation and their preemptor jobs. */
static int find_preemptors(struct reclaim_ctx *ctx, struct vs_pqueue *queues)
{
	struct vs_session *ssn = ctx->ssn;

	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct vs_validate vr = { NULL, { 0 } };
		struct vs_job *job = ssn->jobs[i];
		struct queue_work *qw;
		struct job_work *jw;
		struct vs_task *task;

		if (job->phase == VS_PG_PENDING)
			continue;
		if (!vs_ssn_job_valid(ssn, job, &vr)) {
			vs_v(4, "Job <%s/%s> Queue <%s> skip reclaim, reason: %s, message %s",
			     job->ns, job->name, job->queue->name, vr.reason ? vr.reason : "",
			     vr.message);
			continue;
		}
		qw = &ctx->qw[job->queue->sidx];
		if (!qw->queue) {
			qw->queue = job->queue;
			vs_pq_init(&qw->jobs, ssn, ssn->arena, cmp_job_work);
			if (vs_pq_push(queues, qw->queue))
				return -ENOMEM;
		}
		if (!vs_ssn_job_starving(ssn, job))
			continue;
		jw = vs_arena_zalloc(ssn->arena, sizeof(*jw));
		if (!jw)
			return -ENOMEM;
		jw->job = job;
		vs_pq_init(&jw->tasks, ssn, ssn->arena, vs_cmp_task);
		list_for_each_entry(task, &job->by_status[VS_TASK_PENDING], status_node)
			if (!task->gated && !vs_task_backing_off(task, ssn->sched->now_ns) &&
			    vs_pq_push(&jw->tasks, task))
				return -ENOMEM;
		if (vs_pq_push(&qw->jobs, jw))
			return -ENOMEM;
	}
	return 0;
}

/* Step 2 for one preemptor job; the job's Statement is settled by the caller. */
static void reclaim_job(struct reclaim_ctx *ctx, struct vs_statement *stmt,
			struct vs_queue *queue, struct job_work *jw)
{
	struct vs_session *ssn = ctx->ssn;

	while (!ctx->err && vs_ssn_job_starving(ssn, jw->job) && !vs_pq_empty(&jw->tasks)) {
		struct vs_fit_error fe = { .reason = { 0 } };
		struct vs_task *task = vs_pq_pop(&jw->tasks);

		if (task->preemption_policy == VS_PREEMPT_NEVER) {
			vs_v(3, "Task %s/%s cannot preempt (policy Never)", task->ns, task->name);
			continue;
		}
		if (!vs_ssn_preemptive(ssn, queue, task)) {
			vs_v(3, "Queue <%s> cannot reclaim for task <%s>, skip", queue->name,
			     task->name);
			continue;
		}
		if (vs_ssn_pre_predicate(ssn, task, &fe)) {
			vs_v(3, "PrePredicate failed for task %s/%s: %s", task->ns, task->name,
			     fe.reason);
			continue;
		}
		reclaim_task(ctx, stmt, task);
	}
}

static int reclaim_execute(struct vs_session *ssn, const struct vs_args *args)
{
	struct vs_metrics *m = &ssn->sched->metrics;
	struct reclaim_ctx ctx;
	struct vs_pqueue queues;
	int ret;

	memset(&ctx, 0, sizeof(ctx));
	ctx.ssn = ssn;
	ctx.qw = vs_arena_calloc(ssn->arena, ssn->nr_queues ? ssn->nr_queues : 1,
				 sizeof(*ctx.qw));
	ctx.fit = vs_arena_alloc(ssn->arena, (ssn->nr_nodes ? ssn->nr_nodes : 1) *
					     sizeof(*ctx.fit));
	if (!ctx.qw || !ctx.fit)
		return -ENOMEM;
	vs_victim_queue_init(&ctx.victims, ssn);
	vs_pq_init(&queues, ssn, ssn->arena, vs_cmp_queue);
	ret = find_preemptors(&ctx, &queues);

	/*
	 * Volcano pushes a queue back after each job while it has more, but
	 * drains those jobs before it pops another queue, so the copies it
	 * pops later find nothing: one turn per queue is the same.
	 */
	while (!ret && !vs_pq_empty(&queues)) {
		struct vs_queue *queue = vs_pq_pop(&queues);
		struct queue_work *qw = &ctx.qw[queue->sidx];

		if (vs_ssn_overused(ssn, queue)) {
			vs_v(3, "Queue <%s> is overused, ignore it.", queue->name);
			continue;
		}
		while (!vs_pq_empty(&qw->jobs)) {
			struct job_work *jw = vs_pq_pop(&qw->jobs);
			struct vs_statement *stmt = vs_stmt_new(ssn);

			if (!stmt)
				return -ENOMEM;
			reclaim_job(&ctx, stmt, queue, jw);
			if (ctx.err)
				return ctx.err;
			if (vs_ssn_job_pipelined(ssn, jw->job)) {
				if (vs_stmt_has_evictions(stmt))
					m->eviction_transactions[VS_EVICTION_RECLAIM]++;
				vs_stmt_commit(stmt);
			} else {
				vs_stmt_discard(stmt);
			}
		}
	}
	return ret;
}

static int reclaim_check_args(const struct vs_args *args, struct vs_err *err)
{
	bool b;

	return vs_args_get_bool(args, "enablePredicateErrorCache", &b, err);
}

const struct vs_action_ops vs_action_reclaim = {
	.name		= "reclaim",
	.check_args	= reclaim_check_args,
	.execute	= reclaim_execute,
};

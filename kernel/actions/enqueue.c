// SPDX-License-Identifier: Apache-2.0
/*
 * The enqueue action (Volcano's actions/enqueue): admit Pending PodGroups to
 * Inqueue, queue by queue in queue order, job by job in job order, when the
 * JobEnqueueable votes allow (a job without minResources is admitted without
 * asking). A queue goes back into rotation after each job until it has no
 * pending job left.
 */
#include "actions/actions.h"
#include "sched/explain.h"
#include "sched/pqueue.h"

/* A queue and its pending jobs for this run. */
struct queue_jobs {
	struct vs_queue *queue;
	struct vs_pqueue jobs;
	char *refused;			/* the words of its first refusal in this run... */
	const char *refused_by;		/* ...and the plugin's name */
};

/*
 * JobEnqueueable; a refusal is kept in the job's trace in the refusing
 * plugin's words, asked of the queue's first refusal in this run only
 * (every job it refuses then keeps them).
 */
static bool enqueueable(struct vs_session *ssn, struct queue_jobs *q, struct vs_job *job)
{
	struct vs_job_trace *t;
	struct vs_why why;
	bool ok;

	why.plugin = NULL;
	why.quiet = q->refused != NULL;		/* only who, when the words are known */
	ssn->why = &why;
	ok = vs_ssn_job_enqueueable(ssn, job);
	ssn->why = NULL;
	if (!ok && (t = vs_trace(ssn, job))) {
		t->step = VS_WHY_NOT_ENQUEUED;
		if (why.quiet && why.plugin == q->refused_by) {
			t->words = q->refused;
		} else {
			vs_trace_words(ssn, t, &why, NULL);
			if (!why.quiet) {
				q->refused = t->words;
				q->refused_by = why.plugin;
			}
		}
	}
	return ok;
}

static int enqueue_execute(struct vs_session *ssn, const struct vs_args *args)
{
	struct queue_jobs *qj;		/* by queue sidx */
	struct vs_pqueue queues;
	struct vs_job *job;

	qj = vs_arena_calloc(ssn->arena, ssn->nr_queues ? ssn->nr_queues : 1, sizeof(*qj));
	if (!qj)
		return -ENOMEM;
	vs_pq_init(&queues, ssn, ssn->arena, vs_cmp_queue);

	/* The session's jobs are those whose queue exists, as in Volcano's snapshot. */
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct queue_jobs *q;

		job = ssn->jobs[i];
		q = &qj[job->queue->sidx];
		if (!q->queue) {
			q->queue = job->queue;
			vs_pq_init(&q->jobs, ssn, ssn->arena, vs_cmp_job);
			if (vs_pq_push(&queues, q->queue))
				return -ENOMEM;
		}
		if (job->phase == VS_PG_PENDING && vs_pq_push(&q->jobs, job))
			return -ENOMEM;
	}

	while (!vs_pq_empty(&queues)) {
		struct vs_queue *queue = vs_pq_pop(&queues);
		struct queue_jobs *q = &qj[queue->sidx];

		if (vs_pq_empty(&q->jobs))
			continue;
		job = vs_pq_pop(&q->jobs);
		if (!job->has_min_resources || enqueueable(ssn, q, job)) {
			struct vs_job_trace *t = vs_trace(ssn, job);

			if (t)
				t->admitted = true;
			vs_ssn_job_enqueued(ssn, job);
			vs_job_set_phase(ssn->cl, job, VS_PG_INQUEUE);
		}
		if (vs_pq_push(&queues, queue))
			return -ENOMEM;
	}
	return 0;
}

const struct vs_action_ops vs_action_enqueue = {
	.name		= "enqueue",
	.execute	= enqueue_execute,
};

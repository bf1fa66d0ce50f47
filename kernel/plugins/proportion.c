// SPDX-License-Identifier: Apache-2.0
/*
 * The proportion plugin (Volcano's plugins/proportion): divide the cluster
 * between queues by weight, and keep each queue to what it deserves.
 *
 * At session open every queue that has a job in the session gets its
 * attributes: allocated (its tasks in an allocated status), request (those
 * and its pending tasks), inqueue (the minResources its admitted jobs still
 * miss), elastic (what its jobs hold beyond their minResources), guarantee,
 * capability and realCapability (the cluster less every queue's guarantee,
 * plus its own, capped by its capability). The cluster is then handed out
 * by water-filling: each round gives every queue not yet satisfied its
 * weight's part of what remains, capped by its realCapability and its
 * request and raised to its guarantee; a queue whose request is met, or
 * whose deserved no longer moves, leaves the rounds; they end when nothing
 * remains or nothing moved. A queue's share is the largest fraction of its
 * deserved, over the resources it deserves, that it holds.
 *
 * These amounts are fractional (4 cpu between weights 1 and 2 is 1333.33
 * and 2666.67 millicores), and Volcano keeps them in float64; so does this
 * file (struct vs_fres), so that every comparison with a deserved amount
 * comes out as Volcano's does. The sums the attributes start from
 * (allocated, request, inqueue, elastic) are kept exactly (struct vs_sum)
 * and read as the nearest double: allocated goes up and down with every
 * allocation, and a float64 sum that rounded a small amount away beside a
 * huge one would not come back to what the queue holds. Wherever Volcano's
 * float64 sums are exact (every amount and sum below 2^53), the doubles
 * are the ones it computes.
 *
 * Extension points: QueueOrder (priority, then the lower share), Overused
 * (deserved <= allocated), Allocatable and Preemptive (the queue is open and
 * allocated + request stays within deserved over the dimensions the request
 * names), JobEnqueueable and JobEnqueued (minResources + allocated + inqueue
 * - elastic within realCapability), Reclaimable (victims from queues above
 * their deserved) and the allocate/deallocate events. Volcano's proportion
 * ignores the queues' parents; so does this. Its simulation hooks
 * (SimulateAllocatable and friends, for preemption dry-runs) have no
 * counterpart in vsched yet.
 */
#include "core/fres.h"
#include "core/log.h"
#include "core/sum.h"
#include "plugins/plugins.h"
#include "plugins/proportion.h"
#include "sched/session.h"

/* The exact sums a queue's float attributes are read from. */
struct proportion_sums {
	struct vs_sum allocated;
	struct vs_sum request;
	struct vs_sum inqueue;
	struct vs_sum elastic;
};

struct proportion {
	struct vs_proportion_queue *queues;	/* by queue sidx */
	struct proportion_sums *sums;		/* by queue sidx */
	u32 nr_queues;
	struct vs_fres total;
	struct vs_fres total_guarantee;

	/* Reclaimable's running allocations, by queue sidx, made on first use. */
	struct vs_fres *left;
	u32 *stamp;			/* left[i] is valid when stamp[i] == epoch */
	u32 epoch;
};

static void update_share(struct vs_proportion_queue *pq)
{
	vs_resmask_t names = vs_fres_names(&pq->deserved);
	double res = 0;

	while (names) {
		unsigned int d = __builtin_ctz(names);
		double s = vs_fshare(vs_fres_get(&pq->allocated, d), vs_fres_get(&pq->deserved, d));

		if (s > res)
			res = s;
		names &= names - 1;
	}
	pq->share = res;
}

/* The attributes that depend on the queue alone, when its first job is seen. */
static void init_queue(struct proportion *prop, struct vs_proportion_queue *pq,
		       const struct vs_queue *queue)
{
	struct vs_fres cap;

	pq->active = true;
	vs_fres_from_res(&pq->guarantee, &queue->guarantee);
	vs_fres_exceeded_part(&pq->real_capability, &prop->total, &prop->total_guarantee);
	vs_fres_add(&pq->real_capability, &pq->guarantee);
	if (!queue->has_capability)
		return;
	/* a capability that leaves cpu or memory out does not limit it */
	vs_fres_from_res(&cap, &queue->capability);
	if (cap.v[VS_RES_CPU] <= 0)
		cap.v[VS_RES_CPU] = VS_FRES_INF;
	if (cap.v[VS_RES_MEMORY] <= 0)
		cap.v[VS_RES_MEMORY] = VS_FRES_INF;
	vs_fres_min_dimension(&pq->real_capability, &cap, VS_DIM_INFINITY);
}

/* Add @job's tasks and admission state to its queue's sums. */
static void account_job(struct proportion_sums *ps, const struct vs_job *job)
{
	struct vs_job_contrib c;
	const struct vs_task *task;

	/* the core keeps job->allocated as the sum over AllocatedStatus tasks */
	vs_job_contrib(job, &c);
	vs_sum_add(&ps->allocated, &c.allocated);
	vs_sum_add(&ps->request, &c.allocated);
	list_for_each_entry(task, &job->by_status[VS_TASK_PENDING], status_node)
		vs_sum_add(&ps->request, task->req);
	/*
	 * Admitted jobs reserve the part of minResources they have not been
	 * given yet; a running job only while it has minMember tasks placed.
	 */
	if (c.has_inqueue)
		vs_sum_add(&ps->inqueue, &c.inqueue);
	vs_sum_add(&ps->elastic, &c.elastic);
}

/* Add the queue's resting jobs (core/rest.h): what account_job() would have added for them. */
static void account_rest(struct proportion_sums *ps, const struct vs_queue_rest *rest)
{
	vs_sum_add_sum(&ps->allocated, &rest->allocated.s);
	vs_sum_add_sum(&ps->request, &rest->allocated.s);	/* nothing pending */
	vs_sum_add_sum(&ps->inqueue, &rest->inqueue.s);
	vs_sum_add_sum(&ps->elastic, &rest->elastic.s);
}

/* One round of water-filling; false when the rounds are over. */
static bool fill_round(struct vs_session *ssn, struct proportion *prop, struct vs_fres *remaining)
{
	struct vs_fres old_remaining, inc_sum, dec_sum, part, old, inc, dec;
	u64 total_weight = 0;

	for (u32 i = 0; i < ssn->nr_queues; i++)
		if (prop->queues[i].active && !prop->queues[i].meet)
			total_weight += ssn->queues[i]->weight;
	if (!total_weight)
		return false;

	old_remaining = *remaining;
	vs_fres_clear(&inc_sum);
	vs_fres_clear(&dec_sum);
	/*
	 * Volcano walks a map here, in random order; only the float sums
	 * below depend on the order, and queue creation order is the
	 * deterministic choice.
	 */
	for (u32 i = 0; i < ssn->nr_queues; i++) {
		struct vs_proportion_queue *pq = &prop->queues[i];

		if (!pq->active || pq->meet)
			continue;
		old = pq->deserved;
		part = *remaining;
		vs_fres_multi(&part, (double)ssn->queues[i]->weight / (double)total_weight);
		vs_fres_add(&pq->deserved, &part);
		vs_fres_min_dimension(&pq->deserved, &pq->real_capability, VS_DIM_INFINITY);
		vs_fres_min_dimension(&pq->deserved, &pq->request, VS_DIM_ZERO);
		vs_fres_max(&pq->deserved, &pq->deserved, &pq->guarantee);
		update_share(pq);

		/* met its request, or capped: it takes no more rounds */
		if (vs_fres_less_equal(&pq->request, &pq->deserved, VS_DIM_ZERO) ||
		    vs_fres_same(&pq->deserved, &old))
			pq->meet = true;

		vs_fres_diff(&pq->deserved, &old, VS_DIM_ZERO, &inc, &dec);
		vs_fres_add(&inc_sum, &inc);
		vs_fres_add(&dec_sum, &dec);

		if (vs_v_enabled(4)) {
			char buf[512];

			vs_fres_fmt(&ssn->cl->dims, buf, sizeof(buf), &pq->deserved);
			vs_v(4, "Format queue <%s> deserved resource to <%s>",
			     ssn->queues[i]->name, buf);
		}
	}

	part = *remaining;
	vs_fres_add(&part, &dec_sum);
	vs_fres_exceeded_part(remaining, &part, &inc_sum);
	return !vs_fres_is_empty(remaining) && !vs_fres_same(remaining, &old_remaining);
}

static int proportion_open(struct vs_session *ssn, struct vs_plugin *p)
{
	struct proportion *prop = vs_arena_zalloc(ssn->arena, sizeof(*prop));
	struct vs_fres remaining, f;

	if (!prop)
		return -ENOMEM;
	prop->queues = vs_arena_calloc(ssn->arena, ssn->nr_queues + 1, sizeof(*prop->queues));
	if (!prop->queues)
		return -ENOMEM;
	prop->nr_queues = ssn->nr_queues;
	prop->sums = vs_arena_calloc(ssn->arena, ssn->nr_queues + 1, sizeof(*prop->sums));
	if (!prop->sums)
		return -ENOMEM;

	vs_fres_from_res(&prop->total, &ssn->total_resource);
	/* every queue's guarantee, whether or not it has jobs */
	for (u32 i = 0; i < ssn->nr_queues; i++) {
		vs_fres_from_res(&f, &ssn->queues[i]->guarantee);
		vs_fres_add(&prop->total_guarantee, &f);
	}

	/* A sparse session's queues take their resting jobs from their sums. */
	for (u32 i = 0; ssn->sparse && i < ssn->nr_queues; i++) {
		struct vs_proportion_queue *pq = &prop->queues[i];

		if (!ssn->queues[i]->rest.nr_jobs)
			continue;
		init_queue(prop, pq, ssn->queues[i]);
		account_rest(&prop->sums[i], &ssn->queues[i]->rest);
	}
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		const struct vs_job *job = ssn->jobs[i];
		struct vs_proportion_queue *pq = &prop->queues[job->queue->sidx];

		if (!pq->active)
			init_queue(prop, pq, job->queue);
		account_job(&prop->sums[job->queue->sidx], job);
	}
	for (u32 i = 0; i < ssn->nr_queues; i++) {
		struct vs_proportion_queue *pq = &prop->queues[i];

		if (!pq->active)
			continue;
		vs_sum_to_fres(&pq->allocated, &prop->sums[i].allocated);
		vs_sum_to_fres(&pq->request, &prop->sums[i].request);
		vs_sum_to_fres(&pq->inqueue, &prop->sums[i].inqueue);
		vs_sum_to_fres(&pq->elastic, &prop->sums[i].elastic);
	}

	remaining = prop->total;
	while (fill_round(ssn, prop, &remaining))
		;
	p->priv = prop;
	return 0;
}

static int proportion_queue_order(struct vs_session *ssn, struct vs_plugin *p,
				  const struct vs_queue *l, const struct vs_queue *r)
{
	const struct proportion *prop = p->priv;
	double ls = prop->queues[l->sidx].share, rs = prop->queues[r->sidx].share;

	/* the higher priority first */
	if (l->priority != r->priority)
		return l->priority > r->priority ? -1 : 1;
	if (ls == rs)
		return 0;
	return ls < rs ? -1 : 1;
}

static bool proportion_overused(struct vs_session *ssn, struct vs_plugin *p,
				const struct vs_queue *queue)
{
	const struct vs_proportion_queue *pq = &((struct proportion *)p->priv)->queues[queue->sidx];
	bool overused = vs_fres_less_equal(&pq->deserved, &pq->allocated, VS_DIM_ZERO);

	if (overused && (vs_v_enabled(3) || vs_ssn_wants_why(ssn))) {
		char d[512], a[512];

		vs_fres_fmt(&ssn->cl->dims, d, sizeof(d), &pq->deserved);
		vs_fres_fmt(&ssn->cl->dims, a, sizeof(a), &pq->allocated);
		vs_v(3, "Queue <%s> is overused: deserved <%s>, allocated <%s>, share <%g>",
		     queue->name, d, a, pq->share);
		vs_ssn_why(ssn, p, "deserved <%s>, allocated <%s>, share %g", d, a, pq->share);
	}
	return overused;
}

/*
 * Volcano's queueAllocatable for candidates asking @ask in all (one task,
 * or a gang's pending ones for gangreclaim's PreemptiveFn): against
 * deserved, not realCapability, and only over the dimensions they ask for.
 */
static bool queue_allocatable(struct vs_session *ssn, struct vs_plugin *p,
			      const struct vs_queue *queue, const struct vs_res *ask)
{
	const struct vs_proportion_queue *pq = &((struct proportion *)p->priv)->queues[queue->sidx];
	struct vs_fres req, future;

	if (queue->state != VS_QUEUE_OPEN) {
		vs_v(3, "Queue <%s> current state: %s, is not in open state, "
		     "can not allocate tasks.", queue->name, vs_queue_state_name(queue->state));
		vs_ssn_why(ssn, p, "queue %s is %s, not Open", queue->name,
			   vs_queue_state_name(queue->state));
		return false;
	}
	vs_fres_from_res(&req, ask);
	future = pq->allocated;
	vs_fres_add(&future, &req);
	if (!vs_fres_exceeding_dim(&future, &pq->deserved, &req))
		return true;
	if (vs_ssn_wants_why(ssn)) {
		char d[512], a[512];

		vs_fres_fmt(&ssn->cl->dims, d, sizeof(d), &pq->deserved);
		vs_fres_fmt(&ssn->cl->dims, a, sizeof(a), &pq->allocated);
		vs_ssn_why(ssn, p, "queue %s: allocated <%s>, deserved <%s>: the request does "
			   "not fit", queue->name, a, d);
	}
	return false;
}

static bool proportion_allocatable(struct vs_session *ssn, struct vs_plugin *p,
				   const struct vs_queue *queue, const struct vs_task *task)
{
	return queue_allocatable(ssn, p, queue, task->req);
}

static enum vs_vote proportion_job_enqueueable(struct vs_session *ssn, struct vs_plugin *p,
					       const struct vs_job *job)
{
	const struct proportion *prop = p->priv;
	const struct vs_proportion_queue *pq;
	struct vs_fres min, r;

	if (!job->queue)
		return VS_VOTE_ABSTAIN;
	if (job->queue->state != VS_QUEUE_OPEN) {
		vs_v(3, "Queue <%s> current state: %s, is not open state, reject job <%s/%s>.",
		     job->queue->name, vs_queue_state_name(job->queue->state), job->ns, job->name);
		vs_ssn_why(ssn, p, "queue %s is %s, not Open", job->queue->name,
			   vs_queue_state_name(job->queue->state));
		return VS_VOTE_REJECT;
	}
	if (!job->has_min_resources)
		return VS_VOTE_PERMIT;

	pq = &prop->queues[job->queue->sidx];
	vs_fres_from_res(&min, &job->min_resources);
	r = min;
	vs_fres_add(&r, &pq->allocated);
	vs_fres_add(&r, &pq->inqueue);
	vs_fres_sub(&r, &pq->elastic);
	/* only what the job's minResources names is compared */
	if (!vs_fres_exceeding_dim(&r, &pq->real_capability, &min))
		return VS_VOTE_PERMIT;
	if (vs_ssn_wants_why(ssn)) {
		char t[512], c[512];

		vs_fres_sub(&r, &min);
		vs_fres_fmt(&ssn->cl->dims, t, sizeof(t), &r);
		vs_fres_fmt(&ssn->cl->dims, c, sizeof(c), &pq->real_capability);
		vs_ssn_why(ssn, p, "queue %s: allocated and admitted <%s>, realCapability <%s>: "
			   "minResources do not fit", job->queue->name, t, c);
	}
	return VS_VOTE_REJECT;
}

static void proportion_job_enqueued(struct vs_session *ssn, struct vs_plugin *p,
				    const struct vs_job *job)
{
	struct proportion *prop = p->priv;
	u32 i = job->queue ? job->queue->sidx : 0;
	struct vs_res min;

	if (!job->has_min_resources || !job->queue || !prop->queues[i].active)
		return;
	/* its gated tasks' requests do not keep other jobs out */
	min = job->min_resources;
	vs_job_deduct_gated(job, &min);
	vs_sum_add(&prop->sums[i].inqueue, &min);
	vs_sum_to_fres(&prop->queues[i].inqueue, &prop->sums[i].inqueue);
}

/*
 * Victims are taken from a queue while what it holds, less the victims
 * already taken from it, is above its deserved.
 */
static enum vs_vote proportion_reclaimable(struct vs_session *ssn, struct vs_plugin *p,
					   const struct vs_task *evictor,
					   struct vs_task *const *cands, u32 nr, bool *keep)
{
	struct proportion *prop = p->priv;

	if (!prop->left) {
		prop->left = vs_arena_alloc(ssn->arena, (ssn->nr_queues + 1) * sizeof(*prop->left));
		prop->stamp = vs_arena_calloc(ssn->arena, ssn->nr_queues + 1,
					      sizeof(*prop->stamp));
		if (!prop->left || !prop->stamp) {
			prop->left = NULL;
			return VS_VOTE_PERMIT;	/* keeps none */
		}
	}
	prop->epoch++;
	for (u32 i = 0; i < nr; i++) {
		const struct vs_queue *queue = cands[i]->job->queue;
		const struct vs_proportion_queue *pq;
		struct vs_fres req;

		if (!queue || !prop->queues[queue->sidx].active)
			continue;
		pq = &prop->queues[queue->sidx];
		if (prop->stamp[queue->sidx] != prop->epoch) {
			prop->stamp[queue->sidx] = prop->epoch;
			prop->left[queue->sidx] = pq->allocated;
		}
		if (vs_fres_less_equal(&prop->left[queue->sidx], &pq->deserved, VS_DIM_ZERO))
			continue;
		vs_fres_from_res(&req, cands[i]->req);
		vs_fres_sub(&prop->left[queue->sidx], &req);
		keep[i] = true;
	}
	return VS_VOTE_PERMIT;
}

/* What the cycle made of every queue, kept for the metrics and vsctl top. */
static void proportion_close(struct vs_session *ssn, struct vs_plugin *p)
{
	if (ssn->inspect)
		return;
	for (u32 i = 0; i < ssn->nr_queues; i++) {
		struct vs_queue *queue = ssn->queues[i];
		const struct vs_proportion_queue *pq = vs_proportion_queue(p, queue);

		queue->seen = (struct vs_queue_seen){ .cycle = ssn->cycle };
		if (!pq)
			continue;
		queue->seen.deserved = pq->deserved;
		queue->seen.share = pq->share;
		queue->seen.overused = vs_fres_less_equal(&pq->deserved, &pq->allocated,
							  VS_DIM_ZERO);
	}
}

const struct vs_proportion_queue *vs_proportion_queue(const struct vs_plugin *p,
						      const struct vs_queue *queue)
{
	const struct proportion *prop = p->priv;

	if (!prop || queue->sidx >= prop->nr_queues)
		return NULL;
	return prop->queues[queue->sidx].active ? &prop->queues[queue->sidx] : NULL;
}

/*
 * @task's request in (@add) or out of its queue's allocated: the exact sum
 * moves, and the float attribute and the share are read from it again.
 */
static void account(struct vs_plugin *p, const struct vs_task *task, bool add)
{
	struct proportion *prop = p->priv;
	const struct vs_queue *queue = task->job->queue;
	struct vs_sum *sum;

	if (!queue || !prop->queues[queue->sidx].active)
		return;
	sum = &prop->sums[queue->sidx].allocated;
	if (add)
		vs_sum_add(sum, task->req);
	else
		vs_sum_sub(sum, task->req);
	vs_sum_to_fres(&prop->queues[queue->sidx].allocated, sum);
	update_share(&prop->queues[queue->sidx]);
}

static void proportion_on_allocate(struct vs_session *ssn, struct vs_plugin *p,
				   struct vs_task *task)
{
	account(p, task, true);
}

static void proportion_on_deallocate(struct vs_session *ssn, struct vs_plugin *p,
				     struct vs_task *task, struct vs_node *node)
{
	account(p, task, false);
}

const struct vs_plugin_ops vs_plugin_proportion = {
	.name			= "proportion",
	.open			= proportion_open,
	.close			= proportion_close,
	.queue_order		= proportion_queue_order,
	.overused		= proportion_overused,
	.allocatable		= proportion_allocatable,
	.preemptive		= queue_allocatable,
	.job_enqueueable	= proportion_job_enqueueable,
	.job_enqueued		= proportion_job_enqueued,
	.reclaimable		= proportion_reclaimable,
	.on_allocate		= proportion_on_allocate,
	.on_deallocate		= proportion_on_deallocate,
};

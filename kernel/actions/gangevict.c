// SPDX-License-Identifier: Apache-2.0
/*
 * The gang-aware eviction actions, gangpreempt and gangreclaim (Volcano's
 * actions/gangpreempt, actions/gangreclaim and actions/utils): a starving
 * job takes room for its gang, or its next sub-jobs, as a whole, within
 * one HyperNode, from whole victim bundles (actions/bundle.h).
 *
 *   1. Every job the session schedules that is not Pending and is valid
 *      puts its queue into rotation; the starving ones are the preemptors,
 *      by queue in job order. gangreclaim skips an Overused queue.
 *   2. Per preemptor, one Statement: its pending tasks (of a job not yet
 *      ready, every pending task that asks for something, its sub-jobs in
 *      worksheet order; of a ready one, those of its first sub-job with
 *      any) and what they need in all. gangreclaim asks the queue's
 *      PreemptiveFn for them at once.
 *   3. The candidate domains: the HyperNodes of the job's gradients for
 *      eviction (HyperNodeGradientForJobFn, PurposeEvict: the network-
 *      topology-aware plugin gives the highest tiers first, capped), at
 *      most maxDomains (8), or the cluster's top for a job without a hard
 *      topology when there are none.
 *   4. In each domain, the candidates on its nodes: Running or Bound
 *      (gangreclaim: Running) preemptable tasks of jobs the session has,
 *      whose PodGroup does not say volcano.sh/preemptable: false, and for
 *      gangpreempt of lower-priority jobs of the same queue, for
 *      gangreclaim of reclaimable other queues. Bundled per job, sorted,
 *      filtered by the UnifiedEvictable plugins (a whole bundle goes only
 *      if all of it may), sorted again, whole bundles dropped unless
 *      allowWholeBundle (true).
 *   5. Bundles are added in order until the domain's idle and releasing
 *      resources with the victims' cover the need; then a plan is
 *      simulated: the victims evicted, then sub-job by sub-job (in the
 *      worksheet's order) the pending tasks pipelined in the domain, or,
 *      for a job with a hard topology, in the first HyperNode of the sub-
 *      job's eviction gradients under the domain where all its tasks go;
 *      a node is chosen among those the task fits idle, else those it fits
 *      once released, by the node order. The plan holds when the job is
 *      then pipelined (a ready job: after its first sub-job). It is
 *      replayed into the preemptor's Statement; else the next bundle is
 *      added, then the next domain is tried.
 *   6. The Statement is committed when the job is pipelined, discarded
 *      otherwise. Volcano then makes each sub-job's HyperNode of the plan
 *      its NominatedHyperNode, which only an allocate later in the same
 *      session reads (its cache does not keep it), together with the
 *      tasks' nominated nodes vsched does not model: vsched logs it.
 */
#include <stdlib.h>
#include <string.h>

#include "actions/actions.h"
#include "actions/bundle.h"
#include "core/log.h"
#include "sched/fiterr.h"
#include "sched/metrics.h"
#include "sched/statement.h"
#include "sched/subjob.h"
#include "sched/topology.h"

#define DEFAULT_MAX_DOMAINS	8

/* One sub-job of the preemptor (sj NULL: the job without subGroupPolicy). */
struct sub_plan {
	struct vs_subjob *sj;
	struct vs_topo_job tj;
	bool required;
	struct vs_pqueue tasks;		/* pending tasks, task order */
	u32 hn;				/* where the plan put it, VS_TOPO_NONE: nowhere */
};

struct evict_ctx {
	struct vs_session *ssn;
	enum vs_evict_kind kind;
	s64 max_domains;
	bool allow_whole;
	struct vs_topo *topo;
	struct vs_arena *dry;		/* per preemptor, reset */
	int err;

	/* the preemptor */
	struct vs_queue *queue;
	struct vs_job *job;
	struct vs_topo_job tj;
	struct sub_plan *subs;
	u32 nr_subs;
	struct vs_pqueue order;		/* sub_plan, the worksheet's order */
	bool hard;			/* ContainsHardTopology */
	bool victims_present;		/* the plan evicts: its pipelines' EvictionOccurred */
};

static bool sub_ready(struct vs_session *ssn, const struct evict_ctx *ctx,
		      const struct sub_plan *sp)
{
	return sp->sj ? vs_ssn_subjob_ready(ssn, sp->sj) : vs_ssn_job_ready(ssn, ctx->job);
}

static bool sub_pipelined(struct vs_session *ssn, const struct evict_ctx *ctx,
			  const struct sub_plan *sp)
{
	return sp->sj ? vs_ssn_subjob_pipelined(ssn, sp->sj) :
			vs_ssn_job_pipelined(ssn, ctx->job);
}

/* The sub-jobs to place first (the fewest unready ones for minSubGroups), then sub-job order. */
static int cmp_sub_plan(struct vs_session *ssn, const void *a, const void *b)
{
	const struct sub_plan *x = a, *y = b;

	if (x->required != y->required)
		return x->required ? -1 : 1;
	if (!x->sj || !y->sj)
		return 0;
	return vs_ssn_subjob_order(ssn, x->sj, y->sj);
}

static int push_pending(struct vs_session *ssn, struct vs_pqueue *tasks, struct vs_task *task)
{
	/* as Volcano's simulation: no gated pod, no best-effort one */
	if (task->status != VS_TASK_PENDING || vs_res_is_empty(task->req) || task->gated)
		return 0;
	return vs_pq_push(tasks, task);
}

/*
 * Volcano's organizeEvictionWorksheet, into ctx (from ctx->dry): the sub-
 * jobs with pending tasks, those unready ones first that bring each group
 * to its minSubGroups. Its topology as the session sees it, too.
 */
static int organize(struct evict_ctx *ctx)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_job *job = ctx->job;
	const struct vs_subjobs *sjs = vs_subjobs_of(ssn, job);
	struct vs_topo_job *subs_tj = NULL;
	struct vs_task *task;
	u32 nr = sjs ? sjs->nr : 1;

	ctx->subs = vs_arena_calloc(ctx->dry, nr, sizeof(*ctx->subs));
	subs_tj = vs_arena_calloc(ctx->dry, nr, sizeof(*subs_tj));
	if (!ctx->subs || !subs_tj)
		return -ENOMEM;
	ctx->nr_subs = nr;
	ctx->tj.allocated = ctx->tj.sub_allocated = VS_TOPO_NONE;
	if (ctx->topo && vs_topo_job(ssn, ctx->topo, job, &ctx->tj, subs_tj))
		return -ENOMEM;
	ctx->hard = ctx->tj.hard;
	vs_pq_init(&ctx->order, ssn, ctx->dry, cmp_sub_plan);
	for (u32 i = 0; i < nr; i++) {
		struct sub_plan *sp = &ctx->subs[i];

		sp->hn = VS_TOPO_NONE;
		vs_pq_init(&sp->tasks, ssn, ctx->dry, vs_cmp_task);
		if (!sjs) {
			sp->tj = ctx->tj;
			sp->tj.allocated = ctx->tj.sub_allocated;
			list_for_each_entry(task, &job->by_status[VS_TASK_PENDING], status_node)
				if (push_pending(ssn, &sp->tasks, task))
					return -ENOMEM;
			continue;
		}
		sp->sj = &sjs->sj[i];
		sp->tj = subs_tj[i];
		ctx->hard |= sp->tj.hard;
		for (u32 t = 0; t < sp->sj->nr_tasks; t++)
			if (push_pending(ssn, &sp->tasks, sp->sj->tasks[t]))
				return -ENOMEM;
	}
	if (sjs) {
		bool *required = vs_arena_alloc(ctx->dry, nr * sizeof(*required));

		if (!required || vs_subjobs_required(ssn, ctx->dry, job, required))
			return -ENOMEM;
		for (u32 i = 0; i < nr; i++)
			ctx->subs[i].required = required[i];
	}
	for (u32 i = 0; i < nr; i++)
		if (!vs_pq_empty(&ctx->subs[i].tasks) && vs_pq_push(&ctx->order, &ctx->subs[i]))
			return -ENOMEM;
	return 0;
}

/*
 * CollectPendingTasksForGangEviction: of a job not ready, every sub-job's
 * pending tasks in worksheet order; of a ready one, its first sub-job's.
 * Into *@out (from ctx->dry); their number.
 */
static u32 collect_pending(struct evict_ctx *ctx, struct vs_task ***out)
{
	struct vs_session *ssn = ctx->ssn;
	bool ready = vs_ssn_job_ready(ssn, ctx->job);
	struct vs_pqueue order;
	struct vs_task **tasks;
	u32 n = 0, cap = 0;

	for (u32 i = 0; i < ctx->nr_subs; i++)
		cap += vs_pq_len(&ctx->subs[i].tasks);
	tasks = vs_arena_alloc(ctx->dry, (cap + 1) * sizeof(*tasks));
	if (!tasks || vs_pq_copy_into(&order, &ctx->order, ctx->dry)) {
		ctx->err = -ENOMEM;
		return 0;
	}
	while (!vs_pq_empty(&order)) {
		struct sub_plan *sp = vs_pq_pop(&order);
		struct vs_pqueue tq;

		if (vs_pq_copy_into(&tq, &sp->tasks, ctx->dry)) {
			ctx->err = -ENOMEM;
			return 0;
		}
		while (!vs_pq_empty(&tq))
			tasks[n++] = vs_pq_pop(&tq);
		if (ready && n)
			break;
	}
	*out = tasks;
	return n;
}

/* GetCandidateDomains: into *@out (HyperNode indices), their number. */
static u32 candidate_domains(struct evict_ctx *ctx, u32 **out)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_topo *topo = ctx->topo;
	struct vs_hn_gradients g;
	struct vs_hn_search s;
	struct vs_res min;
	u32 *domains, n = 0;
	bool *seen;
	int ret;

	if (ctx->job->has_min_resources)
		min = ctx->job->min_resources;
	else
		vs_res_clear(&min);
	s = (struct vs_hn_search) {
		.job = ctx->job,
		.root = topo->top,
		.hard = ctx->tj.hard,
		.highest_tier = ctx->tj.highest_tier,
		.allocated = ctx->tj.allocated,
		.min_res = &min,
		.purpose = VS_HN_EVICT,
	};
	ret = vs_ssn_hn_gradient(ssn, &s, &g);
	if (ret == -ENOMEM) {
		ctx->err = ret;
		return 0;
	}
	if (ret)
		g.nr = 0;
	domains = vs_arena_alloc(ctx->dry, (topo->nr + 1) * sizeof(*domains));
	seen = vs_arena_calloc(ctx->dry, topo->nr, sizeof(*seen));
	if (!domains || !seen) {
		ctx->err = -ENOMEM;
		return 0;
	}
	for (u32 k = 0; k < g.nr && n < (u64)ctx->max_domains; k++)
		for (u32 i = g.start[k]; i < g.start[k + 1] && n < (u64)ctx->max_domains; i++) {
			if (seen[g.hns[i]])
				continue;
			seen[g.hns[i]] = true;
			domains[n++] = g.hns[i];
		}
	if (!n && !ctx->hard)
		domains[n++] = topo->top;
	*out = domains;
	return n;
}

/* IsJobPreemptableForGangEviction */
static bool job_preemptable(const struct vs_job *job)
{
	return job->preemptable != VS_PG_PREEMPTABLE_FALSE;
}

static bool candidate(const struct evict_ctx *ctx, const struct vs_task *t)
{
	struct vs_session *ssn = ctx->ssn;
	const struct vs_job *vj = t->job;

	if (!t->preemptable || vj->sidx == VS_SIDX_NONE || !job_preemptable(vj))
		return false;
	if (ctx->kind == VS_EVICT_GANG_PREEMPT)
		return vs_task_evictable_status(t) && vj->queue == ctx->job->queue &&
		       vj != ctx->job &&
		       vs_session_job_priority(ssn, ctx->job) > vs_session_job_priority(ssn, vj);
	return t->status == VS_TASK_RUNNING && vj->queue != ctx->job->queue &&
	       vj->queue->reclaimable;
}

/* By job, then as the bundles take them. */
static int cmp_by_job(const void *a, const void *b)
{
	const struct vs_task *l = *(struct vs_task *const *)a, *r = *(struct vs_task *const *)b;

	if (l->job != r->job)
		return l->job->sidx < r->job->sidx ? -1 : 1;
	return 0;
}

/*
 * The bundles of domain @h, sorted, filtered by the plugins and sorted
 * again (selectDomainBundles). Into *@out; their number.
 */
static u32 domain_bundles(struct evict_ctx *ctx, u32 h, const struct vs_res *need,
			  struct vs_bundle **out)
{
	struct vs_session *ssn = ctx->ssn;
	const struct vs_topo_hn *hn = &ctx->topo->hns[h];
	const struct vs_queue *reclaimer = ctx->kind == VS_EVICT_GANG_RECLAIM ? ctx->queue : NULL;
	struct vs_evict_ctx ec = { ctx->kind, ctx->job, h };
	struct vs_task **cands, **allowed;
	struct vs_bundle *b;
	u32 nr = 0, nr_b = 0, nr_allowed, k, valid;
	struct vs_task *t;

	for (u32 i = 0; i < hn->nr_nodes; i++)
		nr += hn->nodes[i]->nr_tasks;
	cands = vs_arena_alloc(ctx->dry, (nr + 1) * sizeof(*cands));
	allowed = vs_arena_alloc(ctx->dry, (nr + 1) * sizeof(*allowed));
	b = vs_arena_alloc(ctx->dry, (2 * nr + 1) * sizeof(*b));
	if (!cands || !allowed || !b)
		goto nomem;
	nr = 0;
	for (u32 i = 0; i < hn->nr_nodes; i++)
		list_for_each_entry(t, &hn->nodes[i]->tasks, node_node)
			if (candidate(ctx, t))
				cands[nr++] = t;
	if (!nr)
		return 0;
	qsort(cands, nr, sizeof(*cands), cmp_by_job);
	for (u32 i = 0, j; i < nr; i = j) {
		int made;

		for (j = i + 1; j < nr && cands[j]->job == cands[i]->job; j++)
			;
		made = vs_bundles_make(ssn, ctx->dry, cands[i]->job, cands + i, j - i, b + nr_b);
		if (made < 0)
			goto nomem;
		nr_b += (u32)made;
	}
	if (vs_bundles_sort(ssn, ctx->dry, b, nr_b, need, reclaimer))
		goto nomem;

	/* the plugins' say over the candidates, in bundle order */
	nr_allowed = 0;
	for (u32 i = 0; i < nr_b; i++)
		for (u32 j = 0; j < b[i].nr; j++)
			allowed[nr_allowed++] = b[i].tasks[j];
	nr_allowed = vs_ssn_unified_evictable(ssn, &ec, allowed, nr_allowed);
	if (!nr_allowed)
		return 0;
	/* ApplyAllowedTasks: the allowed are a subsequence of the bundles' tasks */
	k = 0;
	valid = 0;
	for (u32 i = 0; i < nr_b; i++) {
		struct vs_bundle nb = b[i];
		u32 n = 0;

		nb.tasks = vs_arena_alloc(ctx->dry, b[i].nr * sizeof(*nb.tasks));
		if (!nb.tasks)
			goto nomem;
		for (u32 j = 0; j < b[i].nr; j++)
			if (k < nr_allowed && allowed[k] == b[i].tasks[j]) {
				nb.tasks[n++] = b[i].tasks[j];
				k++;
			}
		if (b[i].whole ? n != b[i].nr : !n)
			continue;
		nb.nr = n;
		if (!b[i].whole) {
			vs_res_clear(&nb.local);
			for (u32 j = 0; j < n; j++)
				vs_res_add(&nb.local, nb.tasks[j]->req);
		}
		b[valid++] = nb;
	}
	if (vs_bundles_sort(ssn, ctx->dry, b, valid, need, reclaimer))
		goto nomem;
	nr = 0;
	for (u32 i = 0; i < valid; i++)
		if (!b[i].whole || ctx->allow_whole)
			b[nr++] = b[i];
	*out = b;
	return nr;
nomem:
	ctx->err = -ENOMEM;
	return 0;
}

/*
 * prioritizeNodesForSimulate: of @fit (which @group has room for), those
 * @task fits idle, else those it fits once their releasing is gone, by the
 * node order.
 */
static struct vs_node *simulate_best(struct evict_ctx *ctx, const struct vs_task *task,
				     struct vs_node *const *fit, u32 nr, struct vs_node **group)
{
	u32 n = 0;
	double score;

	for (u32 i = 0; i < nr; i++)
		if (vs_res_less_equal(task->req, &fit[i]->idle, VS_DIM_ZERO))
			group[n++] = fit[i];
	if (!n)
		for (u32 i = 0; i < nr; i++)
			group[n++] = fit[i];	/* the predicate saw them fit FutureIdle */
	return vs_select_best_node(ctx->ssn, task, group, n, &score);
}

/*
 * runSimulateTrialAtHyperNode: @sp's tasks pipelined within HyperNode @h,
 * in a Statement of ctx->dry. NULL when one cannot go, or the sub-job is
 * then neither ready nor pipelined.
 */
static struct vs_statement *simulate_at(struct evict_ctx *ctx, struct sub_plan *sp, u32 h)
{
	struct vs_session *ssn = ctx->ssn;
	const struct vs_topo_hn *hn = &ctx->topo->hns[h];
	struct vs_statement *trial;
	struct vs_node **fit, **group;
	struct vs_pqueue tasks;

	if (!hn->nr_nodes)
		return NULL;
	trial = vs_stmt_new_in(ssn, ctx->dry);
	fit = vs_arena_alloc(ctx->dry, hn->nr_nodes * sizeof(*fit));
	group = vs_arena_alloc(ctx->dry, hn->nr_nodes * sizeof(*group));
	if (!trial || !fit || !group || vs_pq_copy_into(&tasks, &sp->tasks, ctx->dry)) {
		ctx->err = -ENOMEM;
		return NULL;
	}
	while (!vs_pq_empty(&tasks)) {
		struct vs_task *task = vs_pq_pop(&tasks);
		const u8 *refused = task->note && task->note->fit ?
				    task->note->fit->unresolvable : NULL;
		struct vs_fit_error fe = { .reason = { 0 } };
		struct vs_node *best;
		struct vs_res fi;
		u32 nr = 0;

		if (!vs_ssn_allocatable(ssn, ctx->queue, task))
			goto fail;
		if (vs_ssn_pre_predicate(ssn, task, &fe))
			goto fail;
		for (u32 i = 0; i < hn->nr_nodes; i++) {
			struct vs_node *node = hn->nodes[i];

			/* FilterOutUnschedulableAndUnresolvableNodesForTask */
			if (refused && refused[node->sidx])
				continue;
			vs_node_future_idle(node, &fi);
			if (!vs_res_less_equal(task->req, &fi, VS_DIM_ZERO))
				continue;
			if (vs_preempt_predicate(ssn, task, node, &fe))
				continue;
			fit[nr++] = node;
		}
		best = simulate_best(ctx, task, fit, nr, group);
		if (!best)
			goto fail;
		if (vs_stmt_pipeline(trial, task, best, ctx->victims_present, NULL))
			goto fail;
		vs_v(4, "Simulated pipeline of task <%s/%s> on node <%s> for job <%s/%s>",
		     task->ns, task->name, best->name, ctx->job->ns, ctx->job->name);
	}
	if (trial->nr && (sub_ready(ssn, ctx, sp) || sub_pipelined(ssn, ctx, sp)))
		return trial;
fail:
	vs_stmt_discard(trial);
	return NULL;
}

/* The sub-job's trial: in the domain, or the first HyperNode of its gradients there. */
static struct vs_statement *simulate_sub(struct evict_ctx *ctx, struct sub_plan *sp, u32 domain)
{
	struct vs_hn_gradients g;
	struct vs_hn_search s;
	struct vs_statement *trial;
	struct vs_res min;
	int ret;

	if (!ctx->hard) {
		if ((trial = simulate_at(ctx, sp, domain)))
			sp->hn = domain;
		return trial;
	}
	/* subJob.GetMinResources: what its pending tasks ask for */
	vs_res_clear(&min);
	if (sp->sj) {
		for (u32 i = 0; i < sp->sj->nr_tasks; i++)
			if (sp->sj->tasks[i]->status == VS_TASK_PENDING)
				vs_res_add(&min, sp->sj->tasks[i]->req);
	} else {
		const struct vs_task *t;

		list_for_each_entry(t, &ctx->job->by_status[VS_TASK_PENDING], status_node)
			vs_res_add(&min, t->req);
	}
	s = (struct vs_hn_search) {
		.job = ctx->job,
		.sj = sp->sj,
		.root = domain,
		.hard = sp->tj.hard,
		.highest_tier = sp->tj.highest_tier,
		.allocated = sp->tj.allocated,
		.min_res = &min,
		.purpose = VS_HN_EVICT,
	};
	ret = vs_ssn_hn_gradient(ctx->ssn, &s, &g);
	if (ret) {
		if (ret == -ENOMEM)
			ctx->err = ret;
		return NULL;
	}
	for (u32 k = 0; k < g.nr; k++)
		for (u32 i = g.start[k]; i < g.start[k + 1]; i++) {
			if ((trial = simulate_at(ctx, sp, g.hns[i]))) {
				sp->hn = g.hns[i];
				return trial;
			}
			if (ctx->err)
				return NULL;
		}
	return NULL;
}

/*
 * BuildNominationPlanInDomain: the operations that evict @victims and
 * pipeline the job's sub-jobs within @domain, into @plan, if the job is
 * then pipelined. Everything tried is undone.
 */
static bool build_plan(struct evict_ctx *ctx, u32 domain, struct vs_task *const *victims, u32 nr,
		       struct vs_stmt_log *plan)
{
	struct vs_session *ssn = ctx->ssn;
	bool was_ready = vs_ssn_job_ready(ssn, ctx->job), pipelined = false, ok = false;
	const char *reason = ctx->kind == VS_EVICT_GANG_PREEMPT ? "gangpreempt" : "gangreclaim";
	struct vs_statement **chain;
	struct vs_pqueue order;
	u32 nr_chain = 0, total = 0;

	if (!ctx->topo->hns[domain].nr_nodes || vs_pq_empty(&ctx->order))
		return false;
	chain = vs_arena_alloc(ctx->dry, (ctx->nr_subs + 1) * sizeof(*chain));
	if (!chain || vs_pq_copy_into(&order, &ctx->order, ctx->dry)) {
		ctx->err = -ENOMEM;
		return false;
	}
	for (u32 i = 0; i < ctx->nr_subs; i++)
		ctx->subs[i].hn = VS_TOPO_NONE;
	ctx->victims_present = nr;
	if (nr) {
		struct vs_statement *vstmt = vs_stmt_new_in(ssn, ctx->dry);

		if (!vstmt) {
			ctx->err = -ENOMEM;
			return false;
		}
		chain[nr_chain++] = vstmt;
		for (u32 i = 0; i < nr; i++)
			if (vs_stmt_evict(vstmt, victims[i], reason, NULL))
				goto out;
	}
	while (!vs_pq_empty(&order)) {
		struct sub_plan *sp = vs_pq_pop(&order);
		struct vs_statement *trial;

		if (vs_pq_empty(&sp->tasks))
			continue;
		trial = simulate_sub(ctx, sp, domain);
		if (!trial)
			goto out;
		chain[nr_chain++] = trial;
		pipelined = vs_ssn_job_pipelined(ssn, ctx->job);
		if (was_ready || pipelined)
			break;
	}
	if (!pipelined)
		goto out;
	/* SaveOperations of the chain */
	for (u32 i = 0; i < nr_chain; i++)
		total += chain[i]->nr;
	plan->nr = 0;
	plan->ops = vs_arena_alloc(ctx->dry, (total + 1) * sizeof(*plan->ops));
	if (!plan->ops) {
		ctx->err = -ENOMEM;
		goto out;
	}
	for (u32 i = 0; i < nr_chain; i++) {
		memcpy(plan->ops + plan->nr, chain[i]->ops, chain[i]->nr * sizeof(*plan->ops));
		plan->nr += chain[i]->nr;
	}
	ok = true;
out:
	while (nr_chain)
		vs_stmt_discard(chain[--nr_chain]);
	for (u32 i = 0; !ok && i < ctx->nr_subs; i++)
		ctx->subs[i].hn = VS_TOPO_NONE;		/* no plan: nowhere */
	return ok;
}

/* preemptJobInDomains / reclaimJobInDomains: true when a plan went into @stmt. */
static bool evict_in_domains(struct evict_ctx *ctx, struct vs_statement *stmt)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_task **pending, **victims;
	struct vs_res need;
	u32 nr, nr_domains, *domains;

	if (organize(ctx)) {
		ctx->err = -ENOMEM;
		return false;
	}
	nr = collect_pending(ctx, &pending);
	if (!nr)
		return false;
	vs_res_clear(&need);
	for (u32 i = 0; i < nr; i++)
		vs_res_add(&need, pending[i]->req);
	if (ctx->kind == VS_EVICT_GANG_RECLAIM && !vs_ssn_preemptive_req(ssn, ctx->queue, &need)) {
		vs_v(3, "Queue <%s> cannot reclaim for job <%s/%s>, skip", ctx->queue->name,
		     ctx->job->ns, ctx->job->name);
		return false;
	}
	nr_domains = candidate_domains(ctx, &domains);
	for (u32 d = 0; d < nr_domains && !ctx->err; d++) {
		const struct vs_topo_hn *hn = &ctx->topo->hns[domains[d]];
		struct vs_bundle *b;
		struct vs_res idle, avail;
		u32 nr_b, nr_victims = 0, cap = 0;

		if (!hn->nr_nodes)
			continue;
		nr_b = domain_bundles(ctx, domains[d], &need, &b);
		if (!nr_b)
			continue;
		vs_res_clear(&idle);
		for (u32 i = 0; i < hn->nr_nodes; i++) {
			vs_res_add(&idle, &hn->nodes[i]->idle);
			vs_res_add(&idle, &hn->nodes[i]->releasing);
		}
		for (u32 i = 0; i < nr_b; i++)
			cap += b[i].nr;
		victims = vs_arena_alloc(ctx->dry, cap * sizeof(*victims));
		if (!victims) {
			ctx->err = -ENOMEM;
			return false;
		}
		avail = idle;
		for (u32 i = 0; i < nr_b && !ctx->err; i++) {
			struct vs_stmt_log plan;

			for (u32 j = 0; j < b[i].nr; j++)
				victims[nr_victims++] = b[i].tasks[j];
			vs_res_add(&avail, &b[i].local);
			if (!vs_res_less_equal(&need, &avail, VS_DIM_ZERO))
				continue;
			if (!build_plan(ctx, domains[d], victims, nr_victims, &plan))
				continue;
			if (vs_stmt_recover(stmt, &plan, NULL))
				continue;
			vs_v(3, "Job <%s/%s> evicts %u tasks within hyperNode <%s>", ctx->job->ns,
			     ctx->job->name, nr_victims, hn->name);
			return true;
		}
	}
	return false;
}

struct queue_work {
	struct vs_queue *queue;
	struct vs_pqueue jobs;		/* starving jobs, job order */
};

static void parse_args(struct evict_ctx *ctx, const struct vs_args *args)
{
	ctx->max_domains = DEFAULT_MAX_DOMAINS;
	ctx->allow_whole = true;
	vs_args_get_int(args, "maxDomains", &ctx->max_domains, NULL);
	if (ctx->max_domains <= 0) {
		vs_warn("Invalid maxDomains value %lld for action %s, falling back to default %d",
			(long long)ctx->max_domains,
			ctx->kind == VS_EVICT_GANG_PREEMPT ? "gangpreempt" : "gangreclaim",
			DEFAULT_MAX_DOMAINS);
		ctx->max_domains = DEFAULT_MAX_DOMAINS;
	}
	vs_args_get_bool(args, "allowWholeBundle", &ctx->allow_whole, NULL);
}

static int gang_evict_execute(struct vs_session *ssn, const struct vs_args *args,
			      enum vs_evict_kind kind)
{
	struct evict_ctx ctx = { .ssn = ssn, .kind = kind, .dry = &ssn->sched->dry };
	struct queue_work *qw;
	struct vs_pqueue queues;

	parse_args(&ctx, args);
	ctx.topo = vs_topo_get(ssn);
	qw = vs_arena_calloc(ssn->arena, ssn->nr_queues + 1, sizeof(*qw));
	if (!ctx.topo || !qw)
		return -ENOMEM;
	vs_pq_init(&queues, ssn, ssn->arena, vs_cmp_queue);
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct vs_validate vr = { NULL, { 0 } };
		struct vs_job *job = ssn->jobs[i];
		struct queue_work *w = &qw[job->queue->sidx];

		if (job->phase == VS_PG_PENDING || !vs_ssn_job_valid(ssn, job, &vr))
			continue;
		if (!w->queue) {
			w->queue = job->queue;
			vs_pq_init(&w->jobs, ssn, ssn->arena, vs_cmp_job);
			if (vs_pq_push(&queues, job->queue))
				return -ENOMEM;
		}
		if (vs_ssn_job_starving(ssn, job) && vs_pq_push(&w->jobs, job))
			return -ENOMEM;
	}
	while (!vs_pq_empty(&queues)) {
		struct vs_queue *queue = vs_pq_pop(&queues);
		struct queue_work *w = &qw[queue->sidx];

		if (kind == VS_EVICT_GANG_RECLAIM && vs_ssn_overused(ssn, queue))
			continue;
		while (!vs_pq_empty(&w->jobs)) {
			struct vs_statement *stmt = vs_stmt_new(ssn);

			if (!stmt)
				return -ENOMEM;
			vs_arena_reset(ctx.dry);
			ctx.queue = queue;
			ctx.job = vs_pq_pop(&w->jobs);
			evict_in_domains(&ctx, stmt);
			if (ctx.err) {
				vs_stmt_discard(stmt);
				return ctx.err;
			}
			if (!vs_ssn_job_pipelined(ssn, ctx.job)) {
				vs_stmt_discard(stmt);
				continue;
			}
			if (vs_stmt_has_evictions(stmt))
				ssn->sched->metrics.eviction_transactions[
					kind == VS_EVICT_GANG_PREEMPT ? VS_EVICTION_GANG_PREEMPT :
									VS_EVICTION_GANG_RECLAIM]++;
			vs_stmt_commit(stmt);
			for (u32 i = 0; i < ctx.nr_subs; i++)
				if (ctx.subs[i].hn != VS_TOPO_NONE)
					vs_v(3, "Job <%s/%s> sub-job <%s> goes within hyperNode <%s>",
					     ctx.job->ns, ctx.job->name,
					     ctx.subs[i].sj ? ctx.subs[i].sj->uid : ctx.job->name,
					     ctx.topo->hns[ctx.subs[i].hn].name);
		}
	}
	return 0;
}

static int gangpreempt_execute(struct vs_session *ssn, const struct vs_args *args)
{
	return gang_evict_execute(ssn, args, VS_EVICT_GANG_PREEMPT);
}

static int gangreclaim_execute(struct vs_session *ssn, const struct vs_args *args)
{
	return gang_evict_execute(ssn, args, VS_EVICT_GANG_RECLAIM);
}

static int gang_evict_check_args(const struct vs_args *args, struct vs_err *err)
{
	s64 n;
	bool b;

	return vs_args_get_int(args, "maxDomains", &n, err) ?:
	       vs_args_get_bool(args, "allowWholeBundle", &b, err);
}

const struct vs_action_ops vs_action_gangpreempt = {
	.name		= "gangpreempt",
	.check_args	= gang_evict_check_args,
	.execute	= gangpreempt_execute,
};

const struct vs_action_ops vs_action_gangreclaim = {
	.name		= "gangreclaim",
	.check_args	= gang_evict_check_args,
	.execute	= gangreclaim_execute,
};

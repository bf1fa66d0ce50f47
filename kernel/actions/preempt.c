// SPDX-License-Identifier: Apache-2.0
/*
 * The preempt action (Volcano's actions/preempt, its normal path): a job
 * that starves takes what it needs from lower-priority work of its own
 * queue.
 *
 *   1. Preemptors: the jobs the session schedules that are not Pending, are
 *      valid (JobValid) and starve (JobStarving), by queue in job order,
 *      each with its pending tasks in task order.
 *   2. Queues in queue order. Between jobs: each preemptor job gets one
 *      Statement, and while it starves its next task tries to preempt tasks
 *      of the other jobs of its queue. The Statement is committed if the
 *      job is then pipelined (JobPipelined), discarded otherwise.
 *   3. Then within jobs: each starving job of the queue, in turn, tries its
 *      pending tasks one by one against the other tasks of the same job,
 *      each in its own Statement, committed when the task was placed; the
 *      first task that is not placed ends the job's turn.
 *
 * One task's attempt: a task whose preemptionPolicy is Never does not
 * preempt; PrePredicate must pass; the nodes that pass the predicates for
 * preemption (only a failure no eviction can resolve refuses a node, and
 * resources are not checked since victims are to free them), less those
 * the per-role predicate error cache remembers, are scored and tried best
 * first. On a node the candidates are its Running or Bound tasks in scope
 * that are preemptable (volcano.sh/preemptable), and only best-effort ones
 * for a best-effort preemptor. The Preemptable plugins choose the victims,
 * ValidateVictims checks that they would be enough, and they are evicted
 * lowest first (BuildVictimsPriorityQueue) until the preemptor fits: its
 * queue is Allocatable, its request fits the node's FutureIdle and every
 * predicate passes. Then it is pipelined there. One node's evictions and
 * the pipeline make a Statement of their own, merged into the caller's on
 * success and discarded otherwise, so that a node that does not work out
 * evicts nothing.
 *
 * Differences from Volcano, towards determinism: nodes are predicated in
 * creation order and equal scores keep it (Volcano starts where its last
 * search stopped and works in parallel); a node's candidates are taken in
 * creation order (Volcano walks a Go map); the starving jobs of a queue get
 * their turn within themselves in session order (Volcano: map order).
 *
 * With enableTopologyAwarePreemption, one task's attempt is Volcano's
 * topologyAwarePreempt instead: a dry run on each node that passes the
 * predicates (in order, where Volcano starts at random and runs them in
 * parallel) finds the fewest victims that let the preemptor fit, until
 * numCandidates nodes could be freed; the one whose victims have the
 * lowest priorities is chosen.
 */
#include <stdlib.h>
#include <string.h>

#include "actions/actions.h"
#include "core/log.h"
#include "sched/fiterr.h"
#include "sched/statement.h"

/* A preemptor job and the tasks it has left to try between jobs. */
struct job_work {
	struct vs_job *job;
	struct vs_pqueue tasks;		/* pending tasks, task order */
	struct job_work *next;		/* the queue's starving jobs, session order */
};

struct queue_work {
	struct vs_queue *queue;
	struct vs_pqueue jobs;		/* struct job_work, job order */
	struct job_work *starving, **tail;
};

/*
 * The predicate error cache of one role of one job (Volcano's
 * taskGroupID), kept for the whole action as Volcano's PredicateHelper is:
 * a bit per node that refused a task of the role.
 */
struct role_cache {
	struct role_cache *next;
	const char *role;		/* interned */
	u8 failed[];
};

struct scored_node {
	struct vs_node *node;
	double score;
	u32 pos;			/* predicate order: breaks ties */
};

/* Whose tasks a preemptor may take. */
enum victim_scope {
	OTHER_JOBS,			/* the other jobs of its queue */
	OWN_JOB,			/* the other tasks of its job */
};

/* A node topology-aware preemption could free, and the victims it would take. */
struct candidate {
	struct vs_node *node;
	struct vs_task **victims;	/* as reprieve left them: highest first */
	u32 nr;
};

struct preempt_ctx {
	struct vs_session *ssn;
	bool error_cache;		/* enablePredicateErrorCache, default true */
	/* enableTopologyAwarePreemption and its candidate bounds */
	bool topology_aware;
	s64 min_pct, min_abs, max_abs;
	int err;			/* -ENOMEM met on the way */
	struct queue_work *qw;		/* by queue sidx; .queue NULL when unused */
	struct role_cache **caches;	/* by job sidx */
	struct vs_node **fit;		/* nodes passing the predicates */
	double *scores;
	struct scored_node *order;
	struct vs_task **cands;		/* candidate victims on one node */
	u32 cap_cands;
	struct vs_victim_queue victims;
};

static struct role_cache *role_cache_find(struct preempt_ctx *ctx, const struct vs_task *task)
{
	struct role_cache *c;

	for (c = ctx->caches[task->job->sidx]; c; c = c->next)
		if (c->role == task->role)
			return c;
	return NULL;
}

static struct role_cache *role_cache_new(struct preempt_ctx *ctx, const struct vs_task *task)
{
	struct vs_session *ssn = ctx->ssn;
	struct role_cache *c;

	c = vs_arena_zalloc(ssn->arena, sizeof(*c) + ssn->nr_nodes / 8 + 1);
	if (!c)
		return NULL;
	c->role = task->role;
	c->next = ctx->caches[task->job->sidx];
	ctx->caches[task->job->sidx] = c;
	return c;
}

/*
 * PredicateNodes with PredicateForPreemptAction. As in Volcano, the cache
 * serves only a task that has a role: tasks without one share a group and
 * must not refuse each other's nodes. The nodes allocate found refusing the
 * task for good are left out before (FilterOutUnschedulableAndUnresolvable-
 * NodesForTask): never predicated here, they leave nothing in the cache, so
 * another task of the role may still take them.
 */
static u32 predicate_nodes(struct preempt_ctx *ctx, const struct vs_task *task)
{
	struct vs_session *ssn = ctx->ssn;
	bool use_cache = ctx->error_cache && *task->role;
	struct role_cache *cache = use_cache ? role_cache_find(ctx, task) : NULL;
	const u8 *refused = task->note && task->note->fit ? task->note->fit->unresolvable : NULL;
	u32 n = 0;

	for (u32 i = 0; i < ssn->nr_nodes; i++) {
		struct vs_fit_error fe = { .reason = { 0 } };

		if (refused && refused[i])
			continue;
		if (cache && (cache->failed[i / 8] & (1u << (i % 8))))
			continue;
		if (vs_preempt_predicate(ssn, task, ssn->nodes[i], &fe)) {
			vs_v(4, "Predicates failed for Task <%s/%s> on Node <%s>: %s",
			     task->ns, task->name, ssn->nodes[i]->name, fe.reason);
			if (use_cache && !cache)
				cache = role_cache_new(ctx, task);
			if (cache)
				cache->failed[i / 8] |= 1u << (i % 8);
			continue;
		}
		ctx->fit[n++] = ssn->nodes[i];
	}
	return n;
}

static int cmp_scored(const void *a, const void *b)
{
	const struct scored_node *l = a, *r = b;

	if (l->score != r->score)
		return l->score > r->score ? -1 : 1;
	return l->pos < r->pos ? -1 : l->pos > r->pos;
}

/* PrioritizeNodes then SortNodes: highest score first, ties in predicate order. */
static void sort_nodes(struct preempt_ctx *ctx, const struct vs_task *task, u32 nr)
{
	if (!nr)
		return;
	vs_ssn_score_nodes(ctx->ssn, task, ctx->fit, nr, ctx->scores);
	for (u32 i = 0; i < nr; i++)
		ctx->order[i] = (struct scored_node){
			.node = ctx->fit[i], .score = ctx->scores[i], .pos = i,
		};
	qsort(ctx->order, nr, sizeof(*ctx->order), cmp_scored);
}

/* The victim filter of Volcano's preempt loops. */
static bool may_take(const struct vs_task *preemptor, const struct vs_task *t,
		     enum victim_scope scope)
{
	if (!vs_task_evictable_status(t))
		return false;
	/* A best-effort task may only push out best-effort ones. */
	if (preemptor->best_effort && !t->best_effort)
		return false;
	if (!t->preemptable)
		return false;
	if (scope == OWN_JOB)
		return t->job == preemptor->job;
	return t->job->sidx != VS_SIDX_NONE && t->job->queue == preemptor->job->queue &&
	       t->job != preemptor->job;
}

/* The candidates on @node, in creation order, into ctx->cands. */
static u32 candidates(struct preempt_ctx *ctx, const struct vs_task *preemptor,
		      const struct vs_node *node, enum victim_scope scope)
{
	struct vs_task *t;
	u32 n = 0;

	if (vs_scratch_reserve(ctx->ssn, (void **)&ctx->cands, &ctx->cap_cands, node->nr_tasks,
			       sizeof(*ctx->cands))) {
		ctx->err = -ENOMEM;
		return 0;
	}
	list_for_each_entry(t, &node->tasks, node_node)
		if (may_take(preemptor, t, scope))
			ctx->cands[n++] = t;
	vs_tasks_sort_by_creation(ctx->cands, n);
	return n;
}

/*
 * Volcano's preemptorFitsOnNode: the queue may take the task, the node's
 * FutureIdle holds it, and every predicate passes (a device, for one, may
 * be free only once a given victim has gone).
 */
static bool fits_on_node(struct vs_session *ssn, const struct vs_task *task,
			 const struct vs_node *node)
{
	struct vs_fit_error fe = { .reason = { 0 } };
	struct vs_res future;

	if (!vs_ssn_allocatable(ssn, task->job->queue, task))
		return false;
	vs_node_future_idle(node, &future);
	if (!vs_res_less_equal(task->req, &future, VS_DIM_ZERO))
		return false;
	return !vs_ssn_predicate(ssn, task, node, &fe);
}

/*
 * The victims on @node that both paths start from: the candidates in
 * scope, those the Preemptable plugins choose, which ValidateVictims must
 * find enough, into ctx->victims lowest first. Their number, or -1 (the
 * node cannot be freed, or ctx->err).
 */
static int node_victims(struct preempt_ctx *ctx, const struct vs_task *preemptor,
			const struct vs_node *node, enum victim_scope scope)
{
	struct vs_session *ssn = ctx->ssn;
	u32 nr;

	nr = candidates(ctx, preemptor, node, scope);
	if (ctx->err)
		return -1;
	nr = vs_ssn_preemptable(ssn, preemptor, ctx->cands, nr);
	ssn->sched->metrics.preemption_victims = nr;
	if (!vs_victims_validate(preemptor, node, ctx->cands, nr)) {
		vs_v(3, "No validated victims on Node <%s>", node->name);
		return -1;
	}
	if (vs_victim_queue_fill(&ctx->victims, preemptor, ctx->cands, nr)) {
		ctx->err = -ENOMEM;
		return -1;
	}
	return (int)nr;
}

/*
 * Volcano's normalPreempt on one node: evict victims, lowest first, until
 * @preemptor fits, then pipeline it, all in a Statement of the node's that
 * joins @stmt on success. True when the preemptor was placed.
 */
static bool preempt_on_node(struct preempt_ctx *ctx, struct vs_statement *stmt,
			    struct vs_task *preemptor, struct vs_node *node,
			    enum victim_scope scope)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_statement *nstmt = NULL;
	struct vs_task *victim;
	bool fits;

	if (node_victims(ctx, preemptor, node, scope) < 0)
		return false;

	fits = fits_on_node(ssn, preemptor, node);
	while (!fits && (victim = vs_victim_queue_pop(&ctx->victims))) {
		if (!nstmt && !(nstmt = vs_stmt_new(ssn)))
			goto nomem;
		vs_v(3, "Try to preempt Task <%s/%s> for Task <%s/%s>", victim->ns, victim->name,
		     preemptor->ns, preemptor->name);
		if (vs_stmt_evict(nstmt, victim, "preempt", NULL))
			break;
		fits = fits_on_node(ssn, preemptor, node);
	}
	ssn->sched->metrics.preemption_attempts++;
	if (fits) {
		/* evictionOccurred: something was preempted for it */
		bool evicted = nstmt && nstmt->nr;

		if (!nstmt && !(nstmt = vs_stmt_new(ssn)))
			goto nomem;
		if (!vs_stmt_pipeline(nstmt, preemptor, node, evicted, NULL)) {
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

/*
 * Evict @victims in a dry Statement and ask whether @preemptor then fits
 * @node (Volcano's SimulateAllocatableFn, FutureIdle and
 * SimulatePredicateFn: the plugins see the victims gone through their
 * deallocate events, as Volcano's simulated state has them removed).
 * @check_res false asks the predicates alone. Everything is undone.
 */
static int fits_without(struct preempt_ctx *ctx, struct vs_task *preemptor, struct vs_node *node,
			struct vs_task *const *victims, u32 nr, bool check_res)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_fit_error fe = { .reason = { 0 } };
	struct vs_statement *dry = vs_stmt_new_in(ssn, &ssn->sched->dry);
	bool fits;

	if (!dry)
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++)
		if (vs_stmt_evict(dry, victims[i], "preempt", NULL)) {
			vs_stmt_discard(dry);
			return 0;
		}
	/*
	 * PrePredicate again, as Volcano's SimulateRemoveTaskFn updates the
	 * PreFilter state: InterPodAffinity no longer sees the victims.
	 */
	if (vs_ssn_pre_predicate(ssn, preemptor, &fe))
		fits = false;
	else
		fits = check_res ? fits_on_node(ssn, preemptor, node) :
				   !vs_ssn_predicate(ssn, preemptor, node, &fe);
	vs_stmt_discard(dry);
	return fits;
}

/*
 * Volcano's SelectVictimsOnNode: the fewest victims that let @preemptor
 * fit @node. Take them lowest first until it fits; then give back, highest
 * first, each one it still fits without. Into @c; false when the node
 * cannot be freed for it.
 */
static bool select_victims(struct preempt_ctx *ctx, struct vs_task *preemptor,
			   struct vs_node *node, enum victim_scope scope, struct candidate *c)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_task **potential, **keep, *victim;
	u32 nr_potential = 0;
	int nr, fits = 0;

	nr = node_victims(ctx, preemptor, node, scope);
	if (nr < 0)
		return false;
	potential = vs_arena_alloc(&ssn->sched->dry, ((u32)nr + 1) * sizeof(*potential));
	keep = vs_arena_alloc(&ssn->sched->dry, ((u32)nr + 1) * sizeof(*keep));
	if (!potential || !keep)
		goto nomem;
	while ((victim = vs_victim_queue_pop(&ctx->victims))) {
		potential[nr_potential++] = victim;
		fits = fits_without(ctx, preemptor, node, potential, nr_potential, true);
		if (fits < 0)
			goto nomem;
		if (fits) {
			vs_v(3, "Pod %s/%s can be scheduled on node %s after preempt %s/%s, stop "
			     "evicting more pods", preemptor->ns, preemptor->name, node->name,
			     victim->ns, victim->name);
			break;
		}
	}
	if (!nr_potential)
		return false;
	/* Volcano checks only the predicates here: ValidateVictims saw to the resources. */
	if (!fits) {
		fits = fits_without(ctx, preemptor, node, potential, nr_potential, false);
		if (fits < 0)
			goto nomem;
		if (!fits)
			return false;
	}
	/*
	 * Reprieve, highest first: each one given back for good when the
	 * preemptor fits without it and the ones still to try.
	 */
	c->node = node;
	c->victims = vs_arena_alloc(&ssn->sched->dry, nr_potential * sizeof(*c->victims));
	if (!c->victims)
		goto nomem;
	c->nr = 0;
	for (u32 i = nr_potential; i-- > 0;) {
		u32 n = 0;

		/* the victims kept so far and those below this one stay out */
		for (u32 j = 0; j < c->nr; j++)
			keep[n++] = c->victims[j];
		for (u32 j = 0; j < i; j++)
			keep[n++] = potential[j];
		fits = fits_without(ctx, preemptor, node, keep, n, true);
		if (fits < 0)
			goto nomem;
		if (!fits)
			c->victims[c->nr++] = potential[i];
	}
	return c->nr > 0;
nomem:
	ctx->err = -ENOMEM;
	return false;
}

/* Volcano's calculateNumCandidates, for @nr nodes. */
static u32 num_candidates(const struct preempt_ctx *ctx, u32 nr)
{
	s64 n = (s64)nr * ctx->min_pct / 100;

	if (n < ctx->min_abs)
		n = ctx->min_abs;
	if (n > ctx->max_abs)
		n = ctx->max_abs;
	if (n > nr)
		n = nr;
	return n > 0 ? (u32)n : 0;
}

/* The sum pickOneNodeForPreemption compares: priorities shifted to be positive. */
static s64 priority_sum(const struct candidate *c)
{
	s64 sum = 0;

	for (u32 i = 0; i < c->nr; i++)
		sum += (s64)c->victims[i]->priority + ((s64)INT32_MAX + 1);
	return sum;
}

/*
 * Volcano's SelectCandidate (pickOneNodeForPreemption): the lowest first
 * victim's priority, then the lowest sum of priorities, then the fewest
 * victims; vsched has no start times, so the first candidate of the rest.
 */
static const struct candidate *select_candidate(const struct candidate *c, u32 nr)
{
	const struct candidate *best = &c[0];

	for (u32 i = 1; i < nr; i++) {
		s32 hp = c[i].victims[0]->priority, bp = best->victims[0]->priority;
		s64 hs, bs;

		if (hp != bp) {
			if (hp < bp)
				best = &c[i];
			continue;
		}
		hs = priority_sum(&c[i]);
		bs = priority_sum(best);
		if (hs != bs) {
			if (hs < bs)
				best = &c[i];
			continue;
		}
		if (c[i].nr < best->nr)
			best = &c[i];
	}
	return best;
}

/*
 * Volcano's topologyAwarePreempt over the @nr nodes in ctx->fit: a dry
 * run on each (DryRunPreemption) until numCandidates of them could be
 * freed, the best of those chosen, its victims evicted and the preemptor
 * pipelined there in a Statement that joins @stmt. Volcano starts at a
 * random node and runs its dry runs in parallel, keeping whichever finish
 * first; vsched starts at the first and goes in order.
 */
static bool topology_preempt(struct preempt_ctx *ctx, struct vs_statement *stmt,
			     struct vs_task *preemptor, u32 nr, enum victim_scope scope)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_fit_error fe = { .reason = { 0 } };
	u32 want = num_candidates(ctx, nr), found = 0;
	const struct candidate *best;
	struct vs_statement *tmp;
	struct candidate *cands;

	if (!nr) {
		vs_v(3, "No nodes are eligible to preempt task %s/%s", preemptor->ns,
		     preemptor->name);
		return false;
	}
	vs_arena_reset(&ssn->sched->dry);
	cands = vs_arena_alloc(&ssn->sched->dry, (want + 1) * sizeof(*cands));
	if (!cands) {
		ctx->err = -ENOMEM;
		return false;
	}
	for (u32 i = 0; i < nr && found < want && !ctx->err; i++)
		if (select_victims(ctx, preemptor, ctx->fit[i], scope, &cands[found]))
			found++;
	/* the PreFilter state of the live session again, as the dry runs left none */
	if (!ctx->err && vs_ssn_pre_predicate(ssn, preemptor, &fe))
		return false;
	if (!found || ctx->err)
		return false;
	best = select_candidate(cands, found);
	tmp = vs_stmt_new(ssn);
	if (!tmp) {
		ctx->err = -ENOMEM;
		return false;
	}
	for (u32 i = 0; i < best->nr; i++) {
		vs_v(3, "Try to preempt Task <%s/%s> for Task <%s/%s>", best->victims[i]->ns,
		     best->victims[i]->name, preemptor->ns, preemptor->name);
		if (vs_stmt_evict(tmp, best->victims[i], "preempt", NULL))
			break;
	}
	ssn->sched->metrics.preemption_attempts++;
	if (!vs_stmt_pipeline(tmp, preemptor, best->node, true, NULL)) {
		if (!vs_stmt_merge(stmt, tmp))
			return true;
		ctx->err = -ENOMEM;
	} else {
		vs_error("Failed to pipeline Task <%s/%s> on Node <%s>", preemptor->ns,
			 preemptor->name, best->node->name);
	}
	vs_stmt_discard(tmp);
	return false;
}

/* Commit @stmt, counted as Volcano's eviction transactions are. */
static void commit(struct vs_session *ssn, struct vs_statement *stmt)
{
	if (vs_stmt_has_evictions(stmt))
		ssn->sched->metrics.eviction_transactions[VS_EVICTION_PREEMPT]++;
	vs_stmt_commit(stmt);
}

/*
 * Volcano's taskEligibleToPreempt: NULL, or why @preemptor may not preempt.
 * Not with preemptionPolicy Never; and a preemptor with a nominated node
 * not when that node is gone from the session or the predicates now pass
 * there (preemption means no node is schedulable), though it may when they
 * refuse it for good. vsched does not yet know which terminating pods a
 * preemption made, which Volcano checks on the nominated node last.
 */
static const char *not_eligible(struct vs_session *ssn, const struct vs_task *preemptor)
{
	const char *name = vs_task_nominated(preemptor);
	struct vs_fit_error fe = { .reason = { 0 } };
	const struct vs_node *node;

	if (preemptor->preemption_policy == VS_PREEMPT_NEVER)
		return "preemptionPolicy is Never";
	if (!name)
		return NULL;
	node = vs_node_find(ssn->cl, name);
	if (!node)
		return "the pod's nominated node is not found in the session";
	if (!vs_ssn_predicate(ssn, preemptor, node, &fe))
		return "the pod's nominated node is already schedulable";
	return NULL;
}

/* Volcano's preempt(): one preemptor, node by node, best first. */
static bool preempt_task(struct preempt_ctx *ctx, struct vs_statement *stmt,
			 struct vs_task *preemptor, enum victim_scope scope)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_fit_error fe = { .reason = { 0 } };
	const char *why = not_eligible(ssn, preemptor);
	u32 nr;

	if (why) {
		vs_v(3, "Task <%s/%s> is not eligible to preempt other tasks: %s",
		     preemptor->ns, preemptor->name, why);
		return false;
	}
	if (vs_ssn_pre_predicate(ssn, preemptor, &fe)) {
		vs_v(3, "PrePredicate for task %s/%s failed for: %s", preemptor->ns,
		     preemptor->name, fe.reason);
		return false;
	}
	nr = predicate_nodes(ctx, preemptor);
	if (ctx->topology_aware)
		return topology_preempt(ctx, stmt, preemptor, nr, scope);
	sort_nodes(ctx, preemptor, nr);
	for (u32 i = 0; i < nr && !ctx->err; i++) {
		vs_v(3, "Considering Task <%s/%s> on Node <%s>.", preemptor->ns, preemptor->name,
		     ctx->order[i].node->name);
		if (preempt_on_node(ctx, stmt, preemptor, ctx->order[i].node, scope))
			return true;
	}
	return false;
}

static int cmp_job_work(struct vs_session *ssn, const void *a, const void *b)
{
	const struct job_work *x = a, *y = b;

	return vs_ssn_job_order(ssn, x->job, y->job);
}

/* Fill @tasks with the pending tasks of @job that may preempt, in task order. */
static int pending_tasks(struct vs_session *ssn, struct vs_job *job, struct vs_pqueue *tasks)
{
	struct vs_task *task;

	vs_pq_init(tasks, ssn, ssn->arena, vs_cmp_task);
	list_for_each_entry(task, &job->by_status[VS_TASK_PENDING], status_node)
		if (!task->gated && !vs_task_backing_off(task, ssn->sched->now_ns) &&
		    vs_pq_push(tasks, task))
			return -ENOMEM;
	return 0;
}

/* Step 1: the preemptor jobs, by queue, and the queues that have some. */
static int find_preemptors(struct preempt_ctx *ctx, struct vs_pqueue *queues)
{
	struct vs_session *ssn = ctx->ssn;

	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct vs_validate vr = { NULL, { 0 } };
		struct vs_job *job = ssn->jobs[i];
		struct queue_work *qw;
		struct job_work *jw;

		if (job->phase == VS_PG_PENDING)
			continue;
		if (!vs_ssn_job_valid(ssn, job, &vr)) {
			vs_v(4, "Job <%s/%s> Queue <%s> skip preemption, reason: %s, message %s",
			     job->ns, job->name, job->queue->name, vr.reason ? vr.reason : "",
			     vr.message);
			continue;
		}
		if (!vs_ssn_job_starving(ssn, job))
			continue;

		qw = &ctx->qw[job->queue->sidx];
		if (!qw->queue) {
			qw->queue = job->queue;
			vs_pq_init(&qw->jobs, ssn, ssn->arena, cmp_job_work);
			qw->tail = &qw->starving;
		}
		jw = vs_arena_zalloc(ssn->arena, sizeof(*jw));
		if (!jw)
			return -ENOMEM;
		jw->job = job;
		if (pending_tasks(ssn, job, &jw->tasks) || vs_pq_push(&qw->jobs, jw))
			return -ENOMEM;
		*qw->tail = jw;
		qw->tail = &jw->next;
	}
	for (u32 i = 0; i < ssn->nr_queues; i++)
		if (ctx->qw[i].queue && vs_pq_push(queues, ctx->qw[i].queue))
			return -ENOMEM;
	return 0;
}

/* Step 2: the queue's preemptor jobs take from its other jobs. */
static int between_jobs(struct preempt_ctx *ctx, struct queue_work *qw)
{
	struct vs_session *ssn = ctx->ssn;

	while (!vs_pq_empty(&qw->jobs)) {
		struct job_work *jw = vs_pq_pop(&qw->jobs);
		struct vs_statement *stmt = vs_stmt_new(ssn);

		if (!stmt)
			return -ENOMEM;
		while (vs_ssn_job_starving(ssn, jw->job) && !vs_pq_empty(&jw->tasks)) {
			preempt_task(ctx, stmt, vs_pq_pop(&jw->tasks), OTHER_JOBS);
			if (ctx->err)
				return ctx->err;
		}
		if (vs_ssn_job_pipelined(ssn, jw->job))
			commit(ssn, stmt);
		else
			vs_stmt_discard(stmt);
	}
	return 0;
}

/* Step 3: each starving job of the queue, its pending tasks against its others. */
static int within_jobs(struct preempt_ctx *ctx, struct queue_work *qw)
{
	struct vs_session *ssn = ctx->ssn;

	for (struct job_work *jw = qw->starving; jw; jw = jw->next) {
		struct vs_pqueue tasks;
		struct vs_task *task;

		if (pending_tasks(ssn, jw->job, &tasks))
			return -ENOMEM;
		while ((task = vs_pq_pop(&tasks))) {
			struct vs_statement *stmt = vs_stmt_new(ssn);

			if (!stmt)
				return -ENOMEM;
			if (!preempt_task(ctx, stmt, task, OWN_JOB)) {
				vs_stmt_discard(stmt);
				if (ctx->err)
					return ctx->err;
				break;
			}
			commit(ssn, stmt);
		}
	}
	return 0;
}

static int preempt_ctx_init(struct preempt_ctx *ctx, struct vs_session *ssn,
			    const struct vs_args *args)
{
	u32 n = ssn->nr_nodes ? ssn->nr_nodes : 1;
	int ret;

	memset(ctx, 0, sizeof(*ctx));
	ctx->ssn = ssn;
	ctx->error_cache = true;
	ctx->min_pct = 10;
	ctx->min_abs = 1;
	ctx->max_abs = 100;
	ret = vs_args_get_bool(args, "enablePredicateErrorCache", &ctx->error_cache, NULL) ?:
	      vs_args_get_bool(args, "enableTopologyAwarePreemption", &ctx->topology_aware,
			       NULL) ?:
	      vs_args_get_int(args, "minCandidateNodesPercentage", &ctx->min_pct, NULL) ?:
	      vs_args_get_int(args, "minCandidateNodesAbsolute", &ctx->min_abs, NULL) ?:
	      vs_args_get_int(args, "maxCandidateNodesAbsolute", &ctx->max_abs, NULL);
	if (ret)
		return ret;
	ctx->qw = vs_arena_calloc(ssn->arena, ssn->nr_queues ? ssn->nr_queues : 1,
				  sizeof(*ctx->qw));
	ctx->caches = vs_arena_calloc(ssn->arena, ssn->nr_jobs ? ssn->nr_jobs : 1,
				      sizeof(*ctx->caches));
	ctx->fit = vs_arena_alloc(ssn->arena, n * sizeof(*ctx->fit));
	ctx->scores = vs_arena_alloc(ssn->arena, n * sizeof(*ctx->scores));
	ctx->order = vs_arena_alloc(ssn->arena, n * sizeof(*ctx->order));
	if (!ctx->qw || !ctx->caches || !ctx->fit || !ctx->scores || !ctx->order)
		return -ENOMEM;
	vs_victim_queue_init(&ctx->victims, ssn);
	return 0;
}

static int preempt_execute(struct vs_session *ssn, const struct vs_args *args)
{
	struct preempt_ctx ctx;
	struct vs_pqueue queues;
	int ret;

	ret = preempt_ctx_init(&ctx, ssn, args);
	if (ret)
		return ret;
	vs_pq_init(&queues, ssn, ssn->arena, vs_cmp_queue);
	ret = find_preemptors(&ctx, &queues);
	while (!ret && !vs_pq_empty(&queues)) {
		struct vs_queue *queue = vs_pq_pop(&queues);
		struct queue_work *qw = &ctx.qw[queue->sidx];

		ret = between_jobs(&ctx, qw);
		if (!ret)
			ret = within_jobs(&ctx, qw);
	}
	return ret;
}

/* Volcano's topology-aware preemption tuning, integers. */
static const char *const topology_ints[] = {
	"topologyAwarePreemptWorkerNum", "minCandidateNodesPercentage",
	"minCandidateNodesAbsolute", "maxCandidateNodesAbsolute",
};

static int preempt_check_args(const struct vs_args *args, struct vs_err *err)
{
	bool b = false;
	s64 i;
	int ret;

	ret = vs_args_get_bool(args, "enablePredicateErrorCache", &b, err);
	if (!ret)
		ret = vs_args_get_bool(args, "enableTopologyAwarePreemption", &b, err);
	for (size_t k = 0; !ret && k < ARRAY_SIZE(topology_ints); k++)
		ret = vs_args_get_int(args, topology_ints[k], &i, err);
	return ret;
}

const struct vs_action_ops vs_action_preempt = {
	.name		= "preempt",
	.check_args	= preempt_check_args,
	.execute	= preempt_execute,
};

// SPDX-License-Identifier: Apache-2.0
/*
 * The allocate action (Volcano's actions/allocate, seed 002). For jobs
 * without a hard network topology (those go HyperNode by HyperNode, see
 * allocate_for_job() and Documentation/scheduling.md, "Network topology"):
 *
 *   1. Every job the session sees that is admitted (Inqueue, or Pending when
 *      no enqueue action runs), valid (JobValid) and has pending tasks that
 *      request something gets a worksheet: its pending tasks in task order.
 *   2. Queues rotate in queue order. An Overused queue is skipped; otherwise
 *      its first job (job order) is tried, task by task: Allocatable, the
 *      per-role predicate error cache, PrePredicate, then every node is
 *      predicated (the request must fit FutureIdle, then the Predicate
 *      plugins), the survivors are split into those whose Idle fits and those
 *      whose FutureIdle fits, and the first non-empty group is scored; the
 *      task is allocated (Idle) or pipelined (FutureIdle) in the job's
 *      Statement. It stops as soon as the job is ready.
 *   3. A ready job's Statement is committed (binds go out) and the job goes
 *      back in rotation if tasks remain. A pipelined job's Statement is kept
 *      open and vanishes with the session; any other is discarded.
 *
 * Differences from Volcano, all in the direction of determinism: every node
 * is predicated, in creation order (Volcano stops after a percentage of
 * nodes in large clusters, starts where the last search stopped, and works
 * in parallel), and equal scores go to the node listed first (Volcano picks
 * one at random).
 *
 * "Every node is predicated" is what the decisions are; how they are
 * reached is the fast path's business when a score depends on the node
 * alone: a node index per task template (sched/nodeindex.h) finds, in
 * O(log n), the node that predicating and scoring every node would choose
 * (Documentation/scheduling.md, "The fast path, and exhaustive mode").
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "actions/actions.h"
#include "core/log.h"
#include "sched/explain.h"
#include "sched/fastpath.h"
#include "sched/fiterr.h"
#include "sched/nodeindex.h"
#include "sched/pqueue.h"
#include "sched/statement.h"
#include "sched/subjob.h"
#include "sched/topology.h"

/*
 * The distinct reasons nodes refused tasks of the job being tried, so that
 * the error cache can name a node's reason in one byte. Reason 255 stands
 * for any after the 254th (a detail lost in the message, nothing else).
 */
#define REASONS_MAX	254
/*
 * In a role's error cache: a node the fast path marked (vs_ssn_mark_refused())
 * without asking the predicates; its words are found when a scan reads it.
 */
#define CACHE_MARK	255
#define REASON_OTHER	"node(s) failed a predicate"

struct reasons {
	char (*text)[sizeof(((struct vs_fit_error *)0)->reason)];
	u32 nr, cap;
	u32 count[REASONS_MAX + 1];	/* this task's histogram, by reason */
	bool unresolvable[REASONS_MAX + 1];	/* by reason: no eviction resolves it */
	u8 *refused;			/* this task's scan: a byte per node, unresolvable */
	bool any_refused;
	u8 last;			/* the id reason_id() gave last, 0 before any */
};

/*
 * A sub-job's part of its job's worksheet (Volcano's SubJobWorksheet),
 * and the sub-job's AllocatedHyperNode as allocate tries placements.
 */
struct sub_ws {
	struct vs_subjob *sj;		/* NULL: the job's only one (no subGroupPolicy) */
	u32 idx;			/* in its job_ws's subs */
	bool required;			/* of the fewest that make the job's minSubGroups */
	struct vs_pqueue tasks;		/* pending tasks, task order */
	/* its network topology; tj.allocated is its AllocatedHyperNode as tried */
	struct vs_topo_job tj;
	u32 decision;			/* SaveSubJobDecision, in the job's HyperNode tried */
};

/* A role whose task got a fit error (job.NodesFitErrors), in its sub-job. */
struct failed_role {
	const char *role;
	const struct sub_ws *sub;
};

/* What allocate tracks for a job during one run. */
struct job_ws {
	struct vs_job *job;
	struct vs_job_trace *trace;	/* how far it got, for vsctl explain; may be NULL */
	struct sub_ws *subs;		/* one, sj NULL, for a job without subGroupPolicy */
	u32 nr_subs;
	struct vs_pqueue order;		/* the sub-jobs with tasks to place, in sub-job order */
	struct failed_role *failed_roles;	/* this session's, until reset */
	u32 nr_failed_roles, cap_failed_roles;
	struct vs_topo_job tj;		/* its network topology, as this session sees it */
};

struct queue_ws {
	struct vs_queue *queue;
	struct vs_pqueue jobs;		/* struct job_ws, job order */
	char *refused;			/* the words of its first Allocatable refusal... */
	const char *refused_by;		/* ...and the plugin's name */
};

struct alloc_ctx {
	struct vs_session *ssn;
	bool error_cache;		/* enablePredicateErrorCache, default true */
	/*
	 * exhaustive, default false: predicate and score every node for every
	 * task, as Volcano does; the oracle the node indexes must agree with
	 * (Documentation/scheduling.md, "The fast path").
	 */
	bool exhaustive;
	struct vs_node **nodes;		/* the nodes tried: every one, or a HyperNode's */
	u32 nr_nodes;
	struct vs_topo *topo;		/* when a job has a network topology */
	struct vs_arena *dry;		/* the dry runs' copies, reset per job (sched->dry) */
	struct vs_arena *stmt_arena;	/* where statements come from: dry within dry runs */
	u32 hn;				/* the HyperNode whose nodes are tried, or VS_TOPO_NONE */
	struct vs_node **fit;		/* scratch: nodes that pass the predicates */
	struct vs_node **idle, **future;
	struct queue_ws *qws;		/* by queue sidx; .queue NULL when unused */
	struct reasons reasons;		/* heap, reused from job to job */
	/* per role of the job being tried: 0, or the reason a node failed before */
	struct vs_fp_role_cache *caches;	/* heap, reused from job to job */
	u32 nr_caches, cap_caches;
	struct vs_fit_error marked_why;	/* the words of the CACHE_MARK nodes */

	/*
	 * The fast path (see fast_possible()): off in exhaustive mode. Its
	 * templates and indexes, and the scratch above that is not the
	 * session arena's, are the scheduler's: they outlive the session.
	 */
	bool fast, fast_decided;
	/*
	 * The last BatchNodeOrder plugin is added node by node: the indexes
	 * order by the other scores, and a search goes on while a node's
	 * index score plus split_bound could still beat or tie the best.
	 */
	bool split;
	double split_bound;		/* for the task being placed */
	/*
	 * The layout's group holding exactly the nodes of the HyperNode a
	 * dry run tries (a lowest one), or VS_TOPO_NONE: then the tasks of
	 * a job with a topology may be served from its range.
	 */
	u32 leaf_group;
	/*
	 * By group of the indexes' layout (fp->groups), for the task being
	 * placed: the best score a node of it may have (its best index score
	 * plus its split score, exact for a pure group, else the bound), and
	 * that split score or bound.
	 */
	double *group_ub, *group_split;
	struct vs_fastpath *fp;
	u32 cache_bytes;		/* the size of each caches[].failed */
};

/* The number (1..255) of @reason in the job's table. */
static u8 reason_id(struct reasons *rs, const struct vs_fit_error *fe)
{
	const char *reason = fe->reason;

	/* a scan's nodes mostly fail as the one before did */
	if (rs->last && !strcmp(rs->text[rs->last - 1], reason))
		return rs->last;
	for (u32 i = 0; i < rs->nr; i++)
		if (!strcmp(rs->text[i], reason))
			return rs->last = (u8)(i + 1);
	if (rs->nr == REASONS_MAX - 1)
		return REASONS_MAX;
	if (rs->nr == rs->cap) {
		u32 cap = rs->cap ? 2 * rs->cap : 8;
		void *t = realloc(rs->text, cap * sizeof(*rs->text));

		if (!t)
			return REASONS_MAX;
		rs->text = t;
		rs->cap = cap;
	}
	snprintf(rs->text[rs->nr], sizeof(rs->text[0]), "%s", reason);
	/* a reason's words say whether eviction could resolve it */
	rs->unresolvable[rs->nr + 1] = fe->unresolvable;
	return rs->last = (u8)++rs->nr;
}

/*
 * job.NodesFitErrors[task]: the histogram of this task's predicate run, or
 * every node refusing with @reason (PrePredicate), or @msg alone.
 */
static void record_fit_errors(struct alloc_ctx *ctx, struct vs_task *task, const char *reason,
			      const char *msg)
{
	struct vs_session *ssn = ctx->ssn;
	struct reasons *rs = &ctx->reasons;
	struct vs_fit_errors *fe = vs_fit_errors_new(ssn);

	if (!fe)
		return;
	if (msg) {
		vs_fit_errors_set_error(ssn, fe, msg);
	} else if (reason) {
		fe->pre_predicate = true;
		for (u32 i = 0; i < ctx->nr_nodes; i++)
			vs_fit_errors_add(ssn, fe, reason);
	} else {
		/* SetHyperNode: the nodes that refused are a HyperNode's */
		if (ctx->hn != VS_TOPO_NONE && ctx->hn != ctx->topo->top)
			fe->hypernode = ctx->topo->hns[ctx->hn].name;
		for (u32 id = 1; id <= REASONS_MAX; id++)
			for (u32 c = rs->count[id]; c; c--)
				vs_fit_errors_add(ssn, fe,
						  id <= rs->nr ? rs->text[id - 1] : REASON_OTHER);
		if (rs->any_refused) {
			fe->unresolvable = vs_arena_alloc(ssn->arena, ssn->nr_nodes);
			if (fe->unresolvable)
				memcpy(fe->unresolvable, rs->refused, ssn->nr_nodes);
		}
	}
	vs_session_set_fit_errors(ssn, task, fe);
}

static int cmp_job_ws(struct vs_session *ssn, const void *a, const void *b)
{
	const struct job_ws *x = a, *y = b;

	return vs_ssn_job_order(ssn, x->job, y->job);
}

/* Volcano's FitFailedRoles(subJob) holds @role. */
static bool role_failed(const struct job_ws *jw, const struct sub_ws *sub, const char *role)
{
	for (u32 i = 0; i < jw->nr_failed_roles; i++)
		if (jw->failed_roles[i].role == role && jw->failed_roles[i].sub == sub)
			return true;
	return false;
}

/* A task of @role got a fit error: remember the role (job.NodesFitErrors). */
static void mark_role_failed(struct alloc_ctx *ctx, struct job_ws *jw, const struct sub_ws *sub,
			     const char *role)
{
	if (role_failed(jw, sub, role))
		return;
	if (jw->nr_failed_roles == jw->cap_failed_roles) {
		u32 cap = jw->cap_failed_roles ? jw->cap_failed_roles * 2 : 4;
		struct failed_role *r = vs_arena_alloc(ctx->ssn->arena, cap * sizeof(*r));

		if (!r)
			return;
		if (jw->nr_failed_roles)
			memcpy(r, jw->failed_roles, jw->nr_failed_roles * sizeof(*r));
		jw->failed_roles = r;
		jw->cap_failed_roles = cap;
	}
	jw->failed_roles[jw->nr_failed_roles++] = (struct failed_role) { role, sub };
}

/* ResetSubJobFitErr: forget @sub's failed roles (ResetFitErr: set nr_failed_roles to 0). */
static void reset_sub_fit_errors(struct job_ws *jw, const struct sub_ws *sub)
{
	u32 n = 0;

	for (u32 i = 0; i < jw->nr_failed_roles; i++)
		if (jw->failed_roles[i].sub != sub)
			jw->failed_roles[n++] = jw->failed_roles[i];
	jw->nr_failed_roles = n;
}

/* SubJobReady and SubJobPipelined: a job without subGroupPolicy is its only sub-job. */
static bool sub_ready(struct vs_session *ssn, const struct job_ws *jw, const struct sub_ws *sub)
{
	return sub->sj ? vs_ssn_subjob_ready(ssn, sub->sj) : vs_ssn_job_ready(ssn, jw->job);
}

static bool sub_pipelined(struct vs_session *ssn, const struct job_ws *jw,
			  const struct sub_ws *sub)
{
	return sub->sj ? vs_ssn_subjob_pipelined(ssn, sub->sj) : vs_ssn_job_pipelined(ssn, jw->job);
}

/* Volcano's getJobAllocatedRoles count for one role. */
static u32 allocated_of_role(const struct vs_job *job, const char *role)
{
	const struct vs_task *t;
	u32 n = 0;

	list_for_each_entry(t, &job->tasks, job_node) {
		if (t->role != role)
			continue;
		if (vs_task_status_allocated(t->status) || t->status == VS_TASK_SUCCEEDED ||
		    (t->status == VS_TASK_PENDING && vs_res_is_empty(t->req)))
			n++;
	}
	return n;
}

/*
 * Volcano's NeedContinueAllocating: after a task found no node, may the job
 * still become ready with the tasks of the other roles?
 */
static bool need_continue(const struct job_ws *jw, const struct sub_ws *sub, u64 now_ns)
{
	const struct vs_job *job = jw->job;
	u64 total_min = 0;

	if (job->min_member == job->nr_tasks)
		return false;
	/*
	 * A sub-job that needs every task it has; Volcano's default sub-job
	 * of a job without subGroupPolicy is the job itself (v1.10.0, which
	 * the oracle links, has none: only the line above).
	 */
	if (sub->sj && sub->sj->min_available >= sub->sj->nr_tasks)
		return false;
	if (job->nr_subgroups)
		return true;	/* Volcano: not yet for jobs with sub-jobs */
	for (u32 i = 0; i < job->nr_min_task_member; i++)
		total_min += job->min_task_member[i].min;

	if (job->min_member < total_min) {
		const struct vs_task *t;
		u32 left = 0;

		list_for_each_entry(t, &job->by_status[VS_TASK_PENDING], status_node)
			if (!role_failed(jw, sub, t->role) &&
			    !vs_task_backing_off(t, now_ns))
				left++;
		return vs_job_ready_num(job) + left >= job->min_member;
	}
	for (u32 i = 0; i < jw->nr_failed_roles; i++) {
		u32 min = vs_job_role_min(job, jw->failed_roles[i].role);

		if (min && allocated_of_role(job, jw->failed_roles[i].role) < min)
			return false;
	}
	return true;
}

/*
 * Whether the indexes may serve @task: its scores depend on the node alone,
 * and its predicates on the node, or on pods elsewhere only as
 * fast_accept() asks them node by node. Not with node affinity (preferred
 * terms score per candidate set; a template leaves required ones out),
 * preferred pod terms (InterPodAffinity scores by what runs elsewhere), or
 * ScheduleAnyway spread constraints (PodTopologySpread scores by the pods
 * of every domain). DoNotSchedule ones only filter: the skew that refuses
 * a node to one task of a role may admit it to the next, which the role's
 * error cache still refuses, so before each search the nodes over the skew
 * are marked in the cache (fast_best()).
 */
static bool index_serves(const struct vs_task *task)
{
	const struct vs_spread_constraints *sc = vs_task_spread(task);
	const struct vs_affinity *a = task->affinity;

	for (u32 i = 0; sc && i < sc->nr; i++)
		if (sc->c[i].when != VS_SPREAD_DO_NOT_SCHEDULE)
			return false;
	return !a || (!a->node_affinity && !(a->pod_affinity && a->pod_affinity->nr_preferred) &&
		      !(a->pod_anti_affinity && a->pod_anti_affinity->nr_preferred));
}

static bool same_pod_terms(const struct vs_task *a, const struct vs_task *b)
{
	const struct vs_affinity *x = a->affinity, *y = b->affinity;

	return vs_pod_affinity_equal(x ? x->pod_affinity : NULL, y ? y->pod_affinity : NULL) &&
	       vs_pod_affinity_equal(x ? x->pod_anti_affinity : NULL,
				     y ? y->pod_anti_affinity : NULL);
}

/*
 * Whether @role's error cache can refuse a task a node it would pass itself:
 * the cache holds every node that refused a task of the role in this attempt
 * at the job, and the next task skips them. When the role's pending tasks
 * are all of one template (host ports included), with the same labels,
 * the same required pod terms and spread constraints, and the index may
 * serve them (index_serves()), a node that refused one refuses the next:
 * while a job is tried, a node's Idle and FutureIdle only shrink, pods only
 * arrive (an anti-affinity that refused still does), and a required pod
 * affinity, once some pod satisfies it, admits only the domains of the pods
 * that do, which the next tasks of the role can only join. So the cache
 * changes nothing there and the fast path may serve; what a spread's skew
 * refused, which may not refuse the next task, the fast path marks in the
 * cache itself (fast_best()). Otherwise only the scan, run for every task
 * of the role, decides as Volcano does.
 */
static bool role_mixed(const struct vs_job *job, const char *role)
{
	const struct vs_task *t, *first = NULL;

	list_for_each_entry(t, &job->by_status[VS_TASK_PENDING], status_node) {
		if (t->role != role || t->best_effort || t->gated)
			continue;
		if (!index_serves(t))
			return true;
		if (!first)
			first = t;
		else if (!vs_fastpath_same_tmpl(first, t) || !vs_labels_equal(first->labels, t->labels) ||
			 !same_pod_terms(first, t) ||
			 !vs_spread_constraints_equal(vs_task_spread(first), vs_task_spread(t)))
			return true;
	}
	return false;
}

/*
 * The cache of @role for the job being tried. The caches are reused from
 * job to job (not reallocated): a session tries many jobs, and each cache is
 * a byte per node, cleared only when a scan is about to read it
 * (predicate_nodes()): the tasks the fast path places never touch it.
 */
static struct vs_fp_role_cache *role_cache_get(struct alloc_ctx *ctx, const struct vs_job *job,
					       const char *role)
{
	struct vs_fp_role_cache *c;

	for (u32 i = 0; i < ctx->nr_caches; i++)
		if (ctx->caches[i].role == role)
			return &ctx->caches[i];
	if (ctx->nr_caches == ctx->cap_caches) {
		u32 cap = ctx->cap_caches ? 2 * ctx->cap_caches : 4;
		struct vs_fp_role_cache *caches = realloc(ctx->caches, cap * sizeof(*caches));

		if (!caches)
			return NULL;
		memset(caches + ctx->cap_caches, 0, (cap - ctx->cap_caches) * sizeof(*caches));
		ctx->caches = caches;
		ctx->cap_caches = cap;
	}
	c = &ctx->caches[ctx->nr_caches];
	if (!c->failed && !(c->failed = malloc(ctx->cache_bytes)))
		return NULL;
	c->stale = true;
	c->role = role;
	c->epoch = ++ctx->fp->epochs ? ctx->fp->epochs : ++ctx->fp->epochs;
	c->mixed = ctx->error_cache && *role && role_mixed(job, role);
	ctx->nr_caches++;
	return c;
}

/* The nodes @task passes the predicates on, into ctx->fit; their number. */
/* The role's error cache, ready to read, or NULL when the task goes without one. */
static struct vs_fp_role_cache *cache_read(struct alloc_ctx *ctx, const struct vs_task *task,
					   struct vs_fp_role_cache *cache)
{
	if (!ctx->error_cache || !cache || !*task->role)
		return NULL;
	if (cache->stale) {
		memset(cache->failed, 0, ctx->nr_nodes);
		cache->stale = false;
	}
	return cache;
}

static u32 predicate_nodes(struct alloc_ctx *ctx, const struct vs_task *task,
			   struct vs_fp_role_cache *cache)
{
	struct reasons *rs = &ctx->reasons;
	bool use_cache;
	u32 n = 0;

	cache = cache_read(ctx, task, cache);
	use_cache = cache;
	memset(rs->count, 0, sizeof(rs->count));
	if (rs->refused)
		memset(rs->refused, 0, ctx->ssn->nr_nodes);
	rs->any_refused = false;
	for (u32 i = 0; i < ctx->nr_nodes; i++) {
		struct vs_fit_error fe = { .reason = { 0 } };
		u8 id;

		if (use_cache && cache->failed[i] == CACHE_MARK) {
			/*
			 * Refused by the skew at an earlier task: its words are
			 * those a predicate before the spread's gives now
			 * (the node took nothing since), else the spread's.
			 */
			id = reason_id(rs, vs_allocate_predicate(ctx->ssn, task, ctx->nodes[i], &fe) ?
					   &fe : &ctx->marked_why);
			cache->failed[i] = id;
		} else if (use_cache && cache->failed[i]) {
			id = cache->failed[i];	/* the error it gave before */
		} else if (vs_allocate_predicate(ctx->ssn, task, ctx->nodes[i], &fe)) {
			id = reason_id(rs, &fe);
			if (use_cache)
				cache->failed[i] = id;
		} else {
			ctx->fit[n++] = ctx->nodes[i];
			continue;
		}
		rs->count[id]++;
		if (rs->refused && rs->unresolvable[id]) {
			rs->refused[ctx->nodes[i]->sidx] = 1;
			rs->any_refused = true;
		}
	}
	return n;
}


/* Where @node is in ctx->nodes, or UINT32_MAX when this attempt has it not. */
static u32 node_pos(const struct alloc_ctx *ctx, const struct vs_node *node)
{
	if (ctx->nodes == ctx->ssn->nodes)
		return node->sidx < ctx->nr_nodes && ctx->nodes[node->sidx] == node ?
		       node->sidx : UINT32_MAX;
	for (u32 i = 0; i < ctx->nr_nodes; i++)
		if (ctx->nodes[i] == node)
			return i;
	return UINT32_MAX;
}

/*
 * The node a preemption nominated for @task (status.nominatedNodeName), when
 * it will do: Volcano's allocate tries it first, alone, when it is among
 * this attempt's nodes and its FutureIdle holds the task, through the
 * predicates and the role's error cache as PredicateNodes runs them (a node
 * the cache holds is not tried; one the predicates refuse joins it). NULL:
 * the search of every node decides.
 */
static struct vs_node *nominated_node(struct alloc_ctx *ctx, const struct vs_task *task,
				      struct vs_fp_role_cache *cache)
{
	const char *name = vs_task_nominated(task);
	struct vs_fit_error fe = { .reason = { 0 } };
	struct vs_node *node;
	struct vs_res future;
	u32 i;

	if (!name)
		return NULL;
	node = vs_node_find(ctx->ssn->cl, name);
	if (!node || (i = node_pos(ctx, node)) == UINT32_MAX)
		return NULL;
	vs_node_future_idle(node, &future);
	if (!vs_res_less_equal(task->req, &future, VS_DIM_ZERO))
		return NULL;
	cache = cache_read(ctx, task, cache);
	if (cache && cache->failed[i])
		return NULL;
	if (vs_allocate_predicate(ctx->ssn, task, node, &fe)) {
		if (cache)
			cache->failed[i] = reason_id(&ctx->reasons, &fe);
		return NULL;
	}
	return node;
}

/* The Idle gradient first, then FutureIdle: the best node of the first that has any. */
static struct vs_node *prioritize(struct alloc_ctx *ctx, const struct vs_task *task, u32 nr_fit)
{
	u32 ni = 0, nf = 0;
	double score;

	for (u32 i = 0; i < nr_fit; i++) {
		struct vs_node *node = ctx->fit[i];
		struct vs_res future;

		if (vs_res_less_equal(task->req, &node->idle, VS_DIM_ZERO)) {
			ctx->idle[ni++] = node;
			continue;
		}
		vs_node_future_idle(node, &future);
		if (vs_res_less_equal(task->req, &future, VS_DIM_ZERO))
			ctx->future[nf++] = node;
	}
	if (ni)
		return vs_select_best_node(ctx->ssn, task, ctx->idle, ni, &score);
	return vs_select_best_node(ctx->ssn, task, ctx->future, nf, &score);
}

/* ---- the fast path ---- */

/*
 * Whether a task's score on a node can depend on that node alone in this
 * session, for the tasks fast_task() lets through, and its predicates
 * change only where a node's accounting changes or by what fast_accept()
 * tests on each node: the only plugins that score are nodeorder and
 * binpack, and last a plugin whose scores can be split
 * (network-topology-aware: by the node's HyperNodes, for the tasks its
 * split_begin() takes), and the only one that predicates is predicates
 * (none chooses the best node itself); no node has a PreferNoSchedule
 * taint (TaintToleration's scores would be normalised over the
 * candidates); no task has preferred pod affinity or anti-affinity terms
 * (InterPodAffinity would score by what runs elsewhere, for a task with
 * them and for every task they may pick). Required terms only filter:
 * fast_accept() asks the predicates about each node the index offers.
 */
static bool fast_possible(const struct vs_session *ssn)
{
	static const enum vs_ext scoring[] = { VS_EXT_NODE_ORDER, VS_EXT_BATCH_NODE_ORDER };
	const struct vs_plugin *split = vs_ssn_split_plugin(ssn);
	const struct vs_ext_list *l;

	for (unsigned int e = 0; e < ARRAY_SIZE(scoring); e++) {
		l = &ssn->ext[scoring[e]];
		for (u32 i = 0; i < l->nr; i++)
			if (strcmp(l->p[i]->ops->name, "nodeorder") &&
			    strcmp(l->p[i]->ops->name, "binpack") &&
			    (scoring[e] != VS_EXT_BATCH_NODE_ORDER || l->p[i] != split))
				return false;
	}
	l = &ssn->ext[VS_EXT_PREDICATE];
	for (u32 i = 0; i < l->nr; i++)
		if (strcmp(l->p[i]->ops->name, "predicates"))
			return false;
	if (ssn->ext[VS_EXT_BEST_NODE].nr)
		return false;
	/* The cluster counts them as objects come and go. */
	return !ssn->cl->nr_prefer_no_schedule_nodes && !ssn->cl->nr_pod_preferred_tasks;
}

static bool fast_on(struct alloc_ctx *ctx);

/*
 * A task the indexes may serve: one the split plugin scores node by node
 * (fast_task()) and index_serves() admits. A task with host ports is
 * served too: fast_accept() runs every predicate on the node the index
 * offers, and a node whose port is held leaves the index of the task's
 * template (the ports are part of it) until its pods change.
 */
static bool fast_task(struct alloc_ctx *ctx, const struct vs_task *task)
{
	if (!index_serves(task) || !fast_on(ctx))
		return false;
	return !ctx->split || vs_ssn_split_begin(ctx->ssn, task, ctx->leaf_group != VS_TOPO_NONE,
						 &ctx->split_bound);
}

/*
 * The group of the indexes' layout whose nodes are those of HyperNode @h
 * (a lowest HyperNode whose nodes are under no other lowest one), or
 * VS_TOPO_NONE.
 */
static u32 leaf_group(struct alloc_ctx *ctx, u32 h)
{
	const struct vs_fastpath *fp = ctx->fp;
	u32 g;

	if (h == VS_TOPO_NONE || h == ctx->topo->top || !fast_on(ctx) || !ctx->split ||
	    !fp->group_of_hn)
		return VS_TOPO_NONE;
	g = fp->group_of_hn[h];
	if (g == VS_TOPO_NONE || fp->groups[g].hi - fp->groups[g].lo != ctx->topo->hns[h].nr_nodes)
		return VS_TOPO_NONE;
	return g;
}

struct fast_search {
	struct alloc_ctx *ctx;
	const struct vs_task *task;
	bool idle;			/* the Idle gradient, else FutureIdle */
	struct vs_nidx *ix;
	const u8 *cached;		/* the role's error cache, by sidx, or NULL */
	/*
	 * split: the group searched (NULL: the whole index), the bound of its
	 * nodes (exact when the group is pure: every node has that split
	 * score), the best node met and its whole score
	 */
	const struct vs_fp_group *grp;
	double bound;
	struct vs_node *best;
	double best_score;
};

/*
 * The exact test of a node the index's maxima let through: the fit of the
 * gradient, then allocate's predicates. A node that fails them fails every
 * task of the template until its accounting changes: it leaves the index.
 * So does a node whose FutureIdle does not hold the task either (it is in
 * neither gradient), where a full node would otherwise be passed over by
 * every search of the Idle gradient.
 */
static enum vs_nidx_verdict fast_accept(void *arg, struct vs_node *node)
{
	struct fast_search *fs = arg;
	struct vs_fit_error fe = { .reason = { 0 } };

	if (fs->idle && !vs_res_less_equal(fs->task->req, &node->idle, VS_DIM_ZERO)) {
		struct vs_res buf;

		if (!vs_res_less_equal(fs->task->req, vs_node_future_idle_of(node, &buf),
				       VS_DIM_ZERO))
			return VS_NIDX_DROP;
		return VS_NIDX_SKIP;	/* it may serve the FutureIdle gradient */
	}
	/*
	 * A refusal by pods elsewhere, or by the role's error cache, is the
	 * task's, not the template's, and may not last: the node stays for
	 * the next search.
	 */
	if (fs->cached && fs->cached[node->sidx]) {
		fs->ctx->ssn->sched->stats.fast_elsewhere++;
		return VS_NIDX_SKIP;
	}
	if (!vs_allocate_predicate(fs->ctx->ssn, fs->task, node, &fe))
		return VS_NIDX_TAKE;
	if (!fe.elsewhere)
		return VS_NIDX_DROP;
	fs->ctx->ssn->sched->stats.fast_elsewhere++;
	return VS_NIDX_SKIP;
}

/*
 * With a split plugin: the nodes come in the order of the other plugins'
 * scores; each that will do is scored whole (its index score plus the
 * split plugin's, the same sum the scan makes) and the best kept, ties to
 * the node first in session order. Once a node's index score plus the
 * bound falls below the best, no node after it can reach it: the search
 * ends (TAKE; the caller takes fs->best). With an exact bound (every
 * node has that split score) the nodes of the same index score as the
 * first taken come after it in session order, and lose to it; one of a
 * lower index score ties only if its sum rounds to the same: when the
 * next lower score in the range cannot, the first taken is the best.
 */
static enum vs_nidx_verdict split_accept(void *arg, struct vs_node *node)
{
	struct fast_search *fs = arg;
	bool exact = fs->grp && fs->grp->pure;
	double index_score = vs_nidx_score(fs->ix, node), score;
	enum vs_nidx_verdict v;

	if (fs->best && index_score + fs->bound < fs->best_score)
		return VS_NIDX_TAKE;
	v = fast_accept(arg, node);
	if (v != VS_NIDX_TAKE)
		return v;
	score = index_score + (exact ? fs->bound : vs_ssn_split_score(fs->ctx->ssn, fs->task, node));
	if (!fs->best || score > fs->best_score ||
	    (score == fs->best_score && node->sidx < fs->best->sidx)) {
		fs->best = node;
		fs->best_score = score;
	}
	if (exact && fs->best == node) {
		double lower;

		if (nextafter(index_score, -HUGE_VAL) + fs->bound < fs->best_score ||
		    !vs_nidx_best_below(fs->ix, fs->grp->lo, fs->grp->hi, index_score, &lower) ||
		    lower + fs->bound < fs->best_score)
			return VS_NIDX_TAKE;
	}
	return VS_NIDX_SKIP;
}

/*
 * With a split plugin and the indexes laid out by HyperNode: each group's
 * best possible score (its best index score plus its split score), then
 * the groups searched best first until the next cannot reach the best
 * node found. A pure group's split score is exact: its search stops at its
 * first node that will do, or after the nodes that tie with it.
 */
static void split_groups(struct fast_search *fs, u32 from, u32 to)
{
	struct alloc_ctx *ctx = fs->ctx;
	const struct vs_fastpath *fp = ctx->fp;
	struct vs_session *ssn = ctx->ssn;

	for (u32 g = from; g < to; g++) {
		const struct vs_fp_group *grp = &fp->groups[g];
		double f;

		ctx->group_ub[g] = -HUGE_VAL;
		if (!vs_nidx_best_in(fs->ix, grp->lo, grp->hi, &f))
			continue;
		ctx->group_split[g] = grp->pure ?
			vs_ssn_split_score(ssn, fs->task, ssn->nodes[grp->first]) : ctx->split_bound;
		ctx->group_ub[g] = f + ctx->group_split[g];
	}
	for (;;) {
		u32 best = from;

		for (u32 g = from + 1; g < to; g++)
			if (ctx->group_ub[g] > ctx->group_ub[best])
				best = g;
		if (ctx->group_ub[best] == -HUGE_VAL ||
		    (fs->best && ctx->group_ub[best] < fs->best_score))
			return;
		ctx->group_ub[best] = -HUGE_VAL;
		fs->grp = &fp->groups[best];
		fs->bound = ctx->group_split[best];
		vs_nidx_first_in(fs->ix, fs->grp->lo, fs->grp->hi, split_accept, fs);
	}
}

/* The first node of @ix that will do, or with a split plugin the best. */
static struct vs_node *fast_search(struct fast_search *fs)
{
	if (!fs->ctx->split)
		return vs_nidx_first(fs->ix, fast_accept, fs);
	fs->best = NULL;
	if (fs->ctx->leaf_group != VS_TOPO_NONE) {
		split_groups(fs, fs->ctx->leaf_group, fs->ctx->leaf_group + 1);
	} else if (fs->ctx->fp->nr_groups) {
		split_groups(fs, 0, fs->ctx->fp->nr_groups);
	} else {
		fs->grp = NULL;
		fs->bound = fs->ctx->split_bound;
		vs_nidx_first(fs->ix, split_accept, fs);
	}
	return fs->best;
}

/*
 * What prioritize() would choose among the nodes predicate_nodes() would
 * pass, from the template's index: the first node in score order whose
 * Idle holds the task, else the first whose FutureIdle does. NULL when no
 * node will do, or when the index cannot serve (then the scan decides).
 */
static void mark_cached(void *arg, const struct vs_node *node)
{
	struct vs_fp_role_cache *cache = arg;

	if (!cache->failed[node->sidx])
		cache->failed[node->sidx] = CACHE_MARK;
}

static struct vs_node *fast_best(struct alloc_ctx *ctx, const struct vs_task *task,
				 struct vs_fp_role_cache *cache)
{
	struct fast_search fs = { .ctx = ctx, .task = task, .idle = true };
	struct vs_node *node;

	fs.ix = vs_fastpath_index(ctx->fp, ctx->ssn, task);
	if (!fs.ix)
		return NULL;
	/*
	 * A task with spread constraints, under its role's error cache: the
	 * scan would refuse and cache every node over the skew now, which the
	 * next tasks of the role skip even when the skew has eased. Mark them
	 * (the session's nodes are the attempt's: a cache's positions are
	 * sidx), and skip what the cache holds.
	 */
	if (vs_task_spread(task) && (cache = cache_read(ctx, task, cache))) {
		/* every domain refused: the scan, which finds none either, says why */
		if (!vs_ssn_mark_refused(ctx->ssn, task, cache->epoch, mark_cached, cache,
					 &ctx->marked_why))
			return NULL;
		fs.cached = cache->failed;
	}
	node = fast_search(&fs);
	if (node)
		return node;
	fs.idle = false;
	return fast_search(&fs);
}

static struct queue_ws *queue_ws_of(struct alloc_ctx *ctx, struct vs_queue *queue);

/*
 * Allocatable, and the words of the queue's first refusal in this run,
 * which every job it refuses then keeps (the plugins format nothing when
 * not asked: a full queue costs one formatting a cycle, not one a job).
 */
static bool allocatable(struct alloc_ctx *ctx, struct job_ws *jw, struct vs_task *task)
{
	struct vs_session *ssn = ctx->ssn;
	struct queue_ws *qw = queue_ws_of(ctx, jw->job->queue);
	struct vs_job_trace *t = jw->trace;
	struct vs_why why;
	bool ok;

	if (t && !t->refused) {
		why.plugin = NULL;
		why.quiet = qw && qw->refused;	/* only who, when the words are known */
		ssn->why = &why;
	}
	ok = vs_ssn_allocatable(ssn, jw->job->queue, task);
	ssn->why = NULL;
	if (!ok && t && !t->refused++) {
		t->first_refused = task;
		if (why.quiet && why.plugin == qw->refused_by) {
			t->words = qw->refused;
		} else {
			vs_trace_words(ssn, t, &why, NULL);
			if (qw && !why.quiet) {
				qw->refused = t->words;
				qw->refused_by = why.plugin;
			}
		}
	}
	return ok;
}

/* Allocate if the node's Idle fits, else pipeline if its FutureIdle does. */
static void place_task(struct alloc_ctx *ctx, struct vs_statement *stmt, struct vs_task *task,
		       struct vs_node *node)
{
	struct vs_res future;

	if (vs_res_less_equal(task->req, &node->idle, VS_DIM_ZERO)) {
		vs_v(3, "Binding Task <%s/%s> to node <%s>", task->ns, task->name, node->name);
		vs_stmt_allocate(stmt, task, node, NULL);
		return;
	}
	vs_v(3, "Predicates failed in allocate for task <%s/%s> on node <%s> with limited "
	     "resources", task->ns, task->name, node->name);
	vs_node_future_idle(node, &future);
	if (!vs_res_less_equal(task->req, &future, VS_DIM_ZERO))
		return;
	if (vs_v_enabled(3)) {
		char req[256], releasing[256];

		vs_res_fmt(node->dims, req, sizeof(req), task->req);
		vs_res_fmt(node->dims, releasing, sizeof(releasing), &node->releasing);
		vs_v(3, "Pipelining Task <%s/%s> to node <%s> for <%s> on <%s>", task->ns,
		     task->name, node->name, req, releasing);
	}
	vs_stmt_pipeline(stmt, task, node, false, NULL);
}

/* Volcano's getNewAllocatedHyperNode: where the job is once a task is on @node. */
static u32 new_allocated(const struct alloc_ctx *ctx, const struct vs_node *node, u32 allocated)
{
	u32 h = ctx->topo->low[node->sidx];

	if (h == VS_TOPO_NONE)
		return allocated;
	return vs_topo_lca(ctx->topo, h, allocated);
}

/*
 * Volcano's allocateResourcesForTasks: place @tasks of @sub on the nodes
 * under HyperNode @h (VS_TOPO_NONE: every node) until the sub-job is
 * ready. Returns the statement if the sub-job is ready or pipelined, else
 * discards it and returns NULL.
 */
static struct vs_statement *allocate_tasks(struct alloc_ctx *ctx, struct job_ws *jw,
					   struct sub_ws *sub, struct vs_pqueue *tasks, u32 h)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_job *job = jw->job;
	bool aware = sub->tj.with && ctx->topo;
	u32 allocated = sub->tj.allocated;
	struct vs_statement *stmt;
	u32 placed;

	ctx->hn = h;
	if (h == VS_TOPO_NONE || h == ctx->topo->top) {
		ctx->nodes = ssn->nodes;
		ctx->nr_nodes = ssn->nr_nodes;
	} else {
		ctx->nodes = ctx->topo->hns[h].nodes;
		ctx->nr_nodes = ctx->topo->hns[h].nr_nodes;
	}
	ctx->leaf_group = leaf_group(ctx, h);
	if (!ctx->nr_nodes && h != VS_TOPO_NONE) {
		vs_v(4, "There is no node in hyperNode job=\"%s/%s\" hyperNode=\"%s\"", job->ns,
		     job->name, ctx->topo->hns[h].name);
		return NULL;
	}
	stmt = vs_stmt_new_in(ssn, ctx->stmt_arena);
	if (!stmt)
		return NULL;
	/* One cache per role, for this attempt at the job (Volcano's PredicateHelper). */
	ctx->nr_caches = 0;
	vs_v(3, "Try to allocate resource queue=\"%s\" job=\"%s/%s\" taskNum=%u", job->queue->name,
	     job->ns, job->name, vs_pq_len(tasks));
	vs_v(3, "There are <%u> nodes for Job <%s/%s>", ctx->nr_nodes, job->ns, job->name);

	while (!vs_pq_empty(tasks)) {
		struct vs_task *task = vs_pq_pop(tasks);
		struct vs_fit_error fe = { .reason = { 0 } };
		struct vs_fp_role_cache *cache = NULL;
		struct vs_node *best;
		bool fast;
		u32 nr_fit;

		if (!allocatable(ctx, jw, task))
			continue;
		/* A role that failed to fit before will fail again: skip it. */
		if (*task->role && role_failed(jw, sub, task->role)) {
			char msg[160];

			snprintf(msg, sizeof(msg), VS_ROLE_FAILED_FMT, task->name, task->role);
			record_fit_errors(ctx, task, NULL, msg);
			continue;
		}
		if (vs_ssn_pre_predicate(ssn, task, &fe)) {
			vs_v(3, "PrePredicate for task %s/%s failed for: %s", task->ns, task->name,
			     fe.reason);
			record_fit_errors(ctx, task, fe.reason, NULL);
			mark_role_failed(ctx, jw, sub, task->role);
			if (need_continue(jw, sub, ssn->sched->now_ns))
				continue;
			break;
		}
		cache = role_cache_get(ctx, job, task->role);
		if (aware) {
			ctx->topo->task = task;
			ctx->topo->task_hn = allocated;
		}
		/* the nominated node first, then the index */
		best = nominated_node(ctx, task, cache);
		fast = !best && (ctx->nodes == ssn->nodes ||
				 (ctx->leaf_group != VS_TOPO_NONE && !vs_task_spread(task))) &&
		       fast_task(ctx, task) && !(cache && cache->mixed);
		if (fast && (best = fast_best(ctx, task, cache))) {
			if (ctx->stmt_arena == ctx->dry)
				ssn->sched->stats.fast_dry_placements++;
			else
				ssn->sched->stats.fast_placements++;
		}
		if (best) {
			place_task(ctx, stmt, task, best);
			if (aware)
				allocated = new_allocated(ctx, best, allocated);
			if (sub_ready(ssn, jw, sub))
				break;
			continue;
		}
		/* The scan: what the index does not serve, and the reasons no node will do. */
		nr_fit = predicate_nodes(ctx, task, cache);
		if (!nr_fit) {
			record_fit_errors(ctx, task, NULL, NULL);
			mark_role_failed(ctx, jw, sub, task->role);
			if (need_continue(jw, sub, ssn->sched->now_ns))
				continue;
			break;
		}
		best = prioritize(ctx, task, nr_fit);
		if (!best)
			continue;
		/* The index found no node where the scan does: a fault of the fast path. */
		if (fast && ctx->fp->nr_tmpls)
			ssn->sched->stats.fast_misses++;
		place_task(ctx, stmt, task, best);
		if (aware)
			allocated = new_allocated(ctx, best, allocated);
		if (sub_ready(ssn, jw, sub))
			break;
	}
	if (aware)
		ctx->topo->task = NULL;

	ctx->hn = VS_TOPO_NONE;
	ctx->leaf_group = VS_TOPO_NONE;
	placed = vs_job_ready_num(job) + vs_job_waiting_num(job);
	if (jw->trace) {
		jw->trace->placed = placed;
		vs_trace_topo_placed(jw->trace->topo, placed);
	}
	if (sub_ready(ssn, jw, sub) || sub_pipelined(ssn, jw, sub))
		return stmt;
	if (jw->trace)
		jw->trace->step = VS_WHY_DISCARDED;
	/* What the discard gives back, the nodes log (core/node.h). */
	vs_stmt_discard(stmt);
	return NULL;
}

/* ---- jobs with a hard network topology or sub-jobs (Volcano's allocateForJob) ---- */

/* A dry run of a sub-job in one HyperNode, kept: what it did, the tasks it left. */
struct hn_trial {
	u32 hn;
	struct vs_stmt_log log;
	struct vs_pqueue tasks;
};

/*
 * A dry run of the job in one HyperNode, kept: what it did, and what it
 * left of the worksheet (each sub-job's tasks, the sub-jobs to place) and
 * its sub-jobs' decisions.
 */
struct job_trial {
	u32 hn;
	struct vs_stmt_log log;
	struct vs_pqueue *tasks;	/* by sub-job */
	struct vs_pqueue order;
	u32 *decision;			/* by sub-job, VS_TOPO_NONE: none */
};

/* subJob.GetMinResources: what its pending tasks ask for. */
static void sub_min_resources(const struct job_ws *jw, const struct sub_ws *sub,
			      struct vs_res *min)
{
	const struct vs_task *t;

	vs_res_clear(min);
	if (!sub->sj) {
		list_for_each_entry(t, &jw->job->by_status[VS_TASK_PENDING], status_node)
			vs_res_add(min, t->req);
		return;
	}
	for (u32 i = 0; i < sub->sj->nr_tasks; i++)
		if (sub->sj->tasks[i]->status == VS_TASK_PENDING)
			vs_res_add(min, sub->sj->tasks[i]->req);
}

/* The search for @sub (NULL: the job itself) under @root. */
static void job_search(struct job_ws *jw, const struct sub_ws *sub, u32 root, struct vs_res *min,
		       struct vs_hn_search *s)
{
	struct vs_job *job = jw->job;
	const struct vs_topo_job *tj = sub ? &sub->tj : &jw->tj;

	if (sub)
		sub_min_resources(jw, sub, min);
	else if (job->has_min_resources)
		*min = job->min_resources;
	else
		vs_res_clear(min);
	*s = (struct vs_hn_search) {
		.job = job,
		.sj = sub ? sub->sj : NULL,
		.root = root,
		.hard = tj->hard,
		.highest_tier = tj->highest_tier,
		.allocated = tj->allocated,
		.min_res = min,
		.purpose = VS_HN_ALLOCATE,
	};
}

/* The first of the best scored, in gradient order (Volcano picks one at random). */
static u32 best_of(const double *scores, u32 nr)
{
	u32 best = 0;

	for (u32 i = 1; i < nr; i++)
		if (scores[i] > scores[best])
			best = i;
	return best;
}

/* Concatenate the logs of @stmts into @log, from @arena (Volcano's SaveOperations). */
static int save_all(struct vs_arena *arena, struct vs_statement *const *stmts, u32 nr,
		    struct vs_stmt_log *log)
{
	u32 total = 0;

	for (u32 i = 0; i < nr; i++)
		total += stmts[i]->nr;
	log->nr = 0;
	log->ops = vs_arena_alloc(arena, (total + 1) * sizeof(*log->ops));
	if (!log->ops)
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++) {
		memcpy(log->ops + log->nr, stmts[i]->ops, stmts[i]->nr * sizeof(*log->ops));
		log->nr += stmts[i]->nr;
	}
	return 0;
}

/*
 * Volcano's allocateForSubJob: the HyperNodes under @hn_for_job, gradient
 * by gradient, each tried with @tasks in a Statement that is saved and
 * discarded; the best of the first gradient where any placed something is
 * replayed. @tasks becomes what that one left; *@score its HyperNodeOrder
 * score; @sub's AllocatedHyperNode takes it in.
 */
static struct vs_statement *allocate_for_subjob(struct alloc_ctx *ctx, struct job_ws *jw,
						struct sub_ws *sub, struct vs_pqueue *tasks,
						u32 hn_for_job, double *score)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_hn_gradients g;
	struct vs_hn_search s;
	struct vs_res min;
	struct hn_trial *trials;
	double *scores;
	u32 *cands;

	job_search(jw, sub, hn_for_job, &min, &s);
	if (vs_ssn_hn_gradient(ssn, &s, &g) || !g.nr) {
		if (jw->trace)
			vs_trace_topo_sub_empty(jw->trace->topo, &min);
		return NULL;
	}
	trials = vs_arena_alloc(ctx->dry, (ctx->topo->nr + 1) * sizeof(*trials));
	scores = vs_arena_alloc(ctx->dry, (ctx->topo->nr + 1) * sizeof(*scores));
	cands = vs_arena_alloc(ctx->dry, (ctx->topo->nr + 1) * sizeof(*cands));
	if (!trials || !scores || !cands)
		return NULL;
	for (u32 k = 0; k < g.nr; k++) {
		struct vs_statement *stmt;
		u32 nr = 0, best;

		for (u32 i = g.start[k]; i < g.start[k + 1]; i++) {
			struct hn_trial *tr = &trials[nr];

			reset_sub_fit_errors(jw, sub);	/* ResetSubJobFitErr */
			if (vs_pq_copy_into(&tr->tasks, tasks, ctx->dry))
				return NULL;
			vs_v(3, "Try to allocate resource for tasks in subJob job=\"%s/%s\" "
			     "taskNum=%u hyperNode=\"%s\"", jw->job->ns, jw->job->name,
			     vs_pq_len(&tr->tasks), ctx->topo->hns[g.hns[i]].name);
			stmt = allocate_tasks(ctx, jw, sub, &tr->tasks, g.hns[i]);
			if (!stmt)
				continue;
			if (stmt->nr && !save_all(ctx->dry, &stmt, 1, &tr->log)) {
				tr->hn = g.hns[i];
				cands[nr++] = g.hns[i];
			}
			vs_stmt_discard(stmt);	/* a dry run in every HyperNode */
		}
		if (!nr) {
			vs_v(5, "Find solution for subJob fail job=\"%s/%s\" gradient=%u",
			     jw->job->ns, jw->job->name, k);
			continue;
		}
		vs_ssn_hn_order(ssn, &s, cands, nr, scores);
		best = best_of(scores, nr);
		stmt = vs_stmt_new_in(ssn, ctx->stmt_arena);
		if (!stmt || vs_stmt_recover(stmt, &trials[best].log, NULL)) {
			vs_error("Failed to recover operations job=\"%s/%s\" hyperNode=\"%s\"",
				 jw->job->ns, jw->job->name, ctx->topo->hns[trials[best].hn].name);
			if (stmt)
				vs_stmt_discard(stmt);
			return NULL;
		}
		sub->tj.allocated = vs_topo_lca(ctx->topo, sub->tj.allocated, trials[best].hn);
		sub->decision = sub->tj.allocated;	/* SaveSubJobDecision */
		*tasks = trials[best].tasks;
		*score = scores[best];
		vs_v(3, "Allocate subJob to hyperNode success job=\"%s/%s\" hyperNode=\"%s\" "
		     "score=%g newAllocatedHyperNode=\"%s\"", jw->job->ns, jw->job->name,
		     ctx->topo->hns[trials[best].hn].name, scores[best],
		     ctx->topo->hns[sub->tj.allocated].name);
		return stmt;
	}
	return NULL;
}

/* A copy of @jw's worksheet into @tr, from @arena (Volcano's JobWorksheet.Clone). */
static int worksheet_copy(struct vs_arena *arena, struct job_ws *jw, struct job_trial *tr)
{
	tr->tasks = vs_arena_alloc(arena, jw->nr_subs * sizeof(*tr->tasks));
	tr->decision = vs_arena_alloc(arena, jw->nr_subs * sizeof(*tr->decision));
	if (!tr->tasks || !tr->decision || vs_pq_copy_into(&tr->order, &jw->order, arena))
		return -ENOMEM;
	for (u32 i = 0; i < jw->nr_subs; i++)
		if (vs_pq_copy_into(&tr->tasks[i], &jw->subs[i].tasks, arena))
			return -ENOMEM;
	return 0;
}

/* The worksheet @tr left, back into @jw from the session arena. */
static int worksheet_take(struct vs_session *ssn, struct job_ws *jw, const struct job_trial *tr)
{
	if (vs_pq_copy_into(&jw->order, &tr->order, ssn->arena))
		return -ENOMEM;
	for (u32 i = 0; i < jw->nr_subs; i++) {
		if (vs_pq_copy_into(&jw->subs[i].tasks, &tr->tasks[i], ssn->arena))
			return -ENOMEM;
		jw->subs[i].decision = tr->decision[i];
	}
	return 0;
}

/*
 * Volcano's allocateForJob: the HyperNodes of the job's gradients, each
 * tried as a dry run of its sub-jobs, in sub-job order, each placed by
 * allocate_for_subjob() under that HyperNode and put back while it has
 * tasks left, until the job is ready; the best of the first gradient with
 * a ready (or pipelined) job is replayed into the Statement returned, and
 * the worksheet becomes what it left. *@hn_for_job is that HyperNode, and
 * each sub-job's decision there is in its sub_ws.
 */
static struct vs_statement *allocate_for_job(struct alloc_ctx *ctx, struct job_ws *jw,
					     u32 *hn_for_job)
{
	struct vs_session *ssn = ctx->ssn;
	struct vs_job *job = jw->job;
	struct vs_statement **stmts;
	struct vs_hn_gradients g;
	struct vs_hn_search s;
	struct vs_res min;
	struct job_trial *trials;
	struct vs_topo_trace *tt = NULL;
	u32 *before, max_stmts = 1;
	double *scores;
	int ret;

	/*
	 * What the last job's dry runs left is gone: its worksheet was taken
	 * back. Every statement of a dry run is discarded in it, only the one
	 * returned comes from the session (the caller puts stmt_arena back).
	 */
	vs_arena_reset(ctx->dry);
	ctx->stmt_arena = ctx->dry;
	job_search(jw, NULL, ctx->topo->top, &min, &s);
	ret = vs_ssn_hn_gradient(ssn, &s, &g);
	/* for vsctl explain: -EINVAL is a search with no root within the tier */
	if (jw->trace && ret != -ENOMEM && jw->tj.hard)
		tt = vs_trace_topo(ssn, jw->trace, ctx->topo, s.highest_tier, s.allocated,
				   ret ? NULL : &g, &min);
	if (ret)
		return NULL;
	for (u32 i = 0; i < jw->nr_subs; i++)
		max_stmts += vs_pq_len(&jw->subs[i].tasks);
	trials = vs_arena_alloc(ctx->dry, (ctx->topo->nr + 1) * sizeof(*trials));
	scores = vs_arena_alloc(ctx->dry, (ctx->topo->nr + 1) * sizeof(*scores));
	stmts = vs_arena_alloc(ctx->dry, max_stmts * sizeof(*stmts));
	before = vs_arena_alloc(ctx->dry, jw->nr_subs * sizeof(*before));
	if (!trials || !scores || !stmts || !before)
		return NULL;
	/* SnapshotSubJobStatus */
	for (u32 i = 0; i < jw->nr_subs; i++)
		before[i] = jw->subs[i].tj.allocated;
	for (u32 k = 0; k < g.nr; k++) {
		struct vs_statement *stmt;
		u32 nr = 0, best;

		for (u32 i = g.start[k]; i < g.start[k + 1]; i++) {
			struct job_trial *tr = &trials[nr];
			u32 nr_stmts = 0;
			double sum = 0;

			vs_trace_topo_try(tt);
			jw->nr_failed_roles = 0;	/* ResetFitErr */
			if (worksheet_copy(ctx->dry, jw, tr))
				return NULL;
			vs_v(3, "Try to allocate resource for job in hyperNode job=\"%s/%s\" "
			     "hyperNode=\"%s\"", job->ns, job->name, ctx->topo->hns[g.hns[i]].name);
			for (u32 j = 0; j < jw->nr_subs; j++)
				jw->subs[j].decision = VS_TOPO_NONE;
			while (!vs_pq_empty(&tr->order)) {
				struct sub_ws *sub = vs_pq_pop(&tr->order);
				double score = 0;

				stmt = allocate_for_subjob(ctx, jw, sub, &tr->tasks[sub->idx],
							   g.hns[i], &score);
				if (!stmt)
					continue;
				if (!stmt->nr) {
					vs_stmt_discard(stmt);
					continue;
				}
				stmts[nr_stmts++] = stmt;
				sum += score;
				/* back in while it has tasks left */
				if (!vs_pq_empty(&tr->tasks[sub->idx]) && vs_pq_push(&tr->order, sub))
					return NULL;
				if (vs_ssn_job_ready(ssn, job))
					break;
			}
			vs_trace_subs_placed(ssn, jw->trace, vs_subjobs_of(ssn, job));
			/* RecoverSubJobStatus, the decisions kept */
			for (u32 j = 0; j < jw->nr_subs; j++) {
				tr->decision[j] = jw->subs[j].decision;
				jw->subs[j].tj.allocated = before[j];
			}
			if (save_all(ctx->dry, stmts, nr_stmts, &tr->log))
				return NULL;
			if (tr->log.nr && (vs_ssn_job_ready(ssn, job) ||
					   vs_ssn_job_pipelined(ssn, job))) {
				tr->hn = g.hns[i];
				scores[nr] = sum;
				nr++;
			}
			for (u32 j = 0; j < nr_stmts; j++)
				vs_stmt_discard(stmts[j]);
		}
		if (!nr) {
			vs_v(5, "Find solution for job fail job=\"%s/%s\" gradient=%u", job->ns,
			     job->name, k);
			continue;
		}
		best = best_of(scores, nr);
		stmt = vs_stmt_new(ssn);
		if (!stmt || vs_stmt_recover(stmt, &trials[best].log, NULL)) {
			vs_error("Failed to recover operations job=\"%s/%s\" hyperNode=\"%s\"",
				 job->ns, job->name, ctx->topo->hns[trials[best].hn].name);
			if (stmt)
				vs_stmt_discard(stmt);
			return NULL;
		}
		/* the worksheet what the best left, the decisions its own */
		if (worksheet_take(ssn, jw, &trials[best])) {
			vs_stmt_discard(stmt);
			return NULL;
		}
		*hn_for_job = trials[best].hn;
		vs_v(3, "Allocate job to hyperNode success job=\"%s/%s\" hyperNode=\"%s\"",
		     job->ns, job->name, ctx->topo->hns[trials[best].hn].name);
		return stmt;
	}
	vs_v(5, "Cannot find any solution for job job=\"%s/%s\"", job->ns, job->name);
	return NULL;
}

/*
 * Volcano's recorder.UpdateDecisionToJob, once the job's Statement is
 * committed: its AllocatedHyperNode and its sub-jobs' take in where this
 * placement went.
 */
static int record_decision(struct alloc_ctx *ctx, struct job_ws *jw, u32 hn_for_job)
{
	struct vs_topo *topo = ctx->topo;
	struct vs_job *job = jw->job;
	u32 h;

	h = vs_topo_lca(topo, jw->tj.allocated, hn_for_job);
	if (h != jw->tj.allocated) {
		vs_v(3, "update allocated hyperNode for job job=\"%s/%s\" new=\"%s\"", job->ns,
		     job->name, topo->hns[h].name);
		if (vs_job_set_allocated_hn(ctx->ssn->cl, job, false, topo->hns[h].name))
			return -ENOMEM;
		jw->tj.allocated = h;
	}
	for (u32 i = 0; i < jw->nr_subs; i++) {
		struct sub_ws *sub = &jw->subs[i];

		if (sub->decision == VS_TOPO_NONE)
			continue;
		h = vs_topo_lca(topo, sub->tj.allocated, sub->decision);
		if (h == sub->tj.allocated)
			continue;
		if (vs_topo_set_sub_hn(ctx->ssn, job, sub->sj, h))
			return -ENOMEM;
		sub->tj.allocated = h;
	}
	return 0;
}

static struct queue_ws *queue_ws_of(struct alloc_ctx *ctx, struct vs_queue *queue)
{
	struct queue_ws *qw = &ctx->qws[queue->sidx];

	return qw->queue ? qw : NULL;
}

/* ContainsNetworkTopology: the job or one of its sub-jobs has one. */
static bool with_network_topology(const struct vs_session *ssn, const struct vs_job *job)
{
	const struct vs_subjobs *sjs = vs_subjobs_of(ssn, job);

	if (job->net_topology.set)
		return true;
	for (u32 i = 0; sjs && i < sjs->nr; i++)
		if (sjs->sj[i].nt)
			return true;
	return false;
}

/* Sub-jobs: the required ones first, then in sub-job order. */
static int cmp_sub_ws(struct vs_session *ssn, const void *a, const void *b)
{
	const struct sub_ws *x = a, *y = b;

	if (x->required != y->required)
		return x->required ? -1 : 1;
	return vs_ssn_subjob_order(ssn, x->sj, y->sj);
}

/* The tasks allocate places: pending, requesting something, not gated, not backing off. */
static int push_task(struct vs_session *ssn, struct vs_pqueue *tasks, struct vs_task *task)
{
	/* best-effort tasks are backfill's; a gated pod waits for its gates to go */
	if (task->status != VS_TASK_PENDING || vs_res_is_empty(task->req) || task->gated)
		return 0;
	/* its bind failed a moment ago: it waits out its backoff */
	if (vs_task_backing_off(task, ssn->sched->now_ns))
		return 0;
	return vs_pq_push(tasks, task);
}

/* The sub-jobs to place first (vs_subjobs_required()). */
static int mark_required(struct vs_session *ssn, struct job_ws *jw)
{
	bool *required = vs_arena_alloc(ssn->arena, jw->nr_subs * sizeof(*required));

	if (!required || vs_subjobs_required(ssn, ssn->arena, jw->job, required))
		return -ENOMEM;
	for (u32 i = 0; i < jw->nr_subs; i++)
		jw->subs[i].required = required[i];
	return 0;
}

/*
 * Volcano's organizeJobWorksheet: each sub-job's pending tasks, and the
 * sub-jobs that have some in order, those first that make the fewest
 * sub-jobs each policy's minSubGroups asks for (counting the ready ones).
 * *@out NULL: nothing to place.
 */
static int organize_worksheet(struct alloc_ctx *ctx, struct vs_job *job, struct job_ws **out)
{
	struct vs_session *ssn = ctx->ssn;
	const struct vs_subjobs *sjs = vs_subjobs_of(ssn, job);
	struct vs_topo_job *subs_tj = NULL;
	struct vs_task *task;
	struct job_ws *jw;
	u32 nr = sjs ? sjs->nr : 1;

	*out = NULL;
	jw = vs_arena_zalloc(ssn->arena, sizeof(*jw));
	if (jw)
		jw->subs = vs_arena_calloc(ssn->arena, nr, sizeof(*jw->subs));
	if (sjs)
		subs_tj = vs_arena_calloc(ssn->arena, nr, sizeof(*subs_tj));
	if (!jw || !jw->subs || (sjs && !subs_tj))
		return -ENOMEM;
	jw->job = job;
	jw->nr_subs = nr;
	jw->tj.allocated = jw->tj.sub_allocated = VS_TOPO_NONE;
	if (ctx->topo && vs_topo_job(ssn, ctx->topo, job, &jw->tj, subs_tj))
		return -ENOMEM;
	vs_pq_init(&jw->order, ssn, ssn->arena, cmp_sub_ws);
	for (u32 i = 0; i < nr; i++) {
		struct sub_ws *sub = &jw->subs[i];

		sub->idx = i;
		vs_pq_init(&sub->tasks, ssn, ssn->arena, vs_cmp_task);
		if (!sjs) {
			/* the job's only sub-job: its topology is the job's */
			sub->tj = jw->tj;
			sub->tj.allocated = jw->tj.sub_allocated;
			list_for_each_entry(task, &job->by_status[VS_TASK_PENDING], status_node)
				if (push_task(ssn, &sub->tasks, task))
					return -ENOMEM;
			continue;
		}
		sub->sj = &sjs->sj[i];
		sub->tj = subs_tj[i];
		for (u32 t = 0; t < sub->sj->nr_tasks; t++)
			if (push_task(ssn, &sub->tasks, sub->sj->tasks[t]))
				return -ENOMEM;
	}
	if (sjs && mark_required(ssn, jw))
		return -ENOMEM;
	for (u32 i = 0; i < nr; i++)
		if (!vs_pq_empty(&jw->subs[i].tasks) && vs_pq_push(&jw->order, &jw->subs[i]))
			return -ENOMEM;
	if (!vs_pq_empty(&jw->order))
		*out = jw;
	return 0;
}

/* Step 1: the worksheets of the jobs to try, grouped by queue. */
static int build_worksheets(struct alloc_ctx *ctx, struct vs_pqueue *queues)
{
	struct vs_session *ssn = ctx->ssn;
	bool enqueue_runs = vs_session_has_action(ssn, "enqueue");

	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct vs_validate vr = { NULL, { 0 } };
		struct vs_job *job = ssn->jobs[i];
		struct queue_ws *qw;
		struct job_ws *jw;
		int ret;

		struct vs_job_trace *t;
		struct vs_why why;
		bool valid;

		if (job->phase == VS_PG_PENDING) {
			if (enqueue_runs) {
				/* enqueue decides admission */
				vs_v(4, "Job <%s/%s> Queue <%s> skip allocate, reason: job status is "
				     "pending.", job->ns, job->name, job->queue->name);
				continue;
			}
			vs_v(4, "Job <%s/%s> Queue <%s> status update from pending to inqueue, "
			     "reason: no enqueue action is configured.", job->ns, job->name,
			     job->queue->name);
			vs_job_set_phase(ssn->cl, job, VS_PG_INQUEUE);
		}
		why.plugin = NULL;
		why.quiet = true;	/* JobValid's message is its words */
		ssn->why = &why;
		valid = vs_ssn_job_valid(ssn, job, &vr);
		ssn->why = NULL;
		if (!valid) {
			vs_v(4, "Job <%s/%s> Queue <%s> skip allocate, reason: %s, message %s",
			     job->ns, job->name, job->queue->name, vr.reason ? vr.reason : "",
			     vr.message);
			t = vs_trace(ssn, job);
			if (t) {
				t->step = VS_WHY_INVALID;
				t->reason = vr.reason;
				vs_trace_words(ssn, t, &why, vr.message);
			}
			continue;
		}
		if (job->net_topology.set || job->nr_subgroups) {
			if (!ctx->topo && !(ctx->topo = vs_topo_get(ssn)))
				return -ENOMEM;
			if (!ctx->topo->ready && with_network_topology(ssn, job)) {
				vs_v(4, "Job <%s/%s> Queue <%s> skip allocate, reason: hyperNodes are "
				     "not ready for scheduling", job->ns, job->name, job->queue->name);
				continue;
			}
		}
		ret = organize_worksheet(ctx, job, &jw);
		if (ret)
			return ret;
		if (!jw)
			continue;
		jw->trace = vs_trace(ssn, job);

		qw = queue_ws_of(ctx, job->queue);
		if (!qw) {
			qw = &ctx->qws[job->queue->sidx];
			qw->queue = job->queue;
			vs_pq_init(&qw->jobs, ssn, ssn->arena, cmp_job_ws);
			if (vs_pq_push(queues, qw->queue))
				return -ENOMEM;
		}
		if (vs_pq_push(&qw->jobs, jw))
			return -ENOMEM;
		vs_v(4, "Added Job <%s/%s> into Queue <%s>", job->ns, job->name, job->queue->name);
	}
	return 0;
}

static int alloc_ctx_init(struct alloc_ctx *ctx, struct vs_session *ssn,
			  const struct vs_args *args)
{
	u32 n = ssn->nr_nodes ? ssn->nr_nodes : 1;
	int ret;

	memset(ctx, 0, sizeof(*ctx));
	ctx->ssn = ssn;
	ctx->dry = &ssn->sched->dry;
	ctx->stmt_arena = ssn->arena;
	ctx->error_cache = true;
	ctx->hn = VS_TOPO_NONE;
	ctx->leaf_group = VS_TOPO_NONE;
	ret = vs_args_get_bool(args, "enablePredicateErrorCache", &ctx->error_cache, NULL);
	if (!ret)
		ret = vs_args_get_bool(args, "exhaustive", &ctx->exhaustive, NULL);
	if (ret)
		return ret;
	ctx->nodes = ssn->nodes;
	ctx->nr_nodes = ssn->nr_nodes;
	/* The scratch kept from cycle to cycle: grown, never shrunk. */
	ctx->fp = &ssn->sched->fast;
	ctx->reasons.text = ctx->fp->reasons;
	ctx->reasons.cap = ctx->fp->cap_reasons;
	ctx->caches = ctx->fp->caches;
	ctx->cap_caches = ctx->fp->cap_caches;
	if (ctx->fp->cache_bytes < n) {
		for (u32 i = 0; i < ctx->cap_caches; i++) {
			free(ctx->caches[i].failed);
			ctx->caches[i].failed = NULL;
		}
		ctx->fp->cache_bytes = n;
	}
	ctx->cache_bytes = ctx->fp->cache_bytes;
	ctx->fit = vs_arena_alloc(ssn->arena, n * sizeof(*ctx->fit));
	/* without it the fit errors only lose which nodes refused for good */
	ctx->reasons.refused = vs_arena_alloc(ssn->arena, n);
	ctx->idle = vs_arena_alloc(ssn->arena, n * sizeof(*ctx->idle));
	ctx->future = vs_arena_alloc(ssn->arena, n * sizeof(*ctx->future));
	ctx->qws = vs_arena_calloc(ssn->arena, ssn->nr_queues ? ssn->nr_queues : 1,
				   sizeof(*ctx->qws));
	if (!ctx->fit || !ctx->idle || !ctx->future || !ctx->qws)
		return -ENOMEM;
	return 0;
}

/*
 * Whether the fast path may serve this allocate, decided when the first
 * task asks (a cycle with nothing to place allocates nothing for it).
 */
static bool fast_on(struct alloc_ctx *ctx)
{
	if (ctx->fast_decided)
		return ctx->fast;
	ctx->fast_decided = true;
	ctx->fast = !ctx->exhaustive && fast_possible(ctx->ssn);
	ctx->split = vs_ssn_split_plugin(ctx->ssn) != NULL;
	if (!ctx->fast) {
		/* What the indexes hold may not hold this session: start over next time. */
		vs_fastpath_invalidate(ctx->fp);
		return false;
	}
	/* the split plugin scores by HyperNode: indexes laid out by them (NULL: no memory, none) */
	if (vs_fastpath_begin(ctx->fp, ctx->ssn, ctx->split ? vs_topo_get(ctx->ssn) : NULL)) {
		ctx->fast = false;
		return false;
	}
	if (ctx->split && ctx->fp->nr_groups) {
		ctx->group_ub = vs_arena_alloc(ctx->ssn->arena,
					       ctx->fp->nr_groups * sizeof(*ctx->group_ub));
		ctx->group_split = vs_arena_alloc(ctx->ssn->arena,
						  ctx->fp->nr_groups * sizeof(*ctx->group_split));
		if (!ctx->group_ub || !ctx->group_split)
			ctx->fast = false;
	}
	return ctx->fast;
}

/*
 * Overused: the queue is skipped, and with it the jobs still waiting in it
 * this run, whose traces say so in the plugin's words.
 */
static bool overused(struct alloc_ctx *ctx, struct vs_queue *queue, struct queue_ws *qw)
{
	struct vs_session *ssn = ctx->ssn;
	char *words = NULL;
	struct vs_why why;
	bool over;

	why.plugin = NULL;
	why.quiet = false;
	ssn->why = &why;
	over = vs_ssn_overused(ssn, queue);
	ssn->why = NULL;
	if (!over)
		return false;
	vs_v(3, "Queue <%s> is overused, ignore it.", queue->name);
	for (u32 i = 0; qw && i < vs_pq_len(&qw->jobs); i++) {
		struct job_ws *jw = qw->jobs.items[i];

		if (!jw->trace)
			continue;
		jw->trace->step = VS_WHY_OVERUSED;
		if (!words) {
			vs_trace_words(ssn, jw->trace, &why, NULL);
			words = jw->trace->words;
		}
		jw->trace->words = words;
	}
	return true;
}

static int allocate_execute(struct vs_session *ssn, const struct vs_args *args)
{
	struct alloc_ctx ctx;
	struct vs_pqueue queues;
	u32 hn_for_job;
	int ret;

	ret = alloc_ctx_init(&ctx, ssn, args);
	if (ret)
		return ret;
	vs_pq_init(&queues, ssn, ssn->arena, vs_cmp_queue);
	ret = build_worksheets(&ctx, &queues);
	if (ret)
		goto out;
	vs_v(3, "Try to allocate resource to %u Queues", vs_pq_len(&queues));

	while (!vs_pq_empty(&queues)) {
		struct vs_queue *queue = vs_pq_pop(&queues);
		struct queue_ws *qw = queue_ws_of(&ctx, queue);
		struct vs_statement *stmt;
		struct job_ws *jw;

		if (overused(&ctx, queue, qw))
			continue;
		if (vs_pq_empty(&qw->jobs))
			continue;
		jw = vs_pq_pop(&qw->jobs);
		hn_for_job = VS_TOPO_NONE;
		/*
		 * A hard network topology (soft ones are made hard) or sub-jobs:
		 * HyperNode by HyperNode, sub-job by sub-job.
		 */
		if (jw->tj.hard || jw->job->nr_subgroups) {
			stmt = allocate_for_job(&ctx, jw, &hn_for_job);
			ctx.stmt_arena = ssn->arena;
		} else {
			stmt = allocate_tasks(&ctx, jw, &jw->subs[0], &jw->subs[0].tasks,
					      VS_TOPO_NONE);
			/* the flat path's worksheet: its tasks */
			if (vs_pq_empty(&jw->subs[0].tasks))
				vs_pq_clear(&jw->order);
		}
		if (stmt && jw->trace)
			jw->trace->step = vs_ssn_job_ready(ssn, jw->job) ? VS_WHY_COMMITTED
									 : VS_WHY_PIPELINED;
		/* A pipelined job keeps its statement open: it is not committed. */
		if (stmt && vs_ssn_job_ready(ssn, jw->job)) {
			vs_stmt_commit(stmt);
			if (hn_for_job != VS_TOPO_NONE && record_decision(&ctx, jw, hn_for_job)) {
				ret = -ENOMEM;
				break;
			}
			if (!vs_pq_empty(&jw->order) && vs_pq_push(&qw->jobs, jw)) {
				ret = -ENOMEM;
				break;
			}
		}
		if (vs_pq_push(&queues, queue)) {
			ret = -ENOMEM;
			break;
		}
	}
out:
	if (ctx.fast)
		vs_fastpath_end(ctx.fp, ssn);
	ctx.fp->reasons = ctx.reasons.text;
	ctx.fp->cap_reasons = ctx.reasons.cap;
	ctx.fp->caches = ctx.caches;
	ctx.fp->cap_caches = ctx.cap_caches;
	return ret;
}

static int allocate_check_args(const struct vs_args *args, struct vs_err *err)
{
	bool b;
	int ret;

	ret = vs_args_get_bool(args, "enablePredicateErrorCache", &b, err);
	if (!ret)
		ret = vs_args_get_bool(args, "exhaustive", &b, err);
	return ret;
}

const struct vs_action_ops vs_action_allocate = {
	.name		= "allocate",
	.check_args	= allocate_check_args,
	.execute	= allocate_execute,
};

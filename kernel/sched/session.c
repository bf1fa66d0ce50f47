// SPDX-License-Identifier: Apache-2.0
/*
 * The scheduler and its sessions: opening a session on the live cluster,
 * running the configured actions, and closing it so that only committed
 * work survives. See session.h.
 */
#include <string.h>

#include "core/log.h"
#include "sched/explain.h"
#include "sched/fiterr.h"
#include "sched/metrics.h"
#include "sched/session.h"
#include "sched/statement.h"
#include "sched/subjob.h"
#include "sched/topology.h"

/* The enable flag that gates each extension point; -1: none (always on). */
static const int ext_flag[VS_EXT_NR] = {
	[VS_EXT_JOB_ORDER]		= VS_EN_JOB_ORDER,
	[VS_EXT_QUEUE_ORDER]		= VS_EN_QUEUE_ORDER,
	[VS_EXT_TASK_ORDER]		= VS_EN_TASK_ORDER,
	[VS_EXT_VICTIM_QUEUE_ORDER]	= -1,
	[VS_EXT_JOB_VALID]		= -1,
	[VS_EXT_JOB_ENQUEUEABLE]	= VS_EN_JOB_ENQUEUED,
	[VS_EXT_JOB_ENQUEUED]		= VS_EN_JOB_ENQUEUED,
	[VS_EXT_JOB_READY]		= VS_EN_JOB_READY,
	[VS_EXT_JOB_PIPELINED]		= VS_EN_JOB_PIPELINED,
	[VS_EXT_JOB_STARVING]		= VS_EN_JOB_STARVING,
	[VS_EXT_OVERUSED]		= VS_EN_OVERUSED,
	[VS_EXT_ALLOCATABLE]		= VS_EN_ALLOCATABLE,
	[VS_EXT_PREEMPTIVE]		= VS_EN_PREEMPTIVE,
	[VS_EXT_PREEMPTABLE]		= VS_EN_PREEMPTABLE,
	[VS_EXT_RECLAIMABLE]		= VS_EN_RECLAIMABLE,
	[VS_EXT_PRE_PREDICATE]		= VS_EN_PREDICATE,	/* as Volcano: same flag */
	[VS_EXT_PREDICATE]		= VS_EN_PREDICATE,
	[VS_EXT_NODE_ORDER]		= VS_EN_NODE_ORDER,
	[VS_EXT_BATCH_NODE_ORDER]	= VS_EN_NODE_ORDER,
	[VS_EXT_BEST_NODE]		= VS_EN_BEST_NODE,
	[VS_EXT_EVENT_ALLOCATE]		= -1,
	[VS_EXT_EVENT_DEALLOCATE]	= -1,
	[VS_EXT_HN_GRADIENT]		= VS_EN_HYPERNODE_GRADIENT,
	[VS_EXT_HN_ORDER]		= VS_EN_HYPERNODE_ORDER,
	[VS_EXT_SUBJOB_READY]		= VS_EN_SUBJOB_READY,
	[VS_EXT_SUBJOB_PIPELINED]	= VS_EN_SUBJOB_PIPELINED,
	[VS_EXT_SUBJOB_ORDER]		= VS_EN_SUBJOB_ORDER,
	[VS_EXT_UNIFIED_EVICTABLE]	= -1,
};

static bool has_op(const struct vs_plugin_ops *ops, enum vs_ext ext)
{
	switch (ext) {
	case VS_EXT_JOB_ORDER:		return ops->job_order;
	case VS_EXT_QUEUE_ORDER:	return ops->queue_order;
	case VS_EXT_TASK_ORDER:		return ops->task_order;
	case VS_EXT_VICTIM_QUEUE_ORDER:	return ops->victim_queue_order;
	case VS_EXT_JOB_VALID:		return ops->job_valid;
	case VS_EXT_JOB_ENQUEUEABLE:	return ops->job_enqueueable;
	case VS_EXT_JOB_ENQUEUED:	return ops->job_enqueued;
	case VS_EXT_JOB_READY:		return ops->job_ready;
	case VS_EXT_JOB_PIPELINED:	return ops->job_pipelined;
	case VS_EXT_JOB_STARVING:	return ops->job_starving;
	case VS_EXT_OVERUSED:		return ops->overused;
	case VS_EXT_ALLOCATABLE:	return ops->allocatable;
	case VS_EXT_PREEMPTIVE:		return ops->preemptive;
	case VS_EXT_PREEMPTABLE:	return ops->preemptable;
	case VS_EXT_RECLAIMABLE:	return ops->reclaimable;
	case VS_EXT_PRE_PREDICATE:	return ops->pre_predicate;
	case VS_EXT_PREDICATE:		return ops->predicate;
	case VS_EXT_NODE_ORDER:		return ops->node_order;
	case VS_EXT_BATCH_NODE_ORDER:	return ops->batch_node_order;
	case VS_EXT_BEST_NODE:		return ops->best_node;
	case VS_EXT_EVENT_ALLOCATE:	return ops->on_allocate;
	case VS_EXT_EVENT_DEALLOCATE:	return ops->on_deallocate;
	case VS_EXT_HN_GRADIENT:	return ops->hn_gradient;
	case VS_EXT_HN_ORDER:		return ops->hn_order;
	case VS_EXT_SUBJOB_READY:	return ops->subjob_ready;
	case VS_EXT_SUBJOB_PIPELINED:	return ops->subjob_pipelined;
	case VS_EXT_SUBJOB_ORDER:	return ops->subjob_order;
	case VS_EXT_UNIFIED_EVICTABLE:	return ops->unified_evictable;
	case VS_EXT_NR:			break;
	}
	return false;
}

static bool ext_active(const struct vs_plugin *p, enum vs_ext ext)
{
	if (!has_op(p->ops, ext) || (p->disabled & (1u << ext)))
		return false;
	return ext_flag[ext] < 0 || vs_conf_plugin_enabled(p->conf, (enum vs_en_flag)ext_flag[ext]);
}

/* Per extension point, the plugins that take part, in tier order. */
static int build_ext_lists(struct vs_session *ssn)
{
	for (unsigned int e = 0; e < VS_EXT_NR; e++) {
		struct vs_ext_list *l = &ssn->ext[e];
		u32 n = 0;

		for (u32 i = 0; i < ssn->nr_plugins; i++)
			n += ext_active(&ssn->plugins[i], (enum vs_ext)e);
		if (!n)
			continue;
		l->p = vs_arena_alloc(ssn->arena, n * sizeof(*l->p));
		if (!l->p)
			return -ENOMEM;
		for (u32 i = 0; i < ssn->nr_plugins; i++)
			if (ext_active(&ssn->plugins[i], (enum vs_ext)e))
				l->p[l->nr++] = &ssn->plugins[i];
	}
	return 0;
}

/* A plugin's OnSessionOpen or OnSessionClose took @ns: Volcano's plugin latency. */
static void plugin_observe(struct vs_session *ssn, const struct vs_plugin *p, bool open, u64 ns)
{
	struct vs_metrics *m = &ssn->sched->metrics;
	u32 i = vs_registry_plugin_index(ssn->sched->reg, p->ops->name);

	if (ssn->inspect || i >= VS_METRICS_PLUGINS_MAX)
		return;
	vs_hist_observe(open ? &m->plugin_open[i] : &m->plugin_close[i], &vs_hist_plugin, ns);
}

static void close_plugins(struct vs_session *ssn, u32 upto)
{
	for (u32 i = 0; i < upto; i++) {
		struct vs_plugin *p = &ssn->plugins[i];
		u64 t;

		if (!p->ops->close)
			continue;
		t = vs_mono_ns();
		p->ops->close(ssn, p);
		plugin_observe(ssn, p, false, vs_mono_ns() - t);
	}
}

/*
 * Whether a session may leave the resting jobs out: what it runs reads
 * of them no more than their queues' sums hold. Actions that evict
 * (preempt, reclaim) look for victims among every running task, and
 * capacity walks every job of a queue hierarchy: with them, and with
 * any plugin not listed, a session sees every job.
 */
static bool sparse_possible(const struct vs_sched *sched)
{
	static const char *const actions[] = { "enqueue", "allocate", "backfill" };
	static const char *const plugins[] = {
		"priority", "gang", "conformance", "overcommit", "drf", "predicates",
		"proportion", "nodeorder", "binpack",
	};
	const struct vs_conf *conf = sched->conf;

	if (sched->full_views)
		return false;
	for (u32 i = 0; i < conf->nr_actions; i++) {
		bool ok = false;

		for (size_t k = 0; k < ARRAY_SIZE(actions); k++)
			ok |= !strcmp(conf->actions[i], actions[k]);
		if (!ok)
			return false;
	}
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			bool ok = false;

			for (size_t k = 0; k < ARRAY_SIZE(plugins); k++)
				ok |= !strcmp(conf->tiers[t].plugins[i].name, plugins[k]);
			if (!ok)
				return false;
		}
	}
	return true;
}

/*
 * The session's arrays of jobs, queues and nodes, and their objects' sidx.
 * The nodes are the cluster's slots (their sidx is the cluster's, stable
 * from session to session), holes closed up first: copied, so that the
 * session's view stays as it was opened.
 */
static int build_views(struct vs_session *ssn)
{
	struct vs_cluster *cl = ssn->cl;
	struct vs_queue *queue;
	struct vs_job *job;

	ssn->sparse = sparse_possible(ssn->sched);
	ssn->jobs = vs_arena_alloc(ssn->arena, ((ssn->sparse ? cl->nr_active_jobs : cl->nr_jobs) +
						1) * sizeof(*ssn->jobs));
	ssn->queues = vs_arena_alloc(ssn->arena, (cl->nr_queues + 1) * sizeof(*ssn->queues));
	ssn->nodes = vs_arena_alloc(ssn->arena, (cl->nr_nodes + 1) * sizeof(*ssn->nodes));
	if (!ssn->jobs || !ssn->queues || !ssn->nodes)
		return -ENOMEM;
	if (ssn->sparse) {
		/* The active jobs, kept in creation order: the order a full view has them in. */
		vs_for_each_active_job(job, cl) {
			job->sidx = ssn->nr_jobs;
			ssn->jobs[ssn->nr_jobs++] = job;
		}
	} else {
		list_for_each_entry(job, &cl->jobs, list) {
			if (!job->queue) {
				job->sidx = VS_SIDX_NONE;
				continue;
			}
			job->sidx = ssn->nr_jobs;
			ssn->jobs[ssn->nr_jobs++] = job;
		}
	}
	list_for_each_entry(queue, &cl->queues, list) {
		queue->sidx = ssn->nr_queues;
		ssn->queues[ssn->nr_queues++] = queue;
	}
	vs_cluster_compact_nodes(cl);
	if (cl->nr_nodes)	/* no slots yet: node_slot is NULL */
		memcpy(ssn->nodes, cl->node_slot, cl->nr_nodes * sizeof(*ssn->nodes));
	ssn->nr_nodes = cl->nr_nodes;
	return vs_subjobs_build(ssn);
}

/* A look (@inspect) counts no cycle and is not measured. */
static int open_session(struct vs_sched *sched, bool inspect, struct vs_session **out,
			struct vs_err *err)
{
	const struct vs_conf *conf = sched->conf;
	u64 start = vs_mono_ns(), t0;
	struct vs_session *ssn;
	u32 n = 0;
	int ret;

	ssn = vs_arena_zalloc(&sched->arena, sizeof(*ssn));
	if (!ssn)
		return vs_err_set(err, ENOMEM, "out of memory opening a session");
	ssn->sched = sched;
	ssn->cl = sched->cl;
	ssn->arena = &sched->arena;
	ssn->inspect = inspect;
	ssn->opened_ns = start;
	ssn->binds_at_open = sched->stats.binds;
	ssn->cycle = inspect ? sched->stats.cycles + 1 : ++sched->stats.cycles;
	ssn->nr_tiers = conf->nr_tiers;
	ssn->total_resource = sched->cl->total_allocatable;
	INIT_LIST_HEAD(&ssn->open_stmts);

	ret = build_views(ssn);
	if (ret) {
		vs_err_set(err, ret, "out of memory opening a session");
		goto out_reset;
	}
	vs_topo_expire(sched);
	for (u32 t = 0; t < conf->nr_tiers; t++)
		ssn->nr_plugins += conf->tiers[t].nr;
	if (ssn->nr_plugins) {
		ssn->plugins = vs_arena_calloc(ssn->arena, ssn->nr_plugins, sizeof(*ssn->plugins));
		if (!ssn->plugins) {
			ret = vs_err_set(err, ENOMEM, "out of memory opening a session");
			goto out_reset;
		}
	}
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			struct vs_plugin *p = &ssn->plugins[n++];

			p->conf = &conf->tiers[t].plugins[i];
			p->ops = vs_registry_plugin(ssn->sched->reg, p->conf->name); /* checked */
			p->tier = t;
		}
	}

	/* OnSessionOpen, in tier order; a failure undoes the ones before. */
	for (u32 i = 0; i < ssn->nr_plugins; i++) {
		struct vs_plugin *p = &ssn->plugins[i];

		if (!p->ops->open)
			continue;
		t0 = vs_mono_ns();
		ret = p->ops->open(ssn, p);
		plugin_observe(ssn, p, true, vs_mono_ns() - t0);
		if (ret) {
			vs_err_set(err, ret, "plugin %s failed to open the session", p->ops->name);
			close_plugins(ssn, i);
			goto out_reset;
		}
	}
	ret = build_ext_lists(ssn);
	if (ret) {
		vs_err_set(err, ret, "out of memory opening a session");
		close_plugins(ssn, ssn->nr_plugins);
		goto out_reset;
	}
	if (!inspect)
		vs_hist_observe(&sched->metrics.open_session, &vs_hist_e2e, vs_mono_ns() - start);
	*out = ssn;
	return 0;

out_reset:
	vs_arena_reset(&sched->arena);
	return ret;
}

/*
 * Volcano's getPodGroupPhase, from the job's task counts: a job with
 * running tasks that this session found unschedulable (gang's condition,
 * written by this session) is Unknown; enough tasks scheduled (running,
 * bound or finished, and releasing ones that had been placed) makes it
 * Running, or Completed when all of them finished; a job short of that is
 * Pending unless it was admitted (Inqueue) already.
 */
static enum vs_pg_phase pg_phase(const struct vs_session *ssn, const struct vs_job *job)
{
	const struct vs_pg_condition *unsched = &job->cond[VS_PG_COND_UNSCHEDULABLE];
	u32 scheduled = vs_job_scheduled_num(job) + vs_job_releasing_placed_num(job);
	u32 completed = job->nr_by_status[VS_TASK_SUCCEEDED] + job->nr_by_status[VS_TASK_FAILED];

	if (job->nr_by_status[VS_TASK_RUNNING] && unsched->set && unsched->status &&
	    unsched->transition == ssn->cycle)
		return VS_PG_UNKNOWN;
	if (scheduled >= job->min_member)
		return scheduled == completed ? VS_PG_COMPLETED : VS_PG_RUNNING;
	if (job->phase != VS_PG_INQUEUE)
		return VS_PG_PENDING;
	return job->phase;
}

int vs_session_open(struct vs_sched *sched, struct vs_session **out, struct vs_err *err)
{
	return open_session(sched, false, out, err);
}

int vs_session_open_inspect(struct vs_sched *sched, struct vs_session **out,
			    struct vs_err *err)
{
	return open_session(sched, true, out, err);
}

/*
 * schedule_attempts_total: the tasks placed by what the session committed,
 * and those it tried and left Pending with a fit error, once each.
 */
static void count_attempts(struct vs_session *ssn)
{
	struct vs_metrics *m = &ssn->sched->metrics;
	const struct vs_task_note *n;

	m->attempts[VS_ATTEMPT_SCHEDULED] += ssn->sched->stats.binds - ssn->binds_at_open;
	for (n = ssn->notes; n; n = n->next)
		m->attempts[VS_ATTEMPT_UNSCHEDULABLE] +=
			n->fit && n->task->status == VS_TASK_PENDING;
}

/*
 * The cache's taskUnschedulable, as the job updater calls it: a pending,
 * allocated or pipelined task (not gated) that a transaction pipelined with
 * room made by evictions gets that node as its nominated one, which the
 * status group writes (status.nominatedNodeName). Never cleared: a later
 * session that nominates nothing leaves it.
 */
static void note_nominated(struct vs_session *ssn)
{
	const u32 mask = VS_TASK_BIT(VS_TASK_PENDING) | VS_TASK_BIT(VS_TASK_ALLOCATED) |
			 VS_TASK_BIT(VS_TASK_PIPELINED);
	struct vs_err err = { { 0 } };

	for (const struct vs_task_note *n = ssn->notes; n; n = n->next) {
		const struct vs_node *node = vs_task_tx_nominated(n->task);

		if (!node || n->task->gated || !(mask & VS_TASK_BIT(n->task->status)))
			continue;
		if (vs_task_set_nominated(ssn->cl, n->task, node->name, &err))
			vs_error("task %s/%s: its nominated node %s is not kept: %s", n->task->ns,
				 n->task->name, node->name, err.msg);
	}
}

void vs_session_close(struct vs_session *ssn)
{
	const struct vs_decision_sink *sink = &ssn->sched->sink;
	struct vs_statement *stmt, *tmp;
	struct vs_task *t;

	close_plugins(ssn, ssn->nr_plugins);
	if (ssn->inspect) {
		/* Nothing was placed: nothing to discard, write or rest. */
		list_for_each_entry_safe(stmt, tmp, &ssn->open_stmts, node)
			vs_stmt_discard(stmt);
		vs_session_drop_notes(ssn);
		vs_arena_reset(ssn->arena);
		return;
	}

	/* The job updater: PodGroup phases of the jobs this session saw. */
	for (u32 i = 0; i < ssn->nr_jobs; i++)
		vs_job_set_phase(ssn->cl, ssn->jobs[i], pg_phase(ssn, ssn->jobs[i]));
	note_nominated(ssn);
	if (sink->job_status)
		for (u32 i = 0; i < ssn->nr_jobs; i++)
			sink->job_status(sink->ctx, ssn->jobs[i]);

	/* What the session leaves pipelined, committed or not, told before it is taken back. */
	if (sink->pipeline)
		for (u32 i = 0; i < ssn->nr_jobs; i++)
			list_for_each_entry(t, &ssn->jobs[i]->by_status[VS_TASK_PIPELINED],
					    status_node)
				sink->pipeline(sink->ctx, t, t->node);

	/* What nobody committed vanishes, as Volcano's snapshot does. */
	list_for_each_entry_safe(stmt, tmp, &ssn->open_stmts, node)
		vs_stmt_discard(stmt);
	count_attempts(ssn);
	/* What the session found, kept on each job for vsctl explain. */
	vs_explain_record(ssn);
	vs_session_drop_notes(ssn);
	ssn->traces = NULL;

	/* The jobs left with nothing to do rest until something about them changes. */
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		vs_job_rest(ssn->cl, ssn->jobs[i]);
		if (ssn->jobs[i]->resting)
			ssn->jobs[i]->sidx = VS_SIDX_NONE;
	}

	vs_hist_observe(&ssn->sched->metrics.e2e, &vs_hist_e2e, vs_mono_ns() - ssn->opened_ns);
	vs_arena_reset(ssn->arena);
}

int vs_session_allocate(struct vs_session *ssn, struct vs_task *task, struct vs_node *node,
			struct vs_err *err)
{
	struct vs_job *job = task->job;
	struct vs_task *t, *tmp;
	int ret;

	if (!ssn->direct) {
		ssn->direct = vs_stmt_new(ssn);
		if (!ssn->direct)
			return vs_err_set(err, ENOMEM, "out of memory");
	}
	ret = vs_stmt_allocate(ssn->direct, task, node, err);
	if (ret)
		return ret;
	if (!vs_ssn_job_ready(ssn, job))
		return 0;
	/* Dispatch moves each task to the Binding list: walk safely. */
	list_for_each_entry_safe(t, tmp, &job->by_status[VS_TASK_ALLOCATED], status_node) {
		ret = vs_ssn_dispatch(ssn, t);
		if (ret)
			return vs_err_set(err, ret, "failed to dispatch task %s/%s", t->ns, t->name);
	}
	return 0;
}

struct vs_plugin *vs_session_plugin(struct vs_session *ssn, const char *name)
{
	for (u32 i = 0; i < ssn->nr_plugins; i++)
		if (!strcmp(ssn->plugins[i].ops->name, name))
			return &ssn->plugins[i];
	return NULL;
}

s32 vs_session_job_priority(const struct vs_session *ssn, const struct vs_job *job)
{
	const struct vs_prioclass *pc = NULL;

	if (job->priority_class)
		pc = vs_prioclass_find(ssn->cl, job->priority_class);
	if (!pc)
		pc = vs_prioclass_default(ssn->cl);
	return pc ? pc->value : 0;
}

/* ---- the scheduler ---- */

int vs_sched_init(struct vs_sched *sched, struct vs_cluster *cl, const struct vs_registry *reg,
		  struct vs_conf *conf, struct vs_err *err)
{
	int ret = vs_registry_check_conf(reg, conf, err);

	/* Even a refused configuration leaves a scheduler vs_sched_destroy() takes. */
	memset(sched, 0, sizeof(*sched));
	vs_arena_init(&sched->arena, 0);
	vs_arena_init(&sched->dry, 0);
	vs_arena_init(&sched->topo_arena, 0);
	if (ret) {
		vs_conf_free(conf);
		return ret;
	}
	sched->cl = cl;
	sched->reg = reg;
	sched->conf = conf;
	return 0;
}

void vs_sched_destroy(struct vs_sched *sched)
{
	vs_fastpath_destroy(&sched->fast);
	vs_conf_free(sched->conf);
	if (sched->arena.chunks.next)		/* never initialised: nothing to free */
		vs_arena_destroy(&sched->arena);
	if (sched->dry.chunks.next)
		vs_arena_destroy(&sched->dry);
	if (sched->topo_arena.chunks.next)
		vs_arena_destroy(&sched->topo_arena);
	memset(sched, 0, sizeof(*sched));
}

int vs_sched_set_conf(struct vs_sched *sched, struct vs_conf *conf, struct vs_err *err)
{
	int ret = vs_registry_check_conf(sched->reg, conf, err);

	if (ret) {
		vs_conf_free(conf);
		return ret;
	}
	vs_conf_free(sched->conf);
	sched->conf = conf;
	/* Plugin arguments and flags are what scores and predicates weigh. */
	vs_fastpath_invalidate(&sched->fast);
	return 0;
}

int vs_session_run_actions(struct vs_session *ssn, struct vs_err *err)
{
	const struct vs_conf *conf = ssn->sched->conf;
	struct vs_metrics *m = &ssn->sched->metrics;

	for (u32 i = 0; i < conf->nr_actions; i++) {
		const char *name = conf->actions[i];
		const struct vs_action_ops *action = vs_registry_action(ssn->sched->reg, name);
		u64 t = vs_mono_ns();
		u32 k = vs_registry_action_index(ssn->sched->reg, name);
		int ret = action->execute(ssn, vs_conf_action_args(conf, name));

		t = vs_mono_ns() - t;
		ssn->nr_actions_run = i + 1;
		if (i < VS_SESSION_ACTIONS_TIMED)
			ssn->action_ns[i] = t;
		if (!ssn->inspect && k < VS_METRICS_ACTIONS_MAX)
			vs_hist_observe(&m->action[k], &vs_hist_action, t);
		if (ret)
			return vs_err_set(err, ret, "action %s failed", name);
	}
	return 0;
}

int vs_sched_run_cycle(struct vs_sched *sched, struct vs_err *err)
{
	struct vs_session *ssn;
	int ret;

	ret = vs_session_open(sched, &ssn, err);
	if (ret)
		return ret;
	ret = vs_session_run_actions(ssn, err);
	vs_session_close(ssn);
	return ret;
}

// SPDX-License-Identifier: Apache-2.0
/*
 * The framework: the registry of plugins and actions, the check of a
 * configuration against it, and the calls into each extension point with
 * Volcano's rules for combining plugins across tiers (see framework.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sched/framework.h"
#include "sched/session.h"
#include "sched/subjob.h"

/* ---- a predicate's words ---- */

void vs_fit_say(struct vs_fit_error *fe, const char *words, const char *name)
{
	size_t room = sizeof(fe->reason) - 1;
	size_t n = strnlen(words, room);
	size_t m = name ? strnlen(name, room - n) : 0;

	memcpy(fe->reason, words, n);
	if (m)
		memcpy(fe->reason + n, name, m);
	fe->reason[n + m] = '\0';
}

/* ---- the registry ---- */

int vs_registry_add_plugin(struct vs_registry *reg, const struct vs_plugin_ops *ops)
{
	if (vs_registry_plugin(reg, ops->name))
		return -EEXIST;
	if (reg->nr_plugins == VS_REGISTRY_MAX)
		return -ENOSPC;
	reg->plugin_names[reg->nr_plugins] = ops->name;
	reg->plugins[reg->nr_plugins++] = ops;
	return 0;
}

int vs_registry_add_action(struct vs_registry *reg, const struct vs_action_ops *ops)
{
	if (vs_registry_action(reg, ops->name))
		return -EEXIST;
	if (reg->nr_actions == VS_REGISTRY_MAX)
		return -ENOSPC;
	reg->action_names[reg->nr_actions] = ops->name;
	reg->actions[reg->nr_actions++] = ops;
	return 0;
}

u32 vs_registry_plugin_index(const struct vs_registry *reg, const char *name)
{
	u32 i;

	for (i = 0; i < reg->nr_plugins; i++)
		if (!strcmp(reg->plugins[i]->name, name))
			break;
	return i;
}

u32 vs_registry_action_index(const struct vs_registry *reg, const char *name)
{
	u32 i;

	for (i = 0; i < reg->nr_actions; i++)
		if (!strcmp(reg->actions[i]->name, name))
			break;
	return i;
}

const struct vs_plugin_ops *vs_registry_plugin(const struct vs_registry *reg, const char *name)
{
	u32 i = vs_registry_plugin_index(reg, name);

	return i < reg->nr_plugins ? reg->plugins[i] : NULL;
}

const struct vs_action_ops *vs_registry_action(const struct vs_registry *reg, const char *name)
{
	u32 i = vs_registry_action_index(reg, name);

	return i < reg->nr_actions ? reg->actions[i] : NULL;
}

void vs_registry_names(const struct vs_registry *reg, struct vs_conf_names *names)
{
	names->plugins = reg->plugin_names;
	names->nr_plugins = reg->nr_plugins;
	names->actions = reg->action_names;
	names->nr_actions = reg->nr_actions;
}

int vs_registry_check_conf(const struct vs_registry *reg, const struct vs_conf *conf,
			   struct vs_err *err)
{
	int ret;

	for (u32 i = 0; i < conf->nr_actions; i++)
		if (!vs_registry_action(reg, conf->actions[i]))
			return vs_err_set(err, EINVAL, "%s: unknown action \"%s\"",
					  conf->source, conf->actions[i]);
	for (u32 t = 0; t < conf->nr_tiers; t++) {
		for (u32 i = 0; i < conf->tiers[t].nr; i++) {
			const struct vs_conf_plugin *cp = &conf->tiers[t].plugins[i];
			const struct vs_plugin_ops *ops = vs_registry_plugin(reg, cp->name);

			if (!ops)
				return vs_err_set(err, EINVAL, "%s:%u: unknown plugin \"%s\"",
						  conf->source, cp->line, cp->name);
			if (ops->check_conf) {
				ret = ops->check_conf(cp, err);
				if (ret) {
					vs_err_prefix(err, "plugin %s: ", cp->name);
					return ret;
				}
			}
		}
	}
	for (u32 i = 0; i < conf->nr_configurations; i++) {
		const struct vs_conf_action *ca = &conf->configurations[i];
		const struct vs_action_ops *ops = vs_registry_action(reg, ca->name);

		if (!ops)
			return vs_err_set(err, EINVAL, "%s:%u: configuration for unknown action \"%s\"",
					  conf->source, ca->line, ca->name);
		if (ops->check_args) {
			ret = ops->check_args(&ca->args, err);
			if (ret) {
				vs_err_prefix(err, "action %s: ", ca->name);
				return ret;
			}
		}
	}
	return 0;
}

/* ---- the extension points ---- */

/* Each plugin taking part in extension point @e_, in tier order, as @p_. */
#define for_each_ext(ssn_, e_, i_, p_)						\
	for ((i_) = 0; (i_) < (ssn_)->ext[e_].nr && ((p_) = (ssn_)->ext[e_].p[i_]); (i_)++)

int vs_ssn_job_compare(struct vs_session *ssn, const struct vs_job *l, const struct vs_job *r)
{
	struct vs_plugin *p;
	u32 i;
	int c;

	for_each_ext(ssn, VS_EXT_JOB_ORDER, i, p)
		if ((c = p->ops->job_order(ssn, p, l, r)))
			return c;
	return 0;
}

/*
 * "@ans/@an" against "@bns/@bn", byte by byte, as Go compares strings.
 * A namespace holds no '/': where two differ, the shorter one's '/' is
 * compared with the other's next byte; equal ones leave the names.
 */
int vs_cmp_ns_name(const char *ans, const char *an, const char *bns, const char *bn)
{
	size_t i = 0;
	int c;

	while (ans[i] && ans[i] == bns[i])
		i++;
	if (ans[i] != bns[i]) {
		c = ans[i] ? (unsigned char)ans[i] : '/';
		return c < (bns[i] ? (unsigned char)bns[i] : '/') ? -1 : 1;
	}
	c = strcmp(an, bn);
	return c < 0 ? -1 : c > 0;
}

int vs_ssn_job_order(struct vs_session *ssn, const struct vs_job *l, const struct vs_job *r)
{
	int c = vs_ssn_job_compare(ssn, l, r);

	if (c)
		return c;
	/*
	 * CreationTimestamp, then UID: creation order. A PodGroup's job has
	 * the UID "namespace/name" in Volcano, which decides between jobs
	 * made in the same second; without a creation time, arrival does.
	 */
	if (l->created && l->created == r->created &&
	    (c = vs_cmp_ns_name(l->ns, l->name, r->ns, r->name)))
		return c;
	return vs_created_cmp(l->created, l->seq, r->created, r->seq);
}

int vs_ssn_queue_order(struct vs_session *ssn, const struct vs_queue *l,
		       const struct vs_queue *r)
{
	struct vs_plugin *p;
	u32 i;
	int c;

	for_each_ext(ssn, VS_EXT_QUEUE_ORDER, i, p)
		if ((c = p->ops->queue_order(ssn, p, l, r)))
			return c;
	/* a queue's UID is its name */
	if (l->created && l->created == r->created && (c = strcmp(l->name, r->name)))
		return c < 0 ? -1 : 1;
	return vs_created_cmp(l->created, l->seq, r->created, r->seq);
}

int vs_ssn_task_order(struct vs_session *ssn, const struct vs_task *l,
		      const struct vs_task *r)
{
	struct vs_plugin *p;
	u32 i;
	int c;

	for_each_ext(ssn, VS_EXT_TASK_ORDER, i, p)
		if ((c = p->ops->task_order(ssn, p, l, r)))
			return c;
	/*
	 * helpers.CompareTask: the pod indexes at the end of the names
	 * ("job-worker-2" before "job-worker-10"), else creation time, then UID.
	 */
	if (l->name_index != VS_NO_NAME_INDEX && r->name_index != VS_NO_NAME_INDEX &&
	    l->name_index != r->name_index)
		return l->name_index < r->name_index ? -1 : 1;
	return vs_created_cmp(l->created, l->seq, r->created, r->seq);
}

/*
 * VictimQueueOrderFn: the first plugin that tells the two apart decides;
 * otherwise the reverse of the queue order, so that victims come first from
 * the queue that would be served last.
 */
int vs_ssn_victim_queue_order(struct vs_session *ssn, const struct vs_queue *l,
			      const struct vs_queue *r, const struct vs_queue *preemptor)
{
	struct vs_plugin *p;
	u32 i;
	int c;

	for_each_ext(ssn, VS_EXT_VICTIM_QUEUE_ORDER, i, p)
		if ((c = p->ops->victim_queue_order(ssn, p, l, r, preemptor)))
			return c;
	return -vs_ssn_queue_order(ssn, l, r);
}

void vs_ssn_why(struct vs_session *ssn, const struct vs_plugin *p, const char *fmt, ...)
{
	struct vs_why *why = ssn->why;
	va_list ap;

	if (!why || why->plugin)
		return;
	why->plugin = p->ops->name;
	why->text[0] = '\0';
	if (why->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(why->text, sizeof(why->text), fmt, ap);
	va_end(ap);
}

/* @p refused what the caller asked about: it is the one, unless one said so first. */
static void refused_by(struct vs_session *ssn, const struct vs_plugin *p)
{
	if (unlikely(ssn->why) && !ssn->why->plugin) {
		ssn->why->plugin = p->ops->name;
		ssn->why->text[0] = '\0';
	}
}

bool vs_ssn_job_valid(struct vs_session *ssn, const struct vs_job *job,
		      struct vs_validate *res)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_JOB_VALID, i, p)
		if (!p->ops->job_valid(ssn, p, job, res)) {
			refused_by(ssn, p);
			return false;
		}
	return true;
}

/*
 * Votes: a rejection anywhere wins; the first tier holding a permit (and no
 * rejection) decides yes; with no decision at all the answer is yes.
 */
static bool vote(struct vs_session *ssn, enum vs_ext ext, const void *obj,
		 enum vs_vote (*call)(struct vs_session *, struct vs_plugin *, const void *))
{
	struct vs_plugin *p;
	bool permit = false;
	u32 i, tier = 0;

	for_each_ext(ssn, ext, i, p) {
		enum vs_vote v;

		if (p->tier != tier) {
			if (permit)
				return true;
			tier = p->tier;
		}
		v = call(ssn, p, obj);
		if (v == VS_VOTE_REJECT) {
			refused_by(ssn, p);
			return false;
		}
		if (v == VS_VOTE_PERMIT)
			permit = true;
	}
	return true;
}

static enum vs_vote call_enqueueable(struct vs_session *ssn, struct vs_plugin *p,
				     const void *job)
{
	return p->ops->job_enqueueable(ssn, p, job);
}

static enum vs_vote call_pipelined(struct vs_session *ssn, struct vs_plugin *p,
				   const void *job)
{
	return p->ops->job_pipelined(ssn, p, job);
}

static enum vs_vote call_subjob_pipelined(struct vs_session *ssn, struct vs_plugin *p,
					  const void *sj)
{
	return p->ops->subjob_pipelined(ssn, p, sj);
}

bool vs_ssn_job_enqueueable(struct vs_session *ssn, const struct vs_job *job)
{
	return vote(ssn, VS_EXT_JOB_ENQUEUEABLE, job, call_enqueueable);
}

bool vs_ssn_job_pipelined(struct vs_session *ssn, const struct vs_job *job)
{
	return vote(ssn, VS_EXT_JOB_PIPELINED, job, call_pipelined);
}

void vs_ssn_job_enqueued(struct vs_session *ssn, const struct vs_job *job)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_JOB_ENQUEUED, i, p)
		p->ops->job_enqueued(ssn, p, job);
}

bool vs_ssn_job_ready(struct vs_session *ssn, const struct vs_job *job)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_JOB_READY, i, p)
		if (!p->ops->job_ready(ssn, p, job))
			return false;
	return true;
}

bool vs_ssn_subjob_ready(struct vs_session *ssn, const struct vs_subjob *sj)
{
	struct vs_plugin *p;
	u32 i;

	if (!sj->job->nr_subgroups)
		return vs_ssn_job_ready(ssn, sj->job);
	for_each_ext(ssn, VS_EXT_SUBJOB_READY, i, p)
		if (!p->ops->subjob_ready(ssn, p, sj))
			return false;
	return true;
}

bool vs_ssn_subjob_pipelined(struct vs_session *ssn, const struct vs_subjob *sj)
{
	if (!sj->job->nr_subgroups)
		return vs_ssn_job_pipelined(ssn, sj->job);
	return vote(ssn, VS_EXT_SUBJOB_PIPELINED, sj, call_subjob_pipelined);
}

int vs_ssn_subjob_order(struct vs_session *ssn, const struct vs_subjob *l,
			const struct vs_subjob *r)
{
	struct vs_plugin *p;
	u32 i;
	int c;

	for_each_ext(ssn, VS_EXT_SUBJOB_ORDER, i, p)
		if ((c = p->ops->subjob_order(ssn, p, l, r)))
			return c;
	if (l->match_index != r->match_index)
		return l->match_index < r->match_index ? -1 : 1;
	return strcmp(l->uid, r->uid);
}

/* The first tier that has a plugin decides; all of that tier must agree. */
bool vs_ssn_job_starving(struct vs_session *ssn, const struct vs_job *job)
{
	struct vs_plugin *p;
	u32 i, tier;

	if (!ssn->ext[VS_EXT_JOB_STARVING].nr)
		return false;
	tier = ssn->ext[VS_EXT_JOB_STARVING].p[0]->tier;
	for_each_ext(ssn, VS_EXT_JOB_STARVING, i, p) {
		if (p->tier != tier)
			break;
		if (!p->ops->job_starving(ssn, p, job))
			return false;
	}
	return true;
}

bool vs_ssn_overused(struct vs_session *ssn, const struct vs_queue *queue)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_OVERUSED, i, p)
		if (p->ops->overused(ssn, p, queue)) {
			refused_by(ssn, p);
			return true;
		}
	return false;
}

bool vs_ssn_allocatable(struct vs_session *ssn, const struct vs_queue *queue,
			const struct vs_task *task)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_ALLOCATABLE, i, p)
		if (!p->ops->allocatable(ssn, p, queue, task)) {
			refused_by(ssn, p);
			return false;
		}
	return true;
}

bool vs_ssn_preemptive_req(struct vs_session *ssn, const struct vs_queue *queue,
			   const struct vs_res *req)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_PREEMPTIVE, i, p)
		if (!p->ops->preemptive(ssn, p, queue, req))
			return false;
	return true;
}

bool vs_ssn_preemptive(struct vs_session *ssn, const struct vs_queue *queue,
		       const struct vs_task *task)
{
	return vs_ssn_preemptive_req(ssn, queue, task->req);
}

int vs_ssn_pre_predicate(struct vs_session *ssn, const struct vs_task *task,
			 struct vs_fit_error *fe)
{
	struct vs_plugin *p;
	u32 i;
	int ret;

	for_each_ext(ssn, VS_EXT_PRE_PREDICATE, i, p)
		if ((ret = p->ops->pre_predicate(ssn, p, task, fe)))
			return ret;
	return 0;
}

int vs_ssn_predicate(struct vs_session *ssn, const struct vs_task *task,
		     const struct vs_node *node, struct vs_fit_error *fe)
{
	struct vs_plugin *p;
	u32 i;
	int ret;

	for_each_ext(ssn, VS_EXT_PREDICATE, i, p)
		if ((ret = p->ops->predicate(ssn, p, task, node, fe)))
			return ret;
	return 0;
}

bool vs_ssn_mark_refused(struct vs_session *ssn, const struct vs_task *task, u32 epoch,
			 void (*mark)(void *arg, const struct vs_node *node), void *arg,
			 struct vs_fit_error *fe)
{
	struct vs_plugin *p;
	bool any = true;
	u32 i;

	for_each_ext(ssn, VS_EXT_PREDICATE, i, p)
		if (p->ops->mark_refused && !p->ops->mark_refused(ssn, p, task, epoch, mark, arg, fe))
			any = false;
	return any;
}

bool vs_ssn_class_fails(struct vs_session *ssn, const struct vs_task *task,
			const struct vs_node *node)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_PREDICATE, i, p)
		if (p->ops->class_fails && p->ops->class_fails(ssn, p, task, node))
			return true;
	return false;
}

double vs_ssn_node_order(struct vs_session *ssn, const struct vs_task *task,
			 const struct vs_node *node)
{
	struct vs_plugin *p;
	double score = 0;
	u32 i;

	for_each_ext(ssn, VS_EXT_NODE_ORDER, i, p)
		score += p->ops->node_order(ssn, p, task, node);
	return score;
}

/* Room for @nr candidates in the session's victim masks; false when out of memory. */
static bool victim_scratch(struct vs_session *ssn, u32 nr)
{
	u32 cap = ssn->victim_cap ? ssn->victim_cap : 64;

	if (nr <= ssn->victim_cap)
		return true;
	while (cap < nr)
		cap *= 2;
	/* Doubling: the arena holds at most twice the largest call's need. */
	ssn->victim_keep = vs_arena_alloc(ssn->arena, cap * sizeof(bool));
	ssn->victim_acc = vs_arena_alloc(ssn->arena, cap * sizeof(bool));
	if (!ssn->victim_keep || !ssn->victim_acc) {
		ssn->victim_cap = 0;
		return false;
	}
	ssn->victim_cap = cap;
	return true;
}

/* Who asks: a task (PreemptableFn, ReclaimableFn) or a job (UnifiedEvictableFn). */
struct evictor {
	const struct vs_task *task;
	const struct vs_evict_ctx *ctx;
};

static enum vs_vote victim_vote(struct vs_session *ssn, struct vs_plugin *p, enum vs_ext ext,
				const struct evictor *ev, struct vs_task *const *cands, u32 nr,
				bool *keep)
{
	switch (ext) {
	case VS_EXT_PREEMPTABLE:
		return p->ops->preemptable(ssn, p, ev->task, cands, nr, keep);
	case VS_EXT_RECLAIMABLE:
		return p->ops->reclaimable(ssn, p, ev->task, cands, nr, keep);
	default:
		return p->ops->unified_evictable(ssn, p, ev->ctx, cands, nr, keep);
	}
}

/*
 * Volcano's Session.Preemptable, Reclaimable and UnifiedEvictable: acc is
 * the running intersection ("victims"), has tells Go's nil from a
 * non-empty list.
 */
static u32 victims(struct vs_session *ssn, enum vs_ext ext, const struct evictor *ev,
		   struct vs_task **cands, u32 nr)
{
	bool *keep, *acc, has = false, skip = false;
	struct vs_plugin *p;
	u32 i, tier = 0, out = 0;

	if (!nr || !victim_scratch(ssn, nr))
		return 0;
	keep = ssn->victim_keep;
	acc = ssn->victim_acc;
	for_each_ext(ssn, ext, i, p) {
		u32 kept = 0;

		if (p->tier != tier) {
			if (has)
				break;
			tier = p->tier;
			skip = false;
		}
		if (skip)
			continue;
		memset(keep, 0, nr * sizeof(*keep));
		if (victim_vote(ssn, p, ext, ev, cands, nr, keep) == VS_VOTE_ABSTAIN)
			continue;
		for (u32 c = 0; c < nr; c++)
			kept += keep[c];
		if (!kept) {
			/* Go leaves the tier with victims = nil. */
			has = false;
			skip = true;
			continue;
		}
		kept = 0;
		for (u32 c = 0; c < nr; c++) {
			acc[c] = has ? acc[c] && keep[c] : keep[c];
			kept += acc[c];
		}
		/* An empty intersection is nil again: the next plugin starts over. */
		has = kept > 0;
	}
	if (!has)
		return 0;
	for (u32 c = 0; c < nr; c++)
		if (acc[c])
			cands[out++] = cands[c];
	return out;
}

u32 vs_ssn_preemptable(struct vs_session *ssn, const struct vs_task *evictor,
		       struct vs_task **cands, u32 nr)
{
	return victims(ssn, VS_EXT_PREEMPTABLE, &(struct evictor){ .task = evictor }, cands, nr);
}

u32 vs_ssn_reclaimable(struct vs_session *ssn, const struct vs_task *evictor,
		       struct vs_task **cands, u32 nr)
{
	return victims(ssn, VS_EXT_RECLAIMABLE, &(struct evictor){ .task = evictor }, cands, nr);
}

u32 vs_ssn_unified_evictable(struct vs_session *ssn, const struct vs_evict_ctx *ctx,
			     struct vs_task **cands, u32 nr)
{
	return victims(ssn, VS_EXT_UNIFIED_EVICTABLE, &(struct evictor){ .ctx = ctx }, cands, nr);
}

void vs_ssn_score_nodes(struct vs_session *ssn, const struct vs_task *task,
			struct vs_node *const *nodes, u32 nr, double *scores)
{
	struct vs_plugin *p;
	u32 i;

	for (u32 n = 0; n < nr; n++)
		scores[n] = vs_ssn_node_order(ssn, task, nodes[n]);
	for_each_ext(ssn, VS_EXT_BATCH_NODE_ORDER, i, p)
		p->ops->batch_node_order(ssn, p, task, nodes, nr, scores);
}

struct vs_plugin *vs_ssn_split_plugin(const struct vs_session *ssn)
{
	const struct vs_ext_list *l = &ssn->ext[VS_EXT_BATCH_NODE_ORDER];
	struct vs_plugin *p = l->nr ? l->p[l->nr - 1] : NULL;

	return p && p->ops->split_begin && p->ops->split_score ? p : NULL;
}

void vs_ssn_score_nodes_local(struct vs_session *ssn, const struct vs_task *task,
			      struct vs_node *const *nodes, u32 nr, double *scores)
{
	struct vs_plugin *p, *split = vs_ssn_split_plugin(ssn);
	u32 i;

	for (u32 n = 0; n < nr; n++)
		scores[n] = vs_ssn_node_order(ssn, task, nodes[n]);
	for_each_ext(ssn, VS_EXT_BATCH_NODE_ORDER, i, p)
		if (p != split)
			p->ops->batch_node_order(ssn, p, task, nodes, nr, scores);
}

bool vs_ssn_split_begin(struct vs_session *ssn, const struct vs_task *task, bool one_leaf,
			double *bound)
{
	struct vs_plugin *p = vs_ssn_split_plugin(ssn);

	return p && p->ops->split_begin(ssn, p, task, one_leaf, bound);
}

double vs_ssn_split_score(struct vs_session *ssn, const struct vs_task *task,
			  const struct vs_node *node)
{
	struct vs_plugin *p = vs_ssn_split_plugin(ssn);

	return p ? p->ops->split_score(ssn, p, task, node) : 0;
}

struct vs_node *vs_ssn_best_node(struct vs_session *ssn, const struct vs_task *task,
				 const struct vs_node_score *scores, u32 nr)
{
	struct vs_plugin *p;
	struct vs_node *node;
	u32 i;

	for_each_ext(ssn, VS_EXT_BEST_NODE, i, p)
		if ((node = p->ops->best_node(ssn, p, task, scores, nr)))
			return node;
	return NULL;
}

void vs_ssn_on_allocate(struct vs_session *ssn, struct vs_task *task)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_EVENT_ALLOCATE, i, p)
		p->ops->on_allocate(ssn, p, task);
}

void vs_ssn_on_deallocate(struct vs_session *ssn, struct vs_task *task, struct vs_node *node)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_EVENT_DEALLOCATE, i, p)
		p->ops->on_deallocate(ssn, p, task, node);
}

int vs_ssn_hn_gradient(struct vs_session *ssn, const struct vs_hn_search *s,
		       struct vs_hn_gradients *out)
{
	struct vs_plugin *p;
	u32 i;

	for_each_ext(ssn, VS_EXT_HN_GRADIENT, i, p)
		return p->ops->hn_gradient(ssn, p, s, out);
	/* Volcano: without a gradient function, the HyperNode it was given. */
	out->hns = vs_arena_alloc(ssn->arena, sizeof(*out->hns));
	out->start = vs_arena_alloc(ssn->arena, 2 * sizeof(*out->start));
	if (!out->hns || !out->start)
		return -ENOMEM;
	out->hns[0] = s->root;
	out->start[0] = 0;
	out->start[1] = 1;
	out->nr = 1;
	return 0;
}

void vs_ssn_hn_order(struct vs_session *ssn, const struct vs_hn_search *s, const u32 *hns,
		     u32 nr, double *scores)
{
	struct vs_plugin *p;
	u32 i;

	for (u32 n = 0; n < nr; n++)
		scores[n] = 0;
	for_each_ext(ssn, VS_EXT_HN_ORDER, i, p)
		p->ops->hn_order(ssn, p, s, hns, nr, scores);
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Why a job or a task is where it is: see explain.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/node.h"
#include "sched/explain.h"
#include "sched/fiterr.h"
#include "sched/framework.h"
#include "sched/session.h"
#include "sched/subjob.h"
#include "sched/topology.h"

/* ---- what a session found, kept on the job ---- */

/* How a task's note explains it did not get a node. */
enum why_fit {
	WHY_FIT_NONE,
	WHY_FIT_PREDICATES,		/* every node refused it: the histogram */
	WHY_FIT_PRE_PREDICATE,		/* PrePredicate refused it */
	WHY_FIT_MESSAGE,		/* a message alone (its role failed before) */
};

/* One task the session noted something about. */
struct why_task {
	u64 seq;			/* the task: creation order is unique */
	u8 fit;				/* enum why_fit */
	u8 tx;				/* what a discarded statement made it; PENDING: nothing */
	bool pipelined;			/* left pipelined on @node by a committed statement */
	u32 node;			/* text: the node of @tx or @pipelined */
	u32 text;			/* text: the fit errors, in kube-scheduler's words */
};

/*
 * The block a job keeps (job->why): a header, the tasks, then their texts.
 * A text is an offset into the text area, whose first byte is '\0', so
 * that offset 0 is "".
 */
struct vs_job_why {
	u64 cycle;			/* the session that wrote it */
	u64 next_seq;			/* the cluster's then: tasks made later it never saw */
	u32 size;			/* bytes allocated */
	u8 step;			/* enum vs_why_step */
	bool admitted;
	u32 placed, min_member;
	u32 refused;			/* tasks Allocatable refused... */
	u64 first_refused;		/* ...the first of them (seq) */
	u32 reason, words;		/* text */
	u32 topo;			/* text: a HyperNode search's lines, the summary last */
	u32 subs;			/* text: the sub-groups' lines, the summary last */
	u32 nr_tasks;
	struct why_task tasks[];
};

static char *why_text(const struct vs_job_why *w)
{
	return (char *)&w->tasks[w->nr_tasks];
}

static const char *text_at(const struct vs_job_why *w, u32 off)
{
	return why_text(w) + off;
}

struct vs_job_trace *vs_trace(struct vs_session *ssn, const struct vs_job *job)
{
	if (job->sidx >= ssn->nr_jobs || ssn->jobs[job->sidx] != job)
		return NULL;
	if (!ssn->traces) {
		ssn->traces = vs_arena_calloc(ssn->arena, ssn->nr_jobs, sizeof(*ssn->traces));
		if (!ssn->traces)
			return NULL;
	}
	return &ssn->traces[job->sidx];
}

void vs_trace_words(struct vs_session *ssn, struct vs_job_trace *t, const struct vs_why *why,
		    const char *what)
{
	const char *text = what ? what : why->text;
	size_t n;

	if (!why->plugin)
		return;
	n = strlen(why->plugin) + 2 + strlen(text) + 1;
	t->words = vs_arena_alloc(ssn->arena, n);
	if (!t->words)
		return;
	if (*text)
		snprintf(t->words, n, "%s: %s", why->plugin, text);
	else
		snprintf(t->words, n, "%s", why->plugin);
}

struct vs_topo_trace *vs_trace_topo(struct vs_session *ssn, struct vs_job_trace *t,
				    const struct vs_topo *topo, s32 highest_tier, u32 allocated,
				    const struct vs_hn_gradients *g, const struct vs_res *min)
{
	struct vs_topo_trace *tt;
	u32 nr = g ? g->start[g->nr] : 0;

	if (!t)
		return NULL;
	tt = vs_arena_zalloc(ssn->arena, sizeof(*tt));
	t->topo = tt;
	if (!tt)
		return NULL;
	tt->topo = topo;
	tt->highest_tier = highest_tier;
	tt->allocated = allocated;
	tt->no_root = !g;
	tt->min = *min;
	if (!g)
		return tt;
	tt->hns = g->hns;
	tt->start = g->start;
	tt->nr_gradients = g->nr;
	tt->placed = vs_arena_calloc(ssn->arena, nr + 1, sizeof(*tt->placed));
	tt->sub_empty = vs_arena_calloc(ssn->arena, nr + 1, sizeof(*tt->sub_empty));
	if (!tt->sub_empty)
		tt->placed = NULL;	/* no dry run is noted */
	return tt;
}

void vs_trace_topo_sub_empty(struct vs_topo_trace *tt, const struct vs_res *min)
{
	if (!tt || !tt->nr_tried)
		return;
	tt->sub_empty[tt->nr_tried - 1] = true;
	if (!tt->has_sub_min) {
		tt->sub_min = *min;
		tt->has_sub_min = true;
	}
}

void vs_trace_subs_placed(struct vs_session *ssn, struct vs_job_trace *t,
			  const struct vs_subjobs *sjs)
{
	u32 total = 0;

	if (!t || !sjs)
		return;
	if (!t->sub_placed) {
		t->sub_placed = vs_arena_calloc(ssn->arena, sjs->nr, sizeof(*t->sub_placed));
		if (!t->sub_placed)
			return;
		t->subs = sjs;
	}
	for (u32 i = 0; i < sjs->nr; i++)
		total += vs_subjob_ready_num(&sjs->sj[i]) + vs_subjob_waiting_num(&sjs->sj[i]);
	if (total < t->sub_best || (total == t->sub_best && t->sub_best))
		return;
	t->sub_best = total;
	for (u32 i = 0; i < sjs->nr; i++)
		t->sub_placed[i] = vs_subjob_ready_num(&sjs->sj[i]) +
				   vs_subjob_waiting_num(&sjs->sj[i]);
}

void vs_explain_free(struct vs_job *job)
{
	free(job->why);
	job->why = NULL;
}

static bool note_says(const struct vs_task_note *n)
{
	return n->fit || (n->has_last_tx && n->last_tx != VS_TASK_PENDING) ||
	       n->committed_pipeline;
}

static const struct vs_node *note_node(const struct vs_task_note *n)
{
	if (n->committed_pipeline)
		return n->committed_pipeline;
	return n->has_last_tx ? n->last_tx_node : NULL;
}

/*
 * The bytes of a note's texts in a block: its fit errors, formatted here
 * once (into the arena, for why_add_task() to copy), and its node's name.
 * The message that a task's role failed before is left out: the task's
 * name and role say it again (explain_fit_message()).
 */
static u32 note_bytes(struct vs_session *ssn, struct vs_task_note *n)
{
	const struct vs_node *node = note_node(n);
	u32 b = 0;

	if (n->fit && !n->fit->err) {
		char buf[1024];
		int len = vs_fit_errors_format_kube(n->fit, buf, sizeof(buf));
		char *s = vs_arena_alloc(ssn->arena, (size_t)len + 1);

		if (s && (size_t)len < sizeof(buf))
			memcpy(s, buf, (size_t)len + 1);
		else if (s)
			vs_fit_errors_format_kube(n->fit, s, (size_t)len + 1);
		n->fit_text = s;
		b += s ? (u32)len + 1 : 0;
	}
	if (node)
		b += (u32)strlen(node->name) + 1;
	return b;
}

/* The HyperNodes and dry runs an explanation names one by one; the rest are counted. */
#define TOPO_NAMES	8

/*
 * The lines of a HyperNode search that found no place for the job, '\n'
 * apart, the summary last (Documentation/scheduling.md, "Why a topology
 * job waits"). Volcano logs the search; its words are kept where it has
 * some ("hyperNode", "highestTierAllowed").
 */
static int topo_lines(const struct vs_job *job, const struct vs_topo_trace *tt, char *buf,
		      size_t len)
{
	const struct vs_topo *topo = tt->topo;
	const struct vs_net_topology *nt = &job->net_topology;
	u32 nr_hns = tt->nr_gradients ? tt->start[tt->nr_gradients] : 0;
	u32 best = 0;
	char res[256], scope[32];
	int off = 0;

	if (nt->mode == VS_NT_SOFT)
		VS_APPEND(buf, len, off, "Network topology: soft, tried as hard: any HyperNode\n");
	else
		VS_APPEND(buf, len, off, "Network topology: hard, highestTierAllowed %d\n",
			  tt->highest_tier);
	if (tt->no_root) {
		VS_APPEND(buf, len, off, "No HyperNode within tier %d holds its AllocatedHyperNode "
			  "%s: the rest of the job has nowhere to go", tt->highest_tier,
			  tt->allocated != VS_TOPO_NONE ? topo->hns[tt->allocated].name : "");
		return off;
	}
	vs_res_fmt(job->dims, res, sizeof(res), &tt->min);
	if (tt->allocated != VS_TOPO_NONE)
		VS_APPEND(buf, len, off, "Partly placed in hyperNode %s: the HyperNodes within "
			  "tier %d around it are tried\n", topo->hns[tt->allocated].name,
			  tt->highest_tier);
	else if (!tt->nr_gradients) {
		if (vs_res_is_empty(&tt->min))
			VS_APPEND(buf, len, off, "There is no HyperNode within tier %d",
				  tt->highest_tier);
		else
			VS_APPEND(buf, len, off, "No HyperNode within tier %d can hold its minimum "
				  "resources <%s> (idle or future idle)", tt->highest_tier, res);
		return off;
	} else if (!vs_res_is_empty(&tt->min)) {
		VS_APPEND(buf, len, off, "A HyperNode must hold its minimum resources <%s> (idle "
			  "or future idle)\n", res);
	}
	for (u32 k = 0; k < tt->nr_gradients; k++) {
		u32 from = tt->start[k], to = tt->start[k + 1];

		VS_APPEND(buf, len, off, "Tier %d: %u HyperNode(s) to try:",
			  topo->hns[tt->hns[from]].tier, to - from);
		for (u32 i = from; i < to && i < from + TOPO_NAMES; i++)
			VS_APPEND(buf, len, off, " %s", topo->hns[tt->hns[i]].name);
		VS_APPEND(buf, len, off, "%s\n", to - from > TOPO_NAMES ? " ..." : "");
	}
	for (u32 i = 0; i < tt->nr_tried && i < nr_hns; i++) {
		if (tt->placed[i] > tt->placed[best])
			best = i;
		if (i >= TOPO_NAMES)
			continue;
		VS_APPEND(buf, len, off, "HyperNode %s: %u of %u tasks placed",
			  topo->hns[tt->hns[i]].name, tt->placed[i], job->min_member);
		if (tt->sub_empty[i]) {
			vs_res_fmt(job->dims, res, sizeof(res), &tt->sub_min);
			VS_APPEND(buf, len, off, ": neither it nor a HyperNode in it can hold the "
				  "pending tasks <%s> (idle or future idle)", res);
		}
		VS_APPEND(buf, len, off, "\n");
	}
	if (tt->nr_tried > TOPO_NAMES)
		VS_APPEND(buf, len, off, "... and %u more HyperNode(s) tried\n",
			  tt->nr_tried - TOPO_NAMES);
	/* soft mode's tier is the cluster top's, which no user wrote */
	if (nt->mode == VS_NT_SOFT)
		snprintf(scope, sizeof(scope), "in the cluster");
	else
		snprintf(scope, sizeof(scope), "within tier %d", tt->highest_tier);
	if (!tt->nr_tried)
		VS_APPEND(buf, len, off, "No HyperNode %s was tried", scope);
	else if (!tt->placed[best])
		VS_APPEND(buf, len, off, "No HyperNode %s holds the gang: no task placed under "
			  "any of the %u tried", scope, tt->nr_tried);
	else
		VS_APPEND(buf, len, off, "No HyperNode %s holds the gang: %u of %u tasks placed "
			  "under the best (%s)", scope, tt->placed[best], job->min_member,
			  topo->hns[tt->hns[best]].name);
	return off;
}

/*
 * The sub-groups of a job that did not become ready, as its best dry run
 * left them: each one's tasks placed of those it needs (the first
 * TOPO_NAMES short ones), then the summary: the policy whose minSubGroups
 * was not met, or the PodGroup's minMember.
 */
static int sub_lines(const struct vs_job *job, const struct vs_job_trace *t, char *buf,
		     size_t len)
{
	const struct vs_subjobs *sjs = t->subs;
	u32 shown = 0, short_ = 0;
	int off = 0;

	for (u32 i = 0; i < sjs->nr; i++) {
		const struct vs_subjob *sj = &sjs->sj[i];

		if (t->sub_placed[i] >= sj->min_available)
			continue;
		short_++;
		if (shown++ < TOPO_NAMES)
			VS_APPEND(buf, len, off, "Sub-group %s: %u of the %u tasks it needs placed\n",
				  sj->uid, t->sub_placed[i], sj->min_available);
	}
	if (shown > TOPO_NAMES)
		VS_APPEND(buf, len, off, "... and %u more sub-group(s) short\n", shown - TOPO_NAMES);
	for (u32 g = 0; g < job->nr_subgroups; g++) {
		u32 min, ready = 0, all = 0;

		if (vs_subjob_group(job, g) != g || !(min = vs_subjob_group_min(job, g)))
			continue;
		for (u32 i = 0; i < sjs->nr; i++) {
			const struct vs_subjob *sj = &sjs->sj[i];

			if (sj->policy == VS_SUBJOB_DEFAULT || vs_subjob_group(job, sj->policy) != g)
				continue;
			all++;
			ready += t->sub_placed[i] >= sj->min_available;
		}
		if (ready < min) {
			VS_APPEND(buf, len, off, "Sub-group policy %s: %u of the %u sub-groups "
				  "minSubGroups needs were placed (%u sub-group(s) in all)",
				  job->subgroups[g].name, ready, min, all);
			return off;
		}
	}
	if (short_)
		VS_APPEND(buf, len, off, "%u sub-group(s) could not place the tasks they need",
			  short_);
	else
		VS_APPEND(buf, len, off, "Every sub-group was placed: %u of the %u tasks minMember "
			  "needs", t->sub_best, job->min_member);
	return off;
}

/* The words of @t's sub-groups (arena), for a job with sub-groups that waits. */
static void sub_words(struct vs_session *ssn, const struct vs_job *job, struct vs_job_trace *t)
{
	char buf[2048];
	int len;

	t->sub_text = NULL;
	if (!t->sub_placed || t->step == VS_WHY_COMMITTED || t->step == VS_WHY_PIPELINED ||
	    t->refused)
		return;
	len = sub_lines(job, t, buf, sizeof(buf));
	if ((size_t)len >= sizeof(buf))
		len = (int)sizeof(buf) - 1;
	t->sub_text = vs_arena_alloc(ssn->arena, (size_t)len + 1);
	if (!t->sub_text)
		return;
	memcpy(t->sub_text, buf, (size_t)len);
	t->sub_text[len] = '\0';
}

/* The words of @t's HyperNode search (arena), for a job it found no place for. */
static void topo_words(struct vs_session *ssn, const struct vs_job *job, struct vs_job_trace *t)
{
	const struct vs_topo_trace *tt = t->topo;
	char buf[4096];
	u32 most = 0;
	int len;

	t->topo_text = NULL;
	/* Allocatable's refusal says why the job waits, not the HyperNodes */
	if (!tt || t->step == VS_WHY_COMMITTED || t->step == VS_WHY_PIPELINED || t->refused)
		return;
	if (!tt->no_root && tt->nr_gradients) {
		if (!tt->placed)
			return;
		for (u32 i = 0; i < tt->nr_tried; i++)
			most = tt->placed[i] > most ? tt->placed[i] : most;
		/* the gang held somewhere: what stopped the rest was no HyperNode's */
		if (most >= job->min_member)
			return;
	}
	len = topo_lines(job, t->topo, buf, sizeof(buf));
	if ((size_t)len >= sizeof(buf))
		len = (int)sizeof(buf) - 1;	/* cut: the summary is lost, not the rest */
	t->topo_text = vs_arena_alloc(ssn->arena, (size_t)len + 1);
	if (!t->topo_text)
		return;
	memcpy(t->topo_text, buf, (size_t)len);
	t->topo_text[len] = '\0';
}

/* Append @s at @pos of @w's text; its offset. */
static u32 put_text(struct vs_job_why *w, u32 *pos, const char *s)
{
	u32 off = *pos;
	size_t n = strlen(s) + 1;

	memcpy(why_text(w) + off, s, n);
	*pos += (u32)n;
	return off;
}

static size_t opt_len(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

/*
 * The block of @job for this session, with room for its noted tasks (their
 * number is final: the notes are counted first); NULL when out of memory.
 */
static struct vs_job_why *why_begin(struct vs_session *ssn, struct vs_job *job,
				    struct vs_job_trace *t)
{
	size_t size = sizeof(struct vs_job_why) + t->nr_notes * sizeof(struct why_task) + 1 +
		      opt_len(t->reason) + opt_len(t->words) + opt_len(t->topo_text) +
		      opt_len(t->sub_text) +
		      t->text_bytes;
	struct vs_job_why *w = job->why;
	u32 pos = 1;

	if (size > UINT32_MAX)
		return NULL;
	if (!w || w->size < size) {
		w = realloc(w, size);
		if (!w)
			return NULL;	/* the old block stays, with its own cycle */
		w->size = (u32)size;
		job->why = w;
	}
	w->cycle = ssn->cycle;
	w->next_seq = ssn->cl->seq;
	w->step = t->step;
	w->admitted = t->admitted;
	w->placed = t->placed;
	w->min_member = job->min_member;
	w->refused = t->refused;
	w->first_refused = t->first_refused ? t->first_refused->seq : 0;
	w->nr_tasks = t->nr_notes;
	why_text(w)[0] = '\0';
	w->reason = t->reason ? put_text(w, &pos, t->reason) : 0;
	w->words = t->words ? put_text(w, &pos, t->words) : 0;
	w->topo = t->topo_text ? put_text(w, &pos, t->topo_text) : 0;
	w->subs = t->sub_text ? put_text(w, &pos, t->sub_text) : 0;
	t->filled = 0;
	t->text_pos = pos;
	return w;
}

static void why_add_task(struct vs_job_why *w, struct vs_job_trace *t,
			 const struct vs_task_note *n)
{
	const struct vs_node *node = note_node(n);
	struct why_task *e = &w->tasks[t->filled++];

	e->seq = n->task->seq;
	e->fit = WHY_FIT_NONE;
	e->tx = n->has_last_tx ? n->last_tx : VS_TASK_PENDING;
	e->pipelined = n->committed_pipeline != NULL;
	e->node = node ? put_text(w, &t->text_pos, node->name) : 0;
	e->text = n->fit_text ? put_text(w, &t->text_pos, n->fit_text) : 0;
	if (n->fit)
		e->fit = n->fit->err ? WHY_FIT_MESSAGE :
			 n->fit->pre_predicate ? WHY_FIT_PRE_PREDICATE : WHY_FIT_PREDICATES;
}

/*
 * Whether a job has something to explain: it was stopped somewhere, a task
 * was noted, or tasks wait. A job whose tasks all got a node keeps no
 * block (a steady cycle allocates nothing for the jobs it places).
 */
static bool worth_keeping(const struct vs_job *job, const struct vs_job_trace *t)
{
	if (!t)
		return false;
	if (t->nr_notes || t->refused)
		return true;
	/* a HyperNode search that found no place: the job waits for one */
	if (t->topo && t->step != VS_WHY_COMMITTED && t->step != VS_WHY_PIPELINED &&
	    job->nr_by_status[VS_TASK_PENDING])
		return true;
	switch (t->step) {
	case VS_WHY_NONE:
	case VS_WHY_COMMITTED:
		return (t->step || t->admitted) && job->nr_by_status[VS_TASK_PENDING];
	default:
		return true;
	}
}

void vs_explain_record(struct vs_session *ssn)
{
	struct vs_task_note *n;

	/* The same notes, in the same order, in both walks: nr_notes entries each. */
	for (n = ssn->notes; n; n = n->next) {
		struct vs_job_trace *t;

		if (!note_says(n) || !(t = vs_trace(ssn, n->task->job)))
			continue;
		t->nr_notes++;
		t->text_bytes += note_bytes(ssn, n);
	}
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		struct vs_job *job = ssn->jobs[i];
		struct vs_job_trace *t = ssn->traces ? &ssn->traces[i] : NULL;

		if (!worth_keeping(job, t)) {
			if (job->why)
				vs_explain_free(job);
			continue;
		}
		topo_words(ssn, job, t);
		sub_words(ssn, job, t);
		if (!why_begin(ssn, job, t))
			t->nr_notes = 0;	/* it keeps its old block, which says its cycle */
	}
	for (n = ssn->notes; n; n = n->next) {
		struct vs_job_trace *t;

		if (!note_says(n) || !(t = vs_trace(ssn, n->task->job)) || !t->nr_notes)
			continue;
		why_add_task(n->task->job->why, t, n);
	}
}

/* ---- the explanation ---- */

void vs_explain_init(struct vs_explain *ex)
{
	memset(ex, 0, sizeof(*ex));
}

void vs_explain_release(struct vs_explain *ex)
{
	free(ex->message);
	free(ex->steps);
	memset(ex, 0, sizeof(*ex));
}

const char *vs_explain_first(const struct vs_explain *ex)
{
	return ex->nr_steps ? ex->steps : NULL;
}

const char *vs_explain_next(const struct vs_explain *ex, const char *step)
{
	const char *next = step + strlen(step) + 1;

	return next < ex->steps + ex->len ? next : NULL;
}

__printf(2, 0)
static char *vfmt(struct vs_explain *ex, const char *fmt, va_list ap)
{
	va_list aq;
	char *s;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!s) {
		ex->failed = true;
		return NULL;
	}
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

__printf(2, 3)
static void message(struct vs_explain *ex, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vfmt(ex, fmt, ap);
	va_end(ap);
	if (s) {
		free(ex->message);
		ex->message = s;
	}
}

static void add_step(struct vs_explain *ex, char *s);

/* The composers' way to add a step. */
#define step(...)	vs_explain_step(__VA_ARGS__)

void vs_explain_step(struct vs_explain *ex, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vfmt(ex, fmt, ap);
	va_end(ap);
	if (s)
		add_step(ex, s);
}

/* Append @s (taken) to the steps. */
static void add_step(struct vs_explain *ex, char *s)
{
	size_t n;

	n = strlen(s) + 1;
	if (ex->len + n > ex->cap) {
		size_t cap = ex->cap ? 2 * ex->cap : 256;
		char *b;

		while (cap < ex->len + n)
			cap *= 2;
		b = realloc(ex->steps, cap);
		if (!b) {
			ex->failed = true;
			free(s);
			return;
		}
		ex->steps = b;
		ex->cap = cap;
	}
	memcpy(ex->steps + ex->len, s, n);
	ex->len += n;
	ex->nr_steps++;
	free(s);
}

static int done(struct vs_explain *ex)
{
	return ex->failed ? -ENOMEM : 0;
}

static const struct why_task *why_find(const struct vs_job_why *w, u64 seq)
{
	for (u32 i = 0; i < w->nr_tasks; i++)
		if (w->tasks[i].seq == seq)
			return &w->tasks[i];
	return NULL;
}

static const struct vs_task *task_by_seq(const struct vs_job *job, u64 seq)
{
	const struct vs_task *t;

	list_for_each_entry(t, &job->tasks, job_node)
		if (t->seq == seq)
			return t;
	return NULL;
}

/* The words of a refusal, or what refused when nobody said more. */
static const char *words_or(const struct vs_job_why *w, const char *dflt)
{
	return w->words ? text_at(w, w->words) : dflt;
}

/* "Running 2, Pending 1" */
static void status_hist(const struct vs_job *job, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int s = 0; s < VS_TASK_NR_STATUS && off < len; s++)
		if (job->nr_by_status[s])
			off += (size_t)snprintf(buf + off, len - off, "%s%s %u", off ? ", " : "",
						vs_task_status_name(s), job->nr_by_status[s]);
}

/* The tasks being released on @node, which a task pipelined there waits for. */
static void step_releasing(struct vs_explain *ex, const struct vs_sched *sched,
			   const char *node_name, const struct vs_task *task)
{
	const struct vs_node *node = sched ? vs_node_find(sched->cl, node_name) : NULL;
	const struct vs_task *t;
	char rel[256], fut[256], req[256];
	struct vs_res future;
	u32 n = 0;

	if (!node) {
		step(ex, "Node %s: gone", node_name);
		return;
	}
	vs_node_future_idle(node, &future);
	vs_res_fmt(node->dims, rel, sizeof(rel), &node->releasing);
	vs_res_fmt(node->dims, fut, sizeof(fut), &future);
	vs_res_fmt(task->job->dims, req, sizeof(req), task->req);
	step(ex, "Node %s: releasing <%s>, FutureIdle <%s>, the task requests <%s>", node_name,
	     rel, fut, req);
	list_for_each_entry(t, &node->tasks, node_node)
		if (t->status == VS_TASK_RELEASING) {
			step(ex, "Waiting for %s/%s to be released on %s", t->ns, t->name,
			     node_name);
			n++;
		}
	if (!n)
		step(ex, "Nothing is being released on %s now: it is tried afresh next cycle",
		     node_name);
}

/* The lines of a HyperNode search that found no place, as steps; the summary, the last. */
/* Each line of the text at @at a step; the last one (the summary) returned. */
static const char *step_lines(struct vs_explain *ex, const struct vs_job_why *w, u32 at)
{
	const char *p = text_at(w, at), *nl;

	while ((nl = strchr(p, '\n'))) {
		step(ex, "%.*s", (int)(nl - p), p);
		p = nl + 1;
	}
	step(ex, "%s", p);
	return p;
}

static const char *step_topo(struct vs_explain *ex, const struct vs_job_why *w)
{
	return step_lines(ex, w, w->topo);
}

/*
 * The first steps of a considered job, its task's explanation's too:
 * enqueue's admission, then JobValid. True when it stopped at one (reason
 * and message set); a task's message names its PodGroup (@for_task).
 */
static bool stopped_before_queue(struct vs_explain *ex, const struct vs_job *job,
				 const struct vs_job_why *w, bool for_task)
{
	if (w->step == VS_WHY_NOT_ENQUEUED) {
		ex->reason = "NotEnqueued";
		step(ex, "Enqueue: not admitted: %s", words_or(w, "JobEnqueueable refused"));
		if (for_task)
			message(ex, "PodGroup %s/%s is Pending: enqueue did not admit it (%s)",
				job->ns, job->name, words_or(w, "JobEnqueueable refused"));
		else
			message(ex, "enqueue did not admit it (%s)",
				words_or(w, "JobEnqueueable refused"));
		return true;
	}
	step(ex, "Enqueue: admitted%s", w->admitted ? " in this cycle" : "");
	if (w->step == VS_WHY_INVALID) {
		ex->reason = w->reason ? text_at(w, w->reason) : "JobInvalid";
		step(ex, "JobValid: failed: %s", words_or(w, "refused"));
		message(ex, "JobValid failed: %s", words_or(w, "refused"));
		return true;
	}
	step(ex, "JobValid: passed");
	return false;
}

/* The queue's step: true when it was overused (reason and message set). */
static bool stopped_at_queue(struct vs_explain *ex, const struct vs_job *job,
			     const struct vs_job_why *w)
{
	if (w->step != VS_WHY_OVERUSED) {
		step(ex, "Queue %s: not overused", job->queue_name);
		return false;
	}
	ex->reason = "QueueOverused";
	step(ex, "Queue %s: overused: allocate skips its jobs", job->queue_name);
	step(ex, "Overused: %s", words_or(w, "refused"));
	message(ex, "queue %s is overused (%s): allocate skips its jobs", job->queue_name,
		words_or(w, "refused"));
	return true;
}

/* A task that holds or held a node: where it is says it all. */
static int explain_placed(const struct vs_task *task, struct vs_explain *ex)
{
	const char *node = task->node ? task->node->name : "";

	ex->reason = vs_task_status_name(task->status);
	switch (task->status) {
	case VS_TASK_BINDING:
		message(ex, "sent to the binder for node %s; waiting for the bind's result", node);
		break;
	case VS_TASK_BOUND:
		message(ex, "bound to node %s; waiting for it to run", node);
		break;
	case VS_TASK_RUNNING:
		message(ex, "running on node %s", node);
		break;
	case VS_TASK_RELEASING:
		message(ex, "being evicted or deleted on node %s; what it holds there is "
			"released when it is gone", node);
		break;
	case VS_TASK_ALLOCATED:
	case VS_TASK_PIPELINED:
		message(ex, "%s on node %s in the session now running", ex->reason, node);
		break;
	default:
		message(ex, "finished: it holds no node");
		break;
	}
	return done(ex);
}

int vs_explain_task(const struct vs_sched *sched, const struct vs_task *task, u64 now_ns,
		    struct vs_explain *ex)
{
	const struct vs_job *job = task->job;
	const struct vs_job_why *w = job->why;
	const struct why_task *e = w ? why_find(w, task->seq) : NULL;
	const char *qname = job->queue_name;
	char req[256];

	ex->status = vs_task_status_name(task->status);
	vs_res_fmt(task->job->dims, req, sizeof(req), task->req);
	step(ex, "PodGroup %s/%s is %s in queue %s, minMember %u; the task requests <%s>",
	     job->ns, job->name, vs_pg_phase_name(job->phase), qname, job->min_member, req);
	if (task->status != VS_TASK_PENDING)
		return explain_placed(task, ex);

	if (task->gated) {
		/* kube-scheduler's words for a pod waiting on its gates */
		ex->reason = "SchedulingGated";
		step(ex, "Scheduling gates: the pod has some (spec.schedulingGates)");
		message(ex, "waiting for scheduling gates; no action places it until they are "
			"removed");
		return done(ex);
	}
	if (vs_task_bind_failures(task)) {
		const char *why = vs_task_bind_error(task);

		step(ex, "Bind: failed %u time(s) in a row, the last: %s",
		     vs_task_bind_failures(task), why ? why : "");
		if (vs_task_backing_off(task, now_ns)) {
			double left = (double)(vs_task_retry_after(task) - now_ns) / 1e9;

			ex->reason = "BindBackoff";
			message(ex, "its bind failed (%s); it is tried again in %.1f s",
				why ? why : "", left);
			return done(ex);
		}
		step(ex, "Bind: its backoff is over: the next cycle tries it again");
	}
	if (!job->queue) {
		ex->reason = "QueueNotFound";
		step(ex, "Queue %s: does not exist", qname);
		message(ex, "queue %s does not exist: cycles skip PodGroup %s/%s", qname,
			job->ns, job->name);
		return done(ex);
	}
	if (!w || task->seq >= w->next_seq) {
		ex->reason = "NotConsidered";
		message(ex, "no cycle has tried to place it since it or its PodGroup last changed");
		return done(ex);
	}
	ex->cycle = w->cycle;
	if (stopped_before_queue(ex, job, w, true))
		return done(ex);
	if (e && e->pipelined) {
		ex->reason = "Pipelined";
		step(ex, "Pipelined onto %s: it waits for resources being released there",
		     text_at(w, e->node));
		step_releasing(ex, sched, text_at(w, e->node), task);
		message(ex, "pipelined onto %s: it waits for resources being released there",
			text_at(w, e->node));
		return done(ex);
	}
	/* a task tried before its queue became overused was not stopped by it */
	if (e)
		step(ex, "Queue %s: not overused", qname);
	else if (stopped_at_queue(ex, job, w))
		return done(ex);
	if (!e && w->refused) {
		const struct vs_task *first = task_by_seq(job, w->first_refused);

		ex->reason = "NotAllocatable";
		if (first == task)
			step(ex, "Allocatable: refused: %s", words_or(w, "refused"));
		else
			step(ex, "Allocatable: the queue refused %u of the PodGroup's tasks, the "
			     "first %s: %s", w->refused, first ? first->name : "(gone)",
			     words_or(w, "refused"));
		message(ex, "queue %s cannot take it now: %s", qname, words_or(w, "refused"));
		return done(ex);
	}
	if (w->topo && !e) {
		ex->reason = "NoHyperNodeFits";
		message(ex, "%s", step_topo(ex, w));
		return done(ex);
	}
	if (w->topo)
		step_topo(ex, w);
	if (!e) {
		switch (w->step) {
		case VS_WHY_DISCARDED: {
			const struct vs_task *t;

			ex->reason = "GangNotReady";
			/* the task the attempt stopped at, and why */
			list_for_each_entry(t, &job->tasks, job_node) {
				const struct why_task *f = why_find(w, t->seq);

				if (f && f->fit) {
					step(ex, "The attempt stopped at %s: %s", t->name,
					     text_at(w, f->text));
					break;
				}
			}
			step(ex, "Gang: %u of the %u tasks minMember needs were ready or "
			     "pipelined: the attempt was discarded before it reached this task",
			     w->placed, w->min_member);
			message(ex, "PodGroup %s/%s could not be made ready (%u of %u tasks) "
				"before this task's turn", job->ns, job->name, w->placed,
				w->min_member);
			break;
		}
		default:
			ex->reason = "NotTried";
			message(ex, "cycle %llu did not try it: its PodGroup was %s before this "
				"task's turn", (unsigned long long)w->cycle,
				w->step == VS_WHY_PIPELINED ? "pipelined" :
				w->step == VS_WHY_COMMITTED ? "ready" : "done");
			break;
		}
		return done(ex);
	}
	step(ex, "Allocatable: passed");
	switch (e->fit) {
	case WHY_FIT_PRE_PREDICATE:
		ex->reason = "PrePredicateFailed";
		step(ex, "PrePredicate: failed: %s", text_at(w, e->text));
		message(ex, "%s", text_at(w, e->text));
		return done(ex);
	case WHY_FIT_MESSAGE: {
		const struct vs_task *t;

		ex->reason = "Unschedulable";
		step(ex, "PrePredicate: passed");
		step(ex, "Predicates: skipped: " VS_ROLE_FAILED_FMT, task->name, task->role);
		message(ex, VS_ROLE_FAILED_FMT, task->name, task->role);
		/* the task of its role that failed, and why */
		list_for_each_entry(t, &job->tasks, job_node) {
			const struct why_task *f;

			if (t->role != task->role)
				continue;
			f = why_find(w, t->seq);
			if (f && f->fit == WHY_FIT_PREDICATES) {
				step(ex, "Predicates of %s: %s", t->name, text_at(w, f->text));
				message(ex, "%s", text_at(w, f->text));
				break;
			}
		}
		return done(ex);
	}
	case WHY_FIT_PREDICATES:
		ex->reason = "Unschedulable";
		step(ex, "PrePredicate: passed");
		step(ex, "Predicates: %s", text_at(w, e->text));
		message(ex, "%s", text_at(w, e->text));
		return done(ex);
	default:
		break;
	}
	step(ex, "Predicates: passed");
	step(ex, "Placed: %s on %s", e->tx == VS_TASK_ALLOCATED ? "allocated (its Idle fits)" :
	     "pipelined (its FutureIdle fits)", text_at(w, e->node));
	if (w->step == VS_WHY_PIPELINED) {
		ex->reason = "Pipelined";
		step(ex, "Gang: pipelined: %u of the %u tasks minMember needs are ready or "
		     "pipelined", w->placed, w->min_member);
		if (e->tx == VS_TASK_PIPELINED)
			step_releasing(ex, sched, text_at(w, e->node), task);
		message(ex, "Pod %s/%s can possibly be assigned to %s, once resource is released "
			"and minAvailable is satisfied", task->ns, task->name, text_at(w, e->node));
		return done(ex);
	}
	ex->reason = "GangNotReady";
	step(ex, "Gang: not ready: %u of the %u tasks minMember needs were ready or pipelined: "
	     "discarded", w->placed, w->min_member);
	message(ex, "Pod %s/%s can possibly be assigned to %s, once minAvailable is satisfied "
		"(%u of %u tasks placed)", task->ns, task->name, text_at(w, e->node), w->placed,
		w->min_member);
	return done(ex);
}

/* The tasks a block noted, in the job's order, a line each (at most @max). */
static void step_noted(struct vs_explain *ex, const struct vs_job *job,
		       const struct vs_job_why *w, u32 max)
{
	const struct vs_task *t;
	u32 n = 0;

	list_for_each_entry(t, &job->tasks, job_node) {
		const struct why_task *e = why_find(w, t->seq);

		if (!e || t->status != VS_TASK_PENDING)
			continue;
		if (++n > max)
			continue;
		if (e->fit == WHY_FIT_MESSAGE)
			step(ex, "Task %s: " VS_ROLE_FAILED_FMT, t->name, t->name, t->role);
		else if (e->fit)
			step(ex, "Task %s: %s", t->name, text_at(w, e->text));
		else if (e->pipelined)
			step(ex, "Task %s: pipelined onto %s", t->name, text_at(w, e->node));
		else if (e->tx != VS_TASK_PENDING)
			step(ex, "Task %s: %s on %s, then discarded", t->name,
			     vs_task_status_name(e->tx), text_at(w, e->node));
	}
	if (n > max)
		step(ex, "... and %u more noted tasks", n - max);
}

int vs_explain_job(const struct vs_sched *sched, const struct vs_job *job, u64 now_ns,
		   struct vs_explain *ex)
{
	const struct vs_job_why *w = job->why;
	const struct vs_pg_condition *unsched = &job->cond[VS_PG_COND_UNSCHEDULABLE];
	u32 pending = job->nr_by_status[VS_TASK_PENDING];
	const char *summary = NULL;
	char hist[256];

	ex->status = vs_pg_phase_name(job->phase);
	status_hist(job, hist, sizeof(hist));
	step(ex, "Queue %s, minMember %u, tasks: %s", job->queue_name, job->min_member,
	     *hist ? hist : "none");
	if (!job->queue) {
		ex->reason = "QueueNotFound";
		message(ex, "queue %s does not exist: cycles skip it", job->queue_name);
		return done(ex);
	}
	if (!w) {
		if (pending) {
			const struct vs_task *t;

			/* a pending task backing off after a failed bind says why it waits */
			list_for_each_entry(t, &job->by_status[VS_TASK_PENDING], status_node)
				if (vs_task_backing_off(t, now_ns)) {
					ex->reason = "BindBackoff";
					message(ex, "the bind of %s failed (%s): it waits out "
						"a backoff", t->name,
						vs_task_bind_error(t) ?
						vs_task_bind_error(t) : "");
					return done(ex);
				}
			ex->reason = "NotConsidered";
			message(ex, "no cycle has tried it since it last changed");
		} else {
			ex->reason = job->nr_tasks ? "Scheduled" : "NoTasks";
			message(ex, job->nr_tasks ? "no task waits for a node" : "it has no task");
		}
		return done(ex);
	}
	ex->cycle = w->cycle;
	if (stopped_before_queue(ex, job, w, false))
		return done(ex);
	if (stopped_at_queue(ex, job, w)) {
		step_noted(ex, job, w, 16);
		return done(ex);
	}
	if (w->refused) {
		const struct vs_task *first = task_by_seq(job, w->first_refused);

		step(ex, "Allocatable: the queue refused %u task(s), the first %s: %s", w->refused,
		     first ? first->name : "(gone)", words_or(w, "refused"));
	}
	switch (w->step) {
	case VS_WHY_DISCARDED:
		if (w->topo || w->subs)
			break;	/* its search's or sub-groups' lines say more than its last dry run */
		ex->reason = "GangNotReady";
		step(ex, "Gang: %u of the %u tasks minMember needs were ready or pipelined: "
		     "discarded", w->placed, w->min_member);
		break;
	case VS_WHY_PIPELINED:
		ex->reason = "Pipelined";
		step(ex, "Gang: pipelined: %u of the %u tasks minMember needs are ready or "
		     "pipelined", w->placed, w->min_member);
		break;
	case VS_WHY_COMMITTED:
		ex->reason = !pending ? "Scheduled" : w->refused ? "NotAllocatable" : "Ready";
		step(ex, "Gang: ready with %u task(s) ready or pipelined: committed", w->placed);
		break;
	default:
		ex->reason = !pending ? "Scheduled" : w->refused ? "NotAllocatable" : "NotTried";
		break;
	}
	/* kept only when the search found no place: the job waits for a HyperNode */
	if (w->topo) {
		ex->reason = "NoHyperNodeFits";
		summary = step_topo(ex, w);
	}
	/* kept only when the job with sub-groups was not placed: which one is short */
	if (w->subs) {
		if (!w->topo)
			ex->reason = "SubGroupsNotReady";
		summary = step_lines(ex, w, w->subs);
	}
	step_noted(ex, job, w, 16);
	if (unsched->set && unsched->status && unsched->transition == w->cycle)
		message(ex, "%s", vs_pg_cond_message(unsched));
	else if (summary)
		message(ex, "%s", summary);
	else if (pending)
		message(ex, "%u task(s) pending after cycle %llu", pending,
			(unsigned long long)w->cycle);
	else
		message(ex, "no task waits for a node");
	return done(ex);
}

int vs_explain_node(const struct vs_node *node, struct vs_explain *ex)
{
	static const struct { const char *name; size_t off; } acct[] = {
		{ "Allocatable", offsetof(struct vs_node, allocatable) },
		{ "Idle", offsetof(struct vs_node, idle) },
		{ "Used", offsetof(struct vs_node, used) },
		{ "Releasing", offsetof(struct vs_node, releasing) },
		{ "Pipelined", offsetof(struct vs_node, pipelined) },
	};
	const struct vs_task *t;
	struct vs_res future;
	char buf[512];

	ex->status = !node->ready ? "NotReady" :
		     node->unschedulable ? "Ready,SchedulingDisabled" : "Ready";
	ex->reason = !node->ready ? "NotReady" : node->unschedulable ? "Unschedulable" :
		     "Schedulable";
	for (unsigned int i = 0; i < ARRAY_SIZE(acct); i++) {
		vs_res_fmt(node->dims, buf, sizeof(buf),
			   (const struct vs_res *)((const char *)node + acct[i].off));
		step(ex, "%s: <%s>", acct[i].name, buf);
	}
	vs_node_future_idle(node, &future);
	vs_res_fmt(node->dims, buf, sizeof(buf), &future);
	step(ex, "FutureIdle: <%s>", buf);
	step(ex, "Tasks: %u", node->nr_tasks);
	list_for_each_entry(t, &node->tasks, node_node) {
		vs_res_fmt(node->dims, buf, sizeof(buf), t->req);
		step(ex, "Task %s/%s: %s <%s>", t->ns, t->name, vs_task_status_name(t->status),
		     buf);
	}
	vs_res_fmt(node->dims, buf, sizeof(buf), &node->idle);
	message(ex, "%u task(s), idle <%s>%s", node->nr_tasks, buf,
		!node->ready ? "; not ready: the predicates refuse it" :
		node->unschedulable ? "; cordoned: the predicates refuse it" : "");
	return done(ex);
}

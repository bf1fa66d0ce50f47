// SPDX-License-Identifier: Apache-2.0
/*
 * Running a loaded scenario and judging it. This file owns the cycles
 * (sessions opened, pipelinedTo applied, actions run, what is pipelined read
 * before the last session closes), the cluster's part between cycles (the
 * auto-binder), the recording of decisions, the initial-state scores, and
 * the comparison with "expect".
 *
 * Between cycles the cluster answers as a real one would, and as vsbench's
 * binder does: every task sent to bind is confirmed and runs (the bind
 * pipeline's standalone binder, bind/bind.h). An evicted
 * task's pod is deleted (its kubelet stops it and it goes away), so that
 * what it held is free in the next cycle.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/bind.h"
#include "harness/scenario.h"
#include "registry/builtin.h"
#include "sched/explain.h"
#include "sched/session.h"
#include "sched/statement.h"
#include "lib/render.h"

/* nodeScores are equal when they differ by no more than this. */
#define SCORE_EPSILON	1e-6

struct recorder {
	struct scn_result *res;
	struct vs_task **bound;		/* this cycle's binds, confirmed after it */
	struct vs_task **evicted;	/* this cycle's evictions, deleted after it */
	u32 nr_bound, cap_bound, nr_evicted, cap_evicted;
	int error;			/* the first failure to record, -ENOMEM */
};

static int task_key(const struct vs_task *task, char *buf, size_t size)
{
	return snprintf(buf, size, "%s/%s", task->ns, task->name);
}

static int push(struct vs_task ***v, u32 *nr, u32 *cap, struct vs_task *task)
{
	if (*nr == *cap) {
		u32 n = *cap ? 2 * *cap : 64;
		struct vs_task **p = realloc(*v, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*v = p;
		*cap = n;
	}
	(*v)[(*nr)++] = task;
	return 0;
}

static void rec_bind(void *ctx, struct vs_task *task, struct vs_node *node)
{
	struct recorder *r = ctx;
	char key[512];

	task_key(task, key, sizeof(key));
	if (scn_set_add(&r->res->binds, key, node->name, 0, 0) ||
	    push(&r->bound, &r->nr_bound, &r->cap_bound, task))
		r->error = -ENOMEM;
}

static void rec_evict(void *ctx, struct vs_task *task, const char *reason)
{
	struct recorder *r = ctx;
	char key[512];

	task_key(task, key, sizeof(key));
	if (scn_set_add(&r->res->evicts, key, NULL, 0, 0) ||
	    push(&r->evicted, &r->nr_evicted, &r->cap_evicted, task))
		r->error = -ENOMEM;
}

/*
 * The cluster's answer between cycles. A task bound and then evicted in the
 * same cycle is Releasing, not Binding: only the evictions apply to it.
 */
static void settle(struct recorder *r, struct vs_cluster *cl)
{
	vs_bind_confirm_all(cl, r->bound, r->nr_bound);
	for (u32 i = 0; i < r->nr_evicted; i++)
		if (r->evicted[i]->status == VS_TASK_RELEASING)
			vs_task_del(cl, r->evicted[i]);
	r->nr_bound = 0;
	r->nr_evicted = 0;
}

/*
 * nodeScores: NodeOrder in a session opened on the initial state, over every
 * node. Volcano's tests that assert scores (binpack's TestNode) call the
 * plugin's score function for each node of the session without filtering
 * by predicates, and a task already placed is scored too; the batch scores
 * are then normalised over the whole cluster. The session's close rewrites
 * PodGroup phases, which the cycles must still start from: they are put
 * back.
 */
static int score_initial(struct scenario *scn, struct vs_sched *sched, struct scn_result *res,
			 struct vs_err *err)
{
	const struct scn_set *want = &scn->expect.scores;
	struct vs_sched_stats stats = sched->stats;
	enum vs_pg_phase *phases;
	struct vs_session *ssn;
	struct vs_job *job;
	double *scores = NULL;
	u32 i = 0;
	int ret;

	phases = calloc(scn->cl.nr_jobs + 1, sizeof(*phases));
	if (!phases)
		return vs_err_set(err, ENOMEM, "out of memory");
	list_for_each_entry(job, &scn->cl.jobs, list)
		phases[i++] = job->phase;
	ret = vs_session_open(sched, &ssn, err);
	if (ret)
		goto out;
	scores = calloc(ssn->nr_nodes + 1, sizeof(*scores));
	if (!scores) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_close;
	}
	for (u32 e = 0; e < want->nr; e++) {
		const char *key = want->e[e].key, *slash = strchr(key, '/');
		struct vs_task *task;
		char ns[256];
		bool done = false;

		/* each task once, at its first expected node */
		for (u32 p = 0; p < e && !done; p++)
			done = !strcmp(want->e[p].key, key);
		if (done)
			continue;
		snprintf(ns, sizeof(ns), "%.*s", (int)(slash - key), key);
		task = vs_task_find(&scn->cl, ns, slash + 1);
		vs_ssn_score_nodes(ssn, task, ssn->nodes, ssn->nr_nodes, scores);
		for (u32 n = 0; n < ssn->nr_nodes; n++) {
			if (scn_set_add(&res->scores, key, ssn->nodes[n]->name, scores[n], 0)) {
				ret = vs_err_set(err, ENOMEM, "out of memory");
				goto out_close;
			}
		}
	}
out_close:
	vs_session_close(ssn);
	i = 0;
	list_for_each_entry(job, &scn->cl.jobs, list)
		vs_job_set_phase(&scn->cl, job, phases[i++]);
	sched->stats = stats;
out:
	free(scores);
	free(phases);
	return ret;
}

/* pipelinedTo, as a test calls Statement.Pipeline right after opening the session. */
static int apply_pipelines(struct scenario *scn, struct vs_session *ssn, struct vs_err *err)
{
	struct vs_statement *stmt;

	if (!scn->nr_pipelines)
		return 0;
	stmt = vs_stmt_new(ssn);
	if (!stmt)
		return vs_err_set(err, ENOMEM, "out of memory");
	for (u32 i = 0; i < scn->nr_pipelines; i++) {
		const struct scn_pipeline *p = &scn->pipelines[i];
		int ret = vs_stmt_pipeline(stmt, p->task, p->node, false, err);

		if (ret) {
			vs_err_prefix(err, "pipelinedTo of %s/%s: ", p->task->ns, p->task->name);
			return ret;
		}
	}
	return 0;
}

static int record_pipelined(struct vs_cluster *cl, struct scn_result *res)
{
	const struct vs_job *job;
	const struct vs_task *task;
	char key[512];

	list_for_each_entry(job, &cl->jobs, list) {
		list_for_each_entry(task, &job->by_status[VS_TASK_PIPELINED], status_node) {
			task_key(task, key, sizeof(key));
			if (scn_set_add(&res->pipelined, key, task->node->name, 0, 0))
				return -ENOMEM;
		}
	}
	return 0;
}

/* In name order, as the daemon lists them (a run over --socket reads them so). */
static int record_phases(struct vs_cluster *cl, struct scn_result *res)
{
	const struct vs_job *job;
	char key[512];

	vs_cluster_keep_names(cl);
	for (job = vs_name_tree_after(&cl->job_names, NULL, NULL); job;
	     job = vs_name_tree_next(&cl->job_names, job)) {
		snprintf(key, sizeof(key), "%s/%s", job->ns, job->name);
		if (scn_set_add(&res->phases, key, vs_pg_phase_name(job->phase), 0, 0))
			return -ENOMEM;
	}
	return 0;
}

char *scn_join_names(const char *const *names, u32 nr)
{
	size_t len = 1;
	char *buf, *p;

	for (u32 i = 0; i < nr; i++)
		len += strlen(names[i]) + 2;
	buf = malloc(len);
	if (!buf)
		return NULL;
	p = buf;
	*p = '\0';
	for (u32 i = 0; i < nr; i++)
		p += sprintf(p, "%s%s", i ? ", " : "", names[i]);
	return buf;
}

static int record_hypernodes(const struct vs_cluster *cl, struct scn_result *res)
{
	const struct vs_hypernode *hn;
	char key[320], count[16];

	list_for_each_entry(hn, &cl->hypernodes.list, list) {
		/* sorted as the core keeps them */
		char *leaves = scn_join_names(hn->leaves, hn->nr_leaves);
		int ret = -ENOMEM;

		snprintf(count, sizeof(count), "%u", hn->nr_leaves);
		snprintf(key, sizeof(key), "%s parent", hn->name);
		if (leaves && !scn_set_add(&res->hypernodes, key,
					   hn->parent ? hn->parent->name : "", 0, 0)) {
			snprintf(key, sizeof(key), "%s nodeCount", hn->name);
			if (!scn_set_add(&res->hypernodes, key, count, 0, 0)) {
				snprintf(key, sizeof(key), "%s leaves", hn->name);
				ret = scn_set_add(&res->hypernodes, key, leaves, 0, 0);
			}
		}
		free(leaves);
		if (ret)
			return ret;
	}
	return 0;
}

static int run_cycles(struct scenario *scn, struct vs_sched *sched, struct recorder *rec,
		      struct vs_err *err)
{
	for (u32 c = 1; c <= scn->cycles; c++) {
		struct vs_session *ssn;
		int ret;

		ret = vs_session_open(sched, &ssn, err);
		if (ret)
			return ret;
		if (c == 1)
			ret = apply_pipelines(scn, ssn, err);
		if (!ret)
			ret = vs_session_run_actions(ssn, err);
		/* committed pipelines end with their session: read them first */
		if (!ret && c == scn->cycles && record_pipelined(&scn->cl, rec->res))
			ret = vs_err_set(err, ENOMEM, "out of memory");
		vs_session_close(ssn);
		if (!ret && rec->error)
			ret = vs_err_set(err, rec->error, "out of memory recording decisions");
		/* every cycle leaves the core whole, not only the last */
		if (!ret && vs_cluster_check(&scn->cl, err))
			ret = -EIO;
		if (ret) {
			vs_err_prefix(err, "cycle %u: ", c);
			return ret;
		}
		if (c < scn->cycles)
			settle(rec, &scn->cl);
	}
	return 0;
}

/* A core explanation in the shape of a VS_CMD_EXPLAIN reply's, for vsnl_render_explain(); NULL: out of memory. */
static json_t *explain_json(const struct vs_explain *ex)
{
	json_t *o = json_object(), *steps = json_array();

	if (!o || !steps) {
		json_decref(o);
		json_decref(steps);
		return NULL;
	}
	json_object_set_new(o, "status", json_string(ex->status ? ex->status : ""));
	json_object_set_new(o, "reason", json_string(ex->reason ? ex->reason : ""));
	json_object_set_new(o, "message", json_string(vs_explain_message(ex)));
	if (ex->cycle)
		json_object_set_new(o, "cycle", json_integer((json_int_t)ex->cycle));
	for (const char *s = vs_explain_first(ex); s; s = vs_explain_next(ex, s))
		json_array_append_new(steps, json_string(s));
	json_object_set_new(o, "steps", steps);
	return o;
}

/*
 * explain: each object the expectations name, explained after the last
 * cycle and printed as "vsctl explain" prints it.
 */
static int record_explanations(const struct scenario *scn, struct vs_sched *sched,
			       struct scn_result *res)
{
	const struct scn_set *want = &scn->expect.explain;

	for (u32 i = 0; i < want->nr; i++) {
		const char *key = want->e[i].key;
		struct scn_explain_key k;
		struct vs_explain ex;
		json_t *j;
		int ret = 0;

		if (i && !strcmp(key, want->e[i - 1].key))
			continue;	/* the same object, another line */
		scn_explain_key(key, &k);
		vs_explain_init(&ex);
		if (k.kind == SCN_EX_TASK || k.kind == SCN_EX_SCORES) {
			const struct vs_task *task = vs_task_find(&scn->cl, k.ns, k.name);
			struct vs_err e = { { 0 } };

			ret = vs_explain_task(sched, task, sched->now_ns, &ex);
			if (!ret && k.kind == SCN_EX_SCORES)
				ret = vs_explain_scores(sched, task, SCN_EXPLAIN_SCORES, &ex, &e);
		} else if (k.kind == SCN_EX_NODE) {
			ret = vs_explain_node(vs_node_find(&scn->cl, k.name), &ex);
		} else {
			ret = vs_explain_job(sched, vs_job_find(&scn->cl, k.ns, k.name),
					     sched->now_ns, &ex);
		}
		j = ret ? NULL : explain_json(&ex);
		vs_explain_release(&ex);
		ret = j ? scn_explain_add(res, key, j) : -ENOMEM;
		json_decref(j);
		if (ret)
			return ret;
	}
	return 0;
}

void scn_explain_key(const char *key, struct scn_explain_key *k)
{
	const char *slash;

	k->object = strchr(key, ' ') + 1;
	k->kind = !strncmp(key, "task ", 5) ? SCN_EX_TASK : !strncmp(key, "scores ", 7) ?
		  SCN_EX_SCORES : !strncmp(key, "node ", 5) ? SCN_EX_NODE : SCN_EX_JOB;
	k->what = k->kind == SCN_EX_NODE ? "Node:" : k->kind == SCN_EX_JOB ? "PodGroup:" :
		  "Task:";
	slash = strchr(k->object, '/');
	k->ns[0] = '\0';
	k->name = k->object;
	if (slash) {
		/* the loader checked the namespace: a DNS label, shorter than ns */
		snprintf(k->ns, sizeof(k->ns), "%.*s", (int)(slash - k->object), k->object);
		k->name = slash + 1;
	}
}

int scn_explain_add(struct scn_result *res, const char *key, const json_t *ex)
{
	struct scn_explain_key k;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret = -ENOMEM;

	if (!f)
		return -ENOMEM;
	scn_explain_key(key, &k);
	vsnl_render_explain(f, k.what, k.object, ex);
	if (!fclose(f) && !scn_set_add(&res->explain, key, text, 0, 0))
		ret = 0;
	free(text);
	return ret;
}

int scenario_run(struct scenario *scn, struct scn_result *res, struct vs_err *err)
{
	struct recorder rec = { .res = res };
	struct vs_sched sched;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = vs_sched_init(&sched, &scn->cl, vs_builtin_registry(), scn->conf, err);
	scn->conf = NULL;	/* the scheduler's now, also on failure */
	if (ret)
		goto out;
	sched.sink = (struct vs_decision_sink){ .bind = rec_bind, .evict = rec_evict,
						.ctx = &rec };
	if (scn->expect.has & (1u << SCN_SCORES))
		ret = score_initial(scn, &sched, res, err);
	if (!ret)
		ret = run_cycles(scn, &sched, &rec, err);
	if (!ret && record_phases(&scn->cl, res))
		ret = vs_err_set(err, ENOMEM, "out of memory");
	if (!ret && record_explanations(scn, &sched, res))
		ret = vs_err_set(err, ENOMEM, "out of memory");
	if (!ret && record_hypernodes(&scn->cl, res))
		ret = vs_err_set(err, ENOMEM, "out of memory");
	if (!ret && vs_cluster_check(&scn->cl, err))
		ret = -EIO;
out:
	vs_sched_destroy(&sched);
	free(rec.bound);
	free(rec.evicted);
	return ret;
}

void scenario_result_free(struct scn_result *res)
{
	scn_set_free(&res->binds);
	scn_set_free(&res->evicts);
	scn_set_free(&res->pipelined);
	scn_set_free(&res->phases);
	scn_set_free(&res->scores);
	scn_set_free(&res->explain);
	scn_set_free(&res->hypernodes);
}

/* ---- comparing ---- */

static int cmp_entry(const void *a, const void *b)
{
	const struct scn_entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (!c && x->val && y->val)
		c = strcmp(x->val, y->val);
	return c;
}

/* A sorted copy of @set's entries (shallow: the strings stay @set's). */
static struct scn_entry *sorted(const struct scn_set *set)
{
	struct scn_entry *v = malloc((set->nr + 1) * sizeof(*v));

	if (!v)
		return NULL;
	if (set->nr) {		/* an empty set has no array at all */
		memcpy(v, set->e, set->nr * sizeof(*v));
		qsort(v, set->nr, sizeof(*v), cmp_entry);
	}
	return v;
}

/* "{ns/p1: n1, ns/p2: n2}" or "[ns/p1, ns/p2]", sorted. */
static void print_set(FILE *out, const struct scn_entry *v, u32 nr, bool map)
{
	fputc(map ? '{' : '[', out);
	for (u32 i = 0; i < nr; i++) {
		fprintf(out, "%s%s", i ? ", " : "", v[i].key);
		if (map)
			fprintf(out, ": %s", v[i].val);
	}
	fputc(map ? '}' : ']', out);
}

/* Same entries, order free. */
static unsigned int compare_sets(FILE *out, enum scn_key key, const struct scn_set *want,
				 const struct scn_set *got, bool map)
{
	struct scn_entry *w = sorted(want), *g = sorted(got);
	bool same = w && g && want->nr == got->nr;

	for (u32 i = 0; same && i < want->nr; i++)
		same = !cmp_entry(&w[i], &g[i]);
	if (!same) {
		fprintf(out, "    %s: expected ", scn_key_name(key));
		if (w)
			print_set(out, w, want->nr, map);
		fprintf(out, ", got ");
		if (g)
			print_set(out, g, got->nr, map);
		fputc('\n', out);
	}
	free(w);
	free(g);
	return !same;
}

static unsigned int compare_count(FILE *out, enum scn_key key, u64 want, u64 got)
{
	if (want == got)
		return 0;
	fprintf(out, "    %s: expected %llu, got %llu\n", scn_key_name(key),
		(unsigned long long)want, (unsigned long long)got);
	return 1;
}

static const struct scn_entry *find(const struct scn_set *set, const char *key,
				    const char *val)
{
	for (u32 i = 0; i < set->nr; i++)
		if (!strcmp(set->e[i].key, key) && (!val || !strcmp(set->e[i].val, val)))
			return &set->e[i];
	return NULL;
}

/* Only the podgroups the scenario lists in podgroupPhase are checked. */
static unsigned int compare_phases(FILE *out, const struct scn_set *want,
				   const struct scn_set *got)
{
	bool same = true;
	u32 i;

	for (i = 0; i < want->nr && same; i++) {
		const struct scn_entry *g = find(got, want->e[i].key, NULL);

		same = g && !strcmp(g->val, want->e[i].val);
	}
	if (same)
		return 0;
	fprintf(out, "    %s: expected {", scn_key_name(SCN_PHASES));
	for (i = 0; i < want->nr; i++)
		fprintf(out, "%s%s: %s", i ? ", " : "", want->e[i].key, want->e[i].val);
	fprintf(out, "}, got {");
	for (i = 0; i < want->nr; i++) {
		const struct scn_entry *g = find(got, want->e[i].key, NULL);

		fprintf(out, "%s%s: %s", i ? ", " : "", want->e[i].key, g ? g->val : "?");
	}
	fprintf(out, "}\n");
	return 1;
}

/* Per task, the nodes the scenario lists, each within SCORE_EPSILON. */
static unsigned int compare_scores(FILE *out, const struct scn_set *want,
				   const struct scn_set *got)
{
	unsigned int diffs = 0;

	for (u32 i = 0; i < want->nr; i++) {
		const char *task = want->e[i].key;
		bool first = true, same = true;
		u32 j;

		for (j = 0; j < i && first; j++)
			first = strcmp(want->e[j].key, task);
		if (!first)
			continue;
		for (j = i; j < want->nr && same; j++) {
			const struct scn_entry *g;

			if (strcmp(want->e[j].key, task))
				continue;
			g = find(got, task, want->e[j].val);
			same = g && fabs(g->score - want->e[j].score) <= SCORE_EPSILON;
		}
		if (same)
			continue;
		diffs++;
		fprintf(out, "    %s %s: expected {", scn_key_name(SCN_SCORES), task);
		for (j = i, first = true; j < want->nr; j++) {
			if (strcmp(want->e[j].key, task))
				continue;
			fprintf(out, "%s%s: %.10g", first ? "" : ", ", want->e[j].val,
				want->e[j].score);
			first = false;
		}
		fprintf(out, "}, got {");
		for (j = i, first = true; j < want->nr; j++) {
			const struct scn_entry *g;

			if (strcmp(want->e[j].key, task))
				continue;
			g = find(got, task, want->e[j].val);
			fprintf(out, "%s%s: ", first ? "" : ", ", want->e[j].val);
			if (g)
				fprintf(out, "%.10g", g->score);
			else
				fprintf(out, "?");
			first = false;
		}
		fprintf(out, "}\n");
	}
	return diffs;
}

/* Whether @line is a line of @text, leading blanks aside. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
		while (*p == ' ')
			p++;
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return true;
	}
	return false;
}

static unsigned int compare_explain(FILE *out, const struct scn_set *want,
				    const struct scn_set *got)
{
	unsigned int diffs = 0;

	for (u32 i = 0; i < want->nr; i++) {
		const struct scn_entry *w = &want->e[i], *g = NULL;

		for (u32 j = 0; j < got->nr && !g; j++)
			if (!strcmp(got->e[j].key, w->key))
				g = &got->e[j];
		if (g && has_line(g->val, w->val))
			continue;
		diffs++;
		fprintf(out, "    %s %s (line %u): no line \"%s\" in\n", scn_key_name(SCN_EXPLAIN),
			w->key, w->line, w->val);
		for (const char *p = g ? g->val : ""; *p;) {
			const char *nl = strchr(p, '\n');
			int n = nl ? (int)(nl - p) : (int)strlen(p);

			fprintf(out, "      | %.*s\n", n, p);
			p += n + (nl != NULL);
		}
	}
	return diffs;
}

/*
 * Each field the scenario wrote, one line per field that differs; leaves
 * only when @leaves (a run that can read them).
 */
static unsigned int compare_hypernodes(FILE *out, const struct scn_set *want,
				       const struct scn_set *got, bool leaves)
{
	unsigned int diffs = 0;

	for (u32 i = 0; i < want->nr; i++) {
		const struct scn_entry *w = &want->e[i], *g = find(got, w->key, NULL);
		bool list = !strcmp(strchr(w->key, ' '), " leaves");
		bool parent = !strcmp(strchr(w->key, ' '), " parent");

		if ((list && !leaves) || (g && !strcmp(g->val, w->val)))
			continue;
		diffs++;
		/* a parent quoted, so that a root's "" shows */
		fprintf(out, list ? "    %s: %s: expected [%s], got [%s]\n" : parent ?
			"    %s: %s: expected \"%s\", got \"%s\"\n" :
			"    %s: %s: expected %s, got %s\n", scn_key_name(SCN_HYPERNODES),
			w->key, w->val, g ? g->val : "?");
	}
	return diffs;
}

unsigned int scenario_compare(const struct scenario *scn, const struct scn_result *res,
			      FILE *out)
{
	const struct scn_expect *x = &scn->expect;
	unsigned int diffs = 0;

	if (x->has & (1u << SCN_BINDS))
		diffs += compare_sets(out, SCN_BINDS, &x->binds, &res->binds, true);
	if (x->has & (1u << SCN_BIND_COUNT))
		diffs += compare_count(out, SCN_BIND_COUNT, x->bind_count, res->binds.nr);
	if (x->has & (1u << SCN_EVICTS))
		diffs += compare_sets(out, SCN_EVICTS, &x->evicts, &res->evicts, false);
	if (x->has & (1u << SCN_EVICT_COUNT))
		diffs += compare_count(out, SCN_EVICT_COUNT, x->evict_count, res->evicts.nr);
	if (x->has & (1u << SCN_PIPELINED))
		diffs += compare_sets(out, SCN_PIPELINED, &x->pipelined, &res->pipelined, true);
	if (x->has & (1u << SCN_PHASES))
		diffs += compare_phases(out, &x->phases, &res->phases);
	if (x->has & (1u << SCN_SCORES))
		diffs += compare_scores(out, &x->scores, &res->scores);
	if (x->has & (1u << SCN_EXPLAIN))
		diffs += compare_explain(out, &x->explain, &res->explain);
	if (x->has & (1u << SCN_HYPERNODES))
		diffs += compare_hypernodes(out, &x->hypernodes, &res->hypernodes,
					    x->has & SCN_HAS_HN_LEAVES);
	return diffs;
}

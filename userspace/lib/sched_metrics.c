// SPDX-License-Identifier: Apache-2.0
/*
 * The scheduler's metrics under Volcano's names: see sched_metrics.h.
 *
 * The replies are read as lib/render.h renders them, the forms vsctl
 * prints with -o json, so that what a user sees there and what Prometheus
 * scrapes are one reading of the daemon's answer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "lib/compiler.h"
#include "lib/render.h"
#include "lib/sched_metrics.h"

int vsnl_stats_get(struct vsnl *c, json_t **stats, struct vsnl_err *err)
{
	json_t *reply = NULL;
	int ret = vsnl_request(c, vsnl_msg_new(VS_CMD_STATS_GET, 0), vsnl_render_keep, &reply, err);

	*stats = NULL;
	if (!ret) {
		*stats = json_incref(json_object_get(reply, "stats"));
		if (!*stats)
			ret = vsnl_err_set(err, EPROTO, "the reply carries no statistics");
	}
	json_decref(reply);
	return ret;
}

/* ExponentialBucketsRange, as the protocol defines the bounds (uapi: enum vs_hist_attr). */
double vsnl_hist_bound_ms(const struct vsnl_hist_spec *spec, u32 i)
{
	double min = spec->min_us / 1000.0, max = spec->max_us / 1000.0;

	return min * pow(pow(max / min, 1.0 / (double)(spec->nr - 1)), (double)i);
}

bool vsnl_hist_spec(const json_t *h, struct vsnl_hist_spec *spec)
{
	size_t n = json_array_size(json_object_get(h, "buckets"));

	spec->min_us = (u32)vsnl_u64(h, "minUs");
	spec->max_us = (u32)vsnl_u64(h, "maxUs");
	spec->nr = n ? (u32)n - 1 : 0;
	return spec->nr >= 2 && spec->nr <= VSNL_PROM_BUCKETS_MAX && spec->min_us &&
	       spec->max_us > spec->min_us;
}

/* Whether @h is a histogram of the family @name with bounds it can say (its @spec). */
static bool hist_of(const json_t *h, const char *name, struct vsnl_hist_spec *spec)
{
	const char *n = json_string_value(json_object_get(h, "name"));

	return n && !strcmp(n, name) && vsnl_hist_spec(h, spec);
}

/* ---- families gathered from the replies ---- */

/*
 * A family being gathered from the replies: its series' label values and
 * numbers, registered once all are known (a registry's series are fixed).
 */
struct fam {
	const char *name, *help;
	enum vsnl_prom_kind kind;
	const char *labels[2];		/* label names, NULL after the last */
	u32 nr_labels;
	const char **values;		/* nr x nr_labels */
	double *v;
	u32 nr, cap;
};

static struct fam *fam_new(const char *name, const char *help, enum vsnl_prom_kind kind,
			   const char *l1, const char *l2)
{
	struct fam *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	*f = (struct fam){ .name = name, .help = help, .kind = kind, .labels = { l1, l2 } };
	f->nr_labels = !!l1 + !!l2;
	return f;
}

static void fam_free(struct fam *f)
{
	if (!f)
		return;
	free(f->values);
	free(f->v);
	free(f);
}

static int fam_add(struct fam *f, double v, const char *v1, const char *v2)
{
	if (f->nr == f->cap) {
		u32 cap = f->cap ? 2 * f->cap : 16;
		const char **values = reallocarray(f->values, (size_t)cap * 2, sizeof(*values));
		double *nv;

		if (!values)
			return -ENOMEM;
		f->values = values;
		nv = reallocarray(f->v, cap, sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		f->v = nv;
		f->cap = cap;
	}
	f->values[f->nr * 2] = v1;
	f->values[f->nr * 2 + 1] = v2;
	f->v[f->nr++] = v;
	return 0;
}

/* Register @f (freed) with its series; a labelled family without one is left out. */
static int fam_register(struct vsnl_prom_reg *reg, struct fam *f, struct vsnl_err *err)
{
	struct vsnl_prom_desc d = { .name = f->name, .help = f->help, .kind = f->kind };
	const char **rows = NULL;
	struct vsnl_prom_metric *m;
	int ret = 0;

	if (f->nr_labels && !f->nr)
		goto out;
	d.labels[0] = f->labels[0];
	d.labels[1] = f->labels[1];
	if (f->nr_labels) {
		/* The rows as the registry reads them: nr_labels values each. */
		rows = calloc((size_t)f->nr * f->nr_labels, sizeof(*rows));
		if (!rows) {
			ret = vsnl_err_set(err, ENOMEM, "out of memory");
			goto out;
		}
		for (u32 i = 0; i < f->nr; i++)
			for (u32 l = 0; l < f->nr_labels; l++)
				rows[i * f->nr_labels + l] = f->values[i * 2 + l];
		d.values = rows;
		d.nr_series = f->nr;
	}
	m = vsnl_prom_register(reg, &d, err);
	if (!m) {
		ret = -EINVAL;
		goto out;
	}
	for (u32 i = 0; i < (f->nr_labels ? f->nr : 1); i++)
		if (f->kind == VSNL_PROM_GAUGE)
			vsnl_prom_set(m, i, f->nr ? f->v[i] : 0);
		else
			vsnl_prom_add(m, i, f->nr ? f->v[i] : 0);
out:
	free(rows);
	fam_free(f);
	return ret;
}

/* One unlabelled counter or gauge. */
static int put_one(struct vsnl_prom_reg *reg, const char *name, const char *help,
		   enum vsnl_prom_kind kind, double v, struct vsnl_err *err)
{
	struct fam *f = fam_new(name, help, kind, NULL, NULL);

	if (!f || fam_add(f, v, NULL, NULL)) {
		fam_free(f);
		return vsnl_err_set(err, ENOMEM, "out of memory");
	}
	return fam_register(reg, f, err);
}

/* Every histogram of the reply named @name, as one family. */
static int put_hist_family(struct vsnl_prom_reg *reg, const json_t *hists, const char *name,
			   const char *help, struct vsnl_err *err)
{
	struct vsnl_prom_desc d = { .kind = VSNL_PROM_HISTOGRAM, .help = help };
	const char **rows = NULL;
	struct vsnl_hist_spec spec = { 0, 0, 0 };
	double bounds[VSNL_PROM_BUCKETS_MAX];
	char full[128];
	struct vsnl_prom_metric *m;
	const json_t *h, *v;
	const char *k;
	u32 nr = 0, nl = 0, s = 0;
	size_t i;
	int ret = 0;

	json_array_foreach(hists, i, h) {
		if (!hist_of(h, name, &spec))
			continue;
		nl = (u32)json_object_size(json_object_get(h, "labels"));
		nr++;
	}
	if (!nr || nl > VSNL_PROM_LABELS_MAX - 1)
		return 0;
	rows = calloc((size_t)nr * (nl ? nl : 1), sizeof(*rows));
	if (!rows)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	json_array_foreach(hists, i, h) {
		u32 l = 0;

		if (!hist_of(h, name, &spec))
			continue;
		json_object_foreach((json_t *)json_object_get(h, "labels"), k, v) {
			if (l < nl) {
				d.labels[l] = k;
				rows[s * nl + l] = json_string_value(v);
			}
			l++;
		}
		s++;
	}
	for (u32 b = 0; b < spec.nr; b++)
		bounds[b] = vsnl_hist_bound_ms(&spec, b);
	snprintf(full, sizeof(full), "volcano_%s", name);
	d.name = full;
	d.buckets = bounds;
	d.nr_buckets = spec.nr;
	if (nl) {
		d.values = rows;
		d.nr_series = nr;
	}
	m = vsnl_prom_register(reg, &d, err);
	if (!m) {
		ret = -EINVAL;
		goto out;
	}
	s = 0;
	json_array_foreach(hists, i, h) {
		const json_t *in = json_object_get(h, "buckets");
		u64 counts[VSNL_PROM_BUCKETS_MAX + 1];
		struct vsnl_hist_spec hs;

		if (!hist_of(h, name, &hs))
			continue;
		for (u32 b = 0; b <= hs.nr && b <= VSNL_PROM_BUCKETS_MAX; b++)
			counts[b] = (u64)json_integer_value(json_array_get(in, b));
		vsnl_prom_hist_set(m, s++, counts, hs.nr + 1, (double)vsnl_u64(h, "sumNs") / 1e6);
	}
out:
	free(rows);
	return ret;
}

enum { Q_ALLOCATED, Q_REQUEST, Q_DESERVED, Q_CAPACITY, Q_NR };

static int put_queues(struct vsnl_prom_reg *reg, const json_t *queues, struct vsnl_err *err)
{
#define QRES(_key, _what)	{ _key, "volcano_queue_" _what "_milli_cpu",		\
				  "volcano_queue_" _what "_memory_bytes",		\
				  "volcano_queue_" _what "_scalar_resources" }
	static const struct {
		const char *key, *cpu, *mem, *scalar;
	} res[Q_NR] = {
		[Q_ALLOCATED] = QRES("allocated", "allocated"),
		[Q_REQUEST] = QRES("request", "request"),
		[Q_DESERVED] = QRES("cycleDeserved", "deserved"),
		[Q_CAPACITY] = QRES("capability", "capacity"),
	};
#undef QRES
	static const char *const phases[] = { "Inqueue", "Pending", "Running", "Unknown",
					      "Completed" };
	static const char *const phase_names[] = {
		"volcano_queue_pod_group_inqueue_count", "volcano_queue_pod_group_pending_count",
		"volcano_queue_pod_group_running_count", "volcano_queue_pod_group_unknown_count",
		"volcano_queue_pod_group_completed_count",
	};
	struct fam *cpu[Q_NR] = { NULL }, *mem[Q_NR] = { NULL }, *scalar[Q_NR] = { NULL };
	struct fam *share, *weight, *overused, *pg[ARRAY_SIZE(phases)] = { NULL };
	const json_t *q, *r, *v, *by_phase;
	const char *k;
	size_t i;
	int ret = 0;

	share = fam_new("volcano_queue_share", "The queue's share of what it deserves, "
			"after the last cycle.", VSNL_PROM_GAUGE, "queue_name", NULL);
	weight = fam_new("volcano_queue_weight", "The queue's weight.", VSNL_PROM_GAUGE,
			 "queue_name", NULL);
	overused = fam_new("volcano_queue_overused", "1 when the last cycle found the queue "
			   "overused.", VSNL_PROM_GAUGE, "queue_name", NULL);
	for (u32 p = 0; p < ARRAY_SIZE(phases); p++)
		pg[p] = fam_new(phase_names[p], "The queue's PodGroups in this phase.",
				VSNL_PROM_GAUGE, "queue_name", NULL);
	for (u32 x = 0; x < Q_NR; x++) {
		cpu[x] = fam_new(res[x].cpu, "The queue's CPU in millicores.", VSNL_PROM_GAUGE,
				 "queue_name", NULL);
		mem[x] = fam_new(res[x].mem, "The queue's memory in bytes.", VSNL_PROM_GAUGE,
				 "queue_name", NULL);
		scalar[x] = fam_new(res[x].scalar, "The queue's other resources, in "
				    "milli-units.", VSNL_PROM_GAUGE, "queue_name", "resource");
		if (!cpu[x] || !mem[x] || !scalar[x])
			goto nomem;
	}
	if (!share || !weight || !overused)
		goto nomem;
	json_array_foreach(queues, i, q) {
		const char *name = json_string_value(json_object_get(q, "name"));
		bool seen = json_object_get(q, "sharePpm");

		if (!name)
			continue;
		for (u32 x = 0; x < Q_NR; x++) {
			r = json_object_get(q, res[x].key);
			if (!r)
				continue;
			if (fam_add(cpu[x], vsnl_quantity(r, "cpu"), name, NULL) ||
			    fam_add(mem[x], vsnl_quantity(r, "memory"), name, NULL))
				goto nomem;
			json_object_foreach((json_t *)r, k, v)
				if (strcmp(k, "cpu") && strcmp(k, "memory") && strcmp(k, "pods") &&
				    fam_add(scalar[x], vsnl_quantity(r, k), name, k))
					goto nomem;
		}
		if ((seen && (fam_add(share, (double)vsnl_u64(q, "sharePpm") / 1e6, name, NULL) ||
			      fam_add(overused, json_is_true(json_object_get(q, "overused")),
				      name, NULL))) ||
		    fam_add(weight, (double)vsnl_u64(q, "weight"), name, NULL))
			goto nomem;
		by_phase = json_object_get(q, "nrPodGroups");
		for (u32 p = 0; p < ARRAY_SIZE(phases); p++)
			if (!pg[p] || fam_add(pg[p], (double)vsnl_u64(by_phase, phases[p]), name, NULL))
				goto nomem;
	}
	for (u32 x = 0; x < Q_NR && !ret; x++) {
		ret = fam_register(reg, cpu[x], err) ?: fam_register(reg, mem[x], err) ?:
		      fam_register(reg, scalar[x], err);
		cpu[x] = mem[x] = scalar[x] = NULL;
	}
	ret = ret ?: fam_register(reg, share, err);
	share = NULL;
	ret = ret ?: fam_register(reg, weight, err);
	weight = NULL;
	ret = ret ?: fam_register(reg, overused, err);
	overused = NULL;
	for (u32 p = 0; p < ARRAY_SIZE(phases); p++) {
		ret = ret ?: fam_register(reg, pg[p], err);
		pg[p] = NULL;
	}
	goto out;
nomem:
	ret = vsnl_err_set(err, ENOMEM, "out of memory");
out:
	for (u32 x = 0; x < Q_NR; x++) {
		fam_free(cpu[x]);
		fam_free(mem[x]);
		fam_free(scalar[x]);
	}
	for (u32 p = 0; p < ARRAY_SIZE(phases); p++)
		fam_free(pg[p]);
	fam_free(share);
	fam_free(weight);
	fam_free(overused);
	return ret;
}

/* The metrics of VS_A_STATS under Volcano's names. */
static int put_stats_metrics(struct vsnl_prom_reg *reg, const json_t *st, struct vsnl_err *err)
{
	const json_t *hists = json_object_get(st, "histograms");
	struct fam *attempts = fam_new("volcano_schedule_attempts_total", "Tasks the scheduler "
				       "tried to place, by result.", VSNL_PROM_COUNTER, "result", NULL);
	struct fam *evictions = fam_new("volcano_eviction_transactions_total", "Committed "
					"transactions that evicted, by action.", VSNL_PROM_COUNTER,
					"action", NULL);
	int ret;

	if (!attempts || !evictions ||
	    fam_add(attempts, (double)vsnl_u64(st, "attemptsScheduled"), "scheduled", NULL) ||
	    fam_add(attempts, (double)vsnl_u64(st, "attemptsUnschedulable"), "unschedulable",
		    NULL) ||
	    fam_add(attempts, (double)vsnl_u64(st, "bindFailures"), "error", NULL) ||
	    fam_add(evictions, (double)vsnl_u64(st, "evictionTransactionsPreempt"), "preempt",
		    NULL) ||
	    fam_add(evictions, (double)vsnl_u64(st, "evictionTransactionsReclaim"), "reclaim",
		    NULL) ||
	    fam_add(evictions, (double)vsnl_u64(st, "evictionTransactionsGangPreempt"),
		    "gangpreempt", NULL) ||
	    fam_add(evictions, (double)vsnl_u64(st, "evictionTransactionsGangReclaim"),
		    "gangreclaim", NULL)) {
		fam_free(attempts);
		fam_free(evictions);
		return vsnl_err_set(err, ENOMEM, "out of memory");
	}
	ret = put_hist_family(reg, hists, "e2e_scheduling_latency_milliseconds",
			      "A whole cycle, from opening the session to closing it, in "
			      "milliseconds.", err) ?:
	      put_hist_family(reg, hists, "open_session_duration_milliseconds",
			      "Opening a session, in milliseconds.", err) ?:
	      put_hist_family(reg, hists, "action_scheduling_latency_milliseconds",
			      "One action of a cycle, in milliseconds.", err) ?:
	      put_hist_family(reg, hists, "plugin_scheduling_latency_milliseconds",
			      "A plugin's OnSessionOpen or OnSessionClose, in milliseconds.", err);
	ret = ret ?: fam_register(reg, attempts, err);
	attempts = NULL;
	ret = ret ?: fam_register(reg, evictions, err);
	evictions = NULL;
	fam_free(attempts);
	fam_free(evictions);
	return ret ?:
	       put_one(reg, "volcano_total_preemption_attempts", "Nodes preempt tried to free "
		       "for a task.", VSNL_PROM_COUNTER, (double)vsnl_u64(st, "preemptionAttempts"),
		       err) ?:
	       put_one(reg, "volcano_pod_preemption_victims", "Candidate victims of the last "
		       "preemption attempt.", VSNL_PROM_GAUGE, (double)vsnl_u64(st, "preemptionVictims"),
		       err) ?:
	       put_one(reg, "volcano_unschedule_job_count", "Jobs the last cycle left not "
		       "ready.", VSNL_PROM_GAUGE, (double)vsnl_u64(st, "unschedulableJobs"), err) ?:
	       put_one(reg, "volcano_unschedule_task_count", "Tasks those jobs lack to reach "
		       "minMember, summed over the jobs.", VSNL_PROM_GAUGE,
		       (double)vsnl_u64(st, "unschedulableTasks"), err);
}

int vsnl_sched_metrics(struct vsnl *c, struct vsnl_prom_reg *reg, struct vsnl_err *err)
{
	json_t *stats = NULL, *queues = json_array();
	struct vsnl_collect col = { "queue", queues };
	int ret;

	if (!queues)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	ret = vsnl_stats_get(c, &stats, err) ?:
	      vsnl_request(c, vsnl_msg_new(VS_CMD_QUEUE_GET, NLM_F_DUMP), vsnl_render_collect,
			   &col, err) ?:
	      put_stats_metrics(reg, stats, err) ?: put_queues(reg, queues, err);
	json_decref(stats);
	json_decref(queues);
	return ret;
}

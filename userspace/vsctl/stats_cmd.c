// SPDX-License-Identifier: Apache-2.0
/*
 * What the daemon counts:
 *
 *	vsctl stats [show] [-o json | -j]	counters, Volcano's scheduler metrics, the last cycle
 *	vsctl stats show --prometheus		the same in Prometheus' text format, with
 *						Volcano's metric names and the queues' gauges
 *	vsctl stats pools [-o json | -j]	the object pools, as /proc/slabinfo shows caches
 *
 * The daemon keeps the histograms as bucket counts (kernel/sched/metrics.h);
 * the quantiles printed here are Prometheus' histogram_quantile() over
 * them, so they say which bucket a latency fell in, not its exact value.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compiler.h"
#include "lib/prom.h"
#include "sched/metrics.h"
#include "vsctl/objects.h"
#include "vsctl/render.h"
#include "vsctl/request.h"
#include "vsctl/table.h"
#include "vsctl/vsctl.h"

enum { OPT_SOCKET = 0x100, OPT_PROMETHEUS };

struct stats_opts {
	const char *socket;
	bool json;
	bool prometheus;
};

/* 0, -1 after --help, or 2 after a usage error (said). */
static int parse(int argc, char **argv, bool show, struct stats_opts *o)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "prometheus", no_argument, NULL, OPT_PROMETHEUS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	FILE *out = stderr;
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:jh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SOCKET:
			o->socket = optarg;
			break;
		case 'o':
			if (strcmp(optarg, "json")) {
				fprintf(stderr, "%s: -o: \"%s\" is not an output here (json)\n",
					argv[0], optarg);
				return 2;
			}
			/* fall through */
		case 'j':
			o->json = true;
			break;
		case OPT_PROMETHEUS:
			if (show) {
				o->prometheus = true;
				break;
			}
			/* fall through */
		default:
			goto usage;
		case 'h':
			out = stdout;
			goto usage;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "%s: unexpected argument \"%s\"\n", argv[0], argv[optind]);
		goto usage;
	}
	if (o->json && o->prometheus) {
		fprintf(stderr, "%s: -j and --prometheus: choose one output\n", argv[0]);
		return 2;
	}
	return 0;

usage:
	fprintf(out, "usage: %s [--socket PATH] [-o json | -j%s]\n\noptions:\n", argv[0],
		show ? " | --prometheus" : "");
	vsctl_print_option(out, "--socket PATH", "the daemon's socket (default $"
			   VSCHED_SOCKET_ENV ", else " VSCHED_SOCKET_DEFAULT ")");
	vsctl_print_option(out, "-o json, -j", "the daemon's answer as JSON");
	if (show)
		vsctl_print_option(out, "--prometheus", "Prometheus' text format, with Volcano's "
				   "metric names");
	return out == stdout ? -1 : 2;
}

/* The daemon's VS_A_STATS, as JSON in *@st (owned by *@reply); 0 or 1 once said. */
static int get_stats(const char *socket, const char *prog, json_t **reply, json_t **st)
{
	int ret = vsctl_request(socket, vsnl_msg_new(VS_CMD_STATS_GET, 0), vsctl_keep_reply, reply);

	if (ret)
		return ret;
	*st = json_object_get(*reply, "stats");
	if (!*st) {
		fprintf(stderr, "%s: the reply carries no statistics\n", prog);
		return 1;
	}
	return 0;
}

static char *fmt(const char *f, ...) __printf(1, 2);

static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vasprintf(&s, f, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

/* ---- histograms ---- */

/* The bounds of a histogram as the reply describes them: its spec, 0 when it makes none. */
static bool hist_spec(const json_t *h, struct vs_hist_spec *spec)
{
	size_t n = json_array_size(json_object_get(h, "buckets"));

	spec->min_us = (u32)vsctl_u64(h, "minUs");
	spec->max_us = (u32)vsctl_u64(h, "maxUs");
	spec->nr = n ? (u32)n - 1 : 0;
	return spec->nr >= 2 && spec->nr <= VS_HIST_BUCKETS_MAX && spec->min_us &&
	       spec->max_us > spec->min_us;
}

/* Whether @h is a histogram of the family @name with bounds it can say (its @spec). */
static bool hist_of(const json_t *h, const char *name, struct vs_hist_spec *spec)
{
	const char *n = json_string_value(json_object_get(h, "name"));

	return n && !strcmp(n, name) && hist_spec(h, spec);
}

/*
 * Prometheus' histogram_quantile() on one series: the bucket where the
 * rank falls, interpolated linearly; past the last bound, that bound.
 */
static double hist_quantile(const json_t *h, const struct vs_hist_spec *spec, double q)
{
	const json_t *b = json_object_get(h, "buckets");
	double count = (double)vsctl_u64(h, "count"), rank = q * count, cum = 0;

	if (!count)
		return NAN;
	for (u32 i = 0; i <= spec->nr; i++) {
		double in = (double)json_integer_value(json_array_get(b, i));
		double lo = i ? vs_hist_bound_ms(spec, i - 1) : 0;

		if (cum + in < rank || !in) {
			cum += in;
			continue;
		}
		if (i == spec->nr)
			return vs_hist_bound_ms(spec, spec->nr - 1);
		return lo + (vs_hist_bound_ms(spec, i) - lo) * (rank - cum) / in;
	}
	return vs_hist_bound_ms(spec, spec->nr - 1);
}

/* "action_scheduling_latency_milliseconds{action=\"allocate\"}" */
static char *hist_series(const json_t *h)
{
	const json_t *labels = json_object_get(h, "labels"), *v;
	const char *name = json_string_value(json_object_get(h, "name"));
	char *s = fmt("%s", name ? name : "?"), *t;
	const char *k, *sep = "{";

	json_object_foreach((json_t *)labels, k, v) {
		t = s ? fmt("%s%s%s=\"%s\"", s, sep, k, json_string_value(v)) : NULL;
		free(s);
		s = t;
		sep = ",";
	}
	if (s && json_object_size(labels)) {
		t = fmt("%s}", s);
		free(s);
		s = t;
	}
	return s;
}

static void print_latencies(const json_t *st)
{
	const json_t *hists = json_object_get(st, "histograms"), *h;
	struct vs_hist_spec spec;
	struct vsctl_table t;
	size_t i;

	if (!json_array_size(hists))
		return;
	vsctl_table_init(&t);
	vsctl_table_header(&t, "LATENCY (ms)");
	vsctl_table_header(&t, "COUNT");
	vsctl_table_header(&t, "MEAN");
	vsctl_table_header(&t, "P50");
	vsctl_table_header(&t, "P99");
	json_array_foreach(hists, i, h) {
		double count = (double)vsctl_u64(h, "count");

		if (!hist_spec(h, &spec))
			continue;
		vsctl_table_cell(&t, hist_series(h));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)count));
		vsctl_table_cell(&t, fmt("%.3f", (double)vsctl_u64(h, "sumNs") / 1e6 / count));
		vsctl_table_cell(&t, fmt("%.3f", hist_quantile(h, &spec, 0.5)));
		vsctl_table_cell(&t, fmt("%.3f", hist_quantile(h, &spec, 0.99)));
	}
	putchar('\n');
	vsctl_table_print(&t, stdout);
	vsctl_table_free(&t);
}

/* ---- stats show ---- */

static void print_stats(const json_t *st)
{
	static const char *const counters[] = {
		"cycles", "binds", "evicts", "bindFailures", "discardedOps",
		"nrNodes", "nrQueues", "nrPodGroups", "nrTasks", "nrVolcanoJobs",
		"nrPriorityClasses", "rssBytes",
	};

	for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
		json_t *v = json_object_get(st, counters[i]);

		if (v)
			printf("%-18s %lld\n", counters[i], json_integer_value(v));
	}
	if (json_object_get(st, "attemptsScheduled")) {
		printf("%-18s %llu scheduled, %llu unschedulable, %llu error\n", "scheduleAttempts",
		       (unsigned long long)vsctl_u64(st, "attemptsScheduled"),
		       (unsigned long long)vsctl_u64(st, "attemptsUnschedulable"),
		       (unsigned long long)vsctl_u64(st, "bindFailures"));
		printf("%-18s %llu attempts, %llu victims in the last; %llu preempt and %llu "
		       "reclaim transactions evicted\n", "preemption",
		       (unsigned long long)vsctl_u64(st, "preemptionAttempts"),
		       (unsigned long long)vsctl_u64(st, "preemptionVictims"),
		       (unsigned long long)vsctl_u64(st, "evictionTransactionsPreempt"),
		       (unsigned long long)vsctl_u64(st, "evictionTransactionsReclaim"));
		printf("%-18s %llu jobs, %llu tasks short of minMember\n", "unschedulable",
		       (unsigned long long)vsctl_u64(st, "unschedulableJobs"),
		       (unsigned long long)vsctl_u64(st, "unschedulableTasks"));
	}
	if (json_object_get(st, "lastCycle")) {
		printf("last ");
		vsctl_print_cycle(json_object_get(st, "lastCycle"));
	}
	print_latencies(st);
}

int vsctl_stats_show(int argc, char **argv)
{
	json_t *reply = NULL, *st;
	struct stats_opts o;
	int ret;

	ret = parse(argc, argv, true, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (o.prometheus)
		return vsctl_stats_prometheus(o.socket, argv[0]);
	ret = get_stats(o.socket, argv[0], &reply, &st);
	if (!ret) {
		if (o.json)
			ret = vsctl_print_json(st);
		else
			print_stats(st);
	}
	json_decref(reply);
	return ret;
}

/* ---- stats pools ---- */

int vsctl_stats_pools(int argc, char **argv)
{
	json_t *reply = NULL, *st, *pools, *p;
	struct stats_opts o;
	struct vsctl_table t;
	size_t i;
	int ret;

	ret = parse(argc, argv, false, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = get_stats(o.socket, argv[0], &reply, &st);
	if (ret)
		goto out;
	pools = json_object_get(st, "pools");
	if (o.json) {
		ret = vsctl_print_json(pools ? pools : json_array());
		goto out;
	}
	vsctl_table_init(&t);
	vsctl_table_header(&t, "NAME");
	vsctl_table_header(&t, "ACTIVE_OBJS");
	vsctl_table_header(&t, "NUM_OBJS");
	vsctl_table_header(&t, "OBJSIZE");
	vsctl_table_header(&t, "OBJPERSLAB");
	vsctl_table_header(&t, "NUM_SLABS");
	vsctl_table_header(&t, "BYTES");
	json_array_foreach(pools, i, p) {
		u64 slabs = vsctl_u64(p, "slabs");

		vsctl_table_cell(&t, vsctl_render_cell(json_object_get(p, "name")));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)vsctl_u64(p, "active")));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)vsctl_u64(p, "total")));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)vsctl_u64(p, "objSize")));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)(slabs ?
						  vsctl_u64(p, "total") / slabs : 0)));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)slabs));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)vsctl_u64(p, "bytes")));
	}
	ret = vsctl_table_print(&t, stdout) ? 1 : 0;
	vsctl_table_free(&t);
out:
	json_decref(reply);
	return ret;
}

/* ---- stats show --prometheus ---- */

/*
 * A family being gathered from the replies: its series' label values and
 * numbers, registered once all are known (a registry's series are fixed).
 */
struct fam {
	const char *name, *help;
	enum prom_kind kind;
	const char *labels[2];		/* label names, NULL after the last */
	u32 nr_labels;
	const char **values;		/* nr x nr_labels */
	double *v;
	u32 nr, cap;
};

static struct fam *fam_new(const char *name, const char *help, enum prom_kind kind,
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
static int fam_register(struct prom_reg *reg, struct fam *f, struct vs_err *err)
{
	struct prom_desc d = { .name = f->name, .help = f->help, .kind = f->kind };
	const char **rows = NULL;
	struct prom_metric *m;
	int ret = 0;

	if (f->nr_labels && !f->nr)
		goto out;
	d.labels[0] = f->labels[0];
	d.labels[1] = f->labels[1];
	if (f->nr_labels) {
		/* The rows as the registry reads them: nr_labels values each. */
		rows = calloc((size_t)f->nr * f->nr_labels, sizeof(*rows));
		if (!rows) {
			ret = vs_err_set(err, ENOMEM, "out of memory");
			goto out;
		}
		for (u32 i = 0; i < f->nr; i++)
			for (u32 l = 0; l < f->nr_labels; l++)
				rows[i * f->nr_labels + l] = f->values[i * 2 + l];
		d.values = rows;
		d.nr_series = f->nr;
	}
	m = prom_register(reg, &d, err);
	if (!m) {
		ret = -EINVAL;
		goto out;
	}
	for (u32 i = 0; i < (f->nr_labels ? f->nr : 1); i++)
		if (f->kind == PROM_GAUGE)
			prom_set(m, i, f->nr ? f->v[i] : 0);
		else
			prom_add(m, i, f->nr ? f->v[i] : 0);
out:
	free(rows);
	fam_free(f);
	return ret;
}

/* One unlabelled counter or gauge. */
static int put_one(struct prom_reg *reg, const char *name, const char *help,
		   enum prom_kind kind, double v, struct vs_err *err)
{
	struct fam *f = fam_new(name, help, kind, NULL, NULL);

	if (!f || fam_add(f, v, NULL, NULL)) {
		fam_free(f);
		return vs_err_set(err, ENOMEM, "out of memory");
	}
	return fam_register(reg, f, err);
}

/* Every histogram of the reply named @name, as one family. */
static int put_hist_family(struct prom_reg *reg, const json_t *hists, const char *name,
			   const char *help, struct vs_err *err)
{
	struct prom_desc d = { .kind = PROM_HISTOGRAM, .help = help };
	const char **rows = NULL;
	struct vs_hist_spec spec = { 0, 0, 0 };
	double bounds[VS_HIST_BUCKETS_MAX];
	struct prom_metric *m;
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
	if (!nr || nl > PROM_LABELS_MAX - 1)
		return 0;
	rows = calloc((size_t)nr * (nl ? nl : 1), sizeof(*rows));
	if (!rows)
		return vs_err_set(err, ENOMEM, "out of memory");
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
		bounds[b] = vs_hist_bound_ms(&spec, b);
	d.name = fmt("volcano_%s", name);
	d.buckets = bounds;
	d.nr_buckets = spec.nr;
	if (nl) {
		d.values = rows;
		d.nr_series = nr;
	}
	m = d.name ? prom_register(reg, &d, err) : NULL;
	if (!m) {
		ret = d.name ? -EINVAL : vs_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	s = 0;
	json_array_foreach(hists, i, h) {
		u64 counts[VS_HIST_BUCKETS_MAX + 1];
		struct vs_hist_spec hs;

		if (!hist_of(h, name, &hs))
			continue;
		for (u32 b = 0; b <= hs.nr && b <= VS_HIST_BUCKETS_MAX; b++)
			counts[b] = (u64)json_integer_value(json_array_get(json_object_get(h, "buckets"),
									   b));
		prom_hist_set(m, s++, counts, hs.nr + 1, (double)vsctl_u64(h, "sumNs") / 1e6);
	}
out:
	free((char *)d.name);
	free(rows);
	return ret;
}

enum { Q_ALLOCATED, Q_REQUEST, Q_DESERVED, Q_CAPACITY, Q_NR };

static int put_queues(struct prom_reg *reg, const json_t *queues, struct vs_err *err)
{
	static const struct {
		const char *key, *what;
	} res[Q_NR] = {
		[Q_ALLOCATED] = { "allocated", "allocated" },
		[Q_REQUEST] = { "request", "request" },
		[Q_DESERVED] = { "cycleDeserved", "deserved" },
		[Q_CAPACITY] = { "capability", "capacity" },
	};
	static const char *const phases[] = { "Inqueue", "Pending", "Running", "Unknown",
					      "Completed" };
	static const char *const phase_names[] = {
		"volcano_queue_pod_group_inqueue_count", "volcano_queue_pod_group_pending_count",
		"volcano_queue_pod_group_running_count", "volcano_queue_pod_group_unknown_count",
		"volcano_queue_pod_group_completed_count",
	};
	struct fam *cpu[Q_NR] = { NULL }, *mem[Q_NR] = { NULL }, *scalar[Q_NR] = { NULL };
	struct fam *share, *weight, *overused, *pg[ARRAY_SIZE(phases)] = { NULL };
	char *names[3 * Q_NR] = { NULL };
	const json_t *q, *r, *v;
	const char *k;
	size_t i;
	int ret = 0;

	share = fam_new("volcano_queue_share", "The queue's share of what it deserves, "
			"after the last cycle.", PROM_GAUGE, "queue_name", NULL);
	weight = fam_new("volcano_queue_weight", "The queue's weight.", PROM_GAUGE,
			 "queue_name", NULL);
	overused = fam_new("volcano_queue_overused", "1 when the last cycle found the queue "
			   "overused.", PROM_GAUGE, "queue_name", NULL);
	for (u32 p = 0; p < ARRAY_SIZE(phases); p++)
		pg[p] = fam_new(phase_names[p], "The queue's PodGroups in this phase.",
				PROM_GAUGE, "queue_name", NULL);
	for (u32 x = 0; x < Q_NR; x++) {
		names[3 * x] = fmt("volcano_queue_%s_milli_cpu", res[x].what);
		names[3 * x + 1] = fmt("volcano_queue_%s_memory_bytes", res[x].what);
		names[3 * x + 2] = fmt("volcano_queue_%s_scalar_resources", res[x].what);
		if (!names[3 * x] || !names[3 * x + 1] || !names[3 * x + 2])
			goto nomem;
		cpu[x] = fam_new(names[3 * x], "The queue's CPU in millicores.", PROM_GAUGE,
				 "queue_name", NULL);
		mem[x] = fam_new(names[3 * x + 1], "The queue's memory in bytes.", PROM_GAUGE,
				 "queue_name", NULL);
		scalar[x] = fam_new(names[3 * x + 2], "The queue's other resources, in "
				    "milli-units.", PROM_GAUGE, "queue_name", "resource");
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
			if (fam_add(cpu[x], vsctl_quantity(r, "cpu"), name, NULL) ||
			    fam_add(mem[x], vsctl_quantity(r, "memory"), name, NULL))
				goto nomem;
			json_object_foreach((json_t *)r, k, v)
				if (strcmp(k, "cpu") && strcmp(k, "memory") && strcmp(k, "pods") &&
				    fam_add(scalar[x], vsctl_quantity(r, k), name, k))
					goto nomem;
		}
		if ((seen && (fam_add(share, (double)vsctl_u64(q, "sharePpm") / 1e6, name, NULL) ||
			      fam_add(overused, json_is_true(json_object_get(q, "overused")),
				      name, NULL))) ||
		    fam_add(weight, (double)vsctl_u64(q, "weight"), name, NULL))
			goto nomem;
		for (u32 p = 0; p < ARRAY_SIZE(phases); p++)
			if (!pg[p] || fam_add(pg[p], (double)vsctl_u64(json_object_get(q, "nrPodGroups"),
							 phases[p]), name, NULL))
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
	ret = vs_err_set(err, ENOMEM, "out of memory");
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
	/* The registry copied the names it kept. */
	for (u32 x = 0; x < ARRAY_SIZE(names); x++)
		free(names[x]);
	return ret;
}

/* The metrics of VS_A_STATS under Volcano's names. */
static int put_stats_metrics(struct prom_reg *reg, const json_t *st, struct vs_err *err)
{
	const json_t *hists = json_object_get(st, "histograms");
	struct fam *attempts = fam_new("volcano_schedule_attempts_total", "Tasks the scheduler "
				       "tried to place, by result.", PROM_COUNTER, "result", NULL);
	struct fam *evictions = fam_new("volcano_eviction_transactions_total", "Committed "
					"transactions that evicted, by action.", PROM_COUNTER,
					"action", NULL);
	int ret;

	if (!attempts || !evictions ||
	    fam_add(attempts, (double)vsctl_u64(st, "attemptsScheduled"), "scheduled", NULL) ||
	    fam_add(attempts, (double)vsctl_u64(st, "attemptsUnschedulable"), "unschedulable",
		    NULL) ||
	    fam_add(attempts, (double)vsctl_u64(st, "bindFailures"), "error", NULL) ||
	    fam_add(evictions, (double)vsctl_u64(st, "evictionTransactionsPreempt"), "preempt",
		    NULL) ||
	    fam_add(evictions, (double)vsctl_u64(st, "evictionTransactionsReclaim"), "reclaim",
		    NULL)) {
		fam_free(attempts);
		fam_free(evictions);
		return vs_err_set(err, ENOMEM, "out of memory");
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
		       "for a task.", PROM_COUNTER, (double)vsctl_u64(st, "preemptionAttempts"),
		       err) ?:
	       put_one(reg, "volcano_pod_preemption_victims", "Candidate victims of the last "
		       "preemption attempt.", PROM_GAUGE, (double)vsctl_u64(st, "preemptionVictims"),
		       err) ?:
	       put_one(reg, "volcano_unschedule_job_count", "Jobs the last cycle left not "
		       "ready.", PROM_GAUGE, (double)vsctl_u64(st, "unschedulableJobs"), err) ?:
	       put_one(reg, "volcano_unschedule_task_count", "Tasks those jobs lack to reach "
		       "minMember, summed over the jobs.", PROM_GAUGE,
		       (double)vsctl_u64(st, "unschedulableTasks"), err);
}

int vsctl_stats_prometheus(const char *socket, const char *prog)
{
	json_t *reply = NULL, *st, *queues = json_array();
	struct prom_reg *reg = prom_reg_new();
	struct vs_err err = { 0 };
	char *text = NULL;
	size_t len;
	int ret;

	if (!queues || !reg) {
		ret = vsctl_fail(-ENOMEM, NULL);
		goto out;
	}
	ret = get_stats(socket, prog, &reply, &st) ?:
	      vsctl_dump(socket, vsnl_msg_new(VS_CMD_QUEUE_GET, NLM_F_DUMP), "queue", queues);
	if (ret)
		goto out;
	if (put_stats_metrics(reg, st, &err) || put_queues(reg, queues, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		ret = 1;
		goto out;
	}
	text = prom_render(reg, 0, &len);
	if (!text || fwrite(text, 1, len, stdout) != len)
		ret = 1;
out:
	free(text);
	prom_reg_free(reg);
	json_decref(queues);
	json_decref(reply);
	return ret;
}

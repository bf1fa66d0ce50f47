// SPDX-License-Identifier: Apache-2.0
/*
 * What the daemon counts:
 *
 *	vsctl stats [show] [-o json | -j]	counters, Volcano's scheduler metrics, the last cycle
 *	vsctl stats show --prometheus		the same in Prometheus' text format, with
 *						Volcano's metric names and the queues' gauges
 *	vsctl stats pools [-o json | -j]	the object pools, as /proc/slabinfo shows caches
 *
 * The daemon keeps the histograms as bucket counts (VS_STATS_A_HIST);
 * the quantiles printed here are Prometheus' histogram_quantile() over
 * them, so they say which bucket a latency fell in, not its exact value.
 * The Prometheus view is lib/sched_metrics.h's, the one vskube serves.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/prom.h"
#include "lib/render.h"
#include "lib/sched_metrics.h"
#include "vsctl/objects.h"
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
			if (vsctl_json_output(argv[0], optarg))
				return 2;
			fallthrough;
		case 'j':
			o->json = true;
			break;
		case OPT_PROMETHEUS:
			if (show) {
				o->prometheus = true;
				break;
			}
			fallthrough;
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

/* The daemon's VS_A_STATS, as JSON in *@st (the caller's); 0, or 1 once said. */
static int get_stats(const char *socket, json_t **st)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = vsctl_connect(socket);
	int ret;

	*st = NULL;
	if (!c)
		return 1;
	ret = vsnl_stats_get(c, st, &err);
	vsnl_close(c);
	return ret ? vsctl_fail(ret, &err) : 0;
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

/*
 * Prometheus' histogram_quantile() on one series: the bucket where the
 * rank falls, interpolated linearly; past the last bound, that bound.
 */
static double hist_quantile(const json_t *h, const struct vsnl_hist_spec *spec, double q)
{
	const json_t *b = json_object_get(h, "buckets");
	double count = (double)vsnl_u64(h, "count"), rank = q * count, cum = 0;

	if (!count)
		return (double)NAN;
	for (u32 i = 0; i <= spec->nr; i++) {
		double in = (double)json_integer_value(json_array_get(b, i));
		double lo = i ? vsnl_hist_bound_ms(spec, i - 1) : 0;

		if (cum + in < rank || !in) {
			cum += in;
			continue;
		}
		if (i == spec->nr)
			return vsnl_hist_bound_ms(spec, spec->nr - 1);
		return lo + (vsnl_hist_bound_ms(spec, i) - lo) * (rank - cum) / in;
	}
	return vsnl_hist_bound_ms(spec, spec->nr - 1);
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
	struct vsnl_hist_spec spec;
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
		double count = (double)vsnl_u64(h, "count");

		if (!vsnl_hist_spec(h, &spec))
			continue;
		vsctl_table_cell(&t, hist_series(h));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)count));
		vsctl_table_cell(&t, fmt("%.3f", (double)vsnl_u64(h, "sumNs") / 1e6 / count));
		vsctl_table_cell(&t, fmt("%.3f", hist_quantile(h, &spec, 0.5)));
		vsctl_table_cell(&t, fmt("%.3f", hist_quantile(h, &spec, 0.99)));
	}
	putchar('\n');
	vsctl_table_print(&t, stdout);
	vsctl_table_free(&t);
}

/* The scheduler's metrics in Prometheus' text format on stdout; 0, or 1 once said. */
static int vsctl_stats_prometheus(const char *socket)
{
	struct vsnl_prom_reg *reg = vsnl_prom_reg_new();
	struct vsnl_err err = { 0 };
	struct vsnl *c = NULL;
	char *text = NULL;
	size_t len;
	int ret = 1;

	if (!reg) {
		ret = vsctl_fail(-ENOMEM, NULL);
		goto out;
	}
	c = vsctl_connect(socket);
	if (!c)
		goto out;
	ret = vsnl_sched_metrics(c, reg, &err);
	if (ret) {
		ret = vsctl_fail(ret, &err);
		goto out;
	}
	text = vsnl_prom_render(reg, 0, &len);
	ret = !text || fwrite(text, 1, len, stdout) != len;
out:
	free(text);
	vsnl_close(c);
	vsnl_prom_reg_free(reg);
	return ret;
}

/* ---- stats show ---- */

static void print_stats(const json_t *st)
{
	static const char *const counters[] = {
		"cycles", "binds", "evicts", "bindFailures", "discardedOps",
		"nrNodes", "nrQueues", "nrPodGroups", "nrTasks", "nrVolcanoJobs",
		"nrPriorityClasses", "nrHyperNodes", "rssBytes", "heapBytes", "maxMemoryBytes",
		"connectionsRefused",
	};

	for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
		json_t *v = json_object_get(st, counters[i]);

		if (v)
			printf("%-18s %lld\n", counters[i], json_integer_value(v));
	}
	if (json_object_get(st, "hyperNodesReady"))
		printf("%-18s %s\n", "hyperNodesReady",
		       json_is_true(json_object_get(st, "hyperNodesReady")) ? "true" : "false");
	if (json_object_get(st, "attemptsScheduled")) {
		printf("%-18s %llu scheduled, %llu unschedulable, %llu error\n", "scheduleAttempts",
		       (unsigned long long)vsnl_u64(st, "attemptsScheduled"),
		       (unsigned long long)vsnl_u64(st, "attemptsUnschedulable"),
		       (unsigned long long)vsnl_u64(st, "bindFailures"));
		printf("%-18s %llu attempts, %llu victims in the last; %llu preempt, %llu "
		       "reclaim, %llu gangpreempt and %llu gangreclaim transactions evicted\n",
		       "preemption",
		       (unsigned long long)vsnl_u64(st, "preemptionAttempts"),
		       (unsigned long long)vsnl_u64(st, "preemptionVictims"),
		       (unsigned long long)vsnl_u64(st, "evictionTransactionsPreempt"),
		       (unsigned long long)vsnl_u64(st, "evictionTransactionsReclaim"),
		       (unsigned long long)vsnl_u64(st, "evictionTransactionsGangPreempt"),
		       (unsigned long long)vsnl_u64(st, "evictionTransactionsGangReclaim"));
		printf("%-18s %llu jobs, %llu tasks short of minMember\n", "unschedulable",
		       (unsigned long long)vsnl_u64(st, "unschedulableJobs"),
		       (unsigned long long)vsnl_u64(st, "unschedulableTasks"));
	}
	if (json_object_get(st, "lastCycle")) {
		printf("last ");
		vsctl_print_cycle(json_object_get(st, "lastCycle"));
	}
	print_latencies(st);
}

int vsctl_stats_show(int argc, char **argv)
{
	struct stats_opts o;
	json_t *st = NULL;
	int ret;

	ret = parse(argc, argv, true, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (o.prometheus)
		return vsctl_stats_prometheus(o.socket);
	ret = get_stats(o.socket, &st);
	if (!ret) {
		if (o.json)
			ret = vsctl_print_json(st);
		else
			print_stats(st);
	}
	json_decref(st);
	return ret;
}

/* ---- stats pools ---- */

int vsctl_stats_pools(int argc, char **argv)
{
	json_t *st = NULL, *pools, *p;
	struct stats_opts o;
	struct vsctl_table t;
	size_t i;
	int ret;

	ret = parse(argc, argv, false, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = get_stats(o.socket, &st);
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
		u64 slabs = vsnl_u64(p, "slabs");

		vsctl_table_cell(&t, vsnl_render_cell(json_object_get(p, "name")));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)vsnl_u64(p, "active")));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)vsnl_u64(p, "total")));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)vsnl_u64(p, "objSize")));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)(slabs ?
						  vsnl_u64(p, "total") / slabs : 0)));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)slabs));
		vsctl_table_cell(&t, fmt("%llu", (unsigned long long)vsnl_u64(p, "bytes")));
	}
	ret = vsctl_table_print(&t, stdout) ? 1 : 0;
	vsctl_table_free(&t);
out:
	json_decref(st);
	return ret;
}

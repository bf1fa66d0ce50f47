// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for vskube's metrics registry (userspace/vskube/kserve.h): each
 * kind of family rendered in Prometheus' text format, byte for byte, with
 * labels, cumulative buckets, escaping and the number forms; the updates
 * that do not fit; the families refused.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "vskube/kserve.h"

static struct kserve_reg *reg;

static void setup(void)
{
	reg = kserve_reg_new();
	cr_assert_not_null(reg);
}

static void teardown(void)
{
	kserve_reg_free(reg);
}

TestSuite(kserve, .init = setup, .fini = teardown, .timeout = 60);

/* The exposition a scrape gets, byte for byte. */
static void expect_metrics(const char *want)
{
	size_t len;
	char *text = kserve_render(reg, 0, &len);

	cr_assert_not_null(text);
	cr_expect_str_eq(text, want);
	cr_expect_eq(len, strlen(text));
	free(text);
}

static struct kserve_metric *must_register(const struct kserve_desc *d)
{
	struct vs_err e = { { 0 } };
	struct kserve_metric *m = kserve_register(reg, d, &e);

	cr_assert_not_null(m, "%s", e.msg);
	return m;
}

static const char *const results[] = { "success", "error" };

static const double latency_buckets[] = { 0.005, 0.1, 1, 2.5 };

Test(kserve, metrics_renders_each_kind_exactly)
{
	static const struct kserve_desc cycles = {
		.name = "vskube_cycles_total",
		.help = "Scheduling cycles run.",
		.kind = KSERVE_COUNTER,
	};
	static const struct kserve_desc binds = {
		.name = "vskube_binds_total",
		.help = "Pods bound, by result.",
		.kind = KSERVE_COUNTER,
		.labels = { "result" },
		.values = results,
		.nr_series = ARRAY_SIZE(results),
	};
	static const struct kserve_desc pending = {
		.name = "vskube_pending_pods",
		.help = "Pods waiting for a node.",
		.kind = KSERVE_GAUGE,
	};
	static const struct kserve_desc latency = {
		.name = "vskube_bind_seconds",
		.help = "Time to bind, from the decision.",
		.kind = KSERVE_HISTOGRAM,
		.buckets = latency_buckets,
		.nr_buckets = ARRAY_SIZE(latency_buckets),
	};
	struct kserve_metric *m_cycles = must_register(&cycles);
	struct kserve_metric *m_binds = must_register(&binds);
	struct kserve_metric *m_pending = must_register(&pending);
	struct kserve_metric *m_latency = must_register(&latency);

	kserve_inc(m_cycles, 0);
	kserve_add(m_cycles, 0, 2);
	kserve_add(m_binds, 0, 40);
	kserve_inc(m_binds, 1);
	kserve_set(m_pending, 0, 12);
	kserve_add(m_pending, 0, -4.5);
	/* On a bound counts in that bucket (le); above the last, in +Inf only. */
	kserve_observe(m_latency, 0, 0.005);
	kserve_observe(m_latency, 0, 0.05);
	kserve_observe(m_latency, 0, 0.1);
	kserve_observe(m_latency, 0, 2);
	kserve_observe(m_latency, 0, 7.25);
	expect_metrics("# HELP vskube_cycles_total Scheduling cycles run.\n"
		       "# TYPE vskube_cycles_total counter\n"
		       "vskube_cycles_total 3\n"
		       "# HELP vskube_binds_total Pods bound, by result.\n"
		       "# TYPE vskube_binds_total counter\n"
		       "vskube_binds_total{result=\"success\"} 40\n"
		       "vskube_binds_total{result=\"error\"} 1\n"
		       "# HELP vskube_pending_pods Pods waiting for a node.\n"
		       "# TYPE vskube_pending_pods gauge\n"
		       "vskube_pending_pods 7.5\n"
		       "# HELP vskube_bind_seconds Time to bind, from the decision.\n"
		       "# TYPE vskube_bind_seconds histogram\n"
		       "vskube_bind_seconds_bucket{le=\"0.005\"} 1\n"
		       "vskube_bind_seconds_bucket{le=\"0.1\"} 3\n"
		       "vskube_bind_seconds_bucket{le=\"1\"} 3\n"
		       "vskube_bind_seconds_bucket{le=\"2.5\"} 4\n"
		       "vskube_bind_seconds_bucket{le=\"+Inf\"} 5\n"
		       "vskube_bind_seconds_sum 9.405\n"
		       "vskube_bind_seconds_count 5\n");
}

Test(kserve, a_labelled_histogram_puts_le_last)
{
	static const char *const values[] = {
		"allocate", "success",
		"allocate", "error",
		"preempt", "success",
	};
	static const double buckets[] = { 1, 10 };
	static const struct kserve_desc d = {
		.name = "action_seconds",
		.kind = KSERVE_HISTOGRAM,
		.labels = { "action", "result" },
		.values = values,
		.nr_series = 3,
		.buckets = buckets,
		.nr_buckets = ARRAY_SIZE(buckets),
	};
	struct kserve_metric *m = must_register(&d);
	size_t len;
	char *text;

	kserve_observe(m, 1, 0.5);
	kserve_observe(m, 1, 20);
	kserve_observe(m, 2, 10);
	text = kserve_render(reg, 0, &len);
	cr_assert_not_null(text);
	cr_expect_str_eq(text,
		"# TYPE action_seconds histogram\n"
		"action_seconds_bucket{action=\"allocate\",result=\"success\",le=\"1\"} 0\n"
		"action_seconds_bucket{action=\"allocate\",result=\"success\",le=\"10\"} 0\n"
		"action_seconds_bucket{action=\"allocate\",result=\"success\",le=\"+Inf\"} 0\n"
		"action_seconds_sum{action=\"allocate\",result=\"success\"} 0\n"
		"action_seconds_count{action=\"allocate\",result=\"success\"} 0\n"
		"action_seconds_bucket{action=\"allocate\",result=\"error\",le=\"1\"} 1\n"
		"action_seconds_bucket{action=\"allocate\",result=\"error\",le=\"10\"} 1\n"
		"action_seconds_bucket{action=\"allocate\",result=\"error\",le=\"+Inf\"} 2\n"
		"action_seconds_sum{action=\"allocate\",result=\"error\"} 20.5\n"
		"action_seconds_count{action=\"allocate\",result=\"error\"} 2\n"
		"action_seconds_bucket{action=\"preempt\",result=\"success\",le=\"1\"} 0\n"
		"action_seconds_bucket{action=\"preempt\",result=\"success\",le=\"10\"} 1\n"
		"action_seconds_bucket{action=\"preempt\",result=\"success\",le=\"+Inf\"} 1\n"
		"action_seconds_sum{action=\"preempt\",result=\"success\"} 10\n"
		"action_seconds_count{action=\"preempt\",result=\"success\"} 1\n");
	cr_expect_eq(len, strlen(text));
	free(text);
}

Test(kserve, label_values_and_help_are_escaped)
{
	static const char *const odd[] = { "say \"hi\"", "C:\\dir", "two\nlines" };
	static const struct kserve_desc d = {
		.name = "odd_total",
		.help = "Help with a \\ and a\nnewline, and \"quotes\" left alone.",
		.kind = KSERVE_COUNTER,
		.labels = { "v" },
		.values = odd,
		.nr_series = ARRAY_SIZE(odd),
	};
	struct kserve_metric *m = must_register(&d);

	kserve_inc(m, 2);
	expect_metrics("# HELP odd_total Help with a \\\\ and a\\nnewline, "
		       "and \"quotes\" left alone.\n"
		       "# TYPE odd_total counter\n"
		       "odd_total{v=\"say \\\"hi\\\"\"} 0\n"
		       "odd_total{v=\"C:\\\\dir\"} 0\n"
		       "odd_total{v=\"two\\nlines\"} 1\n");
}

Test(kserve, numbers_are_written_as_prometheus_go_clients_write_them)
{
	static const char *const names[] = {
		"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
	};
	static const double v[] = {
		1e6, 123456, 1234567, 0.1 + 0.2, 1e-5, 0.0001, -2.5, NAN, INFINITY, -INFINITY, 0,
	};
	static const struct kserve_desc d = {
		.name = "g",
		.kind = KSERVE_GAUGE,
		.labels = { "n" },
		.values = names,
		.nr_series = ARRAY_SIZE(names),
	};
	struct kserve_metric *m = must_register(&d);
	size_t len;
	char *text;

	for (u32 i = 0; i < ARRAY_SIZE(v); i++)
		kserve_set(m, i, v[i]);
	text = kserve_render(reg, 16, &len);
	cr_assert_not_null(text);
	cr_expect_str_eq(text,
		"# TYPE g gauge\n"
		"g{n=\"a\"} 1e+06\n"
		"g{n=\"b\"} 123456\n"
		"g{n=\"c\"} 1.234567e+06\n"
		"g{n=\"d\"} 0.30000000000000004\n"
		"g{n=\"e\"} 1e-05\n"
		"g{n=\"f\"} 0.0001\n"
		"g{n=\"g\"} -2.5\n"
		"g{n=\"h\"} NaN\n"
		"g{n=\"i\"} +Inf\n"
		"g{n=\"j\"} -Inf\n"
		"g{n=\"k\"} 0\n");
	free(text);
}

Test(kserve, updates_that_do_not_fit_are_ignored)
{
	static const struct kserve_desc counter = { .name = "c_total", .kind = KSERVE_COUNTER };
	static const struct kserve_desc hist = {
		.name = "h", .kind = KSERVE_HISTOGRAM, .buckets = latency_buckets, .nr_buckets = 1,
	};
	struct kserve_metric *c_total = must_register(&counter);
	struct kserve_metric *h = must_register(&hist);

	kserve_add(c_total, 0, 5);
	kserve_add(c_total, 0, -1);		/* a counter never goes down */
	kserve_add(c_total, 0, NAN);
	kserve_set(c_total, 0, 0);		/* nor is it set */
	kserve_inc(c_total, 1);			/* no such series */
	kserve_observe(c_total, 0, 1);
	kserve_add(h, 0, 1);
	kserve_inc(NULL, 0);
	kserve_observe(NULL, 0, 1);
	kserve_observe(h, 0, 0.5);
	cr_expect_eq(kserve_value(c_total, 0), 5);
	cr_expect_eq(kserve_value(h, 0), 0.5);
	cr_expect_eq(kserve_value(h, 7), 0);
}

Test(kserve, a_histogram_with_a_last_inf_bound_has_one_inf_bucket)
{
	static const double b[] = { 1, INFINITY };
	static const struct kserve_desc d = {
		.name = "h", .kind = KSERVE_HISTOGRAM, .buckets = b, .nr_buckets = 2,
	};
	struct kserve_metric *m = must_register(&d);
	size_t len;
	char *text;

	kserve_observe(m, 0, 3);
	text = kserve_render(reg, 0, &len);
	cr_assert_not_null(text);
	cr_expect_str_eq(text,
		"# TYPE h histogram\n"
		"h_bucket{le=\"1\"} 0\n"
		"h_bucket{le=\"+Inf\"} 1\n"
		"h_sum 3\n"
		"h_count 1\n");
	free(text);
}

static void refused(const struct kserve_desc *d, const char *msg)
{
	struct vs_err e = { { 0 } };

	cr_expect_null(kserve_register(reg, d, &e), "%s registered", d->name);
	cr_expect_str_eq(e.msg, msg);
}

Test(kserve, bad_families_are_refused_with_the_reason)
{
	static const char *const twice[] = { "a", "a" };
	static const char *const one[] = { "x" };
	static const double down[] = { 1, 0.5 };
	static const struct kserve_desc h = {
		.name = "lat", .kind = KSERVE_HISTOGRAM, .buckets = down, .nr_buckets = 1,
	};

	must_register(&h);
	refused(&(struct kserve_desc){ .name = "1abc", .kind = KSERVE_GAUGE },
		"metric \"1abc\": not a metric name");
	refused(&(struct kserve_desc){ .name = "a-b", .kind = KSERVE_GAUGE },
		"metric \"a-b\": not a metric name");
	refused(&(struct kserve_desc){ .name = "lat", .kind = KSERVE_GAUGE },
		"metric lat: its name is taken by lat");
	refused(&(struct kserve_desc){ .name = "lat_count", .kind = KSERVE_COUNTER },
		"metric lat_count: its name is taken by lat");
	refused(&(struct kserve_desc){ .name = "x", .kind = 7 },
		"metric x: kind 7 is none of counter, gauge, histogram");
	refused(&(struct kserve_desc){ .name = "x", .kind = KSERVE_COUNTER,
				       .labels = { "a:b" }, .values = one, .nr_series = 1 },
		"metric x: label \"a:b\": not a label name");
	refused(&(struct kserve_desc){ .name = "x", .kind = KSERVE_COUNTER,
				       .labels = { "__name" }, .values = one, .nr_series = 1 },
		"metric x: label __name: names that begin with __ are Prometheus'");
	refused(&(struct kserve_desc){ .name = "x", .kind = KSERVE_HISTOGRAM,
				       .labels = { "le" }, .values = one, .nr_series = 1 },
		"metric x: label le: a histogram's buckets use it");
	refused(&(struct kserve_desc){ .name = "x", .kind = KSERVE_COUNTER,
				       .labels = { "a", "a" }, .values = twice, .nr_series = 1 },
		"metric x: label a: given twice");
	refused(&(struct kserve_desc){ .name = "x", .kind = KSERVE_COUNTER,
				       .labels = { "a" }, .values = twice, .nr_series = 2 },
		"metric x: series 1: the same labels as series 0");
	refused(&(struct kserve_desc){ .name = "x", .kind = KSERVE_COUNTER,
				       .values = one, .nr_series = 1 },
		"metric x: series given without labels");
	refused(&(struct kserve_desc){ .name = "x", .kind = KSERVE_COUNTER, .labels = { "a" } },
		"metric x: labels without series");
	refused(&(struct kserve_desc){ .name = "x", .kind = KSERVE_HISTOGRAM, .buckets = down,
				       .nr_buckets = 2 },
		"metric x: bucket 1: 0.5 is not above 1");
	refused(&(struct kserve_desc){ .name = "x", .kind = KSERVE_GAUGE, .buckets = down,
				       .nr_buckets = 2 },
		"metric x: buckets given to a counter or a gauge");
}

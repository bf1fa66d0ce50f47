/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vskube's metrics, for Prometheus.
 *
 * The metrics are a registry the caller fills at start with its families
 * (counters, gauges, histograms, each with a fixed set of series named by
 * label values) and updates with calls that only store numbers; a scrape
 * renders the registry in Prometheus' text format 0.0.4.
 */
#ifndef VSKUBE_KSERVE_H
#define VSKUBE_KSERVE_H

#include <stddef.h>

#include "core/compiler.h"
#include "core/err.h"

/* ------------------------------------------------------------------------- */
/* The metrics registry. */

enum kserve_kind {
	KSERVE_COUNTER,
	KSERVE_GAUGE,
	KSERVE_HISTOGRAM,
};

#define KSERVE_LABELS_MAX	4	/* label names of a family */
#define KSERVE_SERIES_MAX	256	/* label value sets of a family */
#define KSERVE_BUCKETS_MAX	32	/* a histogram's upper bounds, +Inf aside */

/*
 * A family of metrics, as the caller declares it (the registry copies
 * what it keeps). Without labels a family has one series, 0. With
 * labels, @values holds @nr_series rows of one value per label name, and
 * a series is updated by its row's index:
 *
 *	static const char *const results[] = { "success", "error" };
 *	static const struct kserve_desc binds = {
 *		.name = "vskube_binds_total",
 *		.help = "Pods bound, by result.",
 *		.kind = KSERVE_COUNTER,
 *		.labels = { "result" },
 *		.values = results,
 *		.nr_series = 2,
 *	};
 */
struct kserve_desc {
	const char *name;			/* [a-zA-Z_:][a-zA-Z0-9_:]* */
	const char *help;			/* NULL: no # HELP line */
	enum kserve_kind kind;
	const char *labels[KSERVE_LABELS_MAX];	/* label names, NULL after the last */
	const char *const *values;		/* nr_series x nr_labels, row by row */
	u32 nr_series;				/* 0 without labels */
	const double *buckets;			/* a histogram's upper bounds, increasing */
	u32 nr_buckets;
};

struct kserve_reg;
struct kserve_metric;

struct kserve_reg *kserve_reg_new(void);
void kserve_reg_free(struct kserve_reg *reg);

/*
 * Add the family @d; NULL with @err when the description is not valid (a
 * bad or taken name, a bad or duplicate label, a series given twice,
 * buckets out of order) or memory runs out. Families are rendered in the
 * order they were registered.
 */
struct kserve_metric *kserve_register(struct kserve_reg *reg, const struct kserve_desc *d,
				      struct vs_err *err);

/*
 * Updates. They allocate nothing and never fail: a NULL @m, a @series out
 * of range or a call that does not fit the kind (kserve_set() on a
 * counter, a negative kserve_add() to a counter) is ignored.
 */
void kserve_add(struct kserve_metric *m, u32 series, double v);	/* counter, gauge */
void kserve_set(struct kserve_metric *m, u32 series, double v);	/* gauge */
void kserve_observe(struct kserve_metric *m, u32 series, double v);	/* histogram */

static inline void kserve_inc(struct kserve_metric *m, u32 series)
{
	kserve_add(m, series, 1);
}

/* A counter's or a gauge's value, a histogram's sum of observations. */
double kserve_value(const struct kserve_metric *m, u32 series);

/*
 * The registry in the text exposition format, NUL-terminated, in memory
 * the caller frees (its length in *@len); NULL when out of memory.
 * @hint is where to start the buffer (the last scrape's length).
 */
char *kserve_render(const struct kserve_reg *reg, size_t hint, size_t *len);

#define KSERVE_CONTENT_TYPE	"text/plain; version=0.0.4; charset=utf-8"

#endif /* VSKUBE_KSERVE_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prometheus' text exposition format (0.0.4) from a registry of metric
 * families: vskube serves it on /metrics (vskube/kserve.h), vsctl prints
 * it for `vsctl stats --prometheus`.
 *
 * The caller fills the registry with its families (counters, gauges,
 * histograms, each with a fixed set of series named by label values) and
 * updates them with calls that only store numbers; vsnl_prom_render() writes
 * the whole registry out.
 */
#ifndef VS_LIB_PROM_H
#define VS_LIB_PROM_H

#include <stddef.h>

#include "lib/compiler.h"
#include "lib/vsnl.h"

enum vsnl_prom_kind {
	VSNL_PROM_COUNTER,
	VSNL_PROM_GAUGE,
	VSNL_PROM_HISTOGRAM,
};

#define VSNL_PROM_LABELS_MAX	4	/* label names of a family */
#define VSNL_PROM_SERIES_MAX	256	/* label value sets of a family */
#define VSNL_PROM_BUCKETS_MAX	32	/* a histogram's upper bounds, +Inf aside */

/*
 * A family of metrics, as the caller declares it (the registry copies
 * what it keeps). Without labels a family has one series, 0. With
 * labels, @values holds @nr_series rows of one value per label name, and
 * a series is updated by its row's index:
 *
 *	static const char *const results[] = { "success", "error" };
 *	static const struct vsnl_prom_desc binds = {
 *		.name = "vskube_binds_total",
 *		.help = "Pods bound, by result.",
 *		.kind = VSNL_PROM_COUNTER,
 *		.labels = { "result" },
 *		.values = results,
 *		.nr_series = 2,
 *	};
 */
struct vsnl_prom_desc {
	const char *name;			/* [a-zA-Z_:][a-zA-Z0-9_:]* */
	const char *help;			/* NULL: no # HELP line */
	enum vsnl_prom_kind kind;
	const char *labels[VSNL_PROM_LABELS_MAX];	/* label names, NULL after the last */
	const char *const *values;		/* nr_series x nr_labels, row by row */
	u32 nr_series;				/* 0 without labels */
	const double *buckets;			/* a histogram's upper bounds, increasing */
	u32 nr_buckets;
};

struct vsnl_prom_reg;
struct vsnl_prom_metric;

struct vsnl_prom_reg *vsnl_prom_reg_new(void);
void vsnl_prom_reg_free(struct vsnl_prom_reg *reg);

/*
 * Add the family @d; NULL with @err when the description is not valid (a
 * bad or taken name, a bad or duplicate label, a series given twice,
 * buckets out of order) or memory runs out. Families are rendered in the
 * order they were registered.
 */
struct vsnl_prom_metric *vsnl_prom_register(struct vsnl_prom_reg *reg,
					    const struct vsnl_prom_desc *d, struct vsnl_err *err);

/*
 * Updates. They allocate nothing and never fail: a NULL @m, a @series out
 * of range or a call that does not fit the kind (vsnl_prom_set() on a
 * counter, a negative vsnl_prom_add() to a counter) is ignored.
 */
void vsnl_prom_add(struct vsnl_prom_metric *m, u32 series, double v);	/* counter, gauge */
void vsnl_prom_set(struct vsnl_prom_metric *m, u32 series, double v);	/* gauge */
void vsnl_prom_observe(struct vsnl_prom_metric *m, u32 series, double v);	/* histogram */

/*
 * A histogram's series as another process counted it: @nr (its bounds and
 * one) observations per bucket, not cumulative, +Inf last, and their sum.
 * Ignored unless @nr is the family's number of buckets with +Inf.
 */
void vsnl_prom_hist_set(struct vsnl_prom_metric *m, u32 series, const u64 *counts, u32 nr,
			double sum);

static inline void vsnl_prom_inc(struct vsnl_prom_metric *m, u32 series)
{
	vsnl_prom_add(m, series, 1);
}

/* A counter's or a gauge's value, a histogram's sum of observations. */
double vsnl_prom_value(const struct vsnl_prom_metric *m, u32 series);

/*
 * The registry in the text exposition format, NUL-terminated, in memory
 * the caller frees (its length in *@len); NULL when out of memory.
 * @hint is where to start the buffer (the last scrape's length).
 */
char *vsnl_prom_render(const struct vsnl_prom_reg *reg, size_t hint, size_t *len);

#define VSNL_PROM_CONTENT_TYPE	"text/plain; version=0.0.4; charset=utf-8"

#endif /* VS_LIB_PROM_H */

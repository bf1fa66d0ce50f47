// SPDX-License-Identifier: Apache-2.0
/*
 * The metrics registry and the text exposition format: see prom.h.
 *
 * The registry owns copies of its families' names, labels and bounds and
 * one array of numbers per family, so that an update is a store at an
 * index. A histogram keeps each series' counts per bucket (not
 * cumulative: an observation touches one), the +Inf bucket last, and
 * its sum; the cumulative counts Prometheus reads are summed at render.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/list.h>

#include "lib/prom.h"

struct vsnl_prom_metric {
	struct nl_list_head node;
	enum vsnl_prom_kind kind;
	char *name;
	char *help;
	u32 nr_labels;
	u32 nr_series;			/* 1 without labels */
	u32 nr_buckets;			/* finite bounds; the +Inf bucket follows them */
	char *labels[VSNL_PROM_LABELS_MAX];
	char **values;			/* nr_series x nr_labels */
	double *bounds;
	double *value;			/* per series: the value; a histogram's sum */
	u64 *counts;			/* per series, nr_buckets + 1: a histogram's buckets */
};

struct vsnl_prom_reg {
	struct nl_list_head metrics;
};

/* ------------------------------------------------------------------------- */
/* The registry. */

struct vsnl_prom_reg *vsnl_prom_reg_new(void)
{
	struct vsnl_prom_reg *reg = calloc(1, sizeof(*reg));

	if (reg)
		NL_INIT_LIST_HEAD(&reg->metrics);
	return reg;
}

static void metric_free(struct vsnl_prom_metric *m)
{
	if (!m)
		return;
	if (m->values)
		for (u32 i = 0; i < m->nr_series * m->nr_labels; i++)
			free(m->values[i]);
	for (u32 i = 0; i < VSNL_PROM_LABELS_MAX; i++)
		free(m->labels[i]);
	free(m->values);
	free(m->bounds);
	free(m->value);
	free(m->counts);
	free(m->help);
	free(m->name);
	free(m);
}

void vsnl_prom_reg_free(struct vsnl_prom_reg *reg)
{
	struct vsnl_prom_metric *m, *n;

	if (!reg)
		return;
	nl_list_for_each_entry_safe(m, n, &reg->metrics, node) {
		nl_list_del(&m->node);
		metric_free(m);
	}
	free(reg);
}

static bool name_char(char c, bool first, bool colon)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (colon && c == ':') || (!first && c >= '0' && c <= '9');
}

/* A metric name may hold ':' (recording rules' names); a label name may not. */
static bool valid_name(const char *s, bool colon)
{
	if (!s || !*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!name_char(*p, p == s, colon))
			return false;
	return true;
}

static const char *const hist_suffixes[] = { "_bucket", "_sum", "_count" };

/* Whether @m's lines use the name @name (a histogram's lines carry suffixes). */
static bool metric_uses(const struct vsnl_prom_metric *m, const char *name)
{
	size_t len = strlen(m->name);

	if (!strcmp(m->name, name))
		return true;
	if (m->kind != VSNL_PROM_HISTOGRAM || strncmp(m->name, name, len))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(hist_suffixes); i++)
		if (!strcmp(name + len, hist_suffixes[i]))
			return true;
	return false;
}

/* Two families whose lines share a name would read as one to Prometheus. */
static const struct vsnl_prom_metric *name_taken(const struct vsnl_prom_reg *reg,
					      const struct vsnl_prom_desc *d)
{
	const struct vsnl_prom_metric *m;
	char name[256 + 8];

	nl_list_for_each_entry(m, &reg->metrics, node) {
		if (metric_uses(m, d->name))
			return m;
		if (d->kind != VSNL_PROM_HISTOGRAM)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(hist_suffixes); i++) {
			snprintf(name, sizeof(name), "%s%s", d->name, hist_suffixes[i]);
			if (metric_uses(m, name))
				return m;
		}
	}
	return NULL;
}

static int check_labels(const struct vsnl_prom_desc *d, u32 *nr, struct vsnl_err *err)
{
	u32 n = 0;

	while (n < VSNL_PROM_LABELS_MAX && d->labels[n])
		n++;
	for (u32 i = 0; i < n; i++) {
		const char *l = d->labels[i];

		if (!valid_name(l, false))
			return vsnl_err_set(err, EINVAL, "label \"%s\": not a label name", l);
		if (!strncmp(l, "__", 2))
			return vsnl_err_set(err, EINVAL,
					  "label %s: names that begin with __ are Prometheus'", l);
		if (d->kind == VSNL_PROM_HISTOGRAM && !strcmp(l, "le"))
			return vsnl_err_set(err, EINVAL, "label le: a histogram's buckets use it");
		for (u32 j = 0; j < i; j++)
			if (!strcmp(l, d->labels[j]))
				return vsnl_err_set(err, EINVAL, "label %s: given twice", l);
	}
	if (!n && (d->nr_series || d->values))
		return vsnl_err_set(err, EINVAL, "series given without labels");
	if (n && (!d->nr_series || !d->values))
		return vsnl_err_set(err, EINVAL, "labels without series");
	if (d->nr_series > VSNL_PROM_SERIES_MAX)
		return vsnl_err_set(err, EINVAL, "%u series: at most %u", d->nr_series,
				  VSNL_PROM_SERIES_MAX);
	for (u32 s = 0; s < d->nr_series; s++) {
		const char *const *row = d->values + (size_t)s * n;

		for (u32 i = 0; i < n; i++)
			if (!row[i])
				return vsnl_err_set(err, EINVAL, "series %u: no value for %s", s,
						  d->labels[i]);
		for (u32 t = 0; t < s; t++) {
			const char *const *other = d->values + (size_t)t * n;
			u32 i = 0;

			while (i < n && !strcmp(row[i], other[i]))
				i++;
			if (i == n)
				return vsnl_err_set(err, EINVAL,
						  "series %u: the same labels as series %u", s, t);
		}
	}
	*nr = n;
	return 0;
}

/* Increasing finite bounds; a last +Inf is dropped, as the +Inf bucket is always there. */
static int check_buckets(const struct vsnl_prom_desc *d, u32 *nr, struct vsnl_err *err)
{
	u32 n = d->nr_buckets;

	if (d->kind != VSNL_PROM_HISTOGRAM) {
		if (n || d->buckets)
			return vsnl_err_set(err, EINVAL, "buckets given to a counter or a gauge");
		*nr = 0;
		return 0;
	}
	if (n && !d->buckets)
		return vsnl_err_set(err, EINVAL, "%u buckets but no bounds", n);
	if (n && isinf(d->buckets[n - 1]) && d->buckets[n - 1] > 0)
		n--;
	if (n > VSNL_PROM_BUCKETS_MAX)
		return vsnl_err_set(err, EINVAL, "%u buckets: at most %u", n, VSNL_PROM_BUCKETS_MAX);
	for (u32 i = 0; i < n; i++) {
		if (isnan(d->buckets[i]) || isinf(d->buckets[i]))
			return vsnl_err_set(err, EINVAL, "bucket %u: not a finite number", i);
		if (i && !(d->buckets[i] > d->buckets[i - 1]))
			return vsnl_err_set(err, EINVAL, "bucket %u: %g is not above %g", i,
					  d->buckets[i], d->buckets[i - 1]);
	}
	*nr = n;
	return 0;
}

static int check_desc(const struct vsnl_prom_reg *reg, const struct vsnl_prom_desc *d,
		      u32 *nr_labels, u32 *nr_buckets, struct vsnl_err *err)
{
	const struct vsnl_prom_metric *other;

	if (!valid_name(d->name, true))
		return vsnl_err_set(err, EINVAL, "metric \"%s\": not a metric name",
				  d->name ? d->name : "");
	if (strlen(d->name) > 255)
		return vsnl_err_set(err, EINVAL, "metric %.32s...: longer than 255 bytes", d->name);
	if (d->kind != VSNL_PROM_COUNTER && d->kind != VSNL_PROM_GAUGE && d->kind != VSNL_PROM_HISTOGRAM)
		return vsnl_err_set(err, EINVAL,
				  "metric %s: kind %d is none of counter, gauge, histogram",
				  d->name, (int)d->kind);
	other = name_taken(reg, d);
	if (other)
		return vsnl_err_set(err, EEXIST, "metric %s: its name is taken by %s", d->name,
				  other->name);
	if (check_labels(d, nr_labels, err) || check_buckets(d, nr_buckets, err)) {
		vsnl_err_prefix(err, "metric %s: ", d->name);
		return -EINVAL;
	}
	return 0;
}

struct vsnl_prom_metric *vsnl_prom_register(struct vsnl_prom_reg *reg,
					    const struct vsnl_prom_desc *d, struct vsnl_err *err)
{
	struct vsnl_prom_metric *m;
	u32 nr_labels = 0, nr_buckets = 0, nr_series;

	if (check_desc(reg, d, &nr_labels, &nr_buckets, err))
		return NULL;
	nr_series = nr_labels ? d->nr_series : 1;
	m = calloc(1, sizeof(*m));
	if (!m)
		goto out_nomem;
	m->kind = d->kind;
	m->nr_labels = nr_labels;
	m->nr_series = nr_series;
	m->nr_buckets = nr_buckets;
	m->name = strdup(d->name);
	m->help = d->help ? strdup(d->help) : NULL;
	m->value = calloc(nr_series, sizeof(*m->value));
	if (!m->name || (d->help && !m->help) || !m->value)
		goto out_nomem;
	for (u32 i = 0; i < nr_labels; i++)
		if (!(m->labels[i] = strdup(d->labels[i])))
			goto out_nomem;
	if (nr_labels) {
		m->values = calloc((size_t)nr_series * nr_labels, sizeof(*m->values));
		if (!m->values)
			goto out_nomem;
		for (u32 i = 0; i < nr_series * nr_labels; i++)
			if (!(m->values[i] = strdup(d->values[i])))
				goto out_nomem;
	}
	if (d->kind == VSNL_PROM_HISTOGRAM) {
		m->bounds = calloc(nr_buckets ? nr_buckets : 1, sizeof(*m->bounds));
		m->counts = calloc((size_t)nr_series * (nr_buckets + 1), sizeof(*m->counts));
		if (!m->bounds || !m->counts)
			goto out_nomem;
		if (nr_buckets)
			memcpy(m->bounds, d->buckets, nr_buckets * sizeof(*m->bounds));
	}
	nl_list_add_tail(&m->node, &reg->metrics);
	return m;

out_nomem:
	metric_free(m);
	vsnl_err_set(err, ENOMEM, "metric %s: out of memory", d->name);
	return NULL;
}

void vsnl_prom_add(struct vsnl_prom_metric *m, u32 series, double v)
{
	if (!m || series >= m->nr_series || m->kind == VSNL_PROM_HISTOGRAM)
		return;
	/* A counter only goes up (or starts again with the process). */
	if (m->kind == VSNL_PROM_COUNTER && !(v >= 0))
		return;
	m->value[series] += v;
}

void vsnl_prom_set(struct vsnl_prom_metric *m, u32 series, double v)
{
	if (m && series < m->nr_series && m->kind == VSNL_PROM_GAUGE)
		m->value[series] = v;
}

void vsnl_prom_observe(struct vsnl_prom_metric *m, u32 series, double v)
{
	u32 lo = 0, hi;

	if (!m || series >= m->nr_series || m->kind != VSNL_PROM_HISTOGRAM)
		return;
	/* The first bound at or above @v (le: less or equal); NaN falls in +Inf. */
	hi = m->nr_buckets;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (v <= m->bounds[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	if (isnan(v))
		lo = m->nr_buckets;
	m->counts[(size_t)series * (m->nr_buckets + 1) + lo]++;
	m->value[series] += v;
}

void vsnl_prom_hist_set(struct vsnl_prom_metric *m, u32 series, const u64 *counts, u32 nr,
			double sum)
{
	if (!m || series >= m->nr_series || m->kind != VSNL_PROM_HISTOGRAM || nr != m->nr_buckets + 1)
		return;
	memcpy(&m->counts[(size_t)series * nr], counts, nr * sizeof(*counts));
	m->value[series] = sum;
}

double vsnl_prom_value(const struct vsnl_prom_metric *m, u32 series)
{
	return m && series < m->nr_series ? m->value[series] : 0;
}

/* ------------------------------------------------------------------------- */
/* The text exposition format. */

struct vsnl_prom_buf {
	char *p;
	size_t len, cap;
	bool nomem;			/* one check at the end instead of one per write */
};

static void buf_put(struct vsnl_prom_buf *b, const char *s, size_t n)
{
	if (b->nomem)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->nomem = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void buf_puts(struct vsnl_prom_buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

/*
 * @s escaped as the format wants: backslash and newline in HELP text,
 * and the double quote too in a label value.
 */
static void buf_put_escaped(struct vsnl_prom_buf *b, const char *s, bool quote)
{
	const char *run = s;

	for (; *s; s++) {
		const char *esc = NULL;

		if (*s == '\\')
			esc = "\\\\";
		else if (*s == '\n')
			esc = "\\n";
		else if (*s == '"' && quote)
			esc = "\\\"";
		if (!esc)
			continue;
		buf_put(b, run, (size_t)(s - run));
		buf_puts(b, esc);
		run = s + 1;
	}
	buf_put(b, run, (size_t)(s - run));
}

/*
 * A float as Prometheus' Go clients write one (strconv 'g', shortest):
 * the fewest digits that read back as the same double, in exponent form
 * below 1e-4 and from 1e+06 on; NaN, +Inf and -Inf by name.
 */
static void format_float(char *out, size_t len, double v)
{
	char e[40];
	int digits, exp;

	if (isnan(v)) {
		snprintf(out, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(out, len, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	for (digits = 1; digits < 17; digits++) {
		snprintf(e, sizeof(e), "%.*e", digits - 1, v);
		if (strtod(e, NULL) == v)
			break;
	}
	snprintf(e, sizeof(e), "%.*e", digits - 1, v);
	exp = atoi(strchr(e, 'e') + 1);
	if (exp < -4 || exp >= 6)
		snprintf(out, len, "%s", e);
	else
		snprintf(out, len, "%.*f", digits - 1 - exp > 0 ? digits - 1 - exp : 0, v);
}

/* NAME[SUFFIX][{l="v",...[,le="LE"]}] VALUE */
static void put_sample(struct vsnl_prom_buf *b, const struct vsnl_prom_metric *m,
		       const char *suffix, u32 series, const char *le, const char *value)
{
	const char *sep = "{";

	buf_puts(b, m->name);
	buf_puts(b, suffix);
	for (u32 i = 0; i < m->nr_labels; i++) {
		buf_puts(b, sep);
		buf_puts(b, m->labels[i]);
		buf_puts(b, "=\"");
		buf_put_escaped(b, m->values[(size_t)series * m->nr_labels + i], true);
		buf_puts(b, "\"");
		sep = ",";
	}
	if (le) {
		buf_puts(b, sep);
		buf_puts(b, "le=\"");
		buf_puts(b, le);
		buf_puts(b, "\"");
		sep = ",";
	}
	if (sep[0] == ',')
		buf_puts(b, "}");
	buf_puts(b, " ");
	buf_puts(b, value);
	buf_puts(b, "\n");
}

static void put_histogram(struct vsnl_prom_buf *b, const struct vsnl_prom_metric *m, u32 s)
{
	const u64 *counts = m->counts + (size_t)s * (m->nr_buckets + 1);
	char le[40], num[40];
	u64 cum = 0;

	for (u32 i = 0; i <= m->nr_buckets; i++) {
		cum += counts[i];
		if (i < m->nr_buckets)
			format_float(le, sizeof(le), m->bounds[i]);
		else
			snprintf(le, sizeof(le), "+Inf");
		snprintf(num, sizeof(num), "%" PRIu64, cum);
		put_sample(b, m, "_bucket", s, le, num);
	}
	format_float(num, sizeof(num), m->value[s]);
	put_sample(b, m, "_sum", s, NULL, num);
	snprintf(num, sizeof(num), "%" PRIu64, cum);
	put_sample(b, m, "_count", s, NULL, num);
}

static const char *const kind_names[] = {
	[VSNL_PROM_COUNTER] = "counter",
	[VSNL_PROM_GAUGE] = "gauge",
	[VSNL_PROM_HISTOGRAM] = "histogram",
};

static void put_metric(struct vsnl_prom_buf *b, const struct vsnl_prom_metric *m)
{
	char num[40];

	if (m->help) {
		buf_puts(b, "# HELP ");
		buf_puts(b, m->name);
		buf_puts(b, " ");
		buf_put_escaped(b, m->help, false);
		buf_puts(b, "\n");
	}
	buf_puts(b, "# TYPE ");
	buf_puts(b, m->name);
	buf_puts(b, " ");
	buf_puts(b, kind_names[m->kind]);
	buf_puts(b, "\n");
	for (u32 s = 0; s < m->nr_series; s++) {
		if (m->kind == VSNL_PROM_HISTOGRAM) {
			put_histogram(b, m, s);
			continue;
		}
		format_float(num, sizeof(num), m->value[s]);
		put_sample(b, m, "", s, NULL, num);
	}
}

char *vsnl_prom_render(const struct vsnl_prom_reg *reg, size_t hint, size_t *len)
{
	struct vsnl_prom_buf b = { 0 };
	const struct vsnl_prom_metric *m;

	b.p = malloc(hint + 1);
	if (!b.p)
		return NULL;
	b.cap = hint + 1;
	b.p[0] = '\0';
	if (reg)
		nl_list_for_each_entry(m, &reg->metrics, node)
			put_metric(&b, m);
	if (b.nomem) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}
